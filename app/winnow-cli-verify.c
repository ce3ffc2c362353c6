/* winnow-cli-verify.c — `winnow verify` and `winnow filters`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-cli.h"
#include "winnow-cli-table.h"

/* Whether @path holds a Caveman rule pack rather than filters: an object with "language" and
 * a "rules" array. */
static gboolean
is_rule_pack_file (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;

  if (!json_parser_load_from_file (parser, path, NULL))
    return FALSE;

  root = json_parser_get_root (parser);
  return root != NULL && JSON_NODE_HOLDS_OBJECT (root) &&
         json_object_has_member (json_node_get_object (root), "language") &&
         json_object_has_member (json_node_get_object (root), "rules");
}

/* A directory of rule packs: `rules/` with a folder per language, or one language's folder. */
static gboolean
is_rule_pack_directory (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (name[0] == '_' || name[0] == '.')
        continue;
      if (g_str_has_suffix (name, ".json") && is_rule_pack_file (child))
        return TRUE;
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GDir) sub = g_dir_open (child, 0, NULL);
          const char *sub_name;

          while (sub != NULL && (sub_name = g_dir_read_name (sub)) != NULL)
            {
              g_autofree char *file = g_build_filename (child, sub_name, NULL);

              if (g_str_has_suffix (sub_name, ".json") && sub_name[0] != '_' &&
                  is_rule_pack_file (file))
                return TRUE;
            }
        }
    }

  return FALSE;
}

/* Builds what to check: the given files and folders (filters or rule packs, told apart by
 * their contents), or the whole catalog and every rule pack. */
static void
load_targets (WinnowCliCommon  *common,
              int               argc,
              char            **argv,
              WinnowCatalog   **catalog,
              WinnowRuleSet   **rules)
{
  if (argc <= 1)
    {
      g_autoptr(WinnowContext) ctx = winnow_cli_common_context (common);

      *catalog = g_object_ref (winnow_context_get_catalog (ctx));
      *rules = g_object_ref (winnow_context_get_rule_set (ctx));
      return;
    }

  *catalog = winnow_catalog_new ();
  *rules = winnow_rule_set_new ();
  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          if (is_rule_pack_directory (argv[i]))
            winnow_rule_set_add_directory (*rules, argv[i], "file");
          else
            winnow_catalog_add_directory (*catalog, argv[i], WINNOW_FILTER_SOURCE_FILE);
        }
      else if (is_rule_pack_file (argv[i]))
        winnow_rule_set_add_file (*rules, argv[i], "file");
      else
        winnow_catalog_add_file (*catalog, argv[i], WINNOW_FILTER_SOURCE_FILE);
    }
}

static gpointer
copy_object (gconstpointer object,
             gpointer      user_data)
{
  return g_object_ref ((gpointer) object);
}

static const char *
outcome_file (WinnowTestOutcome *outcome)
{
  WinnowFilter *filter = winnow_test_outcome_get_filter (outcome);
  WinnowRulePack *pack = winnow_test_outcome_get_rule_pack (outcome);

  if (filter != NULL)
    return winnow_filter_get_file (filter);
  return pack ? winnow_rule_pack_get_file (pack) : NULL;
}

static void
print_indented (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0' || lines[i + 1] != NULL)
      g_print ("    %s\n", lines[i]);
}

int
winnow_cli_verify (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowCatalog) catalog = NULL;
  g_autoptr(WinnowRuleSet) rules = NULL;
  g_autoptr(WinnowVerifyReport) report = NULL;
  g_autoptr(WinnowVerifyReport) rule_report = NULL;
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(GPtrArray) packs = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autofree char *summary = NULL;
  gboolean json = FALSE;
  gboolean strict = FALSE;
  gboolean verbose = FALSE;
  gboolean load_only = FALSE;
  WinnowCliCommon common = { 0 };
  GListModel *outcomes;
  guint n_errors;
  guint n_warnings;
  gboolean failed;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the report as JSON"), NULL },
    { "strict", 0, 0, G_OPTION_ARG_NONE, &strict,
      N_("Also fail on warnings and on filters that are not idempotent"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, N_("List passing tests too"), NULL },
    { "load-only", 0, 0, G_OPTION_ARG_NONE, &load_only,
      N_("Only load and validate the packs (every regex compiled); run no tests"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (_("[FILE|DIR…]"),
                                       _("Run the inline tests[] of filter packs and rule packs."),
                                       _("Without arguments, every filter in the catalog is checked "
                                         "(built-in, global and trusted project filters) and every "
                                         "Caveman rule pack (built-in and global). Each filter test "
                                         "runs its filter alone on its input and compares the result "
                                         "with its expected output; each rule-pack sample runs through "
                                         "the Caveman engine with its pack alone. A failure shows a "
                                         "line diff. Files and folders given are told apart by their "
                                         "contents: rule packs have “language” and “rules”.\n\n"
                                         "Exit status: 0 if every test passed and every pack loaded "
                                         "without errors, 1 otherwise, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "verify", &argc, &argv))
    return WINNOW_EXIT_USAGE;

  for (int i = 1; i < argc; i++)
    if (!g_file_test (argv[i], G_FILE_TEST_EXISTS))
      {
        winnow_cli_common_clear (&common);
        return winnow_cli_usage_error ("verify", _("%s: no such file or directory"), argv[i]);
      }

  load_targets (&common, argc, argv, &catalog, &rules);
  winnow_cli_common_clear (&common);

  filters = winnow_catalog_dup_filters (catalog);
  packs = winnow_rule_set_list_packs (rules);

  diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_extend (diagnostics, winnow_catalog_get_diagnostics (catalog), copy_object, NULL);
  g_ptr_array_extend (diagnostics, winnow_rule_set_get_diagnostics (rules), copy_object, NULL);

  if (load_only)
    {
      g_autoptr(GPtrArray) empty = g_ptr_array_new ();
      report = winnow_verify_filters (empty, NULL);
    }
  else
    {
      report = winnow_verify_filters (filters, NULL);
      rule_report = winnow_verify_rule_packs (rules, packs, NULL);
      winnow_verify_report_merge (report, rule_report);
    }
  outcomes = winnow_verify_report_get_outcomes (report);
  n_errors = winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR);
  n_warnings = winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING);
  summary = winnow_verify_report_dup_summary (report);

  failed = winnow_verify_report_get_n_failed (report) > 0 || n_errors > 0 ||
           (strict && (n_warnings > 0 || winnow_verify_report_get_n_not_idempotent (report) > 0));

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "passed");
      json_builder_add_int_value (builder, winnow_verify_report_get_n_passed (report));
      json_builder_set_member_name (builder, "failed");
      json_builder_add_int_value (builder, winnow_verify_report_get_n_failed (report));
      json_builder_set_member_name (builder, "notIdempotent");
      json_builder_add_int_value (builder, winnow_verify_report_get_n_not_idempotent (report));
      json_builder_set_member_name (builder, "filters");
      json_builder_add_int_value (builder, filters->len);
      json_builder_set_member_name (builder, "rulePacks");
      json_builder_add_int_value (builder, packs->len);
      json_builder_set_member_name (builder, "ok");
      json_builder_add_boolean_value (builder, !failed);
      json_builder_set_member_name (builder, "tests");
      json_builder_begin_array (builder);
      for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
        {
          g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
          WinnowFilter *filter = winnow_test_outcome_get_filter (outcome);
          g_autofree char *diff = winnow_test_outcome_dup_diff (outcome);

          json_builder_begin_object (builder);
          if (filter != NULL)
            winnow_cli_json_member (builder, "filter", winnow_filter_get_id (filter));
          else
            winnow_cli_json_member (builder, "rulePack", winnow_test_outcome_get_subject (outcome));
          winnow_cli_json_member (builder, "file", outcome_file (outcome));
          json_builder_set_member_name (builder, "index");
          json_builder_add_int_value (builder, winnow_test_outcome_get_index (outcome));
          winnow_cli_json_member (builder, "name", winnow_test_outcome_get_name (outcome));
          json_builder_set_member_name (builder, "passed");
          json_builder_add_boolean_value (builder, winnow_test_outcome_get_passed (outcome));
          json_builder_set_member_name (builder, "idempotent");
          json_builder_add_boolean_value (builder, winnow_test_outcome_get_idempotent (outcome));
          if (diff != NULL)
            {
              winnow_cli_json_member (builder, "expected", winnow_test_outcome_get_expected (outcome));
              winnow_cli_json_member (builder, "actual", winnow_test_outcome_get_actual (outcome));
              winnow_cli_json_member (builder, "diff", diff);
            }
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "diagnostics");
      winnow_cli_add_diagnostics_json (builder, diagnostics);
      json_builder_end_object (builder);

      root = json_builder_get_root (builder);
      winnow_cli_print_json (root);
      return failed ? WINNOW_EXIT_FAILURE : WINNOW_EXIT_OK;
    }

  winnow_cli_print_diagnostics (diagnostics, FALSE);

  for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
      gboolean passed = winnow_test_outcome_get_passed (outcome);
      gboolean idempotent = winnow_test_outcome_get_idempotent (outcome);

      if (passed && idempotent && !verbose)
        continue;

      g_print ("%s %s › %s%s\n", passed ? "PASS" : "FAIL",
               winnow_test_outcome_get_subject (outcome), winnow_test_outcome_get_name (outcome),
               idempotent ? "" : _(" (not idempotent: a second run changes the output)"));
      if (!passed)
        {
          g_autofree char *diff = winnow_test_outcome_dup_diff (outcome);

          g_print ("  %s\n", outcome_file (outcome));
          print_indented (diff);
        }
    }

  if (n_errors > 0)
    g_print (_("%u pack errors (see above)\n"), n_errors);
  if (load_only)
    g_print (_("%u filters and %u rule packs loaded, %u errors, %u warnings\n"), filters->len,
             packs->len, n_errors, n_warnings);
  else
    g_print ("%s\n", summary);

  return failed ? WINNOW_EXIT_FAILURE : WINNOW_EXIT_OK;
}

typedef struct
{
  guint filters;
  guint tests;
} CategoryCount;

int
winnow_cli_filters (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(GPtrArray) filters = NULL;
  gboolean json = FALSE;
  gboolean stats = FALSE;
  WinnowCliCommon common = { 0 };
  GPtrArray *diagnostics;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the catalog as JSON"), NULL },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats,
      N_("Print how many filters and tests each category has"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (NULL,
                                       _("List the filter catalog: built-in, global and trusted "
                                         "project filters, in the order they are tried."),
                                       _("Load problems are listed after the filters.\n\n"
                                         "Exit status: 0 if every source loaded without errors, "
                                         "1 otherwise, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "filters", &argc, &argv))
    return WINNOW_EXIT_USAGE;
  if (argc > 1)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("filters", _("unexpected argument “%s”"), argv[1]);
    }

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);
  filters = winnow_catalog_dup_filters (winnow_context_get_catalog (ctx));
  diagnostics = winnow_context_dup_diagnostics (ctx);

  if (stats)
    {
      g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      g_autoptr(GList) keys = NULL;
      guint total_tests = 0;

      for (guint i = 0; i < filters->len; i++)
        {
          WinnowFilter *filter = g_ptr_array_index (filters, i);
          const char *category = winnow_filter_get_category (filter);
          CategoryCount *count = g_hash_table_lookup (counts, category);

          if (count == NULL)
            g_hash_table_insert (counts, (gpointer) category, count = g_new0 (CategoryCount, 1));
          count->filters++;
          count->tests += winnow_filter_get_n_tests (filter);
          total_tests += winnow_filter_get_n_tests (filter);
        }

      keys = g_list_sort (g_hash_table_get_keys (counts), (GCompareFunc) g_strcmp0);
      if (json)
        {
          g_autoptr(JsonBuilder) builder = json_builder_new ();
          g_autoptr(JsonNode) root = NULL;

          json_builder_begin_object (builder);
          for (const GList *l = keys; l != NULL; l = l->next)
            {
              CategoryCount *count = g_hash_table_lookup (counts, l->data);

              json_builder_set_member_name (builder, l->data);
              json_builder_begin_object (builder);
              json_builder_set_member_name (builder, "filters");
              json_builder_add_int_value (builder, count->filters);
              json_builder_set_member_name (builder, "tests");
              json_builder_add_int_value (builder, count->tests);
              json_builder_end_object (builder);
            }
          json_builder_end_object (builder);
          root = json_builder_get_root (builder);
          winnow_cli_print_json (root);
        }
      else
        {
          g_autoptr(WinnowCliTable) table = winnow_cli_table_new ("lrr", _("category"),
                                                                  _("filters"), _("tests"), NULL);
          g_autofree char *text = NULL;

          for (const GList *l = keys; l != NULL; l = l->next)
            {
              CategoryCount *count = g_hash_table_lookup (counts, l->data);
              g_autofree char *n_filters = g_strdup_printf ("%u", count->filters);
              g_autofree char *n_tests = g_strdup_printf ("%u", count->tests);

              winnow_cli_table_add_row (table, (const char *) l->data, n_filters, n_tests, NULL);
            }
          {
            g_autofree char *n_filters = g_strdup_printf ("%u", filters->len);
            g_autofree char *n_tests = g_strdup_printf ("%u", total_tests);

            winnow_cli_table_add_row (table, _("total"), n_filters, n_tests, NULL);
          }
          text = winnow_cli_table_format (table);
          g_print ("%s", text);
        }
    }
  else if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "filters");
      json_builder_begin_array (builder);
      for (guint i = 0; i < filters->len; i++)
        {
          WinnowFilter *filter = g_ptr_array_index (filters, i);
          const char * const *types = winnow_filter_get_output_types (filter);

          json_builder_begin_object (builder);
          winnow_cli_json_member (builder, "id", winnow_filter_get_id (filter));
          winnow_cli_json_member (builder, "name", winnow_filter_get_label (filter));
          winnow_cli_json_member (builder, "description", winnow_filter_get_description (filter));
          json_builder_set_member_name (builder, "commandTypes");
          json_builder_begin_array (builder);
          for (guint k = 0; types[k] != NULL; k++)
            json_builder_add_string_value (builder, types[k]);
          json_builder_end_array (builder);
          winnow_cli_json_member (builder, "category", winnow_filter_get_category (filter));
          json_builder_set_member_name (builder, "priority");
          json_builder_add_int_value (builder, winnow_filter_get_priority (filter));
          winnow_cli_json_member (builder, "source",
                                  winnow_filter_source_to_string (winnow_filter_get_source (filter)));
          winnow_cli_json_member (builder, "file", winnow_filter_get_file (filter));
          json_builder_set_member_name (builder, "tests");
          json_builder_add_int_value (builder, winnow_filter_get_n_tests (filter));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "diagnostics");
      winnow_cli_add_diagnostics_json (builder, diagnostics);
      json_builder_end_object (builder);

      root = json_builder_get_root (builder);
      winnow_cli_print_json (root);
    }
  else
    {
      g_autoptr(WinnowCliTable) table = winnow_cli_table_new ("llrlrl", _("id"), _("source"),
                                                              _("priority"), _("category"),
                                                              _("tests"), _("file"), NULL);
      g_autofree char *text = NULL;

      for (guint i = 0; i < filters->len; i++)
        {
          WinnowFilter *filter = g_ptr_array_index (filters, i);
          g_autofree char *priority = g_strdup_printf ("%d", winnow_filter_get_priority (filter));
          g_autofree char *n_tests = g_strdup_printf ("%u", winnow_filter_get_n_tests (filter));

          winnow_cli_table_add_row (table, winnow_filter_get_id (filter),
                                    winnow_filter_source_to_string (winnow_filter_get_source (filter)),
                                    priority, winnow_filter_get_category (filter), n_tests,
                                    winnow_filter_get_file (filter), NULL);
        }
      text = winnow_cli_table_format (table);
      g_print ("%s", text);
      winnow_cli_print_diagnostics (diagnostics, FALSE);
    }

  {
    gboolean ok = winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR) == 0;
    g_ptr_array_unref (diagnostics);
    return ok ? WINNOW_EXIT_OK : WINNOW_EXIT_FAILURE;
  }
}
