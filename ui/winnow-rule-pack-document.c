/* winnow-rule-pack-document.c — the JSON text of a rule pack being edited
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Rule Packs page shows a pack two ways, as a form and as JSON, and the JSON text is the
 * one source of truth: the form reads the rule objects of its last good parse, and a form edit
 * rewrites only that rule's object inside the text, so the rest of the file — its layout, its
 * other rules, its samples — stays byte for byte what the person wrote. Switching views can
 * then never lose anything: there is nothing to convert back.
 *
 * A rule whose pattern does not compile is still a JSON object, so the form keeps showing it
 * (the engine's parsed pack leaves such a rule out); validation with its diagnostics runs off
 * the main thread in winnow-rule-pack-check.c, and once more, synchronously, before a save.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "winnow-rule-pack-document.h"
#include "winnow-rule-pack-text.h"

struct _WinnowRulePackDocument
{
  GObject     parent_instance;

  char       *text;
  char       *saved_text;
  char       *source;
  char       *file;
  JsonParser *parser;      /* the last parse of text, NULL when it is not JSON */
};

G_DEFINE_FINAL_TYPE (WinnowRulePackDocument, winnow_rule_pack_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TEXT,
  PROP_READ_ONLY,
  PROP_MODIFIED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* ---- the document ------------------------------------------------------------------------ */

static void
reparse (WinnowRulePackDocument *self)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();

  g_clear_object (&self->parser);
  if (json_parser_load_from_data (parser, self->text, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    self->parser = g_steal_pointer (&parser);
}

static void
winnow_rule_pack_document_finalize (GObject *object)
{
  WinnowRulePackDocument *self = (WinnowRulePackDocument *)object;

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->saved_text, g_free);
  g_clear_pointer (&self->source, g_free);
  g_clear_pointer (&self->file, g_free);
  g_clear_object (&self->parser);

  G_OBJECT_CLASS (winnow_rule_pack_document_parent_class)->finalize (object);
}

static void
winnow_rule_pack_document_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  WinnowRulePackDocument *self = WINNOW_RULE_PACK_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;

    case PROP_READ_ONLY:
      g_value_set_boolean (value, winnow_rule_pack_document_get_read_only (self));
      break;

    case PROP_MODIFIED:
      g_value_set_boolean (value, winnow_rule_pack_document_get_modified (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_rule_pack_document_class_init (WinnowRulePackDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_rule_pack_document_finalize;
  object_class->get_property = winnow_rule_pack_document_get_property;

  properties [PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRulePackDocument:read-only:
   *
   * Whether this is a built-in pack, which is duplicated to be edited.
   */
  properties [PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties [PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_rule_pack_document_init (WinnowRulePackDocument *self)
{
}

/**
 * winnow_rule_pack_document_new:
 * @text: the pack file's text
 * @source: where it comes from: "built-in" (read-only), "global", "file"
 * @file: (nullable): the file it was read from (built-in: `rules/<language>/<name>.json`)
 *
 * Returns: (transfer full): a document holding @text, unmodified
 */
WinnowRulePackDocument *
winnow_rule_pack_document_new (const char *text,
                               const char *source,
                               const char *file)
{
  WinnowRulePackDocument *self;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (source != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_RULE_PACK_DOCUMENT, NULL);
  self->text = g_strdup (text);
  self->saved_text = g_strdup (text);
  self->source = g_strdup (source);
  self->file = g_strdup (file);
  reparse (self);

  return self;
}

const char *
winnow_rule_pack_document_get_text (WinnowRulePackDocument *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), NULL);
  return self->text;
}

static void
replace_text (WinnowRulePackDocument *self,
              char                   *text)
{
  gboolean was_modified = winnow_rule_pack_document_get_modified (self);

  g_free (self->text);
  self->text = text;
  reparse (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TEXT]);
  if (was_modified != winnow_rule_pack_document_get_modified (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MODIFIED]);
}

/**
 * winnow_rule_pack_document_set_text:
 * @self: a #WinnowRulePackDocument
 * @text: the new text, valid JSON or not
 *
 * Replaces the text (an edit in the JSON view). Ignored for a read-only document.
 */
void
winnow_rule_pack_document_set_text (WinnowRulePackDocument *self,
                                    const char             *text)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self));
  g_return_if_fail (text != NULL);

  if (winnow_rule_pack_document_get_read_only (self) || g_strcmp0 (self->text, text) == 0)
    return;

  replace_text (self, g_strdup (text));
}

const char *
winnow_rule_pack_document_get_source (WinnowRulePackDocument *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), NULL);
  return self->source;
}

/**
 * winnow_rule_pack_document_get_file:
 * @self: a #WinnowRulePackDocument
 *
 * Returns: (nullable): the file the text was read from or last saved to
 */
const char *
winnow_rule_pack_document_get_file (WinnowRulePackDocument *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), NULL);
  return self->file;
}

gboolean
winnow_rule_pack_document_get_read_only (WinnowRulePackDocument *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), TRUE);
  return g_strcmp0 (self->source, "built-in") == 0;
}

/**
 * winnow_rule_pack_document_get_modified:
 * @self: a #WinnowRulePackDocument
 *
 * Returns: whether the text differs from what was loaded or last saved
 */
gboolean
winnow_rule_pack_document_get_modified (WinnowRulePackDocument *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), FALSE);
  return g_strcmp0 (self->text, self->saved_text) != 0;
}

/**
 * winnow_rule_pack_document_get_is_json:
 * @self: a #WinnowRulePackDocument
 *
 * Returns: whether the text is a JSON object right now, which the form needs
 */
gboolean
winnow_rule_pack_document_get_is_json (WinnowRulePackDocument *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), FALSE);
  return self->parser != NULL;
}

static JsonArray *
rules_array (WinnowRulePackDocument *self)
{
  JsonObject *root;
  JsonNode *rules;

  if (self->parser == NULL)
    return NULL;

  root = json_node_get_object (json_parser_get_root (self->parser));
  rules = json_object_get_member (root, "rules");
  return rules != NULL && JSON_NODE_HOLDS_ARRAY (rules) ? json_node_get_array (rules) : NULL;
}

/**
 * winnow_rule_pack_document_get_n_rules:
 * @self: a #WinnowRulePackDocument
 *
 * Returns: how many elements `rules[]` has in the last text that parsed as a JSON object;
 *   0 while the text is not JSON
 */
guint
winnow_rule_pack_document_get_n_rules (WinnowRulePackDocument *self)
{
  JsonArray *rules;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), 0);

  rules = rules_array (self);
  return rules ? json_array_get_length (rules) : 0;
}

/**
 * winnow_rule_pack_document_get_rule:
 * @self: a #WinnowRulePackDocument
 * @index: which element of `rules[]`
 *
 * Returns: (transfer none) (nullable): the rule's object (valid until the text changes), or
 *   %NULL when that element is not an object
 */
JsonObject *
winnow_rule_pack_document_get_rule (WinnowRulePackDocument *self,
                                    guint                   index)
{
  JsonArray *rules;
  JsonNode *node;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), NULL);

  rules = rules_array (self);
  if (rules == NULL || index >= json_array_get_length (rules))
    return NULL;

  node = json_array_get_element (rules, index);
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The indentation of the line @offset is on, which a rewritten object keeps. */
static guint
line_indent (const char *text,
             gsize       offset)
{
  gsize line_start = offset;
  guint indent = 0;

  while (line_start > 0 && text[line_start - 1] != '\n')
    line_start--;
  while (text[line_start + indent] == ' ')
    indent++;

  return indent;
}

/**
 * winnow_rule_pack_document_set_rule_member:
 * @self: a #WinnowRulePackDocument
 * @index: which rule
 * @member: the member to set ("pattern", "replacementMap"…)
 * @value: (nullable) (transfer none): its new value; %NULL removes the member
 *
 * A form edit: rewrites `rules[index]` in the text with @member changed, and nothing else.
 *
 * Returns: %FALSE when the document is read-only, the text is not JSON right now or has no
 *   such rule object
 */
gboolean
winnow_rule_pack_document_set_rule_member (WinnowRulePackDocument *self,
                                           guint                   index,
                                           const char             *member,
                                           JsonNode               *value)
{
  g_autoptr(JsonNode) rule_node = NULL;
  g_autofree char *rule_text = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *rule;
  JsonObject *copy;
  GString *text;
  gsize start, end;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), FALSE);
  g_return_val_if_fail (member != NULL, FALSE);

  if (winnow_rule_pack_document_get_read_only (self))
    return FALSE;

  rule = winnow_rule_pack_document_get_rule (self, index);
  if (rule == NULL || !winnow_rule_pack_text_find_rule (self->text, index, &start, &end))
    return FALSE;

  /* the parse is immutable (the form holds its objects) and json_node_copy() shares
   * containers: build a new object; members are replaced whole, never changed in place */
  members = json_object_get_members (rule);
  copy = json_object_new ();
  for (const GList *l = members; l != NULL; l = l->next)
    json_object_set_member (copy, l->data, json_node_copy (json_object_get_member (rule, l->data)));
  rule_node = json_node_init_object (json_node_alloc (), copy);
  json_object_unref (copy);
  if (value != NULL)
    json_object_set_member (copy, member, json_node_copy (value));
  else if (json_object_has_member (copy, member))
    json_object_remove_member (copy, member);

  rule_text = winnow_json_to_pack_text (rule_node, line_indent (self->text, start));
  text = g_string_new_len (self->text, start);
  g_string_append (text, rule_text);
  g_string_append (text, self->text + end);
  replace_text (self, g_string_free (text, FALSE));

  return TRUE;
}

static char *
first_error (GPtrArray *diagnostics)
{
  for (guint i = 0; i < diagnostics->len; i++)
    if (winnow_diagnostic_get_level (g_ptr_array_index (diagnostics, i)) ==
        WINNOW_DIAGNOSTIC_ERROR)
      return winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));

  return NULL;
}

/**
 * winnow_rule_pack_document_validate:
 * @self: a #WinnowRulePackDocument
 * @error: return location for a #GError
 *
 * Parses the text as the engine will when it loads the saved file.
 *
 * Returns: %TRUE when the pack loads without a single error diagnostic
 */
gboolean
winnow_rule_pack_document_validate (WinnowRulePackDocument  *self,
                                    GError                 **error)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autofree char *message = NULL;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  pack = winnow_rule_pack_parse (self->text, -1, self->source, self->file, diagnostics);
  message = first_error (diagnostics);
  if (pack == NULL || message != NULL)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON, "%s",
                   message ? message : _("the text is not a rule pack"));
      return FALSE;
    }

  return TRUE;
}

/**
 * winnow_rule_pack_document_save_as:
 * @self: a #WinnowRulePackDocument
 * @path: where to write the pack (`DATA_DIR/rules/<language>/<name>.json`)
 * @error: return location for a #GError
 *
 * Writes the text if it validates, else nothing: a pack that would not load must never
 * replace one that does. The file there before is kept as `PATH.bak` (one backup), and the new
 * text is written to a temporary file renamed over the old, so a failed save leaves the
 * previous version in place. Afterwards the document is a "global" pack of @path.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_rule_pack_document_save_as (WinnowRulePackDocument  *self,
                                   const char              *path,
                                   GError                 **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *old_text = NULL;
  gboolean was_read_only, was_modified;
  gsize old_length = 0;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!winnow_rule_pack_document_validate (self, &local_error))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON, _("%s: not saved: %s"), path,
                   local_error->message);
      return FALSE;
    }

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, _("%s: cannot create the folder: %s"),
                   dir, g_strerror (saved_errno));
      return FALSE;
    }

  if (g_file_get_contents (path, &old_text, &old_length, NULL))
    {
      g_autofree char *backup = g_strconcat (path, ".bak", NULL);

      if (!g_file_set_contents (backup, old_text, old_length, &local_error))
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO,
                       _("%s: not saved: cannot keep the previous version as %s: %s"), path,
                       backup, local_error->message);
          return FALSE;
        }
    }

  if (!g_file_set_contents (path, self->text, -1, &local_error))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }

  was_read_only = winnow_rule_pack_document_get_read_only (self);
  was_modified = winnow_rule_pack_document_get_modified (self);
  g_free (self->saved_text);
  self->saved_text = g_strdup (self->text);
  g_free (self->source);
  self->source = g_strdup ("global");
  g_free (self->file);
  self->file = g_strdup (path);

  if (was_read_only)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READ_ONLY]);
  if (was_modified)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MODIFIED]);

  return TRUE;
}

/**
 * winnow_rule_pack_document_rule_string:
 * @rule: a rule's JSON object
 * @member: one of its members ("name", "pattern"…)
 *
 * Returns: the member's text, or "" when the rule has no such string member
 */
const char *
winnow_rule_pack_document_rule_string (JsonObject *rule,
                                       const char *member)
{
  JsonNode *node;

  g_return_val_if_fail (rule != NULL, "");

  node = json_object_get_member (rule, member);
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : "";
}

/**
 * winnow_rule_pack_document_dup_rule_error:
 * @diagnostics: (element-type WinnowDiagnostic): a pack's diagnostics
 * @index: a rule's index in `rules[]`
 *
 * Returns: (transfer full) (nullable): the first error about `rules[index]` (its pattern,
 *   flags, map…), for the form to show beside the rule
 */
char *
winnow_rule_pack_document_dup_rule_error (GPtrArray *diagnostics,
                                          guint      index)
{
  g_autofree char *prefix = g_strdup_printf ("rules[%u]", index);
  gsize prefix_length = strlen (prefix);

  g_return_val_if_fail (diagnostics != NULL, NULL);

  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *diagnostic = g_ptr_array_index (diagnostics, i);
      const char *path = winnow_diagnostic_get_json_path (diagnostic);

      if (winnow_diagnostic_get_level (diagnostic) == WINNOW_DIAGNOSTIC_ERROR &&
          path != NULL && strncmp (path, prefix, prefix_length) == 0 &&
          (path[prefix_length] == '\0' || path[prefix_length] == '.'))
        return g_strdup (winnow_diagnostic_get_message (diagnostic));
    }

  return NULL;
}
