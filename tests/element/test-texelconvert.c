/* gst-texel: element tests for texelconvert on the CPU path.
 *
 * Runs without a GPU: every test that checks output values asks for
 * backend=cpu explicitly (the CPU path, fixed point for the common
 * conversions and the double-precision reference for the rest, is within
 * +-1 code of the numbers below); one test runs
 * backend=auto, which must also work where no GPU is present.
 *
 * Unless GST_TRACERS is already set (or TEXEL_TEST_NO_LEAKS_TRACER is),
 * the leaks tracer is enabled: an object still alive when a test's process
 * ends fails that test, and test_state_cycles checks explicitly that 50
 * READY -> PLAYING -> NULL cycles leave nothing behind.
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

#include "texel-chroma-check.h"
#include "texel-frames.h"
#include "texel-leaks.h"

#if TEXEL_TEST_HAVE_CUDA
#include "texel-cuda.h"
#endif

#ifndef TEXEL_TEST_FACTORY
#define TEXEL_TEST_FACTORY "texelconvert"
#endif

/* Enum values of the element's interface. */
#define BACKEND_AUTO 0
#define BACKEND_CUDA 1
#define BACKEND_CPU 2
#define MEMORY_AUTO 0
#define MEMORY_ZERO_COPY 1
#define MEMORY_STAGED 2
#define ACTIVE_MEMORY_NONE 0
#define ACTIVE_MEMORY_SYSTEM 1
#define ACTIVE_MEMORY_ZERO_COPY 2
#define ACTIVE_MEMORY_STAGED 3
#define METHOD_NEAREST 0
#define METHOD_BILINEAR 1
#define METHOD_BICUBIC 2
/* Codes between texelconvert's and videoconvert's subsampled output. */
#define VIDEOCONVERT_TOL 1

/* ------------------------------------------------------------------------ */
/* Frames: generic per-component access through GstVideoFrame, so that one
 * helper serves every format (planar, semi-planar, packed, 10-bit). */

/* Returns the code of component @comp at component sample (@x, @y). */
typedef guint (*PixelFunc) (gint x, gint y, guint comp, gpointer user_data);

static void
frame_fill (GstVideoFrame *f, PixelFunc func, gpointer user_data)
{
  guint c;
  gint x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (f); c++)
    {
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (f, c); y++)
        {
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (f, c); x++)
            frame_set (f, c, x, y, func (x, y, c, user_data));
        }
    }
}

/* Fails unless every sample of every component of @f is within @tol codes
 * of @expect. */
static void
check_frame (const GstVideoFrame *f, PixelFunc expect, gpointer user_data,
             guint tol, const gchar *what)
{
  guint c;
  gint x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (f); c++)
    {
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (f, c); y++)
        {
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (f, c); x++)
            {
              guint got = frame_get (f, c, x, y);
              guint want = expect (x, y, c, user_data);

              if (ABS ((gint)got - (gint)want) > (gint)tol)
                fail (
                    "%s: %s %dx%d, component %u at (%d, %d): got %u, expected "
                    "%u (+-%u)",
                    what,
                    GST_VIDEO_FRAME_FORMAT (f) ? gst_video_format_to_string (
                        GST_VIDEO_FRAME_FORMAT (f))
                                               : "?",
                    GST_VIDEO_FRAME_WIDTH (f), GST_VIDEO_FRAME_HEIGHT (f), c, x,
                    y, got, want, tol);
            }
        }
    }
}

/* Component codes of a solid colour: R, G, B, A for RGB formats, Y, U, V
 * for YUV formats, Y for GRAY8. */
typedef struct
{
  guint v[4];
} Codes;

static guint
solid_func (gint x, gint y, guint comp, gpointer user_data)
{
  return ((const Codes *)user_data)->v[comp];
}

/* A pattern in which every pixel of a frame up to 16x16 differs in R and
 * in G (R = 16 x + y, G = 16 y + x, xor'ed), with varying B and alpha. */
static guint
pattern_unique (gint x, gint y, guint comp, gpointer user_data)
{
  switch (comp)
    {
      case 0:
        return (x * 16 + y) & 0xff;
      case 1:
        return ((y * 16 + x) ^ 0x5a) & 0xff;
      case 2:
        return ((x + y) * 20 + 7) & 0xff;
      default:
        return 255 - ((x + 2 * y) & 7) * 8;
    }
}

/* A pattern for any format and size: smooth ramps plus some texture, in
 * the component's full code range. */
static guint
pattern_any (gint x, gint y, guint comp, gpointer user_data)
{
  guint max = GPOINTER_TO_UINT (user_data);
  guint v = (x * 7 + y * 13 + comp * 50 + ((x * y) % 17) * 3) & 0xff;

  return max > 255 ? (v << 2) | (v >> 6) : v;
}

/* Fixed caps with square pixels; YUV formats get BT.601 limited range
 * unless @extra names a colorimetry. */
static gchar *
make_caps (const gchar *format, gint width, gint height, const gchar *extra)
{
  const GstVideoFormatInfo *finfo
      = gst_video_format_get_info (gst_video_format_from_string (format));
  gboolean yuv = finfo && GST_VIDEO_FORMAT_INFO_IS_YUV (finfo);
  gboolean has_colorimetry = extra && strstr (extra, "colorimetry") != NULL;

  fail_unless (finfo != NULL, "unknown format %s", format);
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
                          "framerate=30/1,pixel-aspect-ratio=1/1%s%s%s",
                          format, width, height,
                          (yuv && !has_colorimetry) ? ",colorimetry=bt601" : "",
                          extra ? "," : "", extra ? extra : "");
}

/* A buffer in the default layout of @info (no GstVideoMeta). */
static GstBuffer *
make_buffer (const GstVideoInfo *info, PixelFunc func, gpointer user_data)
{
  GstBuffer *buf
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame f;

  gst_buffer_memset (buf, 0, 0, GST_VIDEO_INFO_SIZE (info));
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  frame_fill (&f, func, user_data);
  gst_video_frame_unmap (&f);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* A buffer whose rows are @extra_stride bytes longer than the default and
 * whose planes start at non-default offsets (@lead bytes before the first
 * plane, @gap bytes between planes), described by a GstVideoMeta. Padding
 * bytes are 0xa5 so that reading them shows. */
static GstBuffer *
make_padded_buffer (const GstVideoInfo *info, gint extra_stride, gsize lead,
                    gsize gap, PixelFunc func, gpointer user_data)
{
  GstVideoInfo pinfo;
  GstBuffer *buf
      = texel_buffer_new_padded (info, extra_stride, lead, gap, &pinfo);
  GstVideoFrame f;

  fail_unless (gst_video_frame_map (&f, &pinfo, buf, GST_MAP_WRITE));
  fail_unless_equals_int (GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0),
                          pinfo.stride[0]);
  frame_fill (&f, func, user_data);
  gst_video_frame_unmap (&f);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* ------------------------------------------------------------------------ */
/* Reference colour arithmetic (written here, independently of the kernel
 * library): Y'CbCr from non-linear R'G'B' with the usual Kr/Kb matrices. */

typedef struct
{
  gdouble kr, kb;
  gboolean full_range;
} RefMatrix;

static const RefMatrix ref_bt601 = { 0.299, 0.114, FALSE };
static const RefMatrix ref_bt709 = { 0.2126, 0.0722, FALSE };
static const RefMatrix ref_bt2020 = { 0.2627, 0.0593, FALSE };

static guint
ref_round (gdouble v, gdouble max)
{
  return (guint)CLAMP (floor (v + 0.5), 0.0, max);
}

/* 8-bit R'G'B' -> Y'CbCr codes of @bits bits (limited range codes scale
 * with the bit depth: 16..235 at 8 bits is 64..940 at 10). */
static void
ref_rgb_to_yuv (const RefMatrix *m, gint bits, const guint rgb[3], guint yuv[3])
{
  gdouble r = rgb[0] / 255.0, g = rgb[1] / 255.0, b = rgb[2] / 255.0;
  gdouble kg = 1.0 - m->kr - m->kb;
  gdouble y = m->kr * r + kg * g + m->kb * b;
  gdouble pb = (b - y) / (2.0 * (1.0 - m->kb));
  gdouble pr = (r - y) / (2.0 * (1.0 - m->kr));
  gdouble s = (gdouble)(1 << (bits - 8));
  gdouble max = (gdouble)((1 << bits) - 1);

  if (m->full_range)
    {
      yuv[0] = ref_round (y * max, max);
      yuv[1] = ref_round (128.0 * s + pb * max, max);
      yuv[2] = ref_round (128.0 * s + pr * max, max);
    }
  else
    {
      yuv[0] = ref_round ((16.0 + 219.0 * y) * s, max);
      yuv[1] = ref_round ((128.0 + 224.0 * pb) * s, max);
      yuv[2] = ref_round ((128.0 + 224.0 * pr) * s, max);
    }
}

static void
ref_yuv_to_rgb (const RefMatrix *m, gint bits, const guint yuv[3], guint rgb[3])
{
  gdouble s = (gdouble)(1 << (bits - 8));
  gdouble max = (gdouble)((1 << bits) - 1);
  gdouble kg = 1.0 - m->kr - m->kb;
  gdouble y, pb, pr, r, g, b;

  if (m->full_range)
    {
      y = yuv[0] / max;
      pb = (yuv[1] - 128.0 * s) / max;
      pr = (yuv[2] - 128.0 * s) / max;
    }
  else
    {
      y = (yuv[0] / s - 16.0) / 219.0;
      pb = (yuv[1] / s - 128.0) / 224.0;
      pr = (yuv[2] / s - 128.0) / 224.0;
    }
  r = y + 2.0 * (1.0 - m->kr) * pr;
  b = y + 2.0 * (1.0 - m->kb) * pb;
  g = (y - m->kr * r - m->kb * b) / kg;
  rgb[0] = ref_round (r * 255.0, 255.0);
  rgb[1] = ref_round (g * 255.0, 255.0);
  rgb[2] = ref_round (b * 255.0, 255.0);
}

/* ------------------------------------------------------------------------ */
/* Element and harness helpers. */

/* Creates the element with @props ("name=value name=value", values as on a
 * gst-launch line) and gives it a bus of its own, so that the messages it
 * posts (texel-strategy, errors) can be read although no pipeline holds
 * it. */
static GstElement *
texel_element_new (const gchar *props)
{
  GstElement *e = texel_test_element_new (TEXEL_TEST_FACTORY, NULL);

#ifdef TEXEL_TEST_LAX_PROPS
  texel_set_properties (G_OBJECT (e), props, TRUE);
#else
  texel_set_properties (G_OBJECT (e), props, FALSE);
#endif
  return e;
}

/* The harness sets the element to PLAYING right away. */
static GstHarness *
texel_harness_new (const gchar *props)
{
  return texel_harness_new_with (texel_element_new (props));
}

static GstBuffer *
push_pull (GstHarness *h, GstBuffer *in)
{
  GstFlowReturn ret = gst_harness_push (h, in);
  GstBuffer *out;

  if (ret != GST_FLOW_OK)
    {
      gchar *errors = bus_messages_text (h->element, GST_MESSAGE_ERROR
                                                         | GST_MESSAGE_WARNING);

      fail ("push returned %s; bus: %s", gst_flow_get_name (ret), errors);
      g_free (errors);
    }
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "no output buffer after a push");
  return out;
}

/* One buffer through a fresh element: @in_caps upstream, @out_caps (fixed
 * or not) downstream. Returns the output and its video info. */
static GstBuffer *
convert_one (const gchar *props, const gchar *in_caps, const gchar *out_caps,
             GstBuffer *in, GstVideoInfo *out_info)
{
  GstHarness *h = texel_harness_new (props);
  GstBuffer *out;

  gst_harness_set_caps_str (h, in_caps, out_caps);
  out = push_pull (h, in);
  texel_harness_out_info (h, out_info);
  texel_harness_teardown (h);
  return out;
}

/* Converts a solid colour and checks the output against @want. */
static void
check_solid_conversion (const gchar *props, const gchar *in_caps,
                        const Codes *in, const gchar *out_caps,
                        const Codes *want, guint tol, const gchar *what)
{
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  GstVideoInfo out_info;
  GstBuffer *out;
  GstVideoFrame f;

  out = convert_one (props, in_caps, out_caps,
                     make_buffer (&in_info, solid_func, (gpointer)in),
                     &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, out, GST_MAP_READ));
  check_frame (&f, solid_func, (gpointer)want, tol, what);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (out);
}

static guint
get_uint_prop (gpointer obj, const gchar *name)
{
  guint v = 0;

  g_object_get (obj, name, &v, NULL);
  return v;
}

static gboolean
get_bool_prop (gpointer obj, const gchar *name)
{
  gboolean v = FALSE;

  g_object_get (obj, name, &v, NULL);
  return v;
}

/* Number of usable CUDA devices as the kernel library sees them; 0 where
 * the plugin was built without CUDA. */
static gint
cuda_device_count (void)
{
#if TEXEL_TEST_HAVE_CUDA
  int n = 0;
  int r = texel_cuda_device_count (&n);

  if (r < 0)
    {
      GST_INFO ("no CUDA device: %s", texel_cuda_error_string (-r));
      return 0;
    }
  return n > 0 ? n : r;
#else
  return 0;
#endif
}

/* ------------------------------------------------------------------------ */
/* Creation and properties. */

GST_START_TEST (test_create)
{
  GstElement *e = gst_element_factory_make (TEXEL_TEST_FACTORY, NULL);
  GstPad *sink, *src;
  GstCaps *tmpl;
  guint i;

  fail_unless (e != NULL, "could not create " TEXEL_TEST_FACTORY);
  fail_unless_equals_string (G_OBJECT_TYPE_NAME (e), "GstTexelConvert");
  fail_unless_equals_string (g_type_name (g_type_parent (G_OBJECT_TYPE (e))),
                             "GstTexelBase");
  fail_unless (GST_IS_VIDEO_FILTER (e));
  fail_unless (GST_IS_BASE_TRANSFORM (e));
  fail_unless (GST_IS_VIDEO_DIRECTION (e));

  sink = gst_element_get_static_pad (e, "sink");
  src = gst_element_get_static_pad (e, "src");
  fail_unless (sink != NULL && src != NULL);

  /* Every format, any size 1..32767, on both pads. */
  for (i = 0; i < TEXEL_N_FORMATS; i++)
    {
      const gint sizes[][2] = { { 1, 1 }, { 32767, 32767 }, { 1921, 1081 } };
      guint k;

      for (k = 0; k < G_N_ELEMENTS (sizes); k++)
        {
          gchar *s = g_strdup_printf (
              "video/x-raw,format=%s,width=%d,height=%d", texel_all_formats[i],
              sizes[k][0], sizes[k][1]);
          GstCaps *c = gst_caps_from_string (s);

          tmpl = gst_pad_get_pad_template_caps (sink);
          fail_unless (gst_caps_can_intersect (tmpl, c), "sink refuses %s", s);
          gst_caps_unref (tmpl);
          tmpl = gst_pad_get_pad_template_caps (src);
          fail_unless (gst_caps_can_intersect (tmpl, c), "src refuses %s", s);
          gst_caps_unref (tmpl);
          gst_caps_unref (c);
          g_free (s);
        }
    }
  {
    GstCaps *c = gst_caps_from_string ("video/x-raw,format=RGBA,width=32768,"
                                       "height=16");

    tmpl = gst_pad_get_pad_template_caps (sink);
    fail_if (gst_caps_can_intersect (tmpl, c), "sink accepts width 32768");
    gst_caps_unref (tmpl);
    gst_caps_unref (c);
  }

  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (e);
}

GST_END_TEST;

static void
check_enum_pspec (GObjectClass *klass, const gchar *name, gint def,
                  const gchar *const *nicks, guint n_nicks, gboolean writable)
{
  GParamSpec *ps = g_object_class_find_property (klass, name);
  GEnumClass *ec;
  guint i;

  fail_unless (ps != NULL, "no property '%s'", name);
  fail_unless (G_IS_PARAM_SPEC_ENUM (ps), "'%s' is not an enum", name);
  fail_unless (ps->flags & G_PARAM_READABLE, "'%s' is not readable", name);
  fail_unless_equals_int (!!(ps->flags & G_PARAM_WRITABLE), !!writable);
  fail_unless_equals_int (G_PARAM_SPEC_ENUM (ps)->default_value, def);
  ec = G_PARAM_SPEC_ENUM (ps)->enum_class;
  for (i = 0; i < n_nicks; i++)
    {
      GEnumValue *ev = g_enum_get_value (ec, i);

      fail_unless (ev != NULL, "'%s' has no value %u", name, i);
      fail_unless_equals_string (ev->value_nick, nicks[i]);
    }
}

static void
check_int_pspec (GObjectClass *klass, const gchar *name, gint min, gint max,
                 gint def)
{
  GParamSpec *ps = g_object_class_find_property (klass, name);

  fail_unless (ps != NULL, "no property '%s'", name);
  fail_unless (G_IS_PARAM_SPEC_INT (ps), "'%s' is not a gint", name);
  fail_unless ((ps->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->minimum, min);
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->maximum, max);
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->default_value, def);
}

GST_START_TEST (test_property_defaults)
{
  static const gchar *const backend_nicks[] = { "auto", "cuda", "cpu" };
  static const gchar *const memory_nicks[] = { "auto", "zero-copy", "staged" };
  static const gchar *const active_memory_nicks[]
      = { "none", "system", "zero-copy", "staged" };
  static const gchar *const method_nicks[]
      = { "nearest", "bilinear", "bicubic" };
  static const gchar *const crops[]
      = { "crop-left", "crop-right", "crop-top", "crop-bottom" };
  GstElement *e = gst_element_factory_make (TEXEL_TEST_FACTORY, NULL);
  GObjectClass *klass;
  GParamSpec *ps;
  guint i;

  fail_unless (e != NULL);
  klass = G_OBJECT_GET_CLASS (e);

  /* GstTexelBase */
  check_int_pspec (klass, "device-id", -1, G_MAXINT, -1);
  check_enum_pspec (klass, "backend", BACKEND_AUTO, backend_nicks, 3, TRUE);
  check_enum_pspec (klass, "memory-mode", MEMORY_AUTO, memory_nicks, 3, TRUE);
  check_enum_pspec (klass, "active-backend", BACKEND_AUTO, backend_nicks, 3,
                    FALSE);
  check_enum_pspec (klass, "active-memory-mode", ACTIVE_MEMORY_NONE,
                    active_memory_nicks, 4, FALSE);
  fail_unless (
      g_object_class_find_property (klass, "active-backend")->value_type
          == g_object_class_find_property (klass, "backend")->value_type,
      "active-backend and backend have different enum types");

  /* GstTexelConvert */
  check_enum_pspec (klass, "method", METHOD_BILINEAR, method_nicks, 3, TRUE);
  for (i = 0; i < G_N_ELEMENTS (crops); i++)
    check_int_pspec (klass, crops[i], 0, G_MAXINT, 0);
  ps = g_object_class_find_property (klass, "add-borders");
  fail_unless (ps != NULL && G_IS_PARAM_SPEC_BOOLEAN (ps));
  fail_unless (G_PARAM_SPEC_BOOLEAN (ps)->default_value == TRUE);
  ps = g_object_class_find_property (klass, "border-color");
  fail_unless (ps != NULL && G_IS_PARAM_SPEC_UINT (ps));
  fail_unless_equals_uint64 (G_PARAM_SPEC_UINT (ps)->default_value, 0xff000000);
  ps = g_object_class_find_property (klass, "video-direction");
  fail_unless (ps != NULL && G_IS_PARAM_SPEC_ENUM (ps));
  fail_unless (ps->value_type == GST_TYPE_VIDEO_ORIENTATION_METHOD);
  fail_unless_equals_int (G_PARAM_SPEC_ENUM (ps)->default_value,
                          GST_VIDEO_ORIENTATION_IDENTITY);

  /* And the values a new instance reports. */
  fail_unless_equals_int (texel_get_int (e, "device-id"), -1);
  fail_unless_equals_int (texel_get_int (e, "backend"), BACKEND_AUTO);
  fail_unless_equals_int (texel_get_int (e, "memory-mode"), MEMORY_AUTO);
  fail_unless_equals_int (texel_get_int (e, "active-backend"), BACKEND_AUTO);
  fail_unless_equals_int (texel_get_int (e, "active-memory-mode"),
                          ACTIVE_MEMORY_NONE);
  fail_unless_equals_int (texel_get_int (e, "method"), METHOD_BILINEAR);
  for (i = 0; i < G_N_ELEMENTS (crops); i++)
    fail_unless_equals_int (texel_get_int (e, crops[i]), 0);
  fail_unless (get_bool_prop (e, "add-borders") == TRUE);
  fail_unless_equals_uint64 (get_uint_prop (e, "border-color"), 0xff000000);
  fail_unless_equals_int (texel_get_int (e, "video-direction"),
                          GST_VIDEO_ORIENTATION_IDENTITY);

  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_property_set_get)
{
  static const gchar *const crops[]
      = { "crop-left", "crop-right", "crop-top", "crop-bottom" };
  GstElement *e = gst_element_factory_make (TEXEL_TEST_FACTORY, NULL);
  gint v;
  guint i;

  fail_unless (e != NULL);

  /* In range: taken. */
  g_object_set (e, "device-id", 0, NULL);
  fail_unless_equals_int (texel_get_int (e, "device-id"), 0);
  g_object_set (e, "device-id", 3, NULL);
  fail_unless_equals_int (texel_get_int (e, "device-id"), 3);
  g_object_set (e, "device-id", G_MAXINT, NULL);
  fail_unless_equals_int (texel_get_int (e, "device-id"), G_MAXINT);
  g_object_set (e, "device-id", -1, NULL);
  fail_unless_equals_int (texel_get_int (e, "device-id"), -1);

  for (v = 0; v <= 2; v++)
    {
      g_object_set (e, "backend", v, "memory-mode", v, "method", v, NULL);
      fail_unless_equals_int (texel_get_int (e, "backend"), v);
      fail_unless_equals_int (texel_get_int (e, "memory-mode"), v);
      fail_unless_equals_int (texel_get_int (e, "method"), v);
    }
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  fail_unless_equals_int (texel_get_int (e, "backend"), BACKEND_CPU);
  gst_util_set_object_arg (G_OBJECT (e), "memory-mode", "zero-copy");
  fail_unless_equals_int (texel_get_int (e, "memory-mode"), MEMORY_ZERO_COPY);
  gst_util_set_object_arg (G_OBJECT (e), "method", "bicubic");
  fail_unless_equals_int (texel_get_int (e, "method"), METHOD_BICUBIC);

  for (i = 0; i < G_N_ELEMENTS (crops); i++)
    {
      g_object_set (e, crops[i], 5 + i, NULL);
      fail_unless_equals_int (texel_get_int (e, crops[i]), 5 + i);
      g_object_set (e, crops[i], G_MAXINT, NULL);
      fail_unless_equals_int (texel_get_int (e, crops[i]), G_MAXINT);
      g_object_set (e, crops[i], 0, NULL);
      fail_unless_equals_int (texel_get_int (e, crops[i]), 0);
    }

  g_object_set (e, "add-borders", FALSE, NULL);
  fail_unless (get_bool_prop (e, "add-borders") == FALSE);
  g_object_set (e, "add-borders", TRUE, NULL);
  fail_unless (get_bool_prop (e, "add-borders") == TRUE);

  g_object_set (e, "border-color", 0x12345678u, NULL);
  fail_unless_equals_uint64 (get_uint_prop (e, "border-color"), 0x12345678u);
  g_object_set (e, "border-color", 0u, NULL);
  fail_unless_equals_uint64 (get_uint_prop (e, "border-color"), 0);
  g_object_set (e, "border-color", G_MAXUINT, NULL);
  fail_unless_equals_uint64 (get_uint_prop (e, "border-color"), G_MAXUINT);

  for (v = GST_VIDEO_ORIENTATION_IDENTITY; v <= GST_VIDEO_ORIENTATION_AUTO; v++)
    {
      g_object_set (e, "video-direction", v, NULL);
      fail_unless_equals_int (texel_get_int (e, "video-direction"), v);
    }
  gst_util_set_object_arg (G_OBJECT (e), "video-direction", "90r");
  fail_unless_equals_int (texel_get_int (e, "video-direction"),
                          GST_VIDEO_ORIENTATION_90R);

  /* Out of range: the param spec rejects the value (GLib warns) and the
   * property keeps its value. */
  g_object_set (e, "device-id", 2, "backend", BACKEND_CPU, "memory-mode",
                MEMORY_STAGED, "method", METHOD_NEAREST, "crop-left", 4, NULL);
  ASSERT_WARNING (g_object_set (e, "device-id", -2, NULL));
  fail_unless_equals_int (texel_get_int (e, "device-id"), 2);
  ASSERT_WARNING (g_object_set (e, "backend", 3, NULL));
  fail_unless_equals_int (texel_get_int (e, "backend"), BACKEND_CPU);
  ASSERT_WARNING (g_object_set (e, "memory-mode", 3, NULL));
  fail_unless_equals_int (texel_get_int (e, "memory-mode"), MEMORY_STAGED);
  ASSERT_WARNING (g_object_set (e, "method", 3, NULL));
  fail_unless_equals_int (texel_get_int (e, "method"), METHOD_NEAREST);
  ASSERT_WARNING (g_object_set (e, "method", -1, NULL));
  fail_unless_equals_int (texel_get_int (e, "method"), METHOD_NEAREST);
  for (i = 0; i < G_N_ELEMENTS (crops); i++)
    {
      g_object_set (e, crops[i], 4, NULL);
      ASSERT_WARNING (g_object_set (e, crops[i], -1, NULL));
      fail_unless_equals_int (texel_get_int (e, crops[i]), 4);
    }
  ASSERT_WARNING (g_object_set (e, "video-direction", 42, NULL));
  fail_unless_equals_int (texel_get_int (e, "video-direction"),
                          GST_VIDEO_ORIENTATION_90R);

  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_property_read_only)
{
  static const gchar *const names[]
      = { "active-backend", "active-memory-mode" };
  GstElement *e = gst_element_factory_make (TEXEL_TEST_FACTORY, NULL);
  guint i;

  fail_unless (e != NULL);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GParamSpec *ps
          = g_object_class_find_property (G_OBJECT_GET_CLASS (e), names[i]);

      fail_unless (ps != NULL, "no property %s", names[i]);
      fail_if (ps->flags & G_PARAM_WRITABLE, "%s is writable", names[i]);
      fail_if (ps->flags & G_PARAM_CONSTRUCT_ONLY);
      /* GLib refuses with a warning; the value stays. */
      ASSERT_WARNING (g_object_set (e, names[i], 1, NULL));
      fail_unless_equals_int (texel_get_int (e, names[i]), 0);
    }
  gst_object_unref (e);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Caps negotiation. */

static void
check_out_caps (GstHarness *h, const gchar *format, gint width, gint height)
{
  GstVideoInfo info;

  texel_harness_out_info (h, &info);
  fail_unless_equals_string (
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info)), format);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), width);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), height);
}

/* Pushes one solid buffer of @in_caps and checks the output caps. */
static void
negotiate_and_check (const gchar *props, const gchar *in_caps,
                     const gchar *out_caps, const gchar *format, gint width,
                     gint height)
{
  GstHarness *h = texel_harness_new (props);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  Codes grey = { { 128, 128, 128, 255 } };

  gst_harness_set_caps_str (h, in_caps, out_caps);
  gst_buffer_unref (push_pull (h, make_buffer (&in_info, solid_func, &grey)));
  check_out_caps (h, format, width, height);
  texel_harness_teardown (h);
}

GST_START_TEST (test_caps_fixed_downstream)
{
  gchar *in = make_caps ("RGBA", 64, 48, NULL);
  gchar *out = make_caps ("I420", 64, 48, NULL);

  negotiate_and_check ("backend=cpu", in, out, "I420", 64, 48);
  g_free (in);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_caps_fixate_same_size)
{
  gchar *in = make_caps ("RGBA", 64, 48, NULL);

  /* Downstream allows any size: keep the input's. */
  negotiate_and_check ("backend=cpu", in, "video/x-raw,format=I420", "I420", 64,
                       48);
  negotiate_and_check (
      "backend=cpu", in,
      "video/x-raw,format=NV12,width=[1,32767],height=[1,32767]", "NV12", 64,
      48);
  /* Downstream fixes the width only: the height keeps the display aspect
   * ratio. */
  negotiate_and_check (
      "backend=cpu", in,
      "video/x-raw,format=RGBA,width=32,pixel-aspect-ratio=1/1", "RGBA", 32,
      24);
  negotiate_and_check (
      "backend=cpu", in,
      "video/x-raw,format=RGBA,height=96,pixel-aspect-ratio=1/1", "RGBA", 128,
      96);
  g_free (in);
}

GST_END_TEST;

GST_START_TEST (test_caps_pixel_aspect_ratio)
{
  /* 64x48 with 2:1 pixels is 128x48 on screen; downstream wants square
   * pixels and height 48: width 128. */
  negotiate_and_check (
      "backend=cpu",
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1,"
      "pixel-aspect-ratio=2/1",
      "video/x-raw,format=RGBA,height=48,pixel-aspect-ratio=1/1", "RGBA", 128,
      48);
}

GST_END_TEST;

GST_START_TEST (test_scale_down)
{
  gchar *in = make_caps ("RGBA", 64, 48, NULL);
  gchar *out = make_caps ("RGBA", 32, 24, NULL);
  Codes c = { { 37, 142, 201, 255 } };
  guint m;

  negotiate_and_check ("backend=cpu", in, out, "RGBA", 32, 24);
  for (m = 0; m <= 2; m++)
    {
      gchar *props = g_strdup_printf ("backend=cpu method=%u", m);

      check_solid_conversion (props, in, &c, out, &c, 1, "scale 64x48->32x24");
      g_free (props);
    }
  g_free (in);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_passthrough)
{
  gchar *caps = make_caps ("RGBA", 64, 48, NULL);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GstHarness *h = texel_harness_new ("backend=cpu");
  GstBuffer *in, *out;
  GstElement *conv = h->element;

  gst_harness_set_caps_str (h, caps, caps);
  in = make_buffer (&info, pattern_unique, NULL);
  out = push_pull (h, in);
  fail_unless (out == in, "passthrough: output buffer %p is not input %p", out,
               in);
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (conv)));
  gst_buffer_unref (out);

  /* The same I420 caps on both sides: passthrough as well. */
  g_free (caps);
  caps = make_caps ("I420", 32, 32, NULL);
  info = texel_video_info_from_caps_string (caps);
  gst_harness_set_caps_str (h, caps, caps);
  in = make_buffer (&info, pattern_any, GUINT_TO_POINTER (255));
  out = push_pull (h, in);
  fail_unless (out == in, "I420 passthrough: another buffer came out");
  gst_buffer_unref (out);

  texel_harness_teardown (h);
  g_free (caps);
}

GST_END_TEST;

GST_START_TEST (test_no_passthrough_when_changing)
{
  const gchar *props[] = {
    "backend=cpu video-direction=180",
    "backend=cpu video-direction=horiz",
  };
  gchar *caps = make_caps ("RGBA", 8, 8, NULL);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++)
    {
      GstHarness *h = texel_harness_new (props[i]);
      GstBuffer *in, *out;

      gst_harness_set_caps_str (h, caps, caps);
      in = make_buffer (&info, pattern_unique, NULL);
      gst_buffer_ref (in);
      out = push_pull (h, in);
      fail_if (out == in, "%s: the input came out unchanged", props[i]);
      fail_if (
          gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (h->element)),
          "%s: passthrough", props[i]);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      texel_harness_teardown (h);
    }
  g_free (caps);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Colour. */

static const gchar *yuv8_formats[]
    = { "I420", "YV12", "NV12", "NV21", "YUY2", "UYVY" };

GST_START_TEST (test_colour_known_bt601)
{
  /* Limited-range BT.601 (the numbers the element is specified against):
   * red 81/90/240, white 235/128/128, black 16/128/128; green and blue from
   * the reference formula. */
  static const struct
  {
    guint rgb[3];
    guint yuv[3];
  } known[] = {
    { { 255, 0, 0 }, { 81, 90, 240 } },
    { { 255, 255, 255 }, { 235, 128, 128 } },
    { { 0, 0, 0 }, { 16, 128, 128 } },
    { { 0, 255, 0 }, { 145, 54, 34 } },
    { { 0, 0, 255 }, { 41, 240, 110 } },
  };
  gchar *in = make_caps ("RGBA", 16, 8, NULL);
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (known); i++)
    {
      Codes rgba
          = { { known[i].rgb[0], known[i].rgb[1], known[i].rgb[2], 255 } };
      Codes yuv = { { known[i].yuv[0], known[i].yuv[1], known[i].yuv[2], 0 } };
      Codes ref = { {
          0,
      } };

      /* The table agrees with the reference formula. */
      ref_rgb_to_yuv (&ref_bt601, 8, known[i].rgb, ref.v);
      for (k = 0; k < 3; k++)
        fail_unless_equals_int (ref.v[k], yuv.v[k]);

      for (k = 0; k < G_N_ELEMENTS (yuv8_formats); k++)
        {
          gchar *out = make_caps (yuv8_formats[k], 16, 8, NULL);
          gchar *what
              = g_strdup_printf ("RGBA (%u,%u,%u) -> %s bt601", rgba.v[0],
                                 rgba.v[1], rgba.v[2], yuv8_formats[k]);

          check_solid_conversion ("backend=cpu", in, &rgba, out, &yuv, 1, what);
          g_free (what);
          g_free (out);
        }
      /* P010: the same colour in 10-bit codes. */
      {
        gchar *out = make_caps ("P010_10LE", 16, 8, NULL);
        Codes yuv10 = { {
            0,
        } };

        ref_rgb_to_yuv (&ref_bt601, 10, known[i].rgb, yuv10.v);
        check_solid_conversion ("backend=cpu", in, &rgba, out, &yuv10, 1,
                                "RGBA -> P010_10LE bt601");
        g_free (out);
      }
    }
  g_free (in);
}

GST_END_TEST;

GST_START_TEST (test_colour_known_other_matrices)
{
  gchar *in = make_caps ("RGBA", 16, 8, NULL);
  gchar *out;
  Codes red = { { 255, 0, 0, 255 } };
  Codes white = { { 255, 255, 255, 255 } };
  Codes want;
  const guint red_rgb[3] = { 255, 0, 0 };

  /* BT.709 limited: red 63/102/240 (given), white 235/128/128. */
  out = make_caps ("I420", 16, 8, "colorimetry=bt709");
  want = (Codes){ { 63, 102, 240, 0 } };
  check_solid_conversion ("backend=cpu", in, &red, out, &want, 1,
                          "red -> I420 bt709");
  want = (Codes){ { 235, 128, 128, 0 } };
  check_solid_conversion ("backend=cpu", in, &white, out, &want, 1,
                          "white -> I420 bt709");
  ref_rgb_to_yuv (&ref_bt709, 8, red_rgb, want.v);
  fail_unless_equals_int (want.v[0], 63);
  fail_unless_equals_int (want.v[1], 102);
  g_free (out);

  /* BT.2020 limited (matrix only: no primaries conversion). */
  out = make_caps ("I420", 16, 8, "colorimetry=bt2020");
  ref_rgb_to_yuv (&ref_bt2020, 8, red_rgb, want.v);
  check_solid_conversion ("backend=cpu", in, &red, out, &want, 1,
                          "red -> I420 bt2020");
  g_free (out);

  /* Full-range BT.601 (range 0-255, matrix bt601, transfer bt709,
   * primaries smpte170m): white 255/128/128, black 0/128/128, red
   * 76/85/255 (Cr clips at 255 whatever the chroma scale convention). */
  out = make_caps ("I420", 16, 8, "colorimetry=1:4:5:4");
  want = (Codes){ { 255, 128, 128, 0 } };
  check_solid_conversion ("backend=cpu", in, &white, out, &want, 1,
                          "white -> I420 full range");
  want = (Codes){ { 76, 85, 255, 0 } };
  check_solid_conversion ("backend=cpu", in, &red, out, &want, 1,
                          "red -> I420 full range");
  {
    Codes black = { { 0, 0, 0, 255 } };

    want = (Codes){ { 0, 128, 128, 0 } };
    check_solid_conversion ("backend=cpu", in, &black, out, &want, 1,
                            "black -> I420 full range");
  }
  g_free (out);
  g_free (in);
}

GST_END_TEST;

GST_START_TEST (test_colour_known_yuv_to_rgb)
{
  gchar *in = make_caps ("I420", 16, 8, NULL);
  gchar *out = make_caps ("RGBA", 16, 8, NULL);
  Codes yuv = { { 81, 90, 240, 0 } };
  Codes want = { { 255, 0, 0, 255 } };
  gchar *in709;
  gchar *gray;

  /* Limited BT.601 red back to RGB: R = 254.4 before rounding, G and B
   * clip at 0. */
  check_solid_conversion ("backend=cpu", in, &yuv, out, &want, 1,
                          "I420 81/90/240 bt601 -> RGBA");
  yuv = (Codes){ { 235, 128, 128, 0 } };
  want = (Codes){ { 255, 255, 255, 255 } };
  check_solid_conversion ("backend=cpu", in, &yuv, out, &want, 1,
                          "I420 white -> RGBA");
  yuv = (Codes){ { 16, 128, 128, 0 } };
  want = (Codes){ { 0, 0, 0, 255 } };
  check_solid_conversion ("backend=cpu", in, &yuv, out, &want, 1,
                          "I420 black -> RGBA");

  in709 = make_caps ("I420", 16, 8, "colorimetry=bt709");
  yuv = (Codes){ { 63, 102, 240, 0 } };
  want = (Codes){ { 255, 0, 0, 255 } };
  check_solid_conversion ("backend=cpu", in709, &yuv, out, &want, 1,
                          "I420 63/102/240 bt709 -> RGBA");

  /* GRAY8 is full-range grey: R = G = B = Y, both ways. */
  gray = make_caps ("GRAY8", 16, 8, NULL);
  yuv = (Codes){ { 100, 0, 0, 0 } };
  want = (Codes){ { 100, 100, 100, 255 } };
  check_solid_conversion ("backend=cpu", gray, &yuv, out, &want, 1,
                          "GRAY8 100 -> RGBA");
  want = (Codes){ { 100, 100, 100, 255 } };
  yuv = (Codes){ { 100, 0, 0, 0 } };
  check_solid_conversion ("backend=cpu", out, &want, gray, &yuv, 1,
                          "RGBA grey 100 -> GRAY8");
  /* GRAY8 100 into limited BT.601: Y = 16 + 219 * 100 / 255 = 101.9. */
  {
    gchar *i420 = make_caps ("I420", 16, 8, NULL);
    Codes g = { { 100, 0, 0, 0 } };
    Codes w = { { 102, 128, 128, 0 } };

    check_solid_conversion ("backend=cpu", gray, &g, i420, &w, 1,
                            "GRAY8 100 -> I420");
    g_free (i420);
  }

  g_free (gray);
  g_free (in709);
  g_free (in);
  g_free (out);
}

GST_END_TEST;

/* Round trip X -> RGBA -> X through the element at 1:1, for every format,
 * with solid colours.
 *
 * Tolerances:
 *  - RGB formats and GRAY8 into RGBA are a shuffle of the same 8-bit codes
 *    (GRAY8 is R = G = B): exact, both ways.
 *  - 8-bit Y'CbCr -> RGBA: the Y'CbCr codes were rounded from the RGB
 *    colour (<= 0.5 code each), which moves R, G, B by at most
 *    0.5 * (1.164 + 2.018) = 1.6 codes (the B row of the inverse BT.601
 *    matrix is the largest), plus 0.5 for rounding the result: the RGBA
 *    output is within +-2 of the original colour.
 *  - RGBA -> 8-bit Y'CbCr again: the 8-bit RGB codes (<= 0.5 off the exact
 *    value) move Y' by <= 219/255 * 0.5 = 0.43 and Cb, Cr by
 *    <= 224/255 * 0.5 = 0.44 codes; saturated colours also clip at 0/255
 *    by up to 1.6 codes, which moves Cb/Cr by up to 0.7 more: +-1 code.
 *  - P010 goes through 8-bit RGBA: the same 0.5-code RGB rounding is
 *    876/255 * 0.5 = 1.7 (Y') and 896/255 * 0.5 = 1.8 (Cb, Cr) 10-bit
 *    codes: +-2. Colours that would clip are left out for P010. */
static const struct
{
  guint rgb[3];
  gboolean clips;
} rt_colours[] = {
  { { 255, 0, 0 }, TRUE },     { { 0, 255, 0 }, TRUE },
  { { 0, 0, 255 }, TRUE },     { { 255, 255, 255 }, FALSE },
  { { 0, 0, 0 }, FALSE },      { { 180, 120, 60 }, FALSE },
  { { 20, 200, 150 }, FALSE }, { { 128, 128, 128 }, FALSE },
  { { 90, 30, 220 }, TRUE },
};

GST_START_TEST (test_round_trip)
{
  const gchar *fmt = texel_all_formats[__i__];
  const GstVideoFormatInfo *finfo
      = gst_video_format_get_info (gst_video_format_from_string (fmt));
  gboolean yuv = GST_VIDEO_FORMAT_INFO_IS_YUV (finfo);
  gboolean gray = GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo);
  gboolean alpha = GST_VIDEO_FORMAT_INFO_HAS_ALPHA (finfo);
  gint bits = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  gchar *x_caps = make_caps (fmt, 16, 12, NULL);
  gchar *rgba_caps = make_caps ("RGBA", 16, 12, NULL);
  GstVideoInfo x_info = texel_video_info_from_caps_string (x_caps);
  GstVideoInfo rgba_info = texel_video_info_from_caps_string (rgba_caps);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (rt_colours); i++)
    {
      Codes x_in = { {
                0,
            } },
            rgba_want = { {
                0,
            } },
            rgba_got = { {
                0,
            } };
      guint tol_rgba, tol_x;
      GstBuffer *mid, *back;
      GstVideoInfo mid_info, back_info;
      GstVideoFrame f;
      gchar *what;

      if (bits > 8 && rt_colours[i].clips)
        continue;

      if (yuv)
        {
          ref_rgb_to_yuv (&ref_bt601, bits, rt_colours[i].rgb, x_in.v);
          memcpy (rgba_want.v, rt_colours[i].rgb, sizeof (rt_colours[i].rgb));
          /* AYUV's alpha is carried both ways. */
          x_in.v[3] = alpha ? 77 : 0;
          rgba_want.v[3] = alpha ? 77 : 255;
          tol_rgba = 2;
          tol_x = bits > 8 ? 2 : 1;
        }
      else if (gray)
        {
          /* Any colour's R as a grey level. */
          x_in.v[0] = rt_colours[i].rgb[0];
          rgba_want = (Codes){ { x_in.v[0], x_in.v[0], x_in.v[0], 255 } };
          tol_rgba = 0;
          tol_x = 0;
        }
      else
        {
          memcpy (x_in.v, rt_colours[i].rgb, sizeof (rt_colours[i].rgb));
          x_in.v[3] = alpha ? (i % 2 ? 77 : 255) : 0;
          memcpy (rgba_want.v, x_in.v, sizeof (x_in.v));
          rgba_want.v[3] = alpha ? x_in.v[3] : 255;
          tol_rgba = 0;
          tol_x = 0;
        }

      /* X -> RGBA */
      what = g_strdup_printf ("%s (%u,%u,%u) -> RGBA", fmt, x_in.v[0],
                              x_in.v[1], x_in.v[2]);
      mid = convert_one ("backend=cpu", x_caps, rgba_caps,
                         make_buffer (&x_info, solid_func, &x_in), &mid_info);
      fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&mid_info),
                              GST_VIDEO_FORMAT_RGBA);
      fail_unless (gst_video_frame_map (&f, &mid_info, mid, GST_MAP_READ));
      check_frame (&f, solid_func, &rgba_want, tol_rgba, what);
      /* Solid in, solid out: take the value for the way back. */
      {
        guint c;

        for (c = 0; c < 4; c++)
          rgba_got.v[c] = frame_get (&f, c, 0, 0);
        check_frame (&f, solid_func, &rgba_got, 0, what);
      }
      gst_video_frame_unmap (&f);
      gst_buffer_unref (mid);
      g_free (what);

      /* RGBA -> X: back where we started. */
      what = g_strdup_printf ("RGBA (%u,%u,%u,%u) -> %s", rgba_got.v[0],
                              rgba_got.v[1], rgba_got.v[2], rgba_got.v[3], fmt);
      if (!yuv && !gray && alpha)
        rgba_got.v[3] = x_in.v[3];
      back = convert_one ("backend=cpu", rgba_caps, x_caps,
                          make_buffer (&rgba_info, solid_func, &rgba_got),
                          &back_info);
      fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&back_info),
                              GST_VIDEO_INFO_FORMAT (&x_info));
      fail_unless (gst_video_frame_map (&f, &back_info, back, GST_MAP_READ));
      check_frame (&f, solid_func, &x_in, tol_x, what);
      gst_video_frame_unmap (&f);
      gst_buffer_unref (back);
      g_free (what);
    }
  g_free (x_caps);
  g_free (rgba_caps);
}

GST_END_TEST;

/* GRAY16_LE (thermal and depth cameras) to and from GRAY8 and RGBA: codes
 * scale by 65535 / 255 = 257, exactly for these levels. */
GST_START_TEST (test_gray16)
{
  static const guint levels8[] = { 0, 1, 128, 200, 255 };
  gchar *gray16 = make_caps ("GRAY16_LE", 16, 12, NULL);
  gchar *gray8 = make_caps ("GRAY8", 16, 12, NULL);
  gchar *rgba = make_caps ("RGBA", 16, 12, NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (levels8); i++)
    {
      guint l = levels8[i];
      Codes c16 = { { l * 257, 0, 0, 0 } }, c8 = { { l, 0, 0, 0 } };
      Codes grey = { { l, l, l, 255 } };
      gchar *what = g_strdup_printf ("GRAY16_LE %u", l * 257);

      check_solid_conversion ("backend=cpu", gray16, &c16, gray8, &c8, 0, what);
      check_solid_conversion ("backend=cpu", gray16, &c16, rgba, &grey, 0,
                              what);
      check_solid_conversion ("backend=cpu", gray8, &c8, gray16, &c16, 0, what);
      g_free (what);
    }
  g_free (rgba);
  g_free (gray8);
  g_free (gray16);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Sizes and layouts. */

GST_START_TEST (test_odd_sizes)
{
  static const gint sizes[][2]
      = { { 1, 1 }, { 3, 3 }, { 1, 3 }, { 3, 1 }, { 5, 7 } };
  Codes red = { { 255, 0, 0, 255 } };
  Codes red_yuv = { { 81, 90, 240, 0 } };
  Codes grey_rgba = { { 100, 100, 100, 255 } };
  Codes grey = { { 100, 0, 0, 0 } };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gint w = sizes[i][0], h = sizes[i][1];
      gchar *rgba = make_caps ("RGBA", w, h, NULL);
      gchar *i420 = make_caps ("I420", w, h, NULL);
      gchar *gray8 = make_caps ("GRAY8", w, h, NULL);
      gchar *what = g_strdup_printf ("%dx%d", w, h);

      check_solid_conversion ("backend=cpu", rgba, &red, i420, &red_yuv, 1,
                              what);
      check_solid_conversion ("backend=cpu", i420, &red_yuv, rgba, &red, 1,
                              what);
      check_solid_conversion ("backend=cpu", rgba, &grey_rgba, gray8, &grey, 1,
                              what);
      check_solid_conversion ("backend=cpu", gray8, &grey, rgba, &grey_rgba, 1,
                              what);
      check_solid_conversion ("backend=cpu", gray8, &grey, i420,
                              &(Codes){ { 102, 128, 128, 0 } }, 1, what);
      g_free (what);
      g_free (rgba);
      g_free (i420);
      g_free (gray8);
    }

  /* Scaling to and from single pixels. */
  {
    gchar *one = make_caps ("RGBA", 1, 1, NULL);
    gchar *three = make_caps ("RGBA", 3, 3, NULL);
    gchar *i420_3 = make_caps ("I420", 3, 3, NULL);
    guint m;

    for (m = 0; m <= 2; m++)
      {
        gchar *props = g_strdup_printf ("backend=cpu method=%u", m);

        check_solid_conversion (props, one, &red, three, &red, 1, "1x1->3x3");
        check_solid_conversion (props, three, &red, one, &red, 1, "3x3->1x1");
        check_solid_conversion (props, one, &red, i420_3, &red_yuv, 1,
                                "RGBA 1x1->I420 3x3");
        g_free (props);
      }
    g_free (one);
    g_free (three);
    g_free (i420_3);
  }

  /* Odd-sized patterned RGBA flipped: each pixel lands exactly. */
  {
    gchar *caps = make_caps ("RGBA", 3, 3, NULL);
    GstVideoInfo info = texel_video_info_from_caps_string (caps);
    GstVideoInfo out_info;
    GstBuffer *out;
    GstVideoFrame f;
    gint x, y;

    out = convert_one ("backend=cpu video-direction=180", caps, caps,
                       make_buffer (&info, pattern_unique, NULL), &out_info);
    fail_unless (gst_video_frame_map (&f, &out_info, out, GST_MAP_READ));
    for (y = 0; y < 3; y++)
      for (x = 0; x < 3; x++)
        fail_unless_equals_int (frame_get (&f, 0, x, y),
                                pattern_unique (2 - x, 2 - y, 0, NULL));
    gst_video_frame_unmap (&f);
    gst_buffer_unref (out);
    g_free (caps);
  }
}

GST_END_TEST;

GST_START_TEST (test_odd_large)
{
  /* 1921x1081 I420 (chroma 961x541) to 640x360 RGBA, every method:
   * constant in, constant out (no letterboxing: add-borders=false, the
   * aspect ratios differ by 0.04 %). */
  gchar *in = make_caps ("I420", 1921, 1081, NULL);
  gchar *out = make_caps ("RGBA", 640, 360, NULL);
  Codes yuv = { { 81, 90, 240, 0 } };
  Codes red = { { 255, 0, 0, 255 } };
  Codes yuv2 = { { 120, 150, 100, 0 } };
  Codes want2 = { {
      0,
  } };
  guint m;

  ref_yuv_to_rgb (&ref_bt601, 8, yuv2.v, want2.v);
  want2.v[3] = 255;
  for (m = 0; m <= 2; m++)
    {
      gchar *props
          = g_strdup_printf ("backend=cpu add-borders=false method=%u", m);

      check_solid_conversion (props, in, &yuv, out, &red, 1,
                              "I420 1921x1081 -> RGBA 640x360");
      check_solid_conversion (props, in, &yuv2, out, &want2, 1,
                              "I420 1921x1081 -> RGBA 640x360");
      g_free (props);
    }
  g_free (in);
  g_free (out);
}

GST_END_TEST;

/* Input buffers with a GstVideoMeta: rows 64 bytes longer than the
 * default, planes at other offsets. The output must be byte-identical to
 * that of the same picture in the default layout. */
static const gchar *padded_formats[]
    = { "I420", "YV12", "NV12", "NV21", "YUY2",  "UYVY",     "RGBA",
        "ARGB", "RGBx", "RGB",  "BGR",  "GRAY8", "P010_10LE" };

GST_START_TEST (test_padded_strides)
{
  const gchar *fmt = padded_formats[__i__];
  const GstVideoFormatInfo *finfo
      = gst_video_format_get_info (gst_video_format_from_string (fmt));
  const gchar *out_fmt = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) ? "I420" : "RGBA";
  static const gint out_sizes[][2] = { { 62, 46 }, { 40, 30 } };
  gchar *in_caps = make_caps (fmt, 62, 46, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  gpointer max
      = GUINT_TO_POINTER ((1u << GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0)) - 1);
  guint s, m;

  for (s = 0; s < G_N_ELEMENTS (out_sizes); s++)
    {
      gchar *out_caps
          = make_caps (out_fmt, out_sizes[s][0], out_sizes[s][1], NULL);

      for (m = 0; m <= 2; m++)
        {
          gchar *props = g_strdup_printf ("backend=cpu add-borders=false "
                                          "method=%u",
                                          m);
          GstVideoInfo info_a, info_b;
          GstBuffer *a, *b;
          GstVideoFrame fa, fb;
          guint c;
          gint x, y;

          a = convert_one (props, in_caps, out_caps,
                           make_buffer (&in_info, pattern_any, max), &info_a);
          b = convert_one (
              props, in_caps, out_caps,
              make_padded_buffer (&in_info, 64, 40, 24, pattern_any, max),
              &info_b);
          fail_unless (gst_video_info_is_equal (&info_a, &info_b));
          fail_unless (gst_video_frame_map (&fa, &info_a, a, GST_MAP_READ));
          fail_unless (gst_video_frame_map (&fb, &info_b, b, GST_MAP_READ));
          for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fa); c++)
            {
              for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fa, c); y++)
                {
                  for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fa, c); x++)
                    {
                      guint va = frame_get (&fa, c, x, y),
                            vb = frame_get (&fb, c, x, y);

                      if (va != vb)
                        fail ("%s %dx%d (padded) -> %s %dx%d method %u: "
                              "component %u "
                              "at (%d, %d) is %u, %u without padding",
                              fmt, 62, 46, out_fmt, out_sizes[s][0],
                              out_sizes[s][1], m, c, x, y, vb, va);
                    }
                }
            }
          gst_video_frame_unmap (&fa);
          gst_video_frame_unmap (&fb);
          gst_buffer_unref (a);
          gst_buffer_unref (b);
          g_free (props);
        }
      g_free (out_caps);
    }
  g_free (in_caps);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Crop, borders, direction, methods. */

typedef struct
{
  gint dx, dy;
} Offset;

static guint
pattern_shifted (gint x, gint y, guint comp, gpointer user_data)
{
  const Offset *o = user_data;

  return pattern_unique (x + o->dx, y + o->dy, comp, NULL);
}

GST_START_TEST (test_crop)
{
  gchar *in = make_caps ("RGBA", 8, 8, NULL);
  gchar *out4 = make_caps ("RGBA", 4, 4, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  guint m;

  /* 8x8 minus 2 pixels on each side is the 4x4 centre, unscaled: nearest
   * and bilinear copy it exactly (samples fall on pixel centres; the cubic
   * B-spline is a smoothing filter, not interpolating, so it is left
   * out). */
  for (m = METHOD_NEAREST; m <= METHOD_BILINEAR; m++)
    {
      gchar *props = g_strdup_printf ("backend=cpu method=%u crop-left=2 "
                                      "crop-right=2 crop-top=2 crop-bottom=2",
                                      m);
      Offset o = { 2, 2 };
      GstVideoInfo out_info;
      GstBuffer *out;
      GstVideoFrame f;

      out = convert_one (props, in, out4,
                         make_buffer (&in_info, pattern_unique, NULL),
                         &out_info);
      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), 4);
      fail_unless (gst_video_frame_map (&f, &out_info, out, GST_MAP_READ));
      check_frame (&f, pattern_shifted, &o, 0, props);
      gst_video_frame_unmap (&f);
      gst_buffer_unref (out);
      g_free (props);
    }
  g_free (in);
  g_free (out4);
}

GST_END_TEST;

GST_START_TEST (test_crop_caps_follow)
{
  gchar *in = make_caps ("RGBA", 8, 8, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  GstVideoInfo out_info;
  GstBuffer *out;
  GstVideoFrame f;
  Offset o = { 2, 2 };
  const gchar *props = "backend=cpu crop-left=2 crop-right=2 crop-top=2 "
                       "crop-bottom=2";

  /* Downstream does not fix the size: the output is the cropped size. */
  out = convert_one (props, in, "video/x-raw,format=RGBA",
                     make_buffer (&in_info, pattern_unique, NULL), &out_info);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), 4);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), 4);
  fail_unless (gst_video_frame_map (&f, &out_info, out, GST_MAP_READ));
  check_frame (&f, pattern_shifted, &o, 0, props);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (out);

  /* Asymmetric: left 1, right 3, top 0, bottom 2 -> 4x6 from (1, 0). */
  props = "backend=cpu crop-left=1 crop-right=3 crop-top=0 crop-bottom=2";
  o.dx = 1;
  o.dy = 0;
  out = convert_one (props, in, "video/x-raw,format=RGBA",
                     make_buffer (&in_info, pattern_unique, NULL), &out_info);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), 4);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), 6);
  fail_unless (gst_video_frame_map (&f, &out_info, out, GST_MAP_READ));
  check_frame (&f, pattern_shifted, &o, 0, props);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (out);
  g_free (in);
}

GST_END_TEST;

typedef struct
{
  Codes image, border;
  gint x0, y0, x1, y1; /* image rectangle, in component samples */
} Boxed;

static guint
boxed_func (gint x, gint y, guint comp, gpointer user_data)
{
  const Boxed *b = user_data;

  if (x >= b->x0 && x < b->x1 && y >= b->y0 && y < b->y1)
    return b->image.v[comp];
  return b->border.v[comp];
}

/* Like check_frame, with the rectangle scaled per component (4:2:0
 * chroma). */
static void
check_boxed (const GstVideoFrame *f, const Boxed *box, guint tol,
             const gchar *what)
{
  guint c;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (f); c++)
    {
      gint ws = GST_VIDEO_FORMAT_INFO_W_SUB (f->info.finfo, c);
      gint hs = GST_VIDEO_FORMAT_INFO_H_SUB (f->info.finfo, c);
      Boxed b = *box;
      gint x, y;

      b.x0 >>= ws;
      b.x1 >>= ws;
      b.y0 >>= hs;
      b.y1 >>= hs;
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (f, c); y++)
        {
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (f, c); x++)
            {
              guint got = frame_get (f, c, x, y);
              guint want = boxed_func (x, y, c, &b);

              if (ABS ((gint)got - (gint)want) > (gint)tol)
                fail ("%s: component %u at (%d, %d): got %u, expected %u (%s)",
                      what, c, x, y, got, want,
                      (x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1)
                          ? "image"
                          : "border");
            }
        }
    }
}

GST_START_TEST (test_add_borders)
{
  gchar *in = make_caps ("RGBA", 64, 48, NULL);
  gchar *in_tall = make_caps ("RGBA", 48, 64, NULL);
  gchar *out = make_caps ("RGBA", 64, 64, NULL);
  gchar *out_i420 = make_caps ("I420", 64, 64, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  GstVideoInfo tall_info = texel_video_info_from_caps_string (in_tall);
  GstVideoInfo out_info;
  GstBuffer *buf;
  GstVideoFrame f;
  Boxed box;

  /* 4:3 into a square: 48 image rows in the middle, 8 border rows above
   * and below, in the default border colour (opaque black). */
  box.image = (Codes){ { 200, 100, 50, 255 } };
  box.border = (Codes){ { 0, 0, 0, 255 } };
  box.x0 = 0;
  box.x1 = 64;
  box.y0 = 8;
  box.y1 = 56;
  buf = convert_one ("backend=cpu add-borders=true", in, out,
                     make_buffer (&in_info, solid_func, &box.image), &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_boxed (&f, &box, 1, "64x48 -> 64x64 letterbox");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  /* 3:4 into a square: pillarbox, image columns 8..55. */
  box.x0 = 8;
  box.x1 = 56;
  box.y0 = 0;
  box.y1 = 64;
  buf = convert_one ("backend=cpu", in_tall, out,
                     make_buffer (&tall_info, solid_func, &box.image),
                     &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_boxed (&f, &box, 1, "48x64 -> 64x64 pillarbox");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  /* border-color is ARGB: 0x80ff0000 is red with alpha 128. */
  box.x0 = 0;
  box.x1 = 64;
  box.y0 = 8;
  box.y1 = 56;
  box.border = (Codes){ { 255, 0, 0, 128 } };
  buf = convert_one ("backend=cpu border-color=0x80ff0000", in, out,
                     make_buffer (&in_info, solid_func, &box.image), &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_boxed (&f, &box, 1, "border-color 0x80ff0000");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  /* Into I420: green border (BT.601 145/54/34) around a red image
   * (81/90/240); the image rows 8..55 are even, so chroma rows 4..27. */
  {
    Codes red = { { 255, 0, 0, 255 } };

    box.image = (Codes){ { 81, 90, 240, 0 } };
    box.border = (Codes){ { 145, 54, 34, 0 } };
    buf = convert_one ("backend=cpu border-color=0xff00ff00", in, out_i420,
                       make_buffer (&in_info, solid_func, &red), &out_info);
    fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
    check_boxed (&f, &box, 1, "RGBA 64x48 -> I420 64x64, green border");
    gst_video_frame_unmap (&f);
    gst_buffer_unref (buf);
  }

  g_free (in);
  g_free (in_tall);
  g_free (out);
  g_free (out_i420);
}

GST_END_TEST;

GST_START_TEST (test_no_borders_stretch)
{
  gchar *in = make_caps ("RGBA", 64, 48, NULL);
  gchar *out = make_caps ("RGBA", 64, 64, NULL);
  Codes c = { { 200, 100, 50, 255 } };
  guint m;

  /* add-borders=false: the picture is stretched over the whole frame. */
  for (m = 0; m <= 2; m++)
    {
      gchar *props = g_strdup_printf ("backend=cpu add-borders=false "
                                      "border-color=0xff00ff00 method=%u",
                                      m);

      check_solid_conversion (props, in, &c, out, &c, 1, props);
      g_free (props);
    }
  g_free (in);
  g_free (out);
}

GST_END_TEST;

/* out(x, y) = in(sx, sy) for a W x H input, per GstVideoOrientationMethod
 * (as videoflip). */
static void
direction_source (gint method, gint w, gint h, gint x, gint y, gint *sx,
                  gint *sy)
{
  switch (method)
    {
      case GST_VIDEO_ORIENTATION_IDENTITY:
        *sx = x;
        *sy = y;
        break;
      case GST_VIDEO_ORIENTATION_90R:
        *sx = y;
        *sy = h - 1 - x;
        break;
      case GST_VIDEO_ORIENTATION_180:
        *sx = w - 1 - x;
        *sy = h - 1 - y;
        break;
      case GST_VIDEO_ORIENTATION_90L:
        *sx = w - 1 - y;
        *sy = x;
        break;
      case GST_VIDEO_ORIENTATION_HORIZ:
        *sx = w - 1 - x;
        *sy = y;
        break;
      case GST_VIDEO_ORIENTATION_VERT:
        *sx = x;
        *sy = h - 1 - y;
        break;
      case GST_VIDEO_ORIENTATION_UL_LR:
        *sx = y;
        *sy = x;
        break;
      case GST_VIDEO_ORIENTATION_UR_LL:
        *sx = w - 1 - y;
        *sy = h - 1 - x;
        break;
      default:
        g_assert_not_reached ();
    }
}

static gboolean
direction_swaps (gint method)
{
  return method == GST_VIDEO_ORIENTATION_90R
         || method == GST_VIDEO_ORIENTATION_90L
         || method == GST_VIDEO_ORIENTATION_UL_LR
         || method == GST_VIDEO_ORIENTATION_UR_LL;
}

static void
check_direction (const GstVideoFrame *f, gint method, gint w, gint h,
                 const gchar *what)
{
  gint x, y;
  guint c;

  fail_unless_equals_int (GST_VIDEO_FRAME_WIDTH (f),
                          direction_swaps (method) ? h : w);
  fail_unless_equals_int (GST_VIDEO_FRAME_HEIGHT (f),
                          direction_swaps (method) ? w : h);
  for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (f); y++)
    {
      for (x = 0; x < GST_VIDEO_FRAME_WIDTH (f); x++)
        {
          gint sx, sy;

          direction_source (method, w, h, x, y, &sx, &sy);
          for (c = 0; c < 4; c++)
            {
              guint got = frame_get (f, c, x, y);
              guint want = pattern_unique (sx, sy, c, NULL);

              if (got != want)
                fail ("%s: output (%d, %d) component %u is %u, expected %u "
                      "(input "
                      "pixel (%d, %d))",
                      what, x, y, c, got, want, sx, sy);
            }
        }
    }
}

static const gchar *direction_nicks[]
    = { "identity", "90r", "180", "90l", "horiz", "vert", "ul-lr", "ur-ll" };

GST_START_TEST (test_direction)
{
  gint method = __i__;
  gint w = 4, h = 2;
  gint ow = direction_swaps (method) ? h : w;
  gint oh = direction_swaps (method) ? w : h;
  gchar *in = make_caps ("RGBA", w, h, NULL);
  gchar *out = make_caps ("RGBA", ow, oh, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  guint m;

  /* 1:1: nearest and bilinear sample pixel centres exactly. */
  for (m = METHOD_NEAREST; m <= METHOD_BILINEAR; m++)
    {
      gchar *props = g_strdup_printf ("backend=cpu method=%u "
                                      "video-direction=%s",
                                      m, direction_nicks[method]);
      GstVideoInfo out_info;
      GstBuffer *buf;
      GstVideoFrame f;

      buf = convert_one (props, in, out,
                         make_buffer (&in_info, pattern_unique, NULL),
                         &out_info);
      fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
      check_direction (&f, method, w, h, props);
      gst_video_frame_unmap (&f);
      gst_buffer_unref (buf);
      g_free (props);
    }
  g_free (in);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_direction_caps)
{
  gchar *in = make_caps ("RGBA", 4, 2, NULL);
  guint i;

  /* Downstream leaves the size free: rotations and transpositions swap
   * width and height in the output caps, flips do not. */
  for (i = 0; i < G_N_ELEMENTS (direction_nicks); i++)
    {
      gchar *props = g_strdup_printf ("backend=cpu video-direction=%s",
                                      direction_nicks[i]);

      negotiate_and_check (props, in, "video/x-raw,format=RGBA", "RGBA",
                           direction_swaps (i) ? 2 : 4,
                           direction_swaps (i) ? 4 : 2);
      g_free (props);
    }
  g_free (in);
}

GST_END_TEST;

GST_START_TEST (test_direction_auto_tag)
{
  gchar *in = make_caps ("RGBA", 4, 2, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  GstHarness *h = texel_harness_new ("backend=cpu video-direction=auto");
  GstVideoInfo out_info;
  GstBuffer *buf;
  GstVideoFrame f;

  gst_harness_set_caps_str (h, in, "video/x-raw,format=RGBA");
  /* image-orientation rotate-90: the picture is to be turned clockwise. */
  fail_unless (gst_harness_push_event (
      h, gst_event_new_tag (
             gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION, "rotate-90", NULL))));
  buf = push_pull (h, make_buffer (&in_info, pattern_unique, NULL));
  texel_harness_out_info (h, &out_info);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), 2);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), 4);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_direction (&f, GST_VIDEO_ORIENTATION_90R, 4, 2, "auto, rotate-90");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  /* flip-rotate-0 mid-stream: horizontal flip, size back to 4x2. */
  fail_unless (gst_harness_push_event (
      h, gst_event_new_tag (gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION,
                                              "flip-rotate-0", NULL))));
  buf = push_pull (h, make_buffer (&in_info, pattern_unique, NULL));
  texel_harness_out_info (h, &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_direction (&f, GST_VIDEO_ORIENTATION_HORIZ, 4, 2,
                   "auto, flip-rotate-0");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  texel_harness_teardown (h);
  g_free (in);
}

GST_END_TEST;

/* Pushes a frame and says whether the element passed it through (the
 * input buffer itself came out); the output in *@out if asked for. */
static gboolean
passed_through (GstHarness *h, const GstVideoInfo *info, GstBuffer **out)
{
  GstBuffer *in = make_buffer (info, pattern_unique, NULL);
  GstBuffer *buf;
  gboolean same;

  gst_buffer_ref (in);
  buf = push_pull (h, in);
  same = buf == in;
  gst_buffer_unref (in);
  if (out)
    *out = buf;
  else
    gst_buffer_unref (buf);
  return same;
}

/* Started in passthrough (equal caps, neutral settings), a change made
 * while frames flow applies from the next frame, and undoing it goes back
 * to passthrough: video-direction and a crop into fixed output caps, both
 * of which leave the caps as they were (so GstBaseTransform does not
 * configure the element again by itself). */
GST_START_TEST (test_live_changes_from_passthrough)
{
  gchar *caps = make_caps ("RGBA", 8, 8, NULL);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  GstHarness *h = texel_harness_new ("backend=cpu");
  GstBuffer *out;
  GstVideoFrame f;

  gst_harness_set_caps_str (h, caps, caps);
  fail_unless (passed_through (h, &info, NULL));
  fail_unless_equals_uint64 (texel_stats_get (h->element, "frames"), 0);

  gst_util_set_object_arg (G_OBJECT (h->element), "video-direction", "horiz");
  fail_if (passed_through (h, &info, &out), "video-direction ignored");
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
  check_direction (&f, GST_VIDEO_ORIENTATION_HORIZ, 8, 8, "live horiz");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (out);
  fail_unless_equals_uint64 (texel_stats_get (h->element, "frames"), 1);

  gst_util_set_object_arg (G_OBJECT (h->element), "video-direction",
                           "identity");
  fail_unless (passed_through (h, &info, NULL), "not back to passthrough");

  g_object_set (h->element, "crop-left", 4, NULL);
  fail_if (passed_through (h, &info, NULL), "crop-left ignored");
  fail_unless_equals_uint64 (texel_stats_get (h->element, "frames"), 2);
  g_object_set (h->element, "crop-left", 0, NULL);
  fail_unless (passed_through (h, &info, NULL), "not back to passthrough");

  texel_harness_teardown (h);
  g_free (caps);
}

GST_END_TEST;

GST_START_TEST (test_methods_constant)
{
  /* Each method's weights sum to one: a constant picture stays constant,
   * up- and downscaled, in RGBA and in I420 (chroma interpolated too). */
  gint m = __i__;
  gchar *props = g_strdup_printf ("backend=cpu add-borders=false method=%d", m);
  static const gint outs[][2]
      = { { 37, 29 }, { 100, 75 }, { 64, 48 }, { 7, 5 } };
  gchar *in_rgba = make_caps ("RGBA", 64, 48, NULL);
  gchar *in_i420 = make_caps ("I420", 64, 48, NULL);
  Codes c = { { 37, 142, 201, 255 } };
  Codes y = { { 120, 150, 100, 0 } };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (outs); i++)
    {
      gchar *o = make_caps ("RGBA", outs[i][0], outs[i][1], NULL);
      gchar *oi = make_caps ("I420", outs[i][0] + 1, outs[i][1] + 1, NULL);

      check_solid_conversion (props, in_rgba, &c, o, &c, 1, o);
      check_solid_conversion (props, in_i420, &y, oi, &y, 1, oi);
      g_free (o);
      g_free (oi);
    }
  g_free (in_rgba);
  g_free (in_i420);
  g_free (props);
}

GST_END_TEST;

static guint
pattern_2x2 (gint x, gint y, guint comp, gpointer user_data)
{
  return pattern_unique (x, y, comp, NULL);
}

static guint
blocks_of_2 (gint x, gint y, guint comp, gpointer user_data)
{
  return pattern_unique (x / 2, y / 2, comp, NULL);
}

GST_START_TEST (test_nearest_upscale)
{
  /* Nearest, 2x: output pixel centre (X + 0.5) / 2 falls inside input
   * pixel X / 2, never on an edge. */
  gchar *in = make_caps ("RGBA", 3, 2, NULL);
  gchar *out = make_caps ("RGBA", 6, 4, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  GstVideoInfo out_info;
  GstBuffer *buf;
  GstVideoFrame f;

  buf = convert_one ("backend=cpu method=nearest", in, out,
                     make_buffer (&in_info, pattern_2x2, NULL), &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_frame (&f, blocks_of_2, NULL, 0, "nearest 3x2 -> 6x4");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);
  g_free (in);
  g_free (out);
}

GST_END_TEST;

static guint
stripes (gint x, gint y, guint comp, gpointer user_data)
{
  return comp == 3 ? 255 : (x & 1) * 200;
}

GST_START_TEST (test_downscale_average)
{
  /* 8x8 vertical stripes 0/200 to 4x4: output sample X sits half-way
   * between input columns 2X and 2X+1: bilinear gives their mean, 100.
   * The cubic B-spline (weights 1/48, 23/48, 23/48, 1/48 there) also gives
   * 100 away from the edges (columns 1 and 2; at the edges the clamped
   * neighbour shifts it by ~4). */
  gchar *in = make_caps ("RGBA", 8, 8, NULL);
  gchar *out = make_caps ("RGBA", 4, 4, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  guint m;

  for (m = METHOD_BILINEAR; m <= METHOD_BICUBIC; m++)
    {
      gchar *props = g_strdup_printf ("backend=cpu method=%u", m);
      GstVideoInfo out_info;
      GstBuffer *buf;
      GstVideoFrame f;
      gint x, y;
      guint c;

      buf = convert_one (props, in, out, make_buffer (&in_info, stripes, NULL),
                         &out_info);
      fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
      for (y = 0; y < 4; y++)
        {
          for (x = (m == METHOD_BICUBIC ? 1 : 0);
               x < (m == METHOD_BICUBIC ? 3 : 4); x++)
            {
              for (c = 0; c < 3; c++)
                {
                  guint v = frame_get (&f, c, x, y);

                  fail_unless (v >= 99 && v <= 101,
                               "%s: (%d, %d) component %u is "
                               "%u, expected 100",
                               props, x, y, c, v);
                }
              fail_unless_equals_int (frame_get (&f, 3, x, y), 255);
            }
        }
      gst_video_frame_unmap (&f);
      gst_buffer_unref (buf);
      g_free (props);
    }
  g_free (in);
  g_free (out);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Backends, messages, states. */

GST_START_TEST (test_strategy_message_cpu)
{
  gchar *in = make_caps ("RGBA", 16, 8, NULL);
  gchar *out = make_caps ("I420", 16, 8, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  GstHarness *h = texel_harness_new ("backend=cpu");
  Codes red = { { 255, 0, 0, 255 } };
  GstMessage *msg;
  const GstStructure *s;
  gint device = 0;

  gst_harness_set_caps_str (h, in, out);
  gst_buffer_unref (push_pull (h, make_buffer (&in_info, solid_func, &red)));

  msg = texel_pop_strategy_message (h->element);
  fail_unless (msg != NULL, "no texel-strategy element message");
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (h->element));
  s = gst_message_get_structure (msg);
  fail_unless_equals_string (gst_structure_get_string (s, "backend"), "cpu");
  fail_unless_equals_string (gst_structure_get_string (s, "memory-mode"),
                             "system");
  fail_unless (gst_structure_get_int (s, "device", &device),
               "no int field 'device' in the texel-strategy message");
  fail_unless_equals_int (device, -1);
  gst_message_unref (msg);

  fail_unless_equals_int (texel_get_int (h->element, "active-backend"),
                          BACKEND_CPU);
  fail_unless_equals_int (texel_get_int (h->element, "active-memory-mode"),
                          ACTIVE_MEMORY_SYSTEM);

  texel_harness_teardown (h);
  g_free (in);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_backend_auto)
{
  gchar *in = make_caps ("RGBA", 16, 8, NULL);
  gchar *out = make_caps ("I420", 16, 8, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  GstHarness *h = texel_harness_new ("backend=auto");
  Codes red = { { 255, 0, 0, 255 } };
  Codes red_yuv = { { 81, 90, 240, 0 } };
  gboolean have_gpu = cuda_device_count () > 0;
  GstVideoInfo out_info;
  GstBuffer *buf;
  GstVideoFrame f;
  GstMessage *msg;
  gchar *warnings;
  gint active;

  gst_harness_set_caps_str (h, in, out);
  buf = push_pull (h, make_buffer (&in_info, solid_func, &red));
  texel_harness_out_info (h, &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  /* Solid colour at 1:1: +-1 on either backend. */
  check_frame (&f, solid_func, &red_yuv, 1, "backend=auto RGBA -> I420");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  active = texel_get_int (h->element, "active-backend");
  msg = texel_pop_strategy_message (h->element);
  fail_unless (msg != NULL, "no texel-strategy element message");
  if (!have_gpu)
    {
      /* Falls back to the CPU: a debug-log warning, no bus warning. */
      fail_unless_equals_int (active, BACKEND_CPU);
      fail_unless_equals_int (texel_get_int (h->element, "active-memory-mode"),
                              ACTIVE_MEMORY_SYSTEM);
      fail_unless_equals_string (
          gst_structure_get_string (gst_message_get_structure (msg), "backend"),
          "cpu");
      warnings = bus_messages_text (h->element,
                                    GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
      fail_unless_equals_string (warnings, "");
      g_free (warnings);
    }
  else
    {
      fail_unless_equals_int (active, BACKEND_CUDA);
      fail_unless_equals_string (
          gst_structure_get_string (gst_message_get_structure (msg), "backend"),
          "cuda");
    }
  gst_message_unref (msg);

  texel_harness_teardown (h);
  g_free (in);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_backend_cuda_without_gpu)
{
  GstElement *e;
  GstStateChangeReturn ret;
  GstBus *bus;
  GstMessage *msg;

  if (cuda_device_count () > 0)
    {
      g_print ("test_backend_cuda_without_gpu: a GPU is present, skipped\n");
      return;
    }

  e = texel_element_new ("backend=cuda");
  ret = gst_element_set_state (e, GST_STATE_PAUSED);
  if (ret == GST_STATE_CHANGE_ASYNC)
    ret = gst_element_get_state (e, NULL, NULL, 5 * GST_SECOND);
  fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);

  bus = gst_element_get_bus (e);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message on the bus");
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (e));
  {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    GST_INFO ("expected error: %s (%s)", err->message, GST_STR_NULL (dbg));
    g_clear_error (&err);
    g_free (dbg);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);

  fail_unless_equals_int (texel_get_int (e, "active-backend"), BACKEND_AUTO);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
                          GST_STATE_CHANGE_SUCCESS);
  drop_bus_messages (e);
  gst_object_unref (e);
}

GST_END_TEST;

static void
run_cycle (GstHarness *h, guint i, gboolean restart)
{
  static const struct
  {
    const gchar *in, *out;
    gint w, h;
  } cfg[] = {
    { "RGBA", "I420", 64, 48 }, { "NV12", "RGBA", 32, 32 },
    { "I420", "I420", 48, 32 }, /* passthrough */
    { "YUY2", "BGR", 20, 10 },  { "P010_10LE", "NV12", 16, 16 },
  };
  guint k = i % G_N_ELEMENTS (cfg);
  gchar *in = make_caps (cfg[k].in, cfg[k].w, cfg[k].h, NULL);
  gchar *out = make_caps (cfg[k].out, cfg[k].w, cfg[k].h, NULL);
  GstVideoInfo in_info = texel_video_info_from_caps_string (in);
  Codes grey = { { 128, 128, 128, 255 } };
  guint n;

  if (restart)
    {
      fail_unless_equals_int (
          gst_element_set_state (h->element, GST_STATE_READY),
          GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (
          gst_element_set_state (h->element, GST_STATE_PLAYING),
          GST_STATE_CHANGE_SUCCESS);
      fail_unless (gst_harness_push_event (
          h, gst_event_new_stream_start ("texel-cycle")));
    }
  gst_harness_set_caps_str (h, in, out);
  for (n = 0; n < 2; n++)
    {
      GstBuffer *buf = push_pull (h, make_buffer (&in_info, solid_func, &grey));

      gst_buffer_unref (buf);
    }
  check_out_caps (h, cfg[k].out, cfg[k].w, cfg[k].h);
  fail_unless_equals_int (gst_element_set_state (h->element, GST_STATE_NULL),
                          GST_STATE_CHANGE_SUCCESS);
  g_free (in);
  g_free (out);
}

GST_START_TEST (test_state_cycles)
{
  GstTracer *leaks = texel_find_leaks_tracer ();
  GstHarness *h;
  guint i;

  /* Warm-up: whatever is created once per process (allocators, types)
   * is created here, before tracking starts. */
  h = texel_harness_new ("backend=cpu");
  run_cycle (h, 0, FALSE);
  texel_harness_teardown (h);

  if (leaks)
    g_signal_emit_by_name (leaks, "activity-start-tracking");
  else
    g_print ("test_state_cycles: leaks tracer not active (GST_TRACERS=%s), "
             "object leak check skipped\n",
             GST_STR_NULL (g_getenv ("GST_TRACERS")));

  h = texel_harness_new ("backend=cpu");
  for (i = 0; i < 50; i++)
    run_cycle (h, i, i > 0);
  texel_harness_teardown (h);

  if (leaks)
    {
      GstStructure *cp = NULL;

      g_signal_emit_by_name (leaks, "activity-get-checkpoint", &cp);
      g_signal_emit_by_name (leaks, "activity-stop-tracking");
      fail_unless (cp != NULL);
      texel_check_checkpoint_empty (cp, "50 state cycles");
      gst_structure_free (cp);
      gst_object_unref (leaks);
    }
}

GST_END_TEST;

GST_START_TEST (test_renegotiation)
{
  gchar *in1 = make_caps ("RGBA", 64, 48, NULL);
  gchar *in2 = make_caps ("RGBA", 32, 32, NULL);
  gchar *in3 = make_caps ("NV12", 32, 32, NULL);
  GstVideoInfo info1 = texel_video_info_from_caps_string (in1);
  GstVideoInfo info2 = texel_video_info_from_caps_string (in2);
  GstVideoInfo info3 = texel_video_info_from_caps_string (in3);
  GstHarness *h = texel_harness_new ("backend=cpu");
  Codes red = { { 255, 0, 0, 255 } };
  Codes red_yuv = { { 81, 90, 240, 0 } };
  Codes green = { { 0, 255, 0, 255 } };
  Codes green_yuv = { { 145, 54, 34, 0 } };
  GstVideoInfo out_info;
  GstBuffer *buf;
  GstVideoFrame f;

  /* Downstream: I420, any size. */
  gst_harness_set_caps_str (h, in1, "video/x-raw,format=I420");
  buf = push_pull (h, make_buffer (&info1, solid_func, &red));
  check_out_caps (h, "I420", 64, 48);
  texel_harness_out_info (h, &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_frame (&f, solid_func, &red_yuv, 1, "64x48 red");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  /* New size mid-stream. */
  gst_harness_set_src_caps_str (h, in2);
  buf = push_pull (h, make_buffer (&info2, solid_func, &green));
  check_out_caps (h, "I420", 32, 32);
  texel_harness_out_info (h, &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_frame (&f, solid_func, &green_yuv, 1, "32x32 green");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  /* New format mid-stream. */
  gst_harness_set_src_caps_str (h, in3);
  buf = push_pull (h, make_buffer (&info3, solid_func, &red_yuv));
  check_out_caps (h, "I420", 32, 32);
  texel_harness_out_info (h, &out_info);
  fail_unless (gst_video_frame_map (&f, &out_info, buf, GST_MAP_READ));
  check_frame (&f, solid_func, &red_yuv, 1, "NV12 -> I420 32x32");
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);

  /* And back to the first caps. */
  gst_harness_set_src_caps_str (h, in1);
  buf = push_pull (h, make_buffer (&info1, solid_func, &green));
  check_out_caps (h, "I420", 64, 48);
  gst_buffer_unref (buf);

  texel_harness_teardown (h);
  g_free (in1);
  g_free (in2);
  g_free (in3);
}

GST_END_TEST;

/* The CPU path is the fast path (kernels/convert/texel-convert-fast.h):
 * fixed point, within a code of the exact rounding, like the GPU's
 * float. The double-precision reference's exact rounding is checked by
 * tests/unit/test-chroma.c. */
#define CHROMA_CPU_TOL 1

/* Subsampled chroma (texel-chroma-check.h), on the CPU path: within
 * CHROMA_CPU_TOL of the rounding. Loops over texel_chroma_formats x
 * texel_chroma_sites. */
GST_START_TEST (test_chroma_encode_exact)
{
  texel_check_encode_exact (
      "backend=cpu", texel_chroma_formats[__i__ / texel_chroma_n_sites],
      texel_chroma_sites[__i__ % texel_chroma_n_sites], CHROMA_CPU_TOL);
}

GST_END_TEST;

/* 1:1 decoding interpolates chroma at its sites unless method=nearest. */
GST_START_TEST (test_chroma_decode_exact)
{
  static const gchar *methods[] = { "nearest", "bilinear", "bicubic" };
  guint m;

  for (m = 0; m < G_N_ELEMENTS (methods); m++)
    texel_check_decode_exact (
        "backend=cpu", texel_chroma_formats[__i__ / texel_chroma_n_sites],
        texel_chroma_sites[__i__ % texel_chroma_n_sites], methods[m],
        CHROMA_CPU_TOL);
}

GST_END_TEST;

/* The same filters as videoconvert (GStreamer 1.22), whose integer
 * arithmetic is within a code of exact. */
GST_START_TEST (test_chroma_videoconvert)
{
  texel_check_against_videoconvert (
      "backend=cpu", texel_chroma_formats[__i__ / texel_chroma_n_sites],
      texel_chroma_sites[__i__ % texel_chroma_n_sites], VIDEOCONVERT_TOL);
}

GST_END_TEST;

static Suite *
texelconvert_suite (void)
{
  const TexelTest properties_tests[] = {
    TEXEL_TEST (test_create),
    TEXEL_TEST (test_property_defaults),
    TEXEL_TEST (test_property_set_get),
    TEXEL_TEST (test_property_read_only),
  };
  const TexelTest negotiation_tests[] = {
    TEXEL_TEST (test_caps_fixed_downstream),
    TEXEL_TEST (test_caps_fixate_same_size),
    TEXEL_TEST (test_caps_pixel_aspect_ratio),
    TEXEL_TEST (test_scale_down),
    TEXEL_TEST (test_passthrough),
    TEXEL_TEST (test_no_passthrough_when_changing),
    TEXEL_TEST (test_renegotiation),
  };
  const TexelTest colour_tests[] = {
    TEXEL_TEST (test_colour_known_bt601),
    TEXEL_TEST (test_colour_known_other_matrices),
    TEXEL_TEST (test_colour_known_yuv_to_rgb),
    TEXEL_LOOP_TEST (test_round_trip, TEXEL_N_FORMATS),
    TEXEL_TEST (test_gray16),
  };
  const TexelTest geometry_tests[] = {
    TEXEL_TEST (test_odd_sizes),
    TEXEL_TEST (test_odd_large),
    TEXEL_LOOP_TEST (test_padded_strides, G_N_ELEMENTS (padded_formats)),
    TEXEL_TEST (test_crop),
    TEXEL_TEST (test_crop_caps_follow),
    TEXEL_TEST (test_add_borders),
    TEXEL_TEST (test_no_borders_stretch),
    TEXEL_LOOP_TEST (test_direction, 8),
    TEXEL_TEST (test_direction_caps),
    TEXEL_TEST (test_direction_auto_tag),
    TEXEL_TEST (test_live_changes_from_passthrough),
    TEXEL_LOOP_TEST (test_methods_constant, 3),
    TEXEL_TEST (test_nearest_upscale),
    TEXEL_TEST (test_downscale_average),
  };
  const TexelTest chroma_tests[] = {
    TEXEL_LOOP_TEST (test_chroma_encode_exact,
                     texel_chroma_n_formats * texel_chroma_n_sites),
    TEXEL_LOOP_TEST (test_chroma_decode_exact,
                     texel_chroma_n_formats * texel_chroma_n_sites),
    TEXEL_LOOP_TEST (test_chroma_videoconvert,
                     texel_chroma_n_formats * texel_chroma_n_sites),
  };
  const TexelTest backend_tests[] = {
    TEXEL_TEST (test_strategy_message_cpu),
    TEXEL_TEST (test_backend_auto),
    TEXEL_TEST (test_backend_cuda_without_gpu),
    TEXEL_TEST (test_state_cycles),
  };
  const TexelTCase tcases[] = {
    TEXEL_TCASE ("properties", 0, properties_tests),
    TEXEL_TCASE ("negotiation", 0, negotiation_tests),
    TEXEL_TCASE ("colour", 0, colour_tests),
    TEXEL_TCASE ("geometry", 120, geometry_tests),
    TEXEL_TCASE ("chroma", 120, chroma_tests),
    TEXEL_TCASE ("backend", 120, backend_tests),
  };

  return texel_suite_new_tcases ("texelconvert", tcases, G_N_ELEMENTS (tcases));
}

int
main (int argc, char **argv)
{
  return texel_check_run (&argc, &argv, texelconvert_suite, "texelconvert",
                          __FILE__);
}
