/* winnow-tool-result.h — the rules for compressing what a tool returned to an agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Outputs shorter than this many characters are left alone. */
#define WINNOW_TOOL_RESULT_MIN_CHARS 1024

const char *winnow_tool_result_protected_format (const char         *text,
                                                 gssize              length);
char       *winnow_tool_result_format_banner    (const char * const *filters,
                                                 gsize               chars_before,
                                                 gsize               chars_after);
gboolean    winnow_tool_result_is_banner        (const char         *text);

G_END_DECLS
