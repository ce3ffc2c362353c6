/* test-ui-window.c — the dashboard window opens, draws every page and keeps its state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-window.h"

static const char * const pages[] = {
  "preview", "filters", "rule-packs", "trust", "raw-output", "savings", NULL
};

typedef struct
{
  char          *data_dir;
  WinnowContext *context;
  WinnowWindow  *window;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  g_settings_reset (settings, "last-page");
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  f->data_dir = g_dir_make_tmp ("winnow-ui-window-XXXXXX", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
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
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
}

/* Each page is shown, laid out and drawn: the rendered window is as big as the window and
 * the page fills the space under the header bar. */
static void
test_draws_every_page (Fixture       *f,
                       gconstpointer  data)
{
  for (guint i = 0; pages[i] != NULL; i++)
    {
      g_autoptr(GdkTexture) texture = NULL;
      AdwViewStack *stack;
      GtkWidget *page;

      winnow_window_set_page (f->window, pages[i]);
      g_assert_cmpstr (winnow_window_get_page (f->window), ==, pages[i]);
      test_ui_wait_frames (GTK_WIDGET (f->window), 2);

      stack = ADW_VIEW_STACK (test_ui_find (GTK_WIDGET (f->window), ADW_TYPE_VIEW_STACK, NULL));
      page = adw_view_stack_get_visible_child (stack);
      g_assert_true (gtk_widget_get_mapped (page));
      g_assert_cmpint (gtk_widget_get_width (page), >, 300);
      g_assert_cmpint (gtk_widget_get_height (page), >, 200);

      texture = test_ui_render (GTK_WIDGET (f->window));
      g_assert_nonnull (texture);
      g_assert_cmpint (gdk_texture_get_width (texture), ==,
                       gtk_widget_get_width (GTK_WIDGET (f->window)));
      g_assert_cmpint (gdk_texture_get_height (texture), ==,
                       gtk_widget_get_height (GTK_WIDGET (f->window)));
    }
}

/* The keyboard goes through actions: win.show-page with a page's name. */
static void
test_show_page_action (Fixture       *f,
                       gconstpointer  data)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s",
                                             "trust"));
  g_assert_cmpstr (winnow_window_get_page (f->window), ==, "trust");

  /* an unknown page leaves the window where it was */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s",
                                             "no-such-page"));
  g_assert_cmpstr (winnow_window_get_page (f->window), ==, "trust");
}

/* A filter named in the preview opens the Filters page with that filter in the editor. */
static void
test_show_filter_action (Fixture       *f,
                         gconstpointer  data)
{
  GtkWidget *page;
  WinnowFilterEditor *editor;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-filter", "s",
                                             "git-status"));
  g_assert_cmpstr (winnow_window_get_page (f->window), ==, "filters");

  page = test_ui_find (GTK_WIDGET (f->window), WINNOW_TYPE_FILTERS_PAGE, NULL);
  editor = winnow_filters_page_get_editor (WINNOW_FILTERS_PAGE (page));
  g_assert_nonnull (strstr (winnow_filter_editor_get_text (editor), "\"git-status\""));
  g_assert_true (winnow_filter_editor_get_read_only (editor));
}

/* The page shown last is the page shown first next time. */
static void
test_remembers_page (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *page = NULL;
  WinnowWindow *second;

  winnow_window_set_page (f->window, "savings");
  page = g_settings_get_string (settings, "last-page");
  g_assert_cmpstr (page, ==, "savings");

  second = g_object_ref_sink (winnow_window_new_for_context (f->context));
  g_assert_cmpstr (winnow_window_get_page (second), ==, "savings");
  gtk_window_destroy (GTK_WINDOW (second));
  g_assert_finalize_object (second);
}

/* Only the page shown is built when the window opens; another is built when it is shown or
 * a getter asks for it (without showing it), once. */
static void
test_builds_pages_when_shown (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  GtkWidget *root = GTK_WIDGET (f->window);
  WinnowWindow *second;
  GtkWidget *trust;

  g_assert_cmpstr (winnow_window_get_page (f->window), ==, "preview");
  g_assert_nonnull (test_ui_find (root, WINNOW_TYPE_PREVIEW_PAGE, NULL));
  g_assert_null (test_ui_find (root, WINNOW_TYPE_FILTERS_PAGE, NULL));
  g_assert_null (test_ui_find (root, WINNOW_TYPE_RULE_PACKS_PAGE, NULL));
  g_assert_null (test_ui_find (root, WINNOW_TYPE_TRUST_PAGE, NULL));
  g_assert_null (test_ui_find (root, WINNOW_TYPE_RAW_OUTPUT_PAGE, NULL));
  g_assert_null (test_ui_find (root, WINNOW_TYPE_SAVINGS_PAGE, NULL));

  /* shown: built, in the window, with the window's context */
  winnow_window_set_page (f->window, "rule-packs");
  g_assert_true (test_ui_find (root, WINNOW_TYPE_RULE_PACKS_PAGE, NULL) ==
                 GTK_WIDGET (winnow_window_get_rule_packs_page (f->window)));
  g_assert_true (winnow_rule_packs_page_get_context (winnow_window_get_rule_packs_page (f->window))
                 == f->context);

  /* asked for: built where the user will find it, the page shown stays */
  trust = GTK_WIDGET (winnow_window_get_trust_page (f->window));
  g_assert_true (test_ui_find (root, WINNOW_TYPE_TRUST_PAGE, NULL) == trust);
  g_assert_cmpstr (winnow_window_get_page (f->window), ==, "rule-packs");
  winnow_window_set_page (f->window, "trust");
  g_assert_true (test_ui_find (root, WINNOW_TYPE_TRUST_PAGE, NULL) == trust);
  g_assert_true (GTK_WIDGET (winnow_window_get_trust_page (f->window)) == trust);
  g_assert_null (test_ui_find (root, WINNOW_TYPE_SAVINGS_PAGE, NULL));

  /* a window opening on another page builds that one and not the Preview; the Filters page
   * opened from there works without it */
  g_settings_set_string (settings, "last-page", "savings");
  second = g_object_ref_sink (winnow_window_new_for_context (f->context));
  g_assert_nonnull (test_ui_find (GTK_WIDGET (second), WINNOW_TYPE_SAVINGS_PAGE, NULL));
  g_assert_null (test_ui_find (GTK_WIDGET (second), WINNOW_TYPE_PREVIEW_PAGE, NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (second), "win.show-filter", "s",
                                             "git-status"));
  g_assert_cmpstr (winnow_window_get_page (second), ==, "filters");
  g_assert_null (test_ui_find (GTK_WIDGET (second), WINNOW_TYPE_PREVIEW_PAGE, NULL));
  g_assert_nonnull (strstr (winnow_filter_editor_get_text (winnow_filters_page_get_editor (
                              winnow_window_get_filters_page (second))), "\"git-status\""));
  gtk_window_destroy (GTK_WINDOW (second));
  g_assert_finalize_object (second);
}

/* Closing stores the size, so the next window opens as big. */
static void
test_remembers_size (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  WinnowWindow *window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  int width, height;

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 640);
  gtk_window_present (GTK_WINDOW (window));
  test_ui_wait_mapped (GTK_WIDGET (window));
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 640);
  g_assert_finalize_object (window);

  window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 640);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

  g_test_add ("/winnow/ui/window/draws-every-page", Fixture, NULL,
              fixture_set_up, test_draws_every_page, fixture_tear_down);
  g_test_add ("/winnow/ui/window/show-page-action", Fixture, NULL,
              fixture_set_up, test_show_page_action, fixture_tear_down);
  g_test_add ("/winnow/ui/window/show-filter-action", Fixture, NULL,
              fixture_set_up, test_show_filter_action, fixture_tear_down);
  g_test_add ("/winnow/ui/window/remembers-page", Fixture, NULL,
              fixture_set_up, test_remembers_page, fixture_tear_down);
  g_test_add ("/winnow/ui/window/builds-pages-when-shown", Fixture, NULL,
              fixture_set_up, test_builds_pages_when_shown, fixture_tear_down);
  g_test_add ("/winnow/ui/window/remembers-size", Fixture, NULL,
              fixture_set_up, test_remembers_size, fixture_tear_down);

  return g_test_run ();
}
