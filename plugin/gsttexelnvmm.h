/* gst-texel: GstTexelBase and NVIDIA's memory:NVMM (NvBufSurface) frames,
 * as Jetson's and DeepStream's elements exchange them. One unit of the
 * base class, next to system memory, the texel host pool and CUDA memory
 * (gsttexelcudamemory.c): libnvbufsurface loaded at run time, the NVMM
 * caps, NvBufSurfaces mapped to the element's view of a frame in place,
 * and pools of NvBufSurfaces for NVMM output.
 *
 * Built with the CUDA kernels only: NVMM surfaces are GPU memory. Without
 * them (-Dcuda=disabled) the fallbacks below leave every pad without NVMM
 * caps.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_NVMM_H__
#define __GST_TEXEL_NVMM_H__

#include "gsttexelbase.h"

G_BEGIN_DECLS

/* How gst_texel_nvmm_map_frame went. */
typedef enum
{
  GST_TEXEL_NVMM_NOT_NVMM = 0, /* not an NVMM frame: mapped elsewhere */
  GST_TEXEL_NVMM_MAPPED,
  GST_TEXEL_NVMM_FAILED /* refused, its error posted */
} GstTexelNvmmMap;

#if HAVE_CUDA
/* Whether libnvbufsurface could be loaded (once, on first use); @status
 * says from where, or why not. */
gboolean gst_texel_nvmm_available (const gchar **status);
/* Whether negotiated (fixed) @caps put frames in NVMM. */
gboolean gst_texel_caps_nvmm (GstCaps *caps);
/* Whether @self offers and accepts NVMM caps: where libnvbufsurface is
 * loaded, on the GPU path of a discrete GPU (DeepStream's CUDA-memory
 * surfaces) working in the device's primary context, where
 * libnvbufsurface allocates (before start: unless bound to the CPU). Not
 * on the CPU path nor on an integrated GPU (a Jetson's elements hand
 * surface arrays, which are not read yet: offering NVMM there would turn
 * today's working nvvidconv ! texel... pipelines into refused ones), nor
 * in a GstCudaContext of GStreamer's CUDA library (a context of its own,
 * whose kernels cannot address another context's memory).
 * GST_TEXEL_NVMM=1 offers it everywhere (the CPU path reads surfaces in
 * system, pinned or unified memory), 0 nowhere. */
gboolean gst_texel_nvmm_offered (GstTexelBase *self);
/* gst_texel_base_finish_caps's first step: @result (transfer full)
 * followed by the NVMM twin of each structure in system memory and the
 * system-memory twin of each NVMM structure where @self offers NVMM;
 * without NVMM structures where it does not. */
GstCaps *gst_texel_nvmm_transform_caps (GstTexelBase *self, GstCaps *result);
/* Keeps NVMM caps out of caps and accept-caps queries where @self does not
 * offer NVMM; TRUE when @query is answered. */
gboolean gst_texel_nvmm_caps_query (GstTexelBase *self, GstQuery *query);
/* Whether the caps of allocation query @query are NVMM. */
gboolean gst_texel_nvmm_allocation_caps (GstQuery *query);
/* For NVMM caps: proposes no pool upstream (NVIDIA's elements bring their
 * own surfaces), only the video meta. */
void gst_texel_nvmm_propose_allocation (GstQuery *query);
/* For NVMM caps: a pool of our own NvBufSurfaces, pitch-linear, in CUDA
 * device memory of the element's device (on the CPU path, system memory),
 * as many as the element's other pools hold at least, alone in @query.
 * FALSE (warned) when it cannot be set up. */
gboolean gst_texel_nvmm_decide_allocation (GstTexelBase *self, GstQuery *query);
/* Maps @buffer, an NvBufSurface where @caps_nvmm says the caps are
 * memory:NVMM, as a frame of @info whose planes are the surface's own (no
 * copy), for reading or writing. @device: the element's CUDA device, -1 on
 * the CPU path. */
GstTexelNvmmMap gst_texel_nvmm_map_frame (GstElement *element,
                                          GstVideoFrame *frame,
                                          GstVideoInfo *info, GstBuffer *buffer,
                                          gboolean caps_nvmm, gint device);
/* Whether @frame was mapped by gst_texel_nvmm_map_frame (its planes were
 * checked against the surface then). */
gboolean gst_texel_nvmm_frame (const GstVideoFrame *frame);
/* GST_TEXEL_IN_DEVICE / GST_TEXEL_OUT_DEVICE for NVMM frames whose planes
 * are in device-accessible CUDA memory. */
GstTexelFrameMemory gst_texel_nvmm_frames_memory (const GstVideoFrame *in,
                                                  const GstVideoFrame *out);
#else
static inline gboolean
gst_texel_nvmm_available (const gchar **status)
{
  *status = "built without CUDA";
  return FALSE;
}

static inline gboolean
gst_texel_caps_nvmm (GstCaps *caps)
{
  return FALSE;
}

static inline gboolean
gst_texel_nvmm_offered (GstTexelBase *self)
{
  return FALSE;
}

static inline GstCaps *
gst_texel_nvmm_transform_caps (GstTexelBase *self, GstCaps *result)
{
  return result;
}

static inline gboolean
gst_texel_nvmm_caps_query (GstTexelBase *self, GstQuery *query)
{
  return FALSE;
}

static inline gboolean
gst_texel_nvmm_allocation_caps (GstQuery *query)
{
  return FALSE;
}

static inline void
gst_texel_nvmm_propose_allocation (GstQuery *query)
{
}

static inline gboolean
gst_texel_nvmm_decide_allocation (GstTexelBase *self, GstQuery *query)
{
  return FALSE;
}

static inline GstTexelNvmmMap
gst_texel_nvmm_map_frame (GstElement *element, GstVideoFrame *frame,
                          GstVideoInfo *info, GstBuffer *buffer,
                          gboolean caps_nvmm, gint device)
{
  return GST_TEXEL_NVMM_NOT_NVMM;
}

static inline gboolean
gst_texel_nvmm_frame (const GstVideoFrame *frame)
{
  return FALSE;
}

static inline GstTexelFrameMemory
gst_texel_nvmm_frames_memory (const GstVideoFrame *in, const GstVideoFrame *out)
{
  return GST_TEXEL_FRAMES_HOST;
}
#endif

G_END_DECLS
#endif
