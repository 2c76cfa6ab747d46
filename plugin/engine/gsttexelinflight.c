/* gst-texel: GstTexelInFlight, an element's frames on the GPU from submit
 * to finish (gsttexelinflight.h): one record per frame, in a ring of
 * slots; the work of a frame enqueued on streams (zero-copy: one launch;
 * staged: uploads, kernels and downloads in bands); its completion (an
 * event, or what is known of the chain of frames without copies); and the
 * fence the element's kernels read. Built only with CUDA (have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "engine/gsttexelslot.h"
#include "memory/gsttexelregistration.h"
#include "engine/gsttexelinflight.h"
#include "memory/gsttexelnvmm.h"

#define GST_CAT_DEFAULT gst_texel_cuda_debug

/* Frames found complete in a row before completion events that are
 * cheaper to record but spin when waited on (texel_record_done). */
#define TEXEL_POLLED_AFTER 8

/* One frame, from submit to pop or flush: the frame's one identity.
 * Streaming thread. */
typedef struct
{
  /* Held from submit until released (pop, flush, a failed submit):
   * unmapped and unreffed then. @in_frame holds the input buffer. */
  GstBuffer *outbuf;
  GstVideoFrame in_frame, out_frame;
  /* Its GPU memory and completion events (gsttexelslot.c). */
  TexelSlot slot;
  /* From its work being enqueued until finished (waited for). */
  gboolean busy;
  guint64 seq;         /* submission number: the fence's unit */
  gboolean chained;    /* ran on the chain stream (no copies) */
  cudaEvent_t done;    /* the event of @slot recorded */
  gboolean out_direct; /* else copied out of stage_out at finish */
  TexelImage out_host;
} TexelFrame;

struct _GstTexelInFlight
{
  /* Set by new, fixed until free. */
  gint device;
  GstCudaContext *context; /* NULL: the device's primary context */
  gboolean zero_copy;
  gint async_engines;
  cudaStream_t streams[TEXEL_MAX_BANDS];
  cudaEvent_t uploaded[TEXEL_MAX_BANDS];
  cudaEvent_t band_done[TEXEL_MAX_BANDS];
  /* Recorded and waited for by gst_texel_in_flight_wait_stream alone (its
   * caller's thread): it sleeps when waited for. */
  cudaEvent_t stream_waited;

  /* Streaming thread from here on (free: once it has stopped). */
  /* Set by configure: the frames' layout, bands, and @n_slots records
   * of @frames in use, a ring whose @count frames from @head (the
   * oldest) are held. */
  TexelSlotLayout layout;
  gint bands;
  gint n_slots;
  TexelFrame frames[TEXEL_MAX_SLOTS];
  gint head;
  guint count;
  /* Frames found complete when finished, in a row: past
   * TEXEL_POLLED_AFTER the GPU keeps up with the host, and the cheaper
   * event serves (a late frame is then waited for by spinning briefly). */
  gint complete_streak;
  /* Frames without copies run in submission order on one stream, the
   * chain (texel_frame_stream): one of them found complete says the
   * same of the earlier ones. @seq: frames submitted; @chain_complete: the
   * chain's frames up to this number are known complete; @chain_last,
   * @chain_prev: the records of the last two chain frames submitted. */
  guint64 seq, chain_complete;
  gint chain_last, chain_prev;
  /* The same count for the element's kernel context (texel-cuda.h), which
   * reads it on this thread during submit: the frame being submitted,
   * and the frames finished in order. Advanced here only. */
  TexelCudaFence fence;
  /* The element's kernel context where its kernels read input and write
   * output CUDA arrays in place (gst_texel_in_flight_set_array_reader),
   * else NULL. */
  TexelCudaContext *array_reader;
  /* What every frame runs (gst_texel_in_flight_set_kernel). */
  GstTexelKernelCall kernel;
  /* Written here without a lock; copied by gst_texel_in_flight_get_stats
   * (the element's stats property, under its object lock). */
  GstTexelCudaStats stats;
};

static void
texel_destroy_streams (GstTexelInFlight *flight)
{
  int i;

  for (i = 0; i < TEXEL_MAX_BANDS; i++)
    {
      if (flight->streams[i])
        cudaStreamDestroy (flight->streams[i]);
      if (flight->uploaded[i])
        cudaEventDestroy (flight->uploaded[i]);
      if (flight->band_done[i])
        cudaEventDestroy (flight->band_done[i]);
    }
  if (flight->stream_waited)
    cudaEventDestroy (flight->stream_waited);
}

static int
texel_create_streams (GstTexelInFlight *flight)
{
  cudaError_t e = cudaSuccess;
  int i;

  for (i = 0; e == cudaSuccess && i < TEXEL_MAX_BANDS; i++)
    {
      e = TEXEL_FAULTY (TEXEL_FAULT_STREAM,
                        cudaStreamCreateWithFlags (&flight->streams[i],
                                                   cudaStreamNonBlocking));
      if (e == cudaSuccess)
        e = cudaEventCreateWithFlags (&flight->uploaded[i],
                                      cudaEventDisableTiming);
      if (e == cudaSuccess)
        e = cudaEventCreateWithFlags (&flight->band_done[i],
                                      cudaEventDisableTiming);
    }
  if (e == cudaSuccess)
    e = cudaEventCreateWithFlags (
        &flight->stream_waited, cudaEventDisableTiming | cudaEventBlockingSync);
  for (i = 0; e == cudaSuccess && i < TEXEL_MAX_SLOTS; i++)
    e = (cudaError_t)gst_texel_slot_init (&flight->frames[i].slot);
  return (int)e;
}

GstTexelInFlight *
gst_texel_in_flight_new (gint device, GstCudaContext *context,
                         gboolean zero_copy, gint async_engines, int *err)
{
  GstTexelInFlight *flight = g_new0 (GstTexelInFlight, 1);
  int prev;

  gst_texel_cuda_debug_init ();
  flight->device = device;
  flight->context = context ? gst_object_ref (context) : NULL;
  flight->zero_copy = zero_copy;
  flight->async_engines = async_engines;
  flight->bands = 1;
  flight->n_slots = 1;
  flight->chain_last = flight->chain_prev = -1;
  flight->fence.current = G_MAXUINT64;
  *err = gst_texel_cuda_context_enter (context, device, &prev);
  if (*err == 0)
    *err = texel_create_streams (flight);
  gst_texel_cuda_context_leave (context, prev);
  if (*err != 0)
    {
      gst_texel_in_flight_free (flight);
      return NULL;
    }
  return flight;
}

void
gst_texel_in_flight_free (GstTexelInFlight *flight)
{
  int prev, i;

  if (!flight)
    return;
  gst_texel_in_flight_flush (flight);
  gst_texel_cuda_context_enter (flight->context, flight->device, &prev);
  for (i = 0; i < TEXEL_MAX_SLOTS; i++)
    gst_texel_slot_clear (&flight->frames[i].slot);
  texel_destroy_streams (flight);
  gst_texel_cuda_context_leave (flight->context, prev);
  if (flight->context)
    gst_object_unref (flight->context);
  g_free (flight);
}

int
gst_texel_in_flight_configure (GstTexelInFlight *flight, TexelFormat in_format,
                               gint in_width, gint in_height,
                               TexelFormat out_format, gint out_width,
                               gint out_height, GstTexelFrameMemory memory,
                               gboolean bands_possible, gint in_flight)
{
  const TexelSlotLayout layout
      = { in_format, out_format, in_width, in_height, out_width, out_height };
  int prev, err, i;

  gst_texel_in_flight_flush (flight);
  err = gst_texel_cuda_context_enter (flight->context, flight->device, &prev);
  if (err)
    goto done;
  for (i = 0; i < TEXEL_MAX_SLOTS; i++)
    gst_texel_slot_release (&flight->frames[i].slot);
  flight->chain_last = flight->chain_prev = -1;
  flight->bands
      = gst_texel_slot_choose_bands (flight->zero_copy, flight->async_engines,
                                     out_height, bands_possible, in_flight);
  flight->n_slots = CLAMP (in_flight + 1, 1, TEXEL_MAX_SLOTS);
  flight->head = 0;
  flight->layout = layout;
  for (i = 0; i < flight->n_slots && !flight->zero_copy && !err; i++)
    err = gst_texel_slot_device_frames (&flight->frames[i].slot, &layout,
                                        memory);
  GST_INFO ("configured %s %dx%d (%s) -> %s %dx%d (%s), %s, %d band(s), %d "
            "frame(s) in flight",
            texel_format_desc (in_format)->name, in_width, in_height,
            memory & GST_TEXEL_IN_DEVICE ? "device" : "host",
            texel_format_desc (out_format)->name, out_width, out_height,
            memory & GST_TEXEL_OUT_DEVICE ? "device" : "host",
            flight->zero_copy ? "zero-copy" : "staged", flight->bands,
            flight->n_slots - 1);
done:
  gst_texel_cuda_context_leave (flight->context, prev);
  return err;
}

/* The stream of band @band of @frame. A frame with copies (staged) uses
 * streams of its record's own (as far as there are streams), so that its
 * upload overlaps the previous frame's kernel and download even where it
 * is not split into bands: in one stream they would run one after the
 * other. A frame without copies (@chained: CUDA memory in and out, or
 * zero-copy) has nothing to overlap but its kernels, which follow one
 * another on the GPU anyway: it runs on the chain, stream 0, after the
 * chain's earlier frames (texel_frame_complete relies on that). */
static cudaStream_t
texel_frame_stream (GstTexelInFlight *flight, TexelFrame *frame, int band,
                    gboolean chained)
{
  int first = (int)(frame - flight->frames) * flight->bands;

  return flight->streams[chained ? 0 : (first + band) % TEXEL_MAX_BANDS];
}

/* Joins the @n band streams of a frame into its completion event and
 * numbers the frame. Where the GPU has kept up, the frame will most
 * likely be complete when it is finished: no need to pay for an event
 * whose wait sleeps. */
static int
texel_record_done (GstTexelInFlight *flight, TexelFrame *frame, int n,
                   gboolean chained)
{
  cudaStream_t first = texel_frame_stream (flight, frame, 0, chained);
  int i, err = 0;

  for (i = 1; i < n && !err; i++)
    {
      err = cudaEventRecord (flight->band_done[i],
                             texel_frame_stream (flight, frame, i, chained));
      if (!err)
        err = cudaStreamWaitEvent (first, flight->band_done[i], 0);
    }
  /* An NVMM surface array's CUDA array gets the output once every band
   * has written it, unless the kernels wrote the array itself. */
  if (!err)
    err = gst_texel_nvmm_frame_store (&frame->out_frame, first,
                                      &flight->stats.bytes_device_copied,
                                      flight->array_reader);
  frame->done = flight->complete_streak >= TEXEL_POLLED_AFTER
                    ? frame->slot.done_polled
                    : frame->slot.done_blocking;
  if (!err)
    err = cudaEventRecord (frame->done, first);
  frame->seq = ++flight->seq;
  frame->chained = chained;
  if (!err && chained)
    {
      flight->chain_prev = flight->chain_last;
      flight->chain_last = (int)(frame - flight->frames);
    }
  return err;
}

/* After a failure part-way through a frame, the bands already queued may
 * still be copying into memory the caller is about to release. */
static void
texel_drain_streams (GstTexelInFlight *flight)
{
  int i;

  for (i = 0; i < TEXEL_MAX_BANDS; i++)
    cudaStreamSynchronize (flight->streams[i]);
  cudaGetLastError ();
  flight->fence.complete = flight->seq;
}

/* The kernel on output rows [@row0, @row1); what it copied on the device
 * to realign planes (texel_cuda_convert) is counted. */
static int
texel_run_kernel (GstTexelInFlight *flight, const TexelImage *in,
                  const TexelImage *out, int row0, int row1,
                  cudaStream_t stream)
{
  const GstTexelKernelCall *k = &flight->kernel;
  guint64 realigned = texel_cuda_context_bytes_realigned (k->context);
  int err;

  err = k->run (k->context, k->plan, in, out, row0, row1, (TexelStream)stream);
  flight->stats.bytes_device_copied
      += texel_cuda_context_bytes_realigned (k->context) - realigned;
  return err;
}

static int
texel_enqueue_zero_copy (GstTexelInFlight *flight, TexelFrame *frame,
                         const TexelImage *in_dev, const TexelImage *out_dev)
{
  int err = texel_run_kernel (flight, in_dev, out_dev, 0, out_dev->height,
                              texel_frame_stream (flight, frame, 0, TRUE));

  if (!err)
    err = texel_record_done (flight, frame, 1, TRUE);
  return err;
}

/* Staged: band b uploads the input rows it needs that earlier bands did
 * not, runs its kernel and downloads its output rows, on its stream; the
 * uploads are chained by events, so band b's kernel overlaps band b+1's
 * upload and band b-1's download. A side already on the device (@in_device,
 * @out_device) is read or written by the kernel in place: it has no copy. */
static int
texel_enqueue_staged (GstTexelInFlight *flight, TexelFrame *frame,
                      const TexelImage *src, const TexelImage *dst,
                      gboolean in_device, gboolean out_device)
{
  TexelSlot *slot = &frame->slot;
  const TexelImage *kernel_in = in_device ? src : &slot->dev_in;
  const TexelImage *kernel_out = out_device ? dst : &slot->dev_out;
  /* Bands only overlap copies with kernels. */
  gboolean chained = in_device && out_device;
  int bands = chained ? 1 : flight->bands;
  int out_h = dst->height, in_h = src->height;
  int step = GST_ROUND_UP_16 ((out_h + bands - 1) / bands);
  int n = (out_h + step - 1) / step; /* bands that have rows */
  int uploaded = -1, b, err = 0;

  for (b = 0; b < n && !err; b++)
    {
      cudaStream_t s = texel_frame_stream (flight, frame, b, chained);
      int r0 = b * step, r1 = MIN (out_h, r0 + step);
      int i0 = 0, i1 = in_h;

      if (n > 1 && flight->kernel.input_rows)
        flight->kernel.input_rows (flight->kernel.plan, r0, r1, &i0, &i1);
      i0 = CLAMP (i0 & ~1, 0, in_h);
      i1 = CLAMP (GST_ROUND_UP_2 (i1), i0, in_h);
      if (uploaded < 0)
        uploaded = i0;
      if (b > 0)
        err = cudaStreamWaitEvent (s, flight->uploaded[b - 1], 0);
      if (!err && !in_device && i1 > uploaded)
        {
          err = gst_texel_copy_rows (&slot->dev_in, src, uploaded, i1,
                                     cudaMemcpyHostToDevice, s,
                                     &flight->stats.bytes_to_device);
          uploaded = i1;
        }
      /* The next band's stream waits for this band's upload; a lone band
       * spares the record. */
      if (!err && b + 1 < n)
        err = cudaEventRecord (flight->uploaded[b], s);
      if (!err)
        err = texel_run_kernel (flight, kernel_in, kernel_out, r0, r1, s);
      if (!err && !out_device)
        err = gst_texel_copy_rows (dst, &slot->dev_out, r0, r1,
                                   cudaMemcpyDeviceToHost, s,
                                   &flight->stats.bytes_to_host);
    }
  if (!err)
    err = texel_record_done (flight, frame, n, chained);
  return err;
}

/* Device address of every plane of a mapped frame: in place for a frame
 * already on the device, else through gst_texel_frame_device_view. */
static gboolean
texel_frame_view (GstTexelInFlight *flight, GstVideoFrame *frame,
                  const TexelImage *img, gboolean on_device, TexelImage *view)
{
  if (on_device)
    {
      *view = *img;
      return TRUE;
    }
  return gst_texel_frame_device_view (frame, img, flight->device,
                                      flight->context,
                                      &flight->stats.registrations, view);
}

/* Enqueues @frame's work, in the element's context; it is busy on
 * success. Memory the device cannot reach goes through pinned staging. */
static int
texel_frame_enqueue (GstTexelInFlight *flight, TexelFrame *frame,
                     const TexelImage *in, const TexelImage *out,
                     GstTexelFrameMemory memory)
{
  TexelSlot *slot = &frame->slot;
  TexelImage in_view, out_view;
  const TexelImage *src = in, *dst = out;
  gboolean in_device = (memory & GST_TEXEL_IN_DEVICE) != 0;
  gboolean out_device = (memory & GST_TEXEL_OUT_DEVICE) != 0;
  gboolean in_direct, aliased;
  int prev, err;

  err = gst_texel_cuda_context_enter (flight->context, flight->device, &prev);
  if (err)
    goto done;
  flight->fence.current = flight->seq + 1; /* texel_record_done's */
  in_direct
      = texel_frame_view (flight, &frame->in_frame, in, in_device, &in_view);
  frame->out_direct = texel_frame_view (flight, &frame->out_frame, out,
                                        out_device, &out_view);
  frame->out_host = *out;
  if ((!in_direct || !frame->out_direct)
      && (err = gst_texel_slot_staging (slot, &flight->layout)))
    goto done;
  if (!in_direct)
    {
      gst_texel_copy_rows (&slot->stage_in, in, 0, in->height,
                           cudaMemcpyHostToHost, NULL,
                           &flight->stats.bytes_host_copied);
      src = &slot->stage_in;
      in_view = slot->stage_in_dev;
    }
  if (!frame->out_direct)
    {
      dst = &slot->stage_out;
      out_view = slot->stage_out_dev;
    }
  /* An NVMM surface array's CUDA array is read in place by kernels that
   * can (textures over it); for the others it is copied on the stream of
   * the frame's first band (the later bands wait for its upload event),
   * as texel_enqueue_* choose it. */
  err = gst_texel_nvmm_frame_alias (&frame->in_frame, flight->array_reader,
                                    FALSE, &aliased);
  if (!err && !aliased)
    err = gst_texel_nvmm_frame_fetch (
        &frame->in_frame,
        texel_frame_stream (flight, frame, 0,
                            flight->zero_copy || (in_device && out_device)),
        &flight->stats.bytes_device_copied);
  /* An output array is written in place where the kernels can (else
   * copied back after them: texel_record_done). */
  if (!err)
    err = gst_texel_nvmm_frame_alias (&frame->out_frame, flight->array_reader,
                                      TRUE, &aliased);
  if (err)
    {
      texel_drain_streams (flight);
      goto done;
    }

  if (flight->zero_copy)
    {
      err = texel_enqueue_zero_copy (flight, frame, &in_view, &out_view);
    }
  else
    {
      /* Device frames for a side the caps did not announce in host memory
       * (CUDA memory of a context we cannot reach, mapped on the host). */
      err = gst_texel_slot_device_frames (slot, &flight->layout, memory);
      if (!err)
        err = texel_enqueue_staged (flight, frame, in_device ? &in_view : src,
                                    out_device ? &out_view : dst, in_device,
                                    out_device);
    }
  if (!err)
    frame->busy = TRUE;
  else
    texel_drain_streams (flight);
done:
  flight->fence.current = G_MAXUINT64;
  gst_texel_cuda_context_leave (flight->context, prev);
  return err;
}

/* Whether @frame is on the chain and a later query found it, or a younger
 * frame of the chain, complete: no CUDA call needed. */
static gboolean
texel_frame_known_complete (GstTexelInFlight *flight, TexelFrame *frame)
{
  return frame->chained && frame->seq <= flight->chain_complete;
}

/* Whether @frame is complete, from its event or, for a frame of the
 * chain, from what is known of the chain. Each query is a driver call,
 * as dear for an event as for a stream and several times an event record
 * (docs/bench/runs-15-17.md), so with frames in flight a chain frame asks
 * first about
 * the chain's last-but-one frame, submitted a frame period before the
 * newest: found complete, it settles the frames before it too, and their
 * finish asks nothing. */
static gboolean
texel_frame_complete (GstTexelInFlight *flight, TexelFrame *frame,
                      cudaError_t *err)
{
  gint probe = flight->chain_prev;
  TexelFrame *younger = probe >= 0 ? &flight->frames[probe] : NULL;

  *err = cudaSuccess;
  if (texel_frame_known_complete (flight, frame))
    return TRUE;
  if (frame->chained && younger && younger != frame && younger->busy
      && younger->chained && younger->seq > frame->seq
      && cudaEventQuery (younger->done) == cudaSuccess)
    {
      flight->chain_complete = younger->seq;
      return TRUE;
    }
  *err = cudaEventQuery (frame->done);
  if (*err != cudaSuccess)
    return FALSE;
  if (frame->chained)
    flight->chain_complete = MAX (flight->chain_complete, frame->seq);
  return TRUE;
}

/* Waits for @frame. With frames in flight, the oldest frame is usually
 * complete by the time it is finished, and a query says so in less host
 * time than a blocking wait on a completed event. Counts the frames found
 * complete (texel_record_done). */
static int
texel_frame_wait (GstTexelInFlight *flight, TexelFrame *frame)
{
  cudaError_t err;

  if (texel_frame_complete (flight, frame, &err))
    {
      if (flight->complete_streak < TEXEL_POLLED_AFTER)
        flight->complete_streak++;
      return 0;
    }
  flight->complete_streak = 0;
  if (err == cudaErrorNotReady)
    err = cudaEventSynchronize (frame->done);
  return (int)err;
}

/* Waits for a busy frame and completes its output; advances the fence
 * over the frames finished in order. */
static int
texel_frame_finish (GstTexelInFlight *flight, TexelFrame *frame)
{
  gboolean known = texel_frame_known_complete (flight, frame);
  int prev, err;

  if (!frame->busy)
    return 0;
  frame->busy = FALSE;
  /* In the element's context: a runtime call on a thread without a current
   * context would make the device's primary context current, creating it
   * where the element works in the pipeline's GstCudaContext. The wait
   * happens even if that fails: the frame's memory must not be released
   * while the GPU still uses it (and an injected failure comes after). A
   * frame known complete needs no CUDA call. */
  if (!known)
    gst_texel_cuda_context_enter (flight->context, flight->device, &prev);
  err = texel_frame_wait (flight, frame);
  if (!known)
    gst_texel_cuda_context_leave (flight->context, prev);
  if (!err)
    err = texel_fault_hit (TEXEL_FAULT_SYNC);
  /* Frames are finished in order: all before this one are complete. */
  if (!err && frame->seq == flight->fence.complete + 1)
    flight->fence.complete = frame->seq;
  if (!err && !frame->out_direct)
    gst_texel_copy_rows (&frame->out_host, &frame->slot.stage_out, 0,
                         frame->out_host.height, cudaMemcpyHostToHost, NULL,
                         &flight->stats.bytes_host_copied);
  if (!err)
    flight->stats.frames++;
  return err;
}

/* Unmaps a frame's mapped frames and drops its output buffer. */
static void
texel_give_back (GstBuffer *outbuf, GstVideoFrame *in_frame,
                 GstVideoFrame *out_frame)
{
  gst_video_frame_unmap (in_frame);
  gst_video_frame_unmap (out_frame);
  if (outbuf)
    gst_buffer_unref (outbuf);
}

/* Gives back what @frame holds. */
static void
texel_frame_release (TexelFrame *frame)
{
  texel_give_back (frame->outbuf, &frame->in_frame, &frame->out_frame);
  frame->outbuf = NULL;
}

void
gst_texel_in_flight_set_kernel (GstTexelInFlight *flight,
                                const GstTexelKernelCall *kernel)
{
  flight->kernel = *kernel;
}

int
gst_texel_in_flight_submit (GstTexelInFlight *flight, GstTexelFrameWork *work)
{
  TexelFrame *frame;
  int err;

  if (flight->count >= (guint)flight->n_slots || !flight->kernel.run)
    {
      GST_ERROR ("%u frames held already (pop before submitting), or no "
                 "kernel set",
                 flight->count);
      texel_give_back (work->outbuf, &work->in_frame, &work->out_frame);
      return (int)cudaErrorNotPermitted;
    }
  /* The record after the held frames. */
  frame = &flight->frames[(flight->head + flight->count) % flight->n_slots];
  frame->outbuf = work->outbuf;
  frame->in_frame = work->in_frame;
  frame->out_frame = work->out_frame;
  err = texel_frame_enqueue (flight, frame, &work->in, &work->out,
                             work->memory);
  if (err)
    texel_frame_release (frame);
  else
    flight->count++;
  return err;
}

guint
gst_texel_in_flight_count (GstTexelInFlight *flight)
{
  return flight->count;
}

int
gst_texel_in_flight_pop (GstTexelInFlight *flight, GstBuffer **outbuf)
{
  TexelFrame *frame;
  int err;

  *outbuf = NULL;
  if (flight->count == 0)
    return 0;
  frame = &flight->frames[flight->head];
  flight->head = (flight->head + 1) % flight->n_slots;
  flight->count--;
  err = texel_frame_finish (flight, frame);
  if (!err)
    {
      *outbuf = frame->outbuf;
      frame->outbuf = NULL;
    }
  texel_frame_release (frame);
  return err;
}

int
gst_texel_in_flight_pop_complete (GstTexelInFlight *flight, GstBuffer **outbuf)
{
  TexelFrame *frame = &flight->frames[flight->head];
  cudaError_t err = cudaSuccess;
  gboolean complete;
  int prev;

  *outbuf = NULL;
  if (flight->count == 0)
    return 0;
  complete = texel_frame_known_complete (flight, frame);
  if (!complete
      && gst_texel_cuda_context_enter (flight->context, flight->device, &prev)
             == 0)
    {
      complete = texel_frame_complete (flight, frame, &err);
      gst_texel_cuda_context_leave (flight->context, prev);
    }
  /* Not finished yet; any other answer is the pop's to report. */
  if (!complete && err == cudaErrorNotReady)
    return 0;
  return gst_texel_in_flight_pop (flight, outbuf);
}

gboolean
gst_texel_in_flight_oldest_stream (GstTexelInFlight *flight,
                                   TexelStream *stream)
{
  TexelFrame *frame = &flight->frames[flight->head];

  if (flight->count == 0)
    return FALSE;
  *stream = (TexelStream)texel_frame_stream (flight, frame, 0, frame->chained);
  return TRUE;
}

int
gst_texel_in_flight_wait_stream (GstTexelInFlight *flight, TexelStream stream)
{
  int prev, err;

  err = gst_texel_cuda_context_enter (flight->context, flight->device, &prev);
  if (!err)
    err = cudaEventRecord (flight->stream_waited, (cudaStream_t)stream);
  if (!err)
    err = cudaEventSynchronize (flight->stream_waited);
  gst_texel_cuda_context_leave (flight->context, prev);
  return err;
}

void
gst_texel_in_flight_flush (GstTexelInFlight *flight)
{
  GstBuffer *outbuf;

  /* Each is waited for: the GPU may still read or write its memory. */
  while (flight->count > 0)
    {
      gst_texel_in_flight_pop (flight, &outbuf);
      gst_clear_buffer (&outbuf);
    }
}

void
gst_texel_in_flight_get_stats (GstTexelInFlight *flight,
                               GstTexelCudaStats *stats)
{
  *stats = flight->stats;
}

void
gst_texel_in_flight_set_array_reader (GstTexelInFlight *flight,
                                      TexelCudaContext *reader)
{
  flight->array_reader = reader;
}

const TexelCudaFence *
gst_texel_in_flight_get_fence (GstTexelInFlight *flight)
{
  return &flight->fence;
}
