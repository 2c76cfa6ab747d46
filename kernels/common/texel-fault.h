/* gst-texel: fault injection for tests.
 *
 * GST_TEXEL_FAULT=SITE[:N] makes the N-th call (default the first) at SITE
 * fail, once, with the CUDA error a real failure there would give. Sites:
 * device-alloc, host-alloc, register, copy, launch, texture, stream, sync.
 * The plugin reads the variable when an element starts and hands its
 * value to texel_fault_configure, so each start counts afresh; the kernel
 * library itself reads no environment. Compiled in only with -Dfault-injection
 * (on by default except in release and plain builds): production plugins ignore
 * the variable.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_FAULT_H
#define TEXEL_FAULT_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "texel-kernel.h"

TEXEL_BEGIN_DECLS

typedef enum
{
  TEXEL_FAULT_DEVICE_ALLOC = 0,
  TEXEL_FAULT_HOST_ALLOC,
  TEXEL_FAULT_REGISTER,
  TEXEL_FAULT_COPY,
  TEXEL_FAULT_LAUNCH,
  TEXEL_FAULT_TEXTURE,
  TEXEL_FAULT_STREAM,
  TEXEL_FAULT_SYNC,
  TEXEL_FAULT_N_SITES
} TexelFaultSite;

#if TEXEL_FAULT_INJECTION
/* Takes @spec, GST_TEXEL_FAULT's SITE[:N] (NULL or empty: no fault), and
 * resets the call count. */
void texel_fault_configure (const char *spec);
/* 0, or the cudaError_t this call at @site must fail with. */
int texel_fault_hit (TexelFaultSite site);
#else
static inline void
texel_fault_configure (const char *spec)
{
  (void)spec;
}

static inline int
texel_fault_hit (TexelFaultSite site)
{
  (void)site;
  return 0;
}
#endif

/* The result of @call, unless an injected fault at @site stands in for it
 * (then @call is not made). */
#define TEXEL_FAULTY(site, call)                                               \
  __extension__({                                                              \
    int texel_fault_ = texel_fault_hit (site);                                 \
    texel_fault_ ? (cudaError_t)texel_fault_ : (call);                         \
  })

TEXEL_END_DECLS
#endif /* TEXEL_FAULT_H */
