/* bench-savings-ui.c — the Savings page over a million events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Figures, not checks: a temporary store is filled with 1 000 000 events spread over the last
 * 60 days (80 commands, 30 filters, 12 projects, a few outputs that grew), then the dashboard
 * opens on the Savings page and we time
 * - the store opened and summed (totals, days, filters, commands, projects) in the workers,
 *   from the page's refresh to the figures set on the widgets;
 * - the first frame painted with them;
 * - a period change (30 d → all → 7 d → 30 d), figures to paint;
 * - a repaint with nothing new, to tell drawing from summing;
 * - the longest the main loop went without turning meanwhile: the sums must not block it.
 * Target: figures on screen in well under a second.
 */

#include "config.h"

#include <stdlib.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-savings-page.h"
#include "winnow-window.h"

#define N_EVENTS 1000000
#define BATCH    50000
#define DAYS     60

typedef struct
{
  gint64 last;
  gint64 max_gap;
} Stall;

static gboolean
stall_tick (gpointer data)
{
  Stall *s = data;
  gint64 now = g_get_monotonic_time ();

  if (s->last != 0)
    s->max_gap = MAX (s->max_gap, now - s->last);
  s->last = now;
  return G_SOURCE_CONTINUE;
}

typedef struct
{
  WinnowSavingsPage *page;
  gint64             shown;     /* when the figures were set */
  gint64             painted;   /* the first frame after that */
} Timing;

static void
on_busy (WinnowSavingsPage *page,
         GParamSpec        *pspec,
         Timing            *t)
{
  if (!winnow_savings_page_get_busy (page))
    t->shown = g_get_monotonic_time ();
}

static void
on_after_paint (GdkFrameClock *clock,
                Timing        *t)
{
  if (t->shown != 0 && t->painted == 0)
    t->painted = g_get_monotonic_time ();
}

static gboolean
painted (gpointer data)
{
  return ((Timing *) data)->painted != 0;
}

static gboolean
fill_store (WinnowContext *context)
{
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  const char *commands[80], *filters[30], *projects[12];
  WinnowStoreEvent *events = g_new0 (WinnowStoreEvent, BATCH);
  gint64 now = g_get_real_time ();
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_ptr_array_add (strings, (gpointer) (commands[i] = g_strdup_printf ("tool%u check --all", i)));
  for (guint i = 0; i < G_N_ELEMENTS (filters); i++)
    g_ptr_array_add (strings, (gpointer) (filters[i] = g_strdup_printf ("filter-%u", i)));
  for (guint i = 0; i < G_N_ELEMENTS (projects); i++)
    g_ptr_array_add (strings, (gpointer) (projects[i] = g_strdup_printf ("/home/dev/src/project-%u", i)));

  store = winnow_store_open_for_context (context, &error);
  if (store == NULL)
    {
      g_free (events);
      goto fail;
    }

  for (guint done = 0; done < N_EVENTS; done += BATCH)
    {
      for (guint i = 0; i < BATCH; i++)
        {
          WinnowStoreEvent *e = &events[i];
          guint64 before = g_rand_int_range (rand, 50, 20000);
          /* one output in fifty grows a little: the charts have growth to draw */
          gboolean grows = g_rand_int_range (rand, 0, 50) == 0;

          winnow_store_event_init (e, "run");
          e->time_us = now - (gint64) (g_rand_double (rand) * DAYS * G_TIME_SPAN_DAY);
          e->command = commands[g_rand_int_range (rand, 0, G_N_ELEMENTS (commands))];
          e->filter_id = filters[g_rand_int_range (rand, 0, G_N_ELEMENTS (filters))];
          e->project = projects[g_rand_int_range (rand, 0, G_N_ELEMENTS (projects))];
          e->mode = "rtk";
          e->tokens_before = before;
          e->tokens_after = grows ? before + 10 : before / g_rand_int_range (rand, 2, 10);
          e->bytes_before = before * 4;
          e->bytes_after = e->tokens_after * 4;
        }
      if (!winnow_store_record_many (store, events, BATCH, &error))
        {
          g_free (events);
          goto fail;
        }
    }

  g_print ("store: %u events recorded in %.0f ms\n", N_EVENTS,
           (g_get_monotonic_time () - start) / 1000.0);
  g_free (events);

  /* what the page waits for, one query at a time, on the caller's thread */
  {
    static const struct { const char *what; WinnowStoreGroup group; GTimeSpan since; } queries[] = {
      { "totals, 30 d", WINNOW_STORE_GROUP_NONE, 30 * G_TIME_SPAN_DAY },
      { "by filter, 30 d", WINNOW_STORE_GROUP_FILTER, 30 * G_TIME_SPAN_DAY },
      { "by command, 30 d", WINNOW_STORE_GROUP_COMMAND, 30 * G_TIME_SPAN_DAY },
      { "by project, 30 d", WINNOW_STORE_GROUP_PROJECT, 30 * G_TIME_SPAN_DAY },
      { "by project, 7 d", WINNOW_STORE_GROUP_PROJECT, 7 * G_TIME_SPAN_DAY },
      { "by project, all", WINNOW_STORE_GROUP_PROJECT, 0 },
    };

    for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
      {
        g_autoptr(GPtrArray) rows = NULL;

        start = g_get_monotonic_time ();
        rows = winnow_store_query (store, queries[q].group, queries[q].since, 0, &error);
        if (rows == NULL)
          goto fail;
        g_print ("  query %s: %.1f ms\n", queries[q].what,
                 (g_get_monotonic_time () - start) / 1000.0);
      }

    start = g_get_monotonic_time ();
    g_ptr_array_unref (winnow_store_query_days (store, 30, &error));
    g_print ("  query 30 days: %.1f ms\n", (g_get_monotonic_time () - start) / 1000.0);
  }

  return TRUE;

fail:
  g_printerr ("bench-savings-ui: %s\n", error->message);
  return FALSE;
}

static void
measure (WinnowWindow      *window,
         WinnowSavingsPage *page,
         Timing            *t,
         const char        *what,
         gint64             t0,
         Stall             *stall)
{
  test_ui_wait_for (painted, t, 60000);
  g_print ("%s: figures set after %.1f ms, first frame with them after %.1f ms; longest "
           "main-loop stall %.1f ms\n", what, (t->shown - t0) / 1000.0,
           (t->painted - t0) / 1000.0, stall->max_gap / 1000.0);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data_dir = g_dir_make_tmp ("winnow-bench-savings-XXXXXX", NULL);
  g_autoptr(WinnowContext) context = NULL;
  g_autoptr(GSettings) settings = NULL;
  WinnowWindow *window;
  WinnowSavingsPage *page;
  Timing t = { 0 };
  Stall stall = { 0 };
  gint64 t0;
  guint tick;
  static const char * const periods[] = { "all", "7d", "30d", NULL };

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_init ();
  adw_init ();
  test_ui_load_style ();

  settings = g_settings_new (APP_ID);
  g_settings_set_string (settings, "savings-period", "30d");
  context = winnow_context_new (data_dir, NULL);
  if (!fill_store (context))
    return EXIT_FAILURE;

  window = winnow_window_new_for_context (context);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  page = winnow_window_get_savings_page (window);
  t.page = page;
  g_signal_connect (page, "notify::busy", G_CALLBACK (on_busy), &t);
  gtk_widget_realize (GTK_WIDGET (window));
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (on_after_paint), &t);

  tick = g_timeout_add (10, stall_tick, &stall);
  t0 = g_get_monotonic_time ();
  stall.last = t0;
  winnow_window_set_page (window, "savings");
  gtk_window_present (GTK_WINDOW (window));
  measure (window, page, &t, "open on 30 d (store opened, 1 M events summed)", t0, &stall);
  if (g_strcmp0 (winnow_savings_page_get_state (page), "data") != 0)
    {
      g_printerr ("bench-savings-ui: the page shows “%s”, not the figures\n",
                  winnow_savings_page_get_state (page));
      return EXIT_FAILURE;
    }
  g_print ("totals: %" G_GUINT64_FORMAT " events, %" G_GINT64_FORMAT " tokens saved\n",
           winnow_savings_page_get_totals (page)->events,
           winnow_savings_row_get_saved (winnow_savings_page_get_totals (page)));

  for (guint i = 0; periods[i] != NULL; i++)
    {
      g_autofree char *what = g_strdup_printf ("period → %s", periods[i]);

      t.shown = t.painted = 0;
      stall.max_gap = 0;
      t0 = g_get_monotonic_time ();
      stall.last = t0;
      winnow_savings_page_set_period (page, periods[i]);
      measure (window, page, &t, what, t0, &stall);
    }

  /* drawing alone: the window repainted with the charts as they are */
  for (guint i = 0; i < 3; i++)
    {
      t0 = g_get_monotonic_time ();
      test_ui_wait_frames (GTK_WIDGET (window), 1);
      g_print ("repaint of the window with the charts: %.1f ms\n",
               (g_get_monotonic_time () - t0) / 1000.0);
    }

  g_source_remove (tick);
  gtk_window_destroy (GTK_WINDOW (window));
  test_util_remove_tree (data_dir);
  return EXIT_SUCCESS;
}
