/* gst-texel: turning adjustment settings into a plan.
 *
 * Everything that does not change from frame to frame is worked out here
 * once, in double precision: the Y'CbCr <-> R'G'B' matrices with the
 * balance folded in, the transfer function's constants arranged for the
 * kernels' log2-domain curve, and the LUTs of 8-bit RGB and GRAY8 frames
 * (each entry from the CPU reference's own double-precision function,
 * rounded to float once).
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

void
texel_adjust_config_init (TexelAdjustConfig * config)
{
  memset (config, 0, sizeof (*config));
  config->contrast = 1.0;
  config->saturation = 1.0;
  config->gamma = 1.0;
  config->gain[0] = config->gain[1] = config->gain[2] = 1.0;
  config->matrix = TEXEL_MATRIX_BT709;
  config->transfer = TEXEL_TRANSFER_BT709;
}

int
texel_adjust_config_linear_neutral (const TexelAdjustConfig * config)
{
  return config->gamma == 1.0 && config->exposure == 0.0
      && config->gain[0] == 1.0 && config->gain[1] == 1.0
      && config->gain[2] == 1.0;
}

static int
balance_neutral (const TexelAdjustConfig * config)
{
  return config->brightness == 0.0 && config->contrast == 1.0
      && config->saturation == 1.0 && config->hue == 0.0;
}

int
texel_adjust_config_is_neutral (const TexelAdjustConfig * config)
{
  return texel_adjust_config_linear_neutral (config)
      && balance_neutral (config);
}

void
texel_transfer_params (TexelTransfer transfer, double *alpha, double *power,
    double *beta, double *slope)
{
  *alpha = 0.0;
  *beta = 0.0;
  *slope = 1.0;
  switch (transfer) {
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
  for (k = 0; k < 3; k++) {
    for (c = 0; c < 4; c++) {
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

/* videobalance on normalised (Y', Cb, Cr). */
static void
balance_matrix (const TexelAdjustConfig * config, Affine b)
{
  double s = config->saturation;
  double co = cos (M_PI * config->hue), si = sin (M_PI * config->hue);

  memset (b, 0, sizeof (Affine));
  b[0][0] = config->contrast;
  b[0][3] = config->brightness;
  b[1][1] = s * co;
  b[1][2] = s * si;
  b[2][1] = -s * si;
  b[2][2] = s * co;
}

/* Y'CbCr codes of @desc: code = off + range * value. */
static void
quantisation (const TexelFormatDesc * desc, int full_range, double off[3],
    double range[3])
{
  double scale = (double) (1 << (desc->bits - 8));
  double max = (double) ((1 << desc->bits) - 1);

  off[0] = full_range ? 0.0 : 16.0 * scale;
  off[1] = off[2] = 128.0 * scale;
  range[0] = full_range ? max : 219.0 * scale;
  range[1] = range[2] = full_range ? max : 224.0 * scale;
}

static void
curve_init (TexelAdjustPlan * plan, const TexelAdjustConfig * config)
{
  TexelAdjustCurve *cv = &plan->curve;
  TexelAdjustCurveF *f = &plan->curve_f;
  double k;
  int c;

  texel_transfer_params (config->transfer, &cv->alpha, &cv->power,
      &cv->beta, &cv->slope);
  cv->dec_knee = cv->slope * cv->beta;
  k = exp2 (config->exposure);
  for (c = 0; c < 3; c++)
    cv->k[c] = config->gain[c] * k;
  cv->inv_gamma = 1.0 / config->gamma;
  cv->toe = TEXEL_ADJUST_TOE;
  cv->toe_slope = pow (cv->toe, cv->inv_gamma - 1.0);

  f->dec_knee = (float) cv->dec_knee;
  f->dec_scale = (float) (1.0 / (1.0 + cv->alpha));
  f->dec_offset = (float) (cv->alpha / (1.0 + cv->alpha));
  f->dec_pow = (float) (1.0 / cv->power);
  for (c = 0; c < 3; c++) {
    f->log2k[c] = cv->k[c] > 0.0 ? (float) log2 (cv->k[c]) : -INFINITY;
    f->lin_k[c] = (float) (cv->k[c] / cv->slope);
  }
  f->toe = (float) cv->toe;
  f->log2_toe = (float) log2 (cv->toe);
  f->toe_slope = (float) cv->toe_slope;
  f->inv_gamma = (float) cv->inv_gamma;
  f->enc_knee = (float) cv->beta;
  f->log2_enc_knee = cv->beta > 0.0 ? (float) log2 (cv->beta) : -INFINITY;
  f->enc_mul = (float) (1.0 + cv->alpha);
  f->enc_sub = (float) cv->alpha;
  f->enc_pow = (float) cv->power;
  f->enc_lin = (float) cv->slope;
}

/* Byte offset of the unused byte of RGBx-like formats, or -1. */
static int
padding_offset (const TexelFormatDesc * desc)
{
  unsigned used = 0;
  int c, o;

  if (desc->is_yuv || desc->n_planes != 1)
    return -1;
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (desc->comp[c].plane == 0)
      used |= 1u << desc->comp[c].offset;
  for (o = 0; o < desc->comp[0].pixel_stride; o++)
    if (!(used & (1u << o)))
      return o;
  return -1;
}

/* RGB formats: the balance through BT.601 (as videobalance), as one
 * matrix on normalised R'G'B' codes. */
static void
rgb_plan (TexelAdjustPlan * plan, const TexelAdjustConfig * config)
{
  Affine e, d, b;
  int c, k, i;

  encode_ycbcr (TEXEL_MATRIX_BT601, e);
  decode_ycbcr (TEXEL_MATRIX_BT601, d);
  balance_matrix (config, b);
  affine_mul (b, e, b);
  affine_mul (d, b, plan->mat_d);
  plan->has_matrix = !balance_neutral (config);
  plan->kind = TEXEL_ADJUST_KIND_LUT;
  for (c = 0; c < 3; c++)
    for (i = 0; i < 256; i++)
      plan->lut[c][i] = (float) (plan->linear ?
          texel_adjust_curve_d (&plan->curve, c, i / 255.0) : i / 255.0);
  for (k = 0; k < 3; k++)
    for (c = 0; c < 4; c++)
      plan->mat[k][c] = (float) plan->mat_d[k][c];
}

static void
yuv_plan (TexelAdjustPlan * plan, const TexelAdjustConfig * config)
{
  const TexelFormatDesc *desc = &plan->fmt;
  TexelMatrix matrix = yuv_matrix (config->matrix);
  double off[3], range[3], max = plan->max_code;
  Affine e, d, b, q;
  int k, c;

  quantisation (desc, config->full_range, off, range);
  for (c = 0; c < 3; c++) {
    plan->off_d[c] = off[c];
    plan->off[c] = (float) off[c];
  }

  /* Separable: Y = (off_y + contrast * qY + range_y * brightness) / max;
   * C = (off_c + saturation * rotation (qCb, qCr)) / max. */
  balance_matrix (config, b);
  plan->y_coef_d[0] = config->contrast / max;
  plan->y_coef_d[1] = (off[0] + range[0] * config->brightness) / max;
  for (k = 0; k < 2; k++) {
    plan->c_coef_d[k][0] = b[1 + k][1] / max;
    plan->c_coef_d[k][1] = b[1 + k][2] / max;
    plan->c_coef_d[k][2] = off[1 + k] / max;
  }

  /* Linear: q -> R'G'B' ... */
  decode_ycbcr (matrix, d);
  for (k = 0; k < 3; k++)
    for (c = 0; c < 3; c++)
      plan->dec_d[k][c] = d[k][c] / range[c];
  /* ... R'G'B' -> (Y', Cb, Cr) -> balance -> normalised codes. */
  encode_ycbcr (matrix, e);
  affine_mul (b, e, e);
  memset (q, 0, sizeof (Affine));
  for (k = 0; k < 3; k++) {
    q[k][k] = range[k] / max;
    q[k][3] = off[k] / max;
  }
  affine_mul (q, e, plan->enc_d);

  for (k = 0; k < 2; k++) {
    plan->y_coef[k] = (float) plan->y_coef_d[k];
    for (c = 0; c < 3; c++)
      plan->c_coef[k][c] = (float) plan->c_coef_d[k][c];
  }
  for (k = 0; k < 3; k++) {
    for (c = 0; c < 3; c++)
      plan->dec[k][c] = (float) plan->dec_d[k][c];
    for (c = 0; c < 4; c++)
      plan->enc[k][c] = (float) plan->enc_d[k][c];
  }
  plan->kind = plan->linear ? TEXEL_ADJUST_KIND_YUV_LINEAR :
      TEXEL_ADJUST_KIND_YUV_SEPARABLE;
}

int
texel_adjust_plan_init (TexelAdjustPlan * plan,
    const TexelAdjustConfig * config, TexelFormat format, int width,
    int height, const char **error)
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
  else if (!(fabs (config->exposure) <= TEXEL_ADJUST_EXPOSURE_MAX))
    why = "exposure out of range";
  for (c = 0; c < 3 && why == NULL; c++)
    if (!(config->gain[c] >= 0.0 && config->gain[c] <= TEXEL_ADJUST_GAIN_MAX))
      why = "gain out of range";
  if (why == NULL && !(config->contrast >= 0.0 && config->saturation >= 0.0
          && isfinite (config->brightness) && isfinite (config->hue)
          && isfinite (config->contrast) && isfinite (config->saturation)))
    why = "balance out of range";
  if (why == NULL && desc->bits > 8 && !desc->is_yuv)
    why = "RGB formats of more than 8 bits are not supported";
  if (why != NULL) {
    if (error != NULL)
      *error = why;
    return -1;
  }

  plan->fmt = *desc;
  plan->width = width;
  plan->height = height;
  plan->max_code = (float) ((1 << desc->bits) - 1);
  plan->linear = !texel_adjust_config_linear_neutral (config);
  plan->has_chroma = desc->is_yuv && !desc->is_gray;
  if (plan->has_chroma) {
    plan->x_shift = desc->comp[1].x_shift;
    plan->y_shift = desc->comp[1].y_shift;
  }
  plan->pad_offset = padding_offset (desc);
  curve_init (plan, config);

  if (!desc->is_yuv) {
    rgb_plan (plan, config);
    return 0;
  }
  yuv_plan (plan, config);
  if (desc->is_gray) {
    /* GRAY8: every output code is a function of one input code, the
     * reference's own value for it. */
    int i;

    for (i = 0; i < TEXEL_ADJUST_LUT_SIZE; i++) {
      double v[3];

      texel_adjust_yuv_pixel_d (plan, i - plan->off_d[0], 0.0, 0.0, v);
      plan->lut[0][i] = (float) v[0];
    }
    plan->kind = TEXEL_ADJUST_KIND_LUT;
  }
  return 0;
}
