/* gst-texel tests: what the element tests share (texel-frames.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "texel-frames.h"

#include <string.h>

#include <gst/check/gstcheck.h>

const gchar *const texel_all_formats[TEXEL_N_FORMATS]
    = { "NV12",      "NV21", "I420",  "YV12",      "YUY2",      "UYVY",
        "RGBA",      "BGRA", "RGBx",  "BGRx",      "ARGB",      "ABGR",
        "RGB",       "BGR",  "GRAY8", "P010_10LE", "I420_10LE", "I422_10LE",
        "Y444_10LE", "Y42B", "Y444",  "NV16",      "YVYU",      "AYUV",
        "VUYA",      "xRGB" };

static guint8 *
frame_comp_ptr (const GstVideoFrame *f, guint comp, gint x, gint y)
{
  guint8 *p = GST_VIDEO_FRAME_COMP_DATA (f, comp);

  /* GStreamer 1.22 describes P010's V sample as 1 byte (not 2) into the
   * CbCr pair (poffset {0, 0, 1}): place it ourselves. */
  if (GST_VIDEO_FRAME_FORMAT (f) == GST_VIDEO_FORMAT_P010_10LE)
    p = (guint8 *)GST_VIDEO_FRAME_PLANE_DATA (
            f, GST_VIDEO_FRAME_COMP_PLANE (f, comp))
        + (comp == 2 ? 2 : 0);

  return p + (gsize)y * GST_VIDEO_FRAME_COMP_STRIDE (f, comp)
         + (gsize)x * GST_VIDEO_FRAME_COMP_PSTRIDE (f, comp);
}

static gboolean
frame_comp_is_16bit (const GstVideoFrame *f, guint comp)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (f->info.finfo, comp) > 8;
}

guint
frame_get (const GstVideoFrame *f, guint comp, gint x, gint y)
{
  const guint8 *p = frame_comp_ptr (f, comp, x, y);
  const GstVideoFormatInfo *finfo = f->info.finfo;

  if (frame_comp_is_16bit (f, comp))
    return GST_READ_UINT16_LE (p) >> GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp);
  return *p;
}

void
frame_set (GstVideoFrame *f, guint comp, gint x, gint y, guint v)
{
  guint8 *p = frame_comp_ptr (f, comp, x, y);

  if (frame_comp_is_16bit (f, comp))
    GST_WRITE_UINT16_LE (
        p, v << GST_VIDEO_FORMAT_INFO_SHIFT (f->info.finfo, comp));
  else
    *p = v;
}

guint
texel_frames_max_diff (const GstVideoFrame *a, const GstVideoFrame *b,
                       gboolean skip_last_chroma, const gchar *a_name,
                       const gchar *b_name, gchar **where)
{
  guint c, max = 0;
  gint x, y;

  *where = NULL;
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (a); c++)
    {
      gint w = GST_VIDEO_FRAME_COMP_WIDTH (a, c);

      if (c > 0 && skip_last_chroma)
        w--;
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (a, c); y++)
        {
          for (x = 0; x < w; x++)
            {
              guint va = frame_get (a, c, x, y), vb = frame_get (b, c, x, y);
              guint d = va > vb ? va - vb : vb - va;

              if (d > max)
                {
                  max = d;
                  g_free (*where);
                  *where = g_strdup_printf (
                      "component %u at (%d, %d): %s %u, %s %u", c, x, y, a_name,
                      va, b_name, vb);
                }
            }
        }
    }
  return max;
}

guint
frames_max_diff (const GstVideoFrame *a, const GstVideoFrame *b, gchar **where)
{
  return texel_frames_max_diff (a, b, FALSE, "the CPU", "under test", where);
}

void
drop_bus_messages (GstElement *e)
{
  GstBus *bus = gst_element_get_bus (e);

  if (bus)
    {
      gst_bus_set_flushing (bus, TRUE);
      gst_object_unref (bus);
    }
}

void
texel_harness_teardown (GstHarness *h)
{
  drop_bus_messages (h->element);
  gst_harness_teardown (h);
}

/* Error and warning messages waiting on the element's bus, as text. */
gchar *
bus_messages_text (GstElement *e, GstMessageType types)
{
  GstBus *bus = gst_element_get_bus (e);
  GString *s = g_string_new (NULL);
  GstMessage *msg;

  if (!bus)
    return g_string_free (s, FALSE);
  while ((msg = gst_bus_pop_filtered (bus, types)) != NULL)
    {
      GError *err = NULL;
      gchar *dbg = NULL;

      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
        gst_message_parse_error (msg, &err, &dbg);
      else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
        gst_message_parse_warning (msg, &err, &dbg);
      if (err)
        g_string_append_printf (s, "[%s: %s (%s)] ",
                                GST_MESSAGE_TYPE_NAME (msg), err->message,
                                GST_STR_NULL (dbg));
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (msg);
    }
  gst_object_unref (bus);
  return g_string_free (s, FALSE);
}

void
texel_check_init (int *argc, char ***argv)
{
  if (!g_getenv ("GST_TRACERS") && !g_getenv ("TEXEL_TEST_NO_LEAKS_TRACER"))
    g_setenv ("GST_TRACERS", "leaks", TRUE);
  gst_check_init (argc, argv);
}

TCase *
texel_suite_add_tcase (Suite *s, const gchar *name, gint timeout)
{
  TCase *tc = tcase_create (name);

  suite_add_tcase (s, tc);
  if (timeout > 0)
    tcase_set_timeout (tc, timeout);
  return tc;
}

void
texel_tcase_add_tests (TCase *tc, const TexelTest *tests, guint n_tests)
{
  guint i;

  for (i = 0; i < n_tests; i++)
    _tcase_add_test (tc, tests[i].func, tests[i].name, 0, 0, 0,
                     tests[i].loops > 0 ? tests[i].loops : 1);
}

Suite *
texel_suite_new (const gchar *name, const gchar *tcase, gint timeout,
                 const TexelTest *tests, guint n_tests)
{
  Suite *s = suite_create (name);

  texel_tcase_add_tests (texel_suite_add_tcase (s, tcase, timeout), tests,
                         n_tests);
  return s;
}

Suite *
texel_suite_new_tcases (const gchar *name, const TexelTCase *tcases,
                        guint n_tcases)
{
  Suite *s = suite_create (name);
  guint i;

  for (i = 0; i < n_tcases; i++)
    texel_tcase_add_tests (
        texel_suite_add_tcase (s, tcases[i].name, tcases[i].timeout),
        tcases[i].tests, tcases[i].n_tests);
  return s;
}

int
texel_check_run (int *argc, char ***argv, Suite *(*suite) (void),
                 const gchar *name, const gchar *file)
{
  texel_check_init (argc, argv);
  return gst_check_run_suite (suite (), name, file);
}

gchar *
texel_caps_new (const gchar *format, gint width, gint height,
                const gchar *yuv_fields, const gchar *rgb_fields)
{
  const GstVideoFormatInfo *finfo
      = gst_video_format_get_info (gst_video_format_from_string (format));
  const gchar *fields = NULL;

  fail_unless (finfo != NULL, "unknown format %s", format);
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo))
    fields = yuv_fields;
  else if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo))
    fields = rgb_fields;
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
                          "framerate=30/1,pixel-aspect-ratio=1/1%s%s",
                          format, width, height, fields ? "," : "",
                          fields ? fields : "");
}

GstVideoInfo
texel_video_info_from_caps_string (const gchar *s)
{
  GstCaps *caps = gst_caps_from_string (s);
  GstVideoInfo info;

  fail_unless (caps != NULL, "bad caps %s", s);
  fail_unless (gst_video_info_from_caps (&info, caps), "bad video caps %s", s);
  gst_caps_unref (caps);
  return info;
}

GstMessage *
texel_pop_strategy_message (GstElement *e)
{
  GstBus *bus = gst_element_get_bus (e);
  GstMessage *msg, *found = NULL;

  fail_unless (bus != NULL);
  while (!found && (msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)))
    {
      const GstStructure *s = gst_message_get_structure (msg);

      if (s && gst_structure_has_name (s, "texel-strategy"))
        found = msg;
      else
        gst_message_unref (msg);
    }
  gst_object_unref (bus);
  return found;
}

guint64
texel_stats_get (GstElement *e, const gchar *field)
{
  GstStructure *st = NULL;
  guint64 v = G_MAXUINT64;

  g_object_get (e, "stats", &st, NULL);
  fail_unless (st != NULL, "no stats");
  fail_unless (gst_structure_get_uint64 (st, field, &v), "no %s", field);
  GST_INFO_OBJECT (e, "%" GST_PTR_FORMAT, st);
  gst_structure_free (st);
  return v;
}

void
texel_harness_out_info (GstHarness *h, GstVideoInfo *info)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (caps != NULL, "no output caps");
  fail_unless (gst_video_info_from_caps (info, caps), "bad output caps");
  gst_caps_unref (caps);
}

void
texel_set_properties (GObject *object, const gchar *props,
                      gboolean skip_unknown)
{
  gchar **tokens, **t;

  if (props == NULL)
    return;
  tokens = g_strsplit_set (props, " \t", -1);
  for (t = tokens; *t; t++)
    {
      gchar *eq;

      if (**t == '\0')
        continue;
      eq = strchr (*t, '=');
      fail_unless (eq != NULL, "bad property setting '%s'", *t);
      *eq = '\0';
      if (!g_object_class_find_property (G_OBJECT_GET_CLASS (object), *t))
        {
          fail_unless (skip_unknown, "%s has no property '%s'",
                       G_OBJECT_TYPE_NAME (object), *t);
          continue;
        }
      gst_util_set_object_arg (object, *t, eq + 1);
    }
  g_strfreev (tokens);
}

GstElement *
texel_test_element_new (const gchar *factory, const gchar *props)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstBus *bus;

  fail_unless (e != NULL, "could not create '%s' (GST_PLUGIN_PATH_1_0=%s)",
               factory, GST_STR_NULL (g_getenv ("GST_PLUGIN_PATH_1_0")));
  texel_set_properties (G_OBJECT (e), props, FALSE);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
  return e;
}

GstHarness *
texel_harness_new_with (GstElement *e)
{
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");

  gst_object_unref (e);
  return h;
}

gint
texel_get_int (gpointer object, const gchar *name)
{
  gint v = -12345;

  g_object_get (object, name, &v, NULL);
  return v;
}

GstBuffer *
texel_buffer_new_filled (const GstVideoInfo *info, TexelCodeFunc code,
                         gpointer user_data, GstClockTime pts)
{
  GstBuffer *buf
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame f;
  guint c, max = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 1023 : 255;
  gint x, y;

  gst_buffer_memset (buf, 0, 0xff, GST_VIDEO_INFO_SIZE (info));
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++)
        frame_set (&f, c, x, y, code (user_data, c, x, y, max));
  gst_video_frame_unmap (&f);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

static guint
random_code (gpointer rand, guint c, gint x, gint y, guint max)
{
  return g_rand_int_range (rand, 0, max + 1);
}

GstBuffer *
texel_buffer_new_random (const GstVideoInfo *info, GRand *rand,
                         GstClockTime pts)
{
  return texel_buffer_new_filled (info, random_code, rand, pts);
}

gint
texel_info_plane_height (const GstVideoInfo *info, guint plane)
{
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    {
      if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, c) == plane)
        return GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    }
  return GST_VIDEO_INFO_HEIGHT (info);
}

GstBuffer *
texel_buffer_new_padded (const GstVideoInfo *info, gint extra_stride,
                         gsize lead, gsize gap, GstVideoInfo *padded)
{
  gsize offset = lead;
  GstBuffer *buf;
  guint p;

  *padded = *info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    {
      padded->stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + extra_stride;
      padded->offset[p] = offset;
      offset
          += (gsize)padded->stride[p] * texel_info_plane_height (info, p) + gap;
    }
  padded->size = offset;

  buf = gst_buffer_new_allocate (NULL, padded->size, NULL);
  gst_buffer_memset (buf, 0, 0xa5, padded->size);
  gst_buffer_add_video_meta_full (
      buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
      GST_VIDEO_INFO_N_PLANES (info), padded->offset, padded->stride);
  return buf;
}

GstBuffer *
texel_push_pull (GstHarness *h, GstBuffer *in)
{
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  return gst_harness_pull (h);
}

void
texel_image_from_frame (TexelImage *img, GstVideoFrame *f)
{
  guint p;

  memset (img, 0, sizeof (*img));
  img->format = texel_format_from_name (
      gst_video_format_to_string (GST_VIDEO_FRAME_FORMAT (f)));
  img->width = GST_VIDEO_FRAME_WIDTH (f);
  img->height = GST_VIDEO_FRAME_HEIGHT (f);
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (f); p++)
    {
      img->data[p] = GST_VIDEO_FRAME_PLANE_DATA (f, p);
      img->stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (f, p);
    }
}

void
texel_run_launch_lines (const gchar *const *lines, guint n_lines,
                        GstClockTime timeout)
{
  guint i;

  for (i = 0; i < n_lines; i++)
    {
      GError *err = NULL;
      GstElement *p = gst_parse_launch (lines[i], &err);
      GstBus *bus;
      GstMessage *msg;

      fail_unless (p != NULL, "%s: %s", lines[i], err ? err->message : "?");
      bus = gst_element_get_bus (p);
      fail_unless_equals_int (gst_element_set_state (p, GST_STATE_PLAYING),
                              GST_STATE_CHANGE_ASYNC);
      msg = gst_bus_timed_pop_filtered (bus, timeout,
                                        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
      fail_unless (msg != NULL, "%s: timed out", lines[i]);
      fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
      gst_message_unref (msg);
      gst_element_set_state (p, GST_STATE_NULL);
      gst_object_unref (bus);
      gst_object_unref (p);
    }
}
