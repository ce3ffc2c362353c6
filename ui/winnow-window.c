/* winnow-window.c — the dashboard window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A header bar with a view switcher over the pages (a bottom switcher bar when the window is
 * narrow). The window remembers its size and the page it showed; the pages get the engine
 * context from it and reach each other through actions (`win.show-page`, `win.show-filter`).
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-raw-output-page.h"
#include "winnow-rule-packs-page.h"
#include "winnow-savings-page.h"
#include "winnow-toast.h"
#include "winnow-window.h"

struct _WinnowWindow
{
  AdwApplicationWindow  parent_instance;

  WinnowContext        *context;
  GSettings            *settings;

  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *stack;
  WinnowPreviewPage    *preview_page;
  WinnowFiltersPage    *filters_page;
  WinnowTrustPage      *trust_page;
  gboolean              close_confirmed;
  WinnowRulePacksPage  *rule_packs_page;
  WinnowSavingsPage    *savings_page;
  WinnowRawOutputPage  *raw_output_page;
};

G_DEFINE_FINAL_TYPE (WinnowWindow, winnow_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_CONTEXT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  winnow_window_set_page (WINNOW_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

/* A filter named elsewhere (the Preview's "Filter: …") opens in the Filters page. */
static void
show_filter_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  WinnowWindow *self = WINNOW_WINDOW (widget);
  const char *id = g_variant_get_string (parameter, NULL);

  winnow_window_set_page (self, "filters");
  if (!winnow_filters_page_show_filter (self->filters_page, id))
    winnow_window_show_toast (self, _("That filter is no longer in the catalog"));
}

/* The filter editor tries filters on what the Preview shows. */
static void
on_page_changed (WinnowWindow *self)
{
  g_autofree char *input = NULL;

  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->stack), "filters") != 0)
    return;

  input = winnow_preview_page_dup_input (self->preview_page);
  winnow_filters_page_set_sample (self->filters_page, input,
                                  winnow_preview_page_get_command (self->preview_page));
}

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   WinnowWindow     *self)
{
  if (g_str_equal (response, "save"))
    {
      g_autoptr(GError) error = NULL;

      if (!winnow_filter_editor_save (winnow_filters_page_get_editor (self->filters_page), &error))
        {
          winnow_window_show_toast (self, error->message);
          return;
        }
    }
  else if (!g_str_equal (response, "discard"))
    return;

  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
winnow_window_close_request (GtkWindow *window)
{
  WinnowWindow *self = WINNOW_WINDOW (window);
  WinnowFilterEditor *editor = winnow_filters_page_get_editor (self->filters_page);
  int width, height;

  /* unsaved filter edits are never lost silently */
  if (!self->close_confirmed && winnow_filter_editor_get_dirty (editor))
    {
      AdwMessageDialog *dialog;

      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (window, _("Save Changes?"),
                                                           _("A filter has unsaved changes. If "
                                                             "you quit without saving, they are "
                                                             "lost.")));
      adw_message_dialog_add_responses (dialog,
                                        "cancel", _("_Cancel"),
                                        "discard", _("_Discard"),
                                        "save", _("_Save"),
                                        NULL);
      adw_message_dialog_set_response_appearance (dialog, "discard", ADW_RESPONSE_DESTRUCTIVE);
      adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, "save");
      adw_message_dialog_set_close_response (dialog, "cancel");
      g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
      winnow_window_set_page (self, "filters");
      gtk_window_present (GTK_WINDOW (dialog));
      return TRUE;
    }

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }

  return GTK_WINDOW_CLASS (winnow_window_parent_class)->close_request (window);
}

static void
winnow_window_constructed (GObject *object)
{
  WinnowWindow *self = WINNOW_WINDOW (object);
  GtkApplication *app;

  G_OBJECT_CLASS (winnow_window_parent_class)->constructed (object);

  app = gtk_window_get_application (GTK_WINDOW (self));
  if (self->context == NULL && WINNOW_IS_APPLICATION (app))
    self->context = g_object_ref (winnow_application_get_context (WINNOW_APPLICATION (app)));
  if (self->context == NULL)
    self->context = winnow_context_new (NULL, NULL);

  winnow_preview_page_set_context (self->preview_page, self->context);
  winnow_filters_page_set_context (self->filters_page, self->context);
  winnow_rule_packs_page_set_context (self->rule_packs_page, self->context);
  winnow_trust_page_set_context (self->trust_page, self->context);
  winnow_savings_page_set_context (self->savings_page, self->context);
  winnow_raw_output_page_set_context (self->raw_output_page, self->context);
}

static void
winnow_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WinnowWindow *self = WINNOW_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  WinnowWindow *self = WINNOW_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_window_dispose (GObject *object)
{
  WinnowWindow *self = WINNOW_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (winnow_window_parent_class)->dispose (object);
}

static void
winnow_window_class_init (WinnowWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = winnow_window_constructed;
  object_class->dispose = winnow_window_dispose;
  object_class->get_property = winnow_window_get_property;
  object_class->set_property = winnow_window_set_property;
  window_class->close_request = winnow_window_close_request;

  /**
   * WinnowWindow:context:
   *
   * The engine context the pages compress with; the application's when %NULL.
   */
  properties [PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL,
                         WINNOW_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, preview_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, filters_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, rule_packs_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, trust_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, savings_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowWindow, raw_output_page);

  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.show-filter", "s", show_filter_action);

  g_type_ensure (WINNOW_TYPE_PREVIEW_PAGE);
  g_type_ensure (WINNOW_TYPE_FILTERS_PAGE);
  g_type_ensure (WINNOW_TYPE_RULE_PACKS_PAGE);
  g_type_ensure (WINNOW_TYPE_TRUST_PAGE);
  g_type_ensure (WINNOW_TYPE_SAVINGS_PAGE);
  g_type_ensure (WINNOW_TYPE_RAW_OUTPUT_PAGE);
}

static void
winnow_window_init (WinnowWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  g_settings_bind (self->settings, "last-page", self->stack, "visible-child-name",
                   G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->stack, "notify::visible-child-name",
                           G_CALLBACK (on_page_changed), self, G_CONNECT_SWAPPED);
}

/**
 * winnow_window_new:
 * @application: the application
 *
 * Returns: (transfer none): a new window of @application, using its engine context
 */
WinnowWindow *
winnow_window_new (WinnowApplication *application)
{
  g_return_val_if_fail (WINNOW_IS_APPLICATION (application), NULL);

  return g_object_new (WINNOW_TYPE_WINDOW,
                       "application", application,
                       NULL);
}

/**
 * winnow_window_new_for_context:
 * @context: an engine context
 *
 * A window outside any application, for tests and screenshots.
 *
 * Returns: (transfer full): a new window
 */
WinnowWindow *
winnow_window_new_for_context (WinnowContext *context)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (context), NULL);

  return g_object_new (WINNOW_TYPE_WINDOW,
                       "context", context,
                       NULL);
}

WinnowContext *
winnow_window_get_context (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return self->context;
}

WinnowPreviewPage *
winnow_window_get_preview_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return self->preview_page;
}

WinnowFiltersPage *
winnow_window_get_filters_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return self->filters_page;
}

const char *
winnow_window_get_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return adw_view_stack_get_visible_child_name (self->stack);
}

/**
 * winnow_window_set_page:
 * @self: a #WinnowWindow
 * @name: a page: "preview", "filters", "rule-packs", "trust", "raw-output" or "savings"
 *
 * Shows a page; an unknown name is ignored.
 */
void
winnow_window_set_page (WinnowWindow *self,
                        const char   *name)
{
  g_return_if_fail (WINNOW_IS_WINDOW (self));
  g_return_if_fail (name != NULL);

  if (adw_view_stack_get_child_by_name (self->stack, name) != NULL)
    adw_view_stack_set_visible_child_name (self->stack, name);
}

void
winnow_window_show_toast (WinnowWindow *self,
                          const char   *message)
{
  g_return_if_fail (WINNOW_IS_WINDOW (self));

  winnow_show_toast (GTK_WIDGET (self->toast_overlay), message);
}
