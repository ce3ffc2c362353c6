/* winnow-command.c — what command produced some output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents hand us shell lines such as `cd web && FORCE_COLOR=0 npx vitest run 2>&1 | tail -50`.
 * The output comes from the last command list entry, from the producing end of its pipeline,
 * and neither the environment assignments, the wrappers (sudo, time, timeout 60 …) nor the
 * redirections say anything about its format. Normalisation keeps only `npx vitest run`.
 * Splitting is quote-aware: separators inside '…', "…" or after a backslash do not count.
 */

#define G_LOG_DOMAIN "winnow-command"

#include "config.h"

#include <string.h>

#include "winnow-command.h"

/* Splits @line at unquoted occurrences of the separators; "|" never matches inside "||". */
static GPtrArray *
split_unquoted (const char *line,
                gboolean    pipes)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  const char *start = line;
  char quote = 0;
  int depth = 0;

  for (const char *p = line; *p; p++)
    {
      gsize sep = 0;

      if (quote != 0)
        {
          if (*p == '\\' && quote == '"' && p[1] != '\0')
            p++;
          else if (*p == quote)
            quote = 0;
          continue;
        }

      switch (*p)
        {
        case '\\':
          if (p[1] != '\0')
            p++;
          continue;
        case '\'': case '"': case '`':
          quote = *p;
          continue;
        case '(':
          depth++;
          continue;
        case ')':
          depth = MAX (depth - 1, 0);
          continue;
        default:
          break;
        }

      if (depth > 0)
        continue;

      if (!pipes)
        {
          if ((p[0] == '&' && p[1] == '&') || (p[0] == '|' && p[1] == '|'))
            sep = 2;
          else if (*p == ';' || *p == '\n')
            sep = 1;
          else if (*p == '&' && p[1] != '>' && (p == line || (p[-1] != '>' && p[-1] != '<')))
            sep = 1; /* a background job, not a redirection like 2>&1 or &> */
        }
      else if (p[0] == '|' && p[1] != '|' && (p == line || p[-1] != '|'))
        sep = p[1] == '&' ? 2 : 1;

      if (sep > 0)
        {
          g_ptr_array_add (parts, g_strstrip (g_strndup (start, p - start)));
          p += sep - 1;
          start = p + 1;
        }
    }

  g_ptr_array_add (parts, g_strstrip (g_strdup (start)));
  return parts;
}

/* Whitespace-separated words, quotes kept as written. */
static GPtrArray *
split_words (const char *line)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  GString *word = NULL;
  char quote = 0;

  for (const char *p = line;; p++)
    {
      if (*p == '\0' || (quote == 0 && g_ascii_isspace (*p)))
        {
          if (word != NULL)
            g_ptr_array_add (words, g_string_free (g_steal_pointer (&word), FALSE));
          if (*p == '\0')
            break;
          continue;
        }

      if (word == NULL)
        word = g_string_new (NULL);

      if (quote == 0 && (*p == '\'' || *p == '"'))
        quote = *p;
      else if (quote != 0 && *p == quote)
        quote = 0;
      else if (*p == '\\' && p[1] != '\0' && quote != '\'')
        g_string_append_c (word, *p++);

      g_string_append_c (word, *p);
    }

  return words;
}

static gboolean
is_assignment (const char *word)
{
  if (!g_ascii_isalpha (word[0]) && word[0] != '_')
    return FALSE;
  for (const char *p = word; *p; p++)
    {
      if (*p == '=')
        return TRUE;
      if (!g_ascii_isalnum (*p) && *p != '_')
        return FALSE;
    }
  return FALSE;
}

static gboolean
is_redirection (const char *word)
{
  const char *p = word;

  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '&' && p[1] == '>')
    p++;
  return *p == '>' || *p == '<';
}

/* How many words a wrapper takes before the real command (0 if @words[i] is no wrapper). */
static guint
wrapper_length (GPtrArray *words,
                guint      i)
{
  static const char * const plain[] = {
    "sudo", "doas", "time", "nice", "nohup", "command", "exec", "builtin", "unbuffer",
    "caffeinate", "chronic", NULL
  };
  const char *w = g_ptr_array_index (words, i);
  const char *next = i + 1 < words->len ? g_ptr_array_index (words, i + 1) : NULL;
  guint n = 0;

  if (g_strv_contains (plain, w))
    {
      n = 1;
      /* options of the wrapper, e.g. sudo -E, nice -n 10 */
      while (i + n < words->len && ((const char *) g_ptr_array_index (words, i + n))[0] == '-')
        n++;
      if (strcmp (w, "nice") == 0 && i + n < words->len &&
          g_ascii_isdigit (((const char *) g_ptr_array_index (words, i + n))[0]))
        n++;
      return n;
    }

  if (strcmp (w, "env") == 0)
    {
      n = 1;
      while (i + n < words->len &&
             (is_assignment (g_ptr_array_index (words, i + n)) ||
              ((const char *) g_ptr_array_index (words, i + n))[0] == '-'))
        n++;
      return n;
    }

  if (strcmp (w, "timeout") == 0 || strcmp (w, "stdbuf") == 0 || strcmp (w, "xvfb-run") == 0)
    {
      n = 1;
      while (i + n < words->len && ((const char *) g_ptr_array_index (words, i + n))[0] == '-')
        n++;
      if (strcmp (w, "timeout") == 0 && i + n < words->len)
        n++; /* the duration */
      return n;
    }

  if (next != NULL && strcmp (next, "run") == 0 &&
      (strcmp (w, "uv") == 0 || strcmp (w, "poetry") == 0 || strcmp (w, "pipenv") == 0 ||
       strcmp (w, "pdm") == 0 || strcmp (w, "hatch") == 0 || strcmp (w, "rye") == 0))
    return 2;

  return 0;
}

static const char *
program_name (const char *word)
{
  /* /usr/bin/git → git, node_modules/.bin/jest → jest; ./gradlew stays as written */
  if (word[0] == '/' || strstr (word, "node_modules/.bin/") != NULL)
    {
      const char *slash = strrchr (word, '/');
      return slash ? slash + 1 : word;
    }
  return word;
}

static char *
clean_simple_command (const char *segment)
{
  g_autoptr(GPtrArray) words = split_words (segment);
  g_autoptr(GString) out = g_string_new (NULL);
  guint i = 0;

  for (;;)
    {
      guint skip;

      while (i < words->len && is_assignment (g_ptr_array_index (words, i)))
        i++;
      skip = i < words->len ? wrapper_length (words, i) : 0;
      if (skip == 0)
        break;
      i += skip;
    }

  for (gboolean first = TRUE; i < words->len; i++)
    {
      const char *w = g_ptr_array_index (words, i);

      if (is_redirection (w))
        {
          /* "> file" and "2> file": the target is a separate word */
          gsize len = strlen (w);
          if (len > 0 && (w[len - 1] == '>' || w[len - 1] == '<') && i + 1 < words->len)
            i++;
          continue;
        }

      if (!first)
        g_string_append_c (out, ' ');
      g_string_append (out, first ? program_name (w) : w);
      first = FALSE;
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gboolean
is_feeder (const char *command)
{
  return g_str_has_prefix (command, "cat ") || g_str_has_prefix (command, "echo ") ||
         g_str_has_prefix (command, "printf ") || strcmp (command, "cat") == 0;
}

/**
 * winnow_command_normalize:
 * @command_line: (nullable): a shell command line
 *
 * Returns: (transfer full) (nullable): the command whose output we are looking at, without
 *   environment assignments, wrappers and redirections, or %NULL if there is none
 */
char *
winnow_command_normalize (const char *command_line)
{
  g_autoptr(GPtrArray) lists = NULL;
  g_autoptr(GPtrArray) pipeline = NULL;
  const char *last = NULL;
  g_autofree char *line = NULL;

  if (command_line == NULL)
    return NULL;

  line = g_strstrip (g_strdup (command_line));
  if (g_str_has_prefix (line, "$ "))
    memmove (line, line + 2, strlen (line + 2) + 1);

  lists = split_unquoted (line, FALSE);
  for (guint i = lists->len; i > 0 && last == NULL; i--)
    if (((const char *) g_ptr_array_index (lists, i - 1))[0] != '\0')
      last = g_ptr_array_index (lists, i - 1);
  if (last == NULL)
    return NULL;

  /* In `cat x.json | jq .` the format comes from jq; in `npm test | tail -40` from npm. */
  pipeline = split_unquoted (last, TRUE);
  for (guint i = 0; i < pipeline->len; i++)
    {
      g_autofree char *clean = clean_simple_command (g_ptr_array_index (pipeline, i));

      if (clean[0] == '\0')
        continue;
      if (i + 1 < pipeline->len && is_feeder (clean))
        continue;
      return g_steal_pointer (&clean);
    }

  return NULL;
}

/**
 * winnow_command_from_output:
 * @text: output that may start with a shell prompt line
 * @length: its length in bytes
 *
 * A transcript pasted with its prompt (`$ git status`) names its command in its first lines.
 *
 * Returns: (transfer full) (nullable): the normalised command, or %NULL
 */
char *
winnow_command_from_output (const char *text,
                            gsize       length)
{
  const char *p = text;
  const char *end = text + MIN (length, 4096);

  for (guint line = 0; line < 4 && p < end; line++)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *stop = nl ? nl : end;

      while (p < stop && (*p == ' ' || *p == '\t'))
        p++;

      if (stop - p > 2 && (p[0] == '$' || p[0] == '%') && p[1] == ' ')
        {
          g_autofree char *cmd = g_strndup (p + 2, stop - p - 2);
          return winnow_command_normalize (cmd);
        }
      if (stop - p > 4 && memcmp (p, "\xE2\x9D\xAF ", 4) == 0) /* ❯ prompt */
        {
          g_autofree char *cmd = g_strndup (p + 4, stop - p - 4);
          return winnow_command_normalize (cmd);
        }
      if (stop > p)
        break; /* only a prompt before any output counts */

      p = nl ? nl + 1 : end;
    }

  return NULL;
}
