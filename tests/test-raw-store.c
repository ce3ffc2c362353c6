/* test-raw-store.c — retained raw outputs: retention, cut, redaction, atomic writes, reading,
 * lists, removal, purge, faults; the last trust approval
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-util.h"
#include "winnow.h"
#include "winnow-store-private.h"

#define GITHUB_TOKEN "ghp_kbjhfHmPkyOLvVIuSB6ql4pc6tmf3CTijNLG"
#define AWS_KEY      "AKIAOLC2JQNTQ7HSIT74"

typedef struct
{
  char        *data_dir;
  char        *raw_dir;
  WinnowStore *store;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->data_dir = g_dir_make_tmp ("winnow-raw-store-XXXXXX", NULL);
  f->raw_dir = g_build_filename (f->data_dir, "rtk", "raw-output", NULL);
  path = winnow_store_default_path (f->data_dir);
  f->store = winnow_store_open (path, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->store);
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
  g_free (f->raw_dir);
}

static WinnowRawOutputInfo *
save (Fixture    *f,
      const char *text,
      const char *command,
      int         exit_code,
      gsize       max_bytes)
{
  g_autoptr(GError) error = NULL;
  WinnowRawOutputRequest request;
  WinnowRawOutputInfo *info;

  winnow_raw_output_request_init (&request, "run", text, strlen (text));
  request.command = command;
  request.has_exit_code = TRUE;
  request.exit_code = exit_code;
  request.compressed = TRUE;
  info = winnow_store_save_raw_output (f->store, &request, max_bytes, &error);
  g_assert_no_error (error);
  g_assert_nonnull (info);
  return info;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* names in the folder, sorted, dot files included */
static GPtrArray *
folder_names (Fixture *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->raw_dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* ---- deciding ---------------------------------------------------------------------------- */

static void
test_retention (void)
{
  WinnowRawOutputRequest request;
  WinnowRawRetention retention;
  const char *ok = "compiled 12 files\nall good\n";
  const struct { const char *text; gboolean failed; } words[] = {
    { "Error: cannot find module 'x'", TRUE },
    { "1 test FAILED", TRUE },
    { "Traceback (most recent call last):", TRUE },
    { "thread 'main' panicked at src/lib.rs:3\npanic: boom", TRUE },
    { "src/a.ts(3,1): error TS2304: Cannot find name 'x'.", TRUE },
    { "FAIL  src/a.test.ts", TRUE },
    { "CRITICAL disk almost full", TRUE },
    { "0 errors, 0 warnings", FALSE },       /* a word, not a prefix */
    { "terrorism report", FALSE },
    { "failover configured", FALSE },
    { ok, FALSE },
  };

  g_assert_true (winnow_raw_retention_from_string ("never", &retention));
  g_assert_cmpint (retention, ==, WINNOW_RAW_RETENTION_NEVER);
  g_assert_true (winnow_raw_retention_from_string ("failures", &retention));
  g_assert_cmpint (retention, ==, WINNOW_RAW_RETENTION_FAILURES);
  g_assert_true (winnow_raw_retention_from_string ("always", &retention));
  g_assert_cmpint (retention, ==, WINNOW_RAW_RETENTION_ALWAYS);
  g_assert_false (winnow_raw_retention_from_string ("sometimes", &retention));

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      winnow_raw_output_request_init (&request, "run", words[i].text, strlen (words[i].text));
      request.compressed = TRUE;
      g_test_message ("%s", words[i].text);
      g_assert_cmpint (winnow_raw_output_looks_failed (&request), ==, words[i].failed);
      g_assert_cmpint (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_FAILURES, &request),
                       ==, words[i].failed);
      g_assert_true (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_ALWAYS, &request));
      g_assert_false (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_NEVER, &request));
    }

  /* a non-zero exit status or errors the detector saw are failures whatever the words */
  winnow_raw_output_request_init (&request, "run", ok, strlen (ok));
  request.compressed = TRUE;
  request.has_exit_code = TRUE;
  request.exit_code = 1;
  g_assert_true (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_FAILURES, &request));
  request.exit_code = 0;
  g_assert_false (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_FAILURES, &request));
  request.has_errors = TRUE;
  g_assert_true (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_FAILURES, &request));

  /* output handed on whole is never kept: nothing was left out */
  request.compressed = FALSE;
  g_assert_false (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_ALWAYS, &request));
  g_assert_false (winnow_raw_output_should_retain (WINNOW_RAW_RETENTION_FAILURES, &request));
}

/* The settings decide, through a real pipeline result. */
static void
test_retain_settings (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *settings = g_build_filename (f->data_dir, "settings.json", NULL);
  GString *log = g_string_new ("$ npm test\n");
  g_autofree char *text = NULL;
  const char *modes[] = { "never", "failures", "always" };

  for (guint i = 0; i < 400; i++)
    g_string_append_printf (log, "  ✓ test case number %u passes (%u ms)\n", i, i % 7);
  g_string_append (log, "Tests: 400 passed, 400 total\n");
  text = g_string_free (log, FALSE);

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int exit_code = 0; exit_code < 2; exit_code++)
      {
        g_autofree char *json = g_strdup_printf ("{\"rtkConfig\": {\"rawOutputRetention\": \"%s\", "
                                                 "\"rawOutputMaxBytes\": 4096}}", modes[m]);
        g_autoptr(WinnowContext) context = NULL;
        g_autoptr(WinnowPipeline) pipeline = NULL;
        g_autoptr(WinnowPipelineResult) result = NULL;
        g_autoptr(WinnowRawOutputInfo) info = NULL;
        g_autoptr(GError) error = NULL;
        WinnowPipelineRequest request;
        WinnowRawOutputRequest raw;
        gboolean expected = m == 2 || (m == 1 && exit_code != 0);

        test_util_write_file (settings, json, -1);
        context = winnow_context_new (f->data_dir, NULL);
        pipeline = winnow_pipeline_new (context);
        winnow_pipeline_request_init (&request);
        request.mode = WINNOW_PIPELINE_MODE_RTK;
        request.command = "npm test";
        result = winnow_pipeline_run_text (pipeline, text, -1, &request, &error);
        g_assert_no_error (error);

        winnow_raw_output_request_init (&raw, "run", text, strlen (text));
        winnow_raw_output_request_set_result (&raw, result);
        g_assert_true (raw.compressed);
        raw.command = "npm test";
        raw.has_exit_code = TRUE;
        raw.exit_code = exit_code;

        info = winnow_store_retain_raw_output (f->store, winnow_context_get_config (context),
                                               &raw, &error);
        g_assert_no_error (error);
        g_test_message ("%s, exit %d: %s", modes[m], exit_code, info ? info->id : "nothing");
        g_assert_cmpint (info != NULL, ==, expected);
        if (info != NULL)
          {
            g_assert_cmpuint (info->bytes, <=, 4096);
            g_assert_true (info->truncated);
            g_assert_cmpuint (info->original_bytes, ==, strlen (text));
            g_assert_cmpint (info->failure, ==, exit_code != 0);
          }
      }

  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, NULL, NULL), ==, 3);
}

/* ---- writing ----------------------------------------------------------------------------- */

static void
test_save (Fixture       *f,
           gconstpointer  data)
{
  const char *text = "$ env\nHOME=/home/me\nGITHUB_TOKEN=" GITHUB_TOKEN "\n"
                     "AWS_ACCESS_KEY_ID=" AWS_KEY "\nError: deploy failed\n";
  g_autoptr(WinnowRawOutputInfo) info = save (f, text, "curl -H 'Authorization: Bearer "
                                              "abcdef0123456789abcdef' https://x/deploy", 3, 0);
  g_autoptr(GRegex) name_shape = g_regex_new ("^[0-9]{13}-[A-Za-z0-9_-]{1,48}-[a-f0-9]{24}\\.log$",
                                              0, 0, NULL);
  g_autoptr(GPtrArray) names = folder_names (f);
  g_autofree char *contents = NULL;
  g_autofree char *sha = NULL;
  g_autofree char *base = NULL;
  g_autofree char *prefix = NULL;
  struct stat st;

  g_assert_true (winnow_raw_output_id_is_valid (info->id));
  g_assert_cmpuint (names->len, ==, 1);
  base = g_path_get_basename (info->path);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, base);
  g_assert_true (g_regex_match (name_shape, base, 0, NULL));
  prefix = g_strdup_printf ("%" G_GINT64_FORMAT "-", info->created_us / 1000);
  g_assert_true (g_str_has_prefix (base, prefix));
  /* the slug comes from the redacted command */
  g_assert_null (strstr (base, "abcdef0123456789abcdef"));
  g_assert_null (strstr (info->command, "abcdef0123456789abcdef"));
  g_assert_nonnull (strstr (info->command, "https://x/deploy"));

  g_assert_cmpint (g_stat (info->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  contents = read_text (info->path);
  g_assert_null (strstr (contents, GITHUB_TOKEN));
  g_assert_null (strstr (contents, AWS_KEY));
  g_assert_nonnull (strstr (contents, "GITHUB_TOKEN=[REDACTED_GITHUB_TOKEN]"));
  g_assert_nonnull (strstr (contents, "Error: deploy failed\n"));
  g_assert_cmpuint (info->bytes, ==, strlen (contents));
  sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, contents, -1);
  g_assert_cmpstr (info->sha256, ==, sha);
  g_assert_nonnull (strstr (info->redactions, "\"github-token\":1"));
  g_assert_nonnull (strstr (info->redactions, "\"aws-access-key-id\":1"));
  g_assert_false (info->truncated);
  g_assert_true (info->failure);

  /* the row says the same */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(WinnowRawOutputInfo) row = winnow_store_lookup_raw_output (f->store, info->id,
                                                                         &error);

    g_assert_no_error (error);
    g_assert_cmpstr (row->path, ==, info->path);
    g_assert_cmpstr (row->sha256, ==, info->sha256);
    g_assert_cmpstr (row->redactions, ==, info->redactions);
    g_assert_cmpstr (row->command, ==, info->command);
    g_assert_cmpstr (row->source, ==, "run");
    g_assert_true (row->has_exit_code);
    g_assert_cmpint (row->exit_code, ==, 3);
    g_assert_cmpint (row->created_us, ==, info->created_us);
  }

  /* no command: the slug says so */
  {
    g_autoptr(WinnowRawOutputInfo) other = save (f, "x\n", NULL, 0, 0);
    g_autofree char *other_base = g_path_get_basename (other->path);

    g_assert_nonnull (strstr (other_base, "-tool-output-"));
    g_assert_cmpstr (other->id, !=, info->id);
  }
}

/* A cut falls on a character and says so; the file holds at most rawOutputMaxBytes. A secret
 * across the cut does not leave its first half behind. */
static void
test_cut (Fixture       *f,
          gconstpointer  data)
{
  GString *text = g_string_new (NULL);
  g_autoptr(WinnowRawOutputInfo) info = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  while (text->len < 990)
    g_string_append (text, "日本語のログ ");
  g_string_append (text, "token=" GITHUB_TOKEN " ");
  while (text->len < 5000)
    g_string_append (text, "é");

  info = save (f, text->str, "make", 0, 1024);
  g_assert_true (g_file_get_contents (info->path, &contents, &length, NULL));
  g_assert_cmpuint (length, <=, 1024);
  g_assert_cmpuint (length, >, 900);
  g_assert_cmpuint (info->bytes, ==, length);
  g_assert_true (g_utf8_validate (contents, length, NULL));
  g_assert_true (info->truncated);
  g_assert_cmpuint (info->original_bytes, ==, text->len);
  g_assert_nonnull (strstr (contents, "[winnow: raw output cut at rawOutputMaxBytes; "));
  g_assert_true (g_str_has_suffix (contents, " bytes not kept]\n"));
  g_assert_null (strstr (contents, "ghp_kbjh"));

  /* under the limit nothing is cut; a limit under 1024 counts as 1024 */
  {
    g_autoptr(WinnowRawOutputInfo) small = save (f, "short\n", NULL, 0, 10);

    g_assert_false (small->truncated);
    g_assert_cmpuint (small->bytes, ==, 6);
  }
  g_string_free (text, TRUE);
}

/* ---- reading ----------------------------------------------------------------------------- */

static void
test_read (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(WinnowRawOutputInfo) info = save (f, "npm ERR! code E404\n", "npm install", 1, 0);
  g_autofree char *token = g_build_filename (f->data_dir, "api-token", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(WinnowRawOutputInfo) row = NULL;
  const char *invalid[] = {
    "../../api-token", "..", "", "0123456789ABCDEF01234567", "0123456789abcdef0123456",
    "0123456789abcdef012345678", "0123456789abcdef0123456g", "0123456789abcdef01234567/",
    "/etc/passwd", "0123456789abcdef01234567\n",
  };

  bytes = winnow_store_read_raw_output (f->store, info->id, &row, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   "npm ERR! code E404\n", 19);
  g_assert_cmpstr (row->id, ==, info->id);

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_assert_false (winnow_raw_output_id_is_valid (invalid[i]));
      g_assert_null (winnow_store_lookup_raw_output (f->store, invalid[i], &error));
      g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID);
      g_clear_error (&error);
      g_assert_null (winnow_store_read_raw_output (f->store, invalid[i], NULL, &error));
      g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID);
      g_clear_error (&error);
    }

  g_assert_null (winnow_store_read_raw_output (f->store, "aaaaaaaaaaaaaaaaaaaaaaaa", NULL, &error));
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* a row pointing outside the folder is not believed */
  test_util_write_file (token, "secret-token\n", -1);
  {
    WinnowRawOutputInfo outside = { 0 };

    outside.id = (char *) "bbbbbbbbbbbbbbbbbbbbbbbb";
    outside.sha256 = (char *) "00";
    outside.path = token;
    g_assert_true (_winnow_store_insert_raw_output (f->store, &outside, &error));
    g_assert_no_error (error);
    g_assert_null (winnow_store_read_raw_output (f->store, outside.id, NULL, &error));
    g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }

  /* nor a link in the folder named after the id */
  {
    WinnowRawOutputInfo linked = { 0 };
    g_autofree char *link = g_build_filename (f->raw_dir, "1-x-cccccccccccccccccccccccc.log", NULL);

    g_assert_cmpint (symlink (token, link), ==, 0);
    linked.id = (char *) "cccccccccccccccccccccccc";
    linked.sha256 = (char *) "00";
    linked.path = link;
    g_assert_true (_winnow_store_insert_raw_output (f->store, &linked, &error));
    g_assert_null (winnow_store_read_raw_output (f->store, linked.id, NULL, &error));
    g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }

  /* a file gone from under its row */
  g_assert_cmpint (g_unlink (info->path), ==, 0);
  g_assert_null (winnow_store_read_raw_output (f->store, info->id, NULL, &error));
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND);
}

/* ---- lists ------------------------------------------------------------------------------- */

/* @n rows straight into the database, one transaction, no files: a list must not need them */
static void
insert_rows (Fixture *f,
             guint    n,
             gint64   start_us)
{
  g_autofree char *path = winnow_store_default_path (f->data_dir);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);
  g_assert_cmpint (sqlite3_exec (db, "BEGIN", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO raw_outputs (id, created, bytes, sha256, "
                                       "path, command, exit_code, failure, source) "
                                       "VALUES (?1, ?2, 10, 'ab', ?3, ?4, ?5, ?6, 'run')",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("%024x", i);
      g_autofree char *file = g_strdup_printf ("%s/1-x-%s.log", f->raw_dir, id);
      const char *command = i % 3 == 0 ? "npm test" : i % 3 == 1 ? "cargo build" : "git status";

      sqlite3_bind_text (stmt, 1, id, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (stmt, 2, start_us + i * (gint64) G_USEC_PER_SEC);
      sqlite3_bind_text (stmt, 3, file, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 4, command, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 5, i % 5 == 0 ? 1 : 0);
      sqlite3_bind_int (stmt, 6, i % 5 == 0);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static void
test_list (Fixture       *f,
           gconstpointer  data)
{
  gint64 start = g_get_real_time () - 20000 * (gint64) G_USEC_PER_SEC;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  WinnowRawOutputQuery query = { 0 };
  WinnowRawOutputInfo *row;
  gint64 before, took;

  insert_rows (f, 10000, start);

  /* a page of the newest, fast, without a single file on disk */
  g_assert_false (g_file_test (f->raw_dir, G_FILE_TEST_EXISTS));
  query.limit = 50;
  before = g_get_monotonic_time ();
  rows = winnow_store_list_raw_outputs (f->store, &query, &error);
  took = g_get_monotonic_time () - before;
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 50);
  g_test_message ("a page of 50 of 10000 rows: %" G_GINT64_FORMAT " µs", took);
  g_assert_cmpint (took, <, 200 * 1000);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->id, ==, "00000000000000000000270f");   /* 9999: the newest */
  for (guint i = 1; i < rows->len; i++)
    g_assert_cmpint (((WinnowRawOutputInfo *) rows->pdata[i - 1])->created_us, >,
                     ((WinnowRawOutputInfo *) rows->pdata[i])->created_us);
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, &query, &error), ==, 10000);
  g_clear_pointer (&rows, g_ptr_array_unref);

  /* the next page starts where the first ended */
  query.offset = 50;
  rows = winnow_store_list_raw_outputs (f->store, &query, &error);
  g_assert_cmpstr (((WinnowRawOutputInfo *) rows->pdata[0])->id, ==, "0000000000000000000026dd");   /* 9949 */
  g_clear_pointer (&rows, g_ptr_array_unref);

  /* filters */
  query.offset = 0;
  query.limit = 0;
  query.failures_only = TRUE;
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, &query, &error), ==, 2000);
  rows = winnow_store_list_raw_outputs (f->store, &query, &error);
  g_assert_cmpuint (rows->len, ==, 2000);
  for (guint i = 0; i < rows->len; i++)
    {
      row = g_ptr_array_index (rows, i);
      g_assert_true (row->failure);
      g_assert_true (row->has_exit_code);
      g_assert_cmpint (row->exit_code, ==, 1);
    }
  g_clear_pointer (&rows, g_ptr_array_unref);

  query.command = "NPM";
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, &query, &error), ==, 667);
  query.failures_only = FALSE;
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, &query, &error), ==, 3334);
  query.command = "%";                         /* taken literally */
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, &query, &error), ==, 0);
  query.command = NULL;
  query.since_us = start + 9900 * (gint64) G_USEC_PER_SEC;
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, &query, &error), ==, 100);
  g_assert_no_error (error);

  /* the list is served by the index on the time */
  {
    g_autofree char *path = winnow_store_default_path (f->data_dir);
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    GString *plan = g_string_new (NULL);

    g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "EXPLAIN QUERY PLAN SELECT id FROM raw_outputs "
                                         "WHERE created >= 0 ORDER BY created DESC, id DESC "
                                         "LIMIT 50", -1, &stmt, NULL), ==, SQLITE_OK);
    while (sqlite3_step (stmt) == SQLITE_ROW)
      g_string_append_printf (plan, "%s\n", sqlite3_column_text (stmt, 3));
    sqlite3_finalize (stmt);
    sqlite3_close (db);
    g_test_message ("%s", plan->str);
    g_assert_nonnull (strstr (plan->str, "raw_outputs_created"));
    g_assert_null (strstr (plan->str, "TEMP B-TREE"));
    g_string_free (plan, TRUE);
  }
}

static void
list_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GPtrArray **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = winnow_store_list_raw_outputs_finish (WINNOW_STORE (source), result, &error);
  g_assert_no_error (error);
}

typedef struct
{
  GBytes              *bytes;
  WinnowRawOutputInfo *info;
  GError              *error;
  gboolean             done;
} ReadResult;

static void
read_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  ReadResult *out = user_data;

  out->bytes = winnow_store_read_raw_output_finish (WINNOW_STORE (source), result, &out->info,
                                                    &out->error);
  out->done = TRUE;
}

static void
test_async (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(WinnowRawOutputInfo) info = save (f, "FAIL one\n", "npm test", 1, 0);
  g_autoptr(WinnowRawOutputInfo) other = save (f, "all fine\n", "ls", 0, 0);
  g_autoptr(GPtrArray) rows = NULL;
  WinnowRawOutputQuery query = { 0 };
  ReadResult read = { 0 };
  ReadResult bad = { 0 };
  char command[] = "npm";

  query.command = command;
  winnow_store_list_raw_outputs_async (f->store, &query, NULL, list_done, &rows);
  command[0] = 'x';                               /* the query was copied */
  while (rows == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpstr (((WinnowRawOutputInfo *) rows->pdata[0])->id, ==, info->id);

  winnow_store_read_raw_output_async (f->store, info->id, NULL, read_done, &read);
  winnow_store_read_raw_output_async (f->store, "../x", NULL, read_done, &bad);
  while (!read.done || !bad.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (read.error);
  g_assert_cmpmem (g_bytes_get_data (read.bytes, NULL), g_bytes_get_size (read.bytes),
                   "FAIL one\n", 9);
  g_assert_cmpstr (read.info->command, ==, "npm test");
  g_assert_null (bad.bytes);
  g_assert_error (bad.error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID);

  g_bytes_unref (read.bytes);
  winnow_raw_output_info_free (read.info);
  g_error_free (bad.error);
}

/* ---- removing ---------------------------------------------------------------------------- */

static void
test_delete (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(WinnowRawOutputInfo) info = save (f, "Error: x\n", "make", 2, 0);
  g_autoptr(WinnowRawOutputInfo) kept = save (f, "Error: y\n", "make", 2, 0);
  g_autoptr(GError) error = NULL;
  WinnowStoreEvent event;
  gint64 event_id;

  winnow_store_event_init (&event, "run");
  event.raw_output_id = info->id;
  event.filter_id = "build-make";
  event.tokens_before = 120;
  event.tokens_after = 30;
  g_assert_true (winnow_store_record (f->store, &event, &event_id, &error));

  /* while its event is kept, a raw output says which filter ran and what it saved */
  {
    g_autoptr(WinnowRawOutputInfo) linked = winnow_store_lookup_raw_output (f->store, info->id, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (linked->filter_id, ==, "build-make");
    g_assert_true (linked->has_tokens);
    g_assert_cmpint (linked->tokens_before - linked->tokens_after, ==, 90);
  }

  g_assert_true (winnow_store_delete_raw_output (f->store, info->id, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (info->path, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (kept->path, G_FILE_TEST_EXISTS));
  /* the event stays */
  g_assert_cmpint (winnow_store_count_events (f->store, &error), ==, 1);

  g_assert_false (winnow_store_delete_raw_output (f->store, info->id, &error));
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (winnow_store_delete_raw_output (f->store, "../winnow.db", &error));
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID);
  g_assert_true (g_file_test (winnow_store_get_path (f->store), G_FILE_TEST_EXISTS));
}

static void
test_purge (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(WinnowRawOutputInfo) fresh = save (f, "new\n", "a", 0, 0);
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_real_time ();
  gint64 old_us = now - 40 * G_TIME_SPAN_DAY;
  g_autofree char *old_file = g_strdup_printf ("%s/%" G_GINT64_FORMAT "-old-%s.log", f->raw_dir,
                                               old_us / 1000, "dddddddddddddddddddddddd");
  g_autofree char *orphan = g_strdup_printf ("%s/%" G_GINT64_FORMAT "-gone-%s.log", f->raw_dir,
                                             old_us / 1000, "eeeeeeeeeeeeeeeeeeeeeeee");
  g_autofree char *young_orphan = g_strdup_printf ("%s/%" G_GINT64_FORMAT "-young-%s.log",
                                                   f->raw_dir, now / 1000,
                                                   "ffffffffffffffffffffffff");
  g_autofree char *dead_temp = NULL;
  g_autofree char *live_temp = g_strdup_printf ("%s/.tmp-%d-abcdef", f->raw_dir, (int) getpid ());
  g_autofree char *stranger = g_build_filename (f->raw_dir, "notes.txt", NULL);
  WinnowRawOutputInfo old = { 0 };
  pid_t child;
  int status;

  /* a pid that was alive and is not any more */
  child = fork ();
  if (child == 0)
    _exit (0);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  dead_temp = g_strdup_printf ("%s/.tmp-%d-abcdef", f->raw_dir, (int) child);

  test_util_write_file (old_file, "old\n", -1);
  old.id = (char *) "dddddddddddddddddddddddd";
  old.created_us = old_us;
  old.sha256 = (char *) "00";
  old.path = old_file;
  g_assert_true (_winnow_store_insert_raw_output (f->store, &old, &error));
  for (guint i = 0; i < 4; i++)
    test_util_write_file ((const char *[]) { orphan, young_orphan, dead_temp, live_temp }[i],
                          "x", -1);
  test_util_write_file (stranger, "mine", -1);

  /* the old row and its file, the old orphan: 2 */
  g_assert_cmpint (winnow_store_purge_raw_outputs (f->store, now - 30 * G_TIME_SPAN_DAY, &error),
                   ==, 2);
  g_assert_no_error (error);
  g_assert_false (g_file_test (old_file, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (orphan, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (dead_temp, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (young_orphan, G_FILE_TEST_EXISTS));   /* its writer may insert yet */
  g_assert_true (g_file_test (live_temp, G_FILE_TEST_EXISTS));      /* its writer is running */
  g_assert_true (g_file_test (stranger, G_FILE_TEST_EXISTS));       /* not ours */
  g_assert_true (g_file_test (fresh->path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, NULL, &error), ==, 1);
}

/* ---- faults ------------------------------------------------------------------------------ */

/* The writer dies between writing and renaming: the folder shows no new file, the rows and the
 * previous raw output are as they were, and the next purge removes the temporary file. */
static void
test_killed_writer (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(WinnowRawOutputInfo) before = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = winnow_store_default_path (g_getenv ("WINNOW_TEST_PARENT_DIR"));
  g_autofree char *tag = NULL;
  guint temps = 0;

  if (g_test_subprocess ())
    {
      g_autoptr(WinnowStore) store = winnow_store_open (path, &error);
      WinnowRawOutputRequest request;
      g_autofree char *big = g_strnfill (512 * 1024, 'x');

      g_assert_no_error (error);
      g_setenv ("WINNOW_RAW_OUTPUT_FAULT", "kill-before-rename", TRUE);
      winnow_raw_output_request_init (&request, "run", big, strlen (big));
      request.compressed = TRUE;
      winnow_store_save_raw_output (store, &request, 1024 * 1024, NULL);
      g_assert_not_reached ();
    }

  before = save (f, "the previous one\n", "make", 1, 0);
  names = folder_names (f);

  /* the child has a fixture of its own: it works on this one's folder */
  g_setenv ("WINNOW_TEST_PARENT_DIR", f->data_dir, TRUE);
  /* under `./dev test --valgrind`: a process that kills itself has no meaningful leak check */
  tag = g_strdup (g_getenv ("WINNOW_VALGRIND_TAG"));
  g_setenv ("WINNOW_VALGRIND_TAG", "self-killed", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  if (tag != NULL)
    g_setenv ("WINNOW_VALGRIND_TAG", tag, TRUE);
  else
    g_unsetenv ("WINNOW_VALGRIND_TAG");
  g_test_trap_assert_failed ();

  after = folder_names (f);
  for (guint i = 0; i < after->len; i++)
    {
      const char *name = g_ptr_array_index (after, i);

      if (g_str_has_prefix (name, ".tmp-"))
        temps++;
      else
        g_assert_true (g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL));
    }
  g_assert_cmpuint (temps, ==, 1);
  g_assert_cmpuint (after->len, ==, names->len + 1);

  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, NULL, &error), ==, 1);
  bytes = winnow_store_read_raw_output (f->store, before->id, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   "the previous one\n", 17);

  /* the dead writer's temporary file goes with the next purge; nothing else does */
  g_assert_cmpint (winnow_store_purge_raw_outputs (f->store, 0, &error), ==, 0);
  g_clear_pointer (&after, g_ptr_array_unref);
  after = folder_names (f);
  g_assert_cmpuint (after->len, ==, names->len);
}

/* A failure between write and rename, an unwritable folder, a full disk: an error naming the
 * file, nothing left behind, the previous state untouched. */
static void
assert_nothing_left (Fixture    *f,
                     GPtrArray  *names_before)
{
  g_autoptr(GPtrArray) names = folder_names (f);

  g_assert_cmpuint (names->len, ==, names_before->len);
  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (g_ptr_array_index (names, i), ==, g_ptr_array_index (names_before, i));
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, NULL, NULL), ==, 1);
}

static void
test_failed_writes (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(WinnowRawOutputInfo) before = save (f, "previous\n", "make", 1, 0);
  g_autoptr(GPtrArray) names = folder_names (f);
  g_autoptr(GError) error = NULL;
  WinnowRawOutputRequest request;
  const char *text = "Error: something\n";

  winnow_raw_output_request_init (&request, "run", text, strlen (text));
  request.compressed = TRUE;

  g_setenv ("WINNOW_RAW_OUTPUT_FAULT", "fail-before-rename", TRUE);
  g_assert_null (winnow_store_save_raw_output (f->store, &request, 0, &error));
  g_unsetenv ("WINNOW_RAW_OUTPUT_FAULT");
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, f->raw_dir));
  g_clear_error (&error);
  assert_nothing_left (f, names);

  /* the folder is a file: as good as unwritable, even for root */
  {
    g_autofree char *moved = g_strconcat (f->raw_dir, ".away", NULL);

    g_assert_cmpint (g_rename (f->raw_dir, moved), ==, 0);
    test_util_write_file (f->raw_dir, "not a folder", -1);
    g_assert_null (winnow_store_save_raw_output (f->store, &request, 0, &error));
    g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO);
    g_test_message ("%s", error->message);
    g_clear_error (&error);
    g_assert_cmpint (g_unlink (f->raw_dir), ==, 0);
    g_assert_cmpint (g_rename (moved, f->raw_dir), ==, 0);
    assert_nothing_left (f, names);
  }

  /* a folder without write permission (root writes anyway) */
  if (geteuid () != 0)
    {
      g_assert_cmpint (g_chmod (f->raw_dir, 0500), ==, 0);
      g_assert_null (winnow_store_save_raw_output (f->store, &request, 0, &error));
      g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO);
      g_clear_error (&error);
      g_assert_cmpint (g_chmod (f->raw_dir, 0700), ==, 0);
      assert_nothing_left (f, names);
    }
}

/* A full disk, as RLIMIT_FSIZE makes one in a child: the write fails with EFBIG. */
static void
test_disk_full (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(WinnowRawOutputInfo) before = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *path = winnow_store_default_path (g_getenv ("WINNOW_TEST_PARENT_DIR"));

  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WinnowStore) store = winnow_store_open (path, &error);
      struct rlimit limit = { 64 * 1024, 64 * 1024 };
      g_autofree char *big = g_strnfill (512 * 1024, 'y');
      WinnowRawOutputRequest request;

      g_assert_no_error (error);
      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
      winnow_raw_output_request_init (&request, "run", big, strlen (big));
      request.compressed = TRUE;
      g_assert_null (winnow_store_save_raw_output (store, &request, 1024 * 1024, &error));
      g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO);
      g_printerr ("%s\n", error->message);
      return;
    }

  before = save (f, "previous\n", "make", 1, 0);
  names = folder_names (f);
  /* the child has a fixture of its own: it works on this one's folder */
  g_setenv ("WINNOW_TEST_PARENT_DIR", f->data_dir, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*cannot write the raw output: File too large*");
  assert_nothing_left (f, names);
}

/* ---- trust history ----------------------------------------------------------------------- */

static void
test_last_trust_approval (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sha = NULL;
  g_autofree char *filters = NULL;
  gint64 time_us = 0;

  g_assert_false (winnow_store_get_last_trust_approval (f->store, "/p", &sha, &time_us, &filters,
                                                        &error));
  g_assert_no_error (error);
  g_assert_null (sha);

  g_assert_true (winnow_store_add_trust_approval (f->store, "/p", "aaa", 1000, "[1]", &error));
  g_assert_true (winnow_store_add_trust_approval (f->store, "/p", "bbb", 3000, "[1, 2]", &error));
  g_assert_true (winnow_store_add_trust_approval (f->store, "/p", "ccc", 2000, "[3]", &error));
  g_assert_true (winnow_store_add_trust_approval (f->store, "/q", "ddd", 9000, NULL, &error));

  g_assert_true (winnow_store_get_last_trust_approval (f->store, "/p", &sha, &time_us, &filters,
                                                       &error));
  g_assert_cmpstr (sha, ==, "bbb");
  g_assert_cmpint (time_us, ==, 3000);
  g_assert_cmpstr (filters, ==, "[1, 2]");
  g_clear_pointer (&sha, g_free);
  g_clear_pointer (&filters, g_free);

  g_assert_true (winnow_store_get_last_trust_approval (f->store, "/q", &sha, NULL, &filters,
                                                       &error));
  g_assert_cmpstr (sha, ==, "ddd");
  g_assert_null (filters);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  g_test_add_func ("/winnow/raw-store/retention", test_retention);
  ADD ("/winnow/raw-store/retain-settings", test_retain_settings);
  ADD ("/winnow/raw-store/save", test_save);
  ADD ("/winnow/raw-store/cut", test_cut);
  ADD ("/winnow/raw-store/read", test_read);
  ADD ("/winnow/raw-store/list", test_list);
  ADD ("/winnow/raw-store/async", test_async);
  ADD ("/winnow/raw-store/delete", test_delete);
  ADD ("/winnow/raw-store/purge", test_purge);
  ADD ("/winnow/raw-store/killed-writer", test_killed_writer);
  ADD ("/winnow/raw-store/failed-writes", test_failed_writes);
  ADD ("/winnow/raw-store/disk-full", test_disk_full);
  ADD ("/winnow/raw-store/last-trust-approval", test_last_trust_approval);
#undef ADD

  return g_test_run ();
}
