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
 * a newer GTK builds it differently. And a form row's title carries a mnemonic ("_Label")
 * that the control's own accessible name must not: winnow_a11y_strip_mnemonic().
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <string.h>

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

static void
apply_row_label (GtkWidget *row_child)
{
  GtkWidget *row = gtk_widget_get_parent (row_child);
  const char *label = g_object_get_data (G_OBJECT (row_child), "winnow-a11y-row-label");

  if (label != NULL && row != NULL && GTK_IS_LIST_VIEW (gtk_widget_get_parent (row)))
    gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                    -1);
}

/**
 * winnow_a11y_name_list_row:
 * @row_child: the child a list item factory set on its GtkListItem
 * @label: what the row is called
 *
 * Gives the row that takes the focus in the list (the child's parent) @label as its name,
 * now or, when the child is not in its row yet, as soon as it is.
 */
void
winnow_a11y_name_list_row (GtkWidget  *row_child,
                           const char *label)
{
  g_return_if_fail (GTK_IS_WIDGET (row_child));
  g_return_if_fail (label != NULL);

  if (g_object_get_data (G_OBJECT (row_child), "winnow-a11y-row-label") == NULL)
    g_signal_connect (row_child, "notify::parent", G_CALLBACK (apply_row_label), NULL);
  g_object_set_data_full (G_OBJECT (row_child), "winnow-a11y-row-label", g_strdup (label),
                          g_free);
  apply_row_label (row_child);
}

/**
 * winnow_a11y_strip_mnemonic:
 * @text: a label with a mnemonic, "_Save"
 *
 * The text as it is read out: each single underscore dropped, a doubled one kept as one.
 *
 * Returns: (transfer full): the text without its mnemonic marks
 */
char *
winnow_a11y_strip_mnemonic (const char *text)
{
  GString *out;

  g_return_val_if_fail (text != NULL, NULL);

  out = g_string_sized_new (strlen (text));
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          if (p[1] != '_')
            continue;
          p++;
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}
