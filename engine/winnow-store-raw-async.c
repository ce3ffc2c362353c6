/* winnow-store-raw-async.c — the raw-output list and reader in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the dashboard: a list page or a file of up to 64 MiB is read in a GTask thread, on the
 * store's own connection (its mutex serialises the work with the caller's). The query is copied,
 * so the caller may change or free it at once.
 */

#define G_LOG_DOMAIN "winnow-store"

#include "config.h"

#include "winnow-store-raw.h"

typedef struct
{
  WinnowRawOutputQuery  query;
  char                 *command;
  char                 *id;
  WinnowRawOutputInfo  *info;
} RawTaskData;

static void
raw_task_data_free (RawTaskData *data)
{
  g_free (data->command);
  g_free (data->id);
  winnow_raw_output_info_free (data->info);
  g_free (data);
}

static void
list_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  RawTaskData *data = task_data;
  GError *error = NULL;
  GPtrArray *rows;

  if (g_task_return_error_if_cancelled (task))
    return;

  rows = winnow_store_list_raw_outputs (source_object, &data->query, &error);
  if (rows == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, rows, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * winnow_store_list_raw_outputs_async:
 *
 * winnow_store_list_raw_outputs() in a worker thread; @query is copied. Finish with
 * winnow_store_list_raw_outputs_finish().
 */
void
winnow_store_list_raw_outputs_async (WinnowStore                *self,
                                     const WinnowRawOutputQuery *query,
                                     GCancellable               *cancellable,
                                     GAsyncReadyCallback         callback,
                                     gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  RawTaskData *data;

  g_return_if_fail (WINNOW_IS_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (RawTaskData, 1);
  if (query != NULL)
    data->query = *query;
  data->command = g_strdup (data->query.command);
  data->query.command = data->command;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, winnow_store_list_raw_outputs_async);
  g_task_set_task_data (task, data, (GDestroyNotify) raw_task_data_free);
  g_task_run_in_thread (task, list_thread);
}

/**
 * winnow_store_list_raw_outputs_finish:
 *
 * Returns: (transfer container) (element-type WinnowRawOutputInfo): the rows, or %NULL with
 *   @error set
 */
GPtrArray *
winnow_store_list_raw_outputs_finish (WinnowStore   *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        winnow_store_list_raw_outputs_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  RawTaskData *data = task_data;
  GError *error = NULL;
  GBytes *bytes;

  if (g_task_return_error_if_cancelled (task))
    return;

  bytes = winnow_store_read_raw_output (source_object, data->id, &data->info, &error);
  if (bytes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

/**
 * winnow_store_read_raw_output_async:
 *
 * winnow_store_read_raw_output() in a worker thread; finish with
 * winnow_store_read_raw_output_finish().
 */
void
winnow_store_read_raw_output_async (WinnowStore         *self,
                                    const char          *id,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  RawTaskData *data;

  g_return_if_fail (WINNOW_IS_STORE (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (RawTaskData, 1);
  data->id = g_strdup (id);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, winnow_store_read_raw_output_async);
  g_task_set_task_data (task, data, (GDestroyNotify) raw_task_data_free);
  g_task_run_in_thread (task, read_thread);
}

/**
 * winnow_store_read_raw_output_finish:
 * @info: (out) (optional) (transfer full): the raw output's row
 *
 * Returns: (transfer full): the text, or %NULL with @error set
 */
GBytes *
winnow_store_read_raw_output_finish (WinnowStore          *self,
                                     GAsyncResult         *result,
                                     WinnowRawOutputInfo **info,
                                     GError              **error)
{
  RawTaskData *data;
  GBytes *bytes;

  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        winnow_store_read_raw_output_async, NULL);

  bytes = g_task_propagate_pointer (G_TASK (result), error);
  data = g_task_get_task_data (G_TASK (result));
  if (bytes != NULL && info != NULL)
    *info = g_steal_pointer (&data->info);

  return bytes;
}
