/* winnow-rule-private.h — reading rules inside the rule-pack parser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-json-reader.h"
#include "winnow-rule.h"

G_BEGIN_DECLS

WinnowRule *_winnow_rule_new_from_json (WinnowJsonReader *reader,
                                        JsonNode         *node,
                                        const char       *path);

G_END_DECLS
