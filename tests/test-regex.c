/* test-regex.c — JavaScript regex semantics on PCRE2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "winnow.h"

static gboolean
js_test (const char *pattern,
         const char *flags,
         const char *subject)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRegex) regex = winnow_regex_new (pattern, flags, WINNOW_REGEX_OPTIMIZE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (regex);
  return winnow_regex_matches (regex, subject);
}

static char *
js_replace (const char *pattern,
            const char *flags,
            const char *subject,
            const char *replacement)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRegex) regex = winnow_regex_new (pattern, flags, WINNOW_REGEX_DEFAULT, &error);

  g_assert_no_error (error);
  return winnow_regex_replace (regex, subject, strlen (subject), replacement, NULL);
}

static void
test_ascii_classes (void)
{
  /* \d, \w and \b are ASCII-only in JavaScript */
  g_assert_true (js_test ("^\\d+$", "", "0123456789"));
  g_assert_false (js_test ("^\\d+$", "", "\xd9\xa3"));           /* ARABIC-INDIC DIGIT THREE */
  g_assert_true (js_test ("^\\w+$", "", "snake_case9"));
  g_assert_false (js_test ("^\\w$", "", "é"));
  g_assert_true (js_test ("^\\W$", "", "é"));
  g_assert_true (js_test ("caf\\b", "", "café"));                  /* é is not a word char */
  g_assert_false (js_test ("\\bcafé\\b", "", "xcafé"));
  g_assert_true (js_test ("[\\w-]+", "", "kebab-case"));
}

static void
test_unicode_space (void)
{
  /* \s includes Unicode spaces in JavaScript, \S excludes them */
  g_assert_true (js_test ("^a\\sb$", "", "a\xc2\xa0" "b"));        /* NO-BREAK SPACE */
  g_assert_true (js_test ("^a\\sb$", "", "a\xe2\x80\x83" "b"));    /* EM SPACE */
  g_assert_false (js_test ("^\\S$", "", "\xc2\xa0"));
  g_assert_true (js_test ("^[\\s,]+$", "", " ,\xe3\x80\x80"));     /* IDEOGRAPHIC SPACE */
  g_assert_true (js_test ("^[^\\s]$", "", "x"));
}

static void
test_escapes (void)
{
  /* identity escapes of letters PCRE2 would read differently */
  g_assert_true (js_test ("^\\a\\e\\h\\K\\Q$", "", "aehKQ"));
  g_assert_true (js_test ("^\\z$", "", "z"));
  /* \v is a single vertical tab, not a class */
  g_assert_true (js_test ("^\\v$", "", "\v"));
  g_assert_false (js_test ("^\\v$", "", "\n"));
  /* \uHHHH and \xHH */
  g_assert_true (js_test ("^\\u00e9\\x41$", "", "éA"));
  /* escaped slash and non-ASCII */
  g_assert_true (js_test ("^a\\/b\\✓$", "", "a/b✓"));
  /* \k without named groups is the letter k */
  g_assert_true (js_test ("^\\k$", "", "k"));
  g_assert_true (js_test ("^(?<w>ab)\\k<w>$", "", "abab"));
  /* a backreference to a group that did not take part matches the empty string */
  g_assert_true (js_test ("^(?:(a)|b)\\1c$", "", "bc"));
}

static void
test_classes (void)
{
  g_assert_true (js_test ("^[^]$", "", "\n"));      /* [^] is any character */
  g_assert_false (js_test ("[]", "", "anything"));  /* [] never matches */
  g_assert_true (js_test ("^[[]$", "", "["));       /* [ inside a class is literal */
  g_assert_true (js_test ("^[[:a]+$", "", "[:a"));  /* no POSIX classes in JavaScript */
  g_assert_true (js_test ("^[\\]]$", "", "]"));
  g_assert_true (js_test ("^[\\B]$", "", "B"));
}

static void
test_flags (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRegex) bad = NULL;

  g_assert_true (js_test ("error", "i", "ERROR: x"));
  g_assert_false (js_test ("error", "", "ERROR: x"));
  g_assert_true (js_test ("^b$", "m", "a\nb\nc"));
  g_assert_false (js_test ("^b$", "", "a\nb\nc"));
  /* without m, $ is the very end, not before a final newline */
  g_assert_false (js_test ("b$", "", "ab\n"));
  g_assert_true (js_test ("a.b", "s", "a\nb"));
  g_assert_false (js_test ("a.b", "", "a\nb"));
  /* \r ends a line too, as in JavaScript: a Windows line break is one */
  g_assert_true (js_test ("^b$", "m", "a\r\nb\r\nc"));
  g_assert_true (js_test ("^b$", "m", "a\rb\rc"));
  g_assert_false (js_test ("a.b", "", "a\rb"));
  g_assert_true (js_test ("a.b", "s", "a\rb"));
  g_assert_true (js_test ("ÉCOLE", "i", "école"));

  bad = winnow_regex_new ("a", "q", WINNOW_REGEX_DEFAULT, &error);
  g_assert_null (bad);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
  g_assert_nonnull (strstr (error->message, "“q”"));
  g_clear_error (&error);

  bad = winnow_regex_new ("a", "gg", WINNOW_REGEX_DEFAULT, &error);
  g_assert_null (bad);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
}

static void
test_invalid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRegex) regex = winnow_regex_new ("(unclosed", "", WINNOW_REGEX_DEFAULT, &error);

  g_assert_null (regex);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
  g_assert_nonnull (strstr (error->message, "missing closing parenthesis"));
  g_assert_nonnull (strstr (error->message, "offset"));
  g_clear_error (&error);

  regex = winnow_regex_new ("a\\", "", WINNOW_REGEX_DEFAULT, &error);
  g_assert_null (regex);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
  g_clear_error (&error);

  regex = winnow_regex_new ("\xff", "", WINNOW_REGEX_DEFAULT, &error);
  g_assert_null (regex);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
}

/* PCRE2 would take these; JavaScript, the packs' dialect, rejects them */
static void
test_pcre_only_syntax (void)
{
  static const char * const rejected[] = {
    "only one(*SKIP)(*F)|one", "(*FAIL)", "(?>a+)b", "(?|(a)|(b))", "a(?#note)b", "a++",
    "a*+b", "x?+", "a{2,3}+", "a{2}+",
  };
  static const char * const accepted[] = {
    "a+?b*?c??", "\\(\\*\\)", "[(*]+", "[?+]", "(?:a)+", "(?=a)+", "(?<n>a)+",
    "\\p{So}+", "\\u{1F600}+", "a{2,3}?", "[]+", "[^]+a", "(?<!a)b+",
  };

  for (guint i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WinnowRegex) regex = winnow_regex_new (rejected[i], "u", WINNOW_REGEX_DEFAULT,
                                                       &error);

      g_assert_null (regex);
      g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
      g_assert_nonnull (strstr (error->message, "JavaScript"));
    }
  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WinnowRegex) regex = winnow_regex_new (accepted[i], "u", WINNOW_REGEX_DEFAULT,
                                                       &error);

      g_assert_no_error (error);
      g_assert_nonnull (regex);
    }
}

static void
test_replacement (void)
{
  g_autofree char *a = js_replace ("(\\w+)@(\\w+)", "g", "ann@x bob@y", "$2:$1");
  g_autofree char *b = js_replace ("\\d+", "g", "a1b22", "<$&>");
  g_autofree char *c = js_replace ("(?<key>\\w+)=(?<val>\\w+)", "", "k=v k2=v2", "$<val>=$<key>");
  g_autofree char *d = js_replace ("x", "g", "axb", "$$");
  g_autofree char *e = js_replace ("b", "", "abc", "[$`|$']");
  g_autofree char *f = js_replace ("a", "", "aa", "$1$<n>$9");   /* no such groups: literal */
  g_autofree char *g = js_replace ("(a)", "", "a", "$10");       /* $1 then 0 */
  g_autofree char *h = js_replace ("x*", "g", "abc", "-");       /* empty matches step on */
  g_autofree char *i = js_replace ("\\s+\\[[0-9]+ms\\]", "g", "ok [12ms] done [3ms]", "");
  g_autofree char *j = js_replace ("é", "g", "éaé", "e");
  g_autofree char *k = js_replace ("(a)|(b)", "g", "ab", "[$1$2]");

  g_assert_cmpstr (a, ==, "x:ann y:bob");
  g_assert_cmpstr (b, ==, "a<1>b<22>");
  g_assert_cmpstr (c, ==, "v=k k2=v2");
  g_assert_cmpstr (d, ==, "a$b");
  g_assert_cmpstr (e, ==, "a[a|c]c");
  g_assert_cmpstr (f, ==, "$1$<n>$9a");
  g_assert_cmpstr (g, ==, "a0");
  g_assert_cmpstr (h, ==, "-a-b-c-");
  g_assert_cmpstr (i, ==, "ok done");
  g_assert_cmpstr (j, ==, "eae");
  g_assert_cmpstr (k, ==, "[a][b]");
}

static void
test_budget (void)
{
  /* catastrophic backtracking gives up instead of hanging */
  g_autoptr(WinnowRegex) regex = winnow_regex_new ("^(a+)+$", "", WINNOW_REGEX_OPTIMIZE, NULL);
  g_autofree char *subject = g_strnfill (40, 'a');
  g_autofree char *evil = g_strconcat (subject, "!", NULL);
  gint64 start = g_get_monotonic_time ();

  g_assert_cmpint (winnow_regex_test (regex, subject, strlen (subject)), ==, WINNOW_REGEX_MATCH);
  g_assert_cmpint (winnow_regex_test (regex, evil, strlen (evil)), ==,
                   WINNOW_REGEX_BUDGET_EXCEEDED);
  /* generous bound: the point is "gives up", not a timing */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_translate (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *pcre = winnow_regex_translate ("\\v[^]", "", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (pcre, ==, "\\x0b[^]");
}

/* A ^ that is an alternative on its own becomes (?<=^), the same assertion, so that PCRE2 still
 * works out where a match can start; nothing else is touched, and what matches is the same. */
static void
test_translate_caret_branch (void)
{
  static const struct { const char *js; const char *pcre; } cases[] = {
    { "(?:^|(?<=[.!?] ))I'm", "(?:(?<=^)|(?<=[.!?] ))I'm" },
    { "(^|,)x", "((?<=^)|,)x" },
    { "a|^|b", "a|(?<=^)|b" },
    { "^|b", "(?<=^)|b" },
    { "(?:a|^)b", "(?:a|(?<=^))b" },
    /* not alone, escaped, in a class, or a lookbehind's own: left as it is */
    { "^ab", "^ab" },
    { "(?:^a|b)", "(?:^a|b)" },
    { "\\(^|x)", "\\(^|x)" },
    { "\\|^|x", "\\|^|x" },
    { "[(^|]x", "[(^|]x" },
    { "(?<=^|, )x", "(?<=^|, )x" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *pcre = winnow_regex_translate (cases[i].js, "m", &error);

      g_assert_no_error (error);
      g_assert_cmpstr (pcre, ==, cases[i].pcre);
    }

  /* the same matches, with and without the m flag, after \n, \r\n and a lone \r */
  for (guint m = 0; m < 2; m++)
    {
      const char *flags = m ? "gm" : "g";
      g_autofree char *out = js_replace ("(?:^|(?<=[.!?] ))(?:I'm|It's) ", flags,
                                         "I'm here. It's late\nI'm on\r\nIt's ok\rI'm in. so I'm done",
                                         "<$&>");

      g_assert_cmpstr (out, ==, m ? "<I'm >here. <It's >late\n<I'm >on\r\n<It's >ok\r<I'm >in. so I'm done"
                                  : "<I'm >here. <It's >late\nI'm on\r\nIt's ok\rI'm in. so I'm done");
    }
}

/* Found by fuzz-regex: an escaped UTF-8 lead byte missing its continuation bytes ("\\\xf1?" at
 * the end) made the translator step over the terminating NUL and read past the pattern.
 * Bytes that are not UTF-8 are refused. */
static void
test_translate_invalid_utf8 (void)
{
  static const char *const sources[] = { "a\\\xf1", "\\\xe2\x82", "[\xff]", "\\\xc3" };

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) new_error = NULL;
      g_autofree char *pcre = winnow_regex_translate (sources[i], "", &error);
      g_autoptr(WinnowRegex) regex = winnow_regex_new (sources[i], "", 0, &new_error);

      g_assert_null (pcre);
      g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
      g_assert_null (regex);
      g_assert_error (new_error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX);
    }
}

/* PCRE2 folds [Ww] into a caseless first code unit without saying so; the quick rejection in
 * front of PCRE2 must not turn that into "never matches". */
static void
test_folded_case_hints (void)
{
  static const struct { const char *pattern; const char *flags; const char *subject; } cases[] = {
    { "[Ww]arning", "", "a warning: x" },
    { "[Ww]arning", "", "a Warning: x" },
    { "(?:um|Um)\\s+", "g", "é um caso" },
    { "[Uu]m\\s+", "", "É um caso" },
    { "^[Ee]rror", "", "error: boom" },
    { "x[Yy]z", "", "axyz" },
    { "[Éé]t[ée]", "", "un été" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(WinnowRegex) regex = winnow_regex_new (cases[i].pattern, cases[i].flags,
                                                       WINNOW_REGEX_DEFAULT, NULL);

      g_assert_nonnull (regex);
      if (winnow_regex_test (regex, cases[i].subject, strlen (cases[i].subject)) !=
          WINNOW_REGEX_MATCH)
        g_error ("/%s/ does not match “%s”", cases[i].pattern, cases[i].subject);
    }
}

/* Starting bytes feed the stage runner's dispatch: a byte left out must be one no matching
 * line starts with, and anything unclear must leave every byte in. */
static gboolean
may_start (const char *source,
           const char *flags,
           guchar      c,
           gboolean   *empty)
{
  g_autoptr(WinnowRegex) regex = winnow_regex_new (source, flags, WINNOW_REGEX_DEFAULT, NULL);
  guint64 starts[4];

  g_assert_nonnull (regex);
  _winnow_regex_subject_starts (regex, starts, empty);
  return (starts[c >> 6] >> (c & 63)) & 1;
}

static void
test_subject_starts (void)
{
  gboolean empty;

  /* a literal first unit stands for both cases */
  g_assert_true (may_start ("^E: ", "i", 'e', &empty));
  g_assert_true (may_start ("^E: ", "i", 'E', &empty));
  g_assert_false (may_start ("^E: ", "i", 'W', &empty));
  g_assert_false (empty);

  /* a class or an alternation after ^: PCRE2's set of first units for the rest */
  g_assert_true (may_start ("^\\d+ upgraded", "i", '7', &empty));
  g_assert_false (may_start ("^\\d+ upgraded", "i", 'u', &empty));
  g_assert_true (may_start ("^(?:Inst|Conf) ", "i", 'c', &empty));
  g_assert_false (may_start ("^(?:Inst|Conf) ", "i", 'R', &empty));
  g_assert_true (may_start ("^ +Installed: ", "i", ' ', &empty));

  /* unclear or unanchored: every byte */
  g_assert_true (may_start ("^a|b", "i", 'b', &empty));
  g_assert_true (may_start ("^[|]x|y", "i", 'y', &empty));
  g_assert_true (may_start ("error", "i", 'x', &empty));
  g_assert_true (may_start ("^\\s*(?:)$", "i", 'x', &empty));
  g_assert_true (empty);

  /* ^\s*$ is answered in C: only a space or the first byte of a Unicode space starts it */
  g_assert_true (may_start ("^\\s*$", "i", ' ', &empty));
  g_assert_true (empty);
  g_assert_true (may_start ("^\\s*$", "i", '\t', &empty));
  g_assert_true (may_start ("^\\s*$", "i", 0xC2, &empty));
  g_assert_true (may_start ("^\\s*$", "i", 0xE3, &empty));
  g_assert_false (may_start ("^\\s*$", "i", 'x', &empty));
  g_assert_false (may_start ("^$", "i", ' ', &empty));
  g_assert_true (empty);
  g_assert_true (may_start ("^a", "im", 'x', &empty));
  g_assert_true (may_start ("^(?:a)?b", "i", 'b', &empty));
  g_assert_false (may_start ("^(?:a)?b", "i", 'c', &empty));

}

/* ^\s*$, ^$ and \s+$ are answered without PCRE2 (winnow-regex.c, shapes): the same answers
 * and replacements as the same patterns written so that PCRE2 runs them, for every flag that
 * keeps the shape and for subjects made of every kind of character JavaScript's \s knows. */
static void
test_shapes (void)
{
  static const char * const shapes[][2] = {
    { "^\\s*$", "^(?:\\s)*$" }, { "^$", "^(?:)$" }, { "\\s+$", "(?:\\s)+$" },
  };
  static const char * const flag_sets[] = { "", "i", "g", "s", "y", "gy", "m", "gim" };
  static const char * const pieces[] = {
    "", " ", "\t", "\n", "\v", "\f", "\r", "a", "-", "\xC2\xA0", "\xC2\x85",
    "\xE1\x9A\x80", "\xE1\xA0\x8E", "\xE2\x80\x80", "\xE2\x80\x8A", "\xE2\x80\x8B",
    "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80",
    "\xEF\xBB\xBF", "\xC3\xA9", "\xF0\x9F\x98\x80",
  };
  g_autoptr(GPtrArray) subjects = g_ptr_array_new_with_free_func (g_free);

  /* every piece alone, and every pair and triple of them */
  for (guint a = 0; a < G_N_ELEMENTS (pieces); a++)
    for (guint b = 0; b < G_N_ELEMENTS (pieces); b++)
      {
        g_ptr_array_add (subjects, g_strconcat (pieces[a], pieces[b], NULL));
        for (guint c = 0; c < G_N_ELEMENTS (pieces); c += 3)
          g_ptr_array_add (subjects, g_strconcat (pieces[a], pieces[b], pieces[c], NULL));
      }
  /* every code point below U+3100 and a few above, alone and after a letter */
  for (gunichar u = 1; u < 0x3100; u++)
    {
      char buf[8] = { 0 };

      if (u >= 0xD800 && u < 0xE000)
        continue;
      g_unichar_to_utf8 (u, buf);
      g_ptr_array_add (subjects, g_strdup (buf));
      g_ptr_array_add (subjects, g_strconcat ("x", buf, NULL));
    }
  g_ptr_array_add (subjects, g_strdup ("\xEF\xBB\xBF\xEF\xBB\xBE"));

  for (guint k = 0; k < G_N_ELEMENTS (shapes); k++)
    for (guint f = 0; f < G_N_ELEMENTS (flag_sets); f++)
      {
        g_autoptr(WinnowRegex) fast = winnow_regex_new (shapes[k][0], flag_sets[f],
                                                        WINNOW_REGEX_OPTIMIZE, NULL);
        g_autoptr(WinnowRegex) slow = winnow_regex_new (shapes[k][1], flag_sets[f],
                                                        WINNOW_REGEX_OPTIMIZE, NULL);

        g_assert_nonnull (fast);
        g_assert_nonnull (slow);
        for (guint i = 0; i < subjects->len; i++)
          {
            const char *subject = g_ptr_array_index (subjects, i);
            gsize len = strlen (subject);
            guint n_fast = 0, n_slow = 0;
            g_autofree char *replaced_fast =
              winnow_regex_replace (fast, subject, len, "<$&|$`|$'>", &n_fast);
            g_autofree char *replaced_slow =
              winnow_regex_replace (slow, subject, len, "<$&|$`|$'>", &n_slow);

            if (winnow_regex_test (fast, subject, len) != winnow_regex_test (slow, subject, len))
              g_error ("/%s/%s and /%s/ disagree on “%s”", shapes[k][0], flag_sets[f],
                       shapes[k][1], subject);
            g_assert_cmpstr (replaced_fast, ==, replaced_slow);
            g_assert_cmpuint (n_fast, ==, n_slow);
          }
      }
}

/* A pattern starting with ^ and literals, or ending with literals and $, is first checked for
 * them (winnow-regex.c, find_affixes()): that must never turn a match away. The same pattern
 * inside a group, which hides its affixes, decides. */
static void
test_affixes (void)
{
  static const char * const patterns[] = {
    "^E: ", "^Err:\\d+ ", "^\\S+:$", "^ +Installed: ", "^abc+d", "^ab?c", "^a*b", "^a{2}b",
    "^(?:x|y)z", "^x(?:y|z)$", "^a|b$", "^\\.\\.\\.\\(x\\)$", "done\\.$", "x+$", "^kiss",
    "^ask$", "^Ks", "^\\x41B", "^a\\-b", "^[ab]c$", "^[]]x", "^x\\b", "^-{3,}$", "^a.c$",
    "^tab\\there", "^a$", "^$x", "^(?<n>a)\\k<n>$", "end\\\\$", "^a+?b", "^a\\/b/$",
    "zab?$", "^za*", "q(?:r)?s*$",
  };
  static const char * const flag_sets[] = { "", "i", "g", "y", "m", "im", "u", "s" };
  static const char * const subjects[] = {
    "", "E: x", "e: x", "E:x", "Err:12 x", "err:12 x", "ERR:1 ", "pkg:", "pkg: ", "pkg:\n",
    "a:b:", "   Installed: 1", " Installed: 1", "abcd", "ABCCCD", "abd", "ac", "abc", "b", "aab",
    "ab", "xz", "yz", "zz", "xy", "xz", "b", "a", "...(x)", "...(X)", "make: done.", "done",
    "xxx", "x", "kiss", "\xE2\x84\xAAiss", "KISS", "a\xC5\xBF\xE2\x84\xAA", "ask", "A\xC5\xBFK",
    "\xE2\x84\xAAs", "ks", "AB", "a-b", "ac", "bc", "cc", "]x", "x ", "x", "---", "--",
    "------", "abc", "a\nc", "tab\there", "tab there", "a\n", "x", "aa", "ab", "end\\", "aab",
    "a/b/", "A/B/", "za", "zab", "zabb", "z", "qs", "q", "qrs", "qrss",
  };

  for (guint k = 0; k < G_N_ELEMENTS (patterns); k++)
    for (guint f = 0; f < G_N_ELEMENTS (flag_sets); f++)
      {
        g_autofree char *hidden = g_strdup_printf ("(?:%s)", patterns[k]);
        g_autoptr(WinnowRegex) fast = winnow_regex_new (patterns[k], flag_sets[f],
                                                        WINNOW_REGEX_OPTIMIZE, NULL);
        g_autoptr(WinnowRegex) slow = winnow_regex_new (hidden, flag_sets[f],
                                                        WINNOW_REGEX_OPTIMIZE, NULL);

        if (fast == NULL)
          {
            g_assert_null (slow);
            continue;
          }
        g_assert_nonnull (slow);
        for (guint i = 0; i < G_N_ELEMENTS (subjects); i++)
          {
            gsize len = strlen (subjects[i]);
            WinnowRegexResult want = winnow_regex_test (slow, subjects[i], len);

            if (winnow_regex_test (fast, subjects[i], len) != want)
              g_error ("/%s/%s on “%s”: %d, should be %d", patterns[k], flag_sets[f],
                       subjects[i], !want, want);
            if (want == WINNOW_REGEX_MATCH)
              g_assert_true (_winnow_regex_might_match (fast, subjects[i], len));
          }
      }

  /* and they do turn lines away */
  {
    g_autoptr(WinnowRegex) colon = winnow_regex_new ("^\\S+:$", "i", WINNOW_REGEX_OPTIMIZE, NULL);
    g_autoptr(WinnowRegex) e = winnow_regex_new ("^E: ", "i", WINNOW_REGEX_OPTIMIZE, NULL);
    g_autoptr(WinnowRegex) probed = winnow_regex_new ("(\\w+\\s?)+!$", "", WINNOW_REGEX_DEFAULT,
                                                      NULL);
    const char *hostile = "word word word word word word word word word word word word word "
                          "word word word word !.,:";

    g_assert_false (_winnow_regex_might_match (colon, "foo: bar", 8));
    g_assert_true (_winnow_regex_might_match (colon, "foo bar:", 8));
    g_assert_false (_winnow_regex_might_match (e, "E:x", 3));
    g_assert_true (_winnow_regex_might_match (e, "e: x", 4));
    /* without OPTIMIZE PCRE2 decides: a lint probing for catastrophic backtracking sees it */
    g_assert_cmpint (winnow_regex_test (probed, hostile, strlen (hostile)), ==,
                     WINNOW_REGEX_BUDGET_EXCEEDED);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/regex/ascii-classes", test_ascii_classes);
  g_test_add_func ("/winnow/regex/unicode-space", test_unicode_space);
  g_test_add_func ("/winnow/regex/escapes", test_escapes);
  g_test_add_func ("/winnow/regex/classes", test_classes);
  g_test_add_func ("/winnow/regex/flags", test_flags);
  g_test_add_func ("/winnow/regex/invalid", test_invalid);
  g_test_add_func ("/winnow/regex/pcre-only-syntax", test_pcre_only_syntax);
  g_test_add_func ("/winnow/regex/replacement", test_replacement);
  g_test_add_func ("/winnow/regex/budget", test_budget);
  g_test_add_func ("/winnow/regex/translate", test_translate);
  g_test_add_func ("/winnow/regex/translate-caret-branch", test_translate_caret_branch);
  g_test_add_func ("/winnow/regex/translate-invalid-utf8", test_translate_invalid_utf8);
  g_test_add_func ("/winnow/regex/folded-case-hints", test_folded_case_hints);
  g_test_add_func ("/winnow/regex/subject-starts", test_subject_starts);
  g_test_add_func ("/winnow/regex/shapes", test_shapes);
  g_test_add_func ("/winnow/regex/affixes", test_affixes);

  return g_test_run ();
}
