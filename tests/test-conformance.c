/* test-conformance.c — OmniRoute's own filter and rule packs load unchanged and filters pass
 * their own tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run with the conformance folder as argument (tests/meson.build passes
 * ../shared/conformance when it exists). Every omniroute-VERSION/filters folder in it must load
 * without an error diagnostic and every inline test must pass under Winnow's rules; every
 * omniroute-VERSION/rules folder (Caveman packs, which carry no tests) must load and validate
 * with every rule kept and no warning, and run over prose without touching protected tokens.
 *
 * Where a Winnow rule legitimately changes an expected output, the test is listed in
 * `deviations` with the rule and the reason, and the test checks that it still fails in that
 * known way instead of silently passing or failing for another reason. With the current rules
 * no reference test needs an exception: summary lines yield to explicit dropPatterns and
 * identical protected lines may collapse onto a kept copy precisely so that the reference's
 * intent holds (see engine/winnow-rtk.c).
 */

#include "config.h"

#include <string.h>

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

/* Counts the rules each pack file declares, to check that validation kept every one. */
static guint
declared_rules (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *rules;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  rules = json_object_get_member (json_node_get_object (json_parser_get_root (parser)), "rules");
  return json_array_get_length (json_node_get_array (rules));
}

static void
check_rule_folder (gconstpointer data)
{
  const char *dir = data;
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();
  g_autoptr(GPtrArray) packs = NULL;
  g_auto(GStrv) languages = NULL;
  GPtrArray *diagnostics;
  guint rules = 0;
  const char *prose = "Sure! I'd be happy to help. Basically, the function in `src/app.ts` "
                      "is being called twice, so please run `npm test -- --watch` and check "
                      "https://example.com/docs?a=1 for version v1.2.3.";

  winnow_rule_set_add_directory (set, dir, "file");
  packs = winnow_rule_set_list_packs (set);
  diagnostics = winnow_rule_set_get_diagnostics (set);

  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *text = winnow_diagnostic_to_string (d);

      if (winnow_diagnostic_get_level (d) != WINNOW_DIAGNOSTIC_INFO)
        g_error ("%s", text);
    }

  for (guint i = 0; i < packs->len; i++)
    {
      WinnowRulePack *pack = g_ptr_array_index (packs, i);

      g_assert_cmpuint (winnow_rule_pack_get_n_rules (pack), ==,
                        declared_rules (winnow_rule_pack_get_file (pack)));
      rules += winnow_rule_pack_get_n_rules (pack);
    }

  /* every language's packs run over prose; protected tokens come out unchanged */
  languages = winnow_rule_set_dup_languages (set);
  for (guint i = 0; languages[i] != NULL; i++)
    for (int intensity = WINNOW_CAVEMAN_INTENSITY_LITE;
         intensity <= WINNOW_CAVEMAN_INTENSITY_ULTRA; intensity++)
      {
        g_autoptr(WinnowCavemanResult) result = NULL;
        WinnowCavemanOptions options;
        const char *out;

        winnow_caveman_options_init (&options);
        options.language = languages[i];
        options.intensity = intensity;
        result = winnow_caveman_compress (set, prose, -1, &options);
        out = winnow_caveman_result_get_text (result, NULL);
        g_assert_nonnull (strstr (out, "`src/app.ts`"));
        g_assert_nonnull (strstr (out, "`npm test -- --watch`"));
        g_assert_nonnull (strstr (out, "https://example.com/docs?a=1"));
        g_assert_nonnull (strstr (out, "v1.2.3"));
      }

  g_test_message ("%s: %u packs, %u rules", dir, packs->len, rules);
  g_assert_cmpuint (packs->len, >, 0);
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
      g_autofree char *rules = g_build_filename (conformance_root, name, "rules", NULL);

      if (g_str_has_prefix (name, "omniroute-") && g_file_test (rules, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *path = g_strdup_printf ("/winnow/conformance/%s/rules", name);

          g_test_add_data_func_full (path, g_strdup (rules), check_rule_folder, g_free);
        }

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
