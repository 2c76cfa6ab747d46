/* gst-texel tests: whether a CUDA GPU is there (texel-gpu-probe.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "texel-cuda.h"
#include "texel-gpu-probe.h"

gint
texel_probe_gpus (void)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid < 0)
    {
      g_printerr ("fork failed: %s\n", g_strerror (errno));
      return 0;
    }
  if (pid == 0)
    {
      int n = 0;
      int r = texel_cuda_device_count (&n);

      if (r < 0)
        g_printerr ("no usable CUDA device: %s (%s)\n",
                    texel_cuda_error_string (r), texel_cuda_error_name (r));
      else if (n == 0)
        g_printerr ("no CUDA device\n");
      _exit (r < 0 ? 0 : MIN (n, 100));
    }
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    {
      g_printerr ("the CUDA probe did not finish normally\n");
      return 0;
    }
  return WEXITSTATUS (status);
}
