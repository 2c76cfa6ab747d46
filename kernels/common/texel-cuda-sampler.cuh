/* gst-texel: the CUDA sampler: device code that fetches an input
 * component through a texture object at a point, filtered as a
 * TexelMethod says (nearest picks the very sample the CPU reference
 * picks; bicubic is a cubic B-spline from four bilinear fetches), and the
 * block shape and occupancy the kernels that sample are launched with.
 * Internal to the kernel library (C++). What a sample reads and where it
 * goes (a plan's formats, matrix and stores) is the resampler's, beside
 * the op that owns the plan (convert/texel-resample.cuh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CUDA_SAMPLER_CUH
#define TEXEL_CUDA_SAMPLER_CUH

#include <math.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "texel-sample-map.h"

#define TEXEL_BLOCK_W 32
#define TEXEL_BLOCK_H 8

/* The most threads a multiprocessor holds where the device code is
 * compiled for, for __launch_bounds__'s block counts (a count past it is
 * a compile error): 2048 on 8.0 and 9.0, 1536 on 8.6, 8.7 (Orin) and
 * 8.9; 0 (no count asked) elsewhere, PTX for newer GPUs included, and in
 * the host pass. */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900)
#define TEXEL_SM_THREADS 2048
#elif defined(__CUDA_ARCH__)                                                   \
    && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
#define TEXEL_SM_THREADS 1536
#else
#define TEXEL_SM_THREADS 0
#endif
/* __launch_bounds__'s blocks a multiprocessor for blocks of @threads:
 * @want, or as many as fit where fewer do, or none asked (1) where
 * TEXEL_SM_THREADS is not known. */
#define TEXEL_MIN_BLOCKS(want, threads)                                        \
  (TEXEL_SM_THREADS == 0                    ? 1                                \
   : (want) * (threads) <= TEXEL_SM_THREADS ? (want)                           \
                                            : TEXEL_SM_THREADS / (threads))

static __device__ __forceinline__ float
texel_lane (float4 texel, int lane)
{
  return lane == 0   ? texel.x
         : lane == 1 ? texel.y
         : lane == 2 ? texel.z
                     : texel.w;
}

/* Cubic B-spline weights of the four samples around a point at fraction
 * @f past the second one; the same formulas as the CPU reference. */
static __device__ __forceinline__ void
texel_bspline_weights (float f, float *w0, float *w1, float *w2, float *w3)
{
  float f2 = f * f, f3 = f2 * f;
  float g = 1.0f - f;

  *w0 = g * g * g * (1.0f / 6.0f);
  *w1 = (4.0f - 6.0f * f2 + 3.0f * f3) * (1.0f / 6.0f);
  *w2 = (1.0f + 3.0f * f + 3.0f * f2 - 3.0f * f3) * (1.0f / 6.0f);
  *w3 = f3 * (1.0f / 6.0f);
}

/* The B-spline along one axis as two linear fetches (Sigg and Hadwiger,
 * GPU Gems 2, ch. 20): weights g0, g1 at texture coordinates h0, h1. */
static __device__ __forceinline__ void
texel_bspline_fetches (float p, float *g0, float *g1, float *h0, float *h1)
{
  float base = floorf (p - 0.5f);
  float w0, w1, w2, w3;

  texel_bspline_weights (p - 0.5f - base, &w0, &w1, &w2, &w3);
  *g0 = w0 + w1;
  *g1 = w2 + w3;
  /* Sample k is centred at k + 0.5: between samples base - 1 and base,
   * and between base + 1 and base + 2. */
  *h0 = base - 0.5f + w1 / *g0;
  *h1 = base + 1.5f + w3 / *g1;
}

template <int METHOD>
static __device__ __forceinline__ float4
texel_fetch (cudaTextureObject_t texture, int width, int height, float px,
             float py)
{
  if (METHOD == TEXEL_METHOD_NEAREST)
    {
      /* The very sample the CPU picks, fetched at its centre. */
      int i = texel_nearest_index (px, width);
      int j = texel_nearest_index (py, height);

      return tex2D<float4> (texture, i + 0.5f, j + 0.5f);
    }
  else if (METHOD == TEXEL_METHOD_BILINEAR)
    {
      return tex2D<float4> (texture, px, py);
    }
  else
    {
      float gx0, gx1, hx0, hx1, gy0, gy1, hy0, hy1;
      float4 t00, t10, t01, t11, r;

      texel_bspline_fetches (px, &gx0, &gx1, &hx0, &hx1);
      texel_bspline_fetches (py, &gy0, &gy1, &hy0, &hy1);
      t00 = tex2D<float4> (texture, hx0, hy0);
      t10 = tex2D<float4> (texture, hx1, hy0);
      t01 = tex2D<float4> (texture, hx0, hy1);
      t11 = tex2D<float4> (texture, hx1, hy1);
      r.x = gy0 * (gx0 * t00.x + gx1 * t10.x)
            + gy1 * (gx0 * t01.x + gx1 * t11.x);
      r.y = gy0 * (gx0 * t00.y + gx1 * t10.y)
            + gy1 * (gx0 * t01.y + gx1 * t11.y);
      r.z = gy0 * (gx0 * t00.z + gx1 * t10.z)
            + gy1 * (gx0 * t01.z + gx1 * t11.z);
      r.w = gy0 * (gx0 * t00.w + gx1 * t10.w)
            + gy1 * (gx0 * t01.w + gx1 * t11.w);
      return r;
    }
}

#endif /* TEXEL_CUDA_SAMPLER_CUH */
