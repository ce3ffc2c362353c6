/* winnow-raw-output-list.h — the retained raw outputs as a lazily read GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow.h"
#include "winnow-raw-output-item.h"

G_BEGIN_DECLS

/* rows read from the store at a time, as the view reaches them */
#define WINNOW_RAW_OUTPUT_LIST_PAGE_SIZE 100

/* a sort the store cannot do is done here, over every matching row, up to this many */
#define WINNOW_RAW_OUTPUT_LIST_LOCAL_SORT_MAX 5000

/**
 * WinnowRawOutputSort:
 * @WINNOW_RAW_OUTPUT_SORT_TIME: when it was kept (the store's own order)
 * @WINNOW_RAW_OUTPUT_SORT_COMMAND: the command line
 * @WINNOW_RAW_OUTPUT_SORT_SIZE: the size as the command produced it
 * @WINNOW_RAW_OUTPUT_SORT_FAILURE: failures together
 * @WINNOW_RAW_OUTPUT_SORT_REDACTIONS: how many secrets were replaced
 * @WINNOW_RAW_OUTPUT_SORT_FILTER: the filter that compressed it
 * @WINNOW_RAW_OUTPUT_SORT_SAVED: the tokens the compression saved
 */
typedef enum
{
  WINNOW_RAW_OUTPUT_SORT_TIME,
  WINNOW_RAW_OUTPUT_SORT_COMMAND,
  WINNOW_RAW_OUTPUT_SORT_SIZE,
  WINNOW_RAW_OUTPUT_SORT_FAILURE,
  WINNOW_RAW_OUTPUT_SORT_REDACTIONS,
  WINNOW_RAW_OUTPUT_SORT_FILTER,
  WINNOW_RAW_OUTPUT_SORT_SAVED,
} WinnowRawOutputSort;

#define WINNOW_TYPE_RAW_OUTPUT_LIST (winnow_raw_output_list_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRawOutputList, winnow_raw_output_list, WINNOW, RAW_OUTPUT_LIST, GObject)

WinnowRawOutputList *winnow_raw_output_list_new        (WinnowStore         *store);
WinnowStore         *winnow_raw_output_list_get_store  (WinnowRawOutputList *self);
void                 winnow_raw_output_list_set_filter (WinnowRawOutputList *self,
                                                        const char          *command,
                                                        gboolean             failures_only,
                                                        gint64               since_us);
void                 winnow_raw_output_list_set_sort   (WinnowRawOutputList *self,
                                                        WinnowRawOutputSort  sort,
                                                        gboolean             descending);
gboolean             winnow_raw_output_list_get_sort_limited (WinnowRawOutputList *self);
void                 winnow_raw_output_list_reload     (WinnowRawOutputList *self);
void                 winnow_raw_output_list_remove     (WinnowRawOutputList *self,
                                                        guint                position);
gboolean             winnow_raw_output_list_get_loading (WinnowRawOutputList *self);
const char          *winnow_raw_output_list_get_error  (WinnowRawOutputList *self);
guint                winnow_raw_output_list_get_n_pages_fetched (WinnowRawOutputList *self);
guint                winnow_raw_output_list_get_n_rows_fetched  (WinnowRawOutputList *self);

int                  winnow_raw_output_list_compare    (WinnowRawOutputSort        sort,
                                                        const WinnowRawOutputInfo *a,
                                                        guint                      a_redactions,
                                                        const WinnowRawOutputInfo *b,
                                                        guint                      b_redactions);

G_END_DECLS
