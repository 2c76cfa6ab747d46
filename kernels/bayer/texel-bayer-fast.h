/* gst-texel: the fast CPU path's raw Bayer development (texelconvert).
 *
 * Develops one row of a mosaic at a time, as the reference's
 * texel_bayer_develop does pixel by pixel (texel-bayer.h), into R'G'B'
 * * 255 in fixed point (TEXEL_BAYER_FAST_FRAC_BITS fractional bits,
 * int16): rounded to the codes of an RGB output at 1:1, else
 * texelconvert's fast path's 16-bit intermediate values, filtered,
 * converted and stored like any 8-bit input's (texel-convert-fast.c).
 * Each mosaic row is read once per band (a ring of the five rows a
 * developed row reads). Borders mirror as texel_bayer_mirror does. Two
 * ways, chosen per frame by texel_bayer_fast_sync:
 *
 * Integer (the common case: the colour matrix diagonal, as the default
 * identity is; every pattern and depth). The reference's demosaicked
 * colour c of a pixel is the sum over the window of weight (16ths) x
 * (code x scale + offset) of each sample's own colour. The plan's
 * filters read colour c with weights summing to 16 and at most one other
 * colour r with weights summing to 0 (MHC's gradient terms), so that sum
 * is scale[c] / 16 x Y + offset[c] with Y = A + scale[r] / scale[c] x B,
 * A and B the integer sums of the codes of each colour. Y is summed in
 * int32 from the codes (int16, centred); B is scaled and rounded to a
 * 16th of a code only where the two colours' scales differ (white
 * balance or black levels per channel with MHC). A table per colour then
 * maps Y (clamped to [0, the sum where the value clips at 1], shifted
 * right by bits - 10 above 10 bits) to the encoded value: black level,
 * gain, matrix term, clip and transfer curve in one look-up. Its entry
 * is the exact value of the middle of the sums it stands for: exact
 * (to 1/128 code) for 8 and 10-bit mosaics with equal scales or the
 * bilinear filter, whose index is Y itself; otherwise the tables are
 * built only where every entry lies within 0.875 code of the encoded
 * exact value of every sum it stands for (the rounding of B counted),
 * which the pure power curves miss at high gains and depths: those
 * frames take the float way. The tables are rebuilt by
 * texel_bayer_fast_sync when the plan's gains changed (the automatic
 * white balance, between frames): three tables of at most 32768 entries
 * (4081 to 7141 for an 8-bit mosaic at unit gains).
 *
 * Float (a full colour matrix, or the tables' bound missed): linear
 * values (black level, white balance) in float, the plan's weights
 * applied tap by tap over whole rows, the colour matrix, the clip to
 * [0, 1] and the transfer curve through a table indexed by the float's
 * exponent and top mantissa bits (128 steps an octave over [2^-32, 1],
 * linearly interpolated), so that the steep start of the pure power
 * curves keeps its precision (within 0.001 code of the exact value
 * before rounding).
 *
 * Used by texel-convert-fast.c for plans whose map is axis-aligned
 * (scaling, crops, horizontal and vertical flips, 180, letterboxing) and
 * whose output is 8-bit: the rows the resampler's taps read are developed
 * at 1:1, then filtered as its 16-bit values; the rest (90-degree
 * rotations and transpositions, P010 output) runs the reference. Within
 * one 8-bit code of it, scaled or not (tests/unit/test-bayer-fast.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_BAYER_FAST_H
#define TEXEL_BAYER_FAST_H

#include <stddef.h>

#include "texel-bayer.h"

TEXEL_BEGIN_DECLS

typedef struct _TexelBayerFast TexelBayerFast;

/* Fractional bits of the developed rows' values (R'G'B' * 255). */
#define TEXEL_BAYER_FAST_FRAC_BITS 7

/* The tap lists and the transfer table of @bp, or NULL (out of memory).
 * Built once per plan; freed with texel_bayer_fast_free. */
TexelBayerFast *texel_bayer_fast_new (const TexelBayerPlan *bp);
void texel_bayer_fast_free (TexelBayerFast *fast);

/* Brings @fast's integer tables in line with @bp's gains (rebuilt when
 * they changed since the last call) and says whether the rows take the
 * integer way (1) or the float way (0). @values: the frame's rows are
 * texel_bayer_fast_row's 16-bit values (their tables are then built
 * too: one curve evaluation an entry), not only
 * texel_bayer_fast_row_codes's codes (a few evaluations a code). Call it
 * before a frame's rows, from any band's thread (it serialises); rows
 * read what it set. */
int texel_bayer_fast_sync (TexelBayerFast *fast, const TexelBayerPlan *bp,
                           int values);

/* Bytes of scratch texel_bayer_fast_row needs for @n columns. The
 * scratch keeps the linearised mosaic rows between calls (a ring of the
 * five rows a developed row reads): texel_bayer_fast_reset empties it,
 * once before a band's first row (and whenever the gains may have
 * changed). */
size_t texel_bayer_fast_scratch (int n);
void texel_bayer_fast_reset (void *scratch);

/* Developed row @y (inside the frame) of mosaic @in, columns [@x0, @x0 +
 * @n) (inside the frame): R'G'B' * 255 << TEXEL_BAYER_FAST_FRAC_BITS
 * into @rgb[0..2], the way the last texel_bayer_fast_sync chose (the
 * integer way only where it was asked for @values).
 * @scratch: texel_bayer_fast_scratch (@n) bytes, 16-byte aligned, reset
 * with texel_bayer_fast_reset before the band's first call. */
void texel_bayer_fast_row (const TexelBayerFast *fast, const TexelBayerPlan *bp,
                           const TexelImage *in, int y, int x0, int n,
                           int16_t *const rgb[3], void *scratch);

/* The integer way's texel_bayer_fast_row straight to 8-bit RGB codes
 * (the exact value rounded once where the index is exact): R, G and B of
 * developed column @x0 + j at @dst + j * @pixel_stride + @offset[0..2]
 * (a negative stride flips), 0xff at @offset[3] (alpha or padding; -1:
 * none). Returns 0, or -1 (nothing written) when the last
 * texel_bayer_fast_sync chose the float way. */
int texel_bayer_fast_row_codes (const TexelBayerFast *fast,
                                const TexelBayerPlan *bp, const TexelImage *in,
                                int y, int x0, int n, uint8_t *dst,
                                ptrdiff_t pixel_stride, const int offset[4],
                                void *scratch);

/* texel_bayer_stats, exactly (the same integer sums), vectorised: the
 * grey-world statistics of @in's samples in [@x0, @x1) x [@y0, @y1)
 * (inside the frame) added to @stats. */
void texel_bayer_fast_stats (const TexelBayerPlan *bp, const TexelImage *in,
                             int x0, int y0, int x1, int y1,
                             TexelBayerStats *stats);

TEXEL_END_DECLS
#endif /* TEXEL_BAYER_FAST_H */
