/* bench-prose.c — what Caveman saves on verbose agent prose, and what it keeps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-prose [--lang LANG] [--style STYLE] [--show ID] [--rules DIR] [--corpus DIR]
 *               [--wrap COLUMNS]
 *
 * For every message of tests/prose/ at lite, full and ultra: tokens before and after (the
 * engine's own counter), savings over the whole message and over its prose (the message minus
 * its protected tokens, which are never touched), needles kept byte for byte and meaning
 * phrases kept (checked on expand() of the output). Prints a table per language and one per
 * style of message (verbose, mixed, terse); --show prints one message compressed at each
 * intensity. Targets on verbose prose: ≥ 25 % lite, ≥ 40 % full, ≥ 55 % ultra, 100 % of
 * needles. --wrap measures the same messages hard-wrapped, as e-mails and commit messages are
 * (a needle or phrase the wrapping splits over two lines may then count as lost).
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include "prose-corpus.h"
#include "test-util.h"
#include "winnow.h"
#include "winnow-protect.h"

typedef struct
{
  guint  messages;
  double before;
  double prose;
  double after[3];
  guint  needles;
  guint  needles_lost[3];
  guint  meaning;
  guint  meaning_lost[3];
  gint64 duration_us;
  gsize  bytes;           /* compressed, over the three intensities */
} Totals;

static char *opt_lang;
static char *opt_style;
static char *opt_show;
static char *opt_rules;

static char *opt_corpus;
static int opt_wrap;
static const GOptionEntry entries[] = {
  { "lang", 0, 0, G_OPTION_ARG_STRING, &opt_lang, "Only messages in LANG", "LANG" },
  { "style", 0, 0, G_OPTION_ARG_STRING, &opt_style, "Only messages of STYLE (verbose, mixed, terse)", "STYLE" },
  { "show", 0, 0, G_OPTION_ARG_STRING, &opt_show, "Print message ID compressed", "ID" },
  { "rules", 0, 0, G_OPTION_ARG_FILENAME, &opt_rules, "Rule packs from DIR, not the built-in ones", "DIR" },
  { "corpus", 0, 0, G_OPTION_ARG_FILENAME, &opt_corpus, "Messages from DIR (default: prose/messages; prose/holdout is the held-out set)", "DIR" },
  { "wrap", 0, 0, G_OPTION_ARG_INT, &opt_wrap, "Hard-wrap the messages' paragraphs at COLUMNS first, as an e-mail client would (not ja, zh)", "COLUMNS" },
  { NULL }
};

/* Tokens of the message that rules never see: its protected regions, counted one by one. */
static gsize
protected_tokens (const char *text)
{
  g_autoptr(GArray) spans = winnow_protect_scan (text, -1);
  gsize n = 0;

  for (guint i = 0; i < spans->len; i++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);

      n += winnow_tokens_count (text + span->start, span->end - span->start);
    }

  return n;
}

static void
print_row (const char   *label,
           const Totals *t)
{
  double prose = t->prose > 0 ? t->prose : 1;

  g_print ("%-7s %4u %8.0f %6.1f%%  ", label, t->messages, t->before, 100.0 * t->prose / t->before);
  for (int k = 0; k < 3; k++)
    g_print (" %5.1f%% %5.1f%%", 100.0 * (t->before - t->after[k]) / t->before,
             100.0 * (t->before - t->after[k]) / prose);
  g_print ("   %u/%u %u/%u\n", t->needles * 3 - t->needles_lost[0] - t->needles_lost[1] -
           t->needles_lost[2], t->needles * 3, t->meaning * 3 - t->meaning_lost[0] -
           t->meaning_lost[1] - t->meaning_lost[2], t->meaning * 3);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— Caveman on the prose corpus");
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRuleSet) rules = winnow_rule_set_new ();
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GHashTable) by_lang = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) by_style = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) langs = g_ptr_array_new ();
  g_autoptr(GPtrArray) styles = g_ptr_array_new ();
  g_autofree char *dir = NULL;
  Totals all = { 0 };

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);

  if (opt_rules != NULL)
    winnow_rule_set_add_directory (rules, opt_rules, "file");
  else
    winnow_rule_set_add_builtin (rules);

  if (opt_corpus != NULL)
    dir = g_strdup (opt_corpus);
  else
    dir = g_build_filename (g_getenv ("G_TEST_SRCDIR") ? g_getenv ("G_TEST_SRCDIR") : "tests",
                            "prose", "messages", NULL);
  g_print ("corpus: %s\n", dir);
  messages = prose_corpus_load (dir);

  for (guint i = 0; i < messages->len; i++)
    {
      ProseMessage *m = g_ptr_array_index (messages, i);
      gboolean show = g_strcmp0 (opt_show, m->id) == 0;
      Totals *t;
      Totals *st;
      WinnowMessageRole role;
      gsize before;

      if (opt_lang != NULL && g_strcmp0 (opt_lang, m->lang) != 0)
        continue;
      if (opt_wrap > 0 && !g_str_equal (m->lang, "ja") && !g_str_equal (m->lang, "zh"))
        {
          char *wrapped = prose_hard_wrap (m->text, opt_wrap);

          g_free (m->text);
          m->text = wrapped;
        }
      if (opt_style != NULL && g_strcmp0 (opt_style, m->style) != 0)
        continue;

      st = g_hash_table_lookup (by_style, m->style);
      if (st == NULL)
        {
          st = g_new0 (Totals, 1);
          g_hash_table_insert (by_style, g_strdup (m->style), st);
          g_ptr_array_add (styles, (gpointer) m->style);
        }

      t = g_hash_table_lookup (by_lang, m->lang);
      if (t == NULL)
        {
          t = g_new0 (Totals, 1);
          g_hash_table_insert (by_lang, g_strdup (m->lang), t);
          g_ptr_array_add (langs, (gpointer) m->lang);
        }

      winnow_message_role_from_string (m->role, &role);
      before = winnow_tokens_count (m->text, -1);
      t->messages++;
      t->before += before;
      t->prose += before - MIN (before, protected_tokens (m->text));
      t->needles += g_strv_length (m->needles);
      t->meaning += g_strv_length (m->meaning);
      st->messages++;
      st->before += before;
      st->prose += before - MIN (before, protected_tokens (m->text));
      st->needles += g_strv_length (m->needles);
      st->meaning += g_strv_length (m->meaning);

      for (int k = 0; k < 3; k++)
        {
          g_autoptr(WinnowCavemanResult) result = NULL;
          g_autofree char *expanded = NULL;
          WinnowCavemanOptions options;
          const char *out;

          winnow_caveman_options_init (&options);
          options.intensity = k;
          options.role = role;
          options.language = m->lang;
          result = winnow_caveman_compress (rules, m->text, -1, &options);
          out = winnow_caveman_result_get_text (result, NULL);
          expanded = winnow_caveman_expand (rules, out, -1, m->lang, NULL);
          t->after[k] += winnow_tokens_count (out, -1);
          st->after[k] += winnow_tokens_count (out, -1);
          t->duration_us += winnow_caveman_result_get_duration_us (result);
          t->bytes += strlen (m->text);

          for (guint n = 0; m->needles[n] != NULL; n++)
            if (strstr (out, m->needles[n]) == NULL)
              {
                t->needles_lost[k]++;
                st->needles_lost[k]++;
                g_print ("LOST needle  %s [%s]: %s\n", m->id, winnow_caveman_intensity_to_string (k),
                         m->needles[n]);
              }
          for (guint n = 0; m->meaning[n] != NULL; n++)
            if (!prose_meaning_kept_by (rules, &options, m->meaning[n], out, expanded))
              {
                t->meaning_lost[k]++;
                st->meaning_lost[k]++;
                g_print ("LOST meaning %s [%s]: %s\n", m->id, winnow_caveman_intensity_to_string (k),
                         m->meaning[n]);
              }

          if (show)
            g_print ("==== %s at %s (%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " tokens)\n%s\n\n",
                     m->id, winnow_caveman_intensity_to_string (k), before,
                     winnow_tokens_count (out, -1), out);
        }
    }

  g_print ("\ncounter: %s\n", winnow_tokens_counter_name ());
  g_print ("%-7s %4s %8s %7s   %-13s %-13s %-13s   %s %s\n", "lang", "msgs", "tokens", "prose",
           "lite msg/prose", "full msg/prose", "ultra msg/prose", "needles", "meaning");
  for (guint i = 0; i < langs->len; i++)
    {
      Totals *t = g_hash_table_lookup (by_lang, g_ptr_array_index (langs, i));

      print_row (g_ptr_array_index (langs, i), t);
      all.messages += t->messages;
      all.before += t->before;
      all.prose += t->prose;
      all.needles += t->needles;
      all.meaning += t->meaning;
      all.duration_us += t->duration_us;
      all.bytes += t->bytes;
      for (int k = 0; k < 3; k++)
        {
          all.after[k] += t->after[k];
          all.needles_lost[k] += t->needles_lost[k];
          all.meaning_lost[k] += t->meaning_lost[k];
        }
    }
  print_row ("all", &all);
  g_print ("\n");
  for (guint i = 0; i < styles->len; i++)
    print_row (g_ptr_array_index (styles, i), g_hash_table_lookup (by_style, g_ptr_array_index (styles, i)));
  g_print ("caveman time: %.1f ms for %u compressions\n", all.duration_us / 1000.0, all.messages * 3);

  /* the whole main corpus as written: a 10 KB message in 20 ms */
  if (opt_corpus == NULL && opt_wrap == 0 && opt_lang == NULL && opt_style == NULL &&
      opt_rules == NULL && all.duration_us > 0)
    test_util_budget ("Caveman on the prose corpus", all.bytes / 1024.0 / (all.duration_us / 1e6),
                      500, TRUE, "KB/s");

  return 0;
}
