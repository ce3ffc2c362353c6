/* winnow-application.h — the dashboard application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "winnow.h"
#include "winnow-api-service.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_APPLICATION (winnow_application_get_type ())

G_DECLARE_FINAL_TYPE (WinnowApplication, winnow_application, WINNOW, APPLICATION, AdwApplication)

WinnowApplication *winnow_application_new         (void);
WinnowContext     *winnow_application_get_context (WinnowApplication *self);
GSettings         *winnow_application_get_settings (WinnowApplication *self);
WinnowApiService  *winnow_application_get_api_service (WinnowApplication *self);

G_END_DECLS
