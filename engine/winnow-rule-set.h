/* winnow-rule-set.h — every Caveman rule pack Winnow knows, by language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-rule-pack.h"
#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_SET (winnow_rule_set_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRuleSet, winnow_rule_set, WINNOW, RULE_SET, GObject)

WinnowRuleSet *winnow_rule_set_new                (void);
guint          winnow_rule_set_add_builtin        (WinnowRuleSet *self);
guint          winnow_rule_set_add_directory      (WinnowRuleSet *self,
                                                   const char    *directory,
                                                   const char    *source);
gboolean       winnow_rule_set_add_file           (WinnowRuleSet *self,
                                                   const char    *path,
                                                   const char    *source);
GStrv          winnow_rule_set_dup_languages      (WinnowRuleSet *self);
const char    *winnow_rule_set_resolve_language   (WinnowRuleSet *self,
                                                   const char    *language);
GPtrArray     *winnow_rule_set_get_packs          (WinnowRuleSet *self,
                                                   const char    *language);
GPtrArray     *winnow_rule_set_list_packs         (WinnowRuleSet *self);
GHashTable    *winnow_rule_set_get_abbreviations  (WinnowRuleSet *self,
                                                   const char    *language);
GPtrArray     *winnow_rule_set_get_diagnostics    (WinnowRuleSet *self);
GPtrArray     *winnow_rule_set_dup_diagnostics    (WinnowRuleSet *self);

G_END_DECLS
