/* bench-rtk.c — throughput and latency figures for the RTK pipeline and the CLI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints figures; it fails only when it cannot run. Targets (issue "engine core", and the
 * performance budget of issue 10, printed as BUDGET lines for `./dev bench`'s table):
 *   pipeline ≥ 200 MB/s on a ≥ 20 MB mix of real captured output,
 *   worst case (1 MB of distinct `Error:` lines) ≤ 50 ms,
 *   worst case linear: adversarial inputs of 1, 4 and 16 MB cost the same per byte (within 2×),
 *   `winnow compress` on a 10 KB sample ≤ 10 ms per process, with the whole catalog loaded,
 *   the preview's engine work (stacked pipeline and line map) on 1 MB ≤ 50 ms.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-util.h"
#include "winnow.h"

typedef struct
{
  char  *command;
  GBytes *bytes;
} Sample;

static void
sample_free (gpointer data)
{
  Sample *s = data;

  g_free (s->command);
  g_bytes_unref (s->bytes);
  g_free (s);
}

static GPtrArray *
load_corpus (void)
{
  g_autofree char *manifest = test_util_corpus_path ("manifest.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GPtrArray *samples = g_ptr_array_new_with_free_func (sample_free);
  JsonArray *entries;

  if (!json_parser_load_from_file (parser, manifest, &error))
    g_error ("cannot read the corpus manifest %s: %s", manifest, error->message);

  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      g_autofree char *path = test_util_corpus_path (json_object_get_string_member (entry, "file"));
      char *contents = NULL;
      gsize length = 0;
      Sample *s;

      if (!g_file_get_contents (path, &contents, &length, NULL) || length == 0)
        {
          g_free (contents);
          continue;
        }

      s = g_new0 (Sample, 1);
      s->command = g_strdup (json_object_get_string_member (entry, "command"));
      s->bytes = g_bytes_new_take (contents, length);
      g_ptr_array_add (samples, s);
    }

  return samples;
}

/* The whole pipeline (detect, select, filter, caps, token receipt) on every corpus sample,
 * round after round, until at least @target bytes went through. */
static void
bench_pipeline (WinnowContext *ctx,
                GPtrArray     *samples,
                gsize          target)
{
  gsize bytes = 0;
  guint calls = 0;
  gint64 start = g_get_monotonic_time ();
  double seconds;

  while (bytes < target)
    for (guint i = 0; i < samples->len; i++)
      {
        Sample *s = g_ptr_array_index (samples, i);
        gsize length;
        const char *data = g_bytes_get_data (s->bytes, &length);
        g_autoptr(WinnowCompression) c = winnow_context_compress (ctx, data, length, s->command,
                                                                  NULL, NULL);
        bytes += length;
        calls++;
      }

  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_print ("pipeline call per corpus sample: %.1f MB in %.3f s = %.0f MB/s "
           "(%u calls, %.1f µs per call)\n",
           bytes / 1e6, seconds, bytes / 1e6 / seconds, calls, seconds * 1e6 / calls);
}

/* One big log made of every sample concatenated (≥ 20 MB): first the whole pipeline on it
 * (detection from its head and tail, selection, the filter, caps, token receipt), then the
 * stage runner alone with a few filters. */
static void
bench_big_log (WinnowContext *ctx,
               GPtrArray     *samples)
{
  g_autoptr(GString) log = g_string_new (NULL);
  WinnowCatalog *catalog = winnow_context_get_catalog (ctx);
  static const char * const filter_ids[] = { "generic-output", "apt", "build-gcc", "test-pytest",
                                             "git-diff", "shell-find", NULL };

  while (log->len < 20 * 1024 * 1024)
    for (guint i = 0; i < samples->len && log->len < 24 * 1024 * 1024; i++)
      {
        gsize length;
        const char *data = g_bytes_get_data (((Sample *) g_ptr_array_index (samples, i))->bytes,
                                             &length);
        if (g_utf8_validate_len (data, length, NULL))
          g_string_append_len (log, data, length);
      }

  {
    double best = G_MAXDOUBLE;
    g_autofree char *filter_id = NULL;

    double best_receipt = G_MAXDOUBLE;

    double best_cpu = G_MAXDOUBLE;

    for (int round = 0; round < 5; round++)
      {
        gint64 cpu = test_util_cpu_us ();
        gint64 start = g_get_monotonic_time ();
        g_autoptr(WinnowCompression) c = winnow_context_compress (ctx, log->str, log->len, NULL,
                                                                  NULL, NULL);
        gint64 compressed = g_get_monotonic_time ();

        best_cpu = MIN (best_cpu, (test_util_cpu_us () - cpu) / 1e6);

        winnow_compression_get_tokens_before (c);
        best = MIN (best, (compressed - start) / 1e6);
        best_receipt = MIN (best_receipt, (g_get_monotonic_time () - compressed) / 1e6);
        g_free (filter_id);
        filter_id = g_strdup (winnow_compression_get_filter (c)
                              ? winnow_filter_get_id (winnow_compression_get_filter (c)) : "none");
      }

    g_print ("RTK pipeline on a %.1f MB real log mix (detect, select %s, filter, caps): "
             "%.0f MB/s (%.3f s; target ≥ 200 MB/s)\n",
             log->len / 1e6, filter_id, log->len / 1e6 / best, best);
    g_print ("  processor time: %.3f s (%.0f MB per processor-second)\n", best_cpu,
             log->len / 1e6 / best_cpu);
    test_util_budget_cpu ("RTK pipeline, real log mix", log->len / 1e6 / best,
                          log->len / 1e6 / best_cpu, 200, TRUE, "MB/s");
    g_print ("  token receipt for it, counted on demand: %.0f MB/s (%.3f s)\n",
             log->len / 1e6 / best_receipt, best_receipt);
  }

  for (guint k = 0; filter_ids[k] != NULL; k++)
    {
      WinnowFilter *filter = winnow_catalog_lookup (catalog, filter_ids[k]);
      double best = G_MAXDOUBLE;
      gsize out_len = 0;

      if (filter == NULL)
        continue;

      for (int round = 0; round < 3; round++)
        {
          gint64 start = g_get_monotonic_time ();
          g_autoptr(WinnowRtkResult) result = winnow_rtk_apply (filter, log->str, log->len, NULL);
          double seconds = (g_get_monotonic_time () - start) / 1e6;

          best = MIN (best, seconds);
          out_len = winnow_rtk_result_get_bytes_out (result);
        }

      g_print ("  stages alone with %-16s %5.0f MB/s (%.3f s, %zu bytes out)\n",
               filter_ids[k], log->len / 1e6 / best, best, out_len);
    }
}

static void
bench_worst_case (void)
{
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(GPtrArray) filters = NULL;
  double best = G_MAXDOUBLE;
  double best_cpu = G_MAXDOUBLE;

  /* every line distinct and protected: nothing to fold, everything to check */
  filters = winnow_filter_pack_parse (
    "{\"id\":\"worst\",\"label\":\"W\",\"category\":\"test\","
    "\"rules\":{\"stripAnsi\":true,\"dropPatterns\":[\"^\\\\s*$\",\"^noise\"],"
    "\"includePatterns\":[\"Error\"],\"collapsePatterns\":[\"Error\"],\"truncateLineAt\":80,"
    "\"deduplicate\":true,\"maxLines\":200,\"headLines\":50,\"tailLines\":50},"
    "\"preserve\":{\"errorPatterns\":[\"Error:\"],\"summaryPatterns\":[\"^Tests:\"]}}",
    -1, WINNOW_FILTER_SOURCE_FILE, "worst", 0, NULL);

  for (int i = 0; input->len < 1024 * 1024; i++)
    g_string_append_printf (input, "Error: distinct failure number %d in module_%d.c line %d\n",
                            i, i % 211, i * 7);

  for (int round = 0; round < 5; round++)
    {
      gint64 cpu = test_util_cpu_us ();
      gint64 start = g_get_monotonic_time ();
      g_autoptr(WinnowRtkResult) result =
        winnow_rtk_apply (g_ptr_array_index (filters, 0), input->str, input->len, NULL);

      best = MIN (best, (g_get_monotonic_time () - start) / 1e3);
      best_cpu = MIN (best_cpu, (test_util_cpu_us () - cpu) / 1e3);
    }

  g_print ("worst case, 1 MB of distinct Error: lines: %.1f ms (target ≤ 50 ms)\n", best);
  test_util_budget_cpu ("RTK worst case, 1 MB of distinct errors", best, best_cpu, 50, FALSE, "ms");
}

/* Adversarial inputs, each made to @size bytes. */
static void
make_adversarial (GString *out,
                  guint    shape,
                  gsize    size)
{
  g_string_truncate (out, 0);
  switch (shape)
    {
    case 0:   /* every line distinct and protected */
      for (guint i = 0; out->len < size; i++)
        g_string_append_printf (out, "Error: distinct failure number %u in module_%u.c line %u\n",
                                i, i % 211, i * 7);
      break;
    case 1:   /* one line, no line end: whatever scans a line scans all of it */
      while (out->len < size)
        g_string_append (out, "warning: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ");
      break;
    case 2:   /* long lines of blanks that end in a letter: trailing-space patterns backtrack */
      while (out->len < size)
        {
          g_string_append_c (out, 'x');
          for (guint i = 0; i < 4000; i++)
            g_string_append_c (out, i % 2 ? '\t' : ' ');
          g_string_append (out, "y\n");
        }
      break;
    default:  /* colour escapes everywhere, and the same line over and over */
      while (out->len < size)
        g_string_append (out, "\033[1;31mFAILED\033[0m tests/test_x.py::test_y - \033[33mAssert"
                              "ionError\033[0m\n");
      break;
    }
}

/* Whole pipeline (detection against the whole catalog, then the chosen filter) on inputs of
 * 1, 4 and 16 MB: the cost per byte must not grow with the size. */
static void
bench_worst_case_linear (WinnowContext *ctx)
{
  static const char * const shapes[] = { "distinct errors", "one long line", "blank runs",
                                         "ANSI, repeated" };
  static const gsize sizes[] = { 1, 4, 16 };
  g_autoptr(GString) input = g_string_new (NULL);
  double worst_ratio = 0;
  double worst_cpu_ratio = 0;

  g_print ("worst case, whole pipeline, time per size (1 / 4 / 16 MB):\n");
  for (guint shape = 0; shape < G_N_ELEMENTS (shapes); shape++)
    {
      double per_mb[G_N_ELEMENTS (sizes)];
      double cpu_per_mb[G_N_ELEMENTS (sizes)];

      g_print ("  %-16s", shapes[shape]);
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        {
          double best = G_MAXDOUBLE;
          double best_cpu = G_MAXDOUBLE;

          make_adversarial (input, shape, sizes[k] * 1024 * 1024);
          for (int round = 0; round < (sizes[k] > 4 ? 2 : 3); round++)
            {
              gint64 cpu = test_util_cpu_us ();
              gint64 start = g_get_monotonic_time ();
              g_autoptr(WinnowCompression) c = winnow_context_compress (ctx, input->str,
                                                                        input->len, "make",
                                                                        NULL, NULL);
              best = MIN (best, (g_get_monotonic_time () - start) / 1e3);
              best_cpu = MIN (best_cpu, (test_util_cpu_us () - cpu) / 1e3);
            }
          per_mb[k] = best / (input->len / (1024.0 * 1024.0));
          cpu_per_mb[k] = best_cpu / (input->len / (1024.0 * 1024.0));
          g_print (" %8.1f ms", best);
        }
      g_print ("   (%.1f → %.1f ms per MB)\n", per_mb[0], per_mb[G_N_ELEMENTS (sizes) - 1]);
      worst_ratio = MAX (worst_ratio, per_mb[G_N_ELEMENTS (sizes) - 1] / per_mb[0]);
      worst_cpu_ratio = MAX (worst_cpu_ratio,
                             cpu_per_mb[G_N_ELEMENTS (sizes) - 1] / cpu_per_mb[0]);
    }
  test_util_budget_cpu ("RTK worst case linear (cost per byte, 16 MB / 1 MB)", worst_ratio,
                        worst_cpu_ratio, 2, FALSE, "x");
}

/* What the dashboard's preview does off the main thread for each edit: the stacked pipeline
 * (its default mode) and the line map, on 1 MB of the real log mix. */
static void
bench_preview (WinnowContext *ctx,
               GPtrArray     *samples)
{
  g_autoptr(WinnowPipeline) pipeline = winnow_pipeline_new (ctx);
  g_autoptr(GString) text = g_string_new (NULL);
  double best = G_MAXDOUBLE;
  double best_map = G_MAXDOUBLE;
  double best_cpu = G_MAXDOUBLE;

  while (text->len < 1024 * 1024)
    for (guint i = 0; i < samples->len && text->len < 1024 * 1024; i++)
      {
        gsize length;
        const char *data = g_bytes_get_data (((Sample *) g_ptr_array_index (samples, i))->bytes,
                                             &length);
        if (g_utf8_validate_len (data, length, NULL))
          g_string_append_len (text, data, MIN (length, 1024 * 1024 - text->len));
      }
  /* a cut sample may end inside a character */
  while (text->len > 0 && !g_utf8_validate_len (text->str, text->len, NULL))
    g_string_truncate (text, text->len - 1);

  for (int round = 0; round < 5; round++)
    {
      WinnowPipelineRequest request;
      g_autoptr(WinnowPipelineResult) result = NULL;
      g_autoptr(WinnowLineMap) map = NULL;
      g_autoptr(GError) error = NULL;
      WinnowCompression *compression;
      const int *origins = NULL;
      guint n_origins = 0;
      const char *output;
      gint64 cpu = test_util_cpu_us ();
      gint64 start = g_get_monotonic_time ();
      gint64 mapped;

      winnow_pipeline_request_init (&request);
      request.mode = WINNOW_PIPELINE_MODE_STACKED;
      result = winnow_pipeline_run_text (pipeline, text->str, text->len, &request, &error);
      if (result == NULL)
        g_error ("preview: %s", error->message);
      output = winnow_pipeline_result_get_text (result, NULL);
      compression = winnow_pipeline_result_get_rtk_compression (result);
      if (compression != NULL &&
          g_strcmp0 (winnow_compression_get_text (compression, NULL), output) == 0)
        origins = winnow_rtk_result_get_line_origins (
          winnow_compression_get_rtk_result (compression), &n_origins);
      mapped = g_get_monotonic_time ();
      map = winnow_line_map_new (text->str, text->len, output, -1, origins, n_origins);
      best = MIN (best, (g_get_monotonic_time () - start) / 1e3);
      best_map = MIN (best_map, (g_get_monotonic_time () - mapped) / 1e3);
      best_cpu = MIN (best_cpu, (test_util_cpu_us () - cpu) / 1e3);
    }

  g_print ("preview engine work on %.1f MB (stacked pipeline + line map): %.1f ms, of which the "
           "line map %.1f ms (target ≤ 50 ms)\n", text->len / 1e6, best, best_map);
  test_util_budget_cpu ("preview of 1 MB, engine work", best, best_cpu, 50, FALSE, "ms");
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Runs `argv` once the way a caller's shell or agent would start it and returns the elapsed
 * milliseconds, adding the child's processor time to `cpu_ms`.
 *
 * posix_spawn (glibc clones with CLONE_VM|CLONE_VFORK) rather than GSubprocess: GSubprocess
 * forks, and forking this benchmark — 70 MB of corpus and logs by the time it gets here —
 * copies its page tables and makes the child tear them down again at exec, which cost 4 ms
 * a call on the reference machine and was charged to `winnow compress`. */
static double
spawn_and_wait (const char *const *argv,
                char              **envp,
                double             *cpu_ms)
{
  posix_spawn_file_actions_t actions;
  struct rusage usage;
  gint64 start;
  pid_t pid;
  int status, error;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  start = g_get_monotonic_time ();
  error = posix_spawn (&pid, argv[0], &actions, NULL, (char *const *) argv, envp);
  posix_spawn_file_actions_destroy (&actions);
  if (error != 0)
    g_error ("cannot start %s: %s", argv[0], g_strerror (error));
  if (wait4 (pid, &status, 0, &usage) < 0)
    g_error ("cannot wait for %s: %s", argv[0], g_strerror (errno));
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("%s failed (status %d)", argv[0], status);

  *cpu_ms += usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3 +
             usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3;
  return (g_get_monotonic_time () - start) / 1e3;
}

static void
bench_cli (GPtrArray *samples)
{
  const char *binary = g_getenv ("WINNOW_BINARY");
  g_autofree char *dir = g_dir_make_tmp ("winnow-bench-XXXXXX", NULL);
  g_autofree char *input = g_build_filename (dir, "sample.log", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_auto(GStrv) envp = NULL;
  double cpu_ms = 0;
  double times[41];
  guint n = G_N_ELEMENTS (times);

  if (binary == NULL)
    return;

  /* a real sample cut to about 10 KB at a line boundary */
  for (guint i = 0; i < samples->len && text->len == 0; i++)
    {
      Sample *s = g_ptr_array_index (samples, i);
      gsize length;
      const char *data = g_bytes_get_data (s->bytes, &length);

      if (length > 8 * 1024 && g_utf8_validate_len (data, length, NULL))
        {
          const char *cut = data + MIN (length, 10 * 1024);
          while (cut > data && cut[-1] != '\n')
            cut--;
          g_string_append_len (text, data, cut - data);
        }
    }
  test_util_write_file (input, text->str, text->len);

  /* its own data folder: the events it records go there, not into the user's database */
  envp = g_environ_setenv (g_get_environ (), "WINNOW_DATA_DIR", dir, TRUE);

  for (guint i = 0; i < n; i++)
    {
      const char *argv[] = { binary, "compress", "--no-project", "--command", "make", input, NULL };

      times[i] = spawn_and_wait (argv, envp, &cpu_ms);
    }
  qsort (times, n, sizeof times[0], compare_doubles);

  g_print ("winnow compress, whole process, %zu KB sample: median %.1f ms, best %.1f ms "
           "(target ≤ 10 ms)\n", text->len / 1024, times[n / 2], times[0]);
  g_print ("  processor time: %.1f ms a call\n", cpu_ms / n);
  test_util_budget_cpu ("winnow compress, one process, full catalog (median)", times[n / 2],
                        cpu_ms / n, 10, FALSE, "ms");
  test_util_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) samples = NULL;
  g_autofree char *data_dir = NULL;
  g_autoptr(WinnowContext) ctx = NULL;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  samples = load_corpus ();
  data_dir = g_dir_make_tmp ("winnow-bench-data-XXXXXX", NULL);
  ctx = winnow_context_new (data_dir, NULL);

  g_print ("corpus: %u samples of real output\n", samples->len);
  bench_big_log (ctx, samples);
  bench_pipeline (ctx, samples, 20 * 1024 * 1024);
  bench_worst_case ();
  bench_worst_case_linear (ctx);
  bench_preview (ctx, samples);
  bench_cli (samples);

  test_util_remove_tree (data_dir);
  return 0;
}
