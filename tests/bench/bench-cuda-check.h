/* gst-texel benchmarks: CHECK (call) ends the program at the first CUDA
 * call that fails, with where and the CUDA error text.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_CUDA_CHECK_H
#define BENCH_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

/* @err: a cudaError_t, or the int of a texel_cuda_* call. */
static inline void
bench_check_cuda (int err, const char *what, const char *file, int line)
{
  if (err == cudaSuccess)
    return;
  fprintf (stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what,
           cudaGetErrorName ((cudaError_t)err),
           cudaGetErrorString ((cudaError_t)err));
  exit (1);
}

#define CHECK(call) bench_check_cuda ((int)(call), #call, __FILE__, __LINE__)

#endif /* BENCH_CUDA_CHECK_H */
