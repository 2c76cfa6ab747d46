/* gst-texel: host memory the device reaches: foreign host memory
 * registered with cudaHostRegister, cached on the memory, and the device
 * view of a mapped frame (gsttexelregistration.c). Built only with CUDA
 * (have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_REGISTRATION_H__
#define __GST_TEXEL_REGISTRATION_H__

#include <gst/video/video.h>
#include "device/gsttexelcuda.h"

G_BEGIN_DECLS

gboolean gst_texel_frame_device_view (GstVideoFrame *frame,
                                      const TexelImage *host, gint device,
                                      GstCudaContext *context,
                                      guint64 *registrations, TexelImage *dev);

G_END_DECLS
#endif
