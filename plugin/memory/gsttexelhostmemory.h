/* gst-texel: GstMemory in pinned, mapped host memory (cudaHostAlloc).
 *
 * On an integrated GPU (Jetson) this memory is the same DRAM the GPU reads:
 * kernels use it through its device pointer and no frame is ever copied.
 * On a discrete GPU it is what DMA copies need to run at full PCIe rate.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_HOST_MEMORY_H__
#define __GST_TEXEL_HOST_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "device/gsttexelcuda.h"

G_BEGIN_DECLS

#define GST_TEXEL_HOST_MEMORY_TYPE "TexelHostMemory"

/* Address alignment of every allocation: the largest textureAlignment of
 * current GPUs, so each buffer can back a texture directly. */
#define GST_TEXEL_HOST_MEMORY_ALIGN 511

/* @context: the CUDA context allocations are made in (NULL: @device's
 * primary context); see gst_texel_cuda_context_enter. */
GstAllocator *gst_texel_host_allocator_new (gint device,
                                            GstCudaContext *context);
gboolean gst_is_texel_host_memory (GstMemory *mem);
/* Device pointer matching the host address @host inside @mem. */
guint8 *gst_texel_host_memory_device_pointer (GstMemory *mem,
                                              const guint8 *host);

/* A video buffer pool whose buffers live in pinned mapped memory, with
 * GstVideoMeta. */
GstBufferPool *gst_texel_host_pool_new (GstAllocator *allocator, GstCaps *caps,
                                        guint size, guint min_buffers,
                                        guint max_buffers);

G_END_DECLS
#endif
