/* gst-texel: plugin/gsttexelnvbufsurface.h, written from NVIDIA's API
 * reference, against NVIDIA's nvbufsurface.h: the same size for every
 * type, offset and size for every field, value for every enumerator.
 * Built and run only where the build found the header (meson option
 * nvbufsurface-include, JetPack or DeepStream).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "nvbufsurface-layout.h"

static const char *const names[] = TEXEL_LAYOUT_NAMES;

int
main (void)
{
  size_t i, n = sizeof (names) / sizeof (names[0]);
  int failed = 0;

  for (i = 0; i < n; i++)
    {
      if (texel_layout_real[i] == texel_layout_own[i])
        continue;
      printf ("not ok: %s: nvbufsurface.h %zu, ours %zu\n", names[i],
              texel_layout_real[i], texel_layout_own[i]);
      failed = 1;
    }
  printf ("%zu sizes, offsets and values compared: %s\n", n,
          failed ? "MISMATCH" : "all equal");
  return failed;
}
