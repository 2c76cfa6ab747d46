/* gst-texel: the CPU reference converter, and the resampler it shares
 * with texelwarp (texel-resample-cpu.h).
 *
 * Written for clarity, in double precision: it defines what the CUDA
 * kernels should compute, and serves as the fallback where no GPU is
 * available. Every output sample is computed on its own: map its centre to
 * the input, filter each input component on that component's own sample
 * grid (a subsampled output sample: at each tap of its footprint,
 * weighted), apply the colour matrix, store.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-convert.h"
#include "texel-resample-cpu.h"
#include "texel-sample-map.h"

#include <math.h>

/* Samples along an axis of @size luma pixels subsampled by 2^@shift,
 * rounded up like the plane sizes. */
static int
subsampled_size (int size, int shift)
{
  return -((-size) >> shift);
}

static double
max_code (const TexelFormatDesc *desc)
{
  return (double)((1 << desc->bits) - 1);
}

static double
clamp01 (double v)
{
  return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
}

static int
clamp_index (int i, int size)
{
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

static uint8_t *
sample_address (const TexelImage *img, const TexelComponent *comp, int x, int y)
{
  return img->data[comp->plane] + (size_t)y * img->stride[comp->plane]
         + comp->offset + (size_t)x * comp->pixel_stride;
}

/* The normalised value of sample (@x, @y) of input component @c: the
 * developed picture's for a Bayer input. */
static double
read_sample (const TexelConvertPlan *plan, int c, const TexelImage *img, int x,
             int y)
{
  const TexelFormatDesc *desc = &plan->in;
  const uint8_t *p;
  unsigned code;

  if (plan->bayer.pattern != TEXEL_BAYER_NONE)
    {
      double rgb[3];

      texel_bayer_develop (&plan->bayer, img, x, y, rgb);
      return rgb[c];
    }
  p = sample_address (img, &desc->comp[c], x, y);

  if (desc->bytes_per_sample == 2)
    code = texel_word_code ((unsigned)(p[0] | (p[1] << 8)), desc); /* LE */
  else
    code = p[0];
  return code / max_code (desc);
}

static void
write_sample (const TexelFormatDesc *desc, const TexelComponent *comp,
              TexelImage *img, int x, int y, double value)
{
  uint8_t *p = sample_address (img, comp, x, y);
  /* round () rounds halves away from zero. */
  unsigned code = (unsigned)round (clamp01 (value) * max_code (desc));

  if (desc->bytes_per_sample == 2)
    {
      code <<= desc->shift;
      p[0] = (uint8_t)(code & 0xff);
      p[1] = (uint8_t)(code >> 8);
    }
  else
    {
      p[0] = (uint8_t)code;
    }
}

/* The input samples that contribute along one axis, and their weights. */
typedef struct
{
  int n;
  int index[4];
  double weight[4];
} Taps;

static Taps
nearest_taps (int index)
{
  Taps t = { 1, { index }, { 1.0 } };

  return t;
}

/* Linear interpolation between the two samples whose centres (k + 0.5)
 * surround plane coordinate @p. */
static Taps
bilinear_taps (double p, int size)
{
  Taps t;
  double x0 = floor (p - 0.5);
  double f = p - 0.5 - x0;

  t.n = 2;
  t.index[0] = clamp_index ((int)x0, size);
  t.index[1] = clamp_index ((int)x0 + 1, size);
  t.weight[0] = 1.0 - f;
  t.weight[1] = f;
  return t;
}

/* Cubic B-spline over the four samples around @p. Its weights are
 * positive (no ringing, no overshoot) and sum to one. */
static Taps
bicubic_taps (double p, int size)
{
  Taps t;
  double x0 = floor (p - 0.5);
  double f = p - 0.5 - x0;
  double f2 = f * f, f3 = f2 * f;
  int k;

  t.n = 4;
  for (k = 0; k < 4; k++)
    t.index[k] = clamp_index ((int)x0 - 1 + k, size);
  t.weight[0] = (1.0 - f) * (1.0 - f) * (1.0 - f) / 6.0;
  t.weight[1] = (4.0 - 6.0 * f2 + 3.0 * f3) / 6.0;
  t.weight[2] = (1.0 + 3.0 * f + 3.0 * f2 - 3.0 * f3) / 6.0;
  t.weight[3] = f3 / 6.0;
  return t;
}

static double
filter (const TexelConvertPlan *plan, int c, const TexelImage *img,
        const Taps *tx, const Taps *ty)
{
  double sum = 0.0;
  int a, b;

  for (b = 0; b < ty->n; b++)
    {
      double row = 0.0;

      for (a = 0; a < tx->n; a++)
        row += tx->weight[a]
               * read_sample (plan, c, img, tx->index[a], ty->index[b]);
      sum += ty->weight[b] * row;
    }
  return sum;
}

/* Value of input component @c at input luma position @pos. */
static double
sample_input (const TexelConvertPlan *plan, const TexelImage *in, int c,
              const TexelSamplePos *pos)
{
  const TexelFormatDesc *desc = &plan->in;
  const TexelComponent *comp = &desc->comp[c];
  int width, height;
  Taps tx, ty;

  if (comp->plane < 0)
    return plan->in_missing[c];
  width = subsampled_size (plan->in_width, comp->x_shift);
  height = subsampled_size (plan->in_height, comp->y_shift);

  if (plan->method == TEXEL_METHOD_NEAREST)
    {
      float px = texel_plane_coord_f (pos->xf, comp->x_shift,
                                      plan->in_chroma_off[0]);
      float py = texel_plane_coord_f (pos->yf, comp->y_shift,
                                      plan->in_chroma_off[1]);

      tx = nearest_taps (texel_nearest_index (px, width));
      ty = nearest_taps (texel_nearest_index (py, height));
    }
  else
    {
      double px
          = texel_plane_coord_d (pos->x, comp->x_shift, plan->in_chroma_off[0]);
      double py
          = texel_plane_coord_d (pos->y, comp->y_shift, plan->in_chroma_off[1]);

      if (plan->method == TEXEL_METHOD_BICUBIC)
        {
          tx = bicubic_taps (px, width);
          ty = bicubic_taps (py, height);
        }
      else
        {
          tx = bilinear_taps (px, width);
          ty = bilinear_taps (py, height);
        }
    }
  return filter (plan, c, in, &tx, &ty);
}

/* The taps along output axis @axis (0: x) for input component @c and an
 * output group subsampled by @out_shift along it: the footprint filter
 * where the input is finer, else one tap at the site. */
static TexelChromaTaps
component_taps (const TexelConvertPlan *plan, int c, int axis, int out_shift)
{
  const TexelComponent *comp = &plan->in.comp[c];
  int in_shift = (axis ^ plan->axes_swapped) ? comp->y_shift : comp->x_shift;
  int filtered
      = plan->chroma_filter && texel_chroma_filtered (out_shift, in_shift);

  return texel_chroma_taps (filtered ? out_shift : 0,
                            plan->out_chroma_off[axis]);
}

/* Input component @c for an output sample of the group subsampled by
 * (@x_shift, @y_shift) whose site maps to @pos: sampled at the taps of
 * its footprint, weighted. */
static double
sample_footprint (const TexelConvertPlan *plan, const TexelImage *in, int c,
                  const TexelSamplePos *pos, int x_shift, int y_shift)
{
  TexelChromaTaps tx = component_taps (plan, c, 0, x_shift);
  TexelChromaTaps ty = component_taps (plan, c, 1, y_shift);
  double sum = 0.0;
  int a, b;

  for (b = 0; b < ty.n; b++)
    {
      for (a = 0; a < tx.n; a++)
        {
          TexelSamplePos tap = *pos;

          tap.x += texel_tap_shift_d (plan->map[0], tx.off[a], ty.off[b]);
          tap.y += texel_tap_shift_d (plan->map[1], tx.off[a], ty.off[b]);
          tap.xf += texel_tap_shift_f (plan->map_f[0], tx.off[a], ty.off[b]);
          tap.yf += texel_tap_shift_f (plan->map_f[1], tx.off[a], ty.off[b]);
          sum += (double)tx.w[a] * ty.w[b] * sample_input (plan, in, c, &tap);
        }
    }
  return sum;
}

/* All output components of the group subsampled by (@x_shift, @y_shift),
 * normalised, in the output's component order: the input around input
 * position @pos, through the colour matrix. */
static void
convert_at (const TexelConvertPlan *plan, const TexelImage *in,
            const TexelSamplePos *pos, int x_shift, int y_shift,
            double out[TEXEL_MAX_COMPONENTS])
{
  double value[TEXEL_MAX_COMPONENTS];
  int k, c;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    value[c] = sample_footprint (plan, in, c, pos, x_shift, y_shift);
  for (k = 0; k < 3; k++)
    {
      out[k] = plan->m[k][3];
      for (c = 0; c < 3; c++)
        out[k] += plan->m[k][c] * value[c];
    }
  out[3] = value[3];
}

/* texelconvert's source: inside the destination rectangle, the affine
 * map (in float too, for nearest: texel-sample-map.h). */
static int
convert_source (const void *data, const TexelSamplePos *pos,
                TexelSamplePos *in_pos)
{
  const TexelConvertPlan *plan = data;

  if (!(pos->x >= plan->dst_x0 && pos->x < plan->dst_x1
        && pos->y >= plan->dst_y0 && pos->y < plan->dst_y1))
    return 0;
  in_pos->x = texel_map_d (plan->map[0], pos->x, pos->y);
  in_pos->y = texel_map_d (plan->map[1], pos->x, pos->y);
  in_pos->xf = texel_map_f (plan->map_f[0], pos->xf, pos->yf);
  in_pos->yf = texel_map_f (plan->map_f[1], pos->xf, pos->yf);
  return 1;
}

/* Resamples the output components subsampled by (@x_shift, @y_shift):
 * those share their sample positions, so each position is computed once. */
static void
resample_group (const TexelConvertPlan *plan, TexelSourceFunc source,
                const void *data, const TexelImage *in, TexelImage *out,
                int x_shift, int y_shift, int row0, int row1)
{
  const TexelFormatDesc *desc = &plan->out;
  int width = subsampled_size (plan->out_width, x_shift);
  int height = subsampled_size (plan->out_height, y_shift);
  int j0 = row0 >> y_shift;
  int j1 = (row1 + (1 << y_shift) - 1) >> y_shift;
  int pad
      = x_shift == 0 && y_shift == 0 ? texel_format_padding_offset (desc) : -1;
  int i, j, k;

  if (j1 > height)
    j1 = height;
  for (j = j0; j < j1; j++)
    {
      for (i = 0; i < width; i++)
        {
          TexelSamplePos pos, in_pos;
          double value[TEXEL_MAX_COMPONENTS];

          pos.x = texel_sample_centre_d (i, x_shift, plan->out_chroma_off[0]);
          pos.y = texel_sample_centre_d (j, y_shift, plan->out_chroma_off[1]);
          pos.xf = texel_sample_centre_f (i, x_shift, plan->out_chroma_off[0]);
          pos.yf = texel_sample_centre_f (j, y_shift, plan->out_chroma_off[1]);

          if (source (data, &pos, &in_pos))
            {
              convert_at (plan, in, &in_pos, x_shift, y_shift, value);
            }
          else
            {
              for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
                value[k] = plan->border[k];
            }

          for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
            {
              const TexelComponent *comp = &desc->comp[k];

              if (comp->plane >= 0 && comp->x_shift == x_shift
                  && comp->y_shift == y_shift)
                write_sample (desc, comp, out, i, j, value[k]);
            }
          /* The padding byte of RGBx is written too (0xff, as if opaque), so
           * that the whole output is defined and comparable. */
          if (pad >= 0)
            out->data[0][(size_t)j * out->stride[0] + pad
                         + (size_t)i * desc->comp[0].pixel_stride]
                = 0xff;
        }
    }
}

/* Whether an earlier output component than @c has the same subsampling,
 * i.e. its group was already resampled. */
static int
group_done (const TexelFormatDesc *desc, int c)
{
  int k;

  for (k = 0; k < c; k++)
    {
      if (desc->comp[k].plane >= 0
          && desc->comp[k].x_shift == desc->comp[c].x_shift
          && desc->comp[k].y_shift == desc->comp[c].y_shift)
        return 1;
    }
  return 0;
}

void
texel_resample_cpu (const TexelConvertPlan *plan, TexelSourceFunc source,
                    const void *data, const TexelImage *in, TexelImage *out,
                    int row0, int row1)
{
  int c;

  if (!texel_clip_rows (&row0, &row1, plan->out_height))
    return;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &plan->out.comp[c];

      if (comp->plane >= 0 && !group_done (&plan->out, c))
        resample_group (plan, source, data, in, out, comp->x_shift,
                        comp->y_shift, row0, row1);
    }
}

void
texel_convert_cpu (const TexelConvertPlan *plan, const TexelImage *in,
                   TexelImage *out, int row0, int row1)
{
  texel_resample_cpu (plan, convert_source, plan, in, out, row0, row1);
}
