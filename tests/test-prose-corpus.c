/* test-prose-corpus.c — on every message of the prose corpus, at every intensity, Caveman
 * keeps every technical token byte for byte and every meaning phrase, is deterministic and
 * idempotent; and hard-wrapped at 72 columns, keeps the tokens and stays idempotent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The savings on the same corpus are figures, printed by bench-prose (`./dev bench`).
 */

#include "config.h"

#include <string.h>

#include "prose-corpus.h"
#include "winnow.h"
#include "winnow-protect.h"

static GPtrArray *messages;
static WinnowRuleSet *rules;

#define WRAP_WIDTH 72

static void
options_for (const ProseMessage     *m,
             WinnowCavemanIntensity  intensity,
             WinnowMessageRole       role,
             WinnowCavemanOptions   *options)
{
  winnow_caveman_options_init (options);
  options->intensity = intensity;
  options->role = role;
  options->language = m->lang;
}

/* Hard-wrapped, the message keeps every protected token too, and compresses to a fixed point;
 * CJK text is not wrapped at spaces. */
static void
check_wrapped (const ProseMessage *m,
               WinnowMessageRole   role)
{
  g_autofree char *wrapped = NULL;

  if (g_str_equal (m->lang, "ja") || g_str_equal (m->lang, "zh"))
    return;

  wrapped = prose_hard_wrap (m->text, WRAP_WIDTH);
  for (int k = WINNOW_CAVEMAN_INTENSITY_LITE; k <= WINNOW_CAVEMAN_INTENSITY_ULTRA; k++)
    {
      g_autoptr(WinnowCavemanResult) result = NULL;
      g_autoptr(WinnowCavemanResult) twice = NULL;
      g_autoptr(GError) error = NULL;
      WinnowCavemanOptions options;
      const char *out;

      options_for (m, k, role, &options);
      result = winnow_caveman_compress (rules, wrapped, -1, &options);
      out = winnow_caveman_result_get_text (result, NULL);

      if (!winnow_protect_check (wrapped, -1, out, -1, &error))
        g_error ("%s wrapped, at %s: %s", m->id, winnow_caveman_intensity_to_string (k),
                 error->message);

      twice = winnow_caveman_compress (rules, out, -1, &options);
      if (winnow_caveman_result_get_changed (twice))
        g_error ("%s wrapped, at %s: compressing the output again changed it:\n%s\n---\n%s",
                 m->id, winnow_caveman_intensity_to_string (k), out,
                 winnow_caveman_result_get_text (twice, NULL));
    }
}

static void
check_message (gconstpointer data)
{
  const ProseMessage *m = data;
  WinnowMessageRole role;
  guint lost = 0;

  g_assert_true (winnow_message_role_from_string (m->role, &role));

  for (int k = WINNOW_CAVEMAN_INTENSITY_LITE; k <= WINNOW_CAVEMAN_INTENSITY_ULTRA; k++)
    {
      g_autoptr(WinnowCavemanResult) result = NULL;
      g_autoptr(WinnowCavemanResult) again = NULL;
      g_autoptr(WinnowCavemanResult) twice = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *expanded = NULL;
      WinnowCavemanOptions options;
      const char *out;

      options_for (m, k, role, &options);
      result = winnow_caveman_compress (rules, m->text, -1, &options);
      again = winnow_caveman_compress (rules, m->text, -1, &options);
      out = winnow_caveman_result_get_text (result, NULL);
      expanded = winnow_caveman_expand (rules, out, -1, m->lang, NULL);

      g_assert_cmpstr (out, ==, winnow_caveman_result_get_text (again, NULL));
      g_assert_cmpstr (winnow_caveman_result_get_language (result), ==, m->lang);

      /* idempotent: what comes out compresses to itself (a history compressed twice is
       * not cut further each time) */
      twice = winnow_caveman_compress (rules, out, -1, &options);
      if (winnow_caveman_result_get_changed (twice))
        g_error ("%s at %s: compressing the output again changed it:\n%s\n---\n%s", m->id,
                 winnow_caveman_intensity_to_string (k), out,
                 winnow_caveman_result_get_text (twice, NULL));

      /* every region the scanner protects is in the output, in order, byte for byte */
      if (!winnow_protect_check (m->text, -1, out, -1, &error))
        g_error ("%s at %s: %s", m->id, winnow_caveman_intensity_to_string (k), error->message);

      /* expanding abbreviations back never touches a protected region either; a needle
       * that is plain prose ("PR #4187") may come back written out ("pull request #4187") */
      if (!winnow_protect_check (m->text, -1, expanded, -1, &error))
        g_error ("%s at %s, expanded: %s", m->id, winnow_caveman_intensity_to_string (k),
                 error->message);

      for (guint n = 0; m->needles[n] != NULL; n++)
        if (strstr (out, m->needles[n]) == NULL)
          {
            g_printerr ("%s at %s lost the needle “%s”\n", m->id,
                        winnow_caveman_intensity_to_string (k), m->needles[n]);
            lost++;
          }

      for (guint n = 0; m->meaning[n] != NULL; n++)
        if (!prose_meaning_kept_by (rules, &options, m->meaning[n], out, expanded))
          {
            g_printerr ("%s at %s lost the meaning “%s”\n", m->id,
                        winnow_caveman_intensity_to_string (k), m->meaning[n]);
            lost++;
          }
    }

  g_assert_cmpuint (lost, ==, 0);
  check_wrapped (m, role);
}

int
main (int   argc,
      char *argv[])
{
  static const char * const more_sets[] = { "dev", "holdout" };
  g_autofree char *dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  dir = g_test_build_filename (G_TEST_DIST, "prose", "messages", NULL);
  messages = prose_corpus_load (dir);
  rules = winnow_rule_set_new ();
  winnow_rule_set_add_builtin (rules);

  g_assert_cmpuint (messages->len, >=, 40);

  /* the development and held-out sets keep every technical token too */
  for (guint s = 0; s < G_N_ELEMENTS (more_sets); s++)
    {
      g_autofree char *more_dir = g_test_build_filename (G_TEST_DIST, "prose", more_sets[s], NULL);
      g_autoptr(GPtrArray) more = prose_corpus_load (more_dir);

      g_assert_cmpuint (more->len, >=, 10);
      for (guint i = 0; i < more->len; i++)
        g_ptr_array_add (messages, g_steal_pointer (&more->pdata[i]));
      /* the pointers now belong to messages */
      g_ptr_array_set_free_func (more, NULL);
    }
  for (guint i = 0; i < messages->len; i++)
    {
      ProseMessage *m = g_ptr_array_index (messages, i);
      g_autofree char *path = g_strdup_printf ("/prose-corpus/%s", m->id);

      g_test_add_data_func (path, m, check_message);
    }

  status = g_test_run ();

  g_ptr_array_unref (messages);
  g_object_unref (rules);
  return status;
}
