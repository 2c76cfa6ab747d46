/* gst-texel: texelwarp's fast CPU path (texel-warp-fast.h).
 *
 * Per group of output components sharing a sample grid: a map row is
 * filled from the reference's positions the first time a band needs it,
 * then each run of adjacent bytes of a pixel (RGBA's 4, NV12 chroma's 2,
 * a plane's 1) is gathered along the row: nearest copies the sample,
 * bilinear blends 4 in integers. The run's size and pixel stride are
 * constants in the loops of the common layouts (chosen once per row).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-warp-fast.h"
#include "texel-sample-map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fraction bits of the bilinear positions (texel-warp-fast.h: the
 * bound). */
#define FRAC_BITS 12
#define ONE (1 << FRAC_BITS)
/* The horizontal blends keep 8 fraction bits of a code (16-bit lanes),
 * the vertical one rounds them and the fractions' bits away. */
#define H_SHIFT (FRAC_BITS - 8)
#define V_SHIFT (FRAC_BITS + 8)
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
   * does) after the blend. */
  for (r = 0; r < g->n_runs && pad >= 0; r++)
    if (g->run[r].plane == 0 && g->run[r].offset + g->run[r].n == pad)
      {
        g->run[r].pad = g->run[r].n;
        g->run[r].border[g->run[r].n++] = 0xff;
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
 * the first tap's index, clamped as the reference clamps both taps (a
 * position before the first centre reads sample 0 alone: fraction 0; one
 * past the last centre reads the last alone: the gather's second tap is
 * the first there), and the fraction in 1/ONE, rounded. */
static int16_t
bilinear_tap (double p, int size, uint16_t *frac)
{
  double q = floor ((p - 0.5) * ONE + 0.5);
  double i = floor (q / ONE);

  *frac = (uint16_t)(q - i * ONE);
  if (i < 0.0)
    {
      *frac = 0;
      return 0;
    }
  return (int16_t)(i > size - 1 ? size - 1 : i);
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

/* @count bytes blended from @s into @out: horizontally in 16-bit lanes
 * (codes times 12-bit weights, at most 255 x 2^12, rounded to 1/256 of
 * a code: at most 65280), then vertically (below 2^28) and rounded to a
 * code. */
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
      uint16_t top = (uint16_t)(((uint32_t)t0[j] * x0 + (uint32_t)t1[j] * x1
                                 + (1u << (H_SHIFT - 1)))
                                >> H_SHIFT);
      uint16_t bottom = (uint16_t)(((uint32_t)t2[j] * x0 + (uint32_t)t3[j] * x1
                                    + (1u << (H_SHIFT - 1)))
                                   >> H_SHIFT);

      out[j] = (uint8_t)(((uint32_t)top * y0 + (uint32_t)bottom * y1
                          + (1u << (V_SHIFT - 1)))
                         >> V_SHIFT);
    }
}

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

/* Bilinear, in two passes over the row: the 4 samples around each
 * position (a load and a store of n bytes each) and the map's fractions
 * (per byte) gathered into the scratch: the loads the compiler cannot
 * vectorise, then blended there
 * (a loop over bytes it vectorises in 16-bit lanes). Border samples
 * gather the border colour 4 times with fractions 0. */
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

/* The gather for the run's layout, with the common ones' sizes constant
 * (one switch per row). */
static void
gather (const Row *r, int bilinear, int n, int ps)
{
#define GATHER(N, PS)                                                          \
  (bilinear ? gather_bilinear (r, N, PS) : gather_nearest (r, N, PS))
  switch (n * 8 + ps)
    {
      case 1 * 8 + 1: /* planar: GRAY8, luma, I420's chroma */
        GATHER (1, 1);
        break;
      case 2 * 8 + 2: /* NV12's chroma */
        GATHER (2, 2);
        break;
      case 3 * 8 + 3: /* RGB */
        GATHER (3, 3);
        break;
      case 4 * 8 + 4: /* RGBA, RGBx */
        GATHER (4, 4);
        break;
      default: /* YUY2, UYVY */
        GATHER (n, ps);
        break;
    }
#undef GATHER
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
      gather (&row, f->bilinear, run->n, run->pixel_stride);
      if (run->pad >= 0)
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
