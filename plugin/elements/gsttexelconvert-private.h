/* gst-texel: texelconvert's instance.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_CONVERT_PRIVATE_H__
#define __GST_TEXEL_CONVERT_PRIVATE_H__

#include "elements/gsttexelconvert.h"
#include "texel-cuda.h"
#include "texel-convert-fast.h"

G_BEGIN_DECLS

struct _GstTexelConvert
{
  GstTexelBase parent;

  /* properties, under the object lock */
  TexelMethod method;
  gint crop[4]; /* left, right, top, bottom */
  gboolean add_borders;
  guint border_color;
  GstVideoOrientationMethod direction;
  GstVideoOrientationMethod tag_direction;

  /* raw Bayer development (gsttexelconvert-bayer.c), under the object
   * lock */
  TexelDemosaic demosaic;
  gint bayer_alignment; /* GstTexelBayerAlignment */
  gdouble black[3], gain[3];
  gdouble ccm[9];
  gint raw_transfer; /* GstTexelRawTransfer */
  /* Automatic grey-world white balance: the smoothed estimate (the gains
   * the next frame gets) once a frame has given one (awb_have), and the
   * gains the current frame got. */
  gboolean awb, awb_lock;
  gdouble awb_speed;
  gboolean awb_have;
  gdouble awb_gains[3], awb_applied[3];

  /* streaming thread */
  TexelConvertPlan plan;
  /* The negotiated input's mosaic: pattern NONE when it is not Bayer. */
  TexelBayerPattern bayer_pattern;
  gint bayer_bits;
  /* What the plan was built from (the automatic white balance changes
   * its gains between frames). */
  TexelBayerConfig bayer_config;
  /* CPU path: the statistics the current frame's bands add up
   * (plan.bayer.awb_cpu_sums points here while @awb_cpu_pts is the
   * frame's timestamp and @awb_cpu_frame is set). */
  guint64 awb_cpu_sums[6];
  GstClockTime awb_cpu_pts;
  gboolean awb_cpu_frame;
};

/* Property ids of the raw Bayer development, after texelconvert's own. */
enum
{
  PROP_DEMOSAIC = 64,
  PROP_BAYER_ALIGNMENT,
  PROP_BLACK_LEVEL_RED,
  PROP_BLACK_LEVEL_GREEN,
  PROP_BLACK_LEVEL_BLUE,
  PROP_WB_GAIN_RED,
  PROP_WB_GAIN_GREEN,
  PROP_WB_GAIN_BLUE,
  PROP_COLOR_MATRIX,
  PROP_RAW_TRANSFER,
  PROP_AUTO_WHITE_BALANCE,
  PROP_AWB_LOCK,
  PROP_AWB_SPEED,
  PROP_AWB_GAINS
};

typedef enum
{
  GST_TEXEL_BAYER_LSB = 0,
  GST_TEXEL_BAYER_MSB = 1
} GstTexelBayerAlignment;

typedef enum
{
  GST_TEXEL_RAW_TRANSFER_AUTO = 0,
  GST_TEXEL_RAW_TRANSFER_SRGB,
  GST_TEXEL_RAW_TRANSFER_BT709,
  GST_TEXEL_RAW_TRANSFER_LINEAR
} GstTexelRawTransfer;

/* The sink caps of raw Bayer input: 8-bit samples, or 10 to 16 bits in
 * little-endian 16-bit words (GStreamer 1.24's names, accepted on any
 * version); progressive, like the element's raw caps. */
#define GST_TEXEL_BAYER_FORMATS(p)                                             \
#p ", " #p "10le, " #p "12le, " #p "14le, " #p "16le"
#define GST_TEXEL_BAYER_CAPS                                                                                                                                                        \
  "video/x-bayer, format = (string) { " GST_TEXEL_BAYER_FORMATS (                                                                                                                   \
      rggb) ", " GST_TEXEL_BAYER_FORMATS (bggr) ", " GST_TEXEL_BAYER_FORMATS (grbg) ", " GST_TEXEL_BAYER_FORMATS (gbrg) " }, "                                                      \
                                                                                                                        "width = (int) [ 1, 32767 ], height = (int) [ 1, 32767 ], " \
                                                                                                                        "framerate = (fraction) [ 0, max ]" GST_TEXEL_PROGRESSIVE

#define GST_TYPE_TEXEL_DEMOSAIC (gst_texel_demosaic_get_type ())
GType gst_texel_demosaic_get_type (void);
#define GST_TYPE_TEXEL_BAYER_ALIGNMENT (gst_texel_bayer_alignment_get_type ())
GType gst_texel_bayer_alignment_get_type (void);
#define GST_TYPE_TEXEL_RAW_TRANSFER (gst_texel_raw_transfer_get_type ())
GType gst_texel_raw_transfer_get_type (void);

void gst_texel_convert_bayer_install (GObjectClass *gobject_class);
void gst_texel_convert_bayer_init (GstTexelConvert *self);
gboolean gst_texel_convert_bayer_set_property (GstTexelConvert *self,
                                               guint prop_id,
                                               const GValue *value);
gboolean gst_texel_convert_bayer_get_property (GstTexelConvert *self,
                                               guint prop_id, GValue *value);
/* Whether fixed @caps are raw Bayer, and which. */
gboolean gst_texel_convert_bayer_caps (GstCaps *caps,
                                       TexelBayerPattern *pattern, gint *bits);
/* The GRAY8 or GRAY16_LE caps laying out the same frames (transfer
 * full). */
GstCaps *gst_texel_convert_bayer_stand_in (GstCaps *caps, gint bits);
/* @caps with Bayer structures turned into video/x-raw of any format
 * (transfer full; @caps is not taken). */
GstCaps *gst_texel_convert_bayer_as_raw (GstCaps *caps);
/* @caps (taken) with their Bayer twins in system memory after its last
 * system-memory structure (the order of its memories kept). */
GstCaps *gst_texel_convert_bayer_append (GstCaps *caps);
/* The development the properties ask for, for output @out; FALSE after
 * posting an error when they cannot be met. */
gboolean gst_texel_convert_bayer_config (GstTexelConvert *self,
                                         const GstVideoInfo *out,
                                         TexelBayerConfig *cfg);
/* Logs (INFO) which CPU path a Bayer input's new plan takes: the fast
 * one, or the reference. */
void gst_texel_convert_bayer_planned (GstTexelConvert *self);
/* The automatic white balance of a Bayer input frame (before_transform):
 * applies the estimate so far to the plan and asks the kernels to gather
 * @inbuf's statistics in their pass. */
void gst_texel_convert_bayer_awb (GstTexelConvert *self, GstBuffer *inbuf);
/* After a frame finished (frame_finished, either path): the statistics of
 * the frames finished so far into the estimate, each posted (streaming
 * thread). */
void gst_texel_convert_bayer_awb_collect (GstTexelConvert *self);
/* Forgets the estimate (start, or the automatic white balance turned
 * on). Object lock held. */
void gst_texel_convert_bayer_awb_reset (GstTexelConvert *self);

G_END_DECLS
#endif
