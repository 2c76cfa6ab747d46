/* gst-texel: colour adjustment (texeladjust): brightness, contrast,
 * saturation and hue as videobalance does them, gamma, exposure and
 * white-balance gains in linear light, behind one C API with a CPU
 * reference and CUDA kernels.
 *
 * The order of operations, for one pixel:
 *
 *  1. Linear-light stage (skipped entirely when gamma = 1, exposure = 0
 *     and every gain = 1). Non-linear R'G'B' in [0, 1] (YUV formats: from
 *     Y'CbCr through the caps' matrix, clamped to [0, 1]) is decoded to
 *     linear light with the inverse of the caps' transfer function
 *     (BT.709 / BT.601 / BT.2020 OETF, sRGB, or a pure power), then per
 *     channel c:
 *         L2 = min (1, gain[c] * 2^exposure * L)       (clipped: display
 *                                                       referred)
 *         L3 = L2^(1 / gamma)                 for L2 >= T = 2^-12
 *              L2 * T^(1 / gamma - 1)         below (a linear toe, see
 *                                                       below)
 *     and encoded again with the same transfer function.
 *  2. Balance stage in Y'CbCr, exactly videobalance's formulas on
 *     normalised values (Y' in [0, 1] from black to white, Cb and Cr in
 *     [-0.5, 0.5]):
 *         Y'  = contrast * Y' + brightness
 *         Cb' = saturation * ( cos (pi hue) Cb + sin (pi hue) Cr)
 *         Cr' = saturation * (-sin (pi hue) Cb + cos (pi hue) Cr)
 *     For RGB formats through BT.601 (as videobalance), folded into one
 *     3x4 matrix on R'G'B'.
 *  3. Clamp to the code range, round to the nearest code.
 *
 * The toe: L^(1/gamma) has an infinite slope at 0 for gamma > 1, so that
 * a float rounding error of 1e-7 in a nearly black input would move the
 * output by tens of codes. Below T = 2^-12 (0.28 of an 8-bit code in the
 * BT.709 signal) the curve is the chord from 0 to T instead: continuous,
 * slope at most T^(1/gamma - 1) (1783 at gamma = 10).
 *
 * 4:2:0 and 4:2:2 formats with the linear stage active: each luma pixel
 * takes the chroma sample that covers it (no interpolation: the result
 * stays local), and each output chroma sample is the mean of the adjusted
 * chroma of the luma pixels it covers. Without the linear stage luma and
 * chroma are adjusted independently, as videobalance does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_ADJUST_H
#define TEXEL_ADJUST_H

#include <math.h>

#include "texel-convert.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Transfer functions (GStreamer's, video-color.c; BT.709 with the precise
 * constants of BT.2020, so that its segments meet). */
typedef enum
{
  TEXEL_TRANSFER_BT709 = 0,     /* also BT.601, BT.2020 (10 and 12 bits) */
  TEXEL_TRANSFER_SRGB,
  TEXEL_TRANSFER_LINEAR,
  TEXEL_TRANSFER_GAMMA18,
  TEXEL_TRANSFER_GAMMA22,
  TEXEL_TRANSFER_GAMMA28
} TexelTransfer;

/* Property ranges. */
#define TEXEL_ADJUST_GAMMA_MIN 0.01
#define TEXEL_ADJUST_GAMMA_MAX 10.0
#define TEXEL_ADJUST_EXPOSURE_MAX 10.0
#define TEXEL_ADJUST_GAIN_MAX 4.0
/* The toe of the gamma curve in linear light: 2^-12. */
#define TEXEL_ADJUST_TOE (1.0 / 4096.0)
/* Largest LUT: 8-bit codes. */
#define TEXEL_ADJUST_LUT_SIZE 256

typedef struct
{
  double brightness;            /* -1..1, 0 */
  double contrast;              /* 0..2, 1 */
  double saturation;            /* 0..2, 1 */
  double hue;                   /* -1..1, 0: times pi radians */
  double gamma;                 /* 0.01..10, 1 */
  double exposure;              /* stops, -10..10, 0 */
  double gain[3];               /* R, G, B: 0..4, 1 */
  /* The frames' colorimetry: matrix and range of YUV formats, transfer
   * function of all. */
  TexelMatrix matrix;
  int full_range;
  TexelTransfer transfer;
} TexelAdjustConfig;

/* Neutral settings, BT.709 limited range, BT.709 transfer. */
void texel_adjust_config_init (TexelAdjustConfig * config);
/* Whether the linear-light stage does nothing. */
int texel_adjust_config_linear_neutral (const TexelAdjustConfig * config);
/* Whether every setting is neutral: the output equals the input. */
int texel_adjust_config_is_neutral (const TexelAdjustConfig * config);

typedef enum
{
  /* One LUT per colour component indexed by its 8-bit code, then (RGB,
   * balance not neutral) a 3x4 matrix: RGB formats and GRAY8. */
  TEXEL_ADJUST_KIND_LUT = 0,
  /* Y'CbCr, no linear stage: luma from luma, chroma from chroma. */
  TEXEL_ADJUST_KIND_YUV_SEPARABLE,
  /* Y'CbCr through R'G'B' and the curves, per luma pixel. */
  TEXEL_ADJUST_KIND_YUV_LINEAR
} TexelAdjustKind;

/* One transfer function and the per-channel curve, in float for the
 * kernels, arranged so that the power segments of decode, gamma and
 * encode compose in the log2 domain: one log2 and one exp2 per channel
 * in the common case. */
typedef struct
{
  /* Decode: V >= dec_knee: log2 L = dec_pow * log2 (V * dec_scale +
   * dec_offset); below: L = V * dec_lin. */
  float dec_knee, dec_scale, dec_offset, dec_pow;
  /* Per channel: log2 (gain * 2^exposure) (-inf for a gain of 0) and
   * dec_lin * gain * 2^exposure. */
  float log2k[3], lin_k[3];
  /* The gamma toe T and its chord's slope. */
  float toe, log2_toe, toe_slope;
  float inv_gamma;
  /* Encode: L >= enc_knee: V = enc_mul * 2^(enc_pow * log2 L) - enc_sub;
   * below: V = enc_lin * L. */
  float enc_knee, log2_enc_knee, enc_mul, enc_sub, enc_pow, enc_lin;
} TexelAdjustCurveF;

/* The same curve in double, as the formulas read (CPU reference). */
typedef struct
{
  double alpha, power, beta, slope;     /* V = (1 + a) L^p - a, or s L */
  double dec_knee;                      /* slope * beta */
  double k[3];                          /* gain * 2^exposure */
  double inv_gamma, toe, toe_slope;
} TexelAdjustCurve;

/* Everything a kernel needs, derived once per caps or property change.
 * Plain data, passed by value to the CUDA kernels (the LUTs go with it,
 * then into shared memory). Codes of YUV formats enter as "centred
 * codes" q = code - off (off: 16 and 128 at 8 bits limited range, 0 and
 * 128 full range; times 4 at 10 bits), exact integers in float. Outputs
 * are normalised codes (code / max_code), clamped and rounded last. */
typedef struct
{
  TexelFormatDesc fmt;
  int width, height;
  TexelAdjustKind kind;
  int linear;                   /* the linear stage is active */
  int has_matrix;               /* LUT kind: apply mat after the LUTs */
  int x_shift, y_shift;         /* chroma subsampling; 0 without chroma */
  int has_chroma;
  int pad_offset;               /* RGBx's unused byte, or -1 */
  float max_code;
  float off[3];
  /* SEPARABLE: Y = y_coef[0] * qY + y_coef[1];
   * C[j] = c_coef[j][0] * qCb + c_coef[j][1] * qCr + c_coef[j][2]. */
  float y_coef[2], c_coef[2][3];
  /* LINEAR: R'G'B'[k] = sum_c dec[k][c] * q[c]; after the curves,
   * out[k] = sum_c enc[k][c] * R'G'B'[c] + enc[k][3]. */
  float dec[3][3], enc[3][4];
  /* LUT: v[c] = lut[c][code]; out[k] = sum_c mat[k][c] v[c] + mat[k][3]
   * when has_matrix, else v[k]. */
  float mat[3][4];
  TexelAdjustCurveF curve_f;
  float lut[3][TEXEL_ADJUST_LUT_SIZE];

  /* Double precision, for the CPU reference. */
  double off_d[3];
  double y_coef_d[2], c_coef_d[2][3];
  double dec_d[3][3], enc_d[3][4], mat_d[3][4];
  TexelAdjustCurve curve;
} TexelAdjustPlan;

/* Fills @plan (and its LUTs, in double, rounded to float once). Returns 0,
 * or -1 with a static message in @error. */
int texel_adjust_plan_init (TexelAdjustPlan * plan,
    const TexelAdjustConfig * config, TexelFormat format, int width,
    int height, const char **error);

/* Parameters of a transfer function: V = (1 + alpha) L^power - alpha for
 * L >= beta, else slope * L. */
void texel_transfer_params (TexelTransfer transfer, double *alpha,
    double *power, double *beta, double *slope);
double texel_transfer_decode (const TexelAdjustCurve * curve, double v);
double texel_transfer_encode (const TexelAdjustCurve * curve, double l);

/* CPU reference, double precision: the curve of channel @c (R'G'B' in,
 * R'G'B' out, both in [0, 1]) ... */
double texel_adjust_curve_d (const TexelAdjustCurve * curve, int c, double v);
/* ... one Y'CbCr pixel given as centred codes (chroma 0 for GRAY8):
 * normalised output codes (before clamping) ... */
void texel_adjust_yuv_pixel_d (const TexelAdjustPlan * plan, double qy,
    double qb, double qr, double out[3]);
/* ... and the whole adjustment of output rows [row0, row1) (luma rows;
 * @row0 even for vertically subsampled formats). @in and @out may not
 * alias. */
void texel_adjust_cpu (const TexelAdjustPlan * plan, const TexelImage * in,
    TexelImage * out, int row0, int row1);

/* The CUDA side (built only with CUDA; returns 0 or a cudaError_t).
 * Enqueues output rows [row0, row1) on @stream (never the legacy default
 * stream: NULL is refused) on @device; @in and @out hold device-accessible
 * addresses (device memory, mapped or registered host memory). */
typedef struct CUstream_st *TexelAdjustStream;
int texel_cuda_adjust (int device, const TexelAdjustPlan * plan,
    const TexelImage * in, const TexelImage * out, int row0, int row1,
    TexelAdjustStream stream);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------ */
/* The float per-pixel code of the kernels, shared with the host so that
 * tests can run exactly what the GPU runs (texel-adjust.cu includes it
 * for the device; tests/unit/test-adjust.c for the host, with the GPU's
 * intrinsic errors injected).
 *
 * Device: __log2f (MUFU.LG2; absolute error <= 2^-22 for x in [0.5, 2],
 * else <= 2 ulp) and exp2f (MUFU.EX2 with range scaling, <= 2 ulp).
 * Host: TEXEL_ADJUST_HOST_LOG2F / _EXP2F, log2f and exp2f unless a test
 * defines them. */
#ifdef __CUDACC__
#define TEXEL_ADJUST_HD static __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define TEXEL_ADJUST_UNROLL _Pragma ("unroll")
#define TEXEL_ADJUST_LOG2F(x) __log2f (x)
#define TEXEL_ADJUST_EXP2F(x) exp2f (x)
#else
#define TEXEL_ADJUST_UNROLL
#define TEXEL_ADJUST_LOG2F(x) log2f (x)
#define TEXEL_ADJUST_EXP2F(x) exp2f (x)
#endif
#else
#define TEXEL_ADJUST_HD static inline
#define TEXEL_ADJUST_UNROLL
#ifndef TEXEL_ADJUST_HOST_LOG2F
#define TEXEL_ADJUST_HOST_LOG2F log2f
#endif
#ifndef TEXEL_ADJUST_HOST_EXP2F
#define TEXEL_ADJUST_HOST_EXP2F exp2f
#endif
#define TEXEL_ADJUST_LOG2F(x) TEXEL_ADJUST_HOST_LOG2F (x)
#define TEXEL_ADJUST_EXP2F(x) TEXEL_ADJUST_HOST_EXP2F (x)
#endif

/* Encode of linear L3 in [0, 1]. */
TEXEL_ADJUST_HD float
texel_adjust_encode_f (const TexelAdjustCurveF * cv, float l3)
{
  if (l3 >= cv->enc_knee && l3 > 0.0f)
    return fmaf (cv->enc_mul, TEXEL_ADJUST_EXP2F (cv->enc_pow *
            TEXEL_ADJUST_LOG2F (l3)), -cv->enc_sub);
  return cv->enc_lin * l3;
}

/* Encode of L3 given as log2 L3. */
TEXEL_ADJUST_HD float
texel_adjust_encode_log_f (const TexelAdjustCurveF * cv, float lg3)
{
  if (lg3 >= cv->log2_enc_knee)
    return fmaf (cv->enc_mul, TEXEL_ADJUST_EXP2F (cv->enc_pow * lg3),
        -cv->enc_sub);
  return cv->enc_lin * TEXEL_ADJUST_EXP2F (lg3);
}

/* The curve of channel @c: R' in, R' out. */
TEXEL_ADJUST_HD float
texel_adjust_curve_f (const TexelAdjustCurveF * cv, int c, float v)
{
  float lg, l2;

  v = fminf (fmaxf (v, 0.0f), 1.0f);
  if (v >= cv->dec_knee) {
    /* log2 L2 = log2 k + dec_pow * log2 ((V + a) / (1 + a)) */
    lg = fmaf (cv->dec_pow, TEXEL_ADJUST_LOG2F (fmaf (v, cv->dec_scale,
                cv->dec_offset)), cv->log2k[c]);
    if (lg >= 0.0f)
      return 1.0f;              /* clipped: encode (1) = 1 */
    if (lg < cv->log2_toe)
      return texel_adjust_encode_f (cv, TEXEL_ADJUST_EXP2F (lg) *
          cv->toe_slope);
  } else {
    l2 = v * cv->lin_k[c];
    if (l2 >= 1.0f)
      return 1.0f;
    if (l2 < cv->toe)
      return texel_adjust_encode_f (cv, l2 * cv->toe_slope);
    lg = TEXEL_ADJUST_LOG2F (l2);
  }
  return texel_adjust_encode_log_f (cv, lg * cv->inv_gamma);
}

/* Plane @p's address and stride, chosen without indexing: a kernel's
 * image parameters then stay in registers, not in local memory. */
TEXEL_ADJUST_HD uint8_t *
texel_adjust_sample (const TexelImage * img, const TexelComponent * comp,
    int x, int y)
{
  int p = comp->plane;
  uint8_t *base = p == 0 ? img->data[0] : p == 1 ? img->data[1] :
      img->data[2];
  int stride = p == 0 ? img->stride[0] : p == 1 ? img->stride[1] :
      img->stride[2];

  return base + (size_t) y * stride + comp->offset + (size_t) x *
      comp->pixel_stride;
}

TEXEL_ADJUST_HD unsigned
texel_adjust_read_f (const TexelAdjustPlan * p, const TexelImage * img,
    int c, int x, int y)
{
  const uint8_t *a = texel_adjust_sample (img, &p->fmt.comp[c], x, y);

  if (p->fmt.bytes_per_sample == 2)
    return (unsigned) (a[0] | (a[1] << 8)) >> p->fmt.shift;
  return a[0];
}

TEXEL_ADJUST_HD void
texel_adjust_write_f (const TexelAdjustPlan * p, const TexelImage * img,
    int c, int x, int y, unsigned code)
{
  uint8_t *a = texel_adjust_sample (img, &p->fmt.comp[c], x, y);

  if (p->fmt.bytes_per_sample == 2) {
    code <<= p->fmt.shift;
    a[0] = (uint8_t) (code & 0xff);
    a[1] = (uint8_t) (code >> 8);
  } else {
    a[0] = (uint8_t) code;
  }
}

/* Clamps to [0, 1] and rounds to the nearest code, halves up (as the CPU
 * reference's round () of a non-negative value). */
TEXEL_ADJUST_HD unsigned
texel_adjust_quantize_f (const TexelAdjustPlan * p, float v)
{
  v = fminf (fmaxf (v, 0.0f), 1.0f);
  return (unsigned) floorf (v * p->max_code + 0.5f);
}

/* Adjusts the luma pixels of chroma block (@bx, @by) (one pixel for RGB,
 * GRAY8 and formats without subsampling) and its chroma sample. @lut: the
 * plan's LUTs, 3 x TEXEL_ADJUST_LUT_SIZE (in shared memory on the GPU). */
TEXEL_ADJUST_HD void
texel_adjust_block_f (const TexelAdjustPlan * p, const float *lut,
    const TexelImage * in, const TexelImage * out, int bx, int by)
{
  int x0 = bx << p->x_shift, y0 = by << p->y_shift;
  int x1 = x0 + (1 << p->x_shift), y1 = y0 + (1 << p->y_shift);
  int x, y, c, k;

  if (x1 > p->width)
    x1 = p->width;
  if (y1 > p->height)
    y1 = p->height;

  if (p->kind == TEXEL_ADJUST_KIND_LUT) {
    float v[3] = { 0.0f, 0.0f, 0.0f };
    int n = p->fmt.is_gray ? 1 : 3;

    TEXEL_ADJUST_UNROLL
    for (c = 0; c < 3; c++)
      if (c < n)
        v[c] = lut[c * TEXEL_ADJUST_LUT_SIZE + texel_adjust_read_f (p, in, c,
                x0, y0)];
    TEXEL_ADJUST_UNROLL
    for (k = 0; k < 3; k++) {
      float o = v[k];

      if (k >= n)
        continue;
      if (p->has_matrix)
        o = fmaf (p->mat[k][0], v[0], fmaf (p->mat[k][1], v[1],
                fmaf (p->mat[k][2], v[2], p->mat[k][3])));
      texel_adjust_write_f (p, out, k, x0, y0, texel_adjust_quantize_f (p,
              o));
    }
    if (p->fmt.comp[3].plane >= 0)
      texel_adjust_write_f (p, out, 3, x0, y0, texel_adjust_read_f (p, in, 3,
              x0, y0));
    if (p->pad_offset >= 0)
      out->data[0][(size_t) y0 * out->stride[0] + p->pad_offset +
          (size_t) x0 * p->fmt.comp[0].pixel_stride] = 0xff;
    return;
  }

  if (p->kind == TEXEL_ADJUST_KIND_YUV_SEPARABLE) {
    for (y = y0; y < y1; y++)
      for (x = x0; x < x1; x++) {
        float q = (float) texel_adjust_read_f (p, in, 0, x, y) - p->off[0];

        texel_adjust_write_f (p, out, 0, x, y, texel_adjust_quantize_f (p,
                fmaf (p->y_coef[0], q, p->y_coef[1])));
      }
    if (p->has_chroma) {
      float qb = (float) texel_adjust_read_f (p, in, 1, bx, by) - p->off[1];
      float qr = (float) texel_adjust_read_f (p, in, 2, bx, by) - p->off[2];

      TEXEL_ADJUST_UNROLL
      for (k = 0; k < 2; k++)
        texel_adjust_write_f (p, out, 1 + k, bx, by,
            texel_adjust_quantize_f (p, fmaf (p->c_coef[k][0], qb,
                    fmaf (p->c_coef[k][1], qr, p->c_coef[k][2]))));
    }
    return;
  }

  /* YUV_LINEAR */
  {
    float qb = 0.0f, qr = 0.0f, sum_b = 0.0f, sum_r = 0.0f;
    int n = 0;

    if (p->has_chroma) {
      qb = (float) texel_adjust_read_f (p, in, 1, bx, by) - p->off[1];
      qr = (float) texel_adjust_read_f (p, in, 2, bx, by) - p->off[2];
    }
    for (y = y0; y < y1; y++) {
      for (x = x0; x < x1; x++) {
        float qy = (float) texel_adjust_read_f (p, in, 0, x, y) - p->off[0];
        float rgb[3], o[3];

        TEXEL_ADJUST_UNROLL
        for (c = 0; c < 3; c++)
          rgb[c] = texel_adjust_curve_f (&p->curve_f, c,
              fmaf (p->dec[c][0], qy, fmaf (p->dec[c][1], qb,
                      p->dec[c][2] * qr)));
        TEXEL_ADJUST_UNROLL
        for (k = 0; k < 3; k++)
          o[k] = fmaf (p->enc[k][0], rgb[0], fmaf (p->enc[k][1], rgb[1],
                  fmaf (p->enc[k][2], rgb[2], p->enc[k][3])));
        texel_adjust_write_f (p, out, 0, x, y, texel_adjust_quantize_f (p,
                o[0]));
        sum_b += o[1];
        sum_r += o[2];
        n++;
      }
    }
    if (p->has_chroma) {
      /* n is 1, 2 or 4: the reciprocal is exact. */
      float inv_n = 1.0f / (float) n;

      texel_adjust_write_f (p, out, 1, bx, by, texel_adjust_quantize_f (p,
              sum_b * inv_n));
      texel_adjust_write_f (p, out, 2, bx, by, texel_adjust_quantize_f (p,
              sum_r * inv_n));
    }
  }
}

#endif /* TEXEL_ADJUST_H */
