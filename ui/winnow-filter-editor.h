/* winnow-filter-editor.h — edit one RTK filter: form, JSON, live tests, try it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_FILTER_EDITOR (winnow_filter_editor_get_type ())

G_DECLARE_FINAL_TYPE (WinnowFilterEditor, winnow_filter_editor, WINNOW, FILTER_EDITOR, GtkWidget)

void          winnow_filter_editor_set_context   (WinnowFilterEditor *self,
                                                  WinnowContext      *context);
void          winnow_filter_editor_load          (WinnowFilterEditor *self,
                                                  WinnowFilter       *filter);
void          winnow_filter_editor_load_draft    (WinnowFilterEditor *self,
                                                  const char         *json);
const char   *winnow_filter_editor_get_text      (WinnowFilterEditor *self);
void          winnow_filter_editor_set_text      (WinnowFilterEditor *self,
                                                  const char         *json);
gboolean      winnow_filter_editor_get_dirty     (WinnowFilterEditor *self);
gboolean      winnow_filter_editor_get_busy      (WinnowFilterEditor *self);
gboolean      winnow_filter_editor_get_read_only (WinnowFilterEditor *self);
const char   *winnow_filter_editor_get_file      (WinnowFilterEditor *self);
guint         winnow_filter_editor_get_n_failed  (WinnowFilterEditor *self);
guint         winnow_filter_editor_get_n_passed  (WinnowFilterEditor *self);
const char   *winnow_filter_editor_get_problems  (WinnowFilterEditor *self);
void          winnow_filter_editor_set_sample    (WinnowFilterEditor *self,
                                                  const char         *text,
                                                  const char         *command);
void          winnow_filter_editor_duplicate_to_project (WinnowFilterEditor *self,
                                                         const char         *project_dir);
gboolean      winnow_filter_editor_save          (WinnowFilterEditor *self,
                                                  GError            **error);

G_END_DECLS
