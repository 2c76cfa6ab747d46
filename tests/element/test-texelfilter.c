/* gst-texel: element tests for texelfilter on the CPU path.
 *
 * Runs without a GPU (backend=cpu): outputs are compared with the kernel
 * library's CPU reference run on the same frames, which must agree
 * exactly, or within 1 code where the element runs the fast path's
 * fixed-point gaussian (8-bit formats); the reference itself is checked against
 * the definitions in tests/unit/test-filter.c. Also: every property (flags,
 * ranges, defaults), bad values (NaN, out of range: refused, never
 * reaching a frame), neutral settings (passthrough), caps (same in and
 * out), planes=luma leaving the chroma untouched, changes while PLAYING,
 * a GstController driving a property, and gst-launch style pipelines.
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

#include "texel-filter.h"
#include "texel-frames.h"

/* The numeric properties: range and default. */
typedef struct
{
  const gchar *name;
  gboolean is_int;
  gdouble def, min, max;
} NumericProperty;

static const NumericProperty numeric[] = {
  { "sigma", FALSE, 1, 0, 10 },       { "amount", FALSE, 1, 0, 10 },
  { "sigma-space", FALSE, 1, 0, 16 }, { "sigma-range", FALSE, 0.1, 0.001, 1 },
  { "radius", TRUE, 1, 0, 32 },
};

/* The enum properties: their values' nicks, default first. */
typedef struct
{
  const gchar *name;
  const gchar *nicks[6];
} EnumProperty;

static const EnumProperty enums[] = {
  { "filter", { "gaussian", "unsharp", "bilateral", "box", "sobel", NULL } },
  { "border-mode", { "clamp", "mirror", NULL } },
  { "planes", { "all", "luma", NULL } },
};

/* Settings each filter runs with in the format and change tests. */
static const gchar *filter_settings[] = {
  "filter=gaussian sigma=1.3",
  "filter=unsharp sigma=0.9 amount=2 border-mode=mirror",
  "filter=bilateral sigma-space=1 sigma-range=0.08 n-threads=2",
  "filter=box radius=2 planes=luma border-mode=mirror",
  "filter=sobel n-threads=3",
};

/* ------------------------------------------------------------------ */

static gchar *
make_caps (const gchar *format, gint width, gint height)
{
  return texel_caps_new (format, width, height, NULL, NULL);
}

/* The element's settings, read back through its properties. */
static void
config_from_element (GstElement *e, TexelFilterConfig *cfg)
{
  gint filter, border, planes;

  texel_filter_config_init (cfg);
  g_object_get (e, "filter", &filter, "sigma", &cfg->sigma, "amount",
                &cfg->amount, "sigma-space", &cfg->sigma_space, "sigma-range",
                &cfg->sigma_range, "radius", &cfg->radius, "border-mode",
                &border, "planes", &planes, NULL);
  cfg->filter = filter;
  cfg->border = border;
  cfg->planes = planes;
}

/* Fails unless @out is @in filtered by the CPU reference with @cfg:
 * exactly, except the fast CPU path's gaussian on 8-bit formats, within
 * 1 code (kernels/filter/texel-filter-fast.h). */
static void
check_reference (const GstVideoInfo *info, GstBuffer *in, GstBuffer *out,
                 const TexelFilterConfig *cfg, const gchar *what)
{
  GstBuffer *ref
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame fin, fout, fref;
  TexelImage iin, iref;
  TexelFilterPlan plan;
  const char *why = NULL;
  guint c;
  gint x, y, tolerance;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_WRITE));
  texel_image_from_frame (&iin, &fin);
  texel_image_from_frame (&iref, &fref);
  fail_unless (texel_filter_plan_init (&plan, cfg, iin.format, iin.width,
                                       iin.height, &why)
                   == 0,
               "plan: %s", why);
  texel_filter_cpu (&plan, &iin, &iref, 0, iin.height);
  tolerance
      = cfg->filter == TEXEL_FILTER_GAUSSIAN && plan.fmt.bytes_per_sample == 1;
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fout); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fout, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fout, c); x++)
        fail_unless (ABS ((gint)frame_get (&fout, c, x, y)
                          - (gint)frame_get (&fref, c, x, y))
                         <= tolerance,
                     "%s: %s component %u at (%d, %d): %u, reference %u", what,
                     GST_VIDEO_INFO_NAME (info), c, x, y,
                     frame_get (&fout, c, x, y), frame_get (&fref, c, x, y));
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fref);
  gst_buffer_unref (ref);
}

/* Sets "name=value ..." on @e. */
static void
set_props (GstElement *e, const gchar *props)
{
  gchar **tokens = g_strsplit (props ? props : "", " ", -1);
  gchar **t;

  for (t = tokens; *t; t++)
    {
      gchar *eq = strchr (*t, '=');

      if (eq == NULL)
        continue;
      *eq = '\0';
      gst_util_set_object_arg (G_OBJECT (e), *t, eq + 1);
    }
  g_strfreev (tokens);
}

/* The element with backend=cpu and @props, in a harness (which sets it
 * PLAYING). */
static GstHarness *
filter_harness_new (const gchar *props)
{
  GstElement *e = gst_element_factory_make ("texelfilter", NULL);
  GstHarness *h;

  fail_unless (e != NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  set_props (e, props);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

/* Pushes a random frame (keeping a reference to it) and checks the
 * output against the reference with the element's current settings. */
static void
push_and_check (GstHarness *h, const GstVideoInfo *info, GRand *rand,
                GstClockTime pts, const gchar *what)
{
  GstBuffer *in = texel_buffer_new_random (info, rand, pts), *out;
  TexelFilterConfig cfg;

  gst_buffer_ref (in);
  out = texel_push_pull (h, in);
  fail_if (out == in, "%s: passthrough", what);
  config_from_element (h->element, &cfg);
  check_reference (info, in, out, &cfg, what);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

static gdouble
get_number (GstElement *e, const NumericProperty *p)
{
  if (p->is_int)
    {
      gint v;

      g_object_get (e, p->name, &v, NULL);
      return v;
    }
  else
    {
      gdouble v;

      g_object_get (e, p->name, &v, NULL);
      return v;
    }
}

static void
set_number (GstElement *e, const NumericProperty *p, gdouble v)
{
  if (p->is_int)
    g_object_set (e, p->name, (gint)v, NULL);
  else
    g_object_set (e, p->name, v, NULL);
}

/* ------------------------------------------------------------------ */

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("texelfilter", NULL);
  GObjectClass *klass;
  guint i, k;

  fail_unless (e != NULL);
  klass = G_OBJECT_GET_CLASS (e);
  for (i = 0; i < G_N_ELEMENTS (numeric); i++)
    {
      const NumericProperty *p = &numeric[i];
      GParamSpec *pspec = g_object_class_find_property (klass, p->name);

      fail_unless (pspec != NULL, "no property %s", p->name);
      fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE);
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
      if (p->is_int)
        {
          GParamSpecInt *s = G_PARAM_SPEC_INT (pspec);

          fail_unless_equals_int (s->default_value, (gint)p->def);
          fail_unless_equals_int (s->minimum, (gint)p->min);
          fail_unless_equals_int (s->maximum, (gint)p->max);
        }
      else
        {
          GParamSpecDouble *s = G_PARAM_SPEC_DOUBLE (pspec);

          fail_unless_equals_float (s->default_value, p->def);
          fail_unless_equals_float (s->minimum, p->min);
          fail_unless_equals_float (s->maximum, p->max);
        }
      fail_unless_equals_float (get_number (e, p), p->def);
      set_number (e, p, p->max);
      fail_unless_equals_float (get_number (e, p), p->max);
      set_number (e, p, p->min);
      fail_unless_equals_float (get_number (e, p), p->min);
    }
  for (i = 0; i < G_N_ELEMENTS (enums); i++)
    {
      const EnumProperty *p = &enums[i];
      GParamSpec *pspec = g_object_class_find_property (klass, p->name);
      GEnumClass *eclass;
      gint v;

      fail_unless (pspec != NULL, "no property %s", p->name);
      fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE);
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
      eclass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
      fail_unless_equals_string (
          g_enum_get_value (eclass, G_PARAM_SPEC_ENUM (pspec)->default_value)
              ->value_nick,
          p->nicks[0]);
      for (k = 0; p->nicks[k]; k++)
        {
          fail_unless (g_enum_get_value_by_nick (eclass, p->nicks[k]) != NULL,
                       "%s: no value %s", p->name, p->nicks[k]);
          gst_util_set_object_arg (G_OBJECT (e), p->name, p->nicks[k]);
          g_object_get (e, p->name, &v, NULL);
          fail_unless_equals_string (g_enum_get_value (eclass, v)->value_nick,
                                     p->nicks[k]);
        }
      fail_unless_equals_int (eclass->n_values, k);
    }
  gst_object_unref (e);
}

GST_END_TEST;

/* The element's set_property with @v, past GLib's validation of the
 * value against the param spec (which g_object_set and GstController
 * bindings go through): what the element itself does with NaN. */
static void
set_property_unchecked (GstElement *e, const gchar *name, gdouble v)
{
  GParamSpec *pspec
      = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue value = G_VALUE_INIT;

  g_value_init (&value, G_TYPE_DOUBLE);
  g_value_set_double (&value, v);
  G_OBJECT_GET_CLASS (e)->set_property (G_OBJECT (e), pspec->param_id, &value,
                                        pspec);
  g_value_unset (&value);
}

/* NaN and out-of-range values are refused (by GLib's validation, with a
 * warning; NaN also by the element itself) and the property keeps its
 * value; frames keep flowing with it. */
GST_START_TEST (test_bad_values)
{
  gchar *caps = make_caps ("I420", 24, 16);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (3);
  GstHarness *h = filter_harness_new ("filter=bilateral");
  GstElement *e = h->element;
  guint i;
  gint enum_before, enum_after;

  gst_harness_set_caps_str (h, caps, caps);
  push_and_check (h, &info, rand, 0, "before");
  for (i = 0; i < G_N_ELEMENTS (numeric); i++)
    {
      const NumericProperty *p = &numeric[i];
      gdouble before = get_number (e, p);

      if (!p->is_int)
        {
          ASSERT_WARNING (g_object_set (e, p->name, (gdouble)NAN, NULL));
          fail_unless_equals_float (get_number (e, p), before);
          set_property_unchecked (e, p->name, NAN);
          fail_unless_equals_float (get_number (e, p), before);
          /* Past GLib's validation, out of range is refused the same way. */
          set_property_unchecked (e, p->name, p->max + 0.5);
          fail_unless_equals_float (get_number (e, p), before);
          set_property_unchecked (e, p->name, p->min - 0.5);
          fail_unless_equals_float (get_number (e, p), before);
          ASSERT_WARNING (g_object_set (e, p->name, p->max + 0.5, NULL));
          fail_unless_equals_float (get_number (e, p), before);
          ASSERT_WARNING (g_object_set (e, p->name, p->min - 0.5, NULL));
          fail_unless_equals_float (get_number (e, p), before);
          ASSERT_WARNING (g_object_set (e, p->name, (gdouble)INFINITY, NULL));
          fail_unless_equals_float (get_number (e, p), before);
        }
      else
        {
          ASSERT_WARNING (g_object_set (e, p->name, (gint)p->max + 1, NULL));
          fail_unless_equals_float (get_number (e, p), before);
          ASSERT_WARNING (g_object_set (e, p->name, (gint)p->min - 1, NULL));
          fail_unless_equals_float (get_number (e, p), before);
        }
    }
  for (i = 0; i < G_N_ELEMENTS (enums); i++)
    {
      g_object_get (e, enums[i].name, &enum_before, NULL);
      ASSERT_WARNING (g_object_set (e, enums[i].name, 17, NULL));
      ASSERT_WARNING (g_object_set (e, enums[i].name, -1, NULL));
      g_object_get (e, enums[i].name, &enum_after, NULL);
      fail_unless_equals_int (enum_after, enum_before);
    }
  /* Still the bilateral with its defaults: nothing bad reached the plan. */
  push_and_check (h, &info, rand, GST_SECOND / 30, "after bad values");
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* Neutral settings: passthrough, the very input buffer. */
GST_START_TEST (test_passthrough)
{
  static const gchar *neutral[] = {
    "sigma=0",
    "filter=unsharp amount=0",
    "filter=unsharp sigma=0",
    "filter=bilateral sigma-space=0",
    "filter=box radius=0",
  };
  gchar *caps = make_caps ("NV12", 32, 16);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (1);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (neutral); i++)
    {
      GstHarness *h = filter_harness_new (neutral[i]);
      GstBuffer *in, *out;

      gst_harness_set_caps_str (h, caps, caps);
      in = texel_buffer_new_random (&info, rand, 0);
      out = texel_push_pull (h, in);
      fail_unless (out == in, "%s: not passthrough", neutral[i]);
      fail_unless (
          gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (h->element)));
      gst_buffer_unref (out);
      texel_harness_teardown (h);
    }
  /* The defaults blur. */
  {
    GstHarness *h = filter_harness_new (NULL);

    gst_harness_set_caps_str (h, caps, caps);
    push_and_check (h, &info, rand, 0, "defaults");
    texel_harness_teardown (h);
  }
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* Every format with every filter: the reference's output (check_reference's
 * bound), the
 * input's caps out. Odd sizes; some settings on several threads (bands
 * that read across their edges). */
GST_START_TEST (test_formats)
{
  const gchar *format = texel_all_formats[__i__];
  gchar *caps = make_caps (format, 37, 23);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (__i__);
  guint s;

  for (s = 0; s < G_N_ELEMENTS (filter_settings); s++)
    {
      GstHarness *h = filter_harness_new (filter_settings[s]);
      GstCaps *out_caps;
      GstVideoInfo oinfo;
      gchar *what = g_strdup_printf ("%s %s", format, filter_settings[s]);

      gst_harness_set_caps_str (h, caps, caps);
      push_and_check (h, &info, rand, 0, what);
      out_caps = gst_pad_get_current_caps (h->sinkpad);
      fail_unless (gst_video_info_from_caps (&oinfo, out_caps));
      fail_unless (gst_video_info_is_equal (&oinfo, &info),
                   "%s: output caps differ from the input's", what);
      gst_caps_unref (out_caps);
      texel_harness_teardown (h);
      g_free (what);
    }
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

/* planes=luma: YUV chroma samples are the input's, untouched; luma is
 * filtered. RGB formats are filtered as with planes=all. Alpha is copied
 * either way. */
GST_START_TEST (test_planes_luma)
{
  static const gchar *formats[]
      = { "NV12", "I420", "YUY2", "P010_10LE", "RGBA" };
  GRand *rand = g_rand_new_with_seed (7);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      gchar *caps = make_caps (formats[i], 33, 18);
      GstVideoInfo info = texel_video_info_from_caps_string (caps);
      GstHarness *h = filter_harness_new ("filter=box radius=2 planes=luma");
      GstHarness *all = filter_harness_new ("filter=box radius=2 planes=all");
      GstBuffer *in = texel_buffer_new_random (&info, rand, 0), *out, *out_all;
      GstVideoFrame fin, fout, fall;
      gboolean luma_changed = FALSE;
      guint c;
      gint x, y;

      gst_harness_set_caps_str (h, caps, caps);
      gst_harness_set_caps_str (all, caps, caps);
      out = texel_push_pull (h, gst_buffer_ref (in));
      out_all = texel_push_pull (all, gst_buffer_ref (in));
      fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fall, &info, out_all, GST_MAP_READ));
      for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fin); c++)
        for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fin, c); y++)
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fin, c); x++)
            {
              guint got = frame_get (&fout, c, x, y);

              /* Copied: alpha, YUV chroma; else as with planes=all. */
              gboolean copied
                  = c == 3 || (GST_VIDEO_INFO_IS_YUV (&info) && c > 0);

              fail_unless_equals_int (
                  got, frame_get (copied ? &fin : &fall, c, x, y));
              if (c == 0)
                luma_changed |= got != frame_get (&fin, c, x, y);
            }
      fail_unless (luma_changed, "%s: luma not filtered", formats[i]);
      gst_video_frame_unmap (&fin);
      gst_video_frame_unmap (&fout);
      gst_video_frame_unmap (&fall);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_buffer_unref (out_all);
      texel_harness_teardown (h);
      texel_harness_teardown (all);
      g_free (caps);
    }
  g_rand_free (rand);
}

GST_END_TEST;

/* A filter, not a converter: downstream's format and size are asked of
 * upstream unchanged, and input caps downstream cannot take fail. */
GST_START_TEST (test_caps)
{
  gchar *caps = make_caps ("NV12", 64, 48);
  gchar *other = make_caps ("I420", 32, 32);
  GstHarness *h = filter_harness_new (NULL);
  GstCaps *peer, *want;
  GstBuffer *in;
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (5);

  gst_harness_set_sink_caps_str (h, other);
  peer = gst_pad_peer_query_caps (h->srcpad, NULL);
  /* Progressive only (the fields of interlaced video would mix). */
  want = gst_caps_from_string (other);
  gst_caps_set_simple (want, "interlace-mode", G_TYPE_STRING, "progressive",
                       NULL);
  fail_unless (gst_caps_is_equal (peer, want),
               "upstream offered %" GST_PTR_FORMAT, peer);
  gst_caps_unref (peer);
  gst_caps_unref (want);

  gst_harness_set_src_caps_str (h, caps);
  in = texel_buffer_new_random (&info, rand, 0);
  fail_if (gst_harness_push (h, in) == GST_FLOW_OK,
           "NV12 64x48 in, I420 32x32 out accepted");
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
  g_free (other);
}

GST_END_TEST;

/* Properties changed while PLAYING take effect on the next frame, in and
 * out of passthrough. */
GST_START_TEST (test_change_while_playing)
{
  gchar *caps = make_caps ("I420", 26, 14);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (2);
  GstHarness *h = filter_harness_new (NULL);
  GstBuffer *in, *out;
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  for (i = 0; i < G_N_ELEMENTS (filter_settings); i++)
    {
      /* n-threads cannot change while PLAYING: leave it out. */
      gchar **tokens = g_strsplit (filter_settings[i], " ", -1);
      gchar **t;

      for (t = tokens; *t; t++)
        if (!g_str_has_prefix (*t, "n-threads"))
          set_props (h->element, *t);
      g_strfreev (tokens);
      push_and_check (h, &info, rand, i * GST_SECOND / 30, filter_settings[i]);

      /* Into passthrough and out again. */
      g_object_set (h->element, "filter", TEXEL_FILTER_GAUSSIAN, "sigma", 0.0,
                    NULL);
      in = texel_buffer_new_random (&info, rand, i * GST_SECOND / 30);
      out = texel_push_pull (h, in);
      fail_unless (out == in, "sigma=0 after %s: not passthrough",
                   filter_settings[i]);
      gst_buffer_unref (out);
      g_object_set (h->element, "sigma", 1.0, "border-mode",
                    TEXEL_FILTER_BORDER_CLAMP, "planes",
                    TEXEL_FILTER_PLANES_ALL, NULL);
      push_and_check (h, &info, rand, i * GST_SECOND / 30, "sigma=1 again");
    }
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;

#ifdef HAVE_GST_CONTROLLER
/* A GstController drives sigma from 0 at 0 s to 2 at 1 s: a frame at
 * 0.5 s is blurred with sigma 1; one at 0 s passes through. */
GST_START_TEST (test_controller)
{
  gchar *caps = make_caps ("NV12", 16, 8);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GRand *rand = g_rand_new_with_seed (4);
  GstHarness *h = filter_harness_new (NULL);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tv = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  GstBuffer *in, *out;
  gdouble sigma;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  /* Direct bindings map [0, 1] onto the property's range (0..10). */
  gst_timed_value_control_source_set (tv, 0, 0.0);
  gst_timed_value_control_source_set (tv, GST_SECOND, 0.2);
  gst_object_add_control_binding (
      GST_OBJECT (h->element),
      gst_direct_control_binding_new (GST_OBJECT (h->element), "sigma", cs));
  gst_harness_set_caps_str (h, caps, caps);

  push_and_check (h, &info, rand, GST_SECOND / 2, "controller");
  g_object_get (h->element, "sigma", &sigma, NULL);
  fail_unless (fabs (sigma - 1.0) < 1e-9, "sigma %g at 0.5 s", sigma);

  in = texel_buffer_new_random (&info, rand, 0);
  out = texel_push_pull (h, in);
  g_object_get (h->element, "sigma", &sigma, NULL);
  fail_unless_equals_float (sigma, 0.0);
  /* Passthrough is decided for the next frame. */
  gst_buffer_unref (out);
  in = texel_buffer_new_random (&info, rand, 0);
  out = texel_push_pull (h, in);
  fail_unless (out == in, "sigma 0 from the controller: not passthrough");
  gst_buffer_unref (out);

  gst_object_unref (cs);
  texel_harness_teardown (h);
  g_rand_free (rand);
  g_free (caps);
}

GST_END_TEST;
#endif

/* gst-launch-1.0 lines, each filter, to EOS without errors. */
GST_START_TEST (test_pipeline)
{
  static const gchar *lines[] = {
    "videotestsrc num-buffers=5 ! texelfilter backend=cpu ! fakesink",
    "videotestsrc num-buffers=5 ! video/x-raw,format=NV12 ! texelfilter "
    "filter=bilateral sigma-space=1 sigma-range=0.08 backend=cpu ! "
    "fakesink",
    "videotestsrc num-buffers=5 ! video/x-raw,format=P010_10LE ! "
    "texelfilter filter=unsharp amount=0.8 planes=luma backend=cpu ! "
    "fakesink",
    "videotestsrc num-buffers=5 ! video/x-raw,format=RGBA ! texelfilter "
    "filter=sobel border-mode=mirror backend=cpu ! fakesink",
    "videotestsrc num-buffers=5 ! video/x-raw,format=YUY2 ! texelfilter "
    "filter=box radius=4 backend=cpu ! fakesink",
  };

  texel_run_launch_lines (lines, G_N_ELEMENTS (lines), 60 * GST_SECOND);
}

GST_END_TEST;

static Suite *
texelfilter_suite (void)
{
  const TexelTest general_tests[] = {
    TEXEL_TEST (test_properties),
    TEXEL_TEST (test_bad_values),
    TEXEL_TEST (test_passthrough),
    TEXEL_LOOP_TEST (test_formats, TEXEL_N_FORMATS),
    TEXEL_TEST (test_planes_luma),
    TEXEL_TEST (test_caps),
    TEXEL_TEST (test_change_while_playing),
#ifdef HAVE_GST_CONTROLLER
    TEXEL_TEST (test_controller),
#endif
    TEXEL_TEST (test_pipeline),
  };

  return texel_suite_new ("texelfilter", "general", 120, general_tests,
                          G_N_ELEMENTS (general_tests));
}

int
main (int argc, char **argv)
{
  return texel_check_run (&argc, &argv, texelfilter_suite, "texelfilter",
                          __FILE__);
}
