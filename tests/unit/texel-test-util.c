/* gst-texel unit tests: shared helpers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-test-util.h"
#include "texel-test-formats.h"

#include <stdlib.h>
#include <string.h>

const TexelFormat test_all_formats[] = {
  TEXEL_FORMAT_NV12,      TEXEL_FORMAT_NV21,      TEXEL_FORMAT_I420,
  TEXEL_FORMAT_YV12,      TEXEL_FORMAT_YUY2,      TEXEL_FORMAT_UYVY,
  TEXEL_FORMAT_RGBA,      TEXEL_FORMAT_BGRA,      TEXEL_FORMAT_RGBX,
  TEXEL_FORMAT_BGRX,      TEXEL_FORMAT_ARGB,      TEXEL_FORMAT_ABGR,
  TEXEL_FORMAT_RGB,       TEXEL_FORMAT_BGR,       TEXEL_FORMAT_GRAY8,
  TEXEL_FORMAT_P010_10LE, TEXEL_FORMAT_GRAY16_LE, TEXEL_FORMAT_I420_10LE,
  TEXEL_FORMAT_I422_10LE, TEXEL_FORMAT_Y444_10LE, TEXEL_FORMAT_Y42B,
  TEXEL_FORMAT_Y444,      TEXEL_FORMAT_NV16,      TEXEL_FORMAT_YVYU,
  TEXEL_FORMAT_AYUV,      TEXEL_FORMAT_VUYA,      TEXEL_FORMAT_XRGB,
};

const int test_n_formats = G_N_ELEMENTS (test_all_formats);

/* Those texeladjust and texelfilter take: up to 10 bits. */
const TexelFormat test_formats_10[] = { TEXEL_TEST_FORMATS_10 };

const int test_n_formats_10 = G_N_ELEMENTS (test_formats_10);

TestImage *
test_image_new (TexelFormat format, int width, int height, int stride_align)
{
  TestImage *t = g_new0 (TestImage, 1);

  t->desc = texel_format_desc (format);
  g_assert_nonnull (t->desc);
  t->stride_align = stride_align;
  t->size
      = texel_image_layout (NULL, format, width, height, stride_align, 1, NULL);
  g_assert_cmpuint (t->size, >, 0);
  t->mem = g_malloc (t->size);
  texel_image_layout (&t->img, format, width, height, stride_align, 1, t->mem);
  return t;
}

void
test_image_free (TestImage *t)
{
  if (t == NULL)
    return;
  g_free (t->mem);
  g_free (t);
}

gboolean
test_has_comp (const TestImage *t, int c)
{
  return t->desc->comp[c].plane >= 0;
}

int
test_comp_width (const TestImage *t, int c)
{
  if (!test_has_comp (t, c))
    return 0;
  return -((-t->img.width) >> t->desc->comp[c].x_shift);
}

int
test_comp_height (const TestImage *t, int c)
{
  if (!test_has_comp (t, c))
    return 0;
  return -((-t->img.height) >> t->desc->comp[c].y_shift);
}

static uint8_t *
comp_address (const TestImage *t, int c, int x, int y)
{
  const TexelComponent *comp = &t->desc->comp[c];

  g_assert_cmpint (comp->plane, >=, 0);
  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (x, <, test_comp_width (t, c));
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (y, <, test_comp_height (t, c));
  return t->img.data[comp->plane] + (size_t)y * t->img.stride[comp->plane]
         + comp->offset + (size_t)x * comp->pixel_stride;
}

unsigned
test_image_get (const TestImage *t, int c, int x, int y)
{
  const uint8_t *p = comp_address (t, c, x, y);

  if (t->desc->bytes_per_sample == 2)
    return (unsigned)(p[0] | (p[1] << 8)) >> t->desc->shift;
  return p[0];
}

void
test_image_set (TestImage *t, int c, int x, int y, unsigned code)
{
  uint8_t *p = comp_address (t, c, x, y);

  g_assert_cmpuint (code, <, 1u << t->desc->bits);
  if (t->desc->bytes_per_sample == 2)
    {
      code <<= t->desc->shift;
      p[0] = code & 0xff;
      p[1] = code >> 8;
    }
  else
    {
      p[0] = code;
    }
}

static void
fill (TestImage *t, const unsigned codes[4], GRand *rand)
{
  unsigned max = (1u << t->desc->bits) - 1;
  int c, x, y;

  /* Padding bytes keep this. */
  memset (t->mem, 0xff, t->size);
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      if (!test_has_comp (t, c))
        continue;
      for (y = 0; y < test_comp_height (t, c); y++)
        for (x = 0; x < test_comp_width (t, c); x++)
          test_image_set (t, c, x, y,
                          rand != NULL
                              ? (unsigned)g_rand_int_range (rand, 0, max + 1)
                              : codes[c]);
    }
}

void
test_image_fill_solid (TestImage *t, const unsigned codes[4])
{
  fill (t, codes, NULL);
}

void
test_image_fill_random (TestImage *t, GRand *rand)
{
  fill (t, NULL, rand);
}

/* Marks the bytes of @t that the converter defines: those of every
 * component sample, and for RGB formats whole pixels (RGBx's padding byte
 * is written 0xff). Row padding and, in odd-width YUY2 / UYVY, the luma
 * slot past the last pixel are not pixels and stay unmarked. */
static guint8 *
payload_mask (const TestImage *t)
{
  guint8 *mask = g_malloc0 (t->size);
  int c, x, y;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &t->desc->comp[c];
      int bytes
          = t->desc->is_yuv ? t->desc->bytes_per_sample : comp->pixel_stride;
      int start = t->desc->is_yuv ? comp->offset : 0;

      if (comp->plane < 0)
        continue;
      for (y = 0; y < test_comp_height (t, c); y++)
        for (x = 0; x < test_comp_width (t, c); x++)
          memset (mask + (t->img.data[comp->plane] - t->mem)
                      + (size_t)y * t->img.stride[comp->plane] + start
                      + (size_t)x * comp->pixel_stride,
                  1, bytes);
    }
  return mask;
}

gboolean
test_image_payload_equal (const TestImage *a, const TestImage *b)
{
  guint8 *mask;
  gboolean equal = TRUE;
  size_t i;

  g_assert_cmpint (a->img.format, ==, b->img.format);
  g_assert_cmpint (a->img.width, ==, b->img.width);
  g_assert_cmpint (a->img.height, ==, b->img.height);
  /* One layout, so that a byte's offset means the same in both. */
  g_assert_cmpint (a->stride_align, ==, b->stride_align);
  mask = payload_mask (a);
  for (i = 0; i < a->size; i++)
    if (mask[i] && a->mem[i] != b->mem[i])
      equal = FALSE;
  g_free (mask);
  return equal;
}

int
test_image_max_difference (const TestImage *a, const TestImage *b)
{
  size_t i;
  int worst = 0;

  g_assert_cmpuint (a->size, ==, b->size);
  for (i = 0; i < a->size; i++)
    {
      int d = abs ((int)a->mem[i] - (int)b->mem[i]);

      if (d > worst)
        worst = d;
    }
  return worst;
}

void
test_config_init (TexelConvertConfig *config, int in_width, int in_height,
                  int out_width, int out_height)
{
  static const TexelColorimetry bt709 = { TEXEL_MATRIX_BT709, 0, 0, 0 };

  memset (config, 0, sizeof (*config));
  config->src_w = in_width;
  config->src_h = in_height;
  config->dst_w = out_width;
  config->dst_h = out_height;
  config->method = TEXEL_METHOD_NEAREST;
  config->direction = TEXEL_DIRECTION_IDENTITY;
  config->in_color = bt709;
  config->out_color = bt709;
  config->border_rgba[3] = 1.0;
}

void
test_plan (TexelConvertPlan *plan, const TexelConvertConfig *config,
           TexelFormat in_format, int in_width, int in_height,
           TexelFormat out_format, int out_width, int out_height)
{
  const char *error = NULL;
  int ret
      = texel_convert_plan_init (plan, config, in_format, in_width, in_height,
                                 out_format, out_width, out_height, &error);

  if (ret != 0)
    g_error ("texel_convert_plan_init failed: %s", error);
}

static void
convert_bands (TestConvertFunc convert, const TexelConvertPlan *plan,
               const TestImage *in, TestImage *out, const int *cuts, int n_cuts)
{
  int row0 = 0;
  int i;

  for (i = 0; i < n_cuts; i++)
    {
      convert (plan, &in->img, &out->img, row0, cuts[i]);
      row0 = cuts[i];
    }
  convert (plan, &in->img, &out->img, row0, out->img.height);
}

TestImage *
test_convert_bands (const TexelConvertPlan *plan, const TestImage *in,
                    int stride_align, const int *cuts, int n_cuts)
{
  return test_convert_bands_with (texel_convert_cpu, plan, in, stride_align,
                                  cuts, n_cuts);
}

TestImage *
test_convert_bands_with (TestConvertFunc convert, const TexelConvertPlan *plan,
                         const TestImage *in, int stride_align, const int *cuts,
                         int n_cuts)
{
  TestImage *a = test_image_new (plan->out.format, plan->out_width,
                                 plan->out_height, stride_align);
  TestImage *b = test_image_new (plan->out.format, plan->out_width,
                                 plan->out_height, stride_align);
  guint8 *mask = payload_mask (a);
  size_t i;

  memset (a->mem, 0xab, a->size);
  memset (b->mem, 0x54, b->size);
  convert_bands (convert, plan, in, a, cuts, n_cuts);
  convert_bands (convert, plan, in, b, cuts, n_cuts);

  for (i = 0; i < a->size; i++)
    {
      if (mask[i])
        {
          /* Written: both runs hold the same value, whatever the poison. */
          if (a->mem[i] != b->mem[i])
            g_error ("%s %dx%d: byte %" G_GSIZE_FORMAT " not written",
                     a->desc->name, a->img.width, a->img.height, i);
        }
      else if (a->mem[i] != 0xab || b->mem[i] != 0x54)
        {
          g_error ("%s %dx%d: byte %" G_GSIZE_FORMAT " written, but no pixel's",
                   a->desc->name, a->img.width, a->img.height, i);
        }
    }
  g_free (mask);
  test_image_free (b);
  return a;
}

TestImage *
test_convert (const TexelConvertPlan *plan, const TestImage *in)
{
  return test_convert_bands (plan, in, in->stride_align, NULL, 0);
}

TestImage *
test_convert_config (const TexelConvertConfig *config, const TestImage *in,
                     TexelFormat out_format, int out_width, int out_height)
{
  TexelConvertPlan plan;

  test_plan (&plan, config, in->img.format, in->img.width, in->img.height,
             out_format, out_width, out_height);
  return test_convert (&plan, in);
}

gboolean
test_sparse_skip (int index, int every)
{
  static int sparse = -1;

  if (sparse < 0)
    sparse = g_getenv ("TEXEL_TEST_SPARSE") != NULL;
  return sparse && index % every != 0;
}

void
test_each_identity_image (guint32 seed, TestImageCheck check, gpointer data)
{
  static const int sizes[][2]
      = { { 1, 1 }, { 3, 3 }, { 5, 4 }, { 16, 8 }, { 7, 9 } };
  GRand *rand = g_rand_new_with_seed (seed);
  int f, s;

  for (f = 0; f < test_n_formats; f++)
    for (s = 0; s < (int)G_N_ELEMENTS (sizes); s++)
      {
        TestImage *in
            = test_image_new (test_all_formats[f], sizes[s][0], sizes[s][1], 1);

        test_image_fill_random (in, rand);
        check (in, data);
        test_image_free (in);
      }
  g_rand_free (rand);
}

int
test_run (int *argc, char ***argv, const TestCase *tests, size_t n_tests)
{
  size_t i;

  g_test_init (argc, argv, NULL);
  for (i = 0; i < n_tests; i++)
    g_test_add_func (tests[i].path, tests[i].func);
  return g_test_run ();
}
