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
#define TEXEL_ADJUST_HOST_LOG2F test_log2f
#define TEXEL_ADJUST_HOST_EXP2F test_exp2f
#include "texel-adjust.h"

#include "texel-test-util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int inject_sign;

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
adjust_cpu (const TexelAdjustPlan * plan, const TestImage * in)
{
  TestImage *out = test_image_new (in->img.format, in->img.width,
      in->img.height, in->stride_align);

  memset (out->mem, 0x5a, out->size);
  texel_adjust_cpu (plan, &in->img, &out->img, 0, in->img.height);
  return out;
}

/* The kernel's code, block by block, on the host. */
static TestImage *
adjust_float (const TexelAdjustPlan * plan, const TestImage * in)
{
  TestImage *out = test_image_new (in->img.format, in->img.width,
      in->img.height, in->stride_align);
  int bw = -((-plan->width) >> plan->x_shift);
  int bh = -((-plan->height) >> plan->y_shift);
  int bx, by;

  memset (out->mem, 0xa5, out->size);
  for (by = 0; by < bh; by++)
    for (bx = 0; bx < bw; bx++)
      texel_adjust_block_f (plan, &plan->lut[0][0], &in->img, &out->img, bx,
          by);
  return out;
}

static void
plan_for (TexelAdjustPlan * plan, const TexelAdjustConfig * config,
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

  for (f = 0; f < test_n_formats; f++) {
    TexelAdjustConfig config;
    TexelAdjustPlan plan;
    TestImage *in = test_image_new (test_all_formats[f], 13, 7, 1);
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
      g_error ("%s: the float code changed a neutral frame",
          in->desc->name);
    test_image_free (cpu);
    test_image_free (flt);
    test_image_free (in);
  }
  g_rand_free (rand);
}

/* Brightness and contrast on Y', saturation and hue on chroma: the
 * formulas of videobalance (brightness in units of the nominal range). */
static void
test_videobalance_yuv (void)
{
  static const double settings[][4] = {
    /* brightness, contrast, saturation, hue */
    {0.1, 1.2, 1.5, 0.25},
    {-0.3, 0.5, 0.0, 0.0},
    {0.0, 2.0, 2.0, -0.8},
    {1.0, 0.0, 0.3, 1.0},
  };
  GRand *rand = g_rand_new_with_seed (3);
  int s, full;

  for (s = 0; s < (int) G_N_ELEMENTS (settings); s++) {
    for (full = 0; full < 2; full++) {
      TexelAdjustConfig config;
      TexelAdjustPlan plan;
      TestImage *in = test_image_new (TEXEL_FORMAT_I420, 10, 6, 1);
      TestImage *out;
      double off_y = full ? 0.0 : 16.0, range_y = full ? 255.0 : 219.0;
      double co = cos (M_PI * settings[s][3]), si = sin (M_PI *
          settings[s][3]);
      int x, y;

      test_image_fill_random (in, rand);
      texel_adjust_config_init (&config);
      config.brightness = settings[s][0];
      config.contrast = settings[s][1];
      config.saturation = settings[s][2];
      config.hue = settings[s][3];
      config.full_range = full;
      plan_for (&plan, &config, TEXEL_FORMAT_I420, 10, 6);
      g_assert_cmpint (plan.kind, ==, TEXEL_ADJUST_KIND_YUV_SEPARABLE);
      out = adjust_cpu (&plan, in);
      for (y = 0; y < 6; y++)
        for (x = 0; x < 10; x++) {
          double yv = test_image_get (in, 0, x, y);
          double want = off_y + config.contrast * (yv - off_y)
              + range_y * config.brightness;

          check_code (test_image_get (out, 0, x, y), want, 255.0, "Y", x, y);
        }
      for (y = 0; y < 3; y++)
        for (x = 0; x < 5; x++) {
          double u = test_image_get (in, 1, x, y) - 128.0;
          double v = test_image_get (in, 2, x, y) - 128.0;
          double u2 = 128.0 + config.saturation * (u * co + v * si);
          double v2 = 128.0 + config.saturation * (-u * si + v * co);

          check_code (test_image_get (out, 1, x, y), u2, 255.0, "U", x, y);
          check_code (test_image_get (out, 2, x, y), v2, 255.0, "V", x, y);
        }
      test_image_free (in);
      test_image_free (out);
    }
  }
  g_rand_free (rand);
}

/* RGB: saturation 0 leaves BT.601 luma in all three channels; hue 1
 * (half a turn) with saturation 1 mirrors the chroma around grey. */
static void
test_balance_rgb (void)
{
  GRand *rand = g_rand_new_with_seed (5);
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 9, 5, 1);
  TestImage *out;
  int x, y, c;

  test_image_fill_random (in, rand);
  texel_adjust_config_init (&config);
  config.saturation = 0.0;
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 9, 5);
  g_assert_true (plan.has_matrix);
  out = adjust_cpu (&plan, in);
  for (y = 0; y < 5; y++)
    for (x = 0; x < 9; x++) {
      double luma = 0.299 * test_image_get (in, 0, x, y)
          + 0.587 * test_image_get (in, 1, x, y)
          + 0.114 * test_image_get (in, 2, x, y);

      for (c = 0; c < 3; c++)
        g_assert_cmpfloat (fabs (test_image_get (out, c, x, y) - luma), <=,
            0.5 + 1e-9);
      g_assert_cmpuint (test_image_get (out, 3, x, y), ==,
          test_image_get (in, 3, x, y));
    }
  test_image_free (out);

  /* Half a turn: each channel becomes 2 * luma - itself, clamped. */
  config.saturation = 1.0;
  config.hue = 1.0;
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 9, 5);
  out = adjust_cpu (&plan, in);
  for (y = 0; y < 5; y++)
    for (x = 0; x < 9; x++) {
      double luma = 0.299 * test_image_get (in, 0, x, y)
          + 0.587 * test_image_get (in, 1, x, y)
          + 0.114 * test_image_get (in, 2, x, y);

      for (c = 0; c < 3; c++) {
        double want = CLAMP (2.0 * luma - test_image_get (in, c, x, y), 0.0,
            255.0);

        g_assert_cmpfloat (fabs (test_image_get (out, c, x, y) - want), <=,
            0.5 + 1e-9);
      }
    }
  test_image_free (out);
  test_image_free (in);
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
  static const TexelTransfer all[] = { TEXEL_TRANSFER_BT709,
    TEXEL_TRANSFER_SRGB, TEXEL_TRANSFER_LINEAR, TEXEL_TRANSFER_GAMMA18,
    TEXEL_TRANSFER_GAMMA22, TEXEL_TRANSFER_GAMMA28
  };
  int t, i;

  for (t = 0; t < (int) G_N_ELEMENTS (all); t++) {
    TexelAdjustConfig config;
    TexelAdjustPlan plan;

    texel_adjust_config_init (&config);
    config.transfer = all[t];
    plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 1, 1);
    for (i = 0; i <= 1000; i++) {
      double v = i / 1000.0;
      double l = texel_transfer_decode (&plan.curve, v);

      /* Neutral settings: the curve is the identity. */
      g_assert_cmpfloat (fabs (texel_adjust_curve_d (&plan.curve, 0, v) - v),
          <, 1e-9);
      if (all[t] == TEXEL_TRANSFER_SRGB) {
        g_assert_cmpfloat (fabs (l - srgb_decode (v)), <, 1e-12);
        g_assert_cmpfloat (fabs (texel_transfer_encode (&plan.curve, l)
                - srgb_encode (l)), <, 1e-12);
      } else if (all[t] == TEXEL_TRANSFER_BT709) {
        g_assert_cmpfloat (fabs (l - bt709_decode (v)), <, 1e-12);
        g_assert_cmpfloat (fabs (texel_transfer_encode (&plan.curve, l)
                - bt709_encode (l)), <, 1e-12);
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
  g_assert_true (plan.linear);
  g_assert_false (plan.has_matrix);
  out = adjust_cpu (&plan, in);
  for (c = 0; c < 3; c++)
    k[c] = 2.0 * config.gain[c];
  for (y = 0; y < 16; y++)
    for (x = 0; x < 16; x++)
      for (c = 0; c < 3; c++) {
        double l = MIN (1.0, k[c] * srgb_decode (test_image_get (in, c, x,
                    y) / 255.0));
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
  config.gamma = 2.0;
  plan_for (&plan, &config, TEXEL_FORMAT_GRAY8, 256, 1);
  g_assert_cmpint (plan.kind, ==, TEXEL_ADJUST_KIND_LUT);
  out = adjust_cpu (&plan, in);
  for (i = 0; i < 256; i++)
    g_assert_cmpuint (test_image_get (out, 0, i, 0), ==,
        (unsigned) floor (255.0 * sqrt (i / 255.0) + 0.5));
  test_image_free (out);
  test_image_free (in);
}

/* The curve is continuous and monotonic at its knees and at the toe. */
static void
test_curve_continuous (void)
{
  static const double gammas[] = { 0.01, 0.5, 1.0, 2.2, 10.0 };
  int g, t, i;

  for (t = TEXEL_TRANSFER_BT709; t <= TEXEL_TRANSFER_GAMMA28; t++) {
    for (g = 0; g < (int) G_N_ELEMENTS (gammas); g++) {
      TexelAdjustConfig config;
      TexelAdjustPlan plan;
      double prev = -1.0;

      texel_adjust_config_init (&config);
      config.transfer = (TexelTransfer) t;
      config.gamma = gammas[g];
      config.exposure = 1.5;
      plan_for (&plan, &config, TEXEL_FORMAT_RGB, 1, 1);
      for (i = 0; i <= 100000; i++) {
        double v = texel_adjust_curve_d (&plan.curve, 1, i / 100000.0);

        g_assert_cmpfloat (v, >=, prev - 1e-9);
        g_assert_cmpfloat (v, <=, 1.0 + 1e-12);
        prev = v;
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
  config.gamma = 1.7;
  config.gain[2] = 1.3;
  config.saturation = 1.2;
  plan_for (&plan, &config, TEXEL_FORMAT_NV12, 7, 5);
  g_assert_cmpint (plan.kind, ==, TEXEL_ADJUST_KIND_YUV_LINEAR);
  out = adjust_cpu (&plan, in);
  for (by = 0; by < 3; by++)
    for (bx = 0; bx < 4; bx++) {
      double qb = test_image_get (in, 1, bx, by) - 128.0;
      double qr = test_image_get (in, 2, bx, by) - 128.0;
      double sum[2] = { 0, 0 }, v[3];
      int n = 0;

      for (y = 2 * by; y < MIN (5, 2 * by + 2); y++)
        for (x = 2 * bx; x < MIN (7, 2 * bx + 2); x++) {
          texel_adjust_yuv_pixel_d (&plan, test_image_get (in, 0, x, y) -
              16.0, qb, qr, v);
          g_assert_cmpfloat (fabs (test_image_get (out, 0, x, y) -
                  CLAMP (floor (v[0] * 255.0 + 0.5), 0, 255)), <=, 0.0);
          sum[0] += v[1];
          sum[1] += v[2];
          n++;
        }
      g_assert_cmpfloat (fabs (test_image_get (out, 1, bx, by) -
              CLAMP (floor (sum[0] / n * 255.0 + 0.5), 0, 255)), <=, 0.0);
      g_assert_cmpfloat (fabs (test_image_get (out, 2, bx, by) -
              CLAMP (floor (sum[1] / n * 255.0 + 0.5), 0, 255)), <=, 0.0);
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

  for (f = 0; f < test_n_formats; f++) {
    TexelAdjustConfig config;
    TexelAdjustPlan plan;
    TestImage *in = test_image_new (test_all_formats[f], 11, 9, 1);
    TestImage *whole, *banded;

    test_image_fill_random (in, rand);
    texel_adjust_config_init (&config);
    config.gamma = 0.8;
    config.hue = 0.2;
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
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config,
          TEXEL_FORMAT_UNKNOWN, 4, 4, &why), ==, -1);
  g_assert_nonnull (why);
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12,
          0, 4, NULL), ==, -1);
  config.gamma = 0.0;
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12,
          4, 4, NULL), ==, -1);
  config.gamma = NAN;
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12,
          4, 4, NULL), ==, -1);
  texel_adjust_config_init (&config);
  config.exposure = 10.5;
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12,
          4, 4, NULL), ==, -1);
  texel_adjust_config_init (&config);
  config.gain[1] = -0.1;
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12,
          4, 4, NULL), ==, -1);
  texel_adjust_config_init (&config);
  config.gain[1] = 4.0;
  config.exposure = -10.0;
  config.gamma = 10.0;
  g_assert_cmpint (texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12,
          4, 4, NULL), ==, 0);
}

/* ------------------------------------------------------------------ */
/* The kernels' float code against the reference: within 1 code on at
 * least 99.9 % of samples and within 2 everywhere, every format, with the
 * intrinsics' errors pushed either way. The same settings as
 * tests/gpu/test-adjust-gpu.c. */

typedef struct
{
  const char *name;
  double brightness, contrast, saturation, hue, gamma, exposure;
  double gain[3];
  /* Ill-conditioned in float (see texel-adjust.cu): measured, not
   * asserted. */
  int informative;
} Settings;

static const Settings float_settings[] = {
  {"balance", 0.1, 1.2, 1.5, 0.25, 1, 0, {1, 1, 1}},
  {"desaturate", -0.2, 0.6, 0.0, -0.7, 1, 0, {1, 1, 1}},
  {"gamma 2.2", 0, 1, 1, 0, 2.2, 0, {1, 1, 1}},
  {"gamma 0.45", 0, 1, 1, 0, 0.45, 0, {1, 1, 1}},
  {"gamma 10", 0, 1, 1, 0, 10, 0, {1, 1, 1}},
  {"gamma 0.01", 0, 1, 1, 0, 0.01, 0, {1, 1, 1}},
  {"exposure +1", 0, 1, 1, 0, 1, 1, {1, 1, 1}},
  {"exposure -3", 0, 1, 1, 0, 1, -3, {1, 1, 1}},
  {"exposure +10", 0, 1, 1, 0, 1, 10, {1, 1, 1}},
  {"exposure +3 gamma 1.5", 0, 1, 1, 0, 1.5, 3, {1, 1, 1}},
  {"white balance", 0, 1, 1, 0, 1, 0, {1.3, 1.0, 0.7}},
  {"gains 0 and 4", 0, 1, 1, 0, 1, 0, {0, 4, 1}},
  {"everything", 0.05, 1.1, 1.2, 0.1, 1.3, 0.5, {1.1, 0.95, 1.2}},
  {"(gamma 10 exposure +6)", 0, 1, 1, 0, 10, 6, {1, 1, 1}, 1},
  {"(gamma 10 exposure +10)", 0, 1, 1, 0, 10, 10, {4, 4, 4}, 1},
};

typedef struct
{
  TexelMatrix matrix;
  int full_range;
  TexelTransfer transfer;
} Colorimetry;

static const Colorimetry float_colorimetries[] = {
  {TEXEL_MATRIX_BT709, 0, TEXEL_TRANSFER_BT709},
  {TEXEL_MATRIX_BT601, 1, TEXEL_TRANSFER_SRGB},
  {TEXEL_MATRIX_BT2020, 0, TEXEL_TRANSFER_GAMMA22},
};

typedef struct
{
  guint64 samples, over0, over1, over2;
  int max;
} Diff;

static void
compare (const TestImage * a, const TestImage * b, Diff * d)
{
  int c, x, y;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++) {
    if (!test_has_comp (a, c))
      continue;
    for (y = 0; y < test_comp_height (a, c); y++)
      for (x = 0; x < test_comp_width (a, c); x++) {
        int e = abs ((int) test_image_get (a, c, x, y) -
            (int) test_image_get (b, c, x, y));

        d->samples++;
        d->over0 += e > 0;
        d->over1 += e > 1;
        d->over2 += e > 2;
        d->max = MAX (d->max, e);
      }
  }
}

static void
test_float_emulation (void)
{
  GRand *rand = g_rand_new_with_seed (2024);
  gboolean slow = g_test_slow ();
  int w = slow ? 257 : 67, h = slow ? 129 : 35;
  Diff total = { 0 };
  int s, f, sign, ci;

  for (s = 0; s < (int) G_N_ELEMENTS (float_settings); s++) {
    const Settings *st = &float_settings[s];
    Diff per = { 0 };

    for (f = 0; f < test_n_formats; f++) {
      for (ci = 0; ci < (int) G_N_ELEMENTS (float_colorimetries); ci++) {
        TexelAdjustConfig config;
        TexelAdjustPlan plan;
        TestImage *in = test_image_new (test_all_formats[f], w, h, 1);
        TestImage *cpu;

        test_image_fill_random (in, rand);
        texel_adjust_config_init (&config);
        config.brightness = st->brightness;
        config.contrast = st->contrast;
        config.saturation = st->saturation;
        config.hue = st->hue;
        config.gamma = st->gamma;
        config.exposure = st->exposure;
        memcpy (config.gain, st->gain, sizeof (config.gain));
        config.matrix = float_colorimetries[ci].matrix;
        config.full_range = float_colorimetries[ci].full_range;
        config.transfer = float_colorimetries[ci].transfer;
        plan_for (&plan, &config, in->img.format, w, h);
        cpu = adjust_cpu (&plan, in);
        for (sign = -1; sign <= 1; sign += 2) {
          TestImage *flt;
          Diff d = { 0 };

          inject_sign = sign;
          flt = adjust_float (&plan, in);
          inject_sign = 0;
          compare (cpu, flt, &d);
          if (!st->informative && (d.over2 > 0
                  || d.over1 * 1000 > d.samples))
            g_error ("%s, %s, colorimetry %d, error %+d: %" G_GUINT64_FORMAT
                " of %" G_GUINT64_FORMAT " samples off by more than 1, %"
                G_GUINT64_FORMAT " by more than 2 (max %d)", st->name,
                in->desc->name, ci, sign, d.over1, d.samples, d.over2, d.max);
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
        " samples %" G_GUINT64_FORMAT " off by 1, %" G_GUINT64_FORMAT
        " by more", st->name, per.max, per.samples, per.over0 - per.over1,
        per.over1);
    if (st->informative)
      continue;
    total.samples += per.samples;
    total.over0 += per.over0;
    total.over1 += per.over1;
    total.max = MAX (total.max, per.max);
  }
  g_test_message ("all: max %d code(s); of %" G_GUINT64_FORMAT " samples %"
      G_GUINT64_FORMAT " off by 1, %" G_GUINT64_FORMAT " by more", total.max,
      total.samples, total.over0 - total.over1, total.over1);
  g_rand_free (rand);
}

/* The GRAY8 LUT holds the reference's values. */
static void
test_gray_lut (void)
{
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  int i;

  texel_adjust_config_init (&config);
  config.gamma = 1.8;
  config.exposure = -0.5;
  config.contrast = 1.3;
  config.full_range = 1;
  plan_for (&plan, &config, TEXEL_FORMAT_GRAY8, 4, 4);
  g_assert_cmpint (plan.kind, ==, TEXEL_ADJUST_KIND_LUT);
  for (i = 0; i < 256; i++) {
    double v[3];

    texel_adjust_yuv_pixel_d (&plan, i, 0.0, 0.0, v);
    g_assert_cmpfloat (fabs (plan.lut[0][i] - v[0]), <=, 1e-6);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/texel/adjust/neutral-identity", test_neutral_identity);
  g_test_add_func ("/texel/adjust/videobalance-yuv", test_videobalance_yuv);
  g_test_add_func ("/texel/adjust/balance-rgb", test_balance_rgb);
  g_test_add_func ("/texel/adjust/transfer", test_transfer);
  g_test_add_func ("/texel/adjust/exposure-gains-rgb",
      test_exposure_gains_rgb);
  g_test_add_func ("/texel/adjust/gamma-linear", test_gamma_linear);
  g_test_add_func ("/texel/adjust/curve-continuous", test_curve_continuous);
  g_test_add_func ("/texel/adjust/chroma-mean", test_chroma_mean);
  g_test_add_func ("/texel/adjust/bands", test_bands);
  g_test_add_func ("/texel/adjust/gray-lut", test_gray_lut);
  g_test_add_func ("/texel/plan/adjust-rejects", test_plan_rejects);
  g_test_add_func ("/texel/adjust/float-emulation", test_float_emulation);
  return g_test_run ();
}
