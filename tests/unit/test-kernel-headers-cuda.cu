/* gst-texel: every kernels/ header in one CUDA translation unit.
 *
 * The C side (test-kernel-headers.c) includes them with the C compiler;
 * here nvcc includes them, the resampler's texel-resample.cuh and the
 * context's, texture cache's and sampler's .cuh too, as
 * C++ for the host and for the device. What this checks is checked at
 * compile time: that TexelStream is CUDA's stream type, that every
 * texel_cuda_* entry point takes it (last, but for the resampler's) and
 * the one TexelCudaContext first, and that
 * the code the headers share with the host (TEXEL_HD) compiles as device code,
 * in a kernel that is never launched. The program then runs that same code on
 * the host (no GPU needed) and reports TAP.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <tuple>
#include <type_traits>

#include "texel-adjust.h"
#include "texel-adjust-fast.h"
#include "texel-adjust-pixel.h"
#include "texel-bayer.h"
#include "texel-bayer-fast.h"
#include "texel-calib.h"
#include "texel-convert.h"
#include "texel-convert-fast.h"
#include "texel-cube.h"
#include "texel-cuda.h"
#include "texel-fault.h"
#include "texel-filter.h"
#include "texel-filter-fast.h"
#include "texel-image.h"
#include "texel-kernel.h"
#include "texel-resample-cpu.h"
#include "texel-sample-map.h"
#include "texel-warp.h"
#include "texel-warp-fast.h"
#include "texel-resample.cuh"
#include "texel-cuda-context.cuh"
#include "texel-cuda-sampler.cuh"
#include "texel-cuda-texture-cache.cuh"
#include "texel-bayer-cells.cuh"
#include "texel-cuda-sums.cuh"

template <typename F> struct LastArg;
template <typename R, typename... A> struct LastArg<R (*) (A...)>
{
  typedef typename std::tuple_element<sizeof...(A) - 1, std::tuple<A...>>::type
      type;
};

template <typename F>
constexpr bool
takes_stream (F)
{
  return std::is_same<typename LastArg<F>::type, TexelStream>::value;
}

template <typename R, typename C, typename... A>
constexpr bool
takes_context (R (*) (C, A...))
{
  return std::is_same<C, TexelCudaContext *>::value;
}

/* The resampler's stream comes before its launch callback. */
template <typename T, typename... A> struct AnyIs : std::false_type
{
};
template <typename T, typename H, typename... A>
struct AnyIs<T, H, A...>
    : std::integral_constant<bool,
                             std::is_same<T, H>::value || AnyIs<T, A...>::value>
{
};

template <typename R, typename... A>
constexpr bool
has_stream (R (*) (A...))
{
  return AnyIs<TexelStream, A...>::value;
}

static_assert (std::is_same<TexelStream, cudaStream_t>::value,
               "TexelStream is CUDA's stream type");
static_assert (takes_stream (&texel_cuda_convert), "texel_cuda_convert");
static_assert (takes_stream (&texel_cuda_warp), "texel_cuda_warp");
static_assert (takes_stream (&texel_cuda_filter), "texel_cuda_filter");
static_assert (takes_stream (&texel_cuda_adjust), "texel_cuda_adjust");
static_assert (has_stream (&texel_cuda_resample), "texel_cuda_resample");
static_assert (takes_context (&texel_cuda_convert), "texel_cuda_convert");
static_assert (takes_context (&texel_cuda_warp), "texel_cuda_warp");
static_assert (takes_context (&texel_cuda_filter), "texel_cuda_filter");
static_assert (takes_context (&texel_cuda_adjust), "texel_cuda_adjust");
static_assert (takes_context (&texel_cuda_resample), "texel_cuda_resample");
static_assert (!std::is_same<TexelFilterBorder, TexelWarpBorder>::value,
               "each element has its own border enum");

/* Device code from each header's TEXEL_HD part: fails to compile if any
 * of them is host-only. */
__global__ void
texel_headers_device_check (float *out)
{
  out[0] = texel_sample_centre_f (threadIdx.x, 1, 0.5f);
  out[1] = (float)texel_filter_border_index (threadIdx.x, 5,
                                             TEXEL_FILTER_BORDER_MIRROR);
  out[2] = texel_warp_fold_f (out[0], 4.0f, TEXEL_WARP_BORDER_WRAP);
}

static int failed;

static void
check (int n, bool ok, const char *what)
{
  printf ("%s %d %s\n", ok ? "ok" : "not ok", n, what);
  failed |= !ok;
}

int
main (void)
{
  /* Referenced, so that the kernel is compiled for the device. */
  void (*kernel) (float *) = texel_headers_device_check;

  printf ("1..3\n");
  check (1, kernel != NULL && texel_sample_centre_f (3, 1, 0.5f) == 6.5f,
         "sample centre, as nvcc's host pass compiles it");
  check (
      2,
      texel_filter_border_index (-1, 5, 1) == 1
          && texel_filter_border_index (5, 5, 1) == 3
          && texel_filter_border_index (-1, 5, 0) == 0,
      "filter border: mirror reflects about the edge sample, clamp repeats it");
  check (
      3,
      texel_warp_fold_f (-0.25f, 4.0f, TEXEL_WARP_BORDER_WRAP) == 3.75f
          && texel_warp_fold_f (-0.25f, 4.0f, TEXEL_WARP_BORDER_MIRROR) == 0.25f
          && texel_warp_fold_f (4.5f, 4.0f, TEXEL_WARP_BORDER_MIRROR) == 3.5f,
      "warp border: wrap tiles, mirror reflects about the edge");
  return failed;
}
