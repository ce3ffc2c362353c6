/* winnow-filter.c — one RTK filter: how to recognise and compress a family of command output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A filter is an immutable value: parsed and validated once (winnow-filter-json.c), then
 * shared by the catalog, the stage runner on any thread (winnow-filter-program.c compiles its
 * patterns on first use) and the editor, which edits JSON and parses a new filter rather than
 * mutating this one. Built-in filters read their tests lazily from the resource.
 */

#define G_LOG_DOMAIN "winnow-filter"

#include "config.h"

#include <string.h>

#include "winnow-diagnostic.h"
#include "winnow-utf8.h"
#include "winnow-error.h"
#include "winnow-filter-private.h"
#include "winnow-json-reader.h"
#include "winnow-json-locator.h"

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

void
_winnow_replace_rule_clear (gpointer data)
{
  WinnowReplaceRule *rule = data;

  g_free (rule->pattern);
  g_free (rule->replacement);
}

void
_winnow_match_output_rule_clear (gpointer data)
{
  WinnowMatchOutputRule *rule = data;

  g_free (rule->pattern);
  g_free (rule->message);
  g_free (rule->unless);
}

static void
winnow_filter_finalize (GObject *object)
{
  WinnowFilter *self = (WinnowFilter *)object;

  if (!self->static_header)
    {
      g_free (self->id);
      g_free (self->label);
      g_free (self->description);
      g_free (self->category);
      g_strfreev (self->output_types);
      g_strfreev (self->commands);
      g_strfreev (self->patterns);
    }
  g_clear_pointer (&self->file, g_free);
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
  g_clear_pointer (&self->program, _winnow_filter_program_free);
  g_clear_pointer (&self->command_regexes, _winnow_filter_selector_free);
  g_clear_pointer (&self->text_regexes, _winnow_filter_selector_free);

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
    g_param_spec_int ("priority", NULL, NULL, G_MININT, G_MAXINT, WINNOW_FILTER_DEFAULT_PRIORITY,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_FILE] =
    g_param_spec_string ("file", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_filter_init (WinnowFilter *self)
{
  self->priority = WINNOW_FILTER_DEFAULT_PRIORITY;
  self->head_lines = WINNOW_FILTER_DEFAULT_HEAD_LINES;
  self->tail_lines = WINNOW_FILTER_DEFAULT_TAIL_LINES;
  self->replace = g_array_new (FALSE, TRUE, sizeof (WinnowReplaceRule));
  g_array_set_clear_func (self->replace, _winnow_replace_rule_clear);
  self->match_output = g_array_new (FALSE, TRUE, sizeof (WinnowMatchOutputRule));
  g_array_set_clear_func (self->match_output, _winnow_match_output_rule_clear);
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_filter_test_free);
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

void
_winnow_filter_ensure_tests (WinnowFilter *self)
{
  if (self->tests_resource == NULL)
    return;

  if (g_once_init_enter (&self->tests_loaded))
    {
      _winnow_filter_load_tests (self);
      g_once_init_leave (&self->tests_loaded, 1);
    }
}

/* ---- getters ----------------------------------------------------------------------------- */

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
  return _winnow_strv_or_empty (self->output_types);
}

const char * const *
winnow_filter_get_command_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return _winnow_strv_or_empty (self->commands);
}

const char * const *
winnow_filter_get_text_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  return _winnow_strv_or_empty (self->patterns);
}

gboolean
winnow_filter_get_strip_ansi (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);
  _winnow_filter_ensure_body (self);
  return self->strip_ansi;
}

gboolean
winnow_filter_get_filter_stderr (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);
  _winnow_filter_ensure_body (self);
  return self->filter_stderr;
}

guint
winnow_filter_get_n_replace_rules (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  _winnow_filter_ensure_body (self);
  return self->replace->len;
}

void
winnow_filter_get_replace_rule (WinnowFilter  *self,
                                guint          index,
                                const char   **pattern,
                                const char   **replacement)
{
  const WinnowReplaceRule *rule;

  g_return_if_fail (WINNOW_IS_FILTER (self));
  _winnow_filter_ensure_body (self);
  g_return_if_fail (index < self->replace->len);

  rule = &g_array_index (self->replace, WinnowReplaceRule, index);
  if (pattern != NULL)
    *pattern = rule->pattern;
  if (replacement != NULL)
    *replacement = rule->replacement;
}

guint
winnow_filter_get_n_match_output_rules (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  _winnow_filter_ensure_body (self);
  return self->match_output->len;
}

void
winnow_filter_get_match_output_rule (WinnowFilter  *self,
                                     guint          index,
                                     const char   **pattern,
                                     const char   **message,
                                     const char   **unless)
{
  const WinnowMatchOutputRule *rule;

  g_return_if_fail (WINNOW_IS_FILTER (self));
  _winnow_filter_ensure_body (self);
  g_return_if_fail (index < self->match_output->len);

  rule = &g_array_index (self->match_output, WinnowMatchOutputRule, index);
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
  _winnow_filter_ensure_body (self);
  return _winnow_strv_or_empty (self->drop);
}

const char * const *
winnow_filter_get_include_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  _winnow_filter_ensure_body (self);
  return _winnow_strv_or_empty (self->include);
}

const char * const *
winnow_filter_get_collapse_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  _winnow_filter_ensure_body (self);
  return _winnow_strv_or_empty (self->collapse);
}

guint
winnow_filter_get_truncate_line_at (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  _winnow_filter_ensure_body (self);
  return self->truncate_line_at;
}

gboolean
winnow_filter_get_deduplicate (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), FALSE);
  _winnow_filter_ensure_body (self);
  return self->deduplicate;
}

guint
winnow_filter_get_max_lines (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  _winnow_filter_ensure_body (self);
  return self->max_lines;
}

guint
winnow_filter_get_head_lines (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  _winnow_filter_ensure_body (self);
  return self->head_lines;
}

guint
winnow_filter_get_tail_lines (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);
  _winnow_filter_ensure_body (self);
  return self->tail_lines;
}

const char *
winnow_filter_get_on_empty (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  _winnow_filter_ensure_body (self);
  return self->on_empty;
}

const char * const *
winnow_filter_get_error_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  _winnow_filter_ensure_body (self);
  return _winnow_strv_or_empty (self->error_patterns);
}

const char * const *
winnow_filter_get_summary_patterns (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);
  _winnow_filter_ensure_body (self);
  return _winnow_strv_or_empty (self->summary_patterns);
}

guint
winnow_filter_get_n_tests (WinnowFilter *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), 0);

  _winnow_filter_ensure_tests (self);
  return self->tests->len;
}

const WinnowFilterTest *
winnow_filter_get_test (WinnowFilter *self,
                        guint         index)
{
  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);

  _winnow_filter_ensure_tests (self);
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

  _winnow_filter_ensure_body (self);
  _winnow_filter_ensure_tests (self);
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
  add_strv (builder, "outputTypes", _winnow_strv_or_empty (self->output_types));
  add_strv (builder, "commands", _winnow_strv_or_empty (self->commands));
  add_strv (builder, "patterns", _winnow_strv_or_empty (self->patterns));
  _winnow_json_builder_add_members (builder, self->extra_match);
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
          const WinnowReplaceRule *rule = &g_array_index (self->replace, WinnowReplaceRule, i);

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
          const WinnowMatchOutputRule *rule = &g_array_index (self->match_output, WinnowMatchOutputRule, i);

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
  add_strv (builder, "dropPatterns", _winnow_strv_or_empty (self->drop));
  add_strv (builder, "includePatterns", _winnow_strv_or_empty (self->include));
  add_strv (builder, "collapsePatterns", _winnow_strv_or_empty (self->collapse));
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
  _winnow_json_builder_add_members (builder, self->extra_rules);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "preserve");
  json_builder_begin_object (builder);
  add_strv (builder, "errorPatterns", _winnow_strv_or_empty (self->error_patterns));
  add_strv (builder, "summaryPatterns", _winnow_strv_or_empty (self->summary_patterns));
  _winnow_json_builder_add_members (builder, self->extra_preserve);
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

  _winnow_json_builder_add_members (builder, self->extra);

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

  g_return_val_if_fail (WINNOW_IS_FILTER (self), NULL);

  node = winnow_filter_to_json_node (self);
  return _winnow_json_to_document (node);
}

/**
 * winnow_filter_pattern_flags:
 * @member: the member a pattern list sits in: "dropPatterns", "includePatterns",
 *   "collapsePatterns", "errorPatterns", "summaryPatterns", "replace", "matchOutput",
 *   "unless", "commands" or "patterns"
 *
 * The JavaScript flags the engine compiles a pattern of @member with (FORMATS.md §1): line
 * patterns are case-insensitive, `replace` is global, whole-text patterns are
 * case-insensitive and multi-line. An editor compiles with the same flags, so a pattern it
 * accepts is a pattern the engine accepts.
 *
 * Returns: the flags
 */
const char *
winnow_filter_pattern_flags (const char *member)
{
  g_return_val_if_fail (member != NULL, WINNOW_LINE_FLAGS);

  if (g_str_equal (member, "replace"))
    return WINNOW_REPLACE_FLAGS;
  if (g_str_equal (member, "matchOutput") || g_str_equal (member, "unless") ||
      g_str_equal (member, "commands") || g_str_equal (member, "patterns"))
    return WINNOW_TEXT_FLAGS;
  return WINNOW_LINE_FLAGS;
}
