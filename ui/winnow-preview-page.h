/* winnow-preview-page.h — the side-by-side compression preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_PREVIEW_PAGE (winnow_preview_page_get_type ())

G_DECLARE_FINAL_TYPE (WinnowPreviewPage, winnow_preview_page, WINNOW, PREVIEW_PAGE, GtkWidget)

WinnowContext        *winnow_preview_page_get_context (WinnowPreviewPage *self);
void                  winnow_preview_page_set_context (WinnowPreviewPage *self,
                                                       WinnowContext     *context);
WinnowPipelineResult *winnow_preview_page_get_result  (WinnowPreviewPage *self);
WinnowLineMap        *winnow_preview_page_get_line_map (WinnowPreviewPage *self);
gboolean              winnow_preview_page_get_busy    (WinnowPreviewPage *self);
char                 *winnow_preview_page_dup_input   (WinnowPreviewPage *self);
const char           *winnow_preview_page_get_command (WinnowPreviewPage *self);
gboolean              winnow_preview_page_load_sample (WinnowPreviewPage *self,
                                                       const char        *sample_id);
void                  winnow_preview_page_load_file   (WinnowPreviewPage *self,
                                                       GFile             *file);
void                  winnow_preview_page_set_input   (WinnowPreviewPage *self,
                                                       const char        *text,
                                                       const char        *command);

G_END_DECLS
