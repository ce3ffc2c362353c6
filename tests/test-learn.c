/* test-learn.c — drafting filters from samples of real command output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

static JsonObject *needles;

static GPtrArray *
load_samples (const char * const *names)
{
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *file = g_strconcat ("samples/", names[i], ".txt", NULL);
      g_autofree char *path = test_util_corpus_path (file);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = NULL;
      char *contents = NULL;
      gsize length = 0;

      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);
      bytes = g_bytes_new_take (contents, length);
      g_ptr_array_add (samples, winnow_learn_sample_new (names[i], bytes));
    }
  return samples;
}

static char *
run_draft (WinnowFilter *filter,
           GBytes       *data)
{
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowRtkOptions options;
  gsize len;
  const char *text = g_bytes_get_data (data, &len);

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (filter, text, len, &options);
  return g_strdup (winnow_rtk_result_get_text (result, NULL));
}

/* The sample as the draft sees it: escapes and progress frames gone, \r\n as \n. */
static char *
clean (GBytes *data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(WinnowFilter) cleaner = NULL;

  json_parser_load_from_data (parser, "{\"id\":\"c\",\"label\":\"c\",\"category\":\"generic\","
                              "\"rules\":{\"stripAnsi\":true}}", -1, NULL);
  cleaner = winnow_filter_new_from_json (json_parser_get_root (parser), WINNOW_FILTER_SOURCE_FILE,
                                         NULL, NULL, WINNOW_FILTER_PARSE_DEFAULT, NULL);
  return run_draft (cleaner, data);
}

/* Parses the draft's text as an editor would and runs its tests as `winnow verify` does. */
static WinnowFilter *
assert_verifies (WinnowLearnDraft *draft)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(WinnowVerifyReport) report = NULL;

  filters = winnow_filter_pack_parse (winnow_learn_draft_get_json (draft), -1,
                                      WINNOW_FILTER_SOURCE_FILE, "draft.json",
                                      WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
  test_util_print_diagnostics (diagnostics);
  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 0);

  report = winnow_verify_filters (filters, NULL);
  if (winnow_verify_report_get_n_failed (report) > 0)
    {
      g_autofree char *summary = winnow_verify_report_dup_summary (report);
      g_printerr ("%s\n", summary);
    }
  g_assert_cmpuint (winnow_verify_report_get_n_failed (report), ==, 0);
  g_assert_cmpuint (winnow_verify_report_get_n_not_idempotent (report), ==, 0);
  g_assert_cmpuint (winnow_verify_report_get_n_passed (report), ==,
                    winnow_learn_draft_get_n_samples (draft));
  g_assert_cmpuint (winnow_filter_get_n_tests (g_ptr_array_index (filters, 0)), ==,
                    winnow_learn_draft_get_n_samples (draft));

  return g_object_ref (g_ptr_array_index (filters, 0));
}

static gboolean
has_proposal (WinnowLearnDraft *draft,
              const char       *field)
{
  for (guint i = 0; i < winnow_learn_draft_get_n_proposals (draft); i++)
    if (strcmp (winnow_learn_draft_get_proposal (draft, i)->field, field) == 0)
      return TRUE;
  return FALSE;
}

typedef struct
{
  const char *command;
  const char *samples[5];
  const char *noisy;   /* a sample the draft must shorten, or NULL */
} Case;

static const Case cases[] = {
  { "pytest -v tests_long", { "pytest-long-verbose" }, "pytest-long-verbose" },
  { "pytest", { "pytest-pass", "pytest-fail", "pytest-fail-verbose" }, "pytest-fail-verbose" },
  { "cargo build", { "cargo-build", "cargo-build-error" }, NULL },
  { "npm install", { "npm-install", "npm-install-audit" }, NULL },
  { "make", { "make-ok", "make-compile-error", "bigbuild-make-long" }, "bigbuild-make-long" },
  { "git clone --no-local origin.git clone2", { "git-clone", "git-clone-tty" }, NULL },
  { "git fetch --progress origin", { "git-fetch" }, NULL },
  { "meson compile -C builddir", { "meson-compile", "ninja-build" }, "meson-compile" },
  { "ninja -C build-ninja -k 0", { "bigbuild-ninja-long" }, "bigbuild-ninja-long" },
  { "wget -O downloads/big.bin http://127.0.0.1:8765/big.bin", { "wget-big", "wget-200" },
    "wget-big" },
};

/* Every line that says something went wrong, by the detector's words. */
static GRegex *
error_line_regex (void)
{
  return g_regex_new ("\\b(?:error|failed|failure|fatal|panic|warning|traceback)\\b|^E\\s{2}",
                      G_REGEX_CASELESS, 0, NULL);
}

static void
check_case (const Case *c)
{
  g_autoptr(GPtrArray) samples = load_samples (c->samples);
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(WinnowFilter) filter = NULL;
  g_autoptr(GRegex) errors = error_line_regex ();
  g_autoptr(GError) error = NULL;
  gsize tokens_before = 0;
  gsize tokens_after = 0;

  g_test_message ("learning from %s", c->samples[0]);
  draft = winnow_learn_filter (c->command, samples, NULL, diagnostics, &error);
  g_assert_no_error (error);
  g_assert_nonnull (draft);
  g_assert_cmpuint (winnow_learn_draft_get_n_samples (draft), ==, samples->len);

  filter = assert_verifies (draft);
  g_assert_true (winnow_filter_get_strip_ansi (filter));
  g_assert_true (winnow_filter_matches_command (filter, c->command));
  g_assert_cmpint (winnow_filter_get_priority (filter), >, 90);
  g_assert_true (has_proposal (draft, "preserve.errorPatterns"));

  for (guint i = 0; i < samples->len; i++)
    {
      WinnowLearnSample *sample = g_ptr_array_index (samples, i);
      const WinnowLearnSample *figures = winnow_learn_draft_get_sample (draft, i);
      g_autofree char *out = run_draft (filter, sample->data);
      g_autofree char *cleaned = clean (sample->data);
      g_auto(GStrv) lines = g_strsplit (cleaned, "\n", -1);
      JsonArray *list = json_object_get_array_member (needles, sample->name);

      g_assert_cmpstr (figures->name, ==, sample->name);
      g_assert_cmpuint (figures->lines_after, <=, figures->lines_before);
      g_assert_cmpuint (figures->tokens_after, <=, figures->tokens_before);
      tokens_before += figures->tokens_before;
      tokens_after += figures->tokens_after;
      if (g_strcmp0 (c->noisy, sample->name) == 0)
        {
          g_assert_cmpuint (figures->lines_after, <, figures->lines_before);
          g_assert_cmpuint (figures->tokens_after * 10, <, figures->tokens_before * 9);
        }
      g_test_message ("%s: %u → %u lines, %" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " tokens",
                      sample->name, figures->lines_before, figures->lines_after,
                      figures->tokens_before, figures->tokens_after);

      /* every needle of the corpus survives */
      g_assert_nonnull (list);
      for (guint k = 0; k < json_array_get_length (list); k++)
        {
          const char *needle = json_array_get_string_element (list, k);

          if (strstr (out, needle) == NULL)
            g_error ("%s: needle “%s” lost by the draft", sample->name, needle);
        }

      /* and every error line */
      for (guint k = 0; lines[k] != NULL; k++)
        if (g_regex_match (errors, lines[k], 0, NULL) && strstr (out, lines[k]) == NULL)
          g_error ("%s: error line “%s” lost by the draft", sample->name, lines[k]);
    }

  g_assert_cmpuint (tokens_after, <, tokens_before);
}

static void
test_learn_corpus (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i]);
}

static void
test_learn_shapes (void)
{
  static const char * const names[] = { "meson-compile", "ninja-build", NULL };
  g_autoptr(GPtrArray) samples = load_samples (names);
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(WinnowFilter) filter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  const char * const *types;

  draft = winnow_learn_filter ("meson compile -C builddir", samples, NULL, NULL, &error);
  g_assert_no_error (error);
  filter = assert_verifies (draft);

  /* the build counter is noise, its last step the summary */
  out = run_draft (filter, ((WinnowLearnSample *) g_ptr_array_index (samples, 0))->data);
  g_assert_null (strstr (out, "[2/8]"));
  g_assert_null (strstr (out, "[6/8] Linking target test_median"));
  g_assert_nonnull (strstr (out, "[8/8] Linking target test_stddev"));

  /* one pattern for the lines that differ only in a name */
  g_assert_cmpuint (g_strv_length ((char **) winnow_filter_get_drop_patterns (filter)), ==, 2);

  /* selection: the command's first words, anchored; the detector's type */
  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "learned-meson-compile");
  g_assert_cmpstr (winnow_filter_get_category (filter), ==, "build");
  g_assert_true (winnow_filter_matches_command (filter, "meson compile"));
  g_assert_true (winnow_filter_matches_command (filter, "meson  compile -v"));
  g_assert_false (winnow_filter_matches_command (filter, "meson setup build"));
  g_assert_false (winnow_filter_matches_command (filter, "echo meson compile"));
  types = winnow_filter_get_output_types (filter);
  g_assert_nonnull (types[0]);
  g_assert_false (g_str_has_prefix (types[0], "generic-"));
}

static void
test_learn_passing_tests (void)
{
  static const char * const names[] = { "pytest-long-verbose", NULL };
  g_autoptr(GPtrArray) samples = load_samples (names);
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(WinnowFilter) filter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  WinnowLearnOptions options;

  winnow_learn_options_init (&options);
  options.id = "my-pytest";
  options.label = "My pytest";
  draft = winnow_learn_filter ("pytest -v tests_long", samples, &options, NULL, &error);
  g_assert_no_error (error);
  filter = assert_verifies (draft);
  g_assert_cmpstr (winnow_filter_get_id (filter), ==, "my-pytest");
  g_assert_cmpstr (winnow_filter_get_label (filter), ==, "My pytest");
  g_assert_cmpstr (winnow_filter_get_output_types (filter)[0], ==, "test-pytest");
  g_assert_true (winnow_filter_matches_command (filter, "pytest -x"));
  g_assert_false (winnow_filter_matches_command (filter, "pytestx"));

  out = run_draft (filter, ((WinnowLearnSample *) g_ptr_array_index (samples, 0))->data);
  g_assert_null (strstr (out, "test_parse_quantity[0] PASSED"));
  g_assert_nonnull (strstr (out, "test_discount_precision FAILED"));
  g_assert_cmpuint (winnow_learn_draft_get_sample (draft, 0)->lines_after, <, 100);
}

static void
test_learn_deterministic (void)
{
  static const char * const names[] = { "pytest-pass", "pytest-fail", "wget-big", NULL };
  g_autoptr(GPtrArray) samples = load_samples (names);
  g_autoptr(WinnowLearnDraft) a = winnow_learn_filter ("pytest", samples, NULL, NULL, NULL);
  g_autoptr(WinnowLearnDraft) b = winnow_learn_filter ("pytest", samples, NULL, NULL, NULL);

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpstr (winnow_learn_draft_get_json (a), ==, winnow_learn_draft_get_json (b));
  g_assert_cmpuint (winnow_learn_draft_get_n_proposals (a), ==,
                    winnow_learn_draft_get_n_proposals (b));
}

static WinnowLearnSample *
sample_from (const char *name,
             const char *data,
             gsize       len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  return winnow_learn_sample_new (name, bytes);
}

static void
test_learn_bad_input (void)
{
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  WinnowLearnOptions options;

  /* nothing at all */
  draft = winnow_learn_filter (NULL, samples, NULL, NULL, &error);
  g_assert_null (draft);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* only empty samples */
  g_ptr_array_add (samples, sample_from ("empty.txt", "", 0));
  g_ptr_array_add (samples, sample_from ("blank.txt", "\n \n", 3));
  draft = winnow_learn_filter (NULL, samples, NULL, diagnostics, &error);
  g_assert_null (draft);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "empty"));
  g_clear_error (&error);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 2);
  g_assert_cmpstr (winnow_diagnostic_get_file (g_ptr_array_index (diagnostics, 0)), ==,
                   "empty.txt");

  /* an empty sample next to a real one is skipped with a warning */
  g_ptr_array_add (samples, sample_from ("ok.txt", "hello\nworld\n", 12));
  g_ptr_array_set_size (diagnostics, 0);
  draft = winnow_learn_filter (NULL, samples, NULL, diagnostics, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (winnow_learn_draft_get_n_samples (draft), ==, 1);
  g_assert_cmpstr (winnow_filter_get_id (winnow_learn_draft_get_filter (draft)), ==,
                   "learned-filter");
  g_clear_object (&draft);
  g_ptr_array_set_size (samples, 0);

  /* binary */
  g_ptr_array_add (samples, sample_from ("core.bin", "ELF\0\1\2\n", 7));
  draft = winnow_learn_filter (NULL, samples, NULL, NULL, &error);
  g_assert_null (draft);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_UTF8);
  g_assert_nonnull (strstr (error->message, "core.bin"));
  g_assert_nonnull (strstr (error->message, "binary"));
  g_clear_error (&error);
  g_ptr_array_set_size (samples, 0);

  /* not UTF-8 */
  g_ptr_array_add (samples, sample_from ("latin1.txt", "caf\xe9 ok\n", 8));
  draft = winnow_learn_filter (NULL, samples, NULL, NULL, &error);
  g_assert_null (draft);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_UTF8);
  g_assert_nonnull (strstr (error->message, "latin1.txt"));
  g_assert_nonnull (strstr (error->message, "byte 3"));
  g_clear_error (&error);
  g_ptr_array_set_size (samples, 0);

  /* over the size limit */
  winnow_learn_options_init (&options);
  options.max_sample_bytes = 4;
  g_ptr_array_add (samples, sample_from ("big.txt", "12345678\n", 9));
  draft = winnow_learn_filter (NULL, samples, &options, NULL, &error);
  g_assert_null (draft);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_clear_error (&error);
}

/* 20 MB of a test run with downloads, progress, one failure in the middle and a summary:
 * learned in linear time, its test cut to a sane size, the failure kept. */
static void
test_learn_large (void)
{
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(WinnowFilter) filter = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GTimer) timer = g_timer_new ();
  g_autofree char *out = NULL;
  GString *text = g_string_new (NULL);
  const WinnowLearnSample *figures;
  guint i = 0;

  while (text->len < 20 * 1024 * 1024)
    {
      if (i % 50 == 0)
        g_string_append_printf (text, "Downloading pkg-%u.tar.gz (%u kB)\n", i, i % 977);
      g_string_append_printf (text, "tests/test_many.py::test_case[%u] PASSED%*s[%3u%%]\n",
                              i, 20, "", (i / 4000) % 100);
      if (i == 200000)
        g_string_append (text, "tests/test_many.py::test_odd FAILED\n"
                               "E       assert 3 == 4\n");
      i++;
    }
  g_string_append_printf (text, "==== 1 failed, %u passed in 812.20s ====\n", i);
  g_ptr_array_add (samples, sample_from ("huge.log", text->str, text->len));
  g_string_free (text, TRUE);

  draft = winnow_learn_filter ("pytest -v", samples, NULL, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("20 MB learned in %.1f s", g_timer_elapsed (timer, NULL));
  filter = assert_verifies (draft);

  figures = winnow_learn_draft_get_sample (draft, 0);
  g_assert_true (figures->test_cut);
  g_assert_cmpuint (strlen (winnow_learn_draft_get_json (draft)), <, 2 * 1024 * 1024);
  g_assert_cmpuint (figures->lines_after, <, 20);

  out = run_draft (filter, ((WinnowLearnSample *) g_ptr_array_index (samples, 0))->data);
  g_assert_nonnull (strstr (out, "test_odd FAILED"));
  g_assert_nonnull (strstr (out, "E       assert 3 == 4"));
  g_assert_nonnull (strstr (out, "1 failed, "));
  g_assert_null (strstr (out, "Downloading pkg-"));
}

static void
learned_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  WinnowLearnDraft **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = winnow_learn_filter_finish (result, NULL, &error);
  g_assert_no_error (error);
}

static void
test_learn_async (void)
{
  static const char * const names[] = { "git-clone", "git-clone-tty", NULL };
  g_autoptr(GPtrArray) samples = load_samples (names);
  g_autoptr(WinnowLearnDraft) sync = NULL;
  g_autoptr(WinnowLearnDraft) async = NULL;
  WinnowLearnOptions options;

  winnow_learn_options_init (&options);
  options.id = "clone";
  sync = winnow_learn_filter ("git clone x", samples, &options, NULL, NULL);
  winnow_learn_filter_async ("git clone x", samples, &options, NULL, learned_cb, &async);
  while (async == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpstr (winnow_learn_draft_get_json (sync), ==, winnow_learn_draft_get_json (async));
  /* the terminal escapes and redrawn frames are gone from what the draft keeps */
  g_assert_null (strstr (winnow_filter_get_test (winnow_learn_draft_get_filter (async), 1)->expected,
                         "\x1b"));
}

/* Two identical successful runs: the whole output has one obvious success shape. */
static void
test_learn_shortcut (void)
{
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(WinnowFilter) filter = NULL;
  g_autoptr(WinnowRtkResult) result = NULL;
  const char *run = "Fetching index 1/3 (10%)\nFetching index 2/3 (50%)\nFetching index 3/3 (90%)\n"
                    "\nAll 12 checks passed\n";
  const char *fail = "Fetching index 1/3 (10%)\nerror: index 2 is corrupt\nAll 12 checks passed\n";

  g_ptr_array_add (samples, sample_from ("a.txt", run, strlen (run)));
  g_ptr_array_add (samples, sample_from ("b.txt", run, strlen (run)));
  draft = winnow_learn_filter ("checker --all", samples, NULL, NULL, NULL);
  g_assert_nonnull (draft);
  filter = assert_verifies (draft);
  g_assert_cmpuint (winnow_filter_get_n_match_output_rules (filter), ==, 1);
  g_assert_true (has_proposal (draft, "rules.matchOutput"));
  g_assert_cmpstr (winnow_filter_get_test (filter, 0)->expected, ==, "All 12 checks passed");

  /* the shortcut never hides an error */
  result = winnow_rtk_apply (filter, fail, -1, NULL);
  g_assert_nonnull (strstr (winnow_rtk_result_get_text (result, NULL), "error: index 2 is corrupt"));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  path = test_util_corpus_path ("needles.json");
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  needles = json_node_get_object (json_parser_get_root (parser));

  g_test_add_func ("/winnow/learn/corpus", test_learn_corpus);
  g_test_add_func ("/winnow/learn/shapes", test_learn_shapes);
  g_test_add_func ("/winnow/learn/passing-tests", test_learn_passing_tests);
  g_test_add_func ("/winnow/learn/deterministic", test_learn_deterministic);
  g_test_add_func ("/winnow/learn/bad-input", test_learn_bad_input);
  g_test_add_func ("/winnow/learn/large", test_learn_large);
  g_test_add_func ("/winnow/learn/async", test_learn_async);
  g_test_add_func ("/winnow/learn/shortcut", test_learn_shortcut);

  status = g_test_run ();
  return status;
}
