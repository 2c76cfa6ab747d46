/* gst-texel unit tests: the .cube parser (kernels/files/texel-cube.c) on the
 * LUT files of tests/data (good ones against the functions they were
 * written from, broken ones against the line and message each must
 * give) and on buffers made here: number syntax, line ends, every
 * truncation and random corruptions of a good file. Every buffer is
 * handed over in an allocation of exactly its length, so that valgrind
 * (meson test --setup valgrind) sees any read past it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "texel-cube.h"
#include "texel-test-luts.h"
#include "texel-test-util.h"

/* Parses @length bytes of @text from an exact-size copy. */
static TexelCube *
parse_exact (const char *text, size_t length, TexelCubeError *error)
{
  char *copy = g_malloc (length ? length : 1);
  TexelCube *cube;

  memcpy (copy, text, length);
  cube = texel_cube_parse (length ? copy : NULL, length, error);
  g_free (copy);
  return cube;
}

static TexelCube *
parse_string (const char *text, TexelCubeError *error)
{
  return parse_exact (text, strlen (text), error);
}

static TexelCube *
parse_file (const char *name, TexelCubeError *error)
{
  gchar *path = g_build_filename (TEXEL_TEST_DATA_DIR, name, NULL);
  gchar *text = NULL;
  gsize length = 0;
  GError *err = NULL;
  TexelCube *cube;

  if (!g_file_get_contents (path, &text, &length, &err))
    g_error ("%s: %s", path, err->message);
  cube = parse_exact (text, length, error);
  g_free (text);
  g_free (path);
  return cube;
}

/* ------------------------------------------------------------------ */

/* The committed good files: each entry (r, g, b) (red fastest) must be
 * the function at the lattice point, to the files' 6 decimals. */
static void
test_good_files (void)
{
  static const struct
  {
    const char *file;
    int size;
    const char *title;
    LutFunction f;
    double domain_min, domain_max;
    double step; /* expected max_step on every axis */
  } files[] = {
    { "identity-2.cube", 2, "identity, 2 points", lut_identity, 0, 1, 1.0 },
    { "identity-9.cube", 9, "identity, 9 points", lut_identity, 0, 1, 0.125 },
    { "invert-2-crlf.cube", 2, "invert (CR LF line ends)", lut_invert, 0, 1,
      1.0 },
    { "swap-rb-3.cube", 3, "red and blue swapped", lut_swap_rb, 0, 1, 0.5 },
    { "squares-5.cube", 5, "each channel squared", lut_squares, 0, 1, 0.4375 },
    { "resolve-range.cube", 3, "Resolve style, input range [-0.5, 1.5]",
      lut_range_identity, -0.5, 1.5, 1.0 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (files); i++)
    {
      TexelCubeError error;
      TexelCube *cube = parse_file (files[i].file, &error);
      int n = files[i].size, r, g, b, c;

      if (cube == NULL)
        g_error ("%s, line %d: %s", files[i].file, error.line, error.message);
      g_assert_cmpint (cube->size, ==, n);
      g_assert_cmpstr (cube->title, ==, files[i].title);
      for (c = 0; c < 3; c++)
        {
          g_assert_cmpfloat (cube->domain_min[c], ==, files[i].domain_min);
          g_assert_cmpfloat (cube->domain_max[c], ==, files[i].domain_max);
          g_assert_cmpfloat (fabs (cube->max_step[c] - files[i].step), <, 1e-6);
        }
      for (b = 0; b < n; b++)
        for (g = 0; g < n; g++)
          for (r = 0; r < n; r++)
            {
              double want[3];

              files[i].f (r / (n - 1.0), g / (n - 1.0), b / (n - 1.0), want);
              for (c = 0; c < 3; c++)
                g_assert_cmpfloat (
                    fabs (texel_cube_entry (cube, (b * n + g) * n + r, c)
                          - want[c]),
                    <, 1e-6);
            }
      texel_cube_free (cube);
    }
}

/* Each broken file: no table, and a message that names the line and
 * says what is wrong. */
static void
test_broken_files (void)
{
  static const struct
  {
    const char *file;
    int line;
    const char *says;
  } files[] = {
    { "broken-no-size.cube", 3, "table data before LUT_3D_SIZE" },
    { "broken-size-range.cube", 1, "LUT_3D_SIZE 300 out of range: 2 to 129" },
    { "broken-1d.cube", 2, "1D LUTs (LUT_1D_SIZE) are not supported" },
    { "broken-bad-number.cube", 5, "bad number '1,0'" },
    { "broken-nan.cube", 7, "'nan' is not a finite number" },
    { "broken-huge.cube", 9, "'1e39' is out of range" },
    { "broken-short.cube", 9, "7 entries, LUT_3D_SIZE 2 needs 8" },
    { "broken-long.cube", 10, "more than the 8 entries of LUT_3D_SIZE 2" },
    { "broken-two-numbers.cube", 4, "expected 3 numbers, found 2" },
    { "broken-trailing.cube", 9, "unexpected 'end' after the numbers" },
    { "broken-keyword-after.cube", 10,
      "keyword DOMAIN_MIN after the table (which starts on line 2)" },
    { "broken-domain.cube", 2, "the domain of channel 1 is empty" },
    { "broken-garbage.cube", 3, "unexpected 'hello'" },
    { "broken-empty.cube", 0, "no LUT_3D_SIZE" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (files); i++)
    {
      TexelCubeError error;
      TexelCube *cube = parse_file (files[i].file, &error);

      if (cube != NULL)
        g_error ("%s: accepted", files[i].file);
      g_test_message ("%s: line %d: %s", files[i].file, error.line,
                      error.message);
      g_assert_cmpint (error.line, ==, files[i].line);
      if (strstr (error.message, files[i].says) == NULL)
        g_error ("%s: \"%s\" does not say \"%s\"", files[i].file, error.message,
                 files[i].says);
    }
}

/* ------------------------------------------------------------------ */

#define IDENTITY_2_TABLE                                                       \
  "0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"

/* Number syntax: signs, fractions without a leading or trailing digit,
 * exponents, long mantissas; read in the C locale's way whatever the
 * process's. */
static void
test_numbers (void)
{
  static const struct
  {
    const char *text;
    double value;
  } numbers[] = {
    { "0", 0.0 },
    { "-0", 0.0 },
    { "+.5", 0.5 },
    { "1.", 1.0 },
    { "-1.25", -1.25 },
    { "5E-1", 0.5 },
    { "2.5e+2", 250.0 },
    { "1e-40", 1e-40 },
    { "1e-999", 0.0 },
    { "0.333333333333333333333333333", 1.0 / 3.0 },
    { "123456789012345678901234567890", 1.2345678901234568e29 },
    { "00000000000000000000000000.75", 0.75 },
    { "3.4028234e38", 3.4028234e38 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      gchar *text = g_strdup_printf ("LUT_3D_SIZE 2\n%s 0 0\n1 0 0\n0 1 0\n"
                                     "1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n",
                                     numbers[i].text);
      TexelCubeError error;
      TexelCube *cube = parse_string (text, &error);

      if (cube == NULL)
        g_error ("'%s': line %d: %s", numbers[i].text, error.line,
                 error.message);
      g_assert_cmpfloat (texel_cube_entry (cube, 0, 0), ==,
                         (float)numbers[i].value);
      texel_cube_free (cube);
      g_free (text);
    }
}

static void
test_bad_numbers (void)
{
  static const char *bad[] = {
    "-",     "+",   ".",  "1e", "1e+", "0x10",
    "1.5.3", "--1", "1-", "e5", "1,5", "\xc2\xbd",
  };
  static const char *not_finite[] = {
    "nan", "NaN", "-inf", "INF", "+Infinity", "nan(0x1)",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad) + G_N_ELEMENTS (not_finite); i++)
    {
      gboolean finite = i < G_N_ELEMENTS (bad);
      const char *word = finite ? bad[i] : not_finite[i - G_N_ELEMENTS (bad)];
      gchar *text = g_strdup_printf ("LUT_3D_SIZE 2\n0 0 0\n0 %s 0\n", word);
      TexelCubeError error;

      g_assert_null (parse_string (text, &error));
      g_assert_cmpint (error.line, ==, 3);
      if (strstr (error.message,
                  finite ? "bad number" : "is not a finite number")
          == NULL)
        g_error ("'%s': %s", word, error.message);
      g_free (text);
    }
}

/* The same table with LF, CR LF and CR line ends, a byte order mark,
 * tabs, comments after entries and keywords, and no final line end. */
static void
test_layout (void)
{
  static const char *texts[] = {
    "LUT_3D_SIZE 2\n" IDENTITY_2_TABLE,
    "\xef\xbb\xbf# comment\r\nTITLE \"t\"\r\nLUT_3D_SIZE\t2 # size\r\n\r\n"
    "0 0 0\r\n1 0 0\r\n0 1 0\r\n1 1 0\r\n0 0 1\r\n1 0 1\r\n0 1 1\r\n"
    "1 1 1",
    "LUT_3D_SIZE 2\r0 0 0\r1 0 0\r0 1 0\r1 1 0\r# mid-table comment\r"
    "\t0\t0\t1 # entry 4\r1 0 1\r0 1 1\r1 1 1\r\r",
  };
  guint i;
  int e, c;

  for (i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      TexelCubeError error;
      TexelCube *cube = parse_string (texts[i], &error);

      if (cube == NULL)
        g_error ("layout %u: line %d: %s", i, error.line, error.message);
      g_assert_cmpint (cube->size, ==, 2);
      for (e = 0; e < 8; e++)
        for (c = 0; c < 3; c++)
          g_assert_cmpfloat (texel_cube_entry (cube, e, c), ==,
                             (float)((e >> c) & 1));
      texel_cube_free (cube);
    }
}

/* Keywords: repeats, sizes at and past the limits, domains, and other
 * producers' keywords (skipped and counted). */
static void
test_keywords (void)
{
  static const struct
  {
    const char *text;
    int line;
    const char *says; /* NULL: accepted */
  } cases[] = {
    { "LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n", 2, "LUT_3D_SIZE repeated" },
    { "LUT_3D_SIZE 1\n", 1, "out of range" },
    { "LUT_3D_SIZE 130\n", 1, "out of range" },
    { "LUT_3D_SIZE 2.5\n", 1, "out of range" },
    { "LUT_3D_SIZE\n", 1, "LUT_3D_SIZE: expected 1 number, found 0" },
    { "LUT_3D_SIZE 2 2\n", 1, "expected 1 number, found more" },
    { "LUT_3D_SIZE 129\n", 1, "0 entries, LUT_3D_SIZE 129 needs 2146689" },
    { "DOMAIN_MIN 0 0\nLUT_3D_SIZE 2\n" IDENTITY_2_TABLE, 1,
      "DOMAIN_MIN: expected 3 numbers, found 2" },
    { "DOMAIN_MAX 1 1 1\nDOMAIN_MAX 1 1 1\n", 2, "DOMAIN_MAX repeated" },
    { "DOMAIN_MAX 1 1 2e6\n", 1, "out of range" },
    { "DOMAIN_MIN 0 0 0\nLUT_3D_INPUT_RANGE 0 1\n", 2, "both given" },
    { "LUT_3D_INPUT_RANGE 1 0\nLUT_3D_SIZE 2\n" IDENTITY_2_TABLE, 1,
      "the domain of channel 0 is empty" },
    { "lut_3d_size 2\n", 1, "unexpected 'lut_3d_size'" },
    { "LUT_3D_SIZE 2\nLUT_IN_VIDEO_RANGE\nLUT_1D_INPUT_RANGE 0 "
      "1\n" IDENTITY_2_TABLE,
      2, NULL },
    { "DOMAIN_MIN -1 -1 -1\nDOMAIN_MAX 1 1 1\nLUT_3D_SIZE 2\n" IDENTITY_2_TABLE,
      0, NULL },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TexelCubeError error;
      TexelCube *cube = parse_string (cases[i].text, &error);

      if (cases[i].says == NULL)
        {
          if (cube == NULL)
            g_error ("case %u: line %d: %s", i, error.line, error.message);
          /* line: the first skipped keyword's, 0 for none. */
          g_assert_cmpint (cube->first_skipped_line, ==, cases[i].line);
          g_assert_cmpint (cube->n_skipped, ==, cases[i].line ? 2 : 0);
          texel_cube_free (cube);
          continue;
        }
      if (cube != NULL)
        g_error ("case %u accepted", i);
      g_assert_cmpint (error.line, ==, cases[i].line);
      if (strstr (error.message, cases[i].says) == NULL)
        g_error ("case %u: \"%s\" does not say \"%s\"", i, error.message,
                 cases[i].says);
    }
  /* No error structure: NULL, quietly. */
  g_assert_null (texel_cube_parse ("x", 1, NULL));
}

/* Every prefix of a good file: never a crash or a read past its end;
 * either a table or an error with a line inside the prefix. */
static void
test_truncations (void)
{
  const char *text = "# truncated\nTITLE \"t\"\nDOMAIN_MIN 0 0 0\n"
                     "DOMAIN_MAX 1 1 1\nLUT_3D_SIZE 2\n" IDENTITY_2_TABLE;
  size_t length = strlen (text), k;
  int accepted = 0;

  for (k = 0; k <= length; k++)
    {
      TexelCubeError error;
      TexelCube *cube = parse_exact (text, k, &error);
      int lines = 1;
      size_t i;

      for (i = 0; i < k; i++)
        lines += text[i] == '\n';
      if (cube != NULL)
        {
          g_assert_cmpint (cube->size, ==, 2);
          accepted++;
          texel_cube_free (cube);
          continue;
        }
      g_assert_cmpint (error.line, >=, 0);
      g_assert_cmpint (error.line, <=, lines);
      g_assert_cmpuint (strlen (error.message), >, 0);
    }
  /* The whole file, without its last line end, and cut inside the last
   * number's... nothing: "1 1 1" is complete only at its end. */
  g_assert_cmpint (accepted, ==, 2);
}

/* Random corruptions of a good file: bytes replaced with random ones,
 * including NUL, CR and LF. Never a crash; any error has a message. */
static void
test_corruptions (void)
{
  const char *text = "TITLE \"corrupted\"\nLUT_3D_SIZE 3\n"
                     "DOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 1 1\n";
  GString *s = g_string_new (text);
  GRand *rand = g_rand_new_with_seed (31);
  int r, g, b, round, accepted = 0;

  for (b = 0; b < 3; b++)
    for (g = 0; g < 3; g++)
      for (r = 0; r < 3; r++)
        g_string_append_printf (s, "%.4f %.4f %.4f\n", r / 2.0, g / 2.0,
                                b / 2.0);
  for (round = 0; round < 2000; round++)
    {
      char *copy = g_memdup2 (s->str, s->len);
      int n = g_rand_int_range (rand, 1, 4), i;
      TexelCubeError error;
      TexelCube *cube;

      for (i = 0; i < n; i++)
        copy[g_rand_int_range (rand, 0, s->len)]
            = (char)g_rand_int_range (rand, 0, 256);
      cube = parse_exact (copy, s->len, &error);
      if (cube != NULL)
        {
          g_assert_cmpint (cube->size, >=, TEXEL_CUBE_MIN_SIZE);
          g_assert_cmpint (cube->size, <=, TEXEL_CUBE_MAX_SIZE);
          accepted++;
          texel_cube_free (cube);
        }
      else
        {
          g_assert_cmpuint (strlen (error.message), >, 0);
        }
      g_free (copy);
    }
  g_test_message ("%d of 2000 corrupted files still parsed", accepted);
  g_rand_free (rand);
  g_string_free (s, TRUE);
}

static const TestCase tests[] = {
  { "/texel/cube/good-files", test_good_files },
  { "/texel/cube/broken-files", test_broken_files },
  { "/texel/cube/numbers", test_numbers },
  { "/texel/cube/bad-numbers", test_bad_numbers },
  { "/texel/cube/layout", test_layout },
  { "/texel/cube/keywords", test_keywords },
  { "/texel/cube/truncations", test_truncations },
  { "/texel/cube/corruptions", test_corruptions },
};

TEST_MAIN (tests)
