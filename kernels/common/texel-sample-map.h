/* gst-texel: where an output sample comes from.
 *
 * Compiled both by the C compiler (CPU reference) and by nvcc (kernels), so
 * that nearest-neighbour sampling picks the very same input sample on both:
 * the float path uses fmaf, which is correctly rounded on both sides.
 *
 * Coordinates are continuous luma coordinates with pixel centres at +0.5.
 * A component subsampled by 2 has sample i centred at luma coordinate
 * 2 * i + chroma_off (0.5 when cosited with the left/top luma sample, 1.0
 * when centred between two).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_SAMPLE_MAP_H
#define TEXEL_SAMPLE_MAP_H

#include <math.h>

#include "texel-kernel.h"

TEXEL_BEGIN_DECLS

/* How an output sample filters the input around where it comes from:
 * shared by every op that resamples (texelconvert, texelwarp) and by the
 * CUDA sampler (texel-cuda-sampler.cuh). */
typedef enum
{
  TEXEL_METHOD_NEAREST = 0,
  TEXEL_METHOD_BILINEAR = 1,
  /* Cubic B-spline (smooth, no ringing): on the GPU from 4 bilinear
   * texture fetches per sample (Sigg and Hadwiger, GPU Gems 2, ch. 20). */
  TEXEL_METHOD_BICUBIC = 2
} TexelMethod;

TEXEL_END_DECLS

/* Luma coordinate of the centre of sample @i along an axis. */
TEXEL_HD float
texel_sample_centre_f (int i, int shift, float chroma_off)
{
  return shift ? (float)(i << shift) + chroma_off : (float)i + 0.5f;
}

TEXEL_HD double
texel_sample_centre_d (int i, int shift, double chroma_off)
{
  return shift ? (double)(i << shift) + chroma_off : (double)i + 0.5;
}

/* Luma coordinate -> coordinate in a component's own sample grid, in the
 * texture convention (sample k centred at k + 0.5). */
TEXEL_HD float
texel_plane_coord_f (float luma, int shift, float chroma_off)
{
  return shift ? (luma - chroma_off) * 0.5f + 0.5f : luma;
}

TEXEL_HD double
texel_plane_coord_d (double luma, int shift, double chroma_off)
{
  return shift ? (luma - chroma_off) * 0.5 + 0.5 : luma;
}

/* Affine map of an output luma position to an input luma position. */
TEXEL_HD float
texel_map_f (const float row[3], float x, float y)
{
  return fmaf (row[0], x, fmaf (row[1], y, row[2]));
}

TEXEL_HD double
texel_map_d (const double row[3], double x, double y)
{
  return row[0] * x + row[1] * y + row[2];
}

/* Index of the nearest sample to plane coordinate @p, clamped to
 * [0, size - 1]. */
TEXEL_HD int
texel_nearest_index (float p, int size)
{
  int i = (int)floorf (p);
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

/* The filter that makes a subsampled output sample from the
 * full-resolution picture: the average over the sample's footprint, a box
 * of 2 luma pixels centred on its site, of the picture taken as constant
 * over each pixel. Centred on a pixel boundary (chroma_off 1.0) that is
 * [1, 1] / 2 over the two pixels around the site; centred on a pixel
 * (cosited, 0.5) it is [1, 2, 1] / 4 over the pixel and its neighbours,
 * what videoconvert and libswscale use for MPEG-2 siting. @off: tap
 * positions relative to the site, in output luma pixels. Along an axis
 * that is not subsampled: one tap at the site. The offsets and weights
 * are exact in float. */
typedef struct
{
  int n;
  float off[3];
  float w[3];
} TexelChromaTaps;

TEXEL_HD TexelChromaTaps
texel_chroma_taps (int shift, float chroma_off)
{
  TexelChromaTaps t = { 1, { 0.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f } };

  if (shift && chroma_off == 1.0f)
    {
      t.n = 2;
      t.off[0] = -0.5f;
      t.off[1] = 0.5f;
      t.w[0] = t.w[1] = 0.5f;
    }
  else if (shift)
    {
      t.n = 3;
      t.off[0] = -1.0f;
      t.off[2] = 1.0f;
      t.w[0] = t.w[2] = 0.25f;
      t.w[1] = 0.5f;
    }
  return t;
}

/* Whether an input component stored with subsampling @in_shift along
 * the input axis that an output axis maps to is averaged over the
 * footprint of an output sample subsampled by @out_shift along it: only
 * where the input is finer. Where it is as coarse (NV12 to I420), the
 * output sample takes the input's own sample at its site instead, so
 * that equal grids copy chroma rather than blur it. */
TEXEL_HD int
texel_chroma_filtered (int out_shift, int in_shift)
{
  return out_shift > in_shift;
}

/* The input displacement, along the input axis of map row @row, of a tap
 * (@ox, @oy) output luma pixels from a sample's site. With the tap
 * offsets of texel_chroma_taps the products are exact and, the maps
 * being axis-aligned, at most one is non-zero: CPU and GPU get the same
 * float whatever they fuse. */
TEXEL_HD float
texel_tap_shift_f (const float row[3], float ox, float oy)
{
  return row[0] * ox + row[1] * oy;
}

TEXEL_HD double
texel_tap_shift_d (const double row[3], double ox, double oy)
{
  return row[0] * ox + row[1] * oy;
}

#endif /* TEXEL_SAMPLE_MAP_H */
