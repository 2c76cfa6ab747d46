/* gst-texel: the host side of the CUDA resampler (texel-resample.cuh):
 * what each launch reads and writes (textures from the context's cache,
 * realigned copies, aliased arrays, plain loads), the groups of output
 * components and the checks every entry point makes, shared by
 * texelconvert's and texelwarp's kernels.
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

#include "texel-resample.cuh"
#include "texel-cuda-sums.cuh"
#include "texel-fault.h"

/* Records, after the current call's work on @stream, the event of each
 * realigned copy it wrote or read. */
static cudaError_t
texel_realign_used (TexelCudaContext *ctx, cudaStream_t stream)
{
  cudaError_t first = cudaSuccess;
  int p;

  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    {
      TexelRealign *r = &ctx->realign[p];
      cudaError_t err;

      if (!r->used)
        continue;
      r->used = 0;
      err = cudaEventRecord (r->done, stream);
      if (err == cudaSuccess)
        r->stream = stream;
      else if (first == cudaSuccess)
        first = err;
    }
  return first;
}

cudaError_t
texel_group_buffer (TexelCudaContext *ctx, const TexelSink *sink, uint64_t key,
                    TexelGroupBuffer **buffer)
{
  TexelGroupBuffer *b = &ctx->group_buffers[sink->group];

  *buffer = b;
  if (b->calls == 0 || b->key != key)
    {
      cudaError_t err = texel_pending_wait (ctx, &b->pending, b->unit);

      if (err != cudaSuccess)
        return err;
      b->key = key;
      b->calls = 0;
      b->filled = 0;
    }
  b->calls++;
  return cudaSuccess;
}

static int
texel_subsampled_size (int size, int shift)
{
  return -((-size) >> shift);
}

/* texel_texture_key's answer. */
enum
{
  TEXEL_KEY_NONE,    /* plain loads */
  TEXEL_KEY_TEXTURE, /* a texture over the plane */
  TEXEL_KEY_REALIGN  /* one over an aligned copy of it */
};

/* Whether component @c of @in can be read through a texture: its texels
 * (pixel_stride bytes) hold 1, 2 or 4 samples of 8 or 16 bits, and the
 * plane's pitch and sizes meet the device's alignment and limits. Where
 * only the plane's address breaks the texture alignment: TEXEL_KEY_REALIGN
 * (texel_realign). A misaligned pitch keeps plain loads: a copy would
 * have to change the layout. */
static int
texel_texture_key (const TexelCudaContext *ctx, const TexelConvertPlan *plan,
                   const TexelImage *in, int c, TexelTextureKey *key, int *lane)
{
  const TexelComponent *comp = &plan->in.comp[c];
  int bps = plan->in.bytes_per_sample;
  int channels = comp->pixel_stride / bps;
  const uint8_t *data = in->data[comp->plane];
  int stride = in->stride[comp->plane];

  if (comp->pixel_stride % bps != 0 || comp->offset % bps != 0
      || comp->offset >= comp->pixel_stride)
    return TEXEL_KEY_NONE;
  if (channels != 1 && channels != 2 && channels != 4)
    return TEXEL_KEY_NONE;

  memset (key, 0, sizeof (*key));
  key->data = data;
  key->pitch = (size_t)stride;
  key->width = texel_subsampled_size (plan->in_width, comp->x_shift);
  key->height = texel_subsampled_size (plan->in_height, comp->y_shift);
  key->channels = channels;
  key->bits = 8 * bps;
  /* A Bayer mosaic is read sample by sample (texel-bayer.cuh). */
  key->filter = plan->method == TEXEL_METHOD_NEAREST
                        || plan->bayer.pattern != TEXEL_BAYER_NONE
                    ? cudaFilterModePoint
                    : cudaFilterModeLinear;
  *lane = comp->offset / bps;

  if (stride <= 0 || (size_t)stride % ctx->texture_pitch_alignment != 0)
    return TEXEL_KEY_NONE;
  if (key->width > ctx->max_texture_width
      || key->height > ctx->max_texture_height
      || stride > ctx->max_texture_pitch
      || (size_t)key->width * comp->pixel_stride > (size_t)stride)
    return TEXEL_KEY_NONE;
  return (uintptr_t)data % ctx->texture_alignment != 0 ? TEXEL_KEY_REALIGN
                                                       : TEXEL_KEY_TEXTURE;
}

/* Makes @r hold at least @size bytes at an address aligned to
 * @alignment, once no queued work uses it (a new size: new caps). */
static cudaError_t
texel_realign_reserve (TexelRealign *r, size_t size, size_t alignment)
{
  cudaError_t err;

  if (r->mem != NULL && r->size >= size + alignment)
    return cudaSuccess;
  if (r->mem != NULL)
    {
      if (r->stream != NULL
          && (err = cudaEventSynchronize (r->done)) != cudaSuccess)
        return err;
      if ((err = cudaFree (r->mem)) != cudaSuccess)
        return err;
    }
  r->mem = NULL;
  r->size = 0;
  r->holds = 0;
  /* cudaMalloc promises 256 bytes of alignment, textures may need more. */
  err = TEXEL_FAULTY (TEXEL_FAULT_DEVICE_ALLOC,
                      cudaMalloc (&r->mem, size + alignment));
  if (err != cudaSuccess)
    return err;
  r->size = size + alignment;
  r->data = (uint8_t *)(((uintptr_t)r->mem + alignment - 1) / alignment
                        * alignment);
  return cudaSuccess;
}

/* The aligned copy of plane @plane of @in, @row_bytes x @rows of it, for
 * the current call on @stream (which first waits for the copy's last
 * user). Copied unless it holds that plane already: within one unit of
 * the fence (a frame) a plane's address holds one picture, so the bands
 * of a frame copy it once. */
static cudaError_t
texel_realign (TexelCudaContext *ctx, const TexelImage *in, int plane,
               size_t row_bytes, int rows, cudaStream_t stream,
               const uint8_t **data)
{
  TexelRealign *r = &ctx->realign[plane];
  const uint8_t *src = in->data[plane];
  size_t pitch = (size_t)in->stride[plane];
  cudaError_t err;

  if (r->done == NULL
      && (err = cudaEventCreateWithFlags (&r->done, cudaEventDisableTiming))
             != cudaSuccess)
    return err;
  /* Also on the same stream: a destroyed stream's handle may come back
   * for a new one, which is not ordered after the old one's work. */
  if (r->stream != NULL
      && (err = cudaStreamWaitEvent (stream, r->done, 0)) != cudaSuccess)
    return err;
  r->used = 1;
  *data = r->data;
  if (r->holds && ctx->fence != NULL && ctx->fence->current != UINT64_MAX
      && r->unit == ctx->fence->current && r->src == src && r->pitch == pitch
      && r->row_bytes >= row_bytes && r->rows >= rows)
    return cudaSuccess;

  err = texel_realign_reserve (r, pitch * (size_t)(rows - 1) + row_bytes,
                               ctx->texture_alignment);
  *data = r->data;
  if (err != cudaSuccess)
    return err;
  r->holds = 0;
  err = cudaMemcpy2DAsync (r->data, pitch, src, pitch, row_bytes, (size_t)rows,
                           cudaMemcpyDefault, stream);
  if (err != cudaSuccess)
    return err;
  r->holds = 1;
  r->src = src;
  r->pitch = pitch;
  r->row_bytes = row_bytes;
  r->rows = rows;
  r->unit = ctx->fence != NULL ? ctx->fence->current : 0;
  ctx->bytes_realigned += row_bytes * (size_t)rows;
  return cudaSuccess;
}

/* Realigns, once each, the planes of @in that the components marked
 * TEXEL_KEY_REALIGN in @kind read (as many bytes and rows as their
 * textures cover), and points their @keys at the copies. */
static cudaError_t
texel_realign_planes (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                      const TexelImage *in, cudaStream_t stream,
                      const int kind[TEXEL_MAX_COMPONENTS],
                      TexelTextureKey keys[TEXEL_MAX_COMPONENTS])
{
  size_t row_bytes[TEXEL_MAX_PLANES] = { 0 };
  int rows[TEXEL_MAX_PLANES] = { 0 };
  int c, p;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &plan->in.comp[c];
      size_t bytes;

      if (kind[c] != TEXEL_KEY_REALIGN)
        continue;
      bytes = (size_t)keys[c].width * comp->pixel_stride;
      p = comp->plane;
      row_bytes[p] = bytes > row_bytes[p] ? bytes : row_bytes[p];
      rows[p] = keys[c].height > rows[p] ? keys[c].height : rows[p];
    }
  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    {
      const uint8_t *copy;
      cudaError_t err;

      if (rows[p] == 0)
        continue;
      err = texel_realign (ctx, in, p, row_bytes[p], rows[p], stream, &copy);
      if (err != cudaSuccess)
        return err;
      for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
        if (kind[c] == TEXEL_KEY_REALIGN && plan->in.comp[c].plane == p)
          keys[c].data = copy;
    }
  return cudaSuccess;
}

/* Points @sink at the surface over its plane's output array where its
 * elements are the array's (one store of a whole element, the array's
 * size and extent); otherwise notes that the plane is written. */
static void
texel_alias_sink (TexelCudaContext *ctx, TexelSink *sink)
{
  TexelArrayAlias *a = texel_alias_find (ctx, sink->elem, 1);

  if (a == NULL)
    return;
  if (a->surface != 0 && sink->elem_bytes == sink->elem_stride
      && texel_alias_element_bytes (a) == (size_t)sink->elem_stride
      && texel_alias_extent_is (a, sink->width, sink->height))
    {
      sink->surface = a->surface;
      a->surface_used = 1;
    }
  else
    {
      a->plane_written = 1;
    }
}

/* Whether a texture of @key may read @a's array instead of the plane:
 * the same unsigned elements (channels of key->bits bits) and the same
 * extent, so that filtering and clamping at the edges are the plane's. */
static int
texel_alias_texture (const TexelArrayAlias *a, const TexelTextureKey *key)
{
  struct cudaChannelFormatDesc want = texel_key_channel_desc (key);

  return a->desc.f == want.f && a->desc.x == want.x && a->desc.y == want.y
         && a->desc.z == want.z && a->desc.w == want.w
         && texel_alias_extent_is (a, key->width, key->height);
}

/* Fills @a's plane from its array for a reader that needs the plane
 * itself (plain loads, a texture the array cannot give): once a unit, on
 * the first such call's stream; later calls on other streams wait. */
static cudaError_t
texel_alias_fill (TexelCudaContext *ctx, TexelArrayAlias *a,
                  cudaStream_t stream)
{
  cudaError_t err;

  if (a->filled)
    {
      if (a->stream == stream)
        return cudaSuccess;
      return cudaStreamWaitEvent (stream, a->done, 0);
    }
  if (a->done == NULL
      && (err = cudaEventCreateWithFlags (&a->done, cudaEventDisableTiming))
             != cudaSuccess)
    return err;
  err = cudaMemcpy2DFromArrayAsync ((void *)a->data, a->pitch, a->array, 0, 0,
                                    a->row_bytes, (size_t)a->rows,
                                    cudaMemcpyDeviceToDevice, stream);
  if (err == cudaSuccess)
    err = cudaEventRecord (a->done, stream);
  if (err != cudaSuccess)
    return err;
  a->filled = 1;
  a->stream = stream;
  ctx->bytes_realigned += a->row_bytes * (size_t)a->rows;
  return cudaSuccess;
}

/* For the components of input planes that stand for CUDA arrays this
 * unit: their textures over the arrays where the kernels read nothing but
 * textures of them, else the planes filled from the arrays first. */
static cudaError_t
texel_alias_planes (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                    const TexelImage *in, cudaStream_t stream,
                    const int kind[TEXEL_MAX_COMPONENTS],
                    TexelTextureKey keys[TEXEL_MAX_COMPONENTS])
{
  int p, c;

  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    {
      TexelArrayAlias *a = texel_alias_find (ctx, in->data[p], 0);
      int textures = a != NULL && plan->bayer.pattern == TEXEL_BAYER_NONE;

      if (a == NULL)
        continue;
      /* A Bayer mosaic is read by plain loads (texel-bayer.cuh). */
      for (c = 0; c < TEXEL_MAX_COMPONENTS && textures; c++)
        if (plan->in.comp[c].plane == p)
          textures = kind[c] == TEXEL_KEY_TEXTURE
                     && texel_alias_texture (a, &keys[c]);
      if (!textures)
        {
          cudaError_t err = texel_alias_fill (ctx, a, stream);

          if (err != cudaSuccess)
            return err;
          continue;
        }
      for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
        if (plan->in.comp[c].plane == p)
          {
            keys[c].array = a->array;
            keys[c].unit = a->unit;
          }
    }
  return cudaSuccess;
}

/* Fills @src with every input component: a texture where possible (over
 * an aligned copy of its plane where only the plane's address is
 * misaligned), plain loads otherwise. @used gets the cache entries read. */
static cudaError_t
texel_source_init (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                   const TexelImage *in, cudaStream_t stream, TexelSource *src,
                   TexelTextureEntry *used[TEXEL_MAX_COMPONENTS])
{
  int max_code = (1 << plan->in.bits) - 1;
  TexelTextureKey keys[TEXEL_MAX_COMPONENTS];
  int kind[TEXEL_MAX_COMPONENTS], lane[TEXEL_MAX_COMPONENTS];
  cudaError_t err;
  int c;

  memset (src, 0, sizeof (*src));
  src->code_scale = 1.0f / (float)max_code;
  src->texel_max = (float)((1u << (8 * plan->in.bytes_per_sample)) - 1);
  src->texel_scale = src->texel_max / (float)(max_code << plan->in.shift);

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      used[c] = NULL;
      kind[c] = plan->in.comp[c].plane < 0
                    ? TEXEL_KEY_NONE
                    : texel_texture_key (ctx, plan, in, c, &keys[c], &lane[c]);
    }
  err = texel_alias_planes (ctx, plan, in, stream, kind, keys);
  if (err == cudaSuccess)
    err = texel_realign_planes (ctx, plan, in, stream, kind, keys);
  if (err != cudaSuccess)
    return err;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &plan->in.comp[c];
      TexelSourceComp *sc = &src->comp[c];

      if (comp->plane < 0)
        {
          sc->kind = TEXEL_SOURCE_MISSING;
          continue;
        }
      sc->data = in->data[comp->plane] + comp->offset;
      sc->pitch = in->stride[comp->plane];
      sc->pixel_stride = comp->pixel_stride;
      sc->width = texel_subsampled_size (plan->in_width, comp->x_shift);
      sc->height = texel_subsampled_size (plan->in_height, comp->y_shift);
      sc->x_shift = comp->x_shift;
      sc->y_shift = comp->y_shift;
      sc->kind = TEXEL_SOURCE_RAW;

      if (kind[c] != TEXEL_KEY_NONE)
        {
          err = texel_texture_lookup (ctx, &keys[c], &used[c]);
          if (err == cudaErrorInvalidValue)
            {
              /* A limit not checked above: plain loads read it correctly (the
               * plane itself: an array's filled first). */
              (void)cudaGetLastError ();
              if (keys[c].array != NULL)
                err = texel_alias_fill (
                    ctx, texel_alias_find (ctx, in->data[comp->plane], 0),
                    stream);
              if (err != cudaSuccess && err != cudaErrorInvalidValue)
                return err;
              continue;
            }
          if (err != cudaSuccess)
            return err;
          sc->kind = TEXEL_SOURCE_TEXTURE;
          sc->texture = used[c]->texture;
          sc->lane = lane[c];
        }
    }
  return cudaSuccess;
}

/* @src narrowed to the components that @sink's outputs depend on, with
 * components of one texel fetched once. */
static void
texel_source_for_sink (const TexelSource *all, const TexelSink *sink,
                       TexelSource *src)
{
  const TexelSourceComp *fetched = NULL;
  int c, j;

  *src = *all;
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      TexelSourceComp *sc = &src->comp[c];
      int needed = 0;

      for (j = 0; j < sink->n_comp; j++)
        needed |= sink->coef[j][c] != 0.0f;
      if (!needed)
        {
          sc->kind = TEXEL_SOURCE_UNUSED;
          continue;
        }
      if (sc->kind != TEXEL_SOURCE_TEXTURE)
        continue;
      /* The kernel keeps only the last fetched texel. */
      if (fetched != NULL && fetched->texture == sc->texture
          && fetched->x_shift == sc->x_shift && fetched->y_shift == sc->y_shift)
        sc->kind = TEXEL_SOURCE_SHARED;
      else
        fetched = sc;
    }
}

/* Row @k of the group's matrix for output component @out_comp. */
static void
texel_sink_coef (const TexelConvertPlan *plan, int out_comp, float coef[5])
{
  int c;

  memset (coef, 0, 5 * sizeof (float));
  if (out_comp == 3)
    {
      coef[3] = 1.0f; /* alpha carried through */
      return;
    }
  for (c = 0; c < 3; c++)
    if (fabsf (plan->m_f[out_comp][c]) >= TEXEL_NEGLIGIBLE_COEF)
      coef[c] = plan->m_f[out_comp][c];
  coef[4] = plan->m_f[out_comp][3];
}

/* Chooses one store per sample where the group's components fill whole,
 * aligned elements of a single plane; else a store per byte. RGBx's
 * padding byte is written 0xff, as the CPU does. */
static void
texel_sink_layout (const TexelConvertPlan *plan, const TexelImage *out,
                   const int out_comp[TEXEL_MAX_COMPONENTS], TexelSink *sink)
{
  const TexelFormatDesc *desc = &plan->out;
  const TexelComponent *first = &desc->comp[out_comp[0]];
  int bps = desc->bytes_per_sample;
  int stride = first->pixel_stride;
  uint32_t covered = 0, plane_covered = 0, full;
  int whole = 1;
  int c, j;

  for (j = 0; j < sink->n_comp; j++)
    {
      const TexelComponent *comp = &desc->comp[out_comp[j]];

      if (comp->plane != first->plane || comp->pixel_stride != stride)
        whole = 0;
      covered |= ((1u << bps) - 1) << comp->offset;
      sink->comp_bit[j] = 8 * comp->offset;
    }
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &desc->comp[c];

      if (comp->plane == first->plane)
        {
          plane_covered |= ((1u << bps) - 1) << comp->offset;
          if (comp->pixel_stride != stride || comp->x_shift != first->x_shift
              || comp->y_shift != first->y_shift)
            whole = 0;
        }
    }

  sink->elem = out->data[first->plane];
  sink->elem_pitch = out->stride[first->plane];
  sink->elem_stride = stride;
  if (!whole || stride > 4)
    return;

  full = (1u << stride) - 1;
  /* Bytes of the element that no component uses: padding. */
  sink->fill_mask = full & ~plane_covered;
  sink->fill_word = 0;
  for (c = 0; c < 4; c++)
    if (sink->fill_mask & (1u << c))
      sink->fill_word |= 0xffu << (8 * c);
  if ((covered | sink->fill_mask) == full
      && (stride == 1 || stride == 2 || stride == 4)
      && (uintptr_t)sink->elem % stride == 0 && sink->elem_pitch % stride == 0)
    sink->elem_bytes = stride;
}

/* The group of output components subsampled like component @first_comp,
 * for output rows [row0, row1). */
static void
texel_sink_init (const TexelConvertPlan *plan, const TexelImage *out,
                 int first_comp, int row0, int row1, TexelSink *sink)
{
  const TexelFormatDesc *desc = &plan->out;
  int x_shift = desc->comp[first_comp].x_shift;
  int y_shift = desc->comp[first_comp].y_shift;
  int out_comp[TEXEL_MAX_COMPONENTS] = { 0 };
  int height = texel_subsampled_size (plan->out_height, y_shift);
  int k, n = 0;

  memset (sink, 0, sizeof (*sink));
  for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
    {
      const TexelComponent *comp = &desc->comp[k];

      if (comp->plane < 0 || comp->x_shift != x_shift
          || comp->y_shift != y_shift)
        continue;
      out_comp[n] = k;
      sink->comp[n].data = out->data[comp->plane] + comp->offset;
      sink->comp[n].pitch = out->stride[comp->plane];
      sink->comp[n].pixel_stride = comp->pixel_stride;
      sink->border[n] = plan->border[k];
      texel_sink_coef (plan, k, sink->coef[n]);
      n++;
    }
  sink->group = first_comp;
  sink->n_comp = n;
  sink->x_shift = x_shift;
  sink->y_shift = y_shift;
  sink->width = texel_subsampled_size (plan->out_width, x_shift);
  sink->height = height;
  sink->row0 = row0 >> y_shift;
  sink->row1 = (row1 + (1 << y_shift) - 1) >> y_shift;
  if (sink->row1 > height)
    sink->row1 = height;
  texel_sink_layout (plan, out, out_comp, sink);
}

/* floor (clamp (@v, 0, 1) * 255 + 0.5): texel_quantize at 8 bits. */
static uint32_t
texel_code8_host (float v)
{
  return (uint32_t)floorf (fminf (fmaxf (v, 0.0f), 1.0f) * 255.0f + 0.5f);
}

/* Which output component of @sink each byte of its element holds (-1:
 * padding). Returns 0 where the group is not whole 8-bit elements. */
static int
texel_fast_bytes (const TexelConvertPlan *plan, const TexelSink *sink,
                  int byte_comp[4])
{
  int j, k;

  if (plan->out.bits != 8 || plan->out.shift != 0
      || plan->out.bytes_per_sample != 1 || sink->elem_bytes == 0)
    return 0;
  for (k = 0; k < 4; k++)
    byte_comp[k] = -1;
  for (j = 0; j < sink->n_comp; j++)
    {
      k = sink->comp_bit[j] / 8;
      if (k >= sink->elem_bytes || byte_comp[k] >= 0)
        return 0;
      byte_comp[k] = j;
    }
  for (k = 0; k < sink->elem_bytes; k++)
    if (byte_comp[k] < 0 && !(sink->fill_mask & (1u << k)))
      return 0;
  return 1;
}

/* texel_plane_coord_f as p = luma * @scale + @offset. */
static void
texel_fast_axis (int shift, float chroma_off, float *scale, float *offset)
{
  *scale = shift ? 0.5f : 1.0f;
  *offset = shift ? 0.5f - 0.5f * chroma_off : 0.0f;
}

/* Which products of the matrix @m the kernel computes (TexelFastTexture's
 * form). */
static int
texel_fast_form (const float m[4][4])
{
  int k, l, diagonal = 1, channels = 0;

  for (k = 0; k < 4; k++)
    {
      for (l = 0; l < 4; l++)
        {
          if (m[k][l] == 0.0f)
            continue;
          diagonal &= k == l;
          channels = l + 1 > channels ? l + 1 : channels;
        }
    }
  if (channels <= 1)
    return TEXEL_FAST_ONE_CHANNEL;
  if (channels == 2)
    return TEXEL_FAST_TWO_CHANNELS;
  return diagonal ? TEXEL_FAST_DIAGONAL : TEXEL_FAST_FULL;
}

/* Fills @fast for @sink's group where the fast path serves it (see
 * TexelFastSource): whole 8-bit output elements, every input component
 * a texture channel or missing, and for nearest, textures whose
 * normalised texels are the codes themselves. Returns 0 where it does
 * not. */
static int
texel_fast_source_init (const TexelConvertPlan *plan, const TexelSource *src,
                        const TexelSink *sink, TexelFastSource *fast)
{
  TexelFastTexture *ft = NULL;
  int byte_comp[4];
  int c, k;

  if (!texel_fast_bytes (plan, sink, byte_comp))
    return 0;
  if (plan->method == TEXEL_METHOD_NEAREST
      && (plan->in.shift != 0
          || plan->in.bits != 8 * plan->in.bytes_per_sample))
    return 0;

  memset (fast, 0, sizeof (*fast));
  for (k = 0; k < sink->elem_bytes; k++)
    {
      int j = byte_comp[k];

      fast->bias[k] = j < 0 ? 1.0f : sink->coef[j][4];
      fast->border_word |= (j < 0 ? 0xffu : texel_code8_host (sink->border[j]))
                           << (8 * k);
    }
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelSourceComp *sc = &src->comp[c];

      if (sc->kind == TEXEL_SOURCE_UNUSED)
        continue;
      if (sc->kind == TEXEL_SOURCE_MISSING)
        {
          for (k = 0; k < sink->elem_bytes; k++)
            if (byte_comp[k] >= 0)
              fast->bias[k]
                  += sink->coef[byte_comp[k]][c] * plan->in_missing[c];
          continue;
        }
      if (sc->kind == TEXEL_SOURCE_TEXTURE)
        {
          ft = &fast->tex[fast->n_tex++];
          ft->texture = sc->texture;
          texel_fast_axis (sc->x_shift, plan->in_chroma_off[0], &ft->scale[0],
                           &ft->offset[0]);
          texel_fast_axis (sc->y_shift, plan->in_chroma_off[1], &ft->scale[1],
                           &ft->offset[1]);
          ft->last[0] = (float)(sc->width - 1);
          ft->last[1] = (float)(sc->height - 1);
          ft->shift[0] = sc->x_shift;
          ft->shift[1] = sc->y_shift;
        }
      else if (sc->kind != TEXEL_SOURCE_SHARED || ft == NULL)
        {
          return 0; /* plain loads: the generic path */
        }
      for (k = 0; k < sink->elem_bytes; k++)
        if (byte_comp[k] >= 0)
          ft->m[k][sc->lane] += sink->coef[byte_comp[k]][c] * src->texel_scale;
    }
  for (k = 0; k < fast->n_tex; k++)
    fast->tex[k].form = texel_fast_form (fast->tex[k].m);
  return 1;
}

/* Whether an earlier output component than @c is subsampled alike, i.e.
 * its group is launched already. */
static int
texel_group_done (const TexelFormatDesc *desc, int c)
{
  int k;

  for (k = 0; k < c; k++)
    if (desc->comp[k].plane >= 0
        && desc->comp[k].x_shift == desc->comp[c].x_shift
        && desc->comp[k].y_shift == desc->comp[c].y_shift)
      return 1;
  return 0;
}

static int
texel_image_matches (const TexelImage *img, TexelFormat format, int width,
                     int height)
{
  return img->format == format && img->width == width && img->height == height;
}

static int
texel_has_vertical_subsampling (const TexelFormatDesc *desc)
{
  int c;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (desc->comp[c].plane >= 0 && desc->comp[c].y_shift > 0)
      return 1;
  return 0;
}

static cudaError_t
texel_resample_enqueue (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                        const TexelImage *in, const TexelImage *out, int row0,
                        int row1, cudaStream_t stream, TexelGroupLaunch launch,
                        const void *data)
{
  TexelTextureEntry *used[TEXEL_MAX_COMPONENTS];
  TexelSink sinks[TEXEL_MAX_COMPONENTS];
  TexelSource all;
  cudaError_t err, tracked, realigned;
  int k, g, n_groups = 0;

  /* cudaGetLastError () after each launch must report that launch, not
   * an error some earlier call of the caller's left behind. */
  (void)cudaGetLastError ();
  err = texel_source_init (ctx, plan, in, stream, &all, used);
  if (err != cudaSuccess)
    {
      /* A copy may be queued already: its readers must be tracked. */
      (void)texel_realign_used (ctx, stream);
      return err;
    }

  /* Every group's sink first: a launch may write the next group too. */
  for (k = 0; k < TEXEL_MAX_COMPONENTS; k++)
    {
      if (plan->out.comp[k].plane < 0 || texel_group_done (&plan->out, k))
        continue;
      texel_sink_init (plan, out, k, row0, row1, &sinks[n_groups]);
      texel_alias_sink (ctx, &sinks[n_groups]);
      n_groups++;
    }
  for (g = 0; g < n_groups && err == cudaSuccess; g++)
    {
      TexelSource src;
      TexelFastSource fast;
      int use_fast, next_done = 0;

      texel_source_for_sink (&all, &sinks[g], &src);
      use_fast = !ctx->generic_only && plan->bayer.pattern == TEXEL_BAYER_NONE
                 && texel_fast_source_init (plan, &src, &sinks[g], &fast);
      err = launch (ctx, plan, &src, use_fast ? &fast : NULL, &sinks[g],
                    g + 1 < n_groups ? &sinks[g + 1] : NULL, &next_done, stream,
                    data);
      if (next_done)
        g++;
    }

  /* Also after a failed launch: the groups launched before it read the
   * textures and the realigned copies. */
  tracked = texel_textures_used (ctx, stream, used);
  realigned = texel_realign_used (ctx, stream);
  if (err == cudaSuccess)
    err = tracked;
  return err != cudaSuccess ? err : realigned;
}

int
texel_cuda_resample (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                     const TexelImage *in, const TexelImage *out, int row0,
                     int row1, TexelStream stream, TexelGroupLaunch launch,
                     const void *data)
{
  if (ctx == NULL || plan == NULL || in == NULL || out == NULL)
    return cudaErrorInvalidValue;
  /* The legacy default stream would serialise with all other work of the
   * process: callers must bring a stream of their own. */
  if (stream == NULL)
    return cudaErrorInvalidResourceHandle;
  if (!texel_image_matches (in, plan->in.format, plan->in_width,
                            plan->in_height)
      || !texel_image_matches (out, plan->out.format, plan->out_width,
                               plan->out_height))
    return cudaErrorInvalidValue;
  if (row0 < 0 || row1 > plan->out_height || row0 > row1)
    return cudaErrorInvalidValue;
  /* A band starting on an odd row would share a chroma row with the band
   * above. */
  if ((row0 & 1) && texel_has_vertical_subsampling (&plan->out))
    return cudaErrorInvalidValue;
  if (row0 == row1)
    return cudaSuccess;

  /* On the current device: the caller's (texel-kernel.h). */
  return texel_resample_enqueue (ctx, plan, in, out, row0, row1,
                                 (cudaStream_t)stream, launch, data);
}
