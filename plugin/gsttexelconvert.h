/* gst-texel: texelconvert, colour conversion, scaling, cropping,
 * letterboxing and flipping in one pass.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_CONVERT_H__
#define __GST_TEXEL_CONVERT_H__

#include "gsttexelbase.h"

G_BEGIN_DECLS

#define GST_TYPE_TEXEL_CONVERT (gst_texel_convert_get_type ())
G_DECLARE_FINAL_TYPE (GstTexelConvert, gst_texel_convert, GST, TEXEL_CONVERT,
    GstTexelBase)

#define GST_TYPE_TEXEL_METHOD (gst_texel_method_get_type ())
GType gst_texel_method_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (texelconvert);

/* Shared with the other elements that convert (texelwarp): the caps'
 * colorimetry and chroma siting as the kernels take them, and the output
 * caps keeping the input's colorimetry where both are of one kind. */
void gst_texel_colorimetry_from_video (TexelColorimetry * c,
    const GstVideoInfo * info);
void gst_texel_convert_fixate_color (GstStructure * ins, GstStructure * outs);

G_END_DECLS
#endif
