/* test-store.c — the SQLite store: migrations, events, charts, retention, damage, concurrency
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sqlite3.h>
#include <string.h>

#include "test-util.h"
#include "winnow.h"
#include "winnow-store-private.h"

#define DAY_US (G_USEC_PER_SEC * (gint64) 86400)

typedef struct
{
  char *data_dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->data_dir = g_dir_make_tmp ("winnow-store-XXXXXX", NULL);
  f->path = winnow_store_default_path (f->data_dir);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
  g_free (f->path);
}

/* Reads one number straight from the file, past the store, with a connection of its own. */
static gint64
sql_number (const char *path,
            const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

static void
sql_exec (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static void
add_event (WinnowStore *store,
           gint64       time_us,
           const char  *command,
           const char  *project,
           const char  *filter_id,
           guint64      before,
           guint64      after)
{
  g_autoptr(GError) error = NULL;
  WinnowStoreEvent event;

  winnow_store_event_init (&event, "cli");
  event.time_us = time_us;
  event.command = command;
  event.project = project;
  event.filter_id = filter_id;
  event.tokens_before = before;
  event.tokens_after = after;
  event.bytes_before = before * 4;
  event.bytes_after = after * 4;
  winnow_store_record (store, &event, NULL, &error);
  g_assert_no_error (error);
}

static const WinnowSavingsRow *
find_row (GPtrArray  *rows,
          const char *key)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const WinnowSavingsRow *row = g_ptr_array_index (rows, i);

      if (g_strcmp0 (row->key, key) == 0)
        return row;
    }
  return NULL;
}

/* ---- schema ------------------------------------------------------------------------------ */

static void
test_migrate_empty (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_test (f->path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (winnow_store_get_schema_version (store), ==, _winnow_store_n_migrations ());
  g_assert_cmpuint (_winnow_store_n_migrations (), >=, 2);
  g_assert_cmpstr (winnow_store_get_journal_mode (store), ==, "wal");
  g_assert_cmpint (winnow_store_count_events (store, &error), ==, 0);

  /* the file says the same to anyone else */
  g_assert_cmpint (sql_number (f->path, "PRAGMA user_version"), ==, _winnow_store_n_migrations ());
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' "
                               "AND name IN ('events', 'raw_outputs', 'trust_approvals')"), ==, 3);
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' "
                               "AND name IN ('events_time', 'events_filter', 'events_command', "
                               "'events_project')"), ==, 4);

  /* opening again migrates nothing and keeps the version */
  g_clear_object (&store);
  store = winnow_store_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (winnow_store_get_schema_version (store), ==, _winnow_store_n_migrations ());
}

static void
test_migrate_previous (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint last = _winnow_store_n_migrations ();
  g_autoptr(WinnowStore) old = _winnow_store_open_at_version (f->path, last - 1, &error);
  g_autoptr(WinnowStore) store = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (winnow_store_get_schema_version (old), ==, last - 1);
  /* what the last migration adds is not there yet */
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM sqlite_schema WHERE name = "
                               "'event_sums'"), ==, 0);
  add_event (old, 0, "git status", "/p", "git-status", 100, 20);
  /* a raw output written by the previous version */
  g_assert_true (winnow_store_add_raw_output (old, "0123456789abcdef01234567", 0, 42, "ab", "/x",
                                              NULL, 1, &error));
  g_assert_no_error (error);
  g_clear_object (&old);

  store = winnow_store_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (winnow_store_get_schema_version (store), ==, last);
  g_assert_cmpint (sql_number (f->path, "PRAGMA user_version"), ==, last);
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM sqlite_schema WHERE name = "
                               "'event_sums'"), ==, 1);
  {
    g_autoptr(WinnowRawOutputInfo) info = winnow_store_lookup_raw_output (store,
                                                                          "0123456789abcdef01234567",
                                                                          &error);

    g_assert_no_error (error);
    g_assert_cmpuint (info->bytes, ==, 42);
    g_assert_cmpuint (info->original_bytes, ==, 42);
    g_assert_false (info->truncated);
    g_assert_false (info->has_exit_code);
    g_assert_null (info->command);
    g_assert_cmpint (info->event_id, ==, 1);
  }
  /* the old event survived and is summed */
  g_assert_cmpint (winnow_store_count_events (store, &error), ==, 1);
  {
    g_autoptr(GPtrArray) rows = winnow_store_query (store, WINNOW_STORE_GROUP_FILTER, 0, 0, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (rows->len, ==, 1);
    g_assert_cmpuint (((WinnowSavingsRow *) rows->pdata[0])->tokens_before, ==, 100);
  }
}

static void
test_newer_schema (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);

  g_assert_no_error (error);
  g_clear_object (&store);
  sql_exec (f->path, "PRAGMA user_version = 99");

  store = winnow_store_open (f->path, &error);
  g_assert_null (store);
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NEWER);
  g_assert_nonnull (strstr (error->message, f->path));
  g_assert_nonnull (strstr (error->message, "newer"));
}

static void
test_corrupt (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = NULL;
  g_autofree char *garbage = g_strnfill (8192, 'x');

  test_util_write_file (f->path, garbage, -1);
  store = winnow_store_open (f->path, &error);
  g_assert_null (store);
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, f->path));
  g_test_message ("%s", error->message);

  /* the damaged file is left alone */
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, garbage);
  }
}

/* ---- events and queries ------------------------------------------------------------------ */

static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  g_autoptr(GPtrArray) totals = NULL;
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(GPtrArray) commands = NULL;
  g_autoptr(GPtrArray) projects = NULL;
  g_autoptr(GPtrArray) top = NULL;
  const WinnowSavingsRow *row;
  gint64 now = g_get_real_time ();

  g_assert_no_error (error);
  add_event (store, now - 10, "git status --short", "/a", "git-status", 1000, 100);
  add_event (store, now - 9, "cd web && FORCE_COLOR=0 git status 2>&1", "/a", "git-status", 500, 50);
  add_event (store, now - 8, "npm test -- --grep foo", "/b", "npm-test", 2000, 400);
  add_event (store, now - 7, "/usr/bin/ls -la src", "/b", NULL, 40, 40);
  /* an output that grew */
  add_event (store, now - 6, "cat notes.md", "/c", "markdown", 100, 130);

  totals = winnow_store_query (store, WINNOW_STORE_GROUP_NONE, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (totals->len, ==, 1);
  row = totals->pdata[0];
  g_assert_null (row->key);
  g_assert_cmpuint (row->events, ==, 5);
  g_assert_cmpuint (row->tokens_before, ==, 3640);
  g_assert_cmpuint (row->tokens_after, ==, 720);
  g_assert_cmpuint (row->bytes_before, ==, 3640 * 4);
  g_assert_cmpint (winnow_savings_row_get_saved (row), ==, 2920);
  g_assert_cmpuint (row->grown_events, ==, 1);
  g_assert_cmpuint (row->tokens_grown, ==, 30);

  filters = winnow_store_query (store, WINNOW_STORE_GROUP_FILTER, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (filters->len, ==, 4);
  /* most saved first, growth last and negative */
  g_assert_cmpstr (((WinnowSavingsRow *) filters->pdata[0])->key, ==, "npm-test");
  g_assert_cmpstr (((WinnowSavingsRow *) filters->pdata[1])->key, ==, "git-status");
  g_assert_cmpuint (((WinnowSavingsRow *) filters->pdata[1])->events, ==, 2);
  g_assert_null (((WinnowSavingsRow *) filters->pdata[2])->key);
  g_assert_cmpstr (((WinnowSavingsRow *) filters->pdata[3])->key, ==, "markdown");
  g_assert_cmpint (winnow_savings_row_get_saved (filters->pdata[3]), ==, -30);
  g_assert_cmpfloat_with_epsilon (winnow_savings_row_get_saved_ratio (filters->pdata[3]), -0.3,
                                  1e-9);

  /* commands group by program and subcommand, whatever the arguments and wrappers */
  commands = winnow_store_query (store, WINNOW_STORE_GROUP_COMMAND, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull ((row = find_row (commands, "git status")));
  g_assert_cmpuint (row->events, ==, 2);
  g_assert_nonnull (find_row (commands, "npm test"));
  g_assert_nonnull (find_row (commands, "ls"));
  g_assert_nonnull (find_row (commands, "cat"));

  projects = winnow_store_query (store, WINNOW_STORE_GROUP_PROJECT, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects->len, ==, 3);
  g_assert_cmpuint (find_row (projects, "/b")->tokens_before, ==, 2040);

  /* a limit cuts the list but never the growth */
  top = winnow_store_query (store, WINNOW_STORE_GROUP_FILTER, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (top->len, ==, 2);
  g_assert_cmpstr (((WinnowSavingsRow *) top->pdata[0])->key, ==, "npm-test");
  g_assert_cmpstr (((WinnowSavingsRow *) top->pdata[1])->key, ==, "markdown");
}

static void
test_pipeline_result (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowContext) context = winnow_context_new (f->data_dir, NULL);
  g_autoptr(WinnowPipeline) pipeline = winnow_pipeline_new (context);
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(WinnowStore) store = NULL;
  g_autofree char *path = test_util_corpus_path ("samples/pytest-fail-verbose.txt");
  g_autofree char *text = NULL;
  WinnowPipelineRequest request;
  WinnowStoreEvent event;
  gsize length;
  gint64 id = 0;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_RTK;
  request.command = "pytest -v";
  result = winnow_pipeline_run_text (pipeline, text, length, &request, &error);
  g_assert_no_error (error);

  store = winnow_store_open_for_context (context, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (winnow_store_get_path (store), ==, f->path);

  winnow_store_event_init (&event, "run");
  winnow_store_event_set_result (&event, result, length);
  event.command = "pytest -v";
  event.project = "/proj";
  event.has_exit_code = TRUE;
  event.exit_code = 1;
  g_assert_true (winnow_store_record (store, &event, &id, &error));
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);

  g_assert_cmpint (sql_number (f->path, "SELECT exit_code FROM events"), ==, 1);
  g_assert_cmpint (sql_number (f->path, "SELECT bytes_before FROM events"), ==, length);
  g_assert_cmpint (sql_number (f->path, "SELECT tokens_before FROM events"), ==,
                   winnow_tokens_count (text, length));
  g_assert_cmpint (sql_number (f->path, "SELECT tokens_after < tokens_before FROM events"), ==, 1);
  g_assert_cmpint (sql_number (f->path, "SELECT filter_id IS NOT NULL AND output_type IS NOT NULL "
                               "AND mode = 'rtk' AND counter = 'o200k_base' FROM events"), ==, 1);
  g_assert_cmpint (sql_number (f->path, "SELECT source = 'run' FROM events"), ==, 1);

  /* an event source the schema does not know is refused before SQLite sees it */
  event.source = "web";
  g_assert_false (winnow_store_record (store, &event, NULL, &error));
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID);
}

static gint64
local_noon_days_ago (int days)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GDateTime) noon = g_date_time_new_local (g_date_time_get_year (now),
                                                     g_date_time_get_month (now),
                                                     g_date_time_get_day_of_month (now),
                                                     12, 0, 0);
  g_autoptr(GDateTime) then = g_date_time_add_days (noon, -days);

  return g_date_time_to_unix (then) * G_USEC_PER_SEC;
}

static void
test_days (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  g_autoptr(GPtrArray) days = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *today = g_date_time_format (now, "%Y-%m-%d");

  g_assert_no_error (error);
  add_event (store, local_noon_days_ago (0), "make", NULL, NULL, 10, 5);
  add_event (store, local_noon_days_ago (0), "make", NULL, NULL, 10, 5);
  add_event (store, local_noon_days_ago (2), "make", NULL, NULL, 100, 50);
  add_event (store, local_noon_days_ago (29), "make", NULL, NULL, 7, 7);
  add_event (store, local_noon_days_ago (30), "make", NULL, NULL, 1000, 1);  /* out of range */

  days = winnow_store_query_days (store, 30, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (days->len, ==, 30);
  g_assert_cmpstr (((WinnowSavingsRow *) days->pdata[29])->key, ==, today);

  for (guint i = 0; i < 30; i++)
    {
      const WinnowSavingsRow *row = days->pdata[i];
      guint64 expected = i == 29 ? 2 : i == 27 ? 1 : i == 0 ? 1 : 0;

      g_assert_cmpuint (row->events, ==, expected);
      g_assert_cmpint (row->start_us, >, 0);
      if (i > 0)
        {
          const WinnowSavingsRow *prev = days->pdata[i - 1];

          /* consecutive local days, 23 to 25 hours apart */
          g_assert_cmpstr (prev->key, <, row->key);
          g_assert_cmpint (row->start_us - prev->start_us, >=, 23 * G_TIME_SPAN_HOUR);
          g_assert_cmpint (row->start_us - prev->start_us, <=, 25 * G_TIME_SPAN_HOUR);
        }
      if (expected == 0)
        g_assert_cmpuint (row->tokens_before, ==, 0);
    }
  g_assert_cmpuint (((WinnowSavingsRow *) days->pdata[29])->tokens_before, ==, 20);
  g_assert_cmpuint (((WinnowSavingsRow *) days->pdata[27])->tokens_after, ==, 50);
}

static void
test_since (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  g_autoptr(GPtrArray) day = NULL;
  g_autoptr(GPtrArray) week = NULL;
  g_autoptr(GPtrArray) all = NULL;
  gint64 now = g_get_real_time ();
  GTimeSpan span = -1;

  g_assert_no_error (error);
  add_event (store, now - G_TIME_SPAN_HOUR, "make", NULL, "make", 10, 5);
  add_event (store, now - 3 * DAY_US, "make", NULL, "make", 20, 5);
  add_event (store, now - 60 * DAY_US, "make", NULL, "make", 40, 5);

  g_assert_true (winnow_store_parse_since ("24h", &span, &error));
  day = winnow_store_query (store, WINNOW_STORE_GROUP_NONE, span, 0, &error);
  g_assert_true (winnow_store_parse_since ("7d", &span, &error));
  week = winnow_store_query (store, WINNOW_STORE_GROUP_FILTER, span, 0, &error);
  g_assert_true (winnow_store_parse_since ("all", &span, &error));
  g_assert_cmpint (span, ==, 0);
  all = winnow_store_query (store, WINNOW_STORE_GROUP_NONE, span, 0, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (((WinnowSavingsRow *) day->pdata[0])->events, ==, 1);
  g_assert_cmpuint (((WinnowSavingsRow *) week->pdata[0])->events, ==, 2);
  g_assert_cmpuint (((WinnowSavingsRow *) all->pdata[0])->events, ==, 3);
}

static void
test_parse_since (void)
{
  static const struct { const char *text; GTimeSpan span; } good[] = {
    { "24h", 24 * G_TIME_SPAN_HOUR }, { "7d", 7 * G_TIME_SPAN_DAY },
    { "30d", 30 * G_TIME_SPAN_DAY }, { "2w", 14 * G_TIME_SPAN_DAY },
    { "90s", 90 * G_TIME_SPAN_SECOND }, { "15m", 15 * G_TIME_SPAN_MINUTE }, { "ALL", 0 },
  };
  static const char * const bad[] = { "", "d", "7", "7x", "-7d", "0d", "7dd", "1.5d",
                                      "99999999999999999999d", "1000000d" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      GTimeSpan span = -1;

      g_assert_true (winnow_store_parse_since (good[i].text, &span, &error));
      g_assert_no_error (error);
      g_assert_cmpint (span, ==, good[i].span);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      GTimeSpan span = -1;

      g_assert_false (winnow_store_parse_since (bad[i], &span, &error));
      g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID);
      g_assert_cmpint (span, ==, -1);
    }
}

/* ---- retention --------------------------------------------------------------------------- */

static void
test_retention (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  gint64 now = g_get_real_time ();

  g_assert_no_error (error);
  add_event (store, now - 100 * DAY_US, "make", NULL, NULL, 1, 1);
  add_event (store, now - 10 * DAY_US, "make", NULL, NULL, 1, 1);
  add_event (store, now, "make", NULL, NULL, 1, 1);

  g_assert_cmpint (winnow_store_purge_if_due (store, 90, now, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpint (winnow_store_count_events (store, NULL), ==, 2);

  /* not again the same day, even with a shorter retention */
  g_assert_cmpint (winnow_store_purge_if_due (store, 5, now + G_TIME_SPAN_HOUR, &error), ==, 0);
  g_assert_cmpint (winnow_store_count_events (store, NULL), ==, 2);

  /* a day later it is due */
  g_assert_cmpint (winnow_store_purge_if_due (store, 5, now + DAY_US, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpint (winnow_store_count_events (store, NULL), ==, 1);

  /* a plain purge needs no schedule */
  g_assert_cmpint (winnow_store_purge (store, now + 1, &error), ==, 1);
  g_assert_cmpint (winnow_store_count_events (store, NULL), ==, 0);
}

static void
test_retention_setting (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  g_autoptr(WinnowContext) context = NULL;
  g_autofree char *settings = g_build_filename (f->data_dir, "settings.json", NULL);
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowConfig) bad = NULL;
  gint64 now = g_get_real_time ();

  g_assert_no_error (error);
  add_event (store, now - 40 * DAY_US, "make", NULL, NULL, 1, 1);
  add_event (store, now - 20 * DAY_US, "make", NULL, NULL, 1, 1);
  g_clear_object (&store);

  test_util_write_file (settings, "{\"retentionDays\": 30}", -1);
  context = winnow_context_new (f->data_dir, NULL);
  g_assert_cmpuint (winnow_config_get_retention_days (winnow_context_get_config (context)), ==, 30);

  /* opening through the context purges: the 40-day-old event goes */
  store = winnow_store_open_for_context (context, &error);
  g_assert_no_error (error);
  g_assert_cmpint (winnow_store_count_events (store, NULL), ==, 1);

  /* a bad value is a diagnostic and the default */
  bad = winnow_config_new_from_json ("{\"retentionDays\": 0}", -1, "settings.json", diagnostics);
  g_assert_cmpuint (winnow_config_get_retention_days (bad), ==, WINNOW_STORE_DEFAULT_RETENTION_DAYS);
  g_assert_cmpuint (diagnostics->len, ==, 1);
  g_assert_cmpstr (winnow_diagnostic_get_json_path (diagnostics->pdata[0]), ==, "retentionDays");
}

/* ---- raw outputs and trust --------------------------------------------------------------- */

static void
test_raw_outputs (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  const char *id = "0123456789abcdef01234567";
  WinnowStoreEvent event;
  gint64 event_id = 0;

  g_assert_no_error (error);
  g_assert_true (winnow_store_add_raw_output (store, id, 0, 1234, "ab12", "/tmp/x.log",
                                              "{\"aws-key\": 2}", 0, &error));
  g_assert_no_error (error);

  winnow_store_event_init (&event, "api");
  event.raw_output_id = id;
  event.time_us = g_get_real_time () - 200 * DAY_US;
  g_assert_true (winnow_store_record (store, &event, &event_id, &error));
  g_assert_no_error (error);

  /* linked both ways */
  g_assert_cmpint (sql_number (f->path, "SELECT event_id FROM raw_outputs"), ==, event_id);
  g_assert_cmpint (sql_number (f->path, "SELECT json_extract (redactions, '$.aws-key') "
                               "FROM raw_outputs"), ==, 2);

  /* an event pointing to a raw output that is not there is refused (foreign keys are on) */
  event.raw_output_id = "ffffffffffffffffffffffff";
  g_assert_false (winnow_store_record (store, &event, NULL, &error));
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_cmpint (winnow_store_count_events (store, NULL), ==, 1);

  /* a malformed id never reaches the database */
  g_assert_false (winnow_store_add_raw_output (store, "../../etc/passwd", 0, 1, "x", "/x", NULL,
                                               0, &error));
  g_assert_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID);
  g_clear_error (&error);

  /* purging the event keeps the raw output's row, without its event */
  g_assert_cmpint (winnow_store_purge (store, g_get_real_time () - 100 * DAY_US, &error), ==, 1);
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM raw_outputs WHERE event_id IS NULL"),
                   ==, 1);

  /* a raw output added after its event links the event to it */
  winnow_store_event_init (&event, "cli");
  g_assert_true (winnow_store_record (store, &event, &event_id, &error));
  g_assert_true (winnow_store_add_raw_output (store, "aaaaaaaaaaaaaaaaaaaaaaaa", 0, 1, "cd", "/y",
                                              NULL, event_id, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM events WHERE raw_output_id = "
                               "'aaaaaaaaaaaaaaaaaaaaaaaa'"), ==, 1);
}

static void
test_trust_approvals (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);

  g_assert_no_error (error);
  g_assert_true (winnow_store_add_trust_approval (store, "/p", "abc", 0, "{\"filters\": []}",
                                                  &error));
  g_assert_true (winnow_store_add_trust_approval (store, "/p", "def", 0, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM trust_approvals WHERE project = '/p'"),
                   ==, 2);
}

/* ---- concurrency ------------------------------------------------------------------------- */

#define PER_THREAD 400

typedef struct
{
  const char *path;
  const char *command;
  GError     *error;
} Writer;

static gpointer
writer_thread (gpointer data)
{
  Writer *w = data;
  /* each thread has its own store and connection, as two processes would */
  g_autoptr(WinnowStore) store = winnow_store_open (w->path, &w->error);

  for (guint i = 0; store != NULL && i < PER_THREAD && w->error == NULL; i++)
    {
      WinnowStoreEvent event;

      winnow_store_event_init (&event, "run");
      event.command = w->command;
      event.tokens_before = 10;
      event.tokens_after = 1;
      winnow_store_record (store, &event, NULL, &w->error);
    }

  return NULL;
}

static void
test_concurrent_writers (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GPtrArray) commands = NULL;
  Writer a = { f->path, "make a", NULL };
  Writer b = { f->path, "make b", NULL };
  GThread *ta;
  GThread *tb;

  /* both threads race to create and migrate the same new file */
  ta = g_thread_new ("writer-a", writer_thread, &a);
  tb = g_thread_new ("writer-b", writer_thread, &b);
  g_thread_join (ta);
  g_thread_join (tb);
  g_assert_no_error (a.error);
  g_assert_no_error (b.error);

  store = winnow_store_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (winnow_store_count_events (store, &error), ==, 2 * PER_THREAD);
  commands = winnow_store_query (store, WINNOW_STORE_GROUP_COMMAND, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (find_row (commands, "make a")->events, ==, PER_THREAD);
  g_assert_cmpuint (find_row (commands, "make b")->events, ==, PER_THREAD);
}

static void
on_query_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  GPtrArray **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = winnow_store_query_finish (WINNOW_STORE (source), result, &error);
  g_assert_no_error (error);
}

static void
test_async (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(GPtrArray) days = NULL;

  g_assert_no_error (error);
  add_event (store, 0, "git diff", NULL, "git-diff", 300, 100);

  winnow_store_query_async (store, WINNOW_STORE_GROUP_FILTER, 0, 0, NULL, on_query_done, &filters);
  winnow_store_query_days_async (store, 7, NULL, on_query_done, &days);
  while (filters == NULL || days == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_cmpint (winnow_savings_row_get_saved (filters->pdata[0]), ==, 200);
  g_assert_cmpuint (days->len, ==, 7);
  g_assert_cmpuint (((WinnowSavingsRow *) days->pdata[6])->events, ==, 1);
}

/* ---- hourly sums ------------------------------------------------------------------------ */

typedef struct
{
  gint64      time_us;
  const char *filter_id;
  const char *command;
  const char *project;
  guint64     before, after;
  gboolean    purged;
} SumsEvent;

#define N_SUMS_EVENTS 600

static void
make_sums_events (WinnowStore *store,
                  SumsEvent   *events,
                  gint64       now)
{
  static const char * const filters[] = { "git-status", "test-pytest", NULL };
  /* commands that are their own chart key (program, subcommand) */
  static const char * const commands[] = { "git status", "pytest", "make" };
  static const char * const projects[] = { "/a", "/b", NULL };
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < N_SUMS_EVENTS; i++)
    {
      SumsEvent *e = &events[i];

      /* any microsecond of the last four days and a bit of the next hour */
      e->time_us = now - (gint64) (g_rand_double (rand) * 4 * G_TIME_SPAN_DAY) +
                   (i % 50 == 0 ? G_TIME_SPAN_MINUTE * 20 : 0);
      e->filter_id = filters[g_rand_int_range (rand, 0, 3)];
      e->command = commands[g_rand_int_range (rand, 0, 3)];
      e->project = projects[g_rand_int_range (rand, 0, 3)];
      e->before = g_rand_int_range (rand, 1, 1000);
      e->after = i % 7 == 0 ? e->before + 3 : e->before / 2;
      add_event (store, e->time_us, e->command, e->project, e->filter_id, e->before, e->after);
    }
}

static void
expect_row (const WinnowSavingsRow *row,
            const SumsEvent        *events,
            gint64                  from_us,
            gint64                  to_us,
            int                     field,   /* 0 none, 1 filter, 2 command, 3 project */
            const char             *key)
{
  gint64 n = 0, before = 0, after = 0, grown = 0, tokens_grown = 0;

  for (guint i = 0; i < N_SUMS_EVENTS; i++)
    {
      const SumsEvent *e = &events[i];
      const char *k = field == 1 ? e->filter_id : field == 2 ? e->command : e->project;

      if (e->purged || e->time_us < from_us || e->time_us >= to_us)
        continue;
      if (field != 0 && g_strcmp0 (k, key) != 0)
        continue;
      n++;
      before += e->before;
      after += e->after;
      grown += e->after > e->before;
      tokens_grown += e->after > e->before ? e->after - e->before : 0;
    }

  g_assert_cmpint (row->events, ==, n);
  g_assert_cmpint (row->tokens_before, ==, before);
  g_assert_cmpint (row->tokens_after, ==, after);
  g_assert_cmpint (row->bytes_before, ==, before * 4);
  g_assert_cmpint (row->grown_events, ==, grown);
  g_assert_cmpint (row->tokens_grown, ==, tokens_grown);
}

static void
check_sums (WinnowStore     *store,
            const SumsEvent *events)
{
  /* periods that start anywhere inside an hour, and all time */
  static const GTimeSpan periods[] = {
    0, 17 * G_TIME_SPAN_MINUTE, G_TIME_SPAN_HOUR + 1, 30 * G_TIME_SPAN_HOUR + 123457,
    3 * G_TIME_SPAN_DAY,
  };

  for (guint p = 0; p < G_N_ELEMENTS (periods); p++)
    for (int field = 0; field <= 3; field++)
      {
        g_autoptr(GError) error = NULL;
        gint64 before_query = g_get_real_time ();
        g_autoptr(GPtrArray) rows = winnow_store_query (store, (WinnowStoreGroup) field,
                                                        periods[p], 0, &error);
        gint64 from_us = periods[p] > 0 ? before_query - periods[p] : G_MININT64;
        gint64 total = 0;

        g_assert_no_error (error);
        for (guint r = 0; r < rows->len; r++)
          {
            const WinnowSavingsRow *row = rows->pdata[r];

            expect_row (row, events, from_us, G_MAXINT64, field, row->key);
            total += row->events;
          }
        /* and no event of the period is missing from the groups */
        for (guint i = 0; i < N_SUMS_EVENTS; i++)
          if (!events[i].purged && events[i].time_us >= from_us)
            total--;
        g_assert_cmpint (total, ==, 0);
      }
}

static void
test_hourly_sums (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  SumsEvent *events = g_new0 (SumsEvent, N_SUMS_EVENTS);
  gint64 now = g_get_real_time ();
  gint64 cut;

  g_assert_no_error (error);
  make_sums_events (store, events, now);
  check_sums (store, events);

  /* a purge that cuts through an hour: the sums lose exactly the purged events */
  cut = now - 2 * G_TIME_SPAN_DAY - 7 * G_TIME_SPAN_MINUTE;
  g_assert_cmpint (winnow_store_purge (store, cut, &error), >, 0);
  g_assert_no_error (error);
  for (guint i = 0; i < N_SUMS_EVENTS; i++)
    if (events[i].time_us < cut)
      events[i].purged = TRUE;
  check_sums (store, events);
  /* no hour is left behind with nothing in it */
  g_assert_cmpint (sql_number (f->path, "SELECT count(*) FROM event_sums WHERE events <= 0"),
                   ==, 0);
  g_assert_cmpint (sql_number (f->path, "SELECT sum (events) FROM event_sums WHERE dim = 2"),
                   ==, sql_number (f->path, "SELECT count(*) FROM events"));

  /* the sums follow the events, so a recorded event is never edited behind their back */
  {
    sqlite3 *db = NULL;

    g_assert_cmpint (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "UPDATE events SET tokens_after = 0", NULL, NULL, NULL),
                     !=, SQLITE_OK);
    g_assert_cmpstr (sqlite3_errmsg (db), ==, "recorded events are not edited");
    sqlite3_close (db);
  }

  g_free (events);
}

/* Local days in a zone half an hour off UTC start inside an hour: the partial hours at both
 * ends of each day come from the events, the rest from the sums. */
static void
test_hourly_sums_half_hour_zone (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_dir_make_tmp ("winnow-store-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "winnow.db", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(WinnowStore) store = NULL;
      g_autoptr(GPtrArray) days = NULL;
      g_autoptr(GDateTime) now = NULL;
      g_autoptr(GDateTime) today = NULL;
      SumsEvent *events = g_new0 (SumsEvent, N_SUMS_EVENTS);

      g_setenv ("TZ", "Asia/Kolkata", TRUE);
      store = winnow_store_open (path, &error);
      g_assert_no_error (error);
      make_sums_events (store, events, g_get_real_time ());
      days = winnow_store_query_days (store, 6, &error);
      g_assert_no_error (error);

      now = g_date_time_new_now_local ();
      g_assert_cmpint (g_date_time_get_utc_offset (now), ==, 330 * G_TIME_SPAN_MINUTE);
      today = g_date_time_new_local (g_date_time_get_year (now), g_date_time_get_month (now),
                                     g_date_time_get_day_of_month (now), 0, 0, 0);
      for (guint d = 0; d < days->len; d++)
        {
          g_autoptr(GDateTime) start = g_date_time_add_days (today, (int) d - 5);
          gint64 from_us = g_date_time_to_unix (start) * G_USEC_PER_SEC;

          expect_row (days->pdata[d], events, from_us, from_us + G_TIME_SPAN_DAY, 0, NULL);
        }

      g_clear_object (&store);
      test_util_remove_tree (dir);
      g_free (events);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/winnow/store/migrate/empty", test_migrate_empty);
  ADD ("/winnow/store/migrate/previous-version", test_migrate_previous);
  ADD ("/winnow/store/migrate/newer-refused", test_newer_schema);
  ADD ("/winnow/store/corrupt-file", test_corrupt);
  ADD ("/winnow/store/round-trip", test_round_trip);
  ADD ("/winnow/store/pipeline-result", test_pipeline_result);
  ADD ("/winnow/store/days-zero-filled", test_days);
  ADD ("/winnow/store/since", test_since);
  g_test_add_func ("/winnow/store/parse-since", test_parse_since);
  ADD ("/winnow/store/retention", test_retention);
  ADD ("/winnow/store/retention-setting", test_retention_setting);
  ADD ("/winnow/store/raw-outputs", test_raw_outputs);
  ADD ("/winnow/store/trust-approvals", test_trust_approvals);
  ADD ("/winnow/store/concurrent-writers", test_concurrent_writers);
  ADD ("/winnow/store/async", test_async);
  ADD ("/winnow/store/hourly-sums", test_hourly_sums);
  g_test_add_func ("/winnow/store/hourly-sums/half-hour-zone", test_hourly_sums_half_hour_zone);
#undef ADD

  return g_test_run ();
}
