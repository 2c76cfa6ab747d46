/* gst-texel: GstTexelBase's CPU path, a frame split into bands of rows
 * that a pool of workers and the streaming thread process at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/gsttexelbase-private.h"

#define GST_CAT_DEFAULT gst_texel_base_debug

/* CPU path: one band of output rows, run by a worker. */
typedef struct
{
  GstTexelBase *self;
  const TexelImage *in;
  TexelImage *out;
  int row0, row1;
} TexelCpuBand;

/* The subclass's CPU kernel on its plan. */
static void
gst_texel_base_cpu_rows (GstTexelBase *self, const TexelImage *in,
                         TexelImage *out, int row0, int row1)
{
  GST_TEXEL_BASE_GET_CLASS (self)->kernel->cpu (gst_texel_base_plan (self), in,
                                                out, row0, row1);
}

static void
gst_texel_base_cpu_band (gpointer data, gpointer user_data)
{
  TexelCpuBand *band = data;
  GstTexelBasePrivate *priv = PRIV (band->self);

  gst_texel_base_cpu_rows (band->self, band->in, band->out, band->row0,
                           band->row1);
  g_mutex_lock (&priv->cpu_lock);
  if (--priv->cpu_bands_left == 0)
    g_cond_signal (&priv->cpu_cond);
  g_mutex_unlock (&priv->cpu_lock);
}

/* Splits the frame into one band of rows per thread (even rows: 4:2:0
 * chroma rows belong to one band); the calling thread takes the last. */
void
gst_texel_base_process_cpu (GstTexelBase *self, const TexelImage *in,
                            TexelImage *out)
{
  GstTexelBasePrivate *priv = PRIV (self);
  /* Bands of at least 16 rows: fewer are not worth a thread. */
  guint n = priv->cpu_pool
                ? CLAMP ((guint)out->height / 16, 1, priv->cpu_threads)
                : 1;
  int step
      = n > 1 ? (int)GST_ROUND_UP_2 ((out->height + n - 1) / n) : out->height;
  TexelCpuBand bands[MAX_N_THREADS];
  guint b, used = 0;

  for (b = 0; b < n && (int)b * step < out->height; b++)
    {
      bands[b] = (TexelCpuBand){ self, in, out, b * step,
                                 MIN (out->height, (int)(b + 1) * step) };
      used++;
    }
  priv->cpu_bands_left = used - 1;
  for (b = 0; b + 1 < used; b++)
    g_thread_pool_push (priv->cpu_pool, &bands[b], NULL);
  gst_texel_base_cpu_rows (self, in, out, bands[used - 1].row0,
                           bands[used - 1].row1);
  g_mutex_lock (&priv->cpu_lock);
  while (priv->cpu_bands_left > 0)
    g_cond_wait (&priv->cpu_cond, &priv->cpu_lock);
  g_mutex_unlock (&priv->cpu_lock);
}

/* The workers of a started element on the CPU path: one per core but the
 * streaming thread, or n-threads. */
void
gst_texel_base_cpu_start (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);

  GST_OBJECT_LOCK (self);
  priv->cpu_threads = priv->n_threads
                          ? priv->n_threads
                          : MIN (g_get_num_processors (), MAX_N_THREADS);
  GST_OBJECT_UNLOCK (self);
  if (priv->cpu_threads > 1)
    priv->cpu_pool = g_thread_pool_new (gst_texel_base_cpu_band, NULL,
                                        priv->cpu_threads - 1, FALSE, NULL);
}

void
gst_texel_base_cpu_stop (GstTexelBase *self)
{
  GstTexelBasePrivate *priv = PRIV (self);

  if (priv->cpu_pool)
    {
      g_thread_pool_free (priv->cpu_pool, FALSE, TRUE);
      priv->cpu_pool = NULL;
    }
}

gboolean
gst_texel_cpu_reference (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    g_once_init_leave (
        &once, 1 + !g_strcmp0 (g_getenv ("GST_TEXEL_CPU"), "reference"));
  return once == 2;
}
