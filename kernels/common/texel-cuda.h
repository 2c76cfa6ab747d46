/* gst-texel: the CUDA ground every op's kernels stand on, callable from
 * C: device capability, the kernels' context on one device (its texture
 * cache, tracked streams and fence, aliased arrays, gathered sums). Each
 * op declares its own texel_cuda_* entry point beside it (texel_cuda_convert
 * in texel-convert.h, texel_cuda_warp in texel-warp.h, ...).
 *
 * Built only when CUDA is available (HAVE_CUDA). Every function returns 0
 * on success or a cudaError_t value; texel_cuda_error_string() turns it
 * into text for GST_ELEMENT_ERROR.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CUDA_H
#define TEXEL_CUDA_H

#include <stdint.h>

#include "texel-kernel.h"

TEXEL_BEGIN_DECLS

/* What capability detection found. */
typedef struct
{
  int device;
  char name[256];
  int cc_major, cc_minor;
  int sm_count;
  int integrated;
  int can_map_host_memory;
  int async_engine_count;
  int concurrent_kernels;
  int unified_addressing;
  int pageable_memory_access;
  int host_register_supported;
  size_t texture_alignment;
  size_t texture_pitch_alignment;
  int max_texture_2d_linear[3]; /* width, height, pitch in bytes */
  size_t total_memory;
  int driver_version; /* e.g. 13000 */
  int runtime_version;
} TexelCudaCaps;

const char *texel_cuda_error_string (int err);
const char *texel_cuda_error_name (int err);

/* Number of usable devices, or a negative cudaError_t (no device,
 * insufficient driver, ...). */
int texel_cuda_device_count (int *count);
int texel_cuda_probe (int device, TexelCudaCaps *caps);

/* The kernels' state on one device: the texture objects of recent inputs
 * (rebuilt only when an input's addresses or pitches change), the
 * per-group buffers of texel_cuda_convert and texel_cuda_warp and their
 * aligned copies of input planes (one per plane index, reused), the events
 * that say when kernels reading them are done, and the optional fence
 * below. Made with @device current (it reads the device's texture
 * limits); freed with it current too, once no call's kernels can still
 * be queued on a stream it cannot wait for. A context is used by one
 * thread at a time. */
int texel_cuda_context_new (int device, TexelCudaContext **ctx);
void texel_cuda_context_free (TexelCudaContext *ctx);
/* The device @ctx was made for. */
int texel_cuda_context_device (const TexelCudaContext *ctx);
/* Bytes @ctx has copied device to device so far to realign input planes
 * whose pitch suits a texture but whose address does not (see
 * texel_cuda_convert). */
uint64_t texel_cuda_context_bytes_realigned (const TexelCudaContext *ctx);

/* Completion of a caller's work as the caller counts it. The calls made
 * while @current is N belong to the caller's unit of work N (a frame);
 * every unit up to @complete has finished on the GPU. A context given a
 * fence records no event of its own after each call to learn when the
 * textures it caches are no longer read (each record costs the host
 * time on every call; docs/design.md): it destroys one whose last unit is
 * complete at once, and otherwise waits for the streams that read it. The
 * caller keeps the fence alive as long as the context, raises @current before
 * each unit and @complete only once the unit's work is done; calls made outside
 * any unit are counted as never complete (@current = UINT64_MAX). */
typedef struct
{
  uint64_t current;
  uint64_t complete;
} TexelCudaFence;

/* Set before the context's first call. NULL: the context tracks its
 * calls with events (the default). */
void texel_cuda_context_set_fence (TexelCudaContext *ctx,
                                   const TexelCudaFence *fence);

/* Non-zero: the resampler of texel_cuda_convert and texel_cuda_warp
 * takes its generic path only, never the fast one, so that the two can
 * be compared and both stay under test (the plugin and the GPU tests set
 * it from GST_TEXEL_SAMPLER=generic). 0, the default: the fast path
 * wherever it serves. Set before the context's first call. */
void texel_cuda_context_set_generic_sampler (TexelCudaContext *ctx,
                                             int generic_only);

/* Plane @data (@pitch bytes a row, @row_bytes x @rows used) of the
 * fence's current unit is a pitched stand-in for CUDA array @array (a
 * cudaArray_t: a Jetson's block-linear NvBufSurface seen through EGL).
 * An input plane (@output 0) does not hold the array's contents:
 * texel_cuda_convert and texel_cuda_warp read the array where it is,
 * through textures over it, where its elements and extent are the
 * plane's and the kernels read the plane only through textures;
 * otherwise (plain loads, a Bayer mosaic) they first copy the array into
 * the plane, once a unit, counted in texel_cuda_context_bytes_realigned.
 * An output plane (@output 1): they write the array through a surface
 * object where the array takes one (cudaArraySurfaceLoadStore) and a
 * sink's whole elements are the array's (texel_cuda_context_array_written
 * says whether every store did); otherwise into the plane, which the
 * caller then copies into the array. Valid for that unit only. Needs a
 * fence and @ctx's device current. Returns 0 or a cudaError_t
 * (cudaErrorNotReady: too many planes of units still in flight). */
int texel_cuda_context_alias_array (TexelCudaContext *ctx, const void *data,
                                    size_t pitch, void *array, size_t row_bytes,
                                    int rows, int output);
/* Whether the current unit's kernels wrote output plane @data's array
 * (texel_cuda_context_alias_array) through its surface and never into
 * the plane: then nothing is left to copy. */
int texel_cuda_context_array_written (TexelCudaContext *ctx, const void *data);

/* Sums a frame's kernels gathered on the GPU for the host: texel_cuda_convert's
 * grey-world statistics of a raw Bayer input (TexelBayerStats, its first
 * 6 words) where the plan's bayer.awb_gather asks for them. Each frame
 * (unit of the fence; none are gathered without one) is tagged with the
 * plan's bayer.awb_tag. Fills @words with those of the oldest complete
 * frame not yet taken and returns 1, or returns 0 (nothing written) when
 * there is none. Makes no CUDA call (no device need be current). A
 * frame is gathered only while fewer than 8 frames wait to be taken. */
#define TEXEL_CUDA_SUMS_WORDS 8
int texel_cuda_context_take_sums (TexelCudaContext *ctx, uint64_t *tag,
                                  unsigned long long *words);

TEXEL_END_DECLS
#endif /* TEXEL_CUDA_H */
