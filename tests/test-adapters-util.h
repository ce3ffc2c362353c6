/* test-adapters-util.h — fixtures and a stub summariser for the adapter tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fixtures live in tests/adapters/: realistic documents of each format, and real pytest and
 * grep output captured for the corpus. tests/adapters/expected/ holds what the adapters make
 * of them when the summariser is a stub that answers "SUMMARY": the exact preserved
 * skeletons, independent of the sentence scorer.
 */

#pragma once

#include <string.h>

#include "winnow.h"

G_GNUC_UNUSED static char *
load_fixture (const char *name,
              gsize      *length)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "adapters", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, length, &error))
    g_error ("cannot read %s: %s", path, error->message);
  return contents;
}

/* Records what it was asked to summarise and answers "SUMMARY". */
G_GNUC_UNUSED static char *
stub_summarizer (const char *text,
                 gsize       length,
                 double      keep_ratio,
                 gpointer    user_data)
{
  GString *seen = user_data;

  if (seen != NULL)
    {
      if (seen->len > 0)
        g_string_append (seen, "\n--\n");
      g_string_append_len (seen, text, length);
    }
  return g_strdup ("SUMMARY");
}

G_GNUC_UNUSED static char *
null_summarizer (const char *text,
                 gsize       length,
                 double      keep_ratio,
                 gpointer    user_data)
{
  return NULL;
}

typedef struct
{
  char    *text;
  gsize    length;
  char    *decision;
  GString *seen;
} Run;

G_GNUC_UNUSED static void
run_clear (Run *run)
{
  g_clear_pointer (&run->text, g_free);
  g_clear_pointer (&run->decision, g_free);
  if (run->seen != NULL)
    g_string_free (run->seen, TRUE);
  run->seen = NULL;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs the adapters with the stub summariser, only @only when given. */
G_GNUC_UNUSED static void
run_stub (Run        *run,
          const char *text,
          gssize      length,
          gboolean    lossy,
          const char *only)
{
  const char *enabled[] = { only, NULL };
  WinnowAdapterOptions options;

  winnow_adapter_options_init (&options);
  options.lossy = lossy;
  options.summarizer = stub_summarizer;
  run->seen = g_string_new (NULL);
  options.summarizer_data = run->seen;
  if (only != NULL)
    options.enabled = enabled;

  run->text = winnow_adapters_apply (text, length, &options, &run->length, &run->decision);
}

G_GNUC_UNUSED static const char *
detect_only (const char *text,
             const char *only)
{
  const char *enabled[] = { only, NULL };
  WinnowAdapterOptions options;

  winnow_adapter_options_init (&options);
  options.enabled = enabled;
  return winnow_adapters_detect (text, -1, &options);
}

/* Checks a fixture against its expected skeleton. */
G_GNUC_UNUSED static void
check_skeleton (const char *fixture,
                const char *expected_name,
                gboolean    lossy,
                const char *decision)
{
  g_auto(Run) run = { NULL, };
  g_autofree char *path = g_build_filename ("expected", expected_name, NULL);
  g_autofree char *input = NULL;
  g_autofree char *expected = NULL;
  gsize input_length, expected_length;

  input = load_fixture (fixture, &input_length);
  expected = load_fixture (path, &expected_length);
  run_stub (&run, input, input_length, lossy, NULL);

  g_assert_cmpstr (run.decision, ==, decision);
  g_assert_nonnull (run.text);
  g_assert_cmpuint (run.length, <, input_length);
  g_assert_cmpuint (run.length, ==, strlen (run.text));
  g_assert_cmpstr (run.text, ==, expected);
}
