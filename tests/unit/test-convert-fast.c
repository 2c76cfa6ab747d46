/* gst-texel unit tests: texelconvert's fast CPU path against the
 * double-precision reference (the oracle), on random frames: every pair
 * of 8-bit formats, each method, the axis-aligned directions, cropping,
 * letterboxing, scaling both ways and odd sizes, the colorimetries the
 * GPU tests cover. Bound: one code on every 8-bit output sample
 * (docs/accuracy.md). Also which plans the fast path covers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "texel-convert-fast.h"
#include "texel-test-util.h"

/* Largest difference allowed, in 8-bit codes. */
#define BOUND 1

typedef struct
{
  const char *name;
  int in_w, in_h, out_w, out_h;
  /* Crop (source rectangle) and letterbox (destination rectangle);
   * zero sizes: the whole image. */
  int src[4], dst[4];
  TexelDirection direction;
  TexelColorimetry in_color, out_color;
  double border[4];
} Case;

static const Case cases[] = {
  /* Wide enough for the periodic tables (2x chroma upsampling at 1:1 and
   * 2x up, 1.5x down) to cover most columns. */
  { "1:1 wide",
    130,
    6,
    130,
    6,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { 0 } },
  { "up 2x wide, horizontal flip",
    66,
    6,
    132,
    12,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_HORIZ,
    { TEXEL_MATRIX_BT601, 0, 1, 1 },
    { TEXEL_MATRIX_BT709, 1, 0, 0 },
    { 0 } },
  { "down 1.5x wide",
    150,
    12,
    100,
    8,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT2020, 0, 0, 0 },
    { 0 } },
  { "1:1",
    32,
    18,
    32,
    18,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { 0 } },
  { "1:1 odd, 601 full cosited to 709",
    33,
    17,
    33,
    17,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT601, 1, 1, 1 },
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { 0 } },
  { "down 3:2, 2020 h-cosited",
    48,
    36,
    32,
    24,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT2020, 0, 1, 0 },
    { 0 } },
  { "down 2:1, horizontal flip",
    64,
    32,
    32,
    16,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_HORIZ,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { 0 } },
  { "up to odd, vertical flip",
    20,
    14,
    37,
    29,
    { 0 },
    { 0 },
    TEXEL_DIRECTION_VERT,
    { TEXEL_MATRIX_BT601, 1, 1, 1 },
    { TEXEL_MATRIX_BT601, 0, 0, 0 },
    { 0 } },
  { "crop, 180",
    40,
    30,
    24,
    16,
    { 5, 3, 27, 21 },
    { 0 },
    TEXEL_DIRECTION_180,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT709, 1, 0, 0 },
    { 0 } },
  { "letterbox, grey border",
    32,
    24,
    40,
    24,
    { 0 },
    { 6, 0, 27, 24 },
    TEXEL_DIRECTION_IDENTITY,
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { TEXEL_MATRIX_BT709, 0, 0, 0 },
    { 0.25, 0.5, 0.75, 0.5 } },
  { "crop + letterbox odd, flip",
    31,
    23,
    29,
    27,
    { 1, 2, 25, 19 },
    { 3, 5, 21, 17 },
    TEXEL_DIRECTION_HORIZ,
    { TEXEL_MATRIX_BT2020, 0, 1, 0 },
    { TEXEL_MATRIX_BT601, 1, 1, 1 },
    { 1.0, 0.0, 0.0, 1.0 } },
};

static const TexelMethod methods[] = {
  TEXEL_METHOD_NEAREST,
  TEXEL_METHOD_BILINEAR,
  TEXEL_METHOD_BICUBIC,
};

static void
case_config (const Case *k, TexelMethod method, TexelConvertConfig *cfg)
{
  test_config_init (cfg, k->in_w, k->in_h, k->out_w, k->out_h);
  if (k->src[2] > 0)
    {
      cfg->src_x = k->src[0];
      cfg->src_y = k->src[1];
      cfg->src_w = k->src[2];
      cfg->src_h = k->src[3];
    }
  if (k->dst[2] > 0)
    {
      cfg->dst_x = k->dst[0];
      cfg->dst_y = k->dst[1];
      cfg->dst_w = k->dst[2];
      cfg->dst_h = k->dst[3];
    }
  cfg->method = method;
  cfg->direction = k->direction;
  cfg->in_color = k->in_color;
  cfg->out_color = k->out_color;
  memcpy (cfg->border_rgba, k->border, sizeof (k->border));
}

/* One case, every 8-bit format pair and method; the fast path in two
 * bands cut at an odd row, the reference whole. */
static void
test_case (gconstpointer data)
{
  const Case *k = data;
  GRand *rand = g_rand_new_with_seed (19);
  int fi, fo, mi;

  for (fi = 0; fi < test_n_formats; fi++)
    {
      TexelFormat in_format = test_all_formats[fi];
      TestImage *in;

      if (texel_format_desc (in_format)->bits != 8)
        continue;
      in = test_image_new (in_format, k->in_w, k->in_h, 1);
      test_image_fill_random (in, rand);
      for (fo = 0; fo < test_n_formats; fo++)
        {
          TexelFormat out_format = test_all_formats[fo];

          if (texel_format_desc (out_format)->bits != 8)
            continue;
          for (mi = 0; mi < (int)G_N_ELEMENTS (methods); mi++)
            {
              TexelConvertConfig cfg;
              TexelConvertPlan plan;
              TestImage *ref, *fast;
              int cuts[1] = { k->out_h / 2 | 1 };
              int diff;

              /* Every input and output format and method still meets the
               * others under valgrind, in a quarter of the pairs. */
              if (test_sparse_skip (fi + fo + mi, 4))
                continue;
              case_config (k, methods[mi], &cfg);
              test_plan (&plan, &cfg, in_format, k->in_w, k->in_h, out_format,
                         k->out_w, k->out_h);
              ref = test_convert (&plan, in);
              plan.fast = texel_convert_fast_new (&plan);
              g_assert_nonnull (plan.fast);
              fast = test_convert_bands_with (texel_convert_fast, &plan, in, 1,
                                              cuts, 1);
              diff = test_image_max_difference (ref, fast);
              if (diff > BOUND)
                g_error ("%s: %s -> %s, method %d: fast path %d codes from the "
                         "reference",
                         k->name, texel_format_desc (in_format)->name,
                         texel_format_desc (out_format)->name, methods[mi],
                         diff);
              texel_convert_fast_free ((TexelConvertFast *)plan.fast);
              test_image_free (ref);
              test_image_free (fast);
            }
        }
      test_image_free (in);
    }
  g_rand_free (rand);
}

static gboolean
fast_covers (TexelFormat in_format, TexelFormat out_format,
             TexelDirection direction)
{
  TexelConvertConfig cfg;
  TexelConvertPlan plan;
  TexelConvertFast *fast;

  test_config_init (&cfg, 16, 8, 16, 8);
  cfg.direction = direction;
  test_plan (&plan, &cfg, in_format, 16, 8, out_format, 16, 8);
  fast = texel_convert_fast_new (&plan);
  texel_convert_fast_free (fast);
  return fast != NULL;
}

/* The plans left to the reference (texel-convert-fast.h): 10-bit
 * formats and the rotations; their output then is the reference's own. */
static void
test_coverage (void)
{
  static const TexelDirection rotations[] = {
    TEXEL_DIRECTION_90R,
    TEXEL_DIRECTION_90L,
    TEXEL_DIRECTION_UL_LR,
    TEXEL_DIRECTION_UR_LL,
  };
  TexelConvertConfig cfg;
  TexelConvertPlan plan;
  TestImage *in, *ref, *fast;
  GRand *rand;
  guint i;

  g_assert_true (fast_covers (TEXEL_FORMAT_NV12, TEXEL_FORMAT_RGBA,
                              TEXEL_DIRECTION_IDENTITY));
  g_assert_true (
      fast_covers (TEXEL_FORMAT_I420, TEXEL_FORMAT_NV12, TEXEL_DIRECTION_180));
  g_assert_false (fast_covers (TEXEL_FORMAT_P010_10LE, TEXEL_FORMAT_RGBA,
                               TEXEL_DIRECTION_IDENTITY));
  g_assert_false (fast_covers (TEXEL_FORMAT_NV12, TEXEL_FORMAT_P010_10LE,
                               TEXEL_DIRECTION_IDENTITY));
  for (i = 0; i < G_N_ELEMENTS (rotations); i++)
    g_assert_false (
        fast_covers (TEXEL_FORMAT_NV12, TEXEL_FORMAT_RGBA, rotations[i]));

  /* Without tables, texel_convert_fast is the reference. */
  test_config_init (&cfg, 16, 8, 8, 16);
  cfg.direction = TEXEL_DIRECTION_90R;
  cfg.method = TEXEL_METHOD_BILINEAR;
  in = test_image_new (TEXEL_FORMAT_NV12, 16, 8, 1);
  rand = g_rand_new_with_seed (3);
  test_image_fill_random (in, rand);
  g_rand_free (rand);
  test_plan (&plan, &cfg, TEXEL_FORMAT_NV12, 16, 8, TEXEL_FORMAT_RGBA, 8, 16);
  ref = test_convert (&plan, in);
  fast = test_convert_bands_with (texel_convert_fast, &plan, in, 1, NULL, 0);
  g_assert_true (test_image_payload_equal (ref, fast));
  test_image_free (ref);
  test_image_free (fast);
  test_image_free (in);
}

int
main (int argc, char **argv)
{
  guint i;

  g_test_init (&argc, &argv, NULL);
  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *path = g_strdup_printf ("/convert-fast/oracle/%s", cases[i].name);

      g_test_add_data_func (path, &cases[i], test_case);
      g_free (path);
    }
  g_test_add_func ("/convert-fast/coverage", test_coverage);
  return g_test_run ();
}
