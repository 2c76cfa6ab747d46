/* gst-texel: colour conversion, scaling, cropping, letterboxing and
 * flipping in one pass, behind one C API with a CPU reference and CUDA
 * kernels.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CONVERT_H
#define TEXEL_CONVERT_H

#include "texel-kernel.h"
#include "texel-image.h"
#include "texel-sample-map.h"
#include "texel-bayer.h"

TEXEL_BEGIN_DECLS

/* Same values as GstVideoOrientationMethod 0..7. */
typedef enum
{
  TEXEL_DIRECTION_IDENTITY = 0,
  TEXEL_DIRECTION_90R,
  TEXEL_DIRECTION_180,
  TEXEL_DIRECTION_90L,
  TEXEL_DIRECTION_HORIZ,
  TEXEL_DIRECTION_VERT,
  TEXEL_DIRECTION_UL_LR,
  TEXEL_DIRECTION_UR_LL
} TexelDirection;

typedef enum
{
  TEXEL_MATRIX_RGB = 0, /* identity: for RGB formats */
  TEXEL_MATRIX_BT601,
  TEXEL_MATRIX_BT709,
  TEXEL_MATRIX_BT2020,
  TEXEL_MATRIX_SMPTE240M,
  TEXEL_MATRIX_FCC
} TexelMatrix;

typedef struct
{
  TexelMatrix matrix;   /* ignored for RGB formats */
  int full_range;       /* 0: limited (16-235/240 at 8 bits) */
  int chroma_h_cosited; /* chroma sample at the left luma sample */
  int chroma_v_cosited; /* chroma sample at the top luma sample */
} TexelColorimetry;

/* What the user asked for, in pixels. */
typedef struct
{
  /* Source rectangle (after cropping), in input pixels. */
  int src_x, src_y, src_w, src_h;
  /* Destination rectangle inside the output, in output pixels; output
   * pixels outside it get the border colour (letterboxing). */
  int dst_x, dst_y, dst_w, dst_h;
  TexelMethod method;
  TexelDirection direction;
  TexelColorimetry in_color;
  TexelColorimetry out_color;
  /* Border colour as non-linear R'G'B'A in [0, 1]. */
  double border_rgba[4];
  /* A raw Bayer input (stored as GRAY8 or GRAY16_LE), developed to RGB
   * before everything else (texel-bayer.h); NULL for other inputs.
   * in_color is then ignored. */
  const TexelBayerConfig *bayer;
} TexelConvertConfig;

/* The fast CPU path's per-plan tables (texel-convert-fast.h). */
typedef struct _TexelConvertFast TexelConvertFast;

/* Everything a kernel needs, derived once from a config when caps or
 * properties change, never per frame. Plain data: passed by value to CUDA
 * kernels. */
typedef struct
{
  TexelFormatDesc in;
  TexelFormatDesc out;
  int in_width, in_height;
  int out_width, out_height;
  TexelMethod method;
  /* Output luma coordinates (X, Y) -> input luma coordinates (sx, sy):
   * sx = map[0][0] * X + map[0][1] * Y + map[0][2], likewise sy with
   * map[1]. Pixel centres lie at +0.5. */
  double map[2][3];
  float map_f[2][3];
  /* Destination rectangle: output samples whose centre lies outside
   * [dst_x0, dst_x1) x [dst_y0, dst_y1) get the border. */
  float dst_x0, dst_y0, dst_x1, dst_y1;
  /* Colour matrix from input to output codes, both normalised to [0, 1]
   * by the format's largest code (255, or 1023 for P010):
   * out[k] = sum_c m[k][c] * in[c] + m[k][3], k and c over components
   * 0..2. Alpha is carried through unchanged. */
  double m[3][4];
  float m_f[3][4];
  /* Normalised value read for components the input lacks (chroma of
   * GRAY8, alpha of RGBx): neutral chroma, opaque alpha. */
  float in_missing[TEXEL_MAX_COMPONENTS];
  /* Border value for each output component, normalised. */
  float border[TEXEL_MAX_COMPONENTS];
  /* Luma coordinate of the centre of chroma sample 0, per axis, for the
   * input and the output (0.5 for cosited, 1.0 for centred 2x chroma). */
  float in_chroma_off[2];
  float out_chroma_off[2];
  /* Each subsampled output sample is the average of the full-resolution
   * picture over its footprint, centred on its site (texel_chroma_taps),
   * for the input components stored more finely than it: the taps' input
   * positions follow from the map's linear part. Set for texelconvert;
   * texelwarp, whose map is not affine, clears it and samples at the
   * site. */
  int chroma_filter;
  /* Output x runs along input y (90-degree rotations, transpositions). */
  int axes_swapped;
  /* True when output rows need only the matching input rows (no
   * rotation, transposition or vertical flip): lets the staged path split
   * a frame into bands. */
  int rows_monotonic;
  /* Raw Bayer input: how to develop it (pattern NONE otherwise). */
  TexelBayerPlan bayer;
  /* Host tables of the fast CPU path, or NULL (the reference then runs):
   * set by the plan's owner after texel_convert_plan_init, which leaves
   * it NULL; the kernels never read it. */
  const TexelConvertFast *fast;
} TexelConvertPlan;

/* Fills @plan. Returns 0, or -1 with a static message in @error when the
 * configuration cannot be met (empty rectangles, unknown formats). */
int texel_convert_plan_init (TexelConvertPlan *plan,
                             const TexelConvertConfig *config,
                             TexelFormat in_format, int in_width, int in_height,
                             TexelFormat out_format, int out_width,
                             int out_height, const char **error);

/* Builds the 3x4 matrix of @plan from the two colorimetries (exposed for
 * tests): decode input codes to non-linear R'G'B' in [0, 1], then encode
 * to output codes. */
void texel_color_matrix (const TexelFormatDesc *in,
                         const TexelColorimetry *in_color,
                         const TexelFormatDesc *out,
                         const TexelColorimetry *out_color, double m[3][4]);

/* Kr and Kb of a matrix (BT.601: 0.299, 0.114). */
void texel_matrix_coefficients (TexelMatrix matrix, double *kr, double *kb);

/* CPU reference: double precision, written for clarity. Converts the
 * output rows [row0, row1) (luma rows; even for subsampled output). */
void texel_convert_cpu (const TexelConvertPlan *plan, const TexelImage *in,
                        TexelImage *out, int row0, int row1);

/* The CUDA side (built only with CUDA; returns 0 or a cudaError_t; the
 * context is texel-cuda.h's). Enqueues the conversion of output rows
 * [row0, row1) (luma rows; even where the output has 4:2:0 chroma) on
 * @stream. @in and @out hold
 * device-accessible addresses: device memory, or mapped / registered host
 * memory. An input plane whose pitch breaks the texture alignment is read
 * without textures (plain loads, filtered in float); one whose address
 * alone does is first copied (device to device, on @stream, pitch kept)
 * into an aligned buffer of @ctx's and read through a texture, so that its
 * output is the aligned input's byte for byte. Within one unit of the
 * fence (texel_cuda_context_set_fence), an input plane's address must
 * hold one picture: the calls of one frame's bands copy it once.
 * Asynchronous: returns once
 * queued; launch errors are reported here, execution errors by the next
 * synchronisation. */
int texel_cuda_convert (TexelCudaContext *ctx, const TexelConvertPlan *plan,
                        const TexelImage *in, const TexelImage *out, int row0,
                        int row1, TexelStream stream);

TEXEL_END_DECLS
#endif /* TEXEL_CONVERT_H */
