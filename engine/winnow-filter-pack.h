/* winnow-filter-pack.h — reading and writing a file of filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-filter.h"

G_BEGIN_DECLS

GPtrArray *winnow_filter_pack_parse     (const char             *text,
                                         gssize                  length,
                                         WinnowFilterSource      source,
                                         const char             *file,
                                         WinnowFilterParseFlags  flags,
                                         GPtrArray              *diagnostics);
GPtrArray *winnow_filter_pack_load_file (const char             *path,
                                         WinnowFilterSource      source,
                                         WinnowFilterParseFlags  flags,
                                         GPtrArray              *diagnostics);
char      *winnow_filter_pack_to_json   (GPtrArray              *filters,
                                         gboolean                as_array);

gboolean   winnow_filter_pack_save_filter (const char         *path,
                                           const char         *filter_json,
                                           const char         *replace_id,
                                           GError            **error);

G_END_DECLS
