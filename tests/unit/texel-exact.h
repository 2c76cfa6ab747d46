/* gst-texel tests: exact definitions of Y'CbCr encoding and decoding with
 * subsampled chroma, in double precision.
 *
 * Written from the standards and the documented filters, not from the
 * kernels or their CPU reference (texel-convert-cpu.c), so that the tests
 * that compare with them check the CPU and the GPU paths alike. Plain C
 * and header-only: the GPU tests (no GLib) use it too.
 *
 *  - Colour: E'Y = Kr R' + Kg G' + Kb B', E'Cb = (B' - E'Y) / (2 (1 - Kb)),
 *    E'Cr = (R' - E'Y) / (2 (1 - Kr)) (ITU-R BT.601-7 2.5.1, BT.709-6
 *    3.2); limited range codes 16 + 219 E'Y and 128 + 224 E'C times
 *    2^(bits - 8) (BT.601 2.5.3, BT.2100 for 10 bits); full range
 *    (2^bits - 1) E'Y and 2^(bits - 1) + (2^bits - 1) E'C.
 *  - Pictures are continuous: pixel k covers [k, k + 1) with its centre at
 *    k + 0.5, and is reconstructed between centres by the method (nearest:
 *    the pixel under the point; bilinear: the triangle kernel; bicubic:
 *    the cubic B-spline), edge pixels repeating beyond the frame.
 *  - A subsampled (by 2) sample i has its site at 2 i + 1 (centred: jpeg)
 *    or 2 i + 0.5 (cosited with luma sample 2 i: mpeg2 horizontally) and
 *    its footprint is [site - 1, site + 1]. Encoding: its value is the mean
 *    of the full-resolution output picture over the footprint, that picture
 *    being constant over each of its pixels: centred, [1, 1] / 2 of the two
 *    pixels; cosited, [1, 2, 1] / 4 of three. Decoding: chroma is
 *    reconstructed by the method from the samples at their sites.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_EXACT_H
#define TEXEL_EXACT_H

#include <math.h>

typedef struct
{
  double kr, kb;
  int full_range;
  int bits; /* 8 or 10 */
} ExactYcc;

#define EXACT_BT601 0.299, 0.114
#define EXACT_BT709 0.2126, 0.0722

static inline double
exact_max_code (int bits)
{
  return (double)((1 << bits) - 1);
}

/* Y', Cb, Cr codes, not rounded, of R'G'B' in [0, 1]. */
static inline void
exact_encode (const ExactYcc *e, const double rgb[3], double ycc[3])
{
  double y = e->kr * rgb[0] + (1.0 - e->kr - e->kb) * rgb[1] + e->kb * rgb[2];
  double cb = (rgb[2] - y) / (2.0 * (1.0 - e->kb));
  double cr = (rgb[0] - y) / (2.0 * (1.0 - e->kr));
  double s = (double)(1 << (e->bits - 8));
  double max = exact_max_code (e->bits);

  if (e->full_range)
    {
      ycc[0] = max * y;
      ycc[1] = 128.0 * s + max * cb;
      ycc[2] = 128.0 * s + max * cr;
    }
  else
    {
      ycc[0] = 16.0 * s + 219.0 * s * y;
      ycc[1] = 128.0 * s + 224.0 * s * cb;
      ycc[2] = 128.0 * s + 224.0 * s * cr;
    }
}

/* R'G'B' (not clamped) of Y', Cb, Cr codes: exact_encode inverted. */
static inline void
exact_decode (const ExactYcc *e, const double ycc[3], double rgb[3])
{
  double s = (double)(1 << (e->bits - 8));
  double max = exact_max_code (e->bits);
  double y, cb, cr, kg = 1.0 - e->kr - e->kb;

  if (e->full_range)
    {
      y = ycc[0] / max;
      cb = (ycc[1] - 128.0 * s) / max;
      cr = (ycc[2] - 128.0 * s) / max;
    }
  else
    {
      y = (ycc[0] - 16.0 * s) / (219.0 * s);
      cb = (ycc[1] - 128.0 * s) / (224.0 * s);
      cr = (ycc[2] - 128.0 * s) / (224.0 * s);
    }
  rgb[0] = y + 2.0 * (1.0 - e->kr) * cr;
  rgb[2] = y + 2.0 * (1.0 - e->kb) * cb;
  rgb[1] = (y - e->kr * rgb[0] - e->kb * rgb[2]) / kg;
}

/* A picture of w x h pixels with @channels doubles each, row-major. */
typedef struct
{
  int w, h, channels;
  const double *px;
} ExactPicture;

static inline int
exact_clamp (int i, int n)
{
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

/* The reconstruction kernel of @method (1: bilinear, 2: cubic B-spline)
 * at distance @d from a pixel centre. */
static inline double
exact_kernel (int method, double d)
{
  d = fabs (d);
  if (method == 1)
    return d < 1.0 ? 1.0 - d : 0.0;
  if (d < 1.0)
    return (4.0 - 6.0 * d * d + 3.0 * d * d * d) / 6.0;
  if (d < 2.0)
    return (2.0 - d) * (2.0 - d) * (2.0 - d) / 6.0;
  return 0.0;
}

/* The picture reconstructed by @method (0: nearest) at (@x, @y). */
static inline void
exact_reconstruct (const ExactPicture *p, int method, double x, double y,
                   double *out)
{
  int c, i, j;

  for (c = 0; c < p->channels; c++)
    out[c] = 0.0;
  if (method == 0)
    {
      const double *v = p->px
                        + ((size_t)exact_clamp ((int)floor (y), p->h) * p->w
                           + exact_clamp ((int)floor (x), p->w))
                              * p->channels;

      for (c = 0; c < p->channels; c++)
        out[c] = v[c];
      return;
    }
  for (j = (int)floor (y) - 3; j <= (int)floor (y) + 3; j++)
    {
      for (i = (int)floor (x) - 3; i <= (int)floor (x) + 3; i++)
        {
          double w = exact_kernel (method, x - (i + 0.5))
                     * exact_kernel (method, y - (j + 0.5));
          const double *v
              = p->px
                + ((size_t)exact_clamp (j, p->h) * p->w + exact_clamp (i, p->w))
                      * p->channels;

          if (w == 0.0)
            continue;
          for (c = 0; c < p->channels; c++)
            out[c] += w * v[c];
        }
    }
}

/* Along one axis: the pixel centres of the footprint of output sample @i
 * (subsampled by 2 when @sub) and their weights, the overlap of each
 * pixel with [site - 1, site + 1] over its length 2. Not subsampled: the
 * pixel itself. Returns how many. */
static inline int
exact_footprint (int sub, int cosited, int i, double pos[3], double w[3])
{
  double site, k;
  int n = 0;

  if (!sub)
    {
      pos[0] = i + 0.5;
      w[0] = 1.0;
      return 1;
    }
  site = 2.0 * i + (cosited ? 0.5 : 1.0);
  for (k = floor (site - 1.0); k < site + 1.0; k += 1.0)
    {
      double lo = fmax (k, site - 1.0), hi = fmin (k + 1.0, site + 1.0);

      if (hi > lo)
        {
          pos[n] = k + 0.5;
          w[n++] = (hi - lo) / 2.0;
        }
    }
  return n;
}

/* Output position (x, y) -> input position: in = map[k][0] x + map[k][1]
 * y + map[k][2]. */
typedef double ExactMap[2][3];

/* Scaling the whole input (in_w x in_h) onto the whole output. */
static inline void
exact_map_scale (ExactMap m, int in_w, int in_h, int out_w, int out_h)
{
  m[0][0] = (double)in_w / out_w;
  m[0][1] = 0.0;
  m[0][2] = 0.0;
  m[1][0] = 0.0;
  m[1][1] = (double)in_h / out_h;
  m[1][2] = 0.0;
}

/* Y', Cb, Cr codes (not rounded) of the output sample (@i, @j) of a
 * component subsampled by (@sub_x, @sub_y) (0 or 1), encoding R'G'B'
 * picture @rgb (channels 3, in [0, 1]) seen through @map and @method:
 * the mean over its footprint (luma: the pixel's centre alone). */
static inline void
exact_encode_sample (const ExactPicture *rgb, int method, const ExactMap map,
                     const ExactYcc *e, int sub_x, int sub_y, int h_cosited,
                     int v_cosited, int i, int j, double ycc[3])
{
  double px[3], wx[3], py[3], wy[3];
  int nx = exact_footprint (sub_x, h_cosited, i, px, wx);
  int ny = exact_footprint (sub_y, v_cosited, j, py, wy);
  int a, b, c;

  ycc[0] = ycc[1] = ycc[2] = 0.0;
  for (b = 0; b < ny; b++)
    {
      for (a = 0; a < nx; a++)
        {
          double x = map[0][0] * px[a] + map[0][1] * py[b] + map[0][2];
          double y = map[1][0] * px[a] + map[1][1] * py[b] + map[1][2];
          double v[3], code[3];

          exact_reconstruct (rgb, method, x, y, v);
          exact_encode (e, v, code);
          for (c = 0; c < 3; c++)
            ycc[c] += wx[a] * wy[b] * code[c];
        }
    }
}

/* Chroma (Cb, Cr codes) of a 4:2:x picture at luma position (@x, @y):
 * @chroma holds the samples (channels 2), sample k's site at luma
 * coordinate 2 k + 0.5 (cosited) or 2 k + 1 along a subsampled axis;
 * reconstructed there by @method. */
static inline void
exact_chroma_at (const ExactPicture *chroma, int method, int sub_x, int sub_y,
                 int h_cosited, int v_cosited, double x, double y,
                 double cbcr[2])
{
  /* In the chroma grid, sample k's centre is at k + 0.5. */
  double cx = sub_x ? (x - (h_cosited ? 0.5 : 1.0)) / 2.0 + 0.5 : x;
  double cy = sub_y ? (y - (v_cosited ? 0.5 : 1.0)) / 2.0 + 0.5 : y;

  exact_reconstruct (chroma, method, cx, cy, cbcr);
}

/* Test pictures shared by the CPU, element and GPU tests. */
typedef enum
{
  EXACT_CHECKER, /* red / green, one pixel squares */
  EXACT_EDGES,   /* four saturated colours, edges at odd x, y */
  EXACT_RANDOM,  /* codes from a hash of (seed, x, y, c) */
  EXACT_N_PATTERNS
} ExactPattern;

static inline const char *
exact_pattern_name (ExactPattern p)
{
  return p == EXACT_CHECKER ? "checkerboard"
         : p == EXACT_EDGES ? "edges"
                            : "random";
}

/* A code in [0, @max] from (@seed, @x, @y, @c) (a 32-bit integer hash). */
static inline unsigned
exact_hash_code (unsigned seed, int x, int y, int c, unsigned max)
{
  unsigned h = seed * 0x9e3779b9u ^ (unsigned)x * 0x85ebca6bu
               ^ (unsigned)y * 0xc2b2ae35u ^ (unsigned)c * 0x27d4eb2fu;

  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h % (max + 1);
}

/* 8-bit R'G'B' of pixel (@x, @y) of a @w x @h picture of @p. */
static inline void
exact_pattern_rgb (ExactPattern p, int x, int y, int w, int h, unsigned seed,
                   unsigned rgb[3])
{
  static const unsigned quad[4][3] = {
    { 0, 0, 255 },
    { 255, 255, 0 },
    { 255, 0, 255 },
    { 255, 255, 255 },
  };
  int c;

  if (p == EXACT_CHECKER)
    {
      rgb[0] = (x + y) & 1 ? 0 : 255;
      rgb[1] = 255 - rgb[0];
      rgb[2] = 0;
    }
  else if (p == EXACT_EDGES)
    {
      /* Edges after an odd pixel: inside a centred chroma footprint. */
      int q = (x >= (w / 2 | 1)) + 2 * (y >= (h / 2 | 1));

      for (c = 0; c < 3; c++)
        rgb[c] = quad[q][c];
    }
  else
    {
      for (c = 0; c < 3; c++)
        rgb[c] = exact_hash_code (seed, x, y, c, 255);
    }
}

#endif /* TEXEL_EXACT_H */
