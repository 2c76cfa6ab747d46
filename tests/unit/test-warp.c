/* gst-texel unit tests: the CPU reference of texelwarp.
 *
 *  - identity parameters copy the input exactly (nearest and bilinear);
 *  - quarter turns give texelconvert's video-direction output, byte for
 *    byte;
 *  - the lens models against OpenCV's formulas written out here, on a
 *    known rectilinear view (fov), with pan and tilt, and the calibration
 *    size scaling;
 *  - the new camera matrix's alpha: 0 keeps only valid pixels, 1 keeps
 *    every input pixel;
 *  - undistortion inverts distortion (points, and whole images: undistort
 *    then re-distort);
 *  - a checkerboard drawn through the lens model comes out straight;
 *  - the border modes, and invalid parameters;
 *  - the kernels' float map against the double one;
 *  - calibration files (tests/data/calib): OpenCV and ROS ones read with
 *    the values they hold, broken ones rejected with a message naming the
 *    field.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "texel-calib.h"
#include "texel-test-util.h"
#include "texel-warp.h"

/* ------------------------------------------------------------------ */
/* Helpers */

static void
warp_plan (TexelWarpPlan *plan, const TexelWarpConfig *config,
           TexelFormat in_format, int in_w, int in_h, TexelFormat out_format,
           int out_w, int out_h)
{
  const char *error = NULL;

  if (texel_warp_plan_init (plan, config, in_format, in_w, in_h, out_format,
                            out_w, out_h, &error)
      != 0)
    g_error ("texel_warp_plan_init failed: %s", error);
}

/* Warps @in into a new image, in two bands of rows, twice, into outputs
 * poisoned differently: every pixel byte must come out the same (so every
 * one was written). */
static TestImage *
warp_image (const TexelWarpPlan *plan, const TestImage *in)
{
  const TexelConvertPlan *s = &plan->sampling;
  TestImage *a = test_image_new (s->out.format, s->out_width, s->out_height, 1);
  TestImage *b = test_image_new (s->out.format, s->out_width, s->out_height, 1);
  int cut = (s->out_height / 2) & ~1;

  memset (a->mem, 0xab, a->size);
  memset (b->mem, 0x54, b->size);
  texel_warp_cpu (plan, &in->img, &a->img, 0, cut);
  texel_warp_cpu (plan, &in->img, &a->img, cut, s->out_height);
  texel_warp_cpu (plan, &in->img, &b->img, 0, s->out_height);
  if (!test_image_payload_equal (a, b))
    g_error ("%s %dx%d: not every pixel written", a->desc->name, a->img.width,
             a->img.height);
  test_image_free (b);
  return a;
}

static TestImage *
warp_config (const TexelWarpConfig *config, const TestImage *in,
             TexelFormat out_format, int out_w, int out_h)
{
  TexelWarpPlan plan;

  warp_plan (&plan, config, in->img.format, in->img.width, in->img.height,
             out_format, out_w, out_h);
  return warp_image (&plan, in);
}

/* Full-range GRAY8 in and out: codes pass unchanged. */
static void
gray_config (TexelWarpConfig *config)
{
  texel_warp_config_init (config);
  config->in_color.full_range = 1;
  config->out_color.full_range = 1;
}

static void
camera_init (TexelCamera *cam, double fx, double fy, double cx, double cy)
{
  memset (cam, 0, sizeof (*cam));
  cam->fx = fx;
  cam->fy = fy;
  cam->cx = cx;
  cam->cy = cy;
}

/* ------------------------------------------------------------------ */
/* OpenCV's lens models, written out from its documentation (calib3d,
 * fisheye), independently of the library: normalised undistorted
 * coordinates of a point in front of the camera -> distorted ones. */

static void
opencv_pinhole (const TexelCamera *c, double x, double y, double *xd,
                double *yd)
{
  double r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
  double radial = (1 + c->k[0] * r2 + c->k[1] * r4 + c->k[2] * r6)
                  / (1 + c->k[3] * r2 + c->k[4] * r4 + c->k[5] * r6);

  *xd = x * radial + 2 * c->p[0] * x * y + c->p[1] * (r2 + 2 * x * x);
  *yd = y * radial + c->p[0] * (r2 + 2 * y * y) + 2 * c->p[1] * x * y;
}

static void
opencv_fisheye (const TexelCamera *c, double x, double y, double *xd,
                double *yd)
{
  double r = sqrt (x * x + y * y);
  double theta = atan (r), t2 = theta * theta;
  double theta_d = theta
                   * (1 + c->k[0] * t2 + c->k[1] * t2 * t2
                      + c->k[2] * t2 * t2 * t2 + c->k[3] * t2 * t2 * t2 * t2);
  double scale = r == 0 ? 1.0 : theta_d / r;

  *xd = x * scale;
  *yd = y * scale;
}

/* Input luma position of camera ray (@dx, @dy, @dz) by the formulas
 * above; 0 behind the camera. */
static int
opencv_project (TexelWarpModel model, const TexelCamera *c, double dx,
                double dy, double dz, double *sx, double *sy)
{
  double xd, yd;

  if (dz <= 0)
    return 0;
  if (model == TEXEL_WARP_MODEL_PINHOLE)
    opencv_pinhole (c, dx / dz, dy / dz, &xd, &yd);
  else
    opencv_fisheye (c, dx / dz, dy / dz, &xd, &yd);
  /* OpenCV's pixel coordinates have centres at integers. */
  *sx = c->fx * xd + c->cx + 0.5;
  *sy = c->fy * yd + c->cy + 0.5;
  return 1;
}

typedef struct
{
  const char *name;
  TexelWarpModel model;
  double k[6], p[2];
} Lens;

/* Coefficients of the size real calibrations give (a wide webcam, a
 * rational model, a fisheye). */
static const Lens lenses[] = {
  { "barrel",
    TEXEL_WARP_MODEL_PINHOLE,
    { -0.28, 0.09, -0.012 },
    { 0.0012, -0.0007 } },
  { "pincushion", TEXEL_WARP_MODEL_PINHOLE, { 0.12, 0.03 }, { 0, 0 } },
  { "rational",
    TEXEL_WARP_MODEL_PINHOLE,
    { 1.8, 0.5, 0.01, 2.1, 1.0, 0.08 },
    { -0.0005, 0.0009 } },
  { "fisheye",
    TEXEL_WARP_MODEL_FISHEYE,
    { 0.03, -0.008, 0.0015, -0.0002 },
    { 0, 0 } },
};

static void
lens_camera (const Lens *lens, TexelCamera *cam, int w, int h)
{
  /* A fisheye sees about 180 degrees across the width. */
  double f = lens->model == TEXEL_WARP_MODEL_FISHEYE ? w / 3.3 : w * 0.6;

  camera_init (cam, f, f * 1.01, w * 0.5 - 0.5 + 3.25, h * 0.5 - 0.5 - 2.5);
  memcpy (cam->k, lens->k, sizeof (cam->k));
  memcpy (cam->p, lens->p, sizeof (cam->p));
}

/* ------------------------------------------------------------------ */
/* Identity and quarter turns */

/* Default parameters (model none) at 1:1 copy every format exactly, with
 * nearest and bilinear (centres land on centres), in every border mode,
 * for odd sizes too. */
static void
check_identity (const TestImage *in, gpointer data)
{
  int w = in->img.width, h = in->img.height, m, b;

  for (m = TEXEL_METHOD_NEAREST; m <= TEXEL_METHOD_BILINEAR; m++)
    for (b = TEXEL_WARP_BORDER_CONSTANT; b <= TEXEL_WARP_BORDER_WRAP; b++)
      {
        TexelWarpConfig config;
        TestImage *out;

        texel_warp_config_init (&config);
        config.method = m;
        config.border_mode = b;
        out = warp_config (&config, in, in->img.format, w, h);
        if (!test_image_payload_equal (in, out))
          g_error ("%s %dx%d method %d border %d: not identical",
                   in->desc->name, w, h, m, b);
        test_image_free (out);
      }
}

static void
test_identity (void)
{
  test_each_identity_image (11, check_identity, NULL);
}

/* rotation = 90, 180, 270 and -90 degrees into a frame of the turned size
 * give texelconvert's video-direction 90r, 180, 90l output byte for byte,
 * every format, nearest and bilinear: texelconvert's plan with its chroma
 * footprint filter off, as texelwarp samples chroma at its site (a
 * turned YUY2's chroma is finer vertically than the output's). */
static void
test_quarter_turns (void)
{
  static const struct
  {
    double degrees;
    TexelDirection direction;
  } turns[] = {
    { 90, TEXEL_DIRECTION_90R },  { 180, TEXEL_DIRECTION_180 },
    { 270, TEXEL_DIRECTION_90L }, { -90, TEXEL_DIRECTION_90L },
    { 450, TEXEL_DIRECTION_90R },
  };
  static const int sizes[][2] = { { 16, 8 }, { 6, 10 }, { 20, 12 } };
  GRand *rand = g_rand_new_with_seed (12);
  int f, s, t, m;

  for (f = 0; f < test_n_formats; f++)
    {
      for (s = 0; s < (int)G_N_ELEMENTS (sizes); s++)
        {
          int w = sizes[s][0], h = sizes[s][1];
          TestImage *in = test_image_new (test_all_formats[f], w, h, 1);

          test_image_fill_random (in, rand);
          for (t = 0; t < (int)G_N_ELEMENTS (turns); t++)
            {
              gboolean swaps = turns[t].direction != TEXEL_DIRECTION_180;
              int ow = swaps ? h : w, oh = swaps ? w : h;

              for (m = TEXEL_METHOD_NEAREST; m <= TEXEL_METHOD_BILINEAR; m++)
                {
                  TexelWarpConfig wc;
                  TexelConvertConfig cc;
                  TexelConvertPlan cp;
                  TestImage *warped, *converted;

                  texel_warp_config_init (&wc);
                  wc.method = m;
                  wc.rotation = turns[t].degrees;
                  test_config_init (&cc, w, h, ow, oh);
                  cc.method = m;
                  cc.direction = turns[t].direction;
                  warped = warp_config (&wc, in, in->img.format, ow, oh);
                  test_plan (&cp, &cc, in->img.format, w, h, in->img.format, ow,
                             oh);
                  cp.chroma_filter = 0;
                  converted = test_convert (&cp, in);
                  if (!test_image_payload_equal (warped, converted))
                    g_error ("%s %dx%d rotation %g method %d: differs from "
                             "texelconvert's direction %d",
                             in->desc->name, w, h, turns[t].degrees, m,
                             turns[t].direction);
                  test_image_free (warped);
                  test_image_free (converted);
                }
            }
          test_image_free (in);
        }
    }
  g_rand_free (rand);
}

/* ------------------------------------------------------------------ */
/* The map against OpenCV's formulas */

/* With fov given, K_new is known: f = (W / 2) / tan (fov / 2), principal
 * point at the centre. Each output position's ray, turned by pan and tilt
 * (written out here), projected by OpenCV's formulas, must be where the
 * plan maps it, to 1e-9 pixel. Covers every lens, pan/tilt, and a
 * calibration made at twice the input's size (intrinsics halved as the
 * frame is). */
static void
test_models_match_opencv (void)
{
  static const double views[][3] = {
    /* fov, pan, tilt */
    { 90, 0, 0 },
    { 60, 20, -10 },
    { 120, -35, 25 },
  };
  const int w = 320, h = 240;
  int l, v, cal, n = 0;

  for (l = 0; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      for (v = 0; v < (int)G_N_ELEMENTS (views); v++)
        {
          for (cal = 1; cal <= 2; cal++)
            {
              TexelWarpConfig config;
              TexelCamera at_input;
              TexelWarpPlan plan;
              double fov = views[v][0], pan = views[v][1] * M_PI / 180;
              double tilt = views[v][2] * M_PI / 180;
              double f = 0.5 * w / tan (0.5 * fov * M_PI / 180);
              int x, y;

              texel_warp_config_init (&config);
              config.model = lenses[l].model;
              lens_camera (&lenses[l], &at_input, w, h);
              config.camera = at_input;
              if (cal == 2)
                {
                  /* Calibrated at 640x480: twice the focal length, and pixel
                   * centres at 2 (c + 0.5) - 0.5. */
                  config.camera.cal_width = 2 * w;
                  config.camera.cal_height = 2 * h;
                  config.camera.fx *= 2;
                  config.camera.fy *= 2;
                  config.camera.cx = 2 * (at_input.cx + 0.5) - 0.5;
                  config.camera.cy = 2 * (at_input.cy + 0.5) - 0.5;
                }
              config.fov = fov;
              config.pan = views[v][1];
              config.tilt = views[v][2];
              warp_plan (&plan, &config, TEXEL_FORMAT_GRAY8, w, h,
                         TEXEL_FORMAT_GRAY8, w, h);

              for (y = 0; y < h; y += 7)
                {
                  for (x = 0; x < w; x += 5)
                    {
                      double X = x + 0.5, Y = y + 0.5;
                      /* View ray, then Ry (pan) Rx (tilt). */
                      double rx = (X - 0.5 - (0.5 * w - 0.5)) / f;
                      double ry = (Y - 0.5 - (0.5 * h - 0.5)) / f, rz = 1;
                      double ty = cos (tilt) * ry - sin (tilt) * rz;
                      double tz = sin (tilt) * ry + cos (tilt) * rz;
                      double cx = cos (pan) * rx + sin (pan) * tz;
                      double cz = -sin (pan) * rx + cos (pan) * tz;
                      double ex, ey, sx, sy;
                      int expected = opencv_project (lenses[l].model, &at_input,
                                                     cx, ty, cz, &ex, &ey);
                      int got = texel_warp_source_d (&plan, X, Y, &sx, &sy);

                      if (!expected)
                        {
                          /* Behind the camera: only a fisheye still sees it. */
                          g_assert_true (lenses[l].model
                                             == TEXEL_WARP_MODEL_FISHEYE
                                         || !got);
                          continue;
                        }
                      if (!got)
                        {
                          /* Only beyond the lens's reach (test_reach). */
                          double r2 = (cx * cx + ty * ty) / (cz * cz);
                          double reach = texel_warp_model_reach (
                              lenses[l].model, &at_input);

                          g_assert_cmpfloat (lenses[l].model
                                                     == TEXEL_WARP_MODEL_PINHOLE
                                                 ? r2
                                                 : atan (sqrt (r2)),
                                             >, reach);
                          continue;
                        }
                      if (fabs (sx - ex) > 1e-9 * fmax (1, fabs (ex))
                          || fabs (sy - ey) > 1e-9 * fmax (1, fabs (ey)))
                        g_error ("%s fov %g pan %g tilt %g cal %d at (%g, %g): "
                                 "(%.12g, %.12g), OpenCV (%.12g, %.12g)",
                                 lenses[l].name, fov, views[v][1], views[v][2],
                                 cal, X, Y, sx, sy, ex, ey);
                      n++;
                    }
                }
            }
        }
    }
  g_test_message ("%d positions checked", n);
}

/* The equirectangular view (a panorama): lon = (X - 0.5 - (W / 2 - 0.5))
 * / f, lat likewise, f = W / fov (180 degrees for 0) pixels per radian,
 * the ray (cos lat sin lon, sin lat, cos lat cos lon) turned by pan and
 * tilt, then OpenCV's formulas; a fisheye's rays behind the camera by the
 * header's atan2 form of the same model. Every lens; 180, 220 and 90
 * degrees; pan and tilt. To 1e-9 pixel relative, as above. */
static void
test_equirectangular_matches_formulas (void)
{
  static const double views[][3] = {
    /* fov, pan, tilt */
    { 0, 0, 0 },
    { 220, 20, -10 },
    { 90, -30, 15 },
  };
  const int w = 320, h = 240, ow = 300, oh = 150;
  int l, v, n = 0, behind = 0;

  for (l = 0; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      for (v = 0; v < (int)G_N_ELEMENTS (views); v++)
        {
          TexelWarpConfig config;
          TexelWarpPlan plan;
          double fov = views[v][0] > 0 ? views[v][0] : 180;
          double f = ow / (fov * M_PI / 180), pan = views[v][1] * M_PI / 180;
          double tilt = views[v][2] * M_PI / 180;
          double reach;
          int x, y;

          texel_warp_config_init (&config);
          config.model = lenses[l].model;
          config.projection = TEXEL_PROJECTION_EQUIRECTANGULAR;
          lens_camera (&lenses[l], &config.camera, w, h);
          config.fov = views[v][0];
          config.pan = views[v][1];
          config.tilt = views[v][2];
          warp_plan (&plan, &config, TEXEL_FORMAT_GRAY8, w, h,
                     TEXEL_FORMAT_GRAY8, ow, oh);
          reach = texel_warp_model_reach (config.model, &config.camera);

          for (y = 0; y < oh; y += 7)
            {
              for (x = 0; x < ow; x += 5)
                {
                  double lon = (x - (0.5 * ow - 0.5)) / f;
                  double lat = (y - (0.5 * oh - 0.5)) / f;
                  double rx = cos (lat) * sin (lon), ry = sin (lat);
                  double rz = cos (lat) * cos (lon);
                  double ty = cos (tilt) * ry - sin (tilt) * rz;
                  double tz = sin (tilt) * ry + cos (tilt) * rz;
                  double cx = cos (pan) * rx + sin (pan) * tz;
                  double cz = -sin (pan) * rx + cos (pan) * tz;
                  double rho = sqrt (cx * cx + ty * ty), ex, ey, sx, sy;
                  int got
                      = texel_warp_source_d (&plan, x + 0.5, y + 0.5, &sx, &sy);

                  if (lenses[l].model == TEXEL_WARP_MODEL_FISHEYE)
                    {
                      double theta = atan2 (rho, cz), t2 = theta * theta;
                      const double *k = config.camera.k;
                      double theta_d = theta
                                       * (1 + k[0] * t2 + k[1] * t2 * t2
                                          + k[2] * t2 * t2 * t2
                                          + k[3] * t2 * t2 * t2 * t2);

                      if (theta > reach)
                        {
                          g_assert_false (got);
                          continue;
                        }
                      ex = config.camera.fx * theta_d * cx / rho
                           + config.camera.cx + 0.5;
                      ey = config.camera.fy * theta_d * ty / rho
                           + config.camera.cy + 0.5;
                      behind += cz <= 0;
                    }
                  else if (!opencv_project (lenses[l].model, &config.camera, cx,
                                            ty, cz, &ex, &ey)
                           || (cx * cx + ty * ty) / (cz * cz) > reach)
                    {
                      g_assert_false (got);
                      continue;
                    }
                  g_assert_true (got);
                  if (fabs (sx - ex) > 1e-9 * fmax (1, fabs (ex))
                      || fabs (sy - ey) > 1e-9 * fmax (1, fabs (ey)))
                    g_error ("%s equirect fov %g at (%d, %d): (%.12g, %.12g), "
                             "expected (%.12g, %.12g)",
                             lenses[l].name, fov, x, y, sx, sy, ex, ey);
                  n++;
                }
            }
        }
    }
  g_test_message ("%d positions checked, %d of them behind a fisheye", n,
                  behind);
  g_assert_cmpint (behind, >, 0);
}

/* The reach: at 0.99 of it the lens's radial distortion (OpenCV's
 * formulas above, by finite differences) still grows with the angle off
 * axis, at 1.01 it does not (or the reach is the model's limit: r = 20,
 * theta = pi). */
static void
test_reach (void)
{
  int l;

  for (l = 0; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      gboolean pinhole = lenses[l].model == TEXEL_WARP_MODEL_PINHOLE;
      TexelCamera cam;
      double reach, a, f, h = 1e-6;
      int s;

      lens_camera (&lenses[l], &cam, 320, 240);
      cam.p[0] = cam.p[1] = 0;
      reach = texel_warp_model_reach (lenses[l].model, &cam);
      g_test_message ("%s: reach %g (%s)", lenses[l].name, reach,
                      pinhole ? "r^2" : "theta");
      for (s = 0; s < 2; s++)
        {
          double d0, d1, dummy, growth;

          a = (s == 0 ? 0.99 : 1.01) * (pinhole ? sqrt (reach) : reach);
          /* Radius in the plane z = 1 of the angle a (fisheye) or a itself. */
          f = pinhole ? a : tan (a);
          if (!pinhole && a >= M_PI / 2)
            break;
          if (pinhole)
            {
              opencv_pinhole (&cam, f + h, 0, &d1, &dummy);
              opencv_pinhole (&cam, f - h, 0, &d0, &dummy);
            }
          else
            {
              opencv_fisheye (&cam, tan (a + h), 0, &d1, &dummy);
              opencv_fisheye (&cam, tan (a - h), 0, &d0, &dummy);
            }
          growth = d1 - d0;
          if (s == 0)
            g_assert_cmpfloat (growth, >, 0);
          else if (pinhole ? reach < 399.9 : reach < M_PI - 1e-6)
            g_assert_cmpfloat (growth, <=, 0);
        }
    }
}

/* Model none: rotation, zoom, pan and a homography against the formulas
 * of texel-warp.h written out, with input and output of different
 * sizes. */
static void
test_view_matches_formulas (void)
{
  const int in_w = 200, in_h = 120, out_w = 150, out_h = 100;
  const double hom[3][3]
      = { { 1.1, 0.05, -4 }, { -0.02, 0.95, 3 }, { 0.0004, -0.0003, 1 } };
  TexelWarpConfig config;
  TexelWarpPlan plan;
  double hinv[3][3], det;
  double th = 23.5 * M_PI / 180;
  int x, y, i, j;

  texel_warp_config_init (&config);
  config.rotation = 23.5;
  config.scale = 1.7;
  config.offset_x = 0.1;
  config.offset_y = -0.05;
  memcpy (config.homography, hom, sizeof (hom));
  warp_plan (&plan, &config, TEXEL_FORMAT_GRAY8, in_w, in_h, TEXEL_FORMAT_GRAY8,
             out_w, out_h);
  g_assert_cmpint (plan.rect_width, ==, out_w);

  /* The inverse by cofactors, here. */
  det = hom[0][0] * (hom[1][1] * hom[2][2] - hom[1][2] * hom[2][1])
        - hom[0][1] * (hom[1][0] * hom[2][2] - hom[1][2] * hom[2][0])
        + hom[0][2] * (hom[1][0] * hom[2][1] - hom[1][1] * hom[2][0]);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      {
        int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3,
            c1 = (i + 2) % 3;

        hinv[i][j]
            = (hom[r0][c0] * hom[r1][c1] - hom[r0][c1] * hom[r1][c0]) / det;
      }

  for (y = 0; y < out_h; y += 3)
    {
      for (x = 0; x < out_w; x += 3)
        {
          double X = x + 0.5, Y = y + 0.5, sx, sy;
          double dx = X - out_w / 2.0, dy = Y - out_h / 2.0;
          double rx = out_w / 2.0 + 0.1 * out_w
                      + (cos (th) * dx + sin (th) * dy) / 1.7;
          double ry = out_h / 2.0 - 0.05 * out_h
                      + (-sin (th) * dx + cos (th) * dy) / 1.7;
          double h0
              = hinv[0][0] * (rx - 0.5) + hinv[0][1] * (ry - 0.5) + hinv[0][2];
          double h1
              = hinv[1][0] * (rx - 0.5) + hinv[1][1] * (ry - 0.5) + hinv[1][2];
          double h2
              = hinv[2][0] * (rx - 0.5) + hinv[2][1] * (ry - 0.5) + hinv[2][2];
          double ex = (h0 / h2 + 0.5) * in_w / out_w;
          double ey = (h1 / h2 + 0.5) * in_h / out_h;

          g_assert_true (texel_warp_source_d (&plan, X, Y, &sx, &sy));
          if (fabs (sx - ex) > 1e-9 || fabs (sy - ey) > 1e-9)
            g_error ("(%g, %g): (%.12g, %.12g), expected (%.12g, %.12g)", X, Y,
                     sx, sy, ex, ey);
        }
    }
}

/* ------------------------------------------------------------------ */
/* The new camera matrix */

/* Undistorted luma position in the rectified frame of input luma position
 * (@x, @y); 0 where the model has none. */
static int
rectified_position (const TexelWarpPlan *plan, TexelWarpModel model,
                    const TexelCamera *cam, double x, double y, double *rx,
                    double *ry)
{
  double ux, uy;

  if (!texel_warp_undistort_point (model, cam, (x - 0.5 - cam->cx) / cam->fx,
                                   (y - 0.5 - cam->cy) / cam->fy, &ux, &uy))
    return 0;
  *rx = plan->new_camera[0][0] * ux + plan->new_camera[0][2] + 0.5;
  *ry = plan->new_camera[1][1] * uy + plan->new_camera[1][2] + 0.5;
  return 1;
}

/* alpha = 0: the output's edge maps inside the input (no border pixels;
 * OpenCV's 9x9 grid of edge points leaves up to a pixel between them);
 * alpha = 1: the input's edge maps inside the output (every input pixel
 * kept) and touches the output's edges. Pinhole lenses. */
static void
test_alpha (void)
{
  const int w = 320, h = 240, ow = 256, oh = 200;
  int l;

  for (l = 0; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      TexelWarpConfig config;
      TexelWarpPlan plan0, plan1;
      double min_x = 1e9, max_x = -1e9, min_y = 1e9, max_y = -1e9;
      int i;

      if (lenses[l].model != TEXEL_WARP_MODEL_PINHOLE)
        continue;
      texel_warp_config_init (&config);
      config.model = lenses[l].model;
      lens_camera (&lenses[l], &config.camera, w, h);
      config.alpha = 0.0;
      warp_plan (&plan0, &config, TEXEL_FORMAT_GRAY8, w, h, TEXEL_FORMAT_GRAY8,
                 ow, oh);
      config.alpha = 1.0;
      warp_plan (&plan1, &config, TEXEL_FORMAT_GRAY8, w, h, TEXEL_FORMAT_GRAY8,
                 ow, oh);

      /* Along the output's edge (pixel centres). */
      for (i = 0; i < 2 * (ow + oh); i++)
        {
          double X = i < ow            ? i + 0.5
                     : i < 2 * ow      ? i - ow + 0.5
                     : i < 2 * ow + oh ? 0.5
                                       : ow - 0.5;
          double Y = i < ow            ? 0.5
                     : i < 2 * ow      ? oh - 0.5
                     : i < 2 * ow + oh ? i - 2 * ow + 0.5
                                       : i - 2 * ow - oh + 0.5;
          double sx, sy;

          g_assert_true (texel_warp_source_d (&plan0, X, Y, &sx, &sy));
          if (sx < -1.0 || sx > w + 1.0 || sy < -1.0 || sy > h + 1.0)
            g_error ("%s alpha 0: output edge (%g, %g) from (%g, %g), outside",
                     lenses[l].name, X, Y, sx, sy);
        }
      /* Along the input's edge (OpenCV's corners 0 and W). */
      for (i = 0; i <= 2 * (w + h); i++)
        {
          double x = i <= w ? i : i <= 2 * w ? i - w : i <= 2 * w + h ? 0 : w;
          double y = i <= w           ? 0
                     : i <= 2 * w     ? h
                     : i <= 2 * w + h ? i - 2 * w
                                      : i - 2 * w - h;
          double rx, ry;

          g_assert_true (rectified_position (&plan1, config.model,
                                             &config.camera, x + 0.5, y + 0.5,
                                             &rx, &ry));
          min_x = fmin (min_x, rx);
          max_x = fmax (max_x, rx);
          min_y = fmin (min_y, ry);
          max_y = fmax (max_y, ry);
        }
      /* OpenCV's (size - 1) mapping: from centre 0.5 to centre size - 0.5,
       * to within the 9x9 grid's reach. */
      if (min_x < 0.5 - 1.0 || max_x > ow - 0.5 + 1.0 || min_y < 0.5 - 1.0
          || max_y > oh - 0.5 + 1.0)
        g_error ("%s alpha 1: input edge spans [%g, %g] x [%g, %g], outside "
                 "the output",
                 lenses[l].name, min_x, max_x, min_y, max_y);
      if (min_x > 0.5 + 1.0 || max_x < ow - 0.5 - 1.0 || min_y > 0.5 + 1.0
          || max_y < oh - 0.5 - 1.0)
        g_error ("%s alpha 1: input edge spans [%g, %g] x [%g, %g], not "
                 "reaching the output's edges",
                 lenses[l].name, min_x, max_x, min_y, max_y);
    }
}

/* ------------------------------------------------------------------ */
/* Undistortion inverts distortion */

/* Points: for input positions over the whole frame, undistorted to the
 * rectified frame (Newton), the plan maps them back to within 1e-6
 * pixel. Every lens, alpha 0 and 1, fov. */
static void
test_round_trip_points (void)
{
  const int w = 320, h = 240;
  double worst = 0.0;
  int l, a;

  for (l = 0; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      for (a = 0; a < 3; a++)
        {
          TexelWarpConfig config;
          TexelWarpPlan plan;
          int x, y;

          texel_warp_config_init (&config);
          config.model = lenses[l].model;
          lens_camera (&lenses[l], &config.camera, w, h);
          config.alpha = a == 1 ? 1.0 : 0.0;
          config.fov = a == 2 ? 100.0 : 0.0;
          warp_plan (&plan, &config, TEXEL_FORMAT_GRAY8, w, h,
                     TEXEL_FORMAT_GRAY8, w, h);
          for (y = 0; y <= h; y += 8)
            {
              for (x = 0; x <= w; x += 8)
                {
                  double rx, ry, sx, sy, err;

                  if (!rectified_position (&plan, config.model, &config.camera,
                                           x, y, &rx, &ry))
                    {
                      /* Only a fisheye's beyond 90 degrees off axis. */
                      g_assert_true (config.model == TEXEL_WARP_MODEL_FISHEYE);
                      continue;
                    }
                  g_assert_true (texel_warp_source_d (&plan, rx, ry, &sx, &sy));
                  err = hypot (sx - x, sy - y);
                  worst = fmax (worst, err);
                  if (err > 1e-6)
                    g_error (
                        "%s alpha %g fov %g: (%d, %d) -> (%g, %g) -> (%.9g, "
                        "%.9g)",
                        lenses[l].name, config.alpha, config.fov, x, y, rx, ry,
                        sx, sy);
                }
            }
        }
    }
  g_test_message ("largest round-trip error %.3g pixel", worst);
}

/* A smooth pattern (codes) of normalised coordinates. */
static double
smooth_pattern (double x, double y)
{
  return 128.0 + 90.0 * sin (2 * M_PI * x / 0.45) * cos (2 * M_PI * y / 0.35);
}

/* Bilinear sample of GRAY8 @t at luma position (@x, @y); -1 outside the
 * centres. */
static double
gray_bilinear (const TestImage *t, double x, double y)
{
  double fx = x - 0.5, fy = y - 0.5;
  int x0 = (int)floor (fx), y0 = (int)floor (fy);
  double ax = fx - x0, ay = fy - y0;

  if (x0 < 0 || y0 < 0 || x0 + 1 >= t->img.width || y0 + 1 >= t->img.height)
    return -1.0;
  return (1 - ay)
             * ((1 - ax) * test_image_get (t, 0, x0, y0)
                + ax * test_image_get (t, 0, x0 + 1, y0))
         + ay
               * ((1 - ax) * test_image_get (t, 0, x0, y0 + 1)
                  + ax * test_image_get (t, 0, x0 + 1, y0 + 1));
}

/* A pattern given in undistorted normalised coordinates (@undistorted;
 * else in distorted ones) at OpenCV pixel position (@u, @v) of the
 * distorted image. */
static double
pattern_at (TexelWarpModel model, const TexelCamera *cam,
            double (*pattern) (double, double), gboolean undistorted, double u,
            double v)
{
  double xd = (u - cam->cx) / cam->fx, yd = (v - cam->cy) / cam->fy, x, y;

  if (!undistorted)
    return pattern (xd, yd);
  if (texel_warp_undistort_point (model, cam, xd, yd, &x, &y))
    return pattern (x, y);
  /* A fisheye's points beyond 90 degrees off axis have no place in the
   * plane: mid grey. */
  if (model != TEXEL_WARP_MODEL_FISHEYE)
    g_error ("(%g, %g) not undistorted", u, v);
  return 128;
}

/* The distorted image of a pattern given in undistorted normalised
 * coordinates (@undistorted; else in distorted ones, so that it is smooth
 * in the image whatever the lens): each pixel the mean of 4x4
 * subsamples. */
static TestImage *
draw_distorted (TexelWarpModel model, const TexelCamera *cam, int w, int h,
                double (*pattern) (double, double), gboolean undistorted)
{
  TestImage *t = test_image_new (TEXEL_FORMAT_GRAY8, w, h, 1);
  int x, y, a, b;

  for (y = 0; y < h; y++)
    {
      for (x = 0; x < w; x++)
        {
          double sum = 0;

          for (b = 0; b < 4; b++)
            for (a = 0; a < 4; a++)
              sum += pattern_at (model, cam, pattern, undistorted,
                                 x + (a + 0.5) / 4 - 0.5,
                                 y + (b + 0.5) / 4 - 0.5);
          test_image_set (t, 0, x, y, (unsigned)lround (sum / 16));
        }
    }
  return t;
}

/* Undistort then re-distort a smooth image: a distorted image D,
 * undistorted by the warp (bilinear) into U, then re-distorted here (each
 * pixel of D sampled bilinearly from U at its undistorted position) gives
 * D back within 3 codes where U is valid. D's pattern has amplitude 90
 * and wavelengths of 0.35 f or more (f >= 97 pixels: 34 pixels), so its
 * second derivatives are at most 90 (2 pi / 34)^2 = 3.1 codes per
 * pixel^2, and a bilinear interpolation is off by at most (|f_xx| +
 * |f_yy|) / 8 < 0.8 code; U magnifies D nearly everywhere these lenses
 * are undistorted at alpha 0, so its own interpolation adds less; plus 2
 * roundings of 0.5. */
static void
test_round_trip_image (void)
{
  const int w = 320, h = 240;
  int l;

  for (l = 0; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      TexelWarpConfig config;
      TexelWarpPlan plan;
      TestImage *d, *u;
      double worst = 0.0;
      int x, y, n = 0;

      gray_config (&config);
      config.model = lenses[l].model;
      lens_camera (&lenses[l], &config.camera, w, h);
      config.alpha = 0.0;
      /* A fisheye at alpha 0 squeezes the middle (its K_new puts 80 degrees
       * at the edge): a field of view that magnifies everywhere instead. */
      if (config.model == TEXEL_WARP_MODEL_FISHEYE)
        config.fov = 100;
      d = draw_distorted (config.model, &config.camera, w, h, smooth_pattern,
                          FALSE);
      warp_plan (&plan, &config, TEXEL_FORMAT_GRAY8, w, h, TEXEL_FORMAT_GRAY8,
                 w, h);
      u = warp_image (&plan, d);

      for (y = 0; y < h; y++)
        {
          for (x = 0; x < w; x++)
            {
              double rx, ry, sx, sy, back;

              if (!rectified_position (&plan, config.model, &config.camera,
                                       x + 0.5, y + 0.5, &rx, &ry))
                continue;
              back = gray_bilinear (u, rx, ry);
              /* Where U's four pixels came from inside D. */
              if (back < 0 || !texel_warp_source_d (&plan, rx, ry, &sx, &sy)
                  || sx < 2 || sy < 2 || sx > w - 2 || sy > h - 2)
                continue;
              worst = fmax (worst, fabs (back - test_image_get (d, 0, x, y)));
              n++;
            }
        }
      g_test_message ("%s: %d pixels, largest round-trip error %.2f codes",
                      lenses[l].name, n, worst);
      g_assert_cmpint (n, >, w * h / 4);
      if (worst > 3.0)
        g_error ("%s: round trip off by %.2f codes (bound 3)", lenses[l].name,
                 worst);
      test_image_free (d);
      test_image_free (u);
    }
}

/* ------------------------------------------------------------------ */
/* A checkerboard comes out straight */

#define BOARD_SQUARE 0.3
#define BOARD_DARK 30
#define BOARD_LIGHT 220
/* Half the width of the edges' ramps, in normalised coordinates: 6 to 12
 * pixels at the lenses' focal lengths (fewer where a lens squeezes its
 * periphery: 2 at the fisheye's 55 degrees). */
#define BOARD_RAMP 0.06
#define BOARD_WINDOW 32

/* Along one axis: -1 in even squares, +1 in odd ones, with raised-cosine
 * ramps of half-width BOARD_RAMP across the sides (smooth: the image is
 * band-limited enough that resampling it does not move its edges). */
static double
board_axis (double t)
{
  double u = t / BOARD_SQUARE, frac = u - floor (u);
  double d = BOARD_SQUARE * fmin (frac, 1.0 - frac);
  double sign = ((long)floor (u)) & 1 ? 1.0 : -1.0;

  return sign * sin (0.5 * M_PI * fmin (d / BOARD_RAMP, 1.0));
}

static double
board (double x, double y)
{
  return 0.5 * (BOARD_DARK + BOARD_LIGHT)
         + 0.5 * (BOARD_LIGHT - BOARD_DARK) * board_axis (x) * board_axis (y);
}

/* Edge positions along rows (@vertical) or columns of GRAY8 @t near the
 * expected edge positions @pos. The position is measured by area: over
 * the BOARD_WINDOW pixels [k0, k0 + n) around the expected position, with
 * values v normalised by the window's end values a and b, the edge lies at
 * k0 + n - sum (v - a) / (b - a): exact for a symmetric ramp. Lines whose
 * window does not go from dark to light (or back) in full are left out
 * (near a crossing edge, the ramps of the two meet; at the frame's edge,
 * the border colour). Fills @worst_error
 * (against @pos; infinite where no line of an edge qualifies) and
 * @worst_curve (against each edge's own least-squares line through its
 * positions: straightness, whatever the camera matrix). */
static void
measure_edges (const TestImage *t, gboolean vertical, const double *pos,
               int n_pos, double *worst_error, double *worst_curve)
{
  int len = vertical ? t->img.width : t->img.height;
  int lines = vertical ? t->img.height : t->img.width;
  int e, line, k;

  *worst_error = *worst_curve = 0;
  for (e = 0; e < n_pos; e++)
    {
      double sx = 0, sxx = 0, sxy = 0, sy = 0;
      double found[1024], at[1024];
      int k0 = (int)floor (pos[e]) - BOARD_WINDOW / 2, m = 0;

      if (k0 < 0 || k0 + BOARD_WINDOW > len)
        continue;
      for (line = 0; line < lines && m < 1024; line++)
        {
          double a = test_image_get (t, 0, vertical ? k0 : line,
                                     vertical ? line : k0);
          double b
              = test_image_get (t, 0, vertical ? k0 + BOARD_WINDOW - 1 : line,
                                vertical ? line : k0 + BOARD_WINDOW - 1);
          double sum = 0;

          /* (Also leaves out the border colour of the frame's edge.) */
          if (fabs (b - a) < BOARD_LIGHT - BOARD_DARK - 2
              || fmin (a, b) < BOARD_DARK - 4 || fmax (a, b) > BOARD_LIGHT + 4)
            continue;
          for (k = k0; k < k0 + BOARD_WINDOW; k++)
            sum += ((double)test_image_get (t, 0, vertical ? k : line,
                                            vertical ? line : k)
                    - a)
                   / (b - a);
          found[m] = k0 + BOARD_WINDOW - sum;
          at[m++] = line + 0.5;
          *worst_error = fmax (*worst_error, fabs (found[m - 1] - pos[e]));
        }
      if (m == 0)
        *worst_error = INFINITY;
      for (k = 0; k < m; k++)
        {
          sx += at[k];
          sy += found[k];
          sxx += at[k] * at[k];
          sxy += at[k] * found[k];
        }
      if (m >= 3)
        {
          double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
          double icpt = (sy - slope * sx) / m;

          for (k = 0; k < m; k++)
            *worst_curve
                = fmax (*worst_curve, fabs (found[k] - (slope * at[k] + icpt)));
        }
    }
}

/* The squares' sides where @plan's new camera puts them, in output luma
 * coordinates: columns (@x) or rows. */
static int
board_sides (const TexelWarpPlan *plan, gboolean x, double *sides, int max)
{
  int size = x ? plan->sampling.out_width : plan->sampling.out_height;
  int i, n = 0;

  for (i = -40; i <= 40 && n < max; i++)
    {
      double p = plan->new_camera[x ? 0 : 1][x ? 0 : 1] * i * BOARD_SQUARE
                 + plan->new_camera[x ? 0 : 1][2] + 0.5;

      if (p > 0 && p < size)
        sides[n++] = p;
    }
  return n;
}

/* Straightens @d with @config: the largest error of the edges' positions
 * and of their straightness, over both directions. */
static void
straighten (const TexelWarpConfig *config, const TestImage *d, double *error,
            double *curve)
{
  TexelWarpPlan plan;
  TestImage *u;
  double cols[64], rows[64], err_v, curve_v, err_h, curve_h;
  int nc, nr;

  warp_plan (&plan, config, TEXEL_FORMAT_GRAY8, d->img.width, d->img.height,
             TEXEL_FORMAT_GRAY8, d->img.width, d->img.height);
  u = warp_image (&plan, d);
  nc = board_sides (&plan, TRUE, cols, 64);
  nr = board_sides (&plan, FALSE, rows, 64);
  g_assert_cmpint (nc, >=, 2);
  g_assert_cmpint (nr, >=, 2);
  measure_edges (u, TRUE, cols, nc, &err_v, &curve_v);
  measure_edges (u, FALSE, rows, nr, &err_h, &curve_h);
  *error = fmax (err_v, err_h);
  *curve = fmax (curve_v, curve_h);
  test_image_free (u);
}

/* A checkerboard of squares straight in the undistorted view, its edges
 * ramps a few pixels wide (a sharp edge, resampled bilinearly, moves by
 * up to a quarter pixel depending on its phase: that is sampling, not
 * geometry), drawn through each lens model, undistorted by the warp
 * (bilinear) with alpha 0 (pinhole) or fov 110 (fisheye): its edges lie
 * where K_new puts the squares' sides, and on straight lines, within
 * 0.2 pixel (measured: 0.10 to 0.11 for the pinhole lenses, 0.15 for the
 * fisheye, whose periphery the input resolves least). The same board
 * undistorted with the distortion coefficients left out is off by more than a
 * pixel: the measurement would notice a warp that does not straighten. */
static void
test_checkerboard (void)
{
  const int w = 320, h = 240;
  const double bound = 0.2;
  int l;

  for (l = 0; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      TexelWarpConfig config;
      TestImage *d;
      double error, curve;

      gray_config (&config);
      config.model = lenses[l].model;
      lens_camera (&lenses[l], &config.camera, w, h);
      if (config.model == TEXEL_WARP_MODEL_FISHEYE)
        config.fov = 110;
      d = draw_distorted (config.model, &config.camera, w, h, board, TRUE);

      straighten (&config, d, &error, &curve);
      g_test_message ("%s: edges off by %.3f pixel, bent by %.3f",
                      lenses[l].name, error, curve);
      if (error > bound || curve > bound)
        g_error ("%s: straightened edges off by %.3f pixel, bent by %.3f "
                 "(bound %g)",
                 lenses[l].name, error, curve, bound);

      memset (config.camera.k, 0, sizeof (config.camera.k));
      memset (config.camera.p, 0, sizeof (config.camera.p));
      straighten (&config, d, &error, &curve);
      g_test_message ("%s without distortion: edges off by %.3f pixel",
                      lenses[l].name, error);
      if (!(error > 1.0))
        g_error ("%s: the board is straight without undistortion (%.3f)",
                 lenses[l].name, error);
      test_image_free (d);
    }
}

/* ------------------------------------------------------------------ */
/* Border modes */

/* An output shifted by a homography translation (tx, ty) = (-3, 2): each
 * output pixel (X, Y) reads input pixel (X + 3, Y - 2), and for those
 * outside: constant -> the border colour, clamp -> the edge pixel,
 * mirror -> OpenCV's BORDER_REFLECT (fedcba|abcdef), wrap -> modulo.
 * Nearest and bilinear (positions on centres). */
static int
reflect (int i, int n)
{
  while (i < 0 || i >= n)
    i = i < 0 ? -i - 1 : 2 * n - i - 1;
  return i;
}

static void
test_border_modes (void)
{
  const int w = 7, h = 5, tx = -3, ty = 2;
  GRand *rand = g_rand_new_with_seed (13);
  TestImage *in = test_image_new (TEXEL_FORMAT_GRAY8, w, h, 1);
  int b, m, x, y;

  test_image_fill_random (in, rand);
  for (b = TEXEL_WARP_BORDER_CONSTANT; b <= TEXEL_WARP_BORDER_WRAP; b++)
    {
      for (m = TEXEL_METHOD_NEAREST; m <= TEXEL_METHOD_BILINEAR; m++)
        {
          TexelWarpConfig config;
          TestImage *out;

          gray_config (&config);
          config.border_mode = b;
          config.method = m;
          config.homography[0][2] = tx;
          config.homography[1][2] = ty;
          config.border_rgba[0] = config.border_rgba[1] = config.border_rgba[2]
              = 200.0 / 255.0;
          out = warp_config (&config, in, TEXEL_FORMAT_GRAY8, w, h);
          for (y = 0; y < h; y++)
            {
              for (x = 0; x < w; x++)
                {
                  int sx = x - tx, sy = y - ty;
                  unsigned expected;

                  if (b == TEXEL_WARP_BORDER_CONSTANT)
                    expected = sx >= 0 && sx < w && sy >= 0 && sy < h
                                   ? test_image_get (in, 0, sx, sy)
                                   : 200;
                  else if (b == TEXEL_WARP_BORDER_CLAMP)
                    expected = test_image_get (in, 0, CLAMP (sx, 0, w - 1),
                                               CLAMP (sy, 0, h - 1));
                  else if (b == TEXEL_WARP_BORDER_MIRROR)
                    expected = test_image_get (in, 0, reflect (sx, w),
                                               reflect (sy, h));
                  else
                    expected = test_image_get (in, 0, ((sx % w) + w) % w,
                                               ((sy % h) + h) % h);
                  if (test_image_get (out, 0, x, y) != expected)
                    g_error ("border %d method %d at (%d, %d): %u, expected %u",
                             b, m, x, y, test_image_get (out, 0, x, y),
                             expected);
                }
            }
          test_image_free (out);
        }
    }
  test_image_free (in);
  g_rand_free (rand);
}

/* Rays behind a pinhole camera, and a homography's points beyond the
 * horizon, get the border colour whatever the border mode. */
static void
test_invalid_positions (void)
{
  const int w = 16, h = 12;
  TestImage *in = test_image_new (TEXEL_FORMAT_GRAY8, w, h, 1);
  unsigned grey[4] = { 77, 0, 0, 0 };
  int b, x, y;

  test_image_fill_solid (in, grey);
  for (b = TEXEL_WARP_BORDER_CONSTANT; b <= TEXEL_WARP_BORDER_WRAP; b++)
    {
      TexelWarpConfig config;
      TexelWarpPlan plan;
      TestImage *out;
      int border = 0, image = 0;

      gray_config (&config);
      config.border_mode = b;
      /* The inverse's horizon (h.z = 0) at Y = 6.5: rows below are
       * beyond it. */
      config.homography[2][1] = 1.0 / 6.0;
      warp_plan (&plan, &config, TEXEL_FORMAT_GRAY8, w, h, TEXEL_FORMAT_GRAY8,
                 w, h);
      out = warp_image (&plan, in);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          {
            double sx, sy;
            int valid = texel_warp_source_d (&plan, x + 0.5, y + 0.5, &sx, &sy);
            unsigned v = test_image_get (out, 0, x, y);

            if (!valid)
              {
                g_assert_cmpuint (v, ==, 0);
                border++;
              }
            else if (b != TEXEL_WARP_BORDER_CONSTANT)
              {
                g_assert_cmpuint (v, ==, 77);
                image++;
              }
          }
      g_assert_cmpint (border, >, 0);
      g_assert_true (b == TEXEL_WARP_BORDER_CONSTANT || image > 0);
      test_image_free (out);
    }
  test_image_free (in);
}

/* ------------------------------------------------------------------ */
/* Invalid parameters */

static void
test_validation (void)
{
  static const struct
  {
    const char *what;
    const char *message;
  } cases[] = {
    { "fx 0", "focal length" },
    { "fy NaN", "camera matrix: not finite" },
    { "k1 NaN", "distortion: not finite" },
    { "k2 huge", "distortion: |k|" },
    { "rotation NaN", "not a finite number" },
    { "scale 0", "scale" },
    { "alpha 2", "alpha" },
    { "fov 180", "fov: a rectilinear view reaches at most 179" },
    { "singular homography", "homography: singular" },
    { "calibration size half given", "calibration size" },
    { "negative calibration size", "calibration size: negative" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TexelWarpConfig config;
      TexelWarpPlan plan;
      const char *error = NULL;

      texel_warp_config_init (&config);
      config.model = TEXEL_WARP_MODEL_PINHOLE;
      camera_init (&config.camera, 100, 100, 31.5, 23.5);
      switch (i)
        {
          case 0:
            config.camera.fx = 0;
            break;
          case 1:
            config.camera.fy = NAN;
            break;
          case 2:
            config.camera.k[0] = NAN;
            break;
          case 3:
            config.camera.k[1] = 1e4;
            break;
          case 4:
            config.rotation = NAN;
            break;
          case 5:
            config.scale = 0;
            break;
          case 6:
            config.alpha = 2;
            break;
          case 7:
            config.fov = 180;
            break;
          case 8:
            memset (config.homography, 0, sizeof (config.homography));
            config.homography[0][0] = config.homography[1][1] = 1;
            break;
          case 9:
            config.camera.cal_width = 640;
            break;
          case 10:
            config.camera.cal_width = -640;
            config.camera.cal_height = 480;
            break;
        }
      g_assert_cmpint (texel_warp_plan_init (&plan, &config, TEXEL_FORMAT_RGBA,
                                             64, 48, TEXEL_FORMAT_RGBA, 64, 48,
                                             &error),
                       ==, -1);
      g_assert_nonnull (error);
      if (strstr (error, cases[i].message) == NULL)
        g_error ("%s: \"%s\" does not say \"%s\"", cases[i].what, error,
                 cases[i].message);
    }
}

/* ------------------------------------------------------------------ */
/* The kernels' float map */

/* texel_warp_source_f (run here with the host's float functions) against
 * texel_warp_source_d over every third output pixel of 1920x1080 frames,
 * every lens and the view transforms (rectilinear and equirectangular):
 * at most TEXEL_TEST_FLOAT_MAP_BOUND pixel
 * apart. Float carries 24 bits: positions up to 2048 are resolved to
 * 2^-13 = 1.2e-4 pixel per rounding, and about ten roundings reach them.
 * The GPU test allows the same margin (plus its intrinsics' 2 ulp). */
#define TEXEL_TEST_FLOAT_MAP_BOUND 2e-3

static void
test_float_map (void)
{
  const int w = 1920, h = 1080;
  double worst = 0;
  int l, v;

  for (l = -1; l < (int)G_N_ELEMENTS (lenses); l++)
    {
      for (v = 0; v < 4; v++)
        {
          TexelWarpConfig config;
          TexelWarpPlan plan;
          int x, y, n = 0;

          texel_warp_config_init (&config);
          if (l >= 0)
            {
              config.model = lenses[l].model;
              lens_camera (&lenses[l], &config.camera, w, h);
            }
          config.alpha = 0.5;
          if (v >= 1)
            {
              config.rotation = 17;
              config.scale = 1.3;
              config.offset_x = 0.05;
              config.homography[2][0] = 1e-5;
            }
          if (v >= 2 && l >= 0)
            {
              config.fov = 100;
              config.pan = 30;
              config.tilt = -20;
            }
          if (v == 3 && l >= 0)
            {
              config.projection = TEXEL_PROJECTION_EQUIRECTANGULAR;
              config.fov = 200;
            }
          warp_plan (&plan, &config, TEXEL_FORMAT_RGBA, w, h, TEXEL_FORMAT_RGBA,
                     w, h);
          for (y = 0; y < h; y += 3)
            {
              for (x = 0; x < w; x += 3)
                {
                  double sx, sy;
                  float fx = 0, fy = 0;
                  int vd
                      = texel_warp_source_d (&plan, x + 0.5, y + 0.5, &sx, &sy);
                  int vf = texel_warp_source_f (&plan, plan.model, x + 0.5f,
                                                y + 0.5f, &fx, &fy);

                  /* Positions in the frame or near it: those the constant and
                   * clamp modes read (mirror and wrap bring in farther ones,
                   * whose float error grows with their distance). */
                  if (!vd || sx < -0.1 * w || sx > 1.1 * w || sy < -0.1 * h
                      || sy > 1.1 * h)
                    continue;
                  g_assert_true (vf);
                  worst = fmax (worst, fmax (fabs (fx - sx), fabs (fy - sy)));
                  n++;
                }
            }
          g_assert_cmpint (n, >, 0);
        }
    }
  g_test_message ("float map: largest error %.3g pixel", worst);
  if (worst > TEXEL_TEST_FLOAT_MAP_BOUND)
    g_error ("float map off by %.3g pixel (bound %g)", worst,
             TEXEL_TEST_FLOAT_MAP_BOUND);
}

/* ------------------------------------------------------------------ */
/* Calibration files */

static gboolean
parse_file (const char *name, TexelCalibration *calib, char *error,
            size_t error_size)
{
  char *path = g_build_filename (TEXEL_CALIB_DIR, name, NULL);
  char *data = NULL;
  gsize size = 0;
  GError *err = NULL;
  int ret;

  if (!g_file_get_contents (path, &data, &size, &err))
    g_error ("%s: %s", path, err->message);
  ret = texel_calib_parse (data, size, calib, error, error_size);
  g_free (data);
  g_free (path);
  return ret == 0;
}

/* Every good file gives the numbers it holds (copied here from the
 * files), and a plan for its model. */
static void
test_calibration_good (void)
{
  static const struct
  {
    const char *file;
    TexelCalibFormat format;
    TexelWarpModel model; /* the file's; NONE: it names none */
    TexelWarpModel use;   /* the model the plan is made for */
    int width, height;
    double fx, fy, cx, cy;
    int n;
    double d[8];
  } files[] = {
    { "opencv-pinhole.yaml",
      TEXEL_CALIB_OPENCV,
      TEXEL_WARP_MODEL_NONE,
      TEXEL_WARP_MODEL_PINHOLE,
      1280,
      720,
      9.1245678901234567e+02,
      9.1087654321098765e+02,
      6.4321098765432098e+02,
      3.5678901234567890e+02,
      5,
      { -3.1234567890123457e-01, 1.2345678901234568e-01, 1.2345678901234567e-03,
        -6.5432109876543212e-04, -2.3456789012345678e-02 } },
    { "opencv-rational.yaml",
      TEXEL_CALIB_OPENCV,
      TEXEL_WARP_MODEL_NONE,
      TEXEL_WARP_MODEL_PINHOLE,
      1920,
      1080,
      1050,
      1050,
      959.5,
      539.5,
      8,
      { 1.8, 0.5, -5.0e-04, 9.0e-04, 1.0e-02, 2.1, 1.0, 8.0e-02 } },
    { "opencv-fisheye.yaml",
      TEXEL_CALIB_OPENCV,
      TEXEL_WARP_MODEL_NONE,
      TEXEL_WARP_MODEL_FISHEYE,
      1920,
      1080,
      580,
      580,
      960,
      540,
      4,
      { 3.0e-02, -8.0e-03, 1.5e-03, -2.0e-04 } },
    { "ros-plumb-bob.yaml",
      TEXEL_CALIB_ROS,
      TEXEL_WARP_MODEL_PINHOLE,
      TEXEL_WARP_MODEL_PINHOLE,
      640,
      480,
      476.7030836014194,
      476.7030836014194,
      400.5,
      400.5,
      5,
      { -0.28340811, 0.07395907, 0.00019359, 1.76187114e-05, 0 } },
    { "ros-equidistant.yaml",
      TEXEL_CALIB_ROS,
      TEXEL_WARP_MODEL_FISHEYE,
      TEXEL_WARP_MODEL_FISHEYE,
      1280,
      800,
      380.5,
      381.0,
      641.25,
      399.75,
      4,
      { 0.012, -0.0041, 0.00062, -0.00011 } },
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (files); f++)
    {
      TexelCalibration calib;
      TexelWarpConfig config;
      TexelWarpPlan plan;
      char error[256];
      const char *why = NULL;
      int i;

      if (!parse_file (files[f].file, &calib, error, sizeof (error)))
        g_error ("%s: %s", files[f].file, error);
      g_assert_cmpint (calib.format, ==, files[f].format);
      g_assert_cmpint (calib.model, ==, files[f].model);
      g_assert_cmpint (calib.width, ==, files[f].width);
      g_assert_cmpint (calib.height, ==, files[f].height);
      g_assert_cmpfloat (calib.camera_matrix[0][0], ==, files[f].fx);
      g_assert_cmpfloat (calib.camera_matrix[1][1], ==, files[f].fy);
      g_assert_cmpfloat (calib.camera_matrix[0][2], ==, files[f].cx);
      g_assert_cmpfloat (calib.camera_matrix[1][2], ==, files[f].cy);
      g_assert_cmpfloat (calib.camera_matrix[2][2], ==, 1.0);
      g_assert_cmpint (calib.n_distortion, ==, files[f].n);
      for (i = 0; i < files[f].n; i++)
        g_assert_cmpfloat (calib.distortion[i], ==, files[f].d[i]);

      /* OpenCV's order: k1 k2 p1 p2 k3 k4 k5 k6; fisheye k1..k4. */
      texel_warp_config_init (&config);
      config.model = files[f].use;
      if (texel_calib_camera (&calib, files[f].use, &config.camera, error,
                              sizeof (error))
          != 0)
        g_error ("%s: %s", files[f].file, error);
      g_assert_cmpfloat (config.camera.k[0], ==, files[f].d[0]);
      if (files[f].use == TEXEL_WARP_MODEL_FISHEYE)
        {
          g_assert_cmpfloat (config.camera.k[3], ==, files[f].d[3]);
        }
      else
        {
          g_assert_cmpfloat (config.camera.p[0], ==, files[f].d[2]);
          g_assert_cmpfloat (config.camera.p[1], ==, files[f].d[3]);
          g_assert_cmpfloat (config.camera.k[2], ==, files[f].d[4]);
          g_assert_cmpfloat (config.camera.k[5], ==, files[f].d[7]);
        }
      g_assert_cmpint (config.camera.cal_width, ==, files[f].width);
      /* A stream at half the calibration size. */
      if (texel_warp_plan_init (&plan, &config, TEXEL_FORMAT_NV12,
                                files[f].width / 2, files[f].height / 2,
                                TEXEL_FORMAT_RGBA, files[f].width / 2,
                                files[f].height / 2, &why)
          != 0)
        g_error ("%s: plan: %s", files[f].file, why);
      g_assert_cmpfloat (fabs (plan.fx - files[f].fx / 2), <, 1e-9);
      g_assert_cmpfloat (fabs (plan.cx - (files[f].cx + 0.5) / 2), <, 1e-9);
    }
}

/* Broken files: rejected, the message naming the field (and its line). */
static void
test_calibration_bad (void)
{
  static const struct
  {
    const char *file;
    const char *message;
  } files[] = {
    { "bad-syntax.yaml", "YAML syntax (line 7)" },
    { "bad-matrix-size.yaml", "camera_matrix (line 5): must be 3x3, is 2x3" },
    { "bad-data-count.yaml",
      "camera_matrix (line 6): 3x3 needs 9 values, data has 8" },
    { "bad-nan.yaml", "camera_matrix data[2] (line 9): '.nan' is not a "
                      "number" },
    { "bad-nan-distortion.yaml", "distortion_coefficients data[1] (line 5): "
                                 "'nan' is not a finite number" },
    { "bad-zero-focal.yaml", "camera_matrix (line 3): focal length fx is 0 "
                             "(must be positive)" },
    { "bad-negative-size.yaml", "image_width (line 3): must be positive, is "
                                "-640" },
    { "bad-unknown-model.yaml", "distortion_model (line 4): unknown model "
                                "'kannala_brandt'" },
    { "bad-distortion-count.yaml",
      "distortion_coefficients (line 5): 5 "
      "coefficients do not fit distortion_model equidistant" },
    { "bad-missing-camera.yaml", "camera_matrix: missing" },
    { "bad-empty.yaml", "file: empty" },
    { "bad-not-mapping.yaml", "file (line 1): a mapping of calibration "
                              "fields expected" },
    { "bad-singular-rectification.yaml", "rectification_matrix (line 6): "
                                         "singular" },
    { "bad-projection-skew.yaml", "projection_matrix (line 7): skew 0.5 not "
                                  "supported" },
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (files); f++)
    {
      TexelCalibration calib;
      char error[256];

      if (parse_file (files[f].file, &calib, error, sizeof (error)))
        g_error ("%s: accepted", files[f].file);
      g_test_message ("%s: %s", files[f].file, error);
      if (strstr (error, files[f].message) == NULL)
        g_error ("%s: \"%s\" does not say \"%s\"", files[f].file, error,
                 files[f].message);
    }
}

/* rectification_matrix and projection_matrix: the stereo file's (numbers
 * copied from it), the identity and no P where a file has none, a P of
 * zeros taken as none. */
static void
test_calibration_rectification (void)
{
  static const double r[9]
      = { 0.998532192,  -0.015327258, -0.051947435, 0.013943046, 0.999540754,
          -0.026904870, 0.052335956,  0.026141074,  0.998287329 };
  static const char *zero_p
      = "camera_matrix: {rows: 3, cols: 3, data: "
        "[50, 0, 31.5, 0, 50, 23.5, 0, 0, 1]}\nprojection_matrix: {rows: 3, "
        "cols: 4, data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}\n";
  TexelCalibration calib;
  char error[256];
  int i;

  if (!parse_file ("ros-stereo-left.yaml", &calib, error, sizeof (error)))
    g_error ("%s", error);
  g_assert_true (calib.has_rectification && calib.has_projection);
  for (i = 0; i < 9; i++)
    g_assert_cmpfloat (calib.rectification[i / 3][i % 3], ==, r[i]);
  g_assert_cmpfloat (calib.projection[0][0], ==, 48.37);
  g_assert_cmpfloat (calib.projection[1][1], ==, 48.37);
  g_assert_cmpfloat (calib.projection[0][2], ==, 33.15);
  g_assert_cmpfloat (calib.projection[1][2], ==, 22.41);
  g_assert_cmpfloat (calib.projection[2][2], ==, 1.0);

  if (!parse_file ("opencv-pinhole.yaml", &calib, error, sizeof (error)))
    g_error ("%s", error);
  g_assert_false (calib.has_rectification || calib.has_projection);
  for (i = 0; i < 9; i++)
    g_assert_cmpfloat (calib.rectification[i / 3][i % 3], ==, i % 4 == 0);

  g_assert_cmpint (texel_calib_parse (zero_p, strlen (zero_p), &calib, error,
                                      sizeof (error)),
                   ==, 0);
  g_assert_false (calib.has_projection);
}

/* Hostile files fail on the caps, not on time or memory: too large, too
 * deep (checked at the first level beyond the cap), too many nodes;
 * files just within them parse. */
static void
test_calibration_limits (void)
{
  static const char *camera = "camera_matrix: {rows: 3, cols: 3, data: "
                              "[50, 0, 31.5, 0, 50, 23.5, 0, 0, 1]}\n";
  TexelCalibration calib;
  char error[256];
  GString *text;
  gint64 t0;
  int i;

  text = g_string_new (camera);
  while (text->len <= TEXEL_CALIB_MAX_SIZE)
    g_string_append (text, "# a comment, padding\n");
  g_assert_cmpint (
      texel_calib_parse (text->str, text->len, &calib, error, sizeof (error)),
      ==, -1);
  g_assert_nonnull (strstr (error, "more than 1048576"));
  g_string_truncate (text, TEXEL_CALIB_MAX_SIZE);
  g_assert_cmpint (
      texel_calib_parse (text->str, text->len, &calib, error, sizeof (error)),
      ==, 0);

  g_string_assign (text, camera);
  g_string_append (text, "extra: ");
  for (i = 1; i < TEXEL_CALIB_MAX_DEPTH; i++)
    g_string_append_c (text, '[');
  for (i = 1; i < TEXEL_CALIB_MAX_DEPTH; i++)
    g_string_append_c (text, ']');
  g_string_append_c (text, '\n');
  g_assert_cmpint (
      texel_calib_parse (text->str, text->len, &calib, error, sizeof (error)),
      ==, 0);
  g_string_assign (text, "extra: ");
  for (i = 0; i < 200000; i++)
    g_string_append_c (text, '[');
  t0 = g_get_monotonic_time ();
  g_assert_cmpint (
      texel_calib_parse (text->str, text->len, &calib, error, sizeof (error)),
      ==, -1);
  g_assert_nonnull (strstr (error, "nested deeper than 16 levels (line 1)"));
  /* (Over 30 s before the cap.) */
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);

  g_string_assign (text, camera);
  g_string_append (text, "extra: [0");
  for (i = 0; i < TEXEL_CALIB_MAX_NODES; i++)
    g_string_append (text, ",0");
  g_string_append (text, "]\n");
  g_assert_cmpint (
      texel_calib_parse (text->str, text->len, &calib, error, sizeof (error)),
      ==, -1);
  g_assert_nonnull (strstr (error, "more than 200000 YAML nodes"));
  g_string_free (text, TRUE);
}

/* Coefficient counts a model does not have, and a fisheye file's four
 * coefficients read as the pinhole's k1 k2 p1 p2. */
static void
test_calibration_models (void)
{
  static const double d14[14]
      = { 0.1, 0.2, 0.01, 0.02, 0.3, 0.4, 0.5, 0.6, 0, 0, 0, 0, 0.001, 0 };
  TexelCamera cam;
  const char *error = NULL;

  g_assert_cmpint (texel_calib_set_distortion (&cam, TEXEL_WARP_MODEL_FISHEYE,
                                               d14, 5, &error),
                   ==, -1);
  g_assert_nonnull (strstr (error, "fisheye has 4"));
  g_assert_cmpint (texel_calib_set_distortion (&cam, TEXEL_WARP_MODEL_PINHOLE,
                                               d14, 3, &error),
                   ==, -1);
  g_assert_cmpint (texel_calib_set_distortion (&cam, TEXEL_WARP_MODEL_PINHOLE,
                                               d14, 14, &error),
                   ==, -1);
  g_assert_nonnull (strstr (error, "thin prism"));
  g_assert_cmpint (texel_calib_set_distortion (&cam, TEXEL_WARP_MODEL_PINHOLE,
                                               d14, 12, &error),
                   ==, 0);
  g_assert_cmpfloat (cam.k[5], ==, 0.6);
  g_assert_cmpint (texel_calib_set_distortion (&cam, TEXEL_WARP_MODEL_PINHOLE,
                                               d14, 4, &error),
                   ==, 0);
  g_assert_cmpfloat (cam.p[1], ==, 0.02);
  g_assert_cmpfloat (cam.k[2], ==, 0.0);
}

static const TestCase tests[] = {
  { "/texel/warp/identity", test_identity },
  { "/texel/warp/quarter-turns", test_quarter_turns },
  { "/texel/warp/models-match-opencv", test_models_match_opencv },
  { "/texel/warp/reach", test_reach },
  { "/texel/warp/equirectangular-matches-formulas",
    test_equirectangular_matches_formulas },
  { "/texel/warp/view-matches-formulas", test_view_matches_formulas },
  { "/texel/warp/alpha", test_alpha },
  { "/texel/warp/round-trip-points", test_round_trip_points },
  { "/texel/warp/round-trip-image", test_round_trip_image },
  { "/texel/warp/checkerboard", test_checkerboard },
  { "/texel/warp/border-modes", test_border_modes },
  { "/texel/warp/invalid-positions", test_invalid_positions },
  { "/texel/warp/validation", test_validation },
  { "/texel/warp/float-map", test_float_map },
  { "/texel/warp/calibration-good", test_calibration_good },
  { "/texel/warp/calibration-bad", test_calibration_bad },
  { "/texel/warp/calibration-rectification", test_calibration_rectification },
  { "/texel/warp/calibration-limits", test_calibration_limits },
  { "/texel/warp/calibration-models", test_calibration_models },
};

TEST_MAIN (tests)
