/* test-detector.c — command normalisation and output-type detection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "test-util.h"
#include "winnow.h"

static void
check_normalize (const char *line,
                 const char *expected)
{
  g_autofree char *got = winnow_command_normalize (line);

  g_assert_cmpstr (got, ==, expected);
}

static void
test_normalize (void)
{
  check_normalize ("git status", "git status");
  check_normalize ("  $ git status  ", "git status");
  /* the last entry of a command list */
  check_normalize ("cd web && npm ci; npx vitest run", "npx vitest run");
  check_normalize ("make || true", "true");
  check_normalize ("build.sh & pytest -q", "pytest -q");
  /* quote-aware: separators inside quotes do not split */
  check_normalize ("git commit -m 'a && b; c'", "git commit -m 'a && b; c'");
  check_normalize ("echo \"x | y\" && grep -rn 'a|b' src", "grep -rn 'a|b' src");
  check_normalize ("bash -c \"cd x && make\"", "bash -c \"cd x && make\"");
  /* environment, wrappers and redirections say nothing about the format */
  check_normalize ("FORCE_COLOR=0 CI=1 npx vitest run 2>&1", "npx vitest run");
  check_normalize ("sudo -E apt-get install -y gcc", "apt-get install -y gcc");
  check_normalize ("timeout 60 env RUST_BACKTRACE=1 cargo test > log.txt", "cargo test");
  check_normalize ("time nice -n 10 make -j4 2> err.log", "make -j4");
  check_normalize ("uv run pytest tests", "pytest tests");
  /* pipelines: the producer, unless it only feeds the next command */
  check_normalize ("npm test 2>&1 | tail -50", "npm test");
  check_normalize ("cat report.json | jq .errors", "jq .errors");
  check_normalize ("/usr/bin/git log -3", "git log -3");
  check_normalize ("./node_modules/.bin/jest --ci", "jest --ci");
  check_normalize ("./gradlew test", "./gradlew test");
  check_normalize ("", NULL);
  check_normalize (" && ", NULL);
  check_normalize (NULL, NULL);
}

static void
test_command_from_output (void)
{
  const char transcript[] = "$ git status\nOn branch main\nnothing to commit\n";
  const char plain[] = "On branch main\n$ not a prompt here\n";
  g_autofree char *a = winnow_command_from_output (transcript, strlen (transcript));
  g_autofree char *b = winnow_command_from_output (plain, strlen (plain));

  g_assert_cmpstr (a, ==, "git status");
  g_assert_null (b);
}

static WinnowDetection *
detect (WinnowDetector *detector,
        const char     *text,
        const char     *command)
{
  return winnow_detector_detect (detector, text, -1, command);
}

static void
test_command_evidence (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  g_autoptr(WinnowDetection) a = NULL;
  g_autoptr(WinnowDetection) b = NULL;
  g_autoptr(WinnowDetection) c = NULL;

  /* a command naming the tool: 0.55, plus 0.25 per content pattern */
  a = detect (detector, "On branch main\nChanges not staged for commit:\n", "git status -s");
  g_assert_cmpstr (winnow_detection_get_output_type (a), ==, "git-status");
  g_assert_true (winnow_detection_get_command_matched (a));
  g_assert_cmpfloat_with_epsilon (winnow_detection_get_confidence (a), 1.0, 1e-9);
  g_assert_cmpstr (winnow_detection_get_command (a), ==, "git status -s");

  /* command evidence outranks text that looks like something else */
  b = detect (detector, "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n", "git log -p -1");
  g_assert_cmpstr (winnow_detection_get_output_type (b), ==, "git-log");

  /* a generic runner is weak evidence the content can overturn */
  c = detect (detector,
              " RUN  v2.1.9 /app\n ✓ src/a.test.ts (1)\n Test Files  1 passed (1)\n"
              "      Tests  1 passed (1)\n",
              "npm test");
  g_assert_cmpstr (winnow_detection_get_output_type (c), ==, "test-vitest");
  g_assert_false (winnow_detection_get_command_matched (c));
}

static void
test_content_only (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  g_autoptr(WinnowDetection) a = NULL;
  g_autoptr(WinnowDetection) b = NULL;
  g_autoptr(WinnowDetection) c = NULL;
  g_autoptr(WinnowDetection) d = NULL;

  a = detect (detector,
              "============================= test session starts ==============================\n"
              "collected 3 items\n\nFAILED tests/test_a.py::test_x - assert 1 == 2\n"
              "========================= 1 failed, 2 passed in 0.03s =========================\n",
              NULL);
  g_assert_cmpstr (winnow_detection_get_output_type (a), ==, "test-pytest");
  g_assert_cmpfloat (winnow_detection_get_confidence (a), >=, 0.75);
  g_assert_false (winnow_detection_get_passthrough (a));

  /* colour escapes do not hide the format */
  b = detect (detector, "\x1b[1mdiff --git a/x.c b/x.c\x1b[m\n\x1b[36m@@ -1,2 +1,2 @@\x1b[m\n", NULL);
  g_assert_cmpstr (winnow_detection_get_output_type (b), ==, "git-diff");

  c = detect (detector, "src/main.c:12:9: error: incompatible types when assigning\n"
                        "   12 |   x = y;\n      |     ^\n", NULL);
  g_assert_cmpstr (winnow_detection_get_output_type (c), ==, "build-gcc");

  /* JSON after a line of tool chatter */
  d = detect (detector, "npm warn config something\n{\n  \"name\": \"x\",\n  \"ok\": true\n}\n", NULL);
  g_assert_cmpstr (winnow_detection_get_output_type (d), ==, "json-output");
}

static void
test_passthrough (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  g_autoptr(WinnowDetection) prose = NULL;
  g_autoptr(WinnowDetection) file = NULL;
  g_autoptr(WinnowDetection) file_errors = NULL;
  g_autoptr(WinnowDetection) unknown_tool = NULL;
  g_autoptr(WinnowDetection) errors = NULL;

  /* prose with no command and no error markers is left alone */
  prose = detect (detector, "The quick brown fox jumps over the lazy dog.\n"
                            "This paragraph explains the architecture in plain words.\n", NULL);
  g_assert_cmpstr (winnow_detection_get_output_type (prose), ==, "generic-output");
  g_assert_true (winnow_detection_get_passthrough (prose));

  /* so is a file read */
  file = detect (detector, "# Title\n\nSome notes.\n", "cat NOTES.md");
  g_assert_cmpstr (winnow_detection_get_output_type (file), ==, "file-read");
  g_assert_true (winnow_detection_get_passthrough (file));

  /* …unless it carries errors, like a log */
  file_errors = detect (detector, "12:00 started\n12:01 ERROR: disk full\n", "cat app.log");
  g_assert_false (winnow_detection_get_passthrough (file_errors));

  /* an unknown command's output is compressed generically */
  unknown_tool = detect (detector, "step one\nstep two\n", "./deploy.sh");
  g_assert_cmpstr (winnow_detection_get_output_type (unknown_tool), ==, "generic-output");
  g_assert_false (winnow_detection_get_passthrough (unknown_tool));

  errors = detect (detector, "starting\nError: something broke\n", NULL);
  g_assert_cmpstr (winnow_detection_get_output_type (errors), ==, "generic-error");
  g_assert_false (winnow_detection_get_passthrough (errors));
}

static void
test_not_utf8 (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  const char bad[] = "\xff\xfe binary";
  g_autoptr(WinnowDetection) d = winnow_detector_detect (detector, bad, sizeof bad - 1, NULL);

  g_assert_true (winnow_detection_get_passthrough (d));
}

static void
test_types (void)
{
  g_auto(GStrv) types = winnow_detector_dup_output_types ();
  static const char * const reference[] = {
    "aws", "build-eslint", "build-typescript", "build-vite", "build-webpack", "composer", "curl",
    "docker-build", "docker-logs", "docker-ps", "dotnet", "error-stacktrace", "gcloud",
    "generic-error", "generic-output", "gh", "git-branch", "git-diff", "git-log", "git-status",
    "gradle", "json-output", "kubectl", "npm-audit", "npm-install", "rsync", "rubocop", "shell-df",
    "shell-du", "shell-find", "shell-grep", "shell-ls", "shell-ps", "ssh", "test-cargo", "test-go",
    "test-jest", "test-pytest", "test-vitest", "wget", NULL
  };
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  g_autoptr(WinnowDetection) warm = NULL;

  g_assert_cmpuint (g_strv_length (types), >=, 60);
  /* every type the reference packs select by is one we report */
  for (guint i = 0; reference[i] != NULL; i++)
    g_assert_true (winnow_detector_knows_output_type (reference[i]));
  for (guint i = 0; types[i] != NULL; i++)
    {
      g_assert_nonnull (winnow_detector_get_type_category (types[i]));
      g_assert_nonnull (winnow_detector_get_type_description (types[i]));
    }

  /* compiling the whole table must not report a bad pattern (that would be a critical) */
  warm = detect (detector, "x", NULL);
  g_assert_nonnull (warm);
}

static void
test_large_input (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  g_autoptr(GString) text = g_string_new ("=============== test session starts ===============\n");
  g_autoptr(WinnowDetection) d = NULL;

  /* 8 MB of middle: only the head and tail are looked at */
  while (text->len < 8 * 1024 * 1024)
    g_string_append (text, "tests/test_x.py::test_case PASSED                      [ 50%]\n");
  g_string_append (text, "=============== 1 failed, 9000 passed in 12.00s ===============\n");

  d = detect (detector, text->str, NULL);
  g_assert_cmpstr (winnow_detection_get_output_type (d), ==, "test-pytest");
}

/* A runner's output contains the output of what it runs (make prints gcc's diagnostics, go test
 * a panic); without a command the runner's own lines decide, however many inner lines there are.
 * A bare compiler run has no runner lines and stays the compiler's. */
static void
test_wrapped_output (void)
{
  static const struct { const char *sample; const char *command; const char *type; } cases[] = {
    { "make-compile-error.txt", NULL, "build-make" },
    { "make-linker-error.txt", NULL, "build-make" },
    { "bigbuild-make-long.txt", NULL, "build-cmake" },
    { "bigbuild-ninja-long.txt", NULL, "build-ninja" },
    { "go-test-panic.txt", NULL, "test-go" },
    { "cargo-clippy-deny.txt", NULL, "clippy" },
    { "gcc-type-error.txt", NULL, "build-gcc" },
    { "go-run-panic.txt", NULL, "trace-go-panic" },
    /* `go run` is weak evidence: a build error stays a build error, a panic is a panic */
    { "go-run-panic.txt", "go run ./cmd/crash", "trace-go-panic" },
    { "go-build-error.txt", "go run ./...", "build-go" },
  };
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rel = g_build_filename ("samples", cases[i].sample, NULL);
      g_autofree char *path = test_util_corpus_path (rel);
      g_autofree char *text = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(WinnowDetection) d = NULL;

      g_file_get_contents (path, &text, NULL, &error);
      g_assert_no_error (error);
      d = detect (detector, text, cases[i].command);
      g_test_message ("%s (%s)", cases[i].sample, cases[i].command ? cases[i].command : "no command");
      g_assert_cmpstr (winnow_detection_get_output_type (d), ==, cases[i].type);
    }
}

static void
check_command (WinnowDetector *detector,
               const char     *command,
               const char     *expected)
{
  g_autoptr(WinnowDetector) fresh = winnow_detector_new ();
  g_autoptr(WinnowDetection) d = detect (fresh, "", command);
  g_autoptr(WinnowDetection) again = detect (detector, "", command);

  /* a fresh detector compiles only what this command needs; a used one has more compiled */
  g_assert_cmpstr (winnow_detection_get_output_type (again), ==, expected);

  g_assert_cmpstr (winnow_detection_get_output_type (d), ==, expected);
}

/* The detector skips command patterns whose literal start the command lacks, without
 * compiling them: what they would have matched must still be found, case-insensitively,
 * through leading alternations and optional letters, and never for a mere prefix. */
static void
test_command_prefilter (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();

  check_command (detector, "make", "build-make");
  check_command (detector, "GMAKE -j4", "build-make");     /* ^(?:make|gmake|bmake)\b */
  check_command (detector, "bmake install", "build-make");
  check_command (detector, "makefoo", "generic-output");
  check_command (detector, "py.test -q", "test-pytest");   /* ^(?:py\.?test|…) */
  check_command (detector, "PYTEST", "test-pytest");
  check_command (detector, "python3 -m pytest", "test-pytest");
  check_command (detector, "cmake --build . --target test", "build-cmake");
  check_command (detector, "sudo apt-get install gcc", "apt");
  /* an optional leading group: the command starts with it or with what follows */
  check_command (detector, "npx vitest run", "test-vitest");  /* ^(?:npx\s+)?vitest\b */
  check_command (detector, "vitest", "test-vitest");
  check_command (detector, "NPX  Vitest", "test-vitest");
  check_command (detector, "npxvitest", "generic-output");
  check_command (detector, "bundle exec rspec spec/a_spec.rb", "test-rspec");
  check_command (detector, "rspec", "test-rspec");
  /* escaped punctuation is part of the literal start: ^(?:gradle|\./gradlew)\s+… */
  check_command (detector, "./gradlew test", "test-junit");
  check_command (detector, "./gradlew build", "gradle");
  check_command (detector, "./mvnw -q verify", "test-junit");
  /* with Unicode case folding the Kelvin sign matches k: no shortcut for such commands */
  check_command (detector, "ma\xe2\x84\xaa" "e", "build-make");
}

static void
assert_same_detection (WinnowDetection *a,
                       WinnowDetection *b)
{
  g_assert_cmpstr (winnow_detection_get_output_type (a), ==, winnow_detection_get_output_type (b));
  g_assert_cmpstr (winnow_detection_get_category (a), ==, winnow_detection_get_category (b));
  g_assert_cmpfloat_with_epsilon (winnow_detection_get_confidence (a),
                                  winnow_detection_get_confidence (b), 1e-9);
  g_assert_cmpstr (winnow_detection_get_command (a), ==, winnow_detection_get_command (b));
  g_assert_cmpint (winnow_detection_get_command_matched (a), ==,
                   winnow_detection_get_command_matched (b));
  g_assert_cmpstr (winnow_detection_get_evidence (a), ==, winnow_detection_get_evidence (b));
  g_assert_cmpint (winnow_detection_get_has_errors (a), ==, winnow_detection_get_has_errors (b));
  g_assert_cmpint (winnow_detection_get_passthrough (a), ==, winnow_detection_get_passthrough (b));
}

static const struct
{
  const char *text;
  const char *command;
} remembered_cases[] = {
  /* a named tool with no, one and several content hits: 0.55, 0.8, 1 */
  { "nothing to see\n", "git clone origin.git x" },
  { "Cloning into 'x'...\n", "git clone origin.git x" },
  { "Cloning into 'x'...\nremote: Counting objects: 3\nReceiving objects: 100% (3/3)\n"
    "Resolving deltas: 100% (1/1)\nerror: oops\n", "git clone origin.git x" },
  /* command evidence outranks text that looks like something else */
  { "diff --git a/x b/x\nindex 1234567..89abcde 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
    "M\tx\n", "ls -l" },
  /* a runner: weak evidence, which content overturns or not */
  { " RUN  v2.1.9 /app\n ✓ src/a.test.ts (1)\n Test Files  1 passed (1)\n", "npm test" },
  { "some output\n", "npm test" },
  /* the same command in other words, and commands that leave nothing or read a file */
  { "Cloning into 'x'...\n", "  $ git   clone origin.git x  " },
  { "fatal: no\n", "FOO=1" },
  { "plain prose\n", "cat notes.txt" },
  { "{\"a\": 1}\n", "jq . a.json" },
  { "plain prose\n", NULL },
};

/* What the detector derives from a command alone is remembered between calls: a used
 * detector, with its memory full of other commands, a shared one on several threads, and a
 * fresh one must see each output alike. */
static gpointer
detect_remembered_cases (gpointer data)
{
  WinnowDetector *detector = data;

  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < G_N_ELEMENTS (remembered_cases); i++)
      {
        g_autoptr(WinnowDetector) fresh = winnow_detector_new ();
        g_autoptr(WinnowDetection) expected = detect (fresh, remembered_cases[i].text,
                                                      remembered_cases[i].command);
        g_autoptr(WinnowDetection) got = detect (detector, remembered_cases[i].text,
                                                 remembered_cases[i].command);

        assert_same_detection (got, expected);
      }
  return NULL;
}

static void
test_command_memory (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  GThread *threads[4];

  detect_remembered_cases (detector);

  /* more commands than are remembered: the memory starts over and still answers alike */
  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *command = g_strdup_printf ("git clone repo%u.git", i);
      g_autoptr(WinnowDetection) d = detect (detector, "Cloning into 'x'...\n", command);

      g_assert_cmpstr (winnow_detection_get_output_type (d), ==, "git-clone");
      g_assert_cmpfloat_with_epsilon (winnow_detection_get_confidence (d), 0.8, 1e-9);
    }
  detect_remembered_cases (detector);

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("detect", detect_remembered_cases, detector);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
}

/* Detection looks at what a person would see: colors, titles and carriage returns aside,
 * escaped output is detected like the plain text, wherever the escapes sit. */
static void
test_terminal_escapes (void)
{
  g_autoptr(WinnowDetector) detector = winnow_detector_new ();
  const char *plain = "Cloning into 'x'...\nremote: Counting objects: 3\nerror: oops\n";
  const char *escaped = "\x1b[32mClon\x1b[1;2Hing into 'x'...\x1b[0m\r\n"
                        "\x1b]0;a title\x07remote: Counting\x1b]8;;x\x1b\\ objects: 3\r\r\n"
                        "\x1b" "Eerror: oops\n\x1b[";
  g_autoptr(WinnowDetection) a = detect (detector, plain, NULL);
  g_autoptr(WinnowDetection) b = detect (detector, escaped, NULL);

  g_assert_cmpstr (winnow_detection_get_output_type (a), ==, "git-clone");
  assert_same_detection (b, a);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/detector/normalize", test_normalize);
  g_test_add_func ("/winnow/detector/command-from-output", test_command_from_output);
  g_test_add_func ("/winnow/detector/command-evidence", test_command_evidence);
  g_test_add_func ("/winnow/detector/command-prefilter", test_command_prefilter);
  g_test_add_func ("/winnow/detector/command-memory", test_command_memory);
  g_test_add_func ("/winnow/detector/terminal-escapes", test_terminal_escapes);
  g_test_add_func ("/winnow/detector/content-only", test_content_only);
  g_test_add_func ("/winnow/detector/passthrough", test_passthrough);
  g_test_add_func ("/winnow/detector/not-utf8", test_not_utf8);
  g_test_add_func ("/winnow/detector/types", test_types);
  g_test_add_func ("/winnow/detector/large-input", test_large_input);
  g_test_add_func ("/winnow/detector/wrapped-output", test_wrapped_output);

  return g_test_run ();
}
