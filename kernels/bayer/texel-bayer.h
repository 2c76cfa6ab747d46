/* gst-texel: raw Bayer input, developed inside texelconvert's pass.
 *
 * A Bayer mosaic holds one colour per pixel. texelconvert reads it as the
 * RGB picture it develops to, pixel by pixel: the samples around a pixel
 * (a 5x5 window) are scaled to linear, black-corrected, white-balanced
 * values, demosaiced (bilinear, or the gradient-corrected linear filter
 * of Malvar, He and Cutler, ICASSP 2004), mapped by the colour-correction
 * matrix, clipped to [0, 1] and encoded by the transfer function. That
 * developed picture is what the conversion then scales, crops, rotates
 * and converts, on the CPU (texel-convert-cpu.c) and on the GPU
 * (texel-bayer.cuh, point-sampled texture fetches of the mosaic) alike.
 *
 * Sample positions: mosaic sample (x, y) is developed into pixel (x, y)
 * of that picture, centred at (x + 0.5, y + 0.5) like every other input
 * pixel, so a same-size conversion puts it at the centre of output pixel
 * (x, y) (no half-pixel shift). The colour of a sample comes from its
 * position in the whole input frame (cropping does not move the pattern).
 *
 * Borders: the window is mirrored at the frame's edges without repeating
 * the edge sample (x = -1 reads x = 1, x = w reads x = w - 2), which keeps
 * every mirrored sample's colour. (OpenCV's bilinear demosaic instead
 * computes rows and columns 1 .. n - 2 only and copies the first and last
 * rows from their neighbours, and gives black for frames of 2 rows or
 * fewer.) A dimension of 1 pixel mirrors onto itself: the colours the
 * line lacks are read from the samples it has.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_BAYER_H
#define TEXEL_BAYER_H

#include <stdint.h>

#include "texel-kernel.h"
#include "texel-image.h"

TEXEL_BEGIN_DECLS

/* The colours of the top-left 2x2 cell, in reading order. */
typedef enum
{
  TEXEL_BAYER_NONE = 0, /* not a Bayer input */
  TEXEL_BAYER_RGGB,
  TEXEL_BAYER_BGGR,
  TEXEL_BAYER_GRBG,
  TEXEL_BAYER_GBRG
} TexelBayerPattern;

typedef enum
{
  /* Malvar-He-Cutler gradient-corrected linear interpolation (5x5). */
  TEXEL_DEMOSAIC_MHC = 0,
  /* Mean of the nearest samples of each missing colour (3x3). */
  TEXEL_DEMOSAIC_BILINEAR = 1
} TexelDemosaic;

/* What the user asks for. */
typedef struct
{
  TexelBayerPattern pattern;
  TexelDemosaic demosaic;
  int bits; /* significant bits: 8 to 16 */
  /* 16-bit words: the bits sit at the top of the word (msb), as Jetson's
   * VI writes RAW10 and RAW12, else at the bottom. */
  int msb;
  double black[3]; /* R, G, B black level, in codes */
  double gain[3];  /* R, G, B white-balance gains */
  /* Camera RGB (white-balanced) -> linear output RGB. */
  double ccm[3][3];
  /* The output's transfer function: a TexelTransfer (texel-adjust.h). */
  int transfer;
} TexelBayerConfig;

#define TEXEL_BAYER_TAPS 25

/* Derived once per configuration; part of the conversion plan (passed by
 * value to the CUDA kernels). pattern NONE: not a Bayer input. */
typedef struct
{
  int pattern;
  /* Position of the red sample in the 2x2 cell. */
  int red_x, red_y;
  /* code = (word >> shift) & mask */
  int shift;
  unsigned mask;
  /* The transfer function: V = (1 + alpha) L^power - alpha for L >= beta,
   * else slope * L (texel_transfer_params). */
  double alpha, power, beta, slope;
  float alpha_f, power_f, beta_f, slope_f;
  /* Linear value of a sample of colour c: code * scale[c] + offset[c]
   * (normalised, black subtracted, white-balanced). */
  double scale[3], offset[3];
  float scale_f[3], offset_f[3];
  double ccm[3][3];
  float ccm_f[3][3];
  /* The demosaic filter of each pixel class (texel_bayer_class) and
   * output colour: weights of the 5x5 window, row by row, in 16ths. */
  int8_t kernel[4][3][TEXEL_BAYER_TAPS];
  /* texel_bayer_form of the filters (TEXEL_BAYER_FORM_*, -1: none),
   * computed once with them: the CUDA kernels choose their code by it. */
  int form;
  /* Grey-world statistics (TexelBayerStats): codes above awb_clip are
   * left out as clipped. awb_sums: where the CUDA kernel adds the
   * frame's sums (device memory, zeroed by the owner before the frame),
   * NULL for none; set per frame by the plan's owner, never by
   * texel_bayer_plan_init. */
  unsigned awb_clip;
  unsigned long long *awb_sums;
  /* Where awb_sums is NULL, awb_gather asks texel_cuda_convert to gather
   * the statistics into its context's sums, tagged awb_tag (texelconvert:
   * the frame's timestamp), for texel_cuda_context_take_sums. Set per frame
   * by the plan's owner, like awb_sums. */
  int awb_gather;
  uint64_t awb_tag;
  /* Where texel_convert_fast (the CPU path) adds the frame's statistics,
   * each band its share of the rows (host memory, the 6 words of
   * TexelBayerStats, zeroed by the owner before the frame; bands on
   * several threads add atomically), NULL for none. Set per frame by the
   * plan's owner, like awb_sums. */
  unsigned long long *awb_cpu_sums;
  /* The cropped source rectangle the statistics cover. */
  int awb_x0, awb_y0, awb_x1, awb_y1;
} TexelBayerPlan;

/* Grey-world statistics of a mosaic: per colour (R, G, B; both greens
 * count as G) the sum of the stored codes and their number, clipped codes
 * left out. Integers, so the GPU's sums equal the CPU's exactly. Laid
 * out as the 6 words of awb_sums. */
typedef struct
{
  unsigned long long sum[3];
  unsigned long long count[3];
} TexelBayerStats;

/* The fraction of the largest code above which a sample counts as
 * clipped (its colour's true value is unknown). */
#define TEXEL_BAYER_AWB_CLIP 0.95

/* Fills @bp from @config and turns @in (the storage format's GRAY8 or
 * GRAY16_LE description) into the description of the developed RGB
 * picture: components R, G, B in the mosaic's plane. Returns 0, or -1
 * with a static message in @error. */
int texel_bayer_plan_init (TexelBayerPlan *bp, TexelFormatDesc *in,
                           const TexelBayerConfig *config, const char **error);

/* Linear camera RGB of pixel (@x, @y) of mosaic @in: black-corrected,
 * white-balanced and demosaiced, before the colour matrix (double
 * precision; the CPU reference). */
void texel_bayer_demosaic (const TexelBayerPlan *bp, const TexelImage *in,
                           int x, int y, double rgb[3]);

/* Developed R'G'B' of pixel (@x, @y): the demosaiced value through the
 * colour matrix, clipped to [0, 1], encoded by the transfer function. */
void texel_bayer_develop (const TexelBayerPlan *bp, const TexelImage *in, int x,
                          int y, double rgb[3]);

/* Adds the codes of mosaic @in's samples in [@x0, @x1) x [@y0, @y1) to
 * @stats (the CPU reference; CUDA: texel_bayer_awb_gather). */
void texel_bayer_stats (const TexelBayerPlan *bp, const TexelImage *in, int x0,
                        int y0, int x1, int y1, TexelBayerStats *stats);

/* The grey-world gains of @stats (R, G, B; G = 1): mean G over mean R and
 * over mean B, the means of the black-subtracted codes (@black: R, G, B
 * black levels in codes). Returns 0, or -1 (gains untouched) when a
 * colour has no unclipped sample or a mean is not above black. */
int texel_bayer_awb_gains (const TexelBayerStats *stats, const double black[3],
                           double gains[3]);

/* Replaces the white-balance gains of @bp (scale and offset) with @gains,
 * keeping @config's black levels: what the automatic white balance does
 * between frames, without a new plan. */
void texel_bayer_plan_set_gains (TexelBayerPlan *bp,
                                 const TexelBayerConfig *config,
                                 const double gains[3]);

/* The input rows whose statistics the band of output rows [@row0, @row1)
 * gathers: consecutive bands of a frame split the rows of the statistics
 * rectangle between them, each inside the rows the band reads. @map_y:
 * the plan's map[1] (rows monotonic), @out_height the output's. */
void texel_bayer_awb_rows (const TexelBayerPlan *bp, const double map_y[3],
                           int out_height, int row0, int row1, int *y0,
                           int *y1);

/* ------------------------------------------------------------------ */
/* Shared by the CPU reference and the CUDA kernels */

/* Index @i mirrored into [0, @n) without repeating the edge sample. */
TEXEL_HD int
texel_bayer_mirror (int i, int n)
{
  if (n == 1)
    return 0;
  while (i < 0 || i >= n)
    i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

/* The class of sample (@x, @y): 0 red, 1 green in a red row, 2 green in a
 * blue row, 3 blue. */
TEXEL_HD int
texel_bayer_class (const TexelBayerPlan *bp, int x, int y)
{
  return (((y ^ bp->red_y) & 1) << 1) | ((x ^ bp->red_x) & 1);
}

/* The colour (0 R, 1 G, 2 B) a sample of class @cls records. */
TEXEL_HD int
texel_bayer_colour (int cls)
{
  return cls == 0 ? 0 : (cls == 3 ? 2 : 1);
}

/* Both demosaics' filters (texel-bayer-cpu.c) weight the taps of a window
 * in symmetric groups, the same weight for every tap of a group: the
 * sample itself, its 2 row neighbours at distance 1, its 2 column
 * neighbours at 1, its 4 diagonal neighbours, its 2 row neighbours at 2
 * and its 2 column neighbours at 2; the other 12 taps weigh 0
 * (test-bayer checks it of every kernel). The CUDA kernel sums each
 * group's 1 to 4 samples once and weights the 6 sums (13 reads of the
 * window, 18 multiply-adds a pixel, the same for every class) instead of
 * the 25 taps of each colour. */
#define TEXEL_BAYER_GROUPS 6

/* The group of tap @k of a window (row by row), or -1 for a tap outside
 * every group. */
TEXEL_HD int
texel_bayer_tap_group (int k)
{
  int dx = k % 5 - 2, dy = k / 5 - 2;
  int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;

  if (ax + ay == 0)
    return 0;
  if (ax == 1 && ay == 1)
    return 3;
  if (ay == 0)
    return ax == 1 ? 1 : 4;
  if (ax == 0)
    return ay == 1 ? 2 : 5;
  return -1;
}

/* A tap of group @g (the one right of or below the sample). */
TEXEL_HD int
texel_bayer_group_tap (int g)
{
  return g == 0   ? 12
         : g == 1 ? 13
         : g == 2 ? 17
         : g == 3 ? 18
         : g == 4 ? 14
                  : 22;
}

/* The weight of every tap of group @g in the filter of class @cls and
 * colour @c, in units of 1 (the kernels' 16ths divided out): what both
 * CUDA kernels multiply the group's sum by. */
TEXEL_HD float
texel_bayer_group_weight (const TexelBayerPlan *bp, int cls, int c, int g)
{
  return (float)bp->kernel[cls][c][texel_bayer_group_tap (g)] * (1.0f / 16.0f);
}

/* The tap groups (bit g: group g) that the filter of class @cls and
 * colour @c weighs in each demosaic (build_kernels, texel-bayer-cpu.c):
 * the cell kernel multiplies only these, a template per form, since most
 * weights are 0 (bilinear: 3.5 of 18 a pixel are not, MHC: 10.5). Form
 * TEXEL_BAYER_FORM_MHC, else bilinear's. */
#define TEXEL_BAYER_FORM_MHC 0
#define TEXEL_BAYER_FORM_BILINEAR 1
#define TEXEL_BAYER_FORMS 2

TEXEL_HD int
texel_bayer_form_groups (int form, int cls, int c)
{
  int mhc = form == TEXEL_BAYER_FORM_MHC;

  if (texel_bayer_colour (cls) == c)
    return 0x01; /* the sample itself */
  if (c == 1)
    return mhc ? 0x37 : 0x06; /* green at red or blue */
  if (cls == 0 || cls == 3)
    return mhc ? 0x39 : 0x08; /* red at blue, blue at red */
  /* Red or blue at a green whose row holds that colour, or whose column
   * does. */
  if ((cls == 1) == (c == 0))
    return mhc ? 0x3b : 0x02;
  return mhc ? 0x3d : 0x04;
}

/* The sparsest form whose groups hold every non-zero weight of @bp's
 * filters, or -1 for none. */
TEXEL_HD int
texel_bayer_form (const TexelBayerPlan *bp)
{
  for (int form = TEXEL_BAYER_FORMS - 1; form >= 0; form--)
    {
      int fits = 1;

      for (int cls = 0; cls < 4; cls++)
        for (int c = 0; c < 3; c++)
          for (int g = 0; g < TEXEL_BAYER_GROUPS; g++)
            if (bp->kernel[cls][c][texel_bayer_group_tap (g)] != 0
                && !(texel_bayer_form_groups (form, cls, c) >> g & 1))
              fits = 0;
      if (fits)
        return form;
    }
  return -1;
}

TEXEL_END_DECLS
#endif /* TEXEL_BAYER_H */
