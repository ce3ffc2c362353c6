/* test-server.c — the HTTP API, through a real SoupSession against a real SoupServer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server runs on an ephemeral loopback port in a thread of its own with its own
 * GMainContext, as `winnow serve` runs it; the test talks to it over TCP from the main thread.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>
#include <sys/stat.h>

#include "test-util.h"
#include "winnow.h"
#include "winnow-server-private.h"

typedef struct
{
  char         *data_dir;
  char         *token;
  gsize         max_body_size;
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  GMutex        lock;
  GCond         cond;
  gboolean      ready;
  guint         port;
  SoupSession  *session;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->data_dir = g_dir_make_tmp ("winnow-server-XXXXXX", NULL);
  f->token = winnow_server_load_token (f->data_dir, FALSE, NULL, &error);
  g_assert_no_error (error);
  f->max_body_size = WINNOW_SERVER_DEFAULT_MAX_BODY_SIZE;
  g_mutex_init (&f->lock);
  g_cond_init (&f->cond);
  f->session = soup_session_new_with_options ("max-conns", 64, "max-conns-per-host", 32, NULL);
}

static gpointer
server_thread (gpointer data)
{
  Fixture *f = data;
  g_autoptr(WinnowContext) context = winnow_context_new (f->data_dir, NULL);
  g_autoptr(WinnowServer) server = NULL;
  g_autoptr(GError) error = NULL;

  g_main_context_push_thread_default (f->context);

  server = winnow_server_new (context, f->token);
  winnow_server_set_max_body_size (server, f->max_body_size);
  g_assert_true (winnow_server_start (server, "127.0.0.1", 0, &error));
  g_assert_no_error (error);
  g_assert_true (winnow_server_get_running (server));

  g_mutex_lock (&f->lock);
  f->port = winnow_server_get_port (server);
  f->ready = TRUE;
  g_cond_signal (&f->cond);
  g_mutex_unlock (&f->lock);

  g_main_loop_run (f->loop);

  winnow_server_stop (server);
  g_assert_false (winnow_server_get_running (server));
  g_main_context_pop_thread_default (f->context);
  return NULL;
}

/* After any preparation of the data directory: the server reads it when it starts. */
static void
start_server (Fixture *f)
{
  f->context = g_main_context_new ();
  f->loop = g_main_loop_new (f->context, FALSE);
  f->thread = g_thread_new ("server", server_thread, f);

  g_mutex_lock (&f->lock);
  while (!f->ready)
    g_cond_wait (&f->cond, &f->lock);
  g_mutex_unlock (&f->lock);
  g_assert_cmpuint (f->port, >, 0);
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->session);
  if (f->thread != NULL)
    {
      g_main_context_invoke (f->context, quit_loop, f->loop);
      g_thread_join (f->thread);
      g_main_loop_unref (f->loop);
      g_main_context_unref (f->context);
    }
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
  g_free (f->token);
  g_mutex_clear (&f->lock);
  g_cond_clear (&f->cond);
}

static SoupMessage *
new_message (Fixture    *f,
             const char *method,
             const char *path,
             const char *body,
             const char *token)
{
  g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:%u%s", f->port, path);
  SoupMessage *msg = soup_message_new (method, uri);

  g_assert_nonnull (msg);
  if (token != NULL)
    {
      g_autofree char *value = g_strdup_printf ("Bearer %s", token);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", value);
    }
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    }
  return msg;
}

/* Sends, checks the status and that the answer is JSON, and returns it. */
static JsonNode *
send_message (Fixture     *f,
              SoupMessage *msg,
              guint        status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = soup_session_send_and_read (f->session, msg, NULL, &error);
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize length;
  const char *data;

  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &length);
  if (soup_message_get_status (msg) != status)
    g_test_message ("answer: %.*s", (int) MIN (length, 2000), data);
  g_assert_cmpuint (soup_message_get_status (msg), ==, status);
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL),
                   ==, "application/json");
  g_assert_true (json_parser_load_from_data (parser, data, length, &error));
  g_assert_no_error (error);

  return json_node_copy (json_parser_get_root (parser));
}

static JsonNode *
request (Fixture    *f,
         const char *method,
         const char *path,
         const char *body,
         guint       status)
{
  g_autoptr(SoupMessage) msg = new_message (f, method, path, body, f->token);

  return send_message (f, msg, status);
}

/* Asserts an error document: {error: {code, message[, path]}}. */
static void
assert_error (JsonNode   *node,
              const char *code,
              const char *path)
{
  JsonObject *error = json_object_get_object_member (json_node_get_object (node), "error");

  g_assert_nonnull (error);
  g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, code);
  g_assert_cmpuint (strlen (json_object_get_string_member (error, "message")), >, 0);
  if (path != NULL)
    g_assert_cmpstr (json_object_get_string_member_with_default (error, "path", NULL), ==, path);
}

static JsonObject *
object (JsonNode *node)
{
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_node_get_object (node);
}

/* A vitest run: 400 passing files and one failure */
static char *
make_test_log (guint n_pass)
{
  GString *log = g_string_new (" RUN  v1.6.0 /home/dev/app\n\n");

  for (guint i = 0; i < n_pass; i++)
    g_string_append_printf (log, " ✓ tests/unit/module%03u.test.ts  (%u tests) %ums\n", i, 3 + i % 7, 4 + i % 50);
  g_string_append (log, " ❯ tests/unit/parser.test.ts  (4 tests | 1 failed) 12ms\n"
                        "   × parser > keeps errors\n"
                        "     → expected 'a' to be 'b'\n"
                        "\n"
                        " FAIL  tests/unit/parser.test.ts > parser > keeps errors\n"
                        "AssertionError: expected 'a' to be 'b'\n"
                        " ❯ tests/unit/parser.test.ts:42:18\n\n");
  g_string_append_printf (log, " Test Files  1 failed | %u passed (%u)\n", n_pass, n_pass + 1);
  g_string_append_printf (log, "      Tests  1 failed | %u passed (%u)\n", n_pass * 3, n_pass * 3 + 1);
  return g_string_free (log, FALSE);
}

static char *
rtk_test_body (const char *text,
               const char *command,
               const char *config)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text);
  if (command != NULL)
    {
      json_builder_set_member_name (builder, "command");
      json_builder_add_string_value (builder, command);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);

  if (config == NULL)
    return g_steal_pointer (&json);
  /* splice the config in as written */
  json[strlen (json) - 1] = '\0';
  return g_strdup_printf ("%s,\"config\":%s}", json, config);
}

/* The events in the database, once the analytics route has flushed the server's queue. */
static gint64
count_api_events (Fixture *f)
{
  g_autofree char *path = winnow_store_default_path (f->data_dir);
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonNode) flushed = request (f, "GET", "/api/analytics/compression?since=all", NULL,
                                         200);

  store = winnow_store_open (path, NULL);
  g_assert_nonnull (store);
  rows = winnow_store_query (store, WINNOW_STORE_GROUP_NONE, 0, 0, NULL);
  return ((WinnowSavingsRow *) g_ptr_array_index (rows, 0))->events;
}

/* ---- the token ----------------------------------------------------------------------------- */

static void
test_token_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-token-XXXXXX", NULL);
  g_autofree char *path = winnow_server_token_path (dir);
  g_autofree char *first = NULL;
  g_autofree char *again = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gboolean created = FALSE;
  GStatBuf st;

  first = winnow_server_load_token (dir, FALSE, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  g_assert_cmpuint (strlen (first), ==, 64);
  for (guint i = 0; i < 64; i++)
    g_assert_true (g_ascii_isxdigit (first[i]) && !g_ascii_isupper (first[i]));

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, first));

  again = winnow_server_load_token (dir, FALSE, &created, &error);
  g_assert_no_error (error);
  g_assert_false (created);
  g_assert_cmpstr (again, ==, first);

  fresh = winnow_server_load_token (dir, TRUE, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  g_assert_cmpstr (fresh, !=, first);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* a file others can read is narrowed */
  g_assert_cmpint (g_chmod (path, 0644), ==, 0);
  g_test_expect_message ("winnow-server", G_LOG_LEVEL_WARNING, "*could be read by other users*");
  g_clear_pointer (&again, g_free);
  again = winnow_server_load_token (dir, FALSE, NULL, &error);
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, fresh);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* a file that holds no token is an error, not replaced behind the clients' backs */
  test_util_write_file (path, "not a token\n", -1);
  g_clear_pointer (&again, g_free);
  again = winnow_server_load_token (dir, FALSE, NULL, &error);
  g_assert_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_TOKEN);
  g_assert_null (again);

  test_util_remove_tree (dir);
}

static void
test_start_stop (void)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-start-XXXXXX", NULL);
  g_autoptr(WinnowContext) context = winnow_context_new (dir, NULL);
  g_autoptr(WinnowServer) server = winnow_server_new (context, "0123");
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;

  g_assert_false (winnow_server_get_running (server));
  g_assert_null (winnow_server_dup_uri (server));

  g_assert_false (winnow_server_start (server, "not-an-address", 0, &error));
  g_assert_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_ADDRESS);
  g_clear_error (&error);

  g_assert_true (winnow_server_start (server, NULL, 0, &error));
  g_assert_no_error (error);
  g_assert_true (winnow_server_get_running (server));
  g_assert_cmpuint (winnow_server_get_port (server), >, 0);
  uri = winnow_server_dup_uri (server);
  g_assert_true (g_str_has_prefix (uri, "http://127.0.0.1:"));

  g_assert_false (winnow_server_start (server, NULL, 0, &error));
  g_assert_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_RUNNING);

  winnow_server_stop (server);
  g_assert_false (winnow_server_get_running (server));
  g_assert_cmpuint (winnow_server_get_port (server), ==, 0);

  g_clear_object (&server);
  test_util_remove_tree (dir);
}

/* ---- protocol errors ----------------------------------------------------------------------- */

static void
test_auth (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *wrong = g_strdup (f->token);
  g_autofree char *longer = g_strconcat (f->token, "0", NULL);
  g_autofree char *upper = g_ascii_strup (f->token, -1);
  const char *paths[] = { "/api/context/rtk/config", "/api/nothing/here", "/api/context/rtk/test" };

  start_server (f);
  wrong[10] = wrong[10] == 'a' ? 'b' : 'a';

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(SoupMessage) msg = new_message (f, "GET", paths[i], NULL, NULL);
      g_autoptr(JsonNode) node = send_message (f, msg, 401);

      assert_error (node, "unauthorized", NULL);
      g_assert_cmpstr (soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                     "WWW-Authenticate"),
                       ==, "Bearer realm=\"winnow\"");
    }

  {
    const char *tokens[] = { wrong, longer, upper, "", "Bearer" };

    for (guint i = 0; i < G_N_ELEMENTS (tokens); i++)
      {
        g_autoptr(SoupMessage) msg = new_message (f, "GET", "/api/context/rtk/config", NULL, tokens[i]);
        g_autoptr(JsonNode) node = send_message (f, msg, 401);

        assert_error (node, "unauthorized", NULL);
      }
  }

  /* the right token under another scheme is still refused */
  {
    g_autoptr(SoupMessage) msg = new_message (f, "GET", "/api/context/rtk/config", NULL, NULL);
    g_autofree char *basic = g_strdup_printf ("Basic %s", f->token);
    g_autoptr(JsonNode) node = NULL;

    soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", basic);
    node = send_message (f, msg, 401);
    assert_error (node, "unauthorized", NULL);
  }

  /* a refused POST is refused before its body is looked at */
  {
    g_autoptr(SoupMessage) msg = new_message (f, "POST", "/api/context/rtk/test", "{not json", wrong);
    g_autoptr(JsonNode) node = send_message (f, msg, 401);

    assert_error (node, "unauthorized", NULL);
  }

  {
    g_autoptr(JsonNode) node = request (f, "GET", "/api/context/rtk/config", NULL, 200);

    g_assert_true (json_object_has_member (object (node), "intensity"));
  }
}

static void
test_not_found_and_method (Fixture       *f,
                           gconstpointer  data)
{
  const char *missing[] = { "/", "/api", "/api/context/rtk/config/", "/api/context/rtk/configs",
                            "/API/context/rtk/config" };

  start_server (f);

  for (guint i = 0; i < G_N_ELEMENTS (missing); i++)
    {
      g_autoptr(JsonNode) node = request (f, "GET", missing[i], NULL, 404);

      assert_error (node, "not_found", NULL);
    }

  {
    g_autoptr(SoupMessage) msg = new_message (f, "DELETE", "/api/context/rtk/config", NULL, f->token);
    g_autoptr(JsonNode) node = send_message (f, msg, 405);

    assert_error (node, "method_not_allowed", NULL);
    g_assert_cmpstr (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Allow"),
                     ==, "GET, PUT");
  }
  {
    g_autoptr(SoupMessage) msg = new_message (f, "GET", "/api/context/rtk/test", NULL, f->token);
    g_autoptr(JsonNode) node = send_message (f, msg, 405);

    assert_error (node, "method_not_allowed", NULL);
    g_assert_cmpstr (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Allow"),
                     ==, "POST");
  }
  {
    g_autoptr(SoupMessage) msg = new_message (f, "POST", "/api/analytics/compression", "{}", f->token);
    g_autoptr(JsonNode) node = send_message (f, msg, 405);

    assert_error (node, "method_not_allowed", NULL);
    g_assert_cmpstr (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Allow"),
                     ==, "GET");
  }

  /* JSON is required where a body is */
  {
    g_autoptr(SoupMessage) msg = new_message (f, "POST", "/api/context/rtk/test", NULL, f->token);
    g_autoptr(GBytes) bytes = g_bytes_new_static ("text=hello", 10);
    g_autoptr(JsonNode) node = NULL;

    soup_message_set_request_body_from_bytes (msg, "application/x-www-form-urlencoded", bytes);
    node = send_message (f, msg, 415);
    assert_error (node, "unsupported_media_type", NULL);
  }
}

static void
test_too_large (Fixture       *f,
                gconstpointer  data)
{
  gsize size = 9 * 1024 * 1024;
  g_autofree char *big = g_malloc (size + 1);

  start_server (f);

  memset (big, 'a', size);
  memcpy (big, "{\"text\":\"", 9);
  memcpy (big + size - 2, "\"}", 2);
  big[size] = '\0';

  /* Content-Length over the limit */
  {
    g_autoptr(JsonNode) node = request (f, "POST", "/api/context/rtk/test", big, 413);

    assert_error (node, "payload_too_large", NULL);
  }

  /* the same with Expect: 100-continue: refused before a byte of the body is sent */
  {
    g_autoptr(SoupMessage) msg = new_message (f, "POST", "/api/context/rtk/test", big, f->token);
    g_autoptr(JsonNode) node = NULL;

    soup_message_headers_set_expectations (soup_message_get_request_headers (msg),
                                           SOUP_EXPECTATION_CONTINUE);
    node = send_message (f, msg, 413);
    assert_error (node, "payload_too_large", NULL);
  }

  /* chunked, with no length up front: counted as it arrives */
  {
    g_autoptr(SoupMessage) msg = new_message (f, "POST", "/api/context/rtk/test", NULL, f->token);
    g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (g_memdup2 (big, size), size, g_free);
    g_autoptr(JsonNode) node = NULL;

    soup_message_set_request_body (msg, "application/json", stream, -1);
    node = send_message (f, msg, 413);
    assert_error (node, "payload_too_large", NULL);
  }

  /* and the server still answers */
  {
    g_autoptr(JsonNode) node = request (f, "GET", "/api/context/rtk/config", NULL, 200);
  }
}

static void
test_bad_bodies (Fixture       *f,
                 gconstpointer  data)
{
  static const struct { const char *path, *body, *code, *json_path; } cases[] = {
    { "/api/context/rtk/test", "{\"text\": ", "invalid_json", "$" },
    { "/api/context/rtk/test", "[1, 2]", "invalid_body", "$" },
    { "/api/context/rtk/test", "{}", "invalid_body", "$.text" },
    { "/api/context/rtk/test", "{\"text\": 42}", "invalid_body", "$.text" },
    { "/api/context/rtk/test", "{\"text\": \"\"}", "invalid_body", "$.text" },
    { "/api/context/rtk/test", "{\"text\": \"x\", \"comand\": \"ls\"}", "invalid_body", "$.comand" },
    { "/api/context/rtk/test", "{\"text\": \"x\", \"config\": []}", "invalid_body", "$.config" },
    { "/api/context/rtk/test", "{\"text\": \"x\", \"config\": {\"intensity\": \"extreme\"}}",
      "invalid_settings", "$.config.intensity" },
    { "/api/context/rtk/test", "{\"text\": \"x\", \"config\": {\"intesity\": \"minimal\"}}",
      "invalid_settings", "$.config.intesity" },
    { "/api/compression/preview", "{\"mode\": \"rtk\"}", "invalid_body", "$.messages" },
    { "/api/compression/preview", "{\"messages\": []}", "invalid_body", "$.messages" },
    { "/api/compression/preview", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"content\": \"x\"}]}",
      "invalid_body", "$.messages[1].role" },
    { "/api/compression/preview", "{\"messages\": [{\"role\": \"user\", \"content\": 7}]}",
      "invalid_body", "$.messages[0].content" },
    { "/api/compression/preview", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"mode\": \"max\"}",
      "invalid_body", "$.mode" },
    { "/api/compression/preview", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], "
      "\"config\": {\"rtkConfig\": {\"maxLinesPerResult\": -4}}}",
      "invalid_settings", "$.config.rtkConfig.maxLinesPerResult" },
  };

  start_server (f);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = NULL;

      g_test_message ("%s %s", cases[i].path, cases[i].body);
      node = request (f, "POST", cases[i].path, cases[i].body, 400);
      assert_error (node, cases[i].code, cases[i].json_path);
    }

  g_assert_cmpint (count_api_events (f), ==, 0);
}

/* Found by fuzzing the handlers: json-glib's parser recurses once per level, so a body of a
 * million "[" (2 MB, well under the size limit) overflowed a worker's stack and took the server
 * down; a settings file nested as deep did the same on the next PUT. A body of two documents in
 * a row was taken for one and leaked the other. All are refused now, and an out-of-range
 * number in the settings is an invalid setting, not an undefined conversion. */
static void
test_deep_bodies (Fixture       *f,
                  gconstpointer  data)
{
  static const struct { const char *method, *path; } routes[] = {
    { "POST", "/api/context/rtk/test" },
    { "POST", "/api/compression/preview" },
    { "PUT", "/api/settings/compression" },
    { "PUT", "/api/context/rtk/config" },
  };
  g_autofree char *settings_path = g_build_filename (f->data_dir, "settings.json", NULL);
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 1000000; i++)
    g_string_append_c (deep, i % 2 ? '[' : '{');
  start_server (f);

  for (guint i = 0; i < G_N_ELEMENTS (routes); i++)
    {
      g_autoptr(JsonNode) node = request (f, routes[i].method, routes[i].path, deep->str, 400);

      assert_error (node, "invalid_json", "$");
    }

  /* json-glib 1.6 takes two documents in a row for one, and leaks one of them */
  for (guint i = 0; i < G_N_ELEMENTS (routes); i++)
    {
      g_autoptr(JsonNode) node = request (f, routes[i].method, routes[i].path,
                                          "{\"text\": \"a\"} {\"text\": [\"b\"]}", 400);

      assert_error (node, "invalid_json", "$");
    }
  {
    g_autoptr(JsonNode) node = request (f, "POST", "/api/context/rtk/test",
                                        "1{\"text\": \"a\"}", 400);

    assert_error (node, "invalid_json", "$");
  }

  {
    g_autoptr(JsonNode) node = request (f, "PUT", "/api/settings/compression",
                                        "{\"autoTriggerTokens\": 1e300}", 400);

    assert_error (node, "invalid_settings", "$.autoTriggerTokens");
  }

  g_file_set_contents (settings_path, deep->str, deep->len, &error);
  g_assert_no_error (error);
  {
    g_autoptr(JsonNode) node = request (f, "PUT", "/api/context/rtk/config",
                                        "{\"intensity\": \"minimal\"}", 409);

    assert_error (node, "settings_unreadable", NULL);
  }

  /* still serving */
  {
    g_autoptr(JsonNode) node = request (f, "GET", "/api/context/rtk/filters", NULL, 200);
  }
}

/* ---- routes -------------------------------------------------------------------------------- */

static void
test_rtk_test (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *log = make_test_log (400);
  g_autofree char *body = rtk_test_body (log, "npx vitest run", NULL);
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root, *detection;
  JsonArray *array;
  const char *text;

  start_server (f);
  node = request (f, "POST", "/api/context/rtk/test", body, 200);
  root = object (node);

  detection = json_object_get_object_member (root, "detection");
  g_assert_cmpstr (json_object_get_string_member (detection, "type"), ==, "test-vitest");
  g_assert_cmpstr (json_object_get_string_member (detection, "command"), ==, "npx vitest run");
  g_assert_cmpstr (json_object_get_string_member (detection, "category"), ==, "test");
  g_assert_cmpfloat (json_object_get_double_member (detection, "confidence"), >, 0.5);

  text = json_object_get_string_member (root, "text");
  g_assert_true (json_object_get_boolean_member (root, "compressed"));
  g_assert_nonnull (strstr (text, "AssertionError: expected 'a' to be 'b'"));
  g_assert_nonnull (strstr (text, "Test Files  1 failed"));
  g_assert_cmpuint (strlen (text), <, strlen (log) / 4);
  g_assert_cmpint (json_object_get_int_member (root, "originalTokens"), ==, winnow_tokens_count (log, -1));
  g_assert_cmpint (json_object_get_int_member (root, "compressedTokens"), ==, winnow_tokens_count (text, -1));
  g_assert_cmpint (json_object_get_int_member (root, "tokensSaved"), ==,
                   json_object_get_int_member (root, "originalTokens") -
                   json_object_get_int_member (root, "compressedTokens"));
  g_assert_cmpstr (json_object_get_string_member (root, "tokenCounter"), ==, "o200k_base");

  array = json_object_get_array_member (root, "techniquesUsed");
  g_assert_cmpuint (json_array_get_length (array), >=, 1);
  g_assert_true (g_str_has_prefix (json_array_get_string_element (array, 0), "rtk-filter:"));
  array = json_object_get_array_member (root, "rulesApplied");
  g_assert_cmpuint (json_array_get_length (array), >=, 1);
  /* rawOutputRetention is never by default */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "rawOutputPointers")),
                    ==, 0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "filter"), "id"),
                   ==, "test-vitest");

  g_assert_cmpint (count_api_events (f), ==, 1);

  /* a request's own config applies to that request only */
  {
    g_autofree char *off_body = rtk_test_body (log, "npx vitest run", "{\"enabled\": false}");
    g_autoptr(JsonNode) off = request (f, "POST", "/api/context/rtk/test", off_body, 200);
    g_autoptr(JsonNode) again = request (f, "POST", "/api/context/rtk/test", body, 200);
    g_autoptr(JsonNode) config = request (f, "GET", "/api/context/rtk/config", NULL, 200);

    g_assert_false (json_object_get_boolean_member (object (off), "compressed"));
    g_assert_cmpstr (json_object_get_string_member (object (off), "text"), ==, log);
    g_assert_true (json_object_get_boolean_member (object (again), "compressed"));
    g_assert_true (json_object_get_boolean_member (object (config), "enabled"));
  }

  g_assert_cmpint (count_api_events (f), ==, 3);
}

/* The server reads the usual body (an object of strings) with a reader of its own and writes
 * rtk/test's answer itself: both must agree with json-glib to the byte. Each body's text is
 * what json-glib makes of it, and the answer carries that text as json-glib's generator
 * writes it (escapes, the DEL it escapes, the 0x1f it leaves, surrogate pairs, a quote or a
 * backslash at any offset of an eight-byte word). Short plain text passes unchanged. */
static void
test_body_strings (Fixture       *f,
                   gconstpointer  data)
{
  static const char * const bodies[] = {
    "{\"text\": \"hello world\"}",
    "{\"command\": null, \"text\": \"tab\\there \\\"quoted\\\" back\\\\slash \\/ \\b\\f\\r\\nend\"}",
    "{\"text\": \"caf\\u00e9 \\u20AC \\ud83d\\ude00 café ✓\"}",
    "{\"text\": \"\\u0001\\u001f\\u007f\\u0008 controls\"}",
    "{\"text\":\"0123456\\\"89abcdef\\\\0123456789abcde\\\"0123456789\"}",
    "{\"text\":\"0123456789abcdef0123456789abcdef0123456789abcdef\\n\"}",
    "  {\r\n  \"text\" :\t\"spaced out\" ,\n \"command\" : \"echo hi\"\n}\n",
    "{\"text\": \"first\", \"text\": \"second\"}",
    "\xEF\xBB\xBF{\"text\": \"after a byte-order mark\"}",
  };

  start_server (f);

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      g_autoptr(SoupMessage) msg = new_message (f, "POST", "/api/context/rtk/test", bodies[i], f->token);
      g_autoptr(JsonParser) expected_parser = json_parser_new ();
      g_autoptr(JsonParser) answer_parser = json_parser_new ();
      g_autoptr(GBytes) answer = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) text_node = NULL;
      g_autofree char *written = NULL;
      g_autofree char *member = NULL;
      g_autofree char *answer_text = NULL;
      const char *expected;

      g_test_message ("body %s", bodies[i]);
      g_assert_true (json_parser_load_from_data (expected_parser, bodies[i], -1, &error));
      g_assert_no_error (error);
      expected = json_object_get_string_member (json_node_get_object (json_parser_get_root (expected_parser)), "text");

      answer = soup_session_send_and_read (f->session, msg, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
      answer_text = g_strndup (g_bytes_get_data (answer, NULL), g_bytes_get_size (answer));
      g_assert_true (json_parser_load_from_data (answer_parser, answer_text, -1, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json_parser_get_root (answer_parser)), "text"),
                       ==, expected);

      text_node = json_node_init_string (json_node_alloc (), expected);
      written = json_to_string (text_node, FALSE);
      member = g_strconcat (",\"text\":", written, ",\"compressed\":false,", NULL);
      if (strstr (answer_text, member) == NULL)
        g_test_message ("answer: %s", answer_text);
      g_assert_nonnull (strstr (answer_text, member));
    }
}

/* With rawOutputRetention, the answer points to the redacted raw output, which the raw-output
 * route then serves; its event links to it. */
static void
test_rtk_test_raw_pointers (Fixture       *f,
                            gconstpointer  data)
{
  const char *token = "ghp_kbjhfHmPkyOLvVIuSB6ql4pc6tmf3CTijNLG";
  g_autofree char *base = make_test_log (400);
  g_autofree char *log = g_strdup_printf ("GITHUB_TOKEN=%s\n%s", token, base);
  g_autofree char *body = rtk_test_body (log, "npx vitest run",
                                         "{\"rawOutputRetention\": \"failures\"}");
  g_autofree char *cut_body = rtk_test_body (log, "npx vitest run",
                                             "{\"rawOutputRetention\": \"always\", "
                                             "\"rawOutputMaxBytes\": 1024}");
  g_autofree char *db = winnow_store_default_path (f->data_dir);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) raw = NULL;
  g_autoptr(JsonNode) cut = NULL;
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(WinnowRawOutputInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *pointers;
  JsonObject *pointer, *root;
  const char *id, *text;

  start_server (f);
  node = request (f, "POST", "/api/context/rtk/test", body, 200);
  pointers = json_object_get_array_member (object (node), "rawOutputPointers");
  g_assert_cmpuint (json_array_get_length (pointers), ==, 1);
  pointer = json_array_get_object_element (pointers, 0);
  id = json_object_get_string_member (pointer, "id");
  g_assert_true (winnow_raw_output_id_is_valid (id));
  g_assert_false (json_object_get_boolean_member (pointer, "truncated"));
  g_assert_cmpint (json_object_get_int_member (pointer, "originalBytes"), ==, strlen (log));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (pointer, "redactions"),
                                               "github-token"), ==, 1);

  raw = request (f, "GET", json_object_get_string_member (pointer, "url"), NULL, 200);
  root = object (raw);
  text = json_object_get_string_member (root, "text");
  g_assert_cmpstr (json_object_get_string_member (root, "id"), ==, id);
  g_assert_true (json_object_get_boolean_member (root, "intact"));
  g_assert_cmpstr (json_object_get_string_member (root, "sha256"), ==,
                   json_object_get_string_member (pointer, "sha256"));
  g_assert_cmpint (json_object_get_int_member (root, "bytes"), ==,
                   json_object_get_int_member (pointer, "bytes"));
  g_assert_null (strstr (text, token));
  g_assert_true (g_str_has_prefix (text, "GITHUB_TOKEN=[REDACTED_GITHUB_TOKEN]\n RUN  v1.6.0"));
  g_assert_nonnull (strstr (text, "module399.test.ts"));
  g_assert_cmpstr (json_object_get_string_member (root, "command"), ==, "npx vitest run");

  /* the event points to it and it to the event */
  store = winnow_store_open (db, &error);
  g_assert_no_error (error);
  info = winnow_store_lookup_raw_output (store, id, &error);
  g_assert_no_error (error);
  g_assert_cmpint (info->event_id, >, 0);
  g_assert_cmpint (json_object_get_int_member (root, "eventId"), ==, info->event_id);
  g_assert_cmpstr (info->source, ==, "api");

  /* a request's own rawOutputMaxBytes cuts it */
  cut = request (f, "POST", "/api/context/rtk/test", cut_body, 200);
  pointers = json_object_get_array_member (object (cut), "rawOutputPointers");
  g_assert_cmpuint (json_array_get_length (pointers), ==, 1);
  pointer = json_array_get_object_element (pointers, 0);
  g_assert_true (json_object_get_boolean_member (pointer, "truncated"));
  g_assert_cmpint (json_object_get_int_member (pointer, "bytes"), <=, 1024);
  g_assert_cmpint (count_api_events (f), ==, 2);
}

/* Big texts: report where they part, not the whole of them. */
static void
assert_same_text (const char *actual,
                  const char *expected)
{
  gsize i = 0;

  while (actual[i] != '\0' && actual[i] == expected[i])
    i++;
  if (actual[i] != expected[i])
    g_error ("texts part at byte %zu (lengths %zu, %zu): “%.40s” vs “%.40s”", i, strlen (actual),
             strlen (expected), actual + (i > 20 ? i - 20 : 0), expected + (i > 20 ? i - 20 : 0));
}

/* Every segment in order rebuilds both texts: same+removed is the original, same+added the
 * compressed. */
static void
assert_diff_rebuilds (JsonArray  *diff,
                      const char *original,
                      const char *compressed)
{
  g_autoptr(GString) left = g_string_new (NULL);
  g_autoptr(GString) right = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (diff); i++)
    {
      JsonObject *segment = json_array_get_object_element (diff, i);
      const char *type = json_object_get_string_member (segment, "type");
      const char *text = json_object_get_string_member (segment, "text");

      g_assert_true (g_strv_contains ((const char *[]) { "same", "removed", "added", NULL }, type));
      g_assert_cmpuint (strlen (text), >, 0);
      if (strcmp (type, "added") != 0)
        g_string_append (left, text);
      if (strcmp (type, "removed") != 0)
        g_string_append (right, text);
    }

  assert_same_text (left->str, original);
  assert_same_text (right->str, compressed);
}

static void
test_preview (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *log = make_test_log (200);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body_node = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root, *validation;
  JsonArray *array;
  const char *original, *compressed;

  start_server (f);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, "stacked");
  json_builder_set_member_name (builder, "messages");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "user");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, "Hi there! I would really appreciate it if you could "
                                 "please take a look at the failing test in "
                                 "`tests/unit/parser.test.ts` and basically fix it. Thanks so "
                                 "much in advance!");
  json_builder_end_object (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "tool");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, log);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "config");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "rtkConfig");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "rawOutputRetention");
  json_builder_add_string_value (builder, "failures");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  body_node = json_builder_get_root (builder);
  body = json_to_string (body_node, FALSE);

  node = request (f, "POST", "/api/compression/preview", body, 200);
  root = object (node);

  original = json_object_get_string_member (root, "original");
  compressed = json_object_get_string_member (root, "compressed");
  g_assert_true (g_str_has_prefix (original, "user: Hi there!"));
  g_assert_nonnull (strstr (original, "\ntool:  RUN  v1.6.0"));
  g_assert_nonnull (strstr (compressed, "tests/unit/parser.test.ts"));
  g_assert_nonnull (strstr (compressed, "AssertionError: expected 'a' to be 'b'"));
  g_assert_null (strstr (compressed, "Thanks so much"));
  g_assert_cmpint (json_object_get_int_member (root, "originalTokens"), ==, winnow_tokens_count (original, -1));
  g_assert_cmpint (json_object_get_int_member (root, "compressedTokens"), ==, winnow_tokens_count (compressed, -1));
  g_assert_cmpint (json_object_get_int_member (root, "tokensSaved"), ==,
                   json_object_get_int_member (root, "originalTokens") -
                   json_object_get_int_member (root, "compressedTokens"));
  g_assert_cmpint (json_object_get_int_member (root, "tokensSaved"), >, 0);
  g_assert_cmpint (json_object_get_int_member (root, "savingsPct"), >, 0);
  g_assert_cmpint (json_object_get_int_member (root, "savingsPct"), <=, 100);
  g_assert_cmpstr (json_object_get_string_member (root, "mode"), ==, "stacked");
  g_assert_cmpfloat (json_object_get_double_member (root, "durationMs"), >=, 0);

  array = json_object_get_array_member (root, "techniquesUsed");
  g_assert_cmpuint (json_array_get_length (array), >=, 2);
  array = json_object_get_array_member (root, "rulesApplied");
  g_assert_cmpuint (json_array_get_length (array), >=, 2);

  assert_diff_rebuilds (json_object_get_array_member (root, "diff"), original, compressed);

  array = json_object_get_array_member (root, "preservedBlocks");
  g_assert_cmpuint (json_array_get_length (array), >, 0);
  {
    gboolean found = FALSE;

    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonObject *block = json_array_get_object_element (array, i);

        g_assert_nonnull (json_object_get_string_member (block, "kind"));
        g_assert_cmpuint (g_utf8_strlen (json_object_get_string_member (block, "preview"), -1), <=, 120);
        found |= strstr (json_object_get_string_member (block, "preview"), "tests/unit/parser.test.ts") != NULL;
      }
    g_assert_true (found);
  }

  validation = json_object_get_object_member (root, "validation");
  g_assert_true (json_object_get_boolean_member (validation, "valid"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (validation, "errors")), ==, 0);
  g_assert_nonnull (json_object_get_array_member (validation, "warnings"));
  g_assert_false (json_object_get_boolean_member (validation, "fallbackApplied"));

  /* the compressed messages, in their own shape */
  array = json_object_get_array_member (root, "messages");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);

  /* mode off changes nothing: one `same` segment */
  {
    g_autoptr(JsonNode) off = request (f, "POST", "/api/compression/preview",
                                       "{\"mode\": \"off\", \"messages\": [{\"role\": \"user\", "
                                       "\"content\": \"Could you please just check this?\"}]}", 200);
    JsonArray *diff = json_object_get_array_member (object (off), "diff");

    g_assert_cmpstr (json_object_get_string_member (object (off), "compressed"), ==,
                     json_object_get_string_member (object (off), "original"));
    g_assert_cmpint (json_object_get_int_member (object (off), "tokensSaved"), ==, 0);
    g_assert_cmpuint (json_array_get_length (diff), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (diff, 0), "type"),
                     ==, "same");
  }

  g_assert_cmpint (count_api_events (f), ==, 2);
}

static void
test_diff (void)
{
  static const char * const pairs[][2] = {
    { "", "" },
    { "a b c", "a b c" },
    { "a b c", "" },
    { "", "x y" },
    { "I would really like you to fix it", "Fix it" },
    { "one\ntwo\nthree\n", "one\n… 1 line omitted …\nthree\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr(JsonNode) diff = _winnow_server_diff (pairs[i][0], strlen (pairs[i][0]),
                                                      pairs[i][1], strlen (pairs[i][1]));

      assert_diff_rebuilds (json_node_get_array (diff), pairs[i][0], pairs[i][1]);
    }

  /* too large for the word table: by lines, and still exact */
  {
    g_autofree char *log = make_test_log (20000);
    GString *kept = g_string_new (NULL);
    g_auto(GStrv) lines = g_strsplit (log, "\n", -1);
    g_autofree char *out = NULL;
    g_autoptr(JsonNode) diff = NULL;
    gint64 start = g_get_monotonic_time ();

    for (guint i = 0; lines[i] != NULL; i++)
      if (i % 500 == 0 || strstr (lines[i], "FAIL") != NULL)
        g_string_append_printf (kept, "%s\n", lines[i]);
      else if (i % 500 == 1)
        g_string_append (kept, "… 498 lines omitted …\n");
    out = g_string_free (kept, FALSE);

    diff = _winnow_server_diff (log, strlen (log), out, strlen (out));
    assert_diff_rebuilds (json_node_get_array (diff), log, out);
    g_test_message ("line diff of %zu bytes: %.1f ms", strlen (log),
                    (g_get_monotonic_time () - start) / 1000.0);
  }
}

static void
test_rtk_config_round_trip (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->data_dir, "settings.json", NULL);
  g_autoptr(JsonNode) before = NULL;
  g_autoptr(JsonNode) put = NULL;
  g_autoptr(JsonNode) after = NULL;
  g_autofree char *file = NULL;
  g_autofree char *file_after_bad = NULL;

  /* another tool's key, and one of our own, already in the file */
  test_util_write_file (path, "{\"otherTool\": {\"keep\": true}, \"defaultMode\": \"rtk\"}", -1);
  start_server (f);

  before = request (f, "GET", "/api/context/rtk/config", NULL, 200);
  g_assert_cmpstr (json_object_get_string_member (object (before), "intensity"), ==, "standard");
  g_assert_cmpint (json_object_get_int_member (object (before), "maxLinesPerResult"), ==, 120);

  put = request (f, "PUT", "/api/context/rtk/config",
                 "{\"intensity\": \"aggressive\", \"maxLinesPerResult\": 50, "
                 "\"disabledFilters\": [\"git-status\"]}", 200);
  g_assert_cmpstr (json_object_get_string_member (object (put), "intensity"), ==, "aggressive");
  g_assert_cmpint (json_object_get_int_member (object (put), "maxLinesPerResult"), ==, 50);
  g_assert_cmpint (json_object_get_int_member (object (put), "maxCharsPerResult"), ==, 12000);

  after = request (f, "GET", "/api/context/rtk/config", NULL, 200);
  g_assert_true (json_node_equal (put, after));

  g_assert_true (g_file_get_contents (path, &file, NULL, NULL));
  g_assert_nonnull (strstr (file, "\"otherTool\""));
  g_assert_nonnull (strstr (file, "\"aggressive\""));
  g_assert_nonnull (strstr (file, "\"defaultMode\" : \"rtk\"") ? "" : strstr (file, "\"rtk\""));

  /* the filter list follows */
  {
    g_autoptr(JsonNode) filters = request (f, "GET", "/api/context/rtk/filters", NULL, 200);
    JsonArray *array = json_object_get_array_member (object (filters), "filters");
    gboolean seen = FALSE;

    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonObject *filter = json_array_get_object_element (array, i);

        if (g_strcmp0 (json_object_get_string_member (filter, "id"), "git-status") == 0)
          {
            seen = TRUE;
            g_assert_false (json_object_get_boolean_member (filter, "enabled"));
          }
      }
    g_assert_true (seen);
  }

  /* invalid values and unknown keys are refused with their path, and nothing is written */
  {
    g_autoptr(JsonNode) bad = request (f, "PUT", "/api/context/rtk/config", "{\"intensity\": \"extreme\"}", 400);
    g_autoptr(JsonNode) typo = request (f, "PUT", "/api/context/rtk/config", "{\"maxLinesPerReslt\": 3}", 400);
    g_autoptr(JsonNode) still = request (f, "GET", "/api/context/rtk/config", NULL, 200);

    assert_error (bad, "invalid_settings", "$.intensity");
    assert_error (typo, "invalid_settings", "$.maxLinesPerReslt");
    g_assert_true (json_node_equal (still, after));
    g_assert_true (g_file_get_contents (path, &file_after_bad, NULL, NULL));
    g_assert_cmpstr (file_after_bad, ==, file);
  }

  /* null puts a value back to its default */
  {
    g_autoptr(JsonNode) reset = request (f, "PUT", "/api/context/rtk/config", "{\"intensity\": null}", 200);

    g_assert_cmpstr (json_object_get_string_member (object (reset), "intensity"), ==, "standard");
    g_assert_cmpint (json_object_get_int_member (object (reset), "maxLinesPerResult"), ==, 50);
  }
}

static void
test_settings (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(JsonNode) settings = NULL;
  g_autoptr(JsonNode) put = NULL;
  JsonObject *root;
  JsonArray *warnings;

  start_server (f);

  settings = request (f, "GET", "/api/settings/compression", NULL, 200);
  root = object (settings);
  g_assert_cmpstr (json_object_get_string_member (root, "defaultMode"), ==, "stacked");
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (root, "stackedPipeline")), ==, 2);
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (root, "rtkConfig"), "enabled"));

  put = request (f, "PUT", "/api/settings/compression",
                 "{\"defaultMode\": \"rtk\", \"autoTriggerTokens\": 1000, \"futureKey\": {\"x\": 1}, "
                 "\"rtkConfig\": {\"maxCharsPerResult\": 5000}}", 200);
  root = json_object_get_object_member (object (put), "settings");
  g_assert_cmpstr (json_object_get_string_member (root, "defaultMode"), ==, "rtk");
  g_assert_cmpint (json_object_get_int_member (root, "autoTriggerTokens"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "rtkConfig"),
                                               "maxCharsPerResult"), ==, 5000);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "rtkConfig"),
                                                  "intensity"), ==, "standard");
  warnings = json_object_get_array_member (object (put), "warnings");
  g_assert_cmpuint (json_array_get_length (warnings), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (warnings, 0), "path"),
                   ==, "$.futureKey");

  /* served with from now on */
  {
    g_autoptr(JsonNode) again = request (f, "GET", "/api/settings/compression", NULL, 200);

    g_assert_true (json_node_equal (json_object_get_member (object (put), "settings"), again));
  }

  {
    g_autoptr(JsonNode) bad = request (f, "PUT", "/api/settings/compression",
                                       "{\"stackedPipeline\": [{\"engine\": \"warp\", \"intensity\": \"full\"}]}",
                                       400);
    const char *path = json_object_get_string_member (json_object_get_object_member (object (bad), "error"),
                                                      "path");

    assert_error (bad, "invalid_settings", NULL);
    g_assert_true (g_str_has_prefix (path, "$.stackedPipeline[0]"));
  }
  {
    g_autoptr(JsonNode) bad = request (f, "PUT", "/api/settings/compression", "\"stacked\"", 400);

    assert_error (bad, "invalid_body", "$");
  }
}

static void
test_filters (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *rtk_dir = g_build_filename (f->data_dir, "rtk", NULL);
  g_autofree char *filters_path = g_build_filename (rtk_dir, "filters.json", NULL);
  g_autoptr(JsonNode) node = NULL;
  JsonArray *filters, *diagnostics;
  gboolean found_bad = FALSE;

  g_mkdir_with_parents (rtk_dir, 0700);
  test_util_write_file (filters_path,
                        "[{\"id\": \"broken-one\", \"name\": \"Broken\", \"description\": \"x\", "
                        "\"match\": {\"commands\": [\"^mytool\"]}, \"rules\": {\"dropPatterns\": [\"([a-\"]}}]",
                        -1);
  start_server (f);

  node = request (f, "GET", "/api/context/rtk/filters", NULL, 200);
  filters = json_object_get_array_member (object (node), "filters");
  diagnostics = json_object_get_array_member (object (node), "diagnostics");
  g_assert_cmpuint (json_array_get_length (filters), >=, 40);

  for (guint i = 0; i < json_array_get_length (filters); i++)
    {
      JsonObject *filter = json_array_get_object_element (filters, i);

      g_assert_nonnull (json_object_get_string_member (filter, "id"));
      g_assert_true (json_object_has_member (filter, "name"));
      g_assert_true (json_object_has_member (filter, "description"));
      g_assert_nonnull (json_object_get_array_member (filter, "commandTypes"));
      g_assert_true (json_object_has_member (filter, "category"));
      g_assert_true (json_object_has_member (filter, "priority"));
      g_assert_cmpstr (json_object_get_string_member (filter, "id"), !=, "broken-one");
    }

  for (guint i = 0; i < json_array_get_length (diagnostics); i++)
    {
      JsonObject *d = json_array_get_object_element (diagnostics, i);

      if (g_strcmp0 (json_object_get_string_member (d, "level"), "error") == 0 &&
          g_strcmp0 (json_object_get_string_member (d, "path"), filters_path) == 0)
        found_bad = TRUE;
    }
  g_assert_true (found_bad);
}

static void
test_raw_output (Fixture       *f,
                 gconstpointer  data)
{
  const char *id = "0123456789abcdef01234567";
  const char *outside_id = "fedcba9876543210fedcba98";
  const char *contents = "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry/x\n";
  g_autofree char *dir = g_build_filename (f->data_dir, "rtk", "raw-output", NULL);
  g_autofree char *file = g_strdup_printf ("%s/1700000000000-npm_install-%s.log", dir, id);
  g_autofree char *token_path = winnow_server_token_path (f->data_dir);
  g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, contents, -1);
  g_autofree char *db = winnow_store_default_path (f->data_dir);
  g_autoptr(GError) error = NULL;
  const char *attempts[] = {
    "../../../api-token",
    "..%2F..%2F..%2Fapi-token",
    "%2e%2e%2f%2e%2e%2fapi-token",
    "..",
    "0123456789ABCDEF01234567",
    "0123456789abcdef0123456",
    "0123456789abcdef012345678",
    "0123456789abcdef0123456g",
    "0123456789abcdef01234567/",
    "0123456789abcdef01234567%00",
    "aaaaaaaaaaaaaaaaaaaaaaaa",
  };

  g_mkdir_with_parents (dir, 0700);
  test_util_write_file (file, contents, -1);
  {
    g_autoptr(WinnowStore) store = winnow_store_open (db, &error);

    g_assert_no_error (error);
    g_assert_true (winnow_store_add_raw_output (store, id, 0, strlen (contents), sha, file,
                                                "{\"url-password\": 1}", 0, &error));
    /* a row that points outside the folder must not be believed */
    g_assert_true (winnow_store_add_raw_output (store, outside_id, 0, 65, "00", token_path, NULL, 0,
                                                &error));
    g_assert_no_error (error);
  }
  start_server (f);

  {
    g_autofree char *path = g_strdup_printf ("/api/context/rtk/raw-output/%s", id);
    g_autoptr(JsonNode) node = request (f, "GET", path, NULL, 200);
    JsonObject *root = object (node);

    g_assert_cmpstr (json_object_get_string_member (root, "id"), ==, id);
    g_assert_cmpstr (json_object_get_string_member (root, "text"), ==, contents);
    g_assert_cmpstr (json_object_get_string_member (root, "sha256"), ==, sha);
    g_assert_true (json_object_get_boolean_member (root, "intact"));
    g_assert_cmpint (json_object_get_int_member (root, "bytes"), ==, strlen (contents));
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "redactions"),
                                                 "url-password"), ==, 1);
  }

  for (guint i = 0; i < G_N_ELEMENTS (attempts) + 1; i++)
    {
      const char *arg = i < G_N_ELEMENTS (attempts) ? attempts[i] : outside_id;
      g_autofree char *path = g_strdup_printf ("/api/context/rtk/raw-output/%s", arg);
      g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:%u%s", f->port, path);
      g_autoptr(GUri) parsed = g_uri_parse (uri, SOUP_HTTP_URI_FLAGS, NULL);
      g_autoptr(SoupMessage) msg = NULL;
      g_autoptr(GBytes) bytes = NULL;
      gsize length;
      const char *answer;

      g_test_message ("raw output %s", arg);
      g_assert_nonnull (parsed);
      msg = soup_message_new_from_uri ("GET", parsed);
      {
        g_autofree char *value = g_strdup_printf ("Bearer %s", f->token);

        soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", value);
      }
      bytes = soup_session_send_and_read (f->session, msg, NULL, &error);
      g_assert_no_error (error);
      answer = g_bytes_get_data (bytes, &length);
      g_assert_cmpuint (soup_message_get_status (msg), ==, 404);
      g_assert_null (g_strstr_len (answer, length, f->token));
    }
}

/* A request line no client library would send: dot segments kept as written. */
static void
test_raw_output_socket (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GError) error = NULL;
  const char *targets[] = { "/api/context/rtk/raw-output/../../../api-token",
                            "/api/context/rtk/raw-output/./../../api-token",
                            "/api/context/rtk/raw-output/%2e%2e/%2e%2e/api-token" };

  start_server (f);

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autoptr(GSocketConnection) connection = g_socket_client_connect_to_host (client, "127.0.0.1", f->port, NULL, &error);
      g_autofree char *head = NULL;
      g_autoptr(GString) answer = g_string_new (NULL);
      char buffer[4096];
      gssize n;

      g_assert_no_error (error);
      head = g_strdup_printf ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                              "Connection: close\r\n\r\n", targets[i], f->token);
      g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                                                head, strlen (head), NULL, NULL, &error));
      while ((n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (connection)),
                                       buffer, sizeof buffer, NULL, &error)) > 0)
        g_string_append_len (answer, buffer, n);
      g_assert_no_error (error);

      g_test_message ("%s → %.*s", targets[i], (int) MIN (answer->len, 40), answer->str);
      g_assert_true (g_str_has_prefix (answer->str, "HTTP/1.1 404") ||
                     g_str_has_prefix (answer->str, "HTTP/1.1 400"));
      g_assert_null (strstr (answer->str, f->token));
    }
}

static void
test_analytics (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *log = make_test_log (100);
  g_autofree char *body = rtk_test_body (log, "npm test", NULL);
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root, *totals;
  JsonArray *by_command;
  gboolean found = FALSE;

  start_server (f);

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(JsonNode) result = request (f, "POST", "/api/context/rtk/test", body, 200);
    }

  node = request (f, "GET", "/api/analytics/compression?since=24h", NULL, 200);
  root = object (node);
  g_assert_cmpstr (json_object_get_string_member (root, "since"), ==, "24h");
  totals = json_object_get_object_member (root, "totals");
  g_assert_cmpint (json_object_get_int_member (totals, "events"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensBefore"), ==, 3 * winnow_tokens_count (log, -1));
  g_assert_cmpint (json_object_get_int_member (totals, "tokensSaved"), >, 0);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensSaved"), ==,
                   json_object_get_int_member (totals, "tokensBefore") -
                   json_object_get_int_member (totals, "tokensAfter"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "byDay")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "byFilter")), >=, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "byProject")), >=, 1);

  by_command = json_object_get_array_member (root, "byCommand");
  for (guint i = 0; i < json_array_get_length (by_command); i++)
    {
      JsonObject *row = json_array_get_object_element (by_command, i);

      if (g_strcmp0 (json_object_get_string_member (row, "command"), "npm test") == 0)
        {
          found = TRUE;
          g_assert_cmpint (json_object_get_int_member (row, "events"), ==, 3);
        }
    }
  g_assert_true (found);

  {
    g_autoptr(JsonNode) month = request (f, "GET", "/api/analytics/compression?since=30d", NULL, 200);
    g_autoptr(JsonNode) all = request (f, "GET", "/api/analytics/compression", NULL, 200);
    g_autoptr(JsonNode) bad = request (f, "GET", "/api/analytics/compression?since=yesterday", NULL, 400);

    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object (month), "byDay")), ==, 30);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (object (all), "totals"),
                                                 "events"), ==, 3);
    assert_error (bad, "invalid_query", "since");
  }
}

/* ---- concurrency --------------------------------------------------------------------------- */

typedef struct
{
  guint   pending;
  guint   ok;
  GArray *order;   /* which request finished, in order */
} Concurrent;

typedef struct
{
  Concurrent  *state;
  SoupSession *session;
  guint        index;
  char        *expect;
} Pending;

static void
sent_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Pending *p = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);

  g_assert_no_error (error);
  if (soup_message_get_status (msg) == 200 &&
      (p->expect == NULL || g_strstr_len (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), p->expect)))
    p->state->ok++;
  g_array_append_val (p->state->order, p->index);
  p->state->pending--;
  g_free (p->expect);
  g_free (p);
}

static void
send_async (Fixture    *f,
            Concurrent *state,
            guint       index,
            const char *method,
            const char *path,
            const char *body,
            const char *expect)
{
  g_autoptr(SoupMessage) msg = new_message (f, method, path, body, f->token);
  Pending *p = g_new0 (Pending, 1);

  p->state = state;
  p->index = index;
  p->expect = g_strdup (expect);
  state->pending++;
  soup_session_send_and_read_async (f->session, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, p);
}

static void
test_concurrent (Fixture       *f,
                 gconstpointer  data)
{
  Concurrent state = { 0, 0, g_array_new (FALSE, FALSE, sizeof (guint)) };

  start_server (f);

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *log = make_test_log (50 + i);
      g_autofree char *body = rtk_test_body (log, "npx vitest run", NULL);
      g_autofree char *expect = g_strdup_printf ("%u passed (%u)", 50 + i, 51 + i);

      send_async (f, &state, i, "POST", "/api/context/rtk/test", body, expect);
    }
  while (state.pending > 0)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (state.ok, ==, 20);
  g_assert_cmpint (count_api_events (f), ==, 20);
  g_array_unref (state.order);
}

static void
wrote_body_cb (SoupMessage *msg,
               gboolean    *wrote)
{
  *wrote = TRUE;
}

/* A 5 MB compression runs on a worker: small requests sent once its body is in come back
 * while it is still being compressed. */
static void
test_big_does_not_block (Fixture       *f,
                         gconstpointer  data)
{
  Concurrent state = { 0, 0, g_array_new (FALSE, FALSE, sizeof (guint)) };
  g_autofree char *log = make_test_log (100000);
  g_autofree char *body = rtk_test_body (log, "npx vitest run", NULL);
  g_autoptr(SoupMessage) big = NULL;
  gboolean wrote = FALSE;
  Pending *p = g_new0 (Pending, 1);

  g_assert_cmpuint (strlen (body), >, 5 * 1000 * 1000);
  start_server (f);

  big = new_message (f, "POST", "/api/context/rtk/test", body, f->token);
  g_signal_connect (big, "wrote-body", G_CALLBACK (wrote_body_cb), &wrote);
  p->state = &state;
  p->index = 0;
  p->expect = g_strdup ("AssertionError");
  state.pending++;
  soup_session_send_and_read_async (f->session, big, G_PRIORITY_DEFAULT, NULL, sent_cb, p);

  while (!wrote)
    g_main_context_iteration (NULL, TRUE);

  for (guint i = 1; i <= 5; i++)
    send_async (f, &state, i, "GET", "/api/settings/compression", NULL, "defaultMode");
  while (state.pending > 0)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (state.ok, ==, 6);
  /* the big one was sent first and finished last */
  g_assert_cmpuint (g_array_index (state.order, guint, state.order->len - 1), ==, 0);
  g_array_unref (state.order);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/winnow/server/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  g_test_add_func ("/winnow/server/token-file", test_token_file);
  g_test_add_func ("/winnow/server/start-stop", test_start_stop);
  g_test_add_func ("/winnow/server/diff", test_diff);
  ADD ("auth", test_auth);
  ADD ("not-found-and-method", test_not_found_and_method);
  ADD ("too-large", test_too_large);
  ADD ("bad-bodies", test_bad_bodies);
  ADD ("deep-bodies", test_deep_bodies);
  ADD ("rtk-test", test_rtk_test);
  ADD ("body-strings", test_body_strings);
  ADD ("rtk-test-raw-pointers", test_rtk_test_raw_pointers);
  ADD ("preview", test_preview);
  ADD ("rtk-config-round-trip", test_rtk_config_round_trip);
  ADD ("settings", test_settings);
  ADD ("filters", test_filters);
  ADD ("raw-output", test_raw_output);
  ADD ("raw-output-socket", test_raw_output_socket);
  ADD ("analytics", test_analytics);
  ADD ("concurrent", test_concurrent);
  ADD ("big-does-not-block", test_big_does_not_block);

  return g_test_run ();
}
