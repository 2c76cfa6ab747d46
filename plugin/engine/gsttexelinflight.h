/* gst-texel: GstTexelInFlight, the owner of an element's frames on the GPU
 * from submit to finish. Each frame is one record: its output buffer and
 * both mapped frames (the input frame holds the input buffer), its slot
 * (device frames, pinned staging, completion events), the streams its
 * work runs on and its sequence number, which is also the unit of the
 * fence the element's kernels read. Frames finish in submission order.
 * Every call is made with the element's sink pad stream lock held (its
 * streaming thread, or the thread that pushes finished frames while the
 * streaming thread waits for input), except new and free (state change
 * thread, no streaming thread running), get_stats (any thread, under the
 * element's object lock) and wait_stream (any thread). Built only with CUDA
 * (have_cuda); a CPU-only build declares but never calls it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_IN_FLIGHT_H__
#define __GST_TEXEL_IN_FLIGHT_H__

#include "device/gsttexelcuda.h"

G_BEGIN_DECLS

typedef struct _GstTexelInFlight GstTexelInFlight;

/* @context: see gst_texel_cuda_context_enter (NULL: the primary context);
 * every CUDA call runs in it. Returns NULL with *@err set on failure. */
GstTexelInFlight *gst_texel_in_flight_new (gint device, GstCudaContext *context,
                                           gboolean zero_copy,
                                           gint async_engines, int *err);
/* Drops the frames still in flight (gst_texel_in_flight_flush), frees the
 * rest. NULL is ignored. */
void gst_texel_in_flight_free (GstTexelInFlight *flight);

/* (Re)allocates what frames of these formats need, for up to @in_flight
 * frames held back plus the one being submitted; called on caps, with no
 * frame in flight (the caller drains first; any left are dropped).
 * @memory: where the negotiated frames will live (device frames need no
 * device copy on their side). */
int gst_texel_in_flight_configure (GstTexelInFlight *flight,
                                   TexelFormat in_format, gint in_width,
                                   gint in_height, TexelFormat out_format,
                                   gint out_width, gint out_height,
                                   GstTexelFrameMemory memory,
                                   gboolean bands_possible, gint in_flight);

/* Enqueues the work of one frame: takes @outbuf and the mapped frames
 * (@in_frame holds the input buffer), which it unmaps and releases when
 * the frame is popped or flushed, or here on failure. @in and @out
 * describe the mapped frames, in host or device memory as @memory says.
 * At most in_flight + 1 frames may be held: pop before. Returns 0 or a
 * cudaError_t. */
int gst_texel_in_flight_submit (GstTexelInFlight *flight, GstBuffer *outbuf,
                                GstVideoFrame *in_frame,
                                GstVideoFrame *out_frame, const TexelImage *in,
                                const TexelImage *out,
                                GstTexelFrameMemory memory, GstTexelCudaRun run,
                                GstTexelCudaInputRows input_rows,
                                gpointer user_data);
/* Frames submitted and not yet popped. */
guint gst_texel_in_flight_count (GstTexelInFlight *flight);
/* Waits for the oldest frame, completes its output and hands it out in
 * *@outbuf (the caller owns it; NULL when no frame is held or on failure,
 * where the frame is released). Returns 0 or a cudaError_t. */
int gst_texel_in_flight_pop (GstTexelInFlight *flight, GstBuffer **outbuf);
/* Pops the oldest frame as gst_texel_in_flight_pop does if the GPU has
 * finished it, without waiting; else *@outbuf is NULL and the frame stays
 * held. Returns 0 or a cudaError_t. */
int gst_texel_in_flight_pop_complete (GstTexelInFlight *flight,
                                      GstBuffer **outbuf);
/* Whether a frame is held; if so, *@stream is a stream whose work
 * enqueued so far includes the oldest frame's (later frames' work may
 * follow it there), for gst_texel_in_flight_wait_stream. */
gboolean gst_texel_in_flight_oldest_stream (GstTexelInFlight *flight,
                                            TexelStream *stream);
/* Any thread, one at a time, while @flight lives: sleeps (no spinning)
 * until the work enqueued on @stream so far has finished. Returns 0 or a
 * cudaError_t. */
int gst_texel_in_flight_wait_stream (GstTexelInFlight *flight,
                                     TexelStream stream);
/* Drops every frame in flight once the GPU is done with it, releasing its
 * buffers and frames (flush, stop, a failure). */
void gst_texel_in_flight_flush (GstTexelInFlight *flight);

/* One frame processed before the call returns, in frames the caller
 * keeps mapped and owns (GstBaseTransform's transform). Returns 0 or a
 * cudaError_t. */
int gst_texel_in_flight_process (
    GstTexelInFlight *flight, GstVideoFrame *in_frame, GstVideoFrame *out_frame,
    const TexelImage *in, const TexelImage *out, GstTexelFrameMemory memory,
    GstTexelCudaRun run, GstTexelCudaInputRows input_rows, gpointer user_data);

GstAllocator *gst_texel_in_flight_get_allocator (GstTexelInFlight *flight);
/* A copy of the counters; written by the streaming thread without a lock,
 * so a reader on another thread may see them a frame behind. */
void gst_texel_in_flight_get_stats (GstTexelInFlight *flight,
                                    GstTexelCudaStats *stats);
/* Adds @bytes to bytes_device_copied: what the element's kernels copied
 * on the device (streaming thread, from the run callback). */
void gst_texel_in_flight_count_device_copied (GstTexelInFlight *flight,
                                              guint64 bytes);
/* What the frames' completion says, for the element's kernel context
 * (texel_cuda_context_set_fence); lives as long as @flight, and only
 * @flight advances it. */
const TexelCudaFence *gst_texel_in_flight_get_fence (GstTexelInFlight *flight);
/* @reader: the element's kernel context where its kernels read an input
 * CUDA array in place (texel_cuda_context_alias_array: an NVMM surface
 * array's frame is then not copied before them), NULL (the default) where
 * they need the pitched copy. Set with no frame in flight; @reader lives
 * while it is set. */
void gst_texel_in_flight_set_array_reader (GstTexelInFlight *flight,
                                           TexelCudaContext *reader);

G_END_DECLS
#endif
