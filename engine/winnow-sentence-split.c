/* winnow-sentence-split.c — prose into sentences, never a token in two
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sentence scorer's first step, on its own because it is the part that decides what may
 * never be cut. Splitting happens only at whitespace, so a token (a URL, a path, `main.c`,
 * 3.14, v1.2.3) is never cut in two. A full stop ends a sentence only when whitespace and
 * something other than a lower-case letter follow, and the word it ends is not an abbreviation
 * (e.g., i.e., Dr., J., U.S., a list number, "No." before a number); `!`, `?` and `…` end one
 * before anything but lower case. A blank line ends a paragraph. A line break ends a sentence
 * unless the text reads on: the next line starts in lower case, or a line of 40 bytes or more
 * (wrapped prose) is followed by a word that does not open a list item. Short lines, list
 * items and a line ending with a colon stay apart, which is how line-oriented tool output
 * looks. Each sentence records its block (paragraph, or line of line-oriented text) so that
 * a summary can keep paragraphs apart.
 */

#define G_LOG_DOMAIN "winnow-sentence"

#include "config.h"

#include "winnow-sentence-private.h"
#include "winnow-utf8.h"

#define NO_START     G_MAXSIZE
#define ABBREV_MAX   16   /* longest word looked at as a possible abbreviation, in bytes */
#define WRAPPED_LINE 40   /* a line at least this long that runs on is wrapped prose */

static inline gboolean
is_space (guchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline gboolean
is_lower (guchar c)
{
  return c >= 'a' && c <= 'z';
}

/* without their final dot; "no" and "nos" only before a number */
static const char *const abbreviations[] = {
  "al", "approx", "apr", "aug", "ca", "cf", "ch", "co", "corp", "dept", "dr", "ed", "eq", "esp",
  "feb", "fig", "figs", "inc", "incl", "jan", "jr", "jul", "jun", "lt", "ltd", "mr", "mrs", "ms",
  "mt", "nov", "oct", "pp", "prof", "ref", "refs", "sept", "sr", "st", "viz", "vol", "vols",
  "vs", "wrt",
};

/* Length of a sentence-ending mark at @i: . ! ? or … (0 if none); *dot says if it is . or … */
static inline gsize
terminal_length (const char *text,
                 gsize       i,
                 gsize       length,
                 gboolean   *dot)
{
  guchar c = text[i];

  if (c == '.' || c == '!' || c == '?')
    {
      *dot = c == '.';
      return 1;
    }
  if (i + 3 <= length && c == 0xE2 && (guchar) text[i + 1] == 0x80 &&
      (guchar) text[i + 2] == 0xA6)
    {
      *dot = TRUE;
      return 3;
    }
  return 0;
}

/* Closing quotes, brackets and emphasis that may follow a sentence's final mark. */
static inline gsize
closer_length (const char *text,
               gsize       i,
               gsize       length)
{
  guchar c = text[i];

  if (c == '"' || c == '\'' || c == ')' || c == ']' || c == '}' || c == '*' || c == '_' ||
      c == '`')
    return 1;
  if (i + 3 <= length && c == 0xE2 && (guchar) text[i + 1] == 0x80 &&
      ((guchar) text[i + 2] == 0x9D || (guchar) text[i + 2] == 0x99))
    return 3;   /* ” ’ */
  if (i + 2 <= length && c == 0xC2 && (guchar) text[i + 1] == 0xBB)
    return 2;   /* » */
  return 0;
}

/* Is the word ending with the full stop at @dot an abbreviation rather than a sentence end?
 * @next is the first character after the following whitespace, or -1 at the end. */
static gboolean
is_abbreviation (const char *text,
                 gsize       sentence_start,
                 gsize       dot,
                 int         next)
{
  char word[ABBREV_MAX];
  gsize begin = dot;
  gsize n;
  gboolean letters_and_dots = TRUE;

  while (begin > sentence_start && !is_space (text[begin - 1]) && dot - begin < ABBREV_MAX)
    begin--;
  if (begin > sentence_start && !is_space (text[begin - 1]))
    return FALSE;   /* a long token: not an abbreviation */
  while (begin < dot && (text[begin] == '(' || text[begin] == '[' || text[begin] == '"' ||
                         text[begin] == '\''))
    begin++;
  n = dot - begin;
  if (n == 0)
    return FALSE;

  for (gsize i = 0; i < n; i++)
    word[i] = (char) _winnow_ascii_lower ((guchar) text[begin + i]);

  /* an initial: "J. Smith" */
  if (n == 1 && g_ascii_isupper (text[begin]))
    return TRUE;

  /* a list number opening the sentence: "1. Install" */
  if (begin == sentence_start && n <= 3)
    {
      gboolean digits = TRUE;

      for (gsize i = 0; i < n; i++)
        digits = digits && g_ascii_isdigit (word[i]);
      if (digits)
        return TRUE;
    }

  /* single letters between dots: e.g., i.e., a.m., U.S. */
  for (gsize i = 0; i < n; i++)
    letters_and_dots = letters_and_dots &&
                       ((i % 2 == 0) ? g_ascii_isalpha (word[i]) : word[i] == '.');
  if (letters_and_dots && n >= 3 && n % 2 == 1)
    return TRUE;

  if ((n == 2 && memcmp (word, "no", 2) == 0) || (n == 3 && memcmp (word, "nos", 3) == 0))
    return next >= 0 && g_ascii_isdigit (next);

  return IN_LIST (abbreviations, word, n);
}

/* "- ", "* ", "+ ", "• ", "12. ", "3) " */
static gboolean
is_list_marker (const char *s,
                gsize       n)
{
  gsize i = 0;

  if (n >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ')
    return TRUE;
  if (n >= 4 && memcmp (s, "•", 3) == 0 && s[3] == ' ')
    return TRUE;
  while (i < n && g_ascii_isdigit (s[i]))
    i++;
  return i > 0 && i + 1 < n && (s[i] == '.' || s[i] == ')') && s[i + 1] == ' ';
}

/* Does the line break at @newline (ending the line that starts at @line_start) fall inside a
 * sentence? Yes when the next line goes on in lower case; also when a long line (wrapped
 * prose) is followed by a word, but not by a list item, and does not end with a colon. */
static gboolean
line_continues (const char *text,
                gsize       length,
                gsize       line_start,
                gsize       newline)
{
  gsize j = newline + 1;
  gsize end = newline;

  while (j < length && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'))
    j++;
  if (j >= length || text[j] == '\n')
    return FALSE;
  if (is_lower (text[j]))
    return TRUE;

  while (end > line_start && is_space (text[end - 1]))
    end--;
  if (end - line_start < WRAPPED_LINE || text[end - 1] == ':')
    return FALSE;
  if (is_list_marker (text + j, length - j))
    return FALSE;
  return g_ascii_isalpha (text[j]) || (guchar) text[j] >= 0x80 ||
         strchr ("(`\"'", text[j]) != NULL;
}

static void
push_span (GArray     *spans,
           const char *text,
           gsize       start,
           gsize       end,
           guint       block)
{
  WinnowSentenceSpan span;

  while (end > start && is_space (text[end - 1]))
    end--;
  if (end == start)
    return;

  span.start = start;
  span.length = end - start;
  span.block = block;
  g_array_append_val (spans, span);
}

GArray *
_winnow_sentence_split_spans (const char *text,
                              gsize       length)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (WinnowSentenceSpan));
  gsize start = NO_START;
  gboolean new_block = FALSE;   /* a line or paragraph break since the last sentence */
  gsize line_start = 0;
  guint block = 0;
  gsize i = 0;

  while (i < length)
    {
      guchar c = text[i];
      gboolean dot = FALSE;
      gsize t;

      if (start == NO_START)
        {
          if (is_space (c))
            {
              new_block = new_block || c == '\n';
              if (c == '\n')
                line_start = i + 1;
              i++;
              continue;
            }
          if (new_block && spans->len > 0)
            block++;
          new_block = FALSE;
          start = i;
        }

      if (c == '\n')
        {
          if (!line_continues (text, length, line_start, i))
            {
              push_span (spans, text, start, i, block);
              start = NO_START;
              new_block = TRUE;
            }
          line_start = ++i;
          continue;
        }

      t = terminal_length (text, i, length, &dot);
      if (t > 0)
        {
          gboolean only_dots = TRUE;
          guint n_marks = 0;
          gsize k = i;
          gsize next;

          while (k < length && (t = terminal_length (text, k, length, &dot)) > 0)
            {
              only_dots = only_dots && dot;
              n_marks++;
              k += t;
            }
          while (k < length && (t = closer_length (text, k, length)) > 0)
            k += t;

          /* a mark inside a token (3.14, main.c, example.com/a.b) ends nothing */
          if (k < length && !is_space (text[k]))
            {
              i = k;
              continue;
            }

          next = k;
          while (next < length && is_space (text[next]))
            next++;

          if (only_dots && next < length && is_lower (text[next]))
            {
              i = k;
              continue;
            }
          if (only_dots && n_marks == 1 && text[i] == '.' &&
              is_abbreviation (text, start, i, next < length ? (guchar) text[next] : -1))
            {
              i = k;
              continue;
            }

          push_span (spans, text, start, k, block);
          start = NO_START;
          i = k;
          continue;
        }

      i++;
    }

  if (start != NO_START)
    push_span (spans, text, start, length, block);

  return spans;
}

/**
 * winnow_sentence_split:
 * @text: prose, not necessarily valid UTF-8
 * @length: its length in bytes
 * @n_spans: (out): how many sentences
 *
 * Splits @text into sentences the way winnow_sentence_summarize() sees them.
 *
 * Returns: (transfer full) (array length=n_spans): the sentences in order, free with g_free()
 */
WinnowSentenceSpan *
winnow_sentence_split (const char *text,
                       gsize       length,
                       gsize      *n_spans)
{
  GArray *spans;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (n_spans != NULL, NULL);

  spans = _winnow_sentence_split_spans (text, length);
  *n_spans = spans->len;
  return (WinnowSentenceSpan *) (void *) g_array_free (spans, FALSE);
}
