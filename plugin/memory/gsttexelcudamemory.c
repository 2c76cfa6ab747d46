/* gst-texel: GStreamer's CUDA library (memory:CUDAMemory) for any element:
 * the pipeline's GstCudaContext, frames in GstCudaMemory mapped in place,
 * and pools of GstCudaMemory (gsttexelcudamemory.h). Built only with
 * gstreamer-cuda (have_gst_cuda); the header has the fallbacks of the
 * builds without it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "memory/gsttexelcudamemory.h"
#include "memory/gsttexelnvmm.h"

#define GST_CAT_DEFAULT (gst_texel_memory_debug ())

gboolean
gst_texel_cuda_memory_find_context (GstElement *self, gint device_id,
                                    GstCudaContext **context,
                                    TexelCudaCaps *caps, const gchar **reason,
                                    int *err)
{
  guint device = 0;

  if (!gst_cuda_load_library ())
    {
      GST_INFO_OBJECT (self, "GStreamer's CUDA library cannot load the driver: "
                             "primary context, system memory only");
      return TRUE;
    }
  if (*context && device_id >= 0)
    {
      g_object_get (*context, "cuda-device-id", &device, NULL);
      if ((gint)device != device_id)
        gst_clear_object (context); /* set for another device */
    }
  if (!gst_cuda_ensure_element_context (self, device_id, context))
    {
      GST_WARNING_OBJECT (self,
                          "no GstCudaContext for device-id %d: primary "
                          "context, system memory only",
                          device_id);
      return TRUE;
    }
  g_object_get (*context, "cuda-device-id", &device, NULL);
  GST_INFO_OBJECT (self, "CUDA context %" GST_PTR_FORMAT " on device %u",
                   *context, device);
  if ((gint)device != caps->device
      && gst_texel_cuda_detect ((gint)device, caps, reason, err) == 0)
    return FALSE;
  return TRUE;
}

/* Whether every memory of @buffer is GstCudaMemory the element's context
 * can use in place: its own, or a peer's it has access to. */
static gboolean
gst_texel_cuda_memory_in_reach (GstElement *self, GstCudaContext *own,
                                GstBuffer *buffer, gboolean *warned)
{
  guint i, n = gst_buffer_n_memory (buffer);

  if (!own || n == 0)
    return FALSE;
  for (i = 0; i < n; i++)
    {
      GstMemory *mem = gst_buffer_peek_memory (buffer, i);
      GstCudaContext *context;

      if (!gst_is_cuda_memory (mem))
        return FALSE;
      context = GST_CUDA_MEMORY_CAST (mem)->context;
      if (context != own && !gst_cuda_context_can_access_peer (own, context))
        {
          /* Correct, but through the host: the pipeline should share one
           * context (an application that sets one per element, say). */
          if (!*warned)
            GST_ELEMENT_WARNING (self, STREAM, FAILED,
                                 ("CUDA memory of another "
                                  "CUDA context: copied through host memory"),
                                 ("%" GST_PTR_FORMAT
                                  " cannot reach %" GST_PTR_FORMAT,
                                  own, context));
          *warned = TRUE;
          return FALSE;
        }
    }
  return TRUE;
}

/* The plane map function gst_buffer_add_video_meta gives a video meta
 * (found once, on a meta of its own). */
static gsize
gst_texel_default_video_meta_map (void)
{
  static gsize map = 0;

  if (g_once_init_enter (&map))
    {
      GstBuffer *buffer = gst_buffer_new ();
      GstVideoMeta *meta = gst_buffer_add_video_meta (
          buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, 1, 1);

      g_once_init_leave (&map, (gsize)meta->map);
      gst_buffer_unref (buffer);
    }
  return map;
}

/* Maps a frame whose planes a video meta places in the buffer's one
 * memory with a single map of that memory, where gst_video_frame_map
 * maps it once per plane (each map and unmap of a GstCudaMemory is host
 * time on every frame: docs/bench/runs-18-19.md). The frame is the one
 * gst_video_frame_map gives, but for
 * @frame->meta, NULL: gst_video_frame_unmap then unmaps the one map, and
 * gst_texel_frame_check checks every plane against it. Returns FALSE
 * without mapping where this does not apply (a meta with a plane map
 * function of its own included). */
static gboolean
gst_texel_cuda_memory_map_one (GstVideoFrame *frame, GstVideoInfo *info,
                               GstBuffer *buffer, GstMapFlags flags)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  guint p;

  if (!meta || (gsize)meta->map != gst_texel_default_video_meta_map ()
      || gst_buffer_n_memory (buffer) != 1
      || meta->format != GST_VIDEO_INFO_FORMAT (info)
      || meta->width < (guint)GST_VIDEO_INFO_WIDTH (info)
      || meta->height < (guint)GST_VIDEO_INFO_HEIGHT (info)
      || meta->n_planes != GST_VIDEO_INFO_N_PLANES (info))
    return FALSE;
  /* As gst_video_frame_map, which fails on a plane outside the buffer. */
  for (p = 0; p < meta->n_planes; p++)
    if (meta->offset[p] >= gst_buffer_get_size (buffer))
      return FALSE;
  memset (frame, 0, sizeof (*frame));
  if (!gst_buffer_map (buffer, &frame->map[0], flags))
    return FALSE;
  frame->info = *info;
  frame->info.width = meta->width;
  frame->info.height = meta->height;
  for (p = 0; p < meta->n_planes; p++)
    {
      frame->info.offset[p] = meta->offset[p];
      frame->info.stride[p] = meta->stride[p];
      frame->data[p] = frame->map[0].data + meta->offset[p];
    }
  frame->id = meta->id;
  frame->buffer = gst_buffer_ref (buffer);
  return TRUE;
}

gboolean
gst_texel_cuda_memory_map_frame (GstElement *self, GstCudaContext *context,
                                 GstVideoFrame *frame, GstVideoInfo *info,
                                 GstBuffer *buffer, GstMapFlags *flags,
                                 gboolean *warned)
{
  if (!gst_texel_cuda_memory_in_reach (self, context, buffer, warned))
    return FALSE;
#if GST_CHECK_VERSION(1, 24, 0)
  {
    guint i;

    /* From 1.24 a producer may hand a frame on while its own stream is
     * still writing it (1.22's producers synchronise before pushing). */
    for (i = 0; (*flags & GST_MAP_READ) && i < gst_buffer_n_memory (buffer);
         i++)
      gst_cuda_memory_sync (
          GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buffer, i)));
  }
#endif
  *flags |= GST_MAP_CUDA;
  return gst_texel_cuda_memory_map_one (frame, info, buffer, *flags);
}

GstTexelFrameMemory
gst_texel_frames_memory (GstVideoFrame *in, GstVideoFrame *out)
{
  GstTexelFrameMemory memory = gst_texel_nvmm_frames_memory (in, out);

  if (in->map[0].flags & GST_MAP_CUDA)
    memory |= GST_TEXEL_IN_DEVICE;
  if (out->map[0].flags & GST_MAP_CUDA)
    memory |= GST_TEXEL_OUT_DEVICE;
  return memory;
}

GstBufferPool *
gst_texel_cuda_memory_pool_new (GstCudaContext *context, GstCaps *caps,
                                guint min, guint max, guint *size)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!context || !caps || !gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_cuda_buffer_pool_new (context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config))
    {
      GST_WARNING_OBJECT (context, "CUDA buffer pool refused %" GST_PTR_FORMAT,
                          caps);
      gst_object_unref (pool);
      return NULL;
    }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}

gboolean
gst_texel_cuda_memory_propose_pool (GstCudaContext *context, GstQuery *query,
                                    GstCaps *caps, gboolean need_pool,
                                    guint min)
{
  GstBufferPool *pool;
  guint size;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (!need_pool)
    return TRUE;
  pool = gst_texel_cuda_memory_pool_new (context, caps, min, 0, &size);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, size, min, 0);
  gst_object_unref (pool);
  return TRUE;
}

gboolean
gst_texel_cuda_memory_context_query (GstElement *self, GstQuery *query,
                                     GstCudaContext *context)
{
  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
         && gst_cuda_handle_context_query (self, query, context);
}

void
gst_texel_cuda_memory_set_context (GstElement *self, GstContext *context,
                                   gint device_id, GstCudaContext **own)
{
  gst_cuda_handle_set_context (self, context, device_id, own);
}

void
gst_texel_cuda_memory_init (void)
{
  gst_cuda_memory_init_once ();
}
