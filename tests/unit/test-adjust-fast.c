/* gst-texel unit tests: texeladjust's fast CPU path against its oracle,
 * the double-precision reference: random frames of every format, the
 * settings the GPU tests cover, three colorimetries, odd sizes and bands.
 * The bound is 0 codes: the fast path's tables hold the reference's own
 * codes (texel-adjust-fast.h), so every byte must match; the plans it
 * does not cover run the reference and must match trivially (their
 * coverage is asserted, so that a plan silently falling back is a
 * failure, not a pass).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "texel-adjust.h"
#include "texel-adjust-fast.h"
#include "texel-cube.h"

#include "texel-test-adjust.h"
#include "texel-test-luts.h"
#include "texel-test-util.h"

/* tests/gpu/test-adjust-gpu.c's settings (its LUTs: one grading LUT
 * here, the others take the same fallback), and the benchmark's. */
static const Settings settings[] = {
  { "neutral", 0, 1, 1, 0, 1, 0, { 1, 1, 1 }, 0, 6500, 0, 0, LUT_NONE, 0, 1 },
  { "balance",
    0.1,
    1.2,
    1.5,
    0.25,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "desaturate",
    -0.2,
    0.6,
    0.0,
    -0.7,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "gamma 0.7 (element)",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    0.7 },
  { "gamma 1.2 saturation 1.3",
    0,
    1,
    1.3,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1.2 },
  { "gamma 0.8 saturation 1.3 contrast 1.1",
    0,
    1.1,
    1.3,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    0.8 },
  { "brightness 1 contrast 2",
    1,
    2,
    2,
    1,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    10 },
  { "gamma 2.2",
    0,
    1,
    1,
    0,
    2.2,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "gamma 0.01",
    0,
    1,
    1,
    0,
    0.01,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "exposure +3 gamma 1.5",
    0,
    1,
    1,
    0,
    1.5,
    3,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "gains 0 and 4",
    0,
    1,
    1,
    0,
    1,
    0,
    { 0, 4, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "everything",
    0.05,
    1.1,
    1.2,
    0.1,
    1.3,
    0.5,
    { 1.1, 0.95, 1.2 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "wp 12000, gains",
    0,
    1,
    1.2,
    0,
    1.2,
    0,
    { 1.2, 1, 0.8 },
    0,
    12000,
    0,
    0,
    LUT_NONE,
    0,
    1 },
  { "reinhard +3, wp, gamma",
    0,
    1.1,
    1,
    0,
    1.4,
    3,
    { 1, 1, 1 },
    0,
    4000,
    TEXEL_TONE_MAP_REINHARD,
    0,
    LUT_NONE,
    0,
    1 },
  { "filmic +2, gamma 2.2",
    0,
    1,
    1.1,
    0,
    2.2,
    2,
    { 1, 1, 1 },
    0,
    6500,
    TEXEL_TONE_MAP_FILMIC,
    0,
    LUT_NONE,
    0,
    1 },
  { "gamma 2.2 after exposure",
    0.05,
    1.2,
    1,
    0.1,
    1,
    1,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_NONE,
    0,
    2.2 },
  { "vignette 1.5",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    1.5,
    LUT_NONE,
    0,
    1 },
  { "vignette 3, filmic",
    0.02,
    1,
    1.2,
    0,
    1.6,
    0.5,
    { 1, 1, 1 },
    0,
    5000,
    TEXEL_TONE_MAP_FILMIC,
    3,
    LUT_NONE,
    0,
    1 },
  { "LUT grade 17, gamma",
    0,
    1,
    1,
    0,
    1.3,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_GRADE_17,
    0,
    1 },
  { "gamma 0.8 before LUT",
    0.1,
    1,
    0.8,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    6500,
    0,
    0,
    LUT_GRADE_17,
    0,
    0.8 },
};

static TexelCube *grade_cube;

static const TexelCube *
test_cube (void)
{
  if (grade_cube == NULL)
    {
      grade_cube = lut_cube_new (17, lut_grade, 0.0, 1.0);
      g_assert_nonnull (grade_cube);
    }
  return grade_cube;
}

/* Whether the fast path should cover this plan (texel-adjust-fast.h). */
static gboolean
expect_covered (const TexelFormatDesc *desc, const Settings *st,
                const TexelAdjustConfig *config)
{
  if (st->vignette != 0.0)
    return FALSE;
  if (desc->is_gray)
    return TRUE;
  return !st->lut
         && (!desc->is_yuv || texel_adjust_config_linear_neutral (config));
}

/* @in through @plan by @f in bands cut at random even rows, into an
 * output poisoned with @poison (bytes the path does not write keep it). */
static TestImage *
run_path (void (*f) (const TexelAdjustPlan *, const TexelImage *, TexelImage *,
                     int, int),
          const TexelAdjustPlan *plan, const TestImage *in, int poison,
          GRand *rand)
{
  TestImage *out = test_image_new (in->desc->format, plan->kernel.width,
                                   plan->kernel.height, in->stride_align);
  int row = 0;

  memset (out->mem, poison, out->size);
  while (row < plan->kernel.height)
    {
      int next = row + 2 * g_rand_int_range (rand, 1, 6);

      if (next > plan->kernel.height)
        next = plan->kernel.height;
      f (plan, &in->img, &out->img, row, next);
      row = next;
    }
  return out;
}

static void
test_fast_matches_reference (void)
{
  static const int sizes[][2] = { { 37, 23 }, { 64, 16 }, { 2, 1 } };
  GRand *rand = g_rand_new_with_seed (19);
  TexelAdjustFast *fast = g_new0 (TexelAdjustFast, 1);
  int f, s, ci, z, covered = 0, cases = 0;

  for (f = 0; f < test_n_formats_10; f++)
    {
      const TexelFormatDesc *desc = texel_format_desc (test_formats_10[f]);

      for (s = 0; s < (int)G_N_ELEMENTS (settings); s++)
        {
          for (ci = 0; ci < (int)G_N_ELEMENTS (adjust_colorimetries); ci++)
            {
              for (z = 0; z < (int)G_N_ELEMENTS (sizes); z++)
                {
                  TexelAdjustConfig config;
                  TexelAdjustPlan plan;
                  TestImage *in, *ref, *got;
                  const char *why = NULL;
                  int w = sizes[z][0], h = sizes[z][1];

                  adjust_config_for (&config, &settings[s],
                                     &adjust_colorimetries[ci]);
                  config.cube = settings[s].lut ? test_cube () : NULL;
                  g_assert_cmpint (texel_adjust_plan_init (&plan, &config,
                                                           desc->format, w, h,
                                                           &why),
                                   ==, 0);
                  texel_adjust_fast_init (fast, &plan);
                  plan.fast = fast;
                  if (texel_adjust_fast_covers (fast)
                      != expect_covered (desc, &settings[s], &config))
                    g_error ("%s %s: covered %d", desc->name, settings[s].name,
                             texel_adjust_fast_covers (fast));
                  covered += texel_adjust_fast_covers (fast);
                  cases++;
                  in = test_image_new (desc->format, w, h, z == 0 ? 1 : 16);
                  test_image_fill_random (in, rand);
                  ref = run_path (texel_adjust_cpu, &plan, in, 0xab, rand);
                  got = run_path (texel_adjust_fast, &plan, in, 0xab, rand);
                  if (memcmp (ref->mem, got->mem, ref->size) != 0)
                    {
                      size_t i;

                      for (i = 0; i < ref->size && ref->mem[i] == got->mem[i];
                           i++)
                        ;
                      g_error (
                          "%s %s colorimetry %d %dx%d: byte %zu is %d, the "
                          "reference's %d",
                          desc->name, settings[s].name, ci, w, h, i,
                          got->mem[i], ref->mem[i]);
                    }
                  test_image_free (in);
                  test_image_free (ref);
                  test_image_free (got);
                }
            }
        }
    }
  g_test_message ("%d of %d cases on the fast path, all exact", covered, cases);
  g_assert_cmpint (covered, >, cases / 2);
  g_free (fast);
  g_rand_free (rand);
}

/* Every luma code and every 8-bit chroma pair (with a hue: the pair
 * table) on a 512 x 512 I420 frame (its 256 x 256 chroma samples take
 * all 65536 pairs); every 10-bit luma code and every 10-bit chroma code
 * on P010. */
static void
test_fast_every_code (void)
{
  static const TexelFormat formats[]
      = { TEXEL_FORMAT_I420, TEXEL_FORMAT_P010_10LE };
  TexelAdjustFast *fast = g_new0 (TexelAdjustFast, 1);
  GRand *rand = g_rand_new_with_seed (7);
  int f, s;

  for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
    {
      for (s = 1; s < 7; s++)
        {
          TexelAdjustConfig config;
          TexelAdjustPlan plan;
          TestImage *in, *ref, *got;
          int x, y, max = f == 0 ? 255 : 1023;

          adjust_config_for (&config, &settings[s], &adjust_colorimetries[0]);
          config.cube = settings[s].lut ? test_cube () : NULL;
          g_assert_cmpint (texel_adjust_plan_init (&plan, &config, formats[f],
                                                   512, 512, NULL),
                           ==, 0);
          texel_adjust_fast_init (fast, &plan);
          g_assert_true (texel_adjust_fast_covers (fast));
          plan.fast = fast;
          in = test_image_new (formats[f], 512, 512, 1);
          for (y = 0; y < 512; y++)
            for (x = 0; x < 512; x++)
              test_image_set (in, 0, x, y,
                              (unsigned)((y * 512 + x) % (max + 1)));
          for (y = 0; y < 256; y++)
            for (x = 0; x < 256; x++)
              {
                test_image_set (in, 1, x, y,
                                f == 0 ? (unsigned)y
                                       : (unsigned)(y * 4 + x % 4));
                test_image_set (in, 2, x, y,
                                f == 0 ? (unsigned)x
                                       : (unsigned)(x * 4 + y % 4));
              }
          ref = run_path (texel_adjust_cpu, &plan, in, 0x54, rand);
          got = run_path (texel_adjust_fast, &plan, in, 0x54, rand);
          g_assert_true (memcmp (ref->mem, got->mem, ref->size) == 0);
          test_image_free (in);
          test_image_free (ref);
          test_image_free (got);
        }
    }
  g_free (fast);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  static const TestCase tests[] = {
    { "/texel/adjust-fast/matches-reference", test_fast_matches_reference },
    { "/texel/adjust-fast/every-code", test_fast_every_code },
  };
  int ret;

  ret = test_run (&argc, &argv, tests, G_N_ELEMENTS (tests));
  texel_cube_free (grade_cube);
  return ret;
}
