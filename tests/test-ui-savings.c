/* test-ui-savings.c — the Savings page, driven through real widgets over a real store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-window.h"
#include "winnow-savings-page.h"

#define HOUR_US (G_USEC_PER_SEC * (gint64) 3600)
#define DAY_US  (24 * HOUR_US)

/* What the store holds: two events in the last hours, growth three days ago, a big saving
 * twenty days ago, and one that changed nothing sixty days ago. */
typedef struct
{
  gint64      age_us;
  const char *command;
  const char *project;
  const char *filter_id;
  guint64     before;
  guint64     after;
} Seed;

static const Seed seeds[] = {
  { HOUR_US, "git status", "/tmp/acme", "git-status", 1000, 200 },
  { 2 * HOUR_US, "pytest -v", "/tmp/acme", "test-pytest", 5000, 1000 },
  { 3 * DAY_US, "npm install", "/tmp/shop,inc", NULL, 300, 350 },
  { 20 * DAY_US, "git log --oneline", "/tmp/shop,inc", "git-log", 10000, 2000 },
  { 60 * DAY_US, "ls -la", NULL, NULL, 100, 100 },
};

typedef struct
{
  char              *data_dir;
  gint64             now_us;
  WinnowContext     *context;
  WinnowWindow      *window;
  WinnowSavingsPage *page;
} Fixture;

static void
record (Fixture    *f,
        const Seed *seed)
{
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GError) error = NULL;
  WinnowStoreEvent event;

  store = winnow_store_open_for_context (f->context, &error);
  g_assert_no_error (error);

  winnow_store_event_init (&event, "run");
  event.time_us = f->now_us - seed->age_us;
  event.command = seed->command;
  event.project = seed->project;
  event.filter_id = seed->filter_id;
  event.mode = "rtk";
  event.tokens_before = seed->before;
  event.tokens_after = seed->after;
  event.bytes_before = seed->before * 4;
  event.bytes_after = seed->after * 4;
  winnow_store_record (store, &event, NULL, &error);
  g_assert_no_error (error);
}

static gboolean
page_settled (gpointer data)
{
  WinnowSavingsPage *page = data;

  return !winnow_savings_page_get_busy (page) &&
         g_strcmp0 (winnow_savings_page_get_state (page), "loading") != 0;
}

static void
wait_settled (Fixture *f)
{
  g_assert_true (test_ui_wait_for (page_settled, f->page, 30000));
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  gboolean seeded = GPOINTER_TO_INT (data);

  g_settings_set_string (settings, "savings-period", "30d");

  f->data_dir = g_dir_make_tmp ("winnow-ui-savings-XXXXXX", NULL);
  f->now_us = g_get_real_time ();
  f->context = winnow_context_new (f->data_dir, NULL);
  if (seeded)
    for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
      record (f, &seeds[i]);

  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 800);
  winnow_window_set_page (f->window, "savings");
  gtk_window_present (GTK_WINDOW (f->window));
  test_ui_wait_mapped (GTK_WIDGET (f->window));

  f->page = WINNOW_SAVINGS_PAGE (test_ui_find (GTK_WIDGET (f->window), WINNOW_TYPE_SAVINGS_PAGE,
                                               NULL));
  g_assert_nonnull (f->page);
  wait_settled (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->window);
  g_clear_object (&f->context);
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
}

/* how many local calendar days ago @age_us before @now_us was */
static int
days_ago (gint64 now_us,
          gint64 age_us)
{
  g_autoptr(GDateTime) now = g_date_time_new_from_unix_local (now_us / G_USEC_PER_SEC);
  g_autoptr(GDateTime) then = g_date_time_new_from_unix_local ((now_us - age_us) / G_USEC_PER_SEC);
  GDate a, b;

  g_date_clear (&a, 1);
  g_date_clear (&b, 1);
  g_date_set_dmy (&a, g_date_time_get_day_of_month (then), g_date_time_get_month (then),
                  g_date_time_get_year (then));
  g_date_set_dmy (&b, g_date_time_get_day_of_month (now), g_date_time_get_month (now),
                  g_date_time_get_year (now));
  return g_date_days_between (&a, &b);
}

static const char *
kpi (Fixture    *f,
     const char *name)
{
  GtkWidget *label = test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL, name);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
set_period (Fixture    *f,
            const char *period)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "savings.period", "s", period));
  g_assert_true (winnow_savings_page_get_busy (f->page));
  wait_settled (f);
  g_assert_cmpstr (winnow_savings_page_get_period (f->page), ==, period);
}

static void
assert_bars (WinnowBarChart     *chart,
             const char * const *labels,
             const double       *values,
             guint               n)
{
  g_assert_cmpuint (winnow_bar_chart_get_n_bars (chart), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpstr (winnow_bar_chart_get_label (chart, i), ==, labels[i]);
      g_assert_cmpfloat (winnow_bar_chart_get_value (chart, i), ==, values[i]);
    }
}

/* The sum of the day chart's bars for events at most @max_days days ago. */
static void
assert_days (Fixture *f,
             guint    n_days)
{
  WinnowBarChart *chart = winnow_savings_page_get_chart (f->page, "days");
  g_autofree double *expected = g_new0 (double, n_days);

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      int ago = days_ago (f->now_us, seeds[i].age_us);

      if (ago < (int) n_days)
        expected[n_days - 1 - ago] += (double) seeds[i].before - (double) seeds[i].after;
    }

  g_assert_cmpuint (winnow_bar_chart_get_n_bars (chart), ==, n_days);
  for (guint i = 0; i < n_days; i++)
    g_assert_cmpfloat (winnow_bar_chart_get_value (chart, i), ==, expected[i]);
}

static void
test_kpis_and_charts (Fixture       *f,
                      gconstpointer  data)
{
  static const char * const filters[] = { "git-log", "test-pytest", "git-status", "(no filter)" };
  static const double filter_values[] = { 8000, 4000, 800, -50 };
  static const char * const commands[] = { "git log", "pytest", "git status", "npm install" };
  static const double command_values[] = { 8000, 4000, 800, -50 };
  static const char * const projects[] = { "/tmp/shop,inc", "/tmp/acme" };
  static const double project_values[] = { 7950, 4800 };
  WinnowBarChart *chart;
  const char *description;

  g_assert_cmpstr (winnow_savings_page_get_state (f->page), ==, "data");
  g_assert_cmpstr (winnow_savings_page_get_period (f->page), ==, "30d");

  /* 30 days: four events, 16 300 tokens in, 3 550 out, one grew by 50 */
  g_assert_cmpstr (kpi (f, "kpi-saved"), ==, "12750");
  g_assert_cmpstr (kpi (f, "kpi-ratio"), ==, "78.2 %");
  g_assert_cmpstr (kpi (f, "kpi-events"), ==, "4");
  g_assert_cmpstr (kpi (f, "kpi-grown"), ==, "1");
  g_assert_true (gtk_widget_has_css_class (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL,
                                                         "kpi-grown"), "warning"));

  assert_days (f, 30);
  assert_bars (winnow_savings_page_get_chart (f->page, "filters"), filters, filter_values, 4);
  assert_bars (winnow_savings_page_get_chart (f->page, "commands"), commands, command_values, 4);
  assert_bars (winnow_savings_page_get_chart (f->page, "projects"), projects, project_values, 2);

  /* exact figures in the tooltips, growth as growth */
  chart = winnow_savings_page_get_chart (f->page, "filters");
  g_assert_nonnull (strstr (winnow_bar_chart_get_tooltip (chart, 0), "8000 tokens saved (80.0 %)"));
  g_assert_nonnull (strstr (winnow_bar_chart_get_tooltip (chart, 3), "Grew by 50 tokens"));
  g_assert_nonnull (strstr (winnow_bar_chart_get_tooltip (chart, 3), "1 grew"));

  /* a summary for screen readers */
  description = winnow_bar_chart_get_description (chart);
  g_assert_nonnull (strstr (description, "Tokens saved by filter, last 30 days"));
  g_assert_nonnull (strstr (description, "4 bars, total 12750"));
  g_assert_nonnull (strstr (description, "highest 8000 (git-log)"));
  /* every bar's value, as text */
  g_assert_nonnull (strstr (description, "git-log 8000"));
  g_assert_nonnull (strstr (description, "lowest -50 ((no filter))"));
  g_assert_nonnull (strstr (winnow_bar_chart_get_description (winnow_savings_page_get_chart (f->page, "days")),
                            "Tokens saved per day, last 30 days: 30 bars, total 12750"));
}

/* the pointer over a bar's row or column finds that bar, once the page is laid out */
static void
test_hit_testing (Fixture       *f,
                  gconstpointer  data)
{
  WinnowBarChart *filters = winnow_savings_page_get_chart (f->page, "filters");
  WinnowBarChart *days = winnow_savings_page_get_chart (f->page, "days");
  int width, height;

  test_ui_wait_frames (GTK_WIDGET (f->window), 2);

  width = gtk_widget_get_width (GTK_WIDGET (filters));
  height = gtk_widget_get_height (GTK_WIDGET (filters));
  g_assert_cmpint (width, >, 0);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (winnow_bar_chart_get_bar_at (filters, width / 2.0,
                                                  4 + (i + 0.5) * (height - 8) / 4.0), ==, i);
  g_assert_cmpint (winnow_bar_chart_get_bar_at (filters, width / 2.0, height + 10), ==, -1);

  /* today is the last column, at the right edge */
  width = gtk_widget_get_width (GTK_WIDGET (days));
  height = gtk_widget_get_height (GTK_WIDGET (days));
  g_assert_cmpint (winnow_bar_chart_get_bar_at (days, width - 6, height / 2.0), ==, 29);
  g_assert_cmpint (winnow_bar_chart_get_bar_at (days, 0, height / 2.0), ==, -1);
}

static void
test_period (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *stored = NULL;
  int oldest;

  set_period (f, "24h");
  stored = g_settings_get_string (settings, "savings-period");
  g_assert_cmpstr (stored, ==, "24h");
  g_assert_cmpstr (kpi (f, "kpi-saved"), ==, "4800");
  g_assert_cmpstr (kpi (f, "kpi-ratio"), ==, "80.0 %");
  g_assert_cmpstr (kpi (f, "kpi-events"), ==, "2");
  g_assert_cmpstr (kpi (f, "kpi-grown"), ==, "0");
  assert_days (f, 2);
  g_assert_cmpuint (winnow_bar_chart_get_n_bars (winnow_savings_page_get_chart (f->page, "projects")), ==, 1);

  set_period (f, "7d");
  g_assert_cmpstr (kpi (f, "kpi-saved"), ==, "4750");
  g_assert_cmpstr (kpi (f, "kpi-events"), ==, "3");
  assert_days (f, 7);

  /* the setting drives the page too: another window, or a reset */
  g_settings_set_string (settings, "savings-period", "all");
  g_assert_true (winnow_savings_page_get_busy (f->page));
  wait_settled (f);
  g_assert_cmpstr (kpi (f, "kpi-saved"), ==, "12750");
  g_assert_cmpstr (kpi (f, "kpi-ratio"), ==, "77.7 %");
  g_assert_cmpstr (kpi (f, "kpi-events"), ==, "5");
  /* "all" charts from the first day with events */
  oldest = days_ago (f->now_us, 60 * DAY_US);
  assert_days (f, oldest + 1);
}

static void
test_refresh (Fixture       *f,
              gconstpointer  data)
{
  static const Seed later = { 0, "cargo build", "/tmp/acme", "cargo-build", 2000, 500 };

  g_assert_cmpstr (kpi (f, "kpi-events"), ==, "4");
  record (f, &later);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "savings.refresh", NULL));
  wait_settled (f);
  g_assert_cmpstr (kpi (f, "kpi-events"), ==, "5");
  g_assert_cmpstr (kpi (f, "kpi-saved"), ==, "14250");

  /* shown again: read again */
  record (f, &later);
  winnow_window_set_page (f->window, "preview");
  winnow_window_set_page (f->window, "savings");
  g_assert_true (winnow_savings_page_get_busy (f->page));
  wait_settled (f);
  g_assert_cmpstr (kpi (f, "kpi-events"), ==, "6");
}

static void
test_empty (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *status = test_ui_find (GTK_WIDGET (f->page), ADW_TYPE_STATUS_PAGE, NULL);

  g_assert_cmpstr (winnow_savings_page_get_state (f->page), ==, "empty");
  g_assert_nonnull (winnow_savings_page_get_totals (f->page));
  g_assert_cmpuint (winnow_savings_page_get_totals (f->page)->events, ==, 0);
  g_assert_true (gtk_widget_get_mapped (status));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)),
                            "winnow run"));

  set_period (f, "all");
  g_assert_cmpstr (winnow_savings_page_get_state (f->page), ==, "empty");
}

/* events, but none in the last 24 hours: the empty state says to pick a longer period */
static void
test_empty_period (Fixture       *f,
                   gconstpointer  data)
{
  static const Seed old = { 5 * DAY_US, "make", "/tmp/acme", "build-make", 900, 300 };
  GPtrArray *pages;
  AdwStatusPage *status = NULL;

  fixture_tear_down (f, data);
  f->data_dir = g_dir_make_tmp ("winnow-ui-savings-XXXXXX", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  record (f, &old);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  winnow_window_set_page (f->window, "savings");
  gtk_window_present (GTK_WINDOW (f->window));
  f->page = WINNOW_SAVINGS_PAGE (test_ui_find (GTK_WIDGET (f->window), WINNOW_TYPE_SAVINGS_PAGE,
                                               NULL));
  wait_settled (f);
  g_assert_cmpstr (winnow_savings_page_get_state (f->page), ==, "data");

  set_period (f, "24h");
  g_assert_cmpstr (winnow_savings_page_get_state (f->page), ==, "empty");
  pages = test_ui_find_all (GTK_WIDGET (f->page), ADW_TYPE_STATUS_PAGE);
  for (guint i = 0; i < pages->len; i++)
    if (gtk_widget_get_mapped (g_ptr_array_index (pages, i)))
      status = g_ptr_array_index (pages, i);
  g_ptr_array_unref (pages);
  g_assert_nonnull (status);
  g_assert_nonnull (strstr (adw_status_page_get_description (status), "longer"));
}

static void
test_export_csv (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-ui-savings-csv-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "savings.csv", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *expected_total = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *counter = winnow_tokens_counter_name ();
  guint n_days = 0, n_filters = 0;

  set_period (f, "all");
  g_assert_true (winnow_savings_page_export_csv (f->page, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);

  g_assert_cmpstr (lines[0], ==, "group,key,events,tokens_before,tokens_after,tokens_saved,"
                                 "saved_ratio,bytes_before,bytes_after,grown_events,"
                                 "tokens_grown,counter");
  expected_total = g_strdup_printf ("total,,5,16400,3650,12750,0.7774,65600,14600,1,50,%s", counter);
  g_assert_cmpstr (lines[1], ==, expected_total);

  for (guint i = 1; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "day,"))
        n_days++;
      if (g_str_has_prefix (lines[i], "filter,"))
        n_filters++;
    }
  g_assert_cmpuint (n_days, ==, days_ago (f->now_us, 60 * DAY_US) + 1);
  g_assert_cmpuint (n_filters, ==, 4);

  /* every group, keys quoted where CSV needs it, growth negative */
  {
    g_autofree char *git_log = g_strdup_printf ("\nfilter,git-log,1,10000,2000,8000,0.8000,40000,8000,0,0,%s\n", counter);
    g_autofree char *npm = g_strdup_printf ("\ncommand,npm install,1,300,350,-50,-0.1667,1200,1400,1,50,%s\n", counter);
    g_autofree char *shop = g_strdup_printf ("\nproject,\"/tmp/shop,inc\",2,10300,2350,7950,0.7718,41200,9400,1,50,%s\n", counter);
    g_autofree char *none = g_strdup_printf ("\nproject,,1,100,100,0,0.0000,400,400,0,0,%s\n", counter);

    g_assert_nonnull (strstr (contents, git_log));
    g_assert_nonnull (strstr (contents, npm));
    g_assert_nonnull (strstr (contents, shop));
    g_assert_nonnull (strstr (contents, none));
  }

  /* written again over the old file */
  set_period (f, "24h");
  g_assert_true (winnow_savings_page_export_csv (f->page, path, &error));
  g_assert_no_error (error);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (strchr (contents, '\n') + 1, "total,,2,6000,1200,4800,"));

  /* a folder that is not there: an error naming the file, nothing written */
  {
    g_autofree char *bad = g_build_filename (dir, "missing", "savings.csv", NULL);

    g_assert_false (winnow_savings_page_export_csv (f->page, bad, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "savings.csv"));
  }

  test_util_remove_tree (dir);
}

static void
test_export_png (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-ui-savings-png-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "days.png", NULL);
  WinnowBarChart *chart = winnow_savings_page_get_chart (f->page, "days");
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  int scale;

  test_ui_wait_frames (GTK_WIDGET (f->window), 2);
  g_assert_true (winnow_bar_chart_save_png (chart, path, &error));
  g_assert_no_error (error);

  texture = gdk_texture_new_from_filename (path, &error);
  g_assert_no_error (error);
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (chart));
  /* the chart, a margin round it and its title above */
  g_assert_cmpint (gdk_texture_get_width (texture), ==,
                   (gtk_widget_get_width (GTK_WIDGET (chart)) + 24) * scale);
  g_assert_cmpint (gdk_texture_get_height (texture), >,
                   (gtk_widget_get_height (GTK_WIDGET (chart)) + 24) * scale);

  test_util_remove_tree (dir);
}

/* the charts' colours come from the style: the dark style draws other pixels */
static void
test_dark_style (Fixture       *f,
                 gconstpointer  data)
{
  WinnowBarChart *chart = winnow_savings_page_get_chart (f->page, "filters");
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autoptr(GdkTexture) light = NULL;
  g_autoptr(GdkTexture) dark = NULL;
  g_autoptr(GBytes) light_png = NULL;
  g_autoptr(GBytes) dark_png = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  test_ui_wait_frames (GTK_WIDGET (f->window), 2);
  light = winnow_bar_chart_render (chart, NULL);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  test_ui_wait_frames (GTK_WIDGET (f->window), 2);
  dark = winnow_bar_chart_render (chart, NULL);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  g_assert_nonnull (light);
  g_assert_nonnull (dark);
  light_png = gdk_texture_save_to_png_bytes (light);
  dark_png = gdk_texture_save_to_png_bytes (dark);
  g_assert_false (g_bytes_equal (light_png, dark_png));
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

#define ADD(path, func, seeded) \
  g_test_add ("/winnow/ui/savings/" path, Fixture, GINT_TO_POINTER (seeded), fixture_set_up, \
              func, fixture_tear_down)

  ADD ("kpis-and-charts", test_kpis_and_charts, TRUE);
  ADD ("hit-testing", test_hit_testing, TRUE);
  ADD ("period", test_period, TRUE);
  ADD ("refresh", test_refresh, TRUE);
  ADD ("empty", test_empty, FALSE);
  ADD ("empty-period", test_empty_period, FALSE);
  ADD ("export-csv", test_export_csv, TRUE);
  ADD ("export-png", test_export_png, TRUE);
  ADD ("dark-style", test_dark_style, TRUE);

#undef ADD

  return g_test_run ();
}
