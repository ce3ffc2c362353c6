/* winnow-toast.h — a short notice on the window a widget is in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void winnow_show_toast (GtkWidget  *widget,
                        const char *message);

G_END_DECLS
