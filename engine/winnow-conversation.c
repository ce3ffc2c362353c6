/* winnow-conversation.c — a list of chat messages, as OpenAI or Anthropic shape them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents and proxies hand Winnow the messages they are about to send: an array of messages,
 * or a request object holding `messages` (and, in Anthropic's shape, a top-level `system`).
 * Both shapes are read without converting them, and every place that holds text becomes a
 * *part* the pipeline can compress in place, so the output has exactly the input's shape:
 *
 *  - `content` as a string, or as an array of blocks of `type` "text" (also "input_text",
 *    "output_text"), one part per block;
 *  - tool results: OpenAI `role: "tool"` messages (and the older `role: "function"`), whose
 *    `tool_call_id` names a call in an earlier assistant message's `tool_calls`; Anthropic
 *    `tool_result` blocks, whose `tool_use_id` names an earlier `tool_use` block. The call
 *    gives the tool's name and input, and from the input the command and working directory
 *    (`command`, `cmd`, `args`, `cwd`, `workdir`…), so command output is filtered knowing the
 *    command that produced it;
 *  - everything else (images, tool calls themselves, unknown blocks, model settings) is left
 *    exactly as it was.
 */

#define G_LOG_DOMAIN "winnow-conversation"

#include "config.h"

#include <string.h>

#include "winnow-conversation.h"
#include "winnow-error.h"
#include "winnow-json-reader.h"

typedef struct
{
  guint              message;
  WinnowMessageRole  role;
  gboolean           tool_result;
  char              *tool_name;
  char              *command;
  char              *cwd;
  char              *path;
  JsonObject        *holder;     /* the object whose member holds the text */
  char              *member;
} Part;

typedef struct
{
  char *name;
  char *command;
  char *cwd;
} ToolCall;

struct _WinnowConversation
{
  GObject     parent_instance;
  JsonNode   *root;
  GArray     *parts;          /* Part */
  GHashTable *calls;          /* call id → ToolCall */
  guint       n_messages;
  gboolean    plain_text;
};

G_DEFINE_FINAL_TYPE (WinnowConversation, winnow_conversation, G_TYPE_OBJECT)

static void
part_clear (gpointer data)
{
  Part *part = data;

  g_clear_pointer (&part->tool_name, g_free);
  g_clear_pointer (&part->command, g_free);
  g_clear_pointer (&part->cwd, g_free);
  g_clear_pointer (&part->path, g_free);
  g_clear_pointer (&part->member, g_free);
}

static void
tool_call_free (gpointer data)
{
  ToolCall *call = data;

  g_free (call->name);
  g_free (call->command);
  g_free (call->cwd);
  g_free (call);
}

static void
winnow_conversation_finalize (GObject *object)
{
  WinnowConversation *self = (WinnowConversation *)object;

  g_clear_pointer (&self->parts, g_array_unref);
  g_clear_pointer (&self->calls, g_hash_table_unref);
  g_clear_pointer (&self->root, json_node_unref);

  G_OBJECT_CLASS (winnow_conversation_parent_class)->finalize (object);
}

static void
winnow_conversation_class_init (WinnowConversationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_conversation_finalize;
}

static void
winnow_conversation_init (WinnowConversation *self)
{
  self->parts = g_array_new (FALSE, TRUE, sizeof (Part));
  g_array_set_clear_func (self->parts, part_clear);
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, tool_call_free);
}

/* ---- reading ----------------------------------------------------------------------------- */

static const char *
string_member (JsonObject *obj,
               const char *name)
{
  JsonNode *node = json_object_get_member (obj, name);

  if (node == NULL || !_winnow_json_node_is_string (node))
    return NULL;
  return json_node_get_string (node);
}

static char *
quote_argument (const char *arg)
{
  if (arg[0] != '\0' && strpbrk (arg, " \t\"'$`\\|&;<>()") == NULL)
    return g_strdup (arg);
  return g_shell_quote (arg);
}

/* The command a tool call ran, from its input: a `command` string, a `cmd`/`args` array… */
static char *
command_of_input (JsonObject *input)
{
  static const char * const string_keys[] = { "command", "cmd", "commandLine", "script", NULL };
  static const char * const array_keys[] = { "command", "cmd", "args", "argv", NULL };

  for (guint i = 0; string_keys[i] != NULL; i++)
    if (string_member (input, string_keys[i]) != NULL)
      return g_strdup (string_member (input, string_keys[i]));

  for (guint i = 0; array_keys[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (input, array_keys[i]);
      g_autoptr(GString) joined = NULL;
      JsonArray *array;

      if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
        continue;

      array = json_node_get_array (node);
      joined = g_string_new (NULL);
      for (guint k = 0; k < json_array_get_length (array); k++)
        {
          JsonNode *element = json_array_get_element (array, k);
          g_autofree char *quoted = NULL;

          if (!_winnow_json_node_is_string (element))
            continue;
          quoted = quote_argument (json_node_get_string (element));
          if (joined->len > 0)
            g_string_append_c (joined, ' ');
          g_string_append (joined, quoted);
        }

      if (joined->len > 0)
        return g_string_free (g_steal_pointer (&joined), FALSE);
    }

  return NULL;
}

static char *
cwd_of_input (JsonObject *input)
{
  static const char * const keys[] = {
    "cwd", "workdir", "working_directory", "workingDirectory", "directory", "dir", NULL
  };

  for (guint i = 0; keys[i] != NULL; i++)
    if (string_member (input, keys[i]) != NULL)
      return g_strdup (string_member (input, keys[i]));

  return NULL;
}

/* Tools that search or list without a shell command: the command they stand for, so the
 * detector and the catalog can pick the grep or listing filter. */
static char *
implied_command (const char *tool,
                 JsonObject *input)
{
  g_autofree char *lower = tool ? g_ascii_strdown (tool, -1) : NULL;
  const char *pattern = input ? string_member (input, "pattern") : NULL;

  if (lower == NULL)
    return NULL;

  if (strstr (lower, "grep") != NULL || strstr (lower, "search") != NULL)
    {
      g_autofree char *quoted = pattern ? quote_argument (pattern) : NULL;

      return quoted ? g_strconcat ("grep -rn ", quoted, NULL) : g_strdup ("grep -rn");
    }
  if (strcmp (lower, "ls") == 0 || strstr (lower, "list_dir") != NULL ||
      strstr (lower, "list_directory") != NULL)
    return g_strdup ("ls");
  if (strcmp (lower, "glob") == 0 || strstr (lower, "find_files") != NULL ||
      strstr (lower, "file_search") != NULL)
    return g_strdup ("find");

  return NULL;
}

static void
remember_call (WinnowConversation *self,
               const char         *id,
               const char         *name,
               JsonObject         *input)
{
  ToolCall *call;

  if (id == NULL)
    return;

  call = g_new0 (ToolCall, 1);
  call->name = g_strdup (name);
  if (input != NULL)
    {
      call->command = command_of_input (input);
      call->cwd = cwd_of_input (input);
    }
  if (call->command == NULL)
    call->command = implied_command (name, input);

  g_hash_table_replace (self->calls, g_strdup (id), call);
}

static void
add_part (WinnowConversation *self,
          guint               message,
          WinnowMessageRole   role,
          JsonObject         *holder,
          const char         *member,
          const char         *path,
          const ToolCall     *call,
          gboolean            tool_result)
{
  Part part = { 0 };

  part.message = message;
  part.role = role;
  part.tool_result = tool_result;
  part.holder = holder;
  part.member = g_strdup (member);
  part.path = g_strdup (path);
  if (call != NULL)
    {
      part.tool_name = g_strdup (call->name);
      part.command = g_strdup (call->command);
      part.cwd = g_strdup (call->cwd);
    }

  g_array_append_val (self->parts, part);
}

static gboolean
is_text_block_type (const char *type)
{
  return g_strcmp0 (type, "text") == 0 || g_strcmp0 (type, "input_text") == 0 ||
         g_strcmp0 (type, "output_text") == 0;
}

/* A `content`: a string, or an array of blocks. */
static void
read_content (WinnowConversation *self,
              guint               message,
              WinnowMessageRole   role,
              JsonObject         *holder,
              const char         *member,
              const char         *path,
              const ToolCall     *call,
              gboolean            tool_result)
{
  JsonNode *node = json_object_get_member (holder, member);
  JsonArray *blocks;

  if (node == NULL)
    return;

  if (_winnow_json_node_is_string (node))
    {
      add_part (self, message, role, holder, member, path, call, tool_result);
      return;
    }

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return;

  blocks = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonNode *element = json_array_get_element (blocks, i);
      g_autofree char *block_path = g_strdup_printf ("%s[%u]", path, i);
      JsonObject *block;
      const char *type;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      block = json_node_get_object (element);
      type = string_member (block, "type");

      if (is_text_block_type (type) && string_member (block, "text") != NULL)
        {
          g_autofree char *text_path = g_strconcat (block_path, ".text", NULL);

          add_part (self, message, role, block, "text", text_path, call, tool_result);
        }
      else if (g_strcmp0 (type, "tool_use") == 0)
        {
          JsonNode *input = json_object_get_member (block, "input");

          remember_call (self, string_member (block, "id"), string_member (block, "name"),
                         input && JSON_NODE_HOLDS_OBJECT (input) ? json_node_get_object (input)
                                                                 : NULL);
        }
      else if (g_strcmp0 (type, "tool_result") == 0)
        {
          const char *id = string_member (block, "tool_use_id");
          const ToolCall *result_call = id ? g_hash_table_lookup (self->calls, id) : NULL;
          g_autofree char *content_path = g_strconcat (block_path, ".content", NULL);

          read_content (self, message, WINNOW_MESSAGE_ROLE_TOOL, block, "content", content_path,
                        result_call, TRUE);
        }
    }
}

static void
read_openai_tool_calls (WinnowConversation *self,
                        JsonObject         *message)
{
  JsonNode *node = json_object_get_member (message, "tool_calls");
  JsonArray *calls;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;

  calls = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonNode *element = json_array_get_element (calls, i);
      JsonObject *call;
      JsonNode *function;
      const char *arguments;
      g_autoptr(JsonParser) parser = NULL;
      JsonObject *input = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      call = json_node_get_object (element);
      function = json_object_get_member (call, "function");
      if (function == NULL || !JSON_NODE_HOLDS_OBJECT (function))
        continue;

      /* arguments is a JSON document in a string */
      arguments = string_member (json_node_get_object (function), "arguments");
      if (arguments != NULL)
        {
          guint line, column;

          parser = json_parser_new ();
          if (_winnow_json_check_document (arguments, strlen (arguments), &line, &column) == NULL &&
              json_parser_load_from_data (parser, arguments, -1, NULL) &&
              JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
            input = json_node_get_object (json_parser_get_root (parser));
        }

      remember_call (self, string_member (call, "id"),
                     string_member (json_node_get_object (function), "name"), input);
    }
}

static gboolean
read_message (WinnowConversation  *self,
              JsonNode            *node,
              guint                index,
              const char          *base,
              GError             **error)
{
  g_autofree char *path = g_strdup_printf ("%s[%u]", base, index);
  g_autofree char *content_path = g_strconcat (path, ".content", NULL);
  const char *role_name;
  WinnowMessageRole role;
  JsonObject *message;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                   "%s: a message must be an object with “role” and “content”, not %s", path,
                   _winnow_json_node_type_name (node));
      return FALSE;
    }

  message = json_node_get_object (node);
  role_name = string_member (message, "role");
  if (role_name == NULL)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                   "%s.role: is required and must be a string", path);
      return FALSE;
    }

  if (g_strcmp0 (role_name, "function") == 0)
    role = WINNOW_MESSAGE_ROLE_TOOL;
  else if (!winnow_message_role_from_string (role_name, &role))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                   "%s.role: “%s” is not one of system, developer, user, assistant, tool",
                   path, role_name);
      return FALSE;
    }

  read_openai_tool_calls (self, message);

  if (role == WINNOW_MESSAGE_ROLE_TOOL)
    {
      const char *id = string_member (message, "tool_call_id");
      const ToolCall *call = id ? g_hash_table_lookup (self->calls, id) : NULL;
      ToolCall named = { (char *) string_member (message, "name"), NULL, NULL };

      if (call == NULL && named.name != NULL)
        call = &named;
      read_content (self, index, role, message, "content", content_path, call, TRUE);
    }
  else
    read_content (self, index, role, message, "content", content_path, NULL, FALSE);

  return TRUE;
}

static gboolean
read_root (WinnowConversation  *self,
           GError             **error)
{
  JsonArray *messages;
  const char *base = "";

  if (JSON_NODE_HOLDS_OBJECT (self->root))
    {
      JsonObject *request = json_node_get_object (self->root);
      JsonNode *node = json_object_get_member (request, "messages");

      if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                       "expected an array of messages, or an object with a “messages” array");
          return FALSE;
        }

      /* Anthropic keeps system instructions beside the messages */
      if (json_object_has_member (request, "system"))
        read_content (self, 0, WINNOW_MESSAGE_ROLE_SYSTEM, request, "system", "system", NULL,
                      FALSE);

      messages = json_node_get_array (node);
      base = "messages";
    }
  else if (JSON_NODE_HOLDS_ARRAY (self->root))
    messages = json_node_get_array (self->root);
  else
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                   "expected an array of messages, or an object with a “messages” array, "
                   "not %s", _winnow_json_node_type_name (self->root));
      return FALSE;
    }

  self->n_messages = json_array_get_length (messages);
  for (guint i = 0; i < self->n_messages; i++)
    if (!read_message (self, json_array_get_element (messages, i), i, base, error))
      return FALSE;

  return TRUE;
}

/**
 * winnow_conversation_new_from_json:
 * @text: a JSON array of messages, or a request object with `messages`
 * @length: length of @text, or -1 if nul-terminated
 * @file: (nullable): where it comes from, for error messages
 * @error: return location for a #GError naming the file, position or JSON path and reason
 *
 * Returns: (transfer full) (nullable): the conversation, or %NULL with @error set
 */
WinnowConversation *
winnow_conversation_new_from_json (const char  *text,
                                   gssize       length,
                                   const char  *file,
                                   GError     **error)
{
  g_autoptr(WinnowConversation) self = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  gsize len;

  g_return_val_if_fail (text != NULL || length <= 0, NULL);

  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;

  parser = _winnow_json_parse_document_full (&text, &len, "file", file ? file : "<messages>",
                                             "an array of messages", FALSE, diagnostics);
  if (parser == NULL)
    {
      g_autofree char *message = diagnostics->len > 0
                                 ? winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, 0))
                                 : g_strdup ("not a JSON document");

      g_set_error_literal (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON, message);
      return NULL;
    }

  self = g_object_new (WINNOW_TYPE_CONVERSATION, NULL);
  self->root = json_node_ref (json_parser_get_root (parser));

  if (!read_root (self, &local_error))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON, "%s: %s",
                   file ? file : "<messages>", local_error->message);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * winnow_conversation_new_for_text:
 * @text: plain text
 * @length: its length, or -1 if nul-terminated
 * @role: who wrote it
 *
 * A conversation of one message holding @text; winnow_conversation_to_json() gives back the
 * text itself, not JSON.
 *
 * Returns: (transfer full): the conversation
 */
WinnowConversation *
winnow_conversation_new_for_text (const char        *text,
                                  gssize             length,
                                  WinnowMessageRole  role)
{
  WinnowConversation *self = g_object_new (WINNOW_TYPE_CONVERSATION, NULL);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *copy = NULL;
  JsonArray *array;

  g_return_val_if_fail (text != NULL || length <= 0, NULL);

  copy = length < 0 ? g_strdup (text ? text : "") : g_strndup (text, length);

  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, winnow_message_role_to_string (role));
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, copy);
  json_builder_end_object (builder);
  json_builder_end_array (builder);

  self->root = json_builder_get_root (builder);
  self->plain_text = TRUE;
  self->n_messages = 1;
  array = json_node_get_array (self->root);
  add_part (self, 0, role, json_array_get_object_element (array, 0), "content", "[0].content",
            NULL, role == WINNOW_MESSAGE_ROLE_TOOL);

  return self;
}

/* ---- parts ------------------------------------------------------------------------------- */

static const Part *
get_part (WinnowConversation *self,
          guint               index)
{
  g_return_val_if_fail (WINNOW_IS_CONVERSATION (self), NULL);
  g_return_val_if_fail (index < self->parts->len, NULL);

  return &g_array_index (self->parts, Part, index);
}

guint
winnow_conversation_get_n_messages (WinnowConversation *self)
{
  g_return_val_if_fail (WINNOW_IS_CONVERSATION (self), 0);
  return self->n_messages;
}

/**
 * winnow_conversation_get_n_parts:
 * @self: a #WinnowConversation
 *
 * Returns: how many text parts the messages hold, in message order
 */
guint
winnow_conversation_get_n_parts (WinnowConversation *self)
{
  g_return_val_if_fail (WINNOW_IS_CONVERSATION (self), 0);
  return self->parts->len;
}

const char *
winnow_conversation_get_part_text (WinnowConversation *self,
                                   guint               index)
{
  const Part *part = get_part (self, index);

  return part ? json_object_get_string_member (part->holder, part->member) : NULL;
}

void
winnow_conversation_set_part_text (WinnowConversation *self,
                                   guint               index,
                                   const char         *text)
{
  const Part *part = get_part (self, index);

  g_return_if_fail (text != NULL);

  if (part != NULL)
    json_object_set_string_member (part->holder, part->member, text);
}

WinnowMessageRole
winnow_conversation_get_part_role (WinnowConversation *self,
                                   guint               index)
{
  const Part *part = get_part (self, index);

  return part ? part->role : WINNOW_MESSAGE_ROLE_USER;
}

guint
winnow_conversation_get_part_message (WinnowConversation *self,
                                      guint               index)
{
  const Part *part = get_part (self, index);

  return part ? part->message : 0;
}

/**
 * winnow_conversation_get_part_path:
 * @self: a #WinnowConversation
 * @index: a part
 *
 * Returns: where the part sits in the document, e.g. `messages[3].content[1].text`
 */
const char *
winnow_conversation_get_part_path (WinnowConversation *self,
                                   guint               index)
{
  const Part *part = get_part (self, index);

  return part ? part->path : NULL;
}

gboolean
winnow_conversation_get_part_is_tool_result (WinnowConversation *self,
                                             guint               index)
{
  const Part *part = get_part (self, index);

  return part ? part->tool_result : FALSE;
}

/**
 * winnow_conversation_get_part_tool_name:
 * @self: a #WinnowConversation
 * @index: a part
 *
 * Returns: (nullable): the tool whose result the part is
 */
const char *
winnow_conversation_get_part_tool_name (WinnowConversation *self,
                                        guint               index)
{
  const Part *part = get_part (self, index);

  return part ? part->tool_name : NULL;
}

/**
 * winnow_conversation_get_part_command:
 * @self: a #WinnowConversation
 * @index: a part
 *
 * Returns: (nullable): the command that produced the part, when it is a tool result
 */
const char *
winnow_conversation_get_part_command (WinnowConversation *self,
                                      guint               index)
{
  const Part *part = get_part (self, index);

  return part ? part->command : NULL;
}

/**
 * winnow_conversation_get_part_cwd:
 * @self: a #WinnowConversation
 * @index: a part
 *
 * Returns: (nullable): the directory the command ran in, when the call says
 */
const char *
winnow_conversation_get_part_cwd (WinnowConversation *self,
                                  guint               index)
{
  const Part *part = get_part (self, index);

  return part ? part->cwd : NULL;
}

/**
 * winnow_conversation_is_plain_text:
 * @self: a #WinnowConversation
 *
 * Returns: whether the conversation wraps plain text (winnow_conversation_new_for_text())
 */
gboolean
winnow_conversation_is_plain_text (WinnowConversation *self)
{
  g_return_val_if_fail (WINNOW_IS_CONVERSATION (self), FALSE);
  return self->plain_text;
}

/**
 * winnow_conversation_to_json:
 * @self: a #WinnowConversation
 * @pretty: indent the output
 *
 * Returns: (transfer full): the messages in the shape they came in, with the current part
 *   texts; for plain text, the text itself
 */
char *
winnow_conversation_to_json (WinnowConversation *self,
                             gboolean            pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  g_return_val_if_fail (WINNOW_IS_CONVERSATION (self), NULL);

  if (self->plain_text)
    return g_strdup (winnow_conversation_get_part_text (self, 0));

  json_generator_set_root (generator, self->root);
  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);

  return json_generator_to_data (generator, NULL);
}
