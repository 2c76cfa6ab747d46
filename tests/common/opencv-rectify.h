/* gst-texel tests: OpenCV's rectification written out from its
 * documentation, in double, independently of the library: the exact
 * definition texelwarp's views are checked against (the element test on
 * the CPU, test-warp-gpu on the GPU).
 *
 *  - cv::initUndistortRectifyMap (K, D, R, P): for output pixel (u, v),
 *    [x y w]^T = (P R)^-1 [u v 1]^T, x' = x / w, y' = y / w; pinhole:
 *    r2 = x'^2 + y'^2, x'' = x' (1 + k1 r2 + k2 r2^2 + k3 r2^3) / (1 + k4
 *    r2 + k5 r2^2 + k6 r2^3) + 2 p1 x' y' + p2 (r2 + 2 x'^2), y'' likewise
 *    (p1 (r2 + 2 y'^2) + 2 p2 x' y'); map = (fx x'' + cx, fy y'' + cy).
 *  - cv::fisheye::initUndistortRectifyMap: r = |(x', y')|, theta =
 *    atan (r), theta_d = theta (1 + k1 theta^2 + k2 theta^4 + k3 theta^6
 *    + k4 theta^8), (x'', y'') = (x', y') theta_d / r (1 at r = 0).
 *  - cv::undistort (img, K, D) is initUndistortRectifyMap (K, D, I, K).
 *  - cv::remap (INTER_LINEAR): pixel centres at integers, the four
 *    samples around the position weighted bilinearly.
 *
 * Header only, plain C (the GPU tests use no GLib).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_TEST_OPENCV_RECTIFY_H
#define TEXEL_TEST_OPENCV_RECTIFY_H

#include <math.h>

typedef struct
{
  int fisheye;
  double K[3][3];
  /* pinhole: k1 k2 p1 p2 k3 k4 k5 k6; fisheye: k1 k2 k3 k4 */
  double D[8];
  double R[3][3];
  double P[3][3]; /* the new camera (P's left 3x3) */
} CvRectify;

/* The 3x3 identity, as an initializer. */
#define CV_TEST_UNIT                                                           \
  {                                                                            \
    { 1, 0, 0 }, { 0, 1, 0 },                                                  \
    {                                                                          \
      0, 0, 1                                                                  \
    }                                                                          \
  }

/* The rectifying rotations (rectification_matrix) of the stereo pair in
 * tests/data/calib/ros-stereo-left.yaml and ros-stereo-right.yaml, for
 * the tests that check those files' views. */
#define CV_TEST_STEREO_LEFT_R                                                  \
  {                                                                            \
    { 0.998532192, -0.015327258, -0.051947435 },                               \
        { 0.013943046, 0.999540754, -0.026904870 },                            \
    {                                                                          \
      0.052335956, 0.026141074, 0.998287329                                    \
    }                                                                          \
  }
#define CV_TEST_STEREO_RIGHT_R                                                 \
  {                                                                            \
    { 0.997222210, 0.023727370, 0.070603653 },                                 \
        { -0.026113183, 0.999112088, 0.033062638 },                            \
    {                                                                          \
      -0.069756474, -0.034814483, 0.996956361                                  \
    }                                                                          \
  }

/* @out = @m^-1 by cofactors; returns 0 for a singular @m. */
static inline int
cv_mat3_invert (double out[3][3], const double m[3][3])
{
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
               - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  int i, j;

  if (!(fabs (det) > 1e-12))
    return 0;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      {
        /* the signed cofactor of m[j][i], by cyclic indices */
        int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3,
            c1 = (i + 2) % 3;

        out[i][j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
      }
  return 1;
}

/* Source position of output pixel (@u, @v), both with pixel centres at
 * integers. Returns 0 where P R is singular. */
static inline int
cv_rectify_map (const CvRectify *c, double u, double v, double *mx, double *my)
{
  const double *d = c->D;
  double pr[3][3], ipr[3][3], x, y, w, xd, yd;
  int i, j;

  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      pr[i][j] = c->P[i][0] * c->R[0][j] + c->P[i][1] * c->R[1][j]
                 + c->P[i][2] * c->R[2][j];
  if (!cv_mat3_invert (ipr, (const double (*)[3])pr))
    return 0;
  x = ipr[0][0] * u + ipr[0][1] * v + ipr[0][2];
  y = ipr[1][0] * u + ipr[1][1] * v + ipr[1][2];
  w = ipr[2][0] * u + ipr[2][1] * v + ipr[2][2];
  x /= w;
  y /= w;
  if (c->fisheye)
    {
      double r = sqrt (x * x + y * y), theta = atan (r), t2 = theta * theta;
      double theta_d = theta
                       * (1 + d[0] * t2 + d[1] * t2 * t2 + d[2] * t2 * t2 * t2
                          + d[3] * t2 * t2 * t2 * t2);
      double scale = r == 0.0 ? 1.0 : theta_d / r;

      xd = x * scale;
      yd = y * scale;
    }
  else
    {
      double r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
      double kr = (1 + d[0] * r2 + d[1] * r4 + d[4] * r6)
                  / (1 + d[5] * r2 + d[6] * r4 + d[7] * r6);

      xd = x * kr + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x);
      yd = y * kr + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y;
    }
  *mx = c->K[0][0] * xd + c->K[0][2];
  *my = c->K[1][1] * yd + c->K[1][2];
  return 1;
}

/* cv::remap's bilinear sample of a @w x @h single-channel image (@get
 * reads sample (x, y) of @img) at (@mx, @my); returns 0 where a tap lies
 * outside (the border is another matter). */
static inline int
cv_remap_bilinear (double (*get) (const void *img, int x, int y),
                   const void *img, int w, int h, double mx, double my,
                   double *value)
{
  int x0 = (int)floor (mx), y0 = (int)floor (my);
  double fx = mx - x0, fy = my - y0;

  if (!(x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h))
    return 0;
  *value
      = (1 - fy) * ((1 - fx) * get (img, x0, y0) + fx * get (img, x0 + 1, y0))
        + fy
              * ((1 - fx) * get (img, x0, y0 + 1)
                 + fx * get (img, x0 + 1, y0 + 1));
  return 1;
}

#endif /* TEXEL_TEST_OPENCV_RECTIFY_H */
