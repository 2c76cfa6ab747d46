/* gst-texel tests: the texeladjust settings that the unit test's float
 * emulation (tests/unit/test-adjust.c) and the GPU test
 * (tests/gpu/test-adjust-gpu.c) both run, the colorimetries they run them
 * in (test-adjust-fast.c too, with settings of its own), the 3D LUTs they
 * use, and the config a setting makes. Plain C, header only: the GPU
 * tests use no GLib. TEXEL_TEST_ADJUST_GPU (1 in the GPU test: one more
 * setting, "LUT identity 2"; default 0) and TEXEL_TEST_WIDE_LUT_N (the
 * wide grade LUT's lattice size; default 33) may be defined before it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_TEST_ADJUST_H
#define TEXEL_TEST_ADJUST_H

#include <string.h>

#include "texel-adjust.h"
#include "texel-test-luts.h"

#ifndef TEXEL_TEST_ADJUST_GPU
#define TEXEL_TEST_ADJUST_GPU 0
#endif
#ifndef TEXEL_TEST_WIDE_LUT_N
#define TEXEL_TEST_WIDE_LUT_N 33
#endif

#define TEXEL_TEST_STR_(x) #x
#define TEXEL_TEST_STR(x) TEXEL_TEST_STR_ (x)
#define TEXEL_TEST_WIDE_LUT_NAME TEXEL_TEST_STR (TEXEL_TEST_WIDE_LUT_N)

/* The 3D LUTs of the settings, by index (0: none). LUT_GRADE_WIDE is
 * lut_grade (texel-test-luts.h) over [-0.1, 1.1], TEXEL_TEST_WIDE_LUT_N
 * points a side. */
enum
{
  LUT_NONE = 0,
  LUT_IDENTITY_33,
  LUT_IDENTITY_2,
  LUT_INVERT_2,
  LUT_GRADE_17,
  LUT_GRADE_WIDE,
  N_LUTS
};

typedef struct
{
  const char *name;
  double brightness, contrast, saturation, hue, linear_gamma, exposure;
  double gain[3];
  /* Ill-conditioned in float (see texel-adjust.cu): measured, not
   * asserted. */
  int informative;
  double white_point; /* 0: neutral */
  TexelToneMap tone_map;
  double vignette;
  int lut; /* test_cube () index, 0: none */
  /* Hardware filtering of the 3D LUT even where the plan would not use
   * it (informative: measured against the plan's bound E). */
  int force_hw;
  double gamma; /* the gamma element's, on Y' (0: 1) */
} Settings;

static const Settings adjust_settings[] = {
  { "balance", 0.1, 1.2, 1.5, 0.25, 1, 0, { 1, 1, 1 }, 0 },
  { "desaturate", -0.2, 0.6, 0.0, -0.7, 1, 0, { 1, 1, 1 }, 0 },
  { "gamma 2.2", 0, 1, 1, 0, 2.2, 0, { 1, 1, 1 }, 0 },
  { "gamma 0.45", 0, 1, 1, 0, 0.45, 0, { 1, 1, 1 }, 0 },
  { "gamma 10", 0, 1, 1, 0, 10, 0, { 1, 1, 1 }, 0 },
  { "gamma 0.01", 0, 1, 1, 0, 0.01, 0, { 1, 1, 1 }, 0 },
  { "exposure +1", 0, 1, 1, 0, 1, 1, { 1, 1, 1 }, 0 },
  { "exposure -3", 0, 1, 1, 0, 1, -3, { 1, 1, 1 }, 0 },
  { "exposure +10", 0, 1, 1, 0, 1, 10, { 1, 1, 1 }, 0 },
  { "exposure +3 gamma 1.5", 0, 1, 1, 0, 1.5, 3, { 1, 1, 1 }, 0 },
  { "white balance", 0, 1, 1, 0, 1, 0, { 1.3, 1.0, 0.7 }, 0 },
  { "gains 0 and 4", 0, 1, 1, 0, 1, 0, { 0, 4, 1 }, 0 },
  { "everything", 0.05, 1.1, 1.2, 0.1, 1.3, 0.5, { 1.1, 0.95, 1.2 }, 0 },
  { "white point 2500", 0, 1, 1, 0, 1, 0, { 1, 1, 1 }, 0, 2500 },
  { "wp 12000, gains", 0, 1, 1.2, 0, 1.2, 0, { 1.2, 1, 0.8 }, 0, 12000 },
  { "reinhard", 0, 1, 1, 0, 1, 0, { 1, 1, 1 }, 0, 0, TEXEL_TONE_MAP_REINHARD },
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
    TEXEL_TONE_MAP_REINHARD },
  { "filmic", 0, 1, 1, 0, 1, 0, { 1, 1, 1 }, 0, 0, TEXEL_TONE_MAP_FILMIC },
  { "filmic +2, gamma 2.2",
    0,
    1,
    1.1,
    0,
    2.2,
    2,
    { 1, 1, 1 },
    0,
    0,
    TEXEL_TONE_MAP_FILMIC },
  { "filmic +10, gamma 0.5",
    0,
    1,
    1,
    0,
    0.5,
    10,
    { 4, 2, 1 },
    0,
    0,
    TEXEL_TONE_MAP_FILMIC },
  { "vignette 1.5", 0, 1, 1, 0, 1, 0, { 1, 1, 1 }, 0, 0, 0, 1.5 },
  { "vignette -1", 0, 1, 1, 0, 1, 0, { 1, 1, 1 }, 0, 0, 0, -1 },
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
    3 },
  { "LUT identity 33",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    LUT_IDENTITY_33 },
#if TEXEL_TEST_ADJUST_GPU
  { "LUT identity 2",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    LUT_IDENTITY_2 },
#endif
  { "LUT invert 2, balance",
    0.05,
    1.1,
    1.3,
    0.1,
    1,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    LUT_INVERT_2 },
  { "LUT grade 17, gamma",
    0,
    1,
    1,
    0,
    1.3,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    LUT_GRADE_17 },
  { "LUT grade " TEXEL_TEST_WIDE_LUT_NAME ", vignette",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    1,
    LUT_GRADE_WIDE },
  { "gamma 0.7 (element)",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    0,
    0,
    0.7 },
  { "gamma 1.5 saturation 1.3",
    0,
    1,
    1.3,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    0,
    0,
    1.5 },
  { "gamma 2.2 after exposure",
    0.05,
    1.2,
    1,
    0.1,
    1,
    1,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    0,
    0,
    2.2 },
  { "gamma 0.8 before LUT",
    0.1,
    1,
    0.8,
    0,
    1,
    0,
    { 1, 1, 1 },
    0,
    0,
    0,
    0,
    LUT_GRADE_17,
    0,
    0.8 },
  { "(LUT identity 2, hw)",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    1,
    0,
    0,
    0,
    LUT_IDENTITY_2,
    1 },
  { "(LUT invert 2, hw)",
    0,
    1,
    1,
    0,
    1,
    0,
    { 1, 1, 1 },
    1,
    0,
    0,
    0,
    LUT_INVERT_2,
    1 },
  { "(LUT grade 17, hw)",
    0,
    1,
    1,
    0,
    1.3,
    0,
    { 1, 1, 1 },
    1,
    0,
    0,
    0,
    LUT_GRADE_17,
    1 },
  { "(gamma 10 exposure +6)", 0, 1, 1, 0, 10, 6, { 1, 1, 1 }, 1 },
  { "(gamma 10 exposure +10)", 0, 1, 1, 0, 10, 10, { 4, 4, 4 }, 1 },
};

typedef struct
{
  TexelMatrix matrix;
  int full_range;
  TexelTransfer transfer;
} Colorimetry;

static const Colorimetry adjust_colorimetries[] = {
  { TEXEL_MATRIX_BT709, 0, TEXEL_TRANSFER_BT709 },
  { TEXEL_MATRIX_BT601, 1, TEXEL_TRANSFER_SRGB },
  { TEXEL_MATRIX_BT2020, 0, TEXEL_TRANSFER_GAMMA22 },
};

/* LUT @which (not LUT_NONE), made as lut_cube_new makes LUTs; NULL
 * where that fails. */
static inline TexelCube *
adjust_lut_new (int which)
{
  static const struct
  {
    int n;
    LutFunction f;
    double lo, hi;
  } luts[N_LUTS] = {
    [LUT_IDENTITY_33] = { 33, lut_identity, 0.0, 1.0 },
    [LUT_IDENTITY_2] = { 2, lut_identity, 0.0, 1.0 },
    [LUT_INVERT_2] = { 2, lut_invert, 0.0, 1.0 },
    [LUT_GRADE_17] = { 17, lut_grade, 0.0, 1.0 },
    [LUT_GRADE_WIDE] = { TEXEL_TEST_WIDE_LUT_N, lut_grade, -0.1, 1.1 },
  };

  return lut_cube_new (luts[which].n, luts[which].f, luts[which].lo,
                       luts[which].hi);
}

/* @config for setting @st in colorimetry @col (its 3D LUT, if any, left
 * for the caller). */
static inline void
adjust_config_for (TexelAdjustConfig *config, const Settings *st,
                   const Colorimetry *col)
{
  texel_adjust_config_init (config);
  config->brightness = st->brightness;
  config->contrast = st->contrast;
  config->saturation = st->saturation;
  config->hue = st->hue;
  config->linear_gamma = st->linear_gamma;
  if (st->gamma > 0.0)
    config->gamma = st->gamma;
  config->exposure = st->exposure;
  memcpy (config->gain, st->gain, sizeof (config->gain));
  if (st->white_point > 0.0)
    config->white_point = st->white_point;
  config->tone_map = st->tone_map;
  config->vignette = st->vignette;
  config->matrix = col->matrix;
  config->full_range = col->full_range;
  config->transfer = col->transfer;
}

#endif /* TEXEL_TEST_ADJUST_H */
