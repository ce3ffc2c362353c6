/* winnow-rule-pack-check.c — validating an edited rule pack and running its samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One check is everything the Rule Packs page shows about a version of a pack's text: the
 * engine's diagnostics (compiling and linting every pattern, which takes too long for a
 * keystroke on the main thread), every `tests[]` sample at the three intensities, and the
 * pack's effect on the prose the person is trying it on. It runs in a worker thread on copies
 * of the text, so the page can cancel it and start another when the text changes again.
 *
 * A sample is written for one intensity, the one `winnow verify` runs it at. Intensities
 * nest, so a sample of one rule that runs at that intensity must give the same output at
 * every intensity above it (the rule still runs, alone); that is checked too. Below it, for a
 * sample of the whole pack at another intensity, or for a sample showing what happens before
 * a rule starts, there is no expectation: the output is shown, not judged.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include "winnow-rule-pack-check.h"

struct _WinnowRulePackCheck
{
  GObject              parent_instance;

  char                *text;
  WinnowRulePack      *pack;
  GPtrArray           *diagnostics;   /* WinnowDiagnostic */
  GArray              *samples;       /* WinnowSampleCheck */
  guint                n_failing;
  WinnowCavemanResult *prose;
};

G_DEFINE_FINAL_TYPE (WinnowRulePackCheck, winnow_rule_pack_check, G_TYPE_OBJECT)

typedef struct
{
  WinnowRuleSet          *rules;
  char                   *text;
  char                   *source;
  char                   *file;
  char                   *prose;
  WinnowCavemanIntensity  prose_intensity;
  WinnowMessageRole       prose_role;
} CheckData;

static void
check_data_free (gpointer data)
{
  CheckData *d = data;

  g_clear_object (&d->rules);
  g_free (d->text);
  g_free (d->source);
  g_free (d->file);
  g_free (d->prose);
  g_free (d);
}

static void
sample_clear (gpointer data)
{
  WinnowSampleCheck *sample = data;

  g_clear_pointer (&sample->name, g_free);
  g_clear_pointer (&sample->rule, g_free);
  g_clear_pointer (&sample->input, g_free);
  g_clear_pointer (&sample->expected, g_free);
  for (guint i = 0; i < WINNOW_N_INTENSITIES; i++)
    g_clear_pointer (&sample->actual[i], g_free);
}

static void
winnow_rule_pack_check_finalize (GObject *object)
{
  WinnowRulePackCheck *self = (WinnowRulePackCheck *)object;

  g_clear_pointer (&self->text, g_free);
  g_clear_object (&self->pack);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->samples, g_array_unref);
  g_clear_object (&self->prose);

  G_OBJECT_CLASS (winnow_rule_pack_check_parent_class)->finalize (object);
}

static void
winnow_rule_pack_check_class_init (WinnowRulePackCheckClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = winnow_rule_pack_check_finalize;
}

static void
winnow_rule_pack_check_init (WinnowRulePackCheck *self)
{
  self->diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  self->samples = g_array_new (FALSE, TRUE, sizeof (WinnowSampleCheck));
  g_array_set_clear_func (self->samples, sample_clear);
}

static char *
compress (WinnowRuleSet          *rules,
          WinnowRulePack         *pack,
          const WinnowRuleTest   *test,
          WinnowCavemanIntensity  intensity)
{
  g_autoptr(WinnowCavemanResult) result = NULL;
  WinnowCavemanOptions options;

  winnow_caveman_options_init (&options);
  options.intensity = intensity;
  options.role = test->role;
  options.pack = pack;
  options.rule = test->rule;

  result = winnow_caveman_compress (rules, test->input, -1, &options);
  return g_strdup (winnow_caveman_result_get_text (result, NULL));
}

/* Whether @test names a rule that runs at the sample's own intensity. Such a sample says
 * what the rule does, so it holds at every higher intensity too; one naming a rule that only
 * starts higher up says what happens before it does ("full drops it; lite keeps it"). */
static gboolean
names_a_running_rule (WinnowRulePack       *pack,
                      const WinnowRuleTest *test)
{
  if (test->rule == NULL)
    return FALSE;

  for (guint r = 0; r < winnow_rule_pack_get_n_rules (pack); r++)
    {
      WinnowRule *rule = winnow_rule_pack_get_rule (pack, r);

      if (g_strcmp0 (winnow_rule_get_name (rule), test->rule) == 0 &&
          winnow_rule_get_min_intensity (rule) > test->intensity)
        return FALSE;
    }

  return TRUE;
}

static void
run_samples (WinnowRulePackCheck *self,
             WinnowRuleSet       *rules,
             GCancellable        *cancellable)
{
  g_autoptr(GPtrArray) packs = g_ptr_array_new ();
  g_autoptr(WinnowVerifyReport) report = NULL;
  GListModel *outcomes;

  /* the verdict at a sample's own intensity is the verify gate's, word for word */
  g_ptr_array_add (packs, self->pack);
  report = winnow_verify_rule_packs (rules, packs, cancellable);
  outcomes = winnow_verify_report_get_outcomes (report);

  for (guint t = 0; t < winnow_rule_pack_get_n_tests (self->pack); t++)
    {
      const WinnowRuleTest *test = winnow_rule_pack_get_test (self->pack, t);
      WinnowSampleCheck sample = { 0 };
      gboolean failing = FALSE;
      gboolean holds_above;

      if (g_cancellable_is_cancelled (cancellable))
        return;

      holds_above = names_a_running_rule (self->pack, test);

      sample.name = g_strdup (test->name);
      sample.rule = g_strdup (test->rule);
      sample.intensity = test->intensity;
      sample.input = g_strdup (test->input);
      sample.expected = g_strdup (test->expected);

      for (guint i = 0; i < WINNOW_N_INTENSITIES; i++)
        {
          if (i == test->intensity && t < g_list_model_get_n_items (outcomes))
            {
              g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, t);

              sample.actual[i] = g_strdup (winnow_test_outcome_get_actual (outcome));
              sample.verdict[i] = winnow_test_outcome_get_passed (outcome)
                                  ? WINNOW_SAMPLE_PASSED : WINNOW_SAMPLE_FAILED;
            }
          else
            {
              sample.actual[i] = compress (rules, self->pack, test, i);
              if (holds_above && i > test->intensity)
                sample.verdict[i] = g_strcmp0 (sample.actual[i], test->expected) == 0
                                    ? WINNOW_SAMPLE_PASSED : WINNOW_SAMPLE_FAILED;
            }

          failing |= sample.verdict[i] == WINNOW_SAMPLE_FAILED;
        }

      self->n_failing += failing;
      g_array_append_val (self->samples, sample);
    }
}

/**
 * winnow_rule_pack_check_run:
 * @rules: the rule set (the engine asks it for nothing but language data)
 * @text: the pack's JSON text
 * @source: where the pack comes from ("built-in", "global")
 * @file: (nullable): its file, for diagnostics
 * @prose: (nullable): prose to run the pack on
 * @prose_intensity: the intensity for @prose
 * @prose_role: whose message @prose is
 * @cancellable: (nullable): a #GCancellable
 *
 * The synchronous check, for the worker thread and for tests.
 *
 * Returns: (transfer full): what the page shows about @text
 */
WinnowRulePackCheck *
winnow_rule_pack_check_run (WinnowRuleSet          *rules,
                            const char             *text,
                            const char             *source,
                            const char             *file,
                            const char             *prose,
                            WinnowCavemanIntensity  prose_intensity,
                            WinnowMessageRole       prose_role,
                            GCancellable           *cancellable)
{
  WinnowRulePackCheck *self;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (rules), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (source != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_RULE_PACK_CHECK, NULL);
  self->text = g_strdup (text);
  self->pack = winnow_rule_pack_parse (text, -1, source, file, self->diagnostics);
  if (self->pack == NULL)
    return self;

  run_samples (self, rules, cancellable);

  if (prose != NULL && prose[0] != '\0' && !g_cancellable_is_cancelled (cancellable))
    {
      WinnowCavemanOptions options;

      winnow_caveman_options_init (&options);
      options.intensity = prose_intensity;
      options.role = prose_role;
      options.pack = self->pack;
      self->prose = winnow_caveman_compress (rules, prose, -1, &options);
    }

  return self;
}

static void
check_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  CheckData *d = task_data;
  g_autoptr(WinnowRulePackCheck) check = NULL;

  check = winnow_rule_pack_check_run (d->rules, d->text, d->source, d->file, d->prose,
                                      d->prose_intensity, d->prose_role, cancellable);
  if (g_task_return_error_if_cancelled (task))
    return;

  g_task_return_pointer (task, g_steal_pointer (&check), g_object_unref);
}

/**
 * winnow_rule_pack_check_async:
 * @rules: the rule set
 * @text: the pack's JSON text (copied)
 * @source: where the pack comes from
 * @file: (nullable): its file
 * @prose: (nullable): prose to try the pack on (copied)
 * @prose_intensity: the intensity for @prose
 * @prose_role: whose message @prose is
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the calling thread's main context when done
 * @user_data: for @callback
 *
 * Runs winnow_rule_pack_check_run() in a worker thread.
 */
void
winnow_rule_pack_check_async (WinnowRuleSet          *rules,
                              const char             *text,
                              const char             *source,
                              const char             *file,
                              const char             *prose,
                              WinnowCavemanIntensity  prose_intensity,
                              WinnowMessageRole       prose_role,
                              GCancellable           *cancellable,
                              GAsyncReadyCallback     callback,
                              gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  CheckData *d;

  g_return_if_fail (WINNOW_IS_RULE_SET (rules));
  g_return_if_fail (text != NULL);
  g_return_if_fail (source != NULL);

  d = g_new0 (CheckData, 1);
  d->rules = g_object_ref (rules);
  d->text = g_strdup (text);
  d->source = g_strdup (source);
  d->file = g_strdup (file);
  d->prose = g_strdup (prose);
  d->prose_intensity = prose_intensity;
  d->prose_role = prose_role;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, winnow_rule_pack_check_async);
  g_task_set_task_data (task, d, check_data_free);
  g_task_run_in_thread (task, check_thread);
}

/**
 * winnow_rule_pack_check_finish:
 * @result: the #GAsyncResult
 * @error: return location for a #GError (%G_IO_ERROR_CANCELLED)
 *
 * Returns: (transfer full) (nullable): the check
 */
WinnowRulePackCheck *
winnow_rule_pack_check_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * winnow_rule_pack_check_get_text:
 * @self: a #WinnowRulePackCheck
 *
 * Returns: the text that was checked; a result for an older text is stale
 */
const char *
winnow_rule_pack_check_get_text (WinnowRulePackCheck *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), NULL);
  return self->text;
}

/**
 * winnow_rule_pack_check_get_pack:
 * @self: a #WinnowRulePackCheck
 *
 * Returns: (transfer none) (nullable): the parsed pack (rules with errors left out), or %NULL
 *   when the text is not a rule pack
 */
WinnowRulePack *
winnow_rule_pack_check_get_pack (WinnowRulePackCheck *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), NULL);
  return self->pack;
}

/**
 * winnow_rule_pack_check_get_diagnostics:
 * @self: a #WinnowRulePackCheck
 *
 * Returns: (transfer none) (element-type WinnowDiagnostic): the engine's findings, each with
 *   line, column and JSON path
 */
GPtrArray *
winnow_rule_pack_check_get_diagnostics (WinnowRulePackCheck *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), NULL);
  return self->diagnostics;
}

guint
winnow_rule_pack_check_get_n_errors (WinnowRulePackCheck *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), 0);
  return winnow_diagnostics_count_level (self->diagnostics, WINNOW_DIAGNOSTIC_ERROR);
}

guint
winnow_rule_pack_check_get_n_samples (WinnowRulePackCheck *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), 0);
  return self->samples->len;
}

const WinnowSampleCheck *
winnow_rule_pack_check_get_sample (WinnowRulePackCheck *self,
                                   guint                index)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), NULL);
  g_return_val_if_fail (index < self->samples->len, NULL);
  return &g_array_index (self->samples, WinnowSampleCheck, index);
}

/**
 * winnow_rule_pack_check_get_n_failing:
 * @self: a #WinnowRulePackCheck
 *
 * Returns: how many samples fail at one intensity or more
 */
guint
winnow_rule_pack_check_get_n_failing (WinnowRulePackCheck *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), 0);
  return self->n_failing;
}

/**
 * winnow_rule_pack_check_get_prose:
 * @self: a #WinnowRulePackCheck
 *
 * Returns: (transfer none) (nullable): the pack's result on the prose, with the rules that
 *   fired and how often
 */
WinnowCavemanResult *
winnow_rule_pack_check_get_prose (WinnowRulePackCheck *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (self), NULL);
  return self->prose;
}
