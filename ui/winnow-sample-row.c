/* winnow-sample-row.c — one tests[] sample of a rule pack and how it fares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A passing sample is one line: its name, the rule it exercises, and a verdict per intensity.
 * A failing one also shows its input and, for the first intensity where it fails, the
 * expected and the actual text one above the other, so the difference can be read without
 * opening anything. The row is rebuilt for every check; it holds no state beyond its labels.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-sample-row.h"

struct _WinnowSampleRow
{
  GtkListBoxRow parent_instance;

  gboolean      failing;
};

G_DEFINE_FINAL_TYPE (WinnowSampleRow, winnow_sample_row, GTK_TYPE_LIST_BOX_ROW)

static void
winnow_sample_row_class_init (WinnowSampleRowClass *klass)
{
}

static void
winnow_sample_row_init (WinnowSampleRow *self)
{
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (self), FALSE);
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
 * winnow_sample_row_new:
 * @sample: a checked sample
 *
 * Returns: (transfer floating): a row showing @sample
 */
GtkWidget *
winnow_sample_row_new (const WinnowSampleCheck *sample)
{
  WinnowSampleRow *self;
  GtkWidget *box, *header, *icon, *grid;
  g_autofree char *actual_title = NULL;
  int first_failure = -1;

  g_return_val_if_fail (sample != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_SAMPLE_ROW, NULL);
  for (guint i = 0; i < WINNOW_N_INTENSITIES; i++)
    if (sample->verdict[i] == WINNOW_SAMPLE_FAILED && first_failure < 0)
      first_failure = i;
  self->failing = first_failure >= 0;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (self), box);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_box_append (GTK_BOX (box), header);

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
    return GTK_WIDGET (self);

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
  gtk_box_append (GTK_BOX (box), grid);

  return GTK_WIDGET (self);
}

gboolean
winnow_sample_row_get_failing (WinnowSampleRow *self)
{
  g_return_val_if_fail (WINNOW_IS_SAMPLE_ROW (self), FALSE);
  return self->failing;
}
