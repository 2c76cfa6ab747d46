/* gst-texel: texelfilter's fast CPU path (texel-filter-fast.h).
 *
 * Per component and band: each window row is gathered once into a
 * contiguous, border-extended line, filtered horizontally into a ring of
 * 2 R + 1 rows (the window's rows, by position), and each output row is
 * the vertical weighted sum of the ring: loops over a row of integers
 * (unsharp: floats) that the compiler vectorises. The bilateral and Sobel
 * keep the gathered lines themselves in the ring; the bilateral sums, per
 * window offset, over the row: the range factors' look-ups in one loop
 * (scalar loads), the weighted sums in another (vectorised). The border's
 * column map is built per call (O(width), against O(width * taps) of
 * work).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-filter-fast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Gaussian: weights in Q15 (uint16: 16 x 16 -> 32-bit multiplies, which
 * SSE2 and NEON vectorise; 32 x 32 ones SSE2 lacks); the horizontal pass
 * keeps FRAC fraction bits of a code. */
#define Q_BITS 15
#define FRAC 8
#define H_SHIFT (Q_BITS - FRAC)
#define MAGIC_SHIFT 40

void
texel_filter_fast_init (TexelFilterFast *f, const TexelFilterPlan *plan)
{
  int taps = 2 * plan->radius + 1, k;
  int64_t sum = 0;

  memset (f, 0, sizeof (*f));
  if (plan->fmt.bytes_per_sample != 1 || plan->width <= 0)
    return;
  if (plan->filter == TEXEL_FILTER_UNSHARP
      || plan->filter == TEXEL_FILTER_SOBEL)
    ; /* unsharp: the plan's float weights; Sobel: none */
  else if (plan->filter == TEXEL_FILTER_BILATERAL)
    {
      /* The reference's exp () values, rounded to float once. */
      for (k = 1 - TEXEL_FILTER_RANGE_CODES; k < TEXEL_FILTER_RANGE_CODES; k++)
        f->range[k + TEXEL_FILTER_RANGE_CODES - 1]
            = (float)exp (-plan->range_coef_d * k * k);
    }
  else if (plan->filter == TEXEL_FILTER_BOX)
    {
      for (k = 0; k < taps; k++)
        f->weight[k] = 1;
      /* ceil (2^40 / (2 n)): exact for every 2 s + n below 2^22 (the error
       * x e / 2^40 stays below 1 / (2 n) while x e < 2^40, e < 2 n). */
      f->box_magic = (((uint64_t)1 << MAGIC_SHIFT) + 2 * plan->box_count - 1)
                     / (2 * (uint64_t)plan->box_count);
    }
  else
    {
      for (k = 0; k < taps; k++)
        {
          f->weight[k] = (uint16_t)lround (plan->weight_d[k] * (1 << Q_BITS));
          sum += f->weight[k];
        }
      /* The centre takes the remainder: the weights sum to exactly 1. */
      f->weight[plan->radius] += (uint16_t)((1 << Q_BITS) - sum);
    }
  f->covered = 1;
}

int
texel_filter_fast_covers (const TexelFilterFast *f)
{
  return f != NULL && f->covered;
}

/* One band of one filtered component: scratch rows and the column map. */
typedef struct
{
  const TexelFilterPlan *plan;
  const TexelFilterComp *k;
  int r, taps, w, mirror;
  int *xmap;      /* w + 2 r source columns */
  uint16_t *line; /* w + 2 r codes; bilateral: taps such lines, the ring */
  uint16_t *ring; /* gaussian, box: taps rows of w horizontal sums */
  uint32_t *acc;  /* w: gaussian, box the vertical sums; else the codes */
  float *fring;   /* unsharp: taps rows of w horizontal sums */
  float *fa, *fb; /* w sums: unsharp the blur; bilateral num and den */
  float *fc;      /* unsharp: line as floats; bilateral: w range factors */
} Band;

/* Grid row @y (border-mapped), border-extended by the radius, into
 * @line. */
static void
gather (const Band *b, int y, uint16_t *restrict line)
{
  const TexelFilterComp *k = b->k;
  const uint8_t *src
      = k->src
        + (size_t)texel_filter_border_index (y, k->height, b->mirror)
              * k->src_pitch;
  int n = b->w + 2 * b->r, x;

  for (x = 0; x < n; x++)
    line[x] = src[(size_t)b->xmap[x] * k->src_stride];
}

/* Grid row @y (border-mapped) through the horizontal pass into ring slot
 * @slot. */
static void
across (const Band *b, int y, int slot)
{
  const uint16_t *wt = b->plan->fast->weight;
  uint16_t *restrict line = b->line;
  uint16_t *restrict h = b->ring + (size_t)slot * b->w;
  uint32_t *restrict acc = b->acc;
  /* Locals: acc's stores may alias the Band's ints (signed and unsigned
   * variants), which would stop the loops vectorising. */
  const int w = b->w, taps = b->taps;
  int x, i;

  gather (b, y, line);
  if (b->plan->filter == TEXEL_FILTER_BOX)
    {
      /* At most 65 codes: below 2^16. */
      for (x = 0; x < w; x++)
        h[x] = line[x];
      for (i = 1; i < taps; i++)
        for (x = 0; x < w; x++)
          h[x] = (uint16_t)(h[x] + line[x + i]);
      return;
    }
  for (x = 0; x < w; x++)
    acc[x] = (uint32_t)wt[0] * line[x];
  for (i = 1; i < taps; i++)
    {
      uint16_t wi = wt[i];

      for (x = 0; x < w; x++)
        acc[x] += (uint32_t)wi * line[x + i];
    }
  /* Below 255 * 2^15: 8 fraction bits fit 16 bits. */
  for (x = 0; x < w; x++)
    h[x] = (uint16_t)((acc[x] + (1u << (H_SHIFT - 1))) >> H_SHIFT);
}

/* Output grid row @y from the ring (slot of window row j: (y + j) mod
 * taps). */
static void
down (const Band *b, int y)
{
  const TexelFilterComp *k = b->k;
  const uint16_t *wt = b->plan->fast->weight;
  uint32_t *restrict acc = b->acc;
  uint8_t *dst = k->dst + (size_t)y * k->dst_pitch;
  const int w = b->w, taps = b->taps;
  int ds = k->dst_stride, x, j;
  int shift = Q_BITS + FRAC;

  for (x = 0; x < w; x++)
    acc[x] = 0;
  for (j = 0; j < taps; j++)
    {
      const uint16_t *restrict h = b->ring + (size_t)((y + j) % taps) * w;
      uint16_t wj = wt[j];

      /* Gaussian: below 65280 * 2^15 + 2^22 < 2^31; box: below 2^21. */
      for (x = 0; x < w; x++)
        acc[x] += (uint32_t)wj * h[x];
    }
  if (b->plan->filter == TEXEL_FILTER_BOX)
    {
      uint64_t m = b->plan->fast->box_magic, n = (uint64_t)b->plan->box_count;

      for (x = 0; x < w; x++)
        dst[(size_t)x * ds]
            = (uint8_t)(((2 * (uint64_t)acc[x] + n) * m) >> MAGIC_SHIFT);
    }
  else
    {
      for (x = 0; x < w; x++)
        dst[(size_t)x * ds]
            = (uint8_t)((acc[x] + (1u << (shift - 1))) >> shift);
    }
}

/* A value in codes rounded to the nearest code, halves up, and clamped
 * to [0, 255], without a branch: v + 0.5 truncates to its floor where it
 * is positive (a conversion SSE2 and NEON vectorise, where floorf needs
 * SSE4.1), and where it is not to a code <= 0 that the clamp makes 0, as
 * it should. The sum is exact for v in [0.5, 255.5); elsewhere its float
 * rounding can cross an integer only from within an ulp of a half (Sobel's
 * values never are: texel-filter-fast.h). */
static inline uint32_t
quantize (float v)
{
  int q = (int)(v + 0.5f);

  q = q < 0 ? 0 : q;
  return (uint32_t)(q > 255 ? 255 : q);
}

/* Codes @q (w) into output grid row @y of @k. */
static void
store_row (const TexelFilterComp *k, int y, const uint32_t *restrict q, int w)
{
  uint8_t *dst = k->dst + (size_t)y * k->dst_pitch;
  int ds = k->dst_stride, x;

  for (x = 0; x < w; x++)
    dst[(size_t)x * ds] = (uint8_t)q[x];
}

/* Unsharp, horizontal pass of grid row @y into float ring slot @slot. */
static void
across_unsharp (const Band *b, int y, int slot)
{
  const float *wt = b->plan->weight;
  const uint16_t *restrict codes = b->line;
  float *restrict line = b->fc;
  float *restrict h = b->fring + (size_t)slot * b->w;
  const int w = b->w, taps = b->taps;
  int x, i;

  /* Converted once, not once per tap. */
  gather (b, y, b->line);
  for (x = 0; x < w + 2 * b->r; x++)
    line[x] = codes[x];
  for (x = 0; x < w; x++)
    h[x] = wt[0] * line[x];
  for (i = 1; i < taps; i++)
    {
      float wi = wt[i];

      for (x = 0; x < w; x++)
        h[x] += wi * line[x + i];
    }
}

/* Unsharp, output grid row @y: the vertical pass, then v + amount * (v -
 * blur). */
static void
down_unsharp (const Band *b, int y)
{
  const TexelFilterComp *k = b->k;
  const float *wt = b->plan->weight;
  const uint8_t *src = k->src + (size_t)y * k->src_pitch;
  float *restrict s = b->fa, *restrict c = b->fc;
  uint32_t *restrict q = b->acc;
  const float amount = b->plan->amount;
  const int w = b->w, taps = b->taps, ss = k->src_stride;
  int x, j;

  for (x = 0; x < w; x++)
    s[x] = 0.0f;
  for (j = 0; j < taps; j++)
    {
      const float *restrict h = b->fring + (size_t)((y + j) % taps) * w;
      float wj = wt[j];

      for (x = 0; x < w; x++)
        s[x] += wj * h[x];
    }
  /* The centre row, contiguous (fc's line is spent), so that the
   * combine vectorises. */
  for (x = 0; x < w; x++)
    c[x] = src[(size_t)x * ss];
  for (x = 0; x < w; x++)
    q[x] = quantize (c[x] + amount * (c[x] - s[x]));
  store_row (k, y, q, w);
}

/* Bilateral, output grid row @y from the ring of border-extended rows
 * (slot of window row j: (y + j) mod taps): the weighted mean of the
 * differences from the centre, added to it, as the kernel computes it
 * (the centre's weight is 1: den >= 1). Window offset by window offset,
 * two loops over the row: the range factors looked up (scalar loads; the
 * table is indexed by d + 255, so no abs), then the sums (vectorised). */
static void
bilateral_row (const Band *b, int y)
{
  const TexelFilterComp *k = b->k;
  const float *ws = b->plan->weight;
  const float *range = b->plan->fast->range + TEXEL_FILTER_RANGE_CODES - 1;
  const int w = b->w, taps = b->taps, r = b->r, lw = w + 2 * r;
  const uint16_t *restrict c = b->line + (size_t)((y + r) % taps) * lw + r;
  float *restrict num = b->fa, *restrict den = b->fb, *restrict rw = b->fc;
  uint32_t *restrict out = b->acc;
  int x, i, j;

  for (x = 0; x < w; x++)
    num[x] = den[x] = 0.0f;
  for (j = 0; j < taps; j++)
    {
      const uint16_t *row = b->line + (size_t)((y + j) % taps) * lw;

      for (i = 0; i < taps; i++)
        {
          const uint16_t *restrict q = row + i;
          float wij = ws[j] * ws[i];

          for (x = 0; x < w; x++)
            rw[x] = range[(int)q[x] - (int)c[x]];
          for (x = 0; x < w; x++)
            {
              float wt = wij * rw[x];

              num[x] += wt * (float)((int)q[x] - (int)c[x]);
              den[x] += wt;
            }
        }
    }
  for (x = 0; x < w; x++)
    out[x] = quantize ((float)c[x] + num[x] / den[x]);
  store_row (k, y, out, w);
}

/* Sobel, output grid row @y from the ring of the 3 border-extended rows
 * (as the bilateral's): gx and gy in integers (exact), the magnitude
 * squared below 2^22, exact in float, and sqrtf correctly rounded: the
 * reference's codes, byte for byte (texel-filter-fast.h). */
static void
sobel_row (const Band *b, int y)
{
  const int w = b->w, lw = w + 2;
  const uint16_t *restrict t = b->line + (size_t)(y % 3) * lw;
  const uint16_t *restrict m = b->line + (size_t)((y + 1) % 3) * lw;
  const uint16_t *restrict u = b->line + (size_t)((y + 2) % 3) * lw;
  uint32_t *restrict out = b->acc;
  int x;

  for (x = 0; x < w; x++)
    {
      int gx = (t[x + 2] + 2 * m[x + 2] + u[x + 2]) - (t[x] + 2 * m[x] + u[x]);
      int gy
          = (u[x] + 2 * u[x + 1] + u[x + 2]) - (t[x] + 2 * t[x + 1] + t[x + 2]);

      out[x] = quantize (sqrtf ((float)(gx * gx + gy * gy)) * 0.25f);
    }
  store_row (b->k, y, out, w);
}

/* Window row @y (grid row, border-mapped later) of output rows to come
 * into ring slot @slot, by the filter's first pass. */
static void
row_in (const Band *b, int y, int slot)
{
  switch (b->plan->filter)
    {
      case TEXEL_FILTER_UNSHARP:
        across_unsharp (b, y, slot);
        break;
      case TEXEL_FILTER_BILATERAL:
      case TEXEL_FILTER_SOBEL:
        /* The lines themselves, read by window offset. */
        gather (b, y, b->line + (size_t)slot * (b->w + 2 * b->r));
        break;
      default:
        across (b, y, slot);
        break;
    }
}

/* Output grid row @y from the ring, and RGBx's padding byte. */
static void
row_out (const Band *b, int y)
{
  const TexelFilterComp *k = b->k;
  int x;

  switch (b->plan->filter)
    {
      case TEXEL_FILTER_UNSHARP:
        down_unsharp (b, y);
        break;
      case TEXEL_FILTER_BILATERAL:
        bilateral_row (b, y);
        break;
      case TEXEL_FILTER_SOBEL:
        sobel_row (b, y);
        break;
      default:
        down (b, y);
        break;
    }
  if (k->pad != NULL)
    for (x = 0; x < b->w; x++)
      k->pad[(size_t)y * k->dst_pitch + (size_t)x * k->dst_stride] = 0xff;
}

/* The scratch rows @b's filter needs (the others NULL); 0 when out of
 * memory. */
static int
band_alloc (Band *b)
{
  size_t w = (size_t)b->w, lw = w + 2 * (size_t)b->r, taps = (size_t)b->taps;
  int ok;

  b->xmap = malloc (sizeof (int) * lw);
  b->line = b->ring = NULL;
  b->acc = NULL;
  b->fring = b->fa = b->fb = b->fc = NULL;
  switch (b->plan->filter)
    {
      case TEXEL_FILTER_UNSHARP:
        b->line = malloc (sizeof (uint16_t) * lw);
        b->fring = malloc (sizeof (float) * w * taps);
        b->fa = malloc (sizeof (float) * w);
        b->fc = malloc (sizeof (float) * lw);
        b->acc = malloc (sizeof (uint32_t) * w);
        ok = b->line && b->fring && b->fa && b->fc && b->acc;
        break;
      case TEXEL_FILTER_BILATERAL:
      case TEXEL_FILTER_SOBEL: /* the same, its float rows unused */
        b->line = malloc (sizeof (uint16_t) * lw * taps);
        b->fa = malloc (sizeof (float) * w);
        b->fb = malloc (sizeof (float) * w);
        b->fc = malloc (sizeof (float) * w);
        b->acc = malloc (sizeof (uint32_t) * w);
        ok = b->line && b->fa && b->fb && b->fc && b->acc;
        break;
      default:
        b->line = malloc (sizeof (uint16_t) * lw);
        b->ring = malloc (sizeof (uint16_t) * w * taps);
        b->acc = malloc (sizeof (uint32_t) * w);
        ok = b->line && b->ring && b->acc;
        break;
    }
  return ok && b->xmap != NULL;
}

static void
band_free (Band *b)
{
  free (b->xmap);
  free (b->line);
  free (b->ring);
  free (b->acc);
  free (b->fring);
  free (b->fa);
  free (b->fb);
  free (b->fc);
}

/* Grid rows [k->row0, k->row1) of filtered component @k. Returns -1 when
 * out of memory (nothing written). */
static int
filter_comp (const TexelFilterPlan *plan, const TexelFilterComp *k)
{
  Band b;
  int x, y, j, ok;

  b.plan = plan;
  b.k = k;
  b.r = plan->radius;
  b.taps = 2 * b.r + 1;
  b.w = k->width;
  b.mirror = plan->border == TEXEL_FILTER_BORDER_MIRROR;
  ok = band_alloc (&b);
  if (ok)
    {
      for (x = 0; x < b.w + 2 * b.r; x++)
        b.xmap[x] = texel_filter_border_index (x - b.r, b.w, b.mirror);
      /* The window of the first row, then one new row per output row. */
      for (j = 0; j < b.taps - 1; j++)
        row_in (&b, k->row0 + j - b.r, (k->row0 + j) % b.taps);
      for (y = k->row0; y < k->row1; y++)
        {
          row_in (&b, y + b.r, (y + b.taps - 1) % b.taps);
          row_out (&b, y);
        }
    }
  band_free (&b);
  return ok ? 0 : -1;
}

/* Grid rows of component @k copied (alpha, chroma with planes = luma). */
static void
copy_comp (const TexelFilterComp *k)
{
  int x, y;

  for (y = k->row0; y < k->row1; y++)
    {
      const uint8_t *s = k->src + (size_t)y * k->src_pitch;
      uint8_t *d = k->dst + (size_t)y * k->dst_pitch;

      for (x = 0; x < k->width; x++)
        d[(size_t)x * k->dst_stride] = s[(size_t)x * k->src_stride];
      if (k->pad != NULL)
        for (x = 0; x < k->width; x++)
          k->pad[(size_t)y * k->dst_pitch + (size_t)x * k->dst_stride] = 0xff;
    }
}

void
texel_filter_fast (const TexelFilterPlan *plan, const TexelImage *in,
                   TexelImage *out, int row0, int row1)
{
  int c;

  if (!texel_filter_fast_covers (plan->fast))
    {
      texel_filter_cpu (plan, in, out, row0, row1);
      return;
    }
  if (!texel_clip_rows (&row0, &row1, plan->height))
    return;
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      TexelFilterComp k;

      if (plan->fmt.comp[c].plane < 0)
        continue;
      texel_filter_comp_init (plan, in, out, c, row0, row1, &k);
      if (k.row0 >= k.row1)
        continue;
      if (!plan->filtered[c])
        copy_comp (&k);
      else if (filter_comp (plan, &k) != 0)
        /* Out of memory for the scratch rows: the reference needs none. */
        texel_filter_cpu (plan, in, out, row0, row1);
    }
}
