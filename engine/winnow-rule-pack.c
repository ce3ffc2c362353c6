/* winnow-rule-pack.c — a file of Caveman rules for one language and category
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `rules/<language>/<category>.json`: `{ "language", "category", "rules": [...] }` as in
 * OmniRoute, plus an optional `tests[]` of samples — `{ name, rule?, intensity?, role?, input,
 * expected }` — that the verify gate runs through the whole Caveman engine (protected tokens
 * included). A test that names a rule runs that rule alone, at the rule's own minimum intensity
 * and for a role its context allows unless it says otherwise; a test without one runs the
 * whole pack at "full" for a user message.
 *
 * Nothing in a pack is fatal to the rest: an invalid rule is skipped with diagnostics while
 * its siblings load; only a pack that is not a pack (bad JSON, no language, no rules array)
 * fails as a whole.
 */

#define G_LOG_DOMAIN "winnow-rule-pack"

#include "config.h"

#include <string.h>

#include "winnow-json-locator.h"
#include "winnow-json-reader.h"
#include "winnow-rule-pack.h"
#include "winnow-rule-private.h"

struct _WinnowRulePack
{
  GObject     parent_instance;
  char       *language;
  char       *category;
  char       *source;
  char       *file;
  char       *name;
  GPtrArray  *rules;     /* WinnowRule */
  GPtrArray  *tests;     /* WinnowRuleTest */
  JsonObject *extra;
  guint       n_errors;
};

G_DEFINE_FINAL_TYPE (WinnowRulePack, winnow_rule_pack, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (WinnowRuleTest, winnow_rule_test, winnow_rule_test_copy,
                     winnow_rule_test_free)

static const char * const known_pack_categories[] = {
  "filler", "context", "structural", "dedup", "terse", "ultra", NULL
};

/**
 * winnow_rule_test_new:
 * @name: what the sample shows
 * @rule: (nullable): the rule it exercises alone, or %NULL for the whole pack
 * @intensity: the intensity it runs at
 * @role: the role of the message
 * @input: prose as written
 * @expected: the expected result
 *
 * Returns: (transfer full): a new #WinnowRuleTest
 */
WinnowRuleTest *
winnow_rule_test_new (const char             *name,
                      const char             *rule,
                      WinnowCavemanIntensity  intensity,
                      WinnowMessageRole       role,
                      const char             *input,
                      const char             *expected)
{
  WinnowRuleTest *test = g_new0 (WinnowRuleTest, 1);

  test->name = g_strdup (name);
  test->rule = g_strdup (rule);
  test->intensity = intensity;
  test->role = role;
  test->input = g_strdup (input);
  test->expected = g_strdup (expected);

  return test;
}

WinnowRuleTest *
winnow_rule_test_copy (const WinnowRuleTest *test)
{
  return winnow_rule_test_new (test->name, test->rule, test->intensity, test->role, test->input,
                               test->expected);
}

void
winnow_rule_test_free (WinnowRuleTest *test)
{
  if (test == NULL)
    return;

  g_free (test->name);
  g_free (test->rule);
  g_free (test->input);
  g_free (test->expected);
  g_free (test);
}

static void
winnow_rule_pack_finalize (GObject *object)
{
  WinnowRulePack *self = (WinnowRulePack *)object;

  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->category, g_free);
  g_clear_pointer (&self->source, g_free);
  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->tests, g_ptr_array_unref);
  g_clear_pointer (&self->extra, json_object_unref);

  G_OBJECT_CLASS (winnow_rule_pack_parent_class)->finalize (object);
}

static void
winnow_rule_pack_class_init (WinnowRulePackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_rule_pack_finalize;
}

static void
winnow_rule_pack_init (WinnowRulePack *self)
{
  self->rules = g_ptr_array_new_with_free_func (g_object_unref);
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_rule_test_free);
}

/* "en", "pt-BR", "zh-Hans": a BCP-47-like language key. */
static gboolean
is_language_key (const char *key)
{
  const char *p = key;
  guint n = 0;

  while (g_ascii_isalpha (*p))
    p++, n++;
  if (n < 2 || n > 3)
    return FALSE;

  while (*p == '-')
    {
      p++;
      n = 0;
      while (g_ascii_isalnum (*p))
        p++, n++;
      if (n < 2 || n > 8)
        return FALSE;
    }

  return *p == '\0';
}

static void
read_tests (WinnowJsonReader *r,
            WinnowRulePack   *self,
            JsonObject       *obj)
{
  static const char * const known[] = {
    "name", "rule", "intensity", "role", "input", "expected", NULL
  };
  JsonArray *array = _winnow_json_reader_array (r, obj, "tests", "tests",
                                                "an array of test objects");

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *path = g_strdup_printf ("tests[%u]", i);
      g_autofree char *name_path = g_strconcat (path, ".name", NULL);
      g_autofree char *rule_path = g_strconcat (path, ".rule", NULL);
      g_autofree char *intensity_path = g_strconcat (path, ".intensity", NULL);
      g_autofree char *role_path = g_strconcat (path, ".role", NULL);
      g_autofree char *input_path = g_strconcat (path, ".input", NULL);
      g_autofree char *expected_path = g_strconcat (path, ".expected", NULL);
      g_autofree char *name = NULL;
      g_autofree char *rule_name = NULL;
      g_autofree char *intensity_name = NULL;
      g_autofree char *role_name = NULL;
      g_autofree char *input = NULL;
      g_autofree char *expected = NULL;
      WinnowCavemanIntensity intensity = WINNOW_CAVEMAN_INTENSITY_FULL;
      WinnowMessageRole role = WINNOW_MESSAGE_ROLE_USER;
      gboolean ok = TRUE;
      WinnowRule *rule = NULL;
      JsonObject *test;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path,
                                      "must be a {\"name\", \"input\", \"expected\"} object, "
                                      "not %s", _winnow_json_node_type_name (element));
          continue;
        }

      test = json_node_get_object (element);
      _winnow_json_reader_unknown (r, test, path, known, NULL);
      name = _winnow_json_reader_string (r, test, "name", name_path, FALSE);
      rule_name = _winnow_json_reader_string (r, test, "rule", rule_path, FALSE);
      intensity_name = _winnow_json_reader_string (r, test, "intensity", intensity_path, FALSE);
      role_name = _winnow_json_reader_string (r, test, "role", role_path, FALSE);
      input = _winnow_json_reader_string (r, test, "input", input_path, TRUE);
      expected = _winnow_json_reader_string (r, test, "expected", expected_path, TRUE);

      if (rule_name != NULL)
        {
          rule = winnow_rule_pack_lookup_rule (self, rule_name);
          if (rule == NULL)
            {
              _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, rule_path,
                                          "no rule named “%s” in this pack", rule_name);
              ok = FALSE;
            }
          else
            {
              intensity = winnow_rule_get_min_intensity (rule);
              switch (winnow_rule_get_context (rule))
                {
                case WINNOW_RULE_CONTEXT_ASSISTANT: role = WINNOW_MESSAGE_ROLE_ASSISTANT; break;
                case WINNOW_RULE_CONTEXT_SYSTEM: role = WINNOW_MESSAGE_ROLE_SYSTEM; break;
                case WINNOW_RULE_CONTEXT_USER:
                case WINNOW_RULE_CONTEXT_ALL:
                default: role = WINNOW_MESSAGE_ROLE_USER; break;
                }
            }
        }

      if (intensity_name != NULL &&
          !winnow_caveman_intensity_from_string (intensity_name, &intensity))
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, intensity_path,
                                      "“%s” is not one of lite, full, ultra", intensity_name);
          ok = FALSE;
        }

      if (role_name != NULL && !winnow_message_role_from_string (role_name, &role))
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, role_path,
                                      "“%s” is not one of system, user, assistant, tool",
                                      role_name);
          ok = FALSE;
        }

      if (name == NULL)
        name = rule_name ? g_strdup_printf ("%s %u", rule_name, i + 1)
                         : g_strdup_printf ("test %u", i + 1);

      if (ok && input != NULL && expected != NULL)
        g_ptr_array_add (self->tests,
                         winnow_rule_test_new (name, rule_name, intensity, role, input,
                                               expected));
    }
}

static gboolean
parse_pack (WinnowJsonReader *r,
            WinnowRulePack   *self,
            JsonNode         *root)
{
  static const char * const known[] = { "language", "category", "rules", "tests", NULL };
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *obj;
  JsonArray *rules;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, "",
                                  "a rule pack must be an object with “language”, “category” "
                                  "and “rules”, not %s", _winnow_json_node_type_name (root));
      return FALSE;
    }

  obj = json_node_get_object (root);
  _winnow_json_reader_unknown (r, obj, "", known, &self->extra);

  self->language = _winnow_json_reader_string (r, obj, "language", "language", TRUE);
  if (self->language != NULL && !is_language_key (self->language))
    _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, "language",
                                "“%s” is not a language key such as en, pt-BR or zh",
                                self->language);

  self->category = _winnow_json_reader_string (r, obj, "category", "category", TRUE);
  if (self->category != NULL && !g_strv_contains (known_pack_categories, self->category))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) known_pack_categories);

      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_WARNING, "category",
                                  "unusual category “%s” (usual: %s)", self->category, list);
    }

  rules = _winnow_json_reader_array (r, obj, "rules", "rules", "an array of rule objects");
  if (rules == NULL && !json_object_has_member (obj, "rules"))
    _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, "rules", "is required and missing");

  if (r->failed)
    return FALSE;

  for (guint i = 0; rules != NULL && i < json_array_get_length (rules); i++)
    {
      g_autofree char *path = g_strdup_printf ("rules[%u]", i);
      WinnowRule *rule = _winnow_rule_new_from_json (r, json_array_get_element (rules, i), path);

      if (rule == NULL)
        {
          self->n_errors++;
          continue;
        }

      if (g_hash_table_contains (names, winnow_rule_get_name (rule)))
        {
          g_autofree char *name_path = g_strconcat (path, ".name", NULL);

          r->subject = winnow_rule_get_name (rule);
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, name_path,
                                      "another rule of this pack has the same name; this one "
                                      "is skipped");
          r->subject = NULL;
          self->n_errors++;
          g_object_unref (rule);
          continue;
        }

      g_hash_table_add (names, (gpointer) winnow_rule_get_name (rule));
      g_ptr_array_add (self->rules, rule);
    }

  r->failed = FALSE;
  read_tests (r, self, obj);
  if (r->failed)
    self->n_errors++;

  return TRUE;
}

/* The stem of "rules/en/filler.json" is "filler"; packs apply in file-name order. */
static char *
file_stem (const char *file)
{
  g_autofree char *base = g_path_get_basename (file);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';

  return g_steal_pointer (&base);
}

/**
 * winnow_rule_pack_parse:
 * @text: the file's bytes
 * @length: length of @text, or -1 if nul-terminated
 * @source: where it comes from: "built-in", "global", "file"
 * @file: (nullable): its name, for diagnostics and ordering
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): findings are appended here
 *
 * Parses and validates a pack. Each problem becomes a diagnostic naming the file, the rule,
 * the JSON path (with line and column) and the reason. Invalid rules are left out.
 *
 * Returns: (transfer full) (nullable): the pack, or %NULL when the file is not a rule pack
 */
WinnowRulePack *
winnow_rule_pack_parse (const char *text,
                        gssize      length,
                        const char *source,
                        const char *file,
                        GPtrArray  *diagnostics)
{
  g_autoptr(WinnowRulePack) self = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GPtrArray) own = NULL;
  guint first;
  gsize len;
  WinnowJsonReader r = {
    .source = source,
    .file = file,
    .base = "",
    .subject_kind = "rule",
    .trusted = g_strcmp0 (source, "built-in") == 0,
  };

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (diagnostics == NULL)
    diagnostics = own = g_ptr_array_new_with_free_func (g_object_unref);
  r.diagnostics = diagnostics;
  first = diagnostics->len;

  len = length < 0 ? strlen (text) : (gsize) length;
  parser = _winnow_json_parse_document (&text, &len, source, file, "a rule pack object",
                                        diagnostics);
  if (parser == NULL)
    return NULL;

  self = g_object_new (WINNOW_TYPE_RULE_PACK, NULL);
  self->source = g_strdup (source);
  self->file = g_strdup (file);

  if (!parse_pack (&r, self, json_parser_get_root (parser)))
    {
      _winnow_json_locate_diagnostics (diagnostics, first, text, len);
      return NULL;
    }

  self->name = file ? file_stem (file) : g_strdup (self->category);

  if (file != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (file);
      g_autofree char *dir_name = g_path_get_basename (dir);

      if (strcmp (dir, ".") != 0 && strcmp (dir_name, self->language) != 0 &&
          is_language_key (dir_name))
        _winnow_json_reader_report (&r, WINNOW_DIAGNOSTIC_WARNING, "language",
                                    "the pack says “%s” but sits in the directory of “%s”",
                                    self->language, dir_name);
    }

  _winnow_json_locate_diagnostics (diagnostics, first, text, len);
  return g_steal_pointer (&self);
}

/**
 * winnow_rule_pack_load_file:
 * @path: a rule pack file
 * @source: where it comes from: "built-in", "global", "file"
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): findings are appended here,
 *   including an unreadable file or a directory
 *
 * Returns: (transfer full) (nullable): the pack, or %NULL
 */
WinnowRulePack *
winnow_rule_pack_load_file (const char *path,
                            const char *source,
                            GPtrArray  *diagnostics)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  contents = _winnow_json_read_file (path, source, "a JSON rule pack", &length, diagnostics);
  if (contents == NULL)
    return NULL;

  return winnow_rule_pack_parse (contents, length, source, path, diagnostics);
}

const char *
winnow_rule_pack_get_language (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);
  return self->language;
}

const char *
winnow_rule_pack_get_category (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);
  return self->category;
}

const char *
winnow_rule_pack_get_source (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);
  return self->source;
}

/**
 * winnow_rule_pack_get_file:
 * @self: a #WinnowRulePack
 *
 * Returns: (nullable): the file it was read from
 */
const char *
winnow_rule_pack_get_file (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);
  return self->file;
}

/**
 * winnow_rule_pack_get_name:
 * @self: a #WinnowRulePack
 *
 * Returns: the pack's file name without extension ("filler"); packs of a language apply in
 *   the order of their names
 */
const char *
winnow_rule_pack_get_name (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);
  return self->name;
}

guint
winnow_rule_pack_get_n_rules (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), 0);
  return self->rules->len;
}

/**
 * winnow_rule_pack_get_rule:
 * @self: a #WinnowRulePack
 * @index: which rule, in file order
 *
 * Returns: (transfer none): the rule
 */
WinnowRule *
winnow_rule_pack_get_rule (WinnowRulePack *self,
                           guint           index)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);
  g_return_val_if_fail (index < self->rules->len, NULL);
  return g_ptr_array_index (self->rules, index);
}

/**
 * winnow_rule_pack_lookup_rule:
 * @self: a #WinnowRulePack
 * @name: a rule name
 *
 * Returns: (transfer none) (nullable): the rule called @name
 */
WinnowRule *
winnow_rule_pack_lookup_rule (WinnowRulePack *self,
                              const char     *name)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);

  for (guint i = 0; i < self->rules->len; i++)
    if (g_strcmp0 (winnow_rule_get_name (g_ptr_array_index (self->rules, i)), name) == 0)
      return g_ptr_array_index (self->rules, i);

  return NULL;
}

guint
winnow_rule_pack_get_n_tests (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), 0);
  return self->tests->len;
}

const WinnowRuleTest *
winnow_rule_pack_get_test (WinnowRulePack *self,
                           guint           index)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);
  g_return_val_if_fail (index < self->tests->len, NULL);
  return g_ptr_array_index (self->tests, index);
}

/**
 * winnow_rule_pack_get_n_errors:
 * @self: a #WinnowRulePack
 *
 * Returns: how many rules or tests were left out because of errors
 */
guint
winnow_rule_pack_get_n_errors (WinnowRulePack *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), 0);
  return self->n_errors;
}

/**
 * winnow_rule_pack_to_json:
 * @self: a #WinnowRulePack
 *
 * Returns: (transfer full): the pack as JSON, ending with a newline
 */
char *
winnow_rule_pack_to_json (WinnowRulePack *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "language");
  json_builder_add_string_value (builder, self->language);
  json_builder_set_member_name (builder, "category");
  json_builder_add_string_value (builder, self->category);
  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->rules->len; i++)
    json_builder_add_value (builder, winnow_rule_to_json_node (g_ptr_array_index (self->rules, i)));
  json_builder_end_array (builder);

  if (self->tests->len > 0)
    {
      json_builder_set_member_name (builder, "tests");
      json_builder_begin_array (builder);
      for (guint i = 0; i < self->tests->len; i++)
        {
          const WinnowRuleTest *test = g_ptr_array_index (self->tests, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, test->name);
          if (test->rule != NULL)
            {
              json_builder_set_member_name (builder, "rule");
              json_builder_add_string_value (builder, test->rule);
            }
          json_builder_set_member_name (builder, "intensity");
          json_builder_add_string_value (builder,
                                         winnow_caveman_intensity_to_string (test->intensity));
          json_builder_set_member_name (builder, "role");
          json_builder_add_string_value (builder, winnow_message_role_to_string (test->role));
          json_builder_set_member_name (builder, "input");
          json_builder_add_string_value (builder, test->input);
          json_builder_set_member_name (builder, "expected");
          json_builder_add_string_value (builder, test->expected);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  _winnow_json_builder_add_members (builder, self->extra);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return _winnow_json_to_document (root);
}
