/* winnow-rule-pack-editor.h — a rule pack's text as a form of rules or as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow-rule-pack-document.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_PACK_EDITOR (winnow_rule_pack_editor_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRulePackEditor, winnow_rule_pack_editor, WINNOW, RULE_PACK_EDITOR,
                      GtkWidget)

void      winnow_rule_pack_editor_set_document    (WinnowRulePackEditor   *self,
                                                   WinnowRulePackDocument *document);
void      winnow_rule_pack_editor_set_diagnostics (WinnowRulePackEditor   *self,
                                                   GPtrArray              *diagnostics);
void      winnow_rule_pack_editor_jump_to         (WinnowRulePackEditor   *self,
                                                   guint                   line,
                                                   guint                   column);
GtkStack *winnow_rule_pack_editor_get_stack       (WinnowRulePackEditor   *self);
void      winnow_rule_pack_editor_set_rule_filter (WinnowRulePackEditor   *self,
                                                   const char             *query);
gboolean  winnow_rule_pack_editor_get_narrowed    (WinnowRulePackEditor   *self);

G_END_DECLS
