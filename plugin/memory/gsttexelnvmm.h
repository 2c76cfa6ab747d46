/* gst-texel: NVIDIA's memory:NVMM (NvBufSurface) frames, as Jetson's and
 * DeepStream's elements exchange them, for any element: one memory type
 * next to system memory, the texel host pool and CUDA memory
 * (gsttexelcudamemory.h): libnvbufsurface loaded at run time, the NVMM
 * caps, NvBufSurfaces mapped to the element's view of a frame in place,
 * and pools of NvBufSurfaces for NVMM output (gsttexelnvmm-private.h says
 * which file does what). Each function takes what it needs of the element
 * as arguments.
 *
 * Built with the CUDA kernels only: NVMM surfaces are GPU memory. Without
 * them (-Dcuda=disabled) the fallbacks below leave every pad without NVMM
 * caps; the frame flags and their readers serve every build (no frame has
 * them there).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_NVMM_H__
#define __GST_TEXEL_NVMM_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "device/gsttexelcuda.h"
#include "memory/gsttexelmemorycaps.h"

G_BEGIN_DECLS

/* GstVideoFrame flags of our own, above GStreamer's (bits 0-5): set on
 * frames gst_texel_nvmm_map_frame mapped, which gst_video_frame_unmap
 * never reads; on its device-accessible (CUDA memory) ones the second
 * too. */
#define GST_TEXEL_FRAME_FLAG_NVMM ((GstVideoFrameFlags)(1 << 24))
#define GST_TEXEL_FRAME_FLAG_NVMM_DEVICE ((GstVideoFrameFlags)(1 << 25))
/* ...and on those of a surface array whose EGL frame is a CUDA array
 * (gsttexelnvmmegl.c): their planes are a pitched device copy, filled
 * and written back around the kernels (gst_texel_nvmm_frame_fetch,
 * gst_texel_nvmm_frame_store). */
#define GST_TEXEL_FRAME_FLAG_NVMM_ARRAY ((GstVideoFrameFlags)(1 << 26))

/* Whether @frame was mapped by gst_texel_nvmm_map_frame (its planes were
 * checked against the surface then). */
static inline gboolean
gst_texel_nvmm_frame (const GstVideoFrame *frame)
{
  return (frame->flags & GST_TEXEL_FRAME_FLAG_NVMM) != 0;
}

/* GST_TEXEL_IN_DEVICE / GST_TEXEL_OUT_DEVICE for NVMM frames whose planes
 * are in device-accessible CUDA memory. */
static inline GstTexelFrameMemory
gst_texel_nvmm_frames_memory (const GstVideoFrame *in, const GstVideoFrame *out)
{
  GstTexelFrameMemory memory = GST_TEXEL_FRAMES_HOST;

  if (in->flags & GST_TEXEL_FRAME_FLAG_NVMM_DEVICE)
    memory |= GST_TEXEL_IN_DEVICE;
  if (out->flags & GST_TEXEL_FRAME_FLAG_NVMM_DEVICE)
    memory |= GST_TEXEL_OUT_DEVICE;
  return memory;
}

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
/* GST_TEXEL_NVMM: 1 offers NVMM caps everywhere (the CPU path reads
 * surfaces in system, pinned or unified memory), 0 nowhere, -1 (unset):
 * where the element's own rule says. */
gint gst_texel_nvmm_forced (void);
/* The end of an element's transform_caps: @result (transfer full)
 * followed by the NVMM twin of each structure in system memory and the
 * system-memory twin of each NVMM structure where the element @offered
 * NVMM; without NVMM structures where it does not. */
GstCaps *gst_texel_nvmm_transform_caps (GstCaps *result, gboolean offered);
/* Keeps NVMM caps out of caps and accept-caps queries where the element
 * does not offer NVMM; TRUE when @query is answered. */
gboolean gst_texel_nvmm_caps_query (GstQuery *query, gboolean offered);
/* For NVMM caps: proposes no pool upstream (NVIDIA's elements bring their
 * own surfaces), only the video meta. */
void gst_texel_nvmm_propose_allocation (GstQuery *query);
/* For NVMM caps: a pool of our own NvBufSurfaces of at least @min
 * buffers, alone in @query: surface arrays on an @integrated GPU, else
 * pitch-linear CUDA device memory of @device (-1, the CPU path: system
 * memory). FALSE (warned) when it cannot be set up. */
gboolean gst_texel_nvmm_decide_allocation (GstElement *element, GstQuery *query,
                                           gint device, gboolean integrated,
                                           guint min);
/* Maps @buffer, an NvBufSurface where @caps_nvmm says the caps are
 * memory:NVMM, as a frame of @info whose planes are the surface's own (no
 * copy), for reading or writing. @device: the element's CUDA device, -1 on
 * the CPU path. A surface array registered with CUDA on the way is
 * counted in *@registrations. */
GstTexelNvmmMap gst_texel_nvmm_map_frame (GstElement *element,
                                          GstVideoFrame *frame,
                                          GstVideoInfo *info, GstBuffer *buffer,
                                          gboolean caps_nvmm, gint device,
                                          guint64 *registrations);

#if HAVE_NVMM_EGL
int gst_texel_nvmm_egl_alias (const GstVideoFrame *frame,
                              TexelCudaContext *reader, gboolean output);

int gst_texel_nvmm_egl_fetch (const GstVideoFrame *frame,
                              struct CUstream_st *stream, guint64 *bytes);
int gst_texel_nvmm_egl_store (const GstVideoFrame *frame,
                              struct CUstream_st *stream, guint64 *bytes,
                              TexelCudaContext *arrays);
#endif

/* For frames of a surface array held as a CUDA array, where the
 * element's kernels read and write CUDA arrays in place (@arrays: their
 * context, NULL where they do not): tells @arrays, in the unit of the
 * frame being submitted, that the planes stand for the arrays
 * (texel_cuda_context_alias_array), input or @output. *@aliased says
 * whether it did; 0 or a cudaError_t. */
static inline int
gst_texel_nvmm_frame_alias (const GstVideoFrame *frame,
                            TexelCudaContext *arrays, gboolean output,
                            gboolean *aliased)
{
  *aliased = FALSE;
#if HAVE_NVMM_EGL
  if ((frame->flags & GST_TEXEL_FRAME_FLAG_NVMM_ARRAY) && arrays != NULL)
    {
      *aliased = TRUE;
      return gst_texel_nvmm_egl_alias (frame, arrays, output);
    }
#endif
  return 0;
}

/* For input frames of a surface array held as a CUDA array: enqueues the
 * copy of its planes into the pitched device copy the kernels read, on
 * @stream, before them; adds the bytes to *@bytes. 0 (nothing to do) for
 * any other frame, else a cudaError_t. */
static inline int
gst_texel_nvmm_frame_fetch (const GstVideoFrame *frame,
                            struct CUstream_st *stream, guint64 *bytes)
{
#if HAVE_NVMM_EGL
  if (frame->flags & GST_TEXEL_FRAME_FLAG_NVMM_ARRAY)
    return gst_texel_nvmm_egl_fetch (frame, stream, bytes);
#endif
  return 0;
}

/* The same for output frames: the copy back into the CUDA array, on
 * @stream once every kernel writing the frame is done there, of the
 * planes the kernels did not write into their arrays directly (@arrays:
 * their context where gst_texel_nvmm_frame_alias told it of them, else
 * NULL). */
static inline int
gst_texel_nvmm_frame_store (const GstVideoFrame *frame,
                            struct CUstream_st *stream, guint64 *bytes,
                            TexelCudaContext *arrays)
{
#if HAVE_NVMM_EGL
  if (frame->flags & GST_TEXEL_FRAME_FLAG_NVMM_ARRAY)
    return gst_texel_nvmm_egl_store (frame, stream, bytes, arrays);
#endif
  return 0;
}
#else
/* Without the CUDA kernels the pad templates hold no NVMM caps: nothing
 * negotiated, queried or mapped is NVMM. */
static inline gboolean
gst_texel_nvmm_available (const gchar **status)
{
  if (status)
    *status = "built without CUDA";
  return FALSE;
}

static inline gboolean
gst_texel_caps_nvmm (GstCaps *caps)
{
  return FALSE;
}

static inline gint
gst_texel_nvmm_forced (void)
{
  return 0;
}

static inline GstCaps *
gst_texel_nvmm_transform_caps (GstCaps *result, gboolean offered)
{
  return result;
}

static inline gboolean
gst_texel_nvmm_caps_query (GstQuery *query, gboolean offered)
{
  return FALSE;
}

static inline void
gst_texel_nvmm_propose_allocation (GstQuery *query)
{
}

static inline gboolean
gst_texel_nvmm_decide_allocation (GstElement *element, GstQuery *query,
                                  gint device, gboolean integrated, guint min)
{
  return FALSE;
}

static inline GstTexelNvmmMap
gst_texel_nvmm_map_frame (GstElement *element, GstVideoFrame *frame,
                          GstVideoInfo *info, GstBuffer *buffer,
                          gboolean caps_nvmm, gint device,
                          guint64 *registrations)
{
  return GST_TEXEL_NVMM_NOT_NVMM;
}
#endif

/* Whether the caps of allocation query @query are NVMM. */
static inline gboolean
gst_texel_nvmm_allocation_caps (GstQuery *query)
{
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  return gst_texel_caps_nvmm (caps);
}

G_END_DECLS
#endif
