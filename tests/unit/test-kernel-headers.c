/* gst-texel: every kernels/ header in one translation unit.
 *
 * Compiling this file is the first check: the headers share one stream
 * type, one host/device prelude and distinct names per element, so all of
 * them can be included together. The cases then check what compiling
 * alone would not: that every CUDA entry point has the one shape of
 * texel-kernel.h (context, plan, input, output, rows, stream),
 * that each element's enums keep the values its GEnum properties expose,
 * and that the code the headers share with the kernels (TEXEL_HD) does
 * what an independent definition written here says, each element's border
 * enum selecting its own behaviour.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "texel-adjust.h"
#include "texel-adjust-fast.h"
#include "texel-adjust-pixel.h"
#include "texel-bayer.h"
#include "texel-bayer-fast.h"
#include "texel-calib.h"
#include "texel-convert.h"
#include "texel-convert-fast.h"
#include "texel-cube.h"
#include "texel-cuda.h"
#include "texel-fault.h"
#include "texel-filter.h"
#include "texel-filter-fast.h"
#include "texel-image.h"
#include "texel-kernel.h"
#include "texel-resample-cpu.h"
#include "texel-sample-map.h"
#include "texel-warp.h"
#include "texel-warp-fast.h"

#include "texel-test-util.h"

/* The headers included above, by name: every header in the folders of
 * kernels/ must be one of them (test_every_header). */
static const char *const included[] = {
  "texel-adjust.h",       "texel-adjust-fast.h",  "texel-bayer.h",
  "texel-calib.h",        "texel-convert.h",      "texel-convert-fast.h",
  "texel-cube.h",         "texel-cuda.h",         "texel-fault.h",
  "texel-filter.h",       "texel-filter-fast.h",  "texel-image.h",
  "texel-kernel.h",       "texel-resample-cpu.h", "texel-sample-map.h",
  "texel-warp.h",         "texel-warp-fast.h",    "texel-bayer-fast.h",
  "texel-adjust-pixel.h",
};

/* The headers of one folder of kernels/: fails on one not listed. */
static guint
count_headers (const char *folder)
{
  GError *error = NULL;
  gchar *path = g_build_filename (TEXEL_KERNELS_DIR, folder, NULL);
  GDir *dir = g_dir_open (path, 0, &error);
  const char *name;
  guint i, found = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      gboolean listed = FALSE;

      if (!g_str_has_suffix (name, ".h"))
        continue;
      for (i = 0; i < G_N_ELEMENTS (included); i++)
        listed |= strcmp (name, included[i]) == 0;
      if (!listed)
        g_error ("kernels/%s/%s is not included by this test", folder, name);
      found++;
    }
  g_dir_close (dir);
  g_free (path);
  return found;
}

static void
test_every_header (void)
{
  GError *error = NULL;
  GDir *dir = g_dir_open (TEXEL_KERNELS_DIR, 0, &error);
  const char *name;
  guint found = 0;

  g_assert_no_error (error);
  /* Headers live in the folders (common/, one per element, files/). */
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      gchar *path = g_build_filename (TEXEL_KERNELS_DIR, name, NULL);

      g_assert_false (g_str_has_suffix (name, ".h"));
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        found += count_headers (name);
      g_free (path);
    }
  g_dir_close (dir);
  /* And none listed here is gone. */
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (included));
}

/* 1 when @fn has exactly type @type (the operand is not evaluated: the
 * CUDA functions need not be linked). */
#define HAS_TYPE(fn, type) _Generic((fn), type : 1, default : 0)

/* The one shape of every entry point, for a plan of type @plan. */
#define ENTRY_POINT(plan)                                                      \
  int (*) (TexelCudaContext *, const plan *, const TexelImage *,               \
           const TexelImage *, int, int, TexelStream)

static void
test_one_stream_type (void)
{
  typedef int (*NewFn) (int, TexelCudaContext **);
  typedef void (*FreeFn) (TexelCudaContext *);
  typedef void (*FenceFn) (TexelCudaContext *, const TexelCudaFence *);
  typedef int (*LutFn) (TexelCudaContext *, const TexelCube *,
                        TexelCudaLut3d **);

  g_assert_true (
      HAS_TYPE (&texel_cuda_convert, ENTRY_POINT (TexelConvertPlan)));
  g_assert_true (HAS_TYPE (&texel_cuda_warp, ENTRY_POINT (TexelWarpPlan)));
  g_assert_true (HAS_TYPE (&texel_cuda_filter, ENTRY_POINT (TexelFilterPlan)));
  g_assert_true (HAS_TYPE (&texel_cuda_adjust, ENTRY_POINT (TexelAdjustPlan)));
  /* One context object, which the 3D LUT of texeladjust's plan is made
   * on too. */
  g_assert_true (HAS_TYPE (&texel_cuda_context_new, NewFn));
  g_assert_true (HAS_TYPE (&texel_cuda_context_free, FreeFn));
  g_assert_true (HAS_TYPE (&texel_cuda_context_set_fence, FenceFn));
  g_assert_true (HAS_TYPE (&texel_cuda_lut3d_new, LutFn));
  g_assert_true (
      HAS_TYPE (((TexelAdjustPlan *)NULL)->lut3d, const TexelCudaLut3d *));
  /* A handle: a pointer, whatever the CUDA headers call it. */
  g_assert_cmpuint (sizeof (TexelStream), ==, sizeof (void *));
  g_assert_true (HAS_TYPE ((TexelStream)NULL, struct CUstream_st *));
}

/* The values of an enum in the order it declares them. */
static void
check_sequence (const char *name, const int *values, int n)
{
  int i;

  for (i = 0; i < n; i++)
    {
      if (values[i] != i)
        g_error ("%s: enumerator %d has value %d", name, i, values[i]);
    }
}

#define CHECK_SEQUENCE(name, ...)                                              \
  G_STMT_START                                                                 \
  {                                                                            \
    const int v_[] = { __VA_ARGS__ };                                          \
    check_sequence (name, v_, G_N_ELEMENTS (v_));                              \
  }                                                                            \
  G_STMT_END

static void
test_enum_values (void)
{
  /* Two border enums, two types: a filter border is no warp border. */
  g_assert_false (HAS_TYPE ((TexelFilterBorder)0, TexelWarpBorder));
  g_assert_false (HAS_TYPE ((TexelWarpBorder)0, TexelFilterBorder));

  /* The numbers the elements' GEnums register, hence the property
   * values: texelfilter border clamp 0, mirror 1; texelwarp border-mode
   * constant 0, clamp 1, mirror 2, wrap 3. */
  CHECK_SEQUENCE ("TexelFilterBorder", TEXEL_FILTER_BORDER_CLAMP,
                  TEXEL_FILTER_BORDER_MIRROR);
  CHECK_SEQUENCE ("TexelWarpBorder", TEXEL_WARP_BORDER_CONSTANT,
                  TEXEL_WARP_BORDER_CLAMP, TEXEL_WARP_BORDER_MIRROR,
                  TEXEL_WARP_BORDER_WRAP);
  /* GstVideoOrientationMethod's values (texelconvert's video-direction). */
  CHECK_SEQUENCE ("TexelDirection", TEXEL_DIRECTION_IDENTITY,
                  TEXEL_DIRECTION_90R, TEXEL_DIRECTION_180, TEXEL_DIRECTION_90L,
                  TEXEL_DIRECTION_HORIZ, TEXEL_DIRECTION_VERT,
                  TEXEL_DIRECTION_UL_LR, TEXEL_DIRECTION_UR_LL);
  /* The other property enums: distinct, from 0, in declaration order. */
  CHECK_SEQUENCE ("TexelMethod", TEXEL_METHOD_NEAREST, TEXEL_METHOD_BILINEAR,
                  TEXEL_METHOD_BICUBIC);
  CHECK_SEQUENCE ("TexelFilterKind", TEXEL_FILTER_GAUSSIAN,
                  TEXEL_FILTER_UNSHARP, TEXEL_FILTER_BILATERAL,
                  TEXEL_FILTER_BOX, TEXEL_FILTER_SOBEL, TEXEL_FILTER_N_KINDS);
  CHECK_SEQUENCE ("TexelFilterPlanes", TEXEL_FILTER_PLANES_LUMA,
                  TEXEL_FILTER_PLANES_ALL);
  CHECK_SEQUENCE ("TexelToneMap", TEXEL_TONE_MAP_NONE, TEXEL_TONE_MAP_REINHARD,
                  TEXEL_TONE_MAP_FILMIC);
  CHECK_SEQUENCE ("TexelWarpModel", TEXEL_WARP_MODEL_NONE,
                  TEXEL_WARP_MODEL_PINHOLE, TEXEL_WARP_MODEL_FISHEYE);
  CHECK_SEQUENCE ("TexelWarpMapMode", TEXEL_WARP_MAP_AUTO, TEXEL_WARP_MAP_NEVER,
                  TEXEL_WARP_MAP_ALWAYS);
  CHECK_SEQUENCE ("TexelProjection", TEXEL_PROJECTION_RECTILINEAR,
                  TEXEL_PROJECTION_EQUIRECTANGULAR);
  CHECK_SEQUENCE ("TexelNewCamera", TEXEL_NEW_CAMERA_OPTIMAL,
                  TEXEL_NEW_CAMERA_CAMERA, TEXEL_NEW_CAMERA_MATRIX);
}

/* Reflection about the edge samples (OpenCV's BORDER_REFLECT_101), one
 * step at a time. */
static int
reflect_101 (int i, int n)
{
  while (i < 0 || i >= n)
    {
      if (n == 1)
        return 0;
      i = i < 0 ? -i : 2 * (n - 1) - i;
    }
  return i;
}

static void
test_filter_border (void)
{
  TexelFilterBorder border;
  int n, i;

  for (border = TEXEL_FILTER_BORDER_CLAMP; border <= TEXEL_FILTER_BORDER_MIRROR;
       border++)
    {
      for (n = 1; n <= 6; n++)
        {
          for (i = -3 * n; i < 4 * n; i++)
            {
              int clamp = i < 0 ? 0 : (i >= n ? n - 1 : i);
              int expect = border == TEXEL_FILTER_BORDER_MIRROR
                               ? reflect_101 (i, n)
                               : clamp;

              /* As the plan passes it (texel-filter.h's kernels). */
              g_assert_cmpint (texel_filter_border_index (
                                   i, n, border == TEXEL_FILTER_BORDER_MIRROR),
                               ==, expect);
            }
        }
    }
}

/* Positions in quarter pixels, all exact in float; @size 4. */
static void
test_warp_border (void)
{
  const float size = 4.0f;
  int q;

  for (q = -40; q <= 40; q++)
    {
      float p = q / 4.0f, sx, sy;
      double wrapped = fmod (p, size), mirrored = fmod (fabs (p), 2 * size);
      int inside = p >= 0.0f && p <= size;

      if (wrapped < 0)
        wrapped += size;
      if (mirrored > size)
        mirrored = 2 * size - mirrored;
      if (inside)
        {
          /* Inside [0, size] every mode leaves the position. */
          wrapped = mirrored = p;
        }
      g_assert_cmpfloat (texel_warp_fold_f (p, size, TEXEL_WARP_BORDER_WRAP),
                         ==, wrapped);
      g_assert_cmpfloat (texel_warp_fold_f (p, size, TEXEL_WARP_BORDER_MIRROR),
                         ==, mirrored);
      g_assert_cmpfloat (texel_warp_fold_f (p, size, TEXEL_WARP_BORDER_CLAMP),
                         ==, p);

      /* Constant: the border colour outside, the input inside. */
      sx = p;
      sy = 1.0f;
      g_assert_cmpint (
          texel_warp_border_f (TEXEL_WARP_BORDER_CONSTANT, 4, 4, &sx, &sy), ==,
          inside);
      g_assert_cmpfloat (sx, ==, p);
      sx = p;
      g_assert_cmpint (
          texel_warp_border_f (TEXEL_WARP_BORDER_WRAP, 4, 4, &sx, &sy), ==, 1);
      g_assert_cmpfloat (sx, ==, wrapped);
    }
}

/* texel-sample-map.h: sample i of an axis subsampled by 2^shift is centred
 * at luma coordinate 2^shift i + chroma_off, of a full axis at i + 0.5. */
static void
test_sample_centre (void)
{
  int i;

  for (i = 0; i < 64; i++)
    {
      g_assert_cmpfloat (texel_sample_centre_f (i, 0, 0.5f), ==, i + 0.5);
      g_assert_cmpfloat (texel_sample_centre_f (i, 1, 0.5f), ==, 2 * i + 0.5);
      g_assert_cmpfloat (texel_sample_centre_d (i, 1, 1.0), ==, 2 * i + 1.0);
    }
}

static const TestCase tests[] = {
  { "/kernel-headers/every-header", test_every_header },
  { "/kernel-headers/one-stream-type", test_one_stream_type },
  { "/kernel-headers/enum-values", test_enum_values },
  { "/kernel-headers/filter-border", test_filter_border },
  { "/kernel-headers/warp-border", test_warp_border },
  { "/kernel-headers/sample-centre", test_sample_centre },
};

TEST_MAIN (tests)
