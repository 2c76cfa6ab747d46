/* gst-texel: every type, field and enumerator of
 * plugin/gsttexelnvbufsurface.h whose size, offset or value must be the
 * real nvbufsurface.h's, as X-macros for test-nvbufsurface-layout.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __TEXEL_NVBUFSURFACE_LAYOUT_H__
#define __TEXEL_NVBUFSURFACE_LAYOUT_H__

#include <stddef.h>

/* One entry a line: clang-format would pack them. */
/* clang-format off */
#define TEXEL_NVBUFSURFACE_TYPES(T)                                            \
  T (NvBufSurface)                                                             \
  T (NvBufSurfaceParams)                                                       \
  T (NvBufSurfacePlaneParams)                                                  \
  T (NvBufSurfaceMappedAddr)                                                   \
  T (NvBufSurfaceCreateParams)                                                 \
  T (NvBufSurfaceMemType)                                                      \
  T (NvBufSurfaceLayout)                                                       \
  T (NvBufSurfaceColorFormat)

#define TEXEL_NVBUFSURFACE_FIELDS(F)                                           \
  F (NvBufSurface, gpuId)                                                      \
  F (NvBufSurface, batchSize)                                                  \
  F (NvBufSurface, numFilled)                                                  \
  F (NvBufSurface, isContiguous)                                               \
  F (NvBufSurface, memType)                                                    \
  F (NvBufSurface, surfaceList)                                                \
  F (NvBufSurface, _reserved)                                                  \
  F (NvBufSurfaceParams, width)                                                \
  F (NvBufSurfaceParams, height)                                               \
  F (NvBufSurfaceParams, pitch)                                                \
  F (NvBufSurfaceParams, colorFormat)                                          \
  F (NvBufSurfaceParams, layout)                                               \
  F (NvBufSurfaceParams, bufferDesc)                                           \
  F (NvBufSurfaceParams, dataSize)                                             \
  F (NvBufSurfaceParams, dataPtr)                                              \
  F (NvBufSurfaceParams, planeParams)                                          \
  F (NvBufSurfaceParams, mappedAddr)                                           \
  F (NvBufSurfaceParams, paramex)                                              \
  F (NvBufSurfaceParams, _reserved)                                            \
  F (NvBufSurfacePlaneParams, num_planes)                                      \
  F (NvBufSurfacePlaneParams, width)                                           \
  F (NvBufSurfacePlaneParams, height)                                          \
  F (NvBufSurfacePlaneParams, pitch)                                           \
  F (NvBufSurfacePlaneParams, offset)                                          \
  F (NvBufSurfacePlaneParams, psize)                                           \
  F (NvBufSurfacePlaneParams, bytesPerPix)                                     \
  F (NvBufSurfacePlaneParams, _reserved)                                       \
  F (NvBufSurfaceMappedAddr, addr)                                             \
  F (NvBufSurfaceMappedAddr, eglImage)                                         \
  F (NvBufSurfaceMappedAddr, _reserved)                                        \
  F (NvBufSurfaceCreateParams, gpuId)                                          \
  F (NvBufSurfaceCreateParams, width)                                          \
  F (NvBufSurfaceCreateParams, height)                                         \
  F (NvBufSurfaceCreateParams, size)                                           \
  F (NvBufSurfaceCreateParams, isContiguous)                                   \
  F (NvBufSurfaceCreateParams, colorFormat)                                    \
  F (NvBufSurfaceCreateParams, layout)                                         \
  F (NvBufSurfaceCreateParams, memType)

#define TEXEL_NVBUFSURFACE_VALUES(V)                                           \
  V (NVBUF_MEM_DEFAULT)                                                        \
  V (NVBUF_MEM_CUDA_PINNED)                                                    \
  V (NVBUF_MEM_CUDA_DEVICE)                                                    \
  V (NVBUF_MEM_CUDA_UNIFIED)                                                   \
  V (NVBUF_MEM_SURFACE_ARRAY)                                                  \
  V (NVBUF_MEM_HANDLE)                                                         \
  V (NVBUF_MEM_SYSTEM)                                                         \
  V (NVBUF_LAYOUT_PITCH)                                                       \
  V (NVBUF_LAYOUT_BLOCK_LINEAR)                                                \
  V (NVBUF_COLOR_FORMAT_GRAY8)                                                 \
  V (NVBUF_COLOR_FORMAT_YUV420)                                                \
  V (NVBUF_COLOR_FORMAT_YVU420)                                                \
  V (NVBUF_COLOR_FORMAT_YUV420_ER)                                             \
  V (NVBUF_COLOR_FORMAT_YVU420_ER)                                             \
  V (NVBUF_COLOR_FORMAT_NV12)                                                  \
  V (NVBUF_COLOR_FORMAT_NV12_ER)                                               \
  V (NVBUF_COLOR_FORMAT_NV21)                                                  \
  V (NVBUF_COLOR_FORMAT_NV21_ER)                                               \
  V (NVBUF_COLOR_FORMAT_UYVY)                                                  \
  V (NVBUF_COLOR_FORMAT_UYVY_ER)                                               \
  V (NVBUF_COLOR_FORMAT_YUYV)                                                  \
  V (NVBUF_COLOR_FORMAT_YUYV_ER)                                               \
  V (NVBUF_COLOR_FORMAT_RGBA)                                                  \
  V (NVBUF_COLOR_FORMAT_BGRA)                                                  \
  V (NVBUF_COLOR_FORMAT_ARGB)                                                  \
  V (NVBUF_COLOR_FORMAT_ABGR)                                                  \
  V (NVBUF_COLOR_FORMAT_RGBx)                                                  \
  V (NVBUF_COLOR_FORMAT_BGRx)                                                  \
  V (NVBUF_COLOR_FORMAT_RGB)                                                   \
  V (NVBUF_COLOR_FORMAT_BGR)                                                   \
  V (NVBUF_COLOR_FORMAT_NV12_10LE)                                             \
  V (NVBUF_COLOR_FORMAT_YUV420_709)                                            \
  V (NVBUF_COLOR_FORMAT_YUV420_709_ER)                                         \
  V (NVBUF_COLOR_FORMAT_NV12_709)                                              \
  V (NVBUF_COLOR_FORMAT_NV12_709_ER)                                           \
  V (NVBUF_COLOR_FORMAT_YUV420_2020)                                           \
  V (NVBUF_COLOR_FORMAT_NV12_2020)                                             \
  V (NVBUF_COLOR_FORMAT_NV12_10LE_ER)                                          \
  V (NVBUF_COLOR_FORMAT_NV12_10LE_709)                                         \
  V (NVBUF_COLOR_FORMAT_NV12_10LE_709_ER)                                      \
  V (NVBUF_COLOR_FORMAT_NV12_10LE_2020)

/* clang-format on */

/* One table per header: sizes, then offset and size of each field, then
 * enumerator values. */
#define TEXEL_LAYOUT_TYPE(t) sizeof (t),
#define TEXEL_LAYOUT_FIELD(t, f) offsetof (t, f), sizeof (((t *)0)->f),
#define TEXEL_LAYOUT_VALUE(v) (size_t) (v),
#define TEXEL_LAYOUT_TABLE                                                     \
  {                                                                            \
    TEXEL_NVBUFSURFACE_TYPES (TEXEL_LAYOUT_TYPE)                               \
    TEXEL_NVBUFSURFACE_FIELDS (TEXEL_LAYOUT_FIELD)                             \
    TEXEL_NVBUFSURFACE_VALUES (TEXEL_LAYOUT_VALUE)                             \
  }

#define TEXEL_LAYOUT_NAME_TYPE(t) #t,
#define TEXEL_LAYOUT_NAME_FIELD(t, f) #t "." #f " offset", #t "." #f " size",
#define TEXEL_LAYOUT_NAME_VALUE(v) #v,
#define TEXEL_LAYOUT_NAMES                                                     \
  {                                                                            \
    TEXEL_NVBUFSURFACE_TYPES (TEXEL_LAYOUT_NAME_TYPE)                          \
    TEXEL_NVBUFSURFACE_FIELDS (TEXEL_LAYOUT_NAME_FIELD)                        \
    TEXEL_NVBUFSURFACE_VALUES (TEXEL_LAYOUT_NAME_VALUE)                        \
  }

extern const size_t texel_layout_real[], texel_layout_own[];

#endif
