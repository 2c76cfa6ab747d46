/* gst-texel: what the texel elements do alike with their properties:
 * checking a value, acting on a change (a new plan, passthrough,
 * renegotiation), and the property types more than one element has.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_TEXEL_SETTINGS_H__
#define __GST_TEXEL_SETTINGS_H__

#include "base/gsttexelbase.h"

G_BEGIN_DECLS

/* method (texelconvert, texelwarp): TexelMethod. */
#define GST_TYPE_TEXEL_METHOD (gst_texel_method_get_type ())
GType gst_texel_method_get_type (void);

/* An enum type's getter: registers @name with @values on the first call
 * (thread-safe), keeping the GType in @type, the getter's static. */
GType gst_texel_enum_type (GType *type, const gchar *name,
                           const GEnumValue *values);

/* Whether @value may be stored in the property of @pspec: TRUE where
 * GLib's validation leaves it as it is. g_object_set (and so gst-launch
 * and GstController bindings, which set through it) validates already: a
 * double or int out of the param spec's range is clamped, and NaN, which
 * the clamp leaves NaN, compares unequal to itself, so GLib finds both
 * changed, warns and never calls set_property. Only a direct call of the
 * class's set_property (or a G_PARAM_LAX_VALIDATION param spec) gets past
 * it: there the value is refused the same way, with a warning, and the
 * property keeps its value. Call without the object lock (it logs). */
gboolean gst_texel_settings_valid (GObject *object, const GValue *value,
                                   GParamSpec *pspec);

typedef enum
{
  /* The per-frame plan only: prepare runs again before the next frame. */
  GST_TEXEL_CHANGE_PLAN,
  /* The output caps too (a crop, an orientation, letterboxing): the
   * element negotiates again, and prepare decides passthrough. */
  GST_TEXEL_CHANGE_CAPS
} GstTexelChange;

/* After a property changed, without the object lock: prepare runs again
 * before the next frame. Once negotiated, the element is also passthrough
 * exactly while @neutral (its settings leave every frame as it is) and its
 * negotiated input and output are the same, in the same memory; before
 * negotiation, only an element whose output caps are its input's
 * (gst_texel_base_transform_caps_same) enters passthrough through a
 * GST_TEXEL_CHANGE_PLAN. In passthrough no frame reaches prepare, which
 * would notice: the change is made here, at once, and renegotiating gives
 * the element the output buffer pool that passthrough does without. */
void gst_texel_settings_changed (GstTexelBase *base, GstTexelChange change,
                                 gboolean neutral);

/* For an element whose output is its input (texeladjust, texelfilter):
 * FALSE, after posting an error, where @in and @out differ. */
gboolean gst_texel_settings_same_video (GstTexelBase *base,
                                        const GstVideoInfo *in,
                                        const GstVideoInfo *out);

G_END_DECLS
#endif
