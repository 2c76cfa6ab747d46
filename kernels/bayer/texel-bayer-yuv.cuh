/* gst-texel: raw Bayer input to an output with a full-resolution group
 * and a subsampled one (NV12, I420, P010, YUY2: luma and chroma) in one
 * launch. Included by texel-convert.cu after texel-resample.cuh.
 *
 * A subsampled output sample is the developed picture averaged over taps
 * that sit on output luma sites (texel_chroma_taps: centred siting takes
 * the two sites of its 2-pixel footprint along a subsampled axis,
 * co-sited siting the site under it and its two neighbours). Launched
 * per group, the picture at those sites is developed once for the luma
 * and again for the chroma, 1.5 times over with MPEG-2 siting: 2.5
 * developed pixels an input pixel at 4K -> 1080p NV12, each of them
 * costly (the profile is in docs/bench/runs-39-51.md). Here a thread
 * takes one subsampled sample and the luma sites of its footprint
 * ((1 << x_shift) x (1 << y_shift) of them), develops the picture at each
 * once (texel_bayer_sample: the generic kernel's function; the chroma
 * taps' positions come from the luma sites', which differ from the
 * generic kernel's in the last bit at most: texel_bayer_yuv_fit), stores
 * those luma samples and averages its chroma from the same values. A co-sited
 * tap one site before the block along x is the last column of the thread to the
 * left, handed over by a warp shuffle (the warp's first lane develops it
 * itself); along y (DV's siting) the thread develops that row itself.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_BAYER_YUV_CUH
#define TEXEL_BAYER_YUV_CUH

/* The taps of an output group subsampled by @shift along @axis (as
 * texel_component_taps takes them for a Bayer input, stored at full
 * resolution) in @t, and the first tap's luma site relative to the
 * group's sample's first luma site along that axis in *@first (-1 for
 * co-sited siting, else 0). Returns whether every tap sits on a luma
 * site (not so for centred siting without the chroma filter: its one tap
 * falls between two sites). */
static __host__ __device__ __forceinline__ bool
texel_bayer_yuv_taps (const TexelConvertPlan &plan, int axis, int shift,
                      TexelChromaTaps *t, int *first)
{
  int filtered = plan.chroma_filter && shift > 0;
  /* The group's sample is centred at this many luma pixels after the
   * centre of its first luma site (texel_sample_centre_f). */
  float site = shift ? plan.out_chroma_off[axis] - 0.5f : 0.0f;
  float p;

  *t = texel_chroma_taps (filtered ? shift : 0, plan.out_chroma_off[axis]);
  p = site + t->off[0];
  *first = (int)floorf (p);
  return p == (float)*first && *first >= -1;
}

/* Weight @a of @t, without indexing (which would put @t in local
 * memory). */
static __device__ __forceinline__ float
texel_bayer_yuv_weight (const TexelChromaTaps &t, int a)
{
  return a == 0 ? t.w[0] : (a == 1 ? t.w[1] : (a == 2 ? t.w[2] : 0.0f));
}

/* The developed picture (R'G'B') at the centre of output luma sample
 * (@x, @y). */
template <int METHOD>
static __device__ __forceinline__ float3
texel_bayer_yuv_site (const TexelConvertPlan &plan, const TexelSource &src,
                      const TexelSourceComp &m, int x, int y)
{
  float ox = (float)x + 0.5f, oy = (float)y + 0.5f;

  return texel_bayer_sample<METHOD> (plan, src, m,
                                     texel_map_f (plan.map_f[0], ox, oy),
                                     texel_map_f (plan.map_f[1], ox, oy));
}

/* The codes of sample (@i, @row) of @sink's group from developed R'G'B'
 * @v, or the border outside the destination rectangle. */
static __device__ __forceinline__ void
texel_bayer_yuv_codes (const TexelConvertPlan &plan, const TexelSink &sink,
                       int i, int row, float3 v,
                       uint32_t code[TEXEL_MAX_COMPONENTS])
{
  float in[TEXEL_MAX_COMPONENTS] = { v.x, v.y, v.z, plan.in_missing[3] };

  texel_group_codes (
      plan, sink,
      texel_dst_contains (
          plan, texel_sample_centre_f (i, sink.x_shift, plan.out_chroma_off[0]),
          texel_sample_centre_f (row, sink.y_shift, plan.out_chroma_off[1])),
      in, code);
}

/* Luma samples @x0 and, where @n is 2, @x0 + 1 of @row from developed
 * @v: one store of both where they are whole adjacent elements of 1 or 2
 * bytes in memory, aligned (a Y plane: 2 bytes, P010's: 4; a warp's
 * stores then fill whole sectors), else a store each. */
static __device__ __forceinline__ void
texel_bayer_yuv_store_luma (const TexelConvertPlan &plan, const TexelSink &sink,
                            int x0, int row, const float3 v[2], int n)
{
  uint32_t code[2][TEXEL_MAX_COMPONENTS];
  int bytes = sink.elem_bytes;

#pragma unroll
  for (int k = 0; k < 2; k++)
    if (k < n)
      texel_bayer_yuv_codes (plan, sink, x0 + k, row, v[k], code[k]);
  if (n == 2 && x0 + 1 < sink.width && sink.surface == 0
      && (bytes == 1 || bytes == 2) && sink.elem_stride == bytes)
    {
      uint8_t *p
          = sink.elem + (size_t)row * sink.elem_pitch + (size_t)x0 * bytes;
      uint32_t w0 = texel_element_word (sink, code[0]);
      uint32_t w1 = texel_element_word (sink, code[1]);

      if (((uintptr_t)p & (2 * bytes - 1)) == 0)
        {
          if (bytes == 1)
            *(uint16_t *)p = (uint16_t)((w0 & 0xffu) | (w1 & 0xffu) << 8);
          else
            *(uint32_t *)p = (w0 & 0xffffu) | w1 << 16;
          return;
        }
    }
#pragma unroll
  for (int k = 0; k < 2; k++)
    if (k < n && x0 + k < sink.width)
      texel_store (plan, sink, x0 + k, row, code[k]);
}

static __device__ __forceinline__ void
texel_bayer_yuv_add (float3 *sum, float w, float3 v)
{
  sum->x = fmaf (w, v.x, sum->x);
  sum->y = fmaf (w, v.y, sum->y);
  sum->z = fmaf (w, v.z, sum->z);
}

/* One thread a sample (i, row) of @chroma's group, in blocks of 8, 16 or
 * 32 columns (texel_bayer_yuv_block): a warp holds whole rows, so the
 * lane to the left of a thread is its left neighbour, but for the first
 * column of each row. Its luma sites, (i << x_shift) + dx, (row <<
 * y_shift) + dy, are @luma's samples, stored where they are in @luma's
 * rows. @awb: as texel_convert_kernel's. */
template <int METHOD>
static __global__ void
texel_bayer_yuv_kernel (const TexelConvertPlan plan, const TexelBayerSource src,
                        const TexelSink luma, const TexelSink chroma, int2 awb)
{
  const TexelSourceComp &m = src.comp[texel_bayer_source (src)];
  const int bw = 1 << chroma.x_shift, bh = 1 << chroma.y_shift;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int row = chroma.row0 + blockIdx.y * blockDim.y + threadIdx.y;
  int x0 = i << chroma.x_shift, y0 = row << chroma.y_shift;
  /* Every lane stays to the shuffle below, active or not. */
  bool active = i < chroma.width && row < chroma.row1;
  TexelChromaTaps tx, ty;
  int fx, fy;
  float3 sum = make_float3 (0.0f, 0.0f, 0.0f), last[2];

  texel_bayer_tile_load<METHOD> (plan, src, chroma, 1);
  texel_bayer_awb_gather (plan, src, awb.x, awb.y);
  (void)texel_bayer_yuv_taps (plan, 0, chroma.x_shift, &tx, &fx);
  (void)texel_bayer_yuv_taps (plan, 1, chroma.y_shift, &ty, &fy);

  /* The block's own sites: tap (dx - fx, dy - fy) of the chroma. */
#pragma unroll
  for (int dy = 0; dy < 2; dy++)
    {
      float3 v[2]
          = { make_float3 (0.0f, 0.0f, 0.0f), make_float3 (0.0f, 0.0f, 0.0f) };

      if (dy >= bh)
        continue;
#pragma unroll
      for (int dx = 0; dx < 2; dx++)
        {
          if (dx >= bw)
            continue;
          if (active)
            v[dx]
                = texel_bayer_yuv_site<METHOD> (plan, src, m, x0 + dx, y0 + dy);
          texel_bayer_yuv_add (&sum,
                               texel_bayer_yuv_weight (tx, dx - fx)
                                   * texel_bayer_yuv_weight (ty, dy - fy),
                               v[dx]);
        }
      last[dy] = bw == 2 ? v[1] : v[0];
      if (active && y0 + dy < luma.row1)
        texel_bayer_yuv_store_luma (plan, luma, x0, y0 + dy, v, bw);
    }

  /* Co-sited along x: the column before the block, the left lane's last
   * (all lanes shuffle, active or not). */
  if (fx < 0)
#pragma unroll
    for (int dy = 0; dy < 2; dy++)
      {
        float3 v;

        if (dy >= bh)
          continue;
        v.x = __shfl_up_sync (0xffffffffu, last[dy].x, 1);
        v.y = __shfl_up_sync (0xffffffffu, last[dy].y, 1);
        v.z = __shfl_up_sync (0xffffffffu, last[dy].z, 1);
        if (threadIdx.x == 0 && active)
          v = texel_bayer_yuv_site<METHOD> (plan, src, m, x0 - 1, y0 + dy);
        texel_bayer_yuv_add (&sum,
                             tx.w[0] * texel_bayer_yuv_weight (ty, dy - fy), v);
      }
  if (!active)
    return;
  /* Co-sited along y: the row above the block, developed here. */
  if (fy < 0)
#pragma unroll 1
    for (int a = 0; a < tx.n; a++)
      texel_bayer_yuv_add (
          &sum, texel_bayer_yuv_weight (tx, a) * ty.w[0],
          texel_bayer_yuv_site<METHOD> (plan, src, m, x0 + fx + a, y0 - 1));
  {
    uint32_t code[TEXEL_MAX_COMPONENTS];

    texel_bayer_yuv_codes (plan, chroma, i, row, sum, code);
    texel_store (plan, chroma, i, row, code);
  }
}

/* Whether @plan's map takes every output luma centre, and every chroma
 * tap, to an input position computed exactly in float: a whole or
 * half-pixel translation with flips, rotations by quarter turns, no
 * scale. */
static inline bool
texel_bayer_yuv_map_exact (const TexelConvertPlan *plan)
{
  for (int k = 0; k < 2; k++)
    {
      for (int j = 0; j < 2; j++)
        if (fabs (plan->map[k][j]) != 1.0 && plan->map[k][j] != 0.0)
          return false;
      if (plan->map[k][2] * 2.0 != floor (plan->map[k][2] * 2.0))
        return false;
    }
  return true;
}

/* Whether the groups of @a and @b (consecutive groups of a Bayer plan's
 * output, @src read for @a) can be one launch of texel_bayer_yuv_kernel
 * with @method, and then which is the luma (full resolution) and which
 * the chroma (subsampled by at most 2 along each axis, with taps on luma
 * sites). A chroma tap's input position is, as the CPU reference has it,
 * its sample's site's plus the tap's offset through the map; the luma
 * site's is the map of its centre: the same position, computed another
 * way, so the two may differ in the last bit of a float. Bilinear and
 * bicubic filtering are continuous, and so take the same value within
 * float rounding; nearest is not: where a position falls on a boundary
 * between two pixels (4:2:2 rotated from 40 to 31 columns puts a whole
 * column of taps there) the two ways pick different pixels, so nearest
 * takes one launch only where the map is exact. */
static inline bool
texel_bayer_yuv_fit (const TexelConvertPlan *plan, const TexelSource *src,
                     int method, const TexelSink *a, const TexelSink *b,
                     const TexelSink **luma, const TexelSink **chroma)
{
  TexelChromaTaps t;
  int first, c;

  if (b == NULL
      || (method == TEXEL_METHOD_NEAREST && !texel_bayer_yuv_map_exact (plan)))
    return false;
  *luma = a->x_shift == 0 && a->y_shift == 0 ? a : b;
  *chroma = *luma == a ? b : a;
  if ((*luma)->x_shift != 0 || (*luma)->y_shift != 0 || (*chroma)->x_shift > 1
      || (*chroma)->y_shift > 1
      || !texel_bayer_yuv_taps (*plan, 0, (*chroma)->x_shift, &t, &first)
      || !texel_bayer_yuv_taps (*plan, 1, (*chroma)->y_shift, &t, &first))
    return false;
  /* The mosaic is read through @src's first component that is read
   * (texel_bayer_source): @a's narrowing must have kept one. */
  for (c = 0; c < 3; c++)
    if (src->comp[c].kind == TEXEL_SOURCE_TEXTURE
        || src->comp[c].kind == TEXEL_SOURCE_RAW)
      return true;
  return false;
}

/* The block of texel_bayer_yuv_kernel for @chroma with @method: 32 x 8
 * threads, or fewer columns or rows where the mosaic samples the block
 * reads would not fit the tile (texel_bayer_tile_load would then fetch
 * every sample, 13 a developed pixel): a 4K mosaic to 720p takes 16 x 8.
 * The tile's extent estimated from above: the block's output luma extent
 * through the map's linear part, widened by the load's margins. */
static inline dim3
texel_bayer_yuv_block (const TexelConvertPlan *plan, const TexelSink *chroma,
                       int method)
{
  static const int shapes[][2] = { { 32, 8 }, { 32, 4 }, { 16, 8 }, { 16, 4 },
                                   { 32, 2 }, { 8, 8 },  { 16, 2 }, { 8, 4 } };
  int support = method == TEXEL_METHOD_BICUBIC ? 2 : 1;
  int shift = 1 << max (chroma->x_shift, chroma->y_shift);
  double extent[2];

  for (const int *shape : shapes)
    {
      double ex = (double)(shape[0] << chroma->x_shift);
      double ey = (double)(shape[1] << chroma->y_shift);

      for (int k = 0; k < 2; k++)
        {
          double a = fabs (plan->map[k][0]), b = fabs (plan->map[k][1]);
          double margin = support + 2 + ceil (shift * (a + b));

          extent[k] = a * ex + b * ey + 2 * margin + 2;
        }
      if (extent[0] * extent[1] <= TEXEL_BAYER_TILE_MAX)
        return dim3 (shape[0], shape[1]);
    }
  return dim3 (shapes[0][0], shapes[0][1]);
}

template <int METHOD>
static inline void
texel_bayer_yuv_launch (const TexelConvertPlan *plan,
                        const TexelBayerSource *src, const TexelSink *luma,
                        const TexelSink *chroma, int2 awb, cudaStream_t stream)
{
  dim3 block = texel_bayer_yuv_block (plan, chroma, METHOD);
  dim3 grid ((chroma->width + block.x - 1) / block.x,
             (chroma->row1 - chroma->row0 + block.y - 1) / block.y);

  texel_bayer_yuv_kernel<METHOD>
      <<<grid, block, 0, stream>>> (*plan, *src, *luma, *chroma, awb);
}

#endif /* TEXEL_BAYER_YUV_CUH */
