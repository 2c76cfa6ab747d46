/* gst-texel: Y'CbCr <-> R'G'B' colour matrices.
 *
 * All matrices work on normalised codes: a stored code divided by the
 * format's largest code ((1 << bits) - 1). Decoding turns normalised input
 * codes into non-linear R'G'B' in [0, 1]; encoding is its exact inverse
 * for the output format. The plan's matrix is encode after decode, one
 * affine 3x4 map, so a kernel does one multiply-add per term.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-convert.h"

#include <string.h>

/* An affine map of 3-vectors: y[k] = sum_c a[k][c] * x[c] + a[k][3]. */
typedef double Affine[3][4];

void
texel_matrix_coefficients (TexelMatrix matrix, double *kr, double *kb)
{
  switch (matrix)
    {
      case TEXEL_MATRIX_BT601:
        *kr = 0.299;
        *kb = 0.114;
        break;
      case TEXEL_MATRIX_BT709:
        *kr = 0.2126;
        *kb = 0.0722;
        break;
      case TEXEL_MATRIX_BT2020:
        *kr = 0.2627;
        *kb = 0.0593;
        break;
      case TEXEL_MATRIX_SMPTE240M:
        *kr = 0.212;
        *kb = 0.087;
        break;
      case TEXEL_MATRIX_FCC:
        *kr = 0.30;
        *kb = 0.11;
        break;
      case TEXEL_MATRIX_RGB:
      default:
        /* Not a Y'CbCr matrix: no coefficients. */
        *kr = 0.0;
        *kb = 0.0;
        break;
    }
}

/* How a Y'CbCr format stores Y' in [0, 1] and Cb, Cr in [-0.5, 0.5] as
 * codes: code = value * range + offset. */
typedef struct
{
  double max_code;
  double off_y, range_y;
  double off_c, range_c;
} Quantisation;

static Quantisation
yuv_quantisation (const TexelFormatDesc *desc, int full_range)
{
  Quantisation q;
  int scale = 1 << (desc->bits - 8);

  q.max_code = (double)((1 << desc->bits) - 1);
  q.off_c = 128.0 * scale;
  if (full_range)
    {
      q.off_y = 0.0;
      q.range_y = q.max_code;
      q.range_c = q.max_code;
    }
  else
    {
      q.off_y = 16.0 * scale;
      q.range_y = 219.0 * scale;
      q.range_c = 224.0 * scale;
    }
  return q;
}

/* The matrix a Y'CbCr format really uses. One tagged "RGB" makes no
 * sense; rather than fail, read it as BT.709, the usual matrix today. */
static TexelMatrix
yuv_matrix (TexelMatrix matrix)
{
  return matrix == TEXEL_MATRIX_RGB ? TEXEL_MATRIX_BT709 : matrix;
}

static void
affine_identity (Affine a)
{
  int k;

  memset (a, 0, sizeof (Affine));
  for (k = 0; k < 3; k++)
    a[k][k] = 1.0;
}

/* Normalised input codes -> R'G'B'. */
static void
decode_matrix (const TexelFormatDesc *desc, const TexelColorimetry *color,
               Affine d)
{
  Quantisation q;
  double kr, kb, kg;
  /* R'G'B' from (Y', Cb, Cr): R = Y + 2 (1 - Kr) Cr, B = Y + 2 (1 - Kb) Cb,
   * G = (Y - Kr R - Kb B) / Kg. */
  double to_rgb[3][3];
  double scale[3], offset[3];
  int k, c;

  if (!desc->is_yuv)
    {
      affine_identity (d);
      return;
    }
  q = yuv_quantisation (desc, color->full_range);
  texel_matrix_coefficients (yuv_matrix (color->matrix), &kr, &kb);
  kg = 1.0 - kr - kb;

  to_rgb[0][0] = 1.0;
  to_rgb[0][1] = 0.0;
  to_rgb[0][2] = 2.0 * (1.0 - kr);
  to_rgb[1][0] = 1.0;
  to_rgb[1][1] = -2.0 * kb * (1.0 - kb) / kg;
  to_rgb[1][2] = -2.0 * kr * (1.0 - kr) / kg;
  to_rgb[2][0] = 1.0;
  to_rgb[2][1] = 2.0 * (1.0 - kb);
  to_rgb[2][2] = 0.0;

  /* (Y', Cb, Cr) from normalised codes n: value = (n * max - off) / range. */
  scale[0] = q.max_code / q.range_y;
  offset[0] = -q.off_y / q.range_y;
  scale[1] = scale[2] = q.max_code / q.range_c;
  offset[1] = offset[2] = -q.off_c / q.range_c;

  for (k = 0; k < 3; k++)
    {
      d[k][3] = 0.0;
      for (c = 0; c < 3; c++)
        {
          d[k][c] = to_rgb[k][c] * scale[c];
          d[k][3] += to_rgb[k][c] * offset[c];
        }
    }
}

/* R'G'B' -> normalised output codes. */
static void
encode_matrix (const TexelFormatDesc *desc, const TexelColorimetry *color,
               Affine e)
{
  Quantisation q;
  double kr, kb, kg;
  /* Y' = Kr R + Kg G + Kb B, Cb = (B - Y') / (2 (1 - Kb)),
   * Cr = (R - Y') / (2 (1 - Kr)). */
  double to_yuv[3][3];
  double scale[3], offset[3];
  int k, c;

  if (!desc->is_yuv)
    {
      affine_identity (e);
      return;
    }
  q = yuv_quantisation (desc, color->full_range);
  texel_matrix_coefficients (yuv_matrix (color->matrix), &kr, &kb);
  kg = 1.0 - kr - kb;

  to_yuv[0][0] = kr;
  to_yuv[0][1] = kg;
  to_yuv[0][2] = kb;
  to_yuv[1][0] = -kr / (2.0 * (1.0 - kb));
  to_yuv[1][1] = -kg / (2.0 * (1.0 - kb));
  to_yuv[1][2] = 0.5;
  to_yuv[2][0] = 0.5;
  to_yuv[2][1] = -kg / (2.0 * (1.0 - kr));
  to_yuv[2][2] = -kb / (2.0 * (1.0 - kr));

  /* Normalised code n = (value * range + off) / max. */
  scale[0] = q.range_y / q.max_code;
  offset[0] = q.off_y / q.max_code;
  scale[1] = scale[2] = q.range_c / q.max_code;
  offset[1] = offset[2] = q.off_c / q.max_code;

  for (k = 0; k < 3; k++)
    {
      for (c = 0; c < 3; c++)
        e[k][c] = to_yuv[k][c] * scale[k];
      e[k][3] = offset[k];
    }
}

/* @out = @second after @first. */
static void
affine_compose (Affine second, Affine first, Affine out)
{
  int k, c, j;

  for (k = 0; k < 3; k++)
    {
      for (c = 0; c < 4; c++)
        {
          double sum = c == 3 ? second[k][3] : 0.0;

          for (j = 0; j < 3; j++)
            sum += second[k][j] * first[j][c];
          out[k][c] = sum;
        }
    }
}

/* Same codes mean the same colour on both sides: the matrix is exactly the
 * identity, not merely within rounding of it. */
static int
same_encoding (const TexelFormatDesc *in, const TexelColorimetry *in_color,
               const TexelFormatDesc *out, const TexelColorimetry *out_color)
{
  if (in->is_yuv != out->is_yuv || in->bits != out->bits)
    return 0;
  if (!in->is_yuv)
    return 1;
  return !in_color->full_range == !out_color->full_range
         && yuv_matrix (in_color->matrix) == yuv_matrix (out_color->matrix);
}

void
texel_color_matrix (const TexelFormatDesc *in, const TexelColorimetry *in_color,
                    const TexelFormatDesc *out,
                    const TexelColorimetry *out_color, double m[3][4])
{
  Affine decode, encode;

  if (same_encoding (in, in_color, out, out_color))
    {
      affine_identity (m);
      return;
    }
  decode_matrix (in, in_color, decode);
  encode_matrix (out, out_color, encode);
  affine_compose (encode, decode, m);
}
