/* winnow-rule-pack-check.h — validating an edited rule pack and running its samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow.h"

G_BEGIN_DECLS

/**
 * WinnowSampleVerdict:
 * @WINNOW_SAMPLE_NOT_APPLICABLE: the sample says nothing about this intensity
 * @WINNOW_SAMPLE_PASSED: the output is the expected text
 * @WINNOW_SAMPLE_FAILED: it is not
 */
typedef enum
{
  WINNOW_SAMPLE_NOT_APPLICABLE,
  WINNOW_SAMPLE_PASSED,
  WINNOW_SAMPLE_FAILED,
} WinnowSampleVerdict;

#define WINNOW_N_INTENSITIES 3

/**
 * WinnowSampleCheck:
 * @name: the sample's name
 * @rule: (nullable): the rule it exercises alone
 * @intensity: the intensity it is written for (what `winnow verify` runs)
 * @input: prose as written
 * @expected: what the pack must make of it
 * @actual: what the pack made of it at lite, full and ultra
 * @verdict: pass or fail at lite, full and ultra
 */
typedef struct
{
  char                   *name;
  char                   *rule;
  WinnowCavemanIntensity  intensity;
  char                   *input;
  char                   *expected;
  char                   *actual[WINNOW_N_INTENSITIES];
  WinnowSampleVerdict     verdict[WINNOW_N_INTENSITIES];
} WinnowSampleCheck;

#define WINNOW_TYPE_RULE_PACK_CHECK (winnow_rule_pack_check_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRulePackCheck, winnow_rule_pack_check, WINNOW, RULE_PACK_CHECK,
                      GObject)

void                     winnow_rule_pack_check_async          (WinnowRuleSet          *rules,
                                                                const char             *text,
                                                                const char             *source,
                                                                const char             *file,
                                                                const char             *prose,
                                                                WinnowCavemanIntensity  prose_intensity,
                                                                WinnowMessageRole       prose_role,
                                                                GCancellable           *cancellable,
                                                                GAsyncReadyCallback     callback,
                                                                gpointer                user_data);
WinnowRulePackCheck     *winnow_rule_pack_check_finish         (GAsyncResult           *result,
                                                                GError                **error);
WinnowRulePackCheck     *winnow_rule_pack_check_run            (WinnowRuleSet          *rules,
                                                                const char             *text,
                                                                const char             *source,
                                                                const char             *file,
                                                                const char             *prose,
                                                                WinnowCavemanIntensity  prose_intensity,
                                                                WinnowMessageRole       prose_role,
                                                                GCancellable           *cancellable);
const char              *winnow_rule_pack_check_get_text       (WinnowRulePackCheck    *self);
WinnowRulePack          *winnow_rule_pack_check_get_pack       (WinnowRulePackCheck    *self);
GPtrArray               *winnow_rule_pack_check_get_diagnostics (WinnowRulePackCheck   *self);
guint                    winnow_rule_pack_check_get_n_errors   (WinnowRulePackCheck    *self);
guint                    winnow_rule_pack_check_get_n_samples  (WinnowRulePackCheck    *self);
const WinnowSampleCheck *winnow_rule_pack_check_get_sample     (WinnowRulePackCheck    *self,
                                                                guint                   index);
guint                    winnow_rule_pack_check_get_n_failing  (WinnowRulePackCheck    *self);
WinnowCavemanResult     *winnow_rule_pack_check_get_prose      (WinnowRulePackCheck    *self);

G_END_DECLS
