/* test-util.h — small helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void  test_util_write_file  (const char *path,
                             const char *contents,
                             gssize      length);
void  test_util_remove_tree (const char *path);
char *test_util_corpus_path (const char *relative);
void  test_util_print_diagnostics (GPtrArray *diagnostics);
void  test_util_budget      (const char *what,
                             double      measured,
                             double      target,
                             gboolean    at_least,
                             const char *unit);
void  test_util_budget_cpu  (const char *what,
                             double      measured,
                             double      cpu_measured,
                             double      target,
                             gboolean    at_least,
                             const char *unit);
gint64 test_util_cpu_us     (void);
guint test_util_time_scale (void);

/* What a program run by a test printed and how it ended. */
typedef struct
{
  int   status;   /* the exit status, -1 if it did not exit (a signal) */
  char *out;
  char *err;
} TestRun;

void  test_run_clear        (TestRun             *r);
void  test_run_spawn        (TestRun             *r,
                             GSubprocessLauncher *launcher,
                             const char          *input,
                             const char * const  *argv);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TestRun, test_run_clear)

G_END_DECLS
