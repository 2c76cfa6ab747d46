/* gst-texel tests: the formats texeladjust and texelfilter take (every
 * format of up to 10 bits: all but GRAY16_LE), in the order the tests go
 * through them (tests/unit/texel-test-util.c and the GPU tests of
 * tests/gpu). Plain C, header only: the GPU tests use no GLib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_TEST_FORMATS_H
#define TEXEL_TEST_FORMATS_H

#include "texel-image.h"

/* An initializer list of TexelFormat. */
#define TEXEL_TEST_FORMATS_10                                                  \
  TEXEL_FORMAT_NV12, TEXEL_FORMAT_NV21, TEXEL_FORMAT_I420, TEXEL_FORMAT_YV12,  \
      TEXEL_FORMAT_YUY2, TEXEL_FORMAT_UYVY, TEXEL_FORMAT_RGBA,                 \
      TEXEL_FORMAT_BGRA, TEXEL_FORMAT_RGBX, TEXEL_FORMAT_BGRX,                 \
      TEXEL_FORMAT_ARGB, TEXEL_FORMAT_ABGR, TEXEL_FORMAT_RGB,                  \
      TEXEL_FORMAT_BGR, TEXEL_FORMAT_GRAY8, TEXEL_FORMAT_P010_10LE,            \
      TEXEL_FORMAT_I420_10LE, TEXEL_FORMAT_I422_10LE, TEXEL_FORMAT_Y444_10LE,  \
      TEXEL_FORMAT_Y42B, TEXEL_FORMAT_Y444, TEXEL_FORMAT_NV16,                 \
      TEXEL_FORMAT_YVYU, TEXEL_FORMAT_AYUV, TEXEL_FORMAT_VUYA,                 \
      TEXEL_FORMAT_XRGB

#endif /* TEXEL_TEST_FORMATS_H */
