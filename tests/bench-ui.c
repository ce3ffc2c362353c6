/* bench-ui.c — how fast the dashboard shows up and how smooth it stays
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Figures, not checks:
 * - first frame: from the start of main() (GTK not yet initialised) to the first frame the
 *   window paints, with the engine context made on the way, as `winnow` does; target ≤ 500 ms;
 * - preview latency: from setting a sample's text to its result on screen (debounce included);
 * - 5 MB input: the longest the main loop went without turning while a 5 MB log was set,
 *   compressed in the worker and shown, and the time to the result;
 * - first switch to each other page: the window builds a page the first time it is shown (what
 *   the first frame no longer pays), from the switch to the page's first frame, with the
 *   processor time of the main thread (what the user waits for) and of the whole process
 *   (which adds what workers the page started, e.g. verifying filters, did meanwhile);
 * - opening the largest rule pack (en/filler) on the Rule Packs page: to its form on screen,
 *   to its samples checked and shown, and the longest main-loop stall on the way.
 *
 * `bench-ui --first-frame` stops after the first frame, to profile the start-up alone
 * (e.g. under `perf record` or `valgrind --tool=callgrind`).
 */

#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-rule-pack-check.h"
#include "winnow-rule-pack-document.h"
#include "winnow-rule-packs-page.h"
#include "winnow-window.h"

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

static gboolean
settled (gpointer data)
{
  WinnowPreviewPage *page = data;

  return !winnow_preview_page_get_busy (page) && winnow_preview_page_get_result (page) != NULL;
}

static gint64 painted_cpu;

/* the main thread's own processor time, in µs */
static gint64
thread_cpu_us (void)
{
  struct timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return (gint64) now.tv_sec * G_USEC_PER_SEC + now.tv_nsec / 1000;
}

static const char * const other_pages[] = {
  "filters", "rule-packs", "trust", "raw-output", "savings", NULL
};

static void
on_first_paint (GdkFrameClock *clock,
                gint64        *painted)
{
  if (*painted == 0)
    {
      *painted = g_get_monotonic_time ();
      painted_cpu = test_util_cpu_us ();
    }
}

static gboolean
painted_once (gpointer data)
{
  return *(gint64 *) data != 0;
}

static gboolean
pack_checked (gpointer data)
{
  WinnowRulePacksPage *page = data;
  WinnowRulePackCheck *check = winnow_rule_packs_page_get_check (page);
  WinnowRulePackDocument *document = winnow_rule_packs_page_get_document (page);

  return !winnow_rule_packs_page_get_busy (page) && check != NULL && document != NULL &&
         g_strcmp0 (winnow_rule_pack_check_get_text (check),
                    winnow_rule_pack_document_get_text (document)) == 0;
}

static void
bench_largest_pack (WinnowWindow *window)
{
  WinnowRulePacksPage *page = winnow_window_get_rule_packs_page (window);
  Stall stall = { 0 };
  gint64 t0, t_form, main_cpu = thread_cpu_us ();
  guint tick, n_samples;

  winnow_window_set_page (window, "rule-packs");
  test_ui_wait_frames (GTK_WIDGET (window), 1);

  tick = g_timeout_add (10, stall_tick, &stall);
  t0 = g_get_monotonic_time ();
  stall.last = t0;
  if (!winnow_rule_packs_page_select_pack (page, "en", "filler"))
    {
      g_printerr ("bench-ui: no en/filler rule pack\n");
      g_source_remove (tick);
      return;
    }
  test_ui_wait_frames (GTK_WIDGET (window), 1);
  t_form = g_get_monotonic_time ();
  test_ui_wait_for (pack_checked, page, 120000);
  test_ui_wait_frames (GTK_WIDGET (window), 2);
  g_source_remove (tick);
  n_samples = winnow_rule_pack_check_get_n_samples (winnow_rule_packs_page_get_check (page));
  g_print ("largest rule pack (en/filler, %u rules, %u samples): form on screen after %.1f ms, "
           "samples checked and shown after %.1f ms; longest main-loop stall %.1f ms (main "
           "thread processor time %.1f ms)\n",
           winnow_rule_pack_document_get_n_rules (winnow_rule_packs_page_get_document (page)),
           n_samples, (t_form - t0) / 1000.0, (g_get_monotonic_time () - t0) / 1000.0,
           stall.max_gap / 1000.0, (thread_cpu_us () - main_cpu) / 1000.0);
}

int
main (int    argc,
      char **argv)
{
  gint64 start = g_get_monotonic_time ();
  g_autofree char *data_dir = g_dir_make_tmp ("winnow-bench-ui-XXXXXX", NULL);
  g_autoptr(WinnowContext) context = NULL;
  g_autofree char *sample = NULL;
  g_autofree char *path = NULL;
  GString *big;
  WinnowWindow *window;
  WinnowPreviewPage *page;
  GtkTextView *original;
  gint64 painted = 0, t0, t_init, t_context, t_window, cpu_window;
  Stall stall = { 0 };
  guint tick;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_init ();
  adw_init ();
  test_ui_load_style ();
  t_init = g_get_monotonic_time ();

  context = winnow_context_new (data_dir, NULL);
  t_context = g_get_monotonic_time ();
  cpu_window = test_util_cpu_us ();
  window = winnow_window_new_for_context (context);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  t_window = g_get_monotonic_time ();
  cpu_window = test_util_cpu_us () - cpu_window;
  gtk_widget_realize (GTK_WIDGET (window));
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (on_first_paint), &painted);
  gtk_window_present (GTK_WINDOW (window));
  test_ui_wait_for (painted_once, &painted, 10000);
  g_print ("first frame: %.1f ms from main() (target ≤ 500 ms): GTK and libadwaita %.1f ms, "
           "engine context %.1f ms, window from templates %.1f ms, to the first paint %.1f ms\n",
           (painted - start) / 1000.0, (t_init - start) / 1000.0, (t_context - t_init) / 1000.0,
           (t_window - t_context) / 1000.0, (painted - t_window) / 1000.0);
  /* processor time of the whole process, the rendering threads included */
  g_print ("  processor time to the first frame: %.1f ms, of which the window from templates "
           "%.1f ms\n", painted_cpu / 1000.0, cpu_window / 1000.0);
  test_util_budget_cpu ("dashboard first frame", (painted - start) / 1000.0, painted_cpu / 1000.0,
                        500, FALSE, "ms");
  if (argc > 1 && g_str_equal (argv[1], "--first-frame"))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      test_util_remove_tree (data_dir);
      return EXIT_SUCCESS;
    }

  page = winnow_window_get_preview_page (window);
  original = GTK_TEXT_VIEW (g_ptr_array_index (test_ui_find_all (GTK_WIDGET (page),
                                                                 GTK_TYPE_TEXT_VIEW), 0));

  for (guint round = 0; round < 3; round++)
    {
      t0 = g_get_monotonic_time ();
      winnow_preview_page_load_sample (page, round % 2 ? "git-log" : "pytest");
      test_ui_wait_for (settled, page, 30000);
      test_ui_wait_frames (GTK_WIDGET (window), 1);
      g_print ("preview latency (%s, debounce 250 ms included): %.1f ms\n",
               round % 2 ? "git log" : "pytest -v", (g_get_monotonic_time () - t0) / 1000.0);
    }

  path = g_build_filename (g_getenv ("G_TEST_SRCDIR") ? g_getenv ("G_TEST_SRCDIR") : "tests",
                           "corpus", "samples", "make-compile-error.txt", NULL);
  if (!g_file_get_contents (path, &sample, NULL, NULL))
    {
      g_printerr ("bench-ui: cannot read %s\n", path);
      return EXIT_FAILURE;
    }
  big = g_string_new (NULL);
  while (big->len < 5 * 1024 * 1024)
    g_string_append (big, sample);

  tick = g_timeout_add (10, stall_tick, &stall);
  t0 = g_get_monotonic_time ();
  stall.last = t0;
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (original), big->str, big->len);
  test_ui_wait_for (settled, page, 60000);
  test_ui_wait_frames (GTK_WIDGET (window), 2);
  g_print ("5 MB input (%zu bytes): result on screen after %.1f ms; longest main-loop stall "
           "%.1f ms\n", big->len, (g_get_monotonic_time () - t0) / 1000.0,
           stall.max_gap / 1000.0);
  g_source_remove (tick);
  g_string_free (big, TRUE);

  for (guint i = 0; other_pages[i] != NULL; i++)
    {
      gint64 cpu = test_util_cpu_us ();
      gint64 main_cpu = thread_cpu_us ();

      t0 = g_get_monotonic_time ();
      winnow_window_set_page (window, other_pages[i]);
      test_ui_wait_frames (GTK_WIDGET (window), 1);
      g_print ("first switch to %s: %.1f ms to its first frame (processor time: main thread "
               "%.1f ms, process %.1f ms)\n", other_pages[i],
               (g_get_monotonic_time () - t0) / 1000.0, (thread_cpu_us () - main_cpu) / 1000.0,
               (test_util_cpu_us () - cpu) / 1000.0);
    }

  bench_largest_pack (window);

  gtk_window_destroy (GTK_WINDOW (window));
  test_util_remove_tree (data_dir);
  return EXIT_SUCCESS;
}
