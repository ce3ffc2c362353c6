/* winnow-savings-page.c — tokens saved, charted from the store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Four figures (tokens saved, the saved share, events, outputs that grew) and four charts
 * (tokens saved per day, by filter, by command, by project) for a period the person picks:
 * 24 hours, 7 days, 30 days or everything kept. The figures are the store's sums, the same
 * ones `winnow gain` prints, and growth stays growth: a filter that made output larger shows
 * a red bar below zero, not a zero.
 *
 * The database grows with every `winnow run`, so nothing here touches it on the main thread:
 * the store is opened in a worker, and the five sums run through its async queries, on
 * several read connections so they run side by side (see open_thread()); a new
 * refresh (page shown, period changed, Ctrl+R) cancels the one still running, and only the
 * last one's results are shown. Everything a chart draws is a few hundred numbers at most.
 *
 * The day chart's days are local calendar days, oldest first, so "24 h" shows yesterday and
 * today (what the last 24 hours touch), and "all" the days since the first one with events
 * within the retention period. The other charts show the ten groups that saved most, and
 * after them every group whose output grew, as `winnow gain` does; the CSV has every group.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "winnow-savings-page.h"
#include "winnow-toast.h"

#define TOP_GROUPS 10
#define MIN_DAYS   7

enum {
  Q_TOTALS,
  Q_DAYS,
  Q_FILTERS,
  Q_COMMANDS,
  Q_PROJECTS,
  N_QUERIES
};

typedef struct
{
  const char *id;       /* the settings value, also a `winnow gain --since` duration */
  guint       n_days;   /* days in the day chart; 0 for the retention period */
  const char *phrase;   /* ends the charts' titles */
} Period;

static const Period periods[] = {
  /* Translators: these end chart titles such as "Tokens saved per day, last 7 days" */
  { "24h", 2, N_("last 24 hours") },
  { "7d", 7, N_("last 7 days") },
  { "30d", 30, N_("last 30 days") },
  { "all", 0, N_("all recorded events") },
};

static const struct
{
  WinnowStoreGroup  group;
  const char       *csv;     /* the group column, as `winnow gain --csv` writes it */
  const char       *chart;   /* the chart's name */
  const char       *none;    /* the label of events without a key */
} groups[] = {
  { WINNOW_STORE_GROUP_FILTER, "filter", "filters", N_("(no filter)") },
  { WINNOW_STORE_GROUP_COMMAND, "command", "commands", N_("(no command)") },
  { WINNOW_STORE_GROUP_PROJECT, "project", "projects", N_("(no project)") },
};

static char *
group_title (WinnowStoreGroup  group,
             const char       *period)
{
  /* Translators: chart titles; %s is a period, e.g. "last 7 days" */
  switch (group)
    {
    case WINNOW_STORE_GROUP_FILTER: return g_strdup_printf (_("Tokens saved by filter, %s"), period);
    case WINNOW_STORE_GROUP_COMMAND: return g_strdup_printf (_("Tokens saved by command, %s"), period);
    case WINNOW_STORE_GROUP_PROJECT: return g_strdup_printf (_("Tokens saved by project, %s"), period);
    case WINNOW_STORE_GROUP_NONE:
    default: g_assert_not_reached ();
    }
}

typedef struct _Load Load;

typedef struct
{
  Load  *load;
  guint  index;
} Slot;

/* One refresh: five queries in flight, the results gathered until the last one is back. */
struct _Load
{
  WinnowSavingsPage *self;
  GCancellable      *cancellable;
  const Period      *period;
  guint              pending;
  GError            *error;
  GPtrArray         *results[N_QUERIES];
  Slot               slots[N_QUERIES];
};

struct _WinnowSavingsPage
{
  GtkWidget       parent_instance;

  WinnowContext  *context;
  GPtrArray      *stores;         /* of WinnowStore: connections that read side by side */
  GSettings      *settings;
  GCancellable   *cancellable;
  const Period   *period;
  const Period   *shown_period;   /* the period of the figures on screen */
  GPtrArray      *results[N_QUERIES];
  gboolean        busy;

  /* template children */
  GtkLabel       *counter_label;
  GtkSpinner     *spinner;
  GtkStack       *content_stack;
  AdwStatusPage  *empty_page;
  AdwStatusPage  *error_page;
  GtkLabel       *saved_label;
  GtkLabel       *saved_caption;
  GtkLabel       *ratio_label;
  GtkLabel       *ratio_caption;
  GtkLabel       *events_label;
  GtkLabel       *events_caption;
  GtkLabel       *grown_label;
  GtkLabel       *grown_caption;
  GtkLabel       *days_title;
  WinnowBarChart *days_chart;
  WinnowBarChart *filters_chart;
  WinnowBarChart *commands_chart;
  WinnowBarChart *projects_chart;
};

G_DEFINE_FINAL_TYPE (WinnowSavingsPage, winnow_savings_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PERIOD,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void refresh_actions (WinnowSavingsPage *self);

static const Period *
find_period (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (periods); i++)
    if (g_strcmp0 (periods[i].id, id) == 0)
      return &periods[i];
  return NULL;
}

static void
set_busy (WinnowSavingsPage *self,
          gboolean           busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  gtk_spinner_set_spinning (self->spinner, busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BUSY]);
}

/* --- formatting --------------------------------------------------------------------------- */

static char *
format_count (gint64 value)
{
  /* grouped as the locale groups thousands */
  return g_strdup_printf ("%'" G_GINT64_FORMAT, value);
}

static char *
format_percent (double ratio)
{
  return g_strdup_printf ("%.1f %%", ratio * 100);
}

static char *
row_figures (const WinnowSavingsRow *row)
{
  gint64 saved = winnow_savings_row_get_saved (row);
  g_autofree char *amount = format_count (saved >= 0 ? saved : -saved);
  g_autofree char *percent = format_percent (fabs (winnow_savings_row_get_saved_ratio (row)));
  g_autofree char *events = format_count ((gint64) row->events);
  g_autoptr(GString) text = g_string_new (NULL);

  if (saved >= 0)
    /* Translators: a bar's tooltip: tokens saved, then the share of the tokens before */
    g_string_append_printf (text, _("%s tokens saved (%s)"), amount, percent);
  else
    /* Translators: a bar's tooltip: tokens added, then the share of the tokens before */
    g_string_append_printf (text, _("Grew by %s tokens (+%s)"), amount, percent);

  g_string_append_c (text, '\n');
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events",
                                             row->events), events);
  if (row->grown_events > 0)
    {
      g_autofree char *grown = format_count ((gint64) row->grown_events);

      g_string_append (text, ", ");
      /* Translators: how many outputs came out larger than they went in */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s grew", "%s grew",
                                                 row->grown_events), grown);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static GDateTime *
row_day (const WinnowSavingsRow *row)
{
  return g_date_time_new_from_unix_local (row->start_us / G_USEC_PER_SEC);
}

/* a project is a directory: the home folder as "~", as a shell prompt shows it */
static char *
project_label (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize len = home ? strlen (home) : 0;

  if (len > 1 && g_str_has_prefix (path, home) && (path[len] == '/' || path[len] == '\0'))
    return g_strconcat ("~", path + len, NULL);
  return g_strdup (path);
}

/* --- showing the figures ------------------------------------------------------------------ */

static void
set_chart (WinnowBarChart *chart,
           GPtrArray      *labels,
           GArray         *values,
           GPtrArray      *tips)
{
  winnow_bar_chart_set_bars (chart, values->len,
                             (const char * const *) labels->pdata,
                             (const double *) (gpointer) values->data,
                             (const char * const *) tips->pdata);
}

static void
show_days (WinnowSavingsPage *self)
{
  GPtrArray *days = self->results[Q_DAYS];
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) tips = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *title = NULL;

  for (guint i = 0; i < days->len; i++)
    {
      const WinnowSavingsRow *row = g_ptr_array_index (days, i);
      g_autoptr(GDateTime) day = row_day (row);
      g_autofree char *date = NULL;
      g_autofree char *figures = row_figures (row);
      double value = (double) winnow_savings_row_get_saved (row);

      /* Translators: a day under a chart's bar, see strftime(3): "Mar 3" */
      g_ptr_array_add (labels, g_date_time_format (day, _("%b %-d")));
      /* Translators: a day in a bar's tooltip, see strftime(3): "Sunday, March 3, 2024" */
      date = g_date_time_format (day, _("%A, %B %-d, %Y"));
      g_ptr_array_add (tips, g_strdup_printf ("%s\n%s", date, figures));
      g_array_append_val (values, value);
    }

  /* Translators: a chart's title; %s is a period, e.g. "last 7 days" */
  title = g_strdup_printf (_("Tokens saved per day, %s"), _(self->shown_period->phrase));
  gtk_label_set_text (self->days_title, title);
  winnow_bar_chart_set_title (self->days_chart, title);
  set_chart (self->days_chart, labels, values, tips);
}

static void
show_group (WinnowSavingsPage *self,
            guint              g)
{
  GPtrArray *rows = self->results[Q_FILTERS + g];
  WinnowBarChart *chart = winnow_savings_page_get_chart (self, groups[g].chart);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) tips = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *title = NULL;

  for (guint i = 0; i < rows->len; i++)
    {
      const WinnowSavingsRow *row = g_ptr_array_index (rows, i);
      double value = (double) winnow_savings_row_get_saved (row);
      g_autofree char *figures = NULL;
      char *label;

      /* the best few, then every one that grew */
      if (i >= TOP_GROUPS && value >= 0)
        continue;

      if (row->key == NULL)
        label = g_strdup (_(groups[g].none));
      else if (groups[g].group == WINNOW_STORE_GROUP_PROJECT)
        label = project_label (row->key);
      else
        label = g_strdup (row->key);

      figures = row_figures (row);
      g_ptr_array_add (tips, g_strdup_printf ("%s\n%s", row->key ? row->key : label, figures));
      g_ptr_array_add (labels, label);
      g_array_append_val (values, value);
    }

  title = group_title (groups[g].group, _(self->shown_period->phrase));
  winnow_bar_chart_set_title (chart, title);
  set_chart (chart, labels, values, tips);
}

static void
show_totals (WinnowSavingsPage      *self,
             const WinnowSavingsRow *row)
{
  gint64 saved = winnow_savings_row_get_saved (row);
  g_autofree char *saved_text = format_count (saved);
  g_autofree char *before = format_count ((gint64) row->tokens_before);
  g_autofree char *ratio = format_percent (winnow_savings_row_get_saved_ratio (row));
  g_autofree char *events = format_count ((gint64) row->events);
  g_autofree char *grown = format_count ((gint64) row->grown_events);
  g_autofree char *saved_caption = NULL;
  g_autofree char *grown_caption = NULL;

  gtk_label_set_text (self->saved_label, saved_text);
  /* Translators: under the number of tokens saved: the tokens before compression */
  saved_caption = g_strdup_printf (_("tokens saved, of %s"), before);
  gtk_label_set_text (self->saved_caption, saved_caption);

  gtk_label_set_text (self->ratio_label, ratio);
  gtk_label_set_text (self->ratio_caption, _("of the tokens saved"));

  gtk_label_set_text (self->events_label, events);
  gtk_label_set_text (self->events_caption,
                      g_dngettext (GETTEXT_PACKAGE, "output compressed", "outputs compressed",
                                   row->events));

  gtk_label_set_text (self->grown_label, grown);
  if (row->grown_events > 0)
    {
      g_autofree char *tokens = format_count ((gint64) row->tokens_grown);

      /* Translators: under the number of outputs that grew: by how many tokens in all */
      grown_caption = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "output grew, by %s tokens",
                                                    "outputs grew, by %s tokens",
                                                    row->grown_events), tokens);
      gtk_widget_add_css_class (GTK_WIDGET (self->grown_label), "warning");
    }
  else
    {
      grown_caption = g_strdup (_("outputs grew"));
      gtk_widget_remove_css_class (GTK_WIDGET (self->grown_label), "warning");
    }
  gtk_label_set_text (self->grown_caption, grown_caption);
}

static void
show_results (WinnowSavingsPage *self)
{
  const WinnowSavingsRow *totals = winnow_savings_page_get_totals (self);

  if (totals == NULL || totals->events == 0)
    {
      g_autofree char *text = NULL;

      /* one sentence for both cases: whether older events exist would cost another query */
      if (self->shown_period->n_days == 0)
        text = g_strdup (_("Nothing has been compressed yet. Run commands through "
                           "“winnow run -- COMMAND” and the tokens they save show up here."));
      else
        /* Translators: %s is a period, e.g. "last 7 days" */
        text = g_strdup_printf (_("Nothing was compressed in the %s. Run commands through "
                                  "“winnow run -- COMMAND”, or choose a longer period."),
                                _(self->shown_period->phrase));
      adw_status_page_set_description (self->empty_page, text);
      gtk_stack_set_visible_child_name (self->content_stack, "empty");
      return;
    }

  show_totals (self, totals);
  show_days (self);
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    show_group (self, g);
  gtk_stack_set_visible_child_name (self->content_stack, "data");
}

/* --- querying ----------------------------------------------------------------------------- */

static void
load_free (Load *load)
{
  g_clear_object (&load->self);
  g_clear_object (&load->cancellable);
  g_clear_error (&load->error);
  for (guint i = 0; i < N_QUERIES; i++)
    g_clear_pointer (&load->results[i], g_ptr_array_unref);
  g_free (load);
}

static void
show_error (WinnowSavingsPage *self,
            const GError      *error)
{
  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->content_stack, "error");
  set_busy (self, FALSE);
  refresh_actions (self);
}

/* "all" charts the days from the first one with events: the retention period mostly empty
 * would squeeze the days that matter into slivers */
static void
trim_leading_days (GPtrArray *days)
{
  guint first = 0;

  while (first < days->len && days->len - first > MIN_DAYS &&
         ((WinnowSavingsRow *) g_ptr_array_index (days, first))->events == 0)
    first++;
  if (first > 0)
    g_ptr_array_remove_range (days, 0, first);
}

static void
on_query_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  Slot *slot = user_data;
  Load *load = slot->load;
  WinnowSavingsPage *self = load->self;
  GError *error = NULL;

  load->results[slot->index] = winnow_store_query_finish (WINNOW_STORE (source), result, &error);
  if (error != NULL && load->error == NULL)
    load->error = error;
  else
    g_clear_error (&error);

  if (--load->pending > 0)
    return;

  /* a newer refresh took over, or the page went away */
  if (!g_cancellable_is_cancelled (load->cancellable))
    {
      if (load->error != NULL)
        show_error (self, load->error);
      else
        {
          if (load->period->n_days == 0)
            trim_leading_days (load->results[Q_DAYS]);
          for (guint i = 0; i < N_QUERIES; i++)
            {
              g_clear_pointer (&self->results[i], g_ptr_array_unref);
              self->results[i] = g_steal_pointer (&load->results[i]);
            }
          self->shown_period = load->period;
          show_results (self);
          set_busy (self, FALSE);
          refresh_actions (self);
        }
    }

  load_free (load);
}

static void
start_queries (WinnowSavingsPage *self)
{
  Load *load = g_new0 (Load, 1);
  GTimeSpan since = 0;
  guint n_days = self->period->n_days;
  g_autoptr(GError) error = NULL;

  if (!winnow_store_parse_since (self->period->id, &since, &error))
    g_assert_not_reached ();
  if (n_days == 0)
    n_days = CLAMP (winnow_config_get_retention_days (winnow_context_get_config (self->context)),
                    MIN_DAYS, 3650);

  load->self = g_object_ref (self);
  load->cancellable = g_object_ref (self->cancellable);
  load->period = self->period;
  load->pending = N_QUERIES;
  for (guint i = 0; i < N_QUERIES; i++)
    load->slots[i] = (Slot) { load, i };

  /* groups unlimited: the CSV has every one, the charts pick their own */
  winnow_store_query_async (g_ptr_array_index (self->stores, 0), WINNOW_STORE_GROUP_NONE, since,
                            0, load->cancellable, on_query_done, &load->slots[Q_TOTALS]);
  winnow_store_query_days_async (g_ptr_array_index (self->stores, 0), n_days, load->cancellable,
                                 on_query_done, &load->slots[Q_DAYS]);
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    winnow_store_query_async (g_ptr_array_index (self->stores, 1 + g), groups[g].group, since, 0,
                              load->cancellable, on_query_done, &load->slots[Q_FILTERS + g]);
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_autoptr(GPtrArray) stores = g_ptr_array_new_with_free_func (g_object_unref);
  GError *error = NULL;
  WinnowStore *store = winnow_store_open_for_context (task_data, &error);

  if (store == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_ptr_array_add (stores, store);

  /* A store has one connection and runs one query at a time, and summing a million events
   * takes SQLite a few hundred milliseconds per group. In WAL mode readers never wait for
   * each other, so each group gets a connection of its own and the sums run side by side. */
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      WinnowStore *reader = winnow_store_open (winnow_store_get_path (store), &error);

      if (reader == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (stores, reader);
    }

  g_task_return_pointer (task, g_steal_pointer (&stores), (GDestroyNotify) g_ptr_array_unref);
}

static void
on_store_opened (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  WinnowSavingsPage *self = WINNOW_SAVINGS_PAGE (source);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GPtrArray) stores = NULL;
  g_autoptr(GError) error = NULL;

  stores = g_task_propagate_pointer (G_TASK (result), &error);

  /* a newer refresh or another context took over; it opens its own */
  if (g_cancellable_is_cancelled (cancellable))
    return;

  if (stores == NULL)
    {
      show_error (self, error);
      return;
    }

  g_clear_pointer (&self->stores, g_ptr_array_unref);
  self->stores = g_steal_pointer (&stores);
  start_queries (self);
}

/**
 * winnow_savings_page_refresh:
 * @self: a #WinnowSavingsPage
 *
 * Reads the figures of the chosen period again, in the background; a refresh still running
 * is abandoned. #WinnowSavingsPage:busy is %TRUE until the figures are on screen.
 */
void
winnow_savings_page_refresh (WinnowSavingsPage *self)
{
  g_return_if_fail (WINNOW_IS_SAVINGS_PAGE (self));

  if (self->context == NULL)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  set_busy (self, TRUE);

  if (self->stores == NULL)
    {
      g_autoptr(GTask) task = g_task_new (self, self->cancellable, on_store_opened, NULL);

      g_task_set_source_tag (task, winnow_savings_page_refresh);
      g_task_set_check_cancellable (task, FALSE);
      g_task_set_task_data (task, g_object_ref (self->context), g_object_unref);
      g_task_run_in_thread (task, open_thread);
    }
  else
    start_queries (self);
}

/* --- export ------------------------------------------------------------------------------- */

static void
append_csv_field (GString    *csv,
                  const char *value)
{
  if (value == NULL)
    return;

  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      g_string_append (csv, value);
      return;
    }

  g_string_append_c (csv, '"');
  for (const char *p = value; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *p);
    }
  g_string_append_c (csv, '"');
}

static void
append_csv_rows (GString    *csv,
                 const char *group,
                 GPtrArray  *rows)
{
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const WinnowSavingsRow *row = g_ptr_array_index (rows, i);
      gint64 saved = winnow_savings_row_get_saved (row);
      /* four decimals, rounded half away from zero, as `winnow gain --csv` */
      double ratio = (double) (gint64) (winnow_savings_row_get_saved_ratio (row) * 10000 +
                                        (saved < 0 ? -0.5 : 0.5)) / 10000;
      char ratio_text[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append (csv, group);
      g_string_append_c (csv, ',');
      append_csv_field (csv, row->key);
      g_string_append_printf (csv, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
                              G_GUINT64_FORMAT ",%" G_GINT64_FORMAT ",%s,%" G_GUINT64_FORMAT
                              ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                              ",%s\n",
                              row->events, row->tokens_before, row->tokens_after, saved,
                              g_ascii_formatd (ratio_text, sizeof ratio_text, "%.4f", ratio),
                              row->bytes_before, row->bytes_after, row->grown_events,
                              row->tokens_grown, winnow_tokens_counter_name ());
    }
}

/**
 * winnow_savings_page_export_csv:
 * @self: a #WinnowSavingsPage
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Writes the figures on screen as CSV, in the columns of `winnow gain --csv`: the totals,
 * every day, and every filter, command and project of the period (not only the ones the
 * charts have room for). The file is replaced atomically.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_savings_page_export_csv (WinnowSavingsPage  *self,
                                const char         *path,
                                GError            **error)
{
  g_autoptr(GString) csv = NULL;

  g_return_val_if_fail (WINNOW_IS_SAVINGS_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->results[Q_TOTALS] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   _("Cannot write %s: the savings have not been read yet"), path);
      return FALSE;
    }

  csv = g_string_new ("group,key,events,tokens_before,tokens_after,tokens_saved,saved_ratio,"
                      "bytes_before,bytes_after,grown_events,tokens_grown,counter\n");
  append_csv_rows (csv, "total", self->results[Q_TOTALS]);
  append_csv_rows (csv, "day", self->results[Q_DAYS]);
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    append_csv_rows (csv, groups[g].csv, self->results[Q_FILTERS + g]);

  return g_file_set_contents (path, csv->str, csv->len, error);
}

static void
export_response_cb (GtkNativeDialog   *dialog,
                    int                response,
                    WinnowSavingsPage *self)
{
  const char *chart_name = g_object_get_data (G_OBJECT (dialog), "chart");
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *basename = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    path = g_file_get_path (file);

  if (path != NULL)
    {
      basename = g_path_get_basename (path);
      if (chart_name != NULL)
        ok = winnow_bar_chart_save_png (winnow_savings_page_get_chart (self, chart_name), path,
                                        &error);
      else
        ok = winnow_savings_page_export_csv (self, path, &error);

      if (ok)
        {
          /* Translators: %s is a file name */
          g_autofree char *message = g_strdup_printf (_("Saved %s"), basename);

          winnow_show_toast (GTK_WIDGET (self), message);
        }
      else
        {
          /* Translators: %s says why the file could not be written */
          g_autofree char *message = g_strdup_printf (_("Could not export: %s"), error->message);

          winnow_show_toast (GTK_WIDGET (self), message);
        }
    }

  g_object_unref (dialog);
  g_object_unref (self);
}

static void
ask_where (WinnowSavingsPage *self,
           const char        *title,
           const char        *file_name,
           const char        *mime_type,
           const char        *pattern,
           const char        *chart)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (title,
                                        GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), file_name);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_set_data_full (G_OBJECT (dialog), "chart", g_strdup (chart), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  WinnowSavingsPage *self = WINNOW_SAVINGS_PAGE (widget);
  g_autofree char *name = g_strdup_printf ("winnow-savings-%s.csv", self->shown_period->id);

  ask_where (self, _("Export the Savings as CSV"), name, "text/csv", "*.csv", NULL);
}

static void
export_png_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  WinnowSavingsPage *self = WINNOW_SAVINGS_PAGE (widget);
  const char *chart = g_variant_get_string (parameter, NULL);
  g_autofree char *name = NULL;

  if (winnow_savings_page_get_chart (self, chart) == NULL)
    return;

  name = g_strdup_printf ("winnow-savings-%s-%s.png", chart, self->shown_period->id);
  ask_where (self, _("Save the Chart as an Image"), name, "image/png", "*.png", chart);
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  winnow_savings_page_refresh (WINNOW_SAVINGS_PAGE (widget));
}

/* Ctrl+R anywhere in the window, while this page is the one shown */
static gboolean
refresh_shortcut (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  if (!gtk_widget_get_mapped (widget))
    return FALSE;

  winnow_savings_page_refresh (WINNOW_SAVINGS_PAGE (widget));
  return TRUE;
}

static void
refresh_actions (WinnowSavingsPage *self)
{
  gboolean has_data = g_strcmp0 (winnow_savings_page_get_state (self), "data") == 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "savings.export-csv",
                                 self->results[Q_TOTALS] != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "savings.export-png", has_data);
}

/* --- GObject ------------------------------------------------------------------------------ */

static void
winnow_savings_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (winnow_savings_page_parent_class)->map (widget);

  /* what was recorded since the page was last looked at */
  winnow_savings_page_refresh (WINNOW_SAVINGS_PAGE (widget));
}

static void
winnow_savings_page_dispose (GObject *object)
{
  WinnowSavingsPage *self = WINNOW_SAVINGS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_SAVINGS_PAGE);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  for (guint i = 0; i < N_QUERIES; i++)
    g_clear_pointer (&self->results[i], g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->stores, g_ptr_array_unref);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (winnow_savings_page_parent_class)->dispose (object);
}

static void
winnow_savings_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  WinnowSavingsPage *self = WINNOW_SAVINGS_PAGE (object);

  switch (prop_id)
    {
    case PROP_PERIOD:
      g_value_set_string (value, self->period->id);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_savings_page_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  WinnowSavingsPage *self = WINNOW_SAVINGS_PAGE (object);

  switch (prop_id)
    {
    case PROP_PERIOD:
      winnow_savings_page_set_period (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_savings_page_class_init (WinnowSavingsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_savings_page_dispose;
  object_class->get_property = winnow_savings_page_get_property;
  object_class->set_property = winnow_savings_page_set_property;
  widget_class->map = winnow_savings_page_map;

  /**
   * WinnowSavingsPage:period:
   *
   * The stretch of time shown: `24h`, `7d`, `30d` or `all` (the `savings-period` setting).
   */
  properties [PROP_PERIOD] =
    g_param_spec_string ("period", NULL, NULL, "30d",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowSavingsPage:busy:
   *
   * Whether figures are being read from the store.
   */
  properties [PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-savings-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, counter_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, saved_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, saved_caption);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, ratio_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, ratio_caption);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, events_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, events_caption);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, grown_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, grown_caption);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, days_title);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, days_chart);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, filters_chart);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, commands_chart);
  gtk_widget_class_bind_template_child (widget_class, WinnowSavingsPage, projects_chart);

  gtk_widget_class_install_property_action (widget_class, "savings.period", "period");
  gtk_widget_class_install_action (widget_class, "savings.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "savings.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "savings.export-png", "s", export_png_action);

  g_type_ensure (WINNOW_TYPE_BAR_CHART);
}

/* The cards sit in flow boxes for their layout only. A flow box child is a focus stop of its
 * own, and here a silent one: a card is nothing to select or activate, and its name would be
 * its whole content again. So the focus goes straight to what a card holds — its figures,
 * which are selectable labels, and its buttons — and a screen reader reads those. */
static void
cards_not_focusable (GtkWidget *widget)
{
  if (GTK_IS_FLOW_BOX_CHILD (widget))
    gtk_widget_set_focusable (widget, FALSE);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    cards_not_focusable (child);
}

static void
winnow_savings_page_init (WinnowSavingsPage *self)
{
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();
  g_autofree char *counter = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  cards_not_focusable (GTK_WIDGET (self));

  self->period = find_period ("30d");
  self->shown_period = self->period;

  /* managed: the window handles it wherever the focus is, even in the header bar */
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_MANAGED);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_r, GDK_CONTROL_MASK),
                                                          gtk_callback_action_new (refresh_shortcut,
                                                                                   NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  /* Translators: %s names the tokenizer, e.g. o200k_base */
  counter = g_strdup_printf (_("Tokens counted with %s"), winnow_tokens_counter_name ());
  gtk_label_set_text (self->counter_label, counter);

  self->settings = g_settings_new (APP_ID);
  g_settings_bind (self->settings, "savings-period", self, "period", G_SETTINGS_BIND_DEFAULT);

  gtk_stack_set_visible_child_name (self->content_stack, "loading");
  refresh_actions (self);
}

/**
 * winnow_savings_page_set_context:
 * @self: a #WinnowSavingsPage
 * @context: (nullable): the engine context whose store to chart
 *
 * The figures are read when the page is shown.
 */
void
winnow_savings_page_set_context (WinnowSavingsPage *self,
                                 WinnowContext     *context)
{
  g_return_if_fail (WINNOW_IS_SAVINGS_PAGE (self));
  g_return_if_fail (context == NULL || WINNOW_IS_CONTEXT (context));

  if (!g_set_object (&self->context, context))
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->stores, g_ptr_array_unref);
  set_busy (self, FALSE);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    winnow_savings_page_refresh (self);
}

gboolean
winnow_savings_page_get_busy (WinnowSavingsPage *self)
{
  g_return_val_if_fail (WINNOW_IS_SAVINGS_PAGE (self), FALSE);
  return self->busy;
}

const char *
winnow_savings_page_get_period (WinnowSavingsPage *self)
{
  g_return_val_if_fail (WINNOW_IS_SAVINGS_PAGE (self), NULL);
  return self->period->id;
}

/**
 * winnow_savings_page_set_period:
 * @self: a #WinnowSavingsPage
 * @period: `24h`, `7d`, `30d` or `all`
 *
 * Shows another stretch of time, reading its figures when the page is shown; an unknown
 * period is ignored.
 */
void
winnow_savings_page_set_period (WinnowSavingsPage *self,
                                const char        *period)
{
  const Period *found;

  g_return_if_fail (WINNOW_IS_SAVINGS_PAGE (self));

  found = find_period (period);
  if (found == NULL || found == self->period)
    return;

  self->period = found;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    winnow_savings_page_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PERIOD]);
}

/**
 * winnow_savings_page_get_state:
 * @self: a #WinnowSavingsPage
 *
 * Returns: what the page shows: "loading" (nothing read yet), "empty" (no events in the
 *   period), "error" or "data"
 */
const char *
winnow_savings_page_get_state (WinnowSavingsPage *self)
{
  g_return_val_if_fail (WINNOW_IS_SAVINGS_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->content_stack);
}

/**
 * winnow_savings_page_get_totals:
 * @self: a #WinnowSavingsPage
 *
 * Returns: (nullable): the totals on screen, %NULL before the first read
 */
const WinnowSavingsRow *
winnow_savings_page_get_totals (WinnowSavingsPage *self)
{
  g_return_val_if_fail (WINNOW_IS_SAVINGS_PAGE (self), NULL);

  if (self->results[Q_TOTALS] == NULL || self->results[Q_TOTALS]->len == 0)
    return NULL;
  return g_ptr_array_index (self->results[Q_TOTALS], 0);
}

/**
 * winnow_savings_page_get_chart:
 * @self: a #WinnowSavingsPage
 * @name: "days", "filters", "commands" or "projects"
 *
 * Returns: (transfer none) (nullable): the chart, %NULL for an unknown name
 */
WinnowBarChart *
winnow_savings_page_get_chart (WinnowSavingsPage *self,
                               const char        *name)
{
  g_return_val_if_fail (WINNOW_IS_SAVINGS_PAGE (self), NULL);

  if (g_strcmp0 (name, "days") == 0)
    return self->days_chart;
  if (g_strcmp0 (name, "filters") == 0)
    return self->filters_chart;
  if (g_strcmp0 (name, "commands") == 0)
    return self->commands_chart;
  if (g_strcmp0 (name, "projects") == 0)
    return self->projects_chart;
  return NULL;
}
