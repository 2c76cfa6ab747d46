/* gst-texel fuzz target: caps and property strings, for every element.
 *
 * The input is text, one item per line:
 *
 *   texelconvert                              element (any other text picks
 *                                             one of the plugin's elements)
 *   video/x-raw,format=NV12,width=64,height=48   input caps
 *   video/x-raw,format=RGBA,width=32,height=18   output caps (blank: any)
 *   method=bicubic                            properties before the stream
 *   !crop-left=7                              '!': set after the first frame
 *
 * The element runs on the CPU path (backend=cpu) in a GstHarness: the caps
 * event, then up to two frames of the size the input caps give. Whatever
 * the input, nothing may crash, read out of bounds (ASan), leak (LSan) or
 * emit a GLib critical (made fatal here). Element errors are fine: that is
 * how bad caps and values must end.
 *
 * GStreamer's own caps parser is not ours to test: gst_caps_from_string
 * leaks and warns on some malformed strings (1.22), so criticals during
 * parsing are not fatal and tests/fuzz/lsan.supp names its leaks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Frames are allocated and converted for real: keep them small so that an
 * input runs in milliseconds. */
#define FUZZ_MAX_FRAME_BYTES (1 << 20)
#define FUZZ_MAX_LINES 32

static gchar **fuzz_elements;      /* the plugin's element names */
static gboolean fuzz_parsing_caps; /* inside gst_caps_from_string */

/* Properties the fuzzer leaves alone: what selects the hardware (the target
 * runs on the CPU path) and file names (the file parsers have their own
 * targets; a path like /dev/zero would only test the disk). */
static gboolean
fuzz_property_allowed (GObject *obj, const gchar *name)
{
  GParamSpec *pspec
      = g_object_class_find_property (G_OBJECT_GET_CLASS (obj), name);

  if (!pspec || !(pspec->flags & G_PARAM_WRITABLE)
      || (pspec->flags & G_PARAM_CONSTRUCT_ONLY))
    return FALSE;
  if (g_str_equal (name, "backend") || g_str_equal (name, "device-id")
      || g_str_equal (name, "memory-mode") || g_str_equal (name, "name")
      || g_str_equal (name, "parent"))
    return FALSE;
  return !g_str_has_suffix (name, "-file");
}

static void
fuzz_set_property (GstElement *element, const gchar *line)
{
  gchar **kv = g_strsplit (line, "=", 2);

  if (kv[0] && kv[1])
    {
      g_strstrip (kv[0]);
      if (fuzz_property_allowed (G_OBJECT (element), kv[0]))
        gst_util_set_object_arg (G_OBJECT (element), kv[0], kv[1]);
    }
  g_strfreev (kv);
}

static void
fuzz_set_properties (GstElement *element, gchar **lines, gboolean late)
{
  guint i;

  for (i = 3; lines[i] && i < FUZZ_MAX_LINES; i++)
    {
      if ((lines[i][0] == '!') == late)
        fuzz_set_property (element, lines[i] + (late ? 1 : 0));
    }
}

static const gchar *
fuzz_pick_element (const gchar *line)
{
  guint i;

  for (i = 0; fuzz_elements[i]; i++)
    if (g_str_equal (line, fuzz_elements[i]))
      return fuzz_elements[i];
  return fuzz_elements[g_str_hash (line) % g_strv_length (fuzz_elements)];
}

/* Frame size of fixed video caps, or 0 when there is no frame to push. */
static gsize
fuzz_frame_size (GstCaps *caps)
{
  GstVideoInfo info;

  if (!caps || !gst_caps_is_fixed (caps)
      || !gst_video_info_from_caps (&info, caps))
    return 0;
  return info.size <= FUZZ_MAX_FRAME_BYTES ? info.size : 0;
}

static GstBuffer *
fuzz_frame (gsize size, guint32 seed, GstClockTime pts)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < size; i++)
    {
      seed = seed * 1664525u + 1013904223u;
      map.data[i] = seed >> 24;
    }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

static void
fuzz_push_frame (GstHarness *h, gsize size, guint32 seed, GstClockTime pts)
{
  GstBuffer *out;

  if (gst_harness_push (h, fuzz_frame (size, seed, pts)) != GST_FLOW_OK)
    return;
  /* A queued output frame, if the element produced one now. */
  while ((out = gst_harness_try_pull (h)))
    gst_buffer_unref (out);
}

/* Output frames as large as the input's at most: caps may ask for 32767^2. */
static gboolean
fuzz_output_small_enough (GstHarness *h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstVideoInfo info;
  gboolean ok = caps && gst_video_info_from_caps (&info, caps)
                && info.size <= FUZZ_MAX_FRAME_BYTES;

  gst_clear_caps (&caps);
  return ok;
}

static GstCaps *
fuzz_parse_caps (const gchar *text)
{
  GstCaps *caps;

  fuzz_parsing_caps = TRUE;
  caps = text[0] ? gst_caps_from_string (text) : NULL;
  fuzz_parsing_caps = FALSE;
  return caps;
}

static void
fuzz_run (gchar **lines)
{
  const gchar *factory = fuzz_pick_element (lines[0]);
  GstCaps *in_caps = fuzz_parse_caps (lines[1]);
  GstCaps *out_caps = fuzz_parse_caps (lines[2]);
  GstHarness *h = gst_harness_new (factory);
  gsize size = fuzz_frame_size (in_caps);
  GstSegment segment;

  g_object_set (h->element, "backend", 2 /* cpu */, NULL);
  fuzz_set_properties (h->element, lines, FALSE);
  if (out_caps)
    gst_harness_set_sink_caps (h, gst_caps_ref (out_caps));
  gst_harness_play (h);
  gst_harness_push_event (h, gst_event_new_stream_start ("fuzz"));
  if (in_caps && gst_caps_is_fixed (in_caps)
      && gst_harness_push_event (h, gst_event_new_caps (in_caps)))
    {
      gst_segment_init (&segment, GST_FORMAT_TIME);
      gst_harness_push_event (h, gst_event_new_segment (&segment));
      if (size > 0 && fuzz_output_small_enough (h))
        {
          fuzz_push_frame (h, size, g_str_hash (lines[1]), 0);
          fuzz_set_properties (h->element, lines, TRUE);
          if (fuzz_output_small_enough (h))
            fuzz_push_frame (h, size, g_str_hash (lines[2]), GST_SECOND / 30);
        }
      gst_harness_push_event (h, gst_event_new_eos ());
    }
  gst_harness_teardown (h);
  gst_clear_caps (&in_caps);
  gst_clear_caps (&out_caps);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  gchar *text = g_strndup ((const gchar *)data, size);
  gchar **lines = g_strsplit (text, "\n", FUZZ_MAX_LINES + 1);

  if (g_strv_length (lines) >= 3)
    fuzz_run (lines);
  g_strfreev (lines);
  g_free (text);
  return 0;
}

static void
fuzz_load_plugin (void)
{
  const gchar *path = g_getenv ("TEXEL_FUZZ_PLUGIN");
  GError *error = NULL;
  GstPlugin *plugin;
  GList *features, *l;
  guint n = 0;

  plugin = gst_plugin_load_file (path ? path : TEXEL_FUZZ_PLUGIN, &error);
  if (!plugin)
    g_error ("cannot load the plugin: %s", error->message);
  features = gst_registry_get_feature_list_by_plugin (
      gst_registry_get (), gst_plugin_get_name (plugin));
  fuzz_elements = g_new0 (gchar *, g_list_length (features) + 1);
  for (l = features; l; l = l->next)
    if (GST_IS_ELEMENT_FACTORY (l->data))
      fuzz_elements[n++] = g_strdup (GST_OBJECT_NAME (l->data));
  gst_plugin_feature_list_free (features);
  gst_object_unref (plugin);
  if (n == 0)
    g_error ("the plugin has no elements");
}

/* Criticals are bugs (ours, or GLib/GStreamer misused by us): abort, so
 * that the fuzzer records the input. Warnings (out-of-range property values
 * rejected by GLib) are expected. */
static void
fuzz_log_handler (const gchar *domain, GLogLevelFlags level,
                  const gchar *message, gpointer user_data)
{
  g_log_default_handler (domain, level, message, user_data);
  if ((level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR))
      && !fuzz_parsing_caps)
    abort ();
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  guint i;

  /* Only our plugin, scanned in this process (a forked scanner would not
   * have the sanitizer runtime). */
  g_setenv ("GST_REGISTRY_FORK", "no", TRUE);
  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "", TRUE);
  g_setenv ("GST_PLUGIN_PATH_1_0", "", TRUE);
  g_setenv ("GST_REGISTRY_UPDATE", "no", FALSE);
  if (!g_getenv ("GST_DEBUG"))
    g_setenv ("GST_DEBUG", "*:0", TRUE);
  gst_init (argc, argv);
  g_log_set_default_handler (fuzz_log_handler, NULL);
  fuzz_load_plugin ();

  /* What every process creates once (types, classes, pools) is created
   * here, so that the leak check of the first inputs sees only leaks. */
  for (i = 0; fuzz_elements[i]; i++)
    {
      gchar *warm = g_strdup_printf (
          "%s\nvideo/x-raw,format=NV12,width=16,"
          "height=8,framerate=30/1\nvideo/x-raw,format=RGBA\n",
          fuzz_elements[i]);

      LLVMFuzzerTestOneInput ((const uint8_t *)warm, strlen (warm));
      g_free (warm);
    }
  return 0;
}
