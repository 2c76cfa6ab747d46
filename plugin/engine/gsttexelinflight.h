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

/* The CUDA kernel every frame runs: output rows [@row0, @row1) of @out
 * from @in, enqueued on @stream, with the caller's @plan and kernel
 * context (texel-cuda.h). Returns 0 or a cudaError_t. */
typedef int (*GstTexelKernelRun) (TexelCudaContext *ctx, gconstpointer plan,
                                  const TexelImage *in, const TexelImage *out,
                                  int row0, int row1, TexelStream stream);
/* The input rows [*@in_row0, *@in_row1) that output rows [@row0, @row1)
 * read (the staged path uploads a band's rows before its kernel). */
typedef void (*GstTexelKernelInputRows) (gconstpointer plan, int row0, int row1,
                                         int *in_row0, int *in_row1);

/* What the frames run, set once the kernel context exists
 * (gst_texel_in_flight_set_kernel). */
typedef struct
{
  GstTexelKernelRun run;
  GstTexelKernelInputRows input_rows; /* NULL: every input row */
  gconstpointer plan;                 /* lives while set; read at each submit */
  TexelCudaContext *context;          /* the kernels' context, likewise */
} GstTexelKernelCall;

/* One frame as the caller hands it to gst_texel_in_flight_submit: its
 * output buffer and both frames, mapped (@in_frame holds the input
 * buffer), @in and @out describing them, in host or device memory as
 * @memory says. */
typedef struct
{
  GstBuffer *outbuf;
  GstVideoFrame in_frame, out_frame;
  TexelImage in, out;
  GstTexelFrameMemory memory;
} GstTexelFrameWork;

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

/* The kernel the frames submitted from now on run; set with no frame in
 * flight. */
void gst_texel_in_flight_set_kernel (GstTexelInFlight *flight,
                                     const GstTexelKernelCall *kernel);
/* Enqueues the work of one frame: takes @work's buffer and mapped frames,
 * which it unmaps and releases when the frame is popped or flushed, or
 * here on failure. At most in_flight + 1 frames may be held: pop before
 * (with none in flight, submit and pop process one frame before the
 * caller goes on). Returns 0 or a cudaError_t. */
int gst_texel_in_flight_submit (GstTexelInFlight *flight,
                                GstTexelFrameWork *work);
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

/* A copy of the counters; written by the streaming thread without a lock,
 * so a reader on another thread may see them a frame behind. */
void gst_texel_in_flight_get_stats (GstTexelInFlight *flight,
                                    GstTexelCudaStats *stats);
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
