/* winnow-server-routes.c — what each route of the HTTP API answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each route runs on a worker thread with a WinnowServerJob: it parses its body, checks its
 * shape, does the work and leaves a status and a JSON document. Shapes follow the reference
 * (FORMATS.md §5), with Winnow's additions after the reference's members.
 *
 * Bodies are strict: an unknown member is a 400 naming its JSON path (`$.config.intesity`),
 * because a typo in a request silently ignored is a test that tests nothing. Settings
 * documents are the exception where they are stored: other tools may keep their own keys in
 * settings.json, so `PUT /api/settings/compression` keeps unknown keys and answers with
 * warnings. A member set to null in a PUT removes it from the file (back to the default).
 *
 * Savings are reported as they are: an output that grew has negative savings.
 */

#define G_LOG_DOMAIN "winnow-server"

#include "config.h"

#include <libsoup/soup.h>
#include <string.h>

#include "winnow-catalog.h"
#include "winnow-compression.h"
#include "winnow-diagnostic.h"
#include "winnow-filter.h"
#include "winnow-json-reader.h"
#include "winnow-protect.h"
#include "winnow-raw-store.h"
#include "winnow-receipt.h"
#include "winnow-rtk-result.h"
#include "winnow-server-private.h"
#include "winnow-tokens.h"
#include "winnow-trace-stage.h"
#include "winnow-utf8.h"

#define MAX_PRESERVED_BLOCKS 100
#define GROUP_LIMIT 20

/* ---- small helpers ------------------------------------------------------------------------- */

static JsonNode *
object_node (JsonObject *object)
{
  JsonNode *node = json_node_alloc ();

  json_node_init_object (node, object);
  json_object_unref (object);
  return node;
}

/* JSON strings must be UTF-8; command output need not be */
static void
set_text (JsonObject *object,
          const char *name,
          const char *text,
          gssize      length)
{
  gsize len = length < 0 ? strlen (text) : (gsize) length;

  if (g_utf8_validate_len (text, len, NULL) && memchr (text, '\0', len) == NULL)
    {
      if (length < 0)
        json_object_set_string_member (object, name, text);
      else
        {
          g_autofree char *copy = g_strndup (text, len);

          json_object_set_string_member (object, name, copy);
        }
    }
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, len);

      json_object_set_string_member (object, name, valid);
    }
}

static void
set_nullable_string (JsonObject *object,
                     const char *name,
                     const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

static JsonArray *
strv_array (const char * const *strv)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  return array;
}

static double
round_to (double value,
          double unit)
{
  return (double) (gint64) (value / unit + (value < 0 ? -0.5 : 0.5)) * unit;
}

/* `$`, `$.name`, `$.name[2]`: the JSON path of a member under @parent */
static char *
member_path (const char *parent,
             const char *name)
{
  return g_strconcat (parent, ".", name, NULL);
}

/* ---- answers written directly --------------------------------------------------------------- */

/*
 * rtk/test writes its answer itself instead of building a json-glib tree and generating it:
 * the tree copied the output text twice and the generator escaped it a byte at a time. What
 * it writes is byte for byte what json_to_string (node, FALSE) of json-glib 1.6 gives for the
 * same document (tests compare the two), quirks included: controls as \u00xx in lowercase
 * hex except \b \t \n \f \r, 0x1f left as it is, 0x7f escaped, everything else (the
 * solidus, non-ASCII) as it is; doubles as g_ascii_dtostr() gives them, with ".0" added when
 * there is no point.
 */

/* Whether one of the eight bytes of @word needs the generator's attention: a quote, a
 * backslash, a control character or DEL (a borrow may flag a byte after a real hit, never
 * miss one). */
static inline gboolean
escape_bytes (guint64 word)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  guint64 quote = word ^ (ones * '"');
  guint64 backslash = word ^ (ones * '\\');
  guint64 del = word ^ (ones * 0x7f);

  return ((((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) |
           ((del - ones) & ~del) | ((word - ones * 0x20) & ~word)) & (ones * 0x80)) != 0;
}

static void
write_string_len (GString    *out,
                  const char *text,
                  gsize       length)
{
  const char *p = text;
  const char *end = text + length;

  g_string_append_c (out, '"');
  while (p < end)
    {
      const char *run = p;
      guint64 word;
      guchar c;

      while (end - p >= 8)
        {
          memcpy (&word, p, 8);
          if (escape_bytes (word))
            break;
          p += 8;
        }
      while (p < end && (c = (guchar) *p) != '"' && c != '\\' && c >= 0x20 && c != 0x7f)
        p++;
      g_string_append_len (out, run, p - run);
      if (p == end)
        break;

      switch ((c = (guchar) *p++))
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case 0x1f: g_string_append_c (out, (char) c); break;
        default:   g_string_append_printf (out, "\\u%04x", c); break;
        }
    }
  g_string_append_c (out, '"');
}

/* a string member's value; json-glib turns a NULL string into null */
static void
write_string (GString    *out,
              const char *text)
{
  if (text == NULL)
    g_string_append (out, "null");
  else
    write_string_len (out, text, strlen (text));
}

static void
write_double (GString *out,
              double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_dtostr (buffer, sizeof buffer, value);
  g_string_append (out, buffer);
  if (strchr (buffer, '.') == NULL)
    g_string_append (out, ".0");
}

static void
write_int (GString *out,
           gint64   value)
{
  g_string_append_printf (out, "%" G_GINT64_FORMAT, value);
}

static void
write_boolean (GString  *out,
               gboolean  value)
{
  g_string_append (out, value ? "true" : "false");
}

/* "name": — every member name here is a literal that needs no escaping */
static void
write_name (GString    *out,
            const char *name)
{
  g_string_append_c (out, '"');
  g_string_append (out, name);
  g_string_append (out, "\":");
}

static void
write_node (GString  *out,
            JsonNode *node)
{
  g_autofree char *text = json_to_string (node, FALSE);

  g_string_append (out, text);
}

/* ---- request bodies ------------------------------------------------------------------------ */

#define FLAT_MAX_MEMBERS 16

static inline const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p;
}

static inline int
hex4 (const char *p,
      const char *end)
{
  int value = 0;

  if (end - p < 4)
    return -1;
  for (int k = 0; k < 4; k++)
    {
      int digit = g_ascii_xdigit_value (p[k]);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* Whether one of the eight bytes of @word is a quote, a backslash or below 0x20 (the usual
 * zero-byte test on @word xor each: a borrow may flag a byte after a real hit, never miss one). */
static inline gboolean
special_bytes (guint64 word)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  guint64 quote = word ^ (ones * '"');
  guint64 backslash = word ^ (ones * '\\');

  return ((((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) |
           ((word - ones * 0x20) & ~word)) & (ones * 0x80)) != 0;
}

/* Decodes the JSON string whose opening quote is at *@p into @out (room for the raw length
 * at least: an escape never decodes to more bytes than it takes), moving *@p past the closing
 * quote. FALSE for anything json-glib might read differently or refuse: a raw control
 * character, \u0000, a lone surrogate, an escape JSON does not have. */
static gboolean
decode_string (const char **p,
               const char  *end,
               char        *out,
               gsize       *out_length)
{
  const char *s = *p + 1;
  char *o = out;

  while (s < end)
    {
      guint64 word;
      guchar c;

      /* eight bytes at a time up to the word that holds the next quote, backslash or control
       * character; @out has room, as it is as long as the rest of the body */
      while (end - s >= 8)
        {
          memcpy (&word, s, 8);
          if (special_bytes (word))
            break;
          memcpy (o, s, 8);
          s += 8;
          o += 8;
        }
      while (s < end && (c = (guchar) *s) != '"' && c != '\\' && c >= 0x20)
        *o++ = *s++;
      if (s == end)
        return FALSE;

      c = (guchar) *s;
      if (c == '"')
        {
          *o = '\0';
          *out_length = o - out;
          *p = s + 1;
          return TRUE;
        }
      if (c < 0x20 || s + 1 == end)
        return FALSE;

      switch (s[1])
        {
        case '"':  *o++ = '"'; s += 2; break;
        case '\\': *o++ = '\\'; s += 2; break;
        case '/':  *o++ = '/'; s += 2; break;
        case 'b':  *o++ = '\b'; s += 2; break;
        case 'f':  *o++ = '\f'; s += 2; break;
        case 'n':  *o++ = '\n'; s += 2; break;
        case 'r':  *o++ = '\r'; s += 2; break;
        case 't':  *o++ = '\t'; s += 2; break;
        case 'u':
          {
            int unit = hex4 (s + 2, end);
            gunichar ch;

            if (unit <= 0 || (unit >= 0xDC00 && unit <= 0xDFFF))
              return FALSE;
            s += 6;
            if (unit >= 0xD800 && unit <= 0xDBFF)
              {
                int low;

                if (end - s < 6 || s[0] != '\\' || s[1] != 'u' ||
                    (low = hex4 (s + 2, end)) < 0xDC00 || low > 0xDFFF)
                  return FALSE;
                s += 6;
                ch = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
              }
            else
              ch = unit;
            o += g_unichar_to_utf8 (ch, o);
          }
          break;
        default:
          return FALSE;
        }
    }

  return FALSE;
}

/*
 * The body every client sends to rtk/test (and most to the other routes): one object whose
 * members are strings or null, e.g. {"command": "…", "text": "<10 KB of output>"}. Read here
 * in one pass, it costs a tenth of json-glib's parse plus the safety scan before it, which
 * was an eighth of a request's processor time. Only a document that json-glib reads the same
 * way is taken: anything else (a nested value, a number, a duplicate or escaped member name,
 * a byte-order mark, bytes that are not UTF-8, a control character or \u0000 in a string, a
 * trailing comma…) returns NULL, and the general path parses it and words its errors as ever.
 */
static JsonObject *
parse_flat_object (const char *data,
                   gsize       length)
{
  const char *end = data + length;
  const char *p = skip_space (data, end);
  const char *names[FLAT_MAX_MEMBERS];
  gsize name_lengths[FLAT_MAX_MEMBERS];
  g_autoptr(JsonObject) object = NULL;
  guint n = 0;

  if (p == end || *p != '{' || !_winnow_utf8_validate (data, length, NULL))
    return NULL;

  object = json_object_new ();
  p = skip_space (p + 1, end);
  if (p < end && *p == '}')
    return skip_space (p + 1, end) == end ? g_steal_pointer (&object) : NULL;

  for (;;)
    {
      const char *name;
      gsize name_length;
      JsonNode *node;

      /* a member name without escapes, seen once */
      if (p == end || *p != '"' || n == FLAT_MAX_MEMBERS)
        return NULL;
      name = ++p;
      while (p < end && *p != '"' && *p != '\\' && (guchar) *p >= 0x20)
        p++;
      if (p == end || *p != '"')
        return NULL;
      name_length = p - name;
      for (guint i = 0; i < n; i++)
        if (name_lengths[i] == name_length && memcmp (names[i], name, name_length) == 0)
          return NULL;
      names[n] = name;
      name_lengths[n++] = name_length;

      p = skip_space (p + 1, end);
      if (p == end || *p != ':')
        return NULL;
      p = skip_space (p + 1, end);
      if (p == end)
        return NULL;

      if (*p == '"')
        {
          /* worst case: the rest of the body is this string, each byte as itself */
          g_autofree char *value = g_malloc (end - p);
          gsize value_length;

          if (!decode_string (&p, end, value, &value_length))
            return NULL;
          node = json_node_init_string (json_node_alloc (), value);
        }
      else if (end - p >= 4 && memcmp (p, "null", 4) == 0)
        {
          p += 4;
          node = json_node_init_null (json_node_alloc ());
        }
      else
        return NULL;

      {
        g_autofree char *key = g_strndup (name, name_length);

        json_object_set_member (object, key, node);
      }

      p = skip_space (p, end);
      if (p == end)
        return NULL;
      if (*p == '}')
        break;
      if (*p != ',')
        return NULL;
      p = skip_space (p + 1, end);
    }

  if (skip_space (p + 1, end) != end)
    return NULL;

  return g_steal_pointer (&object);
}

/* The body as a JSON object, or NULL with a 400 set. */
static JsonObject *
parse_object_body (WinnowServerJob *job)
{
  /* not immutable: sealing hashes every node, the whole text to compress included, and the
   * body never leaves this request's thread */
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  const char *data = job->body ? g_bytes_get_data (job->body, &length) : NULL;
  JsonObject *flat;
  JsonNode *root;
  const char *problem;
  guint line = 0;
  guint column = 0;

  if (length == 0)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_json", "$",
                               "the body is empty; a JSON object is expected");
      return NULL;
    }

  if ((flat = parse_flat_object (data, length)) != NULL)
    return flat;

  /* json-glib's parser recurses once per level: a body of a million "[" (well under the size
   * limit) would overflow the worker's stack and take the server down; and it takes "{…}{…}"
   * for valid, leaking one of the two on every such request */
  if ((problem = _winnow_json_check_document (data, length, &line, &column)) != NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_json", "$",
                               "the body is not valid JSON: %s (line %u, column %u)", problem,
                               line, column);
      return NULL;
    }

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, length, &error))
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_json", "$",
                               "the body is not valid JSON: %s", error->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", "$",
                               "the body must be a JSON object, not %s",
                               root ? _winnow_json_node_type_name (root) : "nothing");
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/* Fails the job if @object has a member not in @known. */
static gboolean
check_members (WinnowServerJob    *job,
               JsonObject         *object,
               const char         *path,
               const char * const *known)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (const GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (known, l->data))
      {
        g_autofree char *where = member_path (path, l->data);
        g_autofree char *list = g_strjoinv (", ", (char **) known);

        _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", where,
                                 "unknown member “%s”; expected %s", (const char *) l->data,
                                 list);
        return FALSE;
      }

  return TRUE;
}

/* An optional string member: TRUE with *value NULL if missing or null. */
static gboolean
get_string (WinnowServerJob  *job,
            JsonObject       *object,
            const char       *path,
            const char       *name,
            const char      **value)
{
  JsonNode *node = json_object_get_member (object, name);

  *value = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!_winnow_json_node_is_string (node))
    {
      g_autofree char *where = member_path (path, name);

      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", where,
                               "must be a string, not %s", _winnow_json_node_type_name (node));
      return FALSE;
    }

  *value = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_object (WinnowServerJob  *job,
            JsonObject       *object,
            const char       *path,
            const char       *name,
            JsonObject      **value)
{
  JsonNode *node = json_object_get_member (object, name);

  *value = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *where = member_path (path, name);

      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", where,
                               "must be an object, not %s", _winnow_json_node_type_name (node));
      return FALSE;
    }

  *value = json_node_get_object (node);
  return TRUE;
}

static JsonObject *
parse_document (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return json_object_new ();

  return json_object_ref (json_node_get_object (root));
}

/* The settings of @pipeline as a complete document, defaults filled in. */
static JsonObject *
current_settings (WinnowPipeline *pipeline)
{
  WinnowConfig *config = winnow_context_get_config (winnow_pipeline_get_context (pipeline));
  g_autofree char *text = winnow_config_to_json (config);

  return parse_document (text);
}

/* Sets or (for null) removes each member of @from in @into; with @deep, a member that is an
 * object on both sides is merged the same way one level down (rtkConfig). */
static void
merge_members (JsonObject *into,
               JsonObject *from,
               gboolean    deep)
{
  g_autoptr(GList) members = json_object_get_members (from);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (from, name);
      JsonNode *old = json_object_get_member (into, name);

      if (JSON_NODE_HOLDS_NULL (value))
        json_object_remove_member (into, name);
      else if (deep && old != NULL && JSON_NODE_HOLDS_OBJECT (old) && JSON_NODE_HOLDS_OBJECT (value))
        merge_members (json_node_get_object (old), json_node_get_object (value), FALSE);
      else
        json_object_set_member (into, name, json_node_copy (value));
    }
}

/*
 * Validates a settings document with the engine's parser.
 * @strip: (nullable): a leading JSON path member to drop from diagnostics ("rtkConfig" when
 *   the client wrote only the rtkConfig part)
 * @prefix: the JSON path of the document in the request (`$`, `$.config`)
 * @strict: warnings (unknown keys) fail too; else they are added to @warnings
 *
 * Returns: (transfer full): the parsed settings, or NULL with a 400 set
 */
static WinnowConfig *
validate_settings (WinnowServerJob *job,
                   JsonObject      *document,
                   const char      *strip,
                   const char      *prefix,
                   gboolean         strict,
                   JsonArray       *warnings)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), document);
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(WinnowConfig) config = winnow_config_new_from_json (text, -1, NULL, diagnostics);

  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
      WinnowDiagnosticLevel level = winnow_diagnostic_get_level (d);
      const char *json_path = winnow_diagnostic_get_json_path (d);
      g_autofree char *path = NULL;

      if (level == WINNOW_DIAGNOSTIC_INFO)
        continue;

      if (json_path != NULL && strip != NULL && g_str_has_prefix (json_path, strip))
        json_path += strlen (strip);
      if (json_path != NULL && json_path[0] == '.')
        json_path++;
      path = json_path != NULL && json_path[0] != '\0'
             ? g_strconcat (prefix, json_path[0] == '[' ? "" : ".", json_path, NULL)
             : g_strdup (prefix);

      if (level == WINNOW_DIAGNOSTIC_ERROR || strict)
        {
          _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_settings", path, "%s",
                                   winnow_diagnostic_get_message (d));
          return NULL;
        }

      if (warnings != NULL)
        {
          JsonObject *warning = json_object_new ();

          json_object_set_string_member (warning, "path", path);
          json_object_set_string_member (warning, "message", winnow_diagnostic_get_message (d));
          json_array_add_object_element (warnings, warning);
        }
    }

  return g_steal_pointer (&config);
}

/* The pipeline for a request's own `config`, merged over the current settings. */
static WinnowPipeline *
pipeline_with_overrides (WinnowServerJob *job,
                         JsonObject      *overrides,
                         gboolean         rtk_only,
                         const char      *prefix)
{
  g_autoptr(JsonObject) settings = NULL;
  g_autoptr(WinnowConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *normalized = NULL;
  WinnowPipeline *pipeline;

  if (overrides == NULL)
    return g_object_ref (job->pipeline);

  /* serialised and parsed again: only for a request that brings settings of its own */
  settings = current_settings (job->pipeline);

  if (rtk_only)
    {
      g_autoptr(JsonObject) wrapper = json_object_new ();

      json_object_set_object_member (wrapper, "rtkConfig", json_object_ref (overrides));
      merge_members (settings, wrapper, TRUE);
    }
  else
    merge_members (settings, overrides, TRUE);

  config = validate_settings (job, settings, rtk_only ? "rtkConfig" : NULL, prefix, TRUE, NULL);
  if (config == NULL)
    return NULL;

  normalized = winnow_config_to_json (config);
  pipeline = _winnow_server_pipeline_for (job->server, job->pipeline, normalized, &error);
  if (pipeline == NULL)
    _winnow_server_job_fail (job, SOUP_STATUS_INTERNAL_SERVER_ERROR, "internal", NULL,
                             "cannot apply the request's settings: %s", error->message);
  return pipeline;
}

static void
record_event (WinnowServerJob      *job,
              WinnowPipelineResult *result,
              gsize                 bytes_before,
              const char           *command,
              const char           *raw_output_id)
{
  g_autoptr(GError) error = NULL;
  WinnowStoreEvent event;

  if (job->store == NULL)
    return;

  winnow_store_event_init (&event, "api");
  winnow_store_event_set_result (&event, result, bytes_before);
  event.command = command;
  event.project = winnow_context_get_project_dir (winnow_pipeline_get_context (job->pipeline));
  event.raw_output_id = raw_output_id;

  /* A retained raw output is linked to its event right away: its route answers the event's
   * id. Every other event is batched off the request's path. */
  if (raw_output_id == NULL && job->events != NULL)
    winnow_event_queue_push (job->events, &event);
  else if (!winnow_store_record (job->store, &event, NULL, &error))
    g_warning ("the event was not recorded: %s", error->message);
}

/* ---- settings ------------------------------------------------------------------------------ */

void
_winnow_server_route_get_rtk_config (WinnowServerJob *job)
{
  g_autoptr(JsonObject) settings = current_settings (job->pipeline);

  job->response = object_node (json_object_ref (json_object_get_object_member (settings, "rtkConfig")));
}

void
_winnow_server_route_get_settings (WinnowServerJob *job)
{
  job->response = object_node (current_settings (job->pipeline));
}

/* The settings file as written (unknown keys kept), for a read-modify-write. */
static JsonObject *
read_settings_file (WinnowServerJob *job)
{
  WinnowContext *context = winnow_pipeline_get_context (job->pipeline);
  g_autofree char *path = g_build_filename (winnow_context_get_data_dir (context),
                                            "settings.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length;
  guint line = 0;
  guint column = 0;
  JsonNode *root;

  if (!g_file_get_contents (path, &text, &length, &error))
    {
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return json_object_new ();
      _winnow_server_job_fail (job, SOUP_STATUS_INTERNAL_SERVER_ERROR, "settings_unreadable",
                               NULL, "%s", error->message);
      return NULL;
    }

  /* checked first: json-glib overflows the stack on a deep file and leaks on "{…}{…}" */
  if (_winnow_json_check_document (text, length, &line, &column) != NULL ||
      !json_parser_load_from_data (parser, text, length, &error) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      _winnow_server_job_fail (job, SOUP_STATUS_CONFLICT, "settings_unreadable", NULL,
                               "%s is not a JSON object%s%s; fix or remove it first", path,
                               error ? ": " : "", error ? error->message : "");
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/* PUT: merge the body into settings.json, validate, write, reload. */
static WinnowPipeline *
update_settings (WinnowServerJob *job,
                 JsonObject      *changes,
                 gboolean         rtk_only,
                 JsonArray       *warnings)
{
  GMutex *lock = _winnow_server_get_settings_lock (job->server);
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (lock);
  g_autoptr(JsonObject) file = read_settings_file (job);
  g_autoptr(WinnowConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) document = NULL;
  WinnowPipeline *pipeline;

  if (file == NULL)
    return NULL;

  if (rtk_only)
    {
      g_autoptr(JsonObject) wrapper = json_object_new ();

      if (!json_object_has_member (file, "rtkConfig") ||
          !JSON_NODE_HOLDS_OBJECT (json_object_get_member (file, "rtkConfig")))
        json_object_set_object_member (file, "rtkConfig", json_object_new ());
      json_object_set_object_member (wrapper, "rtkConfig", json_object_ref (changes));
      merge_members (file, wrapper, TRUE);
    }
  else
    merge_members (file, changes, TRUE);

  /* PUT of the RTK part: strict about that part (as the reference is); a whole settings
   * document keeps keys it does not know, with a warning */
  if (rtk_only)
    {
      g_autoptr(JsonObject) rtk_part = json_object_new ();

      json_object_set_member (rtk_part, "rtkConfig",
                              json_node_copy (json_object_get_member (file, "rtkConfig")));
      config = validate_settings (job, rtk_part, "rtkConfig", "$", TRUE, NULL);
      if (config == NULL)
        return NULL;
      g_clear_object (&config);
    }

  config = validate_settings (job, file, NULL, "$", FALSE, warnings);
  if (config == NULL)
    return NULL;

  document = json_node_init_object (json_node_alloc (), file);
  pipeline = _winnow_server_save_settings (job->server, document, &error);
  if (pipeline == NULL)
    _winnow_server_job_fail (job, SOUP_STATUS_INTERNAL_SERVER_ERROR, "settings_not_saved", NULL,
                             "the settings were not saved: %s", error->message);
  return pipeline;
}

void
_winnow_server_route_put_rtk_config (WinnowServerJob *job)
{
  g_autoptr(WinnowPipeline) pipeline = NULL;
  g_autoptr(JsonObject) settings = NULL;
  g_autoptr(JsonObject) body = parse_object_body (job);

  if (body == NULL)
    return;

  if ((pipeline = update_settings (job, body, TRUE, NULL)) == NULL)
    return;

  settings = current_settings (pipeline);
  job->response = object_node (json_object_ref (json_object_get_object_member (settings, "rtkConfig")));
}

void
_winnow_server_route_put_settings (WinnowServerJob *job)
{
  g_autoptr(WinnowPipeline) pipeline = NULL;
  JsonArray *warnings = json_array_new ();
  g_autoptr(JsonObject) body = parse_object_body (job);
  JsonObject *response;

  if (body == NULL || (pipeline = update_settings (job, body, FALSE, warnings)) == NULL)
    {
      json_array_unref (warnings);
      return;
    }

  response = json_object_new ();
  json_object_set_object_member (response, "settings", current_settings (pipeline));
  json_object_set_array_member (response, "warnings", warnings);
  job->response = object_node (response);
}

/* ---- filters ------------------------------------------------------------------------------- */

static JsonArray *
diagnostics_array (GPtrArray *diagnostics)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "source", winnow_diagnostic_get_source (d));
      set_nullable_string (object, "path", winnow_diagnostic_get_file (d));
      json_object_set_string_member (object, "level",
                                     winnow_diagnostic_level_to_string (winnow_diagnostic_get_level (d)));
      json_object_set_string_member (object, "message", winnow_diagnostic_get_message (d));
      if (winnow_diagnostic_get_filter_id (d) != NULL)
        json_object_set_string_member (object, "filterId", winnow_diagnostic_get_filter_id (d));
      if (winnow_diagnostic_get_json_path (d) != NULL)
        json_object_set_string_member (object, "jsonPath", winnow_diagnostic_get_json_path (d));
      if (winnow_diagnostic_get_line (d) > 0)
        {
          json_object_set_int_member (object, "line", winnow_diagnostic_get_line (d));
          json_object_set_int_member (object, "column", winnow_diagnostic_get_column (d));
        }
      json_array_add_object_element (array, object);
    }

  return array;
}

void
_winnow_server_route_get_filters (WinnowServerJob *job)
{
  WinnowContext *context = winnow_pipeline_get_context (job->pipeline);
  WinnowConfig *config = winnow_context_get_config (context);
  g_autoptr(GPtrArray) filters = winnow_catalog_dup_filters (winnow_context_get_catalog (context));
  g_autoptr(GPtrArray) diagnostics = winnow_context_dup_diagnostics (context);
  JsonObject *response = json_object_new ();
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < filters->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (filters, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "id", winnow_filter_get_id (filter));
      set_nullable_string (object, "name", winnow_filter_get_label (filter));
      set_nullable_string (object, "description", winnow_filter_get_description (filter));
      json_object_set_array_member (object, "commandTypes",
                                    strv_array (winnow_filter_get_output_types (filter)));
      set_nullable_string (object, "category", winnow_filter_get_category (filter));
      json_object_set_int_member (object, "priority", winnow_filter_get_priority (filter));
      json_object_set_string_member (object, "source",
                                     winnow_filter_source_to_string (winnow_filter_get_source (filter)));
      json_object_set_boolean_member (object, "enabled",
                                      winnow_config_is_filter_enabled (config,
                                                                       winnow_filter_get_id (filter)));
      json_object_set_int_member (object, "tests", winnow_filter_get_n_tests (filter));
      json_array_add_object_element (array, object);
    }

  json_object_set_array_member (response, "filters", array);
  json_object_set_array_member (response, "diagnostics", diagnostics_array (diagnostics));
  job->response = object_node (response);
}

/* ---- POST /api/context/rtk/test ------------------------------------------------------------ */

/* Retains the request's text if rawOutputRetention (the request's own config included) says
 * so, and answers the pointers to it: {id, bytes, sha256, truncated, originalBytes,
 * redactions, url}. A raw output that cannot be written costs a warning in the log, not the
 * compression. */
static JsonArray *
raw_output_pointers (WinnowServerJob       *job,
                     WinnowPipeline        *pipeline,
                     WinnowPipelineResult  *result,
                     const char            *text,
                     const char            *command,
                     WinnowRawOutputInfo  **raw)
{
  WinnowConfig *config = winnow_context_get_config (winnow_pipeline_get_context (pipeline));
  JsonArray *pointers = json_array_new ();
  g_autoptr(GError) error = NULL;
  WinnowRawOutputRequest request;
  JsonObject *pointer;

  if (job->store == NULL)
    return pointers;

  winnow_raw_output_request_init (&request, "api", text, strlen (text));
  winnow_raw_output_request_set_result (&request, result);
  request.command = command;

  *raw = winnow_store_retain_raw_output (job->store, config, &request, &error);
  if (*raw == NULL)
    {
      if (error != NULL)
        g_warning ("the raw output was not retained: %s", error->message);
      return pointers;
    }

  pointer = json_object_new ();
  json_object_set_string_member (pointer, "id", (*raw)->id);
  json_object_set_int_member (pointer, "bytes", (*raw)->bytes);
  json_object_set_string_member (pointer, "sha256", (*raw)->sha256);
  json_object_set_boolean_member (pointer, "truncated", (*raw)->truncated);
  json_object_set_int_member (pointer, "originalBytes", (*raw)->original_bytes);
  {
    g_autoptr(JsonObject) redactions = parse_document ((*raw)->redactions);

    json_object_set_object_member (pointer, "redactions", json_object_ref (redactions));
  }
  {
    g_autofree char *url = g_strconcat ("/api/context/rtk/raw-output/", (*raw)->id, NULL);

    json_object_set_string_member (pointer, "url", url);
  }
  json_array_add_object_element (pointers, pointer);
  return pointers;
}

void
_winnow_server_route_rtk_test (WinnowServerJob *job)
{
  static const char * const known[] = { "text", "command", "config", NULL };
  g_autoptr(WinnowPipeline) pipeline = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) body = parse_object_body (job);
  g_autoptr(JsonArray) pointers = NULL;
  JsonObject *config = NULL;
  WinnowPipelineRequest request;
  WinnowCompression *compression;
  WinnowReceipt *receipt;
  g_autoptr(WinnowRawOutputInfo) raw = NULL;
  const char *text = NULL;
  const char *command = NULL;
  const char *out;
  gsize out_length;
  gsize tokens_before, tokens_after;
  GString *doc;

  if (body == NULL ||
      !check_members (job, body, "$", known) ||
      !get_string (job, body, "$", "text", &text) ||
      !get_string (job, body, "$", "command", &command) ||
      !get_object (job, body, "$", "config", &config))
    return;

  if (text == NULL || text[0] == '\0')
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", "$.text",
                               text == NULL ? "missing: the output to compress"
                                            : "must not be empty");
      return;
    }

  if ((pipeline = pipeline_with_overrides (job, config, TRUE, "$.config")) == NULL)
    return;

  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_RTK;
  request.role = WINNOW_MESSAGE_ROLE_TOOL;
  request.command = command;
  request.tool_result_rules = 0;

  result = winnow_pipeline_run_text (pipeline, text, -1, &request, &error);
  if (result == NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_INTERNAL_SERVER_ERROR, "compression_failed",
                               NULL, "%s", error->message);
      return;
    }

  compression = winnow_pipeline_result_get_rtk_compression (result);
  receipt = winnow_pipeline_result_get_receipt (result);
  out = winnow_pipeline_result_get_text (result, &out_length);
  tokens_before = winnow_receipt_get_tokens_before (receipt);
  tokens_after = winnow_receipt_get_tokens_after (receipt);
  pointers = raw_output_pointers (job, pipeline, result, text, command, &raw);

  /* the members in the reference's order (FORMATS.md §5), Winnow's own after them */
  doc = g_string_sized_new (out_length + 1024);
  g_string_append_c (doc, '{');
  write_name (doc, "detection");
  if (compression != NULL)
    {
      WinnowDetection *detection = winnow_compression_get_detection (compression);
      WinnowFilter *filter = winnow_compression_get_filter (compression);

      g_string_append_c (doc, '{');
      write_name (doc, "type");
      write_string (doc, winnow_detection_get_output_type (detection));
      g_string_append_c (doc, ',');
      write_name (doc, "command");
      write_string (doc, winnow_detection_get_command (detection));
      g_string_append_c (doc, ',');
      write_name (doc, "confidence");
      write_double (doc, round_to (winnow_detection_get_confidence (detection), 0.01));
      g_string_append_c (doc, ',');
      write_name (doc, "category");
      write_string (doc, winnow_detection_get_category (detection));
      g_string_append (doc, "},");

      write_name (doc, "filter");
      g_string_append_c (doc, '{');
      write_name (doc, "id");
      write_string (doc, filter ? winnow_filter_get_id (filter) : NULL);
      g_string_append_c (doc, ',');
      write_name (doc, "source");
      write_string (doc, filter ? winnow_filter_source_to_string (winnow_filter_get_source (filter))
                                : NULL);
      g_string_append_c (doc, ',');
      write_name (doc, "selectedBy");
      write_string (doc, winnow_selection_to_string (winnow_compression_get_selection (compression)));
      g_string_append_c (doc, '}');
    }
  else
    g_string_append (doc, "null");

  /* JSON strings must be UTF-8; command output need not be */
  g_string_append_c (doc, ',');
  write_name (doc, "text");
  if (g_utf8_validate_len (out, out_length, NULL) && memchr (out, '\0', out_length) == NULL)
    write_string_len (doc, out, out_length);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (out, out_length);

      write_string (doc, valid);
    }

  g_string_append_c (doc, ',');
  write_name (doc, "compressed");
  write_boolean (doc, tokens_after < tokens_before);
  g_string_append_c (doc, ',');
  write_name (doc, "originalTokens");
  write_int (doc, tokens_before);
  g_string_append_c (doc, ',');
  write_name (doc, "compressedTokens");
  write_int (doc, tokens_after);

  g_string_append_c (doc, ',');
  write_name (doc, "techniquesUsed");
  g_string_append_c (doc, '[');
  if (compression != NULL && winnow_compression_get_compressed (compression))
    {
      WinnowFilter *filter = winnow_compression_get_filter (compression);
      g_autofree char *technique = g_strconcat ("rtk-filter:",
                                                filter ? winnow_filter_get_id (filter)
                                                       : "engine-limits", NULL);

      write_string (doc, technique);
    }
  g_string_append (doc, "],");

  write_name (doc, "rulesApplied");
  g_string_append_c (doc, '[');
  if (compression != NULL)
    {
      WinnowRtkResult *rtk = winnow_compression_get_rtk_result (compression);
      gboolean first = TRUE;

      for (guint i = 0; i < winnow_rtk_result_get_n_stages (rtk); i++)
        {
          WinnowTraceStage *stage = winnow_rtk_result_get_stage (rtk, i);

          for (guint k = 0; k < winnow_trace_stage_get_n_rule_hits (stage); k++)
            {
              const WinnowRuleHit *hit = winnow_trace_stage_get_rule_hit (stage, k);
              g_autofree char *rule = g_strdup_printf ("%s:%s", winnow_trace_stage_get_name (stage),
                                                       hit->rule);

              if (!first)
                g_string_append_c (doc, ',');
              first = FALSE;
              write_string (doc, rule);
            }
        }
    }
  g_string_append (doc, "],");

  write_name (doc, "rawOutputPointers");
  if (json_array_get_length (pointers) == 0)
    g_string_append (doc, "[]");
  else
    {
      g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), pointers);

      write_node (doc, node);
    }

  /* Winnow's own */
  g_string_append_c (doc, ',');
  write_name (doc, "tokensSaved");
  write_int (doc, (gint64) tokens_before - (gint64) tokens_after);
  g_string_append_c (doc, ',');
  write_name (doc, "tokenCounter");
  write_string (doc, winnow_tokens_counter_name ());
  g_string_append_c (doc, ',');
  write_name (doc, "durationMs");
  write_double (doc, round_to (winnow_pipeline_result_get_duration_us (result) / 1000.0, 0.001));
  g_string_append_c (doc, '}');

  job->response_length = doc->len;
  job->response_text = g_string_free (doc, FALSE);

  record_event (job, result, strlen (text), command, raw != NULL ? raw->id : NULL);
}

/* ---- POST /api/compression/preview --------------------------------------------------------- */

/* "role: content" lines, as the reference shows messages */
static char *
messages_text (JsonArray *messages)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonNode *role = message ? json_object_get_member (message, "role") : NULL;
      JsonNode *content = message ? json_object_get_member (message, "content") : NULL;

      if (i > 0)
        g_string_append_c (out, '\n');
      if (role != NULL && _winnow_json_node_is_string (role))
        g_string_append (out, json_node_get_string (role));
      g_string_append (out, ": ");
      if (content != NULL && _winnow_json_node_is_string (content))
        g_string_append (out, json_node_get_string (content));
      else if (content != NULL)
        {
          g_autofree char *json = json_to_string (content, FALSE);

          g_string_append (out, json);
        }
    }

  return g_string_free (out, FALSE);
}

static gboolean
check_messages (WinnowServerJob *job,
                JsonNode        *node)
{
  JsonArray *messages;

  if (node == NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", "$.messages",
                               "missing: an array of {role, content} messages");
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) == 0)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", "$.messages",
                               "must be a non-empty array of {role, content} messages");
      return FALSE;
    }

  messages = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      g_autofree char *path = g_strdup_printf ("$.messages[%u]", i);
      JsonObject *message;
      JsonNode *role, *content;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", path,
                                   "must be an object with role and content, not %s",
                                   _winnow_json_node_type_name (element));
          return FALSE;
        }
      message = json_node_get_object (element);
      role = json_object_get_member (message, "role");
      content = json_object_get_member (message, "content");
      if (role == NULL || !_winnow_json_node_is_string (role))
        {
          g_autofree char *where = member_path (path, "role");

          _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", where,
                                   "must be a string (system, user, assistant or tool)");
          return FALSE;
        }
      if (content == NULL || !(_winnow_json_node_is_string (content) || JSON_NODE_HOLDS_ARRAY (content)))
        {
          g_autofree char *where = member_path (path, "content");

          _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", where,
                                   "must be a string or an array of content parts");
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
is_technique (const char *action)
{
  return (g_str_has_prefix (action, "rtk:") && strcmp (action, "rtk:passthrough") != 0) ||
         (g_str_has_prefix (action, "caveman:") && strcmp (action, "caveman:skipped") != 0) ||
         g_str_has_prefix (action, "adapter:") ||
         g_str_has_prefix (action, "cache:");
}

void
_winnow_server_route_preview (WinnowServerJob *job)
{
  static const char * const known[] = { "messages", "mode", "config", NULL };
  g_autoptr(WinnowPipeline) pipeline = NULL;
  g_autoptr(WinnowConversation) conversation = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(GPtrArray) originals = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  g_autofree char *messages_json = NULL;
  g_autofree char *original = NULL;
  g_autofree char *compressed = NULL;
  g_autofree char *compressed_json = NULL;
  g_autoptr(JsonObject) body = parse_object_body (job);
  JsonObject *config = NULL;
  JsonObject *response, *validation;
  JsonArray *techniques, *rules, *errors, *warnings, *preserved;
  WinnowPipelineRequest request;
  WinnowPipelineMode mode = WINNOW_PIPELINE_MODE_STACKED;
  const char *mode_name = NULL;
  const char * const *notes;
  gboolean fallback = FALSE;
  gsize original_tokens, compressed_tokens, bytes_before = 0;
  gint64 saved;

  if (body == NULL ||
      !check_members (job, body, "$", known) ||
      !check_messages (job, json_object_get_member (body, "messages")) ||
      !get_string (job, body, "$", "mode", &mode_name) ||
      !get_object (job, body, "$", "config", &config))
    return;

  if (mode_name != NULL && !winnow_pipeline_mode_from_string (mode_name, &mode))
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", "$.mode",
                               "unknown mode “%s”: use off, rtk, caveman or stacked", mode_name);
      return;
    }

  messages_json = json_to_string (json_object_get_member (body, "messages"), FALSE);
  conversation = winnow_conversation_new_from_json (messages_json, -1, "$.messages", &error);
  if (conversation == NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_body", "$.messages", "%s",
                               error->message);
      return;
    }

  if ((pipeline = pipeline_with_overrides (job, config, FALSE, "$.config")) == NULL)
    return;

  for (guint i = 0; i < winnow_conversation_get_n_parts (conversation); i++)
    g_ptr_array_add (originals, g_strdup (winnow_conversation_get_part_text (conversation, i)));
  /* the event compares the messages document in with the one out */
  bytes_before = strlen (messages_json);

  winnow_pipeline_request_init (&request);
  request.mode = mode;

  result = winnow_pipeline_run (pipeline, conversation, &request, &error);
  if (result == NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_INTERNAL_SERVER_ERROR, "compression_failed",
                               NULL, "%s", error->message);
      return;
    }

  original = messages_text (json_node_get_array (json_object_get_member (body, "messages")));
  compressed_json = winnow_conversation_to_json (conversation, FALSE);
  {
    g_autoptr(JsonParser) out_parser = json_parser_new ();
    JsonNode *root;

    if (json_parser_load_from_data (out_parser, compressed_json, -1, NULL) &&
        (root = json_parser_get_root (out_parser)) != NULL && JSON_NODE_HOLDS_ARRAY (root))
      compressed = messages_text (json_node_get_array (root));
    else
      compressed = g_strdup (original);
  }

  original_tokens = winnow_tokens_count (original, -1);
  compressed_tokens = winnow_tokens_count (compressed, -1);
  saved = (gint64) original_tokens - (gint64) compressed_tokens;

  techniques = json_array_new ();
  rules = json_array_new ();
  errors = json_array_new ();
  warnings = json_array_new ();
  for (guint i = 0; i < winnow_pipeline_result_get_n_decisions (result); i++)
    {
      const WinnowDecision *decision = winnow_pipeline_result_get_decision (result, i);
      g_autofree char *rule = NULL;

      if (is_technique (decision->action) && !g_hash_table_contains (seen, decision->action))
        {
          g_hash_table_add (seen, decision->action);
          json_array_add_string_element (techniques, decision->action);
        }
      if (g_str_has_prefix (decision->action, "reverted:") ||
          strstr (decision->action, "_reverted:") != NULL)
        fallback = TRUE;

      rule = decision->detail != NULL
             ? g_strdup_printf ("%s: %s (%s)", decision->path, decision->action, decision->detail)
             : g_strdup_printf ("%s: %s", decision->path, decision->action);
      json_array_add_string_element (rules, rule);

      /* prose compression must keep every protected token of its part */
      if (g_str_has_prefix (decision->action, "caveman:") &&
          strcmp (decision->action, "caveman:skipped") != 0 && decision->part < originals->len)
        {
          g_autoptr(GError) lost = NULL;
          const char *after = winnow_conversation_get_part_text (conversation, decision->part);

          if (!winnow_protect_check (g_ptr_array_index (originals, decision->part), -1, after, -1,
                                     &lost))
            {
              g_autofree char *message = g_strdup_printf ("%s: %s", decision->path, lost->message);

              json_array_add_string_element (errors, message);
            }
        }
    }

  notes = winnow_pipeline_result_get_notes (result);
  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    json_array_add_string_element (warnings, notes[i]);

  /* per message part, as the prose engine sees them: the whole "role: content" text would
   * read as one structured block */
  preserved = json_array_new ();
  for (guint p = 0; p < originals->len && json_array_get_length (preserved) < MAX_PRESERVED_BLOCKS; p++)
    {
      const char *part = g_ptr_array_index (originals, p);
      g_autoptr(GArray) spans = winnow_protect_scan (part, -1);

      for (guint i = 0; i < spans->len && json_array_get_length (preserved) < MAX_PRESERVED_BLOCKS; i++)
        {
          const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);
          g_autofree char *content = g_strndup (part + span->start, span->end - span->start);
          g_auto(GStrv) words = g_strsplit_set (content, " \t\r\n", -1);
          g_autofree char *joined = NULL;
          JsonObject *block = json_object_new ();
          GString *preview = g_string_new (NULL);

          for (guint k = 0; words[k] != NULL; k++)
            if (words[k][0] != '\0')
              {
                if (preview->len > 0)
                  g_string_append_c (preview, ' ');
                g_string_append (preview, words[k]);
              }
          joined = g_string_free (preview, FALSE);
          if (g_utf8_validate (joined, -1, NULL) && g_utf8_strlen (joined, -1) > 120)
            *g_utf8_offset_to_pointer (joined, 120) = '\0';

          json_object_set_string_member (block, "kind", winnow_protect_kind_to_string (span->kind));
          set_text (block, "preview", joined, -1);
          json_object_set_string_member (block, "path",
                                         winnow_conversation_get_part_path (conversation, p));
          json_array_add_object_element (preserved, block);
        }
    }

  response = json_object_new ();
  set_text (response, "original", original, -1);
  set_text (response, "compressed", compressed, -1);
  json_object_set_int_member (response, "originalTokens", original_tokens);
  json_object_set_int_member (response, "compressedTokens", compressed_tokens);
  json_object_set_int_member (response, "tokensSaved", saved);
  json_object_set_int_member (response, "savingsPct",
                              original_tokens > 0 ? (gint64) round_to (100.0 * saved / original_tokens, 1)
                                                  : 0);
  json_object_set_array_member (response, "techniquesUsed", techniques);
  json_object_set_double_member (response, "durationMs",
                                 round_to (winnow_pipeline_result_get_duration_us (result) / 1000.0,
                                           0.001));
  json_object_set_string_member (response, "mode", winnow_pipeline_result_get_mode (result));
  json_object_set_member (response, "diff",
                          _winnow_server_diff (original, strlen (original), compressed,
                                               strlen (compressed)));
  json_object_set_array_member (response, "preservedBlocks", preserved);
  json_object_set_array_member (response, "rulesApplied", rules);

  validation = json_object_new ();
  json_object_set_boolean_member (validation, "valid", json_array_get_length (errors) == 0);
  json_object_set_array_member (validation, "errors", errors);
  json_object_set_array_member (validation, "warnings", warnings);
  json_object_set_boolean_member (validation, "fallbackApplied", fallback);
  json_object_set_object_member (response, "validation", validation);

  /* Winnow's own: the compressed messages in their own shape, and who counted */
  {
    g_autoptr(JsonParser) out_parser = json_parser_new ();

    if (json_parser_load_from_data (out_parser, compressed_json, -1, NULL))
      json_object_set_member (response, "messages", json_node_copy (json_parser_get_root (out_parser)));
  }
  json_object_set_string_member (response, "tokenCounter", winnow_tokens_counter_name ());
  job->response = object_node (response);

  record_event (job, result, bytes_before, NULL, NULL);
}

/* ---- GET /api/context/rtk/raw-output/{id} -------------------------------------------------- */

void
_winnow_server_route_raw_output (WinnowServerJob *job)
{
  const char *id = job->path_arg;
  g_autoptr(WinnowRawOutputInfo) info = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *checksum = NULL;
  g_autoptr(GDateTime) created = NULL;
  g_autofree char *created_text = NULL;
  JsonObject *response;
  const char *contents;
  gsize length;

  /* anything but 24 lowercase hex digits never reaches the database or the disk */
  if (!winnow_raw_output_id_is_valid (id))
    {
      _winnow_server_job_fail (job, SOUP_STATUS_NOT_FOUND, "not_found", NULL,
                               "no raw output with that id (ids are 24 lowercase hex digits)");
      return;
    }

  if (job->store == NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_SERVICE_UNAVAILABLE, "store_unavailable", NULL,
                               "the database could not be opened when the server started");
      return;
    }

  /* the store reads only a file in DATA_DIR/rtk/raw-output named after this id */
  bytes = winnow_store_read_raw_output (job->store, id, &info, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND) ||
          g_error_matches (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID))
        _winnow_server_job_fail (job, SOUP_STATUS_NOT_FOUND, "not_found", NULL, "no raw output %s",
                                 id);
      else
        _winnow_server_job_fail (job, SOUP_STATUS_SERVICE_UNAVAILABLE, "store_unavailable", NULL,
                                 "%s", error->message);
      return;
    }

  contents = g_bytes_get_data (bytes, &length);
  checksum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
  created = g_date_time_new_from_unix_utc (info->created_us / G_USEC_PER_SEC);
  created_text = created ? g_date_time_format_iso8601 (created) : NULL;

  response = json_object_new ();
  json_object_set_string_member (response, "id", id);
  set_text (response, "text", length > 0 ? contents : "", length);
  json_object_set_int_member (response, "bytes", length);
  json_object_set_string_member (response, "sha256", info->sha256 ? info->sha256 : "");
  json_object_set_boolean_member (response, "intact", g_strcmp0 (checksum, info->sha256) == 0);
  set_nullable_string (response, "createdAt", created_text);
  {
    g_autoptr(JsonObject) redactions = parse_document (info->redactions);

    json_object_set_object_member (response, "redactions", json_object_ref (redactions));
  }
  if (info->event_id > 0)
    json_object_set_int_member (response, "eventId", info->event_id);
  else
    json_object_set_null_member (response, "eventId");
  json_object_set_boolean_member (response, "truncated", info->truncated);
  json_object_set_int_member (response, "originalBytes", info->original_bytes);
  set_nullable_string (response, "command", info->command);
  job->response = object_node (response);
}

/* ---- GET /api/analytics/compression -------------------------------------------------------- */

static JsonObject *
savings_object (const WinnowSavingsRow *row,
                const char             *key_name)
{
  JsonObject *object = json_object_new ();
  gint64 saved = winnow_savings_row_get_saved (row);

  if (key_name != NULL)
    set_nullable_string (object, key_name, row->key);
  json_object_set_int_member (object, "events", row->events);
  json_object_set_int_member (object, "tokensBefore", row->tokens_before);
  json_object_set_int_member (object, "tokensAfter", row->tokens_after);
  json_object_set_int_member (object, "tokensSaved", saved);
  json_object_set_double_member (object, "savingsPct",
                                 round_to (100.0 * winnow_savings_row_get_saved_ratio (row), 0.1));
  json_object_set_int_member (object, "bytesBefore", row->bytes_before);
  json_object_set_int_member (object, "bytesAfter", row->bytes_after);
  json_object_set_int_member (object, "grownEvents", row->grown_events);
  json_object_set_int_member (object, "tokensGrown", row->tokens_grown);
  return object;
}

void
_winnow_server_route_analytics (WinnowServerJob *job)
{
  static const struct { WinnowStoreGroup group; const char *member, *key; } groups[] = {
    { WINNOW_STORE_GROUP_FILTER, "byFilter", "filterId" },
    { WINNOW_STORE_GROUP_COMMAND, "byCommand", "command" },
    { WINNOW_STORE_GROUP_PROJECT, "byProject", "project" },
  };
  const char *since_text = job->query ? g_hash_table_lookup (job->query, "since") : NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) totals = NULL;
  g_autoptr(GPtrArray) days = NULL;
  JsonObject *response;
  JsonArray *array;
  GTimeSpan since;
  guint n_days;

  if (since_text == NULL)
    since_text = "30d";
  if (!winnow_store_parse_since (since_text, &since, &error))
    {
      _winnow_server_job_fail (job, SOUP_STATUS_BAD_REQUEST, "invalid_query", "since", "%s",
                               error->message);
      return;
    }

  if (job->store == NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_SERVICE_UNAVAILABLE, "store_unavailable", NULL,
                               "the database could not be opened; see the server's log");
      return;
    }

  /* the events of requests already answered may still be queued */
  if (job->events != NULL)
    winnow_event_queue_flush (job->events);

  /* days in the window, today included; "all" charts the last 30 */
  n_days = since == 0 ? 30 : (guint) CLAMP ((since + G_TIME_SPAN_DAY - 1) / G_TIME_SPAN_DAY, 1, 366);

  if ((totals = winnow_store_query (job->store, WINNOW_STORE_GROUP_NONE, since, 0, &error)) == NULL ||
      (days = winnow_store_query_days (job->store, n_days, &error)) == NULL)
    {
      _winnow_server_job_fail (job, SOUP_STATUS_SERVICE_UNAVAILABLE, "store_unavailable", NULL,
                               "%s", error->message);
      return;
    }

  response = json_object_new ();
  json_object_set_string_member (response, "since", since_text);
  json_object_set_string_member (response, "tokenCounter", winnow_tokens_counter_name ());
  json_object_set_object_member (response, "totals", savings_object (g_ptr_array_index (totals, 0), NULL));

  array = json_array_new ();
  for (guint i = 0; i < days->len; i++)
    json_array_add_object_element (array, savings_object (g_ptr_array_index (days, i), "date"));
  json_object_set_array_member (response, "byDay", array);

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      g_autoptr(GPtrArray) rows = winnow_store_query (job->store, groups[g].group, since,
                                                      GROUP_LIMIT, &error);

      if (rows == NULL)
        {
          json_object_unref (response);
          _winnow_server_job_fail (job, SOUP_STATUS_SERVICE_UNAVAILABLE, "store_unavailable", NULL,
                                   "%s", error->message);
          return;
        }

      array = json_array_new ();
      for (guint i = 0; i < rows->len; i++)
        json_array_add_object_element (array, savings_object (g_ptr_array_index (rows, i),
                                                              groups[g].key));
      json_object_set_array_member (response, groups[g].member, array);
    }

  job->response = object_node (response);
}
