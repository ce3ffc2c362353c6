/* winnow-trace-stage.h — what one stage of a filter did to the text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_HIT (winnow_rule_hit_get_type ())

/**
 * WinnowRuleHit:
 * @rule: where the rule is in its filter, e.g. `rules.dropPatterns[1]`
 * @pattern: (nullable): its pattern
 * @count: how many lines it acted on
 */
typedef struct
{
  char  *rule;
  char  *pattern;
  guint  count;
} WinnowRuleHit;

GType          winnow_rule_hit_get_type (void) G_GNUC_CONST;
WinnowRuleHit *winnow_rule_hit_copy     (const WinnowRuleHit *hit);
void           winnow_rule_hit_free     (WinnowRuleHit       *hit);

#define WINNOW_TYPE_TRACE_STAGE (winnow_trace_stage_get_type ())

G_DECLARE_FINAL_TYPE (WinnowTraceStage, winnow_trace_stage, WINNOW, TRACE_STAGE, GObject)

const char          *winnow_trace_stage_get_name          (WinnowTraceStage *self);
guint                winnow_trace_stage_get_lines_in      (WinnowTraceStage *self);
guint                winnow_trace_stage_get_lines_out     (WinnowTraceStage *self);
const char          *winnow_trace_stage_get_note          (WinnowTraceStage *self);
guint                winnow_trace_stage_get_n_rule_hits   (WinnowTraceStage *self);
const WinnowRuleHit *winnow_trace_stage_get_rule_hit      (WinnowTraceStage *self,
                                                           guint             index);
const guint         *winnow_trace_stage_get_removed_lines (WinnowTraceStage *self,
                                                           guint            *n_removed);

G_END_DECLS
