/* test-ui-filters.c — the Filters page and the filter editor, driven through real widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-window.h"

typedef struct
{
  char               *data_dir;
  WinnowContext      *context;
  WinnowWindow       *window;
  WinnowFiltersPage  *page;
  WinnowFilterEditor *editor;
  GtkTextView        *json_view;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GPtrArray) views = NULL;

  f->data_dir = g_dir_make_tmp ("winnow-ui-filters-XXXXXX", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  winnow_window_set_page (f->window, "filters");
  gtk_window_present (GTK_WINDOW (f->window));
  test_ui_wait_mapped (GTK_WIDGET (f->window));

  f->page = WINNOW_FILTERS_PAGE (test_ui_find (GTK_WIDGET (f->window), WINNOW_TYPE_FILTERS_PAGE, NULL));
  f->editor = winnow_filters_page_get_editor (f->page);
  views = test_ui_find_all (GTK_WIDGET (f->editor), GTK_SOURCE_TYPE_VIEW);
  f->json_view = GTK_TEXT_VIEW (g_ptr_array_index (views, 0));
  g_assert_true (gtk_text_view_get_monospace (f->json_view));
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
editor_settled (gpointer data)
{
  return !winnow_filter_editor_get_busy (data);
}

static void
wait_for_editor (Fixture *f)
{
  g_assert_true (test_ui_wait_for (editor_settled, f->editor, 30000));
}

static gboolean
page_verified (gpointer data)
{
  return winnow_filters_page_get_verified (data);
}

static void
open_copy_of (Fixture    *f,
              const char *id)
{
  g_assert_true (winnow_filters_page_show_filter (f->page, id));
  wait_for_editor (f);
  g_assert_true (winnow_filter_editor_get_read_only (f->editor));
  g_assert_cmpuint (winnow_filter_editor_get_n_failed (f->editor), ==, 0);
  g_assert_cmpuint (winnow_filter_editor_get_n_passed (f->editor), >, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "editor.duplicate", NULL));
  g_assert_false (winnow_filter_editor_get_read_only (f->editor));
  wait_for_editor (f);
}

static void
type_json (Fixture    *f,
           const char *text)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (f->json_view), text, -1);
}

static char *
json_with_extra_drop (const char *text,
                      const char *pattern)
{
  GString *out = g_string_new (text);
  const char *marker = "\"dropPatterns\" : [";
  const char *at = strstr (out->str, marker);
  g_autofree char *entry = g_strdup_printf ("\n        \"%s\",", pattern);

  g_assert_nonnull (at);
  g_string_insert (out, at - out->str + strlen (marker), entry);
  return g_string_free (out, FALSE);
}

static GtkWidget *
entry_row_with_text (GtkWidget  *root,
                     const char *text)
{
  g_autoptr(GPtrArray) rows = test_ui_find_all (root, ADW_TYPE_ENTRY_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (gtk_editable_get_text (g_ptr_array_index (rows, i)), text) == 0)
      return g_ptr_array_index (rows, i);

  return NULL;
}

/* The list holds the whole catalog, grouped; every built-in filter's tests pass. */
static void
test_list (Fixture       *f,
           gconstpointer  data)
{
  GListModel *model = winnow_filters_page_get_model (f->page);
  GtkSearchEntry *search;

  g_assert_cmpuint (g_list_model_get_n_items (model), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (winnow_context_get_catalog (f->context))));
  g_assert_true (test_ui_wait_for (page_verified, f->page, 60000));
  g_assert_cmpuint (winnow_filters_page_get_n_failing (f->page, "git-status"), ==, 0);

  search = GTK_SEARCH_ENTRY (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_SEARCH_ENTRY, NULL));
  gtk_editable_set_text (GTK_EDITABLE (search), "pytest");
  g_signal_emit_by_name (search, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), <, 5);

  /* a row's switch turns its filter off in the settings */
  test_ui_wait_frames (GTK_WIDGET (f->window), 2);
  {
    g_autoptr(GPtrArray) switches = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_SWITCH);
    g_autofree char *settings = g_build_filename (f->data_dir, "settings.json", NULL);
    g_autofree char *text = NULL;
    GtkSwitch *sw = NULL;
    g_autofree char *id = NULL;

    for (guint i = 0; i < switches->len && sw == NULL; i++)
      if (g_object_get_data (g_ptr_array_index (switches, i), "filter-id") != NULL)
        sw = g_ptr_array_index (switches, i);
    g_assert_nonnull (sw);
    id = g_strdup (g_object_get_data (G_OBJECT (sw), "filter-id"));
    g_assert_true (gtk_switch_get_active (sw));

    gtk_switch_set_active (sw, FALSE);
    g_assert_false (winnow_config_is_filter_enabled (winnow_context_get_config (f->context), id));
    g_assert_true (g_file_get_contents (settings, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, id));

    /* settings changed elsewhere (Preferences, the API): the switch follows */
    {
      const char *filter_id = id;
      g_autoptr(JsonNode) patch = json_from_string ("{\"rtkConfig\": {\"disabledFilters\": []}}",
                                                    NULL);
      g_autoptr(GPtrArray) again = NULL;
      g_autoptr(GError) error = NULL;
      GtkSwitch *now = NULL;

      g_assert_true (winnow_context_update_settings (f->context, json_node_get_object (patch),
                                                     &error));
      g_assert_no_error (error);
      g_assert_true (winnow_config_is_filter_enabled (winnow_context_get_config (f->context),
                                                      filter_id));
      test_ui_wait_frames (GTK_WIDGET (f->window), 2);
      again = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_SWITCH);
      for (guint i = 0; i < again->len && now == NULL; i++)
        if (g_strcmp0 (g_object_get_data (g_ptr_array_index (again, i), "filter-id"),
                       filter_id) == 0)
          now = g_ptr_array_index (again, i);
      g_assert_nonnull (now);
      g_assert_true (gtk_switch_get_active (now));
    }
  }
}

/* A pattern that drops what a test expects: the test fails with a diff and the Tests view
 * says so; taking the pattern out makes it pass again. */
static void
test_breaking_and_fixing (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *original = NULL;
  g_autofree char *broken = NULL;
  g_autoptr(GPtrArray) labels = NULL;
  gboolean diff_shown = FALSE;

  open_copy_of (f, "test-pytest");
  original = g_strdup (winnow_filter_editor_get_text (f->editor));

  broken = json_with_extra_drop (original, "FAILED");
  type_json (f, broken);
  wait_for_editor (f);
  g_assert_cmpuint (winnow_filter_editor_get_n_failed (f->editor), >, 0);

  labels = test_ui_find_all (GTK_WIDGET (f->editor), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_text (g_ptr_array_index (labels, i)), "+++ actual") != NULL)
      diff_shown = TRUE;
  g_assert_true (diff_shown);

  type_json (f, original);
  wait_for_editor (f);
  g_assert_cmpuint (winnow_filter_editor_get_n_failed (f->editor), ==, 0);
}

/* An invalid regex typed in the form: the row says so, and saving is refused. */
static void
test_invalid_regex_refused (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = winnow_context_get_global_filters_path (f->context);
  GtkWidget *row;
  g_autoptr(GPtrArray) labels = NULL;
  gboolean said = FALSE;

  open_copy_of (f, "git-status");
  row = entry_row_with_text (GTK_WIDGET (f->editor), "^\\s*$");
  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), "(unclosed");
  wait_for_editor (f);

  labels = test_ui_find_all (row, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), "does not compile") == 0)
      said = TRUE;
  g_assert_true (said);
  g_assert_nonnull (strstr (winnow_filter_editor_get_problems (f->editor), "rules.dropPatterns[0]"));

  g_assert_false (winnow_filter_editor_save (f->editor, &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* Saving writes the user's pack; it loads back as the same filter, and takes the built-in
 * one's place in the catalog. */
static void
test_save_and_reload (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = winnow_context_get_global_filters_path (f->context);
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GPtrArray) edited = NULL;
  g_autofree char *saved_json = NULL;
  g_autofree char *edited_json = NULL;
  GtkWidget *row;
  WinnowFilter *in_catalog;

  open_copy_of (f, "git-status");
  row = entry_row_with_text (GTK_WIDGET (f->editor), "git status");
  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), "git status (mine)");
  wait_for_editor (f);
  g_assert_true (winnow_filter_editor_get_dirty (f->editor));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "editor.save", NULL));
  g_assert_false (winnow_filter_editor_get_dirty (f->editor));
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));

  saved = winnow_filter_pack_load_file (path, WINNOW_FILTER_SOURCE_GLOBAL,
                                        WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  g_assert_cmpuint (saved->len, ==, 1);
  edited = winnow_filter_pack_parse (winnow_filter_editor_get_text (f->editor), -1,
                                     WINNOW_FILTER_SOURCE_GLOBAL, path,
                                     WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
  saved_json = winnow_filter_to_json (g_ptr_array_index (saved, 0));
  edited_json = winnow_filter_to_json (g_ptr_array_index (edited, 0));
  g_assert_cmpstr (saved_json, ==, edited_json);

  in_catalog = winnow_catalog_lookup (winnow_context_get_catalog (f->context), "git-status");
  g_assert_cmpint (winnow_filter_get_source (in_catalog), ==, WINNOW_FILTER_SOURCE_GLOBAL);
  g_assert_cmpstr (winnow_filter_get_label (in_catalog), ==, "git status (mine)");
}

/* The form and the JSON are one document: an edit in either shows in the other, and a JSON
 * text that does not parse keeps what was typed. */
static void
test_form_and_json (Fixture       *f,
                    gconstpointer  data)
{
  AdwViewStack *views;
  GtkWidget *row;
  g_autofree char *buffer_text = NULL;
  GtkStack *form_stack;
  GtkSourceLanguage *language;

  open_copy_of (f, "git-status");
  views = ADW_VIEW_STACK (test_ui_find (GTK_WIDGET (f->editor), ADW_TYPE_VIEW_STACK, NULL));

  row = entry_row_with_text (GTK_WIDGET (f->editor), "git");
  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), "vcs");
  adw_view_stack_set_visible_child_name (views, "json");
  buffer_text = test_ui_buffer_text (f->json_view);
  g_assert_nonnull (strstr (buffer_text, "\"vcs\""));
  /* highlighted as JSON once shown (the language is loaded then, not with the page) */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (f->json_view)));
  language = gtk_source_buffer_get_language (
    GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (f->json_view)));
  g_assert_nonnull (language);
  g_assert_cmpstr (gtk_source_language_get_id (language), ==, "json");

  /* JSON → form */
  {
    g_autofree char *renamed = NULL;
    GString *s = g_string_new (buffer_text);

    g_string_replace (s, "\"vcs\"", "\"source-control\"", 1);
    renamed = g_string_free (s, FALSE);
    type_json (f, renamed);
    wait_for_editor (f);
  }
  adw_view_stack_set_visible_child_name (views, "form");
  g_assert_nonnull (entry_row_with_text (GTK_WIDGET (f->editor), "source-control"));

  /* a broken text: the form steps aside, the text stays as typed */
  type_json (f, "{ \"id\": \"git-status\", ");
  wait_for_editor (f);
  form_stack = GTK_STACK (gtk_widget_get_parent (test_ui_find (GTK_WIDGET (f->editor),
                                                               ADW_TYPE_STATUS_PAGE, NULL)));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (form_stack), ==, "invalid");
  adw_view_stack_set_visible_child_name (views, "json");
  g_free (buffer_text);
  buffer_text = test_ui_buffer_text (f->json_view);
  g_assert_cmpstr (buffer_text, ==, "{ \"id\": \"git-status\", ");
  wait_for_editor (f);
  g_assert_cmpstr (winnow_filter_editor_get_text (f->editor), ==, "{ \"id\": \"git-status\", ");
}

/* Undo and redo walk back and forth through the edits. */
static void
test_undo_redo (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  GtkWidget *row;

  open_copy_of (f, "git-status");
  before = g_strdup (winnow_filter_editor_get_text (f->editor));
  row = entry_row_with_text (GTK_WIDGET (f->editor), "git status");
  gtk_editable_set_text (GTK_EDITABLE (row), "status of git");
  wait_for_editor (f);
  after = g_strdup (winnow_filter_editor_get_text (f->editor));
  g_assert_cmpstr (after, !=, before);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "editor.undo", NULL));
  g_assert_nonnull (strstr (winnow_filter_editor_get_text (f->editor), "\"git status\""));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "editor.redo", NULL));
  g_assert_cmpstr (winnow_filter_editor_get_text (f->editor), ==, after);
}

/* A test made from the Preview input passes at once: its expected output is the filter's. */
static void
test_add_test_from_preview (Fixture       *f,
                            gconstpointer  data)
{
  guint passed;

  open_copy_of (f, "git-status");
  passed = winnow_filter_editor_get_n_passed (f->editor);
  winnow_filters_page_set_sample (f->page, "On branch main\nnothing to commit, working tree clean\n",
                                  "git status");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "editor.add-test", NULL));
  wait_for_editor (f);
  g_assert_cmpuint (winnow_filter_editor_get_n_passed (f->editor), ==, passed + 1);
  g_assert_cmpuint (winnow_filter_editor_get_n_failed (f->editor), ==, 0);
  g_assert_nonnull (strstr (winnow_filter_editor_get_text (f->editor), "from the preview"));
}

/* A copy saved into a project: the project's pack holds it, and the project is not trusted
 * until someone approves the new file. */
static void
test_duplicate_to_project (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *project = g_build_filename (f->data_dir, "project", NULL);
  g_autofree char *pack = g_build_filename (project, ".rtk", "filters.json", NULL);
  g_autoptr(WinnowTrustStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  g_assert_true (winnow_filters_page_show_filter (f->page, "git-status"));
  wait_for_editor (f);
  winnow_filter_editor_duplicate_to_project (f->editor, project);
  wait_for_editor (f);
  g_assert_false (winnow_filter_editor_get_read_only (f->editor));
  g_assert_cmpstr (winnow_filter_editor_get_file (f->editor), ==, pack);

  g_assert_true (winnow_filter_editor_save (f->editor, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (pack, G_FILE_TEST_EXISTS));

  status = winnow_trust_check (project, FALSE);
  g_assert_false (winnow_trust_status_is_trusted (status));
}

static gboolean
not_learning (gpointer data)
{
  return !winnow_filters_page_get_learning (data);
}

/* New from samples: the learner's draft opens as a new filter of the user's pack, its tests
 * are the samples and pass, and it saves. */
static void
test_new_from_samples (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "corpus", "samples",
                                                 "pytest-long-verbose.txt", NULL);
  g_autofree char *pack = winnow_context_get_global_filters_path (f->context);
  g_autofree char *text = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&text), length);
  g_ptr_array_add (samples, winnow_learn_sample_new ("pytest-long-verbose", bytes));

  winnow_filters_page_new_from_samples (f->page, "pytest -v tests_long", samples);
  g_assert_true (test_ui_wait_for (not_learning, f->page, 60000));
  wait_for_editor (f);

  g_assert_false (winnow_filter_editor_get_read_only (f->editor));
  g_assert_true (winnow_filter_editor_get_dirty (f->editor));
  g_assert_cmpuint (winnow_filter_editor_get_n_passed (f->editor), ==, 1);
  g_assert_cmpuint (winnow_filter_editor_get_n_failed (f->editor), ==, 0);
  g_assert_cmpstr (winnow_filter_editor_get_file (f->editor), ==, pack);

  g_assert_true (winnow_filter_editor_save (f->editor, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (pack, G_FILE_TEST_EXISTS));
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add ("/winnow/ui/filters/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("list", test_list);
  ADD ("breaking-and-fixing", test_breaking_and_fixing);
  ADD ("invalid-regex-refused", test_invalid_regex_refused);
  ADD ("save-and-reload", test_save_and_reload);
  ADD ("form-and-json", test_form_and_json);
  ADD ("undo-redo", test_undo_redo);
  ADD ("add-test-from-preview", test_add_test_from_preview);
  ADD ("new-from-samples", test_new_from_samples);
  ADD ("duplicate-to-project", test_duplicate_to_project);

#undef ADD

  return g_test_run ();
}
