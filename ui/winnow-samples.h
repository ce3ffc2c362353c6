/* winnow-samples.h — real command output bundled with the dashboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

guint       winnow_samples_get_n_samples (void);
const char *winnow_samples_get_id        (guint        index);
const char *winnow_samples_get_title     (guint        index);
const char *winnow_samples_get_command   (guint        index);
GBytes     *winnow_samples_lookup        (const char  *id,
                                          const char **command);
GMenuModel *winnow_samples_new_menu      (const char  *action_name);

G_END_DECLS
