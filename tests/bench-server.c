/* bench-server.c — requests per second and latency of POST /api/context/rtk/test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server as `winnow serve` runs it (its own thread and main context, the worker pool,
 * events recorded in a real database), on an ephemeral loopback port; N client threads, each
 * with one keep-alive connection, send bodies as fast as the answers come back. The bodies are
 * real output from the corpus, every sample of 7–14 KB (about 10 KB on average: git, gradle,
 * journalctl, node, pip, playwright, pnpm, systemctl, webpack, wget, yarn), each client going
 * round them from its own starting point: one body sent again and again would flatter every
 * cache on the way (the tokenizer's, the detector's, the filter's compiled patterns) and time
 * one filter only. `--synthetic` sends the one generated vitest log of earlier rounds instead,
 * to compare with their figures. The clients speak HTTP/1.1 over plain sockets: a client
 * library's own cost would be measured otherwise. Bounded in count and time; it stops by
 * itself.
 *
 * The server's processor time is the process's minus the clients' threads', taken after the
 * server stopped, so the last batch of events it writes on the way out is counted too.
 *
 * Usage: bench-server [--clients N] [--seconds S] [--no-record] [--synthetic]
 */

#include "config.h"

#include <gio/gio.h>
#include <locale.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test-util.h"
#include "winnow.h"

#define MAX_REQUESTS_PER_CLIENT 200000

typedef struct
{
  char         *data_dir;
  char         *token;
  GMainContext *context;
  GMainLoop    *loop;
  GMutex        lock;
  GCond         cond;
  guint         port;
  gboolean      ready;
} Server;

typedef struct
{
  guint      port;
  GPtrArray *requests;  /* GBytes: whole HTTP requests, sent in turn */
  guint      first;     /* which of them this client sends first */
  gint64     deadline;
  GArray  *latencies;   /* gint64 µs */
  guint    errors;
  gint64   compress_us; /* sum of the server's own durationMs */
  gint64   cpu_us;      /* this client thread's own processor time */
} Client;

static gint64
thread_cpu_us (void)
{
  struct timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return (gint64) now.tv_sec * G_USEC_PER_SEC + now.tv_nsec / 1000;
}

/* Processor time of this process's threads so far, in µs, summed by thread name ("server",
 * "pool-…" for the workers, "winnow-events", "client"), from /proc: where a request's time
 * goes. Clock ticks, so only meaningful over seconds. */
static GHashTable *
threads_cpu_us (void)
{
  GHashTable *by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  long ticks = sysconf (_SC_CLK_TCK);
  const char *tid;

  while (dir != NULL && (tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", tid, "stat", NULL);
      g_autofree char *stat = NULL;
      g_auto(GStrv) fields = NULL;
      const char *open, *close;
      g_autofree char *comm = NULL;
      const char *name;
      gint64 *sum;

      if (!g_file_get_contents (path, &stat, NULL, NULL) ||
          (open = strchr (stat, '(')) == NULL || (close = strrchr (stat, ')')) == NULL)
        continue;
      comm = g_strndup (open + 1, close - open - 1);
      /* GThreadPool names its threads after the program: "pool-bench-serv" */
      name = g_str_has_prefix (comm, "pool-") ? "workers" : comm;
      /* after the name: state (3rd field) … utime (14th), stime (15th) */
      fields = g_strsplit (close + 2, " ", 14);
      if (g_strv_length (fields) < 14)
        continue;
      if ((sum = g_hash_table_lookup (by_name, name)) == NULL)
        {
          sum = g_new0 (gint64, 1);
          g_hash_table_insert (by_name, g_strdup (name), sum);
        }
      *sum += (g_ascii_strtoll (fields[11], NULL, 10) + g_ascii_strtoll (fields[12], NULL, 10)) *
              G_USEC_PER_SEC / ticks;
    }

  return by_name;
}

static gpointer
server_thread (gpointer data)
{
  Server *s = data;
  g_autoptr(WinnowContext) context = winnow_context_new (s->data_dir, NULL);
  g_autoptr(WinnowServer) server = winnow_server_new (context, s->token);
  g_autoptr(GError) error = NULL;

  g_main_context_push_thread_default (s->context);
  if (!winnow_server_start (server, "127.0.0.1", 0, &error))
    g_error ("%s", error->message);

  g_mutex_lock (&s->lock);
  s->port = winnow_server_get_port (server);
  s->ready = TRUE;
  g_cond_signal (&s->cond);
  g_mutex_unlock (&s->lock);

  g_main_loop_run (s->loop);
  winnow_server_stop (server);
  g_main_context_pop_thread_default (s->context);
  return NULL;
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* Reads one response; returns the body's start in @buffer or NULL. */
static gboolean
read_response (GInputStream *in,
               GString      *buffer,
               guint        *status,
               gsize        *body_start,
               gsize        *body_length)
{
  char chunk[16384];
  const char *end;
  gssize n;

  g_string_truncate (buffer, 0);
  while ((end = strstr (buffer->str, "\r\n\r\n")) == NULL)
    {
      if ((n = g_input_stream_read (in, chunk, sizeof chunk, NULL, NULL)) <= 0)
        return FALSE;
      g_string_append_len (buffer, chunk, n);
    }

  {
    const char *cl = strstr (buffer->str, "Content-Length: ");

    if (cl == NULL || cl > end)
      return FALSE;
    *body_length = strtoul (cl + 16, NULL, 10);
    *status = strtoul (buffer->str + 9, NULL, 10);
    *body_start = end + 4 - buffer->str;
  }

  while (buffer->len < *body_start + *body_length)
    {
      if ((n = g_input_stream_read (in, chunk, sizeof chunk, NULL, NULL)) <= 0)
        return FALSE;
      g_string_append_len (buffer, chunk, n);
    }

  return TRUE;
}

static gpointer
client_thread (gpointer data)
{
  Client *c = data;
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GString) buffer = g_string_sized_new (65536);
  GOutputStream *out;
  GInputStream *in;
  gint64 cpu_start = thread_cpu_us ();

  connection = g_socket_client_connect_to_host (client, "127.0.0.1", c->port, NULL, NULL);
  g_assert_nonnull (connection);
  g_socket_set_option (g_socket_connection_get_socket (connection), IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  in = g_io_stream_get_input_stream (G_IO_STREAM (connection));

  for (guint i = 0; i < MAX_REQUESTS_PER_CLIENT && g_get_monotonic_time () < c->deadline; i++)
    {
      GBytes *bytes = g_ptr_array_index (c->requests, (c->first + i) % c->requests->len);
      gsize length;
      const char *request = g_bytes_get_data (bytes, &length);
      gint64 start = g_get_monotonic_time ();
      guint status = 0;
      gsize body_start, body_length;
      gint64 latency;

      if (!g_output_stream_write_all (out, request, length, NULL, NULL, NULL) ||
          !read_response (in, buffer, &status, &body_start, &body_length))
        {
          c->errors++;
          break;
        }
      latency = g_get_monotonic_time () - start;
      if (status != 200)
        c->errors++;
      else
        {
          const char *duration = g_strstr_len (buffer->str + body_start, body_length, "\"durationMs\":");

          if (duration != NULL)
            c->compress_us += (gint64) (g_ascii_strtod (duration + 13, NULL) * 1000);
        }
      g_array_append_val (c->latencies, latency);
    }

  c->cpu_us = thread_cpu_us () - cpu_start;
  return NULL;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static char *
request_body (const char *command,
              const char *text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, command);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

/* about 10 KB of a vitest run: passing files and one failure */
static char *
synthetic_body (void)
{
  g_autoptr(GString) log = g_string_new (" RUN  v1.6.0 /home/dev/app\n\n");
  guint i = 0;

  while (log->len < 9600)
    {
      g_string_append_printf (log, " ✓ src/components/widget%03u.test.tsx  (%u tests) %ums\n", i, 3 + i % 7, 4 + i % 50);
      i++;
    }
  g_string_append (log, " FAIL  src/parser.test.ts > parser > keeps errors\n"
                        "AssertionError: expected 'a' to be 'b'\n"
                        " ❯ src/parser.test.ts:42:18\n\n");
  g_string_append_printf (log, " Test Files  1 failed | %u passed (%u)\n", i, i + 1);

  return request_body ("npx vitest run", log->str);
}

/* Every corpus sample of 7–14 KB, as request bodies, in manifest order. */
static GPtrArray *
corpus_bodies (void)
{
  /* G_TEST_SRCDIR as meson sets it; not g_test_build_filename(), whose g_test_init() would make
   * the server's warnings (--no-record has one) fatal */
  const char *srcdir = g_getenv ("G_TEST_SRCDIR") ? g_getenv ("G_TEST_SRCDIR") : "tests";
  g_autofree char *manifest = g_build_filename (srcdir, "corpus", "manifest.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GPtrArray *bodies = g_ptr_array_new_with_free_func (g_free);
  JsonArray *entries;

  if (!json_parser_load_from_file (parser, manifest, &error))
    g_error ("cannot read the corpus manifest %s: %s", manifest, error->message);

  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      g_autofree char *path = g_build_filename (srcdir, "corpus",
                                                json_object_get_string_member (entry, "file"), NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (json_object_get_int_member (entry, "bytes") < 7000 ||
          json_object_get_int_member (entry, "bytes") > 14000)
        continue;
      if (!g_file_get_contents (path, &contents, &length, &error))
        g_error ("%s", error->message);
      /* a JSON string holds text: the one sample of that size that is not UTF-8 would be a 400 */
      if (!g_utf8_validate_len (contents, length, NULL) || memchr (contents, '\0', length) != NULL)
        continue;
      g_ptr_array_add (bodies, request_body (json_object_get_string_member (entry, "command"),
                                             contents));
    }

  if (bodies->len == 0)
    g_error ("no corpus sample of 7–14 KB under %s", manifest);
  return bodies;
}

int
main (int    argc,
      char **argv)
{
  int n_clients = 8;
  double seconds = 3.0;
  gboolean no_record = FALSE;
  gboolean synthetic = FALSE;
  GOptionEntry entries[] = {
    { "clients", 'c', 0, G_OPTION_ARG_INT, &n_clients, "Concurrent connections", "N" },
    { "seconds", 's', 0, G_OPTION_ARG_DOUBLE, &seconds, "How long to send", "S" },
    { "no-record", 0, 0, G_OPTION_ARG_NONE, &no_record, "Leave the database out (unwritable)", NULL },
    { "synthetic", 0, 0, G_OPTION_ARG_NONE, &synthetic, "Send one generated vitest log, not the corpus", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) options = g_option_context_new ("— load on POST /api/context/rtk/test");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) bodies = NULL;
  g_autoptr(GPtrArray) requests = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GHashTable) threads_before = NULL;
  g_autoptr(GHashTable) threads_after = NULL;
  Server server = { 0 };
  Client *clients;
  GThread *server_handle;
  GThread **threads;
  guint errors = 0;
  gint64 start, elapsed, compress_us = 0;
  gint64 cpu_start, cpu_used;
  gint64 clients_cpu = 0;
  gsize body_bytes = 0;
  gsize n;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  n_clients = CLAMP (n_clients, 1, 256);
  seconds = CLAMP (seconds, 0.1, 60);

  if (synthetic)
    {
      bodies = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (bodies, synthetic_body ());
    }
  else
    bodies = corpus_bodies ();

  server.data_dir = g_dir_make_tmp ("winnow-bench-server-XXXXXX", NULL);
  server.token = winnow_server_load_token (server.data_dir, FALSE, NULL, &error);
  g_assert_no_error (error);
  if (no_record)
    {
      /* a folder where the database would be: the store cannot open, nothing is recorded */
      g_autofree char *db = winnow_store_default_path (server.data_dir);

      g_mkdir (db, 0700);
    }
  g_mutex_init (&server.lock);
  g_cond_init (&server.cond);
  server.context = g_main_context_new ();
  server.loop = g_main_loop_new (server.context, FALSE);
  server_handle = g_thread_new ("server", server_thread, &server);
  g_mutex_lock (&server.lock);
  while (!server.ready)
    g_cond_wait (&server.cond, &server.lock);
  g_mutex_unlock (&server.lock);

  for (guint i = 0; i < bodies->len; i++)
    {
      const char *body = g_ptr_array_index (bodies, i);
      g_autofree char *head = g_strdup_printf ("POST /api/context/rtk/test HTTP/1.1\r\n"
                                               "Host: 127.0.0.1:%u\r\n"
                                               "Authorization: Bearer %s\r\n"
                                               "Content-Type: application/json\r\n"
                                               "Content-Length: %zu\r\n\r\n",
                                               server.port, server.token, strlen (body));
      g_autofree char *whole = g_strconcat (head, body, NULL);
      gsize len = strlen (whole);

      body_bytes += strlen (body);
      g_ptr_array_add (requests, g_bytes_new_take (g_steal_pointer (&whole), len));
    }

  /* warm up: filters compile on first use; every body once, at least */
  {
    Client warm = { server.port, requests, 0, g_get_monotonic_time () + 200000,
                    g_array_new (FALSE, FALSE, sizeof (gint64)), 0, 0 };

    client_thread (&warm);
    g_array_unref (warm.latencies);
  }

  clients = g_new0 (Client, n_clients);
  threads = g_new0 (GThread *, n_clients);
  threads_before = threads_cpu_us ();
  start = g_get_monotonic_time ();
  cpu_start = test_util_cpu_us ();
  for (int i = 0; i < n_clients; i++)
    {
      clients[i].port = server.port;
      clients[i].requests = requests;
      clients[i].first = i * requests->len / n_clients;
      clients[i].deadline = start + (gint64) (seconds * G_USEC_PER_SEC);
      clients[i].latencies = g_array_new (FALSE, FALSE, sizeof (gint64));
      threads[i] = g_thread_new ("client", client_thread, &clients[i]);
    }
  for (int i = 0; i < n_clients; i++)
    {
      g_thread_join (threads[i]);
      g_array_append_vals (all, clients[i].latencies->data, clients[i].latencies->len);
      errors += clients[i].errors;
      compress_us += clients[i].compress_us;
      clients_cpu += clients[i].cpu_us;
      g_array_unref (clients[i].latencies);
    }
  elapsed = g_get_monotonic_time () - start;
  /* the workers and the event writer end with the server: their figures are taken now */
  threads_after = threads_cpu_us ();

  /* the server stops (and writes the events still queued) before its time is taken */
  g_main_context_invoke (server.context, quit_loop, server.loop);
  g_thread_join (server_handle);
  cpu_used = test_util_cpu_us () - cpu_start;

  g_array_sort (all, compare_gint64);
  n = all->len;
  g_print ("POST /api/context/rtk/test, %s (%zu bytes on average), %d connections, %.1f s\n",
           synthetic ? "one generated vitest log" : "real output from the corpus",
           body_bytes / bodies->len, n_clients, elapsed / 1e6);
  if (!synthetic)
    g_print ("  bodies:     %u corpus samples of 7–14 KB, each client in turn\n", bodies->len);
  g_print ("  requests:   %zu (%u errors)\n", n, errors);
  g_print ("  throughput: %.0f req/s\n", n / (elapsed / 1e6));
  /* what the throughput would be with the cores to itself: on a shared machine the
   * throughput follows the load of others, the processor time per request does not */
  if (n > 0)
    g_print ("  processor time: %.0f µs a request, of which the server %.0f µs (the clients "
             "share the process)\n", (double) cpu_used / n,
             (double) (cpu_used - clients_cpu) / n);
  if (n > 0)
    {
      static const char * const names[] = { "server", "workers", "winnow-events" };

      g_print ("  server threads:");
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          gint64 *before = g_hash_table_lookup (threads_before, names[i]);
          gint64 *after = g_hash_table_lookup (threads_after, names[i]);

          g_print (" %s %.0f µs%s", names[i],
                   (double) ((after ? *after : 0) - (before ? *before : 0)) / n,
                   i + 1 < G_N_ELEMENTS (names) ? "," : " a request\n");
        }
    }
  if (n > 0)
    {
      g_print ("  latency:    p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
               g_array_index (all, gint64, n / 2) / 1000.0,
               g_array_index (all, gint64, n * 9 / 10) / 1000.0,
               g_array_index (all, gint64, MIN (n - 1, n * 99 / 100)) / 1000.0,
               g_array_index (all, gint64, n - 1) / 1000.0);
      g_print ("  compression alone (server's durationMs): %.3f ms a request\n",
               compress_us / 1000.0 / n);
    }
  g_print ("  events recorded: %s\n", no_record ? "no" : "yes (batched: many to a transaction)");
  if (!no_record && n > 0)
    test_util_budget_cpu ("API, 10 KB bodies on loopback, events recorded", n / (elapsed / 1e6),
                          n / ((cpu_used - clients_cpu) / 1e6) * g_get_num_processors (), 5000,
                          TRUE, "req/s");

  g_main_loop_unref (server.loop);
  g_main_context_unref (server.context);
  g_free (clients);
  g_free (threads);
  test_util_remove_tree (server.data_dir);
  g_free (server.data_dir);
  g_free (server.token);

  return errors == 0 ? 0 : 1;
}
