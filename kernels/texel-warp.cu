/* gst-texel: the CUDA kernels of texelwarp.
 *
 * One thread per output sample of one group of output components (as
 * texelconvert's kernel): the sample's centre through the float map of
 * texel-warp.h (texel_warp_source_f: the very code the unit tests run on
 * the host against the double-precision reference), the border mode, then
 * the shared resampler (texel-cuda-sampler.cuh): texture fetches with
 * hardware filtering (nearest, bilinear, bicubic from 4 bilinear fetches),
 * the colour matrix and the stores. The lens model is a template
 * parameter, so each kernel carries only its own arithmetic.
 *
 * Fast math where it fits: __fdividef for the perspective divide and the
 * rational model's quotient, rsqrtf for the fisheye's 1 / rho, __sincosf
 * for an equirectangular view's longitude and latitude (absolute error
 * 2^-21.41 on [-pi, pi]: 2e-4 pixel at a focal length of 600); atan2f has
 * no faster intrinsic (2 ulp). Against the float map's own rounding (the
 * unit test measures under 1e-3 pixel over 1920x1080 frames), negligible.
 * No __powf, and no per-pixel trigonometry for rectilinear views:
 * rotations, pan and tilt are folded into the plan's matrix on the host,
 * and the polynomials are Horner forms in fmaf.
 *
 * The map is recomputed per sample rather than read from a precomputed
 * float2 map: a few dozen flops against 8 bytes more per sample to read,
 * on a kernel bound by memory traffic (to be measured on the GPU).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <cuda_runtime.h>

#include "texel-cuda-sampler.cuh"
#include "texel-fault.h"
#include "texel-warp.h"

/* Kernel parameters beyond 4 KiB need CUDA 12.1 and Volta; keep the plan,
 * source and sink within the limit every toolkit and GPU accepts. */
static_assert (sizeof (TexelWarpPlan) + sizeof (TexelSource)
    + sizeof (TexelSink) <= 4096
    && sizeof (TexelWarpPlan) + sizeof (TexelFastSource)
    + sizeof (TexelSink) <= 4096,
    "texelwarp's kernel parameters must fit in 4 KiB");

template <int METHOD, int MODEL, typename Source> static __global__ void
texel_warp_kernel (const TexelWarpPlan plan, const Source src,
    const TexelSink sink)
{
  const TexelConvertPlan &sp = plan.sampling;
  const int n = TexelSamplesPerThread<Source>::value;
  int i0 = blockIdx.x * blockDim.x * n + threadIdx.x;
  int row = sink.row0 + blockIdx.y * blockDim.y + threadIdx.y;
  float y;

  if (row >= sink.row1)
    return;
  y = texel_sample_centre_f (row, sink.y_shift, sp.out_chroma_off[1]);

#pragma unroll
  for (int s = 0; s < n; s++) {
    int i = i0 + s * blockDim.x;
    float x, sx = 0.0f, sy = 0.0f;
    bool inside;

    if (i >= sink.width)
      return;
    x = texel_sample_centre_f (i, sink.x_shift, sp.out_chroma_off[0]);
    inside = texel_warp_source_f (&plan, MODEL, x, y, &sx, &sy)
        && texel_warp_border_f (plan.border_mode, sp.in_width, sp.in_height,
        &sx, &sy);
    texel_resample_store<METHOD> (sp, src, sink, i, row, inside, sx, sy);
  }
}

template <int METHOD, typename Source> static void
texel_warp_launch_model (const TexelWarpPlan * plan, const Source * src,
    const TexelSink * sink, cudaStream_t stream)
{
  dim3 grid, block;

  texel_launch_grid<Source> (sink, &grid, &block);
  switch (plan->model) {
    case TEXEL_WARP_MODEL_NONE:
      texel_warp_kernel<METHOD, TEXEL_WARP_MODEL_NONE> <<<grid, block, 0,
          stream>>> (*plan, *src, *sink);
      break;
    case TEXEL_WARP_MODEL_PINHOLE:
      texel_warp_kernel<METHOD, TEXEL_WARP_MODEL_PINHOLE> <<<grid, block, 0,
          stream>>> (*plan, *src, *sink);
      break;
    default:
      texel_warp_kernel<METHOD, TEXEL_WARP_MODEL_FISHEYE> <<<grid, block, 0,
          stream>>> (*plan, *src, *sink);
      break;
  }
}

template <int METHOD> static void
texel_warp_launch_source (const TexelWarpPlan * plan, const TexelSource * src,
    const TexelFastSource * fast, const TexelSink * sink, cudaStream_t stream)
{
  if (fast != NULL)
    texel_warp_launch_model<METHOD> (plan, fast, sink, stream);
  else
    texel_warp_launch_model<METHOD> (plan, src, sink, stream);
}

/* The resampler's launch callback: @data is the warp plan. */
static cudaError_t
texel_warp_launch (const TexelConvertPlan * sampling, const TexelSource * src,
    const TexelFastSource * fast, const TexelSink * sink, cudaStream_t stream,
    const void *data)
{
  const TexelWarpPlan *plan = (const TexelWarpPlan *) data;
  if (sink->row1 <= sink->row0)
    return cudaSuccess;
  if (texel_fault_hit (TEXEL_FAULT_LAUNCH))
    return cudaErrorLaunchFailure;
  switch (sampling->method) {
    case TEXEL_METHOD_NEAREST:
      texel_warp_launch_source<TEXEL_METHOD_NEAREST> (plan, src, fast, sink,
          stream);
      break;
    case TEXEL_METHOD_BILINEAR:
      texel_warp_launch_source<TEXEL_METHOD_BILINEAR> (plan, src, fast, sink,
          stream);
      break;
    case TEXEL_METHOD_BICUBIC:
      texel_warp_launch_source<TEXEL_METHOD_BICUBIC> (plan, src, fast, sink,
          stream);
      break;
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError ();
}

extern "C" int
texel_cuda_warp (TexelCudaConverter * conv, const TexelWarpPlan * plan,
    const TexelImage * in, const TexelImage * out, int row0, int row1,
    TexelCudaStream stream)
{
  if (plan == NULL)
    return cudaErrorInvalidValue;
  if ((int) plan->model < TEXEL_WARP_MODEL_NONE
      || (int) plan->model > TEXEL_WARP_MODEL_FISHEYE)
    return cudaErrorInvalidValue;
  return texel_cuda_resample (conv, &plan->sampling, in, out, row0, row1,
      stream, texel_warp_launch, plan);
}
