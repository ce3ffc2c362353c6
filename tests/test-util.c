/* test-util.c — small helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <sys/resource.h>

#include "test-util.h"
#include "winnow.h"

/* Writes @contents to @path, creating its folder. */
void
test_util_write_file (const char *path,
                      const char *contents,
                      gssize      length)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (dir, 0755);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
}

/* Removes @path and everything below it (no symlinks are followed). */
void
test_util_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_remove (path);
      return;
    }

  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      test_util_remove_tree (child);
    }
  g_rmdir (path);
}

/* A path in tests/corpus/ of the source tree. */
char *
test_util_corpus_path (const char *relative)
{
  return g_test_build_filename (G_TEST_DIST, "corpus", relative, NULL);
}

/* Prints each diagnostic as the CLI would, so a failing check shows what was found. */
void
test_util_print_diagnostics (GPtrArray *diagnostics)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_printerr ("%s\n", text);
    }
}

/* One line of the performance budget: `./dev bench` gathers every line that starts with
 * "BUDGET\t" from the benchmarks' output into one table at the end. @at_least: the target
 * is a minimum (throughput) rather than a maximum (time). @cpu_measured: the same figure
 * computed from processor time instead of the clock (what it would be with a processor to
 * itself; NAN if not measured): on a machine shared with other work the clock follows their
 * load. The verdict goes by the clock. */
void
test_util_budget_cpu (const char *what,
                      double      measured,
                      double      cpu_measured,
                      double      target,
                      gboolean    at_least,
                      const char *unit)
{
  gboolean pass = at_least ? measured >= target : measured <= target;
  g_autofree char *cpu = isnan (cpu_measured) ? g_strdup ("-")
                                              : g_strdup_printf ("%.4g %s", cpu_measured, unit);

  g_print ("BUDGET\t%s\t%s %g %s\t%.4g %s\t%s\t%s\n", what, at_least ? ">=" : "<=", target,
           unit, measured, unit, pass ? "PASS" : "MISS", cpu);
}

void
test_util_budget (const char *what,
                  double      measured,
                  double      target,
                  gboolean    at_least,
                  const char *unit)
{
  test_util_budget_cpu (what, measured, NAN, target, at_least, unit);
}

/* user + system time of this process so far, in µs */
gint64
test_util_cpu_us (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (gint64) usage.ru_utime.tv_sec * G_USEC_PER_SEC + usage.ru_utime.tv_usec +
         (gint64) usage.ru_stime.tv_sec * G_USEC_PER_SEC + usage.ru_stime.tv_usec;
}

void
test_run_clear (TestRun *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

/* Runs @argv with @launcher (set up by the caller: environment, folder; it needs the stdout and
 * stderr pipes, and the stdin pipe when @input is not %NULL), feeds it @input and collects
 * what it printed. */
void
test_run_spawn (TestRun             *r,
                GSubprocessLauncher *launcher,
                const char          *input,
                const char * const  *argv)
{
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;

  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, input, NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  r->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
}

/**
 * test_util_time_scale:
 *
 * How many times longer than usual a test may wait for something to happen: 1, or the
 * value of `WINNOW_TEST_TIME_SCALE`, which `./dev test --sanitize` and `--valgrind` set
 * because instrumented code on a busy machine can be tens of times slower. Only waits are
 * scaled; a test that checks work is bounded keeps its own limit.
 *
 * Returns: the factor, at least 1
 */
guint
test_util_time_scale (void)
{
  const char *value = g_getenv ("WINNOW_TEST_TIME_SCALE");
  guint64 scale;

  if (value == NULL || !g_ascii_string_to_unsigned (value, 10, 1, 1000, &scale, NULL))
    return 1;
  return (guint) scale;
}
