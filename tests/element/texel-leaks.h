/* gst-texel tests: objects left alive, seen through the leaks tracer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_LEAKS_H
#define TEXEL_LEAKS_H

#include <gst/gst.h>
#include <gst/check/gstcheck.h>

/* The active leaks tracer (a new reference), or NULL when GST_TRACERS does
 * not name it. */
GstTracer *texel_find_leaks_tracer (void);
/* Fails the test if an object listed in the checkpoint @cp as created is
 * still alive. */
void texel_check_checkpoint_empty (const GstStructure *cp, const gchar *what);

#endif
