/* winnow-sentence-private.h — what the sentence splitter and scorer share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "winnow-sentence-scorer.h"

G_BEGIN_DECLS

GArray *_winnow_sentence_split_spans (const char *text,
                                      gsize       length);

/* Compares @length bytes of @word with the string @entry, as strcmp() would. */
static inline int
_winnow_sentence_compare_word (const char *word,
                               gsize       length,
                               const char *entry)
{
  gsize n = strlen (entry);
  int cmp = memcmp (word, entry, MIN (length, n));

  if (cmp != 0)
    return cmp;
  return length < n ? -1 : length > n ? 1 : 0;
}

static inline gboolean
_winnow_sentence_in_list (const char *const *list,
                          gsize              n_entries,
                          const char        *word,
                          gsize              length)
{
  gsize lo = 0;
  gsize hi = n_entries;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      int cmp = _winnow_sentence_compare_word (word, length, list[mid]);

      if (cmp == 0)
        return TRUE;
      if (cmp < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return FALSE;
}

#define IN_LIST(list, word, length) \
  _winnow_sentence_in_list (list, G_N_ELEMENTS (list), word, length)

G_END_DECLS
