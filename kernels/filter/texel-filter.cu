/* gst-texel: the CUDA kernels of texelfilter.
 *
 * The per-thread code is in texel-filter.h (texel_filter_load_tile_f,
 * texel_filter_across_f, texel_filter_output_f): the very code the unit
 * tests run on the host, block by block, against the double-precision
 * reference; this file adds the barriers between the phases and the
 * launches.
 *
 * Shared-memory tiles. One launch per colour component (NV12: Y, then U,
 * then V; RGBA: R, G, B, then alpha copied), each on the component's own
 * sample grid. A block of 32 x 16 threads computes a 32 x 16 tile of
 * output samples: it first loads the input tile widened by the radius on
 * every side into shared memory as floats holding the codes (exact
 * integers), mapping coordinates outside the grid by the border mode in
 * code (texel_filter_border_index, the CPU reference's own function),
 * then every thread reads its window from shared memory:
 *
 *  - gaussian, unsharp, box: separable inside the block: a horizontal pass
 *    over all tile rows into a second shared array, then the vertical pass.
 *    2 (2 R + 1) taps per sample instead of (2 R + 1)^2, in one kernel with
 *    no intermediate frame in global memory, so a band of rows needs
 *    nothing but its input rows +- R (staged banding works unchanged).
 *  - bilateral: the direct (2 R + 1)^2 window (not separable), spatial
 *    factor weight[i] * weight[j], range factor __expf.
 *  - sobel: the 3 x 3 window.
 *
 * The 5x5 bilateral and Sobel have kernels specialised for their radius
 * (loops unrolled, tile indices constant); the others read it from the
 * plan.
 *
 * Why tiles rather than the texture cache: the loads go through the
 * generic format description (any pixel stride, 24-bit RGB, YUY2, P010,
 * any alignment of address and pitch, where textures need aligned planes
 * and 1, 2 or 4-channel texels), the border is the reference's mirror
 * exactly (cudaAddressModeMirror is defined for normalised coordinates
 * only, and repeats the edge sample), and a block loads (32 + 2 R) x
 * (16 + 2 R) samples once for its 512 outputs (1.7x at R = 2) instead of
 * fetching (2 R + 1)^2 per output through the cache. Texture point
 * sampling and a two-pass separable variant for large radii are the
 * alternatives to measure.
 *
 * Numbers, against the double-precision reference (errors in output
 * codes; max_code 255, or 1023 at 10 bits):
 *
 *  - box: every partial sum is an integer below 2^24 (at most
 *    65 * 65 * 1023), exact in float; the result is rounded in integers,
 *    round (s / n) = (2 s + n) / (2 n) (n odd: s / n is never a half):
 *    bit-exact.
 *  - sobel: gx, gy exact integers; gx^2 + gy^2 exact at 8 bits (< 2^24),
 *    within 2^-24 relative at 10 bits; sqrtf correctly rounded: at 8 bits
 *    the same code as the reference, at 10 bits 1 code where the exact
 *    value lies within ~1e-4 of a half code.
 *  - gaussian: weights rounded to float (2^-24 relative each, summing to
 *    1 within 2^-23 or so) and 2 (2 R + 1) fmaf: the error is a few ulp
 *    of the result, < 1e-3 code at 10 bits for R = 30.
 *  - unsharp: that error times amount (at most 10): < 0.01 code.
 *  - bilateral: __expf has a maximum error of 2 + floor (|1.173 x|) ulp
 *    (CUDA C Programming Guide, intrinsic functions), so a range factor
 *    e^x is off by at most e^x (2 + 1.2 |x|) 2^-24 < 3e-7 absolute (at
 *    x = -1). The result is the centre plus a weighted mean of
 *    differences d with total weight >= 1 (the centre's): the factor
 *    errors move it by at most sum 3e-7 |d| <= taps * 3e-7 * max_code;
 *    for the 5x5 window 25 * 3e-7 * 255 = 0.002 codes at 8 bits, 0.008
 *    at 10 bits; realistic errors are far smaller, as the bound assumes
 *    every factor off in the same direction at its worst. Underflow to 0
 *    for x < -87 loses weights below 1.7e-38: nothing. __fdividef (den in
 *    [1, 4225]): 2 ulp.
 *
 * So the GPU differs from the reference only where the exact value lies
 * within a fraction of a code of a half code: by 1 code, rarely.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cuda_runtime.h>

#include "texel-filter.h"
#include "texel-fault.h"

/* The plan and the component go by value: together within the 4 KiB
 * kernel parameter limit that every toolkit and GPU accepts. */
static_assert (sizeof (TexelFilterPlan) + sizeof (TexelFilterComp) <= 4096,
               "TexelFilterPlan must fit the 4 KiB kernel parameters");

/* Shared memory of the largest window: (65 + 96 * 80 + 32 * 80) floats,
 * 41220 bytes, below the 48 KiB a launch gets without opting in. */
static_assert ((TEXEL_FILTER_TAPS_MAX
                + (TEXEL_FILTER_TILE_W + 2 * TEXEL_FILTER_RADIUS_MAX)
                      * (TEXEL_FILTER_TILE_H + 2 * TEXEL_FILTER_RADIUS_MAX)
                + TEXEL_FILTER_TILE_W
                      * (TEXEL_FILTER_TILE_H + 2 * TEXEL_FILTER_RADIUS_MAX))
                       * sizeof (float)
                   <= 48 * 1024,
               "the largest tile must fit 48 KiB of shared memory");

/* ------------------------------------------------------------------ */
/* Device code: the phases of texel-filter.h, between barriers. */

static __global__ void
texel_filter_copy_kernel (const TexelFilterPlan plan, const TexelFilterComp k)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = k.row0 + blockIdx.y * blockDim.y + threadIdx.y;

  if (x < k.width && y < k.row1)
    texel_filter_copy_f (&plan, &k, x, y);
}

/* @RADIUS: the plan's radius where the kernel is specialised for one, or
 * -1 (read from the plan). */
template <int KIND, int RADIUS>
static __global__ void
texel_filter_kernel (const TexelFilterPlan plan, const TexelFilterComp k)
{
  extern __shared__ float texel_filter_shared[];
  const int r = RADIUS >= 0 ? RADIUS : plan.radius;
  const int x0 = blockIdx.x * TEXEL_FILTER_TILE_W;
  const int y0 = k.row0 + blockIdx.y * TEXEL_FILTER_TILE_H;

  texel_filter_load_tile_f (&plan, r, &k, texel_filter_shared, x0, y0,
                            threadIdx.x, threadIdx.y);
  __syncthreads ();
  if (texel_filter_separable (KIND))
    {
      texel_filter_across_f (&plan, r, texel_filter_shared, threadIdx.x,
                             threadIdx.y);
      __syncthreads ();
    }
  texel_filter_output_f (&plan, KIND, r, &k, texel_filter_shared, x0, y0,
                         threadIdx.x, threadIdx.y);
}

/* ------------------------------------------------------------------ */
/* Host side */

static cudaError_t
texel_filter_launch (const TexelFilterPlan *plan, const TexelFilterComp *k,
                     int filtered, cudaStream_t stream)
{
  dim3 block (TEXEL_FILTER_TILE_W, TEXEL_FILTER_TILE_H);
  dim3 grid ((k->width + TEXEL_FILTER_TILE_W - 1) / TEXEL_FILTER_TILE_W,
             (k->row1 - k->row0 + TEXEL_FILTER_TILE_H - 1)
                 / TEXEL_FILTER_TILE_H);
  size_t shared = texel_filter_shared_floats (plan) * sizeof (float);

  if (k->row1 <= k->row0)
    return cudaSuccess;
  if (texel_fault_hit (TEXEL_FAULT_LAUNCH))
    return cudaErrorLaunchFailure;
  if (!filtered)
    {
      texel_filter_copy_kernel<<<grid, block, 0, stream>>> (*plan, *k);
      return cudaGetLastError ();
    }
  switch (plan->filter)
    {
      case TEXEL_FILTER_GAUSSIAN:
        texel_filter_kernel<TEXEL_FILTER_GAUSSIAN, -1>
            <<<grid, block, shared, stream>>> (*plan, *k);
        break;
      case TEXEL_FILTER_UNSHARP:
        texel_filter_kernel<TEXEL_FILTER_UNSHARP, -1>
            <<<grid, block, shared, stream>>> (*plan, *k);
        break;
      case TEXEL_FILTER_BILATERAL:
        /* The 5x5 window, the usual denoiser, unrolled. */
        if (plan->radius == 2)
          texel_filter_kernel<TEXEL_FILTER_BILATERAL, 2>
              <<<grid, block, shared, stream>>> (*plan, *k);
        else
          texel_filter_kernel<TEXEL_FILTER_BILATERAL, -1>
              <<<grid, block, shared, stream>>> (*plan, *k);
        break;
      case TEXEL_FILTER_BOX:
        texel_filter_kernel<TEXEL_FILTER_BOX, -1>
            <<<grid, block, shared, stream>>> (*plan, *k);
        break;
      case TEXEL_FILTER_SOBEL:
        texel_filter_kernel<TEXEL_FILTER_SOBEL, 1>
            <<<grid, block, shared, stream>>> (*plan, *k);
        break;
      default:
        return cudaErrorInvalidValue;
    }
  return cudaGetLastError ();
}

static int
texel_filter_image_matches (const TexelImage *img, const TexelFilterPlan *plan)
{
  return img->format == plan->fmt.format && img->width == plan->width
         && img->height == plan->height;
}

static int
texel_filter_vertically_subsampled (const TexelFilterPlan *plan)
{
  int c;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (plan->fmt.comp[c].plane >= 0 && plan->fmt.comp[c].y_shift > 0)
      return 1;
  return 0;
}

static cudaError_t
texel_filter_enqueue (const TexelFilterPlan *plan, const TexelImage *in,
                      const TexelImage *out, int row0, int row1,
                      cudaStream_t stream)
{
  int c;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      TexelFilterComp k;
      cudaError_t err;

      if (plan->fmt.comp[c].plane < 0)
        continue;
      texel_filter_comp_init (plan, in, out, c, row0, row1, &k);
      err = texel_filter_launch (plan, &k, plan->filtered[c], stream);
      if (err != cudaSuccess)
        return err;
    }
  return cudaSuccess;
}

extern "C" int
texel_cuda_filter (TexelCudaContext *ctx, const TexelFilterPlan *plan,
                   const TexelImage *in, const TexelImage *out, int row0,
                   int row1, TexelStream stream)
{
  int p;

  if (ctx == NULL || plan == NULL || in == NULL || out == NULL)
    return cudaErrorInvalidValue;
  /* The legacy default stream would serialise with all other work of the
   * process: callers must bring a stream of their own. */
  if (stream == NULL)
    return cudaErrorInvalidResourceHandle;
  if (!texel_filter_image_matches (in, plan)
      || !texel_filter_image_matches (out, plan))
    return cudaErrorInvalidValue;
  /* A block reads samples that other blocks write: never in place. */
  for (p = 0; p < plan->fmt.n_planes; p++)
    if (in->data[p] == out->data[p])
      return cudaErrorInvalidValue;
  if (row0 < 0 || row1 > plan->height || row0 > row1)
    return cudaErrorInvalidValue;
  /* A band starting on an odd row would share a chroma row with the band
   * above. */
  if ((row0 & 1) && texel_filter_vertically_subsampled (plan))
    return cudaErrorInvalidValue;
  if (row0 == row1)
    return cudaSuccess;

  /* cudaGetLastError () after a launch must report that launch, not an
   * error some earlier call of the caller's left behind. */
  (void)cudaGetLastError ();
  /* On the current device: the caller's (texel-kernel.h). */
  return texel_filter_enqueue (plan, in, out, row0, row1, (cudaStream_t)stream);
}
