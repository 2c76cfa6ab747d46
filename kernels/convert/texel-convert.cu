/* gst-texel: the CUDA converter.
 *
 * One generic kernel, driven by data: the plan (passed by value) says where
 * every component lives, how output maps to input and which colour matrix
 * applies. Each group of output components that share a subsampling is
 * one launch in which every thread computes one output sample, exactly as
 * the CPU reference (texel-convert-cpu.c) does, in float instead of
 * double: the affine map of its centre, then the shared resampler
 * (texel-resample.cuh: texture fetches with hardware filtering, the
 * colour matrix, the stores).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <cuda_runtime.h>

#include "texel-resample.cuh"
#include "texel-bayer-cells.cuh"
#include "texel-bayer-yuv.cuh"
#include "texel-fault.h"

/* What a block does before its threads sample: nothing, except for a
 * Bayer input, whose block develops its share of the mosaic once
 * (texel_bayer_tile_load) and, where the plan asks, gathers the grey-world
 * statistics of input rows [@awb.x, @awb.y) in the same pass
 * (texel_bayer_awb_gather). Called by every thread of the block. */
template <int METHOD, typename Source>
static __device__ __forceinline__ void
texel_convert_block_prepare (const TexelConvertPlan &plan, const Source &src,
                             const TexelSink &sink, int2 awb)
{
}

template <int METHOD>
static __device__ __forceinline__ void
texel_convert_block_prepare (const TexelConvertPlan &plan,
                             const TexelBayerSource &src, const TexelSink &sink,
                             int2 awb)
{
  texel_bayer_tile_load<METHOD> (
      plan, src, sink, TexelSamplesPerThread<TexelBayerSource>::value);
  texel_bayer_awb_gather (plan, src, awb.x, awb.y);
}

/* The output samples of one group (texel_thread_samples); Source:
 * TexelSource, TexelFastSource or TexelBayerSource (raw Bayer input). */
template <int METHOD, typename Source>
static __global__ void
texel_convert_kernel (const TexelConvertPlan plan, const Source src,
                      const TexelSink sink, int2 awb)
{
  texel_convert_block_prepare<METHOD> (plan, src, sink, awb);
  texel_thread_samples<Source> (sink, [&] (int i, int row) {
    float x = texel_sample_centre_f (i, sink.x_shift, plan.out_chroma_off[0]);
    float y = texel_sample_centre_f (row, sink.y_shift, plan.out_chroma_off[1]);

    texel_resample_store<METHOD> (
        plan, src, sink, i, row, texel_dst_contains (plan, x, y),
        texel_map_f (plan.map_f[0], x, y), texel_map_f (plan.map_f[1], x, y));
  });
}

/* The input rows whose grey-world statistics the launch for @sink
 * gathers: once a frame, by the first group's launches, each band its
 * share of the rows; none without statistics. */
static int2
texel_convert_awb_rows (const TexelConvertPlan *plan, const TexelSink *sink)
{
  int2 awb = make_int2 (0, 0);

  if (plan->bayer.awb_sums != NULL && sink->group == 0)
    texel_bayer_awb_rows (&plan->bayer, plan->map[1], plan->out_height,
                          sink->row0 << sink->y_shift,
                          sink->row1 << sink->y_shift, &awb.x, &awb.y);
  return awb;
}

template <int METHOD, typename Source>
static void
texel_convert_launch_grid (const TexelConvertPlan *plan, const Source *src,
                           const TexelSink *sink, cudaStream_t stream)
{
  dim3 grid, block;

  texel_launch_grid<Source> (sink, &grid, &block);
  texel_convert_kernel<METHOD><<<grid, block, 0, stream>>> (
      *plan, *src, *sink, texel_convert_awb_rows (plan, sink));
}

template <int METHOD>
static void
texel_convert_launch_source (const TexelConvertPlan *plan,
                             const TexelSource *src,
                             const TexelFastSource *fast, const TexelSink *sink,
                             const TexelSink *next, int *next_done,
                             cudaStream_t stream)
{
  if (fast != NULL)
    {
      texel_convert_launch_grid<METHOD> (plan, fast, sink, stream);
    }
  else if (plan->bayer.pattern != TEXEL_BAYER_NONE)
    {
      const TexelSink *luma, *chroma;
      TexelBayerSource bayer;
      int2 offset, awb;

      *static_cast<TexelSource *> (&bayer) = *src;
      /* (The cell kernel stores into memory, never through a surface.) */
      if (sink->surface == 0
          && texel_bayer_cells_fit (plan, sink, METHOD, &offset))
        {
          texel_bayer_cells_launch (plan, &bayer, sink, offset,
                                    texel_convert_awb_rows (plan, sink),
                                    stream);
        }
      else if (texel_bayer_yuv_fit (plan, src, METHOD, sink, next, &luma,
                                    &chroma))
        {
          /* The rows of whichever of the two is group 0, if either. */
          awb = texel_convert_awb_rows (plan, sink);
          if (awb.y <= awb.x)
            awb = texel_convert_awb_rows (plan, next);
          texel_bayer_yuv_launch<METHOD> (plan, &bayer, luma, chroma, awb,
                                          stream);
          *next_done = 1;
        }
      else
        {
          texel_convert_launch_grid<METHOD> (plan, &bayer, sink, stream);
        }
    }
  else
    {
      texel_convert_launch_grid<METHOD> (plan, src, sink, stream);
    }
}

static cudaError_t
texel_convert_launch (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                      const TexelSource *src, const TexelFastSource *fast,
                      const TexelSink *sink, const TexelSink *next,
                      int *next_done, cudaStream_t stream, const void *data)
{
  if (sink->row1 <= sink->row0)
    return cudaSuccess;
  if (texel_fault_hit (TEXEL_FAULT_LAUNCH))
    return cudaErrorLaunchFailure;
  switch (plan->method)
    {
      case TEXEL_METHOD_NEAREST:
        texel_convert_launch_source<TEXEL_METHOD_NEAREST> (
            plan, src, fast, sink, next, next_done, stream);
        break;
      case TEXEL_METHOD_BILINEAR:
        texel_convert_launch_source<TEXEL_METHOD_BILINEAR> (
            plan, src, fast, sink, next, next_done, stream);
        break;
      case TEXEL_METHOD_BICUBIC:
        texel_convert_launch_source<TEXEL_METHOD_BICUBIC> (
            plan, src, fast, sink, next, next_done, stream);
        break;
      default:
        return cudaErrorInvalidValue;
    }
  return cudaGetLastError ();
}

extern "C" int
texel_cuda_convert (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                    const TexelImage *in, const TexelImage *out, int row0,
                    int row1, TexelStream stream)
{
  TexelConvertPlan gathering;
  unsigned long long *sums = NULL;
  cudaError_t err;

  /* The grey-world statistics into the context's sums
   * (texel_cuda_context_take_sums): this call's part, on its stream. */
  if (ctx != NULL && plan != NULL && stream != NULL && row0 < row1
      && plan->bayer.pattern != TEXEL_BAYER_NONE && plan->bayer.awb_gather
      && plan->bayer.awb_sums == NULL)
    {
      err = texel_context_sums_begin (ctx, plan->bayer.awb_tag,
                                      (cudaStream_t)stream, &sums);
      if (err != cudaSuccess)
        return err;
      if (sums != NULL)
        {
          gathering = *plan;
          gathering.bayer.awb_sums = sums;
          plan = &gathering;
        }
    }
  err = (cudaError_t)texel_cuda_resample (ctx, plan, in, out, row0, row1,
                                          stream, texel_convert_launch, NULL);
  if (err == cudaSuccess && sums != NULL)
    err = texel_context_sums_end (ctx, sums, (cudaStream_t)stream);
  return err;
}
