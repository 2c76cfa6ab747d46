/* gst-texel: texelconvert's instance, shared by gsttexelconvert.c and its
 * GPU path, gsttexelresampler-cuda.c.
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
  /* GPU path: the resampler, from open_cuda to close_cuda (NULL in
   * CPU-only builds) */
  TexelCudaConverter *converter;
};

/* Installs the GPU path's process_cuda, open_cuda and close_cuda; nothing
 * in a CPU-only build, whose elements run on the CPU. */
#if HAVE_CUDA
void gst_texel_convert_class_init_cuda (GstTexelBaseClass *klass);
#else
static inline void
gst_texel_convert_class_init_cuda (GstTexelBaseClass *klass)
{
}
#endif

G_END_DECLS
#endif
