/* winnow-protect-lines.c — error lines, stack frames and prompt lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What one line of a message is, when that can be told from the line alone: an error or
 * failure report of a compiler, test runner or runtime, a stack frame of one of the traces
 * agents paste (Python, Node, Java, Go, Rust, gdb, the sanitizers), or a shell prompt line.
 * The shapes come from real output of the tools (tests/corpus/samples) rather than from their
 * documentation. Each predicate looks at the line a bounded number of times: prefixes first,
 * then at most one pass per `:` (error words sit just before a colon).
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"

void
_winnow_protect_read_line (const char  *text,
                           gsize        length,
                           gsize        pos,
                           ProtectLine *line)
{
  const char *nl = memchr (text + pos, '\n', length - pos);
  gsize end = nl != NULL ? (gsize) (nl - text) : length;
  gsize p = pos;
  guint col = 0;

  line->start = pos;
  line->next = nl != NULL ? end + 1 : length;
  if (end > pos && text[end - 1] == '\r')
    end--;
  while (p < end && (text[p] == ' ' || text[p] == '\t'))
    {
      col = text[p] == '\t' ? col + 4 - col % 4 : col + 1;
      p++;
    }
  line->end = end;
  line->body = p;
  line->indent = col;
}

static inline gboolean
has_prefix (const char *s,
            gsize       n,
            const char *prefix)
{
  gsize len = strlen (prefix);

  return n >= len && memcmp (s, prefix, len) == 0;
}

/* @word at the start of @s, not followed by a letter, digit or underscore */
static gboolean
has_word_prefix (const char *s,
                 gsize       n,
                 const char *word)
{
  gsize len = strlen (word);

  return has_prefix (s, n, word) && (n == len || !_winnow_protect_is_word_char (s[len]));
}

static gboolean
has_suffix (const char *s,
            gsize       n,
            const char *suffix)
{
  gsize len = strlen (suffix);

  return n >= len && memcmp (s + n - len, suffix, len) == 0;
}

static gboolean
preceded_by (const char *s,
             gsize       at,
             const char *word)
{
  gsize len = strlen (word);

  return at >= len && memcmp (s + at - len, word, len) == 0;
}

/* The word ending at @end: letters, digits, underscores, dots (java.lang.X) */
static gsize
word_start (const char *s,
            gsize       end)
{
  while (end > 0 && (_winnow_protect_is_word_char (s[end - 1]) || s[end - 1] == '.' ||
                     s[end - 1] == '$'))
    end--;
  return end;
}

static gboolean
is_error_word (const char *w,
               gsize       n)
{
  return has_suffix (w, n, "Error") || has_suffix (w, n, "ERROR") ||
         has_suffix (w, n, "Exception");
}

static const char * const error_starts[] = {
  "error:", "error[", "warning:", "warning[", "Error:", "Error [", "fatal:", "fatal error:",
  "Fatal error:", "panic:", "Traceback (most recent call last)", "--- FAIL",
  "Exception in thread", "Caused by:", "Segmentation fault", "Aborted (core dumped)",
  "Program received signal", "During handling of the above exception",
  "The above exception was the direct cause", "npm ERR!", "npm error ", "[ERROR]", "[error]",
  "[FAIL", "[signal ", "AddressSanitizer", "ninja: build stopped", "CONFLICT (",
  "Automatic merge failed", "✗ ", "✕ ", "✖ ", "× ", "❌",
};

/**
 * _winnow_protect_is_error_line:
 *
 * A line that reports an error or a failure: `error: …`, `error[E0308]: …`,
 * `x.c:3:5: error: …`, `a.ts(3,7): error TS2322: …`, `TypeError: …`,
 * `java.lang.IllegalStateException: …`, `Traceback (most recent call last):`, `panic: …`,
 * `thread 'main' panicked at …`, `FAILED tests/x.py::t`, `--- FAIL: TestX`, pytest's `E   …`,
 * `==12==ERROR: AddressSanitizer: …`, `make: *** […] Error 1`. Compiler warnings
 * (`warning: …`, `x.c:3:5: warning: …`) count too: an agent needs them as they are.
 */
gboolean
_winnow_protect_is_error_line (const char        *text,
                               const ProtectLine *line)
{
  const char *s = text + line->body;
  gsize n = line->end - line->body;

  if (n < 4)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (error_starts); i++)
    if (error_starts[i][0] == s[0] && has_prefix (s, n, error_starts[i]))
      return TRUE;
  if (has_word_prefix (s, n, "FAILED") || has_word_prefix (s, n, "FAIL") ||
      has_word_prefix (s, n, "ERROR") || has_word_prefix (s, n, "FATAL"))
    return TRUE;
  /* pytest's assertion report */
  if (s[0] == 'E' && s[1] == ' ' && s[2] == ' ')
    return TRUE;
  /* make: *** [Makefile:3: all] Error 1 */
  if (n > 4 && has_prefix (s, n, "make") && (s[4] == ':' || s[4] == '[') &&
      memmem (s, n, ": ***", 5) != NULL)
    return TRUE;
  /* eslint's stylish format: "  3:7  error  'x' is assigned a value but never used" */
  if (g_ascii_isdigit (s[0]))
    {
      gsize i = _winnow_protect_count_digits (s, n, 0);

      if (i < n && s[i] == ':')
        {
          i += 1 + _winnow_protect_count_digits (s, n, i + 1);
          while (i < n && s[i] == ' ')
            i++;
          if (has_word_prefix (s + i, n - i, "error"))
            return TRUE;
        }
    }

  /* an error word just before a colon */
  for (const char *c = memchr (s, ':', n); c != NULL; c = memchr (c + 1, ':', n - (c + 1 - s)))
    {
      gsize end = c - s, start = word_start (s, end), len = end - start;
      const char *w = s + start;

      if (len >= 5 && is_error_word (w, len))
        return TRUE;
      if (((len == 5 && memcmp (w, "error", 5) == 0) ||
           (len == 7 && memcmp (w, "warning", 7) == 0)) &&
          (start == 0 ||
           (start >= 2 && s[start - 1] == ' ' && strchr (":]-)", s[start - 2]) != NULL) ||
           preceded_by (s, start, "runtime ") || preceded_by (s, start, "fatal ")))
        return TRUE;
      if (len >= 3 && w[0] == 'T' && w[1] == 'S' &&
          _winnow_protect_count_digits (w, len, 2) == len - 2 && preceded_by (s, start, "error "))
        return TRUE;
    }

  if (has_prefix (s, n, "thread '") && memmem (s, n, " panicked at ", 13) != NULL)
    return TRUE;

  /* one pass for the markers that may sit anywhere: FAILED, ERROR, FATAL as words,
   * "Segmentation fault", "(core dumped)" */
  for (gsize i = 1; i + 4 < n; i++)
    {
      const char *r = s + i;
      gsize rn = n - i;

      if (_winnow_protect_is_word_char (s[i - 1]))
        continue;
      switch (*r)
        {
        case 'F':
          if (has_word_prefix (r, rn, "FAILED") || has_word_prefix (r, rn, "FATAL"))
            return TRUE;
          break;
        case 'E':
          if (has_word_prefix (r, rn, "ERROR"))
            return TRUE;
          break;
        case 'S':
          if (has_prefix (r, rn, "Segmentation fault"))
            return TRUE;
          break;
        case '(':
          if (has_prefix (r, rn, "(core dumped)"))
            return TRUE;
          break;
        default:
          break;
        }
    }

  /* pytest's location line: "tests/test_x.py:5: AssertionError" */
  {
    gsize start = word_start (s, n);

    if (start >= 2 && s[start - 1] == ' ' && s[start - 2] == ':' &&
        is_error_word (s + start, n - start))
      return TRUE;
  }

  return FALSE;
}

/**
 * _winnow_protect_is_error_context:
 *
 * What a compiler prints under an error: rustc's ` --> src/main.rs:4:18`, `= note: …`, the
 * `  |` gutter and numbered source lines of rustc and gcc, `note:`/`help:` lines.
 */
gboolean
_winnow_protect_is_error_context (const char        *text,
                                  const ProtectLine *line)
{
  const char *s = text + line->body;
  gsize n = line->end - line->body, i;

  if (n == 0)
    return FALSE;
  if (has_prefix (s, n, "--> ") || has_prefix (s, n, "::: ") || has_prefix (s, n, "= note:") ||
      has_prefix (s, n, "= help:") || has_prefix (s, n, "note:") || has_prefix (s, n, "help:"))
    return TRUE;

  i = _winnow_protect_count_digits (s, n, 0);
  while (i < n && s[i] == ' ')
    i++;
  if (i < n && s[i] == '|' && (i + 1 == n || s[i + 1] == ' '))
    return TRUE;

  return memmem (s, n, ": note: ", 8) != NULL;
}

/* After "at ": Node's `f (/x.js:1:2)`, `/x.js:1:2`, `Array.map (<anonymous>)`; Java's
 * `a.B.c(B.java:19)`, `(Native Method)`; Rust's `./src/main.rs:2:5`; .NET's `… in x.cs:line 3` */
static gboolean
at_frame (const char *s,
          gsize       n)
{
  if (has_prefix (s, n, "async "))
    {
      s += 6;
      n -= 6;
    }
  if (n == 0 || g_ascii_isdigit (s[0]) || s[0] == ' ')
    return FALSE;

  if (s[n - 1] == ')')
    {
      const char *open = memrchr (s, '(', n);
      const char *inner;
      gsize len;

      if (open == NULL)
        return FALSE;
      inner = open + 1;
      len = s + n - 1 - inner;
      for (gsize i = 0; i + 1 < len; i++)
        if (inner[i] == ':' && g_ascii_isdigit (inner[i + 1]))
          return TRUE;
      return has_prefix (inner, len, "<anonymous>") || has_prefix (inner, len, "native") ||
             has_prefix (inner, len, "Native Method") ||
             has_prefix (inner, len, "Unknown Source") ||
             has_prefix (inner, len, "Compiled Code") || has_prefix (inner, len, "index ");
    }

  if (memchr (s, ' ', n) == NULL)
    {
      gsize d = 0;

      while (d < n && g_ascii_isdigit (s[n - 1 - d]))
        d++;
      return d > 0 && d < n && s[n - 1 - d] == ':';
    }

  return memmem (s, n, " in ", 4) != NULL && memmem (s, n, ":line ", 6) != NULL;
}

gboolean
_winnow_protect_is_python_frame (const char        *text,
                                 const ProtectLine *line)
{
  const char *s = text + line->body;
  gsize n = line->end - line->body;

  return has_prefix (s, n, "File \"") && memmem (s, n, "\", line ", 8) != NULL;
}

/* goroutine 1 [running]: */
gboolean
_winnow_protect_is_goroutine (const char        *text,
                              const ProtectLine *line)
{
  const char *s = text + line->body;
  gsize n = line->end - line->body, i;

  if (!has_prefix (s, n, "goroutine ") || line->indent > 0)
    return FALSE;
  i = 10 + _winnow_protect_count_digits (s, n, 10);
  return i > 10 && i + 2 < n && s[i] == ' ' && s[i + 1] == '[' && has_suffix (s, n, "]:");
}

/**
 * _winnow_protect_is_frame_line:
 *
 * One line of a stack trace.
 */
gboolean
_winnow_protect_is_frame_line (const char        *text,
                               const ProtectLine *line)
{
  const char *s = text + line->body;
  gsize n = line->end - line->body;

  if (n < 3)
    return FALSE;

  if (has_prefix (s, n, "at "))
    return at_frame (s + 3, n - 3);

  if (_winnow_protect_is_python_frame (text, line))
    return TRUE;

  /* gdb and the sanitizers: `#0  0x… in f (…) at x.c:3`, `#1 0x… in main /x.c:5:3`,
   * `#0  __strlen_evex () at ../x.S:79`; PHP: `#0 /x.php(12): f()` */
  if (s[0] == '#' && g_ascii_isdigit (s[1]))
    {
      gsize i = 1 + _winnow_protect_count_digits (s, n, 1);
      const char *r;
      gsize rn;

      if (i >= n || s[i] != ' ')
        return FALSE;
      while (i < n && s[i] == ' ')
        i++;
      r = s + i;
      rn = n - i;
      if (has_prefix (r, rn, "0x"))
        return memmem (r, rn, " in ", 4) != NULL;
      return has_prefix (r, rn, "/") || has_prefix (r, rn, "[internal") ||
             has_prefix (r, rn, "{main}") || memmem (r, rn, ") at ", 5) != NULL ||
             memmem (r, rn, ") from ", 7) != NULL;
    }

  /* gdb's current frame: `0x0000555555555131 in main () at crash.c:4`,
   * `__strlen_evex () at ../sysdeps/x86_64/multiarch/strlen-evex.S:79` */
  if (has_prefix (s, n, "0x") && memmem (s, n, " in ", 4) != NULL)
    return TRUE;
  {
    gsize i = 0;

    while (i < n && (_winnow_protect_is_word_char (s[i]) || s[i] == '.' || s[i] == ':'))
      i++;
    if (i > 0 && has_prefix (s + i, n - i, " () at ") && g_ascii_isdigit (s[n - 1]))
      return TRUE;
  }

  /* Rust's backtrace: `   0: std::rt::lang_start`, `  12: __rustc::rust_begin_unwind` */
  if (g_ascii_isdigit (s[0]))
    {
      gsize i = _winnow_protect_count_digits (s, n, 0);

      if (i + 2 < n && s[i] == ':' && s[i + 1] == ' ')
        {
          const char *r = s + i + 2;
          gsize rn = n - i - 2;

          while (rn > 0 && *r == ' ')
            {
              r++;
              rn--;
            }
          if (rn > 0 && (memmem (r, rn, "::", 2) != NULL || r[0] == '_' || r[0] == '<' ||
                         has_prefix (r, rn, "0x")))
            return TRUE;
        }
      return FALSE;
    }

  if (has_prefix (s, n, "stack backtrace:") || has_prefix (s, n, "created by "))
    return TRUE;
  /* Ruby: `from /x.rb:12:in 'foo'` */
  if (has_prefix (s, n, "from ") &&
      (memmem (s, n, ":in `", 5) != NULL || memmem (s, n, ":in '", 5) != NULL))
    return TRUE;
  /* Java: `... 3 more`, `... 12 common frames omitted` */
  if (has_prefix (s, n, "... ") && n > 4 && g_ascii_isdigit (s[4]) &&
      (has_suffix (s, n, " more") || has_suffix (s, n, " omitted")))
    return TRUE;
  /* Go: `\t/x/main.go:15 +0x1d` */
  if (text[line->start] == '\t' && memmem (s, n, ".go:", 4) != NULL)
    return TRUE;

  return FALSE;
}

/**
 * _winnow_protect_is_prompt_line:
 *
 * A command at a shell or debugger prompt: `$ npm test`, `> cargo build` (a known tool after
 * `> `, so quoted prose stays prose), `user@host:~/src$ make`, `PS C:\repo> dir`, `(gdb) bt`,
 * `>>> import os`.
 */
gboolean
_winnow_protect_is_prompt_line (const char        *text,
                                const ProtectLine *line)
{
  const char *s = text + line->body;
  gsize n = line->end - line->body;

  if (n < 3)
    return FALSE;

  if (s[0] == '$' && s[1] == ' ' && s[2] != ' ' && !g_ascii_isdigit (s[2]))
    return TRUE;

  if (s[0] == '>' && s[1] == ' ')
    {
      const char *w = s + 2;
      gsize len = 0;

      while (2 + len < n && w[len] != ' ' && w[len] != '\t')
        len++;
      return _winnow_protect_lookup_tool (w, len) != NULL ||
             (len > 2 && w[0] == '.' && w[1] == '/');
    }

  if (has_prefix (s, n, "(gdb) ") || has_prefix (s, n, "(lldb) ") || has_prefix (s, n, "(Pdb) ") ||
      has_prefix (s, n, ">>> "))
    return TRUE;

  if (has_prefix (s, n, "PS ") && n > 7 && g_ascii_isalpha (s[3]) && s[4] == ':' && s[5] == '\\' &&
      memchr (s, '>', n) != NULL)
    return TRUE;

  /* user@host:~/src$ make */
  {
    const char *at = memchr (s, '@', MIN (n, 64));
    gsize i;

    if (at == NULL || at == s)
      return FALSE;
    for (i = 0; s + i < at; i++)
      if (!(_winnow_protect_is_word_char (s[i]) || s[i] == '.' || s[i] == '-'))
        return FALSE;
    i = at - s + 1;
    while (i < n && (_winnow_protect_is_word_char (s[i]) || s[i] == '.' || s[i] == '-'))
      i++;
    if (i >= n || s[i] != ':' || i == (gsize) (at - s) + 1)
      return FALSE;
    for (; i < n && s[i] != ' '; i++)
      if ((s[i] == '$' || s[i] == '#') && i + 1 < n && s[i + 1] == ' ')
        return TRUE;
    return FALSE;
  }
}

/* ---- lines of a program ------------------------------------------------------------------- */

/* (not inlined: GCC with -fsanitize=undefined then takes a line's text for NULL and warns) */
static G_GNUC_NO_INLINE gboolean
contains (const char *s,
          gsize       n,
          const char *needle)
{
  return memmem (s, n, needle, strlen (needle)) != NULL;
}

/* `name(` or `a.b_c(` at @s: a call, as a statement starts; or, GNU style, `name (…)` on a
 * line that ends as a call or a declaration does. */
static gboolean
starts_with_call (const char *s,
                  gsize       n)
{
  gsize i = 0;

  if (n == 0 || !(g_ascii_isalpha (s[0]) || s[0] == '_'))
    return FALSE;
  while (i < n && (_winnow_protect_is_word_char (s[i]) || s[i] == '.'))
    i++;
  if (i < n && s[i] == '(')
    return TRUE;
  return i + 1 < n && s[i] == ' ' && s[i + 1] == '(' && strchr ("),;{", s[n - 1]) != NULL &&
         memchr (s, '_', i) != NULL;
}

/* Six blank-separated tokens or more, three in five of them lower-case words ("the", "is,"). */
static gboolean
is_mostly_words (const char *s,
                 gsize       n)
{
  guint tokens = 0, words = 0;

  for (gsize i = 0; i < n;)
    {
      gsize start, end;
      gboolean word = TRUE;

      while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
      if (i == n)
        break;
      start = i;
      while (i < n && s[i] != ' ' && s[i] != '\t')
        i++;
      end = i;
      while (end > start && strchr (",.;:", s[end - 1]) != NULL)
        end--;
      for (gsize k = start; k < end && word; k++)
        word = g_ascii_islower (s[k]) || s[k] == '-' || s[k] == '\'';
      tokens++;
      words += word && end > start;
    }
  return tokens >= 6 && words * 5 >= tokens * 3;
}

/* Whether a token of an option's cell is one: `-a,`, `--color[=WHEN]`, or (not @first) its
 * argument: `PATTERN`, `<file>`, `[N]`. */
static gboolean
is_option_token (const char *s,
                 gsize       n,
                 gboolean    first)
{
  if (n > 0 && s[n - 1] == ',')
    n--;
  if (n >= 2 && s[0] == '-' && (s[1] != '-' || n >= 3))
    return TRUE;
  if (first || n == 0)
    return FALSE;
  if (s[0] == '<' || s[0] == '[' || s[0] == '{')
    return TRUE;
  for (gsize i = 0; i < n; i++)
    if (!(g_ascii_isupper (s[i]) || s[i] == '_' || s[i] == '='))
      return FALSE;
  return TRUE;
}

/* Options and their arguments only (`-H, --dereference-command-line`): a line of them, whose
 * description is on the lines under it, further in, or a table row's first column. */
static gboolean
is_option_header (const char *s,
                  gsize       n)
{
  if (s[0] != '-')
    return FALSE;
  for (gsize t = 0; t < n;)
    {
      gsize end = t;

      while (end < n && s[end] != ' ')
        end++;
      if (end == t || !is_option_token (s + t, end - t, t == 0))
        return FALSE;
      t = end + 1;
    }
  return TRUE;
}

/* A row of a table of options or commands, as `--help` prints it: a name (or options and
 * their argument) in the first column, then three blanks or a tab (two after an option), then
 * a description with no further column. Justified text spreads its blanks over the line.
 * Returns where the description starts in @s, or 0. */
static gsize
table_row_description (const char *s,
                       gsize       n)
{
  gsize gap = 0, rest, blanks;
  gboolean option = s[0] == '-';
  gboolean spaced = FALSE;

  /* the first column: ends at the first run of two blanks or a tab */
  while (gap < n && !(s[gap] == '\t' || (s[gap] == ' ' && gap + 1 < n && s[gap + 1] == ' ')))
    {
      spaced |= s[gap] == ' ';
      gap++;
    }
  if (gap == 0 || gap == n)
    return 0;
  for (rest = gap; rest < n && (s[rest] == ' ' || s[rest] == '\t'); rest++)
    ;
  blanks = rest - gap;
  if (rest == n || (!option && blanks < 3 && memchr (s + gap, '\t', blanks) == NULL))
    return 0;
  /* several tokens in the first column: options and their arguments only */
  if ((spaced || option) && !is_option_header (s, gap))
    return 0;
  /* the description: no other column (two blanks only after a sentence or a clause) */
  for (gsize i = rest; i + 1 < n; i++)
    if ((s[i] == ' ' && s[i + 1] == ' ' && (i == rest || strchr (".:;,", s[i - 1]) == NULL)) ||
        s[i] == '\t')
      return 0;
  return rest;
}

/**
 * _winnow_protect_table_row_column:
 *
 * The column where the description of a row of a `--help` table starts (see
 * table_row_description()), counted from the start of the line; 0 if @line is not one. A
 * description wrapped over more lines goes on in that column. For a line of options alone,
 * whose description starts on the next line, %G_MAXUINT.
 */
guint
_winnow_protect_table_row_column (const char        *text,
                                  const ProtectLine *line)
{
  const char *s = text + line->body;
  gsize n = line->end - line->body;
  gsize rest;

  while (n > 0 && s[n - 1] == ' ')
    n--;
  if (n == 0 || memchr (s, '\t', n) != NULL)
    return 0;
  if (is_option_header (s, n))
    return G_MAXUINT;
  rest = table_row_description (s, n);
  return rest > 0 ? line->indent + (guint) rest : 0;
}

/* Whether a line is a tool's report rather than a sentence (see _winnow_protect_is_code_line()). */
static gboolean
is_tool_output (const char *s,
                gsize       n)
{
  static const char * const levels[] = {
    "INFO", "WARN", "WARNING", "ERROR", "DEBUG", "TRACE", "FATAL", "NOTICE", "npm WARN",
    "npm notice",
  };
  gsize i = 0, digits;

  if (table_row_description (s, n) > 0 || is_option_header (s, n))
    return TRUE;

  /* columns: three spaces or a tab between two words (not in justified text, as a man page
   * prints it: its spaces go once the line is compressed, and it is words) */
  for (gsize k = 1; k + 3 < n; k++)
    if (s[k - 1] != ' ' && s[k - 1] != '\t' &&
        ((s[k] == ' ' && s[k + 1] == ' ' && s[k + 2] == ' ') || s[k] == '\t'))
      {
        gsize w = k;

        while (w < n && (s[w] == ' ' || s[w] == '\t'))
          w++;
        if (w < n && !is_mostly_words (s, n))
          return TRUE;
        break;
      }

  /* [3/120] or 10/60 first */
  if (i < n && s[i] == '[')
    i++;
  for (digits = 0; i < n && g_ascii_isdigit (s[i]); i++)
    digits++;
  if (digits > 0 && i + 1 < n && s[i] == '/' && g_ascii_isdigit (s[i + 1]))
    {
      for (i++; i < n && g_ascii_isdigit (s[i]); i++)
        ;
      if (i < n && (s[i] == ']' || s[i] == ' '))
        return TRUE;
    }

  /* 12:04:33 or 2026-11-24T12:04 first */
  if (n >= 8 && g_ascii_isdigit (s[0]) && g_ascii_isdigit (s[1]) &&
      ((s[2] == ':' && g_ascii_isdigit (s[3]) && g_ascii_isdigit (s[4]) && s[5] == ':') ||
       (n >= 10 && g_ascii_isdigit (s[2]) && g_ascii_isdigit (s[3]) && s[4] == '-' &&
        g_ascii_isdigit (s[5]) && s[7] == '-' && g_ascii_isdigit (s[8]))))
    return TRUE;

  /* a log level, as a word of its own or in brackets */
  i = s[0] == '[' ? 1 : 0;
  for (guint k = 0; k < G_N_ELEMENTS (levels); k++)
    {
      gsize len = strlen (levels[k]);

      if (i + len < n && memcmp (s + i, levels[k], len) == 0 && strchr (" :]", s[i + len]) != NULL)
        return TRUE;
    }

  return FALSE;
}

/* Twelve words or more that end a sentence (". " before a capital, or a final full stop), and
 * are not an assignment or a docstring's opening line. */
static gboolean
reads_as_sentences (const char *s,
                    gsize       n)
{
  guint words = 1;
  gboolean sentence = s[n - 1] == '.';
  gsize i = 0;

  while (i < n && (_winnow_protect_is_word_char (s[i]) || s[i] == '.'))
    i++;
  while (i < n && s[i] == ' ')
    i++;
  if (i > 0 && i < n && s[i] == '=')
    return FALSE;
  if (contains (s, n, "\"\"\"") || contains (s, n, "'''"))
    return FALSE;

  for (i = 1; i + 1 < n; i++)
    if (s[i] == ' ' && s[i - 1] != ' ')
      {
        words++;
        if (strchr (".?!", s[i - 1]) != NULL && g_ascii_isupper (s[i + 1]))
          sentence = TRUE;
      }
  return words >= 12 && sentence;
}

/* A line that is a string literal (perhaps prefixed, as r'…' or f"…"), and then at most what
 * goes on an expression: a comma, a bracket, a colon, an operator, a method (`"".format(`). */
static gboolean
is_string_literal (const char *s,
                   gsize       n)
{
  gsize i = 0;
  char quote;

  while (i < 2 && i < n && strchr ("rRbBuUfF", s[i]) != NULL)
    i++;
  if (i >= n || (s[i] != '"' && s[i] != '\''))
    return FALSE;
  quote = s[i++];
  for (; i < n && s[i] != quote; i++)
    if (s[i] == '\\')
      i++;
  if (i >= n)
    return FALSE;
  i++;
  while (i < n && s[i] == ' ')
    i++;
  return i == n || strchr (",)]}:.%+", s[i]) != NULL;
}

/* A shell script's `case` at @s: `case "$x" in`, or an arm's patterns (`add)`,
 * `del|rm|remove)`, `-c | --copy )`, `*)`), perhaps with a comment after. */
static gboolean
is_shell_case (const char *s,
               gsize       n)
{
  const char *paren;
  gsize at;

  if (has_prefix (s, n, "case ") && n > 8 && memcmp (s + n - 3, " in", 3) == 0)
    return TRUE;
  paren = memchr (s, ')', n);
  if (paren == NULL || paren == s || memchr (s, '(', paren - s) != NULL ||
      contains (s, paren - s, "  "))
    return FALSE;
  /* the patterns: words without blanks, separated by | */
  for (const char *p = s; p < paren; p++)
    if (*p == ' ' && !(p + 1 < paren && (p[1] == '|' || p[1] == ')')) &&
        !(p > s && p[-1] == '|'))
      return FALSE;
  at = paren + 1 - s;
  while (at < n && s[at] == ' ')
    at++;
  return at == n || (at > (gsize) (paren + 1 - s) && s[at] == '#');
}

/* A shell function's name alone on its line, or with its arguments (`requires_root`,
 * `aptkey_echo "OK"`): a snake_case name, which no sentence starts with that way. */
static gboolean
is_shell_call (const char *s,
               gsize       n)
{
  gsize i = 0;
  gboolean underscore = FALSE;

  while (i < n && (g_ascii_islower (s[i]) || g_ascii_isdigit (s[i]) || s[i] == '_'))
    underscore |= s[i++] == '_';
  if (!underscore || i < 3 || !g_ascii_islower (s[0]))
    return FALSE;
  return i == n || (s[i] == ' ' && i + 1 < n && strchr ("\"'-", s[i + 1]) != NULL);
}

/* Python's `import a.b as c, d` or `from a.b import c`. */
static gboolean
is_python_import (const char *s,
                  gsize       n)
{
  gsize i;

  if (has_prefix (s, n, "from "))
    {
      for (i = 5; i < n && (_winnow_protect_is_word_char (s[i]) || s[i] == '.'); i++)
        ;
      return i > 5 && has_prefix (s + i, n - i, " import ");
    }
  if (!has_prefix (s, n, "import "))
    return FALSE;

  /* names, each perhaps "as" another, separated by commas */
  for (i = 7;;)
    {
      gsize name = i;

      while (i < n && (_winnow_protect_is_word_char (s[i]) || s[i] == '.'))
        i++;
      if (i == name)
        return FALSE;
      if (has_prefix (s + i, n - i, " as "))
        {
          i += 4;
          name = i;
          while (i < n && _winnow_protect_is_word_char (s[i]))
            i++;
          if (i == name)
            return FALSE;
        }
      if (i == n)
        return TRUE;
      if (!has_prefix (s + i, n - i, ", "))
        return FALSE;
      i += 2;
    }
}

/* A line this long that is this dense with brackets, quotes and operators is a program or
 * its data squeezed onto one line (a minified script, a search index): a paragraph of prose
 * with inline code in it stays under 6 % of such marks, minified code is over 10 %. */
#define MINIFIED_MIN_BYTES 500
#define MINIFIED_MIN_PERCENT 10

/**
 * _winnow_protect_is_minified_line:
 *
 * Whether a line is minified code or generated data: MINIFIED_MIN_BYTES or more, at least
 * MINIFIED_MIN_PERCENT of them brackets, quotes, `;`, `=`, `<`, `>`, `|` or `&`.
 */
gboolean
_winnow_protect_is_minified_line (const char        *text,
                                  const ProtectLine *line)
{
  gsize n = line->end - line->body;
  gsize marks = 0;

  if (n < MINIFIED_MIN_BYTES)
    return FALSE;
  for (const char *p = text + line->body; p < text + line->end; p++)
    marks += strchr ("{}[]();=\"<>|&", *p) != NULL && *p != '\0';
  return marks * 100 >= n * MINIFIED_MIN_PERCENT;
}

/**
 * _winnow_protect_is_code_line:
 *
 * Whether a line reads as a line of a program (or of a tool's output) rather than of prose:
 * a statement it starts with (`def `, `#include`, `fn `), an end prose does not have (`;`,
 * `{`, `}`, `),`), an operator prose does not use (` = `, `==`, `=>`, `::`, `&&`), a call, an
 * import, a comment, a shell variable or block word, or the columns, build steps, time stamps
 * and log levels of a tool's report. Keywords that are also English words (if, for, from,
 * return…) count only with code after them. A list item, a quote or a line with inline code
 * is Markdown. Unfenced code is only protected as a run of such lines (see try_code()).
 */
gboolean
_winnow_protect_is_code_line (const char        *text,
                              const ProtectLine *line)
{
  static const char * const statements[] = {
    "def ", "elif ", "else:", "try:", "except ", "except:", "finally:", "fn ", "func ",
    "function ", "function(", "pub ", "impl ", "struct ", "#include", "#define", "#ifdef",
    "#ifndef", "#endif", "#else", "#elif", "#undef", "#error", "#pragma", "#!/", "package ",
    "extern ", "typedef ", "//", "/*", "*/", "\"\"\"", "'''",
    "} else", "})", "};",
  };
  static const char * const keywords[] = {
    "if ", "if(", "for ", "for(", "while ", "while(", "from ", "with ", "class ", "import ",
    "return", "const ", "let ", "var ", "case ", "switch", "match ", "use ", "async ", "await ",
    "raise ", "yield ", "lambda", "public ", "private ", "protected ", "static ", "void ",
    "int ", "char ", "bool ", "enum ", "export ", "interface ", "type ",
  };
  static const char * const operators[] = {
    " = ", "==", "!=", "=>", " -> ", "::", "+=", "-=", "&&", "||", "();", "){", " + ",
    ") {", "')", "\")", "=[", "={", "=(",
  };
  const char *s = text + line->body;
  gsize n = line->end - line->body;
  char last;

  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  if (n == 0)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    if (has_prefix (s, n, statements[i]))
      return TRUE;
  /* a docstring opened with a prefix: r""" or b''' */
  if (n >= 4 && strchr ("rRbBuUfF", s[0]) != NULL &&
      (has_prefix (s + 1, n - 1, "\"\"\"") || has_prefix (s + 1, n - 1, "'''")))
    return TRUE;
  /* a comment inside indented code (at the margin, `# ` is a Markdown heading) */
  if (s[0] == '#' && line->indent > 0)
    return TRUE;
  if (_winnow_protect_is_minified_line (text, line))
    return TRUE;
  /* a long line of sentences is prose, whatever it mentions ($f, ' + '): a hard-wrapped
   * paragraph joined into one line is read again */
  if (reads_as_sentences (s, n))
    return FALSE;
  /* a tool's output: columns lined up with runs of spaces or tabs, a build step ([3/120]), a
   * test runner's count (10/60), a time stamp or a log level first */
  if (is_tool_output (s, n))
    return TRUE;
  /* a string literal on an indented line of its own, a piece of one that goes on over lines
   * (`"in section {!r} contains " `, `'by `-s` option. '`) */
  if (line->indent > 0 && is_string_literal (s, n))
    return TRUE;
  /* Markdown: list items (bulleted or numbered), quotes and lines with inline code are prose */
  if (memchr (s, '`', n) != NULL ||
      (line->indent == 0 && ((n >= 2 && s[0] == '>' && s[1] == ' ') ||
                             _winnow_protect_list_marker (text, line->body, line->end) > 0)))
    return FALSE;
  /* a decorator, a lone closing bracket */
  if (s[0] == '@' && n > 1 && g_ascii_isalpha (s[1]))
    return TRUE;
  if (strspn (s, ")]}") == n)
    return TRUE;

  last = s[n - 1];
  if (last == ';' || last == '{' || last == '}' || (n >= 2 && s[n - 2] == ')' && last == ','))
    return TRUE;
  /* an entry of a list or a dict of strings, a comment after code */
  if ((n >= 2 && (s[n - 2] == '\'' || s[n - 2] == '"') && last == ',') ||
      contains (s, n, "': ") || contains (s, n, "\": ") || contains (s, n, "' : ") ||
      contains (s, n, ": #") || contains (s, n, ", # ") || contains (s, n, "  # ") ||
      contains (s, n, " // "))
    return TRUE;
  /* shell: a variable or a substitution, the words that close a block, a loop's or test's end */
  for (gsize i = 0; i + 1 < n; i++)
    if (s[i] == '$' && (g_ascii_isalpha (s[i + 1]) || s[i + 1] == '_' || s[i + 1] == '{' ||
                        s[i + 1] == '('))
      return TRUE;
  if ((n == 2 && (memcmp (s, "fi", 2) == 0 || memcmp (s, "do", 2) == 0)) ||
      (n == 4 && (memcmp (s, "done", 4) == 0 || memcmp (s, "esac", 4) == 0 ||
                  memcmp (s, "then", 4) == 0 || memcmp (s, "else", 4) == 0)) ||
      (n > 6 && (memcmp (s + n - 6, "; then", 6) == 0)) ||
      (n > 4 && (memcmp (s + n - 4, "; do", 4) == 0)))
    return TRUE;
  /* a C comment on a line of its own or after code */
  if (contains (s, n, "/*") || (n >= 2 && s[n - 2] == '*' && last == '/'))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (operators); i++)
    if (contains (s, n, operators[i]))
      return TRUE;
  /* name=value (an argument, an assignment without spaces) */
  for (gsize i = 1; i + 1 < n; i++)
    if (s[i] == '=' && (_winnow_protect_is_word_char (s[i - 1]) || s[i - 1] == ']') &&
        (_winnow_protect_is_word_char (s[i + 1]) || strchr ("'\"([{", s[i + 1]) != NULL))
      return TRUE;
  if (starts_with_call (s, n) || is_python_import (s, n) || is_shell_case (s, n) ||
      is_shell_call (s, n))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (has_prefix (s, n, keywords[i]) && (strchr (":{(", last) != NULL || memchr (s, '(', n)))
      return TRUE;

  return FALSE;
}
