/* winnow-filter-program.c — a filter's patterns, compiled
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Regexes are compiled on first use, thread-safely, so that loading the whole built-in catalog
 * stays cheap for a one-shot CLI call: the stage patterns of the filter that runs and the
 * selection patterns (match.commands, match.patterns) of the filters selection looks at.
 *
 * Stage patterns are tested on every line, but most lines never reach one (their required
 * literals are missing, see winnow-literals.c): they are JIT-compiled once they have run a few
 * times or meet a long subject (WINNOW_REGEX_ADAPTIVE), not up front. A 10 KB `winnow compress`
 * JIT-compiled 28 of them, 2.2 million instructions, to run 530 matches.
 */

#define G_LOG_DOMAIN "winnow-filter"

#include "config.h"

#include <string.h>

#include "winnow-diagnostic.h"
#include "winnow-error.h"
#include "winnow-filter-private.h"
#include "winnow-utf8.h"

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
      g_free ((*patterns)[i].literals);
    }
  g_clear_pointer (patterns, g_free);
}

/* selector arrays end with an entry whose regex is NULL */
void
_winnow_filter_selector_free (WinnowPattern *patterns)
{
  if (patterns == NULL)
    return;

  for (WinnowPattern *p = patterns; p->regex != NULL; p++)
    {
      winnow_regex_unref (p->regex);
      g_free (p->path);
    }
  g_free (patterns);
}

void
_winnow_filter_program_free (WinnowFilterProgram *program)
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

/* ---- compiled program -------------------------------------------------------------------- */

static void
compile_pattern (WinnowPattern *out,
                 const char    *source,
                 const char    *flags,
                 const char    *path)
{
  g_autoptr(GError) error = NULL;

  out->path = g_strdup (path);
  out->regex = winnow_regex_new (source, flags, WINNOW_REGEX_ADAPTIVE, &error);

  /* Only a built-in parsed lazily can get here with a bad pattern, and the build validates
   * those; warn loudly rather than crash if it happens anyway. */
  if (out->regex == NULL)
    {
      g_warning ("%s: invalid regex /%s/: %s", path, source, error->message);
      return;
    }

  /* Line patterns are case-insensitive: the literals a match needs let most lines skip the
   * regex call (see winnow-literals.c). */
  if (g_strcmp0 (flags, WINNOW_LINE_FLAGS) == 0)
    {
      g_autoptr(GPtrArray) literals = _winnow_literals_required (source, flags);

      if (literals != NULL && literals->len > 0)
        {
          out->literals = g_new (WinnowBigrams, literals->len);
          out->n_literals = literals->len;
          for (guint i = 0; i < literals->len; i++)
            _winnow_bigrams_of_literal (g_ptr_array_index (literals, i), &out->literals[i]);
        }
    }
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

  _winnow_filter_ensure_body (self);
  program->replace = g_new0 (WinnowReplaceStep, MAX (self->replace->len, 1));
  for (guint i = 0; i < self->replace->len; i++)
    {
      const WinnowReplaceRule *rule = &g_array_index (self->replace, WinnowReplaceRule, i);
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
      const WinnowMatchOutputRule *rule = &g_array_index (self->match_output, WinnowMatchOutputRule, i);
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
 * Compiles every pattern now instead of on first use, and reports the
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

