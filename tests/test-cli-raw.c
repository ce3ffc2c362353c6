/* test-cli-raw.c — `winnow raw` and raw-output retention by `winnow run`, faults included:
 * secrets, an unwritable folder, a full disk, killed writers, concurrent runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "test-util.h"
#include "winnow.h"

typedef struct
{
  char     *data_dir;
  char     *raw_dir;
  char     *db;
  gboolean  signaled;
  int       status;
  char     *out;
  char     *err;
} Fixture;

static void
write_settings (Fixture    *f,
                const char *retention,
                guint       max_bytes)
{
  g_autofree char *path = g_build_filename (f->data_dir, "settings.json", NULL);
  g_autofree char *json = g_strdup_printf ("{\"rtkConfig\": {\"rawOutputRetention\": \"%s\", "
                                           "\"rawOutputMaxBytes\": %u}}", retention, max_bytes);

  test_util_write_file (path, json, -1);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->data_dir = g_dir_make_tmp ("winnow-cli-raw-XXXXXX", NULL);
  f->raw_dir = g_build_filename (f->data_dir, "rtk", "raw-output", NULL);
  f->db = winnow_store_default_path (f->data_dir);
  write_settings (f, "always", 1048576);
}

static void
fixture_clear_run (Fixture *f)
{
  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  fixture_clear_run (f);
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
  g_free (f->raw_dir);
  g_free (f->db);
}

/* a full disk, as a child sees it: files stop growing at 256 KiB */
static void
limit_file_size (gpointer user_data)
{
  struct rlimit limit = { 256 * 1024, 256 * 1024 };

  signal (SIGXFSZ, SIG_IGN);
  setrlimit (RLIMIT_FSIZE, &limit);
}

static GSubprocessLauncher *
launcher_new (Fixture *f)
{
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                             G_SUBPROCESS_FLAGS_STDERR_PIPE);

  g_subprocess_launcher_setenv (launcher, "WINNOW_DATA_DIR", f->data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_set_cwd (launcher, f->data_dir);
  return launcher;
}

static GPtrArray *
winnow_argv (const char * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  const char *binary = g_getenv ("WINNOW_BINARY");

  g_assert_nonnull (binary);
  g_ptr_array_add (argv, (gpointer) binary);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return argv;
}

static void
run_with (Fixture             *f,
          GSubprocessLauncher *launcher,
          const char * const  *args)
{
  g_autoptr(GPtrArray) argv = winnow_argv (args);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;

  fixture_clear_run (f);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &f->out, &f->err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (proc, NULL, &error);
  g_assert_no_error (error);

  f->signaled = g_subprocess_get_if_signaled (proc);
  f->status = f->signaled ? g_subprocess_get_term_sig (proc) : g_subprocess_get_exit_status (proc);
  if (f->err[0] != '\0')
    g_test_message ("stderr: %s", f->err);
}

static void
run_winnow (Fixture            *f,
            const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = launcher_new (f);

  run_with (f, launcher, args);
}

#define WINNOW(f, ...) \
  G_STMT_START { \
    const char *args_[] = { __VA_ARGS__, NULL }; \
    run_winnow (f, args_); \
  } G_STMT_END

static gint64
sql_number (Fixture    *f,
            const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_open_v2 (f->db, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static JsonObject *
raw_list (Fixture    *f,
          const char *option,
          const char *value)
{
  if (option == NULL)
    WINNOW (f, "raw", "list", "--json");
  else if (value == NULL)
    WINNOW (f, "raw", "list", "--json", option);
  else
    WINNOW (f, "raw", "list", "--json", option, value);
  g_assert_cmpint (f->status, ==, 0);
  return parse_object (f->out);
}

/* names in the raw-output folder: `.log` files, or the others (temporary files) */
static GPtrArray *
folder_names (Fixture  *f,
              gboolean  logs)
{
  g_autoptr(GDir) dir = g_dir_open (f->raw_dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".log") == logs && (name[0] != '.') == logs)
      g_ptr_array_add (names, g_strdup (name));
  return names;
}

static guint
count_names (Fixture  *f,
             gboolean  logs)
{
  g_autoptr(GPtrArray) names = folder_names (f, logs);

  return names->len;
}

/* ---- the commands ------------------------------------------------------------------------ */

static void
test_commands (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(JsonObject) list = NULL;
  g_autoptr(JsonObject) shown = NULL;
  g_autofree char *never_out = NULL;
  g_autofree char *file_text = NULL;
  g_autofree char *failed_id = NULL;
  g_autofree char *ok_id = NULL;
  JsonArray *rows;
  JsonObject *row;

  /* retention prints nothing more than no retention */
  write_settings (f, "never", 1048576);
  WINNOW (f, "run", "--", "sh", "-c", "seq 1 300; echo 'Error: boom'; exit 4");
  g_assert_cmpint (f->status, ==, 4);
  never_out = g_strdup (f->out);
  g_assert_false (g_file_test (f->raw_dir, G_FILE_TEST_EXISTS));

  write_settings (f, "always", 1048576);
  WINNOW (f, "run", "--", "sh", "-c", "seq 1 300; echo 'Error: boom'; exit 4");
  g_assert_cmpint (f->status, ==, 4);
  g_assert_cmpstr (f->out, ==, never_out);
  g_assert_cmpstr (f->err, ==, "");
  WINNOW (f, "run", "--", "sh", "-c", "seq 1 300");
  g_assert_cmpint (f->status, ==, 0);
  /* output handed on whole is not kept */
  WINNOW (f, "run", "--", "echo", "short and sweet");
  g_assert_cmpstr (f->out, ==, "short and sweet\n");

  list = raw_list (f, NULL, NULL);
  g_assert_cmpint (json_object_get_int_member (list, "total"), ==, 2);
  rows = json_object_get_array_member (list, "rawOutputs");
  g_assert_cmpuint (json_array_get_length (rows), ==, 2);
  row = json_array_get_object_element (rows, 0);          /* newest first */
  g_assert_cmpstr (json_object_get_string_member (row, "command"), ==, "sh -c 'seq 1 300'");
  g_assert_cmpint (json_object_get_int_member (row, "exitCode"), ==, 0);
  g_assert_false (json_object_get_boolean_member (row, "failure"));
  ok_id = g_strdup (json_object_get_string_member (row, "id"));
  row = json_array_get_object_element (rows, 1);
  g_assert_cmpint (json_object_get_int_member (row, "exitCode"), ==, 4);
  g_assert_true (json_object_get_boolean_member (row, "failure"));
  g_assert_cmpstr (json_object_get_string_member (row, "source"), ==, "run");
  failed_id = g_strdup (json_object_get_string_member (row, "id"));
  g_assert_true (g_file_get_contents (json_object_get_string_member (row, "path"), &file_text,
                                      NULL, NULL));
  /* the events point to their raw outputs */
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events WHERE raw_output_id IS NOT NULL"),
                   ==, 2);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events e JOIN raw_outputs r "
                                  "ON r.id = e.raw_output_id AND r.event_id = e.id"), ==, 2);
  g_clear_pointer (&list, json_object_unref);

  list = raw_list (f, "--failures", NULL);
  g_assert_cmpint (json_object_get_int_member (list, "total"), ==, 1);
  g_clear_pointer (&list, json_object_unref);
  list = raw_list (f, "--command", "BOOM");
  g_assert_cmpint (json_object_get_int_member (list, "total"), ==, 1);
  g_clear_pointer (&list, json_object_unref);
  list = raw_list (f, "--since", "1h");
  g_assert_cmpint (json_object_get_int_member (list, "total"), ==, 2);
  g_clear_pointer (&list, json_object_unref);

  WINNOW (f, "raw", "list");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, failed_id));
  g_assert_nonnull (strstr (f->out, "seq 1 300; echo"));

  /* show: the text as written */
  WINNOW (f, "raw", "show", failed_id);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, file_text);
  g_assert_true (g_str_has_prefix (f->out, "1\n2\n3\n"));
  g_assert_true (g_str_has_suffix (f->out, "300\nError: boom\n"));
  WINNOW (f, "raw", "show", "--json", failed_id);
  shown = parse_object (f->out);
  g_assert_true (json_object_get_boolean_member (shown, "intact"));
  g_assert_cmpstr (json_object_get_string_member (shown, "text"), ==, file_text);

  /* bad ids: a usage error, before anything is read */
  {
    const char *bad[] = { "../../winnow.db", "XYZ", "0123456789ABCDEF01234567", "" };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        WINNOW (f, "raw", "show", bad[i]);
        g_assert_cmpint (f->status, ==, 2);
        g_assert_nonnull (strstr (f->err, "is not a raw output id"));
        g_assert_cmpstr (f->out, ==, "");
        WINNOW (f, "raw", "rm", bad[i]);
        g_assert_cmpint (f->status, ==, 2);
      }
  }
  WINNOW (f, "raw", "show", "aaaaaaaaaaaaaaaaaaaaaaaa");
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->err, "no raw output aaaaaaaaaaaaaaaaaaaaaaaa"));
  WINNOW (f, "raw", "show");
  g_assert_cmpint (f->status, ==, 2);
  WINNOW (f, "raw", "frobnicate");
  g_assert_cmpint (f->status, ==, 2);
  WINNOW (f, "raw", "list", "--since", "yesterday");
  g_assert_cmpint (f->status, ==, 2);
  WINNOW (f, "raw", "purge", "--older-than", "soon");
  g_assert_cmpint (f->status, ==, 2);

  /* rm: the row and the file; the event stays */
  WINNOW (f, "raw", "rm", failed_id);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpuint (count_names (f, TRUE), ==, 1);
  WINNOW (f, "raw", "rm", failed_id);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events"), ==, 4);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events WHERE raw_output_id IS NOT NULL"),
                   ==, 1);

  /* purge keeps what is younger than its age */
  WINNOW (f, "raw", "purge");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "Removed 0 raw outputs older than 30d"));
  list = raw_list (f, NULL, NULL);
  g_assert_cmpint (json_object_get_int_member (list, "total"), ==, 1);
  g_clear_pointer (&list, json_object_unref);
  g_usleep (1100 * 1000);
  WINNOW (f, "raw", "purge", "--older-than", "1s");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "Removed 1 raw output older than 1s"));
  g_assert_cmpuint (count_names (f, TRUE), ==, 0);
  WINNOW (f, "raw", "show", ok_id);
  g_assert_cmpint (f->status, ==, 1);
}

/* ---- faults ------------------------------------------------------------------------------ */

/* Every secret of the corpus through `winnow run`: none reaches the raw-output folder or the
 * database. The corpus files are followed by enough noise to be compressed, so each run
 * really keeps a file. */
static void
test_secrets (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *manifest_path = g_test_build_filename (G_TEST_DIST, "redact", "manifest.json",
                                                          NULL);
  g_autofree char *manifest_text = NULL;
  g_autoptr(JsonObject) manifest = NULL;
  g_autoptr(GPtrArray) secrets = g_ptr_array_new ();
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) logs = NULL;
  JsonArray *cases;

  g_assert_true (g_file_get_contents (manifest_path, &manifest_text, NULL, NULL));
  manifest = parse_object (manifest_text);
  cases = json_object_get_array_member (manifest, "cases");

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *item = json_array_get_object_element (cases, i);
      JsonArray *case_secrets = json_object_get_array_member (item, "secrets");
      g_autofree char *file = g_test_build_filename (G_TEST_DIST, "redact",
                                                     json_object_get_string_member (item, "file"),
                                                     NULL);
      g_autofree char *line = g_strdup_printf ("cat '%s'; seq 1 400", file);

      for (guint k = 0; k < json_array_get_length (case_secrets); k++)
        g_ptr_array_add (secrets, (gpointer) json_array_get_string_element (case_secrets, k));

      WINNOW (f, "run", "--shell", "--", line);
      g_assert_cmpint (f->status, ==, 0);
    }
  g_assert_cmpuint (secrets->len, >=, 30);

  logs = folder_names (f, TRUE);
  g_assert_cmpuint (logs->len, ==, json_array_get_length (cases));
  for (guint i = 0; i < logs->len; i++)
    g_ptr_array_add (files, g_build_filename (f->raw_dir, g_ptr_array_index (logs, i), NULL));
  g_ptr_array_add (files, g_strdup (f->db));
  g_ptr_array_add (files, g_strconcat (f->db, "-wal", NULL));
  g_ptr_array_add (files, g_strconcat (f->db, "-shm", NULL));

  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (!g_file_get_contents (g_ptr_array_index (files, i), &contents, &length, NULL))
        continue;
      for (guint k = 0; k < secrets->len; k++)
        if (memmem (contents, length, secrets->pdata[k], strlen (secrets->pdata[k])) != NULL)
          g_error ("%s holds the secret %s", (char *) files->pdata[i], (char *) secrets->pdata[k]);
    }

  /* and the redactions were counted */
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM raw_outputs WHERE redactions != '{}'"),
                   >=, json_array_get_length (cases) - 1);
}

/* The folder cannot be written: the output is printed, the status is the command's, one
 * warning, and the event is recorded without a pointer. */
static void
test_unwritable (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *rtk = g_build_filename (f->data_dir, "rtk", NULL);
  g_autofree char *expected = NULL;

  write_settings (f, "never", 1048576);
  WINNOW (f, "run", "--", "sh", "-c", "seq 1 300; exit 3");
  expected = g_strdup (f->out);
  write_settings (f, "always", 1048576);

  /* a file where the folder should be stops root as well as anyone */
  g_assert_cmpint (g_mkdir_with_parents (rtk, 0700), ==, 0);
  test_util_write_file (f->raw_dir, "not a folder", -1);

  WINNOW (f, "run", "--", "sh", "-c", "seq 1 300; exit 3");
  g_assert_cmpint (f->status, ==, 3);
  g_assert_false (f->signaled);
  g_assert_cmpstr (f->out, ==, expected);
  g_assert_nonnull (strstr (f->err, "warning: the raw output was not kept"));
  g_assert_nonnull (strstr (f->err, f->raw_dir));
  g_assert_null (strstr (f->err, "event was not recorded"));
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events"), ==, 2);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events WHERE raw_output_id IS NULL"), ==, 2);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM raw_outputs"), ==, 0);

  if (geteuid () != 0)
    {
      g_assert_cmpint (g_unlink (f->raw_dir), ==, 0);
      g_assert_cmpint (g_mkdir (f->raw_dir, 0500), ==, 0);
      WINNOW (f, "run", "--", "sh", "-c", "seq 1 300; exit 3");
      g_assert_cmpint (f->status, ==, 3);
      g_assert_nonnull (strstr (f->err, "warning: the raw output was not kept"));
      g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events"), ==, 3);
      g_assert_cmpuint (count_names (f, TRUE) + count_names (f, FALSE), ==, 0);
      g_chmod (f->raw_dir, 0700);
    }
}

/* A full disk during the write: a clean warning, nothing half-written, the event recorded. */
static void
test_disk_full (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = launcher_new (f);
  const char *args[] = { "run", "--", "seq", "1", "300000", NULL };

  g_assert_cmpint (g_mkdir_with_parents (f->raw_dir, 0700), ==, 0);
  g_subprocess_launcher_set_child_setup (launcher, limit_file_size, NULL, NULL);
  run_with (f, launcher, args);

  g_assert_false (f->signaled);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_true (g_str_has_prefix (f->out, "1\n2\n"));
  g_assert_nonnull (strstr (f->err, "warning: the raw output was not kept"));
  g_assert_nonnull (strstr (f->err, "File too large"));
  g_assert_cmpuint (count_names (f, TRUE), ==, 0);
  g_assert_cmpuint (count_names (f, FALSE), ==, 0);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events WHERE raw_output_id IS NULL"), ==, 1);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM raw_outputs"), ==, 0);
}

/* Killed between write and rename: the previous raw output and the database are intact, no
 * new file shows, and the next purge removes the temporary file. Then writers killed at
 * random moments: every file that shows is whole. */
static void
test_killed (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = launcher_new (f);
  g_autoptr(JsonObject) list = NULL;
  g_autofree char *previous = NULL;
  g_autofree char *whole_sha = NULL;
  g_autoptr(GPtrArray) logs = NULL;
  const char *big[] = { "run", "--", "seq", "1", "400000", NULL };
  gint64 rows, took;
  guint killed = 0;

  WINNOW (f, "run", "--", "sh", "-c", "seq 1 300; exit 1");
  list = raw_list (f, NULL, NULL);
  previous = g_strdup (json_object_get_string_member (
    json_array_get_object_element (json_object_get_array_member (list, "rawOutputs"), 0), "id"));

  g_subprocess_launcher_setenv (launcher, "WINNOW_RAW_OUTPUT_FAULT", "kill-before-rename", TRUE);
  /* under `./dev test --valgrind`: a process that kills itself has no meaningful leak check */
  g_subprocess_launcher_setenv (launcher, "WINNOW_VALGRIND_TAG", "self-killed", TRUE);
  run_with (f, launcher, (const char *[]) { "run", "--", "sh", "-c", "seq 1 500; exit 2", NULL });
  g_assert_true (f->signaled);
  g_assert_cmpint (f->status, ==, SIGKILL);
  /* the output was printed before the writer died */
  g_assert_true (g_str_has_prefix (f->out, "1\n2\n"));
  g_assert_cmpuint (count_names (f, TRUE), ==, 1);
  g_assert_cmpuint (count_names (f, FALSE), ==, 1);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM raw_outputs"), ==, 1);
  WINNOW (f, "raw", "show", "--json", previous);
  g_assert_cmpint (f->status, ==, 0);
  g_clear_pointer (&list, json_object_unref);
  list = parse_object (f->out);
  g_assert_true (json_object_get_boolean_member (list, "intact"));

  WINNOW (f, "raw", "purge");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpuint (count_names (f, FALSE), ==, 0);
  g_assert_cmpuint (count_names (f, TRUE), ==, 1);

  /* one run to the end gives the whole file, and how long a run takes */
  {
    gint64 before = g_get_monotonic_time ();
    g_autoptr(JsonObject) newest = NULL;
    JsonObject *row;

    g_subprocess_launcher_unsetenv (launcher, "WINNOW_RAW_OUTPUT_FAULT");
    g_subprocess_launcher_setenv (launcher, "WINNOW_VALGRIND_TAG", "checked", TRUE);
    run_with (f, launcher, big);
    took = g_get_monotonic_time () - before;
    g_assert_cmpint (f->status, ==, 0);
    g_assert_cmpstr (f->err, ==, "");
    newest = raw_list (f, "--limit", "1");
    row = json_array_get_object_element (json_object_get_array_member (newest, "rawOutputs"), 0);
    whole_sha = g_strdup (json_object_get_string_member (row, "sha256"));
    g_assert_cmpint (json_object_get_int_member (row, "originalBytes"), >, 2000000);
  }

  /* killed at random moments, most of them late in the run, where the file is written */
  for (guint i = 0; i < 16; i++)
    {
      g_autoptr(GPtrArray) argv = winnow_argv (big);
      g_autoptr(GError) error = NULL;
      g_autoptr(GSubprocess) proc = NULL;
      g_autoptr(GSubprocessLauncher) quiet = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);

      g_subprocess_launcher_setenv (quiet, "WINNOW_DATA_DIR", f->data_dir, TRUE);
      proc = g_subprocess_launcher_spawnv (quiet, (const char * const *) argv->pdata, &error);
      g_assert_no_error (error);
      g_usleep (i < 4 ? g_test_rand_int_range (0, took) : g_test_rand_int_range (took / 2, took * 11 / 10));
      g_subprocess_force_exit (proc);
      g_subprocess_wait (proc, NULL, NULL);
      if (g_subprocess_get_if_signaled (proc))
        killed++;
    }
  rows = sql_number (f, "SELECT count(*) FROM raw_outputs");

  /* every file that shows is whole: the previous one, or the same output as the full run */
  logs = folder_names (f, TRUE);
  g_test_message ("%u killed; %u files, %" G_GINT64_FORMAT " rows, %u temporary files",
                  killed, logs->len, rows, count_names (f, FALSE));
  g_assert_cmpint (logs->len, >=, rows);
  for (guint i = 0; i < logs->len; i++)
    {
      const char *name = g_ptr_array_index (logs, i);
      g_autofree char *path = g_build_filename (f->raw_dir, name, NULL);
      g_autofree char *contents = NULL;
      g_autofree char *sha = NULL;
      gsize length;

      if (strstr (name, previous) != NULL)
        continue;
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      sha = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
      g_assert_cmpstr (sha, ==, whole_sha);
    }
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM pragma_integrity_check "
                                  "WHERE integrity_check != 'ok'"), ==, 0);
}

/* 8 processes × 20 runs at once: every event and every raw output is recorded. */
static void
test_concurrent (Fixture       *f,
                 gconstpointer  data)
{
  const char *script = "for i in $(seq 1 20); do "
                       "\"$WINNOW_BINARY\" run -- sh -c \"seq 1 300; echo run $1.$i\" "
                       ">/dev/null || exit 1; done";
  GSubprocess *procs[8];

  for (guint p = 0; p < G_N_ELEMENTS (procs); p++)
    {
      g_autoptr(GSubprocessLauncher) launcher =
        g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
      g_autoptr(GError) error = NULL;
      g_autofree char *n = g_strdup_printf ("%u", p);

      g_subprocess_launcher_setenv (launcher, "WINNOW_DATA_DIR", f->data_dir, TRUE);
      procs[p] = g_subprocess_launcher_spawn (launcher, &error, "sh", "-c", script, "sh", n, NULL);
      g_assert_no_error (error);
    }

  for (guint p = 0; p < G_N_ELEMENTS (procs); p++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *err = NULL;

      g_subprocess_communicate_utf8 (procs[p], NULL, NULL, NULL, &err, &error);
      g_assert_no_error (error);
      g_subprocess_wait (procs[p], NULL, NULL);
      g_assert_cmpstr (err, ==, "");
      g_assert_true (g_subprocess_get_successful (procs[p]));
      g_object_unref (procs[p]);
    }

  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM events"), ==, 160);
  g_assert_cmpint (sql_number (f, "SELECT count(*) FROM raw_outputs"), ==, 160);
  g_assert_cmpint (sql_number (f, "SELECT count(DISTINCT raw_output_id) FROM events"), ==, 160);
  g_assert_cmpuint (count_names (f, TRUE), ==, 160);
  g_assert_cmpuint (count_names (f, FALSE), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/winnow/cli/raw/commands", test_commands);
  ADD ("/winnow/cli/raw/secrets", test_secrets);
  ADD ("/winnow/cli/raw/unwritable", test_unwritable);
  ADD ("/winnow/cli/raw/disk-full", test_disk_full);
  ADD ("/winnow/cli/raw/killed", test_killed);
  ADD ("/winnow/cli/raw/concurrent", test_concurrent);
#undef ADD

  return g_test_run ();
}
