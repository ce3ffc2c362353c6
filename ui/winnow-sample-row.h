/* winnow-sample-row.h — one tests[] sample of a rule pack and how it fares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow-rule-pack-check.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_SAMPLE_ROW (winnow_sample_row_get_type ())

G_DECLARE_FINAL_TYPE (WinnowSampleRow, winnow_sample_row, WINNOW, SAMPLE_ROW, GtkWidget)

GtkWidget *winnow_sample_row_new         (void);
void       winnow_sample_row_set_sample  (WinnowSampleRow         *self,
                                          const WinnowSampleCheck *sample);
gboolean   winnow_sample_row_get_failing (WinnowSampleRow         *self);

G_END_DECLS
