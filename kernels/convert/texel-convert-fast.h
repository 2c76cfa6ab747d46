/* gst-texel: texelconvert's fast CPU path.
 *
 * The same conversion as the double-precision reference
 * (texel_convert_cpu, the tests' oracle), in fixed point with taps
 * precomputed per plan: within one 8-bit code of the reference
 * (tests/unit/test-convert-fast.c).
 *
 * Covered: 8-bit formats in and out (NV12, NV21, I420, YV12, YUY2,
 * UYVY, the RGB(A) family, GRAY8), nearest, bilinear and bicubic,
 * cropping, letterboxing, and the directions whose map is axis-aligned
 * (identity, 180, horizontal and vertical flips); raw Bayer input
 * (8 to 16-bit mosaics), each mosaic row a tap reads developed at 1:1 by
 * texel-bayer-fast.h into the 16-bit values an 8-bit input's rows are
 * filtered in, then scaled, cropped, letterboxed and converted like them
 * (to an RGB format at 1:1 filling the frame its values are rounded
 * straight to codes). Falls back to the reference for the rest: P010 on
 * either side, the 90-degree rotations and transpositions.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CONVERT_FAST_H
#define TEXEL_CONVERT_FAST_H

#include "texel-convert.h"

TEXEL_BEGIN_DECLS

/* The per-plan tables (taps, fixed-point matrix) of @plan, or NULL when
 * the fast path does not cover it (or out of memory). Built once when the
 * plan is; kept in plan->fast, freed with texel_convert_fast_free. */
TexelConvertFast *texel_convert_fast_new (const TexelConvertPlan *plan);
void texel_convert_fast_free (TexelConvertFast *fast);

/* texel_convert_cpu's contract: output rows [row0, row1). Runs the
 * reference when plan->fast is NULL. Safe to call from several threads
 * on one plan (scratch is per call). */
void texel_convert_fast (const TexelConvertPlan *plan, const TexelImage *in,
                         TexelImage *out, int row0, int row1);

TEXEL_END_DECLS
#endif /* TEXEL_CONVERT_FAST_H */
