/* winnow-tokens.h — the one token counter behind every receipt and chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gsize       winnow_tokens_count        (const char *text,
                                        gssize      length);
const char *winnow_tokens_counter_name (void);

G_END_DECLS
