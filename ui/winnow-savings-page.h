/* winnow-savings-page.h — tokens saved, charted from the store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-bar-chart.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_SAVINGS_PAGE (winnow_savings_page_get_type ())

G_DECLARE_FINAL_TYPE (WinnowSavingsPage, winnow_savings_page, WINNOW, SAVINGS_PAGE, GtkWidget)

void                    winnow_savings_page_set_context (WinnowSavingsPage  *self,
                                                         WinnowContext      *context);
void                    winnow_savings_page_refresh     (WinnowSavingsPage  *self);
gboolean                winnow_savings_page_get_busy    (WinnowSavingsPage  *self);
const char             *winnow_savings_page_get_period  (WinnowSavingsPage  *self);
void                    winnow_savings_page_set_period  (WinnowSavingsPage  *self,
                                                         const char         *period);
const char             *winnow_savings_page_get_state   (WinnowSavingsPage  *self);
const WinnowSavingsRow *winnow_savings_page_get_totals  (WinnowSavingsPage  *self);
WinnowBarChart         *winnow_savings_page_get_chart   (WinnowSavingsPage  *self,
                                                         const char         *name);
gboolean                winnow_savings_page_export_csv  (WinnowSavingsPage  *self,
                                                         const char         *path,
                                                         GError            **error);

G_END_DECLS
