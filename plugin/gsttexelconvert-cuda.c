/* gst-texel: texelconvert's GPU path (CUDA builds only)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelconvert-private.h"
#include "gsttexelresampler.h"

static int
gst_texel_convert_process_cuda (GstTexelBase *base, const TexelImage *in,
                                const TexelImage *out, int row0, int row1,
                                GstTexelStream stream)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (base);

  return texel_cuda_convert (self->converter, &self->plan, in, out, row0, row1,
                             stream);
}

void
gst_texel_convert_class_init_cuda (GstTexelBaseClass *klass)
{
  klass->process_cuda = GST_DEBUG_FUNCPTR (gst_texel_convert_process_cuda);
  gst_texel_resampler_class_init (klass,
                                  G_STRUCT_OFFSET (GstTexelConvert, converter));
}
