/* gst-texel: texelconvert on the GPU against texelconvert on the CPU.
 *
 * For each pair of formats below, random frames (seeded: the seed is
 * printed, TEXEL_TEST_SEED=n repeats a run) go through
 *   texelconvert backend=cuda memory-mode=zero-copy
 *   texelconvert backend=cuda memory-mode=staged
 *   texelconvert backend=cpu (the double-precision reference:
 *     GST_TEXEL_CPU=reference is set in main)
 * and the CUDA outputs must stay within a bound of the CPU output:
 *
 *  - nearest: <= 1 code. Both paths read the same input sample; only the
 *    arithmetic differs (float colour matrix on the GPU, double on the
 *    CPU), which can flip a rounding by one code.
 *  - bilinear: <= 4 codes for 8-bit outputs, <= 16 for P010 (10-bit codes,
 *    4 per 8-bit code). The GPU filters in texture hardware, whose weights
 *    are 8-bit fixed point (1/256 steps): each interpolation axis may be
 *    off by up to about half a code, about 1 code over both axes; the
 *    colour matrix then amplifies it (Y'CbCr -> R'G'B': B' = 1.164 Y' +
 *    2.018 Cb, a gain of 3.2 when luma and chroma are both off), and the
 *    two paths round independently (+1): 4 codes at 8 bits, x4 at 10.
 *
 * Every configuration gets input buffers of three kinds: plain
 * gst_buffer_new_allocate() memory (twice: registered host memory is
 * reused), buffers from the pool the element proposes (the harness's
 * allocation query), and buffers with padded strides and odd plane
 * offsets described by a GstVideoMeta. active-memory-mode and the
 * texel-strategy message must report the mode that was asked for.
 *
 * One case runs texeladjust instead (test_adjust_lut_on_gpu): its 3D LUT
 * on the GPU against the exact map a 2-point table makes.
 *
 * Without a usable GPU the program prints why and exits 77 (skipped).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

#include "texel-frames.h"
#if TEXEL_TEST_HAVE_CUDA
#include "texel-chroma-check.h"
#include "texel-cuda.h"
#include "texel-leaks.h"
#include "texel-gpu-probe.h"
#endif

#define BACKEND_CUDA 1
#define ACTIVE_MEMORY_ZERO_COPY 2
#define ACTIVE_MEMORY_STAGED 3

#define IN_W 320
#define IN_H 240

/* Every input format into these ... */
static const gchar *rep_outputs[]
    = { "RGBA", "NV12", "I420", "P010_10LE", "BGR" };

/* ... and these into every output format. */
static const gchar *rep_inputs[] = { "RGBA", "NV12" };

static const struct
{
  gint w, h;
} out_sizes[] = {
  { IN_W, IN_H },
  { 200, 150 },
};

static const struct
{
  const gchar *nick;
  gint active;
} modes[] = {
  { "zero-copy", ACTIVE_MEMORY_ZERO_COPY },
  { "staged", ACTIVE_MEMORY_STAGED },
};

static guint32 seed;

/* ------------------------------------------------------------------------ */
/* Frames. */

/* Random codes that depend only on (seed, component, x, y), so that every
 * buffer layout carries the same picture. */
static guint
random_code (gint x, gint y, guint comp, guint depth)
{
  guint32 h = seed ^ (0x9e3779b9u * (comp + 1));

  h ^= (guint32)x * 0x85ebca6bu;
  h = (h << 13) | (h >> 19);
  h ^= (guint32)y * 0xc2b2ae35u;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h & ((1u << depth) - 1);
}

static void
frame_fill_random (GstVideoFrame *f)
{
  guint c;
  gint x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (f); c++)
    {
      guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (f->info.finfo, c);

      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (f, c); y++)
        {
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (f, c); x++)
            frame_set (f, c, x, y, random_code (x, y, c, depth));
        }
    }
}

static gchar *
make_caps (const gchar *format, gint width, gint height)
{
  return texel_caps_new (format, width, height, "colorimetry=bt601", NULL);
}

static void
fill_buffer (const GstVideoInfo *info, GstBuffer *buf)
{
  GstVideoFrame f;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  frame_fill_random (&f);
  gst_video_frame_unmap (&f);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
}

static GstBuffer *
make_plain_buffer (const GstVideoInfo *info)
{
  GstBuffer *buf
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);

  fill_buffer (info, buf);
  return buf;
}

/* Rows 64 bytes longer than the default, planes 40 bytes into the buffer
 * and 24 bytes apart (addresses and pitches that break the GPU's texture
 * alignment), described by a GstVideoMeta. */
static GstBuffer *
make_padded_buffer (const GstVideoInfo *info)
{
  GstVideoInfo pinfo;
  GstBuffer *buf = texel_buffer_new_padded (info, 64, 40, 24, &pinfo);

  fill_buffer (&pinfo, buf);
  return buf;
}

/* A buffer from the element's proposed pool (or allocator), as an
 * upstream element would get it. */
static GstBuffer *
make_pool_buffer (GstHarness *h, const GstVideoInfo *info)
{
  GstBuffer *buf = gst_harness_create_buffer (h, GST_VIDEO_INFO_SIZE (info));

  fill_buffer (info, buf);
  return buf;
}

/* ------------------------------------------------------------------------ */
/* Element. */

static GstHarness *
texel_harness_new (const gchar *props)
{
  return texel_harness_new_with (
      texel_test_element_new ("texelconvert", props));
}

/* texelconvert on the GPU in memory mode @mode with @depth frames in
 * flight, bilinear, without borders; *@props: its properties (g_free). */
static GstHarness *
in_flight_harness (guint mode, guint depth, gchar **props)
{
  *props = g_strdup_printf ("backend=cuda memory-mode=%s method=bilinear "
                            "add-borders=false frames-in-flight=%u",
                            modes[mode].nick, depth);
  return texel_harness_new (*props);
}

static gchar *
bus_errors (GstElement *e)
{
  GstBus *bus = gst_element_get_bus (e);
  GString *s = g_string_new (NULL);
  GstMessage *msg;

  while (bus && (msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)))
    {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      g_string_append_printf (s, "[%s (%s)] ", err->message,
                              GST_STR_NULL (dbg));
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (msg);
    }
  if (bus)
    gst_object_unref (bus);
  return g_string_free (s, FALSE);
}

static GstBuffer *
push_pull (GstHarness *h, GstBuffer *in, const gchar *what)
{
  GstFlowReturn ret = gst_harness_push (h, in);
  GstBuffer *out;

  if (ret != GST_FLOW_OK)
    {
      gchar *errors = bus_errors (h->element);

      fail ("%s: push returned %s; bus: %.1500s", what, gst_flow_get_name (ret),
            errors);
      g_free (errors);
    }
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "%s: no output buffer", what);
  return out;
}

static const gchar *
strategy_memory_mode (GstElement *e, gchar **backend)
{
  GstMessage *msg = texel_pop_strategy_message (e);
  const GstStructure *s;
  const gchar *mode;

  *backend = NULL;
  if (!msg)
    return NULL;
  s = gst_message_get_structure (msg);
  mode = g_intern_string (gst_structure_get_string (s, "memory-mode"));
  *backend = g_strdup (gst_structure_get_string (s, "backend"));
  gst_message_unref (msg);
  return mode;
}

/* The CPU output for one configuration. */
static GstBuffer *
convert_cpu (const gchar *method, const gchar *in_caps, const gchar *out_caps,
             const GstVideoInfo *in_info, GstVideoInfo *out_info)
{
  gchar *props
      = g_strdup_printf ("backend=cpu method=%s add-borders=false", method);
  GstHarness *h = texel_harness_new (props);
  GstBuffer *out;

  gst_harness_set_caps_str (h, in_caps, out_caps);
  out = push_pull (h, make_plain_buffer (in_info), props);
  texel_harness_out_info (h, out_info);
  texel_harness_teardown (h);
  g_free (props);
  return out;
}

static void
compare_backends (const gchar *in_fmt, const gchar *out_fmt)
{
  static const gchar *methods[] = { "nearest", "bilinear" };
  const GstVideoFormatInfo *out_finfo
      = gst_video_format_get_info (gst_video_format_from_string (out_fmt));
  gboolean out_10bit = GST_VIDEO_FORMAT_INFO_DEPTH (out_finfo, 0) > 8;
  guint m, s, k;

  for (m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      /* See the top of the file. */
      guint bound = m == 0 ? 1 : (out_10bit ? 16 : 4);

      for (s = 0; s < G_N_ELEMENTS (out_sizes); s++)
        {
          gchar *in_caps = make_caps (in_fmt, IN_W, IN_H);
          gchar *out_caps = make_caps (out_fmt, out_sizes[s].w, out_sizes[s].h);
          GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
          GstVideoInfo cpu_info;
          GstBuffer *cpu;
          GstVideoFrame cf;

          cpu = convert_cpu (methods[m], in_caps, out_caps, &in_info,
                             &cpu_info);
          fail_unless (gst_video_frame_map (&cf, &cpu_info, cpu, GST_MAP_READ));

          for (k = 0; k < G_N_ELEMENTS (modes); k++)
            {
              gchar *props = g_strdup_printf ("backend=cuda memory-mode=%s "
                                              "method=%s add-borders=false",
                                              modes[k].nick, methods[m]);
              GstHarness *h = texel_harness_new (props);
              guint v;

              gst_harness_set_caps_str (h, in_caps, out_caps);
              /* plain, plain, pool, pool, padded */
              for (v = 0; v < 5; v++)
                {
                  static const gchar *kinds[]
                      = { "plain", "plain (again)", "pool", "pool (again)",
                          "padded" };
                  GstBuffer *in = v < 2   ? make_plain_buffer (&in_info)
                                  : v < 4 ? make_pool_buffer (h, &in_info)
                                          : make_padded_buffer (&in_info);
                  gchar *what = g_strdup_printf ("%s %dx%d -> %s %dx%d, %s, %s "
                                                 "buffer (seed %u)",
                                                 in_fmt, IN_W, IN_H, out_fmt,
                                                 out_sizes[s].w, out_sizes[s].h,
                                                 props, kinds[v], seed);
                  GstBuffer *out = push_pull (h, in, what);
                  GstVideoInfo out_info;
                  GstVideoFrame gf;
                  gchar *where;
                  guint diff;

                  texel_harness_out_info (h, &out_info);
                  fail_unless (gst_video_info_is_equal (&out_info, &cpu_info),
                               "%s: output caps differ from the CPU's", what);
                  fail_unless (
                      gst_video_frame_map (&gf, &out_info, out, GST_MAP_READ));
                  diff = frames_max_diff (&cf, &gf, &where);
                  if (diff > bound)
                    fail ("%s: max difference %u > %u: %s", what, diff, bound,
                          GST_STR_NULL (where));
                  GST_INFO ("%s: max difference %u", what, diff);
                  g_free (where);
                  gst_video_frame_unmap (&gf);
                  gst_buffer_unref (out);

                  if (v == 0)
                    {
                      gchar *backend = NULL;
                      const gchar *mode;

                      fail_unless_equals_int (
                          texel_get_int (h->element, "active-backend"),
                          BACKEND_CUDA);
                      fail_unless_equals_int (
                          texel_get_int (h->element, "active-memory-mode"),
                          modes[k].active);
                      mode = strategy_memory_mode (h->element, &backend);
                      fail_unless (mode != NULL,
                                   "%s: no texel-strategy message", what);
                      fail_unless_equals_string (mode, modes[k].nick);
                      fail_unless_equals_string (backend, "cuda");
                      g_free (backend);
                    }
                  g_free (what);
                }
              texel_harness_teardown (h);
              g_free (props);
            }
          gst_video_frame_unmap (&cf);
          gst_buffer_unref (cpu);
          g_free (in_caps);
          g_free (out_caps);
        }
    }
}

GST_START_TEST (test_input_formats)
{
  const gchar *in_fmt = texel_all_formats[__i__];
  guint o;

  for (o = 0; o < G_N_ELEMENTS (rep_outputs); o++)
    compare_backends (in_fmt, rep_outputs[o]);
}

GST_END_TEST;

GST_START_TEST (test_output_formats)
{
  const gchar *in_fmt = rep_inputs[__i__];
  guint o, r;

  for (o = 0; o < TEXEL_N_FORMATS; o++)
    {
      gboolean done = FALSE;

      /* Pairs test_input_formats already covers. */
      for (r = 0; r < G_N_ELEMENTS (rep_outputs); r++)
        done |= g_str_equal (texel_all_formats[o], rep_outputs[r]);
      if (!done)
        compare_backends (in_fmt, texel_all_formats[o]);
    }
}

GST_END_TEST;

/* The GPU output @out of frame @i against the CPU's conversion @cpu of
 * the same picture, within the bound of compare_backends (bilinear, 8-bit
 * output). */
static void
check_frame_against_cpu (GstBuffer *out, GstBuffer *cpu,
                         const GstVideoInfo *info, const gchar *what, guint i)
{
  GstVideoFrame gf, cf;
  gchar *where;
  guint diff;

  fail_unless (gst_video_frame_map (&gf, info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&cf, info, cpu, GST_MAP_READ));
  diff = frames_max_diff (&cf, &gf, &where);
  fail_unless (diff <= 4, "%s, frame %u: max difference %u: %s", what, i, diff,
               GST_STR_NULL (where));
  g_free (where);
  gst_video_frame_unmap (&gf);
  gst_video_frame_unmap (&cf);
}

/* The frames of the frames-in-flight tests (30 frames/s, as their
 * timestamps). */
#define IN_FLIGHT_IN_CAPS                                                      \
  "video/x-raw,format=NV12,width=320,height=240,framerate=30/1"
#define IN_FLIGHT_OUT_CAPS                                                     \
  "video/x-raw,format=RGBA,width=200,height=150,framerate=30/1"

/* After frame @pushed (counting from 1) went in with @depth frames in
 * flight: every frame older than the @depth newest is out (the streaming
 * thread pushed it), and the newer ones may be (the finisher pushes a frame
 * the GPU has finished when no input follows). */
static void
check_received_in_flight (GstHarness *h, guint already, guint pushed,
                          guint depth, const gchar *what)
{
  guint received = gst_harness_buffers_received (h) - already;

  fail_unless (
      received >= (pushed > depth ? pushed - depth : 0) && received <= pushed,
      "%s: %u of %u frames out, %u in flight", what, received, pushed, depth);
}

/* Frames in flight: the output of frame i comes out at the latest when
 * frame i + n goes in, EOS drains the rest, and nothing is lost,
 * duplicated or reordered.
 * Each frame is a different picture (a different seed), compared with the
 * CPU's conversion of the same picture. */
GST_START_TEST (test_frames_in_flight)
{
  const gchar *in_caps = IN_FLIGHT_IN_CAPS, *out_caps = IN_FLIGHT_OUT_CAPS;
  const guint n_frames = 7, base_seed = seed;
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  GstBuffer *cpu[7];
  guint k, depth, i;

  for (i = 0; i < n_frames; i++)
    {
      GstVideoInfo cpu_info;

      seed = base_seed + i;
      cpu[i] = convert_cpu ("bilinear", in_caps, out_caps, &in_info, &cpu_info);
    }
  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      for (depth = 1; depth <= 2; depth++)
        {
          gchar *props;
          GstHarness *h = in_flight_harness (k, depth, &props);
          GstVideoInfo out_info = texel_video_info_from_caps_string (out_caps);

          gst_harness_set_caps_str (h, in_caps, out_caps);
          for (i = 0; i < n_frames; i++)
            {
              GstBuffer *in;

              seed = base_seed + i;
              in = make_plain_buffer (&in_info);
              GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
              fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
              check_received_in_flight (h, 0, i + 1, depth, props);
            }
          fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
          fail_unless_equals_int (gst_harness_buffers_received (h), n_frames);
          for (i = 0; i < n_frames; i++)
            {
              GstBuffer *out = gst_harness_pull (h);

              fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
                                         i * GST_SECOND / 30);
              check_frame_against_cpu (out, cpu[i], &out_info, props, i);
              gst_buffer_unref (out);
            }
          texel_harness_teardown (h);
          g_free (props);
        }
    }
  for (i = 0; i < n_frames; i++)
    gst_buffer_unref (cpu[i]);
  seed = base_seed;
}

GST_END_TEST;

/* Which way frames reach the GPU, seen through the element's counters:
 * buffers of its own pool are pinned and never copied on the host; foreign
 * memory is copied through pinned staging the first time, then registered
 * (once) and used in place; DMA moves each frame exactly once per way. */
GST_START_TEST (test_memory_paths)
{
  const gchar *in_caps = "video/x-raw,format=NV12,width=320,height=240";
  const gchar *out_caps = "video/x-raw,format=RGBA,width=200,height=150";
  const guint64 in_bytes = 320 * 240 * 3 / 2, out_bytes = 200 * 150 * 4;
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  GstVideoInfo cpu_info;
  GstBuffer *cpu
      = convert_cpu ("bilinear", in_caps, out_caps, &in_info, &cpu_info);
  guint k, i;

  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      gboolean staged = g_str_equal (modes[k].nick, "staged");
      gchar *props;
      GstHarness *h = in_flight_harness (k, 0, &props);
      GstBuffer *foreign = make_plain_buffer (&in_info);

      gst_harness_set_caps_str (h, in_caps, out_caps);
      for (i = 0; i < 6; i++)
        {
          /* Three pool buffers, then one foreign buffer three times. */
          GstBuffer *in = i < 3 ? make_pool_buffer (h, &in_info)
                                : gst_buffer_ref (foreign);
          gchar *what = g_strdup_printf ("%s, push %u", props, i);
          GstBuffer *out = push_pull (h, in, what);

          check_frame_against_cpu (out, cpu, &cpu_info, what, i);
          gst_buffer_unref (out);

          fail_unless_equals_uint64 (texel_stats_get (h->element, "frames"),
                                     i + 1);
          fail_unless_equals_uint64 (
              texel_stats_get (h->element, "bytes-host-copied"),
              i < 3 ? 0 : in_bytes);
          fail_unless_equals_uint64 (
              texel_stats_get (h->element, "registrations"), i < 4 ? 0 : 1);
          fail_unless_equals_uint64 (
              texel_stats_get (h->element, "bytes-to-device"),
              staged ? (i + 1) * in_bytes : 0);
          fail_unless_equals_uint64 (
              texel_stats_get (h->element, "bytes-to-host"),
              staged ? (i + 1) * out_bytes : 0);
          g_free (what);
        }
      gst_buffer_unref (foreign);
      texel_harness_teardown (h);
      g_free (props);
    }
  gst_buffer_unref (cpu);
}

GST_END_TEST;

#define RING_PUSHES 11
#define RING_DROPPED 5

/* The most frames in flight (3: a ring of 4 frame records, which 10
 * frames wrap round twice), with an input that cannot hold its frame
 * dropped while frames are held: every other frame comes out once, in
 * order, when the third frame after it goes in (or at EOS), equal to the
 * CPU's conversion of the same picture, and counted once in stats. */
GST_START_TEST (test_in_flight_ring)
{
  const gchar *in_caps = IN_FLIGHT_IN_CAPS, *out_caps = IN_FLIGHT_OUT_CAPS;
  const guint depth = 3, base_seed = seed;
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  GstVideoInfo out_info = texel_video_info_from_caps_string (out_caps);
  GstBuffer *cpu[RING_PUSHES];
  guint k, i, valid;

  for (i = 0; i < RING_PUSHES; i++)
    {
      GstVideoInfo cpu_info;

      seed = base_seed + i;
      cpu[i] = i == RING_DROPPED ? NULL
                                 : convert_cpu ("bilinear", in_caps, out_caps,
                                                &in_info, &cpu_info);
    }
  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      gchar *props;
      GstHarness *h = in_flight_harness (k, depth, &props);

      gst_harness_set_caps_str (h, in_caps, out_caps);
      for (i = 0, valid = 0; i < RING_PUSHES; i++)
        {
          GstBuffer *in;

          seed = base_seed + i;
          /* 16 bytes for a 320x240 NV12 frame: dropped with a warning. */
          in = i == RING_DROPPED ? gst_buffer_new_allocate (NULL, 16, NULL)
                                 : make_plain_buffer (&in_info);
          GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
          fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
          valid += i != RING_DROPPED;
          check_received_in_flight (h, 0, valid, depth, props);
        }
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
      fail_unless_equals_int (gst_harness_buffers_received (h), valid);
      for (i = 0; i < RING_PUSHES; i++)
        {
          GstBuffer *out;

          if (i == RING_DROPPED)
            continue;
          out = gst_harness_pull (h);
          fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 30);
          check_frame_against_cpu (out, cpu[i], &out_info, props, i);
          gst_buffer_unref (out);
        }
      fail_unless (gst_harness_try_pull (h) == NULL, "an extra frame came out");
      fail_unless_equals_uint64 (texel_stats_get (h->element, "frames"), valid);
      texel_harness_teardown (h);
      g_free (props);
    }
  for (i = 0; i < RING_PUSHES; i++)
    gst_clear_buffer (&cpu[i]);
  seed = base_seed;
}

GST_END_TEST;

/* New caps while frames are held: the caps event pushes the frames held
 * first, at the old size, and the frames after it are converted at the
 * new size in buffers configured again for it. */
GST_START_TEST (test_in_flight_caps_change)
{
  static const gchar *in_caps[2] = {
    "video/x-raw,format=NV12,width=320,height=240,framerate=30/1",
    "video/x-raw,format=NV12,width=160,height=120,framerate=30/1",
  };
  static const gchar *out_caps[2] = {
    "video/x-raw,format=RGBA,width=200,height=150,framerate=30/1",
    "video/x-raw,format=RGBA,width=96,height=72,framerate=30/1",
  };
  const guint depth = 2, per_caps = 3, base_seed = seed;
  GstVideoInfo in_info[2], out_info[2];
  GstBuffer *cpu[2][3];
  guint k, c, i;

  for (c = 0; c < 2; c++)
    {
      in_info[c] = texel_video_info_from_caps_string (in_caps[c]);
      out_info[c] = texel_video_info_from_caps_string (out_caps[c]);
      for (i = 0; i < per_caps; i++)
        {
          GstVideoInfo cpu_info;

          seed = base_seed + c * per_caps + i;
          cpu[c][i] = convert_cpu ("bilinear", in_caps[c], out_caps[c],
                                   &in_info[c], &cpu_info);
        }
    }
  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      gchar *props;
      GstHarness *h = in_flight_harness (k, depth, &props);

      for (c = 0; c < 2; c++)
        {
          gst_harness_set_caps_str (h, in_caps[c], out_caps[c]);
          /* The frames held before are out now. */
          fail_unless_equals_int (gst_harness_buffers_received (h),
                                  c * per_caps);
          for (i = 0; i < per_caps; i++)
            {
              GstBuffer *in;

              seed = base_seed + c * per_caps + i;
              in = make_plain_buffer (&in_info[c]);
              GST_BUFFER_PTS (in) = (c * per_caps + i) * GST_SECOND / 30;
              fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
              check_received_in_flight (h, c * per_caps, i + 1, depth, props);
            }
        }
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
      for (c = 0; c < 2; c++)
        {
          for (i = 0; i < per_caps; i++)
            {
              GstBuffer *out = gst_harness_pull (h);

              fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
                                         (c * per_caps + i) * GST_SECOND / 30);
              fail_unless_equals_uint64 (gst_buffer_get_size (out),
                                         GST_VIDEO_INFO_SIZE (&out_info[c]));
              check_frame_against_cpu (out, cpu[c][i], &out_info[c], props,
                                       c * per_caps + i);
              gst_buffer_unref (out);
            }
        }
      fail_unless (gst_harness_try_pull (h) == NULL, "an extra frame came out");
      texel_harness_teardown (h);
      g_free (props);
    }
  for (c = 0; c < 2; c++)
    for (i = 0; i < per_caps; i++)
      gst_buffer_unref (cpu[c][i]);
  seed = base_seed;
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* State, flushing and concurrency. */

/* A flush while frames may be in flight: no frame pushed before it comes
 * out after it (a frame still held is dropped; the finisher may have
 * pushed the last one before the flush), and the frames after it come out
 * in order. */
GST_START_TEST (test_flush_in_flight)
{
  guint k, i;

  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      gchar *props = g_strdup_printf ("backend=cuda memory-mode=%s "
                                      "frames-in-flight=1",
                                      modes[k].nick);
      GstHarness *h = texel_harness_new (props);
      GstVideoInfo info = texel_video_info_from_caps_string (
          "video/x-raw,format=NV12,width=64,height=48");
      GstSegment segment;
      GstBuffer *out;

      gst_harness_set_caps_str (
          h, "video/x-raw,format=NV12,width=64,height=48,framerate=30/1",
          "video/x-raw,format=RGBA,width=32,height=24,framerate=30/1");
      for (i = 0; i < 3; i++)
        {
          GstBuffer *in = make_plain_buffer (&info);

          GST_BUFFER_PTS (in) = i * GST_SECOND;
          fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
        }
      check_received_in_flight (h, 0, 3, 1, props);
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
      /* What came out before the flush. */
      while ((out = gst_harness_try_pull (h)) != NULL)
        {
          fail_unless (GST_BUFFER_PTS (out) < 3 * GST_SECOND);
          gst_buffer_unref (out);
        }
      gst_segment_init (&segment, GST_FORMAT_TIME);
      fail_unless (
          gst_harness_push_event (h, gst_event_new_segment (&segment)));
      for (i = 10; i < 12; i++)
        {
          GstBuffer *in = make_plain_buffer (&info);

          GST_BUFFER_PTS (in) = i * GST_SECOND;
          fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
        }
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
      for (i = 10; i < 12; i++)
        {
          out = gst_harness_pull (h);
          fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND);
          gst_buffer_unref (out);
        }
      fail_unless (gst_harness_try_pull (h) == NULL, "a stale frame came out");
      texel_harness_teardown (h);
      g_free (props);
    }
}

GST_END_TEST;

/* 1000 READY <-> PLAYING <-> NULL cycles with a frame in flight each time:
 * no error, and every cycle's frames come out. */
GST_START_TEST (test_state_cycles_in_flight)
{
  GstElement *pipeline = gst_parse_launch (
      "videotestsrc num-buffers=3 ! "
      "video/x-raw,format=NV12,width=64,height=48,framerate=30/1 ! "
      "texelconvert name=t backend=cuda frames-in-flight=1 ! "
      "video/x-raw,format=RGBA,width=32,height=24 ! fakesink",
      NULL);
  GstElement *t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstBus *bus = gst_element_get_bus (pipeline);
  guint cycle;

  for (cycle = 0; cycle < 1000; cycle++)
    {
      GstState via = cycle % 2 ? GST_STATE_READY : GST_STATE_NULL;
      GstMessage *msg;

      gst_element_set_state (pipeline, GST_STATE_PLAYING);
      msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
                                        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
      fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
                   "cycle %u did not reach EOS", cycle);
      gst_message_unref (msg);
      gst_element_set_state (pipeline, GST_STATE_PAUSED);
      fail_unless_equals_uint64 (texel_stats_get (t, "frames"), 3);
      fail_unless_equals_int (gst_element_set_state (pipeline, via),
                              GST_STATE_CHANGE_SUCCESS);
    }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (t);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* 16 pipelines at once in one process share the GPU: each converts all
 * its frames, in both memory modes, without an error. */
GST_START_TEST (test_concurrent_pipelines)
{
  GstElement *pipelines[16];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (pipelines); i++)
    {
      gchar *desc = g_strdup_printf (
          "videotestsrc num-buffers=60 pattern=%u ! "
          "video/x-raw,format=NV12,width=640,height=480,framerate=30/1 ! "
          "texelconvert name=t backend=cuda memory-mode=%s method=%s ! "
          "video/x-raw,format=RGBA,width=320,height=180 ! fakesink",
          i % 20, i % 2 ? "zero-copy" : "staged",
          i % 3 ? "bilinear" : "bicubic");

      pipelines[i] = gst_parse_launch (desc, NULL);
      fail_unless (pipelines[i] != NULL);
      g_free (desc);
    }
  for (i = 0; i < G_N_ELEMENTS (pipelines); i++)
    gst_element_set_state (pipelines[i], GST_STATE_PLAYING);
  for (i = 0; i < G_N_ELEMENTS (pipelines); i++)
    {
      GstBus *bus = gst_element_get_bus (pipelines[i]);
      GstElement *t = gst_bin_get_by_name (GST_BIN (pipelines[i]), "t");
      GstMessage *msg = gst_bus_timed_pop_filtered (
          bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

      fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
                   "pipeline %u did not reach EOS", i);
      gst_message_unref (msg);
      fail_unless_equals_uint64 (texel_stats_get (t, "frames"), 60);
      gst_element_set_state (pipelines[i], GST_STATE_NULL);
      gst_object_unref (t);
      gst_object_unref (bus);
      gst_object_unref (pipelines[i]);
    }
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* texeladjust's 3D LUT on the GPU: the element uploads it in its kernels'
 * context and hands it to the kernel in its plan (texel-adjust.h). */

/* A LUT_3D_SIZE 2 .cube file in a temporary file (g_free the path;
 * unlink it): @invert, out = 1 - in, else the identity. Red varies
 * fastest, as the format says. */
static gchar *
write_cube_2 (gboolean invert)
{
  GString *text = g_string_new ("LUT_3D_SIZE 2\n");
  GError *err = NULL;
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("texel-lut-XXXXXX.cube", &path, &err);
  guint i;

  fail_unless (fd >= 0, "%s", err ? err->message : "?");
  close (fd);
  for (i = 0; i < 8; i++)
    {
      guint r = i & 1, g = (i >> 1) & 1, b = (i >> 2) & 1;

      if (invert)
        r ^= 1, g ^= 1, b ^= 1;
      g_string_append_printf (text, "%u %u %u\n", r, g, b);
    }
  fail_unless (g_file_set_contents (path, text->str, -1, &err), "%s",
               err ? err->message : "?");
  g_string_free (text, TRUE);
  return path;
}

/* Every R, G and B code of @out within one code of what @want makes of
 * the same code of @in (an exact definition: a 2-point LUT interpolated
 * linearly is the linear map itself; the GPU's hardware filtering and
 * float arithmetic may round one code the other way). */
static void
check_rgb_map (const GstVideoInfo *info, GstBuffer *in, GstBuffer *out,
               gboolean invert, const gchar *what)
{
  GstVideoFrame fi, fo;
  guint c, worst = 0;
  gint x, y;

  fail_unless (gst_video_frame_map (&fi, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, info, out, GST_MAP_READ));
  for (c = 0; c < 3; c++)
    {
      for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
        {
          for (x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
            {
              guint v = frame_get (&fi, c, x, y);
              guint want = invert ? 255 - v : v;
              guint got = frame_get (&fo, c, x, y);

              worst = MAX (worst, got > want ? got - want : want - got);
            }
        }
    }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  fail_unless (worst <= 1, "%s: off by %u codes", what, worst);
}

/* texeladjust backend=cuda lut-file=invert in both memory modes, then
 * the identity while playing (a new table: uploaded again): every frame
 * as the table says, on the GPU. */
GST_START_TEST (test_adjust_lut_on_gpu)
{
  gchar *invert = write_cube_2 (TRUE), *identity = write_cube_2 (FALSE);
  gchar *caps = make_caps ("RGBA", 64, 48);
  GstVideoInfo info = texel_video_info_from_caps_string (caps);
  guint k;

  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      gchar *props
          = g_strdup_printf ("backend=cuda memory-mode=%s", modes[k].nick);
      GstElement *e = texel_test_element_new ("texeladjust", props);
      GstHarness *h;
      GstBuffer *in, *out;
      guint i;

      g_object_set (e, "lut-file", invert, NULL);
      h = texel_harness_new_with (e);
      gst_harness_set_caps_str (h, caps, caps);
      for (i = 0; i < 4; i++)
        {
          gboolean inverted = i < 2;
          gchar *what = g_strdup_printf (
              "texeladjust %s, %s LUT, frame %u "
              "(seed %u)",
              props, inverted ? "invert" : "identity", i, seed);

          if (i == 2)
            g_object_set (h->element, "lut-file", identity, NULL);
          in = make_plain_buffer (&info);
          out = push_pull (h, gst_buffer_ref (in), what);
          fail_unless_equals_int (texel_get_int (h->element, "active-backend"),
                                  BACKEND_CUDA);
          check_rgb_map (&info, in, out, inverted, what);
          gst_buffer_unref (in);
          gst_buffer_unref (out);
          g_free (what);
        }
      texel_harness_teardown (h);
      g_free (props);
    }
  g_unlink (invert);
  g_unlink (identity);
  g_free (invert);
  g_free (identity);
  g_free (caps);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Faults (GST_TEXEL_FAULT, see kernels/common/texel-fault.h). */

typedef struct
{
  const gchar *fault;
  gboolean staged_only; /* zero-copy makes no such call */
  const gchar *expect;  /* in the error message; NULL: any error */
} FaultCase;

static const FaultCase fault_cases[] = {
  { "device-alloc", TRUE, "Could not allocate GPU buffers" },
  { "host-alloc", FALSE, NULL },
  { "copy", TRUE, "CUDA processing failed" },
  { "launch", FALSE, "CUDA processing failed" },
  { "texture", FALSE, "CUDA processing failed" },
  { "sync", FALSE, "CUDA processing failed" },
  { "stream", FALSE, "no usable CUDA device" },
};

/* Plays @pipeline to EOS or an error; returns that message. */
static GstMessage *
play_until_done (GstElement *pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
                                    GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "neither EOS nor an error within 30 s");
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
                          GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  return msg;
}

static GstElement *
fault_pipeline (const gchar *backend, const gchar *mode, gint in_flight)
{
  gchar *desc = g_strdup_printf (
      "videotestsrc num-buffers=12 pattern=ball ! "
      "video/x-raw,format=NV12,width=320,height=240,framerate=30/1 ! "
      "texelconvert name=t backend=%s memory-mode=%s frames-in-flight=%d ! "
      "video/x-raw,format=RGBA,width=200,height=150 ! fakesink",
      backend, mode, in_flight);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "?");
  g_free (desc);
  return pipeline;
}

/* Each injected CUDA failure becomes an element error naming it (never a
 * crash or a hang), the same pipeline then plays again to EOS once the
 * fault is gone, and no GStreamer object outlives it. */
GST_START_TEST (test_fault_becomes_error)
{
  const FaultCase *fc = &fault_cases[__i__];
  GstElement *pipeline;
  GstTracer *leaks;
  guint k;
  gint in_flight;

  /* Play the same pipeline once first: plugins, the system clock, the
   * default task pool and the pad templates and caps that elements cache
   * live as long as the process. */
  pipeline = fault_pipeline ("cpu", "staged", 0);
  gst_message_unref (play_until_done (pipeline));
  gst_object_unref (pipeline);
  leaks = texel_find_leaks_tracer ();
  if (leaks)
    g_signal_emit_by_name (leaks, "activity-start-tracking");
  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      if (fc->staged_only && !g_str_equal (modes[k].nick, "staged"))
        continue;
      for (in_flight = 0; in_flight <= 1; in_flight++)
        {
          GstMessage *msg;
          GError *err = NULL;
          gchar *dbg = NULL;

          pipeline = fault_pipeline ("cuda", modes[k].nick, in_flight);
          g_setenv ("GST_TEXEL_FAULT", fc->fault, TRUE);
          msg = play_until_done (pipeline);
          fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
          gst_message_parse_error (msg, &err, &dbg);
          GST_INFO ("%s, %s, %d in flight: %s (%s)", fc->fault, modes[k].nick,
                    in_flight, err->message, GST_STR_NULL (dbg));
          if (fc->expect)
            fail_unless (strstr (err->message, fc->expect) != NULL,
                         "%s, %s: error '%s' does not say '%s'", fc->fault,
                         modes[k].nick, err->message, fc->expect);
          g_clear_error (&err);
          g_free (dbg);
          gst_message_unref (msg);

          g_unsetenv ("GST_TEXEL_FAULT");
          msg = play_until_done (pipeline);
          fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
          gst_message_unref (msg);
          gst_object_unref (pipeline);
        }
    }
  if (leaks)
    {
      GstStructure *cp = NULL;

      g_signal_emit_by_name (leaks, "activity-get-checkpoint", &cp);
      g_signal_emit_by_name (leaks, "activity-stop-tracking");
      texel_check_checkpoint_empty (cp, fc->fault);
      gst_structure_free (cp);
      gst_object_unref (leaks);
    }
}

GST_END_TEST;

/* A failed cudaHostRegister is not an error: the memory goes through
 * pinned staging instead, every time, and the output stays right. */
GST_START_TEST (test_fault_register_falls_back)
{
  const gchar *in_caps = "video/x-raw,format=NV12,width=320,height=240";
  const gchar *out_caps = "video/x-raw,format=RGBA,width=200,height=150";
  const guint64 in_bytes = 320 * 240 * 3 / 2;
  GstVideoInfo in_info = texel_video_info_from_caps_string (in_caps);
  GstVideoInfo cpu_info;
  GstBuffer *cpu
      = convert_cpu ("bilinear", in_caps, out_caps, &in_info, &cpu_info);
  guint k, i;

  g_setenv ("GST_TEXEL_FAULT", "register", TRUE);
  for (k = 0; k < G_N_ELEMENTS (modes); k++)
    {
      gchar *props;
      GstHarness *h = in_flight_harness (k, 0, &props);
      GstBuffer *foreign = make_plain_buffer (&in_info);

      gst_harness_set_caps_str (h, in_caps, out_caps);
      for (i = 0; i < 3; i++)
        {
          GstBuffer *out = push_pull (h, gst_buffer_ref (foreign), props);

          check_frame_against_cpu (out, cpu, &cpu_info, props, i);
          gst_buffer_unref (out);
        }
      fail_unless_equals_uint64 (texel_stats_get (h->element, "registrations"),
                                 0);
      fail_unless_equals_uint64 (
          texel_stats_get (h->element, "bytes-host-copied"), 3 * in_bytes);
      gst_buffer_unref (foreign);
      texel_harness_teardown (h);
      g_free (props);
    }
  g_unsetenv ("GST_TEXEL_FAULT");
  gst_buffer_unref (cpu);
}

GST_END_TEST;

/* backend=auto when the GPU cannot be set up (no stream): the CPU takes
 * over, with a warning in the log and no error on the bus. */
GST_START_TEST (test_fault_auto_falls_back_to_cpu)
{
  GstElement *pipeline = gst_parse_launch (
      "videotestsrc num-buffers=3 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! texelconvert name=t ! "
      "video/x-raw,format=RGBA,width=32,height=24 ! fakesink",
      NULL);
  GstElement *t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstMessage *msg;

  g_setenv ("GST_TEXEL_FAULT", "stream", TRUE);
  msg = play_until_done (pipeline);
  g_unsetenv ("GST_TEXEL_FAULT");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless_equals_uint64 (texel_stats_get (t, "frames"), 3);
  gst_object_unref (t);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Subsampled chroma on the GPU against the exact definitions
 * (texel-chroma-check.h), in both memory modes, every subsampled format
 * and siting: 1:1, where nearest texture fetches read exact codes and
 * hardware bilinear weights (0, 1/4, 1/2, 3/4) are exact in its 8-bit
 * fixed point, so only float arithmetic separates the GPU from the exact
 * value: +-1 code (8 and 10 bits). */
#define CHROMA_GPU_TOL 1

static gchar *
chroma_props (guint i)
{
  return g_strdup_printf ("backend=cuda memory-mode=%s frames-in-flight=0",
                          modes[i % G_N_ELEMENTS (modes)].nick);
}

/* Loop index -> format, site (and mode, chroma_props). */
#define CHROMA_FORMAT(i)                                                       \
  texel_chroma_formats[(i) / G_N_ELEMENTS (modes) / texel_chroma_n_sites]
#define CHROMA_SITE(i)                                                         \
  texel_chroma_sites[(i) / G_N_ELEMENTS (modes) % texel_chroma_n_sites]

GST_START_TEST (test_chroma_encode_exact)
{
  gchar *props = chroma_props (__i__);

  texel_check_encode_exact (props, CHROMA_FORMAT (__i__), CHROMA_SITE (__i__),
                            CHROMA_GPU_TOL);
  texel_check_against_videoconvert (props, CHROMA_FORMAT (__i__),
                                    CHROMA_SITE (__i__), CHROMA_GPU_TOL + 1);
  g_free (props);
}

GST_END_TEST;

GST_START_TEST (test_chroma_decode_exact)
{
  static const gchar *methods[] = { "nearest", "bilinear", "bicubic" };
  gchar *props = chroma_props (__i__);
  guint m;

  for (m = 0; m < G_N_ELEMENTS (methods); m++)
    texel_check_decode_exact (props, CHROMA_FORMAT (__i__), CHROMA_SITE (__i__),
                              methods[m], CHROMA_GPU_TOL);
  g_free (props);
}

GST_END_TEST;

static Suite *
texelconvert_gpu_suite (void)
{
  const TexelTest cuda_vs_cpu_tests[] = {
    TEXEL_LOOP_TEST (test_input_formats, TEXEL_N_FORMATS),
    TEXEL_LOOP_TEST (test_output_formats, G_N_ELEMENTS (rep_inputs)),
    TEXEL_TEST (test_frames_in_flight),
    TEXEL_TEST (test_memory_paths),
  };
  const TexelTest chroma_exact_tests[] = {
    TEXEL_LOOP_TEST (test_chroma_encode_exact, texel_chroma_n_formats
                                                   * texel_chroma_n_sites
                                                   * G_N_ELEMENTS (modes)),
    TEXEL_LOOP_TEST (test_chroma_decode_exact, texel_chroma_n_formats
                                                   * texel_chroma_n_sites
                                                   * G_N_ELEMENTS (modes)),
  };
  const TexelTest state_tests[] = {
    TEXEL_TEST (test_flush_in_flight),
    TEXEL_TEST (test_in_flight_ring),
    TEXEL_TEST (test_in_flight_caps_change),
    TEXEL_TEST (test_state_cycles_in_flight),
    TEXEL_TEST (test_concurrent_pipelines),
  };
  const TexelTest texeladjust_tests[] = {
    TEXEL_TEST (test_adjust_lut_on_gpu),
  };
#if TEXEL_FAULT_INJECTION
  const TexelTest faults_tests[] = {
    TEXEL_LOOP_TEST (test_fault_becomes_error, G_N_ELEMENTS (fault_cases)),
    TEXEL_TEST (test_fault_register_falls_back),
    TEXEL_TEST (test_fault_auto_falls_back_to_cpu),
  };
#endif
  const TexelTCase tcases[]
      = { TEXEL_TCASE ("cuda-vs-cpu", 300, cuda_vs_cpu_tests),
          TEXEL_TCASE ("chroma-exact", 300, chroma_exact_tests),
          TEXEL_TCASE ("state", 300, state_tests),
          TEXEL_TCASE ("texeladjust", 300, texeladjust_tests),
#if TEXEL_FAULT_INJECTION
          TEXEL_TCASE ("faults", 300, faults_tests),
#endif
        };

  return texel_suite_new_tcases ("texelconvert-gpu", tcases,
                                 G_N_ELEMENTS (tcases));
}

/* The number of CUDA devices (texel-gpu-probe.h); prints why there is
 * none. */
static gint
probe_gpus (void)
{
#if TEXEL_TEST_HAVE_CUDA
  return texel_probe_gpus ();
#else
  g_printerr ("gst-texel was built without CUDA\n");
  return 0;
#endif
}

int
main (int argc, char **argv)
{
  const gchar *env_seed;
  gint n;

  /* Objects left alive after a fault show up in the leaks tracer. */
  if (!g_getenv ("GST_TRACERS"))
    g_setenv ("GST_TRACERS", "leaks", TRUE);
  /* backend=cpu is the double-precision reference here, which the bounds
   * at the top of the file are against (the fast CPU path is itself
   * within 1 code of it: tests/unit/test-convert-fast.c). */
  g_setenv ("GST_TEXEL_CPU", "reference", TRUE);
  gst_check_init (&argc, &argv);

  n = probe_gpus ();
  if (n <= 0)
    {
      g_print ("SKIP: texelconvert-gpu needs a CUDA GPU\n");
      return 77;
    }

  env_seed = g_getenv ("TEXEL_TEST_SEED");
  seed = env_seed ? (guint32)g_ascii_strtoull (env_seed, NULL, 0)
                  : g_random_int ();
  g_print ("texelconvert-gpu: %d CUDA device(s); random seed %u (set "
           "TEXEL_TEST_SEED=%u to repeat)\n",
           n, seed, seed);

  return gst_check_run_suite (texelconvert_gpu_suite (), "texelconvert_gpu",
                              __FILE__);
}
