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
 *
 * The matchers live in their own files: winnow-redact-tokens.c has the tokens recognised by
 * their own shape, winnow-redact-context.c those recognised by their context (assignments,
 * URLs, headers, PEM blocks), winnow-redact-values.c what tells a secret value from a
 * placeholder. This file has the rule table, the pass that wakes the matchers up and the
 * result object.
 */

#define G_LOG_DOMAIN "winnow-redact"

#include "config.h"

#include <string.h>

#include "winnow-redact.h"
#include "winnow-redact-private.h"

static const char * const rule_names[N_RULES + 1] = {
#define RULE_NAME(id, name, marker, description) name,
  WINNOW_REDACT_RULES (RULE_NAME)
#undef RULE_NAME
  NULL
};

const char * const _winnow_redact_rule_markers[N_RULES] = {
#define RULE_MARKER(id, name, marker, description) marker,
  WINNOW_REDACT_RULES (RULE_MARKER)
#undef RULE_MARKER
};

static const char * const rule_descriptions[N_RULES] = {
#define RULE_DESCRIPTION(id, name, marker, description) description,
  WINNOW_REDACT_RULES (RULE_DESCRIPTION)
#undef RULE_DESCRIPTION
};

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

/* ---- output ----------------------------------------------------------------------------- */

void
_winnow_redact_emit (Scan       *s,
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
      if ((r = _winnow_redact_on_authorization (s, i)) != 0)
        return r;
      break;
    case 'B': case 'b':
      return _winnow_redact_on_bearer (s, i);
    default:
      break;
    }
  if ((r = _winnow_redact_match_token (t, i, n, &rule)) != 0)
    {
      _winnow_redact_emit (s, i, i + r, rule, _winnow_redact_rule_markers[rule]);
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
            next = _winnow_redact_on_url (s, i);
          else
            next = _winnow_redact_on_assignment (s, i);
          break;
        case '=':
          next = _winnow_redact_on_assignment (s, i);
          break;
        case '-':
          if (has_prefix (t, i, n, "-----BEGIN "))
            next = _winnow_redact_on_pem (s, i);
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
