/* gst-texel tests: objects left alive, seen through the leaks tracer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-leaks.h"

/* The leaks tracer, when GST_TRACERS has it. */
GstTracer *
texel_find_leaks_tracer (void)
{
  GList *tracers = gst_tracing_get_active_tracers ();
  GList *l;
  GstTracer *found = NULL;

  for (l = tracers; l; l = l->next)
    {
      if (!found
          && g_str_equal (G_OBJECT_TYPE_NAME (l->data), "GstLeaksTracer"))
        found = gst_object_ref (l->data);
    }
  g_list_free_full (tracers, gst_object_unref);
  return found;
}

/* Adds @delta to @count's tally of each address in @list (a leaks tracer
 * object list), never below 0. */
static void
count_addresses (GHashTable *count, const GValue *list, gint delta)
{
  guint k;

  for (k = 0; k < gst_value_list_get_size (list); k++)
    {
      const GstStructure *o
          = gst_value_get_structure (gst_value_list_get_value (list, k));
      const gchar *addr = gst_structure_get_string (o, "address");
      gint c = GPOINTER_TO_INT (g_hash_table_lookup (count, addr)) + delta;

      if (c >= 0)
        g_hash_table_insert (count, (gpointer)addr, GINT_TO_POINTER (c));
    }
}

/* Fails if an object created since tracking started (and listed in the
 * leaks tracer's checkpoint @cp) is still alive: created minus removed,
 * counted per address (addresses can be reused). */
void
texel_check_checkpoint_empty (const GstStructure *cp, const gchar *what)
{
  const GValue *created = gst_structure_get_value (cp, "objects-created-list");
  const GValue *removed = gst_structure_get_value (cp, "objects-removed-list");
  GHashTable *count = g_hash_table_new (g_str_hash, g_str_equal);
  GString *types = g_string_new (NULL);
  guint k, n_alive = 0;

  fail_unless (created != NULL && removed != NULL);
  count_addresses (count, created, 1);
  count_addresses (count, removed, -1);
  for (k = 0; k < gst_value_list_get_size (created); k++)
    {
      const GstStructure *o
          = gst_value_get_structure (gst_value_list_get_value (created, k));
      const gchar *addr = gst_structure_get_string (o, "address");
      gint c = GPOINTER_TO_INT (g_hash_table_lookup (count, addr));

      if (c > 0)
        {
          n_alive++;
          g_hash_table_insert (count, (gpointer)addr, GINT_TO_POINTER (c - 1));
          if (types->len < 800)
            g_string_append_printf (
                types, "%s%s", types->len ? ", " : "",
                GST_STR_NULL (gst_structure_get_string (o, "type-name")));
        }
    }
  g_hash_table_destroy (count);
  if (n_alive > 0)
    {
      g_printerr ("%s: still alive: %s\n", what, types->str);
      fail ("%u objects created during %s are still alive (%.800s)", n_alive,
            what, types->str);
    }
  g_string_free (types, TRUE);
}
