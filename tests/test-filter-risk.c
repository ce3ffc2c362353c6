/* test-filter-risk.c — risky filters are named, sound ones (every built-in) are not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

static WinnowFilter *
parse_one (const char *json)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters = NULL;

  filters = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_PROJECT, "filters.json",
                                      WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
  test_util_print_diagnostics (diagnostics);
  g_assert_nonnull (filters);
  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  return g_object_ref (g_ptr_array_index (filters, 0));
}

static GPtrArray *
risks_of (const char *json)
{
  g_autoptr(WinnowFilter) filter = parse_one (json);

  return winnow_filter_assess_risks (filter);
}

/* The risk at @path, checked to be a warning about filter "risky" that mentions @needle. */
static WinnowDiagnostic *
find_risk (GPtrArray  *risks,
           const char *path,
           const char *needle)
{
  for (guint i = 0; i < risks->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (risks, i);

      if (g_strcmp0 (winnow_diagnostic_get_json_path (d), path) != 0)
        continue;
      g_assert_cmpint (winnow_diagnostic_get_level (d), ==, WINNOW_DIAGNOSTIC_WARNING);
      g_assert_cmpstr (winnow_diagnostic_get_subject (d), ==, "risky");
      g_assert_cmpstr (winnow_diagnostic_get_file (d), ==, "filters.json");
      if (strstr (winnow_diagnostic_get_message (d), needle) == NULL)
        g_error ("%s: “%s” does not mention “%s”", path, winnow_diagnostic_get_message (d), needle);
      return d;
    }

  test_util_print_diagnostics (risks);
  g_error ("no risk reported at %s", path);
  return NULL;
}

static void
test_broad_line_patterns (void)
{
  g_autoptr(GPtrArray) risks = risks_of (
    "{\"id\": \"risky\", \"match\": {\"commands\": [\"^mytool\\\\b\"]},"
    " \"rules\": {\"dropPatterns\": [\"^\\\\s*$\", \"\\\\w\"],"
    "             \"includePatterns\": [\"\\\\S\"],"
    "             \"collapsePatterns\": [\"^\"]}}");

  find_risk (risks, "rules.dropPatterns[1]", "drop nearly all");
  find_risk (risks, "rules.includePatterns[0]", "lines of ordinary command output");
  find_risk (risks, "rules.collapsePatterns[0]", "folded");
  /* blank lines are a fine thing to drop */
  for (guint i = 0; i < risks->len; i++)
    g_assert_cmpstr (winnow_diagnostic_get_json_path (g_ptr_array_index (risks, i)), !=,
                     "rules.dropPatterns[0]");
}

/* A pattern rare in other tools' output but matching nearly all of the filter's own samples:
 * the filter's own tests show it would drop almost everything it is meant for. */
static void
test_broad_on_own_tests (void)
{
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(GPtrArray) risks = NULL;

  for (guint i = 0; i < 12; i++)
    g_string_append_printf (input, "[job %u] step %u finished\\n", i, i * 3);
  g_string_append_printf (json,
                          "{\"id\": \"risky\", \"match\": {\"commands\": [\"^jobrunner\\\\b\"]},"
                          " \"rules\": {\"dropPatterns\": [\"^\\\\[job \\\\d+\\\\]\"]},"
                          " \"tests\": [{\"name\": \"n\", \"input\": \"%s\", \"expected\": \"\"}]}",
                          input->str);
  risks = risks_of (json->str);
  find_risk (risks, "rules.dropPatterns[0]", "own test inputs");
}

static void
test_broad_commands (void)
{
  g_autoptr(GPtrArray) risks = risks_of (
    "{\"id\": \"risky\", \"match\": {\"commands\": [\"^git\\\\s+status\\\\b\", \"test\", \".*\","
    "                                      \"^(?:npm|yarn|npx)\\\\b\"]}}");
  WinnowDiagnostic *d;

  g_assert_cmpuint (risks->len, ==, 2);
  d = find_risk (risks, "match.commands[1]", "unrelated tools");
  /* it names the commands it would capture */
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "npm test"));
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "pytest -q"));
  find_risk (risks, "match.commands[2]", "empty string");
}

static void
test_drop_removes_errors (void)
{
  g_autoptr(GPtrArray) risks = risks_of (
    "{\"id\": \"risky\", \"match\": {\"commands\": [\"^pytest\\\\b\"]},"
    " \"rules\": {\"dropPatterns\": [\"^E\\\\s\", \"^(?:npm ERR!|panic:)\", \"^\\\\s+at \"]},"
    " \"preserve\": {\"errorPatterns\": [\"^panic:\"]}}");
  WinnowDiagnostic *d;

  d = find_risk (risks, "rules.dropPatterns[0]", "E   AssertionError");
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (d), "no preserve pattern"));
  /* npm ERR! is lost, panic: is kept by the error pattern and not named */
  d = find_risk (risks, "rules.dropPatterns[1]", "npm ERR!");
  g_assert_null (strstr (winnow_diagnostic_get_message (d), "panic:"));
  g_assert_cmpuint (risks->len, ==, 2);

  /* protected by the filter's own error pattern: no risk */
  g_clear_pointer (&risks, g_ptr_array_unref);
  risks = risks_of (
    "{\"id\": \"risky\", \"match\": {\"commands\": [\"^pytest\\\\b\"]},"
    " \"rules\": {\"dropPatterns\": [\"^E\\\\s\"]},"
    " \"preserve\": {\"errorPatterns\": [\"Error\\\\b\"]}}");
  test_util_print_diagnostics (risks);
  g_assert_cmpuint (risks->len, ==, 0);
}

static void
test_backtracking (void)
{
  g_autoptr(GPtrArray) risks = risks_of (
    "{\"id\": \"risky\", \"match\": {\"commands\": [\"^mytool\\\\b\"],"
    "                                \"patterns\": [\"^(\\\\w+\\\\s?)*$\"]},"
    " \"rules\": {\"replace\": [{\"pattern\": \"(x+x+)+[yz]\", \"replacement\": \"\"}],"
    "             \"dropPatterns\": [\"^STATUS: (a+)+$\", \"^(?:-c\\\\s+\\\\S+\\\\s+)*ok$\"]}}");

  find_risk (risks, "match.patterns[0]", "backtracks catastrophically");
  find_risk (risks, "rules.replace[0].pattern", "backtracks catastrophically");
  /* only a probe aimed past the literal prefix reaches the nested group */
  find_risk (risks, "rules.dropPatterns[0]", "STATUS: aaaa");
  /* nested repetition whose parts cannot overlap is sound */
  for (guint i = 0; i < risks->len; i++)
    g_assert_cmpstr (winnow_diagnostic_get_json_path (g_ptr_array_index (risks, i)), !=,
                     "rules.dropPatterns[1]");
}

static void
test_sound_filter_is_clean (void)
{
  g_autoptr(GPtrArray) risks = risks_of (
    "{\"id\": \"risky\", \"match\": {\"commands\": [\"^mytool\\\\s+check\\\\b\"]},"
    " \"rules\": {\"dropPatterns\": [\"^\\\\s*$\", \"^mytool: checking \\\\S+$\"],"
    "             \"collapsePatterns\": [\"^warning: deprecated \"]},"
    " \"preserve\": {\"errorPatterns\": [\"\\\\berror\\\\b\"]}}");

  test_util_print_diagnostics (risks);
  g_assert_cmpuint (risks->len, ==, 0);
}

/* Every built-in filter is clean: a risk here is a bug in the filter or in the check. */
static void
test_builtins_clean (void)
{
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);

  winnow_catalog_add_builtin (catalog);
  filters = winnow_catalog_dup_filters (catalog);
  g_assert_cmpuint (filters->len, >=, 30);

  for (guint i = 0; i < filters->len; i++)
    {
      g_autoptr(GPtrArray) risks = winnow_filter_assess_risks (g_ptr_array_index (filters, i));

      g_ptr_array_extend_and_steal (all, g_steal_pointer (&risks));
    }

  test_util_print_diagnostics (all);
  g_assert_cmpuint (all->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/filter-risk/broad-line-patterns", test_broad_line_patterns);
  g_test_add_func ("/winnow/filter-risk/broad-on-own-tests", test_broad_on_own_tests);
  g_test_add_func ("/winnow/filter-risk/broad-commands", test_broad_commands);
  g_test_add_func ("/winnow/filter-risk/drop-removes-errors", test_drop_removes_errors);
  g_test_add_func ("/winnow/filter-risk/backtracking", test_backtracking);
  g_test_add_func ("/winnow/filter-risk/sound-filter", test_sound_filter_is_clean);
  g_test_add_func ("/winnow/filter-risk/builtins-clean", test_builtins_clean);

  return g_test_run ();
}
