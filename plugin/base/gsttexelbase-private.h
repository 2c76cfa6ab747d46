/* gst-texel: what the units of GstTexelBase share, and only they: no
 * file outside plugin/base/ includes this header.
 *
 * The base class is split by job (docs/design.md, "The plugin's layers"):
 *  - gsttexelbase.c: the class, start/stop, properties, and dispatch of
 *    every vfunc to the unit that does the work;
 *  - gsttexelprepare.c: the negotiated configuration (set_info, the
 *    subclass's prepare, refused configurations);
 *  - gsttexelcaps.c: which memories the element offers, the end of
 *    transform_caps, caps queries, size fixation;
 *  - gsttexelframe.c: mapping and checking frames, dropped buffers;
 *  - gsttexelcpu.c: the CPU path's band workers;
 * with CUDA (have_cuda) only:
 *  - gsttexeldevice.c: opening the GPU path (detection, the pipeline's
 *    context, memory strategy, the engine, the kernels' context, the
 *    subclass's GPU resources);
 *  - gsttexeloutput.c: the GPU path's output, a short loop over the
 *    element's engine (engine/gsttexelinflight.h, which owns every GPU
 *    frame from submit to finish), and the finisher;
 *  - gsttexelallocation.c: pools of pinned or CUDA memory.
 * The memory types (memory/) and the engine take what they need of the
 * element as arguments. The units of CUDA builds are declared here with
 * static inline fallbacks for the builds that leave them out, so no .c
 * file needs an #if.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_BASE_PRIVATE_H__
#define __GST_TEXEL_BASE_PRIVATE_H__

#include "base/gsttexelbase.h"
#include "engine/gsttexelinflight.h"
#include "memory/gsttexelcudamemory.h"
#include "memory/gsttexelimage.h"
#include "memory/gsttexelnvmm.h"

G_BEGIN_DECLS

#define MAX_N_THREADS 64
#define MAX_FRAMES_IN_FLIGHT 3

/* Who may touch each field. Threads: the state change thread (start,
 * stop: no streaming thread runs then), the streaming thread (caps
 * events, buffers, queries from it, allocation), any thread (properties,
 * queries from the application or other pads). */
typedef struct
{
  /* Properties: object lock. start reads them without it: they are
   * GST_PARAM_MUTABLE_READY, so no one writes them while it runs. */
  gint device_id;
  GstTexelBackend backend;
  GstTexelMemoryMode memory_mode;
  gint frames_in_flight;
  guint n_threads;

  /* Chosen by start, reset by stop (state change thread), written
   * without the object lock; read under it by get_property and the caps
   * functions (any thread: an enum, seen before or after a change), and
   * without it by the streaming thread (fixed while it runs). */
  GstTexelBackend active_backend;
  GstTexelActiveMemory active_memory;
  gint active_device;
  gboolean integrated; /* the GPU path's device shares host memory */
  /* The GPU path (NULL: the CPU path), the owner of every frame on the
   * GPU. Set by start; used by the streaming thread; cleared by stop under
   * the object lock (gst_texel_base_take_cuda), under which the stats
   * property reads it. */
  GstTexelInFlight *cuda;
  /* The kernels' state on the device (texel-cuda.h), told of the frames'
   * completion by @cuda's fence: made by start, freed by stop before
   * @cuda; used by the streaming thread and the subclass's prepare. */
  TexelCudaContext *kernel_context;
  /* The pinned, mapped host memory of the GPU path's pools
   * (memory/gsttexelhostmemory.h): made by start with @cuda, dropped by
   * stop after it; used by allocation queries (streaming thread). */
  GstAllocator *host_allocator;
  /* The pipeline's CUDA context (GstContext "gst.cuda.context"), shared
   * with GStreamer's CUDA elements; NULL: the device's primary context,
   * and no memory:CUDAMemory. Set by set_context (the application's or a
   * bin's thread, or start's through need-context) and start, dropped by
   * stop; read by the streaming thread and by context queries (any
   * thread). No lock guards it: GStreamer's CUDA elements hold theirs
   * the same way, set before or while starting. */
  GstCudaContext *cuda_context;
  gboolean warned_foreign_context; /* streaming thread */

  /* Streaming thread (set_info and prepare, from the caps event or the
   * first buffer), from here to in_flight. */
  /* negotiated: memory:CUDAMemory on the sink / source caps */
  gboolean in_caps_device, out_caps_device;
  /* negotiated: memory:NVMM on the sink / source caps (gsttexelnvmm.c);
   * in_caps_device is set with in_caps_nvmm */
  gboolean in_caps_nvmm, out_caps_nvmm;
  gboolean banding;    /* asked for by the subclass's prepare */
  gboolean configured; /* GPU buffers sized for the current caps */
  gboolean configured_banding;
  /* The configuration whose prepare last failed (and posted its error):
   * while neither caps nor properties change it is refused again without a
   * second message (GstBaseTransform retries negotiation on every buffer),
   * and no frame is processed with it. */
  gboolean refused;
  guint refused_serial;
  GstVideoInfo refused_in, refused_out;
  gboolean refused_in_device, refused_out_device;
  /* frames_in_flight resolved for the caps; also read (a gint, unlocked)
   * by latency queries on any thread. */
  gint in_flight;

  /* Object lock: written by gst_texel_base_mark_dirty on any thread. */
  gboolean dirty;        /* prepare must run before the next frame */
  guint settings_serial; /* counts gst_texel_base_mark_dirty */

  /* Frames processed on the CPU path: streaming thread; the stats
   * property reads it unlocked (it may lag by a frame). */
  guint64 cpu_frames;
  /* NVMM surface arrays registered with CUDA (gsttexelnvmmegl.c, cached
   * per surface): streaming thread, read unlocked like cpu_frames. */
  guint64 nvmm_registrations;
  /* CPU path workers for row bands: created by start, freed by stop;
   * cpu_threads written under the object lock. */
  GThreadPool *cpu_pool;
  guint cpu_threads;
  /* cpu_lock guards cpu_bands_left, between the streaming thread and
   * the workers; cpu_cond signals it reaching 0. */
  GMutex cpu_lock;
  GCond cpu_cond;
  guint cpu_bands_left;
  /* Of the GPU path, kept after stop: object lock (start resets it
   * before streaming). */
  GstTexelCudaStats last_stats;
  /* The finisher (gsttexeloutput.c): a thread that pushes the frames in
   * flight the GPU has finished while the streaming thread waits for
   * input. Started with the GPU path and joined before it closes (state
   * change thread). finish_lock guards the fields after it; finish_cond
   * wakes the thread when armed or stopped. */
  GThread *finisher;
  GMutex finish_lock;
  GCond finish_cond;
  gboolean finish_stop;
  /* Set by the streaming thread leaving a frame held, cleared by the
   * finisher taking it on. */
  gboolean finish_armed;
  gboolean finish_sleeping;  /* the finisher waits on finish_cond */
  TexelStream finish_stream; /* the oldest frame's when armed */
  /* What a push of the finisher returned, other than OK and FLUSHING:
   * returned upstream by the streaming thread's next buffer. */
  GstFlowReturn finish_flow;
  /* Inputs taken by the streaming thread (atomic): the finisher leaves
   * the frames to it when it has taken one since it was armed. */
  gint finish_inputs;
  gint finish_inputs_armed;
} GstTexelBasePrivate;

GST_DEBUG_CATEGORY_EXTERN (gst_texel_base_debug);

GstTexelBasePrivate *gst_texel_base_get_private (GstTexelBase *base);
#define PRIV(self) gst_texel_base_get_private (GST_TEXEL_BASE (self))

/* The plan the subclass's prepare built, which its kernels run on. */
static inline gconstpointer
gst_texel_base_plan (GstTexelBase *self)
{
  return G_STRUCT_MEMBER_P (
      self, GST_TEXEL_BASE_GET_CLASS (self)->kernel->plan_offset);
}

/* gsttexelprepare.c: the negotiated configuration. */
gboolean gst_texel_base_set_info (GstVideoFilter *filter, GstCaps *incaps,
                                  GstVideoInfo *in_info, GstCaps *outcaps,
                                  GstVideoInfo *out_info);
/* Runs the subclass's prepare and, on the GPU path, sizes the buffers.
 * FALSE: refused, its error posted. */
gboolean gst_texel_base_prepare (GstTexelBase *self);
/* Whether frames can be processed (negotiates again after a setting
 * changed); GST_FLOW_NOT_NEGOTIATED when not. */
GstFlowReturn gst_texel_base_check_negotiated (GstTexelBase *self);

/* gsttexelcaps.c */
/* Where a subclass's transform_caps does not call
 * gst_texel_base_finish_caps: keeps CUDA memory away from an element that
 * cannot take it. TRUE when @query is answered. */
gboolean gst_texel_base_caps_query_memory (GstTexelBase *self, GstQuery *query);

/* gsttexelframe.c */
/* The images of a mapped input and output frame, checked. Posts an error
 * and returns FALSE when a frame's layout does not fit its memory. */
gboolean gst_texel_base_frame_images (GstTexelBase *self,
                                      GstVideoFrame *in_frame,
                                      GstVideoFrame *out_frame, TexelImage *in,
                                      TexelImage *out);
/* Maps a frame for the element: CUDA memory it can use in place with
 * GST_MAP_CUDA (device addresses, nothing is copied), anything else in
 * host memory. */
gboolean gst_texel_base_map_frame (GstTexelBase *self, GstVideoFrame *frame,
                                   GstVideoInfo *info, GstBuffer *buffer,
                                   GstMapFlags flags);
/* Maps both frames of a transform (the output for writing). Returns
 * GST_FLOW_OK with both mapped, else nothing is mapped and it is
 * GST_BASE_TRANSFORM_FLOW_DROPPED (@inbuf cannot hold its frame: warned
 * about) or GST_FLOW_ERROR (posted). */
GstFlowReturn gst_texel_base_map_frames (GstTexelBase *self, GstBuffer *inbuf,
                                         GstBuffer *outbuf,
                                         GstVideoFrame *in_frame,
                                         GstVideoFrame *out_frame);
/* Warns about @inbuf, which cannot hold the frame its caps describe, and
 * drops it. */
GstFlowReturn gst_texel_base_invalid_buffer (GstTexelBase *self,
                                             GstBuffer *inbuf);

/* gsttexelcpu.c */
void gst_texel_base_cpu_start (GstTexelBase *self);
void gst_texel_base_cpu_stop (GstTexelBase *self);
/* A frame finished (GPU or CPU path): the subclass's frame_finished. */
void gst_texel_base_frame_finished (GstTexelBase *self);
void gst_texel_base_process_cpu (GstTexelBase *self, const TexelImage *in,
                                 TexelImage *out);

/* gsttexeldevice.c: the GPU path. */
#if HAVE_CUDA
gboolean gst_texel_base_open_cuda (GstTexelBase *self, const gchar **reason,
                                   int *err);
void gst_texel_base_close_cuda (GstTexelBase *self);
gboolean gst_texel_base_configure_cuda (GstTexelBase *self,
                                        GstVideoInfo *in_info,
                                        GstVideoInfo *out_info);
gboolean gst_texel_base_prepare_cuda (GstTexelBase *self);
void gst_texel_base_cuda_stats (GstTexelBase *self, GstTexelCudaStats *stats);
#else
/* CPU-only builds: the GPU path never opens, so priv->cuda stays NULL and
 * what follows is never called but from its guard. */
static inline gboolean
gst_texel_base_open_cuda (GstTexelBase *self, const gchar **reason, int *err)
{
  *reason = "built without CUDA";
  return FALSE;
}

static inline void
gst_texel_base_close_cuda (GstTexelBase *self)
{
}

static inline gboolean
gst_texel_base_configure_cuda (GstTexelBase *self, GstVideoInfo *in_info,
                               GstVideoInfo *out_info)
{
  return FALSE;
}

static inline gboolean
gst_texel_base_prepare_cuda (GstTexelBase *self)
{
  return FALSE;
}

static inline void
gst_texel_base_cuda_stats (GstTexelBase *self, GstTexelCudaStats *stats)
{
}
#endif

/* Buffers a pool must be able to lend the element at once. */
static inline guint
gst_texel_base_pool_min (GstTexelBase *self)
{
  return 2 + MAX (PRIV (self)->in_flight, 0);
}

/* gsttexelallocation.c: pools of the GPU path. */
#if HAVE_CUDA
gboolean gst_texel_base_propose_pools (GstTexelBase *self, GstQuery *query);
gboolean gst_texel_base_decide_pool (GstTexelBase *self, GstQuery *query);
#else
static inline gboolean
gst_texel_base_propose_pools (GstTexelBase *self, GstQuery *query)
{
  return FALSE;
}

static inline gboolean
gst_texel_base_decide_pool (GstTexelBase *self, GstQuery *query)
{
  return FALSE;
}
#endif

/* gsttexeloutput.c: frames in flight on the GPU path. */
#if HAVE_CUDA
gint gst_texel_base_resolve_in_flight (GstTexelBase *self);
GstFlowReturn gst_texel_base_in_flight_generate (GstTexelBase *self,
                                                 GstBuffer **outbuf);
GstFlowReturn gst_texel_base_drain (GstTexelBase *self);
void gst_texel_base_flush (GstTexelBase *self);
void gst_texel_base_in_flight_event (GstTexelBase *self, GstEvent *event);
void gst_texel_base_in_flight_latency (GstTexelBase *self, GstQuery *query);
/* Starts and joins the finisher (state change thread; join before the
 * frames in flight are freed). */
void gst_texel_base_finisher_start (GstTexelBase *self);
void gst_texel_base_finisher_stop (GstTexelBase *self);
#else
/* CPU-only builds: no frame is ever in flight. */
static inline gint
gst_texel_base_resolve_in_flight (GstTexelBase *self)
{
  return 0;
}

static inline GstFlowReturn
gst_texel_base_in_flight_generate (GstTexelBase *self, GstBuffer **outbuf)
{
  return GST_FLOW_ERROR;
}

static inline GstFlowReturn
gst_texel_base_drain (GstTexelBase *self)
{
  return GST_FLOW_OK;
}

static inline void
gst_texel_base_in_flight_event (GstTexelBase *self, GstEvent *event)
{
}

static inline void
gst_texel_base_in_flight_latency (GstTexelBase *self, GstQuery *query)
{
}
#endif

G_END_DECLS
#endif
