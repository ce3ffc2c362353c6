/* winnow-utf8.h — UTF-8 helpers for the hot paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _winnow_utf8_validate (const char  *text,
                                gsize        length,
                                const char **invalid);

G_END_DECLS
