/* gst-texel: the CUDA kernels of texelfilter against the CPU reference.
 *
 * A plain C program (no GLib, no GStreamer) so that it runs on a bare GPU
 * machine. For every format x a list of filter settings x both border
 * modes, planes=all and planes=luma in turn, on fresh random frames of an
 * odd size (317x179) and of a size smaller than most windows (7x5), it
 * filters on the CPU (texel_filter_cpu, double precision, the oracle) and
 * on the GPU in device memory, in mapped (zero-copy) host memory and in
 * device memory at misaligned addresses and pitches, and checks:
 *  - every output code within 2 codes of the reference, and at least
 *    99.9 % of them within 1 (8-bit codes, or 10-bit codes for P010;
 *    texel-filter.cu derives why: the GPU's float error stays well under
 *    a code, so codes differ only where the exact value lies that close
 *    to a half code);
 *  - the GPU wrote exactly the bytes the CPU wrote (each side runs twice,
 *    into outputs poisoned differently).
 * One case in two runs as three bands, each on its own stream from an
 * input holding only the rows texel_filter_input_rows () names for it
 * (the others poisoned), as the staged path uploads them. Exits 77
 * (skipped) without a usable GPU.
 *
 * Usage: test-filter-gpu [--quick | --tiny] [--seed N]
 *   --quick: a subset for runs under compute-sanitizer memcheck;
 *   --tiny: the quick subset with one format per setting, for racecheck
 *   (much slower still): every filter, border and shared-memory tiling,
 *   fewer pixel layouts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "texel-filter.h"
#include "texel-cuda.h"
#include "texel-gpu-image.h"
#include "../unit/texel-test-filter.h"
#include "../unit/texel-test-formats.h"

#define POISON_INPUT 0x77
#define N_BANDS 3

/* ------------------------------------------------------------------ */
/* Settings */

static const char *const filter_names[TEXEL_FILTER_N_KINDS]
    = { "gaussian", "unsharp", "bilateral", "box", "sobel" };

typedef struct
{
  const char *name;
  FilterSettings p;
  /* The reference is slow at this window: small frames only. */
  int small_only;
} Settings;

static const Settings settings[] = {
  { "gaussian 0.7", { TEXEL_FILTER_GAUSSIAN, 0.7, 1, 1, 0.1, 1 }, 0 },
  { "gaussian 1", { TEXEL_FILTER_GAUSSIAN, 1.0, 1, 1, 0.1, 1 }, 0 },
  { "gaussian 3.3", { TEXEL_FILTER_GAUSSIAN, 3.3, 1, 1, 0.1, 1 }, 0 },
  { "gaussian 10 (R 30)", { TEXEL_FILTER_GAUSSIAN, 10.0, 1, 1, 0.1, 1 }, 0 },
  { "unsharp 1 1", { TEXEL_FILTER_UNSHARP, 1.0, 1.0, 1, 0.1, 1 }, 0 },
  { "unsharp 10 2", { TEXEL_FILTER_UNSHARP, 2.0, 10.0, 1, 0.1, 1 }, 0 },
  { "bilateral 5x5", { TEXEL_FILTER_BILATERAL, 1, 1, 1.0, 0.1, 1 }, 0 },
  { "bilateral 2.5 0.03", { TEXEL_FILTER_BILATERAL, 1, 1, 2.5, 0.03, 1 }, 0 },
  { "bilateral 0.6 1", { TEXEL_FILTER_BILATERAL, 1, 1, 0.6, 1.0, 1 }, 0 },
  { "bilateral 16 (R 32)", { TEXEL_FILTER_BILATERAL, 1, 1, 16.0, 0.2, 1 }, 1 },
  { "box 1", { TEXEL_FILTER_BOX, 1, 1, 1, 0.1, 1 }, 0 },
  { "box 5", { TEXEL_FILTER_BOX, 1, 1, 1, 0.1, 5 }, 0 },
  { "box 32", { TEXEL_FILTER_BOX, 1, 1, 1, 0.1, 32 }, 0 },
  { "sobel", { TEXEL_FILTER_SOBEL, 1, 1, 1, 0.1, 1 }, 0 },
};

#define N_SETTINGS ((int)(sizeof (settings) / sizeof (settings[0])))

static const TexelFormat all_formats[] = { TEXEL_TEST_FORMATS_10 };

#define N_FORMATS ((int)(sizeof (all_formats) / sizeof (all_formats[0])))

/* ------------------------------------------------------------------ */
/* Inputs of the staged path's bands */

/* Rows of plane @p that luma rows [row0, row1) cover (as the staged path
 * copies them). */
static void
plane_row_range (const TexelImage *img, int p, int row0, int row1, int *first,
                 int *end)
{
  int shift = plane_rows (img, p) < img->height ? 1 : 0;

  *first = row0 >> shift;
  *end = (row1 + (1 << shift) - 1) >> shift;
}

/* @src with the rows outside luma rows [row0, row1) poisoned, into @dst
 * (same layout). */
static void
host_image_keep_rows (HostImage *dst, const HostImage *src, int row0, int row1)
{
  const TexelFormatDesc *desc = texel_format_desc (src->img.format);
  int p, r;

  memcpy (dst->mem, src->mem, src->size);
  for (p = 0; p < desc->n_planes; p++)
    {
      int first, end;

      plane_row_range (&src->img, p, row0, row1, &first, &end);
      for (r = 0; r < plane_rows (&src->img, p); r++)
        if (r < first || r >= end)
          memset (dst->img.data[p] + (size_t)r * dst->img.stride[p],
                  POISON_INPUT, dst->img.stride[p]);
    }
}

/* ------------------------------------------------------------------ */
/* Running one case */

typedef struct
{
  TexelCudaContext *kctx;
  cudaStream_t stream[N_BANDS];
  int passed, failed;
  /* Per setting, over all formats and modes. */
  Tally tally[N_SETTINGS];
} Context;

/* Band @b of N_BANDS: luma rows [*row0, *row1), starting on even rows. */
static void
band_rows (int height, int b, int *row0, int *row1)
{
  *row0 = (height * b / N_BANDS) & ~1;
  *row1 = b + 1 == N_BANDS ? height : (height * (b + 1) / N_BANDS) & ~1;
}

/* Filters @in on the GPU into @gpu (two runs, poisons A and B); in bands,
 * each from an input holding only the rows it may read. */
static int
run_gpu (Context *ctx, const TexelFilterPlan *plan, const HostImage *in,
         HostImage gpu[2], MemoryMode mode, int bands)
{
  static const int poison[2] = { POISON_A, POISON_B };
  GpuImage gin, gout;
  HostImage partial;
  int failed = 0, run, b;

  failed |= host_image_init (&partial, in->img.format, in->img.width,
                             in->img.height);
  failed |= check_cuda (gpu_image_alloc (&gin, mode, in, 3), "input alloc");
  failed
      |= check_cuda (gpu_image_alloc (&gout, mode, &gpu[0], 1), "output alloc");
  if (!failed && !bands)
    failed
        |= check_cuda (gpu_image_upload (&gin, in, ctx->stream[0]), "upload");

  for (run = 0; run < 2 && !failed; run++)
    {
      failed |= check_cuda (
          gpu_image_poison (&gout, poison[run], ctx->stream[0]), "poison");
      if (!failed && bands)
        {
          for (b = 0; b < N_BANDS && !failed; b++)
            {
              int r0, r1, in0, in1;

              band_rows (plan->height, b, &r0, &r1);
              texel_filter_input_rows (plan, r0, r1, &in0, &in1);
              host_image_keep_rows (&partial, in, in0, in1);
              failed |= check_cuda (
                  gpu_image_upload (&gin, &partial, ctx->stream[b]),
                  "upload band");
              if (!failed)
                failed |= check_cuda ((cudaError_t)texel_cuda_filter (
                                          ctx->kctx, plan, &gin.dev, &gout.dev,
                                          r0, r1, (TexelStream)ctx->stream[b]),
                                      "filter band");
              if (!failed)
                failed |= check_cuda (cudaStreamSynchronize (ctx->stream[b]),
                                      "sync band");
            }
        }
      else if (!failed)
        {
          failed |= check_cuda ((cudaError_t)texel_cuda_filter (
                                    ctx->kctx, plan, &gin.dev, &gout.dev, 0,
                                    plan->height, (TexelStream)ctx->stream[0]),
                                "filter");
          if (!failed)
            failed
                |= check_cuda (cudaStreamSynchronize (ctx->stream[0]), "sync");
        }
      if (!failed)
        failed |= check_cuda (
            gpu_image_download (&gout, &gpu[run], poison[run], ctx->stream[0]),
            "download");
    }
  gpu_image_free (&gin);
  gpu_image_free (&gout);
  host_image_clear (&partial);
  return failed ? -1 : 0;
}

static void
run_case (Context *ctx, int s, TexelFormat format, int border, int planes,
          int width, int height, const MemoryMode *modes, int n_modes,
          int bands)
{
  const Settings *st = &settings[s];
  const char *fmt = texel_format_desc (format)->name;
  TexelFilterConfig cfg;
  TexelFilterPlan plan;
  HostImage in, cpu[2], gpu[2];
  const char *why = NULL;
  int i, m;

  filter_config_for (&cfg, &st->p, border, planes);
  if (texel_filter_plan_init (&plan, &cfg, format, width, height, &why) != 0)
    {
      printf ("FAIL %s %s: plan: %s\n", fmt, st->name, why);
      ctx->failed++;
      return;
    }
  if (case_images_init (&in, cpu, gpu, format, width, height, format, width,
                        height)
      != 0)
    {
      printf ("FAIL: out of memory\n");
      ctx->failed++;
      return;
    }
  for (i = 0; i < 2; i++)
    texel_filter_cpu (&plan, &in.img, &cpu[i].img, 0, height);

  for (m = 0; m < n_modes; m++)
    {
      Comparison cmp;
      int ok;

      if (run_gpu (ctx, &plan, &in, gpu, modes[m], bands) != 0)
        {
          printf ("FAIL %s %dx%d %s %s %s %s: CUDA error\n", fmt, width, height,
                  st->name, border ? "mirror" : "clamp",
                  planes ? "all" : "luma", memory_names[modes[m]]);
          ctx->failed++;
          continue;
        }
      compare_outputs (cpu, gpu, &cmp);
      ok = !cmp.unwritten && !cmp.stray && !cmp.bad_padding && cmp.over2 == 0
           && cmp.over1 * 1000 <= cmp.samples;
      if (!ok)
        {
          char label[160];

          snprintf (label, sizeof (label), "%s %dx%d %s %s %s %s%s", fmt, width,
                    height, st->name, border ? "mirror" : "clamp",
                    planes ? "all" : "luma", memory_names[modes[m]],
                    bands ? " bands" : "");
          comparison_print_failure (label, &cmp);
          ctx->failed++;
        }
      else
        {
          ctx->passed++;
        }
      tally_add (&ctx->tally[s], &cmp);
    }

  case_images_clear (&in, cpu, gpu);
}

/* Contract checks that need no comparison. */
static void
check_api (Context *ctx)
{
  TexelFilterConfig cfg;
  TexelFilterPlan plan;
  HostImage a, b, rgba;
  TexelStream stream = (TexelStream)ctx->stream[0];
  TexelCudaContext *k = ctx->kctx;
  int err;

  texel_filter_config_init (&cfg);
  texel_filter_plan_init (&plan, &cfg, TEXEL_FORMAT_NV12, 64, 48, NULL);
  host_image_init (&a, TEXEL_FORMAT_NV12, 64, 48);
  host_image_init (&b, TEXEL_FORMAT_NV12, 64, 48);
  host_image_init (&rgba, TEXEL_FORMAT_RGBA, 64, 48);

  /* All refused before anything is queued (host pointers never reach a
   * kernel). */
  err = texel_cuda_filter (k, &plan, &a.img, &b.img, 0, 48, NULL);
  expect_refused (err, "the default stream", &ctx->passed, &ctx->failed);
  err = texel_cuda_filter (NULL, &plan, &a.img, &b.img, 0, 48, stream);
  expect_refused (err, "no context", &ctx->passed, &ctx->failed);
  err = texel_cuda_filter (k, &plan, &a.img, &rgba.img, 0, 48, stream);
  expect_refused (err, "a mismatching output image", &ctx->passed,
                  &ctx->failed);
  err = texel_cuda_filter (k, &plan, &a.img, &b.img, 1, 48, stream);
  expect_refused (err, "an odd first row of 4:2:0", &ctx->passed, &ctx->failed);
  err = texel_cuda_filter (k, &plan, &a.img, &a.img, 0, 48, stream);
  expect_refused (err, "filtering in place", &ctx->passed, &ctx->failed);
  err = texel_cuda_filter (k, &plan, &a.img, &b.img, 0, 50, stream);
  expect_refused (err, "rows past the frame", &ctx->passed, &ctx->failed);
  host_image_clear (&a);
  host_image_clear (&b);
  host_image_clear (&rgba);
}

int
main (int argc, char **argv)
{
  static const MemoryMode all_modes[]
      = { MEMORY_DEVICE, MEMORY_MAPPED, MEMORY_MISALIGNED };
  static const int sizes[][2] = { { 317, 179 }, { 7, 5 }, { 64, 48 } };
  GpuTestOptions opts;
  Context ctx;
  int quick, tiny;
  int s, f, border, z, n = 0;
  Tally all = { 0 };

  if (gpu_test_begin (argc, argv, 1, &opts) != 0)
    return SKIP_EXIT_CODE;
  quick = opts.quick;
  tiny = opts.tiny;

  memset (&ctx, 0, sizeof (ctx));
  /* gpu_test_streams_create makes device 0 current, the context's. */
  if (gpu_test_streams_create (ctx.stream, N_BANDS)
      || check_cuda ((cudaError_t)texel_cuda_context_new (0, &ctx.kctx),
                     "kernel context"))
    return 1;

  check_api (&ctx);
  for (s = 0; s < N_SETTINGS; s++)
    for (f = 0; f < N_FORMATS; f++)
      for (border = 0; border < 2; border++)
        for (z = 0; z < 3; z++)
          {
            /* Large windows: the small frames (the reference is slow);
             * others: the large and the tiny frame. */
            if (settings[s].small_only ? z == 0 : z == 2)
              continue;
            if (tiny ? z == 0 || f != (s * 5 + border) % N_FORMATS
                     : quick && (z == 0 || (s + f + border) % 3 != 0))
              continue;
            run_case (&ctx, s, all_formats[f], border, (s + f + z) % 2,
                      sizes[z][0], sizes[z][1], all_modes, MEMORY_MODES,
                      n++ % 2);
          }

  for (s = 0; s < N_SETTINGS; s++)
    {
      char label[64];

      snprintf (label, sizeof (label), "%-22s %-9s", settings[s].name,
                filter_names[settings[s].p.filter]);
      tally_print (label, &ctx.tally[s], "");
      tally_add_tally (&all, &ctx.tally[s]);
    }
  tally_print_total ("all settings", &all);

  texel_cuda_context_free (ctx.kctx);
  gpu_test_streams_destroy (ctx.stream, N_BANDS);
  printf ("%d passed, %d failed\n", ctx.passed, ctx.failed);
  return ctx.failed ? 1 : 0;
}
