/* gst-texel: a Jetson's NVMM surface arrays (NVBUF_MEM_SURFACE_ARRAY, or
 * NVBUF_MEM_DEFAULT there) seen by CUDA: the surface's EGL image mapped by
 * libnvbufsurface and registered with CUDA, whose EGL frame gives the
 * planes' device pointers (pitch-linear only; written, not yet run on a
 * Jetson). Built where the build found EGL headers (HAVE_NVMM_EGL; the
 * fallback in gsttexelnvmm-private.h refuses such surfaces otherwise).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <cuda_runtime_api.h>
#include <cuda_egl_interop.h>

#include "gsttexelnvmm-private.h"

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
 * drops the memory's last reference. */
typedef struct
{
  NvBufSurface *surf;
  struct cudaGraphicsResource *resource;
  cudaEglFrame frame;
} TexelNvmmEgl;

static void
texel_nvmm_egl_free (gpointer data)
{
  TexelNvmmEgl *egl = data;

  if (egl->resource)
    cudaGraphicsUnregisterResource (egl->resource);
  gst_texel_nvmm_api ()->unmap_egl_image (egl->surf, 0);
  g_free (egl);
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
  if (err)
    {
      *why = g_strdup_printf ("CUDA cannot read the surface's EGL image: %s",
                              cudaGetErrorString (err));
      texel_nvmm_egl_free (egl);
      return NULL;
    }
  return egl;
}

gchar *
gst_texel_nvmm_egl_planes (GstMemory *mem, NvBufSurface *surf,
                           const GstVideoInfo *info, GstTexelNvmmPlanes *planes)
{
  static GQuark quark = 0;
  TexelFormat format
      = gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (info));
  guint p, n_planes = GST_VIDEO_INFO_N_PLANES (info);
  TexelNvmmEgl *egl;
  gchar *why = NULL;

  if (!quark)
    quark = g_quark_from_static_string ("gst-texel-nvmm-egl");
  egl = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem), quark);
  if (!egl || egl->surf != surf)
    {
      if (!(egl = texel_nvmm_egl_register (surf, &why)))
        return why;
      /* replaces (and releases) a registration of another surface */
      gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), quark, egl,
                                 texel_nvmm_egl_free);
    }
  if (egl->frame.frameType != cudaEglFrameTypePitch)
    return g_strdup ("its EGL frame is a CUDA array (block-linear): not read "
                     "yet");
  if (egl->frame.planeCount < n_planes)
    return g_strdup_printf ("its EGL frame has %u planes, the caps %u",
                            egl->frame.planeCount, n_planes);
  for (p = 0; p < n_planes; p++)
    {
      gsize row
          = texel_plane_row_bytes (format, p, GST_VIDEO_INFO_WIDTH (info));
      guint rows = texel_plane_height (format, p, GST_VIDEO_INFO_HEIGHT (info));

      if (egl->frame.frame.pPitch[p].pitch < row
          || egl->frame.planeDesc[p].height < rows
          || egl->frame.frame.pPitch[p].pitch > G_MAXINT)
        return g_strdup_printf (
            "EGL plane %u (pitch %" G_GSIZE_FORMAT
            ", %u rows) cannot hold %u rows of %" G_GSIZE_FORMAT " bytes",
            p, egl->frame.frame.pPitch[p].pitch, egl->frame.planeDesc[p].height,
            rows, row);
      planes->data[p] = egl->frame.frame.pPitch[p].ptr;
      planes->stride[p] = (gint)egl->frame.frame.pPitch[p].pitch;
    }
  return NULL;
}
