/* gst-texel: texelfilter's instance.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_FILTER_PRIVATE_H__
#define __GST_TEXEL_FILTER_PRIVATE_H__

#include "elements/gsttexelfilter.h"
#include "texel-filter.h"
#include "texel-filter-fast.h"

G_BEGIN_DECLS

struct _GstTexelFilter
{
  GstTexelBase parent;

  /* properties, under the object lock */
  TexelFilterConfig settings;

  /* streaming thread */
  TexelFilterPlan plan;
  /* The fast CPU path's weights, pointed to by plan.fast. */
  TexelFilterFast fast;
};

G_END_DECLS
#endif
