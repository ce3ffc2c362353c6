/* winnow-rule-packs-page.h — browsing, editing and checking Caveman rule packs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-rule-pack-check.h"
#include "winnow-rule-pack-document.h"
#include "winnow-rule-pack-item.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_PACKS_PAGE (winnow_rule_packs_page_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRulePacksPage, winnow_rule_packs_page, WINNOW, RULE_PACKS_PAGE,
                      GtkWidget)

WinnowContext          *winnow_rule_packs_page_get_context  (WinnowRulePacksPage *self);
void                    winnow_rule_packs_page_set_context  (WinnowRulePacksPage *self,
                                                             WinnowContext       *context);
gboolean                winnow_rule_packs_page_select_pack  (WinnowRulePacksPage *self,
                                                             const char          *language,
                                                             const char          *name);
WinnowRulePackItem     *winnow_rule_packs_page_get_item     (WinnowRulePacksPage *self);
WinnowRulePackDocument *winnow_rule_packs_page_get_document (WinnowRulePacksPage *self);
WinnowRulePackCheck    *winnow_rule_packs_page_get_check    (WinnowRulePacksPage *self);
gboolean                winnow_rule_packs_page_get_busy     (WinnowRulePacksPage *self);

G_END_DECLS
