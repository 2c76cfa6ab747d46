/* gst-texel: texelwarp's input positions computed per sample against a
 * map precomputed once per plan (a float2 per output sample), the two
 * ways of texel_cuda_warp (TexelWarpMapMode), for each lens model.
 *
 * Frames on the GPU, 3840x2160 RGBA in and out, then NV12 (where a sample
 * stores 1.5 bytes against RGBA's 4, so the map's 8 bytes weigh more
 * against the frame but the positions as much), bilinear. Times are CUDA
 * events around back-to-back calls, as the mean per call; the map's fill
 * (once per plan, with the wait that makes it visible to every stream) is
 * timed on the host. Prints a markdown table. Run on the GPU machine:
 *
 *   build-gpu/tests/bench/texel-warp-map
 *
 * Exits 77 (skipped) where there is no GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "texel-cuda.h"
#include "texel-warp.h"
#include "bench-clock.h"
#include "bench-cuda-check.h"

#define WIDTH 3840
#define HEIGHT 2160
#define CALLS 50
#define EXIT_SKIP 77

typedef struct
{
  TexelFormat format;
  cudaStream_t stream;
  cudaEvent_t start, stop;
  TexelImage in, out;
  void *in_mem, *out_mem;
  TexelCudaContext *kctx;
} Bench;

static void
bench_init (Bench *b, TexelFormat format)
{
  size_t size
      = texel_image_layout (&b->in, format, WIDTH, HEIGHT, 512, 512, NULL);

  b->format = format;
  /* The kernels run on the caller's current device (texel-kernel.h). */
  CHECK (cudaSetDevice (0));
  CHECK (cudaStreamCreateWithFlags (&b->stream, cudaStreamNonBlocking));
  CHECK (cudaEventCreate (&b->start));
  CHECK (cudaEventCreate (&b->stop));
  CHECK (cudaMalloc (&b->in_mem, size));
  CHECK (cudaMalloc (&b->out_mem, size));
  CHECK (cudaMemset (b->in_mem, 0x5a, size));
  texel_image_layout (&b->in, format, WIDTH, HEIGHT, 512, 512,
                      (uint8_t *)b->in_mem);
  texel_image_layout (&b->out, format, WIDTH, HEIGHT, 512, 512,
                      (uint8_t *)b->out_mem);
  CHECK (texel_cuda_context_new (0, &b->kctx));
}

static void
bench_warp (Bench *b, const TexelWarpPlan *plan)
{
  CHECK (texel_cuda_warp (b->kctx, plan, &b->in, &b->out, 0, HEIGHT,
                          (TexelStream)b->stream));
}

/* Mean GPU time of one call with @plan over CALLS, in microseconds. */
static double
bench_time (Bench *b, const TexelWarpPlan *plan)
{
  float ms;
  int i;

  bench_warp (b, plan); /* warm-up, and the map's fill */
  CHECK (cudaEventRecord (b->start, b->stream));
  for (i = 0; i < CALLS; i++)
    bench_warp (b, plan);
  CHECK (cudaEventRecord (b->stop, b->stream));
  CHECK (cudaEventSynchronize (b->stop));
  CHECK (cudaEventElapsedTime (&ms, b->start, b->stop));
  return 1000.0 * ms / CALLS;
}

static void
bench_model (Bench *b, const char *label, TexelWarpConfig *config)
{
  TexelWarpPlan computed, mapped;
  const char *error = NULL;
  double compute_us, map_us, fill_us, t0;

  config->map = TEXEL_WARP_MAP_NEVER;
  if (texel_warp_plan_init (&computed, config, b->format, WIDTH, HEIGHT,
                            b->format, WIDTH, HEIGHT, &error)
      != 0)
    {
      fprintf (stderr, "%s: %s\n", label, error);
      exit (1);
    }
  mapped = computed;
  mapped.map = TEXEL_WARP_MAP_ALWAYS;

  compute_us = bench_time (b, &computed);
  /* The first call with the mapped plan fills the map, then reads it. */
  CHECK (cudaStreamSynchronize (b->stream));
  t0 = bench_now_us ();
  bench_warp (b, &mapped);
  CHECK (cudaStreamSynchronize (b->stream));
  fill_us = bench_now_us () - t0;
  map_us = bench_time (b, &mapped);
  printf ("| %s | %s | %.1f | %.1f | %.2fx | %.0f |\n",
          texel_format_desc (b->format)->name, label, compute_us, map_us,
          map_us / compute_us, fill_us - map_us);
  /* Next model's mapped plan: a new key, so a new fill. */
  bench_warp (b, &computed);
}

/* A lens @model centred on the frame, focal length @f, first
 * distortion coefficient @k1. */
static void
bench_camera (TexelWarpConfig *config, TexelWarpModel model, double f,
              double k1)
{
  texel_warp_config_init (config);
  config->model = model;
  config->camera.fx = config->camera.fy = f;
  config->camera.cx = (WIDTH - 1) / 2.0;
  config->camera.cy = (HEIGHT - 1) / 2.0;
  config->camera.k[0] = k1;
}

static void
bench_free (Bench *b)
{
  texel_cuda_context_free (b->kctx);
  CHECK (cudaFree (b->in_mem));
  CHECK (cudaFree (b->out_mem));
  CHECK (cudaEventDestroy (b->start));
  CHECK (cudaEventDestroy (b->stop));
  CHECK (cudaStreamDestroy (b->stream));
}

/* Every model on frames of @format. */
static void
bench_format (TexelFormat format)
{
  TexelWarpConfig config;
  Bench b;

  memset (&b, 0, sizeof (b));
  bench_init (&b, format);

  texel_warp_config_init (&config);
  config.rotation = 5.0;
  bench_model (&b, "none (rotation 5 degrees)", &config);

  bench_camera (&config, TEXEL_WARP_MODEL_PINHOLE, 2000.0, -0.3);
  config.camera.k[1] = 0.1;
  bench_model (&b, "pinhole (k1 -0.3, k2 0.1)", &config);
  config.camera.k[3] = 0.05; /* k4: the rational model's quotient */
  bench_model (&b, "pinhole, rational (k4 0.05)", &config);

  bench_camera (&config, TEXEL_WARP_MODEL_FISHEYE, 1200.0, 0.05);
  bench_model (&b, "fisheye (k1 0.05)", &config);
  config.projection = TEXEL_PROJECTION_EQUIRECTANGULAR;
  bench_model (&b, "fisheye to equirectangular", &config);
  bench_free (&b);
}

int
main (void)
{
  int n = 0;

  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0)
    {
      fprintf (stderr, "texel-warp-map: no CUDA device: skipped\n");
      return EXIT_SKIP;
    }
  printf ("%dx%d in and out, bilinear, frames on the GPU; GPU time per "
          "call, mean of %d.\n\n",
          WIDTH, HEIGHT, CALLS);
  printf ("| format | model | computed per sample (us) | read from the map "
          "(us) | map / computed | map fill, once per plan (us, host) |\n");
  printf ("|---|---|---:|---:|---:|---:|\n");
  bench_format (TEXEL_FORMAT_RGBA);
  bench_format (TEXEL_FORMAT_NV12);
  return 0;
}
