/* gst-texel: the caps' colorimetry as the kernels take it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elements/gsttexelcolorimetry.h"

TexelMatrix
gst_texel_colorimetry_yuv_matrix (const GstVideoInfo *info)
{
  switch (info->colorimetry.matrix)
    {
      case GST_VIDEO_COLOR_MATRIX_FCC:
        return TEXEL_MATRIX_FCC;
      case GST_VIDEO_COLOR_MATRIX_BT709:
        return TEXEL_MATRIX_BT709;
      case GST_VIDEO_COLOR_MATRIX_BT601:
        return TEXEL_MATRIX_BT601;
      case GST_VIDEO_COLOR_MATRIX_SMPTE240M:
        return TEXEL_MATRIX_SMPTE240M;
      case GST_VIDEO_COLOR_MATRIX_BT2020:
        return TEXEL_MATRIX_BT2020;
      default:
        return GST_VIDEO_INFO_HEIGHT (info) > 576 ? TEXEL_MATRIX_BT709
                                                  : TEXEL_MATRIX_BT601;
    }
}

gboolean
gst_texel_colorimetry_full_range (const GstVideoInfo *info)
{
  return info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255
         || (GST_VIDEO_INFO_IS_GRAY (info)
             && info->colorimetry.range == GST_VIDEO_COLOR_RANGE_UNKNOWN);
}

void
gst_texel_colorimetry_from_video (TexelColorimetry *c, const GstVideoInfo *info)
{
  c->matrix = info->colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_RGB
                  ? TEXEL_MATRIX_RGB
                  : gst_texel_colorimetry_yuv_matrix (info);
  c->full_range = gst_texel_colorimetry_full_range (info);
  c->chroma_h_cosited
      = (info->chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED) != 0;
  c->chroma_v_cosited
      = (info->chroma_site & GST_VIDEO_CHROMA_SITE_V_COSITED) != 0;
}

static void
gst_texel_colorimetry_fixate (GstStructure *ins, GstStructure *outs)
{
  const gchar *in_fmt = gst_structure_get_string (ins, "format");
  const gchar *out_fmt = gst_structure_get_string (outs, "format");
  const GstVideoFormatInfo *in_info, *out_info;
  const gchar *fields[] = { "colorimetry", "chroma-site" };
  guint i;

  if (!in_fmt || !out_fmt)
    return;
  in_info = gst_video_format_get_info (gst_video_format_from_string (in_fmt));
  out_info = gst_video_format_get_info (gst_video_format_from_string (out_fmt));
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (in_info)
      != GST_VIDEO_FORMAT_INFO_IS_YUV (out_info))
    return;
  for (i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const GValue *v = gst_structure_get_value (ins, fields[i]);

      if (v && !gst_structure_has_field (outs, fields[i]))
        gst_structure_set_value (outs, fields[i], v);
    }
}

GstCaps *
gst_texel_colorimetry_fixate_caps (GstBaseTransform *trans,
                                   GstPadDirection direction, GstCaps *caps,
                                   GstCaps *othercaps,
                                   GstTexelFixateSize fixate_size)
{
  GstStructure *ins, *outs;
  const gchar *in_fmt;

  othercaps = gst_caps_make_writable (gst_caps_truncate (othercaps));
  ins = gst_caps_get_structure (caps, 0);
  outs = gst_caps_get_structure (othercaps, 0);
  in_fmt = gst_structure_get_string (ins, "format");
  if (in_fmt && gst_structure_has_field (outs, "format"))
    gst_structure_fixate_field_string (outs, "format", in_fmt);
  fixate_size (trans, direction, ins, outs);
  gst_texel_colorimetry_fixate (ins, outs);
  return gst_caps_fixate (othercaps);
}

void
gst_texel_colorimetry_border_rgba (guint argb, double rgba[4])
{
  rgba[0] = ((argb >> 16) & 0xff) / 255.0;
  rgba[1] = ((argb >> 8) & 0xff) / 255.0;
  rgba[2] = (argb & 0xff) / 255.0;
  rgba[3] = (argb >> 24) / 255.0;
}
