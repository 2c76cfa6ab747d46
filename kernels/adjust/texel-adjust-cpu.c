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
texel_transfer_decode (const TexelAdjustCurve *cv, double v)
{
  if (v < cv->dec_knee)
    return v / cv->slope;
  return pow ((v + cv->alpha) / (1.0 + cv->alpha), 1.0 / cv->power);
}

/* Linear L -> signal V (the OETF, or sRGB's encoding). */
double
texel_transfer_encode (const TexelAdjustCurve *cv, double l)
{
  if (l < cv->beta)
    return cv->slope * l;
  return (1.0 + cv->alpha) * pow (l, cv->power) - cv->alpha;
}

double
texel_tone_map_d (TexelToneMap tone_map, double x)
{
  switch (tone_map)
    {
      case TEXEL_TONE_MAP_REINHARD:
        return x / (1.0 + x);
      case TEXEL_TONE_MAP_FILMIC:
        return fmin (1.0,
                     x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14));
      case TEXEL_TONE_MAP_NONE:
      default:
        return fmin (1.0, x);
    }
}

/* 1 + strength * r^2, r the distance of the pixel's centre from the
 * frame's centre over the half-diagonal. */
double
texel_adjust_vignette_d (const TexelAdjustPlan *plan, int x, int y)
{
  double hw = 0.5 * plan->kernel.width, hh = 0.5 * plan->kernel.height;
  double dx = x + 0.5 - hw, dy = y + 0.5 - hh;

  return 1.0 + plan->vignette * (dx * dx + dy * dy) / (hw * hw + hh * hh);
}

double
texel_adjust_curve_d (const TexelAdjustCurve *cv, int c, double v, double gain)
{
  double l = texel_transfer_decode (cv, clamp01 (v));
  double l2 = texel_tone_map_d (cv->tone_map, cv->k[c] * gain * l);
  double l3;

  if (l2 >= cv->toe)
    l3 = pow (l2, cv->inv_gamma);
  else
    l3 = l2 * cv->toe_slope;
  return texel_transfer_encode (cv, l3);
}

/* Trilinear: the 8 entries around the lattice point, each weighted by
 * the product of its closeness along the three axes. */
void
texel_adjust_lut3d_d (const TexelAdjustPlan *plan, double v[3])
{
  const TexelCube *cube = plan->cube;
  int n = cube->size, i[3], c, corner;
  double f[3], out[3] = { 0.0, 0.0, 0.0 };

  for (c = 0; c < 3; c++)
    {
      double t = (v[c] - cube->domain_min[c])
                 / (cube->domain_max[c] - cube->domain_min[c]) * (n - 1);

      t = t < 0.0 ? 0.0 : (t > n - 1 ? n - 1 : t);
      i[c] = t >= n - 1 ? n - 2 : (int)floor (t);
      f[c] = t - i[c];
    }
  for (corner = 0; corner < 8; corner++)
    {
      int at[3], e;
      double w = 1.0;

      for (c = 0; c < 3; c++)
        {
          int up = (corner >> c) & 1;

          at[c] = i[c] + up;
          w *= up ? f[c] : 1.0 - f[c];
        }
      e = (at[2] * n + at[1]) * n + at[0];
      for (c = 0; c < 3; c++)
        out[c] += w * texel_cube_entry (cube, e, c);
    }
  for (c = 0; c < 3; c++)
    v[c] = out[c];
}

void
texel_adjust_yuv_pixel_d (const TexelAdjustPlan *plan, double qy, double qb,
                          double qr, double gain, double out[3])
{
  double q[3] = { qy, qb, qr }, rgb[3];
  int k;

  if (!plan->kernel.linear)
    {
      for (k = 0; k < 3; k++)
        out[k] = (q[k] + plan->off_d[k]) / plan->kernel.max_code;
      return;
    }
  for (k = 0; k < 3; k++)
    rgb[k]
        = texel_adjust_curve_d (&plan->curve, k,
                                plan->dec_d[k][0] * qy + plan->dec_d[k][1] * qb
                                    + plan->dec_d[k][2] * qr,
                                gain);
  for (k = 0; k < 3; k++)
    out[k] = plan->enc_d[k][0] * rgb[0] + plan->enc_d[k][1] * rgb[1]
             + plan->enc_d[k][2] * rgb[2] + plan->enc_d[k][3];
}

/* The nearest code of normalised @v, clamped (round () rounds halves
 * away from zero: up, for these non-negative values). */
static unsigned
code_of (double v, double max)
{
  return (unsigned)round (clamp01 (v) * max);
}

void
texel_adjust_pixel_d (const TexelAdjustPlan *plan, double qy, double qb,
                      double qr, double gain, double out[3])
{
  const TexelAdjustGst *g = &plan->kernel.gst;
  double max = plan->kernel.max_code, rgb[3];
  unsigned c[3];
  int k, i;

  texel_adjust_yuv_pixel_d (plan, qy, qb, qr, gain, out);
  if (g->gamma || g->balance)
    {
      for (k = 0; k < 3; k++)
        c[k] = code_of (out[k], max);
      out[0] = texel_adjust_gst_luma_d (g, texel_adjust_gst_gamma_d (g, c[0]))
               / max;
      if (plan->cube == NULL)
        return;
      texel_adjust_gst_chroma_d (g, c[1], c[2], c + 1);
      out[1] = c[1] / max;
      out[2] = c[2] / max;
    }
  if (plan->cube == NULL)
    return;
  /* The LUT on R'G'B' of these codes. */
  for (k = 0; k < 3; k++)
    {
      rgb[k] = 0.0;
      for (i = 0; i < 3; i++)
        rgb[k] += plan->dec_d[k][i] * (out[i] * max - plan->off_d[i]);
    }
  texel_adjust_lut3d_d (plan, rgb);
  for (k = 0; k < 3; k++)
    out[k] = plan->enc_d[k][0] * rgb[0] + plan->enc_d[k][1] * rgb[1]
             + plan->enc_d[k][2] * rgb[2] + plan->enc_d[k][3];
}

/* ------------------------------------------------------------------ */
/* Stage 2: the elements' definitions, as texel-adjust.h writes them. */

/* rint (clamp (v, 0, max)): videobalance's rounding, halves to even. */
static unsigned
gst_round (const TexelAdjustGst *g, double v)
{
  if (v < 0.0)
    v = 0.0;
  else if (v > g->max)
    v = g->max;
  return (unsigned)rint (v);
}

unsigned
texel_adjust_gst_gamma_d (const TexelAdjustGst *g, unsigned y)
{
  if (!g->gamma)
    return y;
  return (unsigned)floor (g->max * pow (y / g->max, g->inv_gamma) + 0.5);
}

unsigned
texel_adjust_gst_luma_d (const TexelAdjustGst *g, unsigned y)
{
  double black = 16.0 * g->scale;

  if (!g->balance)
    return y;
  return gst_round (g, black + ((y - black) * g->contrast + g->bright));
}

void
texel_adjust_gst_chroma_d (const TexelAdjustGst *g, unsigned u, unsigned v,
                           unsigned out[2])
{
  double mid = 128.0 * g->scale, cu = u - mid, cv = v - mid;

  if (!g->balance)
    {
      out[0] = u;
      out[1] = v;
      return;
    }
  out[0] = gst_round (
      g, mid + (cu * g->hue_cos + cv * g->hue_sin) * g->saturation);
  out[1] = gst_round (
      g, mid + (-cu * g->hue_sin + cv * g->hue_cos) * g->saturation);
}

/* The elements' fixed-point BT.601 matrices: out = floor ((m . in + m3) /
 * 256). */
static const int gst_to_ycbcr[3][4] = { { 66, 129, 25, 4096 },
                                        { -38, -74, 112, 32768 },
                                        { 112, -94, -18, 32768 } };
static const int gst_to_rgb[3][4] = { { 298, 0, 409, -57068 },
                                      { 298, -100, -208, 34707 },
                                      { 298, 516, 0, -70870 } };

static void
gst_matrix (const int m[3][4], const int in[3], int out[3])
{
  int k;

  for (k = 0; k < 3; k++)
    out[k] = (int)floor (
        (m[k][0] * in[0] + m[k][1] * in[1] + m[k][2] * in[2] + m[k][3])
        / 256.0);
}

static int
clamp_code (int v)
{
  return v < 0 ? 0 : (v > 255 ? 255 : v);
}

/* One element's pass: R'G'B' -> Y'CbCr, the element, back, clamped. */
static void
gst_rgb_pass (const TexelAdjustGst *g, int balance, unsigned rgb[3])
{
  int in[3], ycc[3], out[3], k;

  for (k = 0; k < 3; k++)
    in[k] = (int)rgb[k];
  gst_matrix (gst_to_ycbcr, in, ycc);
  if (balance)
    {
      unsigned c[2];

      for (k = 0; k < 3; k++)
        ycc[k] = clamp_code (ycc[k]);
      texel_adjust_gst_chroma_d (g, ycc[1], ycc[2], c);
      ycc[0] = (int)texel_adjust_gst_luma_d (g, ycc[0]);
      ycc[1] = (int)c[0];
      ycc[2] = (int)c[1];
    }
  else
    {
      ycc[0] = (int)texel_adjust_gst_gamma_d (g, clamp_code (ycc[0]));
    }
  gst_matrix (gst_to_rgb, ycc, out);
  for (k = 0; k < 3; k++)
    rgb[k] = (unsigned)clamp_code (out[k]);
}

void
texel_adjust_gst_rgb_d (const TexelAdjustGst *g, unsigned rgb[3])
{
  if (g->gamma)
    gst_rgb_pass (g, 0, rgb);
  if (g->balance)
    gst_rgb_pass (g, 1, rgb);
}

static uint8_t *
sample_address (const TexelImage *img, const TexelComponent *comp, int x, int y)
{
  return img->data[comp->plane] + (size_t)y * img->stride[comp->plane]
         + comp->offset + (size_t)x * comp->pixel_stride;
}

static unsigned
read_code (const TexelFormatDesc *fmt, const TexelImage *img, int c, int x,
           int y)
{
  const uint8_t *p = sample_address (img, &fmt->comp[c], x, y);

  if (fmt->bytes_per_sample == 2)
    return texel_word_code ((unsigned)(p[0] | (p[1] << 8)), fmt);
  return p[0];
}

static void
write_code (const TexelFormatDesc *fmt, TexelImage *img, int c, int x, int y,
            unsigned code)
{
  uint8_t *p = sample_address (img, &fmt->comp[c], x, y);

  if (fmt->bytes_per_sample == 2)
    {
      code <<= fmt->shift;
      p[0] = (uint8_t)(code & 0xff);
      p[1] = (uint8_t)(code >> 8);
    }
  else
    {
      p[0] = (uint8_t)code;
    }
}

/* Clamps a normalised value and rounds it to the nearest code (round ()
 * rounds halves away from zero: up, for these non-negative values). */
static void
write_value (const TexelAdjustKernelPlan *k, TexelImage *img, int c, int x,
             int y, double v)
{
  write_code (&k->fmt, img, c, x, y,
              (unsigned)round (clamp01 (v) * k->max_code));
}

static void
adjust_rgb_pixel (const TexelAdjustPlan *plan, const TexelImage *in,
                  TexelImage *out, int x, int y)
{
  const TexelAdjustKernelPlan *kp = &plan->kernel;
  const TexelAdjustGst *g = &kp->gst;
  double v[3], gain = texel_adjust_vignette_d (plan, x, y);
  int c;

  for (c = 0; c < 3; c++)
    {
      v[c] = read_code (&kp->fmt, in, c, x, y) / 255.0;
      if (kp->linear)
        v[c] = texel_adjust_curve_d (&plan->curve, c, v[c], gain);
    }
  if (g->gamma || g->balance)
    {
      unsigned codes[3];

      for (c = 0; c < 3; c++)
        codes[c] = code_of (v[c], 255.0);
      texel_adjust_gst_rgb_d (g, codes);
      for (c = 0; c < 3; c++)
        v[c] = codes[c] / 255.0;
    }
  if (plan->cube != NULL)
    texel_adjust_lut3d_d (plan, v);
  for (c = 0; c < 3; c++)
    write_value (kp, out, c, x, y, v[c]);
  if (kp->fmt.comp[3].plane >= 0)
    write_code (&kp->fmt, out, 3, x, y, read_code (&kp->fmt, in, 3, x, y));
  /* RGBx's unused byte: 0xff, as the converter writes it. */
  if (kp->pad_offset >= 0)
    out->data[0][(size_t)y * out->stride[0] + kp->pad_offset
                 + (size_t)x * kp->fmt.comp[0].pixel_stride]
        = 0xff;
}

/* The luma pixels that chroma sample (@bx, @by) covers, and the sample. */
static void
adjust_yuv_block (const TexelAdjustPlan *plan, const TexelImage *in,
                  TexelImage *out, int bx, int by)
{
  const TexelAdjustKernelPlan *kp = &plan->kernel;
  int x0 = bx << kp->x_shift, y0 = by << kp->y_shift;
  int x1 = x0 + (1 << kp->x_shift), y1 = y0 + (1 << kp->y_shift);
  double qb = 0.0, qr = 0.0, sum[2] = { 0.0, 0.0 }, v[3];
  unsigned c[2];
  int x, y, n = 0;

  if (x1 > kp->width)
    x1 = kp->width;
  if (y1 > kp->height)
    y1 = kp->height;
  if (kp->has_chroma)
    {
      qb = read_code (&kp->fmt, in, 1, bx, by) - plan->off_d[1];
      qr = read_code (&kp->fmt, in, 2, bx, by) - plan->off_d[2];
    }
  for (y = y0; y < y1; y++)
    {
      for (x = x0; x < x1; x++)
        {
          double qy = read_code (&kp->fmt, in, 0, x, y) - plan->off_d[0];

          texel_adjust_pixel_d (plan, qy, qb, qr,
                                texel_adjust_vignette_d (plan, x, y), v);
          write_value (kp, out, 0, x, y, v[0]);
          if (kp->fmt.comp[3].plane >= 0)
            write_code (&kp->fmt, out, 3, x, y,
                        read_code (&kp->fmt, in, 3, x, y));
          sum[0] += v[1];
          sum[1] += v[2];
          n++;
        }
    }
  if (!kp->has_chroma)
    return;
  /* The mean of the adjusted chroma of the covered pixels (without the
   * linear stage and a LUT all alike), then stage 2 when it was left to
   * the chroma sample. */
  c[0] = code_of (sum[0] / n, kp->max_code);
  c[1] = code_of (sum[1] / n, kp->max_code);
  if ((kp->gst.gamma || kp->gst.balance) && plan->cube == NULL)
    texel_adjust_gst_chroma_d (&kp->gst, c[0], c[1], c);
  write_code (&kp->fmt, out, 1, bx, by, c[0]);
  write_code (&kp->fmt, out, 2, bx, by, c[1]);
}

void
texel_adjust_cpu (const TexelAdjustPlan *plan, const TexelImage *in,
                  TexelImage *out, int row0, int row1)
{
  const TexelAdjustKernelPlan *kp = &plan->kernel;
  int bw = -((-kp->width) >> kp->x_shift);
  int bh = -((-kp->height) >> kp->y_shift);
  int by0, by1, bx, by;

  if (!texel_clip_rows (&row0, &row1, kp->height))
    return;
  /* Whole blocks starting in [row0, row1). */
  by0 = (row0 + (1 << kp->y_shift) - 1) >> kp->y_shift;
  by1 = (row1 + (1 << kp->y_shift) - 1) >> kp->y_shift;
  if (by1 > bh)
    by1 = bh;

  for (by = by0; by < by1; by++)
    {
      for (bx = 0; bx < bw; bx++)
        {
          if (kp->fmt.is_yuv)
            adjust_yuv_block (plan, in, out, bx, by);
          else
            adjust_rgb_pixel (plan, in, out, bx, by);
        }
    }
}
