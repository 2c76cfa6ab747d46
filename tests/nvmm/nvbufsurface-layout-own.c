/* gst-texel: the layout the project's own declarations give.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define GST_TEXEL_OWN_NVBUFSURFACE 1
#include "memory/gsttexelnvbufsurface.h"

#include "nvbufsurface-layout.h"

const size_t texel_layout_own[] = TEXEL_LAYOUT_TABLE;
