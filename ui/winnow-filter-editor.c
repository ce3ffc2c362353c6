/* winnow-filter-editor.c — edit one RTK filter: form, JSON, live tests, try it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The filter's JSON text is the document. The JSON view shows it as typed; the form edits
 * the parsed object and writes the text back; a text that does not parse keeps the form
 * aside until it does, so switching views never loses anything. Every change, after a short
 * pause, is validated by the engine's own parser (diagnostics name the JSON path), and the
 * filter that results is run on its `tests[]` and on the current sample in worker threads:
 * the person sees tests pass or fail as they type. Undo and redo walk the texts the filter
 * went through. Built-in filters are read-only; "Duplicate" turns the editor to a copy in
 * the user's own pack, which shadows the built-in one. Saving goes through
 * winnow_filter_pack_save_filter(): validated, atomic, one backup.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "winnow-filter-editor.h"
#include "winnow-toast.h"
#include "winnow-filter-form.h"
#include "winnow-trace-strip.h"

#define VALIDATE_DELAY_MS 250
#define JSON_DELAY_MS 150
#define MAX_HISTORY 200

struct _WinnowFilterEditor
{
  GtkWidget           parent_instance;

  WinnowContext      *context;
  char               *text;          /* the document */
  char               *saved_text;    /* what is on disk; NULL for a new, unsaved filter */
  char               *original_id;   /* the id it has on disk */
  char               *file;          /* the pack it saves into */
  WinnowFilterSource  source;
  gboolean            read_only;
  JsonObject         *object;        /* parsed text, NULL when the text is not a JSON object */
  WinnowFilter       *filter;        /* validated filter, NULL when the engine refuses it */
  char               *problems;
  GPtrArray          *history;
  guint               history_index;
  gboolean            updating;      /* writing the JSON buffer ourselves */
  guint               validate_source;
  guint               json_source;
  GCancellable       *cancellable;
  guint               pending;       /* verify and try runs under way */
  guint               n_failed;
  guint               n_passed;
  char               *sample;
  char               *sample_command;
  WinnowVerifyReport *report;

  /* template children */
  GtkLabel           *title_label;
  GtkLabel           *source_label;
  GtkWidget          *duplicate_button;
  GtkLabel           *problems_label;
  AdwViewStack       *view_stack;
  GtkStack           *form_stack;
  WinnowFilterForm   *form;
  GtkSourceView      *json_view;
  AdwViewStackPage   *tests_stack_page;
  GtkLabel           *tests_summary;
  GtkListBox         *tests_list;
  GtkLabel           *try_stats;
  WinnowTraceStrip   *try_strip;
  GtkSourceView      *try_view;
};

G_DEFINE_FINAL_TYPE (WinnowFilterEditor, winnow_filter_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DIRTY,
  PROP_BUSY,
  PROP_N_FAILED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  SAVED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void schedule_validate (WinnowFilterEditor *self);
static void show_text (WinnowFilterEditor *self, const char *text, gboolean update_buffer,
                       gboolean update_form);

static char *
object_to_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  return json_generator_to_data (generator, NULL);
}

static void
set_busy_delta (WinnowFilterEditor *self,
                int                 delta)
{
  gboolean was = self->pending > 0;

  self->pending += delta;
  if (was != (self->pending > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BUSY]);
}

static void
update_actions (WinnowFilterEditor *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean dirty = winnow_filter_editor_get_dirty (self);

  gtk_widget_action_set_enabled (widget, "editor.undo", self->history_index > 0);
  gtk_widget_action_set_enabled (widget, "editor.redo",
                                 self->history->len > 0 &&
                                 self->history_index + 1 < self->history->len);
  gtk_widget_action_set_enabled (widget, "editor.save", !self->read_only && dirty &&
                                 self->text != NULL);
  gtk_widget_action_set_enabled (widget, "editor.revert", dirty && self->saved_text != NULL);
  gtk_widget_action_set_enabled (widget, "editor.duplicate", self->read_only && self->text);
  gtk_widget_action_set_enabled (widget, "editor.duplicate-to-project", self->text != NULL);
  gtk_widget_action_set_enabled (widget, "editor.add-test", !self->read_only &&
                                 self->object != NULL && self->filter != NULL &&
                                 self->sample != NULL && self->sample[0] != '\0');
  gtk_widget_set_visible (self->duplicate_button, self->read_only);
}

static void
update_header (WinnowFilterEditor *self)
{
  const char *id = self->object ? json_object_get_string_member_with_default (self->object, "id", "")
                                : self->original_id;
  g_autofree char *title = NULL;
  g_autofree char *where = NULL;

  title = g_strdup_printf ("%s%s", id && *id ? id : _("New filter"),
                           winnow_filter_editor_get_dirty (self) ? " •" : "");
  gtk_label_set_text (self->title_label, title);

  switch (self->source)
    {
    case WINNOW_FILTER_SOURCE_BUILTIN:
      where = g_strdup (_("Built-in, read-only"));
      break;

    case WINNOW_FILTER_SOURCE_PROJECT:
      /* Translators: %s is a file path */
      where = g_strdup_printf (_("Project filter in %s — saving asks for new trust approval"),
                               self->file);
      break;

    case WINNOW_FILTER_SOURCE_GLOBAL:
    case WINNOW_FILTER_SOURCE_FILE:
    default:
      /* Translators: %s is a file path */
      where = g_strdup_printf (_("Your filter in %s"), self->file ? self->file : "");
      break;
    }
  gtk_label_set_text (self->source_label, where);
}

/* --- undo history ----------------------------------------------------------------------- */

static void
history_reset (WinnowFilterEditor *self,
               const char         *text)
{
  g_ptr_array_set_size (self->history, 0);
  g_ptr_array_add (self->history, g_strdup (text));
  self->history_index = 0;
}

static void
history_commit (WinnowFilterEditor *self)
{
  if (self->text == NULL ||
      g_strcmp0 (g_ptr_array_index (self->history, self->history_index), self->text) == 0)
    return;

  /* a new edit after undoing drops the redo branch */
  g_ptr_array_set_size (self->history, self->history_index + 1);
  g_ptr_array_add (self->history, g_strdup (self->text));
  if (self->history->len > MAX_HISTORY)
    g_ptr_array_remove_index (self->history, 0);
  self->history_index = self->history->len - 1;
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (widget);

  /* an edit still waiting for its pause counts as a step */
  history_commit (self);
  if (self->history_index == 0)
    return;

  self->history_index--;
  show_text (self, g_ptr_array_index (self->history, self->history_index), TRUE, TRUE);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (widget);

  if (self->history_index + 1 >= self->history->len)
    return;

  self->history_index++;
  show_text (self, g_ptr_array_index (self->history, self->history_index), TRUE, TRUE);
}

/* --- tests ------------------------------------------------------------------------------ */

static void
accept_clicked (GtkButton          *button,
                WinnowFilterEditor *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "test-index"));

  gtk_widget_activate_action (GTK_WIDGET (self), "editor.accept-actual", "u", index);
}

static GtkWidget *
monospace_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  return label;
}

static void
show_tests (WinnowFilterEditor *self)
{
  GListModel *outcomes = self->report ? winnow_verify_report_get_outcomes (self->report) : NULL;
  guint n = outcomes ? g_list_model_get_n_items (outcomes) : 0;
  g_autofree char *summary = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->tests_list))) != NULL)
    gtk_list_box_remove (self->tests_list, child);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
      gboolean passed = winnow_test_outcome_get_passed (outcome);
      GtkWidget *row = adw_expander_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name (passed ? "emblem-ok-symbolic"
                                                             : "dialog-error-symbolic");
      const char *name = winnow_test_outcome_get_name (outcome);
      g_autofree char *title = g_strdup_printf ("%u. %s", winnow_test_outcome_get_index (outcome) + 1,
                                                name && *name ? name : _("(unnamed)"));

      gtk_widget_add_css_class (icon, passed ? "success" : "error");
      adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row), icon);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row),
                                     passed ? (winnow_test_outcome_get_idempotent (outcome)
                                               ? _("Passes") : _("Passes, but running the filter again changes the output"))
                                            : _("Fails: the output differs from what is expected"));

      if (!passed)
        {
          g_autofree char *diff = winnow_test_outcome_dup_diff (outcome);
          GtkWidget *button = gtk_button_new_with_mnemonic (_("_Accept Actual as Expected"));
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

          g_object_set_data (G_OBJECT (button), "test-index",
                             GUINT_TO_POINTER (winnow_test_outcome_get_index (outcome)));
          g_signal_connect_object (button, "clicked", G_CALLBACK (accept_clicked), self, 0);
          gtk_widget_set_halign (button, GTK_ALIGN_START);
          gtk_widget_set_margin_start (button, 12);
          gtk_widget_set_margin_bottom (button, 6);
          gtk_widget_set_sensitive (button, !self->read_only);
          gtk_box_append (GTK_BOX (box), monospace_label (diff ? diff : ""));
          gtk_box_append (GTK_BOX (box), button);
          adw_expander_row_add_row (ADW_EXPANDER_ROW (row), box);
          adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
        }
      else
        adw_expander_row_add_row (ADW_EXPANDER_ROW (row),
                                  monospace_label (winnow_test_outcome_get_actual (outcome)));

      gtk_list_box_append (self->tests_list, row);
    }

  if (self->filter == NULL)
    summary = g_strdup (_("Tests run once the filter is valid"));
  else if (n == 0)
    summary = g_strdup (_("No tests yet: add one from the Preview input"));
  else
    /* Translators: test counts, "3 passed, 1 failed" */
    summary = g_strdup_printf (_("%u passed, %u failed"), self->n_passed, self->n_failed);
  gtk_label_set_text (self->tests_summary, summary);

  adw_view_stack_page_set_badge_number (self->tests_stack_page, self->n_failed);
  adw_view_stack_page_set_needs_attention (self->tests_stack_page, self->n_failed > 0);
}

static void
verify_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(WinnowFilterEditor) self = user_data;
  g_autoptr(WinnowVerifyReport) report = NULL;
  g_autoptr(GError) error = NULL;

  set_busy_delta (self, -1);
  report = winnow_verify_filters_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_set_object (&self->report, report);
  self->n_failed = report ? winnow_verify_report_get_n_failed (report) : 0;
  self->n_passed = report ? winnow_verify_report_get_n_passed (report) : 0;
  show_tests (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_FAILED]);
}

/* --- try it ------------------------------------------------------------------------------ */

typedef struct
{
  WinnowFilter *filter;
  char         *text;
} TryData;

static void
try_data_free (TryData *data)
{
  g_clear_object (&data->filter);
  g_free (data->text);
  g_free (data);
}

static void
try_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  TryData *data = task_data;
  WinnowRtkOptions options;

  winnow_rtk_options_init (&options);
  g_task_return_pointer (task, winnow_rtk_apply (data->filter, data->text, -1, &options),
                         g_object_unref);
}

static void
try_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(WinnowFilterEditor) self = user_data;
  g_autoptr(WinnowRtkResult) rtk = NULL;
  g_autofree char *stats = NULL;
  GtkTextBuffer *buffer;
  const char *text;

  set_busy_delta (self, -1);
  rtk = g_task_propagate_pointer (G_TASK (result), NULL);
  if (rtk == NULL || g_task_had_error (G_TASK (result)))
    return;

  text = winnow_rtk_result_get_text (rtk, NULL);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->try_view));
  gtk_text_buffer_set_text (buffer, text, -1);
  winnow_trace_strip_set_stages (self->try_strip, winnow_rtk_result_get_stages (rtk));
  /* Translators: what trying a filter on a sample gave: lines and bytes before and after */
  stats = g_strdup_printf (_("%s: %u → %u lines, %zu → %zu bytes"),
                           self->sample_command && *self->sample_command ? self->sample_command
                                                                          : _("sample"),
                           winnow_rtk_result_get_lines_in (rtk),
                           winnow_rtk_result_get_lines_out (rtk),
                           winnow_rtk_result_get_bytes_in (rtk),
                           winnow_rtk_result_get_bytes_out (rtk));
  gtk_label_set_text (self->try_stats, stats);
}

static void
start_try (WinnowFilterEditor *self)
{
  g_autoptr(GTask) task = NULL;
  TryData *data;

  if (self->filter == NULL || self->sample == NULL || self->sample[0] == '\0')
    {
      gtk_label_set_text (self->try_stats, self->sample == NULL || self->sample[0] == '\0'
                                           ? _("Put some output on the Preview page to try the filter on it")
                                           : _("The filter runs once it is valid"));
      return;
    }

  data = g_new0 (TryData, 1);
  data->filter = g_object_ref (self->filter);
  data->text = g_strdup (self->sample);
  task = g_task_new (NULL, self->cancellable, try_cb, g_object_ref (self));
  g_task_set_source_tag (task, start_try);
  g_task_set_task_data (task, data, (GDestroyNotify) try_data_free);
  g_task_set_return_on_cancel (task, FALSE);
  set_busy_delta (self, 1);
  g_task_run_in_thread (task, try_worker);
}

/* --- validation -------------------------------------------------------------------------- */

static void
validate (WinnowFilterEditor *self)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) parsed = NULL;
  g_autoptr(GString) problems = g_string_new (NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_object (&self->filter);

  history_commit (self);

  if (self->text != NULL)
    {
      parsed = winnow_filter_pack_parse (self->text, -1, self->source, self->file,
                                         WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
      for (guint i = 0; i < diagnostics->len; i++)
        {
          WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
          const char *path = winnow_diagnostic_get_json_path (d);

          if (winnow_diagnostic_get_level (d) != WINNOW_DIAGNOSTIC_ERROR &&
              winnow_diagnostic_get_level (d) != WINNOW_DIAGNOSTIC_WARNING)
            continue;
          g_string_append_printf (problems, "%s%s %u:%u%s%s — %s",
                                  problems->len ? "\n" : "",
                                  winnow_diagnostic_level_to_string (winnow_diagnostic_get_level (d)),
                                  winnow_diagnostic_get_line (d), winnow_diagnostic_get_column (d),
                                  path ? " " : "", path ? path : "",
                                  winnow_diagnostic_get_message (d));
        }

      if (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR) == 0 &&
          parsed->len == 1)
        self->filter = g_object_ref (g_ptr_array_index (parsed, 0));
      else if (parsed->len > 1)
        g_string_append_printf (problems, "%s%s", problems->len ? "\n" : "",
                                _("The text holds more than one filter; edit one at a time"));
    }

  g_free (self->problems);
  self->problems = g_string_free (g_steal_pointer (&problems), FALSE);
  gtk_label_set_text (self->problems_label, self->problems);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_label), self->problems[0] != '\0');

  if (self->filter != NULL)
    {
      g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func (g_object_unref);

      g_ptr_array_add (one, g_object_ref (self->filter));
      set_busy_delta (self, 1);
      winnow_verify_filters_async (one, self->cancellable, verify_cb, g_object_ref (self));
    }
  else
    {
      g_clear_object (&self->report);
      self->n_failed = self->n_passed = 0;
      show_tests (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_FAILED]);
    }

  start_try (self);
  update_actions (self);
  update_header (self);
}

static gboolean
validate_timeout (gpointer user_data)
{
  WinnowFilterEditor *self = user_data;

  self->validate_source = 0;
  validate (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_validate (WinnowFilterEditor *self)
{
  g_clear_handle_id (&self->validate_source, g_source_remove);
  self->validate_source = g_timeout_add (VALIDATE_DELAY_MS, validate_timeout, self);
  update_actions (self);
  update_header (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DIRTY]);
}

/* --- the document ----------------------------------------------------------------------- */

/* Makes @text the document; the JSON buffer and the form follow as asked. */
static void
show_text (WinnowFilterEditor *self,
           const char         *text,
           gboolean            update_buffer,
           gboolean            update_form)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  char *copy = g_strdup (text);

  /* whatever was typed before this text replaced it is not to be read any more */
  if (update_buffer)
    g_clear_handle_id (&self->json_source, g_source_remove);

  g_free (self->text);
  self->text = copy;

  if (update_buffer)
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));

      self->updating = TRUE;
      gtk_text_buffer_set_text (buffer, text ? text : "", -1);
      self->updating = FALSE;
    }

  g_clear_pointer (&self->object, json_object_unref);
  if (text != NULL && json_parser_load_from_data (parser, text, -1, &error) &&
      json_parser_get_root (parser) != NULL &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    self->object = json_object_ref (json_node_get_object (json_parser_get_root (parser)));

  if (self->object != NULL)
    {
      if (update_form)
        winnow_filter_form_set_object (self->form, self->object);
      gtk_stack_set_visible_child_name (self->form_stack, "form");
    }
  else
    {
      g_autofree char *why = NULL;
      g_autofree char *escaped = NULL;

      why = error ? g_strdup_printf (_("%s. Fix it in the JSON view to edit the filter here "
                                       "again; nothing you typed is lost."), error->message)
                  : g_strdup (_("The text must be one JSON object."));
      adw_status_page_set_description (ADW_STATUS_PAGE (gtk_stack_get_child_by_name (self->form_stack,
                                                                                      "invalid")),
                                       (escaped = g_markup_escape_text (why, -1)));
      gtk_stack_set_visible_child_name (self->form_stack, "invalid");
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->form), !self->read_only);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->json_view), !self->read_only);
  schedule_validate (self);
}

static void
on_form_changed (WinnowFilterForm   *form,
                 WinnowFilterEditor *self)
{
  g_autofree char *text = object_to_text (winnow_filter_form_get_object (form));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));

  g_free (self->text);
  self->text = g_steal_pointer (&text);
  self->updating = TRUE;
  gtk_text_buffer_set_text (buffer, self->text, -1);
  self->updating = FALSE;
  schedule_validate (self);
}

static gboolean
json_timeout (gpointer user_data)
{
  WinnowFilterEditor *self = user_data;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  self->json_source = 0;
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  show_text (self, text, FALSE, TRUE);
  return G_SOURCE_REMOVE;
}

/* Typing in the JSON view is read after a short pause: parsing and rebuilding the form on
 * every keystroke (or on the two halves of a replaced text) would only flicker. */
static void
on_json_changed (GtkTextBuffer      *buffer,
                 WinnowFilterEditor *self)
{
  if (self->updating)
    return;

  g_clear_handle_id (&self->json_source, g_source_remove);
  self->json_source = g_timeout_add (JSON_DELAY_MS, json_timeout, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BUSY]);
}

/* --- actions ------------------------------------------------------------------------------ */

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (widget);
  g_autoptr(GError) error = NULL;

  if (!winnow_filter_editor_save (self, &error))
    winnow_show_toast (GTK_WIDGET (self), error->message);
  else
    {
      /* Translators: %s is a file path */
      g_autofree char *message = g_strdup_printf (_("Saved to %s"), self->file);

      winnow_show_toast (GTK_WIDGET (self), message);
    }
}

static void
revert_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (widget);

  if (self->saved_text != NULL)
    show_text (self, self->saved_text, TRUE, TRUE);
}

/* The editor turns to a copy in @file; nothing of it is on disk until saved. */
static void
duplicate_to (WinnowFilterEditor *self,
              const char         *file,
              WinnowFilterSource  source)
{
  g_autofree char *text = g_strdup (self->text);

  self->read_only = FALSE;
  self->source = source;
  g_free (self->file);
  self->file = g_strdup (file);
  g_clear_pointer (&self->saved_text, g_free);
  show_text (self, text, TRUE, TRUE);
}

static void
duplicate_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (widget);
  g_autofree char *file = NULL;

  if (!self->read_only || self->context == NULL)
    return;

  file = winnow_context_get_global_filters_path (self->context);
  duplicate_to (self, file, WINNOW_FILTER_SOURCE_GLOBAL);
  winnow_show_toast (GTK_WIDGET (self), _("Editing your own copy; it takes the built-in filter’s place once saved"));
}

static void
project_folder_cb (GtkNativeDialog    *dialog,
                   int                 response,
                   WinnowFilterEditor *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *dir = g_file_get_path (folder);

      if (dir != NULL)
        winnow_filter_editor_duplicate_to_project (self, dir);
    }

  g_object_unref (dialog);
}

static void
duplicate_to_project_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Duplicate into a Project"), GTK_WINDOW (native),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (project_folder_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/**
 * winnow_filter_editor_duplicate_to_project:
 * @self: a #WinnowFilterEditor
 * @project_dir: a project folder
 *
 * Turns the editor to a copy of the filter in the project's `.rtk/filters.json`. Saving it
 * changes the file's hash, so the project needs approving again on the Trust page.
 */
void
winnow_filter_editor_duplicate_to_project (WinnowFilterEditor *self,
                                           const char         *project_dir)
{
  g_autofree char *file = NULL;

  g_return_if_fail (WINNOW_IS_FILTER_EDITOR (self));
  g_return_if_fail (project_dir != NULL);

  if (self->text == NULL)
    return;

  file = g_build_filename (project_dir, ".rtk", "filters.json", NULL);
  duplicate_to (self, file, WINNOW_FILTER_SOURCE_PROJECT);
  winnow_show_toast (GTK_WIDGET (self), _("Editing a copy for the project; approve the project again after saving"));
}

static void
accept_actual_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (widget);
  guint index = g_variant_get_uint32 (parameter);
  GListModel *outcomes = self->report ? winnow_verify_report_get_outcomes (self->report) : NULL;
  JsonNode *tests = self->object ? json_object_get_member (self->object, "tests") : NULL;
  g_autofree char *text = NULL;

  if (self->read_only || outcomes == NULL || tests == NULL || !JSON_NODE_HOLDS_ARRAY (tests))
    return;

  for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
      JsonArray *array = json_node_get_array (tests);
      JsonNode *test;

      if (winnow_test_outcome_get_index (outcome) != index || index >= json_array_get_length (array))
        continue;

      test = json_array_get_element (array, index);
      if (!JSON_NODE_HOLDS_OBJECT (test))
        return;

      json_object_set_string_member (json_node_get_object (test), "expected",
                                     winnow_test_outcome_get_actual (outcome));
      text = object_to_text (self->object);
      show_text (self, text, TRUE, TRUE);
      return;
    }
}

static void
add_test_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (widget);
  g_autoptr(WinnowRtkResult) rtk = NULL;
  g_autofree char *text = NULL;
  WinnowRtkOptions options;
  JsonObject *test;
  JsonNode *tests;

  if (self->read_only || self->object == NULL || self->filter == NULL || self->sample == NULL)
    return;

  /* the expected output is what this filter makes of the input now: a reviewed baseline */
  winnow_rtk_options_init (&options);
  rtk = winnow_rtk_apply (self->filter, self->sample, -1, &options);

  test = json_object_new ();
  json_object_set_string_member (test, "name", _("from the preview"));
  if (self->sample_command != NULL && self->sample_command[0] != '\0')
    json_object_set_string_member (test, "command", self->sample_command);
  json_object_set_string_member (test, "input", self->sample);
  json_object_set_string_member (test, "expected", winnow_rtk_result_get_text (rtk, NULL));

  tests = json_object_get_member (self->object, "tests");
  if (tests == NULL || !JSON_NODE_HOLDS_ARRAY (tests))
    {
      json_object_set_array_member (self->object, "tests", json_array_new ());
      tests = json_object_get_member (self->object, "tests");
    }
  json_array_add_object_element (json_node_get_array (tests), test);

  text = object_to_text (self->object);
  show_text (self, text, TRUE, TRUE);
  adw_view_stack_set_visible_child_name (self->view_stack, "tests");
}

/* --- GObject ----------------------------------------------------------------------------- */

static void
winnow_filter_editor_dispose (GObject *object)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->validate_source, g_source_remove);
  g_clear_handle_id (&self->json_source, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_FILTER_EDITOR);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  g_clear_object (&self->context);
  g_clear_object (&self->filter);
  g_clear_object (&self->report);
  g_clear_pointer (&self->object, json_object_unref);
  g_clear_pointer (&self->history, g_ptr_array_unref);
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->saved_text, g_free);
  g_clear_pointer (&self->original_id, g_free);
  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->problems, g_free);
  g_clear_pointer (&self->sample, g_free);
  g_clear_pointer (&self->sample_command, g_free);

  G_OBJECT_CLASS (winnow_filter_editor_parent_class)->dispose (object);
}

static void
winnow_filter_editor_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  WinnowFilterEditor *self = WINNOW_FILTER_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DIRTY:
      g_value_set_boolean (value, winnow_filter_editor_get_dirty (self));
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, winnow_filter_editor_get_busy (self));
      break;

    case PROP_N_FAILED:
      g_value_set_uint (value, self->n_failed);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_filter_editor_class_init (WinnowFilterEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_filter_editor_dispose;
  object_class->get_property = winnow_filter_editor_get_property;

  properties [PROP_DIRTY] =
    g_param_spec_boolean ("dirty", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * WinnowFilterEditor:busy:
   *
   * Whether a validation is waiting or tests are running.
   */
  properties [PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_N_FAILED] =
    g_param_spec_uint ("n-failed", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WinnowFilterEditor::saved:
   * @file: the pack file written
   * @source: the #WinnowFilterSource it counts as
   *
   * The filter was written to disk; the catalog should read @file again.
   */
  signals [SAVED] = g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_INT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-filter-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, title_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, source_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, duplicate_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, problems_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, form_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, form);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, json_view);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, tests_stack_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, tests_summary);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, tests_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, try_stats);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, try_strip);
  gtk_widget_class_bind_template_child (widget_class, WinnowFilterEditor, try_view);

  gtk_widget_class_install_action (widget_class, "editor.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "editor.revert", NULL, revert_action);
  gtk_widget_class_install_action (widget_class, "editor.duplicate-to-project", NULL,
                                   duplicate_to_project_action);
  gtk_widget_class_install_action (widget_class, "editor.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "editor.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "editor.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "editor.add-test", NULL, add_test_action);
  gtk_widget_class_install_action (widget_class, "editor.accept-actual", "u",
                                   accept_actual_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "editor.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "editor.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "editor.save", NULL);

  g_type_ensure (WINNOW_TYPE_FILTER_FORM);
  g_type_ensure (WINNOW_TYPE_TRACE_STRIP);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
}

/* GtkSourceView reads and validates its language definitions the first time a language is
 * asked for (tens of milliseconds), and the JSON tab is not the one the editor opens on: the
 * view gets JSON highlighting when it is first shown. */
static void
on_json_view_map (GtkWidget *view)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  GtkSourceLanguage *json;

  if (gtk_source_buffer_get_language (buffer) != NULL)
    return;
  json = gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (),
                                                   "json");
  if (json != NULL)
    gtk_source_buffer_set_language (buffer, json);
}

static void
winnow_filter_editor_init (WinnowFilterEditor *self)
{
  GtkTextBuffer *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->history = g_ptr_array_new_with_free_func (g_free);
  self->read_only = TRUE;

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  g_signal_connect (self->json_view, "map", G_CALLBACK (on_json_view_map), NULL);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (on_json_changed), self, 0);
  g_signal_connect_object (self->form, "changed", G_CALLBACK (on_form_changed), self, 0);

  update_actions (self);
}

void
winnow_filter_editor_set_context (WinnowFilterEditor *self,
                                  WinnowContext      *context)
{
  g_return_if_fail (WINNOW_IS_FILTER_EDITOR (self));
  g_set_object (&self->context, context);
}

/**
 * winnow_filter_editor_load:
 * @self: a #WinnowFilterEditor
 * @filter: the filter to edit, as the catalog has it
 *
 * Shows @filter in its canonical JSON; built-in filters are read-only.
 */
void
winnow_filter_editor_load (WinnowFilterEditor *self,
                           WinnowFilter       *filter)
{
  g_autofree char *text = NULL;

  g_return_if_fail (WINNOW_IS_FILTER_EDITOR (self));
  g_return_if_fail (WINNOW_IS_FILTER (filter));

  text = winnow_filter_to_json (filter);
  self->source = winnow_filter_get_source (filter);
  self->read_only = self->source == WINNOW_FILTER_SOURCE_BUILTIN;
  g_free (self->file);
  self->file = g_strdup (winnow_filter_get_file (filter));
  g_free (self->original_id);
  self->original_id = g_strdup (winnow_filter_get_id (filter));
  g_free (self->saved_text);
  self->saved_text = g_strdup (text);
  history_reset (self, text);
  show_text (self, text, TRUE, TRUE);
  adw_view_stack_set_visible_child_name (self->view_stack, "form");
}

/**
 * winnow_filter_editor_load_draft:
 * @self: a #WinnowFilterEditor
 * @json: a new filter's JSON (a draft from samples, say)
 *
 * Opens a filter that is not saved anywhere yet; it saves into the user's own pack.
 */
void
winnow_filter_editor_load_draft (WinnowFilterEditor *self,
                                 const char         *json)
{
  g_return_if_fail (WINNOW_IS_FILTER_EDITOR (self));
  g_return_if_fail (json != NULL);

  self->source = WINNOW_FILTER_SOURCE_GLOBAL;
  self->read_only = FALSE;
  g_free (self->file);
  self->file = self->context ? winnow_context_get_global_filters_path (self->context) : NULL;
  g_clear_pointer (&self->original_id, g_free);
  g_clear_pointer (&self->saved_text, g_free);
  history_reset (self, json);
  show_text (self, json, TRUE, TRUE);
}

const char *
winnow_filter_editor_get_text (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), NULL);
  return self->text;
}

/**
 * winnow_filter_editor_set_text:
 * @self: a #WinnowFilterEditor
 * @json: the new document
 *
 * Replaces the document as if typed in the JSON view.
 */
void
winnow_filter_editor_set_text (WinnowFilterEditor *self,
                               const char         *json)
{
  g_return_if_fail (WINNOW_IS_FILTER_EDITOR (self));
  g_return_if_fail (json != NULL);

  if (self->read_only)
    return;
  show_text (self, json, TRUE, TRUE);
}

gboolean
winnow_filter_editor_get_dirty (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), FALSE);

  if (self->text == NULL)
    return FALSE;
  return g_strcmp0 (self->text, self->saved_text) != 0;
}

gboolean
winnow_filter_editor_get_busy (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), FALSE);
  return self->validate_source != 0 || self->json_source != 0 || self->pending > 0;
}

gboolean
winnow_filter_editor_get_read_only (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), TRUE);
  return self->read_only;
}

const char *
winnow_filter_editor_get_file (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), NULL);
  return self->file;
}

guint
winnow_filter_editor_get_n_failed (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), 0);
  return self->n_failed;
}

guint
winnow_filter_editor_get_n_passed (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), 0);
  return self->n_passed;
}

/**
 * winnow_filter_editor_get_problems:
 * @self: a #WinnowFilterEditor
 *
 * Returns: the engine's errors and warnings about the document, one per line, or ""
 */
const char *
winnow_filter_editor_get_problems (WinnowFilterEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), NULL);
  return self->problems ? self->problems : "";
}

/**
 * winnow_filter_editor_set_sample:
 * @self: a #WinnowFilterEditor
 * @text: (nullable): output to try the filter on and count pattern matches in
 * @command: (nullable): the command that produced it
 */
void
winnow_filter_editor_set_sample (WinnowFilterEditor *self,
                                 const char         *text,
                                 const char         *command)
{
  g_return_if_fail (WINNOW_IS_FILTER_EDITOR (self));

  if (g_strcmp0 (text, self->sample) == 0 && g_strcmp0 (command, self->sample_command) == 0)
    return;

  g_free (self->sample);
  self->sample = g_strdup (text);
  g_free (self->sample_command);
  self->sample_command = g_strdup (command);
  winnow_filter_form_set_sample (self->form, text, command);
  start_try (self);
  update_actions (self);
}

/**
 * winnow_filter_editor_save:
 * @self: a #WinnowFilterEditor
 * @error: return location for a #GError
 *
 * Writes the filter into its pack file. Refused for a read-only filter, a pattern that does
 * not compile or a document the engine does not accept; the file on disk is then untouched.
 *
 * Returns: %TRUE when saved
 */
gboolean
winnow_filter_editor_save (WinnowFilterEditor *self,
                           GError            **error)
{
  g_autofree char *file = NULL;

  g_return_val_if_fail (WINNOW_IS_FILTER_EDITOR (self), FALSE);

  if (self->read_only)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_FILTER,
                   _("Built-in filters are read-only: duplicate it to edit your own copy"));
      return FALSE;
    }

  if (self->file == NULL || self->text == NULL)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_FOUND, _("This filter has no pack file"));
      return FALSE;
    }

  if (winnow_filter_form_count_invalid (self->form) > 0)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX,
                   _("Not saved: a pattern does not compile"));
      return FALSE;
    }

  if (!winnow_filter_pack_save_filter (self->file, self->text, self->original_id, error))
    return FALSE;

  g_free (self->saved_text);
  self->saved_text = g_strdup (self->text);
  g_free (self->original_id);
  self->original_id = self->object
    ? g_strdup (json_object_get_string_member_with_default (self->object, "id", NULL)) : NULL;

  file = g_strdup (self->file);
  update_actions (self);
  update_header (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DIRTY]);
  g_signal_emit (self, signals [SAVED], 0, file, (int) self->source);
  return TRUE;
}
