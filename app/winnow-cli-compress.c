/* winnow-cli-compress.c — `winnow compress` and `winnow detect`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "winnow-cli.h"

static void
add_detection_json (JsonBuilder     *builder,
                    WinnowDetection *detection)
{
  json_builder_begin_object (builder);
  winnow_cli_json_member (builder, "type", winnow_detection_get_output_type (detection));
  winnow_cli_json_member (builder, "category", winnow_detection_get_category (detection));
  json_builder_set_member_name (builder, "confidence");
  json_builder_add_double_value (builder,
                                 (double) (int) (winnow_detection_get_confidence (detection) * 100 + 0.5) / 100);
  winnow_cli_json_member (builder, "command", winnow_detection_get_command (detection));
  winnow_cli_json_member (builder, "evidence", winnow_detection_get_evidence (detection));
  json_builder_set_member_name (builder, "hasErrors");
  json_builder_add_boolean_value (builder, winnow_detection_get_has_errors (detection));
  json_builder_set_member_name (builder, "passthrough");
  json_builder_add_boolean_value (builder, winnow_detection_get_passthrough (detection));
  json_builder_end_object (builder);
}

static void
add_filter_json (JsonBuilder     *builder,
                 WinnowFilter    *filter,
                 WinnowSelection  selection)
{
  json_builder_begin_object (builder);
  winnow_cli_json_member (builder, "id", filter ? winnow_filter_get_id (filter) : NULL);
  winnow_cli_json_member (builder, "source",
                          filter ? winnow_filter_source_to_string (winnow_filter_get_source (filter))
                                 : NULL);
  winnow_cli_json_member (builder, "file", filter ? winnow_filter_get_file (filter) : NULL);
  winnow_cli_json_member (builder, "selectedBy", winnow_selection_to_string (selection));
  json_builder_end_object (builder);
}

static void
add_rule_hits_json (JsonBuilder      *builder,
                    WinnowTraceStage *stage)
{
  json_builder_begin_array (builder);
  for (guint k = 0; k < winnow_trace_stage_get_n_rule_hits (stage); k++)
    {
      const WinnowRuleHit *hit = winnow_trace_stage_get_rule_hit (stage, k);

      json_builder_begin_object (builder);
      winnow_cli_json_member (builder, "stage", winnow_trace_stage_get_name (stage));
      winnow_cli_json_member (builder, "rule", hit->rule);
      winnow_cli_json_member (builder, "pattern", hit->pattern);
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, hit->count);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static JsonNode *
compression_to_json (WinnowCompression *compression)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  WinnowRtkResult *result = winnow_compression_get_rtk_result (compression);
  gsize tokens_before = winnow_compression_get_tokens_before (compression);
  gsize tokens_after = winnow_compression_get_tokens_after (compression);
  guint n_stages = winnow_rtk_result_get_n_stages (result);
  gsize length;
  const char *text = winnow_compression_get_text (compression, &length);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  if (g_utf8_validate_len (text, length, NULL))
    json_builder_add_string_value (builder, text);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, length);
      json_builder_add_string_value (builder, valid);
    }
  json_builder_set_member_name (builder, "compressed");
  json_builder_add_boolean_value (builder, winnow_compression_get_compressed (compression));
  winnow_cli_json_member (builder, "outcome",
                          winnow_rtk_outcome_to_string (winnow_rtk_result_get_outcome (result)));

  json_builder_set_member_name (builder, "detection");
  add_detection_json (builder, winnow_compression_get_detection (compression));
  json_builder_set_member_name (builder, "filter");
  add_filter_json (builder, winnow_compression_get_filter (compression),
                   winnow_compression_get_selection (compression));

  json_builder_set_member_name (builder, "tokens");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "before");
  json_builder_add_int_value (builder, tokens_before);
  json_builder_set_member_name (builder, "after");
  json_builder_add_int_value (builder, tokens_after);
  json_builder_set_member_name (builder, "saved");
  json_builder_add_int_value (builder, tokens_before > tokens_after ? tokens_before - tokens_after : 0);
  json_builder_set_member_name (builder, "savedRatio");
  json_builder_add_double_value (builder,
                                 (double) (int) (winnow_compression_get_saved_ratio (compression) * 10000 + 0.5) / 10000);
  winnow_cli_json_member (builder, "counter", winnow_tokens_counter_name ());
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "bytes");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "before");
  json_builder_add_int_value (builder, winnow_rtk_result_get_bytes_in (result));
  json_builder_set_member_name (builder, "after");
  json_builder_add_int_value (builder, winnow_rtk_result_get_bytes_out (result));
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "lines");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "before");
  json_builder_add_int_value (builder, winnow_rtk_result_get_lines_in (result));
  json_builder_set_member_name (builder, "after");
  json_builder_add_int_value (builder, winnow_rtk_result_get_lines_out (result));
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_stages; i++)
    {
      WinnowTraceStage *stage = winnow_rtk_result_get_stage (result, i);

      for (guint k = 0; k < winnow_trace_stage_get_n_rule_hits (stage); k++)
        {
          const WinnowRuleHit *hit = winnow_trace_stage_get_rule_hit (stage, k);

          json_builder_begin_object (builder);
          winnow_cli_json_member (builder, "stage", winnow_trace_stage_get_name (stage));
          winnow_cli_json_member (builder, "rule", hit->rule);
          json_builder_set_member_name (builder, "count");
          json_builder_add_int_value (builder, hit->count);
          json_builder_end_object (builder);
        }
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "trace");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_stages; i++)
    {
      WinnowTraceStage *stage = winnow_rtk_result_get_stage (result, i);
      guint n_removed;

      winnow_trace_stage_get_removed_lines (stage, &n_removed);
      json_builder_begin_object (builder);
      winnow_cli_json_member (builder, "stage", winnow_trace_stage_get_name (stage));
      json_builder_set_member_name (builder, "linesIn");
      json_builder_add_int_value (builder, winnow_trace_stage_get_lines_in (stage));
      json_builder_set_member_name (builder, "linesOut");
      json_builder_add_int_value (builder, winnow_trace_stage_get_lines_out (stage));
      json_builder_set_member_name (builder, "removedLines");
      json_builder_add_int_value (builder, n_removed);
      winnow_cli_json_member (builder, "note", winnow_trace_stage_get_note (stage));
      json_builder_set_member_name (builder, "rules");
      add_rule_hits_json (builder, stage);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  if (winnow_rtk_result_get_budget_exceeded (result) > 0)
    {
      json_builder_set_member_name (builder, "regexBudgetExceeded");
      json_builder_add_int_value (builder, winnow_rtk_result_get_budget_exceeded (result));
    }

  json_builder_set_member_name (builder, "durationMs");
  json_builder_add_double_value (builder, winnow_compression_get_duration_us (compression) / 1000.0);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* Merges the RTK view of plain text (detection, filter, stage trace) with the pipeline's
 * receipt, steps and decisions. */
static JsonNode *
result_to_json (WinnowPipelineResult *result,
                gboolean              messages)
{
  g_autoptr(JsonNode) pipeline = winnow_pipeline_result_to_json_node (result);
  WinnowCompression *compression = winnow_pipeline_result_get_rtk_compression (result);
  WinnowReceipt *receipt = winnow_pipeline_result_get_receipt (result);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonObject *from;
  g_autoptr(GList) members = NULL;
  gsize length;
  const char *text = winnow_pipeline_result_get_text (result, &length);

  if (compression != NULL && !messages)
    root = compression_to_json (compression);
  else
    {
      /* json_node_init_object() takes its own reference: the new object's must be dropped */
      g_autoptr(JsonObject) empty = json_object_new ();

      root = json_node_init_object (json_node_alloc (), empty);
    }
  object = json_node_get_object (root);

  if (messages)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, text, length, NULL))
        json_object_set_member (object, "messages", json_node_copy (json_parser_get_root (parser)));
    }
  else if (g_utf8_validate_len (text, length, NULL))
    json_object_set_string_member (object, "text", text);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, length);

      json_object_set_string_member (object, "text", valid);
    }

  json_object_set_boolean_member (object, "compressed",
                                  winnow_receipt_get_tokens_after (receipt) <
                                  winnow_receipt_get_tokens_before (receipt));

  /* the tokens of the whole run, not only of the RTK step */
  {
    JsonObject *tokens = json_object_new ();

    json_object_set_int_member (tokens, "before", winnow_receipt_get_tokens_before (receipt));
    json_object_set_int_member (tokens, "after", winnow_receipt_get_tokens_after (receipt));
    json_object_set_int_member (tokens, "saved", winnow_receipt_get_saved_tokens (receipt));
    json_object_set_double_member (tokens, "savedRatio",
                                   (double) (int) (winnow_receipt_get_saved_ratio (receipt) * 10000
                                                   + 0.5) / 10000);
    json_object_set_string_member (tokens, "counter", winnow_tokens_counter_name ());
    json_object_set_object_member (object, "tokens", tokens);
  }

  from = json_node_get_object (pipeline);
  members = json_object_get_members (from);
  for (const GList *l = members; l != NULL; l = l->next)
    json_object_set_member (object, l->data, json_node_copy (json_object_get_member (from, l->data)));

  return g_steal_pointer (&root);
}

/* "rtk:standard,caveman:full" → steps */
static GArray *
parse_steps (const char  *spec,
             GError     **error)
{
  g_auto(GStrv) items = g_strsplit (spec, ",", -1);
  GArray *steps = g_array_new (FALSE, TRUE, sizeof (WinnowPipelineStep));

  for (guint i = 0; items[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (g_strstrip (items[i]), ":", 2);
      WinnowPipelineStep step = { NULL, NULL };
      WinnowRtkIntensity rtk;
      WinnowCavemanIntensity caveman;
      const char *intensity = pair[0] ? pair[1] : NULL;

      if (g_strcmp0 (pair[0], "rtk") == 0 &&
          (intensity == NULL || winnow_rtk_intensity_from_string (intensity, &rtk)))
        step.intensity = g_strdup (intensity ? intensity : "standard");
      else if (g_strcmp0 (pair[0], "caveman") == 0 &&
               (intensity == NULL || winnow_caveman_intensity_from_string (intensity, &caveman)))
        step.intensity = g_strdup (intensity ? intensity : "full");
      else if (g_strcmp0 (pair[0], "structure") == 0 &&
               (intensity == NULL || g_strcmp0 (intensity, "lossless") == 0 ||
                g_strcmp0 (intensity, "lossy") == 0))
        step.intensity = g_strdup (intensity ? intensity : "lossless");
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("“%s” is not a step: use rtk[:minimal|standard|aggressive], "
                         "caveman[:lite|full|ultra] or structure[:lossless|lossy]"), items[i]);
          for (guint k = 0; k < steps->len; k++)
            {
              g_free (g_array_index (steps, WinnowPipelineStep, k).engine);
              g_free (g_array_index (steps, WinnowPipelineStep, k).intensity);
            }
          g_array_unref (steps);
          return NULL;
        }

      step.engine = g_strdup (pair[0]);
      g_array_append_val (steps, step);
    }

  return steps;
}

static void
free_steps (GArray *steps)
{
  for (guint i = 0; steps != NULL && i < steps->len; i++)
    {
      g_free (g_array_index (steps, WinnowPipelineStep, i).engine);
      g_free (g_array_index (steps, WinnowPipelineStep, i).intensity);
    }
  g_clear_pointer (&steps, g_array_unref);
}

int
winnow_cli_compress (int    argc,
                     char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(WinnowPipeline) pipeline = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(WinnowConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;
  g_autofree char *intensity = NULL;
  g_autofree char *filter_id = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *role = NULL;
  g_autofree char *lang = NULL;
  g_autofree char *messages = NULL;
  g_autofree char *steps_spec = NULL;
  g_autofree char *input = NULL;
  GArray *steps = NULL;
  gboolean json = FALSE;
  gboolean filter_only = FALSE;
  gboolean no_record = FALSE;
  WinnowCliCommon common = { 0 };
  WinnowPipelineRequest request;
  gsize length = 0;
  gsize out_len;
  const char *out;
  int status = WINNOW_EXIT_OK;
  GOptionEntry entries[] = {
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &mode,
      N_("off, rtk, caveman or stacked (default: the settings’ defaultMode)"), N_("MODE") },
    { "command", 'c', 0, G_OPTION_ARG_STRING, &command,
      N_("The command that produced the output (helps pick the right filter)"), N_("CMD") },
    { "intensity", 'i', 0, G_OPTION_ARG_STRING, &intensity,
      N_("RTK: minimal, standard or aggressive; Caveman: lite, full or ultra"), N_("LEVEL") },
    { "role", 'r', 0, G_OPTION_ARG_STRING, &role,
      N_("Who wrote the text: system, user, assistant or tool (default: guessed)"), N_("ROLE") },
    { "lang", 'l', 0, G_OPTION_ARG_STRING, &lang,
      N_("Language of prose, e.g. en or pt-BR (default: detected)"), N_("LANG") },
    { "messages", 0, 0, G_OPTION_ARG_FILENAME, &messages,
      N_("Compress a JSON array of chat messages (OpenAI or Anthropic shape) from FILE or -"),
      N_("FILE") },
    { "steps", 0, 0, G_OPTION_ARG_STRING, &steps_spec,
      N_("Stacked steps instead of the settings’, e.g. rtk:standard,caveman:ultra"), N_("STEPS") },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter_id,
      N_("Use this RTK filter instead of choosing one"), N_("ID") },
    { "filter-only", 0, 0, G_OPTION_ARG_NONE, &filter_only,
      N_("Run the RTK filter alone, without the engine's line and character caps"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the result with receipts, per-step breakdown, decisions, detection and stage "
         "trace as JSON"), NULL },
    { "no-record", 0, 0, G_OPTION_ARG_NONE, &no_record,
      N_("Do not record the savings in the database"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (_("[FILE|-]"),
                                       _("Compress command output or prose read from FILE or standard input."),
                                       _("Command output goes through the RTK filter for its detected type "
                                         "(mode rtk), prose through the Caveman rule packs of its language "
                                         "(mode caveman); stacked runs the configured steps in order. Plain "
                                         "text in gives text out; with --messages, a JSON array of messages "
                                         "in gives the same shape out.\n"
                                         "Output that is not valid UTF-8 is printed unchanged.\n\n"
                                         "Exit status: 0 on success, 1 if the input cannot be read or "
                                         "is not messages, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "compress", &argc, &argv))
    return WINNOW_EXIT_USAGE;

  if (argc > 2 || (messages != NULL && argc > 1))
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("compress", _("only one input file may be given"));
    }

  winnow_pipeline_request_init (&request);
  request.command = command;
  request.filter_id = filter_id;
  request.filter_only = filter_only;
  request.language = lang;

  if (!winnow_cli_set_mode_and_intensity ("compress", mode, intensity, &request))
    {
      winnow_cli_common_clear (&common);
      return WINNOW_EXIT_USAGE;
    }

  if (role != NULL)
    {
      WinnowMessageRole r;

      if (!winnow_message_role_from_string (role, &r))
        {
          winnow_cli_common_clear (&common);
          return winnow_cli_usage_error ("compress",
                                         _("unknown role “%s” (system, user, assistant, tool)"),
                                         role);
        }
      request.role = r;
    }

  if (steps_spec != NULL)
    {
      steps = parse_steps (steps_spec, &error);
      if (steps == NULL)
        {
          winnow_cli_common_clear (&common);
          return winnow_cli_usage_error ("compress", "%s", error->message);
        }
      request.steps = (const WinnowPipelineStep *) (gpointer) steps->data;
      request.n_steps = steps->len;
      if (mode == NULL)
        request.mode = WINNOW_PIPELINE_MODE_STACKED;
    }

  if (!winnow_cli_read_input (messages != NULL ? messages : argc > 1 ? argv[1] : NULL,
                              &input, &length, &error))
    {
      g_printerr ("winnow compress: %s\n", error->message);
      winnow_cli_common_clear (&common);
      free_steps (steps);
      return WINNOW_EXIT_FAILURE;
    }

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);
  pipeline = winnow_pipeline_new (ctx);

  if (messages != NULL)
    {
      conversation = winnow_conversation_new_from_json (input, length,
                                                        strcmp (messages, "-") == 0
                                                        ? _("standard input") : messages,
                                                        &error);
      if (conversation != NULL)
        result = winnow_pipeline_run (pipeline, conversation, &request, &error);
    }
  else
    result = winnow_pipeline_run_text (pipeline, input, length, &request, &error);

  if (result == NULL)
    {
      g_printerr ("winnow compress: %s\n", error->message);
      free_steps (steps);
      return WINNOW_EXIT_FAILURE;
    }

  if (json)
    {
      g_autoptr(JsonNode) node = result_to_json (result, messages != NULL);
      winnow_cli_print_json (node);
    }
  else
    {
      out = winnow_pipeline_result_get_text (result, &out_len);
      fwrite (out, 1, out_len, stdout);
      if (out_len > 0 && out[out_len - 1] != '\n')
        fputc ('\n', stdout);
    }
  fflush (stdout);

  /* after the output: a slow or broken database never delays or fails the compression */
  if (!no_record)
    {
      g_autofree char *cwd = g_get_current_dir ();
      WinnowStoreEvent event;

      winnow_store_event_init (&event, "cli");
      winnow_store_event_set_result (&event, result, length);
      event.command = command;
      event.project = cwd;
      winnow_cli_record (ctx, &event, "compress");
    }

  free_steps (steps);
  return status;
}

int
winnow_cli_detect (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(WinnowDetection) detection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;
  g_autofree char *input = NULL;
  gboolean json = FALSE;
  WinnowCliCommon common = { 0 };
  WinnowSelection selection;
  WinnowFilter *filter;
  gsize length = 0;
  GOptionEntry entries[] = {
    { "command", 'c', 0, G_OPTION_ARG_STRING, &command,
      N_("The command that produced the output"), N_("CMD") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the detection as JSON"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (_("[FILE|-]"),
                                       _("Tell what kind of output FILE (or standard input) is, "
                                         "and which filter would compress it."),
                                       _("Exit status: 0 on success, 1 if the input cannot be read, "
                                         "2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "detect", &argc, &argv))
    return WINNOW_EXIT_USAGE;

  if (argc > 2)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("detect", _("only one input file may be given"));
    }

  if (!winnow_cli_read_input (argc > 1 ? argv[1] : NULL, &input, &length, &error))
    {
      g_printerr ("winnow detect: %s\n", error->message);
      winnow_cli_common_clear (&common);
      return WINNOW_EXIT_FAILURE;
    }

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);

  detection = winnow_detector_detect (winnow_context_get_detector (ctx), input, length, command);
  filter = winnow_catalog_select (winnow_context_get_catalog (ctx), detection, input, length,
                                  winnow_context_get_config (ctx), &selection);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "detection");
      add_detection_json (builder, detection);
      json_builder_set_member_name (builder, "filter");
      add_filter_json (builder, filter, selection);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      winnow_cli_print_json (root);
      return WINNOW_EXIT_OK;
    }

  g_print (_("type:       %s (%s)\n"), winnow_detection_get_output_type (detection),
           winnow_detection_get_category (detection));
  g_print (_("confidence: %.2f\n"), winnow_detection_get_confidence (detection));
  g_print (_("command:    %s\n"), winnow_detection_get_command (detection)
                                   ? winnow_detection_get_command (detection) : _("(none)"));
  g_print (_("evidence:   %s\n"), winnow_detection_get_evidence (detection));
  if (filter != NULL)
    g_print (_("filter:     %s (%s, chosen by %s)\n"), winnow_filter_get_id (filter),
             winnow_filter_source_to_string (winnow_filter_get_source (filter)),
             winnow_selection_to_string (selection));
  else
    g_print (_("filter:     none (%s)\n"), winnow_selection_to_string (selection));

  return WINNOW_EXIT_OK;
}
