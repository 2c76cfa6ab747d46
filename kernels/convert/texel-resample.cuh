/* gst-texel: the CUDA resampler shared by the kernels that move pixels
 * (texelconvert, texelwarp), over convert's plan (TexelConvertPlan; a
 * warp plan holds one for its sampling). Internal to the kernel library
 * (C++).
 *
 * Such a kernel computes, for every output sample, where in the input it
 * comes from; everything else is shared: input components read through
 * texture objects (the sampler, texel-cuda-sampler.cuh) where the
 * hardware can filter them (8-bit or 16-bit samples in 1, 2 or 4-channel
 * texels, aligned as the device requires), otherwise with plain loads
 * filtered in float, exactly as the CPU reference (texel-convert-cpu.c)
 * does, in float instead of double; a raw Bayer mosaic developed on the
 * way (texel-bayer.cuh); the colour matrix; the stores; and on the host
 * (texel-resample.cu), the groups of output components that share a
 * subsampling (NV12: {Y} then {U, V}; RGBA: one group; one launch each),
 * what each launch reads through the context's texture cache and the
 * checks every entry point makes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_RESAMPLE_CUH
#define TEXEL_RESAMPLE_CUH

#include <math.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "texel-convert.h"
#include "texel-cuda.h"
#include "texel-cuda-context.cuh"
#include "texel-cuda-sampler.cuh"
#include "texel-sample-map.h"

/* Matrix coefficients this small change no output code even at 10 bits;
 * dropping them spares the fetch of an input component (the luma, for
 * the chroma of a YUV to YUV conversion whose matrix rounds to almost
 * diagonal). */
#define TEXEL_NEGLIGIBLE_COEF 1e-7f

/* How a kernel obtains one input component. */
enum
{
  TEXEL_SOURCE_UNUSED = 0, /* no output of the group depends on it */
  TEXEL_SOURCE_MISSING,    /* the format lacks it: plan.in_missing */
  TEXEL_SOURCE_TEXTURE,    /* one texture fetch (or 4, bicubic) */
  TEXEL_SOURCE_SHARED,     /* a channel of the previous fetch */
  TEXEL_SOURCE_RAW         /* plain loads, filtered in float */
};

typedef struct
{
  cudaTextureObject_t texture;
  const uint8_t *data; /* raw: sample 0 of row 0 */
  int pitch;
  int pixel_stride;
  int width, height; /* samples of this component */
  int x_shift, y_shift;
  int kind;
  int lane; /* channel of the texel holding it */
} TexelSourceComp;

typedef struct
{
  TexelSourceComp comp[TEXEL_MAX_COMPONENTS];
  float code_scale; /* 1 / largest code */
  float texel_max;  /* normalised texel -> stored word */
  /* Filtered normalised texel -> normalised code: 1 for 8 bits; P010
   * texels read v16 / 65535 with v16 = v10 << 6, while codes are
   * v10 / 1023. */
  float texel_scale;
} TexelSource;

typedef struct
{
  uint8_t *data; /* sample 0 of row 0 */
  int pitch;
  int pixel_stride;
} TexelSinkComp;

/* One group of output components and how to store it. */
typedef struct
{
  int group; /* index of its first output component */
  int n_comp;
  int x_shift, y_shift;
  int width;      /* samples per row */
  int height;     /* rows of the group's own grid */
  int row0, row1; /* the rows to do */
  /* Output j = sum_c coef[j][c] * input[c] + coef[j][4], c over the four
   * input components: the plan's matrix row, or alpha carried through. */
  float coef[TEXEL_MAX_COMPONENTS][5];
  float border[TEXEL_MAX_COMPONENTS];
  TexelSinkComp comp[TEXEL_MAX_COMPONENTS];
  /* The whole pixel element (all components of one plane, plus RGBx's
   * padding byte) in one store of elem_bytes (1, 2 or 4) where that is
   * aligned; elem_bytes 0: a store per component byte. */
  uint8_t *elem;
  int elem_pitch;
  int elem_stride;
  int elem_bytes;
  int comp_bit[TEXEL_MAX_COMPONENTS]; /* position in the element word */
  uint32_t fill_word;                 /* padding bytes, 0xff */
  uint32_t fill_mask;                 /* padding bytes, per-byte stores */
  /* Where not 0, the elements go through this surface object over a CUDA
   * array (an NVMM output surface array written in place,
   * texel_cuda_context_alias_array) instead of into elem. */
  cudaSurfaceObject_t surface;
} TexelSink;

/* The fast path, for the common case: every input component comes from a
 * texture and the output is whole 8-bit elements (RGBA, BGRx, a Y or UV
 * plane). The host folds what the generic path decides per sample (which
 * texel channel holds which component, the components the format lacks,
 * the texel scale, the order of the output bytes, RGBx's padding) into one
 * matrix per texture from texel channels to output bytes, so a sample is a
 * fetch per texture, a few fused multiply-adds and one store. Those
 * per-sample choices were most of the generic path's instructions and
 * made the warp and convert kernels instruction-bound (the profiles are
 * in docs/performance.md). */
/* TexelFastTexture.form */
enum
{
  TEXEL_FAST_FULL,        /* any */
  TEXEL_FAST_DIAGONAL,    /* k == l only: RGBA -> RGBA, BGRx -> BGRx */
  TEXEL_FAST_ONE_CHANNEL, /* l == 0: a Y plane */
  TEXEL_FAST_TWO_CHANNELS /* l < 2: NV12's UV plane */
};

typedef struct
{
  cudaTextureObject_t texture;
  /* Input luma position -> this texture's coordinate: p = s * scale +
   * offset per axis (texel_plane_coord_f as one fused multiply-add). */
  float scale[2], offset[2];
  float last[2]; /* last texel's index, for nearest */
  int shift[2];  /* its components' subsampling */
  /* Output byte k += m[k][l] * channel l of the filtered texel. */
  float m[4][4];
  int form; /* which m[k][l] can be non-zero */
} TexelFastTexture;

typedef struct
{
  int n_tex;
  /* Output byte k, before the textures: the matrix's constant, the
   * components the input lacks; 1 for padding bytes (0xff). */
  float bias[4];
  uint32_t border_word; /* the border colour, packed */
  TexelFastTexture tex[TEXEL_MAX_COMPONENTS];
} TexelFastSource;

/* ------------------------------------------------------------------ */
/* Device code */

/* A channel of a fetched texel as a normalised code. */
template <int METHOD>
static __device__ __forceinline__ float
texel_texel_value (const TexelConvertPlan &plan, const TexelSource &src,
                   float4 texel, int lane)
{
  float v = texel_lane (texel, lane);

  if (METHOD == TEXEL_METHOD_NEAREST)
    {
      /* Back to the stored word, then as the CPU reads it: bit exact, and
       * P010's unused low bits are dropped. */
      unsigned word = (unsigned)__float2int_rn (v * src.texel_max);

      return (float)texel_word_code (word, &plan.in) * src.code_scale;
    }
  return v * src.texel_scale;
}

static __device__ __forceinline__ float
texel_raw_code (const TexelConvertPlan &plan, const TexelSource &src,
                const TexelSourceComp &sc, int i, int j)
{
  const uint8_t *p
      = sc.data + (size_t)j * sc.pitch + (size_t)i * sc.pixel_stride;
  unsigned word = __ldg (p);

  /* Byte loads: this path also serves addresses of any alignment. */
  if (plan.in.bytes_per_sample == 2)
    word |= (unsigned)__ldg (p + 1) << 8;
  return (float)texel_word_code (word, &plan.in) * src.code_scale;
}

static __device__ __forceinline__ int
texel_clamp (int i, int size)
{
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

/* The CPU reference's filters, in float, from plain loads. */
template <int METHOD>
static __device__ __forceinline__ float
texel_raw_sample (const TexelConvertPlan &plan, const TexelSource &src,
                  const TexelSourceComp &sc, float px, float py)
{
  if (METHOD == TEXEL_METHOD_NEAREST)
    {
      return texel_raw_code (plan, src, sc, texel_nearest_index (px, sc.width),
                             texel_nearest_index (py, sc.height));
    }
  else if (METHOD == TEXEL_METHOD_BILINEAR)
    {
      float bx = floorf (px - 0.5f), by = floorf (py - 0.5f);
      float fx = px - 0.5f - bx, fy = py - 0.5f - by;
      int i0 = texel_clamp ((int)bx, sc.width);
      int i1 = texel_clamp ((int)bx + 1, sc.width);
      int j0 = texel_clamp ((int)by, sc.height);
      int j1 = texel_clamp ((int)by + 1, sc.height);
      float top = (1.0f - fx) * texel_raw_code (plan, src, sc, i0, j0)
                  + fx * texel_raw_code (plan, src, sc, i1, j0);
      float bottom = (1.0f - fx) * texel_raw_code (plan, src, sc, i0, j1)
                     + fx * texel_raw_code (plan, src, sc, i1, j1);

      return (1.0f - fy) * top + fy * bottom;
    }
  else
    {
      float bx = floorf (px - 0.5f), by = floorf (py - 0.5f);
      float wx[4], wy[4];
      float sum = 0.0f;

      texel_bspline_weights (px - 0.5f - bx, &wx[0], &wx[1], &wx[2], &wx[3]);
      texel_bspline_weights (py - 0.5f - by, &wy[0], &wy[1], &wy[2], &wy[3]);
#pragma unroll
      for (int b = 0; b < 4; b++)
        {
          int j = texel_clamp ((int)by - 1 + b, sc.height);
          float row = 0.0f;

#pragma unroll
          for (int a = 0; a < 4; a++)
            row += wx[a]
                   * texel_raw_code (plan, src, sc,
                                     texel_clamp ((int)bx - 1 + a, sc.width),
                                     j);
          sum += wy[b] * row;
        }
      return sum;
    }
}

/* The taps along output axis @axis for an input component subsampled by
 * (@cx, @cy) and an output group subsampled by @out_shift along it:
 * component_taps of the CPU reference. */
static __device__ __forceinline__ TexelChromaTaps
texel_component_taps (const TexelConvertPlan &plan, int cx, int cy, int axis,
                      int out_shift)
{
  int in_shift = (axis ^ plan.axes_swapped) ? cy : cx;
  int filtered
      = plan.chroma_filter && texel_chroma_filtered (out_shift, in_shift);

  return texel_chroma_taps (filtered ? out_shift : 0,
                            plan.out_chroma_off[axis]);
}

/* Calls @tap (w, sx, sy) for each tap of @tx x @ty around input position
 * (@sx, @sy), with its weight and input position. At most 3 x 3 taps,
 * unrolled so that the tap arrays stay in registers. */
template <typename Tap>
static __device__ __forceinline__ void
texel_for_taps (const TexelConvertPlan &plan, const TexelChromaTaps &tx,
                const TexelChromaTaps &ty, float sx, float sy, const Tap &tap)
{
#pragma unroll
  for (int b = 0; b < 3; b++)
    {
#pragma unroll
      for (int a = 0; a < 3; a++)
        {
          if (a < tx.n && b < ty.n)
            tap (tx.w[a] * ty.w[b],
                 sx + texel_tap_shift_f (plan.map_f[0], tx.off[a], ty.off[b]),
                 sy + texel_tap_shift_f (plan.map_f[1], tx.off[a], ty.off[b]));
        }
    }
}

/* All four channels of a fetched texel as normalised codes. */
template <int METHOD>
static __device__ __forceinline__ float4
texel_texel_values (const TexelConvertPlan &plan, const TexelSource &src,
                    float4 t)
{
  return make_float4 (texel_texel_value<METHOD> (plan, src, t, 0),
                      texel_texel_value<METHOD> (plan, src, t, 1),
                      texel_texel_value<METHOD> (plan, src, t, 2),
                      texel_texel_value<METHOD> (plan, src, t, 3));
}

/* The four input components for an output sample of the group subsampled
 * by (@gx, @gy) whose site maps to input luma position (@sx, @sy): each
 * at the site, or averaged over the taps of the sample's footprint
 * (texel_component_taps). */
template <int METHOD>
static __device__ __forceinline__ void
texel_read_input (const TexelConvertPlan &plan, const TexelSource &src, int gx,
                  int gy, float sx, float sy, float in[TEXEL_MAX_COMPONENTS])
{
  float4 texel = make_float4 (0.0f, 0.0f, 0.0f, 0.0f);
  /* The last texture's channels averaged over its taps. */
  float4 taps = texel;
#pragma unroll
  for (int c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelSourceComp &sc = src.comp[c];
      TexelChromaTaps tx, ty;
      float px, py;

      in[c] = 0.0f;
      if (sc.kind == TEXEL_SOURCE_UNUSED)
        continue;
      if (sc.kind == TEXEL_SOURCE_MISSING)
        {
          in[c] = plan.in_missing[c];
          continue;
        }
      tx = texel_component_taps (plan, sc.x_shift, sc.y_shift, 0, gx);
      ty = texel_component_taps (plan, sc.x_shift, sc.y_shift, 1, gy);
      if (tx.n * ty.n > 1)
        {
          /* Components sharing a texel share its shifts, hence its taps. */
          if (sc.kind == TEXEL_SOURCE_TEXTURE)
            taps = make_float4 (0.0f, 0.0f, 0.0f, 0.0f);
          texel_for_taps (
              plan, tx, ty, sx, sy, [&] (float w, float tsx, float tsy) {
                float qx = texel_plane_coord_f (tsx, sc.x_shift,
                                                plan.in_chroma_off[0]);
                float qy = texel_plane_coord_f (tsy, sc.y_shift,
                                                plan.in_chroma_off[1]);

                if (sc.kind == TEXEL_SOURCE_RAW)
                  {
                    in[c]
                        += w * texel_raw_sample<METHOD> (plan, src, sc, qx, qy);
                  }
                else if (sc.kind == TEXEL_SOURCE_TEXTURE)
                  {
                    float4 v = texel_texel_values<METHOD> (
                        plan, src,
                        texel_fetch<METHOD> (sc.texture, sc.width, sc.height,
                                             qx, qy));

                    taps.x += w * v.x;
                    taps.y += w * v.y;
                    taps.z += w * v.z;
                    taps.w += w * v.w;
                  }
              });
          if (sc.kind != TEXEL_SOURCE_RAW)
            in[c] = texel_lane (taps, sc.lane);
          continue;
        }
      px = texel_plane_coord_f (sx, sc.x_shift, plan.in_chroma_off[0]);
      py = texel_plane_coord_f (sy, sc.y_shift, plan.in_chroma_off[1]);
      if (sc.kind == TEXEL_SOURCE_RAW)
        {
          in[c] = texel_raw_sample<METHOD> (plan, src, sc, px, py);
          continue;
        }
      if (sc.kind == TEXEL_SOURCE_TEXTURE)
        texel = texel_fetch<METHOD> (sc.texture, sc.width, sc.height, px, py);
      in[c] = texel_texel_value<METHOD> (plan, src, texel, sc.lane);
    }
}

/* Rounds to the nearest code (halves up, as the CPU's round () of a
 * non-negative value) after clamping to [0, 1]. */
static __device__ __forceinline__ uint32_t
texel_quantize (const TexelConvertPlan &plan, float v)
{
  float max_code = (float)((1 << plan.out.bits) - 1);

  v = fminf (fmaxf (v, 0.0f), 1.0f);
  return (uint32_t)floorf (v * max_code + 0.5f) << plan.out.shift;
}

/* Stores @word, the whole element of sample @i of @row (sink.elem_bytes
 * of it): through the sink's surface object where it has one, else into
 * memory. */
static __device__ __forceinline__ void
texel_store_element (const TexelSink &sink, int i, int row, uint32_t word)
{
  if (sink.surface != 0)
    {
      int x = i * sink.elem_stride; /* surfaces take x in bytes */

      if (sink.elem_bytes == 4)
        surf2Dwrite (word, sink.surface, x, row);
      else if (sink.elem_bytes == 2)
        surf2Dwrite ((uint16_t)word, sink.surface, x, row);
      else
        surf2Dwrite ((uint8_t)word, sink.surface, x, row);
      return;
    }

  uint8_t *p = sink.elem + (size_t)row * sink.elem_pitch
               + (size_t)i * sink.elem_stride;

  if (sink.elem_bytes == 4)
    *(uint32_t *)p = word;
  else if (sink.elem_bytes == 2)
    *(uint16_t *)p = (uint16_t)word;
  else
    *p = (uint8_t)word;
}

/* The whole element (sink.elem_bytes of it) holding codes @code. */
static __device__ __forceinline__ uint32_t
texel_element_word (const TexelSink &sink,
                    const uint32_t code[TEXEL_MAX_COMPONENTS])
{
  uint32_t word = sink.fill_word;

#pragma unroll
  for (int j = 0; j < TEXEL_MAX_COMPONENTS; j++)
    if (j < sink.n_comp)
      word |= code[j] << sink.comp_bit[j];
  return word;
}

static __device__ __forceinline__ void
texel_store (const TexelConvertPlan &plan, const TexelSink &sink, int i,
             int row, const uint32_t code[TEXEL_MAX_COMPONENTS])
{
  if (sink.elem_bytes)
    {
      texel_store_element (sink, i, row, texel_element_word (sink, code));
      return;
    }

#pragma unroll
  for (int j = 0; j < TEXEL_MAX_COMPONENTS; j++)
    {
      if (j < sink.n_comp)
        {
          uint8_t *p = sink.comp[j].data + (size_t)row * sink.comp[j].pitch
                       + (size_t)i * sink.comp[j].pixel_stride;

          p[0] = (uint8_t)code[j];
          if (plan.out.bytes_per_sample == 2)
            p[1] = (uint8_t)(code[j] >> 8); /* little-endian */
        }
    }
  if (sink.fill_mask)
    {
      uint8_t *p = sink.elem + (size_t)row * sink.elem_pitch
                   + (size_t)i * sink.elem_stride;

#pragma unroll
      for (int b = 0; b < 4; b++)
        if (sink.fill_mask & (1u << b))
          p[b] = 0xff;
    }
}

/* The normalised values of @sink's components for input @in: the group's
 * colour matrix. */
static __device__ __forceinline__ void
texel_group_values (const TexelSink &sink, const float in[TEXEL_MAX_COMPONENTS],
                    float value[TEXEL_MAX_COMPONENTS])
{
#pragma unroll
  for (int j = 0; j < TEXEL_MAX_COMPONENTS; j++)
    {
      value[j] = sink.coef[j][4];
#pragma unroll
      for (int c = 0; c < TEXEL_MAX_COMPONENTS; c++)
        value[j] += sink.coef[j][c] * in[c];
    }
}

/* Whether output luma position (@x, @y), a sample's centre, lies in the
 * destination rectangle (else the sample is the border). */
static __device__ __forceinline__ bool
texel_dst_contains (const TexelConvertPlan &plan, float x, float y)
{
  return x >= plan.dst_x0 && x < plan.dst_x1 && y >= plan.dst_y0
         && y < plan.dst_y1;
}

/* The codes of a sample of @sink's group: input components @in through
 * the group's colour matrix, or the border where @inside is false (@in
 * then unread). */
static __device__ __forceinline__ void
texel_group_codes (const TexelConvertPlan &plan, const TexelSink &sink,
                   bool inside, const float in[TEXEL_MAX_COMPONENTS],
                   uint32_t code[TEXEL_MAX_COMPONENTS])
{
  float value[TEXEL_MAX_COMPONENTS];

  if (inside)
    {
      texel_group_values (sink, in, value);
    }
  else
    {
#pragma unroll
      for (int j = 0; j < TEXEL_MAX_COMPONENTS; j++)
        value[j] = sink.border[j];
    }
#pragma unroll
  for (int j = 0; j < TEXEL_MAX_COMPONENTS; j++)
    code[j] = texel_quantize (plan, value[j]);
}

/* Sample @i of row @row of @sink's group (texel_group_codes), stored. */
static __device__ __forceinline__ void
texel_group_store (const TexelConvertPlan &plan, const TexelSink &sink, int i,
                   int row, bool inside, const float in[TEXEL_MAX_COMPONENTS])
{
  uint32_t code[TEXEL_MAX_COMPONENTS];

  texel_group_codes (plan, sink, inside, in, code);
  texel_store (plan, sink, i, row, code);
}

/* Raw Bayer input (texel-bayer.cuh): a source type of its own, so that
 * only kernels instantiated for it carry the demosaic. */
struct TexelBayerSource : TexelSource
{
};

#include "texel-bayer.cuh"

template <int METHOD>
static __device__ __forceinline__ void
texel_read_input (const TexelConvertPlan &plan, const TexelBayerSource &src,
                  int gx, int gy, float sx, float sy,
                  float in[TEXEL_MAX_COMPONENTS])
{
  texel_bayer_read_input<METHOD> (plan, src, gx, gy, sx, sy, in);
}

/* The output sample @i of row @row of @sink's group: the input at input
 * luma position (@sx, @sy) through the group's colour matrix, or the
 * border where @inside is false. Source: TexelSource or TexelBayerSource
 * (TexelFastSource: below). */
template <int METHOD, typename Source>
static __device__ __forceinline__ void
texel_resample_store (const TexelConvertPlan &plan, const Source &src,
                      const TexelSink &sink, int i, int row, bool inside,
                      float sx, float sy)
{
  float in[TEXEL_MAX_COMPONENTS];

  if (inside)
    texel_read_input<METHOD> (plan, src, sink.x_shift, sink.y_shift, sx, sy,
                              in);
  texel_group_store (plan, sink, i, row, inside, in);
}

/* floor (clamp (@v, 0, 1) * 255 + 0.5), as texel_quantize at 8 bits, in
 * the low byte: adding 2^23 rounding down leaves floor (x) in the low
 * mantissa bits, a full-rate add instead of a quarter-rate conversion. */
static __device__ __forceinline__ uint32_t
texel_code8 (float v)
{
  float x = fmaf (__saturatef (v), 255.0f, 0.5f);

  return __float_as_uint (__fadd_rd (x, 8388608.0f));
}

/* Adds the filtered texel @t through @ft's matrix to @v, with only the
 * products that can be non-zero (the choice is the same for every thread:
 * a uniform branch, cheaper than 16 fused multiply-adds). */
static __device__ __forceinline__ void
texel_fast_accumulate (const TexelFastTexture &ft, float4 t, float v[4])
{
  if (ft.form == TEXEL_FAST_DIAGONAL)
    {
#pragma unroll
      for (int k = 0; k < 4; k++)
        v[k] = fmaf (ft.m[k][k], texel_lane (t, k), v[k]);
    }
  else if (ft.form == TEXEL_FAST_ONE_CHANNEL)
    {
#pragma unroll
      for (int k = 0; k < 4; k++)
        v[k] = fmaf (ft.m[k][0], t.x, v[k]);
    }
  else if (ft.form == TEXEL_FAST_TWO_CHANNELS)
    {
#pragma unroll
      for (int k = 0; k < 4; k++)
        v[k] = fmaf (ft.m[k][1], t.y, fmaf (ft.m[k][0], t.x, v[k]));
    }
  else
    {
#pragma unroll
      for (int k = 0; k < 4; k++)
        v[k] = fmaf (
            ft.m[k][3], t.w,
            fmaf (ft.m[k][2], t.z,
                  fmaf (ft.m[k][1], t.y, fmaf (ft.m[k][0], t.x, v[k]))));
    }
}

/* texel_fetch at input luma position (@sx, @sy); nearest clamps in float
 * (the same sample as texel_nearest_index: floor, then into the frame). */
template <int METHOD>
static __device__ __forceinline__ float4
texel_fast_fetch (const TexelFastTexture &ft, float sx, float sy)
{
  float px = fmaf (sx, ft.scale[0], ft.offset[0]);
  float py = fmaf (sy, ft.scale[1], ft.offset[1]);

  if (METHOD == TEXEL_METHOD_NEAREST)
    return tex2D<float4> (ft.texture,
                          fminf (fmaxf (floorf (px), 0.0f), ft.last[0]) + 0.5f,
                          fminf (fmaxf (floorf (py), 0.0f), ft.last[1]) + 0.5f);
  return texel_fetch<METHOD> (ft.texture, 0, 0, px, py);
}

/* texel_fast_fetch for an output sample of @sink's group whose site maps
 * to (@sx, @sy): averaged over the taps of its footprint where the
 * texture is finer than the group (texel_read_input). The normalised
 * texels are linear in the codes, nearest's included (8-bit textures),
 * so they are averaged before the matrix. */
template <int METHOD>
static __device__ __forceinline__ float4
texel_fast_footprint (const TexelConvertPlan &plan, const TexelSink &sink,
                      const TexelFastTexture &ft, float sx, float sy)
{
  TexelChromaTaps tx
      = texel_component_taps (plan, ft.shift[0], ft.shift[1], 0, sink.x_shift);
  TexelChromaTaps ty
      = texel_component_taps (plan, ft.shift[0], ft.shift[1], 1, sink.y_shift);
  float4 sum = make_float4 (0.0f, 0.0f, 0.0f, 0.0f);

  if (tx.n * ty.n == 1)
    return texel_fast_fetch<METHOD> (ft, sx, sy);
  texel_for_taps (plan, tx, ty, sx, sy, [&] (float w, float tsx, float tsy) {
    float4 t = texel_fast_fetch<METHOD> (ft, tsx, tsy);

    sum.x += w * t.x;
    sum.y += w * t.y;
    sum.z += w * t.z;
    sum.w += w * t.w;
  });
  return sum;
}

/* texel_resample_store for a TexelFastSource: one store of the whole
 * element (sink.elem_bytes of 8-bit codes). */
template <int METHOD>
static __device__ __forceinline__ void
texel_resample_store (const TexelConvertPlan &plan, const TexelFastSource &src,
                      const TexelSink &sink, int i, int row, bool inside,
                      float sx, float sy)
{
  uint32_t word = src.border_word;

  if (inside)
    {
      float v[4] = { src.bias[0], src.bias[1], src.bias[2], src.bias[3] };

#pragma unroll
      for (int t = 0; t < TEXEL_MAX_COMPONENTS; t++)
        {
          const TexelFastTexture &ft = src.tex[t];

          if (t >= src.n_tex)
            break;
          texel_fast_accumulate (
              ft, texel_fast_footprint<METHOD> (plan, sink, ft, sx, sy), v);
        }
      word = __byte_perm (
          __byte_perm (texel_code8 (v[0]), texel_code8 (v[1]), 0x0040),
          __byte_perm (texel_code8 (v[2]), texel_code8 (v[3]), 0x0040), 0x5410);
    }
  texel_store_element (sink, i, row, word);
}

/* Output samples per thread, a warp's width apart (so that each store
 * instruction stays coalesced): the fast path's samples are light enough
 * that sharing the per-thread work (indices, the row's part of the map)
 * and overlapping their texture fetches pays. */
template <typename Source> struct TexelSamplesPerThread
{
  static const int value = 1;
};
template <> struct TexelSamplesPerThread<TexelFastSource>
{
  static const int value = 4;
};

/* Calls @sample (i, row) for each output sample of this thread:
 * TexelSamplesPerThread<Source> samples of one of @sink's rows, a warp's
 * width apart. */
template <typename Source, typename Sample>
static __device__ __forceinline__ void
texel_thread_samples (const TexelSink &sink, const Sample &sample)
{
  const int n = TexelSamplesPerThread<Source>::value;
  int i0 = blockIdx.x * blockDim.x * n + threadIdx.x;
  int row = sink.row0 + blockIdx.y * blockDim.y + threadIdx.y;

  if (row >= sink.row1)
    return;
#pragma unroll
  for (int s = 0; s < n; s++)
    {
      int i = i0 + s * blockDim.x;

      if (i >= sink.width)
        return;
      sample (i, row);
    }
}

/* The grid of a kernel over @sink's group: TEXEL_BLOCK_W x TEXEL_BLOCK_H
 * threads a block, each doing TexelSamplesPerThread<Source> samples of
 * one row. */
template <typename Source>
static inline void
texel_launch_grid (const TexelSink *sink, dim3 *grid, dim3 *block)
{
  int per_block = TEXEL_BLOCK_W * TexelSamplesPerThread<Source>::value;

  *block = dim3 (TEXEL_BLOCK_W, TEXEL_BLOCK_H);
  *grid = dim3 ((sink->width + per_block - 1) / per_block,
                (sink->row1 - sink->row0 + TEXEL_BLOCK_H - 1) / TEXEL_BLOCK_H);
}

/* ------------------------------------------------------------------ */
/* Host side (texel-resample.cu) */

/* Launches the kernel of one group (@sink) on @stream, on the grid of
 * texel_launch_grid, reading the input as @src says or, where
 * @fast is not NULL, through the fast path (texel_resample_store for a
 * TexelFastSource). @next: the group launched after it (NULL after the
 * last); a launch that writes that group too sets *@next_done, and it
 * is not launched again. @ctx: for texel_group_buffer. @data: the
 * caller's. */
typedef cudaError_t (*TexelGroupLaunch) (
    TexelCudaContext *ctx, const TexelConvertPlan *plan, const TexelSource *src,
    const TexelFastSource *fast, const TexelSink *sink, const TexelSink *next,
    int *next_done, cudaStream_t stream, const void *data);

/* @ctx's buffer for the group of @sink, for data derived from a plan
 * whose digest is @key: a new key (after waiting until no queued kernel
 * reads the old data) restarts its count of calls and empties it. Counts
 * this call. */
cudaError_t texel_group_buffer (TexelCudaContext *ctx, const TexelSink *sink,
                                uint64_t key, TexelGroupBuffer **buffer);

/* Checks the images and rows against @plan (formats, sizes, even first
 * row for 4:2:0 output, a stream of the caller's), reads @in through
 * textures or plain loads, and calls @launch for each group of output
 * components over rows [row0, row1), on the current device (the
 * caller's). Returns 0 or a cudaError_t. */
int texel_cuda_resample (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                         const TexelImage *in, const TexelImage *out, int row0,
                         int row1, TexelStream stream, TexelGroupLaunch launch,
                         const void *data);

#endif /* TEXEL_RESAMPLE_CUH */
