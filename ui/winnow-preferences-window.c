/* winnow-preferences-window.c — the compression settings, the data folder and the HTTP API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every control stands for one member of the settings document (seed 001, FORMATS.md §5)
 * and changes it at once through the engine: winnow_context_update_settings() with a patch
 * naming only that member, which validates it, keeps every other key of settings.json as
 * written and replaces the file atomically. The context then notifies :config, the Preview
 * recomputes, and this window reads the controls back from the settings in force. Reading
 * back after every change, success or not, is what keeps the window honest: a value the
 * engine refused, or a file that is not JSON and so is never overwritten, snaps the control
 * back to what compression really uses, and the reason stays on screen in the error row.
 *
 * The controls that map one-to-one onto a member are described by tables (template child,
 * JSON section, key) and handled by one function per kind, rather than a callback per
 * widget. The stacked pipeline (WinnowPipelineSteps) and the HTTP API (WinnowApiGroup) are
 * widgets of their own; the language packs and the raw-output retention (which goes through
 * the same engine call as the Raw Output page) have code of their own here.
 *
 * libadwaita 1.2 has no AdwSwitchRow or AdwSpinRow: switches and spin buttons are suffixes
 * of AdwActionRows whose activatable-widget makes the whole row (and its mnemonic) reach them.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-api-group.h"
#include "winnow-pipeline-steps.h"
#include "winnow-preferences-window.h"
#include "winnow-toast.h"

struct _WinnowPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  WinnowContext        *context;
  WinnowApiService     *api_service;
  GStrv                 language_codes;  /* beside caveman_language_row's items */
  char                 *error;
  gboolean              syncing;

  /* template children */
  WinnowApiGroup       *api_group;
  AdwPreferencesGroup  *error_group;
  AdwActionRow         *error_row;
  WinnowPipelineSteps  *pipeline_group;
  AdwComboRow          *caveman_language_row;
  AdwComboRow          *retention_row;
  GtkSpinButton        *raw_max_spin;
  AdwEntryRow          *enabled_filters_row;
  AdwEntryRow          *disabled_filters_row;
  AdwActionRow         *data_dir_row;
};

G_DEFINE_FINAL_TYPE (WinnowPreferencesWindow, winnow_preferences_window,
                     ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_CONTEXT,
  PROP_API_SERVICE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* ---- the tables ------------------------------------------------------------------------- */

/* One member of the settings: `section.key`, or `key` at the top when section is NULL. */
typedef struct
{
  const char         *child;     /* the template child that shows it */
  const char         *section;
  const char         *key;
  const char * const *values;    /* combo rows: the value of each item, in order */
} Setting;

static const char * const mode_values[] = { "off", "rtk", "caveman", "stacked", NULL };
static const char * const rtk_values[] = { "minimal", "standard", "aggressive", NULL };
static const char * const caveman_values[] = { "lite", "full", "ultra", NULL };
static const char * const retention_values[] = { "never", "failures", "always", NULL };

static const Setting spin_settings[] = {
  { "auto_tokens_spin", NULL, "autoTriggerTokens", NULL },
  { "max_lines_spin", "rtkConfig", "maxLinesPerResult", NULL },
  { "max_chars_spin", "rtkConfig", "maxCharsPerResult", NULL },
  { "dedup_spin", "rtkConfig", "deduplicateThreshold", NULL },
  { "retention_days_spin", NULL, "retentionDays", NULL },
};

static const Setting switch_settings[] = {
  { "rtk_enabled_switch", "rtkConfig", "enabled", NULL },
  { "tool_results_switch", "rtkConfig", "applyToToolResults", NULL },
  { "code_blocks_switch", "rtkConfig", "applyToCodeBlocks", NULL },
  { "assistant_messages_switch", "rtkConfig", "applyToAssistantMessages", NULL },
  { "custom_filters_switch", "rtkConfig", "customFiltersEnabled", NULL },
  { "trust_projects_switch", "rtkConfig", "trustProjectFilters", NULL },
};

static const Setting combo_settings[] = {
  { "default_mode_row", NULL, "defaultMode", mode_values },
  { "auto_mode_row", NULL, "autoTriggerMode", mode_values },
  { "rtk_intensity_row", "rtkConfig", "intensity", rtk_values },
  { "caveman_intensity_row", "cavemanConfig", "intensity", caveman_values },
};

static const Setting list_settings[] = {
  { "enabled_filters_row", "rtkConfig", "enabledFilters", NULL },
  { "disabled_filters_row", "rtkConfig", "disabledFilters", NULL },
};

/* a language's name in its own words: that is how people look for their language */
static const char *
language_name (const char *code)
{
  static const struct { const char *code; const char *name; } names[] = {
    { "de", "Deutsch" }, { "en", "English" }, { "es", "Español" }, { "fr", "Français" },
    { "id", "Bahasa Indonesia" }, { "ja", "日本語" }, { "pt-BR", "Português (Brasil)" },
    { "zh", "中文" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (names[i].code, code))
      return names[i].name;
  return code;
}

static guint
index_of (const char * const *values,
          const char         *value)
{
  for (guint i = 0; values[i] != NULL; i++)
    if (g_strcmp0 (values[i], value) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static GObject *
child (WinnowPreferencesWindow *self,
       const char              *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (self),
                                                   WINNOW_TYPE_PREFERENCES_WINDOW, name);

  g_assert (object != NULL);
  return object;
}

/* libadwaita 1.2 reads row titles and subtitles as markup; paths and error messages are
 * text */
static void
set_subtitle (AdwActionRow *row,
              const char   *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  adw_action_row_set_subtitle (row, escaped);
}

/* ---- writing ---------------------------------------------------------------------------- */

static void sync_from_config (WinnowPreferencesWindow *self);

static void
set_error (WinnowPreferencesWindow *self,
           const char              *message)
{
  if (g_strcmp0 (self->error, message) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (message);

  if (message != NULL)
    set_subtitle (self->error_row, message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_group), message != NULL);
}

/* Applies @patch (taken) and shows what the settings say afterwards. */
static void
apply_patch (WinnowPreferencesWindow *self,
             JsonObject              *patch)
{
  g_autoptr(JsonObject) owned = patch;
  g_autoptr(GError) error = NULL;

  if (self->context == NULL)
    return;

  if (!winnow_context_update_settings (self->context, owned, &error))
    {
      set_error (self, error->message);
      winnow_show_toast (GTK_WIDGET (self->error_row), error->message);
    }
  else
    set_error (self, NULL);

  /* what is in force now, whether or not the write went through */
  sync_from_config (self);
}

/* `{section: {key: value}}`, or `{key: value}` */
static JsonObject *
patch_new (const Setting *setting,
           JsonNode      *value)
{
  JsonObject *patch = json_object_new ();

  if (setting->section != NULL)
    {
      JsonObject *section = json_object_new ();

      json_object_set_member (section, setting->key, value);
      json_object_set_object_member (patch, setting->section, section);
    }
  else
    json_object_set_member (patch, setting->key, value);

  return patch;
}

static void
on_spin_changed (GtkSpinButton           *spin,
                 WinnowPreferencesWindow *self)
{
  const Setting *setting = g_object_get_data (G_OBJECT (spin), "winnow-setting");
  JsonNode *value;

  if (self->syncing)
    return;

  value = json_node_init_int (json_node_alloc (), (gint64) gtk_spin_button_get_value (spin));
  apply_patch (self, patch_new (setting, value));
}

static void
on_switch_changed (GtkSwitch               *widget,
                   GParamSpec              *pspec,
                   WinnowPreferencesWindow *self)
{
  const Setting *setting = g_object_get_data (G_OBJECT (widget), "winnow-setting");

  if (self->syncing)
    return;

  apply_patch (self, patch_new (setting, json_node_init_boolean (json_node_alloc (),
                                                                 gtk_switch_get_active (widget))));
}

static void
on_combo_changed (AdwComboRow             *row,
                  GParamSpec              *pspec,
                  WinnowPreferencesWindow *self)
{
  const Setting *setting = g_object_get_data (G_OBJECT (row), "winnow-setting");
  guint selected = adw_combo_row_get_selected (row);

  if (self->syncing || selected >= g_strv_length ((char **) setting->values))
    return;

  apply_patch (self, patch_new (setting, json_node_init_string (json_node_alloc (),
                                                                setting->values[selected])));
}

/* "git-status, test-vitest" → ["git-status", "test-vitest"] */
static void
on_list_applied (AdwEntryRow             *row,
                 WinnowPreferencesWindow *self)
{
  const Setting *setting = g_object_get_data (G_OBJECT (row), "winnow-setting");
  g_auto(GStrv) parts = g_regex_split_simple ("[\\s,]+",
                                              gtk_editable_get_text (GTK_EDITABLE (row)), 0, 0);
  JsonArray *ids = json_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      json_array_add_string_element (ids, parts[i]);

  apply_patch (self, patch_new (setting, json_node_init_array (json_node_alloc (), ids)));
  json_array_unref (ids);
}

static void
on_language_changed (WinnowPreferencesWindow *self)
{
  static const Setting setting = { NULL, "cavemanConfig", "language", NULL };
  guint selected = adw_combo_row_get_selected (self->caveman_language_row);

  if (self->syncing || self->language_codes == NULL ||
      selected >= g_strv_length (self->language_codes))
    return;

  apply_patch (self, patch_new (&setting,
                                json_node_init_string (json_node_alloc (),
                                                       self->language_codes[selected])));
}

/* Raw output goes through the engine call the Raw Output page uses, so both agree on the
 * rules (a size of at least 1 KiB). */
static void
on_retention_changed (WinnowPreferencesWindow *self)
{
  g_autoptr(GError) error = NULL;
  guint selected = adw_combo_row_get_selected (self->retention_row);
  guint kib = (guint) gtk_spin_button_get_value_as_int (self->raw_max_spin);

  if (self->syncing || self->context == NULL || selected >= G_N_ELEMENTS (retention_values) - 1)
    return;

  if (!winnow_context_set_raw_output_retention (self->context, retention_values[selected],
                                                MIN (kib, G_MAXINT32 / 1024) * 1024, &error))
    {
      set_error (self, error->message);
      winnow_show_toast (GTK_WIDGET (self->error_row), error->message);
    }
  else
    set_error (self, NULL);

  sync_from_config (self);
}

/* ---- reading ---------------------------------------------------------------------------- */

static JsonObject *
section_of (JsonObject    *document,
            const Setting *setting)
{
  if (setting->section == NULL)
    return document;
  return json_object_get_object_member (document, setting->section);
}

static void
sync_languages (WinnowPreferencesWindow *self,
                const char              *language)
{
  guint index;

  /* a language the settings name without packs here (yet) is still shown, not lost */
  if (self->language_codes != NULL &&
      index_of ((const char * const *) self->language_codes, language) == GTK_INVALID_LIST_POSITION)
    {
      GtkStringList *list = GTK_STRING_LIST (adw_combo_row_get_model (self->caveman_language_row));
      guint n = g_strv_length (self->language_codes);

      self->language_codes = g_renew (char *, self->language_codes, n + 2);
      self->language_codes[n] = g_strdup (language);
      self->language_codes[n + 1] = NULL;
      gtk_string_list_append (list, language_name (language));
    }

  index = self->language_codes != NULL
          ? index_of ((const char * const *) self->language_codes, language) : 0;
  adw_combo_row_set_selected (self->caveman_language_row, index);
}

/* Shows the settings in force in every control. */
static void
sync_from_config (WinnowPreferencesWindow *self)
{
  WinnowConfig *config;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *document;

  if (self->context == NULL)
    return;

  config = winnow_context_get_config (self->context);
  text = winnow_config_to_json (config);
  root = json_from_string (text, NULL);
  g_return_if_fail (root != NULL && JSON_NODE_HOLDS_OBJECT (root));
  document = json_node_get_object (root);

  self->syncing = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (spin_settings); i++)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (child (self, spin_settings[i].child)),
                               json_object_get_int_member (section_of (document, &spin_settings[i]),
                                                           spin_settings[i].key));

  for (guint i = 0; i < G_N_ELEMENTS (switch_settings); i++)
    {
      JsonObject *section = section_of (document, &switch_settings[i]);

      gtk_switch_set_active (GTK_SWITCH (child (self, switch_settings[i].child)),
                             json_object_get_boolean_member (section, switch_settings[i].key));
    }

  for (guint i = 0; i < G_N_ELEMENTS (combo_settings); i++)
    {
      const char *value = json_object_get_string_member (section_of (document, &combo_settings[i]),
                                                         combo_settings[i].key);

      adw_combo_row_set_selected (ADW_COMBO_ROW (child (self, combo_settings[i].child)),
                                  index_of (combo_settings[i].values, value));
    }

  for (guint i = 0; i < G_N_ELEMENTS (list_settings); i++)
    {
      JsonArray *ids = json_object_get_array_member (section_of (document, &list_settings[i]),
                                                     list_settings[i].key);
      g_autoptr(GString) joined = g_string_new (NULL);

      for (guint j = 0; j < json_array_get_length (ids); j++)
        g_string_append_printf (joined, "%s%s", j > 0 ? ", " : "",
                                json_array_get_string_element (ids, j));
      gtk_editable_set_text (GTK_EDITABLE (child (self, list_settings[i].child)), joined->str);
    }

  adw_combo_row_set_selected (self->retention_row,
                              index_of (retention_values,
                                        winnow_config_get_raw_output_retention (config)));
  gtk_spin_button_set_value (self->raw_max_spin,
                             (winnow_config_get_raw_output_max_bytes (config) + 1023) / 1024);

  sync_languages (self, winnow_config_get_caveman_language (config));

  self->syncing = FALSE;
}

/* A settings file that is not JSON is never overwritten; say so before the first change
 * fails rather than after. */
static void
check_settings_file (WinnowPreferencesWindow *self)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (self->context == NULL)
    return;

  path = g_build_filename (winnow_context_get_data_dir (self->context), "settings.json", NULL);
  if (!g_file_get_contents (path, &text, NULL, &error))
    {
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        set_error (self, NULL);
      else
        set_error (self, error->message);
      return;
    }

  if (!json_parser_load_from_data (parser, text, -1, &error) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_autofree char *message = NULL;

      /* Translators: %s is a file name, the second %s why it cannot be read */
      message = g_strdup_printf (_("%s is not a JSON object (%s). Fix or remove it: until then "
                                   "Winnow uses the default settings and changes nothing."),
                                 path, error ? error->message : _("not an object"));
      set_error (self, message);
      return;
    }

  set_error (self, NULL);
}

static void
check_settings_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  check_settings_file (WINNOW_PREFERENCES_WINDOW (widget));
}

static void
on_config_changed (WinnowPreferencesWindow *self)
{
  sync_from_config (self);
}

static void
on_steps_failed (WinnowPreferencesWindow *self,
                 const char              *message)
{
  set_error (self, message);
  winnow_show_toast (GTK_WIDGET (self->error_row), message);
}

/* ---- data folder ------------------------------------------------------------------------ */

static void
show_uri_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(WinnowPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    winnow_show_toast (GTK_WIDGET (self->data_dir_row), error->message);
}

static void
open_data_dir_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  WinnowPreferencesWindow *self = WINNOW_PREFERENCES_WINDOW (widget);
  g_autoptr(GFile) dir = NULL;
  g_autofree char *uri = NULL;
  const char *path;

  if (self->context == NULL)
    return;

  /* a new installation has no folder yet; it is made as Winnow would make it */
  path = winnow_context_get_data_dir (self->context);
  g_mkdir_with_parents (path, 0700);
  dir = g_file_new_for_path (path);
  uri = g_file_get_uri (dir);
  gtk_show_uri_full (GTK_WINDOW (self), uri, GDK_CURRENT_TIME, NULL, show_uri_cb,
                     g_object_ref (self));
}

/* ---- set-up ----------------------------------------------------------------------------- */

static void
connect_tables (WinnowPreferencesWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (spin_settings); i++)
    {
      GObject *spin = child (self, spin_settings[i].child);

      g_object_set_data (spin, "winnow-setting", (gpointer) &spin_settings[i]);
      g_signal_connect_object (spin, "value-changed", G_CALLBACK (on_spin_changed), self, 0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (switch_settings); i++)
    {
      GObject *widget = child (self, switch_settings[i].child);

      g_object_set_data (widget, "winnow-setting", (gpointer) &switch_settings[i]);
      g_signal_connect_object (widget, "notify::active", G_CALLBACK (on_switch_changed), self, 0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (combo_settings); i++)
    {
      GObject *row = child (self, combo_settings[i].child);

      g_object_set_data (row, "winnow-setting", (gpointer) &combo_settings[i]);
      g_signal_connect_object (row, "notify::selected", G_CALLBACK (on_combo_changed), self, 0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (list_settings); i++)
    {
      GObject *row = child (self, list_settings[i].child);

      g_object_set_data (row, "winnow-setting", (gpointer) &list_settings[i]);
      g_signal_connect_object (row, "apply", G_CALLBACK (on_list_applied), self, 0);
    }

  g_signal_connect_object (self->caveman_language_row, "notify::selected",
                           G_CALLBACK (on_language_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->retention_row, "notify::selected",
                           G_CALLBACK (on_retention_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->raw_max_spin, "value-changed",
                           G_CALLBACK (on_retention_changed), self, G_CONNECT_SWAPPED);
}

/* The language packs on offer: detection, then every language with packs. */
static void
fill_languages (WinnowPreferencesWindow *self)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  WinnowRuleSet *rules = winnow_context_get_rule_set (self->context);
  g_auto(GStrv) languages = winnow_rule_set_dup_languages (rules);
  g_autoptr(GStrvBuilder) codes = g_strv_builder_new ();

  gtk_string_list_append (list, _("Detect per message"));
  g_strv_builder_add (codes, "auto");
  for (guint i = 0; languages != NULL && languages[i] != NULL; i++)
    {
      gtk_string_list_append (list, language_name (languages[i]));
      g_strv_builder_add (codes, languages[i]);
    }

  g_strfreev (self->language_codes);
  self->language_codes = g_strv_builder_end (codes);
  self->syncing = TRUE;
  adw_combo_row_set_model (self->caveman_language_row, G_LIST_MODEL (list));
  self->syncing = FALSE;
}

static void
winnow_preferences_window_constructed (GObject *object)
{
  WinnowPreferencesWindow *self = WINNOW_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (winnow_preferences_window_parent_class)->constructed (object);

  if (self->context != NULL)
    {
      set_subtitle (self->data_dir_row,
                                   winnow_context_get_data_dir (self->context));
      fill_languages (self);
      winnow_pipeline_steps_set_context (self->pipeline_group, self->context);
      g_signal_connect_object (self->pipeline_group, "failed", G_CALLBACK (on_steps_failed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->context, "notify::config",
                               G_CALLBACK (on_config_changed), self, G_CONNECT_SWAPPED);
      check_settings_file (self);
      sync_from_config (self);
    }

  winnow_api_group_set_context (self->api_group, self->context);
  winnow_api_group_set_service (self->api_group, self->api_service);
}

static void
winnow_preferences_window_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  WinnowPreferencesWindow *self = WINNOW_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;

    case PROP_API_SERVICE:
      g_value_set_object (value, self->api_service);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_preferences_window_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  WinnowPreferencesWindow *self = WINNOW_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;

    case PROP_API_SERVICE:
      self->api_service = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_preferences_window_dispose (GObject *object)
{
  WinnowPreferencesWindow *self = WINNOW_PREFERENCES_WINDOW (object);

  /* The groups let go of the context and the service here rather than in their own dispose:
   * with libadwaita 1.2 the groups of a preferences window are not disposed when the window
   * is (test-ui-preferences catches it), and a group left connected to the context would
   * keep redrawing for a window that is gone. */
  if (self->api_group != NULL)
    {
      winnow_api_group_set_service (self->api_group, NULL);
      winnow_api_group_set_context (self->api_group, NULL);
    }
  if (self->pipeline_group != NULL)
    winnow_pipeline_steps_set_context (self->pipeline_group, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->context);
  g_clear_object (&self->api_service);

  G_OBJECT_CLASS (winnow_preferences_window_parent_class)->dispose (object);
}

static void
winnow_preferences_window_finalize (GObject *object)
{
  WinnowPreferencesWindow *self = WINNOW_PREFERENCES_WINDOW (object);

  g_clear_pointer (&self->language_codes, g_strfreev);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (winnow_preferences_window_parent_class)->finalize (object);
}

static void
winnow_preferences_window_class_init (WinnowPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = winnow_preferences_window_constructed;
  object_class->dispose = winnow_preferences_window_dispose;
  object_class->finalize = winnow_preferences_window_finalize;
  object_class->get_property = winnow_preferences_window_get_property;
  object_class->set_property = winnow_preferences_window_set_property;

  properties [PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL,
                         WINNOW_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * WinnowPreferencesWindow:api-service:
   *
   * The application's HTTP API, which the API controls drive; without one (a window outside
   * the application) they are insensitive.
   */
  properties [PROP_API_SERVICE] =
    g_param_spec_object ("api-service", NULL, NULL,
                         WINNOW_TYPE_API_SERVICE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, error_group);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, error_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, pipeline_group);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, caveman_language_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, retention_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, raw_max_spin);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, enabled_filters_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, disabled_filters_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, data_dir_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreferencesWindow, api_group);
  /* the table-driven controls are looked up by name; binding them keeps the names checked
   * when the template loads */
  gtk_widget_class_bind_template_child_full (widget_class, "auto_tokens_spin", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "max_lines_spin", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "max_chars_spin", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "dedup_spin", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "retention_days_spin", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "rtk_enabled_switch", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "tool_results_switch", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "code_blocks_switch", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "assistant_messages_switch", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "custom_filters_switch", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "trust_projects_switch", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "default_mode_row", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "auto_mode_row", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "rtk_intensity_row", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "caveman_intensity_row", FALSE, 0);

  g_type_ensure (WINNOW_TYPE_API_GROUP);
  g_type_ensure (WINNOW_TYPE_PIPELINE_STEPS);

  gtk_widget_class_install_action (widget_class, "prefs.check-settings", NULL,
                                   check_settings_action);
  gtk_widget_class_install_action (widget_class, "prefs.open-data-dir", NULL,
                                   open_data_dir_action);
}

static void
winnow_preferences_window_init (WinnowPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  connect_tables (self);
}

/**
 * winnow_preferences_window_new:
 * @context: the engine context whose settings are edited
 * @api_service: (nullable): the application's HTTP API
 *
 * Returns: (transfer full): a new preferences window
 */
WinnowPreferencesWindow *
winnow_preferences_window_new (WinnowContext    *context,
                               WinnowApiService *api_service)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (context), NULL);
  g_return_val_if_fail (api_service == NULL || WINNOW_IS_API_SERVICE (api_service), NULL);

  return g_object_new (WINNOW_TYPE_PREFERENCES_WINDOW,
                       "context", context,
                       "api-service", api_service,
                       NULL);
}

WinnowContext *
winnow_preferences_window_get_context (WinnowPreferencesWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_PREFERENCES_WINDOW (self), NULL);
  return self->context;
}

WinnowApiService *
winnow_preferences_window_get_api_service (WinnowPreferencesWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_PREFERENCES_WINDOW (self), NULL);
  return self->api_service;
}

/**
 * winnow_preferences_window_get_error:
 * @self: a #WinnowPreferencesWindow
 *
 * Returns: (nullable): why the settings cannot be changed now (shown in the window)
 */
const char *
winnow_preferences_window_get_error (WinnowPreferencesWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_PREFERENCES_WINDOW (self), NULL);
  return self->error;
}
