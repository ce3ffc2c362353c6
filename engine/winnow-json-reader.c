/* winnow-json-reader.c — reading user-written JSON documents with diagnostics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Filters, rule packs and settings are written by people, so reading them is mostly about
 * saying clearly what is wrong: every problem becomes a #WinnowDiagnostic naming the file,
 * what it is about (a filter id, a rule name), the JSON path and the reason. The helpers here
 * read one member each and report instead of failing; the callers decide what an error means
 * for the object being read (skip it, fall back to a default).
 */

#define G_LOG_DOMAIN "winnow-json-reader"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "winnow-json-locator.h"
#include "winnow-json-reader.h"
#include "winnow-regex.h"

/* "rules[2]" under "[1]" is "[1].rules[2]". */
char *
_winnow_json_reader_path (WinnowJsonReader *r,
                          const char       *rel_path)
{
  const char *base = r->base;

  if (base == NULL || base[0] == '\0')
    return g_strdup (rel_path ? rel_path : "");
  if (rel_path == NULL || rel_path[0] == '\0')
    return g_strdup (base);
  if (rel_path[0] == '[')
    return g_strconcat (base, rel_path, NULL);
  return g_strconcat (base, ".", rel_path, NULL);
}

void
_winnow_json_reader_report (WinnowJsonReader      *r,
                            WinnowDiagnosticLevel  level,
                            const char            *rel_path,
                            const char            *format,
                            ...)
{
  g_autofree char *message = NULL;
  g_autofree char *path = _winnow_json_reader_path (r, rel_path);
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (level == WINNOW_DIAGNOSTIC_ERROR)
    r->failed = TRUE;

  if (r->diagnostics != NULL)
    g_ptr_array_add (r->diagnostics,
                     winnow_diagnostic_new_about (level, r->source, r->file, r->subject_kind,
                                                  r->subject, path, 0, 0, message));
}

const char *
_winnow_json_node_type_name (JsonNode *node)
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

gboolean
_winnow_json_node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* A string member; NULL when absent (an error if @required) or not a string (an error). */
char *
_winnow_json_reader_string (WinnowJsonReader *r,
                            JsonObject       *obj,
                            const char       *key,
                            const char       *path,
                            gboolean          required)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path, "is required and missing");
      return NULL;
    }

  if (!_winnow_json_node_is_string (node))
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path, "must be a string, not %s",
                                  _winnow_json_node_type_name (node));
      return NULL;
    }

  return g_strdup (json_node_get_string (node));
}

gboolean
_winnow_json_reader_bool (WinnowJsonReader *r,
                          JsonObject       *obj,
                          const char       *key,
                          const char       *path)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path,
                                  "must be true or false, not %s",
                                  _winnow_json_node_type_name (node));
      return FALSE;
    }

  return json_node_get_boolean (node);
}

/* An integer in [min, max]; returns FALSE when absent or invalid. */
gboolean
_winnow_json_reader_int (WinnowJsonReader *r,
                         JsonObject       *obj,
                         const char       *key,
                         const char       *path,
                         gint64            min,
                         gint64            max,
                         gint64           *out)
{
  JsonNode *node = json_object_get_member (obj, key);
  gint64 value;
  double number;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  number = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE
           ? json_node_get_double (node) : 0.0;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    value = json_node_get_int (node);
  /* a double is checked against gint64's range (-2^63 to 2^63) before it is converted: a
   * conversion out of range is undefined (1e300 as "maxLines") */
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE &&
           number >= (double) G_MININT64 && number < -(double) G_MININT64 &&
           number == (double) (gint64) number)
    value = (gint64) number;
  else
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path,
                                  "must be an integer, not %s",
                                  _winnow_json_node_type_name (node));
      return FALSE;
    }

  if (value < min || value > max)
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path,
                                  "must be between %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT
                                  ", not %" G_GINT64_FORMAT, min, max, value);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

/* Whether @pattern compiles with @flags; reports why not. */
gboolean
_winnow_json_reader_regex (WinnowJsonReader *r,
                           const char       *pattern,
                           const char       *flags,
                           const char       *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRegex) regex = NULL;

  if (r->lazy_regex)
    return TRUE;

  regex = winnow_regex_new (pattern, flags, WINNOW_REGEX_DEFAULT, &error);
  if (regex == NULL)
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path, "invalid regex /%s/: %s",
                                  pattern, error->message);
      return FALSE;
    }

  return TRUE;
}

/* A list of strings; with @regex_flags each must be a non-empty regex that compiles. Bad
 * elements are reported and left out. */
GStrv
_winnow_json_reader_string_list (WinnowJsonReader *r,
                                 JsonObject       *obj,
                                 const char       *key,
                                 const char       *path,
                                 const char       *regex_flags)
{
  JsonNode *node = json_object_get_member (obj, key);
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array;
  guint n;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path,
                                  "must be an array of strings, not %s",
                                  _winnow_json_node_type_name (node));
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

      if (!_winnow_json_node_is_string (element))
        {
          _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, element_path,
                                      "must be a string, not %s",
                                      _winnow_json_node_type_name (element));
          continue;
        }

      str = json_node_get_string (element);
      if (regex_flags != NULL)
        {
          if (str[0] == '\0')
            {
              _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, element_path,
                                          "an empty pattern matches every line");
              continue;
            }
          if (!_winnow_json_reader_regex (r, str, regex_flags, element_path))
            continue;
        }

      g_strv_builder_add (builder, str);
    }

  return g_strv_builder_end (builder);
}

/* An array member described as @what ("an array of rule objects"); NULL when absent or
 * (reported) not an array. */
JsonArray *
_winnow_json_reader_array (WinnowJsonReader *r,
                           JsonObject       *obj,
                           const char       *key,
                           const char       *path,
                           const char       *what)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_ERROR, path, "must be %s, not %s", what,
                                  _winnow_json_node_type_name (node));
      return NULL;
    }

  return json_node_get_array (node);
}

/* Warns about members not in @known; with @extra, keeps copies of them so a writer can put
 * them back. */
void
_winnow_json_reader_unknown (WinnowJsonReader   *r,
                             JsonObject         *obj,
                             const char         *path,
                             const char * const *known,
                             JsonObject        **extra)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autoptr(GString) member_path = NULL;

      if (g_strv_contains (known, name))
        continue;

      member_path = g_string_new (path);
      _winnow_json_path_append_member (member_path, name);
      _winnow_json_reader_report (r, WINNOW_DIAGNOSTIC_WARNING, member_path->str,
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

/* ---- writing ----------------------------------------------------------------------------- */

/* Adds every member of @members (nullable): the fields a reader kept because Winnow does not
 * know them, written back where they were. */
void
_winnow_json_builder_add_members (JsonBuilder *builder,
                                  JsonObject  *members)
{
  g_autoptr(GList) names = NULL;

  if (members == NULL)
    return;

  names = json_object_get_members (members);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      json_builder_set_member_name (builder, l->data);
      json_builder_add_value (builder, json_node_copy (json_object_get_member (members, l->data)));
    }
}

/* A file's worth of JSON: two-space indentation and a final newline, the way Winnow writes
 * every document a person may read or edit. */
char *
_winnow_json_to_document (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, NULL);

  return g_strconcat (text, "\n", NULL);
}

/* ---- documents --------------------------------------------------------------------------- */

static void
add_file_diagnostic (GPtrArray  *diagnostics,
                     const char *source,
                     const char *file,
                     guint       line,
                     guint       column,
                     const char *message)
{
  if (diagnostics != NULL)
    g_ptr_array_add (diagnostics,
                     winnow_diagnostic_new_about (WINNOW_DIAGNOSTIC_ERROR, source, file, NULL,
                                                  NULL, NULL, line, column, message));
}

static guint
line_of_offset (const char *text,
                gsize       offset)
{
  guint line = 1;

  for (gsize i = 0; i < offset; i++)
    if (text[i] == '\n')
      line++;

  return line;
}

/* \uXXXX at @text[i] (i at the backslash): the code unit, or -1 */
static int
unicode_escape (const char *text,
                gsize       length,
                gsize       i)
{
  int value = 0;

  if (i + 6 > length || text[i] != '\\' || text[i + 1] != 'u')
    return -1;
  for (gsize k = i + 2; k < i + 6; k++)
    {
      int digit = g_ascii_xdigit_value (text[k]);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* Whether the escape at @text[*i] (a backslash inside a string) is one JSON has and stands for
 * text: json-glib 1.6 also takes octal escapes (\351) and lone surrogates (\udc00) and turns
 * them into bytes that are not UTF-8, which nothing downstream expects. Moves *i to the
 * escape's last byte. */
static gboolean
escape_is_text (const char *text,
                gsize       length,
                gsize      *i)
{
  int unit;

  if (*i + 1 >= length)
    return TRUE; /* an unterminated string: json-glib reports it */

  switch (text[*i + 1])
    {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
      *i += 1;
      return TRUE;

    case 'u':
      unit = unicode_escape (text, length, *i);
      if (unit < 0)
        return FALSE;
      if (unit >= 0xDC00 && unit <= 0xDFFF)
        return FALSE; /* a low surrogate with no high one before it */
      if (unit >= 0xD800 && unit <= 0xDBFF)
        {
          int low = unicode_escape (text, length, *i + 6);

          if (low < 0xDC00 || low > 0xDFFF)
            return FALSE;
          *i += 11;
          return TRUE;
        }
      *i += 5;
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * _winnow_json_check_document:
 * @text: a JSON document
 * @length: its length
 * @line: (out): where the problem is, 1-based
 * @column: (out): the column there, 1-based (in bytes)
 *
 * What json-glib 1.6 must not be given, found by one scan (strings skipped): nesting deeper
 * than %WINNOW_JSON_MAX_DEPTH (its parser recurses per level: a million `[` exhausts the
 * stack), a second top-level value after the first (it accepts `{…}{…}` or `1[…]` as valid,
 * keeps one value and leaks the other: memory lost on every such request to `winnow serve`),
 * and string escapes that are not JSON's or give bytes that are not UTF-8 (json-glib takes
 * `\351` and a lone `\udc00`). It does not validate anything else; json-glib reports the rest.
 *
 * Returns: (nullable): %NULL when @text may be parsed, else why not
 */
const char *
_winnow_json_check_document (const char *text,
                             gsize       length,
                             guint      *line,
                             guint      *column)
{
  guint depth = 0;
  gsize line_start = 0;
  guint lines = 1;
  gboolean started = FALSE;   /* a top-level value has begun */
  gboolean ended = FALSE;     /* and, being an array or object, closed */
  /* json-glib skips a byte-order mark; so does this */
  gsize start = length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

  for (gsize i = start; i < length; i++)
    {
      char c = text[i];

      if (c == '\n')
        {
          lines++;
          line_start = i + 1;
          continue;
        }
      if (c == ' ' || c == '\t' || c == '\r')
        continue;

      if (depth == 0 && (ended || (started && (c == '[' || c == '{' || c == '"'))))
        {
          *line = lines;
          *column = i - line_start + 1;
          return "a second value after the first (a document holds one)";
        }
      if (depth == 0)
        started = TRUE;

      if (c == '"')
        {
          for (i++; i < length && text[i] != '"'; i++)
            if (text[i] == '\\')
              {
                gsize escape = i;

                if (!escape_is_text (text, length, &i))
                  {
                    *line = lines;
                    *column = escape - line_start + 1;
                    return "an escape that is not JSON or does not stand for text (such as \\351 "
                           "or a lone \\udc00)";
                  }
              }
        }
      else if (c == '[' || c == '{')
        {
          if (++depth > WINNOW_JSON_MAX_DEPTH)
            {
              *line = lines;
              *column = i - line_start + 1;
              return "arrays and objects nest deeper than " G_STRINGIFY (WINNOW_JSON_MAX_DEPTH)
                     " levels";
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        {
          if (--depth == 0)
            ended = TRUE;
        }
    }

  return NULL;
}

/**
 * _winnow_json_check_depth:
 * @text: a JSON document
 * @length: its length
 * @max_depth: how deep arrays and objects may nest
 * @line: (out): where the limit was passed, 1-based
 * @column: (out): the column there, 1-based (in bytes)
 *
 * json-glib parses recursively, so a document of a million `[` would exhaust the stack; this
 * scan (strings skipped) refuses such a document before it gets there.
 *
 * Returns: %TRUE when @text nests no deeper than @max_depth
 */
gboolean
_winnow_json_check_depth (const char *text,
                          gsize       length,
                          guint       max_depth,
                          guint      *line,
                          guint      *column)
{
  guint depth = 0;
  gsize line_start = 0;
  guint lines = 1;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (c == '\n')
        {
          lines++;
          line_start = i + 1;
        }
      else if (c == '"')
        {
          for (i++; i < length && text[i] != '"'; i++)
            if (text[i] == '\\')
              i++;
        }
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            {
              *line = lines;
              *column = i - line_start + 1;
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

/* whether @text holds nothing but JSON whitespace; @text need not be NUL-terminated (strspn
 * would read past a buffer of blanks) */
static gboolean
only_whitespace (const char *text,
                 gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
      return FALSE;
  return TRUE;
}

/**
 * _winnow_json_parse_document:
 * @text: (inout): the document; moved past a byte-order mark
 * @length: (inout): its length
 * @source: where it comes from, for diagnostics
 * @file: (nullable): its name, for diagnostics
 * @expected: what the document should hold, e.g. "a filter object or an array of them"
 * @diagnostics: (nullable): findings are appended here
 *
 * Checks that @text is UTF-8, not empty, not nested absurdly deep and valid JSON; each failure
 * is one diagnostic with the line and column. The nodes are immutable.
 *
 * Returns: (transfer full) (nullable): the parser holding the document, or %NULL
 */
JsonParser *
_winnow_json_parse_document (const char **text,
                             gsize       *length,
                             const char  *source,
                             const char  *file,
                             const char  *expected,
                             GPtrArray   *diagnostics)
{
  return _winnow_json_parse_document_full (text, length, source, file, expected, TRUE,
                                           diagnostics);
}

/**
 * _winnow_json_parse_document_full:
 * @text: (inout): the document; moved past a byte-order mark
 * @length: (inout): its length
 * @source: where it comes from, for diagnostics
 * @file: (nullable): its name, for diagnostics
 * @expected: what the document should hold
 * @immutable: seal the nodes (cheap to share); %FALSE when the caller edits the tree
 * @diagnostics: (nullable): findings are appended here
 *
 * Returns: (transfer full) (nullable): the parser holding the document, or %NULL
 */
JsonParser *
_winnow_json_parse_document_full (const char **text,
                                  gsize       *length,
                                  const char  *source,
                                  const char  *file,
                                  const char  *expected,
                                  gboolean     immutable,
                                  GPtrArray   *diagnostics)
{
  g_autoptr(JsonParser) parser = immutable ? json_parser_new_immutable () : json_parser_new ();
  g_autoptr(GError) error = NULL;
  const char *invalid = NULL;

  if (*length >= 3 && memcmp (*text, "\xEF\xBB\xBF", 3) == 0)
    {
      *text += 3; /* a byte-order mark is harmless (it still counts for the trust hash) */
      *length -= 3;
    }

  if (!g_utf8_validate_len (*text, *length, &invalid))
    {
      g_autofree char *message =
        g_strdup_printf ("not valid UTF-8 (bad byte 0x%02x at offset %" G_GSIZE_FORMAT ")",
                         (guchar) *invalid, (gsize) (invalid - *text));
      add_file_diagnostic (diagnostics, source, file, line_of_offset (*text, invalid - *text), 0,
                           message);
      return NULL;
    }

  if (only_whitespace (*text, *length))
    {
      g_autofree char *message = g_strdup_printf ("the file is empty; expected %s", expected);
      add_file_diagnostic (diagnostics, source, file, 0, 0, message);
      return NULL;
    }

  {
    guint line = 0;
    guint column = 0;

    const char *problem = _winnow_json_check_document (*text, *length, &line, &column);

    if (problem != NULL)
      {
        g_autofree char *message = g_strdup_printf ("not valid JSON: %s", problem);
        add_file_diagnostic (diagnostics, source, file, line, column, message);
        return NULL;
      }
  }

  if (!json_parser_load_from_data (parser, *text, *length, &error))
    {
      /* json-glib says "<data>:LINE:COL: Parse error: …"; keep the position, drop the prefix */
      const char *message = error->message;
      const char *p = strstr (message, ">:");
      g_autofree char *full = NULL;
      guint line = 0;
      guint column = 0;

      if (p != NULL && sscanf (p + 2, "%u:%u", &line, &column) == 2)
        {
          const char *rest = strstr (p + 2, ": ");

          if (rest != NULL)
            message = rest + 2;
        }

      full = g_strdup_printf ("not valid JSON: %s", message);
      add_file_diagnostic (diagnostics, source, file, line, column, full);
      return NULL;
    }

  return g_steal_pointer (&parser);
}

/**
 * _winnow_json_read_file:
 * @path: the file
 * @source: where it comes from, for diagnostics
 * @expected: what it should hold, e.g. "a rule pack"
 * @length: (out): the length read
 * @diagnostics: (nullable): a directory or an unreadable file is reported here
 *
 * Returns: (transfer full) (nullable): the contents, or %NULL
 */
char *
_winnow_json_read_file (const char *path,
                        const char *source,
                        const char *expected,
                        gsize      *length,
                        GPtrArray  *diagnostics)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *message = g_strdup_printf ("is a directory; expected %s", expected);
      add_file_diagnostic (diagnostics, source, path, 0, 0, message);
      return NULL;
    }

  if (!g_file_get_contents (path, &contents, length, &error))
    {
      add_file_diagnostic (diagnostics, source, path, 0, 0, error->message);
      return NULL;
    }

  return contents;
}
