/* gst-texel: frames in CUDA memory through texel elements, on a GPU.
 *
 * With GStreamer's CUDA elements (the nvcodec plugin of gst-plugins-bad:
 * cudaupload, cudadownload, nvh264dec, nvh264enc), frames in GstCudaMemory
 * (memory:CUDAMemory caps) go through texel elements without leaving the
 * GPU. Each pipeline below is compared frame by frame with the same
 * conversions on the CPU path (backend=cpu, system memory), on the frames
 * of videotestsrc (deterministic, so both pipelines see the same ones):
 *
 *  - cudaupload ! texelconvert ! cudadownload, for a few format pairs and
 *    methods, with 0 and 1 frames in flight: nearest within 1 code and
 *    bilinear within 4 codes of the CPU (the element-level bounds of
 *    docs/accuracy.md), and no byte copied to or from the host by the
 *    element (its stats);
 *  - a chain cudaupload ! texelconvert ! texelconvert ! texelconvert !
 *    cudadownload: no host copy in any of the three, output within the
 *    bound derived at chain_bound;
 *  - texelconvert as the upload point (system memory in, CUDA memory out)
 *    and as the download point (the reverse): only that side is copied;
 *  - raw Bayer in system memory to CUDA memory (a camera to a GPU
 *    encoder): the same bytes as the element's system-memory output;
 *  - one CUDA context for the whole pipeline (the gst.cuda.context that
 *    cudaupload, texelconvert and cudadownload answer with);
 *  - decode -> process -> encode (nvh264dec ! texelconvert ! nvh264enc)
 *    runs to the end with the decoder's frames read in place; skipped where
 *    NVDEC/NVENC (or h264parse) are missing.
 *  - frames whose video meta does not fit their CUDA memory are dropped
 *    or stop the stream with an error, never read out of bounds.
 *
 * Without a usable GPU, or without cudaupload/cudadownload, the program
 * says why and exits 77 (skipped).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "texel-cuda.h"
#include "texel-frames.h"
#include "texel-gpu-probe.h"

#if TEXEL_TEST_HAVE_GST_CUDA
#define N_FRAMES 5
#define CUDA_FEATURE "memory:CUDAMemory"

/* What a pipeline's sink received, as deep copies (the sink's buffers may
 * belong to a bounded pool). */
typedef struct
{
  GPtrArray *frames;
  GstVideoInfo info;
  gboolean have_info;
} Output;

static void
on_handoff (GstElement *sink, GstBuffer *buf, GstPad *pad, Output *out)
{
  if (!out->have_info)
    {
      GstCaps *caps = gst_pad_get_current_caps (pad);

      out->have_info = caps && gst_video_info_from_caps (&out->info, caps);
      gst_clear_caps (&caps);
    }
  g_ptr_array_add (out->frames, gst_buffer_copy_deep (buf));
}

static void
output_init (Output *out)
{
  out->frames
      = g_ptr_array_new_with_free_func ((GDestroyNotify)gst_buffer_unref);
  out->have_info = FALSE;
}

static void
output_clear (Output *out)
{
  g_ptr_array_unref (out->frames);
}

static gboolean
caps_on_device (GstPad *pad)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean on_device = caps
                       && gst_caps_features_contains (
                           gst_caps_get_features (caps, 0), CUDA_FEATURE);

  gst_clear_caps (&caps);
  return on_device;
}

static void
remember_element_pads (const GValue *item, gpointer user_data)
{
  GstElement *e = g_value_get_object (item);
  const gchar *pads[] = { "sink", "src" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (pads); i++)
    {
      GstPad *pad = gst_element_get_static_pad (e, pads[i]);
      gchar *key = g_strconcat ("on-device-", pads[i], NULL);

      g_object_set_data (G_OBJECT (e), key,
                         GINT_TO_POINTER (pad && caps_on_device (pad)));
      g_free (key);
      gst_clear_object (&pad);
    }
}

/* Notes, on every element of @pipeline, whether its sink and src pads
 * negotiated memory:CUDAMemory (read back by pad_caps_on_device). */
static void
remember_pad_memory (GstElement *pipeline)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipeline));

  while (gst_iterator_foreach (it, remember_element_pads, NULL)
         == GST_ITERATOR_RESYNC)
    gst_iterator_resync (it);
  gst_iterator_free (it);
}

/* Plays @desc to EOS into @out (its sink is the fakesink named "out");
 * returns the pipeline, stopped, for its elements' stats. */
static GstElement *
play (const gchar *desc, Output *out)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *sink;
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipeline != NULL && err == NULL, "%s: %s", desc,
               err ? err->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  g_object_set (sink, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), out);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
                                    GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: neither EOS nor an error in 60 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    {
      GError *e = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &e, &dbg);
      fail ("%s: %s (%s)", desc, e->message, GST_STR_NULL (dbg));
    }
  gst_message_unref (msg);
  /* Pads lose their caps when they are deactivated: note them now. */
  remember_pad_memory (pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  return pipeline;
}

static guint64
stats_get (GstElement *pipeline, const gchar *name, const gchar *field)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  guint64 v;

  fail_unless (e != NULL, "no element %s", name);
  v = texel_stats_get (e, field);
  gst_object_unref (e);
  return v;
}

/* Frames processed on the GPU without a byte copied to or from the host. */
static void
assert_no_host_copies (GstElement *pipeline, const gchar *name)
{
  fail_unless_equals_uint64 (stats_get (pipeline, name, "frames"), N_FRAMES);
  fail_unless_equals_uint64 (stats_get (pipeline, name, "bytes-to-device"), 0);
  fail_unless_equals_uint64 (stats_get (pipeline, name, "bytes-to-host"), 0);
  fail_unless_equals_uint64 (stats_get (pipeline, name, "bytes-host-copied"),
                             0);
  fail_unless_equals_uint64 (stats_get (pipeline, name, "registrations"), 0);
}

/* Every frame of @gpu within @bound codes of the same frame of @cpu. */
static void
assert_outputs_close (Output *cpu, Output *gpu, guint bound, const gchar *what)
{
  guint i;

  fail_unless (cpu->have_info && gpu->have_info, "%s: no caps", what);
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&gpu->info),
                          GST_VIDEO_INFO_FORMAT (&cpu->info));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&gpu->info),
                          GST_VIDEO_INFO_WIDTH (&cpu->info));
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&gpu->info),
                          GST_VIDEO_INFO_HEIGHT (&cpu->info));
  fail_unless_equals_int (gpu->frames->len, N_FRAMES);
  fail_unless_equals_int (cpu->frames->len, N_FRAMES);
  for (i = 0; i < N_FRAMES; i++)
    {
      GstVideoFrame cf, gf;
      gchar *where = NULL;
      guint diff;

      fail_unless (gst_video_frame_map (
          &cf, &cpu->info, g_ptr_array_index (cpu->frames, i), GST_MAP_READ));
      fail_unless (gst_video_frame_map (
          &gf, &gpu->info, g_ptr_array_index (gpu->frames, i), GST_MAP_READ));
      diff = frames_max_diff (&cf, &gf, &where);
      GST_INFO ("%s, frame %u: max difference %u %s", what, i, diff,
                GST_STR_NULL (where));
      fail_unless (diff <= bound, "%s, frame %u: max difference %u > %u: %s",
                   what, i, diff, bound, GST_STR_NULL (where));
      g_free (where);
      gst_video_frame_unmap (&gf);
      gst_video_frame_unmap (&cf);
    }
}

/* Whether @name's pad @pad_name had memory:CUDAMemory caps while the
 * pipeline played (noted by play() before it stopped). */
static gboolean
pad_caps_on_device (GstElement *pipeline, const gchar *name,
                    const gchar *pad_name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  gchar *key = g_strconcat ("on-device-", pad_name, NULL);
  gboolean on_device;

  fail_unless (e != NULL, "no element %s", name);
  on_device = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (e), key));
  g_free (key);
  gst_object_unref (e);
  return on_device;
}

/* ------------------------------------------------------------------------ */

#define SOURCE "videotestsrc num-buffers=5 pattern=smpte ! "
/* cudaupload prefers to pass system memory through where downstream takes
 * it (as texel elements do, uploading it themselves): frames meant to
 * arrive in CUDA memory are asked for in it. */
#define UPLOADED "video/x-raw(" CUDA_FEATURE ") ! "

static const struct
{
  const gchar *in_format;
  gint in_w, in_h;
  const gchar *out_format;
  gint out_w, out_h;
  const gchar *method;
  guint bound; /* docs/accuracy.md, element level */
} cases[] = {
  /* 4:2:0 to RGBA, downscaled 2:1 */
  { "NV12", 640, 480, "RGBA", 320, 240, "bilinear", 4 },
  /* 1:1 (always nearest) between two 4:2:0 layouts */
  { "I420", 320, 240, "NV12", 320, 240, "bilinear", 1 },
  /* RGBA upscaled into 4:2:0 */
  { "RGBA", 160, 120, "NV12", 320, 240, "nearest", 1 },
  /* BGRA to 4:2:0, odd scale */
  { "BGRA", 320, 240, "I420", 200, 150, "bilinear", 4 },
};

/* cudaupload ! texelconvert ! cudadownload against backend=cpu; loop index:
 * case * 2 + frames in flight. */
GST_START_TEST (test_upload_convert_download)
{
  guint c = __i__ / 2, in_flight = __i__ % 2;
  gchar *in_caps
      = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
                         "height=%d,framerate=30/1",
                         cases[c].in_format, cases[c].in_w, cases[c].in_h);
  gchar *gpu_desc = g_strdup_printf (
      SOURCE "%s ! cudaupload ! " UPLOADED
             "texelconvert name=t method=%s frames-in-flight=%u ! "
             "video/x-raw(memory:CUDAMemory),format=%s,width=%d,height=%d ! "
             "cudadownload ! video/x-raw,format=%s ! fakesink name=out",
      in_caps, cases[c].method, in_flight, cases[c].out_format, cases[c].out_w,
      cases[c].out_h, cases[c].out_format);
  gchar *cpu_desc = g_strdup_printf (
      SOURCE "%s ! texelconvert backend=cpu "
             "method=%s ! video/x-raw,format=%s,width=%d,height=%d ! "
             "fakesink name=out",
      in_caps, cases[c].method, cases[c].out_format, cases[c].out_w,
      cases[c].out_h);
  Output cpu, gpu;
  GstElement *p;

  output_init (&cpu);
  output_init (&gpu);
  gst_object_unref (play (cpu_desc, &cpu));
  p = play (gpu_desc, &gpu);
  fail_unless (pad_caps_on_device (p, "t", "sink"));
  fail_unless (pad_caps_on_device (p, "t", "src"));
  assert_no_host_copies (p, "t");
  assert_outputs_close (&cpu, &gpu, cases[c].bound, gpu_desc);
  gst_object_unref (p);
  output_clear (&cpu);
  output_clear (&gpu);
  g_free (in_caps);
  g_free (gpu_desc);
  g_free (cpu_desc);
}

GST_END_TEST;

/* The chain's bound. a: NV12 -> RGBA at 1:1 (nearest): 1 code. b: RGBA
 * 640x480 -> 320x240 bilinear: its own 4 codes plus a's error carried
 * through weights that sum to 1: 5. c: RGBA -> NV12 at 1:1 (BT.601 limited
 * range): a's and b's error through the matrix rows, whose absolute
 * coefficients sum to at most 224/255 (Cb, Cr; Y' 219/255 x 1), 0.88 x 5 =
 * 4.4, plus c's own rounding: 5.4, an integer difference of at most 5. */
static const guint chain_bound = 5;

#define CHAIN                                                                  \
  "video/x-raw,format=NV12,width=640,height=480,framerate=30/1 ! %s "          \
  "texelconvert name=a %s ! %s,format=RGBA,width=640,height=480 ! "            \
  "texelconvert name=b method=bilinear %s ! "                                  \
  "%s,format=RGBA,width=320,height=240 ! texelconvert name=c %s ! "            \
  "%s,format=NV12,width=320,height=240 ! %s fakesink name=out"

/* Three texel elements between cudaupload and cudadownload: no byte
 * crosses PCIe inside the chain. */
GST_START_TEST (test_chain_stays_on_device)
{
  const gchar *gpu_caps = "video/x-raw(memory:CUDAMemory)";
  gchar *gpu_desc = g_strdup_printf (
      SOURCE CHAIN, "cudaupload ! " UPLOADED, "", gpu_caps, "", gpu_caps, "",
      gpu_caps, "cudadownload ! video/x-raw,format=NV12 !");
  gchar *cpu_desc = g_strdup_printf (
      SOURCE CHAIN, "", "backend=cpu", "video/x-raw", "backend=cpu",
      "video/x-raw", "backend=cpu", "video/x-raw", "");
  const gchar *names[] = { "a", "b", "c" };
  Output cpu, gpu;
  GstElement *p;
  guint i;

  output_init (&cpu);
  output_init (&gpu);
  gst_object_unref (play (cpu_desc, &cpu));
  p = play (gpu_desc, &gpu);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      fail_unless (pad_caps_on_device (p, names[i], "sink"), "%s", names[i]);
      fail_unless (pad_caps_on_device (p, names[i], "src"), "%s", names[i]);
      assert_no_host_copies (p, names[i]);
    }
  assert_outputs_close (&cpu, &gpu, chain_bound, gpu_desc);
  gst_object_unref (p);
  output_clear (&cpu);
  output_clear (&gpu);
  g_free (gpu_desc);
  g_free (cpu_desc);
}

GST_END_TEST;

/* Texel elements linked directly, system memory at both ends: the frames
 * between them stay on the GPU (memory:CUDAMemory is preferred between two
 * texel elements on a discrete GPU), so the first element uploads, the
 * last downloads, and nothing else crosses PCIe. The output equals the
 * same chain with system memory forced between the elements (capsfilters),
 * within 1 code (the kernels are the same; only where frames live
 * differs). */
#define SYSTEM_ENDS_CHAIN                                                      \
  SOURCE                                                                       \
  "video/x-raw,format=NV12,width=640,height=480,framerate=30/1 ! "             \
  "texeladjust name=a gamma=1.2 saturation=1.3 %s "                            \
  "texelfilter name=b filter=gaussian sigma=1 %s texelconvert name=c ! "       \
  "video/x-raw,format=RGBA,width=320,height=240 ! fakesink name=out"

GST_START_TEST (test_chain_system_memory_ends)
{
  const guint64 in_bytes = 640 * 480 * 3 / 2, out_bytes = 320 * 240 * 4;
  gchar *linked = g_strdup_printf (SYSTEM_ENDS_CHAIN, "!", "!");
  gchar *forced = g_strdup_printf (SYSTEM_ENDS_CHAIN, "! video/x-raw !",
                                   "! video/x-raw !");
  guint64 uploaded;
  Output direct, system;
  GstElement *p;

  output_init (&direct);
  output_init (&system);
  gst_object_unref (play (forced, &system));
  p = play (linked, &direct);
  fail_if (pad_caps_on_device (p, "a", "sink"));
  fail_unless (pad_caps_on_device (p, "a", "src"));
  fail_unless (pad_caps_on_device (p, "b", "sink"));
  fail_unless (pad_caps_on_device (p, "b", "src"));
  fail_unless (pad_caps_on_device (p, "c", "sink"));
  fail_if (pad_caps_on_device (p, "c", "src"));
  uploaded = stats_get (p, "a", "bytes-to-device");
  fail_unless (uploaded > 0 && uploaded <= N_FRAMES * in_bytes,
               "%" G_GUINT64_FORMAT " bytes uploaded", uploaded);
  fail_unless_equals_uint64 (stats_get (p, "a", "bytes-to-host"), 0);
  fail_unless_equals_uint64 (stats_get (p, "b", "bytes-to-device"), 0);
  fail_unless_equals_uint64 (stats_get (p, "b", "bytes-to-host"), 0);
  fail_unless_equals_uint64 (stats_get (p, "c", "bytes-to-device"), 0);
  fail_unless_equals_uint64 (stats_get (p, "c", "bytes-to-host"),
                             N_FRAMES * out_bytes);
  assert_outputs_close (&system, &direct, 1, linked);
  gst_object_unref (p);
  output_clear (&direct);
  output_clear (&system);
  g_free (linked);
  g_free (forced);
}

GST_END_TEST;

/* texelconvert where frames go up (system memory in, CUDA memory out) or
 * come down (the reverse): only that side is copied, the other is read or
 * written in place; the output agrees with the CPU. */
GST_START_TEST (test_upload_and_download_points)
{
  const gchar *in_caps
      = "video/x-raw,format=NV12,width=640,height=480,framerate=30/1";
  const guint64 in_bytes = 640 * 480 * 3 / 2, out_bytes = 320 * 240 * 4;
  gchar *up = g_strdup_printf (
      SOURCE
      "%s ! texelconvert name=t ! "
      "video/x-raw(memory:CUDAMemory),format=RGBA,width=320,height=240 ! "
      "cudadownload ! video/x-raw,format=RGBA ! fakesink name=out",
      in_caps);
  gchar *down = g_strdup_printf (
      SOURCE "%s ! cudaupload ! " UPLOADED "texelconvert "
             "name=t ! video/x-raw,format=RGBA,width=320,height=240 ! "
             "fakesink name=out",
      in_caps);
  gchar *cpu_desc = g_strdup_printf (
      SOURCE "%s ! texelconvert backend=cpu ! "
             "video/x-raw,format=RGBA,width=320,height=240 ! fakesink name=out",
      in_caps);
  Output cpu, gpu_up, gpu_down;
  GstElement *p;
  guint64 uploaded;

  output_init (&cpu);
  output_init (&gpu_up);
  output_init (&gpu_down);
  gst_object_unref (play (cpu_desc, &cpu));

  p = play (up, &gpu_up);
  fail_if (pad_caps_on_device (p, "t", "sink"));
  fail_unless (pad_caps_on_device (p, "t", "src"));
  /* Bands upload the input rows they need: at most the whole frame. */
  uploaded = stats_get (p, "t", "bytes-to-device");
  fail_unless (uploaded > 0 && uploaded <= N_FRAMES * in_bytes,
               "%" G_GUINT64_FORMAT " bytes uploaded", uploaded);
  fail_unless_equals_uint64 (stats_get (p, "t", "bytes-to-host"), 0);
  assert_outputs_close (&cpu, &gpu_up, 4, up);
  gst_object_unref (p);

  p = play (down, &gpu_down);
  fail_unless (pad_caps_on_device (p, "t", "sink"));
  fail_if (pad_caps_on_device (p, "t", "src"));
  fail_unless_equals_uint64 (stats_get (p, "t", "bytes-to-device"), 0);
  fail_unless_equals_uint64 (stats_get (p, "t", "bytes-to-host"),
                             N_FRAMES * out_bytes);
  assert_outputs_close (&cpu, &gpu_down, 4, down);
  gst_object_unref (p);

  output_clear (&cpu);
  output_clear (&gpu_up);
  output_clear (&gpu_down);
  g_free (up);
  g_free (down);
  g_free (cpu_desc);
}

GST_END_TEST;

/* Raw Bayer in system memory (a camera read by v4l2src or aravissrc) to
 * CUDA memory (for a GPU encoder): the mosaic uploaded, developed and
 * left on the device; the same bytes as the same element's system-memory
 * output (the same kernel), for a YUV output (luma and chroma in one
 * launch) and an RGBA one (the 2x2-cell kernel). */
GST_START_TEST (test_bayer_to_device)
{
  static const struct
  {
    const gchar *format;
    gint width, height;
    guint64 out_bytes;
  } outs[] = { { "NV12", 320, 240, 320 * 240 * 3 / 2 },
               { "RGBA", 640, 480, 640 * 480 * 4 } };
  const gchar *in_caps = "video/x-bayer,format=rggb,width=640,height=480,"
                         "framerate=30/1";
  guint k;

  for (k = 0; k < G_N_ELEMENTS (outs); k++)
    {
      gchar *out_caps
          = g_strdup_printf ("format=%s,width=%d,height=%d", outs[k].format,
                             outs[k].width, outs[k].height);
      gchar *device = g_strdup_printf (
          SOURCE "%s ! texelconvert name=t backend=cuda ! "
                 "video/x-raw(" CUDA_FEATURE "),%s ! cudadownload ! "
                 "video/x-raw,%s ! fakesink name=out",
          in_caps, out_caps, out_caps);
      gchar *host
          = g_strdup_printf (SOURCE "%s ! texelconvert backend=cuda ! "
                                    "video/x-raw,%s ! fakesink name=out",
                             in_caps, out_caps);
      Output on_host, on_device;
      GstElement *p;

      output_init (&on_host);
      output_init (&on_device);
      gst_object_unref (play (host, &on_host));
      p = play (device, &on_device);
      fail_if (pad_caps_on_device (p, "t", "sink"));
      fail_unless (pad_caps_on_device (p, "t", "src"));
      fail_unless_equals_uint64 (stats_get (p, "t", "frames"), N_FRAMES);
      fail_unless_equals_uint64 (stats_get (p, "t", "bytes-to-device"),
                                 N_FRAMES * 640 * 480);
      fail_unless_equals_uint64 (stats_get (p, "t", "bytes-to-host"), 0);
      assert_outputs_close (&on_host, &on_device, 0, device);
      gst_object_unref (p);
      output_clear (&on_host);
      output_clear (&on_device);
      g_free (device);
      g_free (host);
      g_free (out_caps);
    }
}

GST_END_TEST;

/* The GstCudaContext an element answers a gst.cuda.context query with (a
 * new reference), or NULL. */
static GObject *
element_cuda_context (GstElement *pipeline, const gchar *name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstPad *pad = gst_element_get_static_pad (e, "src");
  GstQuery *query = gst_query_new_context ("gst.cuda.context");
  GObject *context = NULL;

  if (gst_pad_query (pad, query))
    {
      GstContext *ctx = NULL;
      const GValue *v;

      gst_query_parse_context (query, &ctx);
      v = ctx ? gst_structure_get_value (gst_context_get_structure (ctx),
                                         "gst.cuda.context")
              : NULL;
      if (v && G_VALUE_HOLDS_OBJECT (v))
        context = g_value_dup_object (v);
    }
  gst_query_unref (query);
  gst_object_unref (pad);
  gst_object_unref (e);
  return context;
}

/* One CUDA context for the pipeline: texel elements take the one the CUDA
 * elements share, whichever starts first. */
GST_START_TEST (test_one_context)
{
  GstElement *p = gst_parse_launch (
      SOURCE
      "video/x-raw,format=NV12,"
      "width=320,height=240 ! cudaupload name=up ! texelconvert name=a ! "
      "texelconvert name=b ! video/x-raw(memory:CUDAMemory),format=RGBA ! "
      "cudadownload name=down ! fakesink",
      NULL);
  const gchar *names[] = { "a", "b", "down" };
  GObject *ref;
  guint i;

  fail_unless (p != NULL);
  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED)
               != GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (p, NULL, NULL, 30 * GST_SECOND)
               == GST_STATE_CHANGE_SUCCESS);
  ref = element_cuda_context (p, "up");
  fail_unless (ref != NULL, "cudaupload has no CUDA context");
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GObject *other = element_cuda_context (p, names[i]);

      fail_unless (other == ref, "%s: context %p, cudaupload's %p", names[i],
                   other, ref);
      g_clear_object (&other);
    }
  g_object_unref (ref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

GST_END_TEST;

static gboolean
have_factories (const gchar *const *names)
{
  for (; *names; names++)
    {
      GstElementFactory *f = gst_element_factory_find (*names);

      if (!f)
        {
          g_print ("no %s\n", *names);
          return FALSE;
        }
      gst_object_unref (f);
    }
  return TRUE;
}

/* NVDEC -> texelconvert -> NVENC: the decoder's CUDA frames are read in
 * place; whether the encoder takes CUDA memory is its choice (logged).
 * Where there is no NVENC (an H100 has none), the converted frames go to
 * cudadownload instead. The input is a committed H.264 stream
 * (tests/data/ball-640x480-30.h264, 30 frames, made with
 * scripts/make-test-h264.sh). */
GST_START_TEST (test_decode_process_encode)
{
  const gchar *const needed[] = { "nvh264dec", "h264parse", NULL };
  const gchar *const encoder[] = { "nvh264enc", NULL };
  gboolean encode;
  gchar *desc;
  Output out;
  GstElement *p;

  if (!have_factories (needed))
    {
      g_print ("SKIP: decode -> process needs NVDEC (nvh264dec) and "
               "h264parse\n");
      return;
    }
  encode = have_factories (encoder);
  desc = g_strdup_printf (
      "filesrc location=%s/ball-640x480-30.h264 ! h264parse ! nvh264dec ! "
      "video/x-raw(memory:CUDAMemory) ! texelconvert name=t ! "
      "video/x-raw(ANY),format=NV12,width=320,height=240 ! %s",
      TEXEL_TEST_DATA_DIR,
      encode ? "nvh264enc ! h264parse ! fakesink name=out"
             : "cudadownload ! video/x-raw,format=NV12 ! fakesink name=out");
  output_init (&out);
  p = play (desc, &out);
  fail_unless (out.frames->len > 0, "no output");
  fail_unless (pad_caps_on_device (p, "t", "sink"));
  fail_unless_equals_uint64 (stats_get (p, "t", "frames"), 30);
  fail_unless_equals_uint64 (stats_get (p, "t", "bytes-to-device"), 0);
  g_print ("decode -> process -> %s: %u output buffers; texelconvert gave "
           "%s memory (%" G_GUINT64_FORMAT " bytes downloaded)\n",
           encode ? "encode" : "cudadownload (no NVENC)", out.frames->len,
           pad_caps_on_device (p, "t", "src") ? "CUDA" : "system",
           stats_get (p, "t", "bytes-to-host"));
  if (!encode)
    {
      fail_unless_equals_int (out.frames->len, 30);
      fail_unless (pad_caps_on_device (p, "t", "src"));
    }
  if (pad_caps_on_device (p, "t", "src"))
    fail_unless_equals_uint64 (stats_get (p, "t", "bytes-to-host"), 0);
  gst_object_unref (p);
  output_clear (&out);
  g_free (desc);
}

GST_END_TEST;

/* Breaks the video meta of every buffer that goes through the pad: @data
 * 0 moves plane 1 past the end of the buffer's CUDA memory, 1 gives plane
 * 0 a stride its rows cannot fit in the memory with. */
static GstPadProbeReturn
break_video_meta (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);

  if (meta == NULL)
    meta = gst_buffer_add_video_meta (buf, GST_VIDEO_FRAME_FLAG_NONE,
                                      GST_VIDEO_FORMAT_NV12, 640, 480);
  if (GPOINTER_TO_INT (data) == 0)
    meta->offset[1] = gst_buffer_get_size (buf) + 4096;
  else
    meta->stride[0] *= 16;
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

/* Frames in CUDA memory whose video meta does not fit the memory are
 * never read out of bounds: a plane outside the memory is dropped with a
 * warning (as gst_video_frame_map refuses it), rows past its end stop the
 * stream with an error. Loop index: how the meta is broken. */
GST_START_TEST (test_bad_meta_on_device)
{
  GstElement *pipeline = gst_parse_launch (
      SOURCE
      "video/x-raw,format=NV12,width=640,height=480 ! cudaupload ! " UPLOADED
      "texelconvert name=t ! "
      "video/x-raw(memory:CUDAMemory),format=RGBA,width=320,"
      "height=240 ! cudadownload ! fakesink name=out",
      NULL);
  GstElement *t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstPad *pad = gst_element_get_static_pad (t, "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint warnings = 0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, break_video_meta,
                     GINT_TO_POINTER (__i__), NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
                                            GST_MESSAGE_EOS | GST_MESSAGE_ERROR
                                                | GST_MESSAGE_WARNING)))
    {
      GstMessageType type = GST_MESSAGE_TYPE (msg);

      if (type == GST_MESSAGE_WARNING
          && GST_MESSAGE_SRC (msg) == GST_OBJECT (t))
        warnings++;
      gst_message_unref (msg);
      if (type == GST_MESSAGE_WARNING)
        continue;
      if (__i__ == 0)
        fail_unless (type == GST_MESSAGE_EOS, "error, not EOS");
      else
        fail_unless (type == GST_MESSAGE_ERROR, "no error");
      break;
    }
  fail_unless (msg != NULL, "neither EOS nor an error in 60 s");
  if (__i__ == 0)
    fail_unless_equals_int (warnings, N_FRAMES);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  if (__i__ == 0)
    fail_unless_equals_uint64 (stats_get (pipeline, "t", "frames"), 0);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (t);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
cudamemory_gpu_suite (void)
{
  const TexelTest cuda_memory_tests[] = {
    TEXEL_LOOP_TEST (test_upload_convert_download, 2 * G_N_ELEMENTS (cases)),
    TEXEL_TEST (test_chain_stays_on_device),
    TEXEL_TEST (test_chain_system_memory_ends),
    TEXEL_TEST (test_upload_and_download_points),
    TEXEL_TEST (test_bayer_to_device),
    TEXEL_TEST (test_one_context),
    TEXEL_TEST (test_decode_process_encode),
    TEXEL_LOOP_TEST (test_bad_meta_on_device, 2),
  };

  return texel_suite_new ("cudamemory-gpu", "cuda-memory", 300,
                          cuda_memory_tests, G_N_ELEMENTS (cuda_memory_tests));
}
#endif /* TEXEL_TEST_HAVE_GST_CUDA */

int
main (int argc, char **argv)
{
#if TEXEL_TEST_HAVE_GST_CUDA
  const gchar *const needed[] = { "cudaupload", "cudadownload", NULL };

  gst_check_init (&argc, &argv);
  if (texel_probe_gpus () <= 0)
    {
      g_print ("SKIP: cudamemory-gpu needs a CUDA GPU\n");
      return 77;
    }
  if (!have_factories (needed))
    {
      g_print ("SKIP: cudamemory-gpu needs GStreamer's CUDA elements (nvcodec "
               "plugin of gst-plugins-bad, with a working driver)\n");
      return 77;
    }
  return gst_check_run_suite (cudamemory_gpu_suite (), "cudamemory_gpu",
                              __FILE__);
#else
  g_print ("SKIP: gst-texel was built without gstreamer-cuda-1.0\n");
  return 77;
#endif
}
