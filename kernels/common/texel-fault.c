/* gst-texel: fault injection for tests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "texel-fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

#if TEXEL_FAULT_INJECTION

static const struct
{
  const char *name;
  cudaError_t error; /* what a real failure there returns */
} texel_fault_sites[TEXEL_FAULT_N_SITES] = {
  [TEXEL_FAULT_DEVICE_ALLOC] = { "device-alloc", cudaErrorMemoryAllocation },
  [TEXEL_FAULT_HOST_ALLOC] = { "host-alloc", cudaErrorMemoryAllocation },
  [TEXEL_FAULT_REGISTER] = { "register", cudaErrorHostMemoryAlreadyRegistered },
  [TEXEL_FAULT_COPY] = { "copy", cudaErrorUnknown },
  [TEXEL_FAULT_LAUNCH] = { "launch", cudaErrorLaunchFailure },
  [TEXEL_FAULT_TEXTURE] = { "texture", cudaErrorInvalidTexture },
  [TEXEL_FAULT_STREAM] = { "stream", cudaErrorMemoryAllocation },
  [TEXEL_FAULT_SYNC] = { "sync", cudaErrorLaunchTimeout },
};

static int texel_fault_site = -1;
static int texel_fault_nth;
static int texel_fault_calls;

void
texel_fault_configure (const char *spec)
{
  const char *colon;
  size_t len;
  int s, site = -1;

  __atomic_store_n (&texel_fault_calls, 0, __ATOMIC_SEQ_CST);
  if (spec && *spec)
    {
      colon = strchr (spec, ':');
      len = colon ? (size_t)(colon - spec) : strlen (spec);
      for (s = 0; s < TEXEL_FAULT_N_SITES; s++)
        if (strlen (texel_fault_sites[s].name) == len
            && strncmp (spec, texel_fault_sites[s].name, len) == 0)
          site = s;
      if (site < 0)
        fprintf (stderr, "gst-texel: GST_TEXEL_FAULT=%s names no site\n", spec);
      texel_fault_nth = colon ? atoi (colon + 1) : 1;
    }
  __atomic_store_n (&texel_fault_site, site, __ATOMIC_SEQ_CST);
}

int
texel_fault_hit (TexelFaultSite site)
{
  if (__atomic_load_n (&texel_fault_site, __ATOMIC_RELAXED) != (int)site)
    return 0;
  if (__atomic_add_fetch (&texel_fault_calls, 1, __ATOMIC_SEQ_CST)
      != texel_fault_nth)
    return 0;
  fprintf (stderr, "gst-texel: injected fault at %s (call %d)\n",
           texel_fault_sites[site].name, texel_fault_nth);
  return texel_fault_sites[site].error;
}
#endif /* TEXEL_FAULT_INJECTION */
