/* gst-texel: settings files (texeladjust's 3D LUT, texelwarp's
 * calibration) read whole and safely; see gst_texel_read_settings_file in
 * gsttexelbase.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "base/gsttexelbase.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* Reads @fd's regular file up to @max_size bytes (it may grow while being
 * read: more is refused, not truncated). */
static gchar *
gst_texel_read_fd (int fd, gsize size_hint, gsize max_size, gsize *length,
                   gchar **why)
{
  gsize capacity = MIN (size_hint, max_size) + 1, n = 0;
  gchar *data = g_malloc (capacity + 1);

  for (;;)
    {
      gssize got = read (fd, data + n, capacity - n);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          *why = g_strdup (g_strerror (errno));
          break;
        }
      if (got == 0)
        {
          data[n] = '\0';
          *length = n;
          return data;
        }
      n += got;
      if (n > max_size)
        {
          *why = g_strdup_printf ("larger than %" G_GSIZE_FORMAT " bytes",
                                  max_size);
          break;
        }
      if (n == capacity)
        {
          capacity = MIN (2 * capacity, max_size + 1);
          data = g_realloc (data, capacity + 1);
        }
    }
  g_free (data);
  return NULL;
}

gchar *
gst_texel_read_settings_file (const gchar *path, gsize max_size, gsize *length,
                              gchar **why)
{
  /* O_NONBLOCK: opening a FIFO without a writer returns at once (a
   * blocking open would wait for one); fstat then refuses it. Regular
   * files ignore the flag. */
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  struct stat st;
  gchar *data = NULL;

  *why = NULL;
  *length = 0;
  if (fd < 0)
    {
      *why = g_strdup (g_strerror (errno));
      return NULL;
    }
  if (fstat (fd, &st) != 0)
    *why = g_strdup (g_strerror (errno));
  else if (!S_ISREG (st.st_mode))
    *why = g_strdup (S_ISDIR (st.st_mode)
                         ? "not a regular file (a "
                           "directory)"
                         : "not a regular file (a device, FIFO or socket)");
  else if ((guint64)st.st_size > max_size)
    *why = g_strdup_printf ("too large: %" G_GUINT64_FORMAT " bytes, at "
                            "most %" G_GSIZE_FORMAT,
                            (guint64)st.st_size, max_size);
  else
    data = gst_texel_read_fd (fd, st.st_size, max_size, length, why);
  close (fd);
  return data;
}
