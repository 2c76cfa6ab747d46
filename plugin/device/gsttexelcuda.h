/* gst-texel: what the GPU path's units share with the base class: the
 * memory of a frame, the element's per-frame work, device detection and
 * the element's CUDA context (gsttexelcuda.c). Frames themselves are
 * GstTexelInFlight's (gsttexelinflight.h). The memory strategies:
 *
 *  - zero-copy: kernels read and write frames in place through mapped host
 *    memory (our pool's, or foreign memory registered with cudaHostRegister);
 *    the default where the GPU is integrated (Jetson).
 *  - staged: frames are copied to device buffers with cudaMemcpy2DAsync,
 *    processed and copied back, in bands on several streams so uploads,
 *    kernels and downloads overlap; the default on discrete GPUs.
 *  - device frames (GstCudaMemory, memory:CUDAMemory caps) are read and
 *    written in place in either mode: only the host side of a frame is
 *    ever copied.
 * Host memory that is not pinned is never handed to a DMA copy: it is
 * registered once seen twice, else copied into a pinned staging buffer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_CUDA_H__
#define __GST_TEXEL_CUDA_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "texel-convert.h"
#include "texel-cuda.h"
#if HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#endif

G_BEGIN_DECLS

#if HAVE_GST_CUDA
/* gsttexelcudamemory.c: @context pushed on (popped off) the calling
 * thread's context stack. */
gboolean gst_texel_cuda_context_push (GstCudaContext *context);
void gst_texel_cuda_context_pop (void);
#else
/* Without gstreamer-cuda an element has no GstCudaContext: these are never
 * reached. */
typedef struct _GstCudaContext GstCudaContext;

static inline gboolean
gst_texel_cuda_context_push (GstCudaContext *context)
{
  return FALSE;
}

static inline void
gst_texel_cuda_context_pop (void)
{
}
#endif

/* Where the planes of the frames of one submission live. Host frames are
 * mapped GstVideoFrames (pinned, registered or pageable memory); device
 * frames are GstCudaMemory mapped with GST_MAP_CUDA, in memory of the
 * element's CUDA context: the kernel reads or writes them in place. */
typedef enum
{
  GST_TEXEL_FRAMES_HOST = 0,
  GST_TEXEL_IN_DEVICE = 1 << 0,
  GST_TEXEL_OUT_DEVICE = 1 << 1
} GstTexelFrameMemory;

/* What a frame cost; logged at the end of a stream. */
typedef struct
{
  guint64 frames;
  guint64 bytes_to_device;     /* DMA host -> device */
  guint64 bytes_to_host;       /* DMA device -> host */
  guint64 bytes_host_copied;   /* memcpy into or out of pinned staging */
  guint64 bytes_device_copied; /* device -> device: planes realigned,
                                * NVMM CUDA arrays */
  guint64 registrations;       /* cudaHostRegister calls that succeeded */
} GstTexelCudaStats;

/* Error text of a cudaError_t. */
const gchar *gst_texel_cuda_error_string (int err);

/* Capability detection. Returns the number of usable devices (0 with
 * @reason set when there is none) and fills @caps for @device_id (-1:
 * device 0). */
gint gst_texel_cuda_detect (gint device_id, gpointer caps, const gchar **reason,
                            int *err);

/* Makes the CUDA context an element works in current on the calling
 * thread: @context (the pipeline's GstCudaContext, shared with GStreamer's
 * CUDA elements) where there is one, else @device's primary context.
 * Returns 0 or a cudaError_t; gst_texel_cuda_context_leave (@context,
 * @undo) puts back what the thread had, also after a failure. */
int gst_texel_cuda_context_enter (GstCudaContext *context, gint device,
                                  int *undo);
void gst_texel_cuda_context_leave (GstCudaContext *context, int undo);

G_END_DECLS
#endif
