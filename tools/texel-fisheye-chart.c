/* gst-texel: a synthetic fisheye picture, for the demo and the docs.
 *
 * Writes one raw RGBA frame (WIDTH x HEIGHT, rows packed) of a flat
 * checkerboard seen through the fisheye lens of an OpenCV calibration file
 * (Kannala-Brandt k1..k4, the model texelwarp undoes): each pixel's ray is
 * found by inverting the lens (texel_warp_undistort_fisheye_theta, the
 * library's own Newton solver), followed to the plane z = 1 and coloured
 * by the square it meets; 4 x 4 samples a pixel. A red line runs along
 * the plane's x axis and a green one along its y axis, so that a
 * correct undistortion shows them straight. Rays 88 degrees or more off
 * axis (nearly parallel to the plane) are grey.
 *
 *   texel-fisheye-chart CALIBRATION.yaml WIDTH HEIGHT OUTPUT.rgba
 *
 * The calibration's intrinsics are scaled to WIDTH x HEIGHT as texelwarp
 * scales them to a stream of another size.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "texel-calib.h"
#include "texel-warp.h"

#define SQUARE 0.25 /* side of a square on the plane */
#define LINE 0.015  /* half width of the axis lines */
#define EDGE (88.0 * M_PI / 180.0)

/* Colour (0..255, three channels) of the plane seen along the ray through
 * distorted pixel (@u, @v). */
static void
chart_sample (const TexelCamera *cam, double u, double v, double rgb[3])
{
  double xd = (u - cam->cx) / cam->fx, yd = (v - cam->cy) / cam->fy;
  double theta_d = hypot (xd, yd), theta, x, y;
  int dark;

  if (!texel_warp_undistort_fisheye_theta (cam, theta_d, &theta)
      || theta >= EDGE)
    {
      rgb[0] = rgb[1] = rgb[2] = 90.0;
      return;
    }
  /* On the plane z = 1, at tan (theta) from the axis, in the pixel's
   * direction. */
  x = theta_d > 0 ? xd / theta_d * tan (theta) : 0.0;
  y = theta_d > 0 ? yd / theta_d * tan (theta) : 0.0;
  if (fabs (y) < LINE)
    {
      rgb[0] = 220.0, rgb[1] = 30.0, rgb[2] = 30.0;
      return;
    }
  if (fabs (x) < LINE)
    {
      rgb[0] = 30.0, rgb[1] = 180.0, rgb[2] = 40.0;
      return;
    }
  dark = ((long)floor (x / SQUARE) + (long)floor (y / SQUARE)) & 1;
  rgb[0] = dark ? 40.0 : 235.0;
  rgb[1] = dark ? 45.0 : 230.0;
  rgb[2] = dark ? 70.0 : 210.0;
}

static char *
read_file (const char *path, size_t *size)
{
  FILE *f = fopen (path, "rb");
  char *data = NULL;
  long n;

  if (!f)
    return NULL;
  if (fseek (f, 0, SEEK_END) == 0 && (n = ftell (f)) >= 0
      && fseek (f, 0, SEEK_SET) == 0 && (data = malloc (n + 1))
      && fread (data, 1, n, f) == (size_t)n)
    {
      *size = n;
    }
  else
    {
      free (data);
      data = NULL;
    }
  fclose (f);
  return data;
}

/* The camera of @path, scaled to @width x @height. */
static int
chart_camera (const char *path, int width, int height, TexelCamera *cam)
{
  TexelCalibration calib;
  TexelCamera calib_camera;
  char error[256];
  size_t size = 0;
  char *data = read_file (path, &size);
  int ok;

  if (!data)
    {
      fprintf (stderr, "%s: cannot read\n", path);
      return -1;
    }
  ok = texel_calib_parse (data, size, &calib, error, sizeof (error)) == 0
       && texel_calib_camera (&calib, TEXEL_WARP_MODEL_FISHEYE, &calib_camera,
                              error, sizeof (error))
              == 0;
  free (data);
  if (!ok)
    {
      fprintf (stderr, "%s: %s\n", path, error);
      return -1;
    }
  texel_warp_camera_scale (&calib_camera, width, height, cam);
  return 0;
}

int
main (int argc, char **argv)
{
  TexelCamera cam;
  unsigned char *row;
  int width, height, x, y, a, b, c;
  FILE *out;

  if (argc != 5 || (width = atoi (argv[2])) <= 0
      || (height = atoi (argv[3])) <= 0 || width > 16384 || height > 16384)
    {
      fprintf (stderr, "usage: %s CALIBRATION.yaml WIDTH HEIGHT OUTPUT.rgba\n",
               argv[0]);
      return 2;
    }
  if (chart_camera (argv[1], width, height, &cam) != 0)
    return 1;
  out = fopen (argv[4], "wb");
  row = malloc ((size_t)width * 4);
  if (!out || !row)
    {
      fprintf (stderr, "%s: cannot write\n", argv[4]);
      return 1;
    }
  for (y = 0; y < height; y++)
    {
      for (x = 0; x < width; x++)
        {
          double sum[3] = { 0, 0, 0 }, rgb[3];

          for (b = 0; b < 4; b++)
            for (a = 0; a < 4; a++)
              {
                chart_sample (&cam, x + (a + 0.5) / 4 - 0.5,
                              y + (b + 0.5) / 4 - 0.5, rgb);
                for (c = 0; c < 3; c++)
                  sum[c] += rgb[c];
              }
          for (c = 0; c < 3; c++)
            row[x * 4 + c] = (unsigned char)lround (sum[c] / 16);
          row[x * 4 + 3] = 255;
        }
      if (fwrite (row, 4, width, out) != (size_t)width)
        {
          fprintf (stderr, "%s: cannot write\n", argv[4]);
          return 1;
        }
    }
  free (row);
  return fclose (out) == 0 ? 0 : 1;
}
