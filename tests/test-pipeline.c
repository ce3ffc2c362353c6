/* test-pipeline.c — modes, stacked steps, conversations, tool results and receipts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

typedef struct
{
  char           *data_dir;
  WinnowContext  *context;
  WinnowPipeline *pipeline;
} Fixture;

static void
write_settings (Fixture    *f,
                const char *json)
{
  g_autofree char *path = g_build_filename (f->data_dir, "settings.json", NULL);

  test_util_write_file (path, json, -1);
  g_clear_object (&f->pipeline);
  g_clear_object (&f->context);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->pipeline = winnow_pipeline_new (f->context);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->data_dir = g_dir_make_tmp ("winnow-pipeline-XXXXXX", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->pipeline = winnow_pipeline_new (f->context);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->pipeline);
  g_clear_object (&f->context);
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
}

static char *
sample (const char *name)
{
  g_autofree char *path = test_util_corpus_path (name);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static const char *prose =
  "Hi there! Thanks so much for your help. Basically, I think the build is really slow "
  "because the cache in `~/.cache/ccache` is stale. Could you please take a look at "
  "https://ci.example.com/runs/42 when you get a chance?";

static gboolean
has_decision (WinnowPipelineResult *result,
              guint                 part,
              const char           *action_prefix)
{
  for (guint i = 0; i < winnow_pipeline_result_get_n_decisions (result); i++)
    {
      const WinnowDecision *d = winnow_pipeline_result_get_decision (result, i);

      if (d->part == part && g_str_has_prefix (d->action, action_prefix))
        return TRUE;
    }
  return FALSE;
}

static WinnowPipelineResult *
run_text (Fixture    *f,
          const char *text,
          int         mode,
          const char *command)
{
  g_autoptr(GError) error = NULL;
  WinnowPipelineRequest request;
  WinnowPipelineResult *result;

  winnow_pipeline_request_init (&request);
  request.mode = mode;
  request.command = command;
  result = winnow_pipeline_run_text (f->pipeline, text, -1, &request, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);

  return result;
}

static void
test_modes_on_text (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *log = sample ("samples/pytest-fail-verbose.txt");
  g_autoptr(WinnowPipelineResult) off = run_text (f, prose, WINNOW_PIPELINE_MODE_OFF, NULL);
  g_autoptr(WinnowPipelineResult) caveman = run_text (f, prose, WINNOW_PIPELINE_MODE_CAVEMAN, NULL);
  g_autoptr(WinnowPipelineResult) rtk_prose = run_text (f, prose, WINNOW_PIPELINE_MODE_RTK, NULL);
  g_autoptr(WinnowPipelineResult) stacked_prose = run_text (f, prose, WINNOW_PIPELINE_MODE_STACKED,
                                                            NULL);
  g_autoptr(WinnowPipelineResult) stacked_log = run_text (f, log, WINNOW_PIPELINE_MODE_STACKED,
                                                          "pytest -v tests");
  g_autoptr(WinnowPipelineResult) rtk_log = run_text (f, log, WINNOW_PIPELINE_MODE_RTK,
                                                      "pytest -v tests");
  const char *text;

  g_assert_cmpstr (winnow_pipeline_result_get_text (off, NULL), ==, prose);
  g_assert_cmpuint (winnow_pipeline_result_get_n_steps (off), ==, 0);

  /* caveman rewrites prose and keeps its technical tokens */
  text = winnow_pipeline_result_get_text (caveman, NULL);
  g_assert_cmpstr (text, !=, prose);
  g_assert_nonnull (strstr (text, "`~/.cache/ccache`"));
  g_assert_nonnull (strstr (text, "https://ci.example.com/runs/42"));
  g_assert_true (has_decision (caveman, 0, "caveman:en/full"));

  /* rtk leaves prose alone; stacked = rtk then caveman */
  g_assert_cmpstr (winnow_pipeline_result_get_text (rtk_prose, NULL), ==, prose);
  g_assert_cmpstr (winnow_pipeline_result_get_text (stacked_prose, NULL), ==, text);
  g_assert_cmpuint (winnow_pipeline_result_get_n_steps (stacked_prose), ==, 2);
  g_assert_cmpstr (winnow_pipeline_result_get_step (stacked_prose, 0)->engine, ==, "rtk");
  g_assert_cmpstr (winnow_pipeline_result_get_step (stacked_prose, 1)->engine, ==, "caveman");

  /* command output: RTK filters it, Caveman never touches it */
  g_assert_cmpstr (winnow_pipeline_result_get_text (stacked_log, NULL), ==,
                   winnow_pipeline_result_get_text (rtk_log, NULL));
  g_assert_cmpuint (winnow_pipeline_result_get_step (stacked_log, 1)->parts_changed, ==, 0);
  g_assert_true (has_decision (stacked_log, 0, "rtk:"));
  g_assert_nonnull (winnow_pipeline_result_get_rtk_compression (stacked_log));
}

static void
test_step_breakdown (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(WinnowPipelineResult) result = run_text (f, prose, WINNOW_PIPELINE_MODE_STACKED, NULL);
  WinnowReceipt *receipt = winnow_pipeline_result_get_receipt (result);
  const WinnowStepReport *rtk = winnow_pipeline_result_get_step (result, 0);
  const WinnowStepReport *caveman = winnow_pipeline_result_get_step (result, 1);

  g_assert_cmpuint (winnow_receipt_get_tokens_before (receipt), ==, winnow_tokens_count (prose, -1));
  g_assert_cmpuint (rtk->tokens_before, ==, winnow_receipt_get_tokens_before (receipt));
  g_assert_cmpuint (rtk->tokens_after, ==, caveman->tokens_before);
  g_assert_cmpuint (caveman->tokens_after, ==, winnow_receipt_get_tokens_after (receipt));
  g_assert_cmpuint (caveman->tokens_after, <, caveman->tokens_before);
  g_assert_cmpuint (winnow_receipt_get_tokens_after (receipt), ==,
                    winnow_tokens_count (winnow_pipeline_result_get_text (result, NULL), -1));
  g_assert_cmpuint (winnow_receipt_get_saved_tokens (receipt), ==,
                    winnow_receipt_get_tokens_before (receipt) - winnow_receipt_get_tokens_after (receipt));
  g_assert_cmpstr (winnow_receipt_get_intensity (receipt), ==, "standard+full");
  g_assert_cmpstr (winnow_receipt_get_counter (receipt), ==, winnow_tokens_counter_name ());
}

static void
test_custom_steps (Fixture       *f,
                   gconstpointer  data)
{
  WinnowPipelineStep steps[] = { { (char *) "caveman", (char *) "lite" },
                                 { (char *) "caveman", (char *) "ultra" } };
  g_autoptr(WinnowPipelineResult) result = NULL;
  WinnowPipelineRequest request;

  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_STACKED;
  request.steps = steps;
  request.n_steps = G_N_ELEMENTS (steps);
  result = winnow_pipeline_run_text (f->pipeline, prose, -1, &request, NULL);

  g_assert_cmpuint (winnow_pipeline_result_get_n_steps (result), ==, 2);
  g_assert_cmpstr (winnow_pipeline_result_get_step (result, 0)->intensity, ==, "lite");
  g_assert_cmpstr (winnow_pipeline_result_get_step (result, 1)->intensity, ==, "ultra");
  g_assert_cmpuint (winnow_pipeline_result_get_step (result, 0)->parts_changed, ==, 1);
}

static void
test_auto_trigger (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(WinnowPipelineResult) small = NULL;
  g_autoptr(WinnowPipelineResult) large = NULL;
  g_autoptr(WinnowPipelineResult) explicit = NULL;
  g_autofree char *big = g_strjoin (" ", prose, prose, prose, prose, NULL);

  write_settings (f, "{\"defaultMode\":\"off\",\"autoTriggerMode\":\"caveman\","
                     "\"autoTriggerTokens\":100}");

  small = run_text (f, prose, -1, NULL);
  g_assert_cmpstr (winnow_pipeline_result_get_mode (small), ==, "off");
  g_assert_false (winnow_pipeline_result_get_auto_triggered (small));
  g_assert_cmpstr (winnow_pipeline_result_get_text (small, NULL), ==, prose);

  large = run_text (f, big, -1, NULL);
  g_assert_cmpstr (winnow_pipeline_result_get_mode (large), ==, "caveman");
  g_assert_true (winnow_pipeline_result_get_auto_triggered (large));
  g_assert_cmpstr (winnow_pipeline_result_get_text (large, NULL), !=, big);

  /* an explicit mode is never overridden */
  explicit = run_text (f, big, WINNOW_PIPELINE_MODE_OFF, NULL);
  g_assert_false (winnow_pipeline_result_get_auto_triggered (explicit));
  g_assert_cmpstr (winnow_pipeline_result_get_text (explicit, NULL), ==, big);
}

static void
test_not_utf8 (Fixture       *f,
               gconstpointer  data)
{
  const char bytes[] = "caf\xe9 \x00 Basically, thanks!";
  g_autoptr(WinnowPipelineResult) result = NULL;
  gsize length;
  const char *out;

  result = winnow_pipeline_run_text (f->pipeline, bytes, sizeof bytes - 1, NULL, NULL);
  out = winnow_pipeline_result_get_text (result, &length);
  g_assert_cmpuint (length, ==, sizeof bytes - 1);
  g_assert_cmpmem (out, length, bytes, sizeof bytes - 1);
  g_assert_true (has_decision (result, 0, "kept:not-utf8"));

  /* plain text wrapped by the caller is still checked (only run_text's own is known good) */
  {
    g_autoptr(WinnowConversation) conversation =
      winnow_conversation_new_for_text ("caf\xe9\ncaf\xe9\ncaf\xe9\n", -1, WINNOW_MESSAGE_ROLE_TOOL);
    g_autoptr(WinnowPipelineResult) wrapped = NULL;
    WinnowPipelineRequest request;

    winnow_pipeline_request_init (&request);
    request.mode = WINNOW_PIPELINE_MODE_RTK;
    wrapped = winnow_pipeline_run (f->pipeline, conversation, &request, NULL);
    g_assert_true (has_decision (wrapped, 0, "kept:not-utf8"));
  }
}

/* ---- conversations ----------------------------------------------------------------------- */

static char *
openai_conversation (const char *pytest_output,
                     const char *second_command,
                     const char *second_output)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, "gpt-test");
  json_builder_set_member_name (b, "messages");
  json_builder_begin_array (b);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "role");
  json_builder_add_string_value (b, "system");
  json_builder_set_member_name (b, "content");
  json_builder_add_string_value (b, "You are a helpful assistant. Please always be concise.");
  json_builder_end_object (b);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "role");
  json_builder_add_string_value (b, "user");
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "text");
  json_builder_set_member_name (b, "text");
  json_builder_add_string_value (b, prose);
  json_builder_end_object (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "image_url");
  json_builder_set_member_name (b, "image_url");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "url");
  json_builder_add_string_value (b, "data:image/png;base64,AAAA");
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  for (int i = 0; i < 2; i++)
    {
      g_autofree char *id = g_strdup_printf ("call_%d", i);
      g_autofree char *args = g_strdup_printf ("{\"command\": \"%s\", \"cwd\": \"/src/app\"}",
                                               i == 0 ? "pytest -v tests" : second_command);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "role");
      json_builder_add_string_value (b, "assistant");
      json_builder_set_member_name (b, "content");
      json_builder_add_null_value (b);
      json_builder_set_member_name (b, "tool_calls");
      json_builder_begin_array (b);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, id);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, "function");
      json_builder_set_member_name (b, "function");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, "run_in_terminal");
      json_builder_set_member_name (b, "arguments");
      json_builder_add_string_value (b, args);
      json_builder_end_object (b);
      json_builder_end_object (b);
      json_builder_end_array (b);
      json_builder_end_object (b);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "role");
      json_builder_add_string_value (b, "tool");
      json_builder_set_member_name (b, "tool_call_id");
      json_builder_add_string_value (b, id);
      json_builder_set_member_name (b, "content");
      json_builder_add_string_value (b, i == 0 ? pytest_output : second_output);
      json_builder_end_object (b);
    }

  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

static JsonNode *
parse_output (WinnowPipelineResult *result)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, winnow_pipeline_result_get_text (result, NULL), -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static WinnowPipelineResult *
run_messages (Fixture    *f,
              const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowConversation) conversation = NULL;
  WinnowPipelineRequest request;
  WinnowPipelineResult *result;

  conversation = winnow_conversation_new_from_json (json, -1, "messages.json", &error);
  g_assert_no_error (error);
  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_STACKED;
  result = winnow_pipeline_run (f->pipeline, conversation, &request, &error);
  g_assert_no_error (error);

  return result;
}

static void
test_openai_conversation (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *pytest = sample ("samples/pytest-fail-verbose.txt");
  g_autofree char *git_log = sample ("samples/git-log.txt");
  g_autofree char *json = openai_conversation (pytest, "git log", git_log);
  g_autoptr(WinnowConversation) conversation = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(JsonNode) out = NULL;
  JsonArray *messages;
  const char *tool0;
  const char *user_text;

  conversation = winnow_conversation_new_from_json (json, -1, NULL, NULL);
  g_assert_cmpuint (winnow_conversation_get_n_messages (conversation), ==, 6);
  g_assert_cmpuint (winnow_conversation_get_n_parts (conversation), ==, 4);
  g_assert_true (winnow_conversation_get_part_is_tool_result (conversation, 2));
  g_assert_cmpstr (winnow_conversation_get_part_command (conversation, 2), ==, "pytest -v tests");
  g_assert_cmpstr (winnow_conversation_get_part_cwd (conversation, 2), ==, "/src/app");
  g_assert_cmpstr (winnow_conversation_get_part_tool_name (conversation, 2), ==, "run_in_terminal");
  g_assert_cmpstr (winnow_conversation_get_part_path (conversation, 1), ==, "messages[1].content[0].text");

  result = run_messages (f, json);
  out = parse_output (result);

  /* the same shape: model kept, image kept, tool calls kept */
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (out), "model"), ==, "gpt-test");
  messages = json_object_get_array_member (json_node_get_object (out), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_array_get_object_element (json_object_get_array_member (
                       json_array_get_object_element (messages, 1), "content"), 1), "image_url"), "url"),
                   ==, "data:image/png;base64,AAAA");
  g_assert_true (json_object_has_member (json_array_get_object_element (messages, 2), "tool_calls"));

  /* the user's prose went through Caveman, with its tokens intact */
  user_text = json_object_get_string_member (json_array_get_object_element (
                json_object_get_array_member (json_array_get_object_element (messages, 1), "content"), 0),
                "text");
  g_assert_cmpstr (user_text, !=, prose);
  g_assert_nonnull (strstr (user_text, "https://ci.example.com/runs/42"));
  g_assert_true (has_decision (result, 1, "caveman:"));

  /* the pytest output: filtered knowing its command, under a banner, failures kept */
  tool0 = json_object_get_string_member (json_array_get_object_element (messages, 3), "content");
  g_assert_true (g_str_has_prefix (tool0, "[winnow: "));
  g_assert_nonnull (strstr (tool0, " chars · ask for the full output if you need it]\n"));
  g_assert_nonnull (strstr (tool0, "FAILED"));
  g_assert_cmpuint (strlen (tool0), <, strlen (pytest));
  g_assert_true (has_decision (result, 2, "rtk:"));

  g_assert_cmpuint (winnow_receipt_get_tokens_after (winnow_pipeline_result_get_receipt (result)), <,
                    winnow_receipt_get_tokens_before (winnow_pipeline_result_get_receipt (result)));
}

static void
test_tool_result_rules (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *pytest = sample ("samples/pytest-fail-verbose.txt");
  g_autofree char *short_json = openai_conversation ("3 passed", "git status", "nothing to commit");
  g_autoptr(GString) json_doc = g_string_new ("{\"items\": [");
  g_autofree char *json_json = NULL;
  g_autoptr(WinnowPipelineResult) short_result = NULL;
  g_autoptr(WinnowPipelineResult) json_result = NULL;

  short_result = run_messages (f, short_json);
  g_assert_true (has_decision (short_result, 2, "kept:short"));
  g_assert_true (has_decision (short_result, 3, "kept:short"));

  for (int i = 0; i < 200; i++)
    g_string_append_printf (json_doc, "%s{\"id\": %d, \"name\": \"item %d\"}", i ? ", " : "", i, i);
  g_string_append (json_doc, "]}");
  json_json = openai_conversation (pytest, "curl -s https://api.example.com/items", json_doc->str);
  json_result = run_messages (f, json_json);
  g_assert_true (has_decision (json_result, 3, "protected:json"));

  g_assert_cmpstr (winnow_tool_result_protected_format ("---\nkind: Pod\n", -1), ==, "yaml");
  g_assert_cmpstr (winnow_tool_result_protected_format ("[package]\nname = \"x\"\n", -1), ==, "toml");
  g_assert_cmpstr (winnow_tool_result_protected_format ("  [1, 2, 3]", -1), ==, "json");
  g_assert_null (winnow_tool_result_protected_format ("[INFO] Building\n[INFO] done", -1));
  g_assert_null (winnow_tool_result_protected_format ("{ not json", -1));
}

static void
test_same_output_in_conversation (Fixture       *f,
                                  gconstpointer  data)
{
  g_autofree char *pytest = sample ("samples/pytest-fail-verbose.txt");
  g_autofree char *same = openai_conversation (pytest, "pytest -v tests", pytest);
  g_autofree char *different = openai_conversation (pytest, "pytest -v tests",
                                                    "tests/test_a.py::test_x PASSED\n");
  g_autoptr(WinnowPipelineResult) repeated = run_messages (f, same);
  g_autoptr(WinnowPipelineResult) changed = run_messages (f, different);
  g_autoptr(JsonNode) out = parse_output (repeated);
  JsonArray *messages = json_object_get_array_member (json_node_get_object (out), "messages");

  g_assert_true (has_decision (repeated, 2, "rtk:"));
  g_assert_true (has_decision (repeated, 3, "cache:same-output"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 5), "content"),
                   ==, "[winnow: same output as the previous run of `pytest -v tests` above]");
  g_assert_false (has_decision (changed, 3, "cache:"));
}

static void
test_anthropic_conversation (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *log = sample ("samples/git-log.txt");
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  g_autoptr(WinnowConversation) conversation = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(JsonNode) out = NULL;
  JsonObject *request;
  JsonObject *block;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "system");
  json_builder_add_string_value (b, "Please note that you are a careful coding agent.");
  json_builder_set_member_name (b, "messages");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "role");
  json_builder_add_string_value (b, "assistant");
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "text");
  json_builder_set_member_name (b, "text");
  json_builder_add_string_value (b, "Sure! Let me take a look at the history first.");
  json_builder_end_object (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "tool_use");
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, "toolu_1");
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, "Bash");
  json_builder_set_member_name (b, "input");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "command");
  json_builder_add_string_value (b, "git log");
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "role");
  json_builder_add_string_value (b, "user");
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "tool_result");
  json_builder_set_member_name (b, "tool_use_id");
  json_builder_add_string_value (b, "toolu_1");
  json_builder_set_member_name (b, "is_error");
  json_builder_add_boolean_value (b, FALSE);
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "text");
  json_builder_set_member_name (b, "text");
  json_builder_add_string_value (b, log);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json = json_generator_to_data (gen, NULL);

  conversation = winnow_conversation_new_from_json (json, -1, NULL, NULL);
  g_assert_cmpuint (winnow_conversation_get_n_parts (conversation), ==, 3);
  g_assert_cmpint (winnow_conversation_get_part_role (conversation, 0), ==, WINNOW_MESSAGE_ROLE_SYSTEM);
  g_assert_cmpstr (winnow_conversation_get_part_path (conversation, 0), ==, "system");
  g_assert_true (winnow_conversation_get_part_is_tool_result (conversation, 2));
  g_assert_cmpstr (winnow_conversation_get_part_command (conversation, 2), ==, "git log");
  g_assert_cmpstr (winnow_conversation_get_part_path (conversation, 2), ==,
                   "messages[1].content[0].content[0].text");

  result = run_messages (f, json);
  out = parse_output (result);
  request = json_node_get_object (out);
  g_assert_cmpstr (json_object_get_string_member (request, "system"), !=,
                   "Please note that you are a careful coding agent.");
  block = json_array_get_object_element (json_object_get_array_member (
            json_array_get_object_element (json_object_get_array_member (request, "messages"), 1),
            "content"), 0);
  g_assert_false (json_object_get_boolean_member (block, "is_error"));
  g_assert_cmpstr (json_object_get_string_member (block, "tool_use_id"), ==, "toolu_1");
  g_assert_true (has_decision (result, 2, "rtk:"));
}

static void
test_bad_messages (void)
{
  static const struct { const char *json; const char *fragment; } cases[] = {
    { "not json", "not valid JSON" },
    { "42", "expected an array of messages" },
    { "{\"model\":\"x\"}", "“messages” array" },
    { "[{\"content\":\"hi\"}]", "[0].role" },
    { "[{\"role\":\"robot\",\"content\":\"hi\"}]", "robot" },
    { "[\"hi\"]", "[0]: a message must be an object" },
  };
  g_autoptr(GString) deep = g_string_new ("[");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WinnowConversation) conversation =
        winnow_conversation_new_from_json (cases[i].json, -1, "in.json", &error);

      g_assert_null (conversation);
      g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].fragment);
    }

  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(WinnowConversation) conversation =
      winnow_conversation_new_from_json (deep->str, -1, "deep.json", &error);

    g_assert_null (conversation);
    g_assert_nonnull (strstr (error->message, "nest deeper"));
  }
}

static void
test_never_larger (Fixture       *f,
                   gconstpointer  data)
{
  /* 1100 distinct short lines: no filter shrinks them, and a banner would only add */
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *json = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(JsonNode) out = NULL;

  for (int i = 0; g_utf8_strlen (text->str, -1) < 1100; i++)
    g_string_append_printf (text, "row %d value %d\n", i, i * 7);
  json = openai_conversation (text->str, "cat data.txt", text->str);
  result = run_messages (f, json);
  out = parse_output (result);

  for (guint i = 0; i < winnow_pipeline_result_get_n_decisions (result); i++)
    g_test_message ("%s", winnow_pipeline_result_get_decision (result, i)->action);
  g_assert_cmpuint (winnow_receipt_get_tokens_after (winnow_pipeline_result_get_receipt (result)), <=,
                    winnow_receipt_get_tokens_before (winnow_pipeline_result_get_receipt (result)));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (json_node_get_object (out), "messages"), 3),
                     "content"), ==, text->str);
}

static void
test_structure_step (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *pytest = sample ("samples/pytest-fail-verbose.txt");
  g_autoptr(GString) json_doc = g_string_new ("{\n  \"items\": [\n");
  g_autofree char *conversation_json = NULL;
  g_autoptr(WinnowConversation) conversation = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(JsonNode) out = NULL;
  WinnowPipelineStep steps[] = { { (char *) "rtk", (char *) "standard" },
                                 { (char *) "structure", (char *) "lossless" } };
  WinnowPipelineRequest request;
  const char *minified;

  for (int i = 0; i < 60; i++)
    g_string_append_printf (json_doc, "    %s{\n      \"id\": %d,\n      \"name\": \"item %d\"\n    }\n",
                            i ? "," : "", i, i);
  g_string_append (json_doc, "  ]\n}\n");
  conversation_json = openai_conversation (pytest, "curl -s https://api.example.com/items",
                                           json_doc->str);
  conversation = winnow_conversation_new_from_json (conversation_json, -1, NULL, NULL);

  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_STACKED;
  request.steps = steps;
  request.n_steps = G_N_ELEMENTS (steps);
  result = winnow_pipeline_run (f->pipeline, conversation, &request, NULL);
  out = parse_output (result);

  /* the JSON tool result is protected from filters, but the adapters re-encode it */
  g_assert_true (has_decision (result, 3, "protected:json"));
  g_assert_true (has_decision (result, 3, "adapter:json"));
  g_assert_false (has_decision (result, 3, "rtk:"));
  minified = json_object_get_string_member (json_array_get_object_element (
               json_object_get_array_member (json_node_get_object (out), "messages"), 5), "content");
  g_assert_true (g_str_has_prefix (minified, "[winnow: adapter:json"));
  g_assert_nonnull (strstr (minified, "{\"items\":[{\"id\":0,\"name\":\"item 0\"}"));
  g_assert_nonnull (strstr (minified, "{\"id\":59,\"name\":\"item 59\"}"));
}

/* A log pasted into a user message without a fence is not prose: Caveman leaves it alone. */
static void
test_pasted_log (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *log = sample ("samples/pytest-fail-verbose.txt");
  g_autofree char *message = g_strconcat ("Basically this is really failing:\n", log, NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;

  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "role");
  json_builder_add_string_value (b, "user");
  json_builder_set_member_name (b, "content");
  json_builder_add_string_value (b, message);
  json_builder_end_object (b);
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json = json_generator_to_data (gen, NULL);

  result = run_messages (f, json);
  g_assert_true (has_decision (result, 0, "caveman:skipped"));
  g_assert_cmpuint (winnow_receipt_get_tokens_after (winnow_pipeline_result_get_receipt (result)), ==,
                    winnow_receipt_get_tokens_before (winnow_pipeline_result_get_receipt (result)));
}

/* Plain text with no role: a written message that talks about git and failures, around a
 * fenced git session, is prose (the detector alone took it for git output, and Caveman never
 * ran); a log without a known tool is still command output; mode caveman means prose, mode
 * rtk command output as the detector says; a part Caveman passes over says why. */
static void
test_guessed_role (Fixture       *f,
                   gconstpointer  data)
{
  static const char *message =
    "Great question! I'd be happy to help. Your branch `feature/receipts` was created from "
    "`main` three weeks ago, and since then the test suite has been failing on CI with an "
    "error in `engine/receipt.c`. Basically, you should rebase it onto the latest `main`:\n"
    "\n"
    "```sh\n"
    "git fetch origin\n"
    "git rebase origin/main\n"
    "error: could not apply 3f2a1c4... receipts: count tokens\n"
    "```\n"
    "\n"
    "**Note:** if other people have already based work on your branch, do not rebase it; "
    "merge `main` into it instead. I hope this helps!\n";
  g_autofree char *log = sample ("samples/docker-logs.txt");
  g_autoptr(WinnowPipelineResult) stacked = run_text (f, message, WINNOW_PIPELINE_MODE_STACKED,
                                                      NULL);
  g_autoptr(WinnowPipelineResult) caveman = run_text (f, message, WINNOW_PIPELINE_MODE_CAVEMAN,
                                                      NULL);
  g_autoptr(WinnowPipelineResult) rtk = run_text (f, message, WINNOW_PIPELINE_MODE_RTK, NULL);
  g_autoptr(WinnowPipelineResult) stacked_log = run_text (f, log, WINNOW_PIPELINE_MODE_STACKED,
                                                          NULL);
  g_autoptr(WinnowPipelineResult) tool = NULL;
  g_autoptr(GError) error = NULL;
  WinnowPipelineRequest request;
  const char *text;

  g_assert_true (has_decision (stacked, 0, "caveman:en/"));
  g_assert_false (has_decision (stacked, 0, "rtk:"));
  text = winnow_pipeline_result_get_text (stacked, NULL);
  g_assert_null (strstr (text, "Great question"));
  g_assert_nonnull (strstr (text, "do not rebase"));
  g_assert_nonnull (strstr (text, "error: could not apply 3f2a1c4... receipts: count tokens\n"));

  g_assert_true (has_decision (caveman, 0, "caveman:en/"));

  /* mode rtk asks for a command-output filter: the detector's call stands */
  g_assert_true (has_decision (rtk, 0, "rtk:"));

  g_assert_true (has_decision (stacked_log, 0, "rtk:"));
  g_assert_false (has_decision (stacked_log, 0, "caveman:en/"));

  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_CAVEMAN;
  request.role = WINNOW_MESSAGE_ROLE_TOOL;
  tool = winnow_pipeline_run_text (f->pipeline, message, -1, &request, &error);
  g_assert_no_error (error);
  g_assert_true (has_decision (tool, 0, "caveman:skipped"));
  g_assert_cmpstr (winnow_pipeline_result_get_text (tool, NULL), ==, message);
}

/* With applyToCodeBlocks, fenced command output inside prose goes through RTK; the fences and
 * the prose around them stay. */
/* A user's message with fenced logs, in mode rtk with applyToCodeBlocks on */
static WinnowPipelineResult *
run_with_code_blocks (Fixture    *f,
                      const char *text)
{
  WinnowPipelineRequest request;

  write_settings (f, "{\"rtkConfig\":{\"applyToCodeBlocks\":true}}");
  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_RTK;
  request.role = WINNOW_MESSAGE_ROLE_USER;
  return winnow_pipeline_run_text (f->pipeline, text, -1, &request, NULL);
}

static void
test_code_blocks (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *log = sample ("samples/pytest-fail-verbose.txt");
  g_autofree char *text = g_strconcat ("Why does this fail?\n\n  ```text\n", log,
                                       "  ```\n\nThanks!\n", NULL);
  g_autoptr(WinnowPipelineResult) result = NULL;
  const char *out;

  result = run_with_code_blocks (f, text);
  out = winnow_pipeline_result_get_text (result, NULL);

  g_assert_true (has_decision (result, 0, "rtk-code-block:"));
  g_assert_true (g_str_has_prefix (out, "Why does this fail?\n\n  ```text\n"));
  g_assert_true (g_str_has_suffix (out, "  ```\n\nThanks!\n"));
  g_assert_nonnull (strstr (out, "FAILED"));
  g_assert_cmpuint (strlen (out), <, strlen (text));
}

/* Two fenced logs with prose between them: each block goes through RTK on its own, and the
 * prose between them (blank lines included) is left as it was — the first block's closing
 * fence once read again as an opening one, and the prose went through RTK with the second
 * block. */
static void
test_code_blocks_between (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *log = sample ("samples/pytest-fail-verbose.txt");
  static const char *between = "```\n\nThen I changed the fixture and ran it again:\n\n```text\n";
  g_autofree char *text = g_strconcat ("First run:\n\n```text\n", log, between, log,
                                       "```\n\nThanks!\n", NULL);
  g_autoptr(WinnowPipelineResult) result = NULL;
  const char *out;
  guint blocks = 0;

  result = run_with_code_blocks (f, text);
  out = winnow_pipeline_result_get_text (result, NULL);

  for (guint i = 0; i < winnow_pipeline_result_get_n_decisions (result); i++)
    blocks += g_str_has_prefix (winnow_pipeline_result_get_decision (result, i)->action,
                                "rtk-code-block:");
  g_assert_cmpuint (blocks, ==, 2);
  g_assert_nonnull (strstr (out, between));
  g_assert_true (g_str_has_prefix (out, "First run:\n\n```text\n"));
  g_assert_true (g_str_has_suffix (out, "```\n\nThanks!\n"));
  g_assert_cmpuint (strlen (out), <, strlen (text));
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  WinnowPipelineResult **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = winnow_pipeline_run_finish (WINNOW_PIPELINE (source), result, &error);
  g_assert_no_error (error);
}

static void
test_async (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(WinnowPipelineResult) sync = run_text (f, prose, WINNOW_PIPELINE_MODE_CAVEMAN, NULL);
  g_autoptr(WinnowPipelineResult) async = NULL;
  g_autofree char *copy = g_strdup (prose);
  WinnowPipelineRequest request;
  char language[] = "en";

  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_CAVEMAN;
  request.language = language;
  winnow_pipeline_run_text_async (f->pipeline, copy, -1, &request, NULL, on_run_done, &async);

  /* the text and the request were copied: the caller may change them at once */
  memset (copy, 'x', strlen (copy));
  language[0] = 'x';

  while (async == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (winnow_pipeline_result_get_text (async, NULL), ==,
                   winnow_pipeline_result_get_text (sync, NULL));
}

typedef struct
{
  WinnowPipeline *pipeline;
  const char     *language;
  const char     *text;
  char           *expected;
} Worker;

static gpointer
worker_run (gpointer data)
{
  Worker *w = data;

  for (int i = 0; i < 20; i++)
    {
      g_autoptr(WinnowPipelineResult) result = NULL;
      WinnowPipelineRequest request;

      winnow_pipeline_request_init (&request);
      request.mode = WINNOW_PIPELINE_MODE_CAVEMAN;
      request.language = w->language;
      result = winnow_pipeline_run_text (w->pipeline, w->text, -1, &request, NULL);
      if (w->expected == NULL)
        w->expected = g_strdup (winnow_pipeline_result_get_text (result, NULL));
      else
        g_assert_cmpstr (winnow_pipeline_result_get_text (result, NULL), ==, w->expected);
    }

  return NULL;
}

/* Several threads on one fresh pipeline: rule packs are read on first use, under a lock,
 * and every run of the same text gives the same output. */
static void
test_concurrent_runs (Fixture       *f,
                      gconstpointer  data)
{
  static const struct { const char *language; const char *text; } inputs[] = {
    { "en", "Hi there! Basically, I think the build is really slow. Thanks so much!" },
    { "pt-BR", "Olá! Basicamente, eu acho que o build está muito lento. Muito obrigado!" },
    { "de", "Hallo! Ich denke, der Build ist eigentlich wirklich langsam. Vielen Dank!" },
    { "ja", "こんにちは。ビルドがとても遅いと思います。よろしくお願いします。" },
  };
  Worker workers[G_N_ELEMENTS (inputs) * 2];
  GThread *threads[G_N_ELEMENTS (workers)];

  for (guint i = 0; i < G_N_ELEMENTS (workers); i++)
    {
      workers[i] = (Worker) { f->pipeline, inputs[i % G_N_ELEMENTS (inputs)].language,
                              inputs[i % G_N_ELEMENTS (inputs)].text, NULL };
      threads[i] = g_thread_new ("pipeline", worker_run, &workers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (workers); i++)
    g_thread_join (threads[i]);

  for (guint i = 0; i < G_N_ELEMENTS (workers); i++)
    {
      g_assert_cmpstr (workers[i].expected, ==, workers[i % G_N_ELEMENTS (inputs)].expected);
      g_assert_cmpstr (workers[i].expected, !=, workers[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (workers); i++)
    g_free (workers[i].expected);
}

/* ---- the tool cache ---------------------------------------------------------------------- */

#define SECOND G_USEC_PER_SEC

static void
test_tool_cache (void)
{
  g_autoptr(WinnowToolCache) cache = winnow_tool_cache_new (3);
  const char *status = "On branch main\nnothing to commit, working tree clean\n";
  const char *ls = "npm ls output";
  gint64 recorded = 0;
  gint64 t = 1000 * SECOND;

  winnow_tool_cache_record (cache, "/a", "git status", status, strlen (status), t);
  g_assert_true (winnow_tool_cache_lookup (cache, "/a", "git  status", status, strlen (status),
                                           t + 60 * SECOND, &recorded));
  g_assert_cmpint (recorded, ==, t);

  /* another directory, other output, or too late: no */
  g_assert_false (winnow_tool_cache_lookup (cache, "/b", "git status", status, strlen (status), t, NULL));
  g_assert_false (winnow_tool_cache_lookup (cache, "/a", "git status", "changed", 7, t, NULL));
  g_assert_false (winnow_tool_cache_lookup (cache, "/a", "git status", status, strlen (status),
                                            t + 11 * 60 * SECOND, NULL));
  g_assert_cmpuint (winnow_tool_cache_get_size (cache), ==, 0);

  /* a git mutation forgets the directory's git entries, not others */
  winnow_tool_cache_record (cache, "/a", "git status", status, strlen (status), t);
  winnow_tool_cache_record (cache, "/a", "npm ls", ls, strlen (ls), t);
  winnow_tool_cache_record (cache, "/b", "git status", status, strlen (status), t);
  winnow_tool_cache_observe (cache, "/a", "git commit -m wip");
  g_assert_false (winnow_tool_cache_lookup (cache, "/a", "git status", status, strlen (status), t, NULL));
  g_assert_true (winnow_tool_cache_lookup (cache, "/b", "git status", status, strlen (status), t, NULL));
  g_assert_true (winnow_tool_cache_lookup (cache, "/a", "npm ls", ls, strlen (ls), t, NULL));

  /* reading commands forget nothing; an install forgets package listings */
  winnow_tool_cache_observe (cache, "/a", "git -C . log --oneline");
  winnow_tool_cache_observe (cache, "/a", "git branch --list");
  g_assert_true (winnow_tool_cache_lookup (cache, "/a", "npm ls", ls, strlen (ls), t, NULL));
  winnow_tool_cache_observe (cache, "/a", "npm install left-pad");
  g_assert_false (winnow_tool_cache_lookup (cache, "/a", "npm ls", ls, strlen (ls), t, NULL));

  /* bounded: the least recently used goes */
  winnow_tool_cache_clear (cache);
  for (int i = 0; i < 5; i++)
    {
      g_autofree char *cmd = g_strdup_printf ("cmd %d", i);
      winnow_tool_cache_record (cache, "/a", cmd, "x", 1, t);
    }
  g_assert_cmpuint (winnow_tool_cache_get_size (cache), ==, 3);
  g_assert_false (winnow_tool_cache_lookup (cache, "/a", "cmd 0", "x", 1, t, NULL));
  g_assert_true (winnow_tool_cache_lookup (cache, "/a", "cmd 4", "x", 1, t, NULL));
}

static void
test_shared_cache_across_runs (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *pytest = sample ("samples/pytest-fail-verbose.txt");
  WinnowPipelineRequest request;
  g_autoptr(WinnowPipelineResult) first = NULL;
  g_autoptr(WinnowPipelineResult) second = NULL;

  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_RTK;
  request.command = "pytest -v tests";
  request.cwd = "/src/app";
  request.tool_result_rules = 1;

  first = winnow_pipeline_run_text (f->pipeline, pytest, -1, &request, NULL);
  second = winnow_pipeline_run_text (f->pipeline, pytest, -1, &request, NULL);
  g_assert_true (g_str_has_prefix (winnow_pipeline_result_get_text (first, NULL), "[winnow: "));
  g_assert_true (has_decision (second, 0, "cache:same-output"));
  g_assert_true (g_str_has_prefix (winnow_pipeline_result_get_text (second, NULL),
                                   "[winnow: same output as the last run of `pytest -v tests`"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/pipeline/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("modes-on-text", test_modes_on_text);
  ADD ("step-breakdown", test_step_breakdown);
  ADD ("custom-steps", test_custom_steps);
  ADD ("auto-trigger", test_auto_trigger);
  ADD ("not-utf8", test_not_utf8);
  ADD ("openai-conversation", test_openai_conversation);
  ADD ("tool-result-rules", test_tool_result_rules);
  ADD ("same-output-in-conversation", test_same_output_in_conversation);
  ADD ("anthropic-conversation", test_anthropic_conversation);
  ADD ("never-larger", test_never_larger);
  ADD ("structure-step", test_structure_step);
  ADD ("async", test_async);
  ADD ("pasted-log", test_pasted_log);
  ADD ("guessed-role", test_guessed_role);
  ADD ("code-blocks", test_code_blocks);
  ADD ("code-blocks-between", test_code_blocks_between);
  ADD ("concurrent-runs", test_concurrent_runs);
  ADD ("shared-cache-across-runs", test_shared_cache_across_runs);
  g_test_add_func ("/pipeline/bad-messages", test_bad_messages);
  g_test_add_func ("/pipeline/tool-cache", test_tool_cache);

#undef ADD

  return g_test_run ();
}
