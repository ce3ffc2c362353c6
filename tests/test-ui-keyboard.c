/* test-ui-keyboard.c — the dashboard used with the keyboard alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4 has no public way to put a key press on the event queue, so each key is replaced by
 * what GTK itself does with it: Tab and Shift+Tab are gtk_widget_child_focus() on the surface
 * the focus is on (the window's own "move-focus" binding), Return and Space are
 * gtk_widget_activate() on the focus widget (every activatable widget's key binding), and
 * shortcuts (Alt+1…6, Ctrl+A, Ctrl+V, Ctrl+S) are the actions their bindings name, activated
 * from the focus widget so they resolve as the key would. Two keys have no public equivalent
 * in GTK 4.8: Up/Down inside a list (a private binding that focuses and selects the next row;
 * press_arrows_to_row() does those two things) and Escape in a message dialog (a private
 * binding that gives the close response; the test checks that response and closes the window,
 * which gives the same one). Nothing is clicked, and every widget the test uses is reached
 * through the focus chain.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-rule-pack-document.h"
#include "winnow-rule-row.h"
#include "winnow-savings-page.h"
#include "winnow-window.h"

/* a project with one filter of its own, for the trust dialog */
#define PROJECT_FILTERS \
  "{ \"id\": \"acme-build\", \"label\": \"acme build\", \"category\": \"build\",\n" \
  "  \"match\": { \"commands\": [\"^acme\\\\s+build\\\\b\"] },\n" \
  "  \"rules\": { \"dropPatterns\": [\"^acme: compiling \\\\S+$\"] } }\n"

static const char * const pages[] = {
  "preview", "filters", "rule-packs", "trust", "raw-output", "savings", NULL
};

typedef struct
{
  char          *data_dir;
  char          *project;
  WinnowContext *context;
  WinnowWindow  *window;
} Fixture;

static void
record_run (WinnowContext *context,
            const char    *command,
            const char    *filter_id,
            guint64        before,
            guint64        after)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open_for_context (context, &error);
  WinnowStoreEvent event;

  g_assert_no_error (error);
  winnow_store_event_init (&event, "run");
  event.time_us = g_get_real_time () - (gint64) 3600 * G_USEC_PER_SEC;
  event.command = command;
  event.filter_id = filter_id;
  event.mode = "rtk";
  event.tokens_before = before;
  event.tokens_after = after;
  event.bytes_before = before * 4;
  event.bytes_after = after * 4;
  winnow_store_record (store, &event, NULL, &error);
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *rtk = NULL;
  g_autofree char *filters = NULL;

  g_settings_reset (settings, "last-page");
  g_settings_reset (settings, "recent-projects");
  g_settings_reset (settings, "preview-mode");
  g_settings_reset (settings, "preview-command");

  f->data_dir = g_dir_make_tmp ("winnow-ui-keyboard-XXXXXX", NULL);
  f->project = g_dir_make_tmp ("winnow-ui-keyboard-project-XXXXXX", NULL);
  rtk = g_build_filename (f->project, ".rtk", NULL);
  filters = g_build_filename (rtk, "filters.json", NULL);
  g_assert_cmpint (g_mkdir (rtk, 0755), ==, 0);
  test_util_write_file (filters, PROJECT_FILTERS, -1);

  f->context = winnow_context_new (f->data_dir, f->project);
  /* two runs, so the Savings page shows its figures and charts rather than its empty state */
  record_run (f->context, "git status", "git-status", 1000, 200);
  record_run (f->context, "pytest -v", "test-pytest", 5000, 1000);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1280, 800);
  gtk_window_present (GTK_WINDOW (f->window));
  test_ui_wait_mapped (GTK_WIDGET (f->window));
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
  g_free (f->project);
  g_free (f->data_dir);
}

/* --- the keyboard -------------------------------------------------------------------------- */

static GtkWidget *
focus_of (GtkWidget *root)
{
  return gtk_root_get_focus (GTK_ROOT (root));
}

static void
settle (GtkWidget *root)
{
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  (void) root;
}

static gboolean
on_waited (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, on_waited, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Tab (or Shift+Tab, an arrow): what GtkWindow's move-focus binding does */
static void
press_move (GtkWidget        *root,
            GtkDirectionType  direction)
{
  GtkWidget *focus = focus_of (root);
  /* keys go to the surface the focus is on: an open popover handles its own arrows */
  GtkWidget *native = focus ? GTK_WIDGET (gtk_widget_get_native (focus)) : root;

  if (!gtk_widget_child_focus (native, direction))
    /* the window wraps around when asked again, as its Tab binding does */
    gtk_widget_child_focus (native, direction);
  settle (root);
}

/* Return or Space on the focus widget */
static void
press_return (GtkWidget *root)
{
  GtkWidget *focus = focus_of (root);

  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_activate (focus));
  /* a button shows itself pressed for a moment and only then emits "clicked" */
  wait_ms (400);
  settle (root);
}

/* a shortcut: the action its binding names, looked up from the focus widget */
static void
press_shortcut (GtkWidget  *root,
                const char *action,
                GVariant   *target)
{
  GtkWidget *focus = focus_of (root);

  g_assert_true (gtk_widget_activate_action_variant (focus ? focus : root, action, target));
  settle (root);
}

static void
mnemonic_labels (GtkWidget *widget,
                 guint      keyval,
                 GPtrArray *found)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  /* an entry row keeps a second, transparent copy of its title for its animation */
  if (GTK_IS_LABEL (widget) && gtk_widget_get_opacity (widget) > 0 &&
      gtk_label_get_mnemonic_keyval (GTK_LABEL (widget)) == keyval)
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    mnemonic_labels (child, keyval, found);
}

/* Alt and a letter: the window activates the one shown label with that mnemonic (two would
 * take turns, which the forms avoid, so the test insists on one) */
static void
press_mnemonic (GtkWidget *root,
                guint      keyval)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  mnemonic_labels (root, keyval, labels);
  g_assert_cmpuint (labels->len, ==, 1);
  g_assert_true (gtk_widget_mnemonic_activate (g_ptr_array_index (labels, 0), FALSE));
  settle (root);
}

/* Up and Down in an open list. GTK 4.8 moves a list's cursor in a key binding that nothing
 * outside GTK can call, so this does what that binding does: focus the row @index of the list
 * the focus is in and select it. */
static void
press_arrows_to_row (GtkWidget *root,
                     guint      index)
{
  GtkWidget *list = focus_of (root);
  guint n = 0;

  while (list != NULL && !GTK_IS_LIST_VIEW (list))
    list = gtk_widget_get_parent (list);
  g_assert_nonnull (list);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (g_str_equal (G_OBJECT_TYPE_NAME (row), "GtkListItemWidget") && n++ == index)
      {
        /* moving the cursor focuses the row and, in a single-selection list, selects it */
        g_assert_true (gtk_widget_grab_focus (row));
        gtk_selection_model_select_item (gtk_list_view_get_model (GTK_LIST_VIEW (list)), index,
                                         TRUE);
        settle (root);
        return;
      }
  g_error ("the list has no row %u", index);
}

typedef gboolean (*Match) (GtkWidget *widget, gconstpointer data);

/* the focus widget, or the nearest ancestor of it that matches: an entry's text, a drop-down's
 * button and a row's inner widgets stand for the control around them */
static GtkWidget *
focus_matching (GtkWidget     *root,
                Match          match,
                gconstpointer  data)
{
  for (GtkWidget *w = focus_of (root); w != NULL && w != root; w = gtk_widget_get_parent (w))
    if (match (w, data))
      return w;
  return NULL;
}

/* Tabs until the focus is in a widget @match accepts; fails after a whole round of the window. */
static GtkWidget *
tab_to (GtkWidget     *root,
        Match          match,
        gconstpointer  data)
{
  for (guint i = 0; i < 400; i++)
    {
      GtkWidget *found = focus_matching (root, match, data);

      if (found != NULL)
        return found;
      press_move (root, GTK_DIR_TAB_FORWARD);
    }
  return NULL;
}

static gboolean
has_action (GtkWidget     *widget,
            gconstpointer  action)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

static gboolean
is_type (GtkWidget     *widget,
         gconstpointer  type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

static gboolean
is_widget (GtkWidget     *widget,
           gconstpointer  other)
{
  return widget == other;
}

static gboolean
is_entry_row_titled (GtkWidget     *widget,
                     gconstpointer  title)
{
  return ADW_IS_ENTRY_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0;
}

/* Ctrl+A then Ctrl+V with @text on the clipboard: how text gets in without typing it */
static void
paste (GtkWidget  *root,
       const char *text)
{
  GtkWidget *focus = focus_of (root);
  GdkClipboard *clipboard = gtk_widget_get_clipboard (focus);

  gdk_clipboard_set_text (clipboard, text);
  press_shortcut (root, "selection.select-all", NULL);
  press_shortcut (root, "clipboard.paste", NULL);
  /* the paste reads the clipboard asynchronously */
  for (guint i = 0; i < 20; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  settle (root);
}

/* --- accessible names ---------------------------------------------------------------------- */

/* Whether assistive technologies get a name for @widget: an accessible label or labelled-by
 * relation, or what GTK names it by itself (a button's or label's text, a tooltip). */
static gboolean
has_own_name (GtkWidget *widget)
{
  GtkAccessible *accessible = GTK_ACCESSIBLE (widget);

  if (gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL))
    {
      /* the check answers with a (newly allocated) message when the label is not "" */
      g_autofree char *not_empty =
        gtk_test_accessible_check_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, "");

      if (not_empty != NULL)
        return TRUE;
    }
  if (gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY))
    return TRUE;
  if (gtk_widget_get_tooltip_text (widget) != NULL)
    return TRUE;
  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) != NULL)
    return TRUE;
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)) != NULL)
    return TRUE;
  if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)) != NULL)
    return TRUE;
  if (GTK_IS_LABEL (widget) && gtk_label_get_text (GTK_LABEL (widget))[0] != '\0')
    return TRUE;
  /* a button names itself after the label it shows */
  if (GTK_IS_BUTTON (widget) && test_ui_find (widget, GTK_TYPE_LABEL, NULL) != NULL &&
      gtk_label_get_text (GTK_LABEL (test_ui_find (widget, GTK_TYPE_LABEL, NULL)))[0] != '\0')
    return TRUE;
  if (ADW_IS_PREFERENCES_ROW (widget) &&
      adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget))[0] != '\0')
    return TRUE;
  return FALSE;
}

/* The control a focusable widget belongs to: GTK puts the focus on an entry's text, a menu
 * button's inner button, a spin button's text, and screen readers are told about the outer
 * widget, which carries the name. (A drop-down's inner button is announced on its own in GTK
 * 4.8, so it needs a name of its own and is not in this list.) */
static GtkWidget *
control_of (GtkWidget *widget)
{
  GtkWidget *control = widget;

  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    {
      if (GTK_IS_MENU_BUTTON (w) || GTK_IS_SPIN_BUTTON (w) ||
          ADW_IS_ENTRY_ROW (w) || ADW_IS_SPLIT_BUTTON (w) ||
          (GTK_IS_EDITABLE (w) && !GTK_IS_TEXT (w)))
        control = w;
      if (ADW_IS_PREFERENCES_ROW (w) || GTK_IS_LIST_BOX_ROW (w) || GTK_IS_ROOT (w))
        break;
    }
  return control;
}

/* the list a row lives in: its rows are reached with the arrows once Tab is in the list */
static GtkWidget *
list_of (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_LIST_VIEW (w) || GTK_IS_COLUMN_VIEW (w) || GTK_IS_LIST_BOX (w) ||
        GTK_IS_FLOW_BOX (w) || GTK_IS_GRID_VIEW (w))
      return w;
  return NULL;
}

static gboolean
is_focus_target (GtkWidget *widget)
{
  /* containers that are focusable only to pass the focus on (a paned's handle is F8's) */
  if (GTK_IS_SCROLLED_WINDOW (widget) || GTK_IS_VIEWPORT (widget) || GTK_IS_PANED (widget) ||
      GTK_IS_LIST_BOX (widget) || GTK_IS_FLOW_BOX (widget) || GTK_IS_LIST_VIEW (widget) ||
      GTK_IS_COLUMN_VIEW (widget))
    return FALSE;
  return gtk_widget_get_mapped (widget) && gtk_widget_is_sensitive (widget) &&
         gtk_widget_get_focusable (widget) && gtk_widget_get_can_focus (widget) &&
         gtk_widget_get_can_target (widget);
}

static void
collect_focusable (GtkWidget *widget,
                   GPtrArray *found)
{
  if (!gtk_widget_get_mapped (widget) || !gtk_widget_get_can_focus (widget))
    return;
  if (is_focus_target (widget))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_focusable (child, found);
}

static char *
describe (GtkWidget *widget)
{
  GString *path = g_string_new (NULL);

  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    {
      const char *tooltip = gtk_widget_get_tooltip_text (w);

      g_string_prepend (path, G_OBJECT_TYPE_NAME (w));
      if (tooltip != NULL)
        {
          g_string_insert (path, strlen (G_OBJECT_TYPE_NAME (w)), "]");
          g_string_insert (path, strlen (G_OBJECT_TYPE_NAME (w)), tooltip);
          g_string_insert (path, strlen (G_OBJECT_TYPE_NAME (w)), "[");
        }
      if (gtk_widget_get_parent (w) != NULL)
        g_string_prepend (path, " > ");
      if (WINNOW_IS_WINDOW (gtk_widget_get_parent (w)))
        break;
    }
  return g_string_free (path, FALSE);
}

/* --- tests --------------------------------------------------------------------------------- */

/* Alt+1…6 switch pages from wherever the focus is; Tab then starts on the page. */
static void
test_switch_pages (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (f->window);

  press_move (root, GTK_DIR_TAB_FORWARD);
  for (guint i = 0; pages[i] != NULL; i++)
    {
      press_shortcut (root, "win.show-page", g_variant_new_string (pages[i]));
      g_assert_cmpstr (winnow_window_get_page (f->window), ==, pages[i]);
    }
}

static gboolean
preview_settled (gpointer data)
{
  WinnowPreviewPage *page = data;

  return !winnow_preview_page_get_busy (page) && winnow_preview_page_get_result (page) != NULL;
}

/* Paste output into the Preview's input, then pick another mode in the drop-down with the
 * arrows and Return. */
static void
test_preview_paste_and_mode (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (f->window);
  WinnowPreviewPage *page = winnow_window_get_preview_page (f->window);
  GtkWidget *mode = test_ui_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, "Mode");
  GtkWidget *input;
  GtkWidget *popover;
  g_autofree char *text = NULL;
  guint before;

  press_shortcut (root, "win.show-page", g_variant_new_string ("preview"));
  input = tab_to (root, is_type, GSIZE_TO_POINTER (GTK_TYPE_TEXT_VIEW));
  g_assert_nonnull (input);
  g_assert_true (gtk_text_view_get_editable (GTK_TEXT_VIEW (input)));
  paste (root, "On branch main\nnothing to commit, working tree clean\n");
  text = test_ui_buffer_text (GTK_TEXT_VIEW (input));
  g_assert_cmpstr (text, ==, "On branch main\nnothing to commit, working tree clean\n");
  g_assert_true (test_ui_wait_for (preview_settled, page, 30000));

  /* the drop-down: Return opens its list, Down moves to the next mode, Return picks it */
  g_assert_nonnull (mode);
  before = gtk_drop_down_get_selected (GTK_DROP_DOWN (mode));
  g_assert_true (tab_to (root, is_widget, mode) == mode);
  press_return (root);
  popover = test_ui_find (mode, GTK_TYPE_POPOVER, NULL);
  g_assert_nonnull (popover);
  test_ui_wait_mapped (popover);
  g_assert_true (gtk_widget_is_ancestor (focus_of (root), popover));
  press_arrows_to_row (root, before == 0 ? 1 : 0);
  press_return (root);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (mode)), !=, before);
  g_assert_true (test_ui_wait_for (preview_settled, page, 30000));
}

static gboolean
editor_settled (gpointer data)
{
  return !winnow_filter_editor_get_busy (data);
}

/* Tab into the filter list, Down to a filter, Return opens it; its Duplicate button, the Label
 * field (by its mnemonic, Alt+B) and Ctrl+S save an edited copy. */
static void
test_filter_edit_and_save (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (f->window);
  WinnowFiltersPage *page = winnow_window_get_filters_page (f->window);
  WinnowFilterEditor *editor = winnow_filters_page_get_editor (page);
  g_autofree char *path = winnow_context_get_global_filters_path (f->context);
  g_autofree char *saved = NULL;
  GtkWidget *list;
  GtkWidget *label_row;

  press_shortcut (root, "win.show-page", g_variant_new_string ("filters"));
  list = tab_to (root, is_type, GSIZE_TO_POINTER (GTK_TYPE_LIST_VIEW));
  g_assert_nonnull (list);
  /* Tab lands on the first row's switch; Down moves to the second row, Return opens it */
  press_arrows_to_row (root, 1);
  g_assert_true (gtk_widget_get_parent (focus_of (root)) == list);
  press_return (root);
  g_assert_true (test_ui_wait_for (editor_settled, editor, 30000));
  g_assert_nonnull (winnow_filter_editor_get_text (editor));
  g_assert_true (winnow_filter_editor_get_read_only (editor));

  g_assert_nonnull (tab_to (root, has_action, "editor.duplicate"));
  press_return (root);
  g_assert_true (test_ui_wait_for (editor_settled, editor, 30000));
  g_assert_false (winnow_filter_editor_get_read_only (editor));

  /* Alt+B: the Label field, by its mnemonic */
  press_mnemonic (root, GDK_KEY_b);
  label_row = focus_matching (root, is_entry_row_titled, "La_bel");
  g_assert_nonnull (label_row);
  paste (root, "typed with the keyboard");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (label_row)), ==, "typed with the keyboard");
  g_assert_true (test_ui_wait_for (editor_settled, editor, 30000));
  g_assert_true (winnow_filter_editor_get_dirty (editor));

  press_shortcut (root, "editor.save", NULL);
  g_assert_false (winnow_filter_editor_get_dirty (editor));
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "typed with the keyboard"));
}

static gboolean
pack_open (gpointer data)
{
  return !winnow_rule_packs_page_get_busy (data) &&
         winnow_rule_packs_page_get_document (data) != NULL;
}

/* The Rule Packs page: a pack opens as the cursor reaches it; Tab reaches its first rule,
 * Return unfolds it and Tab goes on into its fields. */
static void
test_rule_pack_unfold (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (f->window);
  WinnowRulePacksPage *page = winnow_window_get_rule_packs_page (f->window);
  GtkWidget *rule;

  press_shortcut (root, "win.show-page", g_variant_new_string ("rule-packs"));
  g_assert_nonnull (tab_to (root, is_type, GSIZE_TO_POINTER (GTK_TYPE_LIST_VIEW)));
  /* de (0) and its six packs, en (7): context, dedup, filler, structural, terse (12); moving
   * the cursor to a pack opens it */
  press_arrows_to_row (root, 12);
  g_assert_true (test_ui_wait_for (pack_open, page, 60000));
  g_assert_cmpstr (winnow_rule_pack_document_get_file (winnow_rule_packs_page_get_document (page)),
                   !=, NULL);

  rule = tab_to (root, is_type, GSIZE_TO_POINTER (WINNOW_TYPE_RULE_ROW));
  g_assert_nonnull (rule);
  g_assert_false (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (rule)));
  press_return (root);
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (rule)));
  g_assert_nonnull (tab_to (root, is_entry_row_titled, "Name"));
  g_assert_true (gtk_widget_is_ancestor (focus_of (root), rule));
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

static gboolean
trust_settled (gpointer data)
{
  return !winnow_trust_page_get_busy (data) && winnow_trust_page_get_status (data) != NULL;
}

static gboolean
trusted (gpointer data)
{
  return trust_settled (data) &&
         winnow_trust_status_get_state (winnow_trust_page_get_status (data)) == WINNOW_TRUST_TRUSTED;
}

static gboolean
is_dialog_button (GtkWidget     *widget,
                  gconstpointer  label)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

/* The Trust page's Approve button opens the dialog; Escape closes it and writes nothing, and
 * Tab to its Approve button and Return approve the project. */
static void
test_trust_approve (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (f->window);
  WinnowTrustPage *page = winnow_window_get_trust_page (f->window);
  g_autofree char *trust_path = g_build_filename (f->project, ".rtk", "trust.json", NULL);
  AdwMessageDialog *dialog;

  press_shortcut (root, "win.show-page", g_variant_new_string ("trust"));
  g_assert_true (test_ui_wait_for (trust_settled, page, 30000));
  g_assert_cmpint (winnow_trust_status_get_state (winnow_trust_page_get_status (page)), ==,
                   WINNOW_TRUST_UNTRUSTED);

  g_assert_nonnull (tab_to (root, has_action, "trust.approve"));
  press_return (root);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  test_ui_wait_mapped (GTK_WIDGET (dialog));

  /* Escape gives the dialog's close response, which must be the harmless one; closing the
   * window gives the same response */
  g_assert_cmpstr (adw_message_dialog_get_close_response (dialog), ==, "cancel");
  press_shortcut (GTK_WIDGET (dialog), "window.close", NULL);
  settle (root);
  g_assert_true (find_dialog () == NULL);
  g_assert_false (g_file_test (trust_path, G_FILE_TEST_EXISTS));

  g_assert_nonnull (tab_to (root, has_action, "trust.approve"));
  press_return (root);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  test_ui_wait_mapped (GTK_WIDGET (dialog));
  g_assert_nonnull (tab_to (GTK_WIDGET (dialog), is_dialog_button, "_Approve"));
  press_return (GTK_WIDGET (dialog));
  g_assert_true (test_ui_wait_for (trusted, page, 30000));
  g_assert_true (g_file_test (trust_path, G_FILE_TEST_EXISTS));
}

static gboolean
savings_shown (gpointer data)
{
  WinnowSavingsPage *page = winnow_window_get_savings_page (WINNOW_WINDOW (data));

  return !winnow_savings_page_get_busy (page) &&
         g_strcmp0 (winnow_savings_page_get_state (page), "loading") != 0;
}

static gboolean
lists_filled (gpointer data)
{
  g_autoptr(GPtrArray) lists = test_ui_find_all (data, GTK_TYPE_LIST_VIEW);

  for (guint i = 0; i < lists->len; i++)
    {
      GtkWidget *list = g_ptr_array_index (lists, i);
      GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)));

      if (gtk_widget_get_mapped (list) && model != NULL &&
          g_list_model_get_n_items (model) == 0)
        return FALSE;
    }
  return TRUE;
}

/* On every page, Tab goes round every control the page shows (a list counts as reached when
 * Tab enters it: its rows are the arrows' job), and every control has a name for screen
 * readers. */
static void
test_tab_reaches_every_control (Fixture       *f,
                                gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (f->window);
  WinnowTrustPage *trust = winnow_window_get_trust_page (f->window);
  g_autoptr(GString) problems = g_string_new (NULL);

  g_assert_true (test_ui_wait_for (trust_settled, trust, 30000));

  for (guint i = 0; pages[i] != NULL; i++)
    {
      g_autoptr(GPtrArray) focusable = g_ptr_array_new ();
      g_autoptr(GHashTable) reached = g_hash_table_new (NULL, NULL);
      GtkWidget *first = NULL;

      press_shortcut (root, "win.show-page", g_variant_new_string (pages[i]));
      test_ui_wait_frames (root, 2);
      /* lists and the savings fill in the background: check them with their content in */
      g_assert_true (test_ui_wait_for (lists_filled, root, 30000));
      if (g_str_equal (pages[i], "savings"))
        {
          g_assert_true (test_ui_wait_for (savings_shown, root, 30000));
          g_assert_cmpstr (winnow_savings_page_get_state (
                             winnow_window_get_savings_page (f->window)), !=, "empty");
        }
      test_ui_wait_frames (root, 2);
      collect_focusable (root, focusable);
      g_assert_cmpuint (focusable->len, >, 0);

      /* one round of Tab: until the focus comes back to where it started */
      press_move (root, GTK_DIR_TAB_FORWARD);
      first = focus_of (root);
      g_assert_nonnull (first);
      for (guint n = 0; n < 1000; n++)
        {
          GtkWidget *focus = focus_of (root);
          g_assert_nonnull (focus);
          g_hash_table_add (reached, focus);
          /* every list around the focus is entered (an expander row holds a list of its own) */
          for (GtkWidget *list = list_of (focus); list != NULL;
               list = list_of (gtk_widget_get_parent (list)))
            g_hash_table_add (reached, list);
          press_move (root, GTK_DIR_TAB_FORWARD);
          if (focus_of (root) == first)
            break;
          g_assert_cmpuint (n, <, 999);
        }

      for (guint k = 0; k < focusable->len; k++)
        {
          GtkWidget *widget = g_ptr_array_index (focusable, k);
          GtkWidget *list = list_of (widget);
          g_autofree char *where = describe (widget);

          if (!gtk_widget_get_mapped (widget))
            continue;
          if (!g_hash_table_contains (reached, widget) &&
              (list == NULL || !g_hash_table_contains (reached, list)))
            g_string_append_printf (problems, "%s: Tab never reaches %s\n", pages[i], where);
          if (!has_own_name (control_of (widget)) && !has_own_name (widget))
            g_string_append_printf (problems, "%s: no accessible name: %s\n", pages[i], where);
        }
    }

  /* every problem at once, in the assertion's message */
  g_assert_cmpstr (problems->str, ==, "");
}

int
main (int    argc,
      char **argv)
{
  /* the suite turns accessibility off; this test reads the accessible names GTK keeps */
  g_setenv ("GTK_A11Y", "test", TRUE);
  test_ui_init (&argc, &argv);

  g_test_add ("/winnow/ui/keyboard/switch-pages", Fixture, NULL,
              fixture_set_up, test_switch_pages, fixture_tear_down);
  g_test_add ("/winnow/ui/keyboard/preview-paste-and-mode", Fixture, NULL,
              fixture_set_up, test_preview_paste_and_mode, fixture_tear_down);
  g_test_add ("/winnow/ui/keyboard/filter-edit-and-save", Fixture, NULL,
              fixture_set_up, test_filter_edit_and_save, fixture_tear_down);
  g_test_add ("/winnow/ui/keyboard/rule-pack-unfold", Fixture, NULL,
              fixture_set_up, test_rule_pack_unfold, fixture_tear_down);
  g_test_add ("/winnow/ui/keyboard/trust-approve", Fixture, NULL,
              fixture_set_up, test_trust_approve, fixture_tear_down);
  g_test_add ("/winnow/ui/keyboard/tab-reaches-every-control", Fixture, NULL,
              fixture_set_up, test_tab_reaches_every_control, fixture_tear_down);

  return g_test_run ();
}
