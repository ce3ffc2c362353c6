/* winnow-api-service.h — the HTTP API while the dashboard runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_API_SERVICE (winnow_api_service_get_type ())

G_DECLARE_FINAL_TYPE (WinnowApiService, winnow_api_service, WINNOW, API_SERVICE, GObject)

WinnowApiService *winnow_api_service_new              (WinnowContext     *context);
WinnowContext    *winnow_api_service_get_context      (WinnowApiService  *self);
gboolean          winnow_api_service_get_enabled      (WinnowApiService  *self);
void              winnow_api_service_set_enabled      (WinnowApiService  *self,
                                                       gboolean           enabled);
guint             winnow_api_service_get_port         (WinnowApiService  *self);
void              winnow_api_service_set_port         (WinnowApiService  *self,
                                                       guint              port);
gboolean          winnow_api_service_get_running      (WinnowApiService  *self);
guint             winnow_api_service_get_bound_port   (WinnowApiService  *self);
const char       *winnow_api_service_get_error        (WinnowApiService  *self);
char             *winnow_api_service_dup_uri          (WinnowApiService  *self);
char             *winnow_api_service_dup_token        (WinnowApiService  *self,
                                                       GError           **error);
gboolean          winnow_api_service_regenerate_token (WinnowApiService  *self,
                                                       GError           **error);
void              winnow_api_service_stop             (WinnowApiService  *self);

G_END_DECLS
