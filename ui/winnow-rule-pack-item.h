/* winnow-rule-pack-item.h — a language or a rule pack in the Rule Packs page's list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow.h"
#include "winnow-rule-pack-document.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_PACK_ITEM (winnow_rule_pack_item_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRulePackItem, winnow_rule_pack_item, WINNOW, RULE_PACK_ITEM, GObject)

WinnowRulePackItem     *winnow_rule_pack_item_new_language    (const char         *language);
WinnowRulePackItem     *winnow_rule_pack_item_new_pack        (WinnowRulePack     *pack,
                                                               guint               n_diagnostics);
gboolean                winnow_rule_pack_item_is_language     (WinnowRulePackItem *self);
const char             *winnow_rule_pack_item_get_language    (WinnowRulePackItem *self);
const char             *winnow_rule_pack_item_get_name        (WinnowRulePackItem *self);
GListModel             *winnow_rule_pack_item_get_children    (WinnowRulePackItem *self);
void                    winnow_rule_pack_item_add_child       (WinnowRulePackItem *self,
                                                               WinnowRulePackItem *child);
WinnowRulePack         *winnow_rule_pack_item_get_pack        (WinnowRulePackItem *self);
void                    winnow_rule_pack_item_set_pack        (WinnowRulePackItem *self,
                                                               WinnowRulePack     *pack);
WinnowRulePackDocument *winnow_rule_pack_item_get_document    (WinnowRulePackItem *self,
                                                               GError            **error);
gboolean                winnow_rule_pack_item_has_document    (WinnowRulePackItem *self);
void                    winnow_rule_pack_item_set_n_failing   (WinnowRulePackItem *self,
                                                               guint               n_failing);
guint                   winnow_rule_pack_item_get_n_failing   (WinnowRulePackItem *self);
void                    winnow_rule_pack_item_set_n_diagnostics (WinnowRulePackItem *self,
                                                               guint               n_diagnostics);
guint                   winnow_rule_pack_item_get_n_diagnostics (WinnowRulePackItem *self);
gboolean                winnow_rule_pack_name_matches         (const char         *name,
                                                               const char         *query);
gboolean                winnow_rule_pack_item_matches_itself (WinnowRulePackItem *self,
                                                              const char         *query);
gboolean                winnow_rule_pack_item_matches         (WinnowRulePackItem *self,
                                                               const char         *query);

G_END_DECLS
