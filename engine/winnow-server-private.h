/* winnow-server-private.h — what the server's routes share with the server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "winnow-event-queue.h"
#include "winnow-pipeline.h"
#include "winnow-server.h"
#include "winnow-store.h"

G_BEGIN_DECLS

/**
 * WinnowServerJob:
 * @server: the server
 * @pipeline: the settings, catalog and rule packs as they were when the request arrived
 * @store: (nullable): the database, if it could be opened
 * @events: (nullable): where events go to be recorded, in batches, off the request's path
 * @body: (nullable): the request body (at most the server's limit)
 * @query: (nullable): the query parameters
 * @path_arg: (nullable): the last path segment of a route that takes one (raw-output ids)
 * @status: the HTTP status the route answers with
 * @response: the JSON document it answers with
 * @response_text: (nullable): or that document already written out, by a route that writes
 *   its answer itself (rtk/test: json-glib's tree and generator took a tenth of its time)
 * @response_length: the length of @response_text
 *
 * One request, as a route sees it on a worker thread. Everything a route reads is a
 * reference or a copy taken on the server's thread, so that a settings change arriving
 * meanwhile cannot pull anything from under it.
 */
typedef struct
{
  WinnowServer   *server;
  WinnowPipeline *pipeline;
  WinnowStore    *store;
  WinnowEventQueue *events;
  GBytes         *body;
  GHashTable     *query;
  char           *path_arg;
  guint           status;
  JsonNode       *response;
  char           *response_text;
  gsize           response_length;
} WinnowServerJob;

typedef void (*WinnowServerRouteFunc) (WinnowServerJob *job);

void            _winnow_server_job_fail            (WinnowServerJob *job,
                                                    guint            status,
                                                    const char      *code,
                                                    const char      *path,
                                                    const char      *format,
                                                    ...) G_GNUC_PRINTF (5, 6);
JsonNode       *_winnow_server_error_node          (const char      *code,
                                                    const char      *path,
                                                    const char      *message);

WinnowPipeline *_winnow_server_pipeline_for        (WinnowServer    *self,
                                                    WinnowPipeline  *base,
                                                    const char      *settings,
                                                    GError         **error);
WinnowPipeline *_winnow_server_save_settings       (WinnowServer    *self,
                                                    JsonNode        *document,
                                                    GError         **error);
GMutex         *_winnow_server_get_settings_lock   (WinnowServer    *self);

/* routes (winnow-server-routes.c), run on worker threads */
void _winnow_server_route_get_rtk_config    (WinnowServerJob *job);
void _winnow_server_route_put_rtk_config    (WinnowServerJob *job);
void _winnow_server_route_get_filters       (WinnowServerJob *job);
void _winnow_server_route_rtk_test          (WinnowServerJob *job);
void _winnow_server_route_raw_output        (WinnowServerJob *job);
void _winnow_server_route_preview           (WinnowServerJob *job);
void _winnow_server_route_get_settings      (WinnowServerJob *job);
void _winnow_server_route_put_settings      (WinnowServerJob *job);
void _winnow_server_route_analytics         (WinnowServerJob *job);

/* winnow-server-diff.c: word segments {type: same|removed|added, text} */
JsonNode *_winnow_server_diff (const char *original,
                               gsize       original_length,
                               const char *compressed,
                               gsize       compressed_length);

G_END_DECLS
