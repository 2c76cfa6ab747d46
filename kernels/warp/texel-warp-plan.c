/* gst-texel: turning warp parameters into a plan.
 *
 * Everything that does not change from frame to frame is worked out here
 * once, in double: the camera scaled to the input's size, the new camera
 * matrix (fov, or alpha as OpenCV's getOptimalNewCameraMatrix and
 * fisheye::estimateNewCameraMatrixForUndistortRectify choose it), and the
 * view (rotation, zoom, pan), homography, new camera and pan/tilt composed
 * into the one 3x3 matrix of texel-warp.h's inverse map.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-warp.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

typedef double Mat3[3][3];

static void
mat3_identity (Mat3 m)
{
  int i, j;

  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      m[i][j] = i == j ? 1.0 : 0.0;
}

/* @out = @a @b (@out may be either operand). */
static void
mat3_mul (Mat3 out, const Mat3 a, const Mat3 b)
{
  Mat3 r;
  int i, j;

  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  memcpy (out, r, sizeof (r));
}

/* @m = @m @b: appends a step that runs before @m's. */
static void
mat3_then (Mat3 m, const Mat3 b)
{
  mat3_mul (m, m, b);
}

static void
mat3_translation (Mat3 m, double tx, double ty)
{
  mat3_identity (m);
  m[0][2] = tx;
  m[1][2] = ty;
}

static void
mat3_scaling (Mat3 m, double sx, double sy)
{
  mat3_identity (m);
  m[0][0] = sx;
  m[1][1] = sy;
}

/* Inverse by the adjugate. Returns 0 for a singular matrix (determinant
 * negligible against the matrix's scale). */
static int
mat3_inverse (Mat3 out, const Mat3 m)
{
  double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
  double norm = 0.0;
  Mat3 r;
  int i, j;

  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      norm = fmax (norm, fabs (m[i][j]));
  if (!(fabs (det) > 1e-12 * norm * norm * norm))
    return 0;
  r[0][0] = c00 / det;
  r[1][0] = c01 / det;
  r[2][0] = c02 / det;
  r[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
  r[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
  r[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
  r[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
  r[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
  r[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
  memcpy (out, r, sizeof (r));
  return 1;
}

/* Sine and cosine of @degrees, exact at multiples of 90 degrees (so that
 * quarter turns map pixel centres exactly onto pixel centres). */
static void
sincos_degrees (double degrees, double *s, double *c)
{
  double turns = fmod (degrees, 360.0);

  if (turns < 0.0)
    turns += 360.0;
  if (turns == 0.0 || turns == 90.0 || turns == 180.0 || turns == 270.0)
    {
      static const double quarter_sin[4] = { 0.0, 1.0, 0.0, -1.0 };
      static const double quarter_cos[4] = { 1.0, 0.0, -1.0, 0.0 };
      int q = (int)(turns / 90.0);

      *s = quarter_sin[q];
      *c = quarter_cos[q];
      return;
    }
  *s = sin (turns * M_PI / 180.0);
  *c = cos (turns * M_PI / 180.0);
}

int
texel_warp_map_mode_from_name (const char *name, TexelWarpMapMode *mode)
{
  if (name != NULL && strcmp (name, "auto") == 0)
    *mode = TEXEL_WARP_MAP_AUTO;
  else if (name != NULL && strcmp (name, "never") == 0)
    *mode = TEXEL_WARP_MAP_NEVER;
  else if (name != NULL && strcmp (name, "always") == 0)
    *mode = TEXEL_WARP_MAP_ALWAYS;
  else
    return 0;
  return 1;
}

void
texel_warp_config_init (TexelWarpConfig *config)
{
  static const TexelColorimetry bt709 = { TEXEL_MATRIX_BT709, 0, 0, 0 };

  memset (config, 0, sizeof (*config));
  config->model = TEXEL_WARP_MODEL_NONE;
  mat3_identity (config->homography);
  mat3_identity (config->new_camera_matrix);
  mat3_identity (config->rectification);
  config->new_camera = TEXEL_NEW_CAMERA_OPTIMAL;
  config->scale = 1.0;
  config->border_mode = TEXEL_WARP_BORDER_CONSTANT;
  config->method = TEXEL_METHOD_BILINEAR;
  config->in_color = bt709;
  config->out_color = bt709;
  config->border_rgba[3] = 1.0;
}

static int
all_finite (const double *v, int n)
{
  int i;

  for (i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return 0;
  return 1;
}

/* Checks the parameters; returns NULL or what is wrong with which. */
static const char *
validate (const TexelWarpConfig *c)
{
  const TexelCamera *cam = &c->camera;
  const double view[] = { c->alpha,    c->fov,   c->pan,      c->tilt,
                          c->rotation, c->scale, c->offset_x, c->offset_y };
  int i;

  if ((int)c->model < TEXEL_WARP_MODEL_NONE
      || (int)c->model > TEXEL_WARP_MODEL_FISHEYE)
    return "model: unknown lens model";
  if ((int)c->border_mode < TEXEL_WARP_BORDER_CONSTANT
      || (int)c->border_mode > TEXEL_WARP_BORDER_WRAP)
    return "border-mode: unknown border mode";
  if (!all_finite (view, (int)(sizeof (view) / sizeof (view[0]))))
    return "alpha, fov, pan, tilt, rotation, scale or offset: not a finite "
           "number";
  if (!all_finite (&c->homography[0][0], 9))
    return "homography: not finite";
  if (c->alpha < 0.0 || c->alpha > 1.0)
    return "alpha: outside [0, 1]";
  if ((int)c->projection < TEXEL_PROJECTION_RECTILINEAR
      || (int)c->projection > TEXEL_PROJECTION_EQUIRECTANGULAR)
    return "projection: unknown projection";
  if (c->fov < 0.0 || c->fov > TEXEL_WARP_EQUIRECT_FOV_MAX)
    return "fov: outside [0, 360] degrees";
  if (c->projection == TEXEL_PROJECTION_RECTILINEAR
      && c->fov > TEXEL_WARP_FOV_MAX)
    return "fov: a rectilinear view reaches at most 179 degrees";
  if (c->scale < TEXEL_WARP_SCALE_MIN || c->scale > TEXEL_WARP_SCALE_MAX)
    return "scale: outside [0.01, 100]";
  if (fabs (c->offset_x) > TEXEL_WARP_OFFSET_MAX
      || fabs (c->offset_y) > TEXEL_WARP_OFFSET_MAX)
    return "offset-x, offset-y: outside [-10, 10]";
  if (c->model == TEXEL_WARP_MODEL_NONE)
    return NULL;

  if (!isfinite (cam->fx) || !isfinite (cam->fy) || !isfinite (cam->cx)
      || !isfinite (cam->cy))
    return "camera matrix: not finite";
  if (!(cam->fx > 0.0) || !(cam->fy > 0.0))
    return "camera matrix: focal length fx, fy must be positive";
  if (cam->fx > TEXEL_WARP_FOCAL_MAX || cam->fy > TEXEL_WARP_FOCAL_MAX
      || fabs (cam->cx) > TEXEL_WARP_FOCAL_MAX
      || fabs (cam->cy) > TEXEL_WARP_FOCAL_MAX)
    return "camera matrix: fx, fy, cx or cy beyond 1e6 pixels";
  if (cam->cal_width < 0 || cam->cal_height < 0)
    return "calibration size: negative";
  if ((cam->cal_width == 0) != (cam->cal_height == 0))
    return "calibration size: width and height must both be given";
  if (!all_finite (cam->k, 6) || !all_finite (cam->p, 2))
    return "distortion: not finite";
  if ((int)c->new_camera < TEXEL_NEW_CAMERA_OPTIMAL
      || (int)c->new_camera > TEXEL_NEW_CAMERA_MATRIX)
    return "new-camera: unknown choice";
  if (!all_finite (&c->rectification[0][0], 9))
    return "rectification matrix: not finite";
  if (c->new_camera == TEXEL_NEW_CAMERA_MATRIX)
    {
      const double (*m)[3] = c->new_camera_matrix;

      if (!all_finite (&m[0][0], 9))
        return "new camera matrix: not finite";
      if (m[0][1] != 0.0 || m[1][0] != 0.0 || m[2][0] != 0.0 || m[2][1] != 0.0
          || m[2][2] != 1.0)
        return "new camera matrix: not [fx 0 cx; 0 fy cy; 0 0 1]";
      if (!(m[0][0] > 0.0) || !(m[1][1] > 0.0) || m[0][0] > TEXEL_WARP_FOCAL_MAX
          || m[1][1] > TEXEL_WARP_FOCAL_MAX
          || fabs (m[0][2]) > TEXEL_WARP_FOCAL_MAX
          || fabs (m[1][2]) > TEXEL_WARP_FOCAL_MAX)
        return "new camera matrix: fx, fy must be in (0, 1e6], cx, cy within "
               "1e6 pixels";
    }
  for (i = 0; i < 6; i++)
    if (fabs (cam->k[i]) > TEXEL_WARP_COEF_MAX)
      return "distortion: |k| beyond 1000";
  for (i = 0; i < 2; i++)
    if (fabs (cam->p[i]) > TEXEL_WARP_COEF_MAX)
      return "distortion: |p| beyond 1000";
  return NULL;
}

void
texel_warp_camera_scale (const TexelCamera *cal, int in_width, int in_height,
                         TexelCamera *cam)
{
  double sx = cal->cal_width ? (double)in_width / cal->cal_width : 1.0;
  double sy = cal->cal_height ? (double)in_height / cal->cal_height : 1.0;

  *cam = *cal;
  cam->fx = cal->fx * sx;
  cam->fy = cal->fy * sy;
  cam->cx = (cal->cx + 0.5) * sx - 0.5;
  cam->cy = (cal->cy + 0.5) * sy - 0.5;
  cam->cal_width = in_width;
  cam->cal_height = in_height;
}

/* cv::getOptimalNewCameraMatrix (centerPrincipalPoint false) for an
 * input of @w x @h and a new frame of @new_w x @new_h. */
static const char *
optimal_new_camera_pinhole (const TexelCamera *cam, double alpha, int w, int h,
                            int new_w, int new_h, Mat3 knew)
{
  enum
  {
    N = 9
  };
  double ix0 = -DBL_MAX, ix1 = DBL_MAX, iy0 = -DBL_MAX, iy1 = DBL_MAX;
  double ox0 = DBL_MAX, ox1 = -DBL_MAX, oy0 = DBL_MAX, oy1 = -DBL_MAX;
  double fx0, fy0, cx0, cy0, fx1, fy1, cx1, cy1;
  int i, j;

  for (j = 0; j < N; j++)
    {
      for (i = 0; i < N; i++)
        {
          double u = (double)i * w / (N - 1), v = (double)j * h / (N - 1);
          double x, y;

          if (!texel_warp_undistort_point (TEXEL_WARP_MODEL_PINHOLE, cam,
                                           (u - cam->cx) / cam->fx,
                                           (v - cam->cy) / cam->fy, &x, &y))
            return "distortion: cannot be inverted at the frame's edge (is it "
                   "that strong?)";
          ox0 = fmin (ox0, x);
          ox1 = fmax (ox1, x);
          oy0 = fmin (oy0, y);
          oy1 = fmax (oy1, y);
          if (i == 0)
            ix0 = fmax (ix0, x);
          if (i == N - 1)
            ix1 = fmin (ix1, x);
          if (j == 0)
            iy0 = fmax (iy0, y);
          if (j == N - 1)
            iy1 = fmin (iy1, y);
        }
    }
  if (!(ix1 > ix0 && iy1 > iy0))
    return "distortion: no undistorted rectangle inside the frame (alpha 0 "
           "impossible)";

  /* OpenCV maps the rectangles onto (size - 1) pixels; a 1-pixel frame
   * gets 1. */
  fx0 = (new_w > 1 ? new_w - 1 : 1) / (ix1 - ix0);
  fy0 = (new_h > 1 ? new_h - 1 : 1) / (iy1 - iy0);
  cx0 = -fx0 * ix0;
  cy0 = -fy0 * iy0;
  fx1 = (new_w > 1 ? new_w - 1 : 1) / (ox1 - ox0);
  fy1 = (new_h > 1 ? new_h - 1 : 1) / (oy1 - oy0);
  cx1 = -fx1 * ox0;
  cy1 = -fy1 * oy0;

  mat3_identity (knew);
  knew[0][0] = fx0 * (1.0 - alpha) + fx1 * alpha;
  knew[1][1] = fy0 * (1.0 - alpha) + fy1 * alpha;
  knew[0][2] = cx0 * (1.0 - alpha) + cx1 * alpha;
  knew[1][2] = cy0 * (1.0 - alpha) + cy1 * alpha;
  return NULL;
}

/* cv::fisheye::estimateNewCameraMatrixForUndistortRectify (R = I,
 * fov_scale 1) with balance @alpha, edge points clamped to 80 degrees off
 * axis. */
static const char *
optimal_new_camera_fisheye (const TexelCamera *cam, double alpha, int w, int h,
                            int new_w, int new_h, Mat3 knew)
{
  /* Integer halves, as OpenCV's Vec2d (w / 2, 0) of int sizes. */
  const double pts[4][2]
      = { { w / 2, 0 }, { w, h / 2 }, { w / 2, h }, { 0, h / 2 } };
  double und[4][2], cnx = 0.0, cny = 0.0;
  double aspect = cam->fx / cam->fy;
  double minx = DBL_MAX, miny = DBL_MAX, maxx = -DBL_MAX, maxy = -DBL_MAX;
  double f[4], fmin_, fmax_, focal, ncx, ncy;
  int i;

  for (i = 0; i < 4; i++)
    {
      double xd = (pts[i][0] - cam->cx) / cam->fx;
      double yd = (pts[i][1] - cam->cy) / cam->fy;
      double theta_d = sqrt (xd * xd + yd * yd);
      double theta, r;

      if (!texel_warp_undistort_fisheye_theta (cam, theta_d, &theta))
        return "distortion: fisheye model cannot be inverted at the frame's "
               "edge";
      theta = fmin (theta, TEXEL_WARP_FISHEYE_EDGE_MAX);
      r = tan (theta);
      und[i][0] = theta_d > 0.0 ? xd * r / theta_d : 0.0;
      und[i][1] = theta_d > 0.0 ? yd * r / theta_d : 0.0;
      cnx += und[i][0] / 4.0;
      cny += und[i][1] / 4.0;
    }
  /* To square pixels. */
  cny *= aspect;
  for (i = 0; i < 4; i++)
    {
      und[i][1] *= aspect;
      minx = fmin (minx, und[i][0]);
      maxx = fmax (maxx, und[i][0]);
      miny = fmin (miny, und[i][1]);
      maxy = fmax (maxy, und[i][1]);
    }
  if (!(cnx - minx > 0.0 && maxx - cnx > 0.0 && cny - miny > 0.0
        && maxy - cny > 0.0))
    return "camera matrix: principal point outside the frame";
  f[0] = w * 0.5 / (cnx - minx);
  f[1] = w * 0.5 / (maxx - cnx);
  f[2] = h * 0.5 * aspect / (cny - miny);
  f[3] = h * 0.5 * aspect / (maxy - cny);
  fmin_ = fmin (fmin (f[0], f[1]), fmin (f[2], f[3]));
  fmax_ = fmax (fmax (f[0], f[1]), fmax (f[2], f[3]));
  focal = alpha * fmin_ + (1.0 - alpha) * fmax_;
  ncx = -cnx * focal + w * 0.5;
  ncy = (-cny * focal + h * aspect * 0.5) / aspect;

  mat3_identity (knew);
  knew[0][0] = focal * new_w / w;
  knew[1][1] = focal / aspect * new_h / h;
  knew[0][2] = ncx * new_w / w;
  knew[1][2] = ncy * new_h / h;
  return NULL;
}

/* K (new_camera CAMERA) or new_camera_matrix (MATRIX), given in pixels
 * of the calibration frame, scaled onto the rectified frame as K is onto
 * the input: through the input's size, each step aligning pixel corners. */
static void
given_new_camera (const TexelWarpConfig *c, int in_w, int in_h, int new_w,
                  int new_h, Mat3 knew)
{
  TexelCamera k = c->camera, at_input, at_rect;

  if (c->new_camera == TEXEL_NEW_CAMERA_MATRIX)
    {
      k.fx = c->new_camera_matrix[0][0];
      k.fy = c->new_camera_matrix[1][1];
      k.cx = c->new_camera_matrix[0][2];
      k.cy = c->new_camera_matrix[1][2];
    }
  texel_warp_camera_scale (&k, in_w, in_h, &at_input);
  texel_warp_camera_scale (&at_input, new_w, new_h, &at_rect);
  mat3_identity (knew);
  knew[0][0] = at_rect.fx;
  knew[1][1] = at_rect.fy;
  knew[0][2] = at_rect.cx;
  knew[1][2] = at_rect.cy;
}

/* A rectilinear view of horizontal field of view @fov degrees across
 * @new_w, principal point at the frame's centre. */
static void
fov_new_camera (double fov, int new_w, int new_h, Mat3 knew)
{
  double focal = 0.5 * new_w / tan (0.5 * fov * M_PI / 180.0);

  mat3_identity (knew);
  knew[0][0] = focal;
  knew[1][1] = focal;
  knew[0][2] = 0.5 * new_w - 0.5;
  knew[1][2] = 0.5 * new_h - 0.5;
}

/* Rectified (OpenCV) pixels -> (lon, lat) in radians of an
 * equirectangular view @fov degrees wide (180 for 0), centred; @scale
 * gets its pixels per radian (reported as the new camera's focal length
 * and centre). */
static void
equirect_angles (double fov, int rect_w, int rect_h, Mat3 m, Mat3 scale)
{
  double f = rect_w / ((fov > 0.0 ? fov : 180.0) * M_PI / 180.0);

  mat3_identity (scale);
  scale[0][0] = scale[1][1] = f;
  scale[0][2] = 0.5 * rect_w - 0.5;
  scale[1][2] = 0.5 * rect_h - 0.5;
  mat3_inverse (m, scale);
}

/* Pan about the camera's y axis, then tilt about the turned x axis:
 * P = Ry (pan) Rx (tilt), view ray -> camera ray. */
static void
pan_tilt_matrix (double pan, double tilt, Mat3 m)
{
  double sp, cp, st, ct;
  Mat3 rx;

  sincos_degrees (pan, &sp, &cp);
  sincos_degrees (tilt, &st, &ct);
  mat3_identity (m);
  m[0][0] = cp;
  m[0][2] = sp;
  m[2][0] = -sp;
  m[2][2] = cp;
  mat3_identity (rx);
  rx[1][1] = ct;
  rx[1][2] = -st;
  rx[2][1] = st;
  rx[2][2] = ct;
  mat3_then (m, rx);
}

/* Step 1 of texel-warp.h: output luma -> rectified luma coordinates. */
static void
view_matrix (const TexelWarpConfig *c, int out_w, int out_h, int rect_w,
             int rect_h, Mat3 m)
{
  double s, co;
  Mat3 step;

  sincos_degrees (c->rotation, &s, &co);
  mat3_translation (m, 0.5 * rect_w + c->offset_x * rect_w,
                    0.5 * rect_h + c->offset_y * rect_h);
  mat3_scaling (step, 1.0 / c->scale, 1.0 / c->scale);
  mat3_then (m, step);
  /* Rot (-rotation) = [cos, sin; -sin, cos]. */
  mat3_identity (step);
  step[0][0] = co;
  step[0][1] = s;
  step[1][0] = -s;
  step[1][1] = co;
  mat3_then (m, step);
  mat3_translation (step, -0.5 * out_w, -0.5 * out_h);
  mat3_then (m, step);
}

static int
is_portrait (int w, int h)
{
  return h > w;
}

int
texel_warp_plan_init (TexelWarpPlan *plan, const TexelWarpConfig *config,
                      TexelFormat in_format, int in_width, int in_height,
                      TexelFormat out_format, int out_width, int out_height,
                      const char **error)
{
  TexelConvertConfig sampling;
  TexelCamera cam;
  const char *why;
  Mat3 a, step, hinv;
  int i, j;

  memset (plan, 0, sizeof (*plan));
  why = validate (config);
  if (why == NULL)
    {
      /* Formats, colour and border as texelconvert's whole-frame plan. */
      memset (&sampling, 0, sizeof (sampling));
      sampling.src_w = in_width;
      sampling.src_h = in_height;
      sampling.dst_w = out_width;
      sampling.dst_h = out_height;
      sampling.method = config->method;
      sampling.direction = TEXEL_DIRECTION_IDENTITY;
      sampling.in_color = config->in_color;
      sampling.out_color = config->out_color;
      memcpy (sampling.border_rgba, config->border_rgba,
              sizeof (sampling.border_rgba));
      if (texel_convert_plan_init (&plan->sampling, &sampling, in_format,
                                   in_width, in_height, out_format, out_width,
                                   out_height, &why)
          != 0)
        memset (plan, 0, sizeof (*plan));
      /* Chroma at its site: the taps' positions would need the warp's map
       * at each, which the kernels do not compute. */
      plan->sampling.chroma_filter = 0;
    }
  /* (A copy: GCC 12 misreads the size of the struct member.) */
  memcpy (hinv, config->homography, sizeof (hinv));
  if (why == NULL && !mat3_inverse (hinv, hinv))
    why = "homography: singular matrix";
  if (why != NULL)
    {
      if (error != NULL)
        *error = why;
      return -1;
    }

  plan->model = config->model;
  plan->border_mode = config->border_mode;
  plan->map = config->map;
  plan->projection = config->model == TEXEL_WARP_MODEL_NONE
                         ? TEXEL_PROJECTION_RECTILINEAR
                         : config->projection;
  mat3_identity (plan->rot);
  plan->rect_width = out_width;
  plan->rect_height = out_height;
  if (is_portrait (in_width, in_height) != is_portrait (out_width, out_height))
    {
      plan->rect_width = out_height;
      plan->rect_height = out_width;
    }

  /* Steps 1 and 2: output luma -> rectified, OpenCV convention. */
  view_matrix (config, out_width, out_height, plan->rect_width,
               plan->rect_height, a);
  mat3_translation (step, -0.5, -0.5);
  mat3_mul (a, step, a);
  mat3_mul (a, hinv, a);

  mat3_identity (plan->new_camera);
  if (config->model == TEXEL_WARP_MODEL_NONE)
    {
      /* Rectified (OpenCV) -> input luma: + 0.5, then scaled. */
      mat3_translation (step, 0.5, 0.5);
      mat3_mul (a, step, a);
      mat3_scaling (step, (double)in_width / plan->rect_width,
                    (double)in_height / plan->rect_height);
      mat3_mul (a, step, a);
    }
  else
    {
      Mat3 kinv, rinv;

      texel_warp_camera_scale (&config->camera, in_width, in_height, &cam);
      if (config->projection == TEXEL_PROJECTION_EQUIRECTANGULAR)
        /* kinv: pixels -> angles; the ray and the turn come per pixel. */
        equirect_angles (config->fov, plan->rect_width, plan->rect_height, kinv,
                         plan->new_camera);
      else if (config->fov > 0.0)
        fov_new_camera (config->fov, plan->rect_width, plan->rect_height,
                        plan->new_camera);
      else if (config->new_camera != TEXEL_NEW_CAMERA_OPTIMAL)
        given_new_camera (config, in_width, in_height, plan->rect_width,
                          plan->rect_height, plan->new_camera);
      else if (config->model == TEXEL_WARP_MODEL_PINHOLE)
        why = optimal_new_camera_pinhole (&cam, config->alpha, in_width,
                                          in_height, plan->rect_width,
                                          plan->rect_height, plan->new_camera);
      else
        why = optimal_new_camera_fisheye (&cam, config->alpha, in_width,
                                          in_height, plan->rect_width,
                                          plan->rect_height, plan->new_camera);
      if (why == NULL && config->projection == TEXEL_PROJECTION_RECTILINEAR
          && !mat3_inverse (kinv, plan->new_camera))
        why = "camera matrix: degenerate new camera matrix";
      memcpy (rinv, config->rectification, sizeof (rinv));
      if (why == NULL && !mat3_inverse (rinv, rinv))
        why = "rectification matrix: singular";
      if (why != NULL)
        {
          if (error != NULL)
            *error = why;
          memset (plan, 0, sizeof (*plan));
          return -1;
        }
      mat3_mul (a, kinv, a);
      pan_tilt_matrix (config->pan, config->tilt, step);
      mat3_mul (step, rinv, step);
      if (config->projection == TEXEL_PROJECTION_EQUIRECTANGULAR)
        memcpy (plan->rot, step, sizeof (plan->rot));
      else
        mat3_mul (a, step, a);

      plan->fx = cam.fx;
      plan->fy = cam.fy;
      plan->cx = cam.cx + 0.5;
      plan->cy = cam.cy + 0.5;
      memcpy (plan->k, cam.k, sizeof (plan->k));
      memcpy (plan->p, cam.p, sizeof (plan->p));
      if (config->model == TEXEL_WARP_MODEL_FISHEYE)
        {
          /* k1..k4 only. */
          plan->k[4] = plan->k[5] = 0.0;
          plan->p[0] = plan->p[1] = 0.0;
        }
      plan->rational
          = plan->model == TEXEL_WARP_MODEL_PINHOLE
            && (plan->k[3] != 0.0 || plan->k[4] != 0.0 || plan->k[5] != 0.0);
      plan->reach = texel_warp_model_reach (plan->model, &cam);
    }
  memcpy (plan->a, a, sizeof (plan->a));

  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      {
        plan->a_f[i][j] = (float)plan->a[i][j];
        plan->rot_f[i][j] = (float)plan->rot[i][j];
      }
  plan->fx_f = (float)plan->fx;
  plan->fy_f = (float)plan->fy;
  plan->cx_f = (float)plan->cx;
  plan->cy_f = (float)plan->cy;
  for (i = 0; i < 6; i++)
    plan->k_f[i] = (float)plan->k[i];
  for (i = 0; i < 2; i++)
    plan->p_f[i] = (float)plan->p[i];
  plan->reach_f = (float)plan->reach;
  plan->affine = plan->model == TEXEL_WARP_MODEL_NONE && plan->a[2][0] == 0.0
                 && plan->a[2][1] == 0.0 && plan->a[2][2] == 1.0;
  /* Output rows read input rows anywhere. */
  plan->sampling.rows_monotonic = 0;
  return 0;
}
