/* bench-store.c — how fast the store records and charts, and what `winnow run` costs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints figures; it fails only when it cannot run. A million events spread over 90 days,
 * 40 filters, 300 commands and 25 projects (a heavy user's retention window several times
 * over), then every query `winnow gain` and the Savings page make.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "test-util.h"
#include "winnow.h"

#define N_EVENTS   1000000
#define BATCH      10000
#define N_SINGLE   20000
#define N_RUNS     20

static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

static void
fill (WinnowStoreEvent *event,
      guint             i,
      gint64            now,
      GStrv             commands,
      GStrv             filters,
      GStrv             projects)
{
  winnow_store_event_init (event, i % 3 == 0 ? "cli" : "run");
  /* events arrive in time order, as they do in use: oldest 90 days ago, newest now */
  event->time_us = now - 90 * G_TIME_SPAN_DAY + (gint64) i * (90 * G_TIME_SPAN_DAY / N_EVENTS);
  event->command = commands[i % 300];
  event->filter_id = filters[i % 40];
  event->project = projects[i % 25];
  event->output_type = "generic-output";
  event->mode = "stacked";
  event->intensity = "standard";
  event->tokens_before = g_test_rand_int_range (100, 20000);
  event->tokens_after = event->tokens_before / (guint) g_test_rand_int_range (1, 8);
  event->bytes_before = event->tokens_before * 4;
  event->bytes_after = event->tokens_after * 4;
  event->duration_us = g_test_rand_int_range (100, 50000);
  event->has_exit_code = TRUE;
  event->exit_code = i % 7 == 0;
}

static double
run_many (const char * const *argv,
          const char         *data_dir)
{
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < N_RUNS; i++)
    {
      g_autoptr(GSubprocessLauncher) launcher =
        g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
      g_autoptr(GSubprocess) proc = NULL;
      g_autoptr(GError) error = NULL;

      g_subprocess_launcher_setenv (launcher, "WINNOW_DATA_DIR", data_dir, TRUE);
      proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
      g_assert_no_error (error);
      g_subprocess_wait_check (proc, NULL, &error);
      g_assert_no_error (error);
    }

  return ms_since (start) / N_RUNS;
}

static void
bench_run_overhead (const char *data_dir)
{
  const char *binary = g_getenv ("WINNOW_BINARY");
  g_autofree char *true_path = g_find_program_in_path ("true");
  const char *plain[] = { true_path, NULL };
  const char *no_record[] = { binary, "run", "--no-record", "--", true_path, NULL };
  const char *record[] = { binary, "run", "--", true_path, NULL };
  const char *seq[] = { binary, "run", "--", "seq", "1", "20000", NULL };
  double base, bare, recorded, output;

  if (binary == NULL)
    {
      g_print ("run overhead: skipped (WINNOW_BINARY is not set)\n");
      return;
    }

  base = run_many (plain, data_dir);
  bare = run_many (no_record, data_dir);
  recorded = run_many (record, data_dir);
  output = run_many (seq, data_dir);
  g_print ("run overhead: `true` %.1f ms; `winnow run --no-record -- true` %.1f ms "
           "(+%.1f ms); recorded %.1f ms (+%.1f ms); `winnow run -- seq 1 20000` %.1f ms\n",
           base, bare, bare - base, recorded, recorded - base, output);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-bench-store-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "winnow.db", NULL);
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) cb = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) fb = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) pb = g_strv_builder_new ();
  g_auto(GStrv) commands = NULL;
  g_auto(GStrv) filters = NULL;
  g_auto(GStrv) projects = NULL;
  WinnowStoreEvent *events = g_new (WinnowStoreEvent, BATCH);
  gint64 now = g_get_real_time ();
  gint64 start;
  GStatBuf st;
  double ms;

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *c = g_strdup_printf ("tool%u sub%u --flag %u", i % 60, i % 5, i);
      g_strv_builder_add (cb, c);
    }
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *id = g_strdup_printf ("filter-%02u", i);
      g_strv_builder_add (fb, id);
    }
  for (guint i = 0; i < 25; i++)
    {
      g_autofree char *p = g_strdup_printf ("/home/dev/src/project-%02u", i);
      g_strv_builder_add (pb, p);
    }
  commands = g_strv_builder_end (cb);
  filters = g_strv_builder_end (fb);
  projects = g_strv_builder_end (pb);

  store = winnow_store_open (path, &error);
  g_assert_no_error (error);

  /* one event at a time, each its own transaction: what `winnow run` does */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_SINGLE; i++)
    {
      fill (&events[0], i, now, commands, filters, projects);
      winnow_store_record (store, &events[0], NULL, &error);
      g_assert_no_error (error);
    }
  ms = ms_since (start);
  g_print ("insert, one transaction each: %u events in %.0f ms, %.0f events/s\n",
           N_SINGLE, ms, N_SINGLE / (ms / 1000.0));

  /* the rest in batches */
  start = g_get_monotonic_time ();
  for (guint done = N_SINGLE; done < N_EVENTS; )
    {
      guint n = MIN (BATCH, N_EVENTS - done);

      for (guint i = 0; i < n; i++)
        fill (&events[i], done + i, now, commands, filters, projects);
      winnow_store_record_many (store, events, n, &error);
      g_assert_no_error (error);
      done += n;
    }
  ms = ms_since (start);
  g_print ("insert, %u per transaction: %u events in %.0f ms, %.0f events/s\n", BATCH,
           N_EVENTS - N_SINGLE, ms, (N_EVENTS - N_SINGLE) / (ms / 1000.0));
  g_assert_cmpint (winnow_store_count_events (store, NULL), ==, N_EVENTS);

  /* a fresh connection, as `winnow gain` has */
  g_clear_object (&store);
  start = g_get_monotonic_time ();
  store = winnow_store_open (path, &error);
  g_assert_no_error (error);
  g_print ("open: %.1f ms\n", ms_since (start));
  if (g_stat (path, &st) == 0)
    g_print ("database: %.0f MB for %u events\n", st.st_size / 1e6, N_EVENTS);

  {
    static const struct { const char *what; WinnowStoreGroup group; GTimeSpan since; } queries[] = {
      { "totals, all", WINNOW_STORE_GROUP_NONE, 0 },
      { "totals, 7 days", WINNOW_STORE_GROUP_NONE, 7 * G_TIME_SPAN_DAY },
      { "by filter, all", WINNOW_STORE_GROUP_FILTER, 0 },
      { "by filter, 7 days", WINNOW_STORE_GROUP_FILTER, 7 * G_TIME_SPAN_DAY },
      { "by command, all", WINNOW_STORE_GROUP_COMMAND, 0 },
      { "by project, all", WINNOW_STORE_GROUP_PROJECT, 0 },
      { "by project, 24 hours", WINNOW_STORE_GROUP_PROJECT, G_TIME_SPAN_DAY },
    };

    for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
      {
        g_autoptr(GPtrArray) rows = NULL;

        start = g_get_monotonic_time ();
        rows = winnow_store_query (store, queries[q].group, queries[q].since, 10, &error);
        g_assert_no_error (error);
        g_print ("query %-22s %7.1f ms (%u rows)\n", queries[q].what, ms_since (start), rows->len);
      }

    {
      g_autoptr(GPtrArray) days = NULL;

      start = g_get_monotonic_time ();
      days = winnow_store_query_days (store, 30, &error);
      g_assert_no_error (error);
      g_print ("query %-22s %7.1f ms (%u rows)\n", "by day, 30 days", ms_since (start), days->len);
    }
  }

  start = g_get_monotonic_time ();
  g_print ("purge of events older than 60 days: %" G_GINT64_FORMAT " events",
           winnow_store_purge (store, now - 60 * G_TIME_SPAN_DAY, &error));
  g_assert_no_error (error);
  g_print (" in %.0f ms\n", ms_since (start));

  bench_run_overhead (dir);

  g_clear_object (&store);
  g_free (events);
  test_util_remove_tree (dir);
  return 0;
}
