/* winnow-adapter-markdown.c — Markdown documents: headings and tables stay, prose is summarised
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seed 003's Markdown adapter, for READMEs, changelogs, API docs and runbooks: the
 * navigational skeleton — ATX and setext headings, tables (a row of pipes over a separator row,
 * and every row below it), link reference definitions, a leading front-matter block — is kept
 * verbatim in document order, pieces separated by a blank line; paragraphs and lists are the
 * prose. Each section's prose is summarised on its own and stays under its heading (the seed
 * appends one summary after the whole skeleton, which leaves every heading empty and mixes
 * the sections' sentences). Horizontal rules are dropped.
 * Fenced code never reaches this adapter when the code adapter runs first; when it is
 * disabled, fences are kept here too, because code is never prose.
 *
 * Detection follows the seed — at least two ATX heading lines (`#` to `######` and a space),
 * at least 200 bytes — with two guards, since `# ` also opens comments in shell, Python, YAML
 * and TAP: at most a quarter of the other lines may look like code (`x = 1`, `return x;`,
 * `import os`, `$ make`), and TAP output (`TAP version 13`) is not Markdown. A document also
 * has at least one blank line: tools that print `# Section` lines over their findings
 * (`composer validate`'s `# General errors`) pack them with none, and their list items are
 * findings to keep, not prose to summarise.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"

#define MIN_HEADINGS 2
#define MIN_LENGTH   200

typedef struct
{
  const char *text;
  gsize       length;
} Line;

/* The prose that follows preserved piece number @after (or comes before any, G_MAXUINT), and
 * its summary once summarize() has run. */
typedef struct
{
  guint    after;
  GString *prose;
  char    *summary;
} Section;

static void
section_clear (gpointer data)
{
  Section *section = data;

  g_string_free (section->prose, TRUE);
  g_free (section->summary);
}

static GArray *
sections_of (WinnowAdapterParts *parts)
{
  if (parts->data == NULL)
    {
      GArray *sections = g_array_new (FALSE, TRUE, sizeof (Section));

      g_array_set_clear_func (sections, section_clear);
      parts->data = sections;
      parts->data_free = (GDestroyNotify) g_array_unref;
    }

  return parts->data;
}

static gboolean
is_atx_heading (const char *line,
                gsize       length)
{
  gsize i = 0;
  gsize hashes = 0;

  while (i < length && i < 3 && line[i] == ' ')
    i++;
  while (i + hashes < length && line[i + hashes] == '#')
    hashes++;
  if (hashes == 0 || hashes > 6)
    return FALSE;
  i += hashes;
  return i == length || line[i] == ' ' || line[i] == '\t';
}

/* A run of one of the characters of @chars (with spaces between), at least @min long. */
static gboolean
is_rule_of (const char *line,
            gsize       length,
            const char *chars,
            guint       min)
{
  char c = 0;
  guint n = 0;

  for (gsize i = 0; i < length; i++)
    {
      if (line[i] == ' ' || line[i] == '\t')
        continue;
      if (c == 0 && strchr (chars, line[i]) != NULL && line[i] != '\0')
        c = line[i];
      if (line[i] != c)
        return FALSE;
      n++;
    }
  return n >= min;
}

/* | --- | :---: |, or --- | --- */
static gboolean
is_table_separator (const char *line,
                    gsize       length)
{
  gboolean pipe = FALSE;
  gboolean dash = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      switch (line[i])
        {
        case '|': pipe = TRUE; break;
        case '-': dash = TRUE; break;
        case ':': case ' ': case '\t': break;
        default: return FALSE;
        }
    }
  return pipe && dash;
}

/* [label]: https://… */
static gboolean
is_link_definition (const char *line,
                    gsize       length)
{
  gsize i = _winnow_indent (line, length);
  const char *close;

  if (i > 3 || i >= length || line[i] != '[' || (i + 1 < length && line[i + 1] == '^'))
    return FALSE;
  close = memchr (line + i, ']', length - i);
  return close != NULL && close + 1 < line + length && close[1] == ':';
}

static gboolean
contains (const char *line,
          gsize       length,
          const char *needle)
{
  return memmem (line, length, needle, strlen (needle)) != NULL;
}

/* "lib/report.rb:10:16: …": a line that opens with a file.ext:N location, as a compiler's or
 * linter's finding does. */
static gboolean
opens_with_location (const char *t,
                     gsize       n)
{
  gsize i = 0;
  gsize dot = 0;

  while (i < n && t[i] != ':' && t[i] != ' ' && t[i] != '\t')
    {
      if (t[i] == '.')
        dot = i;
      i++;
    }
  return dot > 0 && dot + 1 < i && i + 1 < n && t[i] == ':' && g_ascii_isdigit (t[i + 1]);
}

/* A line of a program, a shell session or a tool's report rather than of a document. */
static gboolean
looks_like_code (const char *line,
                 gsize       length)
{
  const char *t = line;
  gsize n = length;
  static const char *const openers[] = {
    "$ ", "#include", "class ", "def ", "for (", "from ", "fn ", "func ", "if (", "import ",
    "return ", "while (",
  };

  _winnow_adapter_trim (&t, &n);
  if (n == 0)
    return FALSE;
  /* linters quote the offending source under each finding (its `# comment` lines look like
   * headings) and mark the column with ^^^ */
  if (opens_with_location (t, n))
    return TRUE;
  for (gsize i = 0; i < n && (t[i] == '^' || t[i] == '~'); i++)
    if (i + 1 == n)
      return TRUE;
  if (strchr (";{}", t[n - 1]) != NULL)
    return TRUE;
  if (contains (t, n, " = ") || contains (t, n, " == ") || contains (t, n, "=>") ||
      contains (t, n, "&&") || contains (t, n, "||") || contains (t, n, "();"))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (openers); i++)
    if (n >= strlen (openers[i]) && memcmp (t, openers[i], strlen (openers[i])) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
markdown_detect (const char *text,
                 gsize       length)
{
  WinnowLineReader reader;
  const char *line;
  gsize n;
  guint headings = 0;
  guint body = 0;
  guint code = 0;
  gboolean pending_blank = FALSE;
  gboolean blank = FALSE;

  if (length < MIN_LENGTH)
    return FALSE;

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line, &n))
    {
      if (_winnow_is_blank (line, n))
        {
          /* only a blank line between two lines of text counts, not one at either end */
          pending_blank = headings + body > 0;
          continue;
        }
      blank = blank || pending_blank;
      if (headings == 0 && body == 0 && n >= 11 && memcmp (line, "TAP version", 11) == 0)
        return FALSE;   /* TAP's "# tests 3" comments are not headings */
      if (is_atx_heading (line, n))
        headings++;
      else if (memchr (line, '|', n) == NULL)
        {
          body++;
          if (looks_like_code (line, n))
            code++;
        }
    }

  /* a script with `# comment` lines is not a document */
  return headings >= MIN_HEADINGS && code * 4 <= body && blank;
}

/* The text from the start of line @first to the end of line @last. */
static void
preserve_lines (WinnowAdapterParts *parts,
                const GArray       *lines,
                guint               first,
                guint               last)
{
  const Line *a = &g_array_index (lines, Line, first);
  const Line *b = &g_array_index (lines, Line, last);

  _winnow_adapter_preserve (parts, a->text, b->text + b->length - a->text);
}

/* Hands the pending paragraph, if any, to the summariser, in the section of the last preserved
 * piece (a heading, usually). */
static void
flush_paragraph (WinnowAdapterParts  *parts,
                 const char         **paragraph,
                 const char          *end)
{
  GArray *sections;
  guint after;
  Section *section;
  const char *text = *paragraph;
  gsize length;

  if (text == NULL)
    return;
  *paragraph = NULL;

  length = end - text;
  _winnow_adapter_trim (&text, &length);
  if (length == 0)
    return;

  _winnow_adapter_compress (parts, text, length);

  sections = sections_of (parts);
  after = _winnow_adapter_n_preserved (parts) > 0 ? _winnow_adapter_n_preserved (parts) - 1
                                                  : G_MAXUINT;
  section = sections->len > 0 ? &g_array_index (sections, Section, sections->len - 1) : NULL;
  if (section == NULL || section->after != after)
    {
      Section fresh = { after, g_string_new (NULL), NULL };

      g_array_append_val (sections, fresh);
      section = &g_array_index (sections, Section, sections->len - 1);
    }
  if (section->prose->len > 0)
    g_string_append (section->prose, "\n\n");
  g_string_append_len (section->prose, text, length);
}

static void
markdown_extract (const char                 *text,
                  gsize                       length,
                  const WinnowAdapterOptions *options,
                  WinnowAdapterParts         *parts)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  WinnowLineReader reader;
  const char *paragraph = NULL;   /* the pending paragraph: from here to paragraph_end */
  const char *paragraph_end = NULL;
  guint paragraph_first = 0;
  Line line;
  guint i = 0;

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line.text, &line.length))
    g_array_append_val (lines, line);

  /* front matter */
  if (lines->len > 0 && is_rule_of (g_array_index (lines, Line, 0).text,
                                    g_array_index (lines, Line, 0).length, "-", 3) &&
      g_array_index (lines, Line, 0).length == 3)
    {
      for (guint k = 1; k < lines->len; k++)
        {
          const Line *l = &g_array_index (lines, Line, k);

          if ((l->length == 3 && memcmp (l->text, "---", 3) == 0) ||
              (l->length == 3 && memcmp (l->text, "...", 3) == 0))
            {
              preserve_lines (parts, lines, 0, k);
              i = k + 1;
              break;
            }
        }
    }

  while (i < lines->len)
    {
      const Line *l = &g_array_index (lines, Line, i);
      gsize fence_length;
      char fence_char;

      if ((fence_length = _winnow_adapter_fence_open (l->text, l->length, &fence_char)) > 0)
        {
          guint k = i + 1;

          flush_paragraph (parts, &paragraph, paragraph_end);
          while (k < lines->len)
            {
              const Line *c = &g_array_index (lines, Line, k);

              if (_winnow_adapter_fence_closes (c->text, c->length, fence_char, fence_length))
                break;
              k++;
            }
          if (k >= lines->len)
            k = lines->len - 1;
          preserve_lines (parts, lines, i, k);
          i = k + 1;
        }
      else if (_winnow_is_blank (l->text, l->length))
        {
          flush_paragraph (parts, &paragraph, paragraph_end);
          i++;
        }
      else if (is_atx_heading (l->text, l->length))
        {
          const char *t = l->text;
          gsize n = l->length;

          flush_paragraph (parts, &paragraph, paragraph_end);
          _winnow_adapter_trim (&t, &n);
          _winnow_adapter_preserve (parts, t, n);
          i++;
        }
      else if (paragraph != NULL && _winnow_indent (l->text, l->length) < 4 &&
               (is_rule_of (l->text, l->length, "=", 2) || is_rule_of (l->text, l->length, "-", 2)))
        {
          /* a setext underline: the pending paragraph is a heading */
          preserve_lines (parts, lines, paragraph_first, i);
          paragraph = NULL;
          i++;
        }
      else if (is_rule_of (l->text, l->length, "-*_", 3))
        {
          flush_paragraph (parts, &paragraph, paragraph_end);   /* a horizontal rule: dropped */
          i++;
        }
      else if (memchr (l->text, '|', l->length) != NULL && i + 1 < lines->len &&
               is_table_separator (g_array_index (lines, Line, i + 1).text,
                                   g_array_index (lines, Line, i + 1).length))
        {
          guint k = i + 1;

          flush_paragraph (parts, &paragraph, paragraph_end);
          while (k + 1 < lines->len)
            {
              const Line *row = &g_array_index (lines, Line, k + 1);

              if (_winnow_is_blank (row->text, row->length) ||
                  memchr (row->text, '|', row->length) == NULL)
                break;
              k++;
            }
          preserve_lines (parts, lines, i, k);
          i = k + 1;
        }
      else if (is_link_definition (l->text, l->length))
        {
          flush_paragraph (parts, &paragraph, paragraph_end);
          _winnow_adapter_preserve (parts, l->text, l->length);
          i++;
        }
      else
        {
          if (paragraph == NULL)
            {
              paragraph = l->text;
              paragraph_first = i;
            }
          paragraph_end = l->text + l->length;
          i++;
        }
    }
  flush_paragraph (parts, &paragraph, paragraph_end);
}

/* A short section keeps at least about this many bytes, so that its heading is followed by a
 * whole sentence rather than the cut-off start of one. */
#define MIN_SECTION_SUMMARY 160

/* Summarises each section on its own; the summaries are kept in the sections. */
static char *
markdown_summarize (const WinnowAdapterParts   *parts,
                    const WinnowAdapterOptions *options)
{
  GArray *sections = parts->data;

  for (guint i = 0; sections != NULL && i < sections->len; i++)
    {
      Section *section = &g_array_index (sections, Section, i);
      WinnowAdapterOptions section_options = *options;
      double floor = (double) MIN_SECTION_SUMMARY / MAX (section->prose->len, 1);

      if (options->keep_ratio > 0.0 && section_options.keep_ratio < floor)
        section_options.keep_ratio = MIN (floor, 1.0);
      section->summary = _winnow_adapter_summarize (&section_options, section->prose->str,
                                                    section->prose->len);
    }

  return g_strdup ("");
}

static void
append_piece (GString    *out,
              const char *text,
              gsize       length)
{
  if (length == 0)
    return;
  if (out->len > 0)
    g_string_append (out, "\n\n");
  g_string_append_len (out, text, length);
}

static void
markdown_reconstruct (const WinnowAdapterParts *parts,
                      const char               *summary,
                      GString                  *out)
{
  GArray *sections = parts->data;
  guint next = 0;

  /* prose before the first preserved piece */
  if (sections != NULL && next < sections->len &&
      g_array_index (sections, Section, next).after == G_MAXUINT)
    {
      const Section *section = &g_array_index (sections, Section, next++);

      append_piece (out, section->summary, strlen (section->summary));
    }

  for (guint i = 0; i < _winnow_adapter_n_preserved (parts); i++)
    {
      gsize length;
      const char *piece = _winnow_adapter_get_preserved (parts, i, &length);

      append_piece (out, piece, length);
      if (sections != NULL && next < sections->len &&
          g_array_index (sections, Section, next).after == i)
        {
          const Section *section = &g_array_index (sections, Section, next++);

          append_piece (out, section->summary, strlen (section->summary));
        }
    }

  append_piece (out, summary, strlen (summary));
}

const WinnowAdapter _winnow_adapter_markdown = {
  .name = "markdown",
  .lossless = FALSE,
  .detect = markdown_detect,
  .extract = markdown_extract,
  .summarize = markdown_summarize,
  .reconstruct = markdown_reconstruct,
};
