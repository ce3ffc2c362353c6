/* winnow-rule-pack-list.c — the languages and packs the Rule Packs page lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A tree of languages and their packs (in the order they apply), flattened for a GtkListView
 * and filtered by the search. Each pack's badge for failing samples needs every pack's
 * samples run: that happens once, in a worker thread, when the rule set is given; a pack that
 * has been opened since has its own, newer check and keeps its badge.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <string.h>

#include "winnow-rule-pack-list.h"

struct _WinnowRulePackList
{
  GObject          parent_instance;

  GListStore      *languages;     /* WinnowRulePackItem */
  GtkCustomFilter *filter;
  GListModel      *model;         /* GtkTreeListRow, filtered */
  char            *query;         /* case-folded, NULL when empty */
  GCancellable    *cancellable;
};

G_DEFINE_FINAL_TYPE (WinnowRulePackList, winnow_rule_pack_list, G_TYPE_OBJECT)

static gboolean
filter_row (gpointer row,
            gpointer user_data)
{
  WinnowRulePackList *self = user_data;
  g_autoptr(WinnowRulePackItem) item = gtk_tree_list_row_get_item (row);
  g_autofree char *language = NULL;

  if (self->query == NULL || winnow_rule_pack_item_matches (item, self->query))
    return TRUE;

  /* "pt" shows every pack of Portuguese */
  language = g_utf8_casefold (winnow_rule_pack_item_get_language (item), -1);
  return strstr (language, self->query) != NULL;
}

static GListModel *
create_child_model (gpointer item,
                    gpointer user_data)
{
  GListModel *children = winnow_rule_pack_item_get_children (item);

  return children ? g_object_ref (children) : NULL;
}

static void
winnow_rule_pack_list_dispose (GObject *object)
{
  WinnowRulePackList *self = (WinnowRulePackList *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->model);
  g_clear_object (&self->filter);
  g_clear_object (&self->languages);
  g_clear_pointer (&self->query, g_free);

  G_OBJECT_CLASS (winnow_rule_pack_list_parent_class)->dispose (object);
}

static void
winnow_rule_pack_list_class_init (WinnowRulePackListClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = winnow_rule_pack_list_dispose;
}

static void
winnow_rule_pack_list_init (WinnowRulePackList *self)
{
  GtkTreeListModel *tree;

  self->languages = g_list_store_new (WINNOW_TYPE_RULE_PACK_ITEM);
  tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->languages)), FALSE, TRUE,
                                  create_child_model, NULL, NULL);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->model = G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (tree),
                                                         GTK_FILTER (g_object_ref (self->filter))));
}

WinnowRulePackList *
winnow_rule_pack_list_new (void)
{
  return g_object_new (WINNOW_TYPE_RULE_PACK_LIST, NULL);
}

/**
 * winnow_rule_pack_list_get_model:
 * @self: a #WinnowRulePackList
 *
 * Returns: (transfer none): the rows the search leaves, as #GtkTreeListRow of
 *   #WinnowRulePackItem
 */
GListModel *
winnow_rule_pack_list_get_model (WinnowRulePackList *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_LIST (self), NULL);
  return self->model;
}

/**
 * winnow_rule_pack_list_set_query:
 * @self: a #WinnowRulePackList
 * @text: (nullable): what the person searches for; empty or %NULL shows everything
 */
void
winnow_rule_pack_list_set_query (WinnowRulePackList *self,
                                 const char         *text)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_LIST (self));

  g_clear_pointer (&self->query, g_free);
  if (text != NULL && text[0] != '\0')
    self->query = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/**
 * winnow_rule_pack_list_find:
 * @self: a #WinnowRulePackList
 * @language: a language key
 * @name: a pack name
 *
 * Returns: the pack's position in the model, or %GTK_INVALID_LIST_POSITION when the search
 *   hides it or there is no such pack
 */
guint
winnow_rule_pack_list_find (WinnowRulePackList *self,
                            const char         *language,
                            const char         *name)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_LIST (self), GTK_INVALID_LIST_POSITION);

  for (guint i = 0; i < g_list_model_get_n_items (self->model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (self->model, i);
      g_autoptr(WinnowRulePackItem) item = gtk_tree_list_row_get_item (row);

      if (!winnow_rule_pack_item_is_language (item) &&
          g_strcmp0 (winnow_rule_pack_item_get_language (item), language) == 0 &&
          g_strcmp0 (winnow_rule_pack_item_get_name (item), name) == 0)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

/* --- every pack's samples, for the badges --------------------------------------------- */

typedef struct
{
  WinnowRuleSet *rules;
  GPtrArray     *packs;   /* WinnowRulePack */
  GPtrArray     *items;   /* WinnowRulePackItem, touched on the main thread only */
} VerifyData;

static void
verify_data_free (gpointer data)
{
  VerifyData *d = data;

  g_clear_object (&d->rules);
  g_clear_pointer (&d->packs, g_ptr_array_unref);
  g_clear_pointer (&d->items, g_ptr_array_unref);
  g_free (d);
}

static void
verify_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  VerifyData *d = task_data;
  GArray *failed = g_array_new (FALSE, TRUE, sizeof (guint));

  for (guint i = 0; i < d->packs->len && !g_cancellable_is_cancelled (cancellable); i++)
    {
      g_autoptr(GPtrArray) one = g_ptr_array_new ();
      g_autoptr(WinnowVerifyReport) report = NULL;
      guint n;

      g_ptr_array_add (one, g_ptr_array_index (d->packs, i));
      report = winnow_verify_rule_packs (d->rules, one, cancellable);
      n = winnow_verify_report_get_n_failed (report);
      g_array_append_val (failed, n);
    }

  g_task_return_pointer (task, failed, (GDestroyNotify) g_array_unref);
}

/* The task holds no reference to the list: a list disposed meanwhile cancelled it, and a
 * cancelled task returns an error here without the list being looked at. */
static void
verify_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  VerifyData *d = g_task_get_task_data (G_TASK (result));
  g_autoptr(GArray) failed = g_task_propagate_pointer (G_TASK (result), NULL);

  if (failed == NULL)
    return;

  for (guint i = 0; i < failed->len && i < d->items->len; i++)
    {
      WinnowRulePackItem *item = g_ptr_array_index (d->items, i);

      if (!winnow_rule_pack_item_has_document (item))
        winnow_rule_pack_item_set_n_failing (item, g_array_index (failed, guint, i));
    }
}

static guint
count_file_diagnostics (GPtrArray  *diagnostics,
                        const char *file)
{
  guint n = 0;

  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *diagnostic = g_ptr_array_index (diagnostics, i);

      if (winnow_diagnostic_get_level (diagnostic) != WINNOW_DIAGNOSTIC_INFO &&
          g_strcmp0 (winnow_diagnostic_get_file (diagnostic), file) == 0)
        n++;
    }

  return n;
}

/**
 * winnow_rule_pack_list_set_rule_set:
 * @self: a #WinnowRulePackList
 * @rules: (nullable): the packs to list
 *
 * Lists every pack of @rules (reading them all) and starts running their samples.
 */
void
winnow_rule_pack_list_set_rule_set (WinnowRulePackList *self,
                                    WinnowRuleSet      *rules)
{
  g_autoptr(GPtrArray) packs = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GTask) task = NULL;
  WinnowRulePackItem *language = NULL;
  VerifyData *d;

  g_return_if_fail (WINNOW_IS_RULE_PACK_LIST (self));
  g_return_if_fail (rules == NULL || WINNOW_IS_RULE_SET (rules));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_list_store_remove_all (self->languages);
  if (rules == NULL)
    return;

  packs = winnow_rule_set_list_packs (rules);
  diagnostics = winnow_rule_set_dup_diagnostics (rules);

  d = g_new0 (VerifyData, 1);
  d->rules = g_object_ref (rules);
  d->packs = g_ptr_array_new_with_free_func (g_object_unref);
  d->items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < packs->len; i++)
    {
      WinnowRulePack *pack = g_ptr_array_index (packs, i);
      g_autoptr(WinnowRulePackItem) item = NULL;

      if (language == NULL || g_strcmp0 (winnow_rule_pack_item_get_language (language),
                                         winnow_rule_pack_get_language (pack)) != 0)
        {
          g_autoptr(WinnowRulePackItem) new_language =
            winnow_rule_pack_item_new_language (winnow_rule_pack_get_language (pack));

          g_list_store_append (self->languages, new_language);
          language = new_language;
        }

      item = winnow_rule_pack_item_new_pack (pack,
                                             count_file_diagnostics (diagnostics,
                                                                     winnow_rule_pack_get_file (pack)));
      winnow_rule_pack_item_add_child (language, item);
      g_ptr_array_add (d->packs, g_object_ref (pack));
      g_ptr_array_add (d->items, g_object_ref (item));
    }

  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, verify_cb, NULL);
  g_task_set_source_tag (task, winnow_rule_pack_list_set_rule_set);
  g_task_set_task_data (task, d, verify_data_free);
  g_task_run_in_thread (task, verify_thread);
}
