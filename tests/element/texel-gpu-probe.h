/* gst-texel tests: whether a CUDA GPU is there for the 'gpu' suite's
 * tests (CUDA builds only).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_GPU_PROBE_H
#define TEXEL_GPU_PROBE_H

#include <glib.h>

/* The number of usable CUDA devices (at most 100), asked in a child
 * process so that this one never initialises CUDA: the tests run in
 * forked children, and CUDA does not survive a fork. Prints why there is
 * none. */
gint texel_probe_gpus (void);

#endif
