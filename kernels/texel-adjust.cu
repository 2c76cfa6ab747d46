/* gst-texel: the CUDA kernels of texeladjust.
 *
 * One thread per chroma block (one pixel for RGB, GRAY8 and formats
 * without subsampling; 2x2 luma pixels for 4:2:0, 2x1 for 4:2:2), running
 * texel_adjust_block_f () of texel-adjust.h: the very code the unit tests
 * run on the host against the double-precision reference. The plan goes
 * by value (kernel parameters live in the constant bank); the LUT kind
 * copies its LUTs into shared memory first, because lookups indexed by
 * pixel codes diverge within a warp, which the constant cache serialises
 * and shared memory does not.
 *
 * Fast math, deliberately, and what each costs against the CPU reference
 * (errors in output codes; 8-bit max code 255, 10-bit 1023):
 *
 *  - __log2f (MUFU.LG2): absolute error <= 2^-22 for x in [0.5, 2], else
 *    <= 2 ulp. Its argument on the common path is u = (V + a) / (1 + a)
 *    in [0.16, 1] (BT.709; sRGB [0.05, 1]): error in log2 L2 at most
 *    dec_pow * 2^-21 (2.4 * 4.8e-7 = 1.1e-6 for sRGB). It reaches the
 *    output scaled by enc_pow * inv_gamma * ln 2: 0.45 * 1 * 0.69 *
 *    1.1e-6 = 3.4e-7 relative at gamma 1 (< 0.001 code), and at gamma
 *    0.01 (inv_gamma 100, which matters only for L2 > 2^-0.12, i.e. u near
 *    1 where the 2^-22 absolute bound holds) 0.45 * 100 * 0.69 * 2.4 *
 *    2^-22 = 1.8e-5 relative: 0.005 code at 8 bits, 0.02 at 10 bits.
 *  - exp2f: MUFU.EX2 plus range scaling, <= 2 ulp (2.4e-7 relative):
 *    < 0.001 code.
 *  - __expf, __logf, __powf are not used: __powf is exp2f (y * __log2f
 *    (x)), which the curve already is with decode, gains, gamma and
 *    encode composed in the log2 domain (one log2 and one exp2 per
 *    channel instead of three pows). __sincosf and __fdividef are not
 *    needed: the hue rotation's sine and cosine are per plan (host,
 *    double), and divisions are reciprocals from the plan (the chroma
 *    mean divides by 1, 2 or 4, exactly).
 *  - Everything else is float arithmetic: the Y'CbCr -> R'G'B' matrix on
 *    centred integer codes (exact operands), about 3 * 2^-24 * |terms| =
 *    2e-7 absolute. The curve's slope multiplies it: at most about
 *    0.78 * T^(1/gamma - 1) * k / 4.5 (toe chord, BT.709; k = gain *
 *    2^exposure), 309 * k at gamma 10: 6e-5 * k, i.e. 0.016 * k codes at 8
 *    bits, 0.06 * k at 10 bits. Settings that multiply it past ~1 code
 *    (gamma near 10 with k >= 8) are ill-conditioned in float; the GPU
 *    test asserts the bounds on the settings it lists.
 *
 * With the error well under a code, CPU and GPU differ only where the
 * exact value lies that close to a half code: by 1 code, rarely. The
 * LUT kind (8-bit RGB, GRAY8) is exact to the LUT's float rounding
 * (2^-24 relative) plus the balance matrix in float: 1 code, rarely.
 *
 * Memory: per-byte loads and stores through the format description, as
 * the CPU reference does (this first increment does not pack stores).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "texel-adjust.h"
#include "texel-fault.h"

#define TEXEL_ADJUST_BLOCK_W 32
#define TEXEL_ADJUST_BLOCK_H 8

/* Kernel parameters beyond 4 KiB need CUDA 12.1 and Volta; keep the plan
 * within the limit every toolkit and GPU accepts. */
static_assert (sizeof (TexelAdjustPlan) <= 4096,
    "TexelAdjustPlan must fit the 4 KiB kernel parameter limit");

template <int KIND> static __global__ void
texel_adjust_kernel (const TexelAdjustPlan plan, const TexelImage in,
    const TexelImage out, int bw, int by0, int by1)
{
  /* Only the LUT kind holds its tables here. */
  __shared__ float lut[KIND == TEXEL_ADJUST_KIND_LUT ?
      3 * TEXEL_ADJUST_LUT_SIZE : 1];
  int bx = blockIdx.x * blockDim.x + threadIdx.x;
  int by = by0 + blockIdx.y * blockDim.y + threadIdx.y;

  if (KIND == TEXEL_ADJUST_KIND_LUT) {
    int n = plan.fmt.is_gray ? TEXEL_ADJUST_LUT_SIZE :
        3 * TEXEL_ADJUST_LUT_SIZE;

    for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < n;
        i += blockDim.x * blockDim.y)
      lut[i] = plan.lut[i / TEXEL_ADJUST_LUT_SIZE][i %
          TEXEL_ADJUST_LUT_SIZE];
    __syncthreads ();
  }
  if (bx >= bw || by >= by1)
    return;
  /* Each kernel instance sees one kind: the compiler drops the others. */
  TexelAdjustPlan const *p = &plan;
  texel_adjust_block_f (p, lut, &in, &out, bx, by);
}

static cudaError_t
texel_adjust_launch (const TexelAdjustPlan * plan, const TexelImage * in,
    const TexelImage * out, int row0, int row1, cudaStream_t stream)
{
  int ys = plan->y_shift;
  int bw = -((-plan->width) >> plan->x_shift);
  int bh = -((-plan->height) >> ys);
  int by0 = (row0 + (1 << ys) - 1) >> ys;
  int by1 = (row1 + (1 << ys) - 1) >> ys;
  dim3 block (TEXEL_ADJUST_BLOCK_W, TEXEL_ADJUST_BLOCK_H);

  if (by1 > bh)
    by1 = bh;
  if (by1 <= by0)
    return cudaSuccess;
  dim3 grid ((bw + TEXEL_ADJUST_BLOCK_W - 1) / TEXEL_ADJUST_BLOCK_W,
      (by1 - by0 + TEXEL_ADJUST_BLOCK_H - 1) / TEXEL_ADJUST_BLOCK_H);

  if (texel_fault_hit (TEXEL_FAULT_LAUNCH))
    return cudaErrorLaunchFailure;
  switch (plan->kind) {
    case TEXEL_ADJUST_KIND_LUT:
      texel_adjust_kernel<TEXEL_ADJUST_KIND_LUT> <<<grid, block, 0,
          stream>>> (*plan, *in, *out, bw, by0, by1);
      break;
    case TEXEL_ADJUST_KIND_YUV_SEPARABLE:
      texel_adjust_kernel<TEXEL_ADJUST_KIND_YUV_SEPARABLE> <<<grid, block, 0,
          stream>>> (*plan, *in, *out, bw, by0, by1);
      break;
    case TEXEL_ADJUST_KIND_YUV_LINEAR:
      texel_adjust_kernel<TEXEL_ADJUST_KIND_YUV_LINEAR> <<<grid, block, 0,
          stream>>> (*plan, *in, *out, bw, by0, by1);
      break;
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError ();
}

static int
texel_adjust_image_matches (const TexelImage * img,
    const TexelAdjustPlan * plan)
{
  return img->format == plan->fmt.format && img->width == plan->width
      && img->height == plan->height;
}

extern "C" int
texel_cuda_adjust (int device, const TexelAdjustPlan * plan,
    const TexelImage * in, const TexelImage * out, int row0, int row1,
    TexelAdjustStream stream)
{
  cudaError_t err;
  int previous;

  if (plan == NULL || in == NULL || out == NULL)
    return cudaErrorInvalidValue;
  /* The legacy default stream would serialise with all other work of the
   * process: callers must bring a stream of their own. */
  if (stream == NULL)
    return cudaErrorInvalidResourceHandle;
  if (!texel_adjust_image_matches (in, plan)
      || !texel_adjust_image_matches (out, plan))
    return cudaErrorInvalidValue;
  if (row0 < 0 || row1 > plan->height || row0 > row1)
    return cudaErrorInvalidValue;
  /* A band starting on an odd row would share a chroma row with the band
   * above. */
  if ((row0 & 1) && plan->y_shift)
    return cudaErrorInvalidValue;
  if (row0 == row1)
    return cudaSuccess;

  /* cudaGetLastError () after the launch must report that launch, not an
   * error some earlier call of the caller's left behind. */
  (void) cudaGetLastError ();
  err = cudaGetDevice (&previous);
  if (err != cudaSuccess)
    return err;
  if (previous != device && (err = cudaSetDevice (device)) != cudaSuccess)
    return err;
  err = texel_adjust_launch (plan, in, out, row0, row1,
      (cudaStream_t) stream);
  if (previous != device)
    (void) cudaSetDevice (previous);
  return err;
}
