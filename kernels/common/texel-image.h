/* gst-texel: image description shared by the CPU reference and the CUDA
 * kernels.
 *
 * Every supported pixel format is described by data (TexelFormatDesc), not
 * by code: each colour component says which plane it lives in, at which byte
 * offset inside a pixel group, how far apart consecutive samples are, and how
 * it is subsampled. One generic reader and one generic writer then serve all
 * formats, on the CPU and on the GPU alike.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_IMAGE_H
#define TEXEL_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "texel-kernel.h"

TEXEL_BEGIN_DECLS

/* Pixel formats. Order matters only for tables indexed by it. */
typedef enum
{
  TEXEL_FORMAT_UNKNOWN = 0,
  TEXEL_FORMAT_NV12,
  TEXEL_FORMAT_NV21,
  TEXEL_FORMAT_I420,
  TEXEL_FORMAT_YV12,
  TEXEL_FORMAT_YUY2,
  TEXEL_FORMAT_UYVY,
  TEXEL_FORMAT_RGBA,
  TEXEL_FORMAT_BGRA,
  TEXEL_FORMAT_RGBX,
  TEXEL_FORMAT_BGRX,
  TEXEL_FORMAT_ARGB,
  TEXEL_FORMAT_ABGR,
  TEXEL_FORMAT_RGB,
  TEXEL_FORMAT_BGR,
  TEXEL_FORMAT_GRAY8,
  TEXEL_FORMAT_P010_10LE,
  /* Also how raw Bayer mosaics of 16-bit little-endian words are stored
   * (texel-bayer.h); 8-bit mosaics are stored as GRAY8. */
  TEXEL_FORMAT_GRAY16_LE,
  TEXEL_FORMAT_I420_10LE,
  TEXEL_FORMAT_I422_10LE,
  TEXEL_FORMAT_Y444_10LE,
  TEXEL_FORMAT_Y42B,
  TEXEL_FORMAT_Y444,
  TEXEL_FORMAT_NV16,
  TEXEL_FORMAT_YVYU,
  TEXEL_FORMAT_AYUV,
  TEXEL_FORMAT_VUYA,
  TEXEL_FORMAT_XRGB,
  TEXEL_FORMAT_COUNT
} TexelFormat;

#define TEXEL_MAX_PLANES 3
#define TEXEL_MAX_COMPONENTS 4

/* Component order inside TexelFormatDesc.comp[]: for YUV formats Y, U, V, A;
 * for RGB formats R, G, B, A; GRAY8 has only component 0. */
typedef struct
{
  int8_t plane;         /* -1: the format has no such component */
  uint8_t offset;       /* byte offset of the first sample in its plane row */
  uint8_t pixel_stride; /* bytes between consecutive samples in a row */
  uint8_t x_shift;      /* horizontal subsampling: log2 of the factor */
  uint8_t y_shift;      /* vertical subsampling: log2 of the factor */
} TexelComponent;

typedef struct
{
  TexelFormat format;
  const char *name; /* GStreamer's name, e.g. "NV12" */
  uint8_t is_yuv;   /* 0: RGB or GRAY-as-RGB semantics below */
  uint8_t is_gray;  /* luma only; reads give neutral chroma */
  uint8_t n_planes;
  uint8_t bytes_per_sample; /* 1 for 8-bit, 2 for 10 to 16-bit */
  uint8_t bits;             /* significant bits: 8, 10 or 16 */
  uint8_t shift;            /* bits are stored << shift (P010: 6) */
  TexelComponent comp[TEXEL_MAX_COMPONENTS];
} TexelFormatDesc;

/* The code a stored word of @desc holds: its bits above its shift
 * (P010's 10 in the high bits, I420_10LE's in the low ones). The other
 * bits are not the picture's and are dropped, so that no frame, however
 * hostile, gives a code past the largest: codes index tables. */
TEXEL_HD unsigned
texel_word_code (unsigned word, const TexelFormatDesc *desc)
{
  return (word >> desc->shift) & ((1u << desc->bits) - 1u);
}

/* A frame in memory: host memory for the CPU path, device-accessible
 * memory (device, mapped or registered host memory) for the CUDA path. */
typedef struct
{
  TexelFormat format;
  int width;
  int height;
  uint8_t *data[TEXEL_MAX_PLANES];
  int stride[TEXEL_MAX_PLANES]; /* bytes per row of each plane */
} TexelImage;

const TexelFormatDesc *texel_format_desc (TexelFormat format);
TexelFormat texel_format_from_name (const char *name);

/* Byte offset of the unused byte in each pixel of RGBx-like formats, or
 * -1 when every byte carries a component. */
int texel_format_padding_offset (const TexelFormatDesc *desc);

/* Width and height of @plane for an image of @width x @height (rounded up
 * for subsampled planes, as GStreamer does). */
int texel_plane_width (TexelFormat format, int plane, int width);
int texel_plane_height (TexelFormat format, int plane, int height);
/* Bytes in one row of @plane that carry pixels (no padding). */
int texel_plane_row_bytes (TexelFormat format, int plane, int width);

/* Fills @img with planes laid out one after the other in @data, each row
 * padded to a multiple of @stride_align bytes (a power of two) and each
 * plane starting at a multiple of @plane_align. Returns the total size in
 * bytes; with @data NULL it only computes the size. */
size_t texel_image_layout (TexelImage *img, TexelFormat format, int width,
                           int height, int stride_align, int plane_align,
                           uint8_t *data);

TEXEL_END_DECLS
#endif /* TEXEL_IMAGE_H */
