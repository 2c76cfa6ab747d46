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
#include <time.h>

#include <cuda_runtime_api.h>

#include "texel-adjust.h"
#include "texel-cuda.h"
#include "../unit/texel-gst-def.h"

#define SKIP_EXIT_CODE 77
#define POISON_A 0x5a
#define POISON_B 0xa5
#define HOST_STRIDE_ALIGN 64
#define HOST_PLANE_ALIGN 4096

/* ------------------------------------------------------------------ */
/* Random numbers: xorshift64*, seeded and printed, so a failure can be
 * replayed with --seed. */

static uint64_t rng_state;

static uint64_t
rng_next (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

/* ------------------------------------------------------------------ */
/* Settings */

typedef enum
{
  MEMORY_DEVICE,                /* cudaMallocPitch, cudaMemcpy2DAsync */
  MEMORY_MAPPED,                /* cudaHostAllocMapped, zero-copy */
  MEMORY_MISALIGNED,            /* device, odd addresses and pitches */
  MEMORY_MODES
} MemoryMode;

static const char *const memory_names[MEMORY_MODES] = {
  "device", "mapped", "misaligned"
};

typedef struct
{
  const char *name;
  double brightness, contrast, saturation, hue, linear_gamma, exposure;
  double gain[3];
  int informative;
  double white_point;           /* 0: neutral */
  TexelToneMap tone_map;
  double vignette;
  int lut;                      /* test_cube () index, 0: none */
  int force_hw;                 /* hardware LUT filtering regardless */
  double gamma;                 /* the gamma element's, on Y' (0: 1) */
} Settings;

/* ------------------------------------------------------------------ */
/* 3D LUTs */

typedef void (*LutFunction) (double r, double g, double b, double o[3]);

static void
lut_identity (double r, double g, double b, double o[3])
{
  o[0] = r;
  o[1] = g;
  o[2] = b;
}

static void
lut_invert (double r, double g, double b, double o[3])
{
  o[0] = 1.0 - r;
  o[1] = 1.0 - g;
  o[2] = 1.0 - b;
}

/* A smooth grade with cross-channel terms, a little outside [0, 1]. */
static void
lut_grade (double r, double g, double b, double o[3])
{
  o[0] = 0.9 * pow (r > 0.0 ? r : 0.0, 0.8) + 0.15 * g - 0.02;
  o[1] = pow (g > 0.0 ? g : 0.0, 1.1) + 0.05 * (b - r);
  o[2] = 0.85 * b + 0.1 * r + 0.05;
}

/* @f on an @n^3 lattice over [@lo, @hi], as .cube text, parsed. */
static TexelCube *
cube_new (int n, LutFunction f, double lo, double hi)
{
  size_t cap = 256 + (size_t) n * n * n * 48, len = 0;
  char *text = malloc (cap);
  TexelCubeError error;
  TexelCube *cube;
  int r, g, b;

  if (text == NULL)
    return NULL;
  len += (size_t) snprintf (text + len, cap - len, "TITLE \"gpu test\"\n"
      "LUT_3D_SIZE %d\nDOMAIN_MIN %.9g %.9g %.9g\nDOMAIN_MAX %.9g %.9g "
      "%.9g\n", n, lo, lo, lo, hi, hi, hi);
  for (b = 0; b < n; b++)
    for (g = 0; g < n; g++)
      for (r = 0; r < n; r++) {
        double o[3], d = (hi - lo) / (n - 1);

        f (lo + r * d, lo + g * d, lo + b * d, o);
        len += (size_t) snprintf (text + len, cap - len, "%.9g %.9g %.9g\n",
            o[0], o[1], o[2]);
      }
  cube = texel_cube_parse (text, len, &error);
  if (cube == NULL)
    printf ("generated LUT, line %d: %s\n", error.line, error.message);
  free (text);
  return cube;
}

enum
{
  LUT_NONE = 0,
  LUT_IDENTITY_33,
  LUT_IDENTITY_2,
  LUT_INVERT_2,
  LUT_GRADE_17,
  LUT_GRADE_65_WIDE,
  N_LUTS
};

static TexelCube *test_cubes[N_LUTS];
static TexelCudaLut3d *test_gpu_luts[N_LUTS];

/* LUT @which, on the host and on device 0 (made once). */
static const TexelCube *
test_cube (int which, TexelCudaLut3d ** gpu)
{
  *gpu = NULL;
  if (which == LUT_NONE)
    return NULL;
  if (test_cubes[which] == NULL) {
    if (which == LUT_IDENTITY_33)
      test_cubes[which] = cube_new (33, lut_identity, 0.0, 1.0);
    else if (which == LUT_IDENTITY_2)
      test_cubes[which] = cube_new (2, lut_identity, 0.0, 1.0);
    else if (which == LUT_INVERT_2)
      test_cubes[which] = cube_new (2, lut_invert, 0.0, 1.0);
    else if (which == LUT_GRADE_17)
      test_cubes[which] = cube_new (17, lut_grade, 0.0, 1.0);
    else
      test_cubes[which] = cube_new (65, lut_grade, -0.1, 1.1);
    if (test_cubes[which] != NULL && texel_cuda_lut3d_new (0,
            test_cubes[which], &test_gpu_luts[which]) != 0)
      printf ("cannot copy LUT %d to the GPU\n", which);
  }
  *gpu = test_gpu_luts[which];
  return test_cubes[which];
}

static void
test_cubes_free (void)
{
  int i;

  for (i = 0; i < N_LUTS; i++) {
    texel_cuda_lut3d_free (test_gpu_luts[i]);
    texel_cube_free (test_cubes[i]);
  }
}

static const Settings settings[] = {
  {"balance", 0.1, 1.2, 1.5, 0.25, 1, 0, {1, 1, 1}, 0},
  {"desaturate", -0.2, 0.6, 0.0, -0.7, 1, 0, {1, 1, 1}, 0},
  {"gamma 2.2", 0, 1, 1, 0, 2.2, 0, {1, 1, 1}, 0},
  {"gamma 0.45", 0, 1, 1, 0, 0.45, 0, {1, 1, 1}, 0},
  {"gamma 10", 0, 1, 1, 0, 10, 0, {1, 1, 1}, 0},
  {"gamma 0.01", 0, 1, 1, 0, 0.01, 0, {1, 1, 1}, 0},
  {"exposure +1", 0, 1, 1, 0, 1, 1, {1, 1, 1}, 0},
  {"exposure -3", 0, 1, 1, 0, 1, -3, {1, 1, 1}, 0},
  {"exposure +10", 0, 1, 1, 0, 1, 10, {1, 1, 1}, 0},
  {"exposure +3 gamma 1.5", 0, 1, 1, 0, 1.5, 3, {1, 1, 1}, 0},
  {"white balance", 0, 1, 1, 0, 1, 0, {1.3, 1.0, 0.7}, 0},
  {"gains 0 and 4", 0, 1, 1, 0, 1, 0, {0, 4, 1}, 0},
  {"everything", 0.05, 1.1, 1.2, 0.1, 1.3, 0.5, {1.1, 0.95, 1.2}, 0},
  {"white point 2500", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 2500},
  {"wp 12000, gains", 0, 1, 1.2, 0, 1.2, 0, {1.2, 1, 0.8}, 0, 12000},
  {"reinhard", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, TEXEL_TONE_MAP_REINHARD},
  {"reinhard +3, wp, gamma", 0, 1.1, 1, 0, 1.4, 3, {1, 1, 1}, 0, 4000,
      TEXEL_TONE_MAP_REINHARD},
  {"filmic", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, TEXEL_TONE_MAP_FILMIC},
  {"filmic +2, gamma 2.2", 0, 1, 1.1, 0, 2.2, 2, {1, 1, 1}, 0, 0,
      TEXEL_TONE_MAP_FILMIC},
  {"filmic +10, gamma 0.5", 0, 1, 1, 0, 0.5, 10, {4, 2, 1}, 0, 0,
      TEXEL_TONE_MAP_FILMIC},
  {"vignette 1.5", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, 0, 1.5},
  {"vignette -1", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, 0, -1},
  {"vignette 3, filmic", 0.02, 1, 1.2, 0, 1.6, 0.5, {1, 1, 1}, 0,
      5000, TEXEL_TONE_MAP_FILMIC, 3},
  {"LUT identity 33", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, 0, 0,
      LUT_IDENTITY_33},
  {"LUT identity 2", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, 0, 0,
      LUT_IDENTITY_2},
  {"LUT invert 2, balance", 0.05, 1.1, 1.3, 0.1, 1, 0, {1, 1, 1}, 0, 0, 0, 0,
      LUT_INVERT_2},
  {"LUT grade 17, gamma", 0, 1, 1, 0, 1.3, 0, {1, 1, 1}, 0, 0, 0, 0,
      LUT_GRADE_17},
  {"LUT grade 65, vignette", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, 0, 1,
      LUT_GRADE_65_WIDE},
  {"gamma 0.7 (element)", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 0, 0, 0, 0, 0, 0,
      0.7},
  {"gamma 1.5 saturation 1.3", 0, 1, 1.3, 0, 1, 0, {1, 1, 1}, 0, 0, 0, 0, 0,
      0, 1.5},
  {"gamma 2.2 after exposure", 0.05, 1.2, 1, 0.1, 1, 1, {1, 1, 1}, 0, 0, 0,
      0, 0, 0, 2.2},
  {"gamma 0.8 before LUT", 0.1, 1, 0.8, 0, 1, 0, {1, 1, 1}, 0, 0, 0, 0,
      LUT_GRADE_17, 0, 0.8},
  {"(LUT identity 2, hw)", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 1, 0, 0, 0,
      LUT_IDENTITY_2, 1},
  {"(LUT invert 2, hw)", 0, 1, 1, 0, 1, 0, {1, 1, 1}, 1, 0, 0, 0,
      LUT_INVERT_2, 1},
  {"(LUT grade 17, hw)", 0, 1, 1, 0, 1.3, 0, {1, 1, 1}, 1, 0, 0, 0,
      LUT_GRADE_17, 1},
  {"(gamma 10 exposure +6)", 0, 1, 1, 0, 10, 6, {1, 1, 1}, 1},
  {"(gamma 10 exposure +10)", 0, 1, 1, 0, 10, 10, {4, 4, 4}, 1},
};

#define N_SETTINGS ((int) (sizeof (settings) / sizeof (settings[0])))

typedef struct
{
  TexelMatrix matrix;
  int full_range;
  TexelTransfer transfer;
} Colorimetry;

static const Colorimetry colorimetries[] = {
  {TEXEL_MATRIX_BT709, 0, TEXEL_TRANSFER_BT709},
  {TEXEL_MATRIX_BT601, 1, TEXEL_TRANSFER_SRGB},
  {TEXEL_MATRIX_BT2020, 0, TEXEL_TRANSFER_GAMMA22},
};

#define N_COLORIMETRIES \
  ((int) (sizeof (colorimetries) / sizeof (colorimetries[0])))

static const TexelFormat all_formats[] = {
  TEXEL_FORMAT_NV12, TEXEL_FORMAT_NV21, TEXEL_FORMAT_I420, TEXEL_FORMAT_YV12,
  TEXEL_FORMAT_YUY2, TEXEL_FORMAT_UYVY, TEXEL_FORMAT_RGBA, TEXEL_FORMAT_BGRA,
  TEXEL_FORMAT_RGBX, TEXEL_FORMAT_BGRX, TEXEL_FORMAT_ARGB, TEXEL_FORMAT_ABGR,
  TEXEL_FORMAT_RGB, TEXEL_FORMAT_BGR, TEXEL_FORMAT_GRAY8,
  TEXEL_FORMAT_P010_10LE,
};

#define N_FORMATS ((int) (sizeof (all_formats) / sizeof (all_formats[0])))

/* ------------------------------------------------------------------ */
/* Images in host memory */

typedef struct
{
  TexelImage img;
  uint8_t *mem;
  size_t size;
} HostImage;

static int
host_image_init (HostImage * h, TexelFormat format, int width, int height)
{
  h->size = texel_image_layout (&h->img, format, width, height,
      HOST_STRIDE_ALIGN, HOST_PLANE_ALIGN, NULL);
  h->mem = malloc (h->size);
  if (h->mem == NULL)
    return -1;
  texel_image_layout (&h->img, format, width, height, HOST_STRIDE_ALIGN,
      HOST_PLANE_ALIGN, h->mem);
  return 0;
}

static void
host_image_clear (HostImage * h)
{
  free (h->mem);
  h->mem = NULL;
}

/* Random bytes; P010 gets valid words only (10 bits << 6, low bits 0, as
 * every producer writes them: textures would filter the low bits, the CPU
 * drops them). */
static void
host_image_randomize (HostImage * h)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  size_t i;

  for (i = 0; i + 8 <= h->size; i += 8) {
    uint64_t r = rng_next ();

    memcpy (h->mem + i, &r, 8);
  }
  for (; i < h->size; i++)
    h->mem[i] = (uint8_t) rng_next ();
  if (desc->bytes_per_sample == 2)
    for (i = 0; i + 1 < h->size; i += 2)
      h->mem[i] &= (uint8_t) (0xff << desc->shift);
}

static int
plane_rows (const TexelImage * img, int p)
{
  return texel_plane_height (img->format, p, img->height);
}

/* ------------------------------------------------------------------ */
/* Images the GPU reads and writes */

typedef struct
{
  MemoryMode mode;
  TexelImage dev;               /* device-accessible addresses */
  size_t row_bytes[TEXEL_MAX_PLANES];
  void *plane_mem[TEXEL_MAX_PLANES];    /* device: one allocation a plane */
  void *mem;                    /* mapped host or misaligned device block */
  size_t size;
} GpuImage;

static cudaError_t
gpu_image_alloc (GpuImage * g, MemoryMode mode, const HostImage * shape,
    int misalign)
{
  const TexelImage *img = &shape->img;
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  cudaError_t err = cudaSuccess;
  int p;

  memset (g, 0, sizeof (*g));
  g->mode = mode;
  g->dev = *img;
  for (p = 0; p < desc->n_planes; p++)
    g->row_bytes[p] = (size_t) texel_plane_row_bytes (img->format, p,
        img->width);

  if (mode == MEMORY_DEVICE) {
    for (p = 0; p < desc->n_planes && err == cudaSuccess; p++) {
      size_t pitch;

      /* As wide as the host stride, so row padding comes back too. */
      err = cudaMallocPitch (&g->plane_mem[p], &pitch, img->stride[p],
          plane_rows (img, p));
      g->dev.data[p] = g->plane_mem[p];
      g->dev.stride[p] = (int) pitch;
    }
    return err;
  }
  if (mode == MEMORY_MAPPED) {
    void *dev;

    g->size = shape->size;
    err = cudaHostAlloc (&g->mem, g->size, cudaHostAllocMapped);
    if (err != cudaSuccess)
      return err;
    err = cudaHostGetDevicePointer (&dev, g->mem, 0);
    if (err != cudaSuccess)
      return err;
    /* Same layout as the host image, at the device address. */
    for (p = 0; p < desc->n_planes; p++)
      g->dev.data[p] = (uint8_t *) dev + (img->data[p] - shape->mem);
    return cudaSuccess;
  }

  /* Misaligned: pitch = row bytes + @misalign (never a multiple of the
   * texture pitch alignment, 32 on current GPUs) and planes starting
   * @misalign bytes past an aligned address. */
  g->size = 0;
  for (p = 0; p < desc->n_planes; p++) {
    size_t pitch = g->row_bytes[p] + misalign;

    if (pitch % 32 == 0)
      pitch += misalign;
    g->dev.stride[p] = (int) pitch;
    g->size += 512 + pitch * plane_rows (img, p);
  }
  err = cudaMalloc (&g->mem, g->size);
  if (err != cudaSuccess)
    return err;
  {
    uint8_t *at = g->mem;

    for (p = 0; p < desc->n_planes; p++) {
      g->dev.data[p] = at + misalign;
      at += 512 + (size_t) g->dev.stride[p] * plane_rows (img, p);
    }
  }
  return cudaSuccess;
}

static void
gpu_image_free (GpuImage * g)
{
  int p;

  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    if (g->plane_mem[p] != NULL)
      cudaFree (g->plane_mem[p]);
  if (g->mem != NULL) {
    if (g->mode == MEMORY_MAPPED)
      cudaFreeHost (g->mem);
    else
      cudaFree (g->mem);
  }
  memset (g, 0, sizeof (*g));
}

/* Bytes per row moved between host and GPU images: the whole host stride
 * where the GPU pitch has room for it, else the pixel bytes. */
static size_t
gpu_copy_width (const GpuImage * g, const HostImage * h, int p)
{
  return (size_t) h->img.stride[p] <= (size_t) g->dev.stride[p] ?
      (size_t) h->img.stride[p] : g->row_bytes[p];
}

static cudaError_t
gpu_image_upload (GpuImage * g, const HostImage * h, cudaStream_t stream)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  cudaError_t err = cudaSuccess;
  int p;

  if (g->mode == MEMORY_MAPPED) {
    memcpy (g->mem, h->mem, h->size);
    return cudaSuccess;
  }
  for (p = 0; p < desc->n_planes && err == cudaSuccess; p++)
    err = cudaMemcpy2DAsync (g->dev.data[p], g->dev.stride[p],
        h->img.data[p], h->img.stride[p], gpu_copy_width (g, h, p),
        plane_rows (&h->img, p), cudaMemcpyHostToDevice, stream);
  return err;
}

static cudaError_t
gpu_image_poison (GpuImage * g, int byte, cudaStream_t stream)
{
  const TexelFormatDesc *desc = texel_format_desc (g->dev.format);
  cudaError_t err = cudaSuccess;
  int p;

  if (g->mode == MEMORY_MAPPED) {
    memset (g->mem, byte, g->size);
    return cudaSuccess;
  }
  for (p = 0; p < desc->n_planes && err == cudaSuccess; p++)
    err = cudaMemset2DAsync (g->dev.data[p], g->dev.stride[p], byte,
        g->dev.stride[p], plane_rows (&g->dev, p), stream);
  return err;
}

/* Fills @h (poisoned with @byte first, for what is not copied) with the
 * GPU image; @stream must be idle for mapped memory. */
static cudaError_t
gpu_image_download (const GpuImage * g, HostImage * h, int byte,
    cudaStream_t stream)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  cudaError_t err = cudaSuccess;
  int p;

  if (g->mode == MEMORY_MAPPED) {
    memcpy (h->mem, g->mem, h->size);
    return cudaSuccess;
  }
  memset (h->mem, byte, h->size);
  for (p = 0; p < desc->n_planes && err == cudaSuccess; p++)
    err = cudaMemcpy2DAsync (h->img.data[p], h->img.stride[p],
        g->dev.data[p], g->dev.stride[p], gpu_copy_width (g, h, p),
        plane_rows (&h->img, p), cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  return err;
}

/* ------------------------------------------------------------------ */
/* Comparison */

typedef struct
{
  long samples, over0, over1, over2;
  int max_error;
  int worst_comp, worst_x, worst_y;
  unsigned worst_cpu, worst_gpu;
  int unwritten;                /* bytes the CPU wrote, the GPU did not */
  int stray;                    /* bytes the GPU wrote, the CPU did not */
  int bad_padding;              /* written non-component bytes that differ */
} Comparison;

static unsigned
read_code (const TexelFormatDesc * desc, const uint8_t * p)
{
  if (desc->bytes_per_sample == 2)
    return (unsigned) (p[0] | (p[1] << 8)) >> desc->shift;
  return p[0];
}

/* @cpu and @gpu hold two runs each (poisons A and B) of one output. */
static void
compare_outputs (const HostImage cpu[2], const HostImage gpu[2],
    Comparison * cmp)
{
  const TexelImage *img = &cpu[0].img;
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  size_t size = cpu[0].size, i;
  uint8_t *is_sample = calloc (size, 1);
  int c;

  memset (cmp, 0, sizeof (*cmp));
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++) {
    const TexelComponent *comp = &desc->comp[c];
    int w, h, x, y;

    if (comp->plane < 0)
      continue;
    w = -((-img->width) >> comp->x_shift);
    h = -((-img->height) >> comp->y_shift);
    for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++) {
        size_t at = (size_t) (img->data[comp->plane] - cpu[0].mem)
            + (size_t) y * img->stride[comp->plane] + comp->offset
            + (size_t) x * comp->pixel_stride;
        int written = memcmp (cpu[0].mem + at, cpu[1].mem + at,
            desc->bytes_per_sample) == 0;
        int diff;

        memset (is_sample + at, 1, desc->bytes_per_sample);
        if (!written)
          continue;
        diff = abs ((int) read_code (desc, cpu[0].mem + at)
            - (int) read_code (desc, gpu[0].mem + at));
        cmp->samples++;
        cmp->over0 += diff > 0;
        cmp->over1 += diff > 1;
        cmp->over2 += diff > 2;
        if (diff > cmp->max_error) {
          cmp->max_error = diff;
          cmp->worst_comp = c;
          cmp->worst_x = x;
          cmp->worst_y = y;
          cmp->worst_cpu = read_code (desc, cpu[0].mem + at);
          cmp->worst_gpu = read_code (desc, gpu[0].mem + at);
        }
      }
    }
  }

  for (i = 0; i < size; i++) {
    int cpu_wrote = cpu[0].mem[i] == cpu[1].mem[i];
    int gpu_wrote = gpu[0].mem[i] == gpu[1].mem[i];

    if (cpu_wrote && !gpu_wrote)
      cmp->unwritten++;
    else if (!cpu_wrote && gpu_wrote)
      cmp->stray++;
    else if (cpu_wrote && !is_sample[i] && cpu[0].mem[i] != gpu[0].mem[i])
      cmp->bad_padding++;
  }
  free (is_sample);
}

/* ------------------------------------------------------------------ */
/* Running one case */

typedef struct
{
  cudaStream_t stream[2];
  int passed, failed;
  /* Per setting, over all formats and modes. */
  long samples[N_SETTINGS], over0[N_SETTINGS], over1[N_SETTINGS];
  int max_error[N_SETTINGS];
  double lut_bound[N_SETTINGS]; /* hardware LUT filtering's bound E */
} Context;

static int
check_cuda (cudaError_t err, const char *what)
{
  if (err == cudaSuccess)
    return 0;
  fprintf (stderr, "  %s: %s (%s)\n", what, cudaGetErrorName (err),
      cudaGetErrorString (err));
  return -1;
}

/* Adjusts on the GPU into @gpu (two runs, poisons A and B). */
static int
run_gpu (Context * ctx, const TexelAdjustPlan * plan,
    const TexelCudaLut3d * lut, const HostImage * in, HostImage gpu[2],
    MemoryMode mode, int bands)
{
  static const int poison[2] = { POISON_A, POISON_B };
  GpuImage gin, gout;
  int failed = 0, run;

  failed |= check_cuda (gpu_image_alloc (&gin, mode, in, 3), "input alloc");
  failed |= check_cuda (gpu_image_alloc (&gout, mode, &gpu[0], 1),
      "output alloc");
  if (!failed)
    failed |= check_cuda (gpu_image_upload (&gin, in, ctx->stream[0]),
        "upload");

  for (run = 0; run < 2 && !failed; run++) {
    int h = plan->kernel.height;

    failed |= check_cuda (gpu_image_poison (&gout, poison[run],
            ctx->stream[0]), "poison");
    if (!failed && bands) {
      int mid = (h / 2) & ~1;

      failed |= check_cuda (cudaStreamSynchronize (ctx->stream[0]), "sync");
      failed |= check_cuda ((cudaError_t) texel_cuda_adjust (0, plan, lut,
              &gin.dev, &gout.dev, 0, mid,
              (TexelStream) ctx->stream[0]), "adjust band 0");
      failed |= check_cuda ((cudaError_t) texel_cuda_adjust (0, plan, lut,
              &gin.dev, &gout.dev, mid, h,
              (TexelStream) ctx->stream[1]), "adjust band 1");
      failed |= check_cuda (cudaStreamSynchronize (ctx->stream[1]),
          "sync band 1");
    } else if (!failed) {
      failed |= check_cuda ((cudaError_t) texel_cuda_adjust (0, plan, lut,
              &gin.dev, &gout.dev, 0, h,
              (TexelStream) ctx->stream[0]), "adjust");
    }
    if (!failed)
      failed |= check_cuda (cudaStreamSynchronize (ctx->stream[0]), "sync");
    if (!failed)
      failed |= check_cuda (gpu_image_download (&gout, &gpu[run],
              poison[run], ctx->stream[0]), "download");
  }
  gpu_image_free (&gin);
  gpu_image_free (&gout);
  return failed ? -1 : 0;
}

static void
config_for (TexelAdjustConfig * config, const Settings * st,
    const Colorimetry * col)
{
  texel_adjust_config_init (config);
  config->brightness = st->brightness;
  config->contrast = st->contrast;
  config->saturation = st->saturation;
  config->hue = st->hue;
  config->linear_gamma = st->linear_gamma;
  if (st->gamma > 0.0)
    config->gamma = st->gamma;
  config->exposure = st->exposure;
  memcpy (config->gain, st->gain, sizeof (config->gain));
  if (st->white_point > 0.0)
    config->white_point = st->white_point;
  config->tone_map = st->tone_map;
  config->vignette = st->vignette;
  config->matrix = col->matrix;
  config->full_range = col->full_range;
  config->transfer = col->transfer;
}

static void
run_case (Context * ctx, int s, TexelFormat format, int ci, int width,
    int height, const MemoryMode * modes, int n_modes, int bands)
{
  const Settings *st = &settings[s];
  TexelAdjustConfig config;
  TexelAdjustPlan plan;
  TexelCudaLut3d *lut;
  HostImage in, cpu[2], gpu[2];
  const char *why = NULL;
  int i, m;

  config_for (&config, st, &colorimetries[ci]);
  config.cube = test_cube (st->lut, &lut);
  if ((st->lut && (config.cube == NULL || lut == NULL))
      || texel_adjust_plan_init (&plan, &config, format, width, height,
          &why) != 0) {
    printf ("FAIL %s %s: plan: %s\n", texel_format_desc (format)->name,
        st->name, why ? why : "no LUT");
    ctx->failed++;
    return;
  }
  if (st->force_hw && plan.kernel.lut3d)
    plan.kernel.lut3d_hw = 1;
  if (plan.kernel.lut3d_hw && plan.lut3d_hw_error > ctx->lut_bound[s])
    ctx->lut_bound[s] = plan.lut3d_hw_error;
  host_image_init (&in, format, width, height);
  host_image_randomize (&in);
  for (i = 0; i < 2; i++) {
    host_image_init (&cpu[i], format, width, height);
    host_image_init (&gpu[i], format, width, height);
    memset (cpu[i].mem, i ? POISON_B : POISON_A, cpu[i].size);
    texel_adjust_cpu (&plan, &in.img, &cpu[i].img, 0, height);
  }

  for (m = 0; m < n_modes; m++) {
    Comparison cmp;
    int ok;

    if (run_gpu (ctx, &plan, lut, &in, gpu, modes[m], bands) != 0) {
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
      ok = ok && (cmp.over2 == 0 || (plan.kernel.linear
              && (plan.kernel.gst.gamma || plan.kernel.gst.balance)))
          && cmp.over1 * 1000 <= cmp.samples;
    /* Forced hardware filtering: within the plan's bound E. */
    if (st->force_hw && plan.kernel.lut3d)
      ok = ok && cmp.max_error <= (int) floor (plan.lut3d_hw_error) + 1;
    if (!ok) {
      printf ("FAIL %s %s colorimetry %d %s%s: max error %d (component %d "
          "at (%d, %d): cpu %u, gpu %u), %ld of %ld samples off by > 1, "
          "%ld by > 2; %d bytes unwritten, %d stray writes, %d padding "
          "bytes differ\n", texel_format_desc (format)->name, st->name, ci,
          memory_names[modes[m]], bands ? " bands" : "", cmp.max_error,
          cmp.worst_comp, cmp.worst_x, cmp.worst_y, cmp.worst_cpu,
          cmp.worst_gpu, cmp.over1, cmp.samples, cmp.over2, cmp.unwritten,
          cmp.stray, cmp.bad_padding);
      ctx->failed++;
    } else {
      ctx->passed++;
    }
    ctx->samples[s] += cmp.samples;
    ctx->over0[s] += cmp.over0;
    ctx->over1[s] += cmp.over1;
    if (cmp.max_error > ctx->max_error[s])
      ctx->max_error[s] = cmp.max_error;
  }

  host_image_clear (&in);
  for (i = 0; i < 2; i++) {
    host_image_clear (&cpu[i]);
    host_image_clear (&gpu[i]);
  }
}

/* ------------------------------------------------------------------ */
/* gamma ! videobalance against their definitions */

static unsigned
code_at (const HostImage * h, int c, int x, int y)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  const TexelComponent *comp = &desc->comp[c];

  return read_code (desc, h->img.data[comp->plane] + (size_t) y *
      h->img.stride[comp->plane] + comp->offset + (size_t) x *
      comp->pixel_stride);
}

/* What `gamma ! videobalance` make of component @c at (@x, @y) of @in
 * (alpha: carried over). */
static int
def_code (const GstSettings * g, const HostImage * in, int c, int x, int y)
{
  const TexelFormatDesc *desc = texel_format_desc (in->img.format);
  int s = desc->bits == 10 ? 4 : 1, k, v[3];

  if (c == 3)
    return (int) code_at (in, 3, x, y);
  if (!desc->is_yuv) {
    for (k = 0; k < 3; k++)
      v[k] = (int) code_at (in, k, x, y);
    def_rgb (g, v);
    return v[c];
  }
  if (c == 0)
    return def_luma (g, def_gamma (g, (int) code_at (in, 0, x, y), s), s);
  def_chroma (g, (int) code_at (in, 1, x, y), (int) code_at (in, 2, x, y),
      s, v);
  return v[c - 1];
}

/* Samples of @out more than @tolerance codes from the definition. */
static long
count_off_definition (const GstSettings * g, const HostImage * in,
    const HostImage * out, int tolerance, long *samples, int *max_error)
{
  const TexelFormatDesc *desc = texel_format_desc (in->img.format);
  long off = 0;
  int c, x, y;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++) {
    const TexelComponent *comp = &desc->comp[c];
    int w = -((-in->img.width) >> comp->x_shift);
    int h = -((-in->img.height) >> comp->y_shift);

    if (comp->plane < 0)
      continue;
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        int e = abs ((int) code_at (out, c, x, y) - def_code (g, in, c, x,
                y));

        (*samples)++;
        off += e > tolerance;
        if (e > *max_error)
          *max_error = e;
      }
  }
  return off;
}

static void
check_gst_definition (Context * ctx, int width, int height)
{
  static const MemoryMode modes[] = {
    MEMORY_DEVICE, MEMORY_MAPPED, MEMORY_MISALIGNED
  };
  long samples = 0;
  int s, f, full, m, n = 0, max_error = 0;

  for (s = 0; s < DEF_N_SETTINGS; s++)
    for (f = 0; f < N_FORMATS; f++)
      for (full = 0; full < 2; full++) {
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
                NULL) != 0) {
          printf ("FAIL %s gamma/videobalance %d: plan\n",
              texel_format_desc (format)->name, s);
          ctx->failed++;
          continue;
        }
        tolerance = texel_format_desc (format)->bits == 10
            && g->gamma != 1.0 ? 1 : 0;
        host_image_init (&in, format, width, height);
        host_image_randomize (&in);
        for (i = 0; i < 2; i++)
          host_image_init (&gpu[i], format, width, height);
        for (m = 0; m < MEMORY_MODES; m++) {
          long off;

          if (run_gpu (ctx, &plan, NULL, &in, gpu, modes[m], n++ % 2) != 0) {
            printf ("FAIL %s gamma/videobalance %d %s: CUDA error\n",
                texel_format_desc (format)->name, s, memory_names[modes[m]]);
            ctx->failed++;
            continue;
          }
          off = count_off_definition (g, &in, &gpu[0], tolerance, &samples,
              &max_error);
          if (off) {
            printf ("FAIL %s gamma/videobalance %d, %s range, %s: %ld "
                "samples more than %d code(s) from the definition\n",
                texel_format_desc (format)->name, s, full ? "full" :
                "limited", memory_names[modes[m]], off, tolerance);
            ctx->failed++;
          } else {
            ctx->passed++;
          }
        }
        host_image_clear (&in);
        for (i = 0; i < 2; i++)
          host_image_clear (&gpu[i]);
      }
  printf ("gamma ! videobalance definitions: %ld samples, max error %d "
      "code(s)\n", samples, max_error);
}

/* Contract checks that need no comparison. */
static void
check_api (Context * ctx)
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
  err = texel_cuda_adjust (0, &plan, NULL, &in.img, &in.img, 0, 48, NULL);
  if (err == 0) {
    printf ("FAIL: the default stream was accepted\n");
    ctx->failed++;
  } else {
    ctx->passed++;
  }
  /* An output image that does not match the plan. */
  err = texel_cuda_adjust (0, &plan, NULL, &in.img, &out.img, 0, 48,
      (TexelStream) ctx->stream[0]);
  if (err == 0) {
    printf ("FAIL: a mismatching output image was accepted\n");
    ctx->failed++;
  } else {
    ctx->passed++;
  }
  /* A plan with a 3D LUT but no LUT on the GPU. */
  {
    TexelAdjustPlan with_lut;
    TexelCudaLut3d *lut;

    config.cube = test_cube (LUT_IDENTITY_33, &lut);
    texel_adjust_plan_init (&with_lut, &config, TEXEL_FORMAT_NV12, 64, 48,
        NULL);
    config.cube = NULL;
    err = texel_cuda_adjust (0, &with_lut, NULL, &in.img, &in.img, 0, 48,
        (TexelStream) ctx->stream[0]);
    if (err == 0) {
      printf ("FAIL: a plan with a 3D LUT ran without its GPU LUT\n");
      ctx->failed++;
    } else {
      ctx->passed++;
    }
  }
  /* A band starting on an odd row of a 4:2:0 frame. */
  err = texel_cuda_adjust (0, &plan, NULL, &in.img, &in.img, 1, 48,
      (TexelStream) ctx->stream[0]);
  if (err == 0) {
    printf ("FAIL: an odd first row of 4:2:0 was accepted\n");
    ctx->failed++;
  } else {
    ctx->passed++;
  }
  host_image_clear (&in);
  host_image_clear (&out);
}

static int
print_device (void)
{
  TexelCudaCaps caps;
  int count = 0, n;

  n = texel_cuda_device_count (&count);
  if (n <= 0) {
    printf ("SKIP: no usable CUDA device: %s\n",
        n < 0 ? texel_cuda_error_string (n) : "none found");
    return -1;
  }
  if (texel_cuda_probe (0, &caps) != 0) {
    printf ("SKIP: cannot probe device 0\n");
    return -1;
  }
  printf ("device 0: %s, compute %d.%d, %d SMs, driver %d, runtime %d\n",
      caps.name, caps.cc_major, caps.cc_minor, caps.sm_count,
      caps.driver_version, caps.runtime_version);
  return 0;
}

int
main (int argc, char **argv)
{
  static const MemoryMode all_modes[] = {
    MEMORY_DEVICE, MEMORY_MAPPED, MEMORY_MISALIGNED
  };
  Context ctx;
  uint64_t seed = (uint64_t) time (NULL);
  int quick = 0, width, height;
  int a, s, f, ci, n = 0;
  long samples = 0, over0 = 0, over1 = 0;
  int max_error = 0;

  setvbuf (stdout, NULL, _IOLBF, 0);
  for (a = 1; a < argc; a++) {
    if (strcmp (argv[a], "--quick") == 0)
      quick = 1;
    else if (strcmp (argv[a], "--seed") == 0 && a + 1 < argc)
      seed = strtoull (argv[++a], NULL, 0);
  }
  if (print_device () != 0)
    return SKIP_EXIT_CODE;
  printf ("seed %llu%s\n", (unsigned long long) seed,
      quick ? " (quick)" : "");
  rng_state = seed ? seed : 1;
  width = quick ? 37 : 317;
  height = quick ? 21 : 179;

  memset (&ctx, 0, sizeof (ctx));
  if (check_cuda (cudaSetDevice (0), "cudaSetDevice")
      || check_cuda (cudaStreamCreateWithFlags (&ctx.stream[0],
              cudaStreamNonBlocking), "stream")
      || check_cuda (cudaStreamCreateWithFlags (&ctx.stream[1],
              cudaStreamNonBlocking), "stream"))
    return 1;

  check_api (&ctx);
  check_gst_definition (&ctx, width, height);
  for (s = 0; s < N_SETTINGS; s++)
    for (f = 0; f < N_FORMATS; f++)
      for (ci = 0; ci < N_COLORIMETRIES; ci++) {
        if (quick && ci != (s + f) % N_COLORIMETRIES)
          continue;
        run_case (&ctx, s, all_formats[f], ci, width, height, all_modes,
            MEMORY_MODES, n++ % 2);
      }

  for (s = 0; s < N_SETTINGS; s++) {
    printf ("%-24s max error %d code(s); of %ld samples %ld (%.4f %%) off "
        "by 1, %ld by more%s\n", settings[s].name, ctx.max_error[s],
        ctx.samples[s], ctx.over0[s] - ctx.over1[s],
        100.0 * (ctx.over0[s] - ctx.over1[s]) / (ctx.samples[s] ?
            ctx.samples[s] : 1), ctx.over1[s],
        settings[s].informative ? " (informative)" : "");
    if (ctx.lut_bound[s] > 0.0)
      printf ("%-24s hardware LUT filtering, bound E up to %.2f codes\n", "",
          ctx.lut_bound[s]);
    if (settings[s].informative)
      continue;
    samples += ctx.samples[s];
    over0 += ctx.over0[s];
    over1 += ctx.over1[s];
    if (ctx.max_error[s] > max_error)
      max_error = ctx.max_error[s];
  }
  printf ("asserted settings: max error %d code(s); of %ld samples %ld off "
      "by 1, %ld by more\n", max_error, samples, over0 - over1, over1);

  test_cubes_free ();
  cudaStreamDestroy (ctx.stream[0]);
  cudaStreamDestroy (ctx.stream[1]);
  printf ("%d passed, %d failed\n", ctx.passed, ctx.failed);
  return ctx.failed ? 1 : 0;
}
