/* winnow-rule-prose-view.h — trying a rule pack on prose the person types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_PROSE_VIEW (winnow_rule_prose_view_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRuleProseView, winnow_rule_prose_view, WINNOW, RULE_PROSE_VIEW,
                      GtkWidget)

char                   *winnow_rule_prose_view_dup_text      (WinnowRuleProseView *self);
void                    winnow_rule_prose_view_set_text      (WinnowRuleProseView *self,
                                                              const char          *text);
WinnowCavemanIntensity  winnow_rule_prose_view_get_intensity (WinnowRuleProseView *self);
WinnowMessageRole       winnow_rule_prose_view_get_role      (WinnowRuleProseView *self);
void                    winnow_rule_prose_view_show_result   (WinnowRuleProseView *self,
                                                              WinnowCavemanResult *result,
                                                              WinnowRulePack      *pack);
char                   *winnow_rule_prose_view_dup_output    (WinnowRuleProseView *self);
const char             *winnow_rule_prose_view_get_firings   (WinnowRuleProseView *self);
char                   *winnow_rule_prose_view_dup_protected_at (WinnowRuleProseView *self,
                                                                 gboolean             output,
                                                                 int                  offset);

G_END_DECLS
