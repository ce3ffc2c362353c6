/* winnow-rule-item.c — one rule of the pack in the form, as an item of a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The form is a list view: a pack of hundreds of rules makes rows only for those on screen,
 * and a row shows one rule after another as the list scrolls. What must outlive the row is
 * kept here: which rule (its index in `rules[]`), its name as edited (the search filters on
 * it), whether the person unfolded it, and the engine's error about it. The rule itself is
 * read from the pack's text each time a row shows it.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include "winnow-rule-item.h"

struct _WinnowRuleItem
{
  GObject   parent_instance;

  guint     index;
  char     *name;
  gboolean  expanded;
  char     *error;
};

G_DEFINE_FINAL_TYPE (WinnowRuleItem, winnow_rule_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_EXPANDED,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
winnow_rule_item_finalize (GObject *object)
{
  WinnowRuleItem *self = WINNOW_RULE_ITEM (object);

  g_free (self->name);
  g_free (self->error);

  G_OBJECT_CLASS (winnow_rule_item_parent_class)->finalize (object);
}

static void
winnow_rule_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WinnowRuleItem *self = WINNOW_RULE_ITEM (object);

  switch (prop_id)
    {
    case PROP_EXPANDED:
      g_value_set_boolean (value, self->expanded);
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_rule_item_class_init (WinnowRuleItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_rule_item_finalize;
  object_class->get_property = winnow_rule_item_get_property;

  /**
   * WinnowRuleItem:expanded:
   *
   * Whether the person unfolded the rule's row.
   */
  properties [PROP_EXPANDED] =
    g_param_spec_boolean ("expanded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRuleItem:error:
   *
   * The engine's error about the rule, or %NULL when it loads.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_rule_item_init (WinnowRuleItem *self)
{
}

/**
 * winnow_rule_item_new:
 * @index: the rule's index in `rules[]`
 * @name: (nullable): its name, %NULL when the entry is not a rule object
 *
 * Returns: (transfer full): an item for the rule
 */
WinnowRuleItem *
winnow_rule_item_new (guint       index,
                      const char *name)
{
  WinnowRuleItem *self = g_object_new (WINNOW_TYPE_RULE_ITEM, NULL);

  self->index = index;
  self->name = g_strdup (name);
  return self;
}

guint
winnow_rule_item_get_index (WinnowRuleItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_ITEM (self), 0);
  return self->index;
}

/**
 * winnow_rule_item_get_name:
 * @self: a #WinnowRuleItem
 *
 * Returns: (nullable): the rule's name as last edited; %NULL when `rules[]` holds something
 *   else than an object there
 */
const char *
winnow_rule_item_get_name (WinnowRuleItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_ITEM (self), NULL);
  return self->name;
}

void
winnow_rule_item_set_name (WinnowRuleItem *self,
                           const char     *name)
{
  g_return_if_fail (WINNOW_IS_RULE_ITEM (self));

  g_free (self->name);
  self->name = g_strdup (name);
}

gboolean
winnow_rule_item_get_expanded (WinnowRuleItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_ITEM (self), FALSE);
  return self->expanded;
}

void
winnow_rule_item_set_expanded (WinnowRuleItem *self,
                               gboolean        expanded)
{
  g_return_if_fail (WINNOW_IS_RULE_ITEM (self));

  if (self->expanded == !!expanded)
    return;
  self->expanded = !!expanded;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_EXPANDED]);
}

/**
 * winnow_rule_item_get_error:
 * @self: a #WinnowRuleItem
 *
 * Returns: (nullable): the engine's error about the rule
 */
const char *
winnow_rule_item_get_error (WinnowRuleItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_ITEM (self), NULL);
  return self->error;
}

void
winnow_rule_item_set_error (WinnowRuleItem *self,
                            const char     *error)
{
  g_return_if_fail (WINNOW_IS_RULE_ITEM (self));

  if (g_strcmp0 (self->error, error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ERROR]);
}
