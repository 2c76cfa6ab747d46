/* gst-texel: a Jetson's NVMM surface arrays (NVBUF_MEM_SURFACE_ARRAY, or
 * NVBUF_MEM_DEFAULT there) seen by CUDA: the surface's EGL image mapped by
 * libnvbufsurface and registered with CUDA, whose EGL frame gives the
 * planes. A pitch-linear EGL frame is read and written in place; an
 * array frame (a CUDA array: block-linear surfaces, and GL textures, the
 * stand-in's on the H100) is read and written in place by the elements
 * whose kernels sample through textures and store whole elements
 * (texelconvert, texelwarp: textures over the input arrays, surface
 * objects over the output arrays, gst_texel_nvmm_egl_alias); for the
 * others it is copied into a pitched device copy before the kernels, and
 * an output array written back from its copy after them, on the frame's
 * stream (counted in bytes-device-copied). Built where the build found
 * EGL headers (HAVE_NVMM_EGL; the fallback in gsttexelnvmm-private.h
 * refuses such surfaces otherwise).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <cuda_runtime_api.h>
#include <cuda_egl_interop.h>

#include "memory/gsttexelnvmm-private.h"

#define GST_CAT_DEFAULT (gst_texel_memory_debug ())

/* A surface array (a Jetson's NVMM) seen by CUDA: its EGL image
 * registered, the EGL frame's planes. Made once per surface and cached on
 * the memory that maps to it (a camera's or a decoder's pool cycles
 * through a few), released with that memory: unregistered, EGL image
 * unmapped. Registered in the CUDA runtime's current context of the
 * streaming thread: a Jetson's one device's primary context (builds with
 * GStreamer's CUDA library do not offer NVMM, see
 * gst_texel_nvmm_offered).
 *
 * Ownership: made by the streaming thread that first maps the surface,
 * every field written then and only read afterwards (by the streaming
 * threads that map the same memory, one at a time: the memory is in one
 * buffer); the memory's qdata owns it and frees it in whichever thread
 * drops the memory's last reference, which no frame in flight holds (a
 * mapped frame keeps its memory). The pitched copy's contents are written
 * on the GPU by the frames' streams: an input buffer in flight twice (on
 * two band streams) has the same bytes fetched twice into it, which
 * changes nothing the other frame reads; an output buffer is never in
 * flight twice (our pool hands it out once). */
typedef struct
{
  NvBufSurface *surf;
  struct cudaGraphicsResource *resource;
  cudaEglFrame frame;
  /* Array frames only: each plane's array, @array_row bytes by
   * @array_rows rows (from cudaArrayGetInfo: its element size, whatever
   * planeDesc's channel count means for it), and its pitched device copy
   * (a whole array), all planes in one allocation. */
  gsize array_row[CUDA_EGL_MAX_PLANES];
  guint array_rows[CUDA_EGL_MAX_PLANES];
  void *copy;
  guint8 *copy_plane[CUDA_EGL_MAX_PLANES];
  gsize copy_pitch[CUDA_EGL_MAX_PLANES];
} TexelNvmmEgl;

/* The one quark of the registration on a memory's qdata. */
static GQuark
texel_nvmm_egl_quark (void)
{
  static GQuark quark = 0;

  if (!quark)
    quark = g_quark_from_static_string ("gst-texel-nvmm-egl");
  return quark;
}

static void
texel_nvmm_egl_free (gpointer data)
{
  TexelNvmmEgl *egl = data;
  cudaError_t err;

  /* Whichever thread drops the memory last: nothing to report an error
   * to, so it is logged. */
  if (egl->copy && (err = cudaFree (egl->copy)) != cudaSuccess)
    GST_WARNING ("freeing a surface array's pitched copy: %s",
                 cudaGetErrorString (err));
  if (egl->resource
      && (err = cudaGraphicsUnregisterResource (egl->resource)) != cudaSuccess)
    GST_WARNING ("unregistering a surface array's EGL image: %s",
                 cudaGetErrorString (err));
  gst_texel_nvmm_api ()->unmap_egl_image (egl->surf, 0);
  g_free (egl);
}

/* The size of each array of an array frame. */
static cudaError_t
texel_nvmm_egl_array_sizes (TexelNvmmEgl *egl)
{
  struct cudaChannelFormatDesc desc;
  struct cudaExtent extent;
  unsigned int flags;
  cudaError_t err = cudaSuccess;
  guint p;

  for (p = 0; !err && p < egl->frame.planeCount && p < CUDA_EGL_MAX_PLANES; p++)
    {
      err = cudaArrayGetInfo (&desc, &extent, &flags,
                              egl->frame.frame.pArray[p]);
      egl->array_row[p]
          = extent.width * ((desc.x + desc.y + desc.z + desc.w + 7) / 8);
      egl->array_rows[p] = (guint)MAX (extent.height, 1);
    }
  return err;
}

/* Rows and planes start at multiples of this: the texture alignment of
 * every GPU so far (512 on the H100), so that the kernels read the copy
 * through textures, as they read a staged copy of system memory. */
#define TEXEL_NVMM_EGL_ALIGN 1024

/* The pitched device copy of an array frame's planes. */
static cudaError_t
texel_nvmm_egl_alloc_copy (TexelNvmmEgl *egl)
{
  gsize offset[CUDA_EGL_MAX_PLANES], size = 0;
  cudaError_t err;
  guint p;

  err = texel_nvmm_egl_array_sizes (egl);
  if (err)
    return err;
  for (p = 0; p < egl->frame.planeCount && p < CUDA_EGL_MAX_PLANES; p++)
    {
      egl->copy_pitch[p]
          = GST_ROUND_UP_N (egl->array_row[p], TEXEL_NVMM_EGL_ALIGN);
      offset[p] = size;
      size += GST_ROUND_UP_N (egl->copy_pitch[p] * egl->array_rows[p],
                              TEXEL_NVMM_EGL_ALIGN);
    }
  err = cudaMalloc (&egl->copy, size + TEXEL_NVMM_EGL_ALIGN);
  if (err)
    return err;
  for (p = 0; p < egl->frame.planeCount && p < CUDA_EGL_MAX_PLANES; p++)
    egl->copy_plane[p]
        = (guint8 *)GST_ROUND_UP_N ((guintptr)egl->copy, TEXEL_NVMM_EGL_ALIGN)
          + offset[p];
  return cudaSuccess;
}

static TexelNvmmEgl *
texel_nvmm_egl_register (NvBufSurface *surf, gchar **why)
{
  TexelNvmmEgl *egl = g_new0 (TexelNvmmEgl, 1);
  int err;

  egl->surf = surf;
  err = gst_texel_nvmm_api ()->map_egl_image (surf, 0);
  if (err != 0 || !surf->surfaceList->mappedAddr.eglImage)
    {
      *why = g_strdup_printf ("NvBufSurfaceMapEglImage failed (%d)", err);
      g_free (egl);
      return NULL;
    }
  err = cudaGraphicsEGLRegisterImage (&egl->resource,
                                      surf->surfaceList->mappedAddr.eglImage,
                                      cudaGraphicsRegisterFlagsNone);
  if (!err)
    err = cudaGraphicsResourceGetMappedEglFrame (&egl->frame, egl->resource, 0,
                                                 0);
  if (!err && egl->frame.frameType == cudaEglFrameTypeArray)
    err = texel_nvmm_egl_alloc_copy (egl);
  if (err)
    {
      *why = g_strdup_printf ("CUDA cannot read the surface's EGL image: "
                              "%s (%s)",
                              cudaGetErrorName (err), cudaGetErrorString (err));
      texel_nvmm_egl_free (egl);
      return NULL;
    }
  return egl;
}

/* Why plane @p of @egl's frame cannot hold @rows rows of @row bytes, or
 * NULL. */
static gchar *
texel_nvmm_egl_plane_problem (const TexelNvmmEgl *egl, guint p, gsize row,
                              guint rows)
{
  gboolean pitched = egl->frame.frameType == cudaEglFrameTypePitch;
  gsize pitch = pitched ? egl->frame.frame.pPitch[p].pitch : egl->array_row[p];
  guint height = pitched ? egl->frame.planeDesc[p].height : egl->array_rows[p];

  if (pitch >= row && height >= rows && pitch <= G_MAXINT
      && (egl->frame.frameType == cudaEglFrameTypePitch
          || egl->copy_pitch[p] <= G_MAXINT))
    return NULL;
  return g_strdup_printf (
      "EGL plane %u (%s, %" G_GSIZE_FORMAT " bytes a "
      "row, %u rows) cannot hold %u rows of %" G_GSIZE_FORMAT " bytes",
      p, pitched ? "pitch" : "array", pitch, height, rows, row);
}

gchar *
gst_texel_nvmm_egl_planes (GstMemory *mem, NvBufSurface *surf,
                           const GstVideoInfo *info, GstTexelNvmmPlanes *planes)
{
  TexelFormat format
      = gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (info));
  guint p, n_planes = GST_VIDEO_INFO_N_PLANES (info);
  TexelNvmmEgl *egl;
  gchar *why = NULL;

  egl = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
                                   texel_nvmm_egl_quark ());
  if (!egl || egl->surf != surf)
    {
      if (!(egl = texel_nvmm_egl_register (surf, &why)))
        return why;
      /* replaces (and releases) a registration of another surface */
      gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem),
                                 texel_nvmm_egl_quark (), egl,
                                 texel_nvmm_egl_free);
      planes->registered = TRUE;
    }
  if (egl->frame.planeCount < n_planes)
    return g_strdup_printf ("its EGL frame has %u planes, the caps %u",
                            egl->frame.planeCount, n_planes);
  planes->array = egl->frame.frameType != cudaEglFrameTypePitch;
  if (!planes->array && surf->surfaceList->layout != NVBUF_LAYOUT_PITCH)
    return g_strdup ("a block-linear surface whose EGL frame is pitch-linear");
  for (p = 0; p < n_planes; p++)
    {
      gsize row
          = texel_plane_row_bytes (format, p, GST_VIDEO_INFO_WIDTH (info));
      guint rows = texel_plane_height (format, p, GST_VIDEO_INFO_HEIGHT (info));

      if ((why = texel_nvmm_egl_plane_problem (egl, p, row, rows)) != NULL)
        return why;
      if (planes->array)
        {
          planes->data[p] = egl->copy_plane[p];
          planes->stride[p] = (gint)egl->copy_pitch[p];
        }
      else
        {
          planes->data[p] = egl->frame.frame.pPitch[p].ptr;
          planes->stride[p] = (gint)egl->frame.frame.pPitch[p].pitch;
        }
    }
  return NULL;
}

/* The registration of @frame, mapped as an array frame (its pitched copy
 * made), or NULL. */
static TexelNvmmEgl *
texel_nvmm_egl_array_frame (const GstVideoFrame *frame)
{
  TexelNvmmEgl *egl = gst_mini_object_get_qdata (
      GST_MINI_OBJECT_CAST (frame->map[0].memory), texel_nvmm_egl_quark ());

  return egl && egl->copy ? egl : NULL;
}

/* The bytes of a row, and the rows, of plane @p of @frame. */
static void
texel_nvmm_egl_plane_size (const GstVideoFrame *frame, guint p, gsize *row,
                           gsize *rows)
{
  TexelFormat format
      = gst_texel_format_from_video (GST_VIDEO_FRAME_FORMAT (frame));

  *row = texel_plane_row_bytes (format, p, GST_VIDEO_FRAME_WIDTH (frame));
  *rows = texel_plane_height (format, p, GST_VIDEO_FRAME_HEIGHT (frame));
}

/* Copies each plane of @frame between its CUDA array and its pitched
 * device copy (@fetch: into the copy) on @stream. Only the rows and bytes
 * the frame has, at the array's origin, as the pitch-linear planes hold
 * them. */
static int
texel_nvmm_egl_copy (const GstVideoFrame *frame, cudaStream_t stream,
                     guint64 *bytes, gboolean fetch, TexelCudaContext *arrays)
{
  TexelNvmmEgl *egl = texel_nvmm_egl_array_frame (frame);
  cudaError_t err = cudaSuccess;
  guint p;

  if (!egl)
    return (int)cudaErrorInvalidResourceHandle; /* mapped as an array frame */
  for (p = 0; !err && p < GST_VIDEO_FRAME_N_PLANES (frame); p++)
    {
      cudaArray_t array = egl->frame.frame.pArray[p];
      gsize row, rows;

      texel_nvmm_egl_plane_size (frame, p, &row, &rows);

      /* Written through a surface over the array: nothing to copy. */
      if (arrays != NULL
          && texel_cuda_context_array_written (arrays, egl->copy_plane[p]))
        continue;
      if (fetch)
        err = cudaMemcpy2DFromArrayAsync (
            egl->copy_plane[p], egl->copy_pitch[p], array, 0, 0, row, rows,
            cudaMemcpyDeviceToDevice, stream);
      else
        err = cudaMemcpy2DToArrayAsync (array, 0, 0, egl->copy_plane[p],
                                        egl->copy_pitch[p], row, rows,
                                        cudaMemcpyDeviceToDevice, stream);
      if (!err)
        *bytes += row * rows;
    }
  return (int)err;
}

int
gst_texel_nvmm_egl_alias (const GstVideoFrame *frame, TexelCudaContext *arrays,
                          gboolean output)
{
  TexelNvmmEgl *egl = texel_nvmm_egl_array_frame (frame);
  int err = 0;
  guint p;

  if (!egl)
    return (int)cudaErrorInvalidResourceHandle; /* mapped as an array frame */
  for (p = 0; !err && p < GST_VIDEO_FRAME_N_PLANES (frame); p++)
    {
      gsize row, rows;

      texel_nvmm_egl_plane_size (frame, p, &row, &rows);
      err = texel_cuda_context_alias_array (
          arrays, egl->copy_plane[p], egl->copy_pitch[p],
          egl->frame.frame.pArray[p], row, (int)rows, output);
    }
  return err;
}

int
gst_texel_nvmm_egl_fetch (const GstVideoFrame *frame, cudaStream_t stream,
                          guint64 *bytes)
{
  return texel_nvmm_egl_copy (frame, stream, bytes, TRUE, NULL);
}

int
gst_texel_nvmm_egl_store (const GstVideoFrame *frame, cudaStream_t stream,
                          guint64 *bytes, TexelCudaContext *arrays)
{
  return texel_nvmm_egl_copy (frame, stream, bytes, FALSE, arrays);
}
