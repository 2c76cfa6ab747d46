/* gst-texel: the CUDA converter against the CPU reference.
 *
 * A plain C program (no GLib, no GStreamer) so that it runs on a bare GPU
 * machine. For every input format x every output format x every method,
 * on fresh random frames and several geometries, it converts on the CPU
 * (texel_convert_cpu, the oracle) and on the GPU, in device memory and in
 * mapped (zero-copy) host memory, and checks:
 *  - every output code within a bound derived below;
 *  - the GPU wrote exactly the bytes the CPU wrote (each side runs twice,
 *    into outputs poisoned differently: a byte is written iff both runs
 *    agree on it).
 * Inputs with misaligned addresses and pitches exercise the path without
 * textures; inputs whose addresses alone are misaligned, the aligned copy
 * the context reads them through (check_realign: byte for byte the
 * aligned input's output). Subsampled chroma is also checked against the exact
 * definitions of tests/unit/texel-exact.h (check_chroma_exact), which do
 * not depend on the CPU reference. Exits 77 (skipped) without a usable
 * GPU.
 *
 * Usage: test-convert-gpu [--quick] [--seed N]
 *   --quick: a subset for slow runs under compute-sanitizer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "texel-convert.h"
#include "texel-cuda.h"
#include "texel-gpu-image.h"
#include "../unit/texel-exact.h"

/* GST_TEXEL_SAMPLER=generic (the -generic tests): the kernel library
 * reads no environment, so the test hands the choice to the context, as
 * the plugin does. */
static int
sampler_generic (void)
{
  const char *sampler = getenv ("GST_TEXEL_SAMPLER");

  return sampler != NULL && strcmp (sampler, "generic") == 0;
}

/* ------------------------------------------------------------------ */
/* Error bounds, in output codes.
 *
 * All bounds start from 1 code: the GPU computes in float what the CPU
 * computes in double. The difference before rounding is tiny (a few float
 * ulps of the matrix products, relative 1e-6, i.e. < 0.001 code at 10
 * bits), but when the exact value lies that close to a half code the two
 * round to neighbouring codes: at most 1 code apart.
 *
 * NEAREST: the GPU maps coordinates with the very float code of
 * texel-sample-map.h (fmaf is correctly rounded on both sides), so it
 * picks the same input sample; the bound is the 1 code above.
 *
 * BILINEAR through a texture: the hardware stores each filter weight in
 * 9-bit fixed point with 8 fractional bits (CUDA C Programming Guide,
 * "Linear Filtering"), so each axis's weight is off by at most 2^-8. A
 * weight off by d moves the interpolated value by d times the difference
 * of the two neighbouring samples, at most D = 1 (full scale, normalised;
 * random frames get close to it). Both axes: at most 2 * 2^-8 * D per
 * input component. The colour matrix sums the component errors with its
 * coefficients: output k is off by at most G_k * 2 * 2^-8 * D, G_k =
 * sum_c |m[k][c]| (alpha, carried through: G = 1). In output codes, times
 * the largest code (255 or 1023). Coordinates in float rather than double
 * add a weight error of ~|coordinate| * 2^-24 < 1e-4, covered by the
 * rounding of the bound up to a whole code. Hence
 *     bound = 1 + ceil (G * 2 * 2^-8 * max_code),  G = max_k G_k.
 *
 * BICUBIC through textures: the cubic B-spline is 2 x 2 linear fetches
 * whose weights g (per axis) are positive and sum to 1; each fetch blends
 * two neighbouring samples with the same 8-bit weight error, so the result
 * is off by at most sum g * 2 * 2^-8 * D = 2 * 2^-8 * D: the same bound.
 *
 * Without textures (24-bit RGB input, misaligned planes) the GPU filters
 * plain loads in float with the CPU's formulas: the 1 code above, plus
 * what float itself loses. A sample is a sum of up to 256 float terms
 * (the taps of a downscale times the matrix), each rounded relatively by
 * at most 2^-24: 2^-16 of full scale in all, a whole code only at 16 bits
 * (65535 * 2^-16 = 1), a small fraction below that, which the rounding
 * code already covers. Hence 1 + round (max_code * 2^-16).
 */
#define FILTER_WEIGHT_ERROR (1.0 / 256.0)

/* ------------------------------------------------------------------ */
/* Test cases */

typedef struct
{
  const char *name;
  int in_w, in_h, out_w, out_h;
  /* For subsampled formats in the "odd" geometry: an even width. */
  int even_width_if_subsampled;
  int src_x, src_y, src_w, src_h; /* src_w 0: the whole input */
  int dst_x, dst_y, dst_w, dst_h; /* dst_w 0: the whole output */
  TexelDirection direction;
  TexelColorimetry in_color, out_color;
  double border[4];
  int bands; /* convert in two bands on two streams */
} Geometry;

static const Geometry geometries[] = {
  { "1:1",
    64,
    48,
    64,
    48,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { 0, 0, 0, 1 },
    0 },
  { "downscale",
    320,
    240,
    200,
    150,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT601, 0, 0, 0 },
    { TEXEL_MATRIX_BT709, 1, 1, 0 },
    { 0, 0, 0, 1 },
    1 },
  { "upscale",
    72,
    40,
    200,
    110,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT2020, 1, 0, 0 },
    { TEXEL_MATRIX_BT601, 0, 0, 1 },
    { 0, 0, 0, 1 },
    0 },
  { "crop+letterbox+90R",
    160,
    120,
    128,
    160,
    0,
    10,
    6,
    120,
    100,
    9,
    14,
    90,
    130,
    TEXEL_DIRECTION_90R,
    { TEXEL_MATRIX_BT709, 0, 1, 1 },
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { 0.2, 0.4, 0.6, 0.5 },
    0 },
  { "odd",
    33,
    17,
    33,
    17,
    1,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_SMPTE240M, 0, 0, 0 },
    { TEXEL_MATRIX_FCC, 1, 0, 0 },
    { 0, 0, 0, 1 },
    0 },
  { "odd scaled",
    35,
    21,
    27,
    13,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    TEXEL_DIRECTION_HORIZ,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT601, 1, 0, 0 },
    { 0, 0, 0, 1 },
    1 },
};

#define N_GEOMETRIES ((int)(sizeof (geometries) / sizeof (geometries[0])))
/* Where misaligned inputs are tested, and the one geometry --quick
 * keeps. */
#define MISALIGNED_GEOMETRY 1
#define QUICK_MISALIGNED_GEOMETRY 5

static int
format_is_subsampled (TexelFormat format)
{
  const TexelFormatDesc *desc = texel_format_desc (format);
  int c;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (desc->comp[c].plane >= 0
        && (desc->comp[c].x_shift || desc->comp[c].y_shift))
      return 1;
  return 0;
}

static void
geometry_config (const Geometry *g, TexelFormat in_format,
                 TexelFormat out_format, TexelMethod method,
                 TexelConvertConfig *config, int *in_w, int *out_w)
{
  *in_w = g->in_w
          + (g->even_width_if_subsampled && format_is_subsampled (in_format));
  *out_w = g->out_w
           + (g->even_width_if_subsampled && format_is_subsampled (out_format));

  memset (config, 0, sizeof (*config));
  config->src_x = g->src_x;
  config->src_y = g->src_y;
  config->src_w = g->src_w ? g->src_w : *in_w;
  config->src_h = g->src_h ? g->src_h : g->in_h;
  config->dst_x = g->dst_x;
  config->dst_y = g->dst_y;
  config->dst_w = g->dst_w ? g->dst_w : *out_w;
  config->dst_h = g->dst_h ? g->dst_h : g->out_h;
  config->method = method;
  config->direction = g->direction;
  config->in_color = g->in_color;
  config->out_color = g->out_color;
  memcpy (config->border_rgba, g->border, sizeof (g->border));
}

/* Whether the GPU reads this input through textures (see the bounds). */
/* Relative error of a float sum of up to 256 terms (see above). */
#define FLOAT_SUM_ERROR (1.0 / 65536.0)

static int
uses_textures (TexelFormat format, MemoryMode mode)
{
  const TexelFormatDesc *desc = texel_format_desc (format);

  return mode != MEMORY_MISALIGNED && desc->comp[0].pixel_stride != 3;
}

static int
error_bound (const TexelConvertPlan *plan, int textured)
{
  double max_code = (double)((1 << plan->out.bits) - 1);
  double gain = 1.0; /* alpha */
  double filter_error;
  int k, c;

  if (plan->method == TEXEL_METHOD_NEAREST)
    return 1;
  if (!textured)
    return 1 + (int)floor (max_code * FLOAT_SUM_ERROR + 0.5);
  for (k = 0; k < 3; k++)
    {
      double g = 0.0;

      if (plan->out.comp[k].plane < 0)
        continue;
      for (c = 0; c < 3; c++)
        g += fabs (plan->m[k][c]);
      if (g > gain)
        gain = g;
    }
  filter_error = 2.0 * FILTER_WEIGHT_ERROR;
  return 1 + (int)ceil (gain * filter_error * max_code - 1e-9);
}

/* ------------------------------------------------------------------ */
/* Running one case */

typedef struct
{
  TexelCudaContext *kctx;
  cudaStream_t stream[2];
  int passed, failed;
  /* Worst error over all cases, per method, with and without textures. */
  int worst[2][3];
  int worst_bound[2][3];
} Context;

/* What one format pair gathered, for its summary line. */
typedef struct
{
  int error[2][3]; /* [textured][method] */
  int bound[2][3];
  int seen[2][3];
  int failed;
} PairSummary;

typedef struct
{
  TexelCudaContext *kctx;
  const TexelConvertPlan *plan;
} Launch;

static cudaError_t
launch_convert (void *data, const TexelImage *in, const TexelImage *out,
                int row0, int row1, cudaStream_t stream)
{
  const Launch *l = data;

  return (cudaError_t)texel_cuda_convert (l->kctx, l->plan, in, out, row0, row1,
                                          stream);
}

/* Converts on the GPU into @gpu (two runs, poisons A and B). */
static int
run_gpu (Context *ctx, const TexelConvertPlan *plan, const HostImage *in,
         HostImage gpu[2], MemoryMode mode, int bands)
{
  Launch l = { ctx->kctx, plan };

  return gpu_run_twice (ctx->stream, launch_convert, &l, "convert", in, gpu,
                        mode, 4, plan->out_height,
                        bands && plan->rows_monotonic);
}

static void
record (Context *ctx, PairSummary *pair, const TexelConvertPlan *plan,
        int textured, int error, int bound)
{
  int m = plan->method;
  double ratio = (double)error / bound;

  if (!pair->seen[textured][m]
      || ratio > (double)pair->error[textured][m] / pair->bound[textured][m])
    {
      pair->error[textured][m] = error;
      pair->bound[textured][m] = bound;
    }
  pair->seen[textured][m] = 1;
  if (error > ctx->worst[textured][m] || !ctx->worst_bound[textured][m])
    {
      ctx->worst[textured][m] = error;
      ctx->worst_bound[textured][m] = bound;
    }
}

/* One geometry, formats and method: CPU once, GPU in @modes. */
static void
run_case (Context *ctx, PairSummary *pair, const Geometry *g,
          TexelFormat in_format, TexelFormat out_format, TexelMethod method,
          const MemoryMode *modes, int n_modes)
{
  TexelConvertConfig config;
  TexelConvertPlan plan;
  HostImage in, cpu[2], gpu[2];
  const char *why = NULL;
  int in_w, out_w, i, m;

  geometry_config (g, in_format, out_format, method, &config, &in_w, &out_w);
  if (texel_convert_plan_init (&plan, &config, in_format, in_w, g->in_h,
                               out_format, out_w, g->out_h, &why)
      != 0)
    {
      printf ("FAIL %s -> %s %s %s: plan: %s\n",
              texel_format_desc (in_format)->name,
              texel_format_desc (out_format)->name, method_names[method],
              g->name, why);
      ctx->failed++;
      pair->failed++;
      return;
    }

  case_images_init (&in, cpu, gpu, in_format, in_w, g->in_h, out_format, out_w,
                    g->out_h);
  for (i = 0; i < 2; i++)
    texel_convert_cpu (&plan, &in.img, &cpu[i].img, 0, g->out_h);

  for (m = 0; m < n_modes; m++)
    {
      int textured = uses_textures (in_format, modes[m]);
      int bound = error_bound (&plan, textured);
      char label[160];
      Comparison cmp;
      int ok;

      snprintf (label, sizeof (label), "%s -> %s %s %s %s",
                texel_format_desc (in_format)->name,
                texel_format_desc (out_format)->name, method_names[method],
                g->name, memory_names[modes[m]]);
      if (run_gpu (ctx, &plan, &in, gpu, modes[m], g->bands) != 0)
        {
          printf ("FAIL %s: CUDA error\n", label);
          ctx->failed++;
          pair->failed++;
          continue;
        }
      compare_outputs (cpu, gpu, &cmp);
      ok = cmp.max_error <= bound && !cmp.unwritten && !cmp.stray
           && !cmp.bad_padding;
      if (!ok)
        {
          printf ("FAIL %s: max error %d (bound %d; component %d at (%d, %d): "
                  "cpu %u, gpu %u), %d bytes unwritten, %d stray writes, %d "
                  "padding "
                  "bytes differ\n",
                  label, cmp.max_error, bound, cmp.worst_comp, cmp.worst_x,
                  cmp.worst_y, cmp.worst_cpu, cmp.worst_gpu, cmp.unwritten,
                  cmp.stray, cmp.bad_padding);
          ctx->failed++;
          pair->failed++;
        }
      else
        {
          ctx->passed++;
        }
      record (ctx, pair, &plan, textured, cmp.max_error, bound);
    }

  case_images_clear (&in, cpu, gpu);
}

static void
print_pair (TexelFormat in_format, TexelFormat out_format,
            const PairSummary *pair)
{
  char line[256];
  size_t n;
  int t, m;

  n = (size_t)snprintf (line, sizeof (line), "%-9s -> %-9s",
                        texel_format_desc (in_format)->name,
                        texel_format_desc (out_format)->name);
  for (t = 1; t >= 0; t--)
    {
      for (m = 0; m < 3; m++)
        {
          if (!pair->seen[t][m] || n >= sizeof (line))
            continue;
          n += (size_t)snprintf (line + n, sizeof (line) - n, " %s%s %d/%d",
                                 t ? "" : "raw-", method_names[m],
                                 pair->error[t][m], pair->bound[t][m]);
        }
    }
  printf ("%s  %s\n", line, pair->failed ? "FAIL" : "ok");
}

/* ------------------------------------------------------------------ */

/* Contract checks that need no comparison. */
static void
check_api (Context *ctx)
{
  TexelConvertConfig config;
  TexelConvertPlan plan;
  HostImage in, out;
  int in_w, out_w, err;

  geometry_config (&geometries[0], TEXEL_FORMAT_NV12, TEXEL_FORMAT_RGBA,
                   TEXEL_METHOD_BILINEAR, &config, &in_w, &out_w);
  texel_convert_plan_init (&plan, &config, TEXEL_FORMAT_NV12, 64, 48,
                           TEXEL_FORMAT_RGBA, 64, 48, NULL);
  host_image_init (&in, TEXEL_FORMAT_NV12, 64, 48);
  host_image_init (&out, TEXEL_FORMAT_RGBA, 64, 48);

  /* The legacy default stream is refused, before anything is queued. */
  err = texel_cuda_convert (ctx->kctx, &plan, &in.img, &out.img, 0, 48, NULL);
  expect_refused (err, "the default stream", &ctx->passed, &ctx->failed);
  /* An output image that does not match the plan. */
  plan.out = *texel_format_desc (TEXEL_FORMAT_NV12);
  err = texel_cuda_convert (ctx->kctx, &plan, &in.img, &out.img, 1, 48,
                            (TexelStream)ctx->stream[0]);
  expect_refused (err, "a mismatching output image", &ctx->passed,
                  &ctx->failed);
  host_image_clear (&in);
  host_image_clear (&out);
}

/* Inputs for check_fence: 2 textures each, more than the context's
 * cache holds (TEXEL_TEXTURE_CACHE_SIZE, 64), so cached textures are
 * evicted. */
#define FENCE_INPUTS 40

/* Round @round of check_fence: every input through @kctx into @out, as
 * units of @fence. Round 0 never reports a unit complete, so each evicted
 * texture is waited for on its stream; round 1 waits every 4 calls and
 * reports those units complete, so evictions destroy at once. */
static int
fence_round (Context *ctx, TexelCudaContext *kctx, TexelCudaFence *fence,
             const TexelConvertPlan *plan, GpuImage *in, GpuImage *out,
             int round)
{
  int failed = 0, i;

  for (i = 0; i < FENCE_INPUTS && !failed; i++)
    {
      fence->current = (uint64_t)(round * FENCE_INPUTS + i + 1);
      failed |= check_cuda (
          texel_cuda_convert (kctx, plan, &in[i].dev, &out[i].dev, 0,
                              plan->out_height, ctx->stream[0]),
          "convert");
      if (round == 1 && i % 4 == 3 && !failed)
        {
          failed |= check_cuda (cudaStreamSynchronize (ctx->stream[0]), "sync");
          fence->complete = fence->current;
        }
      fence->current = UINT64_MAX;
    }
  return failed;
}

/* A context told of its caller's completion (texel_cuda_context_set_
 * fence) records no event per call; its outputs must match, byte for
 * byte, those of the context that does, whether an evicted texture's
 * reader was known complete or not. */
static void
check_fence (Context *ctx)
{
  TexelConvertConfig config;
  TexelConvertPlan plan;
  TexelCudaContext *kctx = NULL;
  TexelCudaFence fence = { UINT64_MAX, 0 };
  HostImage in, want, got;
  GpuImage gin[FENCE_INPUTS], gout[2][FENCE_INPUTS], ref;
  int in_w, out_w, failed, i, r, diff = 0;

  geometry_config (&geometries[0], TEXEL_FORMAT_NV12, TEXEL_FORMAT_RGBA,
                   TEXEL_METHOD_BILINEAR, &config, &in_w, &out_w);
  texel_convert_plan_init (&plan, &config, TEXEL_FORMAT_NV12, in_w,
                           geometries[0].in_h, TEXEL_FORMAT_RGBA, out_w,
                           geometries[0].out_h, NULL);
  host_image_init (&in, TEXEL_FORMAT_NV12, in_w, geometries[0].in_h);
  host_image_init (&want, TEXEL_FORMAT_RGBA, out_w, geometries[0].out_h);
  host_image_init (&got, TEXEL_FORMAT_RGBA, out_w, geometries[0].out_h);
  memset (gin, 0, sizeof (gin));
  memset (gout, 0, sizeof (gout));
  failed = check_cuda ((cudaError_t)texel_cuda_context_new (0, &kctx),
                       "fenced converter");
  if (!failed)
    {
      texel_cuda_context_set_fence (kctx, &fence);
      texel_cuda_context_set_generic_sampler (kctx, sampler_generic ());
    }
  failed
      |= check_cuda (gpu_image_alloc (&ref, MEMORY_DEVICE, &want, 0), "alloc")
         || check_cuda (gpu_image_poison (&ref, POISON_A, ctx->stream[0]),
                        "poison");
  for (i = 0; i < FENCE_INPUTS && !failed; i++)
    {
      host_image_randomize (&in);
      failed |= check_cuda (gpu_image_alloc (&gin[i], MEMORY_DEVICE, &in, 0),
                            "alloc");
      /* Poisoned alike: the row padding is compared too. */
      for (r = 0; r < 2 && !failed; r++)
        failed |= check_cuda (
                      gpu_image_alloc (&gout[r][i], MEMORY_DEVICE, &want, 0),
                      "alloc")
                  || check_cuda (
                      gpu_image_poison (&gout[r][i], POISON_A, ctx->stream[0]),
                      "poison");
      if (!failed)
        failed |= check_cuda (gpu_image_upload (&gin[i], &in, ctx->stream[0]),
                              "upload");
    }
  for (r = 0; r < 2 && !failed; r++)
    failed |= fence_round (ctx, kctx, &fence, &plan, gin, gout[r], r);
  for (i = 0; i < FENCE_INPUTS && !failed; i++)
    {
      failed |= check_cuda (texel_cuda_convert (ctx->kctx, &plan, &gin[i].dev,
                                                &ref.dev, 0, plan.out_height,
                                                ctx->stream[0]),
                            "convert");
      failed |= check_cuda (gpu_image_download (&ref, &want, 0, ctx->stream[0]),
                            "download");
      for (r = 0; r < 2 && !failed; r++)
        {
          failed |= check_cuda (
              gpu_image_download (&gout[r][i], &got, 0, ctx->stream[0]),
              "download");
          diff += memcmp (want.mem, got.mem, want.size) != 0;
        }
    }
  if (failed || diff)
    {
      printf ("FAIL: fenced converter: %d of %d outputs differ%s\n", diff,
              2 * FENCE_INPUTS, failed ? ", CUDA error" : "");
      ctx->failed++;
    }
  else
    {
      printf ("fenced converter: %d outputs as without the fence, %d "
              "textures through the cache\n",
              2 * FENCE_INPUTS, 2 * FENCE_INPUTS);
      ctx->passed++;
    }
  texel_cuda_context_free (kctx);
  for (i = 0; i < FENCE_INPUTS; i++)
    {
      gpu_image_free (&gin[i]);
      gpu_image_free (&gout[0][i]);
      gpu_image_free (&gout[1][i]);
    }
  gpu_image_free (&ref);
  host_image_clear (&in);
  host_image_clear (&want);
  host_image_clear (&got);
}

/* ------------------------------------------------------------------ */
/* Planes whose address alone is off the texture alignment (an NVMM
 * surface's planes at pitch * height offsets, rows padded to 256 bytes;
 * a GstCudaMemory at an offset): the context copies each into an aligned
 * buffer of its own and reads it through a texture, so the output must be
 * that of the same frame at aligned addresses byte for byte, whichever
 * path (fast, or generic under GST_TEXEL_SAMPLER=generic), in one call or
 * two bands on two streams, frame after frame through one copy. A
 * misaligned pitch still takes plain loads: nothing copied, 1 code from
 * the CPU (docs/accuracy.md). */

typedef struct
{
  TexelFormat in, out;
  int in_w, in_h, out_w, out_h;
  TexelMethod method;
} RealignCase;

static const RealignCase realign_cases[] = {
  /* The NVMM test's frame: its V plane started at an odd multiple of
   * 256. */
  { TEXEL_FORMAT_I420, TEXEL_FORMAT_RGBA, 38, 26, 29, 19,
    TEXEL_METHOD_BILINEAR },
  { TEXEL_FORMAT_NV12, TEXEL_FORMAT_NV12, 64, 48, 40, 30,
    TEXEL_METHOD_BICUBIC },
  { TEXEL_FORMAT_YUY2, TEXEL_FORMAT_I420, 34, 20, 50, 30,
    TEXEL_METHOD_BILINEAR },
  { TEXEL_FORMAT_P010_10LE, TEXEL_FORMAT_RGBA, 40, 24, 30, 18,
    TEXEL_METHOD_BILINEAR },
  { TEXEL_FORMAT_RGBA, TEXEL_FORMAT_NV12, 33, 17, 27, 13,
    TEXEL_METHOD_NEAREST },
};

/* Planes past an aligned address by 4 (any device) and 256 bytes (the
 * NVMM case: off the H100's 512). */
static const int realign_shifts[] = { 4, 256 };

static int
plan_scaled (TexelConvertPlan *plan, TexelFormat in_format, int in_w, int in_h,
             TexelFormat out_format, int out_w, int out_h, TexelMethod method)
{
  TexelConvertConfig config;
  TexelColorimetry yuv = { TEXEL_MATRIX_BT709, 0, 0, 0 };
  TexelColorimetry rgb = { TEXEL_MATRIX_RGB, 1, 0, 0 };

  memset (&config, 0, sizeof (config));
  config.src_w = in_w;
  config.src_h = in_h;
  config.dst_w = out_w;
  config.dst_h = out_h;
  config.method = method;
  config.in_color = texel_format_desc (in_format)->is_yuv ? yuv : rgb;
  config.out_color = texel_format_desc (out_format)->is_yuv ? yuv : rgb;
  config.border_rgba[3] = 1.0;
  return texel_convert_plan_init (plan, &config, in_format, in_w, in_h,
                                  out_format, out_w, out_h, NULL);
}

/* Bytes of @in's planes that @shift puts off the device's texture
 * alignment: what one call copies to realign them. */
static uint64_t
realign_bytes (const HostImage *in, int shift)
{
  const TexelFormatDesc *desc = texel_format_desc (in->img.format);
  TexelCudaCaps caps;
  uint64_t bytes = 0;
  int p;

  if (texel_cuda_probe (0, &caps) != 0 || shift % caps.texture_alignment == 0)
    return 0;
  for (p = 0; p < desc->n_planes; p++)
    bytes += (uint64_t)texel_plane_row_bytes (in->img.format, p, in->img.width)
             * texel_plane_height (in->img.format, p, in->img.height);
  return bytes;
}

/* Converts @in into @out (poisoned with POISON_A first) through @kctx, in
 * one call or (@bands) two on the two streams, as unit @unit of @fence
 * where given; then downloads @out into @host. */
static int
realign_convert (Context *ctx, TexelCudaContext *kctx, TexelCudaFence *fence,
                 uint64_t unit, const TexelConvertPlan *plan,
                 const GpuImage *in, GpuImage *out, int bands, HostImage *host)
{
  int mid = bands ? (plan->out_height / 2) & ~1 : plan->out_height;
  int failed;

  failed
      = check_cuda (gpu_image_poison (out, POISON_A, ctx->stream[0]), "poison");
  if (fence != NULL)
    fence->current = unit;
  if (!failed)
    failed |= check_cuda (texel_cuda_convert (kctx, plan, &in->dev, &out->dev,
                                              0, mid, ctx->stream[0]),
                          "realign band 0");
  if (!failed && bands)
    failed
        |= check_cuda (texel_cuda_convert (kctx, plan, &in->dev, &out->dev, mid,
                                           plan->out_height, ctx->stream[1]),
                       "realign band 1");
  if (fence != NULL)
    fence->current = UINT64_MAX;
  if (!failed)
    failed |= check_cuda (cudaStreamSynchronize (ctx->stream[1]), "sync")
              || check_cuda (
                  gpu_image_download (out, host, POISON_A, ctx->stream[0]),
                  "download");
  return failed;
}

/* One case at one shift: a random frame at aligned and at shifted
 * addresses; then a second frame at the same shifted addresses through a
 * fenced context, whose copy from the first frame must not be reused. */
static void
check_realign_case (Context *ctx, const RealignCase *rc, int shift)
{
  TexelConvertPlan plan;
  TexelCudaContext *fenced = NULL;
  TexelCudaFence fence = { UINT64_MAX, 0 };
  HostImage in, want, got;
  GpuImage aligned, shifted, out;
  uint64_t expect, before, copied[4];
  int failed, diff = 0, frame, bands;
  char label[160];

  if (plan_scaled (&plan, rc->in, rc->in_w, rc->in_h, rc->out, rc->out_w,
                   rc->out_h, rc->method)
      != 0)
    {
      printf ("FAIL realign: no plan for %s -> %s\n",
              texel_format_desc (rc->in)->name,
              texel_format_desc (rc->out)->name);
      ctx->failed++;
      return;
    }
  host_image_init (&in, rc->in, rc->in_w, rc->in_h);
  host_image_init (&want, rc->out, rc->out_w, rc->out_h);
  host_image_init (&got, rc->out, rc->out_w, rc->out_h);
  memset (&aligned, 0, sizeof (aligned));
  memset (&shifted, 0, sizeof (shifted));
  memset (&out, 0, sizeof (out));
  expect = realign_bytes (&in, shift);
  snprintf (label, sizeof (label),
            "%s %dx%d -> %s %dx%d %s, planes %d "
            "bytes off",
            texel_format_desc (rc->in)->name, rc->in_w, rc->in_h,
            texel_format_desc (rc->out)->name, rc->out_w, rc->out_h,
            method_names[rc->method], shift);

  failed
      = check_cuda (gpu_image_alloc_packed (&aligned, &in), "alloc")
        || check_cuda (gpu_image_alloc_shifted (&shifted, &in, shift), "alloc")
        || check_cuda (gpu_image_alloc (&out, MEMORY_DEVICE, &want, 0), "alloc")
        || check_cuda ((cudaError_t)texel_cuda_context_new (0, &fenced),
                       "fenced context");
  if (!failed)
    {
      texel_cuda_context_set_fence (fenced, &fence);
      texel_cuda_context_set_generic_sampler (fenced, sampler_generic ());
    }
  for (frame = 0; frame < 2 && !failed; frame++)
    {
      host_image_randomize (&in);
      failed |= check_cuda (gpu_image_upload (&aligned, &in, ctx->stream[0]),
                            "upload")
                || check_cuda (gpu_image_upload (&shifted, &in, ctx->stream[0]),
                               "upload");
      before = texel_cuda_context_bytes_realigned (ctx->kctx);
      failed |= realign_convert (ctx, ctx->kctx, NULL, 0, &plan, &aligned, &out,
                                 0, &want);
      if (texel_cuda_context_bytes_realigned (ctx->kctx) != before)
        {
          printf ("FAIL realign %s: aligned planes were copied\n", label);
          failed = 1;
        }
      /* Frame 0: one call, then two bands, without a fence (each call
       * copies); both frames through the fenced context, two bands of one
       * unit (one copy). */
      for (bands = 0; bands < 3 && !failed; bands++)
        {
          TexelCudaContext *kctx = bands < 2 ? ctx->kctx : fenced;

          if (frame == 1 && bands < 2)
            continue;
          before = texel_cuda_context_bytes_realigned (kctx);
          failed |= realign_convert (ctx, kctx, bands < 2 ? NULL : &fence,
                                     (uint64_t)frame + 1, &plan, &shifted, &out,
                                     bands != 0, &got);
          copied[bands] = texel_cuda_context_bytes_realigned (kctx) - before;
          if (copied[bands] != (bands == 1 ? 2 : 1) * expect)
            {
              printf ("FAIL realign %s: %llu bytes copied, want %llu\n", label,
                      (unsigned long long)copied[bands],
                      (unsigned long long)((bands == 1 ? 2 : 1) * expect));
              failed = 1;
            }
          if (!failed && memcmp (want.mem, got.mem, want.size) != 0)
            {
              printf ("FAIL realign %s: frame %d (%s) differs from the aligned "
                      "input's output\n",
                      label, frame,
                      bands == 0   ? "one call"
                      : bands == 1 ? "two bands"
                                   : "fenced, two bands");
              diff++;
            }
        }
    }
  if (failed || diff)
    {
      if (failed)
        printf ("FAIL realign %s: CUDA error or wrong count\n", label);
      ctx->failed++;
    }
  else
    {
      ctx->passed++;
    }
  texel_cuda_context_free (fenced);
  gpu_image_free (&aligned);
  gpu_image_free (&shifted);
  gpu_image_free (&out);
  host_image_clear (&in);
  host_image_clear (&want);
  host_image_clear (&got);
}

/* Two frames in flight on the two streams through one context, at two
 * shifted addresses: the second frame's copy into the context's buffer
 * must wait until the first frame's kernels have read it. Large enough
 * that the first kernel is still running when the second copy is queued. */
static void
check_realign_in_flight (Context *ctx, int quick)
{
  int w = quick ? 320 : 1920, h = quick ? 180 : 1080;
  TexelConvertPlan plan;
  HostImage in[2], want[2], got;
  GpuImage aligned, shifted[2], out[2];
  int failed = 0, diff = 0, i;

  if (plan_scaled (&plan, TEXEL_FORMAT_I420, w, h, TEXEL_FORMAT_RGBA, w * 3 / 4,
                   h * 3 / 4, TEXEL_METHOD_BICUBIC)
      != 0)
    {
      ctx->failed++;
      return;
    }
  host_image_init (&got, TEXEL_FORMAT_RGBA, w * 3 / 4, h * 3 / 4);
  memset (&aligned, 0, sizeof (aligned));
  memset (shifted, 0, sizeof (shifted));
  memset (out, 0, sizeof (out));
  for (i = 0; i < 2; i++)
    {
      host_image_init (&in[i], TEXEL_FORMAT_I420, w, h);
      host_image_init (&want[i], TEXEL_FORMAT_RGBA, w * 3 / 4, h * 3 / 4);
      host_image_randomize (&in[i]);
      failed
          |= check_cuda (gpu_image_alloc_shifted (&shifted[i], &in[i], 256),
                         "alloc")
             || check_cuda (
                 gpu_image_alloc (&out[i], MEMORY_DEVICE, &want[i], 0), "alloc")
             || check_cuda (
                 gpu_image_upload (&shifted[i], &in[i], ctx->stream[0]),
                 "upload");
    }
  failed |= check_cuda (gpu_image_alloc_packed (&aligned, &in[0]), "alloc");
  for (i = 0; i < 2 && !failed; i++)
    failed |= check_cuda (gpu_image_upload (&aligned, &in[i], ctx->stream[0]),
                          "upload")
              || realign_convert (ctx, ctx->kctx, NULL, 0, &plan, &aligned,
                                  &out[0], 0, &want[i]);
  for (i = 0; i < 2 && !failed; i++)
    failed |= check_cuda (gpu_image_poison (&out[i], POISON_A, ctx->stream[0]),
                          "poison");
  /* No synchronisation between the two. */
  for (i = 0; i < 2 && !failed; i++)
    failed |= check_cuda (texel_cuda_convert (ctx->kctx, &plan, &shifted[i].dev,
                                              &out[i].dev, 0, plan.out_height,
                                              ctx->stream[i]),
                          "convert in flight");
  if (!failed)
    failed |= check_cuda (cudaStreamSynchronize (ctx->stream[1]), "sync");
  for (i = 0; i < 2 && !failed; i++)
    {
      failed |= check_cuda (
          gpu_image_download (&out[i], &got, POISON_A, ctx->stream[0]),
          "download");
      diff += !failed && memcmp (want[i].mem, got.mem, got.size) != 0;
    }
  if (failed || diff)
    {
      printf ("FAIL realign in flight (I420 %dx%d): %d of 2 frames differ%s\n",
              w, h, diff, failed ? ", CUDA error" : "");
      ctx->failed++;
    }
  else
    {
      ctx->passed++;
    }
  gpu_image_free (&aligned);
  for (i = 0; i < 2; i++)
    {
      gpu_image_free (&shifted[i]);
      gpu_image_free (&out[i]);
      host_image_clear (&in[i]);
      host_image_clear (&want[i]);
    }
  host_image_clear (&got);
}

/* A misaligned pitch (and address): plain loads, nothing copied, within
 * 1 code of the CPU. */
static void
check_misaligned_pitch (Context *ctx, const RealignCase *rc)
{
  TexelConvertPlan plan;
  HostImage in, cpu[2], gpu[2];
  Comparison cmp;
  uint64_t before = texel_cuda_context_bytes_realigned (ctx->kctx);
  int i, failed;

  if (plan_scaled (&plan, rc->in, rc->in_w, rc->in_h, rc->out, rc->out_w,
                   rc->out_h, rc->method)
      != 0)
    {
      ctx->failed++;
      return;
    }
  case_images_init (&in, cpu, gpu, rc->in, rc->in_w, rc->in_h, rc->out,
                    rc->out_w, rc->out_h);
  for (i = 0; i < 2; i++)
    texel_convert_cpu (&plan, &in.img, &cpu[i].img, 0, rc->out_h);
  failed = run_gpu (ctx, &plan, &in, gpu, MEMORY_MISALIGNED, 0);
  if (!failed)
    compare_outputs (cpu, gpu, &cmp);
  if (failed || cmp.max_error > 1 || cmp.unwritten || cmp.stray
      || texel_cuda_context_bytes_realigned (ctx->kctx) != before)
    {
      printf ("FAIL realign: %s -> %s with a misaligned pitch: %s\n",
              texel_format_desc (rc->in)->name,
              texel_format_desc (rc->out)->name,
              failed ? "CUDA error"
              : texel_cuda_context_bytes_realigned (ctx->kctx) != before
                  ? "copied (want plain loads)"
                  : "over 1 code from the CPU");
      ctx->failed++;
    }
  else
    {
      ctx->passed++;
    }
  case_images_clear (&in, cpu, gpu);
}

static void
check_realign (Context *ctx, int quick)
{
  int before = ctx->failed, c, s;

  for (c = 0; c < (int)(sizeof (realign_cases) / sizeof (realign_cases[0]));
       c++)
    {
      for (s = 0;
           s < (int)(sizeof (realign_shifts) / sizeof (realign_shifts[0])); s++)
        check_realign_case (ctx, &realign_cases[c], realign_shifts[s]);
      check_misaligned_pitch (ctx, &realign_cases[c]);
    }
  check_realign_in_flight (ctx, quick);
  printf ("realigned planes: %s\n", ctx->failed == before ? "byte for byte "
                                                            "as aligned ones"
                                                          : "FAIL");
}

/* ------------------------------------------------------------------ */
/* Subsampled chroma against the exact definitions (tests/unit/texel-
 * exact.h), not the CPU: encoding R'G'B' to every subsampled format (the
 * mean over each chroma sample's footprint centred on its site) and
 * decoding every subsampled format to RGBA (chroma reconstructed at its
 * sites), at 1:1 and scaled, through textures (device memory) and plain
 * loads (misaligned). Bound: 1 code at 1:1, where nearest fetches are
 * exact and the bilinear weights 0, 1/4, 1/2, 3/4 are exact in the
 * hardware's 8-bit fixed point, so that only float arithmetic remains;
 * scaled, error_bound, as against the CPU. */

static void
host_set_code (HostImage *h, int c, int x, int y, unsigned code)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  uint8_t *p = host_sample (h, c, x, y);

  if (desc->bytes_per_sample == 2)
    {
      code <<= desc->shift;
      p[0] = (uint8_t)code;
      p[1] = (uint8_t)(code >> 8);
    }
  else
    {
      p[0] = (uint8_t)code;
    }
}

static int
comp_size (const HostImage *h, int c, int vertical)
{
  const TexelComponent *comp = &texel_format_desc (h->img.format)->comp[c];

  return vertical ? -((-h->img.height) >> comp->y_shift)
                  : -((-h->img.width) >> comp->x_shift);
}

typedef struct
{
  const char *name;
  int in_w, in_h, out_w, out_h;
  TexelMethod method;
} ExactGeometry;

static const ExactGeometry exact_geometries[] = {
  { "1:1 nearest", 22, 14, 22, 14, TEXEL_METHOD_NEAREST },
  { "1:1 bilinear", 21, 13, 21, 13, TEXEL_METHOD_BILINEAR },
  { "downscale", 40, 24, 20, 12, TEXEL_METHOD_BILINEAR },
  { "odd downscale", 40, 24, 13, 9, TEXEL_METHOD_BICUBIC },
  { "upscale", 20, 12, 44, 26, TEXEL_METHOD_BILINEAR },
};

static const TexelFormat exact_subsampled[] = {
  TEXEL_FORMAT_NV12,      TEXEL_FORMAT_NV21, TEXEL_FORMAT_I420,
  TEXEL_FORMAT_YV12,      TEXEL_FORMAT_YUY2, TEXEL_FORMAT_UYVY,
  TEXEL_FORMAT_P010_10LE,
};

/* Converts @in with @plan on the GPU in @mode and checks every sample of
 * components 0..2 against @expect (one value per sample, component grids
 * one after another). */
static void
check_exact_case (Context *ctx, const TexelConvertPlan *plan,
                  const HostImage *in, MemoryMode mode, const double *expect,
                  const char *label)
{
  HostImage gpu[2];
  int one_to_one = plan->in_width == plan->out_width
                   && plan->in_height == plan->out_height;
  int bound = one_to_one
                  ? 1
                  : error_bound (plan, uses_textures (in->img.format, mode));
  double max = (double)((1 << plan->out.bits) - 1), worst = 0.0;
  int i, c, x, y, n = 0, wc = 0, wx = 0, wy = 0;
  unsigned wgot = 0;

  for (i = 0; i < 2; i++)
    host_image_init (&gpu[i], plan->out.format, plan->out_width,
                     plan->out_height);
  if (run_gpu (ctx, plan, in, gpu, mode, 0) != 0)
    {
      printf ("FAIL exact %s %s: CUDA error\n", label, memory_names[mode]);
      ctx->failed++;
    }
  else
    {
      for (c = 0; c < 3; c++)
        {
          for (y = 0; y < comp_size (&gpu[0], c, 1); y++)
            {
              for (x = 0; x < comp_size (&gpu[0], c, 0); x++, n++)
                {
                  unsigned got
                      = read_code (&plan->out, host_sample (&gpu[0], c, x, y));
                  double want = fmin (fmax (expect[n], 0.0), max);

                  if (fabs (got - want) > worst)
                    {
                      worst = fabs (got - want);
                      wc = c;
                      wx = x;
                      wy = y;
                      wgot = got;
                    }
                }
            }
        }
      if (worst > bound)
        {
          printf ("FAIL exact %s %s: %.2f codes from exact (bound %d): "
                  "component %d at (%d, %d) is %u\n",
                  label, memory_names[mode], worst, bound, wc, wx, wy, wgot);
          ctx->failed++;
        }
      else
        {
          ctx->passed++;
        }
    }
  for (i = 0; i < 2; i++)
    host_image_clear (&gpu[i]);
}

static void
plan_exact (TexelConvertPlan *plan, const ExactGeometry *g,
            TexelFormat in_format, TexelFormat out_format, const int siting[2],
            int bt601)
{
  TexelConvertConfig config;
  TexelColorimetry yuv = { bt601 ? TEXEL_MATRIX_BT601 : TEXEL_MATRIX_BT709,
                           !bt601, siting[0], siting[1] };
  TexelColorimetry rgb = { TEXEL_MATRIX_RGB, 1, 0, 0 };

  memset (&config, 0, sizeof (config));
  config.src_w = g->in_w;
  config.src_h = g->in_h;
  config.dst_w = g->out_w;
  config.dst_h = g->out_h;
  config.method = g->method;
  config.in_color = texel_format_desc (in_format)->is_yuv ? yuv : rgb;
  config.out_color = texel_format_desc (out_format)->is_yuv ? yuv : rgb;
  config.border_rgba[3] = 1.0;
  texel_convert_plan_init (plan, &config, in_format, g->in_w, g->in_h,
                           out_format, g->out_w, g->out_h, NULL);
}

/* RGBA of @pattern to @out_format. */
static void
check_exact_encode (Context *ctx, const ExactGeometry *g,
                    TexelFormat out_format, const int siting[2],
                    ExactPattern pattern)
{
  static const MemoryMode modes[] = { MEMORY_DEVICE, MEMORY_MISALIGNED };
  const TexelFormatDesc *desc = texel_format_desc (out_format);
  ExactYcc e = { EXACT_BT601, 0, desc->bits };
  TexelConvertPlan plan;
  ExactPicture pic = { g->in_w, g->in_h, 3, NULL };
  double *px = malloc (sizeof (double) * 3 * g->in_w * g->in_h);
  double *expect = malloc (sizeof (double) * 3 * g->out_w * g->out_h);
  unsigned seed = (unsigned)rng_next ();
  ExactMap map;
  HostImage in, shape;
  char label[160];
  int c, x, y, n = 0, m;

  plan_exact (&plan, g, TEXEL_FORMAT_RGBA, out_format, siting, 1);
  host_image_init (&in, TEXEL_FORMAT_RGBA, g->in_w, g->in_h);
  for (y = 0; y < g->in_h; y++)
    {
      for (x = 0; x < g->in_w; x++)
        {
          unsigned rgb[3];

          exact_pattern_rgb (pattern, x, y, g->in_w, g->in_h, seed, rgb);
          for (c = 0; c < 3; c++)
            {
              host_set_code (&in, c, x, y, rgb[c]);
              px[((size_t)y * g->in_w + x) * 3 + c] = rgb[c] / 255.0;
            }
          host_set_code (&in, 3, x, y, 255);
        }
    }
  pic.px = px;
  exact_map_scale (map, g->in_w, g->in_h, g->out_w, g->out_h);
  host_image_init (&shape, out_format, g->out_w, g->out_h);
  for (c = 0; c < 3; c++)
    {
      for (y = 0; y < comp_size (&shape, c, 1); y++)
        {
          for (x = 0; x < comp_size (&shape, c, 0); x++)
            {
              double ycc[3];

              exact_encode_sample (&pic, g->method, map, &e,
                                   desc->comp[c].x_shift, desc->comp[c].y_shift,
                                   siting[0], siting[1], x, y, ycc);
              expect[n++] = ycc[c];
            }
        }
    }
  snprintf (label, sizeof (label),
            "RGBA %dx%d %s -> %s %dx%d %s siting "
            "%d,%d",
            g->in_w, g->in_h, exact_pattern_name (pattern), desc->name,
            g->out_w, g->out_h, g->name, siting[0], siting[1]);
  for (m = 0; m < 2; m++)
    check_exact_case (ctx, &plan, &in, modes[m], expect, label);
  host_image_clear (&shape);
  host_image_clear (&in);
  free (px);
  free (expect);
}

/* Random @in_format to RGBA. */
static void
check_exact_decode (Context *ctx, const ExactGeometry *g, TexelFormat in_format,
                    const int siting[2])
{
  static const MemoryMode modes[] = { MEMORY_DEVICE, MEMORY_MISALIGNED };
  const TexelFormatDesc *desc = texel_format_desc (in_format);
  ExactYcc e = { EXACT_BT601, 0, desc->bits };
  TexelConvertPlan plan;
  ExactPicture luma, chroma;
  double *expect = malloc (sizeof (double) * 3 * g->out_w * g->out_h);
  double *ypx, *cpx;
  HostImage in;
  ExactMap map;
  char label[160];
  int c, x, y, m;

  plan_exact (&plan, g, in_format, TEXEL_FORMAT_RGBA, siting, 1);
  host_image_init (&in, in_format, g->in_w, g->in_h);
  luma.w = comp_size (&in, 0, 0);
  luma.h = comp_size (&in, 0, 1);
  luma.channels = 1;
  chroma.w = comp_size (&in, 1, 0);
  chroma.h = comp_size (&in, 1, 1);
  chroma.channels = 2;
  ypx = malloc (sizeof (double) * luma.w * luma.h);
  cpx = malloc (sizeof (double) * 2 * chroma.w * chroma.h);
  for (c = 0; c < 3; c++)
    {
      ExactPicture *p = c ? &chroma : &luma;
      double *v = c ? cpx : ypx;

      for (y = 0; y < p->h; y++)
        {
          for (x = 0; x < p->w; x++)
            {
              unsigned code
                  = (unsigned)(rng_next () >> 20) % (1u << desc->bits);

              host_set_code (&in, c, x, y, code);
              v[((size_t)y * p->w + x) * p->channels + (c ? c - 1 : 0)] = code;
            }
        }
    }
  luma.px = ypx;
  chroma.px = cpx;
  exact_map_scale (map, g->in_w, g->in_h, g->out_w, g->out_h);
  for (c = 0; c < 3; c++)
    {
      for (y = 0; y < g->out_h; y++)
        {
          for (x = 0; x < g->out_w; x++)
            {
              double sx = map[0][0] * (x + 0.5), sy = map[1][1] * (y + 0.5);
              double ycc[3], rgb[3];

              exact_reconstruct (&luma, g->method, sx, sy, ycc);
              exact_chroma_at (&chroma, g->method, desc->comp[1].x_shift,
                               desc->comp[1].y_shift, siting[0], siting[1], sx,
                               sy, ycc + 1);
              exact_decode (&e, ycc, rgb);
              expect[((size_t)c * g->out_h + y) * g->out_w + x]
                  = 255.0 * rgb[c];
            }
        }
    }
  snprintf (label, sizeof (label), "%s %dx%d -> RGBA %dx%d %s siting %d,%d",
            desc->name, g->in_w, g->in_h, g->out_w, g->out_h, g->name,
            siting[0], siting[1]);
  for (m = 0; m < 2; m++)
    check_exact_case (ctx, &plan, &in, modes[m], expect, label);
  host_image_clear (&in);
  free (ypx);
  free (cpx);
  free (expect);
}

static void
check_chroma_exact (Context *ctx, int quick)
{
  static const int sitings[][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 } };
  int before = ctx->failed, g, f, s, p;

  for (g = 0;
       g < (int)(sizeof (exact_geometries) / sizeof (exact_geometries[0])); g++)
    {
      /* --quick: 1:1 only (nearest, which the element uses for R'G'B'
       * input, and bilinear). */
      if (quick && exact_geometries[g].in_w != exact_geometries[g].out_w)
        continue;
      for (f = 0;
           f < (int)(sizeof (exact_subsampled) / sizeof (exact_subsampled[0]));
           f++)
        {
          for (s = 0; s < 3; s++)
            {
              for (p = 0; p < EXACT_N_PATTERNS; p++)
                check_exact_encode (ctx, &exact_geometries[g],
                                    exact_subsampled[f], sitings[s],
                                    (ExactPattern)p);
              /* Nearest decoding picks in float: compared at 1:1 only. */
              if (exact_geometries[g].method != TEXEL_METHOD_NEAREST
                  || exact_geometries[g].in_w == exact_geometries[g].out_w)
                check_exact_decode (ctx, &exact_geometries[g],
                                    exact_subsampled[f], sitings[s]);
            }
        }
    }
  printf ("chroma against exact definitions: %s\n",
          ctx->failed == before ? "ok" : "FAIL");
}

int
main (int argc, char **argv)
{
  static const MemoryMode both[] = { MEMORY_DEVICE, MEMORY_MAPPED };
  static const MemoryMode misaligned[] = { MEMORY_MISALIGNED };
  GpuTestOptions opts;
  Context ctx;
  int quick;
  int i, o, m, gi;

  if (gpu_test_begin (argc, argv, 0, &opts) != 0)
    return SKIP_EXIT_CODE;
  quick = opts.quick;

  memset (&ctx, 0, sizeof (ctx));
  if (gpu_test_streams_create (ctx.stream, 2)
      || check_cuda ((cudaError_t)texel_cuda_context_new (0, &ctx.kctx),
                     "kernel context"))
    return 1;
  texel_cuda_context_set_generic_sampler (ctx.kctx, sampler_generic ());

  check_api (&ctx);
  check_fence (&ctx);
  check_realign (&ctx, quick);
  check_chroma_exact (&ctx, quick);
  for (i = TEXEL_FORMAT_UNKNOWN + 1; i < TEXEL_FORMAT_COUNT; i++)
    {
      for (o = TEXEL_FORMAT_UNKNOWN + 1; o < TEXEL_FORMAT_COUNT; o++)
        {
          PairSummary pair;

          memset (&pair, 0, sizeof (pair));
          for (m = TEXEL_METHOD_NEAREST; m <= TEXEL_METHOD_BICUBIC; m++)
            {
              /* --quick (for compute-sanitizer, which is slow): one method per
               * pair, in turn, on the smallest geometry (odd sizes, a flip and
               * two bands). */
              if (quick && m != (i + o) % 3)
                continue;
              for (gi = 0; gi < N_GEOMETRIES; gi++)
                {
                  if (quick && gi != QUICK_MISALIGNED_GEOMETRY)
                    continue;
                  run_case (&ctx, &pair, &geometries[gi], (TexelFormat)i,
                            (TexelFormat)o, (TexelMethod)m, both, 2);
                }
              run_case (&ctx, &pair,
                        &geometries[quick ? QUICK_MISALIGNED_GEOMETRY
                                          : MISALIGNED_GEOMETRY],
                        (TexelFormat)i, (TexelFormat)o, (TexelMethod)m,
                        misaligned, 1);
            }
          print_pair ((TexelFormat)i, (TexelFormat)o, &pair);
        }
    }

  print_worst_by_method (ctx.worst, ctx.worst_bound);

  texel_cuda_context_free (ctx.kctx);
  gpu_test_streams_destroy (ctx.stream, 2);
  printf ("%d passed, %d failed\n", ctx.passed, ctx.failed);
  return ctx.failed ? 1 : 0;
}
