/* gst-texel: texelfilter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-texelfilter
 * @title: texelfilter
 *
 * Neighbourhood filters on video frames: on an NVIDIA GPU with CUDA, or on
 * the CPU when no usable GPU exists. The frames keep their format and
 * size (all 16 formats of texelconvert). Progressive video only: a filter
 * would mix the fields of interlaced video, whose caps do not negotiate.
 *
 * #GstTexelFilter:filter chooses the filter:
 *
 * * `gaussian`: gaussian blur of standard deviation #GstTexelFilter:sigma
 *   (window radius ceil (3 sigma)).
 * * `unsharp`: unsharp-mask sharpening, in + #GstTexelFilter:amount *
 *   (in - gaussian (sigma)).
 * * `bilateral`: edge-preserving denoise: a gaussian of
 *   #GstTexelFilter:sigma-space pixels whose weights also fall with the
 *   difference of values, gaussian of #GstTexelFilter:sigma-range (a
 *   fraction of the code range). Window radius ceil (2 sigma-space): the
 *   default sigma-space 1 gives a 5x5 window.
 * * `box`: the mean of a (2 #GstTexelFilter:radius + 1)^2 window.
 * * `sobel`: Sobel gradient magnitude, sqrt (gx^2 + gy^2) / 4 (a
 *   full-scale step edge gives full scale).
 *
 * Each colour component is filtered on its own grid (4:2:0 chroma on its
 * half-size grid). #GstTexelFilter:planes = luma filters only Y of YUV
 * formats and copies the chroma unchanged; RGB formats have no luma and
 * are filtered in all three channels either way. Alpha is copied
 * unchanged. Samples beyond the frame's edges are those at the edge
 * (#GstTexelFilter:border-mode = clamp) or reflected about it (mirror).
 * The exact definitions are in kernels/filter/texel-filter.h.
 *
 * Every property can change while PLAYING and be driven by a
 * #GstController. Neutral settings (gaussian sigma 0, unsharp amount or
 * sigma 0, bilateral sigma-space 0, box radius 0) make the element
 * passthrough.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,format=NV12 ! \
 *     texelfilter filter=bilateral sigma-space=1 sigma-range=0.08 ! \
 *     autovideosink
 * ]| Denoises a camera stream with a 5x5 bilateral filter.
 * |[
 * gst-launch-1.0 videotestsrc ! texelfilter filter=unsharp amount=0.8 \
 *     sigma=1.5 planes=luma ! videoconvert ! autovideosink
 * ]| Sharpens the luma only.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elements/gsttexelfilter-private.h"
#include "elements/gsttexelsettings.h"

GST_DEBUG_CATEGORY_STATIC (gst_texel_filter_debug);
#define GST_CAT_DEFAULT gst_texel_filter_debug

enum
{
  PROP_0,
  PROP_FILTER,
  PROP_SIGMA,
  PROP_AMOUNT,
  PROP_SIGMA_SPACE,
  PROP_SIGMA_RANGE,
  PROP_RADIUS,
  PROP_BORDER_MODE,
  PROP_PLANES
};

static GstStaticPadTemplate sink_template
    = GST_STATIC_PAD_TEMPLATE ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                               GST_STATIC_CAPS (GST_TEXEL_PROGRESSIVE_CAPS_10));
static GstStaticPadTemplate src_template
    = GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                               GST_STATIC_CAPS (GST_TEXEL_PROGRESSIVE_CAPS_10));

G_DEFINE_TYPE_WITH_CODE (GstTexelFilter, gst_texel_filter, GST_TYPE_TEXEL_BASE,
                         GST_DEBUG_CATEGORY_INIT (gst_texel_filter_debug,
                                                  "texelfilter", 0,
                                                  "texelfilter element"));
GST_ELEMENT_REGISTER_DEFINE (texelfilter, "texelfilter", GST_RANK_NONE,
                             GST_TYPE_TEXEL_FILTER);

#define GST_TYPE_TEXEL_FILTER_KIND (gst_texel_filter_kind_get_type ())
static GType
gst_texel_filter_kind_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_FILTER_GAUSSIAN, "Gaussian blur (sigma)", "gaussian" },
          { TEXEL_FILTER_UNSHARP, "Unsharp mask: in + amount * (in - gaussian)",
            "unsharp" },
          { TEXEL_FILTER_BILATERAL,
            "Bilateral denoise (sigma-space, sigma-range)", "bilateral" },
          { TEXEL_FILTER_BOX, "Box blur (radius)", "box" },
          { TEXEL_FILTER_SOBEL, "Sobel gradient magnitude", "sobel" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelFilterKind", values);
}

#define GST_TYPE_TEXEL_FILTER_BORDER (gst_texel_filter_border_get_type ())
static GType
gst_texel_filter_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_FILTER_BORDER_CLAMP,
            "Samples beyond the edge repeat the edge sample", "clamp" },
          { TEXEL_FILTER_BORDER_MIRROR,
            "Samples beyond the edge reflect about it", "mirror" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelFilterBorder", values);
}

#define GST_TYPE_TEXEL_FILTER_PLANES (gst_texel_filter_planes_get_type ())
static GType
gst_texel_filter_planes_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_FILTER_PLANES_LUMA, "Luma only, chroma copied (RGB: all)",
            "luma" },
          { TEXEL_FILTER_PLANES_ALL, "Every colour component", "all" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelFilterPlanes", values);
}

static gboolean
gst_texel_filter_prepare (GstTexelBase *base, GstVideoInfo *in,
                          GstVideoInfo *out)
{
  GstTexelFilter *self = GST_TEXEL_FILTER (base);
  TexelFilterConfig cfg;
  const gchar *error = NULL;

  GST_OBJECT_LOCK (self);
  cfg = self->settings;
  GST_OBJECT_UNLOCK (self);

  if (!gst_texel_settings_same_video (base, in, out))
    return FALSE;
  if (texel_filter_plan_init (
          &self->plan, &cfg, gst_texel_base_info_format (in),
          GST_VIDEO_INFO_WIDTH (in), GST_VIDEO_INFO_HEIGHT (in), &error)
      != 0)
    {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
                         ("Cannot filter %s %dx%d: %s",
                          GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
                          GST_VIDEO_INFO_HEIGHT (in), error),
                         (NULL));
      return FALSE;
    }
  texel_filter_fast_init (&self->fast, &self->plan);
  if (!gst_texel_cpu_reference ())
    self->plan.fast = &self->fast;
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
                                      texel_filter_config_is_neutral (&cfg));
  /* Output rows need the input rows within the radius (input_rows). */
  gst_texel_base_set_banding (base, TRUE);
  GST_INFO_OBJECT (
      self,
      "%s %dx%d: filter %d, radius %d, border %d, "
      "planes %d, sigma %g amount %g sigma-space %g sigma-range %g",
      GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
      GST_VIDEO_INFO_HEIGHT (in), cfg.filter, self->plan.radius, cfg.border,
      cfg.planes, cfg.sigma, cfg.amount, cfg.sigma_space, cfg.sigma_range);
  return TRUE;
}

static const GstTexelKernelDesc gst_texel_filter_kernel = {
  .plan_offset = G_STRUCT_OFFSET (GstTexelFilter, plan),
  .cpu = GST_TEXEL_KERNEL_CPU (texel_filter_fast),
  .cuda = GST_TEXEL_KERNEL_CUDA (texel_cuda_filter),
  .input_rows = GST_TEXEL_KERNEL_ROWS (texel_filter_input_rows),
};

static gboolean
gst_texel_filter_update_double (gdouble *setting, const GValue *value)
{
  gdouble v = g_value_get_double (value);

  if (*setting == v)
    return FALSE;
  *setting = v;
  return TRUE;
}

static void
gst_texel_filter_set_property (GObject *object, guint prop_id,
                               const GValue *value, GParamSpec *pspec)
{
  GstTexelFilter *self = GST_TEXEL_FILTER (object);
  TexelFilterConfig *s = &self->settings;
  gboolean neutral, changed;

  if (G_IS_PARAM_SPEC_DOUBLE (pspec)
      && !gst_texel_settings_valid (object, value, pspec))
    return;

  GST_OBJECT_LOCK (self);
  switch (prop_id)
    {
      case PROP_FILTER:
        changed = s->filter != (TexelFilterKind)g_value_get_enum (value);
        s->filter = g_value_get_enum (value);
        break;
      case PROP_SIGMA:
        changed = gst_texel_filter_update_double (&s->sigma, value);
        break;
      case PROP_AMOUNT:
        changed = gst_texel_filter_update_double (&s->amount, value);
        break;
      case PROP_SIGMA_SPACE:
        changed = gst_texel_filter_update_double (&s->sigma_space, value);
        break;
      case PROP_SIGMA_RANGE:
        changed = gst_texel_filter_update_double (&s->sigma_range, value);
        break;
      case PROP_RADIUS:
        changed = s->radius != g_value_get_int (value);
        s->radius = g_value_get_int (value);
        break;
      case PROP_BORDER_MODE:
        changed = s->border != (TexelFilterBorder)g_value_get_enum (value);
        s->border = g_value_get_enum (value);
        break;
      case PROP_PLANES:
        changed = s->planes != (TexelFilterPlanes)g_value_get_enum (value);
        s->planes = g_value_get_enum (value);
        break;
      default:
        GST_OBJECT_UNLOCK (self);
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        return;
    }
  neutral = texel_filter_config_is_neutral (s);
  GST_OBJECT_UNLOCK (self);
  if (changed)
    gst_texel_settings_changed (GST_TEXEL_BASE (self), GST_TEXEL_CHANGE_PLAN,
                                neutral);
}

static void
gst_texel_filter_get_property (GObject *object, guint prop_id, GValue *value,
                               GParamSpec *pspec)
{
  GstTexelFilter *self = GST_TEXEL_FILTER (object);
  const TexelFilterConfig *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id)
    {
      case PROP_FILTER:
        g_value_set_enum (value, s->filter);
        break;
      case PROP_SIGMA:
        g_value_set_double (value, s->sigma);
        break;
      case PROP_AMOUNT:
        g_value_set_double (value, s->amount);
        break;
      case PROP_SIGMA_SPACE:
        g_value_set_double (value, s->sigma_space);
        break;
      case PROP_SIGMA_RANGE:
        g_value_set_double (value, s->sigma_range);
        break;
      case PROP_RADIUS:
        g_value_set_int (value, s->radius);
        break;
      case PROP_BORDER_MODE:
        g_value_set_enum (value, s->border);
        break;
      case PROP_PLANES:
        g_value_set_enum (value, s->planes);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  GST_OBJECT_UNLOCK (self);
}

#define GST_TEXEL_FILTER_PARAM_FLAGS                                           \
  (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE         \
   | GST_PARAM_MUTABLE_PLAYING)

static void
gst_texel_filter_class_init (GstTexelFilterClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstTexelBaseClass *base_class = GST_TEXEL_BASE_CLASS (klass);
  TexelFilterConfig def;

  texel_filter_config_init (&def);
  gobject_class->set_property = gst_texel_filter_set_property;
  gobject_class->get_property = gst_texel_filter_get_property;

  g_object_class_install_property (
      gobject_class, PROP_FILTER,
      g_param_spec_enum ("filter", "Filter", "The neighbourhood filter",
                         GST_TYPE_TEXEL_FILTER_KIND, def.filter,
                         GST_TEXEL_FILTER_PARAM_FLAGS));
  g_object_class_install_property (
      gobject_class, PROP_SIGMA,
      g_param_spec_double (
          "sigma", "Sigma",
          "gaussian, unsharp: standard deviation in pixels (window radius "
          "ceil (3 sigma); 0: no blur)",
          0.0, TEXEL_FILTER_SIGMA_MAX, def.sigma,
          GST_TEXEL_FILTER_PARAM_FLAGS));
  g_object_class_install_property (
      gobject_class, PROP_AMOUNT,
      g_param_spec_double (
          "amount", "Amount",
          "unsharp: in + amount * (in - gaussian) (0: unchanged)", 0.0,
          TEXEL_FILTER_AMOUNT_MAX, def.amount, GST_TEXEL_FILTER_PARAM_FLAGS));
  g_object_class_install_property (
      gobject_class, PROP_SIGMA_SPACE,
      g_param_spec_double (
          "sigma-space", "Sigma space",
          "bilateral: spatial standard deviation in pixels (window radius "
          "ceil (2 sigma-space): 1 gives 5x5; 0: unchanged)",
          0.0, TEXEL_FILTER_SIGMA_SPACE_MAX, def.sigma_space,
          GST_TEXEL_FILTER_PARAM_FLAGS));
  g_object_class_install_property (
      gobject_class, PROP_SIGMA_RANGE,
      g_param_spec_double (
          "sigma-range", "Sigma range",
          "bilateral: standard deviation of value differences, as a "
          "fraction of the code range",
          TEXEL_FILTER_SIGMA_RANGE_MIN, TEXEL_FILTER_SIGMA_RANGE_MAX,
          def.sigma_range, GST_TEXEL_FILTER_PARAM_FLAGS));
  g_object_class_install_property (
      gobject_class, PROP_RADIUS,
      g_param_spec_int (
          "radius", "Radius",
          "box: window radius, (2 radius + 1)^2 pixels (0: unchanged)", 0,
          TEXEL_FILTER_RADIUS_MAX, def.radius, GST_TEXEL_FILTER_PARAM_FLAGS));
  g_object_class_install_property (
      gobject_class, PROP_BORDER_MODE,
      g_param_spec_enum ("border-mode", "Border mode",
                         "Samples read beyond the frame's edges",
                         GST_TYPE_TEXEL_FILTER_BORDER, def.border,
                         GST_TEXEL_FILTER_PARAM_FLAGS));
  g_object_class_install_property (
      gobject_class, PROP_PLANES,
      g_param_spec_enum ("planes", "Planes",
                         "Components filtered (alpha is always copied)",
                         GST_TYPE_TEXEL_FILTER_PLANES, def.planes,
                         GST_TEXEL_FILTER_PARAM_FLAGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (
      element_class, "Texel neighbourhood filter",
      "Filter/Effect/Video/Hardware",
      "Gaussian blur, unsharp mask, bilateral denoise, box blur and Sobel "
      "edges on an NVIDIA GPU, or on the CPU without one",
      "gst-texel developers");

  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_FILTER_KIND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_FILTER_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_FILTER_PLANES, 0);

  trans_class->transform_caps
      = GST_DEBUG_FUNCPTR (gst_texel_base_transform_caps_same);
  trans_class->passthrough_on_same_caps = FALSE;

  base_class->prepare = GST_DEBUG_FUNCPTR (gst_texel_filter_prepare);
  base_class->kernel = &gst_texel_filter_kernel;
}

static void
gst_texel_filter_init (GstTexelFilter *self)
{
  texel_filter_config_init (&self->settings);
  gst_base_transform_set_passthrough (
      GST_BASE_TRANSFORM (self),
      texel_filter_config_is_neutral (&self->settings));
}
