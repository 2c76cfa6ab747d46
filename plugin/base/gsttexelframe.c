/* gst-texel: GstTexelBase's frames: TexelImage descriptions of mapped
 * video frames, checked against their memory before any kernel reads
 * them, and the warnings of buffers dropped because they cannot hold the
 * frame their caps describe.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

/* GstVideoMeta may say anything: gst_video_frame_map only checks that each
 * plane starts inside the buffer. Every row the kernels touch must lie in
 * the mapped memory, or the frame is refused (never read out of bounds). */
static gboolean
gst_texel_frame_check (GstVideoFrame *frame, const TexelImage *img, gchar **why)
{
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  int p;

  if (gst_texel_nvmm_frame (frame))
    return TRUE; /* checked against its NvBufSurface */
  for (p = 0; p < desc->n_planes; p++)
    {
      GstMapInfo *map = &frame->map[frame->meta ? p : 0];
      gsize row = texel_plane_row_bytes (img->format, p, img->width);
      gsize rows = texel_plane_height (img->format, p, img->height);
      const guint8 *start = map->data, *end = map->data + map->size;

      if (img->stride[p] < 0 || (gsize)img->stride[p] < row
          || img->data[p] < start || img->data[p] > end
          || (gsize)(end - img->data[p])
                 < (gsize)img->stride[p] * (rows - 1) + row)
        {
          *why = g_strdup_printf ("plane %d (stride %d, %" G_GSIZE_FORMAT
                                  " rows of %" G_GSIZE_FORMAT
                                  " bytes) does not fit in its %" G_GSIZE_FORMAT
                                  "-byte memory",
                                  p, img->stride[p], rows, row, map->size);
          return FALSE;
        }
    }
  return TRUE;
}

/* The images of a mapped input and output frame, checked. Posts an error
 * and returns FALSE when a frame's layout does not fit its memory. */
gboolean
gst_texel_base_frame_images (GstTexelBase *self, GstVideoFrame *in_frame,
                             GstVideoFrame *out_frame, TexelImage *in,
                             TexelImage *out)
{
  gchar *why = NULL;

  gst_texel_image_from_frame (in, in_frame);
  gst_texel_image_from_frame (out, out_frame);
  if (gst_texel_frame_check (in_frame, in, &why)
      && gst_texel_frame_check (out_frame, out, &why))
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
                     ("Invalid video frame layout: %s", why),
                     ("GstVideoMeta strides or offsets beyond the buffer"));
  g_free (why);
  return FALSE;
}

/* Why a video meta cannot describe frames of @info, or NULL. (For these
 * gst_video_frame_map would emit a GLib critical.) */
static gchar *
gst_texel_meta_mismatch (GstVideoMeta *meta, const GstVideoInfo *info)
{
  if (meta->format != GST_VIDEO_INFO_FORMAT (info))
    return g_strdup_printf ("its video meta describes %s frames, the caps %s",
                            gst_video_format_to_string (meta->format),
                            GST_VIDEO_INFO_NAME (info));
  if (meta->width < (guint)GST_VIDEO_INFO_WIDTH (info)
      || meta->height < (guint)GST_VIDEO_INFO_HEIGHT (info))
    return g_strdup_printf ("its video meta describes %ux%u frames, the caps "
                            "%dx%d",
                            meta->width, meta->height,
                            GST_VIDEO_INFO_WIDTH (info),
                            GST_VIDEO_INFO_HEIGHT (info));
  if (meta->n_planes != GST_VIDEO_INFO_N_PLANES (info))
    return g_strdup_printf ("its video meta has %u planes, %s has %u",
                            meta->n_planes, GST_VIDEO_INFO_NAME (info),
                            GST_VIDEO_INFO_N_PLANES (info));
  return NULL;
}

/* What makes @buffer unusable as a frame of @info: the meta's first
 * inconsistency, a plane that starts past the buffer, or a buffer shorter
 * than the caps. */
static gchar *
gst_texel_buffer_problem (GstBuffer *buffer, const GstVideoInfo *info)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  gsize size = gst_buffer_get_size (buffer);
  gchar *why;
  guint p;

  if (!meta)
    {
      if (size < GST_VIDEO_INFO_SIZE (info))
        return g_strdup_printf ("%" G_GSIZE_FORMAT
                                " bytes, the caps need %" G_GSIZE_FORMAT,
                                size, GST_VIDEO_INFO_SIZE (info));
      return g_strdup_printf ("its %" G_GSIZE_FORMAT " bytes could not be "
                              "mapped",
                              size);
    }
  if ((why = gst_texel_meta_mismatch (meta, info)) != NULL)
    return why;
  for (p = 0; p < meta->n_planes; p++)
    if (meta->offset[p] >= size)
      return g_strdup_printf (
          "plane %u of its video meta starts at offset %" G_GSIZE_FORMAT
          " (stride %d), past the end of the %" G_GSIZE_FORMAT "-byte buffer",
          p, meta->offset[p], meta->stride[p], size);
  return g_strdup_printf ("its %" G_GSIZE_FORMAT "-byte memory could not be "
                          "mapped as its video meta says",
                          size);
}

/* Maps a frame for the element: an NvBufSurface (memory:NVMM input) and
 * CUDA memory it can use in place (device addresses, nothing is copied),
 * anything else in host memory. */
gboolean
gst_texel_base_map_frame (GstTexelBase *self, GstVideoFrame *frame,
                          GstVideoInfo *info, GstBuffer *buffer,
                          GstMapFlags flags)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  GstTexelNvmmMap nvmm;
  gchar *why;

  /* Every caller maps the input as &in_info and the output as &out_info. */
  nvmm = gst_texel_nvmm_map_frame (
      GST_ELEMENT_CAST (self), frame, info, buffer,
      info == &GST_VIDEO_FILTER (self)->in_info ? priv->in_caps_nvmm
                                                : priv->out_caps_nvmm,
      priv->cuda ? priv->active_device : -1, &priv->nvmm_registrations);
  if (nvmm != GST_TEXEL_NVMM_NOT_NVMM)
    return nvmm == GST_TEXEL_NVMM_MAPPED;
  if (meta && (why = gst_texel_meta_mismatch (meta, info)) != NULL)
    {
      g_free (why);
      return FALSE;
    }
  if (gst_texel_cuda_memory_map_frame (
          GST_ELEMENT_CAST (self), priv->cuda ? priv->cuda_context : NULL,
          frame, info, buffer, &flags, &priv->warned_foreign_context))
    return TRUE;
  return gst_video_frame_map (frame, info, buffer, flags);
}

/* Maps @inbuf and @outbuf as the negotiated input and output frames.
 * GST_BASE_TRANSFORM_FLOW_DROPPED: @inbuf cannot hold its frame (warned
 * about, nothing mapped); GST_FLOW_ERROR: the output could not be mapped
 * (posted, nothing mapped). */
GstFlowReturn
gst_texel_base_map_frames (GstTexelBase *self, GstBuffer *inbuf,
                           GstBuffer *outbuf, GstVideoFrame *in_frame,
                           GstVideoFrame *out_frame)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);

  if (!gst_texel_base_map_frame (self, in_frame, &filter->in_info, inbuf,
                                 GST_MAP_READ))
    return gst_texel_base_invalid_buffer (self, inbuf);
  if (!gst_texel_base_map_frame (self, out_frame, &filter->out_info, outbuf,
                                 GST_MAP_WRITE))
    {
      gst_video_frame_unmap (in_frame);
      GST_ELEMENT_ERROR (self, STREAM, FAILED,
                         ("Could not map the output buffer"), (NULL));
      return GST_FLOW_ERROR;
    }
  return GST_FLOW_OK;
}

/* A buffer that cannot hold the frame its caps describe: warned about and
 * dropped. (GstVideoFilter's own transform would push the unwritten
 * output buffer on.) */
GstFlowReturn
gst_texel_base_invalid_buffer (GstTexelBase *self, GstBuffer *inbuf)
{
  gchar *why
      = gst_texel_buffer_problem (inbuf, &GST_VIDEO_FILTER (self)->in_info);

  GST_ELEMENT_WARNING (self, STREAM, FORMAT,
                       ("Invalid video buffer dropped: %s", why), (NULL));
  g_free (why);
  return GST_BASE_TRANSFORM_FLOW_DROPPED;
}

TexelFormat
gst_texel_base_info_format (const GstVideoInfo *info)
{
  return gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (info));
}
