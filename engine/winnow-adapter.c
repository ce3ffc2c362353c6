/* winnow-adapter.c — format adapters: keep a document's structure, summarise its prose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seed 003's format adapters. Prose-level compression treats everything as sentences, which
 * wrecks a POM, a manifest or a README table; an adapter instead splits a message into parts
 * that must survive verbatim (tags, keys, headings, status lines, fences) and prose that may be
 * summarised, and puts the two back together. This unit owns the registry, the order in which
 * adapters are asked, and the rules every adapter obeys:
 *
 *  - The first adapter whose detect() matches wins; there is no second try.
 *  - A result that is not shorter than the input is thrown away: the input comes back
 *    unchanged and the decision says `adapter_reverted:<name>`. An applied adapter says
 *    `adapter:<name>`; when none detects, there is no decision.
 *  - Text that is not valid UTF-8 (or holds NUL bytes) is never touched.
 *
 * Order: code, json, structured, csv, xml, yaml, markdown. Code comes first because fences
 * can sit inside any other format and must never be summarised. JSON comes before structured
 * (seed order has it after): JSON detection is exact — the whole text must parse — while the
 * structured heuristic would also accept a pretty-printed JSON test report whose every line
 * holds "status": "FAIL" and then summarise the document into broken JSON. The remaining
 * order goes from the strictest detector to the loosest.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"
#include "winnow-utf8.h"

#define DEFAULT_KEEP_RATIO 0.35

static const WinnowAdapter *const adapters[] = {
  &_winnow_adapter_code,
  &_winnow_adapter_json,
  &_winnow_adapter_structured,
  &_winnow_adapter_csv,
  &_winnow_adapter_xml,
  &_winnow_adapter_yaml,
  &_winnow_adapter_markdown,
};

static const char *const adapter_names[] = {
  "code", "json", "structured", "csv", "xml", "yaml", "markdown", NULL,
};

G_STATIC_ASSERT (G_N_ELEMENTS (adapters) + 1 == G_N_ELEMENTS (adapter_names));

/**
 * winnow_adapter_options_init:
 * @options: options to fill with the defaults
 *
 * Keep 35% of the prose, allow lossy steps, consider every adapter, summarise with
 * winnow_sentence_summarize().
 */
void
winnow_adapter_options_init (WinnowAdapterOptions *options)
{
  g_return_if_fail (options != NULL);

  options->keep_ratio = DEFAULT_KEEP_RATIO;
  options->lossy = TRUE;
  options->enabled = NULL;
  options->summarizer = NULL;
  options->summarizer_data = NULL;
}

/**
 * winnow_adapters_list_names:
 *
 * Returns: (transfer none): the adapters' names, %NULL-terminated, in the order they are asked
 */
const char *const *
winnow_adapters_list_names (void)
{
  return adapter_names;
}

static gboolean
is_enabled (const WinnowAdapterOptions *options,
            const WinnowAdapter        *adapter)
{
  if (options->enabled == NULL)
    return TRUE;
  for (guint i = 0; options->enabled[i] != NULL; i++)
    if (g_strcmp0 (options->enabled[i], adapter->name) == 0)
      return TRUE;
  return FALSE;
}

static const WinnowAdapter *
find_adapter (const char                 *text,
              gsize                       length,
              const WinnowAdapterOptions *options)
{
  if (length == 0 || !_winnow_utf8_validate (text, length, NULL))
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (adapters); i++)
    if (is_enabled (options, adapters[i]) && adapters[i]->detect (text, length))
      return adapters[i];

  return NULL;
}

static void
sanitize_options (const WinnowAdapterOptions *in,
                  WinnowAdapterOptions       *out)
{
  if (in == NULL)
    {
      winnow_adapter_options_init (out);
      return;
    }

  *out = *in;
  if (!(out->keep_ratio >= 0.0))
    out->keep_ratio = 0.0;   /* also NaN */
  else if (out->keep_ratio > 1.0)
    out->keep_ratio = 1.0;
}

/**
 * winnow_adapters_detect:
 * @text: a message
 * @length: its length in bytes, or -1 if NUL-terminated
 * @options: (nullable): which adapters to consider; %NULL for all
 *
 * Returns: (nullable): the name of the first adapter that recognises @text, or %NULL
 */
const char *
winnow_adapters_detect (const char                 *text,
                        gssize                      length,
                        const WinnowAdapterOptions *options)
{
  WinnowAdapterOptions opts;
  const WinnowAdapter *adapter;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (text);
  sanitize_options (options, &opts);
  adapter = find_adapter (text, length, &opts);

  return adapter != NULL ? adapter->name : NULL;
}

/**
 * winnow_adapters_apply:
 * @text: a message
 * @length: its length in bytes, or -1 if NUL-terminated
 * @options: (nullable): options, %NULL for the defaults
 * @out_length: (out) (optional): the length of the result
 * @decision: (out) (optional) (transfer full): `adapter:<name>` when an adapter compressed
 *   @text, `adapter_reverted:<name>` when its result was not shorter, %NULL when none detected
 *
 * Runs the first adapter that recognises @text: extracts the parts to keep and the prose to
 * summarise, summarises, reconstructs. Same input and options, same output.
 *
 * Returns: (transfer full) (nullable): the compressed text, shorter than @text; a copy of
 *   @text when the adapter reverted; %NULL when no adapter detected its format (or @text is
 *   not valid UTF-8)
 */
char *
winnow_adapters_apply (const char                 *text,
                       gssize                      length,
                       const WinnowAdapterOptions *options,
                       gsize                      *out_length,
                       char                      **decision)
{
  WinnowAdapterOptions opts;
  const WinnowAdapter *adapter;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (decision != NULL)
    *decision = NULL;
  if (out_length != NULL)
    *out_length = 0;
  if (length < 0)
    length = strlen (text);
  sanitize_options (options, &opts);

  adapter = find_adapter (text, length, &opts);
  if (adapter == NULL)
    return NULL;

  if (opts.lossy || adapter->lossless)
    {
      WinnowAdapterParts parts = { NULL, };
      g_autofree char *summary = NULL;
      GString *out = NULL;

      parts.preserved = g_string_new (NULL);
      parts.preserved_ends = g_array_new (FALSE, FALSE, sizeof (gsize));
      parts.compressible = g_string_new (NULL);

      adapter->extract (text, length, &opts, &parts);

      /* nothing taken out, nothing rewritten: re-joining the same pieces is no compression */
      if (parts.n_compressible > 0 || parts.rewritten)
        {
          if (adapter->summarize != NULL)
            summary = adapter->summarize (&parts, &opts);
          else if (parts.compressible->len > 0)
            summary = _winnow_adapter_summarize (&opts, parts.compressible->str,
                                                 parts.compressible->len);

          out = g_string_sized_new (MIN ((gsize) length, parts.preserved->len + 256));
          adapter->reconstruct (&parts, summary != NULL ? summary : "", out);
        }

      g_string_free (parts.preserved, TRUE);
      g_array_unref (parts.preserved_ends);
      g_string_free (parts.compressible, TRUE);
      if (parts.data_free != NULL)
        parts.data_free (parts.data);

      if (out != NULL && out->len < (gsize) length)
        {
          if (decision != NULL)
            *decision = g_strconcat ("adapter:", adapter->name, NULL);
          if (out_length != NULL)
            *out_length = out->len;
          return g_string_free (out, FALSE);
        }
      if (out != NULL)
        g_string_free (out, TRUE);
    }

  if (decision != NULL)
    *decision = g_strconcat ("adapter_reverted:", adapter->name, NULL);
  if (out_length != NULL)
    *out_length = length;
  return g_strndup (text, length);
}

/* ---- helpers shared by the adapters -------------------------------------------------------- */

void
_winnow_adapter_preserve (WinnowAdapterParts *parts,
                          const char         *text,
                          gsize               length)
{
  g_string_append_len (parts->preserved, text, length);
  g_array_append_val (parts->preserved_ends, parts->preserved->len);
}

void
_winnow_adapter_preserve_string (WinnowAdapterParts *parts,
                                 GString            *piece)
{
  _winnow_adapter_preserve (parts, piece->str, piece->len);
}

void
_winnow_adapter_compress (WinnowAdapterParts *parts,
                          const char         *text,
                          gsize               length)
{
  _winnow_adapter_trim (&text, &length);
  if (length == 0)
    return;
  if (parts->compressible->len > 0)
    g_string_append (parts->compressible, "\n\n");
  g_string_append_len (parts->compressible, text, length);
  parts->n_compressible++;
}

guint
_winnow_adapter_n_preserved (const WinnowAdapterParts *parts)
{
  return parts->preserved_ends->len;
}

const char *
_winnow_adapter_get_preserved (const WinnowAdapterParts *parts,
                               guint                     index,
                               gsize                    *length)
{
  gsize start = index > 0 ? g_array_index (parts->preserved_ends, gsize, index - 1) : 0;
  gsize end = g_array_index (parts->preserved_ends, gsize, index);

  g_assert (index < parts->preserved_ends->len);

  *length = end - start;
  return parts->preserved->str + start;
}

void
_winnow_adapter_join_preserved (const WinnowAdapterParts *parts,
                                const char               *separator,
                                GString                  *out)
{
  for (guint i = 0; i < _winnow_adapter_n_preserved (parts); i++)
    {
      gsize length;
      const char *piece = _winnow_adapter_get_preserved (parts, i, &length);

      if (i > 0)
        g_string_append (out, separator);
      g_string_append_len (out, piece, length);
    }
}

char *
_winnow_adapter_summarize (const WinnowAdapterOptions *options,
                           const char                 *text,
                           gsize                       length)
{
  WinnowSummarizer summarizer = options->summarizer != NULL ? options->summarizer
                                                            : winnow_sentence_summarize;
  char *summary = summarizer (text, length, options->keep_ratio, options->summarizer_data);

  return summary != NULL ? summary : g_strdup ("");
}

void
_winnow_adapter_trim (const char **text,
                      gsize       *length)
{
  const char *p = *text;
  gsize n = *length;

  while (n > 0 && g_ascii_isspace (p[0]))
    p++, n--;
  while (n > 0 && g_ascii_isspace (p[n - 1]))
    n--;
  *text = p;
  *length = n;
}

guint
_winnow_adapter_count_words (const char *text,
                             gsize       length)
{
  guint n = 0;
  gboolean in_word = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      gboolean space = g_ascii_isspace (text[i]);

      if (!space && !in_word)
        n++;
      in_word = !space;
    }
  return n;
}

static inline gboolean
is_closing_punctuation (char c)
{
  switch (c)
    {
    case '.': case ',': case ';': case ':': case '!': case '?': case ')': case '"': case '\'':
    case ']':
      return TRUE;
    default:
      return FALSE;
    }
}

/* A word of prose: letters (any non-ASCII byte counts as one), inner hyphens and apostrophes,
 * or a plain number; with quotes, brackets and punctuation around it. */
static gboolean
is_plain_word (const char *w,
               gsize       n)
{
  gboolean letters = FALSE;
  gboolean digits = FALSE;

  while (n > 0 && (w[0] == '(' || w[0] == '"' || w[0] == '\'' || w[0] == '['))
    w++, n--;
  while (n > 0 && is_closing_punctuation (w[n - 1]))
    n--;
  /* curly quotes and the ellipsis: E2 80 9C/9D/98/99/A6 */
  while (n >= 3 && (guchar) w[0] == 0xE2 && (guchar) w[1] == 0x80)
    w += 3, n -= 3;
  while (n >= 3 && (guchar) w[n - 3] == 0xE2 && (guchar) w[n - 2] == 0x80)
    n -= 3;
  if (n == 0)
    return FALSE;

  for (gsize i = 0; i < n; i++)
    {
      guchar c = w[i];

      if (g_ascii_isalpha (c) || c >= 0x80)
        letters = TRUE;
      else if (g_ascii_isdigit (c))
        digits = TRUE;
      else if ((c == '-' || c == '\'') && i > 0 && i + 1 < n)
        continue;
      else if ((c == '.' || c == ',') && digits && i + 1 < n && g_ascii_isdigit (w[i + 1]))
        continue;   /* 1,024 or 2.5 */
      else
        return FALSE;
    }
  return letters != digits;
}

/**
 * _winnow_adapter_looks_like_prose:
 *
 * At least six words, three quarters of them plain words. Commands (`npm ci && npm test --
 * --coverage`), expressions, URLs, hashes and base64 fail the test, so an adapter never hands
 * them to a summariser that would drop them.
 */
gboolean
_winnow_adapter_looks_like_prose (const char *text,
                                  gsize       length)
{
  guint words = 0;
  guint plain = 0;
  gsize i = 0;

  while (i < length)
    {
      gsize j;

      while (i < length && g_ascii_isspace (text[i]))
        i++;
      if (i >= length)
        break;
      j = i;
      while (j < length && !g_ascii_isspace (text[j]))
        j++;
      words++;
      if (is_plain_word (text + i, j - i))
        plain++;
      i = j;
    }

  return words >= 6 && plain * 4 >= words * 3;
}

/* word prefixes, lower case */
static const WinnowLiteral error_stems[] = {
  WINNOW_LITERAL ("abort"), WINNOW_LITERAL ("crash"), WINNOW_LITERAL ("denied"),
  WINNOW_LITERAL ("error"), WINNOW_LITERAL ("exception"), WINNOW_LITERAL ("fail"),
  WINNOW_LITERAL ("fatal"), WINNOW_LITERAL ("panic"), WINNOW_LITERAL ("refused"),
  WINNOW_LITERAL ("segfault"), WINNOW_LITERAL ("traceback"), WINNOW_LITERAL ("warn"),
};

/**
 * _winnow_adapter_mentions_error:
 *
 * Whether a word of @text starts like an error word (error, failed, FATAL, panicked,
 * RuntimeError counts too: a word ending in "error" or "exception"). Adapters keep such text
 * verbatim instead of summarising it: errors survive.
 */
gboolean
_winnow_adapter_mentions_error (const char *text,
                                gsize       length)
{
  gsize i = 0;

  while (i < length)
    {
      gsize j;

      while (i < length && !g_ascii_isalpha (text[i]))
        i++;
      j = i;
      while (j < length && g_ascii_isalpha (text[j]))
        j++;

      for (guint k = 0; k < G_N_ELEMENTS (error_stems) && j > i; k++)
        {
          gsize n = error_stems[k].length;

          if (j - i >= n && _winnow_ascii_lower ((guchar) text[i]) == error_stems[k].text[0] &&
              _winnow_ascii_equal_lower (text + i, error_stems[k].text, n))
            return TRUE;
        }
      if ((j - i > 5 && _winnow_ascii_equal_lower (text + j - 5, "error", 5)) ||
          (j - i > 9 && _winnow_ascii_equal_lower (text + j - 9, "exception", 9)))
        return TRUE;
      i = j;
    }
  return FALSE;
}

/* Appends @summary line by line, each line after @prefix. */
void
_winnow_adapter_append_comment (GString    *out,
                                const char *prefix,
                                const char *summary)
{
  const char *p = summary;

  while (*p != '\0')
    {
      const char *nl = strchr (p, '\n');
      gsize n = nl != NULL ? (gsize) (nl - p) : strlen (p);

      if (out->len > 0 && out->str[out->len - 1] != '\n')
        g_string_append_c (out, '\n');
      g_string_append (out, prefix);
      g_string_append_len (out, p, n);
      if (nl == NULL)
        break;
      p = nl + 1;
    }
}

gboolean
_winnow_line_reader_next (WinnowLineReader  *reader,
                          const char       **line,
                          gsize             *length)
{
  const char *nl;
  gsize n;

  if (reader->p >= reader->end)
    return FALSE;

  nl = memchr (reader->p, '\n', reader->end - reader->p);
  n = (nl != NULL ? nl : reader->end) - reader->p;
  *line = reader->p;
  *length = n > 0 && reader->p[n - 1] == '\r' ? n - 1 : n;
  reader->p = nl != NULL ? nl + 1 : reader->end;
  return TRUE;
}
