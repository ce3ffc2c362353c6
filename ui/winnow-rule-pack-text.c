/* winnow-rule-pack-text.c — a rule pack's JSON text, written and searched as people write it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The form of the Rule Packs page edits one rule at a time inside a file a person may also
 * edit by hand, so it must find that rule's object in the text and write it back in the
 * layout the rest of the file has. json-glib can do neither: it keeps no offsets, and it
 * writes `"key" : value`.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <string.h>

#include "winnow-rule-pack-text.h"

/* Packs nest three levels deep; anything past this is not a pack and is not scanned. */
#define MAX_DEPTH 64

/* ---- writing JSON the way the packs are written ------------------------------------------ */

/* JavaScript's JSON.stringify (…, null, 2) layout, which the built-in packs use: `"key": value`,
 * two spaces per level, non-ASCII kept as UTF-8. json-glib writes `"key" : value`. */
static void
append_string (GString    *out,
               const char *str)
{
  g_string_append_c (out, '"');
  for (const char *p = str; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_node (GString  *out,
             JsonNode *node,
             guint     indent)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) members = json_object_get_members (object);

        if (members == NULL)
          {
            g_string_append (out, "{}");
            break;
          }

        g_string_append (out, "{\n");
        for (const GList *l = members; l != NULL; l = l->next)
          {
            g_string_append_printf (out, "%*s", indent + 2, "");
            append_string (out, l->data);
            g_string_append (out, ": ");
            append_node (out, json_object_get_member (object, l->data), indent + 2);
            g_string_append (out, l->next ? ",\n" : "\n");
          }
        g_string_append_printf (out, "%*s}", indent, "");
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        if (n == 0)
          {
            g_string_append (out, "[]");
            break;
          }

        g_string_append (out, "[\n");
        for (guint i = 0; i < n; i++)
          {
            g_string_append_printf (out, "%*s", indent + 2, "");
            append_node (out, json_array_get_element (array, i), indent + 2);
            g_string_append (out, i + 1 < n ? ",\n" : "\n");
          }
        g_string_append_printf (out, "%*s]", indent, "");
      }
      break;

    case JSON_NODE_NULL:
      g_string_append (out, "null");
      break;

    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          append_string (out, json_node_get_string (node));
          break;

        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;

        case G_TYPE_DOUBLE:
          {
            char buffer[G_ASCII_DTOSTR_BUF_SIZE];

            g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer,
                                                  json_node_get_double (node)));
          }
          break;

        default:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
        }
    }
}

/**
 * winnow_json_to_pack_text:
 * @node: a JSON value
 * @indent: the column the value starts at (its closing bracket lines up with it)
 *
 * Returns: (transfer full): @node in the layout of the built-in packs, without a final newline
 */
char *
winnow_json_to_pack_text (JsonNode *node,
                          guint     indent)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (node != NULL, NULL);

  append_node (out, node, indent);
  return g_string_free (out, FALSE);
}

/* ---- finding a rule's object in the text ------------------------------------------------- */

static void
skip_space (const char *t,
            gsize      *pos)
{
  while (t[*pos] == ' ' || t[*pos] == '\t' || t[*pos] == '\n' || t[*pos] == '\r')
    (*pos)++;
}

static gboolean
skip_string (const char *t,
             gsize      *pos)
{
  if (t[*pos] != '"')
    return FALSE;

  for ((*pos)++; t[*pos] != '\0'; (*pos)++)
    {
      if (t[*pos] == '\\' && t[*pos + 1] != '\0')
        (*pos)++;
      else if (t[*pos] == '"')
        {
          (*pos)++;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
skip_value (const char *t,
            gsize      *pos,
            guint       depth)
{
  char close;

  skip_space (t, pos);
  if (t[*pos] == '"')
    return skip_string (t, pos);

  if (t[*pos] != '{' && t[*pos] != '[')
    {
      /* numbers, true, false, null */
      gsize start = *pos;

      while (t[*pos] != '\0' && strchr (",]} \t\r\n", t[*pos]) == NULL)
        (*pos)++;
      return *pos > start;
    }

  if (depth >= MAX_DEPTH)
    return FALSE;

  close = t[*pos] == '{' ? '}' : ']';
  (*pos)++;
  skip_space (t, pos);
  if (t[*pos] == close)
    {
      (*pos)++;
      return TRUE;
    }

  for (;;)
    {
      if (close == '}')
        {
          skip_space (t, pos);
          if (!skip_string (t, pos))
            return FALSE;
          skip_space (t, pos);
          if (t[*pos] != ':')
            return FALSE;
          (*pos)++;
        }
      if (!skip_value (t, pos, depth + 1))
        return FALSE;
      skip_space (t, pos);
      if (t[*pos] == ',')
        (*pos)++;
      else if (t[*pos] == close)
        {
          (*pos)++;
          return TRUE;
        }
      else
        return FALSE;
    }
}

/**
 * winnow_rule_pack_text_find_rule:
 * @t: a rule pack's text, which json-glib accepted
 * @index: an index in its top-level `rules[]`
 * @start: (out): where the element's text starts
 * @end: (out): where it ends (exclusive)
 *
 * Returns: %FALSE when the text has no such element
 */
gboolean
winnow_rule_pack_text_find_rule (const char *t,
                                 guint       index,
                                 gsize      *start,
                                 gsize      *end)
{
  gsize pos = 0;

  skip_space (t, &pos);
  if (t[pos] != '{')
    return FALSE;
  pos++;

  for (;;)
    {
      gsize key_start;
      gboolean is_rules;

      skip_space (t, &pos);
      key_start = pos;
      if (!skip_string (t, &pos))
        return FALSE;
      is_rules = pos - key_start == strlen ("\"rules\"") &&
                 strncmp (t + key_start, "\"rules\"", pos - key_start) == 0;
      skip_space (t, &pos);
      if (t[pos] != ':')
        return FALSE;
      pos++;
      skip_space (t, &pos);

      if (is_rules && t[pos] == '[')
        {
          pos++;
          for (guint i = 0;; i++)
            {
              skip_space (t, &pos);
              *start = pos;
              if (!skip_value (t, &pos, 1))
                return FALSE;
              if (i == index)
                {
                  *end = pos;
                  return TRUE;
                }
              skip_space (t, &pos);
              if (t[pos] != ',')
                return FALSE;
              pos++;
            }
        }

      if (!skip_value (t, &pos, 1))
        return FALSE;
      skip_space (t, &pos);
      if (t[pos] != ',')
        return FALSE;
      pos++;
    }
}
