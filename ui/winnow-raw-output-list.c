/* winnow-raw-output-list.c — the retained raw outputs as a lazily read GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Raw Output page may look at tens of thousands of retained outputs. The list counts the
 * rows that match (in a worker) and tells the view that many; a row is read only when the
 * view asks for it, a page of WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE rows at a time through the
 * store's async listing, and never the files themselves. Until its page arrives a row is an
 * empty WinnowRawOutputItem that is filled in place.
 *
 * The store lists rows newest first, so "by time" in either direction is paged straight from
 * it (oldest first reads the pages from the other end). The store has no other order: sorting
 * by command, size, failure or redactions reads every matching row (still without the files)
 * and sorts here — when there are at most WINNOW_RAW_OUTPUT_LIST_LOCAL_SORT_MAX of them;
 * beyond that the list stays in time order and says so (sort-limited) rather than pretending
 * to sort what it has not read.
 *
 * Every reload starts a generation: pages or counts from an older one are dropped when they
 * arrive, since their offsets no longer mean the same rows.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <string.h>

#include "winnow-raw-output-list.h"

struct _WinnowRawOutputList
{
  GObject              parent_instance;

  WinnowStore         *store;
  char                *command;
  gboolean             failures_only;
  gint64               since_us;
  WinnowRawOutputSort  sort;
  gboolean             descending;

  GPtrArray           *items;          /* of WinnowRawOutputItem, NULL where never asked for */
  GHashTable          *pending;        /* pages being read, by page number */
  GCancellable        *cancellable;    /* of the current generation */
  guint                generation;
  gboolean             paged;          /* rows come a page at a time (time order) */
  gboolean             loading;
  gboolean             sort_limited;
  char                *error;
  guint                n_pages_fetched;
  guint                n_rows_fetched;
};

static void winnow_raw_output_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowRawOutputList, winnow_raw_output_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      winnow_raw_output_list_model_init))

enum {
  PROP_0,
  PROP_LOADING,
  PROP_SORT_LIMITED,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

typedef struct
{
  WinnowRawOutputList *list;
  guint                generation;
  guint                page;
} PageRequest;

static void
page_request_free (PageRequest *request)
{
  g_clear_object (&request->list);
  g_free (request);
}

/* the list's arrays hold NULL for rows the view never asked for */
static void
item_unref (gpointer item)
{
  if (item != NULL)
    g_object_unref (item);
}

static void
set_loading (WinnowRawOutputList *self,
             gboolean             loading)
{
  if (self->loading == loading)
    return;

  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOADING]);
}

static void
set_error (WinnowRawOutputList *self,
           const char          *message)
{
  if (g_strcmp0 (self->error, message) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ERROR]);
}

static void
set_sort_limited (WinnowRawOutputList *self,
                  gboolean             limited)
{
  if (self->sort_limited == limited)
    return;

  self->sort_limited = limited;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SORT_LIMITED]);
}

static void
init_query (WinnowRawOutputList  *self,
            WinnowRawOutputQuery *query)
{
  memset (query, 0, sizeof *query);
  query->command = self->command;
  query->failures_only = self->failures_only;
  query->since_us = self->since_us;
}

/* The store's offset of a position: the store counts newest first. */
static guint
offset_of (WinnowRawOutputList *self,
           guint                position)
{
  return self->descending ? position : self->items->len - 1 - position;
}

/* --- paging ----------------------------------------------------------------------------- */

static void request_page (WinnowRawOutputList *self,
                          guint                page);

static void
page_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  PageRequest *request = user_data;
  WinnowRawOutputList *self = request->list;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;

  rows = winnow_store_list_raw_outputs_finish (WINNOW_STORE (source), result, &error);
  if (request->generation != self->generation)
    {
      page_request_free (request);
      return;
    }

  g_hash_table_remove (self->pending, GUINT_TO_POINTER (request->page));
  if (rows == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, error->message);
      page_request_free (request);
      return;
    }

  self->n_pages_fetched++;
  self->n_rows_fetched += rows->len;
  for (guint i = 0; i < rows->len; i++)
    {
      guint offset = request->page * WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE + i;
      guint position;
      WinnowRawOutputItem *item;

      if (offset >= self->items->len)
        break;

      position = offset_of (self, offset);
      item = g_ptr_array_index (self->items, position);
      if (item == NULL)
        self->items->pdata[position] = winnow_raw_output_item_new (rows->pdata[i]);
      else if (!winnow_raw_output_item_get_loaded (item))
        winnow_raw_output_item_set_info (item, rows->pdata[i]);
    }

  page_request_free (request);
}

static void
request_page (WinnowRawOutputList *self,
              guint                page)
{
  WinnowRawOutputQuery query;
  PageRequest *request;

  if (g_hash_table_contains (self->pending, GUINT_TO_POINTER (page)))
    return;

  g_hash_table_add (self->pending, GUINT_TO_POINTER (page));
  init_query (self, &query);
  query.offset = page * WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE;
  query.limit = WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE;

  request = g_new0 (PageRequest, 1);
  request->list = g_object_ref (self);
  request->generation = self->generation;
  request->page = page;
  winnow_store_list_raw_outputs_async (self->store, &query, self->cancellable, page_cb, request);
}

/* After the offsets moved under rows the view already holds, read those rows again. */
static void
request_missing_pages (WinnowRawOutputList *self)
{
  if (!self->paged)
    return;

  for (guint i = 0; i < self->items->len; i++)
    {
      WinnowRawOutputItem *item = g_ptr_array_index (self->items, i);

      if (item != NULL && !winnow_raw_output_item_get_loaded (item))
        request_page (self, offset_of (self, i) / WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE);
    }
}

/* --- reloading -------------------------------------------------------------------------- */

static void
replace_items (WinnowRawOutputList *self,
               GPtrArray           *items)
{
  guint removed = self->items->len;

  g_ptr_array_unref (self->items);
  self->items = g_ptr_array_ref (items);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, items->len);
}

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  WinnowRawOutputList *self = user_data;
  WinnowRawOutputItem *ia = *(WinnowRawOutputItem **) a;
  WinnowRawOutputItem *ib = *(WinnowRawOutputItem **) b;
  int cmp;

  cmp = winnow_raw_output_list_compare (self->sort,
                                        winnow_raw_output_item_get_info (ia),
                                        winnow_raw_output_item_get_n_redactions (ia),
                                        winnow_raw_output_item_get_info (ib),
                                        winnow_raw_output_item_get_n_redactions (ib));
  /* ties stay newest first whichever way the column goes */
  if (cmp == 0)
    return winnow_raw_output_list_compare (WINNOW_RAW_OUTPUT_SORT_TIME,
                                           winnow_raw_output_item_get_info (ib), 0,
                                           winnow_raw_output_item_get_info (ia), 0);
  return self->descending ? -cmp : cmp;
}

static void
all_rows_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  PageRequest *request = user_data;
  WinnowRawOutputList *self = request->list;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  rows = winnow_store_list_raw_outputs_finish (WINNOW_STORE (source), result, &error);
  if (request->generation != self->generation)
    {
      page_request_free (request);
      return;
    }

  set_loading (self, FALSE);
  if (rows == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, error->message);
      page_request_free (request);
      return;
    }

  self->n_pages_fetched++;
  self->n_rows_fetched += rows->len;
  items = g_ptr_array_new_full (rows->len, item_unref);
  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (items, winnow_raw_output_item_new (rows->pdata[i]));
  g_ptr_array_sort_with_data (items, compare_items, self);
  replace_items (self, items);
  page_request_free (request);
}

typedef struct
{
  WinnowRawOutputQuery  query;
  char                 *command;
} CountQuery;

static void
count_query_free (CountQuery *count)
{
  g_free (count->command);
  g_free (count);
}

static void
count_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  WinnowRawOutputList *self = source_object;
  CountQuery *query = task_data;
  GError *error = NULL;
  gint64 count;

  count = winnow_store_count_raw_outputs (self->store, &query->query, &error);
  if (count < 0)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, (gssize) MIN (count, G_MAXUINT));
}

static void
count_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  PageRequest *request = user_data;
  WinnowRawOutputList *self = WINNOW_RAW_OUTPUT_LIST (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  gssize count;

  count = g_task_propagate_int (G_TASK (result), &error);
  if (request->generation != self->generation)
    {
      page_request_free (request);
      return;
    }

  if (count < 0)
    {
      set_loading (self, FALSE);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, error->message);
      page_request_free (request);
      return;
    }

  set_sort_limited (self, self->sort != WINNOW_RAW_OUTPUT_SORT_TIME &&
                          count > WINNOW_RAW_OUTPUT_LIST_LOCAL_SORT_MAX);
  self->paged = self->sort == WINNOW_RAW_OUTPUT_SORT_TIME || self->sort_limited;
  if (self->sort_limited)
    self->descending = TRUE;

  if (!self->paged)
    {
      WinnowRawOutputQuery query;

      init_query (self, &query);
      winnow_store_list_raw_outputs_async (self->store, &query, self->cancellable, all_rows_cb,
                                           request);
      return;
    }

  set_loading (self, FALSE);
  items = g_ptr_array_new_full ((guint) count, item_unref);
  g_ptr_array_set_size (items, (guint) count);
  replace_items (self, items);
  page_request_free (request);
}

/**
 * winnow_raw_output_list_reload:
 * @self: a #WinnowRawOutputList
 *
 * Counts the matching rows again and starts over, for outputs kept or removed elsewhere.
 */
void
winnow_raw_output_list_reload (WinnowRawOutputList *self)
{
  g_autoptr(GTask) task = NULL;
  CountQuery *count;
  PageRequest *request;

  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self));

  self->generation++;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_hash_table_remove_all (self->pending);
  set_error (self, NULL);
  set_loading (self, TRUE);

  count = g_new0 (CountQuery, 1);
  init_query (self, &count->query);
  count->command = g_strdup (self->command);
  count->query.command = count->command;

  request = g_new0 (PageRequest, 1);
  request->list = g_object_ref (self);
  request->generation = self->generation;

  task = g_task_new (self, self->cancellable, count_cb, request);
  g_task_set_source_tag (task, winnow_raw_output_list_reload);
  g_task_set_task_data (task, count, (GDestroyNotify) count_query_free);
  g_task_run_in_thread (task, count_thread);
}

/* --- GListModel ------------------------------------------------------------------------- */

static GType
winnow_raw_output_list_get_item_type (GListModel *model)
{
  return WINNOW_TYPE_RAW_OUTPUT_ITEM;
}

static guint
winnow_raw_output_list_get_n_items (GListModel *model)
{
  return WINNOW_RAW_OUTPUT_LIST (model)->items->len;
}

static gpointer
winnow_raw_output_list_get_item (GListModel *model,
                                 guint       position)
{
  WinnowRawOutputList *self = WINNOW_RAW_OUTPUT_LIST (model);
  WinnowRawOutputItem *item;

  if (position >= self->items->len)
    return NULL;

  item = g_ptr_array_index (self->items, position);
  if (item == NULL)
    {
      item = winnow_raw_output_item_new (NULL);
      self->items->pdata[position] = item;
      request_page (self, offset_of (self, position) / WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE);
    }

  return g_object_ref (item);
}

static void
winnow_raw_output_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = winnow_raw_output_list_get_item_type;
  iface->get_n_items = winnow_raw_output_list_get_n_items;
  iface->get_item = winnow_raw_output_list_get_item;
}

/* --- GObject ---------------------------------------------------------------------------- */

static void
winnow_raw_output_list_dispose (GObject *object)
{
  WinnowRawOutputList *self = WINNOW_RAW_OUTPUT_LIST (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (winnow_raw_output_list_parent_class)->dispose (object);
}

static void
winnow_raw_output_list_finalize (GObject *object)
{
  WinnowRawOutputList *self = WINNOW_RAW_OUTPUT_LIST (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (winnow_raw_output_list_parent_class)->finalize (object);
}

static void
winnow_raw_output_list_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  WinnowRawOutputList *self = WINNOW_RAW_OUTPUT_LIST (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;

    case PROP_SORT_LIMITED:
      g_value_set_boolean (value, self->sort_limited);
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_raw_output_list_class_init (WinnowRawOutputListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = winnow_raw_output_list_dispose;
  object_class->finalize = winnow_raw_output_list_finalize;
  object_class->get_property = winnow_raw_output_list_get_property;

  /**
   * WinnowRawOutputList:loading:
   *
   * Whether the rows are being counted (or, for a sort done here, read).
   */
  properties [PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRawOutputList:sort-limited:
   *
   * Whether a sort other than by time was asked for over more rows than are sorted here, so
   * the rows stay newest first.
   */
  properties [PROP_SORT_LIMITED] =
    g_param_spec_boolean ("sort-limited", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRawOutputList:error:
   *
   * Why the store could not be read, or %NULL.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_raw_output_list_init (WinnowRawOutputList *self)
{
  self->items = g_ptr_array_new_with_free_func (item_unref);
  self->pending = g_hash_table_new (NULL, NULL);
  self->descending = TRUE;
  self->paged = TRUE;
}

/**
 * winnow_raw_output_list_new:
 * @store: the store whose raw outputs to list
 *
 * The list is empty until winnow_raw_output_list_reload() or a filter or sort is set.
 *
 * Returns: (transfer full): a new list
 */
WinnowRawOutputList *
winnow_raw_output_list_new (WinnowStore *store)
{
  WinnowRawOutputList *self;

  g_return_val_if_fail (WINNOW_IS_STORE (store), NULL);

  self = g_object_new (WINNOW_TYPE_RAW_OUTPUT_LIST, NULL);
  self->store = g_object_ref (store);
  return self;
}

WinnowStore *
winnow_raw_output_list_get_store (WinnowRawOutputList *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self), NULL);
  return self->store;
}

/**
 * winnow_raw_output_list_set_filter:
 * @self: a #WinnowRawOutputList
 * @command: (nullable): only commands containing this
 * @failures_only: only outputs that looked like failures
 * @since_us: only outputs kept at or after this time (unix µs); 0 for all
 *
 * Shows the rows that match, reading them again.
 */
void
winnow_raw_output_list_set_filter (WinnowRawOutputList *self,
                                   const char          *command,
                                   gboolean             failures_only,
                                   gint64               since_us)
{
  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self));

  g_free (self->command);
  self->command = command != NULL && command[0] != '\0' ? g_strdup (command) : NULL;
  self->failures_only = !!failures_only;
  self->since_us = MAX (since_us, 0);
  winnow_raw_output_list_reload (self);
}

/**
 * winnow_raw_output_list_set_sort:
 * @self: a #WinnowRawOutputList
 * @sort: what to sort by
 * @descending: largest (newest, …) first
 *
 * Orders the rows, reading them again; see #WinnowRawOutputList:sort-limited.
 */
void
winnow_raw_output_list_set_sort (WinnowRawOutputList *self,
                                 WinnowRawOutputSort  sort,
                                 gboolean             descending)
{
  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self));
  g_return_if_fail (sort <= WINNOW_RAW_OUTPUT_SORT_SAVED);

  if (self->sort == sort && self->descending == !!descending)
    return;

  self->sort = sort;
  self->descending = !!descending;
  winnow_raw_output_list_reload (self);
}

gboolean
winnow_raw_output_list_get_sort_limited (WinnowRawOutputList *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self), FALSE);
  return self->sort_limited;
}

/**
 * winnow_raw_output_list_remove:
 * @self: a #WinnowRawOutputList
 * @position: a row that was deleted from the store
 *
 * Takes out a row the store no longer has, leaving the others (and the view's selection and
 * scroll position) where they are.
 */
void
winnow_raw_output_list_remove (WinnowRawOutputList *self,
                               guint                position)
{
  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self));
  g_return_if_fail (position < self->items->len);

  if (self->loading)
    {
      winnow_raw_output_list_reload (self);
      return;
    }

  g_ptr_array_remove_index (self->items, position);
  if (self->paged && g_hash_table_size (self->pending) > 0)
    {
      /* pages in flight were counted from offsets that just moved */
      self->generation++;
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      self->cancellable = g_cancellable_new ();
      g_hash_table_remove_all (self->pending);
    }
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  request_missing_pages (self);
}

gboolean
winnow_raw_output_list_get_loading (WinnowRawOutputList *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self), FALSE);
  return self->loading;
}

const char *
winnow_raw_output_list_get_error (WinnowRawOutputList *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self), NULL);
  return self->error;
}

/**
 * winnow_raw_output_list_get_n_pages_fetched:
 * @self: a #WinnowRawOutputList
 *
 * Returns: how many reads of rows the list has made since it was created
 */
guint
winnow_raw_output_list_get_n_pages_fetched (WinnowRawOutputList *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self), 0);
  return self->n_pages_fetched;
}

/**
 * winnow_raw_output_list_get_n_rows_fetched:
 * @self: a #WinnowRawOutputList
 *
 * Returns: how many rows those reads brought, in all
 */
guint
winnow_raw_output_list_get_n_rows_fetched (WinnowRawOutputList *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_LIST (self), 0);
  return self->n_rows_fetched;
}

/**
 * winnow_raw_output_list_compare:
 * @sort: what to compare by
 * @a: (nullable): a row, %NULL if not read yet
 * @a_redactions: its redaction count
 * @b: (nullable): another row
 * @b_redactions: its redaction count
 *
 * Ascending order by @sort; rows not read yet come last.
 *
 * Returns: negative, zero or positive as @a sorts before, with or after @b
 */
int
winnow_raw_output_list_compare (WinnowRawOutputSort        sort,
                                const WinnowRawOutputInfo *a,
                                guint                      a_redactions,
                                const WinnowRawOutputInfo *b,
                                guint                      b_redactions)
{
  if (a == NULL || b == NULL)
    return (a == NULL) - (b == NULL);

  switch (sort)
    {
    case WINNOW_RAW_OUTPUT_SORT_TIME:
      if (a->created_us != b->created_us)
        return a->created_us < b->created_us ? -1 : 1;
      return g_strcmp0 (a->id, b->id);

    case WINNOW_RAW_OUTPUT_SORT_COMMAND:
      {
        g_autofree char *ka = g_utf8_casefold (a->command ? a->command : "", -1);
        g_autofree char *kb = g_utf8_casefold (b->command ? b->command : "", -1);

        return g_utf8_collate (ka, kb);
      }

    case WINNOW_RAW_OUTPUT_SORT_SIZE:
      {
        guint64 sa = a->original_bytes ? a->original_bytes : a->bytes;
        guint64 sb = b->original_bytes ? b->original_bytes : b->bytes;

        return sa < sb ? -1 : sa > sb;
      }

    case WINNOW_RAW_OUTPUT_SORT_FAILURE:
      return (!!a->failure) - (!!b->failure);

    case WINNOW_RAW_OUTPUT_SORT_REDACTIONS:
      return a_redactions < b_redactions ? -1 : a_redactions > b_redactions;

    case WINNOW_RAW_OUTPUT_SORT_FILTER:
      return g_strcmp0 (a->filter_id, b->filter_id);

    case WINNOW_RAW_OUTPUT_SORT_SAVED:
      {
        /* an output whose event was purged has no figure: it sorts with the smallest */
        gint64 sa = a->has_tokens ? a->tokens_before - a->tokens_after : G_MININT64;
        gint64 sb = b->has_tokens ? b->tokens_before - b->tokens_after : G_MININT64;

        return sa < sb ? -1 : sa > sb;
      }

    default:
      g_return_val_if_reached (0);
    }
}
