/* gst-texel tests: what the stand-in libnvbufsurface (nvbufsurface-standin.c)
 * offers the tests besides NVIDIA's functions, and what its two files
 * share.
 *
 * NVBUF_MEM_SURFACE_ARRAY surfaces are GL textures (GLES 3 on headless
 * EGL: nvbufsurface-standin-egl.c) whose EGL images NvBufSurfaceMapEglImage
 * makes, as a Jetson's NvRmSurfaces are read through theirs. Only where
 * the build found EGL and GLES (STANDIN_EGL); elsewhere creating one fails
 * and texel_standin_egl_error says why.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_NVBUFSURFACE_STANDIN_H
#define TEXEL_NVBUFSURFACE_STANDIN_H

#define GST_TEXEL_OWN_NVBUFSURFACE 1
#include "memory/gsttexelnvbufsurface.h"

#ifdef __cplusplus
extern "C"
{
#endif

  /* For the tests (exported). */

  /* Why surface arrays cannot be made (EGL or GL refused, with EGL's or
   * GL's error), or NULL where they can: the first call opens EGL. */
  const char *texel_standin_egl_error (void);
  /* Writes the @height rows of surface array @index of @surf (one plane:
   * RGBA-like or GRAY8) from @data, rows @stride bytes apart; reads them
   * into @data. 0, or -1 (texel_standin_egl_error says why). The GL work is
   * finished before they return. */
  int texel_standin_surface_write (NvBufSurface *surf, int index,
                                   const void *data, int stride);
  int texel_standin_surface_read (NvBufSurface *surf, int index, void *data,
                                  int stride);
  /* GL textures (surface arrays) and EGL images alive now. */
  int texel_standin_live_textures (void);
  int texel_standin_live_egl_images (void);

  /* Between the stand-in's two files: surface array @p of @c's size and
   * colour format (a texture, its name in bufferDesc), its EGL image
   * (mappedAddr.eglImage) made and destroyed, the texture deleted. 0 or
   * -1. */
  int standin_egl_create (NvBufSurfaceParams *p,
                          const NvBufSurfaceCreateParams *c);
  int standin_egl_map (NvBufSurfaceParams *p);
  int standin_egl_unmap (NvBufSurfaceParams *p);
  void standin_egl_destroy (NvBufSurfaceParams *p);

#ifdef __cplusplus
}
#endif

#endif
