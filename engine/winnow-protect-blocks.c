/* winnow-protect-blocks.c — the lines a message protects whole
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Walks the lines once and claims blocks: fences, indented code, headings, tables, JSON, TOML
 * and YAML, stack traces, error reports and prompt lines. A block span covers whole lines but
 * not the final line break, so the prose around it keeps its line structure; consecutive lines
 * of one kind make one span. The prose between blocks is handed to the inline lexer.
 *
 * Where the reference implementation gives up protecting (and so compresses code), Winnow
 * keeps going: a fence may be indented (by up to three spaces, or more inside a list item),
 * open a list item (`- ```bash`), be longer than three characters, carry an info string, hold
 * the other fence character, close with any indentation, or never close (it then runs to the
 * end of the message).
 *
 * Markdown rules are followed where they decide what is code: an indented code block cannot
 * interrupt a paragraph and sits four columns right of the enclosing list item's content.
 * Recognisers that look ahead (JSON, YAML, TOML) remember where an attempt failed and do not
 * retry inside that stretch, so no line is scanned more than a few times.
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"


void
_winnow_protect_claim (ProtectBlocks     *bs,
                       gsize              start,
                       gsize              end,
                       WinnowProtectKind  kind,
                       gboolean           paragraph)
{
  const char *t = bs->text;

  if (start > bs->prose_start)
    _winnow_protect_scan_inline (t, bs->prose_start, start, bs->spans);
  bs->prose_start = end;
  bs->prev_paragraph = paragraph;

  if (bs->spans->len > 0)
    {
      WinnowProtectSpan *last = &g_array_index (bs->spans, WinnowProtectSpan, bs->spans->len - 1);
      gsize gap = start - last->end;

      if (last->kind == kind && last->end <= start &&
          ((gap == 1 && t[last->end] == '\n') ||
           (gap == 2 && t[last->end] == '\r' && t[last->end + 1] == '\n')))
        {
          last->end = end;
          return;
        }
    }

  _winnow_protect_push (bs->spans, start, end, kind);
}

/* Length of a list marker and the space after it at @p ("- ", "* ", "+ ", "1. ", "2) "), or 0;
 * the line ends at @e. */
gsize
_winnow_protect_list_marker (const char *t,
                             gsize       p,
                             gsize       e)
{
  gsize d;

  if (p + 1 < e && (t[p] == '-' || t[p] == '*' || t[p] == '+') &&
      _winnow_protect_is_space (t[p + 1]))
    return 2;
  d = _winnow_protect_count_digits (t, e, p);
  if (d >= 1 && d <= 9 && p + d + 1 < e && (t[p + d] == '.' || t[p + d] == ')') &&
      _winnow_protect_is_space (t[p + d + 1]))
    return d + 2;
  return 0;
}

/* ---- fences and code --------------------------------------------------------------------- */

static gboolean
fence_open (const char        *t,
            const ProtectLine *l,
            char              *fence_char,
            gsize             *fence_len)
{
  gsize p = l->body, run = 0, marker = _winnow_protect_list_marker (t, l->body, l->end);

  if (marker > 0)
    {
      p += marker;
      while (p < l->end && _winnow_protect_is_space (t[p]))
        p++;
    }
  if (p >= l->end || (t[p] != '`' && t[p] != '~'))
    return FALSE;
  while (p + run < l->end && t[p + run] == t[p])
    run++;
  if (run < 3)
    return FALSE;
  /* a backtick fence's info string has no backtick: ```foo``` is inline code */
  if (t[p] == '`' && memchr (t + p + run, '`', l->end - p - run) != NULL)
    return FALSE;

  *fence_char = t[p];
  *fence_len = run;
  return TRUE;
}

static gboolean
fence_close (const char        *t,
             const ProtectLine *l,
             char               fence_char,
             gsize              fence_len)
{
  gsize p = l->body, run = 0;

  while (p + run < l->end && t[p + run] == fence_char)
    run++;
  return run >= fence_len && _winnow_protect_only_spaces (t, p + run, l->end);
}

static gboolean
try_fence (ProtectBlocks     *bs,
           const ProtectLine *l,
           gsize             *next)
{
  const char *t = bs->text;
  char fence_char;
  gsize fence_len, end = l->end, pos = l->next;

  if (!fence_open (t, l, &fence_char, &fence_len))
    return FALSE;

  while (pos < bs->length)
    {
      ProtectLine m;

      _winnow_protect_read_line (t, bs->length, pos, &m);
      if (fence_close (t, &m, fence_char, fence_len))
        {
          _winnow_protect_claim (bs, l->start, m.end, WINNOW_PROTECT_FENCE, FALSE);
          *next = m.next;
          return TRUE;
        }
      if (!_winnow_protect_line_blank (&m))
        end = m.end;
      pos = m.next;
    }

  /* never closed: the rest of the message is code */
  _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_FENCE, FALSE);
  *next = bs->length;
  return TRUE;
}

static gboolean
try_indented_code (ProtectBlocks     *bs,
                   const ProtectLine *l,
                   gsize             *next)
{
  guint need = bs->list_indent + 4;
  gsize end = l->end, pos = l->next;

  if (bs->prev_paragraph || l->indent < need)
    return FALSE;

  *next = l->next;
  while (pos < bs->length)
    {
      ProtectLine m;

      _winnow_protect_read_line (bs->text, bs->length, pos, &m);
      pos = m.next;
      if (_winnow_protect_line_blank (&m))
        continue;
      if (m.indent < need)
        break;
      end = m.end;
      *next = m.next;
    }

  _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_INDENTED_CODE, FALSE);
  return TRUE;
}

/* ---- headings and tables ----------------------------------------------------------------- */

static gboolean
try_atx_heading (ProtectBlocks     *bs,
                 const ProtectLine *l,
                 gsize             *next)
{
  const char *t = bs->text;
  gsize p = l->body, run = 0;

  while (p + run < l->end && t[p + run] == '#')
    run++;
  if (l->indent > 3 || run < 1 || run > 6 ||
      (p + run < l->end && !_winnow_protect_is_space (t[p + run])))
    return FALSE;

  _winnow_protect_claim (bs, l->start, l->end, WINNOW_PROTECT_HEADING, FALSE);
  *next = l->next;
  return TRUE;
}

/* Title, then a line of `=` or `---` */
static gboolean
try_setext_heading (ProtectBlocks     *bs,
                    const ProtectLine *l,
                    gsize             *next)
{
  const char *t = bs->text;
  ProtectLine m;
  gsize run = 0, p = l->next;
  char c;

  /* most lines are not followed by an underline: decide that without reading the line */
  while (p < bs->length && t[p] == ' ')
    p++;
  if (p >= bs->length || (t[p] != '=' && t[p] != '-'))
    return FALSE;
  if (l->indent > 3 || _winnow_protect_list_marker (t, l->body, l->end) > 0 ||
      t[l->body] == '>' || t[l->body] == '|')
    return FALSE;

  _winnow_protect_read_line (t, bs->length, l->next, &m);
  if (_winnow_protect_line_blank (&m) || m.indent > 3)
    return FALSE;
  c = t[m.body];
  if (c != '=' && c != '-')
    return FALSE;
  while (m.body + run < m.end && t[m.body + run] == c)
    run++;
  if (run < (c == '=' ? 2u : 3u) || !_winnow_protect_only_spaces (t, m.body + run, m.end))
    return FALSE;

  _winnow_protect_claim (bs, l->start, m.end, WINNOW_PROTECT_HEADING, FALSE);
  *next = m.next;
  return TRUE;
}

static gboolean
has_pipe (const char        *t,
          const ProtectLine *l)
{
  return memchr (t + l->body, '|', l->end - l->body) != NULL;
}

/* |---|:--:| or ---|---, or psql's ----+---- (its rows are `a | b`) */
static gboolean
is_delimiter_row (const char        *t,
                  const ProtectLine *l)
{
  gsize p = l->body, e = l->end;
  guint cells = 0, pipes = 0;
  gboolean leading = FALSE;

  while (e > p && _winnow_protect_is_space (t[e - 1]))
    e--;
  if (p < e && t[p] == '|')
    {
      p++;
      pipes++;
      leading = TRUE;
    }

  while (p < e)
    {
      gsize dashes = 0;

      while (p < e && _winnow_protect_is_space (t[p]))
        p++;
      if (p < e && t[p] == ':')
        p++;
      while (p + dashes < e && t[p + dashes] == '-')
        dashes++;
      if (dashes == 0)
        return FALSE;
      p += dashes;
      if (p < e && t[p] == ':')
        p++;
      while (p < e && _winnow_protect_is_space (t[p]))
        p++;
      cells++;
      if (p < e)
        {
          if (t[p] != '|' && !(t[p] == '+' && !leading))
            return FALSE;
          p++;
          pipes++;
        }
    }

  return pipes >= 1 && (cells >= 2 || leading);
}

/* | a | b | */
static gboolean
is_framed_row (const char        *t,
               const ProtectLine *l)
{
  gsize e = l->end;
  guint pipes = 0;

  while (e > l->body && _winnow_protect_is_space (t[e - 1]))
    e--;
  if (e - l->body < 3 || t[l->body] != '|' || t[e - 1] != '|')
    return FALSE;
  for (gsize p = l->body; p < e; p++)
    if (t[p] == '|')
      pipes++;
  return pipes >= 2;
}

static gboolean
try_table (ProtectBlocks     *bs,
           const ProtectLine *l,
           gsize             *next)
{
  const char *t = bs->text;
  ProtectLine m;
  gsize end, pos;
  gboolean delimited;

  if (l->next >= bs->length || !has_pipe (t, l))
    return FALSE;

  _winnow_protect_read_line (t, bs->length, l->next, &m);
  delimited = is_delimiter_row (t, &m);
  if (!delimited && !(is_framed_row (t, l) && is_framed_row (t, &m)))
    return FALSE;

  end = m.end;
  *next = m.next;
  pos = m.next;
  while (pos < bs->length)
    {
      _winnow_protect_read_line (t, bs->length, pos, &m);
      if (_winnow_protect_line_blank (&m) ||
          !(delimited ? has_pipe (t, &m) : is_framed_row (t, &m)))
        break;
      end = m.end;
      *next = pos = m.next;
    }

  _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_TABLE, FALSE);
  return TRUE;
}

/* ---- traces, errors, prompts ------------------------------------------------------------- */

static gboolean
try_stack (ProtectBlocks     *bs,
           const ProtectLine *l,
           gsize             *next)
{
  const char *t = bs->text;
  ProtectLine m;
  gsize end = l->end, pos = l->next;

  *next = l->next;
  if (_winnow_protect_is_goroutine (t, l))
    {
      /* frames come in pairs: the function, then its file indented by a tab */
      while (pos < bs->length)
        {
          _winnow_protect_read_line (t, bs->length, pos, &m);
          if (_winnow_protect_line_blank (&m) ||
              !(t[m.start] == '\t' || (m.next < bs->length && t[m.next] == '\t') ||
                _winnow_protect_is_frame_line (t, &m)))
            break;
          end = m.end;
          *next = pos = m.next;
        }
    }
  else if (_winnow_protect_is_python_frame (t, l))
    {
      /* the source line and the carets under it */
      while (pos < bs->length)
        {
          _winnow_protect_read_line (t, bs->length, pos, &m);
          if (_winnow_protect_line_blank (&m) || m.indent <= l->indent ||
              _winnow_protect_is_python_frame (t, &m))
            break;
          end = m.end;
          *next = pos = m.next;
        }
    }
  else if (!_winnow_protect_is_frame_line (t, l))
    return FALSE;

  _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_STACK_FRAME, TRUE);
  return TRUE;
}

static gboolean
try_error (ProtectBlocks     *bs,
           const ProtectLine *l,
           gsize             *next)
{
  const char *t = bs->text;
  ProtectLine m;
  gsize end = l->end, pos = l->next;
  gboolean panic_message;

  if (!_winnow_protect_is_error_line (t, l))
    return FALSE;

  /* Rust prints the panic message on the line after "panicked at …:" */
  panic_message = t[l->end - 1] == ':' &&
                  memmem (t + l->body, l->end - l->body, " panicked at ", 13) != NULL;
  *next = l->next;
  while (pos < bs->length)
    {
      _winnow_protect_read_line (t, bs->length, pos, &m);
      if (_winnow_protect_line_blank (&m) || _winnow_protect_is_frame_line (t, &m) ||
          _winnow_protect_is_goroutine (t, &m))
        break;
      if (!(panic_message || _winnow_protect_is_error_context (t, &m) || m.indent > l->indent))
        break;
      panic_message = FALSE;
      end = m.end;
      *next = pos = m.next;
    }

  _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_ERROR_LINE, TRUE);
  return TRUE;
}

static gboolean
try_prompt (ProtectBlocks     *bs,
            const ProtectLine *l,
            gsize             *next)
{
  const char *t = bs->text;
  ProtectLine last = *l;

  if (!_winnow_protect_is_prompt_line (t, l))
    return FALSE;

  /* a command continued with a trailing backslash */
  while (last.end > last.body && t[last.end - 1] == '\\' && last.next < bs->length)
    {
      ProtectLine m;

      _winnow_protect_read_line (t, bs->length, last.next, &m);
      if (_winnow_protect_line_blank (&m))
        break;
      last = m;
    }

  _winnow_protect_claim (bs, l->start, last.end, WINNOW_PROTECT_COMMAND, TRUE);
  *next = last.next;
  return TRUE;
}

/* How far a heredoc's closing line is looked for: a line with "<<" and no closing line within
 * this many lines is not one, and no other "<<" line in that stretch is looked at again (a
 * text of C++ output operators would otherwise cost a search per line). */
#define HEREDOC_MAX_LINES 500

/* The delimiter of a shell heredoc opened on @l (`cat > f <<EOF`, `<<-'END'`, `<< "EOF" |
 * kubectl apply -f -`), or FALSE. Not a here-string (`<<<`). */
static gboolean
heredoc_delimiter (const char        *t,
                   const ProtectLine *l,
                   gsize             *word,
                   gsize             *word_length)
{
  const char *p = t + l->body;
  const char *end = t + l->end;

  while ((p = memmem (p, end - p, "<<", 2)) != NULL)
    {
      const char *q = p + 2;
      char quote = 0;
      const char *w;

      if (p > t + l->body && p[-1] == '<')
        {
          p = q;
          continue;
        }
      if (q < end && *q == '<')
        {
          p = q + 1; /* <<< */
          continue;
        }
      if (q < end && *q == '-')
        q++;
      while (q < end && (*q == ' ' || *q == '\t'))
        q++;
      if (q < end && (*q == '\'' || *q == '"'))
        quote = *q++;
      w = q;
      if (q < end && (g_ascii_isalpha (*q) || *q == '_'))
        while (q < end && (g_ascii_isalnum (*q) || *q == '_'))
          q++;
      if (q > w && (!quote || (q < end && *q++ == quote)) &&
          (q == end || strchr (" \t;|&>)", *q) != NULL))
        {
          *word = w - t;
          *word_length = (gsize) (q - w) - (quote ? 1 : 0);
          return TRUE;
        }
      p += 2;
    }

  return FALSE;
}

/* The line that closes a heredoc opened on @l, or FALSE (also when an earlier search from a
 * line before @l found none within HEREDOC_MAX_LINES). */
static gboolean
find_heredoc_end (ProtectBlocks     *bs,
                  const ProtectLine *l,
                  ProtectLine       *closing)
{
  const char *t = bs->text;
  gsize word, word_length, pos = l->next;

  if (l->start < bs->heredoc_fail_until || !heredoc_delimiter (t, l, &word, &word_length))
    return FALSE;

  for (guint n = 0; n < HEREDOC_MAX_LINES && pos < bs->length; n++)
    {
      gsize end;

      _winnow_protect_read_line (t, bs->length, pos, closing);
      end = closing->end;
      while (end > closing->body && (t[end - 1] == ' ' || t[end - 1] == '\t'))
        end--;
      if (end - closing->body == word_length &&
          memcmp (t + closing->body, t + word, word_length) == 0)
        return TRUE;
      pos = closing->next;
    }

  bs->heredoc_fail_until = pos;
  return FALSE;
}

/* A heredoc: from the line that opens it to the line that is its delimiter, what is between
 * is a file's or a program's text, not prose. */
static gboolean
try_heredoc (ProtectBlocks     *bs,
             const ProtectLine *l,
             gsize             *next)
{
  ProtectLine closing;

  if (!find_heredoc_end (bs, l, &closing))
    return FALSE;
  _winnow_protect_claim (bs, l->start, closing.end, WINNOW_PROTECT_COMMAND, TRUE);
  *next = closing.next;
  return TRUE;
}

/* A unified diff pasted without a fence (`git diff`, a patch): its header lines or hunk header,
 * then the lines of its hunks, each starting with a space, + or -. What changed is what the
 * reader needs byte for byte, the English in it included. */
static gboolean
is_hunk_header (const char        *t,
                const ProtectLine *l)
{
  return l->indent == 0 && l->end - l->body > 7 && memcmp (t + l->body, "@@ -", 4) == 0 &&
         memmem (t + l->body + 4, l->end - l->body - 4, " @@", 3) != NULL;
}

static gboolean
is_diff_header (const char        *t,
                const ProtectLine *l)
{
  static const char * const headers[] = {
    "diff --git ", "diff -", "index ", "--- ", "+++ ", "new file mode ", "deleted file mode ",
    "old mode ", "new mode ", "similarity index ", "rename from ", "rename to ", "Binary files ",
  };
  const char *s = t + l->start;
  gsize n = l->end - l->start;

  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    if (n >= strlen (headers[i]) && memcmp (s, headers[i], strlen (headers[i])) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
try_diff (ProtectBlocks     *bs,
          const ProtectLine *l,
          gsize             *next)
{
  const char *t = bs->text;
  ProtectLine last = *l, m;
  gboolean hunk = is_hunk_header (t, l);
  gsize pos = l->next;

  /* a diff opens with `diff --git`, or `--- a` followed by `+++ b`, or a hunk header */
  if (l->start < bs->diff_fail_until)
    return FALSE;
  if (!hunk)
    {
      if (l->end - l->start < 5 || !(memcmp (t + l->start, "diff ", 5) == 0 ||
                                      memcmp (t + l->start, "--- ", 4) == 0))
        return FALSE;
      if (memcmp (t + l->start, "--- ", 4) == 0)
        {
          if (pos >= bs->length)
            return FALSE;
          _winnow_protect_read_line (t, bs->length, pos, &m);
          if (m.end - m.start < 4 || memcmp (t + m.start, "+++ ", 4) != 0)
            return FALSE;
        }
    }

  while (pos < bs->length)
    {
      char c;

      _winnow_protect_read_line (t, bs->length, pos, &m);
      c = m.end > m.start ? t[m.start] : '\0';
      if (is_hunk_header (t, &m))
        hunk = TRUE;
      else if (!(is_diff_header (t, &m) ||
                 (hunk && (c == ' ' || c == '+' || c == '-' || c == '\\'))))
        {
          /* an empty context line (trailing blanks stripped) inside a hunk */
          gsize after = m.next;
          ProtectLine o;

          if (!(hunk && m.end == m.start && after < bs->length))
            break;
          _winnow_protect_read_line (t, bs->length, after, &o);
          if (!(o.end > o.start && strchr (" +-\\", t[o.start]) != NULL))
            break;
        }
      last = m;
      pos = m.next;
    }

  if (!hunk)
    {
      /* every line up to here was a header: a diff starting at any of them fails the same */
      bs->diff_fail_until = pos;
      return FALSE;
    }
  _winnow_protect_claim (bs, l->start, last.end, WINNOW_PROTECT_CODE, TRUE);
  *next = last.next;
  return TRUE;
}

/* Source code pasted without a fence (a file, a function): a run of lines that starts and ends
 * with a line of code (_winnow_protect_is_code_line()), where at most CODE_MAX_GAP lines in a
 * row are not (a wrapped argument, a string) and blank lines come at most three in a row. The
 * lines of a comment or docstring opened on a line of code count as code up to the line that
 * closes it. At least CODE_MIN_LINES of its lines, and three in five, must be code; prose
 * that mentions code now and then never is. */
#define CODE_MIN_LINES 3
#define CODE_MAX_GAP   3
#define CODE_MAX_TRIES 8
#define CODE_MAX_TRIMMED 64

typedef enum
{
  OPEN_NONE,
  OPEN_C_COMMENT,       /* slash star */
  OPEN_DOUBLE_QUOTES,   /* three double quotes */
  OPEN_SINGLE_QUOTES,   /* three single quotes */
  OPEN_STRING,          /* a double-quoted string over lines (a shell script's message) */
  OPEN_LINE_COMMENT,    /* // or #: the rest of the line, never left open */
} OpenComment;

static const char * const comment_opens[] = { NULL, "/*", "\"\"\"", "'''", "\"", "//" };
static const char * const comment_closes[] = { NULL, "*/", "\"\"\"", "'''", "\"", NULL };

/* Where @p[0, @n) holds @close not escaped by a backslash, or NULL. */
static const char *
find_close (const char *p,
            gsize       n,
            const char *close)
{
  gsize len = strlen (close);
  const char *start = p;

  while ((p = memmem (p, n - (p - start), close, len)) != NULL)
    {
      gsize backslashes = 0;

      while (p - backslashes > start && p[-1 - (gssize) backslashes] == '\\')
        backslashes++;
      if (backslashes % 2 == 0)
        return p;
      p += len;
    }
  return NULL;
}

/* What @t[@start, @end) leaves open, given what was open before it. */
static OpenComment
follow_comments (const char  *t,
                 gsize        start,
                 gsize        end,
                 OpenComment  open)
{
  const char *p = t + start;
  const char *e = t + end;

  while (p < e)
    {
      if (open != OPEN_NONE)
        {
          const char *close = find_close (p, e - p, comment_closes[open]);

          if (close == NULL)
            return open;
          p = close + strlen (comment_closes[open]);
          open = OPEN_NONE;
        }
      else
        {
          const char *first = NULL;
          const char *quoted_end = NULL;
          OpenComment which = OPEN_NONE;

          /* (at the same place, three quotes open a docstring rather than a string) */
          for (OpenComment k = OPEN_C_COMMENT; k <= OPEN_LINE_COMMENT; k++)
            {
              const char *found = memmem (p, e - p, comment_opens[k], strlen (comment_opens[k]));

              if (found != NULL && (first == NULL || found < first))
                {
                  first = found;
                  which = k;
                }
            }
          /* before those: a # comment (at the start of the line or after a blank, not $#), or
           * a string in single quotes that ends on the line ('"' opens no string; an
           * apostrophe with no partner is a word's) */
          for (const char *h = p; h < e && (first == NULL || h < first); h++)
            if (*h == '#' && (h == t + start || h[-1] == ' ' || h[-1] == '\t'))
              {
                first = h;
                which = OPEN_LINE_COMMENT;
                break;
              }
            else if (*h == '\'' && !(h + 2 < e && h[1] == '\'' && h[2] == '\''))
              {
                const char *close = find_close (h + 1, e - h - 1, "'");

                if (close != NULL)
                  {
                    quoted_end = close + 1;
                    break;
                  }
              }
          if (quoted_end != NULL)
            {
              p = quoted_end;
              continue;
            }
          if (first == NULL || which == OPEN_LINE_COMMENT)
            return OPEN_NONE;
          open = which;
          p = first + strlen (comment_opens[open]);
        }
    }

  return open;
}

/* Whether @m, which follows a line of code, opens a string or comment that a later line
 * closes (`echo "\` before a shell script's usage message), within CODE_MAX_STRING lines;
 * then @open is what it leaves open. A quote in prose after code that nothing closes does not
 * take the rest of the text with it. */
#define CODE_MAX_STRING 60

static gboolean
opens_string (ProtectBlocks     *bs,
              const ProtectLine *m,
              OpenComment       *open)
{
  const char *t = bs->text;
  OpenComment left, still;
  gsize pos = m->next;

  if (m->start < bs->string_fail_until)
    return FALSE;
  still = left = follow_comments (t, m->body, m->end, OPEN_NONE);
  if (left == OPEN_NONE)
    return FALSE;
  for (guint k = 0; k < CODE_MAX_STRING && pos < bs->length && still != OPEN_NONE; k++)
    {
      ProtectLine l;

      _winnow_protect_read_line (t, bs->length, pos, &l);
      still = follow_comments (t, l.body, l.end, still);
      pos = l.next;
    }
  if (still != OPEN_NONE)
    {
      /* (a line before where this search gave up is not searched from again) */
      bs->string_fail_until = pos;
      return FALSE;
    }
  *open = left;
  return TRUE;
}

/* How many more brackets @t[@start, @end) opens than it closes, outside strings that end on
 * the line and before a comment. */
static gint
bracket_balance (const char *t,
                 gsize       start,
                 gsize       end)
{
  gint balance = 0;

  for (gsize i = start; i < end; i++)
    {
      char c = t[i];

      if (c == '"' || c == '\'' || c == '`')
        {
          const char *close = find_close (t + i + 1, end - i - 1, (char[]) { c, '\0' });

          if (close != NULL)
            i = close - t;
        }
      else if ((c == '#' && (i == start || t[i - 1] == ' ')) ||
               (c == '/' && i + 1 < end && t[i + 1] == '/'))
        break;
      else if (c == '(' || c == '[' || c == '{')
        balance++;
      else if (c == ')' || c == ']' || c == '}')
        balance--;
    }
  return balance;
}

/* The line where the brackets a line of code left open (@balance of them) are closed, when
 * one within CODE_MAX_STRING lines after @pos does: the lines of a call's arguments or of a
 * condition over lines are code, whatever words they hold (`Flag is not None`). */
static gboolean
closes_brackets (const char  *t,
                 gsize        length,
                 gsize        pos,
                 gint         balance,
                 ProtectLine *closing)
{
  closing->next = pos;
  for (guint k = 0; k < CODE_MAX_STRING && pos < length; k++)
    {
      _winnow_protect_read_line (t, length, pos, closing);
      balance += bracket_balance (t, closing->body, closing->end);
      if (balance <= 0)
        return balance == 0;
      pos = closing->next;
    }
  return FALSE;
}

static gboolean
continues_brackets (ProtectBlocks     *bs,
                    const ProtectLine *m,
                    ProtectLine       *closing)
{
  gint balance;

  if (m->start < bs->bracket_fail_until)
    return FALSE;
  balance = bracket_balance (bs->text, m->body, m->end);
  if (balance <= 0)
    return FALSE;
  if (closes_brackets (bs->text, bs->length, m->next, balance, closing))
    return TRUE;
  /* (a line before where this search gave up is not searched from again) */
  bs->bracket_fail_until = closing->next;
  return FALSE;
}

/* A code line of a run being read (or the lines from one to where the heredoc, string or
 * brackets it opens end): where it ends, and how many lines of code and other lines came up
 * to it. */
typedef struct
{
  gsize end;
  gsize next;
  guint code;
  guint other;
} CodeLine;

/* How many lines @t[@start, @end] covers. */
static guint
count_lines (const char *t,
             gsize       start,
             gsize       end)
{
  guint n = 1;

  for (const char *p = t + start; (p = memchr (p, '\n', end - (p - t))) != NULL; p++)
    n++;
  return n;
}

static inline gboolean
code_run_holds (guint code,
                guint other)
{
  return code >= CODE_MIN_LINES && code * 5 >= (code + other) * 3;
}

static gboolean
try_code (ProtectBlocks     *bs,
          const ProtectLine *l,
          gsize             *next)
{
  const char *t = bs->text;
  g_autoptr(GArray) lines = NULL;
  guint other = 0, gap = 0, blanks = 0;
  gsize pos = l->next;
  OpenComment open;
  char fence_char;
  gsize fence_len;
  CodeLine first = { l->end, l->next, 1, 0 };
  ProtectLine closing;
  guint description, row_indent = l->indent;
  gint held = -1;

  if (l->start < bs->code_fail_until || !_winnow_protect_is_code_line (t, l))
    return FALSE;
  /* a minified script is a run of its own, however few its lines */
  if (_winnow_protect_is_minified_line (t, l))
    {
      _winnow_protect_claim (bs, l->start, l->end, WINNOW_PROTECT_CODE, TRUE);
      *next = l->next;
      return TRUE;
    }
  lines = g_array_new (FALSE, FALSE, sizeof (CodeLine));
  description = _winnow_protect_table_row_column (t, l);
  open = follow_comments (t, l->body, l->end, OPEN_NONE);
  if (open == OPEN_NONE &&
      (find_heredoc_end (bs, l, &closing) || continues_brackets (bs, l, &closing)))
    {
      first = (CodeLine) { closing.end, closing.next, count_lines (t, l->start, closing.start),
                           0 };
      pos = closing.next;
    }
  g_array_append_val (lines, first);

  while (pos < bs->length)
    {
      ProtectLine m;
      CodeLine line;
      gboolean heredoc = FALSE, continued;
      guint code;

      _winnow_protect_read_line (t, bs->length, pos, &m);
      pos = m.next;
      if (open != OPEN_NONE)
        {
          /* inside a comment: code, whatever it says */
          open = follow_comments (t, m.body, m.end, open);
          blanks = 0;
          if (_winnow_protect_line_blank (&m))
            continue;
        }
      else
        {
          if (_winnow_protect_line_blank (&m))
            {
              if (++blanks > 3)
                break;
              continue;
            }
          /* a fence starts something else (a `# comment` between lines of code is one, not a
           * heading) */
          if (fence_open (t, &m, &fence_char, &fence_len))
            break;
          blanks = 0;
          /* a heredoc in a script (`cat <<END` before its usage message) is the script's,
           * to its delimiter */
          heredoc = find_heredoc_end (bs, &m, &closing);
          /* a row's description wrapped onto more lines goes on in its column (after a line
           * of options alone, in the column of its first line, further in) */
          continued = gap == 0 && description > 0 &&
                      (m.indent == description ||
                       (description == G_MAXUINT && m.indent > row_indent + 4));
          if (continued && description == G_MAXUINT)
            description = m.indent;
          if (!continued)
            {
              description = _winnow_protect_table_row_column (t, &m);
              row_indent = m.indent;
            }
          if (!heredoc && !continued && description == 0 &&
              !_winnow_protect_is_code_line (t, &m) &&
              !(gap == 0 && opens_string (bs, &m, &open)))
            {
              if (++gap > CODE_MAX_GAP)
                break;
              continue;
            }
          if (open == OPEN_NONE && !heredoc)
            open = follow_comments (t, m.body, m.end, OPEN_NONE);
        }
      other += gap;
      gap = 0;
      code = g_array_index (lines, CodeLine, lines->len - 1).code;
      line = (CodeLine) { m.end, m.next, code + 1, other };
      if (heredoc ||
          (open == OPEN_NONE && continues_brackets (bs, &m, &closing)))
        {
          line = (CodeLine) { closing.end, closing.next,
                              code + count_lines (t, m.start, closing.start), other };
          pos = closing.next;
        }
      g_array_append_val (lines, line);
    }

  /* the whole run, or else its longest start that holds: compressing the prose after a run
   * may bring more lines within its reach, and the part that held before must hold again
   * (looked for in runs of up to CODE_MAX_TRIMMED lines of code, which a later attempt reads
   * again: in longer ones it would cost a pass over the run per line) */
  for (gint k = (gint) lines->len - 1; k >= 0 && held < 0; k--)
    if ((k == (gint) lines->len - 1 || lines->len <= CODE_MAX_TRIMMED) &&
        code_run_holds (g_array_index (lines, CodeLine, k).code,
                        g_array_index (lines, CodeLine, k).other))
      held = k;

  if (held < 0)
    {
      /* the same goes for prose before a run: the next few lines of code may start one, and
       * only after that is the rest of this stretch given up (so the walk stays linear) */
      if (l->start >= bs->code_stretch_end)
        {
          bs->code_stretch_end = g_array_index (lines, CodeLine, lines->len - 1).next;
          bs->code_stretch_tries = 0;
        }
      if (++bs->code_stretch_tries >= CODE_MAX_TRIES || lines->len > CODE_MAX_TRIMMED)
        bs->code_fail_until = bs->code_stretch_end;
      return FALSE;
    }

  _winnow_protect_claim (bs, l->start, g_array_index (lines, CodeLine, held).end,
                         WINNOW_PROTECT_CODE, TRUE);
  *next = g_array_index (lines, CodeLine, held).next;
  return TRUE;
}

/* ---- the walk ---------------------------------------------------------------------------- */

static gboolean
scan_block (ProtectBlocks     *bs,
            const ProtectLine *l,
            gsize             *next)
{
  guchar c = bs->text[l->body];

  return try_fence (bs, l, next) ||
         try_indented_code (bs, l, next) ||
         (c == '#' && try_atx_heading (bs, l, next)) ||
         try_table (bs, l, next) ||
         ((c == '{' || c == '[') && _winnow_protect_try_json (bs, l, next)) ||
         (c == '<' && _winnow_protect_try_xml (bs, l, next)) ||
         _winnow_protect_try_toml (bs, l, next) ||
         (c == '-' && _winnow_protect_try_yaml_document (bs, l, next)) ||
         try_stack (bs, l, next) ||
         try_error (bs, l, next) ||
         try_heredoc (bs, l, next) ||
         try_diff (bs, l, next) ||
         try_prompt (bs, l, next) ||
         _winnow_protect_try_yaml_run (bs, l, next) ||
         try_code (bs, l, next) ||
         _winnow_protect_try_delimited (bs, l, next) ||
         try_setext_heading (bs, l, next);
}

/* Lists decide how far code must be indented: four columns past the item's content. */
static void
note_prose_line (ProtectBlocks     *bs,
                 const ProtectLine *l)
{
  gsize marker = _winnow_protect_list_marker (bs->text, l->body, l->end);

  if (marker > 0)
    {
      gsize p = l->body + marker, spaces = 1;

      while (p < l->end && _winnow_protect_is_space (bs->text[p]) && spaces < 5)
        {
          p++;
          spaces++;
        }
      bs->list_indent = l->indent + marker - 1 + (spaces > 4 ? 1 : spaces);
    }
  else if (bs->after_blank && l->indent < bs->list_indent)
    bs->list_indent = l->indent >= 2 ? l->indent : 0;
}

void
_winnow_protect_scan_blocks (const char *text,
                             gsize       length,
                             GArray     *spans)
{
  ProtectBlocks bs;
  gsize pos = 0;

  memset (&bs, 0, sizeof bs);
  bs.text = text;
  bs.length = length;
  bs.spans = spans;
  bs.after_blank = TRUE;

  while (pos < length)
    {
      ProtectLine line;
      gsize next;

      _winnow_protect_read_line (text, length, pos, &line);
      if (_winnow_protect_line_blank (&line))
        {
          bs.prev_paragraph = FALSE;
          bs.after_blank = TRUE;
          pos = line.next;
          continue;
        }

      if (scan_block (&bs, &line, &next))
        {
          g_assert (next > pos);
          pos = next;
          bs.after_blank = FALSE;
          continue;
        }

      note_prose_line (&bs, &line);
      bs.prev_paragraph = TRUE;
      bs.after_blank = FALSE;
      pos = line.next;
    }

  if (length > bs.prose_start)
    _winnow_protect_scan_inline (text, bs.prose_start, length, spans);
}
