/* winnow-raw-store.h — retaining the raw output behind a compression (FORMATS.md §3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-config.h"
#include "winnow-pipeline-result.h"
#include "winnow-store.h"
#include "winnow-store-raw.h"

G_BEGIN_DECLS

/**
 * WinnowRawRetention:
 * @WINNOW_RAW_RETENTION_NEVER: keep nothing
 * @WINNOW_RAW_RETENTION_FAILURES: keep compressed output that looks like a failure
 * @WINNOW_RAW_RETENTION_ALWAYS: keep every compressed output
 *
 * `rtkConfig.rawOutputRetention`.
 */
typedef enum
{
  WINNOW_RAW_RETENTION_NEVER,
  WINNOW_RAW_RETENTION_FAILURES,
  WINNOW_RAW_RETENTION_ALWAYS,
} WinnowRawRetention;

/**
 * WinnowRawOutputRequest:
 * @text: the output as it was produced (need not be UTF-8)
 * @length: its length in bytes
 * @original_bytes: the size of the whole output when @text is only part of it (`winnow run`
 *   keeps the head and tail of huge output); 0 for @length
 * @source: "run", "api" or "cli"
 * @command: (nullable): the command line; it is redacted before it is kept
 * @has_exit_code: whether @exit_code is the command's exit status
 * @exit_code: the command's exit status
 * @has_errors: the detector saw errors in the output
 * @compressed: what was handed on differs from @text (only such output is retained)
 * @event_id: the event it belongs to, if that is recorded already; else 0
 *
 * The output to retain and what decides whether to. Strings are borrowed.
 */
typedef struct
{
  const char *text;
  gsize       length;
  guint64     original_bytes;
  const char *source;
  const char *command;
  gboolean    has_exit_code;
  int         exit_code;
  gboolean    has_errors;
  gboolean    compressed;
  gint64      event_id;
} WinnowRawOutputRequest;

gboolean             winnow_raw_retention_from_string     (const char                   *text,
                                                           WinnowRawRetention           *retention);

void                 winnow_raw_output_request_init       (WinnowRawOutputRequest       *request,
                                                           const char                   *source,
                                                           const char                   *text,
                                                           gsize                         length);
void                 winnow_raw_output_request_set_result (WinnowRawOutputRequest       *request,
                                                           WinnowPipelineResult         *result);

gboolean             winnow_raw_output_looks_failed       (const WinnowRawOutputRequest *request);
gboolean             winnow_raw_output_should_retain      (WinnowRawRetention            retention,
                                                           const WinnowRawOutputRequest *request);

WinnowRawOutputInfo *winnow_store_save_raw_output         (WinnowStore                  *store,
                                                           const WinnowRawOutputRequest *request,
                                                           gsize                         max_bytes,
                                                           GError                      **error);
WinnowRawOutputInfo *winnow_store_retain_raw_output       (WinnowStore                  *store,
                                                           WinnowConfig                 *config,
                                                           const WinnowRawOutputRequest *request,
                                                           GError                      **error);

G_END_DECLS
