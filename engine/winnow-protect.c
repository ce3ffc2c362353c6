/* winnow-protect.c — the technical tokens prose compression must leave alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Caveman prose compressor rewrites sentences with regular expressions; anything technical
 * in a message (code, commands, paths, URLs, versions, error lines…) must come out of it byte
 * for byte. This unit finds those regions. The Caveman engine swaps each region for an inert
 * placeholder, rewrites what is left and puts the regions back; winnow_protect_check() then
 * proves nothing protected was lost.
 *
 * The scan has two layers. The block layer (winnow-protect-blocks.c) walks the lines once and
 * claims whole lines: fences (indented, in list items, longer, unclosed, without a final
 * newline — where the reference implementation gives up), indented code, headings, tables,
 * JSON/YAML/TOML, XML, rows of comma- or tab-separated values, error lines, stack frames,
 * prompt lines, heredocs, diffs and unfenced code or tool output. The prose between blocks goes to
 * the inline lexer (winnow-protect-inline.c), which classifies whitespace-separated chunks
 * (URLs, paths, versions, dates, numbers, identifiers, branches) and a few multi-word shapes
 * (commands in sentences, named dates, calls with arguments). Both are single passes with
 * bounded look-ahead, so the scan is linear in the input.
 *
 * Spans are sorted, never overlap and lie on character boundaries. Invalid UTF-8 is prose: a
 * byte that is not part of a valid character ends any inline token, and block spans, which
 * always start and end at line boundaries, keep whatever bytes their lines hold.
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"

G_DEFINE_QUARK (winnow-protect-error-quark, winnow_protect_error)

static const char * const kind_names[WINNOW_PROTECT_N_KINDS] = {
  [WINNOW_PROTECT_FENCE] = "fence",
  [WINNOW_PROTECT_INDENTED_CODE] = "indented-code",
  [WINNOW_PROTECT_INLINE_CODE] = "inline-code",
  [WINNOW_PROTECT_URL] = "url",
  [WINNOW_PROTECT_EMAIL] = "email",
  [WINNOW_PROTECT_PATH] = "path",
  [WINNOW_PROTECT_VERSION] = "version",
  [WINNOW_PROTECT_DATE] = "date",
  [WINNOW_PROTECT_NUMBER] = "number",
  [WINNOW_PROTECT_IDENTIFIER] = "identifier",
  [WINNOW_PROTECT_HEADING] = "heading",
  [WINNOW_PROTECT_TABLE] = "table",
  [WINNOW_PROTECT_COMMAND] = "command",
  [WINNOW_PROTECT_BRANCH] = "branch",
  [WINNOW_PROTECT_STRUCTURED] = "structured",
  [WINNOW_PROTECT_ERROR_LINE] = "error-line",
  [WINNOW_PROTECT_STACK_FRAME] = "stack-frame",
  [WINNOW_PROTECT_CODE] = "code",
};

/**
 * winnow_protect_kind_to_string:
 * @kind: a kind
 *
 * Returns: the kind's kebab-case name ("fence", "inline-code", "url", …), or "unknown"
 */
const char *
winnow_protect_kind_to_string (WinnowProtectKind kind)
{
  if ((guint) kind >= WINNOW_PROTECT_N_KINDS)
    return "unknown";
  return kind_names[kind];
}

/**
 * winnow_protect_kind_from_string:
 * @str: a name as winnow_protect_kind_to_string() returns it
 * @kind: (out): the kind
 *
 * Returns: %TRUE if @str names a kind
 */
gboolean
winnow_protect_kind_from_string (const char        *str,
                                 WinnowProtectKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; i < WINNOW_PROTECT_N_KINDS; i++)
    if (g_strcmp0 (str, kind_names[i]) == 0)
      {
        *kind = (WinnowProtectKind) i;
        return TRUE;
      }

  return FALSE;
}

/* Appends a span, merging it into the previous one when they overlap or touch: the merged
 * span keeps the kind of the one that started first. Callers append in order of start. */
void
_winnow_protect_push (GArray            *spans,
                      gsize              start,
                      gsize              end,
                      WinnowProtectKind  kind)
{
  WinnowProtectSpan span = { start, end, kind };

  if (end <= start)
    return;

  if (spans->len > 0)
    {
      WinnowProtectSpan *last = &g_array_index (spans, WinnowProtectSpan, spans->len - 1);

      g_assert (start >= last->start);
      if (start <= last->end)
        {
          last->end = MAX (last->end, end);
          return;
        }
    }

  g_array_append_val (spans, span);
}

/**
 * winnow_protect_scan:
 * @text: a message
 * @length: its length in bytes, or -1 if it is NUL-terminated
 *
 * Finds the regions of @text that prose compression must keep byte for byte. Block spans
 * (fences, tables, error lines…) cover whole lines without their final line break; the same
 * block kind on consecutive lines makes one span, and inline tokens that touch are merged.
 * Bytes that are not valid UTF-8 are treated as prose: they end any inline token and never
 * start one, but a block keeps its lines' bytes whatever they are.
 *
 * Linear in @length; never fails.
 *
 * Returns: (transfer full) (element-type WinnowProtectSpan): the spans, sorted by offset,
 *   never overlapping, on UTF-8 character boundaries
 */
GArray *
winnow_protect_scan (const char *text,
                     gssize      length)
{
  GArray *spans;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (text);

  spans = g_array_sized_new (FALSE, FALSE, sizeof (WinnowProtectSpan), length / 64 + 4);
  if (length > 0)
    _winnow_protect_scan_blocks (text, length, spans);

  return spans;
}

/* A short, printable excerpt of @token for an error message. */
static char *
excerpt (const char *token,
         gsize       len)
{
  const gsize max = 60;
  const char *end = token + MIN (len, max);
  g_autoptr(GString) out = g_string_new (NULL);

  /* cut on a character boundary and keep the message valid UTF-8 */
  while (end > token && end < token + len && ((guchar) *end & 0xC0) == 0x80)
    end--;
  for (const char *p = token; p < end; p++)
    {
      if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == '\t' || (guchar) *p >= 0x20)
        g_string_append_c (out, *p);
      else
        g_string_append_printf (out, "\\x%02x", (guchar) *p);
    }
  if (end < token + len)
    g_string_append (out, "…");

  {
    g_autofree char *valid = g_utf8_make_valid (out->str, out->len);
    return g_steal_pointer (&valid);
  }
}

/**
 * winnow_protect_kind_is_block:
 * @kind: a #WinnowProtectKind
 *
 * Whether spans of @kind are blocks, covering whole lines: fences, indented code, headings,
 * tables, structured data, error lines, stack frames, unfenced code, and commands when they
 * start their line
 * (a prompt line; a command inside a sentence is not a block).
 *
 * Returns: %TRUE for those kinds
 */
gboolean
winnow_protect_kind_is_block (WinnowProtectKind kind)
{
  switch (kind)
    {
    case WINNOW_PROTECT_FENCE:
    case WINNOW_PROTECT_INDENTED_CODE:
    case WINNOW_PROTECT_HEADING:
    case WINNOW_PROTECT_TABLE:
    case WINNOW_PROTECT_COMMAND:
    case WINNOW_PROTECT_STRUCTURED:
    case WINNOW_PROTECT_ERROR_LINE:
    case WINNOW_PROTECT_STACK_FRAME:
    case WINNOW_PROTECT_CODE:
      return TRUE;
    case WINNOW_PROTECT_INLINE_CODE:
    case WINNOW_PROTECT_URL:
    case WINNOW_PROTECT_EMAIL:
    case WINNOW_PROTECT_PATH:
    case WINNOW_PROTECT_VERSION:
    case WINNOW_PROTECT_DATE:
    case WINNOW_PROTECT_NUMBER:
    case WINNOW_PROTECT_IDENTIFIER:
    case WINNOW_PROTECT_BRANCH:
    default:
      return FALSE;
    }
}

/**
 * winnow_protect_check:
 * @original: the text before compression
 * @original_length: its length in bytes, or -1 if it is NUL-terminated
 * @compressed: the text after compression
 * @compressed_length: its length in bytes, or -1 if it is NUL-terminated
 * @error: return location for a #WINNOW_PROTECT_ERROR_TOKEN_LOST error
 *
 * Checks that every protected span of @original appears in @compressed byte for byte and in
 * the same order (each one after the previous), which is what restoring placeholders must
 * guarantee; and that a block (a fence, a heading, a table…) that started a line still
 * starts one, since a fence in the middle of a line no longer opens a block. Greedy leftmost
 * matching decides this exactly.
 *
 * Returns: %TRUE if nothing protected was lost; otherwise %FALSE with @error naming the first
 *   missing token, its kind and its byte offset in @original
 */
gboolean
winnow_protect_check (const char  *original,
                      gssize       original_length,
                      const char  *compressed,
                      gssize       compressed_length,
                      GError     **error)
{
  g_autoptr(GArray) spans = NULL;
  gsize at = 0;

  g_return_val_if_fail (original != NULL || original_length == 0, FALSE);
  g_return_val_if_fail (compressed != NULL || compressed_length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (original_length < 0)
    original_length = strlen (original);
  if (compressed_length < 0)
    compressed_length = strlen (compressed);

  spans = winnow_protect_scan (original, original_length);

  for (guint i = 0; i < spans->len; i++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);
      const char *token = original + span->start;
      const char *end = compressed + compressed_length;
      gsize len = span->end - span->start;
      gboolean whole_lines = winnow_protect_kind_is_block (span->kind) &&
                             (span->start == 0 || original[span->start - 1] == '\n');
      const char *found = NULL;
      gboolean seen = FALSE;

      for (const char *from = compressed + at; len <= (gsize) (end - from);)
        {
          const char *hit = memmem (from, end - from, token, len);

          if (hit == NULL)
            break;
          seen = TRUE;
          /* a block that started a line still does, or it is no longer a block */
          if (!whole_lines || hit == compressed || hit[-1] == '\n')
            {
              found = hit;
              break;
            }
          from = hit + 1;
        }

      if (found == NULL)
        {
          g_autofree char *shown = excerpt (token, len);

          if (seen)
            g_set_error (error, WINNOW_PROTECT_ERROR, WINNOW_PROTECT_ERROR_TOKEN_LOST,
                         "protected %s at byte %" G_GSIZE_FORMAT " no longer starts a line in "
                         "the compressed text: “%s”",
                         winnow_protect_kind_to_string (span->kind), span->start, shown);
          else
            g_set_error (error, WINNOW_PROTECT_ERROR, WINNOW_PROTECT_ERROR_TOKEN_LOST,
                         "protected %s at byte %" G_GSIZE_FORMAT " is missing from the "
                         "compressed text or out of order: “%s”",
                         winnow_protect_kind_to_string (span->kind), span->start, shown);
          return FALSE;
        }

      at = (found - compressed) + len;
    }

  return TRUE;
}
