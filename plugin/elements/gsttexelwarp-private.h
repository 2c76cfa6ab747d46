/* gst-texel: texelwarp's instance, shared by gsttexelwarp.c,
 * gsttexelwarp-camera.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_WARP_PRIVATE_H__
#define __GST_TEXEL_WARP_PRIVATE_H__

#include "elements/gsttexelwarp.h"
#include "texel-calib.h"
#include "texel-cuda.h"
#include "texel-warp.h"
#include "texel-warp-fast.h"

G_BEGIN_DECLS

/* new-camera (the element's choice; TexelNewCamera the kernels'). */
typedef enum
{
  GST_TEXEL_NEW_CAMERA_AUTO = 0,
  GST_TEXEL_NEW_CAMERA_OPTIMAL,
  GST_TEXEL_NEW_CAMERA_CAMERA,
  GST_TEXEL_NEW_CAMERA_MATRIX
} GstTexelNewCamera;

/* Property ids: GstTexelWarp.overridden holds bits of them. */
enum
{
  PROP_0,
  PROP_MODEL,
  PROP_PROJECTION,
  PROP_CALIBRATION_FILE,
  PROP_CALIBRATION_ASPECT_ERROR,
  PROP_NEW_CAMERA,
  PROP_NEW_CAMERA_MATRIX,
  PROP_RECTIFICATION_MATRIX,
  PROP_CAMERA_MATRIX,
  PROP_DISTORTION,
  PROP_HOMOGRAPHY,
  PROP_BORDER_MODE,
  PROP_BORDER_COLOR,
  PROP_METHOD,
  /* doubles, in this order (gst_texel_warp_install_doubles) */
  PROP_FX,
  PROP_FY,
  PROP_CX,
  PROP_CY,
  PROP_K1,
  PROP_K2,
  PROP_K3,
  PROP_K4,
  PROP_K5,
  PROP_K6,
  PROP_P1,
  PROP_P2,
  PROP_ALPHA,
  PROP_FOV,
  PROP_PAN,
  PROP_TILT,
  PROP_ROTATION,
  PROP_SCALE,
  PROP_OFFSET_X,
  PROP_OFFSET_Y
};

/* Bit of property @prop_id in GstTexelWarp.overridden. */
#define PROP_BIT(prop_id) (G_GUINT64_CONSTANT (1) << (prop_id))

struct _GstTexelWarp
{
  GstTexelBase parent;

  /* properties, under the object lock (colorimetry and border colour
   * come from the caps and border-color at prepare) */
  TexelWarpConfig settings;
  guint border_color;
  /* The distortion property's last value, when its meaning depends on the
   * model (4 coefficients: k1 k2 p1 p2 of a pinhole, k1..k4 of a fisheye):
   * read with the model in force at prepare. n_pending 0: none. */
  gdouble pending[TEXEL_CALIB_MAX_DISTORTION];
  gint n_pending;
  GstTexelNewCamera new_camera;
  /* settings.new_camera_matrix holds new-camera-matrix (set by the
   * property or a file's projection_matrix) */
  gboolean has_new_camera_matrix;
  gboolean alpha_set;    /* alpha was set: auto uses it */
  gboolean aspect_error; /* calibration-aspect-error */
  gchar *calibration_file;
  /* The file is read in the streaming thread (prepare), never in
   * set_property: a FIFO or a hung network mount must not block
   * g_object_set. Properties set between calibration-file and that read
   * keep their values (bits of their ids in @overridden). */
  gboolean calibration_reload;
  guint64 overridden;
  /* Why the calibration file was refused (posted once as an element
   * error), or NULL. */
  gchar *calibration_error;
  gboolean calibration_error_posted;
  /* The sizes last posted about (stream, calibration), and whether as an
   * error: once per caps. */
  gint aspect_warned[4];
  gboolean aspect_warned_strict;
  /* The pinhole view's field of view last warned about (0: none). */
  gdouble reach_warned_fov;

  /* streaming thread */
  TexelWarpPlan plan;
};

/* The camera (gsttexelwarp-camera.c). From prepare, in the streaming
 * thread: */
gboolean gst_texel_warp_read_calibration (GstTexelWarp *self);
gboolean gst_texel_warp_resolve_new_camera (GstTexelWarp *self,
                                            TexelWarpConfig *cfg);
const gchar *gst_texel_warp_resolve_camera (TexelWarpConfig *cfg,
                                            const gdouble *pending,
                                            gint n_pending, gint in_w,
                                            gint in_h);
gboolean gst_texel_warp_check_aspect (GstTexelWarp *self,
                                      const TexelCamera *cam, gint in_w,
                                      gint in_h, gboolean strict);
/* The properties (object lock: see each): */
void gst_texel_warp_settle_distortion (GstTexelWarp *self, TexelCamera *cam);
void gst_texel_warp_set_array (GValue *array, const gdouble *values, guint n);
void gst_texel_warp_set_calibration_file (GstTexelWarp *self,
                                          const gchar *path);
void gst_texel_warp_set_camera_matrix (GstTexelWarp *self, const GValue *value);
void gst_texel_warp_get_camera_matrix (GstTexelWarp *self, GValue *value);
void gst_texel_warp_set_distortion (GstTexelWarp *self, const GValue *value);
void gst_texel_warp_get_distortion (GstTexelWarp *self, GValue *value);
void gst_texel_warp_set_homography (GstTexelWarp *self, const GValue *value);
void gst_texel_warp_set_new_camera_matrix (GstTexelWarp *self,
                                           const GValue *value);
void gst_texel_warp_set_rectification (GstTexelWarp *self, const GValue *value);

G_END_DECLS
#endif
