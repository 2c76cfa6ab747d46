/* gst-texel: texelconvert, colour conversion, scaling, cropping,
 * letterboxing and flipping in one pass.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_CONVERT_H__
#define __GST_TEXEL_CONVERT_H__

#include "base/gsttexelbase.h"

G_BEGIN_DECLS

#define GST_TYPE_TEXEL_CONVERT (gst_texel_convert_get_type ())
G_DECLARE_FINAL_TYPE (GstTexelConvert, gst_texel_convert, GST, TEXEL_CONVERT,
                      GstTexelBase)

GST_ELEMENT_REGISTER_DECLARE (texelconvert);

G_END_DECLS
#endif
