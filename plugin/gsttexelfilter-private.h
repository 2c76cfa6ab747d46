/* gst-texel: texelfilter's instance, shared by gsttexelfilter.c and its
 * GPU path, gsttexelfilter-cuda.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_FILTER_PRIVATE_H__
#define __GST_TEXEL_FILTER_PRIVATE_H__

#include "gsttexelfilter.h"
#include "texel-filter.h"

G_BEGIN_DECLS

struct _GstTexelFilter
{
  GstTexelBase parent;

  /* properties, under the object lock */
  TexelFilterConfig settings;

  /* streaming thread */
  TexelFilterPlan plan;
  gint device; /* GPU path: from open_cuda */
};

/* Installs the GPU path's process_cuda and open_cuda; nothing in a
 * CPU-only build, whose elements run on the CPU. */
#if HAVE_CUDA
void gst_texel_filter_class_init_cuda (GstTexelBaseClass *klass);
#else
static inline void
gst_texel_filter_class_init_cuda (GstTexelBaseClass *klass)
{
}
#endif

G_END_DECLS
#endif
