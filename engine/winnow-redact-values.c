/* winnow-redact-values.c — values that are not secrets, and values that look random
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the context matchers ask of a value before they redact it: whether it is a
 * placeholder people write instead of a secret (masks, variables, templates, markers), and
 * whether an unnamed value is random-looking enough to be one (the entropy rule).
 */

#define G_LOG_DOMAIN "winnow-redact"

#include "config.h"

#include <string.h>

#include "winnow-redact-private.h"

/* entropy is measured on values of this length and longer */
#define ENTROPY_MIN_LENGTH 20

/* ---- values that are not secrets --------------------------------------------------------- */

/* `self.password`, `config.db.token`: code naming a value, not the value */
static gboolean
is_dotted_identifier (const char *v,
                      gsize       n)
{
  gboolean dot = FALSE, segment_start = TRUE;

  for (gsize i = 0; i < n; i++)
    {
      guchar c = v[i];

      if (c == '.')
        {
          if (segment_start)
            return FALSE;
          dot = segment_start = TRUE;
        }
      else if (segment_start ? (g_ascii_islower (c) || c == '_')
                             : (g_ascii_islower (c) || g_ascii_isdigit (c) || c == '_'))
        segment_start = FALSE;
      else
        return FALSE;
    }
  return dot && !segment_start;
}

/* The values people write instead of a secret: masks, variables, templates, YAML syntax,
 * the redaction markers themselves. */
gboolean
_winnow_redact_is_placeholder (const char *v,
                               gsize       n)
{
  static const char * const words[] = {
    "null", "nil", "none", "true", "false", "yes", "no", "undefined", "empty", "redacted",
    "hidden", "masked", "secret", "password", "token", "example", "placeholder", "string",
    "required", "optional", "unset", "default", "n/a", "tbd", "todo", "x-oauth-basic",
    "sensitive", "omitted", "filtered", NULL
  };
  gboolean all_mask = TRUE, all_digits = TRUE;

  if (n < 3)
    return TRUE;
  if (strchr ("$%<{[!|>&*@", v[0]) != NULL)
    return TRUE;
  if (g_ascii_strncasecmp (v, "your", 4) == 0)
    return TRUE;
  for (gsize i = 0; i < n; i++)
    {
      guchar c = v[i];

      /* `********`, `xxxxxxxx`, `••••••` (U+2022 is E2 80 A2) */
      if (c != v[0] && !(c == 0xE2 || c == 0x80 || c == 0xA2))
        all_mask = FALSE;
      if (!g_ascii_isdigit (c))
        all_digits = FALSE;
    }
  if (all_mask || (all_digits && n <= 5))
    return TRUE;
  for (guint i = 0; words[i]; i++)
    if (strlen (words[i]) == n && g_ascii_strncasecmp (v, words[i], n) == 0)
      return TRUE;
  if (memmem (v, n, "REDACTED", 8) != NULL)
    return TRUE;
  return is_dotted_identifier (v, n);
}

/* log2 without libm, which the engine does not link: x = m · 2^e with m in [1, 2), and
 * ln m = 2 atanh ((m − 1) / (m + 1)), whose series converges fast for that range. */
static double
log2_of (double x)
{
  double m = x, y, y2, term, sum = 0;
  int e = 0;

  g_assert (x > 0);
  while (m >= 2)
    {
      m /= 2;
      e++;
    }
  while (m < 1)
    {
      m *= 2;
      e--;
    }
  y = (m - 1) / (m + 1);
  y2 = y * y;
  term = y;
  for (int k = 1; k < 40; k += 2)
    {
      sum += term / k;
      term *= y2;
    }
  return e + 2 * sum / G_LN2;
}

static double
shannon_entropy (const char *v,
                 gsize       n)
{
  guint freq[256] = { 0 };
  double h = 0;

  for (gsize i = 0; i < n; i++)
    freq[(guchar) v[i]]++;
  for (guint c = 0; c < 256; c++)
    if (freq[c])
      {
        double p = (double) freq[c] / n;

        h -= p * log2_of (p);
      }
  return h;
}

static gboolean
is_uuid (const char *v,
         gsize       n)
{
  if (n != 36)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if ((i == 8 || i == 13 || i == 18 || i == 23) ? v[i] != '-' : !g_ascii_isxdigit (v[i]))
      return FALSE;
  return TRUE;
}

/* Random-looking: long enough, letters with digits or mixed case, and close to the entropy a
 * random string of that length has. The threshold is about the 1st percentile of random
 * base62 strings of the same length (0.82 · log2 n, at most 4.8 bits); paths, host names,
 * versions and words stay well below it. Hex is never random-looking here: commit ids,
 * checksums and trace ids are hex and harmless, and a hex secret under a key that names a
 * secret is caught by the assignment rule instead. */
gboolean
_winnow_redact_is_high_entropy (const char *v,
                                gsize       n)
{
  gboolean upper = FALSE, lower = FALSE, digit = FALSE, hex = TRUE;
  double threshold;

  if (n < ENTROPY_MIN_LENGTH || n > 1000)
    return FALSE;
  if (v[0] == '/' || v[0] == '.' || v[0] == '~' || v[0] == '-')
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      guchar c = v[i];

      upper |= g_ascii_isupper (c);
      lower |= g_ascii_islower (c);
      digit |= g_ascii_isdigit (c);
      hex &= g_ascii_isxdigit (c);
    }
  if (hex || is_uuid (v, n))
    return FALSE;
  if (!(upper || lower) || !(digit || (upper && lower)))
    return FALSE;
  threshold = MIN (0.82 * log2_of ((double) n), 4.8);
  return shannon_entropy (v, n) >= threshold;
}
