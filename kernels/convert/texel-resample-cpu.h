/* gst-texel: the CPU reference's resampler, shared by the elements that
 * move pixels (texelconvert, texelwarp).
 *
 * Each output sample's centre (output luma coordinates) is handed to a
 * source function that says where in the input it comes from, or that it
 * gets the border value; the input's components are then filtered there
 * on their own sample grids (nearest, bilinear, cubic B-spline), go
 * through the plan's colour matrix and are stored. Only the source
 * function differs between the elements.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_RESAMPLE_CPU_H
#define TEXEL_RESAMPLE_CPU_H

#include "texel-kernel.h"
#include "texel-convert.h"

/* A position in luma coordinates: in double for the filters, in float for
 * nearest sampling, which must pick exactly the sample the GPU picks where
 * the GPU computes the same float position (texel-sample-map.h). */
typedef struct
{
  double x, y;
  float xf, yf;
} TexelSamplePos;

/* Fills @in_pos with the input position that output sample @out_pos reads
 * and returns 1, or returns 0 when the sample gets the plan's border. */
typedef int (*TexelSourceFunc) (const void *data, const TexelSamplePos *out_pos,
                                TexelSamplePos *in_pos);

/* Resamples output rows [row0, row1) (luma rows) of @out from @in with
 * @plan's formats, method, colour matrix, border and chroma siting, the
 * positions coming from @source (called with @data). */
void texel_resample_cpu (const TexelConvertPlan *plan, TexelSourceFunc source,
                         const void *data, const TexelImage *in,
                         TexelImage *out, int row0, int row1);

#endif /* TEXEL_RESAMPLE_CPU_H */
