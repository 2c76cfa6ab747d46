/* gst-texel: texeladjust's GPU path (CUDA builds only): its 3D LUT on
 * the GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elements/gsttexeladjust-private.h"
#include "texel-cuda.h"

gboolean
gst_texel_adjust_prepare_cuda (GstTexelAdjust *self)
{
  TexelCudaContext *ctx = gst_texel_base_kernel_context (GST_TEXEL_BASE (self));
  int err;

  if (!self->plan.kernel.lut3d || ctx == NULL)
    return TRUE;
  if (self->gpu_lut == NULL || self->gpu_lut_cube != self->cube)
    {
      texel_cuda_lut3d_free (self->gpu_lut);
      self->gpu_lut = NULL;
      self->gpu_lut_cube = NULL;
      err = texel_cuda_lut3d_new (ctx, self->cube, &self->gpu_lut);
      if (err)
        {
          GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
                             ("Cannot copy the 3D LUT to the GPU: %s",
                              texel_cuda_error_string (err)),
                             ("CUDA error %d", err));
          return FALSE;
        }
      self->gpu_lut_cube = self->cube;
    }
  self->plan.lut3d = self->gpu_lut;
  return TRUE;
}

static void
gst_texel_adjust_close_cuda (GstTexelBase *base)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (base);

  texel_cuda_lut3d_free (self->gpu_lut);
  self->gpu_lut = NULL;
  self->gpu_lut_cube = NULL;
  self->plan.lut3d = NULL;
}

void
gst_texel_adjust_class_init_cuda (GstTexelBaseClass *klass)
{
  klass->close_cuda = GST_DEBUG_FUNCPTR (gst_texel_adjust_close_cuda);
}
