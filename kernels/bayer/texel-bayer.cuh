/* gst-texel: raw Bayer input in the CUDA resampler (texel-bayer.h says what
 * is computed; texel-bayer-cpu.c is the reference, in double). Internal to
 * the kernel library: included by texel-cuda-sampler.cuh, whose
 * texel_read_input hands a Bayer input's samples to
 * texel_bayer_read_input.
 *
 * The mosaic is read through the texture of its plane with point sampling
 * (the host picks cudaFilterModePoint for it), or with plain loads where no
 * texture fits: one fetch per sample, turned back into the stored word.
 * Hardware filtering cannot demosaic: bilinear filtering would average
 * neighbouring samples of different colours. Each developed pixel is the
 * 5x5 demosaic filter of its class in the kernel, in float, and the
 * output's method (nearest, bilinear, bicubic) and chroma footprint then
 * interpolate between developed pixels exactly as the CPU reference does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_BAYER_CUH
#define TEXEL_BAYER_CUH

#include "texel-bayer.h"

/* The component through which the mosaic is read: the first that is
 * fetched or loaded (R, G and B all name the mosaic's plane). */
static __device__ __forceinline__ int
texel_bayer_source (const TexelSource &src)
{
#pragma unroll
  for (int c = 0; c < 3; c++)
    if (src.comp[c].kind == TEXEL_SOURCE_TEXTURE
        || src.comp[c].kind == TEXEL_SOURCE_RAW)
      return c;
  return 0;
}

/* The stored code of mosaic sample (@x, @y), inside the frame. */
static __device__ __forceinline__ unsigned
texel_bayer_code (const TexelConvertPlan &plan, const TexelSource &src,
                  const TexelSourceComp &m, int x, int y)
{
  unsigned word;

  if (m.kind == TEXEL_SOURCE_TEXTURE)
    {
      float v = tex2D<float4> (m.texture, x + 0.5f, y + 0.5f).x;

      word = (unsigned)__float2int_rn (v * src.texel_max);
    }
  else
    {
      const uint8_t *p
          = m.data + (size_t)y * m.pitch + (size_t)x * m.pixel_stride;

      word = __ldg (p);
      if (plan.in.bytes_per_sample == 2)
        word |= (unsigned)__ldg (p + 1) << 8;
    }
  return (word >> plan.bayer.shift) & plan.bayer.mask;
}

/* The linear value of mosaic sample (@x, @y), mirrored into the frame. */
static __device__ __forceinline__ float
texel_bayer_site (const TexelConvertPlan &plan, const TexelSource &src,
                  const TexelSourceComp &m, int x, int y)
{
  int c;

  x = texel_bayer_mirror (x, plan.in_width);
  y = texel_bayer_mirror (y, plan.in_height);
  c = texel_bayer_colour (texel_bayer_class (&plan.bayer, x, y));
  return (float)texel_bayer_code (plan, src, m, x, y) * plan.bayer.scale_f[c]
         + plan.bayer.offset_f[c];
}

static __device__ __forceinline__ float
texel_bayer_encode (const TexelBayerPlan &bp, float l)
{
  l = fminf (fmaxf (l, 0.0f), 1.0f);
  if (l < bp.beta_f)
    return bp.slope_f * l;
  return (1.0f + bp.alpha_f) * powf (l, bp.power_f) - bp.alpha_f;
}

/* Developed R'G'B' of pixel (@x, @y) (texel_bayer_develop). Loops kept
 * rolled: they would otherwise unroll into every output method's code. */
static __device__ float3
texel_bayer_pixel (const TexelConvertPlan &plan, const TexelSource &src,
                   const TexelSourceComp &m, int x, int y)
{
  const TexelBayerPlan &bp = plan.bayer;
  int cls = texel_bayer_class (&bp, x, y);
  float cam[3] = { 0.0f, 0.0f, 0.0f };
  float3 out;

#pragma unroll 1
  for (int k = 0; k < TEXEL_BAYER_TAPS; k++)
    {
      int wr = bp.kernel[cls][0][k], wg = bp.kernel[cls][1][k];
      int wb = bp.kernel[cls][2][k];
      float v;

      if ((wr | wg | wb) == 0)
        continue;
      v = texel_bayer_site (plan, src, m, x + k % 5 - 2, y + k / 5 - 2);
      cam[0] += (float)wr * v;
      cam[1] += (float)wg * v;
      cam[2] += (float)wb * v;
    }
#pragma unroll
  for (int c = 0; c < 3; c++)
    cam[c] *= 1.0f / 16.0f;
  out.x = texel_bayer_encode (bp, bp.ccm_f[0][0] * cam[0]
                                      + bp.ccm_f[0][1] * cam[1]
                                      + bp.ccm_f[0][2] * cam[2]);
  out.y = texel_bayer_encode (bp, bp.ccm_f[1][0] * cam[0]
                                      + bp.ccm_f[1][1] * cam[1]
                                      + bp.ccm_f[1][2] * cam[2]);
  out.z = texel_bayer_encode (bp, bp.ccm_f[2][0] * cam[0]
                                      + bp.ccm_f[2][1] * cam[1]
                                      + bp.ccm_f[2][2] * cam[2]);
  return out;
}

static __device__ __forceinline__ void
texel_bayer_add (float3 *sum, float w, float3 v)
{
  sum->x += w * v.x;
  sum->y += w * v.y;
  sum->z += w * v.z;
}

/* The developed picture at input position (@px, @py), filtered by
 * METHOD over developed pixels (the CPU reference's taps, clamped at the
 * edges, in float). */
template <int METHOD>
static __device__ float3
texel_bayer_sample (const TexelConvertPlan &plan, const TexelSource &src,
                    const TexelSourceComp &m, float px, float py)
{
  int w = plan.in_width, h = plan.in_height;
  float bx = floorf (px - 0.5f), by = floorf (py - 0.5f);
  float wx[4], wy[4];
  float3 sum = make_float3 (0.0f, 0.0f, 0.0f);
  int n, first;

  if (METHOD == TEXEL_METHOD_NEAREST)
    return texel_bayer_pixel (plan, src, m, texel_nearest_index (px, w),
                              texel_nearest_index (py, h));
  if (METHOD == TEXEL_METHOD_BILINEAR)
    {
      n = 2;
      first = 0;
      wx[1] = px - 0.5f - bx;
      wx[0] = 1.0f - wx[1];
      wy[1] = py - 0.5f - by;
      wy[0] = 1.0f - wy[1];
    }
  else
    {
      n = 4;
      first = -1;
      texel_bspline_weights (px - 0.5f - bx, &wx[0], &wx[1], &wx[2], &wx[3]);
      texel_bspline_weights (py - 0.5f - by, &wy[0], &wy[1], &wy[2], &wy[3]);
    }
#pragma unroll 1
  for (int b = 0; b < n; b++)
    {
      int j = texel_clamp ((int)by + first + b, h);
      float3 row = make_float3 (0.0f, 0.0f, 0.0f);

#pragma unroll 1
      for (int a = 0; a < n; a++)
        texel_bayer_add (
            &row, wx[a],
            texel_bayer_pixel (plan, src, m,
                               texel_clamp ((int)bx + first + a, w), j));
      texel_bayer_add (&sum, wy[b], row);
    }
  return sum;
}

/* texel_read_input for a Bayer input: R', G', B' of the developed picture
 * for an output sample of the group subsampled by (@gx, @gy) whose site
 * maps to (@sx, @sy), averaged over its footprint's taps where the group
 * is subsampled; alpha opaque. */
template <int METHOD>
static __device__ void
texel_bayer_read_input (const TexelConvertPlan &plan, const TexelSource &src,
                        int gx, int gy, float sx, float sy,
                        float in[TEXEL_MAX_COMPONENTS])
{
  const TexelSourceComp &m = src.comp[texel_bayer_source (src)];
  TexelChromaTaps tx = texel_component_taps (plan, 0, 0, 0, gx);
  TexelChromaTaps ty = texel_component_taps (plan, 0, 0, 1, gy);
  float3 v = make_float3 (0.0f, 0.0f, 0.0f);

  if (tx.n * ty.n == 1)
    {
      v = texel_bayer_sample<METHOD> (
          plan, src, m, texel_plane_coord_f (sx, 0, plan.in_chroma_off[0]),
          texel_plane_coord_f (sy, 0, plan.in_chroma_off[1]));
    }
  else
    {
      texel_for_taps (
          plan, tx, ty, sx, sy, [&] (float w, float tsx, float tsy) {
            texel_bayer_add (
                &v, w,
                texel_bayer_sample<METHOD> (
                    plan, src, m,
                    texel_plane_coord_f (tsx, 0, plan.in_chroma_off[0]),
                    texel_plane_coord_f (tsy, 0, plan.in_chroma_off[1])));
          });
    }
  in[0] = v.x;
  in[1] = v.y;
  in[2] = v.z;
  in[3] = plan.in_missing[3];
}

/* Grey-world statistics of the mosaic rows [@y0, @y1) of the statistics
 * rectangle (texel_bayer_stats), gathered by the threads of the launch
 * that also develops them: the samples strided over the grid, each
 * thread's sums added in its block's shared memory, then one 64-bit
 * atomicAdd per word and block into plan.bayer.awb_sums. Integer sums:
 * equal to the CPU's whatever the order. Every thread of the block must
 * call it (it synchronises the block). */
static __device__ void
texel_bayer_awb_gather (const TexelConvertPlan &plan, const TexelSource &src,
                        int y0, int y1)
{
  __shared__ unsigned long long part[6];
  const TexelBayerPlan &bp = plan.bayer;
  const TexelSourceComp &m = src.comp[texel_bayer_source (src)];
  unsigned long long sum[3] = { 0, 0, 0 };
  unsigned count[3] = { 0, 0, 0 };
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  long long threads
      = (long long)gridDim.x * gridDim.y * blockDim.x * blockDim.y;
  long long first = ((long long)blockIdx.y * gridDim.x + blockIdx.x)
                        * blockDim.x * blockDim.y
                    + tid;
  long long w = bp.awb_x1 - bp.awb_x0, n = w * (y1 - y0);

  if (tid < 6)
    part[tid] = 0;
  __syncthreads ();
#pragma unroll 1
  for (long long i = first; i < n; i += threads)
    {
      int x = bp.awb_x0 + (int)(i % w), y = y0 + (int)(i / w);
      unsigned code = texel_bayer_code (plan, src, m, x, y);
      int c = texel_bayer_colour (texel_bayer_class (&bp, x, y));

      if (code > bp.awb_clip)
        continue;
      sum[c] += code;
      count[c]++;
    }
#pragma unroll
  for (int c = 0; c < 3; c++)
    {
      if (sum[c] != 0)
        atomicAdd (&part[c], sum[c]);
      if (count[c] != 0)
        atomicAdd (&part[3 + c], (unsigned long long)count[c]);
    }
  __syncthreads ();
  if (tid < 6 && part[tid] != 0)
    atomicAdd (&bp.awb_sums[tid], part[tid]);
}

#endif /* TEXEL_BAYER_CUH */
