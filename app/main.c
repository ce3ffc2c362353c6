/* main.c — the `winnow` program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With a subcommand, a headless CLI that needs no display (and links no GTK); without one,
 * the dashboard, which is the program winnow-dashboard: this one execs it.
 */

#define G_LOG_DOMAIN "winnow"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

#include "winnow-cli.h"

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Subcommand;

static int exec_serve (int argc, char **argv);

static const Subcommand subcommands[] = {
  { "compress", winnow_cli_compress, N_("Compress command output, prose or chat messages") },
  { "expand", winnow_cli_expand, N_("Write abbreviations of compressed prose out in full") },
  { "detect", winnow_cli_detect, N_("Tell what kind of output something is") },
  { "verify", winnow_cli_verify, N_("Run the inline tests of filter and rule packs") },
  { "learn", winnow_cli_learn, N_("Draft a new filter from samples of a command's output") },
  { "filters", winnow_cli_filters, N_("List the filter catalog") },
  { "rules", winnow_cli_rules, N_("List the Caveman rule packs") },
  { "trust", winnow_cli_trust, N_("Approve or revoke a project's filters") },
  { "run", winnow_cli_run, N_("Run a command and compress what it prints") },
  { "raw", winnow_cli_raw, N_("List, show and remove the raw outputs Winnow kept") },
  { "gain", winnow_cli_gain, N_("Show the tokens saved, by day, filter, command and project") },
  { "serve", exec_serve, N_("Serve the HTTP API on this machine") },
};

static void
print_usage (void)
{
  g_print (_("Usage:\n  winnow [COMMAND] [OPTION…]\n\n"));
  g_print (_("Compress coding-agent context — command output and prose — without losing what "
             "matters.\n\n"));
  g_print (_("Commands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    g_print ("  %-10s %s\n", subcommands[i].name, _(subcommands[i].summary));
  g_print (_("\nRun “winnow COMMAND --help” for the options of a command.\n"));
}

/* Replaces this process with the helper program @name (winnow-dashboard, winnow-serve), whose
 * installed path is @configured. Looked for next to this program (a build tree), then where the
 * install put it relative to this program (a DESTDIR or moved prefix: bindir and libexecdir side
 * by side under one prefix), then at @configured. Returns only on failure: the errno of
 * execv(), with the path it tried in @tried. */
static int
exec_helper (const char  *name,
             const char  *configured,
             char       **argv,
             char       **tried)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self ? g_path_get_dirname (self) : NULL;
  g_autofree char *sibling = dir ? g_build_filename (dir, name, NULL) : NULL;
  g_autofree char *relative = dir && !g_path_is_absolute (WINNOW_LIBEXECDIR)
                              ? g_build_filename (dir, "..", WINNOW_LIBEXECDIR, name, NULL)
                              : NULL;
  const char *candidates[] = { sibling, relative };
  const char *path = configured;
  int saved;

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] != NULL && g_file_test (candidates[i], G_FILE_TEST_IS_EXECUTABLE))
      {
        path = candidates[i];
        break;
      }

  execv (path, argv);
  saved = errno;
  *tried = g_strdup (path);
  return saved;
}

/* `winnow serve` is the program winnow-serve, given the same command line: the CLI does not
 * link the HTTP server and libsoup (see winnow-serve.c) */
static int
exec_serve (int    argc,
            char **argv)
{
  g_autofree char *path = NULL;
  /* @argv starts at "serve": the program's own name is just before it */
  int saved = exec_helper ("winnow-serve", WINNOW_SERVE_PATH, argv - 1, &path);

  g_printerr (_("winnow: cannot start the API server %s: %s\n"), path, g_strerror (saved));
  return WINNOW_EXIT_FAILURE;
}

#ifdef WINNOW_HAVE_GTK
/* Replaces this process with the dashboard. Returns only on failure. */
static int
exec_dashboard (char **argv)
{
  g_autofree char *path = NULL;
  int saved = exec_helper ("winnow-dashboard", WINNOW_DASHBOARD_PATH, argv, &path);

  g_printerr (_("winnow: cannot start the dashboard %s: %s\n"), path, g_strerror (saved));
  return WINNOW_EXIT_FAILURE;
}
#endif

int
main (int    argc,
      char **argv)
{
  /* WINNOW_LOCALEDIR points at uninstalled catalogues (<build>/po): the translations test and
   * anyone trying a language from the build tree */
  const char *localedir = g_getenv ("WINNOW_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
#ifdef WINNOW_HAVE_GTK
      return exec_dashboard (argv);
#else
      print_usage ();
      return WINNOW_EXIT_USAGE;
#endif
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    {
      print_usage ();
      return WINNOW_EXIT_OK;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("winnow %s\n", PACKAGE_VERSION);
      return WINNOW_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    if (strcmp (argv[1], subcommands[i].name) == 0)
      {
        g_autofree char *prgname = g_strdup_printf ("winnow %s", subcommands[i].name);

        g_set_prgname (prgname);
        return subcommands[i].run (argc - 1, argv + 1);
      }

  g_printerr (_("winnow: unknown command “%s”\n"), argv[1]);
  g_printerr (_("Run “winnow --help” to see the commands.\n"));
  return WINNOW_EXIT_USAGE;
}
