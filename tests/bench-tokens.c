/* bench-tokens.c — throughput of the o200k_base token counter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints figures; it fails only when it cannot run. Target: ≥ 100 MB/s counting real command
 * output (every receipt counts its input and its output).
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <string.h>

#include "test-util.h"
#include "winnow.h"
#include "winnow-tokens-private.h"

/* Runs @fn over @texts round after round until at least @target bytes went through, best of
 * three such runs. */
typedef gsize (*CountFunc) (const char *text, gsize length);

static gsize
count_only (const char *text,
            gsize       length)
{
  return winnow_tokens_count (text, length);
}

static gsize
encode_ids (const char *text,
            gsize       length)
{
  g_autoptr(GArray) ids = winnow_tokens_encode (text, length);

  return ids->len;
}

static void
bench (const char *what,
       GPtrArray  *texts,
       CountFunc   fn,
       gsize       target)
{
  double best = G_MAXDOUBLE;
  gsize bytes = 0, tokens = 0;

  for (int run = 0; run < 3; run++)
    {
      gint64 start = g_get_monotonic_time ();
      double seconds;

      bytes = tokens = 0;
      while (bytes < target)
        for (guint i = 0; i < texts->len; i++)
          {
            GBytes *b = g_ptr_array_index (texts, i);
            gsize length;
            const char *data = g_bytes_get_data (b, &length);

            tokens += fn (data, length);
            bytes += length;
          }
      seconds = (g_get_monotonic_time () - start) / 1e6;
      best = MIN (best, seconds);
    }

  g_print ("%-52s %7.1f MB/s  (%.1f MB, %.2f bytes per token)\n",
           what, bytes / 1e6 / best, bytes / 1e6, (double) bytes / MAX (tokens, 1));
}

static GPtrArray *
load_samples (void)
{
  g_autofree char *dir = test_util_corpus_path ("samples");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *texts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *file;

  if (d == NULL)
    g_error ("cannot read %s", dir);
  while ((file = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, file, NULL);
      char *contents;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL) && length > 0)
        g_ptr_array_add (texts, g_bytes_new_take (contents, length));
    }
  return texts;
}

/* The texts of tests/tokens/ground-truth.json whose names match @filter (NULL: every one). */
static GPtrArray *
load_cases (const char *const *names)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "tokens", "ground-truth.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  GPtrArray *texts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  JsonArray *cases;

  if (!json_parser_load_from_file (parser, path, NULL))
    g_error ("cannot read %s", path);
  cases = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "cases");
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      const char *name = json_object_get_string_member (c, "name");

      if (!json_object_has_member (c, "text") || !g_strv_contains (names, name))
        continue;
      g_ptr_array_add (texts, g_bytes_new (json_object_get_string_member (c, "text"),
                                           strlen (json_object_get_string_member (c, "text"))));
    }
  return texts;
}

/* One text made of all of @texts, repeated to at least @size bytes. */
static GPtrArray *
concatenated (GPtrArray *texts,
              gsize      size)
{
  GString *all = g_string_new (NULL);
  GPtrArray *one = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  while (all->len < size)
    for (guint i = 0; i < texts->len; i++)
      {
        gsize length;
        const char *data = g_bytes_get_data (g_ptr_array_index (texts, i), &length);

        g_string_append_len (all, data, length);
      }
  g_ptr_array_add (one, g_string_free_to_bytes (all));
  return one;
}

static void
bench_long_run (const char *unit,
                const char *what)
{
  gsize unit_len = strlen (unit);
  g_autoptr(GString) text = g_string_new (NULL);
  gint64 start;
  gsize tokens;
  double seconds;

  while (text->len + unit_len <= 1024 * 1024)
    g_string_append (text, unit);
  start = g_get_monotonic_time ();
  tokens = winnow_tokens_count (text->str, text->len);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_print ("%-52s %7.1f MB/s  (%zu tokens in %.0f ms)\n", what, text->len / 1e6 / seconds, tokens,
           seconds * 1e3);
}

int
main (int   argc,
      char *argv[])
{
  static const char *const prose_names[] = {
    "English prose", "Portuguese prose", "German prose", "French prose", "Spanish prose",
    "Indonesian prose", "Vietnamese", NULL,
  };
  static const char *const cjk_names[] = { "Japanese", "Chinese", "Korean", NULL };
  static const char *const code_names[] = {
    "C code", "Python code", "Rust code", "Go code", "JavaScript code", "shell and SQL", "HTML",
    "JSON", "compact JSON", NULL,
  };
  g_autoptr(GPtrArray) samples = NULL;
  g_autoptr(GPtrArray) samples_one = NULL;
  g_autoptr(GPtrArray) prose = NULL;
  g_autoptr(GPtrArray) cjk = NULL;
  g_autoptr(GPtrArray) code = NULL;
  gint64 start;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  /* the first call finds the embedded vocabulary: what every process pays once */
  start = g_get_monotonic_time ();
  winnow_tokens_count ("warm up", -1);
  g_print ("first call (finds the embedded vocabulary): %.3f ms\n",
           (g_get_monotonic_time () - start) / 1e3);

  samples = load_samples ();
  samples_one = concatenated (samples, 1);
  prose = concatenated (load_cases (prose_names), 4 * 1024 * 1024);
  cjk = concatenated (load_cases (cjk_names), 4 * 1024 * 1024);
  code = concatenated (load_cases (code_names), 4 * 1024 * 1024);

  g_print ("%s counter, corpus of %u real output samples (%.1f MB)\n", winnow_tokens_counter_name (),
           samples->len, g_bytes_get_size (g_ptr_array_index (samples_one, 0)) / 1e6);
  bench ("count, command output, one call per sample", samples, count_only, 64 * 1024 * 1024);
  bench ("count, command output, all samples in one text", samples_one, count_only, 64 * 1024 * 1024);
  bench ("encode (ids), command output, one call per sample", samples, encode_ids, 64 * 1024 * 1024);
  bench ("count, prose (en pt de fr es id vi)", prose, count_only, 32 * 1024 * 1024);
  bench ("count, Japanese, Chinese, Korean", cjk, count_only, 32 * 1024 * 1024);
  bench ("count, code and JSON", code, count_only, 32 * 1024 * 1024);

  /* the texts above repeat, and so their merged pieces come from the cache; without it, every
   * piece that is not a token is merged anew, as in a process's first text */
  g_print ("without the cache of merged pieces:\n");
  _winnow_tokens_set_cache (FALSE);
  bench ("count, command output, one call per sample", samples, count_only, 32 * 1024 * 1024);
  bench ("count, prose (en pt de fr es id vi)", prose, count_only, 16 * 1024 * 1024);
  bench ("count, Japanese, Chinese, Korean", cjk, count_only, 16 * 1024 * 1024);
  bench ("count, code and JSON", code, count_only, 16 * 1024 * 1024);
  _winnow_tokens_set_cache (TRUE);

  bench_long_run ("a", "count, 1 MiB of 'a' (one piece)");
  bench_long_run (" ", "count, 1 MiB of spaces (one piece)");
  bench_long_run ("=", "count, 1 MiB of '=' (one piece)");
  return 0;
}
