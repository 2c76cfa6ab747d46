/* gst-texel unit tests: the format table and plane geometry, checked
 * against GStreamer's own description of each format.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/video/video.h>

#include "texel-test-util.h"

/* Names are GStreamer's, and look-ups by name find them. */
static void
test_names (void)
{
  int i;

  for (i = 0; i < test_n_formats; i++)
    {
      const TexelFormatDesc *desc = texel_format_desc (test_all_formats[i]);
      GstVideoFormat gst_format = gst_video_format_from_string (desc->name);

      g_assert_cmpint (desc->format, ==, test_all_formats[i]);
      g_assert_cmpint (gst_format, !=, GST_VIDEO_FORMAT_UNKNOWN);
      g_assert_cmpstr (gst_video_format_to_string (gst_format), ==, desc->name);
      g_assert_cmpint (texel_format_from_name (desc->name), ==, desc->format);
    }
  g_assert_cmpint (test_n_formats, ==, TEXEL_FORMAT_COUNT - 1);
  /* Not taken: several components packed in the bits of one word. */
  g_assert_cmpint (texel_format_from_name ("v210"), ==, TEXEL_FORMAT_UNKNOWN);
  g_assert_cmpint (texel_format_from_name ("BGR10A2_LE"), ==,
                   TEXEL_FORMAT_UNKNOWN);
  g_assert_cmpint (texel_format_from_name (NULL), ==, TEXEL_FORMAT_UNKNOWN);
  g_assert_null (texel_format_desc (TEXEL_FORMAT_UNKNOWN));
  g_assert_null (texel_format_desc (TEXEL_FORMAT_COUNT));
}

/* Every component sits where GStreamer says: plane, offset, pixel stride,
 * subsampling, depth and shift. GStreamer orders components Y, U, V, A and
 * R, G, B, A too. */
static void
test_components_match_gstreamer (void)
{
  int i, c;

  for (i = 0; i < test_n_formats; i++)
    {
      const TexelFormatDesc *desc = texel_format_desc (test_all_formats[i]);
      const GstVideoFormatInfo *info = gst_video_format_get_info (
          gst_video_format_from_string (desc->name));

      g_test_message ("%s", desc->name);
      g_assert_cmpint (desc->n_planes, ==,
                       GST_VIDEO_FORMAT_INFO_N_PLANES (info));
      g_assert_cmpint (desc->is_gray, ==, GST_VIDEO_FORMAT_INFO_IS_GRAY (info));
      if (!desc->is_gray)
        g_assert_cmpint (desc->is_yuv, ==, GST_VIDEO_FORMAT_INFO_IS_YUV (info));
      for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
        {
          const TexelComponent *comp = &desc->comp[c];

          if (c >= (int)GST_VIDEO_FORMAT_INFO_N_COMPONENTS (info))
            {
              g_assert_cmpint (comp->plane, ==, -1);
              continue;
            }
          g_assert_cmpint (comp->plane, ==,
                           GST_VIDEO_FORMAT_INFO_PLANE (info, c));
          /* GStreamer's table gives P010's V offset as 1 (in 16-bit words);
           * its pack function, like the P010 definition, puts V in bytes 2-3
           * of each 4-byte UV pair (see test_p010_layout). */
          g_assert_cmpint (comp->offset, ==,
                           GST_VIDEO_FORMAT_INFO_POFFSET (info, c)
                               * desc->bytes_per_sample);
          g_assert_cmpint (comp->pixel_stride, ==,
                           GST_VIDEO_FORMAT_INFO_PSTRIDE (info, c));
          g_assert_cmpint (comp->x_shift, ==,
                           GST_VIDEO_FORMAT_INFO_W_SUB (info, c));
          g_assert_cmpint (comp->y_shift, ==,
                           GST_VIDEO_FORMAT_INFO_H_SUB (info, c));
          g_assert_cmpint (desc->bits, ==,
                           GST_VIDEO_FORMAT_INFO_DEPTH (info, c));
          g_assert_cmpint (desc->shift, ==,
                           GST_VIDEO_FORMAT_INFO_SHIFT (info, c));
        }
      g_assert_cmpint (desc->bytes_per_sample, ==, desc->bits > 8 ? 2 : 1);
    }
}

/* Packs one line of two pixels with GStreamer's own P010 packer and reads
 * it back through our component table. */
static void
test_p010_layout (void)
{
  const GstVideoFormatInfo *info
      = gst_video_format_get_info (GST_VIDEO_FORMAT_P010_10LE);
  const TexelFormatDesc *desc = texel_format_desc (TEXEL_FORMAT_P010_10LE);
  /* AYUV64 (A, Y, U, V) per pixel, 16 bits each; P010 keeps the top 10. */
  guint16 ayuv[8]
      = { 0xffff, 0x1040, 0x2080, 0x30c0, 0xffff, 0x4100, 0x2080, 0x30c0 };
  guint8 y_row[4] = { 0 }, uv_row[4] = { 0 };
  gpointer data[2] = { y_row, uv_row };
  gint stride[2] = { 4, 4 };
  const guint8 *rows[2] = { y_row, uv_row };
  int c;

  info->pack_func (info, 0, ayuv, 0, data, stride,
                   GST_VIDEO_CHROMA_SITE_UNKNOWN, 0, 2);
  for (c = 0; c < 3; c++)
    {
      const TexelComponent *comp = &desc->comp[c];
      const guint8 *p = rows[comp->plane] + comp->offset;
      unsigned code = (unsigned)(p[0] | (p[1] << 8)) >> desc->shift;

      g_assert_cmpuint (code, ==, ayuv[1 + c] >> 6);
    }
}

/* Plane sizes and row bytes agree with GstVideoInfo, whose default strides
 * are row bytes rounded up to 4, for odd and even sizes. */
static void
test_planes_match_gstreamer (void)
{
  static const int sizes[][2] = {
    { 1, 1 }, { 2, 2 },       { 3, 3 },       { 5, 7 },
    { 6, 4 }, { 1920, 1080 }, { 1921, 1081 },
  };
  int i, s, p;

  for (i = 0; i < test_n_formats; i++)
    {
      const TexelFormatDesc *desc = texel_format_desc (test_all_formats[i]);
      GstVideoFormat gst_format = gst_video_format_from_string (desc->name);

      for (s = 0; s < (int)G_N_ELEMENTS (sizes); s++)
        {
          int w = sizes[s][0], h = sizes[s][1];
          GstVideoInfo info;
          TexelImage img;

          g_assert_true (gst_video_info_set_format (&info, gst_format, w, h));
          texel_image_layout (&img, desc->format, w, h, 4, 1, NULL);
          for (p = 0; p < desc->n_planes; p++)
            {
              int comp[GST_VIDEO_MAX_COMPONENTS];

              gst_video_format_info_component (info.finfo, p, comp);
              g_assert_cmpint (texel_plane_height (desc->format, p, h), ==,
                               GST_VIDEO_INFO_COMP_HEIGHT (&info, comp[0]));
              g_assert_cmpint (texel_plane_width (desc->format, p, w), <=,
                               GST_VIDEO_INFO_WIDTH (&info));
              g_assert_cmpint (img.stride[p], ==,
                               GST_VIDEO_INFO_PLANE_STRIDE (&info, p));
            }
        }
    }
}

/* Hand-checked geometry of odd sizes. */
static void
test_plane_sizes (void)
{
  /* 4:2:0 rounds up: 5x3 has 3x2 chroma. */
  g_assert_cmpint (texel_plane_width (TEXEL_FORMAT_NV12, 0, 5), ==, 5);
  g_assert_cmpint (texel_plane_width (TEXEL_FORMAT_NV12, 1, 5), ==, 3);
  g_assert_cmpint (texel_plane_height (TEXEL_FORMAT_NV12, 1, 3), ==, 2);
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_NV12, 1, 5), ==, 6);
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_I420, 2, 5), ==, 3);
  g_assert_cmpint (texel_plane_height (TEXEL_FORMAT_YV12, 2, 1), ==, 1);
  /* YUY2: pairs of pixels in 4 bytes, a lone last pixel still takes 4. */
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_YUY2, 0, 5), ==, 12);
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_UYVY, 0, 1), ==, 4);
  g_assert_cmpint (texel_plane_height (TEXEL_FORMAT_YUY2, 0, 3), ==, 3);
  /* The padding byte of RGBx counts. */
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_RGBX, 0, 5), ==, 20);
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_RGB, 0, 5), ==, 15);
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_P010_10LE, 0, 5), ==,
                   10);
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_P010_10LE, 1, 5), ==,
                   12);
  /* No such plane. */
  g_assert_cmpint (texel_plane_row_bytes (TEXEL_FORMAT_RGBA, 1, 5), ==, 0);
  g_assert_cmpint (texel_plane_height (TEXEL_FORMAT_NV12, 2, 5), ==, 0);
}

static void
test_image_layout (void)
{
  uint8_t data[64];
  TexelImage img;
  size_t size;

  /* NV12 5x3, rows to 8 bytes: Y 3 rows of 8, UV 2 rows of 8. */
  size = texel_image_layout (&img, TEXEL_FORMAT_NV12, 5, 3, 8, 1, data);
  g_assert_cmpuint (size, ==, 40);
  g_assert_cmpint (img.format, ==, TEXEL_FORMAT_NV12);
  g_assert_cmpint (img.width, ==, 5);
  g_assert_cmpint (img.height, ==, 3);
  g_assert_cmpint (img.stride[0], ==, 8);
  g_assert_cmpint (img.stride[1], ==, 8);
  g_assert_true (img.data[0] == data);
  g_assert_true (img.data[1] == data + 24);
  g_assert_null (img.data[2]);

  /* Planes start at multiples of 16. */
  size = texel_image_layout (&img, TEXEL_FORMAT_NV12, 5, 3, 8, 16, data);
  g_assert_cmpuint (size, ==, 48);
  g_assert_true (img.data[1] == data + 32);

  /* I420 4x2 packed: 8 + 2 + 2. */
  size = texel_image_layout (&img, TEXEL_FORMAT_I420, 4, 2, 1, 1, data);
  g_assert_cmpuint (size, ==, 12);
  g_assert_true (img.data[1] == data + 8);
  g_assert_true (img.data[2] == data + 10);

  /* Size only. */
  g_assert_cmpuint (
      texel_image_layout (NULL, TEXEL_FORMAT_RGB, 5, 2, 4, 1, NULL), ==, 32);
  size = texel_image_layout (&img, TEXEL_FORMAT_RGB, 5, 2, 4, 1, NULL);
  g_assert_cmpuint (size, ==, 32);
  g_assert_null (img.data[0]);
  g_assert_cmpint (img.stride[0], ==, 16);
}

int
main (int argc, char **argv)
{
  static const TestCase tests[] = {
    { "/texel/format/names", test_names },
    { "/texel/format/components-match-gstreamer",
      test_components_match_gstreamer },
    { "/texel/format/p010-layout", test_p010_layout },
    { "/texel/format/planes-match-gstreamer", test_planes_match_gstreamer },
    { "/texel/format/plane-sizes", test_plane_sizes },
    { "/texel/format/image-layout", test_image_layout },
  };

  gst_init (&argc, &argv);
  return test_run (&argc, &argv, tests, G_N_ELEMENTS (tests));
}
