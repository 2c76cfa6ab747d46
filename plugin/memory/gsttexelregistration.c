/* gst-texel: host memory the device reaches in place: our pinned pools'
 * (gsttexelhostmemory.c), and foreign memory registered with
 * cudaHostRegister the second time it is seen, cached on the GstMemory
 * itself and unregistered when the memory is freed. Built only with CUDA
 * (have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "device/gsttexelcuda-private.h"
#include "memory/gsttexelhostmemory.h"
#include "memory/gsttexelregistration.h"

#define GST_CAT_DEFAULT gst_texel_cuda_debug

/* A foreign GstMemory registered with cudaHostRegister: qdata of the
 * memory, so it lives as long as the memory, whichever element or thread
 * frees it. Written only by the streaming thread of the element that maps
 * the memory for a frame (a memory in two elements' frames at once is
 * read-only there, and the first to register it wins). */
typedef struct
{
  gint device;
  GstCudaContext *context; /* where it was registered */
  guint seen;
  gboolean registered;
  gboolean failed;
  guint8 *host;
  gsize size;
  guint8 *device_ptr;
} TexelRegistration;

static GQuark
texel_registration_quark (void)
{
  static gsize quark = 0;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark,
                       g_quark_from_static_string ("gst-texel-registration"));
  return (GQuark)quark;
}

static void
texel_registration_free (gpointer data)
{
  TexelRegistration *reg = data;
  int prev;

  if (reg->registered)
    {
      gst_texel_cuda_context_enter (reg->context, reg->device, &prev);
      cudaHostUnregister (reg->host);
      gst_texel_cuda_context_leave (reg->context, prev);
    }
  /* The registration belongs to the context: it lives until here. */
  if (reg->context)
    gst_object_unref (reg->context);
  g_free (reg);
}

static void
texel_try_register (TexelRegistration *reg, GstMapInfo *map,
                    GstCudaContext *context, guint64 *registrations)
{
  cudaError_t e;

  e = TEXEL_FAULTY (
      TEXEL_FAULT_REGISTER,
      cudaHostRegister (map->data, map->size,
                        cudaHostRegisterMapped | cudaHostRegisterPortable));
  if (e == cudaSuccess)
    e = cudaHostGetDevicePointer ((void **)&reg->device_ptr, map->data, 0);
  if (e != cudaSuccess)
    {
      /* Overlapping an existing registration, read-only pages, ...: not an
       * error, this memory is staged instead. Clear the error state. */
      GST_DEBUG ("cannot register %p (%" G_GSIZE_FORMAT " bytes): %s",
                 map->data, map->size, cudaGetErrorString (e));
      cudaGetLastError ();
      reg->failed = TRUE;
      return;
    }
  reg->registered = TRUE;
  reg->host = map->data;
  reg->size = map->size;
  reg->context = context ? gst_object_ref (context) : NULL;
  (*registrations)++;
}

/* Device address of a plane at @host in the memory of @map, or NULL when
 * that memory is not (yet) device-accessible. Foreign memory is registered
 * the second time it is seen: memory that comes back (a pool, a ring) is
 * worth it, a one-off buffer is cheaper to copy. */
static guint8 *
texel_plane_device_pointer (GstMapInfo *map, const guint8 *host, gint device,
                            GstCudaContext *context, guint64 *registrations)
{
  GstMemory *mem = map->memory;
  TexelRegistration *reg;

  if (!mem)
    return NULL;
  if (gst_is_texel_host_memory (mem))
    return gst_texel_host_memory_device_pointer (mem, host);
  reg = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
                                   texel_registration_quark ());
  if (!reg)
    {
      reg = g_new0 (TexelRegistration, 1);
      reg->device = device;
      gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem),
                                 texel_registration_quark (), reg,
                                 texel_registration_free);
    }
  if (!reg->registered && !reg->failed && ++reg->seen >= 2)
    texel_try_register (reg, map, context, registrations);
  if (reg->registered && host >= reg->host && host < reg->host + reg->size)
    return reg->device_ptr + (host - reg->host);
  return NULL;
}

gboolean
gst_texel_frame_device_view (GstVideoFrame *frame, const TexelImage *host,
                             gint device, GstCudaContext *context,
                             guint64 *registrations, TexelImage *dev)
{
  const TexelFormatDesc *desc = texel_format_desc (host->format);
  int p;

  *dev = *host;
  for (p = 0; p < desc->n_planes; p++)
    {
      GstMapInfo *map = &frame->map[frame->meta ? p : 0];

      dev->data[p] = texel_plane_device_pointer (map, host->data[p], device,
                                                 context, registrations);
      if (!dev->data[p])
        return FALSE;
    }
  return TRUE;
}
