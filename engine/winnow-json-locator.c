/* winnow-json-locator.c — line and column of every value in a JSON document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib forgets where nodes came from once parsing ends, but a diagnostic should say
 * "filters.json:14:7" and not only "rules.dropPatterns[3]". This is a second, tolerant scan of
 * text that already parsed: it walks the token stream once, keeps the current JSON path, and
 * records where each value starts. It is only built when there is a diagnostic to place.
 *
 * Paths look like `[2].rules.dropPatterns[3]`; members whose name is not a plain identifier
 * are written `["odd name"]`.
 */

#include "config.h"

#include <string.h>

#include "winnow-diagnostic.h"
#include "winnow-json-locator.h"

struct _WinnowJsonLocator
{
  GHashTable *positions; /* path → guint[2] { line, column } */
};

typedef struct
{
  const char *p;
  const char *end;
  guint       line;
  const char *line_start;
  GHashTable *positions;
  GString    *path;
  guint       depth;
} Scanner;

static gboolean
is_identifier (const char *name)
{
  if (name[0] == '\0' || g_ascii_isdigit (name[0]))
    return FALSE;

  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '$' && *p != '-')
      return FALSE;

  return TRUE;
}

void
_winnow_json_path_append_member (GString    *path,
                                 const char *name)
{
  if (is_identifier (name))
    {
      if (path->len > 0)
        g_string_append_c (path, '.');
      g_string_append (path, name);
    }
  else
    {
      g_string_append (path, "[\"");
      for (const char *p = name; *p; p++)
        {
          if (*p == '"' || *p == '\\')
            g_string_append_c (path, '\\');
          g_string_append_c (path, *p);
        }
      g_string_append (path, "\"]");
    }
}

static void
skip_space (Scanner *s)
{
  while (s->p < s->end)
    {
      if (*s->p == '\n')
        {
          s->line++;
          s->line_start = s->p + 1;
        }
      else if (*s->p != ' ' && *s->p != '\t' && *s->p != '\r')
        return;
      s->p++;
    }
}

static void
record (Scanner *s)
{
  guint *position = g_new (guint, 2);

  position[0] = s->line;
  position[1] = g_utf8_strlen (s->line_start, s->p - s->line_start) + 1;
  g_hash_table_insert (s->positions, g_strdup (s->path->str), position);
}

/* Reads a string token; returns its unescaped-enough content (escapes kept as the letter). */
static char *
scan_string (Scanner *s)
{
  GString *str = g_string_new (NULL);

  s->p++; /* opening quote */
  while (s->p < s->end && *s->p != '"')
    {
      if (*s->p == '\\' && s->p + 1 < s->end)
        {
          s->p++;
          switch (*s->p)
            {
            case 'n': g_string_append_c (str, '\n'); break;
            case 't': g_string_append_c (str, '\t'); break;
            case 'u': g_string_append_c (str, '?'); s->p += MIN (4, s->end - s->p - 1); break;
            default: g_string_append_c (str, *s->p); break;
            }
        }
      else
        g_string_append_c (str, *s->p);
      s->p++;
    }
  if (s->p < s->end)
    s->p++; /* closing quote */

  return g_string_free (str, FALSE);
}

static void scan_value (Scanner *s);

static void
scan_object (Scanner *s)
{
  s->p++; /* { */
  for (;;)
    {
      g_autofree char *name = NULL;
      gsize saved = s->path->len;

      skip_space (s);
      if (s->p >= s->end || *s->p == '}')
        break;
      if (*s->p != '"')
        {
          s->p++;
          continue;
        }

      name = scan_string (s);
      skip_space (s);
      if (s->p < s->end && *s->p == ':')
        s->p++;
      skip_space (s);

      _winnow_json_path_append_member (s->path, name);
      scan_value (s);
      g_string_truncate (s->path, saved);

      skip_space (s);
      if (s->p < s->end && *s->p == ',')
        s->p++;
    }
  if (s->p < s->end)
    s->p++; /* } */
}

static void
scan_array (Scanner *s)
{
  guint index = 0;

  s->p++; /* [ */
  for (;;)
    {
      gsize saved = s->path->len;
      const char *before;

      skip_space (s);
      if (s->p >= s->end || *s->p == ']')
        break;

      before = s->p;
      g_string_append_printf (s->path, "[%u]", index++);
      scan_value (s);
      g_string_truncate (s->path, saved);
      /* a stray '}' or ':' (or a NUL) in an array is no value and nothing consumes it: step
       * over it, or this loops for ever (the document is invalid; json-glib says why) */
      if (s->p == before)
        s->p++;

      skip_space (s);
      if (s->p < s->end && *s->p == ',')
        s->p++;
    }
  if (s->p < s->end)
    s->p++; /* ] */
}

static void
scan_value (Scanner *s)
{
  skip_space (s);
  if (s->p >= s->end)
    return;

  record (s);

  if (s->depth > 512)
    {
      s->p = s->end; /* absurd nesting: give up locating, never recurse without bound */
      return;
    }

  s->depth++;
  switch (*s->p)
    {
    case '{':
      scan_object (s);
      break;
    case '[':
      scan_array (s);
      break;
    case '"':
      g_free (scan_string (s));
      break;
    default:
      while (s->p < s->end && strchr (",]} \t\r\n", *s->p) == NULL)
        s->p++;
      break;
    }
  s->depth--;
}

WinnowJsonLocator *
_winnow_json_locator_new (const char *text,
                          gsize       length)
{
  WinnowJsonLocator *self = g_new0 (WinnowJsonLocator, 1);
  Scanner s = {
    .p = text,
    .end = text + length,
    .line = 1,
    .line_start = text,
  };

  self->positions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s.positions = self->positions;
  s.path = g_string_new (NULL);

  /* a UTF-8 byte-order mark is not part of the document */
  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    s.p += 3;

  scan_value (&s);
  g_string_free (s.path, TRUE);

  return self;
}

gboolean
_winnow_json_locator_lookup (WinnowJsonLocator *self,
                             const char        *path,
                             guint             *line,
                             guint             *column)
{
  const guint *position;

  g_return_val_if_fail (self != NULL, FALSE);

  position = g_hash_table_lookup (self->positions, path ? path : "");
  if (position == NULL)
    return FALSE;

  *line = position[0];
  *column = position[1];
  return TRUE;
}

void
_winnow_json_locator_free (WinnowJsonLocator *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->positions);
  g_free (self);
}

/**
 * _winnow_json_locate_diagnostics:
 * @diagnostics: (element-type WinnowDiagnostic): a list
 * @first: the first entry to place
 * @text: the JSON document the entries are about
 * @length: its length
 *
 * Gives the entries from @first on that have a JSON path but no line the line and column of
 * that path in @text (diagnostics are immutable, so placed ones are replaced).
 */
void
_winnow_json_locate_diagnostics (GPtrArray  *diagnostics,
                                 guint       first,
                                 const char *text,
                                 gsize       length)
{
  g_autoptr(WinnowJsonLocator) locator = NULL;

  if (diagnostics == NULL || first >= diagnostics->len)
    return;

  locator = _winnow_json_locator_new (text, length);

  for (guint i = first; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
      guint line, column;

      if (winnow_diagnostic_get_line (d) > 0 ||
          !_winnow_json_locator_lookup (locator, winnow_diagnostic_get_json_path (d),
                                        &line, &column))
        continue;

      g_ptr_array_index (diagnostics, i) =
        _winnow_diagnostic_copy_at (d, line, column);
      g_object_unref (d);
    }
}
