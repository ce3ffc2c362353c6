/* fuzz-regex.c — the JavaScript → PCRE2 translator and the matcher on arbitrary bytes
 *
 * Input: "FLAGS\nPATTERN\0SUBJECT\0REPLACEMENT". The pattern is translated and compiled with
 * each set of compile flags; a pattern that compiles is tested against the subject and used to
 * replace in it. Every call must return (the work budget stops runaway backtracking) and
 * replacing must give valid UTF-8. Matching takes valid UTF-8 only (callers validate once, so
 * PCRE2 runs without its own check): a subject that is not UTF-8 only goes through
 * winnow_regex_matches(), which checks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "winnow.h"

#include "fuzz-util.h"

static gboolean
replace_cb (WinnowRegex            *regex,
            const WinnowRegexMatch *match,
            GString                *out,
            gpointer                user_data)
{
  g_assert_cmpuint (match->n_pairs, >=, 1);
  g_assert_cmpuint (match->offsets[0], <=, match->offsets[1]);
  g_assert_cmpuint (match->offsets[1], <=, match->length);
  winnow_regex_match_expand (regex, match, user_data, out);
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const WinnowRegexFlags compile_flags[] = {
    WINNOW_REGEX_DEFAULT, WINNOW_REGEX_OPTIMIZE, WINNOW_REGEX_ADAPTIVE,
  };
  FuzzReader reader;
  g_autofree char *js_flags = NULL;
  g_autofree char *source = NULL;
  g_autofree char *subject = NULL;
  g_autofree char *replacement = NULL;
  g_autofree char *translated = NULL;
  g_autoptr(GError) error = NULL;
  gboolean valid_subject;

  fuzz_reader_init (&reader, data, size);
  js_flags = fuzz_reader_string (&reader, '\n', 8);
  source = fuzz_reader_string (&reader, '\0', 512);
  subject = fuzz_reader_string (&reader, '\0', 4096);
  replacement = fuzz_reader_string (&reader, '\0', 256);
  valid_subject = g_utf8_validate (subject, -1, NULL);

  translated = winnow_regex_translate (source, js_flags, &error);
  g_clear_error (&error);

  for (guint i = 0; i < G_N_ELEMENTS (compile_flags); i++)
    {
      g_autoptr(WinnowRegex) regex = winnow_regex_new (source, js_flags, compile_flags[i], &error);
      g_autofree char *replaced = NULL;
      g_autofree char *replaced_func = NULL;
      WinnowRegexResult status;
      guint n_replaced = 0;

      if (regex == NULL)
        {
          g_assert_nonnull (error);
          g_clear_error (&error);
          continue;
        }

      /* a few runs, so the adaptive regex reaches its JIT-compiled copy */
      winnow_regex_matches (regex, subject);
      winnow_regex_get_capture_count (regex);
      if (!valid_subject)
        continue;
      for (guint k = 0; k < 4; k++)
        winnow_regex_test (regex, subject, strlen (subject));

      replaced = winnow_regex_replace (regex, subject, strlen (subject), replacement, &n_replaced);
      g_assert_nonnull (replaced);
      if (g_utf8_validate (replacement, -1, NULL))
        g_assert_true (g_utf8_validate (replaced, -1, NULL));

      replaced_func = winnow_regex_replace_func (regex, subject, strlen (subject), replace_cb,
                                                 replacement, &n_replaced, &status);
      g_assert_nonnull (replaced_func);
    }

  return 0;
}
