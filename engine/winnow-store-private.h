/* winnow-store-private.h — hooks for the tests of winnow-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-store.h"

G_BEGIN_DECLS

/* how many migrations the code knows: a new database ends at this user_version */
guint        _winnow_store_n_migrations (void);

/* opens like winnow_store_open() but migrates no further than @version, to build the
 * database an older Winnow left behind */
WinnowStore *_winnow_store_open_at_version (const char  *path,
                                            guint        version,
                                            GError     **error);

G_END_DECLS
