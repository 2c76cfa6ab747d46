/* gst-texel: texelconvert
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-texelconvert
 * @title: texelconvert
 *
 * Converts colour space, scales, crops, letterboxes and flips video frames
 * in one pass: on an NVIDIA GPU with CUDA (texture fetches with hardware
 * filtering), or on the CPU when no usable GPU exists. The colour matrix
 * and range come from the caps' colorimetry (BT.601, BT.709, BT.2020; full
 * or limited range). Subsampled (4:2:0, 4:2:2) output chroma is the mean
 * of the converted picture over each chroma sample's area, centred where
 * the caps' chroma-site puts it: [1, 1] / 2 per axis for a centred site
 * (jpeg), [1, 2, 1] / 4 for a cosited one (mpeg2 horizontally), as
 * videoconvert does. Subsampled input chroma is reconstructed at its sites
 * by the method; at 1:1 too (linearly, unless method=nearest). Progressive
 * video only: scaling, flipping or upsampling 4:2:0 chroma would mix the
 * fields of interlaced video, whose caps do not negotiate (deinterlace
 * first).
 *
 * On the CPU, 8-bit formats with the identity, 180 and the flips go
 * through a fixed-point path whose filter taps and matrix are worked out
 * once per caps (within 1 code of the double-precision reference); raw
 * Bayer input at 1:1 is developed row by row in float and then goes the
 * same way (to RGB formats its values are rounded straight to codes). The
 * reference converts the rest (P010, scaled Bayer input, the 90-degree
 * rotations and transpositions), and all of it with GST_TEXEL_CPU=reference
 * in the environment.
 *
 * On an integrated GPU (Jetson) frames stay in pinned, mapped memory and
 * are never copied (memory-mode=zero-copy); on a discrete GPU they are
 * copied in bands that overlap with the kernel (memory-mode=staged).
 * `GST_DEBUG=texel*:4` logs the device's capabilities and the choice.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12,width=3840,height=2160
 * ! \ texelconvert ! video/x-raw,format=RGBA,width=1280,height=720 ! fakesink
 * ]| Converts and scales 4K NV12 to 720p RGBA.
 * |[
 * gst-launch-1.0 videotestsrc ! texelconvert video-direction=90r crop-left=40 \
 *     method=bicubic ! autovideosink
 * ]| Crops, rotates by 90 degrees clockwise and scales with bicubic filtering.
 * |[
 * gst-launch-1.0 videotestsrc !
 * video/x-bayer,format=rggb,width=1920,height=1080 ! \ texelconvert !
 * video/x-raw,format=RGBA ! fakesink
 * ]| Demosaics raw Bayer input (video/x-bayer, 8-bit, or 10 to 16 bits in
 * 16-bit words) in the same pass: black level, white balance, colour
 * matrix and transfer function from the raw development properties, the
 * mosaic's sample (x, y) centred on the developed pixel (x, y).
 * |[
 * gst-launch-1.0 -m videotestsrc ! video/x-bayer,format=grbg ! \
 *     texelconvert auto-white-balance=true ! video/x-raw,format=RGBA ! fakesink
 * ]| Automatic grey-world white balance: each frame's gains (mean green
 * over mean red and over mean blue of the unclipped, black-corrected
 * samples), smoothed by awb-speed, develop the next frame; each measured
 * frame posts a "texel-awb" element message with them.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elements/gsttexelconvert-private.h"
#include "elements/gsttexelcolorimetry.h"
#include "elements/gsttexelsettings.h"
#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_texel_convert_debug);
#define GST_CAT_DEFAULT gst_texel_convert_debug

#define DEFAULT_METHOD TEXEL_METHOD_BILINEAR
#define DEFAULT_ADD_BORDERS TRUE
#define DEFAULT_BORDER_COLOR 0xff000000
#define DEFAULT_VIDEO_DIRECTION GST_VIDEO_ORIENTATION_IDENTITY

enum
{
  PROP_0,
  PROP_METHOD,
  PROP_CROP_LEFT,
  PROP_CROP_RIGHT,
  PROP_CROP_TOP,
  PROP_CROP_BOTTOM,
  PROP_ADD_BORDERS,
  PROP_BORDER_COLOR,
  PROP_VIDEO_DIRECTION
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE (
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_TEXEL_PROGRESSIVE_CAPS "; " GST_TEXEL_BAYER_CAPS));
static GstStaticPadTemplate src_template
    = GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                               GST_STATIC_CAPS (GST_TEXEL_PROGRESSIVE_CAPS));

static void
gst_texel_convert_direction_init (GstVideoDirectionInterface *iface);

G_DEFINE_TYPE_WITH_CODE (
    GstTexelConvert, gst_texel_convert, GST_TYPE_TEXEL_BASE,
    G_IMPLEMENT_INTERFACE (GST_TYPE_VIDEO_DIRECTION,
                           gst_texel_convert_direction_init)
        GST_DEBUG_CATEGORY_INIT (gst_texel_convert_debug, "texelconvert", 0,
                                 "texelconvert element"));
GST_ELEMENT_REGISTER_DEFINE (texelconvert, "texelconvert", GST_RANK_NONE,
                             GST_TYPE_TEXEL_CONVERT);

static void
gst_texel_convert_direction_init (GstVideoDirectionInterface *iface)
{
  /* The video-direction property carries it all. */
}

static gboolean
gst_texel_direction_swaps (GstVideoOrientationMethod m)
{
  return m == GST_VIDEO_ORIENTATION_90R || m == GST_VIDEO_ORIENTATION_90L
         || m == GST_VIDEO_ORIENTATION_UL_LR
         || m == GST_VIDEO_ORIENTATION_UR_LL;
}

/* The orientation in force: a tag decides for "auto". */
static GstVideoOrientationMethod
gst_texel_convert_direction (GstTexelConvert *self)
{
  GstVideoOrientationMethod m = self->direction;

  if (m == GST_VIDEO_ORIENTATION_AUTO)
    m = self->tag_direction;
  return m > GST_VIDEO_ORIENTATION_UR_LL ? GST_VIDEO_ORIENTATION_IDENTITY : m;
}

/* Whether the output picture differs in size from the input whatever the
 * scale: then the input's own size is no preference. */
static gboolean
gst_texel_convert_reshapes (GstTexelConvert *self)
{
  gboolean reshapes;

  GST_OBJECT_LOCK (self);
  reshapes = self->crop[0] || self->crop[1] || self->crop[2] || self->crop[3]
             || gst_texel_direction_swaps (gst_texel_convert_direction (self));
  GST_OBJECT_UNLOCK (self);
  return reshapes;
}

/* Whether the settings leave the picture as it is (passthrough where the
 * caps are equal too). Object lock held. */
static gboolean
gst_texel_convert_is_identity (GstTexelConvert *self)
{
  return !(self->crop[0] || self->crop[1] || self->crop[2] || self->crop[3])
         && gst_texel_convert_direction (self)
                == GST_VIDEO_ORIENTATION_IDENTITY;
}

/* Any size, any format: the element converts between all of them. The
 * caps as given come first, so that passthrough wins when possible, unless
 * cropping or a rotation makes them impossible. */
static GstCaps *
gst_texel_convert_transform_caps (GstBaseTransform *trans,
                                  GstPadDirection direction, GstCaps *caps,
                                  GstCaps *filter)
{
  /* Raw Bayer input becomes video/x-raw of any format; any video/x-raw
   * output may come from it. */
  GstCaps *given = direction == GST_PAD_SINK
                       ? gst_texel_convert_bayer_as_raw (caps)
                       : gst_caps_ref (caps);
  GstCaps *any = gst_texel_caps_any_size_format (given);
  GstCaps *result;

  if (gst_texel_convert_reshapes (GST_TEXEL_CONVERT (trans)))
    result = any;
  else
    result = gst_caps_merge (gst_caps_copy (given), any);
  gst_caps_unref (given);
  if (direction == GST_PAD_SINK)
    return gst_texel_base_finish_caps (trans, direction, caps, result, filter);
  /* The Bayer twins once the memories are settled: in system memory
   * whatever the output's (gst_texel_convert_bayer_append). */
  result = gst_texel_base_finish_caps (trans, direction, caps, result, NULL);
  return gst_texel_caps_filtered (gst_texel_convert_bayer_append (result),
                                  filter);
}

/* The size of a @in_w x @in_h input once cropped, at least 1x1; FALSE when
 * the crops leave nothing. In 64 bits: each crop may be up to G_MAXINT.
 * Object lock held. */
static gboolean
gst_texel_convert_cropped_size (GstTexelConvert *self, gint in_w, gint in_h,
                                gint *w, gint *h)
{
  gint64 cw = (gint64)in_w - self->crop[0] - self->crop[1];
  gint64 ch = (gint64)in_h - self->crop[2] - self->crop[3];

  *w = (gint)MAX (cw, 1);
  *h = (gint)MAX (ch, 1);
  return cw > 0 && ch > 0;
}

/* The picture that reaches the output: the input once cropped and
 * rotated, its pixel aspect ratio turned with it. */
static gboolean
gst_texel_convert_source_shape (GstTexelConvert *self, GstStructure *ins,
                                GstTexelSourceShape *src)
{
  gint w = 1, h = 1;

  src->par_n = src->par_d = 1;
  gst_structure_get_int (ins, "width", &w);
  gst_structure_get_int (ins, "height", &h);
  gst_structure_get_fraction (ins, "pixel-aspect-ratio", &src->par_n,
                              &src->par_d);
  GST_OBJECT_LOCK (self);
  gst_texel_convert_cropped_size (self, w, h, &src->w, &src->h);
  if (gst_texel_direction_swaps (gst_texel_convert_direction (self)))
    {
      gint t = src->w;

      src->w = src->h;
      src->h = t;
      t = src->par_n;
      src->par_n = src->par_d;
      src->par_d = t;
    }
  GST_OBJECT_UNLOCK (self);
  return gst_texel_caps_source_shape (src);
}

/* Fixates width, height and pixel-aspect-ratio of the output as videoscale
 * does, for the cropped and rotated picture (output caps only): where all
 * three end up fixed by downstream and the display aspect ratio differs,
 * prepare letterboxes (add-borders) or stretches. */
static void
gst_texel_convert_fixate_size (GstBaseTransform *trans,
                               GstPadDirection direction, GstStructure *ins,
                               GstStructure *outs)
{
  GstTexelSourceShape src;

  if (direction != GST_PAD_SINK)
    return;
  if (!gst_texel_convert_source_shape (GST_TEXEL_CONVERT (trans), ins, &src))
    {
      GST_WARNING_OBJECT (trans,
                          "display aspect ratio of %" GST_PTR_FORMAT
                          " overflows: size left to the defaults",
                          ins);
      return;
    }
  gst_texel_caps_fixate_size (outs, &src);
}

static GstCaps *
gst_texel_convert_fixate_caps (GstBaseTransform *trans,
                               GstPadDirection direction, GstCaps *caps,
                               GstCaps *othercaps)
{
  othercaps = gst_texel_colorimetry_fixate_caps (
      trans, direction, caps, othercaps, gst_texel_convert_fixate_size);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

/* Letterbox: the largest rectangle of the output with the source's
 * display aspect ratio, centred. */
static void
gst_texel_convert_letterbox (TexelConvertConfig *cfg, gboolean swaps,
                             const GstVideoInfo *in, const GstVideoInfo *out)
{
  gdouble src_dar = (gdouble)(swaps ? cfg->src_h : cfg->src_w)
                    * (swaps ? in->par_d : in->par_n)
                    / ((gdouble)(swaps ? cfg->src_w : cfg->src_h)
                       * (swaps ? in->par_n : in->par_d));
  gdouble out_par = (gdouble)out->par_n / out->par_d;
  gint ow = GST_VIDEO_INFO_WIDTH (out), oh = GST_VIDEO_INFO_HEIGHT (out);
  gint w = (gint)lround (oh * src_dar / out_par);

  if (w <= ow)
    {
      cfg->dst_w = MAX (1, w);
      cfg->dst_h = oh;
    }
  else
    {
      cfg->dst_w = ow;
      cfg->dst_h = MAX (1, (gint)lround (ow * out_par / src_dar));
      cfg->dst_h = MIN (cfg->dst_h, oh);
    }
  cfg->dst_x = (ow - cfg->dst_w) / 2;
  cfg->dst_y = (oh - cfg->dst_h) / 2;
}

/* Whether some component of @info's format is stored subsampled. */
static gboolean
gst_texel_convert_has_subsampling (const GstVideoInfo *info)
{
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if (GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, c) != 0
        || GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, c) != 0)
      return TRUE;
  return FALSE;
}

/* Raw Bayer caps reach the base class (GstVideoFilter) as the GRAY8 or
 * GRAY16_LE caps of the same frames; the mosaic is remembered for
 * prepare. */
static gboolean
gst_texel_convert_set_caps (GstBaseTransform *trans, GstCaps *incaps,
                            GstCaps *outcaps)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (trans);
  GstCaps *stand_in;
  gboolean ret;

  self->bayer_pattern = TEXEL_BAYER_NONE;
  if (!gst_texel_convert_bayer_caps (incaps, &self->bayer_pattern,
                                     &self->bayer_bits))
    return GST_BASE_TRANSFORM_CLASS (gst_texel_convert_parent_class)
        ->set_caps (trans, incaps, outcaps);
  stand_in = gst_texel_convert_bayer_stand_in (incaps, self->bayer_bits);
  ret = GST_BASE_TRANSFORM_CLASS (gst_texel_convert_parent_class)
            ->set_caps (trans, stand_in, outcaps);
  gst_caps_unref (stand_in);
  return ret;
}

/* No pool or video meta is proposed for raw Bayer input: GstVideoMeta
 * cannot describe a mosaic (upstream's own frames would disagree with
 * it: videotestsrc then fails to map its buffers). */
static gboolean
gst_texel_convert_propose_allocation (GstBaseTransform *trans,
                                      GstQuery *decide_query, GstQuery *query)
{
  if (GST_TEXEL_CONVERT (trans)->bayer_pattern != TEXEL_BAYER_NONE)
    return FALSE;
  return GST_BASE_TRANSFORM_CLASS (gst_texel_convert_parent_class)
      ->propose_allocation (trans, decide_query, query);
}

static gboolean
gst_texel_convert_prepare (GstTexelBase *base, GstVideoInfo *in,
                           GstVideoInfo *out)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (base);
  TexelConvertConfig cfg = { 0 };
  GstVideoOrientationMethod dir;
  gboolean add_borders, swaps, one_to_one;
  gint crop[4], in_w = GST_VIDEO_INFO_WIDTH (in);
  gint in_h = GST_VIDEO_INFO_HEIGHT (in);
  guint argb;
  const gchar *error = NULL;
  gboolean cropped;
  TexelBayerConfig bayer;
  gint awb_gather;
  guint64 awb_tag;
  unsigned long long *awb_cpu_sums;

  GST_OBJECT_LOCK (self);
  memcpy (crop, self->crop, sizeof (crop));
  cropped = gst_texel_convert_cropped_size (self, in_w, in_h, &cfg.src_w,
                                            &cfg.src_h);
  dir = gst_texel_convert_direction (self);
  add_borders = self->add_borders;
  argb = self->border_color;
  cfg.method = self->method;
  GST_OBJECT_UNLOCK (self);

  if (!cropped)
    {
      GST_ELEMENT_ERROR (
          self, STREAM, FORMAT,
          ("Cropping leaves nothing of a %dx%d frame: crop-left=%d "
           "crop-right=%d crop-top=%d crop-bottom=%d",
           in_w, in_h, crop[0], crop[1], crop[2], crop[3]),
          (NULL));
      return FALSE;
    }
  cfg.src_x = crop[0];
  cfg.src_y = crop[2];
  cfg.dst_w = GST_VIDEO_INFO_WIDTH (out);
  cfg.dst_h = GST_VIDEO_INFO_HEIGHT (out);
  swaps = gst_texel_direction_swaps (dir);
  if (add_borders)
    gst_texel_convert_letterbox (&cfg, swaps, in, out);
  cfg.direction = (TexelDirection)dir;
  gst_texel_colorimetry_from_video (&cfg.in_color, in);
  gst_texel_colorimetry_from_video (&cfg.out_color, out);
  gst_texel_colorimetry_border_rgba (argb, cfg.border_rgba);
  if (self->bayer_pattern != TEXEL_BAYER_NONE)
    {
      if (!gst_texel_convert_bayer_config (self, out, &bayer))
        return FALSE;
      cfg.bayer = &bayer;
    }

  /* Same size after rotation: every output luma sample sits on an input
   * luma sample. Nearest copies it exactly, and so does bilinear, which
   * also interpolates subsampled input chroma at the output's sites; the
   * cubic B-spline would blur the copy, so bilinear stands in for it. */
  one_to_one = cfg.dst_w == (swaps ? cfg.src_h : cfg.src_w)
               && cfg.dst_h == (swaps ? cfg.src_w : cfg.src_h);
  if (one_to_one && cfg.method != TEXEL_METHOD_NEAREST)
    cfg.method = gst_texel_convert_has_subsampling (in) ? TEXEL_METHOD_BILINEAR
                                                        : TEXEL_METHOD_NEAREST;

  /* The fast path's tables belong to the plan being replaced; the frame's
   * own settings (set by before_transform, which may come before a new
   * plan: a property changed) stay. */
  texel_convert_fast_free ((TexelConvertFast *)self->plan.fast);
  self->plan.fast = NULL;
  awb_gather = self->plan.bayer.awb_gather;
  awb_tag = self->plan.bayer.awb_tag;
  awb_cpu_sums = self->plan.bayer.awb_cpu_sums;
  if (texel_convert_plan_init (
          &self->plan, &cfg, gst_texel_base_info_format (in), in_w, in_h,
          gst_texel_base_info_format (out), GST_VIDEO_INFO_WIDTH (out),
          GST_VIDEO_INFO_HEIGHT (out), &error)
      != 0)
    {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
                         ("Cannot convert %s %dx%d to %s %dx%d: %s",
                          GST_VIDEO_INFO_NAME (in), in_w, in_h,
                          GST_VIDEO_INFO_NAME (out), GST_VIDEO_INFO_WIDTH (out),
                          GST_VIDEO_INFO_HEIGHT (out), error),
                         (NULL));
      return FALSE;
    }
  self->plan.bayer.awb_gather = awb_gather && cfg.bayer != NULL;
  self->plan.bayer.awb_tag = awb_tag;
  self->plan.bayer.awb_cpu_sums = cfg.bayer != NULL ? awb_cpu_sums : NULL;
  if (!gst_texel_cpu_reference ())
    self->plan.fast = texel_convert_fast_new (&self->plan);
  gst_texel_convert_bayer_planned (self);
  gst_base_transform_set_passthrough (
      GST_BASE_TRANSFORM (self),
      cfg.bayer == NULL && gst_video_info_is_equal (in, out) && crop[0] == 0
          && crop[1] == 0 && crop[2] == 0 && crop[3] == 0
          && dir == GST_VIDEO_ORIENTATION_IDENTITY);
  gst_texel_base_set_banding (base, self->plan.rows_monotonic);
  GST_INFO_OBJECT (self,
                   "%s %dx%d -> %s %dx%d, source %d,%d %dx%d, "
                   "destination %d,%d %dx%d, method %d, direction %d",
                   GST_VIDEO_INFO_NAME (in), in_w, in_h,
                   GST_VIDEO_INFO_NAME (out), GST_VIDEO_INFO_WIDTH (out),
                   GST_VIDEO_INFO_HEIGHT (out), cfg.src_x, cfg.src_y, cfg.src_w,
                   cfg.src_h, cfg.dst_x, cfg.dst_y, cfg.dst_w, cfg.dst_h,
                   cfg.method, cfg.direction);
  return TRUE;
}

/* Output rows [row0, row1) read input rows between the mapped positions of
 * their edges, plus the filter's reach (bicubic: 2 samples, doubled for
 * subsampled chroma) and that of the chroma footprint's taps (an output
 * row either side). */
static void
gst_texel_convert_input_rows (const TexelConvertPlan *plan, int row0, int row1,
                              int *in_row0, int *in_row1)
{
  double a = plan->map[1][1] * row0 + plan->map[1][2];
  double b = plan->map[1][1] * row1 + plan->map[1][2];
  /* A Bayer input's demosaic reads 2 rows more either side. */
  const int reach = 6 + (int)ceil (fabs (plan->map[1][1]))
                    + (plan->bayer.pattern != TEXEL_BAYER_NONE ? 2 : 0);

  *in_row0 = (int)floor (MIN (a, b)) - reach;
  *in_row1 = (int)ceil (MAX (a, b)) + reach;
}

static const GstTexelKernelDesc gst_texel_convert_kernel = {
  .plan_offset = G_STRUCT_OFFSET (GstTexelConvert, plan),
  /* The reference where the plan has no fast tables. */
  .cpu = GST_TEXEL_KERNEL_CPU (texel_convert_fast),
  .cuda = GST_TEXEL_KERNEL_CUDA (texel_cuda_convert),
  .input_rows = GST_TEXEL_KERNEL_ROWS (gst_texel_convert_input_rows),
  /* The sampler reads a surface array's CUDA arrays through textures and
   * writes them through surfaces. */
  .reads_arrays = TRUE,
};

/* The plan's map, read back for the metas (gst_texel_base_transform_meta):
 * crop, scale, letterbox and direction as the kernels apply them. */
static GstTexelGeometry
gst_texel_convert_geometry (GstTexelBase *base, GstTexelAffine *affine)
{
  const TexelConvertPlan *plan = &GST_TEXEL_CONVERT (base)->plan;

  memcpy (affine->map, plan->map, sizeof (affine->map));
  /* The rectangle's far edges may lie a pixel past the frame (odd
   * chroma, texel_convert_plan_init). */
  affine->x0 = plan->dst_x0;
  affine->y0 = plan->dst_y0;
  affine->x1 = MIN (plan->dst_x1, plan->out_width);
  affine->y1 = MIN (plan->dst_y1, plan->out_height);
  return GST_TEXEL_GEOMETRY_AFFINE;
}

static gboolean
gst_texel_convert_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_TAG)
    {
      GstTagList *tags;
      GstVideoOrientationMethod method;

      gst_event_parse_tag (event, &tags);
      if (gst_video_orientation_from_tag (tags, &method))
        {
          gboolean changed;

          GST_OBJECT_LOCK (self);
          changed = self->tag_direction != method
                    && self->direction == GST_VIDEO_ORIENTATION_AUTO;
          self->tag_direction = method;
          GST_OBJECT_UNLOCK (self);
          if (changed)
            gst_texel_settings_changed (GST_TEXEL_BASE (self),
                                        GST_TEXEL_CHANGE_CAPS, FALSE);
        }
    }
  return GST_BASE_TRANSFORM_CLASS (gst_texel_convert_parent_class)
      ->sink_event (trans, event);
}

/* After the base's (the controller's values for this frame): the
 * automatic white balance of raw Bayer input. */
static void
gst_texel_convert_before_transform (GstBaseTransform *trans, GstBuffer *buffer)
{
  GST_BASE_TRANSFORM_CLASS (gst_texel_convert_parent_class)
      ->before_transform (trans, buffer);
  gst_texel_convert_bayer_awb (GST_TEXEL_CONVERT (trans), buffer);
}

/* A finished frame brings its white balance statistics (gathered by its
 * kernels): into the estimate now, so that the next frame is developed
 * with them. */
static void
gst_texel_convert_frame_finished (GstTexelBase *base)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (base);
  gboolean on;

  GST_OBJECT_LOCK (self);
  on = self->awb;
  GST_OBJECT_UNLOCK (self);
  if (on)
    gst_texel_convert_bayer_awb_collect (self);
}

/* Each run starts its white balance afresh. */
static gboolean
gst_texel_convert_start (GstBaseTransform *trans)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (trans);

  GST_OBJECT_LOCK (self);
  gst_texel_convert_bayer_awb_reset (self);
  GST_OBJECT_UNLOCK (self);
  return GST_BASE_TRANSFORM_CLASS (gst_texel_convert_parent_class)
      ->start (trans);
}

static void
gst_texel_convert_set_property (GObject *object, guint prop_id,
                                const GValue *value, GParamSpec *pspec)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (object);
  GstTexelChange change = GST_TEXEL_CHANGE_CAPS;
  gboolean neutral;

  GST_OBJECT_LOCK (self);
  if (gst_texel_convert_bayer_set_property (self, prop_id, value))
    prop_id = PROP_0;
  switch (prop_id)
    {
      case PROP_0: /* raw development, set above */
        change = GST_TEXEL_CHANGE_PLAN;
        break;
      case PROP_METHOD:
        self->method = g_value_get_enum (value);
        change = GST_TEXEL_CHANGE_PLAN;
        break;
      case PROP_CROP_LEFT:
      case PROP_CROP_RIGHT:
      case PROP_CROP_TOP:
      case PROP_CROP_BOTTOM:
        self->crop[prop_id - PROP_CROP_LEFT] = g_value_get_int (value);
        break;
      case PROP_ADD_BORDERS:
        self->add_borders = g_value_get_boolean (value);
        break;
      case PROP_BORDER_COLOR:
        self->border_color = g_value_get_uint (value);
        change = GST_TEXEL_CHANGE_PLAN;
        break;
      case PROP_VIDEO_DIRECTION:
        /* There is no matrix to take for custom: refused rather than taken
         * silently as identity. */
        if (g_value_get_enum (value) == GST_VIDEO_ORIENTATION_CUSTOM)
          g_warning ("%s: video-direction=custom is not supported (no custom "
                     "matrix): the direction stays as it was",
                     GST_OBJECT_NAME (self));
        else
          self->direction = g_value_get_enum (value);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        change = GST_TEXEL_CHANGE_PLAN;
        break;
    }
  neutral = gst_texel_convert_is_identity (self);
  GST_OBJECT_UNLOCK (self);
  gst_texel_settings_changed (GST_TEXEL_BASE (self), change, neutral);
}

static void
gst_texel_convert_get_property (GObject *object, guint prop_id, GValue *value,
                                GParamSpec *pspec)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (object);

  GST_OBJECT_LOCK (self);
  if (gst_texel_convert_bayer_get_property (self, prop_id, value))
    prop_id = PROP_0;
  switch (prop_id)
    {
      case PROP_0:
        break;
      case PROP_METHOD:
        g_value_set_enum (value, self->method);
        break;
      case PROP_CROP_LEFT:
      case PROP_CROP_RIGHT:
      case PROP_CROP_TOP:
      case PROP_CROP_BOTTOM:
        g_value_set_int (value, self->crop[prop_id - PROP_CROP_LEFT]);
        break;
      case PROP_ADD_BORDERS:
        g_value_set_boolean (value, self->add_borders);
        break;
      case PROP_BORDER_COLOR:
        g_value_set_uint (value, self->border_color);
        break;
      case PROP_VIDEO_DIRECTION:
        g_value_set_enum (value, self->direction);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_texel_convert_install_crop (GObjectClass *gobject_class, guint prop,
                                const gchar *name, const gchar *nick,
                                const gchar *side)
{
  gchar *blurb = g_strdup_printf ("Pixels to remove at the %s of the input "
                                  "before scaling",
                                  side);

  /* Without G_PARAM_STATIC_BLURB the param spec keeps its own copy. */
  g_object_class_install_property (
      gobject_class, prop,
      g_param_spec_int (name, nick, blurb, 0, G_MAXINT, 0,
                        G_PARAM_READWRITE | G_PARAM_STATIC_NAME
                            | G_PARAM_STATIC_NICK | GST_PARAM_CONTROLLABLE
                            | GST_PARAM_MUTABLE_PLAYING));
  g_free (blurb);
}

static void
gst_texel_convert_finalize (GObject *object)
{
  GstTexelConvert *self = GST_TEXEL_CONVERT (object);

  texel_convert_fast_free ((TexelConvertFast *)self->plan.fast);
  G_OBJECT_CLASS (gst_texel_convert_parent_class)->finalize (object);
}

static void
gst_texel_convert_class_init (GstTexelConvertClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstTexelBaseClass *base_class = GST_TEXEL_BASE_CLASS (klass);
  const GParamFlags rw
      = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_texel_convert_set_property;
  gobject_class->get_property = gst_texel_convert_get_property;
  gobject_class->finalize = gst_texel_convert_finalize;

  g_object_class_install_property (
      gobject_class, PROP_METHOD,
      g_param_spec_enum (
          "method", "Method",
          "Sampling method for scaling "
          "(a 1:1 geometry copies luma and full-resolution components "
          "exactly; subsampled input chroma is still interpolated at its "
          "sites, linearly for bilinear and bicubic)",
          GST_TYPE_TEXEL_METHOD, DEFAULT_METHOD, rw));
  gst_texel_convert_install_crop (gobject_class, PROP_CROP_LEFT, "crop-left",
                                  "Crop left", "left");
  gst_texel_convert_install_crop (gobject_class, PROP_CROP_RIGHT, "crop-right",
                                  "Crop right", "right");
  gst_texel_convert_install_crop (gobject_class, PROP_CROP_TOP, "crop-top",
                                  "Crop top", "top");
  gst_texel_convert_install_crop (gobject_class, PROP_CROP_BOTTOM,
                                  "crop-bottom", "Crop bottom", "bottom");
  g_object_class_install_property (
      gobject_class, PROP_ADD_BORDERS,
      g_param_spec_boolean (
          "add-borders", "Add borders",
          "Letterbox: keep the display aspect ratio, filling the rest with "
          "border-color",
          DEFAULT_ADD_BORDERS, rw));
  g_object_class_install_property (
      gobject_class, PROP_BORDER_COLOR,
      g_param_spec_uint ("border-color", "Border color",
                         "Colour of the letterbox borders as 0xAARRGGBB", 0,
                         G_MAXUINT32, DEFAULT_BORDER_COLOR,
                         rw | GST_PARAM_CONTROLLABLE));
  /* GstVideoDirection's property, installed here rather than overridden:
   * its type is the interface's, but the blurb says what each value does
   * and the flags say it can change while PLAYING. */
  g_object_class_install_property (
      gobject_class, PROP_VIDEO_DIRECTION,
      g_param_spec_enum (
          "video-direction", "Video direction",
          "Rotation and flips, from the next frame: identity (none), 90r "
          "(90 degrees clockwise), 180, 90l (90 degrees counter-clockwise), "
          "horiz (mirrored left to right), vert (upside down), ul-lr "
          "(flipped about the upper-left/lower-right diagonal), ur-ll "
          "(flipped about the upper-right/lower-left diagonal), auto (as the "
          "stream's image-orientation tag says); custom is refused",
          GST_TYPE_VIDEO_ORIENTATION_METHOD, DEFAULT_VIDEO_DIRECTION,
          rw | GST_PARAM_CONTROLLABLE));
  gst_texel_convert_bayer_install (gobject_class);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (
      element_class, "Texel video converter",
      "Filter/Converter/Video/Scaler/Hardware",
      "Converts colour space, scales, crops, letterboxes and flips video on "
      "an NVIDIA GPU (zero-copy on Jetson), or on the CPU without one",
      "gst-texel developers");

  trans_class->transform_caps
      = GST_DEBUG_FUNCPTR (gst_texel_convert_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_texel_convert_fixate_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_texel_convert_sink_event);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_texel_convert_set_caps);
  trans_class->before_transform
      = GST_DEBUG_FUNCPTR (gst_texel_convert_before_transform);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_texel_convert_start);

  trans_class->propose_allocation
      = GST_DEBUG_FUNCPTR (gst_texel_convert_propose_allocation);
  trans_class->passthrough_on_same_caps = FALSE;

  base_class->prepare = GST_DEBUG_FUNCPTR (gst_texel_convert_prepare);
  base_class->kernel = &gst_texel_convert_kernel;
  base_class->frame_finished
      = GST_DEBUG_FUNCPTR (gst_texel_convert_frame_finished);
  base_class->geometry = GST_DEBUG_FUNCPTR (gst_texel_convert_geometry);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_METHOD, 0);
}

static void
gst_texel_convert_init (GstTexelConvert *self)
{
  self->method = DEFAULT_METHOD;
  self->add_borders = DEFAULT_ADD_BORDERS;
  self->border_color = DEFAULT_BORDER_COLOR;
  self->direction = DEFAULT_VIDEO_DIRECTION;
  self->tag_direction = GST_VIDEO_ORIENTATION_IDENTITY;
  gst_texel_convert_bayer_init (self);
}
