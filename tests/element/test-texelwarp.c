/* gst-texel: element tests for texelwarp on the CPU path.
 *
 * Runs without a GPU (backend=cpu): outputs are compared with the kernel
 * library's CPU reference run on the same frames with the same
 * parameters, within the bound of the element's fast CPU path
 * (texel-warp-fast.h: 1 code for bilinear, exact for nearest and for the
 * plans it leaves to the reference). Also:
 * properties (ranges, flags, NaN refused, the array properties),
 * passthrough, calibration files (good ones set the camera; broken ones
 * give an element error naming the file and the field), a camera model
 * without a camera, changes while PLAYING taking effect on the next
 * frame, a GstController sweeping pan, and gst-launch lines.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <gmodule.h>
#ifdef HAVE_GST_CONTROLLER
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#endif

#include "opencv-rectify.h"
#include "texel-calib.h"
#include "texel-frames.h"
#include "texel-warp.h"
#include "texel-warp-fast.h"

#define CALIB(name) TEXEL_CALIB_DIR "/" name

/* The numeric properties: name, minimum, maximum, default. */
static const struct
{
  const gchar *name;
  gdouble min, max, def;
} doubles[] = {
  { "fx", 0, 1e6, 0 },          { "fy", 0, 1e6, 0 },
  { "cx", -1, 1e6, -1 },        { "cy", -1, 1e6, -1 },
  { "k1", -1000, 1000, 0 },     { "k2", -1000, 1000, 0 },
  { "k3", -1000, 1000, 0 },     { "k4", -1000, 1000, 0 },
  { "k5", -1000, 1000, 0 },     { "k6", -1000, 1000, 0 },
  { "p1", -1000, 1000, 0 },     { "p2", -1000, 1000, 0 },
  { "alpha", 0, 1, 0 },         { "fov", 0, 360, 0 },
  { "pan", -180, 180, 0 },      { "tilt", -180, 180, 0 },
  { "rotation", -360, 360, 0 }, { "scale", 0.01, 100, 1 },
  { "offset-x", -10, 10, 0 },   { "offset-y", -10, 10, 0 },
};

/* ------------------------------------------------------------------ */
/* Helpers */

static gchar *
make_caps (const gchar *format, gint width, gint height)
{
  return texel_caps_new (format, width, height,
                         "colorimetry=bt709,chroma-site=mpeg2", NULL);
}

/* A smooth pattern plus noise: every code used, and structure to move. */
static guint
pattern_code (gpointer rand, guint c, gint x, gint y, guint max)
{
  return (guint)((x * 7 + y * 3 + c * 50 + g_rand_int_range (rand, 0, 20))
                 % (max + 1));
}

static GstBuffer *
make_buffer (const GstVideoInfo *info, GRand *rand, GstClockTime pts)
{
  return texel_buffer_new_filled (info, pattern_code, rand, pts);
}

/* The caps of make_caps () as the kernels take them. */
static void
colorimetry_for (TexelColorimetry *c, const GstVideoInfo *info)
{
  memset (c, 0, sizeof (*c));
  if (GST_VIDEO_INFO_IS_RGB (info))
    {
      c->matrix = TEXEL_MATRIX_RGB;
      c->full_range = 1;
      return;
    }
  c->matrix = TEXEL_MATRIX_BT709;
  c->full_range = 0;
  c->chroma_h_cosited = 1; /* mpeg2: left-cosited, vertically centred */
}

/* The @n values (9 at most) of array property @name; returns @n. */
static guint
array_values (GstElement *e, const gchar *name, gdouble *values)
{
  GValue v = G_VALUE_INIT;
  guint i, n;

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), name, &v);
  n = gst_value_array_get_size (&v);
  fail_unless (n <= 9);
  for (i = 0; i < n; i++)
    values[i] = g_value_get_double (gst_value_array_get_value (&v, i));
  g_value_unset (&v);
  return n;
}

/* The element's parameters, read back from it (after it resolved a
 * calibration file or arrays), as a config for the CPU reference.
 * new-camera=auto is taken as the new-camera-matrix where one is set and
 * alpha is 0 (no test here sets alpha=0 explicitly). */
static void
config_from_element (GstElement *e, TexelWarpConfig *cfg)
{
  gint model, border, method, projection, new_camera;
  gdouble m[9];
  guint argb;

  texel_warp_config_init (cfg);
  g_object_get (
      e, "model", &model, "projection", &projection, "border-mode", &border,
      "method", &method, "border-color", &argb, "fx", &cfg->camera.fx, "fy",
      &cfg->camera.fy, "cx", &cfg->camera.cx, "cy", &cfg->camera.cy, "k1",
      &cfg->camera.k[0], "k2", &cfg->camera.k[1], "k3", &cfg->camera.k[2], "k4",
      &cfg->camera.k[3], "k5", &cfg->camera.k[4], "k6", &cfg->camera.k[5], "p1",
      &cfg->camera.p[0], "p2", &cfg->camera.p[1], "alpha", &cfg->alpha, "fov",
      &cfg->fov, "pan", &cfg->pan, "tilt", &cfg->tilt, "rotation",
      &cfg->rotation, "scale", &cfg->scale, "offset-x", &cfg->offset_x,
      "offset-y", &cfg->offset_y, NULL);
  cfg->model = model;
  cfg->projection = projection;
  cfg->border_mode = border;
  cfg->method = method;
  cfg->border_rgba[0] = ((argb >> 16) & 0xff) / 255.0;
  cfg->border_rgba[1] = ((argb >> 8) & 0xff) / 255.0;
  cfg->border_rgba[2] = (argb & 0xff) / 255.0;
  cfg->border_rgba[3] = (argb >> 24) / 255.0;
  fail_unless_equals_int (array_values (e, "homography", m), 9);
  memcpy (cfg->homography, m, sizeof (m));
  fail_unless_equals_int (array_values (e, "rectification-matrix", m), 9);
  memcpy (cfg->rectification, m, sizeof (m));
  g_object_get (e, "new-camera", &new_camera, NULL);
  cfg->new_camera = new_camera == 3   ? TEXEL_NEW_CAMERA_MATRIX
                    : new_camera == 2 ? TEXEL_NEW_CAMERA_CAMERA
                                      : TEXEL_NEW_CAMERA_OPTIMAL;
  if (array_values (e, "new-camera-matrix", m) == 9)
    {
      memcpy (cfg->new_camera_matrix, m, sizeof (m));
      if (new_camera == 0 && cfg->alpha == 0.0)
        cfg->new_camera = TEXEL_NEW_CAMERA_MATRIX;
    }
}

/* Fails unless @out is @in warped by the CPU reference with @cfg, within
 * the fast path's bound where it covers the plan. */
static void
check_reference (const GstVideoInfo *in_info, const GstVideoInfo *out_info,
                 GstBuffer *in, GstBuffer *out, TexelWarpConfig *cfg,
                 const gchar *what)
{
  GstBuffer *ref
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (out_info), NULL);
  GstVideoFrame fin, fout, fref;
  TexelImage iin, iref;
  TexelWarpPlan plan;
  TexelWarpFast *fast;
  const char *why = NULL;
  guint c;
  gint x, y, bound;

  colorimetry_for (&cfg->in_color, in_info);
  colorimetry_for (&cfg->out_color, out_info);
  /* A negative principal point: the calibration frame's centre. */
  if (cfg->camera.cx < 0)
    cfg->camera.cx
        = 0.5
              * (cfg->camera.cal_width ? cfg->camera.cal_width
                                       : GST_VIDEO_INFO_WIDTH (in_info))
          - 0.5;
  if (cfg->camera.cy < 0)
    cfg->camera.cy
        = 0.5
              * (cfg->camera.cal_height ? cfg->camera.cal_height
                                        : GST_VIDEO_INFO_HEIGHT (in_info))
          - 0.5;
  fail_unless (gst_video_frame_map (&fin, in_info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, out_info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, out_info, ref, GST_MAP_WRITE));
  texel_image_from_frame (&iin, &fin);
  texel_image_from_frame (&iref, &fref);
  fail_unless (texel_warp_plan_init (&plan, cfg, iin.format, iin.width,
                                     iin.height, iref.format, iref.width,
                                     iref.height, &why)
                   == 0,
               "plan: %s", why);
  texel_warp_cpu (&plan, &iin, &iref, 0, iref.height);
  fast = texel_warp_fast_new (&plan);
  bound = fast != NULL && cfg->method == TEXEL_METHOD_BILINEAR ? 1 : 0;
  texel_warp_fast_free (fast);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fout); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fout, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fout, c); x++)
        fail_unless (ABS ((gint)frame_get (&fout, c, x, y)
                          - (gint)frame_get (&fref, c, x, y))
                         <= bound,
                     "%s: component %u at (%d, %d): %u, reference %u", what, c,
                     x, y, frame_get (&fout, c, x, y),
                     frame_get (&fref, c, x, y));
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fref);
  gst_buffer_unref (ref);
}

/* The element with backend=cpu and @props ("name=value ..."), a bus of
 * its own, in a harness (which sets it PLAYING). */
static GstHarness *
warp_harness_new (const gchar *props)
{
  GstElement *e = gst_element_factory_make ("texelwarp", NULL);
  gchar **tokens = g_strsplit (props ? props : "", " ", -1);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  gchar **t;

  fail_unless (e != NULL);
  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  for (t = tokens; *t; t++)
    {
      gchar *eq = strchr (*t, '=');

      if (eq == NULL)
        continue;
      *eq = '\0';
      fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (e), *t)
                       != NULL,
                   "no property %s", *t);
      gst_util_set_object_arg (G_OBJECT (e), *t, eq + 1);
    }
  g_strfreev (tokens);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

/* The first error message on @e's bus, as "message (debug)", or NULL. */
static gchar *
bus_error (GstElement *e)
{
  GstBus *bus = gst_element_get_bus (e);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *dbg = NULL, *text;

  gst_object_unref (bus);
  if (msg == NULL)
    return NULL;
  gst_message_parse_error (msg, &err, &dbg);
  text = g_strdup_printf ("%s (%s)", err->message, GST_STR_NULL (dbg));
  g_clear_error (&err);
  g_free (dbg);
  gst_message_unref (msg);
  return text;
}

/* Pushes one frame of @caps through a warp with @props: the frame the
 * element made and the one it was made from (both to unref). */
static void
warp_one (GstHarness *h, const gchar *in_caps, const gchar *out_caps,
          GRand *rand, GstBuffer **in, GstBuffer **out)
{
  GstVideoInfo info = texel_video_info_from_caps_string (in_caps);

  gst_harness_set_caps_str (h, in_caps, out_caps);
  *in = make_buffer (&info, rand, 0);
  gst_buffer_ref (*in);
  *out = texel_push_pull (h, *in);
}

/* Pops every message of @type on @e's bus: how many, the first one's text
 * ("message (debug)", to g_free) in @first. */
static guint
pop_messages (GstElement *e, GstMessageType type, gchar **text)
{
  GstBus *bus = gst_element_get_bus (e);
  GstMessage *msg;
  guint n = 0;

  *text = NULL;
  while ((msg = gst_bus_pop_filtered (bus, type)) != NULL)
    {
      GError *err = NULL;
      gchar *dbg = NULL;

      if (type == GST_MESSAGE_WARNING)
        gst_message_parse_warning (msg, &err, &dbg);
      else
        gst_message_parse_error (msg, &err, &dbg);
      if (n++ == 0)
        *text = g_strdup_printf ("%s (%s)", err->message, GST_STR_NULL (dbg));
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (msg);
    }
  gst_object_unref (bus);
  return n;
}

/* ------------------------------------------------------------------ */
/* The views against OpenCV's definition (opencv-rectify.h) */

static double
gray_at (const void *frame, int x, int y)
{
  return frame_get ((const GstVideoFrame *)frame, 0, x, y);
}

/* Compares GRAY8 frame @out with cv::remap (INTER_LINEAR) of @in through
 * cv_rectify_map, where all four taps lie inside the input (the borders
 * are another matter): each pixel within 1 code (the element rounds),
 * and at least half the frame checked. */
static void
check_cv_rectify (const CvRectify *c, const GstVideoInfo *info, GstBuffer *in,
                  GstBuffer *out, const gchar *what)
{
  GstVideoFrame fin, fout;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint u, v, checked = 0;
  gdouble worst = 0.0;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  for (v = 0; v < h; v++)
    for (u = 0; u < w; u++)
      {
        gdouble mx, my, ref;

        fail_unless (cv_rectify_map (c, u, v, &mx, &my));
        if (!cv_remap_bilinear (gray_at, &fin, w, h, mx, my, &ref))
          continue;
        worst = MAX (worst, fabs (frame_get (&fout, 0, u, v) - ref));
        fail_unless (fabs (frame_get (&fout, 0, u, v) - ref) <= 1.0,
                     "%s: (%d, %d) is %u, OpenCV's %.3f (source %.3f, %.3f)",
                     what, u, v, frame_get (&fout, 0, u, v), ref, mx, my);
        checked++;
      }
  fail_unless (checked > w * h / 2, "%s: only %d pixels inside", what, checked);
  GST_INFO ("%s: %d pixels, worst %.3f codes", what, checked, worst);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
}

/* ------------------------------------------------------------------ */

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("texelwarp", NULL);
  static const gchar *others[]
      = { "model",         "projection",   "calibration-file",
          "camera-matrix", "distortion",   "homography",
          "border-mode",   "border-color", "method" };
  guint i;

  fail_unless (e != NULL);
  for (i = 0; i < G_N_ELEMENTS (doubles); i++)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
                                                        doubles[i].name);
      GParamSpecDouble *d;
      gdouble v;

      fail_unless (pspec != NULL, "no property %s", doubles[i].name);
      d = G_PARAM_SPEC_DOUBLE (pspec);
      fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE, "%s",
                   doubles[i].name);
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s",
                   doubles[i].name);
      fail_unless_equals_float (d->minimum, doubles[i].min);
      fail_unless_equals_float (d->maximum, doubles[i].max);
      fail_unless_equals_float (d->default_value, doubles[i].def);
      g_object_get (e, doubles[i].name, &v, NULL);
      fail_unless_equals_float (v, doubles[i].def);
      g_object_set (e, doubles[i].name, doubles[i].max, NULL);
      g_object_get (e, doubles[i].name, &v, NULL);
      fail_unless_equals_float (v, doubles[i].max);
      /* NaN: the element keeps the old value. (GLib 2.74's g_object_set
       * refuses it already, with a warning; older GLib passes it on, and
       * so might a binding: straight to the class's set_property here.) */
      {
        GValue nan = G_VALUE_INIT;

        g_value_init (&nan, G_TYPE_DOUBLE);
        g_value_set_double (&nan, NAN);
        G_OBJECT_GET_CLASS (e)->set_property (G_OBJECT (e), pspec->param_id,
                                              &nan, pspec);
        /* Out of range the same way: the old value stays. */
        g_value_set_double (&nan, doubles[i].max + 1.0);
        G_OBJECT_GET_CLASS (e)->set_property (G_OBJECT (e), pspec->param_id,
                                              &nan, pspec);
        g_value_unset (&nan);
      }
      g_object_get (e, doubles[i].name, &v, NULL);
      fail_unless_equals_float (v, doubles[i].max);
      g_object_set (e, doubles[i].name, doubles[i].def, NULL);
    }
  for (i = 0; i < G_N_ELEMENTS (others); i++)
    {
      GParamSpec *pspec
          = g_object_class_find_property (G_OBJECT_GET_CLASS (e), others[i]);

      fail_unless (pspec != NULL, "no property %s", others[i]);
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s", others[i]);
    }
  gst_object_unref (e);
}

GST_END_TEST;

static gdouble
array_at (GstElement *e, const gchar *name, guint i, guint *n)
{
  GValue v = G_VALUE_INIT;
  gdouble d;

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), name, &v);
  *n = gst_value_array_get_size (&v);
  d = i < *n ? g_value_get_double (gst_value_array_get_value (&v, i)) : NAN;
  g_value_unset (&v);
  return d;
}

/* camera-matrix and distortion set the single parameters (gst-launch's
 * integers too); 4 coefficients are read for the model, whichever is set
 * first; malformed arrays are refused. */
GST_START_TEST (test_array_properties)
{
  GstElement *e = gst_element_factory_make ("texelwarp", NULL);
  gdouble fx, cy, k1, k3, k4, p1, p2;
  guint n;

  gst_util_set_object_arg (G_OBJECT (e), "camera-matrix",
                           "<500, 0, 319.5, 0, 510.0, 239.5, 0, 0, 1>");
  g_object_get (e, "fx", &fx, "cy", &cy, NULL);
  fail_unless_equals_float (fx, 500);
  fail_unless_equals_float (cy, 239.5);
  fail_unless_equals_float (array_at (e, "camera-matrix", 4, &n), 510);
  fail_unless_equals_int (n, 9);

  /* Refused: skew, NaN, a wrong count (a g_warning, not only a debug
   * line). */
  gst_util_set_object_arg (
      G_OBJECT (e), "camera-matrix",
      "<400.0, 1.0, 319.5, 0.0, 400.0, 239.5, 0.0, 0.0, 1.0>");
  ASSERT_WARNING (gst_util_set_object_arg (
      G_OBJECT (e), "camera-matrix",
      "<400.0, 0.0, 319.5, 0.0, 400.0, 239.5, 0.0, 0.0>"));
  g_object_get (e, "fx", &fx, NULL);
  fail_unless_equals_float (fx, 500);

  gst_util_set_object_arg (G_OBJECT (e), "distortion",
                           "<-0.3, 0.1, 0.001, -0.002, 0.02>");
  g_object_get (e, "k1", &k1, "k3", &k3, "p1", &p1, "p2", &p2, NULL);
  fail_unless_equals_float (k1, -0.3);
  fail_unless_equals_float (k3, 0.02);
  fail_unless_equals_float (p1, 0.001);
  fail_unless_equals_float (p2, -0.002);
  ASSERT_WARNING (
      gst_util_set_object_arg (G_OBJECT (e), "distortion", "<0.1, 0.2, 0.3>"));
  g_object_get (e, "k1", &k1, NULL);
  fail_unless_equals_float (k1, -0.3);

  /* Four: k1 k2 p1 p2 of a pinhole, k1..k4 of a fisheye. */
  gst_util_set_object_arg (G_OBJECT (e), "distortion",
                           "<0.01, 0.02, 0.03, 0.04>");
  gst_util_set_object_arg (G_OBJECT (e), "model", "fisheye");
  g_object_get (e, "k3", &k3, "k4", &k4, "p1", &p1, NULL);
  fail_unless_equals_float (k3, 0.03);
  fail_unless_equals_float (k4, 0.04);
  fail_unless_equals_float (p1, 0);
  gst_util_set_object_arg (G_OBJECT (e), "model", "pinhole");
  g_object_get (e, "k3", &k3, "p1", &p1, NULL);
  fail_unless_equals_float (k3, 0);
  fail_unless_equals_float (p1, 0.03);
  /* A single coefficient then settles the rest for the current model. */
  g_object_set (e, "k1", 0.5, NULL);
  fail_unless_equals_float (array_at (e, "distortion", 2, &n), 0.03);
  fail_unless_equals_int (n, 8);
  fail_unless_equals_float (array_at (e, "distortion", 0, &n), 0.5);

  gst_util_set_object_arg (G_OBJECT (e), "homography",
                           "<1, 0, 5, 0, 1, -3, 0, 0, 1>");
  fail_unless_equals_float (array_at (e, "homography", 2, &n), 5);
  fail_unless_equals_float (array_at (e, "homography", 5, &n), -3);
  /* 8 values: h33 = 1, as cv2.getPerspectiveTransform normalises it. */
  gst_util_set_object_arg (G_OBJECT (e), "homography",
                           "<2, 0, 7, 0, 2, -1, 0.001, 0>");
  fail_unless_equals_float (array_at (e, "homography", 2, &n), 7);
  fail_unless_equals_int (n, 9);
  fail_unless_equals_float (array_at (e, "homography", 6, &n), 0.001);
  fail_unless_equals_float (array_at (e, "homography", 8, &n), 1);
  /* Any other count: a g_warning, the old value kept. */
  ASSERT_WARNING (
      gst_util_set_object_arg (G_OBJECT (e), "homography", "<1, 0, 5>"));
  ASSERT_WARNING (gst_util_set_object_arg (G_OBJECT (e), "homography",
                                           "<1, 0, 5, 0, 1, 0, 0, 0, 1, 0>"));
  fail_unless_equals_float (array_at (e, "homography", 2, &n), 7);
  fail_unless_equals_float (array_at (e, "homography", 8, &n), 1);
  gst_object_unref (e);
}

GST_END_TEST;

/* An 8-value homography warps as the 9 values with h33 = 1 do, and a
 * singular one is an element error, no frame. */
GST_START_TEST (test_homography_counts)
{
  gchar *caps = make_caps ("RGBA", 32, 24);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (11);
  GstHarness *h = warp_harness_new ("homography=<1.02,0.03,-3,-0.02,0.98,2,"
                                    "0.0002,-0.0001>");
  GstBuffer *in, *out;
  TexelWarpConfig cfg;
  gchar *error;

  warp_one (h, caps, caps, rand, &in, &out);
  fail_if (out == in, "8-value homography: passthrough");
  config_from_element (h->element, &cfg);
  fail_unless_equals_float (cfg.homography[2][2], 1);
  check_reference (&info, &info, in, out, &cfg, "8-value homography");
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  texel_harness_teardown (h);

  h = warp_harness_new ("homography=<1,0,0,0,0,0,0,0>");
  gst_harness_set_caps_str (h, caps, caps);
  fail_if (gst_harness_push (h, make_buffer (&info, rand, 0)) == GST_FLOW_OK,
           "singular homography: frame accepted");
  error = bus_error (h->element);
  fail_unless (error != NULL && strstr (error, "homography: singular"),
               "singular homography: %s", GST_STR_NULL (error));
  g_free (error);
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* The reason of @e's texel-strategy message (to g_free), or NULL. */
static gchar *
strategy_reason (GstElement *e)
{
  GstMessage *msg = texel_pop_strategy_message (e);
  gchar *reason = NULL;

  if (msg)
    {
      reason = g_strdup (
          gst_structure_get_string (gst_message_get_structure (msg), "reason"));
      gst_message_unref (msg);
    }
  return reason;
}

/* Without any NVIDIA driver the texel-strategy message (and the log) say
 * so, not CUDA's "driver version is insufficient", which sends users after
 * a driver upgrade. Checked where the plugin has CUDA and no driver is
 * installed (libcuda.so.1 cannot be loaded); skipped, with a message,
 * elsewhere. */
GST_START_TEST (test_no_driver_reason)
{
  GModule *libcuda = g_module_open ("libcuda.so.1",
                                    G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  GstElement *e = gst_element_factory_make ("texelwarp", NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  gchar *reason;

  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
  g_object_set (e, "rotation", 10.0, NULL);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  reason = strategy_reason (h->element);
  fail_unless (reason != NULL, "no texel-strategy message");
  if (libcuda != NULL)
    g_print ("test_no_driver_reason: skipped, an NVIDIA driver is installed "
             "(texel-strategy reason: %s)\n",
             reason);
  else if (strcmp (reason, "built without CUDA") == 0)
    g_print ("test_no_driver_reason: skipped, the plugin was built without "
             "CUDA\n");
  else
    fail_unless_equals_string (reason, "no NVIDIA driver found");
  g_free (reason);
  if (libcuda != NULL)
    g_module_close (libcuda);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* A pinhole lens sees less than 180 degrees: a pinhole view of 180
 * degrees or more (an OpenCV fisheye file read without model=fisheye)
 * posts one bus warning, not one per frame or per change of another
 * setting; a fisheye lens, or a narrower view, none. The frames flow. */
GST_START_TEST (test_pinhole_wide_view)
{
  static const struct
  {
    const gchar *props;
    guint warnings;
  } cases[] = {
    { "calibration-file=" CALIB (
          "opencv-fisheye.yaml") " projection=equirectangular fov=200",
      1 },
    { "model=pinhole fx=20 fy=20 projection=equirectangular", 1 },
    { "model=fisheye calibration-file=" CALIB (
          "opencv-fisheye.yaml") " projection=equirectangular fov=200",
      0 },
    { "model=pinhole fx=20 fy=20 projection=equirectangular fov=170", 0 },
    { "model=pinhole fx=20 fy=20 fov=120", 0 },
  };
  gchar *caps = make_caps ("RGBA", 32, 18);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (12);
  guint i, frame;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GstHarness *h = warp_harness_new (cases[i].props);
      gchar *text;
      guint n;

      gst_harness_set_caps_str (h, caps, caps);
      for (frame = 0; frame < 3; frame++)
        {
          /* A new plan each frame: another pan. */
          g_object_set (h->element, "pan", 5.0 * frame, NULL);
          gst_buffer_unref (texel_push_pull (
              h, make_buffer (&info, rand, frame * GST_SECOND / 30)));
        }
      n = pop_messages (h->element, GST_MESSAGE_WARNING, &text);
      fail_unless (n == cases[i].warnings, "%s: %u warnings (%s)",
                   cases[i].props, n, GST_STR_NULL (text));
      if (n)
        fail_unless (strstr (text, "model=pinhole") != NULL
                         && strstr (text, "set model=fisheye") != NULL,
                     "%s: the warning says \"%s\"", cases[i].props, text);
      g_free (text);
      /* Another field of view is another configuration: warned again. */
      if (n)
        {
          g_object_set (h->element, "fov", 300.0, NULL);
          gst_buffer_unref (
              texel_push_pull (h, make_buffer (&info, rand, GST_SECOND)));
          fail_unless_equals_int (
              pop_messages (h->element, GST_MESSAGE_WARNING, &text), 1);
          fail_unless (strstr (text, "300-degree") != NULL, "%s", text);
          g_free (text);
        }
      texel_harness_teardown (h);
    }
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* Default settings, same caps: passthrough; another output size: the
 * frame scaled exactly as the reference does. */
GST_START_TEST (test_identity)
{
  gchar *caps = make_caps ("RGBA", 32, 24), *small = make_caps ("RGBA", 16, 12);
  GstVideoInfo in_info = texel_video_info_from_caps_string (caps);
  GstVideoInfo out_info = texel_video_info_from_caps_string (small);
  GRand *rand = g_rand_new_with_seed (1);
  GstHarness *h = warp_harness_new (NULL);
  GstBuffer *in, *out;
  TexelWarpConfig cfg;

  warp_one (h, caps, caps, rand, &in, &out);
  fail_unless (out == in, "identity warp: not passthrough");
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  texel_harness_teardown (h);

  h = warp_harness_new (NULL);
  warp_one (h, caps, small, rand, &in, &out);
  fail_if (out == in);
  config_from_element (h->element, &cfg);
  check_reference (&in_info, &out_info, in, out, &cfg, "identity scaled");
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
  g_free (small);
}

GST_END_TEST;

/* Each model and view (rectilinear and equirectangular), NV12 in, RGBA
 * or NV12 out, against the reference. */
GST_START_TEST (test_models)
{
  static const struct
  {
    const gchar *props;
    const gchar *out_format;
    gint out_w, out_h;
  } cases[] = {
    { "rotation=17 scale=1.3 offset-x=0.05 border-mode=mirror "
      "homography=<1.02,0.03,-3,-0.02,0.98,2,0.0002,-0.0001,1>",
      "RGBA", 48, 32 },
    { "model=pinhole fx=40 fy=41 cx=31 cy=23.5 k1=-0.28 k2=0.09 p1=0.001 "
      "k3=-0.01 alpha=0.5 method=bicubic border-color=0xff2080c0",
      "NV12", 64, 48 },
    { "model=fisheye fx=20 fy=20 k1=0.03 k2=-0.008 fov=90 pan=30 tilt=-10 "
      "method=nearest border-mode=clamp",
      "RGBA", 40, 30 },
    { "calibration-file=" CALIB ("opencv-pinhole.yaml") " alpha=1", "RGBA", 64,
      48 },
    { "calibration-file=" CALIB (
          "ros-equidistant.yaml") " fov=100 "
                                  "rotation=90 border-mode=wrap",
      "NV12", 48, 64 },
    { "model=fisheye fx=20 fy=20 k1=0.03 projection=equirectangular fov=220 "
      "tilt=20",
      "RGBA", 80, 40 },
  };
  gchar *in_caps = make_caps ("NV12", 64, 48);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  GRand *rand = g_rand_new_with_seed (2);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *out_caps
          = make_caps (cases[i].out_format, cases[i].out_w, cases[i].out_h);
      GstVideoInfo out_info = texel_video_info_from_caps_string (out_caps);
      GstHarness *h = warp_harness_new (cases[i].props);
      GstBuffer *in, *out;
      TexelWarpConfig cfg;

      warp_one (h, in_caps, out_caps, rand, &in, &out);
      config_from_element (h->element, &cfg);
      if (strstr (cases[i].props, "calibration-file") != NULL)
        {
          /* The file's calibration size: intrinsics scaled to the stream. */
          TexelCalibration calib;
          gchar *path = g_strdup (strchr (cases[i].props, '=') + 1), *data;
          gsize size;
          char error[256];

          *strchr (path, ' ') = '\0';
          fail_unless (g_file_get_contents (path, &data, &size, NULL));
          fail_unless (
              texel_calib_parse (data, size, &calib, error, sizeof (error))
                  == 0,
              "%s", error);
          cfg.camera.cal_width = calib.width;
          cfg.camera.cal_height = calib.height;
          fail_unless_equals_int (
              cfg.model, calib.model ? calib.model : TEXEL_WARP_MODEL_PINHOLE);
          fail_unless_equals_float (cfg.camera.fx, calib.camera_matrix[0][0]);
          g_free (data);
          g_free (path);
        }
      check_reference (&in_info, &out_info, in, out, &cfg, cases[i].props);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      texel_harness_teardown (h);
      g_free (out_caps);
    }
  g_rand_free (rand);
  g_free (in_caps);
}

GST_END_TEST;

/* Broken calibration files, a missing one and a camera model without a
 * camera: an element error naming the file and the field, no frame. */
GST_START_TEST (test_calibration_errors)
{
  static const struct
  {
    const gchar *props;
    const gchar *expect[2];
  } cases[] = {
    { "calibration-file=" CALIB ("bad-zero-focal.yaml"),
      { "bad-zero-focal.yaml", "camera_matrix (line 3): focal length fx" } },
    { "calibration-file=" CALIB ("bad-matrix-size.yaml"),
      { "bad-matrix-size.yaml", "camera_matrix (line 5): must be 3x3" } },
    { "calibration-file=" CALIB ("bad-nan.yaml"),
      { "bad-nan.yaml", "camera_matrix data[2] (line 9)" } },
    { "calibration-file=" CALIB ("bad-negative-size.yaml"),
      { "bad-negative-size.yaml", "image_width (line 3): must be positive" } },
    { "calibration-file=" CALIB ("bad-unknown-model.yaml"),
      { "bad-unknown-model.yaml", "distortion_model (line 4)" } },
    { "calibration-file=" CALIB ("bad-syntax.yaml"),
      { "bad-syntax.yaml", "YAML syntax (line 7)" } },
    { "calibration-file=" CALIB ("bad-singular-rectification.yaml"),
      { "bad-singular-rectification.yaml", "rectification_matrix (line 6): "
                                           "singular" } },
    { "calibration-file=" CALIB ("bad-projection-skew.yaml"),
      { "bad-projection-skew.yaml", "projection_matrix (line 7): skew" } },
    { "model=pinhole fx=50 fy=50 new-camera=matrix",
      { "new-camera=matrix", "no new-camera-matrix" } },
    { "model=pinhole fx=50 fy=50 rectification-matrix=<1,0,0,0,1,0,1,0,0>",
      { "Cannot warp", "rectification matrix: singular" } },
    { "calibration-file=/nonexistent/camera.yaml",
      { "/nonexistent/camera.yaml", "cannot read it" } },
    { "model=pinhole", { "model=pinhole", "no camera" } },
    { "model=fisheye distortion=<0.1,0.2,0.3,0.4,0.5> fx=100 fy=100",
      { "model=fisheye", "distortion" } },
  };
  gchar *caps = make_caps ("RGBA", 32, 24);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (3);
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GstHarness *h = warp_harness_new (cases[i].props);
      GstFlowReturn ret;
      gchar *error;

      gst_harness_set_caps_str (h, caps, caps);
      ret = gst_harness_push (h, make_buffer (&info, rand, 0));
      fail_if (ret == GST_FLOW_OK, "%s: frame accepted", cases[i].props);
      fail_unless (gst_harness_try_pull (h) == NULL);
      error = bus_error (h->element);
      fail_unless (error != NULL, "%s: no error message", cases[i].props);
      GST_INFO ("%s: %s", cases[i].props, error);
      for (j = 0; j < 2; j++)
        fail_unless (strstr (error, cases[i].expect[j]) != NULL,
                     "%s: \"%s\" does not say \"%s\"", cases[i].props, error,
                     cases[i].expect[j]);
      g_free (error);
      texel_harness_teardown (h);
    }
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* The files' and the properties' numbers, written again here (not read
 * through the parser under test). */
#define STEREO_LEFT_K                                                          \
  {                                                                            \
    { 52.13, 0, 31.72 }, { 0, 51.58, 23.21 },                                  \
    {                                                                          \
      0, 0, 1                                                                  \
    }                                                                          \
  }
#define STEREO_LEFT_P                                                          \
  {                                                                            \
    { 48.37, 0, 33.15 }, { 0, 48.37, 22.41 },                                  \
    {                                                                          \
      0, 0, 1                                                                  \
    }                                                                          \
  }
#define STEREO_LEFT_D                                                          \
  {                                                                            \
    -0.2134, 0.0512, 0.00121, -0.00083, -0.0047                                \
  }

/* A camera matrix at @factor times its calibration frame's size (pixel
 * corners aligned, as the element documents). */
static void
scale_camera (gdouble m[3][3], gdouble factor)
{
  m[0][0] *= factor;
  m[1][1] *= factor;
  m[0][2] = (m[0][2] + 0.5) * factor - 0.5;
  m[1][2] = (m[1][2] + 0.5) * factor - 0.5;
}

/* The rectified views against OpenCV's definition: a ROS stereo file
 * (R and P, pinhole and fisheye) as image_proc shows it, cv2.undistort's
 * view (new-camera=camera: K kept), a given new camera and rotation
 * (new-camera=matrix), and a ROS file on a stream at twice its size. */
GST_START_TEST (test_rectify_views)
{
  static const struct
  {
    const gchar *props;
    gint size; /* times 64x48 */
    CvRectify cv;
  } cases[] = {
    { "calibration-file=" CALIB ("ros-stereo-left.yaml"),
      1,
      { FALSE, STEREO_LEFT_K, STEREO_LEFT_D, CV_TEST_STEREO_LEFT_R,
        STEREO_LEFT_P } },
    { "calibration-file=" CALIB ("ros-stereo-fisheye.yaml"),
      1,
      { TRUE,
        { { 21.4, 0, 32.3 }, { 0, 21.1, 23.8 }, { 0, 0, 1 } },
        { 0.031, -0.0094, 0.0017, -0.00021 },
        { { 0.997222210, 0.023727370, 0.070603653 },
          { -0.026113183, 0.999112088, 0.033062638 },
          { -0.069756474, -0.034814483, 0.996956361 } },
        { { 18.5, 0, 30.6 }, { 0, 18.5, 24.9 }, { 0, 0, 1 } } } },
    { "model=pinhole camera-matrix=<50.5,0,31.2,0,49.25,23.9,0,0,1> "
      "distortion=<-0.25,0.061,0.0013,-0.0007,-0.009> new-camera=camera",
      1,
      { FALSE,
        { { 50.5, 0, 31.2 }, { 0, 49.25, 23.9 }, { 0, 0, 1 } },
        { -0.25, 0.061, 0.0013, -0.0007, -0.009 },
        CV_TEST_UNIT,
        { { 50.5, 0, 31.2 }, { 0, 49.25, 23.9 }, { 0, 0, 1 } } } },
    { "model=fisheye camera-matrix=<20,0,32.5,0,20.5,23,0,0,1> "
      "distortion=<0.04,-0.011,0.002,-0.0003> new-camera=camera",
      1,
      { TRUE,
        { { 20, 0, 32.5 }, { 0, 20.5, 23 }, { 0, 0, 1 } },
        { 0.04, -0.011, 0.002, -0.0003 },
        CV_TEST_UNIT,
        { { 20, 0, 32.5 }, { 0, 20.5, 23 }, { 0, 0, 1 } } } },
    { "model=pinhole camera-matrix=<50.5,0,31.2,0,49.25,23.9,0,0,1> "
      "distortion=<-0.25,0.061,0.0013,-0.0007,-0.009,0.02,-0.004,0.001> "
      "new-camera=matrix new-camera-matrix=<44,0,30,0,45,25.5,0,0,1> "
      "rectification-matrix=<0.997222210,0.023727370,0.070603653,"
      "-0.026113183,0.999112088,0.033062638,-0.069756474,-0.034814483,"
      "0.996956361>",
      1,
      { FALSE,
        { { 50.5, 0, 31.2 }, { 0, 49.25, 23.9 }, { 0, 0, 1 } },
        { -0.25, 0.061, 0.0013, -0.0007, -0.009, 0.02, -0.004, 0.001 },
        { { 0.997222210, 0.023727370, 0.070603653 },
          { -0.026113183, 0.999112088, 0.033062638 },
          { -0.069756474, -0.034814483, 0.996956361 } },
        { { 44, 0, 30 }, { 0, 45, 25.5 }, { 0, 0, 1 } } } },
    { "calibration-file=" CALIB ("ros-stereo-left.yaml"),
      2,
      { FALSE, STEREO_LEFT_K, STEREO_LEFT_D, CV_TEST_STEREO_LEFT_R,
        STEREO_LEFT_P } },
  };
  GRand *rand = g_rand_new_with_seed (7);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *caps = make_caps ("GRAY8", 64 * cases[i].size, 48 * cases[i].size);
      GstVideoInfo info = texel_video_info_from_caps_string (caps);
      GstHarness *h = warp_harness_new (cases[i].props);
      CvRectify cv = cases[i].cv;
      GstBuffer *in, *out;
      gchar *warning;

      scale_camera (cv.K, cases[i].size);
      scale_camera (cv.P, cases[i].size);
      warp_one (h, caps, caps, rand, &in, &out);
      check_cv_rectify (&cv, &info, in, out, cases[i].props);
      fail_unless_equals_int (
          pop_messages (h->element, GST_MESSAGE_WARNING, &warning), 0);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      texel_harness_teardown (h);
      g_free (caps);
    }
  g_rand_free (rand);
}

GST_END_TEST;

/* What a ROS file's R and P give way to: alpha set (the optimal view,
 * still rotated by R), fov, and properties set after the file (kept);
 * properties set before it are the file's. */
GST_START_TEST (test_rectify_choice)
{
  gchar *caps = make_caps ("RGBA", 64, 48);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (8);
  static const gchar *props[] = {
    "calibration-file=" CALIB ("ros-stereo-left.yaml") " alpha=0",
    "calibration-file=" CALIB ("ros-stereo-left.yaml") " new-camera=optimal "
                                                       "alpha=0.5",
    "calibration-file=" CALIB ("ros-stereo-left.yaml") " fov=70",
  };
  const gdouble r[3][3] = CV_TEST_STEREO_LEFT_R;
  GstHarness *h;
  GstBuffer *in, *out;
  TexelWarpConfig cfg;
  gdouble fx, fy;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++)
    {
      h = warp_harness_new (props[i]);
      warp_one (h, caps, caps, rand, &in, &out);
      config_from_element (h->element, &cfg);
      /* Both read back from the element: the file's R and P. */
      fail_unless (memcmp (cfg.rectification, r, sizeof (r)) == 0);
      fail_unless_equals_float (cfg.new_camera_matrix[0][0], 48.37);
      cfg.new_camera = TEXEL_NEW_CAMERA_OPTIMAL;
      cfg.camera.cal_width = 64;
      cfg.camera.cal_height = 48;
      check_reference (&info, &info, in, out, &cfg, props[i]);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      texel_harness_teardown (h);
    }

  h = warp_harness_new ("fx=40 calibration-file=" CALIB (
      "ros-stereo-left.yaml") " fy=45 new-camera-matrix=<>");
  warp_one (h, caps, caps, rand, &in, &out);
  g_object_get (h->element, "fx", &fx, "fy", &fy, NULL);
  fail_unless_equals_float (fx, 52.13);
  fail_unless_equals_float (fy, 45);
  fail_unless_equals_int (
      array_values (h->element, "new-camera-matrix", cfg.new_camera_matrix[0]),
      0);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* A file path of @dir holding @n bytes of @pattern (repeated) between
 * @head and @tail. */
static gchar *
write_file (const gchar *dir, const gchar *name, const gchar *head,
            const gchar *pattern, gsize n, const gchar *tail)
{
  gchar *path = g_build_filename (dir, name, NULL);
  GString *text = g_string_new (head);
  gsize len = strlen (pattern);

  while (n >= len)
    {
      g_string_append (text, pattern);
      n -= len;
    }
  g_string_append (text, tail);
  fail_unless (g_file_set_contents (path, text->str, text->len, NULL));
  g_string_free (text, TRUE);
  return path;
}

/* Hostile calibration files: a FIFO with no writer, /dev/zero, a
 * directory, a file over the 1 MiB cap, 200,000 nested [ and 300,000
 * numbers (both under the cap). g_object_set returns at once (nothing is read
 * there), and the first frame brings one element error naming calibration-file,
 * the file and why, quickly (the nesting is refused at level 17, not parsed).
 */
GST_START_TEST (test_calibration_hostile)
{
  gchar *dir = g_dir_make_tmp ("texelwarp-XXXXXX", NULL);
  gchar *caps = make_caps ("RGBA", 32, 24);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (9);
  struct
  {
    gchar *path;
    const gchar *says;
  } cases[6];
  guint i, j;

  fail_unless (dir != NULL);
  cases[0].path = g_build_filename (dir, "fifo.yaml", NULL);
  fail_unless (mkfifo (cases[0].path, 0600) == 0);
  cases[0].says = "not a regular file";
  cases[1].path = g_strdup ("/dev/zero");
  cases[1].says = "not a regular file";
  cases[2].path = g_strdup (dir);
  cases[2].says = "not a regular file (a directory)";
  cases[3].path
      = write_file (dir, "big.yaml", "# ", "x", TEXEL_CALIB_MAX_SIZE, "\n");
  cases[3].says = "too large";
  cases[4].path = write_file (dir, "deep.yaml", "", "[", 200000, "");
  cases[4].says = "nested deeper than 16 levels";
  cases[5].path = write_file (dir, "nodes.yaml", "a: [", "0,", 600000, "0]\n");
  cases[5].says = "more than 200000 YAML nodes";

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GstHarness *h = warp_harness_new (NULL);
      gint64 t0 = g_get_monotonic_time ();
      const gchar *expect[3]
          = { cases[i].path, cases[i].says, "calibration-file" };
      gchar *error;

      g_object_set (h->element, "calibration-file", cases[i].path, NULL);
      fail_unless (g_get_monotonic_time () - t0 < G_USEC_PER_SEC,
                   "%s: g_object_set took %" G_GINT64_FORMAT " us",
                   cases[i].path, g_get_monotonic_time () - t0);
      gst_harness_set_caps_str (h, caps, caps);
      for (j = 0; j < 2; j++)
        fail_if (gst_harness_push (h, make_buffer (&info, rand, 0))
                     == GST_FLOW_OK,
                 "%s: frame accepted", cases[i].path);
      fail_unless (gst_harness_try_pull (h) == NULL);
      fail_unless_equals_int (
          pop_messages (h->element, GST_MESSAGE_ERROR, &error), 1);
      GST_INFO ("%s: %s", cases[i].path, error);
      for (j = 0; j < 3; j++)
        fail_unless (strstr (error, expect[j]) != NULL,
                     "\"%s\" does not say "
                     "\"%s\"",
                     error, expect[j]);
      /* Slow only under valgrind; 30 s and more before the depth cap. */
      fail_unless (g_get_monotonic_time () - t0 < 10 * G_USEC_PER_SEC,
                   "%s: took %" G_GINT64_FORMAT " us", cases[i].path,
                   g_get_monotonic_time () - t0);
      g_free (error);
      texel_harness_teardown (h);
      if (i != 1 && i != 2)
        g_unlink (cases[i].path);
      g_free (cases[i].path);
    }
  g_rmdir (dir);
  g_free (dir);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* A calibration of another aspect ratio (640x640 on 64x48): one warning
 * naming both sizes per caps, none for frames or property changes in
 * between, none for a stream of the calibration's aspect; the warp still
 * runs. With calibration-aspect-error, one error and no frame. */
GST_START_TEST (test_calibration_aspect)
{
  static const struct
  {
    gint w, h;
    guint warnings;
  } steps[] = {
    { 64, 48, 1 }, { 64, 48, 0 }, { 48, 48, 0 }, { 80, 48, 1 }, { 64, 48, 1 },
  };
  GRand *rand = g_rand_new_with_seed (10);
  GstHarness *h
      = warp_harness_new ("calibration-file=" CALIB ("opencv-square.yaml"));
  guint i;

  for (i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      gchar *caps = make_caps ("RGBA", steps[i].w, steps[i].h);
      gchar *size = g_strdup_printf ("%dx%d", steps[i].w, steps[i].h);
      GstVideoInfo info = texel_video_info_from_caps_string (caps);
      gchar *warning;
      guint j;

      gst_harness_set_caps_str (h, caps, caps);
      for (j = 0; j < 3; j++)
        {
          g_object_set (h->element, "pan", 2.0 * j, NULL);
          gst_buffer_unref (texel_push_pull (h, make_buffer (&info, rand, 0)));
        }
      fail_unless_equals_int (
          pop_messages (h->element, GST_MESSAGE_WARNING, &warning),
          steps[i].warnings);
      if (steps[i].warnings)
        {
          fail_unless (strstr (warning, "640x640") && strstr (warning, size),
                       "\"%s\" does not name 640x640 and %s", warning, size);
          GST_INFO ("%s", warning);
        }
      g_free (warning);
      g_free (size);
      g_free (caps);
    }
  texel_harness_teardown (h);

  /* calibration-aspect-error: one error, no frame. */
  h = warp_harness_new (
      "calibration-aspect-error=true calibration-file=" CALIB (
          "opencv-square.yaml"));
  {
    gchar *caps = make_caps ("RGBA", 64, 48), *error;
    GstVideoInfo info = texel_video_info_from_caps_string (caps);
    guint j;

    gst_harness_set_caps_str (h, caps, caps);
    for (j = 0; j < 2; j++)
      fail_if (gst_harness_push (h, make_buffer (&info, rand, 0))
               == GST_FLOW_OK);
    fail_unless (gst_harness_try_pull (h) == NULL);
    fail_unless_equals_int (
        pop_messages (h->element, GST_MESSAGE_ERROR, &error), 1);
    fail_unless (strstr (error, "640x640") && strstr (error, "64x48"),
                 "\"%s\" does not name both sizes", error);
    g_free (error);
    g_free (caps);
  }
  texel_harness_teardown (h);

  /* The same aspect (1280x720 on 64x36): silent. */
  h = warp_harness_new ("calibration-file=" CALIB ("opencv-pinhole.yaml"));
  {
    gchar *caps = make_caps ("RGBA", 64, 36), *warning;
    GstVideoInfo info = texel_video_info_from_caps_string (caps);

    gst_harness_set_caps_str (h, caps, caps);
    gst_buffer_unref (texel_push_pull (h, make_buffer (&info, rand, 0)));
    fail_unless_equals_int (
        pop_messages (h->element, GST_MESSAGE_WARNING, &warning), 0);
    g_free (caps);
  }
  texel_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* A calibration at 1280x720 used on a 64x36 stream: its intrinsics
 * scaled by 1/20 (the reference gets the scaled camera directly). */
GST_START_TEST (test_calibration_scaled)
{
  gchar *caps = make_caps ("RGBA", 64, 36);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (4);
  GstHarness *h
      = warp_harness_new ("calibration-file=" CALIB ("opencv-pinhole.yaml"));
  GstBuffer *in, *out;
  TexelWarpConfig cfg;

  warp_one (h, caps, caps, rand, &in, &out);
  texel_warp_config_init (&cfg);
  cfg.model = TEXEL_WARP_MODEL_PINHOLE;
  /* From the file, times 64 / 1280 (pixel corners aligned). */
  cfg.camera.fx = 9.1245678901234567e+02 / 20;
  cfg.camera.fy = 9.1087654321098765e+02 / 20;
  cfg.camera.cx = (6.4321098765432098e+02 + 0.5) / 20 - 0.5;
  cfg.camera.cy = (3.5678901234567890e+02 + 0.5) / 20 - 0.5;
  cfg.camera.k[0] = -3.1234567890123457e-01;
  cfg.camera.k[1] = 1.2345678901234568e-01;
  cfg.camera.p[0] = 1.2345678901234567e-03;
  cfg.camera.p[1] = -6.5432109876543212e-04;
  cfg.camera.k[2] = -2.3456789012345678e-02;
  cfg.border_rgba[3] = 1.0;
  check_reference (&info, &info, in, out, &cfg, "scaled calibration");
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* Changes while PLAYING take effect on the next frame: rotation, the
 * model, a calibration file, in and out of passthrough. */
GST_START_TEST (test_change_while_playing)
{
  static const gchar *steps[] = {
    "rotation=30",
    "rotation=-45 scale=0.7 border-mode=wrap",
    "model=pinhole fx=30 fy=30 k1=-0.2",
    "calibration-file=" CALIB ("ros-plumb-bob.yaml"),
    "model=none rotation=0 scale=1 offset-x=0.25",
    "offset-x=0",
  };
  gchar *caps = make_caps ("RGBA", 32, 32);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (5);
  GstHarness *h = warp_harness_new (NULL);
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  for (i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      gchar **settings = g_strsplit (steps[i], " ", -1), **s;
      GstBuffer *in, *out;
      TexelWarpConfig cfg;

      for (s = settings; *s; s++)
        {
          gchar *eq = strchr (*s, '=');

          *eq = '\0';
          gst_util_set_object_arg (G_OBJECT (h->element), *s, eq + 1);
        }
      g_strfreev (settings);
      in = make_buffer (&info, rand, i * GST_SECOND / 30);
      gst_buffer_ref (in);
      out = texel_push_pull (h, in);
      config_from_element (h->element, &cfg);
      if (i == 3)
        {
          cfg.camera.cal_width = 640;
          cfg.camera.cal_height = 480;
        }
      if (i == G_N_ELEMENTS (steps) - 1)
        fail_unless (out == in, "back to the identity: not passthrough");
      else
        fail_if (out == in, "%s: passthrough", steps[i]);
      check_reference (&info, &info, in, out, &cfg, steps[i]);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
    }
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

#ifdef HAVE_GST_CONTROLLER
/* A GstController sweeps pan from -30 at 0 s to 30 degrees at 1 s: a
 * frame at 0.25 s gets -15. */
GST_START_TEST (test_controller)
{
  gchar *caps = make_caps ("RGBA", 40, 30);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (6);
  GstHarness *h = warp_harness_new ("model=fisheye fx=15 fy=15 fov=80");
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tv = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  GstBuffer *in, *out;
  TexelWarpConfig cfg;
  gdouble pan;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  /* Direct bindings map [0, 1] onto the property's range (-180..180). */
  gst_timed_value_control_source_set (tv, 0, (180.0 - 30.0) / 360.0);
  gst_timed_value_control_source_set (tv, GST_SECOND, (180.0 + 30.0) / 360.0);
  gst_object_add_control_binding (
      GST_OBJECT (h->element),
      gst_direct_control_binding_new (GST_OBJECT (h->element), "pan", cs));
  gst_harness_set_caps_str (h, caps, caps);

  in = make_buffer (&info, rand, GST_SECOND / 4);
  gst_buffer_ref (in);
  out = texel_push_pull (h, in);
  g_object_get (h->element, "pan", &pan, NULL);
  fail_unless (fabs (pan + 15.0) < 1e-9, "pan %g at 0.25 s", pan);
  config_from_element (h->element, &cfg);
  check_reference (&info, &info, in, out, &cfg, "controller");
  gst_buffer_unref (in);
  gst_buffer_unref (out);

  gst_object_unref (cs);
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;
#endif

/* gst-launch lines: a calibrated undistortion with conversion and
 * scaling, a fisheye view, a rotation with mirrored corners. */
GST_START_TEST (test_pipeline)
{
  static const gchar *lines[] = {
    "videotestsrc num-buffers=5 ! video/x-raw,width=320,height=240 ! "
    "texelwarp backend=cpu calibration-file=" CALIB (
        "opencv-pinhole.yaml") " ! "
                               "video/x-raw,format=NV12,width=160,height=120 ! "
                               "fakesink",
    "videotestsrc num-buffers=5 ! texelwarp backend=cpu "
    "calibration-file=" CALIB (
        "ros-equidistant.yaml") " fov=90 pan=20 ! fakesink",
    "videotestsrc num-buffers=5 ! texelwarp backend=cpu rotation=15 "
    "border-mode=mirror method=bicubic ! fakesink",
  };

  texel_run_launch_lines (lines, G_N_ELEMENTS (lines), 60 * GST_SECOND);
}

GST_END_TEST;

static Suite *
texelwarp_suite (void)
{
  const TexelTest general_tests[] = {
    TEXEL_TEST (test_properties),
    TEXEL_TEST (test_array_properties),
    TEXEL_TEST (test_homography_counts),
    TEXEL_TEST (test_pinhole_wide_view),
    TEXEL_TEST (test_no_driver_reason),
    TEXEL_TEST (test_identity),
    TEXEL_TEST (test_models),
    TEXEL_TEST (test_calibration_errors),
    TEXEL_TEST (test_calibration_scaled),
    TEXEL_TEST (test_rectify_views),
    TEXEL_TEST (test_rectify_choice),
    TEXEL_TEST (test_calibration_hostile),
    TEXEL_TEST (test_calibration_aspect),
    TEXEL_TEST (test_change_while_playing),
#ifdef HAVE_GST_CONTROLLER
    TEXEL_TEST (test_controller),
#endif
    TEXEL_TEST (test_pipeline),
  };

  return texel_suite_new ("texelwarp", "general", 120, general_tests,
                          G_N_ELEMENTS (general_tests));
}

int
main (int argc, char **argv)
{
  return texel_check_run (&argc, &argv, texelwarp_suite, "texelwarp", __FILE__);
}
