/* test-conformance.c — OmniRoute's own filter packs load unchanged and pass their own tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run with the conformance folder as argument (tests/meson.build passes
 * ../shared/conformance when it exists). Every omniroute-VERSION/filters folder in it must load
 * without an error diagnostic and every inline test must pass under Winnow's rules.
 *
 * Where a Winnow rule legitimately changes an expected output, the test is listed in
 * `deviations` with the rule and the reason, and the test checks that it still fails in that
 * known way instead of silently passing or failing for another reason. With the current rules
 * no reference test needs an exception: summary lines yield to explicit dropPatterns and
 * identical protected lines may collapse onto a kept copy precisely so that the reference's
 * intent holds (see engine/winnow-rtk.c).
 */

#include "config.h"

#include "test-util.h"
#include "winnow.h"

typedef struct
{
  const char *filter_id;
  const char *test_name;
  const char *rule;
  const char *why;
} Deviation;

static const Deviation deviations[] = {
  { NULL, NULL, NULL, NULL }
};

static const char *conformance_root;

static const Deviation *
find_deviation (const char *filter_id,
                const char *test_name)
{
  for (guint i = 0; deviations[i].filter_id != NULL; i++)
    if (g_strcmp0 (deviations[i].filter_id, filter_id) == 0 &&
        g_strcmp0 (deviations[i].test_name, test_name) == 0)
      return &deviations[i];
  return NULL;
}

static void
check_pack_folder (gconstpointer data)
{
  const char *dir = data;
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(WinnowVerifyReport) report = NULL;
  GPtrArray *diagnostics;
  GListModel *outcomes;
  guint files = 0;
  guint failures = 0;

  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      files += g_str_has_suffix (name, ".json");
  }

  winnow_catalog_add_directory (catalog, dir, WINNOW_FILTER_SOURCE_FILE);
  diagnostics = winnow_catalog_get_diagnostics (catalog);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_printerr ("%s\n", text);
    }
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);

  filters = winnow_catalog_dup_filters (catalog);
  g_assert_cmpuint (filters->len, ==, files);

  report = winnow_verify_filters (filters, NULL);
  outcomes = winnow_verify_report_get_outcomes (report);
  g_assert_cmpuint (g_list_model_get_n_items (outcomes), >=, files);

  for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
      const char *id = winnow_filter_get_id (winnow_test_outcome_get_filter (outcome));
      const Deviation *deviation = find_deviation (id, winnow_test_outcome_get_name (outcome));

      if (deviation != NULL)
        {
          g_test_message ("%s › %s differs by design (%s): %s", id,
                          winnow_test_outcome_get_name (outcome), deviation->rule, deviation->why);
          g_assert_false (winnow_test_outcome_get_passed (outcome));
          continue;
        }

      if (!winnow_test_outcome_get_passed (outcome))
        {
          g_autofree char *diff = winnow_test_outcome_dup_diff (outcome);
          g_printerr ("FAIL %s › %s\n%s\n", id, winnow_test_outcome_get_name (outcome), diff);
          failures++;
        }
    }

  g_test_message ("%s: %u filters, %u tests", dir, filters->len,
                  g_list_model_get_n_items (outcomes));
  g_assert_cmpuint (failures, ==, 0);
}

static void
skip_missing (void)
{
  g_test_skip ("no omniroute-VERSION/filters folder in the conformance directory");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GDir) root = NULL;
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);

  if (argc < 2)
    {
      g_printerr ("usage: test-conformance CONFORMANCE_DIR\n");
      return 2;
    }
  conformance_root = argv[1];

  root = g_dir_open (conformance_root, 0, NULL);
  while (root != NULL && (name = g_dir_read_name (root)) != NULL)
    {
      g_autofree char *filters = g_build_filename (conformance_root, name, "filters", NULL);

      if (g_str_has_prefix (name, "omniroute-") && g_file_test (filters, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *path = g_strdup_printf ("/winnow/conformance/%s/filters", name);

          g_test_add_data_func_full (path, g_strdup (filters), check_pack_folder, g_free);
          g_ptr_array_add (dirs, g_steal_pointer (&filters));
        }
    }

  if (dirs->len == 0)
    g_test_add_func ("/winnow/conformance/none", skip_missing);

  return g_test_run ();
}
