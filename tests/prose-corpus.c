/* prose-corpus.c — the verbose agent-prose corpus in tests/prose/ and how it is scored
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Needles are checked byte for byte. A meaning phrase ("is not the culprit", "must work
 * without a TTY") is kept when its words that carry sense — everything but the words
 * Caveman may drop by design: articles, fillers, intensifiers, the present copula — appear in
 * the output in the same order, close together. Negations and modal words are never droppable, so a phrase
 * whose "not" or "never" went missing, or whose words changed order (a change of voice),
 * fails.
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "prose-corpus.h"

static void
prose_message_free (gpointer data)
{
  ProseMessage *m = data;

  g_free (m->id);
  g_free (m->lang);
  g_free (m->role);
  g_free (m->style);
  g_free (m->text);
  g_strfreev (m->needles);
  g_strfreev (m->meaning);
  g_free (m);
}

static GStrv
string_array (JsonObject *obj,
              const char *member)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array = json_object_get_array_member (obj, member);

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    g_strv_builder_add (builder, json_array_get_string_element (array, i));

  return g_strv_builder_end (builder);
}

GPtrArray *
prose_corpus_load (const char *directory)
{
  GPtrArray *messages = g_ptr_array_new_with_free_func (prose_message_free);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  const char *name;

  dir = g_dir_open (directory, 0, &error);
  if (dir == NULL)
    g_error ("cannot read the prose corpus: %s", error->message);

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (directory, g_ptr_array_index (names, i), NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      ProseMessage *m;
      JsonObject *obj;

      if (!json_parser_load_from_file (parser, path, &error))
        g_error ("%s: %s", path, error->message);

      obj = json_node_get_object (json_parser_get_root (parser));
      m = g_new0 (ProseMessage, 1);
      m->id = g_strdup (json_object_get_string_member (obj, "id"));
      m->lang = g_strdup (json_object_get_string_member (obj, "lang"));
      m->role = g_strdup (json_object_get_string_member (obj, "role"));
      m->style = g_strdup (json_object_get_string_member_with_default (obj, "style", "mixed"));
      m->text = g_strdup (json_object_get_string_member (obj, "text"));
      m->needles = string_array (obj, "needles");
      m->meaning = string_array (obj, "meaning");
      g_ptr_array_add (messages, m);
    }

  return messages;
}

/* Words Caveman may drop by design, in the languages of the corpus. */
static const char * const droppable[] = {
  /* en: articles, fillers, and the present copula and existential "there" that telegraphic
   * style drops ("the cache is stale" → "cache stale", "there's no need" → "no need") */
  "a", "an", "the", "that", "just", "very", "really", "quite", "actually", "basically",
  "simply", "please", "is", "are", "am", "there", "there's", "it's",
  /* pt / es */ "o", "os", "a", "as", "um", "uma", "el", "los", "las", "la", "un", "una", "que",
  /* de */ "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer",
  "eigentlich", "einfach", "wirklich", "bitte",
  /* fr */ "le", "les", "une", "l", "d", "vraiment", "simplement",
  /* id: "mohon" and "tolong" are the "please" of a request, "ya" a tag particle */
  "yang", "sebenarnya", "saja", "mohon", "tolong", "ya",
  NULL
};

static gboolean
is_word_char (gunichar c)
{
  return g_unichar_isalnum (c) || c == '\'' || c == 0x2019;
}

static GPtrArray *
words_of (const char *text)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) word = g_string_new (NULL);

  for (const char *p = text; ; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != 0 && is_word_char (c))
        {
          g_string_append_unichar (word, g_unichar_tolower (c));
          continue;
        }

      if (word->len > 0)
        {
          g_ptr_array_add (words, g_strdup (word->str));
          g_string_truncate (word, 0);
        }

      if (c == 0)
        break;
    }

  return words;
}

static gboolean
has_cjk (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff))
        return TRUE;
    }

  return FALSE;
}

/**
 * prose_meaning_kept:
 * @phrase: a meaning phrase of the corpus
 * @output: compressed text
 *
 * Returns: whether the words of @phrase that carry sense appear in @output in order, within
 *   a window a little longer than the phrase
 */
gboolean
prose_meaning_kept (const char *phrase,
                    const char *output)
{
  g_autoptr(GPtrArray) want = NULL;
  g_autoptr(GPtrArray) have = NULL;
  guint window;

  if (strstr (output, phrase) != NULL)
    return TRUE;
  if (has_cjk (phrase))
    return FALSE; /* no droppable words to allow for: the phrase itself must be there */

  want = words_of (phrase);
  for (guint i = want->len; i > 0; i--)
    if (g_strv_contains (droppable, g_ptr_array_index (want, i - 1)))
      g_ptr_array_remove_index (want, i - 1);
  if (want->len == 0)
    return TRUE;

  have = words_of (output);
  window = want->len * 2 + 2;

  for (guint start = 0; start < have->len; start++)
    {
      guint w = 0;

      if (g_strcmp0 (g_ptr_array_index (have, start), g_ptr_array_index (want, 0)) != 0)
        continue;

      for (guint k = start; k < have->len && k < start + window && w < want->len; k++)
        if (g_strcmp0 (g_ptr_array_index (have, k), g_ptr_array_index (want, w)) == 0)
          w++;

      if (w == want->len)
        return TRUE;
    }

  return FALSE;
}

/**
 * prose_meaning_kept_by:
 * @rules: the rule packs that compressed @output
 * @options: the options they ran with
 * @phrase: a meaning phrase of the corpus
 * @output: the compressed message
 * @expanded: winnow_caveman_expand() of @output
 *
 * A meaning phrase is kept when its sense-carrying words are in the output or its expansion,
 * or when the phrase compressed on its own — the same rewrite, say a Japanese loanword written
 * in English — is in the output.
 */
gboolean
prose_meaning_kept_by (WinnowRuleSet              *rules,
                       const WinnowCavemanOptions *options,
                       const char                 *phrase,
                       const char                 *output,
                       const char                 *expanded)
{
  g_autoptr(WinnowCavemanResult) alone = NULL;

  if (prose_meaning_kept (phrase, output) || prose_meaning_kept (phrase, expanded))
    return TRUE;

  alone = winnow_caveman_compress (rules, phrase, -1, options);
  return strstr (output, winnow_caveman_result_get_text (alone, NULL)) != NULL;
}

/* Appends @line wrapped at @width characters, as an e-mail client would; a code span is
 * never broken. Lines after the first start with @hang spaces (a list item's text goes on
 * under its text, not under its marker). */
static void
append_wrapped (GString    *out,
                const char *line,
                gsize       length,
                guint       width,
                guint       hang)
{
  const char *end = line + length;
  const char *p = line;
  glong column = 0;
  gboolean first_line = TRUE;

  while (p < end)
    {
      const char *word = p;
      gboolean code = FALSE;
      glong chars = 0;

      while (p < end && (code || *p != ' '))
        {
          code ^= *p == '`';
          p = g_utf8_next_char (p);
          chars++;
        }
      if (column > (first_line ? 0 : (glong) hang) && column + 1 + chars > (glong) width)
        {
          g_string_append_c (out, '\n');
          for (guint k = 0; k < hang; k++)
            g_string_append_c (out, ' ');
          column = hang;
          first_line = FALSE;
          g_string_append_len (out, word, p - word);
          column += chars;
          while (p < end && *p == ' ')
            p++;
          continue;
        }
      else if (column > 0)
        {
          g_string_append_c (out, ' ');
          column++;
        }
      g_string_append_len (out, word, p - word);
      column += chars;
      while (p < end && *p == ' ')
        p++;
    }
}

/* Where the text of a list item at the margin starts ("- ", "1. "), or 0. */
static guint
list_item_text (const char *line)
{
  guint i = 0;

  if (strchr ("-*+", line[0]) != NULL && line[0] != '\0' && line[1] == ' ')
    return 2;
  while (i < 3 && g_ascii_isdigit (line[i]))
    i++;
  return i > 0 && (line[i] == '.' || line[i] == ')') && line[i + 1] == ' ' ? i + 2 : 0;
}

/**
 * prose_hard_wrap:
 * @text: a message
 * @width: the longest line, in characters
 *
 * The message as a hard-wrapped e-mail: paragraph lines and list items outside fences
 * wrapped at @width (an item's text going on under its text), other blocks (headings, quotes,
 * tables, indented lines) as they are.
 *
 * Returns: (transfer full): the wrapped text
 */
char *
prose_hard_wrap (const char *text,
                 guint       width)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  gboolean fenced = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      guint hang;

      if (i > 0)
        g_string_append_c (out, '\n');
      if (g_str_has_prefix (line, "```") || g_str_has_prefix (line, "~~~"))
        fenced = !fenced;
      if (!fenced && (hang = list_item_text (line)) > 0)
        append_wrapped (out, line, strlen (line), width, hang);
      else if (fenced || line[0] == '\0' || strchr (" \t#>|-*+`~", line[0]) != NULL ||
               g_ascii_isdigit (line[0]))
        g_string_append (out, line);
      else
        append_wrapped (out, line, strlen (line), width, 0);
    }

  return g_string_free (out, FALSE);
}
