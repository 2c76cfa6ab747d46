/* gst-texel fuzz target: the .cube 3D LUT parser (texeladjust lut-file).
 *
 * Any bytes: the parser returns a table or an error with a line number and
 * a message, never reads past the buffer (ASan) and never returns a table
 * that breaks its own contract (size in range, every entry finite).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texel-cube.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  TexelCubeError error;
  TexelCube *cube;
  size_t i, n;

  memset (&error, 0x55, sizeof (error));
  cube = texel_cube_parse ((const char *)data, size, &error);
  if (!cube)
    {
      /* The message is a terminated string. */
      if (!memchr (error.message, '\0', sizeof (error.message))
          || error.line < 0)
        abort ();
      return 0;
    }
  if (cube->size < 2 || cube->size > 129)
    abort ();
  n = (size_t)cube->size * cube->size * cube->size * 3;
  for (i = 0; i < n; i++)
    if (!isfinite (cube->table[i]))
      abort ();
  texel_cube_free (cube);
  return 0;
}
