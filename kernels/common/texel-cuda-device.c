/* gst-texel: CUDA device detection, behind the plain C API of texel-cuda.h.
 *
 * Only the runtime API is used, and nothing here changes global device
 * state (no cudaDeviceReset, no cudaSetDeviceFlags): the plugin may share
 * the process, and the primary context, with other CUDA users.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "texel-cuda.h"

/* texel_cuda_device_count() reports failures as negative values, so both
 * signs name the same cudaError_t. */
static cudaError_t
texel_cuda_error_from_int (int err)
{
  return (cudaError_t)(err < 0 ? -err : err);
}

const char *
texel_cuda_error_string (int err)
{
  return cudaGetErrorString (texel_cuda_error_from_int (err));
}

const char *
texel_cuda_error_name (int err)
{
  return cudaGetErrorName (texel_cuda_error_from_int (err));
}

int
texel_cuda_device_count (int *count)
{
  int n = 0;
  cudaError_t err = cudaGetDeviceCount (&n);

  if (err != cudaSuccess)
    {
      /* No device, no driver or a driver older than the runtime: for the
       * caller all of them mean "no GPU"; the code says which one it was.
       * Clear the sticky per-thread error so later calls do not see it. */
      (void)cudaGetLastError ();
      *count = 0;
      return -(int)err;
    }
  *count = n;
  return n;
}

static void
texel_cuda_caps_from_props (TexelCudaCaps *caps,
                            const struct cudaDeviceProp *props)
{
  snprintf (caps->name, sizeof (caps->name), "%s", props->name);
  caps->cc_major = props->major;
  caps->cc_minor = props->minor;
  caps->sm_count = props->multiProcessorCount;
  caps->integrated = props->integrated;
  caps->can_map_host_memory = props->canMapHostMemory;
  caps->async_engine_count = props->asyncEngineCount;
  caps->concurrent_kernels = props->concurrentKernels;
  caps->unified_addressing = props->unifiedAddressing;
  caps->pageable_memory_access = props->pageableMemoryAccess;
  caps->host_register_supported = props->hostRegisterSupported;
  caps->texture_alignment = props->textureAlignment;
  caps->texture_pitch_alignment = props->texturePitchAlignment;
  memcpy (caps->max_texture_2d_linear, props->maxTexture2DLinear,
          sizeof (caps->max_texture_2d_linear));
  caps->total_memory = props->totalGlobalMem;
}

int
texel_cuda_probe (int device, TexelCudaCaps *caps)
{
  struct cudaDeviceProp props;
  cudaError_t err;

  memset (caps, 0, sizeof (*caps));
  caps->device = device;

  err = cudaGetDeviceProperties (&props, device);
  if (err != cudaSuccess)
    return err;
  texel_cuda_caps_from_props (caps, &props);

  err = cudaDriverGetVersion (&caps->driver_version);
  if (err != cudaSuccess)
    return err;
  return cudaRuntimeGetVersion (&caps->runtime_version);
}
