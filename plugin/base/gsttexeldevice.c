/* gst-texel: GstTexelBase's GPU path opened and closed: the device and
 * its capabilities, the pipeline's CUDA context, the memory strategy
 * (zero-copy or staged), the engine, the kernels' context and the
 * subclass's GPU resources, in the element's CUDA context. Built only with
 * CUDA (have_cuda); gsttexelbase-private.h has the fallbacks of CPU-only
 * builds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/gsttexelbase-private.h"
#include "memory/gsttexelhostmemory.h"
#include "texel-cuda.h"
#include "texel-fault.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

TexelCudaContext *
gst_texel_base_kernel_context (GstTexelBase *base)
{
  return PRIV (base)->kernel_context;
}

gboolean
gst_texel_base_take_sums (GstTexelBase *base, guint64 *tag, guint64 *words,
                          guint n_words)
{
  unsigned long long sums[TEXEL_CUDA_SUMS_WORDS];
  uint64_t unit_tag;
  guint i;

  g_return_val_if_fail (n_words <= TEXEL_CUDA_SUMS_WORDS, FALSE);
  if (!texel_cuda_context_take_sums (PRIV (base)->kernel_context, &unit_tag,
                                     sums))
    return FALSE;
  *tag = unit_tag;
  for (i = 0; i < n_words; i++)
    words[i] = sums[i];
  return TRUE;
}

static void
gst_texel_base_log_caps (GstTexelBase *self, const TexelCudaCaps *c,
                         const gchar *decision)
{
  const gchar *nvmm;

  gst_texel_nvmm_available (&nvmm);
  GST_INFO_OBJECT (
      self,
      "CUDA device %d '%s' sm_%d%d, %d SMs, integrated=%d "
      "canMapHostMemory=%d asyncEngineCount=%d concurrentKernels=%d "
      "unifiedAddressing=%d pageableMemoryAccess=%d hostRegisterSupported=%d "
      "texturePitchAlignment=%" G_GSIZE_FORMAT " maxTexture2DLinear=%dx%d "
      "(pitch %d), driver %d.%d, runtime %d.%d; %s -> %s",
      c->device, c->name, c->cc_major, c->cc_minor, c->sm_count, c->integrated,
      c->can_map_host_memory, c->async_engine_count, c->concurrent_kernels,
      c->unified_addressing, c->pageable_memory_access,
      c->host_register_supported, c->texture_pitch_alignment,
      c->max_texture_2d_linear[0], c->max_texture_2d_linear[1],
      c->max_texture_2d_linear[2], c->driver_version / 1000,
      (c->driver_version % 1000) / 10, c->runtime_version / 1000,
      (c->runtime_version % 1000) / 10, nvmm, decision);
}

/* Picks zero-copy or staged for a usable device; FALSE when the choice is
 * impossible (zero-copy forced on a device that cannot map host memory). */
static gboolean
gst_texel_base_choose_memory (GstTexelBase *self, const TexelCudaCaps *c,
                              gboolean *zero_copy, const gchar **why)
{
  switch (PRIV (self)->memory_mode)
    {
      case GST_TEXEL_MEMORY_MODE_ZERO_COPY:
        *zero_copy = TRUE;
        *why = "zero-copy (forced by memory-mode)";
        return c->can_map_host_memory;
      case GST_TEXEL_MEMORY_MODE_STAGED:
        *zero_copy = FALSE;
        *why = "staged (forced by memory-mode)";
        return TRUE;
      default:
        *zero_copy = c->integrated && c->can_map_host_memory;
        *why = *zero_copy ? "zero-copy (integrated GPU: host memory is device "
                            "memory)"
                          : "staged (discrete GPU: copies overlapping kernels)";
        return TRUE;
    }
}

/* The kernels' context, made in the element's CUDA context like all its
 * GPU work (texel-kernel.h: the caller owns the current device) and told
 * when the element's frames complete. */
static gboolean
gst_texel_base_open_kernels (GstTexelBase *self, gint device, int *err)
{
  GstTexelBasePrivate *priv = PRIV (self);
  const GstTexelKernelDesc *desc = GST_TEXEL_BASE_GET_CLASS (self)->kernel;
  GstTexelKernelCall kernel
      = { desc->cuda, desc->input_rows, gst_texel_base_plan (self), NULL };
  int undo;

  *err = gst_texel_cuda_context_enter (priv->cuda_context, device, &undo);
  if (*err == 0)
    *err = texel_cuda_context_new (device, &priv->kernel_context);
  if (*err == 0)
    texel_cuda_context_set_generic_sampler (
        priv->kernel_context,
        g_strcmp0 (g_getenv ("GST_TEXEL_SAMPLER"), "generic") == 0);
  gst_texel_cuda_context_leave (priv->cuda_context, undo);
  if (*err)
    {
      GST_WARNING_OBJECT (self, "cannot create the kernels' context: %s",
                          texel_cuda_error_string (*err));
      return FALSE;
    }
  texel_cuda_context_set_fence (priv->kernel_context,
                                gst_texel_in_flight_get_fence (priv->cuda));
  kernel.context = priv->kernel_context;
  gst_texel_in_flight_set_kernel (priv->cuda, &kernel);
  /* Only in the primary context, where libnvbufsurface and the EGL
   * registrations live: a texture cannot read another context's array
   * (cudaErrorPeerAccessNotEnabled), a copy can. */
  if (GST_TEXEL_BASE_GET_CLASS (self)->kernel->reads_arrays
      && priv->cuda_context == NULL)
    gst_texel_in_flight_set_array_reader (priv->cuda, priv->kernel_context);
  return TRUE;
}

/* The subclass's GPU resources, then the kernels' context. */
static void
gst_texel_base_close_kernels (GstTexelBase *self)
{
  GstTexelBaseClass *klass = GST_TEXEL_BASE_GET_CLASS (self);
  GstTexelBasePrivate *priv = PRIV (self);
  int undo;

  /* Even where entering fails: the subclass frees its host state. */
  gst_texel_cuda_context_enter (priv->cuda_context, priv->active_device, &undo);
  if (klass->close_cuda)
    klass->close_cuda (self);
  if (priv->cuda)
    gst_texel_in_flight_set_array_reader (priv->cuda, NULL);
  texel_cuda_context_free (priv->kernel_context);
  priv->kernel_context = NULL;
  gst_texel_cuda_context_leave (priv->cuda_context, undo);
}

/* Detaches the element's GstTexelInFlight for freeing, its last counters into
 * @stats (may be NULL) and last_stats. Under the object lock, which the
 * stats property reads it under, so a reader on another thread never sees
 * it freed. */
static GstTexelInFlight *
gst_texel_base_take_cuda (GstTexelBase *self, GstTexelCudaStats *stats)
{
  GstTexelBasePrivate *priv = PRIV (self);
  GstTexelInFlight *cuda;

  GST_OBJECT_LOCK (self);
  cuda = priv->cuda;
  priv->cuda = NULL;
  gst_texel_in_flight_get_stats (cuda, &priv->last_stats);
  if (stats)
    *stats = priv->last_stats;
  GST_OBJECT_UNLOCK (self);
  return cuda;
}

/* Opens the GPU path (start); returns FALSE with @reason when it cannot. */
gboolean
gst_texel_base_open_cuda (GstTexelBase *self, const gchar **reason, int *err)
{
  GstTexelBasePrivate *priv = PRIV (self);
  TexelCudaCaps caps;
  gboolean zero_copy;
  const gchar *why;

  texel_fault_configure (g_getenv ("GST_TEXEL_FAULT"));
  if (GST_TEXEL_BASE_GET_CLASS (self)->kernel->cuda == NULL)
    {
      *reason = "the element has no CUDA kernel";
      return FALSE;
    }
  memset (&caps, 0, sizeof (caps));
  if (gst_texel_cuda_detect (priv->device_id, &caps, reason, err) == 0)
    return FALSE;
  if (!gst_texel_cuda_memory_find_context (GST_ELEMENT_CAST (self),
                                           priv->device_id, &priv->cuda_context,
                                           &caps, reason, err))
    return FALSE;
  if (!gst_texel_base_choose_memory (self, &caps, &zero_copy, &why))
    {
      *reason = "zero-copy asked for, but the device cannot map host memory";
      return FALSE;
    }
  gst_texel_base_log_caps (self, &caps, why);
  priv->cuda = gst_texel_in_flight_new (
      caps.device, priv->cuda_context, zero_copy, caps.async_engine_count, err);
  if (!priv->cuda)
    {
      *reason = gst_texel_cuda_error_string (*err);
      return FALSE;
    }
  priv->host_allocator
      = gst_texel_host_allocator_new (caps.device, priv->cuda_context);
  if (!gst_texel_base_open_kernels (self, caps.device, err))
    {
      gst_texel_in_flight_free (gst_texel_base_take_cuda (self, NULL));
      gst_clear_object (&priv->host_allocator);
      *reason = "the element could not set up its GPU resources";
      return FALSE;
    }
  priv->active_device = caps.device;
  priv->integrated = caps.integrated;
  priv->active_memory = zero_copy ? GST_TEXEL_ACTIVE_MEMORY_ZERO_COPY
                                  : GST_TEXEL_ACTIVE_MEMORY_STAGED;
  gst_texel_base_finisher_start (self);
  *reason = why;
  return TRUE;
}

gboolean
gst_texel_base_configure_cuda (GstTexelBase *self, GstVideoInfo *in_info,
                               GstVideoInfo *out_info)
{
  GstTexelBasePrivate *priv = PRIV (self);
  int err;

  err = gst_texel_in_flight_configure (
      priv->cuda, gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (in_info)),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      gst_texel_format_from_video (GST_VIDEO_INFO_FORMAT (out_info)),
      GST_VIDEO_INFO_WIDTH (out_info), GST_VIDEO_INFO_HEIGHT (out_info),
      (priv->in_caps_device ? GST_TEXEL_IN_DEVICE : 0)
          | (priv->out_caps_device ? GST_TEXEL_OUT_DEVICE : 0),
      priv->banding, priv->in_flight);
  if (err)
    {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
                         ("Could not allocate GPU buffers for %dx%d frames: %s",
                          GST_VIDEO_INFO_WIDTH (in_info),
                          GST_VIDEO_INFO_HEIGHT (in_info),
                          gst_texel_cuda_error_string (err)),
                         ("CUDA error %d", err));
      return FALSE;
    }
  priv->configured = TRUE;
  priv->configured_banding = priv->banding;
  return TRUE;
}

/* Closes the GPU path (stop): frames in flight dropped, the subclass's
 * resources and the element's freed, their counters logged. */
void
gst_texel_base_close_cuda (GstTexelBase *self)
{
  GstTexelCudaStats st;

  gst_texel_base_finisher_stop (self);
  gst_texel_base_flush (self);
  gst_texel_base_close_kernels (self);
  gst_texel_in_flight_free (gst_texel_base_take_cuda (self, &st));
  gst_clear_object (&PRIV (self)->host_allocator);
  GST_INFO_OBJECT (
      self,
      "%" G_GUINT64_FORMAT " frames: %" G_GUINT64_FORMAT
      " bytes to the device, %" G_GUINT64_FORMAT
      " to the host, %" G_GUINT64_FORMAT
      " copied on the host, %" G_GUINT64_FORMAT
      " copied on the device, %" G_GUINT64_FORMAT " memories registered",
      st.frames, st.bytes_to_device, st.bytes_to_host, st.bytes_host_copied,
      st.bytes_device_copied, st.registrations);
}

/* The subclass's prepare, in the element's CUDA context: it may create GPU
 * resources there (texeladjust's 3D LUT). */
gboolean
gst_texel_base_prepare_cuda (GstTexelBase *self)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  GstTexelBaseClass *klass = GST_TEXEL_BASE_GET_CLASS (self);
  GstTexelBasePrivate *priv = PRIV (self);
  gboolean ok = FALSE;
  int undo;

  if (gst_texel_cuda_context_enter (priv->cuda_context, priv->active_device,
                                    &undo)
      == 0)
    ok = klass->prepare (self, &filter->in_info, &filter->out_info);
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
                       ("Cannot make the CUDA context current"), (NULL));
  gst_texel_cuda_context_leave (priv->cuda_context, undo);
  return ok;
}

/* The GPU path's counters so far, where it is open. */
void
gst_texel_base_cuda_stats (GstTexelBase *self, GstTexelCudaStats *stats)
{
  if (PRIV (self)->cuda)
    gst_texel_in_flight_get_stats (PRIV (self)->cuda, stats);
}
