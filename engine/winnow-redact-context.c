/* winnow-redact-context.c — secrets recognised by their context
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A key that names a secret (`DB_PASSWORD=…`, `"token": "…"`), a URL's user info, an
 * Authorization header or bare Bearer token, a PEM private key block: the context is kept
 * and only the value is replaced. Each matcher is woken up by the pass in winnow-redact.c
 * at the byte its context starts with, and returns where the scan goes on, or 0.
 */

#define G_LOG_DOMAIN "winnow-redact"

#include "config.h"

#include <string.h>

#include "winnow-redact-private.h"

#define CONTEXT_MARKER "[REDACTED]"

/* how far back from a separator a key may start, and how long it may be */
#define KEY_WINDOW   96
#define KEY_MAX      64
/* a PEM body line longer than this is not one */
#define PEM_LINE_MAX 256
/* how much of a value is read to decide whether it is a secret */
#define VALUE_LOOK   1024

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
gsize
_winnow_redact_on_assignment (Scan  *s,
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
       (kind != KEY_PLAIN && !_winnow_redact_is_placeholder (t + v + 1, MIN (n - v - 1, 16)) &&
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
      if (end != ve || _winnow_redact_is_whole_token (t, vs, ve, &rule) ||
          !_winnow_redact_is_high_entropy (t + vs, ve - vs))
        return 0;
      _winnow_redact_emit (s, vs, ve, RULE_HIGH_ENTROPY, CONTEXT_MARKER);
      return ve;
    }

  if (ve <= vs || _winnow_redact_is_placeholder (t + vs, ve - vs))
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
    case KEY_AWS_SECRET: _winnow_redact_emit_value (s, vs, ve, RULE_AWS_SECRET_KEY); break;
    case KEY_AZURE: _winnow_redact_emit_value (s, vs, ve, RULE_AZURE_STORAGE_KEY); break;
    case KEY_GCP: _winnow_redact_emit_value (s, vs, ve, RULE_GCP_SERVICE_ACCOUNT); break;
    case KEY_SECRET:
    case KEY_PLAIN:
    default: _winnow_redact_emit_value (s, vs, ve, RULE_SECRET_ASSIGNMENT); break;
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
gsize
_winnow_redact_on_url (Scan  *s,
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
  if (colon == 0 || colon + 1 == at ||
      _winnow_redact_is_placeholder (t + colon + 1, at - colon - 1))
    return 0;
  if (a >= s->copied && _winnow_redact_is_whole_token (t, a, colon, &rule))
    _winnow_redact_emit (s, a, colon, rule, _winnow_redact_rule_markers[rule]);
  _winnow_redact_emit_value (s, colon + 1, at, RULE_URL_PASSWORD);
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

  if (e - p < min_length || _winnow_redact_is_placeholder (s->text + p, e - p) ||
      (need_digit && !has_digit (s->text, p, e)))
    return 0;
  _winnow_redact_emit_value (s, p, e, RULE_AUTHORIZATION);
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
gsize
_winnow_redact_on_authorization (Scan  *s,
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
gsize
_winnow_redact_on_bearer (Scan  *s,
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
gsize
_winnow_redact_on_pem (Scan  *s,
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
      _winnow_redact_emit (s, body_start, e, RULE_PRIVATE_KEY_BLOCK,
                           _winnow_redact_rule_markers[RULE_PRIVATE_KEY_BLOCK]);
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
  _winnow_redact_emit (s, body_start, last_end, RULE_PRIVATE_KEY_BLOCK,
                       _winnow_redact_rule_markers[RULE_PRIVATE_KEY_BLOCK]);
  return last_end;
}
