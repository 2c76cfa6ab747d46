/* gst-texel: the caps' colorimetry as the kernels take it, shared by the
 * elements that read or convert colour (texelconvert, texelwarp,
 * texeladjust).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_COLORIMETRY_H__
#define __GST_TEXEL_COLORIMETRY_H__

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include "texel-convert.h"

G_BEGIN_DECLS

/* The matrix between R'G'B' and Y'CbCr of @info: the caps' one, or where
 * they name none (or "rgb", which no YUV frame can use) what GStreamer
 * assumes, BT.601 up to 576 lines and BT.709 above. */
TexelMatrix gst_texel_colorimetry_yuv_matrix (const GstVideoInfo *info);
/* Whether @info's codes are full range (GRAY8 without a range in its caps
 * is, as in GStreamer). */
gboolean gst_texel_colorimetry_full_range (const GstVideoInfo *info);
/* Matrix (TEXEL_MATRIX_RGB where the caps say rgb), range and chroma
 * siting of @info. */
void gst_texel_colorimetry_from_video (TexelColorimetry *c,
                                       const GstVideoInfo *info);
/* Fixes an element's output size and pixel-aspect-ratio in @outs, for
 * the input structure @ins (@direction: the pad of @ins). */
typedef void (*GstTexelFixateSize) (GstBaseTransform *trans,
                                    GstPadDirection direction,
                                    GstStructure *ins, GstStructure *outs);
/* fixate_caps of the elements that convert (texelconvert, texelwarp): the
 * first structure of @othercaps, with the input's format where left open,
 * the size from @fixate_size, and the input's colorimetry and chroma-site
 * where both are YUV or both RGB (so that a conversion does not change
 * the matrix silently), then the rest fixated. */
GstCaps *gst_texel_colorimetry_fixate_caps (GstBaseTransform *trans,
                                            GstPadDirection direction,
                                            GstCaps *caps, GstCaps *othercaps,
                                            GstTexelFixateSize fixate_size);
/* A border-color property (0xAARRGGBB) as the kernels' non-linear R'G'B'A
 * in [0, 1]. */
void gst_texel_colorimetry_border_rgba (guint argb, double rgba[4]);

G_END_DECLS
#endif
