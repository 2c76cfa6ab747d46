/* gst-texel: hostile input (issue #15, items 9-13), on the CPU path:
 *
 *  - interlaced caps: texelconvert, texelfilter and texelwarp would mix the
 *    fields and refuse them (not negotiated, nothing pushed); texeladjust
 *    is per pixel and keeps them, fields and label intact;
 *  - configuration errors (a crop that leaves nothing, a camera model
 *    without a camera, a singular homography, a missing calibration file)
 *    are posted once, naming the property, however often negotiation is
 *    retried; once more after a property changes;
 *  - a buffer whose video meta is inconsistent is dropped with a warning
 *    that says what is wrong (which plane, offset, stride, size);
 *  - crops near G_MAXINT are summed in 64 bits and refused naming them;
 *  - frames larger than GST_TEXEL_MAX_FRAME_BYTES are refused at
 *    negotiation, before any allocation.
 *
 * Each message is checked for its text and counted. valgrind runs this
 * suite in CI. TEXEL_TEST_BACKEND=cuda runs the same cases on the GPU path
 * (scripts/gpu-check.sh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "texel-frames.h"

static const gchar *
test_backend (void)
{
  const gchar *backend = g_getenv ("TEXEL_TEST_BACKEND");

  return backend && *backend ? backend : "cpu";
}

/* @factory with "name=value ..." @props on a bus of its own, in a harness. */
static GstHarness *
harness_new (const gchar *factory, const gchar *props)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstBus *bus = gst_bus_new ();

  fail_unless (e != NULL, "no %s", factory);
  gst_util_set_object_arg (G_OBJECT (e), "backend", test_backend ());
  /* On the GPU path each output comes out with its own input. */
  g_object_set (e, "frames-in-flight", 0, NULL);
  texel_set_properties (G_OBJECT (e), props, FALSE);
  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
  return texel_harness_new_with (e);
}

/* The messages of @type waiting on the element's bus: how many, and their
 * text in @text (free it). */
static guint
count_messages (GstElement *e, GstMessageType type, gchar **text)
{
  GstBus *bus = gst_element_get_bus (e);
  GString *s = g_string_new (NULL);
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, type)) != NULL)
    {
      GError *err = NULL;
      gchar *dbg = NULL;

      if (type == GST_MESSAGE_ERROR)
        gst_message_parse_error (msg, &err, &dbg);
      else
        gst_message_parse_warning (msg, &err, &dbg);
      g_string_append_printf (s, "[%s (%s)] ", err->message,
                              GST_STR_NULL (dbg));
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (msg);
      n++;
    }
  gst_object_unref (bus);
  *text = g_string_free (s, FALSE);
  return n;
}

static GstBuffer *
frame_new (const GstVideoInfo *info, guint8 value)
{
  GstBuffer *buf
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);

  gst_buffer_memset (buf, 0, value, GST_VIDEO_INFO_SIZE (info));
  return buf;
}

/* ------------------------------------------------------------------ */
/* Item 9: interlaced video */

static const struct
{
  const gchar *factory;
  const gchar *props; /* settings that make it process frames */
} spatial[] = {
  { "texelconvert", "video-direction=horiz" },
  { "texelfilter", "filter=gaussian sigma=1" },
  { "texelwarp", "rotation=10" },
};

/* Interleaved, mixed and alternate (format:Interlaced) caps are refused by
 * the elements that move pixels between rows: the caps event fails,
 * frames are not negotiated, nothing comes out. */
GST_START_TEST (test_interlaced_refused)
{
  static const gchar *caps[] = {
    "video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1,"
    "interlace-mode=interleaved,field-order=top-field-first",
    "video/x-raw,format=I420,width=16,height=8,framerate=30/1,"
    "interlace-mode=mixed",
    "video/x-raw(format:Interlaced),format=I420,width=16,height=8,"
    "framerate=30/1,interlace-mode=alternate",
  };
  guint c, i = __i__;

  for (c = 0; c < G_N_ELEMENTS (caps); c++)
    {
      GstHarness *h = harness_new (spatial[i].factory, spatial[i].props);
      GstCaps *templ = gst_pad_get_pad_template_caps (h->sinkpad);
      GstCaps *in = gst_caps_from_string (caps[c]);
      GstVideoInfo info;

      fail_unless (gst_video_info_from_caps (&info, in));
      fail_if (gst_pad_query_accept_caps (GST_PAD_PEER (h->srcpad), in),
               "%s accepts %s", spatial[i].factory, caps[c]);
      gst_harness_set_src_caps (h, in);
      fail_unless_equals_int (gst_harness_push (h, frame_new (&info, 16)),
                              GST_FLOW_NOT_NEGOTIATED);
      fail_unless_equals_int (gst_harness_buffers_received (h), 0);
      gst_caps_unref (templ);
      texel_harness_teardown (h);
    }
}

GST_END_TEST;

/* Progressive caps (and caps that do not say) still work. */
GST_START_TEST (test_progressive_accepted)
{
  static const gchar *caps[] = {
    "video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1",
    "video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1,"
    "interlace-mode=progressive",
  };
  guint c, i = __i__;

  for (c = 0; c < G_N_ELEMENTS (caps); c++)
    {
      GstHarness *h = harness_new (spatial[i].factory, spatial[i].props);
      GstVideoInfo info;
      GstCaps *in = gst_caps_from_string (caps[c]);
      GstBuffer *out;

      fail_unless (gst_video_info_from_caps (&info, in));
      gst_harness_set_src_caps (h, in);
      out = texel_push_pull (h, frame_new (&info, 100));
      fail_unless (out != NULL);
      gst_buffer_unref (out);
      texel_harness_teardown (h);
    }
}

GST_END_TEST;

/* The sample at (0, 0) of @h's output for a flat GRAY8 frame of @value. */
static guint
adjust_flat (GstHarness *h, GstVideoInfo *info, guint8 value)
{
  GstBuffer *out;
  GstVideoFrame frame;
  guint v;

  fail_unless_equals_int (gst_harness_push (h, frame_new (info, value)),
                          GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (gst_video_frame_map (&frame, info, out, GST_MAP_READ));
  v = frame_get (&frame, 0, 0, 0);
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (out);
  return v;
}

/* texeladjust works pixel by pixel: an interleaved frame of alternating
 * rows of 235 and 16 (videoscale's field test) comes out as alternating
 * rows of what flat progressive frames of 235 and of 16 become (where no
 * rows can mix), still labelled interleaved. */
GST_START_TEST (test_interlaced_adjust_keeps_fields)
{
  const gchar *progressive = "video/x-raw,format=GRAY8,width=16,height=8,"
                             "framerate=30/1";
  const gchar *interleaved = "video/x-raw,format=GRAY8,width=16,height=8,"
                             "framerate=30/1,interlace-mode=interleaved,"
                             "field-order=top-field-first";
  GstHarness *h = harness_new ("texeladjust", "gamma=1.5 saturation=1.2");
  GstCaps *caps = gst_caps_from_string (progressive), *out_caps;
  GstVideoInfo info, out_info;
  GstVideoFrame frame;
  GstBuffer *buf, *out;
  guint want[2];
  gint x, y;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, caps);
  want[0] = adjust_flat (h, &info, 235);
  want[1] = adjust_flat (h, &info, 16);
  fail_if (want[0] == want[1]);

  caps = gst_caps_from_string (interleaved);
  fail_unless (gst_video_info_from_caps (&info, caps));
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (y = 0; y < 8; y++)
    for (x = 0; x < 16; x++)
      frame_set (&frame, 0, x, y, y % 2 ? 16 : 235);
  gst_video_frame_unmap (&frame);
  gst_harness_set_src_caps (h, caps);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  out_caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (&out_info, out_caps));
  fail_unless_equals_int (GST_VIDEO_INFO_INTERLACE_MODE (&out_info),
                          GST_VIDEO_INTERLACE_MODE_INTERLEAVED);
  fail_unless (gst_video_frame_map (&frame, &out_info, out, GST_MAP_READ));
  for (y = 0; y < 8; y++)
    for (x = 0; x < 16; x++)
      fail_unless_equals_int (frame_get (&frame, 0, x, y), want[y % 2]);
  gst_video_frame_unmap (&frame);
  gst_caps_unref (out_caps);
  gst_buffer_unref (out);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Items 10 and 12: configuration errors, posted once */

#define CONF_CAPS "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1"

static const struct
{
  const gchar *factory;
  const gchar *props;
  const gchar *expect[2];     /* in the error's text */
  const gchar *change;        /* another bad setting: a second error */
  const gchar *change_expect; /* in that error's text */
} config_errors[] = {
  { "texelconvert",
    "crop-left=40 crop-right=40",
    { "Cropping leaves nothing of a 64x48 frame", "crop-left=40 "
                                                  "crop-right=40" },
    "crop-left=41",
    "crop-left=41 crop-right=40" },
  /* Each crop G_MAXINT: the sums need 64 bits. */
  { "texelconvert",
    "crop-left=2147483647 crop-right=2147483647",
    { "Cropping leaves nothing", "crop-left=2147483647 "
                                 "crop-right=2147483647" },
    "crop-left=2147483646",
    "crop-left=2147483646" },
  { "texelconvert",
    "crop-top=2147483647 crop-bottom=2147483647",
    { "Cropping leaves nothing", "crop-top=2147483647 "
                                 "crop-bottom=2147483647" },
    "crop-top=48",
    "crop-top=48 crop-bottom=2147483647" },
  { "texelconvert",
    "crop-left=2147483647 crop-top=1",
    { "Cropping leaves nothing", "crop-left=2147483647" },
    "crop-bottom=2147483647",
    "crop-bottom=2147483647" },
  { "texelwarp",
    "model=pinhole",
    { "model=pinhole", "no camera" },
    "model=fisheye",
    "model=fisheye: no camera" },
  { "texelwarp",
    "homography=<1,0,0,0,0,0,0,0,1>",
    { "homography", "singular" },
    "homography=<0,0,0,0,1,0,0,0,1>",
    "homography: singular" },
  { "texelwarp",
    "calibration-file=/nonexistent/camera.yaml",
    { "/nonexistent/camera.yaml", "calibration" },
    "calibration-file=/nonexistent/other.yaml",
    "calibration-file=/nonexistent/other.yaml" },
};

#define RETRIES 7

/* Pushes @n frames, each refused: their errors counted, and checked. */
static void
push_refused (GstHarness *h, guint n, guint c, const gchar *expect0,
              const gchar *expect1)
{
  const gchar *expect[2] = { expect0, expect1 };
  GstVideoInfo info;
  GstCaps *caps = gst_caps_from_string (CONF_CAPS);
  gchar *text;
  guint i, errors, j;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  for (i = 0; i < n; i++)
    {
      /* What a source does after not-negotiated: caps again, then frames. */
      gst_harness_set_src_caps_str (h, CONF_CAPS);
      fail_if (gst_harness_push (h, frame_new (&info, 50)) == GST_FLOW_OK,
               "%s %s: frame accepted", config_errors[c].factory,
               config_errors[c].props);
    }
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  errors = count_messages (h->element, GST_MESSAGE_ERROR, &text);
  fail_unless (errors == 1, "%s %s: %u errors after %u tries: %s",
               config_errors[c].factory, config_errors[c].props, errors, n,
               text);
  for (j = 0; j < 2; j++)
    fail_unless (strstr (text, expect[j]) != NULL, "%s %s: '%s' not in %s",
                 config_errors[c].factory, config_errors[c].props, expect[j],
                 text);
  g_free (text);
}

GST_START_TEST (test_config_error_once)
{
  guint c = __i__;
  GstHarness *h
      = harness_new (config_errors[c].factory, config_errors[c].props);
  gchar **change = g_strsplit (config_errors[c].change, "=", 2);

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA");
  push_refused (h, RETRIES, c, config_errors[c].expect[0],
                config_errors[c].expect[1]);
  /* A new setting, still wrong: a new configuration, one more error. */
  gst_util_set_object_arg (G_OBJECT (h->element), change[0], change[1]);
  push_refused (h, RETRIES, c, config_errors[c].change_expect,
                config_errors[c].change_expect);
  g_strfreev (change);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* A setting that turns wrong while frames flow: one error, and no later
 * frame is processed with the plan that failed (it used to be, with a
 * zeroed plan: a silent wrong frame) until a setting puts it right. */
GST_START_TEST (test_config_error_mid_stream)
{
  static const struct
  {
    const gchar *factory;
    const gchar *good, *bad, *fix, *expect;
  } cases[] = {
    { "texelwarp", "rotation=10", "model=pinhole", "model=none",
      "model=pinhole: no camera" },
    { "texelwarp", "rotation=10", "homography=<1,0,0,0,0,0,0,0,1>",
      "homography=<1,0,0,0,1,0,0,0,1>", "homography: singular" },
    { "texelconvert", "video-direction=horiz", "crop-left=64", "crop-left=0",
      "crop-left=64" },
  };
  guint c = __i__, k;
  GstHarness *h = harness_new (cases[c].factory, cases[c].good);
  GstCaps *caps = gst_caps_from_string (CONF_CAPS);
  GstVideoInfo info;
  gchar **bad = g_strsplit (cases[c].bad, "=", 2);
  gchar **fix = g_strsplit (cases[c].fix, "=", 2);
  gchar *text;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, caps);
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA");
  fail_unless_equals_int (gst_harness_push (h, frame_new (&info, 7)),
                          GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));

  gst_util_set_object_arg (G_OBJECT (h->element), bad[0], bad[1]);
  for (k = 0; k < RETRIES; k++)
    fail_if (gst_harness_push (h, frame_new (&info, 7)) == GST_FLOW_OK,
             "%s %s: frame %u processed", cases[c].factory, cases[c].bad, k);
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  fail_unless_equals_int (count_messages (h->element, GST_MESSAGE_ERROR, &text),
                          1);
  fail_unless (strstr (text, cases[c].expect) != NULL, "%s", text);
  g_free (text);

  gst_util_set_object_arg (G_OBJECT (h->element), fix[0], fix[1]);
  gst_harness_set_src_caps_str (h, CONF_CAPS);
  fail_unless_equals_int (gst_harness_push (h, frame_new (&info, 7)),
                          GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (count_messages (h->element, GST_MESSAGE_ERROR, &text),
                          0);
  g_free (text);
  g_strfreev (bad);
  g_strfreev (fix);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* The crop from item 12 in a pipeline: no output size is made up from
 * overflowed sums; one error from the element, naming the crop, however
 * often the source negotiates again. */
GST_START_TEST (test_crop_overflow_pipeline)
{
  gchar *desc = g_strdup_printf (
      "videotestsrc num-buffers=10 ! "
      "video/x-raw,width=64,height=48 ! texelconvert name=e backend=%s "
      "crop-left=2147483647 crop-right=2147483647 ! fakesink",
      test_backend ());
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
  GstMessage *msg;
  guint errors = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* Every error until the pipeline has been quiet for half a second. */
  while ((msg = gst_bus_timed_pop_filtered (
              bus, GST_SECOND / 2, GST_MESSAGE_EOS | GST_MESSAGE_ERROR))
         != NULL)
    {
      fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "no error");
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (e))
        {
          GError *err = NULL;

          gst_message_parse_error (msg, &err, NULL);
          fail_unless (strstr (err->message, "crop-left=2147483647 "
                                             "crop-right=2147483647")
                           != NULL,
                       "%s", err->message);
          g_clear_error (&err);
          errors++;
        }
      gst_message_unref (msg);
    }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (errors, 1);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (e);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Item 11: what the drop warning says */

static const gchar *elements[]
    = { "texelconvert", "texeladjust", "texelfilter", "texelwarp" };

static const gchar *element_props[]
    = { "video-direction=horiz", "gamma=1.3", "filter=gaussian sigma=1",
        "rotation=10" };

/* I420 64x48: planes of 3072, 768 and 768 bytes at 0, 3072 and 3840, 4608
 * in all. */
#define META_CAPS "video/x-raw,format=I420,width=64,height=48,framerate=30/1"

typedef enum
{
  META_PLANE_PAST_END, /* plane 2 at 5000 in a 4608-byte buffer */
  META_OTHER_FORMAT,   /* NV12 meta on I420 caps */
  META_SMALLER,        /* a 32x48 meta on 64x48 caps */
  META_FEWER_PLANES,   /* I420 meta of 2 planes */
  N_META
} BadMeta;

static GstBuffer *
bad_meta_buffer (BadMeta kind)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 3072, 3840 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 64, 32, 32 };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 4608, NULL);
  GstVideoMeta *meta;

  gst_buffer_memset (buf, 0, 0x80, 4608);
  switch (kind)
    {
      case META_PLANE_PAST_END:
        offset[2] = 5000;
        gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
                                        GST_VIDEO_FORMAT_I420, 64, 48, 3,
                                        offset, stride);
        break;
      case META_OTHER_FORMAT:
        stride[1] = 64;
        gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
                                        GST_VIDEO_FORMAT_NV12, 64, 48, 2,
                                        offset, stride);
        break;
      case META_SMALLER:
        gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
                                        GST_VIDEO_FORMAT_I420, 32, 48, 3,
                                        offset, stride);
        break;
      case META_FEWER_PLANES:
      default:
        meta = gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
                                               GST_VIDEO_FORMAT_I420, 64, 48, 3,
                                               offset, stride);
        meta->n_planes = 2;
        break;
    }
  return buf;
}

/* Each bad meta: dropped (the stream goes on), one warning that says what
 * is wrong and not that the buffer is too small; no GLib critical (the
 * check library fails the test on one). */
GST_START_TEST (test_drop_warning_says_why)
{
  static const gchar *expect[N_META] = {
    "Invalid video buffer dropped: plane 2 of its video meta starts at "
    "offset 5000 (stride 32), past the end of the 4608-byte buffer",
    "Invalid video buffer dropped: its video meta describes NV12 frames, "
    "the caps I420",
    "Invalid video buffer dropped: its video meta describes 32x48 frames, "
    "the caps 64x48",
    "Invalid video buffer dropped: its video meta has 2 planes, I420 has 3",
  };
  guint i = __i__ / N_META;
  BadMeta kind = __i__ % N_META;
  GstHarness *h = harness_new (elements[i], element_props[i]);
  gchar *text;
  guint n;

  gst_harness_set_caps_str (h, META_CAPS, META_CAPS);
  fail_unless_equals_int (gst_harness_push (h, bad_meta_buffer (kind)),
                          GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  n = count_messages (h->element, GST_MESSAGE_WARNING, &text);
  fail_unless_equals_int (n, 1);
  fail_unless (strstr (text, expect[kind]) != NULL, "%s: expected '%s' in %s",
               elements[i], expect[kind], text);
  fail_if (strstr (text, "the caps need") != NULL, "%s", text);
  g_free (text);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Item 13: frames too large to allocate sensibly */

/* 32767x32767 RGBA (4 GiB) in, and the smallest RGBA frame above the
 * limit: refused when the caps come, one error giving the size, nothing
 * allocated (valgrind would report the 4 GiB allocation failing). */
GST_START_TEST (test_huge_frames_refused)
{
  static const struct
  {
    const gchar *caps;
    const gchar *expect;
  } cases[] = {
    { "video/x-raw,format=RGBA,width=32767,height=32767,framerate=30/1",
      "Input frames of 32767x32767 RGBA need 4294705156 bytes each" },
    { "video/x-raw,format=RGBA,width=16384,height=16385,framerate=30/1",
      "Input frames of 16384x16385 RGBA need 1073807360 bytes each" },
    { "video/x-raw,format=P010_10LE,width=32767,height=32767,framerate=30/1",
      "Input frames of 32767x32767 P010_10LE need" },
  };
  guint i = __i__, c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      GstHarness *h = harness_new (elements[i], element_props[i]);
      gchar *text;
      guint n, k;

      gst_harness_set_sink_caps_str (h, "video/x-raw");
      for (k = 0; k < RETRIES; k++)
        {
          gst_harness_set_src_caps_str (h, cases[c].caps);
          /* Never looked at: the caps are refused first. */
          fail_unless_equals_int (
              gst_harness_push (h, gst_buffer_new_allocate (NULL, 16, NULL)),
              GST_FLOW_NOT_NEGOTIATED);
        }
      n = count_messages (h->element, GST_MESSAGE_ERROR, &text);
      fail_unless (n == 1, "%s: %u errors: %s", elements[i], n, text);
      fail_unless (strstr (text, cases[c].expect) != NULL, "%s: '%s' not in %s",
                   elements[i], cases[c].expect, text);
      fail_unless (strstr (text, "1024 MiB") != NULL, "%s", text);
      g_free (text);
      texel_harness_teardown (h);
    }
}

GST_END_TEST;

/* texelconvert asked to make a huge frame from a small one: refused on
 * its output side, before its pool allocates one. */
GST_START_TEST (test_huge_output_refused)
{
  GstHarness *h = harness_new ("texelconvert", "");
  GstVideoInfo info;
  GstCaps *in = gst_caps_from_string (CONF_CAPS);
  gchar *text;

  fail_unless (gst_video_info_from_caps (&info, in));
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA,width=32767,"
                                    "height=32767");
  gst_harness_set_src_caps (h, in);
  fail_unless_equals_int (gst_harness_push (h, frame_new (&info, 9)),
                          GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (count_messages (h->element, GST_MESSAGE_ERROR, &text),
                          1);
  fail_unless (strstr (text, "Output frames of 32767x32767 RGBA need "
                             "4294705156 bytes each")
                   != NULL,
               "%s", text);
  g_free (text);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* 10-bit words with their unused high bits set */

static const struct
{
  const gchar *factory;
  const gchar *props;
} word_users[] = {
  { "texelconvert", "video-direction=horiz method=bilinear" },
  { "texeladjust", "gamma=1.3 saturation=1.2" },
  /* Its range weights come from a table indexed by codes. */
  { "texelfilter", "filter=bilateral sigma-space=1 sigma-range=0.1" },
  { "texelfilter", "filter=gaussian sigma=1" },
  { "texelwarp", "rotation=10" },
};

static const gchar *const low_bit_formats[]
    = { "I420_10LE", "I422_10LE", "Y444_10LE" };

/* A frame of random words, and its clean twin: each word's 10 bits alone,
 * as a decoder writes them. */
static void
dirty_and_clean (const GstVideoInfo *info, GstBuffer **dirty, GstBuffer **clean)
{
  gsize size = GST_VIDEO_INFO_SIZE (info), i;
  GRand *rand = g_rand_new_with_seed (27);
  guint8 *d = g_malloc (size), *c = g_malloc (size);

  for (i = 0; i < size; i++)
    d[i] = c[i] = (guint8)g_rand_int (rand);
  for (i = 1; i < size; i += 2)
    c[i] &= 0x03;
  *dirty = gst_buffer_new_wrapped (d, size);
  *clean = gst_buffer_new_wrapped (c, size);
  g_rand_free (rand);
}

/* Loop index: element setting * format. A frame whose 10-bit words carry
 * bits above their 10 (hostile, or a broken decoder) is processed without
 * a crash or an error; on the CPU path exactly as the same frame with
 * those bits clear (they are not the picture's). */
GST_START_TEST (test_stray_high_bits)
{
  guint e = __i__ / G_N_ELEMENTS (low_bit_formats);
  const gchar *format = low_bit_formats[__i__ % G_N_ELEMENTS (low_bit_formats)];
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=64,height=48,"
                                 "framerate=30/1",
                                 format);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GstHarness *h = harness_new (word_users[e].factory, word_users[e].props);
  GstBuffer *dirty, *clean, *out_dirty, *out_clean;
  gchar *text;

  gst_harness_set_caps_str (h, caps, caps);
  dirty_and_clean (&info, &dirty, &clean);
  out_dirty = texel_push_pull (h, dirty);
  out_clean = texel_push_pull (h, clean);
  fail_unless_equals_int (count_messages (h->element, GST_MESSAGE_ERROR, &text),
                          0);
  g_free (text);
  if (g_str_equal (test_backend (), "cpu"))
    {
      GstMapInfo a, b;

      fail_unless (gst_buffer_map (out_dirty, &a, GST_MAP_READ));
      fail_unless (gst_buffer_map (out_clean, &b, GST_MAP_READ));
      fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
                   "%s %s %s: the high bits changed the picture",
                   word_users[e].factory, word_users[e].props, format);
      gst_buffer_unmap (out_dirty, &a);
      gst_buffer_unmap (out_clean, &b);
    }
  gst_buffer_unref (out_dirty);
  gst_buffer_unref (out_clean);
  texel_harness_teardown (h);
  g_free (caps);
}

GST_END_TEST;

static Suite *
hostile_suite (void)
{
  const TexelTest interlaced_tests[] = {
    TEXEL_LOOP_TEST (test_interlaced_refused, G_N_ELEMENTS (spatial)),
    TEXEL_LOOP_TEST (test_progressive_accepted, G_N_ELEMENTS (spatial)),
    TEXEL_TEST (test_interlaced_adjust_keeps_fields),
  };
  const TexelTest configuration_tests[] = {
    TEXEL_LOOP_TEST (test_config_error_once, G_N_ELEMENTS (config_errors)),
    TEXEL_LOOP_TEST (test_config_error_mid_stream, 3),
    TEXEL_TEST (test_crop_overflow_pipeline),
  };
  const TexelTest buffers_tests[] = {
    TEXEL_LOOP_TEST (test_drop_warning_says_why,
                     G_N_ELEMENTS (elements) * N_META),
  };
  const TexelTest sizes_tests[] = {
    TEXEL_LOOP_TEST (test_huge_frames_refused, G_N_ELEMENTS (elements)),
    TEXEL_TEST (test_huge_output_refused),
  };
  const TexelTest words_tests[] = {
    TEXEL_LOOP_TEST (test_stray_high_bits,
                     G_N_ELEMENTS (word_users)
                         * G_N_ELEMENTS (low_bit_formats)),
  };
  const TexelTCase tcases[] = {
    TEXEL_TCASE ("interlaced", 0, interlaced_tests),
    TEXEL_TCASE ("configuration", 120, configuration_tests),
    TEXEL_TCASE ("buffers", 0, buffers_tests),
    TEXEL_TCASE ("sizes", 0, sizes_tests),
    TEXEL_TCASE ("words", 0, words_tests),
  };

  return texel_suite_new_tcases ("hostile", tcases, G_N_ELEMENTS (tcases));
}

GST_CHECK_MAIN (hostile);
