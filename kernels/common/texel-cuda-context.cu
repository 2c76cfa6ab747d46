/* gst-texel: the kernels' context on one device (texel-cuda.h,
 * texel-cuda-context.cuh): its lifetime and the device limits it reads,
 * the streams its kernels were queued on and the fence that say when
 * they are done, the CUDA arrays aliased by pitched planes, the
 * per-group buffers and the sums handed to the host.
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

#include "texel-cuda-context.cuh"
#include "texel-fault.h"

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
cudaError_t
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

/* Notes that the kernels just queued on @stream read the textures of
 * @used (NULL entries: plain loads) and the group buffers marked read. */
cudaError_t
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

/* The alias of plane @data (an input's, or an output's where @output)
 * in the fence's current unit, or NULL. */
TexelArrayAlias *
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
  cudaError_t err;

  *ctx = NULL;
  self = (TexelCudaContext *)calloc (1, sizeof (*self));
  if (self == NULL)
    return cudaErrorMemoryAllocation;
  self->device = device;
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
texel_cuda_context_set_generic_sampler (TexelCudaContext *ctx, int generic_only)
{
  ctx->generic_only = generic_only != 0;
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
