/* gst-texel: the memory types of caps (caps features): memory:CUDAMemory
 * and memory:NVMM, their formats, and the caps and caps-query functions
 * that tell them apart from system memory. Knows no element.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_MEMORY_CAPS_H__
#define __GST_TEXEL_MEMORY_CAPS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The debug category of the memory units ("texelmemory"). */
GstDebugCategory *gst_texel_memory_debug (void);

/* Frames in GstCudaMemory (GStreamer's CUDA library, gst-plugins-bad), as
 * cudaupload, nvh264dec and nvh264enc exchange them. */
#define GST_TEXEL_CAPS_FEATURE_CUDA "memory:CUDAMemory"
/* Those GStreamer's CUDA elements exchange in CUDA memory: GRAY8,
 * GRAY16_LE, NV16, YVYU, AYUV, VUYA and xRGB are left out, the 1.22 CUDA
 * allocator cannot lay them out. */
#define GST_TEXEL_CUDA_FORMATS                                                 \
  "{ NV12, NV21, I420, YV12, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, " \
  "RGB, BGR, P010_10LE, I420_10LE, I422_10LE, Y444_10LE, Y42B, Y444 }"
#define GST_TEXEL_CUDA_CAPS                                                    \
  "video/x-raw(" GST_TEXEL_CAPS_FEATURE_CUDA "), "                             \
  "format = (string) " GST_TEXEL_CUDA_FORMATS ", "                             \
  "width = (int) [ 1, 32767 ], height = (int) [ 1, 32767 ], "                  \
  "framerate = (fraction) [ 0, max ]"

/* Frames in NVIDIA's NvBufSurfaces (memory:NVMM), as Jetson's and
 * DeepStream's elements exchange them (gsttexelnvmm.h): the formats of
 * gsttexelnvmm.c's table, in CUDA builds; negotiated only where
 * libnvbufsurface loads. */
#define GST_TEXEL_NVMM_FORMATS                                                 \
  "{ NV12, NV21, I420, YV12, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, " \
  "RGB, BGR, GRAY8, P010_10LE }"
#define GST_TEXEL_CAPS_FEATURE_NVMM "memory:NVMM"
#define GST_TEXEL_NVMM_CAPS                                                    \
  "video/x-raw(" GST_TEXEL_CAPS_FEATURE_NVMM "), "                             \
  "format = (string) " GST_TEXEL_NVMM_FORMATS ", "                             \
  "width = (int) [ 1, 32767 ], height = (int) [ 1, 32767 ], "                  \
  "framerate = (fraction) [ 0, max ]"

/* Whether @features (NULL: system memory) hold the caps feature @memory;
 * whether negotiated (fixed) @caps are in @memory; whether any structure
 * of @caps is. */
gboolean gst_texel_features_have (GstCapsFeatures *features,
                                  const gchar *memory);
gboolean gst_texel_caps_in_memory (GstCaps *caps, const gchar *memory);
gboolean gst_texel_caps_have_memory (GstCaps *caps, const gchar *memory);
/* Whether negotiated (fixed) @caps put frames in CUDA memory. */
gboolean gst_texel_caps_cuda_memory (GstCaps *caps);
/* @caps (transfer full) with, when @twin, each structure in system memory
 * or in @memory alone followed, after all of them, by its twin in the
 * other memory; when not, without the structures in @memory. */
GstCaps *gst_texel_caps_memory_twins (GstCaps *caps, const gchar *memory,
                                      gboolean twin);
/* Keeps caps in @memory out of caps and accept-caps query @query (the
 * element does not take them): TRUE when @query is answered. */
gboolean gst_texel_caps_query_refuse_memory (GstQuery *query,
                                             const gchar *memory);

G_END_DECLS
#endif
