/* winnow-tool-cache.h — "same output as the last run" for repeated tool calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define WINNOW_TOOL_CACHE_DEFAULT_CAPACITY 256

#define WINNOW_TYPE_TOOL_CACHE (winnow_tool_cache_get_type ())

G_DECLARE_FINAL_TYPE (WinnowToolCache, winnow_tool_cache, WINNOW, TOOL_CACHE, GObject)

WinnowToolCache *winnow_tool_cache_new          (guint            capacity);
void             winnow_tool_cache_observe      (WinnowToolCache *self,
                                                 const char      *cwd,
                                                 const char      *command);
gboolean         winnow_tool_cache_lookup       (WinnowToolCache *self,
                                                 const char      *cwd,
                                                 const char      *command,
                                                 const char      *text,
                                                 gsize            length,
                                                 gint64           now_us,
                                                 gint64          *recorded_us);
void             winnow_tool_cache_record       (WinnowToolCache *self,
                                                 const char      *cwd,
                                                 const char      *command,
                                                 const char      *text,
                                                 gsize            length,
                                                 gint64           now_us);
guint            winnow_tool_cache_get_size     (WinnowToolCache *self);
void             winnow_tool_cache_clear        (WinnowToolCache *self);
char            *winnow_tool_cache_format_reply (const char      *command,
                                                 gint64           age_us);

G_END_DECLS
