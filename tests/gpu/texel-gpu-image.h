/* gst-texel: what the GPU tests share (tests/gpu/test-*-gpu.c).
 *
 * Plain C (no GLib, no GStreamer), like the tests. Random frames from a
 * seeded generator; images in host memory in a layout any device's
 * textures accept; the same images on the GPU in three memory modes;
 * poisoning, so that a test can tell which bytes a kernel wrote; and the
 * comparison of two runs of a CPU output with two runs of a GPU output.
 * Every copy and memset here returns with its stream idle: tests launch
 * bands on other streams right after them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_GPU_IMAGE_H
#define TEXEL_GPU_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "texel-image.h"

#define SKIP_EXIT_CODE 77
#define POISON_A 0x5a
#define POISON_B 0xa5
/* Host images: rows and planes aligned so that a mapped copy with the
 * same layout meets any device's texture alignment (512 on an H100). */
#define HOST_STRIDE_ALIGN 64
#define HOST_PLANE_ALIGN 4096

/* ------------------------------------------------------------------ */
/* Options and set-up */

typedef struct
{
  int quick;     /* --quick */
  int tiny;      /* --tiny, where the test takes it */
  uint64_t seed; /* --seed N; else the time */
} GpuTestOptions;

/* Reads --quick, --seed N and (@takes_tiny) --tiny; prints the device
 * and the seed and seeds rng_next (). Returns -1 where there is no
 * usable GPU (the test exits SKIP_EXIT_CODE). */
int gpu_test_begin (int argc, char **argv, int takes_tiny,
                    GpuTestOptions *opts);

/* cudaSetDevice (0) and @n non-blocking streams; -1 (reported) on error. */
int gpu_test_streams_create (cudaStream_t *streams, int n);
void gpu_test_streams_destroy (cudaStream_t *streams, int n);

/* 0 for cudaSuccess; else reports "  @what: name (text)" on stderr and
 * returns -1. */
int check_cuda (cudaError_t err, const char *what);
/* A contract check: a call that must be refused returned @err. Counts it
 * in @passed, or prints "FAIL: @what was accepted" and counts it in
 * @failed. */
void expect_refused (int err, const char *what, int *passed, int *failed);

/* xorshift64*, seeded by gpu_test_begin (printed, so a failure can be
 * replayed with --seed). */
uint64_t rng_next (void);

/* ------------------------------------------------------------------ */
/* Images in host memory */

typedef struct
{
  TexelImage img;
  uint8_t *mem;
  size_t size;
} HostImage;

int host_image_init (HostImage *h, TexelFormat format, int width, int height);
void host_image_clear (HostImage *h);
/* Random bytes; P010 gets valid words only (10 bits << 6, low bits 0, as
 * every producer writes them: textures would filter the low bits, the CPU
 * drops them). */
void host_image_randomize (HostImage *h);
/* One case's images: a random input @in (@in_format, @in_w x @in_h),
 * two CPU outputs @cpu (poisoned with POISON_A and POISON_B) and two GPU
 * outputs @gpu (@out_format, @out_w x @out_h). -1 where out of memory. */
int case_images_init (HostImage *in, HostImage cpu[2], HostImage gpu[2],
                      TexelFormat in_format, int in_w, int in_h,
                      TexelFormat out_format, int out_w, int out_h);
void case_images_clear (HostImage *in, HostImage cpu[2], HostImage gpu[2]);
int plane_rows (const TexelImage *img, int p);
/* The first byte of component @c's sample (@x, @y), in its own grid. */
uint8_t *host_sample (const HostImage *h, int c, int x, int y);

/* ------------------------------------------------------------------ */
/* Images the GPU reads and writes */

typedef enum
{
  MEMORY_DEVICE,     /* cudaMallocPitch, cudaMemcpy2DAsync */
  MEMORY_MAPPED,     /* cudaHostAllocMapped, zero-copy */
  MEMORY_MISALIGNED, /* device, odd addresses and pitches */
  MEMORY_MODES
} MemoryMode;

extern const char *const memory_names[MEMORY_MODES];
/* TexelMethod's names. */
extern const char *const method_names[3];

typedef struct
{
  MemoryMode mode;
  TexelImage dev; /* device-accessible addresses */
  size_t row_bytes[TEXEL_MAX_PLANES];
  void *plane_mem[TEXEL_MAX_PLANES]; /* device: one allocation a plane */
  void *mem; /* one block: mapped, packed or misaligned */
  size_t size;
} GpuImage;

/* An image shaped like @shape in @mode. Device: one pitched allocation a
 * plane, as wide as the host stride. Mapped: the host layout, in mapped
 * host memory. Misaligned: pitch = row bytes + @misalign (never a
 * multiple of the texture pitch alignment, 32 on current GPUs) and planes
 * starting @misalign bytes past an aligned address. */
cudaError_t gpu_image_alloc (GpuImage *g, MemoryMode mode,
                             const HostImage *shape, int misalign);
/* Device memory in @shape's own layout (one block, HOST_PLANE_ALIGN
 * aligned: cudaMalloc promises only 256, textures on an H100 need 512). */
cudaError_t gpu_image_alloc_packed (GpuImage *g, const HostImage *shape);
/* The same, every plane @shift bytes further: with @shift not a multiple
 * of the texture alignment, planes whose address alone cannot back a
 * texture (pitches stay multiples of HOST_STRIDE_ALIGN), as an NVMM
 * surface's planes at pitch * height offsets. */
cudaError_t gpu_image_alloc_shifted (GpuImage *g, const HostImage *shape,
                                     int shift);
void gpu_image_free (GpuImage *g);
cudaError_t gpu_image_upload (GpuImage *g, const HostImage *h,
                              cudaStream_t stream);
cudaError_t gpu_image_poison (GpuImage *g, int byte, cudaStream_t stream);
/* Fills @h (poisoned with @byte first, for what is not copied) with the
 * GPU image. */
cudaError_t gpu_image_download (const GpuImage *g, HostImage *h, int byte,
                                cudaStream_t stream);

/* ------------------------------------------------------------------ */
/* Comparison */

typedef struct
{
  long samples, over0, over1, over2; /* samples off by > 0, 1, 2 */
  int max_error;
  /* Where max_error was seen first. */
  int worst_comp, worst_x, worst_y;
  unsigned worst_cpu, worst_gpu;
  int unwritten;   /* bytes the CPU wrote, the GPU did not */
  int stray;       /* bytes the GPU wrote, the CPU did not */
  int bad_padding; /* written non-component bytes that differ */
} Comparison;

/* Calls @f for every sample of every component of @h: the component,
 * (@x, @y) in its own grid and the sample's offset into @h->mem. */
typedef void (*SampleFunc) (void *data, int c, int x, int y, size_t at);
void for_each_sample (const HostImage *h, SampleFunc f, void *data);

unsigned read_code (const TexelFormatDesc *desc, const uint8_t *p);

/* @cpu and @gpu hold two runs each (poisons A and B) of one output:
 * samples both CPU runs wrote alike are compared, code by code. */
void compare_outputs (const HostImage cpu[2], const HostImage gpu[2],
                      Comparison *cmp);
/* Adds the bytes one side wrote and the other did not to @unwritten and
 * @stray, and (where @is_sample is given) the written non-sample bytes
 * that differ to @bad_padding. */
void compare_written (const HostImage cpu[2], const HostImage gpu[2],
                      const uint8_t *is_sample, int *unwritten, int *stray,
                      int *bad_padding);

/* "FAIL @label: max error ... padding bytes differ" for @cmp. */
void comparison_print_failure (const char *label, const Comparison *cmp);

/* "worst [raw-]method: E codes (bound of that case B)", textured first
 * ([1]: through textures, [0]: plain loads). */
void print_worst_by_method (int worst[2][3], int bound[2][3]);

/* Comparisons summed (per setting, over formats and modes). */
typedef struct
{
  long samples, over0, over1;
  int max_error;
} Tally;

void tally_add (Tally *t, const Comparison *cmp);
void tally_add_tally (Tally *t, const Tally *u);
/* "@label max error E code(s); of N samples n (p %) off by 1, m by
 * more@suffix" */
void tally_print (const char *label, const Tally *t, const char *suffix);
/* "@what: max error E code(s); of N samples n off by 1, m by more" */
void tally_print_total (const char *what, const Tally *t);

/* ------------------------------------------------------------------ */
/* Two GPU runs of one kernel */

/* Runs the kernel on output rows [@row0, @row1) on @stream. */
typedef cudaError_t (*GpuLaunch) (void *data, const TexelImage *in,
                                  const TexelImage *out, int row0, int row1,
                                  cudaStream_t stream);

/* Runs @launch on @in into @gpu twice (poisons A and B), in @mode; with
 * @bands, as two bands of @rows (the second from an even row) on the two
 * streams. Errors are reported with @what ("@what band 0", ...). */
int gpu_run_twice (cudaStream_t stream[2], GpuLaunch launch, void *data,
                   const char *what, const HostImage *in, HostImage gpu[2],
                   MemoryMode mode, int in_misalign, int rows, int bands);

#endif
