/* winnow-adapter-private.h — the adapter vtable and what the adapters share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-adapter.h"

G_BEGIN_DECLS

/* The marker that stands where prose was taken out of a structure. */
#define WINNOW_ADAPTER_ELIDED "[…]"

/* A word with its length, for tables scanned on every line: no strlen() in the hot path. */
typedef struct
{
  const char *text;
  gsize       length;
} WinnowLiteral;

#define WINNOW_LITERAL(s) { s, sizeof (s) - 1 }

/*
 * What an adapter's extract() makes of a message, in the terms of seed 003:
 *  - preserved pieces, kept verbatim (or as the adapter rewrote them losslessly), in order;
 *  - compressible text, handed to the summariser in one call, its pieces separated by blank
 *    lines so that no sentence runs from one piece into the next.
 * Pieces live back to back in one buffer: a 50 MB manifest makes two allocations, not a
 * million. An adapter that found nothing to compress and rewrote nothing (@rewritten, for the
 * JSON and CSV adapters that shorten without the summariser) reverts: re-joining the same
 * lines is not compression.
 */
typedef struct
{
  GString        *preserved;
  GArray         *preserved_ends;   /* gsize: where each piece ends in @preserved */
  GString        *compressible;
  guint           n_compressible;
  gboolean        rewritten;
  gpointer        data;             /* the adapter's own, for its summarize() */
  GDestroyNotify  data_free;
} WinnowAdapterParts;

/*
 * One format. detect() is called on every message that reaches the adapters and must be cheap
 * and linear. extract() fills @parts; it only runs after detect() said yes. summarize() is
 * optional: without it the engine hands the compressible text to the options' summariser
 * (CSV computes its own summary from the rows). reconstruct() writes the result; the engine
 * then keeps it only if it is shorter than the input.
 */
typedef struct
{
  const char *name;
  gboolean    lossless;   /* has a lossless rewrite, so it runs when options->lossy is FALSE */
  gboolean  (*detect)      (const char                 *text,
                            gsize                       length);
  void      (*extract)     (const char                 *text,
                            gsize                       length,
                            const WinnowAdapterOptions *options,
                            WinnowAdapterParts         *parts);
  char     *(*summarize)   (const WinnowAdapterParts   *parts,
                            const WinnowAdapterOptions *options);
  void      (*reconstruct) (const WinnowAdapterParts   *parts,
                            const char                 *summary,
                            GString                    *out);
} WinnowAdapter;

extern const WinnowAdapter _winnow_adapter_code;
extern const WinnowAdapter _winnow_adapter_structured;
extern const WinnowAdapter _winnow_adapter_json;
extern const WinnowAdapter _winnow_adapter_csv;
extern const WinnowAdapter _winnow_adapter_xml;
extern const WinnowAdapter _winnow_adapter_yaml;
extern const WinnowAdapter _winnow_adapter_markdown;

/* parts */
void        _winnow_adapter_preserve         (WinnowAdapterParts         *parts,
                                              const char                 *text,
                                              gsize                       length);
void        _winnow_adapter_preserve_string  (WinnowAdapterParts         *parts,
                                              GString                    *piece);
void        _winnow_adapter_compress         (WinnowAdapterParts         *parts,
                                              const char                 *text,
                                              gsize                       length);
guint       _winnow_adapter_n_preserved      (const WinnowAdapterParts   *parts);
const char *_winnow_adapter_get_preserved    (const WinnowAdapterParts   *parts,
                                              guint                       index,
                                              gsize                      *length);
void        _winnow_adapter_join_preserved   (const WinnowAdapterParts   *parts,
                                              const char                 *separator,
                                              GString                    *out);
char       *_winnow_adapter_summarize        (const WinnowAdapterOptions *options,
                                              const char                 *text,
                                              gsize                       length);

/* text */
gboolean    _winnow_adapter_looks_like_prose (const char                 *text,
                                              gsize                       length);
gboolean    _winnow_adapter_mentions_error   (const char                 *text,
                                              gsize                       length);
guint       _winnow_adapter_count_words      (const char                 *text,
                                              gsize                       length);
void        _winnow_adapter_trim             (const char                **text,
                                              gsize                      *length);
void        _winnow_adapter_append_comment   (GString                    *out,
                                              const char                 *prefix,
                                              const char                 *summary);

/* fences, for the code and Markdown adapters */
gsize       _winnow_adapter_fence_open       (const char                 *line,
                                              gsize                       length,
                                              char                       *fence_char);
gboolean    _winnow_adapter_fence_closes     (const char                 *line,
                                              gsize                       length,
                                              char                        fence_char,
                                              gsize                       fence_length);
gboolean    _winnow_adapter_find_fence       (const char                 *text,
                                              const char                 *end,
                                              const char                **open,
                                              const char                **body,
                                              const char                **close,
                                              const char                **after);

/* Iterates over the lines of a text, without their \r?\n. */
typedef struct
{
  const char *p;
  const char *end;
} WinnowLineReader;

static inline void
_winnow_line_reader_init (WinnowLineReader *reader,
                          const char       *text,
                          gsize             length)
{
  reader->p = text;
  reader->end = text + length;
}

gboolean    _winnow_line_reader_next         (WinnowLineReader           *reader,
                                              const char                **line,
                                              gsize                      *length);

static inline gboolean
_winnow_is_blank (const char *line,
                  gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '\f' &&
        line[i] != '\v')
      return FALSE;
  return TRUE;
}

static inline gsize
_winnow_indent (const char *line,
                gsize       length)
{
  gsize i = 0;

  while (i < length && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i;
}

G_END_DECLS
