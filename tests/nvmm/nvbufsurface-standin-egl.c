/* gst-texel tests: the stand-in's surface arrays (nvbufsurface-standin.h),
 * GL textures on headless EGL, so that the plugin's EGL path
 * (cudaGraphicsEGLRegisterImage, the EGL frame's CUDA array) runs on a real
 * NVIDIA driver without a Jetson.
 *
 * One EGL display and GLES 3 context per process, opened on first use:
 * the first EGL device (EGL_EXT_device_enumeration, EGL_EXT_platform_device)
 * that offers CUDA interop (EGL_NV_device_cuda), else the first that
 * initialises, else EGL_DEFAULT_DISPLAY; surfaceless where
 * EGL_KHR_surfaceless_context allows, else with a 1x1 pbuffer. A context
 * is current on one thread at a time: every GL call here runs under one
 * lock, the context made current on the calling thread and released
 * again, its work finished (glFinish) before the surface is handed on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include "nvbufsurface-standin.h"

#define STANDIN_EXPORT __attribute__ ((visibility ("default")))

static struct
{
  pthread_once_t once;
  pthread_mutex_t lock;
  EGLDisplay display;
  EGLContext context;
  EGLSurface surface; /* EGL_NO_SURFACE: surfaceless */
  PFNEGLCREATEIMAGEKHRPROC create_image;
  PFNEGLDESTROYIMAGEKHRPROC destroy_image;
  char error[256]; /* empty: open */
  int textures, images;
} standin = { PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, EGL_NO_DISPLAY,
              EGL_NO_CONTEXT, EGL_NO_SURFACE };

static int
standin_has (const char *extensions, const char *name)
{
  size_t n = strlen (name);
  const char *at = extensions;

  while (at && (at = strstr (at, name)) != NULL)
    {
      if ((at == extensions || at[-1] == ' ') && (at[n] == ' ' || !at[n]))
        return 1;
      at += n;
    }
  return 0;
}

static void
standin_fail (const char *what)
{
  snprintf (standin.error, sizeof (standin.error), "%s (EGL error 0x%04x)",
            what, (unsigned)eglGetError ());
}

/* An initialised display of an EGL device: one with CUDA interop first. */
static EGLDisplay
standin_device_display (void)
{
  PFNEGLQUERYDEVICESEXTPROC query_devices
      = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress ("eglQueryDevicesEXT");
  PFNEGLQUERYDEVICESTRINGEXTPROC device_string
      = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress (
          "eglQueryDeviceStringEXT");
  PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display
      = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress (
          "eglGetPlatformDisplayEXT");
  const char *client = eglQueryString (EGL_NO_DISPLAY, EGL_EXTENSIONS);
  EGLDeviceEXT devices[16];
  EGLint n = 0, i, pass;

  if (!query_devices || !device_string || !platform_display
      || !standin_has (client, "EGL_EXT_platform_device")
      || !query_devices (16, devices, &n))
    return EGL_NO_DISPLAY;
  for (pass = 0; pass < 2; pass++)
    for (i = 0; i < n; i++)
      {
        const char *ext = device_string (devices[i], EGL_EXTENSIONS);
        EGLDisplay d;

        if (pass == 0 && !standin_has (ext, "EGL_NV_device_cuda"))
          continue;
        d = platform_display (EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
        if (d != EGL_NO_DISPLAY && eglInitialize (d, NULL, NULL))
          return d;
      }
  return EGL_NO_DISPLAY;
}

static void
standin_open (void)
{
  static const EGLint config_attribs[]
      = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE,
          EGL_PBUFFER_BIT, EGL_NONE };
  static const EGLint context_attribs[]
      = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
  static const EGLint pbuffer_attribs[]
      = { EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE };
  EGLConfig config;
  EGLint n = 0;
  const char *ext;

  standin.display = standin_device_display ();
  if (standin.display == EGL_NO_DISPLAY)
    {
      standin.display = eglGetDisplay (EGL_DEFAULT_DISPLAY);
      if (standin.display == EGL_NO_DISPLAY
          || !eglInitialize (standin.display, NULL, NULL))
        {
          standin.display = EGL_NO_DISPLAY;
          standin_fail ("no EGL device display and no default display");
          return;
        }
    }
  ext = eglQueryString (standin.display, EGL_EXTENSIONS);
  standin.create_image
      = (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress ("eglCreateImageKHR");
  standin.destroy_image
      = (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress ("eglDestroyImageKHR");
  if (!standin_has (ext, "EGL_KHR_gl_texture_2D_image") || !standin.create_image
      || !standin.destroy_image)
    {
      snprintf (standin.error, sizeof (standin.error),
                "EGL (%s, %s) has no EGL_KHR_gl_texture_2D_image",
                eglQueryString (standin.display, EGL_VENDOR),
                eglQueryString (standin.display, EGL_VERSION));
      return;
    }
  if (!eglBindAPI (EGL_OPENGL_ES_API)
      || !eglChooseConfig (standin.display, config_attribs, &config, 1, &n)
      || n < 1)
    {
      standin_fail ("no EGL config for GLES 3");
      return;
    }
  standin.context = eglCreateContext (standin.display, config, EGL_NO_CONTEXT,
                                      context_attribs);
  if (standin.context == EGL_NO_CONTEXT)
    {
      standin_fail ("eglCreateContext (GLES 3) failed");
      return;
    }
  if (!standin_has (ext, "EGL_KHR_surfaceless_context"))
    {
      standin.surface
          = eglCreatePbufferSurface (standin.display, config, pbuffer_attribs);
      if (standin.surface == EGL_NO_SURFACE)
        {
          standin_fail ("eglCreatePbufferSurface (1x1) failed");
          return;
        }
    }
  if (!eglMakeCurrent (standin.display, standin.surface, standin.surface,
                       standin.context))
    {
      standin_fail ("eglMakeCurrent failed");
      return;
    }
  eglMakeCurrent (standin.display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                  EGL_NO_CONTEXT);
  standin.error[0] = 0;
}

/* Takes the lock and makes the context current on this thread; 0, or -1
 * (unlocked) where EGL could not be opened. */
static int
standin_enter (void)
{
  pthread_once (&standin.once, standin_open);
  if (standin.error[0])
    return -1;
  pthread_mutex_lock (&standin.lock);
  if (!eglMakeCurrent (standin.display, standin.surface, standin.surface,
                       standin.context))
    {
      pthread_mutex_unlock (&standin.lock);
      return -1;
    }
  return 0;
}

/* Finishes the GL work, releases the context and the lock; -1 where GL
 * reported an error since standin_enter. */
static int
standin_leave (void)
{
  GLenum err;

  glFinish ();
  err = glGetError ();
  eglMakeCurrent (standin.display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                  EGL_NO_CONTEXT);
  pthread_mutex_unlock (&standin.lock);
  if (err != GL_NO_ERROR)
    fprintf (stderr, "nvbufsurface stand-in: GL error 0x%04x\n", err);
  return err == GL_NO_ERROR ? 0 : -1;
}

STANDIN_EXPORT const char *
texel_standin_egl_error (void)
{
  pthread_once (&standin.once, standin_open);
  return standin.error[0] ? standin.error : NULL;
}

/* Bytes per texel of surface @p's texture, from its planes (filled
 * before the texture is made): 4 (one plane of RGBA-like pixels, their
 * bytes as they are: GL_RGBA8) or 1 (GRAY8: GL_R8); 0 for the others. */
static int
standin_bytes (const NvBufSurfaceParams *p)
{
  const NvBufSurfacePlaneParams *pp = &p->planeParams;

  if (pp->num_planes != 1
      || (pp->bytesPerPix[0] != 1 && pp->bytesPerPix[0] != 4))
    return 0;
  return (int)pp->bytesPerPix[0];
}

int
standin_egl_create (NvBufSurfaceParams *p, const NvBufSurfaceCreateParams *c)
{
  int bytes = standin_bytes (p);
  GLuint texture = 0;

  if (!bytes || standin_enter () != 0)
    return -1;
  glGenTextures (1, &texture);
  glBindTexture (GL_TEXTURE_2D, texture);
  glTexStorage2D (GL_TEXTURE_2D, 1, bytes == 4 ? GL_RGBA8 : GL_R8,
                  (GLsizei)c->width, (GLsizei)c->height);
  /* One level: complete without mipmaps, as an EGL image needs it. */
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture (GL_TEXTURE_2D, 0);
  if (standin_leave () != 0 || !texture)
    return -1;
  p->bufferDesc = texture;
  __atomic_add_fetch (&standin.textures, 1, __ATOMIC_SEQ_CST);
  return 0;
}

int
standin_egl_map (NvBufSurfaceParams *p)
{
  const EGLint attribs[] = { EGL_GL_TEXTURE_LEVEL_KHR, 0,
                             EGL_IMAGE_PRESERVED_KHR, EGL_TRUE, EGL_NONE };
  EGLImageKHR image;

  if (p->mappedAddr.eglImage)
    return 0;
  if (!p->bufferDesc || standin_enter () != 0)
    return -1; /* not one of ours (test-nvmm's refusals) */
  image = standin.create_image (
      standin.display, standin.context, EGL_GL_TEXTURE_2D_KHR,
      (EGLClientBuffer)(uintptr_t)p->bufferDesc, attribs);
  if (image == EGL_NO_IMAGE_KHR)
    fprintf (stderr, "nvbufsurface stand-in: eglCreateImageKHR: 0x%04x\n",
             (unsigned)eglGetError ());
  if (standin_leave () != 0 || image == EGL_NO_IMAGE_KHR)
    return -1;
  p->mappedAddr.eglImage = image;
  __atomic_add_fetch (&standin.images, 1, __ATOMIC_SEQ_CST);
  return 0;
}

int
standin_egl_unmap (NvBufSurfaceParams *p)
{
  int ok;

  if (!p->mappedAddr.eglImage)
    return -1;
  if (standin_enter () != 0)
    return -1;
  ok = standin.destroy_image (standin.display, p->mappedAddr.eglImage);
  if (standin_leave () != 0 || !ok)
    return -1;
  p->mappedAddr.eglImage = NULL;
  __atomic_sub_fetch (&standin.images, 1, __ATOMIC_SEQ_CST);
  return 0;
}

void
standin_egl_destroy (NvBufSurfaceParams *p)
{
  GLuint texture = (GLuint)p->bufferDesc;

  if (p->mappedAddr.eglImage)
    standin_egl_unmap (p);
  if (!texture || standin_enter () != 0)
    return;
  glDeleteTextures (1, &texture);
  standin_leave ();
  p->bufferDesc = 0;
  __atomic_sub_fetch (&standin.textures, 1, __ATOMIC_SEQ_CST);
}

/* Surface array @index of @surf, or NULL. */
static NvBufSurfaceParams *
standin_array (NvBufSurface *surf, int index)
{
  if (!surf || surf->memType != NVBUF_MEM_SURFACE_ARRAY || index < 0
      || (uint32_t)index >= surf->batchSize
      || !surf->surfaceList[index].bufferDesc)
    return NULL;
  return &surf->surfaceList[index];
}

STANDIN_EXPORT int
texel_standin_surface_write (NvBufSurface *surf, int index, const void *data,
                             int stride)
{
  NvBufSurfaceParams *p = standin_array (surf, index);
  int bytes = p ? standin_bytes (p) : 0;

  if (!bytes || stride % bytes || standin_enter () != 0)
    return -1;
  glBindTexture (GL_TEXTURE_2D, (GLuint)p->bufferDesc);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, stride / bytes);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei)p->width,
                   (GLsizei)p->height, bytes == 4 ? GL_RGBA : GL_RED,
                   GL_UNSIGNED_BYTE, data);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glBindTexture (GL_TEXTURE_2D, 0);
  return standin_leave ();
}

/* Reads through a framebuffer with the texture attached, as GL_RGBA
 * (the one read format GLES 3 guarantees): a GRAY8 texel's value is its
 * red component. */
STANDIN_EXPORT int
texel_standin_surface_read (NvBufSurface *surf, int index, void *data,
                            int stride)
{
  NvBufSurfaceParams *p = standin_array (surf, index);
  int bytes = p ? standin_bytes (p) : 0;
  uint8_t *rgba, *out = data;
  GLuint fbo = 0;
  GLenum status;
  uint32_t x, y;
  int err;

  if (!bytes || standin_enter () != 0)
    return -1;
  rgba = malloc ((size_t)p->width * p->height * 4);
  glGenFramebuffers (1, &fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                          (GLuint)p->bufferDesc, 0);
  status = glCheckFramebufferStatus (GL_FRAMEBUFFER);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  if (status == GL_FRAMEBUFFER_COMPLETE)
    glReadPixels (0, 0, (GLsizei)p->width, (GLsizei)p->height, GL_RGBA,
                  GL_UNSIGNED_BYTE, rgba);
  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers (1, &fbo);
  err = standin_leave ();
  if (status != GL_FRAMEBUFFER_COMPLETE)
    {
      fprintf (stderr, "nvbufsurface stand-in: framebuffer status 0x%04x\n",
               status);
      err = -1;
    }
  for (y = 0; !err && y < p->height; y++)
    {
      const uint8_t *row = rgba + (size_t)y * p->width * 4;

      if (bytes == 4)
        memcpy (out + (size_t)y * stride, row, (size_t)p->width * 4);
      else
        for (x = 0; x < p->width; x++)
          out[(size_t)y * stride + x] = row[x * 4];
    }
  free (rgba);
  return err;
}

STANDIN_EXPORT int
texel_standin_live_textures (void)
{
  return __atomic_load_n (&standin.textures, __ATOMIC_SEQ_CST);
}

STANDIN_EXPORT int
texel_standin_live_egl_images (void)
{
  return __atomic_load_n (&standin.images, __ATOMIC_SEQ_CST);
}
