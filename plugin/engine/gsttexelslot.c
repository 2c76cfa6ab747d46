/* gst-texel: slots, the GPU memory of a frame in flight: device frames
 * (staged), pinned mapped staging (memory the device cannot reach), their
 * layout; the row copies in and out of them, and how many bands a frame
 * is split into. Built only with CUDA (have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "engine/gsttexelslot.h"

#include <stdlib.h>
#include <string.h>

#define GST_CAT_DEFAULT gst_texel_cuda_debug

int
gst_texel_slot_init (TexelSlot *slot)
{
  int err;

  memset (slot, 0, sizeof (*slot));
  err = (int)cudaEventCreateWithFlags (
      &slot->done_blocking, cudaEventDisableTiming | cudaEventBlockingSync);
  if (err == 0)
    err = (int)cudaEventCreateWithFlags (&slot->done_polled,
                                         cudaEventDisableTiming);
  return err;
}

void
gst_texel_slot_release (TexelSlot *slot)
{
  if (slot->dev_in_mem)
    cudaFree (slot->dev_in_mem);
  if (slot->dev_out_mem)
    cudaFree (slot->dev_out_mem);
  if (slot->stage_mem)
    cudaFreeHost (slot->stage_mem);
  slot->dev_in_mem = slot->dev_out_mem = slot->stage_mem = NULL;
}

void
gst_texel_slot_clear (TexelSlot *slot)
{
  gst_texel_slot_release (slot);
  if (slot->done_blocking)
    cudaEventDestroy (slot->done_blocking);
  if (slot->done_polled)
    cudaEventDestroy (slot->done_polled);
  slot->done_blocking = slot->done_polled = NULL;
}

static size_t
texel_device_layout (TexelImage *img, TexelFormat format, gint w, gint h,
                     guint8 *base)
{
  return texel_image_layout (img, format, w, h, TEXEL_DEVICE_PITCH_ALIGN,
                             TEXEL_DEVICE_PLANE_ALIGN, base);
}

/* Device view of an image laid out in mapped host memory. */
static void
texel_image_rebase (TexelImage *dst, const TexelImage *src, const guint8 *from,
                    guint8 *to)
{
  int p;

  *dst = *src;
  for (p = 0; p < TEXEL_MAX_PLANES; p++)
    if (src->data[p])
      dst->data[p] = to + (src->data[p] - from);
}

gint
gst_texel_slot_choose_bands (gboolean zero_copy, gint async_engines,
                             gint out_height, gboolean bands_possible,
                             gint in_flight)
{
  const gchar *env = g_getenv ("GST_TEXEL_BANDS");

  if (zero_copy || !bands_possible || async_engines < 1)
    return 1;
  /* For measurements (docs/performance.md): force a band count. */
  if (env)
    return CLAMP (atoi (env), 1, TEXEL_MAX_BANDS);
  /* With frames in flight, a frame's upload already overlaps the kernels
   * and downloads of the frames before it, and bands only add copies,
   * launches and events: one band was faster in every case measured
   * (docs/bench/runs-55-59.md). Without (a live source, for latency),
   * bands overlap upload, kernel and download within the frame; small
   * frames are not worth the extra launches. */
  if (in_flight > 0)
    return 1;
  return out_height >= 480 ? 4 : 1;
}

/* Pinned, mapped staging for memory that is neither ours nor registered:
 * a DMA source in the staged path, read in place by the kernel in the
 * zero-copy path. Allocated the first time a slot needs it. */
int
gst_texel_slot_staging (TexelSlot *slot, const TexelSlotLayout *l)
{
  size_t in_size, out_size;
  guint8 *base = NULL, *dev = NULL;
  int err;

  if (slot->stage_mem)
    return 0;
  in_size
      = GST_ROUND_UP_N (texel_device_layout (&slot->stage_in, l->in_format,
                                             l->in_width, l->in_height, NULL),
                        TEXEL_DEVICE_PLANE_ALIGN);
  out_size = texel_device_layout (&slot->stage_out, l->out_format, l->out_width,
                                  l->out_height, NULL);
  err = TEXEL_FAULTY (
      TEXEL_FAULT_HOST_ALLOC,
      cudaHostAlloc ((void **)&base, in_size + out_size,
                     cudaHostAllocMapped | cudaHostAllocPortable));
  if (err)
    return err;
  slot->stage_mem = base;
  err = cudaHostGetDevicePointer ((void **)&dev, base, 0);
  if (err)
    return err;
  texel_device_layout (&slot->stage_in, l->in_format, l->in_width, l->in_height,
                       base);
  texel_device_layout (&slot->stage_out, l->out_format, l->out_width,
                       l->out_height, base + in_size);
  texel_image_rebase (&slot->stage_in_dev, &slot->stage_in, base, dev);
  texel_image_rebase (&slot->stage_out_dev, &slot->stage_out, base, dev);
  return 0;
}

/* A device frame of @format, or the one already there. */
static int
texel_device_frame (TexelImage *img, void **mem, TexelFormat format, gint width,
                    gint height)
{
  guint8 *base = NULL;
  int err;

  if (*mem)
    return 0;
  err = TEXEL_FAULTY (
      TEXEL_FAULT_DEVICE_ALLOC,
      cudaMalloc ((void **)&base,
                  texel_device_layout (img, format, width, height, NULL)));
  if (err)
    return err;
  *mem = base;
  texel_device_layout (img, format, width, height, base);
  return 0;
}

/* Staged: the device frames that frames in host memory are copied to and
 * from; a side whose frames are already on the device needs none. */
int
gst_texel_slot_device_frames (TexelSlot *slot, const TexelSlotLayout *l,
                              GstTexelFrameMemory memory)
{
  int err = 0;

  if (!(memory & GST_TEXEL_IN_DEVICE))
    err = texel_device_frame (&slot->dev_in, &slot->dev_in_mem, l->in_format,
                              l->in_width, l->in_height);
  if (!err && !(memory & GST_TEXEL_OUT_DEVICE))
    err = texel_device_frame (&slot->dev_out, &slot->dev_out_mem, l->out_format,
                              l->out_width, l->out_height);
  return err;
}

static int
texel_plane_y_shift (const TexelFormatDesc *desc, int plane)
{
  int c, shift = 8;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (desc->comp[c].plane == plane)
      shift = MIN (shift, desc->comp[c].y_shift);
  return shift == 8 ? 0 : shift;
}

/* Rows of @plane that luma rows [row0, row1) cover. */
static void
texel_plane_rows (const TexelImage *img, int plane, int row0, int row1,
                  int *first, int *count)
{
  const TexelFormatDesc *desc = texel_format_desc (img->format);
  int shift = texel_plane_y_shift (desc, plane);
  int height = texel_plane_height (img->format, plane, img->height);
  int end = MIN (height, (row1 + (1 << shift) - 1) >> shift);

  *first = row0 >> shift;
  *count = MAX (0, end - *first);
}

int
gst_texel_copy_rows (const TexelImage *dst, const TexelImage *src, int row0,
                     int row1, enum cudaMemcpyKind kind, cudaStream_t stream,
                     guint64 *bytes)
{
  const TexelFormatDesc *desc = texel_format_desc (src->format);
  int p, r;

  for (p = 0; p < desc->n_planes; p++)
    {
      int first, count;
      size_t width = texel_plane_row_bytes (src->format, p, src->width);
      guint8 *d;
      const guint8 *s;

      texel_plane_rows (src, p, row0, row1, &first, &count);
      if (count == 0)
        continue;
      d = dst->data[p] + (size_t)first * dst->stride[p];
      s = src->data[p] + (size_t)first * src->stride[p];
      *bytes += width * count;
      if (!stream)
        {
          for (r = 0; r < count; r++)
            memcpy (d + (size_t)r * dst->stride[p],
                    s + (size_t)r * src->stride[p], width);
        }
      else
        {
          cudaError_t e = TEXEL_FAULTY (
              TEXEL_FAULT_COPY,
              cudaMemcpy2DAsync (d, dst->stride[p], s, src->stride[p], width,
                                 count, kind, stream));
          if (e != cudaSuccess)
            return e;
        }
    }
  return 0;
}
