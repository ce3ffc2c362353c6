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

typedef struct
{
  const char *text;
  gsize       length;
  GArray     *spans;
  gsize       prose_start;     /* start of the prose not lexed yet */
  gboolean    prev_paragraph;  /* the line before is paragraph text (indented code can't follow) */
  gboolean    after_blank;
  guint       list_indent;     /* content column of the list item we are in; 0 outside lists */
  gsize       json_fail_until;
  gsize       yaml_fail_until;
  gsize       toml_fail_until;
  gsize       toml_value_fail_until;
} Blocks;

static void
claim (Blocks            *bs,
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

static inline gboolean
is_space (char c)
{
  return c == ' ' || c == '\t';
}

static gboolean
only_spaces (const char *t,
             gsize       p,
             gsize       e)
{
  while (p < e && is_space (t[p]))
    p++;
  return p == e;
}

/* Length of a list marker and the space after it at @p ("- ", "* ", "+ ", "1. ", "2) "), or 0. */
static gsize
list_marker (const char *t,
             gsize       p,
             gsize       e)
{
  gsize d;

  if (p + 1 < e && (t[p] == '-' || t[p] == '*' || t[p] == '+') && is_space (t[p + 1]))
    return 2;
  d = _winnow_protect_count_digits (t, e, p);
  if (d >= 1 && d <= 9 && p + d + 1 < e && (t[p + d] == '.' || t[p + d] == ')') &&
      is_space (t[p + d + 1]))
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
  gsize p = l->body, run = 0, marker = list_marker (t, l->body, l->end);

  if (marker > 0)
    {
      p += marker;
      while (p < l->end && is_space (t[p]))
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
  return run >= fence_len && only_spaces (t, p + run, l->end);
}

static gboolean
try_fence (Blocks            *bs,
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
          claim (bs, l->start, m.end, WINNOW_PROTECT_FENCE, FALSE);
          *next = m.next;
          return TRUE;
        }
      if (!_winnow_protect_line_blank (&m))
        end = m.end;
      pos = m.next;
    }

  /* never closed: the rest of the message is code */
  claim (bs, l->start, end, WINNOW_PROTECT_FENCE, FALSE);
  *next = bs->length;
  return TRUE;
}

static gboolean
try_indented_code (Blocks            *bs,
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

  claim (bs, l->start, end, WINNOW_PROTECT_INDENTED_CODE, FALSE);
  return TRUE;
}

/* ---- headings and tables ----------------------------------------------------------------- */

static gboolean
try_atx_heading (Blocks            *bs,
                 const ProtectLine *l,
                 gsize             *next)
{
  const char *t = bs->text;
  gsize p = l->body, run = 0;

  while (p + run < l->end && t[p + run] == '#')
    run++;
  if (l->indent > 3 || run < 1 || run > 6 || (p + run < l->end && !is_space (t[p + run])))
    return FALSE;

  claim (bs, l->start, l->end, WINNOW_PROTECT_HEADING, FALSE);
  *next = l->next;
  return TRUE;
}

/* Title, then a line of `=` or `---` */
static gboolean
try_setext_heading (Blocks            *bs,
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
  if (l->indent > 3 || list_marker (t, l->body, l->end) > 0 || t[l->body] == '>' ||
      t[l->body] == '|')
    return FALSE;

  _winnow_protect_read_line (t, bs->length, l->next, &m);
  if (_winnow_protect_line_blank (&m) || m.indent > 3)
    return FALSE;
  c = t[m.body];
  if (c != '=' && c != '-')
    return FALSE;
  while (m.body + run < m.end && t[m.body + run] == c)
    run++;
  if (run < (c == '=' ? 2u : 3u) || !only_spaces (t, m.body + run, m.end))
    return FALSE;

  claim (bs, l->start, m.end, WINNOW_PROTECT_HEADING, FALSE);
  *next = m.next;
  return TRUE;
}

static gboolean
has_pipe (const char        *t,
          const ProtectLine *l)
{
  return memchr (t + l->body, '|', l->end - l->body) != NULL;
}

/* |---|:--:| or ---|--- */
static gboolean
is_delimiter_row (const char        *t,
                  const ProtectLine *l)
{
  gsize p = l->body, e = l->end;
  guint cells = 0, pipes = 0;
  gboolean leading = FALSE;

  while (e > p && is_space (t[e - 1]))
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

      while (p < e && is_space (t[p]))
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
      while (p < e && is_space (t[p]))
        p++;
      cells++;
      if (p < e)
        {
          if (t[p] != '|')
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

  while (e > l->body && is_space (t[e - 1]))
    e--;
  if (e - l->body < 3 || t[l->body] != '|' || t[e - 1] != '|')
    return FALSE;
  for (gsize p = l->body; p < e; p++)
    if (t[p] == '|')
      pipes++;
  return pipes >= 2;
}

static gboolean
try_table (Blocks            *bs,
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

  claim (bs, l->start, end, WINNOW_PROTECT_TABLE, FALSE);
  return TRUE;
}

/* ---- JSON, TOML, YAML -------------------------------------------------------------------- */

/* A line starting `{` or `[` whose balanced, string-aware structure closes on a later line
 * (or, for JSON Lines, a whole line such as {"a": 1}); a blank line ends the attempt. */
static gboolean
try_json (Blocks            *bs,
          const ProtectLine *l,
          gsize             *next)
{
  const char *t = bs->text;
  gsize i, depth = 0, close_end;
  gboolean in_string = FALSE, crossed = FALSE;
  const char *nl;

  if (l->start < bs->json_fail_until)
    return FALSE;

  for (i = l->body; i < bs->length; i++)
    {
      char c = t[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          else if (c == '\n')
            break;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        depth++;
      else if (c == '}' || c == ']')
        {
          if (--depth == 0)
            break;
        }
      else if (c == '\n')
        {
          gsize k = i + 1;

          while (k < bs->length && (is_space (t[k]) || t[k] == '\r'))
            k++;
          if (k >= bs->length || t[k] == '\n')
            break;
          crossed = TRUE;
        }
    }

  if (i >= bs->length || depth != 0)
    {
      if (crossed)
        bs->json_fail_until = MIN (i, bs->length);
      return FALSE;
    }

  nl = memchr (t + i, '\n', bs->length - i);
  close_end = nl != NULL ? (gsize) (nl - t) : bs->length;
  if (close_end > i && t[close_end - 1] == '\r')
    close_end--;
  for (gsize k = i + 1; k < close_end; k++)
    if (!(is_space (t[k]) || t[k] == ',' || t[k] == ';'))
      {
        if (crossed)
          bs->json_fail_until = i;
        return FALSE;
      }

  if (!crossed)
    {
      /* one line: only when it reads as data, {"a": 1} or ["x", 2] */
      gsize k = l->body + 1;

      while (k < close_end && is_space (t[k]))
        k++;
      if (k >= close_end || !(t[k] == '"' || (t[l->body] == '[' && (t[k] == '{' || t[k] == '['))))
        return FALSE;
    }

  claim (bs, l->start, close_end, WINNOW_PROTECT_STRUCTURED, TRUE);
  *next = nl != NULL ? (gsize) (nl - t) + 1 : bs->length;
  return TRUE;
}

static gboolean
toml_section (const char        *t,
              const ProtectLine *l)
{
  gsize p = l->body, e = l->end, start;
  guint open = 0;
  gboolean quoted = FALSE;

  while (p < e && t[p] == '[' && open < 2)
    {
      p++;
      open++;
    }
  start = p;
  while (p < e && (quoted || t[p] != ']'))
    {
      if (t[p] == '"')
        quoted = !quoted;
      else if (!quoted && !(_winnow_protect_is_word_char (t[p]) || t[p] == '-' || t[p] == '.'))
        return FALSE;
      p++;
    }
  if (open == 0 || p == start)
    return FALSE;
  for (guint k = 0; k < open; k++, p++)
    if (p >= e || t[p] != ']')
      return FALSE;
  while (p < e && is_space (t[p]))
    p++;
  return p == e || t[p] == '#';
}

/* key = value (bare, dotted or quoted key); *@value is where the value starts */
static gboolean
toml_pair (const char        *t,
           const ProtectLine *l,
           gsize             *value)
{
  gsize p = l->body, e = l->end, start = p;

  if (p < e && t[p] == '"')
    {
      const char *close = memchr (t + p + 1, '"', e - p - 1);

      if (close == NULL)
        return FALSE;
      p = close - t + 1;
    }
  else
    {
      while (p < e && (_winnow_protect_is_word_char (t[p]) || t[p] == '-' || t[p] == '.'))
        p++;
      if (p == start)
        return FALSE;
    }
  while (p < e && is_space (t[p]))
    p++;
  if (p >= e || t[p] != '=' || (p + 1 < e && t[p + 1] == '='))
    return FALSE;
  p++;
  while (p < e && is_space (t[p]))
    p++;
  if (p >= e)
    return FALSE;

  *value = p;
  return TRUE;
}

/* An array, inline table or multi-line string value runs on to the line where it closes
 * (never past a blank line); *@last is that line, or @l. */
static void
toml_value_end (Blocks            *bs,
                const ProtectLine *l,
                gsize              value,
                ProtectLine       *last)
{
  const char *t = bs->text;
  char c = t[value];

  *last = *l;

  if ((c == '"' || c == '\'') && value + 2 < l->end && t[value + 1] == c && t[value + 2] == c)
    {
      char triple[3] = { c, c, c };
      gsize pos = l->next;

      if (memmem (t + value + 3, l->end - value - 3, triple, 3) != NULL)
        return;
      while (pos < bs->length)
        {
          ProtectLine m;

          _winnow_protect_read_line (t, bs->length, pos, &m);
          if (_winnow_protect_line_blank (&m))
            return;
          if (memmem (t + m.start, m.end - m.start, triple, 3) != NULL)
            {
              *last = m;
              return;
            }
          pos = m.next;
        }
      return;
    }

  /* an earlier value that never closed already looked at this stretch */
  if ((c == '[' || c == '{') && value >= bs->toml_value_fail_until)
    {
      int depth = 0;
      char quote = 0;
      gsize i;

      for (i = value; i < bs->length; i++)
        {
          char d = t[i];

          if (quote != 0)
            {
              if (d == '\\' && quote == '"')
                i++;
              else if (d == quote || d == '\n')
                quote = 0;
            }
          else if (d == '"' || d == '\'')
            quote = d;
          else if (d == '[' || d == '{')
            depth++;
          else if ((d == ']' || d == '}') && --depth == 0)
            {
              gsize start = i;

              while (start > l->start && t[start - 1] != '\n')
                start--;
              _winnow_protect_read_line (t, bs->length, start, last);
              return;
            }
          else if (d == '\n')
            {
              ProtectLine m;

              _winnow_protect_read_line (t, bs->length, i + 1, &m);
              if (i + 1 >= bs->length || _winnow_protect_line_blank (&m))
                break;
            }
        }
      bs->toml_value_fail_until = i;
    }
}

/* [section] followed by key = value lines, or two or more key = value lines */
static gboolean
try_toml (Blocks            *bs,
          const ProtectLine *l,
          gsize             *next)
{
  const char *t = bs->text;
  gboolean section = t[l->body] == '[' && toml_section (t, l);
  ProtectLine last, m;
  gsize value, end, pos;
  guint pairs = 0;

  if (l->start < bs->toml_fail_until)
    return FALSE;
  if (section)
    last = *l;
  else
    {
      if (!toml_pair (t, l, &value))
        return FALSE;
      toml_value_end (bs, l, value, &last);
      pairs = 1;
    }

  end = last.end;
  *next = last.next;
  pos = last.next;
  while (pos < bs->length)
    {
      _winnow_protect_read_line (t, bs->length, pos, &m);
      if (_winnow_protect_line_blank (&m) || t[m.body] == '#')
        {
          /* kept when more TOML follows; a bare run of pairs stops at a blank line */
          if (!section && _winnow_protect_line_blank (&m))
            break;
          pos = m.next;
          continue;
        }
      if (t[m.body] == '[' && toml_section (t, &m))
        {
          section = TRUE;
          last = m;
        }
      else if (toml_pair (t, &m, &value))
        {
          toml_value_end (bs, &m, value, &last);
          pairs++;
        }
      else
        break;
      end = last.end;
      *next = pos = last.next;
    }

  if (pairs >= (section ? 1u : 2u))
    {
      claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, TRUE);
      return TRUE;
    }

  bs->toml_fail_until = pos;
  return FALSE;
}

typedef struct
{
  gboolean key;          /* key: value */
  gboolean dash;         /* - item */
  gboolean strong;       /* the key or the value reads as data rather than as a sentence */
  gboolean opens_block;  /* a data-like key with nothing after the colon (or `|`, `>`) */
} YamlLine;

static gboolean
yaml_value_is_data (const char *v,
                    gsize       n)
{
  static const char * const words[] = { "true", "false", "null", "yes", "no", "on", "off", "~" };

  if (n == 0)
    return FALSE;
  if (strchr ("\"'[{&*!|>", v[0]) != NULL)
    return TRUE;
  for (gsize i = 0; i < n; i++)
    if (is_space (v[i]))
      return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (words); k++)
    if (strlen (words[k]) == n && g_ascii_strncasecmp (v, words[k], n) == 0)
      return TRUE;
  for (gsize i = 0; i < n; i++)
    if (g_ascii_isdigit (v[i]) || strchr ("._/:@-$=", v[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* The YAML shape of a line: `key: value`, `- item`, `- key: value`. Keys have no spaces.
 * "Note: this is slow." has the shape but not the content: a capitalised word before a
 * sentence is weak, so two such lines do not make YAML. */
static gboolean
yaml_line (const char        *t,
           const ProtectLine *l,
           YamlLine          *y)
{
  gsize p = l->body, e = l->end, key, vs, ve;
  gboolean key_data;

  memset (y, 0, sizeof *y);
  while (p < e && t[p] == '-' && (p + 1 == e || is_space (t[p + 1])))
    {
      y->dash = TRUE;
      p++;
      while (p < e && is_space (t[p]))
        p++;
    }
  if (p >= e)
    return y->dash;

  key = p;
  if (t[p] == '"' || t[p] == '\'')
    {
      const char *close = memchr (t + p + 1, t[p], e - p - 1);

      if (close == NULL)
        return y->dash;
      p = close - t + 1;
    }
  else
    {
      if (!_winnow_protect_is_word_char (t[p]))
        return y->dash;
      while (p < e && (_winnow_protect_is_word_char (t[p]) || strchr ("_.-/", t[p]) != NULL))
        p++;
    }
  if (p >= e || t[p] != ':' || (p + 1 < e && !is_space (t[p + 1])))
    return y->dash;

  y->key = TRUE;
  key_data = t[key] == '"' || t[key] == '\'' || g_ascii_islower (t[key]) || t[key] == '_';
  for (gsize k = key; k < p && !key_data; k++)
    if (g_ascii_isdigit (t[k]) || strchr ("_.-/", t[k]) != NULL)
      key_data = TRUE;

  vs = p + 1;
  while (vs < e && is_space (t[vs]))
    vs++;
  ve = e;
  while (ve > vs && is_space (t[ve - 1]))
    ve--;

  y->strong = key_data || yaml_value_is_data (t + vs, ve - vs);
  y->opens_block = key_data && (vs == ve || ((t[vs] == '|' || t[vs] == '>') && ve - vs <= 2));
  return TRUE;
}

/* Two or more YAML lines at least two of which read as data, or a data key that opens a
 * nested block ("steps:" then "  - run: make"). */
static gboolean
try_yaml_run (Blocks            *bs,
              const ProtectLine *l,
              gsize             *next)
{
  const char *t = bs->text;
  YamlLine y;
  ProtectLine m;
  gsize end = l->end, pos = l->next;
  guint lines = 1, strong, prev_indent = l->indent;
  gboolean nested = FALSE, open;

  /* a run starts with data: "Config:" before it is the sentence that introduces it */
  if (l->start < bs->yaml_fail_until || !yaml_line (t, l, &y) || (y.key && !y.strong))
    return FALSE;
  strong = y.key && y.strong;
  open = y.key && y.opens_block;
  *next = l->next;

  while (pos < bs->length)
    {
      gboolean shaped;

      _winnow_protect_read_line (t, bs->length, pos, &m);
      if (_winnow_protect_line_blank (&m) || _winnow_protect_is_error_line (t, &m))
        break;
      shaped = yaml_line (t, &m, &y);
      if (!shaped)
        {
          memset (&y, 0, sizeof y);
          shaped = m.indent > l->indent || t[m.body] == '#';
        }
      if (!shaped)
        break;
      if (open && (m.indent > prev_indent || y.dash))
        nested = TRUE;
      open = y.key && y.opens_block;
      if (y.key && y.strong)
        strong++;
      lines++;
      prev_indent = m.indent;
      end = m.end;
      *next = pos = m.next;
    }

  if (lines >= 2 && (strong >= 2 || nested))
    {
      claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, TRUE);
      return TRUE;
    }

  bs->yaml_fail_until = pos;
  return FALSE;
}

/* A `---` document: front matter, or YAML after a blank line, to `---`/`...` or its last line */
static gboolean
try_yaml_document (Blocks            *bs,
                   const ProtectLine *l,
                   gsize             *next)
{
  const char *t = bs->text;
  ProtectLine m;
  YamlLine y;
  gsize end, pos;

  if (bs->prev_paragraph || l->end - l->body < 3 || memcmp (t + l->body, "---", 3) != 0 ||
      !only_spaces (t, l->body + 3, l->end) || l->next >= bs->length)
    return FALSE;
  _winnow_protect_read_line (t, bs->length, l->next, &m);
  if (!(yaml_line (t, &m, &y) && y.key) && !(m.body < m.end && t[m.body] == '#'))
    return FALSE;

  end = m.end;
  *next = m.next;
  pos = m.next;
  while (pos < bs->length)
    {
      _winnow_protect_read_line (t, bs->length, pos, &m);
      if (_winnow_protect_line_blank (&m))
        {
          pos = m.next;
          continue;
        }
      if (m.indent == 0 && m.end - m.body >= 3 &&
          (memcmp (t + m.body, "---", 3) == 0 || memcmp (t + m.body, "...", 3) == 0) &&
          only_spaces (t, m.body + 3, m.end))
        {
          end = m.end;
          *next = m.next;
          break;
        }
      if (!(yaml_line (t, &m, &y) || m.indent > 0 || t[m.body] == '#'))
        break;
      end = m.end;
      *next = pos = m.next;
    }

  claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, FALSE);
  return TRUE;
}

/* ---- traces, errors, prompts ------------------------------------------------------------- */

static gboolean
try_stack (Blocks            *bs,
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

  claim (bs, l->start, end, WINNOW_PROTECT_STACK_FRAME, TRUE);
  return TRUE;
}

static gboolean
try_error (Blocks            *bs,
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

  claim (bs, l->start, end, WINNOW_PROTECT_ERROR_LINE, TRUE);
  return TRUE;
}

static gboolean
try_prompt (Blocks            *bs,
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

  claim (bs, l->start, last.end, WINNOW_PROTECT_COMMAND, TRUE);
  *next = last.next;
  return TRUE;
}

/* ---- the walk ---------------------------------------------------------------------------- */

static gboolean
scan_block (Blocks            *bs,
            const ProtectLine *l,
            gsize             *next)
{
  guchar c = bs->text[l->body];

  return try_fence (bs, l, next) ||
         try_indented_code (bs, l, next) ||
         (c == '#' && try_atx_heading (bs, l, next)) ||
         try_table (bs, l, next) ||
         ((c == '{' || c == '[') && try_json (bs, l, next)) ||
         try_toml (bs, l, next) ||
         (c == '-' && try_yaml_document (bs, l, next)) ||
         try_stack (bs, l, next) ||
         try_error (bs, l, next) ||
         try_prompt (bs, l, next) ||
         try_yaml_run (bs, l, next) ||
         try_setext_heading (bs, l, next);
}

/* Lists decide how far code must be indented: four columns past the item's content. */
static void
note_prose_line (Blocks            *bs,
                 const ProtectLine *l)
{
  gsize marker = list_marker (bs->text, l->body, l->end);

  if (marker > 0)
    {
      gsize p = l->body + marker, spaces = 1;

      while (p < l->end && is_space (bs->text[p]) && spaces < 5)
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
  Blocks bs;
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
