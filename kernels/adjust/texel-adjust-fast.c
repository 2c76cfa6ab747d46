/* gst-texel: texeladjust's fast CPU path (texel-adjust-fast.h): tables
 * built once per plan from the reference's own functions, then plain
 * loops over rows that do only table look-ups and integer arithmetic.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-adjust-fast.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Tables (per plan). */

/* The reference's code of a normalised value: round (), halves up. */
static unsigned
code_of (double v, double max)
{
  return (unsigned)round ((v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v)) * max);
}

/* Stage 2's tables: luma (gamma then videobalance) and chroma. */
static void
gst_tables (TexelAdjustFast *f, const TexelAdjustGst *g, int n)
{
  int i, j;

  for (i = 0; i < n; i++)
    f->luma[i] = (uint16_t)texel_adjust_gst_luma_d (
        g, texel_adjust_gst_gamma_d (g, (unsigned)i));
  for (i = 0; i < 256; i++)
    {
      f->gamma[i] = (uint8_t)texel_adjust_gst_gamma_d (g, (unsigned)i);
      f->balance[i] = (uint8_t)texel_adjust_gst_luma_d (g, (unsigned)i);
    }
  f->gamma_on = g->gamma;
  f->balance_on = g->balance;
  /* Hue 0: u * 1 + v * 0 is u exactly (and -u * 0 + v is v), so each
   * output depends on its own component only. */
  if (!g->balance || (g->hue_cos == 1.0 && g->hue_sin == 0.0))
    {
      f->chroma_pair = 0;
      for (i = 0; i < n; i++)
        {
          unsigned c[2];

          texel_adjust_gst_chroma_d (g, (unsigned)i, (unsigned)i, c);
          f->cb[i] = (uint16_t)c[0];
          f->cr[i] = (uint16_t)c[1];
        }
    }
  else if (n == 256)
    {
      f->chroma_pair = 1;
      for (i = 0; i < 256; i++)
        for (j = 0; j < 256; j++)
          {
            unsigned c[2];

            texel_adjust_gst_chroma_d (g, (unsigned)i, (unsigned)j, c);
            f->pair[i << 8 | j] = (uint16_t)(c[0] | c[1] << 8);
          }
    }
  else
    {
      f->chroma_pair = 2;
    }
}

void
texel_adjust_fast_init (TexelAdjustFast *f, const TexelAdjustPlan *plan)
{
  const TexelAdjustKernelPlan *kp = &plan->kernel;
  int n = (int)kp->max_code + 1, i, c;

  memset (f, 0, sizeof (*f));
  f->mode = TEXEL_ADJUST_FAST_REFERENCE;
  if (kp->positional || kp->width <= 0)
    return;
  if (kp->fmt.is_gray)
    {
      /* Every output code a function of the input code: the reference's
       * own pixel (3D LUT included), as its GPU LUT is made. */
      for (i = 0; i < n; i++)
        {
          double v[3];

          texel_adjust_pixel_d (plan, i - plan->off_d[0], 0.0, 0.0, 1.0, v);
          f->luma[i] = (uint16_t)code_of (v[0], kp->max_code);
        }
      f->mode = TEXEL_ADJUST_FAST_GRAY;
    }
  else if (kp->fmt.is_yuv)
    {
      if (kp->kind != TEXEL_ADJUST_KIND_YUV_SEPARABLE)
        return;
      gst_tables (f, &kp->gst, n);
      f->mode = TEXEL_ADJUST_FAST_YUV;
    }
  else
    {
      if (plan->cube != NULL || kp->fmt.bits != 8)
        return;
      gst_tables (f, &kp->gst, 256);
      for (c = 0; c < 3; c++)
        for (i = 0; i < 256; i++)
          f->curve[c][i]
              = (uint8_t)(kp->linear
                              ? code_of (texel_adjust_curve_d (&plan->curve, c,
                                                               i / 255.0, 1.0),
                                         255.0)
                              : (unsigned)i);
      f->mode = TEXEL_ADJUST_FAST_RGB;
    }
}

int
texel_adjust_fast_covers (const TexelAdjustFast *f)
{
  return f != NULL && f->mode != TEXEL_ADJUST_FAST_REFERENCE;
}

/* ------------------------------------------------------------------ */
/* Rows. */

/* Sample (@x, @y) of component @comp. */
static uint8_t *
at (const TexelImage *img, const TexelComponent *comp, int x, int y)
{
  return img->data[comp->plane] + (size_t)y * img->stride[comp->plane]
         + comp->offset + (size_t)x * comp->pixel_stride;
}

/* @n samples of component @c of row @y through table @t. */
static void
map_row (const TexelFormatDesc *fmt, const uint16_t *t, const TexelImage *in,
         TexelImage *out, int c, int y, int n)
{
  const TexelComponent *comp = &fmt->comp[c];
  const uint8_t *s = at (in, comp, 0, y);
  uint8_t *d = at (out, comp, 0, y);
  int ps = comp->pixel_stride, sh = fmt->shift, x;

  if (fmt->bytes_per_sample == 2)
    {
      for (x = 0; x < n; x++)
        {
          unsigned v = t[texel_word_code (
                           (unsigned)(s[x * ps] | s[x * ps + 1] << 8), fmt)]
                       << sh;

          d[x * ps] = (uint8_t)v;
          d[x * ps + 1] = (uint8_t)(v >> 8);
        }
    }
  else if (ps == 1)
    {
      for (x = 0; x < n; x++)
        d[x] = (uint8_t)t[s[x]];
    }
  else
    {
      for (x = 0; x < n; x++)
        d[x * ps] = (uint8_t)t[s[x * ps]];
    }
}

/* @n samples of component @c of row @y as they are (AYUV's alpha). */
static void
copy_row (const TexelFormatDesc *fmt, const TexelImage *in, TexelImage *out,
          int c, int y, int n)
{
  const TexelComponent *comp = &fmt->comp[c];
  const uint8_t *s = at (in, comp, 0, y);
  uint8_t *d = at (out, comp, 0, y);
  int x, b;

  for (x = 0; x < n; x++)
    for (b = 0; b < fmt->bytes_per_sample; b++)
      d[x * comp->pixel_stride + b] = s[x * comp->pixel_stride + b];
}

/* The chroma pairs of chroma row @y: 8 bits with a hue, through the pair
 * table. */
static void
pair_row (const TexelAdjustFast *f, const TexelFormatDesc *fmt,
          const TexelImage *in, TexelImage *out, int y, int n)
{
  const uint8_t *sb = at (in, &fmt->comp[1], 0, y);
  const uint8_t *sr = at (in, &fmt->comp[2], 0, y);
  uint8_t *db = at (out, &fmt->comp[1], 0, y);
  uint8_t *dr = at (out, &fmt->comp[2], 0, y);
  int pb = fmt->comp[1].pixel_stride, pr = fmt->comp[2].pixel_stride, x;

  for (x = 0; x < n; x++)
    {
      unsigned v = f->pair[sb[x * pb] << 8 | sr[x * pr]];

      db[x * pb] = (uint8_t)v;
      dr[x * pr] = (uint8_t)(v >> 8);
    }
}

/* 10 bits with a hue: the reference's formula per sample. */
static void
formula_row (const TexelAdjustPlan *plan, const TexelImage *in, TexelImage *out,
             int y, int n)
{
  const TexelFormatDesc *fmt = &plan->kernel.fmt;
  int x, k;

  for (x = 0; x < n; x++)
    {
      unsigned c[2];
      uint8_t *s[2], *d[2];

      for (k = 0; k < 2; k++)
        {
          s[k] = at (in, &fmt->comp[1 + k], x, y);
          d[k] = at (out, &fmt->comp[1 + k], x, y);
        }
      texel_adjust_gst_chroma_d (
          &plan->kernel.gst,
          texel_word_code ((unsigned)(s[0][0] | s[0][1] << 8), fmt),
          texel_word_code ((unsigned)(s[1][0] | s[1][1] << 8), fmt), c);
      for (k = 0; k < 2; k++)
        {
          unsigned v = c[k] << fmt->shift;

          d[k][0] = (uint8_t)v;
          d[k][1] = (uint8_t)(v >> 8);
        }
    }
}

/* Y'CbCr: chroma rows [cy0, cy1) and the luma rows they cover. */
static void
yuv_rows (const TexelAdjustPlan *plan, const TexelImage *in, TexelImage *out,
          int cy0, int cy1)
{
  const TexelAdjustKernelPlan *kp = &plan->kernel;
  const TexelAdjustFast *f = plan->fast;
  int bw = -((-kp->width) >> kp->x_shift), y;
  int y0 = cy0 << kp->y_shift, y1 = cy1 << kp->y_shift;

  if (y1 > kp->height)
    y1 = kp->height;
  for (y = y0; y < y1; y++)
    {
      map_row (&kp->fmt, f->luma, in, out, 0, y, kp->width);
      if (kp->fmt.comp[3].plane >= 0)
        copy_row (&kp->fmt, in, out, 3, y, kp->width);
    }
  if (!kp->has_chroma)
    return;
  for (y = cy0; y < cy1; y++)
    {
      if (f->chroma_pair == 1)
        {
          pair_row (f, &kp->fmt, in, out, y, bw);
        }
      else if (f->chroma_pair == 2)
        {
          formula_row (plan, in, out, y, bw);
        }
      else
        {
          map_row (&kp->fmt, f->cb, in, out, 1, y, bw);
          map_row (&kp->fmt, f->cr, in, out, 2, y, bw);
        }
    }
}

/* RGB rows go in chunks of pixels held as planes of ints, so that the
 * matrices run as loops the compiler vectorises and only the table
 * look-ups stay scalar. */
#define CHUNK 256

static inline int
clamp255 (int v)
{
  return v < 0 ? 0 : (v > 255 ? 255 : v);
}

/* The elements' fixed-point R'G'B' -> Y'CbCr (texel-adjust.h), Y' clamped
 * (both elements clamp their table index), chroma too where @clamp. */
static void
to_ycc (int n, const int *restrict r, const int *restrict g,
        const int *restrict b, int *restrict y, int *restrict u,
        int *restrict v, int clamp)
{
  int i;

  for (i = 0; i < n; i++)
    {
      y[i] = clamp255 ((66 * r[i] + 129 * g[i] + 25 * b[i] + 4096) >> 8);
      u[i] = (-38 * r[i] - 74 * g[i] + 112 * b[i] + 32768) >> 8;
      v[i] = (112 * r[i] - 94 * g[i] - 18 * b[i] + 32768) >> 8;
    }
  if (clamp)
    for (i = 0; i < n; i++)
      {
        u[i] = clamp255 (u[i]);
        v[i] = clamp255 (v[i]);
      }
}

/* ... and back, clamped. */
static void
to_rgb (int n, const int *restrict y, const int *restrict u,
        const int *restrict v, int *restrict r, int *restrict g,
        int *restrict b)
{
  int i;

  for (i = 0; i < n; i++)
    {
      r[i] = clamp255 ((298 * y[i] + 409 * v[i] - 57068) >> 8);
      g[i] = clamp255 ((298 * y[i] - 100 * u[i] - 208 * v[i] + 34707) >> 8);
      b[i] = clamp255 ((298 * y[i] + 516 * u[i] - 70870) >> 8);
    }
}

/* `gamma ! videobalance` on @n pixels of 8-bit R'G'B' planes @c, in
 * place: each active element's round trip through its matrices. */
static void
gst_rgb (const TexelAdjustFast *f, int n, int c[3][CHUNK])
{
  int y[CHUNK], u[CHUNK], v[CHUNK], i;

  if (f->gamma_on)
    {
      to_ycc (n, c[0], c[1], c[2], y, u, v, 0);
      for (i = 0; i < n; i++)
        y[i] = f->gamma[y[i]];
      to_rgb (n, y, u, v, c[0], c[1], c[2]);
    }
  if (f->balance_on)
    {
      to_ycc (n, c[0], c[1], c[2], y, u, v, 1);
      for (i = 0; i < n; i++)
        y[i] = f->balance[y[i]];
      if (f->chroma_pair)
        {
          for (i = 0; i < n; i++)
            {
              unsigned p = f->pair[u[i] << 8 | v[i]];

              u[i] = (int)(p & 0xff);
              v[i] = (int)(p >> 8);
            }
        }
      else
        {
          for (i = 0; i < n; i++)
            {
              u[i] = f->cb[u[i]];
              v[i] = f->cr[v[i]];
            }
        }
      to_rgb (n, y, u, v, c[0], c[1], c[2]);
    }
}

/* 8-bit R'G'B' row @y: curves, the elements' pass, alpha carried over,
 * RGBx's unused byte 0xff (as the reference). */
static void
rgb_row (const TexelAdjustPlan *plan, const TexelImage *in, TexelImage *out,
         int y)
{
  const TexelAdjustKernelPlan *kp = &plan->kernel;
  const TexelFormatDesc *fmt = &kp->fmt;
  const TexelAdjustFast *f = plan->fast;
  const uint8_t *s = in->data[0] + (size_t)y * in->stride[0];
  uint8_t *d = out->data[0] + (size_t)y * out->stride[0];
  const int ps = fmt->comp[0].pixel_stride, width = kp->width;
  const int gst = f->gamma_on || f->balance_on, pad = kp->pad_offset;
  const int oa = fmt->comp[3].plane >= 0 ? fmt->comp[3].offset : -1;
  int c[3][CHUNK], x0, i, k;

  for (x0 = 0; x0 < width; x0 += CHUNK)
    {
      int n = width - x0 < CHUNK ? width - x0 : CHUNK;
      const uint8_t *sp = s + (size_t)x0 * ps;
      uint8_t *dp = d + (size_t)x0 * ps;

      for (k = 0; k < 3; k++)
        {
          const uint8_t *curve = f->curve[k], *sk = sp + fmt->comp[k].offset;

          for (i = 0; i < n; i++)
            c[k][i] = curve[sk[i * ps]];
        }
      if (gst)
        gst_rgb (f, n, c);
      for (k = 0; k < 3; k++)
        {
          uint8_t *dk = dp + fmt->comp[k].offset;

          for (i = 0; i < n; i++)
            dk[i * ps] = (uint8_t)c[k][i];
        }
      if (oa >= 0)
        for (i = 0; i < n; i++)
          dp[i * ps + oa] = sp[i * ps + oa];
      if (pad >= 0)
        for (i = 0; i < n; i++)
          dp[i * ps + pad] = 0xff;
    }
}

void
texel_adjust_fast (const TexelAdjustPlan *plan, const TexelImage *in,
                   TexelImage *out, int row0, int row1)
{
  const TexelAdjustKernelPlan *kp = &plan->kernel;
  int y;

  if (!texel_adjust_fast_covers (plan->fast))
    {
      texel_adjust_cpu (plan, in, out, row0, row1);
      return;
    }
  if (!texel_clip_rows (&row0, &row1, kp->height))
    return;
  if (plan->fast->mode == TEXEL_ADJUST_FAST_RGB)
    {
      for (y = row0; y < row1; y++)
        rgb_row (plan, in, out, y);
      return;
    }
  /* Whole chroma rows starting in [row0, row1), as the reference. */
  yuv_rows (plan, in, out, (row0 + (1 << kp->y_shift) - 1) >> kp->y_shift,
            (row1 + (1 << kp->y_shift) - 1) >> kp->y_shift);
}
