/* gst-texel: GstTexelBase and GStreamer's CUDA library (memory:CUDAMemory):
 * the pipeline's GstCudaContext, frames in GstCudaMemory mapped in place,
 * and pools of GstCudaMemory. Built only with gstreamer-cuda
 * (have_gst_cuda); gsttexelbase-private.h has the fallbacks of the builds
 * without it.
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

#include "gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

gboolean
gst_texel_cuda_context_push (GstCudaContext *context)
{
  return gst_cuda_context_push (context);
}

void
gst_texel_cuda_context_pop (void)
{
  gst_cuda_context_pop (NULL);
}

/* The pipeline's GstCudaContext: from a neighbour (context query), the
 * application or a bin (need-context message), else a new one that the
 * element posts for the others (have-context), so that one pipeline uses
 * one context and CUDA memory passes between its elements as it is. With
 * device-id -1 the element takes whatever device the pipeline already
 * uses, and @caps is probed again for it. Without the driver library or a
 * context the element stays in the device's primary context, in system
 * memory; FALSE only when the pipeline's device cannot be used. */
gboolean
gst_texel_base_find_cuda_context (GstTexelBase *self, TexelCudaCaps *caps,
                                  const gchar **reason, int *err)
{
  GstTexelBasePrivate *priv = PRIV (self);
  guint device = 0;

  if (!gst_cuda_load_library ())
    {
      GST_INFO_OBJECT (self, "GStreamer's CUDA library cannot load the driver: "
                             "primary context, system memory only");
      return TRUE;
    }
  if (priv->cuda_context && priv->device_id >= 0)
    {
      g_object_get (priv->cuda_context, "cuda-device-id", &device, NULL);
      if ((gint)device != priv->device_id)
        gst_clear_object (&priv->cuda_context); /* set for another device */
    }
  if (!gst_cuda_ensure_element_context (GST_ELEMENT_CAST (self),
                                        priv->device_id, &priv->cuda_context))
    {
      GST_WARNING_OBJECT (self,
                          "no GstCudaContext for device-id %d: primary "
                          "context, system memory only",
                          priv->device_id);
      return TRUE;
    }
  g_object_get (priv->cuda_context, "cuda-device-id", &device, NULL);
  GST_INFO_OBJECT (self, "CUDA context %" GST_PTR_FORMAT " on device %u",
                   priv->cuda_context, device);
  if ((gint)device != caps->device
      && gst_texel_cuda_detect ((gint)device, caps, reason, err) == 0)
    return FALSE;
  return TRUE;
}

/* Whether every memory of @buffer is GstCudaMemory the element's context
 * can use in place: its own, or a peer's it has access to. */
static gboolean
gst_texel_base_buffer_on_device (GstTexelBase *self, GstBuffer *buffer)
{
  GstTexelBasePrivate *priv = PRIV (self);
  guint i, n = gst_buffer_n_memory (buffer);

  if (!priv->cuda || !priv->cuda_context || n == 0)
    return FALSE;
  for (i = 0; i < n; i++)
    {
      GstMemory *mem = gst_buffer_peek_memory (buffer, i);
      GstCudaContext *context;

      if (!gst_is_cuda_memory (mem))
        return FALSE;
      context = GST_CUDA_MEMORY_CAST (mem)->context;
      if (context != priv->cuda_context
          && !gst_cuda_context_can_access_peer (priv->cuda_context, context))
        {
          /* Correct, but through the host: the pipeline should share one
           * context (an application that sets one per element, say). */
          if (!priv->warned_foreign_context)
            GST_ELEMENT_WARNING (self, STREAM, FAILED,
                                 ("CUDA memory of another "
                                  "CUDA context: copied through host memory"),
                                 ("%" GST_PTR_FORMAT
                                  " cannot reach %" GST_PTR_FORMAT,
                                  priv->cuda_context, context));
          priv->warned_foreign_context = TRUE;
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
gst_texel_base_map_one_memory (GstVideoFrame *frame, GstVideoInfo *info,
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

/* gst_texel_base_map_frame's way for CUDA memory the element can use in
 * place: mapped with GST_MAP_CUDA (device addresses, nothing is copied),
 * added to @flags for gst_video_frame_map where this returns FALSE. */
gboolean
gst_texel_base_map_cuda_frame (GstTexelBase *self, GstVideoFrame *frame,
                               GstVideoInfo *info, GstBuffer *buffer,
                               GstMapFlags *flags)
{
  if (!gst_texel_base_buffer_on_device (self, buffer))
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
  return gst_texel_base_map_one_memory (frame, info, buffer, *flags);
}

/* Where the planes of two frames mapped by gst_texel_base_map_frame are
 * (NVMM frames: gsttexelnvmm.h). */
GstTexelFrameMemory
gst_texel_base_frames_memory (GstVideoFrame *in, GstVideoFrame *out)
{
  GstTexelFrameMemory memory = gst_texel_nvmm_frames_memory (in, out);

  if (in->map[0].flags & GST_MAP_CUDA)
    memory |= GST_TEXEL_IN_DEVICE;
  if (out->map[0].flags & GST_MAP_CUDA)
    memory |= GST_TEXEL_OUT_DEVICE;
  return memory;
}

/* A pool of GstCudaMemory in the element's context; @size gets the size
 * of its buffers (rows padded to the pitch cuMemAllocPitch chose). */
GstBufferPool *
gst_texel_base_new_cuda_pool (GstTexelBase *self, GstCaps *caps, guint min,
                              guint max, guint *size)
{
  GstCudaContext *context = PRIV (self)->cuda_context;
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
      GST_WARNING_OBJECT (self, "CUDA buffer pool refused %" GST_PTR_FORMAT,
                          caps);
      gst_object_unref (pool);
      return NULL;
    }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}

/* Upstream CUDA elements write their frames into CUDA memory of the
 * element's context, which the kernels then read in place. */
gboolean
gst_texel_base_propose_cuda_pool (GstTexelBase *self, GstQuery *query,
                                  GstCaps *caps, gboolean need_pool)
{
  GstBufferPool *pool;
  guint min = gst_texel_base_pool_min (self), size;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (!need_pool)
    return TRUE;
  pool = gst_texel_base_new_cuda_pool (self, caps, min, 0, &size);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, size, min, 0);
  gst_object_unref (pool);
  return TRUE;
}

/* Answers a neighbour's context query with the element's context. */
gboolean
gst_texel_base_cuda_context_query (GstTexelBase *self, GstQuery *query)
{
  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
         && gst_cuda_handle_context_query (GST_ELEMENT_CAST (self), query,
                                           PRIV (self)->cuda_context);
}

/* A GstCudaContext for the element's device, from the application, a bin
 * or gst_cuda_ensure_element_context; kept until stop. */
void
gst_texel_base_cuda_set_context (GstTexelBase *self, GstContext *context)
{
  GstTexelBasePrivate *priv = PRIV (self);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_handle_set_context (GST_ELEMENT_CAST (self), context, device_id,
                               &priv->cuda_context);
}

/* The CUDA allocator lives as long as the process: created with the class,
 * rather than inside the first pipeline that needs it. */
void
gst_texel_base_cuda_memory_init (void)
{
  gst_cuda_memory_init_once ();
}
