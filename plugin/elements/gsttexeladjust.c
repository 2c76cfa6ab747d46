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
 * #GstTexelAdjust:gamma, #GstTexelAdjust:brightness,
 * #GstTexelAdjust:contrast, #GstTexelAdjust:saturation and
 * #GstTexelAdjust:hue give exactly what `gamma ! videobalance` give with
 * the same values (gst-plugins-good 1.22): the same formulas on the same
 * 8-bit codes with the same roundings, whatever the range and matrix
 * (as the elements, which ignore both): gamma raises Y'/255 to 1/gamma,
 * then Y' = 16 + (Y' - 16) * contrast + brightness * 255, and the chroma
 * (code - 128) is rotated by hue * 180 degrees and scaled by saturation.
 * RGB frames go through the elements' own fixed-point BT.601 matrices,
 * once per active element, as the two elements would. 10-bit frames
 * (P010): the same with the codes' constants times 4. So `gamma`
 * darkens or brightens the black level of limited-range video too, and
 * it leaves the chroma alone: colours lose saturation as they brighten.
 *
 * #GstTexelAdjust:exposure (in stops), the white-balance gains
 * (#GstTexelAdjust:red-gain, #GstTexelAdjust:green-gain,
 * #GstTexelAdjust:blue-gain), #GstTexelAdjust:white-point,
 * #GstTexelAdjust:tone-map, #GstTexelAdjust:vignette-strength and
 * #GstTexelAdjust:linear-gamma (a per-channel power: output =
 * input^(1/linear-gamma), so values > 1 brighten; unlike gamma it keeps
 * black and white and the hue) work on linear light: the
 * frame's R'G'B' (for YUV frames through the caps' matrix) is decoded
 * with the inverse of the caps' transfer function (BT.709, BT.601 and
 * BT.2020 share one OETF; RGB frames without one are sRGB), multiplied by
 * gain * white-point gain * 2^exposure * vignette gain, tone mapped (none:
 * clipped to 1), raised to 1/linear-gamma (with a linear toe below 2^-12
 * that keeps the curve's slope finite) and encoded again. That stage runs
 * first; gamma and the videobalance settings after it, on the codes it
 * gives (as `texeladjust exposure=... ! gamma ! videobalance` would); the
 * 3D LUT of #GstTexelAdjust:lut-file last, on R'G'B'. With the linear
 * stage or a LUT active, 4:2:0 and 4:2:2 luma pixels use the chroma
 * sample that covers them and each chroma sample becomes the mean of its
 * pixels'.
 *
 * The white point is the colour temperature of the light to neutralise:
 * von Kries gains in the caps' RGB primaries that turn the Planckian
 * white at that temperature into the one at 6500 K (so 6500 is neutral,
 * lower values make the picture bluer), multiplied with the three gains.
 * The tone maps are Reinhard's x / (1 + x) and Narkowicz's fit of the
 * ACES filmic curve. The vignette correction multiplies linear light by
 * 1 + strength * r^2, r the distance from the frame's centre over the
 * half-diagonal. The formulas are in kernels/adjust/texel-adjust.h.
 *
 * #GstTexelAdjust:lut-file names a 3D LUT in the Adobe / Resolve .cube
 * format (LUT_3D_SIZE 2 to 129, DOMAIN_MIN / DOMAIN_MAX or
 * LUT_3D_INPUT_RANGE), interpolated trilinearly. It is read when the
 * element starts (a missing or malformed file fails the state change)
 * and again before the next frame whenever the property is set while it
 * runs; errors name the file and the line.
 *
 * Every property can change while PLAYING and every numeric one can be
 * driven by a #GstController; NaN is refused (the old value stays). With
 * every setting neutral the element is passthrough. The GPU computes
 * gamma and the videobalance settings with the CPU's integer and double
 * operations (the same codes; 10-bit gamma in float: within one code);
 * 8-bit RGB and GRAY8 frames without a vignette go through per-channel
 * lookup tables built once per change in double precision; the linear
 * stage uses the GPU's fast log2 / exp2 / divide and a 3D texture for the
 * LUT (the error budget is in texel-adjust.cu and docs/accuracy.md:
 * within one code).
 *
 * On the CPU, the settings are folded into integer tables once per change
 * (texel-adjust-fast.h), each entry the double-precision reference's own
 * code, so the CPU path gives the reference's codes exactly, at the speed
 * of table look-ups: Y'CbCr frames without the linear-light settings and
 * without a LUT, GRAY8 and 8-bit RGB frames without a vignette (RGB: and
 * without a LUT). Other settings (the linear stage on Y'CbCr, a
 * vignette, a LUT on colour frames) run the reference itself, slower.
 * GST_TEXEL_CPU=reference in the environment makes every frame run the
 * reference, for comparison.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! texeladjust gamma=1.5 saturation=1.3 ! \
 *     videoconvert ! autovideosink
 * ]| The same picture as `gamma gamma=1.5 ! videobalance saturation=1.3`:
 * brighter mid-tones, stronger colours.
 * |[
 * gst-launch-1.0 videotestsrc ! texeladjust linear-gamma=1.5 ! \
 *     videoconvert ! autovideosink
 * ]| Brightens the mid-tones of each channel in linear light instead
 * (black, white and hues stay).
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,format=NV12 ! \
 *     texeladjust exposure=1 white-point=3200 contrast=1.1 ! \
 *     autovideosink
 * ]| One stop more exposure, tungsten light neutralised, a little contrast.
 * |[
 * gst-launch-1.0 filesrc location=in.mkv ! decodebin ! \
 *     texeladjust exposure=1.5 tone-map=filmic vignette-strength=0.6 \
 *     lut-file=grade.cube ! videoconvert ! autovideosink
 * ]| A bright scene compressed with the filmic curve, lens shading
 * corrected, then graded with a .cube LUT.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elements/gsttexeladjust-private.h"
#include "elements/gsttexelcolorimetry.h"
#include "elements/gsttexelsettings.h"

GST_DEBUG_CATEGORY_STATIC (gst_texel_adjust_debug);
#define GST_CAT_DEFAULT gst_texel_adjust_debug

#define DEFAULT_BRIGHTNESS 0.0
#define DEFAULT_CONTRAST 1.0
#define DEFAULT_SATURATION 1.0
#define DEFAULT_HUE 0.0
#define DEFAULT_GAMMA 1.0
#define DEFAULT_EXPOSURE 0.0
#define DEFAULT_GAIN 1.0
#define DEFAULT_WHITE_POINT TEXEL_ADJUST_WHITE_POINT_NEUTRAL
#define DEFAULT_VIGNETTE_STRENGTH 0.0
/* Larger files cannot hold a table of TEXEL_CUBE_MAX_SIZE^3 entries
 * written sensibly (129^3 lines of 3 numbers: ~70 MB): refused before
 * being read, so that a wrong path (a device, a video) fails fast. */
#define MAX_LUT_FILE_SIZE (256 * 1024 * 1024)

enum
{
  PROP_0,
  PROP_BRIGHTNESS,
  PROP_CONTRAST,
  PROP_SATURATION,
  PROP_HUE,
  PROP_GAMMA,
  PROP_LINEAR_GAMMA,
  PROP_EXPOSURE,
  PROP_RED_GAIN,
  PROP_GREEN_GAIN,
  PROP_BLUE_GAIN,
  PROP_WHITE_POINT,
  PROP_TONE_MAP,
  PROP_VIGNETTE_STRENGTH,
  PROP_LUT_FILE
};

#define GST_TYPE_TEXEL_ADJUST_TONE_MAP (gst_texel_adjust_tone_map_get_type ())
static GType
gst_texel_adjust_tone_map_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_TONE_MAP_NONE, "No tone map: linear light clipped at 1",
            "none" },
          { TEXEL_TONE_MAP_REINHARD, "Reinhard: x / (1 + x)", "reinhard" },
          { TEXEL_TONE_MAP_FILMIC, "Filmic: Narkowicz's fit of the ACES curve",
            "filmic" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelAdjustToneMap", values);
}

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE (
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_TEXEL_CAPS_10));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE (
    "src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_TEXEL_CAPS_10));

G_DEFINE_TYPE_WITH_CODE (GstTexelAdjust, gst_texel_adjust, GST_TYPE_TEXEL_BASE,
                         GST_DEBUG_CATEGORY_INIT (gst_texel_adjust_debug,
                                                  "texeladjust", 0,
                                                  "texeladjust element"));
GST_ELEMENT_REGISTER_DEFINE (texeladjust, "texeladjust", GST_RANK_NONE,
                             GST_TYPE_TEXEL_ADJUST);

/* The primaries of the frames' linear RGB (the white point's gains are
 * computed in it): BT.709 where the caps do not say. */
static void
gst_texel_adjust_primaries (const GstVideoInfo *info, double primaries[4][2])
{
  const GstVideoColorPrimariesInfo *p
      = gst_video_color_primaries_get_info (info->colorimetry.primaries);

  if (info->colorimetry.primaries == GST_VIDEO_COLOR_PRIMARIES_UNKNOWN
      || p == NULL || p->Ry <= 0.0)
    p = gst_video_color_primaries_get_info (GST_VIDEO_COLOR_PRIMARIES_BT709);
  primaries[0][0] = p->Rx;
  primaries[0][1] = p->Ry;
  primaries[1][0] = p->Gx;
  primaries[1][1] = p->Gy;
  primaries[2][0] = p->Bx;
  primaries[2][1] = p->By;
  primaries[3][0] = p->Wx;
  primaries[3][1] = p->Wy;
}

/* The transfer function the linear stage decodes: RGB frames without one
 * are sRGB, YUV and GRAY frames BT.709. HDR curves (PQ, HLG) are not
 * handled yet: read as BT.709, with a warning. */
static TexelTransfer
gst_texel_adjust_transfer (GstTexelAdjust *self, const GstVideoInfo *info)
{
  gboolean rgb = GST_VIDEO_INFO_IS_RGB (info);

  switch (info->colorimetry.transfer)
    {
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
        if (!self->warned_transfer)
          {
            GST_WARNING_OBJECT (
                self,
                "transfer function %d not supported: "
                "exposure, gains and linear-gamma read the frames as BT.709",
                info->colorimetry.transfer);
            self->warned_transfer = TRUE;
          }
        return TEXEL_TRANSFER_BT709;
    }
}

/* Reads and parses lut-file into self->cube (or drops it when lut-file
 * is unset). On failure posts an element error that names the file and,
 * for a malformed one, the line, and keeps the table it had. Runs in
 * READY -> PAUSED and, when lut-file was set while running, in prepare. */
static gboolean
gst_texel_adjust_load_lut (GstTexelAdjust *self)
{
  gchar *file, *text = NULL, *unreadable = NULL;
  TexelCubeError error;
  TexelCube *cube = NULL;
  gsize length;

  GST_OBJECT_LOCK (self);
  file = g_strdup (self->lut_file);
  self->lut_reload = FALSE;
  GST_OBJECT_UNLOCK (self);

  if (file == NULL)
    goto done;
  text = gst_texel_read_settings_file (file, MAX_LUT_FILE_SIZE, &length,
                                       &unreadable);
  if (text == NULL)
    {
      GST_ELEMENT_ERROR (
          self, RESOURCE, OPEN_READ,
          ("Cannot read the 3D LUT file \"%s\": %s", file, unreadable), (NULL));
      g_free (unreadable);
      g_free (file);
      return FALSE;
    }
  cube = texel_cube_parse (text, length, &error);
  g_free (text);
  if (cube == NULL)
    {
      if (error.line > 0)
        GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
                           ("Invalid 3D LUT file \"%s\", line %d: %s", file,
                            error.line, error.message),
                           (NULL));
      else
        GST_ELEMENT_ERROR (
            self, RESOURCE, SETTINGS,
            ("Invalid 3D LUT file \"%s\": %s", file, error.message), (NULL));
      g_free (file);
      return FALSE;
    }
  if (cube->n_skipped > 0)
    GST_WARNING_OBJECT (self,
                        "%s: %d line(s) with unknown keywords "
                        "skipped, the first is line %d",
                        file, cube->n_skipped, cube->first_skipped_line);
  GST_INFO_OBJECT (self,
                   "3D LUT %s (\"%s\"): %d^3 entries, domain "
                   "[%g %g %g] - [%g %g %g]",
                   file, cube->title, cube->size, cube->domain_min[0],
                   cube->domain_min[1], cube->domain_min[2],
                   cube->domain_max[0], cube->domain_max[1],
                   cube->domain_max[2]);

done:
  texel_cube_free (self->cube);
  self->cube = cube;
  /* A new table may sit where the old one was: compare no addresses. */
  self->gpu_lut_cube = NULL;
  g_free (file);
  return TRUE;
}

static gboolean
gst_texel_adjust_prepare (GstTexelBase *base, GstVideoInfo *in,
                          GstVideoInfo *out)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (base);
  TexelAdjustConfig cfg;
  const gchar *error = NULL;
  gboolean reload;

  GST_OBJECT_LOCK (self);
  cfg = self->settings;
  reload = self->lut_reload;
  GST_OBJECT_UNLOCK (self);
  if (reload && !gst_texel_adjust_load_lut (self))
    return FALSE;
  cfg.cube = self->cube;
  cfg.matrix = gst_texel_colorimetry_yuv_matrix (in);
  cfg.full_range = gst_texel_colorimetry_full_range (in);
  cfg.transfer = gst_texel_adjust_transfer (self, in);
  gst_texel_adjust_primaries (in, cfg.primaries);

  if (!gst_texel_settings_same_video (base, in, out))
    return FALSE;
  if (texel_adjust_plan_init (
          &self->plan, &cfg, gst_texel_base_info_format (in),
          GST_VIDEO_INFO_WIDTH (in), GST_VIDEO_INFO_HEIGHT (in), &error)
      != 0)
    {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
                         ("Cannot adjust %s %dx%d: %s",
                          GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
                          GST_VIDEO_INFO_HEIGHT (in), error),
                         (NULL));
      return FALSE;
    }
  texel_adjust_fast_init (self->fast, &self->plan);
  if (!gst_texel_cpu_reference ())
    self->plan.fast = self->fast;
  if (!gst_texel_adjust_prepare_cuda (self))
    return FALSE;
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
                                      texel_adjust_config_is_neutral (&cfg));
  /* Output rows need the same input rows (4:2:0: their pair); the
   * vignette depends on the absolute row, which a band's kernel knows. */
  gst_texel_base_set_banding (base, TRUE);
  GST_INFO_OBJECT (self,
                   "%s %dx%d: kind %d, linear stage %s, transfer %d, "
                   "brightness %g contrast %g saturation %g hue %g gamma %g "
                   "linear-gamma %g exposure %g "
                   "gains %g %g %g white point %g K tone map %d vignette %g",
                   GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
                   GST_VIDEO_INFO_HEIGHT (in), self->plan.kernel.kind,
                   self->plan.kernel.linear ? "on" : "off", cfg.transfer,
                   cfg.brightness, cfg.contrast, cfg.saturation, cfg.hue,
                   cfg.gamma, cfg.linear_gamma, cfg.exposure, cfg.gain[0],
                   cfg.gain[1], cfg.gain[2], cfg.white_point, cfg.tone_map,
                   cfg.vignette);
  return TRUE;
}

/* Output rows [row0, row1) read the same input rows, widened to whole
 * chroma rows. */
static void
gst_texel_adjust_input_rows (const TexelAdjustPlan *plan, int row0, int row1,
                             int *in_row0, int *in_row1)
{
  *in_row0 = row0 & ~1;
  *in_row1 = MIN ((row1 + 1) & ~1, plan->kernel.height);
}

static const GstTexelKernelDesc gst_texel_adjust_kernel = {
  .plan_offset = G_STRUCT_OFFSET (GstTexelAdjust, plan),
  .cpu = GST_TEXEL_KERNEL_CPU (texel_adjust_fast),
  .cuda = GST_TEXEL_KERNEL_CUDA (texel_cuda_adjust),
  .input_rows = GST_TEXEL_KERNEL_ROWS (gst_texel_adjust_input_rows),
};

static gdouble *
gst_texel_adjust_setting (GstTexelAdjust *self, guint prop_id)
{
  TexelAdjustConfig *s = &self->settings;

  switch (prop_id)
    {
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
      case PROP_LINEAR_GAMMA:
        return &s->linear_gamma;
      case PROP_EXPOSURE:
        return &s->exposure;
      case PROP_RED_GAIN:
      case PROP_GREEN_GAIN:
      case PROP_BLUE_GAIN:
        return &s->gain[prop_id - PROP_RED_GAIN];
      case PROP_WHITE_POINT:
        return &s->white_point;
      case PROP_VIGNETTE_STRENGTH:
        return &s->vignette;
      default:
        return NULL;
    }
}

static void
gst_texel_adjust_set_property (GObject *object, guint prop_id,
                               const GValue *value, GParamSpec *pspec)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (object);
  TexelAdjustConfig *s = &self->settings;
  gboolean neutral, changed;

  if (G_IS_PARAM_SPEC_DOUBLE (pspec)
      && !gst_texel_settings_valid (object, value, pspec))
    return;
  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_TONE_MAP)
    {
      TexelToneMap tone_map = (TexelToneMap)g_value_get_enum (value);

      changed = s->tone_map != tone_map;
      s->tone_map = tone_map;
    }
  else if (prop_id == PROP_LUT_FILE)
    {
      const gchar *file = g_value_get_string (value);

      /* Read again even when the name is the same: the file may not be. */
      g_free (self->lut_file);
      self->lut_file = file != NULL && *file != '\0' ? g_strdup (file) : NULL;
      self->lut_reload = TRUE;
      changed = TRUE;
    }
  else
    {
      gdouble *setting = gst_texel_adjust_setting (self, prop_id), v;

      if (setting == NULL)
        {
          GST_OBJECT_UNLOCK (self);
          G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
          return;
        }
      v = g_value_get_double (value);
      changed = *setting != v;
      *setting = v;
    }
  neutral = texel_adjust_config_is_neutral (s) && self->lut_file == NULL;
  GST_OBJECT_UNLOCK (self);
  if (changed)
    gst_texel_settings_changed (GST_TEXEL_BASE (self), GST_TEXEL_CHANGE_PLAN,
                                neutral);
}

static void
gst_texel_adjust_get_property (GObject *object, guint prop_id, GValue *value,
                               GParamSpec *pspec)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (object);
  gdouble *setting;

  GST_OBJECT_LOCK (self);
  setting = gst_texel_adjust_setting (self, prop_id);
  if (prop_id == PROP_TONE_MAP)
    g_value_set_enum (value, self->settings.tone_map);
  else if (prop_id == PROP_LUT_FILE)
    g_value_set_string (value, self->lut_file);
  else if (setting != NULL)
    g_value_set_double (value, *setting);
  GST_OBJECT_UNLOCK (self);
  if (setting == NULL && prop_id != PROP_TONE_MAP && prop_id != PROP_LUT_FILE)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_texel_adjust_install (GObjectClass *gobject_class, guint prop,
                          const gchar *name, const gchar *nick,
                          const gchar *blurb, gdouble min, gdouble max,
                          gdouble def)
{
  g_object_class_install_property (
      gobject_class, prop,
      g_param_spec_double (name, nick, blurb, min, max, def,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
                               | GST_PARAM_CONTROLLABLE
                               | GST_PARAM_MUTABLE_PLAYING));
}

/* The LUT file is read when the element starts, so that a missing or
 * malformed one fails the state change, before any caps. */
static GstStateChangeReturn
gst_texel_adjust_change_state (GstElement *element, GstStateChange transition)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && !gst_texel_adjust_load_lut (self))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_texel_adjust_parent_class)
            ->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    {
      /* Read again at the next start (the plan that used it is redone at
       * the next caps). */
      texel_cube_free (self->cube);
      self->cube = NULL;
    }
  return ret;
}

static void
gst_texel_adjust_finalize (GObject *object)
{
  GstTexelAdjust *self = GST_TEXEL_ADJUST (object);

  texel_cube_free (self->cube);
  g_free (self->lut_file);
  g_free (self->fast);
  G_OBJECT_CLASS (gst_texel_adjust_parent_class)->finalize (object);
}

static void
gst_texel_adjust_class_init (GstTexelAdjustClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstTexelBaseClass *base_class = GST_TEXEL_BASE_CLASS (klass);

  gobject_class->set_property = gst_texel_adjust_set_property;
  gobject_class->get_property = gst_texel_adjust_get_property;
  gobject_class->finalize = gst_texel_adjust_finalize;

  gst_texel_adjust_install (
      gobject_class, PROP_BRIGHTNESS, "brightness", "Brightness",
      "Exactly videobalance's: brightness * 255 added to the "
      "8-bit Y' code (x 4 at 10 bits)",
      -1.0, 1.0, DEFAULT_BRIGHTNESS);
  gst_texel_adjust_install (
      gobject_class, PROP_CONTRAST, "contrast", "Contrast",
      "Exactly videobalance's: Y' code - 16 multiplied by it "
      "(x 4 at 10 bits)",
      0.0, 2.0, DEFAULT_CONTRAST);
  gst_texel_adjust_install (
      gobject_class, PROP_SATURATION, "saturation", "Saturation",
      "Exactly videobalance's: chroma (code - 128) multiplied "
      "by it",
      0.0, 2.0, DEFAULT_SATURATION);
  gst_texel_adjust_install (
      gobject_class, PROP_HUE, "hue", "Hue",
      "Exactly videobalance's: chroma rotated by hue * 180 degrees", -1.0, 1.0,
      DEFAULT_HUE);
  gst_texel_adjust_install (
      gobject_class, PROP_GAMMA, "gamma", "Gamma",
      "Exactly the gamma element's: the Y' code raised to 1/gamma "
      "(> 1 brightens), before videobalance's settings",
      TEXEL_ADJUST_GAMMA_MIN, TEXEL_ADJUST_GAMMA_MAX, DEFAULT_GAMMA);
  gst_texel_adjust_install (
      gobject_class, PROP_LINEAR_GAMMA, "linear-gamma", "Linear gamma",
      "Linear light of each channel raised to "
      "1/linear-gamma (> 1 brightens), after exposure, gains and tone map",
      TEXEL_ADJUST_GAMMA_MIN, TEXEL_ADJUST_GAMMA_MAX, DEFAULT_GAMMA);
  gst_texel_adjust_install (
      gobject_class, PROP_EXPOSURE, "exposure", "Exposure",
      "Linear light multiplied by 2^exposure (stops)",
      -TEXEL_ADJUST_EXPOSURE_MAX, TEXEL_ADJUST_EXPOSURE_MAX, DEFAULT_EXPOSURE);
  gst_texel_adjust_install (gobject_class, PROP_RED_GAIN, "red-gain",
                            "Red gain",
                            "White balance: linear red multiplied by it", 0.0,
                            TEXEL_ADJUST_GAIN_MAX, DEFAULT_GAIN);
  gst_texel_adjust_install (gobject_class, PROP_GREEN_GAIN, "green-gain",
                            "Green gain",
                            "White balance: linear green multiplied by it", 0.0,
                            TEXEL_ADJUST_GAIN_MAX, DEFAULT_GAIN);
  gst_texel_adjust_install (gobject_class, PROP_BLUE_GAIN, "blue-gain",
                            "Blue gain",
                            "White balance: linear blue multiplied by it", 0.0,
                            TEXEL_ADJUST_GAIN_MAX, DEFAULT_GAIN);
  gst_texel_adjust_install (
      gobject_class, PROP_WHITE_POINT, "white-point", "White point",
      "Colour temperature (kelvin) of the light to "
      "neutralise: linear R, G, B multiplied by gains that turn its "
      "Planckian white into the one of 6500 K (warm light: lower values), "
      "on top of the red, green and blue gains",
      TEXEL_ADJUST_WHITE_POINT_MIN, TEXEL_ADJUST_WHITE_POINT_MAX,
      DEFAULT_WHITE_POINT);
  g_object_class_install_property (
      gobject_class, PROP_TONE_MAP,
      g_param_spec_enum (
          "tone-map", "Tone map",
          "Compresses linear light "
          "into [0, 1] after exposure, gains and white point, before "
          "linear-gamma "
          "(for bright scenes and 10-bit frames)",
          GST_TYPE_TEXEL_ADJUST_TONE_MAP, TEXEL_TONE_MAP_NONE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE
              | GST_PARAM_MUTABLE_PLAYING));
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_ADJUST_TONE_MAP, 0);
  gst_texel_adjust_install (
      gobject_class, PROP_VIGNETTE_STRENGTH, "vignette-strength",
      "Vignette strength",
      "Lens shading correction: "
      "linear light multiplied by 1 + strength * r^2, r the distance from "
      "the centre over the half-diagonal (the corners get 1 + strength; "
      "negative values darken them)",
      TEXEL_ADJUST_VIGNETTE_MIN, TEXEL_ADJUST_VIGNETTE_MAX,
      DEFAULT_VIGNETTE_STRENGTH);
  g_object_class_install_property (
      gobject_class, PROP_LUT_FILE,
      g_param_spec_string (
          "lut-file", "3D LUT file",
          "A 3D LUT in the "
          ".cube format (Adobe, Resolve) applied last, on R'G'B', "
          "trilinear; read when the element starts and when set while it "
          "runs (NULL or empty: none)",
          NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_PLAYING));

  element_class->change_state
      = GST_DEBUG_FUNCPTR (gst_texel_adjust_change_state);
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (
      element_class, "Texel colour adjustment", "Filter/Effect/Video/Hardware",
      "Adjusts gamma, brightness, contrast, saturation and hue (exactly as "
      "gamma ! videobalance), exposure, white balance, tone map, vignette "
      "and gamma in linear light, and applies a 3D LUT, on an NVIDIA GPU "
      "or on the CPU without one",
      "gst-texel developers");

  trans_class->transform_caps
      = GST_DEBUG_FUNCPTR (gst_texel_base_transform_caps_same);
  trans_class->passthrough_on_same_caps = FALSE;

  base_class->prepare = GST_DEBUG_FUNCPTR (gst_texel_adjust_prepare);
  base_class->kernel = &gst_texel_adjust_kernel;
  gst_texel_adjust_class_init_cuda (base_class);
}

static void
gst_texel_adjust_init (GstTexelAdjust *self)
{
  texel_adjust_config_init (&self->settings);
  self->fast = g_new0 (TexelAdjustFast, 1);
  /* Neutral until a property says otherwise. */
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
}
