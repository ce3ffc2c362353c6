/* winnow-protect-names.c — identifiers, e-mail addresses and package specs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Code names in prose: snake_case, camelCase, PascalCase with an inner capital, kebab-case,
 * CONST_CASE, dotted.names, std::paths, calls (`foo()`), generics, `$VAR`, `%VAR%`, flags,
 * `#123`, `ABC-123`, `@scope/pkg`, `react@18.2.0`, `NAME=value`, `host:port`. The hard part is
 * what to leave alone, because prose has look-alikes: "e.g." and "Ph.D." (dotted parts of one
 * or two letters), "well-known" and "up-to-date" (hyphenated English: every part a common
 * word), "anak-anak" and "langkah-langkahnya" (Indonesian reduplication), "log-nya" (an
 * Indonesian enclitic), "lembre-se" and "dites-le-moi" (Romance verbs with their pronouns),
 * "ci-dessous" and "bem-vindo" (a short list), "Jean-Pierre" (capitalised parts), "Hello" (one
 * capital), "I", "API" and "URLs" (capitals alone, or an acronym's plural).
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"

static inline gboolean
is_one_of (guchar      c,
           const char *set)
{
  return c != '\0' && strchr (set, c) != NULL;
}

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

/* An Indonesian or Malay reduplication: anak-anak, and with an affix on one side
 * (langkah-langkahnya, bersama-sama, berlari-lari) */
static gboolean
is_reduplication (const char *s,
                  gsize       n)
{
  static const char * const suffixes[] = { "nya", "an", "kan", "i", "ku", "mu", "lah" };
  static const char * const prefixes[] = { "ber", "be", "me", "mem", "men", "meng", "meny",
                                           "di", "ter", "se", "ke", "pe", "per" };
  const char *dash = memchr (s, '-', n);
  const char *second = dash + 1;
  gsize first_len = dash - s;
  gsize second_len = n - first_len - 1;

  if (first_len == second_len)
    return memcmp (s, second, first_len) == 0;

  /* base-base+suffix */
  if (second_len > first_len && first_len >= 2 && memcmp (s, second, first_len) == 0)
    {
      for (gsize i = 0; i < G_N_ELEMENTS (suffixes); i++)
        if (strlen (suffixes[i]) == second_len - first_len &&
            memcmp (second + first_len, suffixes[i], second_len - first_len) == 0)
          return TRUE;
      return FALSE;
    }

  /* prefix+base-base */
  if (first_len > second_len && second_len >= 2 &&
      memcmp (s + first_len - second_len, second, second_len) == 0)
    {
      for (gsize i = 0; i < G_N_ELEMENTS (prefixes); i++)
        if (strlen (prefixes[i]) == first_len - second_len &&
            memcmp (s, prefixes[i], first_len - second_len) == 0)
          return TRUE;
    }

  return FALSE;
}

/* A Romance verb with its hyphenated pronouns: lembre-se, certifique-se, permettez-moi,
 * dites-le-moi, celui-ci, rassurez-vous. The verb is three letters or more; one or two
 * pronouns follow. Two-letter pronouns that are also language codes or common in names
 * ("en", "on", "y") are left out, so "pt-en" or "opt-on" stay names. */
static gboolean
is_clitic_form (const char *s,
                gsize       n)
{
  static const char * const clitics[] = {
    "se", "me", "te", "lo", "la", "los", "las", "le", "les", "lhe", "lhes", "nos", "vos",
    "moi", "toi", "ci", "nous", "vous", "elle", "ils", "elles", "je", "tu", "il"
  };
  const char *dash = memchr (s, '-', n);
  gsize start = dash - s + 1;
  guint pronouns = 0;

  if (dash - s < 3)
    return FALSE;

  while (start < n)
    {
      const char *next = memchr (s + start, '-', n - start);
      gsize len = (next ? (gsize) (next - s) : n) - start;
      gboolean found = FALSE;

      for (gsize i = 0; i < G_N_ELEMENTS (clitics) && !found; i++)
        found = strlen (clitics[i]) == len && memcmp (s + start, clitics[i], len) == 0;
      if (!found || ++pronouns > 2)
        return FALSE;
      start += len + 1;
    }

  return pronouns > 0;
}

/* An Indonesian enclitic on a word, often a loanword: log-nya, file-nya, coba-lah, apa-kah */
static gboolean
is_enclitic (const char *s,
             gsize       n)
{
  static const char * const enclitics[] = { "nya", "ku", "mu", "lah", "kah", "pun" };
  const char *dash = memchr (s, '-', n);
  gsize first_len = dash - s;
  gsize second_len = n - first_len - 1;

  if (first_len < 2 || memchr (dash + 1, '-', second_len) != NULL)
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (enclitics); i++)
    if (strlen (enclitics[i]) == second_len && memcmp (dash + 1, enclitics[i], second_len) == 0)
      return TRUE;

  return FALSE;
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

  if (parts == 2 && is_reduplication (s, n))
    return FALSE;
  if (is_clitic_form (s, n) || is_enclitic (s, n) || _winnow_protect_is_hyphenated_word (s, n))
    return FALSE;

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

gboolean
_winnow_protect_is_identifier (const char *s,
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
          _winnow_protect_count_digits (s, n, host + 1) == n - host - 1 &&
          hyphens + dots + letters > 0)
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
gboolean
_winnow_protect_is_scp_remote (const char *s,
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
  return memchr (at + 1, '.', colon - at - 1) != NULL &&
         _winnow_protect_path_chars (colon + 1, n - (colon - s) - 1);
}

gboolean
_winnow_protect_is_email (const char *s,
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
gboolean
_winnow_protect_is_package_spec (const char *s,
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
  {
    static const char * const tags[] = { "latest", "next", "canary", "beta", NULL };

    return _winnow_protect_word_in (at + 1, n - name - 1, tags);
  }
}
