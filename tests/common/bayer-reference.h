/* gst-texel tests: raw Bayer development written out from its
 * definitions, in double, independently of the library: what
 * kernels/bayer/texel-bayer.h is checked against (test-bayer on the CPU, the
 * element tests, test-bayer-gpu on the GPU).
 *
 *  - Sample (x, y) has the colour of the pattern name's letter at (x mod 2,
 *    y mod 2) of its 2x2 cell ("RGGB": R at (0, 0), B at (1, 1)).
 *  - Its linear value: (code / max - black / max) / (1 - black / max) *
 *    gain, with the black level and gain of its colour.
 *  - Outside the frame the mosaic is mirrored without repeating the edge
 *    sample (a reflection of period 2 (n - 1); n = 1: the sample itself).
 *  - Bilinear: a missing colour is the mean of the nearest samples of it
 *    (the 4 of the cross, the 4 diagonals, or the 2 along the row or the
 *    column). Malvar, He and Cutler (ICASSP 2004, figure 2), with C the
 *    sample, 1 the nearest cross, 2 the cross at distance 2:
 *    G at R or B = (4 C + 2 sum G1 - sum C2) / 8;
 *    R at B, B at R = (6 C + 2 sum diagonals - 3/2 sum C2) / 8;
 *    R or B at G, along the G's row = (5 C + 4 (W + E) - sum diagonals -
 *    (WW + EE) + (NN + SS) / 2) / 8, along its column the transpose.
 *  - Then the 3x3 matrix, a clip to [0, 1] and the transfer function:
 *    sRGB (IEC 61966-2-1), BT.709 (with BT.2020's precise constants) or
 *    none.
 *
 * Header only, plain C (the GPU tests use no GLib).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_TEST_BAYER_REFERENCE_H
#define TEXEL_TEST_BAYER_REFERENCE_H

#include <math.h>
#include <stdint.h>

enum
{
  BAYER_REF_SRGB,
  BAYER_REF_BT709,
  BAYER_REF_LINEAR
};

typedef struct
{
  const uint8_t *data;
  int stride; /* bytes per row */
  int width, height;
  const char *pattern; /* "RGGB", "BGGR", "GRBG" or "GBRG" */
  int bits;            /* 8: bytes; more: 16-bit LE words */
  int msb;             /* words: bits at the top */
  int bilinear;        /* else Malvar-He-Cutler */
  double black[3], gain[3];
  double ccm[3][3];
  int transfer; /* BAYER_REF_* */
} BayerRef;

/* The neutral development: no black level, unit gains, the identity
 * matrix, no encoding. */
static inline void
bayer_ref_init (BayerRef *r, const char *pattern, int bits, int msb)
{
  static const BayerRef neutral = {
    .gain = { 1.0, 1.0, 1.0 },
    .ccm = { { 1.0, 0.0, 0.0 }, { 0.0, 1.0, 0.0 }, { 0.0, 0.0, 1.0 } },
    .transfer = BAYER_REF_LINEAR,
  };

  *r = neutral;
  r->pattern = pattern;
  r->bits = bits;
  r->msb = msb;
}

/* 0 R, 1 G, 2 B */
static inline int
bayer_ref_colour (const BayerRef *r, int x, int y)
{
  char letter = r->pattern[(y % 2) * 2 + x % 2];

  return letter == 'R' ? 0 : (letter == 'G' ? 1 : 2);
}

static inline int
bayer_ref_reflect (int i, int n)
{
  int p = 2 * (n - 1);

  if (n == 1)
    return 0;
  i = ((i % p) + p) % p;
  return i < n ? i : p - i;
}

static inline unsigned
bayer_ref_code (const BayerRef *r, int x, int y)
{
  const uint8_t *row = r->data + (size_t)y * r->stride;
  unsigned w;

  if (r->bits == 8)
    return row[x];
  w = row[2 * x] | (row[2 * x + 1] << 8);
  return r->msb ? w >> (16 - r->bits) : w;
}

static inline double
bayer_ref_lin (const BayerRef *r, int x, int y)
{
  int mx = bayer_ref_reflect (x, r->width);
  int my = bayer_ref_reflect (y, r->height);
  int c = bayer_ref_colour (r, mx, my);
  double max = (double)((1 << r->bits) - 1);
  double black = r->black[c] / max;

  return (bayer_ref_code (r, mx, my) / max - black) / (1.0 - black)
         * r->gain[c];
}

/* Linear camera RGB of pixel (@x, @y), inside the frame. */
static inline void
bayer_ref_demosaic (const BayerRef *r, int x, int y, double rgb[3])
{
#define BAYER_REF_V(dx, dy) bayer_ref_lin (r, x + (dx), y + (dy))
  double C = BAYER_REF_V (0, 0);
  double N = BAYER_REF_V (0, -1), S = BAYER_REF_V (0, 1);
  double W = BAYER_REF_V (-1, 0), E = BAYER_REF_V (1, 0);
  double NN = BAYER_REF_V (0, -2), SS = BAYER_REF_V (0, 2);
  double WW = BAYER_REF_V (-2, 0), EE = BAYER_REF_V (2, 0);
  double diag = BAYER_REF_V (-1, -1) + BAYER_REF_V (1, -1) + BAYER_REF_V (-1, 1)
                + BAYER_REF_V (1, 1);
#undef BAYER_REF_V
  double far = NN + SS + WW + EE;
  int c = bayer_ref_colour (r, x, y);
  double green, opposite, along_row, along_col;

  if (r->bilinear)
    {
      green = (N + S + W + E) / 4.0;
      opposite = diag / 4.0;
      along_row = (W + E) / 2.0;
      along_col = (N + S) / 2.0;
    }
  else
    {
      green = (4.0 * C + 2.0 * (N + S + W + E) - far) / 8.0;
      opposite = (6.0 * C + 2.0 * diag - 1.5 * far) / 8.0;
      along_row = (5.0 * C + 4.0 * (W + E) - diag - (WW + EE) + 0.5 * (NN + SS))
                  / 8.0;
      along_col = (5.0 * C + 4.0 * (N + S) - diag - (NN + SS) + 0.5 * (WW + EE))
                  / 8.0;
    }
  if (c == 0)
    {
      rgb[0] = C;
      rgb[1] = green;
      rgb[2] = opposite;
    }
  else if (c == 2)
    {
      rgb[0] = opposite;
      rgb[1] = green;
      rgb[2] = C;
    }
  else
    {
      /* Whether the pattern's row of this green holds the red samples. */
      const char *row = r->pattern + (y % 2) * 2;
      int red_in_row = row[0] == 'R' || row[1] == 'R';

      rgb[1] = C;
      rgb[0] = red_in_row ? along_row : along_col;
      rgb[2] = red_in_row ? along_col : along_row;
    }
}

static inline double
bayer_ref_encode (int transfer, double v)
{
  /* BT.2020, table 4: alpha and beta to full precision. */
  const double a = 1.09929682680944, b = 0.018053968510807;

  if (transfer == BAYER_REF_SRGB)
    return v <= 0.0031308 ? 12.92 * v : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
  if (transfer == BAYER_REF_BT709)
    return v < b ? 4.5 * v : a * pow (v, 0.45) - (a - 1.0);
  return v;
}

/* Developed R'G'B' of pixel (@x, @y), in [0, 1]. */
static inline void
bayer_ref_develop (const BayerRef *r, int x, int y, double out[3])
{
  double rgb[3];
  int k;

  bayer_ref_demosaic (r, x, y, rgb);
  for (k = 0; k < 3; k++)
    {
      double v = r->ccm[k][0] * rgb[0] + r->ccm[k][1] * rgb[1]
                 + r->ccm[k][2] * rgb[2];

      out[k]
          = bayer_ref_encode (r->transfer, v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v));
    }
}

#endif
