/* winnow-api-group.c — the HTTP API in the preferences
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The switch and the port drive the application's WinnowApiService (bound both ways, so the
 * `api-enabled` and `api-port` keys, the service and the window always agree); the address
 * row says where it listens, or why it does not. The token is shown only on request, copied
 * to the clipboard, or replaced after a confirmation, since replacing it locks out every
 * client holding the old one. Without a service (a window outside the application) the
 * controls are insensitive but the token can still be seen and replaced: it is the token of
 * `winnow serve` too.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-api-group.h"
#include "winnow-toast.h"

struct _WinnowApiGroup
{
  AdwPreferencesGroup  parent_instance;

  WinnowContext       *context;
  WinnowApiService    *service;
  GBinding            *enabled_binding;
  GBinding            *port_binding;

  GtkSwitch           *api_enabled_switch;
  GtkSpinButton       *api_port_spin;
  AdwActionRow        *api_address_row;
  GtkLabel            *token_label;
  GtkToggleButton     *show_token_button;
};

G_DEFINE_FINAL_TYPE (WinnowApiGroup, winnow_api_group, ADW_TYPE_PREFERENCES_GROUP)

enum {
  PROP_0,
  PROP_CONTEXT,
  PROP_SERVICE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* libadwaita 1.2 reads subtitles as markup; error messages are text */
static void
set_subtitle (AdwActionRow *row,
              const char   *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  adw_action_row_set_subtitle (row, escaped);
}

static void
show_api_state (WinnowApiGroup *self)
{
  g_autofree char *uri = NULL;
  const char *error;

  if (self->service == NULL)
    {
      set_subtitle (self->api_address_row,
                                   _("Only available in the Winnow application"));
      return;
    }

  uri = winnow_api_service_dup_uri (self->service);
  error = winnow_api_service_get_error (self->service);
  if (uri != NULL)
    set_subtitle (self->api_address_row, uri);
  else if (error != NULL)
    set_subtitle (self->api_address_row, error);
  else
    set_subtitle (self->api_address_row, _("Not running"));
}

static char *
dup_token (WinnowApiGroup  *self,
           GError                  **error)
{
  if (self->service != NULL)
    return winnow_api_service_dup_token (self->service, error);
  return winnow_server_load_token (winnow_context_get_data_dir (self->context), FALSE, NULL,
                                   error);
}

/* The token is hidden until asked for: a preferences window is often on a shared screen. */
static void
show_token (WinnowApiGroup *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  if (!gtk_toggle_button_get_active (self->show_token_button) || self->context == NULL)
    {
      gtk_label_set_text (self->token_label, "••••••••••••••••");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->show_token_button), _("Show Token"));
      return;
    }

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->show_token_button), _("Hide Token"));
  token = dup_token (self, &error);
  if (token == NULL)
    {
      gtk_label_set_text (self->token_label, "");
      winnow_show_toast (GTK_WIDGET (self->token_label), error->message);
      return;
    }
  gtk_label_set_text (self->token_label, token);
}

static void
copy_token_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  WinnowApiGroup *self = WINNOW_API_GROUP (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  if (self->context == NULL)
    return;

  token = dup_token (self, &error);
  if (token == NULL)
    {
      winnow_show_toast (GTK_WIDGET (self->token_label), error->message);
      return;
    }

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), token);
  winnow_show_toast (GTK_WIDGET (self->token_label), _("Token copied"));
}

static void
regenerate_response_cb (AdwMessageDialog        *dialog,
                        const char              *response,
                        WinnowApiGroup *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  gboolean done;

  if (!g_str_equal (response, "regenerate") || self->context == NULL)
    return;

  if (self->service != NULL)
    done = winnow_api_service_regenerate_token (self->service, &error);
  else
    done = (token = winnow_server_load_token (winnow_context_get_data_dir (self->context), TRUE,
                                              NULL, &error)) != NULL;

  if (!done)
    winnow_show_toast (GTK_WIDGET (self->token_label), error->message);
  else
    winnow_show_toast (GTK_WIDGET (self->token_label), _("New token made: give it to your "
                                                         "clients"));
  show_token (self);
}

static void
regenerate_token_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  WinnowApiGroup *self = WINNOW_API_GROUP (widget);
  AdwMessageDialog *dialog;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (gtk_widget_get_root (widget)),
                                                       _("Regenerate the API Token?"),
                                                       _("Clients using the current token, "
                                                         "including a “winnow serve” started "
                                                         "with it, are refused until they get "
                                                         "the new one.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "regenerate", _("_Regenerate"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "regenerate", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (regenerate_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
winnow_api_group_dispose (GObject *object)
{
  WinnowApiGroup *self = WINNOW_API_GROUP (object);

  winnow_api_group_set_service (self, NULL);
  g_clear_object (&self->context);
  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_API_GROUP);

  G_OBJECT_CLASS (winnow_api_group_parent_class)->dispose (object);
}

static void
winnow_api_group_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WinnowApiGroup *self = WINNOW_API_GROUP (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;

    case PROP_SERVICE:
      g_value_set_object (value, self->service);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_api_group_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  WinnowApiGroup *self = WINNOW_API_GROUP (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      winnow_api_group_set_context (self, g_value_get_object (value));
      break;

    case PROP_SERVICE:
      winnow_api_group_set_service (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_api_group_class_init (WinnowApiGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_api_group_dispose;
  object_class->get_property = winnow_api_group_get_property;
  object_class->set_property = winnow_api_group_set_property;

  properties [PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL,
                         WINNOW_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_SERVICE] =
    g_param_spec_object ("service", NULL, NULL,
                         WINNOW_TYPE_API_SERVICE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-api-group.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowApiGroup, api_enabled_switch);
  gtk_widget_class_bind_template_child (widget_class, WinnowApiGroup, api_port_spin);
  gtk_widget_class_bind_template_child (widget_class, WinnowApiGroup, api_address_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowApiGroup, token_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowApiGroup, show_token_button);

  gtk_widget_class_install_action (widget_class, "api.copy-token", NULL, copy_token_action);
  gtk_widget_class_install_action (widget_class, "api.regenerate-token", NULL,
                                   regenerate_token_action);
}

static void
winnow_api_group_init (WinnowApiGroup *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect_object (self->show_token_button, "toggled",
                           G_CALLBACK (show_token), self, G_CONNECT_SWAPPED);
  gtk_widget_set_sensitive (GTK_WIDGET (self->api_enabled_switch), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->api_port_spin), FALSE);
  show_api_state (self);
  show_token (self);
}

WinnowContext *
winnow_api_group_get_context (WinnowApiGroup *self)
{
  g_return_val_if_fail (WINNOW_IS_API_GROUP (self), NULL);
  return self->context;
}

/**
 * winnow_api_group_set_context:
 * @self: a #WinnowApiGroup
 * @context: (nullable): the context whose data directory holds the token
 */
void
winnow_api_group_set_context (WinnowApiGroup *self,
                              WinnowContext  *context)
{
  g_return_if_fail (WINNOW_IS_API_GROUP (self));
  g_return_if_fail (context == NULL || WINNOW_IS_CONTEXT (context));

  if (!g_set_object (&self->context, context))
    return;

  show_token (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONTEXT]);
}

WinnowApiService *
winnow_api_group_get_service (WinnowApiGroup *self)
{
  g_return_val_if_fail (WINNOW_IS_API_GROUP (self), NULL);
  return self->service;
}

/**
 * winnow_api_group_set_service:
 * @self: a #WinnowApiGroup
 * @service: (nullable): the application's HTTP API
 */
void
winnow_api_group_set_service (WinnowApiGroup   *self,
                              WinnowApiService *service)
{
  g_return_if_fail (WINNOW_IS_API_GROUP (self));
  g_return_if_fail (service == NULL || WINNOW_IS_API_SERVICE (service));

  if (self->service == service)
    return;

  if (self->service != NULL)
    {
      g_clear_pointer (&self->enabled_binding, g_binding_unbind);
      g_clear_pointer (&self->port_binding, g_binding_unbind);
      g_signal_handlers_disconnect_by_func (self->service, show_api_state, self);
    }

  g_set_object (&self->service, service);

  if (service != NULL)
    {
      self->enabled_binding =
        g_object_bind_property (service, "enabled", self->api_enabled_switch, "active",
                                G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
      self->port_binding =
        g_object_bind_property (service, "port", self->api_port_spin, "value",
                                G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
      g_signal_connect_object (service, "notify::running",
                               G_CALLBACK (show_api_state), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (service, "notify::bound-port",
                               G_CALLBACK (show_api_state), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (service, "notify::error",
                               G_CALLBACK (show_api_state), self, G_CONNECT_SWAPPED);
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->api_enabled_switch), service != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->api_port_spin), service != NULL);
  show_api_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SERVICE]);
}
