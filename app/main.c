/* main.c — the `winnow` program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With a subcommand, a headless CLI that needs no display; without one, the dashboard.
 */

#define G_LOG_DOMAIN "winnow"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "winnow-cli.h"
#ifdef WINNOW_HAVE_GTK
#include "winnow-ui.h"
#endif

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Subcommand;

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
  { "serve", winnow_cli_serve, N_("Serve the HTTP API on this machine") },
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
      return winnow_ui_main (argc, argv);
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
