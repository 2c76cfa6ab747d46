/* gst-texel: the CPU reference of texelwarp.
 *
 * Written for clarity, in double precision, straight from the formulas of
 * texel-warp.h: for each output sample, the input position its centre
 * maps to, the border mode applied, then the input sampled there by the
 * resampler texelconvert's reference uses (texel-resample-cpu.h). It
 * defines what the CUDA kernels and the fast CPU path (texel-warp-fast.h)
 * should compute, and runs where no GPU is available for the plans the
 * fast path does not cover. It uses none of the plan's float members.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-warp.h"
#include "texel-resample-cpu.h"

#include <math.h>
#include <string.h>

/* Undistortion: Newton's method stops when a step moves less than this
 * (normalised coordinates, i.e. 1e-9 pixel at a focal length of 1000). */
#define UNDISTORT_TOLERANCE 1e-12
#define UNDISTORT_MAX_ITERATIONS 100

/* ------------------------------------------------------------------ */
/* Lens models */

/* Brown-Conrady with OpenCV's rational terms, at normalised (x, y). Also
 * the Jacobian (d xd / dx, d xd / dy, d yd / dx, d yd / dy) when @jac is
 * given. */
static void
pinhole_distort (const double k[6], const double p[2], double x, double y,
                 double *xd, double *yd, double jac[4])
{
  double r2 = x * x + y * y;
  double num = 1.0 + r2 * (k[0] + r2 * (k[1] + r2 * k[2]));
  double den = 1.0 + r2 * (k[3] + r2 * (k[4] + r2 * k[5]));
  double radial = num / den;

  *xd = x * radial + 2.0 * p[0] * x * y + p[1] * (r2 + 2.0 * x * x);
  *yd = y * radial + p[0] * (r2 + 2.0 * y * y) + 2.0 * p[1] * x * y;
  if (jac != NULL)
    {
      double dnum = k[0] + r2 * (2.0 * k[1] + r2 * 3.0 * k[2]);
      double dden = k[3] + r2 * (2.0 * k[4] + r2 * 3.0 * k[5]);
      /* d radial / d r2 */
      double dr = (dnum * den - num * dden) / (den * den);

      jac[0] = radial + 2.0 * x * x * dr + 2.0 * p[0] * y + 6.0 * p[1] * x;
      jac[1] = 2.0 * x * y * dr + 2.0 * p[0] * x + 2.0 * p[1] * y;
      jac[2] = 2.0 * x * y * dr + 2.0 * p[0] * x + 2.0 * p[1] * y;
      jac[3] = radial + 2.0 * y * y * dr + 6.0 * p[0] * y + 2.0 * p[1] * x;
    }
}

/* theta_d (theta) of the equidistant model and its derivative. */
static double
fisheye_theta_d (const double k[6], double theta, double *derivative)
{
  double t2 = theta * theta;

  if (derivative != NULL)
    *derivative
        = 1.0
          + t2
                * (3.0 * k[0]
                   + t2 * (5.0 * k[1] + t2 * (7.0 * k[2] + t2 * 9.0 * k[3])));
  return theta * (1.0 + t2 * (k[0] + t2 * (k[1] + t2 * (k[2] + t2 * k[3]))));
}

/* Kannala-Brandt of the ray (dx, dy, dz): distorted normalised
 * coordinates. Returns 0 for the ray straight back (no direction) and
 * rays more than @reach off axis. */
static int
fisheye_project (const double k[6], double reach, double dx, double dy,
                 double dz, double *xd, double *yd)
{
  double rho = sqrt (dx * dx + dy * dy);
  double theta, theta_d;

  if (rho == 0.0)
    {
      *xd = *yd = 0.0;
      return dz > 0.0;
    }
  theta = atan2 (rho, dz);
  if (theta > reach)
    return 0;
  theta_d = fisheye_theta_d (k, theta, NULL);
  *xd = theta_d * dx / rho;
  *yd = theta_d * dy / rho;
  return 1;
}

void
texel_warp_distort_pinhole (const TexelCamera *camera, double x, double y,
                            double *xd, double *yd)
{
  pinhole_distort (camera->k, camera->p, x, y, xd, yd, NULL);
}

void
texel_warp_distort_fisheye (const TexelCamera *camera, double x, double y,
                            double *xd, double *yd)
{
  fisheye_project (camera->k, M_PI, x, y, 1.0, xd, yd);
}

/* Steps of the search for the fold, and its end: r = 20 is 87 degrees off
 * axis, where a pinhole model no longer means anything. */
#define REACH_STEP 1e-3
#define PINHOLE_REACH_MAX 20.0

/* d (r radial (r^2)) / dr: where it reaches 0, the pinhole model folds. */
static double
pinhole_growth (const double k[6], double r)
{
  const double p[2] = { 0.0, 0.0 };
  double xd, yd, jac[4];

  pinhole_distort (k, p, r, 0.0, &xd, &yd, jac);
  return jac[0];
}

double
texel_warp_model_reach (TexelWarpModel model, const TexelCamera *camera)
{
  double end = model == TEXEL_WARP_MODEL_PINHOLE ? PINHOLE_REACH_MAX : M_PI;
  double lo = 0.0, hi, growth;
  int i;

  if (model != TEXEL_WARP_MODEL_PINHOLE && model != TEXEL_WARP_MODEL_FISHEYE)
    return INFINITY;
  for (hi = REACH_STEP; hi <= end; hi += REACH_STEP)
    {
      if (model == TEXEL_WARP_MODEL_PINHOLE)
        growth = pinhole_growth (camera->k, hi);
      else
        fisheye_theta_d (camera->k, hi, &growth);
      if (!(growth > 0.0))
        break;
      lo = hi;
    }
  if (hi > end)
    lo = end;
  else
    /* Bisection between the last growing step and the first that is not. */
    for (i = 0; i < 40; i++)
      {
        double mid = 0.5 * (lo + hi);

        if (model == TEXEL_WARP_MODEL_PINHOLE)
          growth = pinhole_growth (camera->k, mid);
        else
          fisheye_theta_d (camera->k, mid, &growth);
        if (growth > 0.0)
          lo = mid;
        else
          hi = mid;
      }
  return model == TEXEL_WARP_MODEL_PINHOLE ? lo * lo : lo;
}

int
texel_warp_undistort_fisheye_theta (const TexelCamera *camera, double theta_d,
                                    double *theta)
{
  double t = theta_d;
  int i;

  /* theta_d (theta) = theta_d, from theta = theta_d (exact without
   * distortion). */
  for (i = 0; i < UNDISTORT_MAX_ITERATIONS; i++)
    {
      double derivative, step;
      double residual = fisheye_theta_d (camera->k, t, &derivative) - theta_d;

      if (!(derivative > 0.0))
        return 0;
      step = residual / derivative;
      t -= step;
      if (fabs (step) < UNDISTORT_TOLERANCE)
        {
          *theta = t;
          return t >= 0.0 && isfinite (t);
        }
    }
  return 0;
}

/* Newton's method on distort (x, y) = (xd, yd) from (xd, yd), each step
 * halved until it reduces the residual (the rational model is not
 * monotonic everywhere). A solution must lie in the direction of (xd, yd)
 * from the centre: far enough out, the polynomial turns negative and has
 * mirrored roots, which are no undistortion. */
static int
undistort_pinhole (const TexelCamera *camera, double xd, double yd, double *x,
                   double *y)
{
  double ux = xd, uy = yd, rx, ry, jac[4];
  int i, halvings;

  pinhole_distort (camera->k, camera->p, ux, uy, &rx, &ry, jac);
  rx -= xd;
  ry -= yd;
  for (i = 0; i < UNDISTORT_MAX_ITERATIONS; i++)
    {
      double det = jac[0] * jac[3] - jac[1] * jac[2];
      double sx, sy, norm = hypot (rx, ry);

      if (!(fabs (det) > 1e-300) || !isfinite (det))
        return 0;
      sx = (jac[3] * rx - jac[1] * ry) / det;
      sy = (jac[0] * ry - jac[2] * rx) / det;
      for (halvings = 0; halvings < 40; halvings++)
        {
          double nx = ux - sx, ny = uy - sy, nrx, nry;
          double njac[4];

          pinhole_distort (camera->k, camera->p, nx, ny, &nrx, &nry, njac);
          nrx -= xd;
          nry -= yd;
          if (hypot (nrx, nry) < norm || norm == 0.0)
            {
              ux = nx;
              uy = ny;
              rx = nrx;
              ry = nry;
              memcpy (jac, njac, sizeof (njac));
              break;
            }
          sx *= 0.5;
          sy *= 0.5;
        }
      if (fabs (sx) + fabs (sy) < UNDISTORT_TOLERANCE || halvings == 40)
        {
          *x = ux;
          *y = uy;
          return hypot (rx, ry) < 1e-9 && ux * xd + uy * yd >= 0.0
                 && isfinite (ux) && isfinite (uy);
        }
    }
  return 0;
}

int
texel_warp_undistort_point (TexelWarpModel model, const TexelCamera *camera,
                            double xd, double yd, double *x, double *y)
{
  double theta_d, theta;

  if (model == TEXEL_WARP_MODEL_PINHOLE)
    return undistort_pinhole (camera, xd, yd, x, y);
  if (model != TEXEL_WARP_MODEL_FISHEYE)
    {
      *x = xd;
      *y = yd;
      return 1;
    }
  theta_d = sqrt (xd * xd + yd * yd);
  if (theta_d == 0.0)
    {
      *x = *y = 0.0;
      return 1;
    }
  /* Beyond 90 degrees off axis no point of the plane z = 1 matches. */
  if (!texel_warp_undistort_fisheye_theta (camera, theta_d, &theta)
      || theta >= M_PI / 2)
    return 0;
  *x = xd * tan (theta) / theta_d;
  *y = yd * tan (theta) / theta_d;
  return 1;
}

/* ------------------------------------------------------------------ */
/* The map */

int
texel_warp_source_d (const TexelWarpPlan *plan, double x, double y, double *sx,
                     double *sy)
{
  double v[3], ux, uy, xd, yd;
  int i;

  for (i = 0; i < 3; i++)
    v[i] = plan->a[i][0] * x + plan->a[i][1] * y + plan->a[i][2];
  if (plan->projection == TEXEL_PROJECTION_EQUIRECTANGULAR)
    {
      double lon, lat, ray[3];

      if (!(v[2] > 0.0))
        return 0;
      lon = v[0] / v[2];
      lat = v[1] / v[2];
      ray[0] = cos (lat) * sin (lon);
      ray[1] = sin (lat);
      ray[2] = cos (lat) * cos (lon);
      for (i = 0; i < 3; i++)
        v[i] = plan->rot[i][0] * ray[0] + plan->rot[i][1] * ray[1]
               + plan->rot[i][2] * ray[2];
    }

  switch (plan->model)
    {
      case TEXEL_WARP_MODEL_NONE:
        if (!(v[2] > 0.0))
          return 0;
        *sx = v[0] / v[2];
        *sy = v[1] / v[2];
        break;
      case TEXEL_WARP_MODEL_PINHOLE:
        if (!(v[2] > 0.0))
          return 0;
        ux = v[0] / v[2];
        uy = v[1] / v[2];
        if (!(ux * ux + uy * uy <= plan->reach))
          return 0;
        pinhole_distort (plan->k, plan->p, ux, uy, &xd, &yd, NULL);
        *sx = plan->fx * xd + plan->cx;
        *sy = plan->fy * yd + plan->cy;
        break;
      case TEXEL_WARP_MODEL_FISHEYE:
        if (!fisheye_project (plan->k, plan->reach, v[0], v[1], v[2], &xd, &yd))
          return 0;
        *sx = plan->fx * xd + plan->cx;
        *sy = plan->fy * yd + plan->cy;
        break;
      default:
        return 0;
    }
  return isfinite (*sx) && isfinite (*sy);
}

/* texel_warp_fold_f in double. */
static double
fold (double p, double size, TexelWarpBorder mode)
{
  if (p >= 0.0 && p <= size)
    return p;
  if (mode == TEXEL_WARP_BORDER_WRAP)
    return p - size * floor (p / size);
  if (mode == TEXEL_WARP_BORDER_MIRROR)
    {
      double t = p - 2.0 * size * floor (p / (2.0 * size));

      return t > size ? 2.0 * size - t : t;
    }
  return p;
}

int
texel_warp_source_border_d (const TexelWarpPlan *plan, double x, double y,
                            double *sx, double *sy)
{
  double w = plan->sampling.in_width, h = plan->sampling.in_height;

  if (!texel_warp_source_d (plan, x, y, sx, sy))
    return 0;
  if (plan->border_mode == TEXEL_WARP_BORDER_CONSTANT)
    /* Closed at the far edges: there lies the centre of an odd-sized
     * frame's last centred chroma sample, which a 1:1 map must copy. */
    return *sx >= 0.0 && *sx <= w && *sy >= 0.0 && *sy <= h;
  *sx = fold (*sx, w, plan->border_mode);
  *sy = fold (*sy, h, plan->border_mode);
  return 1;
}

/* The resampler's source: the map, then the border mode. */
static int
warp_source (const void *data, const TexelSamplePos *pos,
             TexelSamplePos *in_pos)
{
  double sx, sy;

  if (!texel_warp_source_border_d (data, pos->x, pos->y, &sx, &sy))
    return 0;
  in_pos->x = sx;
  in_pos->y = sy;
  /* Nearest picks from these: the double position, rounded once. */
  in_pos->xf = (float)sx;
  in_pos->yf = (float)sy;
  return 1;
}

void
texel_warp_cpu (const TexelWarpPlan *plan, const TexelImage *in,
                TexelImage *out, int row0, int row1)
{
  texel_resample_cpu (&plan->sampling, warp_source, plan, in, out, row0, row1);
}
