/* test-ui-raw-output.c — the Raw Output page, driven through real widgets over a real store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtksourceview/gtksource.h>
#include <sqlite3.h>
#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-raw-output-page.h"
#include "winnow-store-private.h"
#include "winnow-window.h"

#define DAY_US (G_USEC_PER_SEC * (gint64) 86400)

/* a GitHub token of the right shape (not a real one) */
#define FAKE_TOKEN "ghp_" "abcdefghijklmnopqrstuvwxyz0123456789"

typedef struct
{
  char                *data_dir;
  WinnowContext       *context;
  WinnowStore         *store;
  WinnowWindow        *window;
  WinnowRawOutputPage *page;
  GPtrArray           *infos;     /* of WinnowRawOutputInfo, as seeded, oldest first */
} Fixture;

typedef enum
{
  SEED_NONE,
  SEED_FEW,
  SEED_MANY,
} Seeding;

static const char pytest_output[] =
  "============================= test session starts ==============================\n"
  "platform linux -- Python 3.11.2, pytest-7.2.1\n"
  "collected 3 items\n"
  "\n"
  "tests/test_api.py::test_login PASSED                                     [ 33%]\n"
  "tests/test_api.py::test_token FAILED                                     [ 66%]\n"
  "tests/test_api.py::test_logout PASSED                                    [100%]\n"
  "\n"
  "=================================== FAILURES ===================================\n"
  "__________________________________ test_token __________________________________\n"
  "    def test_token():\n"
  ">       assert client.login(password=\"hunter2-very-secret\") == 200\n"
  "E       AssertionError: assert 401 == 200\n"
  "tests/test_api.py:12: AssertionError\n"
  "=========================== short test summary info ============================\n"
  "FAILED tests/test_api.py::test_token - AssertionError: assert 401 == 200\n"
  "========================= 1 failed, 2 passed in 0.12s ==========================\n";

/* Keeps @text as `winnow run` does, through the engine's own redaction and file writing. */
static WinnowRawOutputInfo *
save (Fixture    *f,
      const char *command,
      const char *text,
      int         exit_code)
{
  WinnowRawOutputRequest request;
  WinnowRawOutputInfo *info;
  g_autoptr(GError) error = NULL;

  winnow_raw_output_request_init (&request, "run", text, strlen (text));
  request.command = command;
  request.has_exit_code = TRUE;
  request.exit_code = exit_code;
  request.has_errors = exit_code != 0;
  request.compressed = TRUE;
  info = winnow_store_save_raw_output (f->store, &request, 1 << 20, &error);
  g_assert_no_error (error);
  g_assert_nonnull (info);
  g_ptr_array_add (f->infos, info);
  return info;
}

/* An output kept @age_us ago: the store writes rows with the current time, so older ones are
 * recorded directly, with a file of their own. */
static void
save_old (Fixture    *f,
          const char *command,
          gint64      age_us,
          gboolean    failure)
{
  g_autoptr(GError) error = NULL;
  WinnowRawOutputInfo info = { 0 };
  g_autofree char *dir = winnow_store_get_raw_output_dir (f->store);
  g_autofree char *id = g_strdup_printf ("%024" G_GINT64_MODIFIER "x", age_us);
  g_autofree char *name = g_strdup_printf ("%" G_GINT64_FORMAT "-old-%s.log",
                                           (g_get_real_time () - age_us) / 1000, id);
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  test_util_write_file (path, "added 212 packages in 3s\n", -1);
  info.id = id;
  info.created_us = g_get_real_time () - age_us;
  info.bytes = info.original_bytes = 25;
  info.sha256 = (char *) "00";
  info.path = path;
  info.redactions = (char *) "{}";
  info.source = (char *) "run";
  info.command = (char *) command;
  info.has_exit_code = TRUE;
  info.exit_code = failure ? 2 : 0;
  info.failure = failure;
  g_assert_true (_winnow_store_insert_raw_output (f->store, &info, &error));
  g_assert_no_error (error);
}

static void
seed_many (Fixture *f,
           guint    n)
{
  g_autofree char *path = winnow_store_default_path (f->data_dir);
  g_autofree char *dir = winnow_store_get_raw_output_dir (f->store);
  gint64 start = g_get_real_time () - n * (gint64) G_USEC_PER_SEC;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);
  g_assert_cmpint (sqlite3_exec (db, "BEGIN", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO raw_outputs (id, created, bytes, sha256, "
                                       "path, command, exit_code, failure, source) "
                                       "VALUES (?1, ?2, 10, 'ab', ?3, ?4, ?5, ?6, 'run')",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("%024x", i);
      g_autofree char *file = g_strdup_printf ("%s/1-x-%s.log", dir, id);
      const char *command = i % 3 == 0 ? "npm test" : i % 3 == 1 ? "cargo build" : "git status";

      sqlite3_bind_text (stmt, 1, id, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (stmt, 2, start + i * (gint64) G_USEC_PER_SEC);
      sqlite3_bind_text (stmt, 3, file, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 4, command, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 5, i % 5 == 0 ? 1 : 0);
      sqlite3_bind_int (stmt, 6, i % 5 == 0);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static gboolean
page_settled (gpointer data)
{
  WinnowRawOutputPage *page = data;

  return !winnow_raw_output_page_get_busy (page) &&
         g_strcmp0 (winnow_raw_output_page_get_state (page), "loading") != 0;
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
  Seeding seeding = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;

  f->data_dir = g_dir_make_tmp ("winnow-ui-raw-XXXXXX", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->store = winnow_store_open_for_context (f->context, &error);
  g_assert_no_error (error);
  f->infos = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_raw_output_info_free);

  if (seeding == SEED_FEW)
    {
      save_old (f, "make all", 40 * DAY_US, TRUE);
      save_old (f, "npm install", 3 * DAY_US, FALSE);
      save (f, "git status", "On branch main\nexport GITHUB_TOKEN=" FAKE_TOKEN "\n"
            "nothing to commit, working tree clean\n", 0);
      save (f, "pytest -v", pytest_output, 1);
      save (f, "ls -la", "total 8\ndrwxr-xr-x 2 me me 4096 .\ndrwxr-xr-x 9 me me 4096 ..\n", 0);
    }
  else if (seeding == SEED_MANY)
    seed_many (f, 10000);

  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 800);
  winnow_window_set_page (f->window, "raw-output");
  gtk_window_present (GTK_WINDOW (f->window));
  test_ui_wait_mapped (GTK_WIDGET (f->window));

  f->page = WINNOW_RAW_OUTPUT_PAGE (test_ui_find (GTK_WIDGET (f->window),
                                                  WINNOW_TYPE_RAW_OUTPUT_PAGE, NULL));
  g_assert_nonnull (f->page);
  wait_settled (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->window);
  g_clear_pointer (&f->infos, g_ptr_array_unref);
  g_clear_object (&f->store);
  g_clear_object (&f->context);
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
}

static guint
n_rows (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (winnow_raw_output_page_get_list (f->page)));
}

static gboolean
item_loaded (gpointer data)
{
  return winnow_raw_output_item_get_loaded (data);
}

/* The row at @position once its page has arrived. */
static const WinnowRawOutputInfo *
row (Fixture *f,
     guint    position)
{
  g_autoptr(WinnowRawOutputItem) item = NULL;

  item = g_list_model_get_item (G_LIST_MODEL (winnow_raw_output_page_get_list (f->page)),
                                position);
  g_assert_nonnull (item);
  g_assert_true (test_ui_wait_for (item_loaded, item, 10000));
  /* the list holds the item: the info outlives this reference */
  return winnow_raw_output_item_get_info (item);
}

static guint
find_row (Fixture    *f,
          const char *command)
{
  for (guint i = 0; i < n_rows (f); i++)
    if (g_strcmp0 (row (f, i)->command, command) == 0)
      return i;

  g_assert_not_reached ();
}

static void
select_row (Fixture *f,
            guint    position)
{
  gtk_single_selection_set_selected (winnow_raw_output_page_get_selection (f->page), position);
  g_assert_true (winnow_raw_output_page_get_busy (f->page));
  wait_settled (f);
}

static GtkTextView *
view (Fixture *f,
      guint    index)
{
  g_autoptr(GPtrArray) views = test_ui_find_all (GTK_WIDGET (f->page), GTK_SOURCE_TYPE_VIEW);

  g_assert_cmpuint (views->len, ==, 2);
  return views->pdata[index];
}

static void
test_list (Fixture       *f,
           gconstpointer  data)
{
  const char * const newest_first[] = { "ls -la", "pytest -v", "git status", "npm install",
                                        "make all" };

  g_assert_cmpstr (winnow_raw_output_page_get_state (f->page), ==, "list");
  g_assert_cmpuint (n_rows (f), ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (newest_first); i++)
    g_assert_cmpstr (row (f, i)->command, ==, newest_first[i]);

  /* the token was redacted before it reached the disk, and counted */
  g_assert_cmpuint (row (f, 2)->failure, ==, FALSE);
  g_assert_nonnull (strstr (row (f, 2)->redactions, "github-token"));
  g_assert_true (row (f, 1)->failure);

  /* the cells show what the rows hold */
  test_ui_wait_frames (GTK_WIDGET (f->window), 3);
  g_assert_nonnull (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW, NULL));
  {
    g_autoptr(GPtrArray) labels = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_LABEL);
    gboolean saw_pytest = FALSE, saw_exit = FALSE;

    for (guint i = 0; i < labels->len; i++)
      {
        const char *text = gtk_label_get_text (labels->pdata[i]);

        saw_pytest |= g_str_equal (text, "pytest -v");
        saw_exit |= g_str_equal (text, "exit 1");
      }
    g_assert_true (saw_pytest);
    g_assert_true (saw_exit);
  }
}

static void
test_filters (Fixture       *f,
              gconstpointer  data)
{
  winnow_raw_output_page_set_search (f->page, "GIT");
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 1);
  g_assert_cmpstr (row (f, 0)->command, ==, "git status");

  winnow_raw_output_page_set_search (f->page, "no such command");
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 0);
  g_assert_cmpstr (winnow_raw_output_page_get_state (f->page), ==, "no-match");

  winnow_raw_output_page_set_search (f->page, "");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "raw-output.failures-only",
                                             NULL));
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 2);
  g_assert_cmpstr (row (f, 0)->command, ==, "pytest -v");
  g_assert_cmpstr (row (f, 1)->command, ==, "make all");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "raw-output.failures-only",
                                             NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "raw-output.since", "s",
                                             "7d"));
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 4);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "raw-output.since", "s",
                                             "24h"));
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "raw-output.since", "s",
                                             "all"));
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 5);
}

static GtkColumnViewColumn *
column (Fixture    *f,
        const char *title)
{
  GtkColumnView *column_view = GTK_COLUMN_VIEW (test_ui_find (GTK_WIDGET (f->page),
                                                              GTK_TYPE_COLUMN_VIEW, NULL));
  GListModel *columns = gtk_column_view_get_columns (column_view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, i);

      if (g_str_equal (gtk_column_view_column_get_title (c), title))
        return c;
    }

  g_assert_not_reached ();
}

static void
test_sort (Fixture       *f,
           gconstpointer  data)
{
  GtkColumnView *column_view = GTK_COLUMN_VIEW (test_ui_find (GTK_WIDGET (f->page),
                                                              GTK_TYPE_COLUMN_VIEW, NULL));
  const char * const by_command[] = { "git status", "ls -la", "make all", "npm install",
                                      "pytest -v" };

  gtk_column_view_sort_by_column (column_view, column (f, "Command"), GTK_SORT_ASCENDING);
  wait_settled (f);
  for (guint i = 0; i < G_N_ELEMENTS (by_command); i++)
    g_assert_cmpstr (row (f, i)->command, ==, by_command[i]);

  gtk_column_view_sort_by_column (column_view, column (f, "Command"), GTK_SORT_DESCENDING);
  wait_settled (f);
  g_assert_cmpstr (row (f, 0)->command, ==, "pytest -v");

  /* oldest first comes from the store, paged like newest first */
  gtk_column_view_sort_by_column (column_view, column (f, "Time"), GTK_SORT_ASCENDING);
  wait_settled (f);
  g_assert_cmpstr (row (f, 0)->command, ==, "make all");
  g_assert_cmpstr (row (f, 4)->command, ==, "ls -la");

  gtk_column_view_sort_by_column (column_view, column (f, "Redactions"), GTK_SORT_DESCENDING);
  wait_settled (f);
  g_assert_true (g_str_equal (row (f, 0)->command, "git status") ||
                 g_str_equal (row (f, 0)->command, "pytest -v"));
  g_assert_false (winnow_raw_output_list_get_sort_limited (winnow_raw_output_page_get_list (f->page)));
}

static gboolean
has_redaction_tag (GtkTextView *text_view,
                   const char  *marker)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (text_view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer),
                                               "redaction");
  g_autofree char *text = test_ui_buffer_text (text_view);
  const char *found = strstr (text, marker);
  GtkTextIter start, end;

  if (found == NULL)
    return FALSE;

  gtk_text_buffer_get_iter_at_offset (buffer, &start,
                                      (int) g_utf8_pointer_to_offset (text, found));
  end = start;
  gtk_text_iter_forward_chars (&end, (int) g_utf8_strlen (marker, -1) - 1);
  return gtk_text_iter_has_tag (&start, tag) && gtk_text_iter_has_tag (&end, tag);
}

static void
test_select (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *raw = NULL;
  g_autofree char *compressed = NULL;

  select_row (f, find_row (f, "git status"));
  raw = test_ui_buffer_text (view (f, 0));
  compressed = test_ui_buffer_text (view (f, 1));
  g_assert_null (strstr (raw, FAKE_TOKEN));
  g_assert_nonnull (strstr (raw, "GITHUB_TOKEN=[REDACTED_GITHUB_TOKEN]"));
  g_assert_true (has_redaction_tag (view (f, 0), "[REDACTED_GITHUB_TOKEN]"));
  /* the text around the marker is not highlighted */
  g_assert_false (has_redaction_tag (view (f, 0), "On branch"));
  g_assert_cmpstr (compressed, !=, "");
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (view (f, 1))));

  /* a failing test run: its password redacted, its failure kept by the pytest filter */
  select_row (f, find_row (f, "pytest -v"));
  g_free (raw);
  g_free (compressed);
  raw = test_ui_buffer_text (view (f, 0));
  compressed = test_ui_buffer_text (view (f, 1));
  g_assert_null (strstr (raw, "hunter2-very-secret"));
  g_assert_nonnull (strstr (raw, "[REDACTED"));
  g_assert_nonnull (strstr (compressed, "test_token"));
  g_assert_cmpuint (strlen (compressed), <, strlen (raw));
  g_assert_nonnull (winnow_raw_output_page_get_filter_id (f->page));

  /* Open in Preview hands the text and command over */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "raw-output.open-in-preview",
                                             NULL));
  g_assert_cmpstr (winnow_window_get_page (f->window), ==, "preview");
  {
    WinnowPreviewPage *preview = winnow_window_get_preview_page (f->window);
    g_autofree char *input = winnow_preview_page_dup_input (preview);

    g_assert_cmpstr (input, ==, raw);
    g_assert_cmpstr (winnow_preview_page_get_command (preview), ==, "pytest -v");
  }
}

/* A built-in filter is read-only: the test is not added and the Filters page shows it. */
static void
test_make_test_read_only (Fixture       *f,
                          gconstpointer  data)
{
  WinnowFilterEditor *editor;
  g_autofree char *before = NULL;

  select_row (f, find_row (f, "pytest -v"));
  g_assert_nonnull (winnow_raw_output_page_get_filter_id (f->page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "raw-output.make-test", NULL));
  g_assert_cmpstr (winnow_window_get_page (f->window), ==, "filters");

  editor = winnow_filters_page_get_editor (winnow_window_get_filters_page (f->window));
  g_assert_true (winnow_filter_editor_get_read_only (editor));
  g_assert_false (winnow_filter_editor_get_dirty (editor));
  before = g_strdup (winnow_filter_editor_get_text (editor));
  g_assert_nonnull (strstr (before, winnow_raw_output_page_get_filter_id (f->page)));
}

static void
test_delete (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint position = find_row (f, "git status");
  g_autofree char *path = g_strdup (row (f, position)->path);
  g_autofree char *id = g_strdup (row (f, position)->id);

  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  select_row (f, position);
  g_assert_true (winnow_raw_output_page_delete_selected (f->page, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (n_rows (f), ==, 4);
  for (guint i = 0; i < n_rows (f); i++)
    g_assert_cmpstr (row (f, i)->command, !=, "git status");
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, NULL, &error), ==, 4);
  g_assert_null (winnow_store_lookup_raw_output (f->store, id, NULL));
  /* nothing stays selected, nothing is shown */
  g_assert_cmpuint (gtk_single_selection_get_selected (winnow_raw_output_page_get_selection (f->page)),
                    ==, GTK_INVALID_LIST_POSITION);
  {
    g_autofree char *raw = test_ui_buffer_text (view (f, 0));

    g_assert_cmpstr (raw, ==, "");
  }

  /* the same list again after a refresh */
  winnow_raw_output_page_refresh (f->page);
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 4);
}

static void
test_purge (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (winnow_raw_output_page_purge (f->page, 30, &error), ==, 1);
  g_assert_no_error (error);
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 4);
  g_assert_cmpint (winnow_raw_output_page_purge (f->page, 1, &error), ==, 1);
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 3);
}

static void
test_empty (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *status;

  g_assert_cmpstr (winnow_raw_output_page_get_state (f->page), ==, "empty");
  g_assert_cmpuint (n_rows (f), ==, 0);
  status = test_ui_find (GTK_WIDGET (f->page), ADW_TYPE_STATUS_PAGE, NULL);
  g_assert_nonnull (status);
  g_assert_true (gtk_widget_is_visible (status));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)),
                            "rawOutputRetention"));

  /* an output kept while the page is open shows after a refresh */
  save (f, "ls", "a\nb\n", 0);
  winnow_raw_output_page_refresh (f->page);
  wait_settled (f);
  g_assert_cmpstr (winnow_raw_output_page_get_state (f->page), ==, "list");
  g_assert_cmpuint (n_rows (f), ==, 1);
}

static void
test_retention_settings (Fixture       *f,
                         gconstpointer  data)
{
  GtkDropDown *dropdown = NULL;
  GtkSpinButton *spin;
  g_autoptr(GPtrArray) dropdowns = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_DROP_DOWN);
  g_autofree char *path = g_build_filename (f->data_dir, "settings.json", NULL);
  g_autofree char *text = NULL;
  WinnowConfig *config;

  test_util_write_file (path, "{\"rtkConfig\": {\"rawOutputMaxBytes\": 4096}, "
                        "\"retentionDays\": 12}", -1);
  /* the context reads the file again through the engine helper */
  g_assert_true (winnow_context_set_raw_output_retention (f->context, "never", 4096, NULL));
  winnow_raw_output_page_refresh (f->page);

  g_assert_cmpuint (dropdowns->len, ==, 1);
  dropdown = dropdowns->pdata[0];
  spin = GTK_SPIN_BUTTON (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_SPIN_BUTTON, NULL));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 4);

  gtk_drop_down_set_selected (dropdown, 2);
  config = winnow_context_get_config (f->context);
  g_assert_cmpstr (winnow_config_get_raw_output_retention (config), ==, "always");
  gtk_spin_button_set_value (spin, 64);
  config = winnow_context_get_config (f->context);
  g_assert_cmpuint (winnow_config_get_raw_output_max_bytes (config), ==, 64 * 1024);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"rawOutputRetention\" : \"always\""));
  g_assert_nonnull (strstr (text, "\"rawOutputMaxBytes\" : 65536"));
  /* the rest of the file is kept */
  g_assert_nonnull (strstr (text, "\"retentionDays\" : 12"));

  /* a broken file is refused, and the controls show what is in force */
  test_util_write_file (path, "{ not json", -1);
  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 2);
  g_free (text);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "{ not json");
}

static void
test_many (Fixture       *f,
           gconstpointer  data)
{
  WinnowRawOutputList *list = winnow_raw_output_page_get_list (f->page);
  GtkColumnView *column_view = GTK_COLUMN_VIEW (test_ui_find (GTK_WIDGET (f->page),
                                                              GTK_TYPE_COLUMN_VIEW, NULL));
  GtkWidget *list_view = test_ui_find (GTK_WIDGET (column_view), GTK_TYPE_LIST_VIEW, NULL);
  guint pages_shown;

  g_assert_cmpuint (n_rows (f), ==, 10000);
  test_ui_wait_frames (GTK_WIDGET (f->window), 5);
  g_assert_nonnull (row (f, 0));
  pages_shown = winnow_raw_output_list_get_n_pages_fetched (list);
  g_test_message ("pages read to show the first screen: %u", pages_shown);
  g_assert_cmpuint (pages_shown, >=, 1);
  g_assert_cmpuint (pages_shown, <, 10000 / WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE);
  g_assert_cmpuint (winnow_raw_output_list_get_n_rows_fetched (list), <, 10000);

  /* the last row, straight away: only its page is read */
  g_assert_nonnull (list_view);
  gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", 9999);
  g_assert_cmpstr (row (f, 9999)->id, ==, "000000000000000000000000");
  test_ui_wait_frames (GTK_WIDGET (f->window), 5);
  g_assert_cmpuint (winnow_raw_output_list_get_n_pages_fetched (list), <=, pages_shown + 3);
  g_assert_cmpuint (winnow_raw_output_list_get_n_rows_fetched (list), <, 10000);

  /* filters are counted by the store, not by reading rows */
  winnow_raw_output_page_set_search (f->page, "cargo");
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 3333);

  /* sorting 10 000 rows by command is not done here: the list says so and stays by time */
  winnow_raw_output_page_set_search (f->page, "");
  gtk_column_view_sort_by_column (column_view, column (f, "Command"), GTK_SORT_ASCENDING);
  wait_settled (f);
  g_assert_true (winnow_raw_output_list_get_sort_limited (list));
  g_assert_cmpuint (n_rows (f), ==, 10000);
  g_assert_cmpstr (row (f, 0)->id, ==, "00000000000000000000270f");
  /* within the limit it does sort */
  winnow_raw_output_page_set_search (f->page, "npm");
  wait_settled (f);
  g_assert_cmpuint (n_rows (f), ==, 3334);
  g_assert_false (winnow_raw_output_list_get_sort_limited (list));
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

#define ADD(path, func, seeding) \
  g_test_add ("/winnow/ui/raw-output/" path, Fixture, GINT_TO_POINTER (seeding), \
              fixture_set_up, func, fixture_tear_down)

  ADD ("list", test_list, SEED_FEW);
  ADD ("filters", test_filters, SEED_FEW);
  ADD ("sort", test_sort, SEED_FEW);
  ADD ("select", test_select, SEED_FEW);
  ADD ("make-test-read-only", test_make_test_read_only, SEED_FEW);
  ADD ("delete", test_delete, SEED_FEW);
  ADD ("purge", test_purge, SEED_FEW);
  ADD ("empty", test_empty, SEED_NONE);
  ADD ("retention-settings", test_retention_settings, SEED_NONE);
  ADD ("many", test_many, SEED_MANY);

#undef ADD

  return g_test_run ();
}
