/* test-sentence-scorer.c — sentence splitting and the deterministic extractive summariser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "winnow.h"

/* The sentences of @text, as strings. */
static GStrv
split (const char *text)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree WinnowSentenceSpan *spans = NULL;
  gsize n = 0;

  spans = winnow_sentence_split (text, strlen (text), &n);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *s = g_strndup (text + spans[i].start, spans[i].length);

      g_strv_builder_add (builder, s);
    }
  return g_strv_builder_end (builder);
}

static void
test_split_tokens (void)
{
  const char *text =
    "Use a tool, e.g. Valgrind, to find leaks. Dr. Smith fixed main.c in v1.2.3 on day 3.14 "
    "of the sprint. See https://example.com/a.b?x=1. J. R. Hacker agreed, i.e. U.S. rules "
    "apply. 1. Install it. Really? Yes! Wait… What now... Fine. Version 2 is out. No. 5 won.";
  const char *const expected[] = {
    "Use a tool, e.g. Valgrind, to find leaks.",
    "Dr. Smith fixed main.c in v1.2.3 on day 3.14 of the sprint.",
    "See https://example.com/a.b?x=1.",
    "J. R. Hacker agreed, i.e. U.S. rules apply.",
    "1. Install it.",
    "Really?",
    "Yes!",
    "Wait…",
    "What now...",
    "Fine.",
    "Version 2 is out.",
    "No. 5 won.",
    NULL,
  };
  g_auto(GStrv) sentences = split (text);

  g_assert_cmpstrv (sentences, expected);
}

static void
test_split_lines (void)
{
  const char *text =
    "The service reads its configuration at startup and exposes a small REST\n"
    "API that the other services call. It is fast\n"
    "and small.\n"
    "\n"
    "Options:\n"
    "- Verbose output\n"
    "- Quiet mode (\"quotes\" end here.\") Next\n"
    "ERROR short line\n"
    "Another short line\n";
  const char *const expected[] = {
    "The service reads its configuration at startup and exposes a small REST\n"
    "API that the other services call.",
    "It is fast\nand small.",
    "Options:",
    "- Verbose output",
    "- Quiet mode (\"quotes\" end here.\")",
    "Next",
    "ERROR short line",
    "Another short line",
    NULL,
  };
  g_auto(GStrv) sentences = split (text);
  g_autofree WinnowSentenceSpan *spans = NULL;
  gsize n;

  g_assert_cmpstrv (sentences, expected);

  /* blocks: a paragraph, then one per line of line-oriented text */
  spans = winnow_sentence_split (text, strlen (text), &n);
  g_assert_cmpuint (n, ==, 8);
  g_assert_cmpuint (spans[0].block, ==, 0);
  g_assert_cmpuint (spans[1].block, ==, 0);
  g_assert_cmpuint (spans[2].block, ==, 1);
  g_assert_cmpuint (spans[3].block, ==, 2);
  g_assert_cmpuint (spans[4].block, ==, 3);
  g_assert_cmpuint (spans[5].block, ==, 3);
  g_assert_cmpuint (spans[7].block, ==, 5);
}

static const char *const article =
  "Thanks for the question, happy to help! "
  "The service reads its configuration from config.yaml at startup. "
  "Basically, it is really quite simple to set up. "
  "Do not set CACHE_TTL below 60, or the database will be overloaded. "
  "Overall, we think the design is great and people like it a lot. "
  "If the migration fails, the service exits with error code 3. "
  "Honestly, the documentation is pretty nice and quite readable overall. "
  "Let me know if you have any other questions, I hope this helps.";

static void
test_keeps_what_matters (void)
{
  g_autofree char *summary = winnow_sentence_summarize (article, strlen (article), 0.45, NULL);
  const char *a, *b, *c;

  a = strstr (summary, "The service reads its configuration from config.yaml at startup.");
  b = strstr (summary, "Do not set CACHE_TTL below 60, or the database will be overloaded.");
  c = strstr (summary, "If the migration fails, the service exits with error code 3.");

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_nonnull (c);
  /* original order */
  g_assert_true (a < b && b < c);
  /* filler is what goes */
  g_assert_null (strstr (summary, "Thanks"));
  g_assert_null (strstr (summary, "Basically"));
  g_assert_null (strstr (summary, "Honestly"));
  g_assert_null (strstr (summary, "Let me know"));
  g_assert_cmpstr (summary, ==,
                   "The service reads its configuration from config.yaml at startup. "
                   "Do not set CACHE_TTL below 60, or the database will be overloaded. "
                   "If the migration fails, the service exits with error code 3.");
}

static void
test_budget (void)
{
  gsize length = strlen (article);

  for (guint percent = 0; percent <= 100; percent += 5)
    {
      double ratio = percent / 100.0;
      g_autofree char *summary = winnow_sentence_summarize (article, length, ratio, NULL);
      g_autofree WinnowSentenceSpan *spans = NULL;
      gsize n, total = 0;

      spans = winnow_sentence_split (article, length, &n);
      for (gsize i = 0; i < n; i++)
        total += spans[i].length + (i > 0 ? 1 : 0);

      g_assert_cmpuint (strlen (summary), <=, (gsize) (ratio * total));
      if (percent == 0)
        g_assert_cmpstr (summary, ==, "");
      if (percent == 100)
        g_assert_cmpstr (summary, ==, article);
    }
}

static void
test_never_splits_tokens (void)
{
  /* one long sentence that does not fit: cut at a space, never inside a token */
  const char *text =
    "Run https://example.com/very/long/path/to/the/installer.sh?version=1.2.3 then "
    "configure_everything_with_the_defaults --prefix=/usr/local and wait.";
  g_autofree char *summary = winnow_sentence_summarize (text, strlen (text), 0.6, NULL);
  gsize n = strlen (summary);

  g_assert_cmpuint (n, <=, (gsize) (0.6 * strlen (text)));
  g_assert_true (g_str_has_suffix (summary, "…"));
  g_assert_cmpstr (summary, ==,
                   "Run https://example.com/very/long/path/to/the/installer.sh?version=1.2.3 "
                   "then…");

  /* nothing fits, not even one word */
  g_free (summary);
  summary = winnow_sentence_summarize (text, strlen (text), 0.01, NULL);
  g_assert_cmpstr (summary, ==, "");
}

static void
test_abbreviations_kept_whole (void)
{
  const char *text =
    "Filler sentence number one goes here. "
    "Use a checker, e.g. Valgrind, because the crash is a use after free in main.c at line 42. "
    "Another filler sentence goes here.";
  g_autofree char *summary = winnow_sentence_summarize (text, strlen (text), 0.7, NULL);

  g_assert_true (strstr (summary, "Use a checker, e.g. Valgrind, because the crash is a use "
                                  "after free in main.c at line 42.") != NULL);
}

static void
test_blocks_and_newlines (void)
{
  const char *text =
    "First paragraph, first sentence\nwrapped onto a second line. Second one.\n"
    "\n"
    "Another paragraph with error 42 in it.\n";
  g_autofree char *summary = winnow_sentence_summarize (text, strlen (text), 1.0, NULL);

  /* a line break inside a sentence becomes a space, blocks are separated by one */
  g_assert_cmpstr (summary, ==,
                   "First paragraph, first sentence wrapped onto a second line. Second one.\n"
                   "Another paragraph with error 42 in it.");
}

static void
test_determinism (void)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < 500; i++)
    g_string_append_printf (text, "Sentence %u talks about topic %u and item_%u. ", i, i % 7,
                            i % 13);

  for (guint percent = 1; percent < 100; percent += 11)
    {
      g_autofree char *a = winnow_sentence_summarize (text->str, text->len, percent / 100.0,
                                                      NULL);
      g_autofree char *copy = g_strdup (text->str);
      g_autofree char *b = winnow_sentence_summarize (copy, text->len, percent / 100.0, NULL);

      g_assert_cmpstr (a, ==, b);
    }
}

static void
test_odd_input (void)
{
  const char bytes[] = "caf\xe9 au lait.\xff\xfe Broken \xe2\x80 UTF-8! Nul\0inside. End.";
  const char *odd[] = {
    "", " ", "\n\n\n", ".", "...", "?!", "…", "a", "e.g.", "J.", "1.", "\xe2\x80\x9c", "'", "n't",
    "word.\n", " . . . ", "\"quoted.\" ", "x\ny\nz", "(", ")", "‐‑–—",
  };

  for (gsize cut = 0; cut <= sizeof bytes - 1; cut++)
    for (guint percent = 0; percent <= 100; percent += 50)
      {
        g_autofree char *summary = winnow_sentence_summarize (bytes, cut, percent / 100.0, NULL);

        g_assert_nonnull (summary);
        g_assert_cmpuint (strlen (summary), <=, cut);
      }

  for (guint i = 0; i < G_N_ELEMENTS (odd); i++)
    {
      g_autofree char *summary = winnow_sentence_summarize (odd[i], strlen (odd[i]), 0.5, NULL);

      g_assert_cmpuint (strlen (summary), <=, strlen (odd[i]));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/sentence/split-tokens", test_split_tokens);
  g_test_add_func ("/winnow/sentence/split-lines", test_split_lines);
  g_test_add_func ("/winnow/sentence/keeps-what-matters", test_keeps_what_matters);
  g_test_add_func ("/winnow/sentence/budget", test_budget);
  g_test_add_func ("/winnow/sentence/never-splits-tokens", test_never_splits_tokens);
  g_test_add_func ("/winnow/sentence/abbreviations-kept-whole", test_abbreviations_kept_whole);
  g_test_add_func ("/winnow/sentence/blocks-and-newlines", test_blocks_and_newlines);
  g_test_add_func ("/winnow/sentence/determinism", test_determinism);
  g_test_add_func ("/winnow/sentence/odd-input", test_odd_input);

  return g_test_run ();
}
