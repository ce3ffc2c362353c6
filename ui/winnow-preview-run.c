/* winnow-preview-run.c — one recompute of the preview, off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The worker gets its own copy of the text and the settings, runs the pipeline and aligns
 * the output's lines with the input's, so the main thread only has to show the result.
 * A run that was cancelled while it worked reports G_IO_ERROR_CANCELLED instead of a result
 * that no longer matches what the person is looking at.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include "winnow-preview-run.h"

typedef struct
{
  WinnowPipeline         *pipeline;
  char                   *text;
  char                   *command;
  WinnowPipelineMode      mode;
  WinnowRtkIntensity      rtk_intensity;
  WinnowCavemanIntensity  caveman_intensity;
  WinnowLineMap          *line_map;
} PreviewRun;

static void
preview_run_free (PreviewRun *run)
{
  g_clear_object (&run->pipeline);
  g_clear_pointer (&run->text, g_free);
  g_clear_pointer (&run->command, g_free);
  g_clear_object (&run->line_map);
  g_free (run);
}

static void
preview_run_worker (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  PreviewRun *run = task_data;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(GError) error = NULL;
  WinnowPipelineRequest request;
  WinnowCompression *compression;
  const int *origins = NULL;
  guint n_origins = 0;
  const char *output;

  winnow_pipeline_request_init (&request);
  request.mode = run->mode;
  request.rtk_intensity = run->rtk_intensity;
  request.caveman_intensity = run->caveman_intensity;
  request.command = run->command;

  result = winnow_pipeline_run_text (run->pipeline, run->text, -1, &request, &error);
  if (result == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  output = winnow_pipeline_result_get_text (result, NULL);
  compression = winnow_pipeline_result_get_rtk_compression (result);

  /* the RTK trace knows each line's origin, but only when RTK wrote the final text (in a
   * stacked run, Caveman may have rewritten it since) */
  if (compression != NULL &&
      g_strcmp0 (winnow_compression_get_text (compression, NULL), output) == 0)
    origins = winnow_rtk_result_get_line_origins (winnow_compression_get_rtk_result (compression),
                                                  &n_origins);

  run->line_map = winnow_line_map_new (run->text, -1, output, -1, origins, n_origins);

  if (g_task_return_error_if_cancelled (task))
    return;

  g_task_return_pointer (task, g_steal_pointer (&result), g_object_unref);
}

/**
 * winnow_preview_run_async:
 * @pipeline: the pipeline
 * @text: the input
 * @command: (nullable): the command that produced @text
 * @mode: the mode
 * @rtk_intensity: the intensity of RTK steps
 * @caveman_intensity: the intensity of Caveman steps
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the calling thread's main context when done
 * @user_data: data for @callback
 *
 * Compresses @text in a worker thread and aligns the result with it.
 */
void
winnow_preview_run_async (WinnowPipeline         *pipeline,
                          const char             *text,
                          const char             *command,
                          WinnowPipelineMode      mode,
                          WinnowRtkIntensity      rtk_intensity,
                          WinnowCavemanIntensity  caveman_intensity,
                          GCancellable           *cancellable,
                          GAsyncReadyCallback     callback,
                          gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  PreviewRun *run;

  g_return_if_fail (WINNOW_IS_PIPELINE (pipeline));
  g_return_if_fail (text != NULL);

  run = g_new0 (PreviewRun, 1);
  run->pipeline = g_object_ref (pipeline);
  run->text = g_strdup (text);
  run->command = command && *command ? g_strdup (command) : NULL;
  run->mode = mode;
  run->rtk_intensity = rtk_intensity;
  run->caveman_intensity = caveman_intensity;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, winnow_preview_run_async);
  g_task_set_task_data (task, run, (GDestroyNotify) preview_run_free);
  g_task_run_in_thread (task, preview_run_worker);
}

/**
 * winnow_preview_run_finish:
 * @result: the #GAsyncResult
 * @line_map: (out) (transfer full): where the output's lines came from
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the pipeline's result, or %NULL with @error set
 */
WinnowPipelineResult *
winnow_preview_run_finish (GAsyncResult   *result,
                           WinnowLineMap **line_map,
                           GError        **error)
{
  GTask *task = G_TASK (result);
  WinnowPipelineResult *ret;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (task) == winnow_preview_run_async, NULL);
  g_return_val_if_fail (line_map != NULL, NULL);

  ret = g_task_propagate_pointer (task, error);
  if (ret != NULL)
    {
      PreviewRun *run = g_task_get_task_data (task);
      *line_map = g_steal_pointer (&run->line_map);
    }

  return ret;
}
