/* gst-texel: geometric warps (lens undistortion, fisheye dewarping,
 * electronic pan-tilt-zoom, rotation, homography, digital zoom) fused with
 * colour conversion and scaling, behind one C API with a CPU reference and
 * CUDA kernels.
 *
 * Every output sample is computed on its own: its centre is mapped back to
 * the input (the inverse map, so that no output pixel is left unwritten),
 * the border mode decides what a position outside the input means, and the
 * input is sampled there exactly as texelconvert samples it (the same
 * formats, chroma siting, filters and colour matrix: TexelConvertPlan).
 *
 * Coordinates. Output and input positions are continuous luma coordinates
 * with pixel centres at +0.5 and the frame spanning [0, W] x [0, H]
 * (texel-sample-map.h). Camera matrices and homographies use OpenCV's
 * convention, pixel centres at integers: OpenCV's (u, v) is (X - 0.5,
 * Y - 0.5) here.
 *
 * The inverse map, for output luma position (X, Y):
 *
 *  1. View (rotation, zoom, pan), in output pixels, about the output
 *     centre C_out = (W_out / 2, H_out / 2):
 *         R = C_r + O + Rot(-rotation) (X - C_out.x, Y - C_out.y) / scale
 *     where Rot(a) turns by a degrees clockwise on screen (y down):
 *     Rot(a) = [cos a, -sin a; sin a, cos a]. The rectified frame has the
 *     output's size, W_r x H_r = W_out x H_out, except that it is turned
 *     (W_r = H_out, H_r = W_out) when one of input and output is portrait
 *     (H > W) and the other is not, so that a quarter turn into a frame of
 *     swapped size is an exact 1:1 rotation. C_r = (W_r / 2, H_r / 2);
 *     O = (offset_x * W_r, offset_y * H_r) is the pan: the output's centre
 *     shows the rectified frame's point C_r + O.
 *  2. Homography (OpenCV's warpPerspective convention: @homography maps
 *     the rectified frame to the view, source to destination, so its
 *     inverse is applied): h = homography^-1 (R.x - 0.5, R.y - 0.5, 1).
 *  3. Model:
 *     - none: the rectified frame is the input frame scaled to W_r x H_r:
 *           x_in = (h.x / h.z + 0.5) * W_in / W_r, y_in likewise with H.
 *     - pinhole and fisheye: a ray d = P v in camera coordinates, where
 *       v is the view's ray and P turns the view by @pan (about the
 *       camera's y axis, positive to the right) and @tilt (about its x
 *       axis, positive up), then by the rectification R back into the
 *       camera: P = R^-1 Ry(pan) Rx(tilt) (OpenCV's initUndistortRectify-
 *       Map inverts (K_new R), so R maps camera rays to rectified ones;
 *       R = I unless set), with
 *       Ry(p) = [cos p, 0, sin p; 0, 1, 0; -sin p, 0, cos p] and
 *       Rx(t) = [1, 0, 0; 0, cos t, -sin t; 0, sin t, cos t].
 *       The view's ray, by @projection:
 *       rectilinear: v = K_new^-1 h, K_new the new camera matrix (below);
 *       equirectangular (a panorama): longitude and latitude in radians
 *       proportional to the rectified position, lon = (h.x / h.z - c_x) /
 *       f_e, lat = (h.y / h.z - c_y) / f_e, with c = (W_r / 2 - 0.5,
 *       H_r / 2 - 0.5), f_e = W_r / (@fov in radians, 180 degrees where
 *       @fov is 0) pixels per radian, and v = (cos lat sin lon, sin lat,
 *       cos lat cos lon): the centre looks along the axis, longitude grows
 *       to the right and latitude downwards.
 *       Then the lens model projects d into the input (below).
 *  4. Border (@border_mode), for positions outside [0, W_in] x [0, H_in]
 *     (closed: the centre of an odd-sized frame's last centred chroma
 *     sample lies on its far edge):
 *     constant: the output sample is the border colour; clamp: the
 *     filter's taps are clamped to the edge samples; mirror: the position
 *     is reflected about the frame's edges (period 2 W_in: OpenCV's
 *     BORDER_REFLECT for nearest and bilinear sampling); wrap: taken
 *     modulo the frame size (OpenCV's BORDER_WRAP). Mirrored and wrapped
 *     positions are then sampled like inside ones, taps clamped at the
 *     edges: bilinear at a wrap seam blends within half a pixel of the
 *     same edge instead of across it, bicubic near a mirror edge clamps
 *     its outer taps. Rays behind a pinhole camera (d.z <= 0), straight
 *     back from a fisheye (d = (0, 0, -1)), homogeneous coordinates at or
 *     beyond infinity (h.z <= 0 for model none) and non-finite positions
 *     give the border colour in every mode.
 *
 * Lens models, as OpenCV defines them (calib3d "Camera Calibration and 3D
 * Reconstruction", and the fisheye module), with the camera matrix K =
 * [fx, 0, cx; 0, fy, cy; 0, 0, 1] in input pixels (OpenCV convention):
 *
 *  - pinhole (Brown-Conrady, with OpenCV's rational terms): for d.z > 0,
 *        x = d.x / d.z, y = d.y / d.z, r2 = x^2 + y^2,
 *        radial = (1 + k1 r2 + k2 r2^2 + k3 r2^3)
 *               / (1 + k4 r2 + k5 r2^2 + k6 r2^3),
 *        x'' = x radial + 2 p1 x y + p2 (r2 + 2 x^2),
 *        y'' = y radial + p1 (r2 + 2 y^2) + 2 p2 x y,
 *        u = fx x'' + cx, v = fy y'' + cy.
 *  - fisheye (Kannala-Brandt equidistant, cv::fisheye):
 *        rho = sqrt (d.x^2 + d.y^2), theta = atan2 (rho, d.z),
 *        theta_d = theta (1 + k1 theta^2 + k2 theta^4 + k3 theta^6
 *                  + k4 theta^8),
 *        x'' = theta_d d.x / rho, y'' = theta_d d.y / rho (0 at rho = 0),
 *        u = fx x'' + cx, v = fy y'' + cy.
 *    For d.z > 0 this is OpenCV's formula (theta = atan (r) of x = d.x /
 *    d.z); atan2 extends it to rays beyond 90 degrees off axis, which
 *    lenses wider than 180 degrees see.
 *  and the input luma position is (u + 0.5, v + 0.5).
 *  Both models hold only up to the lens's reach: the first radius where
 *  the distortion stops growing with the angle off axis (pinhole: r where
 *  d (r radial (r^2)) / dr = 0, at most r = 20; fisheye: theta where
 *  d theta_d / d theta = 0, at most pi). Rays beyond it get the border
 *  colour in every border mode: there the polynomials fold back and would
 *  show a second, warped copy of the picture (as OpenCV's remap does).
 *
 * Calibration size: K is given for a calibration frame of cal_width x
 * cal_height (0: the input's size). For an input of another size it is
 * scaled per axis as the frame is: fx' = fx W_in / cal_width, cx' =
 * (cx + 0.5) W_in / cal_width - 0.5, likewise fy, cy with the heights.
 *
 * New camera matrix K_new (OpenCV convention, in rectified pixels):
 *  - new_camera CAMERA (fov 0): K itself, scaled per axis from the
 *    calibration frame onto the rectified frame as K is onto the input
 *    (pixel corners aligned; with equal sizes, K unchanged): OpenCV's
 *    cv::undistort (img, K, D) and initUndistortRectifyMap (K, D, R, K).
 *  - new_camera MATRIX (fov 0): new_camera_matrix, given in pixels of the
 *    calibration frame like K, scaled the same way: initUndistortRectify-
 *    Map (K, D, R, new_camera_matrix), and with ROS's P (its left 3x3)
 *    and R what image_proc shows.
 *  - fov > 0: a rectilinear view with horizontal field of view @fov
 *    degrees across W_r: f = (W_r / 2) / tan (fov / 2),
 *    K_new = [f, 0, W_r / 2 - 0.5; 0, f, H_r / 2 - 0.5; 0, 0, 1].
 *  - new_camera OPTIMAL, fov = 0, pinhole: cv::getOptimalNewCameraMatrix (K, D,
 * input size, alpha, (W_r, H_r)) with centerPrincipalPoint false: the 9 x 9
 * grid of points (i W_in / 8, j H_in / 8) (OpenCV pixel coordinates) is
 *    undistorted to normalised coordinates; the inner rectangle (largest
 *    one inside the undistorted frame edge) and the outer one (bounding
 *    box) give f0 = (W_r - 1) / inner.width, c0 = -f0 inner.x and
 *    f1 = (W_r - 1) / outer.width, c1 = -f1 outer.x (likewise y), and
 *    K_new = (1 - alpha) (f0, c0) + alpha (f1, c1): alpha = 0 keeps only
 *    valid pixels, alpha = 1 keeps every input pixel. The points are
 *    undistorted to convergence (OpenCV stops after 5 fixed-point
 *    iterations, which differs slightly for strong distortion).
 *  - new_camera OPTIMAL, fov = 0, fisheye:
 * cv::fisheye::estimateNewCameraMatrixForUndistort- Rectify (K, D, input size,
 * I, balance = alpha, (W_r, H_r)): the midpoints of the four frame edges (W/2,
 * 0), (W, H/2), (W/2, H), (0, H/2) (integer halves, as OpenCV) are undistorted,
 * f is (1 - alpha) f_max + alpha f_min of the focal lengths that put each at
 *    its edge, with the aspect fx / fy of K kept, then scaled to (W_r,
 *    H_r). Edge points more than 80 degrees off axis count as 80 degrees
 *    (OpenCV's would be at infinity): for lenses wider than 160 degrees
 *    use @fov.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_WARP_H
#define TEXEL_WARP_H

#include <math.h>

#include "texel-kernel.h"
#include "texel-convert.h"

TEXEL_BEGIN_DECLS

typedef enum
{
  TEXEL_WARP_MODEL_NONE = 0, /* rotation, homography, zoom and pan only */
  TEXEL_WARP_MODEL_PINHOLE,  /* Brown-Conrady + rational terms */
  TEXEL_WARP_MODEL_FISHEYE   /* Kannala-Brandt equidistant */
} TexelWarpModel;

typedef enum
{
  TEXEL_WARP_BORDER_CONSTANT = 0,
  TEXEL_WARP_BORDER_CLAMP,
  TEXEL_WARP_BORDER_MIRROR,
  TEXEL_WARP_BORDER_WRAP
} TexelWarpBorder;

/* Where the kernels get each output sample's input position (the CUDA
 * path; the CPU reference always computes it). */
typedef enum
{
  TEXEL_WARP_MAP_AUTO = 0, /* whichever measured faster for the model */
  TEXEL_WARP_MAP_NEVER,    /* computed per sample, every frame */
  TEXEL_WARP_MAP_ALWAYS    /* read from a map precomputed per plan */
} TexelWarpMapMode;

/* The undistorted view's projection (camera models). */
typedef enum
{
  TEXEL_PROJECTION_RECTILINEAR = 0, /* a perspective camera */
  TEXEL_PROJECTION_EQUIRECTANGULAR  /* longitude x latitude */
} TexelProjection;

/* Where the rectilinear view's camera K_new comes from when fov is 0. */
typedef enum
{
  /* cv::getOptimalNewCameraMatrix (pinhole) or cv::fisheye::estimate-
   * NewCameraMatrixForUndistortRectify (fisheye) with alpha */
  TEXEL_NEW_CAMERA_OPTIMAL = 0,
  /* the camera matrix K itself: cv::undistort (img, K, D) */
  TEXEL_NEW_CAMERA_CAMERA,
  /* new_camera_matrix (ROS's P): cv::initUndistortRectifyMap (K, D, R,
   * new_camera_matrix) */
  TEXEL_NEW_CAMERA_MATRIX
} TexelNewCamera;

/* Property ranges (the element's and the plan's checks). */
#define TEXEL_WARP_EQUIRECT_FOV_MAX 360.0 /* degrees */
#define TEXEL_WARP_COEF_MAX 1000.0        /* |k1..k6|, |p1|, |p2| */
#define TEXEL_WARP_FOCAL_MAX 1e6          /* fx, fy, cx, cy in pixels */
#define TEXEL_WARP_SCALE_MIN 0.01
#define TEXEL_WARP_SCALE_MAX 100.0
#define TEXEL_WARP_OFFSET_MAX 10.0 /* |offset|, in frame sizes */
#define TEXEL_WARP_FOV_MAX 179.0   /* degrees */
/* How far off axis the default fisheye view reaches at most (radians of
 * 80 degrees). */
#define TEXEL_WARP_FISHEYE_EDGE_MAX (80.0 * M_PI / 180.0)

/* A camera as calibration gives it: intrinsics in pixels of a calibration
 * frame (OpenCV convention: pixel centres at integers) and distortion
 * coefficients. The fisheye model uses k[0..3] as its k1..k4 and ignores
 * the others. */
typedef struct
{
  double fx, fy, cx, cy;
  int cal_width, cal_height; /* 0: the input's size */
  double k[6];               /* k1..k6 */
  double p[2];               /* p1, p2 */
} TexelCamera;

typedef struct
{
  TexelWarpModel model;
  TexelCamera camera;         /* pinhole and fisheye */
  TexelProjection projection; /* camera models */
  TexelNewCamera new_camera;  /* rectilinear, fov = 0 */
  /* TEXEL_NEW_CAMERA_MATRIX's K_new, [fx 0 cx; 0 fy cy; 0 0 1] in pixels
   * of the calibration frame (OpenCV convention) */
  double new_camera_matrix[3][3];
  /* R of initUndistortRectifyMap: camera -> rectified camera (camera
   * models, every view; identity by default) */
  double rectification[3][3];
  double alpha;              /* 0..1: new camera balance (fov = 0) */
  double fov;                /* degrees, 0: K_new from alpha (rectilinear)
                              * or 180 (equirectangular) */
  double pan, tilt;          /* degrees */
  double rotation;           /* degrees, clockwise */
  double homography[3][3];   /* rectified -> view, OpenCV convention */
  double scale;              /* zoom: > 1 magnifies */
  double offset_x, offset_y; /* pan, in rectified frame sizes */
  TexelWarpBorder border_mode;
  /* The plugin lets GST_TEXEL_WARP_MAP=auto|never|always override it (for
   * tests and measurements: texel_warp_map_mode_from_name). */
  TexelWarpMapMode map;
  /* Sampling and colour, as texelconvert's. */
  TexelMethod method;
  TexelColorimetry in_color;
  TexelColorimetry out_color;
  double border_rgba[4]; /* non-linear R'G'B'A in [0, 1] */
} TexelWarpConfig;

/* Identity: model none, unit homography and zoom, constant opaque black
 * border, bilinear, BT.709 limited range with centred chroma. */
void texel_warp_config_init (TexelWarpConfig *config);

/* The fast CPU path's per-plan map (texel-warp-fast.h). */
typedef struct TexelWarpFast TexelWarpFast;

/* Everything a kernel needs, derived once per caps or property change.
 * Plain data, passed by value to the CUDA kernels. */
typedef struct
{
  /* Formats, sizes, method, colour matrix, border values and chroma
   * siting, as texelconvert's plan (its affine map and destination
   * rectangle are unused: the warp maps positions itself). */
  TexelConvertPlan sampling;
  TexelWarpModel model;
  TexelWarpBorder border_mode;
  TexelWarpMapMode map;
  /* Output luma (X, Y) -> homogeneous vector a (X, Y, 1): the input's
   * homogeneous luma position for model none, the camera ray for a
   * rectilinear view, (lon, lat, 1) for an equirectangular one, whose ray
   * is then turned by rot (pan and tilt) (steps 1 to 3 of the header
   * comment, composed). */
  TexelProjection projection;
  double a[3][3];
  double rot[3][3];
  /* The input's camera, scaled to the input's size; c* include the +0.5
   * of our pixel convention. */
  double fx, fy, cx, cy;
  double k[6], p[2];
  /* Diagnostics and tests: K_new (OpenCV convention, rectified pixels;
   * identity for model none) and the rectified frame's size. */
  double new_camera[3][3];
  int rect_width, rect_height;
  /* float copies for the kernels */
  float a_f[3][3];
  float rot_f[3][3];
  float fx_f, fy_f, cx_f, cy_f;
  float k_f[6], p_f[2];
  int rational; /* pinhole: k4..k6 not all zero */
  /* Model none without perspective: a's last row is exactly (0, 0, 1),
   * so the kernels skip the division (exact geometries, such as quarter
   * turns, stay exact whatever the GPU's reciprocal rounds to). */
  int affine;
  /* The lens's reach: largest r^2 (pinhole) or theta (fisheye). */
  double reach;
  float reach_f;
  /* Host map of the fast CPU path, or NULL (the reference then runs):
   * set by the plan's owner after texel_warp_plan_init, which leaves it
   * NULL; its rows are filled on first use (texel-warp-fast.h). The
   * kernels never read it. */
  TexelWarpFast *fast;
} TexelWarpPlan;

/* Sets *@mode to the map mode @name names ("auto", "never", "always")
 * and returns 1; leaves it and returns 0 for any other @name or NULL.
 * For callers that take the mode from GST_TEXEL_WARP_MAP. */
int texel_warp_map_mode_from_name (const char *name, TexelWarpMapMode *mode);

/* Fills @plan. Returns 0, or -1 with a static message in @error (the
 * parameter at fault named first). */
int texel_warp_plan_init (TexelWarpPlan *plan, const TexelWarpConfig *config,
                          TexelFormat in_format, int in_width, int in_height,
                          TexelFormat out_format, int out_width, int out_height,
                          const char **error);

/* @cal at a frame of @in_width x @in_height: its calibration frame scaled
 * per axis onto that frame (pixel corners aligned, OpenCV's pixel centres
 * at integers), as the plan scales it to the input. */
void texel_warp_camera_scale (const TexelCamera *cal, int in_width,
                              int in_height, TexelCamera *cam);

/* The lens model alone, in double (exposed for tests and the plan):
 * normalised undistorted coordinates (pinhole: x = X/Z, y = Y/Z; fisheye:
 * the same for rays in front) to distorted normalised coordinates, and
 * back (Newton's method to 1e-12; returns 0 when it does not converge). */
void texel_warp_distort_pinhole (const TexelCamera *camera, double x, double y,
                                 double *xd, double *yd);
void texel_warp_distort_fisheye (const TexelCamera *camera, double x, double y,
                                 double *xd, double *yd);
int texel_warp_undistort_point (TexelWarpModel model, const TexelCamera *camera,
                                double xd, double yd, double *x, double *y);
/* The lens's reach (header comment): largest r^2 (pinhole) or theta
 * (fisheye) before the distortion folds back. */
double texel_warp_model_reach (TexelWarpModel model, const TexelCamera *camera);
/* The fisheye's angle off axis theta for a distorted radius theta_d
 * (Newton's method; returns 0 when it does not converge or theta < 0). */
int texel_warp_undistort_fisheye_theta (const TexelCamera *camera,
                                        double theta_d, double *theta);

/* The input luma position that output luma position (@x, @y) maps to
 * (before the border mode). Returns 0 where it has none (behind the
 * camera, beyond infinity, not finite). Double precision: the CPU
 * reference. */
int texel_warp_source_d (const TexelWarpPlan *plan, double x, double y,
                         double *sx, double *sy);

/* texel_warp_source_d, then the border mode (header comment, step 4):
 * the input luma position that sample reads, mirrored or wrapped into
 * the frame, and 1; or 0 where it gets the border colour. The
 * reference's, shared with the fast path's map. */
int texel_warp_source_border_d (const TexelWarpPlan *plan, double x, double y,
                                double *sx, double *sy);

/* CPU reference: double precision, written for clarity. Warps the output
 * rows [row0, row1) (luma rows; even for subsampled output). */
void texel_warp_cpu (const TexelWarpPlan *plan, const TexelImage *in,
                     TexelImage *out, int row0, int row1);

/* The CUDA side (built only with CUDA; returns 0 or a cudaError_t), as
 * texel_cuda_convert (texel-convert.h), whose context (a texture cache on
 * one device) it may share: enqueues output rows [row0, row1) on @stream
 * (never the legacy default stream: NULL is refused) with the context's
 * device current; @in and @out hold device-accessible addresses. */
int texel_cuda_warp (TexelCudaContext *ctx, const TexelWarpPlan *plan,
                     const TexelImage *in, const TexelImage *out, int row0,
                     int row1, TexelStream stream);

TEXEL_END_DECLS

/* ------------------------------------------------------------------ */
/* The float map of the kernels, shared with the host so that tests can
 * run it (and measure its error against texel_warp_source_d).
 *
 * Device: __fdividef (2 ulp for divisors up to 2^126), rsqrtf (2 ulp),
 * atan2f (2 ulp, no faster intrinsic exists), __sincosf (absolute error
 * 2^-21.41 in [-pi, pi], the equirectangular view's angles); host: the
 * correctly rounded (or libm's) equivalents. */
#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
#define TEXEL_WARP_DIV(a, b) __fdividef ((a), (b))
#define TEXEL_WARP_RSQRT(x) rsqrtf (x)
#define TEXEL_WARP_SINCOS(x, s, c) __sincosf ((x), (s), (c))
#else
#define TEXEL_WARP_DIV(a, b) ((a) / (b))
#define TEXEL_WARP_RSQRT(x) (1.0f / sqrtf (x))
#define TEXEL_WARP_SINCOS(x, s, c) (*(s) = sinf (x), *(c) = cosf (x))
#endif
#else
#define TEXEL_WARP_DIV(a, b) ((a) / (b))
#define TEXEL_WARP_RSQRT(x) (1.0f / sqrtf (x))
#define TEXEL_WARP_SINCOS(x, s, c) (*(s) = sinf (x), *(c) = cosf (x))
#endif

TEXEL_HD float
texel_warp_dot3_f (const float row[3], float x, float y)
{
  return fmaf (row[0], x, fmaf (row[1], y, row[2]));
}

/* texel_warp_source_d in float, for the model @model (a compile-time
 * constant in the kernels). */
TEXEL_HD int
texel_warp_source_f (const TexelWarpPlan *p, int model, float x, float y,
                     float *sx, float *sy)
{
  float vx = texel_warp_dot3_f (p->a_f[0], x, y);
  float vy = texel_warp_dot3_f (p->a_f[1], x, y);
  float vz = texel_warp_dot3_f (p->a_f[2], x, y);
  float xd, yd;

  if (model != TEXEL_WARP_MODEL_NONE
      && p->projection == TEXEL_PROJECTION_EQUIRECTANGULAR)
    {
      float inv, slon, clon, slat, clat, rx, ry, rz;

      if (!(vz > 0.0f))
        return 0;
      inv = TEXEL_WARP_DIV (1.0f, vz);
      TEXEL_WARP_SINCOS (vx * inv, &slon, &clon);
      TEXEL_WARP_SINCOS (vy * inv, &slat, &clat);
      rx = clat * slon;
      ry = slat;
      rz = clat * clon;
      vx = fmaf (p->rot_f[0][0], rx,
                 fmaf (p->rot_f[0][1], ry, p->rot_f[0][2] * rz));
      vy = fmaf (p->rot_f[1][0], rx,
                 fmaf (p->rot_f[1][1], ry, p->rot_f[1][2] * rz));
      vz = fmaf (p->rot_f[2][0], rx,
                 fmaf (p->rot_f[2][1], ry, p->rot_f[2][2] * rz));
    }

  if (model == TEXEL_WARP_MODEL_NONE && p->affine)
    {
      *sx = vx;
      *sy = vy;
    }
  else if (model == TEXEL_WARP_MODEL_NONE)
    {
      float inv;

      if (!(vz > 0.0f))
        return 0;
      inv = TEXEL_WARP_DIV (1.0f, vz);
      *sx = vx * inv;
      *sy = vy * inv;
    }
  else if (model == TEXEL_WARP_MODEL_PINHOLE)
    {
      float inv, xu, yu, r2, radial, xy2;

      if (!(vz > 0.0f))
        return 0;
      inv = TEXEL_WARP_DIV (1.0f, vz);
      xu = vx * inv;
      yu = vy * inv;
      r2 = fmaf (xu, xu, yu * yu);
      if (!(r2 <= p->reach_f))
        return 0;
      radial = fmaf (fmaf (fmaf (p->k_f[2], r2, p->k_f[1]), r2, p->k_f[0]), r2,
                     1.0f);
      if (p->rational)
        radial = TEXEL_WARP_DIV (
            radial, fmaf (fmaf (fmaf (p->k_f[5], r2, p->k_f[4]), r2, p->k_f[3]),
                          r2, 1.0f));
      xy2 = 2.0f * xu * yu;
      xd = fmaf (xu, radial,
                 fmaf (p->p_f[0], xy2, p->p_f[1] * fmaf (2.0f * xu, xu, r2)));
      yd = fmaf (yu, radial,
                 fmaf (p->p_f[0], fmaf (2.0f * yu, yu, r2), p->p_f[1] * xy2));
      *sx = fmaf (p->fx_f, xd, p->cx_f);
      *sy = fmaf (p->fy_f, yd, p->cy_f);
    }
  else
    {
      float rho2 = fmaf (vx, vx, vy * vy);
      float theta, t2, theta_d, s;

      if (rho2 > 0.0f)
        {
          float inv_rho = TEXEL_WARP_RSQRT (rho2);

          theta = atan2f (rho2 * inv_rho, vz);
          if (!(theta <= p->reach_f))
            return 0;
          t2 = theta * theta;
          theta_d = theta
                    * fmaf (fmaf (fmaf (fmaf (p->k_f[3], t2, p->k_f[2]), t2,
                                        p->k_f[1]),
                                  t2, p->k_f[0]),
                            t2, 1.0f);
          s = theta_d * inv_rho;
        }
      else if (vz > 0.0f)
        {
          s = 0.0f;
        }
      else
        {
          return 0;
        }
      *sx = fmaf (p->fx_f, vx * s, p->cx_f);
      *sy = fmaf (p->fy_f, vy * s, p->cy_f);
    }
  /* NaN and infinities fail both comparisons' complements. */
  return fabsf (*sx) < 3.0e38f && fabsf (*sy) < 3.0e38f;
}

/* A coordinate outside [0, size] mirrored or wrapped into it; other
 * modes leave it. (size itself stays: see the border step above.) */
TEXEL_HD float
texel_warp_fold_f (float p, float size, int mode)
{
  if (p >= 0.0f && p <= size)
    return p;
  if (mode == TEXEL_WARP_BORDER_WRAP)
    return p - size * floorf (p / size);
  if (mode == TEXEL_WARP_BORDER_MIRROR)
    {
      float t = p - 2.0f * size * floorf (p / (2.0f * size));

      return t > size ? 2.0f * size - t : t;
    }
  return p;
}

/* Applies the border mode to an input position: returns 1 when the
 * sample reads the input there (mirrored or wrapped into the frame), 0
 * when it gets the border colour. */
TEXEL_HD int
texel_warp_border_f (int mode, int width, int height, float *sx, float *sy)
{
  if (mode == TEXEL_WARP_BORDER_CONSTANT)
    return *sx >= 0.0f && *sx <= (float)width && *sy >= 0.0f
           && *sy <= (float)height;
  *sx = texel_warp_fold_f (*sx, (float)width, mode);
  *sy = texel_warp_fold_f (*sy, (float)height, mode);
  return 1;
}

#endif /* TEXEL_WARP_H */
