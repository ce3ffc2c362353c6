/* winnow-filter-pack.c — reading and writing a file of filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A pack file holds one filter object or an array of them. Nothing in a pack is fatal to the
 * rest: a syntax error makes the whole file a single diagnostic with its line and column, and
 * an invalid filter is skipped with diagnostics while its siblings load.
 */

#define G_LOG_DOMAIN "winnow-filter-pack"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "winnow-diagnostic.h"
#include "winnow-error.h"
#include "winnow-filter-pack.h"
#include "winnow-json-locator.h"
#include "winnow-json-reader.h"

static void
add_file_diagnostic (GPtrArray          *diagnostics,
                     WinnowFilterSource  source,
                     const char         *file,
                     guint               line,
                     guint               column,
                     const char         *message)
{
  if (diagnostics == NULL)
    return;

  g_ptr_array_add (diagnostics,
                   winnow_diagnostic_new (WINNOW_DIAGNOSTIC_ERROR,
                                          winnow_filter_source_to_string (source),
                                          file, NULL, NULL, line, column, message));
}

/**
 * winnow_filter_pack_parse:
 * @text: the file's bytes
 * @length: length of @text, or -1 if nul-terminated
 * @source: where the file comes from
 * @file: (nullable): its name, for diagnostics
 * @flags: #WinnowFilterParseFlags
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): findings are appended here
 *
 * Returns: (transfer container) (element-type WinnowFilter): the valid filters, possibly none
 */
GPtrArray *
winnow_filter_pack_parse (const char             *text,
                          gssize                  length,
                          WinnowFilterSource      source,
                          const char             *file,
                          WinnowFilterParseFlags  flags,
                          GPtrArray              *diagnostics)
{
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint first_diagnostic = diagnostics ? diagnostics->len : 0;
  gsize len;
  JsonNode *root;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  parser = _winnow_json_parse_document (&text, &len, winnow_filter_source_to_string (source),
                                        file, "a filter object or an array of them",
                                        diagnostics);
  if (parser == NULL)
    return g_steal_pointer (&filters);

  root = json_parser_get_root (parser);

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *array = json_node_get_array (root);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *path = g_strdup_printf ("[%u]", i);
          WinnowFilter *filter;

          filter = winnow_filter_new_from_json (json_array_get_element (array, i), source, file,
                                                path, flags, diagnostics);
          if (filter == NULL)
            continue;

          if (g_hash_table_contains (seen, winnow_filter_get_id (filter)))
            {
              g_autofree char *message =
                g_strdup_printf ("duplicate id “%s”; this copy is skipped",
                                 winnow_filter_get_id (filter));
              if (diagnostics != NULL)
                g_ptr_array_add (diagnostics,
                                 winnow_diagnostic_new (WINNOW_DIAGNOSTIC_ERROR,
                                                        winnow_filter_source_to_string (source),
                                                        file, winnow_filter_get_id (filter),
                                                        path, 0, 0, message));
              g_object_unref (filter);
              continue;
            }

          g_hash_table_add (seen, (gpointer) winnow_filter_get_id (filter));
          g_ptr_array_add (filters, filter);
        }
    }
  else if (JSON_NODE_HOLDS_OBJECT (root))
    {
      WinnowFilter *filter = winnow_filter_new_from_json (root, source, file, NULL, flags,
                                                          diagnostics);
      if (filter != NULL)
        g_ptr_array_add (filters, filter);
    }
  else
    add_file_diagnostic (diagnostics, source, file, 1, 1,
                         "expected a filter object or an array of filter objects");

  _winnow_json_locate_diagnostics (diagnostics, first_diagnostic, text, len);

  return g_steal_pointer (&filters);
}

/**
 * winnow_filter_pack_load_file:
 * @path: a file of filters
 * @source: where it comes from
 * @flags: #WinnowFilterParseFlags
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): findings are appended here,
 *   including an unreadable file or a directory given as a file
 *
 * Returns: (transfer container) (element-type WinnowFilter): the valid filters, possibly none
 */
GPtrArray *
winnow_filter_pack_load_file (const char             *path,
                              WinnowFilterSource      source,
                              WinnowFilterParseFlags  flags,
                              GPtrArray              *diagnostics)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  contents = _winnow_json_read_file (path, winnow_filter_source_to_string (source),
                                     "a JSON file of filters", &length, diagnostics);
  if (contents == NULL)
    return g_ptr_array_new_with_free_func (g_object_unref);

  return winnow_filter_pack_parse (contents, length, source, path, flags, diagnostics);
}

/**
 * winnow_filter_pack_to_json:
 * @filters: (element-type WinnowFilter): the filters of a pack
 * @as_array: write an array even for a single filter
 *
 * Returns: (transfer full): the pack in canonical JSON, ending with a newline
 */
char *
winnow_filter_pack_to_json (GPtrArray *filters,
                            gboolean   as_array)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (filters != NULL, NULL);

  if (filters->len == 1 && !as_array)
    root = winnow_filter_to_json_node (g_ptr_array_index (filters, 0));
  else
    {
      JsonArray *array = json_array_sized_new (filters->len);

      for (guint i = 0; i < filters->len; i++)
        json_array_add_element (array, winnow_filter_to_json_node (g_ptr_array_index (filters, i)));

      root = json_node_init_array (json_node_alloc (), array);
      json_array_unref (array);
    }

  return _winnow_json_to_document (root);
}

static char *
first_error (GPtrArray *diagnostics)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (winnow_diagnostic_get_level (d) == WINNOW_DIAGNOSTIC_ERROR)
        return winnow_diagnostic_to_string (d);
    }

  return NULL;
}

#define SAVE_LOCK_TIMEOUT_US (5 * G_USEC_PER_SEC)

/* Saving is read, merge, write: two writers at once (the dashboard and `winnow learn`, two
 * dashboards) would each write the pack they read, and the later one would drop the other's
 * filter. So a save holds an exclusive flock() on the pack's folder from the read to the
 * rename. The folder rather than the file, because the rename replaces the file's inode, and
 * rather than a lock file, which would be one more file in a project's `.rtk/`. A writer
 * waits at most SAVE_LOCK_TIMEOUT_US for another, then gives up with an error instead of
 * hanging the dashboard. Returns the locked descriptor, closed (and so unlocked) by the
 * caller, or -1 with @error set. */
static int
lock_pack_folder (const char  *path,
                  const char  *dir,
                  GError     **error)
{
  gint64 deadline = g_get_monotonic_time () + SAVE_LOCK_TIMEOUT_US;
  int saved;
  int fd;

  fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: not saved: cannot open the folder "
                   "%s: %s", path, dir, g_strerror (saved));
      return -1;
    }

  while (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      saved = errno;
      if (saved == EINTR)
        continue;
      if (saved != EWOULDBLOCK)
        {
          /* a file system without locks: save as before rather than not at all */
          g_debug ("%s: cannot lock the folder (%s); saving without the lock", dir,
                   g_strerror (saved));
          break;
        }
      if (g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: not saved: another process "
                       "kept the pack locked for 5 s", path);
          close (fd);
          return -1;
        }
      g_usleep (5000);
    }

  return fd;
}

/* Under the folder lock: reads the pack as it is now, puts @filter_node in place of the
 * filter @replace_id (or @id), keeps the old text as `PATH.bak` and writes the new one. */
static gboolean
merge_and_write (const char  *path,
                 JsonNode    *filter_node,
                 const char  *id,
                 const char  *replace_id,
                 GError     **error)
{
  g_autoptr(JsonArray) pack = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *backup = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize old_length = 0;
  gboolean replaced = FALSE;

  if (g_file_get_contents (path, &old_text, &old_length, &local_error))
    {
      g_autoptr(JsonParser) old_parser = json_parser_new ();
      JsonNode *old_root;
      const char *problem;
      guint line = 0;
      guint column = 0;

      /* checked first: json-glib overflows the stack on a deep file and leaks on "{…}{…}" */
      if ((problem = _winnow_json_check_document (old_text, old_length, &line, &column)) != NULL)
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                       "%s: not saved: the pack on disk is not valid JSON (%s, at line %u, "
                       "column %u); fix or move it first", path, problem, line, column);
          return FALSE;
        }
      if (!json_parser_load_from_data (old_parser, old_text, old_length, &local_error))
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                       "%s: not saved: the pack on disk is not valid JSON (%s); fix or move it "
                       "first", path, local_error->message);
          return FALSE;
        }

      old_root = json_parser_get_root (old_parser);
      if (JSON_NODE_HOLDS_ARRAY (old_root))
        pack = json_array_ref (json_node_get_array (old_root));
      else if (JSON_NODE_HOLDS_OBJECT (old_root))
        {
          pack = json_array_new ();
          json_array_add_element (pack, json_node_copy (old_root));
        }
      else
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                       "%s: not saved: the pack on disk is neither a filter object nor an array "
                       "of them", path);
          return FALSE;
        }
    }
  else if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_clear_error (&local_error);
      pack = json_array_new ();
    }
  else
    {
      /* an unreadable pack is not an empty one: writing would drop its filters */
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: not saved: cannot read the pack "
                   "on disk: %s", path, local_error->message);
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (pack) && !replaced; i++)
    {
      JsonNode *element = json_array_get_element (pack, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *element_id = object ? json_object_get_string_member_with_default (object, "id", NULL)
                                      : NULL;

      if (element_id != NULL && g_strcmp0 (element_id, replace_id ? replace_id : id) == 0)
        {
          /* json-glib 1.6 cannot replace an element in place: rebuild the array */
          g_autoptr(JsonArray) rebuilt = json_array_new ();

          for (guint k = 0; k < json_array_get_length (pack); k++)
            json_array_add_element (rebuilt, k == i ? json_node_copy (filter_node)
                                                    : json_node_copy (json_array_get_element (pack, k)));
          g_clear_pointer (&pack, json_array_unref);
          pack = g_steal_pointer (&rebuilt);
          replaced = TRUE;
        }
    }
  if (!replaced)
    json_array_add_element (pack, json_node_copy (filter_node));

  root = json_node_init_array (json_node_alloc (), pack);
  text = _winnow_json_to_document (root);

  if (old_text != NULL)
    {
      backup = g_strconcat (path, ".bak", NULL);
      if (!g_file_set_contents (backup, old_text, old_length, &local_error))
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO,
                       "%s: not saved: cannot keep the previous version as %s: %s", path, backup,
                       local_error->message);
          return FALSE;
        }
    }

  if (!g_file_set_contents (path, text, -1, &local_error))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: not saved: %s", path,
                   local_error->message);
      return FALSE;
    }

  return TRUE;
}

/**
 * winnow_filter_pack_save_filter:
 * @path: the pack file (`DATA_DIR/rtk/filters.json`, a project's `.rtk/filters.json`…)
 * @filter_json: one filter object, as JSON text
 * @replace_id: (nullable): the id of the filter it replaces in the pack (it may have been
 *   renamed); %NULL to replace the filter with the new id, or add it
 * @error: return location for a #GError
 *
 * Writes one filter into a pack file that may hold others, which are kept as they are. The
 * filter must validate (no error diagnostic) and the existing file must be JSON, else nothing
 * is written: a bad edit or a hand-damaged pack never costs the user the file they have. The
 * previous version is kept as `PATH.bak`, and the new one is written atomically (a temporary
 * file renamed over the old). Saves into one folder are serialised with a lock, so two
 * processes saving into the same pack at once both keep their filter.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_filter_pack_save_filter (const char  *path,
                                const char  *filter_json,
                                const char  *replace_id,
                                GError     **error)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) parsed = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *message = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *filter_node;
  const char *id;
  gboolean saved;
  int lock_fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (filter_json != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  parsed = winnow_filter_pack_parse (filter_json, -1, WINNOW_FILTER_SOURCE_FILE, path,
                                     WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
  message = first_error (diagnostics);
  if (message != NULL || parsed->len != 1)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_FILTER,
                   "%s: not saved: %s", path,
                   message ? message : "the text must hold exactly one filter object");
      return FALSE;
    }

  if (!json_parser_load_from_data (parser, filter_json, -1, &local_error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                   "%s: not saved: the filter is not one JSON object", path);
      return FALSE;
    }
  filter_node = json_parser_get_root (parser);
  id = winnow_filter_get_id (g_ptr_array_index (parsed, 0));

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: not saved: cannot create the "
                   "folder %s: %s", path, dir, g_strerror (saved_errno));
      return FALSE;
    }
  lock_fd = lock_pack_folder (path, dir, error);
  if (lock_fd < 0)
    return FALSE;

  saved = merge_and_write (path, filter_node, id, replace_id, error);
  close (lock_fd);

  return saved;
}
