/* gst-texel: what every kernel header shares.
 *
 * One stream type for every CUDA entry point, one converter handle (the
 * texture cache texelconvert and texelwarp share), one prelude for the
 * code compiled both by the C compiler (CPU reference, tests) and by nvcc
 * (kernels), and the C linkage markers. Every other kernels/ header
 * includes this one, and all of them can be included together
 * (tests/unit/test-kernel-headers.c checks it).
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

/* The texture cache on one device that texel_cuda_convert and
 * texel_cuda_warp share (texel-cuda.h). */
typedef struct TexelCudaConverter TexelCudaConverter;

TEXEL_END_DECLS

#endif /* TEXEL_KERNEL_H */
