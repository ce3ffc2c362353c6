/* winnow-toast.c — a short notice on the window a widget is in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every page tells the person what happened (saved, refused, copied) in a toast on the
 * window's AdwToastOverlay. In libadwaita 1.2 a toast's title is Pango markup, and the
 * messages quote file names, JSON parser errors and command lines, so the text is escaped
 * here, once for all pages. Outside a window (a test, a screenshot) it goes to the log.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <adwaita.h>

#include "winnow-toast.h"

void
winnow_show_toast (GtkWidget  *widget,
                   const char *message)
{
  GtkWidget *overlay;
  g_autofree char *escaped = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (message != NULL);

  overlay = ADW_IS_TOAST_OVERLAY (widget)
            ? widget : gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);
  if (overlay == NULL)
    {
      g_message ("%s", message);
      return;
    }

  escaped = g_markup_escape_text (message, -1);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (escaped));
}
