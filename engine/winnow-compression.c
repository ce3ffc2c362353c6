/* winnow-compression.c — one output compressed end to end, with its receipt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ties together what the detector saw, which filter was chosen and why, what the stages did,
 * and the token receipt, counted exactly in o200k_base by winnow_tokens_count(). Counting tokens
 * costs about as much as a fast filter, so the receipt is counted when first asked for (a plain
 * CLI run never does), once, and thread-safely.
 */

#define G_LOG_DOMAIN "winnow-compression"

#include "config.h"

#include "winnow-compression.h"
#include "winnow-tokens.h"

struct _WinnowCompression
{
  GObject          parent_instance;
  WinnowDetection *detection;
  WinnowSelection  selection;
  WinnowFilter    *filter;
  WinnowRtkResult *result;
  char            *input;          /* kept until the receipt is counted */
  gsize            input_length;
  gsize            tokens_before;
  gsize            tokens_after;
  gsize            counted;        /* g_once_init: receipt counted */
  gint64           duration_us;
};

G_DEFINE_FINAL_TYPE (WinnowCompression, winnow_compression, G_TYPE_OBJECT)

static void
winnow_compression_finalize (GObject *object)
{
  WinnowCompression *self = (WinnowCompression *)object;

  g_clear_object (&self->detection);
  g_clear_object (&self->filter);
  g_clear_object (&self->result);
  g_clear_pointer (&self->input, g_free);

  G_OBJECT_CLASS (winnow_compression_parent_class)->finalize (object);
}

static void
winnow_compression_class_init (WinnowCompressionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_compression_finalize;
}

static void
winnow_compression_init (WinnowCompression *self)
{
}

/* Takes ownership of @input, the original text, which the receipt is counted from. */
WinnowCompression *
_winnow_compression_new (WinnowDetection *detection,
                         WinnowSelection  selection,
                         WinnowFilter    *filter,
                         WinnowRtkResult *result,
                         char            *input,
                         gsize            input_length,
                         gint64           duration_us)
{
  WinnowCompression *self = g_object_new (WINNOW_TYPE_COMPRESSION, NULL);

  self->detection = g_object_ref (detection);
  self->selection = selection;
  self->filter = filter ? g_object_ref (filter) : NULL;
  self->result = g_object_ref (result);
  self->input = input;
  self->input_length = input_length;
  self->duration_us = duration_us;

  return self;
}

static void
count_receipt (WinnowCompression *self)
{
  if (g_once_init_enter (&self->counted))
    {
      gsize out_len;
      const char *out = winnow_rtk_result_get_text (self->result, &out_len);

      self->tokens_before = winnow_tokens_count (self->input, self->input_length);
      self->tokens_after = winnow_rtk_result_get_outcome (self->result) ==
                           WINNOW_RTK_OUTCOME_COMPRESSED
                           ? winnow_tokens_count (out, out_len) : self->tokens_before;
      g_once_init_leave (&self->counted, 1);
    }
}

/**
 * winnow_compression_get_text:
 * @self: a #WinnowCompression
 * @length: (out) (optional): its length in bytes
 *
 * Returns: the text to hand on: compressed, or the input when nothing was gained
 */
const char *
winnow_compression_get_text (WinnowCompression *self,
                             gsize             *length)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), NULL);
  return winnow_rtk_result_get_text (self->result, length);
}

/**
 * winnow_compression_get_detection:
 * @self: a #WinnowCompression
 *
 * Returns: (transfer none): what the detector made of the output
 */
WinnowDetection *
winnow_compression_get_detection (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), NULL);
  return self->detection;
}

WinnowSelection
winnow_compression_get_selection (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), WINNOW_SELECTION_NONE);
  return self->selection;
}

/**
 * winnow_compression_get_filter:
 * @self: a #WinnowCompression
 *
 * Returns: (transfer none) (nullable): the filter that ran
 */
WinnowFilter *
winnow_compression_get_filter (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), NULL);
  return self->filter;
}

/**
 * winnow_compression_get_rtk_result:
 * @self: a #WinnowCompression
 *
 * Returns: (transfer none): the stage runner's result and trace
 */
WinnowRtkResult *
winnow_compression_get_rtk_result (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), NULL);
  return self->result;
}

gboolean
winnow_compression_get_compressed (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), FALSE);
  return winnow_rtk_result_get_compressed (self->result);
}

gsize
winnow_compression_get_tokens_before (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), 0);

  count_receipt (self);
  return self->tokens_before;
}

gsize
winnow_compression_get_tokens_after (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), 0);

  count_receipt (self);
  return self->tokens_after;
}

/**
 * winnow_compression_get_saved_ratio:
 * @self: a #WinnowCompression
 *
 * Returns: the share of tokens saved, 0 to 1
 */
double
winnow_compression_get_saved_ratio (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), 0.0);

  count_receipt (self);
  if (self->tokens_before == 0 || self->tokens_after >= self->tokens_before)
    return 0.0;
  return 1.0 - (double) self->tokens_after / (double) self->tokens_before;
}

gint64
winnow_compression_get_duration_us (WinnowCompression *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPRESSION (self), 0);
  return self->duration_us;
}
