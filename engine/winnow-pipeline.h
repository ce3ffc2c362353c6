/* winnow-pipeline.h — the modes and the stacked pipeline over text or messages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-context.h"
#include "winnow-conversation.h"
#include "winnow-pipeline-result.h"

G_BEGIN_DECLS

/**
 * WinnowPipelineMode:
 * @WINNOW_PIPELINE_MODE_OFF: nothing is compressed
 * @WINNOW_PIPELINE_MODE_RTK: command output through RTK filters only
 * @WINNOW_PIPELINE_MODE_CAVEMAN: prose through Caveman rule packs only
 * @WINNOW_PIPELINE_MODE_STACKED: the configured steps in order (rtk → caveman by default)
 */
typedef enum
{
  WINNOW_PIPELINE_MODE_OFF,
  WINNOW_PIPELINE_MODE_RTK,
  WINNOW_PIPELINE_MODE_CAVEMAN,
  WINNOW_PIPELINE_MODE_STACKED,
} WinnowPipelineMode;

const char *winnow_pipeline_mode_to_string   (WinnowPipelineMode  mode);
gboolean    winnow_pipeline_mode_from_string (const char         *str,
                                              WinnowPipelineMode *mode);

/**
 * WinnowPipelineRequest:
 * @mode: a #WinnowPipelineMode, or -1 for the settings' `defaultMode` (which the input's size
 *   may switch to `autoTriggerMode`)
 * @rtk_intensity: a #WinnowRtkIntensity for every RTK step, or -1 for the steps' own
 * @caveman_intensity: a #WinnowCavemanIntensity for every Caveman step, or -1 for the steps'
 * @role: for plain text, a #WinnowMessageRole; -1 guesses (see winnow_pipeline_run_text())
 * @language: (nullable): the language of prose; %NULL detects it per message
 * @command: (nullable): for plain text, the command that produced it
 * @cwd: (nullable): for plain text, the directory the command ran in (for the tool cache)
 * @filter_id: (nullable): force this RTK filter for plain text
 * @filter_only: for plain text, run the RTK filter without the engine's line and character caps
 * @steps: (nullable) (array length=n_steps): the stacked steps instead of the settings'
 * @n_steps: length of @steps
 * @tool_result_rules: 1 to apply the tool-result rules (1024-character minimum, protected
 *   JSON/YAML/TOML, banner, same-output cache), 0 not to, -1 for messages only
 */
typedef struct
{
  int                       mode;
  int                       rtk_intensity;
  int                       caveman_intensity;
  int                       role;
  const char               *language;
  const char               *command;
  const char               *cwd;
  const char               *filter_id;
  gboolean                  filter_only;
  const WinnowPipelineStep *steps;
  guint                     n_steps;
  int                       tool_result_rules;
} WinnowPipelineRequest;

void winnow_pipeline_request_init (WinnowPipelineRequest *request);

#define WINNOW_TYPE_PIPELINE (winnow_pipeline_get_type ())

G_DECLARE_FINAL_TYPE (WinnowPipeline, winnow_pipeline, WINNOW, PIPELINE, GObject)

WinnowPipeline       *winnow_pipeline_new          (WinnowContext               *context);
WinnowContext        *winnow_pipeline_get_context  (WinnowPipeline              *self);
WinnowPipelineResult *winnow_pipeline_run          (WinnowPipeline              *self,
                                                    WinnowConversation          *conversation,
                                                    const WinnowPipelineRequest *request,
                                                    GError                     **error);
WinnowPipelineResult *winnow_pipeline_run_text     (WinnowPipeline              *self,
                                                    const char                  *text,
                                                    gssize                       length,
                                                    const WinnowPipelineRequest *request,
                                                    GError                     **error);

void                  winnow_pipeline_run_async    (WinnowPipeline              *self,
                                                    WinnowConversation          *conversation,
                                                    const WinnowPipelineRequest *request,
                                                    GCancellable                *cancellable,
                                                    GAsyncReadyCallback          callback,
                                                    gpointer                     user_data);
void                  winnow_pipeline_run_text_async (WinnowPipeline            *self,
                                                    const char                  *text,
                                                    gssize                       length,
                                                    const WinnowPipelineRequest *request,
                                                    GCancellable                *cancellable,
                                                    GAsyncReadyCallback          callback,
                                                    gpointer                     user_data);
WinnowPipelineResult *winnow_pipeline_run_finish   (WinnowPipeline              *self,
                                                    GAsyncResult                *result,
                                                    GError                     **error);

G_END_DECLS
