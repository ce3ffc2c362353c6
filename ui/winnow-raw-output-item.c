/* winnow-raw-output-item.c — one row of the Raw Output list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row exists before its data does: the list hands the view an empty item for a position it
 * has not read yet and fills it in place when the page of rows arrives. Filling in place (a
 * notify, not an items-changed) keeps the selection and the scroll position where they are
 * while the person scrolls through thousands of rows.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <json-glib/json-glib.h>

#include "winnow-raw-output-item.h"

struct _WinnowRawOutputItem
{
  GObject              parent_instance;

  WinnowRawOutputInfo *info;
  guint                n_redactions;
};

G_DEFINE_FINAL_TYPE (WinnowRawOutputItem, winnow_raw_output_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INFO,
  PROP_LOADED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* The store keeps the counts per kind (`{"github-token": 2, "aws-key": 1}`); the list shows
 * their sum. A malformed object counts as none rather than failing the row. */
static guint
count_redactions (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;
  g_autoptr(GList) members = NULL;
  guint total = 0;

  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return 0;

  object = json_node_get_object (json_parser_get_root (parser));
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (object, l->data);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
        total += (guint) CLAMP (json_node_get_int (node), 0, G_MAXUINT);
    }

  return total;
}

static void
winnow_raw_output_item_finalize (GObject *object)
{
  WinnowRawOutputItem *self = WINNOW_RAW_OUTPUT_ITEM (object);

  g_clear_pointer (&self->info, winnow_raw_output_info_free);

  G_OBJECT_CLASS (winnow_raw_output_item_parent_class)->finalize (object);
}

static void
winnow_raw_output_item_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  WinnowRawOutputItem *self = WINNOW_RAW_OUTPUT_ITEM (object);

  switch (prop_id)
    {
    case PROP_INFO:
      g_value_set_boxed (value, self->info);
      break;

    case PROP_LOADED:
      g_value_set_boolean (value, self->info != NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_raw_output_item_class_init (WinnowRawOutputItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_raw_output_item_finalize;
  object_class->get_property = winnow_raw_output_item_get_property;

  /**
   * WinnowRawOutputItem:info:
   *
   * The row as the store lists it, or %NULL while its page is still being read.
   */
  properties [PROP_INFO] =
    g_param_spec_boxed ("info", NULL, NULL,
                        WINNOW_TYPE_RAW_OUTPUT_INFO,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties [PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_raw_output_item_init (WinnowRawOutputItem *self)
{
}

/**
 * winnow_raw_output_item_new:
 * @info: (nullable): the row, or %NULL for one not read yet
 *
 * Returns: (transfer full): a new item holding a copy of @info
 */
WinnowRawOutputItem *
winnow_raw_output_item_new (const WinnowRawOutputInfo *info)
{
  WinnowRawOutputItem *self = g_object_new (WINNOW_TYPE_RAW_OUTPUT_ITEM, NULL);

  if (info != NULL)
    {
      self->info = winnow_raw_output_info_copy (info);
      self->n_redactions = count_redactions (info->redactions);
    }

  return self;
}

/**
 * winnow_raw_output_item_get_info:
 * @self: a #WinnowRawOutputItem
 *
 * Returns: (transfer none) (nullable): the row, %NULL while it is being read
 */
const WinnowRawOutputInfo *
winnow_raw_output_item_get_info (WinnowRawOutputItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_ITEM (self), NULL);
  return self->info;
}

/**
 * winnow_raw_output_item_set_info:
 * @self: a #WinnowRawOutputItem
 * @info: the row as the store lists it
 *
 * Fills in a row that was shown before it was read.
 */
void
winnow_raw_output_item_set_info (WinnowRawOutputItem       *self,
                                 const WinnowRawOutputInfo *info)
{
  gboolean was_loaded;

  g_return_if_fail (WINNOW_IS_RAW_OUTPUT_ITEM (self));
  g_return_if_fail (info != NULL);

  was_loaded = self->info != NULL;
  g_clear_pointer (&self->info, winnow_raw_output_info_free);
  self->info = winnow_raw_output_info_copy (info);
  self->n_redactions = count_redactions (info->redactions);

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_INFO]);
  if (!was_loaded)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOADED]);
}

gboolean
winnow_raw_output_item_get_loaded (WinnowRawOutputItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_ITEM (self), FALSE);
  return self->info != NULL;
}

/**
 * winnow_raw_output_item_get_n_redactions:
 * @self: a #WinnowRawOutputItem
 *
 * Returns: how many secrets were replaced by markers in the kept text
 */
guint
winnow_raw_output_item_get_n_redactions (WinnowRawOutputItem *self)
{
  g_return_val_if_fail (WINNOW_IS_RAW_OUTPUT_ITEM (self), 0);
  return self->n_redactions;
}
