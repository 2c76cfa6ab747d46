/* gst-texel: neighbourhood filters (texelfilter): gaussian blur, unsharp
 * mask, bilateral denoise, box blur and Sobel edge magnitude, behind one C
 * API with a double-precision CPU reference and CUDA kernels.
 *
 * Definitions. Each colour component is filtered on its own sample grid
 * (4:2:0 chroma on its half-size grid, YUY2 chroma on its half-width
 * grid) with the same window in that grid's samples, independently of the
 * other components. v(x, y) is the component's value at sample (x, y),
 * normalised: code / max_code (max_code 255, or 1023 for P010). Sample
 * coordinates outside the grid (w x h samples) are mapped back per axis by
 * the border mode:
 *
 *   clamp:  i -> min (max (i, 0), n - 1)           (edge sample repeated)
 *   mirror: reflection about the edge samples, which are not repeated
 *           (-1 -> 1, -2 -> 2, n -> n - 2; "reflect 101"); periodic with
 *           period 2 (n - 1), so it is defined for any radius; n = 1 -> 0.
 *
 * With R the radius, every sum runs over i, j in [-R, R] and v(x + i,
 * y + j) means the border-mapped sample:
 *
 *   gaussian:  out = sum g(i) g(j) v(x + i, y + j),
 *              g(k) = exp (-k^2 / (2 sigma^2)) / sum_k' exp (-k'^2 /
 *              (2 sigma^2)), R = ceil (3 sigma). sigma = 0: R = 0, a copy.
 *   unsharp:   out = v + amount * (v - gaussian (sigma)).
 *   bilateral: out = sum w(i, j) v(x + i, y + j) / sum w(i, j),
 *              w(i, j) = exp (-(i^2 + j^2) / (2 sigma_space^2))
 *                      * exp (-(v(x + i, y + j) - v(x, y))^2 /
 *                             (2 sigma_range^2)),
 *              R = ceil (2 sigma_space): sigma_space in (0.5, 1] gives the
 *              5x5 window; sigma_space = 0: R = 0, a copy. sigma_range is
 *              in normalised units (0.1: a tenth of the code range).
 *   box:       out = sum v(x + i, y + j) / (2 R + 1)^2, R the radius
 *              setting.
 *   sobel:     gx = sum sx(i, j) v(x + i, y + j), gy likewise with sy, R = 1,
 *              sx = [-1 0 1; -2 0 2; -1 0 1] (j = -1, 0, 1 from the top),
 *              sy its transpose (bottom minus top),
 *              out = sqrt (gx^2 + gy^2) / 4: a full-scale step across an
 *              axis-aligned edge gives full scale.
 *
 * Then out is clamped to [0, 1] and rounded to the nearest code (halves
 * up). Every formula is homogeneous in v (the bilateral's range weight
 * given its difference in normalised units), so the implementations
 * evaluate it on codes instead of normalised values: the same result
 * times max_code, and inputs that are exact integers in float.
 *
 * Which components: planes = all filters every colour component (Y, U, V
 * or R, G, B); planes = luma filters Y only and copies U and V unchanged
 * (YUV formats; for RGB formats, which have no luma, luma means all, and
 * GRAY8 has only Y). Alpha is never filtered: it is copied unchanged.
 * RGBx's unused byte is written 0xff, as the converter writes it. A
 * neutral setting (gaussian sigma 0, unsharp amount 0 or sigma 0,
 * bilateral sigma_space 0, box radius 0) copies every sample exactly.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_FILTER_H
#define TEXEL_FILTER_H

#include "texel-kernel.h"
#include "texel-image.h"

TEXEL_BEGIN_DECLS

typedef enum
{
  TEXEL_FILTER_GAUSSIAN = 0,
  TEXEL_FILTER_UNSHARP,
  TEXEL_FILTER_BILATERAL,
  TEXEL_FILTER_BOX,
  TEXEL_FILTER_SOBEL,
  TEXEL_FILTER_N_KINDS
} TexelFilterKind;

typedef enum
{
  TEXEL_FILTER_BORDER_CLAMP = 0,
  TEXEL_FILTER_BORDER_MIRROR
} TexelFilterBorder;

typedef enum
{
  TEXEL_FILTER_PLANES_LUMA = 0,
  TEXEL_FILTER_PLANES_ALL
} TexelFilterPlanes;

/* Property ranges. The largest radius any setting reaches is
 * TEXEL_FILTER_RADIUS_MAX (gaussian: ceil (3 * 10) = 30; bilateral:
 * ceil (2 * 16) = 32). */
#define TEXEL_FILTER_SIGMA_MAX 10.0
#define TEXEL_FILTER_AMOUNT_MAX 10.0
#define TEXEL_FILTER_SIGMA_SPACE_MAX 16.0
#define TEXEL_FILTER_SIGMA_RANGE_MIN 0.001
#define TEXEL_FILTER_SIGMA_RANGE_MAX 1.0
#define TEXEL_FILTER_RADIUS_MAX 32
#define TEXEL_FILTER_TAPS_MAX (2 * TEXEL_FILTER_RADIUS_MAX + 1)

typedef struct
{
  TexelFilterKind filter;
  double sigma;       /* gaussian, unsharp: 0..10, 1 */
  double amount;      /* unsharp: 0..10, 1 */
  double sigma_space; /* bilateral: 0..16, 1 (5x5) */
  double sigma_range; /* bilateral: 0.001..1, 0.1 */
  int radius;         /* box: 0..32, 1 */
  TexelFilterBorder border;
  TexelFilterPlanes planes;
} TexelFilterConfig;

/* The fast CPU path's weights (texel-filter-fast.h). */
typedef struct TexelFilterFast TexelFilterFast;

/* The defaults above: gaussian, clamp, all planes. */
void texel_filter_config_init (TexelFilterConfig *config);
/* The window radius the settings give (definitions above); -1 when a
 * setting is out of range. */
int texel_filter_config_radius (const TexelFilterConfig *config);
/* Whether the output equals the input (the element is passthrough). */
int texel_filter_config_is_neutral (const TexelFilterConfig *config);

/* Everything the CPU reference and the kernels need, derived once per
 * caps or property change. Plain data, passed by value to the CUDA
 * kernels. */
typedef struct
{
  TexelFormatDesc fmt;
  int width, height;
  TexelFilterKind filter;
  TexelFilterBorder border;
  int radius; /* the window is (2 radius + 1)^2 */
  /* Per component: 1 filtered, 0 copied (alpha, chroma with planes =
   * luma) or absent. */
  int filtered[TEXEL_MAX_COMPONENTS];
  int pad_offset; /* RGBx's unused byte, or -1 */
  int max_code;
  /* Per-axis weights, weight[k + radius] for k in [-radius, radius]:
   * gaussian and unsharp g(k) (normalised); box 1; bilateral the spatial
   * factor exp (-k^2 / (2 sigma_space^2)) (the window's weight is
   * weight[i] * weight[j]). */
  double weight_d[TEXEL_FILTER_TAPS_MAX];
  float weight[TEXEL_FILTER_TAPS_MAX];
  double amount_d;
  float amount;
  /* Bilateral: the range factor is exp (-range_coef * d^2), d the
   * difference of two codes: 1 / (2 sigma_range^2 max_code^2). */
  double range_coef_d;
  float range_coef;
  int box_count; /* (2 radius + 1)^2 */
  /* The fast CPU path's weights (texel-filter-fast.h), kept by the caller
   * next to the plan; NULL (as texel_filter_plan_init leaves it): the
   * reference. The kernels ignore it. */
  const TexelFilterFast *fast;
} TexelFilterPlan;

/* Fills @plan. Returns 0, or -1 with a static message in @error (NaN or
 * out-of-range settings, unknown format, empty image). */
int texel_filter_plan_init (TexelFilterPlan *plan,
                            const TexelFilterConfig *config, TexelFormat format,
                            int width, int height, const char **error);

/* Luma rows [*in_row0, *in_row1) of the input that output rows [row0,
 * row1) read: widened by the radius on each component's own grid (4:2:0
 * chroma: twice the radius in luma rows), within the image. */
void texel_filter_input_rows (const TexelFilterPlan *plan, int row0, int row1,
                              int *in_row0, int *in_row1);

/* CPU reference, double precision: output rows [row0, row1) (luma rows;
 * @row0 even for vertically subsampled formats). Reads any input row;
 * writes only the samples of those rows. @in and @out may not alias. */
void texel_filter_cpu (const TexelFilterPlan *plan, const TexelImage *in,
                       TexelImage *out, int row0, int row1);

/* The CUDA side (built only with CUDA; returns 0 or a cudaError_t).
 * Enqueues output rows [row0, row1) on @stream (never the legacy default
 * stream: NULL is refused) with @ctx's device current (the filter keeps
 * nothing in @ctx); @in and @out hold device-accessible addresses (device
 * memory, mapped or registered host memory) and may not alias. The input
 * rows texel_filter_input_rows () names must be in place when the kernels
 * run. */
int texel_cuda_filter (TexelCudaContext *ctx, const TexelFilterPlan *plan,
                       const TexelImage *in, const TexelImage *out, int row0,
                       int row1, TexelStream stream);

TEXEL_END_DECLS

/* ------------------------------------------------------------------ */
/* Shared by the CPU reference and the kernels, and the kernels' own code,
 * shared with the host so that tests run exactly what the GPU runs:
 * texel-filter.cu includes it for the device; tests/unit/test-filter.c
 * runs it on the host, a block phase by phase, with the worst errors of
 * the GPU's __expf and __fdividef injected.
 *
 * Device: __ldg, __expf (at most 2 + floor (|1.173 x|) ulp), __fdividef
 * (2 ulp for a denominator in [2^-126, 2^126]). Host: plain loads, and
 * TEXEL_FILTER_HOST_EXPF (expf) and TEXEL_FILTER_HOST_DIVF (a / b) unless
 * a test defines them. */

#include <math.h>

#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
#define TEXEL_FILTER_LDG(p) __ldg (p)
#define TEXEL_FILTER_EXPF(x) __expf (x)
#define TEXEL_FILTER_DIVF(a, b) __fdividef (a, b)
#else
#define TEXEL_FILTER_LDG(p) (*(p))
#define TEXEL_FILTER_EXPF(x) expf (x)
#define TEXEL_FILTER_DIVF(a, b) ((a) / (b))
#endif
#else
#ifndef TEXEL_FILTER_HOST_EXPF
#define TEXEL_FILTER_HOST_EXPF expf
#endif
#ifndef TEXEL_FILTER_HOST_DIVF
#define TEXEL_FILTER_HOST_DIVF(a, b) ((a) / (b))
#endif
#define TEXEL_FILTER_LDG(p) (*(p))
#define TEXEL_FILTER_EXPF(x) TEXEL_FILTER_HOST_EXPF (x)
#define TEXEL_FILTER_DIVF(a, b) TEXEL_FILTER_HOST_DIVF (a, b)
#endif

/* Index @i of a row or column of @n samples, mapped into [0, n) by the
 * border mode (definitions above). */
TEXEL_HD int
texel_filter_border_index (int i, int n, int mirror)
{
  int period;

  if (i >= 0 && i < n)
    return i;
  if (!mirror || n == 1)
    return i < 0 ? 0 : n - 1;
  period = 2 * (n - 1);
  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - i;
}

/* First sample row of a grid subsampled by 2^@shift at or after luma row
 * @row: rows [row0, row1) own grid rows [ceil (row0 / 2^s), ceil (row1 /
 * 2^s)), so that bands starting on even rows share none. */
TEXEL_HD int
texel_filter_grid_row (int row, int shift)
{
  return (row + (1 << shift) - 1) >> shift;
}

/* A block of TILE_W x TILE_H threads computes as many output samples of
 * one component. */
#define TEXEL_FILTER_TILE_W 32
#define TEXEL_FILTER_TILE_H 16

/* One component of one launch: where its samples are. */
typedef struct
{
  const uint8_t *src; /* sample (0, 0) */
  int src_pitch, src_stride;
  uint8_t *dst;
  int dst_pitch, dst_stride;
  /* RGBx's unused byte of pixel (0, 0), written 0xff with the samples of
   * this component; NULL for the others. */
  uint8_t *pad;
  int width, height; /* of the component's grid */
  int row0, row1;    /* grid rows written */
} TexelFilterComp;

/* Component @c of @in and @out, the grid rows of luma rows [row0, row1). */
TEXEL_HD void
texel_filter_comp_init (const TexelFilterPlan *plan, const TexelImage *in,
                        const TexelImage *out, int c, int row0, int row1,
                        TexelFilterComp *k)
{
  const TexelComponent *comp = &plan->fmt.comp[c];

  k->src = in->data[comp->plane] + comp->offset;
  k->src_pitch = in->stride[comp->plane];
  k->src_stride = comp->pixel_stride;
  k->dst = out->data[comp->plane] + comp->offset;
  k->dst_pitch = out->stride[comp->plane];
  k->dst_stride = comp->pixel_stride;
  k->pad = c == 0 && plan->pad_offset >= 0 ? out->data[0] + plan->pad_offset
                                           : NULL;
  k->width = -((-plan->width) >> comp->x_shift);
  k->height = -((-plan->height) >> comp->y_shift);
  k->row0 = texel_filter_grid_row (row0, comp->y_shift);
  k->row1 = texel_filter_grid_row (row1, comp->y_shift);
  if (k->row1 > k->height)
    k->row1 = k->height;
}

/* Whether @kind runs the horizontal pass (texel_filter_across_f). */
TEXEL_HD int
texel_filter_separable (int kind)
{
  return kind == TEXEL_FILTER_GAUSSIAN || kind == TEXEL_FILTER_UNSHARP
         || kind == TEXEL_FILTER_BOX;
}

/* Floats of shared memory a block needs: the weights, the input tile
 * widened by the radius and (separable filters) the horizontal sums. */
TEXEL_HD int
texel_filter_shared_floats (const TexelFilterPlan *p)
{
  int th = TEXEL_FILTER_TILE_H + 2 * p->radius;

  return TEXEL_FILTER_TAPS_MAX + (TEXEL_FILTER_TILE_W + 2 * p->radius) * th
         + (texel_filter_separable (p->filter) ? TEXEL_FILTER_TILE_W * th : 0);
}

/* The code at @a, as a float (byte loads: any alignment). */
TEXEL_HD float
texel_filter_load_f (const TexelFilterPlan *p, const uint8_t *a)
{
  unsigned word = TEXEL_FILTER_LDG (a);

  if (p->fmt.bytes_per_sample == 2)
    word = texel_word_code (word | (unsigned)TEXEL_FILTER_LDG (a + 1) << 8,
                            &p->fmt);
  return (float)word;
}

TEXEL_HD void
texel_filter_store_f (const TexelFilterPlan *p, const TexelFilterComp *k, int x,
                      int y, unsigned code)
{
  size_t at = (size_t)y * k->dst_pitch + (size_t)x * k->dst_stride;

  if (p->fmt.bytes_per_sample == 2)
    {
      code <<= p->fmt.shift;
      k->dst[at] = (uint8_t)(code & 0xff);
      k->dst[at + 1] = (uint8_t)(code >> 8);
    }
  else
    {
      k->dst[at] = (uint8_t)code;
    }
  if (k->pad != NULL)
    k->pad[at] = 0xff;
}

/* Clamps a value in codes and rounds it to the nearest code, halves up,
 * exactly (v - floor (v) is exact in float), as the reference's round (). */
TEXEL_HD unsigned
texel_filter_quantize_f (const TexelFilterPlan *p, float v)
{
  float f;

  v = fminf (fmaxf (v, 0.0f), (float)p->max_code);
  f = floorf (v);
  return (unsigned)f + (v - f >= 0.5f ? 1u : 0u);
}

/* A component that is not filtered: sample (@x, @y) copied. */
TEXEL_HD void
texel_filter_copy_f (const TexelFilterPlan *p, const TexelFilterComp *k, int x,
                     int y)
{
  texel_filter_store_f (
      p, k, x, y,
      (unsigned)texel_filter_load_f (p, k->src + (size_t)y * k->src_pitch
                                            + (size_t)x * k->src_stride));
}

/* The phases take the plan's radius as @r: a constant where a kernel is
 * specialised for one (the 5x5 bilateral, Sobel), so that its loops
 * unroll and its tile indices fold.
 *
 * Phase 1 of the block whose first output sample is (@x0, @y0), thread
 * (@tx, @ty): its share of the weights and of the input tile, the output
 * tile widened by the radius, border-mapped, as codes. */
TEXEL_HD void
texel_filter_load_tile_f (const TexelFilterPlan *p, int r,
                          const TexelFilterComp *k, float *shared, int x0,
                          int y0, int tx, int ty)
{
  const int taps = 2 * r + 1;
  const int tw = TEXEL_FILTER_TILE_W + 2 * r;
  const int th = TEXEL_FILTER_TILE_H + 2 * r;
  const int mirror = p->border == TEXEL_FILTER_BORDER_MIRROR;
  float *tile = shared + TEXEL_FILTER_TAPS_MAX;
  int i, j;

  /* Weights indexed by a loop counter: from shared memory (a broadcast),
   * not from the parameter bank. */
  for (i = ty * TEXEL_FILTER_TILE_W + tx; i < taps;
       i += TEXEL_FILTER_TILE_W * TEXEL_FILTER_TILE_H)
    shared[i] = p->weight[i];
  for (j = ty; j < th; j += TEXEL_FILTER_TILE_H)
    {
      const uint8_t *row
          = k->src
            + (size_t)texel_filter_border_index (y0 + j - r, k->height, mirror)
                  * k->src_pitch;

      for (i = tx; i < tw; i += TEXEL_FILTER_TILE_W)
        tile[j * tw + i]
            = texel_filter_load_f (p, row
                                          + (size_t)texel_filter_border_index (
                                                x0 + i - r, k->width, mirror)
                                                * k->src_stride);
    }
}

/* Phase 2 (separable filters): thread (@tx, @ty)'s horizontal sums, of
 * output column @tx on the tile rows it owns. */
TEXEL_HD void
texel_filter_across_f (const TexelFilterPlan *p, int r, float *shared, int tx,
                       int ty)
{
  const int taps = 2 * r + 1;
  const int tw = TEXEL_FILTER_TILE_W + 2 * r;
  const int th = TEXEL_FILTER_TILE_H + 2 * r;
  const float *weight = shared;
  const float *tile = shared + TEXEL_FILTER_TAPS_MAX;
  float *across = shared + TEXEL_FILTER_TAPS_MAX + tw * th;
  int i, j;

  for (j = ty; j < th; j += TEXEL_FILTER_TILE_H)
    {
      const float *t = tile + j * tw + tx;
      float h = 0.0f;

      for (i = 0; i < taps; i++)
        h = fmaf (weight[i], t[i], h);
      across[j * TEXEL_FILTER_TILE_W + tx] = h;
    }
}

/* Phase 3: output sample (@x0 + @tx, @y0 + @ty) of filter @kind (the
 * plan's; a constant in each kernel). */
TEXEL_HD void
texel_filter_output_f (const TexelFilterPlan *p, int kind, int r,
                       const TexelFilterComp *k, const float *shared, int x0,
                       int y0, int tx, int ty)
{
  const int taps = 2 * r + 1;
  const int tw = TEXEL_FILTER_TILE_W + 2 * r;
  const int th = TEXEL_FILTER_TILE_H + 2 * r;
  const float *weight = shared;
  const float *tile = shared + TEXEL_FILTER_TAPS_MAX;
  const float c = tile[(ty + r) * tw + tx + r];
  float v;
  int i, j;

  if (x0 + tx >= k->width || y0 + ty >= k->row1)
    return;
  if (texel_filter_separable (kind))
    {
      const float *across = tile + tw * th;
      float s = 0.0f;

      for (j = 0; j < taps; j++)
        s = fmaf (weight[j], across[(ty + j) * TEXEL_FILTER_TILE_W + tx], s);
      if (kind == TEXEL_FILTER_BOX)
        {
          /* s is the exact integer sum (below 2^24); the box count is odd, so
           * s / count is never a half: rounded in integers, exactly. */
          int n = p->box_count;

          texel_filter_store_f (p, k, x0 + tx, y0 + ty,
                                (unsigned)((2 * (int)s + n) / (2 * n)));
          return;
        }
      v = kind == TEXEL_FILTER_UNSHARP ? fmaf (p->amount, c - s, c) : s;
    }
  else if (kind == TEXEL_FILTER_BILATERAL)
    {
      float num = 0.0f, den = 0.0f;

      /* The weighted mean of the differences from the centre, added to it;
       * the centre's own weight is 1, so den >= 1. */
      for (j = 0; j < taps; j++)
        {
          const float *t = tile + (ty + j) * tw + tx;
          float wy = weight[j];

          for (i = 0; i < taps; i++)
            {
              float d = t[i] - c;
              float wt = wy * weight[i]
                         * TEXEL_FILTER_EXPF (-p->range_coef * (d * d));

              num = fmaf (wt, d, num);
              den += wt;
            }
        }
      v = c + TEXEL_FILTER_DIVF (num, den);
    }
  else
    {
      /* Sobel: the 3 x 3 window from its top-left sample; exact integers
       * up to the square root. */
      const float *t = tile + ty * tw + tx;
      float gx = (t[2] + 2.0f * t[tw + 2] + t[2 * tw + 2])
                 - (t[0] + 2.0f * t[tw] + t[2 * tw]);
      float gy = (t[2 * tw] + 2.0f * t[2 * tw + 1] + t[2 * tw + 2])
                 - (t[0] + 2.0f * t[1] + t[2]);

      v = sqrtf (gx * gx + gy * gy) * 0.25f;
    }
  texel_filter_store_f (p, k, x0 + tx, y0 + ty, texel_filter_quantize_f (p, v));
}

#endif /* TEXEL_FILTER_H */
