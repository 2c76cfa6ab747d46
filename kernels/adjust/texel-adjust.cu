/* gst-texel: the CUDA kernels of texeladjust.
 *
 * One thread per chroma block (one pixel for RGB, GRAY8 and formats
 * without subsampling; 2x2 luma pixels for 4:2:0, 2x1 for 4:2:2), running
 * texel_adjust_block_f () of texel-adjust.h: the very code the unit tests
 * run on the host against the double-precision reference. The plan's
 * float part goes by value (kernel parameters live in the constant bank);
 * the LUT kind copies its LUTs, and every kind the 8-bit tables of gamma
 * and videobalance, into shared memory first, because lookups indexed by
 * pixel codes diverge within a warp, which the constant cache serialises
 * and shared memory does not. A 3D LUT is a float4 cudaArray
 * read through a texture (the texture cache suits the 3D locality of
 * neighbouring pixels' colours): filtered by the hardware where its 8-bit
 * weights stay within half a code (texel-adjust.h), else 8 point fetches
 * interpolated with fmaf.
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
 *  - __fdividef (tone maps only): <= 2 ulp for divisors below 2^126 (the
 *    divisors here are 1 + x or a quadratic in x <= 2^17: far below).
 *    The tone-mapped path also leaves the log2 domain (exp2f, the map,
 *    __log2f again): about 6 ulp relative in L2 altogether, which the
 *    gamma exponent (at most 100) and the encode's power (0.45) scale to
 *    1.6e-5 relative: 0.004 code at 8 bits.
 *  - The vignette gain 1 + k ((x - cx)^2 + (y - cy)^2): dx and dy exact,
 *    their squares and sum within 2^-23 relative, log2 of the gain by
 *    __log2f (2^-22 absolute): like a change of exposure by 1e-6 stops.
 *  - 3D LUT: in software 7 fmaf lerps per channel, a few ulp of the
 *    entries' range; in hardware the weight error above (bounded per LUT
 *    by the plan, <= 0.5 code where used).
 *  - __expf, __logf, __powf are not used: __powf is exp2f (y * __log2f
 *    (x)), which the curve already is with decode, gains, linear gamma
 *    and encode composed in the log2 domain (one log2 and one exp2 per
 *    channel instead of three pows). __sincosf is not needed: the hue
 *    rotation's sine and cosine are per plan (host, double); the other
 *    divisions are reciprocals from the plan (the chroma mean divides by
 *    1, 2 or 4, exactly).
 *  - Everything else is float arithmetic: the Y'CbCr -> R'G'B' matrix on
 *    centred integer codes (exact operands), about 3 * 2^-24 * |terms| =
 *    2e-7 absolute. The curve's slope multiplies it: at most about
 *    0.78 * T^(1/gamma - 1) * k / 4.5 (toe chord, BT.709; k = gain *
 *    2^exposure), 309 * k at gamma 10: 6e-5 * k, i.e. 0.016 * k codes at 8
 *    bits, 0.06 * k at 10 bits. Settings that multiply it past ~1 code
 *    (gamma near 10 with k >= 8) are ill-conditioned in float; the GPU
 *    test asserts the bounds on the settings it lists.
 *
 *  - Stage 2 (gamma and videobalance) is not approximated: 8-bit luma
 *    through the plan's integer tables, chroma and 10-bit luma in double
 *    with __dmul_rn / __dadd_rn (one rounding per operation, as the
 *    elements' x86-64 code: an FMA would round differently and move
 *    halves), RGB through the elements' integer matrices: the CPU's codes
 *    exactly. Only 10-bit gamma is float (__log2f, exp2f: 1e-6 relative,
 *    a thousandth of a code).
 *
 * With the error well under a code, CPU and GPU differ only where the
 * exact value lies that close to a half code: by 1 code, rarely. The
 * LUT kind (8-bit RGB, GRAY8) is exact to the LUT's float rounding
 * (2^-24 relative): 1 code, rarely. Where stage 1 feeds stage 2, a stage-1
 * code off by one is mapped by stage 2 as the elements would map it (up
 * to 4 codes on RGB): rarely.
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
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "texel-adjust-pixel.h"
#include "texel-cuda.h"
#include "texel-fault.h"

#define TEXEL_ADJUST_BLOCK_W 32
#define TEXEL_ADJUST_BLOCK_H 8

/* Kernel parameters beyond 4 KiB need CUDA 12.1 and Volta; keep the plan
 * within the limit every toolkit and GPU accepts. */
static_assert (
    sizeof (TexelAdjustKernelPlan) <= 4096,
    "TexelAdjustKernelPlan must fit the 4 KiB kernel parameter limit");

template <int KIND>
static __global__ void
texel_adjust_kernel (const TexelAdjustKernelPlan plan,
                     const TexelAdjustLut3dSource lut3d, const TexelImage in,
                     const TexelImage out, int bw, int by0, int by1)
{
  /* Only the LUT kind holds its LUTs here; every kind the 8-bit tables
   * of gamma and videobalance (GRAY8's LUT has them in it already). */
  __shared__ float
      lut[KIND == TEXEL_ADJUST_KIND_LUT ? 3 * TEXEL_ADJUST_LUT_SIZE : 1];
  __shared__ uint8_t table[2 * 256];
  int bx = blockIdx.x * blockDim.x + threadIdx.x;
  int by = by0 + blockIdx.y * blockDim.y + threadIdx.y;
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int nt = blockDim.x * blockDim.y;

  if (KIND == TEXEL_ADJUST_KIND_LUT)
    {
      int n = plan.fmt.is_gray ? TEXEL_ADJUST_LUT_SIZE
                               : 3 * TEXEL_ADJUST_LUT_SIZE;

      for (int i = tid; i < n; i += nt)
        lut[i] = plan.lut[i / TEXEL_ADJUST_LUT_SIZE][i % TEXEL_ADJUST_LUT_SIZE];
    }
  if ((plan.gst.gamma || plan.gst.balance) && plan.gst.scale == 1)
    for (int i = tid; i < 2 * 256; i += nt)
      table[i] = plan.gst.table[i >> 8][i & 255];
  /* Every thread reaches this (the conditions are the plan's). */
  __syncthreads ();
  if (bx >= bw || by >= by1)
    return;
  /* Each kernel instance sees one kind: the compiler drops the others. */
  texel_adjust_block_f (&plan, (TexelAdjustKind)KIND, lut, table, &lut3d, &in,
                        &out, bx, by);
}

static cudaError_t
texel_adjust_launch (const TexelAdjustKernelPlan *plan,
                     const TexelAdjustLut3dSource *lut3d, const TexelImage *in,
                     const TexelImage *out, int row0, int row1,
                     cudaStream_t stream)
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
  switch (plan->kind)
    {
      case TEXEL_ADJUST_KIND_LUT:
        texel_adjust_kernel<TEXEL_ADJUST_KIND_LUT><<<grid, block, 0, stream>>> (
            *plan, *lut3d, *in, *out, bw, by0, by1);
        break;
      case TEXEL_ADJUST_KIND_YUV_SEPARABLE:
        texel_adjust_kernel<TEXEL_ADJUST_KIND_YUV_SEPARABLE>
            <<<grid, block, 0, stream>>> (*plan, *lut3d, *in, *out, bw, by0,
                                          by1);
        break;
      case TEXEL_ADJUST_KIND_YUV_RGB:
        texel_adjust_kernel<TEXEL_ADJUST_KIND_YUV_RGB>
            <<<grid, block, 0, stream>>> (*plan, *lut3d, *in, *out, bw, by0,
                                          by1);
        break;
      case TEXEL_ADJUST_KIND_RGB_PIXEL:
        texel_adjust_kernel<TEXEL_ADJUST_KIND_RGB_PIXEL>
            <<<grid, block, 0, stream>>> (*plan, *lut3d, *in, *out, bw, by0,
                                          by1);
        break;
      default:
        return cudaErrorInvalidValue;
    }
  return cudaGetLastError ();
}

static int
texel_adjust_image_matches (const TexelImage *img,
                            const TexelAdjustKernelPlan *plan)
{
  return img->format == plan->fmt.format && img->width == plan->width
         && img->height == plan->height;
}

/* ------------------------------------------------------------------ */
/* 3D LUTs */

struct TexelCudaLut3d
{
  int device;
  int size;
  cudaArray_t array;
  cudaTextureObject_t linear, point;
};

/* Clamped, unnormalised coordinates (texel centres at i + 0.5), floats
 * as stored. */
static cudaError_t
texel_lut3d_texture (cudaArray_t array, enum cudaTextureFilterMode filter,
                     cudaTextureObject_t *texture)
{
  struct cudaResourceDesc res;
  struct cudaTextureDesc tex;
  int a;

  memset (&res, 0, sizeof (res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  memset (&tex, 0, sizeof (tex));
  for (a = 0; a < 3; a++)
    tex.addressMode[a] = cudaAddressModeClamp;
  tex.filterMode = filter;
  tex.readMode = cudaReadModeElementType;
  tex.normalizedCoords = 0;
  return TEXEL_FAULTY (TEXEL_FAULT_TEXTURE,
                       cudaCreateTextureObject (texture, &res, &tex, NULL));
}

static cudaError_t
texel_lut3d_upload (TexelCudaLut3d *lut, const TexelCube *cube)
{
  size_t n = (size_t)cube->size, i;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4> ();
  cudaExtent extent = make_cudaExtent (n, n, n);
  cudaMemcpy3DParms copy;
  float4 *host;
  cudaError_t err;

  err = TEXEL_FAULTY (TEXEL_FAULT_DEVICE_ALLOC,
                      cudaMalloc3DArray (&lut->array, &desc, extent, 0));
  if (err != cudaSuccess)
    return err;
  /* float4 texels (3-channel arrays do not exist): a staging copy. */
  host = (float4 *)malloc (n * n * n * sizeof (float4));
  if (host == NULL)
    return cudaErrorMemoryAllocation;
  for (i = 0; i < n * n * n; i++)
    host[i] = make_float4 (cube->table[3 * i], cube->table[3 * i + 1],
                           cube->table[3 * i + 2], 0.0f);
  memset (&copy, 0, sizeof (copy));
  copy.srcPtr = make_cudaPitchedPtr (host, n * sizeof (float4), n, n);
  copy.dstArray = lut->array;
  copy.extent = extent;
  copy.kind = cudaMemcpyHostToDevice;
  err = TEXEL_FAULTY (TEXEL_FAULT_COPY, cudaMemcpy3D (&copy));
  free (host);
  if (err != cudaSuccess)
    return err;
  err = texel_lut3d_texture (lut->array, cudaFilterModeLinear, &lut->linear);
  if (err != cudaSuccess)
    return err;
  return texel_lut3d_texture (lut->array, cudaFilterModePoint, &lut->point);
}

static void
texel_lut3d_release (TexelCudaLut3d *lut)
{
  if (lut->point)
    cudaDestroyTextureObject (lut->point);
  if (lut->linear)
    cudaDestroyTextureObject (lut->linear);
  if (lut->array)
    cudaFreeArray (lut->array);
}

extern "C" int
texel_cuda_lut3d_new (TexelCudaContext *ctx, const TexelCube *cube,
                      TexelCudaLut3d **out)
{
  TexelCudaLut3d *lut;
  cudaError_t err;

  *out = NULL;
  if (ctx == NULL || cube == NULL || cube->table == NULL
      || cube->size < TEXEL_CUBE_MIN_SIZE || cube->size > TEXEL_CUBE_MAX_SIZE)
    return cudaErrorInvalidValue;
  lut = (TexelCudaLut3d *)calloc (1, sizeof (*lut));
  if (lut == NULL)
    return cudaErrorMemoryAllocation;
  /* On the current device: the caller's (texel-kernel.h). */
  lut->device = texel_cuda_context_device (ctx);
  lut->size = cube->size;
  err = texel_lut3d_upload (lut, cube);
  if (err != cudaSuccess)
    {
      texel_lut3d_release (lut);
      free (lut);
      return err;
    }
  *out = lut;
  return cudaSuccess;
}

/* With the LUT's device current (the caller's). */
extern "C" void
texel_cuda_lut3d_free (TexelCudaLut3d *lut)
{
  if (lut == NULL)
    return;
  texel_lut3d_release (lut);
  free (lut);
}

/* ------------------------------------------------------------------ */

extern "C" int
texel_cuda_adjust (TexelCudaContext *ctx, const TexelAdjustPlan *plan,
                   const TexelImage *in, const TexelImage *out, int row0,
                   int row1, TexelStream stream)
{
  TexelAdjustLut3dSource lut3d;
  const TexelAdjustKernelPlan *kp;
  const TexelCudaLut3d *lut;

  if (ctx == NULL || plan == NULL || in == NULL || out == NULL)
    return cudaErrorInvalidValue;
  kp = &plan->kernel;
  lut = plan->lut3d;
  memset (&lut3d, 0, sizeof (lut3d));
  if (kp->lut3d)
    {
      if (lut == NULL || lut->size != kp->lut3d_size
          || lut->device != texel_cuda_context_device (ctx))
        return cudaErrorInvalidValue;
      lut3d.linear = lut->linear;
      lut3d.point = lut->point;
    }
  /* The legacy default stream would serialise with all other work of the
   * process: callers must bring a stream of their own. */
  if (stream == NULL)
    return cudaErrorInvalidResourceHandle;
  if (!texel_adjust_image_matches (in, kp)
      || !texel_adjust_image_matches (out, kp))
    return cudaErrorInvalidValue;
  if (row0 < 0 || row1 > kp->height || row0 > row1)
    return cudaErrorInvalidValue;
  /* A band starting on an odd row would share a chroma row with the band
   * above. */
  if ((row0 & 1) && kp->y_shift)
    return cudaErrorInvalidValue;
  if (row0 == row1)
    return cudaSuccess;

  /* cudaGetLastError () after the launch must report that launch, not an
   * error some earlier call of the caller's left behind. */
  (void)cudaGetLastError ();
  /* On the current device: the caller's (texel-kernel.h). */
  return texel_adjust_launch (kp, &lut3d, in, out, row0, row1,
                              (cudaStream_t)stream);
}
