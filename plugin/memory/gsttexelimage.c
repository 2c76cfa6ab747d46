/* gst-texel: a mapped GstVideoFrame as the kernels see it
 * (gsttexelimage.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "memory/gsttexelimage.h"

/* Called for every frame: each format's name is looked up once. */
TexelFormat
gst_texel_format_from_video (GstVideoFormat format)
{
  static gint known[256]; /* TexelFormat + 1; 0: not looked up yet */
  gint f;

  if ((guint)format >= G_N_ELEMENTS (known))
    return texel_format_from_name (gst_video_format_to_string (format));
  f = g_atomic_int_get (&known[format]);
  if (f == 0)
    {
      f = texel_format_from_name (gst_video_format_to_string (format)) + 1;
      g_atomic_int_set (&known[format], f);
    }
  return (TexelFormat)(f - 1);
}

void
gst_texel_image_from_frame (TexelImage *img, GstVideoFrame *frame)
{
  guint p;

  memset (img, 0, sizeof (*img));
  img->format = gst_texel_format_from_video (GST_VIDEO_FRAME_FORMAT (frame));
  img->width = GST_VIDEO_FRAME_WIDTH (frame);
  img->height = GST_VIDEO_FRAME_HEIGHT (frame);
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame) && p < TEXEL_MAX_PLANES; p++)
    {
      img->data[p] = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
      img->stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    }
}
