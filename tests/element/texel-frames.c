/* gst-texel tests: per-component access to any frame, and bus hygiene.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-frames.h"

static guint8 *
frame_comp_ptr (const GstVideoFrame * f, guint comp, gint x, gint y)
{
  guint8 *p = GST_VIDEO_FRAME_COMP_DATA (f, comp);

  /* GStreamer 1.22 describes P010's V sample as 1 byte (not 2) into the
   * CbCr pair (poffset {0, 0, 1}): place it ourselves. */
  if (GST_VIDEO_FRAME_FORMAT (f) == GST_VIDEO_FORMAT_P010_10LE)
    p = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f,
        GST_VIDEO_FRAME_COMP_PLANE (f, comp)) + (comp == 2 ? 2 : 0);

  return p + (gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (f, comp) +
      (gsize) x * GST_VIDEO_FRAME_COMP_PSTRIDE (f, comp);
}

static gboolean
frame_comp_is_16bit (const GstVideoFrame * f, guint comp)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (f->info.finfo, comp) > 8;
}

guint
frame_get (const GstVideoFrame * f, guint comp, gint x, gint y)
{
  const guint8 *p = frame_comp_ptr (f, comp, x, y);
  const GstVideoFormatInfo *finfo = f->info.finfo;

  if (frame_comp_is_16bit (f, comp))
    return GST_READ_UINT16_LE (p) >> GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp);
  return *p;
}

void
frame_set (GstVideoFrame * f, guint comp, gint x, gint y, guint v)
{
  guint8 *p = frame_comp_ptr (f, comp, x, y);

  if (frame_comp_is_16bit (f, comp))
    GST_WRITE_UINT16_LE (p, v << GST_VIDEO_FORMAT_INFO_SHIFT (f->info.finfo,
            comp));
  else
    *p = v;
}

/* Largest difference between two frames of the same format and size, over
 * every sample of every component; where in @where. */
guint
frames_max_diff (const GstVideoFrame * a, const GstVideoFrame * b,
    gchar ** where)
{
  guint c, max = 0;
  gint x, y;

  *where = NULL;
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (a); c++) {
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (a, c); y++) {
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (a, c); x++) {
        guint va = frame_get (a, c, x, y), vb = frame_get (b, c, x, y);
        guint d = va > vb ? va - vb : vb - va;

        if (d > max) {
          max = d;
          g_free (*where);
          *where = g_strdup_printf ("component %u at (%d, %d): %u vs %u on "
              "the CPU", c, x, y, vb, va);
        }
      }
    }
  }
  return max;
}

void
drop_bus_messages (GstElement * e)
{
  GstBus *bus = gst_element_get_bus (e);

  if (bus) {
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
  }
}

void
texel_harness_teardown (GstHarness * h)
{
  drop_bus_messages (h->element);
  gst_harness_teardown (h);
}

/* Error and warning messages waiting on the element's bus, as text. */
gchar *
bus_messages_text (GstElement * e, GstMessageType types)
{
  GstBus *bus = gst_element_get_bus (e);
  GString *s = g_string_new (NULL);
  GstMessage *msg;

  if (!bus)
    return g_string_free (s, FALSE);
  while ((msg = gst_bus_pop_filtered (bus, types)) != NULL) {
    GError *err = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      gst_message_parse_warning (msg, &err, &dbg);
    if (err)
      g_string_append_printf (s, "[%s: %s (%s)] ",
          GST_MESSAGE_TYPE_NAME (msg), err->message, GST_STR_NULL (dbg));
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return g_string_free (s, FALSE);
}
