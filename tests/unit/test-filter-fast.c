/* gst-texel unit tests: texelfilter's fast CPU path against its oracle,
 * the double-precision reference: random frames of every format, box,
 * gaussian, unsharp, bilateral and Sobel at the settings the GPU tests
 * and the benchmark use (and the extremes: the largest radii, amount 10,
 * the narrowest and widest range), both border modes, both plane
 * settings, odd sizes (1x1 to 64x16) and bands cut at random even rows.
 * The bound (texel-filter-fast.h): box and Sobel exact, gaussian, unsharp
 * and bilateral within 1 code of the reference (the largest difference
 * seen is printed); every byte the reference does not write (padding of
 * the rows) must keep the poison. Coverage is asserted, so that a plan silently
 * falling back is a failure, not a pass; the plans it does not cover (P010)
 * must match exactly (the reference).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "texel-filter.h"
#include "texel-filter-fast.h"

#include "texel-test-filter.h"
#include "texel-test-util.h"

/* A setting left 0 keeps texel_filter_config_init's default. */
typedef FilterSettings Settings;

static const Settings settings[] = {
  { TEXEL_FILTER_GAUSSIAN, 0.5, 0, 0, 0, 0 },
  { TEXEL_FILTER_GAUSSIAN, 1.0, 0, 0, 0, 0 },
  { TEXEL_FILTER_GAUSSIAN, 1.5, 0, 0, 0, 0 },
  { TEXEL_FILTER_GAUSSIAN, 3.3, 0, 0, 0, 0 },
  { TEXEL_FILTER_GAUSSIAN, 10.0, 0, 0, 0, 0 },
  { TEXEL_FILTER_BOX, 0, 0, 0, 0, 1 },
  { TEXEL_FILTER_BOX, 0, 0, 0, 0, 2 },
  { TEXEL_FILTER_BOX, 0, 0, 0, 0, 7 },
  { TEXEL_FILTER_BOX, 0, 0, 0, 0, 32 },
  { TEXEL_FILTER_UNSHARP, 1.0, 1.0, 0, 0, 0 },
  { TEXEL_FILTER_UNSHARP, 0.5, 10.0, 0, 0, 0 },
  { TEXEL_FILTER_UNSHARP, 2.0, 0.3, 0, 0, 0 },
  { TEXEL_FILTER_UNSHARP, 3.3, 2.5, 0, 0, 0 },
  { TEXEL_FILTER_UNSHARP, 10.0, 10.0, 0, 0, 0 },
  { TEXEL_FILTER_BILATERAL, 0, 0, 1.0, 0.1, 0 },
  { TEXEL_FILTER_BILATERAL, 0, 0, 0.6, 0.001, 0 },
  { TEXEL_FILTER_BILATERAL, 0, 0, 1.5, 0.03, 0 },
  { TEXEL_FILTER_BILATERAL, 0, 0, 2.5, 0.3, 0 },
  { TEXEL_FILTER_BILATERAL, 0, 0, 16.0, 1.0, 0 },
  { TEXEL_FILTER_SOBEL, 0, 0, 0, 0, 0 },
};

/* The configuration of @s, border @b and planes @p. */
static void
config_of (TexelFilterConfig *config, const Settings *s, int b, int p)
{
  texel_filter_config_init (config);
  config->filter = s->filter;
  if (s->sigma > 0)
    config->sigma = s->sigma;
  if (s->amount > 0)
    config->amount = s->amount;
  if (s->sigma_space > 0)
    config->sigma_space = s->sigma_space;
  if (s->sigma_range > 0)
    config->sigma_range = s->sigma_range;
  if (s->radius > 0)
    config->radius = s->radius;
  config->border = b ? TEXEL_FILTER_BORDER_MIRROR : TEXEL_FILTER_BORDER_CLAMP;
  config->planes = p ? TEXEL_FILTER_PLANES_ALL : TEXEL_FILTER_PLANES_LUMA;
}

/* @in through @plan by @f in bands cut at random even rows, into an
 * output poisoned with 0xab. */
static TestImage *
run_path (void (*f) (const TexelFilterPlan *, const TexelImage *, TexelImage *,
                     int, int),
          const TexelFilterPlan *plan, const TestImage *in, GRand *rand)
{
  TestImage *out = test_image_new (in->desc->format, plan->width, plan->height,
                                   in->stride_align);
  int row = 0;

  memset (out->mem, 0xab, out->size);
  while (row < plan->height)
    {
      int next = row + 2 * g_rand_int_range (rand, 1, 6);

      if (next > plan->height)
        next = plan->height;
      f (plan, &in->img, &out->img, row, next);
      row = next;
    }
  return out;
}

static void
test_fast_matches_reference (void)
{
  static const int sizes[][2] = { { 37, 23 }, { 64, 16 }, { 2, 1 }, { 1, 5 },
                                  { 1, 1 },   { 2, 3 },   { 7, 5 } };
  GRand *rand = g_rand_new_with_seed (19);
  TexelFilterFast fast;
  int f, s, b, p, z, covered = 0, cases = 0, off_by_one = 0, index = 0;
  int max_diff[TEXEL_FILTER_N_KINDS] = { 0 };

  for (f = 0; f < test_n_formats_10; f++)
    {
      const TexelFormatDesc *desc = texel_format_desc (test_formats_10[f]);

      for (s = 0; s < (int)G_N_ELEMENTS (settings); s++)
        for (b = 0; b < 2; b++)
          for (p = 0; p < 2; p++)
            for (z = 0; z < (int)G_N_ELEMENTS (sizes); z++)
              {
                TexelFilterConfig config;
                TexelFilterPlan plan;
                TestImage *in, *ref, *got;
                int w = sizes[z][0], h = sizes[z][1], expect;
                size_t i;

                /* Under valgrind: one case in 5 (every size and setting
                 * is met: 5 is prime to the loops' counts). */
                if (test_sparse_skip (index++, 5))
                  continue;
                /* The 65 x 65 bilateral costs the reference 4225 taps a
                 * sample: the small sizes only (its window spans them
                 * many times over); 2.5 (11 x 11) runs on every size. */
                if (settings[s].sigma_space > 8 && w * h > 64)
                  continue;
                config_of (&config, &settings[s], b, p);
                g_assert_cmpint (texel_filter_plan_init (
                                     &plan, &config, desc->format, w, h, NULL),
                                 ==, 0);
                texel_filter_fast_init (&fast, &plan);
                plan.fast = &fast;
                expect = desc->bytes_per_sample == 1;
                if (texel_filter_fast_covers (&fast) != expect)
                  g_error ("%s filter %d: covered %d", desc->name,
                           config.filter, texel_filter_fast_covers (&fast));
                covered += expect;
                cases++;
                in = test_image_new (desc->format, w, h, z == 0 ? 1 : 16);
                test_image_fill_random (in, rand);
                ref = run_path (texel_filter_cpu, &plan, in, rand);
                got = run_path (texel_filter_fast, &plan, in, rand);
                for (i = 0; i < ref->size; i++)
                  {
                    int d = abs ((int)got->mem[i] - (int)ref->mem[i]);

                    if (d > (expect && config.filter != TEXEL_FILTER_BOX
                             && config.filter != TEXEL_FILTER_SOBEL))
                      g_error ("%s filter %d sigma %g amount %g sigma-space "
                               "%g sigma-range %g radius %d border %d "
                               "planes %d %dx%d: byte %zu is %d, the "
                               "reference's %d",
                               desc->name, config.filter, config.sigma,
                               config.amount, config.sigma_space,
                               config.sigma_range, config.radius, b, p, w, h, i,
                               got->mem[i], ref->mem[i]);
                    off_by_one += d;
                    if (d > max_diff[config.filter])
                      max_diff[config.filter] = d;
                  }
                test_image_free (in);
                test_image_free (ref);
                test_image_free (got);
              }
    }
  g_test_message ("%d of %d cases on the fast path; %d bytes 1 code off; "
                  "largest difference: gaussian %d, unsharp %d, bilateral %d, "
                  "box %d, Sobel %d",
                  covered, cases, off_by_one, max_diff[TEXEL_FILTER_GAUSSIAN],
                  max_diff[TEXEL_FILTER_UNSHARP],
                  max_diff[TEXEL_FILTER_BILATERAL], max_diff[TEXEL_FILTER_BOX],
                  max_diff[TEXEL_FILTER_SOBEL]);
  g_assert_cmpint (covered, >, cases / 2);
  g_rand_free (rand);
}

/* A 1080p-wide RGBA frame of random codes through the benchmark's
 * settings (gaussian and unsharp sigma 2, the default 5x5 bilateral) and
 * Sobel: the bound holds on a large frame too, and the fast path rarely
 * needs it (Sobel: never). */
static void
test_fast_large (void)
{
  static const Settings large[] = {
    { TEXEL_FILTER_GAUSSIAN, 2.0, 0, 0, 0, 0 },
    { TEXEL_FILTER_UNSHARP, 2.0, 1.0, 0, 0, 0 },
    { TEXEL_FILTER_BILATERAL, 0, 0, 1.0, 0.1, 0 },
    { TEXEL_FILTER_SOBEL, 0, 0, 0, 0, 0 },
  };
  GRand *rand = g_rand_new_with_seed (7);
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 1920, 64, 64);
  int s;

  test_image_fill_random (in, rand);
  for (s = 0; s < (int)G_N_ELEMENTS (large); s++)
    {
      TexelFilterConfig config;
      TexelFilterPlan plan;
      TexelFilterFast fast;
      TestImage *ref, *got;
      size_t i, off = 0;

      config_of (&config, &large[s], 0, 1);
      g_assert_cmpint (texel_filter_plan_init (
                           &plan, &config, TEXEL_FORMAT_RGBA, 1920, 64, NULL),
                       ==, 0);
      texel_filter_fast_init (&fast, &plan);
      g_assert_true (texel_filter_fast_covers (&fast));
      plan.fast = &fast;
      ref = run_path (texel_filter_cpu, &plan, in, rand);
      got = run_path (texel_filter_fast, &plan, in, rand);
      for (i = 0; i < ref->size; i++)
        {
          g_assert_cmpint (abs ((int)got->mem[i] - (int)ref->mem[i]), <=,
                           config.filter != TEXEL_FILTER_SOBEL);
          off += got->mem[i] != ref->mem[i];
        }
      g_test_message ("filter %d: %zu of %zu bytes 1 code off", config.filter,
                      off, ref->size);
      g_assert_cmpuint (off, <, ref->size / 100);
      test_image_free (ref);
      test_image_free (got);
    }
  test_image_free (in);
  g_rand_free (rand);
}

static const TestCase tests[] = {
  { "/texel/filter-fast/matches-reference", test_fast_matches_reference },
  { "/texel/filter-fast/large", test_fast_large },
};

TEST_MAIN (tests)
