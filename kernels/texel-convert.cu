/* gst-texel: the CUDA converter.
 *
 * One generic kernel, driven by data: the plan (passed by value) says where
 * every component lives, how output maps to input and which colour matrix
 * applies. Each group of output components that share a subsampling is
 * one launch in which every thread computes one output sample, exactly as
 * the CPU reference (texel-convert-cpu.c) does, in float instead of
 * double: the affine map of its centre, then the shared resampler
 * (texel-cuda-sampler.cuh: texture fetches with hardware filtering, the
 * colour matrix, the stores).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <cuda_runtime.h>

#include "texel-cuda-sampler.cuh"
#include "texel-fault.h"

/* One thread per output sample of one group. */
template <int METHOD> static __global__ void
texel_convert_kernel (const TexelConvertPlan plan, const TexelSource src,
    const TexelSink sink)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int row = sink.row0 + blockIdx.y * blockDim.y + threadIdx.y;
  float x, y;
  bool inside;

  if (i >= sink.width || row >= sink.row1)
    return;

  x = texel_sample_centre_f (i, sink.x_shift, plan.out_chroma_off[0]);
  y = texel_sample_centre_f (row, sink.y_shift, plan.out_chroma_off[1]);
  inside = x >= plan.dst_x0 && x < plan.dst_x1 && y >= plan.dst_y0
      && y < plan.dst_y1;
  texel_resample_store<METHOD> (plan, src, sink, i, row, inside,
      texel_map_f (plan.map_f[0], x, y), texel_map_f (plan.map_f[1], x, y));
}

static cudaError_t
texel_convert_launch (const TexelConvertPlan * plan, const TexelSource * src,
    const TexelSink * sink, cudaStream_t stream, const void *data)
{
  dim3 grid, block;

  texel_launch_grid (sink, &grid, &block);
  if (sink->row1 <= sink->row0)
    return cudaSuccess;
  if (texel_fault_hit (TEXEL_FAULT_LAUNCH))
    return cudaErrorLaunchFailure;
  switch (plan->method) {
    case TEXEL_METHOD_NEAREST:
      texel_convert_kernel<TEXEL_METHOD_NEAREST> <<<grid, block, 0,
          stream>>> (*plan, *src, *sink);
      break;
    case TEXEL_METHOD_BILINEAR:
      texel_convert_kernel<TEXEL_METHOD_BILINEAR> <<<grid, block, 0,
          stream>>> (*plan, *src, *sink);
      break;
    case TEXEL_METHOD_BICUBIC:
      texel_convert_kernel<TEXEL_METHOD_BICUBIC> <<<grid, block, 0,
          stream>>> (*plan, *src, *sink);
      break;
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError ();
}

extern "C" int
texel_cuda_convert (TexelCudaConverter * conv, const TexelConvertPlan * plan,
    const TexelImage * in, const TexelImage * out, int row0, int row1,
    TexelCudaStream stream)
{
  return texel_cuda_resample (conv, plan, in, out, row0, row1, stream,
      texel_convert_launch, NULL);
}
