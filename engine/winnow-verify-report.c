/* winnow-verify-report.c — running the inline tests[] of filters and rule packs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The verify gate: every `tests[]` sample runs through its own filter alone (no engine caps,
 * standard intensity, as the samples are written against the filter), the output is compared
 * byte for byte with `expected`, and the output is run through the filter a second time to
 * check the filter is idempotent.
 *
 * A rule pack's samples run through the whole Caveman engine — protected tokens, clean-up
 * and all — with only that pack (and only the named rule, when the sample names one), at the
 * sample's intensity and role, so a sample shows exactly what a user of the rule will see.
 */

#define G_LOG_DOMAIN "winnow-verify"

#include "config.h"

#include "winnow-caveman.h"
#include "winnow-filter.h"
#include "winnow-rtk.h"
#include "winnow-verify-report.h"

struct _WinnowVerifyReport
{
  GObject     parent_instance;
  GListStore *outcomes;
  guint       n_passed;
  guint       n_failed;
  guint       n_not_idempotent;
};

G_DEFINE_FINAL_TYPE (WinnowVerifyReport, winnow_verify_report, G_TYPE_OBJECT)

static void
winnow_verify_report_finalize (GObject *object)
{
  WinnowVerifyReport *self = (WinnowVerifyReport *)object;

  g_clear_object (&self->outcomes);

  G_OBJECT_CLASS (winnow_verify_report_parent_class)->finalize (object);
}

static void
winnow_verify_report_class_init (WinnowVerifyReportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_verify_report_finalize;
}

static void
winnow_verify_report_init (WinnowVerifyReport *self)
{
  self->outcomes = g_list_store_new (WINNOW_TYPE_TEST_OUTCOME);
}

static char *
run_filter (WinnowFilter           *filter,
            const char             *input,
            const WinnowRtkOptions *options)
{
  g_autoptr(WinnowRtkResult) result = winnow_rtk_apply (filter, input, -1, options);

  return g_strdup (winnow_rtk_result_get_text (result, NULL));
}

/**
 * winnow_verify_filters:
 * @filters: (element-type WinnowFilter): the filters whose tests to run
 * @cancellable: (nullable): a #GCancellable
 *
 * Returns: (transfer full): the report, one outcome per test, in filter order
 */
WinnowVerifyReport *
winnow_verify_filters (GPtrArray    *filters,
                       GCancellable *cancellable)
{
  WinnowVerifyReport *self;
  WinnowRtkOptions options;

  g_return_val_if_fail (filters != NULL, NULL);

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;

  self = g_object_new (WINNOW_TYPE_VERIFY_REPORT, NULL);

  for (guint i = 0; i < filters->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (filters, i);

      for (guint t = 0; t < winnow_filter_get_n_tests (filter); t++)
        {
          const WinnowFilterTest *test = winnow_filter_get_test (filter, t);
          g_autofree char *actual = NULL;
          g_autofree char *again = NULL;
          g_autoptr(WinnowTestOutcome) outcome = NULL;
          gboolean idempotent;

          if (g_cancellable_is_cancelled (cancellable))
            return self;

          actual = run_filter (filter, test->input, &options);
          again = run_filter (filter, actual, &options);
          idempotent = g_strcmp0 (actual, again) == 0;

          outcome = _winnow_test_outcome_new (filter, t, test->name, test->expected, actual,
                                              idempotent);
          if (winnow_test_outcome_get_passed (outcome))
            self->n_passed++;
          else
            self->n_failed++;
          if (!idempotent)
            self->n_not_idempotent++;

          g_list_store_append (self->outcomes, outcome);
        }
    }

  return self;
}

/**
 * winnow_verify_rule_packs:
 * @rules: the rule set the packs belong to
 * @packs: (element-type WinnowRulePack): the packs whose tests to run
 * @cancellable: (nullable): a #GCancellable
 *
 * Returns: (transfer full): the report, one outcome per test, in pack order
 */
WinnowVerifyReport *
winnow_verify_rule_packs (WinnowRuleSet *rules,
                          GPtrArray     *packs,
                          GCancellable  *cancellable)
{
  WinnowVerifyReport *self;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (rules), NULL);
  g_return_val_if_fail (packs != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_VERIFY_REPORT, NULL);

  for (guint i = 0; i < packs->len; i++)
    {
      WinnowRulePack *pack = g_ptr_array_index (packs, i);

      for (guint t = 0; t < winnow_rule_pack_get_n_tests (pack); t++)
        {
          const WinnowRuleTest *test = winnow_rule_pack_get_test (pack, t);
          g_autoptr(WinnowCavemanResult) result = NULL;
          g_autoptr(WinnowTestOutcome) outcome = NULL;
          WinnowCavemanOptions options;

          if (g_cancellable_is_cancelled (cancellable))
            return self;

          winnow_caveman_options_init (&options);
          options.intensity = test->intensity;
          options.role = test->role;
          options.pack = pack;
          options.rule = test->rule;

          result = winnow_caveman_compress (rules, test->input, -1, &options);
          outcome = _winnow_test_outcome_new_for_pack (pack, t, test->name, test->expected,
                                                       winnow_caveman_result_get_text (result,
                                                                                       NULL));
          if (winnow_test_outcome_get_passed (outcome))
            self->n_passed++;
          else
            self->n_failed++;

          g_list_store_append (self->outcomes, outcome);
        }
    }

  return self;
}

/**
 * winnow_verify_report_merge:
 * @self: a #WinnowVerifyReport
 * @other: another report
 *
 * Appends the outcomes of @other to @self, so one summary covers filters and rule packs.
 */
void
winnow_verify_report_merge (WinnowVerifyReport *self,
                            WinnowVerifyReport *other)
{
  g_return_if_fail (WINNOW_IS_VERIFY_REPORT (self));
  g_return_if_fail (WINNOW_IS_VERIFY_REPORT (other));

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (other->outcomes)); i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (G_LIST_MODEL (other->outcomes),
                                                                    i);
      g_list_store_append (self->outcomes, outcome);
    }

  self->n_passed += other->n_passed;
  self->n_failed += other->n_failed;
  self->n_not_idempotent += other->n_not_idempotent;
}

static void
verify_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GPtrArray *filters = task_data;

  g_task_return_pointer (task, winnow_verify_filters (filters, cancellable), g_object_unref);
}

/**
 * winnow_verify_filters_async:
 * @filters: (element-type WinnowFilter): the filters whose tests to run
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the calling thread's main context when done
 * @user_data: data for @callback
 *
 * Runs winnow_verify_filters() on a worker thread. Filters are immutable, so the worker only
 * holds references.
 */
void
winnow_verify_filters_async (GPtrArray           *filters,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GPtrArray *copy;

  g_return_if_fail (filters != NULL);

  copy = g_ptr_array_new_full (filters->len, g_object_unref);
  for (guint i = 0; i < filters->len; i++)
    g_ptr_array_add (copy, g_object_ref (g_ptr_array_index (filters, i)));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, winnow_verify_filters_async);
  g_task_set_task_data (task, copy, (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, verify_thread);
}

/**
 * winnow_verify_filters_finish:
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the report
 */
WinnowVerifyReport *
winnow_verify_filters_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * winnow_verify_report_get_outcomes:
 * @self: a #WinnowVerifyReport
 *
 * Returns: (transfer none): a #GListModel of #WinnowTestOutcome
 */
GListModel *
winnow_verify_report_get_outcomes (WinnowVerifyReport *self)
{
  g_return_val_if_fail (WINNOW_IS_VERIFY_REPORT (self), NULL);
  return G_LIST_MODEL (self->outcomes);
}

guint
winnow_verify_report_get_n_passed (WinnowVerifyReport *self)
{
  g_return_val_if_fail (WINNOW_IS_VERIFY_REPORT (self), 0);
  return self->n_passed;
}

guint
winnow_verify_report_get_n_failed (WinnowVerifyReport *self)
{
  g_return_val_if_fail (WINNOW_IS_VERIFY_REPORT (self), 0);
  return self->n_failed;
}

guint
winnow_verify_report_get_n_not_idempotent (WinnowVerifyReport *self)
{
  g_return_val_if_fail (WINNOW_IS_VERIFY_REPORT (self), 0);
  return self->n_not_idempotent;
}

/**
 * winnow_verify_report_dup_summary:
 * @self: a #WinnowVerifyReport
 *
 * Returns: (transfer full): "N passed, N failed"
 */
char *
winnow_verify_report_dup_summary (WinnowVerifyReport *self)
{
  g_return_val_if_fail (WINNOW_IS_VERIFY_REPORT (self), NULL);

  return g_strdup_printf ("%u passed, %u failed", self->n_passed, self->n_failed);
}
