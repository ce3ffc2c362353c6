/* winnow-raw-output-page.c — the retained raw outputs, beside what Winnow makes of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `winnow run` keeps the redacted output of commands it compressed (rawOutputRetention). This
 * page lists them from the store — a GtkColumnView over WinnowRawOutputList, which reads rows
 * a page at a time as the view reaches them and never the files — filtered by command, by
 * failure and by age. Selecting one reads its file, shows it with the redaction markers
 * highlighted, and compresses it again off the main thread (winnow-preview-run.c) with the
 * recorded command and the current settings, so the person sees what an agent is shown now.
 * From there it can go to the Preview, become a test of the filter that compressed it, or be
 * deleted; old outputs can be purged, and the retention settings edited in settings.json.
 *
 * GTK 4.8 tells nobody which column the person sorted by (no
 * gtk_column_view_sorter_get_primary_sort_column()), so the page asks the view's own sorter
 * to compare pairs of made-up rows that differ in every column, and reads the primary column
 * and its direction from the answers. The list then re-reads in that order (see
 * winnow-raw-output-list.c for what the store can order itself).
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "winnow-a11y.h"
#include "winnow-filters-page.h"
#include "winnow-preview-page.h"
#include "winnow-preview-run.h"
#include "winnow-raw-output-page.h"
#include "winnow-toast.h"
#include "winnow-window.h"

#define N_SORTS (WINNOW_RAW_OUTPUT_SORT_SAVED + 1)

/* what `winnow raw` writes in place of a secret: `[REDACTED]`, `[REDACTED_GITHUB_TOKEN]` */
#define REDACTION_PATTERN "\\[REDACTED[A-Z0-9_]*\\]"

struct _WinnowRawOutputPage
{
  GtkWidget             parent_instance;

  WinnowContext        *context;
  WinnowStore          *store;
  WinnowPipeline       *pipeline;
  WinnowRawOutputList  *list;
  GtkSingleSelection   *selection;
  GCancellable         *open_cancellable;
  GCancellable         *detail_cancellable;
  GRegex               *redaction_regex;

  char                 *since;
  gboolean              failures_only;
  gboolean              updating_settings;
  gboolean              detail_busy;
  const char           *state;

  /* the selected output: its row, its text, what the pipeline made of it */
  WinnowRawOutputInfo  *info;
  char                 *text;
  char                 *filter_id;
  WinnowRawOutputItem  *waiting_item;

  /* probes for reading the column view's sort (see the top of this file) */
  WinnowRawOutputItem  *probes[N_SORTS][4];
  GtkColumnViewColumn  *sort_columns[N_SORTS];

  /* template children */
  GtkSearchEntry       *search_entry;
  GtkLabel             *count_label;
  GtkSpinner           *spinner;
  GtkDropDown          *retention_dropdown;
  GtkSpinButton        *max_kib_spin;
  GtkLabel             *sort_notice;
  GtkStack             *stack;
  AdwStatusPage        *empty_status;
  GtkColumnView        *column_view;
  GtkStack             *detail_stack;
  GtkLabel             *detail_label;
  GtkLabel             *result_label;
  GtkSpinner           *detail_spinner;
  GtkSourceView        *raw_view;
  GtkSourceView        *compressed_view;
};

G_DEFINE_FINAL_TYPE (WinnowRawOutputPage, winnow_raw_output_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SINCE,
  PROP_FAILURES_ONLY,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static const char * const retention_names[] = { "never", "failures", "always", NULL };

static void apply_filter (WinnowRawOutputPage *self);

static gboolean
compute_busy (WinnowRawOutputPage *self)
{
  return self->open_cancellable != NULL || self->detail_busy ||
         (self->list != NULL && winnow_raw_output_list_get_loading (self->list));
}

static void
update_busy (WinnowRawOutputPage *self)
{
  gboolean busy = compute_busy (self);

  gtk_spinner_set_spinning (self->spinner, busy && !self->detail_busy);
  gtk_spinner_set_spinning (self->detail_spinner, self->detail_busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BUSY]);
}

static void
update_actions (WinnowRawOutputPage *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (widget, "raw-output.open-in-preview", self->text != NULL);
  gtk_widget_action_set_enabled (widget, "raw-output.make-test",
                                 self->text != NULL && self->filter_id != NULL);
  gtk_widget_action_set_enabled (widget, "raw-output.delete", self->info != NULL);
  gtk_widget_action_set_enabled (widget, "raw-output.purge", self->store != NULL);
  gtk_widget_action_set_enabled (widget, "raw-output.refresh", self->store != NULL);
}

/* --- formatting ------------------------------------------------------------------------ */

static char *
format_time (gint64 time_us)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  if (time == NULL)
    return g_strdup ("—");

  /* Translators: a time today (strftime format) */
  if (g_date_time_get_year (time) == g_date_time_get_year (now) &&
      g_date_time_get_day_of_year (time) == g_date_time_get_day_of_year (now))
    return g_date_time_format (time, _("%H:%M:%S"));

  /* Translators: a date and time (strftime format) */
  return g_date_time_format (time, _("%Y-%m-%d %H:%M"));
}

static char *
format_size (const WinnowRawOutputInfo *info)
{
  guint64 size = info->original_bytes ? info->original_bytes : info->bytes;
  g_autofree char *text = g_format_size (size);

  if (info->truncated)
    /* Translators: the size of an output that was cut before it was kept, "2.1 MB (cut)" */
    return g_strdup_printf (_("%s (cut)"), text);
  return g_steal_pointer (&text);
}

static char *
format_failure (const WinnowRawOutputInfo *info)
{
  if (info->has_exit_code && info->exit_code != 0)
    /* Translators: a command's exit status, "exit 1" */
    return g_strdup_printf (_("exit %d"), info->exit_code);
  if (info->failure)
    return g_strdup (_("failure"));
  return g_strdup ("");
}

typedef enum
{
  COLUMN_TIME,
  COLUMN_COMMAND,
  COLUMN_SIZE,
  COLUMN_FAILURE,
  COLUMN_REDACTIONS,
  COLUMN_FILTER,
  COLUMN_SAVED,
} ColumnKind;

/* One cell's text; rows not read yet show an ellipsis until their page arrives. */
static char *
format_cell (GtkListItem         *list_item,
             WinnowRawOutputItem *item,
             WinnowRawOutputInfo *info,
             gpointer             user_data)
{
  ColumnKind kind = GPOINTER_TO_INT (user_data);

  if (item == NULL || info == NULL)
    return g_strdup (kind == COLUMN_TIME || kind == COLUMN_COMMAND ? "…" : "");

  switch (kind)
    {
    case COLUMN_TIME:
      return format_time (info->created_us);
    case COLUMN_COMMAND:
      return g_strdup (info->command != NULL && info->command[0] != '\0' ? info->command
                                                                         : _("(no command)"));
    case COLUMN_SIZE:
      return format_size (info);
    case COLUMN_FAILURE:
      return format_failure (info);
    case COLUMN_REDACTIONS:
      {
        guint n = winnow_raw_output_item_get_n_redactions (item);

        return n > 0 ? g_strdup_printf ("%u", n) : g_strdup ("");
      }
    case COLUMN_FILTER:
      return g_strdup (info->filter_id ? info->filter_id : "");
    case COLUMN_SAVED:
      /* growth shows as a negative number, never as nothing */
      return info->has_tokens ? g_strdup_printf ("%" G_GINT64_FORMAT,
                                                 info->tokens_before - info->tokens_after)
                              : g_strdup ("");
    default:
      g_return_val_if_reached (NULL);
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  ColumnKind kind = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);
  GtkExpression *params[2];
  GtkExpression *expression;

  gtk_label_set_ellipsize (GTK_LABEL (label), kind == COLUMN_COMMAND ? PANGO_ELLIPSIZE_END
                                                                     : PANGO_ELLIPSIZE_NONE);
  gtk_label_set_xalign (GTK_LABEL (label), kind == COLUMN_SIZE || kind == COLUMN_REDACTIONS || kind == COLUMN_SAVED
                                           ? 1.0f : 0.0f);
  if (kind != COLUMN_COMMAND)
    gtk_widget_add_css_class (label, "numeric");
  if (kind == COLUMN_FAILURE)
    gtk_widget_add_css_class (label, "error");
  gtk_list_item_set_child (list_item, label);

  /* the text follows the row's item and, once its page arrives, the item's info */
  params[0] = gtk_property_expression_new (GTK_TYPE_LIST_ITEM, NULL, "item");
  params[1] = gtk_property_expression_new (WINNOW_TYPE_RAW_OUTPUT_ITEM,
                                           gtk_property_expression_new (GTK_TYPE_LIST_ITEM,
                                                                        NULL, "item"),
                                           "info");
  expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 2, params,
                                            G_CALLBACK (format_cell), user_data, NULL);
  gtk_expression_bind (expression, label, "label", list_item);
}

static int
compare_column (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  WinnowRawOutputSort sort = GPOINTER_TO_INT (user_data);
  WinnowRawOutputItem *ia = (WinnowRawOutputItem *) a;
  WinnowRawOutputItem *ib = (WinnowRawOutputItem *) b;

  return winnow_raw_output_list_compare (sort,
                                         winnow_raw_output_item_get_info (ia),
                                         winnow_raw_output_item_get_n_redactions (ia),
                                         winnow_raw_output_item_get_info (ib),
                                         winnow_raw_output_item_get_n_redactions (ib));
}

static GtkColumnViewColumn *
add_column (WinnowRawOutputPage *self,
            const char          *title,
            ColumnKind           kind,
            int                  sort,
            gboolean             expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (kind));
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  if (sort >= 0)
    {
      g_autoptr(GtkSorter) sorter = NULL;

      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_column, GINT_TO_POINTER (sort), NULL));
      gtk_column_view_column_set_sorter (column, sorter);
      self->sort_columns[sort] = column;
    }
  gtk_column_view_append_column (self->column_view, column);
  g_object_unref (column);
  return column;
}

/* --- sorting --------------------------------------------------------------------------- */

static WinnowRawOutputItem *
probe_item (guint    sort,
            gboolean sort_high,
            gboolean others_high)
{
  gboolean high[N_SORTS];
  WinnowRawOutputInfo info = { 0 };

  for (guint k = 0; k < N_SORTS; k++)
    high[k] = k == sort ? sort_high : others_high;

  info.id = (char *) "000000000000000000000000";
  info.created_us = high[WINNOW_RAW_OUTPUT_SORT_TIME] ? 2 : 1;
  info.command = (char *) (high[WINNOW_RAW_OUTPUT_SORT_COMMAND] ? "b" : "a");
  info.bytes = info.original_bytes = high[WINNOW_RAW_OUTPUT_SORT_SIZE] ? 2 : 1;
  info.failure = high[WINNOW_RAW_OUTPUT_SORT_FAILURE];
  info.redactions = (char *) (high[WINNOW_RAW_OUTPUT_SORT_REDACTIONS] ? "{\"x\": 2}"
                                                                       : "{\"x\": 1}");
  info.filter_id = (char *) (high[WINNOW_RAW_OUTPUT_SORT_FILTER] ? "b" : "a");
  info.has_tokens = TRUE;
  info.tokens_before = high[WINNOW_RAW_OUTPUT_SORT_SAVED] ? 10 : 5;
  return winnow_raw_output_item_new (&info);
}

/* For each column, a pair that is ascending in it and descending in every other, and a pair
 * ascending in all: the view's sorter answers the same for both only when that column decides,
 * and the answer's sign is its direction. */
static gboolean
read_sort (WinnowRawOutputPage *self,
           WinnowRawOutputSort *sort,
           gboolean            *descending)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);

  for (guint k = 0; k < N_SORTS; k++)
    {
      GtkOrdering mixed, same;

      if (self->probes[k][0] == NULL)
        {
          self->probes[k][0] = probe_item (k, FALSE, TRUE);
          self->probes[k][1] = probe_item (k, TRUE, FALSE);
          self->probes[k][2] = probe_item (k, FALSE, FALSE);
          self->probes[k][3] = probe_item (k, TRUE, TRUE);
        }

      mixed = gtk_sorter_compare (sorter, self->probes[k][0], self->probes[k][1]);
      same = gtk_sorter_compare (sorter, self->probes[k][2], self->probes[k][3]);
      if (mixed == same && mixed != GTK_ORDERING_EQUAL)
        {
          *sort = k;
          *descending = mixed == GTK_ORDERING_LARGER;
          return TRUE;
        }
    }

  return FALSE;
}

static void
update_sort_notice (WinnowRawOutputPage *self)
{
  gboolean limited = self->list != NULL && winnow_raw_output_list_get_sort_limited (self->list);

  if (limited)
    {
      g_autofree char *text = NULL;

      /* Translators: %d is a number of outputs */
      text = g_strdup_printf (_("Sorting by this column reads every output; with more than %d "
                                "matching, they stay newest first. Narrow the search to sort."),
                              WINNOW_RAW_OUTPUT_LIST_LOCAL_SORT_MAX);
      gtk_label_set_text (self->sort_notice, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->sort_notice), limited);
}

static void
on_sorter_changed (WinnowRawOutputPage *self)
{
  WinnowRawOutputSort sort = WINNOW_RAW_OUTPUT_SORT_TIME;
  gboolean descending = TRUE;

  /* the view's columns go, and its sorter changes, while the page is disposed */
  if (self->list == NULL || self->column_view == NULL)
    return;

  read_sort (self, &sort, &descending);
  winnow_raw_output_list_set_sort (self->list, sort, descending);
}

/* --- the list -------------------------------------------------------------------------- */

static void
update_state (WinnowRawOutputPage *self)
{
  guint n = self->list ? g_list_model_get_n_items (G_LIST_MODEL (self->list)) : 0;
  gboolean filtered = gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0' ||
                      self->failures_only || g_strcmp0 (self->since, "all") != 0;
  g_autofree char *count = NULL;

  if (self->list == NULL || (n == 0 && winnow_raw_output_list_get_loading (self->list)))
    self->state = "loading";
  else if (winnow_raw_output_list_get_error (self->list) != NULL && n == 0)
    self->state = "error";
  else if (n == 0)
    self->state = filtered ? "no-match" : "empty";
  else
    self->state = "list";

  if (g_str_equal (self->state, "error"))
    {
      adw_status_page_set_title (self->empty_status, _("Cannot Read the Raw Outputs"));
      adw_status_page_set_description (self->empty_status,
                                       winnow_raw_output_list_get_error (self->list));
    }
  else if (g_str_equal (self->state, "no-match"))
    {
      adw_status_page_set_title (self->empty_status, _("No Matching Output"));
      adw_status_page_set_description (self->empty_status,
                                       _("No kept output matches the search, the failure "
                                         "filter and the period. Widen them to see more."));
    }
  else
    {
      adw_status_page_set_title (self->empty_status, _("No Raw Output Kept Yet"));
      adw_status_page_set_description (self->empty_status,
                                       _("Commands run through “winnow run” keep their full "
                                         "output, redacted, when the “rawOutputRetention” "
                                         "setting is “failures” or “always” (the gear button "
                                         "above). Kept outputs appear here next to what the "
                                         "agent was shown, so nothing compression removed is "
                                         "out of reach."));
    }

  gtk_stack_set_visible_child_name (self->stack, g_str_equal (self->state, "list") ||
                                                 (g_str_equal (self->state, "loading") &&
                                                  self->list != NULL) ? "list" : "empty");

  /* Translators: how many kept outputs match */
  count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u output", "%u outputs", n), n);
  gtk_label_set_text (self->count_label, self->list != NULL ? count : "");
}

static void
on_list_changed (WinnowRawOutputPage *self)
{
  update_state (self);
  update_sort_notice (self);
  update_busy (self);
}

/* The list and the view keep the selection by position; a reload starts from nothing. */
static void
clear_detail (WinnowRawOutputPage *self)
{
  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  g_clear_pointer (&self->info, winnow_raw_output_info_free);
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->filter_id, g_free);
  if (self->waiting_item != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->waiting_item, self);
      g_clear_object (&self->waiting_item);
    }
  self->detail_busy = FALSE;
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->raw_view)), "", 0);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->compressed_view)),
                            "", 0);
  gtk_label_set_text (self->result_label, "");
  gtk_stack_set_visible_child_name (self->detail_stack, "none");
  update_actions (self);
  update_busy (self);
}

/* --- the selected output --------------------------------------------------------------- */

static void
tag_redactions (WinnowRawOutputPage *self,
                GtkTextBuffer       *buffer,
                const char          *text)
{
  g_autoptr(GMatchInfo) match = NULL;
  const char *last = text;
  glong last_offset = 0;

  g_regex_match (self->redaction_regex, text, 0, &match);
  while (g_match_info_matches (match))
    {
      GtkTextIter start, end;
      int start_pos, end_pos;
      glong start_offset, end_offset;

      g_match_info_fetch_pos (match, 0, &start_pos, &end_pos);
      /* character offsets, counted on from the previous match: one pass over the text */
      start_offset = last_offset + g_utf8_pointer_to_offset (last, text + start_pos);
      end_offset = start_offset + g_utf8_pointer_to_offset (text + start_pos, text + end_pos);
      last = text + end_pos;
      last_offset = end_offset;

      gtk_text_buffer_get_iter_at_offset (buffer, &start, (int) start_offset);
      gtk_text_buffer_get_iter_at_offset (buffer, &end, (int) end_offset);
      gtk_text_buffer_apply_tag_by_name (buffer, "redaction", &start, &end);
      g_match_info_next (match, NULL);
    }
}

static void
run_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(WinnowRawOutputPage) self = user_data;
  g_autoptr(WinnowPipelineResult) run = NULL;
  g_autoptr(WinnowLineMap) line_map = NULL;
  g_autoptr(GError) error = NULL;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->compressed_view));
  WinnowCompression *compression;
  WinnowFilter *filter;
  WinnowReceipt *receipt;
  g_autoptr(GString) label = g_string_new (NULL);
  const char *text;

  run = winnow_preview_run_finish (result, &line_map, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->detail_busy = FALSE;
  update_busy (self);
  if (run == NULL)
    {
      gtk_text_buffer_set_text (buffer, "", 0);
      winnow_show_toast (GTK_WIDGET (self), error->message);
      return;
    }

  text = winnow_pipeline_result_get_text (run, NULL);
  gtk_text_buffer_set_text (buffer, text, -1);
  tag_redactions (self, buffer, text);

  receipt = winnow_pipeline_result_get_receipt (run);
  compression = winnow_pipeline_result_get_rtk_compression (run);
  filter = compression != NULL ? winnow_compression_get_filter (compression) : NULL;
  g_free (self->filter_id);
  self->filter_id = filter != NULL ? g_strdup (winnow_filter_get_id (filter)) : NULL;

  /* Translators: token counts before and after compression, and the share saved */
  g_string_printf (label, _("%zu → %zu tokens (%.1f %% saved)"),
                   winnow_receipt_get_tokens_before (receipt),
                   winnow_receipt_get_tokens_after (receipt),
                   100.0 * winnow_receipt_get_saved_ratio (receipt));
  if (self->filter_id != NULL)
    /* Translators: the RTK filter that compressed an output, "filter git-log" */
    g_string_append_printf (label, _(" · filter %s"), self->filter_id);
  gtk_label_set_text (self->result_label, label->str);

  update_actions (self);
}

static void
read_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(WinnowRawOutputPage) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(WinnowRawOutputInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->raw_view));
  const char *data;
  gsize length;

  bytes = winnow_store_read_raw_output_finish (WINNOW_STORE (source), result, &info, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (bytes == NULL)
    {
      self->detail_busy = FALSE;
      update_busy (self);
      gtk_text_buffer_set_text (buffer, "", 0);
      gtk_label_set_text (self->result_label, "");
      winnow_show_toast (GTK_WIDGET (self), error->message);
      return;
    }

  /* kept output need not be UTF-8; the views show invalid bytes as U+FFFD */
  data = g_bytes_get_data (bytes, &length);
  self->text = g_utf8_make_valid (data != NULL ? data : "", length);
  gtk_text_buffer_set_text (buffer, self->text, -1);
  tag_redactions (self, buffer, self->text);
  update_actions (self);

  /* mode and intensities -1: the settings' own, as `winnow run` would compress it now */
  winnow_preview_run_async (self->pipeline, self->text, self->info->command,
                            (WinnowPipelineMode) -1, (WinnowRtkIntensity) -1,
                            (WinnowCavemanIntensity) -1, self->detail_cancellable,
                            run_cb, g_object_ref (self));
}

static void show_selected (WinnowRawOutputPage *self);

static void
on_waiting_item_loaded (WinnowRawOutputPage *self)
{
  show_selected (self);
}

/* Return on a row (or a double click) shows that output, as selecting it does */
static void
on_row_activated (GtkColumnView       *view,
                  guint                position,
                  WinnowRawOutputPage *self)
{
  gtk_single_selection_set_selected (self->selection, position);
}

static void
show_selected (WinnowRawOutputPage *self)
{
  WinnowRawOutputItem *item = gtk_single_selection_get_selected_item (self->selection);
  const WinnowRawOutputInfo *info;
  g_autofree char *when = NULL;
  g_autofree char *size = NULL;
  g_autofree char *heading = NULL;

  clear_detail (self);
  if (item == NULL || self->store == NULL)
    return;

  info = winnow_raw_output_item_get_info (item);
  if (info == NULL)
    {
      /* selected before its page arrived: show it when it does */
      self->waiting_item = g_object_ref (item);
      g_signal_connect_object (item, "notify::loaded", G_CALLBACK (on_waiting_item_loaded), self,
                               G_CONNECT_SWAPPED);
      return;
    }

  self->info = winnow_raw_output_info_copy (info);
  self->detail_cancellable = g_cancellable_new ();
  self->detail_busy = TRUE;

  when = format_time (info->created_us);
  size = format_size (info);
  /* Translators: the selected output: its command, when it was kept and its size */
  heading = g_strdup_printf (_("%s — %s, %s"),
                             info->command && info->command[0] ? info->command
                                                               : _("(no command)"),
                             when, size);
  gtk_label_set_text (self->detail_label, heading);
  gtk_label_set_text (self->result_label, "");
  gtk_stack_set_visible_child_name (self->detail_stack, "detail");
  update_actions (self);
  update_busy (self);

  winnow_store_read_raw_output_async (self->store, info->id, self->detail_cancellable, read_cb,
                                      g_object_ref (self));
}

/* --- filters --------------------------------------------------------------------------- */

static void
apply_filter (WinnowRawOutputPage *self)
{
  GTimeSpan since = 0;

  if (self->list == NULL)
    return;

  if (!winnow_store_parse_since (self->since, &since, NULL))
    since = 0;

  winnow_raw_output_list_set_filter (self->list,
                                     gtk_editable_get_text (GTK_EDITABLE (self->search_entry)),
                                     self->failures_only,
                                     since > 0 ? g_get_real_time () - since : 0);
}

static void
on_search_changed (WinnowRawOutputPage *self)
{
  apply_filter (self);
}

/* --- retention settings ---------------------------------------------------------------- */

static void
show_retention (WinnowRawOutputPage *self)
{
  WinnowConfig *config;
  const char *retention;

  if (self->context == NULL)
    return;

  config = winnow_context_get_config (self->context);
  retention = winnow_config_get_raw_output_retention (config);

  self->updating_settings = TRUE;
  for (guint i = 0; retention_names[i] != NULL; i++)
    if (g_strcmp0 (retention_names[i], retention) == 0)
      gtk_drop_down_set_selected (self->retention_dropdown, i);
  gtk_spin_button_set_value (self->max_kib_spin,
                             (winnow_config_get_raw_output_max_bytes (config) + 1023) / 1024);
  self->updating_settings = FALSE;
}

static void
on_retention_changed (WinnowRawOutputPage *self)
{
  g_autoptr(GError) error = NULL;
  guint selected = gtk_drop_down_get_selected (self->retention_dropdown);
  guint kib = (guint) gtk_spin_button_get_value_as_int (self->max_kib_spin);

  if (self->updating_settings || self->context == NULL ||
      selected >= G_N_ELEMENTS (retention_names) - 1)
    return;

  if (!winnow_context_set_raw_output_retention (self->context, retention_names[selected],
                                                MIN (kib, G_MAXINT32 / 1024) * 1024, &error))
    winnow_show_toast (GTK_WIDGET (self), error->message);

  /* what the file says now, whether or not the write went through */
  show_retention (self);
}

/* --- actions --------------------------------------------------------------------------- */

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  winnow_raw_output_page_refresh (WINNOW_RAW_OUTPUT_PAGE (widget));
}

static void
open_in_preview_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (widget);
  GtkWidget *window = gtk_widget_get_ancestor (widget, WINNOW_TYPE_WINDOW);

  if (self->text == NULL || window == NULL)
    return;

  winnow_preview_page_set_input (winnow_window_get_preview_page (WINNOW_WINDOW (window)),
                                 self->text, self->info->command);
  winnow_window_set_page (WINNOW_WINDOW (window), "preview");
}

/* The filter that compressed the output gets it as a test whose expected output is what the
 * filter makes of it now — for the person to review and save in the editor. */
static void
make_test_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (widget);
  GtkWidget *window = gtk_widget_get_ancestor (widget, WINNOW_TYPE_WINDOW);
  g_autofree char *text = NULL;
  g_autofree char *command = NULL;
  g_autofree char *filter_id = NULL;
  WinnowFiltersPage *filters;
  WinnowFilterEditor *editor;

  if (self->text == NULL || self->filter_id == NULL || window == NULL)
    return;

  /* showing the Filters page may clear this page's selection: keep what we need */
  text = g_strdup (self->text);
  command = g_strdup (self->info->command);
  filter_id = g_strdup (self->filter_id);

  filters = winnow_window_get_filters_page (WINNOW_WINDOW (window));
  winnow_window_set_page (WINNOW_WINDOW (window), "filters");
  if (!winnow_filters_page_show_filter (filters, filter_id))
    {
      winnow_show_toast (GTK_WIDGET (self), _("That filter is no longer in the catalog"));
      return;
    }

  editor = winnow_filters_page_get_editor (filters);
  if (winnow_filter_editor_get_read_only (editor))
    {
      g_autofree char *message = NULL;

      /* Translators: %s is a filter id */
      message = g_strdup_printf (_("“%s” is built in and read-only: duplicate it to your "
                                   "filters, then make the test again"), filter_id);
      winnow_show_toast (GTK_WIDGET (self), message);
      return;
    }

  winnow_filters_page_set_sample (filters, text, command);
  if (!gtk_widget_activate_action (GTK_WIDGET (editor), "editor.add-test", NULL))
    winnow_show_toast (GTK_WIDGET (self), _("The filter editor cannot add a test now"));
  else
    winnow_show_toast (GTK_WIDGET (self), _("Test added: review its expected output and save"));
}

static gboolean
delete_selected (WinnowRawOutputPage  *self,
                 GError              **error)
{
  guint position = gtk_single_selection_get_selected (self->selection);
  g_autofree char *id = NULL;

  if (self->info == NULL || position == GTK_INVALID_LIST_POSITION)
    return TRUE;

  id = g_strdup (self->info->id);
  if (!winnow_store_delete_raw_output (self->store, id, error))
    return FALSE;

  winnow_raw_output_list_remove (self->list, position);
  return TRUE;
}

static void
delete_response_cb (AdwMessageDialog    *dialog,
                    const char          *response,
                    WinnowRawOutputPage *self)
{
  g_autoptr(GError) error = NULL;

  if (!g_str_equal (response, "delete"))
    return;

  if (!delete_selected (self, &error))
    winnow_show_toast (GTK_WIDGET (self), error->message);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  AdwMessageDialog *dialog;

  if (self->info == NULL)
    return;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root)
                                                                            : NULL,
                                                       _("Delete This Output?"),
                                                       _("The kept output is deleted from "
                                                         "disk. Its savings stay recorded.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "delete", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
purge_response_cb (AdwMessageDialog    *dialog,
                   const char          *response,
                   WinnowRawOutputPage *self)
{
  GtkSpinButton *days = g_object_get_data (G_OBJECT (dialog), "days");
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  gint64 n;

  if (!g_str_equal (response, "purge"))
    return;

  n = winnow_raw_output_page_purge (self, (guint) gtk_spin_button_get_value_as_int (days),
                                    &error);
  if (n < 0)
    {
      winnow_show_toast (GTK_WIDGET (self), error->message);
      return;
    }

  /* Translators: how many kept outputs a purge deleted */
  message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Deleted %u output",
                                          "Deleted %u outputs", (gulong) n), (guint) n);
  winnow_show_toast (GTK_WIDGET (self), message);
}

static void
purge_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  AdwMessageDialog *dialog;
  GtkWidget *days;

  if (self->store == NULL)
    return;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root)
                                                                            : NULL,
                                                       _("Purge Old Output?"),
                                                       _("Kept outputs older than this many "
                                                         "days are deleted from disk.")));
  days = gtk_spin_button_new_with_range (0, 3650, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (days), 30);
  gtk_widget_set_halign (days, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (days, _("Days"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (days), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Days"), -1);
  adw_message_dialog_set_extra_child (dialog, days);
  g_object_set_data (G_OBJECT (dialog), "days", days);

  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "purge", _("_Purge"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "purge", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (purge_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* --- opening the store ----------------------------------------------------------------- */

static void
open_store_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  GError *error = NULL;
  WinnowStore *store = winnow_store_open_for_context (task_data, &error);

  if (store == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, store, g_object_unref);
}

static void
on_store_opened (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (source);
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->open_cancellable);
  if (store == NULL)
    {
      self->state = "error";
      adw_status_page_set_title (self->empty_status, _("Cannot Read the Raw Outputs"));
      adw_status_page_set_description (self->empty_status, error->message);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      update_busy (self);
      return;
    }

  self->store = g_steal_pointer (&store);
  self->list = winnow_raw_output_list_new (self->store);
  g_signal_connect_object (self->list, "items-changed", G_CALLBACK (on_list_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list, "notify::loading", G_CALLBACK (on_list_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list, "notify::error", G_CALLBACK (on_list_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list, "notify::sort-limited", G_CALLBACK (on_list_changed),
                           self, G_CONNECT_SWAPPED);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->list));
  on_sorter_changed (self);
  update_actions (self);
  apply_filter (self);
}

static void
open_store (WinnowRawOutputPage *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->open_cancellable);
  g_clear_object (&self->open_cancellable);
  gtk_single_selection_set_model (self->selection, NULL);
  g_clear_object (&self->list);
  g_clear_object (&self->store);
  g_clear_object (&self->pipeline);
  clear_detail (self);

  if (self->context == NULL)
    return;

  self->pipeline = winnow_pipeline_new (self->context);
  self->open_cancellable = g_cancellable_new ();
  self->state = "loading";
  task = g_task_new (self, self->open_cancellable, on_store_opened, NULL);
  g_task_set_source_tag (task, open_store);
  g_task_set_task_data (task, g_object_ref (self->context), g_object_unref);
  g_task_run_in_thread (task, open_store_thread);
  update_busy (self);
}

/* --- GObject --------------------------------------------------------------------------- */

static void
update_style_scheme (WinnowRawOutputPage *self)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme =
    gtk_source_style_scheme_manager_get_scheme (manager, dark ? "Adwaita-dark" : "Adwaita");
  GtkSourceView *views[] = { self->raw_view, self->compressed_view };

  if (scheme == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (views[i]))),
                                        scheme);
}

/* New outputs are kept while the page is hidden: read again whenever it is shown. */
static void
on_map (WinnowRawOutputPage *self)
{
  if (self->list != NULL)
    winnow_raw_output_page_refresh (self);
}

static void
winnow_raw_output_page_dispose (GObject *object)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (object);

  g_cancellable_cancel (self->open_cancellable);
  g_clear_object (&self->open_cancellable);
  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  if (self->waiting_item != NULL)
    g_signal_handlers_disconnect_by_data (self->waiting_item, self);
  g_clear_object (&self->waiting_item);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_RAW_OUTPUT_PAGE);
  /* GTK 4.8 leaves the template's top-level children to us */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  for (guint k = 0; k < N_SORTS; k++)
    for (guint i = 0; i < 4; i++)
      g_clear_object (&self->probes[k][i]);
  g_clear_object (&self->selection);
  g_clear_object (&self->list);
  g_clear_object (&self->store);
  g_clear_object (&self->pipeline);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (winnow_raw_output_page_parent_class)->dispose (object);
}

static void
winnow_raw_output_page_finalize (GObject *object)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (object);

  g_clear_pointer (&self->info, winnow_raw_output_info_free);
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->filter_id, g_free);
  g_clear_pointer (&self->since, g_free);
  g_clear_pointer (&self->redaction_regex, g_regex_unref);

  G_OBJECT_CLASS (winnow_raw_output_page_parent_class)->finalize (object);
}

static void
winnow_raw_output_page_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (object);

  switch (prop_id)
    {
    case PROP_SINCE:
      g_value_set_string (value, self->since);
      break;

    case PROP_FAILURES_ONLY:
      g_value_set_boolean (value, self->failures_only);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, compute_busy (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_raw_output_page_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  WinnowRawOutputPage *self = WINNOW_RAW_OUTPUT_PAGE (object);

  switch (prop_id)
    {
    case PROP_SINCE:
      {
        const char *since = g_value_get_string (value);

        if (since == NULL || !winnow_store_parse_since (since, &(GTimeSpan) { 0 }, NULL) ||
            g_strcmp0 (self->since, since) == 0)
          return;
        g_free (self->since);
        self->since = g_strdup (since);
        g_object_notify_by_pspec (object, pspec);
        apply_filter (self);
      }
      break;

    case PROP_FAILURES_ONLY:
      if (self->failures_only == g_value_get_boolean (value))
        return;
      self->failures_only = g_value_get_boolean (value);
      g_object_notify_by_pspec (object, pspec);
      apply_filter (self);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_raw_output_page_class_init (WinnowRawOutputPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_raw_output_page_dispose;
  object_class->finalize = winnow_raw_output_page_finalize;
  object_class->get_property = winnow_raw_output_page_get_property;
  object_class->set_property = winnow_raw_output_page_set_property;

  /**
   * WinnowRawOutputPage:since:
   *
   * The period shown: "24h", "7d", "30d" or "all".
   */
  properties [PROP_SINCE] =
    g_param_spec_string ("since", NULL, NULL, "all",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRawOutputPage:failures-only:
   *
   * Whether only output that looked like a failure is shown.
   */
  properties [PROP_FAILURES_ONLY] =
    g_param_spec_boolean ("failures-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRawOutputPage:busy:
   *
   * Whether the list or the selected output is being read or compressed.
   */
  properties [PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-raw-output-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, retention_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, max_kib_spin);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, sort_notice);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, empty_status);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, detail_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, result_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, detail_spinner);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, raw_view);
  gtk_widget_class_bind_template_child (widget_class, WinnowRawOutputPage, compressed_view);

  gtk_widget_class_install_property_action (widget_class, "raw-output.since", "since");
  gtk_widget_class_install_property_action (widget_class, "raw-output.failures-only",
                                            "failures-only");
  gtk_widget_class_install_action (widget_class, "raw-output.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "raw-output.open-in-preview", NULL,
                                   open_in_preview_action);
  gtk_widget_class_install_action (widget_class, "raw-output.make-test", NULL, make_test_action);
  gtk_widget_class_install_action (widget_class, "raw-output.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "raw-output.purge", NULL, purge_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "raw-output.delete",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK,
                                       "raw-output.refresh", NULL);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
}

static void
winnow_raw_output_page_init (WinnowRawOutputPage *self)
{
  GtkBoxLayout *layout;
  GtkColumnViewColumn *time_column;
  GtkTextBuffer *buffers[2];

  gtk_widget_init_template (GTK_WIDGET (self));
  winnow_a11y_name_drop_down (self->retention_dropdown);

  layout = GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self)));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->since = g_strdup ("all");
  self->state = "loading";
  self->redaction_regex = g_regex_new (REDACTION_PATTERN, G_REGEX_OPTIMIZE, 0, NULL);

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->column_view, "activate", G_CALLBACK (on_row_activated), self, 0);
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (show_selected),
                           self, G_CONNECT_SWAPPED);

  /* Translators: column headings of the list of kept raw outputs */
  time_column = add_column (self, _("Time"), COLUMN_TIME, WINNOW_RAW_OUTPUT_SORT_TIME, FALSE);
  add_column (self, _("Command"), COLUMN_COMMAND, WINNOW_RAW_OUTPUT_SORT_COMMAND, TRUE);
  add_column (self, _("Filter"), COLUMN_FILTER, WINNOW_RAW_OUTPUT_SORT_FILTER, FALSE);
  add_column (self, _("Size"), COLUMN_SIZE, WINNOW_RAW_OUTPUT_SORT_SIZE, FALSE);
  add_column (self, _("Tokens Saved"), COLUMN_SAVED, WINNOW_RAW_OUTPUT_SORT_SAVED, FALSE);
  add_column (self, _("Failure"), COLUMN_FAILURE, WINNOW_RAW_OUTPUT_SORT_FAILURE, FALSE);
  add_column (self, _("Redactions"), COLUMN_REDACTIONS, WINNOW_RAW_OUTPUT_SORT_REDACTIONS, FALSE);
  gtk_column_view_sort_by_column (self->column_view, time_column, GTK_SORT_DESCENDING);
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (on_sorter_changed), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (on_search_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->retention_dropdown, "notify::selected",
                           G_CALLBACK (on_retention_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->max_kib_spin, "value-changed",
                           G_CALLBACK (on_retention_changed), self, G_CONNECT_SWAPPED);

  /* the libadwaita palette's purple, translucent: readable on light and dark alike */
  buffers[0] = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->raw_view));
  buffers[1] = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->compressed_view));
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    gtk_text_buffer_create_tag (buffers[i], "redaction",
                                "background", "rgba(145, 65, 172, 0.30)",
                                "weight", PANGO_WEIGHT_BOLD, NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_style_scheme), self, G_CONNECT_SWAPPED);
  update_style_scheme (self);

  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);

  update_state (self);
  update_actions (self);
}

/**
 * winnow_raw_output_page_set_context:
 * @self: a #WinnowRawOutputPage
 * @context: (nullable): the engine context whose store and settings to use
 */
void
winnow_raw_output_page_set_context (WinnowRawOutputPage *self,
                                    WinnowContext       *context)
{
  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self));
  g_return_if_fail (context == NULL || WINNOW_IS_CONTEXT (context));

  if (self->context != NULL)
    g_signal_handlers_disconnect_by_func (self->context, show_retention, self);
  if (!g_set_object (&self->context, context))
    return;

  /* the preferences change the same settings */
  if (context != NULL)
    g_signal_connect_object (context, "notify::config", G_CALLBACK (show_retention), self,
                             G_CONNECT_SWAPPED);
  show_retention (self);
  open_store (self);
}

/**
 * winnow_raw_output_page_get_list:
 * @self: a #WinnowRawOutputPage
 *
 * Returns: (transfer none) (nullable): the rows shown, %NULL until the store is open
 */
WinnowRawOutputList *
winnow_raw_output_page_get_list (WinnowRawOutputPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self), NULL);
  return self->list;
}

/**
 * winnow_raw_output_page_get_selection:
 * @self: a #WinnowRawOutputPage
 *
 * Returns: (transfer none): the column view's selection
 */
GtkSingleSelection *
winnow_raw_output_page_get_selection (WinnowRawOutputPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self), NULL);
  return self->selection;
}

gboolean
winnow_raw_output_page_get_busy (WinnowRawOutputPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self), FALSE);
  return compute_busy (self);
}

/**
 * winnow_raw_output_page_get_state:
 * @self: a #WinnowRawOutputPage
 *
 * Returns: "loading", "list", "empty" (nothing kept), "no-match" or "error"
 */
const char *
winnow_raw_output_page_get_state (WinnowRawOutputPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self), NULL);
  return self->state;
}

/**
 * winnow_raw_output_page_set_search:
 * @self: a #WinnowRawOutputPage
 * @command: the text commands shown must contain
 *
 * Types into the search entry, as the person would, and filters at once.
 */
void
winnow_raw_output_page_set_search (WinnowRawOutputPage *self,
                                   const char          *command)
{
  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self));

  g_signal_handlers_block_by_func (self->search_entry, on_search_changed, self);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), command ? command : "");
  g_signal_handlers_unblock_by_func (self->search_entry, on_search_changed, self);
  apply_filter (self);
}

/**
 * winnow_raw_output_page_refresh:
 * @self: a #WinnowRawOutputPage
 *
 * Reads the list again, for outputs kept or removed since.
 */
void
winnow_raw_output_page_refresh (WinnowRawOutputPage *self)
{
  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self));

  show_retention (self);
  apply_filter (self);
}

/**
 * winnow_raw_output_page_get_filter_id:
 * @self: a #WinnowRawOutputPage
 *
 * Returns: (nullable): the filter that compressed the selected output, once it has run
 */
const char *
winnow_raw_output_page_get_filter_id (WinnowRawOutputPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self), NULL);
  return self->filter_id;
}

/**
 * winnow_raw_output_page_delete_selected:
 * @self: a #WinnowRawOutputPage
 * @error: return location for a #GError
 *
 * Deletes the selected output without asking (the Delete action asks first).
 *
 * Returns: %TRUE when it is gone, or nothing was selected
 */
gboolean
winnow_raw_output_page_delete_selected (WinnowRawOutputPage  *self,
                                        GError              **error)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self), FALSE);
  return delete_selected (self, error);
}

/**
 * winnow_raw_output_page_purge:
 * @self: a #WinnowRawOutputPage
 * @days: keep what was kept within this many days
 * @error: return location for a #GError
 *
 * Deletes older outputs without asking (the Purge action asks first) and reads the list again.
 *
 * Returns: how many outputs were deleted, or -1 with @error set
 */
gint64
winnow_raw_output_page_purge (WinnowRawOutputPage  *self,
                              guint                 days,
                              GError              **error)
{
  gint64 n;

  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_PAGE (self), -1);

  if (self->store == NULL)
    return 0;

  n = winnow_store_purge_raw_outputs (self->store,
                                      g_get_real_time () - (gint64) days * G_TIME_SPAN_DAY,
                                      error);
  if (n >= 0)
    apply_filter (self);
  return n;
}
