/* gst-texel: GstTexelBase's caps: which memory (system or
 * memory:CUDAMemory) each caps structure is offered in, the end of every
 * texel element's transform_caps, and caps queries of elements that
 * cannot take CUDA memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

gboolean
gst_texel_features_have (GstCapsFeatures * features, const gchar * memory)
{
  return features && !gst_caps_features_is_any (features)
      && gst_caps_features_contains (features, memory);
}

gboolean
gst_texel_caps_in_memory (GstCaps * caps, const gchar * memory)
{
  return caps && !gst_caps_is_any (caps) && gst_caps_get_size (caps) > 0
      && gst_texel_features_have (gst_caps_get_features (caps, 0), memory);
}

gboolean
gst_texel_caps_have_memory (GstCaps * caps, const gchar * memory)
{
  guint i;

  if (!caps || gst_caps_is_any (caps))
    return FALSE;
  for (i = 0; i < gst_caps_get_size (caps); i++)
    if (gst_texel_features_have (gst_caps_get_features (caps, i), memory))
      return TRUE;
  return FALSE;
}

static gboolean
gst_texel_features_cuda_memory (GstCapsFeatures * features)
{
  return gst_texel_features_have (features, GST_TEXEL_CAPS_FEATURE_CUDA);
}

/* Whether negotiated (fixed) @caps put frames in CUDA memory. */
gboolean
gst_texel_caps_cuda_memory (GstCaps * caps)
{
  return gst_texel_caps_in_memory (caps, GST_TEXEL_CAPS_FEATURE_CUDA);
}

/* Whether the element can take frames in CUDA memory: before start,
 * unless it is bound to the CPU; once started, on the GPU path with a
 * CUDA context. */
static gboolean
gst_texel_base_takes_cuda_memory (GstTexelBase * self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  gboolean takes;

  if (!HAVE_GST_CUDA)
    return FALSE;
  GST_OBJECT_LOCK (self);
  if (priv->active_backend == GST_TEXEL_BACKEND_AUTO)
    takes = priv->backend != GST_TEXEL_BACKEND_CPU;
  else
    takes = priv->cuda != NULL && priv->cuda_context != NULL;
  GST_OBJECT_UNLOCK (self);
  return takes;
}

/* The memory of @f's twin: system memory for @memory alone, @memory for
 * system memory, NULL for any other. */
static const gchar *
gst_texel_features_twin (GstCapsFeatures * f, const gchar * memory)
{
  if (gst_texel_features_have (f, memory))
    return gst_caps_features_get_size (f) == 1 ?
        GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY : NULL;
  if (gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return memory;
  return NULL;
}

GstCaps *
gst_texel_caps_memory_twins (GstCaps * caps, const gchar * memory,
    gboolean twin)
{
  GstCaps *result, *twins;
  guint i;

  if (gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return caps;
  result = gst_caps_new_empty ();
  twins = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    const gchar *other = gst_texel_features_twin (f, memory);

    if (!twin && gst_texel_features_have (f, memory))
      continue;
    result = gst_caps_merge_structure_full (result, gst_structure_copy (s),
        gst_caps_features_copy (f));
    if (twin && other)
      twins = gst_caps_merge_structure_full (twins, gst_structure_copy (s),
          gst_caps_features_new (other, NULL));
  }
  gst_caps_unref (caps);
  return gst_caps_merge (result, twins);
}

/* @caps (transfer full) with its memory:CUDAMemory structures first,
 * each memory's in the order they came: those moved out of @caps in turn,
 * then what is left of it. */
static GstCaps *
gst_texel_caps_device_first (GstCaps * caps)
{
  GstCaps *device = gst_caps_new_empty ();
  guint i = 0;

  caps = gst_caps_make_writable (caps);
  while (i < gst_caps_get_size (caps)) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (gst_texel_features_cuda_memory (f)) {
      f = gst_caps_features_copy (f);
      gst_caps_append_structure_full (device,
          gst_caps_steal_structure (caps, i), f);
    } else {
      i++;
    }
  }
  gst_caps_append (device, caps);
  return device;
}

/* Whether frames to or from the neighbour on the other side from
 * @direction (the pad whose caps transform_caps derives) should stay on
 * the GPU: this element works on a discrete GPU through staged copies,
 * and the neighbour is a texel element that takes CUDA memory, so the
 * frame between them needs no download and upload. Direct neighbours
 * only. On an integrated GPU (zero-copy) system memory already costs no
 * copy and stays preferred.
 *
 * Why this looks at the neighbour instead of negotiating through caps:
 * the memory caps feature alone cannot say it. Both memories are offered
 * on both sides of the link; what is decided is which to prefer, and caps
 * say preference only by the order of their structures, which each texel
 * element derives from what its far side takes: in texeladjust !
 * texelfilter ! texelconvert ! <system-memory sink>, texelfilter answers
 * texeladjust's caps query system memory first although it processes on
 * the GPU itself. A feature of our own could say it (memory:CUDAMemory
 * plus a private feature, offered first by every element on the staged
 * path, so that only two such elements agree on it), but it would be part
 * of the pad templates and of the negotiated caps of links between texel
 * elements, visible to every application and element that reads them: a
 * change of the elements' public caps, left out of this split. */
static gboolean
gst_texel_base_neighbour_on_device (GstTexelBase * self,
    GstPadDirection direction)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstPad *pad = direction == GST_PAD_SINK ? trans->srcpad : trans->sinkpad;
  GstPad *peer;
  GstObject *neighbour = NULL;
  gboolean staged, on_device = FALSE;

  GST_OBJECT_LOCK (self);
  staged = PRIV (self)->active_memory == GST_TEXEL_ACTIVE_MEMORY_STAGED;
  GST_OBJECT_UNLOCK (self);
  if (!staged || !gst_texel_base_takes_cuda_memory (self))
    return FALSE;
  peer = gst_pad_get_peer (pad);
  if (peer)
    neighbour = gst_pad_get_parent (peer);
  if (neighbour && GST_IS_TEXEL_BASE (neighbour))
    on_device = gst_texel_base_takes_cuda_memory (GST_TEXEL_BASE (neighbour));
  gst_clear_object (&neighbour);
  gst_clear_object (&peer);
  return on_device;
}

/* @caps with their twins in the other memory, CUDA memory first towards a
 * texel neighbour (gst_texel_base_finish_caps). */
static GstCaps *
gst_texel_base_add_memory_caps (GstTexelBase * base,
    GstPadDirection direction, GstCaps * caps)
{
  caps = gst_texel_caps_memory_twins (caps, GST_TEXEL_CAPS_FEATURE_CUDA,
      gst_texel_base_takes_cuda_memory (base));
  if (gst_texel_base_neighbour_on_device (base, direction))
    caps = gst_texel_caps_device_first (caps);
  return caps;
}

GstCaps *
gst_texel_caps_filtered (GstCaps * caps, GstCaps * filter)
{
  GstCaps *tmp;

  if (filter == NULL)
    return caps;
  tmp = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return tmp;
}

GstCaps *
gst_texel_base_finish_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * result,
    GstCaps * filter)
{
  result = gst_texel_nvmm_transform_caps (GST_TEXEL_BASE (trans), result);
  result = gst_texel_base_add_memory_caps (GST_TEXEL_BASE (trans), direction,
      result);
  result = gst_texel_caps_filtered (result, filter);
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      result);
  return result;
}

GstCaps *
gst_texel_base_transform_caps_same (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_texel_base_finish_caps (trans, direction, caps,
      gst_caps_ref (caps), filter);
}

GstCaps *
gst_texel_caps_any_size_format (GstCaps * caps)
{
  GstCaps *any = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));

    gst_structure_set (s, "width", GST_TYPE_INT_RANGE, 1, GST_TEXEL_MAX_SIZE,
        "height", GST_TYPE_INT_RANGE, 1, GST_TEXEL_MAX_SIZE, NULL);
    gst_structure_remove_fields (s, "format", "colorimetry", "chroma-site",
        NULL);
    if (gst_structure_has_field (s, "pixel-aspect-ratio"))
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION_RANGE, 1,
          G_MAXINT, G_MAXINT, 1, NULL);
    any = gst_caps_merge_structure_full (any, s,
        gst_caps_features_copy (gst_caps_get_features (caps, i)));
  }
  return any;
}

/* Whether one of the element's sink pad template structures lists raw
 * video of @format, in any memory. */
static gboolean
gst_texel_base_template_has_format (GstTexelBase * self, const gchar * format)
{
  GstPadTemplate *templ =
      gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (self),
      "sink");
  GstStructure *want;
  GstCaps *caps;
  gboolean found = FALSE;
  guint i;

  if (templ == NULL)
    return TRUE;
  want = gst_structure_new ("video/x-raw", "format", G_TYPE_STRING, format,
      NULL);
  caps = gst_pad_template_get_caps (templ);
  for (i = 0; !found && i < gst_caps_get_size (caps); i++)
    found = gst_structure_can_intersect (want,
        gst_caps_get_structure (caps, i));
  gst_caps_unref (caps);
  gst_structure_free (want);
  return found;
}

/* Raw video of a format the element does not take: upstream then fails
 * with not-negotiated, which names neither this element nor the format
 * (a decoder's 10-bit or 4:4:4 output), so the element says both, once
 * per format. */
static void
gst_texel_base_warn_refused_format (GstTexelBase * self, GstQuery * query)
{
  const GstStructure *s;
  const gchar *format;
  gchar *key;
  GstCaps *caps;

  gst_query_parse_accept_caps (query, &caps);
  if (caps == NULL || gst_caps_get_size (caps) != 1)
    return;
  s = gst_caps_get_structure (caps, 0);
  format = gst_structure_get_string (s, "format");
  if (!gst_structure_has_name (s, "video/x-raw") || format == NULL
      || gst_texel_base_template_has_format (self, format))
    return;
  key = g_strdup_printf ("gst-texel-refused-format-%s", format);
  if (g_object_get_data (G_OBJECT (self), key) == NULL) {
    GstElementFactory *factory = gst_element_get_factory (GST_ELEMENT (self));
    const gchar *element = factory ?
        GST_OBJECT_NAME (factory) : G_OBJECT_TYPE_NAME (self);

    g_object_set_data (G_OBJECT (self), key, GINT_TO_POINTER (1));
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("%s does not take format %s", element, format),
        ("its formats are those of its pad templates (gst-inspect-1.0 %s); "
            "convert before it (videoconvert)", element));
  }
  g_free (key);
}

/* Where a subclass's transform_caps does not call
 * gst_texel_base_finish_caps, frames in CUDA memory are still kept
 * away from an element that cannot take them. */
gboolean
gst_texel_base_caps_query_memory (GstTexelBase * self, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    gst_texel_base_warn_refused_format (self, query);
  if (gst_texel_nvmm_caps_query (self, query))
    return TRUE;
  if (gst_texel_base_takes_cuda_memory (self))
    return FALSE;
  return gst_texel_caps_query_refuse_memory (query,
      GST_TEXEL_CAPS_FEATURE_CUDA);
}

gboolean
gst_texel_caps_query_refuse_memory (GstQuery * query, const gchar * memory)
{
  GstCaps *caps;

  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    gst_query_parse_accept_caps (query, &caps);
    if (!gst_texel_caps_have_memory (caps, memory))
      return FALSE;
    gst_query_set_accept_caps_result (query, FALSE);
    return TRUE;
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS) {
    gst_query_parse_caps_result (query, &caps);
    if (gst_texel_caps_have_memory (caps, memory)) {
      caps = gst_texel_caps_memory_twins (gst_caps_ref (caps), memory, FALSE);
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
    }
  }
  return FALSE;
}
