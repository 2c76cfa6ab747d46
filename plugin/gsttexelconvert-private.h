/* gst-texel: texelconvert's instance.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_CONVERT_PRIVATE_H__
#define __GST_TEXEL_CONVERT_PRIVATE_H__

#include "gsttexelconvert.h"
#include "texel-cuda.h"

G_BEGIN_DECLS

struct _GstTexelConvert
{
  GstTexelBase parent;

  /* properties, under the object lock */
  TexelMethod method;
  gint crop[4]; /* left, right, top, bottom */
  gboolean add_borders;
  guint border_color;
  GstVideoOrientationMethod direction;
  GstVideoOrientationMethod tag_direction;

  /* streaming thread */
  TexelConvertPlan plan;
};

G_END_DECLS
#endif
