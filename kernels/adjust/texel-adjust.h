/* gst-texel: colour adjustment (texeladjust): gamma, brightness,
 * contrast, saturation and hue exactly as the `gamma ! videobalance`
 * elements do them; linear-gamma, exposure, white-balance gains, white
 * point, tone map and vignette correction in linear light; a 3D LUT
 * last; behind one C API with a CPU reference and CUDA kernels.
 *
 * The order of operations, for one pixel:
 *
 *  1. Linear-light stage (skipped entirely when linear-gamma = 1,
 *     exposure = 0, every gain = 1, the white point is 6500 K, there is
 *     no tone map and no vignette correction). Non-linear R'G'B' in
 *     [0, 1] (YUV formats: from Y'CbCr through the caps' matrix, clamped
 *     to [0, 1]) is decoded to linear light L with the inverse of the
 *     caps' transfer function (BT.709 / BT.601 / BT.2020 OETF, sRGB, or a
 *     pure power), then per channel c, with k[c] = gain[c] * wp[c] *
 *     2^exposure * v(x, y) (wp: the white point's gains, v: the vignette
 *     gain at the pixel, both below):
 *         L2 = tone (k[c] * L)                (tone map, below; none:
 *                                              min (1, x), clipped:
 *                                              display referred)
 *         L3 = L2^(1 / linear_gamma)          for L2 >= T = 2^-12
 *              L2 * T^(1 / linear_gamma - 1)  below (a linear toe, see
 *                                                       below)
 *     and encoded again with the same transfer function (and the caps'
 *     matrix).
 *  2. The GStreamer stage: what `gamma gamma=G ! videobalance ...` gives
 *     for the codes stage 1 gives (rounded to codes when stage 1 is
 *     active), with the elements' own formulas and roundings (gst-plugins-
 *     good 1.22, gstgamma.c and gstvideobalance.c). On 8-bit Y'CbCr codes
 *     Y, U, V (whatever the range and matrix: the elements ignore both):
 *         gamma:   Y1 = floor (255 (Y / 255)^(1 / G) + 0.5)
 *         balance: Y2 = rint (clamp (16 + ((Y1 - 16) contrast
 *                                          + brightness * 255), 0, 255))
 *                  u = U - 128, v = V - 128, c = cos (pi hue),
 *                  s = sin (pi hue):
 *                  U2 = rint (clamp (128 + (u c + v s) saturation, 0, 255))
 *                  V2 = rint (clamp (128 + (-u s + v c) saturation, 0,
 *                                    255))
 *     (rint: halves to even; each element is a no-op at its neutral
 *     settings). 10-bit frames (P010): the same with every constant
 *     (16, 128, 255) times 4 and 1023 as the top. RGB formats (8-bit
 *     only) go, like the elements, through the elements' fixed-point
 *     BT.601 matrices, once per active element (first gamma's, then
 *     videobalance's round trip; >> is a floor):
 *         Y = (66 R + 129 G + 25 B + 4096) >> 8
 *         U = (-38 R - 74 G + 112 B + 32768) >> 8
 *         V = (112 R - 94 G - 18 B + 32768) >> 8
 *         (gamma: Y1 from Y; balance: Y, U, V clamped to 0..255, then
 *          Y2, U2, V2)
 *         R = clamp ((298 Y + 409 V - 57068) >> 8, 0, 255)
 *         G = clamp ((298 Y - 100 U - 208 V + 34707) >> 8, 0, 255)
 *         B = clamp ((298 Y + 516 U - 70870) >> 8, 0, 255)
 *     4:2:0 and 4:2:2 chroma: each chroma sample through the formulas
 *     (with stage 1 active: the mean of its pixels' chroma, rounded,
 *     then the formulas), as the elements do.
 *  3. 3D LUT (a .cube file, texel-cube.h) on the R'G'B' the first two
 *     stages give (non-linear, as grading LUTs expect; YUV formats:
 *     decoded with the caps' matrix, the LUT's output encoded again):
 *     each channel mapped to lattice coordinates
 *         t = clamp ((v - domain_min) / (domain_max - domain_min), 0, 1)
 *             * (N - 1)
 *     and the 8 surrounding entries interpolated trilinearly. With a LUT
 *     and stage 2 active on 4:2:0 / 4:2:2 frames, stage 2 runs per luma
 *     pixel, on the codes of that pixel's stage-1 Y'CbCr (its chroma: the
 *     sample that covers it, or with stage 1 active its own adjusted
 *     chroma), before the LUT; the chroma sample is then the mean of the
 *     pixels' results.
 *  4. Clamp to the code range, round to the nearest code.
 *
 * The toe: L^(1/linear_gamma) has an infinite slope at 0 for linear_gamma
 * > 1, so that a float rounding error of 1e-7 in a nearly black input
 * would move the output by tens of codes. Below T = 2^-12 (0.28 of an
 * 8-bit code in the BT.709 signal) the curve is the chord from 0 to T
 * instead: continuous, slope at most T^(1/linear_gamma - 1) (1783 at
 * linear_gamma = 10).
 *
 * Tone maps (per channel, on x = k[c] L, so after exposure, gains, white
 * point and vignette; into [0, 1], so before gamma):
 *     none       min (1, x)                   (clips)
 *     reinhard   x / (1 + x)                  (Reinhard et al. 2002,
 *                                              the simple global operator:
 *                                              1 maps to 0.5)
 *     filmic     min (1, x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14))
 *                (Narkowicz 2015: a rational fit of the ACES RRT + ODT
 *                 curve; 1 maps to 0.80, 7.24 and above to 1)
 * Both are increasing and start with slopes 1 and 0.21 at 0; exposure
 * chooses which input ends up where (Narkowicz pre-scales by 0.6:
 * exposure -0.74).
 *
 * The white point: wp[c] are von Kries gains in the linear RGB of the
 * caps' primaries. The Planckian locus at T kelvin (Kim et al., 2002: the
 * cubic-spline fit of its CIE 1931 chromaticity, 1667..25000 K) gives
 * the illuminant's white W_T = XYZ (x/y, 1, (1 - x - y)/y), Y = 1; the
 * reference white is the same locus at 6500 K (near D65; a white point
 * of 6500 is exactly neutral). With M the caps' RGB -> XYZ matrix (from
 * their primaries and white):
 *     wp[c] = (M^-1 W_6500)[c] / (M^-1 W_T)[c]
 * so the illuminant's white becomes the reference white at the same
 * luminance (both have Y = 1: no further normalisation). Below 6500 K
 * (warm light) blue is raised and red lowered, above it the reverse. The
 * gains multiply red-gain, green-gain and blue-gain: k[c] above.
 *
 * The vignette (lens shading) correction: a gain in linear light that
 * grows with the distance r from the frame's centre,
 *     v(x, y) = 1 + strength * r^2,
 *     r^2 = ((x + 0.5 - W/2)^2 + (y + 0.5 - H/2)^2) / ((W/2)^2 + (H/2)^2)
 * for the luma pixel (x, y) of a W x H frame: r is 0 at the centre and 1
 * at the corners (the half-diagonal), in pixels (square pixels assumed),
 * so the corners get 1 + strength. A simple lens's cos^4 fall-off,
 * 1 / (1 + tan^2 t)^2 ~ 1 - 2 tan^2 t near the axis with tan t = r *
 * half-diagonal / focal length, is corrected by a strength of about
 * 2 (half-diagonal / focal length)^2; negative values darken the corners
 * (an added vignette; -1 makes them black). The gain depends on
 * the row only through y: a band of rows is adjusted as in the whole
 * frame.
 *
 * The 3D LUT on the GPU: a float4 cudaArray read through a 3D texture.
 * Hardware linear filtering holds each interpolation weight in 9-bit
 * fixed point with 8 fractional bits (CUDA C++ Programming Guide, "Linear
 * Filtering"), an error of up to 2^-8 per axis: at most
 *     E = max_code * G * 2^-8 * (step_r + step_g + step_b)
 * output codes, step_a the largest difference between neighbouring
 * entries along axis a (TexelCube.max_step) and G the largest row sum
 * of |encode matrix| after the LUT (1 for RGB). A 33-point identity LUT
 * gives E = 0.09 codes at 8 bits and 0.33 at 10 bits (limited range;
 * 0.37 full range); a 2-point one
 * (every linear LUT: inversions, channel swaps) 3 codes at 8 bits. The
 * plan uses the hardware where E <= TEXEL_ADJUST_LUT3D_HW_MAX_ERROR (half
 * a code: GPU and CPU codes then differ by at most 1), and otherwise
 * fetches the 8 entries without filtering and interpolates in float.
 *
 * 4:2:0 and 4:2:2 formats with the linear stage active: each luma pixel
 * takes the chroma sample that covers it (no interpolation: the result
 * stays local) and its own vignette gain, and each output chroma sample
 * is the mean of the adjusted chroma of the luma pixels it covers; the
 * same with a 3D LUT. Without either, luma and chroma are adjusted
 * independently, as videobalance does.
 *
 * Why the GStreamer stage rounds where the elements round, and why RGB
 * goes through their coarse matrices: a pipeline ported from `gamma !
 * videobalance` must give the same picture, code for code; the linear-
 * light power that `gamma` was before is `linear_gamma`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_ADJUST_H
#define TEXEL_ADJUST_H

#include <math.h>

#include "texel-kernel.h"
#include "texel-convert.h"
#include "texel-cube.h"

TEXEL_BEGIN_DECLS

/* Tone maps (the formulas are at the top of this file). */
typedef enum
{
  TEXEL_TONE_MAP_NONE = 0,
  TEXEL_TONE_MAP_REINHARD,
  TEXEL_TONE_MAP_FILMIC
} TexelToneMap;

/* Transfer functions (GStreamer's, video-color.c; BT.709 with the precise
 * constants of BT.2020, so that its segments meet). */
typedef enum
{
  TEXEL_TRANSFER_BT709 = 0, /* also BT.601, BT.2020 (10 and 12 bits) */
  TEXEL_TRANSFER_SRGB,
  TEXEL_TRANSFER_LINEAR,
  TEXEL_TRANSFER_GAMMA18,
  TEXEL_TRANSFER_GAMMA22,
  TEXEL_TRANSFER_GAMMA28
} TexelTransfer;

/* Property ranges. */
#define TEXEL_ADJUST_GAMMA_MIN 0.01 /* gamma and linear_gamma */
#define TEXEL_ADJUST_GAMMA_MAX 10.0
#define TEXEL_ADJUST_EXPOSURE_MAX 10.0
#define TEXEL_ADJUST_GAIN_MAX 4.0
/* The toe of the gamma curve in linear light: 2^-12. */
#define TEXEL_ADJUST_TOE (1.0 / 4096.0)
/* White point (kelvin). Below 2500 K the gains grow fast (BT.709 blue:
 * 7.4 at 2500 K, 52 at 2000 K) and near 1800 K the locus leaves the
 * BT.709 gamut (blue would go negative). */
#define TEXEL_ADJUST_WHITE_POINT_MIN 2500.0
#define TEXEL_ADJUST_WHITE_POINT_MAX 15000.0
#define TEXEL_ADJUST_WHITE_POINT_NEUTRAL 6500.0
/* Vignette strength: the corners' gain, minus 1. */
#define TEXEL_ADJUST_VIGNETTE_MIN -1.0
#define TEXEL_ADJUST_VIGNETTE_MAX 3.0
/* The largest weight error of hardware filtering a 3D LUT may cause, in
 * output codes, for the plan to use it (see above). */
#define TEXEL_ADJUST_LUT3D_HW_MAX_ERROR 0.5
/* Largest LUT: 8-bit codes. */
#define TEXEL_ADJUST_LUT_SIZE 256

typedef struct
{
  double brightness;   /* -1..1, 0 */
  double contrast;     /* 0..2, 1 */
  double saturation;   /* 0..2, 1 */
  double hue;          /* -1..1, 0: times pi radians */
  double gamma;        /* 0.01..10, 1: on Y', the gamma element */
  double linear_gamma; /* 0.01..10, 1: per channel, linear light */
  double exposure;     /* stops, -10..10, 0 */
  double gain[3];      /* R, G, B: 0..4, 1 */
  double white_point;  /* kelvin, 2500..15000, 6500 */
  TexelToneMap tone_map;
  double vignette; /* strength, -1..3, 0 */
  /* A 3D LUT, or NULL: the caller's, kept alive as long as the plans
   * made with it. */
  const TexelCube *cube;
  /* The frames' colorimetry: matrix and range of YUV formats, transfer
   * function and primaries (CIE 1931 x, y of R, G, B and white) of all. */
  TexelMatrix matrix;
  int full_range;
  TexelTransfer transfer;
  double primaries[4][2];
} TexelAdjustConfig;

/* Neutral settings, BT.709 limited range, BT.709 transfer and
 * primaries. */
void texel_adjust_config_init (TexelAdjustConfig *config);
/* Whether the linear-light stage does nothing. */
int texel_adjust_config_linear_neutral (const TexelAdjustConfig *config);
/* Whether the GStreamer stage (gamma, videobalance) does nothing. */
int texel_adjust_config_gst_neutral (const TexelAdjustConfig *config);
/* Whether every setting is neutral: the output equals the input. */
int texel_adjust_config_is_neutral (const TexelAdjustConfig *config);

typedef enum
{
  /* One LUT per colour component indexed by its 8-bit code, then (RGB)
   * the GStreamer stage: RGB formats and GRAY8 when every pixel is
   * adjusted alike. */
  TEXEL_ADJUST_KIND_LUT = 0,
  /* Y'CbCr, no linear stage: luma from luma, chroma from chroma. */
  TEXEL_ADJUST_KIND_YUV_SEPARABLE,
  /* Y'CbCr (and GRAY8 with a vignette) through R'G'B', the curves and
   * the 3D LUT, per luma pixel. */
  TEXEL_ADJUST_KIND_YUV_RGB,
  /* 8-bit R'G'B' through the curves per pixel (a vignette: the curve
   * depends on the position), then as LUT. */
  TEXEL_ADJUST_KIND_RGB_PIXEL
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
  float inv_gamma; /* 1 / linear_gamma */
  TexelToneMap tone_map;
  /* Encode: L >= enc_knee: V = enc_mul * 2^(enc_pow * log2 L) - enc_sub;
   * below: V = enc_lin * L. */
  float enc_knee, log2_enc_knee, enc_mul, enc_sub, enc_pow, enc_lin;
} TexelAdjustCurveF;

/* The same curve in double, as the formulas read (CPU reference). */
typedef struct
{
  double alpha, power, beta, slope; /* V = (1 + a) L^p - a, or s L */
  double dec_knee;                  /* slope * beta */
  double k[3];                      /* gain * wp * 2^exposure */
  double inv_gamma, toe, toe_slope; /* inv_gamma: 1 / linear_gamma */
  TexelToneMap tone_map;
} TexelAdjustCurve;

/* The GStreamer stage's parameters, in double so that the GPU computes
 * the elements' double arithmetic operation for operation (no fused
 * multiply-adds: they round differently), and its 8-bit tables. */
typedef struct
{
  int gamma, balance;      /* the element is active */
  int scale;               /* 1 at 8 bits, 4 at 10 */
  double max;              /* 255 or 1023 */
  double inv_gamma;        /* 1 / gamma */
  double contrast, bright; /* bright: brightness * 255 * scale */
  double saturation, hue_cos, hue_sin;
  /* 8 bits: [0] Y1 of every Y (gamma), [1] Y2 of every Y1 (balance);
   * the kernels read them through a copy in shared memory (the "table"
   * arguments below). */
  uint8_t table[2][256];
} TexelAdjustGst;

/* What a kernel reads, derived once per caps or property change: float
 * data, passed by value to the CUDA kernels (the LUTs go with it, then
 * into shared memory). Codes of YUV formats enter as "centred
 * codes" q = code - off (off: 16 and 128 at 8 bits limited range, 0 and
 * 128 full range; times 4 at 10 bits), exact integers in float. Outputs
 * are normalised codes (code / max_code), clamped and rounded last. */
typedef struct
{
  TexelFormatDesc fmt;
  int width, height;
  TexelAdjustKind kind;
  int linear;     /* the linear stage is active */
  int positional; /* a vignette: gains depend on (x, y) */
  /* The vignette: v = 1 + vig_k ((x - vig_cx)^2 + (y - vig_cy)^2). */
  float vig_cx, vig_cy, vig_k;
  int x_shift, y_shift; /* chroma subsampling; 0 without chroma */
  int has_chroma;
  int pad_offset; /* RGBx's unused byte, or -1 */
  float max_code;
  float off[3];
  /* YUV_RGB: R'G'B'[k] = sum_c dec[k][c] * q[c]; after the curves,
   * normalised codes out[k] = sum_c enc[k][c] * R'G'B'[c] + enc[k][3]. */
  float dec[3][3], enc[3][4];
  /* LUT: v[c] = lut[c][code] (RGB_PIXEL: the curve of code / 255). */
  TexelAdjustCurveF curve_f;
  /* Stage 2 (gst.gamma or gst.balance: active). */
  TexelAdjustGst gst;
  /* The 3D LUT (lut3d: the kernels apply one; GRAY8's LUT kind has it in
   * its 1D LUT): lattice coordinates t = clamp (v * lut3d_scale +
   * lut3d_offset, 0, N - 1); lut3d_hw: interpolated by the texture
   * hardware. */
  int lut3d, lut3d_hw, lut3d_size;
  float lut3d_scale[3], lut3d_offset[3];
  float lut[3][TEXEL_ADJUST_LUT_SIZE];
} TexelAdjustKernelPlan;

/* A 3D LUT on the GPU (texel_cuda_lut3d_new, below). */
typedef struct TexelCudaLut3d TexelCudaLut3d;
/* The fast CPU path's tables (texel-adjust-fast.h). */
typedef struct TexelAdjustFast TexelAdjustFast;

/* The whole plan: the kernels' part, and the same in double precision
 * for the CPU reference. */
typedef struct
{
  TexelAdjustKernelPlan kernel;
  double off_d[3];
  double dec_d[3][3], enc_d[3][4];
  TexelAdjustCurve curve;
  double vignette;       /* strength */
  const TexelCube *cube; /* the 3D LUT, or NULL */
  /* The same on the GPU, for texel_cuda_adjust: left NULL by
   * texel_adjust_plan_init, set by the caller after uploading @cube
   * (texel_cuda_lut3d_new); the CPU reference reads @cube. */
  const TexelCudaLut3d *lut3d;
  /* The bound E on hardware filtering's error (codes; see above). */
  double lut3d_hw_error;
  /* The fast CPU path's tables (texel-adjust-fast.h), kept by the caller
   * next to the plan; NULL (as texel_adjust_plan_init leaves it): the
   * reference. */
  const TexelAdjustFast *fast;
} TexelAdjustPlan;

/* Fills @plan (and its LUTs, in double, rounded to float once). Returns 0,
 * or -1 with a static message in @error. */
int texel_adjust_plan_init (TexelAdjustPlan *plan,
                            const TexelAdjustConfig *config, TexelFormat format,
                            int width, int height, const char **error);

/* The Planckian locus: CIE 1931 chromaticity of a black body at @kelvin
 * (Kim et al.'s cubic spline, valid from 1667 to 25000 K). */
void texel_planckian_xy (double kelvin, double *x, double *y);
/* The linear RGB -> XYZ matrix of @primaries (x, y of R, G, B, white). */
void texel_rgb_to_xyz (const double primaries[4][2], double m[3][3]);
/* The white point's gains wp[c] (see the top of this file); exactly 1 at
 * TEXEL_ADJUST_WHITE_POINT_NEUTRAL. */
void texel_white_point_gains (const double primaries[4][2], double kelvin,
                              double gains[3]);

/* Parameters of a transfer function: V = (1 + alpha) L^power - alpha for
 * L >= beta, else slope * L. */
void texel_transfer_params (TexelTransfer transfer, double *alpha,
                            double *power, double *beta, double *slope);
double texel_transfer_decode (const TexelAdjustCurve *curve, double v);
/* The tone map of @curve applied to linear @x >= 0. */
double texel_tone_map_d (TexelToneMap tone_map, double x);
double texel_transfer_encode (const TexelAdjustCurve *curve, double l);

/* CPU reference, double precision: the vignette gain of luma pixel
 * (@x, @y) ... */
double texel_adjust_vignette_d (const TexelAdjustPlan *plan, int x, int y);
/* ... the curve of channel @c (R'G'B' in, R'G'B' out, both in [0, 1]) of
 * a pixel whose vignette gain is @gain ... */
double texel_adjust_curve_d (const TexelAdjustCurve *curve, int c, double v,
                             double gain);
/* ... the 3D LUT of @plan on R'G'B' @v (trilinear, in place) ... */
void texel_adjust_lut3d_d (const TexelAdjustPlan *plan, double v[3]);
/* ... stage 1 of one Y'CbCr pixel given as centred codes (chroma 0 for
 * GRAY8) with vignette gain @gain: normalised codes (before clamping)
 * ... */
void texel_adjust_yuv_pixel_d (const TexelAdjustPlan *plan, double qy,
                               double qb, double qr, double gain,
                               double out[3]);
/* ... stages 1 to 3 of one such pixel: normalised codes; stage 2's
 * chroma is left to the chroma sample (after the mean: the caller) when
 * there is no 3D LUT ... */
void texel_adjust_pixel_d (const TexelAdjustPlan *plan, double qy, double qb,
                           double qr, double gain, double out[3]);
/* ... stage 2 (texel-adjust.h's formulas; @gst as the plan has it): the
 * gamma element on a Y' code, videobalance on a Y' code and on a chroma
 * pair, and both on an 8-bit R'G'B' pixel, in place ... */
unsigned texel_adjust_gst_gamma_d (const TexelAdjustGst *gst, unsigned y);
unsigned texel_adjust_gst_luma_d (const TexelAdjustGst *gst, unsigned y);
void texel_adjust_gst_chroma_d (const TexelAdjustGst *gst, unsigned u,
                                unsigned v, unsigned out[2]);
void texel_adjust_gst_rgb_d (const TexelAdjustGst *gst, unsigned rgb[3]);
/* ... and the whole adjustment of output rows [row0, row1) (luma rows;
 * @row0 even for vertically subsampled formats). @in and @out may not
 * alias. */
void texel_adjust_cpu (const TexelAdjustPlan *plan, const TexelImage *in,
                       TexelImage *out, int row0, int row1);

/* The CUDA side (built only with CUDA; returns 0 or a cudaError_t), each
 * call made with @ctx's device current.
 *
 * A 3D LUT on @ctx's device: a cudaArray of float4 and two texture
 * objects on it (hardware linear filtering, and none). Made once per LUT
 * (the copy is synchronous); free it, with the same device current, only
 * when no kernel using it can be queued any more. */
int texel_cuda_lut3d_new (TexelCudaContext *ctx, const TexelCube *cube,
                          TexelCudaLut3d **lut);
void texel_cuda_lut3d_free (TexelCudaLut3d *lut);

/* Enqueues output rows [row0, row1) on @stream (never the legacy default
 * stream: NULL is refused); @in and @out hold device-accessible addresses
 * (device memory, mapped or registered host memory). Where the plan has a
 * 3D LUT (plan->kernel.lut3d), plan->lut3d must hold it, made on @ctx's
 * device. */
int texel_cuda_adjust (TexelCudaContext *ctx, const TexelAdjustPlan *plan,
                       const TexelImage *in, const TexelImage *out, int row0,
                       int row1, TexelStream stream);

TEXEL_END_DECLS

/* ------------------------------------------------------------------ */
/* The float per-pixel code of the kernels, shared with the host so that
 * tests can run exactly what the GPU runs (texel-adjust.cu includes it
 * for the device; tests/unit/test-adjust.c for the host, with the GPU's
 * intrinsic errors injected).
 *
 * Device: __log2f (MUFU.LG2; absolute error <= 2^-22 for x in [0.5, 2],
 * else <= 2 ulp), exp2f (MUFU.EX2 with range scaling, <= 2 ulp) and
 * __fdividef (<= 2 ulp for divisors below 2^126).
 * Host: TEXEL_ADJUST_HOST_LOG2F / _EXP2F / _DIVF, log2f, exp2f and /
 * unless a test defines them. */
#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
#define TEXEL_ADJUST_UNROLL _Pragma ("unroll")
#define TEXEL_ADJUST_LOG2F(x) __log2f (x)
#define TEXEL_ADJUST_EXP2F(x) exp2f (x)
#define TEXEL_ADJUST_DIVF(a, b) __fdividef (a, b)
#define TEXEL_ADJUST_DMUL(a, b) __dmul_rn (a, b)
#define TEXEL_ADJUST_DADD(a, b) __dadd_rn (a, b)
#else
#define TEXEL_ADJUST_UNROLL
#define TEXEL_ADJUST_LOG2F(x) log2f (x)
#define TEXEL_ADJUST_EXP2F(x) exp2f (x)
#define TEXEL_ADJUST_DIVF(a, b) ((a) / (b))
#endif
#else
#define TEXEL_ADJUST_UNROLL
#ifndef TEXEL_ADJUST_HOST_LOG2F
#define TEXEL_ADJUST_HOST_LOG2F log2f
#endif
#ifndef TEXEL_ADJUST_HOST_EXP2F
#define TEXEL_ADJUST_HOST_EXP2F exp2f
#endif
#define TEXEL_ADJUST_LOG2F(x) TEXEL_ADJUST_HOST_LOG2F (x)
#define TEXEL_ADJUST_EXP2F(x) TEXEL_ADJUST_HOST_EXP2F (x)
#ifdef TEXEL_ADJUST_HOST_DIVF
#define TEXEL_ADJUST_DIVF(a, b) TEXEL_ADJUST_HOST_DIVF (a, b)
#else
#define TEXEL_ADJUST_DIVF(a, b) ((a) / (b))
#endif
#endif
/* The GStreamer stage's double arithmetic, one rounding per operation
 * as in the elements (x86-64 without FMA): never contracted into fused
 * multiply-adds on the GPU. */
#ifndef TEXEL_ADJUST_DMUL
#define TEXEL_ADJUST_DMUL(a, b) ((a) * (b))
#define TEXEL_ADJUST_DADD(a, b) ((a) + (b))
#endif
/* What the host does with a 3D LUT weight where the GPU would filter in
 * hardware: nothing, unless a test emulates the hardware's rounding. */
#ifndef TEXEL_ADJUST_HOST_LUT3D_WEIGHT
#define TEXEL_ADJUST_HOST_LUT3D_WEIGHT(f) (f)
#endif

/* Where a kernel finds the 3D LUT: two texture objects on the GPU
 * (cudaTextureObject_t: hardware linear filtering, and none); the
 * TexelCube's table on the host (tests). */
typedef struct
{
  unsigned long long linear, point;
  const float *table;
} TexelAdjustLut3dSource;

/* Encode of linear L3 in [0, 1]. */
TEXEL_HD float
texel_adjust_encode_f (const TexelAdjustCurveF *cv, float l3)
{
  if (l3 >= cv->enc_knee && l3 > 0.0f)
    return fmaf (cv->enc_mul,
                 TEXEL_ADJUST_EXP2F (cv->enc_pow * TEXEL_ADJUST_LOG2F (l3)),
                 -cv->enc_sub);
  return cv->enc_lin * l3;
}

/* Encode of L3 given as log2 L3. */
TEXEL_HD float
texel_adjust_encode_log_f (const TexelAdjustCurveF *cv, float lg3)
{
  if (lg3 >= cv->log2_enc_knee)
    return fmaf (cv->enc_mul, TEXEL_ADJUST_EXP2F (cv->enc_pow * lg3),
                 -cv->enc_sub);
  return cv->enc_lin * TEXEL_ADJUST_EXP2F (lg3);
}

/* The tone maps reinhard and filmic of linear @x >= 0 (no clipping
 * needed below: both stay under 1 up to where filmic is clamped). */
TEXEL_HD float
texel_adjust_tone_f (TexelToneMap tone_map, float x)
{
  if (tone_map == TEXEL_TONE_MAP_REINHARD)
    return TEXEL_ADJUST_DIVF (x, 1.0f + x);
  return fminf (TEXEL_ADJUST_DIVF (x * fmaf (2.51f, x, 0.03f),
                                   fmaf (x, fmaf (2.43f, x, 0.59f), 0.14f)),
                1.0f);
}

/* The curve of channel @c: R' in, R' out, for a pixel whose vignette
 * gain is @gain, 2^@log2_gain (1 and 0 without one). */
TEXEL_HD float
texel_adjust_curve_f (const TexelAdjustCurveF *cv, int c, float v, float gain,
                      float log2_gain)
{
  float lg, l2;

  v = fminf (fmaxf (v, 0.0f), 1.0f);
  if (v >= cv->dec_knee)
    {
      /* log2 L2 = log2 k + dec_pow * log2 ((V + a) / (1 + a)) */
      lg = fmaf (cv->dec_pow,
                 TEXEL_ADJUST_LOG2F (fmaf (v, cv->dec_scale, cv->dec_offset)),
                 cv->log2k[c] + log2_gain);
      if (cv->tone_map == TEXEL_TONE_MAP_NONE)
        {
          /* Decode, gains, gamma and encode composed in the log2 domain. */
          if (lg >= 0.0f)
            return 1.0f; /* clipped: encode (1) = 1 */
          if (lg < cv->log2_toe)
            return texel_adjust_encode_f (cv, TEXEL_ADJUST_EXP2F (lg)
                                                  * cv->toe_slope);
          return texel_adjust_encode_log_f (cv, lg * cv->inv_gamma);
        }
      l2 = TEXEL_ADJUST_EXP2F (lg);
    }
  else
    {
      l2 = v * cv->lin_k[c] * gain;
    }
  if (cv->tone_map != TEXEL_TONE_MAP_NONE)
    l2 = texel_adjust_tone_f (cv->tone_map, l2);
  if (l2 >= 1.0f)
    return 1.0f;
  if (l2 < cv->toe)
    return texel_adjust_encode_f (cv, l2 * cv->toe_slope);
  return texel_adjust_encode_log_f (cv,
                                    TEXEL_ADJUST_LOG2F (l2) * cv->inv_gamma);
}

/* The vignette gain of luma pixel (@x, @y): 1 + strength * r^2, never
 * negative (float rounding at the corners with strength -1). */
TEXEL_HD float
texel_adjust_vignette_f (const TexelAdjustKernelPlan *p, int x, int y)
{
  float dx = (float)x - p->vig_cx, dy = (float)y - p->vig_cy;

  return fmaxf (fmaf (p->vig_k, fmaf (dx, dx, dy * dy), 1.0f), 0.0f);
}

/* Plane @p's address and stride, chosen without indexing: a kernel's
 * image parameters then stay in registers, not in local memory. */
TEXEL_HD uint8_t *
texel_adjust_sample (const TexelImage *img, const TexelComponent *comp, int x,
                     int y)
{
  int p = comp->plane;
  uint8_t *base = p == 0 ? img->data[0] : p == 1 ? img->data[1] : img->data[2];
  int stride = p == 0   ? img->stride[0]
               : p == 1 ? img->stride[1]
                        : img->stride[2];

  return base + (size_t)y * stride + comp->offset
         + (size_t)x * comp->pixel_stride;
}

TEXEL_HD unsigned
texel_adjust_read_f (const TexelAdjustKernelPlan *p, const TexelImage *img,
                     int c, int x, int y)
{
  const uint8_t *a = texel_adjust_sample (img, &p->fmt.comp[c], x, y);

  if (p->fmt.bytes_per_sample == 2)
    return texel_word_code ((unsigned)(a[0] | (a[1] << 8)), &p->fmt);
  return a[0];
}

TEXEL_HD void
texel_adjust_write_f (const TexelAdjustKernelPlan *p, const TexelImage *img,
                      int c, int x, int y, unsigned code)
{
  uint8_t *a = texel_adjust_sample (img, &p->fmt.comp[c], x, y);

  if (p->fmt.bytes_per_sample == 2)
    {
      code <<= p->fmt.shift;
      a[0] = (uint8_t)(code & 0xff);
      a[1] = (uint8_t)(code >> 8);
    }
  else
    {
      a[0] = (uint8_t)code;
    }
}

/* Clamps to [0, 1] and rounds to the nearest code, halves up (as the CPU
 * reference's round () of a non-negative value). */
TEXEL_HD unsigned
texel_adjust_quantize_f (const TexelAdjustKernelPlan *p, float v)
{
  v = fminf (fmaxf (v, 0.0f), 1.0f);
  return (unsigned)floorf (v * p->max_code + 0.5f);
}

/* ------------------------------------------------------------------ */
/* Stage 2, the GStreamer stage (formulas at the top of this file): the
 * same integer and double operations as the CPU reference, so that GPU
 * and CPU give the same codes (10-bit gamma excepted: float, below). */

/* rint (clamp (v, 0, max)). */
TEXEL_HD unsigned
texel_adjust_gst_round (const TexelAdjustGst *g, double v)
{
  return (unsigned)rint (fmin (fmax (v, 0.0), g->max));
}

/* The gamma element on Y' code @y. 10 bits: in float (__log2f, exp2f;
 * 1e-6 relative, a thousandth of a code: it differs from the reference
 * only where 1023 (y / 1023)^(1/gamma) lies that close to a half). */
TEXEL_HD unsigned
texel_adjust_gst_gamma_f (const TexelAdjustGst *g, const uint8_t *table,
                          unsigned y)
{
  float m = (float)g->max;

  if (!g->gamma)
    return y;
  if (g->scale == 1)
    return table[y];
  if (y == 0)
    return 0;
  return (unsigned)floorf (
      m
          * TEXEL_ADJUST_EXP2F (TEXEL_ADJUST_LOG2F ((float)y / m)
                                * (float)g->inv_gamma)
      + 0.5f);
}

/* videobalance on Y' code @y. */
TEXEL_HD unsigned
texel_adjust_gst_luma_f (const TexelAdjustGst *g, const uint8_t *table,
                         unsigned y)
{
  double black = 16.0 * g->scale;

  if (!g->balance)
    return y;
  if (g->scale == 1)
    return table[256 + y];
  return texel_adjust_gst_round (
      g, TEXEL_ADJUST_DADD (
             black, TEXEL_ADJUST_DADD (
                        TEXEL_ADJUST_DMUL ((double)y - black, g->contrast),
                        g->bright)));
}

/* videobalance on chroma codes @cb, @cr, in place. */
TEXEL_HD void
texel_adjust_gst_chroma_f (const TexelAdjustGst *g, unsigned *cb, unsigned *cr)
{
  double mid = 128.0 * g->scale, u = (double)*cb - mid, v = (double)*cr - mid;

  if (!g->balance)
    return;
  *cb = texel_adjust_gst_round (
      g, TEXEL_ADJUST_DADD (
             mid, TEXEL_ADJUST_DMUL (
                      TEXEL_ADJUST_DADD (TEXEL_ADJUST_DMUL (u, g->hue_cos),
                                         TEXEL_ADJUST_DMUL (v, g->hue_sin)),
                      g->saturation)));
  *cr = texel_adjust_gst_round (
      g, TEXEL_ADJUST_DADD (
             mid, TEXEL_ADJUST_DMUL (
                      TEXEL_ADJUST_DADD (TEXEL_ADJUST_DMUL (-u, g->hue_sin),
                                         TEXEL_ADJUST_DMUL (v, g->hue_cos)),
                      g->saturation)));
}

TEXEL_HD int
texel_adjust_clamp255 (int v)
{
  return v < 0 ? 0 : (v > 255 ? 255 : v);
}

/* One element's round trip of 8-bit R'G'B' @c through the elements'
 * fixed-point BT.601 matrices (arithmetic >> 8: a floor). */
TEXEL_HD void
texel_adjust_gst_rgb_pass (const TexelAdjustGst *g, const uint8_t *table,
                           int balance, unsigned c[3])
{
  int r = (int)c[0], gr = (int)c[1], b = (int)c[2];
  int y = (66 * r + 129 * gr + 25 * b + 4096) >> 8;
  int u = (-38 * r - 74 * gr + 112 * b + 32768) >> 8;
  int v = (112 * r - 94 * gr - 18 * b + 32768) >> 8;

  /* In range anyway (Y 16..235, U and V 16..240): both elements clamp
   * the luma index, videobalance the chroma too. */
  y = texel_adjust_clamp255 (y);
  if (balance)
    {
      unsigned cb = (unsigned)texel_adjust_clamp255 (u);
      unsigned cr = (unsigned)texel_adjust_clamp255 (v);

      y = (int)texel_adjust_gst_luma_f (g, table, (unsigned)y);
      texel_adjust_gst_chroma_f (g, &cb, &cr);
      u = (int)cb;
      v = (int)cr;
    }
  else
    {
      y = (int)texel_adjust_gst_gamma_f (g, table, (unsigned)y);
    }
  c[0] = (unsigned)texel_adjust_clamp255 ((298 * y + 409 * v - 57068) >> 8);
  c[1] = (unsigned)texel_adjust_clamp255 ((298 * y - 100 * u - 208 * v + 34707)
                                          >> 8);
  c[2] = (unsigned)texel_adjust_clamp255 ((298 * y + 516 * u - 70870) >> 8);
}

/* `gamma ! videobalance` on 8-bit R'G'B' @c, in place. */
TEXEL_HD void
texel_adjust_gst_rgb_f (const TexelAdjustGst *g, const uint8_t *table,
                        unsigned c[3])
{
  if (g->gamma)
    texel_adjust_gst_rgb_pass (g, table, 0, c);
  if (g->balance)
    texel_adjust_gst_rgb_pass (g, table, 1, c);
}

/* Entry (@r, @g, @b) of the 3D LUT, without filtering. */
TEXEL_HD void
texel_adjust_lut3d_entry (const TexelAdjustKernelPlan *p,
                          const TexelAdjustLut3dSource *src, int r, int g,
                          int b, float e[3])
{
#ifdef __CUDA_ARCH__
  float4 t = tex3D<float4> (src->point, r + 0.5f, g + 0.5f, b + 0.5f);

  e[0] = t.x;
  e[1] = t.y;
  e[2] = t.z;
#else
  const float *t
      = src->table + (((size_t)b * p->lut3d_size + g) * p->lut3d_size + r) * 3;

  e[0] = t[0];
  e[1] = t[1];
  e[2] = t[2];
#endif
}

/* @v (R'G'B') through the 3D LUT, in place: trilinear, by the texture
 * hardware (lut3d_hw, GPU) or here from the 8 surrounding entries. */
TEXEL_HD void
texel_adjust_lut3d_f (const TexelAdjustKernelPlan *p,
                      const TexelAdjustLut3dSource *src, float v[3])
{
  float t[3], f[3], e[8][3], top = (float)(p->lut3d_size - 1);
  int i[3], c, corner;

  TEXEL_ADJUST_UNROLL
  for (c = 0; c < 3; c++)
    t[c] = fminf (
        fmaxf (fmaf (v[c], p->lut3d_scale[c], p->lut3d_offset[c]), 0.0f), top);
#ifdef __CUDA_ARCH__
  if (p->lut3d_hw)
    {
      /* Texel centres at i + 0.5. */
      float4 o
          = tex3D<float4> (src->linear, t[0] + 0.5f, t[1] + 0.5f, t[2] + 0.5f);

      v[0] = o.x;
      v[1] = o.y;
      v[2] = o.z;
      return;
    }
#endif
  TEXEL_ADJUST_UNROLL
  for (c = 0; c < 3; c++)
    {
      /* t = N - 1 interpolates the last cell at weight 1. */
      i[c] = (int)fminf (floorf (t[c]), top - 1.0f);
      f[c] = t[c] - (float)i[c];
#ifndef __CUDA_ARCH__
      if (p->lut3d_hw)
        f[c] = TEXEL_ADJUST_HOST_LUT3D_WEIGHT (f[c]);
#endif
    }
  TEXEL_ADJUST_UNROLL
  for (corner = 0; corner < 8; corner++)
    texel_adjust_lut3d_entry (p, src, i[0] + (corner & 1),
                              i[1] + ((corner >> 1) & 1), i[2] + (corner >> 2),
                              e[corner]);
  TEXEL_ADJUST_UNROLL
  for (c = 0; c < 3; c++)
    {
      /* Along red, then green, then blue. */
      float e00 = fmaf (f[0], e[1][c] - e[0][c], e[0][c]);
      float e10 = fmaf (f[0], e[3][c] - e[2][c], e[2][c]);
      float e01 = fmaf (f[0], e[5][c] - e[4][c], e[4][c]);
      float e11 = fmaf (f[0], e[7][c] - e[6][c], e[6][c]);
      float e0 = fmaf (f[1], e10 - e00, e00);
      float e1 = fmaf (f[1], e11 - e01, e01);

      v[c] = fmaf (f[2], e1 - e0, e0);
    }
}

/* Stores RGB pixel (@x, @y) from its R'G'B' after the curves, @v (GRAY8:
 * v[0] only, everything done by its LUT): the GStreamer stage on the
 * codes, the 3D LUT, the codes, alpha carried over, RGBx's padding byte
 * 0xff (as the converter writes it). */
TEXEL_HD void
texel_adjust_store_rgb_f (const TexelAdjustKernelPlan *p, const uint8_t *table,
                          const TexelAdjustLut3dSource *lut3d,
                          const TexelImage *in, const TexelImage *out, int x,
                          int y, const float v[3])
{
  int n = p->fmt.is_gray ? 1 : 3, k;
  float o[3];

  TEXEL_ADJUST_UNROLL
  for (k = 0; k < 3; k++)
    o[k] = v[k];
  if (!p->fmt.is_yuv && (p->gst.gamma || p->gst.balance))
    {
      unsigned c[3];

      TEXEL_ADJUST_UNROLL
      for (k = 0; k < 3; k++)
        c[k] = texel_adjust_quantize_f (p, v[k]);
      texel_adjust_gst_rgb_f (&p->gst, table, c);
      TEXEL_ADJUST_UNROLL
      for (k = 0; k < 3; k++)
        o[k] = (float)c[k] * (1.0f / 255.0f);
    }
  if (p->lut3d)
    texel_adjust_lut3d_f (p, lut3d, o);
  TEXEL_ADJUST_UNROLL
  for (k = 0; k < 3; k++)
    if (k < n)
      texel_adjust_write_f (p, out, k, x, y, texel_adjust_quantize_f (p, o[k]));
  if (p->fmt.comp[3].plane >= 0)
    texel_adjust_write_f (p, out, 3, x, y,
                          texel_adjust_read_f (p, in, 3, x, y));
  if (p->pad_offset >= 0)
    out->data[0][(size_t)y * out->stride[0] + p->pad_offset
                 + (size_t)x * p->fmt.comp[0].pixel_stride]
        = 0xff;
}

/* Adjusts the luma pixels of chroma block (@bx, @by) (one pixel for RGB,
 * GRAY8 and formats without subsampling) and its chroma sample. @kind:
 * the plan's (a constant in each kernel, so that it keeps only its own
 * code and registers); @lut: the plan's LUTs, 3 x TEXEL_ADJUST_LUT_SIZE,
 * and @table: its gst.table, 2 x 256 (both in shared memory on the GPU);
 * @lut3d: the 3D LUT, when the plan has one. */
TEXEL_HD void
texel_adjust_block_f (const TexelAdjustKernelPlan *p, TexelAdjustKind kind,
                      const float *lut, const uint8_t *table,
                      const TexelAdjustLut3dSource *lut3d, const TexelImage *in,
                      const TexelImage *out, int bx, int by)
{
  int x0 = bx << p->x_shift, y0 = by << p->y_shift;
  int x1 = x0 + (1 << p->x_shift), y1 = y0 + (1 << p->y_shift);
  int x, y, c, k;

  if (x1 > p->width)
    x1 = p->width;
  if (y1 > p->height)
    y1 = p->height;

  if (kind == TEXEL_ADJUST_KIND_LUT)
    {
      float v[3] = { 0.0f, 0.0f, 0.0f };

      TEXEL_ADJUST_UNROLL
      for (c = 0; c < 3; c++)
        if (c == 0 || !p->fmt.is_gray)
          v[c] = lut[c * TEXEL_ADJUST_LUT_SIZE
                     + texel_adjust_read_f (p, in, c, x0, y0)];
      texel_adjust_store_rgb_f (p, table, lut3d, in, out, x0, y0, v);
      return;
    }

  if (kind == TEXEL_ADJUST_KIND_RGB_PIXEL)
    {
      float v[3], g = texel_adjust_vignette_f (p, x0, y0);
      float lg = TEXEL_ADJUST_LOG2F (g), inv_max = 1.0f / 255.0f;

      TEXEL_ADJUST_UNROLL
      for (c = 0; c < 3; c++)
        v[c] = texel_adjust_curve_f (
            &p->curve_f, c,
            (float)texel_adjust_read_f (p, in, c, x0, y0) * inv_max, g, lg);
      texel_adjust_store_rgb_f (p, table, lut3d, in, out, x0, y0, v);
      return;
    }

  /* Y'CbCr with alpha (AYUV, VUYA: no subsampling, a block is one
   * pixel): alpha carried over. */
  if (p->fmt.is_yuv && p->fmt.comp[3].plane >= 0)
    texel_adjust_write_f (p, out, 3, x0, y0,
                          texel_adjust_read_f (p, in, 3, x0, y0));

  if (kind == TEXEL_ADJUST_KIND_YUV_SEPARABLE)
    {
      /* Stage 2 alone: integer codes in, integer codes out. */
      for (y = y0; y < y1; y++)
        for (x = x0; x < x1; x++)
          texel_adjust_write_f (
              p, out, 0, x, y,
              texel_adjust_gst_luma_f (
                  &p->gst, table,
                  texel_adjust_gst_gamma_f (
                      &p->gst, table, texel_adjust_read_f (p, in, 0, x, y))));
      if (p->has_chroma)
        {
          unsigned cb = texel_adjust_read_f (p, in, 1, bx, by);
          unsigned cr = texel_adjust_read_f (p, in, 2, bx, by);

          texel_adjust_gst_chroma_f (&p->gst, &cb, &cr);
          texel_adjust_write_f (p, out, 1, bx, by, cb);
          texel_adjust_write_f (p, out, 2, bx, by, cr);
        }
      return;
    }

  /* YUV_RGB */
  {
    float qb = 0.0f, qr = 0.0f, sum_b = 0.0f, sum_r = 0.0f;
    int n = 0, gst = p->gst.gamma || p->gst.balance;

    if (p->has_chroma)
      {
        qb = (float)texel_adjust_read_f (p, in, 1, bx, by) - p->off[1];
        qr = (float)texel_adjust_read_f (p, in, 2, bx, by) - p->off[2];
      }
    for (y = y0; y < y1; y++)
      {
        for (x = x0; x < x1; x++)
          {
            float qy = (float)texel_adjust_read_f (p, in, 0, x, y) - p->off[0];
            float rgb[3], o[3], g = 1.0f, lg = 0.0f;

            if (p->positional)
              {
                g = texel_adjust_vignette_f (p, x, y);
                lg = TEXEL_ADJUST_LOG2F (g);
              }
            TEXEL_ADJUST_UNROLL
            for (c = 0; c < 3; c++)
              {
                rgb[c] = fmaf (p->dec[c][0], qy,
                               fmaf (p->dec[c][1], qb, p->dec[c][2] * qr));
                if (p->linear)
                  rgb[c] = texel_adjust_curve_f (&p->curve_f, c, rgb[c], g, lg);
              }
            TEXEL_ADJUST_UNROLL
            for (k = 0; k < 3; k++)
              o[k] = fmaf (p->enc[k][0], rgb[0],
                           fmaf (p->enc[k][1], rgb[1],
                                 fmaf (p->enc[k][2], rgb[2], p->enc[k][3])));
            if (gst)
              {
                /* Stage 2 on this pixel's codes. */
                unsigned yc = texel_adjust_gst_luma_f (
                    &p->gst, table,
                    texel_adjust_gst_gamma_f (
                        &p->gst, table, texel_adjust_quantize_f (p, o[0])));
                unsigned cb = texel_adjust_quantize_f (p, o[1]);
                unsigned cr = texel_adjust_quantize_f (p, o[2]);

                if (!p->lut3d)
                  {
                    /* Chroma: after the mean, below. */
                    texel_adjust_write_f (p, out, 0, x, y, yc);
                    sum_b += o[1];
                    sum_r += o[2];
                    n++;
                    continue;
                  }
                texel_adjust_gst_chroma_f (&p->gst, &cb, &cr);
                TEXEL_ADJUST_UNROLL
                for (c = 0; c < 3; c++)
                  rgb[c] = fmaf (p->dec[c][0], (float)yc - p->off[0],
                                 fmaf (p->dec[c][1], (float)cb - p->off[1],
                                       p->dec[c][2] * ((float)cr - p->off[2])));
              }
            if (p->lut3d)
              {
                texel_adjust_lut3d_f (p, lut3d, rgb);
                TEXEL_ADJUST_UNROLL
                for (k = 0; k < 3; k++)
                  o[k]
                      = fmaf (p->enc[k][0], rgb[0],
                              fmaf (p->enc[k][1], rgb[1],
                                    fmaf (p->enc[k][2], rgb[2], p->enc[k][3])));
              }
            texel_adjust_write_f (p, out, 0, x, y,
                                  texel_adjust_quantize_f (p, o[0]));
            sum_b += o[1];
            sum_r += o[2];
            n++;
          }
      }
    if (p->has_chroma)
      {
        /* n is 1, 2 or 4: the reciprocal is exact. */
        float inv_n = 1.0f / (float)n;
        unsigned cb = texel_adjust_quantize_f (p, sum_b * inv_n);
        unsigned cr = texel_adjust_quantize_f (p, sum_r * inv_n);

        if (gst && !p->lut3d)
          texel_adjust_gst_chroma_f (&p->gst, &cb, &cr);
        texel_adjust_write_f (p, out, 1, bx, by, cb);
        texel_adjust_write_f (p, out, 2, bx, by, cr);
      }
  }
}

#endif /* TEXEL_ADJUST_H */
