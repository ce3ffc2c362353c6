/* winnow-sample-row.c — one tests[] sample of a rule pack and how it fares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A passing sample is one line: its name, the rule it exercises, and a verdict per intensity.
 * A failing one also shows its input and, for the first intensity where it fails, the
 * expected and the actual text one above the other, so the difference can be read without
 * opening anything. The samples list is a list view, so a row is recycled for other samples
 * as the list scrolls: set_sample() builds its contents anew, and it holds no state beyond
 * its labels.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-sample-row.h"

struct _WinnowSampleRow
{
  GtkWidget parent_instance;

  gboolean  failing;
};

G_DEFINE_FINAL_TYPE (WinnowSampleRow, winnow_sample_row, GTK_TYPE_WIDGET)

static void
remove_children (WinnowSampleRow *self)
{
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
}

static void
winnow_sample_row_dispose (GObject *object)
{
  remove_children (WINNOW_SAMPLE_ROW (object));

  G_OBJECT_CLASS (winnow_sample_row_parent_class)->dispose (object);
}

static void
winnow_sample_row_class_init (WinnowSampleRowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = winnow_sample_row_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "samplerow");
}

static void
winnow_sample_row_init (WinnowSampleRow *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 4);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 6);
}

/**
 * winnow_sample_row_new:
 *
 * Returns: (transfer floating): an empty row; winnow_sample_row_set_sample() fills it
 */
GtkWidget *
winnow_sample_row_new (void)
{
  return g_object_new (WINNOW_TYPE_SAMPLE_ROW, NULL);
}

static GtkWidget *
label_new (const char *text,
           const char *tooltip,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (tooltip != NULL)
    gtk_widget_set_tooltip_text (label, tooltip);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* The texts as they are, spaces and all: a trailing space is a classic failure. */
static GtkWidget *
text_label_new (const char *text,
                const char *tooltip)
{
  GtkWidget *label = label_new (text, tooltip, "monospace");

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  return label;
}

static const char *
verdict_symbol (WinnowSampleVerdict verdict)
{
  switch (verdict)
    {
    case WINNOW_SAMPLE_PASSED: return "✓";
    case WINNOW_SAMPLE_FAILED: return "✗";
    case WINNOW_SAMPLE_NOT_APPLICABLE:
    default: return "–";
    }
}

/**
 * winnow_sample_row_set_sample:
 * @self: a #WinnowSampleRow
 * @sample: a checked sample
 *
 * Shows @sample in place of whatever the row showed.
 */
void
winnow_sample_row_set_sample (WinnowSampleRow         *self,
                              const WinnowSampleCheck *sample)
{
  GtkWidget *header, *icon, *grid;
  g_autofree char *actual_title = NULL;
  int first_failure = -1;

  g_return_if_fail (WINNOW_IS_SAMPLE_ROW (self));
  g_return_if_fail (sample != NULL);

  remove_children (self);
  for (guint i = 0; i < WINNOW_N_INTENSITIES; i++)
    if (sample->verdict[i] == WINNOW_SAMPLE_FAILED && first_failure < 0)
      first_failure = i;
  self->failing = first_failure >= 0;

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_parent (header, GTK_WIDGET (self));

  icon = gtk_image_new_from_icon_name (self->failing ? "dialog-error-symbolic"
                                                     : "emblem-ok-symbolic");
  gtk_widget_add_css_class (icon, self->failing ? "error" : "success");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->failing ? _("Fails") : _("Passes"), -1);
  gtk_box_append (GTK_BOX (header), icon);
  gtk_box_append (GTK_BOX (header), label_new (sample->name, _("Sample"), NULL));
  if (sample->rule != NULL)
    gtk_box_append (GTK_BOX (header), label_new (sample->rule, _("Rule"), "dim-label"));

  gtk_widget_set_hexpand (gtk_widget_get_last_child (header), TRUE);
  for (guint i = 0; i < WINNOW_N_INTENSITIES; i++)
    {
      const char *intensity = winnow_caveman_intensity_to_string (i);
      g_autofree char *text = g_strdup_printf ("%s %s", intensity,
                                               verdict_symbol (sample->verdict[i]));
      g_autofree char *tooltip = NULL;
      GtkWidget *label;

      if (sample->verdict[i] == WINNOW_SAMPLE_NOT_APPLICABLE)
        /* Translators: %s is an intensity, "lite" */
        tooltip = g_strdup_printf (_("Not expected at %s; it gives: %s"), intensity,
                                   sample->actual[i] ? sample->actual[i] : "");
      else if (sample->verdict[i] == WINNOW_SAMPLE_PASSED)
        tooltip = g_strdup_printf (_("Passes at %s"), intensity);
      else
        tooltip = g_strdup_printf (_("Fails at %s"), intensity);

      label = label_new (text, tooltip, "caption");
      gtk_widget_add_css_class (label, sample->verdict[i] == WINNOW_SAMPLE_FAILED ? "error"
                                       : sample->verdict[i] == WINNOW_SAMPLE_PASSED ? "success"
                                       : "dim-label");
      if (i == sample->intensity)
        gtk_widget_add_css_class (label, "heading");
      gtk_box_append (GTK_BOX (header), label);
    }

  if (!self->failing)
    return;

  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_grid_attach (GTK_GRID (grid), label_new (_("Input"), NULL, "dim-label"), 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), text_label_new (sample->input, _("Input")), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), label_new (_("Expected"), NULL, "dim-label"), 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), text_label_new (sample->expected, _("Expected")), 1, 1, 1, 1);
  /* Translators: the output of a failing sample at an intensity, "Actual (full)" */
  actual_title = g_strdup_printf (_("Actual (%s)"),
                                  winnow_caveman_intensity_to_string (first_failure));
  gtk_grid_attach (GTK_GRID (grid), label_new (actual_title, NULL, "error"), 0, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), text_label_new (sample->actual[first_failure], _("Actual")),
                   1, 2, 1, 1);
  gtk_widget_set_parent (grid, GTK_WIDGET (self));
}

gboolean
winnow_sample_row_get_failing (WinnowSampleRow *self)
{
  g_return_val_if_fail (WINNOW_IS_SAMPLE_ROW (self), FALSE);
  return self->failing;
}
