/* gst-texel: texelfilter's fast CPU path.
 *
 * The box and gaussian filters of texel-filter.h as two separable integer
 * passes, horizontal then vertical, with integer weights built once per
 * plan (texel_filter_fast_init):
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
 *
 * Covered: box and gaussian on 8-bit formats (every format but P010),
 * both border modes, both plane settings. Falls back to the reference
 * for the rest: unsharp, bilateral, Sobel, and P010 (10 bits).
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
