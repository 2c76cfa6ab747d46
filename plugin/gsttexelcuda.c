/* gst-texel: the GPU memory strategies shared by every element.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelcuda.h"
#include "gsttexelhostmemory.h"

#include <string.h>
#include <stdlib.h>

#if HAVE_CUDA
#include <cuda_runtime_api.h>
#include "texel-cuda.h"

GST_DEBUG_CATEGORY_STATIC (gst_texel_cuda_debug);
#define GST_CAT_DEFAULT gst_texel_cuda_debug

#define TEXEL_MAX_BANDS 8
/* Device rows are padded to this; planes start at multiples of 512 so
 * every plane can back a texture (textureAlignment is 512 on current
 * GPUs; texturePitchAlignment 32). */
#define TEXEL_DEVICE_PITCH_ALIGN 256
#define TEXEL_DEVICE_PLANE_ALIGN 512

struct _GstTexelCuda
{
  gint device;
  gboolean zero_copy;
  gint async_engines;
  cudaStream_t streams[TEXEL_MAX_BANDS];
  cudaEvent_t uploaded[TEXEL_MAX_BANDS];
  cudaEvent_t band_done[TEXEL_MAX_BANDS];
  cudaEvent_t frame_done;       /* blocking: waiting on it does not spin */
  GstAllocator *allocator;

  gint bands;
  TexelImage dev_in, dev_out;   /* staged: frames on the device */
  void *dev_mem;
  TexelImage stage_in, stage_out;       /* pinned, mapped staging */
  void *stage_mem;
  TexelImage stage_in_dev, stage_out_dev;       /* their device view */

  GstTexelCudaStats stats;
};

/* A foreign GstMemory registered with cudaHostRegister, cached on the
 * memory itself and unregistered when the memory is freed. */
typedef struct
{
  gint device;
  guint seen;
  gboolean registered;
  gboolean failed;
  guint8 *host;
  gsize size;
  guint8 *device_ptr;
} TexelRegistration;

static GQuark texel_registration_quark;

const gchar *
gst_texel_cuda_error_string (int err)
{
  return cudaGetErrorString ((cudaError_t) err);
}

static void
texel_debug_init (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_texel_cuda_debug, "texelcuda", 0,
        "gst-texel CUDA memory strategies");
    texel_registration_quark =
        g_quark_from_static_string ("gst-texel-registration");
    g_once_init_leave (&once, 1);
  }
}

gint
gst_texel_cuda_detect (gint device_id, gpointer caps_out,
    const gchar ** reason, int *err)
{
  TexelCudaCaps *caps = caps_out;
  int count = 0;
  int ret;

  texel_debug_init ();
  *err = 0;
  ret = texel_cuda_device_count (&count);
  if (ret < 0 || count <= 0) {
    *err = ret < 0 ? -ret : 0;
    *reason = ret < 0 ? texel_cuda_error_string (-ret) : "no CUDA device";
    return 0;
  }
  if (device_id >= count) {
    *reason = "device-id is beyond the number of CUDA devices";
    return 0;
  }
  ret = texel_cuda_probe (device_id < 0 ? 0 : device_id, caps);
  if (ret != 0) {
    *err = ret;
    *reason = texel_cuda_error_string (ret);
    return 0;
  }
  return count;
}

/* Runs with @device current and puts back what the calling thread had: the
 * streaming thread belongs to the application. */
static int
texel_device_enter (gint device, int *prev)
{
  *prev = -1;
  if (cudaGetDevice (prev) != cudaSuccess)
    *prev = -1;
  return (int) cudaSetDevice (device);
}

static void
texel_device_leave (int prev)
{
  if (prev >= 0)
    cudaSetDevice (prev);
}

GstTexelCuda *
gst_texel_cuda_new (gint device, gboolean zero_copy, gboolean integrated,
    gint async_engines, int *err)
{
  GstTexelCuda *cuda = g_new0 (GstTexelCuda, 1);
  int prev, i;
  cudaError_t e;

  texel_debug_init ();
  cuda->device = device;
  cuda->zero_copy = zero_copy;
  cuda->async_engines = async_engines;
  cuda->bands = 1;
  *err = texel_device_enter (device, &prev);
  for (i = 0; *err == 0 && i < TEXEL_MAX_BANDS; i++) {
    e = cudaStreamCreateWithFlags (&cuda->streams[i], cudaStreamNonBlocking);
    if (e == cudaSuccess)
      e = cudaEventCreateWithFlags (&cuda->uploaded[i],
          cudaEventDisableTiming);
    if (e == cudaSuccess)
      e = cudaEventCreateWithFlags (&cuda->band_done[i],
          cudaEventDisableTiming);
    *err = (int) e;
  }
  if (*err == 0)
    *err = (int) cudaEventCreateWithFlags (&cuda->frame_done,
        cudaEventDisableTiming | cudaEventBlockingSync);
  texel_device_leave (prev);
  if (*err != 0) {
    gst_texel_cuda_free (cuda);
    return NULL;
  }
  cuda->allocator = gst_texel_host_allocator_new (device);
  return cuda;
}

static void
texel_free_frames (GstTexelCuda * cuda)
{
  if (cuda->dev_mem)
    cudaFree (cuda->dev_mem);
  if (cuda->stage_mem)
    cudaFreeHost (cuda->stage_mem);
  cuda->dev_mem = cuda->stage_mem = NULL;
}

void
gst_texel_cuda_free (GstTexelCuda * cuda)
{
  int prev, i;

  if (!cuda)
    return;
  texel_device_enter (cuda->device, &prev);
  texel_free_frames (cuda);
  for (i = 0; i < TEXEL_MAX_BANDS; i++) {
    if (cuda->streams[i])
      cudaStreamDestroy (cuda->streams[i]);
    if (cuda->uploaded[i])
      cudaEventDestroy (cuda->uploaded[i]);
    if (cuda->band_done[i])
      cudaEventDestroy (cuda->band_done[i]);
  }
  if (cuda->frame_done)
    cudaEventDestroy (cuda->frame_done);
  texel_device_leave (prev);
  if (cuda->allocator)
    gst_object_unref (cuda->allocator);
  g_free (cuda);
}

static size_t
texel_device_layout (TexelImage * img, TexelFormat format, gint w, gint h,
    guint8 * base)
{
  return texel_image_layout (img, format, w, h, TEXEL_DEVICE_PITCH_ALIGN,
      TEXEL_DEVICE_PLANE_ALIGN, base);
}

/* Device view of an image laid out in mapped host memory. */
static void
texel_image_rebase (TexelImage * dst, const TexelImage * src,
    const guint8 * from, guint8 * to)
{
  int p;

  *dst = *src;
  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    if (src->data[p])
      dst->data[p] = to + (src->data[p] - from);
}

static gint
texel_choose_bands (GstTexelCuda * cuda, gint out_height,
    gboolean bands_possible)
{
  const gchar *env = g_getenv ("GST_TEXEL_BANDS");

  if (cuda->zero_copy || !bands_possible || cuda->async_engines < 1)
    return 1;
  /* For measurements (docs/performance.md): force a band count. */
  if (env)
    return CLAMP (atoi (env), 1, TEXEL_MAX_BANDS);
  /* Enough bands for upload, kernel and download to overlap; small
   * frames are not worth the extra launches. */
  return out_height >= 480 ? 4 : 1;
}

int
gst_texel_cuda_configure (GstTexelCuda * cuda, TexelFormat in_format,
    gint in_width, gint in_height, TexelFormat out_format, gint out_width,
    gint out_height, gboolean bands_possible)
{
  size_t in_size, out_size, stage_in_size;
  guint8 *dev_base = NULL, *stage_base = NULL, *stage_dev = NULL;
  int prev, err;

  err = texel_device_enter (cuda->device, &prev);
  if (err)
    goto done;
  texel_free_frames (cuda);
  cuda->bands = texel_choose_bands (cuda, out_height, bands_possible);

  in_size = texel_device_layout (&cuda->dev_in, in_format, in_width,
      in_height, NULL);
  out_size = texel_device_layout (&cuda->dev_out, out_format, out_width,
      out_height, NULL);
  stage_in_size = GST_ROUND_UP_N (in_size, TEXEL_DEVICE_PLANE_ALIGN);

  /* Device frames only where frames are copied to the device. */
  if (!cuda->zero_copy) {
    err = cudaMalloc ((void **) &dev_base, stage_in_size + out_size);
    if (err)
      goto done;
    cuda->dev_mem = dev_base;
    texel_device_layout (&cuda->dev_in, in_format, in_width, in_height,
        dev_base);
    texel_device_layout (&cuda->dev_out, out_format, out_width, out_height,
        dev_base + stage_in_size);
  }
  /* Pinned, mapped staging for memory that is neither ours nor
   * registered: a DMA source in the staged path, read in place by the
   * kernel in the zero-copy path. */
  err = cudaHostAlloc ((void **) &stage_base, stage_in_size + out_size,
      cudaHostAllocMapped | cudaHostAllocPortable);
  if (err)
    goto done;
  cuda->stage_mem = stage_base;
  err = cudaHostGetDevicePointer ((void **) &stage_dev, stage_base, 0);
  if (err)
    goto done;
  texel_device_layout (&cuda->stage_in, in_format, in_width, in_height,
      stage_base);
  texel_device_layout (&cuda->stage_out, out_format, out_width, out_height,
      stage_base + stage_in_size);
  texel_image_rebase (&cuda->stage_in_dev, &cuda->stage_in, stage_base,
      stage_dev);
  texel_image_rebase (&cuda->stage_out_dev, &cuda->stage_out, stage_base,
      stage_dev);
  GST_INFO ("configured %s %dx%d -> %s %dx%d, %s, %d band(s)",
      texel_format_desc (in_format)->name, in_width, in_height,
      texel_format_desc (out_format)->name, out_width, out_height,
      cuda->zero_copy ? "zero-copy" : "staged", cuda->bands);
done:
  texel_device_leave (prev);
  return err;
}

static void
texel_registration_free (gpointer data)
{
  TexelRegistration *reg = data;
  int prev;

  if (reg->registered) {
    texel_device_enter (reg->device, &prev);
    cudaHostUnregister (reg->host);
    texel_device_leave (prev);
  }
  g_free (reg);
}

static void
texel_try_register (GstTexelCuda * cuda, TexelRegistration * reg,
    GstMapInfo * map)
{
  cudaError_t e;

  e = cudaHostRegister (map->data, map->size,
      cudaHostRegisterMapped | cudaHostRegisterPortable);
  if (e == cudaSuccess)
    e = cudaHostGetDevicePointer ((void **) &reg->device_ptr, map->data, 0);
  if (e != cudaSuccess) {
    /* Overlapping an existing registration, read-only pages, ...: not an
     * error, this memory is staged instead. Clear the error state. */
    GST_DEBUG ("cannot register %p (%" G_GSIZE_FORMAT " bytes): %s",
        map->data, map->size, cudaGetErrorString (e));
    cudaGetLastError ();
    reg->failed = TRUE;
    return;
  }
  reg->registered = TRUE;
  reg->host = map->data;
  reg->size = map->size;
  cuda->stats.registrations++;
}

/* Device address of a plane at @host in the memory of @map, or NULL when
 * that memory is not (yet) device-accessible. Foreign memory is registered
 * the second time it is seen: memory that comes back (a pool, a ring) is
 * worth it, a one-off buffer is cheaper to copy. */
static guint8 *
texel_plane_device_pointer (GstTexelCuda * cuda, GstMapInfo * map,
    const guint8 * host)
{
  GstMemory *mem = map->memory;
  TexelRegistration *reg;

  if (!mem)
    return NULL;
  if (gst_is_texel_host_memory (mem))
    return gst_texel_host_memory_device_pointer (mem, host);
  reg = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
      texel_registration_quark);
  if (!reg) {
    reg = g_new0 (TexelRegistration, 1);
    reg->device = cuda->device;
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem),
        texel_registration_quark, reg, texel_registration_free);
  }
  if (!reg->registered && !reg->failed && ++reg->seen >= 2)
    texel_try_register (cuda, reg, map);
  if (reg->registered && host >= reg->host && host < reg->host + reg->size)
    return reg->device_ptr + (host - reg->host);
  return NULL;
}

/* Device view of every plane of a mapped frame; FALSE if any plane is in
 * memory the device cannot reach. */
static gboolean
texel_frame_device_view (GstTexelCuda * cuda, GstVideoFrame * frame,
    const TexelImage * host, TexelImage * dev)
{
  const TexelFormatDesc *desc = texel_format_desc (host->format);
  int p;

  *dev = *host;
  for (p = 0; p < desc->n_planes; p++) {
    GstMapInfo *map = &frame->map[frame->meta ? p : 0];

    dev->data[p] = texel_plane_device_pointer (cuda, map, host->data[p]);
    if (!dev->data[p])
      return FALSE;
  }
  return TRUE;
}

static int
texel_plane_y_shift (const TexelFormatDesc * desc, int plane)
{
  int c, shift = 8;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (desc->comp[c].plane == plane)
      shift = MIN (shift, desc->comp[c].y_shift);
  return shift == 8 ? 0 : shift;
}

/* Rows of @plane that luma rows [row0, row1) cover. */
static void
texel_plane_rows (const TexelImage * img, int plane, int row0, int row1,
    int *first, int *count)
{
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  int shift = texel_plane_y_shift (desc, plane);
  int height = texel_plane_height (img->format, plane, img->height);
  int end = MIN (height, (row1 + (1 << shift) - 1) >> shift);

  *first = row0 >> shift;
  *count = MAX (0, end - *first);
}

/* Copies luma rows [row0, row1) of every plane: with the DMA engines on
 * @stream, or with memcpy when @stream is NULL (host to host). */
static int
texel_copy_rows (const TexelImage * dst, const TexelImage * src, int row0,
    int row1, enum cudaMemcpyKind kind, cudaStream_t stream, guint64 * bytes)
{
  const TexelFormatDesc *desc = texel_format_desc (src->format);
  int p, r;

  for (p = 0; p < desc->n_planes; p++) {
    int first, count;
    size_t width = texel_plane_row_bytes (src->format, p, src->width);
    guint8 *d;
    const guint8 *s;

    texel_plane_rows (src, p, row0, row1, &first, &count);
    if (count == 0)
      continue;
    d = dst->data[p] + (size_t) first * dst->stride[p];
    s = src->data[p] + (size_t) first * src->stride[p];
    *bytes += width * count;
    if (!stream) {
      for (r = 0; r < count; r++)
        memcpy (d + (size_t) r * dst->stride[p],
            s + (size_t) r * src->stride[p], width);
    } else {
      cudaError_t e = cudaMemcpy2DAsync (d, dst->stride[p], s, src->stride[p],
          width, count, kind, stream);
      if (e != cudaSuccess)
        return e;
    }
  }
  return 0;
}

/* Waits for all @n streams without spinning a CPU core. */
static int
texel_wait_streams (GstTexelCuda * cuda, int n)
{
  int i, err = 0;

  for (i = 1; i < n && !err; i++) {
    err = cudaEventRecord (cuda->band_done[i], cuda->streams[i]);
    if (!err)
      err = cudaStreamWaitEvent (cuda->streams[0], cuda->band_done[i], 0);
  }
  if (!err)
    err = cudaEventRecord (cuda->frame_done, cuda->streams[0]);
  if (!err)
    err = cudaEventSynchronize (cuda->frame_done);
  return err;
}

static int
texel_process_zero_copy (GstTexelCuda * cuda, const TexelImage * in_dev,
    const TexelImage * out_dev, GstTexelCudaRun run, gpointer user_data)
{
  int err = run (user_data, in_dev, out_dev, 0, out_dev->height,
      cuda->streams[0]);

  if (!err)
    err = texel_wait_streams (cuda, 1);
  return err;
}

/* Staged: band b uploads the input rows it needs that earlier bands did
 * not, runs its kernel and downloads its output rows, on stream b; the
 * uploads are chained by events, so band b's kernel overlaps band b+1's
 * upload and band b-1's download. */
static int
texel_process_staged (GstTexelCuda * cuda, const TexelImage * src,
    const TexelImage * dst, GstTexelCudaRun run,
    GstTexelCudaInputRows input_rows, gpointer user_data)
{
  int out_h = cuda->dev_out.height, in_h = cuda->dev_in.height;
  int step = GST_ROUND_UP_16 ((out_h + cuda->bands - 1) / cuda->bands);
  int uploaded = -1, b, used = 0, err = 0;

  for (b = 0; b < cuda->bands && b * step < out_h && !err; b++) {
    cudaStream_t s = cuda->streams[b];
    int r0 = b * step, r1 = MIN (out_h, r0 + step);
    int i0 = 0, i1 = in_h;

    if (cuda->bands > 1)
      input_rows (user_data, r0, r1, &i0, &i1);
    i0 = CLAMP (i0 & ~1, 0, in_h);
    i1 = CLAMP (GST_ROUND_UP_2 (i1), i0, in_h);
    if (uploaded < 0)
      uploaded = i0;
    if (b > 0)
      err = cudaStreamWaitEvent (s, cuda->uploaded[b - 1], 0);
    if (!err && i1 > uploaded) {
      err = texel_copy_rows (&cuda->dev_in, src, uploaded, i1,
          cudaMemcpyHostToDevice, s, &cuda->stats.bytes_to_device);
      uploaded = i1;
    }
    if (!err)
      err = cudaEventRecord (cuda->uploaded[b], s);
    if (!err)
      err = run (user_data, &cuda->dev_in, &cuda->dev_out, r0, r1, s);
    if (!err)
      err = texel_copy_rows (dst, &cuda->dev_out, r0, r1,
          cudaMemcpyDeviceToHost, s, &cuda->stats.bytes_to_host);
    used = b + 1;
  }
  if (!err)
    err = texel_wait_streams (cuda, used);
  return err;
}

int
gst_texel_cuda_process (GstTexelCuda * cuda, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame, const TexelImage * in_host,
    const TexelImage * out_host, GstTexelCudaRun run,
    GstTexelCudaInputRows input_rows, gpointer user_data)
{
  TexelImage in_view, out_view;
  const TexelImage *src = in_host, *dst = out_host;
  gboolean in_direct, out_direct;
  guint64 *copied = &cuda->stats.bytes_host_copied;
  int prev, err;

  err = texel_device_enter (cuda->device, &prev);
  if (err)
    goto done;
  in_direct = texel_frame_device_view (cuda, in_frame, in_host, &in_view);
  out_direct = texel_frame_device_view (cuda, out_frame, out_host, &out_view);
  /* Memory the device cannot reach goes through pinned staging. */
  if (!in_direct) {
    texel_copy_rows (&cuda->stage_in, in_host, 0, in_host->height,
        cudaMemcpyHostToHost, NULL, copied);
    src = &cuda->stage_in;
    in_view = cuda->stage_in_dev;
  }
  if (!out_direct) {
    dst = &cuda->stage_out;
    out_view = cuda->stage_out_dev;
  }

  if (cuda->zero_copy)
    err = texel_process_zero_copy (cuda, &in_view, &out_view, run, user_data);
  else
    err = texel_process_staged (cuda, src, dst, run, input_rows, user_data);

  if (!err && !out_direct)
    texel_copy_rows (out_host, &cuda->stage_out, 0, out_host->height,
        cudaMemcpyHostToHost, NULL, copied);
  if (!err)
    cuda->stats.frames++;
done:
  texel_device_leave (prev);
  return err;
}

GstAllocator *
gst_texel_cuda_get_allocator (GstTexelCuda * cuda)
{
  return cuda->allocator;
}

void
gst_texel_cuda_get_stats (GstTexelCuda * cuda, GstTexelCudaStats * stats)
{
  *stats = cuda->stats;
}

gint
gst_texel_cuda_get_bands (GstTexelCuda * cuda)
{
  return cuda->bands;
}

#endif /* HAVE_CUDA */
