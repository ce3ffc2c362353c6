/* winnow-api-service.c — the HTTP API while the dashboard runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When the API is enabled in the preferences, the application owns one WinnowServer for as
 * long as it runs: the same routes as `winnow serve`, on 127.0.0.1 only, over the
 * dashboard's own engine context, so a setting changed in the preferences is what the next
 * request is served with. Binding loopback is not a choice here: exposing the API to other
 * machines is a deliberate act that belongs on the command line (`winnow serve --bind`),
 * with its warning, not behind a switch.
 *
 * The token is the one `winnow serve` uses, `DATA_DIR/api-token`, mode 0600, made from the
 * kernel's random bytes on first use (winnow_server_load_token()). It is never copied into
 * GSettings, whose store (dconf) any process of the user may read and which backs itself up
 * with the rest of a profile; a file of its own with a strict mode keeps it as private as an
 * SSH key. Regenerating it restarts the server, since a running server holds its token.
 *
 * Starting happens on the thread that owns the default main context (the server answers
 * there); a port already taken is not fatal: the service stays enabled, not running, and
 * #WinnowApiService:error says why, for the preferences to show.
 *
 * One set of settings: a client's `PUT /api/settings/compression` writes settings.json and
 * makes the server a context of its own. The service watches the file, reloads the
 * dashboard's context when it changes (whoever changed it: the API, the CLI, an editor), and
 * hands that context back to the server, so the Preview, the preferences and the API never
 * serve different settings for longer than the file monitor takes to fire.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-api-service.h"

struct _WinnowApiService
{
  GObject        parent_instance;

  WinnowContext *context;
  WinnowServer  *server;
  GFileMonitor  *monitor;
  char          *error;
  guint          port;
  guint          enabled : 1;
};

G_DEFINE_FINAL_TYPE (WinnowApiService, winnow_api_service, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONTEXT,
  PROP_ENABLED,
  PROP_PORT,
  PROP_RUNNING,
  PROP_BOUND_PORT,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
set_error (WinnowApiService *self,
           const char       *error)
{
  if (g_strcmp0 (self->error, error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ERROR]);
}

static void
stop_server (WinnowApiService *self)
{
  if (self->server == NULL)
    return;

  winnow_server_stop (self->server);
  g_clear_object (&self->server);
}

/* Brings the server in line with :enabled and :port: stopped, or listening anew. */
static void
update (WinnowApiService *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowServer) server = NULL;
  g_autofree char *token = NULL;
  gboolean was_running = self->server != NULL;

  g_object_freeze_notify (G_OBJECT (self));

  stop_server (self);

  if (self->enabled)
    {
      token = winnow_server_load_token (winnow_context_get_data_dir (self->context), FALSE, NULL,
                                        &error);
      if (token != NULL)
        server = winnow_server_new (self->context, token);
      if (server != NULL && winnow_server_start (server, "127.0.0.1", self->port, &error))
        self->server = g_steal_pointer (&server);
    }

  if (error != NULL)
    {
      g_autofree char *message = NULL;

      if (token == NULL)
        /* Translators: %s says why, e.g. a file that cannot be read */
        message = g_strdup_printf (_("The API token is not usable: %s"), error->message);
      else
        /* Translators: %u is a port number, %s the reason the system gives */
        message = g_strdup_printf (_("The API cannot listen on port %u: %s"), self->port,
                                   error->message);
      set_error (self, message);
    }
  else
    set_error (self, NULL);

  if (was_running || self->server != NULL)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RUNNING]);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BOUND_PORT]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

static void
on_settings_file_changed (WinnowApiService  *self,
                          GFile             *file,
                          GFile             *other,
                          GFileMonitorEvent  event)
{
  /* no-op when the file says what the context already has (its own writes) */
  winnow_context_reload_settings (self->context);
}

/* The dashboard's context changed its settings: the server serves with them too. */
static void
on_config_changed (WinnowApiService *self)
{
  g_autoptr(WinnowContext) served = NULL;

  if (self->server == NULL)
    return;

  served = winnow_server_dup_context (self->server);
  if (served != self->context)
    winnow_server_set_context (self->server, self->context);
}

static void
winnow_api_service_constructed (GObject *object)
{
  WinnowApiService *self = (WinnowApiService *)object;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (winnow_api_service_parent_class)->constructed (object);

  g_return_if_fail (WINNOW_IS_CONTEXT (self->context));

  path = g_build_filename (winnow_context_get_data_dir (self->context), "settings.json", NULL);
  file = g_file_new_for_path (path);
  /* watching moves too: settings.json is replaced by a rename, never written in place */
  self->monitor = g_file_monitor_file (file, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
  if (self->monitor != NULL)
    g_signal_connect_object (self->monitor, "changed", G_CALLBACK (on_settings_file_changed),
                             self, G_CONNECT_SWAPPED);
  else
    g_debug ("changes to %s made elsewhere are not followed: %s", path, error->message);

  g_signal_connect_object (self->context, "notify::config", G_CALLBACK (on_config_changed),
                           self, G_CONNECT_SWAPPED);
}

static void
winnow_api_service_dispose (GObject *object)
{
  WinnowApiService *self = (WinnowApiService *)object;

  stop_server (self);
  if (self->monitor != NULL)
    g_file_monitor_cancel (self->monitor);
  g_clear_object (&self->monitor);

  G_OBJECT_CLASS (winnow_api_service_parent_class)->dispose (object);
}

static void
winnow_api_service_finalize (GObject *object)
{
  WinnowApiService *self = (WinnowApiService *)object;

  g_clear_object (&self->context);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (winnow_api_service_parent_class)->finalize (object);
}

static void
winnow_api_service_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WinnowApiService *self = WINNOW_API_SERVICE (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;

    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;

    case PROP_PORT:
      g_value_set_uint (value, self->port);
      break;

    case PROP_RUNNING:
      g_value_set_boolean (value, winnow_api_service_get_running (self));
      break;

    case PROP_BOUND_PORT:
      g_value_set_uint (value, winnow_api_service_get_bound_port (self));
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_api_service_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  WinnowApiService *self = WINNOW_API_SERVICE (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;

    case PROP_ENABLED:
      winnow_api_service_set_enabled (self, g_value_get_boolean (value));
      break;

    case PROP_PORT:
      winnow_api_service_set_port (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_api_service_class_init (WinnowApiServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = winnow_api_service_constructed;
  object_class->dispose = winnow_api_service_dispose;
  object_class->finalize = winnow_api_service_finalize;
  object_class->get_property = winnow_api_service_get_property;
  object_class->set_property = winnow_api_service_set_property;

  properties [PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL,
                         WINNOW_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * WinnowApiService:enabled:
   *
   * Whether the API should listen (the `api-enabled` key); see :running for whether it does.
   */
  properties [PROP_ENABLED] =
    g_param_spec_boolean ("enabled", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * WinnowApiService:port:
   *
   * The port to listen on (the `api-port` key); 0 lets the system choose one, which
   * :bound-port then tells.
   */
  properties [PROP_PORT] =
    g_param_spec_uint ("port", NULL, NULL,
                       0, G_MAXUINT16, WINNOW_SERVER_DEFAULT_PORT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_BOUND_PORT] =
    g_param_spec_uint ("bound-port", NULL, NULL,
                       0, G_MAXUINT16, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * WinnowApiService:error:
   *
   * Why the API is enabled but not listening (a port in use, an unreadable token file), in
   * words for people; %NULL when all is well.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_api_service_init (WinnowApiService *self)
{
  self->port = WINNOW_SERVER_DEFAULT_PORT;
}

/**
 * winnow_api_service_new:
 * @context: the engine context requests are served with
 *
 * Returns: (transfer full): a service, disabled
 */
WinnowApiService *
winnow_api_service_new (WinnowContext *context)
{
  g_return_val_if_fail (WINNOW_IS_CONTEXT (context), NULL);

  return g_object_new (WINNOW_TYPE_API_SERVICE,
                       "context", context,
                       NULL);
}

WinnowContext *
winnow_api_service_get_context (WinnowApiService *self)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), NULL);
  return self->context;
}

gboolean
winnow_api_service_get_enabled (WinnowApiService *self)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), FALSE);
  return self->enabled;
}

/**
 * winnow_api_service_set_enabled:
 * @self: a #WinnowApiService
 * @enabled: whether the API should listen
 *
 * Starts or stops the server at once.
 */
void
winnow_api_service_set_enabled (WinnowApiService *self,
                                gboolean          enabled)
{
  g_return_if_fail (WINNOW_IS_API_SERVICE (self));

  enabled = !!enabled;
  if (self->enabled == enabled)
    return;

  self->enabled = enabled;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ENABLED]);
}

guint
winnow_api_service_get_port (WinnowApiService *self)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), 0);
  return self->port;
}

/**
 * winnow_api_service_set_port:
 * @self: a #WinnowApiService
 * @port: the port to listen on; 0 lets the system choose
 *
 * A running server moves to the new port at once.
 */
void
winnow_api_service_set_port (WinnowApiService *self,
                             guint             port)
{
  g_return_if_fail (WINNOW_IS_API_SERVICE (self));
  g_return_if_fail (port <= G_MAXUINT16);

  if (self->port == port)
    return;

  self->port = port;
  if (self->enabled)
    update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PORT]);
}

gboolean
winnow_api_service_get_running (WinnowApiService *self)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), FALSE);
  return self->server != NULL && winnow_server_get_running (self->server);
}

/**
 * winnow_api_service_get_bound_port:
 * @self: a #WinnowApiService
 *
 * Returns: the port the server listens on, or 0 if it does not
 */
guint
winnow_api_service_get_bound_port (WinnowApiService *self)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), 0);
  return self->server != NULL ? winnow_server_get_port (self->server) : 0;
}

/**
 * winnow_api_service_get_error:
 * @self: a #WinnowApiService
 *
 * Returns: (nullable): why the enabled API does not listen
 */
const char *
winnow_api_service_get_error (WinnowApiService *self)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), NULL);
  return self->error;
}

/**
 * winnow_api_service_dup_uri:
 * @self: a #WinnowApiService
 *
 * Returns: (transfer full) (nullable): `http://127.0.0.1:PORT/`, or %NULL if not running
 */
char *
winnow_api_service_dup_uri (WinnowApiService *self)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), NULL);
  return self->server != NULL ? winnow_server_dup_uri (self->server) : NULL;
}

/**
 * winnow_api_service_dup_token:
 * @self: a #WinnowApiService
 * @error: return location for a #GError
 *
 * The token clients must send, made now if there is none yet.
 *
 * Returns: (transfer full): the token, or %NULL with @error set
 */
char *
winnow_api_service_dup_token (WinnowApiService  *self,
                              GError           **error)
{
  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), NULL);

  return winnow_server_load_token (winnow_context_get_data_dir (self->context), FALSE, NULL,
                                   error);
}

/**
 * winnow_api_service_regenerate_token:
 * @self: a #WinnowApiService
 * @error: return location for a #GError
 *
 * Replaces the token; clients holding the old one (and a `winnow serve` started before) are
 * refused from now on. A running server restarts with the new one.
 *
 * Returns: %TRUE if a new token was written
 */
gboolean
winnow_api_service_regenerate_token (WinnowApiService  *self,
                                     GError           **error)
{
  g_autofree char *token = NULL;

  g_return_val_if_fail (WINNOW_IS_API_SERVICE (self), FALSE);

  token = winnow_server_load_token (winnow_context_get_data_dir (self->context), TRUE, NULL,
                                    error);
  if (token == NULL)
    return FALSE;

  if (self->enabled)
    update (self);
  return TRUE;
}

/**
 * winnow_api_service_stop:
 * @self: a #WinnowApiService
 *
 * Stops listening without changing :enabled, for when the application quits.
 */
void
winnow_api_service_stop (WinnowApiService *self)
{
  g_return_if_fail (WINNOW_IS_API_SERVICE (self));

  if (self->server == NULL)
    return;

  stop_server (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RUNNING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BOUND_PORT]);
}
