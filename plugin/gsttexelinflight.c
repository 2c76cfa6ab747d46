/* gst-texel: GstTexelBase's frames in flight: on the GPU path a frame's
 * work is enqueued and its output handed on only when a later frame goes
 * in (or at a drain), so uploads, kernels and downloads of consecutive
 * frames overlap. Built only with CUDA (have_cuda); gsttexelbase-private.h
 * has the fallbacks of CPU-only builds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

/* A frame submitted to the GPU whose output is not pushed yet. */
typedef struct
{
  GstBuffer *outbuf;
  GstVideoFrame in_frame, out_frame;
  gint slot;
} TexelPending;

static gboolean
gst_texel_base_upstream_is_live (GstTexelBase * self)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = FALSE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  gst_query_unref (query);
  return live;
}

/* Keeping a frame in flight overlaps frame N's download and GStreamer's
 * per-buffer work with frame N+1's upload: more frames/s when frames come
 * faster than the GPU takes them (files, transcoding). A live source
 * delivers frames at its own pace, and there it would only add a frame
 * period of latency: auto keeps none. With CUDA memory on both sides a
 * frame costs the host less than a large kernel takes, and with one frame
 * in flight the streaming thread would sleep on nearly every frame and
 * leave the GPU idle while it wakes (docs/performance.md, run 14): auto
 * keeps the most there, which costs pool buffers and latency but no
 * staging memory. */
gint
gst_texel_base_resolve_in_flight (GstTexelBase * self)
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
    n = priv->in_caps_device && priv->out_caps_device ?
        MAX_FRAMES_IN_FLIGHT : 1;
  GST_INFO_OBJECT (self, "%d frame(s) in flight", n);
  return n;
}

/* Waits for the oldest frame in flight and hands out its output. */
static GstFlowReturn
gst_texel_base_finish_oldest (GstTexelBase * self, GstBuffer ** outbuf)
{
  GstTexelBasePrivate *priv = PRIV (self);
  TexelPending *p = g_queue_pop_head (&priv->pending);
  int err = gst_texel_cuda_finish (priv->cuda, p->slot);

  gst_video_frame_unmap (&p->in_frame);
  gst_video_frame_unmap (&p->out_frame);
  *outbuf = p->outbuf;
  g_free (p);
  if (err) {
    gst_clear_buffer (outbuf);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA processing failed: %s", gst_texel_cuda_error_string (err)),
        ("CUDA error %d", err));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* Pushes every frame in flight downstream, oldest first. */
GstFlowReturn
gst_texel_base_drain (GstTexelBase * self)
{
  GstFlowReturn ret = GST_FLOW_OK, r;
  GstBuffer *outbuf;

  while (!g_queue_is_empty (&PRIV (self)->pending)) {
    r = gst_texel_base_finish_oldest (self, &outbuf);
    if (r == GST_FLOW_OK)
      r = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), outbuf);
    if (ret == GST_FLOW_OK)
      ret = r;
  }
  return ret;
}

/* Drops the frames in flight (flush, stop) once the GPU is done with them. */
void
gst_texel_base_drop_pending (GstTexelBase * self)
{
  GstBuffer *outbuf;

  while (!g_queue_is_empty (&PRIV (self)->pending)) {
    TexelPending *p = g_queue_peek_head (&PRIV (self)->pending);

    gst_texel_cuda_finish (PRIV (self)->cuda, p->slot);
    gst_texel_base_finish_oldest (self, &outbuf);
    gst_clear_buffer (&outbuf);
  }
}

/* Maps a frame and its output and enqueues their work on the GPU. */
static GstFlowReturn
gst_texel_base_submit (GstTexelBase * self, GstBuffer * inbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBaseTransformClass *bclass = GST_BASE_TRANSFORM_GET_CLASS (self);
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  GstTexelBasePrivate *priv = PRIV (self);
  TexelPending *p = g_new0 (TexelPending, 1);
  GstFlowReturn ret;
  TexelImage in, out;
  gboolean dirty;
  int err;

  ret = gst_texel_base_check_negotiated (self);
  if (ret != GST_FLOW_OK)
    goto fail;
  GST_OBJECT_LOCK (self);
  dirty = priv->dirty;
  GST_OBJECT_UNLOCK (self);
  /* A new plan may resize the buffers the frames in flight use. */
  if (dirty) {
    ret = gst_texel_base_drain (self);
    if (ret == GST_FLOW_OK && !gst_texel_base_prepare (self))
      ret = GST_FLOW_NOT_NEGOTIATED;
    if (ret != GST_FLOW_OK)
      goto fail;
  }
  if (priv->refused) {
    ret = GST_FLOW_NOT_NEGOTIATED;
    goto fail;
  }
  if (bclass->before_transform)
    bclass->before_transform (trans, inbuf);
  ret = bclass->prepare_output_buffer (trans, inbuf, &p->outbuf);
  if (ret != GST_FLOW_OK || !p->outbuf)
    goto fail;
  if (!gst_texel_base_map_frame (self, &p->in_frame, &filter->in_info, inbuf,
          GST_MAP_READ)) {
    gst_texel_base_invalid_buffer (self, inbuf);
    ret = GST_FLOW_OK;
    goto fail;
  }
  if (!gst_texel_base_map_frame (self, &p->out_frame, &filter->out_info,
          p->outbuf, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&p->in_frame);
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map the output buffer"), (NULL));
    ret = GST_FLOW_ERROR;
    goto fail;
  }
  gst_buffer_unref (inbuf);     /* the mapped frame holds its own ref */
  if (!gst_texel_base_frame_images (self, &p->in_frame, &p->out_frame, &in,
          &out)) {
    gst_video_frame_unmap (&p->in_frame);
    gst_video_frame_unmap (&p->out_frame);
    gst_buffer_unref (p->outbuf);
    g_free (p);
    return GST_FLOW_ERROR;
  }
  err = gst_texel_cuda_submit (priv->cuda, &p->in_frame, &p->out_frame, &in,
      &out, gst_texel_base_frames_memory (&p->in_frame, &p->out_frame),
      gst_texel_base_run_cuda, gst_texel_base_input_rows, self, &p->slot);
  if (err) {
    gst_video_frame_unmap (&p->in_frame);
    gst_video_frame_unmap (&p->out_frame);
    gst_buffer_unref (p->outbuf);
    g_free (p);
    gst_texel_base_drop_pending (self);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA processing failed: %s", gst_texel_cuda_error_string (err)),
        ("CUDA error %d", err));
    return GST_FLOW_ERROR;
  }
  g_queue_push_tail (&priv->pending, p);
  return GST_FLOW_OK;

fail:
  gst_clear_buffer (&p->outbuf);
  gst_buffer_unref (inbuf);
  g_free (p);
  return ret;
}

/* With frames in flight, the output of frame N comes out when frame
 * N + frames-in-flight goes in (and at EOS, caps, segment or drain). */
GstFlowReturn
gst_texel_base_in_flight_generate (GstTexelBase * self, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstTexelBasePrivate *priv = PRIV (self);
  GstBuffer *inbuf;
  GstFlowReturn ret;

  inbuf = trans->queued_buf;
  trans->queued_buf = NULL;
  if (inbuf && (ret = gst_texel_base_submit (self, inbuf)) != GST_FLOW_OK)
    return ret;
  if ((gint) g_queue_get_length (&priv->pending) > priv->in_flight)
    return gst_texel_base_finish_oldest (self, outbuf);
  return GST_FLOW_OK;
}

/* Serialized events the frames in flight must not be overtaken by, or
 * that discard them. */
void
gst_texel_base_in_flight_event (GstTexelBase * self, GstEvent * event)
{
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
    case GST_EVENT_STREAM_START:
      gst_texel_base_drain (self);
      break;
    case GST_EVENT_FLUSH_STOP:
      gst_texel_base_drop_pending (self);
      break;
    default:
      break;
  }
}

/* Frames in flight add their periods to the latency @query answered. */
void
gst_texel_base_in_flight_latency (GstTexelBase * self, GstQuery * query)
{
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstClockTime min, max, extra;
  gboolean live;

  if (info->fps_n > 0) {
    extra = gst_util_uint64_scale_int (PRIV (self)->in_flight * GST_SECOND,
        info->fps_d, info->fps_n);
    gst_query_parse_latency (query, &live, &min, &max);
    gst_query_set_latency (query, live, min + extra,
        GST_CLOCK_TIME_IS_VALID (max) ? max + extra : max);
  }
}
