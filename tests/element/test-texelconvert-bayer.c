/* gst-texel element tests: texelconvert with raw Bayer input
 * (video/x-bayer) on the CPU path, its output checked against the
 * development written out in tests/common/bayer-reference.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "texel-frames.h"
#include "bayer-reference.h"
#ifdef TEXEL_TEST_GPU
#include "texel-gpu-probe.h"
#endif

/* The GPU variant (test-texelconvert-bayer-gpu): the same checks on the
 * CUDA path, in both memory modes. The GPU develops in float: it may
 * round the last code the other way where the exact value lies within
 * 0.01 code of a half. The CPU path is the fast one (texel-bayer-fast.h):
 * its integer tables are exact to 1/256 code before the rounding where
 * their index is the exact sum (8 to 12-bit mosaics, equal colour scales
 * or bilinear), and otherwise within 0.49 code: every code within one of
 * the exact value. */
#ifdef TEXEL_TEST_GPU
#define TOLERANCE (0.5 + 0.01)
#else
#define TOLERANCE 1.0
#endif
#ifdef TEXEL_TEST_GPU
#define TEXEL_TEST_BACKEND "cuda"
static const gchar *const backends[] = { "backend=cuda memory-mode=zero-copy",
                                         "backend=cuda memory-mode=staged" };
#else
#define TEXEL_TEST_BACKEND "cpu"
static const gchar *const backends[] = { "backend=cpu" };
#endif

static const gchar *const patterns[] = { "rggb", "bggr", "grbg", "gbrg" };
static const gchar *const pattern_names[] = { "RGGB", "BGGR", "GRBG", "GBRG" };

/* A mosaic in the layout of videotestsrc and bayer2rgb: rows of 8-bit
 * samples or 16-bit little-endian words, padded to 4 bytes. */
static GstBuffer *
mosaic_new (const BayerRef *r, GRand *rand, gint *stride)
{
  gint bpp = r->bits > 8 ? 2 : 1;
  GstBuffer *buf;
  GstMapInfo map;
  gint x, y;

  *stride = GST_ROUND_UP_4 (r->width * bpp);
  buf = gst_buffer_new_allocate (NULL, (gsize)*stride * r->height, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (map.data, 0xa5, map.size);
  for (y = 0; y < r->height; y++)
    for (x = 0; x < r->width; x++)
      {
        guint code = g_rand_int_range (rand, 0, 1 << r->bits);
        guint8 *p = map.data + (gsize)y * *stride + (gsize)x * bpp;

        if (bpp == 1)
          {
            p[0] = (guint8)code;
          }
        else
          {
            guint w = r->msb ? code << (16 - r->bits) : code;

            p[0] = (guint8)(w & 0xff);
            p[1] = (guint8)(w >> 8);
          }
      }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

static gchar *
bayer_caps (const gchar *pattern, gint bits, gint w, gint h)
{
  gchar *format = bits == 8 ? g_strdup (pattern)
                            : g_strdup_printf ("%s%dle", pattern, bits);
  gchar *caps
      = g_strdup_printf ("video/x-bayer,format=%s,width=%d,"
                         "height=%d,framerate=30/1,pixel-aspect-ratio=1/1",
                         format, w, h);

  g_free (format);
  return caps;
}

/* Converts a random mosaic described by @r (size, pattern, depth and
 * development) with texelconvert set up by @props to RGBA of the same size
 * and compares each code with the reference's value rounded. */
static void
check_develop_on (BayerRef *r, const gchar *backend, const gchar *props,
                  GRand *rand)
{
  gchar *pattern = g_ascii_strdown (r->pattern, -1);
  gchar *in_caps = bayer_caps (pattern, r->bits, r->width, r->height);
  gchar *out_caps
      = g_strdup_printf ("video/x-raw,format=RGBA,width=%d,"
                         "height=%d,framerate=30/1,pixel-aspect-ratio=1/1",
                         r->width, r->height);
  gchar *all_props = g_strdup_printf ("%s %s", backend, props);
  GstHarness *h = texel_harness_new_with (
      texel_test_element_new ("texelconvert", all_props));
  GstBuffer *in, *out;
  GstMapInfo in_map, out_map;
  gint stride, x, y, c;

  gst_harness_set_caps_str (h, in_caps, out_caps);
  in = mosaic_new (r, rand, &stride);
  gst_buffer_map (in, &in_map, GST_MAP_READ);
  r->data = in_map.data;
  r->stride = stride;
  out = texel_push_pull (h, gst_buffer_ref (in));
  gst_buffer_map (out, &out_map, GST_MAP_READ);
  for (y = 0; y < r->height; y++)
    for (x = 0; x < r->width; x++)
      {
        const guint8 *p = out_map.data
                          + (gsize)y * GST_ROUND_UP_4 (r->width * 4)
                          + (gsize)x * 4;
        gdouble want[3];

        bayer_ref_develop (r, x, y, want);
        for (c = 0; c < 3; c++)
          fail_unless (fabs (p[c] - want[c] * 255.0) <= TOLERANCE,
                       "%s %d-bit%s %dx%d (%s): (%d,%d)[%d] = %u, want %.4f",
                       pattern, r->bits, r->msb ? " msb" : "", r->width,
                       r->height, all_props, x, y, c, p[c], want[c] * 255.0);
        fail_unless_equals_int (p[3], 255);
      }
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (in, &in_map);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  texel_harness_teardown (h);
  g_free (all_props);
  g_free (out_caps);
  g_free (in_caps);
  g_free (pattern);
}

static void
check_develop (BayerRef *r, const gchar *props, GRand *rand)
{
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    check_develop_on (r, backends[b], props, rand);
}

/* Every pattern and depth, both alignments of the bits in their words,
 * hostile sizes (1 pixel wide or high, odd), both methods. */
GST_START_TEST (test_bayer_every_format)
{
  static const gint depths[][2] = {
    { 8, 0 }, { 10, 0 }, { 10, 1 }, { 12, 0 }, { 12, 1 }, { 14, 1 }, { 16, 0 },
  };
  static const gint sizes[][2]
      = { { 1, 1 }, { 1, 6 }, { 7, 1 }, { 5, 3 }, { 33, 17 } };
  GRand *rand = g_rand_new_with_seed (18);
  guint p, d, s;

  for (p = 0; p < G_N_ELEMENTS (patterns); p++)
    for (d = 0; d < G_N_ELEMENTS (depths); d++)
      for (s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          BayerRef r;
          gchar *props;

          bayer_ref_init (&r, pattern_names[p], depths[d][0], depths[d][1]);
          r.width = sizes[s][0];
          r.height = sizes[s][1];
          r.transfer = BAYER_REF_SRGB; /* auto: RGBA's caps say sRGB */
          r.bilinear = (p + s) % 2;
          props = g_strdup_printf ("bayer-alignment=%s demosaic=%s",
                                   r.msb ? "msb" : "lsb",
                                   r.bilinear ? "bilinear" : "mhc");
          check_develop (&r, props, rand);
          g_free (props);
        }
  g_rand_free (rand);
}

GST_END_TEST;

/* Black levels, white-balance gains, a colour matrix and each transfer
 * function, set as properties. */
GST_START_TEST (test_bayer_development)
{
  static const gchar *const transfers[] = { "srgb", "bt709", "linear" };
  static const gdouble ccm[3][3]
      = { { 1.6, -0.4, -0.2 }, { -0.3, 1.5, -0.2 }, { 0.1, -0.6, 1.5 } };
  GRand *rand = g_rand_new_with_seed (5);
  guint t;

  for (t = 0; t < G_N_ELEMENTS (transfers); t++)
    {
      BayerRef r;
      gchar *props;

      bayer_ref_init (&r, "GBRG", 12, 1);
      r.width = 19;
      r.height = 11;
      r.black[0] = 256;
      r.black[1] = 240;
      r.black[2] = 250;
      r.gain[0] = 2.1;
      r.gain[2] = 1.6;
      memcpy (r.ccm, ccm, sizeof (ccm));
      r.transfer = t == 0   ? BAYER_REF_SRGB
                   : t == 1 ? BAYER_REF_BT709
                            : BAYER_REF_LINEAR;
      props = g_strdup_printf (
          "bayer-alignment=msb black-level-red=256 "
          "black-level-green=240 black-level-blue=250 wb-gain-red=2.1 "
          "wb-gain-blue=1.6 raw-transfer=%s color-matrix=<1.6,-0.4,-0.2,"
          "-0.3,1.5,-0.2,0.1,-0.6,1.5>",
          transfers[t]);
      check_develop (&r, props, rand);
      g_free (props);
    }
  g_rand_free (rand);
}

GST_END_TEST;

/* Development properties set while playing apply from the next frame: a
 * flat mosaic of code 60, linear, then with the red gain doubled and a
 * blue black level of 20. */
GST_START_TEST (test_bayer_change_while_playing)
{
  static const guint before[3] = { 60, 60, 60 };
  /* (60 - 20) / (255 - 20) * 255 = 43.4 */
  static const guint after[3] = { 120, 60, 43 };
  GstHarness *h = texel_harness_new_with (texel_test_element_new (
      "texelconvert", "backend=" TEXEL_TEST_BACKEND " raw-transfer=linear"));
  guint k, i, c;

  gst_harness_set_caps_str (h,
                            "video/x-bayer,format=grbg,width=8,height=4,"
                            "framerate=30/1",
                            "video/x-raw,format=RGBA,width=8,height=4,"
                            "framerate=30/1");
  for (k = 0; k < 2; k++)
    {
      GstBuffer *in = gst_buffer_new_allocate (NULL, 8 * 4, NULL);
      GstBuffer *out;
      GstMapInfo map;

      gst_buffer_memset (in, 0, 60, 8 * 4);
      if (k == 1)
        g_object_set (h->element, "wb-gain-red", 2.0, "black-level-blue", 20.0,
                      NULL);
      out = texel_push_pull (h, in);
      gst_buffer_map (out, &map, GST_MAP_READ);
      for (i = 0; i < map.size; i += 4)
        for (c = 0; c < 3; c++)
          fail_unless_equals_int (map.data[i + c], k ? after[c] : before[c]);
      gst_buffer_unmap (out, &map);
      gst_buffer_unref (out);
    }
  texel_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_bayer_properties)
{
  GstElement *e = gst_element_factory_make ("texelconvert", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GValue array = G_VALUE_INIT;
  GstCaps *caps;
  GstPad *sink;
  GParamSpec *ps;
  gdouble v;
  guint i;

  ps = g_object_class_find_property (klass, "wb-gain-red");
  fail_unless (ps != NULL && G_IS_PARAM_SPEC_DOUBLE (ps));
  fail_unless (ps->flags & GST_PARAM_CONTROLLABLE);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (ps)->default_value, 1.0);
  ps = g_object_class_find_property (klass, "black-level-blue");
  fail_unless (ps != NULL && (ps->flags & GST_PARAM_CONTROLLABLE));
  fail_unless_equals_int (texel_get_int (e, "demosaic"), 0); /* mhc */
  fail_unless_equals_int (texel_get_int (e, "bayer-alignment"), 0);
  fail_unless_equals_int (texel_get_int (e, "raw-transfer"), 0); /* auto */

  g_object_set (e, "black-level-green", 64.0, NULL);
  g_object_get (e, "black-level-green", &v, NULL);
  fail_unless_equals_float (v, 64.0);

  g_value_init (&array, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "color-matrix", &array);
  fail_unless_equals_int (gst_value_array_get_size (&array), 9);
  for (i = 0; i < 9; i++)
    fail_unless_equals_float (
        g_value_get_double (gst_value_array_get_value (&array, i)),
        i % 4 == 0 ? 1.0 : 0.0);
  g_value_unset (&array);

  /* Progressive only, like the element's raw caps. */
  sink = gst_element_get_static_pad (e, "sink");
  caps = gst_caps_from_string ("video/x-bayer,format=rggb,width=8,height=8,"
                               "framerate=30/1");
  fail_unless (gst_pad_query_accept_caps (sink, caps));
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-bayer,format=rggb,width=8,height=8,"
                               "framerate=30/1,interlace-mode=interleaved");
  fail_if (gst_pad_query_accept_caps (sink, caps));
  gst_caps_unref (caps);
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

/* A black level at or above the largest code of the negotiated depth is
 * refused with an error, not developed into nonsense. */
GST_START_TEST (test_bayer_black_too_high)
{
  GstHarness *h = texel_harness_new_with (texel_test_element_new (
      "texelconvert", "backend=" TEXEL_TEST_BACKEND " black-level-red=255"));
  GstBuffer *in = gst_buffer_new_allocate (NULL, 4 * 4, NULL);
  gchar *errors;

  gst_harness_set_caps_str (h,
                            "video/x-bayer,format=rggb,width=4,height=4,"
                            "framerate=30/1",
                            "video/x-raw,format=RGBA,width=4,height=4,"
                            "framerate=30/1");
  gst_buffer_memset (in, 0, 0, 16);
  fail_unless (gst_harness_push (h, in) != GST_FLOW_OK);
  errors = bus_messages_text (h->element, GST_MESSAGE_ERROR);
  fail_unless (strstr (errors, "black level") != NULL, "%s", errors);
  g_free (errors);
  texel_harness_teardown (h);
}

GST_END_TEST;

/* videotestsrc's own 8-bit Bayer at 1080p, every pattern, to RGBA and (the
 * first) NV12 scaled down, letterboxed and rotated. */
GST_START_TEST (test_bayer_videotestsrc)
{
  static const gchar *const lines[] = {
    "videotestsrc num-buffers=2 ! video/x-bayer,format=rggb,width=1920,"
    "height=1080 ! texelconvert backend=" TEXEL_TEST_BACKEND " ! "
    "video/x-raw,format=RGBA ! fakesink",
    "videotestsrc num-buffers=2 ! video/x-bayer,format=bggr,width=64,"
    "height=48 ! texelconvert backend=" TEXEL_TEST_BACKEND " ! "
    "video/x-raw,format=RGBA ! fakesink",
    "videotestsrc num-buffers=2 ! video/x-bayer,format=grbg,width=65,"
    "height=47 ! texelconvert backend=" TEXEL_TEST_BACKEND
    " demosaic=bilinear ! video/x-raw,format=BGRx ! fakesink",
    /* Small: rotated, scaled raw Bayer takes the CPU reference, which
     * valgrind (CI) makes slow. */
    "videotestsrc num-buffers=2 ! video/x-bayer,format=gbrg,width=160,"
    "height=120 ! texelconvert backend=" TEXEL_TEST_BACKEND
    " video-direction=90r method=bicubic ! video/x-raw,format=NV12,"
    "width=80,height=80 ! fakesink",
  };

  texel_run_launch_lines (lines, G_N_ELEMENTS (lines), 120 * GST_SECOND);
}

GST_END_TEST;

/* videotestsrc's red, green and blue frames come out as those colours:
 * the pattern names mean what GStreamer means by them. */
GST_START_TEST (test_bayer_videotestsrc_colours)
{
  static const gchar *const colours[] = { "red", "green", "blue" };
  guint p, k;

  for (p = 0; p < G_N_ELEMENTS (patterns); p++)
    for (k = 0; k < G_N_ELEMENTS (colours); k++)
      {
        gchar *desc = g_strdup_printf (
            "videotestsrc pattern=%s num-buffers=1 "
            "! video/x-bayer,format=%s,width=16,height=8 ! texelconvert "
            "backend=" TEXEL_TEST_BACKEND
            " ! capsfilter caps=video/x-raw,format=RGBA",
            colours[k], patterns[p]);
        GstHarness *h = gst_harness_new_parse (desc);
        GstBuffer *out;
        GstMapInfo map;
        guint i, c;

        gst_harness_play (h);
        out = gst_harness_pull (h);
        fail_unless (out != NULL);
        gst_buffer_map (out, &map, GST_MAP_READ);
        for (i = 0; i < map.size; i += 4)
          for (c = 0; c < 3; c++)
            fail_unless_equals_int (map.data[i + c], c == k ? 255 : 0);
        gst_buffer_unmap (out, &map);
        gst_buffer_unref (out);
        gst_harness_teardown (h);
        g_free (desc);
      }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Automatic white balance */

#define AWB_W 64
#define AWB_H 48
#define AWB_BLACK 256
#define AWB_LEVEL 1500
/* RGBA of AWB_W x AWB_H. */
#define AWB_OUT_CAPS                                                           \
  "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1,"                 \
  "pixel-aspect-ratio=1/1"

/* Lights: R and B against G. */
static const gdouble warm[3] = { 0.5, 1.0, 0.8 };
static const gdouble cold[3] = { 1.0, 1.0, 0.4 };

/* A grey card lit by an illuminant of channel ratios @ratio (R, G, B):
 * a 12-bit GRBG mosaic whose samples of colour c are AWB_BLACK +
 * ratio[c] * AWB_LEVEL give or take 8 codes of noise. @sum and @count
 * get each colour's codes (the test's own grey-world statistics). */
static GstBuffer *
awb_card_new (const gdouble ratio[3], GRand *rand, gint n, gdouble sum[3],
              gdouble count[3])
{
  static const gchar pattern[] = "GRBG";
  gint stride = AWB_W * 2, x, y;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize)stride * AWB_H, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (sum, 0, 3 * sizeof (gdouble));
  memset (count, 0, 3 * sizeof (gdouble));
  for (y = 0; y < AWB_H; y++)
    for (x = 0; x < AWB_W; x++)
      {
        gchar letter = pattern[(y % 2) * 2 + x % 2];
        gint c = letter == 'R' ? 0 : (letter == 'G' ? 1 : 2);
        guint code = (guint)(AWB_BLACK + ratio[c] * AWB_LEVEL
                             + g_rand_int_range (rand, -8, 9));

        map.data[y * stride + 2 * x] = (guint8)(code & 0xff);
        map.data[y * stride + 2 * x + 1] = (guint8)(code >> 8);
        sum[c] += code;
        count[c]++;
      }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* Grey world from the test's sums: mean G over mean R and over mean B of
 * the black-subtracted codes. */
static void
awb_want (const gdouble sum[3], const gdouble count[3], gdouble gains[3])
{
  gdouble mean[3];
  gint c;

  for (c = 0; c < 3; c++)
    mean[c] = sum[c] / count[c] - AWB_BLACK;
  gains[0] = mean[1] / mean[0];
  gains[1] = 1.0;
  gains[2] = mean[1] / mean[2];
}

/* Mean R, G and B of an RGBA frame of @n pixels. */
static void
rgba_means (GstBuffer *out, gint n, gdouble mean[3])
{
  GstMapInfo map;
  gint i, c;

  gst_buffer_map (out, &map, GST_MAP_READ);
  mean[0] = mean[1] = mean[2] = 0.0;
  for (i = 0; i < n; i++)
    for (c = 0; c < 3; c++)
      mean[c] += map.data[4 * i + c] / (gdouble)n;
  gst_buffer_unmap (out, &map);
}

/* Mean R, G and B of an RGBA frame of AWB_W x AWB_H. */
static void
awb_output_means (GstBuffer *out, gdouble mean[3])
{
  rgba_means (out, AWB_W * AWB_H, mean);
}

/* texelconvert on @backend with the AWB tests' development (12-bit GRBG
 * cards, black AWB_BLACK, linear output, the automatic white balance on)
 * and @extra settings, its caps set: output @out_caps. */
static GstHarness *
awb_harness_new_to (const gchar *backend, const gchar *extra,
                    const gchar *out_caps)
{
  gchar *props = g_strdup_printf (
      "%s raw-transfer=linear black-level-red=%d black-level-green=%d "
      "black-level-blue=%d auto-white-balance=true %s",
      backend, AWB_BLACK, AWB_BLACK, AWB_BLACK, extra);
  gchar *in_caps = bayer_caps ("grbg", 12, AWB_W, AWB_H);
  GstHarness *h
      = texel_harness_new_with (texel_test_element_new ("texelconvert", props));

  gst_harness_set_caps_str (h, in_caps, out_caps);
  g_free (in_caps);
  g_free (props);
  return h;
}

/* awb_harness_new_to, to RGBA of the mosaic's size. */
static GstHarness *
awb_harness_new (const gchar *backend, const gchar *extra)
{
  return awb_harness_new_to (backend, extra, AWB_OUT_CAPS);
}

/* The next texel-awb message on @bus, if any: the frame's PTS, the gains
 * (R, G, B) the next frame gets and this frame's red and blue gains. */
static gboolean
awb_message_pop (GstBus *bus, GstClockTime *pts, gdouble est[3],
                 gdouble frame[2])
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL)
    {
      const GstStructure *s = gst_message_get_structure (msg);
      gboolean found = gst_structure_has_name (s, "texel-awb");

      if (found)
        fail_unless (gst_structure_get (
                         s, "pts", G_TYPE_UINT64, pts, "red-gain",
                         G_TYPE_DOUBLE, &est[0], "green-gain", G_TYPE_DOUBLE,
                         &est[1], "blue-gain", G_TYPE_DOUBLE, &est[2],
                         "frame-red-gain", G_TYPE_DOUBLE, &frame[0],
                         "frame-blue-gain", G_TYPE_DOUBLE, &frame[1], NULL),
                     "texel-awb message fields");
      gst_message_unref (msg);
      if (found)
        return TRUE;
    }
  return FALSE;
}

/* The texel-awb message the last frame posted: its gains (R, G, B) and
 * this frame's red and blue gains; FALSE when none is waiting. */
static gboolean
awb_message (GstElement *e, GstClockTime *pts, gdouble est[3], gdouble frame[2])
{
  GstBus *bus = gst_element_get_bus (e);
  gboolean found = awb_message_pop (bus, pts, est, frame);
  GstClockTime again_pts;
  gdouble again_est[3], again_frame[2];

  fail_if (found && awb_message_pop (bus, &again_pts, again_est, again_frame),
           "one texel-awb message per frame");
  gst_object_unref (bus);
  return found;
}

static void
awb_gains_property (GstElement *e, gdouble gains[3])
{
  GValue v = G_VALUE_INIT;
  gint c;

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "awb-gains", &v);
  fail_unless_equals_int (gst_value_array_get_size (&v), 3);
  for (c = 0; c < 3; c++)
    gains[c] = g_value_get_double (gst_value_array_get_value (&v, c));
  g_value_unset (&v);
}

#define AWB_CLOSE(a, b, rel) (fabs ((a) - (b)) <= (rel)*fabs (b))

/* Pushes grey card @n under @ratio; checks the frame's message against
 * the test's grey world and the moving average @est (updated) of speed
 * @speed (@initial: the estimate is the frame's), and awb-gains. Returns
 * the output (unref it). */
static GstBuffer *
awb_push (GstHarness *h, const gdouble ratio[3], GRand *rand, gint n,
          gdouble speed, gboolean initial, gdouble est[3])
{
  gdouble sum[3], count[3], want[3], got[3], frame[2], prop[3];
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  GstBuffer *out
      = texel_push_pull (h, awb_card_new (ratio, rand, n, sum, count));
  gint c;

  awb_want (sum, count, want);
  fail_unless (awb_message (h->element, &pts, got, frame),
               "frame %d: no texel-awb message", n);
  fail_unless_equals_uint64 (pts, n * GST_SECOND / 30);
  fail_unless (AWB_CLOSE (frame[0], want[0], 1e-9)
                   && AWB_CLOSE (frame[1], want[2], 1e-9),
               "frame %d: frame gains %g %g, want %g %g", n, frame[0], frame[1],
               want[0], want[2]);
  for (c = 0; c < 3; c++)
    est[c] = initial ? want[c] : (1.0 - speed) * est[c] + speed * want[c];
  awb_gains_property (h->element, prop);
  for (c = 0; c < 3; c++)
    {
      fail_unless (AWB_CLOSE (got[c], est[c], 1e-9),
                   "frame %d: gain %d = %g, want %g", n, c, got[c], est[c]);
      fail_unless (AWB_CLOSE (prop[c], est[c], 1e-9),
                   "frame %d: awb-gains[%d] = %g, want %g", n, c, prop[c],
                   est[c]);
    }
  return out;
}

/* A grey card under a coloured light (R at half, B at 0.8 of G): the
 * first frame, developed with the manual gains (1), shows the light's
 * colour; each frame posts its grey-world gains (the test's own sums of
 * the codes) and their moving average, which the next frame gets: from
 * the second frame on the card is grey within 1 %, and the estimate
 * converges to the light's inverse ratios (2, 1, 1.25) within 1 %. Locked,
 * the gains stay and no message comes under another light; unlocked with
 * awb-speed=1, one frame gives that light's inverse. */
GST_START_TEST (test_bayer_awb)
{
  GRand *rand = g_rand_new_with_seed (18);
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    {
      GstHarness *h = awb_harness_new (backends[b], "awb-speed=0.5");
      gdouble est[3], mean[3], locked[3], prop[3];
      GstClockTime pts;
      GstBuffer *out;
      gint n, c;

      out = awb_push (h, warm, rand, 0, 0.5, TRUE, est);
      awb_output_means (out, mean);
      fail_unless (AWB_CLOSE (mean[0] / mean[1], 0.5, 0.02),
                   "first frame: R / G = %g, want the light's 0.5",
                   mean[0] / mean[1]);
      gst_buffer_unref (out);
      for (n = 1; n < 6; n++)
        {
          out = awb_push (h, warm, rand, n, 0.5, FALSE, est);
          awb_output_means (out, mean);
          fail_unless (AWB_CLOSE (mean[0], mean[1], 0.01)
                           && AWB_CLOSE (mean[2], mean[1], 0.01),
                       "%s frame %d: not grey (%g %g %g)", backends[b], n,
                       mean[0], mean[1], mean[2]);
          gst_buffer_unref (out);
        }
      fail_unless (AWB_CLOSE (est[0], 2.0, 0.01) && est[1] == 1.0
                       && AWB_CLOSE (est[2], 1.25, 0.01),
                   "estimate %g %g %g, want 2 1 1.25", est[0], est[1], est[2]);

      g_object_set (h->element, "awb-lock", TRUE, NULL);
      awb_gains_property (h->element, locked);
      for (n = 6; n < 8; n++)
        {
          gdouble sum[3], count[3], got[3], frame[2];

          gst_buffer_unref (
              texel_push_pull (h, awb_card_new (cold, rand, n, sum, count)));
          fail_if (awb_message (h->element, &pts, got, frame),
                   "a message while locked");
          awb_gains_property (h->element, prop);
          for (c = 0; c < 3; c++)
            fail_unless (prop[c] == locked[c], "locked gains moved");
        }

      g_object_set (h->element, "awb-lock", FALSE, "awb-speed", 1.0, NULL);
      gst_buffer_unref (awb_push (h, cold, rand, 8, 1.0, FALSE, est));
      fail_unless (AWB_CLOSE (est[0], 1.0, 0.01)
                       && AWB_CLOSE (est[2], 2.5, 0.01),
                   "estimate %g %g %g, want 1 1 2.5", est[0], est[1], est[2]);
      out = awb_push (h, cold, rand, 9, 1.0, FALSE, est);
      awb_output_means (out, mean);
      fail_unless (AWB_CLOSE (mean[0], mean[1], 0.01)
                       && AWB_CLOSE (mean[2], mean[1], 0.01),
                   "%s after the change: not grey (%g %g %g)", backends[b],
                   mean[0], mean[1], mean[2]);
      gst_buffer_unref (out);
      texel_harness_teardown (h);
    }
  g_rand_free (rand);
}

GST_END_TEST;

/* With frames in flight the statistics of a frame come back once it has
 * finished (on the GPU path, gathered by its kernel), a few frames later:
 * every frame still posts its message, in order, with its own gains and
 * the moving average of all of them; the frames still in flight at the
 * end post theirs when EOS drains them. */
GST_START_TEST (test_bayer_awb_in_flight)
{
  GRand *rand = g_rand_new_with_seed (23);
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    {
      GstHarness *h
          = awb_harness_new (backends[b], "awb-speed=0.5 frames-in-flight=2");
      GstBus *bus = gst_element_get_bus (h->element);
      gdouble want[10][3], est[3], gain[3], frame[2];
      GstClockTime pts;
      GstBuffer *out;
      gint n, c, got = 0, pulled = 0;

      for (n = 0; n < 10; n++)
        {
          gdouble sum[3], count[3];

          fail_unless_equals_int (
              gst_harness_push (
                  h, awb_card_new (n % 3 ? warm : cold, rand, n, sum, count)),
              GST_FLOW_OK);
          awb_want (sum, count, want[n]);
        }
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
      while ((out = gst_harness_try_pull (h)) != NULL)
        {
          pulled++;
          gst_buffer_unref (out);
        }
      fail_unless_equals_int (pulled, 10);
      while (awb_message_pop (bus, &pts, gain, frame))
        {
          fail_unless (got < 10, "more messages than frames");
          fail_unless_equals_uint64 (pts, got * GST_SECOND / 30);
          fail_unless (AWB_CLOSE (frame[0], want[got][0], 1e-9)
                           && AWB_CLOSE (frame[1], want[got][2], 1e-9),
                       "%s frame %d: frame gains %g %g, want %g %g",
                       backends[b], got, frame[0], frame[1], want[got][0],
                       want[got][2]);
          for (c = 0; c < 3; c++)
            {
              est[c]
                  = got == 0 ? want[0][c] : 0.5 * est[c] + 0.5 * want[got][c];
              fail_unless (AWB_CLOSE (gain[c], est[c], 1e-9),
                           "%s frame %d: gain %d = %g, want %g", backends[b],
                           got, c, gain[c], est[c]);
            }
          got++;
        }
      fail_unless_equals_int (got, 10);
      gst_object_unref (bus);
      texel_harness_teardown (h);
    }
  g_rand_free (rand);
}

GST_END_TEST;

/* The statistics of a frame split into bands (the CPU path's threads,
 * the GPU's bands) under a vertical flip, which maps the bands' output
 * rows backwards onto the mosaic: every sample still counted once, the
 * frame gains the test's own. */
GST_START_TEST (test_bayer_awb_bands)
{
  GRand *rand = g_rand_new_with_seed (29);
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    {
      GstHarness *h = awb_harness_new (
          backends[b], "awb-speed=1 video-direction=vert n-threads=3");
      gdouble est[3];
      gint n;

      for (n = 0; n < 3; n++)
        gst_buffer_unref (
            awb_push (h, n % 2 ? cold : warm, rand, n, 1.0, n == 0, est));
      texel_harness_teardown (h);
    }
  g_rand_free (rand);
}

GST_END_TEST;

#ifndef TEXEL_TEST_GPU
/* Counts the INFO lines of texelconvert-bayer saying which CPU path a
 * plan takes: @user_data, two counters (fast, reference). */
static void
count_cpu_path (GstDebugCategory *category, GstDebugLevel level,
                const gchar *file, const gchar *function, gint line,
                GObject *object, GstDebugMessage *message, gpointer user_data)
{
  gint *count = user_data;
  const gchar *text = gst_debug_message_get (message);

  if (strcmp (gst_debug_category_get_name (category), "texelconvert-bayer") != 0
      || text == NULL || !g_str_has_prefix (text, "CPU path: "))
    return;
  g_atomic_int_inc (&count[g_str_has_prefix (text, "CPU path: fast") ? 0 : 1]);
}

/* A Bayer input scaled (and letterboxed: the 4:3 mosaic into a 5:3
 * frame) takes the CPU's fast path, not the reference, and the automatic
 * white balance still measures every frame of it: the frame gains are the
 * test's own, and the next frame's picture is grey. */
GST_START_TEST (test_bayer_scaled_fast)
{
  GRand *rand = g_rand_new_with_seed (31);
  gint count[2] = { 0, 0 };
  GstHarness *h;
  GstBuffer *out;
  gdouble est[3], mean[3];

  gst_debug_set_threshold_for_name ("texelconvert-bayer", GST_LEVEL_INFO);
  gst_debug_add_log_function (count_cpu_path, count, NULL);
  h = awb_harness_new_to ("backend=cpu", "awb-speed=1",
                          "video/x-raw,format=RGBA,width=50,height=30,"
                          "framerate=30/1,pixel-aspect-ratio=1/1");
  gst_buffer_unref (awb_push (h, warm, rand, 0, 1.0, TRUE, est));
  fail_unless (count[0] > 0 && count[1] == 0,
               "scaled Bayer: %d plans on the fast path, %d on the reference",
               count[0], count[1]);
  out = awb_push (h, warm, rand, 1, 1.0, FALSE, est);
  /* The picture's middle row, inside the pillarbox's bars. */
  {
    GstBuffer *row = gst_buffer_copy_region (out, GST_BUFFER_COPY_MEMORY,
                                             (15 * 50 + 15) * 4, 20 * 4);

    rgba_means (row, 20, mean);
    gst_buffer_unref (row);
  }
  fail_unless (AWB_CLOSE (mean[0], mean[1], 0.01)
                   && AWB_CLOSE (mean[2], mean[1], 0.01),
               "scaled: not grey (%g %g %g)", mean[0], mean[1], mean[2]);
  gst_buffer_unref (out);
  texel_harness_teardown (h);
  gst_debug_remove_log_function (count_cpu_path);
  g_rand_free (rand);
}

GST_END_TEST;
#endif

/* Off by default (the output stays as the manual gains make it): no
 * message, and awb-gains reads the manual gains until a frame measures. */
GST_START_TEST (test_bayer_awb_off)
{
  GRand *rand = g_rand_new_with_seed (5);
  gchar *in_caps = bayer_caps ("grbg", 12, AWB_W, AWB_H);
  GstHarness *h = texel_harness_new_with (texel_test_element_new (
      "texelconvert", "backend=" TEXEL_TEST_BACKEND " raw-transfer=linear "
                      "black-level-red=256 black-level-green=256 "
                      "black-level-blue=256"));
  gdouble sum[3], count[3], got[3], frame[2], mean[3], speed;
  GstClockTime pts;
  gboolean on, lock;

  g_object_get (h->element, "auto-white-balance", &on, "awb-lock", &lock,
                "awb-speed", &speed, NULL);
  fail_if (on);
  fail_if (lock);
  fail_unless (speed == 0.1);
  gst_harness_set_caps_str (h, in_caps, AWB_OUT_CAPS);
  gst_buffer_unref (
      texel_push_pull (h, awb_card_new (warm, rand, 0, sum, count)));
  fail_if (awb_message (h->element, &pts, got, frame));
  awb_gains_property (h->element, got);
  fail_unless (got[0] == 1.0 && got[1] == 1.0 && got[2] == 1.0);
  /* Manual gains apply: the light's colour stays. */
  g_object_set (h->element, "wb-gain-blue", 2.0, NULL);
  {
    GstBuffer *out
        = texel_push_pull (h, awb_card_new (warm, rand, 1, sum, count));

    awb_output_means (out, mean);
    fail_unless (AWB_CLOSE (mean[0] / mean[1], 0.5, 0.02)
                     && AWB_CLOSE (mean[2] / mean[1], 1.6, 0.02),
                 "manual gains: %g %g %g", mean[0], mean[1], mean[2]);
    gst_buffer_unref (out);
  }
  texel_harness_teardown (h);
  g_free (in_caps);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
texelconvert_bayer_suite (void)
{
  static const TexelTest tests[] = {
    TEXEL_TEST (test_bayer_properties),
    TEXEL_TEST (test_bayer_change_while_playing),
    TEXEL_TEST (test_bayer_every_format),
    TEXEL_TEST (test_bayer_development),
    TEXEL_TEST (test_bayer_black_too_high),
    TEXEL_TEST (test_bayer_videotestsrc_colours),
    TEXEL_TEST (test_bayer_videotestsrc),
    TEXEL_TEST (test_bayer_awb),
    TEXEL_TEST (test_bayer_awb_in_flight),
    TEXEL_TEST (test_bayer_awb_bands),
    TEXEL_TEST (test_bayer_awb_off),
#ifndef TEXEL_TEST_GPU
    TEXEL_TEST (test_bayer_scaled_fast),
#endif
  };

  return texel_suite_new ("texelconvert-bayer", "bayer", 300, tests,
                          G_N_ELEMENTS (tests));
}

int
main (int argc, char **argv)
{
#ifdef TEXEL_TEST_GPU
  if (texel_probe_gpus () <= 0)
    {
      g_print ("SKIP: texelconvert-bayer-gpu needs a CUDA GPU\n");
      return 77;
    }
#endif
  texel_check_init (&argc, &argv);
  return gst_check_run_suite (texelconvert_bayer_suite (), "texelconvert-bayer",
                              __FILE__);
}
