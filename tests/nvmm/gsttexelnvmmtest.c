/* gst-texel tests: a test-only plugin (never installed) with the two ends
 * of an NVMM pipeline where no NVIDIA element is at hand:
 *
 *  - texelnvmmupload: system memory in, memory:NVMM out: each frame copied
 *    into a new NvBufSurface of the stand-in libnvbufsurface (or NVIDIA's,
 *    whichever the process loaded) in the memory type `mem-type` names, as
 *    nvvidconv and DeepStream's elements hand them on (one memory whose map
 *    gives the NvBufSurface);
 *  - texelnvmmdownload: memory:NVMM in (any memory type the test library
 *    can copy from), system memory out.
 *
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=NV12 ! \
 *   texelnvmmupload mem-type=2 ! texelconvert ! \
 *   'video/x-raw(memory:NVMM),format=RGBA' ! texelnvmmdownload ! fakesink
 *
 * (GST_PLUGIN_PATH: build/plugin and build/tests/nvmm;
 * GST_TEXEL_NVBUFSURFACE_LIBRARY: the stand-in; GST_TEXEL_NVMM=1 where the
 * element would not offer NVMM itself.) Each frame costs an allocation:
 * the elements are for tests, not for measurements.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "texel-nvmm-buffers.h"

#define TEXEL_TEST_CAPS                                                        \
  "video/x-raw%s, format = (string) { NV12, NV21, I420, YV12, YUY2, UYVY, "    \
  "RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, GRAY8, P010_10LE }, "         \
  "width = (int) [ 1, 32767 ], height = (int) [ 1, 32767 ], "                  \
  "framerate = (fraction) [ 0, max ]"

typedef struct
{
  GstBaseTransform parent;
  GstVideoInfo info;
  gint mem_type;
} TexelNvmmTest;

typedef struct
{
  GstBaseTransformClass parent_class;
  gboolean upload;
} TexelNvmmTestClass;

enum
{
  PROP_0,
  PROP_MEM_TYPE,
};

GType texel_nvmm_test_get_type (void);
G_DEFINE_TYPE (TexelNvmmTest, texel_nvmm_test, GST_TYPE_BASE_TRANSFORM)

/* The same caps in the other memory: NVMM <-> system memory. */
static GstCaps *
texel_nvmm_test_transform_caps (GstBaseTransform *trans,
                                GstPadDirection direction, GstCaps *caps,
                                GstCaps *filter)
{
  gboolean upload = ((TexelNvmmTestClass *)G_OBJECT_GET_CLASS (trans))->upload;
  /* towards the NVMM side: the source pad of upload, the sink of download */
  gboolean to_nvmm = (direction == GST_PAD_SINK) == upload;
  GstCaps *result = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (result); i++)
    gst_caps_set_features (result, i,
                           to_nvmm ? gst_caps_features_new ("memory:NVMM", NULL)
                                   : gst_caps_features_new_empty ());
  if (filter)
    {
      GstCaps *tmp
          = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);

      gst_caps_unref (result);
      result = tmp;
    }
  return result;
}

static gboolean
texel_nvmm_test_set_caps (GstBaseTransform *trans, GstCaps *incaps,
                          GstCaps *outcaps)
{
  return gst_video_info_from_caps (&((TexelNvmmTest *)trans)->info, incaps);
}

static GstFlowReturn
texel_nvmm_test_prepare_output_buffer (GstBaseTransform *trans,
                                       GstBuffer *inbuf, GstBuffer **outbuf)
{
  TexelNvmmTest *self = (TexelNvmmTest *)trans;
  gboolean upload = ((TexelNvmmTestClass *)G_OBJECT_GET_CLASS (trans))->upload;

  if (upload)
    *outbuf = texel_nvmm_buffer_new (&self->info, inbuf,
                                     (NvBufSurfaceMemType)self->mem_type, 1);
  else
    *outbuf = texel_nvmm_buffer_download (inbuf, &self->info);
  if (!*outbuf)
    {
      GST_ELEMENT_ERROR (trans, RESOURCE, FAILED,
                         ("Could not copy the frame %s an NvBufSurface",
                          upload ? "into" : "out of"),
                         (NULL));
      return GST_FLOW_ERROR;
    }
  gst_buffer_copy_into (*outbuf, inbuf, GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  return GST_FLOW_OK;
}

static GstFlowReturn
texel_nvmm_test_transform (GstBaseTransform *trans, GstBuffer *inbuf,
                           GstBuffer *outbuf)
{
  return GST_FLOW_OK; /* done in prepare_output_buffer */
}

static void
texel_nvmm_test_set_property (GObject *object, guint prop_id,
                              const GValue *value, GParamSpec *pspec)
{
  if (prop_id == PROP_MEM_TYPE)
    ((TexelNvmmTest *)object)->mem_type = g_value_get_int (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
texel_nvmm_test_get_property (GObject *object, guint prop_id, GValue *value,
                              GParamSpec *pspec)
{
  if (prop_id == PROP_MEM_TYPE)
    g_value_set_int (value, ((TexelNvmmTest *)object)->mem_type);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
texel_nvmm_test_class_init (TexelNvmmTestClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = texel_nvmm_test_set_property;
  gobject_class->get_property = texel_nvmm_test_get_property;
  g_object_class_install_property (
      gobject_class, PROP_MEM_TYPE,
      g_param_spec_int ("mem-type", "Memory type",
                        "NvBufSurfaceMemType of the surfaces made (upload): "
                        "0 default, 1 CUDA pinned, 2 CUDA device, "
                        "3 CUDA unified, 4 surface array (the stand-in's "
                        "GL textures: one-plane formats), 6 system",
                        0, 6, NVBUF_MEM_SYSTEM,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  trans_class->transform_caps = texel_nvmm_test_transform_caps;
  trans_class->set_caps = texel_nvmm_test_set_caps;
  trans_class->prepare_output_buffer = texel_nvmm_test_prepare_output_buffer;
  trans_class->transform = texel_nvmm_test_transform;
  trans_class->passthrough_on_same_caps = FALSE;
}

static void
texel_nvmm_test_init (TexelNvmmTest *self)
{
  self->mem_type = NVBUF_MEM_SYSTEM;
}

/* The two elements: the same class with the NVMM side on either pad. */
static void
texel_nvmm_test_add_pads (GstElementClass *element_class, gboolean upload,
                          const gchar *name)
{
  gchar *system = g_strdup_printf (TEXEL_TEST_CAPS, "");
  gchar *nvmm = g_strdup_printf (TEXEL_TEST_CAPS, "(memory:NVMM)");
  GstCaps *sys_caps = gst_caps_from_string (system);
  GstCaps *nvmm_caps = gst_caps_from_string (nvmm);

  gst_element_class_add_pad_template (
      element_class, gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                                           upload ? sys_caps : nvmm_caps));
  gst_element_class_add_pad_template (
      element_class, gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                                           upload ? nvmm_caps : sys_caps));
  gst_element_class_set_static_metadata (
      element_class, name, "Filter/Converter/Video",
      upload ? "Copies frames into NvBufSurfaces (tests only)"
             : "Copies frames out of NvBufSurfaces (tests only)",
      "gst-texel");
  gst_caps_unref (sys_caps);
  gst_caps_unref (nvmm_caps);
  g_free (system);
  g_free (nvmm);
}

static void
texel_nvmm_upload_class_init (gpointer klass, gpointer data)
{
  ((TexelNvmmTestClass *)klass)->upload = TRUE;
  texel_nvmm_test_add_pads (GST_ELEMENT_CLASS (klass), TRUE,
                            "NVMM upload (test)");
}

static void
texel_nvmm_download_class_init (gpointer klass, gpointer data)
{
  ((TexelNvmmTestClass *)klass)->upload = FALSE;
  texel_nvmm_test_add_pads (GST_ELEMENT_CLASS (klass), FALSE,
                            "NVMM download (test)");
}

/* Registers element @element of the subtype @name of TexelNvmmTest,
 * @class_init setting it up. The type is registered on the plugin's one
 * load (a second finds it registered). */
static gboolean
texel_nvmm_register (GstPlugin *plugin, const gchar *element, const gchar *name,
                     GClassInitFunc class_init)
{
  GType type = g_type_from_name (name);
  GTypeQuery query;
  GTypeInfo info = { 0 };

  if (!type)
    {
      g_type_query (texel_nvmm_test_get_type (), &query);
      info.class_size = query.class_size;
      info.instance_size = query.instance_size;
      info.class_init = class_init;
      type = g_type_register_static (texel_nvmm_test_get_type (), name, &info,
                                     0);
    }
  return gst_element_register (plugin, element, GST_RANK_NONE, type);
}

static gboolean
plugin_init (GstPlugin *plugin)
{
  return texel_nvmm_register (plugin, "texelnvmmupload", "TexelNvmmUpload",
                              texel_nvmm_upload_class_init)
         && texel_nvmm_register (plugin, "texelnvmmdownload",
                                 "TexelNvmmDownload",
                                 texel_nvmm_download_class_init);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, texelnvmmtest,
                   "gst-texel's NVMM test elements (tests only)", plugin_init,
                   "0.1.0", "LGPL", "gst-texel tests",
                   "https://github.com/gst-texel/gst-texel")
