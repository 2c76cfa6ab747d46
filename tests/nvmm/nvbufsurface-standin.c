/* gst-texel tests: a stand-in for NVIDIA's libnvbufsurface, built for the
 * tests only (never installed), so that memory:NVMM input runs without
 * JetPack or DeepStream: the plugin loads it through
 * GST_TEXEL_NVBUFSURFACE_LIBRARY and the tests create their surfaces with
 * it.
 *
 * NvBufSurfaceCreate lays out pitch-linear planes as NVIDIA's API
 * reference describes them (planeParams: width, height, pitch, offset,
 * psize, bytesPerPix per plane; one allocation per surface, dataPtr and
 * dataSize) in the memory type asked for: NVBUF_MEM_CUDA_DEVICE
 * (cudaMalloc), _CUDA_PINNED (cudaMallocHost), _CUDA_UNIFIED
 * (cudaMallocManaged), NVBUF_MEM_DEFAULT as CUDA device memory (a
 * discrete GPU's), and NVBUF_MEM_SYSTEM in host memory, which needs no
 * GPU. Rows are padded to a pitch of 256 bytes in CUDA memory and 64 in
 * system memory, so a reader that assumes packed rows fails.
 * NVBUF_MEM_SURFACE_ARRAY (RGBA-like formats and GRAY8): a GL texture on
 * headless EGL whose EGL image NvBufSurfaceMapEglImage makes
 * (nvbufsurface-standin-egl.c; no dataPtr, planeParams as pitch-linear
 * as a Jetson's describe its surfaces), where the build found EGL and GLES;
 * refused (-1) elsewhere; these may be block-linear, whatever a GL
 * texture is (planeParams then as for pitch-linear). Other block-linear
 * surfaces are refused (-1).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "nvbufsurface-standin.h"

#define STANDIN_EXPORT __attribute__ ((visibility ("default")))

typedef struct
{
  unsigned n_planes;
  unsigned bpp[3];                 /* bytes per pixel of each plane */
  unsigned x_shift[3], y_shift[3]; /* subsampling of each plane */
} StandinLayout;

/* The planes of @format, or FALSE for formats the texel elements do not
 * take. */
static int
standin_layout (NvBufSurfaceColorFormat format, StandinLayout *l)
{
  static const StandinLayout gray = { 1, { 1 }, { 0 }, { 0 } };
  static const StandinLayout yuv420
      = { 3, { 1, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 } };
  static const StandinLayout nv12 = { 2, { 1, 2 }, { 0, 1 }, { 0, 1 } };
  static const StandinLayout p010 = { 2, { 2, 4 }, { 0, 1 }, { 0, 1 } };
  static const StandinLayout packed422 = { 1, { 2 }, { 0 }, { 0 } };
  static const StandinLayout rgb = { 1, { 3 }, { 0 }, { 0 } };
  static const StandinLayout rgba = { 1, { 4 }, { 0 }, { 0 } };

  switch (format)
    {
      case NVBUF_COLOR_FORMAT_GRAY8:
        *l = gray;
        return 1;
      case NVBUF_COLOR_FORMAT_YUV420:
      case NVBUF_COLOR_FORMAT_YVU420:
      case NVBUF_COLOR_FORMAT_YUV420_ER:
      case NVBUF_COLOR_FORMAT_YVU420_ER:
      case NVBUF_COLOR_FORMAT_YUV420_709:
      case NVBUF_COLOR_FORMAT_YUV420_709_ER:
      case NVBUF_COLOR_FORMAT_YUV420_2020:
        *l = yuv420;
        return 1;
      case NVBUF_COLOR_FORMAT_NV12:
      case NVBUF_COLOR_FORMAT_NV12_ER:
      case NVBUF_COLOR_FORMAT_NV21:
      case NVBUF_COLOR_FORMAT_NV21_ER:
      case NVBUF_COLOR_FORMAT_NV12_709:
      case NVBUF_COLOR_FORMAT_NV12_709_ER:
      case NVBUF_COLOR_FORMAT_NV12_2020:
        *l = nv12;
        return 1;
      case NVBUF_COLOR_FORMAT_NV12_10LE:
      case NVBUF_COLOR_FORMAT_NV12_10LE_ER:
      case NVBUF_COLOR_FORMAT_NV12_10LE_709:
      case NVBUF_COLOR_FORMAT_NV12_10LE_709_ER:
      case NVBUF_COLOR_FORMAT_NV12_10LE_2020:
        *l = p010;
        return 1;
      case NVBUF_COLOR_FORMAT_UYVY:
      case NVBUF_COLOR_FORMAT_UYVY_ER:
      case NVBUF_COLOR_FORMAT_YUYV:
      case NVBUF_COLOR_FORMAT_YUYV_ER:
        *l = packed422;
        return 1;
      case NVBUF_COLOR_FORMAT_RGB:
      case NVBUF_COLOR_FORMAT_BGR:
        *l = rgb;
        return 1;
      case NVBUF_COLOR_FORMAT_RGBA:
      case NVBUF_COLOR_FORMAT_BGRA:
      case NVBUF_COLOR_FORMAT_ARGB:
      case NVBUF_COLOR_FORMAT_ABGR:
      case NVBUF_COLOR_FORMAT_RGBx:
      case NVBUF_COLOR_FORMAT_BGRx:
        *l = rgba;
        return 1;
      default:
        return 0;
    }
}

/* Plane parameters of one surface; returns its size in bytes. Packed
 * 4:2:2 rows hold an even number of pixels. */
static uint32_t
standin_planes (const NvBufSurfaceCreateParams *c, const StandinLayout *l,
                NvBufSurfacePlaneParams *pp)
{
  unsigned align = c->memType == NVBUF_MEM_SYSTEM ? 64 : 256;
  uint32_t offset = 0, p;

  memset (pp, 0, sizeof (*pp));
  pp->num_planes = l->n_planes;
  for (p = 0; p < l->n_planes; p++)
    {
      uint32_t w = (c->width + (1u << l->x_shift[p]) - 1) >> l->x_shift[p];
      uint32_t h = (c->height + (1u << l->y_shift[p]) - 1) >> l->y_shift[p];

      if (l->n_planes == 1 && l->bpp[0] == 2)
        w = (w + 1) & ~1u;
      pp->width[p] = w;
      pp->height[p] = h;
      pp->bytesPerPix[p] = l->bpp[p];
      pp->pitch[p] = (w * l->bpp[p] + align - 1) / align * align;
      pp->offset[p] = offset;
      pp->psize[p] = pp->pitch[p] * h;
      offset += pp->psize[p];
    }
  return offset;
}

static void *
standin_alloc (NvBufSurfaceMemType type, size_t size)
{
  void *ptr = NULL;

  switch (type)
    {
      case NVBUF_MEM_SYSTEM:
        return calloc (1, size);
      case NVBUF_MEM_DEFAULT:
      case NVBUF_MEM_CUDA_DEVICE:
        return cudaMalloc (&ptr, size) == cudaSuccess ? ptr : NULL;
      case NVBUF_MEM_CUDA_PINNED:
        return cudaMallocHost (&ptr, size) == cudaSuccess ? ptr : NULL;
      case NVBUF_MEM_CUDA_UNIFIED:
        return cudaMallocManaged (&ptr, size, cudaMemAttachGlobal)
                       == cudaSuccess
                   ? ptr
                   : NULL;
      default:
        return NULL;
    }
}

static void
standin_free (NvBufSurfaceMemType type, void *ptr)
{
  if (!ptr)
    return;
  if (type == NVBUF_MEM_SYSTEM)
    free (ptr);
  else if (type == NVBUF_MEM_CUDA_PINNED)
    cudaFreeHost (ptr);
  else
    cudaFree (ptr);
}

#if !STANDIN_EGL
/* Built without EGL or GLES: no surface arrays. */
STANDIN_EXPORT const char *
texel_standin_egl_error (void)
{
  return "the stand-in was built without EGL and GLES headers "
         "(libegl-dev, libgles-dev)";
}

STANDIN_EXPORT int
texel_standin_surface_write (NvBufSurface *surf, int index, const void *data,
                             int stride)
{
  return -1;
}

STANDIN_EXPORT int
texel_standin_surface_read (NvBufSurface *surf, int index, void *data,
                            int stride)
{
  return -1;
}

STANDIN_EXPORT int
texel_standin_live_textures (void)
{
  return 0;
}

STANDIN_EXPORT int
texel_standin_live_egl_images (void)
{
  return 0;
}

int
standin_egl_create (NvBufSurfaceParams *p, const NvBufSurfaceCreateParams *c)
{
  return -1;
}

int
standin_egl_map (NvBufSurfaceParams *p)
{
  return -1;
}

int
standin_egl_unmap (NvBufSurfaceParams *p)
{
  return -1;
}

void
standin_egl_destroy (NvBufSurfaceParams *p)
{
}
#endif

STANDIN_EXPORT int
NvBufSurfaceDestroy (NvBufSurface *surf)
{
  uint32_t i;

  if (!surf)
    return -1;
  for (i = 0; i < surf->batchSize; i++)
    if (surf->memType == NVBUF_MEM_SURFACE_ARRAY)
      standin_egl_destroy (&surf->surfaceList[i]);
    else
      standin_free (surf->memType, surf->surfaceList[i].dataPtr);
  free (surf->surfaceList);
  free (surf);
  return 0;
}

STANDIN_EXPORT int
NvBufSurfaceCreate (NvBufSurface **out, uint32_t batch_size,
                    NvBufSurfaceCreateParams *c)
{
  NvBufSurface *surf;
  StandinLayout l;
  uint32_t i;

  if (!out || !c || batch_size == 0 || c->width == 0 || c->height == 0
      || (c->layout != NVBUF_LAYOUT_PITCH
          && c->memType != NVBUF_MEM_SURFACE_ARRAY)
      || !standin_layout (c->colorFormat, &l))
    return -1;
  surf = calloc (1, sizeof (*surf));
  surf->surfaceList = calloc (batch_size, sizeof (NvBufSurfaceParams));
  surf->gpuId = c->gpuId;
  surf->batchSize = batch_size;
  surf->numFilled = 0; /* as documented: the producer fills it */
  surf->isContiguous = false;
  surf->memType = c->memType;
  for (i = 0; i < batch_size; i++)
    {
      NvBufSurfaceParams *p = &surf->surfaceList[i];

      p->width = c->width;
      p->height = c->height;
      p->colorFormat = c->colorFormat;
      p->layout = c->layout;
      p->dataSize = standin_planes (c, &l, &p->planeParams);
      p->pitch = p->planeParams.pitch[0];
      if (c->memType == NVBUF_MEM_SURFACE_ARRAY)
        {
          if (standin_egl_create (p, c) != 0)
            {
              NvBufSurfaceDestroy (surf);
              return -1;
            }
          continue;
        }
      p->dataPtr = standin_alloc (c->memType, p->dataSize);
      if (!p->dataPtr)
        {
          NvBufSurfaceDestroy (surf);
          return -1;
        }
    }
  *out = surf;
  return 0;
}

/* EGL images of surface arrays only, as NVIDIA's: @index -1 for every
 * surface of the batch. */
static int
standin_each_array (NvBufSurface *surf, int index,
                    int (*each) (NvBufSurfaceParams *p))
{
  uint32_t i;
  int err = 0;

  if (!surf || surf->memType != NVBUF_MEM_SURFACE_ARRAY || index < -1
      || (index >= 0 && (uint32_t)index >= surf->batchSize))
    return -1;
  for (i = 0; i < surf->batchSize; i++)
    if (index < 0 || (uint32_t)index == i)
      err |= each (&surf->surfaceList[i]);
  return err ? -1 : 0;
}

STANDIN_EXPORT int
NvBufSurfaceMapEglImage (NvBufSurface *surf, int index)
{
  return standin_each_array (surf, index, standin_egl_map);
}

STANDIN_EXPORT int
NvBufSurfaceUnMapEglImage (NvBufSurface *surf, int index)
{
  return standin_each_array (surf, index, standin_egl_unmap);
}

STANDIN_EXPORT int
NvBufSurfaceSyncForDevice (NvBufSurface *surf, int index, int plane)
{
  /* CUDA memory is coherent for the device; host memory has no cache to
   * write back here. */
  return surf ? 0 : -1;
}
