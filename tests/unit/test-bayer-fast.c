/* gst-texel unit tests: texelconvert's fast CPU path for raw Bayer input
 * (texel-bayer-fast.h) against the double-precision reference (the
 * oracle), on random mosaics: every pattern, 8, 10, 12 and 16 bits, lsb
 * and msb (the other bits of the words random too), bilinear and MHC,
 * crops starting on each colour of the pattern, flips, letterboxing, each
 * method (bicubic smooths at 1:1), 1-pixel-wide and 2x2 frames, black levels,
 * gains, a colour matrix, every transfer and every 8-bit output format;
 * scaled plans too (the rows developed at 1:1, then resampled). Bound:
 * one code on every output sample (docs/accuracy.md). Also which plans the fast
 * path covers, and a change of white-balance gains after the tables are built
 * (what the automatic white balance does).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "texel-adjust.h"
#include "texel-bayer-fast.h"
#include "texel-convert-fast.h"
#include "texel-test-util.h"

/* Largest difference allowed, in 8-bit codes. */
#define BOUND 1

static const TexelBayerPattern patterns[]
    = { TEXEL_BAYER_RGGB, TEXEL_BAYER_BGGR, TEXEL_BAYER_GRBG,
        TEXEL_BAYER_GBRG };

/* What a case develops: the mosaic's storage and the development. */
typedef struct
{
  TexelBayerPattern pattern;
  TexelDemosaic demosaic;
  int bits, msb, transfer;
  /* Black levels, gains and a colour matrix away from neutral (1), the
   * same with a diagonal matrix (DIAGONAL: the integer path's). */
  int graded;
  /* texelconvert's method (0: nearest); bicubic's B-spline smooths even
   * at 1:1 (three taps each way). */
  TexelMethod method;
} Develop;

#define DIAGONAL 2

static void
bayer_config (const Develop *d, TexelBayerConfig *cfg)
{
  /* A camera-like matrix (rows sum to 1, negative terms) clips both
   * ways; the gains push highlights past 1. */
  static const double ccm[3][3]
      = { { 1.7, -0.5, -0.2 }, { -0.3, 1.6, -0.3 }, { 0.1, -0.6, 1.5 } };
  double max = (double)((1 << d->bits) - 1);
  int c, k;

  memset (cfg, 0, sizeof (*cfg));
  cfg->pattern = d->pattern;
  cfg->demosaic = d->demosaic;
  cfg->bits = d->bits;
  cfg->msb = d->msb;
  cfg->transfer = d->transfer;
  for (c = 0; c < 3; c++)
    {
      cfg->black[c] = d->graded ? max * (0.03 + 0.01 * c) : 0.0;
      cfg->gain[c] = d->graded ? (c == 1 ? 1.0 : 1.9 - 0.5 * c) : 1.0;
      for (k = 0; k < 3; k++)
        cfg->ccm[c][k] = d->graded == 1                    ? ccm[c][k]
                         : d->graded == DIAGONAL && c == k ? 0.9 + 0.1 * c
                                                           : (c == k);
    }
}

/* A random mosaic: every bit of every word random (the reference and the
 * fast path both keep only the significant ones). */
static TestImage *
mosaic_new (const Develop *d, int width, int height, GRand *rand)
{
  TestImage *t = test_image_new (d->bits == 8 ? TEXEL_FORMAT_GRAY8
                                              : TEXEL_FORMAT_GRAY16_LE,
                                 width, height, 1);
  int bytes = d->bits == 8 ? 1 : 2, x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width * bytes; x++)
      t->img.data[0][(size_t)y * t->img.stride[0] + x]
          = (uint8_t)g_rand_int_range (rand, 0, 256);
  return t;
}

/* Mosaic @m (@w x @h) cropped to @crop (x, y, w, h; w 0: whole), turned by
 * @dir, scaled to @dst (w x h; 0: the crop's size) to @out_format,
 * letterboxed into @box (x, y of the picture in an output of w x h; NULL:
 * none): the fast path in two bands against the reference, within
 * @bound codes. @regain: new gains set after the tables are built, or
 * NULL. */
static void
check_scaled (const Develop *d, const TestImage *m, const int crop[4],
              const int dst[2], const int *box, TexelDirection dir,
              TexelFormat out_format, const double *regain, int bound)
{
  TexelBayerConfig cfg;
  TexelConvertConfig config;
  TexelConvertPlan plan;
  TestImage *ref, *fast;
  int w = m->img.width, h = m->img.height;
  int cw = crop[2] ? crop[2] : w, ch = crop[3] ? crop[3] : h;
  int dw = dst[0] ? dst[0] : cw, dh = dst[1] ? dst[1] : ch;
  int ow = box ? box[2] : dw, oh = box ? box[3] : dh;
  int cuts[1] = { oh / 2 | 1 };
  int diff;

  bayer_config (d, &cfg);
  test_config_init (&config, w, h, dw, dh);
  config.src_x = crop[0];
  config.src_y = crop[1];
  config.src_w = cw;
  config.src_h = ch;
  if (box != NULL)
    {
      config.dst_x = box[0];
      config.dst_y = box[1];
      config.border_rgba[0] = 0.25;
    }
  config.direction = dir;
  config.method = d->method;
  config.bayer = &cfg;
  test_plan (&plan, &config, m->img.format, w, h, out_format, ow, oh);
  plan.fast = texel_convert_fast_new (&plan);
  g_assert_nonnull (plan.fast);
  if (regain != NULL)
    texel_bayer_plan_set_gains (&plan.bayer, &cfg, regain);
  ref = test_convert (&plan, m);
  fast = test_convert_bands_with (texel_convert_fast, &plan, m, 1, cuts,
                                  oh > 1 ? 1 : 0);
  diff = test_image_max_difference (ref, fast);
  if (diff > bound)
    g_error ("pattern %d, %d bits%s, demosaic %d, transfer %d%s, method "
             "%d, %dx%d crop (%d, %d) %dx%d, direction %d -> %dx%d in %dx%d "
             "format %d: fast path %d codes from the reference",
             d->pattern, d->bits, d->msb ? " msb" : "", d->demosaic,
             d->transfer, d->graded ? ", graded" : "", d->method, w, h, crop[0],
             crop[1], cw, ch, dir, dw, dh, ow, oh, out_format, diff);
  test_image_free (ref);
  test_image_free (fast);
  texel_convert_fast_free ((TexelConvertFast *)plan.fast);
}

static void
check_boxed (const Develop *d, const TestImage *m, const int crop[4],
             const int *box, TexelDirection dir, TexelFormat out_format,
             const double *regain)
{
  static const int same[2] = { 0, 0 };

  check_scaled (d, m, crop, same, box, dir, out_format, regain, BOUND);
}

/* Whether the rows of a plan developing @d take the integer way
 * (texel_bayer_fast_sync), with @regain set after the tables were built
 * (NULL: none). */
static int
integer_way (const Develop *d, const double *regain)
{
  TexelBayerConfig cfg;
  TexelConvertConfig config;
  TexelConvertPlan plan;
  TexelBayerFast *fast;
  int way;

  bayer_config (d, &cfg);
  test_config_init (&config, 8, 8, 8, 8);
  config.bayer = &cfg;
  test_plan (&plan, &config,
             d->bits == 8 ? TEXEL_FORMAT_GRAY8 : TEXEL_FORMAT_GRAY16_LE, 8, 8,
             TEXEL_FORMAT_RGBA, 8, 8);
  fast = texel_bayer_fast_new (&plan.bayer);
  g_assert_nonnull (fast);
  way = texel_bayer_fast_sync (fast, &plan.bayer, 1);
  if (regain != NULL)
    {
      texel_bayer_plan_set_gains (&plan.bayer, &cfg, regain);
      way = texel_bayer_fast_sync (fast, &plan.bayer, 1);
    }
  texel_bayer_fast_free (fast);
  return way;
}

static void
check (const Develop *d, const TestImage *m, const int crop[4],
       TexelDirection dir, TexelFormat out_format, const double *regain)
{
  check_boxed (d, m, crop, NULL, dir, out_format, regain);
}

/* Every pattern, bit depth and alignment and both methods, graded and
 * neutral, to RGBA and NV12. */
static void
test_storage (void)
{
  static const int depths[] = { 8, 10, 12, 16 };
  static const int whole[4] = { 0 };
  GRand *rand = g_rand_new_with_seed (18);
  int p, b, msb, dm, n = 0;

  for (p = 0; p < 4; p++)
    for (b = 0; b < 4; b++)
      for (msb = 0; msb < (depths[b] == 8 ? 1 : 2); msb++)
        for (dm = 0; dm < 2; dm++)
          {
            Develop d = { patterns[p],
                          dm ? TEXEL_DEMOSAIC_BILINEAR : TEXEL_DEMOSAIC_MHC,
                          depths[b],
                          msb,
                          n % 2 ? TEXEL_TRANSFER_BT709 : TEXEL_TRANSFER_SRGB,
                          n % 3 != 0 };
            TestImage *m = mosaic_new (&d, 19, 11, rand);

            check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_RGBA,
                   NULL);
            check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_NV12,
                   NULL);
            test_image_free (m);
            n++;
          }
  g_rand_free (rand);
}

/* Crops starting on each colour of the pattern, with flips, to every
 * 8-bit output format, nearest, bilinear and bicubic in turn. */
static void
test_crops_formats (void)
{
  static const TexelDirection dirs[]
      = { TEXEL_DIRECTION_IDENTITY, TEXEL_DIRECTION_HORIZ, TEXEL_DIRECTION_VERT,
          TEXEL_DIRECTION_180 };
  GRand *rand = g_rand_new_with_seed (19);
  Develop d
      = { TEXEL_BAYER_GRBG, TEXEL_DEMOSAIC_MHC, 12, 1, TEXEL_TRANSFER_SRGB, 1 };
  TestImage *m = mosaic_new (&d, 23, 15, rand);
  int cx, cy, f;

  for (cy = 0; cy < 2; cy++)
    for (cx = 0; cx < 2; cx++)
      {
        int crop[4] = { cx + 2, cy + 1, 17 - cx, 11 - cy };

        for (f = 0; f < test_n_formats; f++)
          {
            TexelFormat out = test_all_formats[f];

            if (texel_format_desc (out)->bits != 8)
              continue;
            d.demosaic = f % 2 ? TEXEL_DEMOSAIC_BILINEAR : TEXEL_DEMOSAIC_MHC;
            d.method = (TexelMethod)(f % 3);
            check (&d, m, crop, dirs[(2 * cy + cx + f) % 4], out, NULL);
          }
      }
  test_image_free (m);
  g_rand_free (rand);
}

/* Frames of one and two pixels across (the mirror folds onto the frame),
 * every pattern and both methods. */
static void
test_tiny (void)
{
  static const int sizes[][2]
      = { { 1, 1 }, { 1, 7 }, { 7, 1 }, { 2, 2 }, { 2, 5 }, { 5, 2 } };
  static const int whole[4] = { 0 };
  GRand *rand = g_rand_new_with_seed (20);
  int s, p, dm;

  for (s = 0; s < (int)G_N_ELEMENTS (sizes); s++)
    for (p = 0; p < 4; p++)
      for (dm = 0; dm < 2; dm++)
        {
          Develop d = { patterns[p],
                        dm ? TEXEL_DEMOSAIC_BILINEAR : TEXEL_DEMOSAIC_MHC,
                        10,
                        0,
                        TEXEL_TRANSFER_BT709,
                        p % 2 };
          TestImage *m = mosaic_new (&d, sizes[s][0], sizes[s][1], rand);

          check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_BGRX,
                 NULL);
          check (&d, m, whole, TEXEL_DIRECTION_180, TEXEL_FORMAT_I420, NULL);
          test_image_free (m);
        }
  g_rand_free (rand);
}

/* Every transfer curve, graded (clipping at both ends), and smooth
 * mosaics too (a random one is mostly clipped or large: the dark end of
 * the curves, where they are steepest, needs small values). */
static void
test_transfers (void)
{
  static const int whole[4] = { 0 };
  GRand *rand = g_rand_new_with_seed (21);
  int t, graded;

  for (t = TEXEL_TRANSFER_BT709; t <= TEXEL_TRANSFER_GAMMA28; t++)
    for (graded = 0; graded < 2; graded++)
      {
        Develop d = { TEXEL_BAYER_RGGB, TEXEL_DEMOSAIC_MHC, 16, 0, t, graded };
        TestImage *m = mosaic_new (&d, 21, 9, rand);
        int x, y;

        check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_RGB, NULL);
        /* A dark ramp: codes 0 .. about 600 of 65535. */
        for (y = 0; y < 9; y++)
          for (x = 0; x < 21; x++)
            {
              unsigned code = (unsigned)(x * x + 7 * y);
              uint8_t *p = m->img.data[0] + (size_t)y * m->img.stride[0];

              p[2 * x] = (uint8_t)(code & 0xff);
              p[2 * x + 1] = (uint8_t)(code >> 8);
            }
        check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_RGB, NULL);
        check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_GRAY8,
               NULL);
        test_image_free (m);
      }
  g_rand_free (rand);
}

/* Letterboxed at 1:1 (a border on every side, odd offsets), flipped, to
 * RGBA (the fixed-point stages, not the direct rounding) and NV12. */
static void
test_letterbox (void)
{
  static const int crop[4] = { 1, 0, 15, 9 };
  static const int box[4] = { 3, 1, 21, 13 };
  GRand *rand = g_rand_new_with_seed (23);
  Develop d = {
    TEXEL_BAYER_GBRG, TEXEL_DEMOSAIC_MHC, 10, 1, TEXEL_TRANSFER_BT709, 1
  };
  TestImage *m = mosaic_new (&d, 17, 10, rand);

  check_boxed (&d, m, crop, box, TEXEL_DIRECTION_HORIZ, TEXEL_FORMAT_RGBA,
               NULL);
  check_boxed (&d, m, crop, box, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_NV12,
               NULL);
  check_boxed (&d, m, crop, box, TEXEL_DIRECTION_180, TEXEL_FORMAT_YUY2, NULL);
  test_image_free (m);
  g_rand_free (rand);
}

/* Scaled plans (the mosaic's rows developed at 1:1, then resampled):
 * down and up, each axis alone, crops, flips and 180, letterboxing and
 * the shipped pipeline's 4:3 into 16:9 pillarbox; 8 and 12-bit mosaics,
 * RGB, YUV and grey outputs, every method, both demosaics, neutral,
 * diagonal (the integer way with gains) and full colour matrices. */
static void
test_scaled (void)
{
  /* Mosaic w, h; crop x, y, w, h; scaled to w, h; box x, y, w, h (w 0:
   * none); direction. */
  static const struct
  {
    int w, h, crop[4], dst[2], box[4];
    TexelDirection dir;
  } geometries[] = {
    { 41, 31, { 0 }, { 25, 14 }, { 0 }, TEXEL_DIRECTION_IDENTITY },
    { 41, 31, { 0 }, { 19, 14 }, { 3, 0, 25, 14 }, TEXEL_DIRECTION_IDENTITY },
    { 13, 9, { 0 }, { 31, 22 }, { 0 }, TEXEL_DIRECTION_IDENTITY },
    { 41, 31, { 3, 2, 30, 20 }, { 17, 11 }, { 0 }, TEXEL_DIRECTION_IDENTITY },
    { 41, 31, { 0 }, { 23, 17 }, { 0 }, TEXEL_DIRECTION_180 },
    { 13, 9, { 1, 1, 11, 7 }, { 26, 15 }, { 0 }, TEXEL_DIRECTION_HORIZ },
    { 15, 11, { 0 }, { 29, 20 }, { 2, 3, 33, 27 }, TEXEL_DIRECTION_VERT },
    { 41, 31, { 0 }, { 41, 12 }, { 0 }, TEXEL_DIRECTION_IDENTITY },
    { 20, 12, { 0 }, { 10, 12 }, { 0 }, TEXEL_DIRECTION_IDENTITY },
  };
  static const TexelFormat formats[]
      = { TEXEL_FORMAT_RGBA, TEXEL_FORMAT_BGRX, TEXEL_FORMAT_RGB,
          TEXEL_FORMAT_NV12, TEXEL_FORMAT_I420, TEXEL_FORMAT_YUY2,
          TEXEL_FORMAT_GRAY8 };
  static const int depths[] = { 8, 12 };
  GRand *rand = g_rand_new_with_seed (27);
  int gi, b, f, method, n = 0;

  for (gi = 0; gi < (int)G_N_ELEMENTS (geometries); gi++)
    for (b = 0; b < (int)G_N_ELEMENTS (depths); b++)
      {
        Develop d = { patterns[gi % 4], TEXEL_DEMOSAIC_MHC, depths[b] };
        TestImage *m
            = mosaic_new (&d, geometries[gi].w, geometries[gi].h, rand);

        for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
          for (method = 0; method < 3; method++, n++)
            {
              d.method = (TexelMethod)method;
              d.demosaic = n % 2 ? TEXEL_DEMOSAIC_BILINEAR : TEXEL_DEMOSAIC_MHC;
              d.graded = n % 3;
              d.transfer = n % 5 ? TEXEL_TRANSFER_SRGB : TEXEL_TRANSFER_BT709;
              check_scaled (&d, m, geometries[gi].crop, geometries[gi].dst,
                            geometries[gi].box[2] ? geometries[gi].box : NULL,
                            geometries[gi].dir, formats[f], NULL, BOUND);
            }
        test_image_free (m);
      }
  g_rand_free (rand);
}

/* New white-balance gains after the tables are built (the automatic white
 * balance between frames): the fast path follows them, scaled too. */
static void
test_regain (void)
{
  static const int whole[4] = { 0 };
  static const double gains[3] = { 2.1, 1.0, 1.4 };
  static const int scaled[2] = { 11, 7 };
  GRand *rand = g_rand_new_with_seed (22);
  Develop d
      = { TEXEL_BAYER_BGGR, TEXEL_DEMOSAIC_MHC, 12, 0, TEXEL_TRANSFER_SRGB, 1 };
  TestImage *m = mosaic_new (&d, 16, 10, rand);

  check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_RGBA, gains);
  check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_NV12, gains);
  check_scaled (&d, m, whole, scaled, NULL, TEXEL_DIRECTION_IDENTITY,
                TEXEL_FORMAT_NV12, gains, BOUND);
  test_image_free (m);
  g_rand_free (rand);
}

/* A smooth dark mosaic (codes from 0 to about a 60th of the range, a
 * different slope per row): the steep start of the curves. */
static void
dark_ramp (TestImage *m, int bits)
{
  int x, y;

  for (y = 0; y < m->img.height; y++)
    for (x = 0; x < m->img.width; x++)
      {
        unsigned code = (unsigned)((x * x + 7 * y) << (bits - 8)) / 16;
        uint8_t *p = m->img.data[0] + (size_t)y * m->img.stride[0];

        if (bits == 8)
          p[x] = (uint8_t)code;
        else
          {
            p[2 * x] = (uint8_t)(code & 0xff);
            p[2 * x + 1] = (uint8_t)(code >> 8);
          }
      }
}

/* The integer path (texel-bayer-fast.h): every pattern, depth, alignment,
 * method and transfer, neutral and with per-channel black levels, gains
 * and a diagonal matrix, random and dark mosaics, to RGBA, NV12 and
 * flipped BGRx (the codes written in place, backwards). It
 * must be taken wherever its index is exact (a neutral development of 8
 * to 12 bits, or bilinear), and where sRGB and BT.709 keep the bound
 * with the gains here; the pure power curves may leave split colours to
 * the float way. */
static void
test_integer (void)
{
  static const int depths[] = { 8, 10, 12, 14, 16 };
  static const int whole[4] = { 0 };
  GRand *rand = g_rand_new_with_seed (24);
  int p, b, msb, dm, t, graded, taken = 0, n = 0;

  for (p = 0; p < 4; p++)
    for (b = 0; b < 5; b++)
      for (msb = 0; msb < (depths[b] == 8 ? 1 : 2); msb++)
        for (dm = 0; dm < 2; dm++)
          for (graded = 0; graded <= DIAGONAL; graded += DIAGONAL)
            {
              Develop d = {
                patterns[p], dm ? TEXEL_DEMOSAIC_BILINEAR : TEXEL_DEMOSAIC_MHC,
                depths[b],   msb,
                0,           graded
              };
              TestImage *m;
              int way;

              /* A transfer per case, in turn; under valgrind one case
               * in four (test_sparse_skip). */
              t = n++ % (TEXEL_TRANSFER_GAMMA28 + 1);
              if (test_sparse_skip (n, 4))
                continue;
              d.transfer = t;
              way = integer_way (&d, NULL);
              taken += way;
              if (!way && depths[b] <= 12
                  && (!graded || dm || t == TEXEL_TRANSFER_SRGB
                      || t == TEXEL_TRANSFER_BT709
                      || t == TEXEL_TRANSFER_LINEAR))
                g_error ("pattern %d, %d bits, demosaic %d, transfer %d%s: "
                         "the float way",
                         d.pattern, d.bits, d.demosaic, t,
                         graded ? ", graded" : "");
              m = mosaic_new (&d, 13, 7, rand);
              check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_RGBA,
                     NULL);
              dark_ramp (m, depths[b]);
              check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_RGBA,
                     NULL);
              check (&d, m, whole, TEXEL_DIRECTION_VERT, TEXEL_FORMAT_NV12,
                     NULL);
              check (&d, m, whole, TEXEL_DIRECTION_HORIZ, TEXEL_FORMAT_BGRX,
                     NULL);
              test_image_free (m);
            }
  if (g_test_verbose ())
    g_printerr ("integer path: %d of %d cases\n", taken, n);
  g_rand_free (rand);
}

/* The integer path after new gains (the automatic white balance between
 * frames): the tables follow, to each side of the old gains, and back
 * to equal scales (the exact index). */
static void
test_integer_regain (void)
{
  static const int whole[4] = { 0 };
  static const double gains[][3]
      = { { 2.1, 1.0, 1.4 }, { 0.7, 1.0, 1.9 }, { 1.0, 1.0, 1.0 } };
  GRand *rand = g_rand_new_with_seed (25);
  int g, b;

  for (b = 8; b <= 12; b += 2)
    for (g = 0; g < 3; g++)
      {
        Develop d = {
          TEXEL_BAYER_GRBG, TEXEL_DEMOSAIC_MHC, b, 0, TEXEL_TRANSFER_SRGB, 0
        };
        TestImage *m = mosaic_new (&d, 14, 9, rand);

        g_assert_true (integer_way (&d, gains[g]));
        check (&d, m, whole, TEXEL_DIRECTION_IDENTITY, TEXEL_FORMAT_RGBA,
               gains[g]);
        dark_ramp (m, b);
        check (&d, m, whole, TEXEL_DIRECTION_180, TEXEL_FORMAT_NV12, gains[g]);
        test_image_free (m);
      }
  g_rand_free (rand);
}

/* Where the integer way's index is the exact sum (8 to 12 bits, equal
 * colour scales, or bilinear with any gains) its RGB codes are the exact
 * value rounded once: every code equals the reference's developed value
 * (texel_bayer_develop, double) times 255 rounded, except where that lies
 * within 1e-6 of a half (a tie: BT.709's 4.5 slope makes exact halves of
 * integer codes), with every transfer. The code tables are built from
 * each code's first entry, found through the curve's inverse: this checks
 * every boundary the frames reach. */
static void
test_integer_exact (void)
{
  static const int depths[] = { 8, 10, 12 };
  GRand *rand = g_rand_new_with_seed (26);
  int b, t, dm, ramp;

  for (b = 0; b < 3; b++)
    for (t = TEXEL_TRANSFER_BT709; t <= TEXEL_TRANSFER_GAMMA28; t++)
      for (dm = 0; dm < 2; dm++)
        for (ramp = 0; ramp < 2; ramp++)
          {
            Develop d = { patterns[(b + t) % 4],
                          dm ? TEXEL_DEMOSAIC_BILINEAR : TEXEL_DEMOSAIC_MHC,
                          depths[b],
                          b == 1,
                          t,
                          dm ? DIAGONAL : 0 };
            TexelBayerConfig cfg;
            TexelConvertConfig config;
            TexelConvertPlan plan;
            TestImage *m, *fast;
            int x, y, c;

            /* Under valgrind one case in four. */
            if (test_sparse_skip (b + t + dm + ramp, 4))
              continue;
            m = mosaic_new (&d, 24, 9, rand);
            if (ramp)
              dark_ramp (m, depths[b]);
            bayer_config (&d, &cfg);
            test_config_init (&config, 24, 9, 24, 9);
            config.bayer = &cfg;
            test_plan (&plan, &config, m->img.format, 24, 9, TEXEL_FORMAT_RGBA,
                       24, 9);
            plan.fast = texel_convert_fast_new (&plan);
            g_assert_true (integer_way (&d, NULL));
            fast = test_convert_bands_with (texel_convert_fast, &plan, m, 1,
                                            (const int[]){ 5 }, 1);
            for (y = 0; y < 9; y++)
              for (x = 0; x < 24; x++)
                {
                  const uint8_t *p = fast->img.data[0]
                                     + (size_t)y * fast->img.stride[0] + 4 * x;
                  double rgb[3];

                  texel_bayer_develop (&plan.bayer, &m->img, x, y, rgb);
                  for (c = 0; c < 3; c++)
                    {
                      double v = rgb[c] * 255.0;

                      if (p[c] != (int)floor (v + 0.5)
                          && fabs (v - floor (v) - 0.5) > 1e-6)
                        g_error ("%d bits, demosaic %d, transfer %d: (%d, %d)"
                                 "[%d] = %d, exact %.9f",
                                 d.bits, d.demosaic, t, x, y, c, p[c], v);
                    }
                }
            test_image_free (fast);
            test_image_free (m);
            texel_convert_fast_free ((TexelConvertFast *)plan.fast);
          }
  g_rand_free (rand);
}

/* Plans the fast path leaves to the reference: a 90-degree rotation
 * (scaled or not), a 16-bit output. */
static void
test_not_covered (void)
{
  Develop d
      = { TEXEL_BAYER_RGGB, TEXEL_DEMOSAIC_MHC, 12, 0, TEXEL_TRANSFER_SRGB, 0 };
  TexelBayerConfig cfg;
  TexelConvertConfig config;
  TexelConvertPlan plan;

  bayer_config (&d, &cfg);
  test_config_init (&config, 16, 8, 4, 8);
  config.bayer = &cfg;
  config.direction = TEXEL_DIRECTION_90L;
  test_plan (&plan, &config, TEXEL_FORMAT_GRAY16_LE, 16, 8, TEXEL_FORMAT_RGBA,
             4, 8);
  g_assert_null (texel_convert_fast_new (&plan));

  test_config_init (&config, 16, 8, 8, 16);
  config.bayer = &cfg;
  config.direction = TEXEL_DIRECTION_90R;
  test_plan (&plan, &config, TEXEL_FORMAT_GRAY16_LE, 16, 8, TEXEL_FORMAT_RGBA,
             8, 16);
  g_assert_null (texel_convert_fast_new (&plan));

  test_config_init (&config, 16, 8, 16, 8);
  config.bayer = &cfg;
  test_plan (&plan, &config, TEXEL_FORMAT_GRAY16_LE, 16, 8,
             TEXEL_FORMAT_P010_10LE, 16, 8);
  g_assert_null (texel_convert_fast_new (&plan));
}

/* texel_bayer_fast_stats against the reference's texel_bayer_stats (the
 * oracle, itself checked against the test's own sums in test-bayer.c):
 * the same integer sums for every pattern, 8, 10, 12 and 16 bits, lsb
 * and msb (the other bits of the words random), random rectangles
 * starting on any colour, odd and even widths, one-sample rows, and a
 * clipping threshold that leaves out part of the codes. */
static void
test_stats (void)
{
  static const int depths[][2]
      = { { 8, 0 }, { 10, 0 }, { 10, 1 }, { 12, 0 }, { 12, 1 }, { 16, 0 } };
  GRand *rand = g_rand_new_with_seed (1818);
  int p, d, round, c;

  for (p = 0; p < (int)G_N_ELEMENTS (patterns); p++)
    for (d = 0; d < (int)G_N_ELEMENTS (depths); d++)
      for (round = 0; round < 8; round++)
        {
          Develop dev = { patterns[p],
                          TEXEL_DEMOSAIC_BILINEAR,
                          depths[d][0],
                          depths[d][1],
                          TEXEL_TRANSFER_LINEAR,
                          0,
                          0 };
          int w = g_rand_int_range (rand, 1, 300);
          int h = g_rand_int_range (rand, 1, 12);
          int x0 = g_rand_int_range (rand, 0, w);
          int y0 = g_rand_int_range (rand, 0, h);
          int x1 = round == 0 ? x0 + 1 : g_rand_int_range (rand, x0 + 1, w + 1);
          int y1 = g_rand_int_range (rand, y0 + 1, h + 1);
          TexelBayerStats ref = { { 0 } }, fast = { { 0 } };
          TexelBayerConfig cfg;
          TexelConvertConfig config;
          TexelConvertPlan plan;
          TestImage *m = mosaic_new (&dev, w, h, rand);

          bayer_config (&dev, &cfg);
          test_config_init (&config, w, h, w, h);
          config.bayer = &cfg;
          test_plan (&plan, &config, m->img.format, w, h, TEXEL_FORMAT_RGBA, w,
                     h);
          /* Between a quarter and all of the codes kept. */
          plan.bayer.awb_clip = (unsigned)g_rand_int_range (
              rand, (int)plan.bayer.mask / 4, (int)plan.bayer.mask + 1);
          texel_bayer_stats (&plan.bayer, &m->img, x0, y0, x1, y1, &ref);
          texel_bayer_fast_stats (&plan.bayer, &m->img, x0, y0, x1, y1, &fast);
          for (c = 0; c < 3; c++)
            {
              g_assert_cmpuint (fast.sum[c], ==, ref.sum[c]);
              g_assert_cmpuint (fast.count[c], ==, ref.count[c]);
            }
          test_image_free (m);
        }
  g_rand_free (rand);
}

static const TestCase tests[] = {
  { "/bayer-fast/storage", test_storage },
  { "/bayer-fast/crops-formats", test_crops_formats },
  { "/bayer-fast/tiny", test_tiny },
  { "/bayer-fast/transfers", test_transfers },
  { "/bayer-fast/letterbox", test_letterbox },
  { "/bayer-fast/scaled", test_scaled },
  { "/bayer-fast/regain", test_regain },
  { "/bayer-fast/integer", test_integer },
  { "/bayer-fast/integer-regain", test_integer_regain },
  { "/bayer-fast/integer-exact", test_integer_exact },
  { "/bayer-fast/not-covered", test_not_covered },
  { "/bayer-fast/stats", test_stats },
};

TEST_MAIN (tests)
