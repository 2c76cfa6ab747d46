/* gst-texel: the host side of the CUDA resampler (texel-cuda-sampler.cuh):
 * the texture cache, what each launch reads and writes, and the checks
 * every entry point makes, shared by texelconvert's and texelwarp's
 * kernels.
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

#include "texel-cuda-sampler.cuh"
#include "texel-cuda-sums.cuh"
#include "texel-fault.h"

/* ------------------------------------------------------------------ */
/* Texture cache */

typedef struct
{
  const void *data;
  size_t pitch;
  int width, height;
  int channels;
  int bits;
  enum cudaTextureFilterMode filter;
  /* A texture over CUDA array @array (texel_cuda_context_alias_array)
   * instead of the pitched plane @data: made for one unit of the fence,
   * @unit, since an array's handle may come back for another array once
   * its surface is gone. NULL for a plane. */
  cudaArray_t array;
  uint64_t unit;
} TexelTextureKey;

typedef struct
{
  int valid;
  TexelTextureKey key;
  cudaTextureObject_t texture;
  uint64_t last_use;
  /* Bit s: kernels queued on tracked stream s (TexelStreamUse) may read
   * it, so it is destroyed only once that stream's event has completed,
   * or, with a fence, once @unit, the caller's unit of the last call that
   * read it, is complete. */
  uint32_t pending;
  uint64_t unit;
} TexelTextureEntry;

/* A stream the context's kernels were queued on, and an event recorded
 * after the last call's launches there: one record per call whatever the
 * number of textures read (each record costs host time, ~0.3 us on an
 * H100 host). With a fence, the event is recorded only when a wait needs
 * it. */
typedef struct
{
  cudaStream_t stream; /* NULL: free */
  cudaEvent_t done;
} TexelStreamUse;

/* An aligned copy of an input plane whose pitch and size suit a texture
 * but whose address does not (NVMM surfaces: planes at pitch * height
 * offsets, rows padded to 256 bytes, where an H100 wants 512): copied
 * device to device on the caller's stream, so that the plane is read
 * through a texture like system memory staged into aligned buffers, and
 * gives the same output byte for byte. One per input plane index, kept
 * across calls (a texture cached over it stays valid while @data does). */
typedef struct
{
  void *mem; /* cudaMalloc'd, @size bytes */
  size_t size;
  uint8_t *data; /* @mem rounded up to textureAlignment */
  /* What it holds: @src's plane, copied in the fence's unit @unit. */
  const uint8_t *src;
  size_t pitch, row_bytes;
  int rows;
  uint64_t unit;
  int holds;
  /* Recorded on @stream after the last call that wrote or read it: the
   * next call waits for it before touching the copy, so uses are ordered
   * across streams (frames in flight, bands). */
  cudaEvent_t done;
  cudaStream_t stream; /* NULL: never used */
  int used;            /* by the current call */
} TexelRealign;

/* A pitched plane that stands for a CUDA array in one unit of the fence
 * (texel_cuda_context_alias_array). Input: read through textures over the
 * array, or, for any other reader, filled from it once (@filled) on the
 * stream of the first call that needs it, whose event @done the unit's
 * later calls on other streams wait for. Output (@output): written
 * through @surface where a sink's elements are the array's, else into
 * the plane (@plane_written: the caller copies it into the array). */
typedef struct
{
  uint64_t unit;
  int valid;
  int output;
  const uint8_t *data;
  size_t pitch, row_bytes;
  int rows;
  cudaArray_t array;
  /* The array's elements and extent (cudaArrayGetInfo; a height of 1
   * for an array of one row, which it gives as 0). */
  struct cudaChannelFormatDesc desc;
  size_t array_width, array_height;
  int filled;
  cudaEvent_t done;
  cudaStream_t stream;
  /* Output: made with the entry, destroyed when the entry is reused once
   * its unit is complete (kernels of the unit may still write through
   * it), 0 where the array takes no surface. */
  cudaSurfaceObject_t surface;
  int surface_used, plane_written;
} TexelArrayAlias;

/* Input and output planes of a few units: an entry is reused once its
 * unit is complete. */
#define TEXEL_ALIASES (2 * TEXEL_MAX_PLANES * 8)

struct TexelCudaContext
{
  int device;
  size_t texture_alignment;
  size_t texture_pitch_alignment;
  int max_texture_width, max_texture_height, max_texture_pitch;
  uint64_t clock;
  /* GST_TEXEL_SAMPLER=generic: no fast path, to compare the two. */
  int generic_only;
  TexelTextureEntry textures[TEXEL_TEXTURE_CACHE_SIZE];
  TexelStreamUse streams[TEXEL_TEXTURE_STREAMS];
  int next_stream;
  TexelGroupBuffer group_buffers[TEXEL_MAX_COMPONENTS];
  TexelRealign realign[TEXEL_MAX_PLANES];
  uint64_t bytes_realigned;    /* copied into @realign so far */
  const TexelCudaFence *fence; /* NULL: an event after each call */
  TexelCudaSums *sums;         /* NULL until a call gathers sums */
  TexelArrayAlias aliases[TEXEL_ALIASES];
};

static int
texel_texture_key_equal (const TexelTextureKey *a, const TexelTextureKey *b)
{
  return a->data == b->data && a->pitch == b->pitch && a->width == b->width
         && a->height == b->height && a->channels == b->channels
         && a->bits == b->bits && a->filter == b->filter && a->array == b->array
         && a->unit == b->unit;
}

/* Waits until the kernels queued so far on tracked stream @s are done:
 * its event was recorded after the last call there, or with a fence, is
 * recorded now. */
static cudaError_t
texel_stream_settle (TexelCudaContext *ctx, int s)
{
  cudaError_t err = cudaSuccess;

  if (ctx->fence != NULL)
    err = cudaEventRecord (ctx->streams[s].done, ctx->streams[s].stream);
  if (err != cudaSuccess)
    return err;
  return cudaEventSynchronize (ctx->streams[s].done);
}

/* Waits for the tracked streams of the bits of *@pending (kernels queued
 * there may read a texture or group buffer) unless the fence says @unit,
 * the last one to read it, is complete; then clears them. */
static cudaError_t
texel_pending_wait (TexelCudaContext *ctx, uint32_t *pending, uint64_t unit)
{
  int s;

  if (ctx->fence != NULL && unit <= ctx->fence->complete)
    *pending = 0;
  for (s = 0; s < TEXEL_TEXTURE_STREAMS; s++)
    {
      if (*pending & (1u << s))
        {
          cudaError_t err = texel_stream_settle (ctx, s);

          if (err != cudaSuccess)
            return err;
        }
    }
  *pending = 0;
  return cudaSuccess;
}

static cudaError_t
texel_texture_entry_release (TexelCudaContext *ctx, TexelTextureEntry *entry)
{
  cudaError_t err;

  if (!entry->valid)
    return cudaSuccess;
  err = texel_pending_wait (ctx, &entry->pending, entry->unit);
  if (err != cudaSuccess)
    return err;
  entry->valid = 0;
  return cudaDestroyTextureObject (entry->texture);
}

/* The tracked slot of @stream. With more streams than slots, the oldest
 * slot is taken over once its work is done: the textures marked with it
 * then wait on the new stream's event, later, which is still safe. */
static cudaError_t
texel_stream_slot (TexelCudaContext *ctx, cudaStream_t stream, int *slot)
{
  cudaError_t err;
  int s;

  for (s = 0; s < TEXEL_TEXTURE_STREAMS; s++)
    if (ctx->streams[s].stream == stream)
      break;
  if (s == TEXEL_TEXTURE_STREAMS)
    {
      for (s = 0; s < TEXEL_TEXTURE_STREAMS; s++)
        if (ctx->streams[s].stream == NULL)
          break;
    }
  if (s == TEXEL_TEXTURE_STREAMS)
    {
      s = ctx->next_stream;
      ctx->next_stream = (s + 1) % TEXEL_TEXTURE_STREAMS;
      err = texel_stream_settle (ctx, s);
      if (err != cudaSuccess)
        return err;
    }
  if (ctx->streams[s].done == NULL)
    {
      /* Created once per slot, not per frame. */
      err = cudaEventCreateWithFlags (&ctx->streams[s].done,
                                      cudaEventDisableTiming);
      if (err != cudaSuccess)
        return err;
    }
  ctx->streams[s].stream = stream;
  *slot = s;
  return cudaSuccess;
}

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

/* Notes that the kernels just queued on @stream read the textures of
 * @used (NULL entries: plain loads) and the group buffers marked read. */
static cudaError_t
texel_textures_used (TexelCudaContext *ctx, cudaStream_t stream,
                     TexelTextureEntry *used[TEXEL_MAX_COMPONENTS])
{
  uint64_t unit = ctx->fence != NULL ? ctx->fence->current : 0;
  cudaError_t err;
  int c, s;

  err = texel_stream_slot (ctx, stream, &s);
  if (err == cudaSuccess && ctx->fence == NULL)
    err = cudaEventRecord (ctx->streams[s].done, stream);
  if (err != cudaSuccess)
    return err;
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      TexelGroupBuffer *buffer = &ctx->group_buffers[c];

      if (used[c] != NULL)
        {
          used[c]->pending |= 1u << s;
          used[c]->unit = unit;
        }
      if (buffer->read)
        {
          buffer->pending |= 1u << s;
          buffer->unit = unit;
        }
      buffer->read = 0;
    }
  return cudaSuccess;
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

cudaError_t
texel_group_buffer_reserve (TexelGroupBuffer *buffer, size_t size)
{
  cudaError_t err;

  if (buffer->size >= size)
    return cudaSuccess;
  /* Only after a key change (texel_group_buffer waited), or empty. */
  if (buffer->data != NULL && (err = cudaFree (buffer->data)) != cudaSuccess)
    return err;
  buffer->data = NULL;
  buffer->size = 0;
  buffer->filled = 0;
  err = TEXEL_FAULTY (TEXEL_FAULT_DEVICE_ALLOC,
                      cudaMalloc (&buffer->data, size));
  if (err == cudaSuccess)
    buffer->size = size;
  return err;
}

/* The elements of @key's texture: key->channels unsigned channels of
 * key->bits bits. */
static struct cudaChannelFormatDesc
texel_key_channel_desc (const TexelTextureKey *key)
{
  int b = key->bits;

  return cudaCreateChannelDesc (
      b, key->channels > 1 ? b : 0, key->channels > 2 ? b : 0,
      key->channels > 3 ? b : 0, cudaChannelFormatKindUnsigned);
}

static cudaError_t
texel_texture_create (const TexelTextureKey *key, cudaTextureObject_t *texture)
{
  struct cudaResourceDesc res;
  struct cudaTextureDesc tex;

  memset (&res, 0, sizeof (res));
  if (key->array != NULL)
    {
      /* Same elements and extent as the plane (texel_alias_texture). */
      res.resType = cudaResourceTypeArray;
      res.res.array.array = key->array;
    }
  else
    {
      res.resType = cudaResourceTypePitch2D;
      res.res.pitch2D.devPtr = (void *)key->data;
      res.res.pitch2D.desc = texel_key_channel_desc (key);
      res.res.pitch2D.width = key->width;
      res.res.pitch2D.height = key->height;
      res.res.pitch2D.pitchInBytes = key->pitch;
    }

  memset (&tex, 0, sizeof (tex));
  tex.addressMode[0] = cudaAddressModeClamp; /* as the CPU clamps */
  tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = key->filter;
  tex.readMode = cudaReadModeNormalizedFloat;
  tex.normalizedCoords = 0;

  return TEXEL_FAULTY (TEXEL_FAULT_TEXTURE,
                       cudaCreateTextureObject (texture, &res, &tex, NULL));
}

/* The cached texture for @key, created (evicting the least recently used
 * one) when there is none. */
static cudaError_t
texel_texture_lookup (TexelCudaContext *ctx, const TexelTextureKey *key,
                      TexelTextureEntry **found)
{
  TexelTextureEntry *victim = NULL;
  cudaError_t err;
  int e;

  for (e = 0; e < TEXEL_TEXTURE_CACHE_SIZE; e++)
    {
      TexelTextureEntry *entry = &ctx->textures[e];

      if (entry->valid && texel_texture_key_equal (&entry->key, key))
        {
          entry->last_use = ++ctx->clock;
          *found = entry;
          return cudaSuccess;
        }
      if (victim == NULL || !entry->valid
          || (victim->valid && entry->last_use < victim->last_use))
        victim = entry;
    }

  err = texel_texture_entry_release (ctx, victim);
  if (err != cudaSuccess)
    return err;
  err = texel_texture_create (key, &victim->texture);
  if (err != cudaSuccess)
    return err;
  victim->valid = 1;
  victim->key = *key;
  victim->last_use = ++ctx->clock;
  *found = victim;
  return cudaSuccess;
}

/* ------------------------------------------------------------------ */
/* Host side: what each launch reads and writes */

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

/* The alias of plane @data (an input's, or an output's where @output)
 * in the fence's current unit, or NULL. */
static TexelArrayAlias *
texel_alias_find (TexelCudaContext *ctx, const uint8_t *data, int output)
{
  int i;

  if (ctx->fence == NULL || ctx->fence->current == UINT64_MAX)
    return NULL;
  for (i = 0; i < TEXEL_ALIASES; i++)
    {
      TexelArrayAlias *a = &ctx->aliases[i];

      if (a->valid && a->unit == ctx->fence->current && a->data == data
          && a->output == output)
        return a;
    }
  return NULL;
}

/* Whether @a's array is @width x @height elements, as the plane. */
static int
texel_alias_extent_is (const TexelArrayAlias *a, int width, int height)
{
  return a->array_width == (size_t)width && a->array_height == (size_t)height;
}

/* The bytes of one element of @a's array. */
static size_t
texel_alias_element_bytes (const TexelArrayAlias *a)
{
  return (size_t)(a->desc.x + a->desc.y + a->desc.z + a->desc.w) / 8;
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

/* ------------------------------------------------------------------ */
/* Public API */

static cudaError_t
texel_context_query (TexelCudaContext *ctx)
{
  int value;
  cudaError_t err;

  err = cudaDeviceGetAttribute (&value, cudaDevAttrTextureAlignment,
                                ctx->device);
  if (err != cudaSuccess)
    return err;
  ctx->texture_alignment = value > 0 ? (size_t)value : 1;
  err = cudaDeviceGetAttribute (&value, cudaDevAttrTexturePitchAlignment,
                                ctx->device);
  if (err != cudaSuccess)
    return err;
  ctx->texture_pitch_alignment = value > 0 ? (size_t)value : 1;
  err = cudaDeviceGetAttribute (
      &ctx->max_texture_width, cudaDevAttrMaxTexture2DLinearWidth, ctx->device);
  if (err != cudaSuccess)
    return err;
  err = cudaDeviceGetAttribute (&ctx->max_texture_height,
                                cudaDevAttrMaxTexture2DLinearHeight,
                                ctx->device);
  if (err != cudaSuccess)
    return err;
  return cudaDeviceGetAttribute (
      &ctx->max_texture_pitch, cudaDevAttrMaxTexture2DLinearPitch, ctx->device);
}

extern "C" int
texel_cuda_context_new (int device, TexelCudaContext **ctx)
{
  TexelCudaContext *self;
  const char *sampler;
  cudaError_t err;

  *ctx = NULL;
  self = (TexelCudaContext *)calloc (1, sizeof (*self));
  if (self == NULL)
    return cudaErrorMemoryAllocation;
  self->device = device;
  sampler = getenv ("GST_TEXEL_SAMPLER");
  self->generic_only = sampler != NULL && strcmp (sampler, "generic") == 0;
  err = texel_context_query (self);
  if (err != cudaSuccess)
    {
      free (self);
      return err;
    }
  *ctx = self;
  return cudaSuccess;
}

extern "C" void
texel_cuda_context_set_fence (TexelCudaContext *ctx,
                              const TexelCudaFence *fence)
{
  if (ctx != NULL)
    ctx->fence = fence;
}

cudaError_t
texel_context_sums_begin (TexelCudaContext *ctx, uint64_t tag,
                          cudaStream_t stream, unsigned long long **part)
{
  return texel_cuda_sums_begin (&ctx->sums, ctx->fence, tag, stream, part);
}

cudaError_t
texel_context_sums_end (TexelCudaContext *ctx, const unsigned long long *part,
                        cudaStream_t stream)
{
  return texel_cuda_sums_end (ctx->sums, part, stream);
}

extern "C" int
texel_cuda_context_take_sums (TexelCudaContext *ctx, uint64_t *tag,
                              unsigned long long *words)
{
  return ctx != NULL
         && texel_cuda_sums_take (ctx->sums, ctx->fence, tag, words);
}

/* An entry for a new alias in the current unit: a free one, one of a
 * complete unit (whose surface no queued kernel writes through any more)
 * or this plane's own; NULL where every entry is still in use. */
static TexelArrayAlias *
texel_alias_entry (TexelCudaContext *ctx, const void *data, int output)
{
  uint64_t current = ctx->fence->current;
  int i;

  for (i = 0; i < TEXEL_ALIASES; i++)
    {
      TexelArrayAlias *a = &ctx->aliases[i];

      if (!a->valid
          || (a->unit == current && a->data == data && a->output == output))
        return a;
    }
  for (i = 0; i < TEXEL_ALIASES; i++)
    {
      TexelArrayAlias *a = &ctx->aliases[i];

      if (a->unit != current && a->unit <= ctx->fence->complete)
        return a;
    }
  return NULL;
}

/* Frees what @a holds (its surface) and marks it free. */
static void
texel_alias_clear (TexelArrayAlias *a)
{
  if (a->surface != 0)
    (void)cudaDestroySurfaceObject (a->surface);
  a->surface = 0;
  a->valid = 0;
}

extern "C" int
texel_cuda_context_alias_array (TexelCudaContext *ctx, const void *data,
                                size_t pitch, void *array, size_t row_bytes,
                                int rows, int output)
{
  TexelArrayAlias *a;
  struct cudaExtent extent;
  unsigned int flags;
  cudaError_t err;

  if (ctx == NULL || data == NULL || array == NULL || rows <= 0
      || ctx->fence == NULL || ctx->fence->current == UINT64_MAX)
    return cudaErrorInvalidValue;
  a = texel_alias_entry (ctx, data, output);
  if (a == NULL)
    return cudaErrorNotReady;
  texel_alias_clear (a);
  err = cudaArrayGetInfo (&a->desc, &extent, &flags, (cudaArray_t)array);
  if (err != cudaSuccess)
    return err;
  if (output && (flags & cudaArraySurfaceLoadStore))
    {
      struct cudaResourceDesc res;

      memset (&res, 0, sizeof (res));
      res.resType = cudaResourceTypeArray;
      res.res.array.array = (cudaArray_t)array;
      err = cudaCreateSurfaceObject (&a->surface, &res);
      if (err != cudaSuccess)
        return err;
    }
  a->unit = ctx->fence->current;
  a->output = output;
  a->data = (const uint8_t *)data;
  a->pitch = pitch;
  a->row_bytes = row_bytes;
  a->rows = rows;
  a->array = (cudaArray_t)array;
  a->array_width = extent.width;
  a->array_height = extent.height > 0 ? extent.height : 1;
  a->filled = 0;
  a->stream = NULL;
  a->surface_used = 0;
  a->plane_written = 0;
  a->valid = 1;
  return cudaSuccess;
}

extern "C" int
texel_cuda_context_array_written (TexelCudaContext *ctx, const void *data)
{
  TexelArrayAlias *a
      = ctx != NULL ? texel_alias_find (ctx, (const uint8_t *)data, 1) : NULL;

  return a != NULL && a->surface_used && !a->plane_written;
}

extern "C" int
texel_cuda_context_device (const TexelCudaContext *ctx)
{
  return ctx->device;
}

extern "C" uint64_t
texel_cuda_context_bytes_realigned (const TexelCudaContext *ctx)
{
  return ctx != NULL ? ctx->bytes_realigned : 0;
}

/* With the context's device current (the caller's). */
extern "C" void
texel_cuda_context_free (TexelCudaContext *ctx)
{
  int e, s;

  if (ctx == NULL)
    return;
  /* Nothing to report to: a failure here leaves the context broken
   * anyway. */
  for (e = 0; e < TEXEL_TEXTURE_CACHE_SIZE; e++)
    (void)texel_texture_entry_release (ctx, &ctx->textures[e]);
  for (e = 0; e < TEXEL_MAX_COMPONENTS; e++)
    {
      TexelGroupBuffer *buffer = &ctx->group_buffers[e];

      (void)texel_pending_wait (ctx, &buffer->pending, buffer->unit);
      if (buffer->data != NULL)
        (void)cudaFree (buffer->data);
    }
  for (e = 0; e < TEXEL_MAX_PLANES; e++)
    {
      TexelRealign *r = &ctx->realign[e];

      if (r->stream != NULL)
        (void)cudaEventSynchronize (r->done);
      if (r->mem != NULL)
        (void)cudaFree (r->mem);
      if (r->done != NULL)
        (void)cudaEventDestroy (r->done);
    }
  for (s = 0; s < TEXEL_TEXTURE_STREAMS; s++)
    if (ctx->streams[s].done != NULL)
      (void)cudaEventDestroy (ctx->streams[s].done);
  texel_cuda_sums_free (ctx->sums);
  for (e = 0; e < TEXEL_ALIASES; e++)
    {
      TexelArrayAlias *a = &ctx->aliases[e];

      if (a->done != NULL)
        {
          (void)cudaEventSynchronize (a->done);
          (void)cudaEventDestroy (a->done);
        }
      texel_alias_clear (a);
    }
  free (ctx);
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
