/* winnow-test-outcome.c — the result of one inline test of a filter or rule pack
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-verify"

#include "config.h"

#include "winnow-diff.h"
#include "winnow-filter.h"
#include "winnow-rule-pack.h"
#include "winnow-test-outcome.h"

struct _WinnowTestOutcome
{
  GObject         parent_instance;
  WinnowFilter   *filter;
  WinnowRulePack *pack;
  char           *subject;
  guint           index;
  char         *name;
  char         *expected;
  char         *actual;
  guint         passed : 1;
  guint         idempotent : 1;
};

G_DEFINE_FINAL_TYPE (WinnowTestOutcome, winnow_test_outcome, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_PASSED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
winnow_test_outcome_finalize (GObject *object)
{
  WinnowTestOutcome *self = (WinnowTestOutcome *)object;

  g_clear_object (&self->filter);
  g_clear_object (&self->pack);
  g_clear_pointer (&self->subject, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->expected, g_free);
  g_clear_pointer (&self->actual, g_free);

  G_OBJECT_CLASS (winnow_test_outcome_parent_class)->finalize (object);
}

static void
winnow_test_outcome_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  WinnowTestOutcome *self = WINNOW_TEST_OUTCOME (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_PASSED:
      g_value_set_boolean (value, self->passed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_test_outcome_class_init (WinnowTestOutcomeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_test_outcome_finalize;
  object_class->get_property = winnow_test_outcome_get_property;

  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_PASSED] =
    g_param_spec_boolean ("passed", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_test_outcome_init (WinnowTestOutcome *self)
{
}

WinnowTestOutcome *
_winnow_test_outcome_new (WinnowFilter *filter,
                          guint         index,
                          const char   *name,
                          const char   *expected,
                          const char   *actual,
                          gboolean      idempotent)
{
  WinnowTestOutcome *self = g_object_new (WINNOW_TYPE_TEST_OUTCOME, NULL);

  self->filter = g_object_ref (filter);
  self->subject = g_strdup (winnow_filter_get_id (filter));
  self->index = index;
  self->name = g_strdup (name);
  self->expected = g_strdup (expected);
  self->actual = g_strdup (actual);
  self->passed = g_strcmp0 (expected, actual) == 0;
  self->idempotent = idempotent;

  return self;
}

WinnowTestOutcome *
_winnow_test_outcome_new_for_pack (WinnowRulePack *pack,
                                   guint           index,
                                   const char     *name,
                                   const char     *expected,
                                   const char     *actual)
{
  WinnowTestOutcome *self = g_object_new (WINNOW_TYPE_TEST_OUTCOME, NULL);

  self->pack = g_object_ref (pack);
  self->subject = g_strdup_printf ("%s/%s", winnow_rule_pack_get_language (pack),
                                   winnow_rule_pack_get_name (pack));
  self->index = index;
  self->name = g_strdup (name);
  self->expected = g_strdup (expected);
  self->actual = g_strdup (actual);
  self->passed = g_strcmp0 (expected, actual) == 0;
  self->idempotent = TRUE;

  return self;
}

/**
 * winnow_test_outcome_get_filter:
 * @self: a #WinnowTestOutcome
 *
 * Returns: (transfer none) (nullable): the filter the test belongs to, if it is a filter test
 */
WinnowFilter *
winnow_test_outcome_get_filter (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), NULL);
  return self->filter;
}

/**
 * winnow_test_outcome_get_rule_pack:
 * @self: a #WinnowTestOutcome
 *
 * Returns: (transfer none) (nullable): the rule pack the test belongs to, if it is a rule test
 */
WinnowRulePack *
winnow_test_outcome_get_rule_pack (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), NULL);
  return self->pack;
}

/**
 * winnow_test_outcome_get_subject:
 * @self: a #WinnowTestOutcome
 *
 * Returns: what the test belongs to, for people: a filter id or "language/pack"
 */
const char *
winnow_test_outcome_get_subject (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), NULL);
  return self->subject;
}

guint
winnow_test_outcome_get_index (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), 0);
  return self->index;
}

const char *
winnow_test_outcome_get_name (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), NULL);
  return self->name;
}

gboolean
winnow_test_outcome_get_passed (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), FALSE);
  return self->passed;
}

/**
 * winnow_test_outcome_get_idempotent:
 * @self: a #WinnowTestOutcome
 *
 * Returns: %TRUE if running the filter over its own output changed nothing (rule packs are
 *   not required to be idempotent: always %TRUE for them)
 */
gboolean
winnow_test_outcome_get_idempotent (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), FALSE);
  return self->idempotent;
}

const char *
winnow_test_outcome_get_expected (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), NULL);
  return self->expected;
}

const char *
winnow_test_outcome_get_actual (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), NULL);
  return self->actual;
}

/**
 * winnow_test_outcome_dup_diff:
 * @self: a #WinnowTestOutcome
 *
 * Returns: (transfer full) (nullable): an expected-vs-actual line diff, or %NULL if it passed
 */
char *
winnow_test_outcome_dup_diff (WinnowTestOutcome *self)
{
  g_return_val_if_fail (WINNOW_IS_TEST_OUTCOME (self), NULL);

  if (self->passed)
    return NULL;

  return winnow_diff_lines (self->expected, self->actual);
}
