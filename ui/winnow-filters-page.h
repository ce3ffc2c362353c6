/* winnow-filters-page.h — the filter catalog and the filter editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-filter-editor.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_FILTERS_PAGE (winnow_filters_page_get_type ())

G_DECLARE_FINAL_TYPE (WinnowFiltersPage, winnow_filters_page, WINNOW, FILTERS_PAGE, GtkWidget)

void                winnow_filters_page_set_context (WinnowFiltersPage *self,
                                                     WinnowContext     *context);
gboolean            winnow_filters_page_show_filter (WinnowFiltersPage *self,
                                                     const char        *id);
WinnowFilterEditor *winnow_filters_page_get_editor  (WinnowFiltersPage *self);
GListModel         *winnow_filters_page_get_model   (WinnowFiltersPage *self);
guint               winnow_filters_page_get_n_failing (WinnowFiltersPage *self,
                                                       const char        *id);
gboolean            winnow_filters_page_get_verified (WinnowFiltersPage *self);
void                winnow_filters_page_set_sample  (WinnowFiltersPage *self,
                                                     const char        *text,
                                                     const char        *command);

void                winnow_filters_page_new_from_samples (WinnowFiltersPage *self,
                                                          const char        *command,
                                                          GPtrArray         *samples);
gboolean            winnow_filters_page_get_learning (WinnowFiltersPage *self);

G_END_DECLS
