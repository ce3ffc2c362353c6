/* winnow-cli-serve.c — `winnow serve`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "winnow-cli.h"

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_CONTINUE;
}

/* an address others may reach (one that is not an address at all is refused later) */
static gboolean
is_exposed (const char *address)
{
  g_autoptr(GInetAddress) inet = NULL;

  if (address == NULL || g_ascii_strcasecmp (address, "localhost") == 0)
    return FALSE;
  inet = g_inet_address_new_from_string (address);
  return inet != NULL && !g_inet_address_get_is_loopback (inet);
}

int
winnow_cli_serve (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(WinnowServer) server = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *bind = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token_path = NULL;
  g_autofree char *uri = NULL;
  gboolean show_token = FALSE;
  gboolean regenerate = FALSE;
  gboolean created = FALSE;
  int port = WINNOW_SERVER_DEFAULT_PORT;
  WinnowCliCommon common = { 0 };
  guint sigint, sigterm;
  GOptionEntry entries[] = {
    { "port", 'p', 0, G_OPTION_ARG_INT, &port,
      N_("Listen on PORT (default: 8717; 0 lets the system choose)"), N_("PORT") },
    { "bind", 'b', 0, G_OPTION_ARG_STRING, &bind,
      N_("Listen on the IP address ADDR (default: 127.0.0.1, this machine only)"), N_("ADDR") },
    { "show-token", 0, 0, G_OPTION_ARG_NONE, &show_token,
      N_("Print the API token (made if there is none yet) and exit"), NULL },
    { "regenerate-token", 0, 0, G_OPTION_ARG_NONE, &regenerate,
      N_("Replace the API token with a new one; clients holding the old one are refused"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (NULL,
                                       _("Serve the HTTP API: compression previews, filters, settings "
                                         "and savings for dashboards and agents."),
                                       _("Every request needs the header “Authorization: Bearer "
                                         "TOKEN”; the token lives in DATA_DIR/api-token (mode 0600) "
                                         "and is made on first start. Routes:\n"
                                         "  GET|PUT /api/context/rtk/config\n"
                                         "  GET     /api/context/rtk/filters\n"
                                         "  POST    /api/context/rtk/test\n"
                                         "  GET     /api/context/rtk/raw-output/ID\n"
                                         "  POST    /api/compression/preview\n"
                                         "  GET|PUT /api/settings/compression\n"
                                         "  GET     /api/analytics/compression?since=24h|7d|30d|all\n\n"
                                         "Exit status: 0 when stopped by a signal or after "
                                         "--show-token, 1 if the server cannot start, 2 on a usage "
                                         "error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "serve", &argc, &argv))
    return WINNOW_EXIT_USAGE;

  if (argc > 1)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("serve", _("unexpected argument “%s”"), argv[1]);
    }
  if (port < 0 || port > 65535)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("serve", _("the port must be between 0 and 65535"));
    }

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);

  token_path = winnow_server_token_path (winnow_context_get_data_dir (ctx));
  token = winnow_server_load_token (winnow_context_get_data_dir (ctx), regenerate, &created, &error);
  if (token == NULL)
    {
      g_printerr ("winnow serve: %s\n", error->message);
      return WINNOW_EXIT_FAILURE;
    }

  if (show_token)
    {
      g_print ("%s\n", token);
      return WINNOW_EXIT_OK;
    }

  if (created)
    g_printerr (_("A new API token was written to %s (“winnow serve --show-token” prints it).\n"),
                token_path);

  if (is_exposed (bind))
    g_printerr (_("Warning: listening on %s, which other machines may reach. The token is the "
                  "only protection and travels unencrypted over HTTP.\n"), bind);

  server = winnow_server_new (ctx, token);
  if (!winnow_server_start (server, bind, port, &error))
    {
      g_printerr ("winnow serve: %s\n", error->message);
      return WINNOW_EXIT_FAILURE;
    }

  uri = winnow_server_dup_uri (server);
  g_print (_("Winnow API listening on %s (token in %s). Stop with Ctrl+C.\n"), uri, token_path);

  loop = g_main_loop_new (NULL, FALSE);
  sigint = g_unix_signal_add (SIGINT, quit_cb, loop);
  sigterm = g_unix_signal_add (SIGTERM, quit_cb, loop);
  g_main_loop_run (loop);
  g_source_remove (sigint);
  g_source_remove (sigterm);

  winnow_server_stop (server);
  return WINNOW_EXIT_OK;
}
