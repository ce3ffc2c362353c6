/* winnow-rule-pack.h — a file of Caveman rules for one language and category
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "winnow-rule.h"
#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_TEST (winnow_rule_test_get_type ())

/**
 * WinnowRuleTest:
 * @name: what the sample shows
 * @rule: (nullable): the one rule the sample exercises, or %NULL for the whole pack
 * @intensity: the intensity it runs at
 * @role: the role of the message
 * @input: prose as written
 * @expected: what the rules must turn @input into
 *
 * One `tests[]` sample of a rule pack. Immutable once part of a pack.
 */
struct _WinnowRuleTest
{
  char                   *name;
  char                   *rule;
  WinnowCavemanIntensity  intensity;
  WinnowMessageRole       role;
  char                   *input;
  char                   *expected;
};

GType           winnow_rule_test_get_type (void) G_GNUC_CONST;
WinnowRuleTest *winnow_rule_test_new      (const char             *name,
                                           const char             *rule,
                                           WinnowCavemanIntensity  intensity,
                                           WinnowMessageRole       role,
                                           const char             *input,
                                           const char             *expected);
WinnowRuleTest *winnow_rule_test_copy     (const WinnowRuleTest   *test);
void            winnow_rule_test_free     (WinnowRuleTest         *test);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowRuleTest, winnow_rule_test_free)

#define WINNOW_TYPE_RULE_PACK (winnow_rule_pack_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRulePack, winnow_rule_pack, WINNOW, RULE_PACK, GObject)

WinnowRulePack       *winnow_rule_pack_parse          (const char      *text,
                                                       gssize           length,
                                                       const char      *source,
                                                       const char      *file,
                                                       GPtrArray       *diagnostics);
WinnowRulePack       *winnow_rule_pack_load_file      (const char      *path,
                                                       const char      *source,
                                                       GPtrArray       *diagnostics);
const char           *winnow_rule_pack_get_language   (WinnowRulePack  *self);
const char           *winnow_rule_pack_get_category   (WinnowRulePack  *self);
const char           *winnow_rule_pack_get_source     (WinnowRulePack  *self);
const char           *winnow_rule_pack_get_file       (WinnowRulePack  *self);
const char           *winnow_rule_pack_get_name       (WinnowRulePack  *self);
guint                 winnow_rule_pack_get_n_rules    (WinnowRulePack  *self);
WinnowRule           *winnow_rule_pack_get_rule       (WinnowRulePack  *self,
                                                       guint            index);
WinnowRule           *winnow_rule_pack_lookup_rule    (WinnowRulePack  *self,
                                                       const char      *name);
guint                 winnow_rule_pack_get_n_tests    (WinnowRulePack  *self);
const WinnowRuleTest *winnow_rule_pack_get_test       (WinnowRulePack  *self,
                                                       guint            index);
guint                 winnow_rule_pack_get_n_errors   (WinnowRulePack  *self);
char                 *winnow_rule_pack_to_json        (WinnowRulePack  *self);

G_END_DECLS
