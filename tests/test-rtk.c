/* test-rtk.c — the stage runner and the Winnow rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "winnow.h"

static WinnowFilter *
filter_from_json (const char *json)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_FILE,
                                                           "test.json", 0, diagnostics);

  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_test_message ("%s", text);
    }
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  g_assert_cmpuint (filters->len, ==, 1);

  return g_object_ref (g_ptr_array_index (filters, 0));
}

/* Runs @filter alone (no engine caps), as the verify gate does. */
static char *
run (WinnowFilter *filter,
     const char   *input)
{
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowRtkOptions options;

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (filter, input, -1, &options);

  return g_strdup (winnow_rtk_result_get_text (result, NULL));
}

static WinnowTraceStage *
find_stage (WinnowRtkResult *result,
            const char      *name)
{
  for (guint i = 0; i < winnow_rtk_result_get_n_stages (result); i++)
    {
      WinnowTraceStage *stage = winnow_rtk_result_get_stage (result, i);

      if (g_strcmp0 (winnow_trace_stage_get_name (stage), name) == 0)
        return stage;
    }
  return NULL;
}

#define FILTER(rules, preserve) \
  "{\"id\":\"t\",\"label\":\"T\",\"category\":\"test\",\"rules\":{" rules "},\"preserve\":{" preserve "}}"

static void
test_strip_ansi (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (FILTER ("\"stripAnsi\":true", ""));
  g_autofree char *a = run (filter, "\x1b[1;31merror\x1b[0m: boom\nplain");
  g_autofree char *b = run (filter, "\x1b]8;;https://x.test\x07link\x1b]8;;\x07 text");
  g_autofree char *c = run (filter, "Downloading  10%\rDownloading  50%\rDownloading 100%\nnext");
  g_autofree char *d = run (filter, "step 1\r\x1b[K\rdone\r\nafter");
  g_autofree char *e = run (filter, "\x1b(Bcharset\x1b" "7saved");

  g_assert_cmpstr (a, ==, "error: boom\nplain");
  g_assert_cmpstr (b, ==, "link text");
  g_assert_cmpstr (c, ==, "Downloading 100%\nnext");
  g_assert_cmpstr (d, ==, "done\nafter");
  g_assert_cmpstr (e, ==, "charsetsaved");
}

static void
test_filter_stderr (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (FILTER ("\"filterStderr\":true", ""));
  g_autofree char *out = run (filter, "stderr | a\nstderr: b\n  err: c\nstderrx d\nerr:e");

  g_assert_cmpstr (out, ==, "a\nb\nc\nstderrx d\ne");
}

static void
test_replace (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"replace\":[{\"pattern\":\"\\\\s+\\\\[[0-9]+ms\\\\]\",\"replacement\":\"\"},"
            "{\"pattern\":\"(\\\\w+)=(\\\\w+)\",\"replacement\":\"$2<-$1\"},"
            "{\"pattern\":\";\",\"replacement\":\"\\n\"}]",
            ""));
  g_autoptr(WinnowRtkResult) result = NULL;
  g_autofree char *out = run (filter, "ok [12ms]\nk=v x=y\na;b");
  WinnowRtkOptions options;
  WinnowTraceStage *stage;

  g_assert_cmpstr (out, ==, "ok\nv<-k y<-x\na\nb");

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (filter, "ok [12ms]\nk=v\nnothing", -1, &options);
  stage = find_stage (result, "replace");
  g_assert_nonnull (stage);
  g_assert_cmpuint (winnow_trace_stage_get_n_rule_hits (stage), ==, 2);
  g_assert_cmpstr (winnow_trace_stage_get_rule_hit (stage, 0)->rule, ==, "rules.replace[0]");
  g_assert_cmpuint (winnow_trace_stage_get_rule_hit (stage, 0)->count, ==, 1);
}

static void
test_match_output (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"matchOutput\":[{\"pattern\":\"built in\",\"message\":\"build ok\",\"unless\":\"warn\"},"
            "{\"pattern\":\"^All good$\",\"message\":\"all good\"}]",
            "\"errorPatterns\":[\"^ERROR\"]"));
  g_autofree char *a = run (filter, "vite building...\n✓ 10 modules\n✓ built in 100ms\n");
  g_autofree char *b = run (filter, "✓ built in 100ms\n(!) warn: big chunk\n");
  g_autofree char *c = run (filter, "x\nAll good\ny");
  /* an error line vetoes every shortcut: the Winnow rule "errors survive" */
  g_autofree char *d = run (filter, "ERROR: disk full\nAll good\n");

  g_assert_cmpstr (a, ==, "build ok");
  g_assert_cmpstr (b, ==, "✓ built in 100ms\n(!) warn: big chunk\n");
  g_assert_cmpstr (c, ==, "all good");
  g_assert_cmpstr (d, ==, "ERROR: disk full\nAll good\n");
}

static void
test_drop_include (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"dropPatterns\":[\"^\\\\s*$\",\"^PASS\"],\"includePatterns\":[\"^FAIL\",\"Tests:\"]",
            "\"errorPatterns\":[\"Segmentation fault\",\"panic:\"],\"summaryPatterns\":[\"^Ran \"]"));
  /* include keeps matching lines, plus protected ones, in their original order */
  g_autofree char *a = run (filter,
                            "PASS a\nnoise 1\nFAIL b\nSegmentation fault (core dumped)\n\n"
                            "noise 2\nRan 3 tests\nTests: 1 failed\n");
  /* nothing matches the include list: the stage keeps everything instead of erasing it */
  g_autofree char *b = run (filter, "just\nsome\nlines\n");

  g_assert_cmpstr (a, ==, "FAIL b\nSegmentation fault (core dumped)\nRan 3 tests\nTests: 1 failed");
  g_assert_cmpstr (b, ==, "just\nsome\nlines");
}

static void
test_errors_survive_drop (void)
{
  /* a drop pattern never removes an error line; it may remove a summary-only line */
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"dropPatterns\":[\"^\\\\s+at \",\"^sent \"]",
            "\"errorPatterns\":[\"Error:\"],\"summaryPatterns\":[\"^sent \"]"));
  g_autofree char *out = run (filter, "boom\n    at f (a.js:1)\n    at Error: nested\nsent 10 bytes\n"
                                      "end\n");

  g_assert_cmpstr (out, ==, "boom\n    at Error: nested\nend\n");
}

static void
test_collapse (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"collapsePatterns\":[\"^\\\\s+at \",\"INFO\"]",
            "\"errorPatterns\":[\"^\\\\s+at crash\"],\"summaryPatterns\":[\"started\"]"));
  g_autofree char *out = run (filter,
                              "Error: a\n  at f (x:1)\n  at g (x:2)\nError: b\n  at f (x:1)\n"
                              "    at g (x:2)   \n  at crash\n  at crash\nINFO started\nINFO started\n"
                              "INFO other\n");

  /* first occurrence of each distinct trimmed line; a protected line only collapses onto an
   * identical copy that stays */
  g_assert_cmpstr (out, ==,
                   "Error: a\n  at f (x:1)\n  at g (x:2)\nError: b\n  at crash\nINFO started\n"
                   "INFO other\n");
}

static void
test_truncate_line (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"truncateLineAt\":10", "\"errorPatterns\":[\"^E:\"]"));
  g_autoptr(WinnowFilter) tiny = filter_from_json (FILTER ("\"truncateLineAt\":2", ""));
  g_autofree char *a = run (filter, "0123456789\n0123456789AB\néééééééééééé\nE: 0123456789AB");
  g_autofree char *b = run (tiny, "abcdef\néé");

  /* by code point, never splitting a UTF-8 sequence; error lines are never shortened */
  g_assert_cmpstr (a, ==, "0123456789\n0123456...\nééééééé...\nE: 0123456789AB");
  g_assert_cmpstr (b, ==, "ab\néé");
}

static void
test_deduplicate (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (FILTER ("\"deduplicate\":true", ""));
#define X "npm warn deprecated inflight@1.0.6: This module is not supported"
  g_autofree char *a = run (filter, "a\n" X "\n" X "\n" X "\n" X "\nb\ny\ny\n\n\n\n\nc");
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowRtkOptions options;
  const int *origins;
  guint n;

  /* runs of 3+ identical lines fold with a count; pairs stay; blank runs become one line */
  g_assert_cmpstr (a, ==, "a\n" X "\n… 3 identical lines omitted …\nb\ny\ny\n\nc");

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (filter, "a\n" X "\n" X "\n" X "\n" X "\nb", -1, &options);
#undef X
  origins = winnow_rtk_result_get_line_origins (result, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (origins[0], ==, 0);
  g_assert_cmpint (origins[1], ==, 1);
  g_assert_cmpint (origins[2], ==, -1);  /* the marker Winnow wrote */
  g_assert_cmpint (origins[3], ==, 5);
}

static void
test_head_tail (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"maxLines\":6,\"headLines\":2,\"tailLines\":2", "\"errorPatterns\":[\"^ERR\"]"));
  g_autoptr(GString) input = g_string_new (NULL);
  g_autofree char *out = NULL;
  g_autofree char *again = NULL;

  for (int i = 1; i <= 20; i++)
    g_string_append_printf (input, i == 9 || i == 14 ? "ERR %d\n" : "line %d\n", i);
  g_string_truncate (input, input->len - 1);

  out = run (filter, input->str);
  /* order kept, every cut marked in place with its count */
  g_assert_cmpstr (out, ==,
                   "line 1\nline 2\n… 6 lines omitted …\nERR 9\n… 4 lines omitted …\nERR 14\n"
                   "… 4 lines omitted …\nline 19\nline 20");

  /* idempotent: the output is stable under a second run */
  again = run (filter, out);
  g_assert_cmpstr (again, ==, out);
}

/* Head/tail keeps any line with a failure word, in any case, wherever it sits in the line
 * (the scan looks at sixteen bytes at a time and at the last few on their own), and only those:
 * near misses are cut. Once with no pattern stage, once with a pattern that makes every line's
 * byte pairs known (which lets the scan skip lines lacking a word's pairs). */
static void
test_failure_words (void)
{
  static const char * const words[] = {
    "error", "fail", "exception", "traceback", "panic", "fatal", "abort", "assert",
    "segmentation fault", "\xE2\x9C\x96", "\xE2\x9C\x97",
  };
  static const char * const misses[] = {
    "erro", "fai", "exceptio", "tracebac", "pani", "fata", "abor", "asser", "segmentation faul",
    "segmentation-fault", "@RROR", "\xE2\x9C\x95", "\xE2\x9C\x98", "\xC3\xA9rror",
  };
  const char *filters[] = {
    FILTER ("\"maxLines\":2,\"headLines\":1,\"tailLines\":1", ""),
    FILTER ("\"maxLines\":2,\"headLines\":1,\"tailLines\":1",
            "\"errorPatterns\":[\"never matches this\"]"),
  };

  for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
    {
      g_autoptr(WinnowFilter) filter = filter_from_json (filters[f]);
      g_autoptr(GString) input = g_string_new ("first\n");
      g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) cut = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *out = NULL;
      guint n = 0;

      for (guint pad = 0; pad <= 40; pad++)
        for (guint k = 0; k < G_N_ELEMENTS (words) + G_N_ELEMENTS (misses); k++)
          for (guint c = 0; c < 3; c++)
            {
              gboolean is_word = k < G_N_ELEMENTS (words);
              const char *w = is_word ? words[k] : misses[k - G_N_ELEMENTS (words)];
              g_autofree char *cased = c == 1 ? g_ascii_strup (w, -1) : g_strdup (w);
              char *line;

              if (c == 2)
                cased[0] = g_ascii_toupper (cased[0]);
              /* a number, the word after @pad more bytes, then a little or nothing */
              line = g_strdup_printf ("%u:%.*s%s%s", n++, (int) pad,
                                      "----------------------------------------", cased,
                                      pad % 3 == 0 ? "" : " and then some");
              g_string_append_printf (input, "%s\n", line);
              g_ptr_array_add (is_word ? kept : cut, line);
            }
      g_string_append (input, "last");

      out = run (filter, input->str);
      for (guint i = 0; i < kept->len; i++)
        {
          g_autofree char *needle = g_strdup_printf ("\n%s\n", (char *) g_ptr_array_index (kept, i));
          if (strstr (out, needle) == NULL)
            g_error ("filter %u cut “%s”", f, (char *) g_ptr_array_index (kept, i));
        }
      for (guint i = 0; i < cut->len; i++)
        {
          g_autofree char *needle = g_strdup_printf ("\n%s\n", (char *) g_ptr_array_index (cut, i));
          if (strstr (out, needle) != NULL)
            g_error ("filter %u kept “%s”", f, (char *) g_ptr_array_index (cut, i));
        }
    }
}

/* `\s+$` replaced by nothing shortens the line where it is (winnow-rtk.c, stage_replace): the
 * same text and hit counts as the same replacement written so that PCRE2 runs it, and later
 * steps see the trimmed line. */
static void
test_trim_trailing_spaces (void)
{
  static const char * const spellings[] = { "\\\\s+$", "(?:\\\\s)+$" };
  const char *input = "a b  \nclean\n   \n\t\nx\xE3\x80\x80 \xC2\xA0\ny\xE2\x80\x8B \n"
                      "ends with x  \n\xC3\xA9t\xC3\xA9\t\nlast ";
  char *outputs[2] = { NULL, NULL };
  guint hits[2][2];

  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *json = g_strdup_printf (
        FILTER ("\"replace\":[{\"pattern\":\"%s\",\"replacement\":\"\"},"
                "{\"pattern\":\"x$\",\"replacement\":\"X\"}]", ""), spellings[k]);
      g_autoptr(WinnowFilter) filter = filter_from_json (json);
      g_autoptr(WinnowRtkResult) result = NULL;
      WinnowRtkOptions options;
      WinnowTraceStage *stage;

      winnow_rtk_options_init (&options);
      options.engine_limits = FALSE;
      result = winnow_rtk_apply (filter, input, -1, &options);
      outputs[k] = g_strdup (winnow_rtk_result_get_text (result, NULL));
      stage = find_stage (result, "replace");
      g_assert_nonnull (stage);
      for (guint h = 0; h < 2; h++)
        hits[k][h] = winnow_trace_stage_get_rule_hit (stage, h)->count;
    }

  g_assert_cmpstr (outputs[0], ==, "a b\nclean\n\n\nX\ny\xE2\x80\x8B\nends with X\n"
                                   "\xC3\xA9t\xC3\xA9\nlast");
  g_assert_cmpstr (outputs[0], ==, outputs[1]);
  g_assert_cmpuint (hits[0][0], ==, 8);
  g_assert_cmpuint (hits[0][0], ==, hits[1][0]);
  g_assert_cmpuint (hits[0][1], ==, hits[1][1]);

  g_free (outputs[0]);
  g_free (outputs[1]);
}

static void
test_on_empty (void)
{
  g_autoptr(WinnowFilter) with = filter_from_json (
    FILTER ("\"dropPatterns\":[\".\"],\"onEmpty\":\"all quiet\"", ""));
  g_autoptr(WinnowFilter) without = filter_from_json (FILTER ("\"dropPatterns\":[\".\"]", ""));
  g_autofree char *a = run (with, "first line of noise\nsecond line of noise\n");
  g_autofree char *b = run (without, "first line of noise\nsecond line of noise\nthird one\n");

  g_assert_cmpstr (a, ==, "all quiet");
  /* never empty: a one-line summary stands in */
  g_assert_cmpstr (b, ==, "t: 3 lines, no errors");
}

static void
test_never_larger (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"maxLines\":2,\"headLines\":1,\"tailLines\":0", ""));
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowRtkOptions options;

  /* the marker would be longer than the lines it replaces: the input comes back */
  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (filter, "a\nb\nc", -1, &options);
  g_assert_cmpstr (winnow_rtk_result_get_text (result, NULL), ==, "a\nb\nc");
  g_assert_cmpint (winnow_rtk_result_get_outcome (result), ==, WINNOW_RTK_OUTCOME_NOT_SHORTER);
  g_assert_false (winnow_rtk_result_get_compressed (result));
}

static void
test_not_utf8 (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (FILTER ("\"dropPatterns\":[\".\"]", ""));
  const char input[] = "bad \xff\xfe bytes\nmore";
  g_autoptr(WinnowRtkResult) result = winnow_rtk_apply (filter, input, sizeof input - 1, NULL);
  gsize length;
  const char *text = winnow_rtk_result_get_text (result, &length);

  g_assert_cmpint (winnow_rtk_result_get_outcome (result), ==, WINNOW_RTK_OUTCOME_NOT_UTF8);
  g_assert_cmpmem (text, length, input, sizeof input - 1);
}

static void
test_empty_input (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (FILTER ("\"dropPatterns\":[\".\"]", ""));
  g_autoptr(WinnowRtkResult) result = winnow_rtk_apply (filter, "", 0, NULL);

  g_assert_cmpstr (winnow_rtk_result_get_text (result, NULL), ==, "");
  g_assert_cmpint (winnow_rtk_result_get_outcome (result), ==, WINNOW_RTK_OUTCOME_EMPTY_INPUT);
}

static void
test_engine_caps (void)
{
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowRtkOptions options;
  const char *text;
  gsize length;

  for (int i = 0; i < 1000; i++)
    g_string_append_printf (input, i == 500 ? "src/x.c:%d: error: the needle\n" : "ok line %d\n", i);

  winnow_rtk_options_init (&options);
  options.max_lines_per_result = 40;
  options.max_chars_per_result = 2000;
  result = winnow_rtk_apply (NULL, input->str, input->len, &options);
  text = winnow_rtk_result_get_text (result, &length);

  g_assert_true (winnow_rtk_result_get_compressed (result));
  g_assert_cmpuint (winnow_rtk_result_get_lines_out (result), <=, 40);
  g_assert_cmpuint (g_utf8_strlen (text, length), <=, 2000);
  /* the failure line in the middle survives the cap */
  g_assert_nonnull (strstr (text, "src/x.c:500: error: the needle"));
  g_assert_true (g_str_has_prefix (text, "ok line 0\n"));
  g_assert_nonnull (strstr (text, "lines omitted"));
  g_assert_true (g_utf8_validate (text, length, NULL));
}

static void
test_engine_dedup (void)
{
  g_autoptr(GString) input = g_string_new ("start\n");
  g_autoptr(WinnowRtkResult) standard = NULL;
  g_autoptr(WinnowRtkResult) minimal = NULL;
  WinnowRtkOptions options;

  for (int i = 0; i < 50; i++)
    g_string_append (input, "Error: connection refused\n");
  g_string_append (input, "end");

  winnow_rtk_options_init (&options);
  standard = winnow_rtk_apply (NULL, input->str, -1, &options);
  g_assert_cmpstr (winnow_rtk_result_get_text (standard, NULL), ==,
                   "start\nError: connection refused\n… 49 identical lines omitted …\nend");

  options.intensity = WINNOW_RTK_INTENSITY_MINIMAL;
  minimal = winnow_rtk_apply (NULL, input->str, -1, &options);
  g_assert_null (strstr (winnow_rtk_result_get_text (minimal, NULL), "identical"));
}

static void
test_intensity (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"maxLines\":20,\"headLines\":8,\"tailLines\":8", ""));
  g_autoptr(GString) input = g_string_new (NULL);
  WinnowRtkOptions options;
  guint lines[3];

  for (int i = 0; i < 200; i++)
    g_string_append_printf (input, "line number %d of the log\n", i);

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  for (int level = 0; level < 3; level++)
    {
      g_autoptr(WinnowRtkResult) result = NULL;

      options.intensity = level;
      result = winnow_rtk_apply (filter, input->str, -1, &options);
      lines[level] = winnow_rtk_result_get_lines_out (result);
    }

  /* minimal keeps twice the head and tail, aggressive half */
  g_assert_cmpuint (lines[WINNOW_RTK_INTENSITY_MINIMAL], ==, 33);
  g_assert_cmpuint (lines[WINNOW_RTK_INTENSITY_STANDARD], ==, 17);
  g_assert_cmpuint (lines[WINNOW_RTK_INTENSITY_AGGRESSIVE], ==, 9);
}

static void
test_trace (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"stripAnsi\":true,\"dropPatterns\":[\"^noise\",\"^\\\\s*$\"],\"maxLines\":3,"
            "\"headLines\":1,\"tailLines\":1",
            "\"errorPatterns\":[\"^E\"]"));
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowTraceStage *drop;
  const guint *removed;
  guint n_removed;
  WinnowRtkOptions options;

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (filter, "a\nnoise 1\n\nb\nc\nE1\nd\ne\nnoise 2\nf", -1, &options);

  drop = find_stage (result, "dropPatterns");
  g_assert_nonnull (drop);
  g_assert_cmpuint (winnow_trace_stage_get_lines_in (drop), ==, 10);
  g_assert_cmpuint (winnow_trace_stage_get_lines_out (drop), ==, 7);
  g_assert_cmpuint (winnow_trace_stage_get_n_rule_hits (drop), ==, 2);
  g_assert_cmpstr (winnow_trace_stage_get_rule_hit (drop, 0)->rule, ==, "rules.dropPatterns[0]");
  g_assert_cmpuint (winnow_trace_stage_get_rule_hit (drop, 0)->count, ==, 2);
  removed = winnow_trace_stage_get_removed_lines (drop, &n_removed);
  g_assert_cmpuint (n_removed, ==, 3);
  g_assert_cmpuint (removed[0], ==, 1);
  g_assert_cmpuint (removed[1], ==, 2);
  g_assert_cmpuint (removed[2], ==, 8);

  g_assert_nonnull (find_stage (result, "stripAnsi"));
  g_assert_nonnull (find_stage (result, "maxLines"));
  g_assert_cmpuint (g_list_model_get_n_items (winnow_rtk_result_get_stages (result)), ==,
                    winnow_rtk_result_get_n_stages (result));
  /* markers cost more than these short lines: the input comes back, the trace stays */
  g_assert_cmpint (winnow_rtk_result_get_outcome (result), ==, WINNOW_RTK_OUTCOME_NOT_SHORTER);
  g_assert_nonnull (find_stage (result, "guard"));
}

static void
test_worst_case_linear (void)
{
  /* 1 MB of distinct error lines, every one protected: must finish, keep order, stay bounded
   * by the engine caps. (The timing itself is a benchmark, not a test.) */
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"includePatterns\":[\"Error\"],\"collapsePatterns\":[\"Error\"],\"deduplicate\":true,"
            "\"maxLines\":50,\"headLines\":10,\"tailLines\":10,\"truncateLineAt\":80",
            "\"errorPatterns\":[\"Error:\"]"));
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(WinnowRtkResult) result = NULL;
  const char *text;

  for (int i = 0; input->len < 1024 * 1024; i++)
    g_string_append_printf (input, "Error: distinct failure number %d in module %d\n", i, i % 97);

  result = winnow_rtk_apply (filter, input->str, input->len, NULL);
  text = winnow_rtk_result_get_text (result, NULL);
  g_assert_true (winnow_rtk_result_get_compressed (result));
  g_assert_true (g_str_has_prefix (text, "Error: distinct failure number 0 in module 0\n"));
  g_assert_cmpuint (winnow_rtk_result_get_lines_out (result), <=, 120);
}

static void
test_large_input_threads (void)
{
  /* 200 000 lines: the pattern stages split the lines across threads; the result must be
   * exactly what the rules say, in order */
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"dropPatterns\":[\"^noise\"],\"includePatterns\":[\"^(?:ERROR|keep)\"],"
            "\"collapsePatterns\":[\"^keep\"]",
            "\"errorPatterns\":[\"^ERROR\"],\"summaryPatterns\":[\"^total\"]"));
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autofree char *out = NULL;

  for (guint i = 0; i < 200000; i++)
    {
      if (i % 1000 == 7)
        {
          g_string_append_printf (input, "ERROR: failure %u\n", i);
          g_string_append_printf (expected, "ERROR: failure %u\n", i);
        }
      else if (i % 500 == 3)
        g_string_append (input, "keep this line once\n");
      else
        g_string_append_printf (input, "noise line number %u\n", i);
    }
  g_string_append (input, "total: 200000 lines");
  g_string_prepend (expected, "keep this line once\n");
  g_string_append (expected, "total: 200000 lines");

  /* "keep" comes before the first ERROR (line 3 < 7) */
  out = run (filter, input->str);
  g_assert_cmpstr (out, ==, expected->str);
}

static void
test_markers_idempotent (void)
{
  g_autoptr(WinnowFilter) filter = filter_from_json (
    FILTER ("\"includePatterns\":[\"^FAIL\"]", ""));
  /* Winnow's own markers are kept by later runs, even by an include list */
  g_autofree char *out = run (filter, "FAIL a\n… 12 lines omitted …\nFAIL b\nnoise");

  g_assert_cmpstr (out, ==, "FAIL a\n… 12 lines omitted …\nFAIL b");
  g_assert_true (winnow_rtk_is_marker ("… 1 line omitted …", strlen ("… 1 line omitted …")));
  g_assert_false (winnow_rtk_is_marker ("… lines omitted …", strlen ("… lines omitted …")));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/rtk/strip-ansi", test_strip_ansi);
  g_test_add_func ("/winnow/rtk/filter-stderr", test_filter_stderr);
  g_test_add_func ("/winnow/rtk/replace", test_replace);
  g_test_add_func ("/winnow/rtk/match-output", test_match_output);
  g_test_add_func ("/winnow/rtk/drop-include", test_drop_include);
  g_test_add_func ("/winnow/rtk/errors-survive-drop", test_errors_survive_drop);
  g_test_add_func ("/winnow/rtk/collapse", test_collapse);
  g_test_add_func ("/winnow/rtk/truncate-line", test_truncate_line);
  g_test_add_func ("/winnow/rtk/deduplicate", test_deduplicate);
  g_test_add_func ("/winnow/rtk/head-tail", test_head_tail);
  g_test_add_func ("/winnow/rtk/failure-words", test_failure_words);
  g_test_add_func ("/winnow/rtk/trim-trailing-spaces", test_trim_trailing_spaces);
  g_test_add_func ("/winnow/rtk/on-empty", test_on_empty);
  g_test_add_func ("/winnow/rtk/never-larger", test_never_larger);
  g_test_add_func ("/winnow/rtk/not-utf8", test_not_utf8);
  g_test_add_func ("/winnow/rtk/empty-input", test_empty_input);
  g_test_add_func ("/winnow/rtk/engine-caps", test_engine_caps);
  g_test_add_func ("/winnow/rtk/engine-dedup", test_engine_dedup);
  g_test_add_func ("/winnow/rtk/intensity", test_intensity);
  g_test_add_func ("/winnow/rtk/trace", test_trace);
  g_test_add_func ("/winnow/rtk/worst-case-linear", test_worst_case_linear);
  g_test_add_func ("/winnow/rtk/markers-idempotent", test_markers_idempotent);
  g_test_add_func ("/winnow/rtk/large-input-threads", test_large_input_threads);

  return g_test_run ();
}
