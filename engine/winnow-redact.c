/* winnow-redact.c — secrets taken out of command output before it is written to disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Raw output is retained for debugging (FORMATS.md §3), and command output is full of
 * credentials: `env` dumps, `curl -v` headers, `git remote -v` URLs, `kubectl get secret`.
 * Everything here runs before such text touches the disk, so it errs towards redacting.
 *
 * One forward pass, hand-written, instead of a regular expression per rule: the text is
 * walked once and only a few bytes wake a matcher up — a letter that starts a word and
 * starts a known token prefix (`ghp_`, `AKIA`, `eyJ` …), `:` and `=` (assignments and
 * URLs), and `-----BEGIN `. Every matcher looks at a bounded stretch of text or consumes
 * what it looked at, so the time is linear in the input whatever it holds (test-redact feeds
 * it inputs built to make a matcher crawl). A regular expression per rule would mean eighteen
 * passes, most of them without a literal first byte to skip to, and the work budget of
 * winnow-regex turns runaway backtracking into a silent miss — for redaction, a leak.
 *
 * Replacement shape, after the reference: a secret recognised by its own shape is replaced
 * whole by a marker naming it (`[REDACTED_GITHUB_TOKEN]`, `[REDACTED_AWS_KEY]`); a secret
 * recognised by its context keeps the context and loses only the value
 * (`DB_PASSWORD=[REDACTED]`, `Authorization: Bearer [REDACTED]`,
 * `https://deploy:[REDACTED]@git.example.com`). Quotes around a value are kept so that JSON
 * and YAML stay parseable. A context rule whose value is itself a recognisable token
 * (`GITHUB_TOKEN=ghp_…`) defers to the token's rule, so the count names the kind of secret.
 *
 * The output is redacted again to itself: markers are placeholders to every rule.
 * Matchers are ASCII-only and every span starts and ends next to an ASCII byte, so valid
 * UTF-8 stays valid; invalid bytes and NULs are carried through untouched.
 */

#define G_LOG_DOMAIN "winnow-redact"

#include "config.h"

#include <string.h>

#include "winnow-redact.h"

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

static const char * const rule_names[N_RULES + 1] = {
#define RULE_NAME(id, name, marker, description) name,
  WINNOW_REDACT_RULES (RULE_NAME)
#undef RULE_NAME
  NULL
};

static const char * const rule_markers[N_RULES] = {
#define RULE_MARKER(id, name, marker, description) marker,
  WINNOW_REDACT_RULES (RULE_MARKER)
#undef RULE_MARKER
};

static const char * const rule_descriptions[N_RULES] = {
#define RULE_DESCRIPTION(id, name, marker, description) description,
  WINNOW_REDACT_RULES (RULE_DESCRIPTION)
#undef RULE_DESCRIPTION
};

#define CONTEXT_MARKER "[REDACTED]"

/* how far back from a separator a key may start, and how long it may be */
#define KEY_WINDOW   96
#define KEY_MAX      64
/* a PEM body line longer than this is not one */
#define PEM_LINE_MAX 256
/* how much of a value is read to decide whether it is a secret */
#define VALUE_LOOK   1024
/* entropy is measured on values of this length and longer */
#define ENTROPY_MIN_LENGTH 20

struct _WinnowRedaction
{
  GObject  parent_instance;
  char    *text;
  gsize    length;
  guint    total;
  guint    counts[N_RULES];
};

G_DEFINE_FINAL_TYPE (WinnowRedaction, winnow_redaction, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TEXT,
  PROP_TOTAL,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

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

static gsize
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

static gboolean
has_prefix (const char *t,
            gsize       at,
            gsize       n,
            const char *prefix)
{
  gsize len = strlen (prefix);

  return n - at >= len && memcmp (t + at, prefix, len) == 0;
}

static gboolean
has_prefix_ci (const char *t,
               gsize       at,
               gsize       n,
               const char *prefix)
{
  gsize len = strlen (prefix);

  return n - at >= len && g_ascii_strncasecmp (t + at, prefix, len) == 0;
}

static gboolean
has_digit (const char *t,
           gsize       start,
           gsize       end)
{
  for (gsize i = start; i < end; i++)
    if (g_ascii_isdigit (t[i]))
      return TRUE;
  return FALSE;
}

/* ---- output ----------------------------------------------------------------------------- */

static void
emit (Scan       *s,
      gsize       start,
      gsize       end,
      Rule        rule,
      const char *marker)
{
  g_assert (start >= s->copied && end >= start);

  if (s->out == NULL)
    s->out = g_string_sized_new (s->length + 64);
  g_string_append_len (s->out, s->text + s->copied, start - s->copied);
  g_string_append (s->out, marker);
  s->copied = end;
  s->counts[rule]++;
}

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
static gsize
match_token (const char *t,
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
static gboolean
is_whole_token (const char *t,
                gsize       start,
                gsize       end,
                Rule       *rule)
{
  return end > start && match_token (t, start, end, rule) == end - start;
}

/* Redacts [start, end) as @context_rule, or as the token it is. */
static void
emit_value (Scan *s,
            gsize start,
            gsize end,
            Rule  context_rule)
{
  Rule rule;

  if (is_whole_token (s->text, start, end, &rule))
    emit (s, start, end, rule, rule_markers[rule]);
  else
    emit (s, start, end, context_rule, rule_markers[context_rule]);
}

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
static gboolean
is_placeholder (const char *v,
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
static gboolean
is_high_entropy (const char *v,
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

/* ---- keys --------------------------------------------------------------------------------- */

typedef struct
{
  gsize start;
  gsize len;
} KeyWord;

typedef enum
{
  KEY_PLAIN,
  KEY_SECRET,
  KEY_AWS_SECRET,
  KEY_AZURE,
  KEY_GCP,
} KeyKind;

static gboolean
ends_with (const char *s,
           gsize       n,
           const char *suffix)
{
  gsize len = strlen (suffix);

  return n >= len && memcmp (s + n - len, suffix, len) == 0;
}

static gboolean
word_in (const char         *s,
         gsize               n,
         const char * const *words)
{
  for (guint i = 0; words[i]; i++)
    if (strlen (words[i]) == n && memcmp (s, words[i], n) == 0)
      return TRUE;
  return FALSE;
}

/* A key says secret when one of its words (split at `_ - .` and camelCase) is or ends with
 * a secret word (`DB_PASSWORD`, `_authToken`, `clientSecret`), or is `key` qualified as a
 * secret one (`api_key`, `private-key`), unless its last word says the value is about the
 * secret rather than the secret (`token_url`, `password_file`, `secretName`). `tokenizer`
 * and `max_tokens` are not secrets. */
static KeyKind
classify_key (const char *key,
              gsize       len,
              gboolean    quoted,
              char        sep)
{
  static const char * const secret_words[] = {
    "password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey",
    "secretkey", "authkey", "credential", "credentials", NULL
  };
  static const char * const key_qualifiers[] = {
    "api", "access", "private", "secret", "auth", "signing", "encryption", "master", "session",
    "client", "app", "consumer", NULL
  };
  static const char * const short_words[] = { "pwd", "pass", NULL };
  static const char * const about_words[] = {
    "url", "uri", "endpoint", "file", "path", "dir", "name", "type", "id", "ids", "length",
    "len", "ttl", "expiry", "expires", "expiration", "count", "enabled", "required", "format",
    "header", "prefix", "hint", "policy", "ref", "env", "field", "mode", "size", "version",
    "timeout", "hash", "min", "max", "rotation", "location", "provider", "source", "store",
    "manager", "method", "limit", "usage", "created", "updated", "label", "description",
    "arn", "cmd", "command", "helper", NULL
  };
  char norm[KEY_MAX + 1];
  gsize nn = 0;
  KeyWord comps[16];
  guint nc = 0;
  gboolean secret = FALSE;
  gboolean last_is_secret = FALSE;

  /* lowercase alphanumerics, split into words */
  for (gsize i = 0; i < len && nn < KEY_MAX; i++)
    {
      guchar c = key[i];
      gboolean boundary;

      if (!g_ascii_isalnum (c))
        {
          if (nc > 0 && comps[nc - 1].len > 0 && nc < G_N_ELEMENTS (comps))
            comps[nc++] = (KeyWord) { nn, 0 };
          continue;
        }
      boundary = i > 0 && g_ascii_isupper (c) &&
                 (g_ascii_islower (key[i - 1]) ||
                  (g_ascii_isupper (key[i - 1]) && i + 1 < len && g_ascii_islower (key[i + 1])));
      if (nc == 0 || (boundary && comps[nc - 1].len > 0 && nc < G_N_ELEMENTS (comps)))
        comps[nc++] = (KeyWord) { nn, 0 };
      norm[nn++] = g_ascii_tolower (c);
      comps[nc - 1].len++;
    }
  norm[nn] = '\0';
  if (nc > 0 && comps[nc - 1].len == 0)
    nc--;
  if (nc == 0)
    return KEY_PLAIN;

  if (quoted && sep == ':' &&
      (g_ascii_strncasecmp (key, "private_key", len) == 0 && len == 11))
    return KEY_GCP;
  if (quoted && sep == ':' && len == 14 && g_ascii_strncasecmp (key, "private_key_id", 14) == 0)
    return KEY_GCP;
  if (strcmp (norm, "accountkey") == 0 || strcmp (norm, "sharedaccesskey") == 0)
    return KEY_AZURE;

  for (guint i = 0; i < nc; i++)
    {
      const char *w = norm + comps[i].start;
      gsize wl = comps[i].len;
      gboolean is_secret = FALSE;

      for (guint j = 0; secret_words[j] && !is_secret; j++)
        is_secret = ends_with (w, wl, secret_words[j]);
      if (!is_secret && wl == 3 && memcmp (w, "key", 3) == 0 && i > 0)
        is_secret = word_in (norm + comps[i - 1].start, comps[i - 1].len, key_qualifiers);
      if (!is_secret && nc > 1)
        is_secret = word_in (w, wl, short_words);
      if (is_secret)
        secret = TRUE;
      last_is_secret = is_secret;
    }
  if (nc == 1 && strcmp (norm, "auth") == 0)
    secret = last_is_secret = TRUE;

  if (!secret)
    return KEY_PLAIN;
  if (!last_is_secret &&
      word_in (norm + comps[nc - 1].start, comps[nc - 1].len, about_words))
    return KEY_PLAIN;
  if (strstr (norm, "secretaccesskey") != NULL || strcmp (norm, "awssecretkey") == 0)
    return KEY_AWS_SECRET;
  return KEY_SECRET;
}

/* Where a key stands decides where an unquoted value ends. */
typedef enum
{
  KEY_INLINE,       /* `… token=abc, …`: the value is one word */
  KEY_LINE_START,   /* `export DB_PASSWORD=…`, `password: …`: the rest of the line */
  KEY_AFTER_QUOTE,  /* docker inspect's "Env": ["DB_PASSWORD=…"]: the value ends at the quote */
} KeyPlace;

static KeyPlace
key_place (const char *t,
           gsize       ks)
{
  gsize b = ks;

  if (b > 0 && (t[b - 1] == '"' || t[b - 1] == '\''))
    return KEY_AFTER_QUOTE;
  while (b > 0 && is_blank (t[b - 1]))
    b--;
  if (b >= 6 && memcmp (t + b - 6, "export", 6) == 0 && b < ks)
    b -= 6;
  else if (b >= 10 && memcmp (t + b - 10, "declare -x", 10) == 0 && b < ks)
    b -= 10;
  else if (b >= 1 && t[b - 1] == '-' && b < ks)
    b -= 1;   /* a YAML list item */
  while (b > 0 && is_blank (t[b - 1]))
    b--;
  return b == 0 || t[b - 1] == '\n' || t[b - 1] == '\r' ? KEY_LINE_START : KEY_INLINE;
}

/* Environment-dump shape: an identifier at the start of a line or inside quotes. */
static gboolean
is_env_name (const char *t,
             gsize       ks,
             gsize       ke,
             KeyPlace    place)
{
  if (place == KEY_INLINE || !(g_ascii_isalpha (t[ks]) || t[ks] == '_'))
    return FALSE;
  for (gsize i = ks; i < ke; i++)
    if (!is_word (t[i]))
      return FALSE;
  return TRUE;
}

/* Inline, `,` `;` `&` end a value only where a separator would: before a blank, the end, or
 * the next `name=`; `p&ss;w0rd` stays whole. */
static gboolean
ends_inline_value (const char *t,
                   gsize       p,
                   gsize       n)
{
  gsize q = p + 1;

  if (t[p] != ',' && t[p] != ';' && t[p] != '&')
    return is_value_stop (t[p]);
  if (q >= n || g_ascii_isspace (t[q]))
    return TRUE;
  while (q < n && is_key_char (t[q]))
    q++;
  return q > p + 1 && q < n && (t[q] == '=' || t[q] == ':');
}

/* The end of an unquoted value starting at @vs. */
static gsize
unquoted_value_end (const char *t,
                    gsize       vs,
                    gsize       n,
                    KeyPlace    place,
                    char        quote)
{
  gsize ve = vs;

  switch (place)
    {
    case KEY_AFTER_QUOTE:
      while (ve < n && t[ve] != quote && t[ve] != '\n' && t[ve] != '\\')
        ve++;
      return ve;
    case KEY_LINE_START:
      while (ve < n && t[ve] != '\n' && t[ve] != '\0' &&
             !(ve > vs && is_blank (t[ve]) && ve + 1 < n && t[ve + 1] == '#'))
        ve++;
      while (ve > vs && g_ascii_isspace (t[ve - 1]))
        ve--;
      return ve;
    case KEY_INLINE:
    default:
      while (ve < n && !ends_inline_value (t, ve, n))
        ve++;
      return ve;
    }
}

/* ---- assignments ---------------------------------------------------------------------------- */

/* The end of a quoted value starting after the quote at @open, on the same line, or 0. */
static gsize
closing_quote (const char *t,
               gsize       open,
               gsize       n,
               gboolean    escaped)
{
  char q = t[open];

  for (gsize i = open + 1; i < n && t[i] != '\n'; i++)
    {
      if (escaped)
        {
          if (t[i] == '\\' && i + 1 < n && t[i + 1] == '"')
            return i;
        }
      else if (t[i] == '\\' && q == '"')
        i++;
      else if (t[i] == q)
        return i;
    }
  return 0;
}

/* @i is at `=` or `:`: a key before it, a value after it. */
static gsize
on_assignment (Scan  *s,
               gsize  i)
{
  const char *t = s->text;
  gsize n = s->length;
  char sep = t[i];
  gsize lo = MAX (s->copied, i > KEY_WINDOW ? i - KEY_WINDOW : 0);
  gsize k = i, ke, ks, v, vs, ve;
  char quote = 0;
  gsize look;
  gboolean escaped_key = FALSE, quoted_value = FALSE, long_value = FALSE;
  KeyKind kind;
  KeyPlace place;

  /* `==`, `::` and `a == b` compare or scope; `:=` assigns */
  if (sep == '=' && ((i + 1 < n && t[i + 1] == '=') || (i > 0 && t[i - 1] == '=')))
    return 0;
  if (sep == ':' && i + 1 < n && t[i + 1] == ':')
    return 0;

  while (k > lo && is_blank (t[k - 1]))
    k--;
  if (k > lo && (t[k - 1] == '"' || t[k - 1] == '\''))
    {
      quote = t[--k];
      if (k > lo && t[k - 1] == '\\')
        {
          k--;
          escaped_key = TRUE;
        }
    }
  ke = k;
  while (k > lo && is_key_char (t[k - 1]))
    k--;
  ks = k;
  if (ks == ke || ke - ks > KEY_MAX || (ks > 0 && is_key_char (t[ks - 1])))
    return 0;
  if (quote && (ks == 0 || t[ks - 1] != quote || (escaped_key && (ks < 2 || t[ks - 2] != '\\'))))
    return 0;

  kind = classify_key (t + ks, ke - ks, quote != 0, sep);
  place = quote ? KEY_INLINE : key_place (t, ks);
  if (kind == KEY_PLAIN && (sep != '=' || !is_env_name (t, ks, ke, place)))
    return 0;

  v = i + 1;
  if (sep == ':' && v < n && t[v] == '=')
    v++;
  while (v < n && is_blank (t[v]))
    v++;
  /* Values are judged on their first VALUE_LOOK bytes and measured in full only once they
   * are to be redacted (and so consumed): rejected candidates cost a bounded look each. */
  look = MIN (n, v + VALUE_LOOK);
  if (v < n && (t[v] == '"' || t[v] == '\'') &&
      ((ve = closing_quote (t, v, look, FALSE)) != 0 ||
       (kind != KEY_PLAIN && !is_placeholder (t + v + 1, MIN (n - v - 1, 16)) &&
        (ve = closing_quote (t, v, n, FALSE)) != 0)))
    {
      vs = v + 1;
      quoted_value = TRUE;
    }
  else if (v + 1 < n && t[v] == '\\' && t[v + 1] == '"' &&
           (ve = closing_quote (t, v + 1, look, TRUE)) != 0)
    {
      vs = v + 2;
      quoted_value = TRUE;
    }
  else
    {
      vs = v;
      ve = unquoted_value_end (t, vs, look, place, ks > 0 ? t[ks - 1] : 0);
      long_value = ve == look && look < n;
    }

  if (kind == KEY_PLAIN)
    {
      Rule rule;
      gsize end;

      if (long_value)
        return 0;
      /* the value by the entropy rule's own alphabet: base64, base64url and a few separators */
      end = vs;
      while (end < ve && (is_token (t[end]) || t[end] == '+' || t[end] == '/' || t[end] == '.' ||
                          t[end] == '~' || t[end] == '='))
        end++;
      if (end != ve || is_whole_token (t, vs, ve, &rule) || !is_high_entropy (t + vs, ve - vs))
        return 0;
      emit (s, vs, ve, RULE_HIGH_ENTROPY, CONTEXT_MARKER);
      return ve;
    }

  if (ve <= vs || is_placeholder (t + vs, ve - vs))
    return 0;
  if (!quoted_value)
    {
      gsize w = vs;

      /* a call (`token = get_token()`) is code */
      while (w < n && (is_word (t[w]) || t[w] == '.'))
        w++;
      if (w < n && t[w] == '(')
        return 0;
      /* `invalid token: expected 3 segments` is prose: a word and more words after it, in
       * the middle of a line (at the start of one, `password: two words` is YAML) */
      for (w = vs; w < ve && g_ascii_isalpha (t[w]); w++)
        ;
      if (sep == ':' && place == KEY_INLINE && w > vs && w + 1 < n && t[w] == ' ' &&
          !g_ascii_isspace (t[w + 1]))
        return 0;
    }

  if (long_value)
    ve = unquoted_value_end (t, vs, n, place, ks > 0 ? t[ks - 1] : 0);

  switch (kind)
    {
    case KEY_AWS_SECRET: emit_value (s, vs, ve, RULE_AWS_SECRET_KEY); break;
    case KEY_AZURE: emit_value (s, vs, ve, RULE_AZURE_STORAGE_KEY); break;
    case KEY_GCP: emit_value (s, vs, ve, RULE_GCP_SERVICE_ACCOUNT); break;
    case KEY_SECRET:
    case KEY_PLAIN:
    default: emit_value (s, vs, ve, RULE_SECRET_ASSIGNMENT); break;
    }
  return ve;
}

/* ---- URLs ----------------------------------------------------------------------------------- */

static inline gboolean
is_authority_stop (guchar c)
{
  return c <= ' ' || strchr ("/?#\"'<>`\\)]}", c) != NULL;
}

/* @i is at the `:` of `scheme://`. */
static gsize
on_url (Scan  *s,
        gsize  i)
{
  const char *t = s->text;
  gsize n = s->length;
  gsize a = i + 3, end, at = 0, colon = 0;
  Rule rule;

  if (i == 0 || !g_ascii_isalnum (t[i - 1]))
    return 0;
  for (end = a; end < n && end < a + 1024 && !is_authority_stop (t[end]); end++)
    if (t[end] == '@')
      at = end;
  if (at == 0)
    return 0;
  for (gsize j = a; j < at; j++)
    if (t[j] == ':')
      {
        colon = j;
        break;
      }
  if (colon == 0 || colon + 1 == at || is_placeholder (t + colon + 1, at - colon - 1))
    return 0;
  if (a >= s->copied && is_whole_token (t, a, colon, &rule))
    emit (s, a, colon, rule, rule_markers[rule]);
  emit_value (s, colon + 1, at, RULE_URL_PASSWORD);
  return at;
}

/* ---- headers -------------------------------------------------------------------------------- */

static gsize
skip_quote (const char *t,
            gsize       p,
            gsize       n)
{
  if (p < n && (t[p] == '"' || t[p] == '\''))
    return p + 1;
  if (p + 1 < n && t[p] == '\\' && t[p + 1] == '"')
    return p + 2;
  return p;
}

/* The credential after a scheme word, or after the colon when there is none. */
static gsize
redact_credential (Scan  *s,
                   gsize  p,
                   gsize  min_length,
                   gboolean need_digit)
{
  gsize e = p + run_of (s->text, p, s->length, is_credential);

  if (e - p < min_length || is_placeholder (s->text + p, e - p) ||
      (need_digit && !has_digit (s->text, p, e)))
    return 0;
  emit_value (s, p, e, RULE_AUTHORIZATION);
  return e;
}

static gsize
after_scheme (const char *t,
              gsize       p,
              gsize       n)
{
  static const char * const schemes[] = { "bearer", "basic", "token", "bot", NULL };

  for (guint i = 0; schemes[i]; i++)
    if (has_prefix_ci (t, p, n, schemes[i]))
      {
        gsize q = p + strlen (schemes[i]);

        if (q < n && is_blank (t[q]))
          {
            while (q < n && is_blank (t[q]))
              q++;
            return q;
          }
      }
  return p;
}

/* @i starts `Authorization` or `Proxy-Authorization`, any case, as header or JSON key. */
static gsize
on_authorization (Scan  *s,
                  gsize  i)
{
  const char *t = s->text;
  gsize n = s->length;
  gsize p = i;

  if (has_prefix_ci (t, p, n, "proxy-"))
    p += 6;
  if (!has_prefix_ci (t, p, n, "authorization"))
    return 0;
  p += 13;
  if (p < n && is_key_char (t[p]))
    return 0;
  p = skip_quote (t, p, n);
  while (p < n && is_blank (t[p]))
    p++;
  if (p >= n || (t[p] != ':' && t[p] != '='))
    return 0;
  p++;
  while (p < n && is_blank (t[p]))
    p++;
  p = skip_quote (t, p, n);
  return redact_credential (s, after_scheme (t, p, n), 8, FALSE);
}

/* @i starts `Bearer`: a bearer token outside an Authorization header (`-H "X-Auth: Bearer …"`).
 * Sixteen characters with a digit keep "bearer of bad news" out. */
static gsize
on_bearer (Scan  *s,
           gsize  i)
{
  gsize p;

  if (!has_prefix_ci (s->text, i, s->length, "bearer"))
    return 0;
  p = after_scheme (s->text, i, s->length);
  if (p == i)
    return 0;
  return redact_credential (s, p, 16, TRUE);
}

/* ---- PEM ------------------------------------------------------------------------------------ */

/* The length of a line separator at @p: a newline, or the `\n` escape of a JSON string or an
 * env value that holds a PEM block on one line. */
static gsize
separator_at (const char *t,
              gsize       p,
              gsize       n)
{
  if (p < n && t[p] == '\n')
    return 1;
  if (p + 1 < n && t[p] == '\r' && t[p + 1] == '\n')
    return 2;
  if (p + 1 < n && t[p] == '\\' && t[p + 1] == 'n')
    return 2;
  if (p + 3 < n && memcmp (t + p, "\\r\\n", 4) == 0)
    return 4;
  return 0;
}

/* @i is at `-----BEGIN `. The body is replaced and the armour lines kept, so a reader still
 * sees that a key was there. The body is walked line by line rather than searched for its END
 * line: a block cut off by `rawOutputMaxBytes`, or by the program that printed it, ends where
 * its base64 lines end, and the text after it is left alone. */
static gsize
on_pem (Scan  *s,
        gsize  i)
{
  const char *t = s->text;
  gsize n = s->length;
  gsize p = i + 11, label_end, body_start, q, sep;
  gsize first_len = 0, last_end = 0, lines = 0;

  for (label_end = p; label_end < n && label_end < p + 64; label_end++)
    if (!(g_ascii_isupper (t[label_end]) || g_ascii_isdigit (t[label_end]) || t[label_end] == ' '))
      break;
  if (!has_prefix (t, label_end, n, "-----") ||
      memmem (t + p, label_end - p, "PRIVATE KEY", 11) == NULL)
    return 0;
  q = label_end + 5;

  sep = separator_at (t, q, n);
  if (sep == 0)
    {
      /* all on one line, blank-separated: `-----BEGIN PRIVATE KEY----- MIIE… -----END …` */
      gsize e;

      while (q < n && is_blank (t[q]))
        q++;
      body_start = q;
      for (e = q; e < n && (is_base64 (t[e]) || is_blank (t[e])); e++)
        ;
      while (e > body_start && is_blank (t[e - 1]))
        e--;
      if (e - body_start < 16)
        return 0;
      emit (s, body_start, e, RULE_PRIVATE_KEY_BLOCK, rule_markers[RULE_PRIVATE_KEY_BLOCK]);
      return e;
    }

  body_start = q = q + sep;
  for (;;)
    {
      gsize line_end = q, content_start = q, content_end, len;
      gboolean base64 = TRUE, header, string_end = FALSE;

      while (line_end < n && line_end - q <= PEM_LINE_MAX && separator_at (t, line_end, n) == 0)
        line_end++;
      if (line_end - q > PEM_LINE_MAX)
        break;
      content_end = line_end;
      while (content_start < content_end && is_blank (t[content_start]))
        content_start++;
      while (content_end > content_start &&
             (is_blank (t[content_end - 1]) || t[content_end - 1] == '\r'))
        content_end--;
      /* the last line of a block held in a JSON or shell string */
      if (content_end > content_start && (t[content_end - 1] == '"' || t[content_end - 1] == '\''))
        {
          content_end--;
          string_end = TRUE;
        }
      len = content_end - content_start;

      if (has_prefix (t, content_start, n, "-----END "))
        break;
      for (gsize j = content_start; j < content_end && base64; j++)
        base64 = is_base64 (t[j]);
      /* RFC 1421 headers (Proc-Type, DEK-Info) and the blank line after them */
      header = lines == 0 && len > 0 && !base64 && g_ascii_isalpha (t[content_start]) &&
               memchr (t + content_start, ':', len) != NULL;
      if (header || (len == 0 && lines == 0 && q != body_start))
        ;
      else if (len > 0 && base64)
        {
          if (first_len == 0)
            first_len = len;
          lines++;
          last_end = content_end;
          /* a shorter line is the last one: whatever follows, END or not, is not the key */
          if (len < first_len || string_end)
            break;
        }
      else
        break;
      if (string_end)
        break;

      sep = separator_at (t, line_end, n);
      if (sep == 0)
        break;
      q = line_end + sep;
    }

  if (lines == 0)
    return 0;
  emit (s, body_start, last_end, RULE_PRIVATE_KEY_BLOCK, rule_markers[RULE_PRIVATE_KEY_BLOCK]);
  return last_end;
}

/* ---- the pass ------------------------------------------------------------------------------- */

static gsize
on_word (Scan  *s,
         gsize  i)
{
  const char *t = s->text;
  gsize n = s->length;
  gsize r;
  Rule rule;

  switch (t[i])
    {
    case 'A': case 'a': case 'P': case 'p':
      if ((r = on_authorization (s, i)) != 0)
        return r;
      break;
    case 'B': case 'b':
      return on_bearer (s, i);
    default:
      break;
    }
  if ((r = match_token (t, i, n, &rule)) != 0)
    {
      emit (s, i, i + r, rule, rule_markers[rule]);
      return i + r;
    }
  return 0;
}

static void
scan (Scan *s)
{
  const char *t = s->text;
  gsize n = s->length;
  gsize i = 0;

  while (i < n)
    {
      gsize next = 0;

      switch (t[i])
        {
        case ':':
          if (i + 2 < n && t[i + 1] == '/' && t[i + 2] == '/')
            next = on_url (s, i);
          else
            next = on_assignment (s, i);
          break;
        case '=':
          next = on_assignment (s, i);
          break;
        case '-':
          if (has_prefix (t, i, n, "-----BEGIN "))
            next = on_pem (s, i);
          break;
        case 'A': case 'a': case 'P': case 'p': case 'B': case 'b': case 'L': case 'e':
        case 'g': case 'n': case 'r': case 's': case 'x':
          /* A token starts a run of token characters: `sk-sk-sk-…` has one start, not one
           * per dash, which keeps every run looked at a bounded number of times. */
          if (i == 0 || !is_token (t[i - 1]))
            next = on_word (s, i);
          break;
        default:
          break;
        }
      i = next > i ? next : i + 1;
    }
}

/* ---- the object ----------------------------------------------------------------------------- */

static void
winnow_redaction_finalize (GObject *object)
{
  WinnowRedaction *self = (WinnowRedaction *)object;

  g_clear_pointer (&self->text, g_free);

  G_OBJECT_CLASS (winnow_redaction_parent_class)->finalize (object);
}

static void
winnow_redaction_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WinnowRedaction *self = WINNOW_REDACTION (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_TOTAL:
      g_value_set_uint (value, self->total);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_redaction_class_init (WinnowRedactionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_redaction_finalize;
  object_class->get_property = winnow_redaction_get_property;

  properties [PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_TOTAL] =
    g_param_spec_uint ("total", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_redaction_init (WinnowRedaction *self)
{
}

/**
 * winnow_redact_rules_list:
 * @n_rules: (out) (optional): how many rules there are
 *
 * The names of the redaction rules, in a fixed order that is also the order of
 * winnow_redaction_get_counts(). Names are stable: analytics and tests key on them.
 *
 * Returns: (array zero-terminated=1) (transfer none): the rule names
 */
const char * const *
winnow_redact_rules_list (guint *n_rules)
{
  if (n_rules != NULL)
    *n_rules = N_RULES;
  return rule_names;
}

/**
 * winnow_redact_rule_describe:
 * @rule: a rule name
 *
 * Returns: (nullable): a one-line English description of @rule, or %NULL if there is no such rule
 */
const char *
winnow_redact_rule_describe (const char *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);

  for (guint i = 0; i < N_RULES; i++)
    if (strcmp (rule_names[i], rule) == 0)
      return rule_descriptions[i];
  return NULL;
}

/**
 * winnow_redact:
 * @text: command output; any bytes, not necessarily UTF-8 or nul-free
 * @length: its length in bytes, or -1 if nul-terminated
 *
 * Replaces the secrets in @text. Deterministic, and linear in the length of @text.
 *
 * Returns: (transfer full): the redacted text with a count per rule
 */
WinnowRedaction *
winnow_redact (const char *text,
               gssize      length)
{
  WinnowRedaction *self;
  Scan s = { 0 };

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (text == NULL)
    text = "";
  s.text = text;
  s.length = length < 0 ? strlen (text) : (gsize) length;
  scan (&s);

  self = g_object_new (WINNOW_TYPE_REDACTION, NULL);
  if (s.out != NULL)
    {
      g_string_append_len (s.out, text + s.copied, s.length - s.copied);
      self->length = s.out->len;
      self->text = g_string_free (s.out, FALSE);
    }
  else
    {
      self->length = s.length;
      self->text = g_malloc (s.length + 1);
      memcpy (self->text, text, s.length);
      self->text[s.length] = '\0';
    }
  for (guint i = 0; i < N_RULES; i++)
    {
      self->counts[i] = s.counts[i];
      self->total += s.counts[i];
    }
  return self;
}

/**
 * winnow_redaction_get_text:
 * @self: a #WinnowRedaction
 * @length: (out) (optional): its length in bytes
 *
 * Returns: the redacted text, nul-terminated (it may hold NULs of the input before that)
 */
const char *
winnow_redaction_get_text (WinnowRedaction *self,
                           gsize           *length)
{
  g_return_val_if_fail (WINNOW_IS_REDACTION (self), NULL);

  if (length != NULL)
    *length = self->length;
  return self->text;
}

/**
 * winnow_redaction_get_changed:
 * @self: a #WinnowRedaction
 *
 * Returns: whether anything was redacted; if not, the text is the input byte for byte
 */
gboolean
winnow_redaction_get_changed (WinnowRedaction *self)
{
  g_return_val_if_fail (WINNOW_IS_REDACTION (self), FALSE);
  return self->total > 0;
}

guint
winnow_redaction_get_total (WinnowRedaction *self)
{
  g_return_val_if_fail (WINNOW_IS_REDACTION (self), 0);
  return self->total;
}

/**
 * winnow_redaction_get_count:
 * @self: a #WinnowRedaction
 * @rule: a rule name from winnow_redact_rules_list()
 *
 * Returns: how many secrets @rule replaced; 0 for an unknown rule
 */
guint
winnow_redaction_get_count (WinnowRedaction *self,
                            const char      *rule)
{
  g_return_val_if_fail (WINNOW_IS_REDACTION (self), 0);
  g_return_val_if_fail (rule != NULL, 0);

  for (guint i = 0; i < N_RULES; i++)
    if (strcmp (rule_names[i], rule) == 0)
      return self->counts[i];
  return 0;
}

/**
 * winnow_redaction_get_counts:
 * @self: a #WinnowRedaction
 * @n_rules: (out) (optional): the length of the array
 *
 * Returns: (array length=n_rules) (transfer none): the count of every rule, in the order of
 *   winnow_redact_rules_list()
 */
const guint *
winnow_redaction_get_counts (WinnowRedaction *self,
                             guint           *n_rules)
{
  g_return_val_if_fail (WINNOW_IS_REDACTION (self), NULL);

  if (n_rules != NULL)
    *n_rules = N_RULES;
  return self->counts;
}

/**
 * winnow_redaction_dup_fired_rules:
 * @self: a #WinnowRedaction
 *
 * Returns: (transfer full) (array zero-terminated=1): the names of the rules that replaced
 *   something, in rule order
 */
char **
winnow_redaction_dup_fired_rules (WinnowRedaction *self)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (WINNOW_IS_REDACTION (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; i < N_RULES; i++)
    if (self->counts[i] > 0)
      g_strv_builder_add (builder, rule_names[i]);
  return g_strv_builder_end (builder);
}
