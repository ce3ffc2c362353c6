/* winnow-literals.h — the literal text a regex cannot match without
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A line's lower-cased ASCII byte pairs, hashed into 256 bits. */
typedef struct
{
  guint64 bits[4];
  guint   probe;    /* for a literal: one of its pairs, tested first since most lines lack it */
} WinnowBigrams;

GPtrArray *_winnow_literals_required   (const char          *js_source,
                                        const char          *js_flags);
void       _winnow_bigrams_of_literal  (const char          *literal,
                                        WinnowBigrams       *out);
gboolean   _winnow_bigrams_of_line     (const char          *line,
                                        gsize                length,
                                        WinnowBigrams       *out);

static inline gboolean
_winnow_bigrams_contain (const WinnowBigrams *line,
                         const WinnowBigrams *literal)
{
  return ((line->bits[literal->probe >> 6] >> (literal->probe & 63)) & 1) &&
         (line->bits[0] & literal->bits[0]) == literal->bits[0] &&
         (line->bits[1] & literal->bits[1]) == literal->bits[1] &&
         (line->bits[2] & literal->bits[2]) == literal->bits[2] &&
         (line->bits[3] & literal->bits[3]) == literal->bits[3];
}

/* The grams of a whole text, and the keys of a pattern's literals in it (winnow-literals.c). */
typedef struct _WinnowGramIndex    WinnowGramIndex;
typedef struct _WinnowGramLiterals WinnowGramLiterals;

WinnowGramIndex    *_winnow_gram_index_new          (const char               *text,
                                                     gsize                     length);
void                _winnow_gram_index_add_change   (WinnowGramIndex          *self,
                                                     const char               *before,
                                                     gsize                     before_length,
                                                     const char               *after,
                                                     gsize                     after_length);
gboolean            _winnow_gram_index_might_contain (const WinnowGramIndex   *self,
                                                     const WinnowGramLiterals *literals);
void                _winnow_gram_index_free         (WinnowGramIndex          *self);

WinnowGramLiterals *_winnow_gram_literals_new       (GPtrArray                *literals);
void                _winnow_gram_literals_free      (WinnowGramLiterals       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowGramIndex, _winnow_gram_index_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowGramLiterals, _winnow_gram_literals_free)

G_END_DECLS
