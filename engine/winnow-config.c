/* winnow-config.c — the compression settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The settings document of seed 001 (`defaultMode`, `autoTriggerMode`, `autoTriggerTokens`,
 * `stackedPipeline`, `rtkConfig{…}`), with the reference's defaults. A bad value is an error
 * diagnostic naming its JSON path and the default is used instead, so one typo never turns
 * compression off; unknown keys are warnings. The object is immutable once loaded: a change
 * is a new document, parsed again.
 *
 * Winnow adds one engine to `stackedPipeline`: `{"engine": "structure", "intensity":
 * "lossless" | "lossy"}`, the format adapters (see winnow-pipeline.c).
 *
 * Winnow also reads `cavemanConfig`, which the reference names without documenting it:
 * `{"intensity": "lite" | "full" | "ultra", "language": "auto" | "<code>"}`. The intensity is
 * the one `caveman` mode runs at (a stacked Caveman step keeps its own); the language picks
 * which language's rule packs apply to prose instead of detecting it per message. A language
 * code is only checked for its shape here: which packs exist is the rule set's business, and
 * it falls back from `pt-BR` to `pt` to English on its own.
 */

#define G_LOG_DOMAIN "winnow-config"

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "winnow-config.h"
#include "winnow-diagnostic.h"
#include "winnow-json-locator.h"
#include "winnow-json-reader.h"

struct _WinnowConfig
{
  GObject             parent_instance;
  char               *default_mode;
  char               *auto_trigger_mode;
  guint               auto_trigger_tokens;
  GArray             *pipeline;            /* WinnowPipelineStep */
  WinnowRtkIntensity  rtk_intensity;
  GStrv               enabled_filters;
  GStrv               disabled_filters;
  guint               max_lines_per_result;
  guint               max_chars_per_result;
  guint               dedup_threshold;
  char               *raw_output_retention;
  guint               raw_output_max_bytes;
  guint               retention_days;
  char               *caveman_intensity;
  char               *caveman_language;
  guint               rtk_enabled : 1;
  guint               apply_to_tool_results : 1;
  guint               apply_to_code_blocks : 1;
  guint               apply_to_assistant_messages : 1;
  guint               custom_filters_enabled : 1;
  guint               trust_project_filters : 1;
};

G_DEFINE_FINAL_TYPE (WinnowConfig, winnow_config, G_TYPE_OBJECT)

static const char * const modes[] = { "off", "rtk", "caveman", "stacked", NULL };
static const char * const retentions[] = { "never", "failures", "always", NULL };
static const char * const caveman_intensities[] = { "lite", "full", "ultra", NULL };
static const char * const rtk_intensities[] = { "minimal", "standard", "aggressive", NULL };

static void
step_clear (gpointer data)
{
  WinnowPipelineStep *step = data;

  g_free (step->engine);
  g_free (step->intensity);
}

static void
add_step (WinnowConfig *self,
          const char   *engine,
          const char   *intensity)
{
  WinnowPipelineStep step = { g_strdup (engine), g_strdup (intensity) };

  g_array_append_val (self->pipeline, step);
}

static void
winnow_config_finalize (GObject *object)
{
  WinnowConfig *self = (WinnowConfig *)object;

  g_clear_pointer (&self->default_mode, g_free);
  g_clear_pointer (&self->auto_trigger_mode, g_free);
  g_clear_pointer (&self->pipeline, g_array_unref);
  g_clear_pointer (&self->enabled_filters, g_strfreev);
  g_clear_pointer (&self->disabled_filters, g_strfreev);
  g_clear_pointer (&self->raw_output_retention, g_free);
  g_clear_pointer (&self->caveman_intensity, g_free);
  g_clear_pointer (&self->caveman_language, g_free);

  G_OBJECT_CLASS (winnow_config_parent_class)->finalize (object);
}

static void
winnow_config_class_init (WinnowConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_config_finalize;
}

static void
winnow_config_init (WinnowConfig *self)
{
  self->default_mode = g_strdup ("stacked");
  self->auto_trigger_mode = g_strdup ("stacked");
  self->auto_trigger_tokens = 32000;
  self->pipeline = g_array_new (FALSE, TRUE, sizeof (WinnowPipelineStep));
  g_array_set_clear_func (self->pipeline, step_clear);
  add_step (self, "rtk", "standard");
  add_step (self, "caveman", "full");
  self->rtk_enabled = TRUE;
  self->rtk_intensity = WINNOW_RTK_INTENSITY_STANDARD;
  self->apply_to_tool_results = TRUE;
  self->apply_to_code_blocks = FALSE;
  self->apply_to_assistant_messages = FALSE;
  self->enabled_filters = g_new0 (char *, 1);
  self->disabled_filters = g_new0 (char *, 1);
  self->max_lines_per_result = 120;
  self->max_chars_per_result = 12000;
  self->dedup_threshold = 3;
  self->custom_filters_enabled = TRUE;
  self->trust_project_filters = FALSE;
  self->raw_output_retention = g_strdup ("never");
  self->raw_output_max_bytes = 1048576;
  self->retention_days = 90;
  self->caveman_intensity = g_strdup ("full");
  self->caveman_language = g_strdup ("auto");
}

/**
 * winnow_config_new:
 *
 * Returns: (transfer full): the default settings
 */
WinnowConfig *
winnow_config_new (void)
{
  return g_object_new (WINNOW_TYPE_CONFIG, NULL);
}

/* ---- parsing ----------------------------------------------------------------------------- */

typedef struct
{
  const char *file;
  GPtrArray  *diagnostics;
} Parser;

G_GNUC_PRINTF (4, 5)
static void
report (Parser                *p,
        WinnowDiagnosticLevel  level,
        const char            *path,
        const char            *format,
        ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (p->diagnostics == NULL)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (p->diagnostics,
                   winnow_diagnostic_new (level, "settings", p->file, NULL, path, 0, 0, message));
}

static gboolean
get_bool (Parser     *p,
          JsonObject *obj,
          const char *key,
          const char *path,
          gboolean    fallback)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL)
    return fallback;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (node);

  report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be true or false; using %s",
          fallback ? "true" : "false");
  return fallback;
}

static guint
get_uint (Parser     *p,
          JsonObject *obj,
          const char *key,
          const char *path,
          guint       min,
          guint       max,
          guint       fallback)
{
  JsonNode *node = json_object_get_member (obj, key);
  double value;

  if (node == NULL)
    return fallback;

  if (!JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_INT64 &&
       json_node_get_value_type (node) != G_TYPE_DOUBLE))
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be a number; using %u", fallback);
      return fallback;
    }

  value = json_node_get_double (node);
  /* the range first: converting a double outside an integer type's range is undefined */
  if (!(value >= min && value <= max) || value != (double) (guint) value)
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path,
              "must be a whole number between %u and %u; using %u", min, max, fallback);
      return fallback;
    }

  return (guint) value;
}

static char *
get_enum (Parser             *p,
          JsonObject         *obj,
          const char         *key,
          const char         *path,
          const char * const *allowed,
          const char         *fallback)
{
  JsonNode *node = json_object_get_member (obj, key);
  const char *value;

  if (node == NULL)
    return g_strdup (fallback);

  value = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
          ? json_node_get_string (node) : NULL;
  if (value == NULL || !g_strv_contains (allowed, value))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) allowed);
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be one of %s; using “%s”", list, fallback);
      return g_strdup (fallback);
    }

  return g_strdup (value);
}

static GStrv
get_id_list (Parser     *p,
             JsonObject *obj,
             const char *key,
             const char *path)
{
  JsonNode *node = json_object_get_member (obj, key);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (node == NULL)
    return g_new0 (char *, 1);

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be an array of filter ids; ignored");
      return g_new0 (char *, 1);
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (element));
      else
        {
          g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);
          report (p, WINNOW_DIAGNOSTIC_ERROR, element_path, "must be a filter id; ignored");
        }
    }

  return g_strv_builder_end (builder);
}

static void
warn_unknown (Parser             *p,
              JsonObject         *obj,
              const char         *prefix,
              const char * const *known)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      g_autoptr(GString) path = g_string_new (prefix);

      if (g_strv_contains (known, l->data))
        continue;
      _winnow_json_path_append_member (path, l->data);
      report (p, WINNOW_DIAGNOSTIC_WARNING, path->str, "unknown setting, ignored");
    }
}

static void
parse_pipeline (Parser       *p,
                WinnowConfig *self,
                JsonNode     *node)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, "stackedPipeline",
              "must be an array of {\"engine\", \"intensity\"} steps; using the default");
      return;
    }

  array = json_node_get_array (node);
  g_array_set_size (self->pipeline, 0);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *path = g_strdup_printf ("stackedPipeline[%u]", i);
      g_autofree char *engine_path = g_strconcat (path, ".engine", NULL);
      g_autofree char *intensity_path = g_strconcat (path, ".intensity", NULL);
      static const char * const engines[] = { "rtk", "caveman", "structure", NULL };
      static const char * const structure_intensities[] = { "lossless", "lossy", NULL };
      static const char * const step_keys[] = { "engine", "intensity", NULL };
      g_autofree char *engine = NULL;
      g_autofree char *intensity = NULL;
      JsonObject *obj;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be an {\"engine\", \"intensity\"} "
                  "object; step skipped");
          continue;
        }

      obj = json_node_get_object (element);
      warn_unknown (p, obj, path, step_keys);
      engine = get_enum (p, obj, "engine", engine_path, engines, "rtk");
      if (strcmp (engine, "rtk") == 0)
        intensity = get_enum (p, obj, "intensity", intensity_path, rtk_intensities, "standard");
      else if (strcmp (engine, "caveman") == 0)
        intensity = get_enum (p, obj, "intensity", intensity_path, caveman_intensities, "full");
      else
        intensity = get_enum (p, obj, "intensity", intensity_path, structure_intensities,
                              "lossless");
      add_step (self, engine, intensity);
    }
}

static void
parse_rtk (Parser       *p,
           WinnowConfig *self,
           JsonObject   *rtk)
{
  static const char * const known[] = {
    "enabled", "intensity", "applyToToolResults", "applyToCodeBlocks",
    "applyToAssistantMessages", "enabledFilters", "disabledFilters", "maxLinesPerResult",
    "maxCharsPerResult", "deduplicateThreshold", "customFiltersEnabled", "trustProjectFilters",
    "rawOutputRetention", "rawOutputMaxBytes", NULL
  };
  g_autofree char *intensity = NULL;

  warn_unknown (p, rtk, "rtkConfig", known);

  self->rtk_enabled = get_bool (p, rtk, "enabled", "rtkConfig.enabled", TRUE);
  intensity = get_enum (p, rtk, "intensity", "rtkConfig.intensity", rtk_intensities, "standard");
  winnow_rtk_intensity_from_string (intensity, &self->rtk_intensity);
  self->apply_to_tool_results =
    get_bool (p, rtk, "applyToToolResults", "rtkConfig.applyToToolResults", TRUE);
  self->apply_to_code_blocks =
    get_bool (p, rtk, "applyToCodeBlocks", "rtkConfig.applyToCodeBlocks", FALSE);
  self->apply_to_assistant_messages =
    get_bool (p, rtk, "applyToAssistantMessages", "rtkConfig.applyToAssistantMessages", FALSE);

  g_strfreev (self->enabled_filters);
  self->enabled_filters = get_id_list (p, rtk, "enabledFilters", "rtkConfig.enabledFilters");
  g_strfreev (self->disabled_filters);
  self->disabled_filters = get_id_list (p, rtk, "disabledFilters", "rtkConfig.disabledFilters");

  self->max_lines_per_result = get_uint (p, rtk, "maxLinesPerResult",
                                         "rtkConfig.maxLinesPerResult", 0, 1000000, 120);
  self->max_chars_per_result = get_uint (p, rtk, "maxCharsPerResult",
                                         "rtkConfig.maxCharsPerResult", 0, 100000000, 12000);
  self->dedup_threshold = get_uint (p, rtk, "deduplicateThreshold",
                                    "rtkConfig.deduplicateThreshold", 2, 1000000, 3);
  self->custom_filters_enabled =
    get_bool (p, rtk, "customFiltersEnabled", "rtkConfig.customFiltersEnabled", TRUE);
  self->trust_project_filters =
    get_bool (p, rtk, "trustProjectFilters", "rtkConfig.trustProjectFilters", FALSE);

  g_free (self->raw_output_retention);
  self->raw_output_retention = get_enum (p, rtk, "rawOutputRetention",
                                         "rtkConfig.rawOutputRetention", retentions, "never");
  self->raw_output_max_bytes = get_uint (p, rtk, "rawOutputMaxBytes",
                                         "rtkConfig.rawOutputMaxBytes", 1024, G_MAXINT32,
                                         1048576);
}

/* "auto", or a language tag as the rule packs' folders are named: `en`, `pt-BR`, `zh` */
static gboolean
is_language_code (const char *value)
{
  return g_str_equal (value, "auto") ||
         g_regex_match_simple ("^[a-z]{2,3}(-[A-Z]{2})?$", value, 0, 0);
}

static void
parse_caveman (Parser       *p,
               WinnowConfig *self,
               JsonObject   *caveman)
{
  static const char * const known[] = { "intensity", "language", NULL };
  JsonNode *node;

  warn_unknown (p, caveman, "cavemanConfig", known);

  g_free (self->caveman_intensity);
  self->caveman_intensity = get_enum (p, caveman, "intensity", "cavemanConfig.intensity",
                                      caveman_intensities, "full");

  node = json_object_get_member (caveman, "language");
  if (node == NULL)
    return;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
      is_language_code (json_node_get_string (node)))
    {
      g_free (self->caveman_language);
      self->caveman_language = g_strdup (json_node_get_string (node));
    }
  else
    report (p, WINNOW_DIAGNOSTIC_ERROR, "cavemanConfig.language",
            "must be \"auto\" or a language code such as \"en\" or \"pt-BR\"; using "
            "\"auto\"");
}

/**
 * winnow_config_new_from_json:
 * @text: a settings document
 * @length: its length, or -1 if nul-terminated
 * @file: (nullable): its file name, for diagnostics
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): findings are appended here
 *
 * Returns: (transfer full): the settings; every value that is missing or invalid has its
 *   default
 */
WinnowConfig *
winnow_config_new_from_json (const char *text,
                             gssize      length,
                             const char *file,
                             GPtrArray  *diagnostics)
{
  static const char * const known[] = {
    "defaultMode", "autoTriggerMode", "autoTriggerTokens", "stackedPipeline", "rtkConfig",
    "cavemanConfig", "enabled", "retentionDays", NULL
  };
  g_autoptr(WinnowConfig) self = winnow_config_new ();
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  Parser p = { file, diagnostics };
  guint first = diagnostics ? diagnostics->len : 0;
  const char *problem;
  guint line = 0;
  guint column = 0;
  gsize len;
  JsonObject *root;
  JsonNode *node;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  len = length < 0 ? strlen (text ? text : "") : (gsize) length;

  /* json-glib's parser recurses once per level (a file of a million "[" would overflow the
   * stack) and takes "{…}{…}" for valid, leaking one of the two */
  if ((problem = _winnow_json_check_document (text ? text : "", len, &line, &column)) != NULL)
    {
      report (&p, WINNOW_DIAGNOSTIC_ERROR, NULL, "not valid JSON (%s, at line %u, column %u); "
              "using the defaults", problem, line, column);
      return g_steal_pointer (&self);
    }

  if (!json_parser_load_from_data (parser, text ? text : "", len, &error))
    {
      report (&p, WINNOW_DIAGNOSTIC_ERROR, NULL, "not valid JSON (%s); using the defaults",
              error->message);
      return g_steal_pointer (&self);
    }

  /* an empty or blank document parses, to no root at all */
  if (json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      report (&p, WINNOW_DIAGNOSTIC_ERROR, NULL, "settings must be a JSON object; using the "
              "defaults");
      return g_steal_pointer (&self);
    }

  root = json_node_get_object (json_parser_get_root (parser));
  warn_unknown (&p, root, "", known);

  g_free (self->default_mode);
  self->default_mode = get_enum (&p, root, "defaultMode", "defaultMode", modes, "stacked");
  g_free (self->auto_trigger_mode);
  self->auto_trigger_mode = get_enum (&p, root, "autoTriggerMode", "autoTriggerMode", modes,
                                      "stacked");
  self->auto_trigger_tokens = get_uint (&p, root, "autoTriggerTokens", "autoTriggerTokens", 0,
                                        G_MAXINT32, 32000);
  /* Winnow's own key: how long `winnow gain` and the Savings page keep events (a day to
   * a hundred years) */
  self->retention_days = get_uint (&p, root, "retentionDays", "retentionDays", 1, 36500, 90);

  if ((node = json_object_get_member (root, "stackedPipeline")) != NULL)
    parse_pipeline (&p, self, node);

  if ((node = json_object_get_member (root, "rtkConfig")) != NULL)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        parse_rtk (&p, self, json_node_get_object (node));
      else
        report (&p, WINNOW_DIAGNOSTIC_ERROR, "rtkConfig", "must be an object; using the "
                "defaults");
    }

  if ((node = json_object_get_member (root, "cavemanConfig")) != NULL)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        parse_caveman (&p, self, json_node_get_object (node));
      else
        report (&p, WINNOW_DIAGNOSTIC_ERROR, "cavemanConfig", "must be an object; using the "
                "defaults");
    }

  _winnow_json_locate_diagnostics (diagnostics, first, text, len);

  return g_steal_pointer (&self);
}

/**
 * winnow_config_load_file:
 * @path: a settings file
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): findings are appended here
 *
 * A missing file means the defaults, silently; an unreadable one is a diagnostic.
 *
 * Returns: (transfer full): the settings
 */
WinnowConfig *
winnow_config_load_file (const char *path,
                         GPtrArray  *diagnostics)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return winnow_config_new ();

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      if (diagnostics != NULL)
        g_ptr_array_add (diagnostics,
                         winnow_diagnostic_new (WINNOW_DIAGNOSTIC_ERROR, "settings", path, NULL,
                                                NULL, 0, 0, error->message));
      return winnow_config_new ();
    }

  return winnow_config_new_from_json (contents, length, path, diagnostics);
}

/**
 * winnow_config_to_json:
 * @self: a #WinnowConfig
 *
 * Returns: (transfer full): the settings as a complete JSON document
 */
char *
winnow_config_to_json (WinnowConfig *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "defaultMode");
  json_builder_add_string_value (builder, self->default_mode);
  json_builder_set_member_name (builder, "autoTriggerMode");
  json_builder_add_string_value (builder, self->auto_trigger_mode);
  json_builder_set_member_name (builder, "autoTriggerTokens");
  json_builder_add_int_value (builder, self->auto_trigger_tokens);
  json_builder_set_member_name (builder, "retentionDays");
  json_builder_add_int_value (builder, self->retention_days);
  json_builder_set_member_name (builder, "stackedPipeline");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->pipeline->len; i++)
    {
      const WinnowPipelineStep *step = &g_array_index (self->pipeline, WinnowPipelineStep, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "engine");
      json_builder_add_string_value (builder, step->engine);
      json_builder_set_member_name (builder, "intensity");
      json_builder_add_string_value (builder, step->intensity);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "rtkConfig");
  json_builder_begin_object (builder);
#define BOOL(name, value) \
  json_builder_set_member_name (builder, name); json_builder_add_boolean_value (builder, value)
#define UINT(name, value) \
  json_builder_set_member_name (builder, name); json_builder_add_int_value (builder, value)
  BOOL ("enabled", self->rtk_enabled);
  json_builder_set_member_name (builder, "intensity");
  json_builder_add_string_value (builder, winnow_rtk_intensity_to_string (self->rtk_intensity));
  BOOL ("applyToToolResults", self->apply_to_tool_results);
  BOOL ("applyToCodeBlocks", self->apply_to_code_blocks);
  BOOL ("applyToAssistantMessages", self->apply_to_assistant_messages);
  json_builder_set_member_name (builder, "enabledFilters");
  json_builder_begin_array (builder);
  for (guint i = 0; self->enabled_filters[i]; i++)
    json_builder_add_string_value (builder, self->enabled_filters[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "disabledFilters");
  json_builder_begin_array (builder);
  for (guint i = 0; self->disabled_filters[i]; i++)
    json_builder_add_string_value (builder, self->disabled_filters[i]);
  json_builder_end_array (builder);
  UINT ("maxLinesPerResult", self->max_lines_per_result);
  UINT ("maxCharsPerResult", self->max_chars_per_result);
  UINT ("deduplicateThreshold", self->dedup_threshold);
  BOOL ("customFiltersEnabled", self->custom_filters_enabled);
  BOOL ("trustProjectFilters", self->trust_project_filters);
  json_builder_set_member_name (builder, "rawOutputRetention");
  json_builder_add_string_value (builder, self->raw_output_retention);
  UINT ("rawOutputMaxBytes", self->raw_output_max_bytes);
#undef BOOL
#undef UINT
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "cavemanConfig");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "intensity");
  json_builder_add_string_value (builder, self->caveman_intensity);
  json_builder_set_member_name (builder, "language");
  json_builder_add_string_value (builder, self->caveman_language);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return _winnow_json_to_document (root);
}

/* ---- getters ----------------------------------------------------------------------------- */

const char *
winnow_config_get_default_mode (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  return self->default_mode;
}

const char *
winnow_config_get_auto_trigger_mode (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  return self->auto_trigger_mode;
}

guint
winnow_config_get_auto_trigger_tokens (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), 0);
  return self->auto_trigger_tokens;
}

guint
winnow_config_get_n_pipeline_steps (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), 0);
  return self->pipeline->len;
}

const WinnowPipelineStep *
winnow_config_get_pipeline_step (WinnowConfig *self,
                                 guint         index)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  g_return_val_if_fail (index < self->pipeline->len, NULL);
  return &g_array_index (self->pipeline, WinnowPipelineStep, index);
}

gboolean
winnow_config_get_rtk_enabled (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), FALSE);
  return self->rtk_enabled;
}

WinnowRtkIntensity
winnow_config_get_rtk_intensity (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), WINNOW_RTK_INTENSITY_STANDARD);
  return self->rtk_intensity;
}

gboolean
winnow_config_get_apply_to_tool_results (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), FALSE);
  return self->apply_to_tool_results;
}

gboolean
winnow_config_get_apply_to_code_blocks (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), FALSE);
  return self->apply_to_code_blocks;
}

gboolean
winnow_config_get_apply_to_assistant_messages (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), FALSE);
  return self->apply_to_assistant_messages;
}

const char * const *
winnow_config_get_enabled_filters (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  return (const char * const *) self->enabled_filters;
}

const char * const *
winnow_config_get_disabled_filters (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  return (const char * const *) self->disabled_filters;
}

/**
 * winnow_config_is_filter_enabled:
 * @self: a #WinnowConfig
 * @filter_id: a filter id
 *
 * Returns: %FALSE if @filter_id is in `disabledFilters`, or `enabledFilters` is not empty
 *   and does not list it
 */
gboolean
winnow_config_is_filter_enabled (WinnowConfig *self,
                                 const char   *filter_id)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), FALSE);

  if (g_strv_contains ((const char * const *) self->disabled_filters, filter_id))
    return FALSE;
  if (self->enabled_filters[0] != NULL &&
      !g_strv_contains ((const char * const *) self->enabled_filters, filter_id))
    return FALSE;
  return TRUE;
}

guint
winnow_config_get_max_lines_per_result (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), 0);
  return self->max_lines_per_result;
}

guint
winnow_config_get_max_chars_per_result (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), 0);
  return self->max_chars_per_result;
}

guint
winnow_config_get_dedup_threshold (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), 3);
  return self->dedup_threshold;
}

gboolean
winnow_config_get_custom_filters_enabled (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), FALSE);
  return self->custom_filters_enabled;
}

gboolean
winnow_config_get_trust_project_filters (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), FALSE);
  return self->trust_project_filters;
}

/**
 * winnow_config_get_retention_days:
 * @self: a #WinnowConfig
 *
 * Returns: how many days the savings events are kept (`retentionDays`, default 90)
 */
guint
winnow_config_get_retention_days (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), 90);
  return self->retention_days;
}

const char *
winnow_config_get_raw_output_retention (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  return self->raw_output_retention;
}

guint
winnow_config_get_raw_output_max_bytes (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), 0);
  return self->raw_output_max_bytes;
}

/**
 * winnow_config_get_caveman_intensity:
 * @self: a #WinnowConfig
 *
 * Returns: the intensity `caveman` mode runs at (`cavemanConfig.intensity`): "lite", "full"
 *   or "ultra"
 */
const char *
winnow_config_get_caveman_intensity (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  return self->caveman_intensity;
}

/**
 * winnow_config_get_caveman_language:
 * @self: a #WinnowConfig
 *
 * Returns: whose rule packs apply to prose (`cavemanConfig.language`): "auto" (detected per
 *   message) or a language code
 */
const char *
winnow_config_get_caveman_language (WinnowConfig *self)
{
  g_return_val_if_fail (WINNOW_IS_CONFIG (self), NULL);
  return self->caveman_language;
}

/**
 * winnow_config_get_rtk_options:
 * @self: a #WinnowConfig
 * @options: (out caller-allocates): filled with the stage runner options these settings mean
 */
void
winnow_config_get_rtk_options (WinnowConfig     *self,
                               WinnowRtkOptions *options)
{
  g_return_if_fail (WINNOW_IS_CONFIG (self));
  g_return_if_fail (options != NULL);

  winnow_rtk_options_init (options);
  options->intensity = self->rtk_intensity;
  options->max_lines_per_result = self->max_lines_per_result;
  options->max_chars_per_result = self->max_chars_per_result;
  options->dedup_threshold = self->dedup_threshold;
}
