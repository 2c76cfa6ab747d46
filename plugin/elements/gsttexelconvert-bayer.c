/* gst-texel: texelconvert's raw Bayer input (video/x-bayer): its caps, the
 * development properties and the configuration of the kernels'
 * texel-bayer.h.
 *
 * GstVideoInfo knows no Bayer formats (before GStreamer 1.24, and not the
 * 16-bit ones by these names anywhere): the negotiated Bayer caps are
 * handed to the base class as the GRAY8 or GRAY16_LE caps of the same
 * frame, which lay out the mosaic as videotestsrc and bayer2rgb do (one
 * plane, rows of 8-bit samples or little-endian 16-bit words, padded to 4
 * bytes), and the kernels are told which colour each sample is.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "elements/gsttexelconvert-private.h"
#include "elements/gsttexelsettings.h"
#include "texel-adjust.h"

#define GST_CAT_DEFAULT gst_texel_convert_bayer_debug
GST_DEBUG_CATEGORY_STATIC (GST_CAT_DEFAULT);

#define DEFAULT_DEMOSAIC TEXEL_DEMOSAIC_MHC
#define DEFAULT_ALIGNMENT GST_TEXEL_BAYER_LSB
#define DEFAULT_RAW_TRANSFER GST_TEXEL_RAW_TRANSFER_AUTO
#define MAX_GAIN 16.0
#define MAX_COEF 16.0
/* The weight of a frame's estimate: the moving average then follows a
 * change of light within about a second at 30 frames/s (95 % after 29
 * frames) and averages noise over about 19 frames. */
#define DEFAULT_AWB_SPEED 0.1

static const gchar *const patterns[] = { NULL, "rggb", "bggr", "grbg", "gbrg" };

GType
gst_texel_demosaic_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_DEMOSAIC_MHC,
            "Gradient-corrected linear (Malvar-He-Cutler, 5x5)", "mhc" },
          { TEXEL_DEMOSAIC_BILINEAR, "Bilinear (3x3)", "bilinear" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelDemosaic", values);
}

GType
gst_texel_bayer_alignment_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { GST_TEXEL_BAYER_LSB, "Least significant bits of the word", "lsb" },
          { GST_TEXEL_BAYER_MSB,
            "Most significant bits of the word (Jetson VI)", "msb" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelBayerAlignment", values);
}

GType
gst_texel_raw_transfer_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { GST_TEXEL_RAW_TRANSFER_AUTO, "The output caps' transfer function",
            "auto" },
          { GST_TEXEL_RAW_TRANSFER_SRGB, "sRGB", "srgb" },
          { GST_TEXEL_RAW_TRANSFER_BT709, "BT.709", "bt709" },
          { GST_TEXEL_RAW_TRANSFER_LINEAR, "Linear (no encoding)", "linear" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelRawTransfer", values);
}

/* The pattern and significant bits of a Bayer format name: "rggb" (8
 * bits), "rggb10le" ... "rggb16le". FALSE for any other name. */
static gboolean
gst_texel_bayer_format (const gchar *name, TexelBayerPattern *pattern,
                        gint *bits)
{
  gint p;

  if (name == NULL || strlen (name) < 4)
    return FALSE;
  for (p = TEXEL_BAYER_RGGB; p <= TEXEL_BAYER_GBRG; p++)
    {
      if (strncmp (name, patterns[p], 4) != 0)
        continue;
      *pattern = (TexelBayerPattern)p;
      if (name[4] == '\0')
        {
          *bits = 8;
          return TRUE;
        }
      if (strcmp (name + 6, "le") != 0)
        return FALSE;
      *bits = atoi (name + 4);
      return *bits == 10 || *bits == 12 || *bits == 14 || *bits == 16;
    }
  return FALSE;
}

gboolean
gst_texel_convert_bayer_caps (GstCaps *caps, TexelBayerPattern *pattern,
                              gint *bits)
{
  GstStructure *s;

  if (caps == NULL || gst_caps_get_size (caps) != 1)
    return FALSE;
  s = gst_caps_get_structure (caps, 0);
  return gst_structure_has_name (s, "video/x-bayer")
         && gst_texel_bayer_format (gst_structure_get_string (s, "format"),
                                    pattern, bits);
}

GstCaps *
gst_texel_convert_bayer_stand_in (GstCaps *caps, gint bits)
{
  GstCaps *gray = gst_caps_copy (caps);
  GstStructure *s = gst_caps_get_structure (gray, 0);

  gst_structure_set_name (s, "video/x-raw");
  gst_structure_set (s, "format", G_TYPE_STRING,
                     bits > 8 ? "GRAY16_LE" : "GRAY8", NULL);
  return gray;
}

/* Copies of the structures of @caps named @from (every one where NULL),
 * renamed @to, without the fields Bayer and raw caps do not share, in
 * system memory where @system_memory (else in their own); the others as
 * they are where @keep_others. */
static GstCaps *
gst_texel_caps_renamed (GstCaps *caps, const gchar *from, const gchar *to,
                        gboolean keep_others, gboolean system_memory)
{
  GstCaps *out = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
      gboolean match = from == NULL || gst_structure_has_name (s, from);

      if (!match && !keep_others)
        {
          gst_structure_free (s);
          continue;
        }
      if (match)
        {
          gst_structure_set_name (s, to);
          gst_structure_remove_fields (s, "format", "colorimetry",
                                       "chroma-site", "interlace-mode", NULL);
        }
      out = gst_caps_merge_structure_full (
          out, s,
          match && system_memory
              ? gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY,
                                       NULL)
              : gst_caps_features_copy (gst_caps_get_features (caps, i)));
    }
  return out;
}

GstCaps *
gst_texel_convert_bayer_as_raw (GstCaps *caps)
{
  return gst_texel_caps_renamed (caps, "video/x-bayer", "video/x-raw", TRUE,
                                 FALSE);
}

/* The Bayer twin of each structure of @caps, any Bayer format, in system
 * memory whatever the output's memory (a mosaic comes from a camera read
 * into system memory; the output may leave in CUDA memory or NVMM),
 * placed after @caps' last system-memory structure: where the output's
 * memory comes first, it still does. */
GstCaps *
gst_texel_convert_bayer_append (GstCaps *caps)
{
  GstCaps *twins
      = gst_texel_caps_renamed (caps, NULL, "video/x-bayer", FALSE, TRUE);
  GstCaps *formats = gst_caps_from_string (GST_TEXEL_BAYER_CAPS);
  GstCaps *bayer = gst_caps_intersect (twins, formats);
  GstCaps *out = gst_caps_new_empty ();
  gint last = -1;
  guint i;

  gst_caps_unref (formats);
  gst_caps_unref (twins);
  for (i = 0; i < gst_caps_get_size (caps); i++)
    if (gst_caps_features_is_equal (gst_caps_get_features (caps, i),
                                    GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      last = (gint)i;
  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      out = gst_caps_merge_structure_full (
          out, gst_structure_copy (gst_caps_get_structure (caps, i)),
          gst_caps_features_copy (gst_caps_get_features (caps, i)));
      if ((gint)i == last)
        out = gst_caps_merge (out, gst_caps_ref (bayer));
    }
  if (last < 0)
    out = gst_caps_merge (out, gst_caps_ref (bayer));
  gst_caps_unref (bayer);
  gst_caps_unref (caps);
  return out;
}

static gboolean
gst_texel_convert_bayer_check (GstTexelConvert *self)
{
  gint c;

  for (c = 0; c < 3; c++)
    if (self->black[c] >= (gdouble)((1 << self->bayer_bits) - 1))
      return FALSE;
  return TRUE;
}

/* The transfer function of @out's caps, for raw-transfer=auto: sRGB
 * unless they say otherwise. */
static gint
gst_texel_convert_caps_transfer (const GstVideoInfo *out)
{
  switch (GST_VIDEO_INFO_COLORIMETRY (out).transfer)
    {
      case GST_VIDEO_TRANSFER_BT709:
      case GST_VIDEO_TRANSFER_BT601:
      case GST_VIDEO_TRANSFER_BT2020_10:
      case GST_VIDEO_TRANSFER_BT2020_12:
        return TEXEL_TRANSFER_BT709;
      case GST_VIDEO_TRANSFER_GAMMA10:
        return TEXEL_TRANSFER_LINEAR;
      case GST_VIDEO_TRANSFER_GAMMA18:
        return TEXEL_TRANSFER_GAMMA18;
      case GST_VIDEO_TRANSFER_GAMMA22:
        return TEXEL_TRANSFER_GAMMA22;
      case GST_VIDEO_TRANSFER_GAMMA28:
        return TEXEL_TRANSFER_GAMMA28;
      default:
        return TEXEL_TRANSFER_SRGB;
    }
}

gboolean
gst_texel_convert_bayer_config (GstTexelConvert *self, const GstVideoInfo *out,
                                TexelBayerConfig *cfg)
{
  static const gint transfers[] = {
    [GST_TEXEL_RAW_TRANSFER_SRGB] = TEXEL_TRANSFER_SRGB,
    [GST_TEXEL_RAW_TRANSFER_BT709] = TEXEL_TRANSFER_BT709,
    [GST_TEXEL_RAW_TRANSFER_LINEAR] = TEXEL_TRANSFER_LINEAR,
  };
  gboolean ok;
  gint c;

  memset (cfg, 0, sizeof (*cfg));
  cfg->pattern = self->bayer_pattern;
  cfg->bits = self->bayer_bits;
  GST_OBJECT_LOCK (self);
  cfg->demosaic = self->demosaic;
  cfg->msb = self->bayer_alignment == GST_TEXEL_BAYER_MSB;
  for (c = 0; c < 3; c++)
    {
      cfg->black[c] = self->black[c];
      /* The automatic white balance replaces the manual gains. */
      cfg->gain[c] = self->awb ? self->awb_applied[c] : self->gain[c];
      memcpy (cfg->ccm[c], &self->ccm[3 * c], sizeof (cfg->ccm[c]));
    }
  cfg->transfer = self->raw_transfer == GST_TEXEL_RAW_TRANSFER_AUTO
                      ? gst_texel_convert_caps_transfer (out)
                      : transfers[self->raw_transfer];
  ok = gst_texel_convert_bayer_check (self);
  GST_OBJECT_UNLOCK (self);
  self->bayer_config = *cfg;
  if (!ok)
    GST_ELEMENT_ERROR (
        self, STREAM, FORMAT,
        ("A black level (%g, %g, %g) is not below the largest code of the "
         "%d-bit samples",
         cfg->black[0], cfg->black[1], cfg->black[2], cfg->bits),
        (NULL));
  return ok;
}

void
gst_texel_convert_bayer_planned (GstTexelConvert *self)
{
  if (self->bayer_pattern == TEXEL_BAYER_NONE)
    return;
  GST_INFO_OBJECT (self, "CPU path: %s",
                   self->plan.fast != NULL
                       ? "fast (the mosaic's rows developed at 1:1, then "
                         "resampled)"
                       : "the double-precision reference");
}

/* ------------------------------------------------------------------ */
/* Automatic white balance */

void
gst_texel_convert_bayer_awb_reset (GstTexelConvert *self)
{
  self->awb_have = FALSE;
  memcpy (self->awb_applied, self->gain, sizeof (self->awb_applied));
  memcpy (self->awb_gains, self->gain, sizeof (self->awb_gains));
}

static void
gst_texel_convert_bayer_awb_post (GstTexelConvert *self, GstClockTime pts,
                                  const gdouble frame[3], const gdouble est[3])
{
  GstStructure *s = gst_structure_new (
      "texel-awb", "pts", G_TYPE_UINT64, pts, "red-gain", G_TYPE_DOUBLE, est[0],
      "green-gain", G_TYPE_DOUBLE, est[1], "blue-gain", G_TYPE_DOUBLE, est[2],
      "frame-red-gain", G_TYPE_DOUBLE, frame[0], "frame-blue-gain",
      G_TYPE_DOUBLE, frame[2], NULL);

  gst_element_post_message (GST_ELEMENT (self),
                            gst_message_new_element (GST_OBJECT (self), s));
}

/* Takes one frame's statistics into the estimate: its grey-world gains,
 * clamped, averaged into the estimate, posted with the frame's @pts. */
static void
gst_texel_convert_bayer_awb_update (GstTexelConvert *self, GstClockTime pts,
                                    const TexelBayerStats *stats)
{
  gdouble frame[3], est[3];
  gint c;

  if (texel_bayer_awb_gains (stats, self->bayer_config.black, frame) != 0)
    return;
  for (c = 0; c < 3; c++)
    frame[c] = MIN (frame[c], MAX_GAIN);

  GST_OBJECT_LOCK (self);
  /* An exponential moving average; the first frame's estimate as it is. */
  for (c = 0; c < 3; c++)
    self->awb_gains[c] = self->awb_have
                             ? (1.0 - self->awb_speed) * self->awb_gains[c]
                                   + self->awb_speed * frame[c]
                             : frame[c];
  self->awb_have = TRUE;
  memcpy (est, self->awb_gains, sizeof (est));
  GST_OBJECT_UNLOCK (self);
  GST_LOG_OBJECT (self, "frame gains %g %g %g, estimate %g %g %g", frame[0],
                  frame[1], frame[2], est[0], est[1], est[2]);
  gst_texel_convert_bayer_awb_post (self, pts, frame, est);
}

/* The statistics the kernels gathered of the frames finished since the
 * last call, oldest first: a frame's, once it has been handed out (with
 * frames in flight, a few frames after it was submitted). */
/* awb_cpu_sums is handed to the kernels as unsigned long long. */
G_STATIC_ASSERT (sizeof (guint64) == sizeof (unsigned long long));

/* A frame's sums, the 6 words of TexelBayerStats. */
static void
gst_texel_convert_bayer_stats_from_words (const guint64 words[6],
                                          TexelBayerStats *stats)
{
  gint c;

  for (c = 0; c < 3; c++)
    {
      stats->sum[c] = words[c];
      stats->count[c] = words[3 + c];
    }
}

void
gst_texel_convert_bayer_awb_collect (GstTexelConvert *self)
{
  TexelBayerStats stats;
  guint64 words[6], pts;

  G_STATIC_ASSERT (sizeof (stats) == sizeof (words));
  if (self->bayer_pattern == TEXEL_BAYER_NONE)
    return;
  /* The CPU path: the frame just developed, its bands' sums. */
  if (self->awb_cpu_frame)
    {
      self->awb_cpu_frame = FALSE;
      self->plan.bayer.awb_cpu_sums = NULL;
      gst_texel_convert_bayer_stats_from_words (self->awb_cpu_sums, &stats);
      gst_texel_convert_bayer_awb_update (self, self->awb_cpu_pts, &stats);
      return;
    }
  if (!gst_texel_base_is_cuda (GST_TEXEL_BASE (self)))
    return;
  while (gst_texel_base_take_sums (GST_TEXEL_BASE (self), &pts, words,
                                   G_N_ELEMENTS (words)))
    {
      gboolean locked;

      /* Frames measured before a lock, finished after it: the locked
       * gains stay. */
      GST_OBJECT_LOCK (self);
      locked = self->awb_lock;
      GST_OBJECT_UNLOCK (self);
      if (locked)
        continue;
      gst_texel_convert_bayer_stats_from_words (words, &stats);
      gst_texel_convert_bayer_awb_update (self, pts, &stats);
    }
}

void
gst_texel_convert_bayer_awb (GstTexelConvert *self, GstBuffer *inbuf)
{
  TexelBayerPlan *bp = &self->plan.bayer;
  gboolean on, lock, gpu;
  gdouble est[3];

  if (self->bayer_pattern == TEXEL_BAYER_NONE
      || bp->pattern == TEXEL_BAYER_NONE)
    return;
  /* The kernels gather the statistics in the frame's pass: on the GPU
   * into its sums, on the CPU each band into awb_cpu_sums; both taken
   * once the frame finished (gst_texel_convert_bayer_awb_collect). A CPU
   * frame that never finished (dropped) leaves sums that are dropped
   * here. */
  gpu = gst_texel_base_is_cuda (GST_TEXEL_BASE (self));
  GST_OBJECT_LOCK (self);
  on = self->awb;
  lock = self->awb_lock;
  if (on && self->awb_have)
    memcpy (self->awb_applied, self->awb_gains, sizeof (self->awb_applied));
  memcpy (est, self->awb_applied, sizeof (est));
  GST_OBJECT_UNLOCK (self);
  bp->awb_gather = on && !lock && gpu;
  bp->awb_tag = GST_BUFFER_PTS (inbuf);
  self->awb_cpu_frame = on && !lock && !gpu;
  self->awb_cpu_pts = GST_BUFFER_PTS (inbuf);
  memset (self->awb_cpu_sums, 0, sizeof (self->awb_cpu_sums));
  bp->awb_cpu_sums
      = self->awb_cpu_frame ? (unsigned long long *)self->awb_cpu_sums : NULL;
  if (!on)
    return;
  /* This frame gets the estimate of the frames before it. */
  texel_bayer_plan_set_gains (bp, &self->bayer_config, est);
}

/* ------------------------------------------------------------------ */
/* Properties */

static const gchar *const colour_names[] = { "red", "green", "blue" };

gboolean
gst_texel_convert_bayer_set_property (GstTexelConvert *self, guint prop_id,
                                      const GValue *value)
{
  guint i;

  switch (prop_id)
    {
      case PROP_DEMOSAIC:
        self->demosaic = g_value_get_enum (value);
        return TRUE;
      case PROP_BAYER_ALIGNMENT:
        self->bayer_alignment = g_value_get_enum (value);
        return TRUE;
      case PROP_BLACK_LEVEL_RED:
      case PROP_BLACK_LEVEL_GREEN:
      case PROP_BLACK_LEVEL_BLUE:
        self->black[prop_id - PROP_BLACK_LEVEL_RED]
            = g_value_get_double (value);
        return TRUE;
      case PROP_WB_GAIN_RED:
      case PROP_WB_GAIN_GREEN:
      case PROP_WB_GAIN_BLUE:
        self->gain[prop_id - PROP_WB_GAIN_RED] = g_value_get_double (value);
        return TRUE;
      case PROP_COLOR_MATRIX:
        /* Fewer than 9 values leave the others as they were. */
        for (i = 0; i < gst_value_array_get_size (value) && i < 9; i++)
          {
            const GValue *v = gst_value_array_get_value (value, i);

            self->ccm[i]
                = CLAMP (G_VALUE_HOLDS_DOUBLE (v) ? g_value_get_double (v)
                         : G_VALUE_HOLDS_INT (v)  ? g_value_get_int (v)
                                                  : self->ccm[i],
                         -MAX_COEF, MAX_COEF);
          }
        return TRUE;
      case PROP_RAW_TRANSFER:
        self->raw_transfer = g_value_get_enum (value);
        return TRUE;
      case PROP_AUTO_WHITE_BALANCE:
        if (g_value_get_boolean (value) && !self->awb)
          gst_texel_convert_bayer_awb_reset (self);
        self->awb = g_value_get_boolean (value);
        return TRUE;
      case PROP_AWB_LOCK:
        self->awb_lock = g_value_get_boolean (value);
        return TRUE;
      case PROP_AWB_SPEED:
        self->awb_speed = g_value_get_double (value);
        return TRUE;
      default:
        return FALSE;
    }
}

/* Appends @n doubles to GstValueArray @value. */
static void
gst_texel_convert_value_array (GValue *value, const gdouble *d, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_DOUBLE);
      g_value_set_double (&v, d[i]);
      gst_value_array_append_and_take_value (value, &v);
    }
}

gboolean
gst_texel_convert_bayer_get_property (GstTexelConvert *self, guint prop_id,
                                      GValue *value)
{
  switch (prop_id)
    {
      case PROP_DEMOSAIC:
        g_value_set_enum (value, self->demosaic);
        return TRUE;
      case PROP_BAYER_ALIGNMENT:
        g_value_set_enum (value, self->bayer_alignment);
        return TRUE;
      case PROP_BLACK_LEVEL_RED:
      case PROP_BLACK_LEVEL_GREEN:
      case PROP_BLACK_LEVEL_BLUE:
        g_value_set_double (value, self->black[prop_id - PROP_BLACK_LEVEL_RED]);
        return TRUE;
      case PROP_WB_GAIN_RED:
      case PROP_WB_GAIN_GREEN:
      case PROP_WB_GAIN_BLUE:
        g_value_set_double (value, self->gain[prop_id - PROP_WB_GAIN_RED]);
        return TRUE;
      case PROP_COLOR_MATRIX:
        gst_texel_convert_value_array (value, self->ccm, 9);
        return TRUE;
      case PROP_RAW_TRANSFER:
        g_value_set_enum (value, self->raw_transfer);
        return TRUE;
      case PROP_AUTO_WHITE_BALANCE:
        g_value_set_boolean (value, self->awb);
        return TRUE;
      case PROP_AWB_LOCK:
        g_value_set_boolean (value, self->awb_lock);
        return TRUE;
      case PROP_AWB_SPEED:
        g_value_set_double (value, self->awb_speed);
        return TRUE;
      case PROP_AWB_GAINS:
        gst_texel_convert_value_array (value, self->awb_gains, 3);
        return TRUE;
      default:
        return FALSE;
    }
}

static void
gst_texel_convert_install_colour (GObjectClass *gobject_class, guint prop,
                                  const gchar *prefix, const gchar *colour,
                                  const gchar *before, const gchar *after,
                                  gdouble max, gdouble def)
{
  gchar *name = g_strconcat (prefix, "-", colour, NULL);
  gchar *blurb = g_strconcat (before, colour, after, NULL);

  /* Without G_PARAM_STATIC_NAME and _BLURB the param spec keeps copies. */
  g_object_class_install_property (
      gobject_class, prop,
      g_param_spec_double (name, name, blurb, 0.0, max, def,
                           G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE
                               | GST_PARAM_MUTABLE_PLAYING));
  g_free (blurb);
  g_free (name);
}

void
gst_texel_convert_bayer_install (GObjectClass *gobject_class)
{
  const GParamFlags rw
      = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;
  gint c;

  GST_DEBUG_CATEGORY_INIT (GST_CAT_DEFAULT, "texelconvert-bayer", 0,
                           "texelconvert's raw Bayer input");
  g_object_class_install_property (
      gobject_class, PROP_DEMOSAIC,
      g_param_spec_enum (
          "demosaic", "Demosaic",
          "How raw Bayer input gets the two colours each sample lacks",
          GST_TYPE_TEXEL_DEMOSAIC, DEFAULT_DEMOSAIC, rw));
  g_object_class_install_property (
      gobject_class, PROP_BAYER_ALIGNMENT,
      g_param_spec_enum (
          "bayer-alignment", "Bayer alignment",
          "Where the bits of 10 to 14-bit raw Bayer samples sit in their "
          "16-bit words",
          GST_TYPE_TEXEL_BAYER_ALIGNMENT, DEFAULT_ALIGNMENT, rw));
  for (c = 0; c < 3; c++)
    {
      gst_texel_convert_install_colour (gobject_class, PROP_BLACK_LEVEL_RED + c,
                                        "black-level", colour_names[c],
                                        "Raw Bayer input: code of black for ",
                                        " samples (subtracted, the "
                                        "rest stretched to full scale)",
                                        65535.0, 0.0);
      gst_texel_convert_install_colour (
          gobject_class, PROP_WB_GAIN_RED + c, "wb-gain", colour_names[c],
          "Raw Bayer input: white-balance gain of ", " samples", MAX_GAIN, 1.0);
    }
  g_object_class_install_property (
      gobject_class, PROP_COLOR_MATRIX,
      gst_param_spec_array (
          "color-matrix", "Color matrix",
          "Raw Bayer input: 3x3 colour-correction matrix, row by row, from "
          "white-balanced camera RGB to linear output RGB",
          g_param_spec_double ("coefficient", "Coefficient",
                               "Matrix coefficient", -MAX_COEF, MAX_COEF, 0.0,
                               G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          rw));
  g_object_class_install_property (
      gobject_class, PROP_RAW_TRANSFER,
      g_param_spec_enum (
          "raw-transfer", "Raw transfer function",
          "Raw Bayer input: how the linear developed picture is encoded",
          GST_TYPE_TEXEL_RAW_TRANSFER, DEFAULT_RAW_TRANSFER, rw));
  g_object_class_install_property (
      gobject_class, PROP_AUTO_WHITE_BALANCE,
      g_param_spec_boolean (
          "auto-white-balance", "Automatic white balance",
          "Raw Bayer input: grey-world white balance, measured on each frame "
          "and applied from the next one on, in place of the wb-gain "
          "properties",
          FALSE, rw | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (
      gobject_class, PROP_AWB_LOCK,
      g_param_spec_boolean (
          "awb-lock", "AWB lock",
          "Raw Bayer input: keep the automatic white balance's current "
          "gains, measuring no more frames",
          FALSE, rw | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (
      gobject_class, PROP_AWB_SPEED,
      g_param_spec_double (
          "awb-speed", "AWB speed",
          "Raw Bayer input: weight of each frame's grey-world gains in the "
          "automatic white balance's moving average (1: no smoothing)",
          0.0, 1.0, DEFAULT_AWB_SPEED, rw | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (
      gobject_class, PROP_AWB_GAINS,
      gst_param_spec_array (
          "awb-gains", "AWB gains",
          "Raw Bayer input: the automatic white balance's red, green and "
          "blue gains, which the next frame gets",
          g_param_spec_double ("gain", "Gain", "White-balance gain", 0.0,
                               MAX_GAIN, 1.0,
                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS),
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_DEMOSAIC, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_BAYER_ALIGNMENT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_RAW_TRANSFER, 0);
}

void
gst_texel_convert_bayer_init (GstTexelConvert *self)
{
  gint c;

  self->demosaic = DEFAULT_DEMOSAIC;
  self->bayer_alignment = DEFAULT_ALIGNMENT;
  self->raw_transfer = DEFAULT_RAW_TRANSFER;
  for (c = 0; c < 3; c++)
    {
      self->black[c] = 0.0;
      self->gain[c] = 1.0;
    }
  for (c = 0; c < 9; c++)
    self->ccm[c] = c % 4 == 0 ? 1.0 : 0.0;
  self->bayer_pattern = TEXEL_BAYER_NONE;
  self->awb = FALSE;
  self->awb_lock = FALSE;
  self->awb_speed = DEFAULT_AWB_SPEED;
  gst_texel_convert_bayer_awb_reset (self);
}
