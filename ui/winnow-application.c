/* winnow-application.c — the dashboard application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns what every window shares: the engine context (catalog, rule packs, settings) and the
 * GSettings of the dashboard. The colour scheme is a stateful action backed by the
 * `style-variant` key, so the menu, the settings and AdwStyleManager never disagree.
 *
 * It also owns the HTTP API while it runs (WinnowApiService, bound to the `api-enabled` and
 * `api-port` keys): started at startup when enabled, stopped at shutdown, serving with the
 * same context the windows use, so the preferences and the API never disagree either.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-api-service.h"
#include "winnow-application.h"
#include "winnow-preferences-window.h"
#include "winnow-ui.h"
#include "winnow-window.h"

struct _WinnowApplication
{
  AdwApplication  parent_instance;

  WinnowContext    *context;
  GSettings        *settings;
  WinnowApiService *api_service;
};

G_DEFINE_FINAL_TYPE (WinnowApplication, winnow_application, ADW_TYPE_APPLICATION)

static void
apply_style_variant (WinnowApplication *self)
{
  g_autofree char *variant = g_settings_get_string (self->settings, "style-variant");
  AdwColorScheme scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (g_strcmp0 (variant, "light") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (variant, "dark") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_DARK;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), scheme);
}

static void
on_style_variant_changed (GSettings         *settings,
                          const char        *key,
                          WinnowApplication *self)
{
  apply_style_variant (self);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GApplication *app = G_APPLICATION (user_data);
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  /* closing lets each window save its state first */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_application_quit (app);
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  const char *developers[] = { _("The Winnow developers"), NULL };

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", _("Winnow"),
                         "application-icon", APP_ID,
                         "developer-name", _("The Winnow developers"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Compress what coding agents read — command output, logs "
                                       "and prose — without losing what matters."),
                         "website", "https://github.com/winnow-dev/winnow",
                         "issue-url", "https://github.com/winnow-dev/winnow/issues",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  WinnowApplication *self = WINNOW_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  WinnowPreferencesWindow *window;

  window = winnow_preferences_window_new (winnow_application_get_context (self),
                                          self->api_service);
  gtk_window_set_application (GTK_WINDOW (window), GTK_APPLICATION (self));
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (window), parent);
      gtk_window_set_modal (GTK_WINDOW (window), TRUE);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "about", about_activated },
  { "preferences", preferences_activated },
};

static void
winnow_application_startup (GApplication *application)
{
  WinnowApplication *self = WINNOW_APPLICATION (application);
  g_autoptr(GAction) style_action = NULL;
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.show-page('preview')", { "<Alt>1", NULL } },
    { "win.show-page('filters')", { "<Alt>2", NULL } },
    { "win.show-page('rule-packs')", { "<Alt>3", NULL } },
    { "win.show-page('trust')", { "<Alt>4", NULL } },
    { "win.show-page('raw-output')", { "<Alt>5", NULL } },
    { "win.show-page('savings')", { "<Alt>6", NULL } },
    { "preview.open", { "<Control>o", NULL } },
    { "preview.save", { "<Control>s", NULL } },
    { "preview.copy-output", { "<Control><Shift>c", NULL } },
    { "preview.clear", { "<Control><Shift>Delete", NULL } },
  };

  G_APPLICATION_CLASS (winnow_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  style_action = g_settings_create_action (self->settings, "style-variant");
  g_action_map_add_action (G_ACTION_MAP (self), style_action);

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action,
                                           accels[i].accels);

  g_signal_connect_object (self->settings, "changed::style-variant",
                           G_CALLBACK (on_style_variant_changed), self, 0);
  apply_style_variant (self);

  self->api_service = winnow_api_service_new (winnow_application_get_context (self));
  g_settings_bind (self->settings, "api-port", self->api_service, "port", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "api-enabled", self->api_service, "enabled",
                   G_SETTINGS_BIND_DEFAULT);
}

static void
winnow_application_shutdown (GApplication *application)
{
  WinnowApplication *self = WINNOW_APPLICATION (application);

  /* the API goes with the application; `api-enabled` stays as the person set it */
  if (self->api_service != NULL)
    {
      g_settings_unbind (self->api_service, "enabled");
      g_settings_unbind (self->api_service, "port");
      winnow_api_service_stop (self->api_service);
    }

  G_APPLICATION_CLASS (winnow_application_parent_class)->shutdown (application);
}

static void
winnow_application_activate (GApplication *application)
{
  WinnowApplication *self = WINNOW_APPLICATION (application);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (winnow_window_new (self));

  gtk_window_present (window);
}

static void
winnow_application_dispose (GObject *object)
{
  WinnowApplication *self = WINNOW_APPLICATION (object);

  g_clear_object (&self->api_service);
  g_clear_object (&self->context);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (winnow_application_parent_class)->dispose (object);
}

static void
winnow_application_class_init (WinnowApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = winnow_application_dispose;
  app_class->startup = winnow_application_startup;
  app_class->shutdown = winnow_application_shutdown;
  app_class->activate = winnow_application_activate;
}

static void
winnow_application_init (WinnowApplication *self)
{
  self->settings = g_settings_new (APP_ID);
}

WinnowApplication *
winnow_application_new (void)
{
  return g_object_new (WINNOW_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/winnow/Winnow",
                       NULL);
}

/**
 * winnow_application_get_context:
 * @self: a #WinnowApplication
 *
 * The engine context every window uses, made on first use: the user's data directory, no
 * project (the dashboard is not started inside one; the Trust page chooses projects).
 *
 * Returns: (transfer none): the context
 */
WinnowContext *
winnow_application_get_context (WinnowApplication *self)
{
  g_return_val_if_fail (WINNOW_IS_APPLICATION (self), NULL);

  if (self->context == NULL)
    self->context = winnow_context_new (NULL, NULL);

  return self->context;
}

/**
 * winnow_application_get_api_service:
 * @self: a #WinnowApplication
 *
 * Returns: (transfer none) (nullable): the HTTP API the application runs (%NULL before
 *   startup)
 */
WinnowApiService *
winnow_application_get_api_service (WinnowApplication *self)
{
  g_return_val_if_fail (WINNOW_IS_APPLICATION (self), NULL);
  return self->api_service;
}

GSettings *
winnow_application_get_settings (WinnowApplication *self)
{
  g_return_val_if_fail (WINNOW_IS_APPLICATION (self), NULL);
  return self->settings;
}

/* GSettings aborts on a schema it cannot find; say what is wrong instead. */
static gboolean
schema_available (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);

  return schema != NULL;
}

int
winnow_ui_main (int    argc,
                char **argv)
{
  g_autoptr(WinnowApplication) app = NULL;

  if (!schema_available ())
    {
      g_printerr (_("winnow: the settings schema %s is not installed. Install Winnow, or run "
                    "the dashboard from a build tree with ./dev run (it sets "
                    "GSETTINGS_SCHEMA_DIR).\n"), APP_ID);
      return 1;
    }

  g_set_application_name (_("Winnow"));
  app = winnow_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
