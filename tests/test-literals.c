/* test-literals.c — the literal prefilters never skip a line or a message a pattern matches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The stage runner skips a line pattern on a line that lacks every literal the pattern needs,
 * and Caveman skips a rule on a message that does (engine/winnow-literals.c). A wrong literal
 * would silently drop an error line or leave a rule unapplied, so this checks the property on
 * everything we have: every line pattern of every built-in and conformance filter against every
 * line of the real-output corpus, and every built-in rule against every prose message and
 * rule sample in its language.
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "prose-corpus.h"
#include "test-util.h"
#include "winnow.h"
#include "winnow-literals.h"

static void
check_literals_with_flags (const char *pattern,
                           const char *flags,
                           const char *expected)
{
  g_autoptr(GPtrArray) literals = _winnow_literals_required (pattern, flags);
  g_autoptr(GString) got = g_string_new (NULL);

  for (guint i = 0; literals != NULL && i < literals->len; i++)
    g_string_append_printf (got, "%s[%s]", i ? " " : "", (char *) g_ptr_array_index (literals, i));

  g_assert_cmpstr (literals ? got->str : NULL, ==, expected);
}

static void
check_literals (const char *pattern,
                const char *expected)
{
  check_literals_with_flags (pattern, NULL, expected);
}

static void
test_extraction (void)
{
  check_literals ("\\b(?:error|fail)\\b", "[error] [fail]");
  check_literals ("^\\s+at \\S+", "[at ]");
  check_literals ("Tests:\\s+\\d+", "[tests:]");
  check_literals ("a(?:b|c)d", "[abd] [acd]");
  check_literals ("x+yz", "[xyz]");
  check_literals ("ab?cd", "[cd]");
  check_literals ("\\bFAIL(?:ED)?\\b", "[fail]");
  check_literals ("Switched to", "[switched to]");
  check_literals ("ab{2}c", "[ab]");
  /* nothing safe to say */
  check_literals ("^\\s*$", NULL);
  check_literals ("^\\s{2}\\S+", NULL);
  check_literals ("foo|x", NULL);          /* a one-character branch */
  check_literals ("(a)\\1", NULL);         /* backreference */
  check_literals ("(?=abc)x", NULL);       /* lookahead consumes nothing */
  check_literals ("caf(?:é|e)s", "[caf]"); /* é folds to bytes we cannot check */
  check_literals ("(?:é|e)tat", "[tat]");
  check_literals ("(unclosed", NULL);
  check_literals ("(?i)abc", NULL);        /* inline flags: not guessed at */

  /* the u flag's escapes; without it \p is a p and {So} is text */
  check_literals_with_flags ("\\p{So}\\s*ok", "gu", "[ok]");
  check_literals_with_flags ("\\p{So}ok", "g", "[{so}ok]");
  check_literals_with_flags ("\\P{Lu}ab|\\p{L}cd", "u", "[ab] [cd]");
  check_literals_with_flags ("\\p{So", "u", NULL);
  check_literals_with_flags ("\\u{2192} next", "u", "[→ next]");
  check_literals_with_flags ("\\u{110000}", "u", NULL);
  check_literals_with_flags ("[\\w--\\d]ab", "v", NULL);  /* v's classes are not followed */
  /* letters without case are themselves; cased ones outside ASCII are not */
  check_literals ("よろしくお願いします", "[よろしくお願いします]");
  check_literals ("非常感谢", "[非常感谢]");
  check_literals ("Größe", "[gr]");
}

static void
add_lines (GPtrArray  *lines,
           const char *text)
{
  g_auto(GStrv) split = g_strsplit (text, "\n", -1);

  for (guint i = 0; split[i] != NULL; i++)
    {
      gsize len = strlen (split[i]);

      if (len > 0 && split[i][len - 1] == '\r')
        split[i][len - 1] = '\0';
      if (g_utf8_validate (split[i], -1, NULL))
        g_ptr_array_add (lines, g_strdup (split[i]));
    }
}

static void
add_patterns (GPtrArray    *patterns,
              WinnowFilter *filter)
{
  const char * const *lists[] = {
    winnow_filter_get_drop_patterns (filter), winnow_filter_get_include_patterns (filter),
    winnow_filter_get_collapse_patterns (filter), winnow_filter_get_error_patterns (filter),
    winnow_filter_get_summary_patterns (filter),
  };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l][i] != NULL; i++)
      g_ptr_array_add (patterns, g_strdup (lists[l][i]));
}

static void
test_never_skips_a_match (void)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) patterns = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *manifest = test_util_corpus_path ("manifest.json");
  const char *conformance = g_getenv ("WINNOW_CONFORMANCE_DIR");
  JsonArray *entries;
  guint checked = 0, skipped = 0, with_literals = 0;

  winnow_catalog_add_builtin (catalog);
  if (conformance != NULL && g_file_test (conformance, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (conformance, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (conformance, name, "filters", NULL);
          if (g_file_test (path, G_FILE_TEST_IS_DIR))
            winnow_catalog_add_directory (catalog, path, WINNOW_FILTER_SOURCE_FILE);
        }
    }
  filters = winnow_catalog_dup_filters (catalog);
  for (guint i = 0; i < filters->len; i++)
    add_patterns (patterns, g_ptr_array_index (filters, i));
  for (guint i = 0; i < filters->len; i++)
    for (guint t = 0; t < winnow_filter_get_n_tests (g_ptr_array_index (filters, i)); t++)
      add_lines (lines, winnow_filter_get_test (g_ptr_array_index (filters, i), t)->input);

  json_parser_load_from_file (parser, manifest, NULL);
  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      g_autofree char *path = test_util_corpus_path (json_object_get_string_member (entry, "file"));
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL))
        add_lines (lines, text);
    }

  for (guint p = 0; p < patterns->len; p++)
    {
      const char *source = g_ptr_array_index (patterns, p);
      g_autoptr(GPtrArray) literals = _winnow_literals_required (source, "i");
      g_autoptr(WinnowRegex) regex = winnow_regex_new (source, "i", WINNOW_REGEX_OPTIMIZE, NULL);
      g_autofree WinnowBigrams *pairs = NULL;

      if (literals == NULL || regex == NULL)
        continue;

      with_literals++;
      pairs = g_new (WinnowBigrams, literals->len);
      for (guint k = 0; k < literals->len; k++)
        _winnow_bigrams_of_literal (g_ptr_array_index (literals, k), &pairs[k]);

      for (guint l = 0; l < lines->len; l++)
        {
          const char *line = g_ptr_array_index (lines, l);
          WinnowBigrams have;
          gboolean possible = FALSE;

          if (!_winnow_bigrams_of_line (line, strlen (line), &have))
            continue;
          for (guint k = 0; k < literals->len && !possible; k++)
            possible = _winnow_bigrams_contain (&have, &pairs[k]);

          checked++;
          if (possible)
            continue;
          skipped++;
          if (winnow_regex_matches (regex, line))
            g_error ("/%s/ matches “%s” but its literals said it could not", source, line);
        }
    }

  g_test_message ("%u patterns (%u with literals) × %u lines: %u checks, %u skipped",
                  patterns->len, with_literals, lines->len, checked, skipped);
  g_assert_cmpuint (with_literals, >, patterns->len / 3);
  g_assert_cmpuint (skipped, >, checked / 2);
}

/* ---- grams of a whole text ------------------------------------------------------------------ */

static gboolean
might_contain (const WinnowGramIndex *grams,
               const char            *literal)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  g_autoptr(WinnowGramLiterals) keys = NULL;

  g_ptr_array_add (one, (gpointer) literal);
  keys = _winnow_gram_literals_new (one);
  return _winnow_gram_index_might_contain (grams, keys);
}

static void
test_grams (void)
{
  const char *text = "Hope this helps! Let me KNOW if the “build” fails — 非常感谢";
  g_autoptr(WinnowGramIndex) grams = _winnow_gram_index_new (text, strlen (text));
  g_autoptr(WinnowGramLiterals) none = _winnow_gram_literals_new (NULL);
  g_autoptr(GPtrArray) either = g_ptr_array_new ();
  g_autoptr(WinnowGramLiterals) either_keys = NULL;

  /* lower-cased, and whatever the literal's own bytes are */
  g_assert_true (might_contain (grams, "hope this helps"));
  g_assert_true (might_contain (grams, "let me know"));
  g_assert_true (might_contain (grams, "“build”"));
  g_assert_true (might_contain (grams, "fails — "));
  g_assert_true (might_contain (grams, "感谢"));
  g_assert_true (might_contain (grams, "me"));
  /* absent: the bit set is sized to the text, so these come out as absent */
  g_assert_false (might_contain (grams, "basically"));
  g_assert_false (might_contain (grams, "in order to"));
  g_assert_false (might_contain (grams, "谢谢"));
  g_assert_false (might_contain (grams, "zq"));

  /* nothing known: always a maybe */
  g_assert_true (_winnow_gram_index_might_contain (grams, none));

  /* one of several */
  g_ptr_array_add (either, (gpointer) "basically");
  g_ptr_array_add (either, (gpointer) "if the");
  either_keys = _winnow_gram_literals_new (either);
  g_assert_true (_winnow_gram_index_might_contain (grams, either_keys));
}

/* PCRE2 matches a caseless s with U+017F and a caseless k with U+212A: the text is read so. */
static void
test_grams_case_folding (void)
{
  const char *text = "Bra\xc5\xbfs and 5 \xe2\x84\xaa of it";
  g_autoptr(WinnowGramIndex) grams = _winnow_gram_index_new (text, strlen (text));
  g_autoptr(WinnowRegex) long_s = winnow_regex_new ("brass", "i", WINNOW_REGEX_DEFAULT, NULL);
  g_autoptr(WinnowRegex) kelvin = winnow_regex_new ("5 k of", "i", WINNOW_REGEX_DEFAULT, NULL);

  g_assert_true (winnow_regex_matches (long_s, text));
  g_assert_true (winnow_regex_matches (kelvin, text));
  g_assert_true (_winnow_regex_might_occur_in (long_s, grams));
  g_assert_true (_winnow_regex_might_occur_in (kelvin, grams));
}

/* After any change, the grams still hold every gram of the new text: every substring of it is
 * a "maybe". Random edits of a real message, checked on every short substring. */
static void
test_grams_follow_changes (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261124);
  g_autoptr(GString) text = g_string_new ("Thanks so much for the detailed write-up! I think "
                                          "the ſimplest fix is to run `make check` — basically "
                                          "just once. 非常感谢，希望对您有帮助。 KELVIN 5 \xe2\x84\xaa.");
  g_autoptr(WinnowGramIndex) grams = _winnow_gram_index_new (text->str, text->len);

  for (guint round = 0; round < 400; round++)
    {
      g_autoptr(GString) before = g_string_new_len (text->str, text->len);
      const char *start = text->str + g_rand_int_range (rand, 0, (gint32) text->len + 1);
      gsize at, cut;

      /* a whole-character edit somewhere: delete a few characters, insert some text */
      while (start > text->str && (*start & 0xC0) == 0x80)
        start--;
      at = start - text->str;
      cut = 0;
      for (guint n = g_rand_int_range (rand, 0, 5); n > 0 && at + cut < text->len; n--)
        cut = g_utf8_next_char (text->str + at + cut) - (text->str + at);
      g_string_erase (text, at, cut);
      if (g_rand_boolean (rand))
        {
          static const char * const inserts[] = { "ab", "ſo", "\xe2\x84\xaa", "谢", " ", "Zq!", "" };
          g_string_insert (text, at, inserts[g_rand_int_range (rand, 0, G_N_ELEMENTS (inserts))]);
        }

      _winnow_gram_index_add_change (grams, before->str, before->len, text->str, text->len);

      for (gsize i = 0; i < text->len; i = g_utf8_next_char (text->str + i) - text->str)
        {
          gsize j = i;

          for (guint n = 0; n < 3 && j < text->len; n++)
            {
              g_autofree char *piece = NULL;
              g_autofree char *lower = NULL;

              j = g_utf8_next_char (text->str + j) - text->str;
              if (j - i < 2)
                continue;
              piece = g_strndup (text->str + i, j - i);
              if (strstr (piece, "\xc5\xbf") != NULL || strstr (piece, "\xe2\x84\xaa") != NULL)
                continue; /* literals never hold these (they are read as s and k) */
              lower = g_ascii_strdown (piece, -1);
              if (!might_contain (grams, lower))
                g_error ("round %u: “%s” is in “%s” but the grams lost it", round, lower, text->str);
            }
        }
    }
}

/* ---- Caveman's rules --------------------------------------------------------------------------- */

static void
add_corpus (GPtrArray  *texts,
            const char *language,
            const char *set)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "prose", set, NULL);
  g_autoptr(GPtrArray) messages = prose_corpus_load (dir);

  for (guint i = 0; messages != NULL && i < messages->len; i++)
    {
      ProseMessage *message = g_ptr_array_index (messages, i);

      if (g_strcmp0 (message->lang, language) == 0)
        g_ptr_array_add (texts, g_strdup (message->text));
    }
}

/* Every built-in rule against every corpus message and every rule sample of its language: a
 * rule the grams say cannot match really does not. And the grams must be worth asking. */
static void
test_rules_never_skip_a_match (void)
{
  g_autoptr(WinnowRuleSet) rules = winnow_rule_set_new ();
  g_auto(GStrv) languages = NULL;
  guint checked = 0, skipped = 0;

  winnow_rule_set_add_builtin (rules);
  languages = winnow_rule_set_dup_languages (rules);
  g_assert_cmpuint (g_strv_length (languages), >=, 8);

  for (guint l = 0; languages[l] != NULL; l++)
    {
      GPtrArray *packs = winnow_rule_set_get_packs (rules, languages[l]);
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
      guint language_skipped = 0, language_checked = 0;

      add_corpus (texts, languages[l], "messages");
      add_corpus (texts, languages[l], "dev");
      add_corpus (texts, languages[l], "holdout");
      for (guint p = 0; p < packs->len; p++)
        for (guint t = 0; t < winnow_rule_pack_get_n_tests (packs->pdata[p]); t++)
          g_ptr_array_add (texts, g_strdup (winnow_rule_pack_get_test (packs->pdata[p], t)->input));

      for (guint i = 0; i < texts->len; i++)
        {
          const char *text = g_ptr_array_index (texts, i);
          g_autoptr(WinnowGramIndex) grams = _winnow_gram_index_new (text, strlen (text));

          for (guint p = 0; p < packs->len; p++)
            for (guint k = 0; k < winnow_rule_pack_get_n_rules (packs->pdata[p]); k++)
              {
                WinnowRule *rule = winnow_rule_pack_get_rule (packs->pdata[p], k);
                WinnowRegex *regex = winnow_rule_get_regex (rule);

                language_checked++;
                if (_winnow_regex_might_occur_in (regex, grams))
                  continue;
                language_skipped++;
                if (winnow_regex_test (regex, text, strlen (text)) == WINNOW_REGEX_MATCH)
                  g_error ("%s/%s: /%s/ matches “%s” but its literals said it could not",
                           languages[l], winnow_rule_get_name (rule),
                           winnow_regex_get_source (regex), text);
              }
        }

      g_test_message ("%s: %u texts, %u checks, %u skipped (%.0f %%)", languages[l], texts->len,
                      language_checked, language_skipped,
                      100.0 * language_skipped / MAX (language_checked, 1));
      checked += language_checked;
      skipped += language_skipped;
    }

  g_test_message ("all: %u checks, %u skipped", checked, skipped);
  g_assert_cmpuint (skipped, >, checked / 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/literals/extraction", test_extraction);
  g_test_add_func ("/winnow/literals/never-skips-a-match", test_never_skips_a_match);
  g_test_add_func ("/winnow/literals/grams", test_grams);
  g_test_add_func ("/winnow/literals/grams-case-folding", test_grams_case_folding);
  g_test_add_func ("/winnow/literals/grams-follow-changes", test_grams_follow_changes);
  g_test_add_func ("/winnow/literals/rules-never-skip-a-match", test_rules_never_skip_a_match);

  return g_test_run ();
}
