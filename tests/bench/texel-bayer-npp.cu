/* gst-texel: texelconvert's Bayer kernel against NPP's demosaic, kernels
 * alone, in one run (issue #18 item 5).
 *
 * A 4K RGGB mosaic (8-bit, and 12 bits in 16-bit words) already on the
 * GPU, developed to RGBA by texel_cuda_convert (the kernel texelconvert
 * runs: bilinear or Malvar-He-Cutler demosaic, black level, white
 * balance, colour matrix and transfer curve in one pass) and by NPP's
 * nppiCFAToRGBA_*_C1AC4R_Ctx (demosaic only, NPP's own method), on the
 * same stream; and a device-to-device copy of the same bytes (the
 * mosaic read once and the output written once), the memory-bandwidth
 * bound of the run; and to NV12 (a camera to an encoder), scaled down to
 * 1080p and 720p and 1:1 (NV12 in the RGBA buffer: it fits). Each timed with
 * CUDA events over ITERATIONS launches after a warm-up, with the host time of
 * a launch call beside it; one markdown table. With --profile, one
 * launch a line (after one warm-up): for Nsight Compute.
 *
 * NPP's 16-bit demosaic writes 16-bit RGBA (8 bytes a pixel) where
 * texelconvert writes 8-bit RGBA (4): the table gives each line's bytes,
 * and the bound is computed per line.
 *
 * Built where the CUDA toolkit has NPP (tests/bench/meson.build); exits
 * 77 (skipped) without a GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>
#include <nppi_color_conversion.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench-cuda-check.h"
#include "texel-adjust.h"
#include "texel-bayer.h"
#include "texel-convert.h"
#include "texel-cuda.h"
#include "texel-image.h"

#define WIDTH 3840
#define HEIGHT 2160
#define WARMUP 20
#define ITERATIONS 200
#define EXIT_SKIP 77

/* NPP calls return an NppStatus, not a cudaError_t. */
#define NPP_CHECK(call)                                                        \
  do                                                                           \
    {                                                                          \
      NppStatus npp_status = (call);                                           \
      if (npp_status != NPP_SUCCESS)                                           \
        {                                                                      \
          fprintf (stderr, "%s:%d: %s failed: NppStatus %d\n", __FILE__,       \
                   __LINE__, #call, (int)npp_status);                          \
          exit (1);                                                            \
        }                                                                      \
    }                                                                          \
  while (0)

typedef struct
{
  cudaStream_t stream;
  cudaEvent_t start, stop;
  /* Launches timed, and warm-up launches before them: ITERATIONS and
   * WARMUP, or 1 and 1 with --profile (a profiler's run, which times
   * each launch itself). */
  int iterations, warmup;
  /* Host milliseconds of the last time_ms's launch calls, a call (the
   * loop's wall time: where it nears the GPU's, the host, not the kernel,
   * sets the pace). */
  double host_ms;
} Timer;

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Mean milliseconds of one call of @launch over t->iterations calls. */
template <typename Launch>
static double
time_ms (Timer *t, Launch launch)
{
  float ms = 0.0f;
  double host0;
  int i;

  for (i = 0; i < t->warmup; i++)
    launch ();
  CHECK (cudaEventRecord (t->start, t->stream));
  host0 = now_ms ();
  for (i = 0; i < t->iterations; i++)
    launch ();
  t->host_ms = (now_ms () - host0) / t->iterations;
  CHECK (cudaEventRecord (t->stop, t->stream));
  CHECK (cudaEventSynchronize (t->stop));
  CHECK (cudaEventElapsedTime (&ms, t->start, t->stop));
  return (double)ms / t->iterations;
}

static void
print_line (const Timer *t, const char *what, double ms, double bytes,
            double copy_gbs)
{
  double gbs = bytes / (ms * 1e6);

  printf ("| %s | %.1f | %.1f | %.1f | %.0f | %.0f | %.2f |\n", what,
          bytes / 1e6, ms * 1e3, t->host_ms * 1e3, 1000.0 / ms, gbs,
          gbs / copy_gbs);
}

/* NPP's stream context for @stream, from the device's properties (the
 * fields NPP documents for NppStreamContext). */
static NppStreamContext
npp_context (cudaStream_t stream)
{
  NppStreamContext ctx;
  cudaDeviceProp prop;
  unsigned int flags = 0;
  int device;

  memset (&ctx, 0, sizeof (ctx));
  CHECK (cudaGetDevice (&device));
  CHECK (cudaGetDeviceProperties (&prop, device));
  CHECK (cudaStreamGetFlags (stream, &flags));
  ctx.hStream = stream;
  ctx.nCudaDeviceId = device;
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  ctx.nStreamFlags = flags;
  return ctx;
}

/* A texelconvert plan: 4K RGGB of @bits (in 16-bit words above 8) to
 * @out_format at @out_w x @out_h (4K: 1:1, nearest, the mosaic's own grid;
 * smaller: bilinear, texelconvert's default) with @demosaic; neutral
 * development (no black level, unit gains, identity matrix, linear
 * output) where @neutral, else the defaults a camera pipeline sets (black
 * 16, gains, a matrix, sRGB); chroma co-sited with the left luma sample
 * where @mpeg2 (GStreamer's default for HD YUV), else centred. */
static void
bayer_plan (TexelConvertPlan *plan, TexelBayerConfig *b, int bits, int demosaic,
            int neutral, TexelFormat out_format, int out_w, int out_h,
            int mpeg2)
{
  static const double ccm[3][3]
      = { { 1.6, -0.4, -0.2 }, { -0.3, 1.5, -0.2 }, { 0.1, -0.6, 1.5 } };
  TexelConvertConfig config;
  const char *why = NULL;
  int c;

  memset (b, 0, sizeof (*b));
  b->pattern = TEXEL_BAYER_RGGB;
  b->demosaic = (TexelDemosaic)demosaic;
  b->bits = bits;
  for (c = 0; c < 3; c++)
    {
      b->gain[c] = neutral ? 1.0 : (c == 0 ? 1.9 : c == 2 ? 1.5 : 1.0);
      b->black[c] = neutral ? 0.0 : (double)(16 << (bits - 8));
      b->ccm[c][c] = 1.0;
    }
  if (!neutral)
    memcpy (b->ccm, ccm, sizeof (ccm));
  b->transfer = neutral ? TEXEL_TRANSFER_LINEAR : TEXEL_TRANSFER_SRGB;

  memset (&config, 0, sizeof (config));
  config.src_w = WIDTH;
  config.src_h = HEIGHT;
  config.dst_w = out_w;
  config.dst_h = out_h;
  config.method = out_w == WIDTH && out_h == HEIGHT ? TEXEL_METHOD_NEAREST
                                                    : TEXEL_METHOD_BILINEAR;
  config.out_color.matrix = TEXEL_MATRIX_BT709;
  config.out_color.chroma_h_cosited = mpeg2;
  config.border_rgba[3] = 1.0;
  config.bayer = b;
  if (texel_convert_plan_init (
          plan, &config, bits > 8 ? TEXEL_FORMAT_GRAY16_LE : TEXEL_FORMAT_GRAY8,
          WIDTH, HEIGHT, out_format, out_w, out_h, &why)
      != 0)
    {
      fprintf (stderr, "plan: %s\n", why);
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  TexelCudaContext *kernels = NULL;
  TexelImage in8, in16, out, nv12;
  void *in8_mem, *in16_mem, *out_mem, *npp_out;
  size_t in8_size, in16_size, out_size, npp_pitch;
  double copy_ms, copy_gbs, bytes;
  Timer t;
  NppStreamContext npp;
  NppiSize size = { WIDTH, HEIGHT };
  NppiRect roi = { 0, 0, WIDTH, HEIGHT };
  int count = 0, bits;

  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0)
    {
      printf ("no GPU: skipped\n");
      return EXIT_SKIP;
    }
  t.iterations = ITERATIONS;
  t.warmup = WARMUP;
  if (argc > 1 && strcmp (argv[1], "--profile") == 0)
    t.iterations = t.warmup = 1;
  CHECK (cudaSetDevice (0));
  CHECK (cudaStreamCreateWithFlags (&t.stream, cudaStreamNonBlocking));
  CHECK (cudaEventCreate (&t.start));
  CHECK (cudaEventCreate (&t.stop));
  CHECK (texel_cuda_context_new (0, &kernels));
  npp = npp_context (t.stream);

  in8_size = texel_image_layout (&in8, TEXEL_FORMAT_GRAY8, WIDTH, HEIGHT, 256,
                                 512, NULL);
  in16_size = texel_image_layout (&in16, TEXEL_FORMAT_GRAY16_LE, WIDTH, HEIGHT,
                                  256, 512, NULL);
  out_size = texel_image_layout (&out, TEXEL_FORMAT_RGBA, WIDTH, HEIGHT, 256,
                                 512, NULL);
  CHECK (cudaMalloc (&in8_mem, in8_size));
  CHECK (cudaMalloc (&in16_mem, in16_size));
  CHECK (cudaMalloc (&out_mem, out_size));
  /* NPP's 16-bit output is the larger: 8 bytes a pixel. */
  npp_pitch = (size_t)WIDTH * 8;
  CHECK (cudaMalloc (&npp_out, npp_pitch * HEIGHT));
  /* Mid-grey with some structure: the kernels' time does not depend on
   * the values (no branches on data), only valid codes matter. */
  CHECK (cudaMemsetAsync (in8_mem, 0x5a, in8_size, t.stream));
  CHECK (cudaMemsetAsync (in16_mem, 0x07, in16_size, t.stream));
  texel_image_layout (&in8, TEXEL_FORMAT_GRAY8, WIDTH, HEIGHT, 256, 512,
                      (uint8_t *)in8_mem);
  texel_image_layout (&in16, TEXEL_FORMAT_GRAY16_LE, WIDTH, HEIGHT, 256, 512,
                      (uint8_t *)in16_mem);
  texel_image_layout (&out, TEXEL_FORMAT_RGBA, WIDTH, HEIGHT, 256, 512,
                      (uint8_t *)out_mem);

  /* The bound: one read of the largest line's bytes and one write, as a
   * device-to-device copy of 8-bit in + RGBA out (41.5 MB moved). */
  bytes = (double)WIDTH * HEIGHT * (1 + 4);
  copy_ms = time_ms (&t, [&] {
    CHECK (cudaMemcpyAsync (out_mem, npp_out, (size_t)WIDTH * HEIGHT * 5 / 2,
                            cudaMemcpyDeviceToDevice, t.stream));
  });
  copy_gbs = bytes / (copy_ms * 1e6);

  printf ("4K (%dx%d) RGGB on the GPU, kernels alone, %d launches after %d "
          "warm-up, one stream; host us: the launch call's own time\n\n",
          WIDTH, HEIGHT, t.iterations, t.warmup);
  printf ("| kernel | MB moved | us | host us | frames/s | GB/s | of the "
          "copy's GB/s |\n|---|---:|---:|---:|---:|---:|---:|\n");
  print_line (&t, "device-to-device copy, 8-bit mosaic + RGBA (the bound)",
              copy_ms, bytes, copy_gbs);

  for (bits = 8; bits <= 12; bits += 4)
    {
      const TexelImage *in = bits > 8 ? &in16 : &in8;
      double in_bytes = (double)WIDTH * HEIGHT * (bits > 8 ? 2 : 1);
      double out8 = (double)WIDTH * HEIGHT * 4;
      char label[160];
      int demosaic, neutral;

      for (demosaic = TEXEL_DEMOSAIC_BILINEAR; demosaic >= TEXEL_DEMOSAIC_MHC;
           demosaic--)
        for (neutral = 1; neutral >= 0; neutral--)
          {
            TexelConvertPlan plan;
            TexelBayerConfig b;

            bayer_plan (&plan, &b, bits, demosaic, neutral, TEXEL_FORMAT_RGBA,
                        WIDTH, HEIGHT, 0);
            snprintf (label, sizeof (label),
                      "texelconvert %d-bit -> RGBA, %s, %s", bits,
                      demosaic == TEXEL_DEMOSAIC_MHC ? "MHC" : "bilinear",
                      neutral ? "demosaic only (linear, no matrix)"
                              : "black, gains, matrix, sRGB");
            print_line (&t, label,
                        time_ms (&t,
                                 [&] {
                                   CHECK (texel_cuda_convert (
                                       kernels, &plan, in, &out, 0, HEIGHT,
                                       (TexelStream)t.stream));
                                 }),
                        in_bytes + out8, copy_gbs);
          }
      if (bits == 8)
        print_line (&t, "NPP nppiCFAToRGBA_8u_C1AC4R_Ctx -> RGBA",
                    time_ms (&t,
                             [&] {
                               NPP_CHECK (nppiCFAToRGBA_8u_C1AC4R_Ctx (
                                   (const Npp8u *)in8.data[0], in8.stride[0],
                                   size, roi, (Npp8u *)npp_out, WIDTH * 4,
                                   NPPI_BAYER_RGGB, NPPI_INTER_UNDEFINED, 255,
                                   npp));
                             }),
                    in_bytes + out8, copy_gbs);
      else
        print_line (&t, "NPP nppiCFAToRGBA_16u_C1AC4R_Ctx -> RGBA 16-bit",
                    time_ms (&t,
                             [&] {
                               NPP_CHECK (nppiCFAToRGBA_16u_C1AC4R_Ctx (
                                   (const Npp16u *)in16.data[0], in16.stride[0],
                                   size, roi, (Npp16u *)npp_out, (int)npp_pitch,
                                   NPPI_BAYER_RGGB, NPPI_INTER_UNDEFINED, 4095,
                                   npp));
                             }),
                    in_bytes + out8 * 2, copy_gbs);

      /* To NV12 (a camera to an encoder): luma and chroma in one launch
       * (texel-bayer-yuv.cuh), each output sample filtering developed
       * pixels; scaled down to 1080p with both chroma sitings, 1:1, and
       * down to 720p (3:1). */
      for (int k = 0; k < 6; k++)
        {
          int scaled = k < 4, mpeg2 = k % 2 || k >= 4;
          int w = scaled ? WIDTH / 2 : k == 4 ? WIDTH : WIDTH / 3;
          int h = scaled ? HEIGHT / 2 : k == 4 ? HEIGHT : HEIGHT / 3;
          TexelConvertPlan plan;
          TexelBayerConfig b;

          demosaic = k < 2 ? TEXEL_DEMOSAIC_BILINEAR : TEXEL_DEMOSAIC_MHC;
          bayer_plan (&plan, &b, bits, demosaic, 0, TEXEL_FORMAT_NV12, w, h,
                      mpeg2);
          texel_image_layout (&nv12, TEXEL_FORMAT_NV12, w, h, 256, 512,
                              (uint8_t *)out_mem);
          snprintf (label, sizeof (label),
                    "texelconvert %d-bit -> %s NV12 (%s chroma), %s, black, "
                    "gains, matrix, sRGB",
                    bits,
                    scaled   ? "1080p"
                    : k == 4 ? "4K"
                             : "720p",
                    mpeg2 ? "MPEG-2" : "centred",
                    demosaic == TEXEL_DEMOSAIC_MHC ? "MHC" : "bilinear");
          print_line (&t, label,
                      time_ms (&t,
                               [&] {
                                 CHECK (texel_cuda_convert (
                                     kernels, &plan, in, &nv12, 0, h,
                                     (TexelStream)t.stream));
                               }),
                      in_bytes + (double)w * h * 1.5, copy_gbs);
        }
    }

  CHECK (cudaStreamSynchronize (t.stream));
  texel_cuda_context_free (kernels);
  CHECK (cudaFree (in8_mem));
  CHECK (cudaFree (in16_mem));
  CHECK (cudaFree (out_mem));
  CHECK (cudaFree (npp_out));
  CHECK (cudaEventDestroy (t.start));
  CHECK (cudaEventDestroy (t.stop));
  CHECK (cudaStreamDestroy (t.stream));
  return 0;
}
