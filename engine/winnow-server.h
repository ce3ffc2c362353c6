/* winnow-server.h — the local HTTP API (`winnow serve`)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-context.h"

G_BEGIN_DECLS

/* the port `winnow serve` listens on unless told otherwise */
#define WINNOW_SERVER_DEFAULT_PORT          8717
/* request bodies above this are refused with 413 */
#define WINNOW_SERVER_DEFAULT_MAX_BODY_SIZE (8u * 1024 * 1024)

#define WINNOW_SERVER_ERROR (winnow_server_error_quark ())

/**
 * WinnowServerError:
 * @WINNOW_SERVER_ERROR_TOKEN: the API token file cannot be read, written or understood
 * @WINNOW_SERVER_ERROR_ADDRESS: the address to listen on is not an IP address
 * @WINNOW_SERVER_ERROR_RUNNING: the server is already listening
 */
typedef enum
{
  WINNOW_SERVER_ERROR_TOKEN,
  WINNOW_SERVER_ERROR_ADDRESS,
  WINNOW_SERVER_ERROR_RUNNING,
} WinnowServerError;

GQuark winnow_server_error_quark (void);

char    *winnow_server_token_path (const char  *data_dir);
char    *winnow_server_load_token (const char  *data_dir,
                                   gboolean     regenerate,
                                   gboolean    *created,
                                   GError     **error);

#define WINNOW_TYPE_SERVER (winnow_server_get_type ())

G_DECLARE_FINAL_TYPE (WinnowServer, winnow_server, WINNOW, SERVER, GObject)

WinnowServer  *winnow_server_new                (WinnowContext  *context,
                                                 const char     *token);
WinnowContext *winnow_server_dup_context        (WinnowServer   *self);
void           winnow_server_set_context        (WinnowServer   *self,
                                                 WinnowContext  *context);
gsize          winnow_server_get_max_body_size  (WinnowServer   *self);
void           winnow_server_set_max_body_size  (WinnowServer   *self,
                                                 gsize           max_body_size);
gboolean       winnow_server_start              (WinnowServer   *self,
                                                 const char     *address,
                                                 guint           port,
                                                 GError        **error);
void           winnow_server_stop               (WinnowServer   *self);
gboolean       winnow_server_get_running        (WinnowServer   *self);
guint          winnow_server_get_port           (WinnowServer   *self);
char          *winnow_server_dup_uri            (WinnowServer   *self);

G_END_DECLS
