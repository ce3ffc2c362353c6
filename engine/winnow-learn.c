/* winnow-learn.c — drafting a new RTK filter from samples of a command's output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A user who meets a command no filter knows has its output at hand, not a regex. Learning
 * turns one or more samples into a draft filter that is safe before it is clever:
 *
 *  1. Every line is cleaned as the draft will see it (`stripAnsi`: escapes removed, the last
 *     frame of a `\r` progress line kept) and given a role: blank, error, summary, a known kind
 *     of noise (progress, build steps, passing tests, downloads, timings, banners) or plain
 *     content. Errors use the words the detector treats as errors plus the usual diagnostic
 *     shapes (`file:line:col:`, `-->`, pytest's `E ` lines, `…Error`). Summaries are the usual
 *     count and "finished" lines plus the last line of every sample, which is where tools
 *     print their verdict.
 *  2. Every other line is abstracted into a *shape*: numbers, hashes, paths and quoted names
 *     become classes, spaces become `\s+`, brackets tolerate padding (`[  5%]` and `[100%]`
 *     are one shape). Shapes that share their punctuation and first two words are merged, the
 *     words that differ becoming `[\w.%+-]+`, so `Linking target a` and `Linking target b` are
 *     one pattern.
 *  3. A shape is dropped only when its lines are a known kind of noise *and* it repeats (within
 *     a sample, or in three samples): a lone `Compiling foo` line is what the user wants to see,
 *     four hundred are not. Repetition alone never drops anything — repeated content (`commit
 *     <hash>` in a log) is still content. A shape of mostly identical lines is collapsed.
 *  4. No proposed pattern may match a summary line: if it does, it gets a negative lookahead
 *     for the summary patterns it hit (`^(?!.*?\[\s*(\d+)/\1\])…` keeps `[8/8] Linking`), and
 *     is dropped if that does not help. Error lines need no such care: the engine never drops
 *     a line matching `preserve.errorPatterns`.
 *  5. The draft is parsed like any filter and run on every sample; each sample becomes a
 *     `tests[]` entry whose `expected` is that run, so the draft passes `winnow verify` by
 *     construction (callers should still verify the text they save: it is the product).
 *
 * Everything here is linear in the size of the samples: each line is classified with a few
 * combined regexes (the individual ones only run on lines the combined one hit) and shaped in
 * one pass; the candidate patterns are few.
 *
 * The steps live in their own files: winnow-learn-shape.c gives lines their role and shape,
 * winnow-learn-propose.c turns the samples into proposed patterns, winnow-learn-write.c
 * names the draft, writes it as JSON and makes its tests. This file holds the public types,
 * the draft object and winnow_learn_filter(), which runs the steps in order.
 */

#define G_LOG_DOMAIN "winnow-learn"

#include "config.h"

#include <string.h>

#include "winnow-detection.h"
#include "winnow-detector.h"
#include "winnow-diagnostic.h"
#include "winnow-learn.h"
#include "winnow-learn-private.h"
#include "winnow-rtk.h"
#include "winnow-tokens.h"

/* ---- boxed types ------------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (WinnowLearnSample, winnow_learn_sample,
                     winnow_learn_sample_copy, winnow_learn_sample_free)
G_DEFINE_BOXED_TYPE (WinnowLearnProposal, winnow_learn_proposal,
                     winnow_learn_proposal_copy, winnow_learn_proposal_free)

/**
 * winnow_learn_sample_new:
 * @name: what to call the sample (a file name, "stdin", …)
 * @data: its raw bytes
 *
 * Returns: (transfer full): a new sample to learn from
 */
WinnowLearnSample *
winnow_learn_sample_new (const char *name,
                         GBytes     *data)
{
  WinnowLearnSample *sample;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  sample = g_new0 (WinnowLearnSample, 1);
  sample->name = g_strdup (name);
  sample->data = g_bytes_ref (data);
  return sample;
}

WinnowLearnSample *
winnow_learn_sample_copy (const WinnowLearnSample *sample)
{
  WinnowLearnSample *copy;

  g_return_val_if_fail (sample != NULL, NULL);

  copy = g_memdup2 (sample, sizeof *sample);
  copy->name = g_strdup (sample->name);
  copy->data = g_bytes_ref (sample->data);
  return copy;
}

void
winnow_learn_sample_free (WinnowLearnSample *sample)
{
  if (sample == NULL)
    return;
  g_free (sample->name);
  g_bytes_unref (sample->data);
  g_free (sample);
}

WinnowLearnProposal *
winnow_learn_proposal_copy (const WinnowLearnProposal *proposal)
{
  WinnowLearnProposal *copy;

  g_return_val_if_fail (proposal != NULL, NULL);

  copy = g_new0 (WinnowLearnProposal, 1);
  copy->field = g_strdup (proposal->field);
  copy->value = g_strdup (proposal->value);
  copy->reason = g_strdup (proposal->reason);
  copy->lines = proposal->lines;
  copy->example = g_strdup (proposal->example);
  return copy;
}

void
winnow_learn_proposal_free (WinnowLearnProposal *proposal)
{
  if (proposal == NULL)
    return;
  g_free (proposal->field);
  g_free (proposal->value);
  g_free (proposal->reason);
  g_free (proposal->example);
  g_free (proposal);
}

void
_winnow_learn_add_proposal (GPtrArray  *proposals,
                            const char *field,
                            const char *value,
                            const char *reason,
                            guint       lines,
                            const char *example)
{
  WinnowLearnProposal *proposal = g_new0 (WinnowLearnProposal, 1);

  proposal->field = g_strdup (field);
  proposal->value = g_strdup (value);
  proposal->reason = g_strdup (reason);
  proposal->lines = lines;
  proposal->example = g_strdup (example);
  g_ptr_array_add (proposals, proposal);
}

/**
 * winnow_learn_options_init:
 * @options: options to fill with the defaults
 */
void
winnow_learn_options_init (WinnowLearnOptions *options)
{
  g_return_if_fail (options != NULL);

  options->id = NULL;
  options->label = NULL;
  options->min_repeats = 3;
  options->collapse_min = 4;
  options->max_sample_bytes = 64 * 1024 * 1024;
  options->max_test_bytes = 256 * 1024;
}

/* ---- the draft --------------------------------------------------------------------------- */

struct _WinnowLearnDraft
{
  GObject       parent_instance;
  char         *command;
  char         *json;
  WinnowFilter *filter;
  GPtrArray    *samples;    /* WinnowLearnSample*, with figures */
  GPtrArray    *proposals;  /* WinnowLearnProposal* */
};

G_DEFINE_FINAL_TYPE (WinnowLearnDraft, winnow_learn_draft, G_TYPE_OBJECT)

static void
winnow_learn_draft_finalize (GObject *object)
{
  WinnowLearnDraft *self = (WinnowLearnDraft *)object;

  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->json, g_free);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->samples, g_ptr_array_unref);
  g_clear_pointer (&self->proposals, g_ptr_array_unref);

  G_OBJECT_CLASS (winnow_learn_draft_parent_class)->finalize (object);
}

static void
winnow_learn_draft_class_init (WinnowLearnDraftClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_learn_draft_finalize;
}

static void
winnow_learn_draft_init (WinnowLearnDraft *self)
{
  self->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  self->proposals = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_proposal_free);
}

/**
 * winnow_learn_filter:
 * @command: (nullable): the command that produced the samples, e.g. "pytest -v"; it names
 *   the draft and fills `match.commands`
 * @samples: (element-type WinnowLearnSample): one or more samples of its output; their
 *   figures are not touched (the draft holds copies with figures)
 * @options: (nullable): #WinnowLearnOptions, or %NULL for the defaults
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): where to add notes (a skipped
 *   empty sample, a pattern not proposed because it would remove a summary line)
 * @error: return location for an error: no sample with content, a sample that is binary,
 *   not UTF-8 or too large
 *
 * Drafts a filter from @samples (see the top of winnow-learn.c for how). The result holds the
 * filter as canonical JSON — what an editor shows and a user saves — and parsed; its
 * `tests[]` are the samples with what the draft makes of them. Pure: no I/O, safe on any
 * thread.
 *
 * Returns: (transfer full): the draft, or %NULL with @error set
 */
WinnowLearnDraft *
winnow_learn_filter (const char               *command,
                     GPtrArray                *samples,
                     const WinnowLearnOptions *options,
                     GPtrArray                *diagnostics,
                     GError                  **error)
{
  g_autoptr(WinnowLearnDraft) self = NULL;
  g_autoptr(WinnowFilter) cleaner = NULL;
  g_autoptr(WinnowFilter) filter = NULL;
  g_autoptr(WinnowDetector) detector = NULL;
  g_autoptr(GPtrArray) words = NULL;
  g_autoptr(GPtrArray) output_types = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) commands = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) errors = g_ptr_array_new ();
  g_autoptr(GPtrArray) summaries = g_ptr_array_new ();
  g_autoptr(GPtrArray) test_names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) test_inputs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) test_expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) outputs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *id = NULL;
  g_autofree char *label = NULL;
  g_autofree char *description = NULL;
  g_autofree char *shortcut_pattern = NULL;
  g_autofree char *shortcut_message = NULL;
  const char *category = NULL;
  WinnowLearnOptions defaults;
  Proposed proposed = { g_ptr_array_new_with_free_func (g_free),
                        g_ptr_array_new_with_free_func (g_free) };
  Learner learner = { 0 };
  gboolean all_clean_outputs = TRUE;
  gboolean ok = FALSE;
  Draft d = { 0 };

  g_return_val_if_fail (samples != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options == NULL)
    {
      winnow_learn_options_init (&defaults);
      options = &defaults;
    }

  words = _winnow_learn_command_words (command);
  id = g_strdup (options->id ? options->id : NULL);
  if (id == NULL)
    id = _winnow_learn_slug (words);
  if (options->label != NULL)
    label = g_strdup (options->label);
  else if (words->len > 0)
    {
      GString *str = g_string_new (NULL);

      for (guint i = 0; i < words->len; i++)
        g_string_append_printf (str, "%s%s", i > 0 ? " " : "",
                                (char *) g_ptr_array_index (words, i));
      label = g_strdup_printf ("%s (learned)", str->str);
      g_string_free (str, TRUE);
    }
  else
    label = g_strdup ("Learned filter");

  learner.options = options;
  learner.diagnostics = diagnostics;
  learner.filter_id = id;
  learner.samples = g_array_new (FALSE, TRUE, sizeof (SampleData));
  g_array_set_clear_func (learner.samples, (GDestroyNotify) _winnow_learn_sample_data_clear);
  learner.groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) _winnow_learn_group_free);
  learner.summaries =
    g_ptr_array_new_with_free_func ((GDestroyNotify) _winnow_learn_summary_pattern_free);
  learner.learned = g_ptr_array_new_with_free_func (g_free);
  learner.summary_lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  _winnow_learn_known_set_init (&learner.errors, _winnow_learn_error_shapes,
                                _winnow_learn_n_error_shapes, "i");
  _winnow_learn_known_set_init (&learner.summary_set, _winnow_learn_summary_shapes,
                                _winnow_learn_n_summary_shapes, "i");
  _winnow_learn_known_set_init (&learner.kinds, _winnow_learn_noise_kinds, N_KINDS, "");

  self = g_object_new (WINNOW_TYPE_LEARN_DRAFT, NULL);
  self->command = g_strdup (command);

  /* 1. check and clean the samples */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();

    json_parser_load_from_data (parser, "{\"id\":\"learn-clean\",\"label\":\"clean\","
                                "\"category\":\"generic\",\"rules\":{\"stripAnsi\":true}}",
                                -1, NULL);
    cleaner = _winnow_learn_parse_filter (json_parser_get_root (parser), NULL, NULL);
    g_assert (cleaner != NULL);
  }

  for (guint i = 0; i < samples->len; i++)
    {
      WinnowLearnSample *sample = g_ptr_array_index (samples, i);
      SampleData data = { 0 };
      gsize len;
      const char *bytes;

      g_return_val_if_fail (sample != NULL && sample->data != NULL, NULL);

      if (!_winnow_learn_check_sample (&learner, sample, error))
        goto out;

      bytes = g_bytes_get_data (sample->data, &len);
      if (_winnow_learn_is_blank_line (bytes, len))
        {
          _winnow_learn_learner_diagnostic (&learner, WINNOW_DIAGNOSTIC_WARNING, sample->name, NULL,
                                            "skipped: the sample is empty, there is nothing to "
                                            "learn from it");
          continue;
        }

      data.sample = winnow_learn_sample_copy (sample);
      g_ptr_array_add (self->samples, data.sample);
      data.clean = _winnow_learn_clean_sample (cleaner, bytes, len, &data.clean_len);
      _winnow_learn_split_sample (&data);
      g_array_append_val (learner.samples, data);
    }

  if (learner.samples->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   samples->len == 0 ? "no samples to learn from"
                                     : "every sample is empty: nothing to learn from");
      goto out;
    }

  /* 2. roles, shapes, patterns */
  _winnow_learn_classify (&learner);
  _winnow_learn_build_groups (&learner);
  _winnow_learn_propose_line_patterns (&learner, &proposed, self->proposals);

  for (guint k = 0; k < learner.errors.n; k++)
    if (k == 0 || learner.errors.hits[k] > 0)
      {
        g_ptr_array_add (errors, (gpointer) _winnow_learn_error_shapes[k].pattern);
        _winnow_learn_add_proposal (self->proposals, "preserve.errorPatterns",
                                    _winnow_learn_error_shapes[k].pattern,
                                    k == 0 && learner.errors.hits[k] == 0
                                      ? "the words the detector treats as errors (none in these "
                                        "samples; kept for the runs that fail)"
                                      : _winnow_learn_error_shapes[k].reason,
                                    learner.errors.hits[k], learner.errors.example[k]);
      }
  for (guint k = 0; k < learner.summaries->len; k++)
    {
      SummaryPattern *sp = g_ptr_array_index (learner.summaries, k);

      g_ptr_array_add (summaries, (gpointer) sp->pattern);
      _winnow_learn_add_proposal (self->proposals, "preserve.summaryPatterns", sp->pattern,
                                  sp->reason, sp->lines, sp->example);
    }

  /* 3. what selects the draft */
  if (words->len > 0)
    {
      g_autofree char *regex = _winnow_learn_command_regex (words);
      g_autofree char *reason = g_strdup_printf ("the first words of “%s”", command);

      g_ptr_array_add (commands, g_strdup (regex));
      _winnow_learn_add_proposal (self->proposals, "match.commands", regex, reason, 0, NULL);
    }

  detector = winnow_detector_new ();
  for (guint i = 0; i < learner.samples->len; i++)
    {
      SampleData *data = &g_array_index (learner.samples, SampleData, i);
      gsize len;
      const char *bytes = g_bytes_get_data (data->sample->data, &len);
      g_autoptr(WinnowDetection) detection = winnow_detector_detect (detector, bytes, len, command);
      const char *type = winnow_detection_get_output_type (detection);
      g_autofree char *reason = NULL;

      /* the generic types are fallbacks: claiming them would route everything here */
      if (winnow_detection_get_passthrough (detection) || g_str_has_prefix (type, "generic-"))
        continue;
      /* the table's string, which outlives the detection */
      if (category == NULL &&
          _winnow_learn_is_known_category (winnow_detector_get_type_category (type)))
        category = winnow_detector_get_type_category (type);
      if (!g_ptr_array_find_with_equal_func (output_types, type, g_str_equal, NULL))
        {
          reason = g_strdup_printf ("the detector's classification of %s", data->sample->name);

          g_ptr_array_add (output_types, g_strdup (type));
          _winnow_learn_add_proposal (self->proposals, "match.outputTypes", type, reason, 0, NULL);
        }
    }
  if (category == NULL)
    category = "generic";

  description = g_strdup_printf ("Drafted by “winnow learn” from %u sample%s%s%s%s: drops %u "
                                 "noise line shapes, collapses %u, and keeps error and summary "
                                 "lines. Review the patterns before trusting it.",
                                 learner.samples->len, learner.samples->len == 1 ? "" : "s",
                                 command ? " of “" : "", command ? command : "",
                                 command ? "”" : "", proposed.drop->len, proposed.collapse->len);

  d = (Draft) {
    .id = id, .label = label, .description = description, .category = category,
    .output_types = output_types, .commands = commands, .drop = proposed.drop,
    .collapse = proposed.collapse, .errors = errors, .summaries = summaries,
    .command = command,
  };

  /* 4. run the draft on every sample */
  node = _winnow_learn_draft_to_node (&d);
  filter = _winnow_learn_parse_filter (node, NULL, error);
  if (filter == NULL)
    goto out;

  for (guint i = 0; i < learner.samples->len; i++)
    {
      SampleData *data = &g_array_index (learner.samples, SampleData, i);
      g_autoptr(WinnowRtkResult) result = NULL;
      const int *origins;
      guint n_out;
      gsize len;
      gsize out_len;
      const char *bytes = g_bytes_get_data (data->sample->data, &len);
      const char *text;

      result = _winnow_learn_run_as_verify (filter, bytes, len);
      text = winnow_rtk_result_get_text (result, &out_len);
      data->sample->lines_before = _winnow_learn_count_lines (data->clean, data->clean_len);
      data->sample->lines_after = _winnow_learn_count_lines (text, out_len);
      data->sample->tokens_before = winnow_tokens_count (bytes, len);
      data->sample->tokens_after = winnow_tokens_count (text, out_len);
      g_ptr_array_add (outputs, g_strndup (text, out_len));

      origins = winnow_rtk_result_get_line_origins (result, &n_out);
      for (guint k = 0; k < n_out; k++)
        all_clean_outputs &= origins[k] >= 0;
    }

  /* 5. a whole-output shortcut, when success looks the same every time: two or more samples,
   * no error line anywhere, and the draft makes every one of them the same few lines of
   * their own. The message is that very text, so the shortcut loses nothing the draft keeps;
   * it only makes the next run's unseen noise irrelevant. */
  if (learner.samples->len >= 2 && learner.n_error_lines == 0 && all_clean_outputs)
    {
      const char *first = g_ptr_array_index (outputs, 0);
      gboolean same = first[0] != '\0' && _winnow_learn_count_lines (first, strlen (first)) <= 3;

      for (guint i = 1; i < outputs->len && same; i++)
        same = strcmp (first, g_ptr_array_index (outputs, i)) == 0;

      if (same)
        {
          g_auto(GStrv) lines = g_strsplit (first, "\n", -1);
          GString *pattern = g_string_new (NULL);

          for (guint i = 0; lines[i] != NULL; i++)
            {
              g_autofree char *lit = NULL;

              if (lines[i][0] == '\0')
                continue;
              lit = _winnow_learn_literal_line_regex (lines[i]);
              g_string_append_printf (pattern, "%s%s", pattern->len > 0 ? "[\\s\\S]*" : "", lit);
            }
          shortcut_pattern = g_string_free (pattern, FALSE);
          shortcut_message = g_strdup (first);
          d.shortcut_pattern = shortcut_pattern;
          d.shortcut_message = shortcut_message;
          d.shortcut_unless = _winnow_learn_error_shapes[0].pattern;
          _winnow_learn_add_proposal (self->proposals, "rules.matchOutput", shortcut_pattern,
                                      "every sample succeeds and comes out the same; the "
                                      "shortcut answers with that text unless an error word "
                                      "appears",
                                      learner.samples->len, first);
        }
    }

  /* 6. the tests: each sample with what the final draft makes of it */
  if (d.shortcut_pattern != NULL)
    {
      g_clear_pointer (&node, json_node_unref);
      g_clear_object (&filter);
      node = _winnow_learn_draft_to_node (&d);
      filter = _winnow_learn_parse_filter (node, NULL, error);
      if (filter == NULL)
        goto out;
    }

  for (guint i = 0; i < learner.samples->len; i++)
    {
      SampleData *data = &g_array_index (learner.samples, SampleData, i);
      g_autoptr(WinnowRtkResult) result = NULL;
      gsize len;
      const char *bytes = g_bytes_get_data (data->sample->data, &len);
      char *input = _winnow_learn_test_input (bytes, len, options->max_test_bytes,
                                              &data->sample->test_cut);

      result = _winnow_learn_run_as_verify (filter, input, -1);
      g_ptr_array_add (test_inputs, input);
      g_ptr_array_add (test_expected, g_strdup (winnow_rtk_result_get_text (result, NULL)));
      if (data->sample->test_cut)
        {
          g_autofree char *message =
            g_strdup_printf ("the test holds only the first %u of %u lines of this sample",
                             _winnow_learn_count_lines (input, strlen (input)),
                             _winnow_learn_count_lines (bytes, len));

          g_ptr_array_add (test_names, g_strdup_printf ("%s (first part)", data->sample->name));
          _winnow_learn_learner_diagnostic (&learner, WINNOW_DIAGNOSTIC_INFO, data->sample->name,
                                            "tests", message);
        }
      else
        g_ptr_array_add (test_names, g_strdup (data->sample->name));
    }

  d.test_names = test_names;
  d.test_inputs = test_inputs;
  d.test_expected = test_expected;
  g_clear_pointer (&node, json_node_unref);
  g_clear_object (&filter);
  node = _winnow_learn_draft_to_node (&d);
  self->filter = _winnow_learn_parse_filter (node, diagnostics, error);
  if (self->filter == NULL)
    goto out;
  self->json = winnow_filter_to_json (self->filter);
  ok = TRUE;

out:
  g_ptr_array_unref (learner.summaries);
  g_ptr_array_unref (learner.learned);
  g_hash_table_unref (learner.summary_lines);
  g_hash_table_unref (learner.groups);
  g_array_unref (learner.samples);
  g_free (learner.blank_example);
  _winnow_learn_known_set_clear (&learner.errors);
  _winnow_learn_known_set_clear (&learner.summary_set);
  _winnow_learn_known_set_clear (&learner.kinds);
  g_ptr_array_unref (proposed.drop);
  g_ptr_array_unref (proposed.collapse);

  return ok ? g_steal_pointer (&self) : NULL;
}

/* ---- async, for the dashboard ------------------------------------------------------------ */

typedef struct
{
  char               *command;
  GPtrArray          *samples;
  WinnowLearnOptions  options;
  char               *id;
  char               *label;
  GPtrArray          *diagnostics;
} LearnTask;

static void
learn_task_free (LearnTask *task)
{
  g_free (task->command);
  g_ptr_array_unref (task->samples);
  g_free (task->id);
  g_free (task->label);
  g_ptr_array_unref (task->diagnostics);
  g_free (task);
}

static void
learn_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  LearnTask *data = task_data;
  GError *error = NULL;
  WinnowLearnDraft *draft;

  draft = winnow_learn_filter (data->command, data->samples, &data->options, data->diagnostics,
                               &error);
  if (draft == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, draft, g_object_unref);
}

/**
 * winnow_learn_filter_async:
 * @command: (nullable): as for winnow_learn_filter()
 * @samples: (element-type WinnowLearnSample): as for winnow_learn_filter(); copied
 * @options: (nullable): as for winnow_learn_filter(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the calling thread's main context when the draft is ready
 * @user_data: data for @callback
 *
 * Runs winnow_learn_filter() in a worker thread on copies of its arguments.
 */
void
winnow_learn_filter_async (const char               *command,
                           GPtrArray                *samples,
                           const WinnowLearnOptions *options,
                           GCancellable             *cancellable,
                           GAsyncReadyCallback       callback,
                           gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;
  LearnTask *data;

  g_return_if_fail (samples != NULL);

  data = g_new0 (LearnTask, 1);
  data->command = g_strdup (command);
  data->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  for (guint i = 0; i < samples->len; i++)
    g_ptr_array_add (data->samples, winnow_learn_sample_copy (g_ptr_array_index (samples, i)));
  if (options != NULL)
    data->options = *options;
  else
    winnow_learn_options_init (&data->options);
  data->options.id = data->id = g_strdup (data->options.id);
  data->options.label = data->label = g_strdup (data->options.label);
  data->diagnostics = g_ptr_array_new_with_free_func (g_object_unref);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, winnow_learn_filter_async);
  g_task_set_task_data (task, data, (GDestroyNotify) learn_task_free);
  g_task_run_in_thread (task, learn_thread);
}

/**
 * winnow_learn_filter_finish:
 * @result: the #GAsyncResult given to the callback
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): where to add the notes
 * @error: return location for an error
 *
 * Returns: (transfer full): the draft, or %NULL with @error set
 */
WinnowLearnDraft *
winnow_learn_filter_finish (GAsyncResult  *result,
                            GPtrArray     *diagnostics,
                            GError       **error)
{
  LearnTask *data;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == winnow_learn_filter_async,
                        NULL);

  data = g_task_get_task_data (G_TASK (result));
  if (diagnostics != NULL)
    for (guint i = 0; i < data->diagnostics->len; i++)
      g_ptr_array_add (diagnostics, g_object_ref (g_ptr_array_index (data->diagnostics, i)));

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- accessors --------------------------------------------------------------------------- */

/**
 * winnow_learn_draft_get_json:
 * @self: a #WinnowLearnDraft
 *
 * Returns: the draft filter as canonical JSON, what winnow_filter_pack_parse() reads back
 */
const char *
winnow_learn_draft_get_json (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  return self->json;
}

/**
 * winnow_learn_draft_get_filter:
 * @self: a #WinnowLearnDraft
 *
 * Returns: (transfer none): the draft, parsed
 */
WinnowFilter *
winnow_learn_draft_get_filter (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  return self->filter;
}

const char *
winnow_learn_draft_get_command (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  return self->command;
}

/**
 * winnow_learn_draft_get_n_samples:
 * @self: a #WinnowLearnDraft
 *
 * Returns: how many samples were learned from (empty ones are skipped)
 */
guint
winnow_learn_draft_get_n_samples (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), 0);
  return self->samples->len;
}

/**
 * winnow_learn_draft_get_sample:
 * @self: a #WinnowLearnDraft
 * @index: which
 *
 * Returns: (transfer none): a sample learned from, with what the draft does to it
 */
const WinnowLearnSample *
winnow_learn_draft_get_sample (WinnowLearnDraft *self,
                               guint             index)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  g_return_val_if_fail (index < self->samples->len, NULL);
  return g_ptr_array_index (self->samples, index);
}

guint
winnow_learn_draft_get_n_proposals (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), 0);
  return self->proposals->len;
}

/**
 * winnow_learn_draft_get_proposal:
 * @self: a #WinnowLearnDraft
 * @index: which
 *
 * Returns: (transfer none): one thing the draft proposes, and why
 */
const WinnowLearnProposal *
winnow_learn_draft_get_proposal (WinnowLearnDraft *self,
                                 guint             index)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  g_return_val_if_fail (index < self->proposals->len, NULL);
  return g_ptr_array_index (self->proposals, index);
}

/**
 * winnow_learn_draft_to_json_node:
 * @self: a #WinnowLearnDraft
 *
 * The draft for machines: `{filter, counter, samples:[{name, linesBefore, linesAfter,
 * tokensBefore, tokensAfter, testCut}], proposals:[{field, value, reason, lines, example}]}`.
 *
 * Returns: (transfer full): a JSON object
 */
JsonNode *
winnow_learn_draft_to_json_node (WinnowLearnDraft *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "filter");
  json_builder_add_value (builder, winnow_filter_to_json_node (self->filter));
  _winnow_learn_add_member (builder, "counter", winnow_tokens_counter_name ());
  json_builder_set_member_name (builder, "samples");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->samples->len; i++)
    {
      const WinnowLearnSample *sample = g_ptr_array_index (self->samples, i);

      json_builder_begin_object (builder);
      _winnow_learn_add_member (builder, "name", sample->name);
      json_builder_set_member_name (builder, "linesBefore");
      json_builder_add_int_value (builder, sample->lines_before);
      json_builder_set_member_name (builder, "linesAfter");
      json_builder_add_int_value (builder, sample->lines_after);
      json_builder_set_member_name (builder, "tokensBefore");
      json_builder_add_int_value (builder, sample->tokens_before);
      json_builder_set_member_name (builder, "tokensAfter");
      json_builder_add_int_value (builder, sample->tokens_after);
      json_builder_set_member_name (builder, "testCut");
      json_builder_add_boolean_value (builder, sample->test_cut);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "proposals");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->proposals->len; i++)
    {
      const WinnowLearnProposal *proposal = g_ptr_array_index (self->proposals, i);

      json_builder_begin_object (builder);
      _winnow_learn_add_member (builder, "field", proposal->field);
      _winnow_learn_add_member (builder, "value", proposal->value);
      _winnow_learn_add_member (builder, "reason", proposal->reason);
      json_builder_set_member_name (builder, "lines");
      json_builder_add_int_value (builder, proposal->lines);
      if (proposal->example != NULL)
        _winnow_learn_add_member (builder, "example", proposal->example);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
