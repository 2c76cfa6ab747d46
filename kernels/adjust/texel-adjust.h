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

#endif /* TEXEL_ADJUST_H */
