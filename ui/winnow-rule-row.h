/* winnow-rule-row.h — one Caveman rule as a form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "winnow-rule-item.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_ROW (winnow_rule_row_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRuleRow, winnow_rule_row, WINNOW, RULE_ROW, AdwExpanderRow)

GtkWidget  *winnow_rule_row_new       (void);
void        winnow_rule_row_bind      (WinnowRuleRow  *self,
                                       WinnowRuleItem *item,
                                       JsonObject     *rule,
                                       gboolean        editable);
void        winnow_rule_row_unbind    (WinnowRuleRow  *self);
guint       winnow_rule_row_get_index (WinnowRuleRow  *self);
const char *winnow_rule_row_get_name  (WinnowRuleRow  *self);
void        winnow_rule_row_set_error (WinnowRuleRow  *self,
                                       const char     *message);
const char *winnow_rule_row_get_error (WinnowRuleRow  *self);

G_END_DECLS
