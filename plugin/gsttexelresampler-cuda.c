/* gst-texel: the GPU path of the elements that resample, texelconvert and
 * texelwarp (CUDA builds only): a TexelCudaConverter each, created in
 * open_cuda and freed in close_cuda, which the two share.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelconvert-private.h"
#include "gsttexelwarp-private.h"

/* Where an element class keeps its converter in the instance
 * (G_STRUCT_OFFSET), as type data. */
static GQuark
gst_texel_resampler_quark (void)
{
  return g_quark_from_static_string ("gst-texel-resampler-offset");
}

static TexelCudaConverter **
gst_texel_resampler_get (GstTexelBase *base)
{
  glong offset = GPOINTER_TO_SIZE (
      g_type_get_qdata (G_OBJECT_TYPE (base), gst_texel_resampler_quark ()));

  return G_STRUCT_MEMBER_P (base, offset);
}

/* The converter is told when the element's frames complete. */
static gboolean
gst_texel_resampler_open_cuda (GstTexelBase *base, gint device)
{
  return gst_texel_base_new_converter (base, device,
                                       gst_texel_resampler_get (base));
}

static void
gst_texel_resampler_close_cuda (GstTexelBase *base)
{
  TexelCudaConverter **converter = gst_texel_resampler_get (base);

  texel_cuda_converter_free (*converter);
  *converter = NULL;
}

static void
gst_texel_resampler_class_init (GstTexelBaseClass *klass, glong offset)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), gst_texel_resampler_quark (),
                    GSIZE_TO_POINTER (offset));
  klass->open_cuda = GST_DEBUG_FUNCPTR (gst_texel_resampler_open_cuda);
  klass->close_cuda = GST_DEBUG_FUNCPTR (gst_texel_resampler_close_cuda);
}

static int
gst_texel_convert_process_cuda (GstTexelBase *base, const TexelImage *in,
                                const TexelImage *out, int row0, int row1,
                                TexelStream stream)
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

static int
gst_texel_warp_process_cuda (GstTexelBase *base, const TexelImage *in,
                             const TexelImage *out, int row0, int row1,
                             TexelStream stream)
{
  GstTexelWarp *self = GST_TEXEL_WARP (base);

  return texel_cuda_warp (self->converter, &self->plan, in, out, row0, row1,
                          stream);
}

void
gst_texel_warp_class_init_cuda (GstTexelBaseClass *klass)
{
  klass->process_cuda = GST_DEBUG_FUNCPTR (gst_texel_warp_process_cuda);
  gst_texel_resampler_class_init (klass,
                                  G_STRUCT_OFFSET (GstTexelWarp, converter));
}
