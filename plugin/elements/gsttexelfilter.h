/* gst-texel: texelfilter, neighbourhood filters: gaussian blur, unsharp
 * mask, bilateral denoise, box blur and Sobel edge magnitude.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_FILTER_H__
#define __GST_TEXEL_FILTER_H__

#include "base/gsttexelbase.h"

G_BEGIN_DECLS

#define GST_TYPE_TEXEL_FILTER (gst_texel_filter_get_type ())
G_DECLARE_FINAL_TYPE (GstTexelFilter, gst_texel_filter, GST, TEXEL_FILTER,
                      GstTexelBase)

GST_ELEMENT_REGISTER_DECLARE (texelfilter);

G_END_DECLS
#endif
