/* gst-texel unit tests: texelwarp's fast CPU path against its oracle, the
 * double-precision reference: random frames of every format (the same
 * in and out), each model (rotation, zoom and pan, perspective, pinhole,
 * fisheye to a rectilinear view and to an equirectangular one), every
 * border mode, nearest and bilinear, odd and tiny sizes, scaling both
 * ways, bands cut at random even rows. The bound (texel-warp-fast.h):
 * nearest exact, bilinear within 1 code; every byte the reference does
 * not write (row padding, YUY2's luma slot past an odd width) must keep
 * the poison. Coverage is asserted, so that a plan silently falling back
 * is a failure, not a pass; the plans it does not cover (bicubic, P010,
 * a conversion) must match exactly (they run the reference).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "texel-warp.h"
#include "texel-warp-fast.h"
#include "texel-sample-map.h"

#include "texel-test-util.h"

#ifdef TEXEL_WARP_FAST_SCALAR
#define SCALAR_BUILD 1
#else
#define SCALAR_BUILD 0
#endif

typedef enum
{
  ROTATE,      /* rotation, border colour */
  ZOOM,        /* rotation, zoom and pan */
  PERSPECTIVE, /* a homography */
  PINHOLE,     /* barrel distortion, new camera K */
  FISHEYE,     /* fisheye to a rectilinear view, panned and tilted */
  EQUIRECT,    /* fisheye to an equirectangular panorama */
  ZOOM_OUT,    /* rotation, zoomed out (the border shows) */
  COSITED,     /* rotation, cosited input chroma, centred output chroma */
  N_GEOMETRIES
} Geometry;

static const char *const geometry_names[] = {
  "rotate",  "zoom",     "perspective", "pinhole",
  "fisheye", "equirect", "zoom-out",    "cosited",
};

static void
config_for (TexelWarpConfig *c, Geometry g, int w, int h)
{
  static const double homography[3][3]
      = { { 1.1, 0.12, 2.0 }, { 0.05, 0.95, -1.5 }, { 0.004, -0.003, 1.0 } };

  texel_warp_config_init (c);
  switch (g)
    {
      case ROTATE:
        c->rotation = 17.0;
        c->border_rgba[0] = 0.2;
        c->border_rgba[1] = 0.6;
        c->border_rgba[2] = 0.9;
        c->border_rgba[3] = 0.5;
        break;
      case ZOOM:
        c->rotation = -33.0;
        c->scale = 1.3;
        c->offset_x = 0.07;
        c->offset_y = -0.11;
        break;
      case PERSPECTIVE:
        memcpy (c->homography, homography, sizeof (homography));
        break;
      case PINHOLE:
        c->model = TEXEL_WARP_MODEL_PINHOLE;
        c->camera.fx = c->camera.fy = 0.6 * w;
        c->camera.cx = 0.5 * w - 0.3;
        c->camera.cy = 0.5 * h + 0.2;
        c->camera.k[0] = -0.28;
        c->camera.k[1] = 0.09;
        c->camera.p[0] = 0.0012;
        c->camera.p[1] = -0.0007;
        c->new_camera = TEXEL_NEW_CAMERA_CAMERA;
        break;
      case FISHEYE:
      case EQUIRECT:
        c->model = TEXEL_WARP_MODEL_FISHEYE;
        c->camera.fx = c->camera.fy = w / 3.3;
        c->camera.cx = 0.5 * w - 0.5;
        c->camera.cy = 0.5 * h - 0.5;
        c->camera.k[0] = 0.03;
        c->camera.k[1] = -0.008;
        c->camera.k[2] = 0.0015;
        c->camera.k[3] = -0.0002;
        c->fov = g == FISHEYE ? 100.0 : 0.0;
        c->pan = 10.0;
        c->tilt = -5.0;
        if (g == EQUIRECT)
          c->projection = TEXEL_PROJECTION_EQUIRECTANGULAR;
        break;
      case ZOOM_OUT:
        c->rotation = 40.0;
        c->scale = 0.6;
        break;
      case COSITED:
        c->rotation = 5.0;
        c->in_color.chroma_h_cosited = 1;
        c->in_color.chroma_v_cosited = 1;
        break;
      default:
        g_assert_not_reached ();
    }
  /* Every border mode, across the geometries. */
  c->border_mode = (TexelWarpBorder)(g % 4);
}

/* @in through @plan by @f in bands cut at random even rows, into an
 * output of @format, @w x @h poisoned with 0xab. */
static TestImage *
run_path (void (*f) (const TexelWarpPlan *, const TexelImage *, TexelImage *,
                     int, int),
          const TexelWarpPlan *plan, const TestImage *in, TexelFormat format,
          int w, int h, GRand *rand)
{
  TestImage *out = test_image_new (format, w, h, in->stride_align);
  int row = 0;

  memset (out->mem, 0xab, out->size);
  while (row < h)
    {
      int next = row + 2 * g_rand_int_range (rand, 1, 6);

      if (next > h)
        next = h;
      f (plan, &in->img, &out->img, row, next);
      row = next;
    }
  return out;
}

/* Compares the fast path with the reference on @plan, twice (the second
 * time on the map the first filled); returns the bytes 1 code off. */
static size_t
compare (const TexelWarpPlan *plan, TexelFormat out_format, int bound,
         const char *what, GRand *rand)
{
  const TexelConvertPlan *s = &plan->sampling;
  size_t off = 0, i;
  int pass;

  for (pass = 0; pass < 2; pass++)
    {
      TestImage *in, *ref, *got;

      in = test_image_new (s->in.format, s->in_width, s->in_height,
                           pass ? 16 : 1);
      test_image_fill_random (in, rand);
      ref = run_path (texel_warp_cpu, plan, in, out_format, s->out_width,
                      s->out_height, rand);
      got = run_path (texel_warp_fast, plan, in, out_format, s->out_width,
                      s->out_height, rand);
      g_assert_cmpuint (ref->size, ==, got->size);
      for (i = 0; i < ref->size; i++)
        {
          int d = abs ((int)got->mem[i] - (int)ref->mem[i]);

          if (d > bound)
            g_error ("%s pass %d: byte %zu is %d, the reference's %d", what,
                     pass, i, got->mem[i], ref->mem[i]);
          off += d != 0;
        }
      test_image_free (in);
      test_image_free (ref);
      test_image_free (got);
    }
  return off;
}

static void
plan_for (TexelWarpPlan *plan, const TexelWarpConfig *config, TexelFormat in,
          int in_w, int in_h, TexelFormat out, int out_w, int out_h)
{
  const char *error = NULL;

  if (texel_warp_plan_init (plan, config, in, in_w, in_h, out, out_w, out_h,
                            &error)
      != 0)
    g_error ("plan: %s", error);
}

static void
test_fast_matches_reference (void)
{
  /* in w, h, out w, h: odd sizes (chroma rounding, widths that are not
   * a multiple of the 4 pixels the RGBA family's blend takes a step),
   * scaling up and down, tiny frames (1- and 2-sample grids: positions
   * past the last centre, the clamps the map folds; a 1-row input keeps
   * the clamping two-pass blend). */
  static const int sizes[][4] = { { 37, 23, 33, 27 },
                                  { 3, 3, 5, 4 },
                                  { 1, 2, 4, 3 },
                                  { 2, 2, 7, 5 },
                                  { 2, 1, 6, 3 } };
  static const TexelMethod methods[]
      = { TEXEL_METHOD_NEAREST, TEXEL_METHOD_BILINEAR, TEXEL_METHOD_BICUBIC };
  GRand *rand = g_rand_new_with_seed (23);
  int f, g, m, z, covered = 0, cases = 0;
  size_t off = 0;

  for (f = 0; f < test_n_formats; f++)
    {
      const TexelFormatDesc *desc = texel_format_desc (test_all_formats[f]);

      for (g = 0; g < N_GEOMETRIES; g++)
        for (m = 0; m < (int)G_N_ELEMENTS (methods); m++)
          for (z = 0; z < (int)G_N_ELEMENTS (sizes); z++)
            {
              const int *sz = sizes[z];
              TexelWarpConfig config;
              TexelWarpPlan plan;
              gchar *what;
              int expect;

              /* Bicubic falls back: one size is enough. */
              if (methods[m] == TEXEL_METHOD_BICUBIC && z > 0)
                continue;
              /* The scalar build (test-warp-fast-scalar) under valgrind:
               * one geometry in four per format (test_sparse_skip); the
               * SSE2 or NEON build runs them all. */
              if (SCALAR_BUILD && test_sparse_skip (f + g, 4))
                continue;
              config_for (&config, (Geometry)g, sz[0], sz[1]);
              config.method = methods[m];
              plan_for (&plan, &config, desc->format, sz[0], sz[1],
                        desc->format, sz[2], sz[3]);
              plan.fast = texel_warp_fast_new (&plan);
              expect = desc->bytes_per_sample == 1
                       && methods[m] != TEXEL_METHOD_BICUBIC;
              what = g_strdup_printf ("%s %s method %d %dx%d -> %dx%d",
                                      desc->name, geometry_names[g], methods[m],
                                      sz[0], sz[1], sz[2], sz[3]);
              if ((plan.fast != NULL) != expect)
                g_error ("%s: covered %d", what, plan.fast != NULL);
              covered += expect;
              cases++;
              off += compare (&plan, desc->format,
                              methods[m] == TEXEL_METHOD_BILINEAR ? 1 : 0, what,
                              rand);
              texel_warp_fast_free (plan.fast);
              g_free (what);
            }
    }
  g_test_message ("%d of %d cases on the fast path; %zu bytes 1 code off",
                  covered, cases, off);
  g_assert_cmpint (covered, >, cases / 2);
  g_rand_free (rand);
}

/* A conversion (format or colorimetry) is not covered: the reference
 * runs, byte for byte. */
static void
test_conversion_falls_back (void)
{
  GRand *rand = g_rand_new_with_seed (5);
  TexelWarpConfig config;
  TexelWarpPlan plan;

  config_for (&config, FISHEYE, 40, 30);
  plan_for (&plan, &config, TEXEL_FORMAT_NV12, 40, 30, TEXEL_FORMAT_RGBA, 40,
            30);
  g_assert_null (texel_warp_fast_new (&plan));
  compare (&plan, TEXEL_FORMAT_RGBA, 0, "NV12 -> RGBA", rand);

  config.out_color.matrix = TEXEL_MATRIX_BT601;
  plan_for (&plan, &config, TEXEL_FORMAT_NV12, 40, 30, TEXEL_FORMAT_NV12, 40,
            30);
  g_assert_null (texel_warp_fast_new (&plan));
  g_rand_free (rand);
}

/* A 320x240 RGBA fisheye, bilinear: the bound holds on a larger frame
 * too. Random codes (an edge at every sample) need it for about 1 byte
 * in 150. */
static void
test_fast_large (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  TexelWarpConfig config;
  TexelWarpPlan plan;
  size_t off, bytes = 320 * 240 * 4 * 2;

  config_for (&config, FISHEYE, 320, 240);
  plan_for (&plan, &config, TEXEL_FORMAT_RGBA, 320, 240, TEXEL_FORMAT_RGBA, 320,
            240);
  plan.fast = texel_warp_fast_new (&plan);
  g_assert_nonnull (plan.fast);
  off = compare (&plan, TEXEL_FORMAT_RGBA, 1, "RGBA 320x240 fisheye", rand);
  g_test_message ("%zu of %zu bytes 1 code off", off, bytes);
  g_assert_cmpuint (off, <, bytes / 50);
  texel_warp_fast_free (plan.fast);
  g_rand_free (rand);
}

/* The exact bilinear value, in codes, of component @c of @in at
 * position (@px, @py) of its grid (sample k centred at k + 0.5): the
 * textbook formula in double, taps clamped to the grid, independent of
 * both paths' integers. */
static double
exact_bilinear (const TestImage *in, int c, double px, double py)
{
  int w = test_comp_width (in, c), h = test_comp_height (in, c);
  double u = px - 0.5, v = py - 0.5, fu = u - floor (u), fv = v - floor (v);
  int x0 = CLAMP ((int)floor (u), 0, w - 1);
  int x1 = CLAMP ((int)floor (u) + 1, 0, w - 1);
  int y0 = CLAMP ((int)floor (v), 0, h - 1);
  int y1 = CLAMP ((int)floor (v) + 1, 0, h - 1);
  double top = (1.0 - fu) * test_image_get (in, c, x0, y0)
               + fu * test_image_get (in, c, x1, y0);
  double bottom = (1.0 - fu) * test_image_get (in, c, x0, y1)
                  + fu * test_image_get (in, c, x1, y1);

  return (1.0 - fv) * top + fv * bottom;
}

/* Bilinear against the exact value (not the reference's rounded codes):
 * each blend (the one-pass blends of the RGBA family with and without a
 * padding byte, of NV12's chroma pairs and of planes; RGB's two-pass
 * one), positions from the reference's own geometry
 * (texel_warp_source_border_d at each component's sample centres), the
 * border colour where it has none. The measured maximum must stay
 * within the bound stated in texel-warp-fast.h: 0.5 (the output's
 * rounding) + 0.0623 (12-bit fractions) + 0.0039 (the vertical pass's
 * 7 fraction bits of a code). */
static void
test_fast_exact_error (void)
{
  static const TexelFormat formats[]
      = { TEXEL_FORMAT_RGBA,  TEXEL_FORMAT_BGRX, TEXEL_FORMAT_RGB,
          TEXEL_FORMAT_GRAY8, TEXEL_FORMAT_NV12, TEXEL_FORMAT_I420 };
  /* in w, h, out w, h: a fisheye at the same size, a rotation scaled up
   * 2.6x (a band of output samples past the last centres). */
  static const int sizes[][4] = { { 96, 72, 96, 72 }, { 23, 17, 61, 47 } };
  static const Geometry geometries[] = { FISHEYE, ZOOM_OUT };
  GRand *rand = g_rand_new_with_seed (31);
  double worst = 0.0;
  int f, k;

  for (f = 0; f < (int)G_N_ELEMENTS (formats); f++)
    for (k = 0; k < (int)G_N_ELEMENTS (sizes); k++)
      {
        const int *sz = sizes[k];
        TexelWarpConfig config;
        TexelWarpPlan plan;
        TestImage *in, *got;
        int c, i, j;

        config_for (&config, geometries[k], sz[0], sz[1]);
        config.method = TEXEL_METHOD_BILINEAR;
        plan_for (&plan, &config, formats[f], sz[0], sz[1], formats[f], sz[2],
                  sz[3]);
        plan.fast = texel_warp_fast_new (&plan);
        g_assert_nonnull (plan.fast);
        in = test_image_new (formats[f], sz[0], sz[1], 4);
        test_image_fill_random (in, rand);
        got = run_path (texel_warp_fast, &plan, in, formats[f], sz[2], sz[3],
                        rand);
        for (c = 0; c < 4; c++)
          for (j = 0; j < test_comp_height (got, c); j++)
            for (i = 0; i < test_comp_width (got, c); i++)
              {
                const TexelComponent *comp = &got->desc->comp[c];
                const TexelConvertPlan *s = &plan.sampling;
                double sx, sy, want, d;
                int inside = texel_warp_source_border_d (
                    &plan,
                    texel_sample_centre_d (i, comp->x_shift,
                                           s->out_chroma_off[0]),
                    texel_sample_centre_d (j, comp->y_shift,
                                           s->out_chroma_off[1]),
                    &sx, &sy);

                want = inside ? exact_bilinear (
                           in, c,
                           texel_plane_coord_d (sx, comp->x_shift,
                                                s->in_chroma_off[0]),
                           texel_plane_coord_d (sy, comp->y_shift,
                                                s->in_chroma_off[1]))
                              : CLAMP (s->border[c], 0.0, 1.0) * 255.0;
                d = fabs (test_image_get (got, c, i, j) - want);
                if (d > 0.567)
                  g_error ("%s %dx%d -> %dx%d: sample %d, %d component %d is "
                           "%u, the exact value %.4f",
                           got->desc->name, sz[0], sz[1], sz[2], sz[3], i, j, c,
                           test_image_get (got, c, i, j), want);
                worst = MAX (worst, d);
              }
        test_image_free (in);
        test_image_free (got);
        texel_warp_fast_free (plan.fast);
      }
  g_test_message ("largest difference from the exact value: %.4f codes", worst);
  g_rand_free (rand);
}

static const TestCase tests[] = {
  { "/texel/warp-fast/matches-reference", test_fast_matches_reference },
  { "/texel/warp-fast/conversion-falls-back", test_conversion_falls_back },
  { "/texel/warp-fast/large", test_fast_large },
  { "/texel/warp-fast/exact-error", test_fast_exact_error },
};

TEST_MAIN (tests)
