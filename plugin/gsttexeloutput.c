/* gst-texel: GstTexelBase's output on the GPU path with frames in flight:
 * each input frame is mapped with its output and handed to the element's
 * GstTexelInFlight (gsttexelinflight.h), and an output is pushed only when
 * a later frame goes in (or at a drain), so uploads, kernels and downloads
 * of consecutive frames overlap. Built only with CUDA (have_cuda);
 * gsttexelbase-private.h has the fallbacks of CPU-only builds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelbase-private.h"

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
 * about as long as the upload (a 4K Bayer mosaic to 1080p NV12: 1.25x
 * the frames/s, docs/performance.md, run 58) at one frame period more
 * latency. A live source delivers frames at its own pace, and there they
 * would only add latency: auto keeps none. With CUDA memory on both sides a
 * frame costs the host less than a large kernel takes, and with one frame
 * in flight the streaming thread would sleep on nearly every frame and
 * leave the GPU idle while it wakes (docs/performance.md, run 14): auto
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

/* Waits for the oldest frame in flight and hands out its output. */
static GstFlowReturn
gst_texel_base_pop (GstTexelBase *self, GstBuffer **outbuf)
{
  int err = gst_texel_in_flight_pop (PRIV (self)->cuda, outbuf);

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
      r = gst_texel_base_pop (self, &outbuf);
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
  GstVideoFrame in_frame, out_frame;
  GstBuffer *outbuf = NULL;
  GstFlowReturn ret;
  TexelImage in, out;
  int err;

  ret = gst_texel_base_ready (self);
  if (ret != GST_FLOW_OK)
    goto fail;
  if (bclass->before_transform)
    bclass->before_transform (trans, inbuf);
  ret = bclass->prepare_output_buffer (trans, inbuf, &outbuf);
  if (ret != GST_FLOW_OK || !outbuf)
    goto fail;
  ret = gst_texel_base_map_frames (self, inbuf, outbuf, &in_frame, &out_frame);
  if (ret != GST_FLOW_OK)
    {
      /* Dropped (warned about): the frames held back go on as they are. */
      if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
        ret = GST_FLOW_OK;
      goto fail;
    }
  gst_buffer_unref (inbuf); /* the mapped frame holds its own ref */
  if (!gst_texel_base_frame_images (self, &in_frame, &out_frame, &in, &out))
    {
      gst_video_frame_unmap (&in_frame);
      gst_video_frame_unmap (&out_frame);
      gst_buffer_unref (outbuf);
      return GST_FLOW_ERROR;
    }
  /* From here the frames in flight own the buffers and frames. */
  err = gst_texel_in_flight_submit (
      PRIV (self)->cuda, outbuf, &in_frame, &out_frame, &in, &out,
      gst_texel_base_frames_memory (&in_frame, &out_frame),
      gst_texel_base_run_cuda, gst_texel_base_input_rows, self);
  if (err)
    {
      gst_texel_base_flush (self);
      return gst_texel_base_cuda_failed (self, err);
    }
  return GST_FLOW_OK;

fail:
  gst_clear_buffer (&outbuf);
  gst_buffer_unref (inbuf);
  return ret;
}

/* With frames in flight, the output of frame N comes out when frame
 * N + frames-in-flight goes in (and at EOS, caps, segment or drain). */
GstFlowReturn
gst_texel_base_in_flight_generate (GstTexelBase *self, GstBuffer **outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstTexelBasePrivate *priv = PRIV (self);
  GstBuffer *inbuf;
  GstFlowReturn ret;

  inbuf = trans->queued_buf;
  trans->queued_buf = NULL;
  if (inbuf && (ret = gst_texel_base_submit (self, inbuf)) != GST_FLOW_OK)
    return ret;
  if ((gint)gst_texel_in_flight_count (priv->cuda) > priv->in_flight)
    return gst_texel_base_pop (self, outbuf);
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
