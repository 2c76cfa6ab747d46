/* gst-texel: the table of supported pixel formats and plane geometry.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-image.h"

#include <string.h>

/* One component: plane, byte offset, pixel stride, x shift, y shift. */
#define COMP(plane, offset, stride, xs, ys)                                    \
  {                                                                            \
    plane, offset, stride, xs, ys                                              \
  }
#define NONE                                                                   \
  {                                                                            \
    -1, 0, 0, 0, 0                                                             \
  }

/* An 8-bit format: bytes_per_sample 1, 8 bits, no shift. */
#define FMT8(fmt, name, is_yuv, is_gray, n_planes, c0, c1, c2, c3)             \
  [TEXEL_FORMAT_##fmt]                                                         \
      = { TEXEL_FORMAT_##fmt, name, is_yuv, is_gray, n_planes, 1, 8, 0,        \
          { c0, c1, c2, c3 } }

/* A 10 to 16-bit format without alpha: two bytes a sample, @bits stored
 * in the low bits. */
#define FMT16(fmt, name, bits, is_gray, n_planes, c0, c1, c2)                  \
  [TEXEL_FORMAT_##fmt]                                                         \
      = { TEXEL_FORMAT_##fmt,  name, 1, is_gray, n_planes, 2, bits, 0,         \
          { c0, c1, c2, NONE } }

/* Components are Y, U, V, A for YUV formats and R, G, B, A for RGB ones. */
static const TexelFormatDesc format_table[TEXEL_FORMAT_COUNT] = {
  [TEXEL_FORMAT_UNKNOWN] = { TEXEL_FORMAT_UNKNOWN,
                             "UNKNOWN",
                             0,
                             0,
                             0,
                             0,
                             0,
                             0,
                             { NONE, NONE, NONE, NONE } },
  FMT8 (NV12, "NV12", 1, 0, 2, COMP (0, 0, 1, 0, 0), COMP (1, 0, 2, 1, 1),
        COMP (1, 1, 2, 1, 1), NONE),
  FMT8 (NV21, "NV21", 1, 0, 2, COMP (0, 0, 1, 0, 0), COMP (1, 1, 2, 1, 1),
        COMP (1, 0, 2, 1, 1), NONE),
  FMT8 (I420, "I420", 1, 0, 3, COMP (0, 0, 1, 0, 0), COMP (1, 0, 1, 1, 1),
        COMP (2, 0, 1, 1, 1), NONE),
  FMT8 (YV12, "YV12", 1, 0, 3, COMP (0, 0, 1, 0, 0), COMP (2, 0, 1, 1, 1),
        COMP (1, 0, 1, 1, 1), NONE),
  FMT8 (YUY2, "YUY2", 1, 0, 1, COMP (0, 0, 2, 0, 0), COMP (0, 1, 4, 1, 0),
        COMP (0, 3, 4, 1, 0), NONE),
  FMT8 (UYVY, "UYVY", 1, 0, 1, COMP (0, 1, 2, 0, 0), COMP (0, 0, 4, 1, 0),
        COMP (0, 2, 4, 1, 0), NONE),
  FMT8 (RGBA, "RGBA", 0, 0, 1, COMP (0, 0, 4, 0, 0), COMP (0, 1, 4, 0, 0),
        COMP (0, 2, 4, 0, 0), COMP (0, 3, 4, 0, 0)),
  FMT8 (BGRA, "BGRA", 0, 0, 1, COMP (0, 2, 4, 0, 0), COMP (0, 1, 4, 0, 0),
        COMP (0, 0, 4, 0, 0), COMP (0, 3, 4, 0, 0)),
  FMT8 (RGBX, "RGBx", 0, 0, 1, COMP (0, 0, 4, 0, 0), COMP (0, 1, 4, 0, 0),
        COMP (0, 2, 4, 0, 0), NONE),
  FMT8 (BGRX, "BGRx", 0, 0, 1, COMP (0, 2, 4, 0, 0), COMP (0, 1, 4, 0, 0),
        COMP (0, 0, 4, 0, 0), NONE),
  FMT8 (ARGB, "ARGB", 0, 0, 1, COMP (0, 1, 4, 0, 0), COMP (0, 2, 4, 0, 0),
        COMP (0, 3, 4, 0, 0), COMP (0, 0, 4, 0, 0)),
  FMT8 (ABGR, "ABGR", 0, 0, 1, COMP (0, 3, 4, 0, 0), COMP (0, 2, 4, 0, 0),
        COMP (0, 1, 4, 0, 0), COMP (0, 0, 4, 0, 0)),
  FMT8 (RGB, "RGB", 0, 0, 1, COMP (0, 0, 3, 0, 0), COMP (0, 1, 3, 0, 0),
        COMP (0, 2, 3, 0, 0), NONE),
  FMT8 (BGR, "BGR", 0, 0, 1, COMP (0, 2, 3, 0, 0), COMP (0, 1, 3, 0, 0),
        COMP (0, 0, 3, 0, 0), NONE),
  FMT8 (GRAY8, "GRAY8", 1, 1, 1, COMP (0, 0, 1, 0, 0), NONE, NONE, NONE),
  /* 10 bits in the high bits of little-endian 16-bit words. */
  [TEXEL_FORMAT_P010_10LE] = { TEXEL_FORMAT_P010_10LE,
                               "P010_10LE",
                               1,
                               0,
                               2,
                               2,
                               10,
                               6,
                               { COMP (0, 0, 2, 0, 0), COMP (1, 0, 4, 1, 1),
                                 COMP (1, 2, 4, 1, 1), NONE } },
  /* Thermal and depth cameras; also the storage of raw Bayer mosaics of
   * 10 to 16 bits. */
  FMT16 (GRAY16_LE, "GRAY16_LE", 16, 1, 1, COMP (0, 0, 2, 0, 0), NONE, NONE),
  /* What software decoders give for 10-bit and 4:2:2 / 4:4:4 streams:
   * 10 bits in the low bits of little-endian 16-bit words. */
  FMT16 (I420_10LE, "I420_10LE", 10, 0, 3, COMP (0, 0, 2, 0, 0),
         COMP (1, 0, 2, 1, 1), COMP (2, 0, 2, 1, 1)),
  FMT16 (I422_10LE, "I422_10LE", 10, 0, 3, COMP (0, 0, 2, 0, 0),
         COMP (1, 0, 2, 1, 0), COMP (2, 0, 2, 1, 0)),
  FMT16 (Y444_10LE, "Y444_10LE", 10, 0, 3, COMP (0, 0, 2, 0, 0),
         COMP (1, 0, 2, 0, 0), COMP (2, 0, 2, 0, 0)),
  FMT8 (Y42B, "Y42B", 1, 0, 3, COMP (0, 0, 1, 0, 0), COMP (1, 0, 1, 1, 0),
        COMP (2, 0, 1, 1, 0), NONE),
  FMT8 (Y444, "Y444", 1, 0, 3, COMP (0, 0, 1, 0, 0), COMP (1, 0, 1, 0, 0),
        COMP (2, 0, 1, 0, 0), NONE),
  FMT8 (NV16, "NV16", 1, 0, 2, COMP (0, 0, 1, 0, 0), COMP (1, 0, 2, 1, 0),
        COMP (1, 1, 2, 1, 0), NONE),
  FMT8 (YVYU, "YVYU", 1, 0, 1, COMP (0, 0, 2, 0, 0), COMP (0, 3, 4, 1, 0),
        COMP (0, 1, 4, 1, 0), NONE),
  FMT8 (AYUV, "AYUV", 1, 0, 1, COMP (0, 1, 4, 0, 0), COMP (0, 2, 4, 0, 0),
        COMP (0, 3, 4, 0, 0), COMP (0, 0, 4, 0, 0)),
  FMT8 (VUYA, "VUYA", 1, 0, 1, COMP (0, 2, 4, 0, 0), COMP (0, 1, 4, 0, 0),
        COMP (0, 0, 4, 0, 0), COMP (0, 3, 4, 0, 0)),
  FMT8 (XRGB, "xRGB", 0, 0, 1, COMP (0, 1, 4, 0, 0), COMP (0, 2, 4, 0, 0),
        COMP (0, 3, 4, 0, 0), NONE),
};

const TexelFormatDesc *
texel_format_desc (TexelFormat format)
{
  if (format <= TEXEL_FORMAT_UNKNOWN || format >= TEXEL_FORMAT_COUNT)
    return NULL;
  return &format_table[format];
}

TexelFormat
texel_format_from_name (const char *name)
{
  int f;

  if (name == NULL)
    return TEXEL_FORMAT_UNKNOWN;
  for (f = TEXEL_FORMAT_UNKNOWN + 1; f < TEXEL_FORMAT_COUNT; f++)
    {
      if (strcmp (format_table[f].name, name) == 0)
        return (TexelFormat)f;
    }
  return TEXEL_FORMAT_UNKNOWN;
}

/* Number of samples along an axis of @size luma pixels subsampled by
 * 2^@shift, rounded up as GStreamer does (GST_VIDEO_SUB_SCALE). */
static int
subsampled_size (int size, int shift)
{
  return -((-size) >> shift);
}

/* The smallest subsampling among the components stored in @plane, i.e.
 * the one of its densest sample grid; -1 when no component lives there. */
static int
plane_shift (TexelFormat format, int plane, int vertical)
{
  const TexelFormatDesc *desc = texel_format_desc (format);
  int shift = -1;
  int c;

  if (desc == NULL || plane < 0 || plane >= desc->n_planes)
    return -1;
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &desc->comp[c];
      int s = vertical ? comp->y_shift : comp->x_shift;

      if (comp->plane == plane && (shift < 0 || s < shift))
        shift = s;
    }
  return shift;
}

int
texel_plane_width (TexelFormat format, int plane, int width)
{
  int shift = plane_shift (format, plane, 0);

  return shift < 0 ? 0 : subsampled_size (width, shift);
}

int
texel_plane_height (TexelFormat format, int plane, int height)
{
  int shift = plane_shift (format, plane, 1);

  return shift < 0 ? 0 : subsampled_size (height, shift);
}

int
texel_plane_row_bytes (TexelFormat format, int plane, int width)
{
  const TexelFormatDesc *desc = texel_format_desc (format);
  int row_bytes = 0;
  int c;

  if (desc == NULL || plane < 0 || plane >= desc->n_planes)
    return 0;
  /* Each component repeats every pixel_stride bytes, so a row holds
   * samples * pixel_stride bytes. Taking the largest over the components
   * also counts padding bytes (RGBx) and interleaved groups (YUY2: two
   * luma samples share one 4-byte group with one U and one V). */
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &desc->comp[c];
      int bytes;

      if (comp->plane != plane)
        continue;
      bytes = subsampled_size (width, comp->x_shift) * comp->pixel_stride;
      if (bytes > row_bytes)
        row_bytes = bytes;
    }
  return row_bytes;
}

static size_t
round_up (size_t value, int align)
{
  size_t a = align > 1 ? (size_t)align : 1;

  return (value + a - 1) / a * a;
}

size_t
texel_image_layout (TexelImage *img, TexelFormat format, int width, int height,
                    int stride_align, int plane_align, uint8_t *data)
{
  const TexelFormatDesc *desc = texel_format_desc (format);
  size_t size = 0;
  int p;

  if (img != NULL)
    memset (img, 0, sizeof (*img));
  if (desc == NULL || width <= 0 || height <= 0)
    return 0;

  for (p = 0; p < desc->n_planes; p++)
    {
      size_t stride
          = round_up (texel_plane_row_bytes (format, p, width), stride_align);

      size = round_up (size, plane_align);
      if (img != NULL)
        {
          img->stride[p] = (int)stride;
          img->data[p] = data != NULL ? data + size : NULL;
        }
      size += stride * (size_t)texel_plane_height (format, p, height);
    }
  if (img != NULL)
    {
      img->format = format;
      img->width = width;
      img->height = height;
    }
  return size;
}

int
texel_format_padding_offset (const TexelFormatDesc *desc)
{
  unsigned used = 0;
  int c, o;

  if (desc->is_yuv || desc->n_planes != 1)
    return -1;
  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    if (desc->comp[c].plane == 0)
      used |= 1u << desc->comp[c].offset;
  for (o = 0; o < desc->comp[0].pixel_stride; o++)
    if (!(used & (1u << o)))
      return o;
  return -1;
}
