/* gst-texel tests: the 3D LUTs the tests make, as functions of (R', G', B')
 * and as .cube text (tests/unit/test-adjust.c, test-cube.c and
 * tests/gpu/test-adjust-gpu.c). Plain C, header only: the GPU tests use
 * no GLib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_TEST_LUTS_H
#define TEXEL_TEST_LUTS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "texel-cube.h"

typedef void (*LutFunction) (double r, double g, double b, double o[3]);

static inline void
lut_identity (double r, double g, double b, double o[3])
{
  o[0] = r;
  o[1] = g;
  o[2] = b;
}

static inline void
lut_invert (double r, double g, double b, double o[3])
{
  o[0] = 1.0 - r;
  o[1] = 1.0 - g;
  o[2] = 1.0 - b;
}

static inline void
lut_swap_rb (double r, double g, double b, double o[3])
{
  o[0] = b;
  o[1] = g;
  o[2] = r;
}

static inline void
lut_squares (double r, double g, double b, double o[3])
{
  o[0] = r * r;
  o[1] = g * g;
  o[2] = b * b;
}

/* Identity on [-0.5, 1.5], lattice fraction t at -0.5 + 2 t. */
static inline void
lut_range_identity (double r, double g, double b, double o[3])
{
  o[0] = 2.0 * r - 0.5;
  o[1] = 2.0 * g - 0.5;
  o[2] = 2.0 * b - 0.5;
}

/* A smooth grade with cross-channel terms, a little outside [0, 1]. */
static inline void
lut_grade (double r, double g, double b, double o[3])
{
  o[0] = 0.9 * pow (r > 0.0 ? r : 0.0, 0.8) + 0.15 * g - 0.02;
  o[1] = pow (g > 0.0 ? g : 0.0, 1.1) + 0.05 * (b - r);
  o[2] = 0.85 * b + 0.1 * r + 0.05;
}

/* A .cube file's text for @f sampled on an @n^3 lattice over the domain
 * [@lo, @hi] (the LUT's inputs), red fastest; its length in @len. NULL
 * where out of memory; free () it. */
static inline char *
lut_cube_text (int n, LutFunction f, double lo, double hi, size_t *len)
{
  size_t cap = 256 + (size_t)n * n * n * 48;
  char *text = malloc (cap);
  int r, g, b;

  if (text == NULL)
    return NULL;
  *len = (size_t)snprintf (text, cap, "TITLE \"test\"\nLUT_3D_SIZE %d\n", n);
  if (lo != 0.0 || hi != 1.0)
    *len += (size_t)snprintf (
        text + *len, cap - *len,
        "DOMAIN_MIN %.9g %.9g %.9g\nDOMAIN_MAX %.9g %.9g %.9g\n", lo, lo, lo,
        hi, hi, hi);
  for (b = 0; b < n; b++)
    for (g = 0; g < n; g++)
      for (r = 0; r < n; r++)
        {
          double o[3], d = (hi - lo) / (n - 1);

          f (lo + r * d, lo + g * d, lo + b * d, o);
          *len += (size_t)snprintf (text + *len, cap - *len, "%.9g %.9g %.9g\n",
                                    o[0], o[1], o[2]);
        }
  return text;
}

/* @f as lut_cube_text makes it, parsed as the element parses .cube files;
 * NULL where that fails (saying why on stdout). */
static inline TexelCube *
lut_cube_new (int n, LutFunction f, double lo, double hi)
{
  size_t len = 0;
  char *text = lut_cube_text (n, f, lo, hi, &len);
  TexelCubeError error;
  TexelCube *cube;

  if (text == NULL)
    return NULL;
  cube = texel_cube_parse (text, len, &error);
  if (cube == NULL)
    printf ("generated LUT, line %d: %s\n", error.line, error.message);
  free (text);
  return cube;
}

#endif
