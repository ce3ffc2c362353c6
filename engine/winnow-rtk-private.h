/* winnow-rtk-private.h — constructors the stage runner uses for its results, and its
 * engine-internal entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-rtk.h"

G_BEGIN_DECLS

WinnowTraceStage *_winnow_trace_stage_new         (const char       *name,
                                                   guint             lines_in);
void              _winnow_trace_stage_finish      (WinnowTraceStage *self,
                                                   guint             lines_out);
void              _winnow_trace_stage_set_note    (WinnowTraceStage *self,
                                                   const char       *note);
void              _winnow_trace_stage_add_hits    (WinnowTraceStage *self,
                                                   const char       *rule,
                                                   const char       *pattern,
                                                   guint             count);
void              _winnow_trace_stage_set_removed (WinnowTraceStage *self,
                                                   const guint      *origins,
                                                   guint             n_origins);

WinnowRtkResult  *_winnow_rtk_result_new          (char             *text,
                                                   gsize             length,
                                                   WinnowRtkOutcome  outcome,
                                                   const char       *filter_id,
                                                   gsize             bytes_in,
                                                   guint             lines_in,
                                                   guint             lines_out,
                                                   GListStore       *stages,
                                                   GArray           *origins,
                                                   guint             budget_exceeded);

WinnowRtkResult  *_winnow_rtk_apply_utf8          (WinnowFilter           *filter,
                                                   const char             *text,
                                                   gsize                   length,
                                                   const WinnowRtkOptions *options);

G_END_DECLS
