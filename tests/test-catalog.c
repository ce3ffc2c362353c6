/* test-catalog.c — filter sources, precedence, the trust gate and selection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "test-util.h"
#include "winnow.h"

typedef struct
{
  char *root;
  char *data_dir;
  char *project_dir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->root = g_dir_make_tmp ("winnow-catalog-XXXXXX", NULL);
  f->data_dir = g_build_filename (f->root, "data", NULL);
  f->project_dir = g_build_filename (f->root, "project", NULL);
  g_mkdir_with_parents (f->data_dir, 0755);
  g_mkdir_with_parents (f->project_dir, 0755);
  g_unsetenv ("WINNOW_TRUST_PROJECT_FILTERS");
  g_unsetenv ("OMNIROUTE_RTK_TRUST_PROJECT_FILTERS");
  g_unsetenv ("WINNOW_BUILTIN_FILTERS_DIR");
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  test_util_remove_tree (f->root);
  g_free (f->root);
  g_free (f->data_dir);
  g_free (f->project_dir);
}

static const char project_pack[] =
  "[{\"id\":\"generic-output\",\"label\":\"Project generic\",\"category\":\"generic\","
  "\"priority\":10,\"match\":{\"outputTypes\":[\"generic-output\"]},"
  "\"rules\":{\"dropPatterns\":[\"^noise\"]}},"
  " {\"id\":\"deploy-log\",\"label\":\"Deploy\",\"category\":\"infra\",\"priority\":80,"
  "\"match\":{\"commands\":[\"^\\\\./deploy\\\\.sh\\\\b\"]},\"rules\":{\"dropPatterns\":[\"^\\\\.\"]}}]";

static void
test_builtin (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  GPtrArray *diagnostics;
  guint n = winnow_catalog_add_builtin (catalog);
  int last_priority = G_MAXINT;

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, n);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (catalog)) == WINNOW_TYPE_FILTER);
  g_assert_nonnull (winnow_catalog_lookup (catalog, "generic-output"));

  /* built-ins load without any diagnostic */
  diagnostics = winnow_catalog_get_diagnostics (catalog);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_test_message ("%s", text);
    }
  g_assert_cmpuint (diagnostics->len, ==, 0);

  /* selection order: priority, high first */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WinnowFilter) filter = g_list_model_get_item (G_LIST_MODEL (catalog), i);

      g_assert_cmpint (winnow_filter_get_priority (filter), <=, last_priority);
      last_priority = winnow_filter_get_priority (filter);
      g_assert_cmpint (winnow_filter_get_source (filter), ==, WINNOW_FILTER_SOURCE_BUILTIN);
    }
}

static void
test_precedence (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *global = g_build_filename (f->data_dir, "rtk", "filters.json", NULL);
  g_autofree char *filters = g_build_filename (f->project_dir, ".rtk", "filters.json", NULL);
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = NULL;
  WinnowCatalog *catalog;
  WinnowFilter *filter;

  test_util_write_file (global, "{\"id\":\"generic-output\",\"label\":\"Global generic\",\"category\":\"generic\","
                      "\"priority\":10,\"match\":{\"outputTypes\":[\"generic-output\"]}}", -1);
  test_util_write_file (filters, project_pack, -1);
  hash = winnow_trust_approve (f->project_dir, &error);
  g_assert_no_error (error);

  ctx = winnow_context_new (f->data_dir, f->project_dir);
  catalog = winnow_context_get_catalog (ctx);

  /* project beats global beats built-in for the same id; the loser stays reachable */
  filter = winnow_catalog_lookup (catalog, "generic-output");
  g_assert_cmpstr (winnow_filter_get_label (filter), ==, "Project generic");
  g_assert_cmpint (winnow_filter_get_source (filter), ==, WINNOW_FILTER_SOURCE_PROJECT);
  filter = winnow_catalog_lookup_shadowed (catalog, "generic-output");
  g_assert_nonnull (filter);
  g_assert_cmpint (winnow_filter_get_source (filter), !=, WINNOW_FILTER_SOURCE_PROJECT);
  g_assert_nonnull (winnow_catalog_lookup (catalog, "deploy-log"));
  g_assert_cmpint (winnow_trust_status_get_state (winnow_context_get_project_trust (ctx)), ==,
                   WINNOW_TRUST_TRUSTED);
}

static void
test_trust_gate (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *filters = g_build_filename (f->project_dir, ".rtk", "filters.json", NULL);
  g_autofree char *trust = g_build_filename (f->project_dir, ".rtk", "trust.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = NULL;

  test_util_write_file (filters, project_pack, -1);

  /* untrusted: skipped with a warning */
  {
    g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, f->project_dir);
    g_autoptr(GPtrArray) diagnostics = winnow_context_dup_diagnostics (ctx);

    g_assert_null (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "deploy-log"));
    g_assert_cmpint (winnow_trust_status_get_state (winnow_context_get_project_trust (ctx)), ==,
                     WINNOW_TRUST_UNTRUSTED);
    g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 1);
  }

  /* approved: loaded */
  hash = winnow_trust_approve (f->project_dir, &error);
  g_assert_no_error (error);
  {
    g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, f->project_dir);
    g_assert_nonnull (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "deploy-log"));
  }

  /* one byte changed (a final newline): skipped again, as "changed" */
  test_util_write_file (filters, "[]\n", -1);
  {
    g_autofree char *again = g_strconcat (project_pack, "\n", NULL);
    test_util_write_file (filters, again, -1);
  }
  {
    g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, f->project_dir);
    WinnowTrustStatus *status = winnow_context_get_project_trust (ctx);

    g_assert_null (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "deploy-log"));
    g_assert_cmpint (winnow_trust_status_get_state (status), ==, WINNOW_TRUST_CHANGED);
    g_assert_cmpstr (winnow_trust_status_get_trusted_sha256 (status), ==, hash);
    g_assert_cmpstr (winnow_trust_status_get_current_sha256 (status), !=, hash);
  }

  /* the environment override trusts without a hash, both spellings */
  g_setenv ("OMNIROUTE_RTK_TRUST_PROJECT_FILTERS", "1", TRUE);
  {
    g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, f->project_dir);

    g_assert_nonnull (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "deploy-log"));
    g_assert_cmpint (winnow_trust_status_get_state (winnow_context_get_project_trust (ctx)), ==,
                     WINNOW_TRUST_OVERRIDDEN);
  }
  g_unsetenv ("OMNIROUTE_RTK_TRUST_PROJECT_FILTERS");

  /* an unusable trust file: skipped, said why */
  test_util_write_file (trust, "{ not json", -1);
  {
    g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, f->project_dir);
    WinnowTrustStatus *status = winnow_context_get_project_trust (ctx);

    g_assert_cmpint (winnow_trust_status_get_state (status), ==, WINNOW_TRUST_INVALID);
    g_assert_nonnull (strstr (winnow_trust_status_get_message (status), "trust.json"));
    g_assert_null (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "deploy-log"));
  }
}

static void
test_settings_override (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *filters = g_build_filename (f->project_dir, ".rtk", "filters.json", NULL);
  g_autofree char *settings = g_build_filename (f->data_dir, "settings.json", NULL);

  test_util_write_file (filters, project_pack, -1);
  test_util_write_file (settings, "{\"rtkConfig\":{\"trustProjectFilters\":true}}", -1);
  {
    g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, f->project_dir);
    g_assert_nonnull (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "deploy-log"));
  }

  /* custom filters off: neither global nor project filters load */
  test_util_write_file (settings, "{\"rtkConfig\":{\"trustProjectFilters\":true,\"customFiltersEnabled\":false}}", -1);
  {
    g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, f->project_dir);
    g_assert_null (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "deploy-log"));
  }
}

static void
test_invalid_custom (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *global = g_build_filename (f->data_dir, "rtk", "filters.json", NULL);
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  WinnowDiagnostic *d = NULL;

  test_util_write_file (global, "[{\"id\":\"ok\",\"label\":\"OK\",\"category\":\"shell\"},\n"
                      " {\"id\":\"broken\",\"label\":\"B\",\"category\":\"shell\","
                      "\"rules\":{\"dropPatterns\":[\"[\"]}},\n"
                      " {\"id\":\"odd-type\",\"label\":\"T\",\"category\":\"shell\","
                      "\"match\":{\"outputTypes\":[\"no-such-type\"]}}]", -1);
  ctx = winnow_context_new (f->data_dir, NULL);
  diagnostics = winnow_context_dup_diagnostics (ctx);

  /* the broken one is skipped with a diagnostic, the others load */
  g_assert_nonnull (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "ok"));
  g_assert_nonnull (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "odd-type"));
  g_assert_null (winnow_catalog_lookup (winnow_context_get_catalog (ctx), "broken"));
  for (guint i = 0; i < diagnostics->len; i++)
    if (winnow_diagnostic_get_level (g_ptr_array_index (diagnostics, i)) == WINNOW_DIAGNOSTIC_ERROR)
      d = g_ptr_array_index (diagnostics, i);
  g_assert_nonnull (d);
  g_assert_cmpstr (winnow_diagnostic_get_source (d), ==, "global");
  g_assert_cmpstr (winnow_diagnostic_get_filter_id (d), ==, "broken");
  g_assert_cmpstr (winnow_diagnostic_get_json_path (d), ==, "[1].rules.dropPatterns[0]");
  g_assert_cmpuint (winnow_diagnostic_get_line (d), ==, 2);
  /* an output type no detector reports is a warning */
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 1);
}

static WinnowFilter *
select_for (WinnowContext   *ctx,
            const char      *text,
            const char      *command,
            WinnowSelection *selection)
{
  g_autoptr(WinnowDetection) detection =
    winnow_detector_detect (winnow_context_get_detector (ctx), text, -1, command);

  return winnow_catalog_select (winnow_context_get_catalog (ctx), detection, text, strlen (text),
                                winnow_context_get_config (ctx), selection);
}

static void
test_selection (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *global = g_build_filename (f->data_dir, "rtk", "filters.json", NULL);
  g_autofree char *settings = g_build_filename (f->data_dir, "settings.json", NULL);
  g_autoptr(WinnowContext) ctx = NULL;
  WinnowSelection selection;
  WinnowFilter *filter;

  test_util_write_file (global,
              "[{\"id\":\"by-type\",\"label\":\"T\",\"category\":\"git\",\"priority\":99,"
              "  \"match\":{\"outputTypes\":[\"git-status\"]}},"
              " {\"id\":\"by-command\",\"label\":\"C\",\"category\":\"infra\",\"priority\":50,"
              "  \"match\":{\"commands\":[\"^deployctl\\\\b\"]}},"
              " {\"id\":\"by-pattern\",\"label\":\"P\",\"category\":\"infra\",\"priority\":40,"
              "  \"match\":{\"patterns\":[\"^DEPLOY \\\\d+\",\"^ROLLOUT done\"]}},"
              " {\"id\":\"loose\",\"label\":\"L\",\"category\":\"cloud\",\"priority\":45,"
              "  \"match\":{\"patterns\":[\"X\\\\s+\\\\S+\",\"^https://\"]}}]", -1);
  ctx = winnow_context_new (f->data_dir, NULL);

  filter = select_for (ctx, "On branch main\n", "git status", &selection);
  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "by-type");
  g_assert_cmpint (selection, ==, WINNOW_SELECTION_OUTPUT_TYPE);

  filter = select_for (ctx, "rolling out\n", "deployctl push", &selection);
  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "by-command");
  g_assert_cmpint (selection, ==, WINNOW_SELECTION_COMMAND);

  /* text patterns need two hits: one loose pattern also matches prose */
  filter = select_for (ctx, "DEPLOY 42 started\nROLLOUT done\n", NULL, &selection);
  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "by-pattern");
  g_assert_cmpint (selection, ==, WINNOW_SELECTION_PATTERN);
  filter = select_for (ctx, "Tax rates vary a lot.\nthen it broke\n", "./run.sh", &selection);
  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "generic-output");
  g_assert_cmpint (selection, ==, WINNOW_SELECTION_FALLBACK);

  /* unknown output with error lines goes to the filter for generic errors */
  filter = select_for (ctx, "Tax rates vary a lot.\nError: then it broke\n", NULL, &selection);
  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "generic-output");
  g_assert_cmpint (selection, ==, WINNOW_SELECTION_OUTPUT_TYPE);

  /* command evidence outranks loose text patterns */
  filter = select_for (ctx, "DEPLOY 42 started\nROLLOUT done\n", "git branch", &selection);
  g_assert_cmpstr (winnow_filter_get_id (filter), !=, "by-pattern");

  /* prose with no command passes through */
  filter = select_for (ctx, "Just a paragraph of notes about the design.\n", NULL, &selection);
  g_assert_null (filter);
  g_assert_cmpint (selection, ==, WINNOW_SELECTION_PASSTHROUGH);

  /* disabledFilters / enabledFilters */
  test_util_write_file (settings, "{\"rtkConfig\":{\"disabledFilters\":[\"by-type\"]}}", -1);
  g_clear_object (&ctx);
  ctx = winnow_context_new (f->data_dir, NULL);
  filter = select_for (ctx, "On branch main\n", "git status", &selection);
  g_assert_cmpstr (winnow_filter_get_id (filter), !=, "by-type");

  test_util_write_file (settings, "{\"rtkConfig\":{\"enabledFilters\":[\"by-command\"]}}", -1);
  g_clear_object (&ctx);
  ctx = winnow_context_new (f->data_dir, NULL);
  filter = select_for (ctx, "anything at all\nError: x\n", "make", &selection);
  g_assert_null (filter);
  g_assert_cmpint (selection, ==, WINNOW_SELECTION_NONE);
}

static void
test_compress (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(WinnowContext) ctx = winnow_context_new (f->data_dir, NULL);
  g_autoptr(WinnowCompression) c = NULL;
  g_autoptr(WinnowCompression) forced = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  WinnowCompressOptions options;

  for (int i = 0; i < 300; i++)
    g_string_append_printf (text, i == 150 ? "Error: the needle at step %d\n" : "step %d done\n", i);

  c = winnow_context_compress (ctx, text->str, text->len, "./build.sh", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (winnow_compression_get_compressed (c));
  g_assert_nonnull (strstr (winnow_compression_get_text (c, NULL), "Error: the needle at step 150"));
  g_assert_cmpuint (winnow_compression_get_tokens_after (c), <,
                    winnow_compression_get_tokens_before (c));
  g_assert_cmpfloat (winnow_compression_get_saved_ratio (c), >, 0.5);
  g_assert_nonnull (winnow_compression_get_filter (c));

  winnow_compress_options_init (&options);
  options.filter_id = "no-such-filter";
  forced = winnow_context_compress (ctx, "x", 1, NULL, &options, &error);
  g_assert_null (forced);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_FOUND);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/winnow/catalog/builtin", test_builtin);
  ADD ("/winnow/catalog/precedence", test_precedence);
  ADD ("/winnow/catalog/trust-gate", test_trust_gate);
  ADD ("/winnow/catalog/settings-override", test_settings_override);
  ADD ("/winnow/catalog/invalid-custom", test_invalid_custom);
  ADD ("/winnow/catalog/selection", test_selection);
  ADD ("/winnow/catalog/compress", test_compress);
#undef ADD

  return g_test_run ();
}
