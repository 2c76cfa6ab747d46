/* gst-texel: GstTexelBase's negotiated configuration: the infos the
 * caps give (set_info), the subclass's prepare for them (again when a
 * setting changed), and the configurations refused, whose error is posted
 * once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

/* The negotiated configuration failed and its error is posted. @serial:
 * the settings it was made with. */
static void
gst_texel_base_remember_refusal (GstTexelBase *self, guint serial)
{
  GstTexelBasePrivate *priv = PRIV (self);

  priv->refused = TRUE;
  priv->refused_serial = serial;
  priv->refused_in = GST_VIDEO_FILTER (self)->in_info;
  priv->refused_out = GST_VIDEO_FILTER (self)->out_info;
  priv->refused_in_device = priv->in_caps_device;
  priv->refused_out_device = priv->out_caps_device;
}

/* Whether caps are the ones refused last, with no property changed since:
 * their error is on the bus already, once. */
static gboolean
gst_texel_base_refused_before (GstTexelBase *self, GstVideoInfo *in_info,
                               gboolean in_device, GstVideoInfo *out_info,
                               gboolean out_device)
{
  GstTexelBasePrivate *priv = PRIV (self);
  guint serial;

  GST_OBJECT_LOCK (self);
  serial = priv->settings_serial;
  GST_OBJECT_UNLOCK (self);
  return priv->refused && serial == priv->refused_serial
         && in_device == priv->refused_in_device
         && out_device == priv->refused_out_device
         && gst_video_info_is_equal (in_info, &priv->refused_in)
         && gst_video_info_is_equal (out_info, &priv->refused_out);
}

/* Frames larger than GST_TEXEL_MAX_FRAME_BYTES are refused at negotiation,
 * before any pool allocates one. */
static gboolean
gst_texel_base_frames_fit (GstTexelBase *self, GstVideoInfo *in_info,
                           GstVideoInfo *out_info)
{
  GstVideoInfo *infos[2] = { in_info, out_info };
  guint i;

  for (i = 0; i < 2; i++)
    {
      GstVideoInfo *info = infos[i];

      if ((guint64)GST_VIDEO_INFO_SIZE (info) > GST_TEXEL_MAX_FRAME_BYTES)
        {
          GST_ELEMENT_ERROR (
              self, CORE, NEGOTIATION,
              ("%s frames of %dx%d %s need %" G_GSIZE_FORMAT
               " bytes each, more "
               "than the %" G_GUINT64_FORMAT " MiB a texel element allocates "
               "per frame",
               i == 0 ? "Input" : "Output", GST_VIDEO_INFO_WIDTH (info),
               GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info),
               GST_VIDEO_INFO_SIZE (info), GST_TEXEL_MAX_FRAME_BYTES >> 20),
              ("see docs/reliability.md, \"Frame size limit\""));
          return FALSE;
        }
    }
  return TRUE;
}

/* The subclass's prepare, in the element's CUDA context on the GPU path. */
static gboolean
gst_texel_base_prepare_subclass (GstTexelBase *self)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  GstTexelBaseClass *klass = GST_TEXEL_BASE_GET_CLASS (self);

  if (PRIV (self)->cuda)
    return gst_texel_base_prepare_cuda (self);
  return klass->prepare (self, &filter->in_info, &filter->out_info);
}

/* Runs the subclass's prepare and, on the GPU path, sizes the buffers
 * (again only when the caps or the banding changed). */
gboolean
gst_texel_base_prepare (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);
  guint serial;

  GST_OBJECT_LOCK (self);
  priv->dirty = FALSE;
  serial = priv->settings_serial;
  GST_OBJECT_UNLOCK (self);
  priv->banding = FALSE;
  if (!gst_texel_base_prepare_subclass (self))
    {
      gst_texel_base_remember_refusal (self, serial);
      return FALSE;
    }
  /* Subclasses compare video infos, which do not say where frames live:
   * between system, CUDA and NVMM memory a frame is always processed. */
  if (!gst_texel_base_keeps_memory (self))
    gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), FALSE);
  if (priv->cuda
      && (!priv->configured || priv->banding != priv->configured_banding)
      && !gst_texel_base_configure_cuda (self,
                                         &GST_VIDEO_FILTER (self)->in_info,
                                         &GST_VIDEO_FILTER (self)->out_info))
    {
      gst_texel_base_remember_refusal (self, serial);
      return FALSE;
    }
  priv->refused = FALSE;
  return TRUE;
}

gboolean
gst_texel_base_set_info (GstVideoFilter *filter, GstCaps *incaps,
                         GstVideoInfo *in_info, GstCaps *outcaps,
                         GstVideoInfo *out_info)
{
  GstTexelBase *self = GST_TEXEL_BASE (filter);
  gboolean in_nvmm = gst_texel_caps_nvmm (incaps);
  gboolean out_nvmm = gst_texel_caps_nvmm (outcaps);
  gboolean in_device = gst_texel_caps_cuda_memory (incaps) || in_nvmm;
  gboolean out_device = gst_texel_caps_cuda_memory (outcaps) || out_nvmm;
  guint serial;

  if (gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (in_info))
          == TEXEL_FORMAT_UNKNOWN
      || gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (out_info))
             == TEXEL_FORMAT_UNKNOWN)
    return FALSE;
  if (gst_texel_base_refused_before (self, in_info, in_device, out_info,
                                     out_device))
    {
      GST_DEBUG_OBJECT (self, "configuration refused before, error posted");
      return FALSE;
    }
  /* GstVideoFilter stores the infos only after this returns; prepare
   * reads them from the filter. */
  filter->in_info = *in_info;
  filter->out_info = *out_info;
  PRIV (self)->in_caps_device = in_device;
  PRIV (self)->out_caps_device = out_device;
  PRIV (self)->in_caps_nvmm = in_nvmm;
  PRIV (self)->out_caps_nvmm = out_nvmm;
  PRIV (self)->configured = FALSE;
  if (!gst_texel_base_frames_fit (self, in_info, out_info))
    {
      GST_OBJECT_LOCK (self);
      serial = PRIV (self)->settings_serial;
      GST_OBJECT_UNLOCK (self);
      gst_texel_base_remember_refusal (self, serial);
      return FALSE;
    }
  PRIV (self)->in_flight = gst_texel_base_resolve_in_flight (self);
  return gst_texel_base_prepare (self);
}

/* Whether frames can be processed. After caps were refused,
 * GstBaseTransform does not offer again caps equal to the ones in force
 * before; once a setting changed they are tried again here. While the
 * configuration stays refused its error is not posted again. */
GstFlowReturn
gst_texel_base_check_negotiated (GstTexelBase *self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *in, *out;
  gboolean ok = FALSE;

  if (GST_VIDEO_FILTER (self)->negotiated)
    return GST_FLOW_OK;
  in = gst_pad_get_current_caps (trans->sinkpad);
  out = gst_pad_get_current_caps (trans->srcpad);
  if (in && out)
    ok = GST_BASE_TRANSFORM_GET_CLASS (self)->set_caps (trans, in, out);
  gst_clear_caps (&in);
  gst_clear_caps (&out);
  if (ok)
    return GST_FLOW_OK;
  if (!PRIV (self)->refused)
    GST_ELEMENT_ERROR (self, CORE, NOT_IMPLEMENTED, (NULL), ("unknown format"));
  return GST_FLOW_NOT_NEGOTIATED;
}
