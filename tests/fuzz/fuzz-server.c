/* fuzz-server.c — the HTTP API's handlers on arbitrary request bodies
 *
 * libsoup parses HTTP; what is ours is everything after: each route's reading of its JSON body,
 * path argument and query. The first byte picks a route, as the server's router would; for
 * routes with a body the rest is the body, for the raw-output route the path argument and for
 * analytics the query string. The route runs in-process on a server built over a temporary
 * data folder (with its database, so events and raw outputs are recorded too), exactly as a
 * worker thread runs it, and must always answer with a JSON document.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "winnow.h"
#include "winnow-server-private.h"

#include "fuzz-util.h"

static const WinnowServerRouteFunc routes[] = {
  _winnow_server_route_preview,
  _winnow_server_route_rtk_test,
  _winnow_server_route_put_settings,
  _winnow_server_route_put_rtk_config,
  _winnow_server_route_raw_output,
  _winnow_server_route_analytics,
  _winnow_server_route_get_settings,
  _winnow_server_route_get_rtk_config,
  _winnow_server_route_get_filters,
};

/* built once, like the running server */
static char *data_dir;
static char *settings_path;
static WinnowServer *server;
static WinnowPipeline *pipeline;
static WinnowStore *store;

static void
set_up (void)
{
  g_autoptr(WinnowContext) context = NULL;
  g_autoptr(GError) error = NULL;

  data_dir = g_dir_make_tmp ("winnow-fuzz-server-XXXXXX", &error);
  g_assert_no_error (error);
  settings_path = g_build_filename (data_dir, "settings.json", NULL);
  context = winnow_context_new (data_dir, NULL);
  server = winnow_server_new (context, "fuzz");
  pipeline = winnow_pipeline_new (context);
  store = winnow_store_open_for_context (context, &error);
  g_assert_no_error (error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  WinnowServerJob job = { 0 };
  g_autofree char *answer = NULL;
  FuzzReader reader;
  WinnowServerRouteFunc route;
  const char *rest;
  gsize length;

  if (server == NULL)
    set_up ();
  /* every input starts from the same settings: a PUT before must not change the next run */
  g_unlink (settings_path);

  fuzz_reader_init (&reader, data, size);
  route = routes[fuzz_reader_byte (&reader) % G_N_ELEMENTS (routes)];
  rest = fuzz_reader_rest (&reader, &length);

  job.server = server;
  job.pipeline = g_object_ref (pipeline);
  job.store = store;
  job.status = SOUP_STATUS_OK;
  if (route == _winnow_server_route_raw_output)
    {
      job.path_arg = g_strndup (rest, length);
    }
  else if (route == _winnow_server_route_analytics)
    {
      g_autofree char *query = g_strndup (rest, length);

      job.query = g_uri_parse_params (query, -1, "&", G_URI_PARAMS_NONE, NULL);
    }
  else
    {
      job.body = g_bytes_new (rest, length);
    }

  route (&job);

  g_assert_cmpuint (job.status, >=, 200);
  g_assert_cmpuint (job.status, <, 600);
  if (job.response_text != NULL)
    {
      /* a route that wrote its answer itself (rtk/test): it must still be one JSON document */
      g_autoptr(JsonParser) parser = json_parser_new ();

      g_assert_null (job.response);
      g_assert_true (json_parser_load_from_data (parser, job.response_text,
                                                 job.response_length, NULL));
    }
  else
    {
      g_assert_nonnull (job.response);
      answer = json_to_string (job.response, FALSE);
      g_assert_nonnull (answer);
    }

  g_clear_object (&job.pipeline);
  g_clear_pointer (&job.body, g_bytes_unref);
  g_clear_pointer (&job.query, g_hash_table_unref);
  g_clear_pointer (&job.path_arg, g_free);
  g_clear_pointer (&job.response, json_node_unref);
  g_clear_pointer (&job.response_text, g_free);

  return 0;
}
