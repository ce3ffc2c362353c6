/* fuzz-replay.c — a fuzz target as a plain program: runs every file named on the command line,
 * or every file in each folder named, through LLVMFuzzerTestOneInput
 *
 * The normal suite runs each target over its kept crashers (tests/fuzz/regressions/<target>/)
 * and its seeds, so a fixed crash stays fixed in builds without libFuzzer (gcc, valgrind).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"

static guint n_run;

static void
run_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("%s", error->message);

  g_print ("# %s (%" G_GSIZE_FORMAT " bytes)\n", path, length);
  /* a copy of exactly @length bytes, so reading past the end is caught as with libFuzzer */
  {
    g_autofree guint8 *copy = g_memdup2 (contents, length);

    LLVMFuzzerTestOneInput (copy, length);
  }
  n_run++;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
run_path (const char *path)
{
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      run_file (path);
      return;
    }

  if ((dir = g_dir_open (path, 0, &error)) == NULL)
    g_error ("%s", error->message);

  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_strings);

  for (guint i = 0; i < names->len; i++)
    run_path (g_ptr_array_index (names, i));
}

int
main (int   argc,
      char *argv[])
{
  for (int i = 1; i < argc; i++)
    run_path (argv[i]);

  g_print ("replayed %u inputs\n", n_run);
  return EXIT_SUCCESS;
}
