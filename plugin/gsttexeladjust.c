/* gst-texel: texeladjust
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-texeladjust
 * @title: texeladjust
 *
 * Adjusts the colours of video frames: on an NVIDIA GPU with CUDA, or on
 * the CPU when no usable GPU exists. The frames keep their format and
 * size (all 16 formats of texelconvert).
 *
 * #GstTexelAdjust:brightness, #GstTexelAdjust:contrast,
 * #GstTexelAdjust:saturation and #GstTexelAdjust:hue mean what they mean
 * for `videobalance` and are applied the same way, in Y'CbCr (RGB frames:
 * through BT.601, folded into one matrix): Y' = contrast * Y' +
 * brightness, with Y' from 0 (black) to 1 (white) in the frame's range;
 * the chroma is rotated by hue * 180 degrees and scaled by saturation.
 *
 * #GstTexelAdjust:exposure (in stops), the white-balance gains
 * (#GstTexelAdjust:red-gain, #GstTexelAdjust:green-gain,
 * #GstTexelAdjust:blue-gain) and #GstTexelAdjust:gamma (as the `gamma`
 * element: output = input^(1/gamma), so gamma > 1 brightens) work on
 * linear light: the frame's R'G'B' (for YUV frames through the caps'
 * matrix) is decoded with the inverse of the caps' transfer function
 * (BT.709, BT.601 and BT.2020 share one OETF; RGB frames without one are
 * sRGB), multiplied by gain * 2^exposure and clipped to 1, raised to
 * 1/gamma (with a linear toe below 2^-12 that keeps the curve's slope
 * finite) and encoded again. That stage runs first, the balance after it.
 * With it active, 4:2:0 and 4:2:2 luma pixels use the chroma sample that
 * covers them and each chroma sample becomes the mean of its pixels'.
 *
 * Every property can change while PLAYING and be driven by a
 * #GstController. With every setting neutral the element is passthrough.
 * On the GPU, 8-bit RGB and GRAY8 frames go through per-channel lookup
 * tables built once per change in double precision; YUV frames use the
 * GPU's fast log2 / exp2 (the error budget is in texel-adjust.cu: well
 * under one code).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! texeladjust gamma=1.5 saturation=1.3 ! \
 *     videoconvert ! autovideosink
 * ]| Brightens the mid-tones in linear light and boosts the colours.
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,format=NV12 ! \
 *     texeladjust exposure=1 red-gain=0.9 blue-gain=1.15 contrast=1.1 ! \
 *     autovideosink
 * ]| One stop more exposure, a cooler white balance and a little contrast.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexeladjust.h"
#include "texel-adjust.h"

GST_DEBUG_CATEGORY_STATIC (gst_texel_adjust_debug);
#define GST_CAT_DEFAULT gst_texel_adjust_debug

#define DEFAULT_BRIGHTNESS 0.0
#define DEFAULT_CONTRAST 1.0
#define DEFAULT_SATURATION 1.0
#define DEFAULT_HUE 0.0
#define DEFAULT_GAMMA 1.0
#define DEFAULT_EXPOSURE 0.0
#define DEFAULT_GAIN 1.0

enum
{
  PROP_0,
  PROP_BRIGHTNESS,
  PROP_CONTRAST,
  PROP_SATURATION,
  PROP_HUE,
  PROP_GAMMA,
  PROP_EXPOSURE,
  PROP_RED_GAIN,
  PROP_GREEN_GAIN,
  PROP_BLUE_GAIN
};

struct _GstTexelAdjust
{
  GstTexelBase parent;

  /* properties, under the object lock (matrix, range and transfer unused
   * here: they come from the caps) */
  TexelAdjustConfig settings;

  /* streaming thread */
  TexelAdjustPlan plan;
  gint device;
  gboolean warned_transfer;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_TEXEL_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_TEXEL_CAPS));

G_DEFINE_TYPE_WITH_CODE (GstTexelAdjust, gst_texel_adjust,
    GST_TYPE_TEXEL_BASE,
    GST_DEBUG_CATEGORY_INIT (gst_texel_adjust_debug, "texeladjust", 0,
        "texeladjust element"));
GST_ELEMENT_REGISTER_DEFINE (texeladjust, "texeladjust", GST_RANK_NONE,
    GST_TYPE_TEXEL_ADJUST);

/* The element adjusts, it does not convert: the same caps on both
 * sides. */
static GstCaps *
gst_texel_adjust_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *result;

  if (filter)
    result = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  else
    result = gst_caps_ref (caps);
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      result);
  return result;
}

static TexelMatrix
gst_texel_adjust_matrix (const GstVideoInfo * info)
{
  switch (info->colorimetry.matrix) {
    case GST_VIDEO_COLOR_MATRIX_FCC:
      return TEXEL_MATRIX_FCC;
    case GST_VIDEO_COLOR_MATRIX_BT709:
      return TEXEL_MATRIX_BT709;
    case GST_VIDEO_COLOR_MATRIX_BT601:
      return TEXEL_MATRIX_BT601;
    case GST_VIDEO_COLOR_MATRIX_SMPTE240M:
      return TEXEL_MATRIX_SMPTE240M;
    case GST_VIDEO_COLOR_MATRIX_BT2020:
      return TEXEL_MATRIX_BT2020;
    default:
      /* Unknown (or RGB on a YUV format): what GStreamer assumes, SD or HD
       * by size. */
      return GST_VIDEO_INFO_HEIGHT (info) > 576 ? TEXEL_MATRIX_BT709 :
          TEXEL_MATRIX_BT601;
  }
}

/* The transfer function the linear stage decodes: RGB frames without one
 * are sRGB, YUV and GRAY frames BT.709. HDR curves (PQ, HLG) are not
 * handled yet: read as BT.709, with a warning. */
static TexelTransfer
gst_texel_adjust_transfer (GstTexelAdjust * self, const GstVideoInfo * info)
{
  gboolean rgb = GST_VIDEO_INFO_IS_RGB (info);

  switch (info->colorimetry.transfer) {
    case GST_VIDEO_TRANSFER_SRGB:
      return TEXEL_TRANSFER_SRGB;
    case GST_VIDEO_TRANSFER_GAMMA10:
      return TEXEL_TRANSFER_LINEAR;
    case GST_VIDEO_TRANSFER_GAMMA18:
      return TEXEL_TRANSFER_GAMMA18;
    case GST_VIDEO_TRANSFER_GAMMA22:
    case GST_VIDEO_TRANSFER_ADOBERGB:
      return TEXEL_TRANSFER_GAMMA22;
    case GST_VIDEO_TRANSFER_GAMMA28:
      return TEXEL_TRANSFER_GAMMA28;
    case GST_VIDEO_TRANSFER_BT709:
    case GST_VIDEO_TRANSFER_BT601:
    case GST_VIDEO_TRANSFER_BT2020_10:
    case GST_VIDEO_TRANSFER_BT2020_12:
    case GST_VIDEO_TRANSFER_SMPTE240M:
      return TEXEL_TRANSFER_BT709;
    case GST_VIDEO_TRANSFER_UNKNOWN:
      return rgb ? TEXEL_TRANSFER_SRGB : TEXEL_TRANSFER_BT709;
    default:
      if (!self->warned_transfer) {
        GST_WARNING_OBJECT (self, "transfer function %d not supported: "
            "exposure, gains and gamma read the frames as BT.709",
            info->colorimetry.transfer);
        self->warned_transfer = TRUE;
      }
      return TEXEL_TRANSFER_BT709;
  }
}

static gboolean
gst_texel_adjust_prepare (GstTexelBase * base, GstVideoInfo * in,
    GstVideoInfo * out)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (base);
  TexelAdjustConfig cfg;
  const gchar *error = NULL;

  GST_OBJECT_LOCK (self);
  cfg = self->settings;
  GST_OBJECT_UNLOCK (self);
  cfg.matrix = gst_texel_adjust_matrix (in);
  /* GRAY8 without a range in its caps is full range, as in GStreamer. */
  cfg.full_range = in->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255
      || (GST_VIDEO_INFO_IS_GRAY (in)
      && in->colorimetry.range == GST_VIDEO_COLOR_RANGE_UNKNOWN);
  cfg.transfer = gst_texel_adjust_transfer (self, in);

  if (!gst_video_info_is_equal (in, out)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("texeladjust cannot convert %s %dx%d to %s %dx%d",
            GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
            GST_VIDEO_INFO_HEIGHT (in), GST_VIDEO_INFO_NAME (out),
            GST_VIDEO_INFO_WIDTH (out), GST_VIDEO_INFO_HEIGHT (out)), (NULL));
    return FALSE;
  }
  if (texel_adjust_plan_init (&self->plan, &cfg,
          gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (in)),
          GST_VIDEO_INFO_WIDTH (in), GST_VIDEO_INFO_HEIGHT (in),
          &error) != 0) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Cannot adjust %s %dx%d: %s", GST_VIDEO_INFO_NAME (in),
            GST_VIDEO_INFO_WIDTH (in), GST_VIDEO_INFO_HEIGHT (in), error),
        (NULL));
    return FALSE;
  }
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
      texel_adjust_config_is_neutral (&cfg));
  /* Output rows need the same input rows (4:2:0: their pair). */
  gst_texel_base_set_banding (base, TRUE);
  GST_INFO_OBJECT (self, "%s %dx%d: kind %d, linear stage %s, transfer %d, "
      "brightness %g contrast %g saturation %g hue %g gamma %g exposure %g "
      "gains %g %g %g", GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
      GST_VIDEO_INFO_HEIGHT (in), self->plan.kind,
      self->plan.linear ? "on" : "off", cfg.transfer, cfg.brightness,
      cfg.contrast, cfg.saturation, cfg.hue, cfg.gamma, cfg.exposure,
      cfg.gain[0], cfg.gain[1], cfg.gain[2]);
  return TRUE;
}

static void
gst_texel_adjust_process_cpu (GstTexelBase * base, const TexelImage * in,
    TexelImage * out, int row0, int row1)
{
  texel_adjust_cpu (&GST_TEXEL_ADJUST (base)->plan, in, out, row0, row1);
}

/* Output rows [row0, row1) read the same input rows, widened to whole
 * chroma rows. */
static void
gst_texel_adjust_input_rows (GstTexelBase * base, int row0, int row1,
    int *in_row0, int *in_row1)
{
  const TexelAdjustPlan *plan = &GST_TEXEL_ADJUST (base)->plan;

  *in_row0 = row0 & ~1;
  *in_row1 = MIN ((row1 + 1) & ~1, plan->height);
}

#if HAVE_CUDA
static int
gst_texel_adjust_process_cuda (GstTexelBase * base, const TexelImage * in,
    const TexelImage * out, int row0, int row1, GstTexelStream stream)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (base);

  return texel_cuda_adjust (self->device, &self->plan, in, out, row0, row1,
      (TexelAdjustStream) stream);
}

static gboolean
gst_texel_adjust_open_cuda (GstTexelBase * base, gint device)
{
  /* No GPU state of its own: the plan (with its LUTs) travels with each
   * launch. */
  GST_TEXEL_ADJUST (base)->device = device;
  return TRUE;
}

static void
gst_texel_adjust_close_cuda (GstTexelBase * base)
{
}
#endif

static gdouble *
gst_texel_adjust_setting (GstTexelAdjust * self, guint prop_id)
{
  TexelAdjustConfig *s = &self->settings;

  switch (prop_id) {
    case PROP_BRIGHTNESS:
      return &s->brightness;
    case PROP_CONTRAST:
      return &s->contrast;
    case PROP_SATURATION:
      return &s->saturation;
    case PROP_HUE:
      return &s->hue;
    case PROP_GAMMA:
      return &s->gamma;
    case PROP_EXPOSURE:
      return &s->exposure;
    case PROP_RED_GAIN:
    case PROP_GREEN_GAIN:
    case PROP_BLUE_GAIN:
      return &s->gain[prop_id - PROP_RED_GAIN];
    default:
      return NULL;
  }
}

static void
gst_texel_adjust_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (object);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (object);
  gdouble *setting;
  gboolean neutral, changed;

  GST_OBJECT_LOCK (self);
  setting = gst_texel_adjust_setting (self, prop_id);
  if (setting == NULL) {
    GST_OBJECT_UNLOCK (self);
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  changed = *setting != g_value_get_double (value);
  *setting = g_value_get_double (value);
  neutral = texel_adjust_config_is_neutral (&self->settings);
  GST_OBJECT_UNLOCK (self);
  if (!changed)
    return;
  gst_texel_base_mark_dirty (GST_TEXEL_BASE (self));
  /* In passthrough no frame reaches prepare, which would notice: leave
   * (or enter) it here. Renegotiating gives the element its output
   * buffer pool (none is set up in passthrough). */
  if (neutral != gst_base_transform_is_passthrough (trans)) {
    gst_base_transform_set_passthrough (trans, neutral);
    gst_base_transform_reconfigure_src (trans);
  }
}

static void
gst_texel_adjust_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (object);
  gdouble *setting;

  GST_OBJECT_LOCK (self);
  setting = gst_texel_adjust_setting (self, prop_id);
  if (setting)
    g_value_set_double (value, *setting);
  GST_OBJECT_UNLOCK (self);
  if (!setting)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_texel_adjust_install (GObjectClass * gobject_class, guint prop,
    const gchar * name, const gchar * nick, const gchar * blurb, gdouble min,
    gdouble max, gdouble def)
{
  g_object_class_install_property (gobject_class, prop,
      g_param_spec_double (name, nick, blurb, min, max, def,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));
}

static void
gst_texel_adjust_class_init (GstTexelAdjustClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstTexelBaseClass *base_class = GST_TEXEL_BASE_CLASS (klass);

  gobject_class->set_property = gst_texel_adjust_set_property;
  gobject_class->get_property = gst_texel_adjust_get_property;

  gst_texel_adjust_install (gobject_class, PROP_BRIGHTNESS, "brightness",
      "Brightness", "Added to Y' (0 black, 1 white), as videobalance", -1.0,
      1.0, DEFAULT_BRIGHTNESS);
  gst_texel_adjust_install (gobject_class, PROP_CONTRAST, "contrast",
      "Contrast", "Y' multiplied by it (around black), as videobalance",
      0.0, 2.0, DEFAULT_CONTRAST);
  gst_texel_adjust_install (gobject_class, PROP_SATURATION, "saturation",
      "Saturation", "Chroma multiplied by it, as videobalance", 0.0, 2.0,
      DEFAULT_SATURATION);
  gst_texel_adjust_install (gobject_class, PROP_HUE, "hue", "Hue",
      "Chroma rotated by hue * 180 degrees, as videobalance", -1.0, 1.0,
      DEFAULT_HUE);
  gst_texel_adjust_install (gobject_class, PROP_GAMMA, "gamma", "Gamma",
      "Linear light raised to 1/gamma (> 1 brightens), as the gamma element",
      TEXEL_ADJUST_GAMMA_MIN, TEXEL_ADJUST_GAMMA_MAX, DEFAULT_GAMMA);
  gst_texel_adjust_install (gobject_class, PROP_EXPOSURE, "exposure",
      "Exposure", "Linear light multiplied by 2^exposure (stops)",
      -TEXEL_ADJUST_EXPOSURE_MAX, TEXEL_ADJUST_EXPOSURE_MAX,
      DEFAULT_EXPOSURE);
  gst_texel_adjust_install (gobject_class, PROP_RED_GAIN, "red-gain",
      "Red gain", "White balance: linear red multiplied by it", 0.0,
      TEXEL_ADJUST_GAIN_MAX, DEFAULT_GAIN);
  gst_texel_adjust_install (gobject_class, PROP_GREEN_GAIN, "green-gain",
      "Green gain", "White balance: linear green multiplied by it", 0.0,
      TEXEL_ADJUST_GAIN_MAX, DEFAULT_GAIN);
  gst_texel_adjust_install (gobject_class, PROP_BLUE_GAIN, "blue-gain",
      "Blue gain", "White balance: linear blue multiplied by it", 0.0,
      TEXEL_ADJUST_GAIN_MAX, DEFAULT_GAIN);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Texel colour adjustment", "Filter/Effect/Video/Hardware",
      "Adjusts brightness, contrast, saturation and hue (as videobalance), "
      "gamma, exposure and white balance (in linear light) on an NVIDIA "
      "GPU, or on the CPU without one", "gst-texel developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_texel_adjust_transform_caps);
  trans_class->passthrough_on_same_caps = FALSE;

  base_class->prepare = GST_DEBUG_FUNCPTR (gst_texel_adjust_prepare);
  base_class->process_cpu = GST_DEBUG_FUNCPTR (gst_texel_adjust_process_cpu);
  base_class->input_rows = GST_DEBUG_FUNCPTR (gst_texel_adjust_input_rows);
#if HAVE_CUDA
  base_class->process_cuda = GST_DEBUG_FUNCPTR (gst_texel_adjust_process_cuda);
  base_class->open_cuda = GST_DEBUG_FUNCPTR (gst_texel_adjust_open_cuda);
  base_class->close_cuda = GST_DEBUG_FUNCPTR (gst_texel_adjust_close_cuda);
#endif
}

static void
gst_texel_adjust_init (GstTexelAdjust * self)
{
  texel_adjust_config_init (&self->settings);
  /* Neutral until a property says otherwise. */
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
}
