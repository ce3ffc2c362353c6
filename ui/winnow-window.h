/* winnow-window.h — the dashboard window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "winnow.h"
#include "winnow-application.h"
#include "winnow-filters-page.h"
#include "winnow-preview-page.h"
#include "winnow-raw-output-page.h"
#include "winnow-rule-packs-page.h"
#include "winnow-savings-page.h"
#include "winnow-trust-page.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_WINDOW (winnow_window_get_type ())

G_DECLARE_FINAL_TYPE (WinnowWindow, winnow_window, WINNOW, WINDOW, AdwApplicationWindow)

WinnowWindow        *winnow_window_new                 (WinnowApplication *application);
WinnowWindow        *winnow_window_new_for_context     (WinnowContext     *context);
WinnowContext       *winnow_window_get_context         (WinnowWindow      *self);
WinnowPreviewPage   *winnow_window_get_preview_page    (WinnowWindow      *self);
WinnowFiltersPage   *winnow_window_get_filters_page    (WinnowWindow      *self);
WinnowRulePacksPage *winnow_window_get_rule_packs_page (WinnowWindow      *self);
WinnowTrustPage     *winnow_window_get_trust_page      (WinnowWindow      *self);
WinnowRawOutputPage *winnow_window_get_raw_output_page (WinnowWindow      *self);
WinnowSavingsPage   *winnow_window_get_savings_page    (WinnowWindow      *self);
const char          *winnow_window_get_page            (WinnowWindow      *self);
void                 winnow_window_set_page            (WinnowWindow      *self,
                                                        const char        *name);
void                 winnow_window_show_toast          (WinnowWindow      *self,
                                                        const char        *message);

G_END_DECLS
