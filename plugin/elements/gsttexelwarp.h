/* gst-texel: texelwarp, lens undistortion, fisheye dewarping, electronic
 * pan-tilt-zoom, rotation, homography and digital zoom, with colour
 * conversion and scaling in the same pass.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_WARP_H__
#define __GST_TEXEL_WARP_H__

#include "base/gsttexelbase.h"

G_BEGIN_DECLS

#define GST_TYPE_TEXEL_WARP (gst_texel_warp_get_type ())
G_DECLARE_FINAL_TYPE (GstTexelWarp, gst_texel_warp, GST, TEXEL_WARP,
                      GstTexelBase)

#define GST_TYPE_TEXEL_WARP_MODEL (gst_texel_warp_model_get_type ())
GType gst_texel_warp_model_get_type (void);
#define GST_TYPE_TEXEL_NEW_CAMERA (gst_texel_new_camera_get_type ())
GType gst_texel_new_camera_get_type (void);
#define GST_TYPE_TEXEL_PROJECTION (gst_texel_projection_get_type ())
GType gst_texel_projection_get_type (void);
#define GST_TYPE_TEXEL_WARP_BORDER (gst_texel_warp_border_get_type ())
GType gst_texel_warp_border_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (texelwarp);

G_END_DECLS
#endif
