/* gst-texel: what the NVMM units share (gsttexelnvmm.h is their API to the
 * base class):
 *
 *  - gsttexelnvmm.c: libnvbufsurface loaded at run time, the NVMM caps,
 *    surfaces checked and mapped in place as the element's frames (input,
 *    and output in a surface of our pool);
 *  - gsttexelnvmmpool.c: the allocation queries and the pool of
 *    NvBufSurfaces for NVMM output;
 *  - gsttexelnvmmegl.c (builds with EGL headers): a Jetson's surface
 *    arrays seen by CUDA through their EGL frames.
 *
 * All of them built with the CUDA kernels only (plugin/meson.build).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_NVMM_PRIVATE_H__
#define __GST_TEXEL_NVMM_PRIVATE_H__

#include "memory/gsttexelimage.h"
#include "memory/gsttexelnvbufsurface.h"
#include "memory/gsttexelnvmm.h"

G_BEGIN_DECLS

/* The functions of libnvbufsurface the plugin may call
 * (NvBufSurfaceSyncForDevice: not yet, it is for surfaces the CPU wrote);
 * all must resolve. */
typedef struct
{
  int (*create) (NvBufSurface **surf, uint32_t batch_size,
                 NvBufSurfaceCreateParams *params);
  int (*destroy) (NvBufSurface *surf);
  int (*map_egl_image) (NvBufSurface *surf, int index);
  int (*unmap_egl_image) (NvBufSurface *surf, int index);
  int (*sync_for_device) (NvBufSurface *surf, int index, int plane);
} GstTexelNvbufsurface;

/* The loaded library's functions; only where gst_texel_nvmm_available
 * said TRUE (the caller's NVMM caps imply it). */
const GstTexelNvbufsurface *gst_texel_nvmm_api (void);

/* The NvBufSurface colour formats of @format's memory layout, the one our
 * pool creates first, up to the first NVBUF_COLOR_FORMAT_INVALID (or the
 * fifth); NULL where it has none. */
const NvBufSurfaceColorFormat *gst_texel_nvmm_colors (GstVideoFormat format);
/* How many colour formats gst_texel_nvmm_colors lists at most. */
#define GST_TEXEL_NVMM_MAX_COLORS 5

/* @type's name in NVIDIA's header, for messages. */
const gchar *gst_texel_nvmm_mem_type_name (NvBufSurfaceMemType type);

/* Where the planes of a surface are: @data and @stride for each; @array:
 * a pitched device copy of a surface array's CUDA array
 * (GST_TEXEL_FRAME_FLAG_NVMM_ARRAY); @registered: the surface was
 * registered with CUDA for this map (counted in the stats). Filled on
 * the streaming thread that maps the frame, on its stack. */
typedef struct
{
  guint8 *data[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  gboolean array;
  gboolean registered;
} GstTexelNvmmPlanes;

#if HAVE_NVMM_EGL
/* The planes of surface array @surf (checked against frames of @info)
 * through its EGL frame, registered with CUDA once and cached on @mem,
 * the memory that maps to @surf: the frame's own planes where it is
 * pitch-linear, else a pitched device copy of its CUDA arrays (allocated
 * with the registration); or why not. */
gchar *gst_texel_nvmm_egl_planes (GstMemory *mem, NvBufSurface *surf,
                                  const GstVideoInfo *info,
                                  GstTexelNvmmPlanes *planes);
#else
static inline gchar *
gst_texel_nvmm_egl_planes (GstMemory *mem, NvBufSurface *surf,
                           const GstVideoInfo *info, GstTexelNvmmPlanes *planes)
{
  return g_strdup ("built without EGL");
}
#endif

G_END_DECLS
#endif
