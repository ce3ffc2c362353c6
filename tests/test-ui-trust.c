/* test-ui-trust.c — the Trust page, driven through real widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-window.h"

#define FILTERS \
  "[\n" \
  "  {\n" \
  "    \"id\": \"acme-build\",\n" \
  "    \"label\": \"acme build\",\n" \
  "    \"category\": \"build\",\n" \
  "    \"match\": { \"commands\": [\"^acme\\\\s+build\\\\b\"] },\n" \
  "    \"rules\": { \"dropPatterns\": [\"^\\\\s*$\", \"^acme: compiling \\\\S+$\"] },\n" \
  "    \"preserve\": { \"errorPatterns\": [\"\\\\berror\\\\b\"] },\n" \
  "    \"tests\": [\n" \
  "      { \"name\": \"compiling lines go\", \"command\": \"acme build\",\n" \
  "        \"input\": \"acme: compiling a.c\\nacme: compiling b.c\\nerror: b.c: bad\\n\",\n" \
  "        \"expected\": \"error: b.c: bad\" }\n" \
  "    ]\n" \
  "  }\n" \
  "]\n"

/* drops every line with a letter in it: the page must warn */
#define RISKY_FILTERS \
  "{ \"id\": \"acme-quiet\", \"label\": \"acme quiet\", \"category\": \"build\",\n" \
  "  \"match\": { \"commands\": [\"^acme\\\\b\"] },\n" \
  "  \"rules\": { \"dropPatterns\": [\"[a-z]\"] } }\n"

typedef struct
{
  char            *data_dir;
  char            *project;
  char            *filters_path;
  char            *trust_path;
  WinnowContext   *context;
  WinnowWindow    *window;
  WinnowTrustPage *page;
} Fixture;

static char *
make_project (const char *contents)
{
  char *dir = g_dir_make_tmp ("winnow-ui-trust-XXXXXX", NULL);
  g_autofree char *rtk = g_build_filename (dir, ".rtk", NULL);

  if (contents != NULL)
    {
      g_autofree char *path = g_build_filename (rtk, "filters.json", NULL);

      g_assert_cmpint (g_mkdir (rtk, 0755), ==, 0);
      test_util_write_file (path, contents, -1);
    }
  return dir;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  /* each test starts with no remembered projects */
  g_settings_reset (settings, "recent-projects");

  f->data_dir = g_dir_make_tmp ("winnow-ui-trust-data-XXXXXX", NULL);
  f->project = make_project (data ? data : FILTERS);
  f->filters_path = g_build_filename (f->project, ".rtk", "filters.json", NULL);
  f->trust_path = g_build_filename (f->project, ".rtk", "trust.json", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  winnow_window_set_page (f->window, "trust");
  gtk_window_present (GTK_WINDOW (f->window));
  test_ui_wait_mapped (GTK_WIDGET (f->window));

  f->page = WINNOW_TRUST_PAGE (test_ui_find (GTK_WIDGET (f->window), WINNOW_TYPE_TRUST_PAGE, NULL));
  g_assert_nonnull (f->page);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->window);
  g_clear_object (&f->context);
  test_util_remove_tree (f->project);
  test_util_remove_tree (f->data_dir);
  g_free (f->filters_path);
  g_free (f->trust_path);
  g_free (f->project);
  g_free (f->data_dir);
}

static gboolean
page_settled (gpointer data)
{
  WinnowTrustPage *page = data;

  return !winnow_trust_page_get_busy (page) && winnow_trust_page_get_status (page) != NULL;
}

static void
wait_settled (Fixture *f)
{
  g_assert_true (test_ui_wait_for (page_settled, f->page, 30000));
}

typedef struct
{
  WinnowTrustPage  *page;
  WinnowTrustState  state;
} StateWait;

static gboolean
has_state (gpointer data)
{
  StateWait *w = data;

  return page_settled (w->page) &&
         winnow_trust_status_get_state (winnow_trust_page_get_status (w->page)) == w->state;
}

static void
wait_state (Fixture          *f,
            WinnowTrustState  state)
{
  StateWait w = { f->page, state };

  if (!test_ui_wait_for (has_state, &w, 10000))
    g_error ("the page shows %s, not %s",
             winnow_trust_state_to_string (winnow_trust_status_get_state (winnow_trust_page_get_status (f->page))),
             winnow_trust_state_to_string (state));
}

static void
open_project (Fixture *f)
{
  winnow_trust_page_open_project (f->page, f->project);
  wait_settled (f);
}

static const char *
label_named (Fixture    *f,
             const char *name)
{
  GtkWidget *label = test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL, name);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static gboolean
button_sensitive (Fixture    *f,
                  const char *action)
{
  g_autoptr(GPtrArray) buttons = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (g_ptr_array_index (buttons, i)), action) == 0)
      return gtk_widget_is_sensitive (g_ptr_array_index (buttons, i));

  g_error ("no button for %s", action);
  return FALSE;
}

static gboolean
page_has_text (Fixture    *f,
               const char *needle)
{
  g_autoptr(GPtrArray) labels = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_text (g_ptr_array_index (labels, i)), needle) != NULL)
      return TRUE;
  return FALSE;
}

static AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

/* Opens the approve dialog through the page's action. */
static AdwMessageDialog *
open_approve_dialog (Fixture *f)
{
  AdwMessageDialog *dialog;

  g_assert_true (button_sensitive (f, "trust.approve"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "trust.approve", NULL));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  return dialog;
}

static void
respond (AdwMessageDialog *dialog,
         const char       *response)
{
  adw_message_dialog_response (dialog, response);
  if (find_dialog () == dialog)
    gtk_window_destroy (GTK_WINDOW (dialog));
}

static gboolean
context_has_filter (Fixture    *f,
                    const char *id)
{
  g_autoptr(WinnowContext) context = winnow_context_new (f->data_dir, f->project);
  WinnowFilter *filter = winnow_catalog_lookup (winnow_context_get_catalog (context), id);

  return filter != NULL && winnow_filter_get_source (filter) == WINNOW_FILTER_SOURCE_PROJECT;
}

/* Untrusted at first; approving through the dialog writes the file's hash and a new
 * engine context loads the project's filter. */
static void
test_approve (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *hash = winnow_trust_hash_file (f->filters_path, NULL);
  g_autofree char *trust = NULL;
  AdwMessageDialog *dialog;
  const char *summary;

  open_project (f);
  g_assert_cmpint (winnow_trust_status_get_state (winnow_trust_page_get_status (f->page)), ==,
                   WINNOW_TRUST_UNTRUSTED);
  g_assert_cmpstr (label_named (f, "trust-state-title"), ==, "Not Approved");
  g_assert_cmpstr (label_named (f, "trust-current-sha"), ==, hash);
  g_assert_cmpstr (label_named (f, "trust-trusted-sha"), ==, "never approved");
  g_assert_false (button_sensitive (f, "trust.revoke"));
  g_assert_false (context_has_filter (f, "acme-build"));

  /* the filter's row: what it does and its own test, run */
  g_assert_true (page_has_text (f, "Captures commands matching /^acme\\s+build\\b/"));
  g_assert_true (page_has_text (f, "Drops lines matching /^\\s*$/, /^acme: compiling \\S+$/"));
  g_assert_true (page_has_text (f, "acme-build · 1 test passes"));
  g_assert_cmpuint (winnow_trust_page_get_n_risks (f->page), ==, 0);

  /* cancelling writes nothing */
  dialog = open_approve_dialog (f);
  respond (dialog, "cancel");
  g_assert_false (g_file_test (f->trust_path, G_FILE_TEST_EXISTS));

  dialog = open_approve_dialog (f);
  summary = gtk_label_get_text (GTK_LABEL (test_ui_find (GTK_WIDGET (dialog), GTK_TYPE_LABEL,
                                                         "trust-approve-summary")));
  g_assert_nonnull (strstr (summary, "acme build (acme-build)"));
  g_assert_nonnull (strstr (summary, "Always keeps lines matching /\\berror\\b/"));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "approve"), ==,
                   ADW_RESPONSE_SUGGESTED);
  respond (dialog, "approve");

  g_assert_true (g_file_get_contents (f->trust_path, &trust, NULL, NULL));
  g_assert_nonnull (strstr (trust, hash));
  wait_state (f, WINNOW_TRUST_TRUSTED);
  g_assert_cmpstr (label_named (f, "trust-state-title"), ==, "Trusted");
  g_assert_cmpstr (label_named (f, "trust-trusted-sha"), ==, hash);
  g_assert_false (button_sensitive (f, "trust.approve"));
  g_assert_true (context_has_filter (f, "acme-build"));
}

/* A change on disk while the page shows a trusted project turns it into "changed". */
static void
test_changed_on_disk (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *approved = winnow_trust_approve (f->project, NULL);
  g_autofree char *edited = NULL;

  g_assert_nonnull (approved);
  open_project (f);
  wait_state (f, WINNOW_TRUST_TRUSTED);

  edited = g_strconcat (FILTERS, " ", NULL);
  g_assert_true (g_file_set_contents (f->filters_path, edited, -1, NULL));
  wait_state (f, WINNOW_TRUST_CHANGED);
  g_assert_cmpstr (label_named (f, "trust-state-title"), ==, "Changed Since Approval");
  g_assert_cmpstr (label_named (f, "trust-trusted-sha"), ==, approved);
  g_assert_cmpstr (label_named (f, "trust-current-sha"), !=, approved);
  g_assert_false (context_has_filter (f, "acme-build"));
  g_assert_true (button_sensitive (f, "trust.approve"));
  g_assert_true (button_sensitive (f, "trust.revoke"));
}

/* An approval through the page is kept in the store; a later change is shown as a diff
 * against it, on the page and in the next approval dialog. */
static void
test_history_diff (Fixture       *f,
                   gconstpointer  data)
{
  AdwMessageDialog *dialog;
  GString *edited = g_string_new (FILTERS);
  g_autofree char *text = NULL;
  const char *diff;
  GtkWidget *in_dialog;

  open_project (f);
  dialog = open_approve_dialog (f);
  respond (dialog, "approve");
  wait_state (f, WINNOW_TRUST_TRUSTED);
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_ancestor (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL, "trust-diff"),
                                                                   ADW_TYPE_PREFERENCES_GROUP)));

  g_string_replace (edited, "^acme: compiling \\\\S+$", "^acme: (compiling|linking) \\\\S+$", 1);
  text = g_string_free (edited, FALSE);
  g_assert_nonnull (strstr (text, "linking"));
  g_assert_true (g_file_set_contents (f->filters_path, text, -1, NULL));
  wait_state (f, WINNOW_TRUST_CHANGED);

  diff = label_named (f, "trust-diff");
  g_assert_nonnull (strstr (diff, "compiling \\\\S+"));   /* the approved line, taken out */
  g_assert_nonnull (strstr (diff, "linking"));               /* the new one */
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_ancestor (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL, "trust-diff"),
                                                                  ADW_TYPE_PREFERENCES_GROUP)));

  dialog = open_approve_dialog (f);
  in_dialog = test_ui_find (GTK_WIDGET (dialog), GTK_TYPE_LABEL, "trust-approve-diff");
  g_assert_nonnull (in_dialog);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (in_dialog)), "linking"));
  respond (dialog, "cancel");
}

/* What is approved is what was shown: a file changed behind the open dialog is refused. */
static void
test_changed_behind_dialog (Fixture       *f,
                            gconstpointer  data)
{
  AdwMessageDialog *dialog;
  g_autofree char *edited = g_strconcat (FILTERS, "\n", NULL);

  open_project (f);
  dialog = open_approve_dialog (f);
  g_assert_true (g_file_set_contents (f->filters_path, edited, -1, NULL));
  respond (dialog, "approve");
  g_assert_false (g_file_test (f->trust_path, G_FILE_TEST_EXISTS));
  wait_state (f, WINNOW_TRUST_UNTRUSTED);
}

static void
test_revoke (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *approved = winnow_trust_approve (f->project, NULL);

  open_project (f);
  wait_state (f, WINNOW_TRUST_TRUSTED);
  g_assert_true (button_sensitive (f, "trust.revoke"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "trust.revoke", NULL));
  g_assert_false (g_file_test (f->trust_path, G_FILE_TEST_EXISTS));
  wait_state (f, WINNOW_TRUST_UNTRUSTED);
  g_assert_cmpstr (label_named (f, "trust-state-title"), ==, "Not Approved");
  g_assert_false (context_has_filter (f, "acme-build"));
}

/* A filter that drops nearly everything: its risk is on the page and in the dialog, and
 * approving is no longer the suggested answer. */
static void
test_risky_filter (Fixture       *f,
                   gconstpointer  data)
{
  AdwMessageDialog *dialog;
  const char *summary;

  open_project (f);
  g_assert_cmpuint (winnow_trust_page_get_n_risks (f->page), >=, 1);
  g_assert_true (page_has_text (f, "⚠ Risk at rules.dropPatterns[0]: matches"));
  g_assert_true (page_has_text (f, "to read before approving"));

  dialog = open_approve_dialog (f);
  summary = gtk_label_get_text (GTK_LABEL (test_ui_find (GTK_WIDGET (dialog), GTK_TYPE_LABEL,
                                                         "trust-approve-summary")));
  g_assert_nonnull (strstr (summary, "⚠ Risk at rules.dropPatterns[0]"));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "approve"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "cancel");
  respond (dialog, "cancel");
}

static void
test_invalid_json (Fixture       *f,
                   gconstpointer  data)
{
  open_project (f);
  g_assert_cmpstr (label_named (f, "trust-state-title"), ==, "Invalid Filters File");
  g_assert_nonnull (strstr (label_named (f, "trust-state-message"), "filters.json"));
  g_assert_false (button_sensitive (f, "trust.approve"));
  g_assert_true (winnow_trust_page_get_filters (f->page) == NULL ||
                 winnow_trust_page_get_filters (f->page)->len == 0);
  g_assert_true (page_has_text (f, "cannot be read as filters"));
}

/* Projects are remembered, most recent first; one without filters says so; removing the
 * shown one from the list shows the next. */
static void
test_recent_projects (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *bare = make_project (NULL);
  g_auto(GStrv) recent = NULL;
  g_auto(GStrv) after = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  open_project (f);
  winnow_trust_page_open_project (f->page, bare);
  wait_settled (f);
  g_assert_cmpint (winnow_trust_status_get_state (winnow_trust_page_get_status (f->page)), ==,
                   WINNOW_TRUST_NO_FILTERS);
  g_assert_cmpstr (label_named (f, "trust-state-title"), ==, "No Project Filters");
  g_assert_false (button_sensitive (f, "trust.approve"));
  g_assert_false (button_sensitive (f, "trust.revoke"));

  recent = g_settings_get_strv (settings, "recent-projects");
  g_assert_cmpuint (g_strv_length (recent), ==, 2);
  g_assert_cmpstr (recent[0], ==, bare);
  g_assert_cmpstr (recent[1], ==, f->project);
  rows = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_LIST_BOX_ROW);
  g_assert_nonnull (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LIST_BOX_ROW, bare));

  /* opening a known project again moves it up rather than adding it twice */
  winnow_trust_page_open_project (f->page, f->project);
  wait_settled (f);
  g_clear_pointer (&recent, g_strfreev);
  recent = g_settings_get_strv (settings, "recent-projects");
  g_assert_cmpuint (g_strv_length (recent), ==, 2);
  g_assert_cmpstr (recent[0], ==, f->project);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "trust.remove-project", "s",
                                             f->project));
  after = g_settings_get_strv (settings, "recent-projects");
  g_assert_cmpuint (g_strv_length (after), ==, 1);
  g_assert_cmpstr (after[0], ==, bare);
  g_assert_cmpstr (winnow_trust_page_get_project (f->page), ==, bare);
  g_assert_null (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LIST_BOX_ROW, f->project));

  test_util_remove_tree (bare);
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

#define ADD(path, func, data) \
  g_test_add ("/winnow/ui/trust/" path, Fixture, data, fixture_set_up, func, fixture_tear_down)

  ADD ("approve", test_approve, NULL);
  ADD ("changed-on-disk", test_changed_on_disk, NULL);
  ADD ("history-diff", test_history_diff, NULL);
  ADD ("changed-behind-dialog", test_changed_behind_dialog, NULL);
  ADD ("revoke", test_revoke, NULL);
  ADD ("risky-filter", test_risky_filter, RISKY_FILTERS);
  ADD ("invalid-json", test_invalid_json, "[ { \"id\": \"acme-build\", ");
  ADD ("recent-projects", test_recent_projects, NULL);

#undef ADD

  return g_test_run ();
}
