/* gst-texel GPU test: raw Bayer input developed by texelconvert's CUDA
 * kernel (texel-bayer.cuh) against the CPU reference (texel_convert_cpu,
 * the double-precision oracle that test-bayer checks against the formulas
 * of tests/common/bayer-reference.h).
 *
 * Every pattern; 8-bit samples and 10, 12 and 16 bits in 16-bit words (lsb
 * and msb); both demosaic methods with black levels, gains, a colour matrix
 * and sRGB encoding, and alone (linear, no matrix); at 1:1 (nearest),
 * scaled with a crop starting on an odd sample and a flip (bilinear, NV12:
 * chroma footprints), rotated and enlarged (bicubic, P010), YUV outputs
 * of each chroma siting with a letterbox, 4:2:2 packed (luma and chroma
 * in one launch, texel-bayer-yuv.cuh), 1-pixel-wide
 * frames, and 1:1 crops starting on each colour to RGBA, BGRx and ARGB
 * (the 2x2-cell kernel, texel-bayer-cells.cuh: both demosaic forms, with
 * and without development, the tile read through each of its loads,
 * blocks at and away from the frame's edges); the mosaic read
 * through point-sampled textures (device and mapped memory, both of
 * texelconvert's memory modes) and with plain loads (misaligned memory).
 *
 * Bound: 1 code. The GPU computes what the CPU does in float instead of
 * double; no hardware filtering is involved (point sampling returns the
 * stored word exactly), so only rounding of the last code can differ.
 *
 * Grey-world statistics (automatic white balance): every case also has
 * the kernel gather them in the same pass (plan.bayer.awb_sums), once per
 * frame whatever the output groups and bands (two bands on two streams
 * where the rows allow); each run's sums must equal the CPU reference's
 * (texel_bayer_stats over the cropped source rectangle) exactly: they
 * are integers, summed in 64 bits in any order.
 *
 * Exits 77 (skipped) without a usable GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "texel-convert.h"
#include "texel-cuda.h"
#include "texel-gpu-image.h"

#define BOUND 1

typedef struct
{
  cudaStream_t stream[2];
  TexelCudaContext *kernels;
  int passed, failed, worst;
} Context;

typedef struct
{
  TexelCudaContext *kernels;
  const TexelConvertPlan *plan;
} Launch;

typedef struct
{
  const char *name;
  int in_w, in_h;
  int crop_x, crop_y; /* the source rectangle's corner */
  int out_w, out_h;
  TexelFormat out_format;
  TexelMethod method;
  TexelDirection direction;
  /* The destination rectangle inside the output (0 x 0: all of it). */
  int dst_x, dst_y, dst_w, dst_h;
  int h_cosited, v_cosited; /* the output's chroma siting */
} Geometry;

static const Geometry geometries[] = {
  { "1:1", 37, 23, 0, 0, 37, 23, TEXEL_FORMAT_RGBA, TEXEL_METHOD_NEAREST,
    TEXEL_DIRECTION_IDENTITY },
  { "crop+flip", 64, 48, 1, 1, 50, 30, TEXEL_FORMAT_NV12, TEXEL_METHOD_BILINEAR,
    TEXEL_DIRECTION_HORIZ },
  { "90r x2", 33, 17, 0, 1, 32, 66, TEXEL_FORMAT_P010_10LE,
    TEXEL_METHOD_BICUBIC, TEXEL_DIRECTION_90R },
  { "1-wide", 1, 9, 0, 0, 3, 9, TEXEL_FORMAT_BGRX, TEXEL_METHOD_BILINEAR,
    TEXEL_DIRECTION_IDENTITY },
  /* The 2x2-cell kernel (texel-bayer-cells.cuh): crops starting on each
   * colour, several blocks with partial ones at the right and bottom, the
   * rows split into bands at odd rows, bilinear at 1:1. */
  { "1:1 crop 3,1", 150, 70, 3, 1, 147, 69, TEXEL_FORMAT_RGBA,
    TEXEL_METHOD_BILINEAR, TEXEL_DIRECTION_IDENTITY },
  { "1:1 crop 0,1", 66, 35, 0, 1, 66, 34, TEXEL_FORMAT_BGRX,
    TEXEL_METHOD_NEAREST, TEXEL_DIRECTION_IDENTITY },
  /* Alpha in the first byte (the word's fixed bytes, the colours'
   * permutes), a crop starting on an odd column of an even row, a frame
   * wide enough for blocks wholly inside it (the tile without mirroring). */
  { "1:1 crop 1,2", 200, 62, 1, 2, 199, 60, TEXEL_FORMAT_ARGB,
    TEXEL_METHOD_BILINEAR, TEXEL_DIRECTION_IDENTITY },
  /* Luma and chroma in one launch (texel-bayer-yuv.cuh), with each
   * siting: MPEG-2's (the column before a thread's block its left lane's,
   * rows of 33 chroma samples: a second warp whose first lane develops
   * it), odd output sizes (a last chroma column and row half outside the
   * picture); DV's (also the row above) with a letterbox at odd offsets;
   * 4:2:2, packed, flipped at 1:1 (nearest: one launch where the map is
   * exact) and rotated and scaled (nearest: a launch per group, since a
   * column of chroma taps falls on pixel boundaries there). ("crop+flip"
   * and "90r x2" above take it too, with centred siting.) */
  { "2:1 mpeg2", 130, 70, 0, 0, 65, 35, TEXEL_FORMAT_NV12,
    TEXEL_METHOD_BILINEAR, TEXEL_DIRECTION_IDENTITY, 0, 0, 0, 0, 1, 0 },
  { "letterbox dv", 96, 64, 1, 0, 80, 60, TEXEL_FORMAT_I420,
    TEXEL_METHOD_BICUBIC, TEXEL_DIRECTION_IDENTITY, 5, 3, 70, 51, 1, 1 },
  { "4:2:2 90l", 40, 30, 0, 0, 31, 41, TEXEL_FORMAT_YUY2, TEXEL_METHOD_NEAREST,
    TEXEL_DIRECTION_90L, 0, 0, 0, 0, 1, 0 },
  { "4:2:2 flip", 66, 34, 0, 0, 66, 34, TEXEL_FORMAT_UYVY, TEXEL_METHOD_NEAREST,
    TEXEL_DIRECTION_VERT },
  /* 3:1: blocks of 16 columns (texel_bayer_yuv_block), two rows a warp,
   * the second past the last row in the last block row. */
  { "3:1 mpeg2", 200, 100, 1, 0, 66, 33, TEXEL_FORMAT_NV12,
    TEXEL_METHOD_BILINEAR, TEXEL_DIRECTION_IDENTITY, 0, 0, 0, 0, 1, 0 },
};

#define N_GEOMETRIES ((unsigned)(sizeof (geometries) / sizeof (geometries[0])))

static const char *const pattern_names[]
    = { NULL, "rggb", "bggr", "grbg", "gbrg" };

static const int depths[][2] = { { 8, 0 }, { 10, 0 }, { 12, 1 }, { 16, 0 } };

static cudaError_t
launch_convert (void *data, const TexelImage *in, const TexelImage *out,
                int row0, int row1, cudaStream_t stream)
{
  const Launch *l = data;

  return (cudaError_t)texel_cuda_convert (l->kernels, l->plan, in, out, row0,
                                          row1, (TexelStream)stream);
}

/* A camera's development (black level, gains, a colour matrix, sRGB), or
 * where @neutral the demosaic alone (no black level, unit gains, the
 * identity matrix, a linear output: the cell kernel's NEUTRAL). */
static void
bayer_config (TexelBayerConfig *b, int pattern, int demosaic,
              const int depth[2], int neutral)
{
  static const double ccm[3][3]
      = { { 1.6, -0.4, -0.2 }, { -0.3, 1.5, -0.2 }, { 0.1, -0.6, 1.5 } };
  double black = neutral ? 0.0 : (double)(16 << (depth[0] - 8));
  int c;

  memset (b, 0, sizeof (*b));
  b->pattern = (TexelBayerPattern)pattern;
  b->demosaic = (TexelDemosaic)demosaic;
  b->bits = depth[0];
  b->msb = depth[1];
  b->black[0] = b->black[1] = b->black[2] = black;
  b->gain[0] = neutral ? 1.0 : 1.9;
  b->gain[1] = 1.0;
  b->gain[2] = neutral ? 1.0 : 1.5;
  memcpy (b->ccm, ccm, sizeof (ccm));
  if (neutral)
    for (c = 0; c < 9; c++)
      b->ccm[c / 3][c % 3] = c / 3 == c % 3 ? 1.0 : 0.0;
  /* TEXEL_TRANSFER_SRGB and TEXEL_TRANSFER_LINEAR (texel-adjust.h) */
  b->transfer = neutral ? 2 : 1;
}

/* The GPU's statistics of the @runs runs just made (summed into @sums on
 * the device) against @runs times the CPU reference's; zeroes @sums for
 * the next mode. 0 when equal. */
static int
check_awb (Context *ctx, const TexelConvertPlan *plan, const HostImage *in,
           unsigned long long *sums, int runs, const char *label)
{
  const TexelBayerPlan *bp = &plan->bayer;
  TexelBayerStats cpu = { { 0 } }, gpu;
  int c, bad = 0;

  texel_bayer_stats (bp, &in->img, bp->awb_x0, bp->awb_y0, bp->awb_x1,
                     bp->awb_y1, &cpu);
  if (check_cuda (cudaStreamSynchronize (ctx->stream[0]), "awb sync")
      || check_cuda (cudaStreamSynchronize (ctx->stream[1]), "awb sync")
      || check_cuda (
          cudaMemcpy (&gpu, sums, sizeof (gpu), cudaMemcpyDeviceToHost),
          "awb download")
      || check_cuda (cudaMemset (sums, 0, sizeof (gpu)), "awb zero"))
    return -1;
  for (c = 0; c < 3; c++)
    if (gpu.sum[c] != runs * cpu.sum[c] || gpu.count[c] != runs * cpu.count[c])
      {
        printf ("FAIL %s: awb colour %d: GPU sum %llu count %llu, CPU %d x "
                "(%llu, %llu)\n",
                label, c, gpu.sum[c], gpu.count[c], runs, cpu.sum[c],
                cpu.count[c]);
        bad = -1;
      }
  return bad;
}

static void
run_case (Context *ctx, const Geometry *g, const TexelBayerConfig *b)
{
  static const MemoryMode modes[]
      = { MEMORY_DEVICE, MEMORY_MAPPED, MEMORY_MISALIGNED };
  TexelFormat in_format
      = b->bits > 8 ? TEXEL_FORMAT_GRAY16_LE : TEXEL_FORMAT_GRAY8;
  TexelConvertConfig config;
  TexelConvertPlan plan;
  HostImage in, cpu[2], gpu[2];
  const char *why = NULL;
  int i, m;

  memset (&config, 0, sizeof (config));
  config.src_x = g->crop_x;
  config.src_y = g->crop_y;
  config.src_w = g->in_w - g->crop_x;
  config.src_h = g->in_h - g->crop_y;
  config.dst_x = g->dst_x;
  config.dst_y = g->dst_y;
  config.dst_w = g->dst_w > 0 ? g->dst_w : g->out_w;
  config.dst_h = g->dst_h > 0 ? g->dst_h : g->out_h;
  config.method = g->method;
  config.direction = g->direction;
  config.out_color.matrix = TEXEL_MATRIX_BT709;
  config.out_color.chroma_h_cosited = g->h_cosited;
  config.out_color.chroma_v_cosited = g->v_cosited;
  config.border_rgba[3] = 1.0;
  config.bayer = b;
  if (texel_convert_plan_init (&plan, &config, in_format, g->in_w, g->in_h,
                               g->out_format, g->out_w, g->out_h, &why)
      != 0)
    {
      printf ("FAIL %s: plan: %s\n", g->name, why);
      ctx->failed++;
      return;
    }
  case_images_init (&in, cpu, gpu, in_format, g->in_w, g->in_h, g->out_format,
                    g->out_w, g->out_h);
  for (i = 0; i < 2; i++)
    texel_convert_cpu (&plan, &in.img, &cpu[i].img, 0, g->out_h);
  /* From here the kernel also gathers the statistics as it develops. */
  if (check_cuda (
          cudaMalloc ((void **)&plan.bayer.awb_sums, sizeof (TexelBayerStats)),
          "awb alloc")
      || check_cuda (
          cudaMemset (plan.bayer.awb_sums, 0, sizeof (TexelBayerStats)),
          "awb zero"))
    {
      ctx->failed++;
      case_images_clear (&in, cpu, gpu);
      return;
    }

  for (m = 0; m < (int)(sizeof (modes) / sizeof (modes[0])); m++)
    {
      Launch l = { ctx->kernels, &plan };
      Comparison cmp;
      char label[160];

      snprintf (label, sizeof (label), "%s %d-bit%s %s%s %s -> %s %s %s",
                pattern_names[b->pattern], b->bits, b->msb ? " msb" : "",
                b->demosaic ? "bilinear" : "mhc",
                b->transfer == 1 ? "" : " neutral", g->name,
                texel_format_desc (g->out_format)->name,
                method_names[g->method], memory_names[modes[m]]);
      if (gpu_run_twice (ctx->stream, launch_convert, &l, label, &in, gpu,
                         modes[m], 4, g->out_h, plan.rows_monotonic)
          != 0)
        {
          printf ("FAIL %s: CUDA error\n", label);
          ctx->failed++;
          continue;
        }
      compare_outputs (cpu, gpu, &cmp);
      if (cmp.max_error > ctx->worst)
        ctx->worst = cmp.max_error;
      if (cmp.max_error > BOUND || cmp.unwritten || cmp.stray
          || cmp.bad_padding)
        {
          comparison_print_failure (label, &cmp);
          ctx->failed++;
        }
      else if (check_awb (ctx, &plan, &in, plan.bayer.awb_sums, 2, label) != 0)
        {
          ctx->failed++;
        }
      else
        {
          ctx->passed++;
        }
    }
  (void)check_cuda (cudaFree (plan.bayer.awb_sums), "awb free");
  case_images_clear (&in, cpu, gpu);
}

int
main (int argc, char **argv)
{
  GpuTestOptions opts;
  Context ctx;
  unsigned gi, d, turn = 0;
  int p, demosaic, neutral;

  if (gpu_test_begin (argc, argv, 0, &opts) != 0)
    return SKIP_EXIT_CODE;
  memset (&ctx, 0, sizeof (ctx));
  if (gpu_test_streams_create (ctx.stream, 2)
      || check_cuda ((cudaError_t)texel_cuda_context_new (0, &ctx.kernels),
                     "converter"))
    return 1;

  for (p = TEXEL_BAYER_RGGB; p <= TEXEL_BAYER_GBRG; p++)
    for (d = 0; d < sizeof (depths) / sizeof (depths[0]); d++)
      for (demosaic = 0; demosaic < 2; demosaic++)
        for (neutral = 0; neutral < 2; neutral++)
          {
            TexelBayerConfig b;

            bayer_config (&b, p, demosaic, depths[d], neutral);
            /* --quick: one geometry per pattern, depth, demosaic and
             * development, in turn (64 of them: every geometry). */
            if (opts.quick)
              run_case (&ctx, &geometries[turn++ % N_GEOMETRIES], &b);
            else
              for (gi = 0; gi < N_GEOMETRIES; gi++)
                run_case (&ctx, &geometries[gi], &b);
          }

  printf ("%s: %d cases passed, %d failed; max error %d code(s) (bound %d)\n",
          ctx.failed ? "FAIL" : "PASS", ctx.passed, ctx.failed, ctx.worst,
          BOUND);
  texel_cuda_context_free (ctx.kernels);
  gpu_test_streams_destroy (ctx.stream, 2);
  return ctx.failed ? 1 : 0;
}
