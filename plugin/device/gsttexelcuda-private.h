/* gst-texel: what the layers above the device take from the CUDA runtime
 * beside gsttexelcuda.h: its header and the GPU path's debug category
 * (built only with CUDA, have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_CUDA_PRIVATE_H__
#define __GST_TEXEL_CUDA_PRIVATE_H__

#include <cuda_runtime_api.h>
#include "device/gsttexelcuda.h"
#include "texel-fault.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_texel_cuda_debug);
/* Registers the category above; called by the units' entry points. */
void gst_texel_cuda_debug_init (void);

G_END_DECLS
#endif
