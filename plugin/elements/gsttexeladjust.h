/* gst-texel: texeladjust, colour adjustment: gamma, brightness,
 * contrast, saturation and hue (exactly as gamma ! videobalance);
 * exposure, white balance, tone map, vignette and gamma in linear light;
 * a 3D LUT.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_ADJUST_H__
#define __GST_TEXEL_ADJUST_H__

#include "base/gsttexelbase.h"

G_BEGIN_DECLS

#define GST_TYPE_TEXEL_ADJUST (gst_texel_adjust_get_type ())
G_DECLARE_FINAL_TYPE (GstTexelAdjust, gst_texel_adjust, GST, TEXEL_ADJUST,
                      GstTexelBase)

GST_ELEMENT_REGISTER_DECLARE (texeladjust);

G_END_DECLS
#endif
