/* gst-texel: texeladjust's GPU path (CUDA builds only)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexeladjust-private.h"
#include "texel-cuda.h"

gboolean
gst_texel_adjust_prepare_cuda (GstTexelAdjust *self)
{
  int err;

  if (!self->plan.kernel.lut3d
      || !gst_texel_base_is_cuda (GST_TEXEL_BASE (self)))
    return TRUE;
  if (self->gpu_lut != NULL && self->gpu_lut_cube == self->cube)
    return TRUE;
  texel_cuda_lut3d_free (self->gpu_lut);
  self->gpu_lut = NULL;
  self->gpu_lut_cube = NULL;
  err = texel_cuda_lut3d_new (self->device, self->cube, &self->gpu_lut);
  if (err)
    {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
                         ("Cannot copy the 3D LUT to the GPU: %s",
                          texel_cuda_error_string (err)),
                         ("CUDA error %d", err));
      return FALSE;
    }
  self->gpu_lut_cube = self->cube;
  return TRUE;
}

static int
gst_texel_adjust_process_cuda (GstTexelBase *base, const TexelImage *in,
                               const TexelImage *out, int row0, int row1,
                               TexelStream stream)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (base);

  return texel_cuda_adjust (self->device, &self->plan, self->gpu_lut, in, out,
                            row0, row1, stream);
}

static gboolean
gst_texel_adjust_open_cuda (GstTexelBase *base, gint device)
{
  /* No GPU state of its own: the plan (with its LUTs) travels with each
   * launch. */
  GST_TEXEL_ADJUST (base)->device = device;
  return TRUE;
}

static void
gst_texel_adjust_close_cuda (GstTexelBase *base)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (base);

  texel_cuda_lut3d_free (self->gpu_lut);
  self->gpu_lut = NULL;
  self->gpu_lut_cube = NULL;
}

void
gst_texel_adjust_class_init_cuda (GstTexelBaseClass *klass)
{
  klass->process_cuda = GST_DEBUG_FUNCPTR (gst_texel_adjust_process_cuda);
  klass->open_cuda = GST_DEBUG_FUNCPTR (gst_texel_adjust_open_cuda);
  klass->close_cuda = GST_DEBUG_FUNCPTR (gst_texel_adjust_close_cuda);
}
