/* gst-texel: raw Bayer input in the CUDA resampler (texel-bayer.h says what
 * is computed; texel-bayer-cpu.c is the reference, in double). Internal to
 * the kernel library: included by texel-resample.cuh, whose
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

/* The linear value of mosaic sample (@x, @y), mirrored into the frame,
 * read from the mosaic. */
static __device__ __forceinline__ float
texel_bayer_site_fetch (const TexelConvertPlan &plan, const TexelSource &src,
                        const TexelSourceComp &m, int x, int y)
{
  int c;

  x = texel_bayer_mirror (x, plan.in_width);
  y = texel_bayer_mirror (y, plan.in_height);
  c = texel_bayer_colour (texel_bayer_class (&plan.bayer, x, y));
  return (float)texel_bayer_code (plan, src, m, x, y) * plan.bayer.scale_f[c]
         + plan.bayer.offset_f[c];
}

/* The block's share of the mosaic as linear values (texel_bayer_site_fetch),
 * loaded once by the whole block (texel_bayer_tile_load): each sample is
 * read by up to 25 pixels' 5x5 filters, more where the output interpolates
 * between developed pixels, and one fetch a sample instead of one a tap
 * takes the kernel from the texture unit's rate to the memory's. Samples
 * outside the tile (a map whose footprint does not fit) are fetched. */
#define TEXEL_BAYER_TILE_MAX 8192 /* floats: 32 KiB of shared memory */

struct TexelBayerTile
{
  int x0, y0; /* mosaic position of the first sample */
  int w, h;   /* 0 x 0: no tile, every sample is fetched */
};

static __shared__ TexelBayerTile texel_bayer_tile;
static __shared__ float texel_bayer_tile_data[TEXEL_BAYER_TILE_MAX];
/* The plan's demosaic weights (TexelBayerPlan.kernel) per tap group
 * (texel_bayer_tap_group) as floats, in units of 1: the threads of a warp
 * read those of 2 to 4 pixel classes at once, which the kernel's
 * parameter bank serves one address at a time and shared memory in one
 * go. */
static __shared__ float texel_bayer_group_weights[4][3][TEXEL_BAYER_GROUPS];

/* Fills texel_bayer_group_weights from the plan, the block's @n_threads
 * threads sharing the work (@tid: this thread's index); the caller
 * synchronises the block before they are read. */
static __device__ __forceinline__ void
texel_bayer_group_weights_load (const TexelConvertPlan &plan, int tid,
                                int n_threads)
{
  for (int k = tid; k < 4 * 3 * TEXEL_BAYER_GROUPS; k += n_threads)
    {
      int cls = k / (3 * TEXEL_BAYER_GROUPS);
      int c = k / TEXEL_BAYER_GROUPS % 3, g = k % TEXEL_BAYER_GROUPS;

      texel_bayer_group_weights[cls][c][g]
          = texel_bayer_group_weight (&plan.bayer, cls, c, g);
    }
}

/* texel_bayer_site_fetch, from the block's tile where it holds (@x, @y):
 * the same value, computed once. */
static __device__ __forceinline__ float
texel_bayer_site (const TexelConvertPlan &plan, const TexelSource &src,
                  const TexelSourceComp &m, int x, int y)
{
  const TexelBayerTile &t = texel_bayer_tile;
  unsigned tx = (unsigned)(x - t.x0), ty = (unsigned)(y - t.y0);

  if (tx < (unsigned)t.w && ty < (unsigned)t.h)
    return texel_bayer_tile_data[ty * t.w + tx];
  return texel_bayer_site_fetch (plan, src, m, x, y);
}

/* Sets each sample of tile @t to @fetch (x, y) of its mosaic position,
 * rows by the block's rows of threads and columns by its columns (no
 * division an index; the block's sides even, a thread's samples are all
 * of one colour). */
template <typename Fetch>
static __device__ __forceinline__ void
texel_bayer_tile_fill (const TexelBayerTile &t, const Fetch &fetch)
{
  for (int y = threadIdx.y; y < t.h; y += blockDim.y)
    for (int x = threadIdx.x; x < t.w; x += blockDim.x)
      texel_bayer_tile_data[y * t.w + x] = fetch (t.x0 + x, t.y0 + y);
}

/* The mosaic samples the block's output can read, from its corners'
 * input positions (the map is affine) widened by the output method's
 * support, the footprint of a subsampled group (up to 2 output luma
 * samples an axis, scaled by the map) and the 5x5 filter's 2 samples;
 * an estimate, since a sample outside is fetched instead. Called by
 * every thread of the block before any returns. */
template <int METHOD>
static __device__ void
texel_bayer_tile_load (const TexelConvertPlan &plan, const TexelSource &src,
                       const TexelSink &sink, int per_thread)
{
  int tid = threadIdx.y * blockDim.x + threadIdx.x;

  if (tid == 0)
    {
      int i0 = blockIdx.x * blockDim.x * per_thread;
      int i1 = min (i0 + (int)blockDim.x * per_thread, sink.width) - 1;
      int r0 = sink.row0 + blockIdx.y * blockDim.y;
      int r1 = min (r0 + (int)blockDim.y, sink.row1) - 1;
      float ox[2], oy[2], lo[2] = { 1e30f, 1e30f }, hi[2] = { -1e30f, -1e30f };
      int support = METHOD == TEXEL_METHOD_BICUBIC ? 2 : 1;
      TexelBayerTile t = { 0, 0, 0, 0 };

      ox[0] = texel_sample_centre_f (i0, sink.x_shift, plan.out_chroma_off[0]);
      ox[1] = texel_sample_centre_f (i1, sink.x_shift, plan.out_chroma_off[0]);
      oy[0] = texel_sample_centre_f (r0, sink.y_shift, plan.out_chroma_off[1]);
      oy[1] = texel_sample_centre_f (r1, sink.y_shift, plan.out_chroma_off[1]);
      for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
          for (int k = 0; k < 2; k++)
            {
              float v = texel_map_f (plan.map_f[k], ox[a], oy[b]);

              lo[k] = fminf (lo[k], v);
              hi[k] = fmaxf (hi[k], v);
            }
      if (i1 >= i0 && r1 >= r0)
        {
          int margin[2];

          for (int k = 0; k < 2; k++)
            {
              /* A subsampled group's taps around its site (none for a
               * full-resolution group). */
              float reach = sink.x_shift == 0 && sink.y_shift == 0
                                ? 0.0f
                                : (float)(1 << max (sink.x_shift, sink.y_shift))
                                      * (fabsf (plan.map_f[k][0])
                                         + fabsf (plan.map_f[k][1]));

              margin[k] = support + 2 + (int)ceilf (reach);
            }
          t.x0 = (int)floorf (lo[0]) - margin[0];
          t.y0 = (int)floorf (lo[1]) - margin[1];
          t.w = (int)floorf (hi[0]) + margin[0] - t.x0 + 1;
          t.h = (int)floorf (hi[1]) + margin[1] - t.y0 + 1;
          if (t.w <= 0 || t.h <= 0 || t.w > TEXEL_BAYER_TILE_MAX
              || t.w * t.h > TEXEL_BAYER_TILE_MAX)
            t.w = t.h = 0;
        }
      texel_bayer_tile = t;
    }
  texel_bayer_group_weights_load (plan, tid, blockDim.x * blockDim.y);
  __syncthreads ();
  {
    const TexelSourceComp &m = src.comp[texel_bayer_source (src)];
    const TexelBayerTile t = texel_bayer_tile;

    /* Where the block's sides are even, a thread's samples are all of one
     * colour (texel_bayer_tile_fill), whose scale and offset it then takes
     * once where the tile lies inside the frame (no mirroring):
     * texel_bayer_site_fetch but for what is the same for all of them,
     * which was most of its instructions a sample and a large share of
     * the kernel's (the profile is in docs/bench/runs-39-51.md). */
    if (t.x0 >= 0 && t.y0 >= 0 && t.x0 + t.w <= plan.in_width
        && t.y0 + t.h <= plan.in_height && ((blockDim.x | blockDim.y) & 1) == 0)
      {
        int c = texel_bayer_colour (texel_bayer_class (
            &plan.bayer, t.x0 + threadIdx.x, t.y0 + threadIdx.y));
        float scale = plan.bayer.scale_f[c], offset = plan.bayer.offset_f[c];

        texel_bayer_tile_fill (t, [&] (int x, int y) {
          return (float)texel_bayer_code (plan, src, m, x, y) * scale + offset;
        });
      }
    else
      {
        texel_bayer_tile_fill (t, [&] (int x, int y) {
          return texel_bayer_site_fetch (plan, src, m, x, y);
        });
      }
  }
  __syncthreads ();
}

/* __powf (@l, @y) (log2, product, exp2 on the hardware's unit) with
 * subnormal inputs and results flushed to 0: the same values elsewhere,
 * without the compiler's rescaling of subnormals around each of the two
 * (some six instructions a colour). Only subnormal l (below 2^-126)
 * differs: l^y is then below 2^-45 for every transfer's power (1 / 2.8
 * at least), which no 8-bit code tells from 0, and curves with a linear
 * segment do not take the power there. */
static __device__ __forceinline__ float
texel_bayer_powf_ftz (float l, float y)
{
  float r;

  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(l));
  r = __fmul_rn (r, y);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(r));
  return r;
}

/* The transfer curve in fast maths: the hardware's log2 and exp2
 * (texel_bayer_powf_ftz: __powf with subnormals flushed, whose only
 * difference, values below 2^-45, no code of any depth shows) are within
 * about 1e-6 of powf relatively (0.07 of a 16-bit code), where powf costs
 * some forty instructions a colour. A linear output (power 1) is the
 * value itself. */
static __device__ __forceinline__ float
texel_bayer_encode (const TexelBayerPlan &bp, float l)
{
  float p;

  l = __saturatef (l);
  /* Both sides computed and one selected: no branch per colour. */
  p = bp.power_f == 1.0f ? l : texel_bayer_powf_ftz (l, bp.power_f);
  p = (1.0f + bp.alpha_f) * p - bp.alpha_f;
  return l < bp.beta_f ? bp.slope_f * l : p;
}

/* The group sums (texel_bayer_tap_group) of the window centred on @c,
 * rows @s floats apart: shared memory, or a thread's own window in
 * registers (constant indices once unrolled). */
static __device__ __forceinline__ void
texel_bayer_group_sums (const float *c, int s, float g[TEXEL_BAYER_GROUPS])
{
  g[0] = c[0];
  g[1] = c[-1] + c[1];
  g[2] = c[-s] + c[s];
  g[3] = (c[-s - 1] + c[-s + 1]) + (c[s - 1] + c[s + 1]);
  g[4] = c[-2] + c[2];
  g[5] = c[-2 * s] + c[2 * s];
}

/* Demosaiced camera RGB of a pixel of class @cls from its window's group
 * sums (texel_bayer_tap_group). */
static __device__ __forceinline__ void
texel_bayer_weigh_groups (int cls, const float g[TEXEL_BAYER_GROUPS],
                          float cam[3])
{
#pragma unroll
  for (int c = 0; c < 3; c++)
    {
      const float *w = texel_bayer_group_weights[cls][c];
      float v = w[0] * g[0];

#pragma unroll
      for (int k = 1; k < TEXEL_BAYER_GROUPS; k++)
        v = fmaf (w[k], g[k], v);
      cam[c] = v;
    }
}

/* Demosaiced camera RGB @cam through the colour matrix and the transfer
 * curve: developed R'G'B'. */
static __device__ __forceinline__ float3
texel_bayer_finish (const TexelBayerPlan &bp, const float cam[3])
{
  float3 out;

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

/* Developed R'G'B' of pixel (@x, @y) (texel_bayer_develop). The loop over
 * a window that leaves the tile is kept rolled: it would otherwise unroll
 * into every output method's code, for the few pixels that take it. */
static __device__ float3
texel_bayer_pixel (const TexelConvertPlan &plan, const TexelSource &src,
                   const TexelSourceComp &m, int x, int y)
{
  const TexelBayerPlan &bp = plan.bayer;
  int cls = texel_bayer_class (&bp, x, y);
  float cam[3];
  const TexelBayerTile &t = texel_bayer_tile;
  int tx = x - 2 - t.x0, ty = y - 2 - t.y0;

  if (tx >= 0 && ty >= 0 && tx + 5 <= t.w && ty + 5 <= t.h)
    {
      /* The whole window in the tile (all but a map's far corners): the 13
       * samples of the groups at constant offsets from the centre. */
      float g[TEXEL_BAYER_GROUPS];

      texel_bayer_group_sums (texel_bayer_tile_data + (ty + 2) * t.w + tx + 2,
                              t.w, g);
      texel_bayer_weigh_groups (cls, g, cam);
    }
  else
    {
      cam[0] = cam[1] = cam[2] = 0.0f;
#pragma unroll 1
      for (int k = 0; k < TEXEL_BAYER_TAPS; k++)
        {
          int g = texel_bayer_tap_group (k);
          float v;

          if (g < 0)
            continue;
          v = texel_bayer_site (plan, src, m, x + k % 5 - 2, y + k / 5 - 2);
          cam[0] = fmaf (texel_bayer_group_weights[cls][0][g], v, cam[0]);
          cam[1] = fmaf (texel_bayer_group_weights[cls][1][g], v, cam[1]);
          cam[2] = fmaf (texel_bayer_group_weights[cls][2][g], v, cam[2]);
        }
    }
  return texel_bayer_finish (bp, cam);
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
  int nx, ny, first;

  if (METHOD == TEXEL_METHOD_NEAREST)
    return texel_bayer_pixel (plan, src, m, texel_nearest_index (px, w),
                              texel_nearest_index (py, h));
  if (METHOD == TEXEL_METHOD_BILINEAR)
    {
      first = 0;
      wx[1] = px - 0.5f - bx;
      wx[0] = 1.0f - wx[1];
      wy[1] = py - 0.5f - by;
      wy[0] = 1.0f - wy[1];
      /* On a pixel centre (every pixel of a 1:1 conversion) the second
       * tap weighs 0: developing it would add 0 to the sum (the same
       * result) for four times the work. */
      nx = wx[1] == 0.0f ? 1 : 2;
      ny = wy[1] == 0.0f ? 1 : 2;
    }
  else
    {
      nx = ny = 4;
      first = -1;
      texel_bspline_weights (px - 0.5f - bx, &wx[0], &wx[1], &wx[2], &wx[3]);
      texel_bspline_weights (py - 0.5f - by, &wy[0], &wy[1], &wy[2], &wy[3]);
    }
#pragma unroll 1
  for (int b = 0; b < ny; b++)
    {
      int j = texel_clamp ((int)by + first + b, h);
      float3 row = make_float3 (0.0f, 0.0f, 0.0f);

#pragma unroll 1
      for (int a = 0; a < nx; a++)
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
 * equal to the CPU's whatever the order. Nothing where the plan asks for
 * no statistics or the rows are empty (the same for the whole launch).
 * Every thread of the block must call it (it synchronises the block). */
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

  if (bp.awb_sums == NULL || y1 <= y0)
    return;
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
