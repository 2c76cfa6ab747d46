/* gst-texel: the GPU resampler of the elements that resample (texelconvert,
 * texelwarp). CUDA builds only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_RESAMPLER_H__
#define __GST_TEXEL_RESAMPLER_H__

#include "gsttexelbase.h"
#include "texel-cuda.h"

G_BEGIN_DECLS

/* Gives the elements of @klass a resampler, the TexelCudaConverter * at
 * @offset in the instance (G_STRUCT_OFFSET): open_cuda creates it, told
 * when the element's frames complete, and close_cuda frees it. */
void gst_texel_resampler_class_init (GstTexelBaseClass *klass, glong offset);

G_END_DECLS
#endif
