/* winnow-diagnostic.h — one finding about a filter, pack or settings file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowDiagnosticLevel:
 * @WINNOW_DIAGNOSTIC_INFO: worth knowing (a legacy shape was converted)
 * @WINNOW_DIAGNOSTIC_WARNING: loaded, but probably not what the author meant
 * @WINNOW_DIAGNOSTIC_ERROR: the filter (or file) was not loaded
 */
typedef enum
{
  WINNOW_DIAGNOSTIC_INFO,
  WINNOW_DIAGNOSTIC_WARNING,
  WINNOW_DIAGNOSTIC_ERROR,
} WinnowDiagnosticLevel;

#define WINNOW_TYPE_DIAGNOSTIC (winnow_diagnostic_get_type ())

G_DECLARE_FINAL_TYPE (WinnowDiagnostic, winnow_diagnostic, WINNOW, DIAGNOSTIC, GObject)

WinnowDiagnostic      *winnow_diagnostic_new           (WinnowDiagnosticLevel  level,
                                                        const char            *source,
                                                        const char            *file,
                                                        const char            *filter_id,
                                                        const char            *json_path,
                                                        guint                  line,
                                                        guint                  column,
                                                        const char            *message);
WinnowDiagnostic      *winnow_diagnostic_new_about     (WinnowDiagnosticLevel  level,
                                                        const char            *source,
                                                        const char            *file,
                                                        const char            *subject_kind,
                                                        const char            *subject,
                                                        const char            *json_path,
                                                        guint                  line,
                                                        guint                  column,
                                                        const char            *message);
WinnowDiagnosticLevel  winnow_diagnostic_get_level     (WinnowDiagnostic      *self);
const char            *winnow_diagnostic_get_source    (WinnowDiagnostic      *self);
const char            *winnow_diagnostic_get_file      (WinnowDiagnostic      *self);
const char            *winnow_diagnostic_get_filter_id (WinnowDiagnostic      *self);
const char            *winnow_diagnostic_get_subject_kind (WinnowDiagnostic   *self);
const char            *winnow_diagnostic_get_subject   (WinnowDiagnostic      *self);
const char            *winnow_diagnostic_get_json_path (WinnowDiagnostic      *self);
guint                  winnow_diagnostic_get_line      (WinnowDiagnostic      *self);
guint                  winnow_diagnostic_get_column    (WinnowDiagnostic      *self);
const char            *winnow_diagnostic_get_message   (WinnowDiagnostic      *self);
char                  *winnow_diagnostic_to_string     (WinnowDiagnostic      *self);
const char            *winnow_diagnostic_level_to_string (WinnowDiagnosticLevel level);
guint                  winnow_diagnostics_count_level  (GPtrArray             *diagnostics,
                                                        WinnowDiagnosticLevel  level);

WinnowDiagnostic      *_winnow_diagnostic_copy_at      (WinnowDiagnostic      *self,
                                                        guint                  line,
                                                        guint                  column);

G_END_DECLS
