/* gst-texel: the CPU reference of texeladjust.
 *
 * Written for clarity, in double precision, straight from the formulas of
 * texel-adjust.h: it defines what the CUDA kernels should compute, and is
 * the fallback where no GPU is available. It uses none of the plan's
 * float members or LUTs (the LUTs are built from these functions).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-adjust.h"

#include <math.h>

static double
clamp01 (double v)
{
  return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
}

/* Inverse of the encoding below: signal V -> linear L. */
double
texel_transfer_decode (const TexelAdjustCurve * cv, double v)
{
  if (v < cv->dec_knee)
    return v / cv->slope;
  return pow ((v + cv->alpha) / (1.0 + cv->alpha), 1.0 / cv->power);
}

/* Linear L -> signal V (the OETF, or sRGB's encoding). */
double
texel_transfer_encode (const TexelAdjustCurve * cv, double l)
{
  if (l < cv->beta)
    return cv->slope * l;
  return (1.0 + cv->alpha) * pow (l, cv->power) - cv->alpha;
}

double
texel_adjust_curve_d (const TexelAdjustCurve * cv, int c, double v)
{
  double l = texel_transfer_decode (cv, clamp01 (v));
  double l2 = fmin (1.0, cv->k[c] * l);
  double l3;

  if (l2 >= cv->toe)
    l3 = pow (l2, cv->inv_gamma);
  else
    l3 = l2 * cv->toe_slope;
  return texel_transfer_encode (cv, l3);
}

void
texel_adjust_yuv_pixel_d (const TexelAdjustPlan * plan, double qy, double qb,
    double qr, double out[3])
{
  double rgb[3];
  int k;

  if (!plan->linear) {
    out[0] = plan->y_coef_d[0] * qy + plan->y_coef_d[1];
    for (k = 0; k < 2; k++)
      out[1 + k] = plan->c_coef_d[k][0] * qb + plan->c_coef_d[k][1] * qr
          + plan->c_coef_d[k][2];
    return;
  }
  for (k = 0; k < 3; k++)
    rgb[k] = texel_adjust_curve_d (&plan->curve, k, plan->dec_d[k][0] * qy
        + plan->dec_d[k][1] * qb + plan->dec_d[k][2] * qr);
  for (k = 0; k < 3; k++)
    out[k] = plan->enc_d[k][0] * rgb[0] + plan->enc_d[k][1] * rgb[1]
        + plan->enc_d[k][2] * rgb[2] + plan->enc_d[k][3];
}

static uint8_t *
sample_address (const TexelImage * img, const TexelComponent * comp, int x,
    int y)
{
  return img->data[comp->plane] + (size_t) y * img->stride[comp->plane]
      + comp->offset + (size_t) x * comp->pixel_stride;
}

static unsigned
read_code (const TexelAdjustPlan * plan, const TexelImage * img, int c, int x,
    int y)
{
  const uint8_t *p = sample_address (img, &plan->fmt.comp[c], x, y);

  if (plan->fmt.bytes_per_sample == 2)
    return (unsigned) (p[0] | (p[1] << 8)) >> plan->fmt.shift;
  return p[0];
}

static void
write_code (const TexelAdjustPlan * plan, TexelImage * img, int c, int x,
    int y, unsigned code)
{
  uint8_t *p = sample_address (img, &plan->fmt.comp[c], x, y);

  if (plan->fmt.bytes_per_sample == 2) {
    code <<= plan->fmt.shift;
    p[0] = (uint8_t) (code & 0xff);
    p[1] = (uint8_t) (code >> 8);
  } else {
    p[0] = (uint8_t) code;
  }
}

/* Clamps a normalised value and rounds it to the nearest code (round ()
 * rounds halves away from zero: up, for these non-negative values). */
static void
write_value (const TexelAdjustPlan * plan, TexelImage * img, int c, int x,
    int y, double v)
{
  write_code (plan, img, c, x, y, (unsigned) round (clamp01 (v) *
          plan->max_code));
}

static void
adjust_rgb_pixel (const TexelAdjustPlan * plan, const TexelImage * in,
    TexelImage * out, int x, int y)
{
  double v[3];
  int c, k;

  for (c = 0; c < 3; c++) {
    v[c] = read_code (plan, in, c, x, y) / 255.0;
    if (plan->linear)
      v[c] = texel_adjust_curve_d (&plan->curve, c, v[c]);
  }
  for (k = 0; k < 3; k++) {
    double o = v[k];

    if (plan->has_matrix)
      o = plan->mat_d[k][0] * v[0] + plan->mat_d[k][1] * v[1]
          + plan->mat_d[k][2] * v[2] + plan->mat_d[k][3];
    write_value (plan, out, k, x, y, o);
  }
  if (plan->fmt.comp[3].plane >= 0)
    write_code (plan, out, 3, x, y, read_code (plan, in, 3, x, y));
  /* RGBx's unused byte: 0xff, as the converter writes it. */
  if (plan->pad_offset >= 0)
    out->data[0][(size_t) y * out->stride[0] + plan->pad_offset
        + (size_t) x * plan->fmt.comp[0].pixel_stride] = 0xff;
}

/* The luma pixels that chroma sample (@bx, @by) covers, and the sample. */
static void
adjust_yuv_block (const TexelAdjustPlan * plan, const TexelImage * in,
    TexelImage * out, int bx, int by)
{
  int x0 = bx << plan->x_shift, y0 = by << plan->y_shift;
  int x1 = x0 + (1 << plan->x_shift), y1 = y0 + (1 << plan->y_shift);
  double qb = 0.0, qr = 0.0, sum[2] = { 0.0, 0.0 }, v[3];
  int x, y, n = 0;

  if (x1 > plan->width)
    x1 = plan->width;
  if (y1 > plan->height)
    y1 = plan->height;
  if (plan->has_chroma) {
    qb = read_code (plan, in, 1, bx, by) - plan->off_d[1];
    qr = read_code (plan, in, 2, bx, by) - plan->off_d[2];
  }
  for (y = y0; y < y1; y++) {
    for (x = x0; x < x1; x++) {
      double qy = read_code (plan, in, 0, x, y) - plan->off_d[0];

      texel_adjust_yuv_pixel_d (plan, qy, qb, qr, v);
      write_value (plan, out, 0, x, y, v[0]);
      sum[0] += v[1];
      sum[1] += v[2];
      n++;
    }
  }
  if (!plan->has_chroma)
    return;
  if (plan->linear) {
    /* The mean of the adjusted chroma of the covered pixels. */
    v[1] = sum[0] / n;
    v[2] = sum[1] / n;
  }
  /* Else luma did not matter: v holds the chroma of the block. */
  write_value (plan, out, 1, bx, by, v[1]);
  write_value (plan, out, 2, bx, by, v[2]);
}

void
texel_adjust_cpu (const TexelAdjustPlan * plan, const TexelImage * in,
    TexelImage * out, int row0, int row1)
{
  int bw = -((-plan->width) >> plan->x_shift);
  int bh = -((-plan->height) >> plan->y_shift);
  int by0, by1, bx, by;

  if (row0 < 0)
    row0 = 0;
  if (row1 > plan->height)
    row1 = plan->height;
  if (row0 >= row1)
    return;
  /* Whole blocks starting in [row0, row1). */
  by0 = (row0 + (1 << plan->y_shift) - 1) >> plan->y_shift;
  by1 = (row1 + (1 << plan->y_shift) - 1) >> plan->y_shift;
  if (by1 > bh)
    by1 = bh;

  for (by = by0; by < by1; by++) {
    for (bx = 0; bx < bw; bx++) {
      if (plan->fmt.is_yuv)
        adjust_yuv_block (plan, in, out, bx, by);
      else
        adjust_rgb_pixel (plan, in, out, bx, by);
    }
  }
}
