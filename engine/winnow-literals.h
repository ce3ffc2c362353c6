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

GPtrArray *_winnow_literals_required   (const char          *js_source);
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

G_END_DECLS
