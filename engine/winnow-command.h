/* winnow-command.h — what command produced some output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *winnow_command_normalize      (const char *command_line);
char *winnow_command_from_output    (const char *text,
                                     gsize       length);

G_END_DECLS
