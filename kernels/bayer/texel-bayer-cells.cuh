/* gst-texel: raw Bayer at 1:1 in 2x2 cells, texelconvert's common camera
 * case (a mosaic developed to RGBA, BGRx and the other 4-byte 8-bit
 * layouts, whole or cropped, without scaling, rotation or border).
 * Included by texel-convert.cu after texel-resample.cuh.
 *
 * The generic kernel (texel-bayer.cuh) develops one output sample a
 * thread through the resampler's data-driven choices, which leave it
 * instruction-bound, most of its instructions integer index work, and
 * several times slower than NPP's demosaic (the profile and the times
 * are in docs/bench/runs-30-35.md). Here a block of 32 x 8 threads loads its
 * 68 x 36 mosaic samples, linearised, into shared memory in row order (no
 * division), each thread copies its 8 x 6 window into registers and
 * develops the 2 x 4 pixels of two 2 x 2 cells from it. The cells are
 * aligned on the pattern's red sample, so each pixel's class is known
 * when compiling: no divergence, only the weights the demosaic uses are
 * multiplied, and they are constants of the parameter bank. The maths is
 * the generic kernel's, function for function (group sums,
 * texel_bayer_finish, the group's colour matrix, a permutation here,
 * texel_quantize at 8 bits): the outputs are the same but for the order
 * of float additions.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_BAYER_CELLS_CUH
#define TEXEL_BAYER_CELLS_CUH

#define TEXEL_BAYER_CELLS_BX 32
#define TEXEL_BAYER_CELLS_BY 8
/* Pixel rows a thread develops: two cells, one above the other, which
 * share their window's rows and the thread's fixed work (its tile
 * samples, indices and constants), and make the block's tile taller
 * (fewer samples loaded a pixel: 1.2 instead of 1.33). */
#define TEXEL_BAYER_CELLS_PY 4
/* The block's mosaic samples: its cells and 2 samples of window around
 * them. */
#define TEXEL_BAYER_CELLS_TW (2 * TEXEL_BAYER_CELLS_BX + 4)
#define TEXEL_BAYER_CELLS_TH (TEXEL_BAYER_CELLS_PY * TEXEL_BAYER_CELLS_BY + 4)

typedef float TexelBayerCellsTile[TEXEL_BAYER_CELLS_TH][TEXEL_BAYER_CELLS_TW];

/* The demosaic weights (TexelBayerPlan.kernel, per tap group, in units
 * of 1) of each pixel class: the launch's cells start on red (the grid is
 * shifted by the first row's and column's offset from red), so the class
 * of each pixel of a cell is known when compiling, the kernel multiplies
 * only the groups its form weighs (texel_bayer_form_groups) and reads
 * the weights as constants of its parameter bank (operands of the
 * multiply-adds, no load). */
typedef struct
{
  float w[4][3][TEXEL_BAYER_GROUPS];
} TexelBayerCellWeights;

/* How a developed pixel becomes its 4-byte element. Every layout the
 * kernel takes holds R', G' and B' themselves (a developed Bayer picture
 * is full-range R'G'B' and these outputs are RGB: the group's matrix is a
 * permutation, texel_bayer_cells_word_init), so each colour's code goes
 * into its byte by one byte permute (sel[c], 0x7654: none) over a word
 * the host fills once with the padding bytes and the codes that depend
 * on no colour (alpha): no matrix, alpha and packing a pixel. */
typedef struct
{
  uint32_t sel[3];
  uint32_t base;
} TexelBayerCellsWord;

/* Sets the thread's samples of the tile, 32 columns and 8 rows apart
 * (constant trip counts: the loops unroll), to @code (x, y, fx, fy) *
 * @scale + @offset: @code's mosaic code of tile position (x, y), whose
 * position as a float (fx, fy) comes with it, exactly (integers below
 * 2^24), without a conversion a sample. */
template <typename Code>
static __device__ __forceinline__ void
texel_bayer_cells_fill (TexelBayerCellsTile tile, float scale, float offset,
                        const Code &code)
{
  const int nx = (TEXEL_BAYER_CELLS_TW + TEXEL_BAYER_CELLS_BX - 1)
                 / TEXEL_BAYER_CELLS_BX;
  const int ny = (TEXEL_BAYER_CELLS_TH + TEXEL_BAYER_CELLS_BY - 1)
                 / TEXEL_BAYER_CELLS_BY;
  const float tx = (float)threadIdx.x, ty = (float)threadIdx.y;

#pragma unroll
  for (int j = 0; j < ny; j++)
#pragma unroll
    for (int i = 0; i < nx; i++)
      {
        int x = threadIdx.x + i * TEXEL_BAYER_CELLS_BX;
        int y = threadIdx.y + j * TEXEL_BAYER_CELLS_BY;

        /* Only the last column and row of samples can pass the tile
         * (a thread's index is below the block's size). */
        if ((i < nx - 1 || x < TEXEL_BAYER_CELLS_TW)
            && (j < ny - 1 || y < TEXEL_BAYER_CELLS_TH))
          tile[y][x] = code (x, y, tx + (float)(i * TEXEL_BAYER_CELLS_BX),
                             ty + (float)(j * TEXEL_BAYER_CELLS_BY))
                           * scale
                       + offset;
      }
}

/* The block's linearised mosaic samples (texel_bayer_site_fetch) from
 * (@mx, @my). A thread's samples are 32 columns and 8 rows apart, so all
 * of one colour: where the block's samples lie inside the frame (all
 * blocks but those at its edges), no mirroring, the colour's scale and
 * offset taken once, and the reading chosen once (texel_bayer_code's,
 * and for a texture whose words are the codes themselves, no shift or
 * mask: the rounded word, as a float). */
static __device__ __forceinline__ void
texel_bayer_cells_tile (const TexelConvertPlan &plan,
                        const TexelBayerSource &src, const TexelSourceComp &m,
                        int mx, int my, TexelBayerCellsTile tile)
{
  const TexelBayerPlan &bp = plan.bayer;

  if (mx >= 0 && my >= 0 && mx + TEXEL_BAYER_CELLS_TW <= plan.in_width
      && my + TEXEL_BAYER_CELLS_TH <= plan.in_height)
    {
      int c = texel_bayer_colour (
          texel_bayer_class (&bp, mx + threadIdx.x, my + threadIdx.y));
      float scale = bp.scale_f[c], offset = bp.offset_f[c];
      /* Texel centres: (float) (mx + x) + 0.5f, exactly. */
      float cx = (float)mx + 0.5f, cy = (float)my + 0.5f;
      unsigned words = (unsigned)src.texel_max;

      if (m.kind != TEXEL_SOURCE_TEXTURE)
        texel_bayer_cells_fill (
            tile, scale, offset, [&] (int x, int y, float, float) {
              return (float)texel_bayer_code (plan, src, m, mx + x, my + y);
            });
      else if (bp.shift == 0 && (bp.mask & words) == words)
        texel_bayer_cells_fill (
            tile, scale, offset, [&] (int, int, float fx, float fy) {
              return rintf (tex2D<float4> (m.texture, cx + fx, cy + fy).x
                            * src.texel_max);
            });
      else
        texel_bayer_cells_fill (
            tile, scale, offset, [&] (int, int, float fx, float fy) {
              float v = tex2D<float4> (m.texture, cx + fx, cy + fy).x;
              unsigned word = (unsigned)__float2int_rn (v * src.texel_max);

              return (float)((word >> bp.shift) & bp.mask);
            });
      return;
    }
  for (int y = threadIdx.y; y < TEXEL_BAYER_CELLS_TH; y += TEXEL_BAYER_CELLS_BY)
    for (int x = threadIdx.x; x < TEXEL_BAYER_CELLS_TW;
         x += TEXEL_BAYER_CELLS_BX)
      tile[y][x] = texel_bayer_site_fetch (plan, src, m, mx + x, my + y);
}

/* Demosaiced camera RGB of a pixel of class @cls from its group sums:
 * the sum of texel_bayer_weigh_groups without the terms FORM weighs 0
 * (adding 0 leaves a sum unchanged, but for the sign of a zero, which no
 * code shows). */
template <int FORM>
static __device__ __forceinline__ void
texel_bayer_cells_weigh (const float w[3][TEXEL_BAYER_GROUPS], int cls,
                         const float g[TEXEL_BAYER_GROUPS], float cam[3])
{
#pragma unroll
  for (int c = 0; c < 3; c++)
    {
      const int used = texel_bayer_form_groups (FORM, cls, c);
      bool first = true;

#pragma unroll
      for (int k = 0; k < TEXEL_BAYER_GROUPS; k++)
        if (used >> k & 1)
          {
            cam[c] = first ? w[c][k] * g[k] : fmaf (w[c][k], g[k], cam[c]);
            first = false;
          }
    }
}

/* Whether @bp's colour matrix is the identity and its transfer curve
 * linear: texel_bayer_finish then gives the demosaiced values clipped to
 * [0, 1] (the matrix adds products by 0, the curve is 1 * l - 0 with no
 * linear segment below l), which the cell kernel's NEUTRAL computes
 * alone. */
static inline bool
texel_bayer_cells_neutral (const TexelBayerPlan *bp)
{
  for (int k = 0; k < 3; k++)
    for (int c = 0; c < 3; c++)
      if (bp->ccm_f[k][c] != (k == c ? 1.0f : 0.0f))
        return false;
  return bp->power_f == 1.0f && bp->alpha_f == 0.0f
         && (bp->beta_f <= 0.0f || bp->slope_f == 1.0f);
}

/* Stores a thread's two pixels of @row from column @i: one 8-byte store
 * where both are inside the group and their bytes are 8-byte aligned
 * (every thread of a warp then writes 8 of its 256 contiguous bytes: 8
 * sectors a store, where a word a pixel took 16, half of each unused),
 * else a word each inside it (a crop that starts on a green column
 * shifts the cells' columns by one). */
static __device__ __forceinline__ void
texel_bayer_cells_store (const TexelSink &sink, int row, int i,
                         const uint32_t words[2], unsigned rows)
{
  uint8_t *p;

  if ((unsigned)(row - sink.row0) >= rows)
    return;
  /* 4-byte elements (texel_bayer_cells_fit): 4 bytes apart. */
  p = sink.elem + (size_t)row * sink.elem_pitch + (ptrdiff_t)i * 4;
  if (i >= 0 && i + 1 < sink.width && ((uintptr_t)p & 7) == 0)
    {
      *(uint2 *)p = make_uint2 (words[0], words[1]);
      return;
    }
#pragma unroll
  for (int dx = 0; dx < 2; dx++)
    if ((unsigned)(i + dx) < (unsigned)sink.width)
      *(uint32_t *)(p + 4 * dx) = words[dx];
}

/* Output samples (i, row) read mosaic sample (i + @offset.x, row +
 * @offset.y); the cells start @first.x columns and @first.y rows before
 * the group's first (its class: the pixel classes of a cell are then
 * those of the pattern's first cell, red first). @awb: the input rows
 * whose grey-world statistics this launch gathers
 * (texel_bayer_awb_gather), empty for none. FORM: the launch's filters'
 * texel_bayer_form; NEUTRAL: texel_bayer_cells_neutral (the demosaic
 * alone, as NPP's). The bilinear demosaic alone fits in 32 registers,
 * which lets 8 blocks (64 warps, the most on 8.0 and 9.0) share a
 * multiprocessor; the other forms need more (asking them for 32 spills;
 * 5 blocks, 51 registers, keeps them at the 48 or fewer they take
 * unasked). TEXEL_MIN_BLOCKS: no more than the GPU holds. */
template <int FORM, bool NEUTRAL>
static __global__ void
__launch_bounds__ (
    TEXEL_BAYER_CELLS_BX *TEXEL_BAYER_CELLS_BY,
    TEXEL_MIN_BLOCKS (FORM == TEXEL_BAYER_FORM_BILINEAR && NEUTRAL ? 8 : 5,
                      TEXEL_BAYER_CELLS_BX *TEXEL_BAYER_CELLS_BY))
    texel_bayer_cells_kernel (const TexelConvertPlan plan,
                              const TexelBayerSource src, const TexelSink sink,
                              const TexelBayerCellWeights weights,
                              const TexelBayerCellsWord pack, int2 offset,
                              int2 first, int2 awb)
{
  /* Rows of an even number of floats, 8-byte aligned: a thread reads its
   * window's rows as pairs of samples (one 64-bit load each, a warp's
   * 256 contiguous bytes without bank conflicts). */
  __shared__ __align__ (8) TexelBayerCellsTile tile;
  const int i0 = (int)blockIdx.x * 2 * TEXEL_BAYER_CELLS_BX - first.x;
  const int r0 = sink.row0
                 + (int)blockIdx.y * TEXEL_BAYER_CELLS_PY * TEXEL_BAYER_CELLS_BY
                 - first.y;
  const unsigned rows = (unsigned)(sink.row1 - sink.row0);
  float w[TEXEL_BAYER_CELLS_PY + 4][6];

  texel_bayer_cells_tile (plan, src, src.comp[texel_bayer_source (src)],
                          i0 + offset.x - 2, r0 + offset.y - 2, tile);
  __syncthreads ();
  texel_bayer_awb_gather (plan, src, awb.x, awb.y);

  /* Only the samples the form's groups read are kept (the others' loads
   * go unused and are dropped when compiling). */
#pragma unroll
  for (int y = 0; y < TEXEL_BAYER_CELLS_PY + 4; y++)
#pragma unroll
    for (int x = 0; x < 6; x += 2)
      {
        float2 pair = *(const float2 *)&tile[TEXEL_BAYER_CELLS_PY * threadIdx.y
                                             + y][2 * threadIdx.x + x];

        w[y][x] = pair.x;
        w[y][x + 1] = pair.y;
      }

#pragma unroll
  for (int dy = 0; dy < TEXEL_BAYER_CELLS_PY; dy++)
    {
      const int row = r0 + TEXEL_BAYER_CELLS_PY * threadIdx.y + dy;
      const int i = i0 + 2 * threadIdx.x;
      uint32_t words[2];

#pragma unroll
      for (int dx = 0; dx < 2; dx++)
        {
          /* Cells start on red: the class of (dx, dy) is that on the
           * pattern's first cell. */
          const int cls = 2 * (dy & 1) + dx;
          float g[TEXEL_BAYER_GROUPS], cam[3];
          uint32_t word;
          float3 v;

          /* Pixels outside the group's rows or columns (the first cells'
           * shift, the last blocks' excess) are developed (from mirrored
           * samples past the frame) and not stored: no branch around the
           * arithmetic. */
          texel_bayer_group_sums (&w[2 + dy][2 + dx], 6, g);
          texel_bayer_cells_weigh<FORM> (weights.w[cls], cls, g, cam);
          /* Codes stored as developed: the transfer curve's powers may
           * flush subnormals (texel_bayer_powf_ftz). */
          v = NEUTRAL ? make_float3 (__saturatef (cam[0]), __saturatef (cam[1]),
                                     __saturatef (cam[2]))
                      : texel_bayer_finish (plan.bayer, cam);
          /* texel_group_codes at 8 bits (texel_code8: the code in the
           * low byte), one word. */
          word = __byte_perm (texel_code8 (v.x), pack.base, pack.sel[0]);
          word = __byte_perm (texel_code8 (v.y), word, pack.sel[1]);
          words[dx] = __byte_perm (texel_code8 (v.z), word, pack.sel[2]);
        }
      texel_bayer_cells_store (sink, row, i, words, rows);
    }
}

/* texel_code8 on the host, exactly: the fused multiply-add rounded once,
 * then floored. */
static inline uint32_t
texel_bayer_cells_code8 (float v)
{
  return (uint32_t)floorf (fmaf (fminf (fmaxf (v, 0.0f), 1.0f), 255.0f, 0.5f));
}

/* Fills @pack for @sink's group where each of its outputs is one colour
 * itself (coefficient 1, no offset) or depends on no colour (alpha: the
 * matrix row texel_group_values computes, whose colour terms are 0, gives
 * the same value for every pixel); false where it is not. */
static inline bool
texel_bayer_cells_word_init (const TexelConvertPlan *plan,
                             const TexelSink *sink, TexelBayerCellsWord *pack)
{
  pack->base = sink->fill_word;
  for (int c = 0; c < 3; c++)
    pack->sel[c] = 0x7654;
  for (int j = 0; j < sink->n_comp; j++)
    {
      const float *k = sink->coef[j];
      int shift = sink->comp_bit[j], colour = -1, n = 0;
      uint32_t sel = 0x7654 & ~(0xfu << shift / 2);

      if (shift % 8 != 0 || shift > 24)
        return false;
      for (int c = 0; c < 3; c++)
        if (k[c] != 0.0f)
          {
            colour = c;
            n++;
          }
      if (n == 0)
        {
          uint32_t code = texel_bayer_cells_code8 (
              fmaf (k[3], plan->in_missing[3], k[4]));

          pack->base = (pack->base & ~(0xffu << shift)) | code << shift;
          continue;
        }
      if (n != 1 || k[colour] != 1.0f || k[3] != 0.0f || k[4] != 0.0f
          || pack->sel[colour] != 0x7654)
        return false;
      pack->sel[colour] = sel;
    }
  return true;
}

/* Whether @sink's group of a Bayer plan can take the cell kernel, and
 * then the mosaic position of output sample (0, 0) in @offset: the map a
 * whole-pixel translation (1:1: nearest and bilinear read each developed
 * pixel alone there, bicubic's B-spline would blur), every output sample
 * inside the destination rectangle and on a mosaic sample inside the
 * frame, one 4-byte 8-bit element a pixel holding the colours themselves
 * (texel_bayer_cells_word_init: all of the RGB layouts). */
static inline bool
texel_bayer_cells_fit (const TexelConvertPlan *plan, const TexelSink *sink,
                       int method, int2 *offset)
{
  const double (*map)[3] = plan->map;
  int width = sink->width, height = sink->height;
  TexelBayerCellsWord pack;

  if (method == TEXEL_METHOD_BICUBIC || sink->elem_bytes != 4
      || sink->x_shift != 0 || sink->y_shift != 0 || plan->out.bits != 8
      || plan->out.shift != 0)
    return false;
  if (map[0][0] != 1.0 || map[0][1] != 0.0 || map[1][0] != 0.0
      || map[1][1] != 1.0 || map[0][2] != floor (map[0][2])
      || map[1][2] != floor (map[1][2]))
    return false;
  if (!(plan->dst_x0 <= 0.5f && plan->dst_x1 > width - 0.5f
        && plan->dst_y0 <= 0.5f && plan->dst_y1 > height - 0.5f)
      || !texel_bayer_cells_word_init (plan, sink, &pack)
      || plan->bayer.form < 0)
    return false;
  offset->x = (int)map[0][2];
  offset->y = (int)map[1][2];
  return offset->x >= 0 && offset->x + width <= plan->in_width && offset->y >= 0
         && offset->y + height <= plan->in_height;
}

/* The launch of FORM's kernel for @plan's development. */
template <int FORM>
static inline void
texel_bayer_cells_develop (const TexelConvertPlan *plan,
                           const TexelBayerSource *src, const TexelSink *sink,
                           const TexelBayerCellWeights *weights,
                           const TexelBayerCellsWord *pack, int2 offset,
                           int2 first, int2 awb, dim3 grid, cudaStream_t stream)
{
  dim3 block (TEXEL_BAYER_CELLS_BX, TEXEL_BAYER_CELLS_BY);

  if (texel_bayer_cells_neutral (&plan->bayer))
    texel_bayer_cells_kernel<FORM, true><<<grid, block, 0, stream>>> (
        *plan, *src, *sink, *weights, *pack, offset, first, awb);
  else
    texel_bayer_cells_kernel<FORM, false><<<grid, block, 0, stream>>> (
        *plan, *src, *sink, *weights, *pack, offset, first, awb);
}

static inline void
texel_bayer_cells_launch (const TexelConvertPlan *plan,
                          const TexelBayerSource *src, const TexelSink *sink,
                          int2 offset, int2 awb, cudaStream_t stream)
{
  const int per_x = 2 * TEXEL_BAYER_CELLS_BX;
  const int per_y = TEXEL_BAYER_CELLS_PY * TEXEL_BAYER_CELLS_BY;
  /* The class of output sample (0, row0): its offset from red. */
  int cls = texel_bayer_class (&plan->bayer, offset.x, offset.y + sink->row0);
  int2 first = make_int2 (cls & 1, cls >> 1);
  dim3 grid ((sink->width + first.x + per_x - 1) / per_x,
             (sink->row1 - sink->row0 + first.y + per_y - 1) / per_y);
  TexelBayerCellWeights weights;
  TexelBayerCellsWord pack;

  (void)texel_bayer_cells_word_init (plan, sink, &pack);
  for (int k = 0; k < 4; k++)
    for (int c = 0; c < 3; c++)
      for (int g = 0; g < TEXEL_BAYER_GROUPS; g++)
        weights.w[k][c][g] = texel_bayer_group_weight (&plan->bayer, k, c, g);
  if (plan->bayer.form == TEXEL_BAYER_FORM_BILINEAR)
    texel_bayer_cells_develop<TEXEL_BAYER_FORM_BILINEAR> (
        plan, src, sink, &weights, &pack, offset, first, awb, grid, stream);
  else
    texel_bayer_cells_develop<TEXEL_BAYER_FORM_MHC> (
        plan, src, sink, &weights, &pack, offset, first, awb, grid, stream);
}

#endif /* TEXEL_BAYER_CELLS_CUH */
