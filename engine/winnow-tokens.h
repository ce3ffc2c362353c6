/* winnow-tokens.h — the one token counter behind every receipt and chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tokens are counted exactly as OpenAI's o200k_base encoding does (the ids of tiktoken's
 * encode_ordinary: special tokens such as <|endoftext|> are ordinary text here).
 *
 * Text that is not valid UTF-8 (Winnow passes such output through unchanged) is encoded by one
 * fixed rule: the text is cut at every byte that does not begin a valid UTF-8 sequence (an
 * overlong form, a surrogate, a code point above U+10FFFF, a stray continuation byte or a
 * sequence cut short); each such byte is one token, the o200k_base token of that single byte,
 * and each run of valid UTF-8 between them is encoded as if it were a text of its own. NUL is a
 * valid character.
 *
 * Letters, digits and marks are told apart by GLib's Unicode tables (g_unichar_type(), those of
 * the GLib the process runs with: Unicode 15.0 for GLib 2.74), tiktoken's by its regex crate's
 * (Unicode 16.0 for tiktoken 1.0.22). Characters assigned in between — CJK Extension I
 * (U+2EBF0…U+2EE5D), the scripts new in Unicode 16 (Garay, Todhri, Tulu-Tigalari, …) — are
 * unassigned here, so they group like punctuation and the pieces around them may differ.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gsize       winnow_tokens_count        (const char *text,
                                        gssize      length);
GArray     *winnow_tokens_encode       (const char *text,
                                        gssize      length);
GBytes     *winnow_tokens_decode       (const guint32 *ids,
                                        gsize          n_ids);
const char *winnow_tokens_counter_name (void);

G_END_DECLS
