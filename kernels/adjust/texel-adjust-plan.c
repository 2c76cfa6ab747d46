/* gst-texel: turning adjustment settings into a plan.
 *
 * Everything that does not change from frame to frame is worked out here
 * once, in double precision: the Y'CbCr <-> R'G'B' matrices, the
 * transfer function's constants arranged for the kernels' log2-domain
 * curve, the GStreamer stage's parameters and 8-bit tables, and the LUTs
 * of 8-bit RGB and GRAY8 frames (each entry from the CPU reference's own
 * double-precision function, rounded to float once).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-adjust.h"

#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef double Affine[3][4];

/* BT.709 (and sRGB) primaries and D65: x, y of R, G, B, white. */
static const double bt709_primaries[4][2]
    = { { 0.64, 0.33 }, { 0.30, 0.60 }, { 0.15, 0.06 }, { 0.3127, 0.3290 } };

void
texel_adjust_config_init (TexelAdjustConfig *config)
{
  memset (config, 0, sizeof (*config));
  config->contrast = 1.0;
  config->saturation = 1.0;
  config->gamma = 1.0;
  config->linear_gamma = 1.0;
  config->gain[0] = config->gain[1] = config->gain[2] = 1.0;
  config->white_point = TEXEL_ADJUST_WHITE_POINT_NEUTRAL;
  config->matrix = TEXEL_MATRIX_BT709;
  config->transfer = TEXEL_TRANSFER_BT709;
  memcpy (config->primaries, bt709_primaries, sizeof (bt709_primaries));
}

int
texel_adjust_config_linear_neutral (const TexelAdjustConfig *config)
{
  return config->linear_gamma == 1.0 && config->exposure == 0.0
         && config->gain[0] == 1.0 && config->gain[1] == 1.0
         && config->gain[2] == 1.0
         && config->white_point == TEXEL_ADJUST_WHITE_POINT_NEUTRAL
         && config->tone_map == TEXEL_TONE_MAP_NONE && config->vignette == 0.0;
}

static int
balance_neutral (const TexelAdjustConfig *config)
{
  return config->brightness == 0.0 && config->contrast == 1.0
         && config->saturation == 1.0 && config->hue == 0.0;
}

int
texel_adjust_config_gst_neutral (const TexelAdjustConfig *config)
{
  return config->gamma == 1.0 && balance_neutral (config);
}

int
texel_adjust_config_is_neutral (const TexelAdjustConfig *config)
{
  return texel_adjust_config_linear_neutral (config)
         && texel_adjust_config_gst_neutral (config) && config->cube == NULL;
}

void
texel_transfer_params (TexelTransfer transfer, double *alpha, double *power,
                       double *beta, double *slope)
{
  *alpha = 0.0;
  *beta = 0.0;
  *slope = 1.0;
  switch (transfer)
    {
      case TEXEL_TRANSFER_SRGB:
        *alpha = 0.055;
        *power = 1.0 / 2.4;
        *beta = 0.0031308;
        *slope = 12.92;
        break;
      case TEXEL_TRANSFER_LINEAR:
        *power = 1.0;
        break;
      case TEXEL_TRANSFER_GAMMA18:
        *power = 1.0 / 1.8;
        break;
      case TEXEL_TRANSFER_GAMMA22:
        *power = 1.0 / 2.2;
        break;
      case TEXEL_TRANSFER_GAMMA28:
        *power = 1.0 / 2.8;
        break;
      case TEXEL_TRANSFER_BT709:
      default:
        /* The precise constants of BT.2020 (0.099 and 0.018 rounded):
         * with them the two segments meet, so that decode and encode are
         * exact inverses (with the rounded ones a decoded value just above
         * the knee encodes 2.5e-4 lower: a quarter code at 10 bits). */
        *alpha = 0.09929682680944;
        *power = 0.45;
        *beta = 0.018053968510807;
        *slope = 4.5;
        break;
    }
}

/* Kim, Kim, Lee, Kim, Kim: "Design of advanced color temperature control
 * system for HDTV applications", J. Korean Phys. Soc. 41 (2002): the
 * Planckian locus as cubics in 1/T (x) and in x (y). Neighbouring
 * segments meet within 7e-5 (at 4000 K), a 1e-4 step in the gains. */
void
texel_planckian_xy (double kelvin, double *x, double *y)
{
  double t = 1e3 / kelvin, xc;

  if (kelvin <= 4000.0)
    xc = ((-0.2661239 * t - 0.2343589) * t + 0.8776956) * t + 0.179910;
  else
    xc = ((-3.0258469 * t + 2.1070379) * t + 0.2226347) * t + 0.240390;
  if (kelvin <= 2222.0)
    *y = ((-1.1063814 * xc - 1.34811020) * xc + 2.18555832) * xc - 0.20219683;
  else if (kelvin <= 4000.0)
    *y = ((-0.9549476 * xc - 1.37418593) * xc + 2.09137015) * xc - 0.16748867;
  else
    *y = ((3.0817580 * xc - 5.87338670) * xc + 3.75112997) * xc - 0.37001483;
  *x = xc;
}

/* XYZ of chromaticity (x, y) at Y = 1. */
static void
xyz_of_xy (double x, double y, double xyz[3])
{
  xyz[0] = x / y;
  xyz[1] = 1.0;
  xyz[2] = (1.0 - x - y) / y;
}

static double
det3 (const double m[3][3])
{
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
         - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
         + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* Solves m r = b (Cramer's rule: 3x3, well conditioned here). */
static void
solve3 (const double m[3][3], const double b[3], double r[3])
{
  double d = det3 (m);
  int k, i;

  for (k = 0; k < 3; k++)
    {
      double mk[3][3];

      memcpy (mk, m, sizeof (mk));
      for (i = 0; i < 3; i++)
        mk[i][k] = b[i];
      r[k] = det3 (mk) / d;
    }
}

/* Columns: XYZ of each primary at Y = 1, scaled so that R = G = B = 1
 * gives the white (SMPTE RP 177). */
void
texel_rgb_to_xyz (const double primaries[4][2], double m[3][3])
{
  double white[3], scale[3];
  int i, c;

  for (c = 0; c < 3; c++)
    {
      double xyz[3];

      xyz_of_xy (primaries[c][0], primaries[c][1], xyz);
      for (i = 0; i < 3; i++)
        m[i][c] = xyz[i];
    }
  xyz_of_xy (primaries[3][0], primaries[3][1], white);
  solve3 (m, white, scale);
  for (i = 0; i < 3; i++)
    for (c = 0; c < 3; c++)
      m[i][c] *= scale[c];
}

/* Linear RGB of the Planckian white at @kelvin, Y = 1. */
static void
planckian_rgb (const double m[3][3], double kelvin, double rgb[3])
{
  double x, y, xyz[3];

  texel_planckian_xy (kelvin, &x, &y);
  xyz_of_xy (x, y, xyz);
  solve3 (m, xyz, rgb);
}

void
texel_white_point_gains (const double primaries[4][2], double kelvin,
                         double gains[3])
{
  double m[3][3], ref[3], lit[3];
  int c;

  if (kelvin == TEXEL_ADJUST_WHITE_POINT_NEUTRAL)
    {
      gains[0] = gains[1] = gains[2] = 1.0;
      return;
    }
  texel_rgb_to_xyz (primaries, m);
  planckian_rgb (m, TEXEL_ADJUST_WHITE_POINT_NEUTRAL, ref);
  planckian_rgb (m, kelvin, lit);
  for (c = 0; c < 3; c++)
    gains[c] = ref[c] / lit[c];
}

/* The Y'CbCr matrix a YUV format really uses ("RGB" makes no sense for
 * one: read as BT.709, as the converter does). */
static TexelMatrix
yuv_matrix (TexelMatrix matrix)
{
  return matrix == TEXEL_MATRIX_RGB ? TEXEL_MATRIX_BT709 : matrix;
}

static void
affine_mul (Affine a, Affine b, Affine r)
{
  Affine t;
  int k, c;

  /* r = a after b: r(x) = a (b (x)) */
  for (k = 0; k < 3; k++)
    {
      for (c = 0; c < 4; c++)
        {
          t[k][c] = a[k][0] * b[0][c] + a[k][1] * b[1][c] + a[k][2] * b[2][c];
          if (c == 3)
            t[k][c] += a[k][3];
        }
    }
  memcpy (r, t, sizeof (Affine));
}

/* R'G'B' -> (Y', Cb, Cr) with Y' in [0, 1], Cb and Cr in [-0.5, 0.5]. */
static void
encode_ycbcr (TexelMatrix matrix, Affine e)
{
  double kr, kb, kg;

  texel_matrix_coefficients (matrix, &kr, &kb);
  kg = 1.0 - kr - kb;
  memset (e, 0, sizeof (Affine));
  e[0][0] = kr;
  e[0][1] = kg;
  e[0][2] = kb;
  /* Cb = (B' - Y') / (2 (1 - Kb)), Cr = (R' - Y') / (2 (1 - Kr)) */
  e[1][0] = -kr / (2.0 * (1.0 - kb));
  e[1][1] = -kg / (2.0 * (1.0 - kb));
  e[1][2] = 0.5;
  e[2][0] = 0.5;
  e[2][1] = -kg / (2.0 * (1.0 - kr));
  e[2][2] = -kb / (2.0 * (1.0 - kr));
}

/* Its inverse. */
static void
decode_ycbcr (TexelMatrix matrix, Affine d)
{
  double kr, kb, kg;

  texel_matrix_coefficients (matrix, &kr, &kb);
  kg = 1.0 - kr - kb;
  memset (d, 0, sizeof (Affine));
  d[0][0] = d[1][0] = d[2][0] = 1.0;
  d[0][2] = 2.0 * (1.0 - kr);
  d[2][1] = 2.0 * (1.0 - kb);
  d[1][1] = -kb * 2.0 * (1.0 - kb) / kg;
  d[1][2] = -kr * 2.0 * (1.0 - kr) / kg;
}

/* Y'CbCr codes of @desc: code = off + range * value. */
static void
quantisation (const TexelFormatDesc *desc, int full_range, double off[3],
              double range[3])
{
  double scale = (double)(1 << (desc->bits - 8));
  double max = (double)((1 << desc->bits) - 1);

  off[0] = full_range ? 0.0 : 16.0 * scale;
  off[1] = off[2] = 128.0 * scale;
  range[0] = full_range ? max : 219.0 * scale;
  range[1] = range[2] = full_range ? max : 224.0 * scale;
}

static void
curve_init (TexelAdjustPlan *plan, const TexelAdjustConfig *config)
{
  TexelAdjustCurve *cv = &plan->curve;
  TexelAdjustCurveF *f = &plan->kernel.curve_f;
  double k, wp[3];
  int c;

  texel_transfer_params (config->transfer, &cv->alpha, &cv->power, &cv->beta,
                         &cv->slope);
  cv->dec_knee = cv->slope * cv->beta;
  k = exp2 (config->exposure);
  texel_white_point_gains (config->primaries, config->white_point, wp);
  for (c = 0; c < 3; c++)
    cv->k[c] = config->gain[c] * wp[c] * k;
  cv->inv_gamma = 1.0 / config->linear_gamma;
  cv->toe = TEXEL_ADJUST_TOE;
  cv->toe_slope = pow (cv->toe, cv->inv_gamma - 1.0);
  cv->tone_map = config->tone_map;

  f->dec_knee = (float)cv->dec_knee;
  f->dec_scale = (float)(1.0 / (1.0 + cv->alpha));
  f->dec_offset = (float)(cv->alpha / (1.0 + cv->alpha));
  f->dec_pow = (float)(1.0 / cv->power);
  for (c = 0; c < 3; c++)
    {
      f->log2k[c] = cv->k[c] > 0.0 ? (float)log2 (cv->k[c]) : -INFINITY;
      f->lin_k[c] = (float)(cv->k[c] / cv->slope);
    }
  f->toe = (float)cv->toe;
  f->log2_toe = (float)log2 (cv->toe);
  f->toe_slope = (float)cv->toe_slope;
  f->inv_gamma = (float)cv->inv_gamma;
  f->tone_map = cv->tone_map;
  f->enc_knee = (float)cv->beta;
  f->log2_enc_knee = cv->beta > 0.0 ? (float)log2 (cv->beta) : -INFINITY;
  f->enc_mul = (float)(1.0 + cv->alpha);
  f->enc_sub = (float)cv->alpha;
  f->enc_pow = (float)cv->power;
  f->enc_lin = (float)cv->slope;
}

/* v = 1 + strength r^2 with r^2 = (dx^2 + dy^2) / half-diagonal^2, dx
 * and dy from the centre: in the kernels dx = x - (W/2 - 0.5), exact in
 * float. */
static void
vignette_init (TexelAdjustPlan *plan, double strength)
{
  TexelAdjustKernelPlan *k = &plan->kernel;
  double hw = 0.5 * k->width, hh = 0.5 * k->height;

  plan->vignette = strength;
  k->positional = strength != 0.0;
  k->vig_cx = (float)(hw - 0.5);
  k->vig_cy = (float)(hh - 0.5);
  k->vig_k = (float)(strength / (hw * hw + hh * hh));
}

/* Stage 2: `gamma ! videobalance`, their parameters as the elements
 * compute them (brightness * 255 first, as videobalance's table does),
 * and at 8 bits their tables, from the reference's own functions. */
static void
gst_init (TexelAdjustPlan *plan, const TexelAdjustConfig *config)
{
  TexelAdjustGst *g = &plan->kernel.gst;
  int bits = plan->kernel.fmt.bits, i;

  g->gamma = config->gamma != 1.0;
  g->balance = !balance_neutral (config);
  g->scale = 1 << (bits - 8);
  g->max = (double)((1 << bits) - 1);
  g->inv_gamma = 1.0 / config->gamma;
  g->contrast = config->contrast;
  g->bright = config->brightness * 255.0 * g->scale;
  g->saturation = config->saturation;
  g->hue_cos = cos (M_PI * config->hue);
  g->hue_sin = sin (M_PI * config->hue);
  if (bits != 8)
    return;
  for (i = 0; i < 256; i++)
    {
      g->table[0][i] = (uint8_t)texel_adjust_gst_gamma_d (g, i);
      g->table[1][i] = (uint8_t)texel_adjust_gst_luma_d (g, i);
    }
}

/* RGB formats: per-channel LUTs of the curves (identity without the
 * linear stage); stage 2 runs on the codes after them. */
static void
rgb_plan (TexelAdjustPlan *plan)
{
  int c, i;

  /* A vignette makes the curve depend on the position: no LUT. */
  plan->kernel.kind = plan->kernel.positional ? TEXEL_ADJUST_KIND_RGB_PIXEL
                                              : TEXEL_ADJUST_KIND_LUT;
  for (c = 0; c < 3; c++)
    for (i = 0; i < 256; i++)
      plan->kernel.lut[c][i]
          = (float)(plan->kernel.linear
                        ? texel_adjust_curve_d (&plan->curve, c, i / 255.0, 1.0)
                        : i / 255.0);
}

static void
yuv_plan (TexelAdjustPlan *plan, const TexelAdjustConfig *config)
{
  const TexelFormatDesc *desc = &plan->kernel.fmt;
  TexelMatrix matrix = yuv_matrix (config->matrix);
  double off[3], range[3], max = plan->kernel.max_code;
  Affine e, d, q;
  int k, c;

  quantisation (desc, config->full_range, off, range);
  for (c = 0; c < 3; c++)
    {
      plan->off_d[c] = off[c];
      plan->kernel.off[c] = (float)off[c];
    }
  /* Centred codes -> R'G'B' ... */
  decode_ycbcr (matrix, d);
  for (k = 0; k < 3; k++)
    for (c = 0; c < 3; c++)
      plan->dec_d[k][c] = d[k][c] / range[c];
  /* ... and R'G'B' -> normalised codes. */
  encode_ycbcr (matrix, e);
  memset (q, 0, sizeof (Affine));
  for (k = 0; k < 3; k++)
    {
      q[k][k] = range[k] / max;
      q[k][3] = off[k] / max;
    }
  affine_mul (q, e, plan->enc_d);
  for (k = 0; k < 3; k++)
    {
      for (c = 0; c < 3; c++)
        plan->kernel.dec[k][c] = (float)plan->dec_d[k][c];
      for (c = 0; c < 4; c++)
        plan->kernel.enc[k][c] = (float)plan->enc_d[k][c];
    }
  plan->kernel.kind = plan->kernel.linear || plan->cube != NULL
                          ? TEXEL_ADJUST_KIND_YUV_RGB
                          : TEXEL_ADJUST_KIND_YUV_SEPARABLE;
}

/* The 3D LUT's lattice mapping, and whether hardware filtering keeps
 * within TEXEL_ADJUST_LUT3D_HW_MAX_ERROR (texel-adjust.h): its weight
 * error, 2^-8 per axis, times the steps between neighbouring entries,
 * times the largest row sum of the encoding after the LUT. */
static void
lut3d_init (TexelAdjustPlan *plan)
{
  const TexelCube *cube = plan->cube;
  TexelAdjustKernelPlan *kp = &plan->kernel;
  double g = 1.0, steps = 0.0;
  int c, k;

  kp->lut3d_size = cube->size;
  for (c = 0; c < 3; c++)
    {
      double scale
          = (cube->size - 1) / (cube->domain_max[c] - cube->domain_min[c]);

      kp->lut3d_scale[c] = (float)scale;
      kp->lut3d_offset[c] = (float)(-cube->domain_min[c] * scale);
      steps += cube->max_step[c];
    }
  if (kp->fmt.is_yuv)
    {
      g = 0.0;
      for (k = 0; k < 3; k++)
        g = fmax (g, fabs (plan->enc_d[k][0]) + fabs (plan->enc_d[k][1])
                         + fabs (plan->enc_d[k][2]));
    }
  plan->lut3d_hw_error = kp->max_code * g * steps / 256.0;
  kp->lut3d_hw = plan->lut3d_hw_error <= TEXEL_ADJUST_LUT3D_HW_MAX_ERROR;
  kp->lut3d = 1;
}

/* Chromaticities inside the unit triangle, y > 0, and a triangle of
 * primaries that is not degenerate. */
static int
primaries_valid (const double primaries[4][2])
{
  double m[3][3];
  int i, c;

  for (i = 0; i < 4; i++)
    if (!(primaries[i][0] >= 0.0 && primaries[i][1] > 0.0
          && primaries[i][0] + primaries[i][1] <= 1.0))
      return 0;
  for (c = 0; c < 3; c++)
    {
      m[0][c] = primaries[c][0];
      m[1][c] = primaries[c][1];
      m[2][c] = 1.0;
    }
  return fabs (det3 (m)) > 1e-6;
}

int
texel_adjust_plan_init (TexelAdjustPlan *plan, const TexelAdjustConfig *config,
                        TexelFormat format, int width, int height,
                        const char **error)
{
  const TexelFormatDesc *desc = texel_format_desc (format);
  const char *why = NULL;
  int c;

  memset (plan, 0, sizeof (*plan));
  if (desc == NULL)
    why = "unknown format";
  else if (width <= 0 || height <= 0)
    why = "empty image";
  else if (!(config->gamma >= TEXEL_ADJUST_GAMMA_MIN
             && config->gamma <= TEXEL_ADJUST_GAMMA_MAX))
    why = "gamma out of range";
  else if (!(config->linear_gamma >= TEXEL_ADJUST_GAMMA_MIN
             && config->linear_gamma <= TEXEL_ADJUST_GAMMA_MAX))
    why = "linear gamma out of range";
  else if (!(fabs (config->exposure) <= TEXEL_ADJUST_EXPOSURE_MAX))
    why = "exposure out of range";
  for (c = 0; c < 3 && why == NULL; c++)
    if (!(config->gain[c] >= 0.0 && config->gain[c] <= TEXEL_ADJUST_GAIN_MAX))
      why = "gain out of range";
  if (why == NULL
      && !(config->white_point >= TEXEL_ADJUST_WHITE_POINT_MIN
           && config->white_point <= TEXEL_ADJUST_WHITE_POINT_MAX))
    why = "white point out of range";
  if (why == NULL
      && !(config->tone_map == TEXEL_TONE_MAP_NONE
           || config->tone_map == TEXEL_TONE_MAP_REINHARD
           || config->tone_map == TEXEL_TONE_MAP_FILMIC))
    why = "unknown tone map";
  if (why == NULL
      && !(config->vignette >= TEXEL_ADJUST_VIGNETTE_MIN
           && config->vignette <= TEXEL_ADJUST_VIGNETTE_MAX))
    why = "vignette strength out of range";
  if (why == NULL && !primaries_valid (config->primaries))
    why = "invalid primaries";
  if (why == NULL)
    {
      double wp[3];

      texel_white_point_gains (config->primaries, config->white_point, wp);
      for (c = 0; c < 3; c++)
        if (!(wp[c] > 0.0 && wp[c] < 1e3))
          why = "white point outside the primaries' gamut";
    }
  if (why == NULL
      && !(config->contrast >= 0.0 && config->saturation >= 0.0
           && isfinite (config->brightness) && isfinite (config->hue)
           && isfinite (config->contrast) && isfinite (config->saturation)))
    why = "balance out of range";
  if (why == NULL && desc->bits > 8 && !desc->is_yuv)
    why = "RGB formats of more than 8 bits are not supported";
  /* The tables by code (GRAY8's curve) stop at 10 bits. */
  if (why == NULL && desc->bits > 10)
    why = "formats of more than 10 bits are not supported";
  if (why == NULL && config->cube != NULL
      && !(config->cube->size >= TEXEL_CUBE_MIN_SIZE
           && config->cube->size <= TEXEL_CUBE_MAX_SIZE
           && config->cube->table != NULL))
    why = "invalid 3D LUT";
  if (why != NULL)
    {
      if (error != NULL)
        *error = why;
      return -1;
    }

  plan->kernel.fmt = *desc;
  plan->kernel.width = width;
  plan->kernel.height = height;
  plan->kernel.max_code = (float)((1 << desc->bits) - 1);
  plan->kernel.linear = !texel_adjust_config_linear_neutral (config);
  plan->kernel.has_chroma = desc->is_yuv && !desc->is_gray;
  if (plan->kernel.has_chroma)
    {
      plan->kernel.x_shift = desc->comp[1].x_shift;
      plan->kernel.y_shift = desc->comp[1].y_shift;
    }
  plan->kernel.pad_offset = texel_format_padding_offset (desc);
  plan->cube = config->cube;
  curve_init (plan, config);
  vignette_init (plan, config->vignette);
  gst_init (plan, config);

  if (!desc->is_yuv)
    {
      rgb_plan (plan);
      if (plan->cube != NULL)
        lut3d_init (plan);
      return 0;
    }
  yuv_plan (plan, config);
  if (plan->cube != NULL)
    lut3d_init (plan);
  if (desc->is_gray && !plan->kernel.positional)
    {
      /* GRAY8: every output code is a function of one input code, the
       * reference's own value for it. */
      int i;

      for (i = 0; i < TEXEL_ADJUST_LUT_SIZE; i++)
        {
          double v[3];

          texel_adjust_pixel_d (plan, i - plan->off_d[0], 0.0, 0.0, 1.0, v);
          plan->kernel.lut[0][i] = (float)v[0];
        }
      plan->kernel.kind = TEXEL_ADJUST_KIND_LUT;
      /* The 3D LUT is in the 1D one. */
      plan->kernel.lut3d = 0;
    }
  return 0;
}
