/* winnow-filter-json.c — reading a filter from JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Parsing accepts the canonical shape (`match`, `rules`, `preserve`, `tests`) and the legacy
 * flat shape (rules at top level, `name`, `commandTypes`, `stripPatterns`, `keepPatterns`,
 * `priorityPatterns`, `preserveHead`, `preserveTail`); every problem becomes a diagnostic
 * naming the file, the filter id, the JSON path and the reason. Members Winnow does not know
 * are kept (with a warning) so that winnow_filter_to_json() can write them back.
 */

#define G_LOG_DOMAIN "winnow-filter"

#include "config.h"

#include <string.h>

#include "winnow-diagnostic.h"
#include "winnow-error.h"
#include "winnow-filter-private.h"
#include "winnow-json-locator.h"
#include "winnow-json-reader.h"

static const char * const known_categories[] = {
  "git", "test", "build", "lint", "package", "shell", "docker", "infra", "cloud", "network",
  "runtime", "generic", NULL
};

/* ---- parsing ----------------------------------------------------------------------------- */

typedef WinnowJsonReader Parser;

static JsonObject *
read_section (Parser     *p,
              JsonObject *obj,
              const char *key)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, key, "must be an object, not %s",
                                  _winnow_json_node_type_name (node));
      return NULL;
    }

  return json_node_get_object (node);
}

static void
read_replace (Parser       *p,
              WinnowFilter *self,
              JsonObject   *rules,
              const char   *key,
              const char   *path)
{
  JsonNode *node = json_object_get_member (rules, key);
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, path,
                                  "must be an array of {\"pattern\", \"replacement\"} "
                                  "objects, not %s",
                                  _winnow_json_node_type_name (node));
      return;
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);
      g_autofree char *pattern_path = g_strconcat (element_path, ".pattern", NULL);
      g_autofree char *replacement_path = g_strconcat (element_path, ".replacement", NULL);
      static const char * const known[] = { "pattern", "replacement", NULL };
      WinnowReplaceRule rule = { 0 };
      JsonObject *obj;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, element_path,
                                      "must be a {\"pattern\", \"replacement\"} object, not %s",
                                      _winnow_json_node_type_name (element));
          continue;
        }

      obj = json_node_get_object (element);
      _winnow_json_reader_unknown (p, obj, element_path, known, NULL);
      rule.pattern = _winnow_json_reader_string (p, obj, "pattern", pattern_path, TRUE);
      rule.replacement = _winnow_json_reader_string (p, obj, "replacement", replacement_path,
                                                     FALSE);

      if (rule.pattern != NULL && rule.pattern[0] == '\0')
        _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, pattern_path,
                                    "an empty pattern matches everywhere");
      else if (rule.pattern != NULL &&
               _winnow_json_reader_regex (p, rule.pattern, WINNOW_REPLACE_FLAGS, pattern_path))
        {
          if (rule.replacement == NULL)
            rule.replacement = g_strdup ("");
          g_array_append_val (self->replace, rule);
          continue;
        }

      _winnow_replace_rule_clear (&rule);
    }
}

static void
read_match_output (Parser       *p,
                   WinnowFilter *self,
                   JsonObject   *rules,
                   const char   *path)
{
  JsonNode *node = json_object_get_member (rules, "matchOutput");
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, path,
                                  "must be an array of {\"pattern\", \"message\", "
                                  "\"unless\"} objects, not %s",
                                  _winnow_json_node_type_name (node));
      return;
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);
      g_autofree char *pattern_path = g_strconcat (element_path, ".pattern", NULL);
      g_autofree char *message_path = g_strconcat (element_path, ".message", NULL);
      g_autofree char *unless_path = g_strconcat (element_path, ".unless", NULL);
      static const char * const known[] = { "pattern", "message", "unless", NULL };
      WinnowMatchOutputRule rule = { 0 };
      gboolean ok;
      JsonObject *obj;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, element_path,
                                      "must be a {\"pattern\", \"message\"} object, not %s",
                                      _winnow_json_node_type_name (element));
          continue;
        }

      obj = json_node_get_object (element);
      _winnow_json_reader_unknown (p, obj, element_path, known, NULL);
      rule.pattern = _winnow_json_reader_string (p, obj, "pattern", pattern_path, TRUE);
      rule.message = _winnow_json_reader_string (p, obj, "message", message_path, TRUE);
      rule.unless = _winnow_json_reader_string (p, obj, "unless", unless_path, FALSE);

      ok = rule.pattern != NULL && rule.message != NULL;
      if (ok && rule.pattern[0] == '\0')
        {
          _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, pattern_path,
                                      "an empty pattern would replace every output");
          ok = FALSE;
        }
      ok = ok && _winnow_json_reader_regex (p, rule.pattern, WINNOW_TEXT_FLAGS, pattern_path);
      if (ok && rule.unless != NULL && rule.unless[0] != '\0')
        ok = _winnow_json_reader_regex (p, rule.unless, WINNOW_TEXT_FLAGS, unless_path);
      if (ok && rule.unless != NULL && rule.unless[0] == '\0')
        g_clear_pointer (&rule.unless, g_free);

      if (ok)
        g_array_append_val (self->match_output, rule);
      else
        _winnow_match_output_rule_clear (&rule);
    }
}

static void
read_tests (Parser       *p,
            WinnowFilter *self,
            JsonObject   *obj)
{
  JsonNode *node = json_object_get_member (obj, "tests");
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, "tests",
                                  "must be an array of test objects, not %s",
                                  _winnow_json_node_type_name (node));
      return;
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *path = g_strdup_printf ("tests[%u]", i);
      g_autofree char *name_path = g_strconcat (path, ".name", NULL);
      g_autofree char *command_path = g_strconcat (path, ".command", NULL);
      g_autofree char *input_path = g_strconcat (path, ".input", NULL);
      g_autofree char *expected_path = g_strconcat (path, ".expected", NULL);
      static const char * const known[] = { "name", "command", "input", "expected", NULL };
      g_autofree char *name = NULL;
      g_autofree char *command = NULL;
      g_autofree char *input = NULL;
      g_autofree char *expected = NULL;
      JsonObject *test;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, path,
                                      "must be a {\"name\", \"input\", \"expected\"} "
                                      "object, not %s",
                                      _winnow_json_node_type_name (element));
          continue;
        }

      test = json_node_get_object (element);
      _winnow_json_reader_unknown (p, test, path, known, NULL);
      name = _winnow_json_reader_string (p, test, "name", name_path, FALSE);
      command = _winnow_json_reader_string (p, test, "command", command_path, FALSE);
      input = _winnow_json_reader_string (p, test, "input", input_path, TRUE);
      expected = _winnow_json_reader_string (p, test, "expected", expected_path, TRUE);

      if (name == NULL && json_object_get_member (test, "name") == NULL)
        {
          _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_WARNING, path,
                                      "has no name; called “test %u”", i + 1);
          name = g_strdup_printf ("test %u", i + 1);
        }

      if (name != NULL && input != NULL && expected != NULL)
        g_ptr_array_add (self->tests, winnow_filter_test_new (name, command, input, expected));
    }
}

static gboolean
is_valid_id (const char *id)
{
  if (id[0] == '\0' || !g_ascii_isalnum (id[0]))
    return FALSE;

  for (const char *p = id; *p; p++)
    if (!g_ascii_isalnum (*p) && strchr ("._:-", *p) == NULL)
      return FALSE;

  return TRUE;
}

static gboolean
looks_legacy (JsonObject *obj)
{
  static const char * const flat_keys[] = {
    "commandTypes", "stripPatterns", "keepPatterns", "priorityPatterns", "preserveHead",
    "preserveTail", "dropPatterns", "includePatterns", "collapsePatterns", "maxLines",
    "headLines", "tailLines", "stripAnsi", "replace", "matchOutput", "onEmpty", NULL
  };

  if (json_object_has_member (obj, "rules") || json_object_has_member (obj, "match"))
    return FALSE;

  for (guint i = 0; flat_keys[i] != NULL; i++)
    if (json_object_has_member (obj, flat_keys[i]))
      return TRUE;

  return FALSE;
}

/* A field lives under its canonical section or, in the legacy flat shape, at the top level,
 * possibly under an older name. Returns the object holding it and its path, or NULL. */
typedef struct
{
  JsonObject *section;
  const char *section_name;
  JsonObject *top;
  gboolean    legacy;
} Sections;

static JsonObject *
locate (const Sections  *where,
        const char      *key,
        const char      *legacy_key,
        const char     **found_key,
        char           **path)
{
  if (!where->legacy)
    {
      if (where->section == NULL || !json_object_has_member (where->section, key))
        return NULL;
      *found_key = key;
      *path = g_strconcat (where->section_name, ".", key, NULL);
      return where->section;
    }

  if (legacy_key != NULL && json_object_has_member (where->top, legacy_key))
    key = legacy_key;
  else if (!json_object_has_member (where->top, key))
    return NULL;

  *found_key = key;
  *path = g_strdup (key);
  return where->top;
}

static GStrv
read_field_list (Parser         *p,
                 const Sections *where,
                 const char     *key,
                 const char     *legacy_key,
                 const char     *regex_flags)
{
  g_autofree char *path = NULL;
  const char *found = NULL;
  JsonObject *obj = locate (where, key, legacy_key, &found, &path);

  return obj ? _winnow_json_reader_string_list (p, obj, found, path, regex_flags) : NULL;
}

static gboolean
read_field_bool (Parser         *p,
                 const Sections *where,
                 const char     *key)
{
  g_autofree char *path = NULL;
  const char *found = NULL;
  JsonObject *obj = locate (where, key, NULL, &found, &path);

  return obj ? _winnow_json_reader_bool (p, obj, found, path) : FALSE;
}

static gboolean
read_field_uint (Parser         *p,
                 const Sections *where,
                 const char     *key,
                 const char     *legacy_key,
                 guint          *out)
{
  g_autofree char *path = NULL;
  const char *found = NULL;
  JsonObject *obj = locate (where, key, legacy_key, &found, &path);
  gint64 value;

  if (obj == NULL || !_winnow_json_reader_int (p, obj, found, path, 0, G_MAXINT32, &value))
    return FALSE;

  *out = value;
  return TRUE;
}

static gboolean
parse_filter (Parser       *p,
              WinnowFilter *self,
              JsonObject   *obj)
{
  static const char * const canonical_top[] = {
    "id", "label", "description", "category", "priority", "match", "rules", "preserve",
    "tests", NULL
  };
  static const char * const legacy_top[] = {
    "id", "label", "name", "description", "category", "priority", "commandTypes",
    "outputTypes", "commands", "patterns", "stripPatterns", "keepPatterns", "priorityPatterns",
    "preserveHead", "preserveTail", "stripAnsi", "filterStderr", "replace", "matchOutput",
    "dropPatterns", "includePatterns", "collapsePatterns", "truncateLineAt", "deduplicate",
    "maxLines", "headLines", "tailLines", "onEmpty", "errorPatterns", "summaryPatterns",
    "tests", NULL
  };
  static const char * const match_keys[] = { "outputTypes", "commands", "patterns", NULL };
  static const char * const rules_keys[] = {
    "stripAnsi", "filterStderr", "replace", "matchOutput", "dropPatterns", "includePatterns",
    "collapsePatterns", "truncateLineAt", "deduplicate", "maxLines", "headLines", "tailLines",
    "onEmpty", NULL
  };
  static const char * const preserve_keys[] = { "errorPatterns", "summaryPatterns", NULL };
  JsonObject *match = NULL;
  JsonObject *rules = NULL;
  JsonObject *preserve = NULL;
  gint64 value;


  self->id = _winnow_json_reader_string (p, obj, "id", "id", TRUE);
  if (self->id != NULL && !is_valid_id (self->id))
    {
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_ERROR, "id",
                                  "“%s” is not a valid id (letters, digits and . _ : - "
                                  "only, starting with a letter or digit)", self->id);
      g_clear_pointer (&self->id, g_free);
    }
  p->subject = self->id;

  self->legacy = looks_legacy (obj);
  if (self->legacy)
    {
      _winnow_json_reader_unknown (p, obj, "", legacy_top, &self->extra);
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_INFO, "",
                                  "legacy flat filter shape; it is read as the canonical "
                                  "shape and saved as one");
    }
  else
    {
      _winnow_json_reader_unknown (p, obj, "", canonical_top, &self->extra);
      match = read_section (p, obj, "match");
      rules = read_section (p, obj, "rules");
      preserve = read_section (p, obj, "preserve");
      if (match != NULL)
        _winnow_json_reader_unknown (p, match, "match", match_keys, &self->extra_match);
      if (rules != NULL)
        _winnow_json_reader_unknown (p, rules, "rules", rules_keys, &self->extra_rules);
      if (preserve != NULL)
        _winnow_json_reader_unknown (p, preserve, "preserve", preserve_keys, &self->extra_preserve);
    }

  self->label = _winnow_json_reader_string (p, obj, "label", "label", FALSE);
  if (self->label == NULL && self->legacy)
    self->label = _winnow_json_reader_string (p, obj, "name", "name", FALSE);
  if (self->label == NULL && self->id != NULL)
    {
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_WARNING, "label",
                                  "missing; the id is shown instead");
      self->label = g_strdup (self->id);
    }

  self->description = _winnow_json_reader_string (p, obj, "description", "description", FALSE);

  self->category = _winnow_json_reader_string (p, obj, "category", "category", FALSE);
  if (self->category == NULL)
    {
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_WARNING, "category",
                                  "missing; “generic” is assumed");
      self->category = g_strdup ("generic");
    }
  else if (!g_strv_contains (known_categories, self->category))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) known_categories);
      _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_WARNING, "category",
                                  "unknown category “%s” (known: %s)", self->category, list);
    }

  if (_winnow_json_reader_int (p, obj, "priority", "priority", G_MININT32, G_MAXINT32, &value))
    {
      self->priority = value;
      if (value < 0 || value > 100)
        _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_WARNING, "priority",
                                    "%d is outside the usual range 0–100", self->priority);
    }

  {
    const Sections in_match = { match, "match", obj, self->legacy };
    const Sections in_rules = { rules, "rules", obj, self->legacy };
    const Sections in_preserve = { preserve, "preserve", obj, self->legacy };
    g_autofree char *path = NULL;
    const char *found = NULL;
    JsonObject *holder;

    self->output_types = read_field_list (p, &in_match, "outputTypes", "commandTypes", NULL);
    self->commands = read_field_list (p, &in_match, "commands", NULL, WINNOW_TEXT_FLAGS);
    self->patterns = read_field_list (p, &in_match, "patterns", NULL, WINNOW_TEXT_FLAGS);

    self->strip_ansi = read_field_bool (p, &in_rules, "stripAnsi");
    self->filter_stderr = read_field_bool (p, &in_rules, "filterStderr");
    if ((holder = locate (&in_rules, "replace", NULL, &found, &path)) != NULL)
      read_replace (p, self, holder, found, path);
    g_clear_pointer (&path, g_free);
    if ((holder = locate (&in_rules, "matchOutput", NULL, &found, &path)) != NULL)
      read_match_output (p, self, holder, path);
    g_clear_pointer (&path, g_free);
    self->drop = read_field_list (p, &in_rules, "dropPatterns", "stripPatterns",
                                  WINNOW_LINE_FLAGS);
    self->include = read_field_list (p, &in_rules, "includePatterns", "keepPatterns",
                                     WINNOW_LINE_FLAGS);
    self->collapse = read_field_list (p, &in_rules, "collapsePatterns", NULL, WINNOW_LINE_FLAGS);
    read_field_uint (p, &in_rules, "truncateLineAt", NULL, &self->truncate_line_at);
    self->deduplicate = read_field_bool (p, &in_rules, "deduplicate");
    read_field_uint (p, &in_rules, "maxLines", NULL, &self->max_lines);
    self->has_head_lines = read_field_uint (p, &in_rules, "headLines", "preserveHead",
                                            &self->head_lines);
    self->has_tail_lines = read_field_uint (p, &in_rules, "tailLines", "preserveTail",
                                            &self->tail_lines);
    if ((holder = locate (&in_rules, "onEmpty", NULL, &found, &path)) != NULL)
      self->on_empty = _winnow_json_reader_string (p, holder, found, path, FALSE);
    g_clear_pointer (&path, g_free);

    self->error_patterns = read_field_list (p, &in_preserve, "errorPatterns", "priorityPatterns",
                                            WINNOW_LINE_FLAGS);
    self->summary_patterns = read_field_list (p, &in_preserve, "summaryPatterns", NULL,
                                              WINNOW_LINE_FLAGS);
  }

  read_tests (p, self, obj);

  if (self->max_lines > 0 && self->head_lines + self->tail_lines == 0)
    _winnow_json_reader_report (p, WINNOW_DIAGNOSTIC_WARNING, "rules.maxLines",
                                "headLines and tailLines are both 0, so a cut keeps only "
                                "preserved lines");

  return !p->failed;
}

/**
 * winnow_filter_new_from_json:
 * @node: a JSON object, canonical or legacy flat shape
 * @source: where it comes from
 * @file: (nullable): file name for diagnostics
 * @json_path: (nullable): where @node sits in its file, e.g. "[2]" in an array pack
 * @flags: #WinnowFilterParseFlags
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): findings are appended here
 *
 * Parses and validates one filter. Every problem becomes a diagnostic naming the file, the
 * filter id, the JSON path and the reason; warnings (unknown fields, an unknown category)
 * do not stop the filter from loading, errors do.
 *
 * Returns: (transfer full) (nullable): the filter, or %NULL if it has errors
 */
WinnowFilter *
winnow_filter_new_from_json (JsonNode               *node,
                             WinnowFilterSource      source,
                             const char             *file,
                             const char             *json_path,
                             WinnowFilterParseFlags  flags,
                             GPtrArray              *diagnostics)
{
  g_autoptr(WinnowFilter) self = NULL;
  Parser p = {
    .source = winnow_filter_source_to_string (source),
    .file = file,
    .base = json_path ? json_path : "",
    .subject_kind = "filter",
    .diagnostics = diagnostics,
    .lazy_regex = (flags & WINNOW_FILTER_PARSE_LAZY_REGEX) != 0,
  };

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _winnow_json_reader_report (&p, WINNOW_DIAGNOSTIC_ERROR, "",
                                  "a filter must be a JSON object, not %s",
                                  _winnow_json_node_type_name (node));
      return NULL;
    }

  self = g_object_new (WINNOW_TYPE_FILTER, NULL);
  self->source = source;
  self->file = g_strdup (file);

  if (!parse_filter (&p, self, json_node_get_object (node)))
    return NULL;

  return g_steal_pointer (&self);
}

/* Reads the tests of a built-in filter from its own file in the resource. */
void
_winnow_filter_load_tests (WinnowFilter *self)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;
  gsize size;
  const char *data;
  Parser p = {
    .source = winnow_filter_source_to_string (self->source),
    .file = self->file,
    .base = "",
    .subject_kind = "filter",
    .subject = self->id,
    .lazy_regex = TRUE,
  };

  bytes = g_resources_lookup_data (self->tests_resource, 0, NULL);
  if (bytes == NULL)
    return;

  data = g_bytes_get_data (bytes, &size);
  if (!json_parser_load_from_data (parser, data, size, NULL))
    return;

  root = json_parser_get_root (parser);
  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    read_tests (&p, self, json_node_get_object (root));
  else if (root != NULL && JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *array = json_node_get_array (root);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_OBJECT (element) &&
              g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (element),
                                                                     "id", NULL),
                         self->id) == 0)
            read_tests (&p, self, json_node_get_object (element));
        }
    }
}

/* ---- built-in filters, read in two steps ------------------------------------------------- */

#define SWAP_POINTERS(a, b) G_STMT_START { gpointer swap_ = (a); (a) = (b); (b) = swap_; } G_STMT_END

/* Moves everything but the head (id … match, already set from the compiled-in index) and the
 * tests (read separately) from @full into @self; @full takes @self's empty defaults. */
static void
take_body (WinnowFilter *self,
           WinnowFilter *full)
{
  SWAP_POINTERS (self->replace, full->replace);
  SWAP_POINTERS (self->match_output, full->match_output);
  SWAP_POINTERS (self->drop, full->drop);
  SWAP_POINTERS (self->include, full->include);
  SWAP_POINTERS (self->collapse, full->collapse);
  SWAP_POINTERS (self->on_empty, full->on_empty);
  SWAP_POINTERS (self->error_patterns, full->error_patterns);
  SWAP_POINTERS (self->summary_patterns, full->summary_patterns);
  SWAP_POINTERS (self->extra, full->extra);
  SWAP_POINTERS (self->extra_match, full->extra_match);
  SWAP_POINTERS (self->extra_rules, full->extra_rules);
  SWAP_POINTERS (self->extra_preserve, full->extra_preserve);
  self->truncate_line_at = full->truncate_line_at;
  self->max_lines = full->max_lines;
  self->head_lines = full->head_lines;
  self->tail_lines = full->tail_lines;
  self->strip_ansi = full->strip_ansi;
  self->filter_stderr = full->filter_stderr;
  self->deduplicate = full->deduplicate;
  self->has_head_lines = full->has_head_lines;
  self->has_tail_lines = full->has_tail_lines;
}

static void
load_body (WinnowFilter *self)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(WinnowFilter) full = NULL;
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, self->body_json, -1, &error))
    {
      g_critical ("the built-in filter “%s” is damaged: %s", self->id, error->message);
      return;
    }

  full = winnow_filter_new_from_json (json_parser_get_root (parser), self->source, self->file,
                                      NULL, WINNOW_FILTER_PARSE_LAZY_REGEX, NULL);
  if (full == NULL)
    {
      g_critical ("the built-in filter “%s” does not parse", self->id);
      return;
    }

  take_body (self, full);
}

/* The rules and preserve sections of a built-in filter are parsed the first time anything
 * asks for them: a `winnow compress` call runs one filter of the ~90 it selects from. */
void
_winnow_filter_ensure_body (WinnowFilter *self)
{
  if (self->body_json == NULL)
    return;

  if (g_once_init_enter (&self->body_loaded))
    {
      load_body (self);
      g_once_init_leave (&self->body_loaded, 1);
    }
}

/**
 * _winnow_filter_new_builtin:
 * @entry: a filter of the compiled-in index
 * @file_label: its file as diagnostics name it, e.g. "filters/apt.json"
 *
 * Builds a filter from the index without parsing JSON: the build checked every built-in
 * (tests/test-builtin-filters.c) and filters/compact.py refuses shapes it cannot carry over
 * exactly, so this gives the same filter as parsing the file, minus the work.
 *
 * Returns: (transfer full): the filter
 */
WinnowFilter *
_winnow_filter_new_builtin (const WinnowBuiltinFilter *entry,
                            const char                *file_label)
{
  WinnowFilter *self;

  g_return_val_if_fail (entry != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_FILTER, NULL);
  self->source = WINNOW_FILTER_SOURCE_BUILTIN;
  self->file = g_strdup (file_label);
  /* used in place, not copied: ~290 strings a process, for 88 filters that selection mostly
   * does not pick (see static_header) */
  self->static_header = TRUE;
  self->id = (char *) entry->id;
  self->label = (char *) entry->label;
  self->description = (char *) entry->description;
  self->category = (char *) entry->category;
  self->priority = entry->priority;
  self->output_types = (GStrv) entry->output_types;
  self->commands = (GStrv) entry->commands;
  self->patterns = (GStrv) entry->patterns;
  self->body_json = entry->body;

  return self;
}
