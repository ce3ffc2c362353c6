/* winnow-tokens-private.h — the parts of the o200k_base encoder that tests look at one by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  WINNOW_TOKENS_BPE_AUTO,
  WINNOW_TOKENS_BPE_SCAN,   /* tiktoken's own loop: rescan every pair after each merge */
  WINNOW_TOKENS_BPE_HEAP,   /* a heap of pairs: O(n log n) on long pieces */
} WinnowTokensBpe;

/* The end (a byte offset) of the pre-tokenizer piece that starts at @offset of @text, which is
 * valid UTF-8 from @offset to @length. */
gsize   _winnow_tokens_piece_end   (const char      *text,
                                    gsize            length,
                                    gsize            offset);

/* The rank of the token whose bytes are exactly @bytes, or -1. */
gint32  _winnow_tokens_rank        (const char      *bytes,
                                    gsize            length);

/* The rank of the byte @b as a token, from the blob's table of single bytes. */
guint32 _winnow_tokens_byte_rank   (guint8           b);

/* The rank of the two bytes @a @b as one token, or -1, from the blob's table of pairs. */
gint32  _winnow_tokens_pair_rank   (guint8           a,
                                    guint8           b);

/* The number of tokens in the vocabulary. */
guint32 _winnow_tokens_vocab_size  (void);

/* Appends to @ids the byte-pair encoding of one piece, by the given method. */
void    _winnow_tokens_bpe         (const char      *piece,
                                    gsize            length,
                                    WinnowTokensBpe  method,
                                    GArray          *ids);

/* Whether merged pieces are cached (the default); benchmarks turn it off to see merging's cost. */
void    _winnow_tokens_set_cache   (gboolean         enabled);

G_END_DECLS
