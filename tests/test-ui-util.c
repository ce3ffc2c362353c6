/* test-ui-util.c — helpers for tests that drive the real dashboard widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>

#include "test-ui-util.h"
#include "test-util.h"

/**
 * test_ui_init:
 *
 * GTK and libadwaita for a test: a real display is needed (the suite runs under Xvfb).
 */
void
test_ui_init (int    *argc,
              char ***argv)
{
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  test_ui_load_style ();
}

/* What AdwApplication does for the real program: the application's style sheet. */
void
test_ui_load_style (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, "/io/github/winnow/Winnow/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

/* depth-first: the first widget of @type under @root (and with that tooltip or widget name,
 * when given) */
GtkWidget *
test_ui_find (GtkWidget  *root,
              GType       type,
              const char *tooltip)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) &&
      (tooltip == NULL || g_strcmp0 (gtk_widget_get_tooltip_text (root), tooltip) == 0 ||
       g_strcmp0 (gtk_widget_get_name (root), tooltip) == 0))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = test_ui_find (child, type, tooltip);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
find_all (GtkWidget *root,
          GType      type,
          GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    g_ptr_array_add (found, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    find_all (child, type, found);
}

/* every widget of @type under @root, depth-first */
GPtrArray *
test_ui_find_all (GtkWidget *root,
                  GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  find_all (root, type, found);
  return found;
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

void
test_ui_wait_mapped (GtkWidget *widget)
{
  g_assert_true (test_ui_wait_for (is_mapped, widget, 10000));
}

static void
on_after_paint (GdkFrameClock *clock,
                guint         *left)
{
  if (*left > 0)
    (*left)--;
}

/* Waits until the widget's surface has painted @n_frames more frames. */
void
test_ui_wait_frames (GtkWidget *widget,
                     guint      n_frames)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  guint left = n_frames;
  gulong id;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC * test_util_time_scale ();

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &left);
  while (left > 0 && g_get_monotonic_time () < deadline)
    {
      gtk_widget_queue_draw (widget);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, id);
  g_assert_cmpuint (left, ==, 0);
}

static gboolean
on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Turns the main loop until @done says so; FALSE when @timeout_ms (times
 * test_util_time_scale ()) passed first. */
gboolean
test_ui_wait_for (gboolean (*done) (gpointer data),
                  gpointer   data,
                  guint      timeout_ms)
{
  gboolean timed_out = FALSE;
  guint source = g_timeout_add (timeout_ms * test_util_time_scale (), on_timeout, &timed_out);

  while (!done (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (source);

  return done (data);
}

/* What @widget draws, rendered by its window's own renderer. */
GdkTexture *
test_ui_render (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_to_node (snapshot);
  if (node == NULL)
    return NULL;

  return gsk_renderer_render_texture (renderer, node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

char *
test_ui_buffer_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
