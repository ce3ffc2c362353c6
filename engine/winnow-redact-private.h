/* winnow-redact-private.h — what the redaction pass and its matchers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * winnow-redact.c has the rules, the pass and the result object; winnow-redact-tokens.c the
 * secrets recognised by their shape, winnow-redact-context.c those recognised by their
 * context, winnow-redact-values.c the tests a value passes before it is redacted. The
 * character classes are here, inline, because every matcher calls them per byte. Nothing
 * here is public API.
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* name, marker for a whole-token match, description */
#define WINNOW_REDACT_RULES(X) \
  X (OPENAI_KEY,        "openai-key",          "[REDACTED_OPENAI_KEY]", \
     "sk-… API keys (OpenAI, Anthropic and compatible services)") \
  X (SLACK_TOKEN,       "slack-token",         "[REDACTED_SLACK_TOKEN]", \
     "Slack tokens xox[abprs]-… and app tokens xapp-…") \
  X (AWS_ACCESS_KEY_ID, "aws-access-key-id",   "[REDACTED_AWS_KEY]", \
     "AWS access key ids (AKIA…, ASIA… and the other IAM prefixes)") \
  X (SECRET_ASSIGNMENT, "secret-assignment",   "[REDACTED]", \
     "key=value, key: value and \"key\": \"value\" where the key names a secret") \
  X (AUTHORIZATION,     "authorization-header", "[REDACTED]", \
     "Authorization and Proxy-Authorization credentials; bare Bearer tokens") \
  X (GITHUB_TOKEN,      "github-token",        "[REDACTED_GITHUB_TOKEN]", \
     "GitHub tokens ghp_ gho_ ghu_ ghs_ ghr_ github_pat_") \
  X (GITLAB_TOKEN,      "gitlab-token",        "[REDACTED_GITLAB_TOKEN]", \
     "GitLab personal access tokens glpat-…") \
  X (GOOGLE_API_KEY,    "google-api-key",      "[REDACTED_GOOGLE_API_KEY]", \
     "Google API keys AIza…") \
  X (STRIPE_KEY,        "stripe-key",          "[REDACTED_STRIPE_KEY]", \
     "Stripe secret and restricted keys sk_live_ sk_test_ rk_live_ rk_test_") \
  X (AWS_SECRET_KEY,    "aws-secret-key",      "[REDACTED]", \
     "AWS secret access keys after aws_secret_access_key / SecretAccessKey") \
  X (JWT,               "jwt",                 "[REDACTED_JWT]", \
     "JSON Web Tokens eyJ….….…") \
  X (PRIVATE_KEY_BLOCK, "private-key-block",   "[REDACTED_PRIVATE_KEY]", \
     "PEM private key blocks, also base64-encoded (kubectl secrets), also unterminated") \
  X (URL_PASSWORD,      "url-password",        "[REDACTED]", \
     "passwords in URLs scheme://user:password@host") \
  X (NPM_TOKEN,         "npm-token",           "[REDACTED_NPM_TOKEN]", \
     "npm access tokens npm_…") \
  X (PYPI_TOKEN,        "pypi-token",          "[REDACTED_PYPI_TOKEN]", \
     "PyPI upload tokens pypi-…") \
  X (AZURE_STORAGE_KEY, "azure-storage-key",   "[REDACTED]", \
     "AccountKey= and SharedAccessKey= in Azure connection strings") \
  X (GCP_SERVICE_ACCOUNT, "gcp-service-account", "[REDACTED]", \
     "\"private_key\" and \"private_key_id\" fields of service-account JSON") \
  X (HIGH_ENTROPY,      "high-entropy-value",  "[REDACTED]", \
     "random-looking values of NAME=value lines in environment dumps")

typedef enum
{
#define RULE_ENUM(id, name, marker, description) RULE_##id,
  WINNOW_REDACT_RULES (RULE_ENUM)
#undef RULE_ENUM
  N_RULES
} Rule;

/* The marker of each rule for a whole-token match (winnow-redact.c). */
extern const char * const _winnow_redact_rule_markers[N_RULES];

typedef struct
{
  const char *text;
  gsize       length;
  GString    *out;      /* NULL until the first redaction */
  gsize       copied;   /* text[0, copied) is in out, or needs no copy yet */
  guint       counts[N_RULES];
} Scan;

/* ---- character classes ------------------------------------------------------------------ */

static inline gboolean
is_word (guchar c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static inline gboolean
is_token (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

static inline gboolean
is_base64 (guchar c)
{
  return g_ascii_isalnum (c) || c == '+' || c == '/' || c == '=';
}

static inline gboolean
is_key_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '.';
}

static inline gboolean
is_blank (guchar c)
{
  return c == ' ' || c == '\t';
}

/* where an unquoted value ends */
static inline gboolean
is_value_stop (guchar c)
{
  switch (c)
    {
    case ' ': case '\t': case '\r': case '\n': case '\v': case '\f': case '\0':
    case '"': case '\'': case '`': case ',': case ';': case '&': case '<': case '>':
    case '(': case ')': case '[': case ']': case '{': case '}': case '\\': case '|':
      return TRUE;
    default:
      return FALSE;
    }
}

/* the characters of a bearer / basic credential (RFC 6750 token68) */
static inline gboolean
is_credential (guchar c)
{
  return g_ascii_isalnum (c) || strchr ("._~+/=-", c) != NULL;
}

static inline gsize
run_of (const char  *t,
        gsize        from,
        gsize        n,
        gboolean   (*klass) (guchar))
{
  gsize i = from;

  while (i < n && klass ((guchar) t[i]))
    i++;
  return i - from;
}

static inline gboolean
is_alnum (guchar c)
{
  return g_ascii_isalnum (c);
}

static inline gboolean
is_token_alnum_dash (guchar c)
{
  return g_ascii_isalnum (c) || c == '-';
}

static inline gboolean
has_prefix (const char *t,
            gsize       at,
            gsize       n,
            const char *prefix)
{
  gsize len = strlen (prefix);

  return n - at >= len && memcmp (t + at, prefix, len) == 0;
}

static inline gboolean
has_prefix_ci (const char *t,
               gsize       at,
               gsize       n,
               const char *prefix)
{
  gsize len = strlen (prefix);

  return n - at >= len && g_ascii_strncasecmp (t + at, prefix, len) == 0;
}

static inline gboolean
has_digit (const char *t,
           gsize       start,
           gsize       end)
{
  for (gsize i = start; i < end; i++)
    if (g_ascii_isdigit (t[i]))
      return TRUE;
  return FALSE;
}

/* ---- winnow-redact.c --------------------------------------------------------------------- */

void _winnow_redact_emit (Scan       *s,
                          gsize       start,
                          gsize       end,
                          Rule        rule,
                          const char *marker);

/* ---- winnow-redact-tokens.c -------------------------------------------------------------- */

gsize    _winnow_redact_match_token    (const char *t,
                                        gsize       at,
                                        gsize       n,
                                        Rule       *rule);
gboolean _winnow_redact_is_whole_token (const char *t,
                                        gsize       start,
                                        gsize       end,
                                        Rule       *rule);
void     _winnow_redact_emit_value     (Scan *s,
                                        gsize start,
                                        gsize end,
                                        Rule  context_rule);

/* ---- winnow-redact-values.c -------------------------------------------------------------- */

gboolean _winnow_redact_is_placeholder  (const char *v,
                                         gsize       n);
gboolean _winnow_redact_is_high_entropy (const char *v,
                                         gsize       n);

/* ---- winnow-redact-context.c ------------------------------------------------------------- */

gsize _winnow_redact_on_assignment    (Scan  *s,
                                       gsize  i);
gsize _winnow_redact_on_url           (Scan  *s,
                                       gsize  i);
gsize _winnow_redact_on_authorization (Scan  *s,
                                       gsize  i);
gsize _winnow_redact_on_bearer        (Scan  *s,
                                       gsize  i);
gsize _winnow_redact_on_pem           (Scan  *s,
                                       gsize  i);

G_END_DECLS
