/* gst-texel tests: per-component access to any frame, and bus hygiene.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_FRAMES_H
#define TEXEL_FRAMES_H

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/check/gstharness.h>

/* Code of component @comp at its sample (@x, @y), whatever the format:
 * planar, semi-planar, packed or 10-bit (P010 read as 10-bit codes). */
guint frame_get (const GstVideoFrame * f, guint comp, gint x, gint y);
void frame_set (GstVideoFrame * f, guint comp, gint x, gint y, guint v);

/* Largest difference between two frames of the same format and size, over
 * every sample of every component; where in @where (free it), which names
 * @a the CPU's frame (the reference) and @b the one under test. */
guint frames_max_diff (const GstVideoFrame * a, const GstVideoFrame * b,
    gchar ** where);

/* The messages on an element's bus hold references to the element: drop
 * them (and whatever the state change to NULL posts) before a harness lets
 * the element go, or it would never be finalized. */
void drop_bus_messages (GstElement * e);

/* Tears a harness down once its element's bus messages are dropped (see
 * drop_bus_messages). */
void texel_harness_teardown (GstHarness * h);

/* Error and warning messages (@types) waiting on an element's bus, popped,
 * as one line of text ("" where there are none; free it). */
gchar *bus_messages_text (GstElement * e, GstMessageType types);

#endif
