/* gst-texel tests: the stand-in's surface arrays themselves (GL textures on
 * headless EGL, nvbufsurface-standin-egl.c), without CUDA, wherever EGL
 * opens (Mesa's software renderer will do): a frame written and read back
 * byte for byte through the texture (RGBA and GRAY8, odd sizes, padded
 * rows), EGL images made and destroyed, and nothing left alive after
 * NvBufSurfaceDestroy, also with an EGL image still mapped. So that
 * test-nvmm-egl, which needs a GPU, can trust its test source and sink.
 * Exits 77 (saying why) where EGL cannot be opened.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include "nvbufsurface-standin.h"

static int failures;

#define CHECK(cond, ...)                                                       \
  do                                                                           \
    {                                                                          \
      if (!(cond))                                                             \
        {                                                                      \
          printf ("FAIL %s:%d: ", __FILE__, __LINE__);                         \
          printf (__VA_ARGS__);                                                \
          printf ("\n");                                                       \
          failures++;                                                          \
        }                                                                      \
    }                                                                          \
  while (0)

#define W 37
#define H 23
#define STRIDE 160 /* > W * 4: padded rows */

/* One surface array of @format: written, mapped, read back, destroyed
 * with its EGL image still mapped (@unmap 0) or after unmapping it. */
static void
round_trip (NvBufSurfaceColorFormat format, int bytes, int unmap)
{
  static unsigned char in[H * STRIDE], out[H * STRIDE];
  NvBufSurfaceCreateParams c = { 0 };
  NvBufSurface *surf = NULL;
  int y, bad = 0;

  c.width = W;
  c.height = H;
  c.colorFormat = format;
  c.memType = NVBUF_MEM_SURFACE_ARRAY;
  for (y = 0; y < H * STRIDE; y++)
    in[y] = (unsigned char)(y * 7 + format);
  memset (out, 0, sizeof (out));
  CHECK (NvBufSurfaceCreate (&surf, 1, &c) == 0, "create format %d", format);
  if (!surf)
    return;
  CHECK (surf->surfaceList->dataPtr == NULL, "a surface array has no dataPtr");
  CHECK (texel_standin_live_textures () == 1, "one texture");
  CHECK (texel_standin_surface_write (surf, 0, in, STRIDE) == 0, "write");
  CHECK (NvBufSurfaceMapEglImage (surf, 0) == 0
             && surf->surfaceList->mappedAddr.eglImage != NULL,
         "EGL image");
  CHECK (texel_standin_live_egl_images () == 1, "one EGL image");
  CHECK (texel_standin_surface_read (surf, 0, out, STRIDE) == 0, "read");
  for (y = 0; y < H; y++)
    bad += memcmp (in + y * STRIDE, out + y * STRIDE, (size_t)W * bytes) != 0;
  CHECK (bad == 0, "format %d: %d of %d rows differ", format, bad, H);
  if (unmap)
    CHECK (NvBufSurfaceUnMapEglImage (surf, 0) == 0
               && surf->surfaceList->mappedAddr.eglImage == NULL,
           "unmap");
  NvBufSurfaceDestroy (surf);
  CHECK (texel_standin_live_egl_images () == 0, "EGL images left");
  CHECK (texel_standin_live_textures () == 0, "textures left");
}

int
main (void)
{
  const char *why = texel_standin_egl_error ();
  NvBufSurfaceCreateParams c = { 0 };
  NvBufSurface *surf = NULL;

  if (why)
    {
      printf ("SKIP: %s\n", why);
      return 77;
    }
  round_trip (NVBUF_COLOR_FORMAT_RGBA, 4, 1);
  round_trip (NVBUF_COLOR_FORMAT_BGRx, 4, 0);
  round_trip (NVBUF_COLOR_FORMAT_GRAY8, 1, 1);
  /* Formats of more than one plane are not surface arrays here. */
  c.width = W;
  c.height = H;
  c.colorFormat = NVBUF_COLOR_FORMAT_NV12;
  c.memType = NVBUF_MEM_SURFACE_ARRAY;
  CHECK (NvBufSurfaceCreate (&surf, 1, &c) != 0, "NV12 surface array made");
  printf ("%s\n", failures ? "FAILED" : "OK");
  return failures ? 1 : 0;
}
