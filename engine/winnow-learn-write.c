/* winnow-learn-write.c — the draft filter as text: its name, its JSON, its tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What winnow_learn_filter() needs to turn proposed patterns into a filter a user can save:
 * an id, label words and `match.commands` from the command line, the filter as a JSON
 * document, and the pieces of its `tests[]` (each sample's input, cut to a size, run the way
 * the verify gate runs it).
 */

#define G_LOG_DOMAIN "winnow-learn"

#include "config.h"

#include <string.h>

#include "winnow-command.h"
#include "winnow-learn-private.h"
#include "winnow-rtk.h"

#define LEARNED_PRIORITY  95   /* above every built-in filter, so the draft is the one used */

/* ---- naming and matching ----------------------------------------------------------------- */

/* The command's first words — the tool and, when it has one, its subcommand — as plain
 * words; options, paths and arguments after them say nothing about the output's shape. */
GPtrArray *
_winnow_learn_command_words (const char *command)
{
  g_autofree char *normal = NULL;
  g_auto(GStrv) words = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  if (command == NULL)
    return out;
  normal = winnow_command_normalize (command);
  if (normal == NULL)
    return out;
  words = g_strsplit_set (g_strstrip (normal), " \t", -1);

  for (guint i = 0; words[i] != NULL && out->len < 2; i++)
    {
      const char *word = words[i];
      gboolean plain = word[0] != '\0';

      if (word[0] == '\0')
        continue;
      if (out->len == 0 && strchr (word, '=') != NULL)
        continue; /* an environment assignment */
      if (out->len == 0 && strchr (word, '/') != NULL)
        word = strrchr (word, '/') + 1;
      for (const char *p = word; *p != '\0'; p++)
        plain &= g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '+' || *p == '-';
      if (!plain || word[0] == '-' || word[0] == '\0' ||
          (out->len > 0 && !g_ascii_isalpha (word[0])))
        break;
      g_ptr_array_add (out, g_strdup (word));
    }
  return out;
}

char *
_winnow_learn_command_regex (GPtrArray *words)
{
  GString *out = g_string_new ("^");

  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);

      if (i > 0)
        g_string_append (out, "\\s+");
      for (const char *p = word; *p != '\0'; p++)
        _winnow_learn_append_escaped_char (out, *p);
    }
  g_string_append (out, "\\b");
  return g_string_free (out, FALSE);
}

char *
_winnow_learn_slug (GPtrArray *words)
{
  GString *out = g_string_new ("learned");

  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);

      g_string_append_c (out, '-');
      for (const char *p = word; *p != '\0'; p++)
        g_string_append_c (out, g_ascii_isalnum (*p) ? g_ascii_tolower (*p) : '-');
    }
  if (words->len == 0)
    g_string_append (out, "-filter");
  return g_string_free (out, FALSE);
}

gboolean
_winnow_learn_is_known_category (const char *category)
{
  static const char * const known[] = {
    "git", "test", "build", "lint", "package", "shell", "docker", "infra", "cloud", "network",
    "runtime", "generic", NULL
  };

  return category != NULL && g_strv_contains (known, category);
}

static void
add_string_array (JsonBuilder *builder,
                  const char  *name,
                  GPtrArray   *strings)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
}

void
_winnow_learn_add_member (JsonBuilder *builder,
                          const char  *name,
                          const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

JsonNode *
_winnow_learn_draft_to_node (const Draft *d)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  _winnow_learn_add_member (builder, "id", d->id);
  _winnow_learn_add_member (builder, "label", d->label);
  _winnow_learn_add_member (builder, "description", d->description);
  _winnow_learn_add_member (builder, "category", d->category);
  json_builder_set_member_name (builder, "priority");
  json_builder_add_int_value (builder, LEARNED_PRIORITY);

  json_builder_set_member_name (builder, "match");
  json_builder_begin_object (builder);
  add_string_array (builder, "outputTypes", d->output_types);
  add_string_array (builder, "commands", d->commands);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "rules");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "stripAnsi");
  json_builder_add_boolean_value (builder, TRUE);
  if (d->shortcut_pattern != NULL)
    {
      json_builder_set_member_name (builder, "matchOutput");
      json_builder_begin_array (builder);
      json_builder_begin_object (builder);
      _winnow_learn_add_member (builder, "pattern", d->shortcut_pattern);
      _winnow_learn_add_member (builder, "message", d->shortcut_message);
      _winnow_learn_add_member (builder, "unless", d->shortcut_unless);
      json_builder_end_object (builder);
      json_builder_end_array (builder);
    }
  add_string_array (builder, "dropPatterns", d->drop);
  add_string_array (builder, "collapsePatterns", d->collapse);
  json_builder_set_member_name (builder, "deduplicate");
  json_builder_add_boolean_value (builder, TRUE);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "preserve");
  json_builder_begin_object (builder);
  add_string_array (builder, "errorPatterns", d->errors);
  add_string_array (builder, "summaryPatterns", d->summaries);
  json_builder_end_object (builder);

  if (d->test_names != NULL)
    {
      json_builder_set_member_name (builder, "tests");
      json_builder_begin_array (builder);
      for (guint i = 0; i < d->test_names->len; i++)
        {
          json_builder_begin_object (builder);
          _winnow_learn_add_member (builder, "name", g_ptr_array_index (d->test_names, i));
          if (d->command != NULL)
            _winnow_learn_add_member (builder, "command", d->command);
          _winnow_learn_add_member (builder, "input", g_ptr_array_index (d->test_inputs, i));
          _winnow_learn_add_member (builder, "expected", g_ptr_array_index (d->test_expected, i));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

guint
_winnow_learn_count_lines (const char *text,
                           gsize       len)
{
  guint n = 0;

  if (len == 0)
    return 0;
  for (gsize i = 0; i < len; i++)
    n += text[i] == '\n';
  return text[len - 1] == '\n' ? n : n + 1;
}

/* Runs @filter as the verify gate does: alone, no engine limits. */
WinnowRtkResult *
_winnow_learn_run_as_verify (WinnowFilter *filter,
                             const char   *text,
                             gsize         len)
{
  WinnowRtkOptions options;

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  return winnow_rtk_apply (filter, text, len, &options);
}

/* The test input for a sample: all of it, or its first lines up to the byte limit. */
char *
_winnow_learn_test_input (const char *data,
                          gsize       len,
                          gsize       limit,
                          gboolean   *cut)
{
  const char *nl;

  *cut = FALSE;
  if (limit == 0 || len <= limit)
    return g_strndup (data, len);

  nl = g_strrstr_len (data, limit, "\n");
  *cut = TRUE;
  if (nl == NULL)
    {
      /* one enormous line: cut it at a character boundary */
      const char *end = g_utf8_find_prev_char (data, data + limit);
      return g_strndup (data, end ? end - data : 0);
    }
  return g_strndup (data, nl + 1 - data);
}

char *
_winnow_learn_literal_line_regex (const char *line)
{
  GString *out = g_string_new ("^");

  for (const char *p = line; *p != '\0'; p++)
    _winnow_learn_append_escaped_char (out, *p);
  g_string_append (out, "$");
  return g_string_free (out, FALSE);
}
