/* winnow-store.h — the SQLite database behind `winnow gain` and the Savings page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-context.h"
#include "winnow-pipeline-result.h"

G_BEGIN_DECLS

#define WINNOW_STORE_ERROR (winnow_store_error_quark ())

/**
 * WinnowStoreError:
 * @WINNOW_STORE_ERROR_FAILED: SQLite refused a statement
 * @WINNOW_STORE_ERROR_CORRUPT: the file is damaged or is not a database at all
 * @WINNOW_STORE_ERROR_BUSY: another process held the database longer than the busy timeout
 * @WINNOW_STORE_ERROR_IO: the file or its folder cannot be opened, read or written
 * @WINNOW_STORE_ERROR_NEWER: the database was written by a newer Winnow (a later schema)
 * @WINNOW_STORE_ERROR_INVALID: an argument such as a `since` duration cannot be understood
 * @WINNOW_STORE_ERROR_NOT_FOUND: no raw output with that id, or its file is gone
 */
typedef enum
{
  WINNOW_STORE_ERROR_FAILED,
  WINNOW_STORE_ERROR_CORRUPT,
  WINNOW_STORE_ERROR_BUSY,
  WINNOW_STORE_ERROR_IO,
  WINNOW_STORE_ERROR_NEWER,
  WINNOW_STORE_ERROR_INVALID,
  WINNOW_STORE_ERROR_NOT_FOUND,
} WinnowStoreError;

GQuark winnow_store_error_quark (void);

/* events older than this are deleted unless the settings say otherwise (`retentionDays`) */
#define WINNOW_STORE_DEFAULT_RETENTION_DAYS 90

/**
 * WinnowStoreEvent:
 * @time_us: when it happened, in microseconds since the Unix epoch; 0 for now
 * @source: "cli", "api" or "run"
 * @command: (nullable): the command line whose output was compressed
 * @project: (nullable): the directory it ran in (the project)
 * @output_type: (nullable): the detected output type ("git-status", "prose" …)
 * @filter_id: (nullable): the RTK filter that ran, if any
 * @mode: (nullable): the pipeline mode ("rtk", "stacked" …)
 * @intensity: (nullable): the intensity it ran at
 * @bytes_before: size of the output as produced
 * @bytes_after: size of what was handed on
 * @tokens_before: tokens of the output as produced (counted by @counter)
 * @tokens_after: tokens of what was handed on
 * @counter: (nullable): the token counter; %NULL for winnow_tokens_counter_name()
 * @duration_us: time spent compressing
 * @has_exit_code: whether @exit_code holds the command's exit status
 * @exit_code: the command's exit status (`winnow run`), 128+N for signal N
 * @raw_output_id: (nullable): the retained raw output, 24 hex digits
 *
 * One compression as the database records it. Strings are borrowed: the store copies what it
 * keeps. The receipt of the compression (tokens, intensity, counter) lives in the event's own
 * row rather than in a table of its own: there is exactly one receipt per event, and every
 * chart sums receipts, so a separate table would only add a join to each query.
 */
typedef struct
{
  gint64      time_us;
  const char *source;
  const char *command;
  const char *project;
  const char *output_type;
  const char *filter_id;
  const char *mode;
  const char *intensity;
  guint64     bytes_before;
  guint64     bytes_after;
  guint64     tokens_before;
  guint64     tokens_after;
  const char *counter;
  gint64      duration_us;
  gboolean    has_exit_code;
  int         exit_code;
  const char *raw_output_id;
} WinnowStoreEvent;

void winnow_store_event_init        (WinnowStoreEvent     *event,
                                     const char           *source);
void winnow_store_event_set_result (WinnowStoreEvent     *event,
                                     WinnowPipelineResult *result,
                                     gsize                 bytes_before);

/**
 * WinnowStoreGroup:
 * @WINNOW_STORE_GROUP_NONE: one row with the totals
 * @WINNOW_STORE_GROUP_FILTER: one row per RTK filter (%NULL key: no filter ran)
 * @WINNOW_STORE_GROUP_COMMAND: one row per command ("git status", "npm test", "ls" …)
 * @WINNOW_STORE_GROUP_PROJECT: one row per project directory
 */
typedef enum
{
  WINNOW_STORE_GROUP_NONE,
  WINNOW_STORE_GROUP_FILTER,
  WINNOW_STORE_GROUP_COMMAND,
  WINNOW_STORE_GROUP_PROJECT,
} WinnowStoreGroup;

/**
 * WinnowSavingsRow:
 * @key: (nullable): the day (`YYYY-MM-DD`, local time), filter id, command or project; %NULL
 *   for totals and for events without one
 * @start_us: for a day, the local midnight that starts it; else 0
 * @events: how many events
 * @tokens_before: their tokens before compression
 * @tokens_after: their tokens after
 * @bytes_before: their bytes before
 * @bytes_after: their bytes after
 * @grown_events: how many of them came out with more tokens than went in
 * @tokens_grown: how many tokens those added
 *
 * Sums over some events. Savings are `tokens_before - tokens_after` and may be negative:
 * growth is reported as growth, never hidden or clamped to zero.
 */
typedef struct
{
  char    *key;
  gint64   start_us;
  guint64  events;
  guint64  tokens_before;
  guint64  tokens_after;
  guint64  bytes_before;
  guint64  bytes_after;
  guint64  grown_events;
  guint64  tokens_grown;
} WinnowSavingsRow;

#define WINNOW_TYPE_SAVINGS_ROW (winnow_savings_row_get_type ())

GType             winnow_savings_row_get_type        (void) G_GNUC_CONST;
WinnowSavingsRow *winnow_savings_row_copy            (const WinnowSavingsRow *row);
void              winnow_savings_row_free            (WinnowSavingsRow       *row);
gint64            winnow_savings_row_get_saved       (const WinnowSavingsRow *row);
double            winnow_savings_row_get_saved_ratio (const WinnowSavingsRow *row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowSavingsRow, winnow_savings_row_free)

gboolean winnow_store_parse_since (const char *text,
                                   GTimeSpan  *since,
                                   GError    **error);

#define WINNOW_TYPE_STORE (winnow_store_get_type ())

G_DECLARE_FINAL_TYPE (WinnowStore, winnow_store, WINNOW, STORE, GObject)

char        *winnow_store_default_path     (const char        *data_dir);
WinnowStore *winnow_store_open             (const char        *path,
                                            GError           **error);
WinnowStore *winnow_store_open_for_context (WinnowContext     *context,
                                            GError           **error);
const char  *winnow_store_get_path         (WinnowStore       *self);
const char  *winnow_store_get_journal_mode (WinnowStore       *self);
guint        winnow_store_get_schema_version (WinnowStore     *self);

gboolean     winnow_store_record           (WinnowStore            *self,
                                            const WinnowStoreEvent *event,
                                            gint64                 *id,
                                            GError                **error);
gboolean     winnow_store_record_many      (WinnowStore            *self,
                                            const WinnowStoreEvent *events,
                                            guint                   n_events,
                                            GError                **error);
gboolean     winnow_store_add_raw_output   (WinnowStore       *self,
                                            const char        *id,
                                            gint64             created_us,
                                            guint64            bytes,
                                            const char        *sha256,
                                            const char        *path,
                                            const char        *redactions_json,
                                            gint64             event_id,
                                            GError           **error);
gboolean     winnow_store_add_trust_approval (WinnowStore     *self,
                                            const char        *project,
                                            const char        *sha256,
                                            gint64             time_us,
                                            const char        *filters,
                                            GError           **error);
gint64       winnow_store_count_events     (WinnowStore       *self,
                                            GError           **error);

gint64       winnow_store_purge            (WinnowStore       *self,
                                            gint64             before_us,
                                            GError           **error);
gint64       winnow_store_purge_if_due     (WinnowStore       *self,
                                            guint              retention_days,
                                            gint64             now_us,
                                            GError           **error);

GPtrArray   *winnow_store_query            (WinnowStore       *self,
                                            WinnowStoreGroup   group,
                                            GTimeSpan          since,
                                            guint              limit,
                                            GError           **error);
GPtrArray   *winnow_store_query_days       (WinnowStore       *self,
                                            guint              n_days,
                                            GError           **error);

void         winnow_store_query_async      (WinnowStore         *self,
                                            WinnowStoreGroup     group,
                                            GTimeSpan            since,
                                            guint                limit,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
void         winnow_store_query_days_async (WinnowStore         *self,
                                            guint                n_days,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
GPtrArray   *winnow_store_query_finish     (WinnowStore         *self,
                                            GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS
