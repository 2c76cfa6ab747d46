/* gst-texel: caps negotiation of frames in CUDA memory, without a GPU.
 *
 * In builds with GStreamer's CUDA library (gstreamer-cuda-1.0), every texel
 * element's pads offer frames in GstCudaMemory (the caps feature
 * memory:CUDAMemory) next to frames in system memory. No frame is processed
 * here; these tests check the negotiation logic that decides where frames
 * live, on any machine:
 *
 *  - the pad templates: CUDA memory first, with every format of system
 *    memory but GRAY8 (which GStreamer 1.22's CUDA allocator cannot lay
 *    out);
 *  - transform_caps before start (when the element may still run on the
 *    GPU): the memory of the input first, the other memory after it, so
 *    that an element can be where frames go up to or come down from the
 *    GPU; with backend=cpu no CUDA memory at all;
 *  - fixation: the input's memory where the peer takes both, the other one
 *    where the peer takes only that;
 *  - an element started on the CPU path leaves CUDA memory out of its caps
 *    queries and refuses it in accept-caps, and a pipeline settles on
 *    system memory when the peer offers both, or fails to negotiate when
 *    the peer insists on CUDA memory.
 *
 * Built without gstreamer-cuda, the program says so and exits 77
 * (skipped): the templates then hold system memory only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "texel-frames.h"

#if TEXEL_TEST_HAVE_GST_CUDA
#define CUDA_FEATURE "memory:CUDAMemory"

/* Every texel element shares the base class's memory logic. */
static const gchar *elements[] = { "texelconvert", "texeladjust" };

static const gchar *system_caps
    = "video/x-raw, format=NV12, width=320, height=240, framerate=30/1";
static const gchar *cuda_caps
    = "video/x-raw(memory:CUDAMemory), format=NV12, width=320, height=240, "
      "framerate=30/1";

static gboolean
structure_on_device (GstCaps *caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && gst_caps_features_contains (f, CUDA_FEATURE);
}

static gboolean
caps_have_device (GstCaps *caps)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    if (structure_on_device (caps, i))
      return TRUE;
  return FALSE;
}

/* Whether every structure in @first_on_device's memory comes before every
 * structure in the other memory, and both memories are there. */
static gboolean
memories_ordered (GstCaps *caps, gboolean first_on_device)
{
  gboolean seen_other = FALSE, seen_first = FALSE;
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      gboolean first = structure_on_device (caps, i) == first_on_device;

      if (first && seen_other)
        return FALSE;
      seen_first |= first;
      seen_other |= !first;
    }
  return seen_first && seen_other;
}

static GstElement *
make (const gchar *factory, const gchar *backend)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  fail_unless (e != NULL, "no %s", factory);
  if (backend)
    gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  return e;
}

static GstCaps *
transform (GstElement *e, GstPadDirection direction, const gchar *caps_str,
           const gchar *filter_str)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (e);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstCaps *filter = filter_str ? gst_caps_from_string (filter_str) : NULL;
  GstCaps *result = GST_BASE_TRANSFORM_GET_CLASS (trans)->transform_caps (
      trans, direction, caps, filter);

  GST_INFO ("%s %s %s -> %" GST_PTR_FORMAT, GST_ELEMENT_NAME (e),
            direction == GST_PAD_SINK ? "sink" : "src", caps_str, result);
  gst_caps_unref (caps);
  if (filter)
    gst_caps_unref (filter);
  return result;
}

/* ------------------------------------------------------------------------ */

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar **)a, *(const gchar **)b);
}

/* The formats @caps lists, sorted, comma-separated (to g_free). */
static gchar *
caps_format_names (GstCaps *caps)
{
  GPtrArray *names = g_ptr_array_new ();
  gchar *joined;
  guint i, j;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      const GValue *v = gst_structure_get_value (
          gst_caps_get_structure (caps, i), "format");

      if (G_VALUE_HOLDS_STRING (v))
        g_ptr_array_add (names, (gpointer)g_value_get_string (v));
      else
        for (j = 0; j < gst_value_list_get_size (v); j++)
          g_ptr_array_add (names, (gpointer)g_value_get_string (
                                      gst_value_list_get_value (v, j)));
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv (",", (gchar **)names->pdata);
  g_ptr_array_free (names, TRUE);
  return joined;
}

/* The formats of NVMM memory: those of gsttexelnvmm.c's table. */
#define NVMM_FORMATS                                                           \
  "ABGR,ARGB,BGR,BGRA,BGRx,GRAY8,I420,NV12,NV21,P010_10LE,RGB,RGBA,RGBx,"      \
  "UYVY,YUY2,YV12"
/* System memory's formats that CUDA memory lacks: those GStreamer's CUDA
 * allocator does not lay out (GRAY16_LE only where the element takes it:
 * texelconvert, not texeladjust). */
static const gchar *const host_only_formats[]
    = { "AYUV,GRAY16_LE,GRAY8,NV16,VUYA,YVYU,xRGB",
        "AYUV,GRAY8,NV16,VUYA,YVYU,xRGB" };

/* CUDA memory first on both pads, with the formats of system memory but
 * those GStreamer's CUDA allocator does not lay out; NVMM with the
 * formats of the NVMM table, all of them system memory's too; then, on
 * texelconvert's sink pad alone, raw Bayer in system memory. */
GST_START_TEST (test_templates)
{
  GstElement *e = make (elements[__i__], NULL);
  const gchar *pads[] = { "sink", "src" };
  guint p;

  for (p = 0; p < G_N_ELEMENTS (pads); p++)
    {
      GstPad *pad = gst_element_get_static_pad (e, pads[p]);
      GstCaps *templ = gst_pad_get_pad_template_caps (pad);
      GstCaps *device, *host, *missing;
      gchar *missing_names;

      if (p == 0 && g_str_equal (elements[__i__], "texelconvert"))
        {
          fail_unless_equals_int (gst_caps_get_size (templ), 4);
          fail_unless (gst_structure_has_name (
              gst_caps_get_structure (templ, 3), "video/x-bayer"));
          fail_if (structure_on_device (templ, 3));
          templ = gst_caps_make_writable (templ);
          gst_caps_remove_structure (templ, 3);
        }
      fail_unless_equals_int (gst_caps_get_size (templ), 3);
      fail_unless (structure_on_device (templ, 0), "%s: %" GST_PTR_FORMAT,
                   pads[p], templ);
      fail_if (structure_on_device (templ, 1));
      device = gst_caps_copy_nth (templ, 0);
      host = gst_caps_copy_nth (templ, 1);
      {
        GstCaps *nvmm = gst_caps_copy_nth (templ, 2);

        gchar *names;

        fail_unless (gst_caps_features_contains (
            gst_caps_get_features (nvmm, 0), "memory:NVMM"));
        gst_caps_set_features (nvmm, 0, NULL);
        fail_unless (gst_caps_is_subset (nvmm, host));
        names = caps_format_names (nvmm);
        fail_unless_equals_string (names, NVMM_FORMATS);
        g_free (names);
        gst_caps_unref (nvmm);
      }
      gst_caps_set_features (device, 0, NULL);
      fail_unless (gst_caps_is_subset (device, host));
      missing = gst_caps_subtract (host, device);
      missing_names = caps_format_names (missing);
      fail_unless_equals_string (missing_names, host_only_formats[__i__]);
      g_free (missing_names);
      gst_caps_unref (missing);
      gst_caps_unref (device);
      gst_caps_unref (host);
      gst_caps_unref (templ);
      gst_object_unref (pad);
    }
  gst_object_unref (e);
}

GST_END_TEST;

/* Before start: the input's memory first, then the other; both directions. */
GST_START_TEST (test_transform_keeps_memory_first)
{
  GstElement *e = make (elements[__i__], NULL);
  GstPadDirection dirs[] = { GST_PAD_SINK, GST_PAD_SRC };
  guint d;

  for (d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      GstCaps *from_host = transform (e, dirs[d], system_caps, NULL);
      GstCaps *from_device = transform (e, dirs[d], cuda_caps, NULL);

      fail_unless (memories_ordered (from_host, FALSE), "%" GST_PTR_FORMAT,
                   from_host);
      fail_unless (memories_ordered (from_device, TRUE), "%" GST_PTR_FORMAT,
                   from_device);
      gst_caps_unref (from_host);
      gst_caps_unref (from_device);
    }
  gst_object_unref (e);
}

GST_END_TEST;

/* A peer that takes only the other memory still gets frames: the element
 * is then the upload or download point. */
GST_START_TEST (test_transform_to_other_memory)
{
  GstElement *e = make (elements[__i__], NULL);
  GstCaps *up = transform (e, GST_PAD_SINK, system_caps,
                           "video/x-raw(memory:CUDAMemory)");
  GstCaps *down = transform (e, GST_PAD_SINK, cuda_caps, "video/x-raw");

  fail_if (gst_caps_is_empty (up));
  fail_unless (structure_on_device (up, 0));
  fail_if (gst_caps_is_empty (down));
  fail_if (caps_have_device (down));
  gst_caps_unref (up);
  gst_caps_unref (down);
  gst_object_unref (e);
}

GST_END_TEST;

/* backend=cpu: CUDA memory is never offered, nor derived from. */
GST_START_TEST (test_transform_cpu_backend)
{
  GstElement *e = make (elements[__i__], "cpu");
  GstCaps *from_host = transform (e, GST_PAD_SINK, system_caps, NULL);
  GstCaps *from_device = transform (e, GST_PAD_SINK, cuda_caps, NULL);

  fail_if (gst_caps_is_empty (from_host));
  fail_if (caps_have_device (from_host), "%" GST_PTR_FORMAT, from_host);
  fail_unless (gst_caps_is_empty (from_device), "%" GST_PTR_FORMAT,
               from_device);
  gst_caps_unref (from_host);
  gst_caps_unref (from_device);
  gst_object_unref (e);
}

GST_END_TEST;

/* The output caps fixated for @in_str against a peer taking @peer_str. */
static GstCaps *
fixate_against (GstElement *e, const gchar *in_str, const gchar *peer_str)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (e);
  GstCaps *in = gst_caps_from_string (in_str);
  GstCaps *peer = gst_caps_from_string (peer_str);
  GstCaps *other = transform (e, GST_PAD_SINK, in_str, NULL);
  GstCaps *pad_templ
      = gst_pad_get_pad_template_caps (GST_BASE_TRANSFORM_SRC_PAD (trans));
  GstCaps *tmp, *fixed;

  /* What GstBaseTransform does: the transform within the source template,
   * then what the peer takes, in our order. */
  tmp = gst_caps_intersect_full (other, pad_templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (other);
  other = gst_caps_intersect_full (tmp, peer, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (tmp);
  fail_if (gst_caps_is_empty (other), "%s against %s", in_str, peer_str);
  fixed = GST_BASE_TRANSFORM_GET_CLASS (trans)->fixate_caps (
      trans, GST_PAD_SINK, in, other);
  fail_unless (gst_caps_is_fixed (fixed));
  gst_caps_unref (in);
  gst_caps_unref (peer);
  gst_caps_unref (pad_templ);
  return fixed;
}

GST_START_TEST (test_fixate_memory)
{
  GstElement *e = make (elements[__i__], NULL);
  const gchar *both = "video/x-raw(memory:CUDAMemory); video/x-raw";
  GstCaps *c;

  /* the peer takes both: the input's memory */
  c = fixate_against (e, system_caps, both);
  fail_if (structure_on_device (c, 0), "%" GST_PTR_FORMAT, c);
  gst_caps_unref (c);
  c = fixate_against (e, cuda_caps, both);
  fail_unless (structure_on_device (c, 0), "%" GST_PTR_FORMAT, c);
  gst_caps_unref (c);
  /* the peer takes one: that one */
  c = fixate_against (e, cuda_caps, "video/x-raw");
  fail_if (structure_on_device (c, 0), "%" GST_PTR_FORMAT, c);
  gst_caps_unref (c);
  c = fixate_against (e, system_caps, "video/x-raw(memory:CUDAMemory)");
  fail_unless (structure_on_device (c, 0), "%" GST_PTR_FORMAT, c);
  gst_caps_unref (c);
  gst_object_unref (e);
}

GST_END_TEST;

/* Started on the CPU path: queries never offer CUDA memory, accept-caps
 * refuses it, system memory is accepted. */
GST_START_TEST (test_cpu_queries)
{
  GstElement *e = make (elements[__i__], "cpu");
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstPad *sink = GST_BASE_TRANSFORM_SINK_PAD (h->element);
  GstPad *src = GST_BASE_TRANSFORM_SRC_PAD (h->element);
  GstCaps *device = gst_caps_from_string (cuda_caps);
  GstCaps *host = gst_caps_from_string (system_caps);
  GstCaps *caps;

  gst_harness_play (h);
  caps = gst_pad_query_caps (sink, NULL);
  fail_if (gst_caps_is_empty (caps));
  fail_if (caps_have_device (caps), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  caps = gst_pad_query_caps (src, NULL);
  fail_if (caps_have_device (caps), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  fail_if (gst_pad_query_accept_caps (sink, device));
  fail_unless (gst_pad_query_accept_caps (sink, host));
  gst_caps_unref (device);
  gst_caps_unref (host);
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* Plays @pipeline (with an element named t) to EOS or an error; returns
 * that message and t's negotiated source caps (NULL if none). Takes
 * @pipeline. */
static GstMessage *
play (GstElement *pipeline, GstCaps **src_caps)
{
  GstElement *t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstPad *pad = gst_element_get_static_pad (t, "src");
  GstMessage *msg;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
                                    GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "neither EOS nor an error");
  *src_caps = gst_pad_get_current_caps (pad);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (bus);
  gst_object_unref (t);
  gst_object_unref (pipeline);
  return msg;
}

/* videotestsrc (NV12) ! @factory name=t backend=@backend ! capsfilter
 * caps=@out_caps ! fakesink. t is linked to the capsfilter checking only
 * the pad templates, so that a mismatch shows in the running pipeline. */
static GstElement *
pipeline_new (const gchar *factory, const gchar *backend, const gchar *out_caps)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *src = gst_element_factory_make ("videotestsrc", NULL);
  GstElement *in = gst_element_factory_make ("capsfilter", NULL);
  GstElement *t = make (factory, backend);
  GstElement *out = gst_element_factory_make ("capsfilter", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstPad *t_src, *out_sink;

  g_object_set (src, "num-buffers", 3, NULL);
  gst_util_set_object_arg (G_OBJECT (in), "caps",
                           "video/x-raw,format=NV12,width=64,height=48");
  gst_util_set_object_arg (G_OBJECT (out), "caps", out_caps);
  gst_object_set_name (GST_OBJECT (t), "t");
  gst_bin_add_many (GST_BIN (pipeline), src, in, t, out, sink, NULL);
  fail_unless (gst_element_link_many (src, in, t, NULL));
  fail_unless (gst_element_link (out, sink));
  t_src = gst_element_get_static_pad (t, "src");
  out_sink = gst_element_get_static_pad (out, "sink");
  fail_unless_equals_int (
      gst_pad_link_full (t_src, out_sink, GST_PAD_LINK_CHECK_TEMPLATE_CAPS),
      GST_PAD_LINK_OK);
  gst_object_unref (t_src);
  gst_object_unref (out_sink);
  return pipeline;
}

/* System memory in, a peer that takes both memories: system memory out, on
 * either backend (auto runs on the GPU where there is one). A peer that
 * insists on CUDA memory and an element bound to the CPU: not negotiated,
 * an error rather than frames in the wrong memory. */
GST_START_TEST (test_pipeline_falls_back_to_system)
{
  const gchar *backends[] = { "cpu", "auto" };
  GstMessage *msg;
  GstCaps *caps;
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    {
      msg = play (pipeline_new (elements[__i__], backends[b],
                                "video/x-raw(memory:CUDAMemory); video/x-raw"),
                  &caps);
      fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
      fail_unless (caps != NULL);
      fail_if (caps_have_device (caps), "backend=%s: %" GST_PTR_FORMAT,
               backends[b], caps);
      gst_caps_unref (caps);
      gst_message_unref (msg);
    }

  msg = play (
      pipeline_new (elements[__i__], "cpu", "video/x-raw(memory:CUDAMemory)"),
      &caps);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  fail_unless (caps == NULL, "%" GST_PTR_FORMAT, caps);
  gst_message_unref (msg);
}

GST_END_TEST;

/* Linking with the usual caps check already refuses a CUDA-only peer to an
 * element bound to the CPU, and accepts it where the element may run on
 * the GPU. */
GST_START_TEST (test_link_cpu_refuses_cuda_peer)
{
  const gchar *backends[] = { "cpu", "auto" };
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    {
      GstElement *t = make (elements[__i__], backends[b]);
      GstElement *out = gst_element_factory_make ("capsfilter", NULL);

      gst_util_set_object_arg (G_OBJECT (out), "caps",
                               "video/x-raw(memory:CUDAMemory)");
      fail_unless (gst_element_link (t, out) == (b == 1), "backend=%s",
                   backends[b]);
      gst_object_unref (t);
      gst_object_unref (out);
    }
}

GST_END_TEST;

static Suite *
cudamemory_suite (void)
{
  guint n = G_N_ELEMENTS (elements);
  const TexelTest negotiation_tests[] = {
    TEXEL_LOOP_TEST (test_templates, n),
    TEXEL_LOOP_TEST (test_transform_keeps_memory_first, n),
    TEXEL_LOOP_TEST (test_transform_to_other_memory, n),
    TEXEL_LOOP_TEST (test_transform_cpu_backend, n),
    TEXEL_LOOP_TEST (test_fixate_memory, n),
    TEXEL_LOOP_TEST (test_cpu_queries, n),
    TEXEL_LOOP_TEST (test_pipeline_falls_back_to_system, n),
    TEXEL_LOOP_TEST (test_link_cpu_refuses_cuda_peer, n),
  };

  return texel_suite_new ("cudamemory", "negotiation", 120, negotiation_tests,
                          G_N_ELEMENTS (negotiation_tests));
}
#endif /* TEXEL_TEST_HAVE_GST_CUDA */

int
main (int argc, char **argv)
{
#if TEXEL_TEST_HAVE_GST_CUDA
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (cudamemory_suite (), "cudamemory", __FILE__);
#else
  g_print ("SKIP: gst-texel was built without gstreamer-cuda-1.0: no "
           "memory:CUDAMemory caps to negotiate\n");
  return 77;
#endif
}
