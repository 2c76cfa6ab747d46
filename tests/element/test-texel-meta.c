/* gst-texel: metas through the texel elements (issue 27, item 10), on the
 * CPU path (TEXEL_TEST_BACKEND=cuda: the same cases on the GPU path, by
 * hand on a machine with a GPU).
 *
 * videoscale 1.22's test_transform_meta (gst-plugins-base
 * tests/check/elements/videoscale.c) written again for texelconvert: a
 * region of interest scaled with the picture, an untagged meta kept. Then
 * what texelconvert adds (crop, letterbox, flips and rotations move a
 * region of interest exactly; AFD only where the whole picture is
 * scaled), the elements that keep the geometry (texeladjust, texelfilter:
 * copied) and texelwarp (dropped: a warp does not keep rectangles).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "texel-frames.h"

/* Metas of the test's own, tagged @tags: nothing in them, copied by their
 * transform. */
static gboolean
tagged_meta_init (GstMeta *meta, gpointer params, GstBuffer *buffer)
{
  return TRUE;
}

static gboolean
tagged_meta_transform (GstBuffer *dest, GstMeta *meta, GstBuffer *buffer,
                       GQuark type, gpointer data)
{
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_meta (dest, meta->info, NULL) != NULL;
}

static const GstMetaInfo *
tagged_meta_info (const gchar *api_name, const gchar *impl_name,
                  const gchar **tags)
{
  GType api = gst_meta_api_type_register (api_name, tags);

  return gst_meta_register (api, impl_name, sizeof (GstMeta), tagged_meta_init,
                            NULL, tagged_meta_transform);
}

/* A meta tagged "video" only (kept by every element) and one tagged
 * colorspace (dropped: the colours may change). */
static const GstMetaInfo *
video_tagged_meta_info (void)
{
  static const GstMetaInfo *info;
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR, NULL };

  if (!info)
    info = tagged_meta_info ("TexelTestVideoMetaAPI", "TexelTestVideoMeta",
                             tags);
  return info;
}

static const GstMetaInfo *
colorspace_tagged_meta_info (void)
{
  static const GstMetaInfo *info;
  static const gchar *tags[]
      = { GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_COLORSPACE_STR, NULL };

  if (!info)
    info = tagged_meta_info ("TexelTestColorspaceMetaAPI",
                             "TexelTestColorspaceMeta", tags);
  return info;
}

/* A GRAY8 frame of @in_caps (all zero) through @factory @props into
 * @out_caps, with an ROI "face" (@roi) and the metas above; returns the
 * output. */
static GstBuffer *
convert_with_metas (const gchar *factory, const gchar *props,
                    const gchar *in_caps, const gchar *out_caps,
                    const guint roi[4], gboolean afd)
{
  GstElement *e = texel_test_element_new (factory, props);
  GstHarness *h;
  GstVideoInfo info = texel_video_info_from_caps_string (in_caps);
  GstBuffer *in
      = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  GstVideoRegionOfInterestMeta *meta;
  GstCaps *ts = gst_caps_new_empty_simple ("timestamp/x-texel-test");
  GstBuffer *out;

  if (g_getenv ("TEXEL_TEST_BACKEND"))
    gst_util_set_object_arg (G_OBJECT (e), "backend",
                             g_getenv ("TEXEL_TEST_BACKEND"));
  h = texel_harness_new_with (e);
  gst_buffer_memset (in, 0, 0, GST_VIDEO_INFO_SIZE (&info));
  meta = gst_buffer_add_video_region_of_interest_meta (in, "face", roi[0],
                                                       roi[1], roi[2], roi[3]);
  gst_video_region_of_interest_meta_add_param (
      meta,
      gst_structure_new ("detection", "confidence", G_TYPE_DOUBLE, 0.75, NULL));
  gst_buffer_add_reference_timestamp_meta (in, ts, 42 * GST_SECOND,
                                           GST_CLOCK_TIME_NONE);
  gst_buffer_add_meta (in, video_tagged_meta_info (), NULL);
  gst_buffer_add_meta (in, colorspace_tagged_meta_info (), NULL);
  if (afd)
    gst_buffer_add_video_afd_meta (in, 0, GST_VIDEO_AFD_SPEC_ATSC_A53,
                                   GST_VIDEO_AFD_4_3_FULL_16_9_FULL);
  gst_harness_set_caps_str (h, in_caps, out_caps);
  out = texel_push_pull (h, in);
  fail_if (out == in, "%s %s: passthrough, nothing tested", factory, props);
  texel_harness_teardown (h);
  gst_caps_unref (ts);
  return out;
}

/* The metas that do not say where things are: the untagged and the
 * "video" one kept, the colorspace one dropped. */
static void
check_other_metas (GstBuffer *out, const gchar *what)
{
  GstCaps *ts = gst_caps_new_empty_simple ("timestamp/x-texel-test");
  GstReferenceTimestampMeta *ref
      = gst_buffer_get_reference_timestamp_meta (out, ts);

  fail_unless (ref != NULL, "%s: the reference timestamp was dropped", what);
  fail_unless_equals_uint64 (ref->timestamp, 42 * GST_SECOND);
  fail_unless (gst_buffer_get_meta (out, video_tagged_meta_info ()->api),
               "%s: the meta tagged video was dropped", what);
  fail_if (gst_buffer_get_meta (out, colorspace_tagged_meta_info ()->api),
           "%s: the meta tagged colorspace was kept", what);
  gst_caps_unref (ts);
}

/* @out has one ROI "face", at @want, its parameters kept. */
static void
check_roi (GstBuffer *out, const guint want[4], const gchar *what)
{
  GstVideoRegionOfInterestMeta *roi;

  fail_unless_equals_int (
      gst_buffer_get_n_meta (out, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE),
      1);
  roi = gst_buffer_get_video_region_of_interest_meta_id (out, 0);
  fail_unless (roi != NULL, "%s: no ROI", what);
  fail_unless_equals_int (roi->roi_type, g_quark_from_string ("face"));
  fail_unless (roi->x == want[0] && roi->y == want[1] && roi->w == want[2]
                   && roi->h == want[3],
               "%s: ROI %u,%u %ux%u, expected %u,%u %ux%u", what, roi->x,
               roi->y, roi->w, roi->h, want[0], want[1], want[2], want[3]);
  fail_unless (gst_video_region_of_interest_meta_get_param (roi, "detection")
                   != NULL,
               "%s: the ROI lost its parameters", what);
}

#define GRAY8(w, h)                                                            \
  "video/x-raw,format=GRAY8,width=" #w ",height=" #h                           \
  ",framerate=30/1,pixel-aspect-ratio=1/1"

/* videoscale's case: GRAY8 4x4 -> 8x8, the ROI doubled. */
GST_START_TEST (test_transform_meta)
{
  static const guint roi[4] = { 0, 1, 2, 3 }, want[4] = { 0, 2, 4, 6 };
  GstBuffer *out = convert_with_metas (
      "texelconvert", "backend=cpu", GRAY8 (4, 4),
      "video/x-raw,format=GRAY8,width=8,height=8", roi, FALSE);

  check_roi (out, want, "4x4 -> 8x8");
  check_other_metas (out, "4x4 -> 8x8");
  gst_buffer_unref (out);
}

GST_END_TEST;

typedef struct
{
  const gchar *props, *in_caps, *out_caps;
  guint roi[4], want[4];
} RoiCase;

GST_START_TEST (test_roi_geometry)
{
  static const RoiCase cases[] = {
    /* Crop: 8x8 less 2 left and 1 top is 6x7, the ROI moved by (-2, -1). */
    { "crop-left=2 crop-top=1",
      GRAY8 (8, 8),
      "video/x-raw,format=GRAY8",
      { 3, 2, 2, 2 },
      { 1, 1, 2, 2 } },
    /* A ROI across the crop's edge keeps what is left of it. */
    { "crop-left=2 crop-top=1",
      GRAY8 (8, 8),
      "video/x-raw,format=GRAY8",
      { 0, 0, 4, 3 },
      { 0, 0, 2, 2 } },
    /* Letterbox: 8x4 into 8x8 at square pixels fills rows 2 to 5. */
    { "", GRAY8 (8, 4), GRAY8 (8, 8), { 0, 0, 4, 4 }, { 0, 2, 4, 4 } },
    /* And scaled: 4x2 into 8x8 fills rows 2 to 5 at twice the size. */
    { "", GRAY8 (4, 2), GRAY8 (8, 8), { 1, 1, 2, 1 }, { 2, 4, 4, 2 } },
    /* add-borders=false stretches 8x4 over 8x8. */
    { "add-borders=false",
      GRAY8 (8, 4),
      GRAY8 (8, 8),
      { 0, 1, 4, 2 },
      { 0, 2, 4, 4 } },
    /* Mirrored left to right. */
    { "video-direction=horiz",
      GRAY8 (8, 8),
      GRAY8 (8, 8),
      { 0, 1, 2, 3 },
      { 6, 1, 2, 3 } },
    /* Upside down. */
    { "video-direction=vert",
      GRAY8 (8, 8),
      GRAY8 (8, 8),
      { 0, 1, 2, 3 },
      { 0, 4, 2, 3 } },
    /* Turned clockwise: 8x4 becomes 4x8; the input's edge coordinates
     * (x, y) go to (4 - y, x). */
    { "video-direction=90r",
      GRAY8 (8, 4),
      "video/x-raw,format=GRAY8",
      { 1, 0, 2, 1 },
      { 3, 1, 1, 2 } },
    /* Turned anticlockwise and scaled twice: (x, y) to (2y, 16 - 2x). */
    { "video-direction=90l",
      GRAY8 (8, 4),
      GRAY8 (8, 16),
      { 1, 0, 2, 1 },
      { 0, 10, 2, 4 } },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *props = g_strdup_printf ("backend=cpu %s", cases[i].props);
      gchar *what = g_strdup_printf ("%s, %s -> %s", props, cases[i].in_caps,
                                     cases[i].out_caps);
      GstBuffer *out
          = convert_with_metas ("texelconvert", props, cases[i].in_caps,
                                cases[i].out_caps, cases[i].roi, FALSE);

      check_roi (out, cases[i].want, what);
      check_other_metas (out, what);
      gst_buffer_unref (out);
      g_free (what);
      g_free (props);
    }
}

GST_END_TEST;

/* A ROI wholly cropped away is dropped. */
GST_START_TEST (test_roi_cropped_away)
{
  static const guint roi[4] = { 0, 0, 2, 2 };
  GstBuffer *out = convert_with_metas ("texelconvert",
                                       "backend=cpu crop-left=4", GRAY8 (8, 8),
                                       "video/x-raw,format=GRAY8", roi, FALSE);

  fail_unless_equals_int (
      gst_buffer_get_n_meta (out, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE),
      0);
  check_other_metas (out, "crop-left=4");
  gst_buffer_unref (out);
}

GST_END_TEST;

/* AFD describes the whole picture's shape: kept through a scale that
 * keeps the display aspect ratio and a mirror, dropped where the picture
 * is cropped, bordered or turned. */
GST_START_TEST (test_afd)
{
  static const struct
  {
    const gchar *props, *in_caps, *out_caps;
    gboolean kept;
  } cases[] = {
    { "", GRAY8 (4, 4), GRAY8 (8, 8), TRUE },
    { "video-direction=horiz", GRAY8 (8, 8), GRAY8 (8, 8), TRUE },
    { "video-direction=vert", GRAY8 (8, 8), GRAY8 (8, 8), FALSE },
    { "video-direction=90r", GRAY8 (8, 4), "video/x-raw,format=GRAY8", FALSE },
    { "crop-left=2", GRAY8 (8, 8), "video/x-raw,format=GRAY8", FALSE },
    { "", GRAY8 (8, 4), GRAY8 (8, 8), FALSE },
  };
  static const guint roi[4] = { 0, 0, 1, 1 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *props = g_strdup_printf ("backend=cpu %s", cases[i].props);
      GstBuffer *out
          = convert_with_metas ("texelconvert", props, cases[i].in_caps,
                                cases[i].out_caps, roi, TRUE);
      GstVideoAFDMeta *afd = gst_buffer_get_video_afd_meta (out);

      fail_unless ((afd != NULL) == cases[i].kept, "%s, %s -> %s: AFD %s",
                   props, cases[i].in_caps, cases[i].out_caps,
                   afd ? "kept" : "dropped");
      if (afd)
        fail_unless_equals_int (afd->afd, GST_VIDEO_AFD_4_3_FULL_16_9_FULL);
      gst_buffer_unref (out);
      g_free (props);
    }
}

GST_END_TEST;

/* texeladjust and texelfilter keep every pixel where it was: the ROI is
 * copied as it is. */
GST_START_TEST (test_geometry_kept)
{
  static const gchar *elements[][2] = {
    { "texeladjust", "backend=cpu gamma=1.3" },
    { "texelfilter", "backend=cpu sigma=1" },
  };
  static const guint roi[4] = { 1, 2, 3, 4 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (elements); i++)
    {
      GstBuffer *out
          = convert_with_metas (elements[i][0], elements[i][1], GRAY8 (8, 8),
                                GRAY8 (8, 8), roi, TRUE);

      check_roi (out, roi, elements[i][0]);
      fail_unless (gst_buffer_get_video_afd_meta (out) != NULL,
                   "%s: AFD dropped", elements[i][0]);
      check_other_metas (out, elements[i][0]);
      gst_buffer_unref (out);
    }
}

GST_END_TEST;

/* texelwarp cannot say where a rectangle goes: ROI and AFD dropped, the
 * rest kept. */
GST_START_TEST (test_warp_drops)
{
  static const guint roi[4] = { 1, 2, 3, 4 };
  GstBuffer *out = convert_with_metas ("texelwarp", "backend=cpu rotation=7",
                                       GRAY8 (8, 8), GRAY8 (8, 8), roi, TRUE);

  fail_unless_equals_int (
      gst_buffer_get_n_meta (out, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE),
      0);
  fail_unless (gst_buffer_get_video_afd_meta (out) == NULL);
  check_other_metas (out, "texelwarp");
  gst_buffer_unref (out);
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  const TexelTest tests[] = {
    TEXEL_TEST (test_transform_meta),   TEXEL_TEST (test_roi_geometry),
    TEXEL_TEST (test_roi_cropped_away), TEXEL_TEST (test_afd),
    TEXEL_TEST (test_geometry_kept),    TEXEL_TEST (test_warp_drops),
  };

  texel_check_init (&argc, &argv);
  return gst_check_run_suite (
      texel_suite_new ("texel-meta", "meta", 120, tests, G_N_ELEMENTS (tests)),
      "texel-meta", __FILE__);
}
