/* gst-texel: the GPU resampler of the elements that resample
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelresampler.h"

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

void
gst_texel_resampler_class_init (GstTexelBaseClass *klass, glong offset)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), gst_texel_resampler_quark (),
                    GSIZE_TO_POINTER (offset));
  klass->open_cuda = GST_DEBUG_FUNCPTR (gst_texel_resampler_open_cuda);
  klass->close_cuda = GST_DEBUG_FUNCPTR (gst_texel_resampler_close_cuda);
}
