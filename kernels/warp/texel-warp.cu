/* gst-texel: the CUDA kernels of texelwarp.
 *
 * One thread per output sample of one group of output components (as
 * texelconvert's kernel): the sample's centre through the float map of
 * texel-warp.h (texel_warp_source_f: the very code the unit tests run on
 * the host against the double-precision reference), the border mode, then
 * the shared resampler (texel-resample.cuh): texture fetches with
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
 * The map: recomputed per sample, or read from a precomputed map of
 * float2 source positions (one per output sample of a group, filled once
 * per plan into a buffer of the context's). The map pays where computing
 * a position costs more than reading 8 bytes (tests/bench/texel-warp-map.cu
 * compares the two; docs/design.md, "texelwarp's map"): always for
 * the fisheye model, for the pinhole model where a sample stores few
 * bytes (texel_warp_map_pays). There the map is read from the second call
 * with a plan on (a plan that changes every frame, a controller's sweep,
 * keeps computing rather than filling a map per frame); the plan's map
 * mode (TexelWarpMapMode) can force either way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <cuda_runtime.h>

#include "texel-resample.cuh"
#include "texel-fault.h"
#include "texel-warp.h"

/* Kernel parameters beyond 4 KiB need CUDA 12.1 and Volta; keep the plan,
 * source and sink within the limit every toolkit and GPU accepts. */
static_assert (sizeof (TexelWarpPlan) + sizeof (TexelSource)
                           + sizeof (TexelSink)
                       <= 4096
                   && sizeof (TexelWarpPlan) + sizeof (TexelFastSource)
                              + sizeof (TexelSink)
                          <= 4096,
               "texelwarp's kernel parameters must fit in 4 KiB");

/* The input position of output sample (@i, @row) of @sink's group: false
 * where the sample gets the border colour. */
template <int MODEL>
static __device__ __forceinline__ bool
texel_warp_position (const TexelWarpPlan &plan, const TexelSink &sink, int i,
                     int row, float *sx, float *sy)
{
  const TexelConvertPlan &sp = plan.sampling;
  float x = texel_sample_centre_f (i, sink.x_shift, sp.out_chroma_off[0]);
  float y = texel_sample_centre_f (row, sink.y_shift, sp.out_chroma_off[1]);

  return texel_warp_source_f (&plan, MODEL, x, y, sx, sy)
         && texel_warp_border_f (plan.border_mode, sp.in_width, sp.in_height,
                                 sx, sy);
}

template <int METHOD, int MODEL, typename Source>
static __global__ void
texel_warp_kernel (const TexelWarpPlan plan, const Source src,
                   const TexelSink sink)
{
  texel_thread_samples<Source> (sink, [&] (int i, int row) {
    float sx = 0.0f, sy = 0.0f;
    bool inside = texel_warp_position<MODEL> (plan, sink, i, row, &sx, &sy);

    texel_resample_store<METHOD> (plan.sampling, src, sink, i, row, inside, sx,
                                  sy);
  });
}

/* One thread per sample of the whole group: its input position, NaN
 * where it gets the border. */
template <int MODEL>
static __global__ void
texel_warp_map_fill_kernel (const TexelWarpPlan plan, const TexelSink sink,
                            float2 *map)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float sx = 0.0f, sy = 0.0f;

  if (i >= sink.width || row >= sink.height)
    return;
  if (!texel_warp_position<MODEL> (plan, sink, i, row, &sx, &sy))
    sx = sy = __int_as_float (0x7fffffff);
  map[(size_t)row * sink.width + i] = make_float2 (sx, sy);
}

/* texel_warp_kernel with the input positions read from @map. */
template <int METHOD, typename Source>
static __global__ void
texel_warp_map_kernel (const TexelConvertPlan sp, const Source src,
                       const TexelSink sink, const float2 *map)
{
  texel_thread_samples<Source> (sink, [&] (int i, int row) {
    float2 p = __ldg (&map[(size_t)row * sink.width + i]);

    texel_resample_store<METHOD> (sp, src, sink, i, row, p.x == p.x, p.x, p.y);
  });
}

template <int METHOD, typename Source>
static void
texel_warp_launch_model (const TexelWarpPlan *plan, const Source *src,
                         const TexelSink *sink, cudaStream_t stream)
{
  dim3 grid, block;

  texel_launch_grid<Source> (sink, &grid, &block);
  switch (plan->model)
    {
      case TEXEL_WARP_MODEL_NONE:
        texel_warp_kernel<METHOD, TEXEL_WARP_MODEL_NONE>
            <<<grid, block, 0, stream>>> (*plan, *src, *sink);
        break;
      case TEXEL_WARP_MODEL_PINHOLE:
        texel_warp_kernel<METHOD, TEXEL_WARP_MODEL_PINHOLE>
            <<<grid, block, 0, stream>>> (*plan, *src, *sink);
        break;
      default:
        texel_warp_kernel<METHOD, TEXEL_WARP_MODEL_FISHEYE>
            <<<grid, block, 0, stream>>> (*plan, *src, *sink);
        break;
    }
}

template <int METHOD, typename Source>
static void
texel_warp_launch_map (const TexelWarpPlan *plan, const Source *src,
                       const TexelSink *sink, const float2 *map,
                       cudaStream_t stream)
{
  dim3 grid, block;

  texel_launch_grid<Source> (sink, &grid, &block);
  texel_warp_map_kernel<METHOD>
      <<<grid, block, 0, stream>>> (plan->sampling, *src, *sink, map);
}

/* Reads the positions from @map where it is not NULL, else computes
 * them. */
template <int METHOD>
static void
texel_warp_launch_source (const TexelWarpPlan *plan, const TexelSource *src,
                          const TexelFastSource *fast, const TexelSink *sink,
                          const float2 *map, cudaStream_t stream)
{
  if (map != NULL && fast != NULL)
    texel_warp_launch_map<METHOD> (plan, fast, sink, map, stream);
  else if (map != NULL)
    texel_warp_launch_map<METHOD> (plan, src, sink, map, stream);
  else if (fast != NULL)
    texel_warp_launch_model<METHOD> (plan, fast, sink, stream);
  else
    texel_warp_launch_model<METHOD> (plan, src, sink, stream);
}

/* FNV-1a over @size bytes at @data, continuing from @hash. */
static uint64_t
texel_hash (uint64_t hash, const void *data, size_t size)
{
  const uint8_t *p = (const uint8_t *)data;
  size_t i;

  for (i = 0; i < size; i++)
    hash = (hash ^ p[i]) * 1099511628211ull;
  return hash;
}

#define TEXEL_HASH_FIELD(hash, field)                                          \
  texel_hash ((hash), &(field), sizeof (field))

/* Digest of everything texel_warp_position reads for @sink's group (field
 * by field: a plan's padding bytes are not reliably set). */
static uint64_t
texel_warp_map_key (const TexelWarpPlan *p, const TexelSink *sink)
{
  uint64_t h = 14695981039346656037ull;
  int geometry[6]
      = { p->sampling.in_width, p->sampling.in_height, sink->width,
          sink->height,         sink->x_shift,         sink->y_shift };
  int choices[5] = { (int)p->model, (int)p->projection, (int)p->border_mode,
                     p->rational, p->affine };

  h = TEXEL_HASH_FIELD (h, geometry);
  h = TEXEL_HASH_FIELD (h, choices);
  h = TEXEL_HASH_FIELD (h, p->sampling.out_chroma_off);
  h = TEXEL_HASH_FIELD (h, p->a_f);
  h = TEXEL_HASH_FIELD (h, p->rot_f);
  h = TEXEL_HASH_FIELD (h, p->fx_f);
  h = TEXEL_HASH_FIELD (h, p->fy_f);
  h = TEXEL_HASH_FIELD (h, p->cx_f);
  h = TEXEL_HASH_FIELD (h, p->cy_f);
  h = TEXEL_HASH_FIELD (h, p->k_f);
  h = TEXEL_HASH_FIELD (h, p->p_f);
  return TEXEL_HASH_FIELD (h, p->reach_f);
}

/* Fills @map with the positions of @sink's whole group, then waits for
 * it: frames in flight on other streams read it from the next call on. */
static cudaError_t
texel_warp_map_fill (const TexelWarpPlan *plan, const TexelSink *sink,
                     float2 *map, cudaStream_t stream)
{
  dim3 block (TEXEL_BLOCK_W, TEXEL_BLOCK_H);
  dim3 grid ((sink->width + TEXEL_BLOCK_W - 1) / TEXEL_BLOCK_W,
             (sink->height + TEXEL_BLOCK_H - 1) / TEXEL_BLOCK_H);
  cudaError_t err;

  switch (plan->model)
    {
      case TEXEL_WARP_MODEL_NONE:
        texel_warp_map_fill_kernel<TEXEL_WARP_MODEL_NONE>
            <<<grid, block, 0, stream>>> (*plan, *sink, map);
        break;
      case TEXEL_WARP_MODEL_PINHOLE:
        texel_warp_map_fill_kernel<TEXEL_WARP_MODEL_PINHOLE>
            <<<grid, block, 0, stream>>> (*plan, *sink, map);
        break;
      default:
        texel_warp_map_fill_kernel<TEXEL_WARP_MODEL_FISHEYE>
            <<<grid, block, 0, stream>>> (*plan, *sink, map);
        break;
    }
  err = cudaGetLastError ();
  return err != cudaSuccess ? err : cudaStreamSynchronize (stream);
}

/* Whether reading @sink's positions from a map is faster than computing
 * them (tests/bench/texel-warp-map.cu; the ratios are in docs/design.md,
 * "texelwarp's map"): the fisheye model's positions always cost more
 * than the map's 8 bytes a sample; the pinhole model's only where the
 * group stores few bytes a sample (planar and semi-planar YUV, not
 * RGBA); plain geometries never. */
static int
texel_warp_map_pays (const TexelWarpPlan *plan, const TexelSink *sink)
{
  int stored = sink->n_comp * plan->sampling.out.bytes_per_sample;

  return plan->model == TEXEL_WARP_MODEL_FISHEYE
         || (plan->model == TEXEL_WARP_MODEL_PINHOLE && stored <= 2);
}

/* The map @sink's group reads this call, filled where needed; NULL where
 * the positions are computed instead (see the header comment). */
static cudaError_t
texel_warp_map (TexelCudaContext *ctx, const TexelWarpPlan *plan,
                const TexelSink *sink, cudaStream_t stream, const float2 **map)
{
  TexelGroupBuffer *buffer;
  cudaError_t err;

  *map = NULL;
  if (plan->map == TEXEL_WARP_MAP_NEVER)
    return cudaSuccess;
  err = texel_group_buffer (ctx, sink, texel_warp_map_key (plan, sink),
                            &buffer);
  if (err != cudaSuccess)
    return err;
  if (plan->map == TEXEL_WARP_MAP_AUTO
      && !(texel_warp_map_pays (plan, sink) && buffer->calls >= 2))
    return cudaSuccess;
  if (!buffer->filled)
    {
      err = texel_group_buffer_reserve (buffer, sizeof (float2) * sink->width
                                                    * sink->height);
      if (err == cudaSuccess)
        err = texel_warp_map_fill (plan, sink, (float2 *)buffer->data, stream);
      if (err != cudaSuccess)
        return err;
      buffer->filled = 1;
    }
  buffer->read = 1;
  *map = (const float2 *)buffer->data;
  return cudaSuccess;
}

/* The resampler's launch callback: @data is the warp plan. */
static cudaError_t
texel_warp_launch (TexelCudaContext *ctx, const TexelConvertPlan *sampling,
                   const TexelSource *src, const TexelFastSource *fast,
                   const TexelSink *sink, const TexelSink *next, int *next_done,
                   cudaStream_t stream, const void *data)
{
  const TexelWarpPlan *plan = (const TexelWarpPlan *)data;
  const float2 *map;
  cudaError_t err;

  if (sink->row1 <= sink->row0)
    return cudaSuccess;
  err = texel_warp_map (ctx, plan, sink, stream, &map);
  if (err != cudaSuccess)
    return err;
  if (texel_fault_hit (TEXEL_FAULT_LAUNCH))
    return cudaErrorLaunchFailure;
  switch (sampling->method)
    {
      case TEXEL_METHOD_NEAREST:
        texel_warp_launch_source<TEXEL_METHOD_NEAREST> (plan, src, fast, sink,
                                                        map, stream);
        break;
      case TEXEL_METHOD_BILINEAR:
        texel_warp_launch_source<TEXEL_METHOD_BILINEAR> (plan, src, fast, sink,
                                                         map, stream);
        break;
      case TEXEL_METHOD_BICUBIC:
        texel_warp_launch_source<TEXEL_METHOD_BICUBIC> (plan, src, fast, sink,
                                                        map, stream);
        break;
      default:
        return cudaErrorInvalidValue;
    }
  return cudaGetLastError ();
}

extern "C" int
texel_cuda_warp (TexelCudaContext *ctx, const TexelWarpPlan *plan,
                 const TexelImage *in, const TexelImage *out, int row0,
                 int row1, TexelStream stream)
{
  if (plan == NULL)
    return cudaErrorInvalidValue;
  if ((int)plan->model < TEXEL_WARP_MODEL_NONE
      || (int)plan->model > TEXEL_WARP_MODEL_FISHEYE)
    return cudaErrorInvalidValue;
  return texel_cuda_resample (ctx, &plan->sampling, in, out, row0, row1, stream,
                              texel_warp_launch, plan);
}
