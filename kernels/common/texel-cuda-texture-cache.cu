/* gst-texel: the kernels' cache of texture objects over input planes
 * (texel-cuda-texture-cache.cuh): made on a miss, kept per plane, the
 * least recently used destroyed once the streams that read it are done.
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

int
texel_texture_key_equal (const TexelTextureKey *a, const TexelTextureKey *b)
{
  return a->data == b->data && a->pitch == b->pitch && a->width == b->width
         && a->height == b->height && a->channels == b->channels
         && a->bits == b->bits && a->filter == b->filter && a->array == b->array
         && a->unit == b->unit;
}

cudaError_t
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

/* The elements of @key's texture: key->channels unsigned channels of
 * key->bits bits. */
struct cudaChannelFormatDesc
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
cudaError_t
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
