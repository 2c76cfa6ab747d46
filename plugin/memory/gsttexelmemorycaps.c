/* gst-texel: the memory types of caps (gsttexelmemorycaps.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "memory/gsttexelmemorycaps.h"

GstDebugCategory *
gst_texel_memory_debug (void)
{
  static GstDebugCategory *category = NULL;

  if (g_once_init_enter (&category))
    {
      GstDebugCategory *made = _gst_debug_category_new (
          "texelmemory", 0, "gst-texel memory types");

      g_once_init_leave (&category, made);
    }
  return category;
}

gboolean
gst_texel_features_have (GstCapsFeatures *features, const gchar *memory)
{
  return features && !gst_caps_features_is_any (features)
         && gst_caps_features_contains (features, memory);
}

gboolean
gst_texel_caps_in_memory (GstCaps *caps, const gchar *memory)
{
  return caps && !gst_caps_is_any (caps) && gst_caps_get_size (caps) > 0
         && gst_texel_features_have (gst_caps_get_features (caps, 0), memory);
}

gboolean
gst_texel_caps_have_memory (GstCaps *caps, const gchar *memory)
{
  guint i;

  if (!caps || gst_caps_is_any (caps))
    return FALSE;
  for (i = 0; i < gst_caps_get_size (caps); i++)
    if (gst_texel_features_have (gst_caps_get_features (caps, i), memory))
      return TRUE;
  return FALSE;
}

/* Whether negotiated (fixed) @caps put frames in CUDA memory. */
gboolean
gst_texel_caps_cuda_memory (GstCaps *caps)
{
  return gst_texel_caps_in_memory (caps, GST_TEXEL_CAPS_FEATURE_CUDA);
}

/* The memory of @f's twin: system memory for @memory alone, @memory for
 * system memory, NULL for any other. */
static const gchar *
gst_texel_features_twin (GstCapsFeatures *f, const gchar *memory)
{
  if (gst_texel_features_have (f, memory))
    return gst_caps_features_get_size (f) == 1
               ? GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY
               : NULL;
  if (gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return memory;
  return NULL;
}

GstCaps *
gst_texel_caps_memory_twins (GstCaps *caps, const gchar *memory, gboolean twin)
{
  GstCaps *result, *twins;
  guint i;

  if (gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return caps;
  result = gst_caps_new_empty ();
  twins = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      GstStructure *s = gst_caps_get_structure (caps, i);
      GstCapsFeatures *f = gst_caps_get_features (caps, i);
      const gchar *other = gst_texel_features_twin (f, memory);

      if (!twin && gst_texel_features_have (f, memory))
        continue;
      result = gst_caps_merge_structure_full (result, gst_structure_copy (s),
                                              gst_caps_features_copy (f));
      if (twin && other)
        twins = gst_caps_merge_structure_full (
            twins, gst_structure_copy (s), gst_caps_features_new (other, NULL));
    }
  gst_caps_unref (caps);
  return gst_caps_merge (result, twins);
}

gboolean
gst_texel_caps_query_refuse_memory (GstQuery *query, const gchar *memory)
{
  GstCaps *caps;

  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    {
      gst_query_parse_accept_caps (query, &caps);
      if (!gst_texel_caps_have_memory (caps, memory))
        return FALSE;
      gst_query_set_accept_caps_result (query, FALSE);
      return TRUE;
    }
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS)
    {
      gst_query_parse_caps_result (query, &caps);
      if (gst_texel_caps_have_memory (caps, memory))
        {
          caps = gst_texel_caps_memory_twins (gst_caps_ref (caps), memory,
                                              FALSE);
          gst_query_set_caps_result (query, caps);
          gst_caps_unref (caps);
        }
    }
  return FALSE;
}
