/* gst-texel unit tests: colour conversion through the CPU reference.
 *
 * Known colours are checked against published Y'CbCr values and against
 * the defining formulas; round trips against the bounds that quantisation
 * allows.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "texel-test-util.h"

static const TexelColorimetry *
colorimetry (TexelMatrix matrix, int full_range)
{
  static TexelColorimetry color;

  color.matrix = matrix;
  color.full_range = full_range;
  color.chroma_h_cosited = 0;
  color.chroma_v_cosited = 0;
  return &color;
}

/* A solid @width x @height image of @format holding @codes. */
static TestImage *
solid_image (TexelFormat format, int width, int height, unsigned c0,
             unsigned c1, unsigned c2, unsigned c3)
{
  TestImage *t = test_image_new (format, width, height, 1);
  const unsigned codes[4] = { c0, c1, c2, c3 };

  test_image_fill_solid (t, codes);
  return t;
}

/* Converts @in to @out_format at the same size with the given colour
 * conventions. */
static TestImage *
convert_color (const TestImage *in, const TexelColorimetry *in_color,
               TexelFormat out_format, const TexelColorimetry *out_color,
               TexelMethod method)
{
  TexelConvertConfig config;

  test_config_init (&config, in->img.width, in->img.height, in->img.width,
                    in->img.height);
  config.in_color = *in_color;
  config.out_color = *out_color;
  config.method = method;
  return test_convert_config (&config, in, out_format, in->img.width,
                              in->img.height);
}

/* Every sample of component @c equals @code. */
static void
assert_solid_comp (const TestImage *t, int c, unsigned code)
{
  int x, y;

  for (y = 0; y < test_comp_height (t, c); y++)
    for (x = 0; x < test_comp_width (t, c); x++)
      if (test_image_get (t, c, x, y) != code)
        g_error ("%s component %d at (%d,%d): %u, expected %u", t->desc->name,
                 c, x, y, test_image_get (t, c, x, y), code);
}

static void
test_coefficients (void)
{
  static const struct
  {
    TexelMatrix matrix;
    double kr, kb;
  } expected[] = {
    { TEXEL_MATRIX_BT601, 0.299, 0.114 },
    { TEXEL_MATRIX_BT709, 0.2126, 0.0722 },
    { TEXEL_MATRIX_BT2020, 0.2627, 0.0593 },
    { TEXEL_MATRIX_SMPTE240M, 0.212, 0.087 },
    { TEXEL_MATRIX_FCC, 0.30, 0.11 },
  };
  int i;

  for (i = 0; i < (int)G_N_ELEMENTS (expected); i++)
    {
      double kr, kb;

      texel_matrix_coefficients (expected[i].matrix, &kr, &kb);
      g_assert_cmpfloat (kr, ==, expected[i].kr);
      g_assert_cmpfloat (kb, ==, expected[i].kb);
    }
}

/* R'G'B' (8-bit codes) and the Y'CbCr codes they must become. */
typedef struct
{
  TexelMatrix matrix;
  int full_range;
  unsigned rgb[3];
  unsigned ycbcr[3];
} KnownColour;

/* 8 bits. BT.601 limited range: the 75%/100% colour bar values of ITU-R
 * BT.601 / SMPTE, as tabulated e.g. in Poynton, "Digital Video and HD",
 * for 100% primaries. BT.601 full range: JPEG/JFIF (ITU-T T.871) values.
 * BT.709 limited range: ITU-R BT.709 100% bars. BT.2020 and BT.709 full
 * range are computed from the definition (ITU-R BT.2020-2 table 4 and
 * BT.709-6 section 3), with Kr = 0.2627, Kb = 0.0593 for BT.2020:
 *   Y' = Kr R + (1 - Kr - Kb) G + Kb B,
 *   Cb = (B - Y') / (2 (1 - Kb)),  Cr = (R - Y') / (2 (1 - Kr)),
 *   limited: DY = round (219 Y' + 16), DC = round (224 C + 128);
 *   full:    DY = round (255 Y'),      DC = round (255 C + 128), clipped
 *   to 255 (red and blue reach 255.5). */
static const KnownColour known_colours[] = {
  { TEXEL_MATRIX_BT601, 0, { 255, 0, 0 }, { 81, 90, 240 } },
  { TEXEL_MATRIX_BT601, 0, { 0, 255, 0 }, { 145, 54, 34 } },
  { TEXEL_MATRIX_BT601, 0, { 0, 0, 255 }, { 41, 240, 110 } },
  { TEXEL_MATRIX_BT601, 0, { 255, 255, 255 }, { 235, 128, 128 } },
  { TEXEL_MATRIX_BT601, 0, { 0, 0, 0 }, { 16, 128, 128 } },
  { TEXEL_MATRIX_BT709, 0, { 255, 0, 0 }, { 63, 102, 240 } },
  { TEXEL_MATRIX_BT709, 0, { 0, 255, 0 }, { 173, 42, 26 } },
  { TEXEL_MATRIX_BT709, 0, { 0, 0, 255 }, { 32, 240, 118 } },
  { TEXEL_MATRIX_BT709, 0, { 255, 255, 255 }, { 235, 128, 128 } },
  { TEXEL_MATRIX_BT709, 0, { 0, 0, 0 }, { 16, 128, 128 } },
  /* BT.2020: red Y' = 0.2627 -> 73.53; Cb = -0.2627 / 1.8814 -> 96.72;
   * green Y' = 0.678 -> 164.48, Cb -> 47.28, Cr = -0.678 / 1.4746 ->
   * 25.01; blue Y' = 0.0593 -> 28.99, Cr -> 118.99. */
  { TEXEL_MATRIX_BT2020, 0, { 255, 0, 0 }, { 74, 97, 240 } },
  { TEXEL_MATRIX_BT2020, 0, { 0, 255, 0 }, { 164, 47, 25 } },
  { TEXEL_MATRIX_BT2020, 0, { 0, 0, 255 }, { 29, 240, 119 } },
  { TEXEL_MATRIX_BT2020, 0, { 255, 255, 255 }, { 235, 128, 128 } },
  { TEXEL_MATRIX_BT601, 1, { 255, 0, 0 }, { 76, 85, 255 } },
  { TEXEL_MATRIX_BT601, 1, { 0, 255, 0 }, { 150, 44, 21 } },
  { TEXEL_MATRIX_BT601, 1, { 0, 0, 255 }, { 29, 255, 107 } },
  { TEXEL_MATRIX_BT601, 1, { 255, 255, 255 }, { 255, 128, 128 } },
  { TEXEL_MATRIX_BT601, 1, { 0, 0, 0 }, { 0, 128, 128 } },
  /* BT.709 full: red Y' = 0.2126 -> 54.21, Cb = -0.2126 / 1.8556 ->
   * 98.78; blue Y' -> 18.41, Cr = -0.0722 / 1.5748 -> 116.31. */
  { TEXEL_MATRIX_BT709, 1, { 255, 0, 0 }, { 54, 99, 255 } },
  { TEXEL_MATRIX_BT709, 1, { 0, 0, 255 }, { 18, 255, 116 } },
};

/* 10 bits (P010), from the same definition with the ITU 10-bit
 * quantisation: limited DY = round (876 Y' + 64), DC = round (896 C + 512).
 * White and black are the published 940 / 64, chroma 512. */
static const KnownColour known_colours_10bit[] = {
  { TEXEL_MATRIX_BT2020, 0, { 255, 255, 255 }, { 940, 512, 512 } },
  { TEXEL_MATRIX_BT2020, 0, { 0, 0, 0 }, { 64, 512, 512 } },
  { TEXEL_MATRIX_BT709, 0, { 255, 255, 255 }, { 940, 512, 512 } },
  { TEXEL_MATRIX_BT709, 0, { 0, 0, 0 }, { 64, 512, 512 } },
  /* BT.709 red: 250.24, 409.34, 960. */
  { TEXEL_MATRIX_BT709, 0, { 255, 0, 0 }, { 250, 409, 960 } },
  /* BT.2020 red: 294.13, 386.89, 960; green 657.93, 189.11, 100.04;
   * blue 115.95, 960, 475.97. */
  { TEXEL_MATRIX_BT2020, 0, { 255, 0, 0 }, { 294, 387, 960 } },
  { TEXEL_MATRIX_BT2020, 0, { 0, 255, 0 }, { 658, 189, 100 } },
  { TEXEL_MATRIX_BT2020, 0, { 0, 0, 255 }, { 116, 960, 476 } },
  /* Full range 10 bits: white 1023, chroma 512. */
  { TEXEL_MATRIX_BT709, 1, { 255, 255, 255 }, { 1023, 512, 512 } },
};

static void
check_known_colour (const KnownColour *k, TexelFormat yuv_format)
{
  const TexelColorimetry rgb_color = *colorimetry (TEXEL_MATRIX_RGB, 1);
  const TexelColorimetry yuv_color = *colorimetry (k->matrix, k->full_range);
  /* 6x4: even, so every chroma sample covers a whole 2x2 block. */
  TestImage *rgb = solid_image (TEXEL_FORMAT_RGBA, 6, 4, k->rgb[0], k->rgb[1],
                                k->rgb[2], 255);
  TestImage *yuv;
  int c;

  g_test_message ("%s matrix %d full %d rgb %u,%u,%u",
                  texel_format_desc (yuv_format)->name, k->matrix,
                  k->full_range, k->rgb[0], k->rgb[1], k->rgb[2]);
  yuv = convert_color (rgb, &rgb_color, yuv_format, &yuv_color,
                       TEXEL_METHOD_BILINEAR);
  for (c = 0; c < 3; c++)
    assert_solid_comp (yuv, c, k->ycbcr[c]);
  test_image_free (yuv);
  test_image_free (rgb);
}

/* Solid R'G'B' images become the published Y'CbCr codes in every 8-bit
 * layout (4:2:0 semi-planar and planar, 4:2:2 packed). */
static void
test_known_colours (void)
{
  static const TexelFormat formats[] = {
    TEXEL_FORMAT_NV12,
    TEXEL_FORMAT_I420,
    TEXEL_FORMAT_YUY2,
  };
  int i, f;

  for (i = 0; i < (int)G_N_ELEMENTS (known_colours); i++)
    for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
      check_known_colour (&known_colours[i], formats[f]);
}

static void
test_known_colours_10bit (void)
{
  int i;

  for (i = 0; i < (int)G_N_ELEMENTS (known_colours_10bit); i++)
    check_known_colour (&known_colours_10bit[i], TEXEL_FORMAT_P010_10LE);
}

/* P010 stores the 10 bits in the high bits of little-endian words:
 * limited white 940 is the word 940 << 6 = 0xeb00, bytes 00 eb. */
static void
test_p010_storage (void)
{
  const TexelColorimetry rgb_color = *colorimetry (TEXEL_MATRIX_RGB, 1);
  const TexelColorimetry yuv_color = *colorimetry (TEXEL_MATRIX_BT709, 0);
  TestImage *rgb = solid_image (TEXEL_FORMAT_RGBA, 2, 2, 255, 255, 255, 255);
  TestImage *yuv = convert_color (rgb, &rgb_color, TEXEL_FORMAT_P010_10LE,
                                  &yuv_color, TEXEL_METHOD_NEAREST);

  g_assert_cmpuint (yuv->img.data[0][0], ==, 0x00);
  g_assert_cmpuint (yuv->img.data[0][1], ==, 0xeb);
  /* Chroma 512 << 6 = 0x8000. */
  g_assert_cmpuint (yuv->img.data[1][0], ==, 0x00);
  g_assert_cmpuint (yuv->img.data[1][1], ==, 0x80);
  g_assert_cmpuint (yuv->img.data[1][2], ==, 0x00);
  g_assert_cmpuint (yuv->img.data[1][3], ==, 0x80);
  test_image_free (yuv);
  test_image_free (rgb);
}

/* Decoding: limited white and black are exact; each primary comes back
 * within one code of 0 and 255, since its Y'CbCr codes were rounded. */
static void
test_decode_known_colours (void)
{
  const TexelColorimetry rgb_color = *colorimetry (TEXEL_MATRIX_RGB, 1);
  int i, c;

  for (i = 0; i < (int)G_N_ELEMENTS (known_colours); i++)
    {
      const KnownColour *k = &known_colours[i];
      const TexelColorimetry yuv_color
          = *colorimetry (k->matrix, k->full_range);
      TestImage *yuv = solid_image (TEXEL_FORMAT_I420, 4, 4, k->ycbcr[0],
                                    k->ycbcr[1], k->ycbcr[2], 0);
      TestImage *rgb = convert_color (yuv, &yuv_color, TEXEL_FORMAT_RGBA,
                                      &rgb_color, TEXEL_METHOD_NEAREST);
      gboolean grey = k->rgb[0] == k->rgb[1] && k->rgb[1] == k->rgb[2];

      for (c = 0; c < 3; c++)
        {
          int got = test_image_get (rgb, c, 1, 1);

          if (grey)
            g_assert_cmpint (got, ==, k->rgb[c]);
          else
            g_assert_cmpint (ABS (got - (int)k->rgb[c]), <=, 1);
        }
      g_assert_cmpint (test_image_get (rgb, 3, 1, 1), ==, 255);
      test_image_free (rgb);
      test_image_free (yuv);
    }
}

/* GRAY8 is luma with neutral chroma: it decodes to R = G = B and encodes
 * from the luma of the matrix. */
static void
test_gray (void)
{
  const TexelColorimetry rgb_color = *colorimetry (TEXEL_MATRIX_RGB, 1);
  const TexelColorimetry limited = *colorimetry (TEXEL_MATRIX_BT601, 0);
  const TexelColorimetry full = *colorimetry (TEXEL_MATRIX_BT601, 1);
  /* Limited luma -> R'G'B': (Y - 16) / 219 * 255. 126 -> 128.08. */
  static const unsigned gray_to_rgb[][2] = {
    { 16, 0 }, { 235, 255 }, { 126, 128 }, { 0, 0 }, { 255, 255 },
  };
  TestImage *in, *out;
  int i, c;

  for (i = 0; i < (int)G_N_ELEMENTS (gray_to_rgb); i++)
    {
      in = solid_image (TEXEL_FORMAT_GRAY8, 3, 3, gray_to_rgb[i][0], 0, 0, 0);
      out = convert_color (in, &limited, TEXEL_FORMAT_RGBX, &rgb_color,
                           TEXEL_METHOD_BILINEAR);
      for (c = 0; c < 3; c++)
        assert_solid_comp (out, c, gray_to_rgb[i][1]);
      test_image_free (out);
      test_image_free (in);
    }

  /* Full-range grey is the identity on R'G'B' greys. */
  in = solid_image (TEXEL_FORMAT_GRAY8, 3, 3, 77, 0, 0, 0);
  out = convert_color (in, &full, TEXEL_FORMAT_BGR, &rgb_color,
                       TEXEL_METHOD_NEAREST);
  for (c = 0; c < 3; c++)
    assert_solid_comp (out, c, 77);
  test_image_free (out);
  test_image_free (in);

  /* Red -> BT.601 limited luma 81; full range 76. */
  in = solid_image (TEXEL_FORMAT_RGB, 3, 3, 255, 0, 0, 0);
  out = convert_color (in, &rgb_color, TEXEL_FORMAT_GRAY8, &limited,
                       TEXEL_METHOD_NEAREST);
  assert_solid_comp (out, 0, 81);
  test_image_free (out);
  out = convert_color (in, &rgb_color, TEXEL_FORMAT_GRAY8, &full,
                       TEXEL_METHOD_NEAREST);
  assert_solid_comp (out, 0, 76);
  test_image_free (out);
  test_image_free (in);

  /* GRAY8 -> NV12: luma carried over, chroma neutral. */
  in = solid_image (TEXEL_FORMAT_GRAY8, 4, 2, 200, 0, 0, 0);
  out = convert_color (in, &limited, TEXEL_FORMAT_NV12, &limited,
                       TEXEL_METHOD_BICUBIC);
  assert_solid_comp (out, 0, 200);
  assert_solid_comp (out, 1, 128);
  assert_solid_comp (out, 2, 128);
  test_image_free (out);
  test_image_free (in);
}

/* Component order: the same colour lands on the right bytes of every RGB
 * layout; alpha is carried through, and defaults to opaque. */
static void
test_rgb_layouts (void)
{
  static const struct
  {
    TexelFormat format;
    uint8_t bytes[4];
    int n;
  } layouts[] = {
    { TEXEL_FORMAT_RGBA, { 10, 20, 30, 40 }, 4 },
    { TEXEL_FORMAT_BGRA, { 30, 20, 10, 40 }, 4 },
    { TEXEL_FORMAT_ARGB, { 40, 10, 20, 30 }, 4 },
    { TEXEL_FORMAT_ABGR, { 40, 30, 20, 10 }, 4 },
    { TEXEL_FORMAT_RGBX, { 10, 20, 30, 0xff }, 4 },
    { TEXEL_FORMAT_BGRX, { 30, 20, 10, 0xff }, 4 },
    { TEXEL_FORMAT_RGB, { 10, 20, 30 }, 3 },
    { TEXEL_FORMAT_BGR, { 30, 20, 10 }, 3 },
  };
  const TexelColorimetry rgb_color = *colorimetry (TEXEL_MATRIX_RGB, 1);
  TestImage *rgba = solid_image (TEXEL_FORMAT_RGBA, 3, 2, 10, 20, 30, 40);
  TestImage *rgbx = solid_image (TEXEL_FORMAT_RGBX, 3, 2, 10, 20, 30, 0);
  int i;

  for (i = 0; i < (int)G_N_ELEMENTS (layouts); i++)
    {
      TestImage *out = convert_color (rgba, &rgb_color, layouts[i].format,
                                      &rgb_color, TEXEL_METHOD_BILINEAR);
      const uint8_t *last
          = out->img.data[0] + out->img.stride[0] + 2 * layouts[i].n;

      g_assert_cmpmem (out->img.data[0], layouts[i].n, layouts[i].bytes,
                       layouts[i].n);
      g_assert_cmpmem (last, layouts[i].n, layouts[i].bytes, layouts[i].n);
      test_image_free (out);
    }

  /* No alpha in: opaque out. */
  {
    TestImage *out = convert_color (rgbx, &rgb_color, TEXEL_FORMAT_ARGB,
                                    &rgb_color, TEXEL_METHOD_NEAREST);
    static const uint8_t argb[4] = { 255, 10, 20, 30 };

    g_assert_cmpmem (out->img.data[0], 4, argb, 4);
    test_image_free (out);
  }
  test_image_free (rgbx);
  test_image_free (rgba);
}

/* Same encoding on both sides: the matrix is exactly the identity; and
 * limited -> full -> limited composes to the identity within rounding. */
static void
test_matrix_identity (void)
{
  const TexelFormatDesc *nv12 = texel_format_desc (TEXEL_FORMAT_NV12);
  const TexelFormatDesc *i420 = texel_format_desc (TEXEL_FORMAT_I420);
  const TexelFormatDesc *rgba = texel_format_desc (TEXEL_FORMAT_RGBA);
  const TexelFormatDesc *bgr = texel_format_desc (TEXEL_FORMAT_BGR);
  TexelColorimetry a = *colorimetry (TEXEL_MATRIX_BT601, 0);
  TexelColorimetry b = *colorimetry (TEXEL_MATRIX_BT601, 1);
  double m[3][4], to_full[3][4], to_limited[3][4];
  int k, c, j;

  texel_color_matrix (nv12, &a, i420, &a, m);
  for (k = 0; k < 3; k++)
    for (c = 0; c < 4; c++)
      g_assert_cmpfloat (m[k][c], ==, k == c ? 1.0 : 0.0);
  texel_color_matrix (rgba, &a, bgr, &b, m);
  for (k = 0; k < 3; k++)
    for (c = 0; c < 4; c++)
      g_assert_cmpfloat (m[k][c], ==, k == c ? 1.0 : 0.0);

  texel_color_matrix (nv12, &a, nv12, &b, to_full);
  texel_color_matrix (nv12, &b, nv12, &a, to_limited);
  for (k = 0; k < 3; k++)
    {
      for (c = 0; c < 4; c++)
        {
          double v = c == 3 ? to_limited[k][3] : 0.0;

          for (j = 0; j < 3; j++)
            v += to_limited[k][j] * to_full[j][c];
          g_assert_cmpfloat_with_epsilon (v, k == c ? 1.0 : 0.0, 1e-12);
        }
    }
}

/* An image of 2x2 blocks of one colour each, covering the R'G'B' cube in
 * steps of 15 (18^3 = 5832 colours, 0 and 255 included), so that 4:2:0 and
 * 4:2:2 chroma of each block is the block's own colour. */
static TestImage *
colour_cube_image (void)
{
  const int steps = 18, blocks_x = 108, blocks_y = 54;
  TestImage *t
      = test_image_new (TEXEL_FORMAT_RGBA, 2 * blocks_x, 2 * blocks_y, 1);
  int b, dx, dy;

  g_assert_cmpint (blocks_x * blocks_y, ==, steps * steps * steps);
  for (b = 0; b < blocks_x * blocks_y; b++)
    {
      unsigned rgb[3] = { 15 * (b % steps), 15 * (b / steps % steps),
                          15 * (b / (steps * steps)) };
      int x = 2 * (b % blocks_x), y = 2 * (b / blocks_x), c;

      for (dy = 0; dy < 2; dy++)
        for (dx = 0; dx < 2; dx++)
          {
            for (c = 0; c < 3; c++)
              test_image_set (t, c, x + dx, y + dy, rgb[c]);
            test_image_set (t, 3, x + dx, y + dy, 255);
          }
    }
  return t;
}

/* R'G'B' -> Y'CbCr -> R'G'B' error bound, in 8-bit codes.
 *
 * Nearest sampling at 1:1 with centred chroma reads each 2x2 block's own
 * chroma back, so only quantisation remains. Y' is rounded to 1 / range_y,
 * Cb and Cr to 1 / range_c, i.e. errors up to 0.5 / range. Decoding gives
 * R' = Y' + 2 (1 - Kr) Cr, B' = Y' + 2 (1 - Kb) Cb, G' in between, so
 * |error| <= 255 * (0.5 / range_y + 2 (1 - K) * 0.5 / range_c) + 0.5 for
 * the final rounding (clamping only moves towards the true value, which
 * lies in [0, 1]). The largest term is blue (2 (1 - Kb) <= 1.8814):
 *   8-bit limited: 255 * (0.5/219 + 0.9407/224) + 0.5 = 2.15 -> 2 codes;
 *   8-bit full:    255 * (0.5/255 + 0.9407/255) + 0.5 = 1.94 -> 1 code;
 *   10-bit limited: 255 * (0.5/876 + 0.9407/896) + 0.5 = 0.91 -> exact.
 * Both ends are integers, so the bound is the integer part. */
typedef struct
{
  TexelFormat format;
  TexelMatrix matrix;
  int full_range;
  int bound;
} RoundTrip;

static void
test_round_trips (void)
{
  static const RoundTrip trips[] = {
    { TEXEL_FORMAT_NV12, TEXEL_MATRIX_BT601, 0, 2 },
    { TEXEL_FORMAT_NV12, TEXEL_MATRIX_BT709, 0, 2 },
    { TEXEL_FORMAT_I420, TEXEL_MATRIX_BT2020, 0, 2 },
    { TEXEL_FORMAT_YUY2, TEXEL_MATRIX_BT709, 0, 2 },
    { TEXEL_FORMAT_UYVY, TEXEL_MATRIX_SMPTE240M, 0, 2 },
    { TEXEL_FORMAT_NV21, TEXEL_MATRIX_FCC, 0, 2 },
    { TEXEL_FORMAT_NV12, TEXEL_MATRIX_BT601, 1, 1 },
    { TEXEL_FORMAT_YV12, TEXEL_MATRIX_BT709, 1, 1 },
    { TEXEL_FORMAT_P010_10LE, TEXEL_MATRIX_BT2020, 0, 0 },
    { TEXEL_FORMAT_P010_10LE, TEXEL_MATRIX_BT709, 0, 0 },
    { TEXEL_FORMAT_P010_10LE, TEXEL_MATRIX_BT709, 1, 0 },
  };
  const TexelColorimetry rgb_color = *colorimetry (TEXEL_MATRIX_RGB, 1);
  TestImage *rgb = colour_cube_image ();
  int i, c, x, y;

  for (i = 0; i < (int)G_N_ELEMENTS (trips); i++)
    {
      const RoundTrip *trip = &trips[i];
      const TexelColorimetry yuv_color
          = *colorimetry (trip->matrix, trip->full_range);
      TestImage *yuv = convert_color (rgb, &rgb_color, trip->format, &yuv_color,
                                      TEXEL_METHOD_NEAREST);
      TestImage *back = convert_color (yuv, &yuv_color, TEXEL_FORMAT_RGBA,
                                       &rgb_color, TEXEL_METHOD_NEAREST);
      int worst = 0;

      for (y = 0; y < rgb->img.height; y++)
        for (x = 0; x < rgb->img.width; x++)
          for (c = 0; c < 3; c++)
            {
              int err = ABS ((int)test_image_get (back, c, x, y)
                             - (int)test_image_get (rgb, c, x, y));

              worst = MAX (worst, err);
            }
      g_test_message ("%s matrix %d full %d: worst error %d (bound %d)",
                      texel_format_desc (trip->format)->name, trip->matrix,
                      trip->full_range, worst, trip->bound);
      g_assert_cmpint (worst, <=, trip->bound);
      assert_solid_comp (back, 3, 255);
      test_image_free (back);
      test_image_free (yuv);
    }
  test_image_free (rgb);
}

/* The border colour is encoded like the image: red in BT.601 limited. */
static void
test_border_encoding (void)
{
  TexelConvertConfig config;
  TexelConvertPlan plan;

  test_config_init (&config, 4, 4, 8, 8);
  config.out_color = *colorimetry (TEXEL_MATRIX_BT601, 0);
  config.border_rgba[0] = 1.0;
  config.border_rgba[3] = 0.5;
  test_plan (&plan, &config, TEXEL_FORMAT_RGBA, 4, 4, TEXEL_FORMAT_NV12, 8, 8);
  g_assert_cmpint ((int)lround (plan.border[0] * 255), ==, 81);
  g_assert_cmpint ((int)lround (plan.border[1] * 255), ==, 90);
  g_assert_cmpint ((int)lround (plan.border[2] * 255), ==, 240);
  g_assert_cmpfloat (plan.border[3], ==, 0.5f);
  /* GRAY8's missing chroma reads as zero chroma. */
  test_plan (&plan, &config, TEXEL_FORMAT_GRAY8, 4, 4, TEXEL_FORMAT_RGBA, 8, 8);
  g_assert_cmpfloat (plan.in_missing[1], ==, (float)(128.0 / 255.0));
  g_assert_cmpfloat (plan.in_missing[3], ==, 1.0f);
}

static const TestCase tests[] = {
  { "/texel/color/coefficients", test_coefficients },
  { "/texel/color/known-colours", test_known_colours },
  { "/texel/color/known-colours-10bit", test_known_colours_10bit },
  { "/texel/color/p010-storage", test_p010_storage },
  { "/texel/color/decode-known-colours", test_decode_known_colours },
  { "/texel/color/gray", test_gray },
  { "/texel/color/rgb-layouts", test_rgb_layouts },
  { "/texel/color/matrix-identity", test_matrix_identity },
  { "/texel/color/round-trips", test_round_trips },
  { "/texel/color/border-encoding", test_border_encoding },
};

TEST_MAIN (tests)
