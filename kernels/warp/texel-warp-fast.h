/* gst-texel: texelwarp's fast CPU path.
 *
 * The warp's map does not change between frames, so it is computed once
 * per plan (by the reference's own double-precision function,
 * texel_warp_source_border_d) into a table of input positions, and a
 * frame is one gather pass over it (as OpenCV's remap with a fixed-point
 * map, or geometrictransform's precomputed map). Every model (none,
 * pinhole, fisheye, either projection), every border mode and every size
 * gives the same kind of table, so the fast path does not depend on the
 * model.
 *
 * The table, per output sample of each group of components sharing a
 * sample grid (RGBA: one; NV12, I420: luma and chroma), in the input
 * component's own grid: int16 x, y (x = -1: the border colour) and, for
 * bilinear, uint16 fractions fx, fy in 1/4096 of a sample: 4 bytes a
 * sample for nearest, 8 for bilinear (3840x2160 bilinear: RGBA 66.4 MB,
 * NV12 82.9 MB with its chroma; nearest half that). Positions, not byte
 * offsets: the input's stride is a frame's, and one plan may see frames
 * of different strides. For bilinear the
 * reference's clamp of the second taps is folded into the table: a
 * position at or past the last sample centre of a row or column names
 * the sample before it with fraction 4096/4096, so that the second taps
 * are always the next samples and the blend has no branch but the
 * border's. The rows of the table are filled on first use by the band
 * that needs them, so that the worker threads share the work and a plan
 * on the GPU path costs nothing.
 *
 * A frame: nearest copies the sample; bilinear blends the 2 x 2 taps in
 * one pass per pixel with SSE2 or NEON intrinsics (planes, NV12's chroma
 * pairs, the RGBA family; texel-warp-fast.c says why intrinsics), or
 * through a scratch (RGB, YUY2, UYVY).
 *
 * Accuracy against the reference (tests/unit/test-warp-fast.c):
 *   nearest:  exact: the same double position, rounded to float once,
 *             picks the same sample.
 *   bilinear: within 1 code. Rounding a fraction to 1/4096 moves it by
 *             at most 1/8192; the bilinear blend changes by at most 255
 *             codes per unit of either fraction, so by at most 255 x 2 /
 *             8192 = 0.0623 code. The blend runs in integers: vertically
 *             first, each column rounded to 1/128 of a code (7 fraction
 *             bits: SSE2's pmaddwd multiplies signed 16-bit lanes;
 *             0.0039 code), then horizontally and rounded once to a
 *             code. Against the exact value the output is within 0.5 +
 *             0.0623 + 0.0039 = 0.567 codes (0.532 measured on random
 *             frames, every one-pass layout), so it differs from the
 *             reference's rounding by at most 1 code, and only where the
 *             reference's value lies within 0.067 of a half (about 1
 *             byte in 150 on random codes). cv::remap's fixed-point map
 *             (5 fraction bits, INTER_BITS) is within 0.5 + 255 x 2 / 64
 *             = 8.5 codes of the exact value at the steepest edges.
 *             SSE2, NEON and the scalar code give the same bytes.
 *
 * Covered: the same 8-bit format in and out (NV12, NV21, I420, YV12, YUY2,
 * UYVY, the RGB(A) family, GRAY8) with a colour matrix that is the
 * identity (the same colorimetry; chroma siting may differ), nearest and
 * bilinear. Falls back to the reference for the rest: bicubic, P010, a
 * format or colorimetry conversion.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_WARP_FAST_H
#define TEXEL_WARP_FAST_H

#include "texel-warp.h"

TEXEL_BEGIN_DECLS

/* The per-plan map of @plan (its memory allocated, its rows empty), or
 * NULL when the fast path does not cover the plan (or out of memory).
 * Built when the plan is; kept in plan->fast, freed with
 * texel_warp_fast_free. */
TexelWarpFast *texel_warp_fast_new (const TexelWarpPlan *plan);
void texel_warp_fast_free (TexelWarpFast *fast);

/* texel_warp_cpu's contract: output rows [row0, row1). Runs the reference
 * when plan->fast is NULL. Several threads may call it on one plan at
 * once for disjoint bands that start at even rows (the base's bands): a
 * band fills the map rows it reads. */
void texel_warp_fast (const TexelWarpPlan *plan, const TexelImage *in,
                      TexelImage *out, int row0, int row1);

TEXEL_END_DECLS
#endif /* TEXEL_WARP_FAST_H */
