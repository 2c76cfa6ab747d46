/* gst-texel benchmarks: host time in microseconds (CLOCK_MONOTONIC).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <time.h>

static inline double
bench_now_us (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

#endif /* BENCH_CLOCK_H */
