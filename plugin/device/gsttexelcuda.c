/* gst-texel: the GPU path's device: detection, and the CUDA context an
 * element works in, entered and left around every CUDA call. Built only
 * with CUDA (have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "device/gsttexelcuda-private.h"
#include "texel-cuda.h"
#if HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#endif

GST_DEBUG_CATEGORY (gst_texel_cuda_debug);
#define GST_CAT_DEFAULT gst_texel_cuda_debug

void
gst_texel_cuda_debug_init (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      GST_DEBUG_CATEGORY_INIT (gst_texel_cuda_debug, "texelcuda", 0,
                               "gst-texel CUDA memory strategies");
      g_once_init_leave (&once, 1);
    }
}

#if HAVE_GST_CUDA
gboolean
gst_texel_cuda_context_push (GstCudaContext *context)
{
  return gst_cuda_context_push (context);
}

void
gst_texel_cuda_context_pop (void)
{
  gst_cuda_context_pop (NULL);
}
#endif

const gchar *
gst_texel_cuda_error_string (int err)
{
  return cudaGetErrorString ((cudaError_t)err);
}

/* Why CUDA found no device (@err, from counting them). Without any NVIDIA
 * driver (libcuda missing or a stub: the driver version is 0 or cannot be
 * read) CUDA says "CUDA driver version is insufficient for CUDA runtime
 * version", which sends users after a driver upgrade; a driver that is
 * there keeps CUDA's own text (too old, or no device). */
static const gchar *
gst_texel_cuda_no_device_reason (int err)
{
  int driver = 0;
  gboolean no_driver;

  if (err != cudaErrorInsufficientDriver && err != cudaErrorNoDevice
#if CUDART_VERSION >= 11010
      && err != cudaErrorStubLibrary
#endif
  )
    return texel_cuda_error_string (err);
  no_driver = cudaDriverGetVersion (&driver) != cudaSuccess || driver == 0;
  (void)cudaGetLastError ();
  return no_driver ? "no NVIDIA driver found" : texel_cuda_error_string (err);
}

gint
gst_texel_cuda_detect (gint device_id, gpointer caps_out, const gchar **reason,
                       int *err)
{
  TexelCudaCaps *caps = caps_out;
  int count = 0;
  int ret;

  gst_texel_cuda_debug_init ();
  *err = 0;
  ret = texel_cuda_device_count (&count);
  if (ret < 0 || count <= 0)
    {
      *err = ret < 0 ? -ret : 0;
      *reason
          = ret < 0 ? gst_texel_cuda_no_device_reason (-ret) : "no CUDA device";
      return 0;
    }
  if (device_id >= count)
    {
      *reason = "device-id is beyond the number of CUDA devices";
      return 0;
    }
  ret = texel_cuda_probe (device_id < 0 ? 0 : device_id, caps);
  if (ret != 0)
    {
      *err = ret;
      *reason = texel_cuda_error_string (ret);
      return 0;
    }
  return count;
}

/* What gst_texel_cuda_context_leave undoes: nothing, a pushed
 * GstCudaContext, or else the device to make current again. */
#define TEXEL_UNDO_NOTHING -1
#define TEXEL_UNDO_POP -2

/* The streaming thread belongs to the application: whatever it had
 * current is put back. The runtime API works in the driver context that is
 * current on the thread, so a pushed GstCudaContext is where our streams,
 * buffers, textures and kernels go; cudaSetDevice would replace it by the
 * primary context, so it is only called when another device is current. */
int
gst_texel_cuda_context_enter (GstCudaContext *context, gint device, int *undo)
{
  int current = -1;

  *undo = TEXEL_UNDO_NOTHING;
  if (context)
    {
      if (!gst_texel_cuda_context_push (context))
        return (int)cudaErrorDeviceUninitialized; /* no context bound */
      *undo = TEXEL_UNDO_POP;
      return 0;
    }
  if (cudaGetDevice (&current) == cudaSuccess && current == device)
    return 0;
  *undo = current;
  return (int)cudaSetDevice (device);
}

void
gst_texel_cuda_context_leave (GstCudaContext *context, int undo)
{
  if (undo == TEXEL_UNDO_POP)
    {
      gst_texel_cuda_context_pop ();
      return;
    }
  if (undo >= 0)
    cudaSetDevice (undo);
}
