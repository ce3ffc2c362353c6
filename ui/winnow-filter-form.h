/* winnow-filter-form.h — a filter's JSON as a form, one group per stage
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_FILTER_FORM (winnow_filter_form_get_type ())

G_DECLARE_FINAL_TYPE (WinnowFilterForm, winnow_filter_form, WINNOW, FILTER_FORM, GtkWidget)

GtkWidget  *winnow_filter_form_new         (void);
void        winnow_filter_form_set_object  (WinnowFilterForm *self,
                                            JsonObject       *object);
JsonObject *winnow_filter_form_get_object  (WinnowFilterForm *self);
void        winnow_filter_form_set_sample  (WinnowFilterForm *self,
                                            const char       *text,
                                            const char       *command);
guint       winnow_filter_form_count_invalid (WinnowFilterForm *self);

G_END_DECLS
