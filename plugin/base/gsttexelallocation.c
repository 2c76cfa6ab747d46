/* gst-texel: GstTexelBase's allocation on the GPU path: pinned, mapped
 * host memory proposed upstream and decided downstream, or GstCudaMemory
 * of the element's context where the caps say memory:CUDAMemory. Built
 * only with CUDA (have_cuda): the CPU path leaves allocation to
 * GstVideoFilter.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/gsttexelbase-private.h"
#include "memory/gsttexelhostmemory.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

static GstBufferPool *
gst_texel_base_new_pool (GstTexelBase *self, GstCaps *caps, guint min,
                         guint max)
{
  GstVideoInfo info;

  if (!caps || !gst_video_info_from_caps (&info, caps))
    return NULL;
  return gst_texel_host_pool_new (PRIV (self)->host_allocator, caps, info.size,
                                  min, max);
}

/* Upstream writes its frames straight into pinned, mapped memory of ours:
 * on a Jetson the kernels then read them in place. */
gboolean
gst_texel_base_propose_pools (GstTexelBase *self, GstQuery *query)
{
  GstCaps *caps;
  gboolean need_pool;
  GstBufferPool *pool;
  GstAllocationParams params;
  guint min;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (HAVE_GST_CUDA && gst_texel_caps_cuda_memory (caps))
    return gst_texel_cuda_memory_propose_pool (PRIV (self)->cuda_context, query,
                                               caps, need_pool,
                                               gst_texel_base_pool_min (self));
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_allocation_params_init (&params);
  params.align = GST_TEXEL_HOST_MEMORY_ALIGN;
  gst_query_add_allocation_param (query, PRIV (self)->host_allocator, &params);
  if (!need_pool)
    return TRUE;
  min = gst_texel_base_pool_min (self);
  pool = gst_texel_base_new_pool (self, caps, min, 0);
  if (!pool)
    return FALSE;
  {
    GstVideoInfo info;

    gst_video_info_from_caps (&info, caps);
    gst_query_add_allocation_pool (query, pool, info.size, min, 0);
  }
  gst_object_unref (pool);
  return TRUE;
}

/* Output frames go to pinned memory of ours: downloaded by DMA at full
 * rate, or written in place by the kernel in zero-copy mode. With
 * memory:CUDAMemory downstream, to CUDA memory of the element's context,
 * which the next CUDA element reads in place. */
gboolean
gst_texel_base_decide_pool (GstTexelBase *self, GstQuery *query)
{
  GstCaps *caps;
  GstBufferPool *pool;
  GstVideoInfo info;
  guint min = 0, max = 0, size;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);
  /* Downstream's buffers and ours: a bounded pool too small for both would
   * stall the stream. */
  min += gst_texel_base_pool_min (self);
  if (max != 0 && max < min)
    max = min;
  size = info.size;
  if (HAVE_GST_CUDA && gst_texel_caps_cuda_memory (caps))
    pool = gst_texel_cuda_memory_pool_new (PRIV (self)->cuda_context, caps, min,
                                           max, &size);
  else
    pool = gst_texel_base_new_pool (self, caps, min, max);
  if (!pool)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
