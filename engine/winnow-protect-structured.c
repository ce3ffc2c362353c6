/* winnow-protect-structured.c — JSON, YAML and TOML blocks in a message
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Structured data pasted into a message is protected whole, from its first line to its last:
 *
 *  - JSON: a line starting `{` or `[` whose balanced, string-aware structure closes on a later
 *    line (a blank line ends the attempt), or a single line of data such as `{"a": 1}`;
 *  - YAML: a `---` document, or a run of two or more `key: value` / `- item` lines (keys
 *    without spaces) that reads as data rather than as sentences with a colon;
 *  - TOML (and INI, .env, Makefile variables): a `[section]` and its `key = value` lines, or
 *    a run of two or more `key = value` lines; arrays and multi-line strings run on.
 *
 * Each recogniser that looks ahead remembers where a failed attempt stopped and does not
 * start another one inside that stretch, which keeps the walk linear.
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"

/* A line starting `{` or `[` whose balanced, string-aware structure closes on a later line
 * (or, for JSON Lines, a whole line such as {"a": 1}); a blank line ends the attempt. */
gboolean
_winnow_protect_try_json (ProtectBlocks     *bs,
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

          while (k < bs->length && (_winnow_protect_is_space (t[k]) || t[k] == '\r'))
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
    if (!(_winnow_protect_is_space (t[k]) || t[k] == ',' || t[k] == ';'))
      {
        if (crossed)
          bs->json_fail_until = i;
        return FALSE;
      }

  if (!crossed)
    {
      /* one line: only when it reads as data, {"a": 1} or ["x", 2] */
      gsize k = l->body + 1;

      while (k < close_end && _winnow_protect_is_space (t[k]))
        k++;
      if (k >= close_end || !(t[k] == '"' || (t[l->body] == '[' && (t[k] == '{' || t[k] == '['))))
        return FALSE;
    }

  _winnow_protect_claim (bs, l->start, close_end, WINNOW_PROTECT_STRUCTURED, TRUE);
  *next = nl != NULL ? (gsize) (nl - t) + 1 : bs->length;
  return TRUE;
}

/* ---- XML and HTML documents ------------------------------------------------------------------ */

/* How far the end of an element is looked for; an element whose end is not within it is not
 * protected. After XML_MAX_FAILURES such searches (a log full of "<" lines), no more lines of
 * the text are tried, so the search costs at most that many passes over 1 MB (an XML
 * document pasted into a message is smaller). */
#define XML_MAX_BYTES    (1024 * 1024)
#define XML_MAX_FAILURES 6

static inline gboolean
is_xml_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '.' || c == ':';
}

/* The end of what starts at @p with @open (a comment, CDATA, a processing instruction), just
 * past @close, or 0 when it does not end before @limit. */
static gsize
skip_past (const char *t,
           gsize       p,
           gsize       limit,
           const char *close)
{
  gsize n = strlen (close);
  const char *found = memmem (t + p, limit - p, close, n);

  return found != NULL ? (gsize) (found - t) + n : 0;
}

/* Just past the `>` of the tag starting at @p (quotes in attribute values hide a `>`), or 0. */
static gsize
tag_end (const char *t,
         gsize       p,
         gsize       limit)
{
  char quote = 0;

  for (gsize i = p + 1; i < limit; i++)
    {
      if (quote != 0)
        {
          if (t[i] == quote)
            quote = 0;
        }
      else if (t[i] == '"' || t[i] == '\'')
        quote = t[i];
      else if (t[i] == '>')
        return i + 1;
      else if (t[i] == '<')
        return 0;
    }
  return 0;
}

/* The HTML a Markdown writer puts around prose (a GitHub comment's <details>, a centred <p>):
 * without a prolog, an element of these is prose with markup, not a file. */
static gboolean
is_markdown_html (const char *name,
                  gsize       length)
{
  static const char * const tags[] = {
    "a", "article", "b", "blockquote", "br", "center", "dd", "details", "div", "dl", "dt", "em",
    "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p",
    "picture", "section", "span", "strong", "sub", "summary", "sup", "u", "ul", NULL
  };

  for (guint i = 0; tags[i] != NULL; i++)
    if (strlen (tags[i]) == length && g_ascii_strncasecmp (tags[i], name, length) == 0)
      return TRUE;
  return FALSE;
}

/* An XML or HTML document pasted into a message (a config file, a manifest, a page): a line
 * that starts with `<?xml`, `<!DOCTYPE`, a comment or a start tag, through the line where that
 * first element ends. Its text is the file's, whatever language it is in; prose rules must not
 * run over it. The element must span lines and its end tag end its line: `<kbd>Ctrl</kbd> then
 * click` is prose with markup in it, and so is a <details> or <div> block without a prolog
 * (is_markdown_html()). */
gboolean
_winnow_protect_try_xml (ProtectBlocks     *bs,
                         const ProtectLine *l,
                         gsize             *next)
{
  const char *t = bs->text;
  gsize limit = MIN (bs->length, l->start + XML_MAX_BYTES);
  gsize p = l->body, name, name_length, end = 0;
  guint depth = 0;
  gboolean prolog = FALSE;
  const char *nl;

  if (t[p] != '<' || l->start < bs->xml_fail_until)
    return FALSE;

  /* the prolog: declarations, a doctype, comments */
  for (;; prolog = TRUE)
    {
      gsize after = 0;

      while (p < limit && g_ascii_isspace (t[p]))
        p++;
      if (p + 1 >= limit || t[p] != '<')
        return FALSE;
      if (t[p + 1] == '?')
        after = skip_past (t, p, limit, "?>");
      else if (p + 3 < limit && memcmp (t + p, "<!--", 4) == 0)
        after = skip_past (t, p, limit, "-->");
      else if (t[p + 1] == '!')
        after = tag_end (t, p, limit);
      else
        break;
      if (after == 0)
        return FALSE;
      p = after;
    }

  /* the first element, and where it ends: elements of the same name may nest in it */
  name = p + 1;
  if (!(g_ascii_isalpha (t[name]) || t[name] == '_'))
    return FALSE;
  for (name_length = 0; name + name_length < limit && is_xml_name_char (t[name + name_length]);
       name_length++)
    ;
  if (!prolog && is_markdown_html (t + name, name_length))
    return FALSE;
  for (gsize i = p; i < limit && end == 0;)
    {
      const char *lt = memchr (t + i, '<', limit - i);
      gsize at, close;
      gboolean closing;

      if (lt == NULL)
        break;
      at = lt - t;
      if (at + 3 < limit && memcmp (t + at, "<!--", 4) == 0)
        i = skip_past (t, at, limit, "-->");
      else if (at + 8 < limit && memcmp (t + at, "<![CDATA[", 9) == 0)
        i = skip_past (t, at, limit, "]]>");
      else if (at + 1 < limit && t[at + 1] == '?')
        i = skip_past (t, at, limit, "?>");
      else
        {
          closing = at + 1 < limit && t[at + 1] == '/';
          close = at + 1 + closing;
          if (close + name_length < limit && memcmp (t + close, t + name, name_length) == 0 &&
              !is_xml_name_char (t[close + name_length]) && (i = tag_end (t, at, limit)) != 0)
            {
              if (closing)
                {
                  if (depth > 0 && --depth == 0)
                    end = i;
                }
              else if (t[i - 2] != '/')
                depth++;
              else if (depth == 0)
                end = i; /* the first element is empty: <config/> */
            }
          else
            i = at + 1;
        }
      if (i == 0)
        break;
    }

  if (end == 0)
    {
      if (++bs->xml_failures >= XML_MAX_FAILURES)
        bs->xml_fail_until = bs->length;
      return FALSE;
    }

  /* it ends its line (else the search counts as failed: it may have been a long one), and it
   * is more than one line */
  nl = memchr (t + end, '\n', bs->length - end);
  for (gsize k = end; k < (nl != NULL ? (gsize) (nl - t) : bs->length); k++)
    if (!g_ascii_isspace (t[k]))
      {
        if (++bs->xml_failures >= XML_MAX_FAILURES)
          bs->xml_fail_until = bs->length;
        return FALSE;
      }
  if (memchr (t + l->start, '\n', end - l->start) == NULL)
    return FALSE;

  while (end > l->start && (t[end - 1] == '\r' || t[end - 1] == ' ' || t[end - 1] == '\t'))
    end--;
  _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, TRUE);
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
  while (p < e && _winnow_protect_is_space (t[p]))
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
  while (p < e && _winnow_protect_is_space (t[p]))
    p++;
  if (p >= e || t[p] != '=' || (p + 1 < e && t[p + 1] == '='))
    return FALSE;
  p++;
  while (p < e && _winnow_protect_is_space (t[p]))
    p++;
  if (p >= e)
    return FALSE;

  *value = p;
  return TRUE;
}

/* An array, inline table or multi-line string value runs on to the line where it closes
 * (never past a blank line); *@last is that line, or @l. */
static void
toml_value_end (ProtectBlocks     *bs,
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
gboolean
_winnow_protect_try_toml (ProtectBlocks     *bs,
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
      _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, TRUE);
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
    if (_winnow_protect_is_space (v[i]))
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
  while (p < e && t[p] == '-' && (p + 1 == e || _winnow_protect_is_space (t[p + 1])))
    {
      y->dash = TRUE;
      p++;
      while (p < e && _winnow_protect_is_space (t[p]))
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
  if (p >= e || t[p] != ':' || (p + 1 < e && !_winnow_protect_is_space (t[p + 1])))
    return y->dash;

  y->key = TRUE;
  key_data = t[key] == '"' || t[key] == '\'' || g_ascii_islower (t[key]) || t[key] == '_';
  for (gsize k = key; k < p && !key_data; k++)
    if (g_ascii_isdigit (t[k]) || strchr ("_.-/", t[k]) != NULL)
      key_data = TRUE;

  vs = p + 1;
  while (vs < e && _winnow_protect_is_space (t[vs]))
    vs++;
  ve = e;
  while (ve > vs && _winnow_protect_is_space (t[ve - 1]))
    ve--;

  y->strong = key_data || yaml_value_is_data (t + vs, ve - vs);
  y->opens_block = key_data && (vs == ve || ((t[vs] == '|' || t[vs] == '>') && ve - vs <= 2));
  return TRUE;
}

/* Two or more YAML lines at least two of which read as data, or a data key that opens a
 * nested block ("steps:" then "  - run: make"). */
gboolean
_winnow_protect_try_yaml_run (ProtectBlocks     *bs,
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
      _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, TRUE);
      return TRUE;
    }

  bs->yaml_fail_until = pos;
  return FALSE;
}

/* A `---` document: front matter, or YAML after a blank line, to `---`/`...` or its last line */
gboolean
_winnow_protect_try_yaml_document (ProtectBlocks     *bs,
                                   const ProtectLine *l,
                                   gsize             *next)
{
  const char *t = bs->text;
  ProtectLine m;
  YamlLine y;
  gsize end, pos;

  if (bs->prev_paragraph || l->end - l->body < 3 || memcmp (t + l->body, "---", 3) != 0 ||
      !_winnow_protect_only_spaces (t, l->body + 3, l->end) || l->next >= bs->length)
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
          _winnow_protect_only_spaces (t, m.body + 3, m.end))
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

  _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, FALSE);
  return TRUE;
}

/* ---- CSV and TSV ----------------------------------------------------------------------------- */

/* How many fields @delimiter splits @l into, outside double quotes: 0 when a quote is left
 * open (a field over lines is not followed) or, with @unspaced, when a blank follows a
 * delimiter (as in prose's lists, never in an export's rows). */
static guint
count_fields (const char        *t,
              const ProtectLine *l,
              char               delimiter,
              gboolean           unspaced)
{
  gboolean quoted = FALSE;
  guint fields = 1;

  /* an indented line, or one that ends with its comma or semicolon, is code's
   * (`close(a);`, `  "a",`) */
  if (unspaced && (l->indent > 0 || (l->end > l->body && t[l->end - 1] == delimiter)))
    return 0;
  for (gsize i = l->body; i < l->end; i++)
    if (t[i] == '"')
      quoted = !quoted;
    else if (t[i] == delimiter && !quoted)
      {
        if (unspaced && i + 1 < l->end && t[i + 1] == ' ')
          return 0;
        fields++;
      }
  return quoted ? 0 : fields;
}

/* Rows of tab-, comma- or semicolon-separated values (an export, a query's result): at least
 * CSV_MIN_ROWS lines, each with the same number of fields, two or more, and no blank after a
 * comma or semicolon outside quotes (see count_fields()). */
#define CSV_MIN_ROWS 3

gboolean
_winnow_protect_try_delimited (ProtectBlocks     *bs,
                               const ProtectLine *l,
                               gsize             *next)
{
  static const char delimiters[] = { '\t', ',', ';' };
  const char *t = bs->text;

  for (guint d = 0; d < G_N_ELEMENTS (delimiters); d++)
    {
      char delimiter = delimiters[d];
      gboolean unspaced = delimiter != '\t';
      guint rows = 1, fields;
      gsize end = l->end, pos = l->next;

      if (l->start < bs->csv_fail_until[d] ||
          memchr (t + l->body, delimiter, l->end - l->body) == NULL)
        continue;
      fields = count_fields (t, l, delimiter, unspaced);
      if (fields < 2)
        continue;

      while (pos < bs->length)
        {
          ProtectLine m;

          _winnow_protect_read_line (t, bs->length, pos, &m);
          if (_winnow_protect_line_blank (&m) ||
              count_fields (t, &m, delimiter, unspaced) != fields)
            break;
          rows++;
          end = m.end;
          pos = m.next;
        }

      if (rows >= CSV_MIN_ROWS)
        {
          _winnow_protect_claim (bs, l->start, end, WINNOW_PROTECT_STRUCTURED, TRUE);
          *next = pos;
          return TRUE;
        }
      /* a line further into these rows has fewer after it: no need to look again */
      bs->csv_fail_until[d] = pos;
    }

  return FALSE;
}
