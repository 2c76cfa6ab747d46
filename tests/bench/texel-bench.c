/* gst-texel: throughput, host CPU cost and latency of a conversion.
 *
 * Pushes a ring of distinct pre-generated frames through
 *   appsrc ! FRAGMENT ! OUTPUT-CAPS ! appsink
 * and reports steady-state frames/s, host CPU time per frame and the
 * latency of each frame through FRAGMENT. --matrix runs the standard cases
 * against texelconvert and its peers, each in a fresh pipeline, and prints
 * a markdown table.
 *
 * The ring's frames are GstBuffers around preallocated memory that recurs
 * every lap, as a capture driver's buffer pool does: an element may pin
 * (register) memory it sees again, and this is the case it must be fast in.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

/* Nominal only: the sink does not sync, so frames go as fast as they can;
 * timestamps serve to match each output frame with its input frame. */
#define BENCH_FRAME_RATE 30

/* appsrc's queue: enough to keep the fragment fed, few enough that pushing
 * blocks and frames never pile up ahead of the pipeline. */
#define BENCH_SRC_MAX_BUFFERS 4

/* Departure times of frames, indexed by frame number modulo this: far more
 * than frames can be in flight between appsrc and appsink. */
#define BENCH_DEPARTURE_SLOTS 8192

/* Latencies kept per case at most: the percentiles of a uniform sample of
 * this many are within a fraction of a percent of the whole run's. */
#define BENCH_LATENCY_SAMPLES (1 << 18)

/* A case that has not ended this long after it should have is stuck. */
#define BENCH_STALL_MARGIN_S 30

/* Page-aligned, as a capture driver's mmap'ed buffers are (mask). */
#define BENCH_FRAME_ALIGN 4095

/* The exit status of a run whose elements are not installed (meson: skip). */
#define BENCH_EXIT_NOT_AVAILABLE 77

typedef struct
{
  GstVideoFormat format;
  gint width, height;
  /* A raw Bayer input (video/x-bayer): its caps format ("rggb",
   * "rggb12le", ...); the frame is then sized as @format, GRAY8 or
   * GRAY16_LE (one sample a pixel, rows of 4-byte multiples, as GStreamer
   * lays Bayer out). NULL for video/x-raw. Static storage. */
  const gchar *bayer;
} BenchVideo;

typedef enum
{
  BENCH_MEMORY_SYSTEM,
  BENCH_MEMORY_CUDA,
  BENCH_MEMORY_NVMM
} BenchMemory;

/* The caps feature of each memory, and the fragment that uploads a frame
 * into it once. */
static const struct
{
  const gchar *feature;
  const gchar *upload;
} bench_memories[] = {
  [BENCH_MEMORY_SYSTEM] = { NULL, NULL },
  [BENCH_MEMORY_CUDA] = { "memory:CUDAMemory", "cudaupload name=upload" },
  /* NvBufSurfaces in CUDA device memory (DeepStream's on a discrete GPU),
   * from the test plugin of tests/nvmm. */
  [BENCH_MEMORY_NVMM] = { "memory:NVMM", "texelnvmmupload name=upload" },
};

/* The NvBufSurface memory type of --nvmm's ring (--nvmm-mem-type): CUDA
 * device memory (2) by default; 4, surface arrays (the stand-in's GL
 * textures through EGL, CUDA arrays). */
static gint bench_nvmm_mem_type = 2;

typedef struct
{
  BenchVideo in, out;
  const gchar *fragment;
  const gchar *label;
  guint ring_size;
  gdouble warmup_s;
  gdouble seconds;
  /* Where the frames are, in and out: system memory, or the ring uploaded
   * once before the run into GPU memory (memory:CUDAMemory) or into
   * NvBufSurfaces (memory:NVMM). */
  BenchMemory memory;
} BenchCase;

typedef enum
{
  BENCH_OK,
  BENCH_NOT_AVAILABLE, /* an element of the fragment is missing */
  BENCH_FAILED
} BenchStatus;

typedef struct
{
  BenchStatus status;
  gchar *message;  /* why not available or failed */
  gchar *active;   /* elements' choices: "cuda, staged" */
  guint64 frames;  /* frames out during the measurement */
  gdouble seconds; /* length of the measurement */
  gdouble fps;
  gdouble cpu_ms_per_frame;
  gdouble latency_median_ms;
  gdouble latency_p99_ms;
  /* Bytes the texel elements copied between host and GPU per frame, from
   * their "stats" (whole run, warm-up included); < 0 where the fragment
   * has no texel element. */
  gdouble transfer_bytes_per_frame;
  /* Bytes they copied on the GPU per frame (bytes-device-copied: planes
   * realigned, EGL frames copied), the same way. */
  gdouble device_copied_bytes_per_frame;
} BenchResult;

typedef enum
{
  BENCH_PHASE_WARMUP,
  BENCH_PHASE_MEASURING,
  BENCH_PHASE_DONE
} BenchPhase;

/* One case being run. */
typedef struct
{
  const BenchCase *bench_case;
  GstElement *pipeline;
  GstAppSrc *src;
  GstBuffer **ring;
  /* With BENCH_MEMORY_CUDA: the CUDA context of the ring's memory, given
   * to the pipeline's elements. */
  GstContext *cuda_context;

  /* Tells the pushing thread to stop; set from the sink's streaming thread
   * once measured, or from the main thread on error. */
  gint stop;

  /* When each frame left appsrc, written in appsrc's streaming thread and
   * read where the frame arrives: its departure happens before its
   * arrival, and the slots outnumber the frames in flight. */
  GstClockTime *departures;

  /* Touched only by the thread that delivers frames to appsink, and by the
   * main thread once the pipeline has stopped. */
  BenchPhase phase;
  guint64 frames_out;
  GstClockTime first_out_time;
  GstClockTime start_time, end_time;
  guint64 start_frames, end_frames;
  struct rusage start_usage, end_usage;
  /* GstClockTime: every frame measured, or past BENCH_LATENCY_SAMPLES a
   * uniform sample of them (reservoir sampling), so that a long run (a
   * soak) keeps a fixed amount of memory. */
  GArray *latencies;
  guint64 latency_count; /* frames whose latency was seen */
  GRand *latency_rand;
} BenchRun;

static const gchar *const matrix_inputs[] = {
  "NV12:3840x2160",
  "NV12:1920x1080",
};

static const gchar *const matrix_outputs[] = {
  "RGBA:1280x720",
  "NV12:1920x1080",
};

/* Rows of each case, in this order; the last two columns of the table
 * compare every row with the rows named by the indices below. */
static const gchar *const matrix_implementations[] = {
  "texelconvert memory-mode=staged",
  "texelconvert memory-mode=zero-copy",
  "texelconvert backend=cpu",
  "cudaupload ! cudaconvertscale ! cudadownload",
  "videoconvertscale n-threads=16",
};

#define MATRIX_STAGED_ROW 0
#define MATRIX_CUDACONVERTSCALE_ROW 3

/* Frame numbers <-> timestamps. */

static GstClockTime
bench_frame_pts (guint64 index)
{
  return gst_util_uint64_scale_int (index, GST_SECOND, BENCH_FRAME_RATE);
}

static guint64
bench_frame_index (GstClockTime pts)
{
  return gst_util_uint64_scale_int_round (pts, BENCH_FRAME_RATE, GST_SECOND);
}

/* Video descriptions: "FORMAT:WxH". */

/* The Bayer caps formats texelconvert takes: the pattern, then nothing
 * (8 bits) or the bits and "le" (16-bit words). Returns the name interned
 * (static storage), or NULL. */
static const gchar *
bench_bayer_format (const gchar *name)
{
  static const gchar *const patterns[] = { "rggb", "bggr", "gbrg", "grbg" };
  static const gchar *const depths[] = { "", "10le", "12le", "14le", "16le" };
  guint p, d;

  for (p = 0; p < G_N_ELEMENTS (patterns); p++)
    {
      if (!g_str_has_prefix (name, patterns[p]))
        continue;
      for (d = 0; d < G_N_ELEMENTS (depths); d++)
        if (g_str_equal (name + strlen (patterns[p]), depths[d]))
          return g_intern_string (name);
    }
  return NULL;
}

static gboolean
bench_video_parse (const gchar *text, BenchVideo *video)
{
  gchar **parts = g_strsplit (text, ":", 2);
  gboolean ok = FALSE;
  gchar end;

  if (g_strv_length (parts) == 2)
    {
      video->bayer = bench_bayer_format (parts[0]);
      if (video->bayer)
        video->format = strlen (video->bayer) > 4 ? GST_VIDEO_FORMAT_GRAY16_LE
                                                  : GST_VIDEO_FORMAT_GRAY8;
      else
        video->format = gst_video_format_from_string (parts[0]);
      ok = video->format != GST_VIDEO_FORMAT_UNKNOWN
           && sscanf (parts[1], "%dx%d%c", &video->width, &video->height, &end)
                  == 2
           && video->width > 0 && video->height > 0;
    }
  g_strfreev (parts);
  return ok;
}

static const gchar *
bench_video_format_name (const BenchVideo *video)
{
  return video->bayer ? video->bayer
                      : gst_video_format_to_string (video->format);
}

static gchar *
bench_video_describe (const BenchVideo *video)
{
  return g_strdup_printf ("%s %dx%d", bench_video_format_name (video),
                          video->width, video->height);
}

/* The same syntax as --in and --out, for CSV output. */
static gchar *
bench_video_to_option (const BenchVideo *video)
{
  return g_strdup_printf ("%s:%dx%d", bench_video_format_name (video),
                          video->width, video->height);
}

/* The caps of the input: video/x-raw of @info, or for a Bayer input the
 * same size and rate as video/x-bayer. */
static GstCaps *
bench_input_caps (const BenchVideo *video, const GstVideoInfo *info)
{
  if (!video->bayer)
    return gst_video_info_to_caps (info);
  return gst_caps_new_simple ("video/x-bayer", "format", G_TYPE_STRING,
                              video->bayer, "width", G_TYPE_INT, video->width,
                              "height", G_TYPE_INT, video->height, "framerate",
                              GST_TYPE_FRACTION, GST_VIDEO_INFO_FPS_N (info),
                              GST_VIDEO_INFO_FPS_D (info), NULL);
}

/* The ring of input frames. */

/* xorshift64*: cheap, and no two frames (or planes) alike, so neither a
 * cache nor a compressing link can flatter the numbers. */
static void
bench_fill_noise (guint8 *data, gsize size, guint64 seed)
{
  guint64 state = seed * 0x9E3779B97F4A7C15ull + 1;
  gsize i;

  for (i = 0; i < size; i += sizeof (guint64))
    {
      guint64 word;

      state ^= state >> 12;
      state ^= state << 25;
      state ^= state >> 27;
      word = state * 0x2545F4914F6CDD1Dull;
      memcpy (data + i, &word, MIN (sizeof (word), size - i));
    }
}

static GstBuffer *
bench_frame_new (const GstVideoInfo *info, guint64 seed)
{
  GstAllocationParams params;
  GstMemory *memory;
  GstMapInfo map;
  GstBuffer *buffer;

  gst_allocation_params_init (&params);
  params.align = BENCH_FRAME_ALIGN;
  memory = gst_allocator_alloc (NULL, GST_VIDEO_INFO_SIZE (info), &params);
  if (!memory || !gst_memory_map (memory, &map, GST_MAP_WRITE))
    {
      g_printerr ("could not allocate a frame of %" G_GSIZE_FORMAT " bytes\n",
                  GST_VIDEO_INFO_SIZE (info));
      if (memory)
        gst_memory_unref (memory);
      return NULL;
    }
  bench_fill_noise (map.data, map.size, seed);
  gst_memory_unmap (memory, &map);

  buffer = gst_buffer_new ();
  gst_buffer_append_memory (buffer, memory);
  gst_buffer_add_video_meta_full (
      buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
      GST_VIDEO_INFO_N_PLANES (info), (gsize *)info->offset,
      (gint *)info->stride);
  return buffer;
}

static void
bench_ring_free (GstBuffer **ring, guint ring_size)
{
  guint i;

  if (!ring)
    return;
  for (i = 0; i < ring_size; i++)
    gst_clear_buffer (&ring[i]);
  g_free (ring);
}

static GstBuffer **
bench_ring_new (const GstVideoInfo *info, guint ring_size)
{
  GstBuffer **ring = g_new0 (GstBuffer *, ring_size);
  guint i;

  for (i = 0; i < ring_size; i++)
    {
      ring[i] = bench_frame_new (info, i + 1);
      if (!ring[i])
        {
          bench_ring_free (ring, ring_size);
          return NULL;
        }
    }
  return ring;
}

/* Frames already on the GPU (--device, --nvmm): the ring goes up once,
 * through cudaupload into GstCudaMemory or through texelnvmmupload into
 * NvBufSurfaces, replacing the system-memory frames; cudaupload's CUDA
 * context is returned for the pipeline's elements, so that they read the
 * frames in place. FALSE (with @message set) where that fails, e.g.
 * without the upload element. */
static gboolean
bench_ring_upload (GstBuffer **ring, guint ring_size, const GstVideoInfo *info,
                   BenchMemory memory, GstContext **context, gchar **message)
{
  GError *error = NULL;
  gchar *fragment
      = memory == BENCH_MEMORY_NVMM
            ? g_strdup_printf ("%s mem-type=%d", bench_memories[memory].upload,
                               bench_nvmm_mem_type)
            : g_strdup (bench_memories[memory].upload);
  gchar *description
      = g_strdup_printf ("appsrc name=up ! %s ! "
                         "video/x-raw(%s) ! appsink name=down sync=false",
                         fragment, bench_memories[memory].feature);
  GstElement *pipeline = gst_parse_launch_full (
      description, NULL, GST_PARSE_FLAG_FATAL_ERRORS, &error);
  GstElement *src, *sink, *upload;
  GstCaps *caps;
  guint i;

  g_free (description);
  g_free (fragment);
  if (!pipeline)
    {
      *message = g_strdup_printf ("no upload pipeline: %s", error->message);
      g_error_free (error);
      return FALSE;
    }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "up");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "down");
  upload = gst_bin_get_by_name (GST_BIN (pipeline), "upload");
  caps = gst_video_info_to_caps (info);
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_caps_unref (caps);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (i = 0; i < ring_size; i++)
    {
      GstBuffer *frame = gst_buffer_copy (ring[i]);
      GstSample *sample;

      GST_BUFFER_PTS (frame) = bench_frame_pts (i);
      if (gst_app_src_push_buffer (GST_APP_SRC (src), frame) != GST_FLOW_OK)
        break;
      sample
          = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 10 * GST_SECOND);
      if (!sample)
        break;
      gst_buffer_replace (&ring[i], gst_sample_get_buffer (sample));
      gst_sample_unref (sample);
    }
  if (memory == BENCH_MEMORY_CUDA)
    *context = gst_element_get_context (upload, "gst.cuda.context");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (upload);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  if (i < ring_size || (memory == BENCH_MEMORY_CUDA && !*context))
    {
      *message = g_strdup_printf ("could not upload the ring (%u of %u frames "
                                  "up, %s CUDA context)",
                                  i, ring_size, *context ? "a" : "no");
      return FALSE;
    }
  return TRUE;
}

/* Measurement, in the streaming threads. */

static GstPadProbeReturn
bench_on_departure (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  BenchRun *run = user_data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  guint64 index = bench_frame_index (GST_BUFFER_PTS (buffer));

  run->departures[index % BENCH_DEPARTURE_SLOTS] = gst_util_get_timestamp ();
  return GST_PAD_PROBE_OK;
}

static void
bench_run_add_latency (BenchRun *run, GstBuffer *buffer, GstClockTime now)
{
  GstClockTime departure, latency;

  if (!GST_BUFFER_PTS_IS_VALID (buffer))
    return;
  departure = run->departures[bench_frame_index (GST_BUFFER_PTS (buffer))
                              % BENCH_DEPARTURE_SLOTS];
  if (departure == 0 || departure > now)
    return;
  latency = now - departure;
  run->latency_count++;
  if (run->latencies->len < BENCH_LATENCY_SAMPLES)
    {
      g_array_append_val (run->latencies, latency);
    }
  else
    {
      /* Algorithm R: the n-th latency replaces a kept one with probability
       * BENCH_LATENCY_SAMPLES / n. */
      guint64 j
          = (guint64)(g_rand_double (run->latency_rand) * run->latency_count);

      if (j < BENCH_LATENCY_SAMPLES)
        g_array_index (run->latencies, GstClockTime, j) = latency;
    }
}

static void
bench_run_count_frame (BenchRun *run, GstBuffer *buffer, GstClockTime now)
{
  const BenchCase *bench_case = run->bench_case;

  run->frames_out++;
  switch (run->phase)
    {
      case BENCH_PHASE_WARMUP:
        /* Warm-up counts from the first frame out, so that plugin loading,
         * context creation and the first frame's set-up never shorten it. */
        if (run->frames_out == 1)
          run->first_out_time = now;
        if (now - run->first_out_time >= bench_case->warmup_s * GST_SECOND)
          {
            run->start_time = now;
            run->start_frames = run->frames_out;
            getrusage (RUSAGE_SELF, &run->start_usage);
            run->phase = BENCH_PHASE_MEASURING;
          }
        break;
      case BENCH_PHASE_MEASURING:
        bench_run_add_latency (run, buffer, now);
        if (now - run->start_time >= bench_case->seconds * GST_SECOND)
          {
            run->end_time = now;
            run->end_frames = run->frames_out;
            getrusage (RUSAGE_SELF, &run->end_usage);
            run->phase = BENCH_PHASE_DONE;
            g_atomic_int_set (&run->stop, 1);
          }
        break;
      case BENCH_PHASE_DONE:
        break;
    }
}

static GstFlowReturn
bench_on_new_sample (GstAppSink *sink, gpointer user_data)
{
  GstClockTime now = gst_util_get_timestamp ();
  GstSample *sample = gst_app_sink_pull_sample (sink);

  if (!sample)
    return GST_FLOW_FLUSHING;
  bench_run_count_frame (user_data, gst_sample_get_buffer (sample), now);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* The pushing thread: laps the ring until told to stop, then ends the
 * stream so the pipeline drains. */
static gpointer
bench_push_frames (gpointer user_data)
{
  BenchRun *run = user_data;
  guint ring_size = run->bench_case->ring_size;
  guint64 index;

  for (index = 0; !g_atomic_int_get (&run->stop); index++)
    {
      /* A new buffer for a fresh timestamp, around the same memory. */
      GstBuffer *buffer = gst_buffer_copy (run->ring[index % ring_size]);

      GST_BUFFER_PTS (buffer) = bench_frame_pts (index);
      GST_BUFFER_DURATION (buffer)
          = bench_frame_pts (index + 1) - GST_BUFFER_PTS (buffer);
      if (gst_app_src_push_buffer (run->src, buffer) != GST_FLOW_OK)
        return NULL; /* flushing: the pipeline is stopping */
    }
  gst_app_src_end_of_stream (run->src);
  return NULL;
}

/* Set-up and tear-down of one case, in the main thread. */

static void bench_result_set (BenchResult *result, BenchStatus status,
                              const gchar *format, ...) G_GNUC_PRINTF (3, 4);

static void
bench_result_set (BenchResult *result, BenchStatus status, const gchar *format,
                  ...)
{
  va_list args;

  /* The first failure explains the rest: keep it. */
  if (result->status != BENCH_OK)
    return;
  result->status = status;
  va_start (args, format);
  result->message = g_strdup_vprintf (format, args);
  va_end (args);
  /* One line, for tables and lists. */
  g_strdelimit (result->message, "\r\n", ' ');
}

static gboolean
bench_run_build (BenchRun *run, const GstVideoInfo *in_info,
                 BenchResult *result)
{
  const BenchCase *bench_case = run->bench_case;
  GstAppSinkCallbacks callbacks = { .new_sample = bench_on_new_sample };
  GError *error = NULL;
  GstElement *sink;
  GstCaps *in_caps;
  GstPad *src_pad;
  gchar *description;

  const gchar *feature = bench_memories[bench_case->memory].feature;

  description = g_strdup_printf (
      "appsrc name=benchsrc ! %s ! "
      "video/x-raw%s%s%s,format=%s,width=%d,height=%d ! "
      "appsink name=benchsink",
      bench_case->fragment, feature ? "(" : "", feature ? feature : "",
      feature ? ")" : "", gst_video_format_to_string (bench_case->out.format),
      bench_case->out.width, bench_case->out.height);
  run->pipeline = gst_parse_launch_full (description, NULL,
                                         GST_PARSE_FLAG_FATAL_ERRORS, &error);
  g_free (description);
  if (error)
    {
      gst_clear_object (&run->pipeline);
      bench_result_set (result,
                        g_error_matches (error, GST_PARSE_ERROR,
                                         GST_PARSE_ERROR_NO_SUCH_ELEMENT)
                            ? BENCH_NOT_AVAILABLE
                            : BENCH_FAILED,
                        "%s", error->message);
      g_error_free (error);
      return FALSE;
    }

  run->src
      = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (run->pipeline), "benchsrc"));
  in_caps = bench_input_caps (&bench_case->in, in_info);
  if (feature)
    gst_caps_set_features (in_caps, 0, gst_caps_features_new (feature, NULL));
  if (run->cuda_context)
    gst_element_set_context (run->pipeline, run->cuda_context);
  g_object_set (run->src, "caps", in_caps, "format", GST_FORMAT_TIME, "is-live",
                FALSE, "block", TRUE, "max-buffers",
                (guint64)BENCH_SRC_MAX_BUFFERS, "max-bytes", (guint64)0,
                "max-time", (guint64)0, NULL);
  gst_caps_unref (in_caps);

  src_pad = gst_element_get_static_pad (GST_ELEMENT (run->src), "src");
  gst_pad_add_probe (src_pad, GST_PAD_PROBE_TYPE_BUFFER, bench_on_departure,
                     run, NULL);
  gst_object_unref (src_pad);

  sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "benchsink");
  g_object_set (sink, "sync", FALSE, "qos", FALSE, "enable-last-sample", FALSE,
                NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, run, NULL);
  gst_object_unref (sink);
  return TRUE;
}

/* The value of a property as a word: an enum's nick, else its contents. */
static gchar *
bench_property_text (GObject *object, GParamSpec *pspec)
{
  GValue value = G_VALUE_INIT;
  gchar *text;

  g_value_init (&value, pspec->value_type);
  g_object_get_property (object, pspec->name, &value);
  if (G_VALUE_HOLDS_ENUM (&value))
    {
      GEnumValue *nick = g_enum_get_value (
          G_PARAM_SPEC_ENUM (pspec)->enum_class, g_value_get_enum (&value));

      text = g_strdup (nick ? nick->value_nick : "?");
    }
  else
    {
      text = g_strdup_value_contents (&value);
    }
  g_value_unset (&value);
  return text;
}

static void
bench_add_active_choices (const GValue *item, gpointer user_data)
{
  GObject *element = g_value_get_object (item);
  GString *choices = user_data;
  GParamSpec **pspecs;
  guint n_pspecs, i;

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (element),
                                           &n_pspecs);
  for (i = 0; i < n_pspecs; i++)
    {
      gchar *text;

      if (!g_str_has_prefix (pspecs[i]->name, "active-")
          || !(pspecs[i]->flags & G_PARAM_READABLE))
        continue;
      text = bench_property_text (element, pspecs[i]);
      g_string_append_printf (choices, "%s%s", choices->len ? ", " : "", text);
      g_free (text);
    }
  g_free (pspecs);
}

/* Adds an element's host <-> GPU copies per frame (its "stats": bytes
 * to the device and to the host over the frames it processed) to the
 * first gdouble at @user_data and its copies on the GPU to the second;
 * each starts < 0 for "no such element". */
static void
bench_add_transfers (const GValue *item, gpointer user_data)
{
  GObject *element = g_value_get_object (item);
  GParamSpec *pspec
      = g_object_class_find_property (G_OBJECT_GET_CLASS (element), "stats");
  gdouble *bytes_per_frame = user_data;
  GstStructure *stats = NULL;
  guint64 frames, to_device, to_host, on_device;

  if (!pspec || pspec->value_type != GST_TYPE_STRUCTURE)
    return;
  g_object_get (element, "stats", &stats, NULL);
  if (stats && gst_structure_get_uint64 (stats, "frames", &frames) && frames > 0
      && gst_structure_get_uint64 (stats, "bytes-to-device", &to_device)
      && gst_structure_get_uint64 (stats, "bytes-to-host", &to_host))
    {
      bytes_per_frame[0] = MAX (bytes_per_frame[0], 0)
                           + (gdouble)(to_device + to_host) / frames;
      if (gst_structure_get_uint64 (stats, "bytes-device-copied", &on_device))
        bytes_per_frame[1]
            = MAX (bytes_per_frame[1], 0) + (gdouble)on_device / frames;
    }
  if (stats)
    gst_structure_free (stats);
}

/* What the elements say of themselves, gathered in one pass. */
typedef struct
{
  GString *choices; /* bench_add_active_choices */
  /* bench_add_transfers: host <-> GPU, then on the GPU */
  gdouble copied_bytes_per_frame[2];
} BenchElementsSeen;

static void
bench_add_element (const GValue *item, gpointer user_data)
{
  BenchElementsSeen *seen = user_data;

  bench_add_active_choices (item, seen->choices);
  bench_add_transfers (item, seen->copied_bytes_per_frame);
}

/* Notes in @result what the elements chose at start, from their read-only
 * "active-*" properties (texelconvert's backend and memory mode: an
 * implementation that fell back, say to the CPU, must not pass for the one
 * asked for; NULL where no element has any), and what crossed between
 * host and GPU per frame through the texel elements (shows that a chain
 * on the GPU copies nothing). */
static void
bench_note_elements (GstElement *pipeline, BenchResult *result)
{
  GstIterator *elements = gst_bin_iterate_recurse (GST_BIN (pipeline));
  BenchElementsSeen seen = { g_string_new (NULL), { -1, -1 } };

  while (gst_iterator_foreach (elements, bench_add_element, &seen)
         == GST_ITERATOR_RESYNC)
    {
      gst_iterator_resync (elements);
      g_string_truncate (seen.choices, 0);
      seen.copied_bytes_per_frame[0] = seen.copied_bytes_per_frame[1] = -1;
    }
  gst_iterator_free (elements);
  result->transfer_bytes_per_frame = seen.copied_bytes_per_frame[0];
  result->device_copied_bytes_per_frame = seen.copied_bytes_per_frame[1];
  if (seen.choices->len == 0)
    {
      g_string_free (seen.choices, TRUE);
      result->active = NULL;
    }
  else
    {
      result->active = g_string_free (seen.choices, FALSE);
    }
}

/* Waits up to @patience for the end of the stream or an error, and notes
 * an error in @result. FALSE if neither came. */
static gboolean
bench_run_wait (BenchRun *run, GstClockTime patience, BenchResult *result)
{
  GstBus *bus = gst_element_get_bus (run->pipeline);
  GstMessage *message = gst_bus_timed_pop_filtered (
      bus, patience, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gboolean ended = message != NULL;

  if (message && GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR)
    {
      GError *error = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (message, &error, &debug);
      bench_result_set (result, BENCH_FAILED, "%s: %s (%s)",
                        GST_MESSAGE_SRC_NAME (message), error->message,
                        debug ? debug : "no details");
      g_error_free (error);
      g_free (debug);
    }
  gst_clear_message (&message);
  gst_object_unref (bus);
  return ended;
}

/* Plays the built pipeline until the measurement is done and the stream
 * has drained, or until it fails. Returns the pushing thread, if any. */
static GThread *
bench_run_play (BenchRun *run, BenchResult *result)
{
  const BenchCase *bench_case = run->bench_case;
  GstClockTime patience
      = (bench_case->warmup_s + bench_case->seconds + BENCH_STALL_MARGIN_S)
        * GST_SECOND;
  GThread *pusher;

  /* Not live: reaching PLAYING needs the first frame, which the pushing
   * thread brings, so only an immediate failure shows here. */
  if (gst_element_set_state (run->pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE)
    {
      bench_run_wait (run, GST_SECOND, result);
      bench_result_set (result, BENCH_FAILED, "the pipeline did not start");
      return NULL;
    }
  pusher = g_thread_new ("bench-push", bench_push_frames, run);
  if (!bench_run_wait (run, patience, result))
    bench_result_set (result, BENCH_FAILED, "no end of stream after %.0f s",
                      (gdouble)patience / GST_SECOND);
  /* Before stopping: elements may forget their choices once stopped. */
  bench_note_elements (run->pipeline, result);
  return pusher;
}

static gint
bench_compare_clock_times (gconstpointer a, gconstpointer b)
{
  GstClockTime x = *(const GstClockTime *)a;
  GstClockTime y = *(const GstClockTime *)b;

  return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted @values, in ms. */
static gdouble
bench_percentile_ms (const GArray *values, guint percent)
{
  guint rank = (values->len * percent + 99) / 100;

  if (values->len == 0)
    return 0;
  return (gdouble)g_array_index (values, GstClockTime, MAX (rank, 1) - 1)
         / GST_MSECOND;
}

static gdouble
bench_cpu_seconds (const struct rusage *start, const struct rusage *end)
{
  struct timeval user, sys;

  timersub (&end->ru_utime, &start->ru_utime, &user);
  timersub (&end->ru_stime, &start->ru_stime, &sys);
  return user.tv_sec + sys.tv_sec + (user.tv_usec + sys.tv_usec) / 1e6;
}

static void
bench_run_summarise (BenchRun *run, BenchResult *result)
{
  if (result->status != BENCH_OK)
    return;
  if (run->phase != BENCH_PHASE_DONE)
    {
      bench_result_set (result, BENCH_FAILED,
                        "the stream ended before the measurement did");
      return;
    }
  result->frames = run->end_frames - run->start_frames;
  result->seconds = (gdouble)(run->end_time - run->start_time) / GST_SECOND;
  if (result->frames == 0 || result->seconds <= 0)
    {
      bench_result_set (result, BENCH_FAILED, "no frame came out to measure");
      return;
    }
  result->fps = result->frames / result->seconds;
  result->cpu_ms_per_frame
      = 1e3 * bench_cpu_seconds (&run->start_usage, &run->end_usage)
        / result->frames;
  g_array_sort (run->latencies, bench_compare_clock_times);
  result->latency_median_ms = bench_percentile_ms (run->latencies, 50);
  result->latency_p99_ms = bench_percentile_ms (run->latencies, 99);
}

static void
bench_run_case (const BenchCase *bench_case, BenchResult *result)
{
  BenchRun run = { .bench_case = bench_case };
  GstVideoInfo in_info;
  GThread *pusher = NULL;
  gchar *message = NULL;

  memset (result, 0, sizeof (*result));
  result->transfer_bytes_per_frame = -1;
  result->device_copied_bytes_per_frame = -1;
  gst_video_info_set_format (&in_info, bench_case->in.format,
                             bench_case->in.width, bench_case->in.height);
  GST_VIDEO_INFO_FPS_N (&in_info) = BENCH_FRAME_RATE;
  GST_VIDEO_INFO_FPS_D (&in_info) = 1;

  run.departures = g_new0 (GstClockTime, BENCH_DEPARTURE_SLOTS);
  run.latency_rand = g_rand_new_with_seed (1);
  run.latencies
      = g_array_sized_new (FALSE, FALSE, sizeof (GstClockTime), 1 << 16);
  run.ring = bench_ring_new (&in_info, bench_case->ring_size);
  if (!run.ring)
    {
      bench_result_set (result, BENCH_FAILED, "out of memory for the ring");
    }
  else if (bench_case->memory != BENCH_MEMORY_SYSTEM && bench_case->in.bayer)
    {
      /* The uploads and texelconvert's Bayer caps are system memory only:
       * tests/bench/texel-bayer-npp.cu measures the kernel on the GPU. */
      bench_result_set (result, BENCH_NOT_AVAILABLE,
                        "no Bayer input in "
                        "GPU memory");
    }
  else if (bench_case->memory != BENCH_MEMORY_SYSTEM
           && !bench_ring_upload (run.ring, bench_case->ring_size, &in_info,
                                  bench_case->memory, &run.cuda_context,
                                  &message))
    {
      bench_result_set (result, BENCH_NOT_AVAILABLE, "%s", message);
    }
  else if (bench_run_build (&run, &in_info, result))
    pusher = bench_run_play (&run, result);

  /* Stopping the pipeline also wakes a push blocked on a full queue. */
  g_atomic_int_set (&run.stop, 1);
  if (run.pipeline)
    gst_element_set_state (run.pipeline, GST_STATE_NULL);
  if (pusher)
    g_thread_join (pusher);
  bench_run_summarise (&run, result);

  gst_clear_object (&run.src);
  gst_clear_object (&run.pipeline);
  bench_ring_free (run.ring, bench_case->ring_size);
  if (run.cuda_context)
    gst_context_unref (run.cuda_context);
  g_free (message);
  g_array_unref (run.latencies);
  g_rand_free (run.latency_rand);
  g_free (run.departures);
}

/* Output. */

static const gchar *
bench_status_name (BenchStatus status)
{
  switch (status)
    {
      case BENCH_OK:
        return "ok";
      case BENCH_NOT_AVAILABLE:
        return "n/a";
      case BENCH_FAILED:
      default:
        return "failed";
    }
}

static void
bench_result_clear (BenchResult *result)
{
  g_clear_pointer (&result->message, g_free);
  g_clear_pointer (&result->active, g_free);
}

static void
bench_print_human (const BenchCase *bench_case, const BenchResult *result)
{
  gchar *in = bench_video_describe (&bench_case->in);
  gchar *out = bench_video_describe (&bench_case->out);

  if (result->status == BENCH_OK)
    {
      gchar *transfers
          = result->transfer_bytes_per_frame < 0
                ? g_strdup ("")
                : g_strdup_printf (
                    ", %.3f MB/frame between host and GPU, %.3f on "
                    "the GPU",
                    result->transfer_bytes_per_frame / 1e6,
                    MAX (result->device_copied_bytes_per_frame, 0) / 1e6);

      g_print ("%s: %s -> %s: %.1f frames/s, CPU %.3f ms/frame, "
               "latency median %.3f ms, p99 %.3f ms (%" G_GUINT64_FORMAT
               " frames in %.2f s)%s%s%s%s\n",
               bench_case->label, in, out, result->fps,
               result->cpu_ms_per_frame, result->latency_median_ms,
               result->latency_p99_ms, result->frames, result->seconds,
               transfers, result->active ? " [active: " : "",
               result->active ? result->active : "", result->active ? "]" : "");
      g_free (transfers);
    }
  else
    {
      g_print ("%s: %s -> %s: %s: %s\n", bench_case->label, in, out,
               bench_status_name (result->status), result->message);
    }
  g_free (in);
  g_free (out);
}

/* RFC 4180 quoting, for the fields that may hold commas or quotes. */
static gchar *
bench_csv_field (const gchar *text)
{
  gchar **parts;
  gchar *joined, *quoted;

  if (!strpbrk (text, ",\"\n"))
    return g_strdup (text);
  parts = g_strsplit (text, "\"", -1);
  joined = g_strjoinv ("\"\"", parts);
  quoted = g_strdup_printf ("\"%s\"", joined);
  g_strfreev (parts);
  g_free (joined);
  return quoted;
}

/* label,input,output,status,frames_per_s,cpu_ms_per_frame,
 * latency_median_ms,latency_p99_ms,frames,seconds,transfer_bytes_per_frame,
 * active (transfer_bytes_per_frame empty without a texel element) */
static void
bench_print_csv (const BenchCase *bench_case, const BenchResult *result)
{
  gchar *label = bench_csv_field (bench_case->label);
  gchar *in = bench_video_to_option (&bench_case->in);
  gchar *out = bench_video_to_option (&bench_case->out);
  gchar *active = bench_csv_field (result->active ? result->active : "");
  gchar *transfers
      = result->transfer_bytes_per_frame < 0
            ? g_strdup ("")
            : g_strdup_printf ("%.0f", result->transfer_bytes_per_frame);

  if (result->status == BENCH_OK)
    {
      g_print ("%s,%s,%s,ok,%.1f,%.4f,%.4f,%.4f,%" G_GUINT64_FORMAT
               ",%.3f,%s,%s\n",
               label, in, out, result->fps, result->cpu_ms_per_frame,
               result->latency_median_ms, result->latency_p99_ms,
               result->frames, result->seconds, transfers, active);
    }
  else
    {
      g_print ("%s,%s,%s,%s,,,,,,,%s,%s\n", label, in, out,
               bench_status_name (result->status), transfers, active);
    }
  g_free (transfers);
  g_free (active);
  g_free (label);
  g_free (in);
  g_free (out);
}

/* "1.23x", or "-" where either side has no number. */
static gchar *
bench_ratio (const BenchResult *result, const BenchResult *reference)
{
  if (result->status != BENCH_OK || reference->status != BENCH_OK
      || reference->fps <= 0)
    return g_strdup ("-");
  return g_strdup_printf ("%.2fx", result->fps / reference->fps);
}

static void
bench_print_matrix_row (const BenchCase *bench_case, const BenchResult *result,
                        const BenchResult *staged,
                        const BenchResult *cudaconvertscale)
{
  gchar *in = bench_video_describe (&bench_case->in);
  gchar *out = bench_video_describe (&bench_case->out);
  gchar *vs_staged = bench_ratio (result, staged);
  gchar *vs_cuda = bench_ratio (result, cudaconvertscale);

  g_print ("| %s -> %s | `%s` | %s | ", in, out, bench_case->label,
           result->active ? result->active : "");
  if (result->status == BENCH_OK)
    {
      g_print ("%.1f | %.3f | %.3f | %.3f | %s | %s |\n", result->fps,
               result->cpu_ms_per_frame, result->latency_median_ms,
               result->latency_p99_ms, vs_staged, vs_cuda);
    }
  else
    {
      const gchar *status = bench_status_name (result->status);

      g_print ("%s | %s | %s | %s | - | - |\n", status, status, status, status);
    }
  g_free (in);
  g_free (out);
  g_free (vs_staged);
  g_free (vs_cuda);
}

static void
bench_print_matrix (const BenchCase *cases, const BenchResult *results,
                    guint n_cases, guint n_implementations)
{
  guint i;

  g_print ("| case | implementation | active | frames/s | CPU ms/frame | "
           "latency median ms | latency p99 ms | vs texelconvert staged | "
           "vs cudaconvertscale |\n");
  g_print ("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < n_cases; i++)
    {
      guint first = i - i % n_implementations;

      bench_print_matrix_row (&cases[i], &results[i],
                              &results[first + MATRIX_STAGED_ROW],
                              &results[first + MATRIX_CUDACONVERTSCALE_ROW]);
    }

  g_print ("\n");
  for (i = 0; i < n_cases; i++)
    {
      gchar *in, *out;

      if (results[i].status == BENCH_OK)
        continue;
      in = bench_video_describe (&cases[i].in);
      out = bench_video_describe (&cases[i].out);
      g_print ("- %s -> %s, `%s`: %s: %s\n", in, out, cases[i].label,
               bench_status_name (results[i].status), results[i].message);
      g_free (in);
      g_free (out);
    }
}

/* Progress, and each failure's full text, on stderr as it happens. */
static void
bench_print_progress (const BenchCase *bench_case, const BenchResult *result)
{
  gchar *in = bench_video_describe (&bench_case->in);
  gchar *out = bench_video_describe (&bench_case->out);

  if (result->status == BENCH_OK)
    g_printerr (
        "%s -> %s, %s: %.1f frames/s%s%s%s\n", in, out, bench_case->label,
        result->fps, result->active ? " [active: " : "",
        result->active ? result->active : "", result->active ? "]" : "");
  else
    g_printerr ("%s -> %s, %s: %s: %s\n", in, out, bench_case->label,
                bench_status_name (result->status), result->message);
  g_free (in);
  g_free (out);
}

/* Runs every input x output x implementation, each in a fresh pipeline. */
static void
bench_run_matrix (const BenchCase *options, gboolean csv)
{
  guint n_implementations = G_N_ELEMENTS (matrix_implementations);
  guint n_cases = G_N_ELEMENTS (matrix_inputs) * G_N_ELEMENTS (matrix_outputs)
                  * n_implementations;
  BenchCase *cases = g_new0 (BenchCase, n_cases);
  BenchResult *results = g_new0 (BenchResult, n_cases);
  guint i;

  for (i = 0; i < n_cases; i++)
    {
      guint case_index = i / n_implementations;

      cases[i] = *options;
      bench_video_parse (
          matrix_inputs[case_index / G_N_ELEMENTS (matrix_outputs)],
          &cases[i].in);
      bench_video_parse (
          matrix_outputs[case_index % G_N_ELEMENTS (matrix_outputs)],
          &cases[i].out);
      cases[i].fragment = cases[i].label
          = matrix_implementations[i % n_implementations];
    }

  for (i = 0; i < n_cases; i++)
    {
      g_printerr ("[%u/%u] ", i + 1, n_cases);
      bench_run_case (&cases[i], &results[i]);
      bench_print_progress (&cases[i], &results[i]);
      if (csv)
        bench_print_csv (&cases[i], &results[i]);
    }

  if (!csv)
    {
      g_print (
          "Steady state over %.1f s after %.1f s of warm-up; ring of %u "
          "frames; appsrc queue of %u; latency from appsrc to appsink.\n\n",
          options->seconds, options->warmup_s, options->ring_size,
          BENCH_SRC_MAX_BUFFERS);
      bench_print_matrix (cases, results, n_cases, n_implementations);
    }

  for (i = 0; i < n_cases; i++)
    bench_result_clear (&results[i]);
  g_free (results);
  g_free (cases);
}

static gint
bench_run_single (const BenchCase *bench_case, gboolean csv)
{
  BenchResult result;

  bench_run_case (bench_case, &result);
  if (csv)
    {
      bench_print_csv (bench_case, &result);
      /* The CSV line has no room for why. */
      if (result.status != BENCH_OK)
        g_printerr ("%s\n", result.message);
    }
  else
    {
      bench_print_human (bench_case, &result);
    }
  bench_result_clear (&result);

  switch (result.status)
    {
      case BENCH_OK:
        return 0;
      case BENCH_NOT_AVAILABLE:
        return BENCH_EXIT_NOT_AVAILABLE;
      case BENCH_FAILED:
      default:
        return 1;
    }
}

int
main (int argc, char **argv)
{
  gchar *in = NULL, *out = NULL, *fragment = NULL, *label = NULL;
  gint ring_size = 8;
  gdouble seconds = 3.0, warmup_s = 1.0;
  gboolean csv = FALSE, matrix = FALSE, device = FALSE, nvmm = FALSE;
  GOptionEntry entries[]
      = { { "in", 0, 0, G_OPTION_ARG_STRING, &in,
            "Input frames (default NV12:3840x2160)", "FORMAT:WxH" },
          { "out", 0, 0, G_OPTION_ARG_STRING, &out,
            "Output frames (default RGBA:1280x720)", "FORMAT:WxH" },
          { "fragment", 0, 0, G_OPTION_ARG_STRING, &fragment,
            "Elements between appsrc and the output caps "
            "(default \"texelconvert\")",
            "LAUNCH-LINE" },
          { "frames-ring", 0, 0, G_OPTION_ARG_INT, &ring_size,
            "Distinct input frames, pushed in turn (default 8)", "N" },
          { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds,
            "Length of the measurement (default 3)", "S" },
          { "warmup", 0, 0, G_OPTION_ARG_DOUBLE, &warmup_s,
            "Warm-up not measured, from the first frame out (default 1)", "S" },
          { "device", 0, 0, G_OPTION_ARG_NONE, &device,
            "Frames already on the GPU: the ring is uploaded once (cudaupload) "
            "and the output caps ask for memory:CUDAMemory",
            NULL },
          { "nvmm", 0, 0, G_OPTION_ARG_NONE, &nvmm,
            "Frames in NvBufSurfaces: the ring is uploaded once "
            "(texelnvmmupload, the test plugin of tests/nvmm, CUDA device "
            "memory) and the output caps ask for memory:NVMM",
            NULL },
          { "nvmm-mem-type", 0, 0, G_OPTION_ARG_INT, &bench_nvmm_mem_type,
            "NvBufSurface memory type of --nvmm's ring (default 2, CUDA "
            "device; 4: surface arrays)",
            "N" },
          { "label", 0, 0, G_OPTION_ARG_STRING, &label,
            "Name of the run in the output (default: the fragment)", "TEXT" },
          { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
            "One line per run: label,input,output,status,frames_per_s,"
            "cpu_ms_per_frame,latency_median_ms,latency_p99_ms,frames,seconds,"
            "active",
            NULL },
          { "matrix", 0, 0, G_OPTION_ARG_NONE, &matrix,
            "Run the standard cases against every implementation "
            "(--in, --out, --fragment and --label are ignored)",
            NULL },
          { NULL } };
  GOptionContext *context;
  GError *error = NULL;
  BenchCase options = { 0 };
  gint status = 0;

  context = g_option_context_new ("- frames/s, CPU time and latency of a "
                                  "GStreamer video conversion");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, gst_init_get_option_group ());
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      g_error_free (error);
      g_option_context_free (context);
      return 2;
    }
  g_option_context_free (context);

  options.fragment = fragment ? fragment : "texelconvert";
  options.label = label ? label : options.fragment;
  options.ring_size = ring_size;
  options.seconds = seconds;
  options.warmup_s = warmup_s;
  options.memory = nvmm     ? BENCH_MEMORY_NVMM
                   : device ? BENCH_MEMORY_CUDA
                            : BENCH_MEMORY_SYSTEM;
  if (!bench_video_parse (in ? in : "NV12:3840x2160", &options.in)
      || !bench_video_parse (out ? out : "RGBA:1280x720", &options.out))
    {
      g_printerr ("--in and --out take FORMAT:WxH, e.g. NV12:1920x1080\n");
      status = 2;
    }
  else if (ring_size < 1 || seconds <= 0 || warmup_s < 0)
    {
      g_printerr ("--frames-ring must be >= 1, --seconds > 0, --warmup >= 0\n");
      status = 2;
    }
  else if (matrix)
    {
      bench_run_matrix (&options, csv);
    }
  else
    {
      status = bench_run_single (&options, csv);
    }

  g_free (in);
  g_free (out);
  g_free (fragment);
  g_free (label);
  gst_deinit ();
  return status;
}
