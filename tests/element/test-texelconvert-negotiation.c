/* gst-texel: texelconvert as a stand-in for videoscale: the size and
 * pixel-aspect-ratio it negotiates (issue 27, item 9).
 *
 * The cases of GStreamer 1.22's own videoscale suite
 * (gst-plugins-base tests/check/elements/videoscale.c: test_negotiation,
 * test_basetransform_negotiation, test_negotiate_alternate), written
 * again for texelconvert on the CPU path, in formats it takes; and that
 * where the display aspect ratio is kept by the size or the PAR chosen,
 * no border is baked into the picture.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "texel-frames.h"

/* The caps videotestsrc ! @src_caps ! texelconvert backend=cpu @props !
 * @sink_caps ! fakesink settles on once prerolled (free them). */
static GstCaps *
negotiated_caps (const gchar *src_caps, const gchar *props,
                 const gchar *sink_caps)
{
  gchar *line = g_strdup_printf (
      "videotestsrc num-buffers=1 pattern=2 ! "
      "%s ! texelconvert backend=cpu %s ! capsfilter name=out caps=\"%s\" ! "
      "fakesink",
      src_caps, props, sink_caps);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (line, &err);
  GstElement *out;
  GstPad *pad;
  GstCaps *caps;

  fail_unless (pipeline != NULL, "%s: %s", line, err ? err->message : "");
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
                          GST_STATE_CHANGE_ASYNC);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL, 30 * GST_SECOND)
                   == GST_STATE_CHANGE_SUCCESS,
               "%s: no preroll", line);
  out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  pad = gst_element_get_static_pad (out, "sink");
  caps = gst_pad_get_current_caps (pad);
  fail_unless (caps != NULL, "%s: no caps", line);
  gst_object_unref (pad);
  gst_object_unref (out);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
                          GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
  g_free (line);
  return caps;
}

/* The output is @width x @height at @par_n/@par_d (caps without a
 * pixel-aspect-ratio stand for 1/1). */
static void
check_negotiation_with (const gchar *props, const gchar *src_caps,
                        const gchar *sink_caps, gint width, gint height,
                        gint par_n, gint par_d)
{
  GstCaps *caps = negotiated_caps (src_caps, props, sink_caps);
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint w = 0, h = 0, n = 1, d = 1;

  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  if (!gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d))
    fail_unless (par_n == par_d,
                 "%s -> %s: no pixel-aspect-ratio, %d/%d "
                 "expected",
                 src_caps, sink_caps, par_n, par_d);
  fail_unless (w == width && h == height && n == par_n && d == par_d,
               "%s -> %s: %dx%d at %d/%d, expected %dx%d at %d/%d", src_caps,
               sink_caps, w, h, n, d, width, height, par_n, par_d);
  gst_caps_unref (caps);
}

#define check_negotiation(...) check_negotiation_with ("", __VA_ARGS__)

GST_START_TEST (test_negotiation)
{
  /* A fixed size and no PAR downstream: the PAR that keeps the display
   * aspect ratio. */
  check_negotiation (
      "video/x-raw,format=I420,width=720,height=576,pixel-aspect-ratio=16/15",
      "video/x-raw,format=I420,width=768,height=576", 768, 576, 1, 1);
  check_negotiation ("video/x-raw,format=I420,width=320,height=240",
                     "video/x-raw,format=I420,width=640,height=320", 640, 320,
                     2, 3);
  check_negotiation ("video/x-raw,format=I420,width=320,height=240",
                     "video/x-raw,format=I420,width=640,height=320,"
                     "pixel-aspect-ratio=[0/1,1/1]",
                     640, 320, 2, 3);
  /* Bounded sizes at square pixels: the largest picture that fits. */
  check_negotiation (
      "video/x-raw,format=I420,width=1920,height=2560,pixel-aspect-ratio=1/1",
      "video/x-raw,format=I420,width=[1,2048],height=[1,2048],"
      "pixel-aspect-ratio=1/1",
      1536, 2048, 1, 1);
  /* Bounded sizes, any PAR: the source's width kept, the PAR stretched. */
  check_negotiation (
      "video/x-raw,format=I420,width=1920,height=2560,pixel-aspect-ratio=1/1",
      "video/x-raw,format=I420,width=[1,2048],height=[1,2048]", 1920, 2048, 4,
      5);
  check_negotiation ("video/x-raw,format=I420,width=1920,height=2560",
                     "video/x-raw,format=I420,width=[1,2048],height=[1,2048]",
                     1920, 2048, 4, 5);
  /* The width fixed, the PAR too: the height follows. */
  check_negotiation ("video/x-raw,format=I420,width=1920,height=2560",
                     "video/x-raw,format=I420,width=1200,height=[1,2048],"
                     "pixel-aspect-ratio=1/1",
                     1200, 1600, 1, 1);
  /* Everything fixed: the display aspect ratio cannot be kept, but the
   * link must still come up (letterboxed). */
  check_negotiation (
      "video/x-raw,format=I420,width=320,height=240,pixel-aspect-ratio=1/1",
      "video/x-raw,format=I420,width=200,height=200,pixel-aspect-ratio=1/2",
      200, 200, 1, 2);
  /* Stepped ranges. */
  check_negotiation ("video/x-raw,format=I420,width=854,height=480",
                     "video/x-raw,format=I420,width=[2,512,2],height=[2,512,2],"
                     "pixel-aspect-ratio=1/1",
                     512, 288, 1, 1);
}

GST_END_TEST;

/* The cases, with what texelconvert adds: crops and rotations
 * change the picture whose display aspect ratio is kept. */
GST_START_TEST (test_negotiation_texel)
{
  check_negotiation (
      "video/x-raw,format=RGBA,width=854,height=480",
      "video/x-raw,format=RGBA,width=[1,512],pixel-aspect-ratio=1/1", 512, 288,
      1, 1);
  /* Rotated, 480x854 becomes the 854x480 picture of the case above. */
  check_negotiation_with (
      "video-direction=90r", "video/x-raw,format=RGBA,width=480,height=854",
      "video/x-raw,format=RGBA,width=[1,512],pixel-aspect-ratio=1/1", 512, 288,
      1, 1);
  /* Cropped to 640x480 (4:3) first: the PAR that shows it at 640x320. */
  check_negotiation_with ("crop-left=100 crop-right=114",
                          "video/x-raw,format=RGBA,width=854,height=480",
                          "video/x-raw,format=RGBA,width=640,height=320", 640,
                          320, 2, 3);
}

GST_END_TEST;

static const guint8 colour[4] = { 200, 100, 50, 255 };

static guint8 *
rgba_pixel (GstVideoFrame *f, gint x, gint y)
{
  return (guint8 *)GST_VIDEO_FRAME_PLANE_DATA (f, 0)
         + y * GST_VIDEO_FRAME_PLANE_STRIDE (f, 0) + x * 4;
}

/* A frame of @colour in @in through texelconvert @props into @out comes
 * out with no border colour (black) in it; returns the output's info. */
static void
check_no_borders (const gchar *props, const gchar *in, const gchar *out,
                  GstVideoInfo *out_info)
{
  GstElement *e = texel_test_element_new ("texelconvert", props);
  GstHarness *h = texel_harness_new_with (e);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  GstBuffer *buf
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&in_info), NULL);
  GstVideoFrame f;
  gint x, y, bad_x = -1, bad_y = -1;
  guint c;

  /* RGBA in and out: bytes read and written directly (a frame of
   * millions of pixels). */
  fail_unless (GST_VIDEO_INFO_FORMAT (&in_info) == GST_VIDEO_FORMAT_RGBA);
  fail_unless (gst_video_frame_map (&f, &in_info, buf, GST_MAP_WRITE));
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (&in_info); y++)
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (&in_info); x++)
      for (c = 0; c < 4; c++)
        rgba_pixel (&f, x, y)[c] = colour[c];
  gst_video_frame_unmap (&f);

  gst_harness_set_caps_str (h, in, out);
  buf = texel_push_pull (h, buf);
  texel_harness_out_info (h, out_info);
  fail_unless (GST_VIDEO_INFO_FORMAT (out_info) == GST_VIDEO_FORMAT_RGBA);
  fail_unless (gst_video_frame_map (&f, out_info, buf, GST_MAP_READ));
  /* One check at the end: each fail_unless is a checkpoint of its own. */
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (out_info) && bad_x < 0; y++)
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (out_info) && bad_x < 0; x++)
      for (c = 0; c < 3; c++)
        if (ABS ((gint)rgba_pixel (&f, x, y)[c] - (gint)colour[c]) > 1)
          {
            bad_x = x;
            bad_y = y;
          }
  fail_unless (bad_x < 0,
               "%s -> %s: (%d, %d) is (%u, %u, %u), not the "
               "picture's colour (a border?)",
               in, out, bad_x, bad_y, rgba_pixel (&f, bad_x, bad_y)[0],
               rgba_pixel (&f, bad_x, bad_y)[1],
               rgba_pixel (&f, bad_x, bad_y)[2]);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);
  texel_harness_teardown (h);
}

/* The three cases: the picture fills the frame, with either
 * add-borders. */
GST_START_TEST (test_no_borders_baked_in)
{
  const gchar *props[] = { "backend=cpu", "backend=cpu add-borders=false" };
  GstVideoInfo info;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++)
    {
      check_no_borders (
          props[i],
          "video/x-raw,format=RGBA,width=854,height=480,framerate=30/1,"
          "pixel-aspect-ratio=1/1",
          "video/x-raw,format=RGBA,width=[1,512],pixel-aspect-ratio=1/1",
          &info);
      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), 512);
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), 288);

      check_no_borders (
          props[i],
          "video/x-raw,format=RGBA,width=320,height=240,framerate=30/1,"
          "pixel-aspect-ratio=1/1",
          "video/x-raw,format=RGBA,width=640,height=320", &info);
      fail_unless_equals_int (GST_VIDEO_INFO_PAR_N (&info), 2);
      fail_unless_equals_int (GST_VIDEO_INFO_PAR_D (&info), 3);

      check_no_borders (
          props[i],
          "video/x-raw,format=RGBA,width=1920,height=2560,framerate=30/1,"
          "pixel-aspect-ratio=1/1",
          "video/x-raw,format=RGBA,width=[1,2048],height=[1,2048]", &info);
      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), 1920);
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), 2048);
      fail_unless_equals_int (GST_VIDEO_INFO_PAR_N (&info), 4);
      fail_unless_equals_int (GST_VIDEO_INFO_PAR_D (&info), 5);
    }
}

GST_END_TEST;

/* Same caps but for the pixel-aspect-ratio on either side: the stream
 * runs to the end. */
GST_START_TEST (test_basetransform_negotiation)
{
  const gchar *line
      = "videotestsrc num-buffers=3 ! "
        "video/x-raw,format=UYVY,width=352,height=288,framerate=30/1,"
        "pixel-aspect-ratio=1/1 ! texelconvert backend=cpu ! "
        "video/x-raw,format=UYVY,width=352,height=288,framerate=30/1,"
        "pixel-aspect-ratio=12/11 ! fakesink";

  texel_run_launch_lines (&line, 1, 60 * GST_SECOND);
}

GST_END_TEST;

/* videoscale takes interlace-mode=alternate on both sides; texelconvert
 * is progressive only (docs/elements/texelconvert.md) and refuses all
 * three, the first two as videoscale does. */
GST_START_TEST (test_negotiate_alternate)
{
  const gchar *cases[][2] = {
    { "video/x-raw(format:Interlaced),interlace-mode=alternate,width=1,"
      "height=2,format=ARGB",
      "video/x-raw,width=1,height=1,format=ARGB" },
    { "video/x-raw,interlace-mode=alternate,width=1,height=2,format=ARGB",
      "video/x-raw(format:Interlaced),width=1,height=1,format=ARGB" },
    { "video/x-raw(format:Interlaced),interlace-mode=alternate,width=1,"
      "height=2,format=ARGB",
      "video/x-raw(format:Interlaced),"
      "interlace-mode=alternate,width=1,height=1,format=ARGB" },
  };
  GstElement *e = texel_test_element_new ("texelconvert", "backend=cpu");
  GstHarness *h = texel_harness_new_with (e);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gst_harness_set_sink_caps_str (h, cases[i][1]);
      gst_harness_set_src_caps_str (h, cases[i][0]);
      fail_unless_equals_int (
          gst_harness_push (h, gst_buffer_new_allocate (NULL, 4, NULL)),
          GST_FLOW_NOT_NEGOTIATED);
    }
  texel_harness_teardown (h);
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  const TexelTest tests[] = {
    TEXEL_TEST (test_negotiation),
    TEXEL_TEST (test_negotiation_texel),
    TEXEL_TEST (test_no_borders_baked_in),
    TEXEL_TEST (test_basetransform_negotiation),
    TEXEL_TEST (test_negotiate_alternate),
  };

  texel_check_init (&argc, &argv);
  return gst_check_run_suite (texel_suite_new ("texelconvert-negotiation",
                                               "negotiation", 120, tests,
                                               G_N_ELEMENTS (tests)),
                              "texelconvert-negotiation", __FILE__);
}
