/* winnow-diff.h — a readable line diff for test failures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *winnow_diff_lines (const char *expected,
                         const char *actual);

G_END_DECLS
