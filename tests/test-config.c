/* test-config.c — the compression settings document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
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

static void
test_caveman (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowConfig) defaults = winnow_config_new ();
  g_autoptr(WinnowConfig) config = winnow_config_new_from_json (
    "{\"cavemanConfig\":{\"intensity\":\"ultra\",\"language\":\"pt-BR\"}}", -1, NULL,
    diagnostics);
  g_autoptr(WinnowConfig) bad = NULL;
  g_autoptr(WinnowConfig) again = NULL;
  g_autofree char *json = NULL;

  g_assert_cmpstr (winnow_config_get_caveman_intensity (defaults), ==, "full");
  g_assert_cmpstr (winnow_config_get_caveman_language (defaults), ==, "auto");

  g_assert_cmpuint (diagnostics->len, ==, 0);
  g_assert_cmpstr (winnow_config_get_caveman_intensity (config), ==, "ultra");
  g_assert_cmpstr (winnow_config_get_caveman_language (config), ==, "pt-BR");
  json = winnow_config_to_json (config);
  again = winnow_config_new_from_json (json, -1, NULL, diagnostics);
  g_assert_cmpuint (diagnostics->len, ==, 0);
  g_assert_cmpstr (winnow_config_get_caveman_language (again), ==, "pt-BR");

  bad = winnow_config_new_from_json ("{\"cavemanConfig\":{\"intensity\":\"max\","
                                     "\"language\":\"../etc\",\"x\":1}}", -1, NULL, diagnostics);
  g_assert_cmpstr (winnow_config_get_caveman_intensity (bad), ==, "full");
  g_assert_cmpstr (winnow_config_get_caveman_language (bad), ==, "auto");
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 2);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 1);
}

static WinnowConfig *
settings_of (WinnowContext *context)
{
  return winnow_context_get_config (context);
}

static char *
read_text (const char *path)
{
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_steal_pointer (&text);
}

static JsonObject *
object_from (const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

/* A patch changes what it names, keeps every other key (unknown ones too), writes the file
 * and replaces the context's settings; a bad value or a broken file changes nothing. */
static void
test_update_settings (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-config-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "settings.json", NULL);
  g_autoptr(WinnowContext) context = NULL;
  g_autoptr(JsonObject) patch = NULL;
  g_autofree char *text = NULL;
  WinnowConfig *before;
  guint notified = 0;

  test_util_write_file (path, "{\"otherTool\": {\"keep\": true}, \"defaultMode\": \"rtk\", "
                        "\"rtkConfig\": {\"maxLinesPerResult\": 90, \"myOwn\": 1}}", -1);
  context = winnow_context_new (dir, NULL);
  g_signal_connect (context, "notify::config", G_CALLBACK (count_notify), &notified);
  before = settings_of (context);

  patch = object_from ("{\"autoTriggerTokens\": 5000, \"rtkConfig\": {\"dedupli"
                       "cateThreshold\": 5}, \"cavemanConfig\": {\"intensity\": \"lite\"}, "
                       "\"stackedPipeline\": [{\"engine\": \"caveman\", \"intensity\": \"ultra\"}, "
                       "{\"engine\": \"rtk\", \"intensity\": \"minimal\"}]}");
  g_assert_true (winnow_context_update_settings (context, patch, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_true (settings_of (context) != before);
  g_assert_cmpuint (winnow_config_get_auto_trigger_tokens (settings_of (context)), ==, 5000);
  g_assert_cmpuint (winnow_config_get_dedup_threshold (settings_of (context)), ==, 5);
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (settings_of (context)), ==, 90);
  g_assert_cmpstr (winnow_config_get_default_mode (settings_of (context)), ==, "rtk");
  g_assert_cmpstr (winnow_config_get_caveman_intensity (settings_of (context)), ==, "lite");
  g_assert_cmpstr (winnow_config_get_pipeline_step (settings_of (context), 0)->engine,
                   ==, "caveman");
  g_assert_cmpstr (winnow_config_get_pipeline_step (settings_of (context), 1)->intensity,
                   ==, "minimal");
  text = read_text (path);
  g_assert_nonnull (strstr (text, "\"otherTool\""));
  g_assert_nonnull (strstr (text, "\"myOwn\""));
  g_assert_nonnull (strstr (text, "\"maxLinesPerResult\" : 90"));
  g_assert_nonnull (strstr (text, "\"deduplicateThreshold\" : 5"));
  /* only what was written, not every default */
  g_assert_null (strstr (text, "maxCharsPerResult"));

  /* null removes a member: back to its default */
  g_clear_pointer (&patch, json_object_unref);
  patch = object_from ("{\"defaultMode\": null}");
  g_assert_true (winnow_context_update_settings (context, patch, &error));
  g_assert_cmpstr (winnow_config_get_default_mode (settings_of (context)), ==, "stacked");

  /* out of range: refused, naming the path; nothing written, nothing notified */
  g_clear_pointer (&text, g_free);
  text = read_text (path);
  notified = 0;
  g_clear_pointer (&patch, json_object_unref);
  patch = object_from ("{\"rtkConfig\": {\"deduplicateThreshold\": 1}}");
  g_assert_false (winnow_context_update_settings (context, patch, &error));
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "rtkConfig.deduplicateThreshold"));
  g_clear_error (&error);
  g_clear_pointer (&patch, json_object_unref);
  patch = object_from ("{\"stackedPipeline\": [{\"engine\": \"zip\"}]}");
  g_assert_false (winnow_context_update_settings (context, patch, &error));
  g_assert_nonnull (strstr (error->message, "stackedPipeline[0].engine"));
  g_clear_error (&error);
  {
    g_autofree char *after = read_text (path);

    g_assert_cmpstr (after, ==, text);
  }
  g_assert_cmpuint (notified, ==, 0);
  g_assert_cmpuint (winnow_config_get_dedup_threshold (settings_of (context)), ==, 5);

  /* a bad key written by hand elsewhere does not block other changes */
  test_util_write_file (path, "{\"retentionDays\": 0, \"rtkConfig\": {\"intensity\": 7}}", -1);
  g_clear_pointer (&patch, json_object_unref);
  patch = object_from ("{\"rtkConfig\": {\"maxCharsPerResult\": 500}}");
  g_assert_true (winnow_context_update_settings (context, patch, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (winnow_config_get_max_chars_per_result (settings_of (context)), ==, 500);

  /* a broken file is never replaced */
  test_util_write_file (path, "{ \"defaultMode\": ", -1);
  g_assert_false (winnow_context_update_settings (context, patch, &error));
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_CONFIG);
  g_clear_pointer (&text, g_free);
  text = read_text (path);
  g_assert_cmpstr (text, ==, "{ \"defaultMode\": ");

  test_util_remove_tree (dir);
}

/* A file changed by someone else is read again; the same settings notify nobody. */
static void
test_reload_settings (void)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-config-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "settings.json", NULL);
  g_autoptr(WinnowContext) context = winnow_context_new (dir, NULL);
  guint notified = 0;

  g_signal_connect (context, "notify::config", G_CALLBACK (count_notify), &notified);
  g_assert_false (winnow_context_reload_settings (context));

  test_util_write_file (path, "{\"rtkConfig\": {\"maxLinesPerResult\": 7}}", -1);
  g_assert_true (winnow_context_reload_settings (context));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (settings_of (context)), ==, 7);

  /* the same settings written differently: no change */
  test_util_write_file (path, "{ \"rtkConfig\" : { \"maxLinesPerResult\" : 7 } }\n", -1);
  g_assert_false (winnow_context_reload_settings (context));
  g_assert_cmpuint (notified, ==, 1);

  /* broken: the defaults, with a diagnostic */
  test_util_write_file (path, "{ oops", -1);
  g_assert_true (winnow_context_reload_settings (context));
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (settings_of (context)), ==, 120);
  {
    g_autoptr(GPtrArray) diagnostics = winnow_context_dup_diagnostics (context);

    g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), >=, 1);
  }

  test_util_remove_tree (dir);
}

/* `caveman` mode runs at cavemanConfig.intensity, and cavemanConfig.language picks the packs. */
static void
test_caveman_settings_apply (void)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-config-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "settings.json", NULL);
  g_autoptr(WinnowContext) context = NULL;
  g_autoptr(WinnowPipeline) pipeline = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(JsonNode) patch = NULL;
  WinnowPipelineRequest request;
  guint n_caveman = 0;
  const char *prose = "I would really like to basically make sure that the configuration is "
                      "actually working as expected before we go ahead with the release.";

  test_util_write_file (path, "{\"defaultMode\": \"caveman\", \"cavemanConfig\": "
                        "{\"intensity\": \"ultra\", \"language\": \"de\"}}", -1);
  context = winnow_context_new (dir, NULL);
  pipeline = winnow_pipeline_new (context);
  winnow_pipeline_request_init (&request);
  request.role = WINNOW_MESSAGE_ROLE_USER;
  /* German packs leave English prose alone */
  result = winnow_pipeline_run_text (pipeline, prose, -1, &request, NULL);
  g_assert_nonnull (result);
  g_assert_cmpuint (winnow_pipeline_result_get_n_steps (result), ==, 1);
  g_assert_cmpstr (winnow_pipeline_result_get_step (result, 0)->intensity, ==, "ultra");
  g_assert_cmpstr (winnow_pipeline_result_get_text (result, NULL), ==, prose);

  /* English ones do not, once the settings say so */
  patch = json_from_string ("{\"cavemanConfig\": {\"language\": \"en\"}}", NULL);
  g_assert_true (winnow_context_update_settings (context, json_node_get_object (patch), NULL));
  g_clear_object (&result);
  result = winnow_pipeline_run_text (pipeline, prose, -1, &request, NULL);
  g_assert_cmpstr (winnow_pipeline_result_get_text (result, NULL), !=, prose);
  for (guint i = 0; i < winnow_pipeline_result_get_n_decisions (result); i++)
    {
      const WinnowDecision *d = winnow_pipeline_result_get_decision (result, i);

      if (g_str_has_prefix (d->action, "caveman:"))
        {
          g_assert_cmpstr (d->action, ==, "caveman:en/ultra");
          n_caveman++;
        }
    }
  g_assert_cmpuint (n_caveman, ==, 1);

  test_util_remove_tree (dir);
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
  g_test_add_func ("/winnow/config/caveman", test_caveman);
  g_test_add_func ("/winnow/config/update-settings", test_update_settings);
  g_test_add_func ("/winnow/config/caveman-settings-apply", test_caveman_settings_apply);
  g_test_add_func ("/winnow/config/reload-settings", test_reload_settings);
  g_test_add_func ("/winnow/config/hostile", test_hostile);

  return g_test_run ();
}
