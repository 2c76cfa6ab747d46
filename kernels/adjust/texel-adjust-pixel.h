/* gst-texel: texeladjust's per-pixel code, compiled both for the device
 * (texel-adjust.cu) and for the host (tests/unit/test-adjust.c), so that
 * the tests run exactly what the GPU runs. The operations it computes,
 * and the plan it reads, are texel-adjust.h's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_ADJUST_PIXEL_H
#define TEXEL_ADJUST_PIXEL_H

#include <math.h>
#include <stdint.h>

#include "texel-kernel.h"
#include "texel-adjust.h"

/* The float per-pixel code of the kernels, shared with the host so that
 * tests can run exactly what the GPU runs (texel-adjust.cu includes it
 * for the device; tests/unit/test-adjust.c for the host, with the GPU's
 * intrinsic errors injected).
 *
 * Device: __log2f (MUFU.LG2; absolute error <= 2^-22 for x in [0.5, 2],
 * else <= 2 ulp), exp2f (MUFU.EX2 with range scaling, <= 2 ulp) and
 * __fdividef (<= 2 ulp for divisors below 2^126).
 * Host: TEXEL_ADJUST_HOST_LOG2F / _EXP2F / _DIVF, log2f, exp2f and /
 * unless a test defines them. */
#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
#define TEXEL_ADJUST_UNROLL _Pragma ("unroll")
#define TEXEL_ADJUST_LOG2F(x) __log2f (x)
#define TEXEL_ADJUST_EXP2F(x) exp2f (x)
#define TEXEL_ADJUST_DIVF(a, b) __fdividef (a, b)
#define TEXEL_ADJUST_DMUL(a, b) __dmul_rn (a, b)
#define TEXEL_ADJUST_DADD(a, b) __dadd_rn (a, b)
#else
#define TEXEL_ADJUST_UNROLL
#define TEXEL_ADJUST_LOG2F(x) log2f (x)
#define TEXEL_ADJUST_EXP2F(x) exp2f (x)
#define TEXEL_ADJUST_DIVF(a, b) ((a) / (b))
#endif
#else
#define TEXEL_ADJUST_UNROLL
#ifndef TEXEL_ADJUST_HOST_LOG2F
#define TEXEL_ADJUST_HOST_LOG2F log2f
#endif
#ifndef TEXEL_ADJUST_HOST_EXP2F
#define TEXEL_ADJUST_HOST_EXP2F exp2f
#endif
#define TEXEL_ADJUST_LOG2F(x) TEXEL_ADJUST_HOST_LOG2F (x)
#define TEXEL_ADJUST_EXP2F(x) TEXEL_ADJUST_HOST_EXP2F (x)
#ifdef TEXEL_ADJUST_HOST_DIVF
#define TEXEL_ADJUST_DIVF(a, b) TEXEL_ADJUST_HOST_DIVF (a, b)
#else
#define TEXEL_ADJUST_DIVF(a, b) ((a) / (b))
#endif
#endif
/* The GStreamer stage's double arithmetic, one rounding per operation
 * as in the elements (x86-64 without FMA): never contracted into fused
 * multiply-adds on the GPU. */
#ifndef TEXEL_ADJUST_DMUL
#define TEXEL_ADJUST_DMUL(a, b) ((a) * (b))
#define TEXEL_ADJUST_DADD(a, b) ((a) + (b))
#endif
/* What the host does with a 3D LUT weight where the GPU would filter in
 * hardware: nothing, unless a test emulates the hardware's rounding. */
#ifndef TEXEL_ADJUST_HOST_LUT3D_WEIGHT
#define TEXEL_ADJUST_HOST_LUT3D_WEIGHT(f) (f)
#endif

/* Where a kernel finds the 3D LUT: two texture objects on the GPU
 * (cudaTextureObject_t: hardware linear filtering, and none); the
 * TexelCube's table on the host (tests). */
typedef struct
{
  unsigned long long linear, point;
  const float *table;
} TexelAdjustLut3dSource;

/* Encode of linear L3 in [0, 1]. */
TEXEL_HD float
texel_adjust_encode_f (const TexelAdjustCurveF *cv, float l3)
{
  if (l3 >= cv->enc_knee && l3 > 0.0f)
    return fmaf (cv->enc_mul,
                 TEXEL_ADJUST_EXP2F (cv->enc_pow * TEXEL_ADJUST_LOG2F (l3)),
                 -cv->enc_sub);
  return cv->enc_lin * l3;
}

/* Encode of L3 given as log2 L3. */
TEXEL_HD float
texel_adjust_encode_log_f (const TexelAdjustCurveF *cv, float lg3)
{
  if (lg3 >= cv->log2_enc_knee)
    return fmaf (cv->enc_mul, TEXEL_ADJUST_EXP2F (cv->enc_pow * lg3),
                 -cv->enc_sub);
  return cv->enc_lin * TEXEL_ADJUST_EXP2F (lg3);
}

/* The tone maps reinhard and filmic of linear @x >= 0 (no clipping
 * needed below: both stay under 1 up to where filmic is clamped). */
TEXEL_HD float
texel_adjust_tone_f (TexelToneMap tone_map, float x)
{
  if (tone_map == TEXEL_TONE_MAP_REINHARD)
    return TEXEL_ADJUST_DIVF (x, 1.0f + x);
  return fminf (TEXEL_ADJUST_DIVF (x * fmaf (2.51f, x, 0.03f),
                                   fmaf (x, fmaf (2.43f, x, 0.59f), 0.14f)),
                1.0f);
}

/* The curve of channel @c: R' in, R' out, for a pixel whose vignette
 * gain is @gain, 2^@log2_gain (1 and 0 without one). */
TEXEL_HD float
texel_adjust_curve_f (const TexelAdjustCurveF *cv, int c, float v, float gain,
                      float log2_gain)
{
  float lg, l2;

  v = fminf (fmaxf (v, 0.0f), 1.0f);
  if (v >= cv->dec_knee)
    {
      /* log2 L2 = log2 k + dec_pow * log2 ((V + a) / (1 + a)) */
      lg = fmaf (cv->dec_pow,
                 TEXEL_ADJUST_LOG2F (fmaf (v, cv->dec_scale, cv->dec_offset)),
                 cv->log2k[c] + log2_gain);
      if (cv->tone_map == TEXEL_TONE_MAP_NONE)
        {
          /* Decode, gains, gamma and encode composed in the log2 domain. */
          if (lg >= 0.0f)
            return 1.0f; /* clipped: encode (1) = 1 */
          if (lg < cv->log2_toe)
            return texel_adjust_encode_f (cv, TEXEL_ADJUST_EXP2F (lg)
                                                  * cv->toe_slope);
          return texel_adjust_encode_log_f (cv, lg * cv->inv_gamma);
        }
      l2 = TEXEL_ADJUST_EXP2F (lg);
    }
  else
    {
      l2 = v * cv->lin_k[c] * gain;
    }
  if (cv->tone_map != TEXEL_TONE_MAP_NONE)
    l2 = texel_adjust_tone_f (cv->tone_map, l2);
  if (l2 >= 1.0f)
    return 1.0f;
  if (l2 < cv->toe)
    return texel_adjust_encode_f (cv, l2 * cv->toe_slope);
  return texel_adjust_encode_log_f (cv,
                                    TEXEL_ADJUST_LOG2F (l2) * cv->inv_gamma);
}

/* The vignette gain of luma pixel (@x, @y): 1 + strength * r^2, never
 * negative (float rounding at the corners with strength -1). */
TEXEL_HD float
texel_adjust_vignette_f (const TexelAdjustKernelPlan *p, int x, int y)
{
  float dx = (float)x - p->vig_cx, dy = (float)y - p->vig_cy;

  return fmaxf (fmaf (p->vig_k, fmaf (dx, dx, dy * dy), 1.0f), 0.0f);
}

/* Plane @p's address and stride, chosen without indexing: a kernel's
 * image parameters then stay in registers, not in local memory. */
TEXEL_HD uint8_t *
texel_adjust_sample (const TexelImage *img, const TexelComponent *comp, int x,
                     int y)
{
  int p = comp->plane;
  uint8_t *base = p == 0 ? img->data[0] : p == 1 ? img->data[1] : img->data[2];
  int stride = p == 0   ? img->stride[0]
               : p == 1 ? img->stride[1]
                        : img->stride[2];

  return base + (size_t)y * stride + comp->offset
         + (size_t)x * comp->pixel_stride;
}

TEXEL_HD unsigned
texel_adjust_read_f (const TexelAdjustKernelPlan *p, const TexelImage *img,
                     int c, int x, int y)
{
  const uint8_t *a = texel_adjust_sample (img, &p->fmt.comp[c], x, y);

  if (p->fmt.bytes_per_sample == 2)
    return texel_word_code ((unsigned)(a[0] | (a[1] << 8)), &p->fmt);
  return a[0];
}

TEXEL_HD void
texel_adjust_write_f (const TexelAdjustKernelPlan *p, const TexelImage *img,
                      int c, int x, int y, unsigned code)
{
  uint8_t *a = texel_adjust_sample (img, &p->fmt.comp[c], x, y);

  if (p->fmt.bytes_per_sample == 2)
    {
      code <<= p->fmt.shift;
      a[0] = (uint8_t)(code & 0xff);
      a[1] = (uint8_t)(code >> 8);
    }
  else
    {
      a[0] = (uint8_t)code;
    }
}

/* Clamps to [0, 1] and rounds to the nearest code, halves up (as the CPU
 * reference's round () of a non-negative value). */
TEXEL_HD unsigned
texel_adjust_quantize_f (const TexelAdjustKernelPlan *p, float v)
{
  v = fminf (fmaxf (v, 0.0f), 1.0f);
  return (unsigned)floorf (v * p->max_code + 0.5f);
}

/* ------------------------------------------------------------------ */
/* Stage 2, the GStreamer stage (formulas at the top of texel-adjust.h): the
 * same integer and double operations as the CPU reference, so that GPU
 * and CPU give the same codes (10-bit gamma excepted: float, below). */

/* rint (clamp (v, 0, max)). */
TEXEL_HD unsigned
texel_adjust_gst_round (const TexelAdjustGst *g, double v)
{
  return (unsigned)rint (fmin (fmax (v, 0.0), g->max));
}

/* The gamma element on Y' code @y. 10 bits: in float (__log2f, exp2f;
 * 1e-6 relative, a thousandth of a code: it differs from the reference
 * only where 1023 (y / 1023)^(1/gamma) lies that close to a half). */
TEXEL_HD unsigned
texel_adjust_gst_gamma_f (const TexelAdjustGst *g, const uint8_t *table,
                          unsigned y)
{
  float m = (float)g->max;

  if (!g->gamma)
    return y;
  if (g->scale == 1)
    return table[y];
  if (y == 0)
    return 0;
  return (unsigned)floorf (
      m
          * TEXEL_ADJUST_EXP2F (TEXEL_ADJUST_LOG2F ((float)y / m)
                                * (float)g->inv_gamma)
      + 0.5f);
}

/* videobalance on Y' code @y. */
TEXEL_HD unsigned
texel_adjust_gst_luma_f (const TexelAdjustGst *g, const uint8_t *table,
                         unsigned y)
{
  double black = 16.0 * g->scale;

  if (!g->balance)
    return y;
  if (g->scale == 1)
    return table[256 + y];
  return texel_adjust_gst_round (
      g, TEXEL_ADJUST_DADD (
             black, TEXEL_ADJUST_DADD (
                        TEXEL_ADJUST_DMUL ((double)y - black, g->contrast),
                        g->bright)));
}

/* videobalance on chroma codes @cb, @cr, in place. */
TEXEL_HD void
texel_adjust_gst_chroma_f (const TexelAdjustGst *g, unsigned *cb, unsigned *cr)
{
  double mid = 128.0 * g->scale, u = (double)*cb - mid, v = (double)*cr - mid;

  if (!g->balance)
    return;
  *cb = texel_adjust_gst_round (
      g, TEXEL_ADJUST_DADD (
             mid, TEXEL_ADJUST_DMUL (
                      TEXEL_ADJUST_DADD (TEXEL_ADJUST_DMUL (u, g->hue_cos),
                                         TEXEL_ADJUST_DMUL (v, g->hue_sin)),
                      g->saturation)));
  *cr = texel_adjust_gst_round (
      g, TEXEL_ADJUST_DADD (
             mid, TEXEL_ADJUST_DMUL (
                      TEXEL_ADJUST_DADD (TEXEL_ADJUST_DMUL (-u, g->hue_sin),
                                         TEXEL_ADJUST_DMUL (v, g->hue_cos)),
                      g->saturation)));
}

TEXEL_HD int
texel_adjust_clamp255 (int v)
{
  return v < 0 ? 0 : (v > 255 ? 255 : v);
}

/* One element's round trip of 8-bit R'G'B' @c through the elements'
 * fixed-point BT.601 matrices (arithmetic >> 8: a floor). */
TEXEL_HD void
texel_adjust_gst_rgb_pass (const TexelAdjustGst *g, const uint8_t *table,
                           int balance, unsigned c[3])
{
  int r = (int)c[0], gr = (int)c[1], b = (int)c[2];
  int y = (66 * r + 129 * gr + 25 * b + 4096) >> 8;
  int u = (-38 * r - 74 * gr + 112 * b + 32768) >> 8;
  int v = (112 * r - 94 * gr - 18 * b + 32768) >> 8;

  /* In range anyway (Y 16..235, U and V 16..240): both elements clamp
   * the luma index, videobalance the chroma too. */
  y = texel_adjust_clamp255 (y);
  if (balance)
    {
      unsigned cb = (unsigned)texel_adjust_clamp255 (u);
      unsigned cr = (unsigned)texel_adjust_clamp255 (v);

      y = (int)texel_adjust_gst_luma_f (g, table, (unsigned)y);
      texel_adjust_gst_chroma_f (g, &cb, &cr);
      u = (int)cb;
      v = (int)cr;
    }
  else
    {
      y = (int)texel_adjust_gst_gamma_f (g, table, (unsigned)y);
    }
  c[0] = (unsigned)texel_adjust_clamp255 ((298 * y + 409 * v - 57068) >> 8);
  c[1] = (unsigned)texel_adjust_clamp255 ((298 * y - 100 * u - 208 * v + 34707)
                                          >> 8);
  c[2] = (unsigned)texel_adjust_clamp255 ((298 * y + 516 * u - 70870) >> 8);
}

/* `gamma ! videobalance` on 8-bit R'G'B' @c, in place. */
TEXEL_HD void
texel_adjust_gst_rgb_f (const TexelAdjustGst *g, const uint8_t *table,
                        unsigned c[3])
{
  if (g->gamma)
    texel_adjust_gst_rgb_pass (g, table, 0, c);
  if (g->balance)
    texel_adjust_gst_rgb_pass (g, table, 1, c);
}

/* Entry (@r, @g, @b) of the 3D LUT, without filtering. */
TEXEL_HD void
texel_adjust_lut3d_entry (const TexelAdjustKernelPlan *p,
                          const TexelAdjustLut3dSource *src, int r, int g,
                          int b, float e[3])
{
#ifdef __CUDA_ARCH__
  float4 t = tex3D<float4> (src->point, r + 0.5f, g + 0.5f, b + 0.5f);

  e[0] = t.x;
  e[1] = t.y;
  e[2] = t.z;
#else
  const float *t
      = src->table + (((size_t)b * p->lut3d_size + g) * p->lut3d_size + r) * 3;

  e[0] = t[0];
  e[1] = t[1];
  e[2] = t[2];
#endif
}

/* @v (R'G'B') through the 3D LUT, in place: trilinear, by the texture
 * hardware (lut3d_hw, GPU) or here from the 8 surrounding entries. */
TEXEL_HD void
texel_adjust_lut3d_f (const TexelAdjustKernelPlan *p,
                      const TexelAdjustLut3dSource *src, float v[3])
{
  float t[3], f[3], e[8][3], top = (float)(p->lut3d_size - 1);
  int i[3], c, corner;

  TEXEL_ADJUST_UNROLL
  for (c = 0; c < 3; c++)
    t[c] = fminf (
        fmaxf (fmaf (v[c], p->lut3d_scale[c], p->lut3d_offset[c]), 0.0f), top);
#ifdef __CUDA_ARCH__
  if (p->lut3d_hw)
    {
      /* Texel centres at i + 0.5. */
      float4 o
          = tex3D<float4> (src->linear, t[0] + 0.5f, t[1] + 0.5f, t[2] + 0.5f);

      v[0] = o.x;
      v[1] = o.y;
      v[2] = o.z;
      return;
    }
#endif
  TEXEL_ADJUST_UNROLL
  for (c = 0; c < 3; c++)
    {
      /* t = N - 1 interpolates the last cell at weight 1. */
      i[c] = (int)fminf (floorf (t[c]), top - 1.0f);
      f[c] = t[c] - (float)i[c];
#ifndef __CUDA_ARCH__
      if (p->lut3d_hw)
        f[c] = TEXEL_ADJUST_HOST_LUT3D_WEIGHT (f[c]);
#endif
    }
  TEXEL_ADJUST_UNROLL
  for (corner = 0; corner < 8; corner++)
    texel_adjust_lut3d_entry (p, src, i[0] + (corner & 1),
                              i[1] + ((corner >> 1) & 1), i[2] + (corner >> 2),
                              e[corner]);
  TEXEL_ADJUST_UNROLL
  for (c = 0; c < 3; c++)
    {
      /* Along red, then green, then blue. */
      float e00 = fmaf (f[0], e[1][c] - e[0][c], e[0][c]);
      float e10 = fmaf (f[0], e[3][c] - e[2][c], e[2][c]);
      float e01 = fmaf (f[0], e[5][c] - e[4][c], e[4][c]);
      float e11 = fmaf (f[0], e[7][c] - e[6][c], e[6][c]);
      float e0 = fmaf (f[1], e10 - e00, e00);
      float e1 = fmaf (f[1], e11 - e01, e01);

      v[c] = fmaf (f[2], e1 - e0, e0);
    }
}

/* Stores RGB pixel (@x, @y) from its R'G'B' after the curves, @v (GRAY8:
 * v[0] only, everything done by its LUT): the GStreamer stage on the
 * codes, the 3D LUT, the codes, alpha carried over, RGBx's padding byte
 * 0xff (as the converter writes it). */
TEXEL_HD void
texel_adjust_store_rgb_f (const TexelAdjustKernelPlan *p, const uint8_t *table,
                          const TexelAdjustLut3dSource *lut3d,
                          const TexelImage *in, const TexelImage *out, int x,
                          int y, const float v[3])
{
  int n = p->fmt.is_gray ? 1 : 3, k;
  float o[3];

  TEXEL_ADJUST_UNROLL
  for (k = 0; k < 3; k++)
    o[k] = v[k];
  if (!p->fmt.is_yuv && (p->gst.gamma || p->gst.balance))
    {
      unsigned c[3];

      TEXEL_ADJUST_UNROLL
      for (k = 0; k < 3; k++)
        c[k] = texel_adjust_quantize_f (p, v[k]);
      texel_adjust_gst_rgb_f (&p->gst, table, c);
      TEXEL_ADJUST_UNROLL
      for (k = 0; k < 3; k++)
        o[k] = (float)c[k] * (1.0f / 255.0f);
    }
  if (p->lut3d)
    texel_adjust_lut3d_f (p, lut3d, o);
  TEXEL_ADJUST_UNROLL
  for (k = 0; k < 3; k++)
    if (k < n)
      texel_adjust_write_f (p, out, k, x, y, texel_adjust_quantize_f (p, o[k]));
  if (p->fmt.comp[3].plane >= 0)
    texel_adjust_write_f (p, out, 3, x, y,
                          texel_adjust_read_f (p, in, 3, x, y));
  if (p->pad_offset >= 0)
    out->data[0][(size_t)y * out->stride[0] + p->pad_offset
                 + (size_t)x * p->fmt.comp[0].pixel_stride]
        = 0xff;
}

/* Adjusts the luma pixels of chroma block (@bx, @by) (one pixel for RGB,
 * GRAY8 and formats without subsampling) and its chroma sample. @kind:
 * the plan's (a constant in each kernel, so that it keeps only its own
 * code and registers); @lut: the plan's LUTs, 3 x TEXEL_ADJUST_LUT_SIZE,
 * and @table: its gst.table, 2 x 256 (both in shared memory on the GPU);
 * @lut3d: the 3D LUT, when the plan has one. */
TEXEL_HD void
texel_adjust_block_f (const TexelAdjustKernelPlan *p, TexelAdjustKind kind,
                      const float *lut, const uint8_t *table,
                      const TexelAdjustLut3dSource *lut3d, const TexelImage *in,
                      const TexelImage *out, int bx, int by)
{
  int x0 = bx << p->x_shift, y0 = by << p->y_shift;
  int x1 = x0 + (1 << p->x_shift), y1 = y0 + (1 << p->y_shift);
  int x, y, c, k;

  if (x1 > p->width)
    x1 = p->width;
  if (y1 > p->height)
    y1 = p->height;

  if (kind == TEXEL_ADJUST_KIND_LUT)
    {
      float v[3] = { 0.0f, 0.0f, 0.0f };

      TEXEL_ADJUST_UNROLL
      for (c = 0; c < 3; c++)
        if (c == 0 || !p->fmt.is_gray)
          v[c] = lut[c * TEXEL_ADJUST_LUT_SIZE
                     + texel_adjust_read_f (p, in, c, x0, y0)];
      texel_adjust_store_rgb_f (p, table, lut3d, in, out, x0, y0, v);
      return;
    }

  if (kind == TEXEL_ADJUST_KIND_RGB_PIXEL)
    {
      float v[3], g = texel_adjust_vignette_f (p, x0, y0);
      float lg = TEXEL_ADJUST_LOG2F (g), inv_max = 1.0f / 255.0f;

      TEXEL_ADJUST_UNROLL
      for (c = 0; c < 3; c++)
        v[c] = texel_adjust_curve_f (
            &p->curve_f, c,
            (float)texel_adjust_read_f (p, in, c, x0, y0) * inv_max, g, lg);
      texel_adjust_store_rgb_f (p, table, lut3d, in, out, x0, y0, v);
      return;
    }

  /* Y'CbCr with alpha (AYUV, VUYA: no subsampling, a block is one
   * pixel): alpha carried over. */
  if (p->fmt.is_yuv && p->fmt.comp[3].plane >= 0)
    texel_adjust_write_f (p, out, 3, x0, y0,
                          texel_adjust_read_f (p, in, 3, x0, y0));

  if (kind == TEXEL_ADJUST_KIND_YUV_SEPARABLE)
    {
      /* Stage 2 alone: integer codes in, integer codes out. */
      for (y = y0; y < y1; y++)
        for (x = x0; x < x1; x++)
          texel_adjust_write_f (
              p, out, 0, x, y,
              texel_adjust_gst_luma_f (
                  &p->gst, table,
                  texel_adjust_gst_gamma_f (
                      &p->gst, table, texel_adjust_read_f (p, in, 0, x, y))));
      if (p->has_chroma)
        {
          unsigned cb = texel_adjust_read_f (p, in, 1, bx, by);
          unsigned cr = texel_adjust_read_f (p, in, 2, bx, by);

          texel_adjust_gst_chroma_f (&p->gst, &cb, &cr);
          texel_adjust_write_f (p, out, 1, bx, by, cb);
          texel_adjust_write_f (p, out, 2, bx, by, cr);
        }
      return;
    }

  /* YUV_RGB */
  {
    float qb = 0.0f, qr = 0.0f, sum_b = 0.0f, sum_r = 0.0f;
    int n = 0, gst = p->gst.gamma || p->gst.balance;

    if (p->has_chroma)
      {
        qb = (float)texel_adjust_read_f (p, in, 1, bx, by) - p->off[1];
        qr = (float)texel_adjust_read_f (p, in, 2, bx, by) - p->off[2];
      }
    for (y = y0; y < y1; y++)
      {
        for (x = x0; x < x1; x++)
          {
            float qy = (float)texel_adjust_read_f (p, in, 0, x, y) - p->off[0];
            float rgb[3], o[3], g = 1.0f, lg = 0.0f;

            if (p->positional)
              {
                g = texel_adjust_vignette_f (p, x, y);
                lg = TEXEL_ADJUST_LOG2F (g);
              }
            TEXEL_ADJUST_UNROLL
            for (c = 0; c < 3; c++)
              {
                rgb[c] = fmaf (p->dec[c][0], qy,
                               fmaf (p->dec[c][1], qb, p->dec[c][2] * qr));
                if (p->linear)
                  rgb[c] = texel_adjust_curve_f (&p->curve_f, c, rgb[c], g, lg);
              }
            TEXEL_ADJUST_UNROLL
            for (k = 0; k < 3; k++)
              o[k] = fmaf (p->enc[k][0], rgb[0],
                           fmaf (p->enc[k][1], rgb[1],
                                 fmaf (p->enc[k][2], rgb[2], p->enc[k][3])));
            if (gst)
              {
                /* Stage 2 on this pixel's codes. */
                unsigned yc = texel_adjust_gst_luma_f (
                    &p->gst, table,
                    texel_adjust_gst_gamma_f (
                        &p->gst, table, texel_adjust_quantize_f (p, o[0])));
                unsigned cb = texel_adjust_quantize_f (p, o[1]);
                unsigned cr = texel_adjust_quantize_f (p, o[2]);

                if (!p->lut3d)
                  {
                    /* Chroma: after the mean, below. */
                    texel_adjust_write_f (p, out, 0, x, y, yc);
                    sum_b += o[1];
                    sum_r += o[2];
                    n++;
                    continue;
                  }
                texel_adjust_gst_chroma_f (&p->gst, &cb, &cr);
                TEXEL_ADJUST_UNROLL
                for (c = 0; c < 3; c++)
                  rgb[c] = fmaf (p->dec[c][0], (float)yc - p->off[0],
                                 fmaf (p->dec[c][1], (float)cb - p->off[1],
                                       p->dec[c][2] * ((float)cr - p->off[2])));
              }
            if (p->lut3d)
              {
                texel_adjust_lut3d_f (p, lut3d, rgb);
                TEXEL_ADJUST_UNROLL
                for (k = 0; k < 3; k++)
                  o[k]
                      = fmaf (p->enc[k][0], rgb[0],
                              fmaf (p->enc[k][1], rgb[1],
                                    fmaf (p->enc[k][2], rgb[2], p->enc[k][3])));
              }
            texel_adjust_write_f (p, out, 0, x, y,
                                  texel_adjust_quantize_f (p, o[0]));
            sum_b += o[1];
            sum_r += o[2];
            n++;
          }
      }
    if (p->has_chroma)
      {
        /* n is 1, 2 or 4: the reciprocal is exact. */
        float inv_n = 1.0f / (float)n;
        unsigned cb = texel_adjust_quantize_f (p, sum_b * inv_n);
        unsigned cr = texel_adjust_quantize_f (p, sum_r * inv_n);

        if (gst && !p->lut3d)
          texel_adjust_gst_chroma_f (&p->gst, &cb, &cr);
        texel_adjust_write_f (p, out, 1, bx, by, cb);
        texel_adjust_write_f (p, out, 2, bx, by, cr);
      }
  }
}

#endif /* TEXEL_ADJUST_PIXEL_H */
