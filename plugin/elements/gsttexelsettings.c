/* gst-texel: what the texel elements do alike with their properties
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elements/gsttexelsettings.h"

GST_DEBUG_CATEGORY_STATIC (gst_texel_settings_debug);
#define GST_CAT_DEFAULT gst_texel_settings_debug

GType
gst_texel_enum_type (GType *type, const gchar *name, const GEnumValue *values)
{
  if (g_once_init_enter (type))
    g_once_init_leave (type, g_enum_register_static (name, values));
  return *type;
}

GType
gst_texel_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[]
      = { { TEXEL_METHOD_NEAREST, "Nearest neighbour", "nearest" },
          { TEXEL_METHOD_BILINEAR, "Bilinear (hardware texture filtering)",
            "bilinear" },
          { TEXEL_METHOD_BICUBIC, "Cubic B-spline (4 bilinear fetches)",
            "bicubic" },
          { 0, NULL, NULL } };

  return gst_texel_enum_type (&type, "GstTexelMethod", values);
}

static void
gst_texel_settings_init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      GST_DEBUG_CATEGORY_INIT (gst_texel_settings_debug, "texelsettings", 0,
                               "texel element settings");
      g_once_init_leave (&done, 1);
    }
}

gboolean
gst_texel_settings_valid (GObject *object, const GValue *value,
                          GParamSpec *pspec)
{
  GValue checked = G_VALUE_INIT;
  gboolean valid;
  gchar *text;

  g_value_init (&checked, G_VALUE_TYPE (value));
  g_value_copy (value, &checked);
  valid = !g_param_value_validate (pspec, &checked);
  g_value_unset (&checked);
  if (valid)
    return TRUE;
  gst_texel_settings_init_debug ();
  text = g_strdup_value_contents (value);
  GST_WARNING_OBJECT (object,
                      "%s: %s refused (NaN or out of range), the "
                      "value stays",
                      g_param_spec_get_name (pspec), text);
  g_free (text);
  return FALSE;
}

/* Whether the element's output caps are always its input's. */
static gboolean
gst_texel_settings_keeps_caps (GstBaseTransform *trans)
{
  return GST_BASE_TRANSFORM_GET_CLASS (trans)->transform_caps
         == gst_texel_base_transform_caps_same;
}

void
gst_texel_settings_changed (GstTexelBase *base, GstTexelChange change,
                            gboolean neutral)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (base);
  GstVideoFilter *filter = GST_VIDEO_FILTER (base);
  gboolean was = gst_base_transform_is_passthrough (trans);
  gboolean passthrough = neutral;

  gst_texel_base_mark_dirty (base);
  /* Negotiated caps that a new negotiation keeps (a flip, a crop into
   * fixed output caps) do not configure the element again, so the choice
   * is made here for either kind of change; where they do change, prepare
   * decides again once they are set. */
  if (filter->negotiated)
    passthrough &= gst_video_info_is_equal (&filter->in_info, &filter->out_info)
                   && gst_texel_base_keeps_memory (base);
  else if (change == GST_TEXEL_CHANGE_CAPS
           || (passthrough && !gst_texel_settings_keeps_caps (trans)))
    passthrough = was;
  if (passthrough != was)
    gst_base_transform_set_passthrough (trans, passthrough);
  if (passthrough != was || change == GST_TEXEL_CHANGE_CAPS)
    gst_base_transform_reconfigure_src (trans);
}

gboolean
gst_texel_settings_same_video (GstTexelBase *base, const GstVideoInfo *in,
                               const GstVideoInfo *out)
{
  GstElementFactory *factory = gst_element_get_factory (GST_ELEMENT (base));

  if (gst_video_info_is_equal (in, out))
    return TRUE;
  GST_ELEMENT_ERROR (
      base, CORE, NEGOTIATION,
      ("%s cannot convert %s %dx%d to %s %dx%d",
       factory ? GST_OBJECT_NAME (factory) : G_OBJECT_TYPE_NAME (base),
       GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
       GST_VIDEO_INFO_HEIGHT (in), GST_VIDEO_INFO_NAME (out),
       GST_VIDEO_INFO_WIDTH (out), GST_VIDEO_INFO_HEIGHT (out)),
      (NULL));
  return FALSE;
}
