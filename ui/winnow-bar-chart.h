/* winnow-bar-chart.h — a bar chart drawn with render nodes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_BAR_CHART (winnow_bar_chart_get_type ())

G_DECLARE_FINAL_TYPE (WinnowBarChart, winnow_bar_chart, WINNOW, BAR_CHART, GtkWidget)

GtkWidget  *winnow_bar_chart_new             (GtkOrientation      orientation);
const char *winnow_bar_chart_get_title       (WinnowBarChart     *self);
void        winnow_bar_chart_set_title       (WinnowBarChart     *self,
                                              const char         *title);
void        winnow_bar_chart_set_bars        (WinnowBarChart     *self,
                                              guint               n_bars,
                                              const char * const *labels,
                                              const double       *values,
                                              const char * const *tooltips);
guint       winnow_bar_chart_get_n_bars      (WinnowBarChart     *self);
double      winnow_bar_chart_get_value       (WinnowBarChart     *self,
                                              guint               index);
const char *winnow_bar_chart_get_label       (WinnowBarChart     *self,
                                              guint               index);
const char *winnow_bar_chart_get_tooltip     (WinnowBarChart     *self,
                                              guint               index);
int         winnow_bar_chart_get_bar_at      (WinnowBarChart     *self,
                                              double              x,
                                              double              y);
int         winnow_bar_chart_get_hovered     (WinnowBarChart     *self);
const char *winnow_bar_chart_get_description (WinnowBarChart     *self);
GdkTexture *winnow_bar_chart_render          (WinnowBarChart     *self,
                                              GError            **error);
gboolean    winnow_bar_chart_save_png        (WinnowBarChart     *self,
                                              const char         *path,
                                              GError            **error);

char       *winnow_bar_chart_format_compact  (double              value);

G_END_DECLS
