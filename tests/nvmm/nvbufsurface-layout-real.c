/* gst-texel: the layout NVIDIA's nvbufsurface.h gives (built only where the
 * build found it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <nvbufsurface.h>

#include "nvbufsurface-layout.h"

const size_t texel_layout_real[] = TEXEL_LAYOUT_TABLE;
