/* test-literals.c — the literal prefilter never skips a line a pattern matches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The stage runner skips a line pattern on a line that lacks every literal the pattern needs
 * (engine/winnow-literals.c). A wrong literal would silently drop an error line, so this checks
 * the property on everything we have: every line pattern of every built-in and conformance
 * filter against every line of the real-output corpus.
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "test-util.h"
#include "winnow.h"
#include "winnow-literals.h"

static void
check_literals (const char *pattern,
                const char *expected)
{
  g_autoptr(GPtrArray) literals = _winnow_literals_required (pattern);
  g_autoptr(GString) got = g_string_new (NULL);

  for (guint i = 0; literals != NULL && i < literals->len; i++)
    g_string_append_printf (got, "%s[%s]", i ? " " : "", (char *) g_ptr_array_index (literals, i));

  g_assert_cmpstr (literals ? got->str : NULL, ==, expected);
}

static void
test_extraction (void)
{
  check_literals ("\\b(?:error|fail)\\b", "[error] [fail]");
  check_literals ("^\\s+at \\S+", "[at ]");
  check_literals ("Tests:\\s+\\d+", "[tests:]");
  check_literals ("a(?:b|c)d", "[abd] [acd]");
  check_literals ("x+yz", "[xyz]");
  check_literals ("ab?cd", "[cd]");
  check_literals ("\\bFAIL(?:ED)?\\b", "[fail]");
  check_literals ("Switched to", "[switched to]");
  check_literals ("ab{2}c", "[ab]");
  /* nothing safe to say */
  check_literals ("^\\s*$", NULL);
  check_literals ("^\\s{2}\\S+", NULL);
  check_literals ("foo|x", NULL);          /* a one-character branch */
  check_literals ("(a)\\1", NULL);         /* backreference */
  check_literals ("(?=abc)x", NULL);       /* lookahead consumes nothing */
  check_literals ("caf(?:é|e)s", "[caf]"); /* é folds to bytes we cannot check */
  check_literals ("(?:é|e)tat", "[tat]");
  check_literals ("(unclosed", NULL);
  check_literals ("(?i)abc", NULL);        /* inline flags: not guessed at */
}

static void
add_lines (GPtrArray  *lines,
           const char *text)
{
  g_auto(GStrv) split = g_strsplit (text, "\n", -1);

  for (guint i = 0; split[i] != NULL; i++)
    {
      gsize len = strlen (split[i]);

      if (len > 0 && split[i][len - 1] == '\r')
        split[i][len - 1] = '\0';
      if (g_utf8_validate (split[i], -1, NULL))
        g_ptr_array_add (lines, g_strdup (split[i]));
    }
}

static void
add_patterns (GPtrArray    *patterns,
              WinnowFilter *filter)
{
  const char * const *lists[] = {
    winnow_filter_get_drop_patterns (filter), winnow_filter_get_include_patterns (filter),
    winnow_filter_get_collapse_patterns (filter), winnow_filter_get_error_patterns (filter),
    winnow_filter_get_summary_patterns (filter),
  };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l][i] != NULL; i++)
      g_ptr_array_add (patterns, g_strdup (lists[l][i]));
}

static void
test_never_skips_a_match (void)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) patterns = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *manifest = test_util_corpus_path ("manifest.json");
  const char *conformance = g_getenv ("WINNOW_CONFORMANCE_DIR");
  JsonArray *entries;
  guint checked = 0, skipped = 0, with_literals = 0;

  winnow_catalog_add_builtin (catalog);
  if (conformance != NULL && g_file_test (conformance, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (conformance, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (conformance, name, "filters", NULL);
          if (g_file_test (path, G_FILE_TEST_IS_DIR))
            winnow_catalog_add_directory (catalog, path, WINNOW_FILTER_SOURCE_FILE);
        }
    }
  filters = winnow_catalog_dup_filters (catalog);
  for (guint i = 0; i < filters->len; i++)
    add_patterns (patterns, g_ptr_array_index (filters, i));
  for (guint i = 0; i < filters->len; i++)
    for (guint t = 0; t < winnow_filter_get_n_tests (g_ptr_array_index (filters, i)); t++)
      add_lines (lines, winnow_filter_get_test (g_ptr_array_index (filters, i), t)->input);

  json_parser_load_from_file (parser, manifest, NULL);
  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      g_autofree char *path = test_util_corpus_path (json_object_get_string_member (entry, "file"));
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL))
        add_lines (lines, text);
    }

  for (guint p = 0; p < patterns->len; p++)
    {
      const char *source = g_ptr_array_index (patterns, p);
      g_autoptr(GPtrArray) literals = _winnow_literals_required (source);
      g_autoptr(WinnowRegex) regex = winnow_regex_new (source, "i", WINNOW_REGEX_OPTIMIZE, NULL);
      g_autofree WinnowBigrams *pairs = NULL;

      if (literals == NULL || regex == NULL)
        continue;

      with_literals++;
      pairs = g_new (WinnowBigrams, literals->len);
      for (guint k = 0; k < literals->len; k++)
        _winnow_bigrams_of_literal (g_ptr_array_index (literals, k), &pairs[k]);

      for (guint l = 0; l < lines->len; l++)
        {
          const char *line = g_ptr_array_index (lines, l);
          WinnowBigrams have;
          gboolean possible = FALSE;

          if (!_winnow_bigrams_of_line (line, strlen (line), &have))
            continue;
          for (guint k = 0; k < literals->len && !possible; k++)
            possible = _winnow_bigrams_contain (&have, &pairs[k]);

          checked++;
          if (possible)
            continue;
          skipped++;
          if (winnow_regex_matches (regex, line))
            g_error ("/%s/ matches “%s” but its literals said it could not", source, line);
        }
    }

  g_test_message ("%u patterns (%u with literals) × %u lines: %u checks, %u skipped",
                  patterns->len, with_literals, lines->len, checked, skipped);
  g_assert_cmpuint (with_literals, >, patterns->len / 3);
  g_assert_cmpuint (skipped, >, checked / 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/literals/extraction", test_extraction);
  g_test_add_func ("/winnow/literals/never-skips-a-match", test_never_skips_a_match);

  return g_test_run ();
}
