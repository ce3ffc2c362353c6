/* test-ui-preview.c — the Preview page, driven through its real widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-trace-strip.h"
#include "winnow-window.h"

typedef struct
{
  char              *data_dir;
  WinnowContext     *context;
  WinnowWindow      *window;
  WinnowPreviewPage *page;
  GtkTextView       *original;
  GtkTextView       *compressed;
  GtkEntry          *command;
  GtkDropDown       *mode;
  GtkDropDown       *caveman;
  GtkLabel          *tokens;
  GtkLabel          *detected;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GPtrArray) views = NULL;

  g_settings_reset (settings, "preview-mode");
  g_settings_reset (settings, "preview-rtk-intensity");
  g_settings_reset (settings, "preview-caveman-intensity");
  g_settings_reset (settings, "preview-command");

  f->data_dir = g_dir_make_tmp ("winnow-ui-preview-XXXXXX", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  winnow_window_set_page (f->window, "preview");
  gtk_window_present (GTK_WINDOW (f->window));
  test_ui_wait_mapped (GTK_WIDGET (f->window));

  f->page = winnow_window_get_preview_page (f->window);
  views = test_ui_find_all (GTK_WIDGET (f->page), GTK_SOURCE_TYPE_VIEW);
  g_assert_cmpuint (views->len, ==, 2);
  f->original = GTK_TEXT_VIEW (g_ptr_array_index (views, 0));
  f->compressed = GTK_TEXT_VIEW (g_ptr_array_index (views, 1));
  g_assert_true (gtk_text_view_get_editable (f->original));
  g_assert_nonnull (f->compressed);
  g_assert_false (gtk_text_view_get_editable (f->compressed));

  f->command = GTK_ENTRY (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_ENTRY, "Command"));
  f->mode = GTK_DROP_DOWN (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_DROP_DOWN, "Mode"));
  f->caveman = GTK_DROP_DOWN (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_DROP_DOWN,
                                            "Prose intensity"));
  f->tokens = GTK_LABEL (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL,
                                       "Tokens before → after"));
  f->detected = GTK_LABEL (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL,
                                         "What the output was detected as, and how sure the "
                                         "detector is"));
  g_assert_nonnull (f->command);
  g_assert_nonnull (f->mode);
  g_assert_nonnull (f->caveman);
  g_assert_nonnull (f->tokens);
  g_assert_nonnull (f->detected);
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

static gboolean
settled (gpointer data)
{
  Fixture *f = data;

  return !winnow_preview_page_get_busy (f->page) && winnow_preview_page_get_result (f->page);
}

static void
wait_for_result (Fixture *f)
{
  g_assert_true (test_ui_wait_for (settled, f, 30000));
}

static void
type_input (Fixture    *f,
            const char *text)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (f->original), text, -1);
}

static char *
corpus_sample (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "corpus", "samples", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

static gboolean
line_has_tag (GtkTextView *view,
              guint        line,
              const char  *tag_name)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), tag_name);
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line (buffer, &iter, line);
  return gtk_text_iter_has_tag (&iter, tag);
}

/* Pasted command output and a typed command: the compressed pane shows exactly what the
 * engine produced, the stats name the detection and the receipt, removed lines are marked. */
static void
test_command_output (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *input = corpus_sample ("pytest-fail-verbose.txt");
  g_autofree char *shown = NULL;
  WinnowPipelineResult *result;
  WinnowLineMap *map;
  const WinnowLineRange *removed;
  guint n_removed;

  gtk_drop_down_set_selected (f->mode, 1); /* RTK filters */
  gtk_editable_set_text (GTK_EDITABLE (f->command), "pytest -v tests");
  type_input (f, input);
  g_assert_true (winnow_preview_page_get_busy (f->page));
  wait_for_result (f);

  result = winnow_preview_page_get_result (f->page);
  shown = test_ui_buffer_text (f->compressed);
  g_assert_cmpstr (shown, ==, winnow_pipeline_result_get_text (result, NULL));
  g_assert_cmpuint (strlen (shown), <, strlen (input));
  g_assert_nonnull (strstr (shown, "RuntimeError: database unavailable"));

  g_assert_nonnull (strstr (gtk_label_get_text (f->tokens), "→"));
  g_assert_nonnull (strstr (gtk_label_get_text (f->detected), "test-pytest"));

  map = winnow_preview_page_get_line_map (f->page);
  g_assert_true (winnow_line_map_get_exact (map));
  removed = winnow_line_map_get_removed (map, &n_removed);
  g_assert_cmpuint (n_removed, >, 0);
  g_assert_true (line_has_tag (f->original, removed[0].start, "removed"));
  g_assert_false (line_has_tag (f->original, winnow_line_map_get_origin (map, 0), "removed"));
}

/* Prose through Caveman: a different intensity gives a different, shorter text. */
static void
test_prose_intensities (Fixture       *f,
                        gconstpointer  data)
{
  const char *prose = "Thank you so much for your question! I'd be happy to help. Basically, "
                      "the cache is invalidated because `COPY . .` copies the entire build "
                      "context, so every change to any file changes the checksum. I hope this "
                      "helps, and let me know if you have any other questions!";
  g_autofree char *lite = NULL;
  g_autofree char *ultra = NULL;

  gtk_drop_down_set_selected (f->mode, 2); /* Caveman prose */
  gtk_drop_down_set_selected (f->caveman, 0);
  type_input (f, prose);
  wait_for_result (f);
  lite = test_ui_buffer_text (f->compressed);
  g_assert_nonnull (strstr (lite, "`COPY . .`"));
  g_assert_cmpuint (strlen (lite), <, strlen (prose));
  g_assert_nonnull (strstr (gtk_label_get_text (f->detected), "caveman:"));
  /* prose wraps in both views; command output does not (below) */
  g_assert_cmpint (gtk_text_view_get_wrap_mode (f->original), ==, GTK_WRAP_WORD_CHAR);
  g_assert_cmpint (gtk_text_view_get_wrap_mode (f->compressed), ==, GTK_WRAP_WORD_CHAR);

  gtk_drop_down_set_selected (f->caveman, 2);
  g_assert_true (winnow_preview_page_get_busy (f->page));
  wait_for_result (f);
  ultra = test_ui_buffer_text (f->compressed);
  g_assert_cmpuint (strlen (ultra), <=, strlen (lite));
  g_assert_nonnull (strstr (ultra, "`COPY . .`"));
}

/* Edits in a burst: only the last text is compressed and shown. */
static void
test_debounce_and_cancel (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *shown = NULL;

  gtk_drop_down_set_selected (f->mode, 0); /* Off: the output is the input */
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *text = g_strdup_printf ("line %u\n", i);

      type_input (f, text);
      g_main_context_iteration (NULL, FALSE);
    }
  wait_for_result (f);
  shown = test_ui_buffer_text (f->compressed);
  g_assert_cmpstr (shown, ==, "line 19\n");
}

/* Samples load through the real action; the command comes with them. */
static void
test_load_sample (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *input = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "preview.load-sample", "s",
                                             "git-status"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (f->command)), ==, "git status");
  input = test_ui_buffer_text (f->original);
  g_assert_nonnull (strstr (input, "On branch"));
  wait_for_result (f);
  g_assert_nonnull (strstr (gtk_label_get_text (f->detected), "git-status"));
  g_assert_cmpint (gtk_text_view_get_wrap_mode (f->compressed), ==, GTK_WRAP_NONE);

  g_assert_false (winnow_preview_page_load_sample (f->page, "no-such-sample"));
}

/* Selecting a stage in the trace strip marks the lines that stage removed. */
static void
test_stage_selection (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *input = corpus_sample ("pytest-fail-verbose.txt");
  GtkListView *strip;
  GtkSingleSelection *selection;
  GListModel *stages;
  guint chosen = G_MAXUINT;

  gtk_drop_down_set_selected (f->mode, 1);
  gtk_editable_set_text (GTK_EDITABLE (f->command), "pytest -v tests");
  type_input (f, input);
  wait_for_result (f);

  strip = GTK_LIST_VIEW (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LIST_VIEW, "stage-list"));
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_ancestor (GTK_WIDGET (strip), WINNOW_TYPE_TRACE_STRIP)));
  selection = GTK_SINGLE_SELECTION (gtk_list_view_get_model (strip));
  stages = gtk_single_selection_get_model (selection);
  g_assert_cmpuint (g_list_model_get_n_items (stages), >, 0);

  for (guint i = 0; i < g_list_model_get_n_items (stages) && chosen == G_MAXUINT; i++)
    {
      g_autoptr(WinnowTraceStage) stage = g_list_model_get_item (stages, i);
      guint n;

      winnow_trace_stage_get_removed_lines (stage, &n);
      if (n > 0)
        chosen = i;
    }
  g_assert_cmpuint (chosen, !=, G_MAXUINT);

  gtk_single_selection_set_selected (selection, chosen);
  {
    g_autoptr(WinnowTraceStage) stage = g_list_model_get_item (stages, chosen);
    guint n;
    const guint *lines = winnow_trace_stage_get_removed_lines (stage, &n);

    guint last = lines[n - 1];
    GtkTextIter iter;

    /* the final empty line (after the last newline) has no character to carry a tag */
    gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (f->original), &iter, last);
    if (gtk_text_iter_is_end (&iter))
      last = lines[n - 2];

    g_assert_true (line_has_tag (f->original, lines[0], "stage-removed"));
    g_assert_true (line_has_tag (f->original, last, "stage-removed"));
  }

  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  {
    g_autoptr(WinnowTraceStage) stage = g_list_model_get_item (stages, chosen);
    guint n;
    const guint *lines = winnow_trace_stage_get_removed_lines (stage, &n);

    g_assert_false (line_has_tag (f->original, lines[0], "stage-removed"));
  }
}

static guint
top_line (GtkTextView *view)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  GtkTextIter iter;

  gtk_text_view_get_line_at_y (view, &iter, (int) gtk_adjustment_get_value (adjustment), NULL);
  return gtk_text_iter_get_line (&iter);
}

/* Scrolling the original brings the compressed side to the line that shows the same text. */
static void
test_synchronized_scrolling (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *input = corpus_sample ("pytest-fail-verbose.txt");
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (f->original));
  WinnowLineMap *map;
  GtkTextIter iter;
  int y;
  guint want = 0;

  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 500);
  gtk_drop_down_set_selected (f->mode, 1);
  gtk_editable_set_text (GTK_EDITABLE (f->command), "pytest -v tests");
  type_input (f, input);
  wait_for_result (f);
  test_ui_wait_frames (GTK_WIDGET (f->window), 3);

  map = winnow_preview_page_get_line_map (f->page);
  /* a line that survived, well down the original */
  for (guint line = 100; line < winnow_line_map_get_n_input_lines (map); line++)
    {
      want = winnow_line_map_get_output_line_for (map, line);
      if (winnow_line_map_get_origin (map, want) == (int) line)
        {
          gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (f->original), &iter, line);
          break;
        }
    }

  gtk_text_view_get_line_yrange (f->original, &iter, &y, NULL);
  gtk_adjustment_set_value (adjustment, y);
  test_ui_wait_frames (GTK_WIDGET (f->window), 2);

  g_assert_cmpuint (top_line (f->original), ==, gtk_text_iter_get_line (&iter));
  g_assert_cmpuint (top_line (f->compressed), ==, want);
}

static void
clipboard_read_cb (GObject      *source,
                   GAsyncResult *res,
                   gpointer      user_data)
{
  char **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), res, &error);
  g_assert_no_error (error);
}

static gboolean
string_set (gpointer data)
{
  return *(char **) data != NULL;
}

/* Copy puts exactly the compressed text on the clipboard. */
static void
test_copy_output (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *copied = NULL;
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (f->page));

  g_assert_true (winnow_preview_page_load_sample (f->page, "cargo-test"));
  wait_for_result (f);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "preview.copy-output", NULL));
  gdk_clipboard_read_text_async (clipboard, NULL, clipboard_read_cb, &copied);
  g_assert_true (test_ui_wait_for (string_set, &copied, 5000));
  g_assert_cmpstr (copied, ==,
                   winnow_pipeline_result_get_text (winnow_preview_page_get_result (f->page), NULL));
}

/* Emptying the input empties the result, and the actions that need one are disabled. */
static void
test_clear (Fixture       *f,
            gconstpointer  data)
{
  g_assert_true (winnow_preview_page_load_sample (f->page, "npm-install"));
  wait_for_result (f);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "preview.clear", NULL));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (f->command)), ==, "");
  while (winnow_preview_page_get_busy (f->page))
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (winnow_preview_page_get_result (f->page));
  g_assert_cmpstr (gtk_label_get_text (f->tokens), ==, "—");
}

static gboolean
count_tick (gpointer data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

/* A 5 MB log: the result arrives and the main loop keeps turning while the worker runs. */
static void
test_large_input (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *sample = corpus_sample ("make-compile-error.txt");
  GString *big = g_string_new (NULL);
  g_autofree char *input = NULL;
  guint ticks = 0;
  guint source;
  WinnowLineMap *map;

  while (big->len < 5 * 1024 * 1024)
    g_string_append (big, sample);
  input = g_string_free (big, FALSE);

  gtk_drop_down_set_selected (f->mode, 3); /* Stacked */
  gtk_editable_set_text (GTK_EDITABLE (f->command), "make");
  type_input (f, input);

  source = g_timeout_add (20, count_tick, &ticks);
  wait_for_result (f);
  g_source_remove (source);

  g_assert_cmpuint (ticks, >, 0);
  map = winnow_preview_page_get_line_map (f->page);
  g_assert_cmpuint (winnow_line_map_get_n_input_lines (map), ==,
                    gtk_text_buffer_get_line_count (gtk_text_view_get_buffer (f->original)));
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add ("/winnow/ui/preview/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("command-output", test_command_output);
  ADD ("prose-intensities", test_prose_intensities);
  ADD ("debounce-and-cancel", test_debounce_and_cancel);
  ADD ("load-sample", test_load_sample);
  ADD ("stage-selection", test_stage_selection);
  ADD ("synchronized-scrolling", test_synchronized_scrolling);
  ADD ("copy-output", test_copy_output);
  ADD ("clear", test_clear);
  ADD ("large-input", test_large_input);

#undef ADD

  return g_test_run ();
}
