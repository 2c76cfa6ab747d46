/* gst-texel: 3D colour lookup tables in the Adobe / Resolve .cube format.
 *
 * Pure C (no GLib): the parser reads a buffer of known length (no NUL
 * needed, never a byte past it), so that a fuzzer can drive it directly.
 * What it accepts (Adobe Cube LUT Specification 1.0, plus Resolve's
 * LUT_3D_INPUT_RANGE):
 *
 *  - lines ending in LF, CR LF or CR; a UTF-8 byte order mark at the
 *    start; blank lines and comments (# to the end of a line) anywhere;
 *    fields separated by spaces or tabs;
 *  - before the table, in any order, each at most once:
 *      TITLE "text"
 *      LUT_3D_SIZE N                 2 <= N <= TEXEL_CUBE_MAX_SIZE
 *      DOMAIN_MIN r g b              default 0 0 0
 *      DOMAIN_MAX r g b              default 1 1 1
 *      LUT_3D_INPUT_RANGE min max    (Resolve) the same domain for R, G, B
 *    a domain lies within +-1e6 and is at least 1e-6 wide per channel;
 *    other upper-case keywords are skipped (counted in n_skipped);
 *  - then exactly N^3 lines of three numbers (decimal, optional sign,
 *    fraction and exponent, in the C locale whatever the process's), red
 *    varying fastest: the entry for lattice point (r, g, b) is the
 *    (r + N g + N^2 b)-th.
 *
 * Rejected, with the line number and what is wrong: 1D LUTs
 * (LUT_1D_SIZE), a missing LUT_3D_SIZE, sizes out of range, malformed
 * numbers, NaN and infinities, numbers beyond float, lines with other than
 * three numbers, a wrong number of entries, keywords after the table,
 * repeated keywords, anything else on a line.
 *
 * Sizes: the table is kept as float, 12 bytes an entry: 3.3 MB at N = 65,
 * 25.8 MB at the largest accepted N, 129 (a GPU copy takes 16 bytes an
 * entry: 34 MB). Larger LUTs bring no precision that 8- or 10-bit video
 * could show.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CUBE_H
#define TEXEL_CUBE_H

#include <stddef.h>

#include "texel-kernel.h"

TEXEL_BEGIN_DECLS

#define TEXEL_CUBE_MIN_SIZE 2
#define TEXEL_CUBE_MAX_SIZE 129

typedef struct
{
  int size; /* N: N^3 entries */
  double domain_min[3], domain_max[3];
  /* N^3 x (R, G, B), red fastest: entry (r, g, b) at
   * ((b * N + g) * N + r) * 3. */
  float *table;
  /* Largest difference between neighbouring entries along the red, green
   * and blue axes, over the three outputs: what bounds the error of
   * interpolation weights (texel-adjust.h). */
  double max_step[3];
  char title[128];        /* without quotes; "" when none */
  int n_skipped;          /* unknown keyword lines skipped */
  int first_skipped_line; /* the first of them, or 0 */
} TexelCube;

typedef struct
{
  int line; /* 1-based; 0: about the whole file */
  char message[160];
} TexelCubeError;

/* Parses @length bytes at @data. Returns a new table (texel_cube_free),
 * or NULL with @error filled (@error may be NULL). */
TexelCube *texel_cube_parse (const char *data, size_t length,
                             TexelCubeError *error);
void texel_cube_free (TexelCube *cube);

/* Entry @i (0 .. N^3 - 1), channel @c. */
static inline float
texel_cube_entry (const TexelCube *cube, int i, int c)
{
  return cube->table[(size_t)i * 3 + c];
}

TEXEL_END_DECLS
#endif /* TEXEL_CUBE_H */
