/* gst-texel: what the GPU tests share (texel-gpu-image.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-gpu-image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "texel-cuda.h"

const char *const memory_names[MEMORY_MODES]
    = { "device", "mapped", "misaligned" };
const char *const method_names[3] = { "nearest", "bilinear", "bicubic" };

/* ------------------------------------------------------------------ */
/* Options and set-up */

static uint64_t rng_state = 1;

uint64_t
rng_next (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

static int
print_device (void)
{
  TexelCudaCaps caps;
  int count = 0, n;

  n = texel_cuda_device_count (&count);
  if (n <= 0)
    {
      printf ("SKIP: no usable CUDA device: %s\n",
              n < 0 ? texel_cuda_error_string (n) : "none found");
      return -1;
    }
  if (texel_cuda_probe (0, &caps) != 0)
    {
      printf ("SKIP: cannot probe device 0\n");
      return -1;
    }
  printf ("device 0: %s, compute %d.%d, %d SMs, integrated %d, texture "
          "alignment %zu, pitch alignment %zu, driver %d, runtime %d\n",
          caps.name, caps.cc_major, caps.cc_minor, caps.sm_count,
          caps.integrated, caps.texture_alignment, caps.texture_pitch_alignment,
          caps.driver_version, caps.runtime_version);
  return 0;
}

int
gpu_test_begin (int argc, char **argv, int takes_tiny, GpuTestOptions *opts)
{
  int a;

  memset (opts, 0, sizeof (*opts));
  opts->seed = (uint64_t)time (NULL);
  /* One stream for the summary and the failures, in order, also when
   * both go to one log file. */
  setvbuf (stdout, NULL, _IOLBF, 0);
  for (a = 1; a < argc; a++)
    {
      if (strcmp (argv[a], "--quick") == 0)
        opts->quick = 1;
      else if (takes_tiny && strcmp (argv[a], "--tiny") == 0)
        opts->tiny = 1;
      else if (strcmp (argv[a], "--seed") == 0 && a + 1 < argc)
        opts->seed = strtoull (argv[++a], NULL, 0);
    }
  if (print_device () != 0)
    return -1;
  printf ("seed %llu%s\n", (unsigned long long)opts->seed,
          opts->tiny    ? " (tiny)"
          : opts->quick ? " (quick)"
                        : "");
  rng_state = opts->seed ? opts->seed : 1;
  return 0;
}

int
check_cuda (cudaError_t err, const char *what)
{
  if (err == cudaSuccess)
    return 0;
  fprintf (stderr, "  %s: %s (%s)\n", what, cudaGetErrorName (err),
           cudaGetErrorString (err));
  return -1;
}

void
expect_refused (int err, const char *what, int *passed, int *failed)
{
  if (err == 0)
    {
      printf ("FAIL: %s was accepted\n", what);
      (*failed)++;
    }
  else
    {
      (*passed)++;
    }
}

int
gpu_test_streams_create (cudaStream_t *streams, int n)
{
  int i;

  if (check_cuda (cudaSetDevice (0), "cudaSetDevice"))
    return -1;
  for (i = 0; i < n; i++)
    if (check_cuda (
            cudaStreamCreateWithFlags (&streams[i], cudaStreamNonBlocking),
            "stream"))
      return -1;
  return 0;
}

void
gpu_test_streams_destroy (cudaStream_t *streams, int n)
{
  int i;

  for (i = 0; i < n; i++)
    cudaStreamDestroy (streams[i]);
}

/* ------------------------------------------------------------------ */
/* Images in host memory */

int
host_image_init (HostImage *h, TexelFormat format, int width, int height)
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

void
host_image_clear (HostImage *h)
{
  free (h->mem);
  h->mem = NULL;
}

void
host_image_randomize (HostImage *h)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  size_t i;

  for (i = 0; i + 8 <= h->size; i += 8)
    {
      uint64_t r = rng_next ();

      memcpy (h->mem + i, &r, 8);
    }
  for (; i < h->size; i++)
    h->mem[i] = (uint8_t)rng_next ();
  /* 16-bit words hold their format's bits alone (P010 in the high bits,
   * I420_10LE in the low ones), as decoders write them. */
  if (desc->bytes_per_sample == 2)
    {
      unsigned mask = ((1u << desc->bits) - 1) << desc->shift;

      for (i = 0; i + 1 < h->size; i += 2)
        {
          h->mem[i] &= (uint8_t)(mask & 0xff);
          h->mem[i + 1] &= (uint8_t)(mask >> 8);
        }
    }
}

int
case_images_init (HostImage *in, HostImage cpu[2], HostImage gpu[2],
                  TexelFormat in_format, int in_w, int in_h,
                  TexelFormat out_format, int out_w, int out_h)
{
  int failed, i;

  memset (cpu, 0, 2 * sizeof (HostImage));
  memset (gpu, 0, 2 * sizeof (HostImage));
  failed = host_image_init (in, in_format, in_w, in_h);
  if (!failed)
    host_image_randomize (in);
  for (i = 0; i < 2 && !failed; i++)
    {
      failed |= host_image_init (&cpu[i], out_format, out_w, out_h);
      failed |= host_image_init (&gpu[i], out_format, out_w, out_h);
      if (!failed)
        memset (cpu[i].mem, i ? POISON_B : POISON_A, cpu[i].size);
    }
  if (failed)
    case_images_clear (in, cpu, gpu);
  return failed ? -1 : 0;
}

void
case_images_clear (HostImage *in, HostImage cpu[2], HostImage gpu[2])
{
  int i;

  host_image_clear (in);
  for (i = 0; i < 2; i++)
    {
      host_image_clear (&cpu[i]);
      host_image_clear (&gpu[i]);
    }
}

int
plane_rows (const TexelImage *img, int p)
{
  return texel_plane_height (img->format, p, img->height);
}

uint8_t *
host_sample (const HostImage *h, int c, int x, int y)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  const TexelComponent *comp = &desc->comp[c];

  return h->img.data[comp->plane] + (size_t)y * h->img.stride[comp->plane]
         + comp->offset + (size_t)x * comp->pixel_stride;
}

/* ------------------------------------------------------------------ */
/* Images the GPU reads and writes */

static void
gpu_image_shape (GpuImage *g, MemoryMode mode, const TexelImage *img)
{
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  int p;

  memset (g, 0, sizeof (*g));
  g->mode = mode;
  g->dev = *img;
  for (p = 0; p < desc->n_planes; p++)
    g->row_bytes[p]
        = (size_t)texel_plane_row_bytes (img->format, p, img->width);
}

/* The host layout of @shape, at device address @dev. */
static void
gpu_image_place (GpuImage *g, const HostImage *shape, void *dev)
{
  int p;

  for (p = 0; p < texel_format_desc (shape->img.format)->n_planes; p++)
    g->dev.data[p] = (uint8_t *)dev + (shape->img.data[p] - shape->mem);
}

static cudaError_t
gpu_image_alloc_misaligned (GpuImage *g, const TexelImage *img, int misalign)
{
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  cudaError_t err;
  uint8_t *at;
  int p;

  for (p = 0; p < desc->n_planes; p++)
    {
      size_t pitch = g->row_bytes[p] + misalign;

      if (pitch % 32 == 0)
        pitch += misalign;
      g->dev.stride[p] = (int)pitch;
      g->size += 512 + pitch * plane_rows (img, p);
    }
  err = cudaMalloc (&g->mem, g->size);
  if (err != cudaSuccess)
    return err;
  at = g->mem;
  for (p = 0; p < desc->n_planes; p++)
    {
      g->dev.data[p] = at + misalign;
      at += 512 + (size_t)g->dev.stride[p] * plane_rows (img, p);
    }
  return cudaSuccess;
}

cudaError_t
gpu_image_alloc (GpuImage *g, MemoryMode mode, const HostImage *shape,
                 int misalign)
{
  const TexelImage *img = &shape->img;
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  cudaError_t err = cudaSuccess;
  void *dev;
  int p;

  gpu_image_shape (g, mode, img);
  if (mode == MEMORY_DEVICE)
    {
      for (p = 0; p < desc->n_planes && err == cudaSuccess; p++)
        {
          size_t pitch;

          /* As wide as the host stride, so row padding comes back too. */
          err = cudaMallocPitch (&g->plane_mem[p], &pitch, img->stride[p],
                                 plane_rows (img, p));
          g->dev.data[p] = g->plane_mem[p];
          g->dev.stride[p] = (int)pitch;
        }
      return err;
    }
  if (mode == MEMORY_MISALIGNED)
    return gpu_image_alloc_misaligned (g, img, misalign);

  g->size = shape->size;
  err = cudaHostAlloc (&g->mem, g->size, cudaHostAllocMapped);
  if (err != cudaSuccess)
    return err;
  err = cudaHostGetDevicePointer (&dev, g->mem, 0);
  if (err != cudaSuccess)
    return err;
  gpu_image_place (g, shape, dev);
  return cudaSuccess;
}

cudaError_t
gpu_image_alloc_packed (GpuImage *g, const HostImage *shape)
{
  return gpu_image_alloc_shifted (g, shape, 0);
}

cudaError_t
gpu_image_alloc_shifted (GpuImage *g, const HostImage *shape, int shift)
{
  uintptr_t at;
  cudaError_t err;

  gpu_image_shape (g, MEMORY_DEVICE, &shape->img);
  g->size = shape->size;
  err = cudaMalloc (&g->mem, g->size + HOST_PLANE_ALIGN + shift);
  if (err != cudaSuccess)
    return err;
  at = ((uintptr_t)g->mem + HOST_PLANE_ALIGN - 1)
       & ~(uintptr_t)(HOST_PLANE_ALIGN - 1);
  gpu_image_place (g, shape, (void *)(at + shift));
  return cudaSuccess;
}

void
gpu_image_free (GpuImage *g)
{
  int p;

  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    if (g->plane_mem[p] != NULL)
      cudaFree (g->plane_mem[p]);
  if (g->mem != NULL)
    {
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
gpu_copy_width (const GpuImage *g, const HostImage *h, int p)
{
  return (size_t)h->img.stride[p] <= (size_t)g->dev.stride[p]
             ? (size_t)h->img.stride[p]
             : g->row_bytes[p];
}

cudaError_t
gpu_image_upload (GpuImage *g, const HostImage *h, cudaStream_t stream)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  cudaError_t err = cudaStreamSynchronize (stream);
  int p;

  if (g->mode == MEMORY_MAPPED)
    {
      if (err == cudaSuccess)
        memcpy (g->mem, h->mem, h->size);
      return err;
    }
  for (p = 0; p < desc->n_planes && err == cudaSuccess; p++)
    err = cudaMemcpy2DAsync (g->dev.data[p], g->dev.stride[p], h->img.data[p],
                             h->img.stride[p], gpu_copy_width (g, h, p),
                             plane_rows (&h->img, p), cudaMemcpyHostToDevice,
                             stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  return err;
}

cudaError_t
gpu_image_poison (GpuImage *g, int byte, cudaStream_t stream)
{
  const TexelFormatDesc *desc = texel_format_desc (g->dev.format);
  cudaError_t err = cudaStreamSynchronize (stream);
  int p;

  if (g->mode == MEMORY_MAPPED)
    {
      if (err == cudaSuccess)
        memset (g->mem, byte, g->size);
      return err;
    }
  for (p = 0; p < desc->n_planes && err == cudaSuccess; p++)
    err = cudaMemset2DAsync (g->dev.data[p], g->dev.stride[p], byte,
                             g->dev.stride[p], plane_rows (&g->dev, p), stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  return err;
}

cudaError_t
gpu_image_download (const GpuImage *g, HostImage *h, int byte,
                    cudaStream_t stream)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  cudaError_t err = cudaStreamSynchronize (stream);
  int p;

  if (g->mode == MEMORY_MAPPED)
    {
      if (err == cudaSuccess)
        memcpy (h->mem, g->mem, h->size);
      return err;
    }
  memset (h->mem, byte, h->size);
  for (p = 0; p < desc->n_planes && err == cudaSuccess; p++)
    err = cudaMemcpy2DAsync (h->img.data[p], h->img.stride[p], g->dev.data[p],
                             g->dev.stride[p], gpu_copy_width (g, h, p),
                             plane_rows (&h->img, p), cudaMemcpyDeviceToHost,
                             stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  return err;
}

/* ------------------------------------------------------------------ */
/* Comparison */

unsigned
read_code (const TexelFormatDesc *desc, const uint8_t *p)
{
  if (desc->bytes_per_sample == 2)
    return (unsigned)(p[0] | (p[1] << 8)) >> desc->shift;
  return p[0];
}

void
compare_written (const HostImage cpu[2], const HostImage gpu[2],
                 const uint8_t *is_sample, int *unwritten, int *stray,
                 int *bad_padding)
{
  size_t i;

  for (i = 0; i < cpu[0].size; i++)
    {
      int cpu_wrote = cpu[0].mem[i] == cpu[1].mem[i];
      int gpu_wrote = gpu[0].mem[i] == gpu[1].mem[i];

      if (cpu_wrote && !gpu_wrote)
        (*unwritten)++;
      else if (!cpu_wrote && gpu_wrote)
        (*stray)++;
      else if (is_sample != NULL && cpu_wrote && !is_sample[i]
               && cpu[0].mem[i] != gpu[0].mem[i])
        (*bad_padding)++;
    }
}

void
for_each_sample (const HostImage *h, SampleFunc f, void *data)
{
  const TexelFormatDesc *desc = texel_format_desc (h->img.format);
  int c;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &desc->comp[c];
      int w, hh, x, y;

      if (comp->plane < 0)
        continue;
      w = -((-h->img.width) >> comp->x_shift);
      hh = -((-h->img.height) >> comp->y_shift);
      for (y = 0; y < hh; y++)
        for (x = 0; x < w; x++)
          f (data, c, x, y, (size_t)(host_sample (h, c, x, y) - h->mem));
    }
}

typedef struct
{
  const HostImage *cpu, *gpu;
  const TexelFormatDesc *desc;
  uint8_t *is_sample;
  Comparison *cmp;
} CompareData;

static void
compare_sample (void *data, int c, int x, int y, size_t at)
{
  CompareData *d = data;
  Comparison *cmp = d->cmp;
  const uint8_t *a = d->cpu[0].mem + at, *b = d->gpu[0].mem + at;
  int diff;

  memset (d->is_sample + at, 1, d->desc->bytes_per_sample);
  if (memcmp (a, d->cpu[1].mem + at, d->desc->bytes_per_sample) != 0)
    return; /* not written by the CPU */
  diff = abs ((int)read_code (d->desc, a) - (int)read_code (d->desc, b));
  cmp->samples++;
  cmp->over0 += diff > 0;
  cmp->over1 += diff > 1;
  cmp->over2 += diff > 2;
  if (diff > cmp->max_error)
    {
      cmp->max_error = diff;
      cmp->worst_comp = c;
      cmp->worst_x = x;
      cmp->worst_y = y;
      cmp->worst_cpu = read_code (d->desc, a);
      cmp->worst_gpu = read_code (d->desc, b);
    }
}

void
compare_outputs (const HostImage cpu[2], const HostImage gpu[2],
                 Comparison *cmp)
{
  CompareData d = { cpu, gpu, texel_format_desc (cpu[0].img.format),
                    calloc (cpu[0].size, 1), cmp };

  memset (cmp, 0, sizeof (*cmp));
  for_each_sample (&cpu[0], compare_sample, &d);
  compare_written (cpu, gpu, d.is_sample, &cmp->unwritten, &cmp->stray,
                   &cmp->bad_padding);
  free (d.is_sample);
}

void
comparison_print_failure (const char *label, const Comparison *cmp)
{
  printf ("FAIL %s: max error %d (component %d at (%d, %d): cpu %u, gpu %u), "
          "%ld of %ld samples off by > 1, %ld by > 2; %d bytes unwritten, %d "
          "stray writes, %d padding bytes differ\n",
          label, cmp->max_error, cmp->worst_comp, cmp->worst_x, cmp->worst_y,
          cmp->worst_cpu, cmp->worst_gpu, cmp->over1, cmp->samples, cmp->over2,
          cmp->unwritten, cmp->stray, cmp->bad_padding);
}

void
print_worst_by_method (int worst[2][3], int bound[2][3])
{
  int t, m;

  for (t = 1; t >= 0; t--)
    for (m = 0; m < 3; m++)
      printf ("worst %s%s: %d codes (bound of that case %d)\n", t ? "" : "raw-",
              method_names[m], worst[t][m], bound[t][m]);
}

void
tally_add (Tally *t, const Comparison *cmp)
{
  t->samples += cmp->samples;
  t->over0 += cmp->over0;
  t->over1 += cmp->over1;
  if (cmp->max_error > t->max_error)
    t->max_error = cmp->max_error;
}

void
tally_add_tally (Tally *t, const Tally *u)
{
  t->samples += u->samples;
  t->over0 += u->over0;
  t->over1 += u->over1;
  if (u->max_error > t->max_error)
    t->max_error = u->max_error;
}

void
tally_print (const char *label, const Tally *t, const char *suffix)
{
  printf ("%s max error %d code(s); of %ld samples %ld (%.4f %%) off by 1, "
          "%ld by more%s\n",
          label, t->max_error, t->samples, t->over0 - t->over1,
          100.0 * (t->over0 - t->over1) / (t->samples ? t->samples : 1),
          t->over1, suffix);
}

void
tally_print_total (const char *what, const Tally *t)
{
  printf ("%s: max error %d code(s); of %ld samples %ld off by 1, %ld by "
          "more\n",
          what, t->max_error, t->samples, t->over0 - t->over1, t->over1);
}

/* ------------------------------------------------------------------ */
/* Two GPU runs of one kernel */

static cudaError_t
gpu_run_bands (cudaStream_t stream[2], GpuLaunch launch, void *data,
               const char *what, const GpuImage *in, const GpuImage *out,
               int rows, int bands)
{
  char label[64];
  int mid = (rows / 2) & ~1;

  if (!bands)
    {
      if (check_cuda (launch (data, &in->dev, &out->dev, 0, rows, stream[0]),
                      what))
        return cudaErrorUnknown;
      return cudaSuccess;
    }
  /* The second band on another stream, after the upload it needs. */
  if (check_cuda (cudaStreamSynchronize (stream[0]), "sync"))
    return cudaErrorUnknown;
  snprintf (label, sizeof (label), "%s band 0", what);
  if (check_cuda (launch (data, &in->dev, &out->dev, 0, mid, stream[0]), label))
    return cudaErrorUnknown;
  snprintf (label, sizeof (label), "%s band 1", what);
  if (check_cuda (launch (data, &in->dev, &out->dev, mid, rows, stream[1]),
                  label)
      || check_cuda (cudaStreamSynchronize (stream[1]), "sync band 1"))
    return cudaErrorUnknown;
  return cudaSuccess;
}

int
gpu_run_twice (cudaStream_t stream[2], GpuLaunch launch, void *data,
               const char *what, const HostImage *in, HostImage gpu[2],
               MemoryMode mode, int in_misalign, int rows, int bands)
{
  static const int poison[2] = { POISON_A, POISON_B };
  GpuImage gin, gout;
  int failed = 0, run;

  failed |= check_cuda (gpu_image_alloc (&gin, mode, in, in_misalign),
                        "input alloc");
  /* In the misaligned mode outputs are off by 1 byte (address and pitch):
   * stores must fall back to bytes. */
  failed
      |= check_cuda (gpu_image_alloc (&gout, mode, &gpu[0], 1), "output alloc");
  if (!failed)
    failed |= check_cuda (gpu_image_upload (&gin, in, stream[0]), "upload");

  for (run = 0; run < 2 && !failed; run++)
    {
      failed |= check_cuda (gpu_image_poison (&gout, poison[run], stream[0]),
                            "poison");
      if (!failed
          && gpu_run_bands (stream, launch, data, what, &gin, &gout, rows,
                            bands)
                 != cudaSuccess)
        failed = -1;
      if (!failed)
        failed |= check_cuda (cudaStreamSynchronize (stream[0]), "sync");
      if (!failed)
        failed |= check_cuda (
            gpu_image_download (&gout, &gpu[run], poison[run], stream[0]),
            "download");
    }
  gpu_image_free (&gin);
  gpu_image_free (&gout);
  return failed ? -1 : 0;
}
