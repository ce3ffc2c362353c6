/* winnow-sample-item.c — one checked sample as an item of a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The samples of a check are plain structs in an array the check owns; a list view wants
 * objects. An item is the check (kept alive by the item) and an index into it, so a pack's
 * hundreds of samples cost one small object each and the rows are made only for those on
 * screen.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include "winnow-sample-item.h"

struct _WinnowSampleItem
{
  GObject              parent_instance;

  WinnowRulePackCheck *check;
  guint                index;
};

G_DEFINE_FINAL_TYPE (WinnowSampleItem, winnow_sample_item, G_TYPE_OBJECT)

static void
winnow_sample_item_finalize (GObject *object)
{
  WinnowSampleItem *self = WINNOW_SAMPLE_ITEM (object);

  g_clear_object (&self->check);

  G_OBJECT_CLASS (winnow_sample_item_parent_class)->finalize (object);
}

static void
winnow_sample_item_class_init (WinnowSampleItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = winnow_sample_item_finalize;
}

static void
winnow_sample_item_init (WinnowSampleItem *self)
{
}

/**
 * winnow_sample_item_new:
 * @check: a finished check
 * @index: one of its samples
 *
 * Returns: (transfer full): an item for the sample
 */
WinnowSampleItem *
winnow_sample_item_new (WinnowRulePackCheck *check,
                        guint                index)
{
  WinnowSampleItem *self;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK_CHECK (check), NULL);
  g_return_val_if_fail (index < winnow_rule_pack_check_get_n_samples (check), NULL);

  self = g_object_new (WINNOW_TYPE_SAMPLE_ITEM, NULL);
  self->check = g_object_ref (check);
  self->index = index;
  return self;
}

const WinnowSampleCheck *
winnow_sample_item_get_sample (WinnowSampleItem *self)
{
  g_return_val_if_fail (WINNOW_IS_SAMPLE_ITEM (self), NULL);
  return winnow_rule_pack_check_get_sample (self->check, self->index);
}

/**
 * winnow_sample_item_is_failing:
 * @self: a #WinnowSampleItem
 *
 * Returns: whether the sample fails at one intensity or more
 */
gboolean
winnow_sample_item_is_failing (WinnowSampleItem *self)
{
  const WinnowSampleCheck *sample = winnow_sample_item_get_sample (self);

  for (guint i = 0; i < WINNOW_N_INTENSITIES; i++)
    if (sample->verdict[i] == WINNOW_SAMPLE_FAILED)
      return TRUE;

  return FALSE;
}

/**
 * winnow_sample_item_list_new:
 * @check: a finished check
 *
 * The check's samples, failing ones first (what a person opening a pack looks for), each
 * group in the pack's order.
 *
 * Returns: (transfer full): a list model of #WinnowSampleItem
 */
GListModel *
winnow_sample_item_list_new (WinnowRulePackCheck *check)
{
  guint n = winnow_rule_pack_check_get_n_samples (check);
  GListStore *store = g_list_store_new (WINNOW_TYPE_SAMPLE_ITEM);
  g_autoptr(GPtrArray) failing = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) passing = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      WinnowSampleItem *item = winnow_sample_item_new (check, i);

      g_ptr_array_add (winnow_sample_item_is_failing (item) ? failing : passing, item);
    }

  g_list_store_splice (store, 0, 0, failing->pdata, failing->len);
  g_list_store_splice (store, failing->len, 0, passing->pdata, passing->len);
  return G_LIST_MODEL (store);
}
