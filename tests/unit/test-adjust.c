/* gst-texel unit tests: texeladjust's CPU reference (known values from
 * the formulas of videobalance and the transfer functions, written here
 * independently), its plan, and the kernels' float code run on the host
 * with the GPU intrinsics' worst errors injected, against the reference.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The kernels' float code calls these instead of log2f / exp2f on the
 * host: the GPU's __log2f and exp2f with their documented worst error,
 * pushed in the direction inject_sign says (0: none). */
static float test_log2f (float x);
static float test_exp2f (float x);
static float test_divf (float a, float b);
static float test_lut3d_weight (float f);
#define TEXEL_ADJUST_HOST_LOG2F test_log2f
#define TEXEL_ADJUST_HOST_EXP2F test_exp2f
#define TEXEL_ADJUST_HOST_DIVF test_divf
#define TEXEL_ADJUST_HOST_LUT3D_WEIGHT test_lut3d_weight
#include "texel-adjust-pixel.h"

#include "texel-gst-def.h"
#include "texel-test-adjust.h"
#include "texel-test-luts.h"
#include "texel-test-util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int inject_sign;

/* Hardware filtering's 3D LUT weights: 9-bit fixed point with 8
 * fractional bits (CUDA C++ Programming Guide). Whether the hardware
 * rounds or truncates is not documented: both are emulated. */
typedef enum
{
  WEIGHT_EXACT = 0,
  WEIGHT_TRUNCATE,
  WEIGHT_ROUND
} WeightMode;

static WeightMode weight_mode;

static float
test_lut3d_weight (float f)
{
  if (weight_mode == WEIGHT_TRUNCATE)
    return floorf (f * 256.0f) / 256.0f;
  if (weight_mode == WEIGHT_ROUND)
    return rintf (f * 256.0f) / 256.0f;
  return f;
}

/* __fdividef: <= 2 ulp. */
static float
test_divf (float a, float b)
{
  return a / b * (1.0f + inject_sign * 0x1p-22f);
}

/* __log2f: absolute error <= 2^-22 in [0.5, 2], else <= 2 ulp. */
static float
test_log2f (float x)
{
  float r = log2f (x);

  if (inject_sign == 0 || !isfinite (r))
    return r;
  if (x >= 0.5f && x <= 2.0f)
    return r + inject_sign * 0x1p-22f;
  return r * (1.0f + inject_sign * 0x1p-22f);
}

/* exp2f on the GPU: <= 2 ulp. */
static float
test_exp2f (float x)
{
  return exp2f (x) * (1.0f + inject_sign * 0x1p-22f);
}

/* Checks a code against an exact value: equal to it rounded, or (where
 * the value lies within 1e-6 of a half code, computed another way) to
 * either neighbour. */
static void
check_code (unsigned got, double exact, double max, const char *what, int x,
            int y)
{
  double r = CLAMP (floor (exact + 0.5), 0.0, max);
  double frac = exact - floor (exact);

  if (got == r)
    return;
  if (fabs (frac - 0.5) < 1e-6 && fabs (got - exact) < 0.5 + 1e-6)
    return;
  g_error ("%s at (%d, %d): got %u, expected %g (exactly %.9f)", what, x, y,
           got, r, exact);
}

static TestImage *
adjust_cpu (const TexelAdjustPlan *plan, const TestImage *in)
{
  TestImage *out = test_image_new (in->img.format, in->img.width,
                                   in->img.height, in->stride_align);

  memset (out->mem, 0x5a, out->size);
  texel_adjust_cpu (plan, &in->img, &out->img, 0, in->img.height);
  return out;
}

/* The kernel's code, block by block, on the host. */
static TestImage *
adjust_float (const TexelAdjustPlan *plan, const TestImage *in)
{
  TestImage *out = test_image_new (in->img.format, in->img.width,
                                   in->img.height, in->stride_align);
  const TexelAdjustKernelPlan *k = &plan->kernel;
  TexelAdjustLut3dSource lut3d
      = { 0, 0, plan->cube ? plan->cube->table : NULL };
  int bw = -((-k->width) >> k->x_shift);
  int bh = -((-k->height) >> k->y_shift);
  int bx, by;

  memset (out->mem, 0xa5, out->size);
  for (by = 0; by < bh; by++)
    for (bx = 0; bx < bw; bx++)
      texel_adjust_block_f (k, k->kind, &k->lut[0][0], &k->gst.table[0][0],
                            &lut3d, &in->img, &out->img, bx, by);
  return out;
}

static void
plan_for (TexelAdjustPlan *plan, const TexelAdjustConfig *config,
          TexelFormat format, int width, int height)
{
  const char *why = NULL;

  if (texel_adjust_plan_init (plan, config, format, width, height, &why))
    g_error ("plan for %s: %s", texel_format_desc (format)->name, why);
}

/* ------------------------------------------------------------------ */

/* Neutral settings give back the input exactly, on every format, in the
 * reference and in the kernels' code (the element is passthrough then,
 * but the plan must not depend on it). */
static void
test_neutral_identity (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  int f;

  for (f = 0; f < test_n_formats_10; f++)
    {
      TexelAdjustConfig config;
      TexelAdjustPlan plan;
      TestImage *in = test_image_new (test_formats_10[f], 13, 7, 1);
      TestImage *cpu, *flt;

      test_image_fill_random (in, rand);
      texel_adjust_config_init (&config);
      g_assert_true (texel_adjust_config_is_neutral (&config));
      plan_for (&plan, &config, in->img.format, 13, 7);
      cpu = adjust_cpu (&plan, in);
      flt = adjust_float (&plan, in);
      if (!test_image_payload_equal (in, cpu))
        g_error ("%s: the reference changed a neutral frame", in->desc->name);
      if (!test_image_payload_equal (in, flt))
        g_error ("%s: the float code changed a neutral frame", in->desc->name);
      test_image_free (cpu);
      test_image_free (flt);
      test_image_free (in);
    }
  g_rand_free (rand);
}

/* ------------------------------------------------------------------ */
/* gamma and videobalance against their definitions (texel-gst-def.h). */

static TestImage *
image_copy (const TestImage *in)
{
  TestImage *t = test_image_new (in->img.format, in->img.width, in->img.height,
                                 in->stride_align);

  memcpy (t->mem, in->mem, in->size);
  return t;
}

/* `gamma ! videobalance` on frame @in: the expected output. */
static TestImage *
def_gamma_videobalance (const GstSettings *g, const TestImage *in)
{
  TestImage *out = image_copy (in);
  int s = in->desc->bits == 10 ? 4 : 1, x, y, c;

  if (!in->desc->is_yuv)
    {
      for (y = 0; y < in->img.height; y++)
        for (x = 0; x < in->img.width; x++)
          {
            int rgb[3];

            for (c = 0; c < 3; c++)
              rgb[c] = test_image_get (in, c, x, y);
            def_rgb (g, rgb);
            for (c = 0; c < 3; c++)
              test_image_set (out, c, x, y, rgb[c]);
          }
      return out;
    }
  for (y = 0; y < in->img.height; y++)
    for (x = 0; x < in->img.width; x++)
      test_image_set (
          out, 0, x, y,
          def_luma (g, def_gamma (g, test_image_get (in, 0, x, y), s), s));
  if (!test_has_comp (in, 1))
    return out;
  for (y = 0; y < test_comp_height (in, 1); y++)
    for (x = 0; x < test_comp_width (in, 1); x++)
      {
        int uv[2];

        def_chroma (g, test_image_get (in, 1, x, y),
                    test_image_get (in, 2, x, y), s, uv);
        test_image_set (out, 1, x, y, uv[0]);
        test_image_set (out, 2, x, y, uv[1]);
      }
  return out;
}

static void
gst_config (TexelAdjustConfig *config, const GstSettings *g)
{
  config->gamma = g->gamma;
  config->brightness = g->brightness;
  config->contrast = g->contrast;
  config->saturation = g->saturation;
  config->hue = g->hue;
}

typedef struct
{
  guint64 samples, over0, over1, over2;
  int max;
} Diff;

static void
compare (const TestImage *a, const TestImage *b, Diff *d)
{
  int c, x, y;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      if (!test_has_comp (a, c))
        continue;
      for (y = 0; y < test_comp_height (a, c); y++)
        for (x = 0; x < test_comp_width (a, c); x++)
          {
            int e = abs ((int)test_image_get (a, c, x, y)
                         - (int)test_image_get (b, c, x, y));

            d->samples++;
            d->over0 += e > 0;
            d->over1 += e > 1;
            d->over2 += e > 2;
            d->max = MAX (d->max, e);
          }
    }
}

/* The reference and the kernels' code give exactly the codes of the
 * definitions, every format and range, both ranges and three matrices
 * (which the elements ignore). 10-bit gamma is float in the kernels:
 * within a code there. */
static void
test_gst_definition (void)
{
  GRand *rand = g_rand_new_with_seed (3);
  int s, f, full;

  for (s = 0; s < (int)DEF_N_SETTINGS; s++)
    {
      for (f = 0; f < test_n_formats_10; f++)
        {
          for (full = 0; full < 2; full++)
            {
              TexelAdjustConfig config;
              TexelAdjustPlan plan;
              TestImage *in = test_image_new (test_formats_10[f], 34, 18, 1);
              TestImage *want, *cpu, *flt;
              Diff dc = { 0 }, df = { 0 };

              test_image_fill_random (in, rand);
              texel_adjust_config_init (&config);
              gst_config (&config, &def_settings[s]);
              config.full_range = full;
              config.matrix = full ? TEXEL_MATRIX_BT601 : TEXEL_MATRIX_BT709;
              plan_for (&plan, &config, in->img.format, 34, 18);
              want = def_gamma_videobalance (&def_settings[s], in);
              cpu = adjust_cpu (&plan, in);
              flt = adjust_float (&plan, in);
              compare (want, cpu, &dc);
              compare (want, flt, &df);
              if (dc.over0
                  || (in->desc->bits == 10 && def_settings[s].gamma != 1.0
                          ? df.over1
                          : df.over0))
                g_error (
                    "settings %d, %s, %s range: %" G_GUINT64_FORMAT
                    " samples of the reference off (max %d), %" G_GUINT64_FORMAT
                    " of the kernels' code (max %d)",
                    s, in->desc->name, full ? "full" : "limited", dc.over0,
                    dc.max, df.over0, df.max);
              test_image_free (want);
              test_image_free (cpu);
              test_image_free (flt);
              test_image_free (in);
            }
        }
    }
  g_rand_free (rand);
}

/* The values of issue #15: brightness 0.3 adds 0.3 * 255 to Y' in
 * limited range too (126 -> 202: 202.5, halves to even); gamma 0.7 on RGB
 * (200, 40, 40) powers Y' alone: (162, 2, 1). */
static void
test_gst_known_values (void)
{
  static const unsigned grey[4] = { 126, 128, 128, 0 };
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *in = test_image_new (TEXEL_FORMAT_I420, 2, 2, 1);
  TestImage *out;
  int c;

  texel_adjust_config_init (&config);
  config.brightness = 0.3;
  plan_for (&plan, &config, TEXEL_FORMAT_I420, 2, 2);
  test_image_fill_solid (in, grey);
  out = adjust_cpu (&plan, in);
  g_assert_cmpuint (test_image_get (out, 0, 0, 0), ==, 202);
  test_image_free (out);
  test_image_free (in);

  texel_adjust_config_init (&config);
  config.gamma = 0.7;
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 1, 1);
  in = test_image_new (TEXEL_FORMAT_RGBA, 1, 1, 1);
  test_image_set (in, 0, 0, 0, 200);
  test_image_set (in, 1, 0, 0, 40);
  test_image_set (in, 2, 0, 0, 40);
  test_image_set (in, 3, 0, 0, 77);
  for (c = 0; c < 2; c++)
    {
      out = c ? adjust_float (&plan, in) : adjust_cpu (&plan, in);
      g_assert_cmpuint (test_image_get (out, 0, 0, 0), ==, 162);
      g_assert_cmpuint (test_image_get (out, 1, 0, 0), ==, 2);
      g_assert_cmpuint (test_image_get (out, 2, 0, 0), ==, 1);
      g_assert_cmpuint (test_image_get (out, 3, 0, 0), ==, 77);
      test_image_free (out);
    }
  test_image_free (in);
}

/* With the linear stage active, gamma and videobalance act on the codes
 * it gives: texeladjust A B = texeladjust A ! gamma ! videobalance (B:
 * the GStreamer settings). */
static void
test_gst_after_linear (void)
{
  GRand *rand = g_rand_new_with_seed (13);
  int s, f;

  for (s = 0; s < (int)DEF_N_SETTINGS; s++)
    {
      for (f = 0; f < test_n_formats_10; f++)
        {
          TexelAdjustConfig config;
          TexelAdjustPlan plan;
          TestImage *in = test_image_new (test_formats_10[f], 22, 10, 1);
          TestImage *linear, *want, *got;
          Diff d = { 0 };

          test_image_fill_random (in, rand);
          texel_adjust_config_init (&config);
          config.exposure = 0.4;
          config.gain[2] = 0.8;
          config.linear_gamma = 1.3;
          config.vignette = s & 1 ? 0.5 : 0.0;
          plan_for (&plan, &config, in->img.format, 22, 10);
          linear = adjust_cpu (&plan, in);
          want = def_gamma_videobalance (&def_settings[s], linear);
          gst_config (&config, &def_settings[s]);
          plan_for (&plan, &config, in->img.format, 22, 10);
          got = adjust_cpu (&plan, in);
          compare (want, got, &d);
          if (d.over0)
            g_error ("settings %d, %s: not the chain (max %d off)", s,
                     in->desc->name, d.max);
          test_image_free (linear);
          test_image_free (want);
          test_image_free (got);
          test_image_free (in);
        }
    }
  g_rand_free (rand);
}

/* Independent transfer functions (GStreamer's video-color.c). */
static double
srgb_decode (double v)
{
  return v < 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

static double
srgb_encode (double l)
{
  return l < 0.0031308 ? 12.92 * l : 1.055 * pow (l, 1.0 / 2.4) - 0.055;
}

/* BT.709 with BT.2020's precise constants. */
#define BT_A 0.09929682680944
#define BT_B 0.018053968510807

static double
bt709_decode (double v)
{
  return v < 4.5 * BT_B ? v / 4.5 : pow ((v + BT_A) / (1 + BT_A), 1.0 / 0.45);
}

static double
bt709_encode (double l)
{
  return l < BT_B ? 4.5 * l : (1 + BT_A) * pow (l, 0.45) - BT_A;
}

static void
test_transfer (void)
{
  static const TexelTransfer all[] = {
    TEXEL_TRANSFER_BT709,   TEXEL_TRANSFER_SRGB,    TEXEL_TRANSFER_LINEAR,
    TEXEL_TRANSFER_GAMMA18, TEXEL_TRANSFER_GAMMA22, TEXEL_TRANSFER_GAMMA28
  };
  int t, i;

  for (t = 0; t < (int)G_N_ELEMENTS (all); t++)
    {
      TexelAdjustConfig config;
      TexelAdjustPlan plan;

      texel_adjust_config_init (&config);
      config.transfer = all[t];
      plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 1, 1);
      for (i = 0; i <= 1000; i++)
        {
          double v = i / 1000.0;
          double l = texel_transfer_decode (&plan.curve, v);

          /* Neutral settings: the curve is the identity. */
          g_assert_cmpfloat (
              fabs (texel_adjust_curve_d (&plan.curve, 0, v, 1.0) - v), <,
              1e-9);
          if (all[t] == TEXEL_TRANSFER_SRGB)
            {
              g_assert_cmpfloat (fabs (l - srgb_decode (v)), <, 1e-12);
              g_assert_cmpfloat (fabs (texel_transfer_encode (&plan.curve, l)
                                       - srgb_encode (l)),
                                 <, 1e-12);
            }
          else if (all[t] == TEXEL_TRANSFER_BT709)
            {
              g_assert_cmpfloat (fabs (l - bt709_decode (v)), <, 1e-12);
              g_assert_cmpfloat (fabs (texel_transfer_encode (&plan.curve, l)
                                       - bt709_encode (l)),
                                 <, 1e-12);
            }
        }
    }
}

/* Exposure and gains on sRGB frames: each channel decoded, multiplied,
 * clipped and encoded. A gain of 0 gives black in its channel. */
static void
test_exposure_gains_rgb (void)
{
  GRand *rand = g_rand_new_with_seed (8);
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *in = test_image_new (TEXEL_FORMAT_BGRX, 16, 16, 1);
  TestImage *out;
  double k[3];
  int x, y, c;

  test_image_fill_random (in, rand);
  texel_adjust_config_init (&config);
  config.transfer = TEXEL_TRANSFER_SRGB;
  config.exposure = 1.0;
  config.gain[0] = 0.0;
  config.gain[2] = 0.7;
  plan_for (&plan, &config, TEXEL_FORMAT_BGRX, 16, 16);
  g_assert_true (plan.kernel.linear);
  out = adjust_cpu (&plan, in);
  for (c = 0; c < 3; c++)
    k[c] = 2.0 * config.gain[c];
  for (y = 0; y < 16; y++)
    for (x = 0; x < 16; x++)
      for (c = 0; c < 3; c++)
        {
          double l = MIN (
              1.0, k[c] * srgb_decode (test_image_get (in, c, x, y) / 255.0));
          double want = floor (srgb_encode (l) * 255.0 + 0.5);

          g_assert_cmpfloat (fabs (test_image_get (out, c, x, y) - want), <=,
                             0.0);
        }
  test_image_free (out);
  test_image_free (in);
  g_rand_free (rand);
}

/* Gamma on linear-light frames (GAMMA10 caps): code^(1/gamma), but for
 * the toe below 2^-12, which no 8-bit code but 0 reaches. */
static void
test_gamma_linear (void)
{
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *in = test_image_new (TEXEL_FORMAT_GRAY8, 256, 1, 1);
  TestImage *out;
  int i;

  for (i = 0; i < 256; i++)
    test_image_set (in, 0, i, 0, i);
  texel_adjust_config_init (&config);
  config.transfer = TEXEL_TRANSFER_LINEAR;
  config.full_range = 1;
  config.linear_gamma = 2.0;
  plan_for (&plan, &config, TEXEL_FORMAT_GRAY8, 256, 1);
  g_assert_cmpint (plan.kernel.kind, ==, TEXEL_ADJUST_KIND_LUT);
  out = adjust_cpu (&plan, in);
  for (i = 0; i < 256; i++)
    g_assert_cmpuint (test_image_get (out, 0, i, 0), ==,
                      (unsigned)floor (255.0 * sqrt (i / 255.0) + 0.5));
  test_image_free (out);
  test_image_free (in);
}

/* The curve is continuous and monotonic at its knees and at the toe,
 * with every tone map. */
static void
test_curve_continuous (void)
{
  static const double gammas[] = { 0.01, 0.5, 1.0, 2.2, 10.0 };
  int g, t, i, tm;

  for (t = TEXEL_TRANSFER_BT709; t <= TEXEL_TRANSFER_GAMMA28; t++)
    {
      for (g = 0; g < (int)G_N_ELEMENTS (gammas); g++)
        {
          for (tm = TEXEL_TONE_MAP_NONE; tm <= TEXEL_TONE_MAP_FILMIC; tm++)
            {
              TexelAdjustConfig config;
              TexelAdjustPlan plan;
              double prev = -1.0;

              texel_adjust_config_init (&config);
              config.transfer = (TexelTransfer)t;
              config.linear_gamma = gammas[g];
              config.tone_map = (TexelToneMap)tm;
              config.exposure = 1.5;
              plan_for (&plan, &config, TEXEL_FORMAT_RGB, 1, 1);
              for (i = 0; i <= 100000; i++)
                {
                  double v = texel_adjust_curve_d (&plan.curve, 1, i / 100000.0,
                                                   1.0);

                  g_assert_cmpfloat (v, >=, prev - 1e-9);
                  g_assert_cmpfloat (v, <=, 1.0 + 1e-12);
                  prev = v;
                }
            }
        }
    }
}

/* 4:2:0 with the linear stage: luma per pixel with the block's chroma,
 * chroma the mean of the block's results. */
static void
test_chroma_mean (void)
{
  GRand *rand = g_rand_new_with_seed (21);
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *in = test_image_new (TEXEL_FORMAT_NV12, 7, 5, 1);
  TestImage *out;
  int bx, by, x, y;

  test_image_fill_random (in, rand);
  texel_adjust_config_init (&config);
  config.linear_gamma = 1.7;
  config.gain[2] = 1.3;
  /* (Stage 2 after the mean: test_gst_after_linear.) */
  plan_for (&plan, &config, TEXEL_FORMAT_NV12, 7, 5);
  g_assert_cmpint (plan.kernel.kind, ==, TEXEL_ADJUST_KIND_YUV_RGB);
  out = adjust_cpu (&plan, in);
  for (by = 0; by < 3; by++)
    for (bx = 0; bx < 4; bx++)
      {
        double qb = test_image_get (in, 1, bx, by) - 128.0;
        double qr = test_image_get (in, 2, bx, by) - 128.0;
        double sum[2] = { 0, 0 }, v[3];
        int n = 0;

        for (y = 2 * by; y < MIN (5, 2 * by + 2); y++)
          for (x = 2 * bx; x < MIN (7, 2 * bx + 2); x++)
            {
              texel_adjust_yuv_pixel_d (
                  &plan, test_image_get (in, 0, x, y) - 16.0, qb, qr, 1.0, v);
              g_assert_cmpfloat (
                  fabs (test_image_get (out, 0, x, y)
                        - CLAMP (floor (v[0] * 255.0 + 0.5), 0, 255)),
                  <=, 0.0);
              sum[0] += v[1];
              sum[1] += v[2];
              n++;
            }
        g_assert_cmpfloat (
            fabs (test_image_get (out, 1, bx, by)
                  - CLAMP (floor (sum[0] / n * 255.0 + 0.5), 0, 255)),
            <=, 0.0);
        g_assert_cmpfloat (
            fabs (test_image_get (out, 2, bx, by)
                  - CLAMP (floor (sum[1] / n * 255.0 + 0.5), 0, 255)),
            <=, 0.0);
      }
  test_image_free (out);
  test_image_free (in);
  g_rand_free (rand);
}

/* Rows in bands (even cuts, as the element makes them) give the same
 * frame, and no band writes outside its rows. */
static void
test_bands (void)
{
  GRand *rand = g_rand_new_with_seed (9);
  int f;

  for (f = 0; f < test_n_formats_10; f++)
    {
      TexelAdjustConfig config;
      TexelAdjustPlan plan;
      TestImage *in = test_image_new (test_formats_10[f], 11, 9, 1);
      TestImage *whole, *banded;

      test_image_fill_random (in, rand);
      texel_adjust_config_init (&config);
      config.linear_gamma = 0.8;
      config.hue = 0.2;
      /* Position dependent: still a function of the rows alone. */
      config.vignette = 0.7;
      plan_for (&plan, &config, in->img.format, 11, 9);
      whole = adjust_cpu (&plan, in);
      banded = test_image_new (in->img.format, 11, 9, 1);
      memset (banded->mem, 0x5a, banded->size);
      texel_adjust_cpu (&plan, &in->img, &banded->img, 0, 4);
      texel_adjust_cpu (&plan, &in->img, &banded->img, 4, 6);
      texel_adjust_cpu (&plan, &in->img, &banded->img, 6, 9);
      g_assert_cmpmem (whole->mem, whole->size, banded->mem, banded->size);
      test_image_free (whole);
      test_image_free (banded);
      test_image_free (in);
    }
  g_rand_free (rand);
}

static void
test_plan_rejects (void)
{
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  const char *why = NULL;

  texel_adjust_config_init (&config);
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_UNKNOWN, 4, 4, &why),
      ==, -1);
  g_assert_nonnull (why);
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 0, 4, NULL),
      ==, -1);
  config.linear_gamma = 0.0;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  config.linear_gamma = NAN;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  texel_adjust_config_init (&config);
  config.gamma = 0.0;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  config.gamma = NAN;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  texel_adjust_config_init (&config);
  config.exposure = 10.5;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  texel_adjust_config_init (&config);
  config.gain[1] = -0.1;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  texel_adjust_config_init (&config);
  config.vignette = 3.5;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  config.vignette = NAN;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  texel_adjust_config_init (&config);
  config.tone_map = (TexelToneMap)7;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, -1);
  texel_adjust_config_init (&config);
  {
    /* A table the parser would never give. */
    TexelCube bad = { 0 };

    bad.size = 1;
    config.cube = &bad;
    g_assert_cmpint (
        texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, &why),
        ==, -1);
    g_assert_cmpstr (why, ==, "invalid 3D LUT");
  }
  texel_adjust_config_init (&config);
  config.gain[1] = 4.0;
  config.exposure = -10.0;
  config.linear_gamma = 10.0;
  config.vignette = -1.0;
  config.white_point = 15000.0;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 4, 4, NULL),
      ==, 0);
}

/* Tone maps on linear-light RGB frames (GAMMA10 caps): each channel
 * becomes T (k * code / 255), with T written here from the papers'
 * formulas (Reinhard et al. 2002; Narkowicz 2015). */
static double
reinhard (double x)
{
  return x / (1.0 + x);
}

static double
narkowicz (double x)
{
  double a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;

  return MIN (1.0, (x * (a * x + b)) / (x * (c * x + d) + e));
}

static void
test_tone_map (void)
{
  GRand *rand = g_rand_new_with_seed (17);
  TestImage *in = test_image_new (TEXEL_FORMAT_RGB, 32, 8, 1);
  int tm, x, y, c;

  test_image_fill_random (in, rand);
  for (tm = TEXEL_TONE_MAP_REINHARD; tm <= TEXEL_TONE_MAP_FILMIC; tm++)
    {
      TexelAdjustConfig config;
      TexelAdjustPlan plan;
      TestImage *out;

      texel_adjust_config_init (&config);
      config.transfer = TEXEL_TRANSFER_LINEAR;
      config.tone_map = (TexelToneMap)tm;
      config.exposure = 2.0;
      config.gain[1] = 0.5;
      g_assert_false (texel_adjust_config_is_neutral (&config));
      plan_for (&plan, &config, TEXEL_FORMAT_RGB, 32, 8);
      out = adjust_cpu (&plan, in);
      for (y = 0; y < 8; y++)
        for (x = 0; x < 32; x++)
          for (c = 0; c < 3; c++)
            {
              double v
                  = 4.0 * config.gain[c] * test_image_get (in, c, x, y) / 255.0;
              double t = tm == TEXEL_TONE_MAP_REINHARD ? reinhard (v)
                                                       : narkowicz (v);

              check_code (test_image_get (out, c, x, y), 255.0 * t, 255.0,
                          tm == TEXEL_TONE_MAP_REINHARD ? "reinhard" : "filmic",
                          x, y);
            }
      test_image_free (out);
    }
  /* Known points: Reinhard 1 -> 1/2; filmic 1 -> 2.54 / 3.16, 0 -> 0,
   * large -> 1. */
  g_assert_cmpfloat (
      fabs (texel_tone_map_d (TEXEL_TONE_MAP_REINHARD, 1.0) - 0.5), <, 1e-15);
  g_assert_cmpfloat (
      fabs (texel_tone_map_d (TEXEL_TONE_MAP_FILMIC, 1.0) - 2.54 / 3.16), <,
      1e-15);
  g_assert_cmpfloat (texel_tone_map_d (TEXEL_TONE_MAP_FILMIC, 0.0), ==, 0.0);
  g_assert_cmpfloat (texel_tone_map_d (TEXEL_TONE_MAP_FILMIC, 8.0), ==, 1.0);
  test_image_free (in);
  g_rand_free (rand);
}

/* ------------------------------------------------------------------ */
/* Vignette */

/* r^2 of luma pixel (x, y): centre distance over the half-diagonal. */
static double
radius2 (int x, int y, int w, int h)
{
  double dx = x + 0.5 - w / 2.0, dy = y + 0.5 - h / 2.0;

  return (dx * dx + dy * dy) / (w * w / 4.0 + h * h / 4.0);
}

/* Linear-light frames (GAMMA10): every channel multiplied by 1 + s r^2,
 * clipped; the centre of an odd-sized frame is unchanged; corners get
 * 1 + s. Also a darkening strength. */
static void
test_vignette_rgb (void)
{
  static const double strengths[] = { 1.0, -0.6, 3.0 };
  GRand *rand = g_rand_new_with_seed (19);
  TestImage *in = test_image_new (TEXEL_FORMAT_BGRA, 33, 21, 1);
  int s, x, y, c;

  test_image_fill_random (in, rand);
  for (s = 0; s < (int)G_N_ELEMENTS (strengths); s++)
    {
      TexelAdjustConfig config;
      TexelAdjustPlan plan;
      TestImage *out;

      texel_adjust_config_init (&config);
      config.transfer = TEXEL_TRANSFER_LINEAR;
      config.vignette = strengths[s];
      g_assert_false (texel_adjust_config_is_neutral (&config));
      plan_for (&plan, &config, TEXEL_FORMAT_BGRA, 33, 21);
      g_assert_cmpint (plan.kernel.kind, ==, TEXEL_ADJUST_KIND_RGB_PIXEL);
      g_assert_cmpfloat (fabs (texel_adjust_vignette_d (&plan, 16, 10) - 1.0),
                         <, 1e-15);
      /* The corner pixel's centre is half a pixel inside the corner. */
      g_assert_cmpfloat (fabs (texel_adjust_vignette_d (&plan, 0, 0) - 1.0
                               - strengths[s] * radius2 (0, 0, 33, 21)),
                         <, 1e-12);
      out = adjust_cpu (&plan, in);
      for (y = 0; y < 21; y++)
        for (x = 0; x < 33; x++)
          for (c = 0; c < 4; c++)
            {
              double v = test_image_get (in, c, x, y);
              double want
                  = c == 3 ? v
                           : MIN (255.0,
                                  (1.0 + strengths[s] * radius2 (x, y, 33, 21))
                                      * v);

              check_code (test_image_get (out, c, x, y), want, 255.0,
                          "vignette", x, y);
            }
      test_image_free (out);
    }
  test_image_free (in);
  g_rand_free (rand);
}

/* 4:2:0 with a vignette: each luma pixel with its own gain and the
 * block's chroma; chroma the mean of the block's results. GRAY8 goes
 * per pixel too. */
static void
test_vignette_yuv (void)
{
  GRand *rand = g_rand_new_with_seed (23);
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *in = test_image_new (TEXEL_FORMAT_I420, 9, 7, 1);
  TestImage *gray = test_image_new (TEXEL_FORMAT_GRAY8, 9, 7, 1);
  TestImage *out;
  int bx, by, x, y;

  test_image_fill_random (in, rand);
  test_image_fill_random (gray, rand);
  texel_adjust_config_init (&config);
  config.vignette = 1.2;
  config.linear_gamma = 1.3;
  plan_for (&plan, &config, TEXEL_FORMAT_I420, 9, 7);
  g_assert_cmpint (plan.kernel.kind, ==, TEXEL_ADJUST_KIND_YUV_RGB);
  out = adjust_cpu (&plan, in);
  for (by = 0; by < 4; by++)
    for (bx = 0; bx < 5; bx++)
      {
        double qb = test_image_get (in, 1, bx, by) - 128.0;
        double qr = test_image_get (in, 2, bx, by) - 128.0;
        double sum[2] = { 0, 0 }, v[3];
        int n = 0;

        for (y = 2 * by; y < MIN (7, 2 * by + 2); y++)
          for (x = 2 * bx; x < MIN (9, 2 * bx + 2); x++)
            {
              texel_adjust_yuv_pixel_d (
                  &plan, test_image_get (in, 0, x, y) - 16.0, qb, qr,
                  1.0 + 1.2 * radius2 (x, y, 9, 7), v);
              check_code (test_image_get (out, 0, x, y), v[0] * 255.0, 255.0,
                          "Y", x, y);
              sum[0] += v[1];
              sum[1] += v[2];
              n++;
            }
        check_code (test_image_get (out, 1, bx, by), sum[0] / n * 255.0, 255.0,
                    "U", bx, by);
        check_code (test_image_get (out, 2, bx, by), sum[1] / n * 255.0, 255.0,
                    "V", bx, by);
      }
  test_image_free (out);

  config.full_range = 1;
  plan_for (&plan, &config, TEXEL_FORMAT_GRAY8, 9, 7);
  g_assert_cmpint (plan.kernel.kind, ==, TEXEL_ADJUST_KIND_YUV_RGB);
  out = adjust_cpu (&plan, gray);
  for (y = 0; y < 7; y++)
    for (x = 0; x < 9; x++)
      {
        double v[3];

        texel_adjust_yuv_pixel_d (&plan, test_image_get (gray, 0, x, y), 0.0,
                                  0.0, 1.0 + 1.2 * radius2 (x, y, 9, 7), v);
        check_code (test_image_get (out, 0, x, y), v[0] * 255.0, 255.0, "GRAY8",
                    x, y);
      }
  test_image_free (out);
  test_image_free (gray);
  test_image_free (in);
  g_rand_free (rand);
}

/* ------------------------------------------------------------------ */
/* White point */

/* The CIE 1931 colour matching functions as fitted by Wyman, Sloan and
 * Shirley ("Simple analytic approximations to the CIE XYZ color matching
 * functions", JCGT 2013, multi-lobe fit): an independent way to the
 * Planckian locus, through Planck's law. */
static double
lobe (double l, double mu, double inv_lo, double inv_hi)
{
  double t = (l - mu) * (l < mu ? inv_lo : inv_hi);

  return exp (-0.5 * t * t);
}

static void
planck_xy_integrated (double kelvin, double *x, double *y)
{
  const double c2 = 1.4388e-2; /* m K */
  double sx = 0, sy = 0, sz = 0;
  int nm;

  for (nm = 360; nm <= 830; nm++)
    {
      double l = nm * 1e-9;
      double m = 1.0 / (pow (l, 5) * (exp (c2 / (l * kelvin)) - 1.0));

      sx += m
            * (0.362 * lobe (nm, 442.0, 0.0624, 0.0374)
               + 1.056 * lobe (nm, 599.8, 0.0264, 0.0323)
               - 0.065 * lobe (nm, 501.1, 0.0490, 0.0382));
      sy += m
            * (0.821 * lobe (nm, 568.8, 0.0213, 0.0247)
               + 0.286 * lobe (nm, 530.9, 0.0613, 0.0322));
      sz += m
            * (1.217 * lobe (nm, 437.0, 0.0845, 0.0278)
               + 0.681 * lobe (nm, 459.0, 0.0385, 0.0725));
    }
  *x = sx / (sx + sy + sz);
  *y = sy / (sx + sy + sz);
}

/* The locus against CIE illuminant A (a black body at 2856 K: x 0.44757,
 * y 0.40745) and against Planck's law integrated with the fitted colour
 * matching functions (whose own error, up to 1.6e-3 at 2500 K, sets the
 * tolerance). */
static void
test_planckian_locus (void)
{
  double x, y, xi, yi;
  int t;

  texel_planckian_xy (2856.0, &x, &y);
  g_assert_cmpfloat (fabs (x - 0.44757), <, 1e-3);
  g_assert_cmpfloat (fabs (y - 0.40745), <, 1e-3);
  for (t = 2500; t <= 15000; t += 250)
    {
      texel_planckian_xy (t, &x, &y);
      planck_xy_integrated (t, &xi, &yi);
      if (fabs (x - xi) > 2e-3 || fabs (y - yi) > 2e-3)
        g_error ("%d K: locus (%.5f, %.5f), integrated (%.5f, %.5f)", t, x, y,
                 xi, yi);
    }
}

/* sRGB's published matrices (IEC 61966-2-1, 4 decimals). */
static const double srgb_to_xyz[3][3] = { { 0.4124, 0.3576, 0.1805 },
                                          { 0.2126, 0.7152, 0.0722 },
                                          { 0.0193, 0.1192, 0.9505 } };

static const double xyz_to_srgb[3][3] = { { 3.2406, -1.5372, -0.4986 },
                                          { -0.9689, 1.8758, 0.0415 },
                                          { 0.0557, -0.2040, 1.0570 } };

static void
mat3_apply (const double m[3][3], const double v[3], double r[3])
{
  int i;

  for (i = 0; i < 3; i++)
    r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
}

/* With BT.709 primaries the white point's gains turn the linear RGB of
 * the Planckian white at T into that of the white at 6500 K with the
 * same luminance (computed with sRGB's published matrices); they are 1
 * at 6500 K exactly; and lower temperatures raise blue and lower red. */
static void
test_white_point_gains (void)
{
  TexelAdjustConfig config;
  double m[3][3], prev[3] = { 0, 0, 0 }, ref[3], xyz[3];
  double x, y;
  int t, i, c;

  texel_adjust_config_init (&config);
  texel_rgb_to_xyz (config.primaries, m);
  for (i = 0; i < 3; i++)
    for (c = 0; c < 3; c++)
      g_assert_cmpfloat (fabs (m[i][c] - srgb_to_xyz[i][c]), <, 1e-4);

  texel_white_point_gains (config.primaries, 6500.0, ref);
  for (c = 0; c < 3; c++)
    g_assert_cmpfloat (ref[c], ==, 1.0);
  texel_planckian_xy (6500.0, &x, &y);
  xyz[0] = x / y;
  xyz[1] = 1.0;
  xyz[2] = (1.0 - x - y) / y;
  mat3_apply (xyz_to_srgb, xyz, ref);

  for (t = 2500; t <= 15000; t += 100)
    {
      double gains[3], lit[3], out[3], out_xyz[3];

      texel_white_point_gains (config.primaries, t, gains);
      texel_planckian_xy (t, &x, &y);
      xyz[0] = x / y;
      xyz[1] = 1.0;
      xyz[2] = (1.0 - x - y) / y;
      mat3_apply (xyz_to_srgb, xyz, lit);
      for (c = 0; c < 3; c++)
        out[c] = gains[c] * lit[c];
      mat3_apply (srgb_to_xyz, out, out_xyz);
      /* 4-decimal matrices: 1e-3 relative. */
      g_assert_cmpfloat (fabs (out_xyz[1] - 1.0), <, 1e-3);
      for (c = 0; c < 3; c++)
        if (fabs (out[c] - ref[c]) > 1e-3 * ref[c])
          g_error ("%d K: channel %d of the lit white becomes %g, not %g", t, c,
                   out[c], ref[c]);
      if (t > 2500)
        {
          g_assert_cmpfloat (gains[0], >, prev[0]);
          g_assert_cmpfloat (gains[2], <, prev[2]);
        }
      memcpy (prev, gains, sizeof (prev));
    }
}

/* White point, gains and exposure multiply: out = encode (min (1,
 * gain * wp * 2^exposure * decode (in))), sRGB frames. The sRGB curves
 * are the test's own. */
static void
test_white_point_rgb (void)
{
  GRand *rand = g_rand_new_with_seed (13);
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 16, 16, 1);
  TestImage *out;
  double wp[3];
  int x, y, c;

  test_image_fill_random (in, rand);
  texel_adjust_config_init (&config);
  config.transfer = TEXEL_TRANSFER_SRGB;
  config.white_point = 3200.0;
  config.exposure = 0.5;
  config.gain[0] = 1.1;
  config.gain[2] = 0.9;
  g_assert_false (texel_adjust_config_is_neutral (&config));
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 16, 16);
  g_assert_true (plan.kernel.linear);
  texel_white_point_gains (config.primaries, 3200.0, wp);
  out = adjust_cpu (&plan, in);
  for (y = 0; y < 16; y++)
    for (x = 0; x < 16; x++)
      for (c = 0; c < 3; c++)
        {
          double k = config.gain[c] * wp[c] * sqrt (2.0);
          double l = MIN (
              1.0, k * srgb_decode (test_image_get (in, c, x, y) / 255.0));

          check_code (test_image_get (out, c, x, y), srgb_encode (l) * 255.0,
                      255.0, "white point", x, y);
        }
  test_image_free (out);
  test_image_free (in);
  g_rand_free (rand);

  /* Out of range, and primaries the locus leaves (blue at x 0.3, y 0.4:
   * warm light has almost none of it). */
  config.white_point = 2000.0;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_RGBA, 4, 4, NULL),
      ==, -1);
  config.white_point = NAN;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_RGBA, 4, 4, NULL),
      ==, -1);
  config.white_point = 2500.0;
  config.primaries[2][0] = 0.3;
  config.primaries[2][1] = 0.4;
  g_assert_cmpint (
      texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_RGBA, 4, 4, NULL),
      ==, -1);
}

/* ------------------------------------------------------------------ */
/* 3D LUT */

/* lut_cube_new (texel-test-luts.h), asserting that it succeeds. */
static TexelCube *
cube_new (int n, LutFunction f, double lo, double hi)
{
  TexelCube *cube = lut_cube_new (n, f, lo, hi);

  g_assert_nonnull (cube);
  return cube;
}

static TexelCube *test_cubes[N_LUTS];

static const TexelCube *
test_cube (int which)
{
  if (which == LUT_NONE)
    return NULL;
  if (test_cubes[which] == NULL)
    {
      test_cubes[which] = adjust_lut_new (which);
      g_assert_nonnull (test_cubes[which]);
    }
  return test_cubes[which];
}

/* Identity LUTs (2, 9 and 33 points, and over a wider domain) copy RGB
 * frames exactly, and GRAY8 too (always inside the R'G'B' cube); so
 * Y'CbCr frames made of colours inside the cube (one R'G'B' colour in
 * [0.02, 0.98] per 2x2 block, encoded here with BT.709's limited-range
 * formulas, so that rounding cannot take them out of it, where the LUT's
 * domain would clamp them). */
static void
test_lut3d_identity (void)
{
  static const struct
  {
    int n;
    double lo, hi;
  } luts[] = { { 2, 0, 1 }, { 9, 0, 1 }, { 33, 0, 1 }, { 5, -0.5, 1.5 } };
  GRand *rand = g_rand_new_with_seed (41);
  guint l;
  int f, x, y, c;

  for (l = 0; l < G_N_ELEMENTS (luts); l++)
    {
      TexelCube *cube
          = cube_new (luts[l].n, lut_identity, luts[l].lo, luts[l].hi);

      for (f = 0; f < test_n_formats_10; f++)
        {
          TexelFormat format = test_formats_10[f];
          TestImage *in = test_image_new (format, 14, 10, 1);
          TexelAdjustConfig config;
          TexelAdjustPlan plan;
          TestImage *out;
          int max = (1 << texel_format_desc (format)->bits) - 1;

          test_image_fill_random (in, rand);
          if (in->desc->is_yuv && !in->desc->is_gray)
            {
              /* Kr 0.2126, Kb 0.0722; 2x2 blocks of one colour. */
              for (y = 0; y < 10; y += 2)
                for (x = 0; x < 14; x += 2)
                  {
                    double rgb[3], yy, cb, cr, s = max / 255.0;
                    int dx, dy;

                    for (c = 0; c < 3; c++)
                      rgb[c] = g_rand_double_range (rand, 0.02, 0.98);
                    yy = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
                    cb = (rgb[2] - yy) / 1.8556;
                    cr = (rgb[0] - yy) / 1.5748;
                    for (dy = 0; dy < 2; dy++)
                      for (dx = 0; dx < 2; dx++)
                        {
                          test_image_set (
                              in, 0, x + dx, y + dy,
                              (unsigned)floor (s * (16 + 219 * yy) + 0.5));
                          /* Every chroma sample of the block (4:2:2: one a row,
                           * 4:4:4: one a pixel). */
                          test_image_set (
                              in, 1, (x + dx) >> in->desc->comp[1].x_shift,
                              (y + dy) >> in->desc->comp[1].y_shift,
                              (unsigned)floor (s * (128 + 224 * cb) + 0.5));
                          test_image_set (
                              in, 2, (x + dx) >> in->desc->comp[2].x_shift,
                              (y + dy) >> in->desc->comp[2].y_shift,
                              (unsigned)floor (s * (128 + 224 * cr) + 0.5));
                        }
                  }
            }
          texel_adjust_config_init (&config);
          config.cube = cube;
          config.full_range = in->desc->is_gray;
          g_assert_false (texel_adjust_config_is_neutral (&config));
          plan_for (&plan, &config, format, 14, 10);
          out = adjust_cpu (&plan, in);
          for (c = 0; c < 4; c++)
            {
              if (!test_has_comp (in, c))
                continue;
              for (y = 0; y < test_comp_height (in, c); y++)
                for (x = 0; x < test_comp_width (in, c); x++)
                  {
                    int d = abs ((int)test_image_get (out, c, x, y)
                                 - (int)test_image_get (in, c, x, y));

                    if (d != 0)
                      g_error (
                          "identity %d: %s component %d at (%d, %d): %u -> %u",
                          luts[l].n, in->desc->name, c, x, y,
                          test_image_get (in, c, x, y),
                          test_image_get (out, c, x, y));
                  }
            }
          test_image_free (out);
          test_image_free (in);
        }
      texel_cube_free (cube);
    }
  g_rand_free (rand);
}

/* Known LUTs on RGBA: inversion and a red / blue swap (linear: exact),
 * each channel squared (separable: trilinear is the piecewise linear
 * interpolation of t^2 between the knots, computed here); the LUT comes
 * after the balance (saturation 0 then inversion: 255 - grey). */
static void
test_lut3d_known (void)
{
  GRand *rand = g_rand_new_with_seed (43);
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 16, 8, 1);
  TexelCube *invert = cube_new (2, lut_invert, 0.0, 1.0);
  TexelCube *swap = cube_new (3, lut_swap_rb, 0.0, 1.0);
  TexelCube *squares = cube_new (5, lut_squares, 0.0, 1.0);
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *out;
  int x, y, c;

  test_image_fill_random (in, rand);
  texel_adjust_config_init (&config);
  config.transfer = TEXEL_TRANSFER_SRGB;

  config.cube = invert;
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 16, 8);
  out = adjust_cpu (&plan, in);
  for (y = 0; y < 8; y++)
    for (x = 0; x < 16; x++)
      {
        for (c = 0; c < 3; c++)
          g_assert_cmpuint (test_image_get (out, c, x, y), ==,
                            255 - test_image_get (in, c, x, y));
        g_assert_cmpuint (test_image_get (out, 3, x, y), ==,
                          test_image_get (in, 3, x, y));
      }
  test_image_free (out);

  config.cube = swap;
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 16, 8);
  out = adjust_cpu (&plan, in);
  for (y = 0; y < 8; y++)
    for (x = 0; x < 16; x++)
      for (c = 0; c < 3; c++)
        g_assert_cmpuint (test_image_get (out, c, x, y), ==,
                          test_image_get (in, 2 - c, x, y));
  test_image_free (out);

  config.cube = squares;
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 16, 8);
  out = adjust_cpu (&plan, in);
  for (y = 0; y < 8; y++)
    for (x = 0; x < 16; x++)
      for (c = 0; c < 3; c++)
        {
          double t = test_image_get (in, c, x, y) / 255.0 * 4.0;
          int k = MIN ((int)t, 3);
          double a = k / 4.0, b = (k + 1) / 4.0;

          check_code (test_image_get (out, c, x, y),
                      255.0 * (a * a + (t - k) * (b * b - a * a)), 255.0,
                      "squares", x, y);
        }
  test_image_free (out);

  /* The LUT after videobalance: 255 - its grey. */
  config.cube = invert;
  config.saturation = 0.0;
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 16, 8);
  out = adjust_cpu (&plan, in);
  for (y = 0; y < 8; y++)
    for (x = 0; x < 16; x++)
      {
        static const GstSettings grey = { 1, 0, 1, 0, 0 };
        int rgb[3];

        for (c = 0; c < 3; c++)
          rgb[c] = test_image_get (in, c, x, y);
        def_rgb_element (&grey, 1, rgb);
        for (c = 0; c < 3; c++)
          g_assert_cmpuint (test_image_get (out, c, x, y), ==, 255 - rgb[c]);
      }
  test_image_free (out);

  texel_cube_free (invert);
  texel_cube_free (swap);
  texel_cube_free (squares);
  test_image_free (in);
  g_rand_free (rand);
}

/* Which LUTs the plan sends to the texture hardware: the bound E of
 * texel-adjust.h, from the steps between entries and the encoding after
 * the LUT, against half a code. */
static void
test_lut3d_hw_choice (void)
{
  static const struct
  {
    int lut;
    TexelFormat format;
    double steps; /* sum of the three axes' largest steps */
    int hw;
  } cases[] = {
    { LUT_IDENTITY_33, TEXEL_FORMAT_RGBA, 3.0 / 32, 1 },
    { LUT_IDENTITY_33, TEXEL_FORMAT_NV12, 3.0 / 32, 1 },
    { LUT_IDENTITY_33, TEXEL_FORMAT_P010_10LE, 3.0 / 32, 1 },
    { LUT_IDENTITY_2, TEXEL_FORMAT_RGBA, 3.0, 0 },
    { LUT_INVERT_2, TEXEL_FORMAT_BGR, 3.0, 0 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const TexelFormatDesc *desc = texel_format_desc (cases[i].format);
      TexelAdjustConfig config;
      TexelAdjustPlan plan;
      /* Largest row sum of the limited-range encoding after the LUT (Y'
       * row: Kr + Kg + Kb = 1 times 219 / 255; Cb, Cr rows: 1 times
       * 224 / 255; at 10 bits 876 and 896 of 1023). */
      double max = (1 << desc->bits) - 1;
      double g = desc->is_yuv ? (224 << (desc->bits - 8)) / max : 1.0;
      double e = max * g * cases[i].steps / 256.0;

      texel_adjust_config_init (&config);
      config.cube = test_cube (cases[i].lut);
      plan_for (&plan, &config, cases[i].format, 8, 8);
      g_assert_true (plan.kernel.lut3d);
      g_assert_cmpfloat (fabs (plan.lut3d_hw_error - e), <, 1e-3 * e);
      g_assert_cmpint (plan.kernel.lut3d_hw, ==, cases[i].hw);
      g_assert_cmpint (plan.kernel.lut3d_hw, ==, e <= 0.5);
    }
  /* GRAY8 without a vignette: the 3D LUT is inside its 1D LUT. */
  {
    TexelAdjustConfig config;
    TexelAdjustPlan plan;

    texel_adjust_config_init (&config);
    config.cube = test_cube (LUT_GRADE_17);
    plan_for (&plan, &config, TEXEL_FORMAT_GRAY8, 8, 8);
    g_assert_cmpint (plan.kernel.kind, ==, TEXEL_ADJUST_KIND_LUT);
    g_assert_false (plan.kernel.lut3d);
  }
}

/* ------------------------------------------------------------------ */
/* The kernels' float code against the reference: within 1 code on at
 * least 99.9 % of samples and within 2 everywhere (where stage 1 and
 * stage 2 are both active: see below), every format, with the
 * intrinsics' errors pushed either way. The settings of
 * texel-test-adjust.h, which tests/gpu/test-adjust-gpu.c runs too
 * ("gamma" there is linear_gamma; the GStreamer stage alone:
 * test_gst_definition). */

static void
test_float_emulation (void)
{
  GRand *rand = g_rand_new_with_seed (2024);
  gboolean slow = g_test_slow ();
  int w = slow ? 257 : 67, h = slow ? 129 : 35;
  Diff total = { 0 };
  int s, f, sign, ci;

  for (s = 0; s < (int)G_N_ELEMENTS (adjust_settings); s++)
    {
      const Settings *st = &adjust_settings[s];
      Diff per = { 0 };
      double bound = 0.0;

      for (f = 0; f < test_n_formats_10; f++)
        {
          for (ci = 0; ci < (int)G_N_ELEMENTS (adjust_colorimetries); ci++)
            {
              TexelAdjustConfig config;
              TexelAdjustPlan plan;
              TestImage *in, *cpu;

              /* Under valgrind one format in four (test_sparse_skip). */
              if (test_sparse_skip (s + f + ci, 4))
                continue;
              in = test_image_new (test_formats_10[f], w, h, 1);
              test_image_fill_random (in, rand);
              adjust_config_for (&config, st, &adjust_colorimetries[ci]);
              config.cube = test_cube (st->lut);
              plan_for (&plan, &config, in->img.format, w, h);
              if (st->force_hw && plan.kernel.lut3d)
                plan.kernel.lut3d_hw = 1;
              if (plan.kernel.lut3d_hw)
                bound = MAX (bound, plan.lut3d_hw_error);
              cpu = adjust_cpu (&plan, in);
              for (sign = -1; sign <= 1; sign += 2)
                {
                  TestImage *flt;
                  Diff d = { 0 };

                  /* The hardware's LUT weights, truncated or rounded. */
                  weight_mode = sign < 0 ? WEIGHT_TRUNCATE : WEIGHT_ROUND;
                  inject_sign = sign;
                  flt = adjust_float (&plan, in);
                  inject_sign = 0;
                  weight_mode = WEIGHT_EXACT;
                  compare (cpu, flt, &d);
                  /* Where hardware filtering is forced: within the plan's bound
                   * E (before rounding; so codes within floor (E) + 1). */
                  if (st->force_hw && plan.kernel.lut3d
                      && d.max > (int)floor (plan.lut3d_hw_error) + 1)
                    g_error ("%s, %s: %d codes off, bound %.2f", st->name,
                             in->desc->name, d.max, plan.lut3d_hw_error);
                  /* With both stage 1 and stage 2: a stage-1 code within float
                   * error of a half code may round the other way, and stage 2
                   * maps that code as the elements would (RGB: through their
                   * coarse matrices, up to 4 codes): rare, not bounded by 2. */
                  if (!st->informative
                      && ((d.over2 > 0
                           && !(plan.kernel.linear
                                && (plan.kernel.gst.gamma
                                    || plan.kernel.gst.balance)))
                          || d.over1 * 1000 > d.samples))
                    g_error (
                        "%s, %s, colorimetry %d, error %+d: %" G_GUINT64_FORMAT
                        " of %" G_GUINT64_FORMAT
                        " samples off by more than 1, %" G_GUINT64_FORMAT
                        " by more than 2 (max %d)",
                        st->name, in->desc->name, ci, sign, d.over1, d.samples,
                        d.over2, d.max);
                  per.samples += d.samples;
                  per.over0 += d.over0;
                  per.over1 += d.over1;
                  per.over2 += d.over2;
                  per.max = MAX (per.max, d.max);
                  test_image_free (flt);
                }
              test_image_free (cpu);
              test_image_free (in);
            }
        }
      g_test_message ("%-22s max %d code(s); of %" G_GUINT64_FORMAT
                      " samples %" G_GUINT64_FORMAT
                      " off by 1, %" G_GUINT64_FORMAT " by more%s",
                      st->name, per.max, per.samples, per.over0 - per.over1,
                      per.over1, bound > 0.0 ? "; hardware LUT filtering" : "");
      if (bound > 0.0)
        g_test_message ("%-22s (its bound E: up to %.2f codes)", "", bound);
      if (st->informative)
        continue;
      total.samples += per.samples;
      total.over0 += per.over0;
      total.over1 += per.over1;
      total.max = MAX (total.max, per.max);
    }
  g_test_message (
      "all: max %d code(s); of %" G_GUINT64_FORMAT " samples %" G_GUINT64_FORMAT
      " off by 1, %" G_GUINT64_FORMAT " by more",
      total.max, total.samples, total.over0 - total.over1, total.over1);
  g_rand_free (rand);
}

/* The GRAY8 LUT holds the reference's values (stage 2 included). */
static void
test_gray_lut (void)
{
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  int i;

  texel_adjust_config_init (&config);
  config.linear_gamma = 1.8;
  config.exposure = -0.5;
  config.contrast = 1.3;
  config.full_range = 1;
  plan_for (&plan, &config, TEXEL_FORMAT_GRAY8, 4, 4);
  g_assert_cmpint (plan.kernel.kind, ==, TEXEL_ADJUST_KIND_LUT);
  for (i = 0; i < 256; i++)
    {
      double v[3];

      texel_adjust_pixel_d (&plan, i, 0.0, 0.0, 1.0, v);
      g_assert_cmpfloat (fabs (plan.kernel.lut[0][i] - v[0]), <=, 1e-6);
    }
}

/* GRAY16_LE is refused with a message: the tables by code stop at 10
 * bits. */
static void
test_refuses_16_bits (void)
{
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  const char *why = NULL;

  texel_adjust_config_init (&config);
  config.gamma = 1.3;
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config,
                                           TEXEL_FORMAT_GRAY16_LE, 8, 8, &why),
                   ==, -1);
  g_assert_nonnull (why);
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config,
                                           TEXEL_FORMAT_Y444_10LE, 8, 8, &why),
                   ==, 0);
}

int
main (int argc, char **argv)
{
  static const TestCase tests[] = {
    { "/texel/adjust/refuses-16-bits", test_refuses_16_bits },
    { "/texel/adjust/neutral-identity", test_neutral_identity },
    { "/texel/adjust/gst-definition", test_gst_definition },
    { "/texel/adjust/gst-known-values", test_gst_known_values },
    { "/texel/adjust/gst-after-linear", test_gst_after_linear },
    { "/texel/adjust/transfer", test_transfer },
    { "/texel/adjust/exposure-gains-rgb", test_exposure_gains_rgb },
    { "/texel/adjust/gamma-linear", test_gamma_linear },
    { "/texel/adjust/curve-continuous", test_curve_continuous },
    { "/texel/adjust/chroma-mean", test_chroma_mean },
    { "/texel/adjust/bands", test_bands },
    { "/texel/adjust/gray-lut", test_gray_lut },
    { "/texel/adjust/planckian-locus", test_planckian_locus },
    { "/texel/adjust/white-point-gains", test_white_point_gains },
    { "/texel/adjust/white-point-rgb", test_white_point_rgb },
    { "/texel/adjust/tone-map", test_tone_map },
    { "/texel/adjust/vignette-rgb", test_vignette_rgb },
    { "/texel/adjust/vignette-yuv", test_vignette_yuv },
    { "/texel/adjust/lut3d-identity", test_lut3d_identity },
    { "/texel/adjust/lut3d-known", test_lut3d_known },
    { "/texel/adjust/lut3d-hw-choice", test_lut3d_hw_choice },
    { "/texel/plan/adjust-rejects", test_plan_rejects },
    { "/texel/adjust/float-emulation", test_float_emulation },
  };
  int ret, i;

  ret = test_run (&argc, &argv, tests, G_N_ELEMENTS (tests));
  for (i = 0; i < N_LUTS; i++)
    texel_cube_free (test_cubes[i]);
  return ret;
}
