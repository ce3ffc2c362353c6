/* test-builtin-filters.c — every built-in filter loads cleanly and passes its own tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "test-util.h"
#include "winnow.h"

#define MIN_TESTS_PER_FILTER 3

static char *
filters_dir (void)
{
  return g_build_filename (g_getenv ("WINNOW_SOURCE_DIR"), "filters", NULL);
}

/* The source files, validated fully (every regex compiled): no diagnostic of any level. */
static void
test_sources_validate (void)
{
  g_autofree char *dir = filters_dir ();
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  GPtrArray *diagnostics;
  guint n = winnow_catalog_add_directory (catalog, dir, WINNOW_FILTER_SOURCE_BUILTIN);

  diagnostics = winnow_catalog_get_diagnostics (catalog);
  test_util_print_diagnostics (diagnostics);
  g_assert_cmpuint (diagnostics->len, ==, 0);
  g_assert_cmpuint (n, >=, 30);
}

/* What is compiled into the library is exactly what is in filters/. */
static void
test_resource_matches_sources (void)
{
  g_autofree char *dir = filters_dir ();
  g_autoptr(WinnowCatalog) from_files = winnow_catalog_new ();
  g_autoptr(WinnowCatalog) from_resource = winnow_catalog_new ();
  g_autoptr(GPtrArray) files = NULL;

  winnow_catalog_add_directory (from_files, dir, WINNOW_FILTER_SOURCE_BUILTIN);
  winnow_catalog_add_builtin (from_resource);
  files = winnow_catalog_dup_filters (from_files);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (from_resource)), ==, files->len);
  for (guint i = 0; i < files->len; i++)
    {
      WinnowFilter *a = g_ptr_array_index (files, i);
      WinnowFilter *b = winnow_catalog_lookup (from_resource, winnow_filter_get_id (a));
      g_autofree char *ja = NULL;
      g_autofree char *jb = NULL;

      if (b == NULL)
        g_error ("%s is in filters/ but not in the built-in resource: add it to "
                 "filters/meson.build", winnow_filter_get_file (a));
      ja = winnow_filter_to_json (a);
      jb = winnow_filter_to_json (b);
      g_assert_cmpstr (ja, ==, jb);
    }
}

static void
assert_strv_equal (const char * const *a,
                   const char * const *b)
{
  g_assert_true (g_strv_equal ((const char **) a, (const char **) b));
}

/* A built-in's rules are read when first asked for (winnow-catalog.c): every getter gives
 * what parsing its file gives, the very first time and from any getter, not only after the
 * filter was serialised once. */
static void
test_rules_read_on_demand (void)
{
  g_autofree char *dir = filters_dir ();
  g_autoptr(WinnowCatalog) from_files = winnow_catalog_new ();
  g_autoptr(GPtrArray) files = NULL;

  winnow_catalog_add_directory (from_files, dir, WINNOW_FILTER_SOURCE_BUILTIN);
  files = winnow_catalog_dup_filters (from_files);
  for (guint i = 0; i < files->len; i++)
    {
      WinnowFilter *a = g_ptr_array_index (files, i);
      g_autoptr(WinnowCatalog) from_resource = winnow_catalog_new ();
      WinnowFilter *b;

      /* a fresh catalog for each filter, so each check below is a first use */
      winnow_catalog_add_builtin (from_resource);
      b = winnow_catalog_lookup (from_resource, winnow_filter_get_id (a));
      g_assert_nonnull (b);

      switch (i % 4)
        {
        case 0:
          assert_strv_equal (winnow_filter_get_drop_patterns (a),
                             winnow_filter_get_drop_patterns (b));
          break;
        case 1:
          g_assert_cmpuint (winnow_filter_get_head_lines (a), ==,
                            winnow_filter_get_head_lines (b));
          break;
        case 2:
          g_assert_cmpint (winnow_filter_get_strip_ansi (a), ==, winnow_filter_get_strip_ansi (b));
          break;
        default:
          assert_strv_equal (winnow_filter_get_error_patterns (a),
                             winnow_filter_get_error_patterns (b));
          break;
        }
      assert_strv_equal (winnow_filter_get_include_patterns (a),
                         winnow_filter_get_include_patterns (b));
      assert_strv_equal (winnow_filter_get_collapse_patterns (a),
                         winnow_filter_get_collapse_patterns (b));
      assert_strv_equal (winnow_filter_get_summary_patterns (a),
                         winnow_filter_get_summary_patterns (b));
      g_assert_cmpuint (winnow_filter_get_n_replace_rules (a), ==,
                        winnow_filter_get_n_replace_rules (b));
      g_assert_cmpuint (winnow_filter_get_n_match_output_rules (a), ==,
                        winnow_filter_get_n_match_output_rules (b));
      g_assert_cmpuint (winnow_filter_get_max_lines (a), ==, winnow_filter_get_max_lines (b));
      g_assert_cmpuint (winnow_filter_get_tail_lines (a), ==, winnow_filter_get_tail_lines (b));
      g_assert_cmpuint (winnow_filter_get_truncate_line_at (a), ==,
                        winnow_filter_get_truncate_line_at (b));
      g_assert_cmpint (winnow_filter_get_deduplicate (a), ==, winnow_filter_get_deduplicate (b));
      g_assert_cmpint (winnow_filter_get_filter_stderr (a), ==,
                       winnow_filter_get_filter_stderr (b));
      g_assert_cmpstr (winnow_filter_get_on_empty (a), ==, winnow_filter_get_on_empty (b));
    }
}

static void
test_inline_tests (void)
{
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(WinnowVerifyReport) report = NULL;
  GListModel *outcomes;

  winnow_catalog_add_builtin (catalog);
  filters = winnow_catalog_dup_filters (catalog);

  for (guint i = 0; i < filters->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (filters, i);

      if (winnow_filter_get_n_tests (filter) < MIN_TESTS_PER_FILTER)
        g_error ("%s has %u tests; every built-in filter needs at least %u from real output",
                 winnow_filter_get_id (filter), winnow_filter_get_n_tests (filter),
                 MIN_TESTS_PER_FILTER);
    }

  report = winnow_verify_filters (filters, NULL);
  outcomes = winnow_verify_report_get_outcomes (report);
  for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
      WinnowFilter *filter = winnow_test_outcome_get_filter (outcome);

      if (!winnow_test_outcome_get_passed (outcome))
        {
          g_autofree char *diff = winnow_test_outcome_dup_diff (outcome);
          g_printerr ("FAIL %s › %s\n%s\n", winnow_filter_get_id (filter),
                      winnow_test_outcome_get_name (outcome), diff);
        }
      if (!winnow_test_outcome_get_idempotent (outcome))
        g_printerr ("NOT IDEMPOTENT %s › %s\n", winnow_filter_get_id (filter),
                    winnow_test_outcome_get_name (outcome));
    }

  g_test_message ("%u built-in tests", g_list_model_get_n_items (outcomes));
  g_assert_cmpuint (winnow_verify_report_get_n_failed (report), ==, 0);
  g_assert_cmpuint (winnow_verify_report_get_n_not_idempotent (report), ==, 0);
}

/* Every filter selected by output type names types the detector reports. */
static void
test_output_types_known (void)
{
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GPtrArray) filters = NULL;

  winnow_catalog_add_builtin (catalog);
  filters = winnow_catalog_dup_filters (catalog);
  for (guint i = 0; i < filters->len; i++)
    {
      const char * const *types = winnow_filter_get_output_types (g_ptr_array_index (filters, i));

      for (guint k = 0; types[k] != NULL; k++)
        g_assert_true (winnow_detector_knows_output_type (types[k]));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/builtin/sources-validate", test_sources_validate);
  g_test_add_func ("/winnow/builtin/resource-matches-sources", test_resource_matches_sources);
  g_test_add_func ("/winnow/builtin/rules-read-on-demand", test_rules_read_on_demand);
  g_test_add_func ("/winnow/builtin/inline-tests", test_inline_tests);
  g_test_add_func ("/winnow/builtin/output-types-known", test_output_types_known);

  return g_test_run ();
}
