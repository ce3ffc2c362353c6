/* test-docs.c — the guides in docs/ say what the code does
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/filters.md teaches from two complete filters in docs/examples/: they must pass
 * `winnow verify --strict`, and the JSON the guide shows must be theirs. docs/agents.md gives a
 * Claude Code hook script: it is taken from the page and run on real hook input, and the command
 * it writes is run through the shell. Every JSON block of both guides must parse, and README
 * must link the guides and every screenshot it shows must exist.
 */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "test-util.h"

static void
run (TestRun                *r,
     const char         *cwd,
     const char         *input,
     const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *bindir = g_path_get_dirname (g_getenv ("WINNOW_BINARY"));
  g_autofree char *path = g_strdup_printf ("%s:%s", bindir, g_getenv ("PATH"));

  /* `winnow` on PATH is the one just built */
  g_subprocess_launcher_setenv (launcher, "PATH", path, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  if (cwd != NULL)
    {
      g_autofree char *data_dir = g_build_filename (cwd, "data", NULL);

      g_subprocess_launcher_set_cwd (launcher, cwd);
      g_subprocess_launcher_setenv (launcher, "WINNOW_DATA_DIR", data_dir, TRUE);
    }

  test_run_spawn (r, launcher, input, argv);
}

static char *
source_file (const char *relative)
{
  return g_build_filename (g_getenv ("WINNOW_SOURCE_DIR"), relative, NULL);
}

static char *
read_source (const char *relative)
{
  g_autofree char *path = source_file (relative);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The bodies of the fenced blocks of @language in @markdown, in order. */
static GPtrArray *
fenced_blocks (const char *markdown,
               const char *language)
{
  g_autofree char *opening = g_strdup_printf ("\n```%s\n", language);
  GPtrArray *blocks = g_ptr_array_new_with_free_func (g_free);
  const char *p = markdown;

  while ((p = strstr (p, opening)) != NULL)
    {
      const char *body = p + strlen (opening);
      const char *end = strstr (body, "\n```");

      g_assert_nonnull (end);
      g_ptr_array_add (blocks, g_strndup (body, end + 1 - body));
      p = end + 4;
    }

  return blocks;
}

static JsonNode *
parse (const char *text,
       const char *where)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("%s: a JSON block does not parse (%s):\n%s", where, error->message, text);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_examples_verify (void)
{
  g_autofree char *examples = source_file ("docs/examples");
  const char *argv[] = { g_getenv ("WINNOW_BINARY"), "verify", "--strict", "--no-project", examples,
                         NULL };
  g_autofree char *tmp = g_dir_make_tmp ("winnow-docs-XXXXXX", NULL);
  g_auto(TestRun) r = { 0 };

  run (&r, tmp, "", argv);
  if (r.status != 0)
    g_error ("the guide's example filters fail winnow verify --strict:\n%s%s", r.out, r.err);
  g_assert_nonnull (strstr (r.out, " passed, 0 failed"));
  test_util_remove_tree (tmp);
}

static void
test_json_blocks_parse (void)
{
  const char *guides[] = { "docs/filters.md", "docs/agents.md" };

  for (guint i = 0; i < G_N_ELEMENTS (guides); i++)
    {
      g_autofree char *text = read_source (guides[i]);
      g_autoptr(GPtrArray) blocks = fenced_blocks (text, "json");

      g_assert_cmpuint (blocks->len, >, 0);
      for (guint b = 0; b < blocks->len; b++)
        json_node_unref (parse (blocks->pdata[b], guides[i]));
    }
}

/* Every filter the guide shows whose id names an example file is that file, tests aside. */
static void
test_snippets_are_the_examples (void)
{
  g_autofree char *guide = read_source ("docs/filters.md");
  g_autoptr(GPtrArray) blocks = fenced_blocks (guide, "json");
  guint compared = 0;

  for (guint b = 0; b < blocks->len; b++)
    {
      g_autoptr(JsonNode) shown = parse (blocks->pdata[b], "docs/filters.md");
      g_autoptr(JsonNode) example = NULL;
      g_autofree char *relative = NULL;
      g_autofree char *example_text = NULL;
      JsonObject *object;
      const char *id;

      if (!JSON_NODE_HOLDS_OBJECT (shown))
        continue;
      object = json_node_get_object (shown);
      id = json_object_get_string_member_with_default (object, "id", "");
      if (!g_str_has_prefix (id, "example-"))
        continue;

      relative = g_strdup_printf ("docs/examples/%s.json", id);
      example_text = read_source (relative);
      example = parse (example_text, relative);
      if (!json_object_has_member (object, "tests"))
        json_object_remove_member (json_node_get_object (example), "tests");

      if (!json_node_equal (shown, example))
        g_error ("docs/filters.md shows %s differently from %s", id, relative);
      compared++;
    }

  g_assert_cmpuint (compared, ==, 2);
}

/* The hook script of docs/agents.md, taken from the page, on the input Claude Code sends. */
static void
test_hook_snippet (void)
{
  g_autofree char *jq = g_find_program_in_path ("jq");
  g_autofree char *guide = read_source ("docs/agents.md");
  g_autofree char *tmp = NULL;
  g_autofree char *hook = NULL;
  g_autoptr(GError) error = NULL;
  const char *marker = strstr (guide, "<!-- winnow-hook -->\n```sh\n");
  const char *script;
  const char *end;

  if (jq == NULL)
    {
      g_test_skip ("jq is not installed");
      return;
    }

  g_assert_nonnull (marker);
  script = strchr (strchr (marker, '\n') + 1, '\n') + 1;
  end = strstr (script, "\n```");
  g_assert_nonnull (end);

  tmp = g_dir_make_tmp ("winnow-hook-XXXXXX", NULL);
  hook = g_build_filename (tmp, "winnow-hook", NULL);
  g_file_set_contents_full (hook, script, end + 1 - script, G_FILE_SET_CONTENTS_NONE, 0755,
                            &error);
  g_assert_no_error (error);

  /* a matched command is rewritten, its other fields kept, and the run allowed */
  {
    const char *argv[] = { hook, NULL };
    g_auto(TestRun) r = { 0 };
    g_autoptr(JsonNode) answer = NULL;
    JsonObject *output;
    JsonObject *updated;

    run (&r, tmp, "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                  "\"tool_input\":{\"command\":\"make -C c-app 2>&1 | tail -3\","
                  "\"description\":\"build\"}}", argv);
    g_assert_cmpint (r.status, ==, 0);
    answer = parse (r.out, "winnow-hook");
    output = json_object_get_object_member (json_node_get_object (answer), "hookSpecificOutput");
    g_assert_cmpstr (json_object_get_string_member (output, "hookEventName"), ==, "PreToolUse");
    g_assert_cmpstr (json_object_get_string_member (output, "permissionDecision"), ==, "allow");
    updated = json_object_get_object_member (output, "updatedInput");
    g_assert_cmpstr (json_object_get_string_member (updated, "command"), ==,
                     "winnow run --shell -- 'make -C c-app 2>&1 | tail -3'");
    g_assert_cmpstr (json_object_get_string_member (updated, "description"), ==, "build");
  }

  /* anything else, and a command already wrapped, is left alone */
  {
    const char *argv[] = { hook, NULL };
    const char *inputs[] = {
      "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls -la\"}}",
      "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"make && winnow run -- make\"}}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
      {
        g_auto(TestRun) r = { 0 };

        run (&r, tmp, inputs[i], argv);
        g_assert_cmpint (r.status, ==, 0);
        g_assert_cmpstr (r.out, ==, "{}\n");
      }
  }

  /* the rewritten command, quotes and all, runs what the agent wrote, through winnow */
  {
    const char *argv[] = { hook, NULL };
    g_auto(TestRun) r = { 0 };
    g_auto(TestRun) ran = { 0 };
    g_autoptr(JsonNode) answer = NULL;
    g_autofree char *make = g_find_program_in_path ("make");
    const char *command;

    run (&r, tmp, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
                  "\"make -s --eval 'x: ; @echo \\\"it'\\\\''s done\\\"' x\"}}", argv);
    g_assert_cmpint (r.status, ==, 0);
    answer = parse (r.out, "winnow-hook");
    command = json_object_get_string_member (
      json_object_get_object_member (
        json_object_get_object_member (json_node_get_object (answer), "hookSpecificOutput"),
        "updatedInput"), "command");
    g_assert_true (g_str_has_prefix (command, "winnow run --shell -- "));

    if (make == NULL)
      g_test_message ("make is not installed; the rewritten command is not run");
    else
      {
        const char *sh_argv[] = { "/bin/sh", "-c", command, NULL };

        run (&ran, tmp, "", sh_argv);
        g_assert_cmpstr (ran.err, ==, "");
        g_assert_cmpint (ran.status, ==, 0);
        g_assert_cmpstr (ran.out, ==, "it's done\n");
      }
  }

  test_util_remove_tree (tmp);
}

static void
test_readme (void)
{
  g_autofree char *readme = read_source ("README.md");
  g_autoptr(GRegex) image = g_regex_new ("!\\[[^]]*\\]\\(([^)]+)\\)", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  guint images = 0;

  g_assert_nonnull (strstr (readme, "(docs/filters.md)"));
  g_assert_nonnull (strstr (readme, "(docs/agents.md)"));

  for (g_regex_match (image, readme, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *relative = g_match_info_fetch (match, 1);
      g_autofree char *path = source_file (relative);
      g_autofree char *data = NULL;
      gsize length = 0;

      if (!g_file_get_contents (path, &data, &length, NULL))
        g_error ("README shows %s, which is not in the tree", relative);
      g_assert_cmpuint (length, >, 8);
      g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
      if (length > 250 * 1024)
        g_error ("%s is %" G_GSIZE_FORMAT " bytes; keep screenshots small", relative, length);
      images++;
    }

  g_assert_cmpuint (images, >=, 6);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_assert_nonnull (g_getenv ("WINNOW_BINARY"));
  g_assert_nonnull (g_getenv ("WINNOW_SOURCE_DIR"));

  g_test_add_func ("/docs/examples-verify", test_examples_verify);
  g_test_add_func ("/docs/json-blocks-parse", test_json_blocks_parse);
  g_test_add_func ("/docs/snippets-are-the-examples", test_snippets_are_the_examples);
  g_test_add_func ("/docs/hook-snippet", test_hook_snippet);
  g_test_add_func ("/docs/readme", test_readme);

  return g_test_run ();
}
