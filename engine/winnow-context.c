/* winnow-context.c — settings, catalog and detector for one place and project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything a compression needs, with no global state: the data directory
 * (`$WINNOW_DATA_DIR`, else `$XDG_DATA_HOME/winnow`) with its settings, global filters and
 * rule packs, the project whose trusted filters apply, the catalog built from both plus the
 * built-ins, a detector, and the Caveman rule packs. Tests point WINNOW_DATA_DIR at a
 * temporary folder.
 *
 * `WINNOW_BUILTIN_FILTERS_DIR` replaces the compiled-in built-in filters with a folder of
 * filter files (to try out built-in changes without rebuilding).
 */

#define G_LOG_DOMAIN "winnow-context"

#include "config.h"

#include <errno.h>
#include <string.h>

#include "winnow-context.h"
#include "winnow-detector-private.h"
#include "winnow-rtk-private.h"
#include "winnow-utf8.h"
#include "winnow-diagnostic.h"
#include "winnow-error.h"
#include "winnow-json-reader.h"
#include "winnow-rtk.h"
#include "winnow-tokens.h"

struct _WinnowContext
{
  GObject            parent_instance;
  char              *data_dir;
  char              *project_dir;
  WinnowConfig      *config;
  GPtrArray         *retired_configs;
  WinnowCatalog     *catalog;
  WinnowDetector    *detector;
  WinnowTrustStatus *project_trust;
  WinnowRuleSet     *rules;          /* g_once: read when prose is first compressed */
  GPtrArray         *config_diagnostics;
};

G_DEFINE_FINAL_TYPE (WinnowContext, winnow_context, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONFIG,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

void
winnow_compress_options_init (WinnowCompressOptions *options)
{
  g_return_if_fail (options != NULL);

  options->intensity = -1;
  options->filter_id = NULL;
  options->engine_limits = TRUE;
}

static void
winnow_context_finalize (GObject *object)
{
  WinnowContext *self = (WinnowContext *)object;

  g_clear_pointer (&self->data_dir, g_free);
  g_clear_pointer (&self->project_dir, g_free);
  g_clear_object (&self->config);
  g_clear_pointer (&self->retired_configs, g_ptr_array_unref);
  g_clear_object (&self->catalog);
  g_clear_object (&self->detector);
  g_clear_object (&self->project_trust);
  g_clear_object (&self->rules);
  g_clear_pointer (&self->config_diagnostics, g_ptr_array_unref);

  G_OBJECT_CLASS (winnow_context_parent_class)->finalize (object);
}

static void
winnow_context_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WinnowContext *self = WINNOW_CONTEXT (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      g_value_set_object (value, self->config);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_context_class_init (WinnowContextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_context_finalize;
  object_class->get_property = winnow_context_get_property;

  /**
   * WinnowContext:config:
   *
   * The settings. They are replaced, never changed in place, when the context saves new
   * ones; the notification is how every view of them (the Preview, the preferences) learns
   * that it has to look again. It is emitted on the thread that saved.
   */
  properties [PROP_CONFIG] =
    g_param_spec_object ("config", NULL, NULL,
                         WINNOW_TYPE_CONFIG,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_context_init (WinnowContext *self)
{
  self->config_diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  self->retired_configs = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * winnow_context_default_data_dir:
 *
 * Returns: (transfer full): `$WINNOW_DATA_DIR`, else `$XDG_DATA_HOME/winnow`
 */
char *
winnow_context_default_data_dir (void)
{
  const char *env = g_getenv ("WINNOW_DATA_DIR");

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);

  return g_build_filename (g_get_user_data_dir (), "winnow", NULL);
}

/**
 * winnow_context_new:
 * @data_dir: (nullable): the data directory, or %NULL for the default
 * @project_dir: (nullable): the project whose `.rtk/filters.json` may apply
 *
 * Loads settings and filters. Nothing here fails: problems become diagnostics.
 *
 * Returns: (transfer full): a new #WinnowContext
 */
WinnowContext *
winnow_context_new (const char *data_dir,
                    const char *project_dir)
{
  WinnowContext *self = g_object_new (WINNOW_TYPE_CONTEXT, NULL);
  g_autofree char *settings_path = NULL;
  const char *builtin_dir = g_getenv ("WINNOW_BUILTIN_FILTERS_DIR");

  self->data_dir = data_dir ? g_strdup (data_dir) : winnow_context_default_data_dir ();
  self->project_dir = g_strdup (project_dir);

  settings_path = g_build_filename (self->data_dir, "settings.json", NULL);
  self->config = winnow_config_load_file (settings_path, self->config_diagnostics);

  self->catalog = winnow_catalog_new ();
  if (builtin_dir != NULL && builtin_dir[0] != '\0')
    winnow_catalog_add_directory (self->catalog, builtin_dir, WINNOW_FILTER_SOURCE_BUILTIN);
  else
    winnow_catalog_add_builtin (self->catalog);

  if (winnow_config_get_custom_filters_enabled (self->config))
    {
      g_autofree char *global = winnow_context_get_global_filters_path (self);

      if (g_file_test (global, G_FILE_TEST_EXISTS))
        winnow_catalog_add_file (self->catalog, global, WINNOW_FILTER_SOURCE_GLOBAL);

      if (project_dir != NULL)
        self->project_trust =
          winnow_catalog_add_project (self->catalog, project_dir,
                                      winnow_config_get_trust_project_filters (self->config));
    }

  self->detector = winnow_detector_new ();

  return self;
}

/* Caveman packs: the built-in ones, then DATA_DIR/rules/<language>/<pack>.json, which replace
 * built-in packs of the same name (read when their language is first needed). Only prose needs
 * them: a `winnow compress` of command output never does, and listing the packs was 1.6 % of
 * its work. */
static WinnowRuleSet *
load_rule_set (WinnowContext *self)
{
  WinnowRuleSet *rules = winnow_rule_set_new ();
  g_autofree char *global_rules = winnow_context_get_global_rules_path (self);

  winnow_rule_set_add_builtin (rules);
  if (g_file_test (global_rules, G_FILE_TEST_IS_DIR))
    winnow_rule_set_add_directory (rules, global_rules, "global");

  return rules;
}

/**
 * winnow_context_get_global_rules_path:
 * @self: a #WinnowContext
 *
 * Returns: (transfer full): `DATA_DIR/rules`, where a person's own rule packs live
 */
char *
winnow_context_get_global_rules_path (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return g_build_filename (self->data_dir, "rules", NULL);
}

/**
 * winnow_context_get_rule_set:
 * @self: a #WinnowContext
 *
 * Returns: (transfer none): the Caveman rule packs
 */
WinnowRuleSet *
winnow_context_get_rule_set (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);

  if (g_once_init_enter (&self->rules))
    g_once_init_leave (&self->rules, load_rule_set (self));

  return self->rules;
}

const char *
winnow_context_get_data_dir (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return self->data_dir;
}

/**
 * winnow_context_get_project_dir:
 * @self: a #WinnowContext
 *
 * Returns: (nullable): the project folder
 */
const char *
winnow_context_get_project_dir (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return self->project_dir;
}

/**
 * winnow_context_get_global_filters_path:
 * @self: a #WinnowContext
 *
 * Returns: (transfer full): `DATA_DIR/rtk/filters.json`
 */
char *
winnow_context_get_global_filters_path (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return g_build_filename (self->data_dir, "rtk", "filters.json", NULL);
}

/**
 * winnow_context_get_config:
 * @self: a #WinnowContext
 *
 * Returns: (transfer none): the settings
 */
WinnowConfig *
winnow_context_get_config (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return g_atomic_pointer_get (&self->config);
}

/**
 * winnow_context_get_catalog:
 * @self: a #WinnowContext
 *
 * Returns: (transfer none): the filters
 */
WinnowCatalog *
winnow_context_get_catalog (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return self->catalog;
}

/**
 * winnow_context_get_detector:
 * @self: a #WinnowContext
 *
 * Returns: (transfer none): the detector
 */
WinnowDetector *
winnow_context_get_detector (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return self->detector;
}

/**
 * winnow_context_get_project_trust:
 * @self: a #WinnowContext
 *
 * Returns: (transfer none) (nullable): the project's trust status, if there is a project and
 *   custom filters are enabled
 */
WinnowTrustStatus *
winnow_context_get_project_trust (WinnowContext *self)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  return self->project_trust;
}

/**
 * winnow_context_dup_diagnostics:
 * @self: a #WinnowContext
 *
 * Returns: (transfer container) (element-type WinnowDiagnostic): settings, catalog and
 *   rule-pack diagnostics together (rule packs are read when first needed, so their findings
 *   appear once they have been)
 */
GPtrArray *
winnow_context_dup_diagnostics (WinnowContext *self)
{
  GPtrArray *all;
  GPtrArray *catalog;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);

  all = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->config_diagnostics->len; i++)
    g_ptr_array_add (all, g_object_ref (g_ptr_array_index (self->config_diagnostics, i)));
  catalog = winnow_catalog_get_diagnostics (self->catalog);
  for (guint i = 0; i < catalog->len; i++)
    g_ptr_array_add (all, g_object_ref (g_ptr_array_index (catalog, i)));
  {
    g_autoptr(GPtrArray) rules =
      winnow_rule_set_dup_diagnostics (winnow_context_get_rule_set (self));

    for (guint i = 0; i < rules->len; i++)
      g_ptr_array_add (all, g_object_ref (g_ptr_array_index (rules, i)));
  }

  return all;
}

/**
 * winnow_context_compress:
 * @self: a #WinnowContext
 * @text: command output
 * @length: its length in bytes, or -1 if nul-terminated
 * @command: (nullable): the command that produced it
 * @options: (nullable): #WinnowCompressOptions, or %NULL for the settings as they are
 * @error: return location for a #GError (only a forced filter that does not exist fails)
 *
 * Detects, selects a filter and runs it, then counts the receipt.
 *
 * Returns: (transfer full): the compression, or %NULL with @error set
 */
WinnowCompression *
winnow_context_compress (WinnowContext                *self,
                         const char                   *text,
                         gssize                        length,
                         const char                   *command,
                         const WinnowCompressOptions  *options,
                         GError                      **error)
{
  g_autoptr(WinnowDetection) detection = NULL;
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowCompressOptions defaults;
  WinnowRtkOptions rtk_options;
  WinnowSelection selection = WINNOW_SELECTION_NONE;
  WinnowFilter *filter = NULL;
  gint64 start = g_get_monotonic_time ();
  gboolean valid_utf8;
  gsize len;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (options == NULL)
    {
      winnow_compress_options_init (&defaults);
      options = &defaults;
    }
  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;

  /* validated once here rather than by the detector and again by the stage runner */
  valid_utf8 = _winnow_utf8_validate (text, len, NULL);
  detection = valid_utf8 ? _winnow_detector_detect_utf8 (self->detector, text, len, command)
                         : winnow_detector_detect (self->detector, text, len, command);

  if (options->filter_id != NULL)
    {
      filter = winnow_catalog_lookup (self->catalog, options->filter_id);
      if (filter == NULL)
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_FOUND,
                       "no filter with id “%s” in the catalog", options->filter_id);
          return NULL;
        }
      selection = WINNOW_SELECTION_FORCED;
    }
  else if (winnow_config_get_rtk_enabled (self->config))
    filter = winnow_catalog_select (self->catalog, detection, text, len, self->config,
                                    &selection);

  winnow_config_get_rtk_options (self->config, &rtk_options);
  if (options->intensity >= 0)
    rtk_options.intensity = options->intensity;
  rtk_options.engine_limits = options->engine_limits;

  /* passthrough output is handed back untouched: no filter, no caps */
  if (selection == WINNOW_SELECTION_PASSTHROUGH || !winnow_config_get_rtk_enabled (self->config))
    rtk_options.engine_limits = FALSE;

  result = valid_utf8 ? _winnow_rtk_apply_utf8 (filter, text, len, &rtk_options)
                      : winnow_rtk_apply (filter, text, len, &rtk_options);

  return _winnow_compression_new (detection, selection, filter, result,
                                  g_memdup2 (text, len), len,
                                  g_get_monotonic_time () - start);
}

static gboolean
json_array_has_string (JsonArray  *array,
                       const char *value)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (json_node_get_value_type (node) == G_TYPE_STRING &&
          g_strcmp0 (json_node_get_string (node), value) == 0)
        return TRUE;
    }

  return FALSE;
}

static JsonArray *
json_array_without (JsonArray  *array,
                    const char *value)
{
  JsonArray *out = json_array_new ();

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (json_node_get_value_type (node) == G_TYPE_STRING &&
          g_strcmp0 (json_node_get_string (node), value) == 0)
        continue;
      json_array_add_element (out, json_node_copy (node));
    }

  return out;
}

/* The settings file as a JSON document to edit, with an `rtkConfig` object; an absent file
 * is an empty document. A file that is not a JSON object is refused rather than replaced. */
static JsonNode *
load_settings_for_edit (WinnowContext  *self,
                        const char     *path,
                        JsonObject    **rtk,
                        GError        **error)
{
  g_autofree char *old_text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;
  JsonObject *settings;
  JsonNode *node;
  gsize old_length = 0;
  guint line = 0;
  guint column = 0;

  if (g_file_get_contents (path, &old_text, &old_length, NULL))
    {
      /* checked first: json-glib overflows the stack on a deep file and leaks on "{…}{…}" */
      if (_winnow_json_check_document (old_text, old_length, &line, &column) != NULL ||
          !json_parser_load_from_data (parser, old_text, -1, &local_error) ||
          json_parser_get_root (parser) == NULL ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_CONFIG,
                       "%s: not changed: the settings are not a JSON object%s%s", path,
                       local_error ? ": " : "", local_error ? local_error->message : "");
          return NULL;
        }
      root = json_node_copy (json_parser_get_root (parser));
    }
  else
    {
      /* json_node_init_object() takes its own reference: the new object's must be dropped */
      g_autoptr(JsonObject) empty = json_object_new ();

      root = json_node_init_object (json_node_alloc (), empty);
    }

  settings = json_node_get_object (root);
  node = json_object_get_member (settings, "rtkConfig");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    json_object_set_object_member (settings, "rtkConfig", json_object_new ());
  *rtk = json_object_get_object_member (settings, "rtkConfig");
  return root;
}

/* Makes @config (taken) the settings in force. A worker (a Preview run, a request of the
 * dashboard's HTTP API) may be reading the settings meanwhile: the pointer changes in one
 * atomic step, never through NULL, and the old settings live as long as the context, since
 * a compression may still hold them. */
static void
replace_config (WinnowContext *self,
                WinnowConfig  *config)
{
  WinnowConfig *old = self->config;

  g_atomic_pointer_set (&self->config, config);
  g_ptr_array_add (self->retired_configs, old);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONFIG]);
}

/* Writes the edited settings atomically and makes them the context's settings. */
static gboolean
save_settings (WinnowContext  *self,
               const char     *path,
               JsonNode       *root,
               GError        **error)
{
  g_autofree char *text = _winnow_json_to_document (root);
  g_autoptr(GError) local_error = NULL;

  if (g_mkdir_with_parents (self->data_dir, 0700) != 0 ||
      !g_file_set_contents (path, text, -1, &local_error))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: %s", path,
                   local_error ? local_error->message : g_strerror (errno));
      return FALSE;
    }

  g_ptr_array_set_size (self->config_diagnostics, 0);
  replace_config (self, winnow_config_load_file (path, self->config_diagnostics));
  return TRUE;
}

/**
 * winnow_context_set_filter_enabled:
 * @self: a #WinnowContext
 * @filter_id: a filter id
 * @enabled: whether the filter may be chosen
 * @error: return location for a #GError
 *
 * Turns a filter on or off in `DATA_DIR/settings.json` (`rtkConfig.disabledFilters`, and
 * `enabledFilters` when that allow-list is in use), keeping every other setting as written,
 * and reloads the settings. A settings file that is not JSON is not touched.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_context_set_filter_enabled (WinnowContext  *self,
                                   const char     *filter_id,
                                   gboolean        enabled,
                                   GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *rtk;
  JsonNode *node;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), FALSE);
  g_return_val_if_fail (filter_id != NULL, FALSE);

  path = g_build_filename (self->data_dir, "settings.json", NULL);
  root = load_settings_for_edit (self, path, &rtk, error);
  if (root == NULL)
    return FALSE;

  node = json_object_get_member (rtk, "disabledFilters");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    json_object_set_array_member (rtk, "disabledFilters", json_array_new ());

  if (enabled)
    {
      JsonArray *allow;

      json_object_set_array_member (rtk, "disabledFilters",
                                    json_array_without (json_object_get_array_member (rtk, "disabledFilters"),
                                                        filter_id));
      /* an allow-list in use must name the filter too */
      node = json_object_get_member (rtk, "enabledFilters");
      allow = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
      if (allow != NULL && json_array_get_length (allow) > 0 && !json_array_has_string (allow, filter_id))
        json_array_add_string_element (allow, filter_id);
    }
  else if (!json_array_has_string (json_object_get_array_member (rtk, "disabledFilters"), filter_id))
    json_array_add_string_element (json_object_get_array_member (rtk, "disabledFilters"), filter_id);

  return save_settings (self, path, root, error);
}

/**
 * winnow_context_set_raw_output_retention:
 * @self: a #WinnowContext
 * @retention: "never", "failures" or "always" (`rtkConfig.rawOutputRetention`)
 * @max_bytes: the most kept of one output (`rtkConfig.rawOutputMaxBytes`), at least 1024
 * @error: return location for a #GError
 *
 * Sets which raw outputs `winnow run` keeps in `DATA_DIR/settings.json`, keeping every other
 * setting as written, and reloads the settings. A settings file that is not JSON is not
 * touched.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_context_set_raw_output_retention (WinnowContext  *self,
                                         const char     *retention,
                                         guint           max_bytes,
                                         GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *rtk;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), FALSE);
  g_return_val_if_fail (retention != NULL, FALSE);

  if (!g_str_equal (retention, "never") && !g_str_equal (retention, "failures") &&
      !g_str_equal (retention, "always"))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_CONFIG,
                   "rtkConfig.rawOutputRetention: “%s” is not never, failures or always",
                   retention);
      return FALSE;
    }
  if (max_bytes < 1024 || max_bytes > G_MAXINT32)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_CONFIG,
                   "rtkConfig.rawOutputMaxBytes: %u is not between 1024 and %d", max_bytes,
                   G_MAXINT32);
      return FALSE;
    }

  path = g_build_filename (self->data_dir, "settings.json", NULL);
  root = load_settings_for_edit (self, path, &rtk, error);
  if (root == NULL)
    return FALSE;

  json_object_set_string_member (rtk, "rawOutputRetention", retention);
  json_object_set_int_member (rtk, "rawOutputMaxBytes", max_bytes);
  return save_settings (self, path, root, error);
}

/* Sets or (for null) removes each member of @patch in @into; an object on both sides one
 * level down (`rtkConfig`, `cavemanConfig`) is merged member by member, so a patch names only
 * what it changes. Arrays are replaced whole: `stackedPipeline` is one value. */
static void
merge_patch (JsonObject *into,
             JsonObject *patch,
             gboolean    deep)
{
  g_autoptr(GList) members = json_object_get_members (patch);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (patch, name);
      JsonNode *old = json_object_get_member (into, name);

      if (JSON_NODE_HOLDS_NULL (value))
        json_object_remove_member (into, name);
      else if (deep && old != NULL && JSON_NODE_HOLDS_OBJECT (old) &&
               JSON_NODE_HOLDS_OBJECT (value))
        merge_patch (json_node_get_object (old), json_node_get_object (value), FALSE);
      else
        json_object_set_member (into, name, json_node_copy (value));
    }
}

/* Whether a diagnostic at @json_path is about something @patch sets: `rtkConfig` covers all
 * of it, `rtkConfig.maxLinesPerResult` one member, `stackedPipeline` every step. */
static gboolean
patch_touches (JsonObject *patch,
               const char *json_path)
{
  g_autoptr(GList) members = json_object_get_members (patch);

  if (json_path == NULL || json_path[0] == '\0')
    return TRUE;

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (patch, name);
      gsize len = strlen (name);

      if (!g_str_has_prefix (json_path, name) ||
          (json_path[len] != '\0' && json_path[len] != '.' && json_path[len] != '['))
        continue;
      if (json_path[len] == '.' && JSON_NODE_HOLDS_OBJECT (value))
        {
          const char *member = json_path + len + 1;
          g_autoptr(GList) inner = json_object_get_members (json_node_get_object (value));

          for (const GList *m = inner; m != NULL; m = m->next)
            {
              gsize mlen = strlen (m->data);

              if (g_str_has_prefix (member, m->data) &&
                  (member[mlen] == '\0' || member[mlen] == '.' || member[mlen] == '['))
                return TRUE;
            }
          continue;
        }
      return TRUE;
    }

  return FALSE;
}

/**
 * winnow_context_update_settings:
 * @self: a #WinnowContext
 * @patch: the settings to change, shaped like the settings document: `{"defaultMode":
 *   "rtk", "rtkConfig": {"maxLinesPerResult": 80}}`; a member set to null is removed (back to
 *   its default)
 * @error: return location for a #GError
 *
 * Changes some settings in `DATA_DIR/settings.json`, keeping every other member as written
 * (other tools' keys too), writes the file atomically and makes the result the context's
 * settings (#WinnowContext:config is notified).
 *
 * The patch is validated against the merged document before anything is written: a value
 * out of its range or of the wrong kind fails with %WINNOW_ERROR_INVALID_CONFIG naming its
 * JSON path, and the file is left alone. Problems elsewhere in the file that the patch does
 * not touch are not held against it (they already fall back to their defaults), so one bad
 * key written by hand never locks the dashboard out of every other setting. A settings file
 * that is not a JSON object is refused, never replaced.
 *
 * Returns: %TRUE if the settings were saved
 */
gboolean
winnow_context_update_settings (WinnowContext  *self,
                                JsonObject     *patch,
                                GError        **error)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WinnowConfig) config = NULL;
  JsonObject *rtk;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), FALSE);
  g_return_val_if_fail (patch != NULL, FALSE);

  path = g_build_filename (self->data_dir, "settings.json", NULL);
  root = load_settings_for_edit (self, path, &rtk, error);
  if (root == NULL)
    return FALSE;

  /* an rtkConfig that was only added for editing stays out of the file unless set */
  if (json_object_get_size (rtk) == 0 && !json_object_has_member (patch, "rtkConfig"))
    json_object_remove_member (json_node_get_object (root), "rtkConfig");

  merge_patch (json_node_get_object (root), patch, TRUE);

  diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  text = _winnow_json_to_document (root);
  config = winnow_config_new_from_json (text, -1, path, diagnostics);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
      const char *json_path = winnow_diagnostic_get_json_path (d);

      if (winnow_diagnostic_get_level (d) != WINNOW_DIAGNOSTIC_ERROR ||
          !patch_touches (patch, json_path))
        continue;

      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_CONFIG,
                   "%s: not changed: %s %s", path, json_path ? json_path : "the settings",
                   winnow_diagnostic_get_message (d));
      return FALSE;
    }

  return save_settings (self, path, root, error);
}

/**
 * winnow_context_reload_settings:
 * @self: a #WinnowContext
 *
 * Reads `DATA_DIR/settings.json` again, for when something else changed it (the HTTP API,
 * `winnow` on the command line, an editor). Settings that come out the same as the ones in
 * force are not replaced, so a file written by this context, or touched without a change,
 * notifies nobody. Like winnow_context_new(), nothing here fails: problems become
 * diagnostics, and a file that is not JSON means the defaults.
 *
 * As with every settings change, only the settings are replaced: the filter catalog keeps
 * the sources it was built with (`customFiltersEnabled` and `trustProjectFilters` apply to
 * a new context).
 *
 * Returns: %TRUE if the settings changed (and #WinnowContext:config was notified)
 */
gboolean
winnow_context_reload_settings (WinnowContext *self)
{
  g_autofree char *path = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *new_text = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WinnowConfig) config = NULL;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (self), FALSE);

  path = g_build_filename (self->data_dir, "settings.json", NULL);
  diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  config = winnow_config_load_file (path, diagnostics);

  old_text = winnow_config_to_json (self->config);
  new_text = winnow_config_to_json (config);
  if (g_str_equal (old_text, new_text))
    return FALSE;

  g_ptr_array_set_size (self->config_diagnostics, 0);
  g_ptr_array_extend_and_steal (self->config_diagnostics, g_steal_pointer (&diagnostics));
  replace_config (self, g_steal_pointer (&config));
  return TRUE;
}
