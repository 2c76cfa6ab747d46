/* gst-texel: raw Bayer development, the plan and the CPU reference
 * (double precision; texel-bayer.h says what it computes).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-bayer.h"
#include "texel-adjust.h"

#include <math.h>
#include <string.h>

/* Sets the weight (in 16ths) at offset (@dx, @dy) of a 5x5 window. */
static void
tap (int8_t k[TEXEL_BAYER_TAPS], int dx, int dy, int w)
{
  k[(dy + 2) * 5 + dx + 2] = (int8_t)w;
}

/* The four samples at distance @d along the axes: horizontal (@h), vertical
 * (@v) weights. */
static void
cross (int8_t k[TEXEL_BAYER_TAPS], int d, int h, int v)
{
  tap (k, -d, 0, h);
  tap (k, d, 0, h);
  tap (k, 0, -d, v);
  tap (k, 0, d, v);
}

static void
diagonals (int8_t k[TEXEL_BAYER_TAPS], int w)
{
  tap (k, -1, -1, w);
  tap (k, 1, -1, w);
  tap (k, -1, 1, w);
  tap (k, 1, 1, w);
}

/* A colour sampled at the same position: the sample itself. */
static void
same (int8_t k[TEXEL_BAYER_TAPS])
{
  tap (k, 0, 0, 16);
}

/* Green at a red or blue sample. MHC: (4 C + 2 sum G1 - sum C2) / 8. */
static void
green_at_rb (int8_t k[TEXEL_BAYER_TAPS], int mhc)
{
  if (mhc)
    {
      tap (k, 0, 0, 8);
      cross (k, 1, 4, 4);
      cross (k, 2, -2, -2);
    }
  else
    {
      cross (k, 1, 4, 4);
    }
}

/* Red or blue at a green sample whose row holds that colour (@along_row)
 * or whose column does. MHC, row case: (5 G + 4 (C_W + C_E) - sum G_diag
 * - (G_WW + G_EE) + (G_NN + G_SS) / 2) / 8; the column case transposed. */
static void
rb_at_green (int8_t k[TEXEL_BAYER_TAPS], int along_row, int mhc)
{
  int h = along_row ? 8 : 0, v = along_row ? 0 : 8;

  if (mhc)
    {
      tap (k, 0, 0, 10);
      cross (k, 1, h, v);
      diagonals (k, -2);
      cross (k, 2, along_row ? -2 : 1, along_row ? 1 : -2);
    }
  else
    {
      cross (k, 1, h, v);
    }
}

/* Red at blue or blue at red. MHC: (6 C + 2 sum diag - 3/2 sum C2) / 8. */
static void
rb_at_br (int8_t k[TEXEL_BAYER_TAPS], int mhc)
{
  if (mhc)
    {
      tap (k, 0, 0, 12);
      diagonals (k, 4);
      cross (k, 2, -3, -3);
    }
  else
    {
      diagonals (k, 4);
    }
}

/* kernel[class][colour] for both methods. Classes: 0 red, 1 green in a
 * red row, 2 green in a blue row, 3 blue. */
static void
build_kernels (TexelBayerPlan *bp, int mhc)
{
  memset (bp->kernel, 0, sizeof (bp->kernel));
  same (bp->kernel[0][0]);
  green_at_rb (bp->kernel[0][1], mhc);
  rb_at_br (bp->kernel[0][2], mhc);

  rb_at_green (bp->kernel[1][0], 1, mhc);
  same (bp->kernel[1][1]);
  rb_at_green (bp->kernel[1][2], 0, mhc);

  rb_at_green (bp->kernel[2][0], 0, mhc);
  same (bp->kernel[2][1]);
  rb_at_green (bp->kernel[2][2], 1, mhc);

  rb_at_br (bp->kernel[3][0], mhc);
  green_at_rb (bp->kernel[3][1], mhc);
  same (bp->kernel[3][2]);
}

static const char *
validate (const TexelFormatDesc *in, const TexelBayerConfig *config)
{
  int c;

  if (config->pattern < TEXEL_BAYER_RGGB || config->pattern > TEXEL_BAYER_GBRG)
    return "unknown Bayer pattern";
  if (config->demosaic != TEXEL_DEMOSAIC_MHC
      && config->demosaic != TEXEL_DEMOSAIC_BILINEAR)
    return "unknown demosaic method";
  if (config->transfer < TEXEL_TRANSFER_BT709
      || config->transfer > TEXEL_TRANSFER_GAMMA28)
    return "unknown transfer function";
  if (config->bits < 8 || config->bits > 8 * in->bytes_per_sample
      || (in->bytes_per_sample == 1 && config->bits != 8) || in->n_planes != 1
      || in->comp[0].pixel_stride != in->bytes_per_sample)
    return "Bayer samples must be 8-bit bytes or 8 to 16-bit words";
  for (c = 0; c < 3; c++)
    {
      if (!(config->black[c] >= 0.0
            && config->black[c] < (double)((1 << config->bits) - 1)))
        return "black level must lie below the largest code";
      if (!(config->gain[c] >= 0.0 && isfinite (config->gain[c])))
        return "white-balance gains must be finite and not negative";
    }
  return NULL;
}

int
texel_bayer_plan_init (TexelBayerPlan *bp, TexelFormatDesc *in,
                       const TexelBayerConfig *config, const char **error)
{
  /* Position of red in the 2x2 cell, by pattern. */
  static const int red[][2]
      = { { 0, 0 }, { 0, 0 }, { 1, 1 }, { 1, 0 }, { 0, 1 } };
  const char *why = validate (in, config);
  double max_code;
  int c, k;

  memset (bp, 0, sizeof (*bp));
  if (why != NULL)
    {
      if (error != NULL)
        *error = why;
      return -1;
    }
  bp->pattern = config->pattern;
  bp->red_x = red[config->pattern][0];
  bp->red_y = red[config->pattern][1];
  bp->shift = config->msb ? 8 * in->bytes_per_sample - config->bits : 0;
  bp->mask = (1u << config->bits) - 1;
  texel_transfer_params ((TexelTransfer)config->transfer, &bp->alpha,
                         &bp->power, &bp->beta, &bp->slope);
  bp->alpha_f = (float)bp->alpha;
  bp->power_f = (float)bp->power;
  bp->beta_f = (float)bp->beta;
  bp->slope_f = (float)bp->slope;
  max_code = (double)bp->mask;
  bp->awb_clip = (unsigned)floor (TEXEL_BAYER_AWB_CLIP * max_code);
  texel_bayer_plan_set_gains (bp, config, config->gain);
  for (c = 0; c < 3; c++)
    {
      for (k = 0; k < 3; k++)
        {
          bp->ccm[c][k] = config->ccm[c][k];
          bp->ccm_f[c][k] = (float)config->ccm[c][k];
        }
    }
  build_kernels (bp, config->demosaic == TEXEL_DEMOSAIC_MHC);
  bp->form = texel_bayer_form (bp);

  /* The developed picture: R, G, B read from the mosaic, full-range RGB. */
  in->is_yuv = 0;
  in->is_gray = 0;
  in->comp[1] = in->comp[2] = in->comp[0];
  in->comp[3].plane = -1;
  return 0;
}

void
texel_bayer_plan_set_gains (TexelBayerPlan *bp, const TexelBayerConfig *config,
                            const double gains[3])
{
  double max_code = (double)bp->mask;
  int c;

  for (c = 0; c < 3; c++)
    {
      double black = config->black[c] / max_code;

      /* (code / max - black) / (1 - black) * gain: black maps to 0 and the
       * largest code to the gain. */
      bp->scale[c] = gains[c] / (max_code * (1.0 - black));
      bp->offset[c] = -black * gains[c] / (1.0 - black);
      bp->scale_f[c] = (float)bp->scale[c];
      bp->offset_f[c] = (float)bp->offset[c];
    }
}

/* The stored code of sample (@x, @y), inside the frame. */
static unsigned
site_code (const TexelBayerPlan *bp, const TexelImage *in, int x, int y)
{
  const uint8_t *p = in->data[0] + (size_t)y * in->stride[0];
  unsigned word;

  if (in->format == TEXEL_FORMAT_GRAY16_LE)
    {
      p += (size_t)x * 2;
      word = (unsigned)(p[0] | (p[1] << 8));
    }
  else
    {
      word = p[x];
    }
  return (word >> bp->shift) & bp->mask;
}

/* Code @x of row @p. */
static inline unsigned
row_code (const TexelBayerPlan *bp, const uint8_t *p, int wide, int x)
{
  unsigned word = wide ? (unsigned)(p[2 * x] | (p[2 * x + 1] << 8)) : p[x];

  return (word >> bp->shift) & bp->mask;
}

/* Row @y of texel_bayer_stats: its samples alternate between two colours,
 * summed in two accumulators a pair of samples at a time, so that the
 * loop has no per-sample branch on the colour. */
static void
stats_row (const TexelBayerPlan *bp, const TexelImage *in, int x0, int x1,
           int y, TexelBayerStats *stats)
{
  const uint8_t *p = in->data[0] + (size_t)y * in->stride[0];
  const int wide = in->format == TEXEL_FORMAT_GRAY16_LE;
  const unsigned clip = bp->awb_clip;
  unsigned long long s0 = 0, s1 = 0, n0 = 0, n1 = 0;
  int x, c0, c1;

  /* s0, n0: the samples of x0's colour. */
  for (x = x0; x + 1 < x1; x += 2)
    {
      unsigned a = row_code (bp, p, wide, x), b = row_code (bp, p, wide, x + 1);

      s0 += a <= clip ? a : 0;
      n0 += a <= clip;
      s1 += b <= clip ? b : 0;
      n1 += b <= clip;
    }
  if (x < x1)
    {
      unsigned a = row_code (bp, p, wide, x);

      s0 += a <= clip ? a : 0;
      n0 += a <= clip;
    }
  c0 = texel_bayer_colour (texel_bayer_class (bp, x0, y));
  c1 = texel_bayer_colour (texel_bayer_class (bp, x0 + 1, y));
  stats->sum[c0] += s0;
  stats->count[c0] += n0;
  stats->sum[c1] += s1;
  stats->count[c1] += n1;
}

void
texel_bayer_stats (const TexelBayerPlan *bp, const TexelImage *in, int x0,
                   int y0, int x1, int y1, TexelBayerStats *stats)
{
  int y;

  for (y = y0; y < y1; y++)
    stats_row (bp, in, x0, x1, y, stats);
}

int
texel_bayer_awb_gains (const TexelBayerStats *stats, const double black[3],
                       double gains[3])
{
  double mean[3];
  int c;

  for (c = 0; c < 3; c++)
    {
      if (stats->count[c] == 0)
        return -1;
      mean[c] = (double)stats->sum[c] / (double)stats->count[c] - black[c];
      if (!(mean[c] > 0.0))
        return -1;
    }
  gains[0] = mean[1] / mean[0];
  gains[1] = 1.0;
  gains[2] = mean[1] / mean[2];
  return 0;
}

/* Row @row's boundary of the statistics' rows (texel_bayer_awb_rows). */
static int
awb_boundary (const TexelBayerPlan *bp, const double map_y[3], int out_height,
              int row)
{
  double y;

  if (row <= 0)
    return bp->awb_y0;
  if (row >= out_height)
    return bp->awb_y1;
  y = floor (map_y[1] * row + map_y[2]);
  return y < bp->awb_y0 ? bp->awb_y0 : (y > bp->awb_y1 ? bp->awb_y1 : (int)y);
}

void
texel_bayer_awb_rows (const TexelBayerPlan *bp, const double map_y[3],
                      int out_height, int row0, int row1, int *y0, int *y1)
{
  *y0 = awb_boundary (bp, map_y, out_height, row0);
  *y1 = awb_boundary (bp, map_y, out_height, row1);
  if (*y1 < *y0)
    *y1 = *y0;
}

static double
clamp01 (double v)
{
  return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
}

/* The linear value of mosaic sample (@x, @y), mirrored into the frame. */
static double
site_value (const TexelBayerPlan *bp, const TexelImage *in, int x, int y)
{
  int c;

  x = texel_bayer_mirror (x, in->width);
  y = texel_bayer_mirror (y, in->height);
  c = texel_bayer_colour (texel_bayer_class (bp, x, y));
  return site_code (bp, in, x, y) * bp->scale[c] + bp->offset[c];
}

void
texel_bayer_demosaic (const TexelBayerPlan *bp, const TexelImage *in, int x,
                      int y, double rgb[3])
{
  int cls = texel_bayer_class (bp, x, y);
  const int8_t (*kernel)[TEXEL_BAYER_TAPS] = bp->kernel[cls];
  double window[TEXEL_BAYER_TAPS] = { 0 };
  int c, k;

  /* Only the samples some weight needs (9 of 25 for bilinear). */
  for (k = 0; k < TEXEL_BAYER_TAPS; k++)
    if (kernel[0][k] || kernel[1][k] || kernel[2][k])
      window[k] = site_value (bp, in, x + k % 5 - 2, y + k / 5 - 2);
  for (c = 0; c < 3; c++)
    {
      double sum = 0.0;

      for (k = 0; k < TEXEL_BAYER_TAPS; k++)
        sum += kernel[c][k] * window[k];
      rgb[c] = sum / 16.0;
    }
}

static double
encode (const TexelBayerPlan *bp, double l)
{
  if (l < bp->beta)
    return bp->slope * l;
  return (1.0 + bp->alpha) * pow (l, bp->power) - bp->alpha;
}

void
texel_bayer_develop (const TexelBayerPlan *bp, const TexelImage *in, int x,
                     int y, double rgb[3])
{
  double cam[3];
  int c;

  texel_bayer_demosaic (bp, in, x, y, cam);
  for (c = 0; c < 3; c++)
    {
      double v = bp->ccm[c][0] * cam[0] + bp->ccm[c][1] * cam[1]
                 + bp->ccm[c][2] * cam[2];

      rgb[c] = encode (bp, clamp01 (v));
    }
}
