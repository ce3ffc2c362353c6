/* winnow-cli-table.h — aligned text tables for the CLI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WinnowCliTable WinnowCliTable;

WinnowCliTable *winnow_cli_table_new     (const char     *alignment,
                                          ...) G_GNUC_NULL_TERMINATED;
void            winnow_cli_table_add_row (WinnowCliTable *self,
                                          ...) G_GNUC_NULL_TERMINATED;
void            winnow_cli_table_add_line (WinnowCliTable *self,
                                           const char     *line);
char           *winnow_cli_table_format  (WinnowCliTable *self);
void            winnow_cli_table_free    (WinnowCliTable *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowCliTable, winnow_cli_table_free)

G_END_DECLS
