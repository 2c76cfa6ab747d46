/* gst-texel: texelwarp's fast CPU path (texel-warp-fast.h).
 *
 * Per group of output components sharing a sample grid: a map row is
 * filled from the reference's positions the first time a band needs it,
 * then each run of adjacent bytes of a pixel (RGBA's 4, NV12 chroma's 2,
 * a plane's 1) is gathered along the row: nearest copies the sample,
 * bilinear blends 4 in integers. The run's size and pixel stride are
 * constants in the loops of the common layouts (chosen once per row).
 *
 * Bilinear on pixels of 1, 2 or 4 adjacent bytes (planes, NV12's chroma,
 * the RGBA family) is one pass per pixel, 4 pixels a step: the 2 x 2
 * taps loaded where the map points and blended in registers with
 * intrinsics, SSE2 on x86-64 and NEON on arm64 (both baseline: no
 * run-time dispatch), the scalar definition elsewhere; all three compute
 * the same integers (blend_byte), so frames are byte-identical across
 * targets. Intrinsics, not loops for gcc to vectorise (what the other
 * fast paths use): a pixel's taps are gathered loads, which the
 * vectoriser leaves scalar, and blending them through a scratch so that
 * a plain loop vectorises (the first version) spent most of its time
 * storing and reloading the scratch. Not ORC: its programs are 1-D
 * kernels over arrays, without gathers. Not Highway: a C++ dependency
 * for a C plugin, and its run-time dispatch buys nothing for a loop that
 * waits on loads. RGB (3 bytes), YUY2/UYVY and inputs 1 sample wide or
 * tall keep the two-pass blend through a scratch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-warp-fast.h"
#include "texel-sample-map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* TEXEL_WARP_FAST_SCALAR: the scalar definition on every target (a test
 * build: tests/unit/meson.build). */
#if defined(TEXEL_WARP_FAST_SCALAR)
#define USE_SSE2 0
#define USE_NEON 0
#elif defined(__SSE2__)
#define USE_SSE2 1
#define USE_NEON 0
#include <emmintrin.h>
#elif defined(__ARM_NEON) && defined(__BYTE_ORDER__)                           \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define USE_SSE2 0
#define USE_NEON 1
#include <arm_neon.h>
#else
#define USE_SSE2 0
#define USE_NEON 0
#endif

/* Fraction bits of the bilinear positions (texel-warp-fast.h: the
 * bound). */
#define FRAC_BITS 12
#define ONE (1 << FRAC_BITS)
/* The horizontal blends keep 7 fraction bits of a code (at most 32640:
 * signed 16-bit lanes, what SSE2's pmaddwd multiplies), the vertical one
 * rounds them and the fractions' bits away. Every implementation below
 * computes exactly this. */
#define H_BITS 7
#define H_SHIFT (FRAC_BITS - H_BITS)
#define V_SHIFT (FRAC_BITS + H_BITS)
/* A map entry's x for samples that get the border colour. */
#define BORDER_X (-1)

#define MAX_GROUPS 2
#define MAX_RUNS 4

/* Bytes [offset, offset + n) of each pixel of one plane, pixel_stride
 * apart: the components (and RGBx's padding byte) gathered together. */
typedef struct
{
  int plane, offset, n, pixel_stride;
  int pad; /* index in the run of RGBx's padding byte (0xff), or -1 */
  uint8_t border[MAX_RUNS];
} Run;

/* The output components subsampled by (x_shift, y_shift), and their
 * map. */
typedef struct
{
  int x_shift, y_shift;
  int width, height;       /* the output grid */
  int in_width, in_height; /* the input components' grid */
  int n_runs;
  Run run[MAX_RUNS];
  int16_t *xy;    /* x, y per sample */
  uint16_t *frac; /* bilinear: fx, fy per sample */
  uint8_t *ready; /* per row: filled */
} Group;

struct TexelWarpFast
{
  int bilinear;
  int n_groups;
  Group group[MAX_GROUPS];
};

/* Samples along an axis of @size luma pixels subsampled by 2^@shift,
 * rounded up like the plane sizes. */
static int
grid_size (int size, int shift)
{
  return -((-size) >> shift);
}

/* The reference's code for normalised @v (write_sample: round () of the
 * value clamped to [0, 1]). */
static uint8_t
code_of (double v)
{
  return (uint8_t)round ((v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v)) * 255.0);
}

/* Whether the plan's colour matrix leaves codes as they are. */
static int
matrix_is_identity (const TexelConvertPlan *s)
{
  int k, c;

  for (k = 0; k < 3; k++)
    for (c = 0; c < 4; c++)
      if (fabs (s->m[k][c] - (k == c ? 1.0 : 0.0)) > 1e-9)
        return 0;
  return 1;
}

static int
covered (const TexelWarpPlan *plan)
{
  const TexelConvertPlan *s = &plan->sampling;

  return s->in.format == s->out.format && s->in.bytes_per_sample == 1
         && s->bayer.pattern == TEXEL_BAYER_NONE
         && (s->method == TEXEL_METHOD_NEAREST
             || s->method == TEXEL_METHOD_BILINEAR)
         && matrix_is_identity (s) && s->in_width > 0 && s->in_height > 0
         && s->in_width <= INT16_MAX && s->in_height <= INT16_MAX
         && s->out_width > 0 && s->out_height > 0;
}

/* Adds output component @c to @g's runs: to the run it extends (the next
 * byte of the same plane's pixels) or as a new one. */
static void
add_component (const TexelConvertPlan *s, Group *g, int c)
{
  const TexelComponent *comp = &s->out.comp[c];
  uint8_t border = code_of (s->border[c]);
  int r;

  for (r = 0; r < g->n_runs; r++)
    {
      Run *run = &g->run[r];

      if (run->plane == comp->plane && run->pixel_stride == comp->pixel_stride
          && run->offset + run->n == comp->offset)
        {
          run->border[run->n++] = border;
          return;
        }
      if (run->plane == comp->plane && run->pixel_stride == comp->pixel_stride
          && comp->offset + 1 == run->offset)
        {
          memmove (run->border + 1, run->border, (size_t)run->n);
          run->border[0] = border;
          run->offset--;
          run->n++;
          return;
        }
    }
  g->run[g->n_runs++] = (Run){ comp->plane,        comp->offset, 1,
                               comp->pixel_stride, -1,           { border } };
}

/* The group of components subsampled by (@xs, @ys), its map allocated. */
static int
group_init (const TexelWarpPlan *plan, int bilinear, Group *g, int xs, int ys)
{
  const TexelConvertPlan *s = &plan->sampling;
  int pad = xs == 0 && ys == 0 ? texel_format_padding_offset (&s->out) : -1;
  size_t n;
  int c, r;

  memset (g, 0, sizeof (*g));
  g->x_shift = xs;
  g->y_shift = ys;
  g->width = grid_size (s->out_width, xs);
  g->height = grid_size (s->out_height, ys);
  g->in_width = grid_size (s->in_width, xs);
  g->in_height = grid_size (s->in_height, ys);
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (s->out.comp[c].plane >= 0 && s->out.comp[c].x_shift == xs
        && s->out.comp[c].y_shift == ys)
      add_component (s, g, c);
  /* RGBx: the padding byte joins the run, written 0xff (as the reference
   * does) after the blend; xRGB's leads it. */
  for (r = 0; r < g->n_runs && pad >= 0; r++)
    if (g->run[r].plane == 0 && g->run[r].offset + g->run[r].n == pad)
      {
        g->run[r].pad = g->run[r].n;
        g->run[r].border[g->run[r].n++] = 0xff;
      }
    else if (g->run[r].plane == 0 && pad + 1 == g->run[r].offset)
      {
        memmove (g->run[r].border + 1, g->run[r].border, (size_t)g->run[r].n);
        g->run[r].border[0] = 0xff;
        g->run[r].pad = 0;
        g->run[r].offset--;
        g->run[r].n++;
      }
  n = (size_t)g->width * (size_t)g->height;
  g->xy = malloc (n * 2 * sizeof (int16_t));
  g->frac = bilinear ? malloc (n * 2 * sizeof (uint16_t)) : NULL;
  g->ready = calloc ((size_t)g->height, 1);
  return g->xy != NULL && (!bilinear || g->frac != NULL) && g->ready != NULL;
}

static void
group_clear (Group *g)
{
  free (g->xy);
  free (g->frac);
  free (g->ready);
}

TexelWarpFast *
texel_warp_fast_new (const TexelWarpPlan *plan)
{
  const TexelFormatDesc *out = &plan->sampling.out;
  TexelWarpFast *f;
  int c, k, ok = 1;

  if (!covered (plan) || (f = calloc (1, sizeof (*f))) == NULL)
    return NULL;
  f->bilinear = plan->sampling.method == TEXEL_METHOD_BILINEAR;
  for (c = 0; c < TEXEL_MAX_COMPONENTS && ok; c++)
    {
      const TexelComponent *comp = &out->comp[c];

      if (comp->plane < 0)
        continue;
      for (k = 0; k < f->n_groups; k++)
        if (f->group[k].x_shift == comp->x_shift
            && f->group[k].y_shift == comp->y_shift)
          break;
      if (k == f->n_groups && k < MAX_GROUPS)
        ok = group_init (plan, f->bilinear, &f->group[f->n_groups++],
                         comp->x_shift, comp->y_shift);
      else if (k == f->n_groups)
        ok = 0;
    }
  if (!ok)
    {
      texel_warp_fast_free (f);
      return NULL;
    }
  return f;
}

void
texel_warp_fast_free (TexelWarpFast *f)
{
  int k;

  if (f == NULL)
    return;
  for (k = 0; k < f->n_groups; k++)
    group_clear (&f->group[k]);
  free (f);
}

/* The bilinear taps of plane coordinate @p on a grid of @size samples:
 * the first tap's index and the fraction in 1/ONE, rounded, with the
 * reference's clamps folded in, so that the second tap is always the
 * next sample: a position before the first centre reads sample 0 alone
 * (fraction 0), one at or past the last centre the last sample alone
 * (from the sample before it, fraction ONE). A 1-sample grid: tap 0,
 * fraction 0 (the gather's second tap is the first there). */
static int16_t
bilinear_tap (double p, int size, uint16_t *frac)
{
  double q = floor ((p - 0.5) * ONE + 0.5);
  double i = floor (q / ONE);

  *frac = (uint16_t)(q - i * ONE);
  if (i < 0.0 || size == 1)
    {
      *frac = 0;
      return 0;
    }
  if (i >= size - 1)
    {
      *frac = ONE;
      return (int16_t)(size - 2);
    }
  return (int16_t)i;
}

/* Map row @j of @g from the reference's positions. */
static void
fill_row (const TexelWarpPlan *plan, int bilinear, Group *g, int j)
{
  const TexelConvertPlan *s = &plan->sampling;
  int16_t *xy = g->xy + (size_t)j * g->width * 2;
  uint16_t *frac = bilinear ? g->frac + (size_t)j * g->width * 2 : NULL;
  double y = texel_sample_centre_d (j, g->y_shift, s->out_chroma_off[1]);
  int i;

  for (i = 0; i < g->width; i++)
    {
      double x = texel_sample_centre_d (i, g->x_shift, s->out_chroma_off[0]);
      double sx, sy;

      if (!texel_warp_source_border_d (plan, x, y, &sx, &sy))
        {
          xy[2 * i] = BORDER_X;
          xy[2 * i + 1] = 0;
          if (frac != NULL)
            frac[2 * i] = frac[2 * i + 1] = 0;
        }
      else if (frac != NULL)
        {
          xy[2 * i] = bilinear_tap (
              texel_plane_coord_d (sx, g->x_shift, s->in_chroma_off[0]),
              g->in_width, &frac[2 * i]);
          xy[2 * i + 1] = bilinear_tap (
              texel_plane_coord_d (sy, g->y_shift, s->in_chroma_off[1]),
              g->in_height, &frac[2 * i + 1]);
        }
      else
        {
          /* The reference's nearest: the float position. */
          xy[2 * i] = (int16_t)texel_nearest_index (
              texel_plane_coord_f ((float)sx, g->x_shift, s->in_chroma_off[0]),
              g->in_width);
          xy[2 * i + 1] = (int16_t)texel_nearest_index (
              texel_plane_coord_f ((float)sy, g->y_shift, s->in_chroma_off[1]),
              g->in_height);
        }
    }
}

/* A band's scratch for the bilinear rows: each tap's codes and the
 * fractions, byte by byte, and a row of results. */
typedef struct
{
  uint8_t *tap[4];
  uint16_t *wx, *wy;
  uint8_t *line;
} Scratch;

/* @count bytes blended from @s into @out: blend_byte's integers (below),
 * written out with 16-bit operands so that gcc vectorises the loop:
 * vertically (codes times 12-bit weights, at most 255 x 2^12, rounded to
 * 1/2^H_BITS of a code: at most 32640), then horizontally (below 2^28)
 * and rounded to a code. */
static void
blend (const Scratch *s, int count, uint8_t *restrict out)
{
  const uint8_t *restrict t0 = s->tap[0], *restrict t1 = s->tap[1];
  const uint8_t *restrict t2 = s->tap[2], *restrict t3 = s->tap[3];
  const uint16_t *restrict wx = s->wx, *restrict wy = s->wy;
  int j;

  /* 16-bit operands widened to 32-bit products: pmullw / pmulhuw on
   * SSE2, umull on NEON (32-bit multiplies SSE2 lacks). */
  for (j = 0; j < count; j++)
    {
      uint16_t x1 = wx[j], x0 = (uint16_t)(ONE - x1);
      uint16_t y1 = wy[j], y0 = (uint16_t)(ONE - y1);
      uint16_t left = (uint16_t)(((uint32_t)t0[j] * y0 + (uint32_t)t2[j] * y1
                                  + (1u << (H_SHIFT - 1)))
                                 >> H_SHIFT);
      uint16_t right = (uint16_t)(((uint32_t)t1[j] * y0 + (uint32_t)t3[j] * y1
                                   + (1u << (H_SHIFT - 1)))
                                  >> H_SHIFT);

      out[j] = (uint8_t)(((uint32_t)left * x0 + (uint32_t)right * x1
                          + (1u << (V_SHIFT - 1)))
                         >> V_SHIFT);
    }
}

/* The one-pass bilinear blends, 4 output pixels of n = 1, 2 or 4 bytes
 * at a time (planes, NV12's chroma pairs, the RGBA family), behind a
 * small inline abstraction:
 *   blend4_pxN (a, stride, frac, out)   the 4 pixels whose top-left taps
 *       are at a[0..3] (the second tap of a row is the next pixel, the
 *       second row @stride below: the map folds the clamps), with the
 *       map's fractions frac[0..7] (fx, fy per pixel), into out[0..4n).
 * One implementation per instruction set, each computing blend_byte's
 * integers for every byte: first vertically, each column's two codes
 * times (1 - fy, fy) rounded to 1/2^H_BITS of a code, then horizontally
 * times (1 - fx, fx) rounded to a code.
 * Intrinsics rather than loops for gcc to vectorise: the loop is a
 * gather per pixel (2 loads where the map points), which the vectoriser
 * does not turn into SIMD (docs/design.md, "Fast CPU path"). */

/* One byte of the blend from taps @a, @b (top row), @c, @d (bottom row):
 * the definition. */
static inline uint8_t
blend_byte (unsigned a, unsigned b, unsigned c, unsigned d, unsigned fx,
            unsigned fy)
{
  unsigned left = (a * (ONE - fy) + c * fy + (1u << (H_SHIFT - 1))) >> H_SHIFT;
  unsigned right = (b * (ONE - fy) + d * fy + (1u << (H_SHIFT - 1))) >> H_SHIFT;

  return (uint8_t)((left * (ONE - fx) + right * fx + (1u << (V_SHIFT - 1)))
                   >> V_SHIFT);
}

/* One pixel of @n bytes, @n apart, blended from the taps at @a:
 * blend_byte for each byte. */
static inline void
blend_px_scalar (const uint8_t *a, size_t stride, int n, unsigned fx,
                 unsigned fy, uint8_t *out)
{
  int k;

  for (k = 0; k < n; k++)
    out[k]
        = blend_byte (a[k], a[n + k], a[stride + k], a[stride + n + k], fx, fy);
}

/* The top and bottom tap pairs (a b, c d) of 4 one-byte pixels at
 * a[0..3], pixel k in bits 16k to 16k + 15 (memory order: SSE2 and NEON
 * run little-endian only). */
static inline void
tap_pairs_px1 (const uint8_t *const a[4], size_t stride, uint64_t *top,
               uint64_t *bottom)
{
  uint16_t t, b;
  int k;

  *top = *bottom = 0;
  for (k = 0; k < 4; k++)
    {
      memcpy (&t, a[k], 2);
      memcpy (&b, a[k] + stride, 2);
      *top |= (uint64_t)t << (16 * k);
      *bottom |= (uint64_t)b << (16 * k);
    }
}

#if USE_SSE2
/* SSE2 (every x86-64): the two rows' codes interleaved per column in
 * 16-bit lanes (a c, b d) and pmaddwd with the (1 - fy, fy) pairs gives
 * a column's vertical blend in each 32-bit lane; the columns' results
 * narrowed, interleaved per byte (left, right) and pmaddwd with
 * (1 - fx, fx). pmaddwd multiplies signed 16-bit lanes: hence 7
 * fraction bits of a code between the passes (at most 32640). */

/* The weight pairs (1 - f, f) of 4 map entries, as 32-bit lanes:
 * *p01 = x0 y0 x1 y1 (the pairs of pixels 0 and 1), *p23 the same for
 * pixels 2 and 3. */
static inline void
weight_pairs (const uint16_t *frac, __m128i *p01, __m128i *p23)
{
  __m128i f = _mm_loadu_si128 ((const __m128i *)frac);
  __m128i g = _mm_sub_epi16 (_mm_set1_epi16 (ONE), f);

  *p01 = _mm_unpacklo_epi16 (g, f);
  *p23 = _mm_unpackhi_epi16 (g, f);
}

/* 32-bit lanes rounded and shifted right by @shift. */
#define ROUND_SHIFT(v, shift)                                                  \
  _mm_srai_epi32 (_mm_add_epi32 ((v), _mm_set1_epi32 (1 << ((shift)-1))),      \
                  (shift))

/* The (top, bottom) code pairs of columns @cols (16-bit: a c, b d, ...)
 * times the vertical pairs @wy: each 32-bit lane a column's blend,
 * rounded to 1/2^H_BITS of a code. */
static inline __m128i
vertical (__m128i cols, __m128i wy)
{
  return ROUND_SHIFT (_mm_madd_epi16 (cols, wy), H_SHIFT);
}

/* (left, right) 16-bit pairs times the horizontal pairs @wx, rounded to
 * codes in 32-bit lanes. */
static inline __m128i
horizontal (__m128i pairs, __m128i wx)
{
  return ROUND_SHIFT (_mm_madd_epi16 (pairs, wx), V_SHIFT);
}

static inline void
blend4_px1 (const uint8_t *const a[4], size_t stride, const uint16_t *frac,
            uint8_t *out)
{
  const __m128i zero = _mm_setzero_si128 ();
  uint64_t top, bottom;
  __m128i p01, p23, rows, lr01, lr23, wx, v;
  uint32_t px;

  tap_pairs_px1 (a, stride, &top, &bottom);
  weight_pairs (frac, &p01, &p23);
  /* a0 c0 b0 d0 a1 c1 b1 d1 ... */
  rows = _mm_unpacklo_epi8 (_mm_set_epi64x (0, (long long)top),
                            _mm_set_epi64x (0, (long long)bottom));
  /* y pairs (lanes 1 and 3) of pixels 0, 0, 1, 1; 2, 2, 3, 3 */
  lr01 = vertical (_mm_unpacklo_epi8 (rows, zero),
                   _mm_shuffle_epi32 (p01, _MM_SHUFFLE (3, 3, 1, 1)));
  lr23 = vertical (_mm_unpackhi_epi8 (rows, zero),
                   _mm_shuffle_epi32 (p23, _MM_SHUFFLE (3, 3, 1, 1)));
  /* x pairs (lanes 0 and 2) of pixels 0, 1, 2, 3 */
  wx = _mm_castps_si128 (_mm_shuffle_ps (_mm_castsi128_ps (p01),
                                         _mm_castsi128_ps (p23),
                                         _MM_SHUFFLE (2, 0, 2, 0)));
  v = horizontal (_mm_packs_epi32 (lr01, lr23), wx);
  v = _mm_packs_epi32 (v, v);
  px = (uint32_t)_mm_cvtsi128_si32 (_mm_packus_epi16 (v, v));
  memcpy (out, &px, 4);
}

static inline void
blend4_px2 (const uint8_t *const a[4], size_t stride, const uint16_t *frac,
            uint8_t *out)
{
  const __m128i zero = _mm_setzero_si128 ();
  uint32_t t[4], b[4];
  __m128i p01, p23, lo, hi, v01, v23;
  int k;

  for (k = 0; k < 4; k++)
    {
      memcpy (&t[k], a[k], 4);
      memcpy (&b[k], a[k] + stride, 4);
    }
  weight_pairs (frac, &p01, &p23);
  /* per pixel: a0 c0 a1 c1 b0 d0 b1 d1 */
  lo = _mm_unpacklo_epi8 (_mm_set_epi32 (0, 0, (int)t[1], (int)t[0]),
                          _mm_set_epi32 (0, 0, (int)b[1], (int)b[0]));
  hi = _mm_unpacklo_epi8 (_mm_set_epi32 (0, 0, (int)t[3], (int)t[2]),
                          _mm_set_epi32 (0, 0, (int)b[3], (int)b[2]));
  /* L0 L1 R0 R1 of pixels 0 and 1, then L0 R0 L1 R1 */
  v01 = _mm_packs_epi32 (
      vertical (_mm_unpacklo_epi8 (lo, zero), _mm_shuffle_epi32 (p01, 0x55)),
      vertical (_mm_unpackhi_epi8 (lo, zero), _mm_shuffle_epi32 (p01, 0xff)));
  v23 = _mm_packs_epi32 (
      vertical (_mm_unpacklo_epi8 (hi, zero), _mm_shuffle_epi32 (p23, 0x55)),
      vertical (_mm_unpackhi_epi8 (hi, zero), _mm_shuffle_epi32 (p23, 0xff)));
  v01 = _mm_shufflehi_epi16 (
      _mm_shufflelo_epi16 (v01, _MM_SHUFFLE (3, 1, 2, 0)),
      _MM_SHUFFLE (3, 1, 2, 0));
  v23 = _mm_shufflehi_epi16 (
      _mm_shufflelo_epi16 (v23, _MM_SHUFFLE (3, 1, 2, 0)),
      _MM_SHUFFLE (3, 1, 2, 0));
  /* x pairs of pixels 0, 0, 1, 1 and 2, 2, 3, 3 */
  v01 = horizontal (v01, _mm_shuffle_epi32 (p01, _MM_SHUFFLE (2, 2, 0, 0)));
  v23 = horizontal (v23, _mm_shuffle_epi32 (p23, _MM_SHUFFLE (2, 2, 0, 0)));
  v01 = _mm_packs_epi32 (v01, v23);
  _mm_storel_epi64 ((__m128i *)out, _mm_packus_epi16 (v01, v01));
}

/* One 4-byte pixel: @wx, @wy its pairs broadcast. */
static inline __m128i
blend_px4 (const uint8_t *a, size_t stride, __m128i wx, __m128i wy)
{
  const __m128i zero = _mm_setzero_si128 ();
  __m128i ac_bd
      = _mm_unpacklo_epi8 (_mm_loadl_epi64 ((const __m128i *)a),
                           _mm_loadl_epi64 ((const __m128i *)(a + stride)));
  __m128i left = vertical (_mm_unpacklo_epi8 (ac_bd, zero), wy);
  __m128i right = vertical (_mm_unpackhi_epi8 (ac_bd, zero), wy);
  /* L0 R0 L1 R1 L2 R2 L3 R3 */
  __m128i v = _mm_packs_epi32 (left, right);

  return horizontal (_mm_unpacklo_epi16 (v, _mm_srli_si128 (v, 8)), wx);
}

static inline void
blend4_px4 (const uint8_t *const a[4], size_t stride, const uint16_t *frac,
            uint8_t *out)
{
  __m128i p01, p23, v01, v23;

  weight_pairs (frac, &p01, &p23);
  v01 = _mm_packs_epi32 (blend_px4 (a[0], stride, _mm_shuffle_epi32 (p01, 0x00),
                                    _mm_shuffle_epi32 (p01, 0x55)),
                         blend_px4 (a[1], stride, _mm_shuffle_epi32 (p01, 0xaa),
                                    _mm_shuffle_epi32 (p01, 0xff)));
  v23 = _mm_packs_epi32 (blend_px4 (a[2], stride, _mm_shuffle_epi32 (p23, 0x00),
                                    _mm_shuffle_epi32 (p23, 0x55)),
                         blend_px4 (a[3], stride, _mm_shuffle_epi32 (p23, 0xaa),
                                    _mm_shuffle_epi32 (p23, 0xff)));
  _mm_storeu_si128 ((__m128i *)out, _mm_packus_epi16 (v01, v23));
}
#elif USE_NEON
/* NEON (every arm64): unsigned widening multiplies and multiply-adds
 * (umull/umlal, by vector or by scalar), rounding narrowing shifts
 * (rshrn) between the passes. */

/* 32-bit lanes rounded to codes, narrowed to bytes (the low 4). */
static inline uint8x8_t
to_codes (uint32x4_t v)
{
  uint16x4_t c = vmovn_u32 (vrshrq_n_u32 (v, V_SHIFT));

  return vmovn_u16 (vcombine_u16 (c, c));
}

static inline void
blend4_px1 (const uint8_t *const a[4], size_t stride, const uint16_t *frac,
            uint8_t *out)
{
  uint64_t top, bottom;
  uint16x4x2_t f = vld2_u16 (frac); /* fx 0..3, fy 0..3 */
  uint16x4_t gy = vsub_u16 (vdup_n_u16 (ONE), f.val[1]);
  uint16x4_t gx = vsub_u16 (vdup_n_u16 (ONE), f.val[0]);
  uint16x4x2_t gy2 = vzip_u16 (gy, gy), fy2 = vzip_u16 (f.val[1], f.val[1]);
  uint16x8_t t, b;
  uint16x4x2_t lr;
  uint32x4_t v;
  uint32_t px;

  tap_pairs_px1 (a, stride, &top, &bottom);
  /* a0 b0 a1 b1 ... and c0 d0 c1 d1 ...: per lane left, right */
  t = vmovl_u8 (vcreate_u8 (top));
  b = vmovl_u8 (vcreate_u8 (bottom));
  lr = vuzp_u16 (
      vrshrn_n_u32 (vmlal_u16 (vmull_u16 (vget_low_u16 (t), gy2.val[0]),
                               vget_low_u16 (b), fy2.val[0]),
                    H_SHIFT),
      vrshrn_n_u32 (vmlal_u16 (vmull_u16 (vget_high_u16 (t), gy2.val[1]),
                               vget_high_u16 (b), fy2.val[1]),
                    H_SHIFT));
  v = vmlal_u16 (vmull_u16 (lr.val[0], gx), lr.val[1], f.val[0]);
  px = vget_lane_u32 (vreinterpret_u32_u8 (to_codes (v)), 0);
  memcpy (out, &px, 4);
}

/* One 4-byte pixel from its rows' codes in 16-bit lanes (left tap's 4,
 * then right tap's), by scalar weights. */
static inline uint8x8_t
blend_px4 (uint16x8_t top, uint16x8_t bottom, unsigned fx, unsigned fy)
{
  uint16x4_t left = vrshrn_n_u32 (
      vmlal_n_u16 (vmull_n_u16 (vget_low_u16 (top), (uint16_t)(ONE - fy)),
                   vget_low_u16 (bottom), (uint16_t)fy),
      H_SHIFT);
  uint16x4_t right = vrshrn_n_u32 (
      vmlal_n_u16 (vmull_n_u16 (vget_high_u16 (top), (uint16_t)(ONE - fy)),
                   vget_high_u16 (bottom), (uint16_t)fy),
      H_SHIFT);

  return to_codes (vmlal_n_u16 (vmull_n_u16 (left, (uint16_t)(ONE - fx)), right,
                                (uint16_t)fx));
}

static inline void
blend4_px2 (const uint8_t *const a[4], size_t stride, const uint16_t *frac,
            uint8_t *out)
{
  int k;

  for (k = 0; k < 4; k++)
    {
      uint32_t t, b;
      uint16_t px;
      uint16x8_t top, bottom;
      uint16x4_t lr;
      uint32x4_t v;

      memcpy (&t, a[k], 4);
      memcpy (&b, a[k] + stride, 4);
      /* a0 a1 b0 b1 in 16-bit lanes */
      top = vmovl_u8 (vreinterpret_u8_u32 (vdup_n_u32 (t)));
      bottom = vmovl_u8 (vreinterpret_u8_u32 (vdup_n_u32 (b)));
      lr = vrshrn_n_u32 (
          vmlal_n_u16 (vmull_n_u16 (vget_low_u16 (top),
                                    (uint16_t)(ONE - frac[2 * k + 1])),
                       vget_low_u16 (bottom), frac[2 * k + 1]),
          H_SHIFT);
      /* L0 L1 R0 R1: lanes 0, 1 get L (1 - fx) + R fx */
      v = vmlal_n_u16 (vmull_n_u16 (lr, (uint16_t)(ONE - frac[2 * k])),
                       vext_u16 (lr, lr, 2), frac[2 * k]);
      px = vget_lane_u16 (vreinterpret_u16_u8 (to_codes (v)), 0);
      memcpy (out + 2 * k, &px, 2);
    }
}

static inline void
blend4_px4 (const uint8_t *const a[4], size_t stride, const uint16_t *frac,
            uint8_t *out)
{
  int k;

  for (k = 0; k < 4; k++)
    {
      /* a0..a3 b0..b3 and c0..c3 d0..d3 in 16-bit lanes */
      uint32_t px = vget_lane_u32 (
          vreinterpret_u32_u8 (blend_px4 (vmovl_u8 (vld1_u8 (a[k])),
                                          vmovl_u8 (vld1_u8 (a[k] + stride)),
                                          frac[2 * k], frac[2 * k + 1])),
          0);

      memcpy (out + 4 * k, &px, 4);
    }
}
#else
/* Other targets: the definition, byte by byte. */
#define BLEND4_SCALAR(N)                                                       \
  static inline void blend4_px##N (const uint8_t *const a[4], size_t stride,   \
                                   const uint16_t *frac, uint8_t *out)         \
  {                                                                            \
    int k;                                                                     \
                                                                               \
    for (k = 0; k < 4; k++)                                                    \
      blend_px_scalar (a[k], stride, N, frac[2 * k], frac[2 * k + 1],          \
                       out + N * k);                                           \
  }
BLEND4_SCALAR (1)
BLEND4_SCALAR (2)
BLEND4_SCALAR (4)
#undef BLEND4_SCALAR
#endif

/* One output row of a run: what the gathers share. */
typedef struct
{
  const uint8_t *src; /* the run's first byte in the input plane */
  size_t src_stride;
  uint8_t *dst; /* the run's first byte in the output row */
  const int16_t *xy;
  const uint16_t *frac;
  const uint8_t *border;
  const Scratch *scratch;
  int width, last_x, last_y;
  int folded; /* the map's second taps are the next samples */
  int pad;    /* RGBx's padding byte in the run (0xff), or -1 */
} Row;

/* Nearest: copies the run's @n bytes of the sample the map names. @n and
 * @ps (the pixel stride) are constants where the caller's switch inlines
 * it. */
static inline __attribute__ ((always_inline)) void
gather_nearest (const Row *r, const int n, const int ps)
{
  const int16_t *restrict xy = r->xy;
  uint8_t *restrict dst = r->dst;
  const int width = r->width;
  int i;

  for (i = 0; i < width; i++, dst += ps)
    {
      const int x = xy[2 * i], y = xy[2 * i + 1];
      const uint8_t *p
          = x == BORDER_X ? r->border
                          : r->src + (size_t)y * r->src_stride + (size_t)x * ps;

      memcpy (dst, p, n);
    }
}

/* Bilinear, in two passes over the row, for the layouts the one-pass
 * blends do not take (RGB, YUY2, UYVY; an input 1 sample wide or tall):
 * the 4 samples around each position (a load and a store of n bytes
 * each) and the map's fractions (per byte) gathered into the scratch,
 * then blended there (a loop over bytes gcc vectorises in 16-bit lanes).
 * Border samples gather the border colour 4 times with fractions 0. */
static inline __attribute__ ((always_inline)) void
gather_bilinear (const Row *r, const int n, const int ps)
{
  const int16_t *restrict xy = r->xy;
  const uint16_t *restrict frac = r->frac;
  const Scratch *s = r->scratch;
  uint8_t *restrict t0 = s->tap[0], *restrict t1 = s->tap[1];
  uint8_t *restrict t2 = s->tap[2], *restrict t3 = s->tap[3];
  uint16_t *restrict wx = s->wx, *restrict wy = s->wy;
  const int width = r->width, last_x = r->last_x, last_y = r->last_y;
  const size_t stride = r->src_stride;
  int i, k;

  for (i = 0; i < width; i++)
    {
      const int x = xy[2 * i], y = xy[2 * i + 1];
      uint16_t fx = frac[2 * i], fy = frac[2 * i + 1];
      uint16_t fxs[MAX_RUNS], fys[MAX_RUNS];
      const uint8_t *a, *b, *c, *d;

      if (x == BORDER_X)
        {
          a = b = c = d = r->border;
          fx = fy = 0;
        }
      else
        {
          /* The reference clamps the second taps to the last sample. */
          a = r->src + (size_t)y * stride + (size_t)x * ps;
          b = x < last_x ? a + ps : a;
          c = y < last_y ? a + stride : a;
          d = x < last_x ? c + ps : c;
        }
      /* Whole taps: one load and store each where n is a constant. */
      memcpy (t0 + i * n, a, n);
      memcpy (t1 + i * n, b, n);
      memcpy (t2 + i * n, c, n);
      memcpy (t3 + i * n, d, n);
      for (k = 0; k < n; k++)
        {
          fxs[k] = fx;
          fys[k] = fy;
        }
      memcpy (wx + i * n, fxs, sizeof (fxs[0]) * n);
      memcpy (wy + i * n, fys, sizeof (fys[0]) * n);
    }
  blend (s, width * n, ps == n ? r->dst : s->line);
  if (ps != n)
    for (i = 0; i < width; i++)
      for (k = 0; k < n; k++)
        r->dst[(size_t)i * ps + k] = s->line[i * n + k];
}

/* Look-ahead of the prefetches in gather_bilinear_packed, in pixels. */
#define PREFETCH_AHEAD 96

/* The @n-byte pixel at map entry @i of @r by the definition
 * (blend_px_scalar), or the border's. */
static void
pixel_scalar (const Row *r, int i, int n, uint8_t *out)
{
  const int x = r->xy[2 * i], y = r->xy[2 * i + 1];

  if (x == BORDER_X)
    {
      memcpy (out, r->border, (size_t)n);
      return;
    }
  blend_px_scalar (r->src + (size_t)y * r->src_stride + (size_t)x * n,
                   r->src_stride, n, r->frac[2 * i], r->frac[2 * i + 1], out);
  if (r->pad >= 0)
    out[r->pad] = 0xff;
}

/* Bilinear in one pass for pixels of @n = 1, 2 or 4 adjacent bytes
 * (planes, NV12's chroma, the RGBA family; a constant where inlined), 4
 * pixels a step: blended from their taps where they lie (blend4_px*),
 * no scratch. Steps with a border sample, and the row's last pixels,
 * take pixel_scalar. The taps of the pixels PREFETCH_AHEAD on are
 * prefetched (both rows): the gathered loads waiting for memory were
 * most of the time. */
static inline __attribute__ ((always_inline)) void
gather_bilinear_packed (const Row *r, const int n)
{
  const int16_t *restrict xy = r->xy;
  const size_t stride = r->src_stride;
  const int width = r->width;
  uint8_t *dst = r->dst;
  int i, k;

  for (i = 0; i + 4 <= width; i += 4, dst += 4 * n)
    {
      const int ahead = i + PREFETCH_AHEAD;
      const uint8_t *a[4];
      int border = 0;

      if (ahead < width && xy[2 * ahead] != BORDER_X)
        {
          const uint8_t *p = r->src + (size_t)xy[2 * ahead + 1] * stride
                             + (size_t)xy[2 * ahead] * n;

          __builtin_prefetch (p);
          __builtin_prefetch (p + stride);
        }
      for (k = 0; k < 4; k++)
        {
          const int x = xy[2 * (i + k)], y = xy[2 * (i + k) + 1];

          border |= x == BORDER_X;
          a[k] = r->src
                 + (x == BORDER_X ? 0 : (size_t)y * stride + (size_t)x * n);
        }
      if (border)
        for (k = 0; k < 4; k++)
          pixel_scalar (r, i + k, n, dst + k * n);
      else if (n == 1)
        blend4_px1 (a, stride, r->frac + 2 * i, dst);
      else if (n == 2)
        blend4_px2 (a, stride, r->frac + 2 * i, dst);
      else
        {
          blend4_px4 (a, stride, r->frac + 2 * i, dst);
          if (r->pad >= 0)
            for (k = 0; k < 4; k++)
              dst[4 * k + r->pad] = 0xff;
        }
    }
  for (; i < width; i++, dst += n)
    pixel_scalar (r, i, n, dst);
}

/* The gather for the run's layout, with the common ones' sizes constant
 * (one switch per row); 1 when it wrote RGBx's padding byte too. */
static int
gather (const Row *r, int bilinear, int n, int ps)
{
#define GATHER(N, PS)                                                          \
  (bilinear ? gather_bilinear (r, N, PS) : gather_nearest (r, N, PS))
  switch (n * 8 + ps)
    {
      case 1 * 8 + 1: /* planar: GRAY8, luma, I420's chroma */
        if (bilinear && r->folded)
          gather_bilinear_packed (r, 1);
        else
          GATHER (1, 1);
        break;
      case 2 * 8 + 2: /* NV12's chroma */
        if (bilinear && r->folded)
          gather_bilinear_packed (r, 2);
        else
          GATHER (2, 2);
        break;
      case 3 * 8 + 3: /* RGB */
        GATHER (3, 3);
        break;
      case 4 * 8 + 4: /* RGBA, RGBx */
        if (bilinear && r->folded)
          {
            gather_bilinear_packed (r, 4);
            return 1;
          }
        GATHER (4, 4);
        break;
      default: /* YUY2, UYVY */
        GATHER (n, ps);
        break;
    }
#undef GATHER
  return 0;
}

/* Output row @j of @g's components. */
static void
warp_row (const TexelWarpPlan *plan, const TexelImage *in, TexelImage *out,
          Group *g, int j, const Scratch *scratch)
{
  const TexelWarpFast *f = plan->fast;
  size_t at = (size_t)j * g->width * 2;
  int r, i;

  if (!g->ready[j])
    {
      fill_row (plan, f->bilinear, g, j);
      g->ready[j] = 1;
    }
  for (r = 0; r < g->n_runs; r++)
    {
      const Run *run = &g->run[r];
      Row row;

      row.src = in->data[run->plane] + run->offset;
      row.src_stride = (size_t)in->stride[run->plane];
      row.dst = out->data[run->plane] + (size_t)j * out->stride[run->plane]
                + run->offset;
      row.xy = g->xy + at;
      row.frac = f->bilinear ? g->frac + at : NULL;
      row.border = run->border;
      row.scratch = scratch;
      row.width = g->width;
      row.last_x = g->in_width - 1;
      row.last_y = g->in_height - 1;
      row.folded = g->in_width > 1 && g->in_height > 1;
      row.pad = run->pad;
      if (!gather (&row, f->bilinear, run->n, run->pixel_stride)
          && run->pad >= 0)
        for (i = 0; i < g->width; i++)
          row.dst[(size_t)i * run->pixel_stride + run->pad] = 0xff;
    }
}

/* A scratch for rows of up to @bytes bytes, in one block (freed
 * from its start, s->wx); 0 when out of memory. */
static int
scratch_init (Scratch *s, size_t bytes)
{
  uint8_t *block = malloc (bytes * 9);

  if (block == NULL)
    return 0;
  s->wx = (uint16_t *)block;
  s->wy = s->wx + bytes;
  s->tap[0] = block + bytes * 4;
  s->tap[1] = s->tap[0] + bytes;
  s->tap[2] = s->tap[1] + bytes;
  s->tap[3] = s->tap[2] + bytes;
  s->line = s->tap[3] + bytes;
  return 1;
}

void
texel_warp_fast (const TexelWarpPlan *plan, const TexelImage *in,
                 TexelImage *out, int row0, int row1)
{
  TexelWarpFast *f = plan->fast;
  Scratch scratch = { { NULL }, NULL, NULL, NULL };
  size_t bytes = 0;
  int k, j;

  if (f != NULL && f->bilinear)
    {
      for (k = 0; k < f->n_groups; k++)
        if ((size_t)f->group[k].width * MAX_RUNS > bytes)
          bytes = (size_t)f->group[k].width * MAX_RUNS;
      /* Out of memory for the scratch: the reference needs none. */
      if (!scratch_init (&scratch, bytes))
        f = NULL;
    }
  if (f == NULL)
    {
      texel_warp_cpu (plan, in, out, row0, row1);
      return;
    }
  if (texel_clip_rows (&row0, &row1, plan->sampling.out_height))
    for (k = 0; k < f->n_groups; k++)
      {
        Group *g = &f->group[k];
        int ys = g->y_shift;
        int j1 = (row1 + (1 << ys) - 1) >> ys;

        for (j = row0 >> ys; j < j1 && j < g->height; j++)
          warp_row (plan, in, out, g, j, &scratch);
      }
  /* The block starts at the fractions. */
  free (scratch.wx);
}
