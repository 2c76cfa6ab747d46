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
#include "texel-cube.h"
#include "texel-frames.h"

/* The double properties, their range and default. */
typedef struct
{
  const gchar *name;
  gdouble def, min, max;
} DoubleProperty;

static const DoubleProperty properties[] = {
  { "brightness", 0, -1, 1 },
  { "contrast", 1, 0, 2 },
  { "saturation", 1, 0, 2 },
  { "hue", 0, -1, 1 },
  { "gamma", 1, 0.01, 10 },
  { "linear-gamma", 1, 0.01, 10 },
  { "exposure", 0, -10, 10 },
  { "red-gain", 1, 0, 4 },
  { "green-gain", 1, 0, 4 },
  { "blue-gain", 1, 0, 4 },
  { "white-point", 6500, 2500, 15000 },
  { "vignette-strength", 0, -1, 3 },
};

/* ------------------------------------------------------------------ */

/* Fixed caps; YUV formats BT.709 limited range, RGB sRGB, GRAY8 as
 * GStreamer defaults it (full range). */
static gchar *
make_caps (const gchar *format, gint width, gint height)
{
  return texel_caps_new (format, width, height, "colorimetry=bt709",
                         "colorimetry=sRGB");
}

/* The colorimetry make_caps () gives, as the element reads it. */
static void
config_for (TexelAdjustConfig *cfg, const GstVideoInfo *info)
{
  if (GST_VIDEO_INFO_IS_RGB (info))
    {
      cfg->transfer = TEXEL_TRANSFER_SRGB;
    }
  else if (GST_VIDEO_INFO_IS_GRAY (info))
    {
      cfg->transfer = TEXEL_TRANSFER_BT709;
      cfg->full_range = 1;
      cfg->matrix = GST_VIDEO_INFO_HEIGHT (info) > 576 ? TEXEL_MATRIX_BT709
                                                       : TEXEL_MATRIX_BT601;
    }
  else
    {
      cfg->transfer = TEXEL_TRANSFER_BT709;
      cfg->full_range = 0;
      cfg->matrix = TEXEL_MATRIX_BT709;
    }
}

/* The element's settings. */
static void
config_from_element (GstElement *e, TexelAdjustConfig *cfg)
{
  texel_adjust_config_init (cfg);
  g_object_get (e, "brightness", &cfg->brightness, "contrast", &cfg->contrast,
                "saturation", &cfg->saturation, "hue", &cfg->hue, "gamma",
                &cfg->gamma, "linear-gamma", &cfg->linear_gamma, "exposure",
                &cfg->exposure, "red-gain", &cfg->gain[0], "green-gain",
                &cfg->gain[1], "blue-gain", &cfg->gain[2], "white-point",
                &cfg->white_point, "tone-map", &cfg->tone_map,
                "vignette-strength", &cfg->vignette, NULL);
}

/* Sets the field of @cfg that property @name stands for. */
static void
config_set (TexelAdjustConfig *cfg, const gchar *name, gdouble v)
{
  static const gchar *gains[] = { "red-gain", "green-gain", "blue-gain" };
  guint c;

  if (strcmp (name, "brightness") == 0)
    cfg->brightness = v;
  else if (strcmp (name, "contrast") == 0)
    cfg->contrast = v;
  else if (strcmp (name, "saturation") == 0)
    cfg->saturation = v;
  else if (strcmp (name, "hue") == 0)
    cfg->hue = v;
  else if (strcmp (name, "gamma") == 0)
    cfg->gamma = v;
  else if (strcmp (name, "linear-gamma") == 0)
    cfg->linear_gamma = v;
  else if (strcmp (name, "exposure") == 0)
    cfg->exposure = v;
  else if (strcmp (name, "white-point") == 0)
    cfg->white_point = v;
  else if (strcmp (name, "vignette-strength") == 0)
    cfg->vignette = v;
  for (c = 0; c < 3; c++)
    if (strcmp (name, gains[c]) == 0)
      cfg->gain[c] = v;
}

/* A value of property @p other than its default. */
static gdouble
changed_value (const DoubleProperty *p)
{
  if (p->def == 6500)
    return 3000;
  return p->def == 1.0 ? 1.25 : 0.25;
}

/* Fails unless @out is @in adjusted by the CPU reference with @cfg. */
static void
check_reference (const GstVideoInfo *info, GstBuffer *in, GstBuffer *out,
                 TexelAdjustConfig *cfg, const gchar *what)
{
  GstBuffer *ref
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
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
  texel_image_from_frame (&iin, &fin);
  texel_image_from_frame (&iref, &fref);
  fail_unless (texel_adjust_plan_init (&plan, cfg, iin.format, iin.width,
                                       iin.height, &why)
                   == 0,
               "plan: %s", why);
  texel_adjust_cpu (&plan, &iin, &iref, 0, iin.height);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fout); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fout, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fout, c); x++)
        fail_unless (frame_get (&fout, c, x, y) == frame_get (&fref, c, x, y),
                     "%s: %s component %u at (%d, %d): %u, reference %u", what,
                     GST_VIDEO_INFO_NAME (info), c, x, y,
                     frame_get (&fout, c, x, y), frame_get (&fref, c, x, y));
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fref);
  gst_buffer_unref (ref);
}

/* The element with backend=cpu and @props ("name=value ..."), in a
 * harness (which sets it PLAYING). */
static GstHarness *
adjust_harness_new (const gchar *props)
{
  GstElement *e = gst_element_factory_make ("texeladjust", NULL);
  gchar **tokens = g_strsplit (props ? props : "", " ", -1);
  GstHarness *h;
  gchar **t;

  fail_unless (e != NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  for (t = tokens; *t; t++)
    {
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

/* ------------------------------------------------------------------ */

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("texeladjust", NULL);
  guint i;

  fail_unless (e != NULL);
  for (i = 0; i < G_N_ELEMENTS (properties); i++)
    {
      const DoubleProperty *p = &properties[i];
      GParamSpec *pspec
          = g_object_class_find_property (G_OBJECT_GET_CLASS (e), p->name);
      GParamSpecDouble *d;
      gdouble v;

      fail_unless (pspec != NULL, "no property %s", p->name);
      d = G_PARAM_SPEC_DOUBLE (pspec);
      fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE);
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
      fail_unless_equals_float (d->default_value, p->def);
      fail_unless_equals_float (d->minimum, p->min);
      fail_unless_equals_float (d->maximum, p->max);
      g_object_get (e, p->name, &v, NULL);
      fail_unless_equals_float (v, p->def);
      g_object_set (e, p->name, p->max, NULL);
      g_object_get (e, p->name, &v, NULL);
      fail_unless_equals_float (v, p->max);
    }
  gst_object_unref (e);
}

GST_END_TEST;

/* tone-map: an enum (none, reinhard, filmic), none by default, that a
 * controller may drive and that changes while PLAYING. */
GST_START_TEST (test_tone_map_property)
{
  static const gchar *nicks[] = { "none", "reinhard", "filmic" };
  GstElement *e = gst_element_factory_make ("texeladjust", NULL);
  GParamSpec *pspec
      = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "tone-map");
  GEnumClass *klass;
  guint i;

  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec));
  fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  fail_unless_equals_int (klass->n_values, G_N_ELEMENTS (nicks));
  fail_unless_equals_int (G_PARAM_SPEC_ENUM (pspec)->default_value,
                          TEXEL_TONE_MAP_NONE);
  for (i = 0; i < G_N_ELEMENTS (nicks); i++)
    {
      GEnumValue *v = g_enum_get_value_by_nick (klass, nicks[i]);
      gint got;

      fail_unless (v != NULL, "no tone map %s", nicks[i]);
      gst_util_set_object_arg (G_OBJECT (e), "tone-map", nicks[i]);
      g_object_get (e, "tone-map", &got, NULL);
      fail_unless_equals_int (got, v->value);
    }
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_passthrough)
{
  gchar *caps = make_caps ("NV12", 32, 16);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (1);
  GstHarness *h = adjust_harness_new (NULL);
  GstBuffer *in, *out;

  gst_harness_set_caps_str (h, caps, caps);
  in = texel_buffer_new_random (&info, rand, 0);
  out = texel_push_pull (h, in);
  fail_unless (out == in, "neutral settings: not passthrough");
  fail_unless (
      gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (h->element)));
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
  const gchar *format = texel_all_formats[__i__];
  gchar *caps = make_caps (format, 37, 23);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (__i__);
  static const gchar *settings[] = {
    "gamma=1.5 saturation=1.3",
    "brightness=0.1 contrast=1.2 hue=-0.3",
    "exposure=0.7 red-gain=1.2 blue-gain=0.8 n-threads=2",
    "white-point=3200 green-gain=0.9 gamma=1.2",
    "tone-map=filmic exposure=1.5 saturation=0.9",
    "tone-map=reinhard exposure=1 white-point=5000",
    "vignette-strength=0.8 gamma=1.1",
    "vignette-strength=-0.5 contrast=1.2 n-threads=3",
    "linear-gamma=1.4 saturation=0.8",
    "linear-gamma=0.6 gamma=1.3 exposure=-0.5",
  };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (settings); s++)
    {
      GstHarness *h = adjust_harness_new (settings[s]);
      GstBuffer *in, *out;
      GstCaps *out_caps;
      TexelAdjustConfig cfg;

      gst_harness_set_caps_str (h, caps, caps);
      in = texel_buffer_new_random (&info, rand, 0);
      gst_buffer_ref (in);
      out = texel_push_pull (h, in);
      fail_if (out == in, "%s %s: passthrough", format, settings[s]);
      out_caps = gst_pad_get_current_caps (h->sinkpad);
      {
        GstVideoInfo oinfo;

        fail_unless (gst_video_info_from_caps (&oinfo, out_caps));
        fail_unless (gst_video_info_is_equal (&oinfo, &info),
                     "output caps differ from the input's");
      }
      gst_caps_unref (out_caps);

      config_from_element (h->element, &cfg);
      check_reference (&info, in, out, &cfg, settings[s]);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* GStreamer's own `gamma ! videobalance` (gst-plugins-good) and
 * texeladjust with the same settings give the same codes on random
 * frames: every format both elements take, both ranges. The bound is 0
 * codes: texeladjust computes the elements' formulas with their
 * roundings (texel-adjust.h). */
static const gchar *gst_formats[]
    = { "I420", "YV12", "NV12", "NV21", "YUY2", "UYVY", "RGBA",
        "BGRA", "RGBx", "BGRx", "ARGB", "ABGR", "RGB",  "BGR" };

typedef struct
{
  gdouble gamma, brightness, contrast, saturation, hue;
} GstSettings;

static const GstSettings gst_settings[] = {
  { 0.7, 0, 1, 1, 0 },
  { 1, 0.3, 1, 1, 0 },
  { 1, 0.1, 1, 1, 0 },
  { 1.5, 0, 1, 1.3, 0 },
  { 1, 0.1, 1.2, 1.5, 0.25 },
  { 1, -0.3, 0.5, 0, 0 },
  { 2.2, 0.05, 1.1, 0.3, -0.5 },
  { 0.45, 0, 2, 2, -0.8 },
  { 10, 0, 1, 1, 1 },
};

/* "gamma=... ! videobalance ..." (@sep " ! videobalance") or the same
 * properties for texeladjust (@sep " "), hue times @hue_sign. */
static gchar *
gst_settings_string (const GstSettings *g, const gchar *sep, gdouble hue_sign)
{
  return g_strdup_printf ("gamma=%g%sbrightness=%g contrast=%g "
                          "saturation=%g hue=%g",
                          g->gamma, sep, g->brightness, g->contrast,
                          g->saturation, g->hue * hue_sign);
}

/* @h's output for one random frame (@in: not taken). */
static GstBuffer *
run_harness (GstHarness *h, const gchar *caps, GstBuffer *in)
{
  gst_harness_set_caps_str (h, caps, caps);
  return texel_push_pull (h, gst_buffer_copy_deep (in));
}

/* How far GStreamer's elements, as built for this machine, may be from
 * texeladjust. texeladjust rounds every operation on its own, as the
 * definition does, on every machine (test-adjust: 0 codes from it
 * everywhere). Where the target has a fused multiply-add (__FP_FAST_FMA:
 * arm64), gcc's default for GNU C fuses a * b + c in the elements' own
 * build, which rounds a few of videobalance's table entries the other way:
 * there, up to 2 codes on at most 1 % of the samples. */
#ifdef __FP_FAST_FMA
#define GST_ELEMENTS_MAX_CODES 2
#define GST_ELEMENTS_MAX_DIFFER_PERCENT 1
#else
#define GST_ELEMENTS_MAX_CODES 0
#define GST_ELEMENTS_MAX_DIFFER_PERCENT 0
#endif

GST_START_TEST (test_gst_elements)
{
  const gchar *format = gst_formats[__i__];
  GRand *rand = g_rand_new_with_seed (100 + __i__);
  guint s, full, c;

  for (s = 0; s < G_N_ELEMENTS (gst_settings); s++)
    {
      for (full = 0; full < 2; full++)
        {
          gchar *caps
              = g_strdup_printf ("video/x-raw,format=%s,width=38,"
                                 "height=22,framerate=30/1,colorimetry=%s",
                                 format, full ? "1:4:0:0" : "bt709");
          gchar *ref_props
              = gst_settings_string (&gst_settings[s], " ! videobalance ", 1.0);
          gchar *chain = g_strdup_printf ("gamma %s", ref_props);
          /* videobalance reads YV12's first chroma plane (V) as U, so that
           * its hue turns the other way there (gstvideobalance.c, planar
           * YUV: plane 1 taken for U); texeladjust reads the components. */
          gchar *props = gst_settings_string (
              &gst_settings[s], " ", strcmp (format, "YV12") == 0 ? -1.0 : 1.0);
          GstVideoInfo info = texel_video_info_from_caps_string (caps);
          GstHarness *ref = gst_harness_new_parse (chain);
          GstHarness *h = adjust_harness_new (props);
          GstBuffer *in = texel_buffer_new_random (&info, rand, 0);
          GstBuffer *want = run_harness (ref, caps, in);
          GstBuffer *got = run_harness (h, caps, in);
          GstVideoFrame fw, fg;
          gint x, y, differ = 0, max_diff = 0, samples = 0;

          fail_unless (gst_video_frame_map (&fw, &info, want, GST_MAP_READ));
          fail_unless (gst_video_frame_map (&fg, &info, got, GST_MAP_READ));
          for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fw); c++)
            for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fw, c); y++)
              for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fw, c); x++)
                {
                  gint e = ABS ((gint)frame_get (&fw, c, x, y)
                                - (gint)frame_get (&fg, c, x, y));

                  differ += e > 0;
                  max_diff = MAX (max_diff, e);
                  samples++;
                }
          fail_unless (
              max_diff <= GST_ELEMENTS_MAX_CODES
                  && differ * 100 <= samples * GST_ELEMENTS_MAX_DIFFER_PERCENT,
              "%s, %s range, '%s': %d of %d samples differ from GStreamer's "
              "elements (max %d codes)",
              format, full ? "full" : "limited", chain, differ, samples,
              max_diff);
          gst_video_frame_unmap (&fw);
          gst_video_frame_unmap (&fg);
          gst_buffer_unref (in);
          gst_buffer_unref (want);
          gst_buffer_unref (got);
          gst_harness_teardown (ref);
          gst_harness_teardown (h);
          g_free (props);
          g_free (ref_props);
          g_free (chain);
          g_free (caps);
        }
    }
  g_rand_free (rand);
}

GST_END_TEST;

/* The white point's gains are computed in the caps' primaries: BT.2020
 * frames get BT.2020's (which differ from BT.709's enough to change
 * codes). */
GST_START_TEST (test_white_point_primaries)
{
  static const double bt2020[4][2] = {
    { 0.708, 0.292 }, { 0.170, 0.797 }, { 0.131, 0.046 }, { 0.3127, 0.3290 }
  };
  static const double bt709[4][2]
      = { { 0.64, 0.33 }, { 0.30, 0.60 }, { 0.15, 0.06 }, { 0.3127, 0.3290 } };
  const gchar *caps = "video/x-raw,format=NV12,width=32,height=16,"
                      "framerate=30/1,colorimetry=bt2020";
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (12);
  GstHarness *h = adjust_harness_new ("white-point=3000");
  GstBuffer *in, *out, *ref;
  TexelAdjustConfig cfg;
  TexelAdjustPlan plan;
  GstVideoFrame fin, fref, fout;
  TexelImage iin, iref;
  guint c, differ = 0;
  gint x, y;

  gst_harness_set_caps_str (h, caps, caps);
  in = texel_buffer_new_random (&info, rand, 0);
  gst_buffer_ref (in);
  out = texel_push_pull (h, in);

  texel_adjust_config_init (&cfg);
  cfg.white_point = 3000;
  cfg.matrix = TEXEL_MATRIX_BT2020;
  cfg.transfer = TEXEL_TRANSFER_BT709;
  memcpy (cfg.primaries, bt2020, sizeof (bt2020));
  fail_unless (
      texel_adjust_plan_init (&plan, &cfg, TEXEL_FORMAT_NV12, 32, 16, NULL)
      == 0);
  ref = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, &info, ref, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  texel_image_from_frame (&iin, &fin);
  texel_image_from_frame (&iref, &fref);
  texel_adjust_cpu (&plan, &iin, &iref, 0, 16);
  for (c = 0; c < 3; c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fout, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fout, c); x++)
        fail_unless_equals_int (frame_get (&fout, c, x, y),
                                frame_get (&fref, c, x, y));

  /* The same frame with BT.709 primaries comes out differently. */
  memcpy (cfg.primaries, bt709, sizeof (bt709));
  fail_unless (
      texel_adjust_plan_init (&plan, &cfg, TEXEL_FORMAT_NV12, 32, 16, NULL)
      == 0);
  texel_adjust_cpu (&plan, &iin, &iref, 0, 16);
  for (c = 0; c < 3; c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fout, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fout, c); x++)
        differ += frame_get (&fout, c, x, y) != frame_get (&fref, c, x, y);
  fail_unless (differ > 0, "BT.709 and BT.2020 primaries give one result");

  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fout);
  gst_buffer_unref (ref);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* Known values: saturation 0 on RGBA leaves videobalance's grey (its
 * fixed-point BT.601: Y' = 122, back to 123 in each channel; the exact
 * 0.299 * 200 + 0.587 * 100 + 0.114 * 50 is 124.2); a red gain of 0 on
 * sRGB frames blacks out red. */
GST_START_TEST (test_known_values)
{
  gchar *caps = make_caps ("RGBA", 4, 4);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GstHarness *h = adjust_harness_new ("saturation=0");
  GstBuffer *in
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL),
      *out;
  GstVideoFrame f;
  gint x, y;

  gst_harness_set_caps_str (h, caps, caps);
  fail_unless (gst_video_frame_map (&f, &info, in, GST_MAP_WRITE));
  for (y = 0; y < 4; y++)
    for (x = 0; x < 4; x++)
      {
        frame_set (&f, 0, x, y, 200);
        frame_set (&f, 1, x, y, 100);
        frame_set (&f, 2, x, y, 50);
        frame_set (&f, 3, x, y, 77);
      }
  gst_video_frame_unmap (&f);
  out = texel_push_pull (h, in);
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
  for (x = 0; x < 3; x++)
    fail_unless_equals_int (frame_get (&f, x, 1, 1), 123);
  fail_unless_equals_int (frame_get (&f, 3, 1, 1), 77);
  gst_video_frame_unmap (&f);
  in = gst_buffer_copy (out);
  gst_buffer_unref (out);

  g_object_set (h->element, "saturation", 1.0, "red-gain", 0.0, NULL);
  fail_unless (gst_video_frame_map (&f, &info, in, GST_MAP_WRITE));
  frame_set (&f, 0, 1, 1, 200);
  frame_set (&f, 1, 1, 1, 100);
  gst_video_frame_unmap (&f);
  out = texel_push_pull (h, in);
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
  fail_unless_equals_int (frame_get (&f, 0, 1, 1), 0);
  fail_unless_equals_int (frame_get (&f, 1, 1, 1), 100);
  fail_unless_equals_int (frame_get (&f, 2, 1, 1), 123);
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
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (2);
  GstHarness *h = adjust_harness_new (NULL);
  GstBuffer *in, *out;
  TexelAdjustConfig cfg;
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  for (i = 0; i < G_N_ELEMENTS (properties); i++)
    {
      const gchar *name = properties[i].name;
      gdouble v = changed_value (&properties[i]);

      in = texel_buffer_new_random (&info, rand, i * GST_SECOND / 30);
      out = texel_push_pull (h, in);
      fail_unless (out == in, "%s: neutral but not passthrough", name);
      gst_buffer_unref (out);

      g_object_set (h->element, name, v, NULL);
      in = texel_buffer_new_random (&info, rand, i * GST_SECOND / 30);
      gst_buffer_ref (in);
      out = texel_push_pull (h, in);
      fail_if (out == in, "%s=%g: passthrough", name, v);
      texel_adjust_config_init (&cfg);
      config_set (&cfg, name, v);
      check_reference (&info, in, out, &cfg, name);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      g_object_set (h->element, name, properties[i].def, NULL);
    }
  /* The tone map, each way, and back to neutral. */
  for (i = TEXEL_TONE_MAP_REINHARD; i <= TEXEL_TONE_MAP_FILMIC + 1; i++)
    {
      TexelToneMap tm
          = i <= TEXEL_TONE_MAP_FILMIC ? (TexelToneMap)i : TEXEL_TONE_MAP_NONE;

      g_object_set (h->element, "tone-map", tm, NULL);
      in = texel_buffer_new_random (&info, rand, 0);
      gst_buffer_ref (in);
      out = texel_push_pull (h, in);
      if (tm == TEXEL_TONE_MAP_NONE)
        {
          fail_unless (out == in, "tone-map=none: not passthrough");
        }
      else
        {
          fail_if (out == in, "tone-map=%d: passthrough", tm);
          texel_adjust_config_init (&cfg);
          cfg.tone_map = tm;
          check_reference (&info, in, out, &cfg, "tone-map");
        }
      gst_buffer_unref (in);
      gst_buffer_unref (out);
    }
  gst_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* NaN never reaches a plan. GLib's g_object_set refuses it itself (a
 * double param spec's validation clamps, and NaN compares unequal to its
 * clamped self: a g_warning, the value is not set); what reaches the
 * element's set_property another way (a direct call, as a binding or a
 * G_PARAM_LAX_VALIDATION path would make) is refused there: the element
 * keeps the value it had (and logs a warning: not checked here, a debug
 * log function would leak under valgrind). The next frame is adjusted
 * with the kept value, in and out of passthrough. */
static void
set_nan (GstElement *e, const gchar *name)
{
  GParamSpec *pspec
      = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;

  ASSERT_WARNING (g_object_set (e, name, NAN, NULL));
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, NAN);
  G_OBJECT_GET_CLASS (e)->set_property (G_OBJECT (e), pspec->param_id, &v,
                                        pspec);
  g_value_unset (&v);
}

GST_START_TEST (test_nan_rejected)
{
  gchar *caps = make_caps ("NV12", 16, 8);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (6);
  GstHarness *h = adjust_harness_new (NULL);
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  for (i = 0; i < G_N_ELEMENTS (properties); i++)
    {
      const gchar *name = properties[i].name;
      gdouble v = changed_value (&properties[i]), got;
      GstBuffer *in, *out;
      TexelAdjustConfig cfg;

      /* Neutral: NaN leaves it passthrough. */
      set_nan (h->element, name);
      g_object_get (h->element, name, &got, NULL);
      fail_unless_equals_float (got, properties[i].def);
      in = texel_buffer_new_random (&info, rand, 0);
      out = texel_push_pull (h, in);
      fail_unless (out == in, "%s=NaN: left passthrough", name);
      gst_buffer_unref (out);

      /* Adjusting: NaN keeps the value set before. */
      g_object_set (h->element, name, v, NULL);
      set_nan (h->element, name);
      g_object_get (h->element, name, &got, NULL);
      fail_unless_equals_float (got, v);
      in = texel_buffer_new_random (&info, rand, 0);
      gst_buffer_ref (in);
      out = texel_push_pull (h, in);
      fail_if (out == in, "%s=%g then NaN: passthrough", name, v);
      texel_adjust_config_init (&cfg);
      config_set (&cfg, name, v);
      check_reference (&info, in, out, &cfg, name);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      g_object_set (h->element, name, properties[i].def, NULL);
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
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
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
  gst_object_add_control_binding (
      GST_OBJECT (h->element), gst_direct_control_binding_new (
                                   GST_OBJECT (h->element), "saturation", cs));
  gst_harness_set_caps_str (h, caps, caps);

  in = texel_buffer_new_random (&info, rand, GST_SECOND / 2);
  gst_buffer_ref (in);
  out = texel_push_pull (h, in);
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

/* ------------------------------------------------------------------ */
/* lut-file */

static gchar *
data_path (const gchar *name)
{
  return g_build_filename (TEXEL_TEST_DATA_DIR, name, NULL);
}

/* The table of a committed .cube file, as the test reads it. */
static TexelCube *
load_cube (const gchar *name)
{
  gchar *path = data_path (name), *text = NULL;
  gsize length = 0;
  TexelCubeError error;
  TexelCube *cube;

  fail_unless (g_file_get_contents (path, &text, &length, NULL), "%s", path);
  cube = texel_cube_parse (text, length, &error);
  fail_unless (cube != NULL, "%s, line %d: %s", path, error.line,
               error.message);
  g_free (text);
  g_free (path);
  return cube;
}

GST_START_TEST (test_lut_property)
{
  GstElement *e = gst_element_factory_make ("texeladjust", NULL);
  GParamSpec *pspec
      = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "lut-file");
  gchar *file = NULL;

  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_STRING (pspec));
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (G_PARAM_SPEC_STRING (pspec)->default_value == NULL);
  g_object_set (e, "lut-file", "/x/y.cube", NULL);
  g_object_get (e, "lut-file", &file, NULL);
  fail_unless_equals_string (file, "/x/y.cube");
  g_free (file);
  /* Empty means none. */
  g_object_set (e, "lut-file", "", NULL);
  g_object_get (e, "lut-file", &file, NULL);
  fail_unless (file == NULL);
  gst_object_unref (e);
}

GST_END_TEST;

/* Identity LUTs (2 and 9 points) copy RGB and GRAY8 frames exactly; the
 * inversion gives 255 - code and the red / blue swap swaps (CR LF file,
 * 3-point file); the alpha stays. */
GST_START_TEST (test_lut_known)
{
  static const struct
  {
    const gchar *file;
    const gchar *format;
  } cases[] = {
    { "identity-2.cube", "RGBA" },    { "identity-9.cube", "BGR" },
    { "identity-9.cube", "GRAY8" },   { "identity-2.cube", "ARGB" },
    { "invert-2-crlf.cube", "RGBx" }, { "invert-2-crlf.cube", "ABGR" },
    { "swap-rb-3.cube", "RGBA" },     { "swap-rb-3.cube", "BGRx" },
  };
  GRand *rand = g_rand_new_with_seed (51);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *caps = make_caps (cases[i].format, 19, 7);
      GstVideoInfo info = texel_video_info_from_caps_string (caps);
      gchar *path = data_path (cases[i].file);
      gchar *props = g_strdup_printf ("lut-file=%s", path);
      GstHarness *h = adjust_harness_new (props);
      GstBuffer *in, *out;
      GstVideoFrame fin, fout;
      guint c, n = GST_VIDEO_INFO_N_COMPONENTS (&info);
      gint x, y;

      gst_harness_set_caps_str (h, caps, caps);
      in = texel_buffer_new_random (&info, rand, 0);
      gst_buffer_ref (in);
      out = texel_push_pull (h, in);
      fail_if (out == in, "%s: passthrough", cases[i].file);
      fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
      for (c = 0; c < n; c++)
        for (y = 0; y < 7; y++)
          for (x = 0; x < 19; x++)
            {
              guint v = frame_get (&fin, c, x, y), want = v;

              if (c < 3 && g_str_has_prefix (cases[i].file, "invert"))
                want = 255 - v;
              else if (c < 3 && g_str_has_prefix (cases[i].file, "swap"))
                want = frame_get (&fin, 2 - c, x, y);
              fail_unless_equals_int (frame_get (&fout, c, x, y), want);
            }
      gst_video_frame_unmap (&fin);
      gst_video_frame_unmap (&fout);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
      g_free (props);
      g_free (path);
      g_free (caps);
    }
  g_rand_free (rand);
}

GST_END_TEST;

/* Every format with a non-linear LUT after other adjustments: the CPU
 * reference's output with the same table, exactly. */
GST_START_TEST (test_lut_formats)
{
  const gchar *format = texel_all_formats[__i__];
  gchar *caps = make_caps (format, 21, 13);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  gchar *path = data_path ("squares-5.cube");
  gchar *props = g_strdup_printf ("lut-file=%s gamma=1.2 saturation=1.2", path);
  GRand *rand = g_rand_new_with_seed (60 + __i__);
  GstHarness *h = adjust_harness_new (props);
  TexelCube *cube = load_cube ("squares-5.cube");
  GstBuffer *in, *out;
  TexelAdjustConfig cfg;

  gst_harness_set_caps_str (h, caps, caps);
  in = texel_buffer_new_random (&info, rand, 0);
  gst_buffer_ref (in);
  out = texel_push_pull (h, in);
  config_from_element (h->element, &cfg);
  cfg.cube = cube;
  check_reference (&info, in, out, &cfg, "squares-5");
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  texel_cube_free (cube);
  g_rand_free (rand);
  g_free (props);
  g_free (path);
  g_free (caps);
}

GST_END_TEST;

/* The first error message on @e's bus; fails without one. */
static gchar *
pop_error (GstElement *e)
{
  GstBus *bus = gst_element_get_bus (e);
  GstMessage *msg;
  GError *err = NULL;
  gchar *text;

  fail_unless (bus != NULL);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_object_unref (bus);
  return text;
}

/* A LUT file that cannot be used fails the start (READY -> PAUSED) with an
 * error that names the file and, for a malformed one, the line and what
 * is wrong. */
GST_START_TEST (test_lut_broken_at_start)
{
  static const struct
  {
    const gchar *file;
    const gchar *says;
  } cases[] = {
    { "broken-bad-number.cube", "line 5: entry: bad number '1,0'" },
    { "broken-nan.cube", "line 7: entry: 'nan' is not a finite number" },
    { "broken-1d.cube", "line 2: 1D LUTs (LUT_1D_SIZE) are not supported" },
    { "broken-short.cube", "line 9: 7 entries, LUT_3D_SIZE 2 needs 8" },
    { "broken-size-range.cube", "line 1: LUT_3D_SIZE 300 out of range" },
    { "broken-empty.cube", ": no LUT_3D_SIZE" },
    { "no-such-file.cube", "Cannot read the 3D LUT file" },
    { "", "not a regular file" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GstElement *e = gst_element_factory_make ("texeladjust", NULL);
      GstBus *bus = gst_bus_new ();
      gchar *path = data_path (cases[i].file), *text;

      gst_element_set_bus (e, bus);
      g_object_set (e, "backend", 2, "lut-file", path, NULL);
      fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
                              GST_STATE_CHANGE_FAILURE);
      text = pop_error (e);
      GST_INFO ("%s: %s", cases[i].file, text);
      fail_unless (strstr (text, path) != NULL, "\"%s\" does not name %s", text,
                   path);
      fail_unless (strstr (text, cases[i].says) != NULL,
                   "\"%s\" does not say \"%s\"", text, cases[i].says);
      g_free (text);
      gst_element_set_state (e, GST_STATE_NULL);
      drop_bus_messages (e);
      gst_object_unref (bus);
      gst_object_unref (e);
      g_free (path);
    }
}

GST_END_TEST;

/* lut-file set while PLAYING: read before the next frame (in, out of and
 * back into passthrough); a broken one then is an element error naming
 * the file and the line, and the frame is refused. */
GST_START_TEST (test_lut_while_playing)
{
  gchar *caps = make_caps ("RGBA", 8, 4);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (70);
  GstHarness *h = adjust_harness_new (NULL);
  gchar *invert = data_path ("invert-2-crlf.cube");
  gchar *broken = data_path ("broken-two-numbers.cube"), *text;
  GstBuffer *in, *out;
  GstBus *bus;
  GstVideoFrame fin, fout;

  gst_harness_set_caps_str (h, caps, caps);
  in = texel_buffer_new_random (&info, rand, 0);
  out = texel_push_pull (h, in);
  fail_unless (out == in, "neutral: not passthrough");
  gst_buffer_unref (out);

  g_object_set (h->element, "lut-file", invert, NULL);
  in = texel_buffer_new_random (&info, rand, 0);
  gst_buffer_ref (in);
  out = texel_push_pull (h, in);
  fail_if (out == in, "lut-file set: passthrough");
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  fail_unless_equals_int (frame_get (&fout, 1, 3, 2),
                          255 - frame_get (&fin, 1, 3, 2));
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  gst_buffer_unref (in);
  gst_buffer_unref (out);

  g_object_set (h->element, "lut-file", NULL, NULL);
  in = texel_buffer_new_random (&info, rand, 0);
  out = texel_push_pull (h, in);
  fail_unless (out == in, "lut-file unset: not passthrough");
  gst_buffer_unref (out);

  bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);
  g_object_set (h->element, "lut-file", broken, NULL);
  in = texel_buffer_new_random (&info, rand, 0);
  fail_if (gst_harness_push (h, in) == GST_FLOW_OK);
  text = pop_error (h->element);
  fail_unless (strstr (text, broken) != NULL, "%s", text);
  fail_unless (strstr (text, "line 4: entry: expected 3 numbers, found 2")
                   != NULL,
               "%s", text);
  g_free (text);

  texel_harness_teardown (h);
  gst_object_unref (bus);
  g_free (invert);
  g_free (broken);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* gst-launch-1.0 videotestsrc num-buffers=10 ! texeladjust gamma=1.5
 * saturation=1.3 ! fakesink, and the same neutral. */
GST_START_TEST (test_pipeline)
{
  static const gchar *lines[] = {
    "videotestsrc num-buffers=10 ! texeladjust gamma=1.5 saturation=1.3 "
    "backend=cpu ! fakesink",
    "videotestsrc num-buffers=10 ! video/x-raw,format=P010_10LE ! "
    "texeladjust exposure=-1 hue=0.5 backend=cpu ! fakesink",
    "videotestsrc num-buffers=10 ! video/x-raw,format=P010_10LE ! "
    "texeladjust exposure=2 tone-map=filmic white-point=4000 "
    "backend=cpu ! fakesink",
    "videotestsrc num-buffers=10 ! texeladjust backend=cpu ! fakesink",
  };

  texel_run_launch_lines (lines, G_N_ELEMENTS (lines), 30 * GST_SECOND);
}

GST_END_TEST;

static Suite *
texeladjust_suite (void)
{
  const TexelTest general_tests[] = {
    TEXEL_TEST (test_properties),
    TEXEL_TEST (test_tone_map_property),
    TEXEL_TEST (test_passthrough),
    TEXEL_LOOP_TEST (test_formats, TEXEL_N_FORMATS),
    TEXEL_TEST (test_known_values),
    TEXEL_LOOP_TEST (test_gst_elements, G_N_ELEMENTS (gst_formats)),
    TEXEL_TEST (test_white_point_primaries),
    TEXEL_TEST (test_change_while_playing),
    TEXEL_TEST (test_nan_rejected),
#ifdef HAVE_GST_CONTROLLER
    TEXEL_TEST (test_controller),
#endif
    TEXEL_TEST (test_lut_property),
    TEXEL_TEST (test_lut_known),
    TEXEL_LOOP_TEST (test_lut_formats, TEXEL_N_FORMATS),
    TEXEL_TEST (test_lut_broken_at_start),
    TEXEL_TEST (test_lut_while_playing),
    TEXEL_TEST (test_pipeline),
  };

  return texel_suite_new ("texeladjust", "general", 120, general_tests,
                          G_N_ELEMENTS (general_tests));
}

int
main (int argc, char **argv)
{
  return texel_check_run (&argc, &argv, texeladjust_suite, "texeladjust",
                          __FILE__);
}
