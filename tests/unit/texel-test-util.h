/* gst-texel unit tests: images in host memory, component access by
 * coordinates, and a converter wrapper that checks what was written.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_TEST_UTIL_H
#define TEXEL_TEST_UTIL_H

#include <glib.h>

#include "texel-convert.h"

/* An image and the one allocation that holds its planes. */
typedef struct
{
  TexelImage img;
  const TexelFormatDesc *desc;
  uint8_t *mem;
  size_t size;
  int stride_align;
} TestImage;

/* Rows padded to @stride_align bytes (1: packed tightly, so that valgrind
 * sees any access past the last row). Memory is left uninitialised. */
TestImage *test_image_new (TexelFormat format, int width, int height,
                           int stride_align);
void test_image_free (TestImage *t);

/* Sample grid of component @c (0 when the format lacks it). */
int test_comp_width (const TestImage *t, int c);
int test_comp_height (const TestImage *t, int c);
gboolean test_has_comp (const TestImage *t, int c);

/* Codes as stored, unshifted (P010: 0..1023). */
unsigned test_image_get (const TestImage *t, int c, int x, int y);
void test_image_set (TestImage *t, int c, int x, int y, unsigned code);

/* Every component set to @codes[c]; padding bytes set to 0xff (what the
 * converter writes there). */
void test_image_fill_solid (TestImage *t, const unsigned codes[4]);
/* Random valid codes in every component; padding bytes 0xff. */
void test_image_fill_random (TestImage *t, GRand *rand);

/* Whether the pixel-carrying bytes of two images of the same format, size
 * and layout are equal (row padding, and the luma slot past the last
 * pixel of odd-width YUY2 / UYVY, are not compared). */
gboolean test_image_payload_equal (const TestImage *a, const TestImage *b);

/* Largest byte difference between two images of the same layout (bytes
 * outside the pixels hold the same poison in both, as the converters
 * below leave them): the fast paths' bound against the reference. */
int test_image_max_difference (const TestImage *a, const TestImage *b);

/* A configuration that converts the whole input to the whole output:
 * nearest, no rotation, BT.709 limited range with centred chroma on both
 * sides, black border. */
void test_config_init (TexelConvertConfig *config, int in_width, int in_height,
                       int out_width, int out_height);

/* texel_convert_plan_init, asserting that it succeeds. */
void test_plan (TexelConvertPlan *plan, const TexelConvertConfig *config,
                TexelFormat in_format, int in_width, int in_height,
                TexelFormat out_format, int out_width, int out_height);

/* Converts @in into a new output image, rows [0, height) split into bands
 * at the @n_cuts luma rows in @cuts. Does it twice, into outputs poisoned
 * with 0xab and with 0x54, and asserts that every pixel-carrying byte was
 * written (both runs agree) and no other byte was (each still holds its
 * poison). */
TestImage *test_convert_bands (const TexelConvertPlan *plan,
                               const TestImage *in, int stride_align,
                               const int *cuts, int n_cuts);
TestImage *test_convert (const TexelConvertPlan *plan, const TestImage *in);
/* The same with another converter of texel_convert_cpu's contract (the
 * fast path). */
typedef void (*TestConvertFunc) (const TexelConvertPlan *plan,
                                 const TexelImage *in, TexelImage *out,
                                 int row0, int row1);
TestImage *test_convert_bands_with (TestConvertFunc convert,
                                    const TexelConvertPlan *plan,
                                    const TestImage *in, int stride_align,
                                    const int *cuts, int n_cuts);

/* Convenience: plan from @config and convert @in to @out_format. */
TestImage *test_convert_config (const TexelConvertConfig *config,
                                const TestImage *in, TexelFormat out_format,
                                int out_width, int out_height);

/* One GLib test: its path and function. */
typedef struct
{
  const char *path;
  GTestFunc func;
} TestCase;

/* Under valgrind (meson's valgrind setup sets TEXEL_TEST_SPARSE) the
 * exhaustive loops run one combination in @every: valgrind looks for
 * invalid accesses and leaks, which every format's code path still meets,
 * and the native run checks every combination's values. TRUE where the
 * combination numbered @index is to be left out. */
gboolean test_sparse_skip (int index, int every);

/* Calls @check (@in, @data) on a random image (from seed @seed) of every
 * format of test_all_formats at each of the sizes the identity tests use
 * (1x1, 3x3, 5x4, 16x8, 7x9), in that order. */
typedef void (*TestImageCheck) (const TestImage *in, gpointer data);
void test_each_identity_image (guint32 seed, TestImageCheck check,
                               gpointer data);

/* g_test_init, @tests added in order, then g_test_run's result. */
int test_run (int *argc, char ***argv, const TestCase *tests, size_t n_tests);
/* The main () of a test file that only runs its TestCase array @tests
 * (test_run). */
#define TEST_MAIN(tests)                                                       \
  int main (int argc, char **argv)                                             \
  {                                                                            \
    return test_run (&argc, &argv, tests, G_N_ELEMENTS (tests));               \
  }

extern const TexelFormat test_all_formats[];
extern const int test_n_formats;
/* test_all_formats but GRAY16_LE: what texeladjust and texelfilter take. */
extern const TexelFormat test_formats_10[];
extern const int test_n_formats_10;

#endif /* TEXEL_TEST_UTIL_H */
