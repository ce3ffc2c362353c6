/* winnow-protect-tokens.c — what a single word of prose is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Classifies one whitespace-free token, wrapping punctuation already stripped: a date, a
 * version, a number, a path (or a scheme-less URL, or a branch), an e-mail address, an
 * identifier (winnow-protect-names.c) — or prose. The scanners are hand-written: each is a
 * single pass over a token of a few bytes, and a plain word (the overwhelmingly common case)
 * is turned away by the first loop of _winnow_protect_classify().
 *
 * Where shapes collide the order decides: dates before versions (18.04.2026), versions
 * before numbers (1.2.3 but 3.14), paths before identifiers (README.md but os.path). Prose
 * that looks technical stays prose: and/or, TCP/IP (one slash, no path-like part), Ph.D and
 * U.S (one-letter extensions are lower case), "~5 seconds" (a number, not a version range).
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"

/* ASCII punctuation by role: a table lookup, where strchr() on a set was a third of the
 * lexer's time */
const guint16 _winnow_protect_char_class[128] = {
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
is_one_of (guchar      c,
           const char *set)
{
  return c != '\0' && strchr (set, c) != NULL;
}

/* ---- dates, versions, numbers ------------------------------------------------------------ */

/* H:MM[:SS[.frac]][zone][am|pm] from @i; *@end is where it stops. */
static gboolean
match_time (const char *s,
            gsize       n,
            gsize       i,
            gsize      *end)
{
  gsize d = _winnow_protect_count_digits (s, n, i);

  if (d < 1 || d > 2 || i + d >= n || s[i + d] != ':' || _winnow_protect_number_at (s, i, d) > 24)
    return FALSE;
  i += d + 1;
  if (_winnow_protect_count_digits (s, n, i) != 2 || _winnow_protect_number_at (s, i, 2) > 59)
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

gboolean
_winnow_protect_is_time (const char *s,
                         gsize       n)
{
  gsize end;

  return match_time (s, n, 0, &end) && end == n;
}

gboolean
_winnow_protect_is_zone (const char *s,
                         gsize       n)
{
  static const char * const names[] = { "UTC", "GMT", "Z", NULL };

  if (_winnow_protect_word_in (s, n, names))
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
      month = _winnow_protect_number_at (s, i, 2);
      if (month < 1 || month > 12)
        return FALSE;
      i += 2;
      if (i == n)
        return sep == '-';
      if (s[i] != sep || _winnow_protect_count_digits (s, n, i + 1) != 2 ||
          _winnow_protect_number_at (s, i + 1, 2) < 1 ||
          _winnow_protect_number_at (s, i + 1, 2) > 31)
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
      guint first = _winnow_protect_number_at (s, 0, d), second;

      if (d2 < 1 || d2 > 2 || i >= n || s[i] != sep)
        return FALSE;
      second = _winnow_protect_number_at (s, d + 1, d2);
      y = _winnow_protect_count_digits (s, n, i + 1);
      if (i + 1 + y != n || !(y == 4 || (y == 2 && sep == '/')))
        return FALSE;
      return first >= 1 && second >= 1 && first <= 31 && second <= 31 &&
             (first <= 12 || second <= 12);
    }

  return match_time (s, n, 0, &end) && end == n;
}

gsize
_winnow_protect_version_operator (const char *s,
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
  gsize i = _winnow_protect_version_operator (s, n, 0);
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
  /* "~5 seconds" is about five; ~5.1 is a version range */
  if (s[0] == '~' && parts == 1 && !suffix && !wildcard)
    return FALSE;
  if (prefixed)
    return TRUE;
  return parts >= 3 || wildcard || (parts == 2 && suffix && !g_ascii_isdigit (s[n - 1]));
}

/* 401, 3.14, 1,000, 0x1F, 1e-5, 10ms, 5MB, 85%, -3, $5, ~5, 1-3, 1/2, 3rd */
static gboolean
is_number (const char *s,
           gsize       n)
{
  gsize i = 0, d;

  if (i < n && (s[i] == '-' || s[i] == '+' || s[i] == '~'))
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
      gsize o = n - 1;

      while (o > 0 && s[o] != '(')
        o--;
      if (o > 0)
        {
          gsize i = o + 1;

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

gboolean
_winnow_protect_path_chars (const char *s,
                            gsize       n)
{
  for (gsize i = 0; i < n; i++)
    {
      guchar c = s[i];

      if (!(g_ascii_isalnum (c) || c >= 0x80 || _winnow_protect_has_class (c, CC_PATH)))
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

  /* a scheme without a host (find_url() took every real URL) */
  if (base == 0 || !_winnow_protect_path_chars (s, base) || memmem (s, base, "://", 3) != NULL)
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

/* The kind of a whole token, or -1 for prose. */
int
_winnow_protect_classify (const char *s,
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
      if (_winnow_protect_is_scp_remote (s, n))
        return WINNOW_PROTECT_URL;
      if (_winnow_protect_is_email (s, n))
        return WINNOW_PROTECT_EMAIL;
      if (_winnow_protect_is_package_spec (s, n))
        return WINNOW_PROTECT_IDENTIFIER;
    }

  if (g_ascii_isdigit (c) ||
      (n > 1 && (c == '-' || c == '+' || c == '$' || c == '~') && g_ascii_isdigit (s[1])))
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

  if (_winnow_protect_is_identifier (s, n))
    return WINNOW_PROTECT_IDENTIFIER;

  return -1;
}

