/* gst-texel unit tests: subsampled chroma of the CPU reference against the
 * exact definitions of texel-exact.h (double precision, written from the
 * standards and the stated filters, not from the reference):
 *
 *  - encoding R'G'B' to every subsampled output (NV12, NV21, I420, YV12,
 *    YUY2, UYVY, P010): each chroma sample is the mean of the converted
 *    picture over its footprint centred on the caps' chroma site ([1, 1] /
 *    2 centred, [1, 2, 1] / 4 cosited per axis), at 1:1, scaled and
 *    rotated, on red/green checkerboards, colour edges and random frames;
 *  - decoding every subsampled input to RGBA: chroma reconstructed at its
 *    site by the method, 1:1 included;
 *  - Y'CbCr to Y'CbCr: chroma on the same grid is copied, finer chroma
 *    (4:2:2 to 4:2:0) averaged over the footprint, and the luma a matrix
 *    change mixes in averaged over it.
 * The CPU computes in double: every code is the exact value rounded, so
 * the bound is half a code (plus 1e-6 for the order of the sums).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "texel-exact.h"
#include "texel-test-util.h"

#define CPU_BOUND (0.5 + 1e-6)

static const TexelFormat subsampled_formats[] = {
  TEXEL_FORMAT_NV12,      TEXEL_FORMAT_NV21, TEXEL_FORMAT_I420,
  TEXEL_FORMAT_YV12,      TEXEL_FORMAT_YUY2, TEXEL_FORMAT_UYVY,
  TEXEL_FORMAT_P010_10LE,
};

/* Sitings: jpeg (centred), mpeg2 (cosited horizontally), cosited. */
static const int sitings[][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 } };

static void
fill_rgba (TestImage *t, ExactPattern pattern, GRand *rand)
{
  unsigned seed = rand != NULL ? g_rand_int (rand) : 0;
  int x, y, c;

  for (y = 0; y < t->img.height; y++)
    {
      for (x = 0; x < t->img.width; x++)
        {
          unsigned rgb[3];

          exact_pattern_rgb (pattern, x, y, t->img.width, t->img.height, seed,
                             rgb);
          for (c = 0; c < 3; c++)
            test_image_set (t, c, x, y, rgb[c]);
          test_image_set (t, 3, x, y, 255);
        }
    }
}

/* Components @c0 .. @c0 + n - 1 of @t, normalised by @scale, as a picture. */
static double *
picture_of (const TestImage *t, int c0, int n, double scale, ExactPicture *p)
{
  int w = test_comp_width (t, c0), h = test_comp_height (t, c0);
  double *px = g_new (double, (size_t)w *h *n);
  int x, y, c;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      for (c = 0; c < n; c++)
        px[((size_t)y * w + x) * n + c]
            = test_image_get (t, c0 + c, x, y) / scale;
  p->w = w;
  p->h = h;
  p->channels = n;
  p->px = px;
  return px;
}

static void
color_init (TexelColorimetry *color, ExactYcc *e, int bt601, int full,
            const int siting[2], int bits)
{
  color->matrix = bt601 ? TEXEL_MATRIX_BT601 : TEXEL_MATRIX_BT709;
  color->full_range = full;
  color->chroma_h_cosited = siting[0];
  color->chroma_v_cosited = siting[1];
  e->kr = bt601 ? 0.299 : 0.2126;
  e->kb = bt601 ? 0.114 : 0.0722;
  e->full_range = full;
  e->bits = bits;
}

/* Every Y'CbCr sample of @out against the exact encoding of @rgb. */
static void
check_encoded (const TestImage *out, const ExactPicture *rgb, int method,
               const ExactMap map, const ExactYcc *e, const int siting[2],
               const char *what)
{
  double max = exact_max_code (e->bits);
  int c, i, j;

  for (c = 0; c < 3; c++)
    {
      const TexelComponent *comp = &out->desc->comp[c];

      for (j = 0; j < test_comp_height (out, c); j++)
        {
          for (i = 0; i < test_comp_width (out, c); i++)
            {
              double ycc[3], want;
              unsigned got = test_image_get (out, c, i, j);

              exact_encode_sample (rgb, method, map, e, comp->x_shift,
                                   comp->y_shift, siting[0], siting[1], i, j,
                                   ycc);
              want = fmin (fmax (ycc[c], 0.0), max);
              if (fabs (got - want) > CPU_BOUND)
                g_error ("%s: component %d sample (%d,%d) is %u, exact %.3f",
                         what, c, i, j, got, want);
            }
        }
    }
}

/* RGBA @in (the picture @rgb) to @format at @ow x @oh with @method and
 * @direction (whose map is @map), BT.601 limited or BT.709 full, siting
 * @st: every sample checked against the exact encoding. */
static void
check_encode_case (const TestImage *in, const ExactPicture *rgb, ExactPattern p,
                   TexelFormat format, int ow, int oh, TexelMethod method,
                   TexelDirection direction, const ExactMap map, int bt709_full,
                   int st)
{
  const TexelFormatDesc *desc = texel_format_desc (format);
  TexelConvertConfig config;
  ExactYcc e, unused;
  TestImage *out;
  gchar *what;

  test_config_init (&config, in->img.width, in->img.height, ow, oh);
  config.method = method;
  config.direction = direction;
  color_init (&config.out_color, &e, !bt709_full, bt709_full, sitings[st],
              desc->bits);
  color_init (&config.in_color, &unused, 0, 1, sitings[0], 8);
  out = test_convert_config (&config, in, format, ow, oh);
  what = g_strdup_printf (
      "RGBA %dx%d %s -> %s %dx%d direction %d siting "
      "%d,%d %s method %d",
      in->img.width, in->img.height, exact_pattern_name (p), desc->name, ow, oh,
      direction, sitings[st][0], sitings[st][1],
      bt709_full ? "BT.709 full" : "BT.601 limited", method);
  check_encoded (out, rgb, method, map, &e, sitings[st], what);
  g_free (what);
  test_image_free (out);
}

/* RGBA at 1:1 to every subsampled format, each siting, pattern, matrix
 * and range, nearest and bilinear (equal at 1:1), odd sizes included. */
static void
test_encode_one_to_one (void)
{
  static const int sizes[][2] = { { 16, 8 }, { 7, 5 }, { 2, 2 } };
  GRand *rand = g_rand_new_with_seed (15);
  ExactMap identity;
  int f, s, p, st, cm, m;

  for (s = 0; s < (int)G_N_ELEMENTS (sizes); s++)
    {
      int w = sizes[s][0], h = sizes[s][1];
      TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, w, h, 1);

      exact_map_scale (identity, w, h, w, h);
      for (p = 0; p < EXACT_N_PATTERNS; p++)
        {
          ExactPicture rgb;
          double *px;

          fill_rgba (in, p, rand);
          px = picture_of (in, 0, 3, 255.0, &rgb);
          for (f = 0; f < (int)G_N_ELEMENTS (subsampled_formats); f++)
            for (st = 0; st < (int)G_N_ELEMENTS (sitings); st++)
              for (cm = 0; cm < 2; cm++)
                for (m = TEXEL_METHOD_NEAREST; m <= TEXEL_METHOD_BILINEAR; m++)
                  check_encode_case (in, &rgb, p, subsampled_formats[f], w, h,
                                     m, TEXEL_DIRECTION_IDENTITY, identity, cm,
                                     st);
          g_free (px);
        }
      test_image_free (in);
    }
  g_rand_free (rand);
}

/* The case: a red/green checkerboard gives the mean of red and
 * green, as videoconvert does (GStreamer 1.22: U, V = 72, 137 in BT.601
 * limited range, for jpeg and mpeg2 siting alike), not red. */
static void
test_encode_checkerboard_mean (void)
{
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 8, 4, 1);
  int st, i, j;

  fill_rgba (in, EXACT_CHECKER, NULL);
  for (st = 0; st < 2; st++)
    {
      TexelConvertConfig config;
      ExactYcc e;
      TestImage *out;

      test_config_init (&config, 8, 4, 8, 4);
      color_init (&config.out_color, &e, 1, 0, sitings[st], 8);
      out = test_convert_config (&config, in, TEXEL_FORMAT_NV12, 8, 4);
      for (j = 0; j < 2; j++)
        {
          for (i = 0; i < 4; i++)
            {
              g_assert_cmpuint (test_image_get (out, 1, i, j), ==, 72);
              g_assert_cmpuint (test_image_get (out, 2, i, j), ==, 137);
            }
        }
      test_image_free (out);
    }
  test_image_free (in);
}

/* RGBA scaled down, oddly and up, bilinear and bicubic: the footprint is
 * taken on the output's full-resolution grid, each of its pixels the
 * input reconstructed by the method. */
static void
test_encode_scaled (void)
{
  static const int out_sizes[][2]
      = { { 10, 6 }, { 7, 5 }, { 40, 24 }, { 13, 9 } };
  static const TexelFormat formats[] = {
    TEXEL_FORMAT_NV12,
    TEXEL_FORMAT_YUY2,
    TEXEL_FORMAT_P010_10LE,
  };
  GRand *rand = g_rand_new_with_seed (16);
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 20, 12, 1);
  int s, p, f, st, m;

  for (p = 0; p < EXACT_N_PATTERNS; p++)
    {
      ExactPicture rgb;
      double *px;

      fill_rgba (in, p, rand);
      px = picture_of (in, 0, 3, 255.0, &rgb);
      for (s = 0; s < (int)G_N_ELEMENTS (out_sizes); s++)
        {
          int ow = out_sizes[s][0], oh = out_sizes[s][1];
          ExactMap map;

          exact_map_scale (map, 20, 12, ow, oh);
          for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
            for (st = 0; st < (int)G_N_ELEMENTS (sitings); st++)
              for (m = TEXEL_METHOD_BILINEAR; m <= TEXEL_METHOD_BICUBIC; m++)
                check_encode_case (in, &rgb, p, formats[f], ow, oh, m,
                                   TEXEL_DIRECTION_IDENTITY, map, 0, st);
        }
      g_free (px);
    }
  test_image_free (in);
  g_rand_free (rand);
}

/* Turned by 90 degrees clockwise at 1:1: the footprint lies along the
 * output's axes, i.e. across the input's (4:2:2's horizontal pairs come
 * from input columns). */
static void
test_encode_rotated (void)
{
  static const TexelFormat formats[] = {
    TEXEL_FORMAT_NV12,
    TEXEL_FORMAT_YUY2,
    TEXEL_FORMAT_P010_10LE,
  };
  GRand *rand = g_rand_new_with_seed (17);
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 9, 6, 1);
  ExactPicture rgb;
  /* Output (x, y) -> input (y, 6 - x). */
  ExactMap map = { { 0.0, 1.0, 0.0 }, { -1.0, 0.0, 6.0 } };
  double *px;
  int f, st;

  fill_rgba (in, EXACT_RANDOM, rand);
  px = picture_of (in, 0, 3, 255.0, &rgb);
  for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
    for (st = 0; st < (int)G_N_ELEMENTS (sitings); st++)
      check_encode_case (in, &rgb, EXACT_RANDOM, formats[f], 6, 9,
                         TEXEL_METHOD_NEAREST, TEXEL_DIRECTION_90R, map, 0, st);
  g_free (px);
  test_image_free (in);
  g_rand_free (rand);
}

/* Every subsampled input to RGBA, each siting, 1:1 and scaled: luma and
 * chroma reconstructed by the method at the output pixel's position,
 * chroma on its own grid from its sites. Nearest at 1:1 only (its pick at
 * scaled positions is defined in float: texel-sample-map.h). */
static void
test_decode (void)
{
  static const int out_sizes[][2] = { { 12, 8 }, { 24, 16 }, { 7, 5 } };
  GRand *rand = g_rand_new_with_seed (18);
  int f, s, st, m;

  for (f = 0; f < (int)G_N_ELEMENTS (subsampled_formats); f++)
    {
      TestImage *in = test_image_new (subsampled_formats[f], 12, 8, 1);
      const TexelFormatDesc *desc = in->desc;
      ExactPicture luma, chroma;
      double *ypx, *cpx;

      test_image_fill_random (in, rand);
      ypx = picture_of (in, 0, 1, 1.0, &luma);
      cpx = picture_of (in, 1, 2, 1.0, &chroma);
      for (s = 0; s < (int)G_N_ELEMENTS (out_sizes); s++)
        {
          int ow = out_sizes[s][0], oh = out_sizes[s][1];
          ExactMap map;

          exact_map_scale (map, 12, 8, ow, oh);
          for (st = 0; st < (int)G_N_ELEMENTS (sitings); st++)
            {
              for (m = s == 0 ? 0 : 1; m <= TEXEL_METHOD_BICUBIC; m++)
                {
                  TexelConvertConfig config;
                  ExactYcc e, unused;
                  TestImage *out;
                  int x, y, c;

                  test_config_init (&config, 12, 8, ow, oh);
                  config.method = m;
                  color_init (&config.in_color, &e, 1, 0, sitings[st],
                              desc->bits);
                  color_init (&config.out_color, &unused, 0, 1, sitings[0], 8);
                  out = test_convert_config (&config, in, TEXEL_FORMAT_RGBA, ow,
                                             oh);
                  for (y = 0; y < oh; y++)
                    {
                      for (x = 0; x < ow; x++)
                        {
                          double sx = map[0][0] * (x + 0.5),
                                 sy = map[1][1] * (y + 0.5);
                          double ycc[3], rgb[3];

                          exact_reconstruct (&luma, m, sx, sy, ycc);
                          exact_chroma_at (&chroma, m, desc->comp[1].x_shift,
                                           desc->comp[1].y_shift,
                                           sitings[st][0], sitings[st][1], sx,
                                           sy, ycc + 1);
                          exact_decode (&e, ycc, rgb);
                          for (c = 0; c < 3; c++)
                            {
                              double want
                                  = 255.0 * fmin (fmax (rgb[c], 0.0), 1.0);
                              unsigned got = test_image_get (out, c, x, y);

                              if (fabs (got - want) > CPU_BOUND)
                                g_error (
                                    "%s 12x8 -> RGBA %dx%d siting %d,%d method "
                                    "%d: "
                                    "component %d at (%d,%d) is %u, exact %.3f",
                                    desc->name, ow, oh, sitings[st][0],
                                    sitings[st][1], m, c, x, y, got, want);
                            }
                        }
                    }
                  test_image_free (out);
                }
            }
        }
      g_free (ypx);
      g_free (cpx);
      test_image_free (in);
    }
  g_rand_free (rand);
}

/* Y'CbCr to Y'CbCr at 1:1, bilinear: output chroma = encode_out (decode_in
 * (mean luma over the footprint, input chroma at the site)), the input
 * chroma averaged over the footprint only along an axis where it is finer
 * than the output's. Same matrix and grid: chroma copied exactly. */
static void
check_yuv_to_yuv (TexelFormat in_format, TexelFormat out_format, int bt601_in,
                  int bt601_out, int st, GRand *rand)
{
  TestImage *in = test_image_new (in_format, 10, 6, 1);
  const TexelComponent *ic = &in->desc->comp[1];
  const TexelFormatDesc *od = texel_format_desc (out_format);
  const TexelComponent *oc = &od->comp[1];
  TexelConvertConfig config;
  ExactYcc ein, eout;
  TestImage *out;
  int c, i, j;

  test_image_fill_random (in, rand);
  test_config_init (&config, 10, 6, 10, 6);
  config.method = TEXEL_METHOD_BILINEAR;
  color_init (&config.in_color, &ein, bt601_in, 0, sitings[st], in->desc->bits);
  color_init (&config.out_color, &eout, bt601_out, 0, sitings[st], od->bits);
  out = test_convert_config (&config, in, out_format, 10, 6);
  for (j = 0; j < test_comp_height (out, 1); j++)
    {
      for (i = 0; i < test_comp_width (out, 1); i++)
        {
          double px[3], wx[3], py[3], wy[3], ycc[3] = { 0, 0, 0 }, rgb[3], o[3];
          int nx = exact_footprint (oc->x_shift, sitings[st][0], i, px, wx);
          int ny = exact_footprint (oc->y_shift, sitings[st][1], j, py, wy);
          int a, b;

          for (b = 0; b < ny; b++)
            {
              for (a = 0; a < nx; a++)
                {
                  /* Input chroma: at the site along an axis where it is as
                   * coarse as the output's, over the footprint where finer. */
                  int ci = oc->x_shift > ic->x_shift
                               ? (int)floor (px[a]) >> ic->x_shift
                               : i;
                  int cj = oc->y_shift > ic->y_shift
                               ? (int)floor (py[b]) >> ic->y_shift
                               : j;

                  ycc[0] += wx[a] * wy[b]
                            * test_image_get (
                                in, 0, exact_clamp ((int)floor (px[a]), 10),
                                exact_clamp ((int)floor (py[b]), 6));
                  for (c = 1; c < 3; c++)
                    ycc[c]
                        += wx[a] * wy[b]
                           * test_image_get (
                               in, c, exact_clamp (ci, test_comp_width (in, c)),
                               exact_clamp (cj, test_comp_height (in, c)));
                }
            }
          exact_decode (&ein, ycc, rgb);
          exact_encode (&eout, rgb, o);
          for (c = 1; c < 3; c++)
            {
              double want = fmin (fmax (o[c], 0.0), exact_max_code (od->bits));
              unsigned got = test_image_get (out, c, i, j);

              if (fabs (got - want) > CPU_BOUND)
                g_error (
                    "%s -> %s BT.%s -> BT.%s: component %d at (%d,%d) is %u, "
                    "exact %.3f",
                    in->desc->name, od->name, bt601_in ? "601" : "709",
                    bt601_out ? "601" : "709", c, i, j, got, want);
            }
        }
    }
  test_image_free (out);
  test_image_free (in);
}

static void
test_yuv_to_yuv (void)
{
  GRand *rand = g_rand_new_with_seed (19);

  /* Same grid: copied (a change of matrix mixes no luma into chroma:
   * both luma rows sum to 1). */
  check_yuv_to_yuv (TEXEL_FORMAT_NV12, TEXEL_FORMAT_I420, 1, 1, 1, rand);
  check_yuv_to_yuv (TEXEL_FORMAT_NV12, TEXEL_FORMAT_YV12, 1, 0, 0, rand);
  check_yuv_to_yuv (TEXEL_FORMAT_NV21, TEXEL_FORMAT_NV12, 0, 0, 2, rand);
  check_yuv_to_yuv (TEXEL_FORMAT_P010_10LE, TEXEL_FORMAT_NV12, 0, 0, 1, rand);
  check_yuv_to_yuv (TEXEL_FORMAT_NV12, TEXEL_FORMAT_P010_10LE, 0, 1, 1, rand);
  /* 4:2:2 to 4:2:0: rows averaged over the footprint ([1, 1] / 2 centred,
   * [1, 2, 1] / 4 cosited), columns copied. */
  check_yuv_to_yuv (TEXEL_FORMAT_YUY2, TEXEL_FORMAT_NV12, 1, 1, 1, rand);
  check_yuv_to_yuv (TEXEL_FORMAT_YUY2, TEXEL_FORMAT_NV12, 1, 1, 2, rand);
  check_yuv_to_yuv (TEXEL_FORMAT_UYVY, TEXEL_FORMAT_P010_10LE, 0, 0, 2, rand);
  g_rand_free (rand);
}

static const TestCase tests[] = {
  { "/texel/chroma/encode-one-to-one", test_encode_one_to_one },
  { "/texel/chroma/encode-checkerboard-mean", test_encode_checkerboard_mean },
  { "/texel/chroma/encode-scaled", test_encode_scaled },
  { "/texel/chroma/encode-rotated", test_encode_rotated },
  { "/texel/chroma/decode", test_decode },
  { "/texel/chroma/yuv-to-yuv", test_yuv_to_yuv },
};

TEST_MAIN (tests)
