/* gst-texel: texeladjust's instance, shared by gsttexeladjust.c and its
 * GPU path, gsttexeladjust-cuda.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_ADJUST_PRIVATE_H__
#define __GST_TEXEL_ADJUST_PRIVATE_H__

#include "elements/gsttexeladjust.h"
#include "texel-adjust.h"
#include "texel-adjust-fast.h"
#include "texel-cube.h"

G_BEGIN_DECLS

struct _GstTexelAdjust
{
  GstTexelBase parent;

  /* properties, under the object lock (settings' colorimetry and cube
   * unused: the colorimetry comes from the caps, the table is read from
   * lut_file into cube below) */
  TexelAdjustConfig settings;
  gchar *lut_file;     /* NULL: none */
  gboolean lut_reload; /* lut_file set: read it before a frame */

  /* streaming thread (and READY -> PAUSED, when it is not running) */
  TexelAdjustPlan plan;
  /* The fast CPU path's tables for plan (plan.fast points at them unless
   * GST_TEXEL_CPU=reference), rebuilt with it in prepare; on the heap
   * (140 KB: more than an instance may hold), for the element's life. */
  TexelAdjustFast *fast;
  TexelCube *cube; /* lut_file's table */
  gboolean warned_transfer;
  /* GPU path: the cube on the GPU (NULL in CPU-only builds), which
   * plan.lut3d points to. Replaced only in prepare and freed in
   * close_cuda: GstTexelBase runs both with no frame in flight. */
  TexelCudaLut3d *gpu_lut;
  const TexelCube *gpu_lut_cube;
};

#if HAVE_CUDA
/* Installs the GPU path's close_cuda (the 3D LUT's release). */
void gst_texel_adjust_class_init_cuda (GstTexelBaseClass *klass);
/* From prepare, after the plan: on the GPU path, the plan's 3D LUT on the
 * GPU (uploaded once per table) in plan.lut3d. FALSE, after posting an
 * error, where it cannot be. */
gboolean gst_texel_adjust_prepare_cuda (GstTexelAdjust *self);
#else
/* A CPU-only build's elements run on the CPU: no GPU path to install and
 * nothing to upload. */
static inline void
gst_texel_adjust_class_init_cuda (GstTexelBaseClass *klass)
{
}

static inline gboolean
gst_texel_adjust_prepare_cuda (GstTexelAdjust *self)
{
  return TRUE;
}
#endif

G_END_DECLS
#endif
