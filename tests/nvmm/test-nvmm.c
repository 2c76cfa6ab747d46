/* gst-texel: memory:NVMM (NvBufSurface) input of every element, through
 * the stand-in libnvbufsurface (GST_TEXEL_NVBUFSURFACE_LIBRARY).
 *
 * Built three times:
 *  - test-nvmm (suite 'element'): the CPU path reads NVBUF_MEM_SYSTEM
 *    surfaces, runs without a GPU;
 *  - test-nvmm-gpu (suite 'gpu', TEXEL_NVMM_TEST_GPU): backend=cuda reads
 *    NVBUF_MEM_CUDA_DEVICE, _CUDA_PINNED, _CUDA_UNIFIED and _DEFAULT
 *    surfaces in place; exits 77 without a GPU;
 *  - test-nvmm-egl (suite 'gpu', TEXEL_NVMM_TEST_EGL, EGL builds):
 *    backend=cuda with NVBUF_MEM_SURFACE_ARRAY in and out, the stand-in's
 *    GL textures on headless EGL read and written through their EGL
 *    frames, as a Jetson's surfaces (RGBA, and GRAY8 where CUDA takes its
 *    GL_R8 texture); exits 77 without a GPU, without EGL or where CUDA
 *    refuses EGL interop (cudaErrorNotSupported), saying which, but fails
 *    on any wrong pixel. It also cycles 10,000 frames through 8 surfaces:
 *    no registration after the first of each, none left behind.
 * Each pushes the same frame once in system memory and once in an NVMM
 * surface (rows padded to the surface's pitch, planes at its offsets)
 * through the same element and settings, and wants the outputs equal
 * byte for byte (on the GPU also a raw Bayer mosaic in system memory to
 * NVMM: texelconvert's output). On the GPU too: a surface's plane whose address
 * is off the device's texture alignment (the stand-in pads rows to 256 bytes
 * and puts planes at pitch * height offsets: I420 38x26's V plane at 9984, an
 * odd multiple of 256, where the H100 wants 512) is copied by the kernels
 * into an aligned buffer and read through a texture there, as the staged
 * copy of system memory is (docs/accuracy.md), so no plane is read by
 * plain loads with other filter weights; a surface array's CUDA array is
 * read through a pitched copy aligned as the staged copy of system memory.
 * It also checks the caps, and that batches, surfaces the path cannot read
 * and surfaces that do not fit the caps are refused with an error that says
 * why. With the library missing (the test
 * 'nvmm-absent' points GST_TEXEL_NVBUFSURFACE_LIBRARY at nothing) NVMM caps
 * must not be negotiated.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "texel-cuda.h"
#include "texel-frames.h"
#include "texel-gpu-probe.h"
#include "nvbufsurface-standin.h"
#include "texel-nvmm-buffers.h"

#ifndef TEXEL_NVMM_TEST_GPU
#define TEXEL_NVMM_TEST_GPU 0
#endif
#ifndef TEXEL_NVMM_TEST_EGL
#define TEXEL_NVMM_TEST_EGL 0
#endif
#if TEXEL_NVMM_TEST_EGL
#include <cuda_egl_interop.h>
#endif

/* Input arrays are read in place in the device's primary context only:
 * with GStreamer's CUDA library the element works in a GstCudaContext of
 * its own (NVMM is then offered only because GST_TEXEL_NVMM=1 forces it),
 * whose textures cannot read the primary context's arrays. */
#define ARRAYS_IN_PLACE (!HAVE_GST_CUDA)

typedef struct
{
  const gchar *factory;
  const gchar *props; /* settings that change every pixel */
  /* Its kernels read a surface array's input CUDA array in place (no
   * copy: GstTexelKernelDesc.reads_arrays). */
  gboolean reads_arrays;
} NvmmElement;

static const NvmmElement elements[] = {
  { "texelconvert", "video-direction=horiz", TRUE },
  { "texeladjust", "gamma=1.3 saturation=1.2", FALSE },
  { "texelfilter", "filter=gaussian sigma=1", FALSE },
  { "texelwarp", "model=fisheye fx=40 fy=40 fov=90", TRUE },
};

/* The formats issue 17 names (Jetson's cameras and decoders, DeepStream's
 * RGBA/BGRx), and the packed 4:2:2 and planar ones besides. */
#if TEXEL_NVMM_TEST_EGL
/* The stand-in's surface arrays: GL_RGBA8 and GL_R8 textures (main drops
 * GRAY8, the last, where CUDA does not take its EGL image). */
static const gchar *const formats[] = { "RGBA", "GRAY8" };
#else
static const gchar *const formats[] = {
  "NV12", "I420", "RGBA", "BGRx", "P010_10LE", "YUY2", "YV12", "GRAY8",
};
#endif
static guint n_formats = G_N_ELEMENTS (formats);

/* A format of every variant's surfaces. */
#if TEXEL_NVMM_TEST_EGL
#define ANY_FORMAT "RGBA"
#else
#define ANY_FORMAT "NV12"
#endif

#if TEXEL_NVMM_TEST_EGL
static const NvBufSurfaceMemType mem_types[] = { NVBUF_MEM_SURFACE_ARRAY };
#define BACKEND "backend=cuda frames-in-flight=0"
#elif TEXEL_NVMM_TEST_GPU
static const NvBufSurfaceMemType mem_types[] = {
  NVBUF_MEM_CUDA_DEVICE,
  NVBUF_MEM_CUDA_PINNED,
  NVBUF_MEM_CUDA_UNIFIED,
  NVBUF_MEM_DEFAULT,
};
/* One frame in, one out: no frame kept in flight (test_nvmm_in_flight
 * keeps some). */
#define BACKEND "backend=cuda frames-in-flight=0"
#else
static const NvBufSurfaceMemType mem_types[] = { NVBUF_MEM_SYSTEM };

#define BACKEND "backend=cpu"
#endif

#define WIDTH 38
#define HEIGHT 26

static gchar *
caps_string (const gchar *format, gint width, gint height, gboolean nvmm)
{
  return g_strdup_printf ("video/x-raw%s, format=%s, width=%d, height=%d, "
                          "framerate=30/1, pixel-aspect-ratio=1/1%s",
                          nvmm ? "(memory:NVMM)" : "", format, width, height,
                          g_str_has_prefix (format, "P010") || format[0] == 'N'
                                  || format[0] == 'I' || format[0] == 'Y'
                              ? ", colorimetry=bt709, chroma-site=mpeg2"
                              : "");
}

/* texelconvert also converts and scales (surface arrays: scales only,
 * the stand-in's have one plane); the others keep the caps. */
static gchar *
out_caps_string (const NvmmElement *te, const gchar *format, gboolean nvmm)
{
  if (g_str_equal (te->factory, "texelconvert") && TEXEL_NVMM_TEST_EGL)
    return caps_string (format, 30, 20, nvmm);
  if (g_str_equal (te->factory, "texelconvert"))
    return caps_string (g_str_equal (format, "RGBA") ? "NV12" : "RGBA", 30, 20,
                        nvmm);
  return caps_string (format, WIDTH, HEIGHT, nvmm);
}

/* @te's harness (with @extra settings, or NULL), from @format frames in
 * NVMM (@in_nvmm) or system memory to NVMM (@out_nvmm) or system memory. */
static GstHarness *
nvmm_harness_new_full (const NvmmElement *te, const gchar *format,
                       gboolean in_nvmm, gboolean out_nvmm, const gchar *extra)
{
  GstElement *e = texel_test_element_new (te->factory, te->props);
  GstHarness *h;
  gchar *in = caps_string (format, WIDTH, HEIGHT, in_nvmm);
  gchar *out = out_caps_string (te, format, out_nvmm);

  texel_set_properties (G_OBJECT (e), BACKEND, FALSE);
  texel_set_properties (G_OBJECT (e), extra, FALSE);
  h = texel_harness_new_with (e);
  gst_harness_set_src_caps_str (h, in);
  gst_harness_set_sink_caps_str (h, out);
  g_free (in);
  g_free (out);
  return h;
}

static GstHarness *
nvmm_harness_new (const NvmmElement *te, const gchar *format, gboolean in_nvmm,
                  gboolean out_nvmm)
{
  return nvmm_harness_new_full (te, format, in_nvmm, out_nvmm, NULL);
}

static GstVideoInfo
input_info (const gchar *format)
{
  gchar *s = caps_string (format, WIDTH, HEIGHT, FALSE);
  GstVideoInfo info = texel_video_info_from_caps_string (s);

  g_free (s);
  return info;
}

/* The output memory type the element's NVMM pool must make
 * (test-nvmm-egl: GST_TEXEL_NVMM_SURFACE_ARRAY=1 asks for arrays). */
#if TEXEL_NVMM_TEST_EGL
#define OUTPUT_MEM_TYPE NVBUF_MEM_SURFACE_ARRAY
#elif TEXEL_NVMM_TEST_GPU
#define OUTPUT_MEM_TYPE NVBUF_MEM_CUDA_DEVICE
#else
#define OUTPUT_MEM_TYPE NVBUF_MEM_SYSTEM
#endif

/* @buf pushed into @h: the output, with no error or warning on the bus,
 * and its video info in @out_info. */
static GstBuffer *
push_quietly (GstHarness *h, GstBuffer *buf, GstVideoInfo *out_info)
{
  GstBuffer *out = texel_push_pull (h, buf);
  gchar *errors
      = bus_messages_text (h->element, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);

  fail_unless_equals_string (errors, "");
  g_free (errors);
  texel_harness_out_info (h, out_info);
  return out;
}

/* NVMM output @out (unreffed) in a surface of OUTPUT_MEM_TYPE, copied out
 * to system memory. */
static GstBuffer *
nvmm_output_download (GstBuffer *out, const GstVideoInfo *out_info)
{
  GstBuffer *sys;

  fail_unless_equals_int (texel_nvmm_buffer_surface (out)->memType,
                          OUTPUT_MEM_TYPE);
  sys = texel_nvmm_buffer_download (out, out_info);
  fail_unless (sys != NULL);
  gst_buffer_unref (out);
  return sys;
}

/* @in (system memory) pushed into @h as it is (@in_type -1) or in an NVMM
 * surface of @in_type; the output, in system memory (copied out of its
 * surface where the output is NVMM). */
static GstBuffer *
push_pull (GstHarness *h, const gchar *format, GstBuffer *in, gint in_type,
           gboolean out_nvmm, GstVideoInfo *out_info)
{
  GstVideoInfo info = input_info (format);
  GstBuffer *buf = gst_buffer_ref (in), *out;

  if (in_type >= 0)
    {
      gst_buffer_unref (buf);
      buf = texel_nvmm_buffer_new (&info, in, (NvBufSurfaceMemType)in_type, 1);
      fail_unless (buf != NULL, "stand-in surface of type %d", in_type);
    }
  out = push_quietly (h, buf, out_info);
  if (out_nvmm)
    {
      fail_unless (gst_buffer_get_size (out) == sizeof (NvBufSurface));
      fail_unless_equals_int (texel_nvmm_buffer_surface (out)->numFilled, 1);
      out = nvmm_output_download (out, out_info);
    }
  return out;
}

#if TEXEL_NVMM_TEST_EGL
/* Whether the CUDA arrays of the stand-in's RGBA and GRAY8 surface arrays
 * take surface objects (cudaArraySurfaceLoadStore), as egl_probe found
 * (in the probe's process; egl_available hands it on): then texelconvert
 * and texelwarp write them in place. */
static gboolean egl_surfaces_rgba, egl_surfaces_gray8;

static gboolean
egl_surfaces (const gchar *format)
{
  return g_str_equal (format, "GRAY8") ? egl_surfaces_gray8 : egl_surfaces_rgba;
}

/* Bytes of a frame of @info's one plane, as a CUDA array holds it. */
static guint64
array_bytes (const GstVideoInfo *info)
{
  return (guint64)GST_VIDEO_INFO_WIDTH (info)
         * GST_VIDEO_INFO_COMP_PSTRIDE (info, 0) * GST_VIDEO_INFO_HEIGHT (info);
}
#endif

static GstBuffer *
run (const NvmmElement *te, const gchar *format, GstBuffer *in, gint in_type,
     gboolean out_nvmm, GstVideoInfo *out_info)
{
  GstHarness *h = nvmm_harness_new (te, format, in_type >= 0, out_nvmm);
  GstBuffer *out = push_pull (h, format, in, in_type, out_nvmm, out_info);

#if TEXEL_NVMM_TEST_GPU
  {
    /* An NVMM side is read or written in place: no copy on that side but
     * the realignment of a misaligned plane on the device; system memory
     * is staged aligned and needs none. */
    GstStructure *stats = NULL;
    guint64 to_device = 0, to_host = 0, realigned = 0;

    g_object_get (h->element, "stats", &stats, NULL);
    fail_unless (
        gst_structure_get_uint64 (stats, "bytes-to-device", &to_device));
    fail_unless (gst_structure_get_uint64 (stats, "bytes-to-host", &to_host));
    fail_unless (
        gst_structure_get_uint64 (stats, "bytes-device-copied", &realigned));
    GST_INFO ("%s %s, input type %d: %" G_GUINT64_FORMAT
              " bytes realigned on the device",
              te->factory, format, in_type, realigned);
#if !TEXEL_NVMM_TEST_EGL
    /* (Surface arrays: every byte copied is accounted for below.) */
    fail_unless (in_type >= 0 || realigned == 0,
                 "%s %s: %" G_GUINT64_FORMAT " bytes of staged system "
                 "memory realigned",
                 te->factory, format, realigned);
#endif
    fail_unless (in_type < 0 || to_device == 0,
                 "%s %s: %" G_GUINT64_FORMAT " bytes uploaded from NVMM",
                 te->factory, format, to_device);
    fail_unless (!out_nvmm || to_host == 0,
                 "%s %s: %" G_GUINT64_FORMAT " bytes downloaded to NVMM",
                 te->factory, format, to_host);
#if TEXEL_NVMM_TEST_EGL
    {
      /* A surface array's CUDA array is copied to and from a pitched
       * device copy: every row of every NVMM side, once; but texelconvert
       * and texelwarp read an input array in place (textures) and write
       * an output array in place where it takes surfaces. */
      GstVideoInfo in_info = input_info (format);
      guint64 copied = 0, expected = 0;

      fail_unless (
          gst_structure_get_uint64 (stats, "bytes-device-copied", &copied));
      if (in_type >= 0 && !(te->reads_arrays && ARRAYS_IN_PLACE))
        expected += array_bytes (&in_info);
      if (out_nvmm
          && !(te->reads_arrays && ARRAYS_IN_PLACE
               && egl_surfaces (GST_VIDEO_INFO_NAME (out_info))))
        expected += array_bytes (out_info);
      fail_unless_equals_uint64 (copied, expected);
    }
#endif
    gst_structure_free (stats);
  }
#endif
  texel_harness_teardown (h);
  return out;
}

static void
check_equal (GstBuffer *expected, GstBuffer *got, GstVideoInfo *info,
             const gchar *what)
{
  GstVideoFrame a, b;
  gchar *where = NULL;
  guint diff;

  fail_unless (gst_video_frame_map (&a, info, expected, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, info, got, GST_MAP_READ));
  diff = frames_max_diff (&a, &b, &where);
  fail_unless (diff == 0, "%s: differs from system memory by %u at %s", what,
               diff, where);
  g_free (where);
  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
}

/* Every element and format: NVMM input of every memory type, NVMM output,
 * and both, give the system-memory output byte for byte. */
GST_START_TEST (test_nvmm_matches_system)
{
  const NvmmElement *te = &elements[__i__];
  GRand *rand = g_rand_new_with_seed (17);
  guint f, t;

  for (f = 0; f < n_formats; f++)
    {
      GstVideoInfo info = input_info (formats[f]), out_info;
      GstBuffer *in = texel_buffer_new_random (&info, rand, 0);
      GstBuffer *expected = run (te, formats[f], in, -1, FALSE, &out_info);
      GstBuffer *got;
      gchar *what;

      for (t = 0; t < G_N_ELEMENTS (mem_types); t++)
        {
          what = g_strdup_printf ("%s %s, NVMM (type %d) in", te->factory,
                                  formats[f], mem_types[t]);
          got = run (te, formats[f], in, mem_types[t], FALSE, &out_info);
          check_equal (expected, got, &out_info, what);
          gst_buffer_unref (got);
          g_free (what);
        }
      what = g_strdup_printf ("%s %s, NVMM out", te->factory, formats[f]);
      got = run (te, formats[f], in, -1, TRUE, &out_info);
      check_equal (expected, got, &out_info, what);
      gst_buffer_unref (got);
      g_free (what);
      what
          = g_strdup_printf ("%s %s, NVMM in and out", te->factory, formats[f]);
      got = run (te, formats[f], in, mem_types[0], TRUE, &out_info);
      check_equal (expected, got, &out_info, what);
      gst_buffer_unref (got);
      g_free (what);
      GST_INFO ("%s %s: NVMM = system memory", te->factory, formats[f]);
      gst_buffer_unref (expected);
      gst_buffer_unref (in);
    }
  g_rand_free (rand);
}

GST_END_TEST;

#if TEXEL_NVMM_TEST_GPU
/* texelconvert's output from raw Bayer in system memory (@in: a mosaic
 * laid out as GRAY8, as v4l2src delivers a sensor's frames), in NVMM
 * (@out_nvmm; copied out of its surface) or system memory. */
static GstBuffer *
run_bayer (GstBuffer *in, const gchar *out_format, gboolean out_nvmm,
           GstVideoInfo *out_info)
{
  gchar *in_caps = g_strdup_printf ("video/x-bayer, format=rggb, width=%d, "
                                    "height=%d, framerate=30/1",
                                    WIDTH, HEIGHT);
  gchar *out_caps = caps_string (out_format, 30, 20, out_nvmm);
  GstElement *e = texel_test_element_new ("texelconvert", NULL);
  GstHarness *h;
  GstBuffer *out;

  texel_set_properties (G_OBJECT (e), BACKEND, FALSE);
  h = texel_harness_new_with (e);
  gst_harness_set_src_caps_str (h, in_caps);
  gst_harness_set_sink_caps_str (h, out_caps);
  out = push_quietly (h, gst_buffer_ref (in), out_info);
  if (out_nvmm)
    out = nvmm_output_download (out, out_info);
  texel_harness_teardown (h);
  g_free (in_caps);
  g_free (out_caps);
  return out;
}

/* A raw sensor's mosaic in system memory to NVMM (v4l2src ! texelconvert
 * ! nvv4l2h264enc on a Jetson, without nvvidconv): the system-memory
 * output byte for byte (the same kernel, its stores into the surface). */
GST_START_TEST (test_nvmm_bayer_out)
{
  const gchar *out_format = TEXEL_NVMM_TEST_EGL ? "RGBA" : "NV12";
  GRand *rand = g_rand_new_with_seed (31);
  GstVideoInfo mosaic = input_info ("GRAY8"), out_info;
  GstBuffer *in = texel_buffer_new_random (&mosaic, rand, 0);
  GstBuffer *expected = run_bayer (in, out_format, FALSE, &out_info);
  GstBuffer *got = run_bayer (in, out_format, TRUE, &out_info);

  check_equal (expected, got, &out_info, "rggb -> NVMM");
  gst_buffer_unref (got);
  gst_buffer_unref (expected);
  gst_buffer_unref (in);
  g_rand_free (rand);
}

GST_END_TEST;
#endif

/* A chain of every element with NVMM between each two (capsfilters force
 * it) gives the all-system-memory chain's output byte for byte: each
 * element reads the surfaces of the one before in place. */
GST_START_TEST (test_nvmm_chain)
{
  const gchar *format = formats[__i__];
  GRand *rand = g_rand_new_with_seed (29);
  GstVideoInfo info = input_info (format), out_info;
  GstBuffer *in = texel_buffer_new_random (&info, rand, 0);
  GstBuffer *out[2];
  guint nvmm;

  for (nvmm = 0; nvmm < 2; nvmm++)
    {
      GString *line = g_string_new (NULL);
      gchar *caps = caps_string (format, WIDTH, HEIGHT, nvmm);
      GstHarness *h;
      guint i;

      /* texelconvert last: it changes the format and size. */
      for (i = 1; i <= G_N_ELEMENTS (elements); i++)
        {
          const NvmmElement *te = &elements[i % G_N_ELEMENTS (elements)];

          g_string_append_printf (line, "%s%s %s %s", i > 1 ? " ! " : "",
                                  te->factory, BACKEND, te->props);
          if (i < G_N_ELEMENTS (elements))
            g_string_append_printf (line, " ! %s", caps);
        }
      h = gst_harness_new_parse (line->str);
      gst_harness_set_src_caps_str (h, caps);
      g_free (caps);
      caps = out_caps_string (&elements[0], format, FALSE);
      gst_harness_set_sink_caps_str (h, caps);
      out[nvmm] = push_pull (h, format, in, nvmm ? (gint)mem_types[0] : -1,
                             FALSE, &out_info);
      gst_harness_teardown (h);
      g_string_free (line, TRUE);
      g_free (caps);
    }
  check_equal (out[0], out[1], &out_info, format);
  gst_buffer_unref (out[0]);
  gst_buffer_unref (out[1]);
  gst_buffer_unref (in);
  g_rand_free (rand);
}

GST_END_TEST;

static gboolean
caps_have_nvmm (GstCaps *caps)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      GstCapsFeatures *f = gst_caps_get_features (caps, i);

      if (f && !gst_caps_features_is_any (f)
          && gst_caps_features_contains (f, "memory:NVMM"))
        return TRUE;
    }
  return FALSE;
}

/* Several frames, NVMM in and out, with frames kept in flight on the GPU
 * (each NVMM frame stays mapped until its kernel is done): each output is
 * the system-memory output of its input, in order. */
GST_START_TEST (test_nvmm_in_flight)
{
  const NvmmElement *te = &elements[__i__];
  GRand *rand = g_rand_new_with_seed (41);
  GstVideoInfo info = input_info (ANY_FORMAT), out_info;
  GstBuffer *in[5], *expected[5];
  GstHarness *h;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (in); i++)
    {
      in[i] = texel_buffer_new_random (&info, rand, i * GST_SECOND / 30);
      expected[i] = run (te, ANY_FORMAT, in[i], -1, FALSE, &out_info);
    }
  h = nvmm_harness_new_full (te, ANY_FORMAT, TRUE, TRUE, "frames-in-flight=2");
  for (i = 0; i < G_N_ELEMENTS (in); i++)
    {
      GstBuffer *buf = texel_nvmm_buffer_new (&info, in[i], mem_types[0], 1);

      fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
    }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (i = 0; i < G_N_ELEMENTS (in); i++)
    {
      GstBuffer *out = gst_harness_pull (h), *sys;
      gchar *what = g_strdup_printf ("%s frame %u in flight", te->factory, i);

      fail_unless (out != NULL, "%s: no output", what);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in[i]));
      texel_harness_out_info (h, &out_info);
      sys = texel_nvmm_buffer_download (out, &out_info);
      fail_unless (sys != NULL);
      check_equal (expected[i], sys, &out_info, what);
      gst_buffer_unref (sys);
      gst_buffer_unref (out);
      gst_buffer_unref (expected[i]);
      gst_buffer_unref (in[i]);
      g_free (what);
    }
  texel_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* Real pipelines (their negotiation and allocation queries), with the
 * test plugin's texelnvmmupload / texelnvmmdownload standing in for
 * NVIDIA's elements: NVMM into, out of, and through two elements. */
#define NVMM_CAPS "video/x-raw(memory:NVMM),format=" ANY_FORMAT

GST_START_TEST (test_nvmm_launch)
{
  const NvmmElement *te = &elements[__i__];
  const gchar *src = "videotestsrc num-buffers=3 ! "
                     "video/x-raw,format=" ANY_FORMAT ",width=64,height=48";
  gchar *el = g_strdup_printf ("%s %s %s", te->factory, BACKEND, te->props);
  gchar *up = g_strdup_printf ("texelnvmmupload mem-type=%d", mem_types[0]);
  gchar *lines[3];
  guint i;

  lines[0]
      = g_strdup_printf ("%s ! %s ! %s ! video/x-raw ! fakesink", src, up, el);
  lines[1] = g_strdup_printf ("%s ! %s ! %s ! texelnvmmdownload ! fakesink",
                              src, el, NVMM_CAPS);
  lines[2] = g_strdup_printf ("%s ! %s ! %s ! %s ! texelconvert %s ! %s ! "
                              "texelnvmmdownload ! fakesink",
                              src, up, el, NVMM_CAPS, BACKEND, NVMM_CAPS);
  texel_run_launch_lines ((const gchar *const *)lines, G_N_ELEMENTS (lines),
                          30 * GST_SECOND);
  for (i = 0; i < G_N_ELEMENTS (lines); i++)
    g_free (lines[i]);
  g_free (up);
  g_free (el);
}

GST_END_TEST;

/* texeladjust with its defaults changes nothing: NVMM in and out passes
 * the buffer on as it is; NVMM in, system memory out (the same video caps)
 * must not pass it on. */
GST_START_TEST (test_nvmm_passthrough)
{
  const NvmmElement identity = { "texeladjust", "" };
  GstVideoInfo info = input_info (ANY_FORMAT), out_info;
  GRand *rand = g_rand_new_with_seed (43);
  GstBuffer *in = texel_buffer_new_random (&info, rand, 0);
  guint out_nvmm;

  for (out_nvmm = 0; out_nvmm < 2; out_nvmm++)
    {
      GstHarness *h = nvmm_harness_new (&identity, ANY_FORMAT, TRUE, out_nvmm);
      GstBuffer *buf = texel_nvmm_buffer_new (&info, in, mem_types[0], 1);
      NvBufSurface *surf = texel_nvmm_buffer_surface (buf);
      GstBuffer *out = texel_push_pull (h, buf);

      if (out_nvmm)
        fail_unless (texel_nvmm_buffer_surface (out) == surf);
      else
        {
          texel_harness_out_info (h, &out_info);
          fail_unless_equals_uint64 (gst_buffer_get_size (out), out_info.size);
          check_equal (in, out, &out_info, "NVMM in, system memory out");
        }
      gst_buffer_unref (out);
      texel_harness_teardown (h);
    }
  gst_buffer_unref (in);
  g_rand_free (rand);
}

GST_END_TEST;

/* Both pads of @e (kept): NVMM in their templates (every CUDA build);
 * in their caps queries and accepted (NV12) where @offered, neither where
 * not. */
static void
check_pads_nvmm (GstElement *e, gboolean offered)
{
  const gchar *names[] = { "sink", "src" };
  gchar *s = caps_string ("NV12", WIDTH, HEIGHT, TRUE);
  GstCaps *nvmm = gst_caps_from_string (s);
  guint p;

  for (p = 0; p < G_N_ELEMENTS (names); p++)
    {
      GstPad *pad = gst_element_get_static_pad (e, names[p]);
      GstCaps *caps = gst_pad_get_pad_template_caps (pad);

      fail_unless (caps_have_nvmm (caps), "%s", names[p]);
      gst_caps_unref (caps);
      caps = gst_pad_query_caps (pad, NULL);
      fail_unless (!caps_have_nvmm (caps) == !offered, "%" GST_PTR_FORMAT,
                   caps);
      gst_caps_unref (caps);
      fail_unless (!gst_pad_query_accept_caps (pad, nvmm) == !offered, "%s",
                   names[p]);
      gst_object_unref (pad);
    }
  gst_caps_unref (nvmm);
  g_free (s);
}

/* NVMM on both pads: templates, caps and accept-caps queries. */
GST_START_TEST (test_nvmm_caps)
{
  GstElement *e = texel_test_element_new (elements[__i__].factory, NULL);

  check_pads_nvmm (e, TRUE);
  gst_object_unref (e);
}

GST_END_TEST;

#if !TEXEL_NVMM_TEST_GPU
/* By default the CPU path offers no NVMM: a Jetson's nvvidconv would hand
 * it surface arrays it cannot read (GST_TEXEL_NVMM=1 asks for it). */
GST_START_TEST (test_nvmm_not_on_cpu_path)
{
  GstElement *e
      = texel_test_element_new (elements[__i__].factory, "backend=cpu");
  GstHarness *h = texel_harness_new_with (e);
  const gchar *names[] = { "sink", "src" };
  guint p;

  g_unsetenv ("GST_TEXEL_NVMM");
  for (p = 0; p < G_N_ELEMENTS (names); p++)
    {
      GstPad *pad = gst_element_get_static_pad (h->element, names[p]);
      GstCaps *caps = gst_pad_query_caps (pad, NULL);

      fail_if (caps_have_nvmm (caps), "%s: %" GST_PTR_FORMAT, names[p], caps);
      gst_caps_unref (caps);
      gst_object_unref (pad);
    }
  g_setenv ("GST_TEXEL_NVMM", "1", TRUE);
  {
    GstPad *pad = gst_element_get_static_pad (h->element, "sink");
    GstCaps *caps = gst_pad_query_caps (pad, NULL);

    fail_unless (caps_have_nvmm (caps), "%" GST_PTR_FORMAT, caps);
    gst_caps_unref (caps);
    gst_object_unref (pad);
  }
  texel_harness_teardown (h);
}

GST_END_TEST;
#endif

#if !TEXEL_NVMM_TEST_EGL
typedef void (*SurfaceChange) (NvBufSurface *surf, gboolean undo);

/* Pushes a random NV12 frame (@seed) in a batch of @batch NvBufSurfaces,
 * the first changed by @change (undone before it is freed; NULL: none),
 * into texelconvert taking NV12 NVMM, which must refuse it; returns the
 * error posted (free it). */
static gchar *
push_refused (guint32 seed, guint batch, SurfaceChange change)
{
  GstVideoInfo info = input_info ("NV12");
  GRand *rand = g_rand_new_with_seed (seed);
  GstBuffer *in = texel_buffer_new_random (&info, rand, 0);
  GstBuffer *buf = texel_nvmm_buffer_new (&info, in, mem_types[0], batch);
  GstHarness *h = nvmm_harness_new (&elements[0], "NV12", TRUE, FALSE);
  GstBuffer *out;
  gchar *errors;

  if (change)
    change (texel_nvmm_buffer_surface (buf), FALSE);
  gst_harness_push (h, gst_buffer_ref (buf));
  out = gst_harness_try_pull (h);
  fail_if (out != NULL, "a refused surface gave a frame");
  errors = bus_messages_text (h->element, GST_MESSAGE_ERROR);
  texel_harness_teardown (h);
  if (change)
    change (texel_nvmm_buffer_surface (buf), TRUE);
  gst_buffer_unref (buf);
  gst_buffer_unref (in);
  g_rand_free (rand);
  return errors;
}

static void
change_batch (NvBufSurface *surf, gboolean undo)
{
  surf->numFilled = undo ? 1 : 2;
}

static void
change_mem_type (NvBufSurface *surf, gboolean undo)
{
  /* Never read: refused before (device memory on the CPU path, system
   * memory on the GPU path). */
  surf->memType = undo                  ? mem_types[0]
                  : TEXEL_NVMM_TEST_GPU ? NVBUF_MEM_SYSTEM
                                        : NVBUF_MEM_CUDA_DEVICE;
}

static void
change_surface_array (NvBufSurface *surf, gboolean undo)
{
  surf->memType = undo ? mem_types[0] : NVBUF_MEM_SURFACE_ARRAY;
}

static void
change_layout (NvBufSurface *surf, gboolean undo)
{
  surf->surfaceList->layout
      = undo ? NVBUF_LAYOUT_PITCH : NVBUF_LAYOUT_BLOCK_LINEAR;
}

static void
change_format (NvBufSurface *surf, gboolean undo)
{
  surf->surfaceList->colorFormat
      = undo ? NVBUF_COLOR_FORMAT_NV12 : NVBUF_COLOR_FORMAT_NV21;
}

static void
change_pitch (NvBufSurface *surf, gboolean undo)
{
  static guint32 pitch;

  if (!undo)
    pitch = surf->surfaceList->planeParams.pitch[1];
  surf->surfaceList->planeParams.pitch[1] = undo ? pitch : WIDTH - 2;
}

static void
change_size (NvBufSurface *surf, gboolean undo)
{
  static guint32 size;

  const NvBufSurfacePlaneParams *pp = &surf->surfaceList->planeParams;

  if (!undo)
    size = surf->surfaceList->dataSize;
  /* The last chroma row ends one byte past the memory. */
  surf->surfaceList->dataSize
      = undo ? size
             : pp->offset[1] + pp->pitch[1] * (HEIGHT / 2 - 1) + WIDTH - 1;
}

static const struct
{
  SurfaceChange change;
  const gchar *message;
} refusals[] = {
  { change_batch, "a batch of 1 surfaces (2 filled)" },
  { change_mem_type,
    TEXEL_NVMM_TEST_GPU
        ? "NVBUF_MEM_SYSTEM surfaces are read on the CPU path only"
        : "NVBUF_MEM_CUDA_DEVICE surfaces are read on the GPU only" },
  /* The stand-in makes no EGL images: on the GPU the EGL path is tried
   * and fails. */
  { change_surface_array,
    TEXEL_NVMM_TEST_GPU
        ? "NvBufSurfaceMapEglImage failed (-1)"
        : "NVBUF_MEM_SURFACE_ARRAY surfaces are read on the GPU only" },
  { change_layout, "block-linear surfaces are read as surface arrays only" },
  { change_format, "is not the caps' NV12" },
  { change_pitch, "plane 1 (offset" },
  { change_size, "plane 1 (offset" },
};

/* Surfaces the element cannot read are refused, none read out of bounds,
 * with an error that says why. */
GST_START_TEST (test_nvmm_refused)
{
  gchar *errors = push_refused (3, 1, refusals[__i__].change);

  fail_unless (strstr (errors, "Cannot read this memory:NVMM buffer")
                   && strstr (errors, refusals[__i__].message),
               "%s", errors);
  g_free (errors);
}

GST_END_TEST;

/* A real batch (two surfaces, both filled) is refused too. */
GST_START_TEST (test_nvmm_batch)
{
  gchar *errors = push_refused (5, 2, NULL);

  fail_unless (strstr (errors, "a batch of 2 surfaces") != NULL, "%s", errors);
  g_free (errors);
}

GST_END_TEST;
#endif

/* Without libnvbufsurface no pad takes NVMM (the templates still list
 * it). */
GST_START_TEST (test_nvmm_absent)
{
  GstElement *e = texel_test_element_new (elements[__i__].factory, NULL);

  check_pads_nvmm (e, FALSE);
  gst_object_unref (e);
}

GST_END_TEST;

#if TEXEL_NVMM_TEST_EGL
#define EGL_POOL 8
#define EGL_FRAMES 10000

/* A camera's or decoder's pool: EGL_FRAMES frames cycling through
 * EGL_POOL surface arrays, NVMM in and out (the element's own pool of
 * surface arrays). Each surface is registered with CUDA once: none after
 * the first round of the input pool and the output pool; each output
 * checked now and then is its input's system-memory output; and once the
 * pools are gone no EGL image or texture is left. */
GST_START_TEST (test_nvmm_egl_registrations)
{
  const NvmmElement *te = &elements[1];
  GRand *rand = g_rand_new_with_seed (47);
  GstVideoInfo info = input_info ("RGBA"), out_info;
  GstBuffer *in[EGL_POOL], *surfaces[EGL_POOL], *expected[EGL_POOL];
  GstHarness *h;
  guint64 registered = 0;
  guint i;

  for (i = 0; i < EGL_POOL; i++)
    {
      in[i] = texel_buffer_new_random (&info, rand, 0);
      expected[i] = run (te, "RGBA", in[i], -1, FALSE, &out_info);
      surfaces[i] = texel_nvmm_buffer_new (&info, in[i], mem_types[0], 1);
      fail_unless (surfaces[i] != NULL);
    }
  h = nvmm_harness_new (te, "RGBA", TRUE, TRUE);
  for (i = 0; i < EGL_FRAMES; i++)
    {
      GstBuffer *out
          = texel_push_pull (h, gst_buffer_ref (surfaces[i % EGL_POOL]));

      fail_unless (out != NULL, "frame %u: no output", i);
      if (i % 997 == 0 || i == EGL_FRAMES - 1)
        {
          gchar *what = g_strdup_printf ("frame %u of %u", i, EGL_FRAMES);
          GstBuffer *sys;

          texel_harness_out_info (h, &out_info);
          sys = texel_nvmm_buffer_download (out, &out_info);
          fail_unless (sys != NULL);
          check_equal (expected[i % EGL_POOL], sys, &out_info, what);
          gst_buffer_unref (sys);
          g_free (what);
        }
      gst_buffer_unref (out);
      if (i == 4 * EGL_POOL)
        registered = texel_stats_get (h->element, "registrations");
    }
  fail_unless (registered >= EGL_POOL, "%" G_GUINT64_FORMAT " registrations",
               registered);
  fail_unless_equals_uint64 (texel_stats_get (h->element, "registrations"),
                             registered);
  GST_INFO ("%u frames: %" G_GUINT64_FORMAT " registrations", EGL_FRAMES,
            registered);
  texel_harness_teardown (h);
  for (i = 0; i < EGL_POOL; i++)
    {
      gst_buffer_unref (surfaces[i]);
      gst_buffer_unref (expected[i]);
      gst_buffer_unref (in[i]);
    }
  fail_unless_equals_int (texel_standin_live_egl_images (), 0);
  fail_unless_equals_int (texel_standin_live_textures (), 0);
  g_rand_free (rand);
}

GST_END_TEST;

/* A block-linear surface array (on a Jetson the camera's and the
 * decoder's default) is read through its EGL frame's CUDA array like a
 * pitch-linear one: the system-memory output, exactly. */
GST_START_TEST (test_nvmm_egl_block_linear)
{
  const NvmmElement *te = &elements[__i__];
  GRand *rand = g_rand_new_with_seed (53);
  GstVideoInfo info = input_info ("RGBA"), out_info;
  GstBuffer *in = texel_buffer_new_random (&info, rand, 0);
  GstBuffer *expected = run (te, "RGBA", in, -1, FALSE, &out_info);
  GstBuffer *buf = texel_nvmm_buffer_new (&info, in, mem_types[0], 1);
  GstHarness *h = nvmm_harness_new (te, "RGBA", TRUE, FALSE);
  GstBuffer *out;

  fail_unless (buf != NULL);
  texel_nvmm_buffer_surface (buf)->surfaceList->layout
      = NVBUF_LAYOUT_BLOCK_LINEAR;
  out = texel_push_pull (h, buf);
  texel_harness_out_info (h, &out_info);
  check_equal (expected, out, &out_info, "block-linear surface array in");
  gst_buffer_unref (out);
  texel_harness_teardown (h);
  gst_buffer_unref (expected);
  gst_buffer_unref (in);
  g_rand_free (rand);
}

GST_END_TEST;

/* Whether the stand-in's surface arrays of @format reach CUDA: one
 * registered and its EGL frame read, as the plugin does; what it is
 * printed. FALSE with *@refused set (to CUDA's error) where CUDA refuses
 * it. */
static gboolean
egl_probe (const gchar *format, cudaError_t *refused)
{
  NvBufSurfaceCreateParams params = { 0 };
  NvBufSurface *surf = NULL;
  struct cudaGraphicsResource *resource = NULL;
  cudaEglFrame frame;
  cudaError_t err;

  /* Not input_info: its fail_unless outside a test would end this child
   * process (libcheck has no messaging set up here) with status 2. */
  params.width = WIDTH;
  params.height = HEIGHT;
  params.colorFormat
      = texel_nvmm_color_format (gst_video_format_from_string (format));
  params.memType = NVBUF_MEM_SURFACE_ARRAY;
  *refused = cudaErrorUnknown; /* not CUDA's doing: no skip */
  if (NvBufSurfaceCreate (&surf, 1, &params) != 0)
    {
      g_print ("%s surface array: NvBufSurfaceCreate failed\n", format);
      return FALSE;
    }
  if (NvBufSurfaceMapEglImage (surf, 0) != 0)
    {
      g_print ("%s surface array: NvBufSurfaceMapEglImage failed\n", format);
      NvBufSurfaceDestroy (surf);
      return FALSE;
    }
  err = cudaGraphicsEGLRegisterImage (&resource,
                                      surf->surfaceList->mappedAddr.eglImage,
                                      cudaGraphicsRegisterFlagsNone);
  if (!err)
    err = cudaGraphicsResourceGetMappedEglFrame (&frame, resource, 0, 0);
  if (!err && frame.frameType == cudaEglFrameTypeArray)
    {
      struct cudaChannelFormatDesc desc;
      struct cudaExtent extent;
      unsigned int flags = 0;

      err = cudaArrayGetInfo (&desc, &extent, &flags, frame.frame.pArray[0]);
      *(g_str_equal (format, "GRAY8") ? &egl_surfaces_gray8
                                      : &egl_surfaces_rgba)
          = (flags & cudaArraySurfaceLoadStore) != 0;
    }
  if (!err)
    g_print ("%s surface array: EGL frame %s, %u plane(s), %ux%u, %u "
             "channel(s) of %d bits, EGL colour format %d, %s surfaces\n",
             format,
             frame.frameType == cudaEglFrameTypeArray ? "CUDA array" : "pitch",
             frame.planeCount, frame.planeDesc[0].width,
             frame.planeDesc[0].height, frame.planeDesc[0].numChannels,
             frame.planeDesc[0].channelDesc.x, (int)frame.eglColorFormat,
             egl_surfaces (format) ? "takes" : "does not take");
  else
    g_print ("%s surface array: %s: %s\n", format, cudaGetErrorName (err),
             cudaGetErrorString (err));
  if (resource)
    cudaGraphicsUnregisterResource (resource);
  NvBufSurfaceUnMapEglImage (surf, 0);
  NvBufSurfaceDestroy (surf);
  *refused = err;
  return err == cudaSuccess;
}

/* 77 (printed why) where surface arrays cannot run here: no EGL, or CUDA
 * refuses EGL interop; 0 where they can, EGL_GRAY8_REFUSED where GRAY8's
 * GL_R8 texture alone is refused; 1 where the probe failed otherwise (and
 * 2, libcheck's status for a check that failed outside a test). */
#define EGL_GRAY8_REFUSED 3
/* Added to 0 or EGL_GRAY8_REFUSED where those arrays take surfaces
 * (egl_surfaces), so that the tests, in other processes, know it. */
#define EGL_SURFACES_RGBA 16
#define EGL_SURFACES_GRAY8 32

static int
egl_check (void)
{
  const gchar *why = texel_standin_egl_error ();
  cudaError_t err;

  if (why)
    {
      g_print ("SKIP: no EGL for the stand-in's surface arrays: %s\n", why);
      return 77;
    }
  if (!egl_probe ("RGBA", &err))
    {
      if (err == cudaErrorNotSupported || err == cudaErrorOperatingSystem)
        {
          g_print ("SKIP: cudaGraphicsEGLRegisterImage refused the EGL image "
                   "of a GL texture: %s (%s)\n",
                   cudaGetErrorName (err), cudaGetErrorString (err));
          return 77;
        }
      return 1;
    }
  if (!egl_probe ("GRAY8", &err))
    {
      g_print ("GRAY8 left out: CUDA refuses the EGL image of a GL_R8 "
               "texture\n");
      return EGL_GRAY8_REFUSED;
    }
  return 0;
}

/* egl_check in a child process, as texel_probe_gpus: neither CUDA nor EGL
 * may be opened before the tests fork. */
static int
egl_available (void)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      int ret = egl_check ();

      if (ret == 0 || ret == EGL_GRAY8_REFUSED)
        ret |= (egl_surfaces_rgba ? EGL_SURFACES_RGBA : 0)
               | (egl_surfaces_gray8 ? EGL_SURFACES_GRAY8 : 0);
      fflush (stdout);
      _exit (ret);
    }
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    {
      g_print ("the EGL probe did not finish normally\n");
      return 1;
    }
  status = WEXITSTATUS (status);
  if ((status & ~(EGL_SURFACES_RGBA | EGL_SURFACES_GRAY8)) == 0
      || (status & ~(EGL_SURFACES_RGBA | EGL_SURFACES_GRAY8))
             == EGL_GRAY8_REFUSED)
    {
      egl_surfaces_rgba = (status & EGL_SURFACES_RGBA) != 0;
      egl_surfaces_gray8 = (status & EGL_SURFACES_GRAY8) != 0;
      status &= ~(EGL_SURFACES_RGBA | EGL_SURFACES_GRAY8);
    }
  if (status == EGL_GRAY8_REFUSED)
    {
      n_formats = 1;
      return 0;
    }
  return status;
}
#endif

static Suite *
nvmm_suite (gboolean absent)
{
  Suite *s = suite_create ("nvmm");
  TCase *tc;

  if (absent)
    {
      tc = texel_suite_add_tcase (s, "absent", 0);
      tcase_add_loop_test (tc, test_nvmm_absent, 0, G_N_ELEMENTS (elements));
      return s;
    }
  tc = texel_suite_add_tcase (s, "input", 300);
  tcase_add_loop_test (tc, test_nvmm_matches_system, 0,
                       G_N_ELEMENTS (elements));
  tcase_add_loop_test (tc, test_nvmm_chain, 0, n_formats);
  tcase_add_loop_test (tc, test_nvmm_in_flight, 0, G_N_ELEMENTS (elements));
  tcase_add_loop_test (tc, test_nvmm_launch, 0, G_N_ELEMENTS (elements));
  tcase_add_test (tc, test_nvmm_passthrough);
  tc = texel_suite_add_tcase (s, "caps", 0);
  tcase_add_loop_test (tc, test_nvmm_caps, 0, G_N_ELEMENTS (elements));
#if TEXEL_NVMM_TEST_GPU
  tcase_add_test (tc, test_nvmm_bayer_out);
#endif
#if !TEXEL_NVMM_TEST_GPU
  tcase_add_loop_test (tc, test_nvmm_not_on_cpu_path, 0,
                       G_N_ELEMENTS (elements));
#endif
#if TEXEL_NVMM_TEST_EGL
  tc = texel_suite_add_tcase (s, "block-linear", 0);
  tcase_add_loop_test (tc, test_nvmm_egl_block_linear, 0,
                       G_N_ELEMENTS (elements));
  tc = texel_suite_add_tcase (s, "registrations", 600);
  tcase_add_test (tc, test_nvmm_egl_registrations);
#else
  /* (NV12 surfaces, which the stand-in's surface arrays are not) */
  tc = texel_suite_add_tcase (s, "refused", 0);
  tcase_add_loop_test (tc, test_nvmm_refused, 0, G_N_ELEMENTS (refusals));
  tcase_add_test (tc, test_nvmm_batch);
#endif
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *lib = g_getenv ("GST_TEXEL_NVBUFSURFACE_LIBRARY");
  gboolean absent = !lib || !g_file_test (lib, G_FILE_TEST_EXISTS);
  SRunner *sr;
  int failed;

  texel_check_init (&argc, &argv);
#if TEXEL_NVMM_TEST_GPU
  if (texel_probe_gpus () <= 0)
    {
      g_print ("SKIP: NVMM on the GPU needs a CUDA GPU\n");
      return 77;
    }
#endif
#if TEXEL_NVMM_TEST_EGL
  {
    int ret = egl_available ();

    if (ret != 0)
      return ret;
    /* The elements' NVMM output in surface arrays too, as on a Jetson. */
    g_setenv ("GST_TEXEL_NVMM_SURFACE_ARRAY", "1", TRUE);
  }
#endif
  sr = srunner_create (nvmm_suite (absent));
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
