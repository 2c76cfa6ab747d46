/* gst-texel: the runtime (plugin/device, plugin/memory, plugin/engine)
 * without GstTexelBase, in an element that is not a filter.
 *
 * texeltestpick, defined here, is a minimal GstVideoAggregator with two
 * request sink pads, sink_0 and sink_1, and one src pad. Its output is the
 * frame of the pad its pick property names, converted to the output's
 * format and size by the convert op (bilinear); the other pad's frame is
 * consumed and dropped. Its GPU path (gpu=true) uses only the runtime
 * library, texel_runtime_dep, as docs/design.md ("An element that is not
 * a filter") describes:
 *  - the device: gst_texel_cuda_detect, the primary context entered with
 *    gst_texel_cuda_context_enter for the kernels' context;
 *  - memory: system memory caps; pinned host memory
 *    (gst_texel_host_pool_new over a pinned host allocator of its own) proposed
 * to both sink pads and decided for the output;
 *  - the engine: gst_texel_in_flight_new, set_kernel (texel_cuda_convert
 *    with a convert plan, the kernels' context told the engine's fence),
 *    configure when the picked pad's caps or the output's change, then
 *    submit and pop for every frame (no frame held in flight), free.
 * Its CPU path (gpu=false, or no usable GPU) runs the convert op's fast
 * CPU path. The counters gpu-frames and cpu-frames say which path made
 * the frames.
 *
 * The tests run two videotestsrc of different patterns, formats and sizes
 * (NV12 320x240, I420 256x192) into texeltestpick and its RGBA 160x120
 * output into an appsink, once with pick=0 and once with pick=1, and
 * compare every output frame with what the double-precision reference
 * (texel_convert_cpu) makes of the picked source's frame (the patterns,
 * smpte75 and circular, are the same in every frame; smpte's noise is
 * not): within 1 code on the CPU path (the fast path's bound,
 * tests/unit/test-convert-fast.c), 4 codes on the GPU (bilinear through
 * textures, tests/element/test-texelconvert-gpu.c).
 * Each output must also be far from the other source's reference, so
 * the pick switches the content.
 *
 * Built twice: test-runtime-aggregator (suite 'element', CPU path) and,
 * in CUDA builds, test-runtime-aggregator-gpu (-DTEXEL_TEST_GPU, suite
 * 'gpu'), which exits 77 (skipped) without a usable GPU and checks that
 * every frame went through the engine.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/video/gstvideoaggregator.h>

#include "texel-convert.h"
#include "texel-convert-fast.h"
#include "memory/gsttexelimage.h"
#include "texel-frames.h"

#if HAVE_CUDA
#include "device/gsttexelcuda.h"
#include "engine/gsttexelinflight.h"
#include "memory/gsttexelcudamemory.h"
#include "memory/gsttexelhostmemory.h"
#include "texel-cuda.h"
#endif
#ifdef TEXEL_TEST_GPU
#include "texel-gpu-probe.h"
#endif

/* ------------------------------------------------------------------ */
/* The convert op's plan, shared by the element and the reference */

static void
pick_colorimetry (TexelColorimetry *c, const GstVideoInfo *info)
{
  switch (info->colorimetry.matrix)
    {
      case GST_VIDEO_COLOR_MATRIX_RGB:
        c->matrix = TEXEL_MATRIX_RGB;
        break;
      case GST_VIDEO_COLOR_MATRIX_BT709:
        c->matrix = TEXEL_MATRIX_BT709;
        break;
      case GST_VIDEO_COLOR_MATRIX_BT2020:
        c->matrix = TEXEL_MATRIX_BT2020;
        break;
      default:
        c->matrix = TEXEL_MATRIX_BT601;
        break;
    }
  c->full_range = info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
  c->chroma_h_cosited
      = (info->chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED) != 0;
  c->chroma_v_cosited
      = (info->chroma_site & GST_VIDEO_CHROMA_SITE_V_COSITED) != 0;
}

/* The whole input scaled to the whole output, bilinear. */
static gboolean
pick_plan_init (TexelConvertPlan *plan, const GstVideoInfo *in,
                const GstVideoInfo *out, const gchar **error)
{
  TexelConvertConfig c;

  memset (&c, 0, sizeof (c));
  c.src_w = GST_VIDEO_INFO_WIDTH (in);
  c.src_h = GST_VIDEO_INFO_HEIGHT (in);
  c.dst_w = GST_VIDEO_INFO_WIDTH (out);
  c.dst_h = GST_VIDEO_INFO_HEIGHT (out);
  c.method = TEXEL_METHOD_BILINEAR;
  c.direction = TEXEL_DIRECTION_IDENTITY;
  pick_colorimetry (&c.in_color, in);
  pick_colorimetry (&c.out_color, out);
  c.border_rgba[3] = 1.0;
  return texel_convert_plan_init (
             plan, &c, gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (in)),
             c.src_w, c.src_h,
             gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (out)), c.dst_w,
             c.dst_h, error)
         == 0;
}

/* ------------------------------------------------------------------ */
/* texeltestpick */

#define PICK_FORMATS                                                           \
  "{ NV12, NV21, I420, YV12, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, RGB, BGR, "   \
  "GRAY8 }"

static GstStaticPadTemplate pick_sink_template = GST_STATIC_PAD_TEMPLATE (
    "sink_%u", GST_PAD_SINK, GST_PAD_REQUEST,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (PICK_FORMATS)));
static GstStaticPadTemplate pick_src_template = GST_STATIC_PAD_TEMPLATE (
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (PICK_FORMATS)));

typedef struct
{
  GstVideoAggregator parent;

  /* Under the object lock. */
  guint pick;
  gboolean gpu;
  guint64 gpu_frames, cpu_frames;

  /* The aggregating thread's (and start/stop's). */
  TexelConvertPlan plan; /* for plan_in -> plan_out */
  gboolean have_plan;
  GstVideoInfo plan_in, plan_out;
#if HAVE_CUDA
  GstTexelInFlight *flight; /* NULL: the CPU path */
  TexelCudaContext *kernels;
  GstAllocator *allocator; /* pinned host memory of the pools, with flight */
  gint device;
#endif
} TexelTestPick;

typedef struct
{
  GstVideoAggregatorClass parent_class;
} TexelTestPickClass;

GType texel_test_pick_get_type (void);
G_DEFINE_TYPE (TexelTestPick, texel_test_pick, GST_TYPE_VIDEO_AGGREGATOR)
#define PICK(obj) ((TexelTestPick *)(obj))

enum
{
  PROP_0,
  PROP_PICK,
  PROP_GPU,
  PROP_GPU_FRAMES,
  PROP_CPU_FRAMES
};

static void
pick_clear_plan (TexelTestPick *self)
{
  texel_convert_fast_free ((TexelConvertFast *)self->plan.fast);
  self->plan.fast = NULL;
  self->have_plan = FALSE;
}

#if HAVE_CUDA
/* The engine's kernel: the convert op on @stream. */
static int
pick_cuda_convert (TexelCudaContext *ctx, gconstpointer plan,
                   const TexelImage *in, const TexelImage *out, int row0,
                   int row1, TexelStream stream)
{
  return texel_cuda_convert (ctx, plan, in, out, row0, row1, stream);
}

/* The GPU path (start): a device, an engine on it, the kernels' context
 * made in the device's primary context and told the engine's fence. */
static gboolean
pick_open_gpu (TexelTestPick *self, const gchar **reason)
{
  GstTexelKernelCall call;
  TexelCudaCaps caps;
  int err = 0, undo;

  memset (&caps, 0, sizeof (caps));
  if (gst_texel_cuda_detect (-1, &caps, reason, &err) == 0)
    return FALSE;
  /* Zero-copy where host memory is device memory (Jetson), else staged. */
  self->flight = gst_texel_in_flight_new (
      caps.device, NULL, caps.integrated && caps.can_map_host_memory,
      caps.async_engine_count, &err);
  if (!self->flight)
    {
      *reason = gst_texel_cuda_error_string (err);
      return FALSE;
    }
  err = gst_texel_cuda_context_enter (NULL, caps.device, &undo);
  if (err == 0)
    err = texel_cuda_context_new (caps.device, &self->kernels);
  gst_texel_cuda_context_leave (NULL, undo);
  if (err)
    {
      gst_texel_in_flight_free (self->flight);
      self->flight = NULL;
      *reason = gst_texel_cuda_error_string (err);
      return FALSE;
    }
  texel_cuda_context_set_fence (self->kernels,
                                gst_texel_in_flight_get_fence (self->flight));
  self->allocator = gst_texel_host_allocator_new (caps.device, NULL);
  call.run = pick_cuda_convert;
  call.input_rows = NULL;
  call.plan = &self->plan; /* rewritten in place when the caps change */
  call.context = self->kernels;
  gst_texel_in_flight_set_kernel (self->flight, &call);
  self->device = caps.device;
  GST_INFO_OBJECT (
      self, "GPU path on device %d '%s', %s", caps.device, caps.name,
      caps.integrated && caps.can_map_host_memory ? "zero-copy" : "staged");
  return TRUE;
}

static void
pick_close_gpu (TexelTestPick *self)
{
  int undo;

  if (!self->flight)
    return;
  gst_texel_in_flight_flush (self->flight);
  gst_texel_cuda_context_enter (NULL, self->device, &undo);
  texel_cuda_context_free (self->kernels);
  self->kernels = NULL;
  gst_texel_cuda_context_leave (NULL, undo);
  gst_texel_in_flight_free (self->flight);
  self->flight = NULL;
  gst_clear_object (&self->allocator);
}
#endif

static gboolean
pick_start (GstAggregator *agg)
{
  TexelTestPick *self = PICK (agg);
  gboolean gpu;

  GST_OBJECT_LOCK (self);
  gpu = self->gpu;
  self->gpu_frames = self->cpu_frames = 0;
  GST_OBJECT_UNLOCK (self);
  if (gpu)
    {
      const gchar *reason = "built without CUDA";

#if HAVE_CUDA
      if (!pick_open_gpu (self, &reason))
#endif
        GST_ELEMENT_WARNING (self, RESOURCE, FAILED,
                             ("No GPU path (%s): the CPU path runs", reason),
                             (NULL));
    }
  return GST_AGGREGATOR_CLASS (texel_test_pick_parent_class)->start (agg);
}

static gboolean
pick_stop (GstAggregator *agg)
{
  TexelTestPick *self = PICK (agg);

#if HAVE_CUDA
  pick_close_gpu (self);
#endif
  pick_clear_plan (self);
  return GST_AGGREGATOR_CLASS (texel_test_pick_parent_class)->stop (agg);
}

/* Pinned host memory of the engine's for the upstream elements: their
 * frames are then copied to the GPU by DMA as they are (or read in place
 * on a Jetson). */
static gboolean
pick_propose_allocation (GstAggregator *agg, GstAggregatorPad *pad,
                         GstQuery *decide_query, GstQuery *query)
{
  GstAggregatorClass *parent
      = GST_AGGREGATOR_CLASS (texel_test_pick_parent_class);
  gboolean ok = TRUE;

  if (parent->propose_allocation)
    ok = parent->propose_allocation (agg, pad, decide_query, query);
#if HAVE_CUDA
  {
    TexelTestPick *self = PICK (agg);
    GstAllocator *allocator;
    GstAllocationParams params;
    GstBufferPool *pool;
    GstVideoInfo info;
    gboolean need_pool;
    GstCaps *caps;

    if (!ok || !self->flight)
      return ok;
    gst_query_parse_allocation (query, &caps, &need_pool);
    if (!caps || !gst_video_info_from_caps (&info, caps))
      return FALSE;
    if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
      gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    allocator = self->allocator;
    gst_allocation_params_init (&params);
    params.align = GST_TEXEL_HOST_MEMORY_ALIGN;
    gst_query_add_allocation_param (query, allocator, &params);
    if (need_pool)
      {
        pool = gst_texel_host_pool_new (allocator, caps, info.size, 2, 0);
        if (!pool)
          return FALSE;
        /* First: the pool upstream takes. */
        if (gst_query_get_n_allocation_pools (query) > 0)
          gst_query_set_nth_allocation_pool (query, 0, pool, info.size, 2, 0);
        else
          gst_query_add_allocation_pool (query, pool, info.size, 2, 0);
        gst_object_unref (pool);
      }
  }
#endif
  return ok;
}

/* Output frames in pinned host memory on the GPU path: downloaded by DMA
 * (or written in place by the kernel on a Jetson). */
static gboolean
pick_decide_allocation (GstAggregator *agg, GstQuery *query)
{
#if HAVE_CUDA
  TexelTestPick *self = PICK (agg);

  if (self->flight)
    {
      GstBufferPool *pool;
      GstVideoInfo info;
      guint min = 0, max = 0;
      GstCaps *caps;

      gst_query_parse_allocation (query, &caps, NULL);
      if (!caps || !gst_video_info_from_caps (&info, caps))
        return FALSE;
      if (gst_query_get_n_allocation_pools (query) > 0)
        gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);
      min += 2; /* downstream's and the one being written */
      if (max != 0 && max < min)
        max = min;
      pool = gst_texel_host_pool_new (self->allocator, caps, info.size, min,
                                      max);
      if (!pool)
        return FALSE;
      if (gst_query_get_n_allocation_pools (query) > 0)
        gst_query_set_nth_allocation_pool (query, 0, pool, info.size, min, max);
      else
        gst_query_add_allocation_pool (query, pool, info.size, min, max);
      gst_object_unref (pool);
      return TRUE;
    }
#endif
  {
    GstAggregatorClass *parent
        = GST_AGGREGATOR_CLASS (texel_test_pick_parent_class);

    return !parent->decide_allocation || parent->decide_allocation (agg, query);
  }
}

/* Each input is converted on its own: a sink pad takes any format and
 * size of its template, whatever the output is (GstVideoAggregator's own
 * caps query would tie the inputs' sizes to downstream's). */
static gboolean
pick_sink_query (GstAggregator *agg, GstAggregatorPad *pad, GstQuery *query)
{
  GstCaps *templ, *caps, *filter;

  switch (GST_QUERY_TYPE (query))
    {
      case GST_QUERY_CAPS:
        templ = gst_pad_get_pad_template_caps (GST_PAD (pad));
        gst_query_parse_caps (query, &filter);
        if (filter)
          {
            caps = gst_caps_intersect_full (filter, templ,
                                            GST_CAPS_INTERSECT_FIRST);
            gst_caps_unref (templ);
          }
        else
          caps = templ;
        gst_query_set_caps_result (query, caps);
        gst_caps_unref (caps);
        return TRUE;
      case GST_QUERY_ACCEPT_CAPS:
        templ = gst_pad_get_pad_template_caps (GST_PAD (pad));
        gst_query_parse_accept_caps (query, &caps);
        gst_query_set_accept_caps_result (query,
                                          gst_caps_is_subset (caps, templ));
        gst_caps_unref (templ);
        return TRUE;
      default:
        return GST_AGGREGATOR_CLASS (texel_test_pick_parent_class)
            ->sink_query (agg, pad, query);
    }
}

/* Whatever format and size downstream takes: no preference among the
 * inputs' formats, the output size nearest the largest input's. */
static GstCaps *
pick_update_caps (GstVideoAggregator *vagg, GstCaps *caps)
{
  return gst_caps_ref (caps);
}

/* A plan for @in -> @out where the picked pad's caps or the output's
 * changed (also when the pick does), and the engine configured for it. */
static gboolean
pick_prepare (TexelTestPick *self, const GstVideoInfo *in,
              const GstVideoInfo *out)
{
  const gchar *error = NULL;

  if (self->have_plan && gst_video_info_is_equal (in, &self->plan_in)
      && gst_video_info_is_equal (out, &self->plan_out))
    return TRUE;
  pick_clear_plan (self);
  if (!pick_plan_init (&self->plan, in, out, &error))
    {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
                         ("Cannot convert %s to %s: %s",
                          GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_NAME (out),
                          error),
                         (NULL));
      return FALSE;
    }
#if HAVE_CUDA
  if (self->flight)
    {
      /* No frame is in flight here: each is popped as it is submitted. */
      int err = gst_texel_in_flight_configure (
          self->flight,
          gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (in)),
          GST_VIDEO_INFO_WIDTH (in), GST_VIDEO_INFO_HEIGHT (in),
          gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (out)),
          GST_VIDEO_INFO_WIDTH (out), GST_VIDEO_INFO_HEIGHT (out),
          GST_TEXEL_FRAMES_HOST, FALSE, 0);

      if (err)
        {
          GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
                             ("Could not allocate GPU buffers: %s",
                              gst_texel_cuda_error_string (err)),
                             (NULL));
          return FALSE;
        }
    }
  else
#endif
    self->plan.fast = texel_convert_fast_new (&self->plan);
  self->plan_in = *in;
  self->plan_out = *out;
  self->have_plan = TRUE;
  return TRUE;
}

#if HAVE_CUDA
/* One frame through the engine: submitted, then popped at once. */
static GstFlowReturn
pick_convert_gpu (TexelTestPick *self, GstVideoInfo *in_info, GstBuffer *inbuf,
                  GstVideoInfo *out_info, GstBuffer *outbuf)
{
  GstTexelFrameWork work;
  GstBuffer *done = NULL;
  int err;

  memset (&work, 0, sizeof (work));
  if (!gst_video_frame_map (&work.in_frame, in_info, inbuf, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_video_frame_map (&work.out_frame, out_info, outbuf, GST_MAP_WRITE))
    {
      gst_video_frame_unmap (&work.in_frame);
      return GST_FLOW_ERROR;
    }
  /* The engine takes a reference of its own (mapped writable first). */
  work.outbuf = gst_buffer_ref (outbuf);
  gst_texel_image_from_frame (&work.in, &work.in_frame);
  gst_texel_image_from_frame (&work.out, &work.out_frame);
  work.memory = gst_texel_frames_memory (&work.in_frame, &work.out_frame);
  err = gst_texel_in_flight_submit (self->flight, &work);
  if (err == 0)
    err = gst_texel_in_flight_pop (self->flight, &done);
  if (done)
    gst_buffer_unref (done); /* outbuf, written */
  if (err)
    {
      gst_texel_in_flight_flush (self->flight);
      GST_ELEMENT_ERROR (
          self, RESOURCE, FAILED,
          ("CUDA processing failed: %s", gst_texel_cuda_error_string (err)),
          (NULL));
      return GST_FLOW_ERROR;
    }
  GST_OBJECT_LOCK (self);
  self->gpu_frames++;
  GST_OBJECT_UNLOCK (self);
  return GST_FLOW_OK;
}
#endif

static GstFlowReturn
pick_convert_cpu (TexelTestPick *self, GstVideoInfo *in_info, GstBuffer *inbuf,
                  GstVideoInfo *out_info, GstBuffer *outbuf)
{
  GstVideoFrame in_frame, out_frame;
  TexelImage in, out;

  if (!gst_video_frame_map (&in_frame, in_info, inbuf, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_video_frame_map (&out_frame, out_info, outbuf, GST_MAP_WRITE))
    {
      gst_video_frame_unmap (&in_frame);
      return GST_FLOW_ERROR;
    }
  gst_texel_image_from_frame (&in, &in_frame);
  gst_texel_image_from_frame (&out, &out_frame);
  texel_convert_fast (&self->plan, &in, &out, 0, out.height);
  gst_video_frame_unmap (&in_frame);
  gst_video_frame_unmap (&out_frame);
  GST_OBJECT_LOCK (self);
  self->cpu_frames++;
  GST_OBJECT_UNLOCK (self);
  return GST_FLOW_OK;
}

/* The picked pad's frame converted into @outbuf; the other pad's frame is
 * consumed (the base class drops it). Without a frame on the picked pad
 * (it ended first) the output is a gap. */
static GstFlowReturn
pick_aggregate_frames (GstVideoAggregator *vagg, GstBuffer *outbuf)
{
  TexelTestPick *self = PICK (vagg);
  GstVideoAggregatorPad *pad;
  GstVideoInfo in_info;
  GstBuffer *inbuf = NULL;
  GstFlowReturn ret;
  gchar *name;

  GST_OBJECT_LOCK (self);
  name = g_strdup_printf ("sink_%u", self->pick);
  GST_OBJECT_UNLOCK (self);
  pad = (GstVideoAggregatorPad *)gst_element_get_static_pad (GST_ELEMENT (vagg),
                                                             name);
  g_free (name);
  if (pad && gst_video_aggregator_pad_has_current_buffer (pad))
    {
      inbuf
          = gst_buffer_ref (gst_video_aggregator_pad_get_current_buffer (pad));
      in_info = pad->info;
    }
  gst_clear_object (&pad);
  if (!inbuf)
    {
      GstVideoFrame frame;
      guint p;

      if (!gst_video_frame_map (&frame, &vagg->info, outbuf, GST_MAP_WRITE))
        return GST_FLOW_ERROR;
      for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++)
        memset (GST_VIDEO_FRAME_PLANE_DATA (&frame, p), 0,
                GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p)
                    * GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p));
      gst_video_frame_unmap (&frame);
      GST_BUFFER_FLAG_SET (outbuf, GST_BUFFER_FLAG_GAP);
      return GST_FLOW_OK;
    }
  if (!pick_prepare (self, &in_info, &vagg->info))
    ret = GST_FLOW_NOT_NEGOTIATED;
#if HAVE_CUDA
  else if (self->flight)
    ret = pick_convert_gpu (self, &in_info, inbuf, &vagg->info, outbuf);
#endif
  else
    ret = pick_convert_cpu (self, &in_info, inbuf, &vagg->info, outbuf);
  gst_buffer_unref (inbuf);
  return ret;
}

/* Two inputs: sink_0 and sink_1, the names pick refers to. */
static GstPad *
pick_request_new_pad (GstElement *element, GstPadTemplate *templ,
                      const gchar *name, const GstCaps *caps)
{
  gchar *free_name = NULL;
  GstPad *pad;
  guint i;

  if (name == NULL)
    {
      for (i = 0; i < 2 && !free_name; i++)
        {
          gchar *n = g_strdup_printf ("sink_%u", i);

          pad = gst_element_get_static_pad (element, n);
          if (pad)
            {
              gst_object_unref (pad);
              g_free (n);
            }
          else
            free_name = n;
        }
      if (!free_name)
        return NULL;
      name = free_name;
    }
  else if (strcmp (name, "sink_0") != 0 && strcmp (name, "sink_1") != 0)
    return NULL;
  pad = GST_ELEMENT_CLASS (texel_test_pick_parent_class)
            ->request_new_pad (element, templ, name, caps);
  g_free (free_name);
  return pad;
}

static void
pick_set_property (GObject *object, guint prop_id, const GValue *value,
                   GParamSpec *pspec)
{
  TexelTestPick *self = PICK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id)
    {
      case PROP_PICK:
        self->pick = g_value_get_uint (value);
        break;
      case PROP_GPU:
        self->gpu = g_value_get_boolean (value);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  GST_OBJECT_UNLOCK (self);
}

static void
pick_get_property (GObject *object, guint prop_id, GValue *value,
                   GParamSpec *pspec)
{
  TexelTestPick *self = PICK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id)
    {
      case PROP_PICK:
        g_value_set_uint (value, self->pick);
        break;
      case PROP_GPU:
        g_value_set_boolean (value, self->gpu);
        break;
      case PROP_GPU_FRAMES:
        g_value_set_uint64 (value, self->gpu_frames);
        break;
      case PROP_CPU_FRAMES:
        g_value_set_uint64 (value, self->cpu_frames);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  GST_OBJECT_UNLOCK (self);
}

static void
texel_test_pick_class_init (TexelTestPickClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);
  GstVideoAggregatorClass *vagg_class = GST_VIDEO_AGGREGATOR_CLASS (klass);

  gobject_class->set_property = pick_set_property;
  gobject_class->get_property = pick_get_property;
  g_object_class_install_property (
      gobject_class, PROP_PICK,
      g_param_spec_uint ("pick", "Pick", "The input pad the output shows", 0, 1,
                         0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
                             | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (
      gobject_class, PROP_GPU,
      g_param_spec_boolean ("gpu", "GPU",
                            "Convert on the GPU (the runtime's engine)", FALSE,
                            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (
      gobject_class, PROP_GPU_FRAMES,
      g_param_spec_uint64 (
          "gpu-frames", "GPU frames", "Frames converted on the GPU since start",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (
      gobject_class, PROP_CPU_FRAMES,
      g_param_spec_uint64 (
          "cpu-frames", "CPU frames", "Frames converted on the CPU since start",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template_with_gtype (
      element_class, &pick_sink_template, GST_TYPE_VIDEO_AGGREGATOR_PAD);
  gst_element_class_add_static_pad_template_with_gtype (
      element_class, &pick_src_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_set_static_metadata (
      element_class, "Texel test pick", "Filter/Editor/Video/Compositor",
      "One of two inputs converted with the texel runtime (a test element)",
      "gst-texel");
  element_class->request_new_pad = pick_request_new_pad;

  agg_class->start = pick_start;
  agg_class->stop = pick_stop;
  agg_class->sink_query = pick_sink_query;
  agg_class->propose_allocation = pick_propose_allocation;
  agg_class->decide_allocation = pick_decide_allocation;
  vagg_class->update_caps = pick_update_caps;
  vagg_class->aggregate_frames = pick_aggregate_frames;
}

static void
texel_test_pick_init (TexelTestPick *self)
{
}

/* ------------------------------------------------------------------ */
/* The tests */

#ifdef TEXEL_TEST_GPU
#define TEST_GPU TRUE
/* Bilinear through textures against the double-precision reference. */
#define BOUND 4
#else
#define TEST_GPU FALSE
/* The fast CPU path against the double-precision reference. */
#define BOUND 1
#endif

#define N_BUFFERS 3
#define OUT_CAPS "video/x-raw,format=RGBA,width=160,height=120"

/* The two sources: static patterns, so every frame is the same picture. */
static const gchar *const src_pattern[2] = { "smpte75", "circular" };
static const gchar *const src_caps[2]
    = { "video/x-raw,format=NV12,width=320,height=240,framerate=30/1",
        "video/x-raw,format=I420,width=256,height=192,framerate=30/1" };

/* The next sample of appsink @sink, NULL at EOS; fails on an error
 * message on @bus. Polls, so that an error cannot leave it waiting. */
static GstSample *
pull_sample (GstElement *sink, GstBus *bus)
{
  GstSample *sample = NULL;
  gboolean eos = FALSE;

  while (!sample && !eos)
    {
      GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

      if (msg)
        {
          GError *err = NULL;
          gchar *dbg = NULL;

          gst_message_parse_error (msg, &err, &dbg);
          fail ("error from %s: %s (%s)", GST_OBJECT_NAME (msg->src),
                err->message, dbg ? dbg : "");
        }
      g_signal_emit_by_name (sink, "try-pull-sample", 100 * GST_MSECOND,
                             &sample);
      if (!sample)
        g_object_get (sink, "eos", &eos, NULL);
    }
  return sample;
}

/* The warnings waiting on @bus, popped, as text ("" where none). */
static gchar *
warnings_text (GstBus *bus)
{
  GString *text = g_string_new ("");
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING)) != NULL)
    {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      g_string_append_printf (text, "; %s: %s", GST_OBJECT_NAME (msg->src),
                              err->message);
      g_error_free (err);
      gst_message_unref (msg);
    }
  return g_string_free (text, FALSE);
}

/* What the convert op's double-precision reference makes of source @i's
 * frame for @out_info: the source run alone to its first frame. */
static GstBuffer *
reference_output (guint i, const GstVideoInfo *out_info)
{
  gchar *line = g_strdup_printf (
      "videotestsrc pattern=%s num-buffers=1 ! %s ! appsink name=out",
      src_pattern[i], src_caps[i]);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (line, &error), *sink;
  GstVideoFrame in_frame, out_frame;
  TexelConvertPlan plan;
  GstVideoInfo in_info;
  TexelImage in, out;
  const gchar *why = NULL;
  GstSample *sample;
  GstBuffer *outbuf;
  GstBus *bus;

  fail_unless (pipeline != NULL, "%s: %s", line, error ? error->message : "?");
  g_free (line);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
               != GST_STATE_CHANGE_FAILURE);
  sample = pull_sample (sink, bus);
  fail_unless (sample != NULL, "source %u gave no frame", i);

  fail_unless (
      gst_video_info_from_caps (&in_info, gst_sample_get_caps (sample)));
  fail_unless (pick_plan_init (&plan, &in_info, out_info, &why), "%s", why);
  outbuf = gst_buffer_new_allocate (NULL, out_info->size, NULL);
  fail_unless (gst_video_frame_map (
      &in_frame, &in_info, gst_sample_get_buffer (sample), GST_MAP_READ));
  fail_unless (
      gst_video_frame_map (&out_frame, out_info, outbuf, GST_MAP_WRITE));
  gst_texel_image_from_frame (&in, &in_frame);
  gst_texel_image_from_frame (&out, &out_frame);
  texel_convert_cpu (&plan, &in, &out, 0, out.height);
  gst_video_frame_unmap (&in_frame);
  gst_video_frame_unmap (&out_frame);

  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return outbuf;
}

/* frames_max_diff of two buffers of @info; @where may be NULL. */
static guint
buffers_max_diff (const GstVideoInfo *info, GstBuffer *a, GstBuffer *b,
                  gchar **where)
{
  GstVideoFrame fa, fb;
  gchar *at = NULL;
  guint diff;

  fail_unless (gst_video_frame_map (&fa, info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, info, b, GST_MAP_READ));
  diff = frames_max_diff (&fa, &fb, &at);
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  if (where)
    *where = at;
  else
    g_free (at);
  return diff;
}

/* Both sources into texeltestpick pick=@pick; every output frame within
 * BOUND of the picked source's reference, far from the other's, made on
 * the expected path. */
static void
run_pick (guint pick)
{
  gchar *line = g_strdup_printf (
      "texeltestpick name=pick pick=%u gpu=%s ! " OUT_CAPS
      " ! appsink name=out sync=false "
      "videotestsrc pattern=%s num-buffers=%d ! %s ! pick.sink_0 "
      "videotestsrc pattern=%s num-buffers=%d ! %s ! pick.sink_1",
      pick, TEST_GPU ? "true" : "false", src_pattern[0], N_BUFFERS, src_caps[0],
      src_pattern[1], N_BUFFERS, src_caps[1]);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (line, &error), *sink, *agg;
  GstBuffer *expected[2] = { NULL, NULL };
  GstVideoInfo out_info;
  guint64 gpu_frames, cpu_frames;
  GstSample *sample;
  guint n = 0, apart;
  gchar *warning;
  GstBus *bus;

  fail_unless (pipeline != NULL, "%s: %s", line, error ? error->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  agg = gst_bin_get_by_name (GST_BIN (pipeline), "pick");
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
               != GST_STATE_CHANGE_FAILURE);

  while ((sample = pull_sample (sink, bus)) != NULL)
    {
      GstBuffer *buf = gst_sample_get_buffer (sample);
      gchar *where = NULL;
      guint diff, other;

      fail_unless (
          gst_video_info_from_caps (&out_info, gst_sample_get_caps (sample)));
      fail_unless_equals_string (GST_VIDEO_INFO_NAME (&out_info), "RGBA");
      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), 160);
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), 120);
      fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP),
               "frame %u: the picked pad had no frame", n);
      if (!expected[0])
        {
          expected[0] = reference_output (0, &out_info);
          expected[1] = reference_output (1, &out_info);
          /* The two sources' pictures are far apart. */
          apart = buffers_max_diff (&out_info, expected[0], expected[1], NULL);
          fail_unless (apart > 8 * BOUND, "the sources differ by %u only",
                       apart);
        }
      diff = buffers_max_diff (&out_info, expected[pick], buf, &where);
      fail_unless (diff <= BOUND,
                   "pick=%u, frame %u: %u codes from the reference (bound "
                   "%d): %s",
                   pick, n, diff, BOUND, where);
      g_free (where);
      other = buffers_max_diff (&out_info, expected[1 - pick], buf, NULL);
      fail_unless (other > BOUND,
                   "pick=%u, frame %u: the other input's picture", pick, n);
      GST_INFO ("pick=%u, frame %u: %u codes from the reference, %u from "
                "the other input's",
                pick, n, diff, other);
      gst_sample_unref (sample);
      n++;
    }
  fail_unless (n >= 1, "no output frame");
  g_object_get (agg, "gpu-frames", &gpu_frames, "cpu-frames", &cpu_frames,
                NULL);
  /* Every frame on the path asked for; a GPU path that did not open says
   * why in a warning. */
  warning = warnings_text (bus);
  fail_unless (TEST_GPU ? gpu_frames == n && cpu_frames == 0
                        : cpu_frames == n && gpu_frames == 0,
               "pick=%u: %u frames, %" G_GUINT64_FORMAT
               " on the GPU, %" G_GUINT64_FORMAT " on the CPU (%s)%s",
               pick, n, gpu_frames, cpu_frames,
               TEST_GPU ? "all on the GPU expected" : "all on the CPU expected",
               warning);
  g_free (warning);
  g_print ("pick=%u: %u frames (%" G_GUINT64_FORMAT " on the GPU, "
           "%" G_GUINT64_FORMAT " on the CPU)\n",
           pick, n, gpu_frames, cpu_frames);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_buffer_unref (expected[0]);
  gst_buffer_unref (expected[1]);
  gst_object_unref (bus);
  gst_object_unref (agg);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (line);
}

GST_START_TEST (test_pick_first)
{
  run_pick (0);
}
GST_END_TEST;

GST_START_TEST (test_pick_second)
{
  run_pick (1);
}
GST_END_TEST;

/* At most two inputs, named as pick names them. */
GST_START_TEST (test_two_pads)
{
  GstElement *e = gst_element_factory_make ("texeltestpick", NULL);
  GstPad *a, *b;

  fail_unless (e != NULL);
  a = gst_element_request_pad_simple (e, "sink_%u");
  b = gst_element_request_pad_simple (e, "sink_%u");
  fail_unless (a && b);
  fail_unless_equals_string (GST_PAD_NAME (a), "sink_0");
  fail_unless_equals_string (GST_PAD_NAME (b), "sink_1");
  fail_unless (gst_element_request_pad_simple (e, "sink_%u") == NULL);
  gst_element_release_request_pad (e, a);
  gst_object_unref (a);
  a = gst_element_request_pad_simple (e, "sink_%u");
  fail_unless (a != NULL);
  fail_unless_equals_string (GST_PAD_NAME (a), "sink_0");
  gst_element_release_request_pad (e, a);
  gst_element_release_request_pad (e, b);
  gst_object_unref (a);
  gst_object_unref (b);
  gst_object_unref (e);
}
GST_END_TEST;

static const TexelTest tests[] = {
  TEXEL_TEST (test_two_pads),
  TEXEL_TEST (test_pick_first),
  TEXEL_TEST (test_pick_second),
};

int
main (int argc, char **argv)
{
  texel_check_init (&argc, &argv);
#ifdef TEXEL_TEST_GPU
  if (texel_probe_gpus () <= 0)
    {
      g_print ("SKIP: runtime-aggregator-gpu needs a CUDA GPU\n");
      return 77;
    }
#endif
  gst_element_register (NULL, "texeltestpick", GST_RANK_NONE,
                        texel_test_pick_get_type ());
  return gst_check_run_suite (texel_suite_new ("runtime_aggregator",
                                               "runtime_aggregator", 0, tests,
                                               G_N_ELEMENTS (tests)),
                              "runtime_aggregator", __FILE__);
}
