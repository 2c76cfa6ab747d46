/* gst-texel: memory:NVMM (NvBufSurface) frames: libnvbufsurface loaded at
 * run time, NVMM caps, surfaces mapped in place, pools of surfaces for
 * NVMM output (gsttexelnvmm.h; docs/design.md, "NVMM").
 *
 * An NVMM buffer holds one memory whose map gives the NvBufSurface, not
 * the pixels (NVIDIA's nvvidconv, nvv4l2decoder, nvarguscamerasrc and
 * DeepStream's elements all hand it so): the planes are where the
 * surface's parameters say. On a discrete GPU (DeepStream) they are CUDA
 * device, pinned or unified memory, which the kernels read and write in
 * place; the CPU path reads the host-accessible kinds (system, pinned,
 * unified). A Jetson's surface arrays are reached through their EGL
 * frames (pitch-linear only; written, not yet run). Block-linear surfaces
 * and batches of more than one surface are refused with a message saying
 * so.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gmodule.h>

#if HAVE_NVMM_EGL
#include <cuda_runtime_api.h>
#include <cuda_egl_interop.h>
#endif

#include "gsttexelbase-private.h"
#include "gsttexelnvbufsurface.h"
#include "gsttexelnvmm.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

/* GstVideoFrame flags of our own, above GStreamer's (bits 0-5): set on
 * frames this unit mapped, which gst_video_frame_unmap never reads. */
#define GST_TEXEL_FRAME_FLAG_NVMM ((GstVideoFrameFlags)(1 << 24))
#define GST_TEXEL_FRAME_FLAG_NVMM_DEVICE ((GstVideoFrameFlags)(1 << 25))

/* Where libnvbufsurface is, in the order tried: the test stand-in or any
 * other through the environment, the loader's own search path, JetPack's
 * and DeepStream's folders. */
static const gchar *const nvbufsurface_paths[] = {
  "libnvbufsurface.so.1.0.0",
  "/usr/lib/aarch64-linux-gnu/tegra/libnvbufsurface.so.1.0.0",
  "/usr/lib/aarch64-linux-gnu/nvidia/libnvbufsurface.so.1.0.0",
  "/opt/nvidia/deepstream/deepstream/lib/libnvbufsurface.so",
  "libnvbufsurface.so",
};

/* The functions the plugin may call (NvBufSurfaceSyncForDevice: not yet,
 * it is for surfaces the CPU wrote); all must resolve. */
typedef struct
{
  int (*create) (NvBufSurface **surf, uint32_t batch_size,
                 NvBufSurfaceCreateParams *params);
  int (*destroy) (NvBufSurface *surf);
  int (*map_egl_image) (NvBufSurface *surf, int index);
  int (*unmap_egl_image) (NvBufSurface *surf, int index);
  int (*sync_for_device) (NvBufSurface *surf, int index, int plane);
} TexelNvbufsurface;

typedef struct
{
  gboolean available;
  gchar *status;
  TexelNvbufsurface api;
} TexelNvmmLibrary;

static gboolean
texel_nvmm_symbols (GModule *module, TexelNvbufsurface *api)
{
  return g_module_symbol (module, "NvBufSurfaceCreate",
                          (gpointer *)&api->create)
         && g_module_symbol (module, "NvBufSurfaceDestroy",
                             (gpointer *)&api->destroy)
         && g_module_symbol (module, "NvBufSurfaceMapEglImage",
                             (gpointer *)&api->map_egl_image)
         && g_module_symbol (module, "NvBufSurfaceUnMapEglImage",
                             (gpointer *)&api->unmap_egl_image)
         && g_module_symbol (module, "NvBufSurfaceSyncForDevice",
                             (gpointer *)&api->sync_for_device);
}

/* Opens @path; on success the module stays loaded for the process. */
static gboolean
texel_nvmm_open (TexelNvmmLibrary *lib, const gchar *path, GString *why)
{
  GModule *module
      = g_module_open (path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);

  if (!module)
    {
      g_string_append_printf (why, "%s%s", why->len ? "; " : "",
                              g_module_error ());
      return FALSE;
    }
  if (!texel_nvmm_symbols (module, &lib->api))
    {
      g_string_append_printf (why, "%s%s lacks the NvBufSurface functions",
                              why->len ? "; " : "", path);
      g_module_close (module);
      return FALSE;
    }
  g_module_make_resident (module);
  lib->status = g_strdup_printf ("NVMM available (%s)", path);
  lib->available = TRUE;
  return TRUE;
}

static TexelNvmmLibrary *
texel_nvmm_library (void)
{
  static TexelNvmmLibrary lib;
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      const gchar *env = g_getenv ("GST_TEXEL_NVBUFSURFACE_LIBRARY");
      GString *why = g_string_new (NULL);
      guint i;

      if (env && *env)
        texel_nvmm_open (&lib, env, why);
      else
        env = NULL;
      for (i = 0;
           !env && !lib.available && i < G_N_ELEMENTS (nvbufsurface_paths); i++)
        texel_nvmm_open (&lib, nvbufsurface_paths[i], why);
      if (!lib.available)
        lib.status = g_strdup_printf ("NVMM unavailable: no libnvbufsurface "
                                      "(%s)",
                                      why->str);
      g_string_free (why, TRUE);
      GST_INFO ("%s", lib.status);
      g_once_init_leave (&loaded, 1);
    }
  return &lib;
}

gboolean
gst_texel_nvmm_available (const gchar **status)
{
  TexelNvmmLibrary *lib = texel_nvmm_library ();

  if (status)
    *status = lib->status;
  return lib->available;
}

static gboolean
texel_features_nvmm (GstCapsFeatures *features)
{
  return gst_texel_features_have (features, GST_TEXEL_CAPS_FEATURE_NVMM);
}

gboolean
gst_texel_caps_nvmm (GstCaps *caps)
{
  return gst_texel_caps_in_memory (caps, GST_TEXEL_CAPS_FEATURE_NVMM);
}

/* @caps (transfer full) without its NVMM structures. */
static GstCaps *
texel_caps_drop_nvmm (GstCaps *caps)
{
  GstCaps *result = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    if (!texel_features_nvmm (gst_caps_get_features (caps, i)))
      result = gst_caps_merge_structure_full (
          result, gst_structure_copy (gst_caps_get_structure (caps, i)),
          gst_caps_features_copy (gst_caps_get_features (caps, i)));
  gst_caps_unref (caps);
  return result;
}

/* @caps (transfer full) followed by the twin of each structure in system
 * memory or NVMM in the other: every texel format has an NvBufSurface
 * colour format. */
static GstCaps *
texel_caps_add_nvmm (GstCaps *caps)
{
  GstCaps *twins = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      GstCapsFeatures *f = gst_caps_get_features (caps, i);
      const gchar *other = NULL;

      if (gst_caps_features_is_equal (f,
                                      GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
        other = GST_TEXEL_CAPS_FEATURE_NVMM;
      else if (texel_features_nvmm (f) && gst_caps_features_get_size (f) == 1)
        other = GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY;
      if (other)
        twins = gst_caps_merge_structure_full (
            twins, gst_structure_copy (gst_caps_get_structure (caps, i)),
            gst_caps_features_new (other, NULL));
    }
  return gst_caps_merge (caps, twins);
}

/* GST_TEXEL_NVMM: 1 offers NVMM on every path, 0 on none; -1 (unset):
 * where the element reads NVMM for real. */
static gint
texel_nvmm_forced (void)
{
  const gchar *env = g_getenv ("GST_TEXEL_NVMM");

  if (!env || !*env)
    return -1;
  return g_ascii_strcasecmp (env, "0") != 0
         && g_ascii_strcasecmp (env, "off") != 0;
}

gboolean
gst_texel_nvmm_offered (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  gint forced = texel_nvmm_forced ();
  gboolean offered;

  if (!gst_texel_nvmm_available (NULL) || forced == 0)
    return FALSE;
  if (forced == 1)
    return TRUE;
  GST_OBJECT_LOCK (self);
  if (priv->active_backend == GST_TEXEL_BACKEND_AUTO)
    offered = priv->backend != GST_TEXEL_BACKEND_CPU;
  else
    offered = priv->cuda != NULL && !priv->integrated && !priv->cuda_context;
  GST_OBJECT_UNLOCK (self);
  return offered;
}

GstCaps *
gst_texel_nvmm_transform_caps (GstTexelBase *self, GstCaps *result)
{
  if (gst_caps_is_any (result) || gst_caps_is_empty (result))
    return result;
  if (!gst_texel_nvmm_offered (self))
    return texel_caps_drop_nvmm (result);
  return texel_caps_add_nvmm (result);
}

gboolean
gst_texel_nvmm_caps_query (GstTexelBase *self, GstQuery *query)
{
  GstCaps *caps;

  if (gst_texel_nvmm_offered (self))
    return FALSE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    {
      gst_query_parse_accept_caps (query, &caps);
      if (!gst_texel_caps_have_memory (caps, GST_TEXEL_CAPS_FEATURE_NVMM))
        return FALSE;
      gst_query_set_accept_caps_result (query, FALSE);
      return TRUE;
    }
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS)
    {
      gst_query_parse_caps_result (query, &caps);
      if (gst_texel_caps_have_memory (caps, GST_TEXEL_CAPS_FEATURE_NVMM))
        {
          caps = texel_caps_drop_nvmm (gst_caps_ref (caps));
          gst_query_set_caps_result (query, caps);
          gst_caps_unref (caps);
        }
    }
  return FALSE;
}

gboolean
gst_texel_nvmm_allocation_caps (GstQuery *query)
{
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  return gst_texel_caps_nvmm (caps);
}

void
gst_texel_nvmm_propose_allocation (GstQuery *query)
{
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
}

/* The NvBufSurface colour formats of each texel format's memory layout,
 * the one the element creates first (NVIDIA's elements call NV12_10LE
 * P010_10LE in their caps); the _ER / _709 / _2020 variants differ only in
 * what the caps' colorimetry says. */
static const struct
{
  GstVideoFormat format;
  NvBufSurfaceColorFormat colors[5]; /* up to the first INVALID (0) */
} texel_nvmm_formats[] = {
  { GST_VIDEO_FORMAT_GRAY8, { NVBUF_COLOR_FORMAT_GRAY8 } },
  { GST_VIDEO_FORMAT_I420,
    { NVBUF_COLOR_FORMAT_YUV420, NVBUF_COLOR_FORMAT_YUV420_ER,
      NVBUF_COLOR_FORMAT_YUV420_709, NVBUF_COLOR_FORMAT_YUV420_709_ER,
      NVBUF_COLOR_FORMAT_YUV420_2020 } },
  { GST_VIDEO_FORMAT_YV12,
    { NVBUF_COLOR_FORMAT_YVU420, NVBUF_COLOR_FORMAT_YVU420_ER } },
  { GST_VIDEO_FORMAT_NV12,
    { NVBUF_COLOR_FORMAT_NV12, NVBUF_COLOR_FORMAT_NV12_ER,
      NVBUF_COLOR_FORMAT_NV12_709, NVBUF_COLOR_FORMAT_NV12_709_ER,
      NVBUF_COLOR_FORMAT_NV12_2020 } },
  { GST_VIDEO_FORMAT_NV21,
    { NVBUF_COLOR_FORMAT_NV21, NVBUF_COLOR_FORMAT_NV21_ER } },
  { GST_VIDEO_FORMAT_UYVY,
    { NVBUF_COLOR_FORMAT_UYVY, NVBUF_COLOR_FORMAT_UYVY_ER } },
  { GST_VIDEO_FORMAT_YUY2,
    { NVBUF_COLOR_FORMAT_YUYV, NVBUF_COLOR_FORMAT_YUYV_ER } },
  { GST_VIDEO_FORMAT_P010_10LE,
    { NVBUF_COLOR_FORMAT_NV12_10LE, NVBUF_COLOR_FORMAT_NV12_10LE_ER,
      NVBUF_COLOR_FORMAT_NV12_10LE_709, NVBUF_COLOR_FORMAT_NV12_10LE_709_ER,
      NVBUF_COLOR_FORMAT_NV12_10LE_2020 } },
  { GST_VIDEO_FORMAT_RGBA, { NVBUF_COLOR_FORMAT_RGBA } },
  { GST_VIDEO_FORMAT_BGRA, { NVBUF_COLOR_FORMAT_BGRA } },
  { GST_VIDEO_FORMAT_ARGB, { NVBUF_COLOR_FORMAT_ARGB } },
  { GST_VIDEO_FORMAT_ABGR, { NVBUF_COLOR_FORMAT_ABGR } },
  { GST_VIDEO_FORMAT_RGBx, { NVBUF_COLOR_FORMAT_RGBx } },
  { GST_VIDEO_FORMAT_BGRx, { NVBUF_COLOR_FORMAT_BGRx } },
  { GST_VIDEO_FORMAT_RGB, { NVBUF_COLOR_FORMAT_RGB } },
  { GST_VIDEO_FORMAT_BGR, { NVBUF_COLOR_FORMAT_BGR } },
};

/* The colour formats of @format's layout, or NULL. */
static const NvBufSurfaceColorFormat *
texel_nvmm_colors (GstVideoFormat format)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (texel_nvmm_formats); i++)
    if (texel_nvmm_formats[i].format == format)
      return texel_nvmm_formats[i].colors;
  return NULL;
}

/* Whether a surface of @color holds frames of @format. */
static gboolean
texel_nvmm_format_matches (GstVideoFormat format, NvBufSurfaceColorFormat c)
{
  const NvBufSurfaceColorFormat *colors = texel_nvmm_colors (format);
  guint i;

  for (i = 0; colors && i < G_N_ELEMENTS (texel_nvmm_formats[0].colors)
              && colors[i] != NVBUF_COLOR_FORMAT_INVALID;
       i++)
    if (colors[i] == c)
      return TRUE;
  return FALSE;
}

static const gchar *
texel_nvmm_mem_type_name (NvBufSurfaceMemType type)
{
  static const gchar *const names[]
      = { "NVBUF_MEM_DEFAULT",       "NVBUF_MEM_CUDA_PINNED",
          "NVBUF_MEM_CUDA_DEVICE",   "NVBUF_MEM_CUDA_UNIFIED",
          "NVBUF_MEM_SURFACE_ARRAY", "NVBUF_MEM_HANDLE",
          "NVBUF_MEM_SYSTEM" };

  return (guint)type < G_N_ELEMENTS (names) ? names[type] : "unknown";
}

/* The memory type the planes are in: NVBUF_MEM_DEFAULT is CUDA device
 * memory on a discrete GPU and a surface array on a Jetson, whose planes
 * have no dataPtr. */
static NvBufSurfaceMemType
texel_nvmm_mem_type (const NvBufSurface *surf, const NvBufSurfaceParams *p)
{
  if (surf->memType != NVBUF_MEM_DEFAULT)
    return surf->memType;
  return p->dataPtr ? NVBUF_MEM_CUDA_DEVICE : NVBUF_MEM_SURFACE_ARRAY;
}

/* Why the planes of @type cannot be read where the element works
 * (@device: its CUDA device, -1 for the CPU), or NULL. Pinned and unified
 * memory are reachable from both. */
static gchar *
texel_nvmm_mem_type_problem (const NvBufSurface *surf, NvBufSurfaceMemType type,
                             gint device)
{
  switch (type)
    {
      case NVBUF_MEM_CUDA_PINNED:
      case NVBUF_MEM_CUDA_UNIFIED:
        return NULL;
      case NVBUF_MEM_CUDA_DEVICE:
        if (device < 0)
          return g_strdup ("NVBUF_MEM_CUDA_DEVICE surfaces are read on the GPU "
                           "only, and this element runs on the CPU");
        if (surf->gpuId != (guint)device)
          return g_strdup_printf ("the surface is on GPU %u, the element on "
                                  "CUDA device %d (set device-id=%u)",
                                  surf->gpuId, device, surf->gpuId);
        return NULL;
      case NVBUF_MEM_SYSTEM:
        if (device >= 0)
          return g_strdup (
              "NVBUF_MEM_SYSTEM surfaces are read on the CPU path "
              "only (backend=cpu); use CUDA memory (nvbuf-memory-type)");
        return NULL;
      case NVBUF_MEM_SURFACE_ARRAY:
        if (device < 0)
          return g_strdup ("NVBUF_MEM_SURFACE_ARRAY surfaces are read on the "
                           "GPU only, and this element runs on the CPU");
        if (!HAVE_NVMM_EGL)
          return g_strdup ("NVBUF_MEM_SURFACE_ARRAY surfaces are read through "
                           "EGL, and this build has no EGL headers");
        return NULL;
      default:
        return g_strdup_printf (
            "%s surfaces are not read: convert to NVBUF_MEM_CUDA_UNIFIED or "
            "_DEVICE first, e.g. nvvideoconvert nvbuf-memory-type=3",
            texel_nvmm_mem_type_name (type));
    }
}

/* Why plane @p of @params cannot hold plane @p of a frame of @info, or
 * NULL: every row the kernels read must lie in the surface's memory. */
static gchar *
texel_nvmm_plane_problem (const NvBufSurfaceParams *params,
                          const GstVideoInfo *info, guint p)
{
  TexelFormat format
      = gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (info));
  const NvBufSurfacePlaneParams *pp = &params->planeParams;
  guint64 row = texel_plane_row_bytes (format, p, GST_VIDEO_INFO_WIDTH (info));
  guint64 rows = texel_plane_height (format, p, GST_VIDEO_INFO_HEIGHT (info));

  if (pp->pitch[p] < row || pp->height[p] < rows
      || (guint64)pp->offset[p] + (guint64)pp->pitch[p] * (rows - 1) + row
             > params->dataSize)
    return g_strdup_printf ("plane %u (offset %u, pitch %u, %u rows) cannot "
                            "hold %" G_GUINT64_FORMAT
                            " rows of %" G_GUINT64_FORMAT " bytes in "
                            "its %u-byte surface",
                            p, pp->offset[p], pp->pitch[p], pp->height[p], rows,
                            row, params->dataSize);
  return NULL;
}

/* Why @surf cannot be read as a frame of @info by an element on @device
 * (-1: the CPU), or NULL. */
static gchar *
texel_nvmm_surface_problem (const NvBufSurface *surf, const GstVideoInfo *info,
                            gint device)
{
  const NvBufSurfaceParams *params = surf->surfaceList;
  gchar *why;
  guint p;

  if (surf->batchSize != 1 || surf->numFilled > 1)
    return g_strdup_printf (
        "a batch of %u surfaces (%u filled): texel "
        "elements take one frame per buffer (nvstreamdemux splits a batch)",
        surf->batchSize, surf->numFilled);
  if (!params)
    return g_strdup ("the NvBufSurface has no surface list");
  if (params->layout != NVBUF_LAYOUT_PITCH)
    return g_strdup ("block-linear surfaces are not read yet: ask for "
                     "pitch-linear ones (nvvideoconvert bl-output=false)");
  if ((why = texel_nvmm_mem_type_problem (
           surf, texel_nvmm_mem_type (surf, params), device))
      != NULL)
    return why;
  if (!texel_nvmm_format_matches (GST_VIDEO_INFO_FORMAT (info),
                                  params->colorFormat))
    return g_strdup_printf ("its colour format %d is not the caps' %s",
                            params->colorFormat, GST_VIDEO_INFO_NAME (info));
  if (params->width < (guint)GST_VIDEO_INFO_WIDTH (info)
      || params->height < (guint)GST_VIDEO_INFO_HEIGHT (info))
    return g_strdup_printf ("a %ux%u surface for %dx%d caps", params->width,
                            params->height, GST_VIDEO_INFO_WIDTH (info),
                            GST_VIDEO_INFO_HEIGHT (info));
  if (!params->dataPtr
      && texel_nvmm_mem_type (surf, params) != NVBUF_MEM_SURFACE_ARRAY)
    return g_strdup ("the surface has no data pointer");
  if (params->planeParams.num_planes != GST_VIDEO_INFO_N_PLANES (info))
    return g_strdup_printf (
        "%u planes, %s has %u", params->planeParams.num_planes,
        GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_N_PLANES (info));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    if ((why = texel_nvmm_plane_problem (params, info, p)) != NULL)
      return why;
  return NULL;
}

/* Where the planes of a surface are: @data and @stride for each. */
typedef struct
{
  guint8 *data[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
} TexelNvmmPlanes;

#if HAVE_NVMM_EGL
/* A surface array (a Jetson's NVMM) seen by CUDA: its EGL image
 * registered, the EGL frame's planes. Made once per surface and cached on
 * the memory that maps to it (a camera's or a decoder's pool cycles
 * through a few), released with that memory: unregistered, EGL image
 * unmapped. Registered in the CUDA runtime's current context of the
 * streaming thread: a Jetson's one device's primary context (builds with
 * GStreamer's CUDA library do not offer NVMM, see
 * gst_texel_nvmm_offered). */
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
  texel_nvmm_library ()->api.unmap_egl_image (egl->surf, 0);
  g_free (egl);
}

static TexelNvmmEgl *
texel_nvmm_egl_register (NvBufSurface *surf, gchar **why)
{
  TexelNvmmEgl *egl = g_new0 (TexelNvmmEgl, 1);
  int err;

  egl->surf = surf;
  err = texel_nvmm_library ()->api.map_egl_image (surf, 0);
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

/* The planes of surface array @surf, mapped from @mem, checked against
 * frames of @info. */
static gchar *
texel_nvmm_egl_planes (GstMemory *mem, NvBufSurface *surf,
                       const GstVideoInfo *info, TexelNvmmPlanes *planes)
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
#else
static gchar *
texel_nvmm_egl_planes (GstMemory *mem, NvBufSurface *surf,
                       const GstVideoInfo *info, TexelNvmmPlanes *planes)
{
  return g_strdup ("built without EGL");
}
#endif

/* The planes of @surf (checked), mapped from @mem: pointers into its
 * memory, or a surface array's EGL frame. */
static gchar *
texel_nvmm_planes (GstMemory *mem, NvBufSurface *surf, const GstVideoInfo *info,
                   TexelNvmmPlanes *planes)
{
  const NvBufSurfaceParams *params = surf->surfaceList;
  guint p;

  if (texel_nvmm_mem_type (surf, params) == NVBUF_MEM_SURFACE_ARRAY)
    return texel_nvmm_egl_planes (mem, surf, info, planes);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    {
      planes->data[p]
          = (guint8 *)params->dataPtr + params->planeParams.offset[p];
      planes->stride[p] = params->planeParams.pitch[p];
    }
  return NULL;
}

/* @frame as gst_video_frame_map would give it, its planes @planes (the
 * offsets @params's): the one map of @buffer's memory (the NvBufSurface
 * itself) is what gst_video_frame_unmap releases. */
static void
texel_nvmm_fill_frame (GstVideoFrame *frame, GstVideoInfo *info,
                       GstBuffer *buffer, const NvBufSurfaceParams *params,
                       const TexelNvmmPlanes *planes, gboolean device)
{
  guint p;

  frame->info = *info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    {
      frame->info.offset[p] = params->planeParams.offset[p];
      frame->info.stride[p] = planes->stride[p];
      frame->data[p] = planes->data[p];
    }
  frame->flags = GST_TEXEL_FRAME_FLAG_NVMM
                 | (device ? GST_TEXEL_FRAME_FLAG_NVMM_DEVICE : 0);
  frame->buffer = gst_buffer_ref (buffer);
}

GstTexelNvmmMap
gst_texel_nvmm_map_frame (GstElement *element, GstVideoFrame *frame,
                          GstVideoInfo *info, GstBuffer *buffer,
                          gboolean caps_nvmm, gint device)
{
  NvBufSurface *surf;
  TexelNvmmPlanes planes;
  gchar *why = NULL;

  if (!caps_nvmm)
    return GST_TEXEL_NVMM_NOT_NVMM;
  memset (frame, 0, sizeof (*frame));
  if (gst_buffer_n_memory (buffer) != 1
      || !gst_buffer_map (buffer, &frame->map[0], GST_MAP_READ))
    why = g_strdup ("not one memory that maps");
  else if (frame->map[0].size < sizeof (NvBufSurface))
    why = g_strdup_printf ("%" G_GSIZE_FORMAT " bytes, less than an "
                           "NvBufSurface",
                           frame->map[0].size);
  surf = why ? NULL : (NvBufSurface *)frame->map[0].data;
  if (surf && (why = texel_nvmm_surface_problem (surf, info, device)) == NULL
      && (why = texel_nvmm_planes (frame->map[0].memory, surf, info, &planes))
             == NULL)
    {
      texel_nvmm_fill_frame (frame, info, buffer, surf->surfaceList, &planes,
                             device >= 0);
      return GST_TEXEL_NVMM_MAPPED;
    }
  if (frame->map[0].memory)
    gst_buffer_unmap (buffer, &frame->map[0]);
  GST_ELEMENT_ERROR (element, STREAM, FORMAT,
                     ("Cannot read this memory:NVMM buffer: %s", why),
                     ("%" GST_PTR_FORMAT, buffer));
  g_free (why);
  return GST_TEXEL_NVMM_FAILED;
}

gboolean
gst_texel_nvmm_frame (const GstVideoFrame *frame)
{
  return (frame->flags & GST_TEXEL_FRAME_FLAG_NVMM) != 0;
}

GstTexelFrameMemory
gst_texel_nvmm_frames_memory (const GstVideoFrame *in, const GstVideoFrame *out)
{
  GstTexelFrameMemory memory = GST_TEXEL_FRAMES_HOST;

  if (in->flags & GST_TEXEL_FRAME_FLAG_NVMM_DEVICE)
    memory |= GST_TEXEL_IN_DEVICE;
  if (out->flags & GST_TEXEL_FRAME_FLAG_NVMM_DEVICE)
    memory |= GST_TEXEL_OUT_DEVICE;
  return memory;
}

/* NVMM output: a pool of NvBufSurfaces made by libnvbufsurface, one per
 * buffer, as NVIDIA's elements hand them on (the buffer's one memory maps
 * to the surface). Pitch-linear; on a discrete GPU in CUDA device memory
 * (DeepStream's), on an integrated one (a Jetson, whose encoders and
 * display take surface arrays) a surface array written through its EGL
 * frame like an input's (not yet run), on the CPU path system memory. */
#define TEXEL_TYPE_NVMM_POOL (texel_nvmm_pool_get_type ())
G_DECLARE_FINAL_TYPE (TexelNvmmPool, texel_nvmm_pool, TEXEL, NVMM_POOL,
                      GstBufferPool)

struct _TexelNvmmPool
{
  GstBufferPool parent;
  NvBufSurfaceCreateParams params;
};

G_DEFINE_TYPE (TexelNvmmPool, texel_nvmm_pool, GST_TYPE_BUFFER_POOL)

static gboolean
texel_nvmm_pool_set_config (GstBufferPool *pool, GstStructure *config)
{
  TexelNvmmPool *self = TEXEL_NVMM_POOL (pool);
  const NvBufSurfaceColorFormat *colors;
  GstCaps *caps = NULL;
  GstVideoInfo info;

  if (!gst_buffer_pool_config_get_params (config, &caps, NULL, NULL, NULL)
      || !caps || !gst_video_info_from_caps (&info, caps)
      || !(colors = texel_nvmm_colors (GST_VIDEO_INFO_FORMAT (&info))))
    return FALSE;
  self->params.width = GST_VIDEO_INFO_WIDTH (&info);
  self->params.height = GST_VIDEO_INFO_HEIGHT (&info);
  self->params.colorFormat = colors[0];
  self->params.layout = NVBUF_LAYOUT_PITCH;
  return GST_BUFFER_POOL_CLASS (texel_nvmm_pool_parent_class)
      ->set_config (pool, config);
}

static void
texel_nvmm_destroy (gpointer surf)
{
  texel_nvmm_library ()->api.destroy (surf);
}

static GstFlowReturn
texel_nvmm_pool_alloc_buffer (GstBufferPool *pool, GstBuffer **buffer,
                              GstBufferPoolAcquireParams *params)
{
  TexelNvmmPool *self = TEXEL_NVMM_POOL (pool);
  NvBufSurfaceCreateParams create = self->params;
  NvBufSurface *surf = NULL;
  int err = texel_nvmm_library ()->api.create (&surf, 1, &create);

  if (err != 0 || !surf)
    {
      GST_WARNING_OBJECT (pool,
                          "NvBufSurfaceCreate (%ux%u, colour format "
                          "%d, %s, GPU %u) failed: %d",
                          create.width, create.height, create.colorFormat,
                          texel_nvmm_mem_type_name (create.memType),
                          create.gpuId, err);
      return GST_FLOW_ERROR;
    }
  surf->numFilled = 1;
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (
      *buffer,
      gst_memory_new_wrapped (0, surf, sizeof (NvBufSurface), 0,
                              sizeof (NvBufSurface), surf, texel_nvmm_destroy));
  return GST_FLOW_OK;
}

static void
texel_nvmm_pool_class_init (TexelNvmmPoolClass *klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  pool_class->set_config = texel_nvmm_pool_set_config;
  pool_class->alloc_buffer = texel_nvmm_pool_alloc_buffer;
}

static void
texel_nvmm_pool_init (TexelNvmmPool *self)
{
}

gboolean
gst_texel_nvmm_decide_allocation (GstTexelBase *self, GstQuery *query)
{
  GstTexelBasePrivate *priv = PRIV (self);
  gint device = priv->cuda ? priv->active_device : -1;
  guint min = gst_texel_base_pool_min (self);
  TexelNvmmPool *pool;
  GstStructure *config;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  pool = g_object_new (TEXEL_TYPE_NVMM_POOL, NULL);
  gst_object_ref_sink (pool);
  if (device < 0)
    pool->params.memType = NVBUF_MEM_SYSTEM;
  else if (priv->integrated && HAVE_NVMM_EGL)
    pool->params.memType = NVBUF_MEM_SURFACE_ARRAY;
  else
    pool->params.memType = NVBUF_MEM_CUDA_DEVICE;
  pool->params.gpuId = MAX (device, 0);
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (pool));
  gst_buffer_pool_config_set_params (config, caps, sizeof (NvBufSurface), min,
                                     0);
  if (!gst_buffer_pool_set_config (GST_BUFFER_POOL (pool), config))
    {
      GST_WARNING_OBJECT (self, "no NVMM pool for %" GST_PTR_FORMAT, caps);
      gst_object_unref (pool);
      return FALSE;
    }
  /* Ours, whatever downstream offered: its surfaces (a surface array on a
   * Jetson) may be memory the kernels cannot write. */
  while (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  gst_query_add_allocation_pool (query, GST_BUFFER_POOL (pool),
                                 sizeof (NvBufSurface), min, 0);
  gst_object_unref (pool);
  return TRUE;
}
