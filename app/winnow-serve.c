/* winnow-serve.c — `winnow serve`, the HTTP API, started by `winnow serve`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A program of its own so that `winnow` need not link the server: libsoup brings some 14
 * libraries (Kerberos, nghttp2, brotli, libpsl, libidn2…), and loading them and binding their
 * symbols cost every `winnow compress` about 1 ms before main() ran, for a subcommand a short
 * call never uses. `winnow serve` execs this program in its place with the whole command line,
 * so argv[1] is "serve".
 */

#define G_LOG_DOMAIN "winnow"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "winnow-cli.h"

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

  g_set_prgname ("winnow serve");
  /* run by hand rather than by `winnow serve`, without the "serve": the same all the same */
  if (argc >= 2 && strcmp (argv[1], "serve") == 0)
    {
      argc--;
      argv++;
    }
  return winnow_cli_serve (argc, argv);
}
