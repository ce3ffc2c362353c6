/* winnow-rule.h — one Caveman prose rule: a JavaScript regex and what replaces its matches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "winnow-regex.h"
#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowRuleContext:
 * @WINNOW_RULE_CONTEXT_ALL: every message
 * @WINNOW_RULE_CONTEXT_USER: user messages only
 * @WINNOW_RULE_CONTEXT_ASSISTANT: assistant messages only
 * @WINNOW_RULE_CONTEXT_SYSTEM: system messages only
 */
typedef enum
{
  WINNOW_RULE_CONTEXT_ALL,
  WINNOW_RULE_CONTEXT_USER,
  WINNOW_RULE_CONTEXT_ASSISTANT,
  WINNOW_RULE_CONTEXT_SYSTEM,
} WinnowRuleContext;

const char *winnow_rule_context_to_string   (WinnowRuleContext  context);
gboolean    winnow_rule_context_from_string (const char        *str,
                                             WinnowRuleContext *context);

#define WINNOW_RULE_DEFAULT_FLAGS "gi"

#define WINNOW_TYPE_RULE (winnow_rule_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRule, winnow_rule, WINNOW, RULE, GObject)

const char            *winnow_rule_get_name          (WinnowRule             *self);
const char            *winnow_rule_get_pattern       (WinnowRule             *self);
const char            *winnow_rule_get_flags         (WinnowRule             *self);
const char            *winnow_rule_get_replacement   (WinnowRule             *self);
const char            *winnow_rule_get_description   (WinnowRule             *self);
const char            *winnow_rule_get_category      (WinnowRule             *self);
WinnowRuleContext      winnow_rule_get_context       (WinnowRule             *self);
WinnowCavemanIntensity winnow_rule_get_min_intensity (WinnowRule             *self);
WinnowRegex           *winnow_rule_get_regex         (WinnowRule             *self);
guint                  winnow_rule_get_n_map_entries (WinnowRule             *self);
void                   winnow_rule_get_map_entry     (WinnowRule             *self,
                                                      guint                   index,
                                                      const char            **key,
                                                      const char            **value);
const char            *winnow_rule_lookup_map        (WinnowRule             *self,
                                                      const char             *match,
                                                      gsize                   length);
gboolean               winnow_rule_applies           (WinnowRule             *self,
                                                      WinnowCavemanIntensity  intensity,
                                                      WinnowMessageRole       role);
JsonNode              *winnow_rule_to_json_node      (WinnowRule             *self);

char                  *_winnow_rule_normalize_key    (const char             *text,
                                                      gsize                   length);

G_END_DECLS
