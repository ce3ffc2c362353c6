/* test-cli-learn.c — `winnow learn`, run as a user would
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "test-cli-util.h"
#include "test-util.h"

static char *tmp_root;

static const char *
out_str (TestCliRun *r)
{
  return r->text;
}

/* Runs winnow with @args (NULL-terminated) and @input on stdin, in @cwd, data in tmp_root. */
static void
run_winnow (TestCliRun                *r,
            const char         *cwd,
            GBytes             *input,
            const char * const *args)
{
  g_autofree char *data_dir = g_build_filename (tmp_root, "data", NULL);

  test_cli_run (r, data_dir, cwd, input, args);
}

#define WINNOW(r, cwd, input, ...) \
  G_STMT_START { \
    const char *args_[] = { __VA_ARGS__, NULL }; \
    run_winnow (r, cwd, input, args_); \
  } G_STMT_END

static char *
write_tmp (const char *name,
           const char *contents,
           gssize      length)
{
  char *path = g_build_filename (tmp_root, name, NULL);

  test_util_write_file (path, contents, length);
  return path;
}

#define parse_json test_cli_parse_json

static char *
sample (const char *name)
{
  g_autofree char *file = g_strconcat ("samples/", name, ".txt", NULL);
  return test_util_corpus_path (file);
}

static void
test_learn_stdout (void)
{
  g_autofree char *a = sample ("meson-compile");
  g_autofree char *b = sample ("ninja-build");
  g_autoptr(JsonObject) filter = NULL;
  g_auto(TestCliRun) r = { 0 };

  WINNOW (&r, NULL, NULL, "learn", "--command", "meson compile -C builddir", a, b);
  g_assert_cmpint (r.status, ==, 0);
  filter = parse_json (&r);
  g_assert_cmpstr (json_object_get_string_member (filter, "id"), ==, "learned-meson-compile");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (filter, "tests")), ==, 2);

  /* the summary: figures per sample, the counter, the patterns and why */
  g_assert_nonnull (strstr (r.err, "meson-compile.txt: 11 → 5 lines"));
  g_assert_nonnull (strstr (r.err, "ninja-build.txt: 9 → 3 lines"));
  g_assert_nonnull (strstr (r.err, "o200k"));
  g_assert_nonnull (strstr (r.err, "rules.dropPatterns"));
  g_assert_nonnull (strstr (r.err, "build step counters"));
  g_assert_nonnull (strstr (r.err, "passes its 2 tests"));
}

static void
test_learn_output_file (void)
{
  g_autofree char *a = sample ("pytest-long-verbose");
  g_autofree char *path = g_build_filename (tmp_root, "learned.json", NULL);
  g_autofree char *stdin_sample = NULL;
  g_autoptr(GBytes) input = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_auto(TestCliRun) r = { 0 };
  g_auto(TestCliRun) verify = { 0 };
  g_auto(TestCliRun) json = { 0 };
  gsize length;

  WINNOW (&r, NULL, NULL, "learn", "-c", "pytest -v tests_long", "--id", "my-pytest",
          "--output", path, a);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (g_bytes_get_size (r.out), ==, 0);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (strstr (r.err, path));

  /* what was written passes `winnow verify` on its own */
  WINNOW (&verify, NULL, NULL, "verify", "--strict", path);
  if (verify.status != 0)
    g_printerr ("%s%s", out_str (&verify), verify.err);
  g_assert_cmpint (verify.status, ==, 0);

  /* --json, from standard input */
  g_file_get_contents (a, &stdin_sample, &length, NULL);
  input = g_bytes_new (stdin_sample, length);
  WINNOW (&json, NULL, input, "learn", "--json", "-c", "pytest -v", "-");
  g_assert_cmpint (json.status, ==, 0);
  report = parse_json (&json);
  g_assert_true (json_object_has_member (report, "filter"));
  g_assert_cmpint (json_object_get_int_member (report, "testsPassed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (report, "testsFailed"), ==, 0);
  {
    JsonObject *s = json_array_get_object_element (json_object_get_array_member (report, "samples"), 0);

    g_assert_cmpstr (json_object_get_string_member (s, "name"), ==, "stdin");
    g_assert_cmpint (json_object_get_int_member (s, "linesBefore"), ==, 2334);
    g_assert_cmpint (json_object_get_int_member (s, "linesAfter"), <, 100);
    g_assert_cmpint (json_object_get_int_member (s, "tokensAfter"), <,
                     json_object_get_int_member (s, "tokensBefore"));
  }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "proposals")), >, 2);
}

static void
test_learn_bad_input (void)
{
  g_autofree char *empty = write_tmp ("empty.txt", "", 0);
  g_autofree char *binary = write_tmp ("core.bin", "\x7f" "ELF\0\0\1", 7);
  g_autofree char *latin1 = write_tmp ("latin1.txt", "caf\xe9\n", 5);
  g_autofree char *output = write_tmp ("keep.json", "{\"old\": true}\n", -1);
  g_autofree char *missing = g_build_filename (tmp_root, "nope.txt", NULL);
  g_autofree char *kept = NULL;
  g_auto(TestCliRun) none = { 0 };
  g_auto(TestCliRun) r_empty = { 0 };
  g_auto(TestCliRun) r_binary = { 0 };
  g_auto(TestCliRun) r_latin1 = { 0 };
  g_auto(TestCliRun) r_missing = { 0 };

  WINNOW (&none, NULL, NULL, "learn");
  g_assert_cmpint (none.status, ==, 2);
  g_assert_nonnull (strstr (none.err, "no sample"));

  WINNOW (&r_empty, NULL, NULL, "learn", empty);
  g_assert_cmpint (r_empty.status, ==, 1);
  g_assert_nonnull (strstr (r_empty.err, "empty"));

  WINNOW (&r_binary, NULL, NULL, "learn", "--output", output, binary);
  g_assert_cmpint (r_binary.status, ==, 1);
  g_assert_nonnull (strstr (r_binary.err, "core.bin"));
  g_assert_nonnull (strstr (r_binary.err, "binary"));
  g_file_get_contents (output, &kept, NULL, NULL);
  g_assert_cmpstr (kept, ==, "{\"old\": true}\n");

  WINNOW (&r_latin1, NULL, NULL, "learn", latin1);
  g_assert_cmpint (r_latin1.status, ==, 1);
  g_assert_nonnull (strstr (r_latin1.err, "UTF-8"));

  WINNOW (&r_missing, NULL, NULL, "learn", missing);
  g_assert_cmpint (r_missing.status, ==, 1);
  g_assert_nonnull (strstr (r_missing.err, "nope.txt"));
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_root = g_dir_make_tmp ("winnow-cli-learn-XXXXXX", NULL);

  g_test_add_func ("/winnow/cli/learn/stdout", test_learn_stdout);
  g_test_add_func ("/winnow/cli/learn/output-file", test_learn_output_file);
  g_test_add_func ("/winnow/cli/learn/bad-input", test_learn_bad_input);

  ret = g_test_run ();
  test_util_remove_tree (tmp_root);
  g_free (tmp_root);
  return ret;
}
