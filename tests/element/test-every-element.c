/* gst-texel: what every element must do with bad input and with changes
 * while it runs, on the CPU path (no GPU needed; the GPU path shares the
 * base class, and its faults are tested in test-texelconvert-gpu.c):
 *
 *  - bad buffers (shorter than the caps, GstVideoMeta strides or offsets
 *    that leave the buffer): a message on the bus naming the problem,
 *    nothing pushed, nothing read outside the buffer (valgrind runs this
 *    suite in CI);
 *  - caps changing mid-stream, in size and in format: each frame comes
 *    out in the caps of its input (no leak: valgrind);
 *  - properties set from another thread while frames flow: every frame
 *    comes out, in order, with no error or warning on the bus;
 *  - `stats` read from another thread while the element starts and stops
 *    over and over (stop frees the GPU state the property reads);
 *  - a segment in BYTES (raw frames from a bare filesrc): frames come out,
 *    no critical warning;
 *  - an application that pushes one frame and waits for its result, with
 *    0 to 3 frames in flight (and in both memory modes on the GPU path):
 *    every frame comes out without a next input; and 100 PLAYING -> NULL
 *    cycles of a non-live appsrc, each pushing two frames and waiting for
 *    both at appsink (the time they take is printed).
 *
 * Each case runs for texelconvert, texeladjust, texelfilter and texelwarp,
 * each with settings that make it process frames (no passthrough).
 * TEXEL_TEST_BACKEND=cuda (or auto) runs the same cases on the GPU path
 * (by hand, on a machine with a GPU: scripts/gpu-check.sh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "texel-frames.h"

typedef struct
{
  const gchar *factory;
  /* Properties that make the element work on every frame. */
  const gchar *props;
  /* Two settings the concurrency test alternates between. */
  const gchar *changes[2];
} TexelElement;

static const TexelElement elements[] = {
  { "texelconvert",
    "video-direction=horiz",
    { "video-direction=vert method=nearest",
      "video-direction=horiz method=bicubic" } },
  { "texeladjust",
    "gamma=1.3",
    { "gamma=0.8 saturation=1.4", "gamma=1.3 saturation=1" } },
  { "texelfilter",
    "filter=gaussian sigma=1",
    { "sigma=2", "filter=bilateral sigma-space=1 sigma-range=0.1" } },
  /* A fisheye view: on the GPU it reads a map of input positions from a
   * plan's second frame on, and each setting below makes a new one. */
  { "texelwarp",
    "model=fisheye fx=40 fy=40 fov=90",
    { "pan=10 tilt=5 rotation=-20", "pan=-15 tilt=0 rotation=5" } },
};

/* The backend under test: TEXEL_TEST_BACKEND, else the CPU reference. */
static const gchar *
test_backend (void)
{
  const gchar *backend = g_getenv ("TEXEL_TEST_BACKEND");

  return backend && *backend ? backend : "cpu";
}

static GstHarness *
element_harness_new (const TexelElement *te)
{
  GstElement *e = gst_element_factory_make (te->factory, NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;

  fail_unless (e != NULL, "no %s (GST_PLUGIN_PATH_1_0=%s)", te->factory,
               GST_STR_NULL (g_getenv ("GST_PLUGIN_PATH_1_0")));
  gst_util_set_object_arg (G_OBJECT (e), "backend", test_backend ());
  texel_set_properties (G_OBJECT (e), te->props, FALSE);
  /* A bus of its own, so that its messages can be read. */
  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

/* ------------------------------------------------------------------ */
/* Bad buffers */

typedef enum
{
  BAD_TOO_SMALL,       /* shorter than the caps say */
  BAD_STRIDE_BEYOND,   /* a meta stride running past the end */
  BAD_STRIDE_SHORT,    /* a meta stride shorter than a row */
  BAD_OFFSET_NEAR_END, /* a meta plane offset leaving no room */
  N_BAD
} BadBuffer;

/* I420 16x8: planes of 128, 32 and 32 bytes at 0, 128 and 160. */
#define BAD_CAPS "video/x-raw,format=I420,width=16,height=8,framerate=30/1"

static GstBuffer *
make_bad_buffer (BadBuffer kind)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 128, 160 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 16, 8, 8 };
  GstBuffer *buf;

  switch (kind)
    {
      case BAD_TOO_SMALL:
        return gst_buffer_new_allocate (NULL, 100, NULL);
      case BAD_STRIDE_BEYOND:
        stride[0] = 4096;
        break;
      case BAD_STRIDE_SHORT:
        stride[1] = 2;
        break;
      case BAD_OFFSET_NEAR_END:
      default:
        offset[2] = 190;
        break;
    }
  buf = gst_buffer_new_allocate (NULL, 192, NULL);
  gst_buffer_memset (buf, 0, 0x80, 192);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
                                  GST_VIDEO_FORMAT_I420, 16, 8, 3, offset,
                                  stride);
  return buf;
}

/* Loop index: element * N_BAD + kind of bad buffer. */
GST_START_TEST (test_bad_buffers)
{
  static const struct
  {
    GstFlowReturn flow;
    GstMessageType type;
    const gchar *text;
  } expect[N_BAD] = {
    /* Dropped with a warning: the stream may go on. */
    { GST_FLOW_OK, GST_MESSAGE_WARNING,
      "Invalid video buffer dropped: 100 bytes, the caps need 192" },
    { GST_FLOW_ERROR, GST_MESSAGE_ERROR,
      "Invalid video frame layout: plane 0" },
    { GST_FLOW_ERROR, GST_MESSAGE_ERROR,
      "Invalid video frame layout: plane 1" },
    { GST_FLOW_ERROR, GST_MESSAGE_ERROR,
      "Invalid video frame layout: plane 2" },
  };
  const TexelElement *te = &elements[__i__ / N_BAD];
  BadBuffer kind = __i__ % N_BAD;
  GstHarness *h = element_harness_new (te);
  gchar *text;

  gst_harness_set_caps_str (h, BAD_CAPS, BAD_CAPS);
  fail_unless_equals_int (gst_harness_push (h, make_bad_buffer (kind)),
                          expect[kind].flow);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  text = bus_messages_text (h->element, expect[kind].type);
  fail_unless (strstr (text, expect[kind].text) != NULL,
               "%s, bad buffer %d: expected '%s' in: %s", te->factory, kind,
               expect[kind].text, text);
  g_free (text);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Caps changing mid-stream */

static GstBuffer *
make_frame (const GstVideoInfo *info, guint8 value)
{
  GstBuffer *buf
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);

  gst_buffer_memset (buf, 0, value, GST_VIDEO_INFO_SIZE (info));
  return buf;
}

GST_START_TEST (test_renegotiation)
{
  static const gchar *caps[] = {
    "video/x-raw,format=I420,width=16,height=8,framerate=30/1",
    "video/x-raw,format=NV12,width=24,height=12,framerate=30/1",
    "video/x-raw,format=RGBA,width=10,height=6,framerate=30/1",
    "video/x-raw,format=YUY2,width=6,height=3,framerate=30/1",
    "video/x-raw,format=I420,width=16,height=8,framerate=30/1",
  };
  const TexelElement *te = &elements[__i__];
  GstHarness *h = element_harness_new (te);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (caps); i++)
    {
      GstCaps *in_caps = gst_caps_from_string (caps[i]), *out_caps;
      GstVideoInfo in_info, out_info;
      GstBuffer *out;
      GstFlowReturn ret;

      fail_unless (gst_video_info_from_caps (&in_info, in_caps));
      gst_harness_set_src_caps (h, in_caps);
      ret = gst_harness_push (h, make_frame (&in_info, 40 + 30 * i));
      if (ret != GST_FLOW_OK)
        {
          gchar *text = bus_messages_text (
              h->element, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);

          fail ("%s, %s: push returned %s; bus: %s", te->factory, caps[i],
                gst_flow_get_name (ret), text);
          g_free (text);
        }
      out = gst_harness_pull (h);
      fail_unless (out != NULL, "%s, %s: no output", te->factory, caps[i]);
      out_caps = gst_pad_get_current_caps (h->sinkpad);
      fail_unless (out_caps != NULL
                   && gst_video_info_from_caps (&out_info, out_caps));
      /* Each element keeps format and size unless told otherwise. */
      fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&out_info),
                              GST_VIDEO_INFO_FORMAT (&in_info));
      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info),
                              GST_VIDEO_INFO_WIDTH (&in_info));
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info),
                              GST_VIDEO_INFO_HEIGHT (&in_info));
      fail_unless (gst_buffer_get_size (out)
                   >= GST_VIDEO_INFO_SIZE (&out_info));
      gst_caps_unref (out_caps);
      gst_buffer_unref (out);
    }
  texel_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Formats */

/* Raw video of @format, which the element does not take: the frame is
 * refused (not-negotiated), and a warning names the element and the
 * format (upstream's not-negotiated error names neither). */
static void
check_refused_format (const TexelElement *te, const gchar *format)
{
  GstHarness *h = element_harness_new (te);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=16,height=8,"
                                 "framerate=30/1",
                                 format);
  gchar *want
      = g_strdup_printf ("%s does not take format %s", te->factory, format);
  GstVideoInfo info;
  GstFlowReturn ret;
  gchar *text;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), 16,
                             8);
  gst_harness_set_src_caps_str (h, caps);
  ret = gst_harness_push (h, make_frame (&info, 40));
  fail_unless_equals_int (ret, GST_FLOW_NOT_NEGOTIATED);
  text = bus_messages_text (h->element, GST_MESSAGE_WARNING);
  fail_unless (strstr (text, want) != NULL, "%s: \"%s\" not in %s", te->factory,
               want, text);
  g_free (text);
  g_free (want);
  g_free (caps);
  texel_harness_teardown (h);
}

/* GRAY16_LE through the element: one frame out in that format. */
static void
check_gray16 (const TexelElement *te)
{
  GstHarness *h = element_harness_new (te);
  const gchar *caps
      = "video/x-raw,format=GRAY16_LE,width=16,height=8,framerate=30/1";
  GstVideoInfo info, out_info;
  GstBuffer *out;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY16_LE, 16, 8);
  gst_harness_set_caps_str (h, caps, caps);
  out = texel_push_pull (h, make_frame (&info, 90));
  fail_unless (out != NULL, "%s: no GRAY16_LE frame", te->factory);
  texel_harness_out_info (h, &out_info);
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&out_info),
                          GST_VIDEO_FORMAT_GRAY16_LE);
  gst_buffer_unref (out);
  texel_harness_teardown (h);
}

/* 12-bit video is refused by every element, GRAY16_LE by those whose
 * kernels stop at 10 bits (texeladjust, texelfilter). */
GST_START_TEST (test_formats_taken)
{
  const TexelElement *te = &elements[__i__];

  check_refused_format (te, "I420_12LE");
  if (g_str_equal (te->factory, "texeladjust")
      || g_str_equal (te->factory, "texelfilter"))
    check_refused_format (te, "GRAY16_LE");
  else
    check_gray16 (te);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Properties set from another thread while frames flow */

#define CONCURRENT_FRAMES 240
/* Start/stop cycles while another thread reads stats. */
#define STATE_CYCLES 20

typedef struct
{
  gint frames;
  GstClockTime last_pts;
  gboolean in_order;
} Arrivals;

static void
on_handoff (GstElement *sink, GstBuffer *buf, GstPad *pad, Arrivals *a)
{
  /* One streaming thread writes these; they are read once it has
   * stopped. */
  if (a->frames > 0 && GST_BUFFER_PTS (buf) <= a->last_pts)
    a->in_order = FALSE;
  a->last_pts = GST_BUFFER_PTS (buf);
  a->frames++;
}

GST_START_TEST (test_properties_from_another_thread)
{
  const TexelElement *te = &elements[__i__];
  gchar *desc = g_strdup_printf (
      "videotestsrc num-buffers=%d pattern=ball ! "
      "video/x-raw,format=NV12,width=64,height=48,framerate=30/1 ! "
      "%s name=e backend=%s %s ! fakesink name=sink sync=false",
      CONCURRENT_FRAMES, te->factory, test_backend (), te->props);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *element, *sink;
  Arrivals arrivals = { 0, 0, TRUE };
  GstBus *bus;
  GstMessage *msg = NULL;
  guint changes = 0;

  fail_unless (pipeline != NULL, "%s", desc);
  element = gst_bin_get_by_name (GST_BIN (pipeline), "e");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (sink, "signal-handoffs", TRUE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &arrivals);
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
               != GST_STATE_CHANGE_FAILURE);
  /* This thread changes the element's settings while the streaming thread
   * processes frames, until the stream ends. */
  while (!msg)
    {
      texel_set_properties (G_OBJECT (element), te->changes[changes++ % 2],
                            FALSE);
      msg = gst_bus_timed_pop_filtered (bus, GST_MSECOND,
                                        GST_MESSAGE_EOS | GST_MESSAGE_ERROR
                                            | GST_MESSAGE_WARNING);
    }
  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    {
      GError *err = NULL;

      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
        gst_message_parse_error (msg, &err, NULL);
      else
        gst_message_parse_warning (msg, &err, NULL);
      fail ("%s: %s after %u changes", te->factory, err->message, changes);
      g_clear_error (&err);
    }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (arrivals.frames, CONCURRENT_FRAMES);
  fail_unless (arrivals.in_order, "%s: frames out of order", te->factory);
  fail_unless (changes > 1, "%s: no change while playing", te->factory);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (element);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* Reads the element's stats until told to stop; counts the reads. */
typedef struct
{
  GstElement *element;
  gint stop;
  gint reads; /* atomic: the main thread waits for one */
  gboolean missing_field;
} StatsReader;

static gpointer
read_stats_in_loop (gpointer data)
{
  StatsReader *r = data;

  while (!g_atomic_int_get (&r->stop))
    {
      GstStructure *stats = NULL;
      guint64 frames;

      g_object_get (r->element, "stats", &stats, NULL);
      if (!stats || !gst_structure_get_uint64 (stats, "frames", &frames))
        r->missing_field = TRUE;
      if (stats)
        gst_structure_free (stats);
      g_atomic_int_inc (&r->reads);
    }
  return NULL;
}

GST_START_TEST (test_stats_while_cycling_states)
{
  const TexelElement *te = &elements[__i__];
  gchar *desc = g_strdup_printf (
      "videotestsrc pattern=ball ! "
      "video/x-raw,format=NV12,width=64,height=48,framerate=30/1 ! "
      "%s name=e backend=%s %s ! fakesink sync=false",
      te->factory, test_backend (), te->props);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  StatsReader reader = {
    0,
  };
  GThread *thread;
  GstStructure *stats = NULL;
  guint64 frames = 0;
  gint cycle;

  fail_unless (pipeline != NULL, "%s", desc);
  reader.element = gst_bin_get_by_name (GST_BIN (pipeline), "e");
  thread = g_thread_new ("stats-reader", read_stats_in_loop, &reader);
  /* At least STATE_CYCLES cycles, and on until the reader has read once
   * (on a loaded machine its thread may not have run yet). */
  for (cycle = 0;
       cycle < STATE_CYCLES
       || (g_atomic_int_get (&reader.reads) == 0 && cycle < 100 * STATE_CYCLES);
       cycle++)
    {
      fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
                   != GST_STATE_CHANGE_FAILURE);
      fail_unless (
          gst_element_get_state (pipeline, NULL, NULL, GST_CLOCK_TIME_NONE)
          == GST_STATE_CHANGE_SUCCESS);
      /* PAUSED -> READY: the element stops and frees its state. */
      fail_unless (gst_element_set_state (pipeline, GST_STATE_READY)
                   == GST_STATE_CHANGE_SUCCESS);
    }
  g_atomic_int_set (&reader.stop, 1);
  g_thread_join (thread);
  fail_if (reader.missing_field, "%s: stats without frames", te->factory);
  fail_unless (g_atomic_int_get (&reader.reads) > 0);
  /* Stopped, the element still reports its last run. */
  g_object_get (reader.element, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, "frames", &frames));
  fail_unless (frames > 0, "%s: no frames counted", te->factory);
  gst_structure_free (stats);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (reader.element);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* A segment in BYTES (a bare filesrc in front, as for raw frames read
 * from a file): frames come out, and no critical warning is raised
 * (gstcheck fails the test on one) by asking such a segment for stream
 * time to drive controllable properties. */
GST_START_TEST (test_bytes_segment)
{
  const TexelElement *te = &elements[__i__];
  GstHarness *h = element_harness_new (te);
  GstVideoInfo info;
  GstSegment segment;
  GstBuffer *out;

  gst_harness_set_caps_str (
      h, "video/x-raw,format=I420,width=16,height=8,framerate=30/1",
      "video/x-raw,format=I420,width=16,height=8,framerate=30/1");
  gst_segment_init (&segment, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 16, 8);
  out = texel_push_pull (h, make_frame (&info, 90));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Frames held in flight */

/* How long a test waits for a frame before it counts as held back. */
#define HELD_TIMEOUT (5 * G_TIME_SPAN_SECOND)
#define HELD_CAPS "video/x-raw,format=NV12,width=64,height=48,framerate=30/1"

/* The next output within HELD_TIMEOUT, or NULL. */
static GstBuffer *
pull_within_timeout (GstHarness *h)
{
  gint64 end = g_get_monotonic_time () + HELD_TIMEOUT;
  GstBuffer *out;

  while ((out = gst_harness_try_pull (h)) == NULL
         && g_get_monotonic_time () < end)
    g_usleep (500);
  return out;
}

/* The memory modes a case runs in: both on the GPU path, the one there
 * is on the CPU path. */
static const gchar *const *
memory_modes (void)
{
  static const gchar *const gpu[] = { "staged", "zero-copy", NULL };
  static const gchar *const cpu[] = { "auto", NULL };

  return g_str_equal (test_backend (), "cpu") ? cpu : gpu;
}

/* Loop index: element. Push one frame, wait for its result, again: with
 * 0 to 3 frames in flight each frame comes out without a next input. */
GST_START_TEST (test_push_one_pull_one)
{
  const TexelElement *te = &elements[__i__];
  const gchar *const *modes = memory_modes ();
  GstVideoInfo info;
  gint depth, m, i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  for (m = 0; modes[m]; m++)
    {
      for (depth = 0; depth <= 3; depth++)
        {
          GstHarness *h = element_harness_new (te);

          g_object_set (h->element, "frames-in-flight", depth, NULL);
          gst_util_set_object_arg (G_OBJECT (h->element), "memory-mode",
                                   modes[m]);
          gst_harness_set_caps_str (h, HELD_CAPS, HELD_CAPS);
          for (i = 0; i < 3; i++)
            {
              GstBuffer *in = make_frame (&info, 40 + 50 * i), *out;

              GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
              fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
              out = pull_within_timeout (h);
              fail_unless (out != NULL,
                           "%s backend=%s memory-mode=%s "
                           "frames-in-flight=%d: frame %d held back without a "
                           "next input",
                           te->factory, test_backend (), modes[m], depth, i);
              fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
                                         i * GST_SECOND / 30);
              gst_buffer_unref (out);
            }
          fail_unless (gst_harness_try_pull (h) == NULL, "an extra frame");
          texel_harness_teardown (h);
        }
    }
}

GST_END_TEST;

/* TEXEL_HELD_CYCLES (default 100): fewer under compute-sanitizer. */
static gint
held_cycles (void)
{
  const gchar *env = g_getenv ("TEXEL_HELD_CYCLES");

  return env ? atoi (env) : 100;
}

/* Pushes two frames into @pipeline's appsrc and waits for both at its
 * appsink; FALSE if one did not come. */
static gboolean
push_two_pull_two (GstElement *pipeline, const GstVideoInfo *info)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gboolean all = TRUE;
  gint i;

  for (i = 0; i < 2; i++)
    {
      GstBuffer *in = make_frame (info, 60 + 40 * i);
      GstFlowReturn ret;

      GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
      GST_BUFFER_DURATION (in) = GST_SECOND / 30;
      g_signal_emit_by_name (src, "push-buffer", in, &ret);
      gst_buffer_unref (in);
      fail_unless_equals_int (ret, GST_FLOW_OK);
    }
  for (i = 0; i < 2 && all; i++)
    {
      GstSample *sample = NULL;

      g_signal_emit_by_name (sink, "try-pull-sample",
                             (GstClockTime)HELD_TIMEOUT * GST_USECOND, &sample);
      all = sample != NULL;
      if (sample)
        gst_sample_unref (sample);
    }
  gst_object_unref (src);
  gst_object_unref (sink);
  return all;
}

/* Loop index: element. A non-live appsrc (frames-in-flight's automatic
 * choice keeps frames back there) pushes two frames and the application
 * waits for both, then the pipeline goes to NULL and back, 100 times,
 * in each memory mode. */
GST_START_TEST (test_state_cycles_with_frames)
{
  const TexelElement *te = &elements[__i__];
  const gchar *const *modes = memory_modes ();
  GstVideoInfo info;
  gint m, cycle, cycles = held_cycles ();

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  for (m = 0; modes[m]; m++)
    {
      gchar *desc = g_strdup_printf (
          "appsrc name=src format=time "
          "caps=\"" HELD_CAPS "\" ! %s backend=%s memory-mode=%s %s ! "
          "appsink name=sink sync=false",
          te->factory, test_backend (), modes[m], te->props);
      GstElement *pipeline = gst_parse_launch (desc, NULL);
      gint64 start = g_get_monotonic_time ();

      fail_unless (pipeline != NULL, "%s", desc);
      for (cycle = 0; cycle < cycles; cycle++)
        {
          fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
                       != GST_STATE_CHANGE_FAILURE);
          fail_unless (push_two_pull_two (pipeline, &info),
                       "%s: cycle %d: a frame was held back", desc, cycle);
          fail_unless_equals_int (
              gst_element_set_state (pipeline, GST_STATE_NULL),
              GST_STATE_CHANGE_SUCCESS);
        }
      g_print ("%s backend=%s memory-mode=%s: %d cycles of two frames in "
               "%.1f ms\n",
               te->factory, test_backend (), modes[m], cycles,
               (g_get_monotonic_time () - start) / 1000.0);
      gst_object_unref (pipeline);
      g_free (desc);
    }
}

GST_END_TEST;

static Suite *
every_element_suite (void)
{
  const TexelTest bad_input_tests[] = {
    TEXEL_LOOP_TEST (test_bad_buffers, G_N_ELEMENTS (elements) * N_BAD),
    TEXEL_LOOP_TEST (test_renegotiation, G_N_ELEMENTS (elements)),
    TEXEL_LOOP_TEST (test_bytes_segment, G_N_ELEMENTS (elements)),
    TEXEL_LOOP_TEST (test_formats_taken, G_N_ELEMENTS (elements)),
  };
  const TexelTest concurrency_tests[] = {
    TEXEL_LOOP_TEST (test_properties_from_another_thread,
                     G_N_ELEMENTS (elements)),
    TEXEL_LOOP_TEST (test_stats_while_cycling_states, G_N_ELEMENTS (elements)),
  };
  const TexelTest held_frames_tests[] = {
    TEXEL_LOOP_TEST (test_push_one_pull_one, G_N_ELEMENTS (elements)),
    TEXEL_LOOP_TEST (test_state_cycles_with_frames, G_N_ELEMENTS (elements)),
  };
  const TexelTCase tcases[] = {
    TEXEL_TCASE ("bad-input", 120, bad_input_tests),
    TEXEL_TCASE ("concurrency", 240, concurrency_tests),
    TEXEL_TCASE ("held-frames", 240, held_frames_tests),
  };

  return texel_suite_new_tcases ("every-element", tcases,
                                 G_N_ELEMENTS (tcases));
}

GST_CHECK_MAIN (every_element);
