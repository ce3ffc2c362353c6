/* winnow-api-group.h — the HTTP API in the preferences
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "winnow.h"
#include "winnow-api-service.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_API_GROUP (winnow_api_group_get_type ())

G_DECLARE_FINAL_TYPE (WinnowApiGroup, winnow_api_group, WINNOW, API_GROUP, AdwPreferencesGroup)

WinnowContext    *winnow_api_group_get_context (WinnowApiGroup   *self);
void              winnow_api_group_set_context (WinnowApiGroup   *self,
                                                WinnowContext    *context);
WinnowApiService *winnow_api_group_get_service (WinnowApiGroup   *self);
void              winnow_api_group_set_service (WinnowApiGroup   *self,
                                                WinnowApiService *service);

G_END_DECLS
