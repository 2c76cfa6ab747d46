/* gst-texel: what every kernel header shares.
 *
 * One stream type and one context type for every CUDA entry point, one
 * prelude for the code compiled both by the C compiler (CPU reference,
 * tests) and by nvcc (kernels), and the C linkage markers. Every other
 * kernels/ header includes this one, and all of them can be included
 * together (tests/unit/test-kernel-headers.c checks it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_KERNEL_H
#define TEXEL_KERNEL_H

/* clang-format off */
#ifdef __cplusplus
#define TEXEL_BEGIN_DECLS extern "C" {
#define TEXEL_END_DECLS }
#else
#define TEXEL_BEGIN_DECLS
#define TEXEL_END_DECLS
#endif
/* clang-format on */

/* Code both sides run: host and device functions under nvcc, plain static
 * inline functions for the C compiler. */
#ifdef __CUDACC__
#define TEXEL_HD static __host__ __device__ __forceinline__
#else
#define TEXEL_HD static inline
#endif

TEXEL_BEGIN_DECLS

/* A CUDA stream (cudaStream_t, CUstream), named without the CUDA headers
 * so that C code built without them can hold one. Every texel_cuda_*
 * entry point enqueues on one and never on the legacy default stream
 * (NULL is refused). */
typedef struct CUstream_st *TexelStream;

/* What the kernels keep on one device between calls (texel-cuda.h):
 * every CUDA entry point has the one shape
 *
 *   int texel_cuda_X (TexelCudaContext *ctx, const TexelXPlan *plan,
 *       const TexelImage *in, const TexelImage *out, int row0, int row1,
 *       TexelStream stream);
 *
 * enqueuing output rows [row0, row1) on @stream and returning 0 or a
 * cudaError_t. The caller makes the context's device current on the
 * calling thread (cudaSetDevice, or a pushed CUDA context) before any
 * call that takes a context, and the kernels never switch it. */
typedef struct TexelCudaContext TexelCudaContext;

/* The CPU entry points' rows: [row0, row1) clipped to [0, height); 0 when
 * nothing is left to do. */
TEXEL_HD int
texel_clip_rows (int *row0, int *row1, int height)
{
  if (*row0 < 0)
    *row0 = 0;
  if (*row1 > height)
    *row1 = height;
  return *row0 < *row1;
}

TEXEL_END_DECLS

#endif /* TEXEL_KERNEL_H */
