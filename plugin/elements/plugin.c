/* gst-texel: GPU video elements for Jetson and discrete NVIDIA GPUs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include "elements/gsttexelconvert.h"
#include "elements/gsttexeladjust.h"
#include "elements/gsttexelfilter.h"
#include "elements/gsttexelwarp.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  return GST_ELEMENT_REGISTER (texelconvert, plugin)
         && GST_ELEMENT_REGISTER (texeladjust, plugin)
         && GST_ELEMENT_REGISTER (texelfilter, plugin)
         && GST_ELEMENT_REGISTER (texelwarp, plugin);
}

GST_PLUGIN_DEFINE (
    GST_VERSION_MAJOR, GST_VERSION_MINOR, texel,
    "GPU video conversion, scaling and geometry with CUDA (CPU fallback)",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
