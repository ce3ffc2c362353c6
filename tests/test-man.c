/* test-man.c — docs/winnow.1 renders cleanly and says what `winnow --help` says
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The man page is written by hand, so it can drift from the code. These tests hold it to the
 * binary: every subcommand `winnow --help` lists has a section, every option a subcommand's
 * --help-all lists is described in that section (or under COMMON OPTIONS), and no section
 * describes an option the subcommand no longer has.
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "test-util.h"

static void
run (TestRun                *r,
     const char * const *argv,
     const char         *manwidth)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);

  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  if (manwidth != NULL)
    g_subprocess_launcher_setenv (launcher, "MANWIDTH", manwidth, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "MANPAGER");
  g_subprocess_launcher_unsetenv (launcher, "PAGER");

  test_run_spawn (r, launcher, NULL, argv);
}

static char *
man_page_path (void)
{
  return g_build_filename (g_getenv ("WINNOW_SOURCE_DIR"), "docs", "winnow.1", NULL);
}

static char *
read_man_page (void)
{
  g_autofree char *path = man_page_path ();
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The subcommand names `winnow --help` lists under "Commands:". */
static GPtrArray *
list_subcommands (void)
{
  const char *argv[] = { g_getenv ("WINNOW_BINARY"), "--help", NULL };
  g_auto(TestRun) r = { 0 };
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) lines = NULL;
  gboolean in_commands = FALSE;

  run (&r, argv, NULL);
  g_assert_cmpint (r.status, ==, 0);

  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_equal (lines[i], "Commands:"))
        in_commands = TRUE;
      else if (in_commands && g_str_has_prefix (lines[i], "  "))
        {
          g_auto(GStrv) words = g_strsplit_set (g_strstrip (lines[i]), " ", 2);
          g_ptr_array_add (names, g_strdup (words[0]));
        }
      else if (in_commands)
        break;
    }

  return g_steal_pointer (&names);
}

/* The long options (without "--") that `winnow SUBCOMMAND --help-all` lists. */
static GHashTable *
list_help_options (const char *subcommand)
{
  const char *argv[] = { g_getenv ("WINNOW_BINARY"), subcommand, "--help-all", NULL };
  g_auto(TestRun) r = { 0 };
  g_autoptr(GRegex) option = g_regex_new ("^  (?:-[a-zA-Z], )?--([a-z][a-z-]*)", G_REGEX_MULTILINE,
                                          0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  GHashTable *options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  run (&r, argv, NULL);
  g_assert_cmpint (r.status, ==, 0);

  for (g_regex_match (option, r.out, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    g_hash_table_add (options, g_match_info_fetch (match, 1));

  return options;
}

/* The text of one `.SH`/`.SS` section: from its heading line to the next heading. */
static char *
section (const char *page,
         const char *heading_prefix)
{
  const char *start = strstr (page, heading_prefix);
  const char *end;

  if (start == NULL)
    return NULL;

  end = start + strlen (heading_prefix);
  while ((end = strstr (end, "\n.S")) != NULL)
    {
      if (g_str_has_prefix (end, "\n.SS ") || g_str_has_prefix (end, "\n.SH "))
        break;
      end++;
    }

  return end ? g_strndup (start, end - start) : g_strdup (start);
}

/* The long options a section describes: the first `\-\-name` of each `.TP` item. */
static GHashTable *
list_section_options (const char *text)
{
  g_autoptr(GRegex) item = g_regex_new ("^\\.TP\\n[^\\n]*?\\\\-\\\\-([a-z](?:[a-z]|\\\\-)*)",
                                        G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  GHashTable *options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (g_regex_match (item, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *escaped = g_match_info_fetch (match, 1);
      g_auto(GStrv) parts = g_strsplit (escaped, "\\-", -1);

      g_hash_table_add (options, g_strjoinv ("-", parts));
    }

  return options;
}

static void
test_man_renders_without_warnings (void)
{
  g_autofree char *man = g_find_program_in_path ("man");
  g_autofree char *path = man_page_path ();
  const char *argv[] = { man, "--warnings", "-l", path, NULL };
  g_auto(TestRun) r = { 0 };

  if (man == NULL)
    {
      g_test_skip ("man is not installed");
      return;
    }

  run (&r, argv, "80");
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (strstr (r.out, "WINNOW(1)") != NULL);
  g_assert_true (strstr (r.out, "EXIT STATUS") != NULL);
}

static void
test_man_names_this_version (void)
{
  g_autofree char *page = read_man_page ();

  /* the .TH line says which release the page describes */
  g_assert_nonnull (strstr (page, "\n.TH WINNOW 1 "));
  g_assert_nonnull (strstr (page, " \"Winnow " PACKAGE_VERSION "\" "));
}

static void
test_man_lists_every_subcommand (void)
{
  g_autofree char *page = read_man_page ();
  g_autoptr(GPtrArray) names = list_subcommands ();

  g_assert_cmpuint (names->len, >=, 12);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *heading = g_strdup_printf ("\n.SS \"%s ", (char *) names->pdata[i]);

      if (strstr (page, heading) == NULL)
        g_error ("docs/winnow.1 has no section for “winnow %s”", (char *) names->pdata[i]);
    }

  /* and no section for a subcommand that is gone */
  {
    g_autoptr(GRegex) heading = g_regex_new ("^\\.SS \"([a-z]+) ", G_REGEX_MULTILINE, 0, NULL);
    g_autoptr(GMatchInfo) match = NULL;

    for (g_regex_match (heading, page, 0, &match); g_match_info_matches (match);
         g_match_info_next (match, NULL))
      {
        g_autofree char *name = g_match_info_fetch (match, 1);
        gboolean known = FALSE;

        for (guint i = 0; i < names->len && !known; i++)
          known = g_str_equal (names->pdata[i], name);
        if (!known)
          g_error ("docs/winnow.1 describes “winnow %s”, which `winnow --help` does not list", name);
      }
  }
}

static void
test_man_describes_every_option (void)
{
  g_autofree char *page = read_man_page ();
  g_autofree char *common_text = section (page, "\n.SH COMMON OPTIONS");
  g_autoptr(GHashTable) common = NULL;
  g_autoptr(GPtrArray) names = list_subcommands ();

  g_assert_nonnull (common_text);
  common = list_section_options (common_text);
  g_assert_true (g_hash_table_contains (common, "data-dir"));

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      g_autofree char *heading = g_strdup_printf ("\n.SS \"%s ", name);
      g_autofree char *text = section (page, heading);
      g_autoptr(GHashTable) help = list_help_options (name);
      g_autoptr(GHashTable) described = NULL;
      GHashTableIter iter;
      const char *option;

      g_assert_nonnull (text);
      described = list_section_options (text);

      g_hash_table_iter_init (&iter, help);
      while (g_hash_table_iter_next (&iter, (gpointer *) &option, NULL))
        if (!g_hash_table_contains (described, option) && !g_hash_table_contains (common, option))
          g_error ("docs/winnow.1 does not describe “winnow %s --%s”", name, option);

      g_hash_table_iter_init (&iter, described);
      while (g_hash_table_iter_next (&iter, (gpointer *) &option, NULL))
        if (!g_hash_table_contains (help, option))
          g_error ("docs/winnow.1 describes “winnow %s --%s”, which its --help-all does not list",
                   name, option);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_assert_nonnull (g_getenv ("WINNOW_BINARY"));
  g_assert_nonnull (g_getenv ("WINNOW_SOURCE_DIR"));

  g_test_add_func ("/man/renders-without-warnings", test_man_renders_without_warnings);
  g_test_add_func ("/man/names-this-version", test_man_names_this_version);
  g_test_add_func ("/man/lists-every-subcommand", test_man_lists_every_subcommand);
  g_test_add_func ("/man/describes-every-option", test_man_describes_every_option);

  return g_test_run ();
}
