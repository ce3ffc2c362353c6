/* winnow-pipeline-steps.h — the steps of the stacked pipeline, for editing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_PIPELINE_STEPS (winnow_pipeline_steps_get_type ())

G_DECLARE_FINAL_TYPE (WinnowPipelineSteps, winnow_pipeline_steps, WINNOW, PIPELINE_STEPS,
                      AdwPreferencesGroup)

WinnowContext *winnow_pipeline_steps_get_context (WinnowPipelineSteps *self);
void           winnow_pipeline_steps_set_context (WinnowPipelineSteps *self,
                                                  WinnowContext       *context);

G_END_DECLS
