/* gst-texel: texelconvert's video-direction property as users meet it.
 *
 * The GstVideoDirection interface's property, installed by the element:
 * gst-inspect shows it controllable and changeable in PLAYING, its blurb
 * says what each value does, custom (which has no meaning here) is
 * refused with a warning, and a change while PLAYING applies from the
 * next frame (CPU path, GRAY8: a 1:1 geometry copies samples exactly).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "texel-frames.h"

#define SIZE 4

GST_START_TEST (test_direction_pspec)
{
  GstElement *e = gst_element_factory_make ("texelconvert", NULL);
  GParamSpec *ps;
  static const gchar *nicks[] = { "identity", "90r",   "180",   "90l", "horiz",
                                  "vert",     "ul-lr", "ur-ll", "auto" };
  guint i;

  fail_unless (GST_IS_VIDEO_DIRECTION (e));
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "video-direction");
  fail_unless (ps != NULL && G_IS_PARAM_SPEC_ENUM (ps));
  fail_unless (ps->value_type == GST_TYPE_VIDEO_ORIENTATION_METHOD);
  fail_unless (ps->flags & GST_PARAM_CONTROLLABLE, "not controllable");
  fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING,
               "not changeable in PLAYING");
  for (i = 0; i < G_N_ELEMENTS (nicks); i++)
    fail_unless (strstr (g_param_spec_get_blurb (ps), nicks[i]) != NULL,
                 "the blurb does not explain %s", nicks[i]);

  g_object_set (e, "video-direction", GST_VIDEO_ORIENTATION_90L, NULL);
  ASSERT_WARNING (
      g_object_set (e, "video-direction", GST_VIDEO_ORIENTATION_CUSTOM, NULL));
  ASSERT_WARNING (
      gst_util_set_object_arg (G_OBJECT (e), "video-direction", "custom"));
  {
    gint v;

    g_object_get (e, "video-direction", &v, NULL);
    fail_unless_equals_int (v, GST_VIDEO_ORIENTATION_90L);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* Sample (x, y) of a SIZE x SIZE frame: all distinct. */
static guint
code_at (gpointer unused, guint c, gint x, gint y, guint max)
{
  return 10 + y * SIZE + x;
}

/* Where output sample (x, y) comes from for @m on a square frame. */
static void
source_of (GstVideoOrientationMethod m, gint x, gint y, gint *sx, gint *sy)
{
  const gint n = SIZE - 1;

  switch (m)
    {
      case GST_VIDEO_ORIENTATION_HORIZ:
        *sx = n - x, *sy = y;
        break;
      case GST_VIDEO_ORIENTATION_VERT:
        *sx = x, *sy = n - y;
        break;
      case GST_VIDEO_ORIENTATION_90R:
        *sx = y, *sy = n - x;
        break;
      case GST_VIDEO_ORIENTATION_180:
        *sx = n - x, *sy = n - y;
        break;
      default:
        *sx = x, *sy = y;
        break;
    }
}

/* Changes while PLAYING (the element out of passthrough: the first
 * direction is not the identity) apply from the next frame. */
GST_START_TEST (test_direction_while_playing)
{
  static const GstVideoOrientationMethod steps[] = {
    GST_VIDEO_ORIENTATION_HORIZ,
    GST_VIDEO_ORIENTATION_VERT,
    GST_VIDEO_ORIENTATION_90R,
    GST_VIDEO_ORIENTATION_180,
  };
  gchar *caps = g_strdup_printf ("video/x-raw,format=GRAY8,width=%d,"
                                 "height=%d,framerate=30/1",
                                 SIZE, SIZE);
  GstVideoInfo info;
  GstHarness *h = gst_harness_new ("texelconvert");
  guint i;
  gint x, y;

  info = texel_video_info_from_caps_string (caps);
  gst_util_set_object_arg (G_OBJECT (h->element), "backend", "cpu");
  g_object_set (h->element, "video-direction", steps[0], NULL);
  gst_harness_set_caps_str (h, caps, caps);
  for (i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      GstBuffer *out;
      GstVideoFrame f;

      g_object_set (h->element, "video-direction", steps[i], NULL);
      out = texel_push_pull (h, texel_buffer_new_filled (&info, code_at, NULL,
                                                         i * GST_SECOND / 30));
      fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
      for (y = 0; y < SIZE; y++)
        for (x = 0; x < SIZE; x++)
          {
            gint sx, sy;

            source_of (steps[i], x, y, &sx, &sy);
            fail_unless_equals_int (frame_get (&f, 0, x, y),
                                    code_at (NULL, 0, sx, sy, 255));
          }
      gst_video_frame_unmap (&f);
      gst_buffer_unref (out);
    }
  texel_harness_teardown (h);
  g_free (caps);
}

GST_END_TEST;

static Suite *
texelconvert_direction_suite (void)
{
  const TexelTest general_tests[] = {
    TEXEL_TEST (test_direction_pspec),
    TEXEL_TEST (test_direction_while_playing),
  };

  return texel_suite_new ("texelconvert-direction", "general", 60,
                          general_tests, G_N_ELEMENTS (general_tests));
}

int
main (int argc, char **argv)
{
  return texel_check_run (&argc, &argv, texelconvert_direction_suite,
                          "texelconvert-direction", __FILE__);
}
