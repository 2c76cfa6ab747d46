/* gst-texel: texelwarp's camera: the calibration file, the matrix and
 * distortion properties, and the camera the plan gets from them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "elements/gsttexelwarp-private.h"
#include "elements/gsttexelsettings.h"

GST_DEBUG_CATEGORY_EXTERN (gst_texel_warp_debug);
#define GST_CAT_DEFAULT gst_texel_warp_debug

GType
gst_texel_warp_model_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_WARP_MODEL_NONE,
            "No lens: rotation, homography, zoom and pan "
            "only",
            "none" },
          { TEXEL_WARP_MODEL_PINHOLE,
            "Pinhole lens: Brown-Conrady k1..k3, p1, p2 "
            "and rational k4..k6 (OpenCV)",
            "pinhole" },
          { TEXEL_WARP_MODEL_FISHEYE,
            "Fisheye lens: equidistant Kannala-Brandt "
            "k1..k4 (OpenCV fisheye)",
            "fisheye" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelWarpModel", values);
}

GType
gst_texel_new_camera_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { GST_TEXEL_NEW_CAMERA_AUTO,
            "new-camera-matrix (a ROS file's "
            "projection_matrix) where set and alpha is not, else optimal",
            "auto" },
          { GST_TEXEL_NEW_CAMERA_OPTIMAL,
            "From alpha: OpenCV's "
            "getOptimalNewCameraMatrix (fisheye: estimateNewCameraMatrixFor"
            "UndistortRectify)",
            "optimal" },
          { GST_TEXEL_NEW_CAMERA_CAMERA,
            "The camera matrix itself, as "
            "cv2.undistort (img, K, D)",
            "camera" },
          { GST_TEXEL_NEW_CAMERA_MATRIX,
            "new-camera-matrix, as "
            "initUndistortRectifyMap (K, D, R, new-camera-matrix)",
            "matrix" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelNewCamera", values);
}

GType
gst_texel_projection_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = { { TEXEL_PROJECTION_RECTILINEAR,
                                         "Rectilinear: a perspective camera "
                                         "(straight lines stay straight)",
                                         "rectilinear" },
                                       { TEXEL_PROJECTION_EQUIRECTANGULAR,
                                         "Equirectangular: a panorama, "
                                         "longitude across and latitude down",
                                         "equirectangular" },
                                       { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelProjection", values);
}

/* A calibration whose aspect ratio differs from the stream's by more than
 * this (relative) is warned about: a sensor mode of the same aspect is
 * scaled silently, another aspect usually means the wrong file. */
#define ASPECT_TOLERANCE 0.01

/* The distortion's properties: a file's coefficients are taken as a whole
 * or not at all. */
#define DISTORTION_BITS                                                        \
  (PROP_BIT (PROP_DISTORTION)                                                  \
   | ((PROP_BIT (PROP_P2) << 1) - PROP_BIT (PROP_K1)))
G_STATIC_ASSERT (PROP_OFFSET_Y < 64);

/* The camera of @cfg for its model: the pending distortion read for it,
 * a principal point left negative put at the frame's centre. Returns NULL
 * or why the camera is unusable. */
const gchar *
gst_texel_warp_resolve_camera (TexelWarpConfig *cfg, const gdouble *pending,
                               gint n_pending, gint in_w, gint in_h)
{
  TexelCamera *cam = &cfg->camera;
  const char *why = NULL;

  if (n_pending > 0
      && texel_calib_set_distortion (cam, cfg->model, pending, n_pending, &why)
             != 0)
    return why;
  if (!(cam->fx > 0.0 && cam->fy > 0.0))
    return "no camera: set calibration-file, camera-matrix, or fx and fy";
  if (cam->cx < 0.0)
    cam->cx = 0.5 * (cam->cal_width ? cam->cal_width : in_w) - 0.5;
  if (cam->cy < 0.0)
    cam->cy = 0.5 * (cam->cal_height ? cam->cal_height : in_h) - 0.5;
  return NULL;
}

/* Takes the file's camera, size, distortion, model, R and P, except what
 * properties set since calibration-file gave. Object lock held. */
static void
gst_texel_warp_apply_calibration (GstTexelWarp *self,
                                  const TexelCalibration *calib)
{
  TexelCamera *cam = &self->settings.camera;
  const guint64 keep = self->overridden;

  if (!(keep & PROP_BIT (PROP_FX)))
    cam->fx = calib->camera_matrix[0][0];
  if (!(keep & PROP_BIT (PROP_FY)))
    cam->fy = calib->camera_matrix[1][1];
  if (!(keep & PROP_BIT (PROP_CX)))
    cam->cx = calib->camera_matrix[0][2];
  if (!(keep & PROP_BIT (PROP_CY)))
    cam->cy = calib->camera_matrix[1][2];
  cam->cal_width = calib->width;
  cam->cal_height = calib->height;
  if (!(keep & DISTORTION_BITS))
    {
      memset (cam->k, 0, sizeof (cam->k));
      memset (cam->p, 0, sizeof (cam->p));
      memcpy (self->pending, calib->distortion, sizeof (calib->distortion));
      self->n_pending = calib->n_distortion;
    }
  /* A ROS file names its model; an OpenCV one is a pinhole unless the
   * element was told fisheye. */
  if (!(keep & PROP_BIT (PROP_MODEL)))
    {
      if (calib->model != TEXEL_WARP_MODEL_NONE)
        self->settings.model = calib->model;
      else if (self->settings.model == TEXEL_WARP_MODEL_NONE)
        self->settings.model = TEXEL_WARP_MODEL_PINHOLE;
    }
  if (!(keep & PROP_BIT (PROP_RECTIFICATION_MATRIX)))
    memcpy (self->settings.rectification, calib->rectification,
            sizeof (calib->rectification));
  if (!(keep & PROP_BIT (PROP_NEW_CAMERA_MATRIX)))
    {
      self->has_new_camera_matrix = calib->has_projection;
      if (calib->has_projection)
        memcpy (self->settings.new_camera_matrix, calib->projection,
                sizeof (calib->projection));
    }
}

/* Reads and parses @path (no lock held: file I/O); returns NULL or why it
 * is refused (g_free). */
static gchar *
gst_texel_warp_parse_file (GstTexelWarp *self, const gchar *path,
                           TexelCalibration *calib)
{
  gchar *data, *why = NULL;
  gsize size;
  char message[256];

  data = gst_texel_read_settings_file (path, TEXEL_CALIB_MAX_SIZE, &size, &why);
  if (data == NULL)
    {
      gchar *cannot = g_strdup_printf ("cannot read it: %s", why);

      g_free (why);
      return cannot;
    }
  if (texel_calib_parse (data, size, calib, message, sizeof (message)) != 0)
    why = g_strdup (message);
  else
    GST_INFO_OBJECT (self,
                     "calibration file %s: %s camera %dx%d, fx %g fy "
                     "%g cx %g cy %g, %d coefficients, R %s, P %s",
                     path, calib->format == TEXEL_CALIB_ROS ? "ROS" : "OpenCV",
                     calib->width, calib->height, calib->camera_matrix[0][0],
                     calib->camera_matrix[1][1], calib->camera_matrix[0][2],
                     calib->camera_matrix[1][2], calib->n_distortion,
                     calib->has_rectification ? "given" : "none",
                     calib->has_projection ? "given" : "none");
  g_free (data);
  return why;
}

/* Reads calibration-file if it was set since the last frame (in the
 * streaming thread: a slow read blocks no application thread). Returns
 * FALSE, having posted why once, while the file is refused. */
gboolean
gst_texel_warp_read_calibration (GstTexelWarp *self)
{
  TexelCalibration calib;
  gchar *path, *why = NULL, *post = NULL;
  gboolean ok;

  GST_OBJECT_LOCK (self);
  path = self->calibration_reload ? g_strdup (self->calibration_file) : NULL;
  self->calibration_reload = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (path)
    why = gst_texel_warp_parse_file (self, path, &calib);

  GST_OBJECT_LOCK (self);
  /* Unless calibration-file changed meanwhile (read at the next frame). */
  if (path && g_strcmp0 (path, self->calibration_file) == 0)
    {
      g_free (self->calibration_error);
      self->calibration_error = why;
      self->calibration_error_posted = FALSE;
      why = NULL;
      if (self->calibration_error == NULL)
        gst_texel_warp_apply_calibration (self, &calib);
    }
  ok = self->calibration_error == NULL;
  if (!ok && !self->calibration_error_posted)
    {
      post = g_strdup (self->calibration_error);
      g_free (path);
      path = g_strdup (self->calibration_file);
      self->calibration_error_posted = TRUE;
    }
  GST_OBJECT_UNLOCK (self);
  if (post)
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
                       ("Invalid calibration file '%s': %s", path, post),
                       ("calibration-file=%s", path));
  g_free (post);
  g_free (why);
  g_free (path);
  return ok;
}

/* A calibration of another aspect ratio than the stream's: posted once
 * per stream and calibration size (scaling to the same aspect, another
 * sensor mode, is right and silent), as a warning or, with
 * calibration-aspect-error, an error. Returns FALSE where refused. */
gboolean
gst_texel_warp_check_aspect (GstTexelWarp *self, const TexelCamera *cam,
                             gint in_w, gint in_h, gboolean strict)
{
  gint sizes[4] = { in_w, in_h, cam->cal_width, cam->cal_height };
  gdouble sx, sy;
  gchar *text;

  if (cam->cal_width <= 0 || cam->cal_height <= 0)
    return TRUE;
  sx = (gdouble)in_w / cam->cal_width;
  sy = (gdouble)in_h / cam->cal_height;
  if (fabs (sx / sy - 1.0) <= ASPECT_TOLERANCE)
    return TRUE;
  if (memcmp (sizes, self->aspect_warned, sizeof (sizes)) == 0
      && self->aspect_warned_strict == strict)
    return !strict;
  memcpy (self->aspect_warned, sizes, sizeof (sizes));
  self->aspect_warned_strict = strict;
  text = g_strdup_printf ("Calibration made at %dx%d used on a %dx%d "
                          "stream: another aspect ratio, x scaled by %g "
                          "and y by %g (is it the right calibration-file?)",
                          cam->cal_width, cam->cal_height, in_w, in_h, sx, sy);
  if (strict)
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", text),
                       ("calibration-aspect-error=true"));
  else
    GST_ELEMENT_WARNING (
        self, STREAM, FORMAT, ("%s", text),
        ("aspect ratios differ by more than %g %%", 100 * ASPECT_TOLERANCE));
  g_free (text);
  return !strict;
}

/* new-camera resolved for the kernels (auto: new-camera-matrix where set,
 * unless alpha was). Returns FALSE for matrix without one. Object lock
 * held. */
gboolean
gst_texel_warp_resolve_new_camera (GstTexelWarp *self, TexelWarpConfig *cfg)
{
  switch (self->new_camera)
    {
      case GST_TEXEL_NEW_CAMERA_AUTO:
        cfg->new_camera = self->has_new_camera_matrix && !self->alpha_set
                              ? TEXEL_NEW_CAMERA_MATRIX
                              : TEXEL_NEW_CAMERA_OPTIMAL;
        return TRUE;
      case GST_TEXEL_NEW_CAMERA_CAMERA:
        cfg->new_camera = TEXEL_NEW_CAMERA_CAMERA;
        return TRUE;
      case GST_TEXEL_NEW_CAMERA_MATRIX:
        cfg->new_camera = TEXEL_NEW_CAMERA_MATRIX;
        return self->has_new_camera_matrix;
      default:
        cfg->new_camera = TEXEL_NEW_CAMERA_OPTIMAL;
        return TRUE;
    }
}

/* Gives the pending distortion (if any) its meaning for the current model
 * before a single coefficient changes. Object lock held. */
void
gst_texel_warp_settle_distortion (GstTexelWarp *self, TexelCamera *cam)
{
  const char *why = NULL;

  if (self->n_pending == 0)
    return;
  /* The counts were checked when set: only a fisheye refuses 5 or 8 (and
   * a file's 12 or 14 with thin-prism terms), and then the coefficients
   * stay as they were. */
  if (texel_calib_set_distortion (cam, self->settings.model, self->pending,
                                  self->n_pending, &why)
      != 0)
    GST_WARNING_OBJECT (self, "distortion: %s", why);
}

/* The numbers of a GstValueArray, each a number GLib can turn into a
 * double (gst-launch writes <1, 0.5> as an int and a double). Returns
 * FALSE, with a warning, when an element is no finite number or the count
 * is not one of @counts (0-terminated): a wrong count is a mistake in the
 * application or the launch line, so it is a g_warning, which gst-launch
 * prints, not only a debug line. */
static gboolean
gst_texel_warp_array_values (GstTexelWarp *self, const gchar *name,
                             const GValue *array, gdouble *values,
                             const guint *counts)
{
  guint n = gst_value_array_get_size (array), i;
  gboolean count_ok = FALSE;
  GString *expected;

  for (i = 0; counts[i]; i++)
    count_ok |= n == counts[i];
  if (!count_ok)
    {
      expected = g_string_new (NULL);
      for (i = 0; counts[i]; i++)
        g_string_append_printf (expected, "%s%u",
                                i == 0          ? ""
                                : counts[i + 1] ? ", "
                                                : " or ",
                                counts[i]);
      g_warning ("%s: %s takes %s values, not %u: the value stays as it was",
                 GST_OBJECT_NAME (self), name, expected->str, n);
      g_string_free (expected, TRUE);
      return FALSE;
    }
  for (i = 0; i < n; i++)
    {
      const GValue *v = gst_value_array_get_value (array, i);
      GValue d = G_VALUE_INIT;

      g_value_init (&d, G_TYPE_DOUBLE);
      if (!g_value_type_transformable (G_VALUE_TYPE (v), G_TYPE_DOUBLE)
          || !g_value_transform (v, &d) || !isfinite (g_value_get_double (&d)))
        {
          GST_WARNING_OBJECT (self,
                              "%s: value %u is not a finite number: "
                              "ignored",
                              name, i);
          g_value_unset (&d);
          return FALSE;
        }
      values[i] = g_value_get_double (&d);
      g_value_unset (&d);
    }
  return TRUE;
}

void
gst_texel_warp_set_array (GValue *array, const gdouble *values, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_DOUBLE);
      g_value_set_double (&v, values[i]);
      gst_value_array_append_and_take_value (array, &v);
    }
}

/* camera-matrix: [fx 0 cx; 0 fy cy; 0 0 1], row by row. */
void
gst_texel_warp_set_camera_matrix (GstTexelWarp *self, const GValue *value)
{
  static const guint nine[] = { 9, 0 };
  gdouble m[9];
  TexelCamera *cam = &self->settings.camera;

  if (!gst_texel_warp_array_values (self, "camera-matrix", value, m, nine))
    return;
  if (m[1] != 0.0 || m[3] != 0.0 || m[6] != 0.0 || m[7] != 0.0 || m[8] != 1.0
      || m[0] < 0.0 || m[4] < 0.0 || m[0] > TEXEL_WARP_FOCAL_MAX
      || m[4] > TEXEL_WARP_FOCAL_MAX)
    {
      GST_WARNING_OBJECT (self, "camera-matrix: not [fx 0 cx 0 fy cy 0 0 1] "
                                "with fx, fy in [0, 1e6]: ignored");
      return;
    }
  GST_OBJECT_LOCK (self);
  cam->fx = m[0];
  cam->cx = m[2];
  cam->fy = m[4];
  cam->cy = m[5];
  GST_OBJECT_UNLOCK (self);
}

void
gst_texel_warp_get_camera_matrix (GstTexelWarp *self, GValue *value)
{
  const TexelCamera *cam = &self->settings.camera;
  gdouble m[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 1 };

  m[0] = cam->fx;
  m[2] = cam->cx;
  m[4] = cam->fy;
  m[5] = cam->cy;
  gst_texel_warp_set_array (value, m, 9);
}

/* distortion, in OpenCV's order: 4, 5, 8 (pinhole) or 4 (fisheye) values;
 * 4 are read for the model in force when the frames come. */
void
gst_texel_warp_set_distortion (GstTexelWarp *self, const GValue *value)
{
  static const guint counts[] = { 4, 5, 8, 0 };
  gdouble d[8];
  guint n = gst_value_array_get_size (value), i;

  if (!gst_texel_warp_array_values (self, "distortion", value, d, counts))
    return;
  for (i = 0; i < n; i++)
    {
      if (fabs (d[i]) > TEXEL_WARP_COEF_MAX)
        {
          GST_WARNING_OBJECT (self, "distortion: |%g| beyond %g: ignored", d[i],
                              TEXEL_WARP_COEF_MAX);
          return;
        }
    }
  GST_OBJECT_LOCK (self);
  memcpy (self->pending, d, n * sizeof (gdouble));
  self->n_pending = (gint)n;
  GST_OBJECT_UNLOCK (self);
}

void
gst_texel_warp_get_distortion (GstTexelWarp *self, GValue *value)
{
  TexelCamera cam = self->settings.camera;
  gdouble d[8];

  if (self->n_pending > 0)
    {
      gst_texel_warp_set_array (value, self->pending, MIN (self->n_pending, 8));
      return;
    }
  if (self->settings.model == TEXEL_WARP_MODEL_FISHEYE)
    {
      gst_texel_warp_set_array (value, cam.k, 4);
      return;
    }
  d[0] = cam.k[0];
  d[1] = cam.k[1];
  d[2] = cam.p[0];
  d[3] = cam.p[1];
  d[4] = cam.k[2];
  d[5] = cam.k[3];
  d[6] = cam.k[4];
  d[7] = cam.k[5];
  gst_texel_warp_set_array (value, d, 8);
}

/* homography: 9 values, row by row, or 8 with h33 = 1 (the 8 degrees of
 * freedom of cv2.getPerspectiveTransform's result). A singular one is
 * refused by the plan, with an element error. */
void
gst_texel_warp_set_homography (GstTexelWarp *self, const GValue *value)
{
  static const guint counts[] = { 8, 9, 0 };
  gdouble m[9];

  if (!gst_texel_warp_array_values (self, "homography", value, m, counts))
    return;
  if (gst_value_array_get_size (value) == 8)
    m[8] = 1.0;
  GST_OBJECT_LOCK (self);
  memcpy (self->settings.homography, m, sizeof (m));
  GST_OBJECT_UNLOCK (self);
}

/* calibration-file: remembered here, read in the streaming thread before
 * the next frame (gst_texel_warp_read_calibration). */
void
gst_texel_warp_set_calibration_file (GstTexelWarp *self, const gchar *path)
{
  gboolean none = path == NULL || path[0] == '\0';

  GST_OBJECT_LOCK (self);
  g_free (self->calibration_file);
  self->calibration_file = none ? NULL : g_strdup (path);
  g_clear_pointer (&self->calibration_error, g_free);
  self->calibration_reload = !none;
  self->overridden = 0;
  if (none)
    self->settings.camera.cal_width = self->settings.camera.cal_height = 0;
  GST_OBJECT_UNLOCK (self);
}

/* new-camera-matrix: [fx 0 cx; 0 fy cy; 0 0 1] in pixels of the
 * calibration frame, or no values to unset it. */
void
gst_texel_warp_set_new_camera_matrix (GstTexelWarp *self, const GValue *value)
{
  static const guint nine[] = { 9, 0 };
  gdouble m[9];

  if (gst_value_array_get_size (value) == 0)
    {
      GST_OBJECT_LOCK (self);
      self->has_new_camera_matrix = FALSE;
      GST_OBJECT_UNLOCK (self);
      return;
    }
  if (!gst_texel_warp_array_values (self, "new-camera-matrix", value, m, nine))
    return;
  if (m[1] != 0.0 || m[3] != 0.0 || m[6] != 0.0 || m[7] != 0.0 || m[8] != 1.0
      || !(m[0] > 0.0) || !(m[4] > 0.0) || m[0] > TEXEL_WARP_FOCAL_MAX
      || m[4] > TEXEL_WARP_FOCAL_MAX || fabs (m[2]) > TEXEL_WARP_FOCAL_MAX
      || fabs (m[5]) > TEXEL_WARP_FOCAL_MAX)
    {
      GST_WARNING_OBJECT (self, "new-camera-matrix: not [fx 0 cx 0 fy cy 0 0 "
                                "1] with fx, fy in (0, 1e6]: ignored");
      return;
    }
  GST_OBJECT_LOCK (self);
  memcpy (self->settings.new_camera_matrix, m, sizeof (m));
  self->has_new_camera_matrix = TRUE;
  GST_OBJECT_UNLOCK (self);
}

/* rectification-matrix: 9 values, row by row (a singular one is refused
 * by the plan, with an element error). */
void
gst_texel_warp_set_rectification (GstTexelWarp *self, const GValue *value)
{
  static const guint nine[] = { 9, 0 };
  gdouble m[9];

  if (!gst_texel_warp_array_values (self, "rectification-matrix", value, m,
                                    nine))
    return;
  GST_OBJECT_LOCK (self);
  memcpy (self->settings.rectification, m, sizeof (m));
  GST_OBJECT_UNLOCK (self);
}
