/* gst-texel: texeladjust's fast CPU path.
 *
 * The element's CPU path (the double-precision reference,
 * texel-adjust-cpu.c, stays the tests' oracle). Every covered plan is
 * folded into integer tables once, when the plan is built
 * (texel_adjust_fast_init), each entry the reference's own code for that
 * input, so that the fast path gives the reference's codes exactly:
 *
 *  - Y'CbCr without the linear stage and without a 3D LUT (kind
 *    YUV_SEPARABLE: NV12, NV21, I420, YV12, YUY2, UYVY, P010): a luma
 *    table (256 or 1024 entries: gamma, then contrast and brightness) and
 *    the chroma pairs through videobalance's formula: two per-component
 *    tables where hue is 0 (the formula is then separable, exactly), else
 *    a 256 x 256 table of (Cb, Cr) -> (Cb2, Cr2) at 8 bits; at 10 bits
 *    with a hue the reference's own double formula per chroma sample;
 *  - GRAY8 without a vignette: one 256-entry table of the whole
 *    adjustment (the 3D LUT and the linear stage included);
 *  - 8-bit R'G'B' (the eight RGB formats) without a vignette and without
 *    a 3D LUT: a table per channel of the linear stage's curve (code to
 *    code), then `gamma ! videobalance` in the elements' own fixed-point
 *    matrices (integers, as texel-adjust.h writes them) with the gamma,
 *    luma and chroma tables above.
 *
 * Every other plan (the linear stage on Y'CbCr, a vignette, a 3D LUT on
 * colour formats) runs the reference: texel_adjust_fast says so with
 * texel_adjust_fast_covers.
 *
 * The state lives next to the plan (the element keeps one beside its
 * plan, tests their own) and plan->fast points at it; a plan whose fast
 * is NULL (texel_adjust_plan_init leaves it so) runs the reference.
 * Nothing is allocated: no free.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_ADJUST_FAST_H
#define TEXEL_ADJUST_FAST_H

#include <stdint.h>

#include "texel-adjust.h"

TEXEL_BEGIN_DECLS

typedef enum
{
  TEXEL_ADJUST_FAST_REFERENCE = 0, /* not covered: the reference */
  TEXEL_ADJUST_FAST_YUV,           /* luma table, chroma tables or formula */
  TEXEL_ADJUST_FAST_GRAY,          /* one table */
  TEXEL_ADJUST_FAST_RGB            /* curve tables, then the elements' pass */
} TexelAdjustFastMode;

struct TexelAdjustFast
{
  TexelAdjustFastMode mode;
  /* Y'CbCr: Y code -> Y2 code (gamma, then videobalance); GRAY8: the
   * whole adjustment. */
  uint16_t luma[1024];
  /* RGB: the gamma element's Y -> Y1, and videobalance's Y -> Y2. */
  uint8_t gamma[256], balance[256];
  /* RGB: the linear stage's curve of each channel, code -> code. */
  uint8_t curve[3][256];
  int gamma_on, balance_on;
  /* Chroma: cb[Cb], cr[Cr] where hue is 0 (chroma_pair 0); else 8 bits:
   * pair[Cb << 8 | Cr] = Cb2 | Cr2 << 8 (chroma_pair 1), 10 bits: the
   * formula (chroma_pair 2). */
  int chroma_pair;
  uint16_t cb[1024], cr[1024];
  uint16_t pair[256 * 256];
};

/* Fills @fast for @plan (a plan texel_adjust_plan_init built; @plan keeps
 * no pointer to @fast: set plan->fast to use it). */
void texel_adjust_fast_init (TexelAdjustFast *fast,
                             const TexelAdjustPlan *plan);
/* Whether @fast covers its plan (otherwise texel_adjust_fast runs the
 * reference). */
int texel_adjust_fast_covers (const TexelAdjustFast *fast);
/* texel_adjust_cpu's contract and codes: output rows [row0, row1) of
 * @plan, through plan->fast where it covers the plan, else the
 * reference. */
void texel_adjust_fast (const TexelAdjustPlan *plan, const TexelImage *in,
                        TexelImage *out, int row0, int row1);

TEXEL_END_DECLS

#endif /* TEXEL_ADJUST_FAST_H */
