/* winnow-rule-pack-list.h — the languages and packs the Rule Packs page lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-rule-pack-item.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_PACK_LIST (winnow_rule_pack_list_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRulePackList, winnow_rule_pack_list, WINNOW, RULE_PACK_LIST, GObject)

WinnowRulePackList *winnow_rule_pack_list_new          (void);
GListModel         *winnow_rule_pack_list_get_model    (WinnowRulePackList *self);
void                winnow_rule_pack_list_set_rule_set (WinnowRulePackList *self,
                                                        WinnowRuleSet      *rules);
void                winnow_rule_pack_list_set_query    (WinnowRulePackList *self,
                                                        const char         *text);
guint               winnow_rule_pack_list_find         (WinnowRulePackList *self,
                                                        const char         *language,
                                                        const char         *name);

G_END_DECLS
