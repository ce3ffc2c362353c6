/* test-config.c — the compression settings document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "winnow.h"

static void
test_defaults (void)
{
  g_autoptr(WinnowConfig) config = winnow_config_new ();
  WinnowRtkOptions options;

  g_assert_cmpstr (winnow_config_get_default_mode (config), ==, "stacked");
  g_assert_cmpuint (winnow_config_get_auto_trigger_tokens (config), ==, 32000);
  g_assert_cmpuint (winnow_config_get_n_pipeline_steps (config), ==, 2);
  g_assert_cmpstr (winnow_config_get_pipeline_step (config, 0)->engine, ==, "rtk");
  g_assert_cmpstr (winnow_config_get_pipeline_step (config, 1)->intensity, ==, "full");
  g_assert_true (winnow_config_get_rtk_enabled (config));
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (config), ==, 120);
  g_assert_cmpuint (winnow_config_get_max_chars_per_result (config), ==, 12000);
  g_assert_cmpuint (winnow_config_get_dedup_threshold (config), ==, 3);
  g_assert_cmpstr (winnow_config_get_raw_output_retention (config), ==, "never");
  g_assert_cmpuint (winnow_config_get_raw_output_max_bytes (config), ==, 1048576);
  g_assert_false (winnow_config_get_trust_project_filters (config));

  winnow_config_get_rtk_options (config, &options);
  g_assert_cmpint (options.intensity, ==, WINNOW_RTK_INTENSITY_STANDARD);
  g_assert_true (options.engine_limits);
}

static void
test_parse (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowConfig) config = winnow_config_new_from_json (
    "{\"defaultMode\":\"rtk\",\"autoTriggerTokens\":1000,"
    "\"stackedPipeline\":[{\"engine\":\"caveman\",\"intensity\":\"ultra\"}],"
    "\"rtkConfig\":{\"intensity\":\"aggressive\",\"disabledFilters\":[\"git-diff\"],"
    "\"maxLinesPerResult\":50,\"deduplicateThreshold\":4,\"rawOutputRetention\":\"failures\"}}",
    -1, "settings.json", diagnostics);
  g_autofree char *json = NULL;
  g_autoptr(WinnowConfig) again = NULL;

  g_assert_cmpuint (diagnostics->len, ==, 0);
  g_assert_cmpstr (winnow_config_get_default_mode (config), ==, "rtk");
  g_assert_cmpuint (winnow_config_get_auto_trigger_tokens (config), ==, 1000);
  g_assert_cmpuint (winnow_config_get_n_pipeline_steps (config), ==, 1);
  g_assert_cmpint (winnow_config_get_rtk_intensity (config), ==, WINNOW_RTK_INTENSITY_AGGRESSIVE);
  g_assert_false (winnow_config_is_filter_enabled (config, "git-diff"));
  g_assert_true (winnow_config_is_filter_enabled (config, "git-status"));
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (config), ==, 50);
  g_assert_cmpuint (winnow_config_get_dedup_threshold (config), ==, 4);
  g_assert_cmpstr (winnow_config_get_raw_output_retention (config), ==, "failures");

  /* round trip through the serialised form */
  json = winnow_config_to_json (config);
  again = winnow_config_new_from_json (json, -1, NULL, diagnostics);
  g_assert_cmpuint (diagnostics->len, ==, 0);
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (again), ==, 50);
  g_assert_false (winnow_config_is_filter_enabled (again, "git-diff"));
}

static void
test_invalid (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowConfig) config = winnow_config_new_from_json (
    "{\n"
    "  \"defaultMode\": \"turbo\",\n"
    "  \"mystery\": 1,\n"
    "  \"rtkConfig\": {\n"
    "    \"intensity\": 3,\n"
    "    \"deduplicateThreshold\": 1,\n"
    "    \"rawOutputMaxBytes\": 10,\n"
    "    \"enabled\": \"yes\"\n"
    "  }\n"
    "}\n", -1, "settings.json", diagnostics);
  WinnowDiagnostic *d;

  /* every bad value keeps its default and says so, with its line */
  g_assert_cmpstr (winnow_config_get_default_mode (config), ==, "stacked");
  g_assert_cmpint (winnow_config_get_rtk_intensity (config), ==, WINNOW_RTK_INTENSITY_STANDARD);
  g_assert_cmpuint (winnow_config_get_dedup_threshold (config), ==, 3);
  g_assert_cmpuint (winnow_config_get_raw_output_max_bytes (config), ==, 1048576);
  g_assert_true (winnow_config_get_rtk_enabled (config));
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 5);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 1);

  d = g_ptr_array_index (diagnostics, 0);
  g_assert_cmpstr (winnow_diagnostic_get_json_path (d), ==, "mystery");
  g_assert_cmpuint (winnow_diagnostic_get_line (d), ==, 3);
  d = g_ptr_array_index (diagnostics, 1);
  g_assert_cmpstr (winnow_diagnostic_get_json_path (d), ==, "defaultMode");
  g_assert_cmpuint (winnow_diagnostic_get_line (d), ==, 2);
}

static void
test_not_json (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowConfig) a = winnow_config_new_from_json ("{ oops", -1, "s.json", diagnostics);
  g_autoptr(WinnowConfig) b = winnow_config_new_from_json ("[1]", -1, "s.json", diagnostics);
  g_autoptr(WinnowConfig) c = winnow_config_load_file ("/nonexistent/settings.json", diagnostics);

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_nonnull (c);
  /* a missing file is just the defaults */
  g_assert_cmpuint (diagnostics->len, ==, 2);
}

/* Found by fuzz-settings and fuzz-server: an empty document gave a critical warning (no root
 * node), a number out of range was converted to an integer before its range was checked
 * (undefined), a deeply nested document overflowed json-glib's recursive parser, and two
 * documents in a row were read as one. Each is now the defaults with one error. */
static void
test_hostile (void)
{
  static const char *const numbers[] = { "1e300", "-1e300", "1e19", "-9.3e18", "4294967296" };
  g_autoptr(GString) deep = g_string_new (NULL);

  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
      /* the last two: json-glib 1.6 takes two documents in a row for one (leaking one) */
      const char *text = i == 0 ? "" : i == 1 ? " \n\t" : i == 2 ? "  \n{}"
                       : i == 3 ? "{\"autoTriggerTokens\": 5}\n{\"autoTriggerTokens\": 6}"
                       : "7 {\"autoTriggerTokens\": 8}";
      /* not NUL-terminated where it stops: only the given length may be read */
      g_autoptr(WinnowConfig) config = winnow_config_new_from_json (text, i == 2 ? 3 : strlen (text),
                                                                    "s.json", diagnostics);

      g_assert_nonnull (config);
      g_assert_cmpuint (winnow_config_get_auto_trigger_tokens (config), ==, 32000);
      g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 1);
    }

  /* a byte-order mark is not a first value */
  {
    g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr(WinnowConfig) config = winnow_config_new_from_json ("\xEF\xBB\xBF{\"autoTriggerTokens\": 9}",
                                                                  -1, "s.json", diagnostics);

    g_assert_cmpuint (winnow_config_get_auto_trigger_tokens (config), ==, 9);
    g_assert_cmpuint (diagnostics->len, ==, 0);
  }

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
      g_autofree char *text = g_strdup_printf ("{\"autoTriggerTokens\": %s, "
                                               "\"rtkConfig\": {\"maxLinesPerResult\": %s}}",
                                               numbers[i], numbers[i]);
      g_autoptr(WinnowConfig) config = winnow_config_new_from_json (text, -1, "s.json", diagnostics);

      g_assert_cmpuint (winnow_config_get_auto_trigger_tokens (config), ==, 32000);
      g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 2);
    }

  for (guint i = 0; i < 1000000; i++)
    g_string_append_c (deep, '[');
  {
    g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr(WinnowConfig) config = winnow_config_new_from_json (deep->str, deep->len, "s.json",
                                                                  diagnostics);
    g_autofree char *message = NULL;

    g_assert_nonnull (config);
    g_assert_cmpuint (diagnostics->len, ==, 1);
    message = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, 0));
    g_assert_nonnull (strstr (message, "nest deeper than 512 levels"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/config/defaults", test_defaults);
  g_test_add_func ("/winnow/config/parse", test_parse);
  g_test_add_func ("/winnow/config/invalid", test_invalid);
  g_test_add_func ("/winnow/config/not-json", test_not_json);
  g_test_add_func ("/winnow/config/hostile", test_hostile);

  return g_test_run ();
}
