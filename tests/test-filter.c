/* test-filter.c — parsing, validating and serialising filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "winnow.h"
#include "winnow-json-locator.h"

/* The canonical example of seed 000. */
static const char canonical[] =
  "{\n"
  "  \"id\": \"test-vitest\",\n"
  "  \"label\": \"Vitest output\",\n"
  "  \"category\": \"test\",\n"
  "  \"priority\": 92,\n"
  "  \"match\": {\n"
  "    \"outputTypes\": [\"test-vitest\"],\n"
  "    \"commands\": [\"vitest\", \"npm test\", \"npm run test\"],\n"
  "    \"patterns\": [\"\\\\bFAIL\\\\b\", \"\\\\bPASS\\\\b\", \"\\\\bTest Files\\\\b\"]\n"
  "  },\n"
  "  \"rules\": {\n"
  "    \"stripAnsi\": true,\n"
  "    \"replace\": [{ \"pattern\": \"\\\\s+\\\\[[0-9]+ms\\\\]\", \"replacement\": \"\" }],\n"
  "    \"matchOutput\": [\n"
  "      { \"pattern\": \"All tests passed\", \"message\": \"vitest: ok\", \"unless\": \"FAIL|Error:\" }\n"
  "    ],\n"
  "    \"includePatterns\": [\"FAIL\", \"Error:\", \"Test Files\", \"Tests\"],\n"
  "    \"dropPatterns\": [\"^\\\\s*$\", \"Duration\\\\s+\\\\d+\"],\n"
  "    \"collapsePatterns\": [\"^\\\\s+at \"],\n"
  "    \"deduplicate\": true,\n"
  "    \"truncateLineAt\": 240,\n"
  "    \"maxLines\": 160,\n"
  "    \"headLines\": 24,\n"
  "    \"tailLines\": 40,\n"
  "    \"onEmpty\": \"vitest: ok\",\n"
  "    \"filterStderr\": false\n"
  "  },\n"
  "  \"preserve\": {\n"
  "    \"errorPatterns\": [\"FAIL\", \"Error:\", \"AssertionError\"],\n"
  "    \"summaryPatterns\": [\"Test Files\", \"Tests\", \"Snapshots\"]\n"
  "  },\n"
  "  \"tests\": [\n"
  "    {\n"
  "      \"name\": \"keeps failing tests\",\n"
  "      \"command\": \"vitest\",\n"
  "      \"input\": \"FAIL test/a.test.ts\\nError: boom\\nTest Files 1 failed\",\n"
  "      \"expected\": \"FAIL test/a.test.ts\\nError: boom\\nTest Files 1 failed\"\n"
  "    }\n"
  "  ]\n"
  "}\n";

static GPtrArray *
parse (const char  *json,
       GPtrArray  **diagnostics_out)
{
  GPtrArray *diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *filters = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_GLOBAL,
                                                 "filters.json", 0, diagnostics);

  *diagnostics_out = diagnostics;
  return filters;
}

static WinnowDiagnostic *
find_diagnostic (GPtrArray  *diagnostics,
                 const char *json_path)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (g_strcmp0 (winnow_diagnostic_get_json_path (d), json_path) == 0)
        return d;
    }

  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_test_message ("have: %s", text);
    }
  return NULL;
}

static void
test_parse_canonical (void)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GPtrArray) filters = parse (canonical, &diagnostics);
  WinnowFilter *filter;
  const WinnowFilterTest *test;
  const char *pattern, *replacement, *message, *unless;

  g_assert_cmpuint (diagnostics->len, ==, 0);
  g_assert_cmpuint (filters->len, ==, 1);
  filter = g_ptr_array_index (filters, 0);

  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "test-vitest");
  g_assert_cmpstr (winnow_filter_get_label (filter), ==, "Vitest output");
  g_assert_cmpstr (winnow_filter_get_category (filter), ==, "test");
  g_assert_cmpint (winnow_filter_get_priority (filter), ==, 92);
  g_assert_cmpint (winnow_filter_get_source (filter), ==, WINNOW_FILTER_SOURCE_GLOBAL);
  g_assert_false (winnow_filter_is_legacy (filter));
  g_assert_true (g_strv_contains (winnow_filter_get_output_types (filter), "test-vitest"));
  g_assert_cmpuint (g_strv_length ((char **) winnow_filter_get_command_patterns (filter)), ==, 3);
  g_assert_true (winnow_filter_get_strip_ansi (filter));
  g_assert_false (winnow_filter_get_filter_stderr (filter));
  g_assert_cmpuint (winnow_filter_get_n_replace_rules (filter), ==, 1);
  winnow_filter_get_replace_rule (filter, 0, &pattern, &replacement);
  g_assert_cmpstr (pattern, ==, "\\s+\\[[0-9]+ms\\]");
  g_assert_cmpstr (replacement, ==, "");
  g_assert_cmpuint (winnow_filter_get_n_match_output_rules (filter), ==, 1);
  winnow_filter_get_match_output_rule (filter, 0, &pattern, &message, &unless);
  g_assert_cmpstr (message, ==, "vitest: ok");
  g_assert_cmpstr (unless, ==, "FAIL|Error:");
  g_assert_cmpuint (g_strv_length ((char **) winnow_filter_get_include_patterns (filter)), ==, 4);
  g_assert_true (winnow_filter_get_deduplicate (filter));
  g_assert_cmpuint (winnow_filter_get_truncate_line_at (filter), ==, 240);
  g_assert_cmpuint (winnow_filter_get_max_lines (filter), ==, 160);
  g_assert_cmpuint (winnow_filter_get_head_lines (filter), ==, 24);
  g_assert_cmpuint (winnow_filter_get_tail_lines (filter), ==, 40);
  g_assert_cmpstr (winnow_filter_get_on_empty (filter), ==, "vitest: ok");
  g_assert_cmpuint (g_strv_length ((char **) winnow_filter_get_summary_patterns (filter)), ==, 3);
  g_assert_cmpuint (winnow_filter_get_n_tests (filter), ==, 1);
  test = winnow_filter_get_test (filter, 0);
  g_assert_cmpstr (test->name, ==, "keeps failing tests");
  g_assert_cmpstr (test->command, ==, "vitest");
  g_assert_true (winnow_filter_matches_command (filter, "npm test -- --run"));
  g_assert_false (winnow_filter_matches_command (filter, "git status"));
}

static void
test_defaults (void)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GPtrArray) filters =
    parse ("{\"id\":\"x\",\"label\":\"X\",\"category\":\"shell\",\"rules\":{\"maxLines\":10}}",
           &diagnostics);
  WinnowFilter *filter = g_ptr_array_index (filters, 0);

  g_assert_cmpint (winnow_filter_get_priority (filter), ==, 50);
  g_assert_cmpuint (winnow_filter_get_head_lines (filter), ==, 20);
  g_assert_cmpuint (winnow_filter_get_tail_lines (filter), ==, 20);
  g_assert_cmpuint (g_strv_length ((char **) winnow_filter_get_output_types (filter)), ==, 0);
}

static void
test_parse_legacy (void)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GPtrArray) filters = parse (
    "[{\"id\":\"old\",\"name\":\"Old style\",\"description\":\"d\",\"commandTypes\":[\"git-status\"],"
    "\"category\":\"git\",\"priority\":60,\"stripPatterns\":[\"^\\\\s*$\"],\"keepPatterns\":[\"^On\"],"
    "\"priorityPatterns\":[\"fatal\"],\"collapsePatterns\":[],\"maxLines\":40,\"preserveHead\":5,"
    "\"preserveTail\":6}]",
    &diagnostics);
  g_autoptr(GPtrArray) again_diagnostics = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autofree char *json = NULL;
  WinnowFilter *filter;

  g_assert_cmpuint (filters->len, ==, 1);
  filter = g_ptr_array_index (filters, 0);
  g_assert_true (winnow_filter_is_legacy (filter));
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_INFO), ==, 1);
  g_assert_cmpstr (winnow_filter_get_label (filter), ==, "Old style");
  g_assert_true (g_strv_contains (winnow_filter_get_output_types (filter), "git-status"));
  g_assert_true (g_strv_contains (winnow_filter_get_drop_patterns (filter), "^\\s*$"));
  g_assert_true (g_strv_contains (winnow_filter_get_include_patterns (filter), "^On"));
  g_assert_true (g_strv_contains (winnow_filter_get_error_patterns (filter), "fatal"));
  g_assert_cmpuint (winnow_filter_get_head_lines (filter), ==, 5);
  g_assert_cmpuint (winnow_filter_get_tail_lines (filter), ==, 6);

  /* written back in the canonical shape */
  json = winnow_filter_to_json (filter);
  g_assert_nonnull (strstr (json, "\"rules\""));
  g_assert_nonnull (strstr (json, "\"dropPatterns\""));
  g_assert_null (strstr (json, "stripPatterns"));
  again = parse (json, &again_diagnostics);
  g_assert_cmpuint (again_diagnostics->len, ==, 0);
  g_assert_false (winnow_filter_is_legacy (g_ptr_array_index (again, 0)));
}

static void
test_round_trip (void)
{
  g_autoptr(GPtrArray) d1 = NULL;
  g_autoptr(GPtrArray) d2 = NULL;
  g_autoptr(GPtrArray) first = parse (canonical, &d1);
  g_autofree char *one = winnow_filter_to_json (g_ptr_array_index (first, 0));
  g_autoptr(GPtrArray) second = parse (one, &d2);
  g_autofree char *two = winnow_filter_to_json (g_ptr_array_index (second, 0));

  g_assert_cmpuint (d2->len, ==, 0);
  g_assert_cmpstr (one, ==, two);
}

static void
test_unknown_fields_kept (void)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GPtrArray) filters = parse (
    "{\"id\":\"x\",\"label\":\"X\",\"category\":\"shell\",\"futureField\":{\"a\":1},"
    "\"rules\":{\"dropPatterns\":[\"a\"],\"newStage\":true}}",
    &diagnostics);
  g_autofree char *json = NULL;
  WinnowDiagnostic *d;

  g_assert_cmpuint (filters->len, ==, 1);
  d = find_diagnostic (diagnostics, "futureField");
  g_assert_nonnull (d);
  g_assert_cmpint (winnow_diagnostic_get_level (d), ==, WINNOW_DIAGNOSTIC_WARNING);
  d = find_diagnostic (diagnostics, "rules.newStage");
  g_assert_nonnull (d);
  g_assert_cmpint (winnow_diagnostic_get_level (d), ==, WINNOW_DIAGNOSTIC_WARNING);

  json = winnow_filter_to_json (g_ptr_array_index (filters, 0));
  g_assert_nonnull (strstr (json, "\"futureField\""));
  g_assert_nonnull (strstr (json, "\"newStage\" : true"));
}

static void
test_invalid_fields (void)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GPtrArray) filters = parse (
    "[\n"
    "  {\"id\":\"good\",\"label\":\"G\",\"category\":\"git\"},\n"
    "  {\"id\":\"bad\",\"label\":\"B\",\"category\":\"git\",\n"
    "   \"priority\":\"high\",\n"
    "   \"rules\":{\"dropPatterns\":[\"ok\",\"(unclosed\",42],\"maxLines\":-3,\"stripAnsi\":\"yes\"},\n"
    "   \"tests\":[{\"name\":\"t\",\"input\":\"x\"}]}\n"
    "]\n",
    &diagnostics);
  WinnowDiagnostic *d;
  g_autofree char *text = NULL;

  /* the invalid filter is skipped, its sibling loads */
  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_cmpstr (winnow_filter_get_id (g_ptr_array_index (filters, 0)), ==, "good");

  d = find_diagnostic (diagnostics, "[1].rules.dropPatterns[1]");
  g_assert_nonnull (d);
  g_assert_cmpint (winnow_diagnostic_get_level (d), ==, WINNOW_DIAGNOSTIC_ERROR);
  g_assert_cmpstr (winnow_diagnostic_get_filter_id (d), ==, "bad");
  g_assert_cmpstr (winnow_diagnostic_get_file (d), ==, "filters.json");
  g_assert_cmpuint (winnow_diagnostic_get_line (d), ==, 5);
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "missing closing parenthesis"));
  text = winnow_diagnostic_to_string (d);
  g_assert_true (g_str_has_prefix (text, "filters.json:5:"));
  g_assert_nonnull (strstr (text, "filter 'bad': [1].rules.dropPatterns[1]: invalid regex"));

  g_assert_nonnull (find_diagnostic (diagnostics, "[1].priority"));
  g_assert_nonnull (find_diagnostic (diagnostics, "[1].rules.dropPatterns[2]"));
  g_assert_nonnull (find_diagnostic (diagnostics, "[1].rules.maxLines"));
  g_assert_nonnull (find_diagnostic (diagnostics, "[1].rules.stripAnsi"));
  g_assert_nonnull (find_diagnostic (diagnostics, "[1].tests[0].expected"));
}

static void
test_required_and_shape (void)
{
  g_autoptr(GPtrArray) d1 = NULL;
  g_autoptr(GPtrArray) d2 = NULL;
  g_autoptr(GPtrArray) d3 = NULL;
  g_autoptr(GPtrArray) d4 = NULL;
  g_autoptr(GPtrArray) f1 = parse ("{\"label\":\"no id\"}", &d1);
  g_autoptr(GPtrArray) f2 = parse ("{\"id\":\"bad id!\",\"label\":\"x\"}", &d2);
  g_autoptr(GPtrArray) f3 = parse ("[1, \"two\"]", &d3);
  g_autoptr(GPtrArray) f4 = parse ("{\"id\":\"m\",\"label\":\"M\",\"category\":\"made-up\","
                                   "\"match\":[]}", &d4);

  g_assert_cmpuint (f1->len, ==, 0);
  g_assert_nonnull (find_diagnostic (d1, "id"));
  g_assert_cmpuint (f2->len, ==, 0);
  g_assert_nonnull (find_diagnostic (d2, "id"));
  g_assert_cmpuint (f3->len, ==, 0);
  g_assert_nonnull (find_diagnostic (d3, "[0]"));
  g_assert_nonnull (find_diagnostic (d3, "[1]"));
  /* an unknown category is a warning; a section of the wrong type an error */
  g_assert_cmpuint (f4->len, ==, 0);
  g_assert_cmpint (winnow_diagnostic_get_level (find_diagnostic (d4, "category")), ==,
                   WINNOW_DIAGNOSTIC_WARNING);
  g_assert_cmpint (winnow_diagnostic_get_level (find_diagnostic (d4, "match")), ==,
                   WINNOW_DIAGNOSTIC_ERROR);
}

static void
test_duplicate_ids (void)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GPtrArray) filters = parse (
    "[{\"id\":\"a\",\"label\":\"1\",\"category\":\"git\"},"
    " {\"id\":\"a\",\"label\":\"2\",\"category\":\"git\"}]", &diagnostics);

  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_cmpstr (winnow_filter_get_label (g_ptr_array_index (filters, 0)), ==, "1");
  g_assert_nonnull (find_diagnostic (diagnostics, "[1]"));
}

static void
test_bad_files (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *dir = g_dir_make_tmp ("winnow-filter-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.json", NULL);
  g_autofree char *binary = g_build_filename (dir, "binary.json", NULL);
  g_autofree char *syntax = g_build_filename (dir, "syntax.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_autofree char *bom = g_build_filename (dir, "bom.json", NULL);
  g_autoptr(GPtrArray) f = NULL;
  WinnowDiagnostic *d;

  g_file_set_contents (empty, "", 0, NULL);
  g_file_set_contents (binary, "{\"id\":\"\xff\"}", -1, NULL);
  g_file_set_contents (syntax, "{\n  \"id\": \"x\",\n  \"label\": oops\n}\n", -1, NULL);
  g_file_set_contents (bom, "\xEF\xBB\xBF{\"id\":\"b\",\"label\":\"B\",\"category\":\"git\"}", -1,
                       NULL);

  f = winnow_filter_pack_load_file (empty, WINNOW_FILTER_SOURCE_FILE, 0, diagnostics);
  g_assert_cmpuint (f->len, ==, 0);
  g_clear_pointer (&f, g_ptr_array_unref);
  f = winnow_filter_pack_load_file (binary, WINNOW_FILTER_SOURCE_FILE, 0, diagnostics);
  g_assert_cmpuint (f->len, ==, 0);
  g_clear_pointer (&f, g_ptr_array_unref);
  f = winnow_filter_pack_load_file (syntax, WINNOW_FILTER_SOURCE_FILE, 0, diagnostics);
  g_assert_cmpuint (f->len, ==, 0);
  g_clear_pointer (&f, g_ptr_array_unref);
  f = winnow_filter_pack_load_file (dir, WINNOW_FILTER_SOURCE_FILE, 0, diagnostics);
  g_assert_cmpuint (f->len, ==, 0);
  g_clear_pointer (&f, g_ptr_array_unref);
  f = winnow_filter_pack_load_file (missing, WINNOW_FILTER_SOURCE_FILE, 0, diagnostics);
  g_assert_cmpuint (f->len, ==, 0);
  g_clear_pointer (&f, g_ptr_array_unref);
  f = winnow_filter_pack_load_file (bom, WINNOW_FILTER_SOURCE_FILE, 0, diagnostics);
  g_assert_cmpuint (f->len, ==, 1);

  g_assert_cmpuint (diagnostics->len, ==, 5);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_test_message ("%s", text);
      g_assert_cmpint (winnow_diagnostic_get_level (g_ptr_array_index (diagnostics, i)), ==,
                       WINNOW_DIAGNOSTIC_ERROR);
    }

  d = g_ptr_array_index (diagnostics, 0);
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "empty"));
  d = g_ptr_array_index (diagnostics, 1);
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "UTF-8"));
  d = g_ptr_array_index (diagnostics, 2);
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "not valid JSON"));
  g_assert_cmpuint (winnow_diagnostic_get_line (d), ==, 3);
  d = g_ptr_array_index (diagnostics, 3);
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "directory"));
  d = g_ptr_array_index (diagnostics, 4);
  g_assert_cmpstr (winnow_diagnostic_get_file (d), ==, missing);

  g_remove (empty);
  g_remove (binary);
  g_remove (syntax);
  g_remove (bom);
  g_rmdir (dir);
}

static void
test_lazy_regex (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters =
    winnow_filter_pack_parse ("{\"id\":\"l\",\"label\":\"L\",\"category\":\"git\","
                              "\"rules\":{\"dropPatterns\":[\"(bad\"]}}",
                              -1, WINNOW_FILTER_SOURCE_BUILTIN, "l.json",
                              WINNOW_FILTER_PARSE_LAZY_REGEX, diagnostics);
  g_autoptr(GError) error = NULL;

  /* lazily parsed filters skip regex compilation; prepare() finds the bad pattern */
  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_false (winnow_filter_prepare (g_ptr_array_index (filters, 0), &error));
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_FILTER);
  g_assert_nonnull (strstr (error->message, "rules.dropPatterns[0]"));
}

static void
test_pack_to_json (void)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GPtrArray) filters = parse (
    "[{\"id\":\"a\",\"label\":\"A\",\"category\":\"git\"},{\"id\":\"b\",\"label\":\"B\","
    "\"category\":\"git\"}]", &diagnostics);
  g_autofree char *json = winnow_filter_pack_to_json (filters, TRUE);
  g_autoptr(GPtrArray) d2 = NULL;
  g_autoptr(GPtrArray) again = parse (json, &d2);

  g_assert_true (json[0] == '[');
  g_assert_cmpuint (again->len, ==, 2);
  g_assert_cmpuint (d2->len, ==, 0);
}

/* Found while fuzzing the loaders: a whole number given as a huge double was converted to an
 * integer before its range was checked (undefined), two documents in a row were read as one,
 * and a pack of nothing but blanks, not NUL-terminated, was scanned past its end. */
static void
test_hostile_numbers_and_blanks (void)
{
  static const char *const numbers[] = { "1e300", "-1e300", "9.3e18", "-9.3e18" };
  /* a buffer of blanks with no NUL after it */
  g_autofree char *blanks = g_malloc (4);

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
      g_autofree char *json = g_strdup_printf ("{\"id\":\"t\",\"label\":\"T\",\"category\":\"test\","
                                               "\"priority\":%s,\"rules\":{\"maxLines\":%s}}",
                                               numbers[i], numbers[i]);
      g_autoptr(GPtrArray) filters = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_FILE,
                                                               "t.json", 0, diagnostics);

      g_assert_nonnull (filters);
      g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR) +
                        winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), >=, 2);
    }

  /* two packs in a row: json-glib 1.6 would take them for one and leak the other */
  {
    g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr(GPtrArray) filters = winnow_filter_pack_parse (
      "{\"id\":\"a\",\"label\":\"A\",\"category\":\"test\"}\n"
      "{\"id\":\"b\",\"label\":\"B\",\"category\":\"test\"}", -1,
      WINNOW_FILTER_SOURCE_FILE, "t.json", 0, diagnostics);
    g_autofree char *message = NULL;

    g_assert_cmpuint (filters->len, ==, 0);
    g_assert_cmpuint (diagnostics->len, ==, 1);
    message = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, 0));
    g_assert_nonnull (strstr (message, "a second value"));
    g_assert_cmpuint (winnow_diagnostic_get_line (g_ptr_array_index (diagnostics, 0)), ==, 2);
  }

  memcpy (blanks, " \n\t ", 4);
  {
    g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr(GPtrArray) filters = winnow_filter_pack_parse (blanks, 4, WINNOW_FILTER_SOURCE_FILE,
                                                             "t.json", 0, diagnostics);

    g_assert_cmpuint (filters->len, ==, 0);
    g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 1);
  }
}

/* Found by fuzz-filter-pack: json-glib 1.6 takes escapes JSON does not have (\351, octal)
 * and lone surrogates (\udc00) and turns them into bytes that are not UTF-8, so a pack loaded
 * and was then written back as a file that no longer loads (and, read differently by the
 * diagnostics' position finder, sent it into an endless loop); such escapes are refused. */
static void
test_bad_escapes_and_stray_braces (void)
{
  static const char *const bad[] = { "\\351", "\\udc00", "\\ud83dx", "\\x41", "\\q", "\\u12" };
  static const char *const good[] = { "\\ud83d\\ude00", "\\u00e9", "\\n\\t\\/\\\\\\\"" };

  for (guint i = 0; i < G_N_ELEMENTS (bad) + G_N_ELEMENTS (good); i++)
    {
      gboolean ok = i >= G_N_ELEMENTS (bad);
      const char *escape = ok ? good[i - G_N_ELEMENTS (bad)] : bad[i];
      g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
      g_autofree char *json = g_strdup_printf ("{\"id\":\"t\",\"label\":\"T %s\",\"category\":\"test\"}",
                                               escape);
      g_autoptr(GPtrArray) filters = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_FILE,
                                                               "t.json", 0, diagnostics);

      g_test_message ("%s", json);
      g_assert_cmpuint (filters->len, ==, ok ? 1 : 0);
      if (ok)
        {
          g_autofree char *again = winnow_filter_pack_to_json (filters, TRUE);

          g_assert_true (g_utf8_validate (again, -1, NULL));
        }
    }

  /* the position finder reads what json-glib accepted, and with such escapes the two did not
   * agree; fed a stray '}' or ':' in an array directly, it never returned */
  {
    static const char *const stray[] = { "{\"a\":[1 } 2]}", "[:]", "[\"x\" : ]", "[}" };

    for (guint i = 0; i < G_N_ELEMENTS (stray); i++)
      {
        g_autoptr(WinnowJsonLocator) locator = _winnow_json_locator_new (stray[i], strlen (stray[i]));

        g_assert_nonnull (locator);
      }
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/filter/parse-canonical", test_parse_canonical);
  g_test_add_func ("/winnow/filter/defaults", test_defaults);
  g_test_add_func ("/winnow/filter/parse-legacy", test_parse_legacy);
  g_test_add_func ("/winnow/filter/round-trip", test_round_trip);
  g_test_add_func ("/winnow/filter/unknown-fields-kept", test_unknown_fields_kept);
  g_test_add_func ("/winnow/filter/invalid-fields", test_invalid_fields);
  g_test_add_func ("/winnow/filter/required-and-shape", test_required_and_shape);
  g_test_add_func ("/winnow/filter/duplicate-ids", test_duplicate_ids);
  g_test_add_func ("/winnow/filter/bad-files", test_bad_files);
  g_test_add_func ("/winnow/filter/lazy-regex", test_lazy_regex);
  g_test_add_func ("/winnow/filter/pack-to-json", test_pack_to_json);
  g_test_add_func ("/winnow/filter/hostile-numbers-and-blanks", test_hostile_numbers_and_blanks);
  g_test_add_func ("/winnow/filter/bad-escapes-and-stray-braces", test_bad_escapes_and_stray_braces);

  return g_test_run ();
}
