/* gst-texel: how fast frames can cross between host and device here.
 *
 * Measures in one run, with CUDA events on non-blocking streams, as the
 * median of repeats: pinned host->device and device->host copies, both
 * directions at once, pageable copies, a device->device copy, a kernel
 * reading and one writing mapped pinned host memory (zero-copy), and the
 * cost of cudaHostRegister. Then prints the frame rates these rates allow
 * for the cases of texel-bench --matrix: a conversion that moves its input
 * up and its output down cannot beat them.
 *
 * Exits 77 (skipped) where there is no GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-clock.h"
#include "bench-cuda-check.h"

#define MIB ((size_t)1 << 20)
#define REGISTER_BYTES (32 * MIB)
#define WARMUPS 3
#define REPEATS 21
#define THREADS_PER_BLOCK 256
#define EXIT_SKIP 77

/* Buffer sizes: a frame's order of magnitude, and one large enough that
 * per-copy overheads vanish. Frame bounds use the first, closest to the
 * 3 to 12 MB that frames weigh. */
static const size_t sizes[] = { 16 * MIB, 64 * MIB };

#define N_SIZES (sizeof (sizes) / sizeof (sizes[0]))
#define MAX_BYTES (64 * MIB)

typedef struct
{
  cudaStream_t stream, other_stream; /* both non-blocking */
  cudaEvent_t start, stop, other_done;
  size_t bytes;                      /* buffer size of the operation timed */
  unsigned char *host_in, *host_out; /* pinned and mapped */
  unsigned char *host_in_mapped, *host_out_mapped; /* their device view */
  unsigned char *pageable_in, *pageable_out;
  unsigned char *dev_a, *dev_b;
  uint4 *sums; /* one per thread of the reading kernel */
  int blocks;
} Bench;

typedef void (*BenchEnqueue) (const Bench *b);

/* Kernels: one 16-byte word per thread and step, enough threads that
 * thousands of PCIe reads are in flight. */

/* Reads mapped host memory; each thread's XOR is stored so that the reads
 * cannot be optimised away. */
__global__ void
read_words (const uint4 *__restrict__ src, size_t count,
            uint4 *__restrict__ sums)
{
  size_t thread = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  uint4 acc = make_uint4 (0, 0, 0, 0);

  for (size_t i = thread; i < count; i += stride)
    {
      uint4 word = src[i];

      acc.x ^= word.x;
      acc.y ^= word.y;
      acc.z ^= word.z;
      acc.w ^= word.w;
    }
  sums[thread] = acc;
}

__global__ void
write_words (uint4 *__restrict__ dst, size_t count)
{
  size_t thread = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;

  for (size_t i = thread; i < count; i += stride)
    {
      uint32_t n = (uint32_t)i;

      dst[i] = make_uint4 (n, ~n, n * 2654435761u, n ^ 0x5bd1e995u);
    }
}

/* What is timed. Each enqueues one operation of b->bytes. */

static void
enqueue_h2d (const Bench *b)
{
  CHECK (cudaMemcpyAsync (b->dev_a, b->host_in, b->bytes,
                          cudaMemcpyHostToDevice, b->stream));
}

static void
enqueue_d2h (const Bench *b)
{
  CHECK (cudaMemcpyAsync (b->host_out, b->dev_b, b->bytes,
                          cudaMemcpyDeviceToHost, b->stream));
}

/* Up on one stream, down on the other, joined back. The start event,
 * already recorded on b->stream, also starts the other stream. */
static void
enqueue_both (const Bench *b)
{
  CHECK (cudaStreamWaitEvent (b->other_stream, b->start, 0));
  CHECK (cudaMemcpyAsync (b->dev_a, b->host_in, b->bytes,
                          cudaMemcpyHostToDevice, b->stream));
  CHECK (cudaMemcpyAsync (b->host_out, b->dev_b, b->bytes,
                          cudaMemcpyDeviceToHost, b->other_stream));
  CHECK (cudaEventRecord (b->other_done, b->other_stream));
  CHECK (cudaStreamWaitEvent (b->stream, b->other_done, 0));
}

/* From pageable memory the driver stages through its own pinned buffers,
 * partly on the CPU before the copy is queued: these are timed on the host
 * clock, to completion. */
static void
copy_pageable_h2d (const Bench *b)
{
  CHECK (cudaMemcpyAsync (b->dev_a, b->pageable_in, b->bytes,
                          cudaMemcpyHostToDevice, b->stream));
  CHECK (cudaStreamSynchronize (b->stream));
}

static void
copy_pageable_d2h (const Bench *b)
{
  CHECK (cudaMemcpyAsync (b->pageable_out, b->dev_b, b->bytes,
                          cudaMemcpyDeviceToHost, b->stream));
  CHECK (cudaStreamSynchronize (b->stream));
}

static void
enqueue_d2d (const Bench *b)
{
  CHECK (cudaMemcpyAsync (b->dev_b, b->dev_a, b->bytes,
                          cudaMemcpyDeviceToDevice, b->stream));
}

static void
enqueue_mapped_read (const Bench *b)
{
  read_words<<<b->blocks, THREADS_PER_BLOCK, 0, b->stream>>> (
      (const uint4 *)b->host_in_mapped, b->bytes / sizeof (uint4), b->sums);
  CHECK (cudaGetLastError ());
}

static void
enqueue_mapped_write (const Bench *b)
{
  write_words<<<b->blocks, THREADS_PER_BLOCK, 0, b->stream>>> (
      (uint4 *)b->host_out_mapped, b->bytes / sizeof (uint4));
  CHECK (cudaGetLastError ());
}

typedef enum
{
  OP_H2D,
  OP_D2H,
  OP_BOTH,
  OP_H2D_PAGEABLE,
  OP_D2H_PAGEABLE,
  OP_D2D,
  OP_MAPPED_READ,
  OP_MAPPED_WRITE,
  N_OPS
} OpId;

typedef struct
{
  const char *what;
  BenchEnqueue run;
  int host_clock;     /* run waits itself; time it on the host */
  int bytes_per_byte; /* bytes moved per byte of buffer */
} Op;

/* In OpId order. */
static const Op ops[N_OPS] = {
  { "H2D, pinned", enqueue_h2d, 0, 1 },
  { "D2H, pinned", enqueue_d2h, 0, 1 },
  { "H2D + D2H at once, pinned, two streams (sum)", enqueue_both, 0, 2 },
  { "H2D, pageable (malloc)", copy_pageable_h2d, 1, 1 },
  { "D2H, pageable (malloc)", copy_pageable_d2h, 1, 1 },
  { "D2D (read + write counted)", enqueue_d2d, 0, 2 },
  { "kernel reads mapped pinned host memory (zero-copy)", enqueue_mapped_read,
    0, 1 },
  { "kernel writes mapped pinned host memory (zero-copy)", enqueue_mapped_write,
    0, 1 },
};

/* Timing. */

static double
host_now_ms (void)
{
  return bench_now_us () / 1e3;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
median (double *samples, int n)
{
  qsort (samples, n, sizeof (double), compare_doubles);
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

static double
time_one_ms (const Bench *b, const Op *op)
{
  float ms;

  if (op->host_clock)
    {
      double start = host_now_ms ();

      op->run (b);
      return host_now_ms () - start;
    }
  CHECK (cudaEventRecord (b->start, b->stream));
  op->run (b);
  CHECK (cudaEventRecord (b->stop, b->stream));
  CHECK (cudaEventSynchronize (b->stop));
  CHECK (cudaEventElapsedTime (&ms, b->start, b->stop));
  return ms;
}

/* Median time of @op on buffers of @bytes, after warm-up runs. */
static double
time_op_ms (Bench *b, const Op *op, size_t bytes)
{
  double samples[REPEATS];
  int i;

  b->bytes = bytes;
  for (i = 0; i < WARMUPS; i++)
    time_one_ms (b, op);
  for (i = 0; i < REPEATS; i++)
    samples[i] = time_one_ms (b, op);
  return median (samples, REPEATS);
}

/* Median times of pinning (and unpinning) a malloc'd buffer, as an element
 * does with foreign memory it sees recur. Mapped, as zero-copy needs. */
static void
time_registration (double *register_ms, double *unregister_ms)
{
  double registering[REPEATS], unregistering[REPEATS];
  void *buffer = malloc (REGISTER_BYTES);
  int i;

  if (!buffer)
    {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
  /* Fault the pages in first: that is malloc's cost, not the pinning's. */
  memset (buffer, 0x5a, REGISTER_BYTES);
  for (i = 0; i < WARMUPS + REPEATS; i++)
    {
      double start = host_now_ms (), registered, unregistered;

      CHECK (cudaHostRegister (buffer, REGISTER_BYTES, cudaHostRegisterMapped));
      registered = host_now_ms ();
      CHECK (cudaHostUnregister (buffer));
      unregistered = host_now_ms ();
      if (i >= WARMUPS)
        {
          registering[i - WARMUPS] = registered - start;
          unregistering[i - WARMUPS] = unregistered - registered;
        }
    }
  free (buffer);
  *register_ms = median (registering, REPEATS);
  *unregister_ms = median (unregistering, REPEATS);
}

/* Set-up. */

static void
fill_noise (unsigned char *data, size_t size, uint64_t seed)
{
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  size_t i;

  for (i = 0; i < size; i += sizeof (state))
    {
      state ^= state >> 12;
      state ^= state << 25;
      state ^= state >> 27;
      memcpy (data + i, &state, sizeof (state));
    }
}

static unsigned char *
pageable_new (size_t bytes, uint64_t seed)
{
  unsigned char *buffer = (unsigned char *)malloc (bytes);

  if (!buffer)
    {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
  fill_noise (buffer, bytes, seed);
  return buffer;
}

static void
bench_init (Bench *b, int sm_count)
{
  memset (b, 0, sizeof (*b));
  CHECK (cudaStreamCreateWithFlags (&b->stream, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&b->other_stream, cudaStreamNonBlocking));
  CHECK (cudaEventCreate (&b->start));
  CHECK (cudaEventCreate (&b->stop));
  CHECK (cudaEventCreateWithFlags (&b->other_done, cudaEventDisableTiming));

  CHECK (cudaHostAlloc ((void **)&b->host_in, MAX_BYTES, cudaHostAllocMapped));
  CHECK (cudaHostAlloc ((void **)&b->host_out, MAX_BYTES, cudaHostAllocMapped));
  CHECK (cudaHostGetDevicePointer ((void **)&b->host_in_mapped, b->host_in, 0));
  CHECK (
      cudaHostGetDevicePointer ((void **)&b->host_out_mapped, b->host_out, 0));
  fill_noise (b->host_in, MAX_BYTES, 1);
  fill_noise (b->host_out, MAX_BYTES, 2);
  b->pageable_in = pageable_new (MAX_BYTES, 3);
  b->pageable_out = pageable_new (MAX_BYTES, 4);

  CHECK (cudaMalloc ((void **)&b->dev_a, MAX_BYTES));
  CHECK (cudaMalloc ((void **)&b->dev_b, MAX_BYTES));
  CHECK (cudaMemcpy (b->dev_a, b->host_in, MAX_BYTES, cudaMemcpyHostToDevice));
  CHECK (cudaMemcpy (b->dev_b, b->host_out, MAX_BYTES, cudaMemcpyHostToDevice));

  /* A full chip: 2048 resident threads on each multiprocessor. */
  b->blocks = sm_count * (2048 / THREADS_PER_BLOCK);
  CHECK (cudaMalloc ((void **)&b->sums,
                     (size_t)b->blocks * THREADS_PER_BLOCK * sizeof (uint4)));
}

static void
bench_free (Bench *b)
{
  CHECK (cudaFree (b->sums));
  CHECK (cudaFree (b->dev_b));
  CHECK (cudaFree (b->dev_a));
  free (b->pageable_out);
  free (b->pageable_in);
  CHECK (cudaFreeHost (b->host_out));
  CHECK (cudaFreeHost (b->host_in));
  CHECK (cudaEventDestroy (b->other_done));
  CHECK (cudaEventDestroy (b->stop));
  CHECK (cudaEventDestroy (b->start));
  CHECK (cudaStreamDestroy (b->other_stream));
  CHECK (cudaStreamDestroy (b->stream));
}

/* Output. */

static int
print_device (int device)
{
  cudaDeviceProp prop;
  char bus_id[32];
  int sm_count, engines, integrated, driver, runtime;

  CHECK (cudaGetDeviceProperties (&prop, device));
  CHECK (cudaDeviceGetAttribute (&sm_count, cudaDevAttrMultiProcessorCount,
                                 device));
  CHECK (
      cudaDeviceGetAttribute (&engines, cudaDevAttrAsyncEngineCount, device));
  CHECK (cudaDeviceGetAttribute (&integrated, cudaDevAttrIntegrated, device));
  CHECK (cudaDeviceGetPCIBusId (bus_id, sizeof (bus_id), device));
  CHECK (cudaDriverGetVersion (&driver));
  CHECK (cudaRuntimeGetVersion (&runtime));
  printf ("## Host <-> device bandwidth\n\n");
  printf ("Device %d: %s, compute capability %d.%d, %d SMs, %s, PCI %s, "
          "%d copy engines; driver %d, runtime %d.\n",
          device, prop.name, prop.major, prop.minor, sm_count,
          integrated ? "integrated" : "discrete", bus_id, engines, driver,
          runtime);
  printf ("Median of %d runs after %d warm-up runs; GB/s = 1e9 bytes/s.\n\n",
          REPEATS, WARMUPS);
  return sm_count;
}

static void
print_row (const char *what, const char *size, double ms, double gbps)
{
  if (gbps > 0)
    printf ("| %s | %s | %.3f ms | %.1f GB/s |\n", what, size, ms, gbps);
  else
    printf ("| %s | %s | %.3f ms | - |\n", what, size, ms);
}

/* Measures every operation at every size; @rates gets GB/s. */
static void
measure_and_print (Bench *b, double rates[N_OPS][N_SIZES])
{
  double register_ms, unregister_ms;
  char size[32];
  int op;
  size_t s;

  printf ("| transfer | buffer | median time | rate |\n");
  printf ("|---|---:|---:|---:|\n");
  for (op = 0; op < N_OPS; op++)
    {
      for (s = 0; s < N_SIZES; s++)
        {
          double ms = time_op_ms (b, &ops[op], sizes[s]);
          double moved = (double)sizes[s] * ops[op].bytes_per_byte;

          rates[op][s] = moved / (ms * 1e-3) / 1e9;
          snprintf (size, sizeof (size), "%zu MiB", sizes[s] / MIB);
          print_row (ops[op].what, size, ms, rates[op][s]);
        }
    }
  time_registration (&register_ms, &unregister_ms);
  snprintf (size, sizeof (size), "%zu MiB", REGISTER_BYTES / MIB);
  print_row ("cudaHostRegister of malloc'd memory (mapped), per call", size,
             register_ms, 0);
  print_row ("cudaHostUnregister, per call", size, unregister_ms, 0);
  printf ("\n");
}

typedef struct
{
  const char *name;
  double in_bytes, out_bytes;
} FrameCase;

static const FrameCase frame_cases[] = {
  { "NV12 3840x2160 -> RGBA 1280x720", 12441600, 3686400 },
  { "NV12 1920x1080 -> RGBA 1280x720", 3110400, 3686400 },
  { "NV12 3840x2160 -> NV12 1920x1080", 12441600, 3110400 },
  { "NV12 1920x1080 -> NV12 1920x1080", 3110400, 3110400 },
};

static double
max3 (double a, double b, double c)
{
  double m = a > b ? a : b;

  return m > c ? m : c;
}

/* Frames/s that the link allows each case, from the 16 MiB rates. Up and
 * down overlap on separate copy engines, but the link may not carry both
 * at full rate: "shared" also bounds their sum by the both-at-once rate,
 * and so does zero-copy, whose kernel reads and writes at once. */
static void
print_bounds (double rates[N_OPS][N_SIZES])
{
  double h2d = rates[OP_H2D][0] * 1e9, d2h = rates[OP_D2H][0] * 1e9;
  double both = rates[OP_BOTH][0] * 1e9;
  double mapped_read = rates[OP_MAPPED_READ][0] * 1e9;
  double mapped_write = rates[OP_MAPPED_WRITE][0] * 1e9;
  size_t i;

  printf ("## Frame rate bounds from these rates (frames/s)\n\n");
  printf ("From the %zu MiB rates. overlapped: max(in/H2D, out/D2H); shared: "
          "also (in+out)/both-at-once; zero-copy: max(in/read, out/write, "
          "(in+out)/both-at-once).\n\n",
          sizes[0] / MIB);
  printf ("| case | bytes in | bytes out | H2D alone | D2H alone | "
          "overlapped | overlapped, shared link | zero-copy kernel |\n");
  printf ("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < sizeof (frame_cases) / sizeof (frame_cases[0]); i++)
    {
      const FrameCase *c = &frame_cases[i];
      double up = c->in_bytes / h2d, down = c->out_bytes / d2h;
      double sum = (c->in_bytes + c->out_bytes) / both;
      double zero_copy
          = max3 (c->in_bytes / mapped_read, c->out_bytes / mapped_write, sum);

      printf ("| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n",
              c->name, c->in_bytes, c->out_bytes, 1 / up, 1 / down,
              1 / (up > down ? up : down), 1 / max3 (up, down, sum),
              1 / zero_copy);
    }
  printf ("\n");
}

int
main (void)
{
  double rates[N_OPS][N_SIZES];
  cudaError_t err;
  int count = 0, sm_count;
  Bench bench;

  err = cudaGetDeviceCount (&count);
  if (err != cudaSuccess || count == 0)
    {
      printf ("texel-bandwidth: no CUDA device (%s): skipped\n",
              err != cudaSuccess ? cudaGetErrorString (err) : "none found");
      return EXIT_SKIP;
    }
  CHECK (cudaSetDevice (0));
  sm_count = print_device (0);
  bench_init (&bench, sm_count);
  measure_and_print (&bench, rates);
  print_bounds (rates);
  bench_free (&bench);
  return 0;
}
