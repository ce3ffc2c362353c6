/* winnow-server.c — the local HTTP API (`winnow serve`)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SoupServer with the routes of seed 001 (FORMATS.md §5) over one WinnowContext, a
 * WinnowPipeline and the WinnowStore of its data directory.
 *
 * Who may talk to it: the server binds 127.0.0.1 unless told otherwise, and every request
 * must carry `Authorization: Bearer <token>`, the 64 hex digits of `DATA_DIR/api-token`
 * (mode 0600, made on first start from the kernel's random bytes, never from g_random, whose
 * Mersenne Twister is predictable from its output). Loopback alone is not enough: any local
 * process and any web page the person visits can reach 127.0.0.1, and a page can even make
 * its own name resolve there (DNS rebinding). The token is compared in constant time, and
 * no CORS header is ever sent, so a browser never lets a page read an answer.
 *
 * What is refused before the body is read: a missing or wrong token (401) and a
 * Content-Length above the limit (413). Both are checked in an early handler, which libsoup
 * runs as soon as the headers are in; a client that sent `Expect: 100-continue` never sends
 * its body at all, and for one that did not, the body is drained without being kept. A
 * chunked body has no length up front, so its chunks are counted as they arrive and dropped
 * once past the limit: memory stays bounded either way.
 *
 * Events are recorded by a WinnowEventQueue, many to a transaction on a thread of its own,
 * rather than one commit per request on the request's path; the analytics route flushes it
 * first, so a client always sees the events of the requests it was answered.
 *
 * The event loop never compresses: each routed request is paused, handed to a pool of
 * worker threads (one per core) with a copy of its body and a reference to the pipeline of
 * the moment, and finished on the server's own main context when the worker is done (all the
 * requests finished meanwhile at once, through one completion source). A
 * 5 MB compression therefore delays nobody else's 401 or small test. The engine objects are
 * safe to share between threads (filters compile under g_once, rule packs load under a lock,
 * the store has its own mutex); a settings change builds a new context and pipeline and
 * swaps them in, so a request already running keeps the settings it started with.
 */

#define G_LOG_DOMAIN "winnow-server"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "winnow-json-reader.h"
#include "winnow-server-private.h"

#define TOKEN_FILE    "api-token"
#define TOKEN_BYTES   32
#define TOKEN_LENGTH  (TOKEN_BYTES * 2)
/* per-request settings (`config` in a request) each need a context of their own; a few are
 * kept for the next request that asks for the same */
#define MAX_OVERLAYS  8
#define TOO_LARGE_KEY "winnow-server-too-large"
#define RECEIVED_KEY  "winnow-server-received"

G_DEFINE_QUARK (winnow-server-error-quark, winnow_server_error)

struct _WinnowServer
{
  GObject       parent_instance;

  GMutex        lock;           /* pipeline, overlays */
  GMutex        settings_lock;  /* one settings change at a time */
  WinnowPipeline *pipeline;
  GHashTable   *overlays;       /* normalized settings document → WinnowPipeline */
  char         *data_dir;
  char         *project_dir;
  char         *token;
  gsize         max_body_size;

  WinnowStore  *store;
  WinnowEventQueue *events;     /* while running */
  SoupServer   *soup;
  GMainContext *main_context;
  GThreadPool  *pool;
  GSource      *completions;    /* ready while finished holds requests */
  GMutex        finished_lock;
  GQueue        finished;       /* Request, answered by a worker, not yet sent */
  guint         port;
  char         *address;
};

G_DEFINE_FINAL_TYPE (WinnowServer, winnow_server, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MAX_BODY_SIZE,
  PROP_RUNNING,
  PROP_PORT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

typedef struct
{
  const char            *path;
  gboolean               prefix;   /* the rest of the path is the route's argument */
  const char            *method;
  gboolean               json_body;
  WinnowServerRouteFunc  func;
} Route;

static const Route routes[] = {
  { "/api/context/rtk/config", FALSE, "GET", FALSE, _winnow_server_route_get_rtk_config },
  { "/api/context/rtk/config", FALSE, "PUT", TRUE, _winnow_server_route_put_rtk_config },
  { "/api/context/rtk/filters", FALSE, "GET", FALSE, _winnow_server_route_get_filters },
  { "/api/context/rtk/test", FALSE, "POST", TRUE, _winnow_server_route_rtk_test },
  { "/api/context/rtk/raw-output/", TRUE, "GET", FALSE, _winnow_server_route_raw_output },
  { "/api/compression/preview", FALSE, "POST", TRUE, _winnow_server_route_preview },
  { "/api/settings/compression", FALSE, "GET", FALSE, _winnow_server_route_get_settings },
  { "/api/settings/compression", FALSE, "PUT", TRUE, _winnow_server_route_put_settings },
  { "/api/analytics/compression", FALSE, "GET", FALSE, _winnow_server_route_analytics },
};

/* A request on its way through the pool: the route's view plus what only the server's
 * thread may touch. */
typedef struct
{
  WinnowServerJob    job;
  const Route       *route;
  SoupServerMessage *msg;
  gulong             disconnected_id;
  gboolean           gone;
  char              *text;
  gsize              length;
} Request;

/* ---- the token ----------------------------------------------------------------------------- */

/**
 * winnow_server_token_path:
 * @data_dir: (nullable): the data directory, or %NULL for the default
 *
 * Returns: (transfer full): `DATA_DIR/api-token`
 */
char *
winnow_server_token_path (const char *data_dir)
{
  g_autofree char *dir = data_dir ? g_strdup (data_dir) : winnow_context_default_data_dir ();

  return g_build_filename (dir, TOKEN_FILE, NULL);
}

static gboolean
is_token (const char *text,
          gsize       length)
{
  if (length != TOKEN_LENGTH)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isxdigit (text[i]) || g_ascii_isupper (text[i]))
      return FALSE;
  return TRUE;
}

static char *
new_token (GError **error)
{
  guchar bytes[TOKEN_BYTES];
  gsize got = 0;
  GString *hex;

  while (got < sizeof bytes)
    {
      ssize_t n = getrandom (bytes + got, sizeof bytes - got, 0);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;

          g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_TOKEN,
                       "cannot get random bytes for the API token: %s", g_strerror (saved));
          return NULL;
        }
      got += n;
    }

  hex = g_string_sized_new (TOKEN_LENGTH + 1);
  for (gsize i = 0; i < sizeof bytes; i++)
    g_string_append_printf (hex, "%02x", bytes[i]);
  memset (bytes, 0, sizeof bytes);

  return g_string_free (hex, FALSE);
}

/**
 * winnow_server_load_token:
 * @data_dir: (nullable): the data directory, or %NULL for the default
 * @regenerate: make a new token even if there is one
 * @created: (out) (optional): set to whether a new token was written
 * @error: return location for a #GError
 *
 * Reads `DATA_DIR/api-token`, making it first if it is missing (or if @regenerate). A new
 * file is written atomically and has mode 0600 from the moment it exists: the temporary file
 * is created with that mode and renamed over the old one, so the token is never readable by
 * others, not even for an instant. An existing file that others may read has its mode
 * narrowed to 0600. A file that does not hold a token is an error, not silently replaced:
 * clients may still hold the old token, so replacing it is for `--regenerate-token` to do.
 *
 * Returns: (transfer full): the token (64 lowercase hex digits), or %NULL with @error set
 */
char *
winnow_server_load_token (const char  *data_dir,
                          gboolean     regenerate,
                          gboolean    *created,
                          GError     **error)
{
  g_autofree char *path = winnow_server_token_path (data_dir);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *contents = NULL;
  g_autofree char *token = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length = 0;
  GStatBuf st;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (created != NULL)
    *created = FALSE;

  if (!regenerate && g_file_get_contents (path, &contents, &length, &local_error))
    {
      g_strchomp (contents);
      length = strlen (contents);
      if (!is_token (contents, length))
        {
          g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_TOKEN,
                       "%s does not hold an API token (64 lowercase hex digits); make a new "
                       "one with “winnow serve --regenerate-token”", path);
          return NULL;
        }

      if (g_stat (path, &st) == 0 && (st.st_mode & 077) != 0)
        {
          if (g_chmod (path, 0600) != 0)
            {
              int saved = errno;

              g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_TOKEN,
                           "%s can be read by others and its mode cannot be changed to 0600: "
                           "%s", path, g_strerror (saved));
              return NULL;
            }
          g_warning ("%s could be read by other users; its mode is now 0600", path);
        }

      return g_steal_pointer (&contents);
    }

  if (local_error != NULL && !g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_TOKEN, "%s", local_error->message);
      return NULL;
    }
  g_clear_error (&local_error);

  if ((token = new_token (error)) == NULL)
    return NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_TOKEN,
                   "%s: cannot create the folder: %s", dir, g_strerror (saved));
      return NULL;
    }

  {
    g_autofree char *line = g_strconcat (token, "\n", NULL);

    if (!g_file_set_contents_full (path, line, -1,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_ONLY_EXISTING,
                                   0600, &local_error))
      {
        g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_TOKEN, "%s",
                     local_error->message);
        return NULL;
      }
  }

  if (created != NULL)
    *created = TRUE;

  return g_steal_pointer (&token);
}

/* Constant time in the contents: every byte of the expected token is looked at whatever
 * the offered one holds, and the length of the expected token is public (always 64). */
static gboolean
token_equal (const char *expected,
             const char *offered,
             gsize       offered_length)
{
  gsize expected_length = strlen (expected);
  guchar diff = offered_length != expected_length;

  for (gsize i = 0; i < expected_length; i++)
    diff |= (guchar) expected[i] ^ (guchar) (i < offered_length ? offered[i] : 0);

  return diff == 0;
}

/* ---- the object ---------------------------------------------------------------------------- */

static void
winnow_server_dispose (GObject *object)
{
  winnow_server_stop (WINNOW_SERVER (object));

  G_OBJECT_CLASS (winnow_server_parent_class)->dispose (object);
}

static void
winnow_server_finalize (GObject *object)
{
  WinnowServer *self = (WinnowServer *)object;

  g_clear_object (&self->pipeline);
  g_clear_pointer (&self->overlays, g_hash_table_unref);
  g_clear_pointer (&self->data_dir, g_free);
  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->address, g_free);
  if (self->token != NULL)
    memset (self->token, 0, strlen (self->token));
  g_clear_pointer (&self->token, g_free);
  g_clear_object (&self->store);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->settings_lock);
  g_mutex_clear (&self->finished_lock);

  G_OBJECT_CLASS (winnow_server_parent_class)->finalize (object);
}

static void
winnow_server_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WinnowServer *self = WINNOW_SERVER (object);

  switch (prop_id)
    {
    case PROP_MAX_BODY_SIZE:
      g_value_set_uint64 (value, self->max_body_size);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->soup != NULL);
      break;
    case PROP_PORT:
      g_value_set_uint (value, self->port);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_server_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  WinnowServer *self = WINNOW_SERVER (object);

  switch (prop_id)
    {
    case PROP_MAX_BODY_SIZE:
      winnow_server_set_max_body_size (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_server_class_init (WinnowServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = winnow_server_dispose;
  object_class->finalize = winnow_server_finalize;
  object_class->get_property = winnow_server_get_property;
  object_class->set_property = winnow_server_set_property;

  properties [PROP_MAX_BODY_SIZE] =
    g_param_spec_uint64 ("max-body-size", NULL, NULL,
                         1, G_MAXUINT32, WINNOW_SERVER_DEFAULT_MAX_BODY_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_PORT] =
    g_param_spec_uint ("port", NULL, NULL, 0, G_MAXUINT16, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_server_init (WinnowServer *self)
{
  g_mutex_init (&self->lock);
  g_mutex_init (&self->settings_lock);
  g_mutex_init (&self->finished_lock);
  g_queue_init (&self->finished);
  self->max_body_size = WINNOW_SERVER_DEFAULT_MAX_BODY_SIZE;
  self->overlays = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * winnow_server_new:
 * @context: the settings, catalog and data directory to serve
 * @token: the API token every request must present (see winnow_server_load_token())
 *
 * Returns: (transfer full): a server, not yet listening
 */
WinnowServer *
winnow_server_new (WinnowContext *context,
                   const char    *token)
{
  WinnowServer *self;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (context), NULL);
  g_return_val_if_fail (token != NULL && token[0] != '\0', NULL);

  self = g_object_new (WINNOW_TYPE_SERVER, NULL);
  self->pipeline = winnow_pipeline_new (context);
  self->data_dir = g_strdup (winnow_context_get_data_dir (context));
  self->project_dir = g_strdup (winnow_context_get_project_dir (context));
  self->token = g_strdup (token);

  return self;
}

/**
 * winnow_server_dup_context:
 * @self: a #WinnowServer
 *
 * Returns: (transfer full): the context requests are served with now; a settings change
 *   through the API replaces it
 */
WinnowContext *
winnow_server_dup_context (WinnowServer *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (WINNOW_IS_SERVER (self), NULL);

  locker = g_mutex_locker_new (&self->lock);
  return g_object_ref (winnow_pipeline_get_context (self->pipeline));
}

/**
 * winnow_server_set_context:
 * @self: a #WinnowServer
 * @context: a context of the same data directory
 *
 * Serves with @context from the next request on: how an application that owns both a
 * server and a context of its own keeps them one (a settings change through the API makes
 * the server a context of its own; the application reloads its context from the file and
 * hands it back). Requests already running keep the settings they started with.
 */
void
winnow_server_set_context (WinnowServer  *self,
                           WinnowContext *context)
{
  g_autoptr(WinnowPipeline) pipeline = NULL;

  g_return_if_fail (WINNOW_IS_SERVER (self));
  g_return_if_fail (WINNOW_IS_CONTEXT (context));
  g_return_if_fail (g_strcmp0 (winnow_context_get_data_dir (context), self->data_dir) == 0);

  pipeline = winnow_pipeline_new (context);

  g_mutex_lock (&self->lock);
  g_set_object (&self->pipeline, pipeline);
  g_hash_table_remove_all (self->overlays);
  g_mutex_unlock (&self->lock);
}

gsize
winnow_server_get_max_body_size (WinnowServer *self)
{
  g_return_val_if_fail (WINNOW_IS_SERVER (self), 0);
  return self->max_body_size;
}

/**
 * winnow_server_set_max_body_size:
 * @self: a #WinnowServer
 * @max_body_size: the largest request body accepted, in bytes
 *
 * Bodies above this are answered with 413 before they are read.
 */
void
winnow_server_set_max_body_size (WinnowServer *self,
                                 gsize         max_body_size)
{
  g_return_if_fail (WINNOW_IS_SERVER (self));
  g_return_if_fail (max_body_size > 0);

  if (self->max_body_size == max_body_size)
    return;

  self->max_body_size = max_body_size;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MAX_BODY_SIZE]);
}

gboolean
winnow_server_get_running (WinnowServer *self)
{
  g_return_val_if_fail (WINNOW_IS_SERVER (self), FALSE);
  return self->soup != NULL;
}

/**
 * winnow_server_get_port:
 * @self: a #WinnowServer
 *
 * Returns: the port the server listens on (the one the system chose, if started with 0),
 *   or 0 if it is not running
 */
guint
winnow_server_get_port (WinnowServer *self)
{
  g_return_val_if_fail (WINNOW_IS_SERVER (self), 0);
  return self->port;
}

/**
 * winnow_server_dup_uri:
 * @self: a #WinnowServer
 *
 * Returns: (transfer full) (nullable): `http://ADDRESS:PORT/`, or %NULL if not running
 */
char *
winnow_server_dup_uri (WinnowServer *self)
{
  g_return_val_if_fail (WINNOW_IS_SERVER (self), NULL);

  if (self->soup == NULL)
    return NULL;

  return g_strdup_printf (strchr (self->address, ':') ? "http://[%s]:%u/" : "http://%s:%u/",
                          self->address, self->port);
}

/* ---- errors -------------------------------------------------------------------------------- */

JsonNode *
_winnow_server_error_node (const char *code,
                           const char *path,
                           const char *message)
{
  JsonObject *error = json_object_new ();
  JsonObject *root = json_object_new ();
  JsonNode *node;

  json_object_set_string_member (error, "code", code);
  json_object_set_string_member (error, "message", message);
  if (path != NULL)
    json_object_set_string_member (error, "path", path);
  json_object_set_object_member (root, "error", error);

  node = json_node_alloc ();
  json_node_init_object (node, root);
  json_object_unref (root);
  return node;
}

void
_winnow_server_job_fail (WinnowServerJob *job,
                         guint            status,
                         const char      *code,
                         const char      *path,
                         const char      *format,
                         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  job->status = status;
  g_clear_pointer (&job->response, json_node_unref);
  g_clear_pointer (&job->response_text, g_free);
  job->response = _winnow_server_error_node (code, path, message);
}

static void
respond_json (SoupServerMessage *msg,
              guint              status,
              char              *text,
              gsize              length)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_message_headers_replace (headers, "X-Content-Type-Options", "nosniff");
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, text, length);
}

static void
respond_error (SoupServerMessage *msg,
               guint              status,
               const char        *code,
               const char        *message)
{
  g_autoptr(JsonNode) node = _winnow_server_error_node (code, NULL, message);
  gsize length;
  char *text = json_to_string (node, FALSE);

  length = strlen (text);
  respond_json (msg, status, text, length);
}

/* A request refused before its body is read: the body is not kept, and the connection is
 * not reused, since the client may still be sending it. */
static void
refuse_early (SoupServerMessage *msg,
              guint              status,
              const char        *code,
              const char        *message)
{
  soup_message_body_set_accumulate (soup_server_message_get_request_body (msg), FALSE);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Connection", "close");
  respond_error (msg, status, code, message);
}

/* ---- before the body ----------------------------------------------------------------------- */

static void
got_chunk_cb (SoupServerMessage *msg,
              GBytes            *chunk,
              WinnowServer      *self)
{
  gsize received = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (msg), RECEIVED_KEY));

  received += g_bytes_get_size (chunk);
  g_object_set_data (G_OBJECT (msg), RECEIVED_KEY, GSIZE_TO_POINTER (received));

  if (received > self->max_body_size &&
      g_object_get_data (G_OBJECT (msg), TOO_LARGE_KEY) == NULL)
    {
      SoupMessageBody *body = soup_server_message_get_request_body (msg);

      g_object_set_data (G_OBJECT (msg), TOO_LARGE_KEY, GINT_TO_POINTER (TRUE));
      soup_message_body_set_accumulate (body, FALSE);
      soup_message_body_truncate (body);
    }
}

static gboolean
authorized (WinnowServer      *self,
            SoupServerMessage *msg)
{
  const char *value = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                    "Authorization");
  const char *offered;

  if (value == NULL)
    return FALSE;

  while (*value == ' ')
    value++;
  if (g_ascii_strncasecmp (value, "Bearer", 6) != 0 || (value[6] != ' ' && value[6] != '\t'))
    return FALSE;
  offered = value + 7;
  while (*offered == ' ' || *offered == '\t')
    offered++;

  {
    gsize length = strlen (offered);

    while (length > 0 && (offered[length - 1] == ' ' || offered[length - 1] == '\t'))
      length--;
    return token_equal (self->token, offered, length);
  }
}

static void
early_handler (SoupServer        *server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  WinnowServer *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  if (!authorized (self, msg))
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "WWW-Authenticate", "Bearer realm=\"winnow\"");
      refuse_early (msg, SOUP_STATUS_UNAUTHORIZED, "unauthorized",
                    soup_message_headers_get_one (headers, "Authorization") == NULL
                    ? "missing “Authorization: Bearer <token>” header (the token is in "
                      "DATA_DIR/api-token; “winnow serve --show-token” prints it)"
                    : "wrong API token");
      return;
    }

  switch (soup_message_headers_get_encoding (headers))
    {
    case SOUP_ENCODING_CONTENT_LENGTH:
      if (soup_message_headers_get_content_length (headers) > (goffset) self->max_body_size)
        {
          g_autofree char *message =
            g_strdup_printf ("the body is %" G_GOFFSET_FORMAT " bytes; the limit is %"
                             G_GSIZE_FORMAT, soup_message_headers_get_content_length (headers),
                             self->max_body_size);

          refuse_early (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "payload_too_large", message);
        }
      break;

    case SOUP_ENCODING_CHUNKED:
    case SOUP_ENCODING_EOF:
    case SOUP_ENCODING_BYTERANGES:
      g_signal_connect_object (msg, "got-chunk", G_CALLBACK (got_chunk_cb), self, 0);
      break;

    case SOUP_ENCODING_UNRECOGNIZED:
    case SOUP_ENCODING_NONE:
    default:
      break;
    }
}

/* ---- routing ------------------------------------------------------------------------------- */

static void
request_free (Request *request)
{
  if (request->disconnected_id != 0)
    g_signal_handler_disconnect (request->msg, request->disconnected_id);
  g_clear_object (&request->msg);
  g_clear_object (&request->job.server);
  g_clear_object (&request->job.pipeline);
  g_clear_object (&request->job.store);
  g_clear_object (&request->job.events);
  g_clear_pointer (&request->job.body, g_bytes_unref);
  g_clear_pointer (&request->job.query, g_hash_table_unref);
  g_clear_pointer (&request->job.path_arg, g_free);
  g_clear_pointer (&request->job.response, json_node_unref);
  g_clear_pointer (&request->job.response_text, g_free);
  g_clear_pointer (&request->text, g_free);
  g_free (request);
}

static void
disconnected_cb (SoupServerMessage *msg,
                 Request           *request)
{
  request->gone = TRUE;
}

/* on the server's main context */
static void
finish_request (Request *request)
{
  if (!request->gone)
    {
      respond_json (request->msg, request->job.status, g_steal_pointer (&request->text),
                    request->length);
      soup_server_message_unpause (request->msg);
    }

  request_free (request);
}

/* on the server's main context: every request the workers finished since the last call */
static gboolean
finish_requests (gpointer data)
{
  WinnowServer *self = data;
  GQueue batch;
  Request *request;

  g_mutex_lock (&self->finished_lock);
  batch = self->finished;
  g_queue_init (&self->finished);
  g_source_set_ready_time (self->completions, -1);
  g_mutex_unlock (&self->finished_lock);

  while ((request = g_queue_pop_head (&batch)) != NULL)
    finish_request (request);

  return G_SOURCE_CONTINUE;
}

static gboolean
completions_dispatch (GSource     *source,
                      GSourceFunc  callback,
                      gpointer     user_data)
{
  return callback (user_data);
}

static GSourceFuncs completions_funcs = {
  .dispatch = completions_dispatch,
};

/* on a worker thread */
static void
run_request (gpointer data,
             gpointer user_data)
{
  Request *request = data;
  WinnowServer *self = request->job.server;
  gboolean first;

  request->job.status = SOUP_STATUS_OK;
  request->route->func (&request->job);

  if (request->job.response_text != NULL && request->job.response == NULL)
    {
      request->text = g_steal_pointer (&request->job.response_text);
      request->length = request->job.response_length;
    }
  else
    {
      if (request->job.response == NULL)
        _winnow_server_job_fail (&request->job, SOUP_STATUS_INTERNAL_SERVER_ERROR, "internal",
                                 NULL, "the route gave no answer");
      request->text = json_to_string (request->job.response, FALSE);
      request->length = strlen (request->text);
    }

  /* what was made on this thread is freed on it (the server's thread has enough to do, and
   * memory goes back to the arena it came from); the route's references with it */
  g_clear_pointer (&request->job.response, json_node_unref);
  g_clear_pointer (&request->job.response_text, g_free);
  g_clear_pointer (&request->job.body, g_bytes_unref);
  g_clear_pointer (&request->job.query, g_hash_table_unref);
  g_clear_object (&request->job.pipeline);
  g_clear_object (&request->job.store);
  g_clear_object (&request->job.events);

  /* Back to the server's thread, which alone may touch libsoup's objects. One source carries
   * them all and is made ready (waking the server's thread) only by the first request of a
   * batch: an idle source per request, as g_main_context_invoke() makes, meant an allocation,
   * the context's lock and a wake-up each. (g_source_set_ready_time() takes the context's lock
   * and wakes it, as GLib's own cancellable sources do from the cancelling thread.) */
  g_mutex_lock (&self->finished_lock);
  first = g_queue_is_empty (&self->finished);
  g_queue_push_tail (&self->finished, request);
  if (first)
    g_source_set_ready_time (self->completions, 0);
  g_mutex_unlock (&self->finished_lock);
}

static gboolean
is_json_type (SoupMessageHeaders *headers)
{
  const char *type = soup_message_headers_get_content_type (headers, NULL);

  return type != NULL &&
         (g_ascii_strcasecmp (type, "application/json") == 0 ||
          (g_str_has_prefix (type, "application/") && g_str_has_suffix (type, "+json")));
}

static void
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  WinnowServer *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  const Route *route = NULL;
  g_autoptr(GString) allow = NULL;
  const char *arg = NULL;
  Request *request;

  for (guint i = 0; i < G_N_ELEMENTS (routes); i++)
    {
      const Route *r = &routes[i];

      if (r->prefix ? !g_str_has_prefix (path, r->path) : strcmp (path, r->path) != 0)
        continue;

      if (allow == NULL)
        allow = g_string_new (NULL);
      else
        g_string_append (allow, ", ");
      g_string_append (allow, r->method);

      if (strcmp (method, r->method) == 0)
        {
          route = r;
          arg = r->prefix ? path + strlen (r->path) : NULL;
        }
    }

  if (allow == NULL)
    {
      g_autofree char *message = g_strdup_printf ("no route %s", path);

      respond_error (msg, SOUP_STATUS_NOT_FOUND, "not_found", message);
      return;
    }

  if (route == NULL)
    {
      g_autofree char *message = g_strdup_printf ("%s does not take %s; it takes %s", path,
                                                  method, allow->str);

      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Allow",
                                    allow->str);
      respond_error (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "method_not_allowed", message);
      return;
    }

  if (g_object_get_data (G_OBJECT (msg), TOO_LARGE_KEY) != NULL)
    {
      g_autofree char *message = g_strdup_printf ("the body is over the limit of %" G_GSIZE_FORMAT
                                                  " bytes", self->max_body_size);

      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Connection", "close");
      respond_error (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "payload_too_large", message);
      return;
    }

  if (route->json_body && !is_json_type (soup_server_message_get_request_headers (msg)))
    {
      respond_error (msg, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
                     "the body must be JSON (Content-Type: application/json)");
      return;
    }

  request = g_new0 (Request, 1);
  request->route = route;
  request->msg = g_object_ref (msg);
  request->job.server = g_object_ref (self);
  g_mutex_lock (&self->lock);
  request->job.pipeline = g_object_ref (self->pipeline);
  g_mutex_unlock (&self->lock);
  request->job.store = self->store ? g_object_ref (self->store) : NULL;
  request->job.events = self->events ? g_object_ref (self->events) : NULL;
  request->job.path_arg = g_strdup (arg);
  if (route->json_body)
    request->job.body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  if (query != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      request->job.query = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_iter_init (&iter, query);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_hash_table_insert (request->job.query, g_strdup (key), g_strdup (value));
    }

  request->disconnected_id = g_signal_connect (msg, "disconnected",
                                               G_CALLBACK (disconnected_cb), request);
  soup_server_message_pause (msg);
  g_thread_pool_push (self->pool, request, NULL);
}

/* ---- start and stop ------------------------------------------------------------------------ */

/**
 * winnow_server_start:
 * @self: a #WinnowServer
 * @address: (nullable): the IP address to listen on; %NULL for 127.0.0.1
 * @port: the port, or 0 to let the system choose one (see winnow_server_get_port())
 * @error: return location for a #GError
 *
 * Listens, on the thread-default main context of the caller: requests are answered while
 * that context runs. Also opens the database of the context's data directory; if it cannot
 * be opened the server still runs, and only analytics and event recording are missing.
 *
 * Returns: %TRUE if the server listens
 */
gboolean
winnow_server_start (WinnowServer  *self,
                     const char    *address,
                     guint          port,
                     GError       **error)
{
  g_autoptr(GInetAddress) inet = NULL;
  g_autoptr(GSocketAddress) socket_address = NULL;
  g_autoptr(SoupServer) soup = NULL;
  g_autoptr(GError) store_error = NULL;
  g_autofree char *server_header = NULL;
  GSList *listeners;

  g_return_val_if_fail (WINNOW_IS_SERVER (self), FALSE);
  g_return_val_if_fail (port <= G_MAXUINT16, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->soup != NULL)
    {
      g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_RUNNING,
                   "the server is already listening on port %u", self->port);
      return FALSE;
    }

  if (address == NULL || g_ascii_strcasecmp (address, "localhost") == 0)
    inet = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  else if ((inet = g_inet_address_new_from_string (address)) == NULL)
    {
      g_set_error (error, WINNOW_SERVER_ERROR, WINNOW_SERVER_ERROR_ADDRESS,
                   "“%s” is not an IP address (e.g. 127.0.0.1 or ::1)", address);
      return FALSE;
    }

  server_header = g_strdup_printf ("winnow/%s ", PACKAGE_VERSION);
  /* raw paths: libsoup would decode %2F and answer a decoded `..` itself, with an empty
   * 400; undecoded, such a path simply matches no route and gets our JSON 404 */
  soup = soup_server_new ("server-header", server_header, "raw-paths", TRUE, NULL);
  soup_server_add_early_handler (soup, NULL, early_handler, self, NULL);
  soup_server_add_handler (soup, NULL, handler, self, NULL);

  socket_address = g_inet_socket_address_new (inet, port);
  if (!soup_server_listen (soup, socket_address, 0, error))
    return FALSE;

  /* the port the system chose; read from the socket, as soup_server_get_uris() of libsoup
   * 3.2 leaks an address each call */
  listeners = soup_server_get_listeners (soup);
  self->port = port;
  if (listeners != NULL)
    {
      g_autoptr(GSocketAddress) local = g_socket_get_local_address (listeners->data, NULL);

      if (G_IS_INET_SOCKET_ADDRESS (local))
        self->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
    }
  g_slist_free (listeners);
  g_free (self->address);
  self->address = g_inet_address_to_string (inet);

  if (self->store == NULL)
    {
      g_autoptr(WinnowContext) context = winnow_server_dup_context (self);

      self->store = winnow_store_open_for_context (context, &store_error);
      if (self->store == NULL)
        g_warning ("no analytics: %s", store_error->message);
    }
  if (self->store != NULL)
    self->events = winnow_event_queue_new (self->store);

  self->main_context = g_main_context_ref_thread_default ();
  self->completions = g_source_new (&completions_funcs, sizeof (GSource));
  g_source_set_callback (self->completions, finish_requests, self, NULL);
  g_source_set_static_name (self->completions, "WinnowServer completions");
  g_source_attach (self->completions, self->main_context);
  self->pool = g_thread_pool_new (run_request, self, MAX (2, (int) g_get_num_processors ()),
                                  FALSE, NULL);
  self->soup = g_steal_pointer (&soup);

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PORT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RUNNING]);
  return TRUE;
}

/**
 * winnow_server_stop:
 * @self: a #WinnowServer
 *
 * Stops listening and closes every connection. Call it on the thread that started the
 * server; requests being compressed are finished (and dropped) first.
 */
void
winnow_server_stop (WinnowServer *self)
{
  g_return_if_fail (WINNOW_IS_SERVER (self));

  if (self->soup == NULL)
    return;

  soup_server_disconnect (self->soup);

  /* wait for the workers, then let their answers reach the main context so every paused
   * request is released */
  g_thread_pool_free (g_steal_pointer (&self->pool), FALSE, TRUE);
  if (g_main_context_acquire (self->main_context))
    {
      while (g_main_context_pending (self->main_context))
        g_main_context_iteration (self->main_context, FALSE);
      g_main_context_release (self->main_context);
    }
  g_source_destroy (self->completions);
  g_clear_pointer (&self->completions, g_source_unref);
  /* answers that could not be delivered (another thread owns the context) */
  g_queue_clear_full (&self->finished, (GDestroyNotify) request_free);

  g_clear_object (&self->soup);
  g_clear_pointer (&self->main_context, g_main_context_unref);
  /* the workers are gone: the last of their events are written before stop returns */
  g_clear_object (&self->events);
  self->port = 0;

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PORT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RUNNING]);
}

/* ---- settings ------------------------------------------------------------------------------ */

GMutex *
_winnow_server_get_settings_lock (WinnowServer *self)
{
  return &self->settings_lock;
}

static void
remove_overlay (gpointer data)
{
  char *dir = data;
  const char *names[] = { "settings.json", "rtk", "rules" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
  g_free (dir);
}

/*
 * _winnow_server_pipeline_for:
 * @settings: a complete, normalized settings document (winnow_config_to_json())
 *
 * A pipeline for the settings a request brings along (`config`). The engine builds a
 * context only from a data directory, so a request's settings get a directory of their own:
 * a temporary folder with that settings.json, whose `rtk/` and `rules/` are links to the
 * real data directory's, so global filters and rule packs still apply. The folder lives as
 * long as its pipeline (rule packs are read when first needed). A few are cached, keyed by
 * the normalized document, so a client repeating one override builds it once.
 */
WinnowPipeline *
_winnow_server_pipeline_for (WinnowServer    *self,
                             WinnowPipeline  *base,
                             const char      *settings,
                             GError         **error)
{
  g_autofree char *current = winnow_config_to_json (winnow_context_get_config (winnow_pipeline_get_context (base)));
  g_autoptr(WinnowContext) context = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  WinnowPipeline *pipeline;

  if (strcmp (current, settings) == 0)
    return g_object_ref (base);

  g_mutex_lock (&self->lock);
  pipeline = g_hash_table_lookup (self->overlays, settings);
  if (pipeline != NULL)
    g_object_ref (pipeline);
  g_mutex_unlock (&self->lock);
  if (pipeline != NULL)
    return pipeline;

  if ((dir = g_dir_make_tmp ("winnow-serve-XXXXXX", &local_error)) == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  path = g_build_filename (dir, "settings.json", NULL);
  if (!g_file_set_contents (path, settings, -1, error))
    {
      remove_overlay (g_steal_pointer (&dir));
      return NULL;
    }
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "rtk" : "rules";
      g_autofree char *target = g_build_filename (self->data_dir, name, NULL);
      g_autofree char *link = g_build_filename (dir, name, NULL);

      if (symlink (target, link) != 0)
        g_debug ("%s: cannot link to %s: %s", link, target, g_strerror (errno));
    }

  context = winnow_context_new (dir, self->project_dir);
  pipeline = winnow_pipeline_new (context);
  g_object_set_data_full (G_OBJECT (pipeline), "winnow-server-overlay", g_steal_pointer (&dir),
                          remove_overlay);

  g_mutex_lock (&self->lock);
  if (g_hash_table_size (self->overlays) >= MAX_OVERLAYS)
    g_hash_table_remove_all (self->overlays);
  g_hash_table_replace (self->overlays, g_strdup (settings), g_object_ref (pipeline));
  g_mutex_unlock (&self->lock);

  return pipeline;
}

/*
 * _winnow_server_save_settings:
 * @document: the new settings document, already validated
 *
 * Writes DATA_DIR/settings.json atomically and serves with the new settings from now on.
 * The caller holds the settings lock, so read-modify-write cycles do not interleave.
 *
 * Returns: (transfer full): the new pipeline, or %NULL with @error set and nothing changed
 */
WinnowPipeline *
_winnow_server_save_settings (WinnowServer  *self,
                              JsonNode      *document,
                              GError       **error)
{
  g_autofree char *path = g_build_filename (self->data_dir, "settings.json", NULL);
  g_autofree char *text = _winnow_json_to_document (document);
  g_autoptr(WinnowContext) context = NULL;
  g_autoptr(GError) local_error = NULL;
  WinnowPipeline *pipeline;

  if (g_mkdir_with_parents (self->data_dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: cannot create the folder: %s", self->data_dir, g_strerror (saved));
      return NULL;
    }

  if (!g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
                                 &local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  context = winnow_context_new (self->data_dir, self->project_dir);
  pipeline = winnow_pipeline_new (context);

  g_mutex_lock (&self->lock);
  g_set_object (&self->pipeline, pipeline);
  g_hash_table_remove_all (self->overlays);
  g_mutex_unlock (&self->lock);

  return pipeline;
}
