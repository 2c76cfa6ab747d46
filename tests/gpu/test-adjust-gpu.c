/* gst-texel: the CUDA kernels of texeladjust against the CPU reference.
 *
 * A plain C program (no GLib, no GStreamer) so that it runs on a bare GPU
 * machine. For every format x a list of settings (the same as the unit
 * test's float emulation, tests/unit/test-adjust.c) x three
 * colorimetries, on fresh random frames of odd size, it adjusts on the
 * CPU (texel_adjust_cpu, double precision, the oracle) and on the GPU in
 * device memory, in mapped (zero-copy) host memory and in device memory
 * at misaligned addresses and pitches, and checks:
 *  - every output code within 2 codes of the reference, and at least
 *    99.9 % of them within 1 (texel-adjust.cu derives why: the GPU's
 *    float error, intrinsics included, stays well under a code, so codes
 *    differ only where the exact value is that close to a half code);
 *  - the GPU wrote exactly the bytes the CPU wrote (each side runs twice,
 *    into outputs poisoned differently).
 * Settings marked informative (ill-conditioned in float) are measured
 * and printed, not asserted. One case in two runs as two bands on two
 * streams. Exits 77 (skipped) without a usable GPU.
 *
 * 3D LUTs (made here as .cube text and parsed as the element parses
 * files) go through texel_cuda_lut3d_new: hardware filtering where the
 * plan chooses it, point fetches interpolated in float elsewhere, both
 * asserted with the bounds above. Rows in parentheses force hardware
 * filtering on LUTs whose bound E (texel-adjust.h) exceeds half a code:
 * they measure what the hardware's 8-bit weights really do, and assert
 * only that the error stays within floor (E) + 1 codes.
 *
 * gamma and the videobalance settings alone are checked against their
 * definitions instead (tests/unit/texel-gst-def.h: GStreamer's gamma and
 * videobalance elements, in double precision): the GPU must give exactly
 * their codes, 10-bit gamma (float on the GPU) within 1 code.
 *
 * Usage: test-adjust-gpu [--quick] [--seed N]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "texel-adjust.h"
#include "texel-cuda.h"
#include "texel-gpu-image.h"
#include "../unit/texel-gst-def.h"
#include "../unit/texel-test-formats.h"
#define TEXEL_TEST_ADJUST_GPU 1
#define TEXEL_TEST_WIDE_LUT_N 65
#include "../unit/texel-test-adjust.h"
#include "../unit/texel-test-luts.h"

/* ------------------------------------------------------------------ */
/* 3D LUTs */

static TexelCube *test_cubes[N_LUTS];
static TexelCudaLut3d *test_gpu_luts[N_LUTS];
/* The kernels' context on device 0, which main makes current. */
static TexelCudaContext *test_kctx;

/* LUT @which, on the host and on device 0 (made once). */
static const TexelCube *
test_cube (int which, TexelCudaLut3d **gpu)
{
  *gpu = NULL;
  if (which == LUT_NONE)
    return NULL;
  if (test_cubes[which] == NULL)
    {
      test_cubes[which] = adjust_lut_new (which);
      if (test_cubes[which] != NULL
          && texel_cuda_lut3d_new (test_kctx, test_cubes[which],
                                   &test_gpu_luts[which])
                 != 0)
        printf ("cannot copy LUT %d to the GPU\n", which);
    }
  *gpu = test_gpu_luts[which];
  return test_cubes[which];
}

static void
test_cubes_free (void)
{
  int i;

  for (i = 0; i < N_LUTS; i++)
    {
      texel_cuda_lut3d_free (test_gpu_luts[i]);
      texel_cube_free (test_cubes[i]);
    }
}

#define N_SETTINGS                                                             \
  ((int)(sizeof (adjust_settings) / sizeof (adjust_settings[0])))

#define N_COLORIMETRIES                                                        \
  ((int)(sizeof (adjust_colorimetries) / sizeof (adjust_colorimetries[0])))

static const TexelFormat all_formats[] = { TEXEL_TEST_FORMATS_10 };

#define N_FORMATS ((int)(sizeof (all_formats) / sizeof (all_formats[0])))

/* ------------------------------------------------------------------ */
/* Running one case */

typedef struct
{
  cudaStream_t stream[2];
  int passed, failed;
  /* Per setting, over all formats and modes. */
  Tally tally[N_SETTINGS];
  double lut_bound[N_SETTINGS]; /* hardware LUT filtering's bound E */
} Context;

static cudaError_t
launch_adjust (void *data, const TexelImage *in, const TexelImage *out,
               int row0, int row1, cudaStream_t stream)
{
  const TexelAdjustPlan *plan = data;

  return (cudaError_t)texel_cuda_adjust (test_kctx, plan, in, out, row0, row1,
                                         (TexelStream)stream);
}

/* Adjusts on the GPU into @gpu (two runs, poisons A and B); @plan holds
 * its 3D LUT on the GPU, where it has one. */
static int
run_gpu (Context *ctx, const TexelAdjustPlan *plan, const HostImage *in,
         HostImage gpu[2], MemoryMode mode, int bands)
{
  return gpu_run_twice (ctx->stream, launch_adjust, (void *)plan, "adjust", in,
                        gpu, mode, 3, plan->kernel.height, bands);
}

static void
run_case (Context *ctx, int s, TexelFormat format, int ci, int width,
          int height, const MemoryMode *modes, int n_modes, int bands)
{
  const Settings *st = &adjust_settings[s];
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TexelCudaLut3d *lut;
  HostImage in, cpu[2], gpu[2];
  const char *why = NULL;
  int i, m;

  adjust_config_for (&config, st, &adjust_colorimetries[ci]);
  config.cube = test_cube (st->lut, &lut);
  if ((st->lut && (config.cube == NULL || lut == NULL))
      || texel_adjust_plan_init (&plan, &config, format, width, height, &why)
             != 0)
    {
      printf ("FAIL %s %s: plan: %s\n", texel_format_desc (format)->name,
              st->name, why ? why : "no LUT");
      ctx->failed++;
      return;
    }
  plan.lut3d = lut;
  if (st->force_hw && plan.kernel.lut3d)
    plan.kernel.lut3d_hw = 1;
  if (plan.kernel.lut3d_hw && plan.lut3d_hw_error > ctx->lut_bound[s])
    ctx->lut_bound[s] = plan.lut3d_hw_error;
  case_images_init (&in, cpu, gpu, format, width, height, format, width,
                    height);
  for (i = 0; i < 2; i++)
    texel_adjust_cpu (&plan, &in.img, &cpu[i].img, 0, height);

  for (m = 0; m < n_modes; m++)
    {
      Comparison cmp;
      int ok;

      if (run_gpu (ctx, &plan, &in, gpu, modes[m], bands) != 0)
        {
          printf ("FAIL %s %s colorimetry %d %s: CUDA error\n",
                  texel_format_desc (format)->name, st->name, ci,
                  memory_names[modes[m]]);
          ctx->failed++;
          continue;
        }
      compare_outputs (cpu, gpu, &cmp);
      ok = !cmp.unwritten && !cmp.stray && !cmp.bad_padding;
      /* With stage 1 and stage 2 both active, a stage-1 code within float
       * error of a half code may round the other way, and stage 2 maps that
       * code as the elements would (RGB: through their coarse matrices, up
       * to 4 codes): rare, not bounded by 2. */
      if (!st->informative)
        ok = ok
             && (cmp.over2 == 0
                 || (plan.kernel.linear
                     && (plan.kernel.gst.gamma || plan.kernel.gst.balance)))
             && cmp.over1 * 1000 <= cmp.samples;
      /* Forced hardware filtering: within the plan's bound E. */
      if (st->force_hw && plan.kernel.lut3d)
        ok = ok && cmp.max_error <= (int)floor (plan.lut3d_hw_error) + 1;
      if (!ok)
        {
          char label[160];

          snprintf (label, sizeof (label), "%s %s colorimetry %d %s%s",
                    texel_format_desc (format)->name, st->name, ci,
                    memory_names[modes[m]], bands ? " bands" : "");
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

/* ------------------------------------------------------------------ */
/* gamma ! videobalance against their definitions */

static unsigned
code_at (const HostImage *h, int c, int x, int y)
{
  return read_code (texel_format_desc (h->img.format),
                    host_sample (h, c, x, y));
}

/* What `gamma ! videobalance` make of component @c at (@x, @y) of @in
 * (alpha: carried over). */
static int
def_code (const GstSettings *g, const HostImage *in, int c, int x, int y)
{
  const TexelFormatDesc *desc = texel_format_desc (in->img.format);
  int s = desc->bits == 10 ? 4 : 1, k, v[3];

  if (c == 3)
    return (int)code_at (in, 3, x, y);
  if (!desc->is_yuv)
    {
      for (k = 0; k < 3; k++)
        v[k] = (int)code_at (in, k, x, y);
      def_rgb (g, v);
      return v[c];
    }
  if (c == 0)
    return def_luma (g, def_gamma (g, (int)code_at (in, 0, x, y), s), s);
  def_chroma (g, (int)code_at (in, 1, x, y), (int)code_at (in, 2, x, y), s, v);
  return v[c - 1];
}

/* Samples of @out more than @tolerance codes from the definition. */
static long
count_off_definition (const GstSettings *g, const HostImage *in,
                      const HostImage *out, int tolerance, long *samples,
                      int *max_error)
{
  const TexelFormatDesc *desc = texel_format_desc (in->img.format);
  long off = 0;
  int c, x, y;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &desc->comp[c];
      int w = -((-in->img.width) >> comp->x_shift);
      int h = -((-in->img.height) >> comp->y_shift);

      if (comp->plane < 0)
        continue;
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          {
            int e
                = abs ((int)code_at (out, c, x, y) - def_code (g, in, c, x, y));

            (*samples)++;
            off += e > tolerance;
            if (e > *max_error)
              *max_error = e;
          }
    }
  return off;
}

static void
check_gst_definition (Context *ctx, int width, int height)
{
  static const MemoryMode modes[]
      = { MEMORY_DEVICE, MEMORY_MAPPED, MEMORY_MISALIGNED };
  long samples = 0;
  int s, f, full, m, n = 0, max_error = 0;

  for (s = 0; s < DEF_N_SETTINGS; s++)
    for (f = 0; f < N_FORMATS; f++)
      for (full = 0; full < 2; full++)
        {
          const GstSettings *g = &def_settings[s];
          TexelFormat format = all_formats[f];
          TexelAdjustConfig config;
          TexelAdjustPlan plan;
          HostImage in, gpu[2];
          int i, tolerance;

          texel_adjust_config_init (&config);
          config.gamma = g->gamma;
          config.brightness = g->brightness;
          config.contrast = g->contrast;
          config.saturation = g->saturation;
          config.hue = g->hue;
          config.full_range = full;
          config.matrix = full ? TEXEL_MATRIX_BT601 : TEXEL_MATRIX_BT709;
          if (texel_adjust_plan_init (&plan, &config, format, width, height,
                                      NULL)
              != 0)
            {
              printf ("FAIL %s gamma/videobalance %d: plan\n",
                      texel_format_desc (format)->name, s);
              ctx->failed++;
              continue;
            }
          tolerance = texel_format_desc (format)->bits == 10 && g->gamma != 1.0
                          ? 1
                          : 0;
          host_image_init (&in, format, width, height);
          host_image_randomize (&in);
          for (i = 0; i < 2; i++)
            host_image_init (&gpu[i], format, width, height);
          for (m = 0; m < MEMORY_MODES; m++)
            {
              long off;

              if (run_gpu (ctx, &plan, &in, gpu, modes[m], n++ % 2) != 0)
                {
                  printf ("FAIL %s gamma/videobalance %d %s: CUDA error\n",
                          texel_format_desc (format)->name, s,
                          memory_names[modes[m]]);
                  ctx->failed++;
                  continue;
                }
              off = count_off_definition (g, &in, &gpu[0], tolerance, &samples,
                                          &max_error);
              if (off)
                {
                  printf ("FAIL %s gamma/videobalance %d, %s range, %s: %ld "
                          "samples more than %d code(s) from the definition\n",
                          texel_format_desc (format)->name, s,
                          full ? "full" : "limited", memory_names[modes[m]],
                          off, tolerance);
                  ctx->failed++;
                }
              else
                {
                  ctx->passed++;
                }
            }
          host_image_clear (&in);
          for (i = 0; i < 2; i++)
            host_image_clear (&gpu[i]);
        }
  printf ("gamma ! videobalance definitions: %ld samples, max error %d "
          "code(s)\n",
          samples, max_error);
}

/* Contract checks that need no comparison. */
static void
check_api (Context *ctx)
{
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  HostImage in, out;
  int err;

  texel_adjust_config_init (&config);
  config.linear_gamma = 2.0;
  texel_adjust_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 64, 48, NULL);
  host_image_init (&in, TEXEL_FORMAT_NV12, 64, 48);
  host_image_init (&out, TEXEL_FORMAT_RGBA, 64, 48);

  /* The legacy default stream is refused, before anything is queued. */
  err = texel_cuda_adjust (test_kctx, &plan, &in.img, &in.img, 0, 48, NULL);
  expect_refused (err, "the default stream", &ctx->passed, &ctx->failed);
  /* An output image that does not match the plan. */
  err = texel_cuda_adjust (test_kctx, &plan, &in.img, &out.img, 0, 48,
                           (TexelStream)ctx->stream[0]);
  expect_refused (err, "a mismatching output image", &ctx->passed,
                  &ctx->failed);
  /* A plan with a 3D LUT but no LUT on the GPU. */
  {
    TexelAdjustPlan with_lut;
    TexelCudaLut3d *lut;

    config.cube = test_cube (LUT_IDENTITY_33, &lut);
    texel_adjust_plan_init (&with_lut, &config, TEXEL_FORMAT_NV12, 64, 48,
                            NULL);
    config.cube = NULL;
    err = texel_cuda_adjust (test_kctx, &with_lut, &in.img, &in.img, 0, 48,
                             (TexelStream)ctx->stream[0]);
    if (err == 0)
      {
        printf ("FAIL: a plan with a 3D LUT ran without its GPU LUT\n");
        ctx->failed++;
      }
    else
      {
        ctx->passed++;
      }
  }
  /* A band starting on an odd row of a 4:2:0 frame. */
  err = texel_cuda_adjust (test_kctx, &plan, &in.img, &in.img, 1, 48,
                           (TexelStream)ctx->stream[0]);
  expect_refused (err, "an odd first row of 4:2:0", &ctx->passed, &ctx->failed);
  /* No context. */
  err = texel_cuda_adjust (NULL, &plan, &in.img, &in.img, 0, 48,
                           (TexelStream)ctx->stream[0]);
  expect_refused (err, "a call without a context", &ctx->passed, &ctx->failed);
  host_image_clear (&in);
  host_image_clear (&out);
}

int
main (int argc, char **argv)
{
  static const MemoryMode all_modes[]
      = { MEMORY_DEVICE, MEMORY_MAPPED, MEMORY_MISALIGNED };
  GpuTestOptions opts;
  Context ctx;
  int quick, width, height;
  int s, f, ci, n = 0;
  Tally asserted = { 0 };

  if (gpu_test_begin (argc, argv, 0, &opts) != 0)
    return SKIP_EXIT_CODE;
  quick = opts.quick;
  width = quick ? 37 : 317;
  height = quick ? 21 : 179;

  memset (&ctx, 0, sizeof (ctx));
  /* gpu_test_streams_create makes device 0 current, the context's. */
  if (gpu_test_streams_create (ctx.stream, 2)
      || check_cuda ((cudaError_t)texel_cuda_context_new (0, &test_kctx),
                     "kernel context"))
    return 1;

  check_api (&ctx);
  check_gst_definition (&ctx, width, height);
  for (s = 0; s < N_SETTINGS; s++)
    for (f = 0; f < N_FORMATS; f++)
      for (ci = 0; ci < N_COLORIMETRIES; ci++)
        {
          if (quick && ci != (s + f) % N_COLORIMETRIES)
            continue;
          run_case (&ctx, s, all_formats[f], ci, width, height, all_modes,
                    MEMORY_MODES, n++ % 2);
        }

  for (s = 0; s < N_SETTINGS; s++)
    {
      char label[64];

      snprintf (label, sizeof (label), "%-24s", adjust_settings[s].name);
      tally_print (label, &ctx.tally[s],
                   adjust_settings[s].informative ? " (informative)" : "");
      if (ctx.lut_bound[s] > 0.0)
        printf ("%-24s hardware LUT filtering, bound E up to %.2f codes\n", "",
                ctx.lut_bound[s]);
      if (adjust_settings[s].informative)
        continue;
      tally_add_tally (&asserted, &ctx.tally[s]);
    }
  tally_print_total ("asserted settings", &asserted);

  test_cubes_free ();
  texel_cuda_context_free (test_kctx);
  gpu_test_streams_destroy (ctx.stream, 2);
  printf ("%d passed, %d failed\n", ctx.passed, ctx.failed);
  return ctx.failed ? 1 : 0;
}
