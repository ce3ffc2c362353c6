/* winnow-ui.h — the dashboard's entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int winnow_ui_main (int    argc,
                    char **argv);

G_END_DECLS
