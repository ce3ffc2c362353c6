/* winnow-catalog.c — every filter Winnow may use, from all its sources
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources, lowest precedence first: the built-in filters (compiled into the library as a
 * GResource, validated at build time), the global `DATA_DIR/rtk/filters.json`, a project's
 * `.rtk/filters.json` when its trust gate allows it, and files given explicitly. A filter id
 * defined by a higher source replaces the lower one, which stays reachable as "shadowed".
 *
 * The catalog is a GListModel of the effective filters, highest priority first, then by id,
 * which is also the order selection tries them in. Everything that went wrong while loading
 * is a diagnostic; loading never fails as a whole.
 */

#define G_LOG_DOMAIN "winnow-catalog"

#include "config.h"

#include <string.h>

#include "winnow-catalog.h"
#include "winnow-utf8.h"
#include "winnow-detector.h"
#include "winnow-diagnostic.h"
#include "winnow-filter-pack.h"
#include "winnow-filter-private.h"

#define BUILTIN_RESOURCE_PATH "/io/github/winnow/Winnow/filters/"

#include "winnow-builtin-filters-index.h"

struct _WinnowCatalog
{
  GObject    parent_instance;
  GPtrArray *loaded;       /* every filter loaded, in load order */
  GPtrArray *effective;    /* the winners, sorted for selection */
  GPtrArray *shadowed;     /* losers of an id clash */
  GPtrArray *diagnostics;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowCatalog, winnow_catalog, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

const char *
winnow_selection_to_string (WinnowSelection selection)
{
  switch (selection)
    {
    case WINNOW_SELECTION_NONE: return "none";
    case WINNOW_SELECTION_PASSTHROUGH: return "passthrough";
    case WINNOW_SELECTION_OUTPUT_TYPE: return "output-type";
    case WINNOW_SELECTION_COMMAND: return "command";
    case WINNOW_SELECTION_PATTERN: return "pattern";
    case WINNOW_SELECTION_FALLBACK: return "fallback";
    case WINNOW_SELECTION_FORCED: return "forced";
    default: return "unknown";
    }
}

static GType
winnow_catalog_get_item_type (GListModel *model)
{
  return WINNOW_TYPE_FILTER;
}

static guint
winnow_catalog_get_n_items (GListModel *model)
{
  return WINNOW_CATALOG (model)->effective->len;
}

static gpointer
winnow_catalog_get_item (GListModel *model,
                         guint       position)
{
  WinnowCatalog *self = WINNOW_CATALOG (model);

  if (position >= self->effective->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->effective, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = winnow_catalog_get_item_type;
  iface->get_n_items = winnow_catalog_get_n_items;
  iface->get_item = winnow_catalog_get_item;
}

static void
winnow_catalog_finalize (GObject *object)
{
  WinnowCatalog *self = (WinnowCatalog *)object;

  g_clear_pointer (&self->loaded, g_ptr_array_unref);
  g_clear_pointer (&self->effective, g_ptr_array_unref);
  g_clear_pointer (&self->shadowed, g_ptr_array_unref);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);

  G_OBJECT_CLASS (winnow_catalog_parent_class)->finalize (object);
}

static void
winnow_catalog_class_init (WinnowCatalogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_catalog_finalize;
}

static void
winnow_catalog_init (WinnowCatalog *self)
{
  self->loaded = g_ptr_array_new_with_free_func (g_object_unref);
  self->effective = g_ptr_array_new_with_free_func (g_object_unref);
  self->shadowed = g_ptr_array_new_with_free_func (g_object_unref);
  self->diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * winnow_catalog_new:
 *
 * Returns: (transfer full): an empty catalog; add sources to it
 */
WinnowCatalog *
winnow_catalog_new (void)
{
  return g_object_new (WINNOW_TYPE_CATALOG, NULL);
}

static int
compare_for_selection (gconstpointer a,
                       gconstpointer b)
{
  WinnowFilter *fa = *(WinnowFilter **) a;
  WinnowFilter *fb = *(WinnowFilter **) b;
  int pa = winnow_filter_get_priority (fa);
  int pb = winnow_filter_get_priority (fb);

  if (pa != pb)
    return pa > pb ? -1 : 1;
  return strcmp (winnow_filter_get_id (fa), winnow_filter_get_id (fb));
}

static void
rebuild (WinnowCatalog *self)
{
  g_autoptr(GHashTable) winners = g_hash_table_new (g_str_hash, g_str_equal);
  guint old_len = self->effective->len;

  g_ptr_array_set_size (self->shadowed, 0);

  /* later loads of a higher (or equal) source replace earlier ones */
  for (guint i = 0; i < self->loaded->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (self->loaded, i);
      const char *id = winnow_filter_get_id (filter);
      WinnowFilter *current = g_hash_table_lookup (winners, id);

      if (current == NULL)
        g_hash_table_insert (winners, (gpointer) id, filter);
      else if (winnow_filter_get_source (filter) >= winnow_filter_get_source (current))
        {
          g_ptr_array_add (self->shadowed, g_object_ref (current));
          g_hash_table_insert (winners, (gpointer) id, filter);
        }
      else
        g_ptr_array_add (self->shadowed, g_object_ref (filter));
    }

  g_ptr_array_set_size (self->effective, 0);
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, winners);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      g_ptr_array_add (self->effective, g_object_ref (value));
  }
  g_ptr_array_sort (self->effective, compare_for_selection);

  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_len, self->effective->len);
}

static void
check_output_types (WinnowCatalog *self,
                    WinnowFilter  *filter)
{
  const char * const *types = winnow_filter_get_output_types (filter);

  for (guint i = 0; types[i] != NULL; i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *message = NULL;

      if (winnow_detector_knows_output_type (types[i]))
        continue;

      path = g_strdup_printf ("match.outputTypes[%u]", i);
      message = g_strdup_printf ("the detector never reports “%s”; this filter can only be "
                                 "chosen by its commands or patterns", types[i]);
      g_ptr_array_add (self->diagnostics,
                       winnow_diagnostic_new (WINNOW_DIAGNOSTIC_WARNING,
                                              winnow_filter_source_to_string (
                                                winnow_filter_get_source (filter)),
                                              winnow_filter_get_file (filter),
                                              winnow_filter_get_id (filter), path, 0, 0,
                                              message));
    }
}

static guint
add_filters (WinnowCatalog *self,
             GPtrArray     *filters)
{
  for (guint i = 0; i < filters->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (filters, i);

      check_output_types (self, filter);
      g_ptr_array_add (self->loaded, g_object_ref (filter));
    }

  if (filters->len > 0)
    rebuild (self);

  return filters->len;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static gpointer
copy_object (gconstpointer src,
             gpointer      data)
{
  return g_object_ref ((gpointer) src);
}

/**
 * winnow_catalog_add_builtin:
 * @self: a #WinnowCatalog
 *
 * Adds the filters shipped inside libwinnow. filters/compact.py turned them into C data at
 * build time (winnow-builtin-filters-index.h): what selection looks at for every filter is
 * ready to use, the rest of a filter is parsed when it is first used and its tests when they
 * are asked for, and the build validated them all, so their regexes are compiled lazily too.
 * A one-shot CLI call parses one filter and nothing else.
 *
 * Returns: how many filters were added
 */
guint
winnow_catalog_add_builtin (WinnowCatalog *self)
{
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (WINNOW_IS_CATALOG (self), 0);

  for (guint i = 0; i < G_N_ELEMENTS (builtin_filters); i++)
    {
      const WinnowBuiltinFilter *entry = &builtin_filters[i];
      g_autofree char *label = g_strconcat ("filters/", entry->file, NULL);
      g_autofree char *resource = g_strconcat (BUILTIN_RESOURCE_PATH, entry->file, NULL);
      WinnowFilter *filter = _winnow_filter_new_builtin (entry, label);

      _winnow_filter_set_tests_resource (filter, resource);
      g_ptr_array_add (filters, filter);
    }

  return add_filters (self, filters);
}

/**
 * winnow_catalog_add_file:
 * @self: a #WinnowCatalog
 * @path: a JSON file with one filter or an array of filters
 * @source: where it counts as coming from
 *
 * Returns: how many filters were added; problems are in the diagnostics
 */
guint
winnow_catalog_add_file (WinnowCatalog      *self,
                         const char         *path,
                         WinnowFilterSource  source)
{
  g_autoptr(GPtrArray) filters = NULL;

  g_return_val_if_fail (WINNOW_IS_CATALOG (self), 0);
  g_return_val_if_fail (path != NULL, 0);

  filters = winnow_filter_pack_load_file (path, source, WINNOW_FILTER_PARSE_DEFAULT,
                                          self->diagnostics);
  return add_filters (self, filters);
}

/**
 * winnow_catalog_reload_file:
 * @self: a #WinnowCatalog
 * @path: a filter file added before, or a new one
 * @source: where its filters count as coming from
 *
 * Reads @path again after it changed on disk (the filter editor saved it): its old filters
 * and diagnostics go, the new ones come in, and the list model says what changed. A file
 * that no longer exists just leaves the catalog.
 *
 * Returns: how many filters the file holds now
 */
guint
winnow_catalog_reload_file (WinnowCatalog      *self,
                            const char         *path,
                            WinnowFilterSource  source)
{
  g_autoptr(GPtrArray) filters = NULL;

  g_return_val_if_fail (WINNOW_IS_CATALOG (self), 0);
  g_return_val_if_fail (path != NULL, 0);

  for (guint i = self->loaded->len; i > 0; i--)
    if (g_strcmp0 (winnow_filter_get_file (g_ptr_array_index (self->loaded, i - 1)), path) == 0)
      g_ptr_array_remove_index (self->loaded, i - 1);

  for (guint i = self->diagnostics->len; i > 0; i--)
    if (g_strcmp0 (winnow_diagnostic_get_file (g_ptr_array_index (self->diagnostics, i - 1)),
                   path) == 0)
      g_ptr_array_remove_index (self->diagnostics, i - 1);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      rebuild (self);
      return 0;
    }

  filters = winnow_filter_pack_load_file (path, source, WINNOW_FILTER_PARSE_DEFAULT,
                                          self->diagnostics);
  if (filters->len == 0)
    rebuild (self);
  /* otherwise add_filters rebuilds the effective list */
  return add_filters (self, filters);
}

/**
 * winnow_catalog_add_directory:
 * @self: a #WinnowCatalog
 * @directory: a folder of `*.json` filter files
 * @source: where they count as coming from
 *
 * Files are read in name order.
 *
 * Returns: how many filters were added
 */
guint
winnow_catalog_add_directory (WinnowCatalog      *self,
                              const char         *directory,
                              WinnowFilterSource  source)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint added = 0;

  g_return_val_if_fail (WINNOW_IS_CATALOG (self), 0);
  g_return_val_if_fail (directory != NULL, 0);

  dir = g_dir_open (directory, 0, &error);
  if (dir == NULL)
    {
      g_ptr_array_add (self->diagnostics,
                       winnow_diagnostic_new (WINNOW_DIAGNOSTIC_ERROR,
                                              winnow_filter_source_to_string (source), directory,
                                              NULL, NULL, 0, 0, error->message));
      return 0;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json") && name[0] != '_' && name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (directory, g_ptr_array_index (names, i), NULL);
      added += winnow_catalog_add_file (self, path, source);
    }

  return added;
}

/**
 * winnow_catalog_add_project:
 * @self: a #WinnowCatalog
 * @project_dir: a project folder
 * @trust_override: trust the project's filters without a hash
 *
 * Adds `.rtk/filters.json` if the trust gate allows it; otherwise records a warning saying why
 * it was skipped.
 *
 * Returns: (transfer full): the project's trust status
 */
WinnowTrustStatus *
winnow_catalog_add_project (WinnowCatalog *self,
                            const char    *project_dir,
                            gboolean       trust_override)
{
  WinnowTrustStatus *status;
  WinnowTrustState state;

  g_return_val_if_fail (WINNOW_IS_CATALOG (self), NULL);
  g_return_val_if_fail (project_dir != NULL, NULL);

  status = winnow_trust_check (project_dir, trust_override);
  state = winnow_trust_status_get_state (status);

  if (winnow_trust_status_is_trusted (status))
    winnow_catalog_add_file (self, winnow_trust_status_get_filters_path (status),
                             WINNOW_FILTER_SOURCE_PROJECT);
  else if (state != WINNOW_TRUST_NO_FILTERS)
    g_ptr_array_add (self->diagnostics,
                     winnow_diagnostic_new (WINNOW_DIAGNOSTIC_WARNING, "project",
                                            winnow_trust_status_get_filters_path (status), NULL,
                                            NULL, 0, 0, winnow_trust_status_get_message (status)));

  return status;
}

/**
 * winnow_catalog_get_diagnostics:
 * @self: a #WinnowCatalog
 *
 * Returns: (transfer none) (element-type WinnowDiagnostic): everything noticed while loading
 */
GPtrArray *
winnow_catalog_get_diagnostics (WinnowCatalog *self)
{
  g_return_val_if_fail (WINNOW_IS_CATALOG (self), NULL);
  return self->diagnostics;
}

/**
 * winnow_catalog_dup_filters:
 * @self: a #WinnowCatalog
 *
 * Returns: (transfer container) (element-type WinnowFilter): the effective filters, in
 *   selection order
 */
GPtrArray *
winnow_catalog_dup_filters (WinnowCatalog *self)
{
  g_return_val_if_fail (WINNOW_IS_CATALOG (self), NULL);

  return g_ptr_array_copy (self->effective, copy_object, NULL);
}

/**
 * winnow_catalog_lookup:
 * @self: a #WinnowCatalog
 * @id: a filter id
 *
 * Returns: (transfer none) (nullable): the effective filter with @id
 */
WinnowFilter *
winnow_catalog_lookup (WinnowCatalog *self,
                       const char    *id)
{
  g_return_val_if_fail (WINNOW_IS_CATALOG (self), NULL);

  for (guint i = 0; id != NULL && i < self->effective->len; i++)
    if (strcmp (winnow_filter_get_id (g_ptr_array_index (self->effective, i)), id) == 0)
      return g_ptr_array_index (self->effective, i);

  return NULL;
}

/**
 * winnow_catalog_lookup_shadowed:
 * @self: a #WinnowCatalog
 * @id: a filter id
 *
 * Returns: (transfer none) (nullable): a filter with @id that a higher source replaced
 */
WinnowFilter *
winnow_catalog_lookup_shadowed (WinnowCatalog *self,
                                const char    *id)
{
  g_return_val_if_fail (WINNOW_IS_CATALOG (self), NULL);

  for (guint i = self->shadowed->len; id != NULL && i > 0; i--)
    if (strcmp (winnow_filter_get_id (g_ptr_array_index (self->shadowed, i - 1)), id) == 0)
      return g_ptr_array_index (self->shadowed, i - 1);

  return NULL;
}

static gboolean
usable (WinnowFilter *filter,
        WinnowConfig *config)
{
  return config == NULL || winnow_config_is_filter_enabled (config, winnow_filter_get_id (filter));
}

/**
 * winnow_catalog_select:
 * @self: a #WinnowCatalog
 * @detection: what the detector made of the output
 * @text: the output
 * @length: its length in bytes
 * @config: (nullable): settings, for `enabledFilters` and `disabledFilters`
 * @selection: (out) (optional): why the filter was chosen
 *
 * Tries, in priority order: a filter for the detected output type; one whose command pattern
 * matches the command; one whose text patterns match the output (at least two of them, or its
 * only one, since a single loose pattern also matches prose); the generic fallback. Output the
 * detector calls passthrough gets no filter: file reads always, and prose without a command
 * unless a filter's text patterns claim it.
 *
 * Returns: (transfer none) (nullable): the filter to run, or %NULL for none
 */
WinnowFilter *
winnow_catalog_select (WinnowCatalog   *self,
                       WinnowDetection *detection,
                       const char      *text,
                       gsize            length,
                       WinnowConfig    *config,
                       WinnowSelection *selection)
{
  const char *type;
  const char *command;
  WinnowFilter *best = NULL;
  guint best_hits = 0;
  WinnowSelection dummy;

  g_return_val_if_fail (WINNOW_IS_CATALOG (self), NULL);
  g_return_val_if_fail (WINNOW_IS_DETECTION (detection), NULL);

  if (selection == NULL)
    selection = &dummy;

  type = winnow_detection_get_output_type (detection);
  command = winnow_detection_get_command (detection);

  /* A file read passes through; unrecognised output without a command passes through too,
   * unless a filter's own text patterns claim it (below). */
  if (winnow_detection_get_passthrough (detection) && strcmp (type, "generic-output") != 0)
    {
      *selection = WINNOW_SELECTION_PASSTHROUGH;
      return NULL;
    }

  if (strcmp (type, "generic-output") != 0)
    for (guint i = 0; i < self->effective->len; i++)
      {
        WinnowFilter *filter = g_ptr_array_index (self->effective, i);

        if (usable (filter, config) &&
            g_strv_contains (winnow_filter_get_output_types (filter), type))
          {
            *selection = WINNOW_SELECTION_OUTPUT_TYPE;
            return filter;
          }
      }

  if (command != NULL)
    for (guint i = 0; i < self->effective->len; i++)
      {
        WinnowFilter *filter = g_ptr_array_index (self->effective, i);

        if (usable (filter, config) && winnow_filter_matches_command (filter, command))
          {
            *selection = WINNOW_SELECTION_COMMAND;
            return filter;
          }
      }

  /* A command that names a tool is stronger evidence than loose text patterns. */
  if (!winnow_detection_get_command_matched (detection) && text != NULL &&
      _winnow_utf8_validate (text, length, NULL))
    for (guint i = 0; i < self->effective->len; i++)
      {
        WinnowFilter *filter = g_ptr_array_index (self->effective, i);
        guint n_patterns = g_strv_length ((char **) winnow_filter_get_text_patterns (filter));
        guint hits;

        if (n_patterns == 0 || !usable (filter, config) ||
            g_strv_contains (winnow_filter_get_output_types (filter), "generic-output"))
          continue;

        hits = winnow_filter_count_text_pattern_hits (filter, text, MIN (length, 64 * 1024));
        if (hits >= MIN (2u, n_patterns) && hits > best_hits)
          {
            best = filter;
            best_hits = hits;
          }
      }

  if (best != NULL)
    {
      *selection = WINNOW_SELECTION_PATTERN;
      return best;
    }

  if (winnow_detection_get_passthrough (detection))
    {
      *selection = WINNOW_SELECTION_PASSTHROUGH;
      return NULL;
    }

  for (guint i = 0; i < self->effective->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (self->effective, i);

      if (usable (filter, config) &&
          (g_strv_contains (winnow_filter_get_output_types (filter), "generic-output") ||
           strcmp (winnow_filter_get_id (filter), "generic-output") == 0))
        {
          *selection = WINNOW_SELECTION_FALLBACK;
          return filter;
        }
    }

  *selection = WINNOW_SELECTION_NONE;
  return NULL;
}
