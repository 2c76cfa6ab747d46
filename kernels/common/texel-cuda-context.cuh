/* gst-texel: what a TexelCudaContext (texel-cuda.h) holds, and the
 * calls through which the ops' host code uses it: the tracked streams
 * and fence that say when queued kernels are done with what the context
 * keeps, the realigned copies of input planes, the CUDA arrays aliased by
 * pitched planes, the per-group buffers and the gathered sums. Internal
 * to the kernel library (C++, host side).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CUDA_CONTEXT_CUH
#define TEXEL_CUDA_CONTEXT_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "texel-cuda.h"
#include "texel-image.h"
#include "texel-cuda-sums.cuh"
#include "texel-cuda-texture-cache.cuh"

/* Streams whose pending work on the cached textures is tracked at once
 * (at most 32: a bit each). */
#define TEXEL_TEXTURE_STREAMS 8

/* Device memory a kernel derives from its plan, one per output group
 * (texelwarp's map of source positions), kept by the context across
 * calls: filled once, read by the calls that follow with the same plan. */
typedef struct
{
  void *data;
  size_t size;
  uint64_t key;     /* digest of what it is derived from */
  int calls;        /* consecutive calls with this key */
  int filled;       /* holds the data for key */
  int read;         /* read by the current call's kernels */
  uint32_t pending; /* as the texture cache's entries */
  uint64_t unit;
} TexelGroupBuffer;

/* A stream the context's kernels were queued on, and an event recorded
 * after the last call's launches there: one record per call whatever the
 * number of textures read (each record costs host time). With a fence, the
 * event is recorded only when a wait needs it. */
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
  /* No fast path, to compare the two
   * (texel_cuda_context_set_generic_sampler). */
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

/* Waits for the tracked streams of the bits of *@pending (kernels queued
 * there may read a texture or group buffer) unless the fence says @unit,
 * the last one to read it, is complete; then clears them. */
cudaError_t texel_pending_wait (TexelCudaContext *ctx, uint32_t *pending,
                                uint64_t unit);

/* Notes that the kernels just queued on @stream read the textures of
 * @used (NULL entries: plain loads) and the group buffers marked read. */
cudaError_t texel_textures_used (TexelCudaContext *ctx, cudaStream_t stream,
                                 TexelTextureEntry *used[TEXEL_MAX_COMPONENTS]);

/* The alias of plane @data (an input's, or an output's where @output)
 * in the fence's current unit, or NULL. */
TexelArrayAlias *texel_alias_find (TexelCudaContext *ctx, const uint8_t *data,
                                   int output);

/* Whether @a's array is @width x @height elements, as the plane. */
static inline int
texel_alias_extent_is (const TexelArrayAlias *a, int width, int height)
{
  return a->array_width == (size_t)width && a->array_height == (size_t)height;
}

/* The bytes of one element of @a's array. */
static inline size_t
texel_alias_element_bytes (const TexelArrayAlias *a)
{
  return (size_t)(a->desc.x + a->desc.y + a->desc.z + a->desc.w) / 8;
}

/* Makes @buffer hold at least @size bytes (contents undefined). */
cudaError_t texel_group_buffer_reserve (TexelGroupBuffer *buffer, size_t size);

/* The part of @ctx's sums (texel_cuda_context_take_sums) that this call
 * of the fence's current unit adds into, zeroed on @stream, in *@part;
 * NULL where the unit gathers nothing. After the call's kernels,
 * texel_context_sums_end copies it back on the same stream. */
cudaError_t texel_context_sums_begin (TexelCudaContext *ctx, uint64_t tag,
                                      cudaStream_t stream,
                                      unsigned long long **part);
cudaError_t texel_context_sums_end (TexelCudaContext *ctx,
                                    const unsigned long long *part,
                                    cudaStream_t stream);

#endif /* TEXEL_CUDA_CONTEXT_CUH */
