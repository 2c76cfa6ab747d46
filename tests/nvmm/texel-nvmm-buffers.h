/* gst-texel tests: memory:NVMM buffers as NVIDIA's elements make them (the
 * "test source" of the NVMM tests), over surfaces of the stand-in
 * libnvbufsurface (nvbufsurface-standin.c) or NVIDIA's own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_NVMM_BUFFERS_H
#define TEXEL_NVMM_BUFFERS_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "memory/gsttexelnvbufsurface.h"

/* The NvBufSurface colour format of @format's layout. */
NvBufSurfaceColorFormat texel_nvmm_color_format (GstVideoFormat format);

/* A buffer as nvvidconv and DeepStream's elements push them: one memory
 * whose map gives the NvBufSurface (not the pixels), which it destroys
 * when freed. The surface (@batch of them, numFilled 1) is created in
 * @type memory and holds the frame of @info in @src (system memory); NULL
 * where the surface cannot be created. NVBUF_MEM_SURFACE_ARRAY: the
 * stand-in's GL textures (nvbufsurface-standin.h), one-plane formats. */
GstBuffer *texel_nvmm_buffer_new (const GstVideoInfo *info, GstBuffer *src,
                                  NvBufSurfaceMemType type, guint batch);

/* The NvBufSurface of an NVMM buffer (its one memory, mapped and
 * unmapped again: the surface lives as long as the buffer). */
NvBufSurface *texel_nvmm_buffer_surface (GstBuffer *buffer);

/* The frame of @info in NVMM buffer @nvmm, copied into a new system-memory
 * buffer of @info's default layout; NULL where it cannot be read. */
GstBuffer *texel_nvmm_buffer_download (GstBuffer *nvmm,
                                       const GstVideoInfo *info);

#endif
