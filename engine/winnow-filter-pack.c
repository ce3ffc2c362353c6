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

#include <string.h>

#include "winnow-diagnostic.h"
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
