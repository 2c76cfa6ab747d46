/* gst-texel fuzz target: the calibration file parser (texelwarp
 * calibration-file: OpenCV FileStorage and ROS camera_info YAML, libyaml).
 *
 * Any bytes: the parser accepts a calibration or gives a terminated error
 * message; an accepted one yields, for each lens model, a camera with finite
 * positive focal lengths or a second error, and a finite rectification
 * matrix and a projection matrix (where given) of positive focal
 * lengths; nothing reads out of bounds or
 * leaks (ASan, LSan); files nested too deep or with too many nodes fail
 * on the caps (texel-calib.h) before libyaml builds them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texel-calib.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  return 0;
}

static void
check_message (const char *error, size_t size)
{
  if (!memchr (error, '\0', size) || error[0] == '\0')
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const TexelWarpModel models[]
      = { TEXEL_WARP_MODEL_PINHOLE, TEXEL_WARP_MODEL_FISHEYE };
  TexelCalibration calib;
  char error[256];
  size_t m;
  int i;

  memset (error, 0x55, sizeof (error));
  if (texel_calib_parse ((const char *)data, size, &calib, error,
                         sizeof (error))
      != 0)
    {
      check_message (error, sizeof (error));
      return 0;
    }
  /* R finite (non-singular, checked by the parser), P a camera. */
  for (i = 0; i < 9; i++)
    if (!isfinite (calib.rectification[i / 3][i % 3]))
      abort ();
  if (calib.has_projection
      && !(calib.projection[0][0] > 0.0 && calib.projection[1][1] > 0.0
           && calib.projection[2][2] == 1.0))
    abort ();
  for (m = 0; m < sizeof (models) / sizeof (models[0]); m++)
    {
      TexelCamera camera;

      memset (error, 0x55, sizeof (error));
      if (texel_calib_camera (&calib, models[m], &camera, error, sizeof (error))
          != 0)
        check_message (error, sizeof (error));
    }
  return 0;
}
