/* gst-texel: the few NvBufSurface types and functions the plugin uses
 * (memory:NVMM frames of NVIDIA's Jetson and DeepStream elements).
 *
 * NVIDIA's nvbufsurface.h may not be redistributed. Where the build found
 * it (meson option nvbufsurface-include, or JetPack's / DeepStream's
 * include folder) it is used as it is; otherwise these declarations stand
 * in for it. They were written from NVIDIA's public API reference, not
 * from the header:
 *  - DeepStream SDK API Reference 7.0 and 7.1, "NvBufSurface Struct
 *    Reference", "NvBufSurfaceParams Struct Reference" (docs.nvidia.com/
 *    metropolis/deepstream/7.0/sdk-api/structNvBufSurface.html, ...);
 *  - Jetson Linux API Reference 35.3.1 / 35.6.0, "NvBufSurface Types and
 *    Functions" and the same struct pages (docs.nvidia.com/jetson/archives/
 *    r35.6.0/ApiReference/structNvBufSurfaceParams.html);
 *  - the DeepStream Python API page of NvBufSurfaceColorFormat, whose
 *    members are listed in declaration order (the enum counts from 0).
 * Field order and types are the documented ones; reserved padding is
 * STRUCTURE_PADDING (4) pointers as documented, so the layout is the real
 * header's. tests/nvmm/test-nvbufsurface-layout.c compares every size,
 * offset and enumerator value below with the real header wherever the
 * build finds one.
 *
 * Only the pitch-linear CUDA memory types and the colour formats of the
 * texel formats are used; the rest of the API is left out.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_NVBUFSURFACE_H__
#define __GST_TEXEL_NVBUFSURFACE_H__

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#if HAVE_NVBUFSURFACE_H && !defined(GST_TEXEL_OWN_NVBUFSURFACE)
#include <nvbufsurface.h>
#else
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

#define STRUCTURE_PADDING 4
#define NVBUF_MAX_PLANES 4

  typedef enum
  {
    NVBUF_MEM_DEFAULT, /* CUDA_DEVICE on dGPU, SURFACE_ARRAY on Jetson */
    NVBUF_MEM_CUDA_PINNED,
    NVBUF_MEM_CUDA_DEVICE,
    NVBUF_MEM_CUDA_UNIFIED,
    NVBUF_MEM_SURFACE_ARRAY, /* Jetson: NvRmSurface, read through EGL */
    NVBUF_MEM_HANDLE,
    NVBUF_MEM_SYSTEM,
  } NvBufSurfaceMemType;

  typedef enum
  {
    NVBUF_LAYOUT_PITCH,
    NVBUF_LAYOUT_BLOCK_LINEAR,
  } NvBufSurfaceLayout;

  /* The first 41 members, in the documented order: those of the texel
   * formats and the ones before them. The _ER / _709 / _2020 variants have
   * their base format's memory layout; the caps' colorimetry says the rest. */
  typedef enum
  {
    NVBUF_COLOR_FORMAT_INVALID,
    NVBUF_COLOR_FORMAT_GRAY8,
    NVBUF_COLOR_FORMAT_YUV420,
    NVBUF_COLOR_FORMAT_YVU420,
    NVBUF_COLOR_FORMAT_YUV420_ER,
    NVBUF_COLOR_FORMAT_YVU420_ER,
    NVBUF_COLOR_FORMAT_NV12,
    NVBUF_COLOR_FORMAT_NV12_ER,
    NVBUF_COLOR_FORMAT_NV21,
    NVBUF_COLOR_FORMAT_NV21_ER,
    NVBUF_COLOR_FORMAT_UYVY,
    NVBUF_COLOR_FORMAT_UYVY_ER,
    NVBUF_COLOR_FORMAT_VYUY,
    NVBUF_COLOR_FORMAT_VYUY_ER,
    NVBUF_COLOR_FORMAT_YUYV,
    NVBUF_COLOR_FORMAT_YUYV_ER,
    NVBUF_COLOR_FORMAT_YVYU,
    NVBUF_COLOR_FORMAT_YVYU_ER,
    NVBUF_COLOR_FORMAT_YUV444,
    NVBUF_COLOR_FORMAT_RGBA,
    NVBUF_COLOR_FORMAT_BGRA,
    NVBUF_COLOR_FORMAT_ARGB,
    NVBUF_COLOR_FORMAT_ABGR,
    NVBUF_COLOR_FORMAT_RGBx,
    NVBUF_COLOR_FORMAT_BGRx,
    NVBUF_COLOR_FORMAT_xRGB,
    NVBUF_COLOR_FORMAT_xBGR,
    NVBUF_COLOR_FORMAT_RGB,
    NVBUF_COLOR_FORMAT_BGR,
    NVBUF_COLOR_FORMAT_NV12_10LE,
    NVBUF_COLOR_FORMAT_NV12_12LE,
    NVBUF_COLOR_FORMAT_YUV420_709,
    NVBUF_COLOR_FORMAT_YUV420_709_ER,
    NVBUF_COLOR_FORMAT_NV12_709,
    NVBUF_COLOR_FORMAT_NV12_709_ER,
    NVBUF_COLOR_FORMAT_YUV420_2020,
    NVBUF_COLOR_FORMAT_NV12_2020,
    NVBUF_COLOR_FORMAT_NV12_10LE_ER,
    NVBUF_COLOR_FORMAT_NV12_10LE_709,
    NVBUF_COLOR_FORMAT_NV12_10LE_709_ER,
    NVBUF_COLOR_FORMAT_NV12_10LE_2020,
  } NvBufSurfaceColorFormat;

  typedef struct NvBufSurfacePlaneParams
  {
    uint32_t num_planes;
    uint32_t width[NVBUF_MAX_PLANES];
    uint32_t height[NVBUF_MAX_PLANES];
    uint32_t pitch[NVBUF_MAX_PLANES];
    uint32_t offset[NVBUF_MAX_PLANES];
    uint32_t psize[NVBUF_MAX_PLANES];
    uint32_t bytesPerPix[NVBUF_MAX_PLANES];
    void *_reserved[STRUCTURE_PADDING * NVBUF_MAX_PLANES];
  } NvBufSurfacePlaneParams;

  typedef struct NvBufSurfaceCreateParams
  {
    uint32_t gpuId;
    uint32_t width;
    uint32_t height;
    uint32_t size;
    bool isContiguous;
    NvBufSurfaceColorFormat colorFormat;
    NvBufSurfaceLayout layout;
    NvBufSurfaceMemType memType;
  } NvBufSurfaceCreateParams;

  typedef struct NvBufSurfaceMappedAddr
  {
    void *addr[NVBUF_MAX_PLANES];
    void *eglImage;
    void *_reserved[STRUCTURE_PADDING];
  } NvBufSurfaceMappedAddr;

  /* Only pointed to. */
  typedef struct NvBufSurfaceParamsEx NvBufSurfaceParamsEx;

  typedef struct NvBufSurfaceParams
  {
    uint32_t width;
    uint32_t height;
    uint32_t pitch;
    NvBufSurfaceColorFormat colorFormat;
    NvBufSurfaceLayout layout;
    uint64_t bufferDesc; /* dmabuf fd (SURFACE_ARRAY, HANDLE) */
    uint32_t dataSize;
    void *dataPtr; /* not valid for SURFACE_ARRAY, HANDLE */
    NvBufSurfacePlaneParams planeParams;
    NvBufSurfaceMappedAddr mappedAddr;
    NvBufSurfaceParamsEx *paramex;
    void *_reserved[STRUCTURE_PADDING - 1];
  } NvBufSurfaceParams;

  typedef struct NvBufSurface
  {
    uint32_t gpuId;
    uint32_t batchSize;
    uint32_t numFilled;
    bool isContiguous;
    NvBufSurfaceMemType memType;
    NvBufSurfaceParams *surfaceList;
    void *_reserved[STRUCTURE_PADDING];
  } NvBufSurface;

  int NvBufSurfaceCreate (NvBufSurface **surf, uint32_t batchSize,
                          NvBufSurfaceCreateParams *params);
  int NvBufSurfaceDestroy (NvBufSurface *surf);
  int NvBufSurfaceMapEglImage (NvBufSurface *surf, int index);
  int NvBufSurfaceUnMapEglImage (NvBufSurface *surf, int index);
  int NvBufSurfaceSyncForDevice (NvBufSurface *surf, int index, int plane);

#ifdef __cplusplus
}
#endif

/* What the documented layout gives on LP64 (x86-64, aarch64), checked
 * here so that a wrong field type cannot go unnoticed where no real header
 * is at hand. */
#if defined(__LP64__)
_Static_assert(sizeof (NvBufSurfacePlaneParams) == 4 + 6 * 16 + 4 + 16 * 8,
               "NvBufSurfacePlaneParams: 25 uint32, padding to 8, 16 pointers");
_Static_assert(sizeof (NvBufSurfaceMappedAddr) == 9 * 8,
               "NvBufSurfaceMappedAddr: 9 pointers");
_Static_assert(__builtin_offsetof(NvBufSurfaceParams, bufferDesc) == 24,
               "NvBufSurfaceParams: 5 x 4 bytes, then a uint64 at 24");
_Static_assert(__builtin_offsetof(NvBufSurfaceParams, dataPtr) == 40,
               "NvBufSurfaceParams: dataSize at 32, dataPtr at 40");
_Static_assert(__builtin_offsetof(NvBufSurfaceParams, planeParams) == 48,
               "NvBufSurfaceParams: planeParams at 48");
_Static_assert(sizeof (NvBufSurfaceParams) == 48 + 232 + 72 + 8 + 3 * 8,
               "NvBufSurfaceParams: 384 bytes");
_Static_assert(__builtin_offsetof(NvBufSurface, memType) == 16
                   && __builtin_offsetof(NvBufSurface, surfaceList) == 24
                   && sizeof (NvBufSurface) == 64,
               "NvBufSurface: 64 bytes");
_Static_assert(sizeof (NvBufSurfaceCreateParams) == 32,
               "NvBufSurfaceCreateParams: 32 bytes");
#endif
#endif /* own declarations */

#endif
