/* gst-texel tests: a texelfilter setting as the filter tests list them
 * (tests/unit/test-filter.c, test-filter-fast.c and
 * tests/gpu/test-filter-gpu.c), and the config it makes. Plain C, header
 * only: the GPU tests use no GLib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_TEST_FILTER_H
#define TEXEL_TEST_FILTER_H

#include "texel-filter.h"

/* A filter and its parameters. */
typedef struct
{
  TexelFilterKind filter;
  double sigma, amount, sigma_space, sigma_range;
  int radius;
} FilterSettings;

/* @cfg for @st, mirrored at the borders where @border (else clamped), on
 * all planes where @planes (else luma only). */
static inline void
filter_config_for (TexelFilterConfig *cfg, const FilterSettings *st, int border,
                   int planes)
{
  texel_filter_config_init (cfg);
  cfg->filter = st->filter;
  cfg->sigma = st->sigma;
  cfg->amount = st->amount;
  cfg->sigma_space = st->sigma_space;
  cfg->sigma_range = st->sigma_range;
  cfg->radius = st->radius;
  cfg->border = border ? TEXEL_FILTER_BORDER_MIRROR : TEXEL_FILTER_BORDER_CLAMP;
  cfg->planes = planes ? TEXEL_FILTER_PLANES_ALL : TEXEL_FILTER_PLANES_LUMA;
}

#endif /* TEXEL_TEST_FILTER_H */
