/* winnow-protect-inline.c — technical tokens inside prose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lexes the prose between blocks. Backtick code spans come first (they may span lines, never a
 * blank line). Everything else is cut into chunks, maximal runs of printable ASCII and of
 * non-ASCII letters below U+2000; CJK text, typographic punctuation and invalid bytes end a
 * chunk, so `src/main.rsを開く` yields `src/main.rs`. A chunk is tried, in order, as
 *
 *  1. the start of a multi-word shape: a command in a sentence ("run npm install -D vitest"),
 *     a named date ("Sat, 18 Apr 2026 09:00:00 GMT"), main/master after a branch word;
 *  2. a carrier of URLs, which may sit anywhere in it (`[docs](https://x.test/a_(b)).`);
 *  3. one token once wrapping punctuation is stripped (`(see`, `foo.`, `**bold**`);
 *  4. failing that, pieces split at brackets, quotes, commas and `=`, each tried as a token,
 *     and `name(` followed by its balanced arguments, which may contain spaces.
 *
 * Token shapes are recognised by hand-written scanners rather than regular expressions: each
 * looks at a chunk at most a couple of times, and bounded look-ahead (commands and dates stay on
 * their line, calls within a window of bytes) keeps the whole lexer linear.
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"
#include "winnow-utf8.h"

#define MAX_TICKS   16
#define N_RECENT    4
#define CALL_WINDOW 240

typedef struct
{
  gsize start;
  gsize end;
} Word;

typedef struct
{
  const char *text;
  gsize       end;
  GArray     *spans;

  /* a backtick run of length n has no closing run before tick_fail[n] */
  gsize       tick_fail[MAX_TICKS + 1];

  /* the last few words on the current line, most recent first */
  Word        recent[N_RECENT];
  guint       n_recent;

  /* where each '(' of a window of bytes closes (offset from it, 0 if it does not) */
  gsize       paren_start;
  gsize       paren_end;
  guint8      paren_close[CALL_WINDOW];
} Lexer;

static gsize lex_plain (Lexer *lx,
                        gsize  a,
                        gsize  b);

/* ---- characters -------------------------------------------------------------------------- */

/* Length of the character at @p if it belongs in a chunk, else 0. */
static inline gsize
chunk_char (const char *text,
            gsize       p,
            gsize       end)
{
  guchar c = text[p];
  gunichar u;

  if (c < 0x80)
    return (c > 0x20 && c < 0x7f && c != '`') ? 1 : 0;

  u = g_utf8_get_char_validated (text + p, end - p);
  if (u == (gunichar) -1 || u == (gunichar) -2)
    return 0;
  if (u >= 0x2000 || !(g_unichar_isalnum (u) || g_unichar_ismark (u)))
    return 0;
  return g_utf8_skip[c];
}

/* Length of the character at @p, which ends chunks: a whole character when it is valid, so
 * that nothing ever starts in the middle of one, else the single invalid byte. */
static inline gsize
boundary_len (const char *text,
              gsize       p,
              gsize       end)
{
  guchar c = text[p];
  gunichar u;

  if (c < 0x80)
    return 1;
  u = g_utf8_get_char_validated (text + p, end - p);
  if (u == (gunichar) -1 || u == (gunichar) -2)
    return 1;
  return g_utf8_skip[c];
}

static gsize
chunk_end (Lexer *lx,
           gsize  p)
{
  const char *t = lx->text;
  gsize n;

  while (p < lx->end)
    {
      guchar c = t[p];

      if (c > 0x20 && c < 0x7f && c != '`')
        p++;
      else if (c >= 0x80 && (n = chunk_char (t, p, lx->end)) > 0)
        p += n;
      else
        break;
    }

  return p;
}

/* The chunk after @p, past spaces and tabs only: the next word on the same line. */
static gboolean
next_chunk (Lexer *lx,
            gsize  p,
            gsize *cs,
            gsize *ce)
{
  const char *t = lx->text;

  while (p < lx->end && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= lx->end || chunk_char (t, p, lx->end) == 0)
    return FALSE;

  *cs = p;
  *ce = chunk_end (lx, p);
  return TRUE;
}

/* ASCII punctuation by role: is_one_of() with a string was a third of the lexer's time */
enum
{
  CC_OPEN = 1 << 0,
  CC_TRAIL = 1 << 1,
  CC_SENTENCE = 1 << 2,
  CC_CLOSE = 1 << 3,
  CC_HARD = 1 << 4,
  CC_TECH = 1 << 5,
  CC_PATH = 1 << 6,
  CC_URL_STOP = 1 << 7,
  CC_URL_TRIM = 1 << 8,
};

static const guint16 char_class[128] = {
  ['!'] = CC_TRAIL | CC_SENTENCE | CC_PATH | CC_URL_TRIM,
  ['"'] = CC_OPEN | CC_TRAIL | CC_HARD | CC_URL_STOP | CC_URL_TRIM,
  ['#'] = CC_TECH | CC_PATH,
  ['$'] = CC_TECH | CC_PATH,
  ['%'] = CC_TECH | CC_PATH,
  ['&'] = CC_HARD | CC_PATH,
  ['\''] = CC_OPEN | CC_TRAIL | CC_HARD | CC_URL_TRIM,
  ['('] = CC_OPEN | CC_HARD,
  [')'] = CC_CLOSE | CC_HARD,
  ['*'] = CC_TRAIL | CC_HARD | CC_TECH | CC_PATH | CC_URL_TRIM,
  ['+'] = CC_TECH | CC_PATH,
  [','] = CC_OPEN | CC_TRAIL | CC_SENTENCE | CC_HARD | CC_PATH | CC_URL_TRIM,
  ['-'] = CC_PATH,
  ['.'] = CC_TRAIL | CC_SENTENCE | CC_TECH | CC_PATH | CC_URL_TRIM,
  ['/'] = CC_TECH | CC_PATH,
  [':'] = CC_TRAIL | CC_SENTENCE | CC_TECH | CC_PATH | CC_URL_TRIM,
  [';'] = CC_OPEN | CC_TRAIL | CC_SENTENCE | CC_HARD | CC_URL_TRIM,
  ['<'] = CC_HARD | CC_TECH | CC_URL_STOP,
  ['='] = CC_HARD | CC_TECH | CC_PATH,
  ['>'] = CC_CLOSE | CC_HARD | CC_TECH | CC_URL_STOP,
  ['?'] = CC_TRAIL | CC_SENTENCE | CC_HARD | CC_URL_TRIM,
  ['@'] = CC_TECH | CC_PATH,
  ['['] = CC_OPEN | CC_HARD | CC_TECH | CC_PATH,
  ['\\'] = CC_TECH | CC_PATH,
  [']'] = CC_CLOSE | CC_HARD | CC_TECH | CC_PATH,
  ['_'] = CC_TECH | CC_PATH,
  ['`'] = CC_URL_STOP,
  ['{'] = CC_OPEN | CC_HARD | CC_TECH | CC_PATH,
  ['|'] = CC_OPEN | CC_HARD,
  ['}'] = CC_CLOSE | CC_HARD | CC_TECH | CC_PATH,
  ['~'] = CC_TECH | CC_PATH,
};

static inline gboolean
has_class (guchar c,
           guint  cls)
{
  return c < 128 && (char_class[c] & cls) != 0;
}

static inline gboolean
is_one_of (guchar      c,
           const char *set)
{
  return c != '\0' && strchr (set, c) != NULL;
}

static gboolean
equal_word (const char *s,
            gsize       n,
            const char *word)
{
  return strlen (word) == n && memcmp (s, word, n) == 0;
}

/* Whether the closing bracket @close outnumbers its opener in [s, e). */
static gboolean
unbalanced (const char *t,
            gsize       s,
            gsize       e,
            char        close)
{
  char open = close == ')' ? '(' : close == ']' ? '[' : close == '}' ? '{' : '<';
  int depth = 0;

  for (gsize i = s; i < e; i++)
    {
      if (t[i] == open)
        depth++;
      else if (t[i] == close)
        depth--;
    }

  return depth < 0;
}

/* Strips what wraps a token in prose: opening brackets and quotes, emphasis, and trailing
 * sentence punctuation or an unbalanced closing bracket. */
static void
strip_wrappers (const char *t,
                gsize      *s,
                gsize      *e)
{
  gsize a = *s, b = *e, lead_stars = 0, tail_stars = 0;

  while (a < b)
    {
      if (has_class (t[a], CC_OPEN))
        a++;
      else if ((t[a] == '<' || t[a] == '>') &&
               !(a + 1 < b && (t[a + 1] == '=' || g_ascii_isdigit (t[a + 1]))))
        a++;
      else if (t[a] == '~' && a + 1 < b && t[a + 1] == '~')
        a += 2;
      else
        break;
    }

  while (a + lead_stars < b && t[a + lead_stars] == '*')
    lead_stars++;

  while (b > a + lead_stars)
    {
      guchar c = t[b - 1];

      if (c == '.' && b - a >= 2 && t[b - 2] == '.')
        break; /* `./...`, `..` */
      if (c == '*')
        tail_stars++;
      if (has_class (c, CC_TRAIL) ||
          (has_class (c, CC_CLOSE) && unbalanced (t, a, b, c)))
        b--;
      else
        break;
    }

  /* leading stars are emphasis only when stars close it: `*.ts` is a glob */
  a += MIN (lead_stars, tail_stars);
  if (lead_stars > 0 && tail_stars == 0 && b == a + lead_stars)
    b = a; /* nothing but stars */

  /* _emphasis_ (one word, no inner underscore) */
  if (b - a >= 3 && t[a] == '_' && t[b - 1] == '_' && t[a + 1] != '_' && t[b - 2] != '_' &&
      memchr (t + a + 1, '_', b - a - 2) == NULL)
    {
      a++;
      b--;
    }

  *s = a;
  *e = MAX (a, b);
}

/* ---- dates, versions, numbers ------------------------------------------------------------ */

static inline guint
number_at (const char *s,
           gsize       i,
           gsize       digits)
{
  guint v = 0;

  for (gsize k = 0; k < digits; k++)
    v = v * 10 + (s[i + k] - '0');
  return v;
}

/* H:MM[:SS[.frac]][zone][am|pm] from @i; *@end is where it stops. */
static gboolean
match_time (const char *s,
            gsize       n,
            gsize       i,
            gsize      *end)
{
  gsize d = _winnow_protect_count_digits (s, n, i);

  if (d < 1 || d > 2 || i + d >= n || s[i + d] != ':' || number_at (s, i, d) > 24)
    return FALSE;
  i += d + 1;
  if (_winnow_protect_count_digits (s, n, i) != 2 || number_at (s, i, 2) > 59)
    return FALSE;
  i += 2;

  if (i + 2 < n && s[i] == ':' && _winnow_protect_count_digits (s, n, i + 1) == 2)
    {
      i += 3;
      if (i + 1 < n && (s[i] == '.' || s[i] == ',') && g_ascii_isdigit (s[i + 1]))
        i += 1 + _winnow_protect_count_digits (s, n, i + 1);
    }

  if (i < n && (s[i] == 'Z' || s[i] == 'z'))
    i++;
  else if (i + 2 < n && (s[i] == '+' || s[i] == '-') &&
           _winnow_protect_count_digits (s, n, i + 1) >= 2)
    {
      gsize z = _winnow_protect_count_digits (s, n, i + 1);

      if (z == 2 && i + 5 < n && s[i + 3] == ':' &&
          _winnow_protect_count_digits (s, n, i + 4) == 2)
        i += 6;
      else if (z == 2 || z == 4)
        i += 1 + z;
    }
  else if (i + 2 <= n && (g_ascii_tolower (s[i]) == 'a' || g_ascii_tolower (s[i]) == 'p') &&
           g_ascii_tolower (s[i + 1]) == 'm')
    i += 2;

  *end = i;
  return TRUE;
}

static gboolean
is_time (const char *s,
         gsize       n)
{
  gsize end;

  return match_time (s, n, 0, &end) && end == n;
}

static gboolean
is_zone (const char *s,
         gsize       n)
{
  if (equal_word (s, n, "UTC") || equal_word (s, n, "GMT") || equal_word (s, n, "Z"))
    return TRUE;
  if ((n == 5 || n == 6) && (s[0] == '+' || s[0] == '-') && g_ascii_isdigit (s[1]) &&
      g_ascii_isdigit (s[2]))
    return (n == 5 && _winnow_protect_count_digits (s, n, 1) == 4) ||
           (n == 6 && s[3] == ':' && _winnow_protect_count_digits (s, n, 4) == 2);
  return FALSE;
}

/* 2026-04-18[T09:00[:12][Z]], 2026-04, 2026/04/18, 18/04/2026, 18.04.2026, 09:00:12 */
static gboolean
is_date (const char *s,
         gsize       n)
{
  gsize d = _winnow_protect_count_digits (s, n, 0);
  gsize end;

  if (d == 4 && n >= 7 && (s[4] == '-' || s[4] == '/'))
    {
      char sep = s[4];
      gsize i = 5;
      guint month;

      if (_winnow_protect_count_digits (s, n, i) != 2)
        return FALSE;
      month = number_at (s, i, 2);
      if (month < 1 || month > 12)
        return FALSE;
      i += 2;
      if (i == n)
        return sep == '-';
      if (s[i] != sep || _winnow_protect_count_digits (s, n, i + 1) != 2 ||
          number_at (s, i + 1, 2) < 1 || number_at (s, i + 1, 2) > 31)
        return FALSE;
      i += 3;
      if (i == n)
        return TRUE;
      return sep == '-' && (s[i] == 'T' || s[i] == 't' || s[i] == '_') &&
             match_time (s, n, i + 1, &end) && end == n;
    }

  if ((d == 1 || d == 2) && n >= 6 && (s[d] == '/' || s[d] == '.' || s[d] == '-'))
    {
      char sep = s[d];
      gsize d2 = _winnow_protect_count_digits (s, n, d + 1);
      gsize i = d + 1 + d2;
      gsize y;
      guint first = number_at (s, 0, d), second;

      if (d2 < 1 || d2 > 2 || i >= n || s[i] != sep)
        return FALSE;
      second = number_at (s, d + 1, d2);
      y = _winnow_protect_count_digits (s, n, i + 1);
      if (i + 1 + y != n || !(y == 4 || (y == 2 && sep == '/')))
        return FALSE;
      return first >= 1 && second >= 1 && first <= 31 && second <= 31 &&
             (first <= 12 || second <= 12);
    }

  return match_time (s, n, 0, &end) && end == n;
}

static gsize
version_operator (const char *s,
                  gsize       n,
                  gsize       i)
{
  static const char * const ops[] = { "===", ">=", "<=", "==", "!=", "~=", "^", "~", ">", "<" };

  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      gsize len = strlen (ops[k]);

      if (i + len < n && memcmp (s + i, ops[k], len) == 0 && g_ascii_isdigit (s[i + len]))
        return len;
    }
  return 0;
}

/* v1.2.3, 22.1.0-rc.1, ^1.2, >=3.8, 1.x, 2.0.0+build.5; a bare `3.14` is a number */
static gboolean
is_version (const char *s,
            gsize       n)
{
  gsize i = version_operator (s, n, 0);
  gboolean prefixed = i > 0, wildcard = FALSE, suffix = FALSE;
  guint parts = 0;

  if (i == 0 && n >= 2 && (s[0] == 'v' || s[0] == 'V') && g_ascii_isdigit (s[1]))
    {
      i = 1;
      prefixed = TRUE;
    }

  for (;;)
    {
      gsize d = _winnow_protect_count_digits (s, n, i);

      if (d > 0)
        parts++;
      else if (parts > 0 && i < n && is_one_of (s[i], "xX*"))
        {
          wildcard = TRUE;
          d = 1;
        }
      else
        return FALSE;
      i += d;
      if (i + 1 < n && s[i] == '.' && (g_ascii_isdigit (s[i + 1]) || is_one_of (s[i + 1], "xX*")))
        {
          i++;
          continue;
        }
      break;
    }

  for (char mark = '-'; mark != 0; mark = mark == '-' ? '+' : 0)
    if (i + 1 < n && s[i] == mark && g_ascii_isalnum (s[i + 1]))
      {
        i++;
        while (i < n && (g_ascii_isalnum (s[i]) || s[i] == '.' || s[i] == '-'))
          i++;
        suffix = TRUE;
      }

  if (i != n)
    return FALSE;
  if (prefixed)
    return TRUE;
  return parts >= 3 || wildcard || (parts == 2 && suffix && !g_ascii_isdigit (s[n - 1]));
}

/* 401, 3.14, 1,000, 0x1F, 1e-5, 10ms, 5MB, 85%, -3, $5, 1-3, 1/2, 3rd */
static gboolean
is_number (const char *s,
           gsize       n)
{
  gsize i = 0, d;

  if (i < n && (s[i] == '-' || s[i] == '+'))
    i++;
  if (i < n && s[i] == '$')
    i++;
  if (i >= n || !g_ascii_isdigit (s[i]))
    return FALSE;

  if (s[i] == '0' && i + 2 < n && is_one_of (s[i + 1], "xXbBoO"))
    {
      char base = g_ascii_tolower (s[i + 1]);
      gsize k = i + 2;

      while (k < n && (base == 'x' ? g_ascii_isxdigit (s[k]) :
                       base == 'b' ? (s[k] == '0' || s[k] == '1') :
                       (s[k] >= '0' && s[k] <= '7')))
        k++;
      if (k > i + 2 && k == n)
        return TRUE;
    }

  d = _winnow_protect_count_digits (s, n, i);
  if (d <= 3 && i + d + 3 < n && s[i + d] == ',' &&
      _winnow_protect_count_digits (s, n, i + d + 1) == 3)
    {
      i += d;
      while (i + 3 < n && s[i] == ',' && _winnow_protect_count_digits (s, n, i + 1) == 3)
        i += 4;
    }
  else
    i += d;

  if (i + 1 < n && s[i] == '.' && g_ascii_isdigit (s[i + 1]))
    i += 1 + _winnow_protect_count_digits (s, n, i + 1);

  if (i + 1 < n && (s[i] == 'e' || s[i] == 'E'))
    {
      gsize k = i + 1;

      if (k < n && (s[k] == '-' || s[k] == '+'))
        k++;
      if (k < n && g_ascii_isdigit (s[k]))
        i = k + _winnow_protect_count_digits (s, n, k);
    }

  /* ranges and fractions */
  if (i + 1 < n && (s[i] == '-' || s[i] == '/') && g_ascii_isdigit (s[i + 1]))
    return is_number (s + i + 1, n - i - 1);

  if (i < n && s[i] == '%')
    i++;
  else
    while (i < n && (g_ascii_isalnum (s[i]) || (guchar) s[i] >= 0x80))
      i++;

  return i == n;
}

/* a git hash or other hex digest: 7–64 hex digits with at least one digit and one letter */
static gboolean
is_hex_hash (const char *s,
             gsize       n)
{
  gboolean letter = FALSE, digit = FALSE;

  if (n < 7 || n > 64)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      if (g_ascii_isdigit (s[i]))
        digit = TRUE;
      else if (s[i] >= 'a' && s[i] <= 'f')
        letter = TRUE;
      else
        return FALSE;
    }
  return letter && digit;
}

/* ---- paths and URLs ---------------------------------------------------------------------- */

/* Where a path ends before its location: `x.ts:12:5`, `x.py:12`, `a.ts(3,5)`, `x.rs#L10-L20`. */
static gsize
location_base (const char *s,
               gsize       n)
{
  gsize e = n;
  const char *hash;

  if (n > 3 && s[n - 1] == ')')
    {
      const char *open = memrchr (s, '(', n);

      if (open != NULL && open > s)
        {
          gsize o = open - s, i = o + 1;

          i += _winnow_protect_count_digits (s, n, i);
          if (i < n && s[i] == ',')
            i += 1 + _winnow_protect_count_digits (s, n, i + 1);
          if (i == n - 1 && i > o + 1)
            return o;
        }
    }

  hash = memrchr (s, '#', n);
  if (hash != NULL && hash > s && (gsize) (hash - s) + 2 < n && hash[1] == 'L' &&
      g_ascii_isdigit (hash[2]))
    return hash - s;

  for (int round = 0; round < 2; round++)
    {
      gsize d = 0;

      while (d < e && g_ascii_isdigit (s[e - 1 - d]))
        d++;
      if (d == 0 || d >= e - 1 || s[e - 1 - d] != ':')
        break;
      e -= d + 1;
    }

  return e;
}

static gboolean
has_extension (const char *s,
               gsize       n)
{
  const char *dot = memrchr (s, '.', n);
  gsize name, ext;

  if (dot == NULL)
    return FALSE;
  name = dot - s;
  ext = n - name - 1;
  if (name == 0 || ext == 0 || s[name - 1] == '.')
    return FALSE;
  /* x.c, main.h; but not a.m, Ph.D or U.S */
  if (ext == 1 && (name == 1 || !g_ascii_islower (s[name + 1])))
    return FALSE;
  for (gsize i = name + 1; i < n; i++)
    if (!g_ascii_isalnum (s[i]))
      return FALSE;
  return _winnow_protect_is_extension (s + name + 1, ext);
}

/* labels of letters, digits and hyphens, a known top-level domain last */
static gboolean
is_domain (const char *s,
           gsize       n)
{
  gsize label = 0, labels = 0, last = 0;

  for (gsize i = 0; i <= n; i++)
    {
      if (i == n || s[i] == '.')
        {
          if (label == 0)
            return FALSE;
          labels++;
          last = i - label;
          label = 0;
        }
      else if (g_ascii_isalnum (s[i]) || s[i] == '-')
        label++;
      else
        return FALSE;
    }

  return labels >= 2 && _winnow_protect_is_tld (s + last, n - last);
}

static gboolean
path_chars (const char *s,
            gsize       n)
{
  for (gsize i = 0; i < n; i++)
    {
      guchar c = s[i];

      if (!(g_ascii_isalnum (c) || c >= 0x80 || has_class (c, CC_PATH)))
        return FALSE;
    }
  return TRUE;
}

/* PATH, URL (a scheme-less host/path), BRANCH, or -1 */
static int
classify_path (const char *s,
               gsize       n)
{
  gsize base = location_base (s, n);
  gsize slashes = 0, backslashes = 0, first_len, last_start = 0, last_sep = 0;

  if (base == 0 || !path_chars (s, base))
    return -1;

  /* Windows: C:\repo\file, C:/x, \\server\share, .\x, ..\x */
  if (base >= 3 && g_ascii_isalpha (s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'))
    return WINNOW_PROTECT_PATH;
  if (base >= 3 && s[0] == '\\' && s[1] == '\\' && _winnow_protect_is_word_char (s[2]))
    return WINNOW_PROTECT_PATH;
  if ((base >= 3 && s[0] == '.' && s[1] == '\\') ||
      (base >= 4 && s[0] == '.' && s[1] == '.' && s[2] == '\\'))
    return WINNOW_PROTECT_PATH;

  /* anchored: /etc/hosts, ~/src, ./x, ../x */
  if (s[0] == '/')
    return base >= 2 && s[1] != '/' && s[1] != '*' ? WINNOW_PROTECT_PATH : -1;
  if (base >= 2 && (s[0] == '~' || s[0] == '.') && s[1] == '/')
    return WINNOW_PROTECT_PATH;
  if (base >= 3 && s[0] == '.' && s[1] == '.' && s[2] == '/')
    return WINNOW_PROTECT_PATH;

  for (gsize i = 0; i < base; i++)
    if (s[i] == '/' || s[i] == '\\')
      {
        if (s[i] == '/')
          slashes++;
        else
          backslashes++;
        last_start = i + 1;
        last_sep = i;
      }

  first_len = 0;
  while (first_len < base && s[first_len] != '/' && s[first_len] != '\\')
    first_len++;

  if (slashes > 0 && backslashes == 0)
    {
      gboolean ext = has_extension (s + last_start, base - last_start);

      if (first_len == 0)
        return -1;
      if (memchr (s, '.', first_len) != NULL && is_domain (s, first_len))
        return WINNOW_PROTECT_URL;
      if (!ext && last_start < base && _winnow_protect_is_branch_prefix (s, first_len))
        return WINNOW_PROTECT_BRANCH;
      if (ext || slashes >= 2 || (last_sep == base - 1 && first_len >= 2))
        return WINNOW_PROTECT_PATH;

      /* one slash: src/engine reads as a path, and/or or TCP/IP as prose */
      if (_winnow_protect_is_source_dir (s, first_len))
        return WINNOW_PROTECT_PATH;
      for (gsize i = 0; i < base; i++)
        if (is_one_of (s[i], "._-") || g_ascii_isdigit (s[i]))
          return WINNOW_PROTECT_PATH;
      return -1;
    }

  if (backslashes > 0)
    return (backslashes >= 2 || has_extension (s + last_start, base - last_start)) &&
           first_len > 0 ? WINNOW_PROTECT_PATH : -1;

  /* a bare file name */
  if (has_extension (s, base) || _winnow_protect_is_file_name (s, base))
    return WINNOW_PROTECT_PATH;
  if (base >= 2 && s[0] == '.' && (g_ascii_isalpha (s[1]) || s[1] == '_'))
    {
      for (gsize i = 1; i < base; i++)
        if (!(_winnow_protect_is_word_char (s[i]) || s[i] == '-' || s[i] == '.'))
          return -1;
      return WINNOW_PROTECT_PATH; /* .env, .gitignore */
    }

  return -1;
}

/* ---- identifiers ------------------------------------------------------------------------- */

static gboolean
is_name (const char *s,
         gsize       n)
{
  if (n == 0 || !(g_ascii_isalpha (s[0]) || s[0] == '_' || s[0] == '$'))
    return FALSE;
  for (gsize i = 1; i < n; i++)
    if (!(_winnow_protect_is_word_char (s[i]) || s[i] == '$'))
      return FALSE;
  return TRUE;
}

/* each part a name, at least one of three characters or more (so e.g, i.e, Ph.D stay prose) */
static gboolean
is_dotted (const char *s,
           gsize       n,
           char        sep,
           gsize       sep_len)
{
  gsize start = 0, parts = 0;
  gboolean long_part = FALSE;

  for (gsize i = 0; i <= n; i++)
    if (i == n || (s[i] == sep && i + sep_len <= n && (sep_len == 1 || s[i + 1] == sep)))
      {
        if (!is_name (s + start, i - start))
          return FALSE;
        if (i - start >= 3)
          long_part = TRUE;
        parts++;
        if (i < n)
          i += sep_len - 1;
        start = i + 1;
      }

  return parts >= 2 && (long_part || sep_len == 2);
}

/* kebab-case: vue-router, json-glib, x86-64, ABC-123 — but not well-known or kira-kira */
static gboolean
is_hyphenated (const char *s,
               gsize       n)
{
  gsize start = 0, parts = 0;
  gboolean digit = FALSE, letter = FALSE, upper = FALSE, lower = FALSE, prose = TRUE;

  for (gsize i = 0; i <= n; i++)
    {
      if (i == n || s[i] == '-')
        {
          gsize len = i - start;
          gboolean alpha_lower = TRUE;

          if (len == 0)
            return FALSE;
          for (gsize k = start; k < i; k++)
            if (!g_ascii_islower (s[k]))
              alpha_lower = FALSE;
          if (!alpha_lower || !_winnow_protect_is_prose_part (s + start, len))
            prose = FALSE;
          parts++;
          start = i + 1;
          continue;
        }
      if (g_ascii_isdigit (s[i]))
        digit = TRUE;
      else if (g_ascii_isupper (s[i]))
        letter = upper = TRUE;
      else if (g_ascii_islower (s[i]))
        letter = lower = TRUE;
      else
        return FALSE;
    }

  if (parts < 2)
    return FALSE;
  if (digit)
    return letter;
  if (upper)
    return !lower; /* FOO-BAR; Jean-Pierre and Content-Type read as prose */

  /* reduplication (Indonesian plurals, anak-anak) */
  {
    const char *dash = memchr (s, '-', n);
    gsize first = dash - s;

    if (parts == 2 && n - first - 1 == first && memcmp (s, dash + 1, first) == 0)
      return FALSE;
  }

  return !prose;
}

/* camelCase, PascalCase with an inner capital, letters with digits (x86, TS2322) */
static gboolean
is_mixed_word (const char *s,
               gsize       n)
{
  gboolean upper = FALSE, lower = FALSE, digit = FALSE, inner_upper = FALSE;

  for (gsize i = 0; i < n; i++)
    {
      if (g_ascii_isupper (s[i]))
        {
          upper = TRUE;
          if (i > 0)
            inner_upper = TRUE;
        }
      else if (g_ascii_islower (s[i]))
        lower = TRUE;
      else if (g_ascii_isdigit (s[i]))
        digit = TRUE;
      else
        return FALSE;
    }

  if (!g_ascii_isalpha (s[0]))
    return FALSE;
  if (digit)
    return TRUE;
  if (!(upper && lower))
    return FALSE;
  if (g_ascii_islower (s[0]))
    return TRUE;

  /* URLs, APIs, IDs: an acronym's plural is a word */
  if (n >= 3 && s[n - 1] == 's')
    {
      gboolean acronym = TRUE;

      for (gsize i = 0; i + 1 < n; i++)
        if (!g_ascii_isupper (s[i]))
          acronym = FALSE;
      if (acronym)
        return FALSE;
    }

  return inner_upper;
}

static gboolean
is_identifier (const char *s,
               gsize       n)
{
  gsize i;
  guint dots = 0, hyphens = 0, underscores = 0, colons = 0, letters = 0, digits = 0, other = 0;
  const char *eq;

  switch (s[0])
    {
    case '-':
      /* --flag, --flag=value, -x, -Wall, -O2 */
      i = (n >= 3 && s[1] == '-') ? 2 : 1;
      if (i >= n || !(g_ascii_isalpha (s[i]) || (i == 2 && g_ascii_isdigit (s[i]))))
        return FALSE;
      while (i < n && (_winnow_protect_is_word_char (s[i]) || s[i] == '-'))
        i++;
      return i == n || s[i] == '=';

    case '$':
      if (n >= 3 && ((s[1] == '{' && s[n - 1] == '}') || (s[1] == '(' && s[n - 1] == ')')))
        return TRUE;
      return n >= 2 && (g_ascii_isalpha (s[1]) || s[1] == '_') && is_name (s + 1, n - 1);

    case '%':
      return n >= 3 && s[n - 1] == '%' && is_name (s + 1, n - 2);

    case '#':
      if (n >= 2 && _winnow_protect_count_digits (s, n, 1) == n - 1)
        return TRUE;
      if (n < 2 || !(g_ascii_isalpha (s[1]) || s[1] == '_'))
        return FALSE;
      for (i = 2; i < n; i++)
        if (!(_winnow_protect_is_word_char (s[i]) || s[i] == '-'))
          return FALSE;
      return TRUE;

    case '@':
      /* @scope/pkg, @scope/pkg@1.2, @user, @decorator.name */
      i = 1;
      if (i >= n || !_winnow_protect_is_word_char (s[i]))
        return FALSE;
      while (i < n && (_winnow_protect_is_word_char (s[i]) || is_one_of (s[i], ".-")))
        i++;
      if (i < n && s[i] == '/')
        {
          i++;
          while (i < n && (_winnow_protect_is_word_char (s[i]) || is_one_of (s[i], ".-")))
            i++;
        }
      if (i < n && s[i] == '@')
        {
          i++;
          while (i < n && (_winnow_protect_is_word_char (s[i]) || is_one_of (s[i], ".-^~*")))
            i++;
        }
      return i == n;

    default:
      break;
    }

  /* NAME=value (an environment assignment) */
  eq = memchr (s, '=', n);
  if (eq != NULL)
    {
      gsize len = eq - s;

      if (len == 0 || !(g_ascii_isupper (s[0]) || s[0] == '_'))
        return FALSE;
      for (i = 0; i < len; i++)
        if (!(g_ascii_isupper (s[i]) || g_ascii_isdigit (s[i]) || s[i] == '_'))
          return FALSE;
      return TRUE;
    }

  /* foo(), obj.method(), Vec<String> */
  if (n > 2 && s[n - 2] == '(' && s[n - 1] == ')')
    return is_name (s, n - 2) || is_dotted (s, n - 2, '.', 1) || is_dotted (s, n - 2, ':', 2);
  if (n > 3 && s[n - 1] == '>')
    {
      const char *lt = memchr (s, '<', n);

      if (lt != NULL && lt > s && is_name (s, lt - s))
        return TRUE;
    }

  for (i = 0; i < n; i++)
    {
      guchar c = s[i];

      if (g_ascii_isalpha (c))
        letters++;
      else if (g_ascii_isdigit (c))
        digits++;
      else if (c == '.')
        dots++;
      else if (c == '-')
        hyphens++;
      else if (c == '_')
        underscores++;
      else if (c == ':')
        colons++;
      else
        other++;
    }

  if (other > 0 || letters + digits == 0)
    return FALSE;

  if (colons > 0)
    {
      const char *colon = memchr (s, ':', n);
      gsize host = colon - s;

      /* host:port */
      if (colons == 1 && host > 0 && n - host - 1 >= 1 && n - host - 1 <= 5 &&
          _winnow_protect_count_digits (s, n, host + 1) == n - host - 1 && hyphens + dots + letters > 0)
        return TRUE;
      /* std::vec::Vec */
      return dots + hyphens == 0 && is_dotted (s, n, ':', 2);
    }

  if (dots > 0 && hyphens == 0 && is_dotted (s, n, '.', 1))
    return TRUE;

  if (hyphens > 0 && dots == 0 && underscores == 0)
    return is_hyphenated (s, n);

  if (underscores > 0 && dots == 0 && hyphens == 0)
    return letters + digits > 0;

  if (dots + hyphens + underscores > 0)
    /* GPL-3.0-or-later, ubuntu-22.04, python3.11 */
    return letters > 0 && digits > 0 && s[0] != '.' && s[n - 1] != '.';

  return is_mixed_word (s, n);
}

/* git@github.com:owner/repo.git and other scp-style remotes */
static gboolean
is_scp_remote (const char *s,
               gsize       n)
{
  const char *at = memchr (s, '@', n);
  const char *colon;
  gsize i;

  if (at == NULL || at == s)
    return FALSE;
  for (i = 0; s + i < at; i++)
    if (!(_winnow_protect_is_word_char (s[i]) || s[i] == '.' || s[i] == '-'))
      return FALSE;
  colon = memchr (at, ':', n - (at - s));
  if (colon == NULL || colon == at + 1 || (gsize) (colon - s) + 2 > n || colon[1] == '/' ||
      colon[1] == ':')
    return FALSE;
  return memchr (at + 1, '.', colon - at - 1) != NULL && path_chars (colon + 1, n - (colon - s) - 1);
}

static gboolean
is_email (const char *s,
          gsize       n)
{
  const char *at = memchr (s, '@', n);
  gsize local;

  if (at == NULL || at == s)
    return FALSE;
  local = at - s;
  for (gsize i = 0; i < local; i++)
    if (!(_winnow_protect_is_word_char (s[i]) || is_one_of (s[i], ".%+-")))
      return FALSE;

  {
    const char *domain = at + 1;
    gsize dn = n - local - 1;
    const char *last_dot = memrchr (domain, '.', dn);
    gsize tld;

    if (last_dot == NULL || last_dot == domain)
      return FALSE;
    for (gsize i = 0; i < dn; i++)
      if (!(g_ascii_isalnum (domain[i]) || domain[i] == '-' || domain[i] == '.'))
        return FALSE;
    tld = dn - (last_dot - domain) - 1;
    if (tld < 2)
      return FALSE;
    for (gsize i = 0; i < tld; i++)
      if (!g_ascii_isalpha (last_dot[1 + i]))
        return FALSE;
    return TRUE;
  }
}

/* react@18.2.0, actions/checkout@v4, left-pad@latest */
static gboolean
is_package_spec (const char *s,
                 gsize       n)
{
  const char *at = memrchr (s, '@', n);
  gsize name, i;

  if (at == NULL || at == s)
    return FALSE;
  name = at - s;
  for (i = 0; i < name; i++)
    if (!(_winnow_protect_is_word_char (s[i]) || is_one_of (s[i], "./-@")))
      return FALSE;
  for (i = name + 1; i < n; i++)
    if (!(_winnow_protect_is_word_char (s[i]) || is_one_of (s[i], ".-^~*")))
      return FALSE;
  /* the part after @ is a version or a tag */
  for (i = name + 1; i < n; i++)
    if (g_ascii_isdigit (s[i]) || s[i] == '*')
      return TRUE;
  return equal_word (at + 1, n - name - 1, "latest") || equal_word (at + 1, n - name - 1, "next") ||
         equal_word (at + 1, n - name - 1, "canary") || equal_word (at + 1, n - name - 1, "beta");
}

/* The kind of a whole token, or -1 for prose. */
static int
classify (const char *s,
          gsize       n)
{
  guchar c = s[0];
  int kind;

  if (n == 0)
    return -1;

  /* the common case, decided at once: a word of letters, capitalised at most */
  {
    gboolean plain = TRUE;

    for (gsize i = 0; i < n && plain; i++)
      {
        guchar b = s[i];

        plain = g_ascii_islower (b) || b >= 0x80 || (i == 0 && g_ascii_isupper (b));
      }
    if (plain)
      return g_ascii_isupper (c) && _winnow_protect_is_file_name (s, n) ? WINNOW_PROTECT_PATH : -1;
  }

  if (c != '@' && memchr (s, '@', n) != NULL)
    {
      if (is_scp_remote (s, n))
        return WINNOW_PROTECT_URL;
      if (is_email (s, n))
        return WINNOW_PROTECT_EMAIL;
      if (is_package_spec (s, n))
        return WINNOW_PROTECT_IDENTIFIER;
    }

  if (g_ascii_isdigit (c) || (n > 1 && (c == '-' || c == '+' || c == '$') && g_ascii_isdigit (s[1])))
    {
      if (is_date (s, n))
        return WINNOW_PROTECT_DATE;
      if (is_version (s, n))
        return WINNOW_PROTECT_VERSION;
      if (is_hex_hash (s, n))
        return WINNOW_PROTECT_IDENTIFIER;
      if (is_number (s, n))
        return WINNOW_PROTECT_NUMBER;
    }
  else if ((c == 'v' || c == 'V' || c == '^' || c == '~' || c == '<' || c == '>' ||
            c == '=' || c == '!') && is_version (s, n))
    return WINNOW_PROTECT_VERSION;

  kind = classify_path (s, n);
  if (kind >= 0)
    return kind;

  if (is_identifier (s, n))
    return WINNOW_PROTECT_IDENTIFIER;

  return -1;
}

/* ---- emitting ---------------------------------------------------------------------------- */

static void
emit (Lexer             *lx,
      gsize              start,
      gsize              end,
      WinnowProtectKind  kind)
{
  _winnow_protect_push (lx->spans, start, end, kind);
}

/* Notes the word [s, e) (already stripped) as the latest on the line. */
static void
remember (Lexer *lx,
          gsize  s,
          gsize  e)
{
  memmove (&lx->recent[1], &lx->recent[0], sizeof (Word) * (N_RECENT - 1));
  lx->recent[0].start = s;
  lx->recent[0].end = e;
  lx->n_recent = MIN (lx->n_recent + 1, N_RECENT);
}

static inline const char *
recent_word (Lexer *lx,
             guint  i,
             gsize *len)
{
  *len = lx->recent[i].end - lx->recent[i].start;
  return lx->text + lx->recent[i].start;
}

/* ---- inline code ------------------------------------------------------------------------- */

/* A backtick run at @p: a code span to the next run of the same length, within the paragraph;
 * without one the run is literal text. */
static gsize
lex_code (Lexer *lx,
          gsize  p)
{
  const char *t = lx->text;
  gsize n = 0, q, i;

  while (p + n < lx->end && t[p + n] == '`')
    n++;
  q = p + n;
  lx->n_recent = 0;

  if (n > MAX_TICKS || q < lx->tick_fail[n])
    return q;

  for (i = q; i < lx->end; )
    {
      if (t[i] == '`')
        {
          gsize m = 0;

          while (i + m < lx->end && t[i + m] == '`')
            m++;
          if (m == n)
            {
              emit (lx, p, i + m, WINNOW_PROTECT_INLINE_CODE);
              return i + m;
            }
          i += m;
        }
      else if (t[i] == '\n')
        {
          gsize k = i + 1;

          while (k < lx->end && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
            k++;
          if (k >= lx->end || t[k] == '\n')
            break; /* a blank line ends the paragraph */
          i = k;
        }
      else
        i++;
    }

  lx->tick_fail[n] = i;
  return q;
}

/* ---- calls ------------------------------------------------------------------------------- */

static void
fill_paren_window (Lexer *lx,
                   gsize  start)
{
  const char *t = lx->text;
  gsize end = MIN (start + CALL_WINDOW, lx->end);
  const char *nl = memchr (t + start, '\n', end - start);
  guint8 stack[CALL_WINDOW];
  guint depth = 0;

  if (nl != NULL)
    end = nl - t;

  lx->paren_start = start;
  lx->paren_end = end;
  memset (lx->paren_close, 0, sizeof lx->paren_close);

  for (gsize i = start; i < end; i++)
    {
      if (t[i] == '(')
        stack[depth++] = (guint8) (i - start);
      else if (t[i] == ')' && depth > 0)
        {
          guint8 open = stack[--depth];

          lx->paren_close[open] = (guint8) (i - start - open);
        }
    }
}

/* Where the '(' at @open closes on its line, or 0. Windows of bytes are scanned once each
 * (a window restarts at most every half window), so calls cost linear time overall. */
static gsize
match_paren (Lexer *lx,
             gsize  open)
{
  if (open < lx->paren_start || open >= lx->paren_end ||
      (open - lx->paren_start > CALL_WINDOW / 2 && lx->paren_close[open - lx->paren_start] == 0))
    fill_paren_window (lx, open);

  if (lx->paren_close[open - lx->paren_start] == 0)
    return 0;
  return open + lx->paren_close[open - lx->paren_start];
}

static gboolean
is_callable (const char *t,
             gsize       s,
             gsize       e)
{
  if (e <= s || !(g_ascii_isalpha (t[s]) || t[s] == '_' || t[s] == '$'))
    return FALSE;
  for (gsize i = s; i < e; i++)
    if (!(_winnow_protect_is_word_char (t[i]) || t[i] == '$' || t[i] == '.' || t[i] == ':' ||
          t[i] == '!'))
      return FALSE;
  return t[e - 1] != '.' && t[e - 1] != ':';
}

/* ---- pieces ------------------------------------------------------------------------------ */

static inline gboolean
is_hard (guchar c)
{
  return has_class (c, CC_HARD);
}

/* The token in [s, e) did not classify as a whole: split it at brackets, quotes, commas and
 * the like, and try each piece. Returns how far the text was consumed (a call's arguments
 * may run past @b). */
static gsize
lex_pieces (Lexer *lx,
            gsize  s,
            gsize  e,
            gsize  b)
{
  const char *t = lx->text;
  gsize i = s;

  while (i < e)
    {
      gsize ps, pe, qs, qe;
      int kind;

      if (is_hard (t[i]))
        {
          gsize op = version_operator (t, e, i);

          if (op == 0)
            {
              i++;
              continue;
            }
          ps = i; /* `>=3.8` starts a piece */
          i += op;
        }
      else
        ps = i;

      while (i < e && !is_hard (t[i]))
        i++;
      pe = i;

      if (pe < lx->end && t[pe] == '(' && is_callable (t, ps, pe))
        {
          gsize close = match_paren (lx, pe);

          /* file(s), match(es): a plural, not a call */
          if (close > 0 && (close - pe == 2 || close - pe == 3) && t[close - 1] == 's')
            close = 0;
          if (close > 0)
            {
              emit (lx, ps, close + 1, WINNOW_PROTECT_IDENTIFIER);
              i = close + 1;
              if (i >= e)
                return MAX (i, b);
              continue;
            }
        }

      qs = ps;
      qe = pe;
      strip_wrappers (t, &qs, &qe);
      if (qs < qe && (kind = classify (t + qs, qe - qs)) >= 0)
        emit (lx, qs, qe, kind);
    }

  return b;
}

/* ---- multi-word shapes ------------------------------------------------------------------- */

static gboolean
is_operator_chunk (const char *s,
                   gsize       n)
{
  return equal_word (s, n, "&&") || equal_word (s, n, "||") || equal_word (s, n, "|") ||
         equal_word (s, n, ";");
}

/* an argument that cannot be an ordinary word */
static gboolean
is_technical_arg (const char *s,
                  gsize       n)
{
  if (s[0] == '-')
    return TRUE;
  for (gsize i = 0; i < n; i++)
    if (g_ascii_isdigit (s[i]) || has_class (s[i], CC_TECH))
      return TRUE;
  return FALSE;
}

static gboolean
is_plain_arg (const char *s,
              gsize       n)
{
  for (gsize i = 0; i < n; i++)
    if (!(g_ascii_islower (s[i]) || g_ascii_isdigit (s[i]) || s[i] == '-'))
      return FALSE;
  return n > 0;
}

/* where an argument ends once sentence punctuation after it is dropped */
static gsize
sentence_end (const char *t,
              gsize       s,
              gsize       e)
{
  while (e > s)
    {
      guchar c = t[e - 1];

      if (c == '.' && e - s >= 2 && t[e - 2] == '.')
        break;
      if (has_class (c, CC_SENTENCE))
        e--;
      else if ((c == ')' || c == ']' || c == '}') && unbalanced (t, s, e, c))
        e--;
      else
        break;
    }
  return e;
}

/* "run npm install --save-dev vitest", "git push origin main", "sudo apt install jq",
 * "make -j4 && make test": a tool word and the arguments that follow it on the line. */
static gsize
try_command (Lexer *lx,
             gsize  a,
             gsize  b)
{
  const char *t = lx->text;
  const ProtectTool *tool, *current;
  ToolPolicy policy;
  gsize tool_end = sentence_end (t, a, b), q, last, len;
  gboolean trigger = FALSE, first = TRUE, script = FALSE;
  guint args = 0, technical = 0, plain_run = 0;

  tool = _winnow_protect_lookup_tool (t + a, tool_end - a);
  if (tool == NULL)
    {
      /* ./configure, ./dev */
      if (b - a < 3 || t[a] != '.' || t[a + 1] != '/' || tool_end != b)
        return 0;
      for (gsize i = a + 2; i < b; i++)
        if (!(_winnow_protect_is_word_char (t[i]) || t[i] == '-' || t[i] == '.'))
          return 0;
      script = TRUE;
    }

  if (lx->n_recent > 0)
    {
      const char *w = recent_word (lx, 0, &len);

      trigger = _winnow_protect_is_trigger (w, len);
    }

  if (tool_end < b)
    {
      if (!trigger || tool_end == a)
        return 0;
      emit (lx, a, tool_end, WINNOW_PROTECT_COMMAND);
      return b;
    }

  current = tool;
  policy = tool != NULL ? tool->policy : TOOL_ANY;
  q = last = b;

  for (;;)
    {
      gsize cs, ce, ae;
      gboolean stop_after;

      if (!next_chunk (lx, q, &cs, &ce))
        break;

      if (is_operator_chunk (t + cs, ce - cs))
        {
          gsize ts, te;
          const ProtectTool *chained;

          if (!next_chunk (lx, ce, &ts, &te) ||
              (chained = _winnow_protect_lookup_tool (t + ts, te - ts)) == NULL)
            break;
          current = chained;
          policy = chained->policy;
          first = TRUE;
          q = last = te;
          continue;
        }

      if (t[cs] == '"' || t[cs] == '\'')
        {
          const char *close = NULL;
          gsize limit = MIN (lx->end, cs + 256);

          for (gsize k = cs + 1; k < limit && t[k] != '\n'; k++)
            if (t[k] == t[cs])
              {
                close = t + k;
                break;
              }
          if (close == NULL)
            break;
          ae = close - t + 1;
          args++;
          technical++;
          plain_run = 0;
          first = FALSE;
          last = ae;
          q = ae;
          if (ae < lx->end && has_class (t[ae], CC_SENTENCE))
            break;
          continue;
        }

      ae = sentence_end (t, cs, ce);
      stop_after = ae < ce;
      if (ae == cs)
        break;

      if (policy == TOOL_PREFIX && first)
        {
          const ProtectTool *chained = _winnow_protect_lookup_tool (t + cs, ae - cs);

          if (t[cs] == '-' && !stop_after)
            {
              q = ce;
              continue;
            }
          if (chained == NULL)
            break;
          current = chained;
          policy = chained->policy;
          args++;
          last = ae;
          q = ce;
          if (stop_after)
            break;
          continue;
        }

      if (is_technical_arg (t + cs, ae - cs))
        {
          technical++;
          plain_run = 0;
        }
      else
        {
          /* a capitalised word is prose again */
          if (!is_plain_arg (t + cs, ae - cs))
            break;
          if (!(first && current != NULL && _winnow_protect_is_subcommand (current, t + cs, ae - cs)))
            {
              if (_winnow_protect_is_stopword (t + cs, ae - cs))
                break;
              if (first && !trigger && (policy == TOOL_SUBCOMMAND || policy == TOOL_TECHNICAL))
                break;
              if (plain_run >= 3)
                break;
            }
          plain_run++;
        }

      first = FALSE;
      args++;
      last = ae;
      q = ce;
      if (stop_after)
        break;
    }

  if (args == 0 && !trigger)
    return 0;
  if (tool != NULL && tool->policy == TOOL_ENGLISH && !trigger && technical == 0)
    return 0;
  if (script && args == 0 && !trigger)
    return 0;

  emit (lx, a, last, WINNOW_PROTECT_COMMAND);
  return last;
}

typedef enum
{
  DT_OTHER,
  DT_DAY_NAME,
  DT_MONTH,
  DT_DAY,
  DT_YEAR,
  DT_TIME,
  DT_ZONE,
} DateToken;

typedef struct
{
  gsize     start;
  gsize     end;   /* without a trailing comma or period */
  DateToken kind;
} DatePart;

static DateToken
date_token (const char *s,
            gsize       n)
{
  gsize d = _winnow_protect_count_digits (s, n, 0);

  if (n == 0)
    return DT_OTHER;
  if (d == n && (n == 1 || n == 2) && number_at (s, 0, n) >= 1 && number_at (s, 0, n) <= 31)
    return DT_DAY;
  if (d == n && n == 4)
    return DT_YEAR;
  if (g_ascii_isdigit (s[0]))
    return is_time (s, n) ? DT_TIME : DT_OTHER;
  if (is_zone (s, n))
    return DT_ZONE;
  if (_winnow_protect_month (s, n) > 0)
    return DT_MONTH;
  if (_winnow_protect_is_day_name (s, n))
    return DT_DAY_NAME;
  return DT_OTHER;
}

/* "18 Apr 2026", "April 18, 2026", "Sat, 18 Apr 2026 09:00:00 GMT",
 * "Sat Apr 18 09:00:12 2026 +0200" (git, ctime) */
static gsize
try_named_date (Lexer *lx,
                gsize  s,
                gsize  e,
                gsize  b)
{
  const char *t = lx->text;
  DatePart parts[8];
  guint n = 0, i = 0;
  gsize q = s;
  gboolean year = FALSE;

  /* cheap refusal: a date starts with a day name, a month name or a day of the month */
  if (e - s > 10 || s >= e || !(g_ascii_isupper (t[s]) || g_ascii_isdigit (t[s])))
    return 0;
  {
    DateToken k = date_token (t + s, e - s);

    if (k != DT_DAY_NAME && k != DT_MONTH && k != DT_DAY)
      return 0;
  }

  for (n = 0; n < G_N_ELEMENTS (parts); )
    {
      gsize cs, ce;
      gboolean last = FALSE;

      if (n == 0)
        {
          cs = s;
          ce = b;
        }
      else if (!next_chunk (lx, q, &cs, &ce))
        break;
      q = ce;
      parts[n].start = cs;
      parts[n].end = sentence_end (t, cs, ce);
      /* "18 Apr, 2026" goes on after a comma, not after other punctuation */
      for (gsize k = parts[n].end; k < ce; k++)
        if (t[k] != ',' && t[k] != '.')
          last = TRUE;
      parts[n].kind = date_token (t + cs, parts[n].end - cs);
      if (parts[n].kind == DT_OTHER)
        break;
      n++;
      if (last)
        break;
    }

  if (i < n && parts[i].kind == DT_DAY_NAME)
    i++;
  if (i + 1 < n && parts[i].kind == DT_DAY && parts[i + 1].kind == DT_MONTH)
    i += 2;
  else if (i + 1 < n && parts[i].kind == DT_MONTH && parts[i + 1].kind == DT_DAY)
    i += 2;
  else
    return 0;

  if (i < n && parts[i].kind == DT_YEAR)
    {
      i++;
      year = TRUE;
    }
  if (i < n && parts[i].kind == DT_TIME)
    {
      i++;
      if (i < n && parts[i].kind == DT_ZONE)
        i++;
      if (!year && i < n && parts[i].kind == DT_YEAR)
        {
          i++;
          year = TRUE;
          if (i < n && parts[i].kind == DT_ZONE)
            i++;
        }
    }
  if (!year)
    return 0;

  emit (lx, parts[0].start, parts[i - 1].end, WINNOW_PROTECT_DATE);
  return parts[i - 1].end;
}

/* main, master, develop or trunk after a branch word ("merge into main", "push to main",
 * "the main branch") */
static gboolean
try_branch_word (Lexer *lx,
                 gsize  s,
                 gsize  e,
                 gsize  b)
{
  const char *t = lx->text;
  gsize len, cs, ce;
  gboolean branch = FALSE;

  if (e - s < 4 || e - s > 7)
    return FALSE;
  if (!(equal_word (t + s, e - s, "main") || equal_word (t + s, e - s, "master") ||
        equal_word (t + s, e - s, "develop") || equal_word (t + s, e - s, "trunk")))
    return FALSE;

  if (lx->n_recent > 0)
    {
      const char *w = recent_word (lx, 0, &len);

      if (_winnow_protect_is_branch_verb (w, len))
        branch = TRUE;
      else if (equal_word (w, len, "from") || equal_word (w, len, "to") ||
               equal_word (w, len, "on") || equal_word (w, len, "off") ||
               equal_word (w, len, "against") || equal_word (w, len, "with"))
        for (guint i = 1; i < lx->n_recent && !branch; i++)
          {
            w = recent_word (lx, i, &len);
            branch = _winnow_protect_is_branch_verb (w, len);
          }
    }

  if (!branch && e == b && next_chunk (lx, b, &cs, &ce))
    {
      gsize we = sentence_end (t, cs, ce);

      branch = equal_word (t + cs, we - cs, "branch");
    }

  if (branch)
    emit (lx, s, e, WINNOW_PROTECT_BRANCH);
  return branch;
}

/* ---- chunks ------------------------------------------------------------------------------ */

/* Finds the first URL in [p, b): scheme://…, www.…, mailto:… */
static gboolean
find_url (Lexer *lx,
          gsize  p,
          gsize  b,
          gsize *us,
          gsize *ue)
{
  const char *t = lx->text;

  for (gsize i = p; i < b; i++)
    {
      gsize start = G_MAXSIZE, body = 0, e;

      if (t[i] == ':' && i + 3 < b && t[i + 1] == '/' && t[i + 2] == '/')
        {
          gsize k = i;

          while (k > p && (g_ascii_isalnum (t[k - 1]) || is_one_of (t[k - 1], "+.-")))
            k--;
          while (k < i && !g_ascii_isalpha (t[k]))
            k++;
          if (i - k >= 2)
            {
              start = k;
              body = i + 3;
            }
        }
      else if (t[i] == ':' && i >= p + 6 && i + 1 < b && memcmp (t + i - 6, "mailto", 6) == 0 &&
               (i - 6 == p || !g_ascii_isalnum (t[i - 7])))
        {
          start = i - 6;
          body = i + 1;
        }
      else if (t[i] == '.' && i >= p + 3 && i + 1 < b && g_ascii_isalnum (t[i + 1]) &&
               _winnow_ascii_equal_lower (t + i - 3, "www", 3) &&
               (i - 3 == p || !g_ascii_isalnum (t[i - 4])))
        {
          start = i - 3;
          body = i + 1;
        }

      if (start == G_MAXSIZE)
        continue;

      e = body;
      while (e < b && !has_class (t[e], CC_URL_STOP))
        e++;
      for (;;)
        {
          guchar c;

          if (e <= body)
            break;
          c = t[e - 1];
          if (has_class (c, CC_URL_TRIM))
            e--;
          else if ((c == ')' || c == ']' || c == '}') && unbalanced (t, start, e, c))
            e--;
          else
            break;
        }
      if (e <= body)
        continue;

      *us = start;
      *ue = e;
      return TRUE;
    }

  return FALSE;
}

/* One token (or, failing that, its pieces) in [s, e), the stripped form of [a, b); returns
 * how far it consumed. */
static gsize
lex_token (Lexer *lx,
           gsize  s,
           gsize  e,
           gsize  b)
{
  const char *t = lx->text;
  gsize consumed = b;
  int kind;

  if (s >= e)
    return b;

  kind = classify (t + s, e - s);
  if (kind < 0)
    return lex_pieces (lx, s, e, b);

  /* 2026-04-18 09:00:12 +0200: a date, then a time, then a zone */
  if (kind == WINNOW_PROTECT_DATE && e == b)
    for (int k = 0; k < 2; k++)
      {
        gsize cs, ce, we;

        if (consumed >= lx->end || t[consumed] != ' ' || !next_chunk (lx, consumed, &cs, &ce))
          break;
        we = sentence_end (t, cs, ce);
        if (we == cs || !((k == 0 && is_time (t + cs, we - cs)) || is_zone (t + cs, we - cs)))
          break;
        e = we;
        consumed = ce;
        if (we < ce || is_zone (t + cs, we - cs))
          break;
      }

  emit (lx, s, e, (WinnowProtectKind) kind);
  return consumed;
}

static gsize
lex_plain (Lexer *lx,
           gsize  a,
           gsize  b)
{
  gsize s = a, e = b;

  strip_wrappers (lx->text, &s, &e);
  return lex_token (lx, s, e, b);
}

static gsize
lex_urls (Lexer *lx,
          gsize  a,
          gsize  b,
          gsize  s,
          gsize  e)
{
  gsize p = a, us, ue;

  if (!find_url (lx, a, b, &us, &ue))
    return lex_token (lx, s, e, b);

  while (p < b && find_url (lx, p, b, &us, &ue))
    {
      if (us > p)
        {
          gsize consumed = lex_plain (lx, p, us);

          if (consumed > us)
            {
              p = consumed;
              continue;
            }
        }
      emit (lx, us, ue, WINNOW_PROTECT_URL);
      p = ue;
    }

  if (p < b)
    return lex_plain (lx, p, b);
  return p;
}

static gsize
lex_chunk (Lexer *lx,
           gsize  a)
{
  gsize b = chunk_end (lx, a), s = a, e = b, next;

  if ((next = try_command (lx, a, b)) > 0)
    {
      lx->n_recent = 0;
      return next;
    }

  strip_wrappers (lx->text, &s, &e);
  if ((next = try_named_date (lx, s, e, b)) > 0)
    return next;
  if (try_branch_word (lx, s, e, b))
    next = b;
  else
    next = lex_urls (lx, a, b, s, e);

  remember (lx, s, e);
  return MAX (next, b);
}

void
_winnow_protect_scan_inline (const char *text,
                             gsize       start,
                             gsize       end,
                             GArray     *spans)
{
  Lexer lx;
  gsize p = start;

  memset (&lx, 0, sizeof lx);
  lx.text = text;
  lx.end = end;
  lx.spans = spans;

  while (p < end)
    {
      guchar c = text[p];

      if (c == '\n')
        {
          lx.n_recent = 0;
          p++;
        }
      else if (c == '`')
        p = lex_code (&lx, p);
      else if (chunk_char (text, p, end) > 0)
        p = lex_chunk (&lx, p);
      else
        p += boundary_len (text, p, end);
    }
}
