/* gst-texel: texelconvert's fast CPU path (texel-convert-fast.h).
 *
 * The plan's map is axis-aligned for the cases covered here, so every
 * output sample is a separable weighted sum of input samples: weight
 * Wx(column) * Wy(row), the product of the filter's taps and of the
 * chroma footprint's. Those weights are worked out once per plan, with
 * the reference's own coordinate functions (texel-sample-map.h), and
 * stored as integer taps: per input plane and output row the input rows
 * and their weights, per input component and output column the byte
 * offsets and weights. A frame row is then a vertical pass over the input
 * rows (all components of a plane at once, whatever their layout), a
 * horizontal pass per component, the colour matrix in fixed point and the
 * stores. The loops are plain C the compiler vectorises where the access
 * is contiguous (vertical pass, matrix, planar stores).
 *
 * Fixed point: tap weights sum to 1 << TAP_BITS; the filtered values keep
 * VAL_BITS bits below the 8-bit code, in 16 bits; the matrix coefficients
 * have COEF_BITS fractional bits and the matrix sums the high halves of
 * 16 x 16-bit products in 16-bit lanes. Each output is within one code of
 * the reference (tests/unit/test-convert-fast.c checks it; the error
 * budget is in docs/accuracy.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-convert-fast.h"
#include "texel-bayer-fast.h"
#include "texel-sample-map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TAP_BITS 14
/* The matrix runs in 16-bit lanes (8 per SSE2 or NEON register): values
 * up to 255 << 7, coefficients below 4 << 13, the high half of their
 * product (SUM_BITS below the code) summed with the offset in 16 bits. */
#define VAL_BITS 7
#define COEF_BITS 13
#define SUM_BITS (VAL_BITS + COEF_BITS - 16)
/* Raw Bayer rows come developed in the same fixed point. */
#if VAL_BITS != TEXEL_BAYER_FAST_FRAC_BITS
#error "texel-bayer-fast.h's rows must have VAL_BITS fractional bits"
#endif
/* Filter taps times chroma footprint taps along an axis, at most. */
#define MAX_TAPS 12

/* Per output sample along an axis: @n taps, each an index (an input row,
 * or a byte offset into the vertical pass's row) and a weight. */
typedef struct
{
  int n;
  int32_t *index;
  int16_t *weight;
  /* One tap per sample, evenly spaced: index[i] = index[0] + step * i
   * (a copy, strided or flipped); 0 otherwise. */
  int step;
  /* Two taps per sample, periodic over samples [p0, p1): sample i + period
   * reads pstride further on with the same weights (a constant scale
   * factor: 2x chroma upsampling has period 2, 1.5x down period 2 in luma
   * and 4 in chroma). period 0: none. */
  int period, pstride, p0, p1;
} FastTaps;

/* The output components that share one subsampling (x_shift, y_shift):
 * computed together, from the same input taps. */
typedef struct
{
  int x_shift, y_shift;
  int width, height;
  /* Samples inside the destination rectangle: [i0, i1) x [j0, j1). */
  int i0, i1, j0, j1;
  /* Input components read (bit c), and the planes they live in (bit p). */
  unsigned comps, planes;
  FastTaps h[TEXEL_MAX_COMPONENTS]; /* columns i0..i1, per component */
  FastTaps v[TEXEL_MAX_PLANES];     /* rows 0..height, per input plane */
  /* Bytes [span0, span1) of each input plane row that the columns read. */
  int span0[TEXEL_MAX_PLANES], span1[TEXEL_MAX_PLANES];
  /* Two components interleaved byte by byte (NV12's UV): the vertical
   * pass's row is split into @split samples of each, one after the other,
   * so that the horizontal pass reads them contiguously; 0 otherwise. */
  int split[TEXEL_MAX_PLANES];
  /* Output component k = sum of the high halves of coef[k] * value, plus
   * offset[k] (SUM_BITS fractional bits), for the components in @out_comps; the
   * non-zero terms of each row listed in term[k] (n_terms[k] of them). */
  unsigned out_comps;
  int32_t coef[TEXEL_MAX_COMPONENTS][TEXEL_MAX_COMPONENTS];
  int16_t offset[TEXEL_MAX_COMPONENTS];
  int n_terms[TEXEL_MAX_COMPONENTS];
  int term[TEXEL_MAX_COMPONENTS][TEXEL_MAX_COMPONENTS];
  uint8_t border[TEXEL_MAX_COMPONENTS];
  /* RGBx: the padding byte's offset (written 0xff), or -1. */
  int pad;
  /* Raw Bayer input: the mosaic columns [dev_x0, dev_x0 + dev_n) are
   * developed into the vertical pass's row, R, G and B one after the
   * other (texel-bayer-fast.h). */
  int dev_x0, dev_n;
} FastGroup;

/* Rows a call keeps developed (texel-bayer-fast.h): a chroma row
 * (NV12, I420) reads rows its luma rows developed, and when scaling
 * consecutive output rows share taps' rows; a luma row's and a chroma
 * row's taps fit together. */
#define BAYER_CACHE (4 + MAX_TAPS)

/* One call's Bayer scratch: the developed rows kept (row @k: mosaic row
 * y[k], columns x0[k] + n[k]; y -1 none), the vertical pass's sums, the
 * development's own scratch. */
typedef struct
{
  int y[BAYER_CACHE], x0[BAYER_CACHE], n[BAYER_CACHE];
  int next;
  int16_t *row[BAYER_CACHE];
  int32_t *acc;
  void *rest;
} BayerScratch;

struct _TexelConvertFast
{
  int n_groups;
  FastGroup group[2];
  size_t scratch_bytes;
  /* Raw Bayer input: the development's tables, and the scratch of its
   * rows (after scratch_bytes); NULL and 0 otherwise. */
  TexelBayerFast *bayer;
  size_t bayer_bytes;
  /* Bayer to RGB over the whole frame, one tap a sample: bayer_direct_row; its
   * codes written in place on the integer way (bayer_codes_row), so that
   * the 16-bit values' tables are not needed. */
  int direct, direct_codes;
  /* The most columns a group develops. */
  int bayer_n;
};

static int
subsampled_size (int size, int shift)
{
  return -((-size) >> shift);
}

static int
clamp_index (int i, int size)
{
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

/* Input taps of one axis: indices in the component's sample grid and
 * their weights, merged. */
typedef struct
{
  int n;
  int index[MAX_TAPS];
  double weight[MAX_TAPS];
} AxisTaps;

static void
axis_add (AxisTaps *t, int index, double weight)
{
  int k;

  if (weight == 0.0)
    return;
  for (k = 0; k < t->n; k++)
    {
      if (t->index[k] == index)
        {
          t->weight[k] += weight;
          return;
        }
    }
  t->index[t->n] = index;
  t->weight[t->n++] = weight;
}

/* The reference's filter (texel-convert-cpu.c) at input luma position
 * @p (double) / @pf (float, for nearest) along an axis, on a component
 * grid of @size samples subsampled by @shift, scaled by @scale. */
static void
axis_filter (const TexelConvertPlan *plan, AxisTaps *t, double p, float pf,
             int shift, float chroma_off, int size, double scale)
{
  double q, x0, f, f2, f3;
  int i;

  if (plan->method == TEXEL_METHOD_NEAREST)
    {
      axis_add (t,
                texel_nearest_index (
                    texel_plane_coord_f (pf, shift, chroma_off), size),
                scale);
      return;
    }
  q = texel_plane_coord_d (p, shift, chroma_off);
  x0 = floor (q - 0.5);
  f = q - 0.5 - x0;
  i = (int)x0;
  if (plan->method == TEXEL_METHOD_BILINEAR)
    {
      axis_add (t, clamp_index (i, size), scale * (1.0 - f));
      axis_add (t, clamp_index (i + 1, size), scale * f);
      return;
    }
  f2 = f * f;
  f3 = f2 * f;
  axis_add (t, clamp_index (i - 1, size),
            scale * (1.0 - f) * (1.0 - f) * (1.0 - f) / 6.0);
  axis_add (t, clamp_index (i, size),
            scale * (4.0 - 6.0 * f2 + 3.0 * f3) / 6.0);
  axis_add (t, clamp_index (i + 1, size),
            scale * (1.0 + 3.0 * f + 3.0 * f2 - 3.0 * f3) / 6.0);
  axis_add (t, clamp_index (i + 2, size), scale * f3 / 6.0);
}

/* Taps of input component @c along output axis @axis for output sample
 * @i of a group subsampled by @out_shift: the chroma footprint around
 * the sample's site (component_taps in the reference), each through the
 * filter. */
static void
axis_taps (const TexelConvertPlan *plan, int c, int axis, int out_shift, int i,
           AxisTaps *t)
{
  const TexelComponent *comp = &plan->in.comp[c];
  int in_shift = axis ? comp->y_shift : comp->x_shift;
  int size
      = subsampled_size (axis ? plan->in_height : plan->in_width, in_shift);
  const double *row = plan->map[axis];
  const float *row_f = plan->map_f[axis];
  double pos = texel_sample_centre_d (i, out_shift, plan->out_chroma_off[axis]);
  float pos_f
      = texel_sample_centre_f (i, out_shift, plan->out_chroma_off[axis]);
  /* The map is axis-aligned: the other coordinate does not contribute. */
  double in = axis ? texel_map_d (row, 0.0, pos) : texel_map_d (row, pos, 0.0);
  float in_f = axis ? texel_map_f (row_f, 0.0f, pos_f)
                    : texel_map_f (row_f, pos_f, 0.0f);
  TexelChromaTaps fp = texel_chroma_taps (
      plan->chroma_filter && texel_chroma_filtered (out_shift, in_shift)
          ? out_shift
          : 0,
      plan->out_chroma_off[axis]);
  int a;

  t->n = 0;
  for (a = 0; a < fp.n; a++)
    {
      double shift = axis ? texel_tap_shift_d (row, 0.0, fp.off[a])
                          : texel_tap_shift_d (row, fp.off[a], 0.0);
      float shift_f = axis ? texel_tap_shift_f (row_f, 0.0f, fp.off[a])
                           : texel_tap_shift_f (row_f, fp.off[a], 0.0f);

      axis_filter (plan, t, in + shift, in_f + shift_f, in_shift,
                   plan->in_chroma_off[axis], size, fp.w[a]);
    }
}

/* Integer weights summing exactly to 1 << TAP_BITS: rounded, the
 * remainder given to the largest. */
static void
quantise (const AxisTaps *t, int n, int32_t *index, int16_t *weight,
          int32_t base, int32_t step)
{
  int k, largest = 0, sum = 0;

  for (k = 0; k < n; k++)
    {
      int w = k < t->n ? (int)lround (t->weight[k] * (1 << TAP_BITS)) : 0;

      index[k] = base + step * t->index[k < t->n ? k : 0];
      weight[k] = (int16_t)w;
      sum += w;
      if (k < t->n && t->weight[k] > t->weight[largest])
        largest = k;
    }
  weight[largest] = (int16_t)(weight[largest] + (1 << TAP_BITS) - sum);
}

static void
taps_free (FastTaps *t)
{
  free (t->index);
  free (t->weight);
  t->index = NULL;
  t->weight = NULL;
}

/* Whether 2-tap sample @i + @period repeats sample @i @stride further. */
static int
repeats (const FastTaps *t, int i, int period, int stride)
{
  const int32_t *a = t->index + 2 * i, *b = t->index + 2 * (i + period);
  const int16_t *wa = t->weight + 2 * i, *wb = t->weight + 2 * (i + period);

  return b[0] - a[0] == stride && b[1] - a[1] == stride && wa[0] == wb[0]
         && wa[1] == wb[1];
}

/* The shortest period (up to 8) of a 2-tap table over a run of samples
 * around its middle covering most of it; the edges, where the taps are
 * clamped, stay with the generic loop. */
static void
find_period (FastTaps *t, int count)
{
  int period, mid = count / 2;

  t->period = 0;
  if (t->n != 2)
    return;
  for (period = 1; period <= 8 && mid + period < count; period++)
    {
      int stride = t->index[2 * (mid + period)] - t->index[2 * mid];
      int a = mid, e = mid;

      while (a > 0 && repeats (t, a - 1, period, stride))
        a--;
      while (e + period < count && repeats (t, e, period, stride))
        e++;
      /* [a, e) repeat: samples [a, e + period) follow the pattern. */
      if (e + period - a >= count / 2 && e - a >= 4 * period)
        {
          t->period = period;
          t->pstride = stride;
          t->p0 = a;
          t->p1 = e + period;
          return;
        }
    }
}

/* Taps of component @c along @axis for output samples [i0, i1), stored
 * as @base + @step * index. */
static int
build_taps (const TexelConvertPlan *plan, int c, int axis, int out_shift,
            int i0, int i1, int32_t base, int32_t step, FastTaps *out)
{
  int count = i1 - i0, n = 1, i;
  AxisTaps t;

  for (i = i0; i < i1; i++)
    {
      axis_taps (plan, c, axis, out_shift, i, &t);
      if (t.n > n)
        n = t.n;
    }
  out->n = n;
  out->index = malloc (sizeof (int32_t) * (size_t)(count > 0 ? count : 1) * n);
  out->weight = malloc (sizeof (int16_t) * (size_t)(count > 0 ? count : 1) * n);
  if (out->index == NULL || out->weight == NULL)
    return -1;
  for (i = i0; i < i1; i++)
    {
      axis_taps (plan, c, axis, out_shift, i, &t);
      quantise (&t, n, out->index + (size_t)(i - i0) * n,
                out->weight + (size_t)(i - i0) * n, base, step);
    }
  find_period (out, count);
  out->step = 0;
  if (n == 1 && count > 1)
    {
      out->step = out->index[1] - out->index[0];
      for (i = 2; i < count && out->step != 0; i++)
        if (out->index[i] - out->index[i - 1] != out->step)
          out->step = 0;
    }
  return 0;
}

static int
fixed (double v, int bits)
{
  return (int)lround (v * (double)(1 << bits));
}

/* Whether the fast path covers @plan (texel-convert-fast.h). */
static int
covered (const TexelConvertPlan *plan)
{
  if (plan->out.bytes_per_sample != 1 || plan->map[0][1] != 0.0
      || plan->map[1][0] != 0.0)
    return 0;
  /* Raw Bayer: each mosaic row a tap reads developed once at 1:1
   * (texel-bayer-fast.h), then filtered like an 8-bit input's rows. */
  return plan->bayer.pattern != TEXEL_BAYER_NONE
         || plan->in.bytes_per_sample == 1;
}

/* Output sample range whose centres lie in [lo, hi) along @axis. */
static void
inside_range (const TexelConvertPlan *plan, int axis, int shift, int size,
              int *i0, int *i1)
{
  double lo = axis ? plan->dst_y0 : plan->dst_x0;
  double hi = axis ? plan->dst_y1 : plan->dst_x1;
  int i;

  *i0 = size;
  *i1 = 0;
  for (i = 0; i < size; i++)
    {
      double p = texel_sample_centre_d (i, shift, plan->out_chroma_off[axis]);

      if (p >= lo && p < hi)
        {
          if (i < *i0)
            *i0 = i;
          *i1 = i + 1;
        }
    }
  if (*i1 < *i0)
    *i0 = *i1 = 0;
}

/* The matrix of group @g: output code k (8 bits) from the input values
 * (VAL_BITS below the code); components the input lacks are constants,
 * folded into the offset. Marks the input components read. Returns -1
 * when a sum could leave 16 bits (no supported colorimetry pair does). */
static int
group_matrix (const TexelConvertPlan *plan, FastGroup *g)
{
  double scale = (double)(1 << SUM_BITS);
  int k, c;

  for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
    {
      double offset, m[TEXEL_MAX_COMPONENTS] = { 0 };

      if (!(g->out_comps & (1u << k)))
        continue;
      if (k < 3)
        {
          for (c = 0; c < 3; c++)
            m[c] = plan->m[k][c];
          offset = plan->m[k][3];
        }
      else
        {
          m[3] = 1.0;
          offset = 0.0;
        }
      /* 8-bit codes on both sides: code_k = sum_c m[c] * code_c
       * + 255 * offset; the half rounds to nearest at the final shift. */
      offset *= 255.0;
      for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
        {
          if (m[c] == 0.0)
            continue;
          if (plan->in.comp[c].plane < 0)
            {
              offset += m[c] * plan->in_missing[c] * 255.0;
            }
          else
            {
              if (fabs (m[c]) >= 32767.0 / (1 << COEF_BITS))
                return -1;
              g->coef[k][c] = fixed (m[c], COEF_BITS);
              if (g->coef[k][c] != 0)
                {
                  g->comps |= 1u << c;
                  g->term[k][g->n_terms[k]++] = c;
                }
            }
        }
      {
        /* The high halves are floored: half a unit each comes back here. */
        double off = (offset + 0.5) * scale + 0.5 * g->n_terms[k];
        double reach = fabs (off);

        for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
          reach += fabs ((double)g->coef[k][c]) * (255 << VAL_BITS) / 65536.0
                   + 1.0;
        if (reach > 32000.0)
          return -1;
        g->offset[k] = (int16_t)lround (off);
      }
      g->border[k] = (uint8_t)lround (plan->border[k] * 255.0);
    }
  return 0;
}

/* Samples per component when input plane @p holds two components
 * interleaved byte by byte (NV12, NV21 chroma), else 0. */
static int
split_width (const TexelConvertPlan *plan, int p)
{
  const TexelFormatDesc *d = &plan->in;
  int c, n = 0, offsets = 0, width = 0;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      if (d->comp[c].plane != p)
        continue;
      n++;
      offsets |= 1 << d->comp[c].offset;
      width = subsampled_size (plan->in_width, d->comp[c].x_shift);
      if (d->comp[c].pixel_stride != 2)
        return 0;
    }
  return n == 2 && offsets == 3 ? width : 0;
}

/* Bayer: the columns every component reads (the same for R, G and B),
 * developed once; component c's column x is at c * dev_n + x - dev_x0 in
 * the vertical pass's row. */
static void
bayer_columns (FastGroup *g)
{
  int c, i;

  if (g->span1[0] <= g->span0[0])
    {
      /* No column inside the destination: nothing is read. */
      g->span0[0] = g->span1[0] = 0;
      return;
    }
  g->dev_x0 = g->span0[0];
  g->dev_n = g->span1[0] - g->span0[0];
  for (c = 0; c < 3; c++)
    if (g->comps & (1u << c))
      for (i = 0; i < (g->i1 - g->i0) * g->h[c].n; i++)
        g->h[c].index[i] += c * g->dev_n - g->dev_x0;
  g->span0[0] = 0;
  g->span1[0] = 3 * g->dev_n;
}

static int
group_init (const TexelConvertPlan *plan, FastGroup *g, int x_shift,
            int y_shift)
{
  const int bayer = plan->bayer.pattern != TEXEL_BAYER_NONE;
  int k, c, p, i;

  memset (g, 0, sizeof (*g));
  g->x_shift = x_shift;
  g->y_shift = y_shift;
  g->width = subsampled_size (plan->out_width, x_shift);
  g->height = subsampled_size (plan->out_height, y_shift);
  inside_range (plan, 0, x_shift, g->width, &g->i0, &g->i1);
  inside_range (plan, 1, y_shift, g->height, &g->j0, &g->j1);
  for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
    {
      const TexelComponent *comp = &plan->out.comp[k];

      if (comp->plane >= 0 && comp->x_shift == x_shift
          && comp->y_shift == y_shift)
        g->out_comps |= 1u << k;
    }
  g->pad = x_shift == 0 && y_shift == 0
               ? texel_format_padding_offset (&plan->out)
               : -1;
  if (group_matrix (plan, g) != 0)
    return -1;

  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    {
      g->span0[p] = 1 << 30;
      g->span1[p] = 0;
    }
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &plan->in.comp[c];
      FastTaps *h = &g->h[c];

      if (!(g->comps & (1u << c)))
        continue;
      p = comp->plane;
      g->split[p] = bayer ? 0 : split_width (plan, p);
      /* Bayer: mosaic columns, renumbered below. */
      if (build_taps (plan, c, 0, x_shift, g->i0, g->i1,
                      g->split[p] ? comp->offset * g->split[p]
                                  : (bayer ? 0 : comp->offset),
                      g->split[p] || bayer ? 1 : comp->pixel_stride, h)
          != 0)
        return -1;
      for (i = 0; i < (g->i1 - g->i0) * h->n; i++)
        {
          if (h->index[i] < g->span0[p])
            g->span0[p] = h->index[i];
          if (h->index[i] + 1 > g->span1[p])
            g->span1[p] = h->index[i] + 1;
        }
      if (!(g->planes & (1u << p))
          && build_taps (plan, c, 1, y_shift, 0, g->height, 0, 1, &g->v[p])
                 != 0)
        return -1;
      g->planes |= 1u << p;
    }
  /* A split row is filled whole. */
  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    {
      if (g->split[p])
        {
          g->span0[p] = 0;
          g->span1[p] = 2 * g->split[p];
        }
    }
  if (bayer)
    bayer_columns (g);
  /* Column offsets relative to the span the vertical pass fills. */
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      if (g->comps & (1u << c))
        {
          p = plan->in.comp[c].plane;
          for (i = 0; i < (g->i1 - g->i0) * g->h[c].n; i++)
            g->h[c].index[i] -= g->span0[p];
        }
    }
  return 0;
}

static void
group_clear (FastGroup *g)
{
  int k;

  for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
    taps_free (&g->h[k]);
  for (k = 0; k < TEXEL_MAX_PLANES; k++)
    taps_free (&g->v[k]);
}

/* Whether a Bayer plan's output is an RGB format that group @g fills
 * whole with one tap per sample, evenly spaced (1:1 nearest or bilinear,
 * bicubic's spline smooths; nearest at a whole ratio), through an
 * identity matrix: its codes are then the developed values rounded. */
static int
bayer_direct (const TexelConvertPlan *plan, const FastGroup *g)
{
  const TexelFormatDesc *d = &plan->out;
  int c, k;

  if (d->is_yuv || d->is_gray || d->n_planes != 1 || g->i0 != 0
      || g->i1 != g->width || g->j0 != 0 || g->j1 != g->height || g->v[0].n != 1
      || plan->in_missing[3] != 1.0)
    return 0;
  for (c = 0; c < 3; c++)
    {
      /* step 0: one column (its taps are not tested for a step). */
      if (d->comp[c].plane != 0 || g->h[c].n != 1
          || (g->h[c].step == 0 && g->width > 1))
        return 0;
      for (k = 0; k < 4; k++)
        if (plan->m[c][k] != (c == k ? 1.0 : 0.0))
          return 0;
    }
  return 1;
}

/* Whether bayer_codes_row can write group @g's rows: one developed
 * column an output column, in order or backwards. */
static int
codes_in_place (const FastGroup *g)
{
  return g->dev_n == g->width
         && (g->h[0].step == 1 || g->h[0].step == -1 || g->width == 1);
}

void
texel_convert_fast_free (TexelConvertFast *fast)
{
  int g;

  if (fast == NULL)
    return;
  for (g = 0; g < fast->n_groups; g++)
    group_clear (&fast->group[g]);
  texel_bayer_fast_free (fast->bayer);
  free (fast);
}

TexelConvertFast *
texel_convert_fast_new (const TexelConvertPlan *plan)
{
  TexelConvertFast *fast;
  size_t bytes = 0;
  int k, g, p;

  if (!covered (plan))
    return NULL;
  fast = calloc (1, sizeof (*fast));
  if (fast == NULL)
    return NULL;
  for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
    {
      const TexelComponent *comp = &plan->out.comp[k];
      int seen = 0;

      if (comp->plane < 0)
        continue;
      for (g = 0; g < fast->n_groups; g++)
        seen |= fast->group[g].x_shift == comp->x_shift
                && fast->group[g].y_shift == comp->y_shift;
      if (seen)
        continue;
      if (group_init (plan, &fast->group[fast->n_groups++], comp->x_shift,
                      comp->y_shift)
          != 0)
        {
          texel_convert_fast_free (fast);
          return NULL;
        }
    }
  /* Scratch of one call: the vertical pass's rows, the values and
   * codes of a row. */
  for (g = 0; g < fast->n_groups; g++)
    {
      const FastGroup *gr = &fast->group[g];
      size_t need = 0;

      for (p = 0; p < TEXEL_MAX_PLANES; p++)
        if (gr->planes & (1u << p))
          need += 2 * sizeof (int16_t) * (size_t)(gr->span1[p] - gr->span0[p]);
      need += (sizeof (int16_t) + 1) * (TEXEL_MAX_COMPONENTS + 1)
                  * (size_t)gr->width
              + 64;
      if (need > bytes)
        bytes = need;
    }
  fast->scratch_bytes = (bytes + 15) & ~(size_t)15;
  if (plan->bayer.pattern != TEXEL_BAYER_NONE)
    {
      fast->bayer = texel_bayer_fast_new (&plan->bayer);
      if (fast->bayer == NULL)
        {
          texel_convert_fast_free (fast);
          return NULL;
        }
      fast->direct
          = bayer_direct (plan, &fast->group[0]) && fast->n_groups == 1;
      fast->direct_codes = fast->direct && codes_in_place (&fast->group[0]);
      for (g = 0; g < fast->n_groups; g++)
        if (fast->group[g].dev_n > fast->bayer_n)
          fast->bayer_n = fast->group[g].dev_n;
      /* BayerScratch, its developed rows and sums, the development's. */
      fast->bayer_bytes = sizeof (BayerScratch) + 64 * (BAYER_CACHE + 3)
                          + (sizeof (int16_t) * BAYER_CACHE + sizeof (int32_t))
                                * 3 * (size_t)fast->bayer_n
                          + texel_bayer_fast_scratch (fast->bayer_n);
    }
  return fast;
}

/* A tap weight (1 << TAP_BITS is 1) as a 16-bit unsigned fraction of
 * 65536, 1 itself as 65535. */
static inline uint16_t
fraction16 (int16_t w)
{
  return (uint16_t)(w >= (1 << TAP_BITS) ? 65535 : w << (16 - TAP_BITS));
}

/* The high half of an unsigned 16 x 16-bit product (pmulhuw, umull +
 * shift): 16-bit lanes throughout, no widening. */
static inline uint16_t
mulhu (uint16_t v, uint16_t w)
{
  return (uint16_t)(((uint32_t)v * w) >> 16);
}

/* Vertical pass: @dst[x] = sum of the taps' rows at x, VAL_BITS below
 * the code. */
static void
vertical (const TexelImage *in, int p, const FastTaps *v, int j, int x0, int n,
          int16_t *restrict dst)
{
  const int32_t *rows = v->index + (size_t)j * v->n;
  const int16_t *w = v->weight + (size_t)j * v->n;
  const uint8_t *restrict r0
      = in->data[p] + (size_t)rows[0] * in->stride[p] + x0;
  int x, t;

  if (v->n == 1)
    {
      for (x = 0; x < n; x++)
        dst[x] = (int16_t)(r0[x] << VAL_BITS);
      return;
    }
  if (v->n == 2)
    {
      const uint8_t *restrict r1
          = in->data[p] + (size_t)rows[1] * in->stride[p] + x0;
      /* 16-bit lanes: the high halves of the weighted samples. */
      const uint16_t w0 = fraction16 (w[0]), w1 = fraction16 (w[1]);

      for (x = 0; x < n; x++)
        dst[x] = (int16_t)(mulhu ((uint16_t)(r0[x] << VAL_BITS), w0)
                           + mulhu ((uint16_t)(r1[x] << VAL_BITS), w1));
      return;
    }
  {
    int32_t acc[256];
    int x1, len;

    for (x1 = 0; x1 < n; x1 += len)
      {
        len = n - x1 < 256 ? n - x1 : 256;
        for (x = 0; x < len; x++)
          acc[x] = 1 << (TAP_BITS - VAL_BITS - 1);
        for (t = 0; t < v->n; t++)
          {
            const uint8_t *restrict r
                = in->data[p] + (size_t)rows[t] * in->stride[p] + x0 + x1;
            const int16_t wt = w[t];

            for (x = 0; x < len; x++)
              acc[x] += r[x] * wt;
          }
        for (x = 0; x < len; x++)
          dst[x1 + x] = (int16_t)(acc[x] >> (TAP_BITS - VAL_BITS));
      }
  }
}

/* Bayer: mosaic row @y's columns [dev_x0, dev_x0 + dev_n) developed
 * (R, G, B one after the other; R'G'B' * 255, VAL_BITS below the code), from
 * the call's last BAYER_CACHE rows where it is one of them: NV12's chroma rows
 * read the rows its luma rows just developed. */
static const int16_t *
bayer_row (const TexelConvertPlan *plan, const FastGroup *g,
           const TexelImage *in, int y, BayerScratch *bs)
{
  int16_t *out[3];
  int k;

  for (k = 0; k < BAYER_CACHE; k++)
    if (bs->y[k] == y && bs->x0[k] == g->dev_x0 && bs->n[k] == g->dev_n)
      return bs->row[k];
  k = bs->next;
  bs->next = (k + 1) % BAYER_CACHE;
  bs->y[k] = y;
  bs->x0[k] = g->dev_x0;
  bs->n[k] = g->dev_n;
  out[0] = bs->row[k];
  out[1] = out[0] + g->dev_n;
  out[2] = out[1] + g->dev_n;
  texel_bayer_fast_row (plan->fast->bayer, &plan->bayer, in, y, g->dev_x0,
                        g->dev_n, out, bs->rest);
  return bs->row[k];
}

/* Carves @bs's arrays from @mem (fast->bayer_bytes), no row cached. */
static void
bayer_scratch_init (const TexelConvertFast *fast, BayerScratch *bs,
                    uint8_t *mem)
{
  const size_t len = 3 * (size_t)fast->bayer_n;
  int k;

  mem = (uint8_t *)(((uintptr_t)mem + 15) & ~(uintptr_t)15);
  for (k = 0; k < BAYER_CACHE; k++)
    {
      bs->y[k] = -1;
      bs->row[k] = (int16_t *)mem;
      mem = (uint8_t *)(((uintptr_t)(bs->row[k] + len) + 15) & ~(uintptr_t)15);
    }
  bs->next = 0;
  bs->acc = (int32_t *)mem;
  mem = (uint8_t *)(((uintptr_t)(bs->acc + len) + 15) & ~(uintptr_t)15);
  bs->rest = mem;
  texel_bayer_fast_reset (bs->rest);
}

/* Bayer: the vertical pass over developed rows, VAL_BITS below the
 * code. */
static void
bayer_vertical (const TexelConvertPlan *plan, const FastGroup *g,
                const TexelImage *in, int j, int16_t *restrict dst,
                BayerScratch *bs)
{
  const FastTaps *v = &g->v[0];
  const int32_t *rows = v->index + (size_t)j * v->n;
  const int16_t *w = v->weight + (size_t)j * v->n;
  const int len = 3 * g->dev_n;
  int32_t *restrict acc = bs->acc;
  int t, x;

  if (v->n == 1)
    {
      memcpy (dst, bayer_row (plan, g, in, rows[0], bs),
              sizeof (int16_t) * (size_t)len);
      return;
    }
  for (x = 0; x < len; x++)
    acc[x] = 1 << (TAP_BITS - 1);
  for (t = 0; t < v->n; t++)
    {
      const int16_t *restrict dev = bayer_row (plan, g, in, rows[t], bs);
      const int32_t wt = w[t];

      for (x = 0; x < len; x++)
        acc[x] += dev[x] * wt;
    }
  for (x = 0; x < len; x++)
    dst[x] = (int16_t)(acc[x] >> TAP_BITS);
}

static void store (uint8_t *restrict dst, int stride, uint8_t *const slot[4],
                   int n);

/* bayer_direct_row on the integer way: codes from the tables straight
 * into output row @dst, the alpha or padding byte 0xff. -1 (nothing
 * written) on the float way. */
static int
bayer_codes_row (const TexelConvertPlan *plan, const FastGroup *g,
                 const TexelImage *in, int j, uint8_t *dst, BayerScratch *bs)
{
  const TexelFormatDesc *d = &plan->out;
  const int bpp = d->comp[0].pixel_stride, step = g->h[0].step;
  const int j0 = g->h[0].index[0];
  const int a = d->comp[3].plane >= 0 ? d->comp[3].offset : g->pad;
  int offset[4], c;

  if (!plan->fast->direct_codes)
    return -1;
  for (c = 0; c < 3; c++)
    offset[c] = d->comp[c].offset;
  offset[3] = a;
  if (texel_bayer_fast_row_codes (plan->fast->bayer, &plan->bayer, in,
                                  g->v[0].index[j], g->dev_x0, g->dev_n,
                                  dst - (ptrdiff_t)bpp * step * j0,
                                  (ptrdiff_t)bpp * step, offset, bs->rest)
      != 0)
    return -1;
  return 0;
}

/* Bayer to an RGB format filling the frame (fast->direct): the
 * developed values rounded straight to codes, no fixed-point matrix. */
static void
bayer_direct_row (const TexelConvertPlan *plan, const FastGroup *g,
                  const TexelImage *in, TexelImage *out, int j,
                  BayerScratch *bs)
{
  const TexelFormatDesc *d = &plan->out;
  const int bpp = d->comp[0].pixel_stride;
  uint8_t *restrict dst = out->data[0] + (size_t)j * out->stride[0];
  uint8_t *code[4], *slot[4] = { NULL, NULL, NULL, NULL };
  const int16_t *dev;
  int c, i;

  if (bayer_codes_row (plan, g, in, j, dst, bs) == 0)
    return;
  dev = bayer_row (plan, g, in, g->v[0].index[j], bs);

  /* The codes of each component in a row (in bayer_vertical's sums'
   * space), then stored as any other group's. */
  for (c = 0; c < 4; c++)
    code[c] = (uint8_t *)bs->acc + (size_t)c * g->width;
  for (c = 0; c < 3; c++)
    {
      const int16_t *restrict src = dev + g->h[c].index[0];
      const int step = g->h[c].step, half = 1 << (VAL_BITS - 1);
      uint8_t *restrict o = code[c];

      if (step == 1)
        for (i = 0; i < g->width; i++)
          o[i] = (uint8_t)((src[i] + half) >> VAL_BITS);
      else
        for (i = 0; i < g->width; i++)
          o[i] = (uint8_t)((src[step * i] + half) >> VAL_BITS);
      slot[d->comp[c].offset] = o;
    }
  /* Alpha (the mosaic has none: opaque) or the padding byte. */
  if (d->comp[3].plane >= 0 || g->pad >= 0)
    {
      memset (code[3], 0xff, (size_t)g->width);
      slot[d->comp[3].plane >= 0 ? d->comp[3].offset : g->pad] = code[3];
    }
  store (dst, bpp, slot, g->width);
}

/* @n pairs of @src to @n firsts then @n seconds at @dst. */
static void
deinterleave (const int16_t *restrict src, int n, int16_t *restrict dst)
{
  int16_t *restrict second = dst + n;
  int x;

  for (x = 0; x < n; x++)
    {
      dst[x] = src[2 * x];
      second[x] = src[2 * x + 1];
    }
}

/* Two taps per sample, gathered through the table: samples [i0, i1). */
static void
two_taps (const int16_t *restrict src, const FastTaps *h, int i0, int i1,
          int16_t *restrict dst)
{
  const int32_t *restrict idx = h->index;
  const int16_t *restrict w = h->weight;
  int i;

  for (i = i0; i < i1; i++)
    dst[i] = (int16_t)((src[idx[2 * i]] * w[2 * i]
                        + src[idx[2 * i + 1]] * w[2 * i + 1]
                        + (1 << (TAP_BITS - 1)))
                       >> TAP_BITS);
}

/* One phase of a periodic table: @count samples @dstride apart, each
 * reading @sstride further on, same weights. Inlined with constant
 * strides below, so that the compiler vectorises the common ones. */
static inline void
phase (const int16_t *restrict s0, const int16_t *restrict s1, int16_t w0,
       int16_t w1, int sstride, int16_t *restrict dst, int dstride, int count)
{
  int m;

  for (m = 0; m < count; m++)
    dst[(ptrdiff_t)dstride * m]
        = (int16_t)((s0[(ptrdiff_t)sstride * m] * w0
                     + s1[(ptrdiff_t)sstride * m] * w1 + (1 << (TAP_BITS - 1)))
                    >> TAP_BITS);
}

/* Period 2 (2x upsampling, 1.5x down): both phases in one loop, so that
 * the stores are contiguous pairs. Each product floored: at most 2^-6
 * code low, against 2^-8 with the rounded 32-bit sum. */
static inline void
pairs (const int16_t *restrict a0, const int16_t *restrict a1,
       const int16_t *restrict b0, const int16_t *restrict b1, const int16_t *w,
       int sstride, int16_t *restrict dst, int count)
{
  const uint16_t wa0 = fraction16 (w[0]), wa1 = fraction16 (w[1]);
  const uint16_t wb0 = fraction16 (w[2]), wb1 = fraction16 (w[3]);
  int m;

  for (m = 0; m < count; m++)
    {
      ptrdiff_t o = (ptrdiff_t)sstride * m;

      dst[2 * m] = (int16_t)(mulhu ((uint16_t)a0[o], wa0)
                             + mulhu ((uint16_t)a1[o], wa1));
      dst[2 * m + 1] = (int16_t)(mulhu ((uint16_t)b0[o], wb0)
                                 + mulhu ((uint16_t)b1[o], wb1));
    }
}

/* The periodic samples [p0, p1) of a 2-tap table, phase by phase: no
 * table reads in the loops. */
static void
periodic (const int16_t *src, const FastTaps *h, int16_t *dst)
{
  int P = h->period, D = h->pstride, ph;

  if (P == 2 && (D == 1 || D == 2 || D == 3 || D == 6))
    {
      int i = h->p0, count = (h->p1 - h->p0) / 2;
      const int32_t *x = h->index + 2 * i;
      const int16_t *w = h->weight + 2 * i;

      /* Constant strides: the common layouts (planar, NV12 chroma) at 2x
       * up and 1.5x down. */
      if (D == 1)
        pairs (src + x[0], src + x[1], src + x[2], src + x[3], w, 1, dst + i,
               count);
      else if (D == 2)
        pairs (src + x[0], src + x[1], src + x[2], src + x[3], w, 2, dst + i,
               count);
      else if (D == 3)
        pairs (src + x[0], src + x[1], src + x[2], src + x[3], w, 3, dst + i,
               count);
      else
        pairs (src + x[0], src + x[1], src + x[2], src + x[3], w, 6, dst + i,
               count);
      if ((h->p1 - h->p0) & 1)
        two_taps (src, h, h->p1 - 1, h->p1, dst);
      return;
    }

  for (ph = 0; ph < P && h->p0 + ph < h->p1; ph++)
    {
      int i = h->p0 + ph;
      int count = (h->p1 - i + P - 1) / P;
      const int16_t *s0 = src + h->index[2 * i];
      const int16_t *s1 = src + h->index[2 * i + 1];
      int16_t w0 = h->weight[2 * i], w1 = h->weight[2 * i + 1];

      if (P == 1 && D == 1)
        phase (s0, s1, w0, w1, 1, dst + i, 1, count);
      else if (P == 1 && D == 2)
        phase (s0, s1, w0, w1, 2, dst + i, 1, count);
      else if (P == 2 && D == 1)
        phase (s0, s1, w0, w1, 1, dst + i, 2, count);
      else if (P == 2 && D == 2)
        phase (s0, s1, w0, w1, 2, dst + i, 2, count);
      else
        phase (s0, s1, w0, w1, D, dst + i, P, count);
    }
}

/* Horizontal pass of one component: @n columns from the vertical pass's
 * row @src. */
static void
horizontal (const int16_t *restrict src, const FastTaps *h, int n,
            int16_t *restrict dst)
{
  const int32_t *restrict idx = h->index;
  const int16_t *restrict w = h->weight;
  int i, t;

  if (h->step != 0)
    {
      const int16_t *restrict s = src + idx[0];
      int step = h->step;

      if (step == 1)
        {
          memcpy (dst, s, sizeof (int16_t) * (size_t)n);
        }
      else
        {
          for (i = 0; i < n; i++)
            dst[i] = s[(ptrdiff_t)step * i];
        }
      return;
    }
  if (h->n == 1)
    {
      for (i = 0; i < n; i++)
        dst[i] = src[idx[i]];
      return;
    }
  if (h->n == 2 && h->period > 0)
    {
      two_taps (src, h, 0, h->p0, dst);
      periodic (src, h, dst);
      two_taps (src, h, h->p1, n, dst);
      return;
    }
  if (h->n == 2)
    {
      two_taps (src, h, 0, n, dst);
      return;
    }
  for (i = 0; i < n; i++)
    {
      int32_t acc = 1 << (TAP_BITS - 1);

      for (t = 0; t < h->n; t++)
        acc += src[idx[h->n * i + t]] * w[h->n * i + t];
      dst[i] = (int16_t)(acc >> TAP_BITS);
    }
}

/* The high half of a 16 x 16-bit product (pmulhw, vqdmulh-like). */
static inline int16_t
mulhi (int16_t v, int16_t m)
{
  return (int16_t)((v * m) >> 16);
}

static inline uint8_t
clamp_code (int16_t sum)
{
  int16_t s = (int16_t)(sum >> SUM_BITS);

  return (uint8_t)(s < 0 ? 0 : (s > 255 ? 255 : s));
}

/* Colour matrix row @k over @n values into 8-bit codes: one loop of
 * 16-bit lanes per row. */
static void
matrix_row (const FastGroup *g, int k, int16_t *const value[], int n,
            uint8_t *restrict code)
{
  const int *c = g->term[k];
  const int16_t off = g->offset[k];
  int i;

  if (g->n_terms[k] == 3)
    {
      const int16_t *restrict v0 = value[c[0]], *restrict v1 = value[c[1]],
                              *restrict v2 = value[c[2]];
      const int16_t m0 = (int16_t)g->coef[k][c[0]],
                    m1 = (int16_t)g->coef[k][c[1]],
                    m2 = (int16_t)g->coef[k][c[2]];

      for (i = 0; i < n; i++)
        code[i]
            = clamp_code ((int16_t)(off + mulhi (v0[i], m0) + mulhi (v1[i], m1)
                                    + mulhi (v2[i], m2)));
    }
  else if (g->n_terms[k] == 2)
    {
      const int16_t *restrict v0 = value[c[0]], *restrict v1 = value[c[1]];
      const int16_t m0 = (int16_t)g->coef[k][c[0]],
                    m1 = (int16_t)g->coef[k][c[1]];

      for (i = 0; i < n; i++)
        code[i] = clamp_code (
            (int16_t)(off + mulhi (v0[i], m0) + mulhi (v1[i], m1)));
    }
  else if (g->n_terms[k] == 1)
    {
      const int16_t *restrict v0 = value[c[0]];
      const int16_t m0 = (int16_t)g->coef[k][c[0]];

      for (i = 0; i < n; i++)
        code[i] = clamp_code ((int16_t)(off + mulhi (v0[i], m0)));
    }
  else
    {
      memset (code, clamp_code (off), (size_t)n);
    }
}

/* Stores the codes of one output plane's row: each written byte offset
 * of a pixel from its code row. Specialised for the layouts that fill
 * every byte of a pixel (planar, NV12's UV, RGB, RGBA-like); four bytes
 * are composed as one little- or big-endian word, which vectorises. */
static void
store (uint8_t *restrict dst, int stride, uint8_t *const slot[4], int n)
{
  int i;

  if (stride == 1 && slot[0] != NULL)
    {
      memcpy (dst, slot[0], (size_t)n);
    }
  else if (stride == 2 && slot[0] && slot[1])
    {
      const uint8_t *restrict a = slot[0], *restrict b = slot[1];

      for (i = 0; i < n; i++)
        {
          dst[2 * i] = a[i];
          dst[2 * i + 1] = b[i];
        }
    }
  else if (stride == 3 && slot[0] && slot[1] && slot[2])
    {
      const uint8_t *restrict a = slot[0], *restrict b = slot[1],
                              *restrict c = slot[2];

      for (i = 0; i < n; i++)
        {
          dst[3 * i] = a[i];
          dst[3 * i + 1] = b[i];
          dst[3 * i + 2] = c[i];
        }
    }
  else if (stride == 4 && slot[0] && slot[1] && slot[2] && slot[3])
    {
      const uint8_t *restrict a = slot[0], *restrict b = slot[1],
                              *restrict c = slot[2], *restrict d = slot[3];

      for (i = 0; i < n; i++)
        {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
          uint32_t word = (uint32_t)a[i] << 24 | (uint32_t)b[i] << 16
                          | (uint32_t)c[i] << 8 | d[i];
#else
          uint32_t word = a[i] | (uint32_t)b[i] << 8 | (uint32_t)c[i] << 16
                          | (uint32_t)d[i] << 24;
#endif
          memcpy (dst + 4 * (size_t)i, &word, 4);
        }
    }
  else
    {
      int o;

      for (o = 0; o < stride && o < 4; o++)
        if (slot[o] != NULL)
          for (i = 0; i < n; i++)
            dst[stride * i + o] = slot[o][i];
    }
}

/* Output row @j of group @g: codes for every sample (border outside the
 * destination rectangle), then stored plane by plane. */
static void
group_row (const TexelConvertPlan *plan, const FastGroup *g,
           const TexelImage *in, TexelImage *out, int j, uint8_t *scratch,
           BayerScratch *bayer_scratch)
{
  const TexelFormatDesc *desc = &plan->out;
  int16_t *vrow[TEXEL_MAX_PLANES] = { NULL };
  int16_t *value[TEXEL_MAX_COMPONENTS] = { NULL };
  uint8_t *code[TEXEL_MAX_COMPONENTS + 1];
  int inside = j >= g->j0 && j < g->j1;
  int n = g->i1 - g->i0;
  int k, c, p;

  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    {
      if (g->planes & (1u << p))
        {
          vrow[p] = (int16_t *)scratch;
          scratch += 2 * sizeof (int16_t) * (size_t)(g->span1[p] - g->span0[p]);
        }
    }
  scratch = (uint8_t *)(((uintptr_t)scratch + 15) & ~(uintptr_t)15);
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      value[c] = (int16_t *)scratch;
      scratch += sizeof (int16_t) * (size_t)g->width;
    }
  for (k = 0; k <= TEXEL_MAX_COMPONENTS; k++)
    {
      code[k] = scratch;
      scratch += g->width;
    }

  if (inside && n > 0)
    {
      for (p = 0; p < TEXEL_MAX_PLANES; p++)
        {
          int len = g->span1[p] - g->span0[p];

          if (!(g->planes & (1u << p)))
            continue;
          if (bayer_scratch != NULL)
            bayer_vertical (plan, g, in, j, vrow[p], bayer_scratch);
          else if (g->split[p])
            {
              /* Filtered interleaved into the second half, then split. */
              vertical (in, p, &g->v[p], j, 0, len, vrow[p] + len);
              deinterleave (vrow[p] + len, g->split[p], vrow[p]);
            }
          else
            {
              vertical (in, p, &g->v[p], j, g->span0[p], len, vrow[p]);
            }
        }
      for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
        {
          const int16_t *src;

          /* Components the input lacks have no plane (-1). */
          if (!(g->comps & (1u << c)))
            continue;
          src = vrow[plan->in.comp[c].plane];
          /* A contiguous 1:1 copy (planar luma at 1:1) is read in place. */
          if (g->h[c].step == 1)
            value[c] = (int16_t *)src + g->h[c].index[0];
          else
            horizontal (src, &g->h[c], n, value[c]);
        }
    }
  for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
    {
      if (!(g->out_comps & (1u << k)))
        continue;
      if (inside)
        {
          memset (code[k], g->border[k], (size_t)g->i0);
          matrix_row (g, k, value, n, code[k] + g->i0);
          memset (code[k] + g->i1, g->border[k], (size_t)(g->width - g->i1));
        }
      else
        {
          memset (code[k], g->border[k], (size_t)g->width);
        }
    }
  memset (code[TEXEL_MAX_COMPONENTS], 0xff, (size_t)g->width);

  for (p = 0; p < desc->n_planes; p++)
    {
      uint8_t *slot[4] = { NULL, NULL, NULL, NULL };
      int stride = 0, first = 1 << 30;

      for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
        {
          const TexelComponent *comp = &desc->comp[k];

          if (!(g->out_comps & (1u << k)) || comp->plane != p)
            continue;
          stride = comp->pixel_stride;
          if (comp->offset < first)
            first = comp->offset;
        }
      if (stride == 0)
        continue;
      /* xRGB's padding byte comes before its components. */
      if (g->pad >= 0 && g->pad < first)
        first = g->pad;
      /* Offsets relative to the first written byte: YUY2's chroma group
       * writes bytes 1 and 3 of each 4-byte pair of pixels. */
      for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
        {
          const TexelComponent *comp = &desc->comp[k];

          if ((g->out_comps & (1u << k)) && comp->plane == p
              && comp->offset - first < 4)
            slot[comp->offset - first] = code[k];
        }
      if (g->pad >= 0 && g->pad - first >= 0 && g->pad - first < 4)
        slot[g->pad - first] = code[TEXEL_MAX_COMPONENTS];
      store (out->data[p] + (size_t)j * out->stride[p] + first, stride, slot,
             g->width);
    }
}

/* Rows [@j0, @j1) of group @g for output rows [@row0, @row1). */
static void
group_rows (const FastGroup *g, int row0, int row1, int *j0, int *j1)
{
  *j0 = row0 >> g->y_shift;
  *j1 = (row1 + (1 << g->y_shift) - 1) >> g->y_shift;
  if (*j1 > g->height)
    *j1 = g->height;
}

/* Bayer: output rows [@row0, @row1). With a subsampled group (NV12,
 * I420) its rows follow the full-resolution rows they lie on, so that
 * they find those rows' development in @bs. */
static void
bayer_rows (const TexelConvertPlan *plan, const TexelImage *in, TexelImage *out,
            int row0, int row1, uint8_t *scratch, BayerScratch *bs)
{
  const TexelConvertFast *fast = plan->fast;
  const FastGroup *g0 = &fast->group[0];
  const FastGroup *g1 = fast->n_groups > 1 ? &fast->group[1] : NULL;
  int j, j0, j1, c = 0, c1 = 0;

  group_rows (g0, row0, row1, &j0, &j1);
  if (g1 != NULL)
    group_rows (g1, row0, row1, &c, &c1);
  for (j = j0; j < j1; j++)
    {
      if (fast->direct)
        bayer_direct_row (plan, g0, in, out, j, bs);
      else
        group_row (plan, g0, in, out, j, scratch, bs);
      for (; c < c1 && ((c + 1) << g1->y_shift) - 1 <= j; c++)
        group_row (plan, g1, in, out, c, scratch, bs);
    }
  for (; c < c1; c++)
    group_row (plan, g1, in, out, c, scratch, bs);
}

/* A raw Bayer input's grey-world statistics (plan->bayer.awb_cpu_sums):
 * the share of the statistics rectangle's rows that output rows [@row0,
 * @row1) stand for in proportion, so that the bands of one frame, which
 * split its output rows, split those rows too whatever the map (flips,
 * rotations); added atomically, bands running on several threads. */
static void
texel_convert_fast_awb (const TexelConvertPlan *plan, const TexelImage *in,
                        int row0, int row1)
{
  const TexelBayerPlan *bp = &plan->bayer;
  TexelBayerStats stats;
  int64_t rows = bp->awb_y1 - bp->awb_y0;
  int y0, y1, c;

  if (bp->awb_cpu_sums == NULL || bp->pattern == TEXEL_BAYER_NONE
      || !texel_clip_rows (&row0, &row1, plan->out_height))
    return;
  y0 = bp->awb_y0 + (int)(rows * row0 / plan->out_height);
  y1 = bp->awb_y0 + (int)(rows * row1 / plan->out_height);
  if (y1 <= y0)
    return;
  memset (&stats, 0, sizeof (stats));
  texel_bayer_fast_stats (bp, in, bp->awb_x0, y0, bp->awb_x1, y1, &stats);
  for (c = 0; c < 3; c++)
    {
      __atomic_fetch_add (&bp->awb_cpu_sums[c], stats.sum[c], __ATOMIC_RELAXED);
      __atomic_fetch_add (&bp->awb_cpu_sums[3 + c], stats.count[c],
                          __ATOMIC_RELAXED);
    }
}

void
texel_convert_fast (const TexelConvertPlan *plan, const TexelImage *in,
                    TexelImage *out, int row0, int row1)
{
  const TexelConvertFast *fast = plan->fast;
  uint8_t *scratch;
  int g, j;

  texel_convert_fast_awb (plan, in, row0, row1);
  if (fast == NULL)
    {
      texel_convert_cpu (plan, in, out, row0, row1);
      return;
    }
  if (!texel_clip_rows (&row0, &row1, plan->out_height))
    return;
  scratch = malloc (fast->scratch_bytes + fast->bayer_bytes);
  if (scratch == NULL)
    {
      texel_convert_cpu (plan, in, out, row0, row1);
      return;
    }
  if (fast->bayer != NULL)
    {
      BayerScratch bs;

      /* The integer tables follow the gains (automatic white balance). */
      texel_bayer_fast_sync (fast->bayer, &plan->bayer, !fast->direct_codes);
      bayer_scratch_init (fast, &bs, scratch + fast->scratch_bytes);
      bayer_rows (plan, in, out, row0, row1, scratch, &bs);
      free (scratch);
      return;
    }
  for (g = 0; g < fast->n_groups; g++)
    {
      const FastGroup *gr = &fast->group[g];
      int j0, j1;

      group_rows (gr, row0, row1, &j0, &j1);
      for (j = j0; j < j1; j++)
        group_row (plan, gr, in, out, j, scratch, NULL);
    }
  free (scratch);
}
