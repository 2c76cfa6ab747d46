/* gst-texel: NVMM output (gsttexelnvmm.h): the allocation queries of
 * memory:NVMM caps, and a pool of NvBufSurfaces made by libnvbufsurface,
 * one per buffer, as NVIDIA's elements hand them on (the buffer's one
 * memory maps to the surface). The element maps them as its output frames
 * like any NVMM input (gst_texel_nvmm_map_frame).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "memory/gsttexelnvmm-private.h"

#define GST_CAT_DEFAULT (gst_texel_memory_debug ())

void
gst_texel_nvmm_propose_allocation (GstQuery *query)
{
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
}

/* NVMM output: a pool of NvBufSurfaces made by libnvbufsurface, one per
 * buffer, as NVIDIA's elements hand them on (the buffer's one memory maps
 * to the surface). Pitch-linear; on a discrete GPU in CUDA device memory
 * (DeepStream's), on an integrated one (a Jetson, whose encoders and
 * display take surface arrays) a surface array written through its EGL
 * frame like an input's (run on the H100 with the stand-in's GL
 * textures, not yet on a Jetson), on the CPU path system memory. */
#define TEXEL_TYPE_NVMM_POOL (texel_nvmm_pool_get_type ())
G_DECLARE_FINAL_TYPE (TexelNvmmPool, texel_nvmm_pool, TEXEL, NVMM_POOL,
                      GstBufferPool)

/* @params: memType and gpuId set by gst_texel_nvmm_decide_allocation
 * before the pool is configured, the rest by set_config (the pool
 * inactive, under its own locking); read by alloc_buffer in whichever
 * thread acquires a buffer while the pool is active, when nothing writes
 * them. */
struct _TexelNvmmPool
{
  GstBufferPool parent;
  NvBufSurfaceCreateParams params;
};

G_DEFINE_TYPE (TexelNvmmPool, texel_nvmm_pool, GST_TYPE_BUFFER_POOL)

static gboolean
texel_nvmm_pool_set_config (GstBufferPool *pool, GstStructure *config)
{
  TexelNvmmPool *self = TEXEL_NVMM_POOL (pool);
  const NvBufSurfaceColorFormat *colors;
  GstCaps *caps = NULL;
  GstVideoInfo info;

  if (!gst_buffer_pool_config_get_params (config, &caps, NULL, NULL, NULL)
      || !caps || !gst_video_info_from_caps (&info, caps)
      || !(colors = gst_texel_nvmm_colors (GST_VIDEO_INFO_FORMAT (&info))))
    return FALSE;
  self->params.width = GST_VIDEO_INFO_WIDTH (&info);
  self->params.height = GST_VIDEO_INFO_HEIGHT (&info);
  self->params.colorFormat = colors[0];
  self->params.layout = NVBUF_LAYOUT_PITCH;
  return GST_BUFFER_POOL_CLASS (texel_nvmm_pool_parent_class)
      ->set_config (pool, config);
}

static void
texel_nvmm_destroy (gpointer surf)
{
  gst_texel_nvmm_api ()->destroy (surf);
}

static GstFlowReturn
texel_nvmm_pool_alloc_buffer (GstBufferPool *pool, GstBuffer **buffer,
                              GstBufferPoolAcquireParams *params)
{
  TexelNvmmPool *self = TEXEL_NVMM_POOL (pool);
  NvBufSurfaceCreateParams create = self->params;
  NvBufSurface *surf = NULL;
  int err = gst_texel_nvmm_api ()->create (&surf, 1, &create);

  if (err != 0 || !surf)
    {
      GST_WARNING_OBJECT (pool,
                          "NvBufSurfaceCreate (%ux%u, colour format "
                          "%d, %s, GPU %u) failed: %d",
                          create.width, create.height, create.colorFormat,
                          gst_texel_nvmm_mem_type_name (create.memType),
                          create.gpuId, err);
      return GST_FLOW_ERROR;
    }
  surf->numFilled = 1;
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (
      *buffer,
      gst_memory_new_wrapped (0, surf, sizeof (NvBufSurface), 0,
                              sizeof (NvBufSurface), surf, texel_nvmm_destroy));
  return GST_FLOW_OK;
}

static void
texel_nvmm_pool_class_init (TexelNvmmPoolClass *klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  pool_class->set_config = texel_nvmm_pool_set_config;
  pool_class->alloc_buffer = texel_nvmm_pool_alloc_buffer;
}

static void
texel_nvmm_pool_init (TexelNvmmPool *self)
{
}

/* GST_TEXEL_NVMM_SURFACE_ARRAY=1: output in surface arrays on a discrete
 * GPU too, as on a Jetson (the tests, with the stand-in library's
 * EGL-backed surfaces on the H100). */
static gboolean
texel_nvmm_surface_array_asked (void)
{
  const gchar *env = g_getenv ("GST_TEXEL_NVMM_SURFACE_ARRAY");

  return env && g_str_equal (env, "1");
}

gboolean
gst_texel_nvmm_decide_allocation (GstElement *self, GstQuery *query,
                                  gint device, gboolean integrated, guint min)
{
  TexelNvmmPool *pool;
  GstStructure *config;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  pool = g_object_new (TEXEL_TYPE_NVMM_POOL, NULL);
  gst_object_ref_sink (pool);
  if (device < 0)
    pool->params.memType = NVBUF_MEM_SYSTEM;
  else if ((integrated || texel_nvmm_surface_array_asked ()) && HAVE_NVMM_EGL)
    pool->params.memType = NVBUF_MEM_SURFACE_ARRAY;
  else
    pool->params.memType = NVBUF_MEM_CUDA_DEVICE;
  pool->params.gpuId = MAX (device, 0);
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (pool));
  gst_buffer_pool_config_set_params (config, caps, sizeof (NvBufSurface), min,
                                     0);
  if (!gst_buffer_pool_set_config (GST_BUFFER_POOL (pool), config))
    {
      GST_WARNING_OBJECT (self, "no NVMM pool for %" GST_PTR_FORMAT, caps);
      gst_object_unref (pool);
      return FALSE;
    }
  /* Ours, whatever downstream offered: its surfaces (a surface array on a
   * Jetson) may be memory the kernels cannot write. */
  while (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  gst_query_add_allocation_pool (query, GST_BUFFER_POOL (pool),
                                 sizeof (NvBufSurface), min, 0);
  gst_object_unref (pool);
  return TRUE;
}
