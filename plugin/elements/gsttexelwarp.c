/* gst-texel: texelwarp
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-texelwarp
 * @title: texelwarp
 *
 * Warps video frames geometrically: removes lens distortion (OpenCV's
 * pinhole model with radial, tangential and rational terms), dewarps
 * fisheye lenses (OpenCV's equidistant Kannala-Brandt model) into a
 * rectilinear view that can be panned, tilted and zoomed (electronic
 * pan-tilt-zoom) or into an equirectangular panorama
 * (#GstTexelWarp:projection), and rotates, zooms, pans or applies a
 * homography
 * (keystone correction, bird's-eye views). On an NVIDIA GPU with CUDA each
 * output pixel's source position is computed in the kernel (or, where
 * that costs more than a memory read, as for fisheye lenses, read from a
 * map computed once per set of properties, from the second frame on) and
 * sampled through a texture with hardware filtering. Without a usable GPU
 * the CPU path computes the same map once per set of properties, in
 * double precision, and a frame is one gather pass over it (nearest gives
 * the double-precision reference's codes, bilinear within 1 code of them)
 * where the format is the same in and out with the same colorimetry;
 * bicubic, P010 and conversions run the reference itself, slower
 * (GST_TEXEL_CPU=reference forces it). The output size and format come from
 * the caps: the warp also converts colour and scales in the same pass,
 * like texelconvert.
 *
 * The camera comes from #GstTexelWarp:calibration-file (OpenCV
 * FileStorage or ROS camera_info YAML), or from #GstTexelWarp:fx,
 * #GstTexelWarp:fy, #GstTexelWarp:cx, #GstTexelWarp:cy (or
 * #GstTexelWarp:camera-matrix) and the distortion coefficients. The file
 * is read in the streaming thread before the next frame, never inside
 * g_object_set (a FIFO or a hung network mount must not block the
 * application): it must be a regular file of at most 1 MiB, YAML nested at
 * most 16 deep with at most 200000 nodes; a file refused posts one element
 * error naming calibration-file, the file and why. Properties set after
 * calibration-file keep their values; the file sets the rest. A
 * calibration made at another size than the stream's is scaled to it;
 * one of another aspect ratio (more than 1 % apart) is scaled too, with
 * one bus warning naming both sizes per caps (an element error with
 * #GstTexelWarp:calibration-aspect-error).
 *
 * The undistorted rectilinear view's camera (new camera matrix), by
 * #GstTexelWarp:new-camera, when #GstTexelWarp:fov is 0:
 *
 * - auto (default): #GstTexelWarp:new-camera-matrix where one is set and
 *   #GstTexelWarp:alpha was not: a ROS file's projection_matrix (with its
 *   rectification_matrix, #GstTexelWarp:rectification-matrix), exactly
 *   the view of ROS's image_proc (initUndistortRectifyMap (K, D, R, P));
 *   otherwise optimal;
 * - optimal: chosen by #GstTexelWarp:alpha as OpenCV's
 *   getOptimalNewCameraMatrix does (0: only valid pixels, 1: every input
 *   pixel; fisheye: estimateNewCameraMatrixForUndistortRectify's balance);
 * - camera: the camera matrix K itself, the view of OpenCV's
 *   cv2.undistort (img, K, D) and initUndistortRectifyMap (K, D, None, K);
 * - matrix: #GstTexelWarp:new-camera-matrix, as initUndistortRectifyMap
 *   (K, D, R, new-camera-matrix).
 *
 * #GstTexelWarp:fov > 0 gives a centred view of that field of view
 * instead, whatever new-camera says. The new camera and K are in pixels
 * of the calibration frame and scaled with the frame; the rotation
 * #GstTexelWarp:rectification-matrix (R) applies to every view of a
 * camera model. Pixels whose source lies outside the input get
 * #GstTexelWarp:border-mode.
 *
 * Every numeric property can change while PLAYING (from the next frame)
 * and be driven by a #GstController, so that a pipeline can sweep a view.
 * With the default settings and the same caps on both sides the element
 * is passthrough.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! \
 *     texelwarp calibration-file=camera.yaml alpha=0 ! autovideosink
 * ]| Removes the lens distortion of a calibrated USB camera.
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! \
 *     texelwarp calibration-file=left.yaml ! autovideosink
 * ]| Rectifies the left camera of a ROS stereo calibration as image_proc
 * does (its rectification_matrix and projection_matrix).
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! \
 *     texelwarp calibration-file=camera.yaml new-camera=camera ! \
 *     autovideosink
 * ]| The view of OpenCV's cv2.undistort (img, K, D): K kept.
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,width=1920,height=1080 ! \
 *     texelwarp model=fisheye calibration-file=fisheye.yaml fov=90 pan=30 \
 *     tilt=-10 ! video/x-raw,format=NV12,width=1280,height=720 ! autovideosink
 * ]| A 90-degree rectilinear view of a fisheye camera, turned 30 degrees
 * right and 10 down, converted and scaled in the same pass.
 * |[
 * gst-launch-1.0 v4l2src ! texelwarp model=fisheye \
 *     calibration-file=fisheye.yaml projection=equirectangular fov=200 ! \
 *     video/x-raw,width=2000,height=1000 ! autovideosink
 * ]| A 200-degree panorama of a fisheye camera (model=fisheye: an OpenCV
 * file is read as a pinhole calibration otherwise).
 * |[
 * gst-launch-1.0 videotestsrc ! texelwarp rotation=15 scale=1.2 \
 *     border-mode=mirror ! autovideosink
 * ]| Rotates by 15 degrees and zooms in, filling the corners by mirroring.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "elements/gsttexelcolorimetry.h"
#include "elements/gsttexelsettings.h"
#include "elements/gsttexelwarp-private.h"

GST_DEBUG_CATEGORY (gst_texel_warp_debug);
#define GST_CAT_DEFAULT gst_texel_warp_debug

#define DEFAULT_MODEL TEXEL_WARP_MODEL_NONE
#define DEFAULT_PROJECTION TEXEL_PROJECTION_RECTILINEAR
#define DEFAULT_METHOD TEXEL_METHOD_BILINEAR
#define DEFAULT_BORDER_MODE TEXEL_WARP_BORDER_CONSTANT
#define DEFAULT_BORDER_COLOR 0xff000000
#define DEFAULT_CENTRE -1.0
#define DEFAULT_NEW_CAMERA GST_TEXEL_NEW_CAMERA_AUTO

static GstStaticPadTemplate sink_template
    = GST_STATIC_PAD_TEMPLATE ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                               GST_STATIC_CAPS (GST_TEXEL_PROGRESSIVE_CAPS));
static GstStaticPadTemplate src_template
    = GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                               GST_STATIC_CAPS (GST_TEXEL_PROGRESSIVE_CAPS));

G_DEFINE_TYPE_WITH_CODE (GstTexelWarp, gst_texel_warp, GST_TYPE_TEXEL_BASE,
                         GST_DEBUG_CATEGORY_INIT (gst_texel_warp_debug,
                                                  "texelwarp", 0,
                                                  "texelwarp element"));
GST_ELEMENT_REGISTER_DEFINE (texelwarp, "texelwarp", GST_RANK_NONE,
                             GST_TYPE_TEXEL_WARP);

GType
gst_texel_warp_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_WARP_BORDER_CONSTANT, "border-color", "constant" },
          { TEXEL_WARP_BORDER_CLAMP, "The nearest edge pixel", "clamp" },
          { TEXEL_WARP_BORDER_MIRROR, "The input mirrored at its edges",
            "mirror" },
          { TEXEL_WARP_BORDER_WRAP, "The input repeated (tiled)", "wrap" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelBorderMode", values);
}

/* ------------------------------------------------------------------ */
/* Caps */

/* Any size, any format: the warp also converts. The caps as given come
 * first, so that passthrough wins when the warp is the identity. */
static GstCaps *
gst_texel_warp_transform_caps (GstBaseTransform *trans,
                               GstPadDirection direction, GstCaps *caps,
                               GstCaps *filter)
{
  return gst_texel_base_finish_caps (
      trans, direction, caps,
      gst_caps_merge (gst_caps_copy (caps),
                      gst_texel_caps_any_size_format (caps)),
      filter);
}

/* Whether @degrees is a quarter turn (90, 270, ... degrees). */
static gboolean
gst_texel_warp_quarter_turn (gdouble degrees)
{
  return fmod (fabs (degrees), 180.0) == 90.0;
}

/* The input's size (turned for a quarter-turn rotation) and pixel aspect
 * ratio, where downstream leaves them open. */
static void
gst_texel_warp_fixate_size (GstBaseTransform *trans, GstPadDirection direction,
                            GstStructure *ins, GstStructure *outs)
{
  GstTexelWarp *self = GST_TEXEL_WARP (trans);
  gint w = 0, h = 0, par_n = 1, par_d = 1;
  gboolean turn;

  GST_OBJECT_LOCK (self);
  turn = gst_texel_warp_quarter_turn (self->settings.rotation);
  GST_OBJECT_UNLOCK (self);
  if (gst_structure_get_int (ins, "width", &w)
      && gst_structure_get_int (ins, "height", &h))
    {
      gst_structure_fixate_field_nearest_int (outs, "width", turn ? h : w);
      gst_structure_fixate_field_nearest_int (outs, "height", turn ? w : h);
    }
  gst_structure_get_fraction (ins, "pixel-aspect-ratio", &par_n, &par_d);
  if (gst_structure_has_field (outs, "pixel-aspect-ratio"))
    gst_structure_fixate_field_nearest_fraction (
        outs, "pixel-aspect-ratio", turn ? par_d : par_n, turn ? par_n : par_d);
}

static GstCaps *
gst_texel_warp_fixate_caps (GstBaseTransform *trans, GstPadDirection direction,
                            GstCaps *caps, GstCaps *othercaps)
{
  othercaps = gst_texel_colorimetry_fixate_caps (
      trans, direction, caps, othercaps, gst_texel_warp_fixate_size);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

/* ------------------------------------------------------------------ */
/* Frames */

/* Whether @cfg leaves every pixel where it is (output size permitting). */
static gboolean
gst_texel_warp_is_identity (const TexelWarpConfig *cfg)
{
  static const double unit[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

  return cfg->model == TEXEL_WARP_MODEL_NONE && cfg->rotation == 0.0
         && cfg->scale == 1.0 && cfg->offset_x == 0.0 && cfg->offset_y == 0.0
         && memcmp (cfg->homography, unit, sizeof (unit)) == 0;
}

static const gchar *
gst_texel_warp_model_nick (TexelWarpModel model)
{
  GEnumValue *v
      = g_enum_get_value (g_type_class_peek (GST_TYPE_TEXEL_WARP_MODEL), model);

  return v ? v->value_nick : "?";
}

/* The horizontal field of view @cfg's view asks for, in degrees (0 where
 * the lens decides: a rectilinear view from alpha or a matrix). */
static gdouble
gst_texel_warp_view_fov (const TexelWarpConfig *cfg)
{
  if (cfg->projection == TEXEL_PROJECTION_EQUIRECTANGULAR)
    return cfg->fov > 0.0 ? cfg->fov : 180.0;
  return cfg->fov;
}

/* A pinhole lens sees less than 180 degrees: a wider view of one is
 * mostly border, and usually a fisheye calibration read as a pinhole
 * (the model of an OpenCV file is not in it). One warning per model and
 * field of view, not per frame or per caps. */
static void
gst_texel_warp_check_lens_reach (GstTexelWarp *self, const TexelWarpConfig *cfg)
{
  gdouble fov = gst_texel_warp_view_fov (cfg);

  if (cfg->model != TEXEL_WARP_MODEL_PINHOLE || fov < 180.0)
    {
      self->reach_warned_fov = 0.0;
      return;
    }
  if (fov == self->reach_warned_fov)
    return;
  self->reach_warned_fov = fov;
  GST_ELEMENT_WARNING (
      self, STREAM, FORMAT,
      ("model=pinhole with a %g-degree view: a pinhole lens cannot see 180 "
       "degrees or more, so most of the view stays border (for a fisheye "
       "calibration file, set model=fisheye)",
       fov),
      ("projection=%s fov=%g",
       cfg->projection == TEXEL_PROJECTION_EQUIRECTANGULAR ? "equirectangular"
                                                           : "rectilinear",
       cfg->fov));
}

static gboolean
gst_texel_warp_prepare (GstTexelBase *base, GstVideoInfo *in, GstVideoInfo *out)
{
  GstTexelWarp *self = GST_TEXEL_WARP (base);
  TexelWarpConfig cfg;
  gdouble pending[TEXEL_CALIB_MAX_DISTORTION];
  gint n_pending, in_w = GST_VIDEO_INFO_WIDTH (in);
  gint in_h = GST_VIDEO_INFO_HEIGHT (in);
  const gchar *error = NULL;
  guint argb;
  gboolean identity, strict_aspect;

  if (!gst_texel_warp_read_calibration (self))
    return FALSE;
  GST_OBJECT_LOCK (self);
  cfg = self->settings;
  argb = self->border_color;
  strict_aspect = self->aspect_error;
  n_pending = self->n_pending;
  memcpy (pending, self->pending, sizeof (pending));
  if (!gst_texel_warp_resolve_new_camera (self, &cfg))
    error = "new-camera=matrix: no new-camera-matrix set";
  GST_OBJECT_UNLOCK (self);

  if (error == NULL && cfg.model != TEXEL_WARP_MODEL_NONE)
    {
      error = gst_texel_warp_resolve_camera (&cfg, pending, n_pending, in_w,
                                             in_h);
      if (!gst_texel_warp_check_aspect (self, &cfg.camera, in_w, in_h,
                                        strict_aspect))
        return FALSE;
    }
  if (error)
    {
      GST_ELEMENT_ERROR (
          self, RESOURCE, SETTINGS,
          ("model=%s: %s", gst_texel_warp_model_nick (cfg.model), error),
          (NULL));
      return FALSE;
    }
  gst_texel_warp_check_lens_reach (self, &cfg);
  gst_texel_colorimetry_from_video (&cfg.in_color, in);
  gst_texel_colorimetry_from_video (&cfg.out_color, out);
  gst_texel_colorimetry_border_rgba (argb, cfg.border_rgba);
  /* The fast path's map belongs to the plan being replaced. */
  texel_warp_fast_free (self->plan.fast);
  self->plan.fast = NULL;
  texel_warp_map_mode_from_name (g_getenv ("GST_TEXEL_WARP_MAP"), &cfg.map);
  if (texel_warp_plan_init (&self->plan, &cfg, gst_texel_base_info_format (in),
                            in_w, in_h, gst_texel_base_info_format (out),
                            GST_VIDEO_INFO_WIDTH (out),
                            GST_VIDEO_INFO_HEIGHT (out), &error)
      != 0)
    {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
                         ("Cannot warp %s %dx%d to %s %dx%d: %s",
                          GST_VIDEO_INFO_NAME (in), in_w, in_h,
                          GST_VIDEO_INFO_NAME (out), GST_VIDEO_INFO_WIDTH (out),
                          GST_VIDEO_INFO_HEIGHT (out), error),
                         (NULL));
      return FALSE;
    }
  /* Only the CPU path reads the map: the GPU computes its own. */
  if (!gst_texel_base_is_cuda (base) && !gst_texel_cpu_reference ())
    self->plan.fast = texel_warp_fast_new (&self->plan);
  identity = gst_texel_warp_is_identity (&cfg);
  gst_base_transform_set_passthrough (
      GST_BASE_TRANSFORM (self), identity && gst_video_info_is_equal (in, out));
  /* Output rows read input rows anywhere. */
  gst_texel_base_set_banding (base, FALSE);
  GST_INFO_OBJECT (
      self,
      "%s %dx%d -> %s %dx%d, model %s, new camera "
      "f %g %g c %g %g, rotation %g scale %g offset %g %g, pan %g tilt %g "
      "fov %g, border %d, method %d",
      GST_VIDEO_INFO_NAME (in), in_w, in_h, GST_VIDEO_INFO_NAME (out),
      GST_VIDEO_INFO_WIDTH (out), GST_VIDEO_INFO_HEIGHT (out),
      gst_texel_warp_model_nick (cfg.model), self->plan.new_camera[0][0],
      self->plan.new_camera[1][1], self->plan.new_camera[0][2],
      self->plan.new_camera[1][2], cfg.rotation, cfg.scale, cfg.offset_x,
      cfg.offset_y, cfg.pan, cfg.tilt, cfg.fov, cfg.border_mode, cfg.method);
  return TRUE;
}

/* Any output row may read any input row: no input_rows, and no banding. */
static const GstTexelKernelDesc gst_texel_warp_kernel = {
  .plan_offset = G_STRUCT_OFFSET (GstTexelWarp, plan),
  /* The reference where the plan has no fast map. */
  .cpu = GST_TEXEL_KERNEL_CPU (texel_warp_fast),
  .cuda = GST_TEXEL_KERNEL_CUDA (texel_cuda_warp),
  /* The sampler reads a surface array's CUDA arrays through textures and
   * writes them through surfaces. */
  .reads_arrays = TRUE,
};

/* ------------------------------------------------------------------ */
/* Properties */

/* The double property @prop_id in @cfg. */
static gdouble *
gst_texel_warp_double (TexelWarpConfig *cfg, guint prop_id)
{
  TexelCamera *cam = &cfg->camera;

  switch (prop_id)
    {
      case PROP_FX:
        return &cam->fx;
      case PROP_FY:
        return &cam->fy;
      case PROP_CX:
        return &cam->cx;
      case PROP_CY:
        return &cam->cy;
      case PROP_K1:
      case PROP_K2:
      case PROP_K3:
      case PROP_K4:
      case PROP_K5:
      case PROP_K6:
        return &cam->k[prop_id - PROP_K1];
      case PROP_P1:
      case PROP_P2:
        return &cam->p[prop_id - PROP_P1];
      case PROP_ALPHA:
        return &cfg->alpha;
      case PROP_FOV:
        return &cfg->fov;
      case PROP_PAN:
        return &cfg->pan;
      case PROP_TILT:
        return &cfg->tilt;
      case PROP_ROTATION:
        return &cfg->rotation;
      case PROP_SCALE:
        return &cfg->scale;
      case PROP_OFFSET_X:
        return &cfg->offset_x;
      case PROP_OFFSET_Y:
        return &cfg->offset_y;
      default:
        return NULL;
    }
}

static gboolean
gst_texel_warp_is_distortion (guint prop_id)
{
  return prop_id >= PROP_K1 && prop_id <= PROP_P2;
}

static void
gst_texel_warp_set_property (GObject *object, guint prop_id,
                             const GValue *value, GParamSpec *pspec)
{
  GstTexelWarp *self = GST_TEXEL_WARP (object);
  gdouble *setting;
  gboolean identity;

  switch (prop_id)
    {
      case PROP_MODEL:
        GST_OBJECT_LOCK (self);
        self->settings.model = g_value_get_enum (value);
        GST_OBJECT_UNLOCK (self);
        break;
      case PROP_PROJECTION:
        GST_OBJECT_LOCK (self);
        self->settings.projection = g_value_get_enum (value);
        GST_OBJECT_UNLOCK (self);
        break;
      case PROP_CALIBRATION_FILE:
        gst_texel_warp_set_calibration_file (self, g_value_get_string (value));
        break;
      case PROP_CALIBRATION_ASPECT_ERROR:
        GST_OBJECT_LOCK (self);
        self->aspect_error = g_value_get_boolean (value);
        GST_OBJECT_UNLOCK (self);
        break;
      case PROP_NEW_CAMERA:
        GST_OBJECT_LOCK (self);
        self->new_camera = g_value_get_enum (value);
        GST_OBJECT_UNLOCK (self);
        break;
      case PROP_NEW_CAMERA_MATRIX:
        gst_texel_warp_set_new_camera_matrix (self, value);
        break;
      case PROP_RECTIFICATION_MATRIX:
        gst_texel_warp_set_rectification (self, value);
        break;
      case PROP_CAMERA_MATRIX:
        gst_texel_warp_set_camera_matrix (self, value);
        break;
      case PROP_DISTORTION:
        gst_texel_warp_set_distortion (self, value);
        break;
      case PROP_HOMOGRAPHY:
        gst_texel_warp_set_homography (self, value);
        break;
      case PROP_BORDER_MODE:
        GST_OBJECT_LOCK (self);
        self->settings.border_mode = g_value_get_enum (value);
        GST_OBJECT_UNLOCK (self);
        break;
      case PROP_BORDER_COLOR:
        GST_OBJECT_LOCK (self);
        self->border_color = g_value_get_uint (value);
        GST_OBJECT_UNLOCK (self);
        break;
      case PROP_METHOD:
        GST_OBJECT_LOCK (self);
        self->settings.method = g_value_get_enum (value);
        GST_OBJECT_UNLOCK (self);
        break;
      default:
        if (gst_texel_warp_double (&self->settings, prop_id) == NULL)
          {
            G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
            return;
          }
        if (!gst_texel_settings_valid (object, value, pspec))
          return;
        GST_OBJECT_LOCK (self);
        self->alpha_set |= prop_id == PROP_ALPHA;
        if (gst_texel_warp_is_distortion (prop_id))
          {
            gst_texel_warp_settle_distortion (self, &self->settings.camera);
            self->n_pending = 0;
          }
        setting = gst_texel_warp_double (&self->settings, prop_id);
        *setting = g_value_get_double (value);
        GST_OBJECT_UNLOCK (self);
        break;
    }

  GST_OBJECT_LOCK (self);
  /* The file's values win over those set before it, not after. */
  if (self->calibration_reload && prop_id != PROP_CALIBRATION_FILE)
    self->overridden |= prop_id == PROP_CAMERA_MATRIX
                            ? PROP_BIT (PROP_FX) | PROP_BIT (PROP_FY)
                                  | PROP_BIT (PROP_CX) | PROP_BIT (PROP_CY)
                            : PROP_BIT (prop_id);
  /* A file not read yet, or refused, is no identity: prepare must run. */
  identity = gst_texel_warp_is_identity (&self->settings)
             && !self->calibration_reload && self->calibration_error == NULL;
  GST_OBJECT_UNLOCK (self);
  gst_texel_settings_changed (GST_TEXEL_BASE (self), GST_TEXEL_CHANGE_PLAN,
                              identity);
}

static void
gst_texel_warp_get_property (GObject *object, guint prop_id, GValue *value,
                             GParamSpec *pspec)
{
  GstTexelWarp *self = GST_TEXEL_WARP (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id)
    {
      case PROP_MODEL:
        g_value_set_enum (value, self->settings.model);
        break;
      case PROP_PROJECTION:
        g_value_set_enum (value, self->settings.projection);
        break;
      case PROP_CALIBRATION_FILE:
        g_value_set_string (value, self->calibration_file);
        break;
      case PROP_CALIBRATION_ASPECT_ERROR:
        g_value_set_boolean (value, self->aspect_error);
        break;
      case PROP_NEW_CAMERA:
        g_value_set_enum (value, self->new_camera);
        break;
      case PROP_NEW_CAMERA_MATRIX:
        if (self->has_new_camera_matrix)
          gst_texel_warp_set_array (value,
                                    &self->settings.new_camera_matrix[0][0], 9);
        break;
      case PROP_RECTIFICATION_MATRIX:
        gst_texel_warp_set_array (value, &self->settings.rectification[0][0],
                                  9);
        break;
      case PROP_CAMERA_MATRIX:
        gst_texel_warp_get_camera_matrix (self, value);
        break;
      case PROP_DISTORTION:
        gst_texel_warp_get_distortion (self, value);
        break;
      case PROP_HOMOGRAPHY:
        gst_texel_warp_set_array (value, &self->settings.homography[0][0], 9);
        break;
      case PROP_BORDER_MODE:
        g_value_set_enum (value, self->settings.border_mode);
        break;
      case PROP_BORDER_COLOR:
        g_value_set_uint (value, self->border_color);
        break;
      case PROP_METHOD:
        g_value_set_enum (value, self->settings.method);
        break;
      default:
        {
          /* A pending distortion shows as the model reads it. */
          TexelWarpConfig view = self->settings;
          gdouble *setting = gst_texel_warp_double (&view, prop_id);

          if (setting == NULL)
            {
              G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
              break;
            }
          if (gst_texel_warp_is_distortion (prop_id))
            gst_texel_warp_settle_distortion (self, &view.camera);
          g_value_set_double (value, *setting);
          break;
        }
    }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_texel_warp_finalize (GObject *object)
{
  GstTexelWarp *self = GST_TEXEL_WARP (object);

  texel_warp_fast_free (self->plan.fast);
  g_free (self->calibration_file);
  g_free (self->calibration_error);
  G_OBJECT_CLASS (gst_texel_warp_parent_class)->finalize (object);
}

/* ------------------------------------------------------------------ */
/* Class */

typedef struct
{
  guint prop;
  const gchar *name, *nick, *blurb;
  gdouble min, max, def;
} DoubleProperty;

static void
gst_texel_warp_install_doubles (GObjectClass *gobject_class)
{
  const gdouble k = TEXEL_WARP_COEF_MAX, f = TEXEL_WARP_FOCAL_MAX;
  const DoubleProperty props[] = {
    { PROP_FX, "fx", "fx",
      "Camera focal length along x, in pixels of the "
      "calibration frame (0: none set)",
      0, f, 0 },
    { PROP_FY, "fy", "fy",
      "Camera focal length along y, in pixels of the "
      "calibration frame (0: none set)",
      0, f, 0 },
    { PROP_CX, "cx", "cx",
      "Principal point x, in pixels of the calibration "
      "frame, pixel centres at integers (OpenCV; negative: the frame's "
      "centre)",
      -1, f, DEFAULT_CENTRE },
    { PROP_CY, "cy", "cy",
      "Principal point y, in pixels of the calibration "
      "frame, pixel centres at integers (OpenCV; negative: the frame's "
      "centre)",
      -1, f, DEFAULT_CENTRE },
    { PROP_K1, "k1", "k1",
      "Radial distortion k1 (pinhole r^2, fisheye "
      "theta^3)",
      -k, k, 0 },
    { PROP_K2, "k2", "k2",
      "Radial distortion k2 (pinhole r^4, fisheye "
      "theta^5)",
      -k, k, 0 },
    { PROP_K3, "k3", "k3",
      "Radial distortion k3 (pinhole r^6, fisheye "
      "theta^7)",
      -k, k, 0 },
    { PROP_K4, "k4", "k4",
      "Pinhole: rational denominator k4 (r^2); "
      "fisheye: theta^9",
      -k, k, 0 },
    { PROP_K5, "k5", "k5", "Pinhole: rational denominator k5 (r^4)", -k, k, 0 },
    { PROP_K6, "k6", "k6", "Pinhole: rational denominator k6 (r^6)", -k, k, 0 },
    { PROP_P1, "p1", "p1", "Pinhole: tangential distortion p1", -k, k, 0 },
    { PROP_P2, "p2", "p2", "Pinhole: tangential distortion p2", -k, k, 0 },
    { PROP_ALPHA, "alpha", "Alpha",
      "Undistorted view's scale when fov is 0 "
      "and new-camera optimal (or auto: setting alpha chooses it), as "
      "OpenCV's getOptimalNewCameraMatrix: 0 keeps only valid pixels, 1 "
      "keeps every input pixel",
      0, 1, 0 },
    { PROP_FOV, "fov", "Field of view",
      "Horizontal field of view of the "
      "undistorted view in degrees: rectilinear up to 179 (0: from "
      "alpha), equirectangular up to 360 (0: 180)",
      0, TEXEL_WARP_EQUIRECT_FOV_MAX, 0 },
    { PROP_PAN, "pan", "Pan", "Turns the view right (degrees; camera models)",
      -180, 180, 0 },
    { PROP_TILT, "tilt", "Tilt", "Turns the view up (degrees; camera models)",
      -180, 180, 0 },
    { PROP_ROTATION, "rotation", "Rotation",
      "Rotates the picture clockwise "
      "about the output's centre (degrees)",
      -360, 360, 0 },
    { PROP_SCALE, "scale", "Scale",
      "Zoom about the output's centre (> 1 "
      "magnifies)",
      TEXEL_WARP_SCALE_MIN, TEXEL_WARP_SCALE_MAX, 1 },
    { PROP_OFFSET_X, "offset-x", "Offset x",
      "Pan: the output's centre shows "
      "the point this many frame widths right of the picture's centre",
      -TEXEL_WARP_OFFSET_MAX, TEXEL_WARP_OFFSET_MAX, 0 },
    { PROP_OFFSET_Y, "offset-y", "Offset y",
      "Pan: the output's centre shows "
      "the point this many frame heights below the picture's centre",
      -TEXEL_WARP_OFFSET_MAX, TEXEL_WARP_OFFSET_MAX, 0 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++)
    g_object_class_install_property (
        gobject_class, props[i].prop,
        g_param_spec_double (props[i].name, props[i].nick, props[i].blurb,
                             props[i].min, props[i].max, props[i].def,
                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
                                 | GST_PARAM_CONTROLLABLE
                                 | GST_PARAM_MUTABLE_PLAYING));
}

static GParamSpec *
gst_texel_warp_array_spec (const gchar *name, const gchar *nick,
                           const gchar *blurb)
{
  const GParamFlags rw
      = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;

  return gst_param_spec_array (name, nick, blurb,
                               g_param_spec_double ("value", "Value",
                                                    "One number", -G_MAXDOUBLE,
                                                    G_MAXDOUBLE, 0, rw),
                               rw);
}

/* A lens model or a homography bends straight edges: the base drops the
 * metas that say where things are (a debug line each). */
static GstTexelGeometry
gst_texel_warp_geometry (GstTexelBase *base, GstTexelAffine *affine)
{
  return GST_TEXEL_GEOMETRY_WARPED;
}

static void
gst_texel_warp_class_init (GstTexelWarpClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstTexelBaseClass *base_class = GST_TEXEL_BASE_CLASS (klass);
  const GParamFlags rw
      = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_texel_warp_set_property;
  gobject_class->get_property = gst_texel_warp_get_property;
  gobject_class->finalize = gst_texel_warp_finalize;

  g_object_class_install_property (
      gobject_class, PROP_MODEL,
      g_param_spec_enum ("model", "Model", "Lens model of the input",
                         GST_TYPE_TEXEL_WARP_MODEL, DEFAULT_MODEL, rw));
  g_object_class_install_property (
      gobject_class, PROP_PROJECTION,
      g_param_spec_enum ("projection", "Projection",
                         "Projection of the undistorted view (camera models)",
                         GST_TYPE_TEXEL_PROJECTION, DEFAULT_PROJECTION, rw));
  g_object_class_install_property (
      gobject_class, PROP_CALIBRATION_FILE,
      g_param_spec_string (
          "calibration-file", "Calibration file",
          "Camera calibration (OpenCV FileStorage or ROS camera_info YAML, "
          "a regular file of at most 1 MiB): sets the camera matrix, the "
          "distortion, the calibration size, rectification-matrix, "
          "new-camera-matrix (ROS P) and (ROS) the model, except those set "
          "after it; read in the streaming thread before the next frame",
          NULL, rw));
  g_object_class_install_property (
      gobject_class, PROP_CALIBRATION_ASPECT_ERROR,
      g_param_spec_boolean (
          "calibration-aspect-error", "Calibration aspect error",
          "A calibration of another aspect ratio than the stream's (more "
          "than 1 % apart) is an element error instead of a warning",
          FALSE, rw));
  g_object_class_install_property (
      gobject_class, PROP_NEW_CAMERA,
      g_param_spec_enum (
          "new-camera", "New camera",
          "Camera of the undistorted rectilinear view when fov is 0",
          GST_TYPE_TEXEL_NEW_CAMERA, DEFAULT_NEW_CAMERA, rw));
  g_object_class_install_property (
      gobject_class, PROP_NEW_CAMERA_MATRIX,
      gst_texel_warp_array_spec (
          "new-camera-matrix", "New camera matrix",
          "The undistorted view's camera for new-camera=matrix (and auto), "
          "as OpenCV's newCameraMatrix in pixels of the calibration frame, "
          "row by row: <fx, 0, cx, 0, fy, cy, 0, 0, 1>; set by a ROS file's "
          "projection_matrix; <> unsets it; skew, another last row or fx, fy "
          "outside (0, 1e6] refused"));
  g_object_class_install_property (
      gobject_class, PROP_RECTIFICATION_MATRIX,
      gst_texel_warp_array_spec (
          "rectification-matrix", "Rectification matrix",
          "Rotation R from the camera to the "
          "undistorted view, row by row, as OpenCV's initUndistortRectifyMap "
          "and ROS's rectification_matrix (camera models; set by the "
          "calibration file); a singular one is an element error"));
  g_object_class_install_property (
      gobject_class, PROP_CAMERA_MATRIX,
      gst_texel_warp_array_spec (
          "camera-matrix", "Camera matrix",
          "fx, fy, cx and cy as OpenCV's 3x3 matrix, row by row: <fx, 0, cx, "
          "0, fy, cy, 0, 0, 1>; the default <0, 0, -1, 0, 0, -1, 0, 0, 1> "
          "means none set (fx, fy 0: no camera; cx, cy -1: the frame's "
          "centre); skew or another last row refused"));
  g_object_class_install_property (
      gobject_class, PROP_DISTORTION,
      gst_texel_warp_array_spec (
          "distortion", "Distortion",
          "Distortion coefficients in OpenCV's order: pinhole <k1, k2, p1, "
          "p2[, k3[, k4, k5, k6]]>, fisheye <k1, k2, k3, k4>; 4 values mean "
          "k1, k2, p1, p2 or k1..k4 as the model says when the frames come, "
          "whether model is set before or after them"));
  g_object_class_install_property (
      gobject_class, PROP_HOMOGRAPHY,
      gst_texel_warp_array_spec (
          "homography", "Homography",
          "3x3 perspective transform, row by row, from the (undistorted) "
          "picture to the view, in pixels with centres at integers: the "
          "matrix OpenCV's warpPerspective takes (source to destination); 8 "
          "values: h33 is 1; a singular one is an element error"));
  g_object_class_install_property (
      gobject_class, PROP_BORDER_MODE,
      g_param_spec_enum (
          "border-mode", "Border mode",
          "What output pixels whose source lies outside the input show",
          GST_TYPE_TEXEL_WARP_BORDER, DEFAULT_BORDER_MODE, rw));
  g_object_class_install_property (
      gobject_class, PROP_BORDER_COLOR,
      g_param_spec_uint ("border-color", "Border color",
                         "Colour of border-mode=constant as 0xAARRGGBB", 0,
                         G_MAXUINT32, DEFAULT_BORDER_COLOR,
                         rw | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (
      gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "Sampling method",
                         GST_TYPE_TEXEL_METHOD, DEFAULT_METHOD, rw));
  gst_texel_warp_install_doubles (gobject_class);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (
      element_class, "Texel geometric warp",
      "Filter/Effect/Converter/Video/Hardware",
      "Removes lens distortion, dewarps fisheye lenses, pans, tilts, zooms, "
      "rotates and applies homographies, converting and scaling in the same "
      "pass, on an NVIDIA GPU, or on the CPU without one",
      "gst-texel developers");

  trans_class->transform_caps
      = GST_DEBUG_FUNCPTR (gst_texel_warp_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_texel_warp_fixate_caps);
  trans_class->passthrough_on_same_caps = FALSE;

  base_class->prepare = GST_DEBUG_FUNCPTR (gst_texel_warp_prepare);
  base_class->kernel = &gst_texel_warp_kernel;
  base_class->geometry = GST_DEBUG_FUNCPTR (gst_texel_warp_geometry);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_WARP_MODEL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_WARP_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_PROJECTION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TEXEL_NEW_CAMERA, 0);
}

static void
gst_texel_warp_init (GstTexelWarp *self)
{
  texel_warp_config_init (&self->settings);
  self->settings.model = DEFAULT_MODEL;
  self->settings.projection = DEFAULT_PROJECTION;
  self->settings.method = DEFAULT_METHOD;
  self->settings.border_mode = DEFAULT_BORDER_MODE;
  self->settings.camera.cx = DEFAULT_CENTRE;
  self->settings.camera.cy = DEFAULT_CENTRE;
  self->new_camera = DEFAULT_NEW_CAMERA;
  self->border_color = DEFAULT_BORDER_COLOR;
  /* The identity until a property says otherwise. */
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
}
