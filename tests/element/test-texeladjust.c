/* gst-texel: element tests for texeladjust on the CPU path.
 *
 * Runs without a GPU (backend=cpu): outputs are compared with the kernel
 * library's CPU reference run on the same frames, which must agree
 * exactly (same code, same plan), and with a few values known from the
 * formulas. Also: properties, passthrough, changes while PLAYING, a
 * GstController driving a property, and a gst-launch style pipeline.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#ifdef HAVE_GST_CONTROLLER
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#endif

#include "texel-adjust.h"
#include "texel-frames.h"

static const gchar *all_formats[] = {
  "NV12", "NV21", "I420", "YV12", "YUY2", "UYVY", "RGBA", "BGRA", "RGBx",
  "BGRx", "ARGB", "ABGR", "RGB", "BGR", "GRAY8", "P010_10LE"
};

static const gchar *properties[] = {
  "brightness", "contrast", "saturation", "hue", "gamma", "exposure",
  "red-gain", "green-gain", "blue-gain"
};

/* ------------------------------------------------------------------ */

/* Fixed caps; YUV formats BT.709 limited range, RGB sRGB, GRAY8 as
 * GStreamer defaults it (full range). */
static gchar *
make_caps (const gchar * format, gint width, gint height)
{
  const GstVideoFormatInfo *finfo =
      gst_video_format_get_info (gst_video_format_from_string (format));

  fail_unless (finfo != NULL);
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1,pixel-aspect-ratio=1/1%s", format, width, height,
      GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) ? ",colorimetry=bt709" :
      GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) ? ",colorimetry=sRGB" : "");
}

static GstVideoInfo
info_from_caps_string (const gchar * s)
{
  GstCaps *caps = gst_caps_from_string (s);
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  return info;
}

/* Random valid codes (P010: 10-bit codes). */
static GstBuffer *
make_random_buffer (const GstVideoInfo * info, GRand * rand, GstClockTime pts)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstVideoFrame f;
  guint c, max = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 1023 : 255;
  gint x, y;

  gst_buffer_memset (buf, 0, 0xff, GST_VIDEO_INFO_SIZE (info));
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++)
        frame_set (&f, c, x, y, g_rand_int_range (rand, 0, max + 1));
  gst_video_frame_unmap (&f);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

static void
image_from_frame (TexelImage * img, GstVideoFrame * f)
{
  guint p;

  memset (img, 0, sizeof (*img));
  img->format = texel_format_from_name (gst_video_format_to_string
      (GST_VIDEO_FRAME_FORMAT (f)));
  img->width = GST_VIDEO_FRAME_WIDTH (f);
  img->height = GST_VIDEO_FRAME_HEIGHT (f);
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (f); p++) {
    img->data[p] = GST_VIDEO_FRAME_PLANE_DATA (f, p);
    img->stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (f, p);
  }
}

/* The colorimetry make_caps () gives, as the element reads it. */
static void
config_for (TexelAdjustConfig * cfg, const GstVideoInfo * info)
{
  if (GST_VIDEO_INFO_IS_RGB (info)) {
    cfg->transfer = TEXEL_TRANSFER_SRGB;
  } else if (GST_VIDEO_INFO_IS_GRAY (info)) {
    cfg->transfer = TEXEL_TRANSFER_BT709;
    cfg->full_range = 1;
    cfg->matrix = GST_VIDEO_INFO_HEIGHT (info) > 576 ? TEXEL_MATRIX_BT709 :
        TEXEL_MATRIX_BT601;
  } else {
    cfg->transfer = TEXEL_TRANSFER_BT709;
    cfg->full_range = 0;
    cfg->matrix = TEXEL_MATRIX_BT709;
  }
}

/* Fails unless @out is @in adjusted by the CPU reference with @cfg. */
static void
check_reference (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    TexelAdjustConfig * cfg, const gchar * what)
{
  GstBuffer *ref = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstVideoFrame fin, fout, fref;
  TexelImage iin, iref;
  TexelAdjustPlan plan;
  const char *why = NULL;
  guint c;
  gint x, y;

  config_for (cfg, info);
  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_WRITE));
  image_from_frame (&iin, &fin);
  image_from_frame (&iref, &fref);
  fail_unless (texel_adjust_plan_init (&plan, cfg, iin.format, iin.width,
          iin.height, &why) == 0, "plan: %s", why);
  texel_adjust_cpu (&plan, &iin, &iref, 0, iin.height);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fout); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fout, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fout, c); x++)
        fail_unless (frame_get (&fout, c, x, y) == frame_get (&fref, c, x,
                y), "%s: %s component %u at (%d, %d): %u, reference %u",
            what, GST_VIDEO_INFO_NAME (info), c, x, y, frame_get (&fout, c,
                x, y), frame_get (&fref, c, x, y));
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fref);
  gst_buffer_unref (ref);
}

/* The element with backend=cpu and @props ("name=value ..."), in a
 * harness (which sets it PLAYING). */
static GstHarness *
adjust_harness_new (const gchar * props)
{
  GstElement *e = gst_element_factory_make ("texeladjust", NULL);
  gchar **tokens = g_strsplit (props ? props : "", " ", -1);
  GstHarness *h;
  gchar **t;

  fail_unless (e != NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  for (t = tokens; *t; t++) {
    gchar *eq = strchr (*t, '=');

    if (eq == NULL)
      continue;
    *eq = '\0';
    gst_util_set_object_arg (G_OBJECT (e), *t, eq + 1);
  }
  g_strfreev (tokens);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

static GstBuffer *
push_pull (GstHarness * h, GstBuffer * in)
{
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  return gst_harness_pull (h);
}

/* ------------------------------------------------------------------ */

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("texeladjust", NULL);
  static const gdouble defaults[] = { 0, 1, 1, 0, 1, 0, 1, 1, 1 };
  static const gdouble mins[] = { -1, 0, 0, -1, 0.01, -10, 0, 0, 0 };
  static const gdouble maxs[] = { 1, 2, 2, 1, 10, 10, 4, 4, 4 };
  guint i;

  fail_unless (e != NULL);
  for (i = 0; i < G_N_ELEMENTS (properties); i++) {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        properties[i]);
    GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (pspec);
    gdouble v;

    fail_unless (pspec != NULL, "no property %s", properties[i]);
    fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE);
    fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
    fail_unless_equals_float (d->default_value, defaults[i]);
    fail_unless_equals_float (d->minimum, mins[i]);
    fail_unless_equals_float (d->maximum, maxs[i]);
    g_object_get (e, properties[i], &v, NULL);
    fail_unless_equals_float (v, defaults[i]);
    g_object_set (e, properties[i], maxs[i], NULL);
    g_object_get (e, properties[i], &v, NULL);
    fail_unless_equals_float (v, maxs[i]);
  }
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_passthrough)
{
  gchar *caps = make_caps ("NV12", 32, 16);
  GstVideoInfo info = info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (1);
  GstHarness *h = adjust_harness_new (NULL);
  GstBuffer *in, *out;

  gst_harness_set_caps_str (h, caps, caps);
  in = make_random_buffer (&info, rand, 0);
  out = push_pull (h, in);
  fail_unless (out == in, "neutral settings: not passthrough");
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (h->element)));
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* Every format, with the linear stage and the balance: the reference's
 * output, exactly. Odd sizes. */
GST_START_TEST (test_formats)
{
  const gchar *format = all_formats[__i__];
  gchar *caps = make_caps (format, 37, 23);
  GstVideoInfo info = info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (__i__);
  static const gchar *settings[] = {
    "gamma=1.5 saturation=1.3",
    "brightness=0.1 contrast=1.2 hue=-0.3",
    "exposure=0.7 red-gain=1.2 blue-gain=0.8 n-threads=2",
  };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (settings); s++) {
    GstHarness *h = adjust_harness_new (settings[s]);
    GstBuffer *in, *out;
    GstCaps *out_caps;
    TexelAdjustConfig cfg;

    gst_harness_set_caps_str (h, caps, caps);
    in = make_random_buffer (&info, rand, 0);
    gst_buffer_ref (in);
    out = push_pull (h, in);
    fail_if (out == in, "%s %s: passthrough", format, settings[s]);
    out_caps = gst_pad_get_current_caps (h->sinkpad);
    {
      GstVideoInfo oinfo;

      fail_unless (gst_video_info_from_caps (&oinfo, out_caps));
      fail_unless (gst_video_info_is_equal (&oinfo, &info),
          "output caps differ from the input's");
    }
    gst_caps_unref (out_caps);

    texel_adjust_config_init (&cfg);
    g_object_get (h->element, "brightness", &cfg.brightness, "contrast",
        &cfg.contrast, "saturation", &cfg.saturation, "hue", &cfg.hue,
        "gamma", &cfg.gamma, "exposure", &cfg.exposure, "red-gain",
        &cfg.gain[0], "green-gain", &cfg.gain[1], "blue-gain", &cfg.gain[2],
        NULL);
    check_reference (&info, in, out, &cfg, settings[s]);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* Known values: saturation 0 on RGBA leaves BT.601 grey; a red gain of 0
 * on sRGB frames blacks out red. */
GST_START_TEST (test_known_values)
{
  gchar *caps = make_caps ("RGBA", 4, 4);
  GstVideoInfo info = info_from_caps_string (caps);
  GstHarness *h = adjust_harness_new ("saturation=0");
  GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info),
      NULL), *out;
  GstVideoFrame f;
  gint x, y;

  gst_harness_set_caps_str (h, caps, caps);
  fail_unless (gst_video_frame_map (&f, &info, in, GST_MAP_WRITE));
  for (y = 0; y < 4; y++)
    for (x = 0; x < 4; x++) {
      frame_set (&f, 0, x, y, 200);
      frame_set (&f, 1, x, y, 100);
      frame_set (&f, 2, x, y, 50);
      frame_set (&f, 3, x, y, 77);
    }
  gst_video_frame_unmap (&f);
  out = push_pull (h, in);
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
  /* 0.299 * 200 + 0.587 * 100 + 0.114 * 50 = 124.2 */
  for (x = 0; x < 3; x++)
    fail_unless_equals_int (frame_get (&f, x, 1, 1), 124);
  fail_unless_equals_int (frame_get (&f, 3, 1, 1), 77);
  gst_video_frame_unmap (&f);
  in = gst_buffer_copy (out);
  gst_buffer_unref (out);

  g_object_set (h->element, "saturation", 1.0, "red-gain", 0.0, NULL);
  fail_unless (gst_video_frame_map (&f, &info, in, GST_MAP_WRITE));
  frame_set (&f, 0, 1, 1, 200);
  frame_set (&f, 1, 1, 1, 100);
  gst_video_frame_unmap (&f);
  out = push_pull (h, in);
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
  fail_unless_equals_int (frame_get (&f, 0, 1, 1), 0);
  fail_unless_equals_int (frame_get (&f, 1, 1, 1), 100);
  fail_unless_equals_int (frame_get (&f, 2, 1, 1), 124);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (caps);
}

GST_END_TEST;

/* Properties changed while PLAYING take effect on the next frame, in and
 * out of passthrough. */
GST_START_TEST (test_change_while_playing)
{
  gchar *caps = make_caps ("I420", 16, 8);
  GstVideoInfo info = info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (2);
  GstHarness *h = adjust_harness_new (NULL);
  GstBuffer *in, *out;
  TexelAdjustConfig cfg;
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  for (i = 0; i < G_N_ELEMENTS (properties); i++) {
    gdouble def, v;

    in = make_random_buffer (&info, rand, i * GST_SECOND / 30);
    out = push_pull (h, in);
    fail_unless (out == in, "%s: neutral but not passthrough", properties[i]);
    gst_buffer_unref (out);

    g_object_get (h->element, properties[i], &def, NULL);
    v = def == 1.0 ? 1.25 : 0.25;
    g_object_set (h->element, properties[i], v, NULL);
    in = make_random_buffer (&info, rand, i * GST_SECOND / 30);
    gst_buffer_ref (in);
    out = push_pull (h, in);
    fail_if (out == in, "%s=%g: passthrough", properties[i], v);
    texel_adjust_config_init (&cfg);
    if (i == 0)
      cfg.brightness = v;
    else if (i == 1)
      cfg.contrast = v;
    else if (i == 2)
      cfg.saturation = v;
    else if (i == 3)
      cfg.hue = v;
    else if (i == 4)
      cfg.gamma = v;
    else if (i == 5)
      cfg.exposure = v;
    else
      cfg.gain[i - 6] = v;
    check_reference (&info, in, out, &cfg, properties[i]);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    g_object_set (h->element, properties[i], def, NULL);
  }
  gst_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

#ifdef HAVE_GST_CONTROLLER
/* A GstController drives saturation from 1 at 0 s to 0 at 1 s: a frame
 * at 0.5 s gets 0.5. */
GST_START_TEST (test_controller)
{
  gchar *caps = make_caps ("NV12", 16, 8);
  GstVideoInfo info = info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (4);
  GstHarness *h = adjust_harness_new (NULL);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tv = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  GstBuffer *in, *out;
  TexelAdjustConfig cfg;
  gdouble sat;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  /* Direct bindings map [0, 1] onto the property's range (0..2). */
  gst_timed_value_control_source_set (tv, 0, 0.5);
  gst_timed_value_control_source_set (tv, GST_SECOND, 0.0);
  gst_object_add_control_binding (GST_OBJECT (h->element),
      gst_direct_control_binding_new (GST_OBJECT (h->element), "saturation",
          cs));
  gst_harness_set_caps_str (h, caps, caps);

  in = make_random_buffer (&info, rand, GST_SECOND / 2);
  gst_buffer_ref (in);
  out = push_pull (h, in);
  g_object_get (h->element, "saturation", &sat, NULL);
  fail_unless (fabs (sat - 0.5) < 1e-9, "saturation %g at 0.5 s", sat);
  fail_if (out == in, "controlled saturation: passthrough");
  texel_adjust_config_init (&cfg);
  cfg.saturation = 0.5;
  check_reference (&info, in, out, &cfg, "controller");
  gst_buffer_unref (in);
  gst_buffer_unref (out);

  gst_object_unref (cs);
  gst_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;
#endif

/* gst-launch-1.0 videotestsrc num-buffers=10 ! texeladjust gamma=1.5
 * saturation=1.3 ! fakesink, and the same neutral. */
GST_START_TEST (test_pipeline)
{
  static const gchar *lines[] = {
    "videotestsrc num-buffers=10 ! texeladjust gamma=1.5 saturation=1.3 "
        "backend=cpu ! fakesink",
    "videotestsrc num-buffers=10 ! video/x-raw,format=P010_10LE ! "
        "texeladjust exposure=-1 hue=0.5 backend=cpu ! fakesink",
    "videotestsrc num-buffers=10 ! texeladjust backend=cpu ! fakesink",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (lines); i++) {
    GError *err = NULL;
    GstElement *p = gst_parse_launch (lines[i], &err);
    GstBus *bus;
    GstMessage *msg;

    fail_unless (p != NULL, "%s: %s", lines[i], err ? err->message : "?");
    bus = gst_element_get_bus (p);
    fail_unless_equals_int (gst_element_set_state (p, GST_STATE_PLAYING),
        GST_STATE_CHANGE_ASYNC);
    msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "%s: timed out", lines[i]);
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
    gst_message_unref (msg);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (p);
  }
}

GST_END_TEST;

static Suite *
texeladjust_suite (void)
{
  Suite *s = suite_create ("texeladjust");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_passthrough);
  tcase_add_loop_test (tc, test_formats, 0, G_N_ELEMENTS (all_formats));
  tcase_add_test (tc, test_known_values);
  tcase_add_test (tc, test_change_while_playing);
#ifdef HAVE_GST_CONTROLLER
  tcase_add_test (tc, test_controller);
#endif
  tcase_add_test (tc, test_pipeline);
  return s;
}

int
main (int argc, char **argv)
{
  /* Before gst_init: objects alive when a test's process ends fail it. */
  if (!g_getenv ("GST_TRACERS") && !g_getenv ("TEXEL_TEST_NO_LEAKS_TRACER"))
    g_setenv ("GST_TRACERS", "leaks", TRUE);

  gst_check_init (&argc, &argv);
  return gst_check_run_suite (texeladjust_suite (), "texeladjust", __FILE__);
}
