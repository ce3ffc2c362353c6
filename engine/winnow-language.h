/* winnow-language.h — which language a piece of prose is written in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *winnow_language_detect (const char         *text,
                                    gsize               length,
                                    const char * const *candidates);
gboolean    winnow_language_reads_as_prose (const char *text,
                                            gsize       length);

G_END_DECLS
