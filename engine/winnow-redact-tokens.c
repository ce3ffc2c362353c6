/* winnow-redact-tokens.c — secrets recognised by their own shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * API keys and tokens whose prefix and alphabet say what they are (`ghp_…`, `AKIA…`, `eyJ…`),
 * replaced whole by a marker naming them. The context matchers use the same recogniser to
 * let a value that is itself such a token be counted under the token's rule.
 */

#define G_LOG_DOMAIN "winnow-redact"

#include "config.h"

#include <string.h>

#include "winnow-redact-private.h"

/* ---- tokens recognised by their own shape ------------------------------------------------ */

/* Whether a base64 run starting at @at encodes "-----BEGIN … PRIVATE KEY-----": a Kubernetes
 * secret's `tls.key` is one. Only the head is decoded; the marker shows in its first 48 bytes. */
static gboolean
is_base64_private_key (const char *t,
                       gsize       at,
                       gsize       run)
{
  gsize take = MIN (run, 64) & ~(gsize) 3;
  g_autofree char *copy = g_strndup (t + at, take);
  g_autofree guchar *decoded = NULL;
  gsize decoded_len;

  if (take < 44)
    return FALSE;
  decoded = g_base64_decode (copy, &decoded_len);
  return decoded != NULL &&
         memmem (decoded, decoded_len, "PRIVATE KEY", 11) != NULL;
}

/* The length of a token at @at (a word start) recognised by its prefix and shape, or 0. */
gsize
_winnow_redact_match_token (const char *t,
                            gsize       at,
                            gsize       n,
                            Rule       *rule)
{
  gsize r;

  switch (t[at])
    {
    case 'A':
      if (has_prefix (t, at, n, "AIza"))
        {
          r = run_of (t, at + 4, n, is_token);
          if (r >= 30 && r <= 64)
            {
              *rule = RULE_GOOGLE_API_KEY;
              return 4 + r;
            }
          return 0;
        }
      {
        static const char * const aws[] = {
          "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA", NULL
        };

        for (guint i = 0; aws[i]; i++)
          if (has_prefix (t, at, n, aws[i]))
            {
              gsize j = at + 4;

              while (j < n && j < at + 20 && (g_ascii_isupper (t[j]) || g_ascii_isdigit (t[j])))
                j++;
              if (j == at + 20 && (j == n || !is_word (t[j])))
                {
                  *rule = RULE_AWS_ACCESS_KEY_ID;
                  return 20;
                }
              return 0;
            }
      }
      return 0;

    case 'L':
      if (has_prefix (t, at, n, "LS0tLS1CRUdJTi"))
        {
          /* the head first: the run is measured only when it is consumed */
          if (!is_base64_private_key (t, at, run_of (t, at, MIN (n, at + 64), is_base64)))
            return 0;
          *rule = RULE_PRIVATE_KEY_BLOCK;
          return run_of (t, at, n, is_base64);
        }
      return 0;

    case 'e':
      if (has_prefix (t, at, n, "eyJ"))
        {
          gsize a = run_of (t, at, n, is_token), b, c;

          if (a < 10 || at + a >= n || t[at + a] != '.')
            return 0;
          b = run_of (t, at + a + 1, n, is_token);
          if (b < 10 || at + a + 1 + b >= n || t[at + a + 1 + b] != '.')
            return 0;
          c = run_of (t, at + a + b + 2, n, is_token);
          *rule = RULE_JWT;
          return a + b + c + 2;
        }
      return 0;

    case 'g':
      if (has_prefix (t, at, n, "github_pat_"))
        {
          r = run_of (t, at + 11, n, is_word);
          if (r >= 22)
            {
              *rule = RULE_GITHUB_TOKEN;
              return 11 + r;
            }
          return 0;
        }
      if (has_prefix (t, at, n, "glpat-"))
        {
          r = run_of (t, at + 6, n, is_token);
          if (r >= 20)
            {
              *rule = RULE_GITLAB_TOKEN;
              return 6 + r;
            }
          return 0;
        }
      if (n - at > 4 && t[at + 1] == 'h' && strchr ("pousr", t[at + 2]) && t[at + 3] == '_')
        {
          r = run_of (t, at + 4, n, is_alnum);
          if (r >= 30)
            {
              *rule = RULE_GITHUB_TOKEN;
              return 4 + r;
            }
        }
      return 0;

    case 'n':
      if (has_prefix (t, at, n, "npm_"))
        {
          r = run_of (t, at + 4, n, is_alnum);
          if (r >= 30)
            {
              *rule = RULE_NPM_TOKEN;
              return 4 + r;
            }
        }
      return 0;

    case 'p':
      if (has_prefix (t, at, n, "pypi-"))
        {
          r = run_of (t, at + 5, n, is_token);
          if (r >= 32)
            {
              *rule = RULE_PYPI_TOKEN;
              return 5 + r;
            }
        }
      return 0;

    case 'r':
    case 's':
      if (has_prefix (t, at + 1, n, "k_live_") || has_prefix (t, at + 1, n, "k_test_"))
        {
          r = run_of (t, at + 8, n, is_alnum);
          if (r >= 16)
            {
              *rule = RULE_STRIPE_KEY;
              return 8 + r;
            }
          return 0;
        }
      /* a digit tells a key from a branch or package name such as sk-learn-… */
      if (t[at] == 's' && has_prefix (t, at, n, "sk-"))
        {
          r = run_of (t, at + 3, n, is_token);
          if (r >= 16 && has_digit (t, at + 3, at + 3 + r))
            {
              *rule = RULE_OPENAI_KEY;
              return 3 + r;
            }
        }
      return 0;

    case 'x':
      if ((has_prefix (t, at, n, "xox") && n - at > 4 && strchr ("abprs", t[at + 3]) &&
           t[at + 4] == '-') ||
          has_prefix (t, at, n, "xapp-"))
        {
          gsize head = 5;

          r = run_of (t, at + head, n, is_token_alnum_dash);
          if (r >= 10 && has_digit (t, at + head, at + head + r))
            {
              *rule = RULE_SLACK_TOKEN;
              return head + r;
            }
        }
      return 0;

    default:
      return 0;
    }
}

/* Whether [start, end) is exactly one token; sets @rule. */
gboolean
_winnow_redact_is_whole_token (const char *t,
                               gsize       start,
                               gsize       end,
                               Rule       *rule)
{
  return end > start && _winnow_redact_match_token (t, start, end, rule) == end - start;
}

/* Redacts [start, end) as @context_rule, or as the token it is. */
void
_winnow_redact_emit_value (Scan *s,
                           gsize start,
                           gsize end,
                           Rule  context_rule)
{
  Rule rule;

  if (_winnow_redact_is_whole_token (s->text, start, end, &rule))
    _winnow_redact_emit (s, start, end, rule, _winnow_redact_rule_markers[rule]);
  else
    _winnow_redact_emit (s, start, end, context_rule, _winnow_redact_rule_markers[context_rule]);
}
