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
#include "texel-fault.h"
#if HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_texel_cuda_debug);
#define GST_CAT_DEFAULT gst_texel_cuda_debug

#define TEXEL_MAX_BANDS 8
/* Frames that may be in flight at once, plus the one being submitted. */
#define TEXEL_MAX_SLOTS 4
/* Frames found complete in a row before completion events that are
 * cheaper to record but spin when waited on (texel_record_done). */
#define TEXEL_POLLED_AFTER 8
/* Device rows are padded to this; planes start at multiples of 512 so
 * every plane can back a texture (textureAlignment is 512 on current
 * GPUs; texturePitchAlignment 32). */
#define TEXEL_DEVICE_PITCH_ALIGN 256
#define TEXEL_DEVICE_PLANE_ALIGN 512

/* The buffers of one frame in flight. Frames alternate between slots, so
 * frame N+1 uploads into other buffers than those frame N still reads. */
typedef struct
{
  TexelImage dev_in, dev_out;   /* staged: frames on the device */
  void *dev_in_mem, *dev_out_mem;       /* allocated where a side needs them */
  TexelImage stage_in, stage_out;       /* pinned, mapped staging */
  TexelImage stage_in_dev, stage_out_dev;       /* their device view */
  void *stage_mem;              /* allocated when first needed */
  /* The frame's completion, recorded as one of two events: waiting on
   * @done_blocking sleeps, but recording it costs the host ~1.5 us more
   * than recording @done_polled (measured on the H100 host), whose wait
   * spins. @done: the one recorded (texel_record_done chooses). */
  cudaEvent_t done_blocking, done_polled;
  cudaEvent_t done;
  guint64 seq;                  /* submission number */
  gboolean chained;             /* ran on the chain stream (no copies) */
  gboolean busy;
  gboolean out_direct;          /* else copied out of stage_out at finish */
  TexelImage out_host;
} TexelSlot;

struct _GstTexelCuda
{
  gint device;
  GstCudaContext *context;      /* NULL: the device's primary context */
  gboolean zero_copy;
  gint async_engines;
  cudaStream_t streams[TEXEL_MAX_BANDS];
  cudaEvent_t uploaded[TEXEL_MAX_BANDS];
  cudaEvent_t band_done[TEXEL_MAX_BANDS];
  GstAllocator *allocator;

  gint bands;
  /* Frames found complete when finished, in a row: past
   * TEXEL_POLLED_AFTER the GPU keeps up with the host, and the cheaper
   * event serves (a late frame is then waited for by spinning briefly). */
  gint complete_streak;
  gint n_slots;
  gint next_slot;
  /* Frames without copies run in submission order on one stream, the
   * chain (texel_slot_stream): one of them found complete says the
   * same of the earlier ones. @seq: frames submitted; @chain_complete: the
   * chain's frames up to this number are known complete; @chain_last,
   * @chain_prev: the slots of the last two chain frames submitted. */
  guint64 seq, chain_complete;
  gint chain_last, chain_prev;
  /* The same count for the element's converter (texel-cuda.h): the frame
   * being submitted, and the frames finished in order. */
  TexelCudaFence fence;
  TexelSlot slots[TEXEL_MAX_SLOTS];
  /* Layout of the current formats, for lazily allocated staging. */
  TexelFormat in_format, out_format;
  gint in_width, in_height, out_width, out_height;

  GstTexelCudaStats stats;
};

/* A foreign GstMemory registered with cudaHostRegister, cached on the
 * memory itself and unregistered when the memory is freed. */
typedef struct
{
  gint device;
  GstCudaContext *context;      /* where it was registered */
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

/* What gst_texel_cuda_context_leave undoes: nothing, a pushed
 * GstCudaContext, or else the device to make current again. */
#define TEXEL_UNDO_NOTHING -1
#define TEXEL_UNDO_POP -2

/* The streaming thread belongs to the application: whatever it had
 * current is put back. The runtime API works in the driver context that is
 * current on the thread, so a pushed GstCudaContext is where our streams,
 * buffers, textures and kernels go; cudaSetDevice would replace it by the
 * primary context, so it is only called when another device is current. */
int
gst_texel_cuda_context_enter (GstCudaContext * context, gint device,
    int *undo)
{
  int current = -1;

  *undo = TEXEL_UNDO_NOTHING;
#if HAVE_GST_CUDA
  if (context) {
    if (!gst_cuda_context_push (context))
      return (int) cudaErrorDeviceUninitialized;   /* no context bound */
    *undo = TEXEL_UNDO_POP;
    return 0;
  }
#endif
  if (cudaGetDevice (&current) == cudaSuccess && current == device)
    return 0;
  *undo = current;
  return (int) cudaSetDevice (device);
}

void
gst_texel_cuda_context_leave (GstCudaContext * context, int undo)
{
#if HAVE_GST_CUDA
  if (undo == TEXEL_UNDO_POP) {
    gst_cuda_context_pop (NULL);
    return;
  }
#endif
  if (undo >= 0)
    cudaSetDevice (undo);
}

/* Makes the element's CUDA context (the shared GstCudaContext, else its
 * device) current on the calling thread; *@undo says how to leave it. */
static int
texel_cuda_enter_context (GstTexelCuda * cuda, int *undo)
{
  return gst_texel_cuda_context_enter (cuda->context, cuda->device, undo);
}

static void
texel_cuda_leave_context (GstTexelCuda * cuda, int undo)
{
  gst_texel_cuda_context_leave (cuda->context, undo);
}

GstTexelCuda *
gst_texel_cuda_new (gint device, GstCudaContext * context,
    gboolean zero_copy, gboolean integrated, gint async_engines, int *err)
{
  GstTexelCuda *cuda = g_new0 (GstTexelCuda, 1);
  int prev, i;
  cudaError_t e;

  texel_debug_init ();
  cuda->device = device;
  cuda->context = context ? gst_object_ref (context) : NULL;
  cuda->zero_copy = zero_copy;
  cuda->async_engines = async_engines;
  cuda->bands = 1;
  cuda->fence.current = G_MAXUINT64;
  *err = texel_cuda_enter_context (cuda, &prev);
  for (i = 0; *err == 0 && i < TEXEL_MAX_BANDS; i++) {
    e = TEXEL_FAULTY (TEXEL_FAULT_STREAM,
        cudaStreamCreateWithFlags (&cuda->streams[i], cudaStreamNonBlocking));
    if (e == cudaSuccess)
      e = cudaEventCreateWithFlags (&cuda->uploaded[i],
          cudaEventDisableTiming);
    if (e == cudaSuccess)
      e = cudaEventCreateWithFlags (&cuda->band_done[i],
          cudaEventDisableTiming);
    *err = (int) e;
  }
  for (i = 0; *err == 0 && i < TEXEL_MAX_SLOTS; i++) {
    *err = (int) cudaEventCreateWithFlags (&cuda->slots[i].done_blocking,
        cudaEventDisableTiming | cudaEventBlockingSync);
    if (*err == 0)
      *err = (int) cudaEventCreateWithFlags (&cuda->slots[i].done_polled,
          cudaEventDisableTiming);
  }
  texel_cuda_leave_context (cuda, prev);
  if (*err != 0) {
    gst_texel_cuda_free (cuda);
    return NULL;
  }
  cuda->allocator = gst_texel_host_allocator_new (device, context);
  return cuda;
}

static void
texel_free_frames (GstTexelCuda * cuda)
{
  int i;

  for (i = 0; i < TEXEL_MAX_SLOTS; i++) {
    TexelSlot *slot = &cuda->slots[i];

    if (slot->busy)
      cudaEventSynchronize (slot->done);
    if (slot->dev_in_mem)
      cudaFree (slot->dev_in_mem);
    if (slot->dev_out_mem)
      cudaFree (slot->dev_out_mem);
    if (slot->stage_mem)
      cudaFreeHost (slot->stage_mem);
    slot->dev_in_mem = slot->dev_out_mem = slot->stage_mem = NULL;
    slot->busy = FALSE;
  }
}

void
gst_texel_cuda_free (GstTexelCuda * cuda)
{
  int prev, i;

  if (!cuda)
    return;
  texel_cuda_enter_context (cuda, &prev);
  texel_free_frames (cuda);
  for (i = 0; i < TEXEL_MAX_BANDS; i++) {
    if (cuda->streams[i])
      cudaStreamDestroy (cuda->streams[i]);
    if (cuda->uploaded[i])
      cudaEventDestroy (cuda->uploaded[i]);
    if (cuda->band_done[i])
      cudaEventDestroy (cuda->band_done[i]);
  }
  for (i = 0; i < TEXEL_MAX_SLOTS; i++) {
    if (cuda->slots[i].done_blocking)
      cudaEventDestroy (cuda->slots[i].done_blocking);
    if (cuda->slots[i].done_polled)
      cudaEventDestroy (cuda->slots[i].done_polled);
  }
  texel_cuda_leave_context (cuda, prev);
  if (cuda->allocator)
    gst_object_unref (cuda->allocator);
  if (cuda->context)
    gst_object_unref (cuda->context);
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

/* Pinned, mapped staging for memory that is neither ours nor registered:
 * a DMA source in the staged path, read in place by the kernel in the
 * zero-copy path. Allocated the first time a slot needs it. */
static int
texel_slot_staging (GstTexelCuda * cuda, TexelSlot * slot)
{
  size_t in_size, out_size;
  guint8 *base = NULL, *dev = NULL;
  int err;

  if (slot->stage_mem)
    return 0;
  in_size = GST_ROUND_UP_N (texel_device_layout (&slot->stage_in,
          cuda->in_format, cuda->in_width, cuda->in_height, NULL),
      TEXEL_DEVICE_PLANE_ALIGN);
  out_size = texel_device_layout (&slot->stage_out, cuda->out_format,
      cuda->out_width, cuda->out_height, NULL);
  err = TEXEL_FAULTY (TEXEL_FAULT_HOST_ALLOC, cudaHostAlloc ((void **) &base,
          in_size + out_size, cudaHostAllocMapped | cudaHostAllocPortable));
  if (err)
    return err;
  slot->stage_mem = base;
  err = cudaHostGetDevicePointer ((void **) &dev, base, 0);
  if (err)
    return err;
  texel_device_layout (&slot->stage_in, cuda->in_format, cuda->in_width,
      cuda->in_height, base);
  texel_device_layout (&slot->stage_out, cuda->out_format, cuda->out_width,
      cuda->out_height, base + in_size);
  texel_image_rebase (&slot->stage_in_dev, &slot->stage_in, base, dev);
  texel_image_rebase (&slot->stage_out_dev, &slot->stage_out, base, dev);
  return 0;
}

/* A device frame of @format, or the one already there. */
static int
texel_device_frame (TexelImage * img, void **mem, TexelFormat format,
    gint width, gint height)
{
  guint8 *base = NULL;
  int err;

  if (*mem)
    return 0;
  err = TEXEL_FAULTY (TEXEL_FAULT_DEVICE_ALLOC, cudaMalloc ((void **) &base,
          texel_device_layout (img, format, width, height, NULL)));
  if (err)
    return err;
  *mem = base;
  texel_device_layout (img, format, width, height, base);
  return 0;
}

/* Staged: the device frames that frames in host memory are copied to and
 * from; a side whose frames are already on the device needs none. */
static int
texel_slot_device_frames (GstTexelCuda * cuda, TexelSlot * slot,
    GstTexelFrameMemory memory)
{
  int err = 0;

  if (!(memory & GST_TEXEL_IN_DEVICE))
    err = texel_device_frame (&slot->dev_in, &slot->dev_in_mem,
        cuda->in_format, cuda->in_width, cuda->in_height);
  if (!err && !(memory & GST_TEXEL_OUT_DEVICE))
    err = texel_device_frame (&slot->dev_out, &slot->dev_out_mem,
        cuda->out_format, cuda->out_width, cuda->out_height);
  return err;
}

int
gst_texel_cuda_configure (GstTexelCuda * cuda, TexelFormat in_format,
    gint in_width, gint in_height, TexelFormat out_format, gint out_width,
    gint out_height, GstTexelFrameMemory memory, gboolean bands_possible,
    gint in_flight)
{
  int prev, err, i;

  err = texel_cuda_enter_context (cuda, &prev);
  if (err)
    goto done;
  texel_free_frames (cuda);
  cuda->chain_last = cuda->chain_prev = -1;
  cuda->bands = texel_choose_bands (cuda, out_height, bands_possible);
  cuda->n_slots = CLAMP (in_flight + 1, 1, TEXEL_MAX_SLOTS);
  cuda->next_slot = 0;
  cuda->in_format = in_format;
  cuda->out_format = out_format;
  cuda->in_width = in_width;
  cuda->in_height = in_height;
  cuda->out_width = out_width;
  cuda->out_height = out_height;
  for (i = 0; i < cuda->n_slots && !cuda->zero_copy && !err; i++)
    err = texel_slot_device_frames (cuda, &cuda->slots[i], memory);
  GST_INFO ("configured %s %dx%d (%s) -> %s %dx%d (%s), %s, %d band(s), %d "
      "frame(s) in flight", texel_format_desc (in_format)->name, in_width,
      in_height, memory & GST_TEXEL_IN_DEVICE ? "device" : "host",
      texel_format_desc (out_format)->name, out_width, out_height,
      memory & GST_TEXEL_OUT_DEVICE ? "device" : "host",
      cuda->zero_copy ? "zero-copy" : "staged", cuda->bands,
      cuda->n_slots - 1);
done:
  texel_cuda_leave_context (cuda, prev);
  return err;
}

static void
texel_registration_free (gpointer data)
{
  TexelRegistration *reg = data;
  int prev;

  if (reg->registered) {
    gst_texel_cuda_context_enter (reg->context, reg->device, &prev);
    cudaHostUnregister (reg->host);
    gst_texel_cuda_context_leave (reg->context, prev);
  }
  /* The registration belongs to the context: it lives until here. */
  if (reg->context)
    gst_object_unref (reg->context);
  g_free (reg);
}

static void
texel_try_register (GstTexelCuda * cuda, TexelRegistration * reg,
    GstMapInfo * map)
{
  cudaError_t e;

  e = TEXEL_FAULTY (TEXEL_FAULT_REGISTER, cudaHostRegister (map->data,
          map->size, cudaHostRegisterMapped | cudaHostRegisterPortable));
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
  reg->context = cuda->context ? gst_object_ref (cuda->context) : NULL;
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
      cudaError_t e = TEXEL_FAULTY (TEXEL_FAULT_COPY,
          cudaMemcpy2DAsync (d, dst->stride[p], s, src->stride[p], width,
              count, kind, stream));
      if (e != cudaSuccess)
        return e;
    }
  }
  return 0;
}

/* The stream of band @band of the frame in @slot. A frame with copies
 * (staged) uses streams of its slot's own (as far as there are streams),
 * so that its upload overlaps the previous frame's kernel and download
 * even where it is not split into bands: in one stream they would run one
 * after the other. A frame without copies (@chained: CUDA memory in and
 * out, or zero-copy) has nothing to overlap but its kernels, which follow
 * one another on the GPU anyway: it runs on the chain, stream 0, after the
 * chain's earlier frames (texel_slot_complete relies on that). */
static cudaStream_t
texel_slot_stream (GstTexelCuda * cuda, TexelSlot * slot, int band,
    gboolean chained)
{
  int first = (int) (slot - cuda->slots) * cuda->bands;

  return cuda->streams[chained ? 0 : (first + band) % TEXEL_MAX_BANDS];
}

/* Joins the @n band streams of a frame into the slot's completion event
 * and numbers the frame. Where the GPU has kept up, the frame will most
 * likely be complete when it is finished: no need to pay for an event
 * whose wait sleeps. */
static int
texel_record_done (GstTexelCuda * cuda, TexelSlot * slot, int n,
    gboolean chained)
{
  cudaStream_t first = texel_slot_stream (cuda, slot, 0, chained);
  int i, err = 0;

  for (i = 1; i < n && !err; i++) {
    err = cudaEventRecord (cuda->band_done[i],
        texel_slot_stream (cuda, slot, i, chained));
    if (!err)
      err = cudaStreamWaitEvent (first, cuda->band_done[i], 0);
  }
  slot->done = cuda->complete_streak >= TEXEL_POLLED_AFTER ?
      slot->done_polled : slot->done_blocking;
  if (!err)
    err = cudaEventRecord (slot->done, first);
  slot->seq = ++cuda->seq;
  slot->chained = chained;
  if (!err && chained) {
    cuda->chain_prev = cuda->chain_last;
    cuda->chain_last = (int) (slot - cuda->slots);
  }
  return err;
}

/* After a failure part-way through a frame, the bands already queued may
 * still be copying into memory the caller is about to release. */
static void
texel_drain_streams (GstTexelCuda * cuda)
{
  int i;

  for (i = 0; i < TEXEL_MAX_BANDS; i++)
    cudaStreamSynchronize (cuda->streams[i]);
  cudaGetLastError ();
  cuda->fence.complete = cuda->seq;
}

static int
texel_process_zero_copy (GstTexelCuda * cuda, TexelSlot * slot,
    const TexelImage * in_dev, const TexelImage * out_dev, GstTexelCudaRun run,
    gpointer user_data)
{
  int err = run (user_data, in_dev, out_dev, 0, out_dev->height,
      texel_slot_stream (cuda, slot, 0, TRUE));

  if (!err)
    err = texel_record_done (cuda, slot, 1, TRUE);
  return err;
}

/* Staged: band b uploads the input rows it needs that earlier bands did
 * not, runs its kernel and downloads its output rows, on its stream; the
 * uploads are chained by events, so band b's kernel overlaps band b+1's
 * upload and band b-1's download. A frame already on the device (@memory)
 * is read or written by the kernel in place: that side has no copy. */
static int
texel_process_staged (GstTexelCuda * cuda, TexelSlot * slot,
    const TexelImage * src, const TexelImage * dst,
    GstTexelFrameMemory memory, GstTexelCudaRun run,
    GstTexelCudaInputRows input_rows, gpointer user_data)
{
  gboolean in_device = (memory & GST_TEXEL_IN_DEVICE) != 0;
  gboolean out_device = (memory & GST_TEXEL_OUT_DEVICE) != 0;
  const TexelImage *kernel_in = in_device ? src : &slot->dev_in;
  const TexelImage *kernel_out = out_device ? dst : &slot->dev_out;
  /* Bands only overlap copies with kernels. */
  gboolean chained = in_device && out_device;
  int bands = chained ? 1 : cuda->bands;
  int out_h = dst->height, in_h = src->height;
  int step = GST_ROUND_UP_16 ((out_h + bands - 1) / bands);
  int n = (out_h + step - 1) / step;    /* bands that have rows */
  int uploaded = -1, b, err = 0;

  for (b = 0; b < n && !err; b++) {
    cudaStream_t s = texel_slot_stream (cuda, slot, b, chained);
    int r0 = b * step, r1 = MIN (out_h, r0 + step);
    int i0 = 0, i1 = in_h;

    if (n > 1)
      input_rows (user_data, r0, r1, &i0, &i1);
    i0 = CLAMP (i0 & ~1, 0, in_h);
    i1 = CLAMP (GST_ROUND_UP_2 (i1), i0, in_h);
    if (uploaded < 0)
      uploaded = i0;
    if (b > 0)
      err = cudaStreamWaitEvent (s, cuda->uploaded[b - 1], 0);
    if (!err && !in_device && i1 > uploaded) {
      err = texel_copy_rows (&slot->dev_in, src, uploaded, i1,
          cudaMemcpyHostToDevice, s, &cuda->stats.bytes_to_device);
      uploaded = i1;
    }
    /* The next band's stream waits for this band's upload; a lone band
     * spares the record. */
    if (!err && b + 1 < n)
      err = cudaEventRecord (cuda->uploaded[b], s);
    if (!err)
      err = run (user_data, kernel_in, kernel_out, r0, r1, s);
    if (!err && !out_device)
      err = texel_copy_rows (dst, &slot->dev_out, r0, r1,
          cudaMemcpyDeviceToHost, s, &cuda->stats.bytes_to_host);
  }
  if (!err)
    err = texel_record_done (cuda, slot, n, chained);
  return err;
}

/* Device address of every plane of a mapped frame: in place for a frame
 * already on the device, else through texel_frame_device_view. */
static gboolean
texel_frame_view (GstTexelCuda * cuda, GstVideoFrame * frame,
    const TexelImage * img, gboolean on_device, TexelImage * view)
{
  if (on_device) {
    *view = *img;
    return TRUE;
  }
  return texel_frame_device_view (cuda, frame, img, view);
}

int
gst_texel_cuda_submit (GstTexelCuda * cuda, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame, const TexelImage * in, const TexelImage * out,
    GstTexelFrameMemory memory, GstTexelCudaRun run,
    GstTexelCudaInputRows input_rows, gpointer user_data, gint * slot_index)
{
  TexelSlot *slot = &cuda->slots[cuda->next_slot];
  TexelImage in_view, out_view;
  const TexelImage *src = in, *dst = out;
  gboolean in_device = (memory & GST_TEXEL_IN_DEVICE) != 0;
  gboolean out_device = (memory & GST_TEXEL_OUT_DEVICE) != 0;
  gboolean in_direct;
  int prev, err;

  *slot_index = cuda->next_slot;
  /* The caller finishes frames in order, so the slot is normally free. */
  if (slot->busy && (err = gst_texel_cuda_finish (cuda, *slot_index)))
    return err;
  err = texel_cuda_enter_context (cuda, &prev);
  if (err)
    goto done;
  cuda->fence.current = cuda->seq + 1;  /* texel_record_done's number */
  in_direct = texel_frame_view (cuda, in_frame, in, in_device, &in_view);
  slot->out_direct = texel_frame_view (cuda, out_frame, out, out_device,
      &out_view);
  slot->out_host = *out;
  /* Memory the device cannot reach goes through pinned staging. */
  if ((!in_direct || !slot->out_direct)
      && (err = texel_slot_staging (cuda, slot)))
    goto done;
  if (!in_direct) {
    texel_copy_rows (&slot->stage_in, in, 0, in->height,
        cudaMemcpyHostToHost, NULL, &cuda->stats.bytes_host_copied);
    src = &slot->stage_in;
    in_view = slot->stage_in_dev;
  }
  if (!slot->out_direct) {
    dst = &slot->stage_out;
    out_view = slot->stage_out_dev;
  }

  if (cuda->zero_copy) {
    err = texel_process_zero_copy (cuda, slot, &in_view, &out_view, run,
        user_data);
  } else {
    /* Device frames for a side the caps did not announce in host memory
     * (CUDA memory of a context we cannot reach, mapped on the host). */
    err = texel_slot_device_frames (cuda, slot, memory);
    if (!err)
      err = texel_process_staged (cuda, slot, in_device ? &in_view : src,
          out_device ? &out_view : dst, memory, run, input_rows, user_data);
  }
  if (!err) {
    slot->busy = TRUE;
    cuda->next_slot = (cuda->next_slot + 1) % cuda->n_slots;
  } else {
    texel_drain_streams (cuda);
  }
done:
  cuda->fence.current = G_MAXUINT64;
  texel_cuda_leave_context (cuda, prev);
  return err;
}

/* Whether the frame in @slot is on the chain and a later query found it,
 * or a younger frame of the chain, complete: no CUDA call needed. */
static gboolean
texel_slot_known_complete (GstTexelCuda * cuda, TexelSlot * slot)
{
  return slot->chained && slot->seq <= cuda->chain_complete;
}

/* Whether the frame in @slot is complete, from its event or, for a frame
 * of the chain, from what is known of the chain. Each query costs the
 * host 1.4-1.8 us on the H100 machine (a micro-benchmark: the same for an
 * event or a stream), so with frames in flight a chain frame asks first
 * about the chain's last-but-one frame, submitted a frame period before
 * the newest: found complete, it settles the frames before it too, and
 * their finish asks nothing. */
static gboolean
texel_slot_complete (GstTexelCuda * cuda, TexelSlot * slot, cudaError_t * err)
{
  gint probe = cuda->chain_prev;
  TexelSlot *younger = probe >= 0 ? &cuda->slots[probe] : NULL;

  *err = cudaSuccess;
  if (texel_slot_known_complete (cuda, slot))
    return TRUE;
  if (slot->chained && younger && younger != slot && younger->busy
      && younger->chained && younger->seq > slot->seq
      && cudaEventQuery (younger->done) == cudaSuccess) {
    cuda->chain_complete = younger->seq;
    return TRUE;
  }
  *err = cudaEventQuery (slot->done);
  if (*err != cudaSuccess)
    return FALSE;
  if (slot->chained)
    cuda->chain_complete = MAX (cuda->chain_complete, slot->seq);
  return TRUE;
}

/* Waits for the frame in @slot. With frames in flight, the oldest frame
 * is usually complete by the time it is finished, and a query says so in
 * less host time than a blocking wait on a completed event. Counts the
 * frames found complete (texel_record_done). */
static int
texel_slot_wait (GstTexelCuda * cuda, TexelSlot * slot)
{
  cudaError_t err;

  if (texel_slot_complete (cuda, slot, &err)) {
    if (cuda->complete_streak < TEXEL_POLLED_AFTER)
      cuda->complete_streak++;
    return 0;
  }
  cuda->complete_streak = 0;
  if (err == cudaErrorNotReady)
    err = cudaEventSynchronize (slot->done);
  return (int) err;
}

int
gst_texel_cuda_finish (GstTexelCuda * cuda, gint slot_index)
{
  TexelSlot *slot = &cuda->slots[slot_index];
  gboolean known = texel_slot_known_complete (cuda, slot);
  int prev, err;

  if (!slot->busy)
    return 0;
  slot->busy = FALSE;
  /* In the element's context: a runtime call on a thread without a current
   * context would make the device's primary context current, creating it
   * where the element works in the pipeline's GstCudaContext. The wait
   * happens even if that fails: the frame's memory must not be released
   * while the GPU still uses it (and an injected failure comes after). A
   * frame known complete needs no CUDA call. */
  if (!known)
    texel_cuda_enter_context (cuda, &prev);
  err = texel_slot_wait (cuda, slot);
  if (!known)
    texel_cuda_leave_context (cuda, prev);
  if (!err)
    err = texel_fault_hit (TEXEL_FAULT_SYNC);
  /* Frames are finished in order: all before this one are complete. */
  if (!err && slot->seq == cuda->fence.complete + 1)
    cuda->fence.complete = slot->seq;
  if (!err && !slot->out_direct)
    texel_copy_rows (&slot->out_host, &slot->stage_out, 0,
        slot->out_host.height, cudaMemcpyHostToHost, NULL,
        &cuda->stats.bytes_host_copied);
  if (!err)
    cuda->stats.frames++;
  return err;
}

int
gst_texel_cuda_process (GstTexelCuda * cuda, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame, const TexelImage * in, const TexelImage * out,
    GstTexelFrameMemory memory, GstTexelCudaRun run,
    GstTexelCudaInputRows input_rows, gpointer user_data)
{
  gint slot;
  int err = gst_texel_cuda_submit (cuda, in_frame, out_frame, in, out,
      memory, run, input_rows, user_data, &slot);

  return err ? err : gst_texel_cuda_finish (cuda, slot);
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

const TexelCudaFence *
gst_texel_cuda_get_fence (GstTexelCuda * cuda)
{
  return &cuda->fence;
}

#endif /* HAVE_CUDA */
