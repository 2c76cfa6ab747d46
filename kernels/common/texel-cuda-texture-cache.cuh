/* gst-texel: the kernels' cache of texture objects over input planes,
 * per context (texel-cuda-context.cuh), host side. Internal to the kernel
 * library (C++).
 *
 * A texture object is kept per input plane address, pitch, extent and
 * element, so that a pool of frames that cycles, a decoder's included,
 * finds its textures again instead of making them per frame; the least
 * recently used is destroyed once no queued kernel can still read it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CUDA_TEXTURE_CACHE_CUH
#define TEXEL_CUDA_TEXTURE_CACHE_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "texel-kernel.h"

/* Texture objects kept per context: enough for the planes of 32
 * two-plane frames, so that a cycling pool, a decoder's included, finds
 * its textures again: a miss costs the host the creation of the frame's
 * textures and the destruction of the least recently used (the cost is
 * in docs/design.md). */
#define TEXEL_TEXTURE_CACHE_SIZE 64

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

/* Whether @a and @b name the same texture. */
int texel_texture_key_equal (const TexelTextureKey *a,
                             const TexelTextureKey *b);

/* The elements of @key's texture: key->channels unsigned channels of
 * key->bits bits. */
struct cudaChannelFormatDesc
texel_key_channel_desc (const TexelTextureKey *key);

/* The cached texture for @key in *@found, created (evicting the least
 * recently used entry) where none is cached. */
cudaError_t texel_texture_lookup (TexelCudaContext *ctx,
                                  const TexelTextureKey *key,
                                  TexelTextureEntry **found);

/* Destroys @entry's texture once no queued kernel can still read it. */
cudaError_t texel_texture_entry_release (TexelCudaContext *ctx,
                                         TexelTextureEntry *entry);

#endif /* TEXEL_CUDA_TEXTURE_CACHE_CUH */
