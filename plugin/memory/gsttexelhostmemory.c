/* gst-texel: GstMemory in pinned, mapped host memory, and pools of it.
 * Built only with CUDA (have_cuda).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "memory/gsttexelhostmemory.h"
#include "device/gsttexelcuda.h"

#include <string.h>

#include <cuda_runtime_api.h>
#include "texel-fault.h"

GST_DEBUG_CATEGORY_STATIC (gst_texel_host_memory_debug);
#define GST_CAT_DEFAULT gst_texel_host_memory_debug

/* Fixed from creation to finalize (any thread allocates and frees). */
typedef struct
{
  GstAllocator parent;
  gint device;
  /* Pinned memory belongs to the context that allocated it: the allocator
   * (which every memory refs) keeps it alive. NULL: the primary context. */
  GstCudaContext *context;
} GstTexelHostAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstTexelHostAllocatorClass;

/* Fixed from allocation to free: read by any thread that maps it. */
typedef struct
{
  GstMemory mem;
  guint8 *host;   /* start of the allocation */
  guint8 *device; /* its device address */
} GstTexelHostMemory;

GType gst_texel_host_allocator_get_type (void);
G_DEFINE_TYPE (GstTexelHostAllocator, gst_texel_host_allocator,
               GST_TYPE_ALLOCATOR);

static GstMemory *
texel_host_memory_wrap (GstAllocator *allocator, GstMemory *parent,
                        guint8 *host, guint8 *device, gsize maxsize,
                        gsize align, gsize offset, gsize size,
                        GstMemoryFlags flags)
{
  GstTexelHostMemory *mem = g_new0 (GstTexelHostMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (mem), flags, allocator, parent, maxsize,
                   align, offset, size);
  mem->host = host;
  mem->device = device;
  return GST_MEMORY_CAST (mem);
}

static GstMemory *
gst_texel_host_allocator_alloc (GstAllocator *allocator, gsize size,
                                GstAllocationParams *params)
{
  GstTexelHostAllocator *self = (GstTexelHostAllocator *)allocator;
  gsize align = params->align | GST_TEXEL_HOST_MEMORY_ALIGN;
  gsize maxsize = size + params->prefix + params->padding;
  void *host = NULL, *device = NULL;
  int prev;
  cudaError_t err;

  /* cudaHostAlloc returns page-aligned memory, more than any texture or
   * DMA engine asks for. */
  err = gst_texel_cuda_context_enter (self->context, self->device, &prev);
  if (err == cudaSuccess)
    err = TEXEL_FAULTY (
        TEXEL_FAULT_HOST_ALLOC,
        cudaHostAlloc (&host, maxsize,
                       cudaHostAllocMapped | cudaHostAllocPortable));
  if (err == cudaSuccess)
    err = cudaHostGetDevicePointer (&device, host, 0);
  if (err != cudaSuccess && host)
    cudaFreeHost (host);
  gst_texel_cuda_context_leave (self->context, prev);
  if (err != cudaSuccess)
    {
      GST_ERROR_OBJECT (allocator,
                        "cudaHostAlloc of %" G_GSIZE_FORMAT " bytes failed: %s",
                        maxsize, cudaGetErrorString (err));
      return NULL;
    }
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) && params->prefix)
    memset (host, 0, params->prefix);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PADDED) && params->padding)
    memset ((guint8 *)host + params->prefix + size, 0, params->padding);

  return texel_host_memory_wrap (allocator, NULL, host, device, maxsize, align,
                                 params->prefix, size, params->flags);
}

static void
gst_texel_host_allocator_free (GstAllocator *allocator, GstMemory *memory)
{
  GstTexelHostAllocator *self = (GstTexelHostAllocator *)allocator;
  GstTexelHostMemory *mem = (GstTexelHostMemory *)memory;
  int prev;

  /* Shared sub-memories point into their parent's allocation. */
  if (!memory->parent)
    {
      gst_texel_cuda_context_enter (self->context, self->device, &prev);
      cudaFreeHost (mem->host);
      gst_texel_cuda_context_leave (self->context, prev);
    }
  g_free (mem);
}

static gpointer
texel_host_memory_map (GstMemory *memory, gsize maxsize, GstMapFlags flags)
{
  return ((GstTexelHostMemory *)memory)->host;
}

static void
texel_host_memory_unmap (GstMemory *memory)
{
}

static GstMemory *
texel_host_memory_share (GstMemory *memory, gssize offset, gssize size)
{
  GstTexelHostMemory *mem = (GstTexelHostMemory *)memory;
  GstMemory *parent = memory->parent ? memory->parent : memory;

  if (size == -1)
    size = memory->size - offset;
  return texel_host_memory_wrap (
      memory->allocator, parent, mem->host, mem->device, memory->maxsize,
      memory->align, memory->offset + offset, size,
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY);
}

static gboolean
texel_host_memory_is_span (GstMemory *mem1, GstMemory *mem2, gsize *offset)
{
  GstTexelHostMemory *a = (GstTexelHostMemory *)mem1;
  GstTexelHostMemory *b = (GstTexelHostMemory *)mem2;

  if (offset)
    *offset = mem1->offset - (mem1->parent ? mem1->parent->offset : 0);
  return a->host == b->host && mem1->offset + mem1->size == mem2->offset;
}

static void
gst_texel_host_allocator_finalize (GObject *object)
{
  GstTexelHostAllocator *self = (GstTexelHostAllocator *)object;

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_texel_host_allocator_parent_class)->finalize (object);
}

static void
gst_texel_host_allocator_class_init (GstTexelHostAllocatorClass *klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_texel_host_allocator_finalize;
  allocator_class->alloc = gst_texel_host_allocator_alloc;
  allocator_class->free = gst_texel_host_allocator_free;
  GST_DEBUG_CATEGORY_INIT (gst_texel_host_memory_debug, "texelhostmemory", 0,
                           "gst-texel pinned host memory");
}

static void
gst_texel_host_allocator_init (GstTexelHostAllocator *self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_TEXEL_HOST_MEMORY_TYPE;
  alloc->mem_map = texel_host_memory_map;
  alloc->mem_unmap = texel_host_memory_unmap;
  alloc->mem_share = texel_host_memory_share;
  alloc->mem_is_span = texel_host_memory_is_span;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_texel_host_allocator_new (gint device, GstCudaContext *context)
{
  GstTexelHostAllocator *self
      = g_object_new (gst_texel_host_allocator_get_type (), NULL);

  gst_object_ref_sink (self);
  self->device = device;
  self->context = context ? gst_object_ref (context) : NULL;
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_is_texel_host_memory (GstMemory *mem)
{
  return mem && mem->allocator
         && G_TYPE_CHECK_INSTANCE_TYPE (mem->allocator,
                                        gst_texel_host_allocator_get_type ());
}

guint8 *
gst_texel_host_memory_device_pointer (GstMemory *mem, const guint8 *host)
{
  GstTexelHostMemory *hm = (GstTexelHostMemory *)mem;

  return hm->device + (host - hm->host);
}

GstBufferPool *
gst_texel_host_pool_new (GstAllocator *allocator, GstCaps *caps, guint size,
                         guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  params.align = GST_TEXEL_HOST_MEMORY_ALIGN;
  gst_buffer_pool_config_set_params (config, caps, size, min_buffers,
                                     max_buffers);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config))
    {
      gst_object_unref (pool);
      return NULL;
    }
  return pool;
}
