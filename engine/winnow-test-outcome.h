/* winnow-test-outcome.h — the result of one inline test of a filter or rule pack
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TEST_OUTCOME (winnow_test_outcome_get_type ())

G_DECLARE_FINAL_TYPE (WinnowTestOutcome, winnow_test_outcome, WINNOW, TEST_OUTCOME, GObject)

WinnowFilter *winnow_test_outcome_get_filter     (WinnowTestOutcome *self);
WinnowRulePack *winnow_test_outcome_get_rule_pack (WinnowTestOutcome *self);
const char   *winnow_test_outcome_get_subject    (WinnowTestOutcome *self);
guint         winnow_test_outcome_get_index      (WinnowTestOutcome *self);
const char   *winnow_test_outcome_get_name       (WinnowTestOutcome *self);
gboolean      winnow_test_outcome_get_passed     (WinnowTestOutcome *self);
gboolean      winnow_test_outcome_get_idempotent (WinnowTestOutcome *self);
const char   *winnow_test_outcome_get_expected   (WinnowTestOutcome *self);
const char   *winnow_test_outcome_get_actual     (WinnowTestOutcome *self);
char         *winnow_test_outcome_dup_diff       (WinnowTestOutcome *self);

WinnowTestOutcome *_winnow_test_outcome_new      (WinnowFilter      *filter,
                                                  guint              index,
                                                  const char        *name,
                                                  const char        *expected,
                                                  const char        *actual,
                                                  gboolean           idempotent);

WinnowTestOutcome *_winnow_test_outcome_new_for_pack (WinnowRulePack *pack,
                                                     guint           index,
                                                     const char     *name,
                                                     const char     *expected,
                                                     const char     *actual);

G_END_DECLS
