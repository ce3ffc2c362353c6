/* winnow-adapter-structured.c — test results, grep hits and other status-line output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seed 003's structured-output adapter. Tool messages made of short lines, most of them
 * "structural": a status word (PASS, FAILED, error, Traceback, warnings…), a `file.ext:N`
 * location, or an indented bullet. Status and location lines are kept whole, in their order,
 * one per line; everything else is summarised and the summary follows them.
 *
 * Two departures from the seed, both because the needles an agent acts on must survive (see
 * QUALITY.md): the seed keeps only the path of a location line, but in grep, flake8 or go
 * build output the message after `main.go:19:40:` is the whole point, so the line stays; and
 * the seed joins kept lines with " | ", where one per line keeps them readable and greppable.
 * A line that is only a file path (eslint prints one above that file's problems) is kept too.
 * Also kept: pytest's `E   …` and `>   …` lines and section banners (`____ test_x ____`),
 * TAP's `not ok`, JUnit's numbered failures, Python traceback frames and the source line
 * under each, the symbol line above a Rust backtrace's `at file:line`, labelled values
 * (`left:`, `want:`, `Expected:`, `Caused by:`, `note:`…, also with up to two words before the
 * colon: Jest's `Received has value:`), phrases such as "could not" and "not found", the
 * marked line of a JavaScript code frame (`  > 20 |   await expect(…)`), the body of a
 * `--- Expected` / `+++ Actual` diff (PHPUnit, Jest: which values differ is the failure),
 * and the line right after a kept line that ends with a colon (`thread 'main'
 * panicked at src/lib.rs:33:5:` announces the message on the next line).
 *
 * Detection follows the seed — at least 6 non-empty lines, more than one line per 80 bytes,
 * more than half of them structural — with two guards, since this adapter comes before YAML
 * and Markdown: a bullet in YAML form (`- name: build`) is not structural, and at least one
 * line must carry a status word or a location.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"
#include "winnow-utf8.h"

#define MIN_LINES       6
#define MAX_LINE_WIDTH  80
#define MAX_EXTENSION   8

/* whole words, lower-cased, sorted */
static const char *const status_words[] = {
  "aborted", "cannot", "conflict", "denied", "duration", "error", "errors", "exception", "fail",
  "failed", "failing", "failure", "failures", "fatal", "fault", "invalid", "missing", "ok",
  "panic", "panicked", "pass", "passed", "passing", "refused", "rejected", "skip", "skipped",
  "timeout", "traceback", "undefined", "unresolved", "warning", "warnings", "xfail", "xfailed",
  "xpass", "xpassed",
};

/* phrases, lower case, matched anywhere */
static const WinnowLiteral status_phrases[] = {
  WINNOW_LITERAL ("complete!"), WINNOW_LITERAL ("could not"), WINNOW_LITERAL ("no such"),
  WINNOW_LITERAL ("not found"),
  WINNOW_LITERAL ("unable to"),
};

/* a line that opens with one of these and a colon labels a value worth keeping */
static const WinnowLiteral labels[] = {
  WINNOW_LITERAL ("actual"), WINNOW_LITERAL ("caused by"), WINNOW_LITERAL ("duration"),
  WINNOW_LITERAL ("expected"), WINNOW_LITERAL ("got"), WINNOW_LITERAL ("help"),
  WINNOW_LITERAL ("hint"), WINNOW_LITERAL ("left"), WINNOW_LITERAL ("note"),
  WINNOW_LITERAL ("obtained"), WINNOW_LITERAL ("plan"), WINNOW_LITERAL ("received"),
  WINNOW_LITERAL ("right"),
  WINNOW_LITERAL ("test suites"), WINNOW_LITERAL ("tests"), WINNOW_LITERAL ("want"),
};

static gboolean
is_status_word (const char *w,
                gsize       n)
{
  char lower[16];
  gsize lo = 0;
  gsize hi = G_N_ELEMENTS (status_words);

  /* FooError, NullPointerException */
  if (n > 5 && _winnow_ascii_equal_lower (w + n - 5, "error", 5))
    return TRUE;
  if (n > 9 && _winnow_ascii_equal_lower (w + n - 9, "exception", 9))
    return TRUE;
  if (n >= sizeof lower)
    return FALSE;

  for (gsize i = 0; i < n; i++)
    lower[i] = (char) _winnow_ascii_lower ((guchar) w[i]);
  lower[n] = '\0';

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      int cmp = strcmp (lower, status_words[mid]);

      if (cmp == 0)
        return TRUE;
      if (cmp < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return FALSE;
}

static gboolean
starts_with (const char *line,
             gsize       length,
             const char *prefix)
{
  gsize n = strlen (prefix);

  return length >= n && memcmp (line, prefix, n) == 0;
}

static gboolean
is_status_line (const char *line,
                gsize       length)
{
  gsize indent = _winnow_indent (line, length);
  const char *t = line + indent;
  gsize n = length - indent;
  gsize i = 0;

  /* a tool that colours a whole line (RSpec's "\e[31m  expected: …") still labels it: look
   * past leading colour codes and the indent after them */
  while (n >= 3 && t[0] == '\x1b' && t[1] == '[')
    {
      gsize k = 2;

      while (k < n && (g_ascii_isdigit (t[k]) || t[k] == ';'))
        k++;
      if (k >= n || t[k] != 'm')
        break;
      k++;
      while (k < n && (t[k] == ' ' || t[k] == '\t'))
        k++;
      t += k;
      n -= k;
    }

  /* pytest: "E       assert 3 == 4"; banners "_____ test_x _____", "==== 1 failed ====" */
  if (indent == 0 && n >= 2 && t[0] == 'E' && (t[1] == ' ' || t[1] == '\t'))
    return TRUE;
  /* (docker build's " ---> 3f2a…" is an arrow, not a banner) */
  if (n >= 3 && (starts_with (t, n, "===") || starts_with (t, n, "___") ||
                 (starts_with (t, n, "---") && !starts_with (t, n, "--->"))))
    {
      for (gsize k = 3; k < n; k++)
        if (strchr ("=_- ", t[k]) == NULL)
          return TRUE;
    }
  if (indent == 0 && n >= 2 && t[0] == '>' && (t[1] == ' ' || t[1] == '\t'))
    return TRUE;
  /* the marked line of a code frame: "    > 20 |   await expect(…)" */
  if (n >= 4 && t[0] == '>')
    {
      gsize k = 1;

      while (k < n && t[k] == ' ')
        k++;
      if (k > 1 && k < n && g_ascii_isdigit (t[k]))
        {
          while (k < n && g_ascii_isdigit (t[k]))
            k++;
          while (k < n && t[k] == ' ')
            k++;
          if (k < n && t[k] == '|')
            return TRUE;
        }
    }
  /* TAP, Python traceback frames, unittest's "Ran 12 tests in 0.003s" */
  if (starts_with (t, n, "not ok") || starts_with (t, n, "File \"") ||
      (starts_with (t, n, "Ran ") && n > 4 && g_ascii_isdigit (t[4])))
    return TRUE;
  /* JUnit, mocha, RSpec and Minitest number their failures: "2) missingItemHasZeroQuantity(…)",
   * "  3) Inventory#cheapest is nil when empty" (indented by two) */
  if (indent <= 4 && n >= 3 && g_ascii_isdigit (t[0]))
    {
      gsize d = 0;

      while (d < n && g_ascii_isdigit (t[d]))
        d++;
      if (d + 1 < n && t[d] == ')' && t[d + 1] == ' ')
        return TRUE;
    }
  /* every phrase starts with 'c', 'n' or 'u' */
  for (gsize at = 0; at < n; at++)
    {
      guchar c = _winnow_ascii_lower ((guchar) t[at]);

      if (c != 'c' && c != 'n' && c != 'u')
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (status_phrases); k++)
        if (at + status_phrases[k].length <= n &&
            _winnow_ascii_equal_lower (t + at, status_phrases[k].text, status_phrases[k].length))
          return TRUE;
    }
  for (guint k = 0; k < G_N_ELEMENTS (labels); k++)
    {
      gsize l = labels[k].length;

      if (n <= l || !_winnow_ascii_equal_lower (t, labels[k].text, l))
        continue;
      /* "Expected:", and "Received has value:" / "Expected substring:" (up to two words) */
      for (guint words = 0; l < n && words <= 2; words++)
        {
          if (t[l] == ':')
            return TRUE;
          if (t[l] != ' ')
            break;
          l++;
          while (l < n && g_ascii_isalpha (t[l]))
            l++;
        }
    }

  while (i < n)
    {
      gsize j;

      while (i < n && !g_ascii_isalnum (t[i]))
        i++;
      j = i;
      while (j < n && g_ascii_isalnum (t[j]))
        j++;
      if (j > i && is_status_word (t + i, j - i))
        return TRUE;
      i = j;
    }
  return FALSE;
}

static gboolean
is_path_byte (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '.' || c == '/' || c == '\\' ||
         c == '@' || c == '+' || c == '~' || c >= 0x80;
}

/* Finds a `file.ext:N` (optionally `:M`) in @line; returns its start and length. */
static gboolean
find_location (const char *line,
               gsize       length,
               gsize      *start,
               gsize      *location_length)
{
  for (gsize colon = 1; colon + 1 < length; colon++)
    {
      gsize ext = 0;
      gsize begin;
      gsize end;

      if (line[colon] != ':' || !g_ascii_isdigit (line[colon + 1]))
        continue;

      /* an extension of 1–8 alphanumerics right before the colon, after a dot */
      while (ext < colon && ext <= MAX_EXTENSION && g_ascii_isalnum (line[colon - 1 - ext]))
        ext++;
      if (ext == 0 || ext > MAX_EXTENSION || ext >= colon || line[colon - 1 - ext] != '.')
        continue;

      begin = colon - 1 - ext;
      while (begin > 0 && is_path_byte (line[begin - 1]))
        begin--;
      if (begin == colon - 1 - ext)
        continue;   /* ".c:3" with no name */

      end = colon + 1;
      while (end < length && g_ascii_isdigit (line[end]))
        end++;
      if (end + 1 < length && line[end] == ':' && g_ascii_isdigit (line[end + 1]))
        {
          end++;
          while (end < length && g_ascii_isdigit (line[end]))
            end++;
        }

      *start = begin;
      *location_length = end - begin;
      return TRUE;
    }
  return FALSE;
}

/* A line that is nothing but a file path, as eslint and other linters print above the
 * problems they found in that file. */
static gboolean
is_path_line (const char *line,
              gsize       length)
{
  const char *t = line;
  gsize n = length;
  gsize ext = 0;
  gboolean slash = FALSE;

  _winnow_adapter_trim (&t, &n);
  for (gsize i = 0; i < n; i++)
    {
      if (!is_path_byte (t[i]))
        return FALSE;
      slash = slash || t[i] == '/' || t[i] == '\\';
    }
  while (ext < n && ext <= MAX_EXTENSION && g_ascii_isalnum (t[n - 1 - ext]))
    ext++;
  return slash && ext > 0 && ext <= MAX_EXTENSION && ext < n && t[n - 1 - ext] == '.';
}

/* "  - item", "  * item", "  1. item", but not YAML's "  - name: build" */
static gboolean
is_indented_bullet (const char *line,
                    gsize       length)
{
  gsize i = _winnow_indent (line, length);
  gsize j;

  if (i == 0 || i >= length)
    return FALSE;

  if (line[i] == '-' || line[i] == '*' || line[i] == '+')
    i++;
  else if (length - i >= 3 && memcmp (line + i, "•", 3) == 0)
    i += 3;
  else if (g_ascii_isdigit (line[i]))
    {
      while (i < length && g_ascii_isdigit (line[i]))
        i++;
      if (i >= length || (line[i] != '.' && line[i] != ')'))
        return FALSE;
      i++;
    }
  else
    return FALSE;

  if (i >= length || line[i] != ' ')
    return FALSE;
  while (i < length && line[i] == ' ')
    i++;

  /* a YAML mapping entry inside a sequence */
  j = i;
  while (j < length && (g_ascii_isalnum (line[j]) || line[j] == '_' || line[j] == '-' ||
                        line[j] == '.'))
    j++;
  if (j > i && j < length && line[j] == ':' && (j + 1 == length || line[j + 1] == ' '))
    return FALSE;

  return TRUE;
}

static gboolean
structured_detect (const char *text,
                   gsize       length)
{
  WinnowLineReader reader;
  const char *line;
  gsize n;
  guint n_lines = 0;
  guint n_structural = 0;
  guint n_anchored = 0;   /* status or location lines */

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line, &n))
    {
      gsize s, l;

      if (_winnow_is_blank (line, n))
        continue;
      n_lines++;
      if (is_status_line (line, n) || find_location (line, n, &s, &l) || is_path_line (line, n))
        {
          n_structural++;
          n_anchored++;
        }
      else if (is_indented_bullet (line, n))
        n_structural++;
    }

  return n_lines >= MIN_LINES &&
         (gsize) n_lines * MAX_LINE_WIDTH > length &&
         n_structural * 2 > n_lines &&
         n_anchored > 0;
}

/* Is the next line `   at ./src/lib.rs:33:5`, a frame's location under its symbol? */
static gboolean
precedes_frame_location (const WinnowLineReader *reader)
{
  WinnowLineReader ahead = *reader;
  const char *line;
  gsize n;
  gsize start, location_length;
  gsize indent;

  if (!_winnow_line_reader_next (&ahead, &line, &n))
    return FALSE;
  indent = _winnow_indent (line, n);
  return indent > 0 && starts_with (line + indent, n - indent, "at ") &&
         find_location (line, n, &start, &location_length);
}

static void
structured_extract (const char                 *text,
                    gsize                       length,
                    const WinnowAdapterOptions *options,
                    WinnowAdapterParts         *parts)
{
  WinnowLineReader reader;
  const char *line;
  gboolean keep_next = FALSE;
  gboolean in_diff = FALSE;
  gsize n;

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line, &n))
    {
      gsize start, location_length;
      gsize indent;

      while (n > 0 && g_ascii_isspace (line[n - 1]))
        n--;
      if (n == 0)
        {
          in_diff = FALSE;
          continue;
        }

      /* a diff body runs from its "+++ " header to the first line that is no diff line */
      indent = _winnow_indent (line, n);
      if (in_diff && strchr ("+- @", line[0]) == NULL)
        in_diff = FALSE;
      if (starts_with (line + indent, n - indent, "+++ "))
        in_diff = TRUE;

      if (keep_next || in_diff || is_status_line (line, n) ||
          find_location (line, n, &start, &location_length) || is_path_line (line, n) ||
          precedes_frame_location (&reader))
        {
          _winnow_adapter_preserve (parts, line, n);
          indent = _winnow_indent (line, n);
          /* an announced message, or the source line under a traceback frame */
          keep_next = line[n - 1] == ':' || starts_with (line + indent, n - indent, "File \"");
        }
      else
        _winnow_adapter_compress (parts, line, n);
    }
}

static void
structured_reconstruct (const WinnowAdapterParts *parts,
                        const char               *summary,
                        GString                  *out)
{
  _winnow_adapter_join_preserved (parts, "\n", out);
  if (*summary != '\0')
    {
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, summary);
    }
}

const WinnowAdapter _winnow_adapter_structured = {
  .name = "structured",
  .lossless = FALSE,
  .detect = structured_detect,
  .extract = structured_extract,
  .summarize = NULL,
  .reconstruct = structured_reconstruct,
};
