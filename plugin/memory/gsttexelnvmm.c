/* gst-texel: memory:NVMM (NvBufSurface) frames: libnvbufsurface loaded at
 * run time, NVMM caps, surfaces checked and mapped in place (gsttexelnvmm.h;
 * docs/design.md, "NVMM"; the output pool in gsttexelnvmmpool.c, surface
 * arrays' EGL frames in gsttexelnvmmegl.c).
 *
 * An NVMM buffer holds one memory whose map gives the NvBufSurface, not
 * the pixels (NVIDIA's nvvidconv, nvv4l2decoder, nvarguscamerasrc and
 * DeepStream's elements all hand it so): the planes are where the
 * surface's parameters say. On a discrete GPU (DeepStream) they are CUDA
 * device, pinned or unified memory, which the kernels read and write in
 * place; the CPU path reads the host-accessible kinds (system, pinned,
 * unified). A Jetson's surface arrays are reached through their EGL
 * frames (gsttexelnvmmegl.c: a CUDA array frame through a pitched device
 * copy; run on the H100 with the test stand-in's GL textures, not yet on
 * a Jetson). Block-linear surfaces other than surface arrays and batches
 * of more than one surface are refused with a message saying so.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gmodule.h>

#include "memory/gsttexelnvmm-private.h"

#define GST_CAT_DEFAULT (gst_texel_memory_debug ())

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

/* The library, one per process: every field written once, by the first
 * thread to ask (texel_nvmm_library's g_once), read-only afterwards from
 * any thread. */
typedef struct
{
  gboolean available;
  gchar *status;
  GstTexelNvbufsurface api;
} TexelNvmmLibrary;

static gboolean
texel_nvmm_symbols (GModule *module, GstTexelNvbufsurface *api)
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

const GstTexelNvbufsurface *
gst_texel_nvmm_api (void)
{
  return &texel_nvmm_library ()->api;
}

gboolean
gst_texel_caps_nvmm (GstCaps *caps)
{
  return gst_texel_caps_in_memory (caps, GST_TEXEL_CAPS_FEATURE_NVMM);
}

gint
gst_texel_nvmm_forced (void)
{
  const gchar *env = g_getenv ("GST_TEXEL_NVMM");

  if (!env || !*env)
    return -1;
  return g_ascii_strcasecmp (env, "0") != 0
         && g_ascii_strcasecmp (env, "off") != 0;
}

GstCaps *
gst_texel_nvmm_transform_caps (GstCaps *result, gboolean offered)
{
  return gst_texel_caps_memory_twins (result, GST_TEXEL_CAPS_FEATURE_NVMM,
                                      offered);
}

gboolean
gst_texel_nvmm_caps_query (GstQuery *query, gboolean offered)
{
  if (offered)
    return FALSE;
  return gst_texel_caps_query_refuse_memory (query,
                                             GST_TEXEL_CAPS_FEATURE_NVMM);
}

/* The NvBufSurface colour formats of each texel format's memory layout,
 * the one the element creates first (NVIDIA's elements call NV12_10LE
 * P010_10LE in their caps); the _ER / _709 / _2020 variants differ only in
 * what the caps' colorimetry says. */
static const struct
{
  GstVideoFormat format;
  /* up to the first INVALID (0) */
  NvBufSurfaceColorFormat colors[GST_TEXEL_NVMM_MAX_COLORS];
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

const NvBufSurfaceColorFormat *
gst_texel_nvmm_colors (GstVideoFormat format)
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
  const NvBufSurfaceColorFormat *colors = gst_texel_nvmm_colors (format);
  guint i;

  for (i = 0; colors && i < GST_TEXEL_NVMM_MAX_COLORS
              && colors[i] != NVBUF_COLOR_FORMAT_INVALID;
       i++)
    if (colors[i] == c)
      return TRUE;
  return FALSE;
}

const gchar *
gst_texel_nvmm_mem_type_name (NvBufSurfaceMemType type)
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
            gst_texel_nvmm_mem_type_name (type));
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
  /* A block-linear surface array's EGL frame is a CUDA array, which
   * gsttexelnvmmegl.c reads; other block-linear memory is not read. */
  if (params->layout != NVBUF_LAYOUT_PITCH
      && texel_nvmm_mem_type (surf, params) != NVBUF_MEM_SURFACE_ARRAY)
    return g_strdup ("block-linear surfaces are read as surface arrays "
                     "only: ask for pitch-linear ones (nvvideoconvert "
                     "bl-output=false)");
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

/* The planes of @surf (checked), mapped from @mem: pointers into its
 * memory, or a surface array's EGL frame. */
static gchar *
texel_nvmm_planes (GstMemory *mem, NvBufSurface *surf, const GstVideoInfo *info,
                   GstTexelNvmmPlanes *planes)
{
  const NvBufSurfaceParams *params = surf->surfaceList;
  guint p;

  if (texel_nvmm_mem_type (surf, params) == NVBUF_MEM_SURFACE_ARRAY)
    return gst_texel_nvmm_egl_planes (mem, surf, info, planes);
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
                       const GstTexelNvmmPlanes *planes, gboolean device)
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
                 | (device ? GST_TEXEL_FRAME_FLAG_NVMM_DEVICE : 0)
                 | (planes->array ? GST_TEXEL_FRAME_FLAG_NVMM_ARRAY : 0);
  frame->buffer = gst_buffer_ref (buffer);
}

GstTexelNvmmMap
gst_texel_nvmm_map_frame (GstElement *element, GstVideoFrame *frame,
                          GstVideoInfo *info, GstBuffer *buffer,
                          gboolean caps_nvmm, gint device,
                          guint64 *registrations)
{
  NvBufSurface *surf;
  GstTexelNvmmPlanes planes = { { NULL } };
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
      if (planes.registered)
        (*registrations)++;
      return GST_TEXEL_NVMM_MAPPED;
    }
  if (planes.registered)
    (*registrations)++;
  if (frame->map[0].memory)
    gst_buffer_unmap (buffer, &frame->map[0]);
  GST_ELEMENT_ERROR (element, STREAM, FORMAT,
                     ("Cannot read this memory:NVMM buffer: %s", why),
                     ("%" GST_PTR_FORMAT, buffer));
  g_free (why);
  return GST_TEXEL_NVMM_FAILED;
}
