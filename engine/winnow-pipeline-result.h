/* winnow-pipeline-result.h — what a pipeline run did, step by step and part by part
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "winnow-compression.h"
#include "winnow-receipt.h"
#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowStepReport:
 * @engine: "rtk", "caveman" or "structure"
 * @intensity: the intensity it ran at
 * @tokens_before: tokens of all parts before the step
 * @tokens_after: tokens of all parts after it
 * @parts_changed: how many parts it changed
 * @duration_us: time spent in it
 *
 * One step of the pipeline, over every part of the input.
 */
typedef struct
{
  char   *engine;
  char   *intensity;
  gsize   tokens_before;
  gsize   tokens_after;
  guint   parts_changed;
  gint64  duration_us;
} WinnowStepReport;

/**
 * WinnowDecision:
 * @part: the text part (0 for plain text)
 * @message: the message it belongs to
 * @path: where it sits in the messages document (`messages[3].content`)
 * @action: what happened: "rtk:git-status", "caveman:en/full", "adapter:yaml",
 *   "adapter_reverted:xml", "cache:same-output", "kept:short", "protected:json",
 *   "reverted:not-shorter"…
 * @detail: (nullable): more, for people
 *
 * One thing the pipeline decided about one part: the trace of decisions per message.
 */
typedef struct
{
  guint  part;
  guint  message;
  char  *path;
  char  *action;
  char  *detail;
} WinnowDecision;

#define WINNOW_TYPE_PIPELINE_RESULT (winnow_pipeline_result_get_type ())

G_DECLARE_FINAL_TYPE (WinnowPipelineResult, winnow_pipeline_result, WINNOW, PIPELINE_RESULT, GObject)

const char             *winnow_pipeline_result_get_text          (WinnowPipelineResult *self,
                                                                  gsize                *length);
const char             *winnow_pipeline_result_get_mode          (WinnowPipelineResult *self);
gboolean                winnow_pipeline_result_get_auto_triggered (WinnowPipelineResult *self);
WinnowReceipt          *winnow_pipeline_result_get_receipt       (WinnowPipelineResult *self);
guint                   winnow_pipeline_result_get_n_steps       (WinnowPipelineResult *self);
const WinnowStepReport *winnow_pipeline_result_get_step          (WinnowPipelineResult *self,
                                                                  guint                 index);
guint                   winnow_pipeline_result_get_n_decisions   (WinnowPipelineResult *self);
const WinnowDecision   *winnow_pipeline_result_get_decision      (WinnowPipelineResult *self,
                                                                  guint                 index);
WinnowCompression      *winnow_pipeline_result_get_rtk_compression (WinnowPipelineResult *self);
const char * const     *winnow_pipeline_result_get_notes         (WinnowPipelineResult *self);
gint64                  winnow_pipeline_result_get_duration_us   (WinnowPipelineResult *self);
JsonNode               *winnow_pipeline_result_to_json_node      (WinnowPipelineResult *self);

/* for the pipeline */
WinnowPipelineResult   *_winnow_pipeline_result_new              (const char           *mode,
                                                                  gboolean              auto_triggered);
void                    _winnow_pipeline_result_add_step         (WinnowPipelineResult *self,
                                                                  const char           *engine,
                                                                  const char           *intensity);
WinnowStepReport       *_winnow_pipeline_result_step             (WinnowPipelineResult *self,
                                                                  guint                 index);
void                    _winnow_pipeline_result_add_decision     (WinnowPipelineResult *self,
                                                                  guint                 part,
                                                                  guint                 message,
                                                                  const char           *path,
                                                                  const char           *action,
                                                                  const char           *detail);
void                    _winnow_pipeline_result_add_note         (WinnowPipelineResult *self,
                                                                  const char           *note);
void                    _winnow_pipeline_result_finish           (WinnowPipelineResult *self,
                                                                  char                 *text,
                                                                  gsize                 length,
                                                                  gsize                 tokens_before,
                                                                  gsize                 tokens_after,
                                                                  const char           *intensity,
                                                                  WinnowCompression    *rtk,
                                                                  gint64                duration_us);

G_END_DECLS
