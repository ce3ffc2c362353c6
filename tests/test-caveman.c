/* test-caveman.c — the Caveman engine: protected tokens, rule semantics, clean-up, guards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

/* A rule set of one pack, written inline; "built-in" skips the lints, so a test can hold
 * rules a user's pack would be refused for. */
static WinnowRuleSet *
set_with_pack (const char  *json,
               const char  *source,
               WinnowRulePack **pack_out)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *dir = g_dir_make_tmp ("winnow-caveman-XXXXXX", NULL);
  g_autofree char *lang_dir = g_build_filename (dir, "en", NULL);
  g_autofree char *file = g_build_filename (lang_dir, "test.json", NULL);
  WinnowRuleSet *set = winnow_rule_set_new ();
  WinnowRulePack *pack;

  g_mkdir_with_parents (lang_dir, 0700);
  test_util_write_file (file, json, -1);
  pack = winnow_rule_pack_parse (json, -1, source, file, diagnostics);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_test_message ("%s", text);
    }
  g_assert_nonnull (pack);
  winnow_rule_set_add_directory (set, dir, source);
  test_util_remove_tree (dir);

  if (pack_out != NULL)
    *pack_out = pack;
  else
    g_object_unref (pack);

  return set;
}

static char *
run (WinnowRuleSet          *set,
     WinnowRulePack         *pack,
     const char             *text,
     WinnowCavemanIntensity  intensity,
     WinnowMessageRole       role)
{
  g_autoptr(WinnowCavemanResult) result = NULL;
  WinnowCavemanOptions options;

  winnow_caveman_options_init (&options);
  options.intensity = intensity;
  options.role = role;
  options.pack = pack;
  options.language = "en";
  result = winnow_caveman_compress (set, text, -1, &options);

  return g_strdup (winnow_caveman_result_get_text (result, NULL));
}

#define PACK(rules) "{\"language\":\"en\",\"category\":\"filler\",\"rules\":[" rules "]}"

static void
test_protected_tokens_are_never_touched (void)
{
  WinnowRulePack *pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"every_word\",\"pattern\":\"[A-Za-z]+\",\"replacement\":\"w\"}"),
                   "built-in", &pack);
  g_autofree char *out = NULL;
  g_autoptr(WinnowRulePack) owned = pack;

  out = run (set, pack, "Run `make check` now\n\n```sh\nmake install\n```\n", WINNOW_CAVEMAN_INTENSITY_FULL,
             WINNOW_MESSAGE_ROLE_USER);
  g_assert_cmpstr (out, ==, "W `make check` w\n\n```sh\nmake install\n```\n");
}

static void
test_matches_touching_tokens_are_skipped (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set = NULL;
  g_autofree char *swapped = NULL;
  g_autofree char *suffix = NULL;

  /* a swap that would move a token, and a $' that would copy one */
  set = set_with_pack (PACK ("{\"name\":\"swap\",\"pattern\":\"(\\\\S+) (\\\\S+)\",\"replacement\":\"$2 $1\"},"
                             "{\"name\":\"suffix\",\"pattern\":\"^z\",\"flags\":\"\",\"replacement\":\"$'\"}"),
                       "built-in", &pack);
  swapped = run (set, pack, "a `x` b c", WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);
  g_assert_cmpstr (swapped, ==, "a `x` c b");
  suffix = run (set, pack, "z `q`", WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);
  g_assert_cmpstr (suffix, ==, "z `q`");
}

static void
test_placeholder_in_input_survives (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"drop\",\"pattern\":\"\\\\bvery\\\\s+\",\"replacement\":\"\"}"),
                   "file", &pack);
  const char *text = "a very \xEF\xB7\x90 odd very `x` case";
  g_autofree char *out = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_FULL,
                              WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==, "a \xEF\xB7\x90 odd `x` case");
}

static void
test_sentence_case (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"basically\",\"pattern\":\"\\\\bbasically,?\\\\s*\",\"replacement\":\"\"},"
                         "{\"name\":\"furthermore\",\"pattern\":\"\\\\bfurthermore\\\\b\",\"replacement\":\"also\"}"),
                   "file", &pack);
  g_autofree char *upper = run (set, pack, "Basically, the fix works. Furthermore, it is fast.",
                                WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *lower = run (set, pack, "basically the fix works, basically.",
                                WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (upper, ==, "The fix works. Also, it is fast.");
  g_assert_cmpstr (lower, ==, "the fix works.");
}

static void
test_clean_up (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"honestly\",\"pattern\":\"\\\\bhonestly\\\\b\",\"replacement\":\"\"}"),
                   "file", &pack);
  g_autofree char *out = run (set, pack,
                              "It works , honestly . The cache (honestly) is fine,  honestly.\n"
                              "honestly\n\n\n\nNext   paragraph.\n    indented  stays",
                              WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);
  /* a mark that starts a word is not punctuation: its blank stays */
  g_autofree char *marks = run (set, pack, "In sed, :a is honestly a label, and .env ,x a file.",
                                WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==, "It works. The cache is fine.\n\nNext paragraph.\n    indented stays");
  g_assert_cmpstr (marks, ==, "In sed, :a is a label, and .env ,x a file.");
}

/* A pattern's \\s+ may run across line breaks; the breaks stay, so a deletion never joins
 * paragraphs or pulls a block (fence, heading, table, quote) into the line before it. A
 * line whose first words went keeps its indentation and its capital, a line whose every word
 * went leaves no blank line behind; the result ends with a line break when the message did. */
static void
test_line_breaks_stay (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"the\",\"pattern\":\"\\\\bthe\\\\s+\",\"replacement\":\"\"},"
                         "{\"name\":\"thanks\",\"pattern\":\"^thanks!\\\\s*\",\"flags\":\"gim\",\"replacement\":\"\"},"
                         "{\"name\":\"basically\",\"pattern\":\"\\\\s+basically,\",\"flags\":\"gi\",\"replacement\":\"\"},"
                         "{\"name\":\"hope\",\"pattern\":\"hope this helps!\",\"flags\":\"gi\",\"replacement\":\"\"}"),
                   "file", &pack);
  g_autofree char *out = run (set, pack,
                              "Check the\n\nnext paragraph.\n"
                              "Then run the\n```\nmake\n```\n"
                              "and read the\n# Heading\n"
                              "See the\n| a | b |\n|---|---|\n| 1 | 2 |\n"
                              "Update the\n  config.\n"
                              "Thanks!\n\nLast line.  \nA Markdown line break stays.\n"
                              "Fixed.\nHope this helps!\nNext.\n\n  Hope this helps! \n\nOwn paragraph.\n"
                              "Done.\n\nBasically, it works; it is\n  basically, fine. Ends with the\n",
                              WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==,
                   "Check\n\nnext paragraph.\n"
                   "Then run\n```\nmake\n```\n"
                   "and read\n# Heading\n"
                   "See\n| a | b |\n|---|---|\n| 1 | 2 |\n"
                   "Update\n  config.\n"
                   "\nLast line.  \nA Markdown line break stays.\n"
                   "Fixed.\nNext.\n\nOwn paragraph.\n"
                   "Done.\n\nIt works; it is\n  fine. Ends with\n");
  g_free (out);

  /* the result ends with a line break if and only if the message did */
  out = run (set, pack, "Fixed.\n\nThanks!", WINNOW_CAVEMAN_INTENSITY_FULL,
             WINNOW_MESSAGE_ROLE_USER);
  g_assert_cmpstr (out, ==, "Fixed.");
}

/* Windows line breaks stay Windows line breaks, also where a line went or a break was kept. */
static void
test_windows_line_breaks (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"the\",\"pattern\":\"\\\\bthe\\\\s+\",\"replacement\":\"\"},"
                         "{\"name\":\"thanks\",\"pattern\":\"^thanks in advance!$\",\"flags\":\"gim\",\"replacement\":\"\"},"
                         "{\"name\":\"hi\",\"pattern\":\"^hi team,\\\\s*\",\"flags\":\"gi\",\"replacement\":\"\"}"),
                   "file", &pack);
  g_autofree char *out = run (set, pack,
                              "Hi team,\r\n\r\nCould you check the\r\n```\r\nmake all\r\n```\r\n"
                              "Thanks in advance!\r\nIt fails   the  same way.\r\n",
                              WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==, "Could you check\r\n```\r\nmake all\r\n```\r\nIt fails same way.\r\n");
}

/* Hard-wrapped paragraphs read as one line: a pattern's literal space matches across a wrap.
 * Lines broken on purpose stay, and a message no rule changes comes back wrapped as it was. */
static void
test_wrapped_paragraphs (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"hope\",\"pattern\":\" ?I hope this helps\\\\.\",\"replacement\":\"\"}"),
                   "file", &pack);
  const char *wrapped =
    "The cache key now includes the compiler version, so a toolchain upgrade\n"
    "invalidates stale objects instead of linking them into the binary. I hope\n"
    "this helps.\n"
    "\n"
    "Thanks a lot for looking into this, I really appreciate it. I hope\n"
    "This helps.\n"
    "\n"
    "Best regards,\n"
    "Ravi\n";
  /* two lines: the second goes on with a unit, or with a German noun and the sentence's end */
  const char *two_lines =
    "The export was tried on August's data (183,402 rows): the file is 11,6\n"
    "MB, I hope this helps.\n"
    "\n"
    "Die Datenbank läuft später ebenfalls in Docker, also nutzen Sie den\n"
    "Dienstnamen statt der Adresse. I hope this helps.\n"
    "\n"
    "Thanks a lot for looking into this, I really appreciate it. Kind regards\n"
    "Anna Schmidt\n";
  const char *untouched =
    "The cache key now includes the compiler version, so a toolchain upgrade\n"
    "invalidates stale objects instead of linking them into the binary.\n";
  g_autofree char *out = run (set, pack, wrapped, WINNOW_CAVEMAN_INTENSITY_FULL,
                              WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *same = run (set, pack, untouched, WINNOW_CAVEMAN_INTENSITY_FULL,
                               WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *two = run (set, pack, two_lines, WINNOW_CAVEMAN_INTENSITY_FULL,
                              WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==,
                   "The cache key now includes the compiler version, so a toolchain upgrade "
                   "invalidates stale objects instead of linking them into the binary.\n"
                   "\n"
                   "Thanks a lot for looking into this, I really appreciate it. I hope\n"
                   "This helps.\n"
                   "\n"
                   "Best regards,\n"
                   "Ravi\n");
  g_assert_cmpstr (same, ==, untouched);
  g_assert_cmpstr (two, ==,
                   "The export was tried on August's data (183,402 rows): the file is 11,6 MB,\n"
                   "\n"
                   "Die Datenbank läuft später ebenfalls in Docker, also nutzen Sie den "
                   "Dienstnamen statt der Adresse.\n"
                   "\n"
                   "Thanks a lot for looking into this, I really appreciate it. Kind regards\n"
                   "Anna Schmidt\n");
}

/* A hard-wrapped list item reads as one line too, its text going on under its text or at the
 * margin; a line may start with emphasis. A new item, or a line not indented as far as the
 * item's text, is not part of it. */
static void
test_wrapped_list_items (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"basically\",\"pattern\":\"\\\\bbasically \",\"replacement\":\"\"}"),
                   "file", &pack);
  const char *text =
    "- The parser now accepts CRLF line endings in every input file, and it\n"
    "  basically no longer drops the last line when it has no line break.\n"
    "2. **Run the migration** on the staging database before you go ahead\n"
    "   and basically deploy the new version of the service to production.\n"
    "- A short item\n"
    "    indented as code.\n";
  g_autofree char *out = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_FULL,
                              WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *again = run (set, pack, out, WINNOW_CAVEMAN_INTENSITY_FULL,
                                WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==,
                   "- The parser now accepts CRLF line endings in every input file, and it no "
                   "longer drops the last line when it has no line break.\n"
                   "2. **Run the migration** on the staging database before you go ahead and "
                   "deploy the new version of the service to production.\n"
                   "- A short item\n"
                   "    indented as code.\n");
  g_assert_cmpstr (again, ==, out);
}

/* A heredoc's lines are a file's, however wrapped they look (README.Debian of git: its
 * inetd.conf lines came out as one line). */
static void
test_wrapped_heredoc (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"a\",\"pattern\":\"\\\\ba \",\"replacement\":\"\"}"),
                   "file", &pack);
  const char *text =
    "Run a git-daemon. This package provides the git-daemon program; to enable a\n"
    "git-daemon service, configure inetd(8) to launch it on demand, or install the\n"
    "git-daemon-run package to run it permanently:\n"
    " cat >> /etc/inetd.conf <<EOF\n"
    "git stream tcp4 nowait nobody /usr/bin/git git daemon --inetd --base-path=/var/lib /var/lib/git\n"
    "git stream tcp6 nowait nobody /usr/bin/git git daemon --inetd --base-path=/var/lib /var/lib/git\n"
    "EOF\n";
  g_autofree char *out = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_FULL,
                              WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==,
                   "Run git-daemon. This package provides the git-daemon program; to enable "
                   "git-daemon service, configure inetd(8) to launch it on demand, or install the "
                   "git-daemon-run package to run it permanently:\n"
                   " cat >> /etc/inetd.conf <<EOF\n"
                   "git stream tcp4 nowait nobody /usr/bin/git git daemon --inetd --base-path=/var/lib /var/lib/git\n"
                   "git stream tcp6 nowait nobody /usr/bin/git git daemon --inetd --base-path=/var/lib /var/lib/git\n"
                   "EOF\n");
}

/* An XML document is a file: its text stays as written, in whatever language it is (an
 * AppStream file's French summary lost its article to the Spanish rules). */
static void
test_xml_document (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"la\",\"pattern\":\"\\\\bla \",\"flags\":\"gi\",\"replacement\":\"\"}"),
                   "file", &pack);
  const char *text =
    "Here is the la file:\n"
    "<component type=\"desktop\">\n"
    "  <p xml:lang=\"fr\">Cela vous permet de choisir la méthode de connexion.</p>\n"
    "</component>\n";
  g_autofree char *out = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_FULL,
                              WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==,
                   "Here is the file:\n"
                   "<component type=\"desktop\">\n"
                   "  <p xml:lang=\"fr\">Cela vous permet de choisir la méthode de connexion.</p>\n"
                   "</component>\n");
}

/* Code pasted without a fence is a file's text: its strings, comments and blank lines stay
 * (json/tool.py's help strings lost their articles). */
static void
test_unfenced_code (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"the\",\"pattern\":\"\\\\bthe \",\"flags\":\"gi\",\"replacement\":\"\"}"),
                   "file", &pack);
  const char *code =
    "import argparse\n"
    "\n"
    "\n"
    "def main():\n"
    "    \"\"\"Parse the arguments.\n"
    "\n"
    "    Reads the options from the command line.\n"
    "    \"\"\"\n"
    "    parser = argparse.ArgumentParser(prog='tool')\n"
    "    parser.add_argument('--sort-keys', action='store_true',\n"
    "                        help='sort the output by key')  # the usual order\n"
    "    return parser";
  g_autofree char *text = g_strdup_printf ("Here is the script:\n\n%s\n\nThe parser fails.\n", code);
  g_autofree char *expected = g_strdup_printf ("Here is script:\n\n%s\n\nParser fails.\n", code);
  g_autofree char *out = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_FULL,
                              WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==, expected);
}

/* A paragraph the rules shorten until it looks wrapped is joined in the same call, so the
 * output compresses to itself. */
static void
test_wrapped_after_rules (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"zap\",\"pattern\":\"\\\\bz+ \",\"replacement\":\"\"}"),
                   "file", &pack);
  const char *text =
    "The cache key now includes the compiler version so that upgrades\n"
    "invalidate stale objects zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz at once.\n";
  g_autofree char *once = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_FULL,
                               WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *twice = run (set, pack, once, WINNOW_CAVEMAN_INTENSITY_FULL,
                                WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (once, ==, "The cache key now includes the compiler version so that upgrades "
                             "invalidate stale objects at once.\n");
  g_assert_cmpstr (twice, ==, once);
}

/* A list item whose words all go leaves no empty item: a bulleted one goes, a numbered one
 * stays whole (its number is a protected token). */
static void
test_list_items (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"hope\",\"pattern\":\"hope this helps!\\\\s*\",\"flags\":\"gi\",\"replacement\":\"\"}"),
                   "file", &pack);
  g_autofree char *out = run (set, pack,
                              "- Check the logs.\n- Hope this helps!\n- Done.\n\n"
                              "1. Run the tests.\n2. Hope this helps!\n3. Deploy, hope this helps!\n",
                              WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==,
                   "- Check the logs.\n- Done.\n\n"
                   "1. Run the tests.\n2. Hope this helps!\n3. Deploy,\n");
}

/* A word deleted from inside emphasis takes the marks (and its comma) along: no stray "**";
 * an aside between dashes leaves no "— —"; a word in quotes is mentioned, not used, and stays. */
static void
test_emphasis (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"basically\",\"pattern\":\"\\\\bbasically\\\\b,?\",\"flags\":\"gi\",\"replacement\":\"\"}"),
                   "file", &pack);
  g_autofree char *out = run (set, pack,
                              "The fix is *basically* done.\n**Basically** it works.\n"
                              "- *Basically*, it works.\nKeep ***basically*** and a ** b.\n"
                              "He said \"basically\" twice; “basically” is a word. It is — basically — done.\n",
                              WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==,
                   "The fix is done.\nIt works.\n- It works.\nKeep and a ** b.\n"
                   "He said \"basically\" twice; “basically” is a word. It is done.\n");
}

static void
test_clean_up_cjk (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"polite\",\"pattern\":\"(?:すみません|请问)\",\"replacement\":\"\"}"),
                   "file", &pack);
  g_autofree char *ja = run (set, pack, "すみません、ビルドが失敗しました。すみません、、再実行します 。",
                             WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *zh = run (set, pack, "请问，构建为什么失败了，请问？", WINNOW_CAVEMAN_INTENSITY_FULL,
                             WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (ja, ==, "ビルドが失敗しました。再実行します。");
  g_assert_cmpstr (zh, ==, "构建为什么失败了？");
}

static void
test_intensity_and_context (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"lite\",\"pattern\":\"\\\\bone\\\\b\",\"replacement\":\"1\"},"
                         "{\"name\":\"full\",\"pattern\":\"\\\\btwo\\\\b\",\"replacement\":\"2\",\"minIntensity\":\"full\"},"
                         "{\"name\":\"ultra\",\"pattern\":\"\\\\bthree\\\\b\",\"replacement\":\"3\",\"minIntensity\":\"ultra\"},"
                         "{\"name\":\"mine\",\"pattern\":\"\\\\bfour\\\\b\",\"replacement\":\"4\",\"context\":\"assistant\"}"),
                   "file", &pack);
  const char *text = "one two three four";
  g_autofree char *lite = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_LITE, WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *full = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *ultra = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_ULTRA, WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *assistant = run (set, pack, text, WINNOW_CAVEMAN_INTENSITY_LITE,
                                    WINNOW_MESSAGE_ROLE_ASSISTANT);

  g_assert_cmpstr (lite, ==, "1 two three four");
  g_assert_cmpstr (full, ==, "1 2 three four");
  g_assert_cmpstr (ultra, ==, "1 2 3 four");
  g_assert_cmpstr (assistant, ==, "1 two three 4");
}

static void
test_replacement_map (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"ask\",\"pattern\":\"\\\\b(could\\\\s+you\\\\s+show\\\\s+me\\\\s+how|can you tell me) (\\\\w+)\","
                         "\"replacement\":\"[$2]\",\"replacementMap\":{\"could you show me how to\":\"Show how to\"}}"),
                   "file", &pack);
  g_autofree char *hit = run (set, pack, "Could   You show ME how to fix it?",
                              WINNOW_CAVEMAN_INTENSITY_LITE, WINNOW_MESSAGE_ROLE_USER);
  g_autofree char *miss = run (set, pack, "can you tell me why?", WINNOW_CAVEMAN_INTENSITY_LITE,
                               WINNOW_MESSAGE_ROLE_USER);

  /* a hit is looked up trimmed, collapsed and lower-cased and is literal; a miss expands */
  g_assert_cmpstr (hit, ==, "Show how to fix it?");
  g_assert_cmpstr (miss, ==, "[why]?");
}

static void
test_flags (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"sensitive\",\"pattern\":\"\\\\bthe\\\\s+\",\"flags\":\"g\",\"replacement\":\"\"},"
                         "{\"name\":\"first_only\",\"pattern\":\"x\",\"flags\":\"i\",\"replacement\":\"y\"}"),
                   "file", &pack);
  g_autofree char *out = run (set, pack, "The API and the cache, X and x.",
                              WINNOW_CAVEMAN_INTENSITY_FULL, WINNOW_MESSAGE_ROLE_USER);

  g_assert_cmpstr (out, ==, "The API and cache, y and x.");
}

static void
test_deterministic (void)
{
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();
  const char *text = "Sure! I'd be happy to help. Basically, the build is really slow because "
                     "the cache in `~/.cache/ccache` is stale. Let me know if you have any questions!";

  winnow_rule_set_add_builtin (set);
  for (int intensity = 0; intensity < 3; intensity++)
    {
      WinnowCavemanOptions options;
      g_autoptr(WinnowCavemanResult) a = NULL;
      g_autoptr(WinnowCavemanResult) b = NULL;

      winnow_caveman_options_init (&options);
      options.intensity = intensity;
      options.role = WINNOW_MESSAGE_ROLE_ASSISTANT;
      a = winnow_caveman_compress (set, text, -1, &options);
      b = winnow_caveman_compress (set, text, -1, &options);
      g_assert_cmpstr (winnow_caveman_result_get_text (a, NULL), ==,
                       winnow_caveman_result_get_text (b, NULL));
      g_assert_true (winnow_caveman_result_get_changed (a));
      g_assert_nonnull (strstr (winnow_caveman_result_get_text (a, NULL), "`~/.cache/ccache`"));
    }
}

static gboolean
has_note (WinnowCavemanResult *result,
          const char          *fragment);

/* What a later rule leaves can let an earlier one match; the packs run again until nothing
 * changes, so a compressed message compresses to itself. Each rule is listed once. */
static void
test_runs_to_a_fixed_point (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"bare_sure\",\"pattern\":\"^Sure[.!]\\\\s*\",\"flags\":\"gm\",\"replacement\":\"\"},"
                         "{\"name\":\"intensifier\",\"pattern\":\"\\\\b(?:really|very) \",\"replacement\":\"\"},"
                         "{\"name\":\"echo\",\"pattern\":\"\\\\bok\\\\b\",\"replacement\":\"$&\"},"
                         "{\"name\":\"flip\",\"pattern\":\"\\\\bping\\\\b\",\"replacement\":\"pong\"},"
                         "{\"name\":\"flop\",\"pattern\":\"\\\\bpong\\\\b\",\"replacement\":\"ping\"},"
                         "{\"name\":\"grow\",\"pattern\":\"\\\\bz+\\\\b\",\"replacement\":\"$&z\"}"),
                   "file", &pack);
  WinnowCavemanOptions options;
  g_autoptr(WinnowCavemanResult) result = NULL;
  g_autoptr(WinnowCavemanResult) again = NULL;
  g_autoptr(WinnowCavemanResult) flip = NULL;
  g_autoptr(WinnowCavemanResult) loop = NULL;
  const WinnowCavemanFiring *firing;
  const char *out;

  winnow_caveman_options_init (&options);
  options.pack = pack;
  options.language = "en";
  result = winnow_caveman_compress (set, "Really sure! It is ok.\nSure! Very fine.", -1, &options);
  out = winnow_caveman_result_get_text (result, NULL);

  /* "Really sure!" only becomes a bare "Sure!" after the intensifier goes */
  g_assert_cmpstr (out, ==, "It is ok.\nFine.");
  again = winnow_caveman_compress (set, out, -1, &options);
  g_assert_false (winnow_caveman_result_get_changed (again));

  /* a rule that replaces a match with itself changed nothing and is not listed */
  g_assert_cmpuint (winnow_caveman_result_get_n_firings (result), ==, 2);
  firing = winnow_caveman_result_get_firing (result, 0);
  g_assert_cmpstr (firing->rule, ==, "bare_sure");
  g_assert_cmpuint (firing->count, ==, 2);
  firing = winnow_caveman_result_get_firing (result, 1);
  g_assert_cmpstr (firing->rule, ==, "intensifier");
  g_assert_cmpuint (firing->count, ==, 2);

  /* rules that undo each other within a pass leave the text where it was */
  flip = winnow_caveman_compress (set, "ping", -1, &options);
  g_assert_cmpstr (winnow_caveman_result_get_text (flip, NULL), ==, "ping");
  g_assert_false (has_note (flip, "passes"));

  /* a rule that never settles stops after a bounded number of passes, with a note (and
   * here the result, longer than the message, is not used) */
  loop = winnow_caveman_compress (set, "z", -1, &options);
  g_assert_cmpstr (winnow_caveman_result_get_text (loop, NULL), ==, "z");
  g_assert_true (has_note (loop, "passes"));

  /* a long message settles too (a man page of 360 KB did not); past 512 KB, one pass */
  for (gsize size = 400 * 1024; size <= 600 * 1024; size += 200 * 1024)
    {
      g_autoptr(GString) big = g_string_new (NULL);
      g_autoptr(WinnowCavemanResult) once = NULL;
      g_autoptr(WinnowCavemanResult) twice = NULL;
      const char *text;

      while (big->len < size)
        g_string_append (big, "Really sure! It is ok.\n");
      once = winnow_caveman_compress (set, big->str, big->len, &options);
      text = winnow_caveman_result_get_text (once, NULL);
      twice = winnow_caveman_compress (set, text, -1, &options);
      if (size < 512 * 1024)
        g_assert_false (winnow_caveman_result_get_changed (twice));
      else
        g_assert_true (winnow_caveman_result_get_changed (twice));
    }
}

static gboolean
has_note (WinnowCavemanResult *result,
          const char          *fragment)
{
  const char * const *notes = winnow_caveman_result_get_notes (result);

  for (guint i = 0; notes[i] != NULL; i++)
    if (strstr (notes[i], fragment) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_guards (void)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set =
    set_with_pack (PACK ("{\"name\":\"everything\",\"pattern\":\"[\\\\s\\\\S]+\",\"replacement\":\"\"},"
                         "{\"name\":\"thanks\",\"pattern\":\"thanks!?\",\"replacement\":\"\"},"
                         "{\"name\":\"grow\",\"pattern\":\"\\\\bok\\\\b\",\"replacement\":\"okay okay okay\"},"
                         "{\"name\":\"hang\",\"pattern\":\"(a+)+$\",\"replacement\":\"\"}"),
                   "built-in", &pack);
  WinnowCavemanOptions options;
  const char *long_text = "This paragraph is long enough for the guard to look at it, and it has "
                          "nothing the rules should take away.";
  g_autoptr(WinnowCavemanResult) deleted = NULL;
  g_autoptr(WinnowCavemanResult) emptied = NULL;
  g_autoptr(WinnowCavemanResult) grown = NULL;
  g_autoptr(WinnowCavemanResult) hung = NULL;
  g_autoptr(WinnowCavemanResult) binary = NULL;
  g_autoptr(GString) adversarial = g_string_new (NULL);

  winnow_caveman_options_init (&options);
  options.pack = pack;

  options.rule = "everything";
  deleted = winnow_caveman_compress (set, long_text, -1, &options);
  g_assert_cmpstr (winnow_caveman_result_get_text (deleted, NULL), ==, long_text);
  g_assert_true (has_note (deleted, "everything"));

  options.rule = "thanks";
  emptied = winnow_caveman_compress (set, "thanks!", -1, &options);
  g_assert_cmpstr (winnow_caveman_result_get_text (emptied, NULL), ==, "thanks!");
  g_assert_true (has_note (emptied, "nothing"));

  options.rule = "grow";
  grown = winnow_caveman_compress (set, "ok", -1, &options);
  g_assert_cmpstr (winnow_caveman_result_get_text (grown, NULL), ==, "ok");
  g_assert_true (has_note (grown, "longer"));

  /* catastrophic backtracking gives up within its budget instead of hanging */
  options.rule = "hang";
  for (int i = 0; i < 40; i++)
    g_string_append_c (adversarial, 'a');
  g_string_append (adversarial, "!");
  hung = winnow_caveman_compress (set, adversarial->str, -1, &options);
  g_assert_cmpstr (winnow_caveman_result_get_text (hung, NULL), ==, adversarial->str);
  g_assert_true (has_note (hung, "gave up"));

  options.rule = NULL;
  binary = winnow_caveman_compress (set, "caf\xe9 thanks", -1, &options);
  g_assert_cmpstr (winnow_caveman_result_get_text (binary, NULL), ==, "caf\xe9 thanks");
  g_assert_true (has_note (binary, "UTF-8"));
}

static void
test_huge_message (void)
{
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();
  g_autoptr(WinnowCavemanResult) result = NULL;
  gsize size = 50 * 1024 * 1024;
  g_autofree char *text = g_malloc (size + 1);
  const char *sentence = "Basically, I think the build is really slow. ";
  gsize n = strlen (sentence);
  gint64 start;

  for (gsize i = 0; i < size; i++)
    text[i] = sentence[i % n];
  text[size] = '\0';

  winnow_rule_set_add_builtin (set);
  start = g_get_monotonic_time ();
  result = winnow_caveman_compress (set, text, size, NULL);
  g_assert_false (winnow_caveman_result_get_changed (result));
  g_assert_true (has_note (result, "more than prose rules run on"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_expand (void)
{
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();
  g_autofree char *expanded = NULL;

  winnow_rule_set_add_builtin (set);
  expanded = winnow_caveman_expand (set, "Open a PR once CI passes; the regex is in `CI.yaml`.",
                                    -1, "en", NULL);
  g_assert_cmpstr (expanded, ==, "Open a pull request once continuous integration passes; the "
                   "regular expression is in `CI.yaml`.");
}

static void
test_language_detection (void)
{
  static const struct { const char *text; const char *lang; } cases[] = {
    { "The build is failing because the cache is stale and we should clear it.", "en" },
    { "O build está falhando porque o cache não foi limpo e você precisa rodar de novo.", "pt-BR" },
    { "La compilación falla porque la caché no se limpió y hay que ejecutarla de nuevo.", "es" },
    { "Der Build schlägt fehl, weil der Cache nicht geleert wurde und ich ihn neu starten muss.", "de" },
    { "La compilation échoue parce que le cache n'est pas vidé et il faut la relancer.", "fr" },
    { "Build gagal karena cache belum dibersihkan dan kita harus menjalankannya lagi.", "id" },
    { "ビルドが失敗しています。キャッシュを削除してから再実行してください。", "ja" },
    { "构建失败了，因为缓存没有清理，需要重新运行。", "zh" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpstr (winnow_language_detect (cases[i].text, strlen (cases[i].text), NULL), ==,
                     cases[i].lang);

  g_assert_null (winnow_language_detect ("12 34 56", 8, NULL));
}

/* Sentences of a human language read as prose; a tool's lines and a few words do not */
static void
test_reads_as_prose (void)
{
  static const char * const prose[] = {
    "The build has been failing since Tuesday. I think the cache is stale, and if you clear it "
    "the tests should pass again; let me know what you see on your side.",
    "Der Build schlägt seit Dienstag fehl. Ich glaube, der Cache ist veraltet, und wenn du ihn "
    "leerst, sollten die Tests wieder laufen; sag mir, was du bei dir siehst.",
    "构建从周二开始一直失败。我认为缓存已经过期了，如果你清理一下，测试应该就能重新通过。请告诉我你那边看到了什么结果。",
  };
  static const char * const not_prose[] = {
    "npm error Missing script: \"deploy\"\nnpm error\nnpm error To see a list of scripts, run:\n"
    "npm error   npm run\nnpm error A complete log of this run can be found in: /root/.npm/x.log\n",
    "2024-10-02T11:02:03Z INFO worker[3] started pid=4411 queue=default concurrency=8\n"
    "2024-10-02T11:02:04Z WARN worker[3] retrying job=88123 attempt=2 backoff=4s\n"
    "2024-10-02T11:02:09Z ERROR worker[3] job=88123 failed: connection reset by peer\n",
    "The cache is stale.",
    "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prose); i++)
    g_assert_true (winnow_language_reads_as_prose (prose[i], strlen (prose[i])));
  for (guint i = 0; i < G_N_ELEMENTS (not_prose); i++)
    g_assert_false (winnow_language_reads_as_prose (not_prose[i], strlen (not_prose[i])));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/caveman/protected-tokens", test_protected_tokens_are_never_touched);
  g_test_add_func ("/caveman/matches-touching-tokens", test_matches_touching_tokens_are_skipped);
  g_test_add_func ("/caveman/placeholder-in-input", test_placeholder_in_input_survives);
  g_test_add_func ("/caveman/sentence-case", test_sentence_case);
  g_test_add_func ("/caveman/clean-up", test_clean_up);
  g_test_add_func ("/caveman/clean-up-cjk", test_clean_up_cjk);
  g_test_add_func ("/caveman/line-breaks-stay", test_line_breaks_stay);
  g_test_add_func ("/caveman/windows-line-breaks", test_windows_line_breaks);
  g_test_add_func ("/caveman/wrapped-paragraphs", test_wrapped_paragraphs);
  g_test_add_func ("/caveman/wrapped-after-rules", test_wrapped_after_rules);
  g_test_add_func ("/caveman/wrapped-list-items", test_wrapped_list_items);
  g_test_add_func ("/caveman/wrapped-heredoc", test_wrapped_heredoc);
  g_test_add_func ("/caveman/xml-document", test_xml_document);
  g_test_add_func ("/caveman/unfenced-code", test_unfenced_code);
  g_test_add_func ("/caveman/list-items", test_list_items);
  g_test_add_func ("/caveman/emphasis", test_emphasis);
  g_test_add_func ("/caveman/intensity-and-context", test_intensity_and_context);
  g_test_add_func ("/caveman/replacement-map", test_replacement_map);
  g_test_add_func ("/caveman/flags", test_flags);
  g_test_add_func ("/caveman/deterministic", test_deterministic);
  g_test_add_func ("/caveman/fixed-point", test_runs_to_a_fixed_point);
  g_test_add_func ("/caveman/guards", test_guards);
  g_test_add_func ("/caveman/huge-message", test_huge_message);
  g_test_add_func ("/caveman/expand", test_expand);
  g_test_add_func ("/caveman/language-detection", test_language_detection);
  g_test_add_func ("/caveman/reads-as-prose", test_reads_as_prose);

  return g_test_run ();
}
