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

#ifdef __CUDACC__
#define TEXEL_HD static __host__ __device__ __forceinline__
#else
#define TEXEL_HD static inline
#endif

/* Luma coordinate of the centre of sample @i along an axis. */
TEXEL_HD float
texel_sample_centre_f (int i, int shift, float chroma_off)
{
  return shift ? (float) (i << shift) + chroma_off : (float) i + 0.5f;
}

TEXEL_HD double
texel_sample_centre_d (int i, int shift, double chroma_off)
{
  return shift ? (double) (i << shift) + chroma_off : (double) i + 0.5;
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
  int i = (int) floorf (p);
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

#endif /* TEXEL_SAMPLE_MAP_H */
