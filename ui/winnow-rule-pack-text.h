/* winnow-rule-pack-text.h — a rule pack's JSON text, written and searched as people write it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

char     *winnow_json_to_pack_text        (JsonNode   *node,
                                           guint       indent);
gboolean  winnow_rule_pack_text_find_rule (const char *text,
                                           guint       index,
                                           gsize      *start,
                                           gsize      *end);

G_END_DECLS
