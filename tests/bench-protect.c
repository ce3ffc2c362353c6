/* bench-protect.c — throughput of the protected-token scanner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints figures; it fails only when it cannot run. Target: ≥ 50 MB/s on a large mix of
 * agent prose and code. Inputs, each about 24 MB:
 *   - mix: agent messages (prose in several languages with inline tokens, fences, tables,
 *     tracebacks) interleaved with real captured command output from tests/corpus, pasted
 *     in a fence half of the time and bare the other half;
 *   - prose: the messages' prose alone (the case with the most words per byte);
 *   - output: the corpus samples alone.
 * Times are the best of several rounds, wall clock and CPU (the machine may be shared).
 */

#include "config.h"

#include <locale.h>
#include <time.h>

#include "test-util.h"
#include "winnow.h"

#define TARGET (24 * 1024 * 1024)

static const char * const messages[] = {
  "I looked into the failing build. The problem is in `engine/winnow-rtk.c`: the cut at line "
  "212 ignores the marker, so `… 12 lines omitted …` is counted twice. I changed it and ran "
  "./dev test again; 317 passed, 0 failed.\n\n"
  "```c\nif (line->flags & LINE_MARKER)\n  continue;\n```\n\n"
  "Should I also update docs/STYLE.md and bump the version to v0.2.0?\n\n",

  "Sure! Here's what happened:\n\n"
  "1. `npm ci` failed with EACCES on /usr/lib/node_modules.\n"
  "2. I re-ran it with --prefix ~/.npm-global and it worked.\n"
  "3. Vitest 2.1.9 now reports 5 failures in test-vitest/math.test.js.\n\n"
  "See https://vitest.dev/guide/ (the guide) and https://github.com/acme/widget/pull/42 for "
  "details. Then run npm install --save-dev vitest@2.1.9 and try again.\n\n",

  "The traceback says:\n\n"
  "Traceback (most recent call last):\n"
  "  File \"/srv/app/main.py\", line 9, in <module>\n"
  "    run(config)\n"
  "  File \"/srv/app/main.py\", line 4, in run\n"
  "    port = config[\"port\"]\n"
  "KeyError: 'port'\n\n"
  "So the config lacks a port. I'd add `port: 8080` to config.yaml and retry with "
  "python3 -m app --verbose.\n\n",

  "| step | before | after |\n|:-----|------:|------:|\n| parse | 41 ms | 12 ms |\n"
  "| emit | 9 ms | 8 ms |\n\n"
  "Die Messung lief am 2026-04-18 um 09:00:12 auf dem Branch feature/faster-parse; ich habe "
  "danach mit git push -u origin feature/faster-parse hochgeladen.\n\n",

  "Eu acho que o problema está no arquivo de configuração, mas não tenho certeza. Basicamente "
  "o cache fica inválido depois de cada deploy e a gente precisa limpar tudo de novo. "
  "Je pense que c'est peut-être à cause du cache, il faudrait vérifier demain matin. "
  "Creo que deberíamos revisar la configuración antes de la próxima versión. "
  "Saya pikir kita perlu memeriksa konfigurasinya lagi besok pagi. "
  "設定ファイルに問題があると思います。我认为问题出在配置文件中。\n\n",

  "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-22.04\n"
  "    steps:\n      - uses: actions/checkout@v4\n      - run: ./dev test\n\n"
  "That workflow runs on every push; the matrix is gone because it doubled the bill.\n\n",

  "error[E0308]: mismatched types\n  --> src/main.rs:13:29\n   |\n"
  "13 |         self.entries.insert(name, id);\n"
  "   |                             ^^^^ expected `String`, found `&str`\n\n"
  "The fix is to call name.to_string() or to change the map to HashMap<&str, u32>. I would "
  "honestly just go with the first option since it is simpler.\n\n",
};

static GString *
make_prose (gsize target)
{
  GString *text = g_string_sized_new (target + 4096);

  while (text->len < target)
    for (guint i = 0; i < G_N_ELEMENTS (messages) && text->len < target; i++)
      {
        /* the paragraphs without blocks: the most words per byte, the slowest case */
        if (i == 1 || i == 4)
          g_string_append (text, messages[i]);
      }

  return text;
}

static GString *
make_output (GPtrArray *samples,
             gsize      target)
{
  GString *text = g_string_sized_new (target + 1024 * 1024);

  while (text->len < target)
    for (guint i = 0; i < samples->len && text->len < target; i++)
      {
        gsize length;
        const char *data = g_bytes_get_data (g_ptr_array_index (samples, i), &length);

        g_string_append_len (text, data, length);
      }

  return text;
}

static GString *
make_mix (GPtrArray *samples,
          gsize      target)
{
  GString *text = g_string_sized_new (target + 1024 * 1024);
  guint k = 0;

  while (text->len < target)
    for (guint i = 0; i < samples->len && text->len < target; i++)
      {
        gsize length;
        const char *data = g_bytes_get_data (g_ptr_array_index (samples, i), &length);

        for (guint m = 0; m < 3; m++)
          g_string_append (text, messages[k++ % G_N_ELEMENTS (messages)]);
        /* agents paste output in a fence half of the time, bare the other half */
        if (i % 2 == 0)
          {
            g_string_append (text, "Here is the output:\n\n```\n");
            g_string_append_len (text, data, length);
            g_string_append (text, "\n```\n\n");
          }
        else
          {
            g_string_append (text, "Output:\n");
            g_string_append_len (text, data, length);
            g_string_append (text, "\n\n");
          }
      }

  return text;
}

static GPtrArray *
load_samples (void)
{
  g_autofree char *dir_path = test_util_corpus_path ("samples");
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *name;

  if (dir == NULL)
    g_error ("cannot open the corpus in %s", dir_path);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      char *contents;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL))
        g_ptr_array_add (samples, g_bytes_new_take (contents, length));
    }

  return samples;
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
bench_scan (const char *label,
            GString    *text)
{
  double best_wall = G_MAXDOUBLE, best_cpu = G_MAXDOUBLE;
  guint n_spans = 0;
  gsize protected_bytes = 0;

  for (int round = 0; round < 5; round++)
    {
      gint64 start = g_get_monotonic_time ();
      double cpu = cpu_seconds ();
      g_autoptr(GArray) spans = winnow_protect_scan (text->str, text->len);

      best_cpu = MIN (best_cpu, cpu_seconds () - cpu);
      best_wall = MIN (best_wall, (g_get_monotonic_time () - start) / 1e6);
      n_spans = spans->len;
      protected_bytes = 0;
      for (guint i = 0; i < spans->len; i++)
        protected_bytes += g_array_index (spans, WinnowProtectSpan, i).end -
                           g_array_index (spans, WinnowProtectSpan, i).start;
    }

  g_print ("scan %-7s %5.1f MB: %4.0f MB/s wall (%.3f s), %4.0f MB/s CPU; %u spans, "
           "%.0f%% of bytes protected\n",
           label, text->len / 1e6, text->len / 1e6 / best_wall, best_wall,
           text->len / 1e6 / best_cpu, n_spans, 100.0 * protected_bytes / text->len);
}

static void
bench_check (GString *text)
{
  double best = G_MAXDOUBLE;

  for (int round = 0; round < 3; round++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(GError) error = NULL;

      if (!winnow_protect_check (text->str, text->len, text->str, text->len, &error))
        g_error ("the text does not keep its own tokens: %s", error->message);
      best = MIN (best, (g_get_monotonic_time () - start) / 1e6);
    }

  g_print ("check mix   %5.1f MB: %4.0f MB/s wall (%.3f s; scan and subsequence match)\n",
           text->len / 1e6, text->len / 1e6 / best, best);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) samples = NULL;
  g_autoptr(GString) mix = NULL;
  g_autoptr(GString) prose = NULL;
  g_autoptr(GString) output = NULL;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  samples = load_samples ();
  mix = make_mix (samples, TARGET);
  prose = make_prose (TARGET);
  output = make_output (samples, TARGET);

  g_print ("protected-token scan, best of 5 (target ≥ 50 MB/s)\n");
  bench_scan ("mix", mix);
  bench_scan ("prose", prose);
  bench_scan ("output", output);
  bench_check (mix);

  return 0;
}
