/* gst-texel: the CUDA kernels of texelwarp against the CPU reference.
 *
 * A plain C program (no GLib, no GStreamer) so that it runs on a bare GPU
 * machine. For every lens model and view of the cases below, every
 * method, a set of input and output formats, on fresh random frames (seed
 * printed; --seed N replays), it warps on the CPU (texel_warp_cpu, double
 * precision, the oracle) and on the GPU, in device memory and in mapped
 * (zero-copy) host memory, plus one case in device memory at misaligned
 * addresses and pitches (plain loads instead of textures), and checks:
 *  - every output code within the bound below of the CPU's, except where
 *    the GPU's float map may legitimately land on the other side of a
 *    discontinuity (listed below);
 *  - the GPU wrote exactly the bytes the CPU wrote (each side runs twice,
 *    into outputs poisoned differently, and the two GPU runs must agree).
 *    Where a precomputed map of input positions pays (the fisheye model;
 *    the pinhole model into YUV formats: texel_warp_map_pays), it is read
 *    from a plan's second call on (TEXEL_WARP_MAP_AUTO): the first run
 *    computes the positions and the second reads them from the map, so
 *    the two paths are compared byte for byte. The meson test
 *    warp-gpu-map runs every case with GST_TEXEL_WARP_MAP=always,
 *    warp-gpu-generic with the resampler's generic path.
 * The rectified views of a given new camera and rotation (ROS's P and R,
 * pinhole and fisheye) and of the camera matrix itself (cv2.undistort)
 * are also checked, GRAY8 to GRAY8 bilinear, against OpenCV's definition
 * written out in double (opencv-rectify.h: initUndistortRectifyMap and
 * remap), within the bound below plus 1 code (the CPU's rounding).
 * Exits 77 (skipped) without a usable GPU.
 *
 * Error bounds, in output codes. The GPU maps each output sample with the
 * float map of texel-warp.h (texel_warp_source_f, fast-math intrinsics);
 * the unit test bounds its distance from the double map by POS_TOL pixel
 * (tests/unit/test-warp.c, float-map: measured under 1e-3 on 1920x1080
 * frames; these frames are smaller). Then, as in test-convert-gpu.c:
 *  - 1 code for float against double colour arithmetic;
 *  - textures: bilinear weights in 8-bit fixed point, off by up to 2^-8
 *    per axis, times the largest neighbour difference D = 1 (random
 *    frames): 2 x 2^-8 x D per input component; the B-spline likewise;
 *  - the position off by POS_TOL moves a bilinear or B-spline sample by at
 *    most POS_TOL x D per axis: 2 x POS_TOL x D;
 *  - the colour matrix sums components with G = max_k sum_c |m[k][c]|:
 *        bound = 1 + ceil (G (2 x 2^-8 [textures] + 2 x POS_TOL) max_code).
 *  - nearest: the same input sample wherever the position is not within
 *    POS_TOL of a sample boundary: 1 code.
 * Where the double position lies within POS_TOL of a place where the
 * output jumps, the GPU may legitimately land on the other side: nearest's
 * sample boundaries (in every input component's own grid); the constant
 * border's edge [0, W] x [0, H]; the wrap mode's seams (multiples of W,
 * H). Such samples may exceed the bound, at most 2 % of a case's samples
 * (a random position lies that close to one with a probability of about
 * 0.4 %; exact geometries, such as the identity, put many positions on
 * boundaries, but CPU and GPU compute them exactly alike). The cases keep
 * the lens's reach and the horizon out of view, where the valid/invalid
 * decision itself would jump.
 *
 * Usage: test-warp-gpu [--quick] [--seed N]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "opencv-rectify.h"
#include "texel-cuda.h"
#include "texel-gpu-image.h"
#include "texel-warp.h"

#define FILTER_WEIGHT_ERROR (1.0 / 256.0)

/* GST_TEXEL_SAMPLER=generic (the -generic tests): the kernel library
 * reads no environment, so the test hands the choice to the context, as
 * the plugin does. */
static int
sampler_generic (void)
{
  const char *sampler = getenv ("GST_TEXEL_SAMPLER");

  return sampler != NULL && strcmp (sampler, "generic") == 0;
}

/* Largest distance between the GPU's float position and the double one,
 * in input pixels (TEXEL_TEST_FLOAT_MAP_BOUND of the unit test). */
#define POS_TOL 2e-3
#define MAX_TOLERATED_FRACTION 0.02

/* ------------------------------------------------------------------ */
/* Cases */

typedef struct
{
  const char *name;
  int in_w, in_h, out_w, out_h;
  TexelWarpModel model;
  TexelProjection projection;
  double k[6], p[2];
  double focal; /* times the input width */
  double alpha, fov, pan, tilt, rotation, scale, offset_x, offset_y;
  double homography[3][3];
  TexelWarpBorder border;
  int bands; /* two bands on two streams */
  /* rectilinear view's camera: optimal (alpha, the default), the camera
   * matrix, or new_camera_matrix (pixels of the input); rectification R
   * (all 0: the identity) */
  TexelNewCamera new_camera;
  double new_camera_matrix[3][3];
  double rectification[3][3];
} Case;

static const Case cases[] = {
  { "identity",
    64,
    48,
    64,
    48,
    TEXEL_WARP_MODEL_NONE,
    0,
    { 0 },
    { 0 },
    0,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_CONSTANT,
    0 },
  { "rotate+zoom+homography",
    160,
    120,
    150,
    100,
    TEXEL_WARP_MODEL_NONE,
    0,
    { 0 },
    { 0 },
    0,
    0,
    0,
    0,
    0,
    17,
    1.3,
    0.05,
    -0.03,
    { { 1.02, 0.03, -3 }, { -0.02, 0.98, 2 }, { 2e-4, -1e-4, 1 } },
    TEXEL_WARP_BORDER_CONSTANT,
    1 },
  { "zoom out, wrap",
    96,
    64,
    96,
    64,
    TEXEL_WARP_MODEL_NONE,
    0,
    { 0 },
    { 0 },
    0,
    0,
    0,
    0,
    0,
    -31,
    0.6,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_WRAP,
    0 },
  { "pinhole alpha 0.5",
    160,
    120,
    160,
    120,
    TEXEL_WARP_MODEL_PINHOLE,
    0,
    { -0.28, 0.09, -0.012 },
    { 0.0012, -0.0007 },
    0.6,
    0.5,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_CLAMP,
    1 },
  { "rational fov+pan",
    160,
    120,
    128,
    96,
    TEXEL_WARP_MODEL_PINHOLE,
    0,
    { 1.8, 0.5, 0.01, 2.1, 1.0, 0.08 },
    { -0.0005, 0.0009 },
    0.6,
    0,
    70,
    10,
    -5,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_MIRROR,
    0 },
  { "fisheye ePTZ",
    200,
    150,
    160,
    90,
    TEXEL_WARP_MODEL_FISHEYE,
    0,
    { 0.03, -0.008, 0.0015, -0.0002 },
    { 0 },
    0.3,
    0,
    90,
    40,
    20,
    5,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_CONSTANT,
    1 },
  { "fisheye alpha 1, zoom out",
    200,
    150,
    200,
    150,
    TEXEL_WARP_MODEL_FISHEYE,
    0,
    { 0.03, -0.008, 0.0015, -0.0002 },
    { 0 },
    0.3,
    1,
    0,
    0,
    0,
    0,
    0.8,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_MIRROR,
    0 },
  { "fisheye panorama",
    200,
    150,
    240,
    100,
    TEXEL_WARP_MODEL_FISHEYE,
    TEXEL_PROJECTION_EQUIRECTANGULAR,
    { 0.03, -0.008, 0.0015, -0.0002 },
    { 0 },
    0.3,
    0,
    220,
    10,
    -15,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_CONSTANT,
    1 },
  { "pinhole R+P (ROS stereo)",
    160,
    120,
    160,
    120,
    TEXEL_WARP_MODEL_PINHOLE,
    0,
    { -0.21, 0.05, -0.0047 },
    { 0.00121, -0.00083 },
    0.33,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_CONSTANT,
    1,
    TEXEL_NEW_CAMERA_MATRIX,
    { { 121, 0, 82.9 }, { 0, 121, 56 }, { 0, 0, 1 } },
    CV_TEST_STEREO_LEFT_R },
  { "fisheye R+P (ROS stereo)",
    200,
    150,
    200,
    150,
    TEXEL_WARP_MODEL_FISHEYE,
    0,
    { 0.031, -0.0094, 0.0017, -0.00021 },
    { 0 },
    0.3,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_CLAMP,
    0,
    TEXEL_NEW_CAMERA_MATRIX,
    { { 58, 0, 95.6 }, { 0, 58, 77.8 }, { 0, 0, 1 } },
    CV_TEST_STEREO_RIGHT_R },
  { "pinhole keep K (cv2.undistort)",
    160,
    120,
    160,
    120,
    TEXEL_WARP_MODEL_PINHOLE,
    0,
    { -0.25, 0.061, -0.009, 0.02, -0.004, 0.001 },
    { 0.0013, -0.0007 },
    0.5,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_MIRROR,
    1,
    TEXEL_NEW_CAMERA_CAMERA },
  { "fisheye keep K, scaled out",
    200,
    150,
    160,
    120,
    TEXEL_WARP_MODEL_FISHEYE,
    0,
    { 0.04, -0.011, 0.002, -0.0003 },
    { 0 },
    0.3,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    CV_TEST_UNIT,
    TEXEL_WARP_BORDER_CONSTANT,
    0,
    TEXEL_NEW_CAMERA_CAMERA },
};

#define N_CASES ((int)(sizeof (cases) / sizeof (cases[0])))
#define MISALIGNED_CASE 3

/* Input formats: packed 4 bytes, 4:2:0 8 and 10 bits, 3 bytes (no
 * texture), GRAY8, 4:2:2, then planar 10-bit, 4:4:4, 16-bit grey, packed
 * Y'CbCr with alpha and a leading padding byte; outputs: the same kinds. */
static const TexelFormat in_formats[] = {
  TEXEL_FORMAT_RGBA,      TEXEL_FORMAT_NV12,      TEXEL_FORMAT_P010_10LE,
  TEXEL_FORMAT_RGB,       TEXEL_FORMAT_GRAY8,     TEXEL_FORMAT_YUY2,
  TEXEL_FORMAT_I420,      TEXEL_FORMAT_I420_10LE, TEXEL_FORMAT_Y444,
  TEXEL_FORMAT_GRAY16_LE, TEXEL_FORMAT_AYUV,      TEXEL_FORMAT_XRGB,
};

static const TexelFormat out_formats[] = {
  TEXEL_FORMAT_RGBA,      TEXEL_FORMAT_NV12,      TEXEL_FORMAT_I420,
  TEXEL_FORMAT_P010_10LE, TEXEL_FORMAT_BGR,       TEXEL_FORMAT_I422_10LE,
  TEXEL_FORMAT_Y444_10LE, TEXEL_FORMAT_GRAY16_LE, TEXEL_FORMAT_VUYA,
  TEXEL_FORMAT_XRGB,
};

#define N_IN ((int)(sizeof (in_formats) / sizeof (in_formats[0])))
#define N_OUT ((int)(sizeof (out_formats) / sizeof (out_formats[0])))

/* @cs's geometry (colour and sampling left at their defaults). */
static void
case_config (const Case *cs, TexelWarpConfig *config)
{
  texel_warp_config_init (config);
  config->model = cs->model;
  config->projection = cs->projection;
  config->camera.fx = cs->focal * cs->in_w;
  config->camera.fy = cs->focal * cs->in_w * 1.01;
  config->camera.cx = cs->in_w * 0.5 - 0.5 + 2.25;
  config->camera.cy = cs->in_h * 0.5 - 0.5 - 1.5;
  memcpy (config->camera.k, cs->k, sizeof (cs->k));
  memcpy (config->camera.p, cs->p, sizeof (cs->p));
  config->alpha = cs->alpha;
  config->fov = cs->fov;
  config->pan = cs->pan;
  config->tilt = cs->tilt;
  config->rotation = cs->rotation;
  config->scale = cs->scale;
  config->offset_x = cs->offset_x;
  config->offset_y = cs->offset_y;
  memcpy (config->homography, cs->homography, sizeof (cs->homography));
  config->border_mode = cs->border;
  config->new_camera = cs->new_camera;
  memcpy (config->new_camera_matrix, cs->new_camera_matrix,
          sizeof (cs->new_camera_matrix));
  if (cs->rectification[2][2] != 0.0)
    memcpy (config->rectification, cs->rectification,
            sizeof (cs->rectification));
  /* GST_TEXEL_WARP_MAP=always (warp-gpu-map), handed over as the plugin
   * does: the kernel library reads no environment. */
  texel_warp_map_mode_from_name (getenv ("GST_TEXEL_WARP_MAP"), &config->map);
}

static int
case_plan (const Case *cs, TexelFormat in_format, TexelFormat out_format,
           TexelMethod method, TexelWarpPlan *plan)
{
  static const TexelColorimetry bt709 = { TEXEL_MATRIX_BT709, 0, 0, 0 };
  static const TexelColorimetry bt601_full = { TEXEL_MATRIX_BT601, 1, 1, 0 };
  TexelWarpConfig config;
  const char *error = NULL;

  case_config (cs, &config);
  config.method = method;
  config.in_color = bt709;
  config.out_color = bt601_full;
  config.border_rgba[0] = 0.2;
  config.border_rgba[1] = 0.7;
  config.border_rgba[2] = 0.4;
  config.border_rgba[3] = 0.5;
  if (texel_warp_plan_init (plan, &config, in_format, cs->in_w, cs->in_h,
                            out_format, cs->out_w, cs->out_h, &error)
      != 0)
    {
      printf ("FAIL %s: plan: %s\n", cs->name, error);
      return -1;
    }
  return 0;
}

static int
uses_textures (TexelFormat format, MemoryMode mode)
{
  const TexelFormatDesc *desc = texel_format_desc (format);

  return mode != MEMORY_MISALIGNED && desc->comp[0].pixel_stride != 3;
}

static int
error_bound (const TexelWarpPlan *plan, int textured)
{
  const TexelConvertPlan *s = &plan->sampling;
  double max_code = (double)((1 << s->out.bits) - 1);
  double gain = 1.0, per_axis;
  int k, c;

  if (s->method == TEXEL_METHOD_NEAREST)
    return 1;
  for (k = 0; k < 3; k++)
    {
      double g = 0.0;

      if (s->out.comp[k].plane < 0)
        continue;
      for (c = 0; c < 3; c++)
        g += fabs (s->m[k][c]);
      if (g > gain)
        gain = g;
    }
  per_axis = (textured ? FILTER_WEIGHT_ERROR : 0.0) + POS_TOL;
  return 1 + (int)ceil (gain * 2.0 * per_axis * max_code - 1e-9);
}

/* ------------------------------------------------------------------ */
/* Images on the GPU */

/* Device images keep the host layout (aligned), unlike the other GPU
 * tests' pitched ones; misaligned ones get pitches of row bytes + 3 and
 * planes 3 bytes past an aligned address. */
static cudaError_t
warp_image_alloc (GpuImage *g, MemoryMode mode, const HostImage *shape)
{
  if (mode == MEMORY_DEVICE)
    return gpu_image_alloc_packed (g, shape);
  return gpu_image_alloc (g, mode, shape, 3);
}

/* ------------------------------------------------------------------ */
/* Which samples may differ */

/* Whether @v lies within POS_TOL of a multiple of @period. */
static int
near_multiple (double v, double period)
{
  return fabs (v - period * floor (v / period + 0.5)) < POS_TOL;
}

static double
fold (double p, double size, TexelWarpBorder mode)
{
  if (p >= 0 && p <= size)
    return p;
  if (mode == TEXEL_WARP_BORDER_WRAP)
    return p - size * floor (p / size);
  if (mode == TEXEL_WARP_BORDER_MIRROR)
    {
      double t = p - 2 * size * floor (p / (2 * size));

      return t > size ? 2 * size - t : t;
    }
  return p;
}

/* Whether the GPU's float position, within POS_TOL of the output sample
 * at output luma (@x, @y), may land across a discontinuity of the CPU's
 * result (header comment). */
static int
ambiguous (const TexelWarpPlan *plan, double x, double y)
{
  const TexelConvertPlan *s = &plan->sampling;
  double w = s->in_width, h = s->in_height, sx, sy;
  int c;

  if (!texel_warp_source_d (plan, x, y, &sx, &sy))
    return 0;
  if (plan->border_mode == TEXEL_WARP_BORDER_CONSTANT
      && (fabs (sx) < POS_TOL || fabs (sx - w) < POS_TOL || fabs (sy) < POS_TOL
          || fabs (sy - h) < POS_TOL))
    return 1;
  if (plan->border_mode == TEXEL_WARP_BORDER_WRAP
      && (near_multiple (sx, w) || near_multiple (sy, h)))
    return 1;
  if (s->method != TEXEL_METHOD_NEAREST)
    return 0;
  sx = fold (sx, w, plan->border_mode);
  sy = fold (sy, h, plan->border_mode);
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &s->in.comp[c];
      double px, py;

      if (comp->plane < 0)
        continue;
      px = comp->x_shift ? (sx - s->in_chroma_off[0]) * 0.5 + 0.5 : sx;
      py = comp->y_shift ? (sy - s->in_chroma_off[1]) * 0.5 + 0.5 : sy;
      if (near_multiple (px, 1.0) || near_multiple (py, 1.0))
        return 1;
    }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Comparison */

typedef struct
{
  int max_error; /* over samples not ambiguous */
  int worst_comp, worst_x, worst_y;
  unsigned worst_cpu, worst_gpu;
  int tolerated; /* ambiguous samples beyond the bound */
  int samples;
  int unwritten, stray;
} WarpComparison;

typedef struct
{
  const TexelWarpPlan *plan;
  const HostImage *cpu, *gpu;
  int bound;
  WarpComparison *cmp;
} WarpCompareData;

static void
compare_warp_sample (void *data, int c, int x, int y, size_t at)
{
  WarpCompareData *d = data;
  WarpComparison *cmp = d->cmp;
  const TexelConvertPlan *s = &d->plan->sampling;
  const TexelFormatDesc *desc = &s->out;
  const TexelComponent *comp = &desc->comp[c];
  double lx = comp->x_shift ? 2.0 * x + s->out_chroma_off[0] : x + 0.5;
  double ly = comp->y_shift ? 2.0 * y + s->out_chroma_off[1] : y + 0.5;
  int diff = abs ((int)read_code (desc, d->cpu[0].mem + at)
                  - (int)read_code (desc, d->gpu[0].mem + at));

  cmp->samples++;
  if (diff > d->bound && ambiguous (d->plan, lx, ly))
    {
      cmp->tolerated++;
      return;
    }
  if (diff > cmp->max_error)
    {
      cmp->max_error = diff;
      cmp->worst_comp = c;
      cmp->worst_x = x;
      cmp->worst_y = y;
      cmp->worst_cpu = read_code (desc, d->cpu[0].mem + at);
      cmp->worst_gpu = read_code (desc, d->gpu[0].mem + at);
    }
}

/* @cpu and @gpu: two runs each (poisons A and B) of one output. */
static void
compare_warp_outputs (const TexelWarpPlan *plan, const HostImage cpu[2],
                      const HostImage gpu[2], int bound, WarpComparison *cmp)
{
  WarpCompareData d = { plan, cpu, gpu, bound, cmp };

  memset (cmp, 0, sizeof (*cmp));
  for_each_sample (&cpu[0], compare_warp_sample, &d);
  compare_written (cpu, gpu, NULL, &cmp->unwritten, &cmp->stray, NULL);
}

/* ------------------------------------------------------------------ */
/* Running one case */

typedef struct
{
  TexelCudaContext *kctx;
  cudaStream_t stream[2];
  int passed, failed;
  int worst[2][3], worst_bound[2][3];
  double worst_tolerated;
} Context;

/* Warps on the GPU into @out (poisoned with @byte), in one or two bands
 * on the two streams. */
static cudaError_t
gpu_warp (Context *ctx, const TexelWarpPlan *plan, GpuImage *in, GpuImage *out,
          HostImage *host_out, int byte, int bands)
{
  int h = plan->sampling.out_height, cut = bands ? (h / 2) & ~1 : h;
  cudaError_t err = gpu_image_poison (out, byte, ctx->stream[0]);

  if (err == cudaSuccess)
    err = (cudaError_t)texel_cuda_warp (ctx->kctx, plan, &in->dev, &out->dev, 0,
                                        cut, (TexelStream)ctx->stream[0]);
  if (err == cudaSuccess && cut < h)
    err = (cudaError_t)texel_cuda_warp (ctx->kctx, plan, &in->dev, &out->dev,
                                        cut, h, (TexelStream)ctx->stream[1]);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (ctx->stream[1]);
  if (err == cudaSuccess)
    err = gpu_image_download (out, host_out, byte, ctx->stream[0]);
  return err;
}

static void
run_case (Context *ctx, const Case *cs, TexelFormat in_format,
          TexelFormat out_format, TexelMethod method, MemoryMode mode)
{
  const TexelFormatDesc *idesc = texel_format_desc (in_format);
  const TexelFormatDesc *odesc = texel_format_desc (out_format);
  TexelWarpPlan plan;
  HostImage in, cpu[2], gpu[2];
  GpuImage gin, gout;
  WarpComparison cmp;
  char label[256];
  int textured = uses_textures (in_format, mode);
  int bound, r, ok;
  cudaError_t err;

  snprintf (label, sizeof (label), "%s %s -> %s %s %s", cs->name, idesc->name,
            odesc->name, method_names[method], memory_names[mode]);
  if (case_plan (cs, in_format, out_format, method, &plan) != 0)
    {
      ctx->failed++;
      return;
    }
  case_images_init (&in, cpu, gpu, in_format, cs->in_w, cs->in_h, out_format,
                    cs->out_w, cs->out_h);
  for (r = 0; r < 2; r++)
    texel_warp_cpu (&plan, &in.img, &cpu[r].img, 0, cs->out_h);

  err = warp_image_alloc (&gin, mode, &in);
  if (err == cudaSuccess)
    err = warp_image_alloc (&gout, mode, &cpu[0]);
  if (err == cudaSuccess)
    err = gpu_image_upload (&gin, &in, ctx->stream[0]);
  for (r = 0; r < 2 && err == cudaSuccess; r++)
    err = gpu_warp (ctx, &plan, &gin, &gout, &gpu[r], r ? POISON_B : POISON_A,
                    cs->bands);
  if (err != cudaSuccess)
    {
      printf ("FAIL %s: %s\n", label, cudaGetErrorString (err));
      ctx->failed++;
    }
  else
    {
      bound = error_bound (&plan, textured);
      compare_warp_outputs (&plan, cpu, gpu, bound, &cmp);
      ok = cmp.max_error <= bound && !cmp.unwritten && !cmp.stray
           && cmp.tolerated <= MAX_TOLERATED_FRACTION * cmp.samples;
      if (!ok)
        {
          printf (
              "FAIL %s: max error %d (bound %d; component %d at (%d, %d): "
              "CPU %u, GPU %u), %d of %d ambiguous samples beyond it, %d bytes "
              "unwritten, %d stray\n",
              label, cmp.max_error, bound, cmp.worst_comp, cmp.worst_x,
              cmp.worst_y, cmp.worst_cpu, cmp.worst_gpu, cmp.tolerated,
              cmp.samples, cmp.unwritten, cmp.stray);
          ctx->failed++;
        }
      else
        {
          ctx->passed++;
        }
      if (cmp.max_error > ctx->worst[textured][method])
        {
          ctx->worst[textured][method] = cmp.max_error;
          ctx->worst_bound[textured][method] = bound;
        }
      if ((double)cmp.tolerated / cmp.samples > ctx->worst_tolerated)
        ctx->worst_tolerated = (double)cmp.tolerated / cmp.samples;
    }
  gpu_image_free (&gin);
  gpu_image_free (&gout);
  case_images_clear (&in, cpu, gpu);
}

/* ------------------------------------------------------------------ */
/* Against OpenCV's definition */

static double
gray_at (const void *img, int x, int y)
{
  const TexelImage *g = img;

  return g->data[0][(size_t)y * g->stride[0] + x];
}

/* @cs (a view of a given new camera at the input's size) as OpenCV's
 * initUndistortRectifyMap takes it. */
static void
case_opencv (const Case *cs, CvRectify *cv)
{
  TexelWarpConfig c;
  const TexelCamera *cam = &c.camera;
  const double unit[3][3] = CV_TEST_UNIT;

  case_config (cs, &c);
  memset (cv, 0, sizeof (*cv));
  cv->fisheye = cs->model == TEXEL_WARP_MODEL_FISHEYE;
  memcpy (cv->K, unit, sizeof (unit));
  cv->K[0][0] = cam->fx;
  cv->K[1][1] = cam->fy;
  cv->K[0][2] = cam->cx;
  cv->K[1][2] = cam->cy;
  if (cv->fisheye)
    {
      memcpy (cv->D, cam->k, 4 * sizeof (double));
    }
  else
    {
      const double d[8] = { cam->k[0], cam->k[1], cam->p[0], cam->p[1],
                            cam->k[2], cam->k[3], cam->k[4], cam->k[5] };

      memcpy (cv->D, d, sizeof (d));
    }
  memcpy (cv->R, c.rectification, sizeof (cv->R));
  memcpy (cv->P,
          cs->new_camera == TEXEL_NEW_CAMERA_CAMERA ? cv->K
                                                    : c.new_camera_matrix,
          sizeof (cv->P));
}

/* GRAY8 -> GRAY8 (no colour change), bilinear, on the GPU, against
 * cv::remap through cv_rectify_map, where the four taps lie inside. */
static void
check_opencv_view (Context *ctx, const Case *cs)
{
  static const TexelColorimetry bt709 = { TEXEL_MATRIX_BT709, 0, 0, 0 };
  TexelWarpConfig config;
  TexelWarpPlan plan;
  CvRectify cv;
  HostImage in, out;
  GpuImage gin, gout;
  const char *why = NULL;
  int u, v, bound, worst = 0, checked = 0, wx = 0, wy = 0;
  cudaError_t err;

  case_opencv (cs, &cv);
  case_config (cs, &config);
  config.method = TEXEL_METHOD_BILINEAR;
  config.in_color = config.out_color = bt709;
  if (texel_warp_plan_init (&plan, &config, TEXEL_FORMAT_GRAY8, cs->in_w,
                            cs->in_h, TEXEL_FORMAT_GRAY8, cs->out_w, cs->out_h,
                            &why)
      != 0)
    {
      printf ("FAIL %s vs OpenCV: plan: %s\n", cs->name, why);
      ctx->failed++;
      return;
    }
  host_image_init (&in, TEXEL_FORMAT_GRAY8, cs->in_w, cs->in_h);
  host_image_init (&out, TEXEL_FORMAT_GRAY8, cs->out_w, cs->out_h);
  host_image_randomize (&in);
  err = warp_image_alloc (&gin, MEMORY_DEVICE, &in);
  if (err == cudaSuccess)
    err = warp_image_alloc (&gout, MEMORY_DEVICE, &out);
  if (err == cudaSuccess)
    err = gpu_image_upload (&gin, &in, ctx->stream[0]);
  if (err == cudaSuccess)
    err = gpu_warp (ctx, &plan, &gin, &gout, &out, POISON_A, 0);
  if (err != cudaSuccess)
    {
      printf ("FAIL %s vs OpenCV: %s\n", cs->name, cudaGetErrorString (err));
      ctx->failed++;
      goto done;
    }
  bound = error_bound (&plan, 1) + 1;
  for (v = 0; v < cs->out_h; v++)
    for (u = 0; u < cs->out_w; u++)
      {
        double mx, my, ref;
        int diff;

        if (!cv_rectify_map (&cv, u, v, &mx, &my)
            || !cv_remap_bilinear (gray_at, &in.img, cs->in_w, cs->in_h, mx, my,
                                   &ref))
          continue;
        diff = (int)ceil (
            fabs (out.img.data[0][(size_t)v * out.img.stride[0] + u] - ref)
            - 1e-9);
        if (diff > worst)
          {
            worst = diff;
            wx = u;
            wy = v;
          }
        checked++;
      }
  if (worst > bound || checked < cs->out_w * cs->out_h / 2)
    {
      printf ("FAIL %s vs OpenCV: %d codes off at (%d, %d) (bound %d), %d "
              "pixels checked\n",
              cs->name, worst, wx, wy, bound, checked);
      ctx->failed++;
    }
  else
    {
      printf ("%s vs OpenCV: %d pixels, worst %d codes (bound %d)\n", cs->name,
              checked, worst, bound);
      ctx->passed++;
    }
done:
  gpu_image_free (&gin);
  gpu_image_free (&gout);
  host_image_clear (&in);
  host_image_clear (&out);
}

/* The entry point refuses the default stream and a mismatching output. */
static void
check_api (Context *ctx)
{
  TexelWarpPlan plan;
  HostImage in, out;
  GpuImage gin, gout;
  int err;

  case_plan (&cases[0], TEXEL_FORMAT_RGBA, TEXEL_FORMAT_RGBA,
             TEXEL_METHOD_BILINEAR, &plan);
  host_image_init (&in, TEXEL_FORMAT_RGBA, cases[0].in_w, cases[0].in_h);
  host_image_init (&out, TEXEL_FORMAT_RGBA, cases[0].in_w + 2, cases[0].in_h);
  if (warp_image_alloc (&gin, MEMORY_DEVICE, &in) != cudaSuccess
      || warp_image_alloc (&gout, MEMORY_DEVICE, &out) != cudaSuccess)
    {
      printf ("FAIL: api: allocation\n");
      ctx->failed++;
      return;
    }
  err = texel_cuda_warp (ctx->kctx, &plan, &gin.dev, &gin.dev, 0, 1, NULL);
  expect_refused (err, "api: the default stream", &ctx->passed, &ctx->failed);
  err = texel_cuda_warp (ctx->kctx, &plan, &gin.dev, &gout.dev, 0, 1,
                         (TexelStream)ctx->stream[0]);
  expect_refused (err, "api: an output of the wrong size", &ctx->passed,
                  &ctx->failed);
  gpu_image_free (&gin);
  gpu_image_free (&gout);
  host_image_clear (&in);
  host_image_clear (&out);
}

int
main (int argc, char **argv)
{
  GpuTestOptions opts;
  Context ctx;
  int quick;
  int ci, i, o, m;

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
  for (ci = 0; ci < N_CASES; ci++)
    if (cases[ci].new_camera != TEXEL_NEW_CAMERA_OPTIMAL
        && cases[ci].in_w == cases[ci].out_w
        && cases[ci].in_h == cases[ci].out_h)
      check_opencv_view (&ctx, &cases[ci]);
  for (ci = 0; ci < N_CASES; ci++)
    {
      for (i = 0; i < N_IN; i++)
        {
          for (o = 0; o < N_OUT; o++)
            {
              for (m = TEXEL_METHOD_NEAREST; m <= TEXEL_METHOD_BICUBIC; m++)
                {
                  /* --quick (compute-sanitizer): one method per pair. */
                  if (quick && m != (i + o + ci) % 3)
                    continue;
                  run_case (&ctx, &cases[ci], in_formats[i], out_formats[o],
                            (TexelMethod)m, MEMORY_DEVICE);
                  if (!quick || ci == MISALIGNED_CASE)
                    run_case (&ctx, &cases[ci], in_formats[i], out_formats[o],
                              (TexelMethod)m, MEMORY_MAPPED);
                  if (ci == MISALIGNED_CASE)
                    run_case (&ctx, &cases[ci], in_formats[i], out_formats[o],
                              (TexelMethod)m, MEMORY_MISALIGNED);
                }
            }
        }
      printf ("%s: done (%d passed, %d failed so far)\n", cases[ci].name,
              ctx.passed, ctx.failed);
    }

  print_worst_by_method (ctx.worst, ctx.worst_bound);
  printf ("most ambiguous samples beyond the bound in one case: %.2f %%\n",
          100.0 * ctx.worst_tolerated);

  texel_cuda_context_free (ctx.kctx);
  gpu_test_streams_destroy (ctx.stream, 2);
  printf ("%d passed, %d failed\n", ctx.passed, ctx.failed);
  return ctx.failed ? 1 : 0;
}
