/* winnow-dashboard.c — the dashboard, started by `winnow` without a subcommand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A program of its own so that `winnow` need not link GTK: Debian builds GTK, libadwaita and
 * their ~80 libraries with BIND_NOW, so merely loading them resolved some 20 000 symbols and
 * cost every `winnow compress` about 14 ms before main() ran. `winnow` execs this program in
 * its place, with the same arguments.
 */

#define G_LOG_DOMAIN "winnow"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "winnow-ui.h"

int
main (int    argc,
      char **argv)
{
  /* as `winnow` does: WINNOW_LOCALEDIR points at uninstalled catalogues (<build>/po) */
  const char *localedir = g_getenv ("WINNOW_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  return winnow_ui_main (argc, argv);
}
