/* winnow-rtk-result.h — the outcome of running a filter over some output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowRtkOutcome:
 * @WINNOW_RTK_OUTCOME_COMPRESSED: the text is shorter than the input
 * @WINNOW_RTK_OUTCOME_UNCHANGED: nothing to remove; the input is returned
 * @WINNOW_RTK_OUTCOME_NOT_SHORTER: the filter's result was not shorter; the input is returned
 * @WINNOW_RTK_OUTCOME_NOT_UTF8: the input is not valid UTF-8 and is passed through
 * @WINNOW_RTK_OUTCOME_EMPTY_INPUT: there was nothing to compress
 */
typedef enum
{
  WINNOW_RTK_OUTCOME_COMPRESSED,
  WINNOW_RTK_OUTCOME_UNCHANGED,
  WINNOW_RTK_OUTCOME_NOT_SHORTER,
  WINNOW_RTK_OUTCOME_NOT_UTF8,
  WINNOW_RTK_OUTCOME_EMPTY_INPUT,
} WinnowRtkOutcome;

const char *winnow_rtk_outcome_to_string (WinnowRtkOutcome outcome);

#define WINNOW_TYPE_RTK_RESULT (winnow_rtk_result_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRtkResult, winnow_rtk_result, WINNOW, RTK_RESULT, GObject)

const char       *winnow_rtk_result_get_text           (WinnowRtkResult *self,
                                                        gsize           *length);
WinnowRtkOutcome  winnow_rtk_result_get_outcome        (WinnowRtkResult *self);
gboolean          winnow_rtk_result_get_compressed     (WinnowRtkResult *self);
const char       *winnow_rtk_result_get_filter_id      (WinnowRtkResult *self);
gsize             winnow_rtk_result_get_bytes_in       (WinnowRtkResult *self);
gsize             winnow_rtk_result_get_bytes_out      (WinnowRtkResult *self);
guint             winnow_rtk_result_get_lines_in       (WinnowRtkResult *self);
guint             winnow_rtk_result_get_lines_out      (WinnowRtkResult *self);
guint             winnow_rtk_result_get_n_stages       (WinnowRtkResult *self);
WinnowTraceStage *winnow_rtk_result_get_stage          (WinnowRtkResult *self,
                                                        guint            index);
GListModel       *winnow_rtk_result_get_stages         (WinnowRtkResult *self);
const int        *winnow_rtk_result_get_line_origins   (WinnowRtkResult *self,
                                                        guint           *n_lines);
guint             winnow_rtk_result_get_budget_exceeded (WinnowRtkResult *self);

G_END_DECLS
