/* test-builtin-rules.c — every built-in rule pack loads cleanly and passes its own tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "test-util.h"
#include "winnow.h"

/* The languages Winnow ships packs for, and the categories every one of them has. */
static const char * const languages[] = { "en", "pt-BR", "es", "de", "fr", "ja", "id", "zh", NULL };
static const char * const required_packs[] = { "filler", "context", "structural", "dedup", NULL };

static char *
rules_dir (void)
{
  return g_build_filename (g_getenv ("WINNOW_SOURCE_DIR"), "rules", NULL);
}

/* The source files, validated and linted as a user's packs would be: no diagnostic at all. */
static void
test_sources_validate (void)
{
  g_autofree char *dir = rules_dir ();
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();
  g_autoptr(GPtrArray) packs = NULL;
  GPtrArray *diagnostics;
  guint n;

  n = winnow_rule_set_add_directory (set, dir, "file");
  packs = winnow_rule_set_list_packs (set);

  diagnostics = winnow_rule_set_get_diagnostics (set);
  for (guint i = 0; languages[i] != NULL; i++)
    winnow_rule_set_get_abbreviations (set, languages[i]);
  test_util_print_diagnostics (diagnostics);
  g_assert_cmpuint (diagnostics->len, ==, 0);
  g_assert_cmpuint (packs->len, ==, n);
}

/* What is compiled into the library is exactly what is in rules/. */
static void
test_resource_matches_sources (void)
{
  g_autofree char *dir = rules_dir ();
  g_autoptr(WinnowRuleSet) from_files = winnow_rule_set_new ();
  g_autoptr(WinnowRuleSet) from_resource = winnow_rule_set_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) resources = NULL;

  winnow_rule_set_add_directory (from_files, dir, "file");
  winnow_rule_set_add_builtin (from_resource);
  files = winnow_rule_set_list_packs (from_files);
  resources = winnow_rule_set_list_packs (from_resource);

  for (guint i = 0; i < files->len; i++)
    {
      WinnowRulePack *a = g_ptr_array_index (files, i);
      g_autofree char *ja = winnow_rule_pack_to_json (a);
      gboolean found = FALSE;

      for (guint k = 0; k < resources->len && !found; k++)
        {
          WinnowRulePack *b = g_ptr_array_index (resources, k);
          g_autofree char *jb = NULL;

          if (g_strcmp0 (winnow_rule_pack_get_language (a), winnow_rule_pack_get_language (b)) != 0 ||
              g_strcmp0 (winnow_rule_pack_get_name (a), winnow_rule_pack_get_name (b)) != 0)
            continue;

          jb = winnow_rule_pack_to_json (b);
          g_assert_cmpstr (ja, ==, jb);
          found = TRUE;
        }

      if (!found)
        g_error ("%s is in rules/ but not in the built-in resource: add it to rules/meson.build",
                 winnow_rule_pack_get_file (a));
    }

  g_assert_cmpuint (resources->len, ==, files->len);
}

/* Every language has its packs, and every rule of every pack has a sample of its own. */
static void
test_coverage (void)
{
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();

  winnow_rule_set_add_builtin (set);

  for (guint i = 0; languages[i] != NULL; i++)
    {
      g_autoptr(GPtrArray) packs = winnow_rule_set_get_packs (set, languages[i]);

      for (guint r = 0; required_packs[r] != NULL; r++)
        {
          gboolean found = FALSE;

          for (guint k = 0; k < packs->len; k++)
            found |= g_strcmp0 (winnow_rule_pack_get_name (g_ptr_array_index (packs, k)),
                                required_packs[r]) == 0;
          if (!found)
            g_error ("rules/%s has no %s pack", languages[i], required_packs[r]);
        }

      for (guint k = 0; k < packs->len; k++)
        {
          WinnowRulePack *pack = g_ptr_array_index (packs, k);

          g_assert_cmpstr (winnow_rule_pack_get_language (pack), ==, languages[i]);
          for (guint r = 0; r < winnow_rule_pack_get_n_rules (pack); r++)
            {
              const char *name = winnow_rule_get_name (winnow_rule_pack_get_rule (pack, r));
              gboolean tested = FALSE;

              for (guint t = 0; t < winnow_rule_pack_get_n_tests (pack); t++)
                tested |= g_strcmp0 (winnow_rule_pack_get_test (pack, t)->rule, name) == 0;
              if (!tested)
                g_error ("rules/%s/%s.json: rule “%s” has no test sample naming it",
                         languages[i], winnow_rule_pack_get_name (pack), name);
            }
        }
    }
}

static void
test_samples_pass (void)
{
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();
  g_autoptr(GPtrArray) packs = NULL;
  g_autoptr(WinnowVerifyReport) report = NULL;
  GListModel *outcomes;

  winnow_rule_set_add_builtin (set);
  packs = winnow_rule_set_list_packs (set);
  report = winnow_verify_rule_packs (set, packs, NULL);
  outcomes = winnow_verify_report_get_outcomes (report);

  for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);

      if (!winnow_test_outcome_get_passed (outcome))
        g_printerr ("FAIL %s › %s\n  expected: %s\n  actual:   %s\n",
                    winnow_test_outcome_get_subject (outcome),
                    winnow_test_outcome_get_name (outcome),
                    winnow_test_outcome_get_expected (outcome),
                    winnow_test_outcome_get_actual (outcome));
    }

  g_test_message ("%u rule samples", g_list_model_get_n_items (outcomes));
  g_assert_cmpuint (g_list_model_get_n_items (outcomes), >, 0);
  g_assert_cmpuint (winnow_verify_report_get_n_failed (report), ==, 0);
}

/* expand() writes every abbreviation of a language's table out again. */
static void
test_abbreviations_expand (void)
{
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();

  winnow_rule_set_add_builtin (set);

  for (guint i = 0; languages[i] != NULL; i++)
    {
      GHashTable *table = winnow_rule_set_get_abbreviations (set, languages[i]);
      GHashTableIter iter;
      gpointer key, value;

      if (table == NULL)
        continue;

      g_hash_table_iter_init (&iter, table);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          g_autofree char *text = g_strdup_printf ("x %s y", (const char *) key);
          g_autofree char *expected = g_strdup_printf ("x %s y", (const char *) value);
          g_autofree char *expanded = winnow_caveman_expand (set, text, -1, languages[i], NULL);

          g_assert_cmpstr (expanded, ==, expected);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/builtin-rules/sources-validate", test_sources_validate);
  g_test_add_func ("/builtin-rules/resource-matches-sources", test_resource_matches_sources);
  g_test_add_func ("/builtin-rules/coverage", test_coverage);
  g_test_add_func ("/builtin-rules/samples-pass", test_samples_pass);
  g_test_add_func ("/builtin-rules/abbreviations-expand", test_abbreviations_expand);

  return g_test_run ();
}
