/* gst-texel tests: texelconvert's subsampled chroma against exact
 * definitions and against videoconvert (texel-chroma-check.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-chroma-check.h"

#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "texel-frames.h"
#include "../unit/texel-exact.h"

#define SEED 15
/* texelbase's active-memory-mode: 2 zero-copy, 3 staged (the GPU). */
#define ACTIVE_MEMORY_ZERO_COPY 2
/* A code is the exact value rounded, within @tol more codes: half a code,
 * plus what the order of double sums moves it by. */
#define EXACT_SLACK (0.5 + 1e-6)

const gchar *texel_chroma_formats[] = {
  "NV12", "NV21", "I420", "YV12", "YUY2", "UYVY", "P010_10LE",
};

const guint texel_chroma_n_formats = G_N_ELEMENTS (texel_chroma_formats);

const gchar *texel_chroma_sites[] = { "jpeg", "mpeg2" };

const guint texel_chroma_n_sites = G_N_ELEMENTS (texel_chroma_sites);

/* Frame sizes: even, and odd (the last chroma column and row cover one
 * luma pixel). */
static const gint sizes[][2] = { { 14, 10 }, { 7, 5 } };

static gchar *
caps_string (const gchar *format, gint w, gint h, const gchar *extra)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
                          "framerate=30/1,pixel-aspect-ratio=1/1%s%s",
                          format, w, h, extra ? "," : "", extra ? extra : "");
}

/* "factory prop=value ..." as an element. */
static GstElement *
element_from_launch (const gchar *launch)
{
  gchar **tokens = g_strsplit (launch, " ", -1);
  GstElement *e = gst_element_factory_make (tokens[0], NULL);
  gchar **t;

  fail_unless (e != NULL, "no element %s", tokens[0]);
  for (t = tokens + 1; *t != NULL; t++)
    {
      gchar *eq = strchr (*t, '=');

      if (**t == '\0')
        continue;
      fail_unless (eq != NULL, "bad property setting '%s'", *t);
      *eq = '\0';
      gst_util_set_object_arg (G_OBJECT (e), *t, eq + 1);
    }
  g_strfreev (tokens);
  return e;
}

/* One buffer through a fresh "@launch" between @in_caps and @out_caps.
 * backend=cuda must have converted on the GPU (active-memory-mode
 * zero-copy or staged). */
static GstBuffer *
run_one (const gchar *launch, const gchar *in_caps, const gchar *out_caps,
         GstBuffer *in, GstVideoInfo *out_info)
{
  GstElement *e = element_from_launch (launch);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstFlowReturn ret;
  GstBuffer *out;
  GstCaps *caps;

  gst_object_unref (e);
  gst_harness_set_caps_str (h, in_caps, out_caps);
  ret = gst_harness_push (h, in);
  fail_unless (ret == GST_FLOW_OK, "%s: push returned %s", launch,
               gst_flow_get_name (ret));
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "%s: no output buffer", launch);
  if (strstr (launch, "backend=cuda") != NULL)
    {
      gint mode = 0;

      g_object_get (h->element, "active-memory-mode", &mode, NULL);
      fail_unless (mode >= ACTIVE_MEMORY_ZERO_COPY,
                   "%s: active-memory-mode "
                   "%d, not the GPU's",
                   launch, mode);
    }
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL && gst_video_info_from_caps (out_info, caps));
  gst_caps_unref (caps);
  texel_harness_teardown (h);
  return out;
}

/* An RGBA frame of @p, and the same as an exact picture (free @px). */
static GstBuffer *
rgba_buffer (ExactPattern p, gint w, gint h, ExactPicture *pic, double **px)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstVideoFrame f;
  gint x, y, c;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, w, h);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  *px = g_new (double, (gsize)w *h * 3);
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_WRITE));
  for (y = 0; y < h; y++)
    {
      for (x = 0; x < w; x++)
        {
          unsigned rgb[3];

          exact_pattern_rgb (p, x, y, w, h, SEED, rgb);
          for (c = 0; c < 3; c++)
            {
              frame_set (&f, c, x, y, rgb[c]);
              (*px)[((gsize)y * w + x) * 3 + c] = rgb[c] / 255.0;
            }
          frame_set (&f, 3, x, y, 255);
        }
    }
  gst_video_frame_unmap (&f);
  pic->w = w;
  pic->h = h;
  pic->channels = 3;
  pic->px = *px;
  return buf;
}

static gint
format_bits (const gchar *format)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (
      gst_video_format_get_info (gst_video_format_from_string (format)), 0);
}

static void
check_encode_one (const gchar *props, const gchar *format, const gchar *site,
                  gboolean bt709_full, ExactPattern p, gint w, gint h,
                  guint tol)
{
  ExactYcc e = { 0.299, 0.114, 0, format_bits (format) };
  gchar *launch = g_strdup_printf ("texelconvert %s", props);
  gchar *extra = g_strdup_printf ("chroma-site=%s,colorimetry=%s", site,
                                  bt709_full ? "1:3:5:1" : "bt601");
  gchar *in_caps = caps_string ("RGBA", w, h, NULL);
  gchar *out_caps = caps_string (format, w, h, extra);
  gboolean cosited = strcmp (site, "mpeg2") == 0;
  double max = exact_max_code (e.bits), *px;
  ExactPicture pic;
  ExactMap identity;
  GstVideoInfo out_info;
  GstVideoFrame f;
  GstBuffer *out;
  guint c;
  gint i, j;

  if (bt709_full)
    {
      e.kr = 0.2126;
      e.kb = 0.0722;
      e.full_range = 1;
    }
  exact_map_scale (identity, w, h, w, h);
  out = run_one (launch, in_caps, out_caps, rgba_buffer (p, w, h, &pic, &px),
                 &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, out, GST_MAP_READ));
  for (c = 0; c < 3; c++)
    {
      gint sub_x = GST_VIDEO_FORMAT_INFO_W_SUB (out_info.finfo, c);
      gint sub_y = GST_VIDEO_FORMAT_INFO_H_SUB (out_info.finfo, c);

      for (j = 0; j < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); j++)
        {
          for (i = 0; i < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); i++)
            {
              double ycc[3], want;
              guint got = frame_get (&f, c, i, j);

              exact_encode_sample (&pic, 0, identity, &e, sub_x, sub_y, cosited,
                                   0, i, j, ycc);
              want = fmin (fmax (ycc[c], 0.0), max);
              if (fabs (got - want) > tol + EXACT_SLACK)
                fail ("%s: RGBA %dx%d %s -> %s: component %u at (%d,%d) is %u, "
                      "exact %.2f (+-%u)",
                      launch, w, h, exact_pattern_name (p), extra, c, i, j, got,
                      want, tol);
            }
        }
    }
  gst_video_frame_unmap (&f);
  gst_buffer_unref (out);
  g_free (px);
  g_free (launch);
  g_free (extra);
  g_free (in_caps);
  g_free (out_caps);
}

void
texel_check_encode_exact (const gchar *props, const gchar *format,
                          const gchar *site, guint tol)
{
  guint s, cm, p;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (cm = 0; cm < 2; cm++)
      for (p = 0; p < EXACT_N_PATTERNS; p++)
        check_encode_one (props, format, site, cm, p, sizes[s][0], sizes[s][1],
                          tol);
}

/* Random codes of @format, and its luma and chroma as exact pictures
 * (free @ypx and @cpx). */
static GstBuffer *
yuv_buffer (const GstVideoInfo *info, ExactPicture *luma, ExactPicture *chroma,
            double **ypx, double **cpx)
{
  GstBuffer *buf
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  unsigned max = (1u << GST_VIDEO_INFO_COMP_DEPTH (info, 0)) - 1;
  ExactPicture *pics[2] = { luma, chroma };
  double **pxs[2] = { ypx, cpx };
  GstVideoFrame f;
  gint x, y, k;
  guint c;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (k = 0; k < 2; k++)
    {
      gint w = GST_VIDEO_FRAME_COMP_WIDTH (&f, k);
      gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&f, k);

      pics[k]->w = w;
      pics[k]->h = h;
      pics[k]->channels = k == 0 ? 1 : 2;
      *pxs[k] = g_new (double, (gsize)w *h *pics[k]->channels);
      pics[k]->px = *pxs[k];
    }
  for (c = 0; c < 3; c++)
    {
      ExactPicture *pic = pics[c > 0];

      for (y = 0; y < pic->h; y++)
        {
          for (x = 0; x < pic->w; x++)
            {
              unsigned v = exact_hash_code (SEED, x, y, c, max);

              frame_set (&f, c, x, y, v);
              (*pxs[c > 0])[((gsize)y * pic->w + x) * pic->channels
                            + (c > 0 ? c - 1 : 0)]
                  = v;
            }
        }
    }
  gst_video_frame_unmap (&f);
  return buf;
}

void
texel_check_decode_exact (const gchar *props, const gchar *format,
                          const gchar *site, const gchar *method, guint tol)
{
  gchar *launch = g_strdup_printf ("texelconvert %s method=%s", props, method);
  gchar *extra = g_strdup_printf ("chroma-site=%s,colorimetry=bt601", site);
  gboolean cosited = strcmp (site, "mpeg2") == 0;
  /* 1:1: nearest, or linear interpolation (bicubic included). */
  int m = strcmp (method, "nearest") == 0 ? 0 : 1;
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gint w = sizes[s][0], h = sizes[s][1];
      gchar *in_caps = caps_string (format, w, h, extra);
      gchar *out_caps = caps_string ("RGBA", w, h, NULL);
      GstVideoInfo in_info, out_info;
      ExactYcc e = { 0.299, 0.114, 0, format_bits (format) };
      ExactPicture luma, chroma;
      double *ypx, *cpx;
      GstCaps *caps = gst_caps_from_string (in_caps);
      GstVideoFrame f;
      GstBuffer *in, *out;
      gint x, y, c;

      fail_unless (gst_video_info_from_caps (&in_info, caps));
      gst_caps_unref (caps);
      in = yuv_buffer (&in_info, &luma, &chroma, &ypx, &cpx);
      out = run_one (launch, in_caps, out_caps, in, &out_info);
      fail_unless (gst_video_frame_map (&f, &out_info, out, GST_MAP_READ));
      for (y = 0; y < h; y++)
        {
          for (x = 0; x < w; x++)
            {
              double ycc[3], rgb[3];

              exact_reconstruct (&luma, m, x + 0.5, y + 0.5, ycc);
              exact_chroma_at (&chroma, m,
                               GST_VIDEO_FORMAT_INFO_W_SUB (in_info.finfo, 1),
                               GST_VIDEO_FORMAT_INFO_H_SUB (in_info.finfo, 1),
                               cosited, 0, x + 0.5, y + 0.5, ycc + 1);
              exact_decode (&e, ycc, rgb);
              for (c = 0; c < 3; c++)
                {
                  double want = 255.0 * fmin (fmax (rgb[c], 0.0), 1.0);
                  guint got = frame_get (&f, c, x, y);

                  if (fabs (got - want) > tol + EXACT_SLACK)
                    fail ("%s: %s %dx%d %s -> RGBA: component %d at (%d,%d) is "
                          "%u, "
                          "exact %.2f (+-%u)",
                          launch, format, w, h, extra, c, x, y, got, want, tol);
                }
            }
        }
      gst_video_frame_unmap (&f);
      gst_buffer_unref (out);
      g_free (ypx);
      g_free (cpx);
      g_free (in_caps);
      g_free (out_caps);
    }
  g_free (launch);
  g_free (extra);
}

/* The largest difference between @a (videoconvert's) and @b over every
 * sample, but for the last chroma sample of each row with mpeg2 siting
 * (@cosited) and an even width: videoconvert (GStreamer 1.22) filters it
 * with weights 1/4, 3/4 of luma columns 2 i - 1 and 2 i, as if the frame
 * ended at its site, although column 2 i + 1 exists (16x2 red/green
 * checkerboard to YUY2: V 188 = (3 red + green) / 4 at i = 7, where
 * [1, 2, 1] / 4 over the checkerboard gives the mean, 137, as at every
 * other i). texelconvert keeps [1, 2, 1] / 4 there, as texel_check_
 * encode_exact checks. With an odd width the pixel right of the site does
 * not exist and both repeat the edge: they agree. */
static guint
max_diff_but_edge (const GstVideoFrame *a, const GstVideoFrame *b,
                   gboolean cosited, gchar **where)
{
  return texel_frames_max_diff (a, b,
                                cosited && GST_VIDEO_FRAME_WIDTH (a) % 2 == 0,
                                "videoconvert", "texelconvert", where);
}

void
texel_check_against_videoconvert (const gchar *props, const gchar *format,
                                  const gchar *site, guint tol)
{
  gchar *launch = g_strdup_printf ("texelconvert %s", props);
  gchar *extra = g_strdup_printf ("chroma-site=%s,colorimetry=bt601", site);
  /* videoconvert's 10-bit codes are its 8-bit precision scaled: @tol
   * 8-bit codes. */
  guint tol10 = tol << (format_bits (format) - 8);
  guint s, p;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gint w = sizes[s][0], h = sizes[s][1];
      gchar *in_caps = caps_string ("RGBA", w, h, NULL);
      gchar *out_caps = caps_string (format, w, h, extra);

      for (p = 0; p < EXACT_N_PATTERNS; p++)
        {
          GstVideoInfo info_t, info_v;
          GstVideoFrame ft, fv;
          ExactPicture pic;
          double *px;
          GstBuffer *in = rgba_buffer (p, w, h, &pic, &px);
          GstBuffer *ot, *ov;
          gchar *where = NULL;
          guint diff;

          ov = run_one ("videoconvert", in_caps, out_caps, gst_buffer_ref (in),
                        &info_v);
          ot = run_one (launch, in_caps, out_caps, in, &info_t);
          fail_unless (gst_video_frame_map (&ft, &info_t, ot, GST_MAP_READ));
          fail_unless (gst_video_frame_map (&fv, &info_v, ov, GST_MAP_READ));
          diff = max_diff_but_edge (&fv, &ft, strcmp (site, "mpeg2") == 0,
                                    &where);
          if (diff > tol10)
            fail ("%s: RGBA %dx%d %s -> %s %s: %u codes from videoconvert "
                  "(+-%u): %s",
                  launch, w, h, exact_pattern_name (p), format, extra, diff,
                  tol10, where);
          g_free (where);
          gst_video_frame_unmap (&ft);
          gst_video_frame_unmap (&fv);
          gst_buffer_unref (ot);
          gst_buffer_unref (ov);
          g_free (px);
        }
      g_free (in_caps);
      g_free (out_caps);
    }
  g_free (launch);
  g_free (extra);
}
