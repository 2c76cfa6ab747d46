/* gst-texel: GstTexelBase, the base class of every texel element.
 *
 * It owns what the elements share: device choice, capability detection,
 * the memory strategy (zero-copy / staged / CPU), buffer pools, streams and
 * error reporting. A subclass only describes its per-pixel work: it builds
 * a plan for the negotiated formats (prepare) and names, once per class,
 * the kernels that run it (GstTexelKernelDesc).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_BASE_H__
#define __GST_TEXEL_BASE_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include "texel-convert.h"
#include "texel-cuda.h"
#include "memory/gsttexelmemorycaps.h"

G_BEGIN_DECLS

#define GST_TYPE_TEXEL_BASE (gst_texel_base_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstTexelBase, gst_texel_base, GST, TEXEL_BASE,
                          GstVideoFilter)

typedef enum
{
  GST_TEXEL_BACKEND_AUTO = 0,
  GST_TEXEL_BACKEND_CUDA = 1,
  GST_TEXEL_BACKEND_CPU = 2
} GstTexelBackend;

typedef enum
{
  GST_TEXEL_MEMORY_MODE_AUTO = 0,
  GST_TEXEL_MEMORY_MODE_ZERO_COPY = 1,
  GST_TEXEL_MEMORY_MODE_STAGED = 2
} GstTexelMemoryMode;

typedef enum
{
  GST_TEXEL_ACTIVE_MEMORY_NONE = 0,
  GST_TEXEL_ACTIVE_MEMORY_SYSTEM = 1,
  GST_TEXEL_ACTIVE_MEMORY_ZERO_COPY = 2,
  GST_TEXEL_ACTIVE_MEMORY_STAGED = 3
} GstTexelActiveMemory;

#define GST_TYPE_TEXEL_BACKEND (gst_texel_backend_get_type ())
GType gst_texel_backend_get_type (void);
#define GST_TYPE_TEXEL_MEMORY_MODE (gst_texel_memory_mode_get_type ())
GType gst_texel_memory_mode_get_type (void);
#define GST_TYPE_TEXEL_ACTIVE_MEMORY (gst_texel_active_memory_get_type ())
GType gst_texel_active_memory_get_type (void);

/* The CPU reference of a kernel, the CUDA entry point (texel-kernel.h's
 * shape) and the input rows output rows [row0, row1) read, each taking
 * the element's plan. */
typedef void (*GstTexelKernelCpu) (gconstpointer plan, const TexelImage *in,
                                   TexelImage *out, int row0, int row1);
typedef int (*GstTexelKernelCuda) (TexelCudaContext *ctx, gconstpointer plan,
                                   const TexelImage *in, const TexelImage *out,
                                   int row0, int row1, TexelStream stream);
typedef void (*GstTexelKernelRows) (gconstpointer plan, int row0, int row1,
                                    int *in_row0, int *in_row1);

/* An element's kernels, described once in class_init: the base runs
 * cpu (a band of rows per worker) or cuda (bands on the element's streams,
 * with the element's TexelCudaContext, which the base makes for every
 * element: every CUDA entry point takes one) on the plan at @plan_offset
 * in the instance, as the element's prepare last built it. */
typedef struct
{
  gsize plan_offset; /* G_STRUCT_OFFSET of the plan */
  GstTexelKernelCpu cpu;
  GstTexelKernelCuda cuda; /* NULL in CPU-only builds */
  /* Only asked when prepare announced banding (gst_texel_base_set_banding);
   * NULL: any output row may read any input row. */
  GstTexelKernelRows input_rows;
  /* Whether the CUDA entry point reads an input plane, and writes an
   * output plane, standing for a CUDA array in place
   * (texel_cuda_context_alias_array: texelconvert's and texelwarp's
   * sampler and stores), so that an NVMM surface array's frame needs no
   * copy before or after it. */
  gboolean reads_arrays;
} GstTexelKernelDesc;

/* The description's functions, each declared with its own plan type (the
 * plan pointer is passed on as it is); the CUDA entry point is left out
 * of CPU-only builds, which do not have it. */
#define GST_TEXEL_KERNEL_CPU(f) ((GstTexelKernelCpu)(f))
#if HAVE_CUDA
#define GST_TEXEL_KERNEL_CUDA(f) ((GstTexelKernelCuda)(f))
#else
#define GST_TEXEL_KERNEL_CUDA(f) NULL
#endif
#define GST_TEXEL_KERNEL_ROWS(f) ((GstTexelKernelRows)(f))

/* Whether GST_TEXEL_CPU=reference asks the CPU path to run the kernels'
 * double-precision reference instead of the fast path (read once). */
gboolean gst_texel_cpu_reference (void);

/* How an element moves the picture, for the metas that say where things
 * are in it (transform_meta: regions of interest, AFD, any meta tagged
 * size or orientation). */
typedef enum
{
  GST_TEXEL_GEOMETRY_KEPT,   /* every pixel stays where it was */
  GST_TEXEL_GEOMETRY_AFFINE, /* through a GstTexelAffine */
  GST_TEXEL_GEOMETRY_WARPED  /* a rectangle does not stay one */
} GstTexelGeometry;

typedef struct
{
  /* Output (X, Y) -> input (x, y), pixel edges on integers:
   * x = map[0][0] * X + map[0][1] * Y + map[0][2], y likewise with
   * map[1]; the linear part scales, flips or turns by 90 degrees. */
  double map[2][3];
  /* The output rectangle the picture fills; the rest is border. */
  double x0, y0, x1, y1;
} GstTexelAffine;

/* On the GPU path prepare, the kernels and close_cuda run with the
 * element's CUDA context current: the pipeline's GstCudaContext where
 * there is one (see gst_texel_cuda_context_enter), else the device's
 * primary context. GPU resources they create belong to it; they must not
 * call cudaSetDevice (it would replace the context by the primary one). */
struct _GstTexelBaseClass
{
  GstVideoFilterClass parent_class;

  /* Negotiated formats (streaming thread or caps event): builds the plan
   * the kernels run on. Returns FALSE (after posting an error) when the
   * subclass cannot handle them. */
  gboolean (*prepare) (GstTexelBase *base, GstVideoInfo *in_info,
                       GstVideoInfo *out_info);
  /* The element's kernels (required). */
  const GstTexelKernelDesc *kernel;
  /* Optional: frees the GPU resources prepare made in the element's
   * TexelCudaContext (texeladjust's 3D LUT), before the base frees it. */
  void (*close_cuda) (GstTexelBase *base);
  /* Optional, streaming thread: a frame has finished (on the GPU, or on
   * the CPU path once every band is done), before its output goes
   * downstream (texelconvert takes what its kernels measured:
   * gst_texel_base_take_sums on the GPU). */
  void (*frame_finished) (GstTexelBase *base);
  /* Optional, streaming thread, once prepared: how the current plan
   * moves the picture (@affine filled for GST_TEXEL_GEOMETRY_AFFINE).
   * Unset: the element keeps the geometry. */
  GstTexelGeometry (*geometry) (GstTexelBase *base, GstTexelAffine *affine);
};

/* What the element runs on, once started. */
gboolean gst_texel_base_is_cuda (GstTexelBase *base);
/* Whether the negotiated input and output caps put frames in the same
 * memory (system, CUDA or NVMM): where they do not, every frame is
 * processed, never passed through. Streaming thread, or while caps cannot
 * change. */
gboolean gst_texel_base_keeps_memory (GstTexelBase *base);
#if HAVE_CUDA
/* On the GPU path, from prepare: the element's TexelCudaContext (NULL on
 * the CPU path), for GPU resources its plan refers to. */
TexelCudaContext *gst_texel_base_kernel_context (GstTexelBase *base);
/* On the GPU path, streaming thread: the first @n_words (at most 8) of
 * the sums the kernels of the oldest finished frame not yet taken
 * gathered on the GPU, and that frame's tag (texel_cuda_context_take_sums:
 * texelconvert's grey-world statistics). FALSE when there is none. */
gboolean gst_texel_base_take_sums (GstTexelBase *base, guint64 *tag,
                                   guint64 *words, guint n_words);
#else
static inline gboolean
gst_texel_base_take_sums (GstTexelBase *base, guint64 *tag, guint64 *words,
                          guint n_words)
{
  return FALSE;
}
#endif
/* The end of every texel element's transform_caps: @result (transfer
 * full), the caps a subclass derived structure by structure from @caps
 * (the @direction pad's), each in the memory (caps features) of the
 * structure it came from, followed by the same structures in the other
 * memory (system memory <-> memory:CUDAMemory), then intersected with
 * @filter. So one element can be where frames go up to or come down from
 * the GPU while the input's memory stays preferred; memory:CUDAMemory is
 * left out where the element cannot take it (CPU path, no CUDA context,
 * built without gstreamer-cuda). Between two texel elements on a discrete
 * GPU, CUDA memory comes first: frames stay on the device. */
GstCaps *gst_texel_base_finish_caps (GstBaseTransform *trans,
                                     GstPadDirection direction, GstCaps *caps,
                                     GstCaps *result, GstCaps *filter);
/* @caps (taken) intersected with @filter in @filter's order; @caps where
 * @filter is NULL. */
GstCaps *gst_texel_caps_filtered (GstCaps *caps, GstCaps *filter);
/* transform_caps of an element whose output has the caps of its input
 * (texeladjust, texelfilter): the same caps, in either memory. */
GstCaps *gst_texel_base_transform_caps_same (GstBaseTransform *trans,
                                             GstPadDirection direction,
                                             GstCaps *caps, GstCaps *filter);
/* Each structure of @caps with any size up to GST_TEXEL_MAX_SIZE, any
 * format and colorimetry, any pixel-aspect-ratio where it has one, in the
 * structure's memory: what an element that converts and scales (texelconvert,
 * texelwarp) can make of it. */
GstCaps *gst_texel_caps_any_size_format (GstCaps *caps);
/* The picture an element's output shows: its size in pixels, their
 * aspect ratio and the display aspect ratio that follows. */
typedef struct
{
  gint w, h, par_n, par_d;
  gint dar_n, dar_d;
} GstTexelSourceShape;
/* Completes @src from its size and pixel-aspect-ratio (1/1 where unset);
 * FALSE where the display aspect ratio overflows. */
gboolean gst_texel_caps_source_shape (GstTexelSourceShape *src);
/* Fixates width, height and pixel-aspect-ratio of the output structure
 * @outs as videoscale does for a source of shape @src: the display aspect
 * ratio kept by the free dimension or the PAR, the source's own size
 * preferred; only where width, height and PAR are all fixed may it
 * change (the element letterboxes or stretches then). */
void gst_texel_caps_fixate_size (GstStructure *outs,
                                 const GstTexelSourceShape *src);
/* Whether output rows depend only on input rows in the same order, so the
 * staged path may split frames into bands. Call from prepare. */
void gst_texel_base_set_banding (GstTexelBase *base, gboolean possible);
/* Asks for prepare to run again before the next frame (a property that
 * changes the per-frame plan but not the caps changed). */
void gst_texel_base_mark_dirty (GstTexelBase *base);
/* The kernels' format of negotiated @info (TEXEL_FORMAT_UNKNOWN where
 * they have none). */
TexelFormat gst_texel_base_info_format (const GstVideoInfo *info);
/* A settings file (texeladjust's 3D LUT, texelwarp's calibration) whole:
 * refuses anything but a regular file (a FIFO, /dev/zero, a directory)
 * before a blocking read, and files of more than @max_size bytes.
 * Returns its bytes (NUL-terminated, g_free) and @length, or NULL with
 * why not in @why (g_free). */
gchar *gst_texel_read_settings_file (const gchar *path, gsize max_size,
                                     gsize *length, gchar **why);

/* Largest width or height a texel element negotiates. */
#define GST_TEXEL_MAX_SIZE 32767
/* Largest frame (all planes, in bytes) a texel element negotiates, input
 * or output: 16384x16384 RGBA. Pools hold up to 5 frames, in pinned
 * memory, and the GPU path as many again in device memory (texelwarp also
 * a map of 8 bytes per output pixel): a 32767x32767 RGBA frame (4 GiB)
 * would ask for tens of GiB before the first frame. Larger frames are
 * refused at negotiation with an error (docs/reliability.md). */
#define GST_TEXEL_MAX_FRAME_BYTES (G_GUINT64_CONSTANT (1) << 30)

/* Caps of the frames texel elements handle: the formats of
 * kernels/common/texel-format.c's table. texeladjust and texelfilter
 * leave out GRAY16_LE: their tables by code and their exact float sums
 * stop at 10 bits. */
#define GST_TEXEL_FORMAT_NAMES_10                                              \
  "NV12, NV21, I420, YV12, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, "   \
  "RGB, BGR, GRAY8, P010_10LE, I420_10LE, I422_10LE, Y444_10LE, Y42B, "        \
  "Y444, NV16, YVYU, AYUV, VUYA, xRGB"
#define GST_TEXEL_FORMATS "{ " GST_TEXEL_FORMAT_NAMES_10 ", GRAY16_LE }"
#define GST_TEXEL_FORMATS_10 "{ " GST_TEXEL_FORMAT_NAMES_10 " }"
#define GST_TEXEL_SYSTEM_CAPS_OF(formats)                                      \
  "video/x-raw, format = (string) " formats ", "                               \
  "width = (int) [ 1, 32767 ], height = (int) [ 1, 32767 ], "                  \
  "framerate = (fraction) [ 0, max ]"
#define GST_TEXEL_SYSTEM_CAPS GST_TEXEL_SYSTEM_CAPS_OF (GST_TEXEL_FORMATS)

/* Elements that scale, filter or move pixels between rows (texelconvert,
 * texelfilter, texelwarp) would mix the two fields of an interlaced frame:
 * they take progressive video only, and interlaced caps fail to negotiate.
 * (interlace-mode=alternate comes with the format:Interlaced feature,
 * which no texel template lists.) */
#define GST_TEXEL_PROGRESSIVE ", interlace-mode = (string) progressive"

/* Pad templates of every texel element: in builds with gstreamer-cuda, CUDA
 * memory listed first, as GStreamer's CUDA elements list it, then system
 * memory, then (CUDA builds) NVMM; which memory a stream gets is decided in
 * transform_caps (see gst_texel_base_finish_caps). Needs config.h. */
#if HAVE_GST_CUDA
#define GST_TEXEL_CUDA_FIRST GST_TEXEL_CUDA_CAPS "; "
#define GST_TEXEL_CUDA_FIRST_PROGRESSIVE                                       \
  GST_TEXEL_CUDA_CAPS GST_TEXEL_PROGRESSIVE "; "
#else
#define GST_TEXEL_CUDA_FIRST ""
#define GST_TEXEL_CUDA_FIRST_PROGRESSIVE ""
#endif
#if HAVE_CUDA
#define GST_TEXEL_NVMM_LAST "; " GST_TEXEL_NVMM_CAPS
#define GST_TEXEL_NVMM_LAST_PROGRESSIVE                                        \
  "; " GST_TEXEL_NVMM_CAPS GST_TEXEL_PROGRESSIVE
#else
#define GST_TEXEL_NVMM_LAST ""
#define GST_TEXEL_NVMM_LAST_PROGRESSIVE ""
#endif
#define GST_TEXEL_CAPS                                                         \
  GST_TEXEL_CUDA_FIRST GST_TEXEL_SYSTEM_CAPS GST_TEXEL_NVMM_LAST
#define GST_TEXEL_PROGRESSIVE_CAPS                                             \
  GST_TEXEL_CUDA_FIRST_PROGRESSIVE GST_TEXEL_SYSTEM_CAPS GST_TEXEL_PROGRESSIVE \
      GST_TEXEL_NVMM_LAST_PROGRESSIVE
/* Up to 10 bits: texeladjust and texelfilter. */
#define GST_TEXEL_CAPS_10                                                      \
  GST_TEXEL_CUDA_FIRST GST_TEXEL_SYSTEM_CAPS_OF (GST_TEXEL_FORMATS_10)         \
      GST_TEXEL_NVMM_LAST
#define GST_TEXEL_PROGRESSIVE_CAPS_10                                          \
  GST_TEXEL_CUDA_FIRST_PROGRESSIVE                                             \
  GST_TEXEL_SYSTEM_CAPS_OF (GST_TEXEL_FORMATS_10)                              \
  GST_TEXEL_PROGRESSIVE GST_TEXEL_NVMM_LAST_PROGRESSIVE

G_END_DECLS
#endif
