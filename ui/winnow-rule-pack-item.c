/* winnow-rule-pack-item.c — a language or a rule pack in the Rule Packs page's list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The list is a tree: languages, and under each its packs in the order they apply. A pack's
 * row shows its rule count and two badges — diagnostics the engine found, samples that fail —
 * as properties the row template binds to. The item also keeps the pack's document once it
 * has been opened, so edits survive choosing another pack and coming back.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "winnow-rule-pack-item.h"

#define BUILTIN_RESOURCE_PREFIX "/io/github/winnow/Winnow/"

struct _WinnowRulePackItem
{
  GObject                 parent_instance;

  char                   *language;
  WinnowRulePack         *pack;        /* NULL for a language */
  GListStore             *children;    /* WinnowRulePackItem, for a language */
  WinnowRulePackDocument *document;
  guint                   n_failing;
  guint                   n_diagnostics;
};

G_DEFINE_FINAL_TYPE (WinnowRulePackItem, winnow_rule_pack_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_IS_LANGUAGE,
  PROP_IS_USER,
  PROP_N_FAILING,
  PROP_FAILING_TEXT,
  PROP_N_DIAGNOSTICS,
  PROP_DIAGNOSTICS_TEXT,
  PROP_MODIFIED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static char *
dup_subtitle (WinnowRulePackItem *self)
{
  guint n;

  if (self->pack == NULL)
    {
      n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pack", "%u packs", n), n);
    }

  n = winnow_rule_pack_get_n_rules (self->pack);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u rule", "%u rules", n), n);
}

static gboolean
is_user (WinnowRulePackItem *self)
{
  return self->pack != NULL &&
         g_strcmp0 (winnow_rule_pack_get_source (self->pack), "built-in") != 0;
}

static void
winnow_rule_pack_item_finalize (GObject *object)
{
  WinnowRulePackItem *self = (WinnowRulePackItem *)object;

  g_clear_pointer (&self->language, g_free);
  g_clear_object (&self->pack);
  g_clear_object (&self->children);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (winnow_rule_pack_item_parent_class)->finalize (object);
}

static void
winnow_rule_pack_item_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  WinnowRulePackItem *self = WINNOW_RULE_PACK_ITEM (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, winnow_rule_pack_item_get_name (self));
      break;

    case PROP_SUBTITLE:
      g_value_take_string (value, dup_subtitle (self));
      break;

    case PROP_IS_LANGUAGE:
      g_value_set_boolean (value, self->pack == NULL);
      break;

    case PROP_IS_USER:
      g_value_set_boolean (value, is_user (self));
      break;

    case PROP_N_FAILING:
      g_value_set_uint (value, self->n_failing);
      break;

    case PROP_FAILING_TEXT:
      /* Translators: a badge: how many samples of a rule pack fail */
      g_value_take_string (value, g_strdup_printf (_("%u failing"), self->n_failing));
      break;

    case PROP_N_DIAGNOSTICS:
      g_value_set_uint (value, self->n_diagnostics);
      break;

    case PROP_DIAGNOSTICS_TEXT:
      /* Translators: a badge: how many problems the engine found in a rule pack */
      g_value_take_string (value, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u issue",
                                                                "%u issues", self->n_diagnostics),
                                                   self->n_diagnostics));
      break;

    case PROP_MODIFIED:
      g_value_set_boolean (value, self->document != NULL &&
                                  winnow_rule_pack_document_get_modified (self->document));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_rule_pack_item_class_init (WinnowRulePackItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_rule_pack_item_finalize;
  object_class->get_property = winnow_rule_pack_item_get_property;

  properties [PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_IS_LANGUAGE] =
    g_param_spec_boolean ("is-language", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_IS_USER] =
    g_param_spec_boolean ("is-user", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_N_FAILING] =
    g_param_spec_uint ("n-failing", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_FAILING_TEXT] =
    g_param_spec_string ("failing-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_N_DIAGNOSTICS] =
    g_param_spec_uint ("n-diagnostics", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_DIAGNOSTICS_TEXT] =
    g_param_spec_string ("diagnostics-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_rule_pack_item_init (WinnowRulePackItem *self)
{
}

WinnowRulePackItem *
winnow_rule_pack_item_new_language (const char *language)
{
  WinnowRulePackItem *self;

  g_return_val_if_fail (language != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_RULE_PACK_ITEM, NULL);
  self->language = g_strdup (language);
  self->children = g_list_store_new (WINNOW_TYPE_RULE_PACK_ITEM);
  return self;
}

/**
 * winnow_rule_pack_item_new_pack:
 * @pack: a registered pack
 * @n_diagnostics: how many warnings and errors the engine reported about its file
 *
 * Returns: (transfer full): a pack row
 */
WinnowRulePackItem *
winnow_rule_pack_item_new_pack (WinnowRulePack *pack,
                                guint           n_diagnostics)
{
  WinnowRulePackItem *self;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK (pack), NULL);

  self = g_object_new (WINNOW_TYPE_RULE_PACK_ITEM, NULL);
  self->language = g_strdup (winnow_rule_pack_get_language (pack));
  self->pack = g_object_ref (pack);
  self->n_diagnostics = n_diagnostics;
  return self;
}

gboolean
winnow_rule_pack_item_is_language (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), FALSE);
  return self->pack == NULL;
}

const char *
winnow_rule_pack_item_get_language (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), NULL);
  return self->language;
}

/**
 * winnow_rule_pack_item_get_name:
 * @self: a #WinnowRulePackItem
 *
 * Returns: the language key, or the pack's name ("filler")
 */
const char *
winnow_rule_pack_item_get_name (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), NULL);
  return self->pack ? winnow_rule_pack_get_name (self->pack) : self->language;
}

/**
 * winnow_rule_pack_item_get_children:
 * @self: a #WinnowRulePackItem
 *
 * Returns: (transfer none) (nullable): a language's packs; %NULL for a pack
 */
GListModel *
winnow_rule_pack_item_get_children (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), NULL);
  return self->children ? G_LIST_MODEL (self->children) : NULL;
}

void
winnow_rule_pack_item_add_child (WinnowRulePackItem *self,
                                 WinnowRulePackItem *child)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_ITEM (self));
  g_return_if_fail (WINNOW_IS_RULE_PACK_ITEM (child));
  g_return_if_fail (self->children != NULL);

  g_list_store_append (self->children, child);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SUBTITLE]);
}

/**
 * winnow_rule_pack_item_get_pack:
 * @self: a #WinnowRulePackItem
 *
 * Returns: (transfer none) (nullable): the pack as the engine last loaded it
 */
WinnowRulePack *
winnow_rule_pack_item_get_pack (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), NULL);
  return self->pack;
}

/* After a save: the engine's pack is now the user's file. */
void
winnow_rule_pack_item_set_pack (WinnowRulePackItem *self,
                                WinnowRulePack     *pack)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_ITEM (self));
  g_return_if_fail (WINNOW_IS_RULE_PACK (pack));
  g_return_if_fail (self->pack != NULL);

  if (!g_set_object (&self->pack, pack))
    return;

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SUBTITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_IS_USER]);
}

static void
on_document_modified (WinnowRulePackItem *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MODIFIED]);
}

/**
 * winnow_rule_pack_item_get_document:
 * @self: a pack's #WinnowRulePackItem
 * @error: return location for a #GError
 *
 * Reads the pack's file (a built-in one from the resource) the first time.
 *
 * Returns: (transfer none) (nullable): the document being edited
 */
WinnowRulePackDocument *
winnow_rule_pack_item_get_document (WinnowRulePackItem  *self,
                                    GError             **error)
{
  g_autofree char *text = NULL;
  const char *source;
  const char *file;

  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), NULL);
  g_return_val_if_fail (self->pack != NULL, NULL);

  if (self->document != NULL)
    return self->document;

  source = winnow_rule_pack_get_source (self->pack);
  file = winnow_rule_pack_get_file (self->pack);
  if (file == NULL)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_FOUND,
                   _("rule pack “%s” has no file"), winnow_rule_pack_get_name (self->pack));
      return NULL;
    }

  if (g_strcmp0 (source, "built-in") == 0)
    {
      /* a built-in pack's file is "rules/<language>/<name>.json" inside the resource */
      g_autofree char *resource = g_strconcat (BUILTIN_RESOURCE_PREFIX, file, NULL);
      g_autoptr(GBytes) bytes = g_resources_lookup_data (resource, 0, error);

      if (bytes == NULL)
        return NULL;
      text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }
  else if (!g_file_get_contents (file, &text, NULL, error))
    return NULL;

  self->document = winnow_rule_pack_document_new (text, source, file);
  g_signal_connect_object (self->document, "notify::modified",
                           G_CALLBACK (on_document_modified), self, G_CONNECT_SWAPPED);
  return self->document;
}

/**
 * winnow_rule_pack_item_has_document:
 * @self: a #WinnowRulePackItem
 *
 * Returns: whether the pack has been opened (its badges then follow its own checks)
 */
gboolean
winnow_rule_pack_item_has_document (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), FALSE);
  return self->document != NULL;
}

void
winnow_rule_pack_item_set_n_failing (WinnowRulePackItem *self,
                                     guint               n_failing)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_ITEM (self));

  if (self->n_failing == n_failing)
    return;

  self->n_failing = n_failing;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_FAILING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_FAILING_TEXT]);
}

guint
winnow_rule_pack_item_get_n_failing (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), 0);
  return self->n_failing;
}

void
winnow_rule_pack_item_set_n_diagnostics (WinnowRulePackItem *self,
                                         guint               n_diagnostics)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_ITEM (self));

  if (self->n_diagnostics == n_diagnostics)
    return;

  self->n_diagnostics = n_diagnostics;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_DIAGNOSTICS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DIAGNOSTICS_TEXT]);
}

guint
winnow_rule_pack_item_get_n_diagnostics (WinnowRulePackItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), 0);
  return self->n_diagnostics;
}

/**
 * winnow_rule_pack_name_matches:
 * @name: (nullable): a language, pack, category or rule name
 * @query: what the person searches for, case-folded
 *
 * The search's one test, for the pack list, the form and the samples alike.
 *
 * Returns: whether @name, case-folded, holds @query
 */
gboolean
winnow_rule_pack_name_matches (const char *name,
                               const char *query)
{
  g_autofree char *folded = name ? g_utf8_casefold (name, -1) : NULL;

  return folded != NULL && strstr (folded, query) != NULL;
}

/**
 * winnow_rule_pack_item_matches_itself:
 * @self: a #WinnowRulePackItem
 * @query: what the person searches for, case-folded
 *
 * Returns: whether the pack's own name or category holds @query, not only one of its rules'
 *   names (a language: its code)
 */
gboolean
winnow_rule_pack_item_matches_itself (WinnowRulePackItem *self,
                                      const char         *query)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), FALSE);
  g_return_val_if_fail (query != NULL, FALSE);

  if (self->pack == NULL)
    return winnow_rule_pack_name_matches (self->language, query);
  return winnow_rule_pack_name_matches (winnow_rule_pack_get_name (self->pack), query) ||
         winnow_rule_pack_name_matches (winnow_rule_pack_get_category (self->pack), query);
}

/**
 * winnow_rule_pack_item_matches:
 * @self: a #WinnowRulePackItem
 * @query: (nullable): what the person searches for, case-folded
 *
 * Returns: whether the pack's name, category or one of its rules' names holds @query; a
 *   language matches when one of its packs does
 */
gboolean
winnow_rule_pack_item_matches (WinnowRulePackItem *self,
                               const char         *query)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_ITEM (self), FALSE);

  if (query == NULL || query[0] == '\0')
    return TRUE;

  if (self->pack == NULL)
    {
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->children)); i++)
        {
          g_autoptr(WinnowRulePackItem) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

          if (winnow_rule_pack_item_matches (child, query))
            return TRUE;
        }
      return winnow_rule_pack_name_matches (self->language, query);
    }

  if (winnow_rule_pack_item_matches_itself (self, query))
    return TRUE;

  for (guint i = 0; i < winnow_rule_pack_get_n_rules (self->pack); i++)
    if (winnow_rule_pack_name_matches (winnow_rule_get_name (winnow_rule_pack_get_rule (self->pack, i)), query))
      return TRUE;

  return FALSE;
}
