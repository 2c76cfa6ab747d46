/* gst-texel tests: GStreamer's gamma and videobalance elements
 * (gst-plugins-good 1.22, gstgamma.c and gstvideobalance.c) defined from
 * their formulas, in double precision, independently of the kernels'
 * code: codes in, codes out, at @s times the 8-bit codes (s = 4: P010).
 * Shared by tests/unit/test-adjust.c and tests/gpu/test-adjust-gpu.c
 * (plain C: no GLib).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_GST_DEF_H
#define TEXEL_GST_DEF_H

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct
{
  double gamma, brightness, contrast, saturation, hue;
} GstSettings;

static inline int
def_balance_neutral (const GstSettings *g)
{
  return g->brightness == 0.0 && g->contrast == 1.0 && g->saturation == 1.0
         && g->hue == 0.0;
}

/* gamma: max (y / max)^(1 / gamma), rounded half up. */
static inline int
def_gamma (const GstSettings *g, int y, int s)
{
  double max = 256.0 * s - 1.0;

  if (g->gamma == 1.0)
    return y;
  return (int)floor (max * pow (y / max, 1.0 / g->gamma) + 0.5);
}

/* videobalance's rounding: clamped, rint (halves to even). */
static inline int
def_rint (double v, int s)
{
  double max = 256.0 * s - 1.0;

  return (int)rint (v < 0.0 ? 0.0 : (v > max ? max : v));
}

static inline int
def_luma (const GstSettings *g, int y, int s)
{
  if (def_balance_neutral (g))
    return y;
  return def_rint (
      16.0 * s + ((y - 16.0 * s) * g->contrast + g->brightness * 255.0 * s), s);
}

static inline void
def_chroma (const GstSettings *g, int u, int v, int s, int out[2])
{
  double co = cos (M_PI * g->hue), si = sin (M_PI * g->hue);
  double i = u - 128.0 * s, j = v - 128.0 * s;

  if (def_balance_neutral (g))
    {
      out[0] = u;
      out[1] = v;
      return;
    }
  out[0] = def_rint (128.0 * s + (i * co + j * si) * g->saturation, s);
  out[1] = def_rint (128.0 * s + (-i * si + j * co) * g->saturation, s);
}

static inline int
def_floor256 (int v)
{
  return (int)floor (v / 256.0);
}

static inline int
def_clamp255 (int v)
{
  return v < 0 ? 0 : (v > 255 ? 255 : v);
}

/* One element on an 8-bit R'G'B' pixel: to Y'CbCr with the elements'
 * fixed-point BT.601 matrix, the element (@balance: videobalance, else
 * gamma), back, clamped. */
static inline void
def_rgb_element (const GstSettings *g, int balance, int rgb[3])
{
  int r = rgb[0], gr = rgb[1], b = rgb[2];
  int y = def_floor256 (66 * r + 129 * gr + 25 * b + 4096);
  int u = def_floor256 (-38 * r - 74 * gr + 112 * b + 32768);
  int v = def_floor256 (112 * r - 94 * gr - 18 * b + 32768);

  if (balance)
    {
      int c[2];

      def_chroma (g, def_clamp255 (u), def_clamp255 (v), 1, c);
      y = def_luma (g, def_clamp255 (y), 1);
      u = c[0];
      v = c[1];
    }
  else
    {
      y = def_gamma (g, def_clamp255 (y), 1);
    }
  rgb[0] = def_clamp255 (def_floor256 (298 * y + 409 * v - 57068));
  rgb[1] = def_clamp255 (def_floor256 (298 * y - 100 * u - 208 * v + 34707));
  rgb[2] = def_clamp255 (def_floor256 (298 * y + 516 * u - 70870));
}

/* `gamma ! videobalance` on an 8-bit R'G'B' pixel. */
static inline void
def_rgb (const GstSettings *g, int rgb[3])
{
  if (g->gamma != 1.0)
    def_rgb_element (g, 0, rgb);
  if (!def_balance_neutral (g))
    def_rgb_element (g, 1, rgb);
}

/* Settings both tests run. */
static const GstSettings def_settings[] = {
  { 0.7, 0, 1, 1, 0 },           { 1, 0.3, 1, 1, 0 },
  { 1, 0.1, 1, 1, 0 }, /* brightness * 255 = 25.5: halves */
  { 1.5, 0, 1, 1.3, 0 },         { 1, 0.1, 1.2, 1.5, 0.25 },
  { 1, -0.3, 0.5, 0.0, 0.0 },    { 1, 0.0, 2.0, 2.0, -0.8 },
  { 1, 1.0, 0.0, 0.3, 1.0 },     { 2.2, 0.05, 1.1, 0.3, -0.5 },
  { 0.45, -0.1, 1.3, 0.7, 0.1 }, { 10, 0, 1, 1, 0 },
  { 0.01, 0, 1, 1, 0 },
};

#define DEF_N_SETTINGS ((int)(sizeof (def_settings) / sizeof (def_settings[0])))

#endif /* TEXEL_GST_DEF_H */
