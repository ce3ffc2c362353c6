/* winnow-preview-page.c — the side-by-side compression preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The original on the left (editable: paste, type, open or drop a file, or load a sample),
 * what Winnow makes of it on the right, the token receipt and detection above, and the RTK
 * stage trace as a strip of stages. Every change of the text, the command, the mode or an
 * intensity schedules a recompute after a short pause; the previous run is cancelled at
 * once, so a result never lands on text it was not computed from. The pipeline and the line
 * alignment run in a worker thread (winnow-preview-run.c); the main thread only fills the
 * buffers and tags lines.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "winnow-a11y.h"
#include "winnow-preview-page.h"
#include "winnow-toast.h"
#include "winnow-preview-run.h"
#include "winnow-samples.h"
#include "winnow-trace-strip.h"

#define RECOMPUTE_DELAY_MS 250

struct _WinnowPreviewPage
{
  GtkWidget             parent_instance;

  WinnowContext        *context;
  WinnowPipeline       *pipeline;
  GSettings            *settings;
  GCancellable         *cancellable;
  guint                 recompute_source;
  gboolean              busy;
  gboolean              syncing_scroll;

  WinnowPipelineResult *result;
  WinnowLineMap        *line_map;

  /* template children */
  GtkMenuButton        *samples_button;
  GtkEntry             *command_entry;
  GtkDropDown          *mode_dropdown;
  GtkDropDown          *rtk_dropdown;
  GtkDropDown          *caveman_dropdown;
  GtkSpinner           *spinner;
  GtkWidget            *stats_bar;
  GtkLabel             *tokens_label;
  GtkLabel             *saved_label;
  GtkLabel             *detected_label;
  GtkButton            *filter_button;
  GtkLabel             *duration_label;
  GtkLabel             *counter_label;
  WinnowTraceStrip     *trace_strip;
  GtkPaned             *panes;
  GtkScrolledWindow    *original_scroller;
  GtkSourceView        *original_view;
  GtkStack             *compressed_stack;
  GtkScrolledWindow    *compressed_scroller;
  GtkSourceView        *compressed_view;
};

G_DEFINE_FINAL_TYPE (WinnowPreviewPage, winnow_preview_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CONTEXT,
  PROP_BUSY,
  PROP_RESULT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static const char * const mode_names[] = { "off", "rtk", "caveman", "stacked", NULL };
static const char * const rtk_names[] = { "minimal", "standard", "aggressive", NULL };
static const char * const caveman_names[] = { "lite", "full", "ultra", NULL };

static void schedule_recompute (WinnowPreviewPage *self);

static char *
buffer_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
set_busy (WinnowPreviewPage *self,
          gboolean           busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  gtk_spinner_set_spinning (self->spinner, busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BUSY]);
}

static void
update_actions (WinnowPreviewPage *self)
{
  gboolean has_output = self->result != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preview.copy-output", has_output);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preview.save", has_output);
}

/* The intensity menus only matter to the engines the mode runs. */
static void
update_intensity_sensitivity (WinnowPreviewPage *self)
{
  guint mode = gtk_drop_down_get_selected (self->mode_dropdown);

  gtk_widget_set_sensitive (GTK_WIDGET (self->rtk_dropdown),
                            mode == WINNOW_PIPELINE_MODE_RTK ||
                            mode == WINNOW_PIPELINE_MODE_STACKED);
  gtk_widget_set_sensitive (GTK_WIDGET (self->caveman_dropdown),
                            mode == WINNOW_PIPELINE_MODE_CAVEMAN ||
                            mode == WINNOW_PIPELINE_MODE_STACKED);
}

/* Tagging, one call per run of lines rather than per line: a 100 000-line log stays quick. */
static void
tag_line_ranges (GtkTextBuffer         *buffer,
                 const char            *tag,
                 const WinnowLineRange *ranges,
                 guint                  n_ranges)
{
  for (guint i = 0; i < n_ranges; i++)
    {
      GtkTextIter start, end;

      gtk_text_buffer_get_iter_at_line (buffer, &start, ranges[i].start);
      gtk_text_buffer_get_iter_at_line (buffer, &end, ranges[i].start + ranges[i].n_lines);
      if (ranges[i].start + ranges[i].n_lines >= (guint) gtk_text_buffer_get_line_count (buffer))
        gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_apply_tag_by_name (buffer, tag, &start, &end);
    }
}

static void
clear_tag (GtkTextBuffer *buffer,
           const char    *tag)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, tag, &start, &end);
}

static void
scroll_to_line (GtkTextView *view,
                guint        line)
{
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &iter, line);
  gtk_text_view_scroll_to_iter (view, &iter, 0.0, TRUE, 0.0, 0.1);
}

/* --- stage trace strip -------------------------------------------------------------- */

static void
on_stage_selected (WinnowTraceStrip  *strip,
                   GParamSpec        *pspec,
                   WinnowPreviewPage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->original_view));
  WinnowTraceStage *stage = winnow_trace_strip_get_selected_stage (strip);
  g_autoptr(GArray) ranges = NULL;
  const guint *removed;
  guint n_removed;

  clear_tag (buffer, "stage-removed");
  if (stage == NULL)
    return;

  removed = winnow_trace_stage_get_removed_lines (stage, &n_removed);
  ranges = g_array_new (FALSE, FALSE, sizeof (WinnowLineRange));
  for (guint i = 0; i < n_removed; i++)
    {
      WinnowLineRange *last = ranges->len ? &g_array_index (ranges, WinnowLineRange,
                                                            ranges->len - 1) : NULL;

      if (last != NULL && last->start + last->n_lines == removed[i])
        last->n_lines++;
      else
        g_array_append_val (ranges, ((WinnowLineRange) { removed[i], 1 }));
    }

  tag_line_ranges (buffer, "stage-removed", (const WinnowLineRange *) (gpointer) ranges->data,
                   ranges->len);
  if (n_removed > 0)
    scroll_to_line (GTK_TEXT_VIEW (self->original_view), removed[0]);
}

/* --- results ------------------------------------------------------------------------ */

static void
clear_result (WinnowPreviewPage *self)
{
  g_clear_object (&self->result);
  g_clear_object (&self->line_map);
  winnow_trace_strip_set_stages (self->trace_strip, NULL);
  gtk_stack_set_visible_child_name (self->compressed_stack, "empty");
  gtk_widget_set_visible (self->stats_bar, FALSE);
  gtk_label_set_text (self->tokens_label, "—");
  gtk_label_set_text (self->saved_label, "");
  gtk_label_set_text (self->detected_label, "");
  gtk_label_set_text (self->duration_label, "");
  gtk_label_set_text (self->counter_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->filter_button), FALSE);
  clear_tag (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->original_view)), "removed");
  clear_tag (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->original_view)), "stage-removed");
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RESULT]);
}

/* What the stats bar says the input was: the detector's verdict for command output, the
 * language and intensity Caveman used for prose. */
static void
show_detection (WinnowPreviewPage *self)
{
  WinnowCompression *compression = winnow_pipeline_result_get_rtk_compression (self->result);
  WinnowFilter *filter = compression ? winnow_compression_get_filter (compression) : NULL;
  g_autoptr(GString) what = g_string_new (NULL);

  if (compression != NULL)
    {
      WinnowDetection *detection = winnow_compression_get_detection (compression);

      /* Translators: detected output type and the detector's confidence, "git-status · 95 %" */
      g_string_printf (what, _("%s · %.0f %%"), winnow_detection_get_output_type (detection),
                       100.0 * winnow_detection_get_confidence (detection));
    }

  for (guint i = 0; i < winnow_pipeline_result_get_n_decisions (self->result); i++)
    {
      const WinnowDecision *decision = winnow_pipeline_result_get_decision (self->result, i);

      if (g_str_has_prefix (decision->action, "caveman:") ||
          g_str_has_prefix (decision->action, "adapter:"))
        g_string_append_printf (what, "%s%s", what->len ? " · " : "", decision->action);
    }

  gtk_label_set_text (self->detected_label, what->str);

  gtk_widget_set_visible (GTK_WIDGET (self->filter_button), filter != NULL);
  if (filter != NULL)
    {
      g_autofree char *label = NULL;

      /* Translators: a button that shows the RTK filter that was used, "Filter: git-status" */
      label = g_strdup_printf (_("Filter: %s"), winnow_filter_get_id (filter));
      gtk_button_set_label (self->filter_button, label);
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->filter_button), "s",
                                        winnow_filter_get_id (filter));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->filter_button), "win.show-filter");
    }
}

/* Command output is read line by line, unwrapped; prose is paragraphs, which Caveman gives back
 * as one line each: both views wrap while the result is prose. */
static void
wrap_prose (WinnowPreviewPage *self)
{
  GtkWrapMode mode = GTK_WRAP_NONE;

  for (guint i = 0; i < winnow_pipeline_result_get_n_decisions (self->result); i++)
    {
      const WinnowDecision *decision = winnow_pipeline_result_get_decision (self->result, i);

      if (g_str_has_prefix (decision->action, "caveman:") &&
          !g_str_equal (decision->action, "caveman:skipped"))
        mode = GTK_WRAP_WORD_CHAR;
    }

  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->original_view), mode);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->compressed_view), mode);
}

static void
show_result (WinnowPreviewPage *self)
{
  GtkTextBuffer *original = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->original_view));
  GtkTextBuffer *compressed = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->compressed_view));
  WinnowReceipt *receipt = winnow_pipeline_result_get_receipt (self->result);
  WinnowCompression *compression = winnow_pipeline_result_get_rtk_compression (self->result);
  GListModel *stages = NULL;
  const WinnowLineRange *ranges;
  guint n_ranges;
  g_autofree char *tokens = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *duration = NULL;

  gtk_text_buffer_set_text (compressed, winnow_pipeline_result_get_text (self->result, NULL), -1);
  gtk_stack_set_visible_child_name (self->compressed_stack, "result");
  wrap_prose (self);
  gtk_widget_set_visible (self->stats_bar, TRUE);

  clear_tag (original, "removed");
  clear_tag (original, "stage-removed");
  ranges = winnow_line_map_get_removed (self->line_map, &n_ranges);
  tag_line_ranges (original, "removed", ranges, n_ranges);
  ranges = winnow_line_map_get_inserted (self->line_map, &n_ranges);
  tag_line_ranges (compressed, "inserted", ranges, n_ranges);

  /* Translators: token counts before and after compression */
  tokens = g_strdup_printf (_("%zu → %zu tokens"), winnow_receipt_get_tokens_before (receipt),
                            winnow_receipt_get_tokens_after (receipt));
  /* Translators: share of tokens saved, "68.2 % saved" */
  saved = g_strdup_printf (_("%.1f %% saved"), 100.0 * winnow_receipt_get_saved_ratio (receipt));
  duration = g_strdup_printf (_("%.1f ms"), winnow_pipeline_result_get_duration_us (self->result)
                              / 1000.0);
  gtk_label_set_text (self->tokens_label, tokens);
  gtk_label_set_text (self->saved_label, saved);
  gtk_label_set_text (self->duration_label, duration);
  gtk_label_set_text (self->counter_label, winnow_receipt_get_counter (receipt));
  if (winnow_receipt_get_saved_tokens (receipt) > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->saved_label), "success");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->saved_label), "success");
  show_detection (self);

  if (compression != NULL)
    stages = winnow_rtk_result_get_stages (winnow_compression_get_rtk_result (compression));
  winnow_trace_strip_set_stages (self->trace_strip, stages);

  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RESULT]);
}

static void
preview_run_cb (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(WinnowPreviewPage) self = user_data;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(WinnowLineMap) line_map = NULL;
  g_autoptr(GError) error = NULL;

  result = winnow_preview_run_finish (res, &line_map, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* this run is the current one: no newer run cancelled it */
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);

  if (result == NULL)
    {
      clear_result (self);
      winnow_show_toast (GTK_WIDGET (self), error->message);
      return;
    }

  g_set_object (&self->result, result);
  g_set_object (&self->line_map, line_map);
  show_result (self);
}

static void
recompute (WinnowPreviewPage *self)
{
  g_autofree char *text = buffer_text (GTK_TEXT_VIEW (self->original_view));
  g_autofree char *mode = g_settings_get_string (self->settings, "preview-mode");
  g_autofree char *rtk = g_settings_get_string (self->settings, "preview-rtk-intensity");
  g_autofree char *caveman = g_settings_get_string (self->settings, "preview-caveman-intensity");
  WinnowPipelineMode pipeline_mode = WINNOW_PIPELINE_MODE_STACKED;
  WinnowRtkIntensity rtk_intensity = WINNOW_RTK_INTENSITY_STANDARD;
  WinnowCavemanIntensity caveman_intensity = WINNOW_CAVEMAN_INTENSITY_FULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (text[0] == '\0' || self->pipeline == NULL)
    {
      set_busy (self, FALSE);
      clear_result (self);
      return;
    }

  winnow_pipeline_mode_from_string (mode, &pipeline_mode);
  winnow_rtk_intensity_from_string (rtk, &rtk_intensity);
  winnow_caveman_intensity_from_string (caveman, &caveman_intensity);

  self->cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  winnow_preview_run_async (self->pipeline, text, gtk_editable_get_text (GTK_EDITABLE (self->command_entry)),
                            pipeline_mode, rtk_intensity, caveman_intensity, self->cancellable,
                            preview_run_cb, g_object_ref (self));
}

static gboolean
recompute_timeout (gpointer user_data)
{
  WinnowPreviewPage *self = user_data;

  self->recompute_source = 0;
  recompute (self);
  return G_SOURCE_REMOVE;
}

/* Any edit makes the result on screen stale: stop the run that would produce it now, and
 * start a new one when the edits pause. */
static void
schedule_recompute (WinnowPreviewPage *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, TRUE);

  g_clear_handle_id (&self->recompute_source, g_source_remove);
  self->recompute_source = g_timeout_add (RECOMPUTE_DELAY_MS, recompute_timeout, self);
}

static void
on_input_changed (WinnowPreviewPage *self)
{
  schedule_recompute (self);
}

static void
on_setting_changed (GSettings         *settings,
                    const char        *key,
                    WinnowPreviewPage *self)
{
  if (g_str_equal (key, "preview-mode"))
    update_intensity_sensitivity (self);
  schedule_recompute (self);
}

/* The source views follow the light or dark style with GtkSourceView's own Adwaita schemes. */
static void
update_style_scheme (WinnowPreviewPage *self)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme =
    gtk_source_style_scheme_manager_get_scheme (manager, dark ? "Adwaita-dark" : "Adwaita");
  GtkSourceView *views[] = { self->original_view, self->compressed_view };

  if (scheme == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (views[i]))),
                                        scheme);
}

/* --- synchronized scrolling --------------------------------------------------------- */

static guint
top_line (GtkTextView *view,
          double       y,
          double      *fraction)
{
  GtkTextIter iter;
  int line_top, line_height;

  gtk_text_view_get_line_at_y (view, &iter, (int) y, &line_top);
  gtk_text_view_get_line_yrange (view, &iter, &line_top, &line_height);
  *fraction = line_height > 0 ? (y - line_top) / line_height : 0.0;
  return gtk_text_iter_get_line (&iter);
}

static void
scroll_line_to_top (GtkTextView   *view,
                    GtkAdjustment *adjustment,
                    guint          line,
                    double         fraction)
{
  GtkTextIter iter;
  int y, height;

  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &iter, line);
  gtk_text_view_get_line_yrange (view, &iter, &y, &height);
  gtk_adjustment_set_value (adjustment, y + fraction * height);
}

static void
sync_scroll (WinnowPreviewPage *self,
             gboolean           from_original)
{
  GtkAdjustment *original = gtk_scrolled_window_get_vadjustment (self->original_scroller);
  GtkAdjustment *compressed = gtk_scrolled_window_get_vadjustment (self->compressed_scroller);
  double fraction;
  guint line;

  if (self->syncing_scroll || self->line_map == NULL ||
      !g_settings_get_boolean (self->settings, "preview-sync-scroll"))
    return;

  self->syncing_scroll = TRUE;
  if (from_original)
    {
      line = top_line (GTK_TEXT_VIEW (self->original_view), gtk_adjustment_get_value (original),
                       &fraction);
      scroll_line_to_top (GTK_TEXT_VIEW (self->compressed_view), compressed,
                          winnow_line_map_get_output_line_for (self->line_map, line), fraction);
    }
  else
    {
      int origin = -1;

      line = top_line (GTK_TEXT_VIEW (self->compressed_view),
                       gtk_adjustment_get_value (compressed), &fraction);
      /* a written line (a marker) stands where the lines before it ended */
      for (guint k = line + 1; k > 0 && origin < 0; k--)
        origin = winnow_line_map_get_origin (self->line_map, k - 1);
      scroll_line_to_top (GTK_TEXT_VIEW (self->original_view), original, MAX (origin, 0),
                          fraction);
    }
  self->syncing_scroll = FALSE;
}

static void
on_original_scrolled (GtkAdjustment     *adjustment,
                      WinnowPreviewPage *self)
{
  sync_scroll (self, TRUE);
}

static void
on_compressed_scrolled (GtkAdjustment     *adjustment,
                        WinnowPreviewPage *self)
{
  sync_scroll (self, FALSE);
}

/* The two panes start equal; after that the divider stays where the person puts it. */
static void
on_panes_max_position (GtkPaned          *panes,
                       GParamSpec        *pspec,
                       WinnowPreviewPage *self)
{
  int max = 0;

  g_object_get (panes, "max-position", &max, NULL);
  if (max <= 0 || max == G_MAXINT)
    return;

  gtk_paned_set_position (panes, max / 2);
  g_signal_handlers_disconnect_by_func (panes, on_panes_max_position, self);
}

/* --- input: files, samples, drops ----------------------------------------------------- */

static void
set_input (WinnowPreviewPage *self,
           const char        *text,
           gsize              length,
           const char        *name)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->original_view));
  g_autofree char *valid = NULL;
  GtkTextIter start;

  if (!g_utf8_validate (text, length, NULL))
    {
      g_autofree char *message = NULL;

      valid = g_utf8_make_valid (text, length);
      /* Translators: %s is a file name */
      message = g_strdup_printf (_("“%s” is not valid UTF-8; invalid bytes are shown as �"), name);
      winnow_show_toast (GTK_WIDGET (self), message);
      text = valid;
      length = strlen (valid);
    }

  gtk_text_buffer_set_text (buffer, text, length);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
}

static void
load_contents_cb (GObject      *source,
                  GAsyncResult *res,
                  gpointer      user_data)
{
  g_autoptr(WinnowPreviewPage) self = user_data;
  GFile *file = G_FILE (source);
  g_autofree char *contents = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  g_autoptr(GError) error = NULL;
  gsize length;

  if (!g_file_load_contents_finish (file, res, &contents, &length, NULL, &error))
    {
      /* Translators: the first %s is a file name, the second why it could not be read */
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), name,
                                                  error->message);
      winnow_show_toast (GTK_WIDGET (self), message);
      return;
    }

  set_input (self, contents, length, name);
}

/**
 * winnow_preview_page_load_file:
 * @self: a #WinnowPreviewPage
 * @file: a text file
 *
 * Reads @file without blocking and shows it as the original.
 */
void
winnow_preview_page_load_file (WinnowPreviewPage *self,
                               GFile             *file)
{
  g_return_if_fail (WINNOW_IS_PREVIEW_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  g_file_load_contents_async (file, NULL, load_contents_cb, g_object_ref (self));
}

/**
 * winnow_preview_page_load_sample:
 * @self: a #WinnowPreviewPage
 * @sample_id: one of the bundled samples ("git-status", "pytest", "prose"…)
 *
 * Shows a bundled sample and the command that produced it.
 *
 * Returns: %FALSE if there is no such sample
 */
gboolean
winnow_preview_page_load_sample (WinnowPreviewPage *self,
                                 const char        *sample_id)
{
  const char *command = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = NULL;
  gsize length;
  const char *data;

  g_return_val_if_fail (WINNOW_IS_PREVIEW_PAGE (self), FALSE);
  g_return_val_if_fail (sample_id != NULL, FALSE);

  bytes = winnow_samples_lookup (sample_id, &command);
  if (bytes == NULL)
    return FALSE;

  data = g_bytes_get_data (bytes, &length);
  /* Translators: %s is a sample's id, used in messages about its text */
  name = g_strdup_printf (_("sample “%s”"), sample_id);
  gtk_editable_set_text (GTK_EDITABLE (self->command_entry), command ? command : "");
  set_input (self, data, length, name);
  return TRUE;
}

/**
 * winnow_preview_page_set_input:
 * @self: a #WinnowPreviewPage
 * @text: the output to compress
 * @command: (nullable): the command that produced it
 *
 * Shows @text as the original with its command, as other pages hand output over (the Raw
 * Output page's "Open in Preview").
 */
void
winnow_preview_page_set_input (WinnowPreviewPage *self,
                               const char        *text,
                               const char        *command)
{
  g_return_if_fail (WINNOW_IS_PREVIEW_PAGE (self));
  g_return_if_fail (text != NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->command_entry), command ? command : "");
  set_input (self, text, strlen (text), _("the raw output"));
}

static void
load_sample_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  winnow_preview_page_load_sample (WINNOW_PREVIEW_PAGE (widget),
                                   g_variant_get_string (parameter, NULL));
}

static void
open_response_cb (GtkNativeDialog   *dialog,
                  int                response,
                  WinnowPreviewPage *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      winnow_preview_page_load_file (self, file);
    }

  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Open Output"), GTK_WINDOW (native),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (open_response_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_contents_cb (GObject      *source,
                  GAsyncResult *res,
                  gpointer      user_data)
{
  g_autoptr(WinnowPreviewPage) self = user_data;
  g_autofree char *name = g_file_get_parse_name (G_FILE (source));
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  if (!g_file_replace_contents_finish (G_FILE (source), res, NULL, &error))
    /* Translators: the first %s is a file name, the second why it could not be written */
    message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
  else
    /* Translators: %s is a file name */
    message = g_strdup_printf (_("Saved “%s”"), name);

  winnow_show_toast (GTK_WIDGET (self), message);
}

static void
save_response_cb (GtkNativeDialog   *dialog,
                  int                response,
                  WinnowPreviewPage *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->result != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      gsize length;
      const char *text = winnow_pipeline_result_get_text (self->result, &length);
      g_autoptr(GBytes) bytes = g_bytes_new (text, length);

      /* written to a temporary file and renamed over the old one: a failed save keeps it */
      g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE,
                                           G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                           save_contents_cb, g_object_ref (self));
    }

  g_object_unref (dialog);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Save Compressed Output"), GTK_WINDOW (native),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), _("compressed.txt"));
  g_signal_connect (dialog, "response", G_CALLBACK (save_response_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
copy_output_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  WinnowPreviewPage *self = WINNOW_PREVIEW_PAGE (widget);

  if (self->result == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          winnow_pipeline_result_get_text (self->result, NULL));
  winnow_show_toast (GTK_WIDGET (self), _("Compressed output copied"));
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  WinnowPreviewPage *self = WINNOW_PREVIEW_PAGE (widget);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->original_view)), "", 0);
  gtk_editable_set_text (GTK_EDITABLE (self->command_entry), "");
}

static gboolean
on_drop (GtkDropTarget     *target,
         const GValue      *value,
         double             x,
         double             y,
         WinnowPreviewPage *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = g_value_get_boxed (value);
  if (files == NULL)
    return FALSE;

  winnow_preview_page_load_file (self, files->data);
  return TRUE;
}

/* --- GSettings mapping between menu positions and key strings --------------------------- */

static gboolean
get_choice (GValue   *value,
            GVariant *variant,
            gpointer  user_data)
{
  const char * const *names = user_data;
  const char *name = g_variant_get_string (variant, NULL);

  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_equal (names[i], name))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  return FALSE;
}

static GVariant *
set_choice (const GValue       *value,
            const GVariantType *expected_type,
            gpointer            user_data)
{
  const char * const *names = user_data;
  guint index = g_value_get_uint (value);

  if (index >= g_strv_length ((char **) names))
    return NULL;

  return g_variant_new_string (names[index]);
}

static void
bind_choice (WinnowPreviewPage  *self,
             const char         *key,
             GtkDropDown        *dropdown,
             const char * const *names)
{
  g_settings_bind_with_mapping (self->settings, key, dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_choice, set_choice,
                                (gpointer) names, NULL);
}

/* --- GObject ----------------------------------------------------------------------- */

static void
winnow_preview_page_dispose (GObject *object)
{
  WinnowPreviewPage *self = WINNOW_PREVIEW_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->recompute_source, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_PREVIEW_PAGE);
  /* GTK 4.8 leaves the template's top-level children to us */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  g_clear_object (&self->result);
  g_clear_object (&self->line_map);
  g_clear_object (&self->pipeline);
  g_clear_object (&self->context);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (winnow_preview_page_parent_class)->dispose (object);
}

static void
winnow_preview_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  WinnowPreviewPage *self = WINNOW_PREVIEW_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_RESULT:
      g_value_set_object (value, self->result);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_preview_page_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  WinnowPreviewPage *self = WINNOW_PREVIEW_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      winnow_preview_page_set_context (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_preview_page_class_init (WinnowPreviewPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_preview_page_dispose;
  object_class->get_property = winnow_preview_page_get_property;
  object_class->set_property = winnow_preview_page_set_property;

  properties [PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL,
                         WINNOW_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowPreviewPage:busy:
   *
   * Whether a recompute is waiting or running.
   */
  properties [PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowPreviewPage:result:
   *
   * The pipeline result on screen, or %NULL when there is none.
   */
  properties [PROP_RESULT] =
    g_param_spec_object ("result", NULL, NULL,
                         WINNOW_TYPE_PIPELINE_RESULT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-preview-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, samples_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, command_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, rtk_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, caveman_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, stats_bar);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, tokens_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, saved_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, detected_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, filter_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, duration_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, counter_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, trace_strip);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, panes);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, original_scroller);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, original_view);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, compressed_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, compressed_scroller);
  gtk_widget_class_bind_template_child (widget_class, WinnowPreviewPage, compressed_view);

  gtk_widget_class_install_action (widget_class, "preview.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "preview.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "preview.copy-output", NULL, copy_output_action);
  gtk_widget_class_install_action (widget_class, "preview.clear", NULL, clear_action);
  gtk_widget_class_install_action (widget_class, "preview.load-sample", "s", load_sample_action);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  g_type_ensure (WINNOW_TYPE_TRACE_STRIP);
}

static void
winnow_preview_page_init (WinnowPreviewPage *self)
{
  GtkBoxLayout *layout;
  GtkDropTarget *drop;
  g_autoptr(GMenuModel) menu = NULL;
  GtkTextBuffer *original, *compressed;

  gtk_widget_init_template (GTK_WIDGET (self));
  winnow_a11y_name_drop_down (self->mode_dropdown);
  winnow_a11y_name_drop_down (self->rtk_dropdown);
  winnow_a11y_name_drop_down (self->caveman_dropdown);

  layout = GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self)));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->settings = g_settings_new (APP_ID);
  bind_choice (self, "preview-mode", self->mode_dropdown, mode_names);
  bind_choice (self, "preview-rtk-intensity", self->rtk_dropdown, rtk_names);
  bind_choice (self, "preview-caveman-intensity", self->caveman_dropdown, caveman_names);
  g_settings_bind (self->settings, "preview-command", self->command_entry, "text",
                   G_SETTINGS_BIND_DEFAULT);
  /* the command entry's key is written by the entry, which already scheduled a run */
  g_signal_connect_object (self->settings, "changed::preview-mode",
                           G_CALLBACK (on_setting_changed), self, 0);
  g_signal_connect_object (self->settings, "changed::preview-rtk-intensity",
                           G_CALLBACK (on_setting_changed), self, 0);
  g_signal_connect_object (self->settings, "changed::preview-caveman-intensity",
                           G_CALLBACK (on_setting_changed), self, 0);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_style_scheme), self, G_CONNECT_SWAPPED);
  update_style_scheme (self);
  update_intensity_sensitivity (self);

  menu = winnow_samples_new_menu ("preview.load-sample");
  gtk_menu_button_set_menu_model (self->samples_button, menu);

  /* translucent colours read on light and dark backgrounds alike; the libadwaita palette's
   * red for what went, yellow for what Winnow wrote */
  original = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->original_view));
  compressed = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->compressed_view));
  gtk_text_buffer_create_tag (original, "removed",
                              "paragraph-background", "rgba(224, 27, 36, 0.16)", NULL);
  gtk_text_buffer_create_tag (original, "stage-removed",
                              "paragraph-background", "rgba(224, 27, 36, 0.42)", NULL);
  gtk_text_buffer_create_tag (compressed, "inserted",
                              "paragraph-background", "rgba(229, 165, 10, 0.24)", NULL);

  g_signal_connect_object (original, "changed", G_CALLBACK (on_input_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->command_entry, "changed", G_CALLBACK (on_input_changed), self,
                           G_CONNECT_SWAPPED);

  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->original_scroller),
                           "value-changed", G_CALLBACK (on_original_scrolled), self, 0);
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->compressed_scroller),
                           "value-changed", G_CALLBACK (on_compressed_scrolled), self, 0);

  g_signal_connect_object (self->panes, "notify::max-position",
                           G_CALLBACK (on_panes_max_position), self, 0);

  g_signal_connect_object (self->trace_strip, "notify::selected-stage",
                           G_CALLBACK (on_stage_selected), self, 0);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  update_actions (self);
}

WinnowContext *
winnow_preview_page_get_context (WinnowPreviewPage *self)
{
  g_return_val_if_fail (WINNOW_IS_PREVIEW_PAGE (self), NULL);
  return self->context;
}

/**
 * winnow_preview_page_set_context:
 * @self: a #WinnowPreviewPage
 * @context: (nullable): the engine context to compress with
 */
void
winnow_preview_page_set_context (WinnowPreviewPage *self,
                                 WinnowContext     *context)
{
  g_return_if_fail (WINNOW_IS_PREVIEW_PAGE (self));
  g_return_if_fail (context == NULL || WINNOW_IS_CONTEXT (context));

  if (self->context != NULL)
    g_signal_handlers_disconnect_by_func (self->context, schedule_recompute, self);
  if (!g_set_object (&self->context, context))
    return;

  g_clear_object (&self->pipeline);
  if (context != NULL)
    {
      self->pipeline = winnow_pipeline_new (context);
      /* settings changed in the preferences (or any engine call) show at once */
      g_signal_connect_object (context, "notify::config", G_CALLBACK (schedule_recompute), self,
                               G_CONNECT_SWAPPED);
    }

  schedule_recompute (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONTEXT]);
}

/**
 * winnow_preview_page_get_result:
 * @self: a #WinnowPreviewPage
 *
 * Returns: (transfer none) (nullable): the result on screen
 */
WinnowPipelineResult *
winnow_preview_page_get_result (WinnowPreviewPage *self)
{
  g_return_val_if_fail (WINNOW_IS_PREVIEW_PAGE (self), NULL);
  return self->result;
}

/**
 * winnow_preview_page_get_line_map:
 * @self: a #WinnowPreviewPage
 *
 * Returns: (transfer none) (nullable): how the lines on screen align
 */
WinnowLineMap *
winnow_preview_page_get_line_map (WinnowPreviewPage *self)
{
  g_return_val_if_fail (WINNOW_IS_PREVIEW_PAGE (self), NULL);
  return self->line_map;
}

gboolean
winnow_preview_page_get_busy (WinnowPreviewPage *self)
{
  g_return_val_if_fail (WINNOW_IS_PREVIEW_PAGE (self), FALSE);
  return self->busy;
}

/**
 * winnow_preview_page_dup_input:
 * @self: a #WinnowPreviewPage
 *
 * Returns: (transfer full): the original text on the left
 */
char *
winnow_preview_page_dup_input (WinnowPreviewPage *self)
{
  g_return_val_if_fail (WINNOW_IS_PREVIEW_PAGE (self), NULL);
  return buffer_text (GTK_TEXT_VIEW (self->original_view));
}

/**
 * winnow_preview_page_get_command:
 * @self: a #WinnowPreviewPage
 *
 * Returns: the command typed for the input, or ""
 */
const char *
winnow_preview_page_get_command (WinnowPreviewPage *self)
{
  g_return_val_if_fail (WINNOW_IS_PREVIEW_PAGE (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->command_entry));
}
