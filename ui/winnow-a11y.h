/* winnow-a11y.h — accessible names GTK 4.8 leaves out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void winnow_a11y_name_drop_down (GtkDropDown *dropdown);
void winnow_a11y_name_list_row  (GtkWidget   *row_child,
                                 const char  *label);
char *winnow_a11y_strip_mnemonic (const char *text);

G_END_DECLS
