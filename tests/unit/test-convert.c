/* gst-texel unit tests: geometry of the CPU reference (identity, scaling,
 * flips and rotations, cropping, letterboxing, row bands) and plan
 * validation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "texel-test-util.h"

static const TexelMethod all_methods[] = {
  TEXEL_METHOD_NEAREST,
  TEXEL_METHOD_BILINEAR,
  TEXEL_METHOD_BICUBIC,
};

static const char *
method_name (TexelMethod method)
{
  static const char *names[] = { "nearest", "bilinear", "bicubic" };

  return names[method];
}

static gboolean
is_420 (TexelFormat format)
{
  const TexelFormatDesc *desc = texel_format_desc (format);

  return desc->comp[1].x_shift == 1 && desc->comp[1].y_shift == 1;
}

/* Converts @in to its own format at @out_width x @out_height. */
static TestImage *
convert_same_format (const TestImage *in, int out_width, int out_height,
                     TexelMethod method, TexelDirection direction)
{
  TexelConvertConfig config;

  test_config_init (&config, in->img.width, in->img.height, out_width,
                    out_height);
  config.method = method;
  config.direction = direction;
  return test_convert_config (&config, in, in->img.format, out_width,
                              out_height);
}

/* (b) X -> X at 1:1 is exact for every format, with nearest and bilinear
 * (sample centres land on input centres, so bilinear weights are 1 and
 * 0), for odd sizes too, with centred and with cosited chroma. */
static void
check_identity (const TestImage *in, gpointer data)
{
  int w = in->img.width, h = in->img.height, m, cosited;

  for (m = 0; m <= TEXEL_METHOD_BILINEAR; m++)
    for (cosited = 0; cosited < 2; cosited++)
      {
        TexelConvertConfig config;
        TestImage *out;

        test_config_init (&config, w, h, w, h);
        config.method = all_methods[m];
        config.in_color.chroma_h_cosited = cosited;
        config.in_color.chroma_v_cosited = cosited;
        config.out_color = config.in_color;
        out = test_convert_config (&config, in, in->img.format, w, h);
        if (!test_image_payload_equal (in, out))
          g_error ("%s %dx%d %s cosited %d: not identical", in->desc->name, w,
                   h, method_name (all_methods[m]), cosited);
        test_image_free (out);
      }
}

static void
test_identity (void)
{
  test_each_identity_image (1, check_identity, NULL);
}

/* A constant per component, valid for the format. */
static void
constant_codes (const TexelFormatDesc *desc, unsigned codes[4])
{
  static const unsigned yuv8[4] = { 100, 50, 200, 0 };
  static const unsigned yuv10[4] = { 300, 700, 100, 0 };
  static const unsigned rgb8[4] = { 10, 200, 77, 150 };

  memcpy (codes,
          desc->bits > 8 ? yuv10
          : desc->is_yuv ? yuv8
                         : rgb8,
          sizeof (yuv8));
}

static void
check_constant_scale (TexelFormat format, int in_w, int in_h, int out_w,
                      int out_h, TexelMethod method)
{
  TestImage *in = test_image_new (format, in_w, in_h, 1);
  TestImage *out;
  unsigned codes[4];
  int c, x, y;

  constant_codes (in->desc, codes);
  test_image_fill_solid (in, codes);
  out = convert_same_format (in, out_w, out_h, method,
                             TEXEL_DIRECTION_IDENTITY);
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      if (!test_has_comp (out, c))
        continue;
      for (y = 0; y < test_comp_height (out, c); y++)
        for (x = 0; x < test_comp_width (out, c); x++)
          if (test_image_get (out, c, x, y) != codes[c])
            g_error ("%s %dx%d -> %dx%d %s: component %d at (%d,%d) is %u, "
                     "not %u",
                     in->desc->name, in_w, in_h, out_w, out_h,
                     method_name (method), c, x, y,
                     test_image_get (out, c, x, y), codes[c]);
    }
  test_image_free (out);
  test_image_free (in);
}

/* (d) Scaling a constant image gives exactly the constant: the weights of
 * every method sum to one and edge taps are clamped, never zero. */
static void
test_constant_scale (void)
{
  static const int sizes[][4] = {
    { 1, 1, 1, 1 }, { 1, 1, 3, 3 }, { 3, 3, 1, 1 },  { 3, 3, 7, 5 },
    { 5, 7, 3, 3 }, { 3, 3, 3, 3 }, { 16, 9, 5, 3 },
  };
  int f, s, m;

  for (f = 0; f < test_n_formats; f++)
    for (s = 0; s < (int)G_N_ELEMENTS (sizes); s++)
      for (m = 0; m < (int)G_N_ELEMENTS (all_methods); m++)
        check_constant_scale (test_all_formats[f], sizes[s][0], sizes[s][1],
                              sizes[s][2], sizes[s][3], all_methods[m]);
}

/* 1921x1081 (odd 4:2:0: the last chroma row and column cover one luma
 * pixel) down to 640x360. */
static void
test_constant_scale_hd (void)
{
  int f, m;

  for (f = 0; f < test_n_formats; f++)
    {
      if (!is_420 (test_all_formats[f]))
        continue;
      for (m = 0; m < (int)G_N_ELEMENTS (all_methods); m++)
        check_constant_scale (test_all_formats[f], 1921, 1081, 640, 360,
                              all_methods[m]);
    }
}

/* Bilinear halving averages each pair of pixels along each axis;
 * nearest doubling repeats each pixel. */
static void
test_scale_values (void)
{
  GRand *rand = g_rand_new_with_seed (2);
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 8, 6, 1);
  TestImage *out;
  int c, x, y;

  test_image_fill_random (in, rand);
  out = convert_same_format (in, 4, 3, TEXEL_METHOD_BILINEAR,
                             TEXEL_DIRECTION_IDENTITY);
  for (c = 0; c < 4; c++)
    for (y = 0; y < 3; y++)
      for (x = 0; x < 4; x++)
        {
          double mean = (test_image_get (in, c, 2 * x, 2 * y)
                         + test_image_get (in, c, 2 * x + 1, 2 * y)
                         + test_image_get (in, c, 2 * x, 2 * y + 1)
                         + test_image_get (in, c, 2 * x + 1, 2 * y + 1))
                        / 4.0;

          g_assert_cmpfloat (fabs (test_image_get (out, c, x, y) - mean), <=,
                             0.5);
        }
  test_image_free (out);

  out = convert_same_format (in, 16, 12, TEXEL_METHOD_NEAREST,
                             TEXEL_DIRECTION_IDENTITY);
  for (c = 0; c < 4; c++)
    for (y = 0; y < 12; y++)
      for (x = 0; x < 16; x++)
        g_assert_cmpuint (test_image_get (out, c, x, y), ==,
                          test_image_get (in, c, x / 2, y / 2));
  test_image_free (out);
  test_image_free (in);
  g_rand_free (rand);
}

/* The cubic B-spline reproduces linear functions: at 1:1 a horizontal
 * ramp comes back unchanged away from the clamped edges. */
static void
test_bicubic_ramp (void)
{
  TestImage *in = test_image_new (TEXEL_FORMAT_GRAY8, 12, 3, 1);
  TestImage *out;
  int x, y;

  for (y = 0; y < 3; y++)
    for (x = 0; x < 12; x++)
      test_image_set (in, 0, x, y, 20 + 15 * x);
  out = convert_same_format (in, 12, 3, TEXEL_METHOD_BICUBIC,
                             TEXEL_DIRECTION_IDENTITY);
  for (y = 0; y < 3; y++)
    for (x = 1; x < 11; x++)
      g_assert_cmpuint (test_image_get (out, 0, x, y), ==, 20 + 15 * x);
  test_image_free (out);
  test_image_free (in);
}

static gboolean
direction_transposes (TexelDirection direction)
{
  return direction == TEXEL_DIRECTION_90R || direction == TEXEL_DIRECTION_90L
         || direction == TEXEL_DIRECTION_UL_LR
         || direction == TEXEL_DIRECTION_UR_LL;
}

/* Which input sample output sample (i, j) shows, on a grid of @w x @h
 * input samples: the definition of each direction as an index
 * permutation (GstVideoOrientationMethod). */
static void
direction_source (TexelDirection direction, int i, int j, int w, int h, int *x,
                  int *y)
{
  switch (direction)
    {
      case TEXEL_DIRECTION_IDENTITY:
        *x = i, *y = j;
        break;
      case TEXEL_DIRECTION_90R: /* clockwise: output's top row is the
                                 * input's left column, read upwards */
        *x = j, *y = h - 1 - i;
        break;
      case TEXEL_DIRECTION_180:
        *x = w - 1 - i, *y = h - 1 - j;
        break;
      case TEXEL_DIRECTION_90L:
        *x = w - 1 - j, *y = i;
        break;
      case TEXEL_DIRECTION_HORIZ:
        *x = w - 1 - i, *y = j;
        break;
      case TEXEL_DIRECTION_VERT:
        *x = i, *y = h - 1 - j;
        break;
      case TEXEL_DIRECTION_UL_LR: /* transpose */
        *x = j, *y = i;
        break;
      case TEXEL_DIRECTION_UR_LL: /* anti-transpose */
        *x = w - 1 - j, *y = h - 1 - i;
        break;
      default:
        g_assert_not_reached ();
    }
}

static void
check_direction (const TestImage *in, TexelDirection direction,
                 TexelMethod method)
{
  int out_w = direction_transposes (direction) ? in->img.height : in->img.width;
  int out_h = direction_transposes (direction) ? in->img.width : in->img.height;
  TestImage *out = convert_same_format (in, out_w, out_h, method, direction);
  int c, i, j;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      if (!test_has_comp (in, c))
        continue;
      for (j = 0; j < test_comp_height (out, c); j++)
        for (i = 0; i < test_comp_width (out, c); i++)
          {
            int x, y;

            direction_source (direction, i, j, test_comp_width (in, c),
                              test_comp_height (in, c), &x, &y);
            if (test_image_get (out, c, i, j) != test_image_get (in, c, x, y))
              g_error ("%s direction %d %s: component %d at (%d,%d) is not "
                       "input (%d,%d)",
                       in->desc->name, direction, method_name (method), c, i, j,
                       x, y);
          }
    }
  test_image_free (out);
}

/* (e) All eight flips and rotations are exact permutations of the input
 * samples, chroma included (even sizes, centred chroma: a chroma sample
 * then maps onto a chroma sample centre). */
static void
test_directions (void)
{
  static const TexelFormat formats[] = {
    TEXEL_FORMAT_RGBA, TEXEL_FORMAT_GRAY8,     TEXEL_FORMAT_I420,
    TEXEL_FORMAT_NV12, TEXEL_FORMAT_P010_10LE, TEXEL_FORMAT_BGR,
  };
  GRand *rand = g_rand_new_with_seed (3);
  int f, d, m;

  for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
    {
      TestImage *in = test_image_new (formats[f], 10, 6, 1);

      test_image_fill_random (in, rand);
      for (d = TEXEL_DIRECTION_IDENTITY; d <= TEXEL_DIRECTION_UR_LL; d++)
        for (m = 0; m <= TEXEL_METHOD_BILINEAR; m++)
          check_direction (in, (TexelDirection)d, all_methods[m]);
      test_image_free (in);
    }
  g_rand_free (rand);
}

/* Four quarter turns clockwise give the input back. */
static void
test_four_quarter_turns (void)
{
  static const TexelFormat formats[] = {
    TEXEL_FORMAT_RGBA,
    TEXEL_FORMAT_I420,
    TEXEL_FORMAT_NV12,
  };
  GRand *rand = g_rand_new_with_seed (4);
  int f, turn;

  for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
    {
      TestImage *in = test_image_new (formats[f], 8, 4, 1);
      TestImage *img;

      test_image_fill_random (in, rand);
      img = in;
      for (turn = 0; turn < 4; turn++)
        {
          TestImage *next
              = convert_same_format (img, img->img.height, img->img.width,
                                     TEXEL_METHOD_NEAREST, TEXEL_DIRECTION_90R);

          if (img != in)
            test_image_free (img);
          img = next;
        }
      g_assert_true (test_image_payload_equal (in, img));
      test_image_free (img);
      test_image_free (in);
    }
  g_rand_free (rand);
}

/* (f) A crop at 1:1 selects exactly the source rectangle. */
static void
test_crop (void)
{
  static const TexelFormat formats[] = {
    TEXEL_FORMAT_RGBA, TEXEL_FORMAT_I420,      TEXEL_FORMAT_NV12,
    TEXEL_FORMAT_YUY2, TEXEL_FORMAT_P010_10LE,
  };
  const int src_x = 2, src_y = 4, src_w = 6, src_h = 4;
  GRand *rand = g_rand_new_with_seed (5);
  int f, m, c, i, j;

  for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
    {
      TestImage *in = test_image_new (formats[f], 16, 12, 1);

      test_image_fill_random (in, rand);
      for (m = 0; m <= TEXEL_METHOD_BILINEAR; m++)
        {
          TexelConvertConfig config;
          TestImage *out;

          test_config_init (&config, 16, 12, src_w, src_h);
          config.src_x = src_x;
          config.src_y = src_y;
          config.src_w = src_w;
          config.src_h = src_h;
          config.method = all_methods[m];
          out = test_convert_config (&config, in, formats[f], src_w, src_h);
          for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
            {
              const TexelComponent *comp = &in->desc->comp[c];

              if (comp->plane < 0)
                continue;
              for (j = 0; j < test_comp_height (out, c); j++)
                for (i = 0; i < test_comp_width (out, c); i++)
                  g_assert_cmpuint (
                      test_image_get (out, c, i, j), ==,
                      test_image_get (in, c, i + (src_x >> comp->x_shift),
                                      j + (src_y >> comp->y_shift)));
            }
          test_image_free (out);
        }
      test_image_free (in);
    }
  g_rand_free (rand);
}

/* (f) Letterboxing: inside the destination rectangle the image, 1:1;
 * outside it the border colour, encoded for the output. */
static void
check_letterbox (TexelFormat format, const unsigned border[4])
{
  const int in_w = 8, in_h = 8, out_w = 16, out_h = 12;
  const int dst_x = 4, dst_y = 2;
  GRand *rand = g_rand_new_with_seed (6);
  TestImage *in = test_image_new (format, in_w, in_h, 1);
  TexelConvertConfig config;
  TestImage *out;
  int c, i, j;

  test_image_fill_random (in, rand);
  test_config_init (&config, in_w, in_h, in_w, in_h);
  config.out_color.matrix = config.in_color.matrix = TEXEL_MATRIX_BT601;
  config.dst_x = dst_x;
  config.dst_y = dst_y;
  config.border_rgba[0] = 1.0; /* red */
  config.border_rgba[1] = 0.0;
  config.border_rgba[2] = 0.0;
  config.border_rgba[3] = 1.0;
  out = test_convert_config (&config, in, format, out_w, out_h);

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &in->desc->comp[c];
      int x0 = dst_x >> comp->x_shift, y0 = dst_y >> comp->y_shift;
      int x1 = (dst_x + in_w) >> comp->x_shift;
      int y1 = (dst_y + in_h) >> comp->y_shift;

      if (comp->plane < 0)
        continue;
      for (j = 0; j < test_comp_height (out, c); j++)
        for (i = 0; i < test_comp_width (out, c); i++)
          {
            gboolean inside = i >= x0 && i < x1 && j >= y0 && j < y1;
            unsigned expected
                = inside ? test_image_get (in, c, i - x0, j - y0) : border[c];

            if (test_image_get (out, c, i, j) != expected)
              g_error ("%s letterbox: component %d at (%d,%d) is %u, not %u",
                       in->desc->name, c, i, j, test_image_get (out, c, i, j),
                       expected);
          }
    }
  test_image_free (out);
  test_image_free (in);
  g_rand_free (rand);
}

static void
test_letterbox (void)
{
  /* Red: R'G'B'A codes, BT.601 limited Y'CbCr and its 10-bit version
   * (0.299 * 876 + 64 = 325.9; -0.1687 * 896 + 512 = 360.8; 960). */
  static const unsigned red_rgb[4] = { 255, 0, 0, 255 };
  static const unsigned red_yuv[4] = { 81, 90, 240, 0 };
  static const unsigned red_yuv10[4] = { 326, 361, 960, 0 };

  check_letterbox (TEXEL_FORMAT_RGBA, red_rgb);
  check_letterbox (TEXEL_FORMAT_ARGB, red_rgb);
  check_letterbox (TEXEL_FORMAT_RGB, red_rgb);
  check_letterbox (TEXEL_FORMAT_NV12, red_yuv);
  check_letterbox (TEXEL_FORMAT_I420, red_yuv);
  check_letterbox (TEXEL_FORMAT_YUY2, red_yuv);
  check_letterbox (TEXEL_FORMAT_GRAY8, red_yuv);
  check_letterbox (TEXEL_FORMAT_P010_10LE, red_yuv10);
}

/* A letterboxed, scaled, rotated conversion: the border surrounds the
 * rectangle exactly, at odd offsets too, for luma and RGB. */
static void
test_letterbox_scaled (void)
{
  static const TexelFormat formats[] = {
    TEXEL_FORMAT_RGBX,
    TEXEL_FORMAT_NV12,
  };
  GRand *rand = g_rand_new_with_seed (7);
  int f, i, j, d;

  for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
    {
      for (d = TEXEL_DIRECTION_IDENTITY; d <= TEXEL_DIRECTION_UR_LL; d++)
        {
          TestImage *in = test_image_new (formats[f], 9, 7, 1);
          TexelConvertConfig config;
          TestImage *out;
          unsigned border;

          test_image_fill_random (in, rand);
          test_config_init (&config, 9, 7, 5, 3);
          config.dst_x = 3;
          config.dst_y = 1;
          config.method = TEXEL_METHOD_BICUBIC;
          config.direction = (TexelDirection)d;
          config.in_color.full_range = config.out_color.full_range = 1;
          config.border_rgba[0] = config.border_rgba[1] = 0.2;
          config.border_rgba[2] = 0.2;
          border = (unsigned)lround (0.2 * 255);
          out = test_convert_config (&config, in, formats[f], 11, 6);
          /* Component 0: R' or Y'. */
          for (j = 0; j < 6; j++)
            for (i = 0; i < 11; i++)
              {
                gboolean inside = i >= 3 && i < 8 && j >= 1 && j < 4;

                if (!inside)
                  g_assert_cmpuint (test_image_get (out, 0, i, j), ==, border);
              }
          test_image_free (out);
          test_image_free (in);
        }
    }
  g_rand_free (rand);
}

/* (g) Converting in bands of rows gives the same bytes as converting the
 * whole frame; every byte is written once the last band is done, and no
 * row padding is touched. */
static void
test_bands (void)
{
  static const struct
  {
    TexelFormat in, out;
    int in_w, in_h, out_w, out_h;
    TexelMethod method;
    TexelDirection direction;
  } cases[] = {
    { TEXEL_FORMAT_NV12, TEXEL_FORMAT_RGBA, 37, 29, 20, 13,
      TEXEL_METHOD_BILINEAR, TEXEL_DIRECTION_IDENTITY },
    { TEXEL_FORMAT_RGBA, TEXEL_FORMAT_NV12, 37, 29, 21, 13,
      TEXEL_METHOD_BICUBIC, TEXEL_DIRECTION_HORIZ },
    { TEXEL_FORMAT_I420, TEXEL_FORMAT_YUY2, 16, 10, 9, 15, TEXEL_METHOD_NEAREST,
      TEXEL_DIRECTION_IDENTITY },
    { TEXEL_FORMAT_YUY2, TEXEL_FORMAT_P010_10LE, 16, 10, 10, 14,
      TEXEL_METHOD_BICUBIC, TEXEL_DIRECTION_90R },
    { TEXEL_FORMAT_GRAY8, TEXEL_FORMAT_I420, 11, 7, 11, 7,
      TEXEL_METHOD_BILINEAR, TEXEL_DIRECTION_VERT },
    { TEXEL_FORMAT_P010_10LE, TEXEL_FORMAT_BGRX, 12, 8, 7, 9,
      TEXEL_METHOD_BICUBIC, TEXEL_DIRECTION_IDENTITY },
  };
  GRand *rand = g_rand_new_with_seed (8);
  int k, a;

  for (k = 0; k < (int)G_N_ELEMENTS (cases); k++)
    {
      TestImage *in
          = test_image_new (cases[k].in, cases[k].in_w, cases[k].in_h, 1);
      TexelConvertConfig config;
      TexelConvertPlan plan;
      TestImage *whole;

      test_image_fill_random (in, rand);
      test_config_init (&config, cases[k].in_w, cases[k].in_h, cases[k].out_w,
                        cases[k].out_h);
      config.method = cases[k].method;
      config.direction = cases[k].direction;
      test_plan (&plan, &config, cases[k].in, cases[k].in_w, cases[k].in_h,
                 cases[k].out, cases[k].out_w, cases[k].out_h);
      whole = test_convert_bands (&plan, in, 64, NULL, 0);

      for (a = 2; a < cases[k].out_h; a += 2)
        {
          /* Three bands, the first possibly empty: [0, b), [b, a), [a, h). */
          const int three[2] = { (a / 2) & ~1, a };
          TestImage *two_bands = test_convert_bands (&plan, in, 64, &a, 1);
          TestImage *three_bands = test_convert_bands (&plan, in, 64, three, 2);

          g_assert_true (test_image_payload_equal (whole, two_bands));
          g_assert_true (test_image_payload_equal (whole, three_bands));
          test_image_free (three_bands);
          test_image_free (two_bands);
        }
      test_image_free (whole);
      test_image_free (in);
    }
  g_rand_free (rand);
}

/* Rows outside [row0, row1) are left alone. */
static void
test_band_limits (void)
{
  TestImage *in = test_image_new (TEXEL_FORMAT_RGBA, 4, 8, 1);
  TestImage *out = test_image_new (TEXEL_FORMAT_NV12, 4, 8, 1);
  static const unsigned codes[4] = { 1, 2, 3, 4 };
  TexelConvertConfig config;
  TexelConvertPlan plan;
  int y;

  test_image_fill_solid (in, codes);
  test_config_init (&config, 4, 8, 4, 8);
  test_plan (&plan, &config, TEXEL_FORMAT_RGBA, 4, 8, TEXEL_FORMAT_NV12, 4, 8);
  memset (out->mem, 0xab, out->size);
  texel_convert_cpu (&plan, &in->img, &out->img, 2, 6);
  for (y = 0; y < 8; y++)
    {
      gboolean written = y >= 2 && y < 6;

      g_assert_cmpint (test_image_get (out, 0, 0, y) != 0xab, ==, written);
    }
  for (y = 0; y < 4; y++)
    {
      gboolean written = y >= 1 && y < 3;

      g_assert_cmpint (test_image_get (out, 1, 0, y) != 0xab, ==, written);
    }
  /* Empty and out-of-range bands write nothing. */
  memset (out->mem, 0xab, out->size);
  texel_convert_cpu (&plan, &in->img, &out->img, 4, 4);
  texel_convert_cpu (&plan, &in->img, &out->img, 8, 12);
  for (y = 0; y < (int)out->size; y++)
    g_assert_cmpuint (out->mem[y], ==, 0xab);
  test_image_free (out);
  test_image_free (in);
}

/* (h) Plans refuse what cannot be converted, with a reason. */
static void
test_plan_rejects (void)
{
  enum
  {
    W = 16,
    H = 12
  };
  TexelConvertConfig good, bad;
  TexelConvertPlan plan;
  const char *error;
  int k;

  test_config_init (&good, W, H, W, H);
  error = NULL;
  g_assert_cmpint (texel_convert_plan_init (&plan, &good, TEXEL_FORMAT_NV12, W,
                                            H, TEXEL_FORMAT_RGBA, W, H, &error),
                   ==, 0);

  for (k = 0; k < 16; k++)
    {
      TexelFormat in_format = TEXEL_FORMAT_NV12, out_format = TEXEL_FORMAT_RGBA;
      int in_w = W, in_h = H, out_w = W, out_h = H;

      bad = good;
      switch (k)
        {
          case 0:
            bad.src_w = 0;
            break;
          case 1:
            bad.src_h = -2;
            break;
          case 2:
            bad.src_x = -1;
            break;
          case 3:
            bad.src_x = 1; /* right edge past the input */
            break;
          case 4:
            bad.src_y = 2, bad.src_h = H - 1;
            break;
          case 5:
            bad.dst_w = 0;
            break;
          case 6:
            bad.dst_y = -1, bad.dst_h = 4;
            break;
          case 7:
            bad.dst_x = 8, bad.dst_w = 9;
            break;
          case 8:
            bad.dst_h = H + 1;
            break;
          case 9:
            in_format = TEXEL_FORMAT_UNKNOWN;
            break;
          case 10:
            out_format = TEXEL_FORMAT_COUNT;
            break;
          case 11:
            in_w = 0;
            break;
          case 12:
            out_h = 0;
            break;
          case 13:
            bad.direction = (TexelDirection)8;
            break;
          case 14:
            bad.method = (TexelMethod)3;
            break;
          case 15:
            in_w = W - 1; /* the full-frame source no longer fits */
            break;
        }
      error = NULL;
      g_assert_cmpint (texel_convert_plan_init (&plan, &bad, in_format, in_w,
                                                in_h, out_format, out_w, out_h,
                                                &error),
                       ==, -1);
      g_assert_nonnull (error);
      g_assert_cmpuint (strlen (error), >, 0);
      g_test_message ("case %d: %s", k, error);
    }
}

/* The plan's map and flags for a few configurations. */
static void
test_plan_map (void)
{
  TexelConvertConfig config;
  TexelConvertPlan plan;

  /* Identity, cropped and letterboxed at 2:1. */
  test_config_init (&config, 16, 8, 8, 4);
  config.src_x = 4;
  config.src_y = 2;
  config.src_w = 8;
  config.src_h = 4;
  config.dst_x = 2;
  config.dst_y = 1;
  config.dst_w = 4;
  config.dst_h = 2;
  test_plan (&plan, &config, TEXEL_FORMAT_RGBA, 16, 8, TEXEL_FORMAT_RGBA, 8, 4);
  /* sx = 4 + 8 (X - 2) / 4 = 2 X, sy = 2 + 4 (Y - 1) / 2 = 2 Y. */
  g_assert_cmpfloat (plan.map[0][0], ==, 2.0);
  g_assert_cmpfloat (plan.map[0][1], ==, 0.0);
  g_assert_cmpfloat (plan.map[0][2], ==, 0.0);
  g_assert_cmpfloat (plan.map[1][0], ==, 0.0);
  g_assert_cmpfloat (plan.map[1][1], ==, 2.0);
  g_assert_cmpfloat (plan.map[1][2], ==, 0.0);
  g_assert_cmpfloat (plan.map_f[0][0], ==, 2.0f);
  g_assert_cmpfloat (plan.dst_x0, ==, 2.0f);
  g_assert_cmpfloat (plan.dst_x1, ==, 6.0f);
  g_assert_cmpfloat (plan.dst_y0, ==, 1.0f);
  g_assert_cmpfloat (plan.dst_y1, ==, 3.0f);
  g_assert_true (plan.rows_monotonic);

  /* 90R, 4x6 -> 6x4: sx = Y, sy = 6 - X. */
  test_config_init (&config, 4, 6, 6, 4);
  config.direction = TEXEL_DIRECTION_90R;
  test_plan (&plan, &config, TEXEL_FORMAT_RGBA, 4, 6, TEXEL_FORMAT_RGBA, 6, 4);
  g_assert_cmpfloat (plan.map[0][0], ==, 0.0);
  g_assert_cmpfloat (plan.map[0][1], ==, 1.0);
  g_assert_cmpfloat (plan.map[0][2], ==, 0.0);
  g_assert_cmpfloat (plan.map[1][0], ==, -1.0);
  g_assert_cmpfloat (plan.map[1][1], ==, 0.0);
  g_assert_cmpfloat (plan.map[1][2], ==, 6.0);
  g_assert_false (plan.rows_monotonic);

  config.direction = TEXEL_DIRECTION_HORIZ;
  test_plan (&plan, &config, TEXEL_FORMAT_RGBA, 4, 6, TEXEL_FORMAT_RGBA, 6, 4);
  g_assert_true (plan.rows_monotonic);
  config.direction = TEXEL_DIRECTION_VERT;
  test_plan (&plan, &config, TEXEL_FORMAT_RGBA, 4, 6, TEXEL_FORMAT_RGBA, 6, 4);
  g_assert_false (plan.rows_monotonic);

  /* Chroma siting. */
  config.direction = TEXEL_DIRECTION_IDENTITY;
  config.in_color.chroma_h_cosited = 1;
  config.out_color.chroma_v_cosited = 1;
  test_plan (&plan, &config, TEXEL_FORMAT_NV12, 4, 6, TEXEL_FORMAT_NV12, 6, 4);
  g_assert_cmpfloat (plan.in_chroma_off[0], ==, 0.5f);
  g_assert_cmpfloat (plan.in_chroma_off[1], ==, 1.0f);
  g_assert_cmpfloat (plan.out_chroma_off[0], ==, 1.0f);
  g_assert_cmpfloat (plan.out_chroma_off[1], ==, 0.5f);
}

static const TestCase tests[] = {
  { "/texel/convert/identity", test_identity },
  { "/texel/convert/constant-scale", test_constant_scale },
  { "/texel/convert/constant-scale-hd", test_constant_scale_hd },
  { "/texel/convert/scale-values", test_scale_values },
  { "/texel/convert/bicubic-ramp", test_bicubic_ramp },
  { "/texel/convert/directions", test_directions },
  { "/texel/convert/four-quarter-turns", test_four_quarter_turns },
  { "/texel/convert/crop", test_crop },
  { "/texel/convert/letterbox", test_letterbox },
  { "/texel/convert/letterbox-scaled", test_letterbox_scaled },
  { "/texel/convert/bands", test_bands },
  { "/texel/convert/band-limits", test_band_limits },
  { "/texel/plan/rejects", test_plan_rejects },
  { "/texel/plan/map", test_plan_map },
};

TEST_MAIN (tests)
