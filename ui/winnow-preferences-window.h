/* winnow-preferences-window.h — the compression settings, the data folder and the HTTP API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "winnow.h"
#include "winnow-api-service.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_PREFERENCES_WINDOW (winnow_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (WinnowPreferencesWindow, winnow_preferences_window, WINNOW,
                      PREFERENCES_WINDOW, AdwPreferencesWindow)

WinnowPreferencesWindow *winnow_preferences_window_new             (WinnowContext           *context,
                                                                    WinnowApiService        *api_service);
WinnowContext           *winnow_preferences_window_get_context     (WinnowPreferencesWindow *self);
WinnowApiService        *winnow_preferences_window_get_api_service (WinnowPreferencesWindow *self);
const char              *winnow_preferences_window_get_error       (WinnowPreferencesWindow *self);

G_END_DECLS
