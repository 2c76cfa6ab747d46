/* gst-texel: a mapped GstVideoFrame as the kernels see it (TexelImage,
 * texel-image.h): its format and its planes. Knows no element.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_IMAGE_H__
#define __GST_TEXEL_IMAGE_H__

#include <gst/video/video.h>
#include "texel-image.h"

G_BEGIN_DECLS

/* The kernels' format of @format (TEXEL_FORMAT_UNKNOWN where they have
 * none). */
TexelFormat gst_texel_format_from_video (GstVideoFormat format);
/* Image description of a mapped frame. */
void gst_texel_image_from_frame (TexelImage *img, GstVideoFrame *frame);

G_END_DECLS
#endif
