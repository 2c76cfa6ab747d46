/* gst-texel: the CPU reference of texelfilter.
 *
 * Written for clarity, in double precision, straight from the definitions
 * of texel-filter.h (on codes, which they allow): it defines what the CUDA
 * kernels should compute, and is the fallback where no GPU is available.
 * It uses none of the plan's float members.
 *
 * The gaussian, unsharp and box windows are separable and evaluated so:
 * for a chunk of an output row, the vertical sums of the columns the
 * chunk reads, then the horizontal sum of those. The border maps each axis
 * on its own, so this is the two-dimensional sum regrouped, in a buffer on
 * the stack.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-filter.h"

#include <math.h>
#include <stdlib.h>

/* Output samples per chunk of a row. */
#define CHUNK 256

/* One component of one image pair: what a filter reads and writes. */
typedef struct
{
  const TexelFilterPlan *plan;
  const TexelComponent *comp;
  const TexelImage *in;
  TexelImage *out;
  int width, height; /* samples of the component */
  int mirror;
} Component;

static uint8_t *
sample_address (const TexelImage *img, const TexelComponent *comp, int x, int y)
{
  return img->data[comp->plane] + (size_t)y * img->stride[comp->plane]
         + comp->offset + (size_t)x * comp->pixel_stride;
}

static unsigned
read_code (const Component *k, int x, int y)
{
  const uint8_t *p = sample_address (k->in, k->comp, x, y);

  if (k->plan->fmt.bytes_per_sample == 2)
    return texel_word_code ((unsigned)(p[0] | (p[1] << 8)), &k->plan->fmt);
  return p[0];
}

static void
write_code (const Component *k, int x, int y, unsigned code)
{
  uint8_t *p = sample_address (k->out, k->comp, x, y);

  if (k->plan->fmt.bytes_per_sample == 2)
    {
      code <<= k->plan->fmt.shift;
      p[0] = (uint8_t)(code & 0xff);
      p[1] = (uint8_t)(code >> 8);
    }
  else
    {
      p[0] = (uint8_t)code;
    }
}

/* Clamps a value in codes to the code range and rounds it to the nearest
 * code (round () rounds halves away from zero: up, here). */
static void
write_value (const Component *k, int x, int y, double v)
{
  double max = k->plan->max_code;

  write_code (k, x, y, (unsigned)round (v < 0.0 ? 0.0 : (v > max ? max : v)));
}

/* The code at (@x, @y), both mapped into the grid by the border mode. */
static double
sample (const Component *k, int x, int y)
{
  return read_code (k, texel_filter_border_index (x, k->width, k->mirror),
                    texel_filter_border_index (y, k->height, k->mirror));
}

/* sum_j w[j] sum_i w[i] v(x + i, y + j) for x in [x0, x1) into @out. */
static void
separable_sums (const Component *k, int y, int x0, int x1, double *out)
{
  const double *w = k->plan->weight_d;
  int r = k->plan->radius;
  int lo = x0 - r < 0 ? 0 : x0 - r;
  int hi = x1 + r > k->width ? k->width : x1 + r;
  /* Vertical sums of columns [lo, hi): every column the chunk's
   * border-mapped horizontal taps land on (texel-filter.h: a reflection
   * stays within the radius of its edge, or the chunk spans the row). */
  double column[CHUNK + 2 * TEXEL_FILTER_RADIUS_MAX];
  int x, i, j;

  for (x = lo; x < hi; x++)
    {
      double s = 0.0;

      for (j = -r; j <= r; j++)
        s += w[j + r] * sample (k, x, y + j);
      column[x - lo] = s;
    }
  for (x = x0; x < x1; x++)
    {
      double s = 0.0;

      for (i = -r; i <= r; i++)
        s += w[i + r]
             * column[texel_filter_border_index (x + i, k->width, k->mirror)
                      - lo];
      out[x - x0] = s;
    }
}

static double
bilateral (const Component *k, const double *range_weight, int x, int y)
{
  const double *w = k->plan->weight_d;
  int r = k->plan->radius;
  int centre = (int)read_code (k, x, y);
  double num = 0.0, den = 0.0;
  int i, j;

  for (j = -r; j <= r; j++)
    for (i = -r; i <= r; i++)
      {
        int q = (int)sample (k, x + i, y + j);
        double wt = w[i + r] * w[j + r] * range_weight[abs (q - centre)];

        num += wt * q;
        den += wt;
      }
  return num / den;
}

static double
sobel (const Component *k, int x, int y)
{
  double gx = (sample (k, x + 1, y - 1) + 2.0 * sample (k, x + 1, y)
               + sample (k, x + 1, y + 1))
              - (sample (k, x - 1, y - 1) + 2.0 * sample (k, x - 1, y)
                 + sample (k, x - 1, y + 1));
  double gy = (sample (k, x - 1, y + 1) + 2.0 * sample (k, x, y + 1)
               + sample (k, x + 1, y + 1))
              - (sample (k, x - 1, y - 1) + 2.0 * sample (k, x, y - 1)
                 + sample (k, x + 1, y - 1));

  return sqrt (gx * gx + gy * gy) / 4.0;
}

static void
filter_row (const Component *k, const double *range_weight, int y)
{
  const TexelFilterPlan *plan = k->plan;
  double sums[CHUNK];
  int x0, x;

  if (plan->filter == TEXEL_FILTER_BILATERAL
      || plan->filter == TEXEL_FILTER_SOBEL)
    {
      for (x = 0; x < k->width; x++)
        write_value (k, x, y,
                     plan->filter == TEXEL_FILTER_SOBEL
                         ? sobel (k, x, y)
                         : bilateral (k, range_weight, x, y));
      return;
    }
  for (x0 = 0; x0 < k->width; x0 += CHUNK)
    {
      int x1 = x0 + CHUNK < k->width ? x0 + CHUNK : k->width;

      separable_sums (k, y, x0, x1, sums);
      for (x = x0; x < x1; x++)
        {
          double s = sums[x - x0];

          if (plan->filter == TEXEL_FILTER_BOX)
            s /= plan->box_count;
          else if (plan->filter == TEXEL_FILTER_UNSHARP)
            s = read_code (k, x, y)
                + plan->amount_d * (read_code (k, x, y) - s);
          write_value (k, x, y, s);
        }
    }
}

static void
copy_row (const Component *k, int y)
{
  int x;

  for (x = 0; x < k->width; x++)
    write_code (k, x, y, read_code (k, x, y));
}

void
texel_filter_cpu (const TexelFilterPlan *plan, const TexelImage *in,
                  TexelImage *out, int row0, int row1)
{
  /* Bilateral range factors by code difference: exact (the same exp ()
   * values), computed once per call instead of once per tap. */
  double range_weight[1 << 10];
  int c, x, y;

  if (!texel_clip_rows (&row0, &row1, plan->height))
    return;
  if (plan->filter == TEXEL_FILTER_BILATERAL)
    for (x = 0; x <= plan->max_code; x++)
      range_weight[x] = exp (-plan->range_coef_d * x * x);

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &plan->fmt.comp[c];
      Component k = { plan,
                      comp,
                      in,
                      out,
                      -((-plan->width) >> comp->x_shift),
                      -((-plan->height) >> comp->y_shift),
                      plan->border == TEXEL_FILTER_BORDER_MIRROR };
      int y0 = texel_filter_grid_row (row0, comp->y_shift);
      int y1 = texel_filter_grid_row (row1, comp->y_shift);

      if (comp->plane < 0)
        continue;
      for (y = y0; y < y1 && y < k.height; y++)
        {
          if (plan->filtered[c])
            filter_row (&k, range_weight, y);
          else
            copy_row (&k, y);
        }
    }

  /* RGBx's unused byte: 0xff, as the converter writes it. */
  if (plan->pad_offset >= 0)
    for (y = row0; y < row1; y++)
      for (x = 0; x < plan->width; x++)
        out->data[0][(size_t)y * out->stride[0] + plan->pad_offset
                     + (size_t)x * plan->fmt.comp[0].pixel_stride]
            = 0xff;
}
