/* winnow-pipeline-result.c — what a pipeline run did, step by step and part by part
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Immutable once the pipeline hands it out: the output (text, or messages in their JSON
 * shape), the receipt over the whole input, one report per step (tokens before and after it,
 * parts changed, time), the trace of decisions per part, and notes for people.
 */

#define G_LOG_DOMAIN "winnow-pipeline"

#include "config.h"

#include "winnow-pipeline-result.h"
#include "winnow-tokens.h"

struct _WinnowPipelineResult
{
  GObject            parent_instance;
  char              *text;
  gsize              length;
  char              *mode;
  gboolean           auto_triggered;
  WinnowReceipt     *receipt;
  GArray            *steps;       /* WinnowStepReport */
  GArray            *decisions;   /* WinnowDecision */
  GPtrArray         *notes;       /* NULL-terminated */
  WinnowCompression *rtk;
  gint64             duration_us;
};

G_DEFINE_FINAL_TYPE (WinnowPipelineResult, winnow_pipeline_result, G_TYPE_OBJECT)

static void
step_clear (gpointer data)
{
  WinnowStepReport *step = data;

  g_clear_pointer (&step->engine, g_free);
  g_clear_pointer (&step->intensity, g_free);
}

static void
decision_clear (gpointer data)
{
  WinnowDecision *decision = data;

  g_clear_pointer (&decision->path, g_free);
  g_clear_pointer (&decision->action, g_free);
  g_clear_pointer (&decision->detail, g_free);
}

static void
winnow_pipeline_result_finalize (GObject *object)
{
  WinnowPipelineResult *self = (WinnowPipelineResult *)object;

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->mode, g_free);
  g_clear_object (&self->receipt);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->decisions, g_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_clear_object (&self->rtk);

  G_OBJECT_CLASS (winnow_pipeline_result_parent_class)->finalize (object);
}

static void
winnow_pipeline_result_class_init (WinnowPipelineResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_pipeline_result_finalize;
}

static void
winnow_pipeline_result_init (WinnowPipelineResult *self)
{
  self->steps = g_array_new (FALSE, TRUE, sizeof (WinnowStepReport));
  g_array_set_clear_func (self->steps, step_clear);
  self->decisions = g_array_new (FALSE, TRUE, sizeof (WinnowDecision));
  g_array_set_clear_func (self->decisions, decision_clear);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->notes, NULL);
}

WinnowPipelineResult *
_winnow_pipeline_result_new (const char *mode,
                             gboolean    auto_triggered)
{
  WinnowPipelineResult *self = g_object_new (WINNOW_TYPE_PIPELINE_RESULT, NULL);

  self->mode = g_strdup (mode);
  self->auto_triggered = auto_triggered;

  return self;
}

void
_winnow_pipeline_result_add_step (WinnowPipelineResult *self,
                                  const char           *engine,
                                  const char           *intensity)
{
  WinnowStepReport step = { g_strdup (engine), g_strdup (intensity), 0, 0, 0, 0 };

  g_array_append_val (self->steps, step);
}

WinnowStepReport *
_winnow_pipeline_result_step (WinnowPipelineResult *self,
                              guint                 index)
{
  return &g_array_index (self->steps, WinnowStepReport, index);
}

void
_winnow_pipeline_result_add_decision (WinnowPipelineResult *self,
                                      guint                 part,
                                      guint                 message,
                                      const char           *path,
                                      const char           *action,
                                      const char           *detail)
{
  WinnowDecision decision = {
    part, message, g_strdup (path), g_strdup (action), g_strdup (detail)
  };

  g_array_append_val (self->decisions, decision);
}

void
_winnow_pipeline_result_add_note (WinnowPipelineResult *self,
                                  const char           *note)
{
  g_ptr_array_insert (self->notes, self->notes->len - 1, g_strdup (note));
}

/* Takes @text, @length bytes long. */
void
_winnow_pipeline_result_finish (WinnowPipelineResult *self,
                                char                 *text,
                                gsize                 length,
                                gsize                 tokens_before,
                                gsize                 tokens_after,
                                const char           *intensity,
                                WinnowCompression    *rtk,
                                gint64                duration_us)
{
  self->text = text;
  self->length = length;
  self->receipt = winnow_receipt_new (self->mode, intensity, tokens_before, tokens_after);
  self->rtk = rtk ? g_object_ref (rtk) : NULL;
  self->duration_us = duration_us;
}

/**
 * winnow_pipeline_result_get_text:
 * @self: a #WinnowPipelineResult
 * @length: (out) (optional): its length in bytes
 *
 * Returns: the output: compressed text, or the messages as JSON in the shape they came in
 */
const char *
winnow_pipeline_result_get_text (WinnowPipelineResult *self,
                                 gsize                *length)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);

  if (length != NULL)
    *length = self->length;
  return self->text;
}

/**
 * winnow_pipeline_result_get_mode:
 * @self: a #WinnowPipelineResult
 *
 * Returns: the mode that ran: "off", "rtk", "caveman" or "stacked"
 */
const char *
winnow_pipeline_result_get_mode (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);
  return self->mode;
}

/**
 * winnow_pipeline_result_get_auto_triggered:
 * @self: a #WinnowPipelineResult
 *
 * Returns: whether the input was large enough to switch to the auto-trigger mode
 */
gboolean
winnow_pipeline_result_get_auto_triggered (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), FALSE);
  return self->auto_triggered;
}

/**
 * winnow_pipeline_result_get_receipt:
 * @self: a #WinnowPipelineResult
 *
 * Returns: (transfer none): tokens before and after, over every text part
 */
WinnowReceipt *
winnow_pipeline_result_get_receipt (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);
  return self->receipt;
}

guint
winnow_pipeline_result_get_n_steps (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), 0);
  return self->steps->len;
}

const WinnowStepReport *
winnow_pipeline_result_get_step (WinnowPipelineResult *self,
                                 guint                 index)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);
  g_return_val_if_fail (index < self->steps->len, NULL);
  return &g_array_index (self->steps, WinnowStepReport, index);
}

guint
winnow_pipeline_result_get_n_decisions (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), 0);
  return self->decisions->len;
}

const WinnowDecision *
winnow_pipeline_result_get_decision (WinnowPipelineResult *self,
                                     guint                 index)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);
  g_return_val_if_fail (index < self->decisions->len, NULL);
  return &g_array_index (self->decisions, WinnowDecision, index);
}

/**
 * winnow_pipeline_result_get_rtk_compression:
 * @self: a #WinnowPipelineResult
 *
 * Returns: (transfer none) (nullable): for plain text that went through the RTK step, its
 *   compression (detection, filter, stage trace)
 */
WinnowCompression *
winnow_pipeline_result_get_rtk_compression (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);
  return self->rtk;
}

/**
 * winnow_pipeline_result_get_notes:
 * @self: a #WinnowPipelineResult
 *
 * Returns: (transfer none) (array zero-terminated=1): remarks for people
 */
const char * const *
winnow_pipeline_result_get_notes (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);
  return (const char * const *) self->notes->pdata;
}

gint64
winnow_pipeline_result_get_duration_us (WinnowPipelineResult *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), 0);
  return self->duration_us;
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/**
 * winnow_pipeline_result_to_json_node:
 * @self: a #WinnowPipelineResult
 *
 * Returns: (transfer full): `{mode, autoTriggered, receipt, steps[], decisions[], notes[],
 *   durationMs}` — everything but the output itself
 */
JsonNode *
winnow_pipeline_result_to_json_node (WinnowPipelineResult *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (WINNOW_IS_PIPELINE_RESULT (self), NULL);

  json_builder_begin_object (builder);
  add_string (builder, "mode", self->mode);
  json_builder_set_member_name (builder, "autoTriggered");
  json_builder_add_boolean_value (builder, self->auto_triggered);
  json_builder_set_member_name (builder, "receipt");
  json_builder_add_value (builder, winnow_receipt_to_json_node (self->receipt));

  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->steps->len; i++)
    {
      const WinnowStepReport *step = &g_array_index (self->steps, WinnowStepReport, i);
      g_autoptr(WinnowReceipt) receipt = winnow_receipt_new (step->engine, step->intensity,
                                                             step->tokens_before,
                                                             step->tokens_after);

      json_builder_begin_object (builder);
      add_string (builder, "engine", step->engine);
      add_string (builder, "intensity", step->intensity);
      json_builder_set_member_name (builder, "receipt");
      json_builder_add_value (builder, winnow_receipt_to_json_node (receipt));
      json_builder_set_member_name (builder, "partsChanged");
      json_builder_add_int_value (builder, step->parts_changed);
      json_builder_set_member_name (builder, "durationMs");
      json_builder_add_double_value (builder, step->duration_us / 1000.0);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "decisions");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->decisions->len; i++)
    {
      const WinnowDecision *decision = &g_array_index (self->decisions, WinnowDecision, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "part");
      json_builder_add_int_value (builder, decision->part);
      json_builder_set_member_name (builder, "message");
      json_builder_add_int_value (builder, decision->message);
      add_string (builder, "path", decision->path);
      add_string (builder, "action", decision->action);
      if (decision->detail != NULL)
        add_string (builder, "detail", decision->detail);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i + 1 < self->notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (self->notes, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "durationMs");
  json_builder_add_double_value (builder, self->duration_us / 1000.0);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
