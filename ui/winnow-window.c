/* winnow-window.c — the dashboard window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A header bar with a view switcher over the pages (a bottom switcher bar when the window is
 * narrow). The window remembers its size and the page it showed; the pages get the engine
 * context from it and reach each other through actions (`win.show-page`, `win.show-filter`).
 *
 * Only the page shown is built when the window opens: the others (each a tree of templates,
 * source views with their language definitions, rule packs parsed and verified, stores read)
 * would cost the first frame a few hundred milliseconds for pages the user may never open.
 * The view stack holds an empty bin per page; ensure_page() builds a page into its bin the
 * first time it is shown or asked for, and the getters do the same, so callers never see a
 * page that is not there.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "winnow-toast.h"
#include "winnow-window.h"

typedef enum
{
  PAGE_PREVIEW,
  PAGE_FILTERS,
  PAGE_RULE_PACKS,
  PAGE_TRUST,
  PAGE_RAW_OUTPUT,
  PAGE_SAVINGS,
  N_PAGES
} Page;

/* the names of the stack's pages in winnow-window.ui, by Page */
static const char * const page_names[N_PAGES] = {
  "preview", "filters", "rule-packs", "trust", "raw-output", "savings",
};

struct _WinnowWindow
{
  AdwApplicationWindow  parent_instance;

  WinnowContext        *context;
  GSettings            *settings;

  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *stack;
  gboolean              close_confirmed;

  /* the pages built so far, owned by their bins in the stack; NULL until then */
  GtkWidget            *pages[N_PAGES];
};

G_DEFINE_FINAL_TYPE (WinnowWindow, winnow_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_CONTEXT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static int
page_from_name (const char *name)
{
  for (int i = 0; i < N_PAGES; i++)
    if (g_strcmp0 (name, page_names[i]) == 0)
      return i;
  return -1;
}

/* Builds @page into its bin in the stack unless it is there already, and gives it the
 * engine context. Needs the context, i.e. runs from construction on. */
static GtkWidget *
ensure_page (WinnowWindow *self,
             Page          page)
{
  GtkWidget *widget;

  if (self->pages[page] != NULL)
    return self->pages[page];

  g_assert (self->context != NULL);
  switch (page)
    {
    case PAGE_PREVIEW:
      widget = g_object_new (WINNOW_TYPE_PREVIEW_PAGE, NULL);
      break;

    case PAGE_FILTERS:
      widget = g_object_new (WINNOW_TYPE_FILTERS_PAGE, NULL);
      break;

    case PAGE_RULE_PACKS:
      widget = g_object_new (WINNOW_TYPE_RULE_PACKS_PAGE, NULL);
      break;

    case PAGE_TRUST:
      widget = g_object_new (WINNOW_TYPE_TRUST_PAGE, NULL);
      break;

    case PAGE_RAW_OUTPUT:
      widget = g_object_new (WINNOW_TYPE_RAW_OUTPUT_PAGE, NULL);
      break;

    case PAGE_SAVINGS:
      widget = g_object_new (WINNOW_TYPE_SAVINGS_PAGE, NULL);
      break;

    case N_PAGES:
    default:
      g_assert_not_reached ();
    }

  self->pages[page] = widget;
  adw_bin_set_child (ADW_BIN (adw_view_stack_get_child_by_name (self->stack, page_names[page])),
                     widget);

  /* as when the pages were in the template: in the window first, then the context */
  switch (page)
    {
    case PAGE_PREVIEW:
      winnow_preview_page_set_context (WINNOW_PREVIEW_PAGE (widget), self->context);
      break;

    case PAGE_FILTERS:
      winnow_filters_page_set_context (WINNOW_FILTERS_PAGE (widget), self->context);
      break;

    case PAGE_RULE_PACKS:
      winnow_rule_packs_page_set_context (WINNOW_RULE_PACKS_PAGE (widget), self->context);
      break;

    case PAGE_TRUST:
      winnow_trust_page_set_context (WINNOW_TRUST_PAGE (widget), self->context);
      break;

    case PAGE_RAW_OUTPUT:
      winnow_raw_output_page_set_context (WINNOW_RAW_OUTPUT_PAGE (widget), self->context);
      break;

    case PAGE_SAVINGS:
      winnow_savings_page_set_context (WINNOW_SAVINGS_PAGE (widget), self->context);
      break;

    case N_PAGES:
    default:
      g_assert_not_reached ();
    }

  return widget;
}

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
  if (!winnow_filters_page_show_filter (winnow_window_get_filters_page (self), id))
    winnow_window_show_toast (self, _("That filter is no longer in the catalog"));
}

/* Builds the page shown unless it is built; before construction (no context yet), the
 * settings' last page is built by constructed(). */
static int
ensure_visible_page (WinnowWindow *self)
{
  int page = page_from_name (adw_view_stack_get_visible_child_name (self->stack));

  if (page >= 0 && self->context != NULL)
    ensure_page (self, page);
  return page;
}

/* The page shown is built the first time; the filter editor tries filters on what the
 * Preview shows. */
static void
on_page_changed (WinnowWindow *self)
{
  g_autofree char *input = NULL;
  g_autofree char *command = NULL;
  WinnowPreviewPage *preview;

  if (ensure_visible_page (self) != PAGE_FILTERS || self->context == NULL)
    return;

  /* a Preview never built shows no input yet, only the command it remembers */
  preview = (WinnowPreviewPage *) self->pages[PAGE_PREVIEW];
  if (preview != NULL)
    {
      input = winnow_preview_page_dup_input (preview);
      command = g_strdup (winnow_preview_page_get_command (preview));
    }
  else
    {
      input = g_strdup ("");
      command = g_settings_get_string (self->settings, "preview-command");
    }
  winnow_filters_page_set_sample (WINNOW_FILTERS_PAGE (self->pages[PAGE_FILTERS]), input, command);
}

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   WinnowWindow     *self)
{
  if (g_str_equal (response, "save"))
    {
      WinnowFiltersPage *filters = winnow_window_get_filters_page (self);
      g_autoptr(GError) error = NULL;

      if (!winnow_filter_editor_save (winnow_filters_page_get_editor (filters), &error))
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
  WinnowFilterEditor *editor = NULL;
  int width, height;

  /* a Filters page never built has no edits */
  if (self->pages[PAGE_FILTERS] != NULL)
    editor = winnow_filters_page_get_editor (WINNOW_FILTERS_PAGE (self->pages[PAGE_FILTERS]));

  /* unsaved filter edits are never lost silently */
  if (!self->close_confirmed && editor != NULL && winnow_filter_editor_get_dirty (editor))
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

  /* the page the window opens on; the others wait until they are shown */
  ensure_visible_page (self);
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

  /* the stack losing its pages must not build any */
  if (self->stack != NULL)
    g_signal_handlers_disconnect_by_func (self->stack, on_page_changed, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_WINDOW);
  memset (self->pages, 0, sizeof self->pages);
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

  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.show-filter", "s", show_filter_action);
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

/**
 * winnow_window_get_preview_page:
 * @self: a #WinnowWindow
 *
 * The page getters build their page when it was not yet shown, without showing it.
 *
 * Returns: (transfer none): the Preview page
 */
WinnowPreviewPage *
winnow_window_get_preview_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return WINNOW_PREVIEW_PAGE (ensure_page (self, PAGE_PREVIEW));
}

WinnowFiltersPage *
winnow_window_get_filters_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return WINNOW_FILTERS_PAGE (ensure_page (self, PAGE_FILTERS));
}

WinnowRulePacksPage *
winnow_window_get_rule_packs_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return WINNOW_RULE_PACKS_PAGE (ensure_page (self, PAGE_RULE_PACKS));
}

WinnowTrustPage *
winnow_window_get_trust_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return WINNOW_TRUST_PAGE (ensure_page (self, PAGE_TRUST));
}

WinnowRawOutputPage *
winnow_window_get_raw_output_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return WINNOW_RAW_OUTPUT_PAGE (ensure_page (self, PAGE_RAW_OUTPUT));
}

WinnowSavingsPage *
winnow_window_get_savings_page (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return WINNOW_SAVINGS_PAGE (ensure_page (self, PAGE_SAVINGS));
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

  /* showing it builds it (on_page_changed) */
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
