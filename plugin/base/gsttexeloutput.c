/* gst-texel: GstTexelBase's output on the GPU path, every frame: each
 * input frame is mapped with its output and handed to the element's
 * GstTexelInFlight (engine/gsttexelinflight.h); with frames-in-flight 0
 * it is popped right after. While frames keep coming, the
 * streaming thread pushes frame N when frame N + frames-in-flight goes in
 * (or at a drain), so uploads, kernels and downloads of consecutive frames
 * overlap. When it goes back upstream leaving frames held, the finisher, a
 * thread of the element's own, waits for the GPU and pushes them as they
 * finish, unless the streaming thread comes back first: a frame never
 * waits for the next input (an application that pushes one frame and
 * waits for its result, a still image, the last frames before a pause).
 * Built only with CUDA (have_cuda); gsttexelbase-private.h has the
 * fallbacks of CPU-only builds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

static gboolean
gst_texel_base_upstream_is_live (GstTexelBase *self)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = FALSE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  gst_query_unref (query);
  return live;
}

/* Keeping frames in flight overlaps frame N's kernel, download and
 * GStreamer's per-buffer work with the uploads of the frames after it:
 * more frames/s when frames come faster than the GPU takes them (files,
 * transcoding). With one, the streaming thread waits for frame N before
 * it can submit frame N + 2, and the upload engine idles while frame N's
 * kernel and download finish; two keep it busy where the kernel takes
 * about as long as the upload (a 4K Bayer mosaic to 1080p NV12:
 * docs/bench/runs-55-59.md) at one frame period more
 * latency. A live source delivers frames at its own pace, and there they
 * would only add latency: auto keeps none. With CUDA memory on both sides a
 * frame costs the host less than a large kernel takes, and with one frame
 * in flight the streaming thread would sleep on nearly every frame and
 * leave the GPU idle while it wakes (docs/bench/runs-08-13.md): auto
 * keeps the most there, which costs pool buffers and latency but no
 * staging memory. */
gint
gst_texel_base_resolve_in_flight (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  gint n;

  GST_OBJECT_LOCK (self);
  n = priv->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  if (!priv->cuda)
    return 0;
  if (n < 0 && gst_texel_base_upstream_is_live (self))
    n = 0;
  else if (n < 0)
    n = priv->in_caps_device && priv->out_caps_device ? MAX_FRAMES_IN_FLIGHT
                                                      : 2;
  GST_INFO_OBJECT (self, "%d frame(s) in flight", n);
  return n;
}

static GstFlowReturn
gst_texel_base_cuda_failed (GstTexelBase *self, int err)
{
  GST_ELEMENT_ERROR (
      self, RESOURCE, FAILED,
      ("CUDA processing failed: %s", gst_texel_cuda_error_string (err)),
      ("CUDA error %d", err));
  return GST_FLOW_ERROR;
}

/* Hands out the oldest frame in flight's output: waiting for the GPU
 * when @wait, else only if it is finished (*@outbuf NULL if not). */
static GstFlowReturn
gst_texel_base_pop (GstTexelBase *self, gboolean wait, GstBuffer **outbuf)
{
  GstTexelInFlight *flight = PRIV (self)->cuda;
  int err = wait ? gst_texel_in_flight_pop (flight, outbuf)
                 : gst_texel_in_flight_pop_complete (flight, outbuf);

  if (err)
    return gst_texel_base_cuda_failed (self, err);
  if (*outbuf != NULL)
    gst_texel_base_frame_finished (self);
  return GST_FLOW_OK;
}

/* Pushes every frame in flight downstream, oldest first. */
GstFlowReturn
gst_texel_base_drain (GstTexelBase *self)
{
  GstFlowReturn ret = GST_FLOW_OK, r;
  GstBuffer *outbuf;

  while (gst_texel_in_flight_count (PRIV (self)->cuda) > 0)
    {
      r = gst_texel_base_pop (self, TRUE, &outbuf);
      if (r == GST_FLOW_OK)
        r = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), outbuf);
      if (ret == GST_FLOW_OK)
        ret = r;
    }
  return ret;
}

/* Drops the frames in flight (flush, stop) once the GPU is done with them. */
void
gst_texel_base_flush (GstTexelBase *self)
{
  gst_texel_in_flight_flush (PRIV (self)->cuda);
}

/* Whether frames can go in: negotiated, and prepared for the current
 * settings (a new plan may resize the buffers of the frames in flight,
 * which are pushed first). */
static GstFlowReturn
gst_texel_base_ready (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GstFlowReturn ret;
  gboolean dirty;

  ret = gst_texel_base_check_negotiated (self);
  if (ret != GST_FLOW_OK)
    return ret;
  GST_OBJECT_LOCK (self);
  dirty = priv->dirty;
  GST_OBJECT_UNLOCK (self);
  if (dirty)
    {
      ret = gst_texel_base_drain (self);
      if (ret == GST_FLOW_OK && !gst_texel_base_prepare (self))
        ret = GST_FLOW_NOT_NEGOTIATED;
      if (ret != GST_FLOW_OK)
        return ret;
    }
  return priv->refused ? GST_FLOW_NOT_NEGOTIATED : GST_FLOW_OK;
}

/* Maps a frame and its output and hands them to the frames in flight. */
static GstFlowReturn
gst_texel_base_submit (GstTexelBase *self, GstBuffer *inbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBaseTransformClass *bclass = GST_BASE_TRANSFORM_GET_CLASS (self);
  GstTexelFrameWork work = { NULL };
  GstFlowReturn ret;
  int err;

  ret = gst_texel_base_ready (self);
  if (ret != GST_FLOW_OK)
    goto fail;
  if (bclass->before_transform)
    bclass->before_transform (trans, inbuf);
  ret = bclass->prepare_output_buffer (trans, inbuf, &work.outbuf);
  if (ret != GST_FLOW_OK || !work.outbuf)
    goto fail;
  ret = gst_texel_base_map_frames (self, inbuf, work.outbuf, &work.in_frame,
                                   &work.out_frame);
  if (ret != GST_FLOW_OK)
    {
      /* Dropped (warned about): the frames held back go on as they are. */
      if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
        ret = GST_FLOW_OK;
      goto fail;
    }
  gst_buffer_unref (inbuf); /* the mapped frame holds its own ref */
  if (!gst_texel_base_frame_images (self, &work.in_frame, &work.out_frame,
                                    &work.in, &work.out))
    {
      gst_video_frame_unmap (&work.in_frame);
      gst_video_frame_unmap (&work.out_frame);
      gst_buffer_unref (work.outbuf);
      return GST_FLOW_ERROR;
    }
  work.memory = gst_texel_frames_memory (&work.in_frame, &work.out_frame);
  /* From here the frames in flight own the buffers and frames. */
  err = gst_texel_in_flight_submit (PRIV (self)->cuda, &work);
  if (err)
    {
      gst_texel_base_flush (self);
      return gst_texel_base_cuda_failed (self, err);
    }
  return GST_FLOW_OK;

fail:
  gst_clear_buffer (&work.outbuf);
  gst_buffer_unref (inbuf);
  return ret;
}

/* ------------------------------------------------------------------ */
/* The finisher */

/* What a push of the finisher returned that upstream must hear of (the
 * streaming thread's next buffer returns it), reset. */
static GstFlowReturn
gst_texel_base_finisher_flow (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GstFlowReturn ret;

  g_mutex_lock (&priv->finish_lock);
  ret = priv->finish_flow;
  priv->finish_flow = GST_FLOW_OK;
  g_mutex_unlock (&priv->finish_lock);
  return ret;
}

/* Streaming thread, going back upstream with frames held: the finisher
 * takes them on, from the oldest's stream. */
static void
gst_texel_base_arm_finisher (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  TexelStream stream;

  if (!priv->finisher
      || !gst_texel_in_flight_oldest_stream (priv->cuda, &stream))
    return;
  g_mutex_lock (&priv->finish_lock);
  priv->finish_armed = TRUE;
  priv->finish_stream = stream;
  priv->finish_inputs_armed = g_atomic_int_get (&priv->finish_inputs);
  if (priv->finish_sleeping)
    g_cond_signal (&priv->finish_cond);
  g_mutex_unlock (&priv->finish_lock);
}

/* Under the sink pad's stream lock (in turn with buffers and serialized
 * events): pushes the frames the GPU has finished, oldest first. Returns
 * whether frames are still held, with the oldest's stream in *@stream. */
static gboolean
gst_texel_base_push_finished (GstTexelBase *self, TexelStream *stream)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GstPad *sinkpad = GST_BASE_TRANSFORM_SINK_PAD (self);
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *outbuf = NULL;
  gboolean flushing;

  GST_OBJECT_LOCK (sinkpad);
  flushing = GST_PAD_IS_FLUSHING (sinkpad);
  GST_OBJECT_UNLOCK (sinkpad);
  if (flushing)
    return FALSE;
  do
    {
      ret = gst_texel_base_pop (self, FALSE, &outbuf);
      if (ret == GST_FLOW_OK && outbuf)
        ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), outbuf);
    }
  while (ret == GST_FLOW_OK && outbuf);
  if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING)
    {
      GST_DEBUG_OBJECT (self, "pushing a finished frame: %s",
                        gst_flow_get_name (ret));
      g_mutex_lock (&priv->finish_lock);
      if (priv->finish_flow == GST_FLOW_OK)
        priv->finish_flow = ret;
      g_mutex_unlock (&priv->finish_lock);
    }
  return ret == GST_FLOW_OK
         && gst_texel_in_flight_oldest_stream (priv->cuda, stream);
}

/* Waits for the frames held when the streaming thread left (its input
 * count then: @inputs) and pushes them as they finish, until none is
 * held or the streaming thread takes a new input, which makes them its
 * own again. */
static void
gst_texel_base_finish_held (GstTexelBase *self, TexelStream stream, gint inputs)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GstPad *sinkpad = GST_BASE_TRANSFORM_SINK_PAD (self);
  gboolean held = TRUE;

  while (held)
    {
      /* A failure here is the streaming thread's pop's to report. */
      if (gst_texel_in_flight_wait_stream (priv->cuda, stream) != 0
          || g_atomic_int_get (&priv->finish_inputs) != inputs)
        return;
      GST_PAD_STREAM_LOCK (sinkpad);
      held = gst_texel_base_push_finished (self, &stream);
      GST_PAD_STREAM_UNLOCK (sinkpad);
    }
}

static gpointer
gst_texel_base_finisher_loop (gpointer data)
{
  GstTexelBase *self = data;
  GstTexelBasePrivate *priv = PRIV (self);
  TexelStream stream;
  gint inputs;

  g_mutex_lock (&priv->finish_lock);
  while (!priv->finish_stop)
    {
      if (!priv->finish_armed)
        {
          priv->finish_sleeping = TRUE;
          g_cond_wait (&priv->finish_cond, &priv->finish_lock);
          priv->finish_sleeping = FALSE;
          continue;
        }
      priv->finish_armed = FALSE;
      stream = priv->finish_stream;
      inputs = priv->finish_inputs_armed;
      g_mutex_unlock (&priv->finish_lock);
      gst_texel_base_finish_held (self, stream, inputs);
      g_mutex_lock (&priv->finish_lock);
    }
  g_mutex_unlock (&priv->finish_lock);
  return NULL;
}

void
gst_texel_base_finisher_start (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GError *error = NULL;

  priv->finish_stop = FALSE;
  priv->finish_armed = FALSE;
  priv->finish_flow = GST_FLOW_OK;
  priv->finisher = g_thread_try_new (
      "texel-finish", gst_texel_base_finisher_loop, self, &error);
  /* Without it frames still come out, a frame period later. */
  if (!priv->finisher)
    {
      GST_WARNING_OBJECT (self, "no finisher thread: %s", error->message);
      g_clear_error (&error);
    }
}

void
gst_texel_base_finisher_stop (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);

  if (!priv->finisher)
    return;
  g_mutex_lock (&priv->finish_lock);
  priv->finish_stop = TRUE;
  g_cond_signal (&priv->finish_cond);
  g_mutex_unlock (&priv->finish_lock);
  g_thread_join (priv->finisher);
  priv->finisher = NULL;
}

/* With frames in flight, the output of frame N comes out when frame
 * N + frames-in-flight goes in (and at EOS, caps, segment or drain), or
 * from the finisher once the GPU has finished it, if no input came. */
GstFlowReturn
gst_texel_base_in_flight_generate (GstTexelBase *self, GstBuffer **outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstTexelBasePrivate *priv = PRIV (self);
  GstBuffer *inbuf;
  GstFlowReturn ret;

  inbuf = trans->queued_buf;
  trans->queued_buf = NULL;
  if (inbuf)
    {
      g_atomic_int_inc (&priv->finish_inputs);
      ret = gst_texel_base_finisher_flow (self);
      if (ret != GST_FLOW_OK)
        {
          gst_buffer_unref (inbuf);
          return ret;
        }
    }
  if (inbuf && (ret = gst_texel_base_submit (self, inbuf)) != GST_FLOW_OK)
    return ret;
  if ((gint)gst_texel_in_flight_count (priv->cuda) > priv->in_flight)
    return gst_texel_base_pop (self, TRUE, outbuf);
  gst_texel_base_arm_finisher (self);
  return GST_FLOW_OK;
}

/* Serialized events the frames in flight must not be overtaken by, or
 * that discard them. */
void
gst_texel_base_in_flight_event (GstTexelBase *self, GstEvent *event)
{
  switch (GST_EVENT_TYPE (event))
    {
      case GST_EVENT_EOS:
      case GST_EVENT_CAPS:
      case GST_EVENT_SEGMENT:
      case GST_EVENT_GAP:
      case GST_EVENT_STREAM_START:
        gst_texel_base_drain (self);
        break;
      case GST_EVENT_FLUSH_STOP:
        gst_texel_base_flush (self);
        gst_texel_base_finisher_flow (self);
        break;
      default:
        break;
    }
}

/* Frames in flight add their periods to the latency @query answered. */
void
gst_texel_base_in_flight_latency (GstTexelBase *self, GstQuery *query)
{
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstClockTime min, max, extra;
  gboolean live;

  if (info->fps_n > 0)
    {
      extra = gst_util_uint64_scale_int (PRIV (self)->in_flight * GST_SECOND,
                                         info->fps_d, info->fps_n);
      gst_query_parse_latency (query, &live, &min, &max);
      gst_query_set_latency (query, live, min + extra,
                             GST_CLOCK_TIME_IS_VALID (max) ? max + extra : max);
    }
}
