/* test-cli-util.h — running the real `winnow` binary from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  int     status;
  GBytes *out;
  char   *text;   /* out, nul-terminated */
  char   *err;
} TestCliRun;

void        test_cli_run_clear (TestCliRun         *r);
void        test_cli_run       (TestCliRun         *r,
                                const char         *data_dir,
                                const char         *cwd,
                                GBytes             *input,
                                const char * const *args);
JsonObject *test_cli_parse_json (TestCliRun        *r);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TestCliRun, test_cli_run_clear)

G_END_DECLS
