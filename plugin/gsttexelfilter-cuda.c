/* gst-texel: texelfilter's GPU path (CUDA builds only)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelfilter-private.h"

static int
gst_texel_filter_process_cuda (GstTexelBase *base, const TexelImage *in,
                               const TexelImage *out, int row0, int row1,
                               TexelStream stream)
{
  GstTexelFilter *self = GST_TEXEL_FILTER (base);

  return texel_cuda_filter (self->device, &self->plan, in, out, row0, row1,
                            stream);
}

static gboolean
gst_texel_filter_open_cuda (GstTexelBase *base, gint device)
{
  /* No GPU state of its own: the plan travels with each launch. */
  GST_TEXEL_FILTER (base)->device = device;
  return TRUE;
}

void
gst_texel_filter_class_init_cuda (GstTexelBaseClass *klass)
{
  klass->process_cuda = GST_DEBUG_FUNCPTR (gst_texel_filter_process_cuda);
  klass->open_cuda = GST_DEBUG_FUNCPTR (gst_texel_filter_open_cuda);
}
