/* gst-texel tests: what the element tests share: per-component access to
 * any frame, caps and buffers to push, harness and bus hygiene, the CPU
 * reference's view of a frame, gst-launch lines run to EOS.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_FRAMES_H
#define TEXEL_FRAMES_H

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "texel-image.h"

/* 1 where the plugin is built with CUDA (HAVE_CUDA), and with GStreamer's
 * CUDA library (HAVE_GST_CUDA), else 0 (config.h comes first). */
#if defined(HAVE_CUDA) && HAVE_CUDA
#define TEXEL_TEST_HAVE_CUDA 1
#else
#define TEXEL_TEST_HAVE_CUDA 0
#endif
#if defined(HAVE_GST_CUDA) && HAVE_GST_CUDA
#define TEXEL_TEST_HAVE_GST_CUDA 1
#else
#define TEXEL_TEST_HAVE_GST_CUDA 0
#endif

/* Every raw video format every element takes (texelconvert and
 * texelwarp also take GRAY16_LE). */
#define TEXEL_N_FORMATS 26
extern const gchar *const texel_all_formats[TEXEL_N_FORMATS];

/* Code of component @comp at its sample (@x, @y), whatever the format:
 * planar, semi-planar, packed or 10-bit (P010 read as 10-bit codes). */
guint frame_get (const GstVideoFrame *f, guint comp, gint x, gint y);
void frame_set (GstVideoFrame *f, guint comp, gint x, gint y, guint v);

/* Largest difference between two frames of the same format and size, over
 * every sample of every component; where in @where (free it), which names
 * @a the CPU's frame (the reference) and @b the one under test. */
guint frames_max_diff (const GstVideoFrame *a, const GstVideoFrame *b,
                       gchar **where);
/* The same, but for the last sample of each chroma row where
 * @skip_last_chroma, @where naming @a's value @a_name and @b's @b_name. */
guint texel_frames_max_diff (const GstVideoFrame *a, const GstVideoFrame *b,
                             gboolean skip_last_chroma, const gchar *a_name,
                             const gchar *b_name, gchar **where);

/* The messages on an element's bus hold references to the element: drop
 * them (and whatever the state change to NULL posts) before a harness lets
 * the element go, or it would never be finalized. */
void drop_bus_messages (GstElement *e);

/* Tears a harness down once its element's bus messages are dropped (see
 * drop_bus_messages). */
void texel_harness_teardown (GstHarness *h);

/* Error and warning messages (@types) waiting on an element's bus, popped,
 * as one line of text ("" where there are none; free it). */
gchar *bus_messages_text (GstElement *e, GstMessageType types);

/* Before gst_check_init: objects alive when a test's process ends fail
 * it (the leaks tracer, unless GST_TRACERS or TEXEL_TEST_NO_LEAKS_TRACER
 * is set). Then gst_check_init. */
void texel_check_init (int *argc, char ***argv);

/* A test case @name of @s, with a timeout of @timeout s where > 0. */
TCase *texel_suite_add_tcase (Suite *s, const gchar *name, gint timeout);

/* One entry of texel_suite_new's list: a test and its name (which
 * GST_CHECKS selects by), run once, or @loops times (__i__ from 0) where
 * @loops > 0. */
typedef struct
{
  const gchar *name;
  TFun func;
  gint loops;
} TexelTest;
#define TEXEL_TEST(func)                                                       \
  {                                                                            \
#func, func, 0                                                             \
  }
#define TEXEL_LOOP_TEST(func, loops)                                           \
  {                                                                            \
#func, func, (loops)                                                       \
  }

/* Adds @tests to @tc, in order. */
void texel_tcase_add_tests (TCase *tc, const TexelTest *tests, guint n_tests);

/* A suite @name of one test case @tcase (timeout @timeout s where > 0)
 * holding @tests, in order. */
Suite *texel_suite_new (const gchar *name, const gchar *tcase, gint timeout,
                        const TexelTest *tests, guint n_tests);

/* One test case of texel_suite_new_tcases's list: its name, timeout (s,
 * where > 0) and tests. */
typedef struct
{
  const gchar *name;
  gint timeout;
  const TexelTest *tests;
  guint n_tests;
} TexelTCase;
#define TEXEL_TCASE(name, timeout, tests)                                      \
  {                                                                            \
    name, timeout, tests, G_N_ELEMENTS (tests)                                 \
  }

/* A suite @name of @tcases, in order. */
Suite *texel_suite_new_tcases (const gchar *name, const TexelTCase *tcases,
                               guint n_tcases);

/* texel_check_init, then runs the suite that @suite makes (named @name,
 * in source file @file) with gst_check_run_suite: main ()'s result. */
int texel_check_run (int *argc, char ***argv, Suite *(*suite) (void),
                     const gchar *name, const gchar *file);

/* Fixed caps "video/x-raw,format=@format,width=@width,height=@height,
 * framerate=30/1,pixel-aspect-ratio=1/1", then ",@yuv_fields" for YUV
 * formats or ",@rgb_fields" for RGB ones where given (free it). */
gchar *texel_caps_new (const gchar *format, gint width, gint height,
                       const gchar *yuv_fields, const gchar *rgb_fields);
GstVideoInfo texel_video_info_from_caps_string (const gchar *s);
/* The video info of @h's output caps. */
void texel_harness_out_info (GstHarness *h, GstVideoInfo *info);
/* Field @field of texel element @e's stats property (fails the test where
 * it has none). */
guint64 texel_stats_get (GstElement *e, const gchar *field);
/* Pops messages off @e's bus up to its texel-strategy element message,
 * which it returns (NULL if there is none). */
GstMessage *texel_pop_strategy_message (GstElement *e);

/* "name=value name=value" on @object: every name must be a property of
 * it, unless @skip_unknown. */
void texel_set_properties (GObject *object, const gchar *props,
                           gboolean skip_unknown);
/* @factory with @props (texel_set_properties), on a bus of its own so
 * that its messages can be read. */
GstElement *texel_test_element_new (const gchar *factory, const gchar *props);
/* @e (taken) in a harness, which sets it to PLAYING right away. */
GstHarness *texel_harness_new_with (GstElement *e);
gint texel_get_int (gpointer object, const gchar *name);

/* The code of component @c at (@x, @y), at most @max. */
typedef guint (*TexelCodeFunc) (gpointer user_data, guint c, gint x, gint y,
                                guint max);
/* A buffer in the default layout of @info (padding bytes 0xff) holding
 * @code's codes (P010: 10-bit codes), at @pts, 1/30 s long. */
GstBuffer *texel_buffer_new_filled (const GstVideoInfo *info,
                                    TexelCodeFunc code, gpointer user_data,
                                    GstClockTime pts);
/* The same with random valid codes from @rand. */
GstBuffer *texel_buffer_new_random (const GstVideoInfo *info, GRand *rand,
                                    GstClockTime pts);

/* Rows of plane @plane of @info. */
gint texel_info_plane_height (const GstVideoInfo *info, guint plane);
/* A buffer whose rows are @extra_stride bytes longer than the default and
 * whose planes start at non-default offsets (@lead bytes before the first
 * plane, @gap bytes between planes), described by a GstVideoMeta and by
 * @padded; all bytes 0xa5 (so that reading padding shows) until filled. */
GstBuffer *texel_buffer_new_padded (const GstVideoInfo *info, gint extra_stride,
                                    gsize lead, gsize gap,
                                    GstVideoInfo *padded);

/* Pushes @in, which must be accepted, and pulls the output. */
GstBuffer *texel_push_pull (GstHarness *h, GstBuffer *in);

/* @f's planes as the kernels' CPU reference takes them. */
void texel_image_from_frame (TexelImage *img, GstVideoFrame *f);

/* Runs each gst-launch line of @lines to EOS (no error, within
 * @timeout). */
void texel_run_launch_lines (const gchar *const *lines, guint n_lines,
                             GstClockTime timeout);

#endif
