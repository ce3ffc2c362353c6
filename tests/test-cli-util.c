/* test-cli-util.c — running the real `winnow` binary from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "test-cli-util.h"

void
test_cli_run_clear (TestCliRun *r)
{
  g_clear_pointer (&r->out, g_bytes_unref);
  g_clear_pointer (&r->text, g_free);
  g_clear_pointer (&r->err, g_free);
}

/* Runs $WINNOW_BINARY with @args (NULL-terminated) and @input on stdin, in @cwd, with its data
 * in @data_dir and none of the environment overrides of the caller's shell. */
void
test_cli_run (TestCliRun         *r,
              const char         *data_dir,
              const char         *cwd,
              GBytes             *input,
              const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autoptr(GBytes) nothing = g_bytes_new_static ("", 0);
  const char *binary = g_getenv ("WINNOW_BINARY");

  g_assert_nonnull (binary);
  g_ptr_array_add (argv, (gpointer) binary);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_setenv (launcher, "WINNOW_DATA_DIR", data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "WINNOW_TRUST_PROJECT_FILTERS");
  g_subprocess_launcher_unsetenv (launcher, "WINNOW_BUILTIN_FILTERS_DIR");
  if (cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, cwd);

  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, input ? input : nothing, NULL, &r->out, &err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (proc, NULL, &error);
  g_assert_no_error (error);

  r->status = g_subprocess_get_exit_status (proc);
  r->text = g_strndup (g_bytes_get_data (r->out, NULL), g_bytes_get_size (r->out));
  r->err = g_strndup (g_bytes_get_data (err, NULL), g_bytes_get_size (err));
}

/* standard output as a JSON object; the test fails if it is not one */
JsonObject *
test_cli_parse_json (TestCliRun *r)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, r->text, -1, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}
