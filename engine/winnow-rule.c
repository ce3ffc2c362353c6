/* winnow-rule.c — one Caveman prose rule: a JavaScript regex and what replaces its matches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rule format is OmniRoute's (FORMATS.md §4), so existing packs load unchanged: `pattern`
 * is JavaScript regex source with flags `gi` unless `flags` says otherwise; a match is looked up
 * in `replacementMap` after trimming, collapsing whitespace and lower-casing it, a hit replaces
 * it literally, a miss falls back to `replacement` (JavaScript `$` syntax), and without either
 * the match stays. A rule applies when its `minIntensity` is at or below the requested
 * intensity and its `context` is `all` or the message's role.
 *
 * Reading a rule also lints it, because a prose rule runs over every message a person or an
 * agent writes: a pattern that matches the empty string and inserts text everywhere, one that
 * deletes a whole probe paragraph, or one that backtracks catastrophically is an error.
 */

#define G_LOG_DOMAIN "winnow-rule"

#include "config.h"

#include <string.h>

#include "winnow-json-locator.h"
#include "winnow-rule-private.h"

typedef struct
{
  char *key;     /* as written */
  char *value;
} MapEntry;

struct _WinnowRule
{
  GObject                 parent_instance;
  char                   *name;
  char                   *pattern;
  char                   *flags;          /* NULL: the default */
  char                   *replacement;
  char                   *description;
  char                   *category;
  WinnowRuleContext       context;
  WinnowCavemanIntensity  min_intensity;
  gboolean                has_context;
  gboolean                has_min_intensity;
  GArray                 *map;            /* MapEntry, in file order */
  GHashTable             *lookup;         /* normalized key → value (owned by map) */
  WinnowRegex            *regex;
  JsonObject             *extra;          /* members Winnow does not know, kept for saving */
};

G_DEFINE_FINAL_TYPE (WinnowRule, winnow_rule, G_TYPE_OBJECT)

static const char * const known_categories[] = {
  "filler", "context", "structural", "dedup", "terse", "ultra", NULL
};

const char *
winnow_rule_context_to_string (WinnowRuleContext context)
{
  switch (context)
    {
    case WINNOW_RULE_CONTEXT_ALL: return "all";
    case WINNOW_RULE_CONTEXT_USER: return "user";
    case WINNOW_RULE_CONTEXT_ASSISTANT: return "assistant";
    case WINNOW_RULE_CONTEXT_SYSTEM: return "system";
    default: return "all";
    }
}

gboolean
winnow_rule_context_from_string (const char        *str,
                                 WinnowRuleContext *context)
{
  static const char * const names[] = { "all", "user", "assistant", "system", NULL };

  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (str, names[i]) == 0)
      {
        *context = (WinnowRuleContext) i;
        return TRUE;
      }

  return FALSE;
}

const char *
winnow_caveman_intensity_to_string (WinnowCavemanIntensity intensity)
{
  switch (intensity)
    {
    case WINNOW_CAVEMAN_INTENSITY_LITE: return "lite";
    case WINNOW_CAVEMAN_INTENSITY_FULL: return "full";
    case WINNOW_CAVEMAN_INTENSITY_ULTRA: return "ultra";
    default: return "full";
    }
}

gboolean
winnow_caveman_intensity_from_string (const char             *str,
                                      WinnowCavemanIntensity *intensity)
{
  static const char * const names[] = { "lite", "full", "ultra", NULL };

  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (str, names[i]) == 0)
      {
        *intensity = (WinnowCavemanIntensity) i;
        return TRUE;
      }

  return FALSE;
}

const char *
winnow_message_role_to_string (WinnowMessageRole role)
{
  switch (role)
    {
    case WINNOW_MESSAGE_ROLE_SYSTEM: return "system";
    case WINNOW_MESSAGE_ROLE_USER: return "user";
    case WINNOW_MESSAGE_ROLE_ASSISTANT: return "assistant";
    case WINNOW_MESSAGE_ROLE_TOOL: return "tool";
    default: return "user";
    }
}

gboolean
winnow_message_role_from_string (const char        *str,
                                 WinnowMessageRole *role)
{
  static const char * const names[] = { "system", "user", "assistant", "tool", NULL };

  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (str, names[i]) == 0)
      {
        *role = (WinnowMessageRole) i;
        return TRUE;
      }

  /* OpenAI's newer name for system instructions */
  if (g_strcmp0 (str, "developer") == 0)
    {
      *role = WINNOW_MESSAGE_ROLE_SYSTEM;
      return TRUE;
    }

  return FALSE;
}

static void
map_entry_clear (gpointer data)
{
  MapEntry *entry = data;

  g_clear_pointer (&entry->key, g_free);
  g_clear_pointer (&entry->value, g_free);
}

static void
winnow_rule_finalize (GObject *object)
{
  WinnowRule *self = (WinnowRule *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->pattern, g_free);
  g_clear_pointer (&self->flags, g_free);
  g_clear_pointer (&self->replacement, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->category, g_free);
  g_clear_pointer (&self->lookup, g_hash_table_unref);
  g_clear_pointer (&self->map, g_array_unref);
  g_clear_pointer (&self->regex, winnow_regex_unref);
  g_clear_pointer (&self->extra, json_object_unref);

  G_OBJECT_CLASS (winnow_rule_parent_class)->finalize (object);
}

static void
winnow_rule_class_init (WinnowRuleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_rule_finalize;
}

static void
winnow_rule_init (WinnowRule *self)
{
  self->map = g_array_new (FALSE, TRUE, sizeof (MapEntry));
  g_array_set_clear_func (self->map, map_entry_clear);
  self->lookup = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->min_intensity = WINNOW_CAVEMAN_INTENSITY_LITE;
  self->context = WINNOW_RULE_CONTEXT_ALL;
}

/**
 * _winnow_rule_normalize_key:
 * @text: a match or a `replacementMap` key
 * @length: its length in bytes
 *
 * Trims @text, collapses each run of whitespace to one space and lower-cases it: the form in
 * which matches are looked up in a replacement map.
 *
 * Returns: (transfer full): the normalized key
 */
char *
_winnow_rule_normalize_key (const char *text,
                            gsize       length)
{
  g_autoptr(GString) collapsed = g_string_sized_new (length);
  const char *end = text + length;
  gboolean pending_space = FALSE;

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c))
        {
          pending_space = collapsed->len > 0;
          continue;
        }

      if (pending_space)
        g_string_append_c (collapsed, ' ');
      pending_space = FALSE;
      g_string_append_unichar (collapsed, c);
    }

  return g_utf8_strdown (collapsed->str, collapsed->len);
}

/* ---- reading ----------------------------------------------------------------------------- */

static char *
child_path (const char *path,
            const char *member)
{
  return g_strconcat (path, ".", member, NULL);
}

static void
read_map (WinnowJsonReader *r,
          WinnowRule       *self,
          JsonObject       *obj,
          const char       *path)
{
  g_autofree char *map_path = child_path (path, "replacementMap");
  JsonNode *node = json_object_get_member (obj, "replacementMap");
  g_autoptr(GList) members = NULL;
  JsonObject *map;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, map_path,
                                  "must be an object of match → replacement strings, not %s",
                                  _winnow_json_node_type_name (node));
      return;
    }

  map = json_node_get_object (node);
  members = json_object_get_members (map);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      JsonNode *value = json_object_get_member (map, key);
      g_autoptr(GString) key_path = g_string_new (map_path);
      g_autofree char *normalized = NULL;
      MapEntry entry;

      _winnow_json_path_append_member (key_path, key);

      if (!_winnow_json_node_is_string (value))
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, key_path->str,
                                      "must be a string, not %s",
                                      _winnow_json_node_type_name (value));
          continue;
        }

      normalized = _winnow_rule_normalize_key (key, strlen (key));
      if (normalized[0] == '\0')
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, key_path->str,
                                      "an empty key can never be looked up");
          continue;
        }

      if (g_hash_table_contains (self->lookup, normalized))
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_WARNING, key_path->str,
                                      "same key as an earlier entry once trimmed and "
                                      "lower-cased (“%s”); the earlier one wins", normalized);
          continue;
        }

      if (strcmp (normalized, key) != 0)
        _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_INFO, key_path->str,
                                    "matches are looked up trimmed and lower-cased, so this "
                                    "key is used as “%s”", normalized);

      entry.key = g_strdup (key);
      entry.value = g_strdup (json_node_get_string (value));
      g_array_append_val (self->map, entry);
      g_hash_table_insert (self->lookup, g_steal_pointer (&normalized), entry.value);
    }
}

/* What the rule puts in place of each match of @subject; shared by the lints below. */
typedef struct
{
  WinnowRule *rule;
} LintData;

static gboolean
lint_replace (WinnowRegex            *regex,
              const WinnowRegexMatch *match,
              GString                *out,
              gpointer                user_data)
{
  LintData *data = user_data;
  const char *hit = winnow_rule_lookup_map (data->rule, match->subject + match->offsets[0],
                                            match->offsets[1] - match->offsets[0]);

  if (hit != NULL)
    g_string_append (out, hit);
  else if (data->rule->replacement != NULL)
    winnow_regex_match_expand (regex, match, data->rule->replacement, out);
  else
    return FALSE;

  return TRUE;
}

static gboolean
has_letters (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (g_unichar_isalpha (g_utf8_get_char (p)))
      return TRUE;

  return FALSE;
}

/* A rule runs over everything people write, so what would be a harmless typo in a one-off
 * script is a bug here. Checked on probes: short texts in the shapes prose takes, and
 * adversarial strings for backtracking. */
static void
lint_rule (WinnowJsonReader *r,
           WinnowRule       *self,
           const char       *path)
{
  static const char * const prose_probes[] = {
    "The build failed because the cache was stale.\nPlease run the tests again and tell me "
    "what happens.",
    "Der Build ist fehlgeschlagen. La compilation a échoué. A compilação falhou. "
    "La compilación falló. Build gagal.",
    "ビルドに失敗しました。もう一度実行してください。构建失败了，请再运行一次测试。",
    NULL
  };
  /* inputs that almost match what nested repetition tends to look for, and then do not */
  static const char * const hostile_probes[] = {
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!a",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "word word word word word word word word word word word word word word word word word !",
    "word word word word word word word word word word word word word word word word word !.,:",
    "word word word word word word word word word word word word word word word word word word",
    "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p !",
    "                                                                                    x",
    NULL
  };
  g_autofree char *pattern_path = child_path (path, "pattern");
  LintData data = { self };
  WinnowRegexResult status;

  if (self->replacement == NULL && self->map->len == 0)
    _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_WARNING, path,
                                "has neither “replacement” nor “replacementMap”, so its matches "
                                "are left as they are");

  if (self->replacement != NULL && self->replacement[0] != '\0' &&
      winnow_regex_test (self->regex, "", 0) == WINNOW_REGEX_MATCH)
    _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, pattern_path,
                                "matches the empty string, so “%s” would be inserted between "
                                "every two characters", self->replacement);

  for (guint i = 0; prose_probes[i] != NULL; i++)
    {
      const char *probe = prose_probes[i];
      g_autofree char *result = winnow_regex_replace_func (self->regex, probe, strlen (probe),
                                                           lint_replace, &data, NULL, &status);

      if (status == WINNOW_REGEX_MATCH && !has_letters (result))
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, pattern_path,
                                      "would delete a whole paragraph of ordinary prose "
                                      "(“%.40s…”)", probe);
          break;
        }
    }

  for (guint i = 0; hostile_probes[i] != NULL; i++)
    {
      const char *probe = hostile_probes[i];
      g_autofree char *result = winnow_regex_replace_func (self->regex, probe, strlen (probe),
                                                           lint_replace, &data, NULL, &status);

      if (status == WINNOW_REGEX_BUDGET_EXCEEDED)
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, pattern_path,
                                      "backtracks catastrophically: matching gave up on "
                                      "“%.24s…”; rewrite it without nested repetition", probe);
          break;
        }
    }
}

static gboolean
read_enum (WinnowJsonReader   *r,
           JsonObject         *obj,
           const char         *key,
           const char         *path,
           const char * const *names,
           guint              *out)
{
  g_autofree char *member_path = child_path (path, key);
  g_autofree char *value = _winnow_json_reader_string (r, obj, key, member_path, FALSE);

  if (value == NULL)
    return FALSE;

  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (value, names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }

  {
    g_autofree char *list = g_strjoinv (", ", (char **) names);

    _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, member_path,
                                "“%s” is not one of %s", value, list);
  }

  return FALSE;
}

/**
 * _winnow_rule_new_from_json:
 * @reader: the pack's reader; its subject is set to the rule's name
 * @node: a rule object
 * @path: its JSON path in the pack, e.g. "rules[3]"
 *
 * Returns: (transfer full) (nullable): the rule, or %NULL when it has errors (reported)
 */
WinnowRule *
_winnow_rule_new_from_json (WinnowJsonReader *r,
                            JsonNode         *node,
                            const char       *path)
{
  static const char * const known[] = {
    "name", "pattern", "flags", "replacement", "replacementMap", "context", "category",
    "minIntensity", "description", NULL
  };
  static const char * const contexts[] = { "all", "user", "assistant", "system", NULL };
  static const char * const intensities[] = { "lite", "full", "ultra", NULL };
  g_autoptr(WinnowRule) self = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name_path = child_path (path, "name");
  g_autofree char *pattern_path = child_path (path, "pattern");
  g_autofree char *flags_path = child_path (path, "flags");
  g_autofree char *replacement_path = child_path (path, "replacement");
  g_autofree char *description_path = child_path (path, "description");
  g_autofree char *category_path = child_path (path, "category");
  gboolean failed_before = r->failed;
  JsonObject *obj;
  guint value;

  r->subject = NULL;
  r->failed = FALSE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path,
                                  "a rule must be an object with “name” and “pattern”, not %s",
                                  _winnow_json_node_type_name (node));
      r->failed = TRUE;
      return NULL;
    }

  obj = json_node_get_object (node);
  self = g_object_new (WINNOW_TYPE_RULE, NULL);

  self->name = _winnow_json_reader_string (r, obj, "name", name_path, TRUE);
  if (self->name != NULL && self->name[0] == '\0')
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, name_path, "must not be empty");
      g_clear_pointer (&self->name, g_free);
    }
  r->subject = self->name;

  _winnow_json_reader_unknown (r, obj, path, known, &self->extra);

  self->pattern = _winnow_json_reader_string (r, obj, "pattern", pattern_path, TRUE);
  self->flags = _winnow_json_reader_string (r, obj, "flags", flags_path, FALSE);
  self->replacement = _winnow_json_reader_string (r, obj, "replacement", replacement_path, FALSE);
  self->description = _winnow_json_reader_string (r, obj, "description", description_path,
                                                  FALSE);
  read_map (r, self, obj, path);

  if ((self->has_context = read_enum (r, obj, "context", path, contexts, &value)))
    self->context = value;
  if ((self->has_min_intensity = read_enum (r, obj, "minIntensity", path, intensities, &value)))
    self->min_intensity = value;

  self->category = _winnow_json_reader_string (r, obj, "category", category_path, FALSE);
  if (self->category != NULL && !g_strv_contains (known_categories, self->category))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) known_categories);

      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, category_path,
                                  "“%s” is not one of %s", self->category, list);
    }

  if (self->pattern != NULL && self->pattern[0] == '\0')
    _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, pattern_path,
                                "an empty pattern matches everywhere");
  else if (self->pattern != NULL)
    {
      const char *flags = self->flags ? self->flags : WINNOW_RULE_DEFAULT_FLAGS;

      self->regex = winnow_regex_new (self->pattern, flags, WINNOW_REGEX_ADAPTIVE, &error);
      if (self->regex == NULL)
        {
          /* a bad flag is the flags member's fault, anything else the pattern's */
          gboolean bad_flag = self->flags != NULL && strstr (error->message, "flag") != NULL;

          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR,
                                      bad_flag ? flags_path : pattern_path,
                                      "invalid regex /%s/%s: %s", self->pattern, flags,
                                      error->message);
        }
      else if (!r->trusted)
        lint_rule (r, self, path);
    }

  if (r->failed)
    {
      r->subject = NULL;
      return NULL;
    }

  r->failed = failed_before;
  r->subject = NULL;

  return g_steal_pointer (&self);
}

/* ---- accessors --------------------------------------------------------------------------- */

const char *
winnow_rule_get_name (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);
  return self->name;
}

const char *
winnow_rule_get_pattern (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);
  return self->pattern;
}

/**
 * winnow_rule_get_flags:
 * @self: a #WinnowRule
 *
 * Returns: the JavaScript flags the pattern runs with (`gi` unless the rule says otherwise)
 */
const char *
winnow_rule_get_flags (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);
  return self->flags ? self->flags : WINNOW_RULE_DEFAULT_FLAGS;
}

/**
 * winnow_rule_get_replacement:
 * @self: a #WinnowRule
 *
 * Returns: (nullable): the replacement in JavaScript syntax, used when the map misses
 */
const char *
winnow_rule_get_replacement (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);
  return self->replacement;
}

const char *
winnow_rule_get_description (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);
  return self->description;
}

/**
 * winnow_rule_get_category:
 * @self: a #WinnowRule
 *
 * Returns: (nullable): the rule's own category, when it names one
 */
const char *
winnow_rule_get_category (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);
  return self->category;
}

WinnowRuleContext
winnow_rule_get_context (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), WINNOW_RULE_CONTEXT_ALL);
  return self->context;
}

WinnowCavemanIntensity
winnow_rule_get_min_intensity (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), WINNOW_CAVEMAN_INTENSITY_LITE);
  return self->min_intensity;
}

/**
 * winnow_rule_get_regex:
 * @self: a #WinnowRule
 *
 * Returns: (transfer none): the compiled pattern
 */
WinnowRegex *
winnow_rule_get_regex (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);
  return self->regex;
}

guint
winnow_rule_get_n_map_entries (WinnowRule *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), 0);
  return self->map->len;
}

/**
 * winnow_rule_get_map_entry:
 * @self: a #WinnowRule
 * @index: which entry, in file order
 * @key: (out) (optional): the key as written
 * @value: (out) (optional): its replacement
 */
void
winnow_rule_get_map_entry (WinnowRule  *self,
                           guint        index,
                           const char **key,
                           const char **value)
{
  const MapEntry *entry;

  g_return_if_fail (WINNOW_IS_RULE (self));
  g_return_if_fail (index < self->map->len);

  entry = &g_array_index (self->map, MapEntry, index);
  if (key != NULL)
    *key = entry->key;
  if (value != NULL)
    *value = entry->value;
}

/**
 * winnow_rule_lookup_map:
 * @self: a #WinnowRule
 * @match: matched text
 * @length: its length in bytes
 *
 * Returns: (nullable): the literal replacement for @match from the `replacementMap`, looked
 *   up trimmed, whitespace-collapsed and lower-cased, or %NULL on a miss
 */
const char *
winnow_rule_lookup_map (WinnowRule *self,
                        const char *match,
                        gsize       length)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);

  if (self->map->len == 0)
    return NULL;

  key = _winnow_rule_normalize_key (match, length);
  return g_hash_table_lookup (self->lookup, key);
}

/**
 * winnow_rule_applies:
 * @self: a #WinnowRule
 * @intensity: the requested intensity
 * @role: the role of the message
 *
 * Returns: whether @self runs at @intensity on a message of @role: its minimum intensity is at
 *   or below @intensity and its context is `all` or @role
 */
gboolean
winnow_rule_applies (WinnowRule             *self,
                     WinnowCavemanIntensity  intensity,
                     WinnowMessageRole       role)
{
  g_return_val_if_fail (WINNOW_IS_RULE (self), FALSE);

  if (self->min_intensity > intensity)
    return FALSE;

  switch (self->context)
    {
    case WINNOW_RULE_CONTEXT_ALL: return TRUE;
    case WINNOW_RULE_CONTEXT_USER: return role == WINNOW_MESSAGE_ROLE_USER;
    case WINNOW_RULE_CONTEXT_ASSISTANT: return role == WINNOW_MESSAGE_ROLE_ASSISTANT;
    case WINNOW_RULE_CONTEXT_SYSTEM: return role == WINNOW_MESSAGE_ROLE_SYSTEM;
    default: return FALSE;
    }
}

/**
 * winnow_rule_to_json_node:
 * @self: a #WinnowRule
 *
 * The rule as written: members it did not set stay absent, unknown members come back.
 *
 * Returns: (transfer full): a JSON object
 */
JsonNode *
winnow_rule_to_json_node (WinnowRule *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();

  g_return_val_if_fail (WINNOW_IS_RULE (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, self->name);
  json_builder_set_member_name (builder, "pattern");
  json_builder_add_string_value (builder, self->pattern);
  if (self->flags != NULL)
    {
      json_builder_set_member_name (builder, "flags");
      json_builder_add_string_value (builder, self->flags);
    }
  if (self->replacement != NULL)
    {
      json_builder_set_member_name (builder, "replacement");
      json_builder_add_string_value (builder, self->replacement);
    }
  if (self->map->len > 0)
    {
      json_builder_set_member_name (builder, "replacementMap");
      json_builder_begin_object (builder);
      for (guint i = 0; i < self->map->len; i++)
        {
          const MapEntry *entry = &g_array_index (self->map, MapEntry, i);

          json_builder_set_member_name (builder, entry->key);
          json_builder_add_string_value (builder, entry->value);
        }
      json_builder_end_object (builder);
    }
  if (self->has_context)
    {
      json_builder_set_member_name (builder, "context");
      json_builder_add_string_value (builder, winnow_rule_context_to_string (self->context));
    }
  if (self->category != NULL)
    {
      json_builder_set_member_name (builder, "category");
      json_builder_add_string_value (builder, self->category);
    }
  if (self->has_min_intensity)
    {
      json_builder_set_member_name (builder, "minIntensity");
      json_builder_add_string_value (builder,
                                     winnow_caveman_intensity_to_string (self->min_intensity));
    }
  if (self->description != NULL)
    {
      json_builder_set_member_name (builder, "description");
      json_builder_add_string_value (builder, self->description);
    }
  _winnow_json_builder_add_members (builder, self->extra);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
