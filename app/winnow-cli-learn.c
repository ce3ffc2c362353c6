/* winnow-cli-learn.c — `winnow learn`: draft a filter from samples of a command's output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine drafts (winnow_learn_filter()); this file reads the samples, checks the draft the
 * way `winnow verify` would — by parsing the very text it is about to write and running its
 * tests — and only then writes it. A draft that does not pass is never written.
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-cli.h"

/* Parses @json as a user's editor would and runs its tests. Returns whether it passes; on
 * failure, says why on standard error. */
static gboolean
verify_text (const char          *json,
             const char          *file,
             WinnowVerifyReport **out_report)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(WinnowVerifyReport) report = NULL;
  GListModel *outcomes;
  gboolean ok;

  filters = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_FILE, file,
                                      WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
  report = winnow_verify_filters (filters, NULL);
  ok = filters->len == 1 &&
       winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR) == 0 &&
       winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING) == 0 &&
       winnow_verify_report_get_n_failed (report) == 0 &&
       winnow_verify_report_get_n_not_idempotent (report) == 0;

  if (!ok)
    {
      g_printerr (_("winnow learn: the draft does not pass its own tests; nothing was written\n"));
      winnow_cli_print_diagnostics (diagnostics, FALSE);
      outcomes = winnow_verify_report_get_outcomes (report);
      for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
        {
          g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
          g_autofree char *diff = winnow_test_outcome_dup_diff (outcome);

          if (diff != NULL)
            g_printerr ("FAIL %s\n%s\n", winnow_test_outcome_get_name (outcome), diff);
          if (!winnow_test_outcome_get_idempotent (outcome))
            g_printerr (_("not idempotent: %s\n"), winnow_test_outcome_get_name (outcome));
        }
    }

  if (out_report != NULL)
    *out_report = g_steal_pointer (&report);
  return ok;
}

static void
print_summary (WinnowLearnDraft *draft)
{
  WinnowFilter *filter = winnow_learn_draft_get_filter (draft);

  g_printerr (_("Drafted filter “%s” from %u sample(s):\n"), winnow_filter_get_id (filter),
              winnow_learn_draft_get_n_samples (draft));
  for (guint i = 0; i < winnow_learn_draft_get_n_samples (draft); i++)
    {
      const WinnowLearnSample *sample = winnow_learn_draft_get_sample (draft, i);
      double saved = sample->tokens_before > 0
                     ? 100.0 * (1.0 - (double) sample->tokens_after / sample->tokens_before)
                     : 0.0;

      /* TRANSLATORS: a sample's name, lines before → after, tokens before → after, saving */
      g_printerr (_("  %s: %u → %u lines, %zu → %zu tokens (%.0f%% saved)%s\n"),
                  sample->name, sample->lines_before, sample->lines_after,
                  sample->tokens_before, sample->tokens_after, saved,
                  sample->test_cut ? _(", test holds its first part") : "");
    }
  g_printerr (_("Tokens counted with %s.\nProposed:\n"), winnow_tokens_counter_name ());
  for (guint i = 0; i < winnow_learn_draft_get_n_proposals (draft); i++)
    {
      const WinnowLearnProposal *proposal = winnow_learn_draft_get_proposal (draft, i);

      g_printerr ("  %-25s %s\n", proposal->field, proposal->value);
      if (proposal->lines > 0)
        g_printerr (_("  %-25s   %s (%u lines)\n"), "", proposal->reason, proposal->lines);
      else
        g_printerr ("  %-25s   %s\n", "", proposal->reason);
    }
}

int
winnow_cli_learn (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) samples = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(WinnowVerifyReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;
  g_autofree char *id = NULL;
  g_autofree char *label = NULL;
  g_autofree char *output = NULL;
  gboolean json = FALSE;
  WinnowLearnOptions options;
  const char *text;
  GOptionEntry entries[] = {
    { "command", 'c', 0, G_OPTION_ARG_STRING, &command,
      N_("The command that produced the samples (names the filter and fills match.commands)"),
      N_("CMD") },
    { "id", 0, 0, G_OPTION_ARG_STRING, &id, N_("The new filter's id"), N_("ID") },
    { "label", 0, 0, G_OPTION_ARG_STRING, &label, N_("The new filter's label"), N_("LABEL") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the filter to FILE (atomically) instead of standard output"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print a JSON report (the filter, figures per sample, proposals) on standard output"),
      NULL },
    { NULL }
  };

  context = winnow_cli_option_context (_("FILE…"),
                                       _("Draft a new filter from samples of a command's output."),
                                       _("Each FILE (“-” for standard input) is one run of the "
                                         "same command. Lines are abstracted into shapes "
                                         "(numbers, hashes, paths, quoted names); shapes of known "
                                         "noise that repeat — progress, build steps, passing "
                                         "tests, downloads, timings, banners, blank lines — are "
                                         "dropped, runs of identical lines collapsed, and error "
                                         "and summary lines protected. Every sample becomes a "
                                         "test whose expected output is what the draft makes of "
                                         "it; the draft is verified before it is written.\n\n"
                                         "A summary goes to standard error.\n\n"
                                         "Exit status: 0 if the draft was written, 1 if the "
                                         "samples could not be learned from or the draft failed "
                                         "its tests, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!winnow_cli_parse (context, "learn", &argc, &argv))
    return WINNOW_EXIT_USAGE;
  if (argc < 2)
    return winnow_cli_usage_error ("learn", _("no sample given"));

  samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) read_error = NULL;
      g_autoptr(GBytes) bytes = NULL;
      char *contents = NULL;
      gsize length = 0;
      g_autofree char *name = g_strcmp0 (argv[i], "-") == 0 ? g_strdup ("stdin")
                                                              : g_path_get_basename (argv[i]);

      if (!winnow_cli_read_input (argv[i], &contents, &length, &read_error))
        {
          g_printerr ("winnow learn: %s\n", read_error->message);
          return WINNOW_EXIT_FAILURE;
        }
      bytes = g_bytes_new_take (contents, length);
      g_ptr_array_add (samples, winnow_learn_sample_new (name, bytes));
    }

  winnow_learn_options_init (&options);
  options.id = id;
  options.label = label;

  diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  draft = winnow_learn_filter (command, samples, &options, diagnostics, &error);
  winnow_cli_print_diagnostics (diagnostics, FALSE);
  if (draft == NULL)
    {
      g_printerr ("winnow learn: %s\n", error->message);
      return WINNOW_EXIT_FAILURE;
    }

  text = winnow_learn_draft_get_json (draft);
  if (!verify_text (text, output ? output : "draft", &report))
    return WINNOW_EXIT_FAILURE;

  if (output != NULL && !g_file_set_contents (output, text, -1, &error))
    {
      g_printerr ("winnow learn: %s\n", error->message);
      return WINNOW_EXIT_FAILURE;
    }

  if (json)
    {
      g_autoptr(JsonNode) root = winnow_learn_draft_to_json_node (draft);
      JsonObject *object = json_node_get_object (root);

      json_object_set_int_member (object, "testsPassed",
                                  winnow_verify_report_get_n_passed (report));
      json_object_set_int_member (object, "testsFailed",
                                  winnow_verify_report_get_n_failed (report));
      if (output != NULL)
        json_object_set_string_member (object, "output", output);
      winnow_cli_print_json (root);
    }
  else if (output == NULL)
    g_print ("%s", text);

  print_summary (draft);
  g_printerr (_("The draft passes its %u tests.%s%s\n"),
              winnow_verify_report_get_n_passed (report),
              output ? _(" Written to ") : "", output ? output : "");

  return WINNOW_EXIT_OK;
}
