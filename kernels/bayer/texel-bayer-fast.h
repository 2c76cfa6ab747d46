/* gst-texel: the fast CPU path's raw Bayer development (texelconvert).
 *
 * Develops one row of a mosaic at a time, as the reference's
 * texel_bayer_develop does pixel by pixel (texel-bayer.h): linear values
 * (black level, white balance) in float, the plan's demosaic weights
 * (bilinear or MHC, kernel[class][colour] in 16ths) applied tap by tap
 * over whole rows, the colour matrix, the clip to [0, 1] and the transfer
 * curve through a table indexed by the float's exponent and top mantissa
 * bits (128 steps an octave over [2^-32, 1], linearly interpolated), so
 * that the steep start of the pure power curves keeps its precision.
 * Borders mirror as texel_bayer_mirror does. The row comes out as
 * R'G'B' * 255 in float: rounded straight to the codes of an RGB output
 * at 1:1 (within 0.001 code of the exact value before rounding), else
 * turned into texelconvert's fast path's 16-bit intermediate values and
 * filtered, converted and stored like any 8-bit input's
 * (texel-convert-fast.c).
 *
 * Used by texel-convert-fast.c for plans whose map is 1:1 and axis-aligned
 * (crops, horizontal and vertical flips, 180, letterboxing) and whose
 * output is 8-bit; the rest (scaling, 90-degree rotations and
 * transpositions, P010 output) runs the reference. Within one 8-bit code
 * of it (tests/unit/test-bayer-fast.c).
 *
 * The white-balance gains are read from the plan's scale and offset at
 * every row, so that the automatic white balance
 * (texel_bayer_plan_set_gains between frames) needs no new tables.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_BAYER_FAST_H
#define TEXEL_BAYER_FAST_H

#include "texel-bayer.h"

TEXEL_BEGIN_DECLS

typedef struct _TexelBayerFast TexelBayerFast;

/* The tap lists and the transfer table of @bp, or NULL (out of memory).
 * Built once per plan; freed with texel_bayer_fast_free. */
TexelBayerFast *texel_bayer_fast_new (const TexelBayerPlan *bp);
void texel_bayer_fast_free (TexelBayerFast *fast);

/* Bytes of scratch texel_bayer_fast_row needs for @n columns. The
 * scratch keeps the linearised mosaic rows between calls (a ring of the
 * five rows a developed row reads): texel_bayer_fast_reset empties it,
 * once before a band's first row (and whenever the gains may have
 * changed). */
size_t texel_bayer_fast_scratch (int n);
void texel_bayer_fast_reset (void *scratch);

/* Developed row @y (inside the frame) of mosaic @in, columns [@x0, @x0 +
 * @n) (inside the frame): R'G'B' * 255 into @rgb[0..2].
 * @scratch: texel_bayer_fast_scratch (@n) bytes, 16-byte aligned, reset
 * with texel_bayer_fast_reset before the band's first call. */
void texel_bayer_fast_row (const TexelBayerFast *fast, const TexelBayerPlan *bp,
                           const TexelImage *in, int y, int x0, int n,
                           float *const rgb[3], void *scratch);

TEXEL_END_DECLS
#endif /* TEXEL_BAYER_FAST_H */
