/* winnow-raw-output-page.h — the retained raw outputs, beside what Winnow makes of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-raw-output-list.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RAW_OUTPUT_PAGE (winnow_raw_output_page_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRawOutputPage, winnow_raw_output_page, WINNOW, RAW_OUTPUT_PAGE, GtkWidget)

void                 winnow_raw_output_page_set_context   (WinnowRawOutputPage *self,
                                                           WinnowContext       *context);
WinnowRawOutputList *winnow_raw_output_page_get_list      (WinnowRawOutputPage *self);
GtkSingleSelection  *winnow_raw_output_page_get_selection (WinnowRawOutputPage *self);
gboolean             winnow_raw_output_page_get_busy      (WinnowRawOutputPage *self);
const char          *winnow_raw_output_page_get_state     (WinnowRawOutputPage *self);
void                 winnow_raw_output_page_set_search    (WinnowRawOutputPage *self,
                                                           const char          *command);
void                 winnow_raw_output_page_refresh       (WinnowRawOutputPage *self);
const char          *winnow_raw_output_page_get_filter_id (WinnowRawOutputPage *self);
gboolean             winnow_raw_output_page_delete_selected (WinnowRawOutputPage *self,
                                                             GError             **error);
gint64               winnow_raw_output_page_purge         (WinnowRawOutputPage *self,
                                                           guint                days,
                                                           GError             **error);

G_END_DECLS
