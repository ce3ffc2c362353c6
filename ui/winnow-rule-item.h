/* winnow-rule-item.h — one rule of the pack in the form, as an item of a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_ITEM (winnow_rule_item_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRuleItem, winnow_rule_item, WINNOW, RULE_ITEM, GObject)

WinnowRuleItem *winnow_rule_item_new          (guint           index,
                                               const char     *name);
guint           winnow_rule_item_get_index    (WinnowRuleItem *self);
const char     *winnow_rule_item_get_name     (WinnowRuleItem *self);
void            winnow_rule_item_set_name     (WinnowRuleItem *self,
                                               const char     *name);
gboolean        winnow_rule_item_get_expanded (WinnowRuleItem *self);
void            winnow_rule_item_set_expanded (WinnowRuleItem *self,
                                               gboolean        expanded);
const char     *winnow_rule_item_get_error    (WinnowRuleItem *self);
void            winnow_rule_item_set_error    (WinnowRuleItem *self,
                                               const char     *error);

G_END_DECLS
