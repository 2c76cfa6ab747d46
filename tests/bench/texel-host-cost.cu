/* gst-texel: the host time of one texel_cuda_convert call.
 *
 * 4K NV12 -> 720p RGBA (bilinear) on device buffers, as texelconvert
 * converts frames already on the GPU: the host time of each call, against
 * a bare launch of the same grid, for a context that records an event
 * after each call and one given a fence (texel_cuda_context_set_fence,
 * as the elements do), with pools of inputs that cycle: 1 and 6 (the
 * textures stay cached), 24 (48 textures) and 40 (80 textures: more than
 * the cache holds, so every call creates and destroys textures). The
 * stream is synchronised every 4 calls (outside the timing), and the
 * fence then says those calls are complete. Prints one markdown table.
 *
 * Exits 77 (skipped) where there is no GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench-clock.h"
#include "bench-cuda-check.h"
#include "texel-convert.h"
#include "texel-cuda.h"
#include "texel-image.h"

#define CALLS 4000
#define SYNC_EVERY 4
#define MAX_INPUTS 40
#define OUTPUTS 6
#define EXIT_SKIP 77

static const int pools[] = { 1, 6, 24, MAX_INPUTS };

#define N_POOLS ((int)(sizeof (pools) / sizeof (pools[0])))

static __global__ void
empty_kernel (int *never)
{
  if (never != NULL && threadIdx.x == 1023)
    *never = 1;
}

/* A device image of @format, planes aligned as the elements' pools do. */
static void
device_image (TexelImage *img, TexelFormat format, int width, int height)
{
  size_t size = texel_image_layout (img, format, width, height, 256, 512, NULL);
  void *mem;

  CHECK (cudaMalloc (&mem, size));
  CHECK (cudaMemset (mem, 0x40, size));
  texel_image_layout (img, format, width, height, 256, 512, (uint8_t *)mem);
}

/* Mean host time of a call, in us, over CALLS calls cycling through
 * @n_inputs inputs. Each call is a unit of @fence, numbered on from the
 * previous round's. */
static double
time_converter (TexelCudaContext *kctx, TexelCudaFence *fence,
                const TexelConvertPlan *plan, const TexelImage *in,
                int n_inputs, const TexelImage *out, cudaStream_t stream)
{
  uint64_t first = fence->complete + 1;
  double total = 0;
  int i;

  for (i = 0; i < CALLS; i++)
    {
      double t;

      fence->current = first + (uint64_t)i;
      t = bench_now_us ();
      CHECK (texel_cuda_convert (kctx, plan, &in[i % n_inputs],
                                 &out[i % OUTPUTS], 0, plan->out_height,
                                 (TexelStream)stream));
      total += bench_now_us () - t;
      fence->current = UINT64_MAX;
      if (i % SYNC_EVERY == SYNC_EVERY - 1)
        {
          CHECK (cudaStreamSynchronize (stream));
          fence->complete = first + (uint64_t)i;
        }
    }
  CHECK (cudaStreamSynchronize (stream));
  fence->complete = first + CALLS - 1;
  return total / CALLS;
}

static double
time_bare_launch (cudaStream_t stream, dim3 grid, dim3 block)
{
  double total = 0;
  int i;

  for (i = 0; i < CALLS; i++)
    {
      double t = bench_now_us ();

      empty_kernel<<<grid, block, 0, stream>>> (NULL);
      total += bench_now_us () - t;
      if (i % SYNC_EVERY == SYNC_EVERY - 1)
        CHECK (cudaStreamSynchronize (stream));
    }
  CHECK (cudaGetLastError ());
  CHECK (cudaStreamSynchronize (stream));
  return total / CALLS;
}

int
main (void)
{
  TexelImage in[MAX_INPUTS], out[OUTPUTS];
  TexelConvertConfig config;
  TexelConvertPlan plan;
  cudaStream_t stream;
  const char *why = NULL;
  int count = 0, fenced, p, i;

  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0)
    {
      printf ("SKIP: no usable CUDA device\n");
      return EXIT_SKIP;
    }
  memset (&config, 0, sizeof (config));
  config.src_w = 3840;
  config.src_h = 2160;
  config.dst_w = 1280;
  config.dst_h = 720;
  config.method = TEXEL_METHOD_BILINEAR;
  config.in_color.matrix = TEXEL_MATRIX_BT709;
  config.out_color.matrix = TEXEL_MATRIX_RGB;
  config.out_color.full_range = 1;
  if (texel_convert_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 3840, 2160,
                               TEXEL_FORMAT_RGBA, 1280, 720, &why)
      != 0)
    {
      fprintf (stderr, "plan: %s\n", why);
      return 1;
    }
  /* The kernels run on the caller's current device (texel-kernel.h). */
  CHECK (cudaSetDevice (0));
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  for (i = 0; i < MAX_INPUTS; i++)
    device_image (&in[i], TEXEL_FORMAT_NV12, 3840, 2160);
  for (i = 0; i < OUTPUTS; i++)
    device_image (&out[i], TEXEL_FORMAT_RGBA, 1280, 720);

  printf ("| tracking | inputs cycled | us a call | bare launch us | "
          "above the launch us |\n|---|---:|---:|---:|---:|\n");
  for (fenced = 0; fenced < 2; fenced++)
    {
      TexelCudaContext *kctx;
      TexelCudaFence fence = { UINT64_MAX, 0 };

      CHECK (texel_cuda_context_new (0, &kctx));
      if (fenced)
        texel_cuda_context_set_fence (kctx, &fence);
      /* A first round creates the textures the cache can keep. */
      time_converter (kctx, &fence, &plan, in, MAX_INPUTS, out, stream);
      for (p = 0; p < N_POOLS; p++)
        {
          double call
              = time_converter (kctx, &fence, &plan, in, pools[p], out, stream);
          /* The converter's grid: 32 x 8 threads a block over 720p. */
          double bare = time_bare_launch (stream, dim3 (40, 90), dim3 (32, 8));

          printf ("| %s | %d | %.2f | %.2f | %.2f |\n",
                  fenced ? "fence" : "event a call", pools[p], call, bare,
                  call - bare);
        }
      texel_cuda_context_free (kctx);
    }
  return 0;
}
