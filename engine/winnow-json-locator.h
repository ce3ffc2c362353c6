/* winnow-json-locator.h — line and column of every value in a JSON document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WinnowJsonLocator WinnowJsonLocator;

WinnowJsonLocator *_winnow_json_locator_new    (const char        *text,
                                                gsize              length);
gboolean           _winnow_json_locator_lookup (WinnowJsonLocator *self,
                                                const char        *path,
                                                guint             *line,
                                                guint             *column);
void               _winnow_json_locator_free   (WinnowJsonLocator *self);
void               _winnow_json_path_append_member (GString       *path,
                                                    const char    *name);
void               _winnow_json_locate_diagnostics (GPtrArray     *diagnostics,
                                                    guint          first,
                                                    const char    *text,
                                                    gsize          length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowJsonLocator, _winnow_json_locator_free)

G_END_DECLS
