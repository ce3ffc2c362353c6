/* winnow-filter.c — one RTK filter: how to recognise and compress a family of command output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A filter is an immutable value: parsed and validated once, then shared by the catalog, the
 * stage runner (on any thread) and the editor, which edits JSON and parses a new filter rather
 * than mutating this one. Its regexes are compiled on first use (thread-safely) so that loading
 * the whole built-in catalog stays cheap for a one-shot CLI call.
 *
 * Parsing accepts the canonical shape (`match`, `rules`, `preserve`, `tests`) and the legacy
 * flat shape (rules at top level, `name`, `commandTypes`, `stripPatterns`, `keepPatterns`,
 * `priorityPatterns`, `preserveHead`, `preserveTail`); serialisation always writes the
 * canonical shape. Members Winnow does not know are kept and written back, so a pack from a
 * newer tool survives a round trip through the editor.
 */

#define G_LOG_DOMAIN "winnow-filter"

#include "config.h"

#include <string.h>

#include "winnow-diagnostic.h"
#include "winnow-utf8.h"
#include "winnow-error.h"
#include "winnow-filter-private.h"
#include "winnow-json-locator.h"

#define DEFAULT_PRIORITY   50
#define DEFAULT_HEAD_LINES 20
#define DEFAULT_TAIL_LINES 20

typedef struct
{
  char *pattern;
  char *replacement;
} ReplaceRule;

typedef struct
{
  char *pattern;
  char *message;
  char *unless;
} MatchOutputRule;

struct _WinnowFilter
{
  GObject              parent_instance;

  char                *id;
  char                *label;
  char                *description;
  char                *category;
  int                  priority;
  WinnowFilterSource   source;
  char                *file;

  GStrv                output_types;
  GStrv                commands;
  GStrv                patterns;

  GArray              *replace;        /* ReplaceRule */
  GArray              *match_output;   /* MatchOutputRule */
  GStrv                drop;
  GStrv                include;
  GStrv                collapse;
  guint                truncate_line_at;
  guint                max_lines;
  guint                head_lines;
  guint                tail_lines;
  char                *on_empty;
  GStrv                error_patterns;
  GStrv                summary_patterns;

  GPtrArray           *tests;          /* WinnowFilterTest */
  char                *tests_resource; /* where the tests are, when read lazily */
  gsize                tests_loaded;   /* g_once_init */

  /* unknown members, written back as they were */
  JsonObject          *extra;
  JsonObject          *extra_match;
  JsonObject          *extra_rules;
  JsonObject          *extra_preserve;

  WinnowFilterProgram *program;
  WinnowPattern       *command_regexes;
  WinnowPattern       *text_regexes;

  guint                strip_ansi : 1;
  guint                filter_stderr : 1;
  guint                deduplicate : 1;
  guint                has_head_lines : 1;
  guint                has_tail_lines : 1;
  guint                legacy : 1;
};

G_DEFINE_FINAL_TYPE (WinnowFilter, winnow_filter, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (WinnowFilterTest, winnow_filter_test,
                     winnow_filter_test_copy, winnow_filter_test_free)

enum {
  PROP_0,
  PROP_ID,
  PROP_LABEL,
  PROP_DESCRIPTION,
  PROP_CATEGORY,
  PROP_PRIORITY,
  PROP_FILE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static const char * const known_categories[] = {
  "git", "test", "build", "lint", "package", "shell", "docker", "infra", "cloud", "network",
  "runtime", "generic", NULL
};

/* ------------------------------------------------------------------------------------------ */

WinnowFilterTest *
winnow_filter_test_new (const char *name,
                        const char *command,
                        const char *input,
                        const char *expected)
{
  WinnowFilterTest *test = g_new0 (WinnowFilterTest, 1);

  test->name = g_strdup (name);
  test->command = g_strdup (command);
  test->input = g_strdup (input);
  test->expected = g_strdup (expected);

  return test;
}

WinnowFilterTest *
winnow_filter_test_copy (const WinnowFilterTest *test)
{
  g_return_val_if_fail (test != NULL, NULL);

  return winnow_filter_test_new (test->name, test->command, test->input, test->expected);
}

void
winnow_filter_test_free (WinnowFilterTest *test)
{
  if (test == NULL)
    return;

  g_free (test->name);
  g_free (test->command);
  g_free (test->input);
  g_free (test->expected);
  g_free (test);
}

const char *
winnow_filter_source_to_string (WinnowFilterSource source)
{
  switch (source)
    {
    case WINNOW_FILTER_SOURCE_BUILTIN: return "built-in";
    case WINNOW_FILTER_SOURCE_GLOBAL: return "global";
    case WINNOW_FILTER_SOURCE_PROJECT: return "project";
    case WINNOW_FILTER_SOURCE_FILE: return "file";
    default: return "unknown";
    }
}

/* ------------------------------------------------------------------------------------------ */

static void
clear_patterns (WinnowPattern **patterns,
                guint           n)
{
  if (*patterns == NULL)
    return;

  for (guint i = 0; i < n; i++)
    {
      g_clear_pointer (&(*patterns)[i].regex, winnow_regex_unref);
      g_free ((*patterns)[i].path);
    }
  g_clear_pointer (patterns, g_free);
}

/* selector arrays end with an entry whose regex is NULL */
static void
clear_selector (WinnowPattern **patterns)
{
  if (*patterns == NULL)
    return;

  for (WinnowPattern *p = *patterns; p->regex != NULL; p++)
    {
      winnow_regex_unref (p->regex);
      g_free (p->path);
    }
  g_clear_pointer (patterns, g_free);
}

static void
program_free (WinnowFilterProgram *program)
{
  if (program == NULL)
    return;

  for (guint i = 0; i < program->n_replace; i++)
    {
      g_clear_pointer (&program->replace[i].pattern.regex, winnow_regex_unref);
      g_free (program->replace[i].pattern.path);
      g_free (program->replace[i].replacement);
    }
  g_free (program->replace);

  for (guint i = 0; i < program->n_shortcuts; i++)
    {
      WinnowShortcut *s = &program->shortcuts[i];

      g_clear_pointer (&s->pattern.regex, winnow_regex_unref);
      g_clear_pointer (&s->unless.regex, winnow_regex_unref);
      g_free (s->pattern.path);
      g_free (s->unless.path);
      g_free (s->message);
    }
  g_free (program->shortcuts);

  clear_patterns (&program->drop, program->n_drop);
  clear_patterns (&program->include, program->n_include);
  clear_patterns (&program->collapse, program->n_collapse);
  clear_patterns (&program->preserve, program->n_preserve);
  g_free (program);
}

static void
replace_rule_clear (gpointer data)
{
  ReplaceRule *rule = data;

  g_free (rule->pattern);
  g_free (rule->replacement);
}

static void
match_output_rule_clear (gpointer data)
{
  MatchOutputRule *rule = data;

  g_free (rule->pattern);
  g_free (rule->message);
  g_free (rule->unless);
}

static void
winnow_filter_finalize (GObject *object)
{
  WinnowFilter *self = (WinnowFilter *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->category, g_free);
  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->output_types, g_strfreev);
  g_clear_pointer (&self->commands, g_strfreev);
  g_clear_pointer (&self->patterns, g_strfreev);
  g_clear_pointer (&self->replace, g_array_unref);
  g_clear_pointer (&self->match_output, g_array_unref);
  g_clear_pointer (&self->drop, g_strfreev);
  g_clear_pointer (&self->include, g_strfreev);
  g_clear_pointer (&self->collapse, g_strfreev);
  g_clear_pointer (&self->on_empty, g_free);
  g_clear_pointer (&self->error_patterns, g_strfreev);
  g_clear_pointer (&self->summary_patterns, g_strfreev);
  g_clear_pointer (&self->tests, g_ptr_array_unref);
  g_clear_pointer (&self->tests_resource, g_free);
  g_clear_pointer (&self->extra, json_object_unref);
  g_clear_pointer (&self->extra_match, json_object_unref);
  g_clear_pointer (&self->extra_rules, json_object_unref);
  g_clear_pointer (&self->extra_preserve, json_object_unref);
  g_clear_pointer (&self->program, program_free);
  clear_selector (&self->command_regexes);
  clear_selector (&self->text_regexes);

  G_OBJECT_CLASS (winnow_filter_parent_class)->finalize (object);
}

static void
winnow_filter_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WinnowFilter *self = WINNOW_FILTER (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    case PROP_CATEGORY:
      g_value_set_string (value, self->category);
      break;
    case PROP_PRIORITY:
      g_value_set_int (value, self->priority);
      break;
    case PROP_FILE:
      g_value_set_string (value, self->file);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_filter_class_init (WinnowFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_filter_finalize;
  object_class->get_property = winnow_filter_get_property;

  properties [PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_CATEGORY] =
    g_param_spec_string ("category", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_PRIORITY] =
    g_param_spec_int ("priority", NULL, NULL, G_MININT, G_MAXINT, DEFAULT_PRIORITY,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_FILE] =
    g_param_spec_string ("file", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_filter_init (WinnowFilter *self)
{
  self->priority = DEFAULT_PRIORITY;
  self->head_lines = DEFAULT_HEAD_LINES;
  self->tail_lines = DEFAULT_TAIL_LINES;
  self->replace = g_array_new (FALSE, TRUE, sizeof (ReplaceRule));
  g_array_set_clear_func (self->replace, replace_rule_clear);
  self->match_output = g_array_new (FALSE, TRUE, sizeof (MatchOutputRule));
  g_array_set_clear_func (self->match_output, match_output_rule_clear);
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_filter_test_free);
}

/* ---- parsing ----------------------------------------------------------------------------- */

typedef struct
{
  WinnowFilterSource      source;
  const char             *file;
  const char             *base;       /* path of the filter object in its file, "" or "[2]" */
  const char             *id;
  GPtrArray              *diagnostics;
  WinnowFilterParseFlags  flags;
  gboolean                failed;
} Parser;

static char *
join_path (const char *base,
           const char *rel)
{
  if (base == NULL || base[0] == '\0')
    return g_strdup (rel ? rel : "");
  if (rel == NULL || rel[0] == '\0')
    return g_strdup (base);
  if (rel[0] == '[')
    return g_strconcat (base, rel, NULL);
  return g_strconcat (base, ".", rel, NULL);
}

G_GNUC_PRINTF (4, 5)
static void
report (Parser                *p,
        WinnowDiagnosticLevel  level,
        const char            *rel_path,
        const char            *format,
        ...)
{
  g_autofree char *message = NULL;
  g_autofree char *path = join_path (p->base, rel_path);
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (level == WINNOW_DIAGNOSTIC_ERROR)
    p->failed = TRUE;

  if (p->diagnostics != NULL)
    g_ptr_array_add (p->diagnostics,
                     winnow_diagnostic_new (level, winnow_filter_source_to_string (p->source),
                                            p->file, p->id, path, 0, 0, message));
}

static const char *
node_type_name (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT: return "an object";
    case JSON_NODE_ARRAY: return "an array";
    case JSON_NODE_NULL: return "null";
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING: return "a string";
        case G_TYPE_BOOLEAN: return "a boolean";
        case G_TYPE_INT64: return "an integer";
        case G_TYPE_DOUBLE: return "a number";
        default: return "a value";
        }
    default:
      return "something else";
    }
}

static gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static char *
read_string (Parser     *p,
             JsonObject *obj,
             const char *key,
             const char *path,
             gboolean    required)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        report (p, WINNOW_DIAGNOSTIC_ERROR, path, "is required and missing");
      return NULL;
    }

  if (!node_is_string (node))
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be a string, not %s", node_type_name (node));
      return NULL;
    }

  return g_strdup (json_node_get_string (node));
}

static gboolean
read_bool (Parser     *p,
           JsonObject *obj,
           const char *key,
           const char *path)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be true or false, not %s",
              node_type_name (node));
      return FALSE;
    }

  return json_node_get_boolean (node);
}

/* An integer in [min, max]; returns FALSE when absent or invalid. */
static gboolean
read_int (Parser     *p,
          JsonObject *obj,
          const char *key,
          const char *path,
          gint64      min,
          gint64      max,
          gint64     *out)
{
  JsonNode *node = json_object_get_member (obj, key);
  gint64 value;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    value = json_node_get_int (node);
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE &&
           json_node_get_double (node) == (double) (gint64) json_node_get_double (node))
    value = (gint64) json_node_get_double (node);
  else
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be an integer, not %s",
              node_type_name (node));
      return FALSE;
    }

  if (value < min || value > max)
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path,
              "must be between %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT
              ", not %" G_GINT64_FORMAT, min, max, value);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

static gboolean
check_regex (Parser     *p,
             const char *pattern,
             const char *flags,
             const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRegex) regex = NULL;

  if (p->flags & WINNOW_FILTER_PARSE_LAZY_REGEX)
    return TRUE;

  regex = winnow_regex_new (pattern, flags, WINNOW_REGEX_DEFAULT, &error);
  if (regex == NULL)
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "invalid regex /%s/: %s", pattern,
              error->message);
      return FALSE;
    }

  return TRUE;
}

/* A list of strings; with @regex_flags each must compile. */
static GStrv
read_string_list (Parser     *p,
                  JsonObject *obj,
                  const char *key,
                  const char *path,
                  const char *regex_flags)
{
  JsonNode *node = json_object_get_member (obj, key);
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array;
  guint n;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, path, "must be an array of strings, not %s",
              node_type_name (node));
      return NULL;
    }

  builder = g_strv_builder_new ();
  array = json_node_get_array (node);
  n = json_array_get_length (array);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);
      const char *str;

      if (!node_is_string (element))
        {
          report (p, WINNOW_DIAGNOSTIC_ERROR, element_path, "must be a string, not %s",
                  node_type_name (element));
          continue;
        }

      str = json_node_get_string (element);
      if (regex_flags != NULL)
        {
          if (str[0] == '\0')
            {
              report (p, WINNOW_DIAGNOSTIC_ERROR, element_path,
                      "an empty pattern matches every line");
              continue;
            }
          if (!check_regex (p, str, regex_flags, element_path))
            continue;
        }

      g_strv_builder_add (builder, str);
    }

  return g_strv_builder_end (builder);
}

static void
check_unknown_members (Parser             *p,
                       JsonObject         *obj,
                       const char         *path,
                       const char * const *known,
                       JsonObject        **extra)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autoptr(GString) member_path = g_string_new (path);

      if (g_strv_contains (known, name))
        continue;

      _winnow_json_path_append_member (member_path, name);
      report (p, WINNOW_DIAGNOSTIC_WARNING, member_path->str,
              "unknown field (kept as it is, but Winnow does not use it)");

      if (extra != NULL)
        {
          if (*extra == NULL)
            *extra = json_object_new ();
          json_object_set_member (*extra, name,
                                  json_node_copy (json_object_get_member (obj, name)));
        }
    }
}

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
      report (p, WINNOW_DIAGNOSTIC_ERROR, key, "must be an object, not %s", node_type_name (node));
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
      report (p, WINNOW_DIAGNOSTIC_ERROR, path,
              "must be an array of {\"pattern\", \"replacement\"} objects, not %s",
              node_type_name (node));
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
      ReplaceRule rule = { 0 };
      JsonObject *obj;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          report (p, WINNOW_DIAGNOSTIC_ERROR, element_path,
                  "must be a {\"pattern\", \"replacement\"} object, not %s",
                  node_type_name (element));
          continue;
        }

      obj = json_node_get_object (element);
      check_unknown_members (p, obj, element_path, known, NULL);
      rule.pattern = read_string (p, obj, "pattern", pattern_path, TRUE);
      rule.replacement = read_string (p, obj, "replacement", replacement_path, FALSE);

      if (rule.pattern != NULL && rule.pattern[0] == '\0')
        report (p, WINNOW_DIAGNOSTIC_ERROR, pattern_path, "an empty pattern matches everywhere");
      else if (rule.pattern != NULL &&
               check_regex (p, rule.pattern, WINNOW_REPLACE_FLAGS, pattern_path))
        {
          if (rule.replacement == NULL)
            rule.replacement = g_strdup ("");
          g_array_append_val (self->replace, rule);
          continue;
        }

      replace_rule_clear (&rule);
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
      report (p, WINNOW_DIAGNOSTIC_ERROR, path,
              "must be an array of {\"pattern\", \"message\", \"unless\"} objects, not %s",
              node_type_name (node));
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
      MatchOutputRule rule = { 0 };
      gboolean ok;
      JsonObject *obj;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          report (p, WINNOW_DIAGNOSTIC_ERROR, element_path,
                  "must be a {\"pattern\", \"message\"} object, not %s", node_type_name (element));
          continue;
        }

      obj = json_node_get_object (element);
      check_unknown_members (p, obj, element_path, known, NULL);
      rule.pattern = read_string (p, obj, "pattern", pattern_path, TRUE);
      rule.message = read_string (p, obj, "message", message_path, TRUE);
      rule.unless = read_string (p, obj, "unless", unless_path, FALSE);

      ok = rule.pattern != NULL && rule.message != NULL;
      if (ok && rule.pattern[0] == '\0')
        {
          report (p, WINNOW_DIAGNOSTIC_ERROR, pattern_path,
                  "an empty pattern would replace every output");
          ok = FALSE;
        }
      ok = ok && check_regex (p, rule.pattern, WINNOW_TEXT_FLAGS, pattern_path);
      if (ok && rule.unless != NULL && rule.unless[0] != '\0')
        ok = check_regex (p, rule.unless, WINNOW_TEXT_FLAGS, unless_path);
      if (ok && rule.unless != NULL && rule.unless[0] == '\0')
        g_clear_pointer (&rule.unless, g_free);

      if (ok)
        g_array_append_val (self->match_output, rule);
      else
        match_output_rule_clear (&rule);
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
      report (p, WINNOW_DIAGNOSTIC_ERROR, "tests", "must be an array of test objects, not %s",
              node_type_name (node));
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
          report (p, WINNOW_DIAGNOSTIC_ERROR, path,
                  "must be a {\"name\", \"input\", \"expected\"} object, not %s",
                  node_type_name (element));
          continue;
        }

      test = json_node_get_object (element);
      check_unknown_members (p, test, path, known, NULL);
      name = read_string (p, test, "name", name_path, FALSE);
      command = read_string (p, test, "command", command_path, FALSE);
      input = read_string (p, test, "input", input_path, TRUE);
      expected = read_string (p, test, "expected", expected_path, TRUE);

      if (name == NULL && json_object_get_member (test, "name") == NULL)
        {
          report (p, WINNOW_DIAGNOSTIC_WARNING, path, "has no name; called “test %u”", i + 1);
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

  return obj ? read_string_list (p, obj, found, path, regex_flags) : NULL;
}

static gboolean
read_field_bool (Parser         *p,
                 const Sections *where,
                 const char     *key)
{
  g_autofree char *path = NULL;
  const char *found = NULL;
  JsonObject *obj = locate (where, key, NULL, &found, &path);

  return obj ? read_bool (p, obj, found, path) : FALSE;
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

  if (obj == NULL || !read_int (p, obj, found, path, 0, G_MAXINT32, &value))
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


  self->id = read_string (p, obj, "id", "id", TRUE);
  if (self->id != NULL && !is_valid_id (self->id))
    {
      report (p, WINNOW_DIAGNOSTIC_ERROR, "id",
              "“%s” is not a valid id (letters, digits and . _ : - only, starting with a "
              "letter or digit)", self->id);
      g_clear_pointer (&self->id, g_free);
    }
  p->id = self->id;

  self->legacy = looks_legacy (obj);
  if (self->legacy)
    {
      check_unknown_members (p, obj, "", legacy_top, &self->extra);
      report (p, WINNOW_DIAGNOSTIC_INFO, "",
              "legacy flat filter shape; it is read as the canonical shape and saved as one");
    }
  else
    {
      check_unknown_members (p, obj, "", canonical_top, &self->extra);
      match = read_section (p, obj, "match");
      rules = read_section (p, obj, "rules");
      preserve = read_section (p, obj, "preserve");
      if (match != NULL)
        check_unknown_members (p, match, "match", match_keys, &self->extra_match);
      if (rules != NULL)
        check_unknown_members (p, rules, "rules", rules_keys, &self->extra_rules);
      if (preserve != NULL)
        check_unknown_members (p, preserve, "preserve", preserve_keys, &self->extra_preserve);
    }

  self->label = read_string (p, obj, "label", "label", FALSE);
  if (self->label == NULL && self->legacy)
    self->label = read_string (p, obj, "name", "name", FALSE);
  if (self->label == NULL && self->id != NULL)
    {
      report (p, WINNOW_DIAGNOSTIC_WARNING, "label", "missing; the id is shown instead");
      self->label = g_strdup (self->id);
    }

  self->description = read_string (p, obj, "description", "description", FALSE);

  self->category = read_string (p, obj, "category", "category", FALSE);
  if (self->category == NULL)
    {
      report (p, WINNOW_DIAGNOSTIC_WARNING, "category", "missing; “generic” is assumed");
      self->category = g_strdup ("generic");
    }
  else if (!g_strv_contains (known_categories, self->category))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) known_categories);
      report (p, WINNOW_DIAGNOSTIC_WARNING, "category",
              "unknown category “%s” (known: %s)", self->category, list);
    }

  if (read_int (p, obj, "priority", "priority", G_MININT32, G_MAXINT32, &value))
    {
      self->priority = value;
      if (value < 0 || value > 100)
        report (p, WINNOW_DIAGNOSTIC_WARNING, "priority",
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
      self->on_empty = read_string (p, holder, found, path, FALSE);
    g_clear_pointer (&path, g_free);

    self->error_patterns = read_field_list (p, &in_preserve, "errorPatterns", "priorityPatterns",
                                            WINNOW_LINE_FLAGS);
    self->summary_patterns = read_field_list (p, &in_preserve, "summaryPatterns", NULL,
                                              WINNOW_LINE_FLAGS);
  }

  read_tests (p, self, obj);

  if (self->max_lines > 0 && self->head_lines + self->tail_lines == 0)
    report (p, WINNOW_DIAGNOSTIC_WARNING, "rules.maxLines",
            "headLines and tailLines are both 0, so a cut keeps only preserved lines");

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
    .source = source,
    .file = file,
    .base = json_path ? json_path : "",
    .diagnostics = diagnostics,
    .flags = flags,
  };

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      report (&p, WINNOW_DIAGNOSTIC_ERROR, "", "a filter must be a JSON object, not %s",
              node_type_name (node));
      return NULL;
    }

  self = g_object_new (WINNOW_TYPE_FILTER, NULL);
  self->source = source;
  self->file = g_strdup (file);

  if (!parse_filter (&p, self, json_node_get_object (node)))
    return NULL;

  return g_steal_pointer (&self);
}

/* ---- compiled program -------------------------------------------------------------------- */

static void
compile_pattern (WinnowPattern *out,
                 const char    *source,
                 const char    *flags,
                 const char    *path)
{
  g_autoptr(GError) error = NULL;

  out->path = g_strdup (path);
  out->regex = winnow_regex_new (source, flags, WINNOW_REGEX_OPTIMIZE, &error);

  /* Only a built-in parsed lazily can get here with a bad pattern, and the build validates
   * those; warn loudly rather than crash if it happens anyway. */
  if (out->regex == NULL)
    g_warning ("%s: invalid regex /%s/: %s", path, source, error->message);
}

static WinnowPattern *
compile_list (const char * const *sources,
              const char         *flags,
              const char         *path,
              guint              *n_out)
{
  guint n = sources ? g_strv_length ((char **) sources) : 0;
  WinnowPattern *patterns = g_new0 (WinnowPattern, MAX (n, 1));
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);

      compile_pattern (&patterns[kept], sources[i], flags, element_path);
      if (patterns[kept].regex != NULL)
        kept++;
      else
        g_free (patterns[kept].path);
    }

  *n_out = kept;
  return patterns;
}

static WinnowFilterProgram *
compile_program (WinnowFilter *self)
{
  WinnowFilterProgram *program = g_new0 (WinnowFilterProgram, 1);
  guint n_error = 0;
  guint n_summary = 0;
  WinnowPattern *errors;
  WinnowPattern *summaries;

  program->replace = g_new0 (WinnowReplaceStep, MAX (self->replace->len, 1));
  for (guint i = 0; i < self->replace->len; i++)
    {
      const ReplaceRule *rule = &g_array_index (self->replace, ReplaceRule, i);
      g_autofree char *path = g_strdup_printf ("rules.replace[%u]", i);
      WinnowReplaceStep *step = &program->replace[program->n_replace];

      compile_pattern (&step->pattern, rule->pattern, WINNOW_REPLACE_FLAGS, path);
      if (step->pattern.regex == NULL)
        {
          g_free (step->pattern.path);
          continue;
        }
      step->replacement = g_strdup (rule->replacement);
      program->n_replace++;
    }

  program->shortcuts = g_new0 (WinnowShortcut, MAX (self->match_output->len, 1));
  for (guint i = 0; i < self->match_output->len; i++)
    {
      const MatchOutputRule *rule = &g_array_index (self->match_output, MatchOutputRule, i);
      g_autofree char *path = g_strdup_printf ("rules.matchOutput[%u]", i);
      g_autofree char *unless_path = g_strdup_printf ("rules.matchOutput[%u].unless", i);
      WinnowShortcut *shortcut = &program->shortcuts[program->n_shortcuts];

      compile_pattern (&shortcut->pattern, rule->pattern, WINNOW_TEXT_FLAGS, path);
      if (rule->unless != NULL)
        compile_pattern (&shortcut->unless, rule->unless, WINNOW_TEXT_FLAGS, unless_path);
      if (shortcut->pattern.regex == NULL)
        {
          g_free (shortcut->pattern.path);
          g_clear_pointer (&shortcut->unless.regex, winnow_regex_unref);
          g_free (shortcut->unless.path);
          memset (shortcut, 0, sizeof *shortcut);
          continue;
        }
      shortcut->message = g_strdup (rule->message);
      program->n_shortcuts++;
    }

  program->drop = compile_list ((const char * const *) self->drop, WINNOW_LINE_FLAGS,
                                "rules.dropPatterns", &program->n_drop);
  program->include = compile_list ((const char * const *) self->include, WINNOW_LINE_FLAGS,
                                   "rules.includePatterns", &program->n_include);
  program->collapse = compile_list ((const char * const *) self->collapse, WINNOW_LINE_FLAGS,
                                    "rules.collapsePatterns", &program->n_collapse);

  errors = compile_list ((const char * const *) self->error_patterns, WINNOW_LINE_FLAGS,
                         "preserve.errorPatterns", &n_error);
  summaries = compile_list ((const char * const *) self->summary_patterns, WINNOW_LINE_FLAGS,
                            "preserve.summaryPatterns", &n_summary);
  program->preserve = g_new0 (WinnowPattern, MAX (n_error + n_summary, 1));
  memcpy (program->preserve, errors, n_error * sizeof (WinnowPattern));
  memcpy (program->preserve + n_error, summaries, n_summary * sizeof (WinnowPattern));
  program->n_preserve = n_error + n_summary;
  program->n_error = n_error;
  g_free (errors);
  g_free (summaries);

  return program;
}

const WinnowFilterProgram *
_winnow_filter_get_program (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);

  if (g_once_init_enter (&self->program))
    g_once_init_leave (&self->program, compile_program (self));

  return self->program;
}

/**
 * winnow_filter_prepare:
 * @self: a #WinnowFilter
 * @error: return location for a #GError
 *
 * Compiles (and JIT-compiles) every pattern now instead of on first use, and reports the
 * first pattern that does not compile.
 *
 * Returns: %TRUE if every pattern compiled
 */
gboolean
winnow_filter_prepare (WinnowFilter  *self,
                       GError       **error)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(WinnowFilter) check = NULL;

  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);

  node = winnow_filter_to_json_node (self);
  check = winnow_filter_new_from_json (node, self->source, self->file, NULL,
                                       WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
  if (check == NULL)
    {
      for (guint i = 0; i < diagnostics->len; i++)
        {
          WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);

          if (winnow_diagnostic_get_level (d) == WINNOW_DIAGNOSTIC_ERROR)
            {
              g_autofree char *text = winnow_diagnostic_to_string (d);
              g_set_error_literal (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_FILTER, text);
              return FALSE;
            }
        }
    }

  _winnow_filter_get_program (self);
  return TRUE;
}

/* ---- selection helpers ------------------------------------------------------------------- */

static WinnowPattern *
compile_selector (GStrv        sources,
                  const char  *path)
{
  guint n = sources ? g_strv_length (sources) : 0;
  WinnowPattern *patterns = g_new0 (WinnowPattern, n + 1);
  guint kept = 0;

  /* Selection patterns are many and each runs once per call: interpreted for a one-shot CLI
   * run, JIT-compiled once a long-running process has used them a few times. */
  for (guint i = 0; i < n; i++)
    {
      patterns[kept].regex = winnow_regex_new (sources[i], WINNOW_TEXT_FLAGS,
                                               WINNOW_REGEX_ADAPTIVE, NULL);
      if (patterns[kept].regex != NULL)
        patterns[kept++].path = g_strdup_printf ("%s[%u]", path, i);
    }

  return patterns; /* terminated by an entry whose regex is NULL */
}

static WinnowPattern *
get_command_regexes (WinnowFilter *self)
{
  if (g_once_init_enter (&self->command_regexes))
    g_once_init_leave (&self->command_regexes,
                       compile_selector (self->commands, "match.commands"));
  return self->command_regexes;
}

static WinnowPattern *
get_text_regexes (WinnowFilter *self)
{
  if (g_once_init_enter (&self->text_regexes))
    g_once_init_leave (&self->text_regexes, compile_selector (self->patterns, "match.patterns"));
  return self->text_regexes;
}

/**
 * winnow_filter_matches_command:
 * @self: a #WinnowFilter
 * @command: a command line, e.g. "git status --short"
 *
 * Returns: %TRUE if one of `match.commands` matches @command
 */
gboolean
winnow_filter_matches_command (WinnowFilter *self,
                               const char   *command)
{
  gsize len;

  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);

  if (command == NULL || self->commands == NULL)
    return FALSE;

  len = strlen (command);
  if (!_winnow_utf8_validate (command, len, NULL))
    return FALSE;

  for (WinnowPattern *p = get_command_regexes (self); p->regex != NULL; p++)
    if (winnow_regex_test (p->regex, command, len) == WINNOW_REGEX_MATCH)
      return TRUE;

  return FALSE;
}

/**
 * winnow_filter_count_text_pattern_hits:
 * @self: a #WinnowFilter
 * @text: valid UTF-8 output
 * @length: length of @text in bytes
 *
 * Returns: how many of `match.patterns` match somewhere in @text
 */
guint
winnow_filter_count_text_pattern_hits (WinnowFilter *self,
                                       const char   *text,
                                       gsize         length)
{
  guint hits = 0;

  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);

  if (self->patterns == NULL)
    return 0;

  for (WinnowPattern *p = get_text_regexes (self); p->regex != NULL; p++)
    if (winnow_regex_test (p->regex, text, length) == WINNOW_REGEX_MATCH)
      hits++;

  return hits;
}

/* ---- tests read on demand ---------------------------------------------------------------- */

/* Built-in filters are loaded from an index without their tests; the tests are read from the
 * filter's own file in the resource the first time somebody asks for them. */
void
_winnow_filter_set_tests_resource (WinnowFilter *self,
                                   const char   *resource_path)
{
  g_return_if_fail (WINNOW_IS_FILTER (self));

  g_free (self->tests_resource);
  self->tests_resource = g_strdup (resource_path);
}

static void
load_tests (WinnowFilter *self)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;
  gsize size;
  const char *data;
  Parser p = {
    .source = self->source,
    .file = self->file,
    .base = "",
    .id = self->id,
    .flags = WINNOW_FILTER_PARSE_LAZY_REGEX,
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

static void
ensure_tests (WinnowFilter *self)
{
  if (self->tests_resource == NULL)
    return;

  if (g_once_init_enter (&self->tests_loaded))
    {
      load_tests (self);
      g_once_init_leave (&self->tests_loaded, 1);
    }
}

/* ---- getters ----------------------------------------------------------------------------- */

#define EMPTY_STRV ((const char * const *) empty_strv)
static const char * const empty_strv[] = { NULL };

static inline const char * const *
strv_or_empty (GStrv strv)
{
  return strv ? (const char * const *) strv : EMPTY_STRV;
}

const char *
winnow_filter_get_id (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return self->id;
}

const char *
winnow_filter_get_label (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return self->label;
}

const char *
winnow_filter_get_description (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return self->description;
}

const char *
winnow_filter_get_category (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return self->category;
}

int
winnow_filter_get_priority (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  return self->priority;
}

WinnowFilterSource
winnow_filter_get_source (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), WINNOW_FILTER_SOURCE_FILE);
  return self->source;
}

const char *
winnow_filter_get_file (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return self->file;
}

gboolean
winnow_filter_is_legacy (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);
  return self->legacy;
}

const char * const *
winnow_filter_get_output_types (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->output_types);
}

const char * const *
winnow_filter_get_command_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->commands);
}

const char * const *
winnow_filter_get_text_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->patterns);
}

gboolean
winnow_filter_get_strip_ansi (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);
  return self->strip_ansi;
}

gboolean
winnow_filter_get_filter_stderr (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);
  return self->filter_stderr;
}

guint
winnow_filter_get_n_replace_rules (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  return self->replace->len;
}

void
winnow_filter_get_replace_rule (WinnowFilter  *self,
                                guint          index,
                                const char   **pattern,
                                const char   **replacement)
{
  const ReplaceRule *rule;

  g_return_if_fail (WINNOW_IS_FILTER (self));
  g_return_if_fail (index < self->replace->len);

  rule = &g_array_index (self->replace, ReplaceRule, index);
  if (pattern != NULL)
    *pattern = rule->pattern;
  if (replacement != NULL)
    *replacement = rule->replacement;
}

guint
winnow_filter_get_n_match_output_rules (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  return self->match_output->len;
}

void
winnow_filter_get_match_output_rule (WinnowFilter  *self,
                                     guint          index,
                                     const char   **pattern,
                                     const char   **message,
                                     const char   **unless)
{
  const MatchOutputRule *rule;

  g_return_if_fail (WINNOW_IS_FILTER (self));
  g_return_if_fail (index < self->match_output->len);

  rule = &g_array_index (self->match_output, MatchOutputRule, index);
  if (pattern != NULL)
    *pattern = rule->pattern;
  if (message != NULL)
    *message = rule->message;
  if (unless != NULL)
    *unless = rule->unless;
}

const char * const *
winnow_filter_get_drop_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->drop);
}

const char * const *
winnow_filter_get_include_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->include);
}

const char * const *
winnow_filter_get_collapse_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->collapse);
}

guint
winnow_filter_get_truncate_line_at (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  return self->truncate_line_at;
}

gboolean
winnow_filter_get_deduplicate (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);
  return self->deduplicate;
}

guint
winnow_filter_get_max_lines (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  return self->max_lines;
}

guint
winnow_filter_get_head_lines (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  return self->head_lines;
}

guint
winnow_filter_get_tail_lines (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  return self->tail_lines;
}

const char *
winnow_filter_get_on_empty (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return self->on_empty;
}

const char * const *
winnow_filter_get_error_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->error_patterns);
}

const char * const *
winnow_filter_get_summary_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return strv_or_empty (self->summary_patterns);
}

guint
winnow_filter_get_n_tests (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);

  ensure_tests (self);
  return self->tests->len;
}

const WinnowFilterTest *
winnow_filter_get_test (WinnowFilter *self,
                        guint         index)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);

  ensure_tests (self);
  g_return_val_if_fail (index < self->tests->len, NULL);
  return g_ptr_array_index (self->tests, index);
}

/* ---- serialisation ----------------------------------------------------------------------- */

static void
add_strv (JsonBuilder        *builder,
          const char         *name,
          const char * const *strv)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_builder_add_string_value (builder, strv[i]);
  json_builder_end_array (builder);
}

static void
add_extra (JsonBuilder *builder,
           JsonObject  *extra)
{
  g_autoptr(GList) members = NULL;

  if (extra == NULL)
    return;

  members = json_object_get_members (extra);
  for (const GList *l = members; l != NULL; l = l->next)
    {
      json_builder_set_member_name (builder, l->data);
      json_builder_add_value (builder, json_node_copy (json_object_get_member (extra, l->data)));
    }
}

/**
 * winnow_filter_to_json_node:
 * @self: a #WinnowFilter
 *
 * The canonical JSON shape, in a fixed member order: parsing it gives an equal filter and
 * serialising that gives the same text again. Unknown members come last in their section.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
winnow_filter_to_json_node (WinnowFilter *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);

  ensure_tests (self);
  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, self->id);
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, self->label);
  if (self->description != NULL)
    {
      json_builder_set_member_name (builder, "description");
      json_builder_add_string_value (builder, self->description);
    }
  json_builder_set_member_name (builder, "category");
  json_builder_add_string_value (builder, self->category);
  json_builder_set_member_name (builder, "priority");
  json_builder_add_int_value (builder, self->priority);

  json_builder_set_member_name (builder, "match");
  json_builder_begin_object (builder);
  add_strv (builder, "outputTypes", strv_or_empty (self->output_types));
  add_strv (builder, "commands", strv_or_empty (self->commands));
  add_strv (builder, "patterns", strv_or_empty (self->patterns));
  add_extra (builder, self->extra_match);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "rules");
  json_builder_begin_object (builder);
  if (self->strip_ansi)
    {
      json_builder_set_member_name (builder, "stripAnsi");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (self->filter_stderr)
    {
      json_builder_set_member_name (builder, "filterStderr");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (self->replace->len > 0)
    {
      json_builder_set_member_name (builder, "replace");
      json_builder_begin_array (builder);
      for (guint i = 0; i < self->replace->len; i++)
        {
          const ReplaceRule *rule = &g_array_index (self->replace, ReplaceRule, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "pattern");
          json_builder_add_string_value (builder, rule->pattern);
          json_builder_set_member_name (builder, "replacement");
          json_builder_add_string_value (builder, rule->replacement);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }
  if (self->match_output->len > 0)
    {
      json_builder_set_member_name (builder, "matchOutput");
      json_builder_begin_array (builder);
      for (guint i = 0; i < self->match_output->len; i++)
        {
          const MatchOutputRule *rule = &g_array_index (self->match_output, MatchOutputRule, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "pattern");
          json_builder_add_string_value (builder, rule->pattern);
          json_builder_set_member_name (builder, "message");
          json_builder_add_string_value (builder, rule->message);
          if (rule->unless != NULL)
            {
              json_builder_set_member_name (builder, "unless");
              json_builder_add_string_value (builder, rule->unless);
            }
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }
  add_strv (builder, "dropPatterns", strv_or_empty (self->drop));
  add_strv (builder, "includePatterns", strv_or_empty (self->include));
  add_strv (builder, "collapsePatterns", strv_or_empty (self->collapse));
  if (self->truncate_line_at > 0)
    {
      json_builder_set_member_name (builder, "truncateLineAt");
      json_builder_add_int_value (builder, self->truncate_line_at);
    }
  json_builder_set_member_name (builder, "deduplicate");
  json_builder_add_boolean_value (builder, self->deduplicate);
  if (self->max_lines > 0)
    {
      json_builder_set_member_name (builder, "maxLines");
      json_builder_add_int_value (builder, self->max_lines);
    }
  if (self->max_lines > 0 || self->has_head_lines)
    {
      json_builder_set_member_name (builder, "headLines");
      json_builder_add_int_value (builder, self->head_lines);
    }
  if (self->max_lines > 0 || self->has_tail_lines)
    {
      json_builder_set_member_name (builder, "tailLines");
      json_builder_add_int_value (builder, self->tail_lines);
    }
  if (self->on_empty != NULL)
    {
      json_builder_set_member_name (builder, "onEmpty");
      json_builder_add_string_value (builder, self->on_empty);
    }
  add_extra (builder, self->extra_rules);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "preserve");
  json_builder_begin_object (builder);
  add_strv (builder, "errorPatterns", strv_or_empty (self->error_patterns));
  add_strv (builder, "summaryPatterns", strv_or_empty (self->summary_patterns));
  add_extra (builder, self->extra_preserve);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "tests");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->tests->len; i++)
    {
      const WinnowFilterTest *test = g_ptr_array_index (self->tests, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, test->name);
      if (test->command != NULL)
        {
          json_builder_set_member_name (builder, "command");
          json_builder_add_string_value (builder, test->command);
        }
      json_builder_set_member_name (builder, "input");
      json_builder_add_string_value (builder, test->input);
      json_builder_set_member_name (builder, "expected");
      json_builder_add_string_value (builder, test->expected);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  add_extra (builder, self->extra);

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * winnow_filter_to_json:
 * @self: a #WinnowFilter
 *
 * Returns: (transfer full): the canonical JSON text, two-space indented, ending in a newline
 */
char *
winnow_filter_to_json (WinnowFilter *self)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);

  node = winnow_filter_to_json_node (self);
  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, NULL);

  return g_strconcat (text, "\n", NULL);
}
