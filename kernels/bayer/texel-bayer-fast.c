/* gst-texel: the fast CPU path's raw Bayer development
 * (texel-bayer-fast.h).
 *
 * A row is developed from the five mosaic rows around it, each
 * linearised into two float planes: the even and the odd columns of the
 * window (columns x0 - 2 .. x0 + n + 1), kept in a ring in the scratch so
 * that a band's consecutive rows linearise each mosaic row once. An
 * output pixel of a given
 * column parity has one pixel class in the row, so each of its colours
 * is a fixed list of taps; a tap reads one plane at a constant offset,
 * and a colour is a few contiguous multiply-adds over half a row, which
 * the compiler vectorises. The colour matrix, the clip and the transfer
 * table follow per pixel.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-bayer-fast.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The transfer table: 2^LUT_STEP_BITS linear steps per octave of linear
 * light over [2^-LUT_OCTAVES, 1]; below, the output is 0 (within 0.09
 * code for the steepest curve, a pure 1/2.8 power). */
#define LUT_STEP_BITS 7
#define LUT_OCTAVES 32
#define LUT_SIZE (LUT_OCTAVES << LUT_STEP_BITS)
#define LUT_EXP0 (127 - LUT_OCTAVES)
#define MANT_BITS (23 - LUT_STEP_BITS)
/* The bits of 2^-LUT_OCTAVES and of 1.0f. */
#define LUT_MIN_BITS (LUT_EXP0 << 23)
#define LUT_ONE_BITS (127 << 23)
/* R'G'B' in [0, 1] as 8-bit codes. */
#define VALUE_SCALE 255.0

typedef struct
{
  int dx, dy;
  float weight;
} BayerTap;

struct _TexelBayerFast
{
  /* The non-zero weights of kernel[class][colour]. */
  int n_taps[4][3];
  BayerTap tap[4][3][TEXEL_BAYER_TAPS];
  /* Encoded value at each step, and the step to the next. */
  float lut[LUT_SIZE + 1];
  float delta[LUT_SIZE + 1];
};

static double
encode (const TexelBayerPlan *bp, double l)
{
  if (l < bp->beta)
    return bp->slope * l;
  return (1.0 + bp->alpha) * pow (l, bp->power) - bp->alpha;
}

TexelBayerFast *
texel_bayer_fast_new (const TexelBayerPlan *bp)
{
  TexelBayerFast *fast = calloc (1, sizeof (*fast));
  int cls, c, k, j;

  if (fast == NULL)
    return NULL;
  for (cls = 0; cls < 4; cls++)
    for (c = 0; c < 3; c++)
      for (k = 0; k < TEXEL_BAYER_TAPS; k++)
        if (bp->kernel[cls][c][k] != 0)
          {
            BayerTap *t = &fast->tap[cls][c][fast->n_taps[cls][c]++];

            t->dx = k % 5 - 2;
            t->dy = k / 5 - 2;
            t->weight = (float)(bp->kernel[cls][c][k] / 16.0);
          }
  for (j = 0; j <= LUT_SIZE; j++)
    {
      double l = ldexp (
          1.0 + (double)(j & ((1 << LUT_STEP_BITS) - 1)) / (1 << LUT_STEP_BITS),
          (j >> LUT_STEP_BITS) - LUT_OCTAVES);

      fast->lut[j] = (float)(encode (bp, l) * VALUE_SCALE);
    }
  for (j = 0; j < LUT_SIZE; j++)
    fast->delta[j] = fast->lut[j + 1] - fast->lut[j];
  fast->delta[LUT_SIZE] = 0.0f;
  return fast;
}

void
texel_bayer_fast_free (TexelBayerFast *fast)
{
  free (fast);
}

/* Floats in one plane of the window: half the row and the margins. */
static int
plane_len (int n)
{
  return (n + 1) / 2 + 4;
}

/* The head of the scratch: the ring of linearised mosaic rows, slot
 * u mod RING holding window row u (before mirroring) of columns
 * [x0, x0 + n), so that each mosaic row is linearised once per band
 * instead of once for each of the five output rows that read it. */
#define RING 5

typedef struct
{
  int u[RING];
  int x0, n;
} BayerRing;

static size_t
ring_head (void)
{
  return (sizeof (BayerRing) + 63) & ~(size_t)63;
}

size_t
texel_bayer_fast_scratch (int n)
{
  /* The ring (RING rows x 2 parities), 3 colours, the table's indices
   * and fractions. */
  return ring_head () + sizeof (float) * (size_t)plane_len (n) * (2 * RING + 5)
         + 64;
}

void
texel_bayer_fast_reset (void *scratch)
{
  BayerRing *ring = scratch;
  int k;

  for (k = 0; k < RING; k++)
    ring->u[k] = INT_MIN;
  ring->x0 = ring->n = -1;
}

static inline unsigned
code_at (const uint8_t *row, int wide, int x, int shift, unsigned mask)
{
  unsigned word
      = wide ? (unsigned)(row[2 * x] | (row[2 * x + 1] << 8)) : row[x];

  return (word >> shift) & mask;
}

/* Plane @par of mosaic row @y: @dst[i] = linear value of column
 * @first + 2 i, mirrored into the frame, for i < @len. */
static void
linearise (const TexelBayerPlan *bp, const TexelImage *in, int y, int first,
           int len, float *restrict dst)
{
  const uint8_t *restrict row = in->data[0] + (size_t)y * in->stride[0];
  const int wide = in->format == TEXEL_FORMAT_GRAY16_LE;
  const int shift = bp->shift, w = in->width;
  const unsigned mask = bp->mask;
  int i, lo, hi;

  /* Columns inside the frame: i in [lo, hi). */
  lo = first >= 0 ? 0 : (1 - first) / 2;
  hi = first > w - 1 ? 0 : (w - 1 - first) / 2 + 1;
  if (hi > len)
    hi = len;
  if (lo > hi)
    lo = hi;
  for (i = 0; i < len; i++)
    {
      int x, c;

      if (i == lo)
        i = hi;
      if (i >= len)
        break;
      x = texel_bayer_mirror (first + 2 * i, w);
      c = texel_bayer_colour (texel_bayer_class (bp, x, y));
      dst[i] = (float)code_at (row, wide, x, shift, mask) * bp->scale_f[c]
               + bp->offset_f[c];
    }
  if (lo < hi)
    {
      const int c
          = texel_bayer_colour (texel_bayer_class (bp, first + 2 * lo, y));
      const float s = bp->scale_f[c], o = bp->offset_f[c];
      const int x = first + 2 * lo;

      if (wide)
        {
          const uint8_t *restrict p = row + 2 * (size_t)x;

          for (i = 0; i < hi - lo; i++)
            dst[lo + i]
                = (float)(((unsigned)(p[4 * i] | (p[4 * i + 1] << 8)) >> shift)
                          & mask)
                      * s
                  + o;
        }
      else
        {
          const uint8_t *restrict p = row + x;

          for (i = 0; i < hi - lo; i++)
            dst[lo + i] = (float)p[2 * i] * s + o;
        }
    }
}

/* Row @c of the colour matrix over @len pixels of @cam, clipped to
 * [2^-LUT_OCTAVES, 1], encoded through the table into every second float of
 * @dst. The table's index and fraction come from the float's bits in a loop the
 * compiler vectorises; the look-up itself is a scalar gather. */
static void
encode_row (const TexelBayerFast *fast, const float m[3], float *const cam[3],
            int len, int32_t *restrict idx, float *restrict frac,
            float *restrict dst)
{
  const float *restrict c0 = cam[0], *restrict c1 = cam[1],
                        *restrict c2 = cam[2];
  const float m0 = m[0], m1 = m[1], m2 = m[2];
  int i;

  for (i = 0; i < len; i++)
    {
      float l = m0 * c0[i] + m1 * c1[i] + m2 * c2[i];
      int32_t bits;

      /* Clipped as integers: the bits of floats >= 0 are in their order,
       * negative ones are negative integers (and NaN clips to 1). */
      memcpy (&bits, &l, sizeof (bits));
      bits = bits > LUT_MIN_BITS ? bits : LUT_MIN_BITS;
      bits = bits < LUT_ONE_BITS ? bits : LUT_ONE_BITS;
      idx[i] = (bits >> MANT_BITS) - (LUT_EXP0 << LUT_STEP_BITS);
      frac[i]
          = (float)(bits & ((1 << MANT_BITS) - 1)) * (1.0f / (1 << MANT_BITS));
    }
  for (i = 0; i < len; i++)
    dst[2 * i] = fast->lut[idx[i]] + fast->delta[idx[i]] * frac[i];
}

/* @out (+)= the four weighted sources over @len floats (@first: =):
 * four taps a pass, so that @out is loaded and stored once per four. */
static inline void
multiply_add4 (float *restrict out, const float *restrict a,
               const float *restrict b, const float *restrict c,
               const float *restrict d, const float w[4], int len, int first)
{
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
  int i;

  if (first)
    for (i = 0; i < len; i++)
      out[i] = w0 * a[i] + w1 * b[i] + w2 * c[i] + w3 * d[i];
  else
    for (i = 0; i < len; i++)
      out[i] += w0 * a[i] + w1 * b[i] + w2 * c[i] + w3 * d[i];
}

/* Colour of the pixels of one class over @len pixels: the taps summed
 * (a missing fourth tap of a pass weighs 0). */
static void
apply_taps (const BayerTap *taps, int n_taps, int q, float *window[5][2],
            int len, float *restrict out)
{
  int t, k;

  for (t = 0; t < n_taps; t += 4)
    {
      const float *src[4];
      float w[4];

      for (k = 0; k < 4; k++)
        {
          const BayerTap *tp = &taps[t + k < n_taps ? t + k : t];

          src[k]
              = window[tp->dy + 2][(q + tp->dx) & 1] + ((q + 2 + tp->dx) >> 1);
          w[k] = t + k < n_taps ? tp->weight : 0.0f;
        }
      multiply_add4 (out, src[0], src[1], src[2], src[3], w, len, t == 0);
    }
}

void
texel_bayer_fast_row (const TexelBayerFast *fast, const TexelBayerPlan *bp,
                      const TexelImage *in, int y, int x0, int n,
                      float *const rgb[3], void *scratch)
{
  const int len = plane_len (n);
  BayerRing *ring = scratch;
  float *base = (float *)((uint8_t *)scratch + ring_head ());
  float *window[5][2];
  float *cam[3], *frac;
  int32_t *idx;
  int r, par, q, c;

  if (ring->x0 != x0 || ring->n != n)
    {
      texel_bayer_fast_reset (scratch);
      ring->x0 = x0;
      ring->n = n;
    }
  for (r = 0; r < 5; r++)
    {
      const int u = y + r - 2, slot = ((u % RING) + RING) % RING;

      for (par = 0; par < 2; par++)
        window[r][par] = base + (size_t)(2 * slot + par) * len;
      if (ring->u[slot] == u)
        continue;
      for (par = 0; par < 2; par++)
        linearise (bp, in, texel_bayer_mirror (u, in->height), x0 - 2 + par,
                   len, window[r][par]);
      ring->u[slot] = u;
    }
  for (c = 0; c < 3; c++)
    cam[c] = base + (size_t)(2 * RING + c) * len;
  idx = (int32_t *)(base + (size_t)(2 * RING + 3) * len);
  frac = base + (size_t)(2 * RING + 4) * len;

  for (q = 0; q < 2 && q < n; q++)
    {
      const int cls = texel_bayer_class (bp, x0 + q, y);
      const int count = (n - q + 1) / 2;

      for (c = 0; c < 3; c++)
        apply_taps (fast->tap[cls][c], fast->n_taps[cls][c], q, window, count,
                    cam[c]);
      for (c = 0; c < 3; c++)
        encode_row (fast, bp->ccm_f[c], cam, count, idx, frac, rgb[c] + q);
    }
}
