/* test-cli.c — the headless `winnow` program, run as a user would
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
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

static void
test_help (void)
{
  static const char * const commands[] = {
    "compress", "detect", "verify", "filters", "trust", "rules", "expand", NULL
  };
  g_auto(TestCliRun) top = { 0 };
  g_auto(TestCliRun) unknown = { 0 };
  g_auto(TestCliRun) version = { 0 };

  WINNOW (&top, NULL, NULL, "--help");
  g_assert_cmpint (top.status, ==, 0);
  for (guint i = 0; commands[i] != NULL; i++)
    g_assert_nonnull (strstr (out_str (&top), commands[i]));

  WINNOW (&version, NULL, NULL, "--version");
  g_assert_cmpint (version.status, ==, 0);
  g_assert_true (g_str_has_prefix (out_str (&version), "winnow "));

  WINNOW (&unknown, NULL, NULL, "frobnicate");
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "frobnicate"));

  for (guint i = 0; commands[i] != NULL; i++)
    {
      g_auto(TestCliRun) help = { 0 };
      g_auto(TestCliRun) bad = { 0 };

      WINNOW (&help, NULL, NULL, commands[i], "--help");
      g_assert_cmpint (help.status, ==, 0);
      g_assert_nonnull (strstr (out_str (&help), "Usage:"));
      g_assert_nonnull (strstr (out_str (&help), commands[i]));
      g_assert_nonnull (strstr (out_str (&help), "Exit status"));

      WINNOW (&bad, NULL, NULL, commands[i], "--no-such-option");
      g_assert_cmpint (bad.status, ==, 2);
      g_assert_nonnull (strstr (bad.err, "--no-such-option"));
    }
}

static GBytes *
test_log (void)
{
  GString *log = g_string_new (NULL);

  for (int i = 0; i < 400; i++)
    g_string_append_printf (log, i == 200 ? "src/app.c:%d:5: error: expected ';' before '}' token\n"
                                          : "[%d/400] Compiling C object app.p/file.c.o\n", i);
  return g_string_free_to_bytes (log);
}

static void
test_compress (void)
{
  g_autoptr(GBytes) log = test_log ();
  g_auto(TestCliRun) plain = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_autoptr(JsonObject) obj = NULL;
  JsonObject *tokens;

  WINNOW (&plain, tmp_root, log, "compress", "--command", "ninja -C build");
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&plain), "src/app.c:200:5: error: expected ';' before '}' token"));
  g_assert_cmpuint (g_bytes_get_size (plain.out), <, g_bytes_get_size (log) / 4);

  WINNOW (&json, tmp_root, log, "compress", "--json", "--command", "ninja -C build", "-");
  g_assert_cmpint (json.status, ==, 0);
  obj = parse_json (&json);
  g_assert_true (json_object_get_boolean_member (obj, "compressed"));
  g_assert_nonnull (strstr (json_object_get_string_member (obj, "text"), "src/app.c:200:5"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (obj, "detection"),
                                                  "type"), ==, "build-ninja");
  g_assert_nonnull (json_object_get_string_member (json_object_get_object_member (obj, "filter"),
                                                   "id"));
  tokens = json_object_get_object_member (obj, "tokens");
  g_assert_cmpint (json_object_get_int_member (tokens, "before"), >,
                   json_object_get_int_member (tokens, "after"));
  g_assert_nonnull (json_object_get_string_member (tokens, "counter"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (obj, "trace")), >, 0);
  g_assert_true (json_object_has_member (obj, "rules"));
  g_assert_true (json_object_has_member (obj, "durationMs"));
}


#define PROSE_TEXT \
  "Hi there! Thanks so much for your help. Basically, I think the build is really slow because " \
  "the cache in `~/.cache/ccache` is stale. Could you please check https://ci.example.com/runs/42?"
static const char prose_text[] = PROSE_TEXT;

static void
test_compress_modes (void)
{
  g_autoptr(GBytes) prose = g_bytes_new_static (prose_text, sizeof prose_text - 1);
  g_autoptr(GBytes) log = test_log ();
  g_auto(TestCliRun) caveman = { 0 };
  g_auto(TestCliRun) off = { 0 };
  g_auto(TestCliRun) ultra = { 0 };
  g_auto(TestCliRun) rtk = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_auto(TestCliRun) bad_mode = { 0 };
  g_auto(TestCliRun) bad_intensity = { 0 };
  g_auto(TestCliRun) bad_role = { 0 };
  g_auto(TestCliRun) bad_steps = { 0 };
  g_autoptr(JsonObject) obj = NULL;
  JsonArray *steps;

  WINNOW (&caveman, tmp_root, prose, "compress", "--mode", "caveman");
  g_assert_cmpint (caveman.status, ==, 0);
  g_assert_cmpuint (strlen (out_str (&caveman)), <, sizeof prose_text - 1);
  g_assert_nonnull (strstr (out_str (&caveman), "`~/.cache/ccache`"));
  g_assert_nonnull (strstr (out_str (&caveman), "https://ci.example.com/runs/42"));

  WINNOW (&off, tmp_root, prose, "compress", "--mode", "off");
  g_assert_cmpstr (out_str (&off), ==, PROSE_TEXT "\n");

  WINNOW (&ultra, tmp_root, prose, "compress", "--mode", "caveman", "--intensity", "ultra",
          "--role", "user", "--lang", "en");
  g_assert_cmpint (ultra.status, ==, 0);
  g_assert_cmpuint (strlen (out_str (&ultra)), <=, strlen (out_str (&caveman)));

  /* rtk leaves prose as it is */
  WINNOW (&rtk, tmp_root, prose, "compress", "--mode", "rtk");
  g_assert_cmpstr (out_str (&rtk), ==, PROSE_TEXT "\n");

  WINNOW (&json, tmp_root, log, "compress", "--json", "--mode", "stacked", "--command",
          "ninja -C build");
  g_assert_cmpint (json.status, ==, 0);
  obj = parse_json (&json);
  g_assert_cmpstr (json_object_get_string_member (obj, "mode"), ==, "stacked");
  steps = json_object_get_array_member (obj, "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (steps, 0), "engine"),
                   ==, "rtk");
  g_assert_true (json_object_has_member (json_object_get_object_member (obj, "receipt"),
                                         "saved_ratio"));
  g_assert_true (json_object_has_member (obj, "decisions"));
  g_assert_true (json_object_has_member (obj, "detection"));

  WINNOW (&bad_mode, tmp_root, NULL, "compress", "--mode", "turbo");
  g_assert_cmpint (bad_mode.status, ==, 2);
  g_assert_nonnull (strstr (bad_mode.err, "turbo"));
  WINNOW (&bad_intensity, tmp_root, NULL, "compress", "--intensity", "max");
  g_assert_cmpint (bad_intensity.status, ==, 2);
  WINNOW (&bad_role, tmp_root, NULL, "compress", "--role", "robot");
  g_assert_cmpint (bad_role.status, ==, 2);
  WINNOW (&bad_steps, tmp_root, NULL, "compress", "--steps", "rtk,zip:fast");
  g_assert_cmpint (bad_steps.status, ==, 2);
  g_assert_nonnull (strstr (bad_steps.err, "zip:fast"));
}

static void
test_compress_messages (void)
{
  g_autofree char *messages = g_strdup_printf ("[{\"role\":\"system\",\"content\":\"Please note that you must be careful.\"},"
                                               "{\"role\":\"user\",\"content\":\"%s\",\"name\":\"me\"}]",
                                               "Basically, the build is really slow. Thanks so much!");
  g_autofree char *path = write_tmp ("messages.json", messages, -1);
  g_autofree char *bad = write_tmp ("bad-messages.json", "[{\"role\":\"robot\",\"content\":\"x\"}]", -1);
  g_auto(TestCliRun) plain = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_auto(TestCliRun) invalid = { 0 };
  g_auto(TestCliRun) both = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonObject) obj = NULL;
  JsonArray *array;

  WINNOW (&plain, tmp_root, NULL, "compress", "--mode", "caveman", "--messages", path);
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out_str (&plain), -1, NULL));
  array = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (array, 1), "name"),
                   ==, "me");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (array, 1), "content"),
                   ==, "Build is slow.");

  WINNOW (&json, tmp_root, NULL, "compress", "--mode", "caveman", "--messages", path, "--json");
  g_assert_cmpint (json.status, ==, 0);
  obj = parse_json (&json);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (obj, "messages")));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (obj, "decisions")), >=, 1);

  WINNOW (&invalid, tmp_root, NULL, "compress", "--messages", bad);
  g_assert_cmpint (invalid.status, ==, 1);
  g_assert_nonnull (strstr (invalid.err, "robot"));
  g_assert_nonnull (strstr (invalid.err, "bad-messages.json"));

  WINNOW (&both, tmp_root, NULL, "compress", "--messages", path, path);
  g_assert_cmpint (both.status, ==, 2);
}

static void
test_rules_and_expand (void)
{
  static const char abbreviated_text[] = "Open a PR once CI passes; see `CI.yml`.\n";
  g_autoptr(GBytes) abbreviated = g_bytes_new_static (abbreviated_text, sizeof abbreviated_text - 1);
  g_auto(TestCliRun) rules = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_auto(TestCliRun) lang = { 0 };
  g_auto(TestCliRun) bad_lang = { 0 };
  g_auto(TestCliRun) expand = { 0 };
  g_autoptr(JsonObject) obj = NULL;
  JsonArray *packs;

  WINNOW (&rules, tmp_root, NULL, "rules");
  g_assert_cmpint (rules.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&rules), "filler"));
  g_assert_nonnull (strstr (out_str (&rules), "built-in"));

  WINNOW (&json, tmp_root, NULL, "rules", "--json");
  g_assert_cmpint (json.status, ==, 0);
  obj = parse_json (&json);
  packs = json_object_get_array_member (obj, "packs");
  g_assert_cmpuint (json_array_get_length (packs), >=, 4);
  g_assert_true (json_object_has_member (json_array_get_object_element (packs, 0), "byIntensity"));

  WINNOW (&lang, tmp_root, NULL, "rules", "--lang", "en", "--rules");
  g_assert_cmpint (lang.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&lang), "pleasantries") ? strstr (out_str (&lang), "pleasantries")
                                                             : strstr (out_str (&lang), "please"));

  WINNOW (&bad_lang, tmp_root, NULL, "rules", "--lang", "tlh");
  g_assert_cmpint (bad_lang.status, ==, 2);

  WINNOW (&expand, tmp_root, abbreviated, "expand", "--lang", "en");
  g_assert_cmpint (expand.status, ==, 0);
  g_assert_cmpstr (out_str (&expand), ==,
                   "Open a pull request once continuous integration passes; see `CI.yml`.\n");
}

static void
test_verify_rule_packs (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "my-rules", "en", NULL);
  g_autofree char *pack = g_build_filename (dir, "filler.json", NULL);
  g_autofree char *root = g_build_filename (tmp_root, "my-rules", NULL);
  g_auto(TestCliRun) failing = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_autoptr(JsonObject) obj = NULL;

  g_mkdir_with_parents (dir, 0700);
  test_util_write_file (pack, "{\"language\":\"en\",\"category\":\"filler\",\"rules\":["
                        "{\"name\":\"drop_really\",\"pattern\":\"\\\\breally\\\\s+\",\"replacement\":\"\"}],"
                        "\"tests\":[{\"rule\":\"drop_really\",\"input\":\"really good\",\"expected\":\"good\"},"
                        "{\"rule\":\"drop_really\",\"name\":\"wrong\",\"input\":\"really bad\",\"expected\":\"bad!\"}]}", -1);

  WINNOW (&failing, tmp_root, NULL, "verify", root);
  g_assert_cmpint (failing.status, ==, 1);
  g_assert_nonnull (strstr (out_str (&failing), "FAIL en/filler › wrong"));
  g_assert_nonnull (strstr (out_str (&failing), "1 passed, 1 failed"));

  WINNOW (&json, tmp_root, NULL, "verify", "--json", pack);
  obj = parse_json (&json);
  g_assert_cmpint (json_object_get_int_member (obj, "rulePacks"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (obj, "failed"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (obj, "tests"), 1), "rulePack"), ==, "en/filler");
}

static void
test_compress_bad_input (void)
{
  const char binary[] = "caf\xe9 \xff\xfe not utf-8\nline two\n";
  g_autofree char *binary_path = write_tmp ("binary.log", binary, sizeof binary - 1);
  g_autofree char *empty_path = write_tmp ("empty.log", "", 0);
  g_autofree char *missing = g_build_filename (tmp_root, "missing.log", NULL);
  g_auto(TestCliRun) dir = { 0 };
  g_auto(TestCliRun) nofile = { 0 };
  g_auto(TestCliRun) empty = { 0 };
  g_auto(TestCliRun) bin = { 0 };
  g_auto(TestCliRun) intensity = { 0 };
  g_auto(TestCliRun) filter = { 0 };
  g_auto(TestCliRun) two = { 0 };

  WINNOW (&dir, NULL, NULL, "compress", tmp_root);
  g_assert_cmpint (dir.status, ==, 1);
  g_assert_nonnull (strstr (dir.err, "is a directory"));

  WINNOW (&nofile, NULL, NULL, "compress", missing);
  g_assert_cmpint (nofile.status, ==, 1);
  g_assert_nonnull (strstr (nofile.err, "missing.log"));

  WINNOW (&empty, NULL, NULL, "compress", empty_path);
  g_assert_cmpint (empty.status, ==, 0);
  g_assert_cmpuint (g_bytes_get_size (empty.out), ==, 0);

  /* not UTF-8: passed through byte for byte */
  WINNOW (&bin, NULL, NULL, "compress", binary_path);
  g_assert_cmpint (bin.status, ==, 0);
  g_assert_cmpmem (g_bytes_get_data (bin.out, NULL), g_bytes_get_size (bin.out),
                   binary, sizeof binary - 1);

  WINNOW (&intensity, NULL, NULL, "compress", "--intensity", "extreme", empty_path);
  g_assert_cmpint (intensity.status, ==, 2);
  g_assert_nonnull (strstr (intensity.err, "extreme"));

  WINNOW (&filter, NULL, NULL, "compress", "--filter", "no-such-filter", empty_path);
  g_assert_cmpint (filter.status, ==, 1);
  g_assert_nonnull (strstr (filter.err, "no-such-filter"));

  WINNOW (&two, NULL, NULL, "compress", empty_path, empty_path);
  g_assert_cmpint (two.status, ==, 2);
}

static void
test_compress_huge (void)
{
  g_autoptr(GString) big = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_auto(TestCliRun) r = { 0 };

  /* 50 MB of log with one failure in the middle */
  while (big->len < 50 * 1024 * 1024)
    {
      if (big->len > 25 * 1024 * 1024 && big->len < 25 * 1024 * 1024 + 100)
        g_string_append (big, "FATAL: out of memory in worker 7\n");
      g_string_append (big, "2026-11-23T08:00:00Z INFO request handled in 12ms path=/api/items\n");
    }
  path = write_tmp ("huge.log", big->str, big->len);

  WINNOW (&r, NULL, NULL, "compress", "--command", "./server", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (g_bytes_get_size (r.out), <=, 13000);
  g_assert_nonnull (strstr (out_str (&r), "FATAL: out of memory in worker 7"));
  g_remove (path);
}

/* 50 MB of prose in one chat message: no crash, no hang, the same shape back */
static void
test_compress_huge_message (void)
{
  g_autoptr(GString) json = g_string_new ("[{\"role\":\"user\",\"content\":\"");
  g_autofree char *path = NULL;
  g_auto(TestCliRun) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize prefix = json->len;
  gint64 start;

  while (json->len - prefix < 50 * 1024 * 1024)
    g_string_append (json, "Basically, I think the build is really slow. ");
  g_string_append (json, "\"}]");
  path = write_tmp ("huge-messages.json", json->str, json->len);

  start = g_get_monotonic_time ();
  WINNOW (&r, NULL, NULL, "compress", "--mode", "stacked", "--messages", path);
  g_assert_cmpint (r.status, ==, 0);
  /* a time limit means nothing under valgrind (./dev test --valgrind), twenty times slower */
  if (g_getenv ("WINNOW_TEST_UNDER_VALGRIND") == NULL)
    g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
  g_assert_true (json_parser_load_from_data (parser, out_str (&r), -1, NULL));
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)));
  g_remove (path);
}

static void
test_detect (void)
{
  static const char text[] = "On branch main\nnothing to commit, working tree clean\n";
  g_autoptr(GBytes) status = g_bytes_new_static (text, sizeof text - 1);
  g_auto(TestCliRun) r = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_autoptr(JsonObject) obj = NULL;

  WINNOW (&r, tmp_root, status, "detect", "--command", "git status");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&r), "git-status"));

  WINNOW (&json, tmp_root, status, "detect", "--json");
  g_assert_cmpint (json.status, ==, 0);
  obj = parse_json (&json);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (obj, "detection"),
                                                  "type"), ==, "git-status");
}

static const char passing_pack[] =
  "{\"id\":\"demo\",\"label\":\"Demo\",\"category\":\"test\",\"rules\":{\"dropPatterns\":[\"^ok \"]},"
  "\"tests\":[{\"name\":\"drops ok lines\",\"input\":\"ok 1 - first test passed\\nnot ok 2 - broken\","
  "\"expected\":\"not ok 2 - broken\"}]}";

static void
test_verify (void)
{
  g_autofree char *good = write_tmp ("packs/good.json", passing_pack, -1);
  g_autofree char *failing = write_tmp ("failing/f.json",
                                        "{\"id\":\"f\",\"label\":\"F\",\"category\":\"test\","
                                        "\"rules\":{\"dropPatterns\":[\"^ok \"]},\"tests\":[{\"name\":\"wrong\","
                                        "\"input\":\"ok 1 - first test passed\\nnot ok 2\",\"expected\":\"nothing\"}]}",
                                        -1);
  g_autofree char *broken = write_tmp ("broken/b.json", "{\n  \"id\": \"b\",\n  \"label\": \n}\n", -1);
  g_autofree char *packs = g_build_filename (tmp_root, "packs", NULL);
  g_autofree char *missing = g_build_filename (tmp_root, "nope", NULL);
  g_auto(TestCliRun) ok = { 0 };
  g_auto(TestCliRun) fail = { 0 };
  g_auto(TestCliRun) bad = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_auto(TestCliRun) nonexistent = { 0 };
  g_auto(TestCliRun) catalog = { 0 };
  g_autoptr(JsonObject) obj = NULL;

  WINNOW (&ok, NULL, NULL, "verify", packs);
  g_assert_cmpint (ok.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&ok), "1 passed, 0 failed"));

  WINNOW (&fail, NULL, NULL, "verify", failing);
  g_assert_cmpint (fail.status, ==, 1);
  g_assert_nonnull (strstr (out_str (&fail), "FAIL f › wrong"));
  g_assert_nonnull (strstr (out_str (&fail), "- nothing"));
  g_assert_nonnull (strstr (out_str (&fail), "+ not ok 2"));
  g_assert_nonnull (strstr (out_str (&fail), "0 passed, 1 failed"));

  WINNOW (&bad, NULL, NULL, "verify", broken);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_nonnull (strstr (bad.err, "b.json:4:1: error: not valid JSON"));

  WINNOW (&json, NULL, NULL, "verify", "--json", good, failing);
  g_assert_cmpint (json.status, ==, 1);
  obj = parse_json (&json);
  g_assert_cmpint (json_object_get_int_member (obj, "passed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (obj, "failed"), ==, 1);

  WINNOW (&nonexistent, NULL, NULL, "verify", missing);
  g_assert_cmpint (nonexistent.status, ==, 2);

  /* no arguments: the whole catalog, which must pass */
  WINNOW (&catalog, tmp_root, NULL, "verify");
  g_test_message ("%s%s", out_str (&catalog), catalog.err);
  g_assert_cmpint (catalog.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&catalog), " passed, 0 failed"));
}

static void
test_filters (void)
{
  g_auto(TestCliRun) table = { 0 };
  g_auto(TestCliRun) json = { 0 };
  g_auto(TestCliRun) stats = { 0 };
  g_auto(TestCliRun) stats_json = { 0 };
  g_autoptr(JsonObject) obj = NULL;
  g_autoptr(JsonObject) counts = NULL;
  GList *categories;
  gint64 n_filters = 0;
  gint64 n_tests = 0;
  JsonArray *filters;
  gboolean found = FALSE;

  WINNOW (&table, tmp_root, NULL, "filters");
  g_assert_cmpint (table.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&table), "generic-output"));
  /* a table: the source column starts at the same place on every line, and the right-aligned
   * priority column ends at the same place */
  {
    g_auto(GStrv) lines = g_strsplit (out_str (&table), "\n", -1);
    const char *heading = lines[0];
    gsize source_at = strstr (heading, "source") - heading;
    gsize priority_end = strstr (heading, "priority") - heading + strlen ("priority");

    for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_assert_cmpint (lines[i][source_at - 1], ==, ' ');
        g_assert_cmpint (lines[i][source_at], !=, ' ');
        g_assert_true (g_ascii_isdigit (lines[i][priority_end - 1]));
        g_assert_cmpint (lines[i][priority_end], ==, ' ');
      }
  }

  WINNOW (&json, tmp_root, NULL, "filters", "--json");
  g_assert_cmpint (json.status, ==, 0);
  obj = parse_json (&json);
  filters = json_object_get_array_member (obj, "filters");
  for (guint i = 0; i < json_array_get_length (filters); i++)
    {
      JsonObject *f = json_array_get_object_element (filters, i);

      g_assert_true (json_object_has_member (f, "priority"));
      g_assert_true (json_object_has_member (f, "commandTypes"));
      found |= g_strcmp0 (json_object_get_string_member (f, "id"), "generic-output") == 0;
    }
  g_assert_true (found);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (obj, "diagnostics")), ==, 0);

  WINNOW (&stats, tmp_root, NULL, "filters", "--stats");
  g_assert_cmpint (stats.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&stats), "generic"));
  g_assert_nonnull (strstr (out_str (&stats), "total"));

  /* the built-in catalog: at least 70 filters, each with at least three tests */
  WINNOW (&stats_json, tmp_root, NULL, "filters", "--stats", "--json");
  g_assert_cmpint (stats_json.status, ==, 0);
  counts = parse_json (&stats_json);
  categories = json_object_get_members (counts);
  for (GList *l = categories; l != NULL; l = l->next)
    {
      JsonObject *category = json_object_get_object_member (counts, l->data);

      n_filters += json_object_get_int_member (category, "filters");
      n_tests += json_object_get_int_member (category, "tests");
    }
  g_list_free (categories);
  g_assert_cmpint (n_filters, >=, 70);
  g_assert_cmpint (n_tests, >=, 3 * n_filters);
  g_assert_true (json_object_has_member (counts, "test"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (counts, "test"),
                                               "filters"), >=, 10);
}

static void
test_trust (void)
{
  g_autofree char *project = g_build_filename (tmp_root, "proj", NULL);
  g_autofree char *filters = write_tmp ("proj/.rtk/filters.json", passing_pack, -1);
  g_autofree char *trust = g_build_filename (project, ".rtk", "trust.json", NULL);
  g_auto(TestCliRun) before = { 0 };
  g_auto(TestCliRun) approve = { 0 };
  g_auto(TestCliRun) after = { 0 };
  g_auto(TestCliRun) used = { 0 };
  g_auto(TestCliRun) changed = { 0 };
  g_auto(TestCliRun) revoke = { 0 };
  g_auto(TestCliRun) invalid = { 0 };
  g_auto(TestCliRun) usage = { 0 };
  g_autoptr(JsonObject) obj = NULL;

  WINNOW (&before, NULL, NULL, "trust", "status", project);
  g_assert_cmpint (before.status, ==, 1);
  g_assert_nonnull (strstr (out_str (&before), "untrusted"));

  /* untrusted project filters are not used */
  WINNOW (&used, project, NULL, "filters");
  g_assert_null (strstr (out_str (&used), "demo"));
  g_assert_nonnull (strstr (used.err, "never approved"));
  test_cli_run_clear (&used);

  WINNOW (&approve, NULL, NULL, "trust", "approve", project);
  g_assert_cmpint (approve.status, ==, 0);
  g_assert_nonnull (strstr (out_str (&approve), "demo"));
  g_assert_true (g_file_test (trust, G_FILE_TEST_EXISTS));

  WINNOW (&after, NULL, NULL, "trust", "status", "--json", project);
  g_assert_cmpint (after.status, ==, 0);
  obj = parse_json (&after);
  g_assert_cmpstr (json_object_get_string_member (obj, "state"), ==, "trusted");
  g_assert_cmpuint (strlen (json_object_get_string_member (obj, "sha256")), ==, 64);

  WINNOW (&used, project, NULL, "filters");
  g_assert_nonnull (strstr (out_str (&used), "demo"));

  /* any change to the file needs a new approval */
  g_free (write_tmp ("proj/.rtk/filters.json", "[]", -1));
  WINNOW (&changed, NULL, NULL, "trust", "status", project);
  g_assert_cmpint (changed.status, ==, 1);
  g_assert_nonnull (strstr (out_str (&changed), "changed"));

  WINNOW (&revoke, NULL, NULL, "trust", "revoke", project);
  g_assert_cmpint (revoke.status, ==, 0);
  g_assert_false (g_file_test (trust, G_FILE_TEST_EXISTS));

  /* a pack with errors is not approved without --force */
  g_free (write_tmp ("proj/.rtk/filters.json", "{\"id\":\"x\",\"rules\":{\"dropPatterns\":[\"(\"]}}", -1));
  WINNOW (&invalid, NULL, NULL, "trust", "approve", project);
  g_assert_cmpint (invalid.status, ==, 1);
  g_assert_nonnull (strstr (invalid.err, "--force"));
  g_assert_false (g_file_test (trust, G_FILE_TEST_EXISTS));

  WINNOW (&usage, NULL, NULL, "trust");
  g_assert_cmpint (usage.status, ==, 2);

  g_remove (filters);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_root = g_dir_make_tmp ("winnow-cli-XXXXXX", NULL);

  g_test_add_func ("/winnow/cli/help", test_help);
  g_test_add_func ("/winnow/cli/compress", test_compress);
  g_test_add_func ("/winnow/cli/compress-bad-input", test_compress_bad_input);
  g_test_add_func ("/winnow/cli/compress-modes", test_compress_modes);
  g_test_add_func ("/winnow/cli/compress-messages", test_compress_messages);
  g_test_add_func ("/winnow/cli/rules-and-expand", test_rules_and_expand);
  g_test_add_func ("/winnow/cli/verify-rule-packs", test_verify_rule_packs);
  g_test_add_func ("/winnow/cli/compress-huge", test_compress_huge);
  g_test_add_func ("/winnow/cli/compress-huge-message", test_compress_huge_message);
  g_test_add_func ("/winnow/cli/detect", test_detect);
  g_test_add_func ("/winnow/cli/verify", test_verify);
  g_test_add_func ("/winnow/cli/filters", test_filters);
  g_test_add_func ("/winnow/cli/trust", test_trust);

  ret = g_test_run ();

  test_util_remove_tree (tmp_root);
  g_free (tmp_root);
  return ret;
}
