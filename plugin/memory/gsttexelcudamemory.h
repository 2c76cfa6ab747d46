/* gst-texel: GStreamer's CUDA library (memory:CUDAMemory) for any element:
 * the pipeline's GstCudaContext, frames in GstCudaMemory mapped in place,
 * pools of GstCudaMemory. Each function takes the element and its context
 * as arguments; builds without gstreamer-cuda get the inline fallbacks
 * below (the device's primary context, system memory only).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_CUDA_MEMORY_H__
#define __GST_TEXEL_CUDA_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "device/gsttexelcuda.h"
#include "memory/gsttexelmemorycaps.h"
#include "memory/gsttexelnvmm.h"

G_BEGIN_DECLS

#if HAVE_GST_CUDA
/* The pipeline's GstCudaContext for @self, kept in @context: from a
 * neighbour (context query), the application or a bin (need-context
 * message), else a new one that @self posts for the others
 * (have-context), so that one pipeline uses one context and CUDA memory
 * passes between its elements as it is. With @device_id -1 @self takes
 * whatever device the pipeline already uses, and @caps is probed again
 * for it. Without the driver library or a context @context stays NULL
 * (the device's primary context, system memory); FALSE only when the
 * pipeline's device cannot be used (@reason, @err say why). */
gboolean gst_texel_cuda_memory_find_context (GstElement *self, gint device_id,
                                             GstCudaContext **context,
                                             TexelCudaCaps *caps,
                                             const gchar **reason, int *err);
/* Maps @buffer's frame in place with GST_MAP_CUDA (device addresses,
 * nothing is copied) where every memory of it is GstCudaMemory that
 * @context can use: its own, or a peer's it has access to. FALSE without
 * mapping otherwise, GST_MAP_CUDA then added to @flags for
 * gst_video_frame_map. Memory of a context out of reach is warned about
 * once (@warned). */
gboolean gst_texel_cuda_memory_map_frame (GstElement *self,
                                          GstCudaContext *context,
                                          GstVideoFrame *frame,
                                          GstVideoInfo *info, GstBuffer *buffer,
                                          GstMapFlags *flags, gboolean *warned);
/* Where the planes of two mapped frames are (NVMM frames included). */
GstTexelFrameMemory gst_texel_frames_memory (GstVideoFrame *in,
                                             GstVideoFrame *out);
/* A pool of GstCudaMemory in @context; @size gets the size of its buffers
 * (rows padded to the pitch cuMemAllocPitch chose). */
GstBufferPool *gst_texel_cuda_memory_pool_new (GstCudaContext *context,
                                               GstCaps *caps, guint min,
                                               guint max, guint *size);
/* Proposes the video meta and, when @need_pool, a pool of @min buffers in
 * @context: upstream CUDA elements then write their frames where the
 * kernels read them in place. */
gboolean gst_texel_cuda_memory_propose_pool (GstCudaContext *context,
                                             GstQuery *query, GstCaps *caps,
                                             gboolean need_pool, guint min);
/* Answers a neighbour's context query with @context. */
gboolean gst_texel_cuda_memory_context_query (GstElement *self, GstQuery *query,
                                              GstCudaContext *context);
/* Takes a GstCudaContext for @device_id from the application or a bin
 * into @own. */
void gst_texel_cuda_memory_set_context (GstElement *self, GstContext *context,
                                        gint device_id, GstCudaContext **own);
/* The CUDA allocator lives as long as the process: created with the
 * class, rather than inside the first pipeline that needs it. */
void gst_texel_cuda_memory_init (void);
#else
static inline gboolean
gst_texel_cuda_memory_find_context (GstElement *self, gint device_id,
                                    GstCudaContext **context,
                                    TexelCudaCaps *caps, const gchar **reason,
                                    int *err)
{
  return TRUE;
}

static inline gboolean
gst_texel_cuda_memory_map_frame (GstElement *self, GstCudaContext *context,
                                 GstVideoFrame *frame, GstVideoInfo *info,
                                 GstBuffer *buffer, GstMapFlags *flags,
                                 gboolean *warned)
{
  return FALSE;
}

static inline GstTexelFrameMemory
gst_texel_frames_memory (GstVideoFrame *in, GstVideoFrame *out)
{
  return gst_texel_nvmm_frames_memory (in, out);
}

static inline GstBufferPool *
gst_texel_cuda_memory_pool_new (GstCudaContext *context, GstCaps *caps,
                                guint min, guint max, guint *size)
{
  return NULL;
}

static inline gboolean
gst_texel_cuda_memory_propose_pool (GstCudaContext *context, GstQuery *query,
                                    GstCaps *caps, gboolean need_pool,
                                    guint min)
{
  return FALSE;
}

static inline gboolean
gst_texel_cuda_memory_context_query (GstElement *self, GstQuery *query,
                                     GstCudaContext *context)
{
  return FALSE;
}

static inline void
gst_texel_cuda_memory_set_context (GstElement *self, GstContext *context,
                                   gint device_id, GstCudaContext **own)
{
}

static inline void
gst_texel_cuda_memory_init (void)
{
}
#endif

G_END_DECLS
#endif
