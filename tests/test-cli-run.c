/* test-cli-run.c — `winnow run`, `winnow gain` and recording, run as an agent would
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/resource.h>

#include "test-util.h"
#include "winnow.h"

typedef struct
{
  char *data_dir;
  int   status;
  char *out;
  gsize out_len;
  char *err;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->data_dir = g_dir_make_tmp ("winnow-cli-run-XXXXXX", NULL);
}

static void
fixture_clear_run (Fixture *f)
{
  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  fixture_clear_run (f);
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
}

static void
run_winnow (Fixture            *f,
            const char         *input,
            const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) in = g_bytes_new (input ? input : "", input ? strlen (input) : 0);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  const char *binary = g_getenv ("WINNOW_BINARY");

  fixture_clear_run (f);
  g_assert_nonnull (binary);
  g_ptr_array_add (argv, (gpointer) binary);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "WINNOW_DATA_DIR", f->data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_set_cwd (launcher, f->data_dir);

  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, in, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (proc, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (g_subprocess_get_if_exited (proc));
  f->status = g_subprocess_get_exit_status (proc);
  f->out_len = g_bytes_get_size (out);
  f->out = f->out_len > 0 ? g_strndup (g_bytes_get_data (out, NULL), f->out_len) : g_strdup ("");
  f->err = g_bytes_get_size (err) > 0
           ? g_strndup (g_bytes_get_data (err, NULL), g_bytes_get_size (err)) : g_strdup ("");
}

#define WINNOW(f, input, ...) \
  G_STMT_START { \
    const char *args_[] = { __VA_ARGS__, NULL }; \
    run_winnow (f, input, args_); \
  } G_STMT_END

static JsonObject *
gain_json (Fixture *f)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  WINNOW (f, NULL, "gain", "--json", "--limit", "0");
  g_assert_cmpint (f->status, ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static gint64
recorded_events (Fixture *f)
{
  g_autoptr(JsonObject) gain = gain_json (f);

  return json_object_get_int_member (json_object_get_object_member (gain, "totals"), "events");
}

/* ---- run --------------------------------------------------------------------------------- */

static void
test_exit_status (Fixture       *f,
                  gconstpointer  data)
{
  WINNOW (f, NULL, "run", "--", "sh", "-c", "echo failing; exit 7");
  g_assert_cmpint (f->status, ==, 7);
  g_assert_cmpstr (f->out, ==, "failing\n");

  WINNOW (f, NULL, "run", "--shell", "--", "exit 3");
  g_assert_cmpint (f->status, ==, 3);

  /* killed by a signal: 128 + the signal, as a shell reports it */
  WINNOW (f, NULL, "run", "--", "sh", "-c", "echo before; kill -KILL $$");
  g_assert_cmpint (f->status, ==, 128 + 9);
  g_assert_cmpstr (f->out, ==, "before\n");
  WINNOW (f, NULL, "run", "--shell", "kill -TERM $$");
  g_assert_cmpint (f->status, ==, 128 + 15);

  WINNOW (f, NULL, "run", "--", "true");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, "");

  /* every run was recorded, with its exit code */
  g_assert_cmpint (recorded_events (f), ==, 5);
}

static void
test_not_found (Fixture       *f,
                gconstpointer  data)
{
  WINNOW (f, NULL, "run", "--", "winnow-no-such-command-here", "--flag");
  g_assert_cmpint (f->status, ==, 127);
  g_assert_cmpstr (f->out, ==, "");
  g_assert_nonnull (strstr (f->err, "winnow-no-such-command-here: command not found"));

  WINNOW (f, NULL, "run", "--", "./no/such/path");
  g_assert_cmpint (f->status, ==, 127);

  /* a directory is found but cannot run: 126, as a shell says */
  WINNOW (f, NULL, "run", "--", "/");
  g_assert_cmpint (f->status, ==, 126);

  WINNOW (f, NULL, "run");
  g_assert_cmpint (f->status, ==, 2);
  WINNOW (f, NULL, "run", "--mode", "turbo", "--", "true");
  g_assert_cmpint (f->status, ==, 2);
}

static void
test_no_shell (Fixture       *f,
               gconstpointer  data)
{
  /* arguments reach the command exactly: no globbing, no variables, no word splitting, and
   * the command's own options are not winnow's */
  WINNOW (f, NULL, "run", "--mode", "off", "--", "printf", "[%s]", "a b", "$HOME", "*", "--json");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, "[a b][$HOME][*][--json]\n");

  /* without `--` the command starts at the first word that is not an option */
  WINNOW (f, NULL, "run", "--mode", "off", "printf", "%s", "-x");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, "-x\n");

  /* --shell joins the words into one line for /bin/sh -c */
  WINNOW (f, NULL, "run", "--mode", "off", "--shell", "--", "echo", "$((6 * 7))", "|", "tr 4 x");
  g_assert_cmpstr (f->out, ==, "x2\n");
}

static void
test_interleaving (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *script = g_build_filename (f->data_dir, "mixed.sh", NULL);
  GString *expected = g_string_new (NULL);

  test_util_write_file (script,
                        "#!/bin/sh\n"
                        "for i in 1 2 3 4 5 6; do\n"
                        "  echo \"out $i\"\n"
                        "  echo \"err $i\" >&2\n"
                        "done\n"
                        "printf 'no newline at the end' >&2\n"
                        "exit 4\n", -1);
  g_chmod (script, 0755);

  for (guint i = 1; i <= 6; i++)
    g_string_append_printf (expected, "out %u\nerr %u\n", i, i);
  g_string_append (expected, "no newline at the end\n");

  WINNOW (f, NULL, "run", "--mode", "off", "--", script);
  g_assert_cmpint (f->status, ==, 4);
  /* one pipe for both streams: the order they were written in, all on standard output */
  g_assert_cmpstr (f->out, ==, expected->str);
  g_assert_cmpstr (f->err, ==, "");
  g_string_free (expected, TRUE);
}

static void
test_compresses (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *sample = test_util_corpus_path ("samples/pytest-fail-verbose.txt");
  g_autofree char *original = NULL;
  g_autoptr(JsonObject) gain = NULL;
  JsonObject *totals;
  JsonArray *commands;
  gsize length;

  g_assert_true (g_file_get_contents (sample, &original, &length, NULL));
  WINNOW (f, NULL, "run", "--mode", "rtk", "--", "cat", sample);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpuint (f->out_len, <, length);
  g_assert_nonnull (strstr (f->out, "FAILED"));

  gain = gain_json (f);
  totals = json_object_get_object_member (gain, "totals");
  g_assert_cmpint (json_object_get_int_member (totals, "bytesBefore"), ==, length);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensBefore"), ==,
                   winnow_tokens_count (original, length));
  g_assert_cmpint (json_object_get_int_member (totals, "tokensSaved"), >, 0);
  commands = json_object_get_array_member (gain, "commands");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (commands, 0),
                                                  "command"), ==, "cat");

  /* --no-record runs and prints the same, and records nothing */
  WINNOW (f, NULL, "run", "--no-record", "--mode", "rtk", "--", "cat", sample);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpint (recorded_events (f), ==, 1);
}

static void
test_huge_output (Fixture       *f,
                  gconstpointer  data)
{
  struct rusage usage;
  g_autoptr(JsonObject) gain = NULL;
  JsonObject *totals;
  gint64 start = g_get_monotonic_time ();

  /* 100 MB with no line end at all: the hardest case for the cuts and the token counter */
  WINNOW (f, NULL, "run", "--shell", "--", "head -c 100000000 /dev/zero | tr '\\0' x; echo; "
          "echo last line; exit 5");
  g_test_message ("100 MB through winnow run: %.1f s",
                  (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
  g_assert_cmpint (f->status, ==, 5);
  g_assert_cmpuint (f->out_len, <, 9 * 1024 * 1024);
  g_assert_true (g_str_has_suffix (f->out, "last line\n"));

  /* two-byte characters and no line end near a cut: the head and the tail end on whole
   * characters (the cut must look only at bytes it has) */
  WINNOW (f, NULL, "run", "--mode", "off", "--no-record", "--shell", "--",
          "yes é | tr -d '\\n' | head -c 20000000");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_true (g_utf8_validate (f->out, f->out_len, NULL));

  /* uncompressed, what the engine was given: the first and last 4 MiB and a marker between */
  WINNOW (f, NULL, "run", "--mode", "off", "--no-record", "--shell", "--",
          "head -c 100000000 /dev/zero | tr '\\0' x; echo; echo last line");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpuint (f->out_len, >, 8 * 1024 * 1024 - 64 * 1024);
  g_assert_cmpuint (f->out_len, <, 8 * 1024 * 1024 + 256);
  g_assert_true (g_str_has_prefix (f->out, "xxxxxxxx"));
  g_assert_nonnull (strstr (f->out, "x\n[winnow run: "));
  g_assert_nonnull (strstr (f->out, " bytes (0 lines) of output omitted here]\nxxxx"));
  g_assert_true (g_str_has_suffix (f->out, "xxxx\nlast line\n"));

  /* the largest child this test waited for was that winnow: it never held the output whole */
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &usage), ==, 0);
  g_test_message ("peak RSS of winnow run: %ld MB", usage.ru_maxrss / 1024);
#ifndef __SANITIZE_ADDRESS__
  /* (AddressSanitizer's shadow memory and quarantine make a peak meaningless) */
  g_assert_cmpint (usage.ru_maxrss, <, 400 * 1024);
#endif

  /* the event counts the output as produced, middle included */
  gain = gain_json (f);
  totals = json_object_get_object_member (gain, "totals");
  g_assert_cmpint (json_object_get_int_member (totals, "bytesBefore"), ==, 100000000 + 1 + 10);
  /* a run of x is 8 letters a token in o200k_base */
  g_assert_cmpint (json_object_get_int_member (totals, "tokensBefore"), >, 100000000 / 8 * 0.95);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensBefore"), <, 100000000 / 8 * 1.05);
}

static void
test_corrupt_database (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *db = g_build_filename (f->data_dir, "winnow.db", NULL);

  test_util_write_file (db, "this is not a database, it is a note to myself\n", -1);

  /* the command still runs and its output is printed; only the recording is lost */
  WINNOW (f, NULL, "run", "--", "sh", "-c", "echo still here; exit 6");
  g_assert_cmpint (f->status, ==, 6);
  g_assert_cmpstr (f->out, ==, "still here\n");
  g_assert_nonnull (strstr (f->err, "warning: the event was not recorded"));
  g_assert_nonnull (strstr (f->err, db));

  WINNOW (f, "plain text\n", "compress");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, "plain text\n");
  g_assert_nonnull (strstr (f->err, "warning: the event was not recorded"));

  WINNOW (f, NULL, "gain");
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->err, db));
  g_assert_nonnull (strstr (f->err, "not a Winnow database"));
}

static void
test_compress_records (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *sample = test_util_corpus_path ("samples/git-log.txt");
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) gain = NULL;
  JsonObject *filter;

  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  WINNOW (f, text, "compress", "--command", "git log");
  g_assert_cmpint (f->status, ==, 0);
  WINNOW (f, text, "compress", "--command", "git log", "--no-record");
  g_assert_cmpint (f->status, ==, 0);

  gain = gain_json (f);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (gain, "totals"),
                                               "events"), ==, 1);
  filter = json_array_get_object_element (json_object_get_array_member (gain, "filters"), 0);
  g_assert_cmpstr (json_object_get_string_member (filter, "filter"), ==, "git-log");
}

/* ---- gain -------------------------------------------------------------------------------- */

static void
seed (Fixture *f)
{
  g_autofree char *path = winnow_store_default_path (f->data_dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (path, &error);
  WinnowStoreEvent events[4];
  gint64 now = g_get_real_time ();

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      winnow_store_event_init (&events[i], "run");
      events[i].project = "/home/me/proj";
    }
  events[0].command = "git status";
  events[0].filter_id = "git-status";
  events[0].tokens_before = 1000;
  events[0].tokens_after = 200;
  events[1].command = "npm test";
  events[1].filter_id = "npm-test";
  events[1].tokens_before = 400;
  events[1].tokens_after = 100;
  events[1].time_us = now - 3 * G_TIME_SPAN_DAY;
  /* one that grew */
  events[2].command = "cat notes.md";
  events[2].project = "/home/me/odd, \"quoted\" dir";
  events[2].filter_id = "markdown";
  events[2].tokens_before = 100;
  events[2].tokens_after = 150;
  events[3].command = "make";
  events[3].tokens_before = 50;
  events[3].tokens_after = 50;
  events[3].time_us = now - 60 * G_TIME_SPAN_DAY;
  g_assert_true (winnow_store_record_many (store, events, G_N_ELEMENTS (events), &error));
  g_assert_no_error (error);
}

static void
test_gain_json (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(JsonObject) gain = NULL;
  JsonObject *totals;
  JsonArray *days;
  JsonArray *filters;
  JsonObject *last;

  seed (f);
  gain = gain_json (f);

  g_assert_cmpstr (json_object_get_string_member (gain, "counter"), ==, "o200k_base");
  g_assert_cmpstr (json_object_get_string_member (gain, "since"), ==, "all");
  totals = json_object_get_object_member (gain, "totals");
  g_assert_cmpint (json_object_get_int_member (totals, "events"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensBefore"), ==, 1550);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensAfter"), ==, 500);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensSaved"), ==, 1050);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (totals, "savedRatio"),
                                  0.6774, 1e-9);
  g_assert_cmpint (json_object_get_int_member (totals, "grownEvents"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (totals, "tokensGrown"), ==, 50);

  /* 30 days, zeros included, today last */
  days = json_object_get_array_member (gain, "days");
  g_assert_cmpuint (json_array_get_length (days), ==, 30);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (days, 29),
                                               "events"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (days, 26),
                                               "events"), >=, 0);
  g_assert_true (json_object_has_member (json_array_get_object_element (days, 0), "date"));

  /* growth is a negative saving, listed last, never left out */
  filters = json_object_get_array_member (gain, "filters");
  g_assert_cmpuint (json_array_get_length (filters), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (filters, 0),
                                                  "filter"), ==, "git-status");
  last = json_array_get_object_element (filters, 3);
  g_assert_cmpstr (json_object_get_string_member (last, "filter"), ==, "markdown");
  g_assert_cmpint (json_object_get_int_member (last, "tokensSaved"), ==, -50);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (last, "savedRatio"), -0.5, 1e-9);

  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (gain, "commands")), ==, 4);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (gain, "projects")), ==, 2);

  /* a limit of one keeps the best and the growth */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();

    WINNOW (f, NULL, "gain", "--json", "--by", "filter", "--limit", "1", "--since", "7d");
    g_assert_cmpint (f->status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, f->out, -1, NULL));
    gain = (json_object_unref (gain),
            json_object_ref (json_node_get_object (json_parser_get_root (parser))));
    g_assert_cmpstr (json_object_get_string_member (gain, "since"), ==, "7d");
    g_assert_false (json_object_has_member (gain, "days"));
    g_assert_false (json_object_has_member (gain, "commands"));
    filters = json_object_get_array_member (gain, "filters");
    g_assert_cmpuint (json_array_get_length (filters), ==, 2);
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (filters, 1),
                                                 "tokensSaved"), ==, -50);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (gain, "totals"),
                                                 "events"), ==, 3);
  }
}

static void
test_gain_csv (Fixture       *f,
               gconstpointer  data)
{
  g_auto(GStrv) lines = NULL;

  seed (f);
  WINNOW (f, NULL, "gain", "--csv", "--by", "command");
  g_assert_cmpint (f->status, ==, 0);
  lines = g_strsplit (f->out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "group,key,events,tokens_before,tokens_after,tokens_saved,"
                                 "saved_ratio,bytes_before,bytes_after,grown_events,"
                                 "tokens_grown,counter");
  g_assert_cmpstr (lines[1], ==, "command,git status,1,1000,200,800,0.8000,0,0,0,0,o200k_base");
  /* a key with a comma or a quote is quoted; growth is negative */
  g_assert_nonnull (strstr (f->out, "command,cat,1,100,150,-50,-0.5000,0,0,1,50,o200k_base\n"));
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 4 + 1);

  /* without --by every table, a total first */
  WINNOW (f, NULL, "gain", "--csv");
  g_assert_nonnull (strstr (f->out, "\ntotal,,4,1550,500,1050,0.6774,"));
  g_assert_nonnull (strstr (f->out, "\nday,"));
  g_assert_nonnull (strstr (f->out, "\nfilter,,1,50,50,0,0.0000,"));
  g_assert_nonnull (strstr (f->out, "\nproject,/home/me/proj,"));
  g_assert_nonnull (strstr (f->out, "\nproject,\"/home/me/odd, \"\"quoted\"\" dir\",1,100,150,-50,"));
}

static void
test_gain_text (Fixture       *f,
                gconstpointer  data)
{
  seed (f);
  WINNOW (f, NULL, "gain");
  g_assert_cmpint (f->status, ==, 0);
  g_test_message ("%s", f->out);
  g_assert_nonnull (strstr (f->out, "counted with o200k_base"));
  g_assert_nonnull (strstr (f->out, "1050 saved (67.7%)"));
  g_assert_nonnull (strstr (f->out, "1 of the events came out larger, by 50 tokens"));
  g_assert_nonnull (strstr (f->out, "grew by 50 (+50.0%)"));
  g_assert_nonnull (strstr (f->out, "Top filters:"));
  g_assert_nonnull (strstr (f->out, "(no filter)"));
  g_assert_nonnull (strstr (f->out, "no events on the other 28 days"));

  WINNOW (f, NULL, "gain", "--since", "yesterday");
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "not a duration"));
  WINNOW (f, NULL, "gain", "--json", "--csv");
  g_assert_cmpint (f->status, ==, 2);
  WINNOW (f, NULL, "gain", "--by", "week");
  g_assert_cmpint (f->status, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  /* first, so that no other child of this test can be the largest */
  ADD ("/winnow/cli/run/huge-output-bounded-memory", test_huge_output);
  ADD ("/winnow/cli/run/exit-status", test_exit_status);
  ADD ("/winnow/cli/run/not-found", test_not_found);
  ADD ("/winnow/cli/run/no-shell", test_no_shell);
  ADD ("/winnow/cli/run/interleaving", test_interleaving);
  ADD ("/winnow/cli/run/compresses-and-records", test_compresses);
  ADD ("/winnow/cli/run/corrupt-database", test_corrupt_database);
  ADD ("/winnow/cli/compress/records", test_compress_records);
  ADD ("/winnow/cli/gain/json", test_gain_json);
  ADD ("/winnow/cli/gain/csv", test_gain_csv);
  ADD ("/winnow/cli/gain/text", test_gain_text);
#undef ADD

  return g_test_run ();
}
