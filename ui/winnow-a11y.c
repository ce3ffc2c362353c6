/* winnow-a11y.c — accessible names GTK 4.8 leaves out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two places where the focus lands on a widget GTK 4.8 creates itself and gives no name, so a
 * screen reader announces only its role ("toggle button", "list item"):
 *
 * - a GtkDropDown's focus goes to its inner toggle button; the drop-down's own accessible
 *   label stays on the outer combo box. The button is labelled by the drop-down.
 * - a GtkListView's rows are GtkListItemWidgets, and GtkListItem has no accessible label
 *   before GTK 4.12. The name goes on the row widget around the factory's child.
 *
 * Both look at the widget tree GTK builds, so both check what they find and do nothing when
 * a newer GTK builds it differently.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include "winnow-a11y.h"

/**
 * winnow_a11y_name_drop_down:
 * @dropdown: a drop-down with an accessible label
 *
 * Names the button that takes the drop-down's focus after the drop-down itself.
 */
void
winnow_a11y_name_drop_down (GtkDropDown *dropdown)
{
  GtkWidget *button;

  g_return_if_fail (GTK_IS_DROP_DOWN (dropdown));

  button = gtk_widget_get_first_child (GTK_WIDGET (dropdown));
  if (GTK_IS_TOGGLE_BUTTON (button))
    gtk_accessible_update_relation (GTK_ACCESSIBLE (button),
                                    GTK_ACCESSIBLE_RELATION_LABELLED_BY, dropdown, NULL,
                                    -1);
}

/**
 * winnow_a11y_name_list_row:
 * @row_child: the child a list item factory set on its GtkListItem
 * @label: what the row is called
 *
 * Gives the row that takes the focus in the list (the child's parent) @label as its name.
 * Call it when the row is bound: before that the child has no parent.
 */
void
winnow_a11y_name_list_row (GtkWidget  *row_child,
                           const char *label)
{
  GtkWidget *row;

  g_return_if_fail (GTK_IS_WIDGET (row_child));
  g_return_if_fail (label != NULL);

  row = gtk_widget_get_parent (row_child);
  if (row != NULL && GTK_IS_LIST_VIEW (gtk_widget_get_parent (row)))
    gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                    -1);
}
