/* winnow-store-raw.h — reading, listing and removing retained raw outputs; trust history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-store.h"

G_BEGIN_DECLS

/* ids are the first 24 hex digits of a SHA-256 (FORMATS.md §3) */
#define WINNOW_RAW_OUTPUT_ID_LENGTH 24

/**
 * WinnowRawOutputInfo:
 * @id: 24 lowercase hex digits
 * @created_us: when it was written, unix µs
 * @bytes: the size of the file as written (after the cut and the redaction)
 * @original_bytes: the size of the output as the command produced it
 * @truncated: whether the file was cut at `rawOutputMaxBytes`
 * @sha256: the SHA-256 of the file as written
 * @path: the file, in `DATA_DIR/rtk/raw-output/`
 * @redactions: the redaction counts as a JSON object (`{"github-token": 1}`)
 * @event_id: the event it belongs to; 0 when there is none (not recorded, or purged)
 * @source: (nullable): "run", "api" or "cli"
 * @command: (nullable): the command line, itself redacted
 * @has_exit_code: whether @exit_code holds the command's exit status
 * @exit_code: the command's exit status
 * @failure: whether the output looked like a failure when it was retained
 *
 * One retained raw output as the list shows it: everything but the text, which stays on disk
 * until winnow_store_read_raw_output() is asked for it.
 */
typedef struct
{
  char     *id;
  gint64    created_us;
  guint64   bytes;
  guint64   original_bytes;
  gboolean  truncated;
  char     *sha256;
  char     *path;
  char     *redactions;
  gint64    event_id;
  char     *source;
  char     *command;
  gboolean  has_exit_code;
  int       exit_code;
  gboolean  failure;
  char     *filter_id;
  gboolean  has_tokens;
  gint64    tokens_before;
  gint64    tokens_after;
} WinnowRawOutputInfo;

#define WINNOW_TYPE_RAW_OUTPUT_INFO (winnow_raw_output_info_get_type ())

GType                winnow_raw_output_info_get_type (void) G_GNUC_CONST;
WinnowRawOutputInfo *winnow_raw_output_info_copy     (const WinnowRawOutputInfo *info);
void                 winnow_raw_output_info_free     (WinnowRawOutputInfo       *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowRawOutputInfo, winnow_raw_output_info_free)

/**
 * WinnowRawOutputQuery:
 * @command: (nullable): only outputs whose command contains this (ASCII case ignored)
 * @failures_only: only outputs that looked like failures
 * @since_us: only outputs written at or after this time (unix µs); 0 for all
 * @offset: rows to skip, for paging
 * @limit: at most this many rows; 0 for all
 *
 * Which retained raw outputs a list shows. Rows come newest first.
 */
typedef struct
{
  const char *command;
  gboolean    failures_only;
  gint64      since_us;
  guint       offset;
  guint       limit;
} WinnowRawOutputQuery;

gboolean             winnow_raw_output_id_is_valid   (const char *id);

char                *winnow_store_get_raw_output_dir (WinnowStore                *self);

WinnowRawOutputInfo *winnow_store_lookup_raw_output  (WinnowStore                *self,
                                                      const char                 *id,
                                                      GError                    **error);
GPtrArray           *winnow_store_list_raw_outputs   (WinnowStore                *self,
                                                      const WinnowRawOutputQuery *query,
                                                      GError                    **error);
gint64               winnow_store_count_raw_outputs  (WinnowStore                *self,
                                                      const WinnowRawOutputQuery *query,
                                                      GError                    **error);
GBytes              *winnow_store_read_raw_output    (WinnowStore                *self,
                                                      const char                 *id,
                                                      WinnowRawOutputInfo       **info,
                                                      GError                    **error);
gboolean             winnow_store_delete_raw_output  (WinnowStore                *self,
                                                      const char                 *id,
                                                      GError                    **error);
gint64               winnow_store_purge_raw_outputs  (WinnowStore                *self,
                                                      gint64                      before_us,
                                                      GError                    **error);

void                 winnow_store_list_raw_outputs_async  (WinnowStore                *self,
                                                           const WinnowRawOutputQuery *query,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
GPtrArray           *winnow_store_list_raw_outputs_finish (WinnowStore                *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);
void                 winnow_store_read_raw_output_async   (WinnowStore                *self,
                                                           const char                 *id,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
GBytes              *winnow_store_read_raw_output_finish  (WinnowStore                *self,
                                                           GAsyncResult               *result,
                                                           WinnowRawOutputInfo       **info,
                                                           GError                    **error);

gboolean             winnow_store_get_last_trust_approval (WinnowStore  *self,
                                                           const char   *project,
                                                           char        **sha256,
                                                           gint64       *time_us,
                                                           char        **filters,
                                                           GError      **error);

G_END_DECLS
