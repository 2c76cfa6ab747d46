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

#include "base/gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

static gboolean
gst_texel_features_cuda_memory (GstCapsFeatures *features)
{
  return gst_texel_features_have (features, GST_TEXEL_CAPS_FEATURE_CUDA);
}

/* Whether the element can take frames in CUDA memory: before start,
 * unless it is bound to the CPU; once started, on the GPU path with a
 * CUDA context. */
static gboolean
gst_texel_base_takes_cuda_memory (GstTexelBase *self)
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

/* Whether @self offers and accepts NVMM caps: where libnvbufsurface is
 * loaded, on the GPU path of a discrete GPU (DeepStream's CUDA-memory
 * surfaces) working in the device's primary context, where
 * libnvbufsurface allocates (before start: unless bound to the CPU). Not
 * on the CPU path nor on an integrated GPU (a Jetson's elements hand
 * surface arrays, which are not read yet: offering NVMM there would turn
 * today's working nvvidconv ! texel... pipelines into refused ones), nor
 * in a GstCudaContext of GStreamer's CUDA library (a context of its own,
 * whose kernels cannot address another context's memory).
 * GST_TEXEL_NVMM=1 offers it everywhere (the CPU path reads surfaces in
 * system, pinned or unified memory), 0 nowhere. */
static gboolean
gst_texel_base_nvmm_offered (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  gint forced = gst_texel_nvmm_forced ();
  gboolean offered;

  if (!gst_texel_nvmm_available (NULL) || forced == 0)
    return FALSE;
  if (forced == 1)
    return TRUE;
  GST_OBJECT_LOCK (self);
  if (priv->active_backend == GST_TEXEL_BACKEND_AUTO)
    offered = priv->backend != GST_TEXEL_BACKEND_CPU;
  else
    offered = priv->cuda != NULL && !priv->integrated && !priv->cuda_context;
  GST_OBJECT_UNLOCK (self);
  return offered;
}

/* @caps (transfer full) with its memory:CUDAMemory structures first,
 * each memory's in the order they came: those moved out of @caps in turn,
 * then what is left of it. */
static GstCaps *
gst_texel_caps_device_first (GstCaps *caps)
{
  GstCaps *device = gst_caps_new_empty ();
  guint i = 0;

  caps = gst_caps_make_writable (caps);
  while (i < gst_caps_get_size (caps))
    {
      GstCapsFeatures *f = gst_caps_get_features (caps, i);

      if (gst_texel_features_cuda_memory (f))
        {
          f = gst_caps_features_copy (f);
          gst_caps_append_structure_full (
              device, gst_caps_steal_structure (caps, i), f);
        }
      else
        {
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
gst_texel_base_neighbour_on_device (GstTexelBase *self,
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
gst_texel_base_add_memory_caps (GstTexelBase *base, GstPadDirection direction,
                                GstCaps *caps)
{
  caps = gst_texel_caps_memory_twins (caps, GST_TEXEL_CAPS_FEATURE_CUDA,
                                      gst_texel_base_takes_cuda_memory (base));
  if (gst_texel_base_neighbour_on_device (base, direction))
    caps = gst_texel_caps_device_first (caps);
  return caps;
}

GstCaps *
gst_texel_caps_filtered (GstCaps *caps, GstCaps *filter)
{
  GstCaps *tmp;

  if (filter == NULL)
    return caps;
  tmp = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return tmp;
}

GstCaps *
gst_texel_base_finish_caps (GstBaseTransform *trans, GstPadDirection direction,
                            GstCaps *caps, GstCaps *result, GstCaps *filter)
{
  result = gst_texel_nvmm_transform_caps (
      result, gst_texel_base_nvmm_offered (GST_TEXEL_BASE (trans)));
  result = gst_texel_base_add_memory_caps (GST_TEXEL_BASE (trans), direction,
                                           result);
  result = gst_texel_caps_filtered (result, filter);
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
                    result);
  return result;
}

GstCaps *
gst_texel_base_transform_caps_same (GstBaseTransform *trans,
                                    GstPadDirection direction, GstCaps *caps,
                                    GstCaps *filter)
{
  return gst_texel_base_finish_caps (trans, direction, caps,
                                     gst_caps_ref (caps), filter);
}

GstCaps *
gst_texel_caps_any_size_format (GstCaps *caps)
{
  GstCaps *any = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    {
      GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));

      gst_structure_set (s, "width", GST_TYPE_INT_RANGE, 1, GST_TEXEL_MAX_SIZE,
                         "height", GST_TYPE_INT_RANGE, 1, GST_TEXEL_MAX_SIZE,
                         NULL);
      gst_structure_remove_fields (s, "format", "colorimetry", "chroma-site",
                                   NULL);
      if (gst_structure_has_field (s, "pixel-aspect-ratio"))
        gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION_RANGE, 1,
                           G_MAXINT, G_MAXINT, 1, NULL);
      any = gst_caps_merge_structure_full (
          any, s, gst_caps_features_copy (gst_caps_get_features (caps, i)));
    }
  return any;
}

/* Whether one of the element's sink pad template structures lists raw
 * video of @format, in any memory. */
static gboolean
gst_texel_base_template_has_format (GstTexelBase *self, const gchar *format)
{
  GstPadTemplate *templ = gst_element_class_get_pad_template (
      GST_ELEMENT_GET_CLASS (self), "sink");
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
    found
        = gst_structure_can_intersect (want, gst_caps_get_structure (caps, i));
  gst_caps_unref (caps);
  gst_structure_free (want);
  return found;
}

/* Raw video of a format the element does not take: upstream then fails
 * with not-negotiated, which names neither this element nor the format
 * (a decoder's 10-bit or 4:4:4 output), so the element says both, once
 * per format. */
static void
gst_texel_base_warn_refused_format (GstTexelBase *self, GstQuery *query)
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
  if (g_object_get_data (G_OBJECT (self), key) == NULL)
    {
      GstElementFactory *factory = gst_element_get_factory (GST_ELEMENT (self));
      const gchar *element
          = factory ? GST_OBJECT_NAME (factory) : G_OBJECT_TYPE_NAME (self);

      g_object_set_data (G_OBJECT (self), key, GINT_TO_POINTER (1));
      GST_ELEMENT_WARNING (
          self, STREAM, FORMAT, ("%s does not take format %s", element, format),
          ("its formats are those of its pad templates (gst-inspect-1.0 %s); "
           "convert before it (videoconvert)",
           element));
    }
  g_free (key);
}

/* Where a subclass's transform_caps does not call
 * gst_texel_base_finish_caps, frames in CUDA memory are still kept
 * away from an element that cannot take them. */
gboolean
gst_texel_base_caps_query_memory (GstTexelBase *self, GstQuery *query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    gst_texel_base_warn_refused_format (self, query);
  if (gst_texel_nvmm_caps_query (query, gst_texel_base_nvmm_offered (self)))
    return TRUE;
  if (gst_texel_base_takes_cuda_memory (self))
    return FALSE;
  return gst_texel_caps_query_refuse_memory (query,
                                             GST_TEXEL_CAPS_FEATURE_CUDA);
}

/* Size and pixel-aspect-ratio fixation (gst_texel_caps_fixate_size): the
 * choices videoscale makes, so that an element can stand in for it. */

/* The value @s's @field takes when fixated nearest to @target, @s left as
 * it is; @target where @s lacks the field. */
static gint
gst_texel_caps_nearest_int (const GstStructure *s, const gchar *field,
                            gint target)
{
  GstStructure *tmp = gst_structure_copy (s);
  gint v = target;

  gst_structure_fixate_field_nearest_int (tmp, field, target);
  gst_structure_get_int (tmp, field, &v);
  gst_structure_free (tmp);
  return v;
}

/* The pixel-aspect-ratio of @outs fixated nearest to @n/@d, @outs left as
 * it is; @par stands for the field where @outs lacks it. */
static void
gst_texel_caps_nearest_par (const GstStructure *outs, const GValue *par, gint n,
                            gint d, gint *set_n, gint *set_d)
{
  GstStructure *tmp = gst_structure_copy (outs);

  if (!gst_structure_has_field (tmp, "pixel-aspect-ratio"))
    gst_structure_set_value (tmp, "pixel-aspect-ratio", par);
  gst_structure_fixate_field_nearest_fraction (tmp, "pixel-aspect-ratio", n, d);
  *set_n = n;
  *set_d = d;
  gst_structure_get_fraction (tmp, "pixel-aspect-ratio", set_n, set_d);
  gst_structure_free (tmp);
}

/* A pixel-aspect-ratio field is added only where it says something: caps
 * without one mean square pixels downstream. */
static void
gst_texel_caps_set_par (GstStructure *outs, gint n, gint d)
{
  if (gst_structure_has_field (outs, "pixel-aspect-ratio") || n != d)
    gst_structure_set (outs, "pixel-aspect-ratio", GST_TYPE_FRACTION, n, d,
                       NULL);
}

/* The pixel-aspect-ratio that shows @w x @h at @src's display aspect
 * ratio: DAR * h / w. */
static gboolean
gst_texel_caps_par_for_size (const GstTexelSourceShape *src, gint w, gint h,
                             gint *n, gint *d)
{
  return gst_util_fraction_multiply (src->dar_n, src->dar_d, h, w, n, d);
}

/* The width (@width_free) or height that shows @src's display aspect ratio
 * at pixel-aspect-ratio @par_n/@par_d beside the other, @other: width =
 * height * DAR / PAR. 0 where the fractions overflow. */
static gint
gst_texel_caps_size_for_par (const GstTexelSourceShape *src,
                             gboolean width_free, gint other, gint par_n,
                             gint par_d)
{
  gint num, den;

  if (!gst_util_fraction_multiply (src->dar_n, src->dar_d, par_d, par_n, &num,
                                   &den))
    return 0;
  return width_free ? (gint)gst_util_uint64_scale_int_round (other, num, den)
                    : (gint)gst_util_uint64_scale_int_round (other, den, num);
}

/* One of width and height fixed (@fixed_field, @fixed), the other free:
 * the free one at the PAR where that is fixed; otherwise the source's own
 * size on the free axis where the PAR that keeps the display aspect ratio
 * is allowed, else the nearest allowed PAR and the size that suits it. */
static void
gst_texel_caps_fixate_one_free (GstStructure *outs, const GValue *par,
                                const GstTexelSourceShape *src,
                                gboolean width_free, gint fixed)
{
  const gchar *free_field = width_free ? "width" : "height";
  gint n, d, set_n, set_d, size, src_size = width_free ? src->w : src->h;

  if (gst_value_is_fixed (par))
    {
      size = gst_texel_caps_size_for_par (
          src, width_free, fixed, gst_value_get_fraction_numerator (par),
          gst_value_get_fraction_denominator (par));
      if (size > 0)
        gst_structure_fixate_field_nearest_int (outs, free_field, size);
      return;
    }
  size = gst_texel_caps_nearest_int (outs, free_field, src_size);
  if (!gst_texel_caps_par_for_size (src, width_free ? size : fixed,
                                    width_free ? fixed : size, &n, &d))
    return;
  gst_texel_caps_nearest_par (outs, par, n, d, &set_n, &set_d);
  if (set_n != n || set_d != d)
    {
      size = gst_texel_caps_size_for_par (src, width_free, fixed, set_n, set_d);
      if (size <= 0)
        return;
    }
  gst_structure_fixate_field_nearest_int (outs, free_field, size);
  gst_texel_caps_set_par (outs, set_n, set_d);
}

/* Width and height free at a fixed PAR: the source's height and the width
 * that keeps the display aspect ratio, else the source's width and the
 * height that does, else whichever of the two comes closer to it. */
static void
gst_texel_caps_fixate_at_par (GstStructure *outs, const GValue *par,
                              const GstTexelSourceShape *src)
{
  gint par_n = gst_value_get_fraction_numerator (par);
  gint par_d = gst_value_get_fraction_denominator (par);
  gint h1, w1, want_w, w2, h2, want_h;

  h1 = gst_texel_caps_nearest_int (outs, "height", src->h);
  want_w = gst_texel_caps_size_for_par (src, TRUE, h1, par_n, par_d);
  w1 = gst_texel_caps_nearest_int (outs, "width", want_w);
  if (want_w <= 0 || w1 != want_w)
    {
      w2 = gst_texel_caps_nearest_int (outs, "width", src->w);
      want_h = gst_texel_caps_size_for_par (src, FALSE, w2, par_n, par_d);
      h2 = gst_texel_caps_nearest_int (outs, "height", want_h);
      /* The DAR errors compared: |h2 - want_h| / h2 against
       * |w1 - want_w| / w1, multiplied out. */
      if (want_h > 0
          && (h2 == want_h || want_w <= 0
              || (gint64)w2 * ABS (h2 - want_h)
                     < (gint64)ABS (w1 - want_w) * h1))
        {
          w1 = w2;
          h1 = h2;
        }
    }
  gst_structure_set (outs, "width", G_TYPE_INT, w1, "height", G_TYPE_INT, h1,
                     NULL);
}

/* Nothing fixed: the source's size where the PAR that keeps the display
 * aspect ratio at it is allowed; otherwise the nearest allowed PAR, and
 * the width (else the height) that keeps the ratio at it. */
static void
gst_texel_caps_fixate_all_free (GstStructure *outs, const GValue *par,
                                const GstTexelSourceShape *src)
{
  gint h = gst_texel_caps_nearest_int (outs, "height", src->h);
  gint w = gst_texel_caps_nearest_int (outs, "width", src->w);
  gint n, d, set_n, set_d, want;

  if (!gst_texel_caps_par_for_size (src, w, h, &n, &d))
    return;
  gst_texel_caps_nearest_par (outs, par, n, d, &set_n, &set_d);
  if (set_n != n || set_d != d)
    {
      want = gst_texel_caps_size_for_par (src, TRUE, h, set_n, set_d);
      if (want > 0 && gst_texel_caps_nearest_int (outs, "width", want) == want)
        {
          w = want;
        }
      else
        {
          want = gst_texel_caps_size_for_par (src, FALSE, w, set_n, set_d);
          if (want > 0
              && gst_texel_caps_nearest_int (outs, "height", want) == want)
            h = want;
        }
    }
  gst_structure_set (outs, "width", G_TYPE_INT, w, "height", G_TYPE_INT, h,
                     NULL);
  gst_texel_caps_set_par (outs, set_n, set_d);
}

gboolean
gst_texel_caps_source_shape (GstTexelSourceShape *src)
{
  src->w = MAX (src->w, 1);
  src->h = MAX (src->h, 1);
  if (src->par_n <= 0 || src->par_d <= 0)
    src->par_n = src->par_d = 1;
  return gst_util_fraction_multiply (src->w, src->h, src->par_n, src->par_d,
                                     &src->dar_n, &src->dar_d);
}

void
gst_texel_caps_fixate_size (GstStructure *outs, const GstTexelSourceShape *src)
{
  const GValue *par = gst_structure_get_value (outs, "pixel-aspect-ratio");
  GValue any_par = G_VALUE_INIT;
  gint w = 0, h = 0, n, d;

  /* No pixel-aspect-ratio downstream: any. */
  if (!par)
    {
      g_value_init (&any_par, GST_TYPE_FRACTION_RANGE);
      gst_value_set_fraction_range_full (&any_par, 1, G_MAXINT, G_MAXINT, 1);
      par = &any_par;
    }
  gst_structure_get_int (outs, "width", &w);
  gst_structure_get_int (outs, "height", &h);
  if (w && h)
    {
      /* The size is settled: the PAR that keeps the display aspect ratio,
       * or the nearest allowed (borders or a stretch then). */
      if (!gst_value_is_fixed (par)
          && gst_texel_caps_par_for_size (src, w, h, &n, &d))
        {
          if (gst_structure_has_field (outs, "pixel-aspect-ratio"))
            gst_structure_fixate_field_nearest_fraction (
                outs, "pixel-aspect-ratio", n, d);
          else
            gst_texel_caps_set_par (outs, n, d);
        }
    }
  else if (w || h)
    {
      gst_texel_caps_fixate_one_free (outs, par, src, h != 0, w ? w : h);
    }
  else if (gst_value_is_fixed (par))
    {
      gst_texel_caps_fixate_at_par (outs, par, src);
    }
  else
    {
      gst_texel_caps_fixate_all_free (outs, par, src);
    }
  if (par == &any_par)
    g_value_unset (&any_par);
}
