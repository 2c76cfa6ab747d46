/* gst-texel: small sums that a unit of work's kernels gather on the GPU
 * for the host (texelconvert's grey-world statistics of raw Bayer input),
 * read back without the host waiting for them.
 *
 * A ring of entries, one per unit of the caller's fence (a frame). Each
 * call of the unit (a band, on its own stream) gets a part of its own:
 * zeroed on its stream before its kernels and copied into pinned host
 * memory after them, so that the bands of one frame never wait for each
 * other. Once the fence says the unit is complete, the host adds the
 * parts. Used by one thread at a time, with the context's device current
 * for begin, end and free (take makes no CUDA call).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CUDA_SUMS_CUH
#define TEXEL_CUDA_SUMS_CUH

#include <stdint.h>

#include <cuda_runtime.h>

#include "texel-cuda.h"

/* The words an entry holds (each of its parts as many). */
#define TEXEL_SUMS_WORDS TEXEL_CUDA_SUMS_WORDS

typedef struct TexelCudaSums TexelCudaSums;

/* The part of the current unit of @fence that this call adds into,
 * zeroed on @stream, in *@part (device memory, TEXEL_SUMS_WORDS words);
 * the unit's entry is tagged @tag on its first call. *@part is NULL where
 * nothing is gathered: no fence, no unit, every entry still in flight, or
 * the unit has used all its parts. *@sums is created on first use. */
cudaError_t texel_cuda_sums_begin (TexelCudaSums **sums,
                                   const TexelCudaFence *fence, uint64_t tag,
                                   cudaStream_t stream,
                                   unsigned long long **part);
/* After the call's kernels: @part's words copied to the host on @stream. */
cudaError_t texel_cuda_sums_end (TexelCudaSums *sums,
                                 const unsigned long long *part,
                                 cudaStream_t stream);
/* The oldest complete unit not yet taken: its parts added into @words
 * (TEXEL_SUMS_WORDS) and its tag in *@tag. Returns 1, or 0 (nothing
 * written) when there is none. */
int texel_cuda_sums_take (TexelCudaSums *sums, const TexelCudaFence *fence,
                          uint64_t *tag, unsigned long long *words);
/* Waits for nothing: the caller frees it once no call's work can still be
 * queued (as the context). NULL is ignored. */
void texel_cuda_sums_free (TexelCudaSums *sums);

#endif /* TEXEL_CUDA_SUMS_CUH */
