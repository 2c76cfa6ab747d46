/* gst-texel: a slot, the GPU memory of one frame in flight (device
 * frames, pinned staging), row copies, the band count (gsttexelslot.c).
 * Built only with CUDA (have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_SLOT_H__
#define __GST_TEXEL_SLOT_H__

#include "device/gsttexelcuda-private.h"

G_BEGIN_DECLS

#define TEXEL_MAX_BANDS 8
/* Frames that may be in flight at once, plus the one being submitted. */
#define TEXEL_MAX_SLOTS 4
/* Device rows are padded to this; planes start at multiples of 512 so
 * every plane can back a texture (textureAlignment is 512 on current
 * GPUs; texturePitchAlignment 32). */
#define TEXEL_DEVICE_PITCH_ALIGN 256
#define TEXEL_DEVICE_PLANE_ALIGN 512

/* The formats and sizes of the frames being processed: set by configure,
 * read by submit (streaming thread). */
typedef struct
{
  TexelFormat in_format, out_format;
  gint in_width, in_height, out_width, out_height;
} TexelSlotLayout;

/* The GPU memory of one frame in flight. Frames alternate between slots,
 * so frame N+1 uploads into other buffers than those frame N still reads.
 * Owned by the frame record of GstTexelInFlight that holds it (streaming
 * thread); buffers are allocated by configure or when first needed and
 * freed by configure and free, never while the frame is in flight. */
typedef struct
{
  TexelImage dev_in, dev_out;     /* staged: frames on the device */
  void *dev_in_mem, *dev_out_mem; /* allocated where a side needs them */
  TexelImage stage_in, stage_out; /* pinned, mapped staging */
  TexelImage stage_in_dev, stage_out_dev; /* their device view */
  void *stage_mem;                        /* allocated when first needed */
  /* The frame's completion, recorded as one of two events: waiting on
   * @done_blocking sleeps, but recording it costs the host more than
   * recording @done_polled (docs/bench/runs-08-13.md), whose wait
   * spins. Created by gst_texel_slot_init, for the slot's lifetime. */
  cudaEvent_t done_blocking, done_polled;
} TexelSlot;

/* gsttexelslot.c; every call in the element's context. */
int gst_texel_slot_init (TexelSlot *slot);
/* Frees the slot's buffers (not its events). */
void gst_texel_slot_release (TexelSlot *slot);
/* Frees the buffers and destroys the events. */
void gst_texel_slot_clear (TexelSlot *slot);
/* Pinned, mapped staging for memory that is neither ours nor registered. */
int gst_texel_slot_staging (TexelSlot *slot, const TexelSlotLayout *layout);
/* Staged: the device frames of the sides in host memory. */
int gst_texel_slot_device_frames (TexelSlot *slot,
                                  const TexelSlotLayout *layout,
                                  GstTexelFrameMemory memory);
/* Bands a staged frame of @out_height rows is split into, with
 * @in_flight frames in flight. */
gint gst_texel_slot_choose_bands (gboolean zero_copy, gint async_engines,
                                  gint out_height, gboolean bands_possible,
                                  gint in_flight);
/* Copies luma rows [row0, row1) of every plane: with the DMA engines on
 * @stream, or with memcpy when @stream is NULL (host to host); adds the
 * bytes to *@bytes. */
int gst_texel_copy_rows (const TexelImage *dst, const TexelImage *src, int row0,
                         int row1, enum cudaMemcpyKind kind,
                         cudaStream_t stream, guint64 *bytes);

/* gsttexelregistration.c: device view of every plane of a mapped host
 * frame (our pinned memory, or foreign memory registered in @context of
 * @device once seen twice; *@registrations counts the new ones). FALSE
 * if a plane is in memory the device cannot reach. */
G_END_DECLS
#endif
