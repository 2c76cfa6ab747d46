/* gst-texel tests: texelconvert's subsampled chroma, through the element,
 * against the exact definitions of tests/unit/texel-exact.h and against
 * videoconvert. Shared by the CPU (test-texelconvert.c) and the GPU
 * (test-texelconvert-gpu.c) element tests, which pass the properties that
 * choose the path.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CHROMA_CHECK_H
#define TEXEL_CHROMA_CHECK_H

#include <gst/gst.h>

/* The subsampled formats, and the sitings ("jpeg", "mpeg2") checked. */
extern const gchar *texel_chroma_formats[];
extern const guint texel_chroma_n_formats;
extern const gchar *texel_chroma_sites[];
extern const guint texel_chroma_n_sites;

/* RGBA 1:1 through "texelconvert @props" to @format with chroma-site
 * @site, in BT.601 limited and BT.709 full range, for every test pattern:
 * every output sample within @tol codes of the exact encoding (chroma the
 * mean over its footprint). */
void texel_check_encode_exact (const gchar *props, const gchar *format,
                               const gchar *site, guint tol);

/* @format (chroma-site @site, BT.601 limited) 1:1 to RGBA through
 * "texelconvert @props method=@method": every R, G, B within @tol codes of
 * the exact decoding, chroma reconstructed at its sites linearly (method
 * bilinear, and bicubic, which is bilinear at 1:1) or by nearest. */
void texel_check_decode_exact (const gchar *props, const gchar *format,
                               const gchar *site, const gchar *method,
                               guint tol);

/* RGBA 1:1 to @format (chroma-site @site, BT.601 limited) through
 * texelconvert and through videoconvert: every sample within @tol 8-bit
 * codes, for every test pattern, but where videoconvert's right edge
 * differs by design (see max_diff_but_edge). */
void texel_check_against_videoconvert (const gchar *props, const gchar *format,
                                       const gchar *site, guint tol);

#endif
