/* bench-redact.c — throughput of secret redaction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints figures; it fails only when it cannot run. Redaction runs on every retained raw
 * output (up to rawOutputMaxBytes, 1 MB by default), so it must cost far less than running
 * the command did. Three inputs of 20 MB each: the real command output of tests/corpus/
 * (almost no secrets: the common case), that output with the redaction corpus of
 * tests/redact/ mixed in (a secret every few kilobytes), and an env/config dump made only of
 * secret-bearing files (the worst realistic case).
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

#define TARGET (20 * 1000 * 1000)

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
load_dir (GPtrArray  *texts,
          const char *dir,
          const char *suffix_skip)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *file;

  if (d == NULL)
    g_error ("cannot read %s", dir);
  while ((file = g_dir_read_name (d)) != NULL)
    if (suffix_skip == NULL || !g_str_has_suffix (file, suffix_skip))
      g_ptr_array_add (names, g_strdup (file));
  /* the same order on every machine */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      char *contents;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL) && length > 0)
        g_ptr_array_add (texts, g_bytes_new_take (contents, length));
    }
}

static GString *
build (GPtrArray *texts)
{
  GString *all = g_string_sized_new (TARGET + 1024 * 1024);

  while (all->len < TARGET)
    for (guint i = 0; i < texts->len && all->len < TARGET; i++)
      {
        gsize length;
        const char *data = g_bytes_get_data (g_ptr_array_index (texts, i), &length);

        g_string_append_len (all, data, length);
      }
  return all;
}

static void
bench (const char *what,
       GString    *text)
{
  double best = G_MAXDOUBLE;
  guint total = 0;
  gsize out_length = 0;

  for (int run = 0; run < 3; run++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(WinnowRedaction) r = winnow_redact (text->str, text->len);

      best = MIN (best, (g_get_monotonic_time () - start) / 1e6);
      total = winnow_redaction_get_total (r);
      winnow_redaction_get_text (r, &out_length);
    }
  g_print ("%-44s %7.1f MB/s  (%.1f MB, %u secrets, %.1f MB out)\n",
           what, text->len / 1e6 / best, text->len / 1e6, total, out_length / 1e6);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) secrets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) mixed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree char *samples_dir = NULL;
  g_autofree char *redact_dir = NULL;
  GString *text;

  g_test_init (&argc, &argv, NULL);
  samples_dir = test_util_corpus_path ("samples");
  redact_dir = g_test_build_filename (G_TEST_DIST, "redact", NULL);
  load_dir (samples, samples_dir, NULL);
  load_dir (secrets, redact_dir, ".py");

  for (guint i = 0; i < samples->len; i++)
    {
      g_ptr_array_add (mixed, g_bytes_ref (g_ptr_array_index (samples, i)));
      if (i % 8 == 0)
        g_ptr_array_add (mixed, g_bytes_ref (g_ptr_array_index (secrets, (i / 8) % secrets->len)));
    }

  text = build (samples);
  bench ("real command output (tests/corpus)", text);
  g_string_free (text, TRUE);

  text = build (mixed);
  bench ("command output with secrets mixed in", text);
  g_string_free (text, TRUE);

  text = build (secrets);
  bench ("secret-bearing dumps only (tests/redact)", text);
  g_string_free (text, TRUE);

  return 0;
}
