/* gst-texel: texelfilter's fast CPU path.
 *
 * The box, gaussian and unsharp filters of texel-filter.h as two
 * separable passes, horizontal then vertical, the bilateral window by
 * window offset and Sobel's 3 x 3 window, over rows; the weights built once per
 plan
 * (texel_filter_fast_init):
 *
 *   box:      exact. Both passes sum codes (uint16, then uint32); the sum
 *             divided by the odd (2 R + 1)^2 is never a half, and is
 *             rounded by a multiply by a per-plan reciprocal that is
 *             exact for every sum a window can reach: the reference's
 *             codes, byte for byte.
 *   gaussian: the weights in Q15 (rounded, the centre taking the
 *             remainder so that they sum to exactly 32768); the
 *             horizontal pass keeps 8 fraction bits (uint16), the
 *             vertical pass accumulates in uint32 and rounds. The
 *             weights' rounding moves a pass by at most 128 codes times
 *             the sum of their errors (they sum to 1 exactly: below 120 x
 *             2^-16 at 61 taps), 0.23 code; two passes and the 8-bit
 *             fraction stay below 0.5 code, so the output is within 1
 *             code of the reference
 *             (tests/unit/test-filter-fast.c).
 *   unsharp:  the plan's float weights (the kernels' own) in two float
 *             passes, then v + amount * (v - blur) per row (vectorised),
 *             rounded and clamped. Not the integer gaussian: amount (up
 *             to 10) multiplies the blur's error, and the Q15 weights'
 *             0.23 code at 61 taps would become 2.3 codes. In float each
 *             pass errs by below 62 x 2^-24 x 255 (0.001 code), the
 *             combine times amount 10 below 0.03 code: within 1 code of
 *             the reference.
 *   bilateral: float sums of the weights ws(i) ws(j) range(d), with
 *             ws the plan's float spatial factors and range a table of
 *             the reference's exp (-range_coef d^2) (double, rounded to
 *             float) by code difference d (511 entries, d + 255); the
 *             reference's window and border rule, and the kernel's form:
 *             the centre plus the weighted mean of the differences (the
 *             centre's weight is 1, so den >= 1). Each weight is within
 *             4 x 2^-24 of its exact value (relative); the sums of up to
 *             65 x 65 terms err by below 4225 x 2^-24 of their scale,
 *             below 0.2 code in all: within 1 code of the reference. Not
 *             integers: with an absolute quantisation q of the weights
 *             the error grows as taps x q x 255 (16 codes for Q16 at
 *             65 x 65), and den would need 64-bit sums.

 *   sobel:    exact. gx and gy in integers (|g| <= 1020), g^2 summed
 *             below 2^22 (exact in float), sqrtf correctly rounded: the
 *             magnitude / 4 can land on a half only where it is one (a
 *             perfect square; otherwise it is at least 1 / 2886 from an
 *             integer, sqrtf within 2^-14 of it), so the rounding gives
 *             the reference's codes, byte for byte.
 *
 * The measured largest difference (tests/unit/test-filter-fast.c) is 1
 * code for gaussian, unsharp and bilateral, 0 for box and Sobel.
 *
 * Covered: every filter on 8-bit formats (every format but P010), both
 * border modes, both plane settings. Falls back to the reference for
 * P010 (10 bits).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_FILTER_FAST_H
#define TEXEL_FILTER_FAST_H

#include <stdint.h>

#include "texel-filter.h"

TEXEL_BEGIN_DECLS

/* Code differences of 8-bit samples: 0..255. */
#define TEXEL_FILTER_RANGE_CODES 256

struct TexelFilterFast
{
  int covered; /* 0: texel_filter_fast runs the reference */
  /* Per-axis weights, weight[k + radius]: box 1, gaussian Q15. */
  uint16_t weight[TEXEL_FILTER_TAPS_MAX];
  /* Box: round (s / count) = ((2 s + count) * box_magic) >> 40. */
  uint64_t box_magic;
  /* Bilateral: the range factor by code difference d, range[d + 255]. */
  float range[2 * TEXEL_FILTER_RANGE_CODES - 1];
};

/* Fills @fast for @plan (a plan texel_filter_plan_init built; the caller
 * keeps @fast next to the plan and points plan->fast at it). */
void texel_filter_fast_init (TexelFilterFast *fast,
                             const TexelFilterPlan *plan);
/* Whether @fast covers its plan (otherwise texel_filter_fast runs the
 * reference); NULL: no. */
int texel_filter_fast_covers (const TexelFilterFast *fast);
/* texel_filter_cpu's contract: output rows [row0, row1). Runs
 * texel_filter_cpu where plan->fast is NULL or does not cover the plan. */
void texel_filter_fast (const TexelFilterPlan *plan, const TexelImage *in,
                        TexelImage *out, int row0, int row1);

TEXEL_END_DECLS

#endif /* TEXEL_FILTER_FAST_H */
