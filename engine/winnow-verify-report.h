/* winnow-verify-report.h — running the inline tests[] of a set of filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"
#include "winnow-test-outcome.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_VERIFY_REPORT (winnow_verify_report_get_type ())

G_DECLARE_FINAL_TYPE (WinnowVerifyReport, winnow_verify_report, WINNOW, VERIFY_REPORT, GObject)

WinnowVerifyReport *winnow_verify_filters               (GPtrArray          *filters,
                                                         GCancellable       *cancellable);
void                winnow_verify_filters_async         (GPtrArray          *filters,
                                                         GCancellable       *cancellable,
                                                         GAsyncReadyCallback callback,
                                                         gpointer            user_data);
WinnowVerifyReport *winnow_verify_filters_finish        (GAsyncResult       *result,
                                                         GError            **error);
WinnowVerifyReport *winnow_verify_rule_packs            (WinnowRuleSet      *rules,
                                                         GPtrArray          *packs,
                                                         GCancellable       *cancellable);
void                winnow_verify_report_merge          (WinnowVerifyReport *self,
                                                         WinnowVerifyReport *other);
GListModel         *winnow_verify_report_get_outcomes   (WinnowVerifyReport *self);
guint               winnow_verify_report_get_n_passed   (WinnowVerifyReport *self);
guint               winnow_verify_report_get_n_failed   (WinnowVerifyReport *self);
guint               winnow_verify_report_get_n_not_idempotent (WinnowVerifyReport *self);
char               *winnow_verify_report_dup_summary    (WinnowVerifyReport *self);

G_END_DECLS
