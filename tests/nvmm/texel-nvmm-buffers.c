/* gst-texel tests: memory:NVMM buffers as NVIDIA's elements make them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <cuda_runtime_api.h>

#include "nvbufsurface-standin.h"
#include "texel-nvmm-buffers.h"

NvBufSurfaceColorFormat
texel_nvmm_color_format (GstVideoFormat format)
{
  switch (format)
    {
      case GST_VIDEO_FORMAT_GRAY8:
        return NVBUF_COLOR_FORMAT_GRAY8;
      case GST_VIDEO_FORMAT_I420:
        return NVBUF_COLOR_FORMAT_YUV420;
      case GST_VIDEO_FORMAT_YV12:
        return NVBUF_COLOR_FORMAT_YVU420;
      case GST_VIDEO_FORMAT_NV12:
        return NVBUF_COLOR_FORMAT_NV12;
      case GST_VIDEO_FORMAT_NV21:
        return NVBUF_COLOR_FORMAT_NV21;
      case GST_VIDEO_FORMAT_UYVY:
        return NVBUF_COLOR_FORMAT_UYVY;
      case GST_VIDEO_FORMAT_YUY2:
        return NVBUF_COLOR_FORMAT_YUYV;
      case GST_VIDEO_FORMAT_P010_10LE:
        return NVBUF_COLOR_FORMAT_NV12_10LE;
      case GST_VIDEO_FORMAT_RGBA:
        return NVBUF_COLOR_FORMAT_RGBA;
      case GST_VIDEO_FORMAT_BGRA:
        return NVBUF_COLOR_FORMAT_BGRA;
      case GST_VIDEO_FORMAT_ARGB:
        return NVBUF_COLOR_FORMAT_ARGB;
      case GST_VIDEO_FORMAT_ABGR:
        return NVBUF_COLOR_FORMAT_ABGR;
      case GST_VIDEO_FORMAT_RGBx:
        return NVBUF_COLOR_FORMAT_RGBx;
      case GST_VIDEO_FORMAT_BGRx:
        return NVBUF_COLOR_FORMAT_BGRx;
      case GST_VIDEO_FORMAT_RGB:
        return NVBUF_COLOR_FORMAT_RGB;
      case GST_VIDEO_FORMAT_BGR:
        return NVBUF_COLOR_FORMAT_BGR;
      default:
        return NVBUF_COLOR_FORMAT_INVALID;
    }
}

/* Copies @rows rows of @row bytes into the surface's memory: host memory
 * by memcpy, CUDA memory on a stream of its own (never the legacy
 * default stream). */
static gboolean
texel_nvmm_copy_plane (NvBufSurfaceMemType type, guint8 *dst, gsize dpitch,
                       const guint8 *src, gsize spitch, gsize row, gsize rows)
{
  cudaStream_t stream;
  gboolean ok;
  gsize r;

  if (type == NVBUF_MEM_SYSTEM)
    {
      for (r = 0; r < rows; r++)
        memcpy (dst + r * dpitch, src + r * spitch, row);
      return TRUE;
    }
  if (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking) != cudaSuccess)
    return FALSE;
  ok = cudaMemcpy2DAsync (dst, dpitch, src, spitch, row, rows,
                          cudaMemcpyDefault, stream)
           == cudaSuccess
       && cudaStreamSynchronize (stream) == cudaSuccess;
  cudaStreamDestroy (stream);
  return ok;
}

/* Copies every plane of the frame of @info between surface @index of
 * @surf and the system-memory buffer @sys (@upload: into the surface). A
 * surface array (one plane) through the stand-in's GL texture. */
static gboolean
texel_nvmm_copy (NvBufSurface *surf, guint index, const GstVideoInfo *info,
                 GstBuffer *sys, gboolean upload)
{
  NvBufSurfaceParams *params = &surf->surfaceList[index];
  NvBufSurfaceMemType type = surf->memType;
  GstVideoFrame frame;
  gboolean ok = TRUE;
  guint p;

  if (!gst_video_frame_map (&frame, (GstVideoInfo *)info, sys,
                            upload ? GST_MAP_READ : GST_MAP_WRITE))
    return FALSE;
  if (type == NVBUF_MEM_SURFACE_ARRAY)
    {
      guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
      gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

      ok = GST_VIDEO_FRAME_N_PLANES (&frame) == 1
           && (upload ? texel_standin_surface_write (surf, index, data, stride)
                      : texel_standin_surface_read (surf, index, data, stride))
                  == 0;
      gst_video_frame_unmap (&frame);
      return ok;
    }
  for (p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES (&frame); p++)
    {
      const GstVideoFormatInfo *finfo = info->finfo;
      gsize rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (
          finfo, GST_VIDEO_FORMAT_INFO_PLANE (finfo, p),
          GST_VIDEO_INFO_HEIGHT (info));
      gsize spitch = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
      gsize pitch = params->planeParams.pitch[p];
      guint8 *surface
          = (guint8 *)params->dataPtr + params->planeParams.offset[p];
      guint8 *host = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);

      ok = upload ? texel_nvmm_copy_plane (type, surface, pitch, host, spitch,
                                           MIN (spitch, pitch), rows)
                  : texel_nvmm_copy_plane (type, host, spitch, surface, pitch,
                                           MIN (spitch, pitch), rows);
    }
  gst_video_frame_unmap (&frame);
  return ok;
}

static void
texel_nvmm_destroy (gpointer surf)
{
  NvBufSurfaceDestroy (surf);
}

GstBuffer *
texel_nvmm_buffer_new (const GstVideoInfo *info, GstBuffer *src,
                       NvBufSurfaceMemType type, guint batch)
{
  NvBufSurfaceCreateParams params = { 0 };
  NvBufSurface *surf = NULL;
  GstBuffer *buffer;
  guint i;

  params.width = GST_VIDEO_INFO_WIDTH (info);
  params.height = GST_VIDEO_INFO_HEIGHT (info);
  params.colorFormat = texel_nvmm_color_format (GST_VIDEO_INFO_FORMAT (info));
  params.layout = NVBUF_LAYOUT_PITCH;
  params.memType = type;
  if (NvBufSurfaceCreate (&surf, batch, &params) != 0)
    return NULL;
  for (i = 0; i < batch; i++)
    if (!texel_nvmm_copy (surf, i, info, src, TRUE))
      {
        NvBufSurfaceDestroy (surf);
        return NULL;
      }
  surf->numFilled = batch;
  buffer = gst_buffer_new ();
  gst_buffer_append_memory (
      buffer,
      gst_memory_new_wrapped (0, surf, sizeof (NvBufSurface), 0,
                              sizeof (NvBufSurface), surf, texel_nvmm_destroy));
  GST_BUFFER_PTS (buffer) = GST_BUFFER_PTS (src);
  GST_BUFFER_DURATION (buffer) = GST_BUFFER_DURATION (src);
  return buffer;
}

NvBufSurface *
texel_nvmm_buffer_surface (GstBuffer *buffer)
{
  GstMapInfo map;
  NvBufSurface *surf;

  if (!gst_buffer_map (buffer, &map, GST_MAP_READ))
    return NULL;
  surf = (NvBufSurface *)map.data;
  gst_buffer_unmap (buffer, &map);
  return surf;
}

GstBuffer *
texel_nvmm_buffer_download (GstBuffer *nvmm, const GstVideoInfo *info)
{
  NvBufSurface *surf = texel_nvmm_buffer_surface (nvmm);
  GstBuffer *sys = gst_buffer_new_allocate (NULL, info->size, NULL);

  if (!surf || surf->batchSize != 1
      || !texel_nvmm_copy (surf, 0, info, sys, FALSE))
    {
      gst_buffer_unref (sys);
      return NULL;
    }
  return sys;
}
