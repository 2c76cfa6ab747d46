/* gst-texel: GstTexelBase, the base class of every texel element: the
 * class and its properties, start and stop, and each GstBaseTransform /
 * GstVideoFilter vfunc handed to the unit that does the work, on the
 * CPU path or the GPU path (gsttexelbase-private.h lists the units).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/gsttexelbase-private.h"

#include <math.h>

GST_DEBUG_CATEGORY (gst_texel_base_debug);
#define GST_CAT_DEFAULT gst_texel_base_debug

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_BACKEND GST_TEXEL_BACKEND_AUTO
#define DEFAULT_MEMORY_MODE GST_TEXEL_MEMORY_MODE_AUTO
#define DEFAULT_FRAMES_IN_FLIGHT -1
#define DEFAULT_N_THREADS 0

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_BACKEND,
  PROP_MEMORY_MODE,
  PROP_FRAMES_IN_FLIGHT,
  PROP_N_THREADS,
  PROP_ACTIVE_BACKEND,
  PROP_ACTIVE_MEMORY_MODE,
  PROP_STATS
};

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (
    GstTexelBase, gst_texel_base, GST_TYPE_VIDEO_FILTER,
    G_ADD_PRIVATE (GstTexelBase)
        GST_DEBUG_CATEGORY_INIT (gst_texel_base_debug, "texelbase", 0,
                                 "gst-texel base class"));

GstTexelBasePrivate *
gst_texel_base_get_private (GstTexelBase *base)
{
  return gst_texel_base_get_instance_private (base);
}

GType
gst_texel_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { GST_TEXEL_BACKEND_AUTO, "CUDA when a usable GPU exists, else the CPU",
      "auto" },
    { GST_TEXEL_BACKEND_CUDA, "CUDA only: an error without a usable GPU",
      "cuda" },
    { GST_TEXEL_BACKEND_CPU,
      "CPU: the fast path where it covers the settings, else the reference",
      "cpu" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
                       g_enum_register_static ("GstTexelBackend", values));
  return type;
}

GType
gst_texel_memory_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { GST_TEXEL_MEMORY_MODE_AUTO,
            "zero-copy on integrated GPUs, staged on discrete GPUs", "auto" },
          { GST_TEXEL_MEMORY_MODE_ZERO_COPY,
            "kernels work in mapped pinned host memory, no copies",
            "zero-copy" },
          { GST_TEXEL_MEMORY_MODE_STAGED,
            "frames copied to device memory and back, the copies overlapping "
            "kernels",
            "staged" },
          { 0, NULL, NULL } };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
                       g_enum_register_static ("GstTexelMemoryMode", values));
  return type;
}

GType
gst_texel_active_memory_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { GST_TEXEL_ACTIVE_MEMORY_NONE, "not started", "none" },
          { GST_TEXEL_ACTIVE_MEMORY_SYSTEM, "system memory, CPU path",
            "system" },
          { GST_TEXEL_ACTIVE_MEMORY_ZERO_COPY, "zero-copy mapped memory",
            "zero-copy" },
          { GST_TEXEL_ACTIVE_MEMORY_STAGED, "staged copies to device memory",
            "staged" },
          { 0, NULL, NULL } };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
                       g_enum_register_static ("GstTexelActiveMemory", values));
  return type;
}

gboolean
gst_texel_base_is_cuda (GstTexelBase *base)
{
  return PRIV (base)->cuda != NULL;
}

gboolean
gst_texel_base_keeps_memory (GstTexelBase *base)
{
  GstTexelBasePrivate *priv = PRIV (base);

  return priv->in_caps_device == priv->out_caps_device
         && priv->in_caps_nvmm == priv->out_caps_nvmm;
}

void
gst_texel_base_set_banding (GstTexelBase *base, gboolean possible)
{
  PRIV (base)->banding = possible;
}

void
gst_texel_base_mark_dirty (GstTexelBase *base)
{
  GST_OBJECT_LOCK (base);
  PRIV (base)->dirty = TRUE;
  PRIV (base)->settings_serial++;
  GST_OBJECT_UNLOCK (base);
}

static void
gst_texel_base_post_strategy (GstTexelBase *self, const gchar *reason)
{
  GstTexelBasePrivate *priv = PRIV (self);
  const gchar *memory
      = priv->active_memory == GST_TEXEL_ACTIVE_MEMORY_ZERO_COPY ? "zero-copy"
        : priv->active_memory == GST_TEXEL_ACTIVE_MEMORY_STAGED  ? "staged"
                                                                 : "system";
  GstStructure *s = gst_structure_new (
      "texel-strategy", "backend", G_TYPE_STRING, priv->cuda ? "cuda" : "cpu",
      "memory-mode", G_TYPE_STRING, memory, "device", G_TYPE_INT,
      priv->cuda ? priv->active_device : -1, "reason", G_TYPE_STRING, reason,
      NULL);

  gst_element_post_message (
      GST_ELEMENT_CAST (self),
      gst_message_new_element (GST_OBJECT_CAST (self), s));
}

static gboolean
gst_texel_base_start (GstBaseTransform *trans)
{
  GstTexelBase *self = GST_TEXEL_BASE (trans);
  GstTexelBasePrivate *priv = PRIV (self);
  const gchar *reason = "backend=cpu";
  int err = 0;

  priv->active_memory = GST_TEXEL_ACTIVE_MEMORY_SYSTEM;
  priv->active_backend = GST_TEXEL_BACKEND_CPU;
  priv->dirty = TRUE;
  priv->refused = FALSE;
  priv->cpu_frames = 0;
  priv->nvmm_registrations = 0;
  memset (&priv->last_stats, 0, sizeof (priv->last_stats));
  if (priv->backend != GST_TEXEL_BACKEND_CPU)
    {
      if (gst_texel_base_open_cuda (self, &reason, &err))
        priv->active_backend = GST_TEXEL_BACKEND_CUDA;
      if (!priv->cuda && priv->backend == GST_TEXEL_BACKEND_CUDA)
        {
          GST_ELEMENT_ERROR (
              self, RESOURCE, NOT_FOUND,
              ("backend=cuda, but no usable CUDA device: %s", reason),
              ("device-id=%d, CUDA error %d", priv->device_id, err));
          /* stop() is not called after a failed start. */
          priv->active_backend = GST_TEXEL_BACKEND_AUTO;
          priv->active_memory = GST_TEXEL_ACTIVE_MEMORY_NONE;
          return FALSE;
        }
      if (!priv->cuda)
        GST_WARNING_OBJECT (self, "no usable GPU (%s): running on the CPU",
                            reason);
    }
  priv->configured = FALSE;
  if (!priv->cuda)
    {
      const gchar *nvmm;

      gst_texel_nvmm_available (&nvmm);
      gst_texel_base_cpu_start (self);
      GST_INFO_OBJECT (self, "CPU path, system memory, %u thread(s) (%s); %s",
                       priv->cpu_threads, reason, nvmm);
    }
  gst_texel_base_post_strategy (self, reason);
  return TRUE;
}

static gboolean
gst_texel_base_stop (GstBaseTransform *trans)
{
  GstTexelBase *self = GST_TEXEL_BASE (trans);
  GstTexelBasePrivate *priv = PRIV (self);

  if (priv->cuda)
    gst_texel_base_close_cuda (self);
  /* Asked for again at the next start: from the bin that keeps it. */
  gst_clear_object (&priv->cuda_context);
  gst_texel_base_cpu_stop (self);
  priv->active_backend = GST_TEXEL_BACKEND_AUTO;
  priv->active_memory = GST_TEXEL_ACTIVE_MEMORY_NONE;
  return TRUE;
}

/* The GPU path hands every frame to its frames in flight
 * (gsttexeloutput.c), none held with frames-in-flight 0; the CPU path and
 * passthrough take GstBaseTransform's one frame in, one out. */
static GstFlowReturn
gst_texel_base_generate_output (GstBaseTransform *trans, GstBuffer **outbuf)
{
  GstTexelBasePrivate *priv = PRIV (trans);

  *outbuf = NULL;
  if (!priv->cuda || gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_texel_base_parent_class)
        ->generate_output (trans, outbuf);
  return gst_texel_base_in_flight_generate (GST_TEXEL_BASE (trans), outbuf);
}

void
gst_texel_base_frame_finished (GstTexelBase *self)
{
  GstTexelBaseClass *klass = GST_TEXEL_BASE_GET_CLASS (self);

  if (klass->frame_finished != NULL)
    klass->frame_finished (self);
}

static void
gst_texel_base_before_transform (GstBaseTransform *trans, GstBuffer *buffer)
{
  GstClockTime ts;

  /* A segment in another format (BYTES after a bare filesrc) has no stream
   * time: asking for one would be a critical warning each frame. */
  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  ts = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
                                   GST_BUFFER_TIMESTAMP (buffer));
  /* Lets a GstController drive the controllable properties. */
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (trans), ts);
}

static GstFlowReturn
gst_texel_base_transform_frame (GstVideoFilter *filter, GstVideoFrame *in_frame,
                                GstVideoFrame *out_frame)
{
  GstTexelBase *self = GST_TEXEL_BASE (filter);
  GstTexelBasePrivate *priv = PRIV (self);
  TexelImage in, out;
  gboolean dirty;

  GST_OBJECT_LOCK (self);
  dirty = priv->dirty;
  GST_OBJECT_UNLOCK (self);
  /* A plan that failed (its error posted) never processes a frame. */
  if ((dirty && !gst_texel_base_prepare (self)) || priv->refused)
    return GST_FLOW_NOT_NEGOTIATED;

  if (!gst_texel_base_frame_images (self, in_frame, out_frame, &in, &out))
    return GST_FLOW_ERROR;
  /* The CPU path: the GPU path's frames never come here
   * (gst_texel_base_generate_output). */
  gst_texel_base_process_cpu (self, &in, &out);
  gst_texel_base_frame_finished (self);
  priv->cpu_frames++;
  return GST_FLOW_OK;
}

static gboolean
gst_texel_base_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  if (PRIV (trans)->cuda)
    gst_texel_base_in_flight_event (GST_TEXEL_BASE (trans), event);
  return GST_BASE_TRANSFORM_CLASS (gst_texel_base_parent_class)
      ->sink_event (trans, event);
}

static gboolean
gst_texel_base_query (GstBaseTransform *trans, GstPadDirection direction,
                      GstQuery *query)
{
  GstTexelBase *self = GST_TEXEL_BASE (trans);
  GstTexelBasePrivate *priv = PRIV (self);
  gboolean ret;

  if (gst_texel_cuda_memory_context_query (GST_ELEMENT_CAST (self), query,
                                           priv->cuda_context))
    return TRUE;
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN
      && priv->cuda)
    gst_texel_base_drain (self);
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS
      && gst_texel_base_caps_query_memory (self, query))
    return TRUE;
  ret = GST_BASE_TRANSFORM_CLASS (gst_texel_base_parent_class)
            ->query (trans, direction, query);
  if (ret && GST_QUERY_TYPE (query) == GST_QUERY_CAPS)
    gst_texel_base_caps_query_memory (self, query);
  if (ret && direction == GST_PAD_SRC
      && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY && priv->in_flight > 0)
    gst_texel_base_in_flight_latency (self, query);
  return ret;
}

static GstFlowReturn
gst_texel_base_transform (GstBaseTransform *trans, GstBuffer *inbuf,
                          GstBuffer *outbuf)
{
  GstVideoFrame in_frame, out_frame;
  GstFlowReturn ret;

  ret = gst_texel_base_check_negotiated (GST_TEXEL_BASE (trans));
  if (ret == GST_FLOW_OK)
    ret = gst_texel_base_map_frames (GST_TEXEL_BASE (trans), inbuf, outbuf,
                                     &in_frame, &out_frame);
  if (ret != GST_FLOW_OK)
    return ret;
  ret = gst_texel_base_transform_frame (GST_VIDEO_FILTER (trans), &in_frame,
                                        &out_frame);
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  return ret;
}

/* Frames and bytes moved so far (or in the last run, once stopped). Read
 * while streaming, the counters may lag by a frame. */
static GstStructure *
gst_texel_base_stats (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GstTexelCudaStats st = priv->last_stats;

  gst_texel_base_cuda_stats (self, &st);
  return gst_structure_new (
      "texel-stats", "frames", G_TYPE_UINT64, st.frames + priv->cpu_frames,
      "bytes-to-device", G_TYPE_UINT64, st.bytes_to_device, "bytes-to-host",
      G_TYPE_UINT64, st.bytes_to_host, "bytes-host-copied", G_TYPE_UINT64,
      st.bytes_host_copied, "bytes-device-copied", G_TYPE_UINT64,
      st.bytes_device_copied, "registrations", G_TYPE_UINT64,
      st.registrations + priv->nvmm_registrations, NULL);
}

/* On the GPU path, pools of pinned or CUDA memory (gsttexelallocation.c). */
static gboolean
gst_texel_base_propose_allocation (GstBaseTransform *trans,
                                   GstQuery *decide_query, GstQuery *query)
{
  if (gst_texel_nvmm_allocation_caps (query)
      && !gst_base_transform_is_passthrough (trans))
    {
      gst_texel_nvmm_propose_allocation (query);
      return TRUE;
    }
  if (PRIV (trans)->cuda && !gst_base_transform_is_passthrough (trans))
    return gst_texel_base_propose_pools (GST_TEXEL_BASE (trans), query);
  return GST_BASE_TRANSFORM_CLASS (gst_texel_base_parent_class)
      ->propose_allocation (trans, decide_query, query);
}

static gboolean
gst_texel_base_decide_allocation (GstBaseTransform *trans, GstQuery *query)
{
  GstTexelBasePrivate *priv = PRIV (trans);

  if (gst_texel_nvmm_allocation_caps (query))
    return gst_texel_nvmm_decide_allocation (
        GST_ELEMENT_CAST (trans), query, priv->cuda ? priv->active_device : -1,
        priv->integrated, gst_texel_base_pool_min (GST_TEXEL_BASE (trans)));
  if (PRIV (trans)->cuda)
    return gst_texel_base_decide_pool (GST_TEXEL_BASE (trans), query);
  return GST_BASE_TRANSFORM_CLASS (gst_texel_base_parent_class)
      ->decide_allocation (trans, query);
}

static void
gst_texel_base_set_property (GObject *object, guint prop_id,
                             const GValue *value, GParamSpec *pspec)
{
  GstTexelBasePrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id)
    {
      case PROP_DEVICE_ID:
        priv->device_id = g_value_get_int (value);
        break;
      case PROP_BACKEND:
        priv->backend = g_value_get_enum (value);
        break;
      case PROP_MEMORY_MODE:
        priv->memory_mode = g_value_get_enum (value);
        break;
      case PROP_FRAMES_IN_FLIGHT:
        priv->frames_in_flight = g_value_get_int (value);
        break;
      case PROP_N_THREADS:
        priv->n_threads = g_value_get_uint (value);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_texel_base_get_property (GObject *object, guint prop_id, GValue *value,
                             GParamSpec *pspec)
{
  GstTexelBasePrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id)
    {
      case PROP_DEVICE_ID:
        g_value_set_int (value, priv->device_id);
        break;
      case PROP_BACKEND:
        g_value_set_enum (value, priv->backend);
        break;
      case PROP_MEMORY_MODE:
        g_value_set_enum (value, priv->memory_mode);
        break;
      case PROP_FRAMES_IN_FLIGHT:
        g_value_set_int (value, priv->frames_in_flight);
        break;
      case PROP_N_THREADS:
        g_value_set_uint (value, priv->n_threads);
        break;
      case PROP_ACTIVE_BACKEND:
        g_value_set_enum (value, priv->active_backend);
        break;
      case PROP_ACTIVE_MEMORY_MODE:
        g_value_set_enum (value, priv->active_memory);
        break;
      case PROP_STATS:
        g_value_take_boxed (value,
                            gst_texel_base_stats (GST_TEXEL_BASE (object)));
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_texel_base_finalize (GObject *object)
{
  GstTexelBasePrivate *priv = PRIV (object);

  gst_clear_object (&priv->cuda_context);
  g_mutex_clear (&priv->cpu_lock);
  g_cond_clear (&priv->cpu_cond);
  g_mutex_clear (&priv->finish_lock);
  g_cond_clear (&priv->finish_cond);
  G_OBJECT_CLASS (gst_texel_base_parent_class)->finalize (object);
}

static void
gst_texel_base_set_context (GstElement *element, GstContext *context)
{
  GstTexelBasePrivate *priv = PRIV (element);
  gint device_id;

  /* A GstCudaContext for the element's device, from the application, a
   * bin or gst_cuda_ensure_element_context; kept until stop. */
  GST_OBJECT_LOCK (element);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (element);
  gst_texel_cuda_memory_set_context (element, context, device_id,
                                     &priv->cuda_context);
  GST_ELEMENT_CLASS (gst_texel_base_parent_class)
      ->set_context (element, context);
}

/* Metas (transform_meta): those tagged only "video", or not at all, are
 * copied (GstVideoFilter's rule); those tagged size or orientation as well
 * follow the picture through the element's geometry, as videoconvertscale
 * moves them through a scale; any other tag (memory, colorspace) drops
 * the meta, as GstVideoFilter does. */

static gboolean
gst_texel_meta_has_tag (GType api, const gchar *tag)
{
  return gst_meta_api_type_has_tag (api, g_quark_from_string (tag));
}

/* Whether every tag of @api says the meta lives in a picture's space. */
static gboolean
gst_texel_meta_tags_geometric (GType api)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (api);

  for (; tags && *tags; tags++)
    if (g_strcmp0 (*tags, GST_META_TAG_VIDEO_STR) != 0
        && g_strcmp0 (*tags, GST_META_TAG_VIDEO_SIZE_STR) != 0
        && g_strcmp0 (*tags, GST_META_TAG_VIDEO_ORIENTATION_STR) != 0)
      return FALSE;
  return TRUE;
}

/* (@x, @y) of the input in the output: the inverse of @a's map. */
static void
gst_texel_affine_to_output (const GstTexelAffine *a, double x, double y,
                            double *ox, double *oy)
{
  double det = a->map[0][0] * a->map[1][1] - a->map[0][1] * a->map[1][0];
  double dx = x - a->map[0][2], dy = y - a->map[1][2];

  *ox = (a->map[1][1] * dx - a->map[0][1] * dy) / det;
  *oy = (a->map[0][0] * dy - a->map[1][0] * dx) / det;
}

/* The input rectangle (@x, @y, @w, @h) in the output, cut to the picture
 * and rounded to whole pixels; FALSE where nothing of it is left. */
static gboolean
gst_texel_affine_rectangle (const GstTexelAffine *a, guint *x, guint *y,
                            guint *w, guint *h)
{
  double ax, ay, bx, by, x0, y0, x1, y1;

  gst_texel_affine_to_output (a, *x, *y, &ax, &ay);
  gst_texel_affine_to_output (a, (double)*x + *w, (double)*y + *h, &bx, &by);
  x0 = floor (MAX (MIN (ax, bx), a->x0) + 0.5);
  y0 = floor (MAX (MIN (ay, by), a->y0) + 0.5);
  x1 = floor (MIN (MAX (ax, bx), a->x1) + 0.5);
  y1 = floor (MIN (MAX (ay, by), a->y1) + 0.5);
  if (x1 <= x0 || y1 <= y0)
    return FALSE;
  *x = (guint)x0;
  *y = (guint)y0;
  *w = (guint)(x1 - x0);
  *h = (guint)(y1 - y0);
  return TRUE;
}

/* Whether @a shows the whole input in the whole output, unturned (@flips:
 * mirrored along which axes: bit 0 horizontally, bit 1 vertically). */
static gboolean
gst_texel_affine_whole (const GstTexelAffine *a, const GstVideoInfo *in,
                        const GstVideoInfo *out, guint *flips)
{
  gint ow = GST_VIDEO_INFO_WIDTH (out), oh = GST_VIDEO_INFO_HEIGHT (out);
  guint x = 0, y = 0, w = GST_VIDEO_INFO_WIDTH (in);
  guint h = GST_VIDEO_INFO_HEIGHT (in);

  *flips = (a->map[0][0] < 0) | (a->map[1][1] < 0) << 1;
  return a->map[0][1] == 0 && a->map[1][0] == 0
         && gst_texel_affine_rectangle (a, &x, &y, &w, &h) && x == 0 && y == 0
         && w == (guint)ow && h == (guint)oh && a->x0 <= 0 && a->y0 <= 0
         && a->x1 >= ow && a->y1 >= oh;
}

static gpointer
gst_texel_structure_copy (gconstpointer structure, gpointer unused)
{
  return gst_structure_copy (structure);
}

/* A region of interest moved to where its pixels went, its parameters
 * with it. */
static gboolean
gst_texel_base_transform_roi (GstTexelBase *self, GstBuffer *outbuf,
                              GstVideoRegionOfInterestMeta *roi,
                              const GstTexelAffine *a)
{
  GstVideoRegionOfInterestMeta *moved;
  guint x = roi->x, y = roi->y, w = roi->w, h = roi->h;

  if (!gst_texel_affine_rectangle (a, &x, &y, &w, &h))
    {
      GST_DEBUG_OBJECT (self,
                        "region of interest %u,%u %ux%u left the "
                        "picture: dropped",
                        roi->x, roi->y, roi->w, roi->h);
      return FALSE;
    }
  moved = gst_buffer_add_video_region_of_interest_meta_id (
      outbuf, roi->roi_type, x, y, w, h);
  moved->id = roi->id;
  moved->parent_id = roi->parent_id;
  moved->params
      = g_list_copy_deep (roi->params, gst_texel_structure_copy, NULL);
  return FALSE;
}

/* Through an affine geometry: regions of interest exactly; where the
 * whole picture is only scaled, any meta by its own scale transform (AFD
 * also mirrored left to right: its boxes are centred across); the rest is
 * dropped. */
static gboolean
gst_texel_base_transform_meta_affine (GstTexelBase *self, GstBuffer *outbuf,
                                      GstMeta *meta, GstBuffer *inbuf,
                                      const GstTexelAffine *a)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  GstVideoMetaTransform scale = { &filter->in_info, &filter->out_info };
  GType api = meta->info->api;
  guint flips;

  if (api == GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)
    return gst_texel_base_transform_roi (
        self, outbuf, (GstVideoRegionOfInterestMeta *)meta, a);
  if (gst_texel_affine_whole (a, &filter->in_info, &filter->out_info, &flips)
      && (flips == 0 || (flips == 1 && api == GST_VIDEO_AFD_META_API_TYPE)))
    {
      if (meta->info->transform_func)
        meta->info->transform_func (outbuf, meta, inbuf,
                                    gst_video_meta_transform_scale_get_quark (),
                                    &scale);
      return FALSE;
    }
  GST_DEBUG_OBJECT (self,
                    "%s dropped: the picture is cropped, bordered or "
                    "turned",
                    g_type_name (api));
  return FALSE;
}

static gboolean
gst_texel_base_transform_meta (GstBaseTransform *trans, GstBuffer *outbuf,
                               GstMeta *meta, GstBuffer *inbuf)
{
  GstTexelBase *self = GST_TEXEL_BASE (trans);
  GstTexelBaseClass *klass = GST_TEXEL_BASE_GET_CLASS (self);
  GType api = meta->info->api;
  GstTexelAffine affine;

  if (!gst_texel_meta_tags_geometric (api)
      || !(gst_texel_meta_has_tag (api, GST_META_TAG_VIDEO_SIZE_STR)
           || gst_texel_meta_has_tag (api, GST_META_TAG_VIDEO_ORIENTATION_STR)))
    return GST_BASE_TRANSFORM_CLASS (gst_texel_base_parent_class)
        ->transform_meta (trans, outbuf, meta, inbuf);
  switch (klass->geometry ? klass->geometry (self, &affine)
                          : GST_TEXEL_GEOMETRY_KEPT)
    {
      case GST_TEXEL_GEOMETRY_KEPT:
        return TRUE;
      case GST_TEXEL_GEOMETRY_AFFINE:
        return gst_texel_base_transform_meta_affine (self, outbuf, meta, inbuf,
                                                     &affine);
      default:
        GST_DEBUG_OBJECT (self,
                          "%s dropped: a warp does not map a rectangle "
                          "to a rectangle",
                          g_type_name (api));
        return FALSE;
    }
}

static void
gst_texel_base_class_init (GstTexelBaseClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw
      = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_texel_base_set_property;
  gobject_class->get_property = gst_texel_base_get_property;
  gobject_class->finalize = gst_texel_base_finalize;
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_texel_base_set_context);
  gst_texel_cuda_memory_init ();

  g_object_class_install_property (
      gobject_class, PROP_DEVICE_ID,
      g_param_spec_int (
          "device-id", "Device ID",
          "CUDA device to run on (-1: automatic, the first device)", -1,
          G_MAXINT, DEFAULT_DEVICE_ID, rw));
  g_object_class_install_property (
      gobject_class, PROP_BACKEND,
      g_param_spec_enum (
          "backend", "Backend",
          "Where frames are processed; auto falls back to the CPU with a "
          "warning when no usable GPU exists",
          GST_TYPE_TEXEL_BACKEND, DEFAULT_BACKEND, rw));
  g_object_class_install_property (
      gobject_class, PROP_MEMORY_MODE,
      g_param_spec_enum (
          "memory-mode", "Memory mode",
          "How frames reach the GPU (see active-memory-mode for the choice "
          "made)",
          GST_TYPE_TEXEL_MEMORY_MODE, DEFAULT_MEMORY_MODE, rw));
  g_object_class_install_property (
      gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_int (
          "frames-in-flight", "Frames in flight",
          "GPU path: frames processed while earlier ones are handed on; more "
          "frames/s, up to one frame period more latency each while frames "
          "come faster than the GPU finishes them (a finished frame never "
          "waits for the next input) (-1: automatic, 2 for non-live sources, "
          "3 where they also bring and take CUDA memory, 0 for live sources)",
          -1, MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT, rw));
  g_object_class_install_property (
      gobject_class, PROP_N_THREADS,
      g_param_spec_uint (
          "n-threads", "Threads",
          "CPU path: threads converting bands of rows (0: one per CPU core)", 0,
          MAX_N_THREADS, DEFAULT_N_THREADS, rw));
  g_object_class_install_property (
      gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_enum ("active-backend", "Active backend",
                         "Backend chosen at start (auto until then)",
                         GST_TYPE_TEXEL_BACKEND, GST_TEXEL_BACKEND_AUTO, ro));
  g_object_class_install_property (
      gobject_class, PROP_ACTIVE_MEMORY_MODE,
      g_param_spec_enum ("active-memory-mode", "Active memory mode",
                         "Memory strategy chosen at start",
                         GST_TYPE_TEXEL_ACTIVE_MEMORY,
                         GST_TEXEL_ACTIVE_MEMORY_NONE, ro));
  g_object_class_install_property (
      gobject_class, PROP_STATS,
      g_param_spec_boxed (
          "stats", "Statistics",
          "Frames processed and bytes moved: frames, bytes-to-device and "
          "bytes-to-host (DMA copies), bytes-host-copied (memcpy through "
          "pinned staging), bytes-device-copied (copies on the device: "
          "input planes realigned for textures, NVMM surface arrays held as "
          "CUDA arrays), registrations (foreign memories pinned with "
          "cudaHostRegister, NVMM surface arrays registered with CUDA)",
          GST_TYPE_STRUCTURE, ro));

  trans_class->start = GST_DEBUG_FUNCPTR (gst_texel_base_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_texel_base_stop);
  trans_class->before_transform
      = GST_DEBUG_FUNCPTR (gst_texel_base_before_transform);
  trans_class->propose_allocation
      = GST_DEBUG_FUNCPTR (gst_texel_base_propose_allocation);
  trans_class->decide_allocation
      = GST_DEBUG_FUNCPTR (gst_texel_base_decide_allocation);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_texel_base_sink_event);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_texel_base_transform);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_texel_base_query);
  trans_class->transform_meta
      = GST_DEBUG_FUNCPTR (gst_texel_base_transform_meta);
  trans_class->generate_output
      = GST_DEBUG_FUNCPTR (gst_texel_base_generate_output);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_texel_base_set_info);
  filter_class->transform_frame
      = GST_DEBUG_FUNCPTR (gst_texel_base_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_BASE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_MEMORY_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_ACTIVE_MEMORY, 0);
}

static void
gst_texel_base_init (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);

  priv->device_id = DEFAULT_DEVICE_ID;
  priv->backend = DEFAULT_BACKEND;
  priv->memory_mode = DEFAULT_MEMORY_MODE;
  priv->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  g_mutex_init (&priv->cpu_lock);
  g_cond_init (&priv->cpu_cond);
  g_mutex_init (&priv->finish_lock);
  g_cond_init (&priv->finish_cond);
  priv->active_backend = GST_TEXEL_BACKEND_AUTO;
  priv->active_memory = GST_TEXEL_ACTIVE_MEMORY_NONE;
}
