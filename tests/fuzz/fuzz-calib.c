/* gst-texel fuzz target: the calibration file parser (texelwarp
 * calibration-file: OpenCV FileStorage and ROS camera_info YAML, libyaml).
 *
 * Any bytes: the parser accepts a calibration or gives a terminated error
 * message; an accepted one yields, for each lens model, a camera with finite
 * positive focal lengths or a second error; nothing reads out of bounds or
 * leaks (ASan, LSan).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texel-calib.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

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
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  static const TexelWarpModel models[] = { TEXEL_WARP_MODEL_PINHOLE,
    TEXEL_WARP_MODEL_FISHEYE
  };
  TexelCalibration calib;
  char error[256];
  size_t m;

  memset (error, 0x55, sizeof (error));
  if (texel_calib_parse ((const char *) data, size, &calib, error,
          sizeof (error)) != 0) {
    check_message (error, sizeof (error));
    return 0;
  }
  for (m = 0; m < sizeof (models) / sizeof (models[0]); m++) {
    TexelCamera camera;

    memset (error, 0x55, sizeof (error));
    if (texel_calib_camera (&calib, models[m], &camera, error,
            sizeof (error)) != 0)
      check_message (error, sizeof (error));
  }
  return 0;
}
