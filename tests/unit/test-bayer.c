/* gst-texel unit tests: raw Bayer development (texel-bayer.h) against
 * the definitions of tests/common/bayer-reference.h (formulas per pixel
 * class, mirroring by a period, colours read from the pattern's name,
 * black level, gains, matrix, transfer curves from their standards), then
 * through texelconvert's CPU path (crops, sample positions).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "texel-test-util.h"
#include "texel-adjust.h"
#include "bayer-reference.h"

static const char *pattern_names[] = { NULL, "RGGB", "BGGR", "GRBG", "GBRG" };

#define N_PATTERNS 4

/* A mosaic and how to read it, the way the test understands it. */
typedef struct
{
  TestImage *t;
  TexelBayerConfig cfg;
} Mosaic;

static unsigned
word_of (const Mosaic *m, unsigned code)
{
  return m->cfg.msb ? code << (16 - m->cfg.bits) : code;
}

static void
mosaic_set (Mosaic *m, int x, int y, unsigned code)
{
  uint8_t *row = m->t->img.data[0] + (size_t)y * m->t->img.stride[0];

  if (m->cfg.bits == 8)
    {
      row[x] = (uint8_t)code;
    }
  else
    {
      unsigned w = word_of (m, code);

      row[2 * x] = (uint8_t)(w & 0xff);
      row[2 * x + 1] = (uint8_t)(w >> 8);
    }
}

/* The library's configuration of the reference's neutral development
 * (bayer_ref_init). */
static void
config_default (TexelBayerConfig *cfg, TexelBayerPattern pattern,
                TexelDemosaic demosaic, int bits, int msb)
{
  BayerRef neutral;

  bayer_ref_init (&neutral, pattern_names[pattern], bits, msb);
  *cfg = (TexelBayerConfig){ .pattern = pattern,
                             .demosaic = demosaic,
                             .bits = bits,
                             .msb = msb,
                             .transfer = TEXEL_TRANSFER_LINEAR };
  memcpy (cfg->black, neutral.black, sizeof (cfg->black));
  memcpy (cfg->gain, neutral.gain, sizeof (cfg->gain));
  memcpy (cfg->ccm, neutral.ccm, sizeof (cfg->ccm));
}

static Mosaic *
mosaic_new (const TexelBayerConfig *cfg, int width, int height)
{
  Mosaic *m = g_new0 (Mosaic, 1);

  m->cfg = *cfg;
  /* Rows packed tightly: valgrind sees any read past the frame. */
  m->t = test_image_new (cfg->bits == 8 ? TEXEL_FORMAT_GRAY8
                                        : TEXEL_FORMAT_GRAY16_LE,
                         width, height, 1);
  return m;
}

static void
mosaic_free (Mosaic *m)
{
  test_image_free (m->t);
  g_free (m);
}

/* The reference's view of @m (bayer-reference.h). */
static BayerRef
ref_of (const Mosaic *m)
{
  BayerRef r;

  bayer_ref_init (&r, pattern_names[m->cfg.pattern], m->cfg.bits, m->cfg.msb);
  r.data = m->t->img.data[0];
  r.stride = m->t->img.stride[0];
  r.width = m->t->img.width;
  r.height = m->t->img.height;
  r.bilinear = m->cfg.demosaic == TEXEL_DEMOSAIC_BILINEAR;
  memcpy (r.black, m->cfg.black, sizeof (r.black));
  memcpy (r.gain, m->cfg.gain, sizeof (r.gain));
  memcpy (r.ccm, m->cfg.ccm, sizeof (r.ccm));
  r.transfer = m->cfg.transfer == TEXEL_TRANSFER_SRGB    ? BAYER_REF_SRGB
               : m->cfg.transfer == TEXEL_TRANSFER_BT709 ? BAYER_REF_BT709
                                                         : BAYER_REF_LINEAR;
  return r;
}

static int
colour_at (const Mosaic *m, int x, int y)
{
  BayerRef r = ref_of (m);

  return bayer_ref_colour (&r, x, y);
}

static void
demosaic_ref (const Mosaic *m, int x, int y, double rgb[3])
{
  BayerRef r = ref_of (m);

  bayer_ref_demosaic (&r, x, y, rgb);
}

static void
develop_ref (const Mosaic *m, int x, int y, double out[3])
{
  BayerRef r = ref_of (m);

  bayer_ref_develop (&r, x, y, out);
}

static void
plan_for (const Mosaic *m, TexelBayerPlan *bp)
{
  TexelFormatDesc desc = *m->t->desc;
  const char *error = NULL;

  g_assert_cmpint (texel_bayer_plan_init (bp, &desc, &m->cfg, &error), ==, 0);
  g_assert_null (error);
}

/* Linear camera RGB of every pixel of @m by the library, row by row (free
 * it). */
static double *
demosaic_all (const Mosaic *m)
{
  TexelBayerPlan bp;
  int width = m->t->img.width, height = m->t->img.height, x, y;
  double *rgb = g_new (double, 3 * (size_t)width * height);

  plan_for (m, &bp);
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      texel_bayer_demosaic (&bp, &m->t->img, x, y,
                            rgb + 3 * ((size_t)y * width + x));
  return rgb;
}

static void
fill_random (Mosaic *m, GRand *rand)
{
  int x, y;

  for (y = 0; y < m->t->img.height; y++)
    for (x = 0; x < m->t->img.width; x++)
      mosaic_set (m, x, y,
                  (unsigned)g_rand_int_range (rand, 0, 1 << m->cfg.bits));
}

/* Every pixel of @m against the reference, demosaiced and developed. */
static void
check_all_pixels (const Mosaic *m, double tolerance)
{
  TexelBayerPlan bp;
  int x, y, c;

  plan_for (m, &bp);
  for (y = 0; y < m->t->img.height; y++)
    {
      for (x = 0; x < m->t->img.width; x++)
        {
          double got[3], want[3];

          texel_bayer_demosaic (&bp, &m->t->img, x, y, got);
          demosaic_ref (m, x, y, want);
          for (c = 0; c < 3; c++)
            if (fabs (got[c] - want[c]) > tolerance)
              g_error ("%s %d-bit%s %s %dx%d: demosaic (%d,%d)[%d] = %.15g, "
                       "want %.15g",
                       pattern_names[m->cfg.pattern], m->cfg.bits,
                       m->cfg.msb ? " msb" : "",
                       m->cfg.demosaic ? "bilinear" : "mhc", m->t->img.width,
                       m->t->img.height, x, y, c, got[c], want[c]);
          texel_bayer_develop (&bp, &m->t->img, x, y, got);
          develop_ref (m, x, y, want);
          for (c = 0; c < 3; c++)
            if (fabs (got[c] - want[c]) > tolerance)
              g_error ("develop (%d,%d)[%d] = %.15g, want %.15g", x, y, c,
                       got[c], want[c]);
        }
    }
}

static const int depths[][2] = {
  { 8, 0 },  { 10, 0 }, { 10, 1 }, { 12, 0 },
  { 12, 1 }, { 14, 0 }, { 14, 1 }, { 16, 0 },
};

/* Random mosaics of every pattern, depth and method (hostile sizes
 * included) against the formulas, borders included. */
static void
test_bayer_random (void)
{
  static const int sizes[][2] = {
    { 16, 12 }, { 17, 9 }, { 1, 1 }, { 1, 7 },
    { 6, 1 },   { 2, 2 },  { 3, 3 }, { 2, 5 },
  };
  GRand *rand = g_rand_new_with_seed (18);
  int p, d, method, s;

  for (p = 1; p <= N_PATTERNS; p++)
    for (d = 0; d < (int)G_N_ELEMENTS (depths); d++)
      for (method = 0; method < 2; method++)
        for (s = 0; s < (int)G_N_ELEMENTS (sizes); s++)
          {
            TexelBayerConfig cfg;
            Mosaic *m;

            config_default (&cfg, p, method, depths[d][0], depths[d][1]);
            m = mosaic_new (&cfg, sizes[s][0], sizes[s][1]);
            fill_random (m, rand);
            check_all_pixels (m, 1e-12);
            mosaic_free (m);
          }
  g_rand_free (rand);
}

/* A flat field of any colour comes out as that colour everywhere, frame
 * edges included, by both methods: black levels, gains and all. */
static void
test_bayer_flat (void)
{
  static const double colours[][3] = {
    { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 0.25, 0.5, 0.75 }, { 1, 1, 1 },
  };
  int p, method, k, x, y, c;

  for (p = 1; p <= N_PATTERNS; p++)
    for (method = 0; method < 2; method++)
      for (k = 0; k < (int)G_N_ELEMENTS (colours); k++)
        {
          TexelBayerConfig cfg;
          Mosaic *m;
          double *rgb;

          config_default (&cfg, p, method, 12, 1);
          cfg.black[0] = 64;
          cfg.black[1] = 100;
          cfg.black[2] = 200;
          m = mosaic_new (&cfg, 9, 7);
          for (y = 0; y < 7; y++)
            for (x = 0; x < 9; x++)
              {
                int col = colour_at (m, x, y);
                double black = cfg.black[col];

                /* The code whose black-corrected value is the colour's. */
                mosaic_set (
                    m, x, y,
                    (unsigned)(black + colours[k][col] * (4095.0 - black)));
              }
          rgb = demosaic_all (m);
          for (y = 0; y < 7; y++)
            for (x = 0; x < 9; x++)
              for (c = 0; c < 3; c++)
                {
                  double black = cfg.black[c];
                  double code
                      = floor (black + colours[k][c] * (4095.0 - black));

                  g_assert_cmpfloat_with_epsilon (
                      rgb[3 * (9 * y + x) + c],
                      (code - black) / (4095.0 - black), 1e-12);
                }
          g_free (rgb);
          mosaic_free (m);
        }
}

/* Linear ramps, a different one per colour, are reproduced exactly by
 * both methods wherever the window lies inside the frame. */
static void
test_bayer_ramp (void)
{
  static const int slope[3][3]
      = { { 100, 7, 3 }, { 2000, -11, 13 }, { 900, 5, -9 } };
  int p, method, x, y, c;

  for (p = 1; p <= N_PATTERNS; p++)
    for (method = 0; method < 2; method++)
      {
        TexelBayerConfig cfg;
        Mosaic *m;
        double *rgb;

        config_default (&cfg, p, method, 16, 0);
        m = mosaic_new (&cfg, 24, 20);
        for (y = 0; y < 20; y++)
          for (x = 0; x < 24; x++)
            {
              int col = colour_at (m, x, y);

              mosaic_set (m, x, y,
                          slope[col][0] + slope[col][1] * x
                              + slope[col][2] * y);
            }
        rgb = demosaic_all (m);
        for (y = 2; y < 18; y++)
          for (x = 2; x < 22; x++)
            for (c = 0; c < 3; c++)
              g_assert_cmpfloat_with_epsilon (
                  rgb[3 * (24 * y + x) + c] * 65535.0,
                  slope[c][0] + slope[c][1] * x + slope[c][2] * y, 1e-8);
        g_free (rgb);
        mosaic_free (m);
      }
}

/* Gains, a colour matrix and each transfer function, on random data. */
static void
test_bayer_develop (void)
{
  static const double ccm[3][3]
      = { { 1.6, -0.4, -0.2 }, { -0.3, 1.5, -0.2 }, { 0.1, -0.6, 1.5 } };
  GRand *rand = g_rand_new_with_seed (7);
  int t, method;

  for (t = TEXEL_TRANSFER_BT709; t <= TEXEL_TRANSFER_LINEAR; t++)
    for (method = 0; method < 2; method++)
      {
        TexelBayerConfig cfg;
        Mosaic *m;

        config_default (&cfg, TEXEL_BAYER_GRBG, method, 10, 0);
        memcpy (cfg.ccm, ccm, sizeof (ccm));
        cfg.gain[0] = 1.9;
        cfg.gain[2] = 1.4;
        cfg.black[0] = cfg.black[1] = cfg.black[2] = 64;
        cfg.transfer = t;
        m = mosaic_new (&cfg, 11, 8);
        fill_random (m, rand);
        check_all_pixels (m, 1e-12);
        mosaic_free (m);
      }
  g_rand_free (rand);
}

static void
test_bayer_refused (void)
{
  TexelBayerConfig cfg;
  TexelBayerPlan bp;
  TexelFormatDesc desc = *texel_format_desc (TEXEL_FORMAT_GRAY8);
  const char *error = NULL;

  config_default (&cfg, TEXEL_BAYER_RGGB, TEXEL_DEMOSAIC_MHC, 10, 0);
  g_assert_cmpint (texel_bayer_plan_init (&bp, &desc, &cfg, &error), ==, -1);
  g_assert_nonnull (error);
  desc = *texel_format_desc (TEXEL_FORMAT_GRAY16_LE);
  cfg.black[1] = 1023;
  g_assert_cmpint (texel_bayer_plan_init (&bp, &desc, &cfg, &error), ==, -1);
  cfg.black[1] = 0;
  cfg.pattern = TEXEL_BAYER_NONE;
  g_assert_cmpint (texel_bayer_plan_init (&bp, &desc, &cfg, &error), ==, -1);
}

/* The CUDA kernel weights the window's tap groups (texel_bayer_tap_group)
 * instead of its taps: every plan's filters must weigh the taps of a
 * group alike and the taps outside the groups 0, for each pattern, method
 * and class; and the groups are those the kernel sums (13 taps); the
 * cell kernel's forms (texel_bayer_form_groups) leave out exactly the
 * groups that weigh 0. */
static void
test_bayer_tap_groups (void)
{
  static const int group_size[TEXEL_BAYER_GROUPS] = { 1, 2, 2, 4, 2, 2 };
  int count[TEXEL_BAYER_GROUPS] = { 0 };
  int p, method, form, cls, c, k;

  for (k = 0; k < TEXEL_BAYER_TAPS; k++)
    if (texel_bayer_tap_group (k) >= 0)
      count[texel_bayer_tap_group (k)]++;
  for (k = 0; k < TEXEL_BAYER_GROUPS; k++)
    {
      g_assert_cmpint (count[k], ==, group_size[k]);
      g_assert_cmpint (texel_bayer_tap_group (texel_bayer_group_tap (k)), ==,
                       k);
    }
  for (p = 1; p <= N_PATTERNS; p++)
    for (method = 0; method < 2; method++)
      {
        TexelBayerConfig cfg;
        TexelBayerPlan bp;
        TexelFormatDesc desc = *texel_format_desc (TEXEL_FORMAT_GRAY8);
        const char *error = NULL;

        config_default (&cfg, p, method, 8, 0);
        g_assert_cmpint (texel_bayer_plan_init (&bp, &desc, &cfg, &error), ==,
                         0);
        form = method == TEXEL_DEMOSAIC_MHC ? TEXEL_BAYER_FORM_MHC
                                            : TEXEL_BAYER_FORM_BILINEAR;
        for (cls = 0; cls < 4; cls++)
          for (c = 0; c < 3; c++)
            {
              const int8_t *w = bp.kernel[cls][c];
              int sum = 0;

              for (k = 0; k < TEXEL_BAYER_TAPS; k++)
                {
                  int g = texel_bayer_tap_group (k);

                  g_assert_cmpint (w[k], ==,
                                   g < 0 ? 0 : w[texel_bayer_group_tap (g)]);
                  sum += w[k];
                }
              /* A flat field develops to itself: the weights sum to 1. */
              g_assert_cmpint (sum, ==, 16);
              /* The cell kernel's form multiplies exactly the groups that
               * weigh something. */
              for (k = 0; k < TEXEL_BAYER_GROUPS; k++)
                g_assert_cmpint (w[texel_bayer_group_tap (k)] != 0, ==,
                                 texel_bayer_form_groups (form, cls, c) >> k
                                     & 1);
            }
        g_assert_cmpint (texel_bayer_form (&bp), ==, form);
      }
}

/* Through texelconvert's CPU path to RGBA: the crop starts on every
 * colour of the pattern (the pattern stays that of the whole frame), and
 * each output code is the developed value rounded. */
static void
test_bayer_convert_crop (void)
{
  GRand *rand = g_rand_new_with_seed (3);
  int p, cx, cy, x, y, c;

  for (p = 1; p <= N_PATTERNS; p++)
    for (cy = 0; cy < 2; cy++)
      for (cx = 0; cx < 2; cx++)
        {
          TexelBayerConfig cfg;
          TexelConvertConfig config;
          TestImage *out;
          Mosaic *m;

          config_default (&cfg, p, TEXEL_DEMOSAIC_MHC, 12, 0);
          cfg.transfer = TEXEL_TRANSFER_SRGB;
          m = mosaic_new (&cfg, 13, 9);
          fill_random (m, rand);
          test_config_init (&config, 13, 9, 13 - cx - 1, 9 - cy - 2);
          config.src_x = cx;
          config.src_y = cy;
          config.src_w = 13 - cx - 1;
          config.src_h = 9 - cy - 2;
          config.bayer = &cfg;
          out = test_convert_config (&config, m->t, TEXEL_FORMAT_RGBA,
                                     config.src_w, config.src_h);
          for (y = 0; y < config.src_h; y++)
            for (x = 0; x < config.src_w; x++)
              {
                double want[3];

                develop_ref (m, x + cx, y + cy, want);
                for (c = 0; c < 3; c++)
                  g_assert_cmpfloat (
                      fabs (test_image_get (out, c, x, y) - want[c] * 255.0),
                      <=, 0.5 + 1e-9);
                g_assert_cmpuint (test_image_get (out, 3, x, y), ==, 255);
              }
          test_image_free (out);
          mosaic_free (m);
        }
  g_rand_free (rand);
}

/* Where samples sit: mosaic sample x is centred at x + 0.5, so scaling a
 * ramp by 3 with bilinear interpolation gives output pixel X the ramp's
 * value at input position (X + 0.5) / 3 - 0.5 (in sample units), whatever
 * the pattern. */
static void
test_bayer_sample_positions (void)
{
  int p, X, Y, c;

  for (p = 1; p <= N_PATTERNS; p++)
    {
      TexelBayerConfig cfg;
      TexelConvertConfig config;
      TestImage *out;
      Mosaic *m;
      int x, y;

      config_default (&cfg, p, TEXEL_DEMOSAIC_MHC, 16, 0);
      m = mosaic_new (&cfg, 20, 16);
      /* Every colour the same ramp: 2000 codes (of 65535) a sample across,
       * 1500 down. */
      for (y = 0; y < 16; y++)
        for (x = 0; x < 20; x++)
          mosaic_set (m, x, y, 1000 + 2000 * x + 1500 * y);
      test_config_init (&config, 20, 16, 60, 48);
      config.method = TEXEL_METHOD_BILINEAR;
      config.bayer = &cfg;
      out = test_convert_config (&config, m->t, TEXEL_FORMAT_RGBA, 60, 48);
      /* Away from the edges, where the window and the interpolation stay
       * inside the frame. */
      for (Y = 9; Y < 39; Y++)
        for (X = 9; X < 51; X++)
          {
            double sx = (X + 0.5) / 3.0 - 0.5, sy = (Y + 0.5) / 3.0 - 0.5;
            double want = (1000 + 2000 * sx + 1500 * sy) / 65535.0 * 255.0;

            for (c = 0; c < 3; c++)
              g_assert_cmpfloat (fabs (test_image_get (out, c, X, Y) - want),
                                 <=, 0.5 + 1e-9);
          }
      test_image_free (out);
      mosaic_free (m);
    }
}

/* Grey-world statistics (texel_bayer_stats, texel_bayer_awb_gains)
 * against sums the test makes itself from the codes it wrote and the
 * colours the pattern's name gives: every pattern, 8, 10 (lsb), 12 (msb)
 * and 16 bits, random rectangles starting on any colour, a quarter of the
 * samples at or above the clipping threshold (left out). The integer sums
 * must be equal, the gains (G = 1) equal to double rounding. */
static void
test_bayer_awb_stats (void)
{
  static const int awb_depths[][2]
      = { { 8, 0 }, { 10, 0 }, { 12, 1 }, { 16, 0 } };
  GRand *rand = g_rand_new_with_seed (18);
  int p, d, round, x, y, c;

  for (p = 1; p <= N_PATTERNS; p++)
    for (d = 0; d < (int)G_N_ELEMENTS (awb_depths); d++)
      for (round = 0; round < 4; round++)
        {
          int bits = awb_depths[d][0], w = g_rand_int_range (rand, 1, 40);
          int h = g_rand_int_range (rand, 1, 30);
          double max = (double)((1 << bits) - 1), mean[3], want[3], got[3];
          unsigned long long sum[3] = { 0 }, count[3] = { 0 };
          int x0 = g_rand_int_range (rand, 0, w),
              y0 = g_rand_int_range (rand, 0, h);
          int x1 = g_rand_int_range (rand, x0 + 1, w + 1);
          int y1 = g_rand_int_range (rand, y0 + 1, h + 1);
          TexelBayerStats stats = { { 0 } };
          TexelBayerConfig cfg;
          TexelBayerPlan bp;
          Mosaic *m;

          config_default (&cfg, p, TEXEL_DEMOSAIC_MHC, bits, awb_depths[d][1]);
          for (c = 0; c < 3; c++)
            cfg.black[c] = g_rand_int_range (rand, 0, (1 << bits) / 16);
          m = mosaic_new (&cfg, w, h);
          for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
              {
                /* Clipped: above 95 % of the largest code. */
                gboolean clipped = g_rand_int_range (rand, 0, 4) == 0;
                unsigned code
                    = clipped ? (unsigned)g_rand_int_range (
                          rand, (int)floor (0.95 * max) + 1, (1 << bits))
                              : (unsigned)g_rand_int_range (
                                  rand, 0, (int)floor (0.95 * max) + 1);

                mosaic_set (m, x, y, code);
                c = colour_at (m, x, y);
                if (!clipped && x >= x0 && x < x1 && y >= y0 && y < y1)
                  {
                    sum[c] += code;
                    count[c]++;
                  }
              }
          plan_for (m, &bp);
          texel_bayer_stats (&bp, &m->t->img, x0, y0, x1, y1, &stats);
          for (c = 0; c < 3; c++)
            {
              g_assert_cmpuint (stats.sum[c], ==, sum[c]);
              g_assert_cmpuint (stats.count[c], ==, count[c]);
            }
          for (c = 0; c < 3; c++)
            mean[c] = count[c] ? (double)sum[c] / count[c] - cfg.black[c] : 0.0;
          if (mean[0] > 0.0 && mean[1] > 0.0 && mean[2] > 0.0)
            {
              want[0] = mean[1] / mean[0];
              want[1] = 1.0;
              want[2] = mean[1] / mean[2];
              g_assert_cmpint (texel_bayer_awb_gains (&stats, cfg.black, got),
                               ==, 0);
              for (c = 0; c < 3; c++)
                g_assert_cmpfloat (fabs (got[c] - want[c]), <=,
                                   1e-12 * want[c]);
            }
          else
            {
              got[0] = got[1] = got[2] = -1.0;
              g_assert_cmpint (texel_bayer_awb_gains (&stats, cfg.black, got),
                               ==, -1);
              g_assert_cmpfloat (got[0], ==, -1.0);
            }
          mosaic_free (m);
        }
  g_rand_free (rand);
}

/* texel_bayer_plan_set_gains gives the plan texel_bayer_plan_init builds
 * with those gains; texel_bayer_awb_rows splits the rectangle's rows
 * between consecutive bands of output rows without gap or overlap. */
static void
test_bayer_awb_plan (void)
{
  static const double gains[3] = { 2.25, 0.75, 1.5 };
  TexelBayerConfig cfg, with;
  TexelBayerPlan a, b;
  Mosaic *m;
  int c, bands, out_h = 37;
  double map_y[3] = { 0.0, 23.0 / 37.0, 3.0 };

  config_default (&cfg, TEXEL_BAYER_GRBG, TEXEL_DEMOSAIC_MHC, 12, 0);
  cfg.black[0] = 200.0;
  cfg.black[2] = 64.0;
  m = mosaic_new (&cfg, 8, 8);
  with = cfg;
  memcpy (with.gain, gains, sizeof (gains));
  plan_for (m, &a);
  texel_bayer_plan_set_gains (&a, &cfg, gains);
  m->cfg = with;
  plan_for (m, &b);
  for (c = 0; c < 3; c++)
    {
      g_assert_cmpfloat (a.scale[c], ==, b.scale[c]);
      g_assert_cmpfloat (a.offset[c], ==, b.offset[c]);
      g_assert_cmpfloat (a.scale_f[c], ==, b.scale_f[c]);
      g_assert_cmpfloat (a.offset_f[c], ==, b.offset_f[c]);
    }
  mosaic_free (m);

  /* A source rectangle of rows [3, 26) shown on 37 output rows. */
  a.awb_y0 = 3;
  a.awb_y1 = 26;
  for (bands = 1; bands <= 8; bands++)
    {
      int next = a.awb_y0, k;

      for (k = 0; k < bands; k++)
        {
          int row0 = out_h * k / bands, row1 = out_h * (k + 1) / bands, y0, y1;

          texel_bayer_awb_rows (&a, map_y, out_h, row0, row1, &y0, &y1);
          g_assert_cmpint (y0, ==, next);
          g_assert_cmpint (y1, >=, y0);
          /* Inside the rows the band reads: its mapped rows, give or
           * take one. */
          g_assert_cmpfloat (y0, >=, floor (map_y[1] * row0 + map_y[2]) - 1);
          g_assert_cmpfloat (y1, <=, ceil (map_y[1] * row1 + map_y[2]) + 1);
          next = y1;
        }
      g_assert_cmpint (next, ==, a.awb_y1);
    }
}

static const TestCase tests[] = {
  { "/bayer/random", test_bayer_random },
  { "/bayer/flat", test_bayer_flat },
  { "/bayer/ramp", test_bayer_ramp },
  { "/bayer/develop", test_bayer_develop },
  { "/bayer/refused", test_bayer_refused },
  { "/bayer/tap-groups", test_bayer_tap_groups },
  { "/bayer/convert-crop", test_bayer_convert_crop },
  { "/bayer/sample-positions", test_bayer_sample_positions },
  { "/bayer/awb-stats", test_bayer_awb_stats },
  { "/bayer/awb-plan", test_bayer_awb_plan },
};

TEST_MAIN (tests)
