/* winnow-adapter-code.c — fenced code blocks among prose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seed 003's code adapter: every fenced block is kept verbatim, the prose between blocks is
 * summarised, and the result is the summary followed by the blocks.
 *
 * The seed detects any "```" in the text; we want a fence *line* (indentation, then at least
 * three backticks or tildes), because "```" also turns up inside JSON strings and log lines,
 * and this adapter runs before every other one. Any indentation is allowed, unlike
 * CommonMark's three spaces: fences nested in list items are common and must stay code. A
 * fence closes at a line of at least as many of the same character and nothing else; an
 * unclosed fence runs to the end of the text, as in CommonMark, so no code is taken for prose.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"

/* Length of the fence that opens @line (0 if none); *fence_char gets ` or ~. */
gsize
_winnow_adapter_fence_open (const char *line,
                            gsize       length,
                            char       *fence_char)
{
  gsize i = 0;
  gsize n = 0;
  char c;

  while (i < length && (line[i] == ' ' || line[i] == '\t'))
    i++;
  if (i >= length || (line[i] != '`' && line[i] != '~'))
    return 0;

  c = line[i];
  while (i + n < length && line[i + n] == c)
    n++;
  if (n < 3)
    return 0;

  /* a backtick fence's info string may not hold a backtick */
  if (c == '`' && memchr (line + i + n, '`', length - i - n) != NULL)
    return 0;

  *fence_char = c;
  return n;
}

gboolean
_winnow_adapter_fence_closes (const char *line,
                              gsize       length,
                              char        fence_char,
                              gsize       fence_length)
{
  gsize i = 0;
  gsize n = 0;

  while (i < length && (line[i] == ' ' || line[i] == '\t'))
    i++;
  while (i + n < length && line[i + n] == fence_char)
    n++;

  return n >= fence_length && _winnow_is_blank (line + i + n, length - i - n);
}

/* The first fenced block in [@text, @end): *opening is where its opening fence line starts,
 * *body the line after it, *close where its closing fence line starts (%NULL if the block is
 * never closed and runs to @end) and *after the line after that (@end if none). */
gboolean
_winnow_adapter_find_fence (const char  *text,
                            const char  *end,
                            const char **opening,
                            const char **body,
                            const char **close,
                            const char **after)
{
  for (const char *p = text; p < end; )
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *next = eol ? eol + 1 : end;
      char fence_char = 0;
      gsize marker = _winnow_adapter_fence_open (p, (eol ? eol : end) - p, &fence_char);

      if (marker == 0)
        {
          p = next;
          continue;
        }

      *opening = p;
      *body = next;
      *close = NULL;
      *after = end;
      for (const char *q = next; q < end; )
        {
          const char *qe = memchr (q, '\n', end - q);
          const char *q_next = qe ? qe + 1 : end;

          if (_winnow_adapter_fence_closes (q, (qe ? qe : end) - q, fence_char, marker))
            {
              *close = q;
              *after = q_next;
              break;
            }
          q = q_next;
        }
      return TRUE;
    }

  return FALSE;
}

static gboolean
code_detect (const char *text,
             gsize       length)
{
  WinnowLineReader reader;
  const char *line;
  gsize n;
  char c;

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line, &n))
    if (_winnow_adapter_fence_open (line, n, &c) > 0)
      return TRUE;

  return FALSE;
}

static void
code_extract (const char                 *text,
              gsize                       length,
              const WinnowAdapterOptions *options,
              WinnowAdapterParts         *parts)
{
  WinnowLineReader reader;
  const char *line;
  const char *prose = text;      /* where the current stretch of prose starts */
  const char *block = NULL;      /* where the open fence starts, if any */
  gsize fence_length = 0;
  char fence_char = 0;
  gsize n;

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line, &n))
    {
      if (block == NULL)
        {
          fence_length = _winnow_adapter_fence_open (line, n, &fence_char);
          if (fence_length > 0)
            {
              _winnow_adapter_compress (parts, prose, line - prose);
              block = line;
            }
        }
      else if (_winnow_adapter_fence_closes (line, n, fence_char, fence_length))
        {
          _winnow_adapter_preserve (parts, block, line + n - block);
          block = NULL;
          prose = reader.p;
        }
    }

  if (block != NULL)
    {
      gsize end = length;

      /* an unclosed fence runs to the end; keep it, without a final line break */
      while (end > (gsize) (block - text) && (text[end - 1] == '\n' || text[end - 1] == '\r'))
        end--;
      _winnow_adapter_preserve (parts, block, text + end - block);
    }
  else
    _winnow_adapter_compress (parts, prose, text + length - prose);
}

static void
code_reconstruct (const WinnowAdapterParts *parts,
                  const char               *summary,
                  GString                  *out)
{
  if (*summary != '\0')
    {
      g_string_append (out, summary);
      if (_winnow_adapter_n_preserved (parts) > 0)
        g_string_append (out, "\n\n");
    }
  _winnow_adapter_join_preserved (parts, "\n\n", out);
}

const WinnowAdapter _winnow_adapter_code = {
  .name = "code",
  .lossless = FALSE,
  .detect = code_detect,
  .extract = code_extract,
  .summarize = NULL,
  .reconstruct = code_reconstruct,
};
