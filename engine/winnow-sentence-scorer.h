/* winnow-sentence-scorer.h — a deterministic extractive summariser for prose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WinnowSentenceSpan:
 * @start: byte offset of the sentence in the text it was split from
 * @length: its length in bytes, surrounding whitespace excluded
 * @block: which block (paragraph or line of line-oriented text) it belongs to, counting from 0
 */
typedef struct
{
  gsize start;
  gsize length;
  guint block;
} WinnowSentenceSpan;

WinnowSentenceSpan *winnow_sentence_split     (const char *text,
                                               gsize       length,
                                               gsize      *n_spans);
char               *winnow_sentence_summarize (const char *text,
                                               gsize       length,
                                               double      keep_ratio,
                                               gpointer    user_data);

G_END_DECLS
