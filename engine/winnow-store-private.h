/* winnow-store-private.h — hooks for the tests of winnow-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "winnow-store.h"
#include "winnow-store-raw.h"

G_BEGIN_DECLS

/* how many migrations the code knows: a new database ends at this user_version */
guint        _winnow_store_n_migrations (void);

/* opens like winnow_store_open() but migrates no further than @version, to build the
 * database an older Winnow left behind */
WinnowStore *_winnow_store_open_at_version (const char  *path,
                                            guint        version,
                                            GError     **error);

/* winnow-store-raw.c works on the same connection: it takes the store's mutex with
 * _winnow_store_lock() (which returns the connection) and gives it back with
 * _winnow_store_unlock() */
sqlite3     *_winnow_store_lock       (WinnowStore  *self);
void         _winnow_store_unlock     (WinnowStore  *self);
void         _winnow_store_set_error  (WinnowStore  *self,
                                       GError      **error,
                                       int           rc,
                                       const char   *what);

/* the name of a raw output's temporary file starts with this, then the writer's pid and `-`,
 * so that a purge can tell a file a writer died on from one still being written */
#define _WINNOW_RAW_OUTPUT_TEMP_PREFIX ".tmp-"

/* records a raw output with everything the list shows (winnow-raw-store.c writes the file) */
gboolean     _winnow_store_insert_raw_output (WinnowStore               *self,
                                              const WinnowRawOutputInfo *info,
                                              GError                   **error);

G_END_DECLS
