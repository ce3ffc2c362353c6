/* winnow-receipt.c — tokens before and after one compression, and who counted them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The receipt is what every savings figure — CLI, API, charts — is built from: tokens before,
 * tokens after, tokens saved, the saved share, the intensity used and the name of the counter
 * (winnow_tokens_counter_name()), so a figure always says how it was counted. The fields are
 * those of the prose contract (seed 004): tokens_before, tokens_after, saved_tokens,
 * saved_ratio, compression_intensity.
 */

#define G_LOG_DOMAIN "winnow-receipt"

#include "config.h"

#include "winnow-receipt.h"
#include "winnow-tokens.h"

struct _WinnowReceipt
{
  GObject  parent_instance;
  char    *engine;
  char    *intensity;
  gsize    tokens_before;
  gsize    tokens_after;
};

G_DEFINE_FINAL_TYPE (WinnowReceipt, winnow_receipt, G_TYPE_OBJECT)

static void
winnow_receipt_finalize (GObject *object)
{
  WinnowReceipt *self = (WinnowReceipt *)object;

  g_clear_pointer (&self->engine, g_free);
  g_clear_pointer (&self->intensity, g_free);

  G_OBJECT_CLASS (winnow_receipt_parent_class)->finalize (object);
}

static void
winnow_receipt_class_init (WinnowReceiptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_receipt_finalize;
}

static void
winnow_receipt_init (WinnowReceipt *self)
{
}

/**
 * winnow_receipt_new:
 * @engine: what compressed: "rtk", "caveman", "structure", "pipeline"…
 * @intensity: (nullable): the intensity it ran at
 * @tokens_before: tokens of the input
 * @tokens_after: tokens of the output
 *
 * Returns: (transfer full): a new #WinnowReceipt
 */
WinnowReceipt *
winnow_receipt_new (const char *engine,
                    const char *intensity,
                    gsize       tokens_before,
                    gsize       tokens_after)
{
  WinnowReceipt *self = g_object_new (WINNOW_TYPE_RECEIPT, NULL);

  self->engine = g_strdup (engine);
  self->intensity = g_strdup (intensity);
  self->tokens_before = tokens_before;
  self->tokens_after = tokens_after;

  return self;
}

/**
 * winnow_receipt_new_for_texts:
 * @engine: what compressed
 * @intensity: (nullable): the intensity it ran at
 * @before: the input
 * @before_length: its length, or -1 if nul-terminated
 * @after: the output
 * @after_length: its length, or -1 if nul-terminated
 *
 * Counts both texts with winnow_tokens_count().
 *
 * Returns: (transfer full): a new #WinnowReceipt
 */
WinnowReceipt *
winnow_receipt_new_for_texts (const char *engine,
                              const char *intensity,
                              const char *before,
                              gssize      before_length,
                              const char *after,
                              gssize      after_length)
{
  return winnow_receipt_new (engine, intensity, winnow_tokens_count (before, before_length),
                             winnow_tokens_count (after, after_length));
}

const char *
winnow_receipt_get_engine (WinnowReceipt *self)
{
  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), NULL);
  return self->engine;
}

/**
 * winnow_receipt_get_intensity:
 * @self: a #WinnowReceipt
 *
 * Returns: (nullable): the intensity the engine ran at
 */
const char *
winnow_receipt_get_intensity (WinnowReceipt *self)
{
  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), NULL);
  return self->intensity;
}

gsize
winnow_receipt_get_tokens_before (WinnowReceipt *self)
{
  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), 0);
  return self->tokens_before;
}

gsize
winnow_receipt_get_tokens_after (WinnowReceipt *self)
{
  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), 0);
  return self->tokens_after;
}

/**
 * winnow_receipt_get_saved_tokens:
 * @self: a #WinnowReceipt
 *
 * Returns: tokens before minus tokens after; 0 when the output is not smaller
 */
gsize
winnow_receipt_get_saved_tokens (WinnowReceipt *self)
{
  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), 0);
  return self->tokens_before > self->tokens_after ? self->tokens_before - self->tokens_after : 0;
}

/**
 * winnow_receipt_get_saved_ratio:
 * @self: a #WinnowReceipt
 *
 * Returns: the saved share of the tokens before, from 0 to 1
 */
double
winnow_receipt_get_saved_ratio (WinnowReceipt *self)
{
  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), 0);

  if (self->tokens_before == 0)
    return 0;

  return (double) winnow_receipt_get_saved_tokens (self) / self->tokens_before;
}

/**
 * winnow_receipt_get_counter:
 * @self: a #WinnowReceipt
 *
 * Returns: the name of the token counter the figures come from
 */
const char *
winnow_receipt_get_counter (WinnowReceipt *self)
{
  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), NULL);
  return winnow_tokens_counter_name ();
}

/**
 * winnow_receipt_to_json_node:
 * @self: a #WinnowReceipt
 *
 * Returns: (transfer full): `{tokens_before, tokens_after, saved_tokens, saved_ratio,
 *   compression_intensity, engine, counter}`
 */
JsonNode *
winnow_receipt_to_json_node (WinnowReceipt *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();

  g_return_val_if_fail (WINNOW_IS_RECEIPT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tokens_before");
  json_builder_add_int_value (builder, self->tokens_before);
  json_builder_set_member_name (builder, "tokens_after");
  json_builder_add_int_value (builder, self->tokens_after);
  json_builder_set_member_name (builder, "saved_tokens");
  json_builder_add_int_value (builder, winnow_receipt_get_saved_tokens (self));
  json_builder_set_member_name (builder, "saved_ratio");
  json_builder_add_double_value (builder,
                                 (double) (gint64) (winnow_receipt_get_saved_ratio (self) * 10000)
                                 / 10000);
  json_builder_set_member_name (builder, "compression_intensity");
  if (self->intensity != NULL)
    json_builder_add_string_value (builder, self->intensity);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "engine");
  json_builder_add_string_value (builder, self->engine);
  json_builder_set_member_name (builder, "counter");
  json_builder_add_string_value (builder, winnow_tokens_counter_name ());
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
