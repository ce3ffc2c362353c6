/* winnow-rtk-result.c — the outcome of running a filter over some output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Immutable: built once by the stage runner (possibly on a worker thread) and then only read.
 * Besides the text it keeps the trace (a list model of WinnowTraceStage, for the dashboard's
 * stage strip) and, for every output line, the input line it came from (-1 for markers and
 * messages Winnow inserted), which is what lets a UI highlight removed and inserted lines.
 */

#define G_LOG_DOMAIN "winnow-rtk"

#include "config.h"

#include "winnow-rtk-private.h"

struct _WinnowRtkResult
{
  GObject           parent_instance;
  char             *text;
  gsize             length;
  WinnowRtkOutcome  outcome;
  char             *filter_id;
  gsize             bytes_in;
  guint             lines_in;
  guint             lines_out;
  GListStore       *stages;
  GArray           *origins;
  guint             budget_exceeded;
};

G_DEFINE_FINAL_TYPE (WinnowRtkResult, winnow_rtk_result, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TEXT,
  PROP_COMPRESSED,
  PROP_FILTER_ID,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

const char *
winnow_rtk_outcome_to_string (WinnowRtkOutcome outcome)
{
  switch (outcome)
    {
    case WINNOW_RTK_OUTCOME_COMPRESSED: return "compressed";
    case WINNOW_RTK_OUTCOME_UNCHANGED: return "unchanged";
    case WINNOW_RTK_OUTCOME_NOT_SHORTER: return "not-shorter";
    case WINNOW_RTK_OUTCOME_NOT_UTF8: return "not-utf8";
    case WINNOW_RTK_OUTCOME_EMPTY_INPUT: return "empty-input";
    default: return "unknown";
    }
}

static void
winnow_rtk_result_finalize (GObject *object)
{
  WinnowRtkResult *self = (WinnowRtkResult *)object;

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->filter_id, g_free);
  g_clear_object (&self->stages);
  g_clear_pointer (&self->origins, g_array_unref);

  G_OBJECT_CLASS (winnow_rtk_result_parent_class)->finalize (object);
}

static void
winnow_rtk_result_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  WinnowRtkResult *self = WINNOW_RTK_RESULT (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_COMPRESSED:
      g_value_set_boolean (value, self->outcome == WINNOW_RTK_OUTCOME_COMPRESSED);
      break;
    case PROP_FILTER_ID:
      g_value_set_string (value, self->filter_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_rtk_result_class_init (WinnowRtkResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_rtk_result_finalize;
  object_class->get_property = winnow_rtk_result_get_property;

  properties [PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_COMPRESSED] =
    g_param_spec_boolean ("compressed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_FILTER_ID] =
    g_param_spec_string ("filter-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_rtk_result_init (WinnowRtkResult *self)
{
}

/* Takes ownership of @text, @stages and @origins. */
WinnowRtkResult *
_winnow_rtk_result_new (char             *text,
                        gsize             length,
                        WinnowRtkOutcome  outcome,
                        const char       *filter_id,
                        gsize             bytes_in,
                        guint             lines_in,
                        guint             lines_out,
                        GListStore       *stages,
                        GArray           *origins,
                        guint             budget_exceeded)
{
  WinnowRtkResult *self = g_object_new (WINNOW_TYPE_RTK_RESULT, NULL);

  self->text = text;
  self->length = length;
  self->outcome = outcome;
  self->filter_id = g_strdup (filter_id);
  self->bytes_in = bytes_in;
  self->lines_in = lines_in;
  self->lines_out = lines_out;
  self->stages = stages ? stages : g_list_store_new (WINNOW_TYPE_TRACE_STAGE);
  self->origins = origins ? origins : g_array_new (FALSE, FALSE, sizeof (int));
  self->budget_exceeded = budget_exceeded;

  return self;
}

/**
 * winnow_rtk_result_get_text:
 * @self: a #WinnowRtkResult
 * @length: (out) (optional): its length in bytes
 *
 * Returns: the compressed text (the input itself when nothing was gained); nul-terminated
 */
const char *
winnow_rtk_result_get_text (WinnowRtkResult *self,
                            gsize           *length)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), NULL);

  if (length != NULL)
    *length = self->length;
  return self->text;
}

WinnowRtkOutcome
winnow_rtk_result_get_outcome (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), WINNOW_RTK_OUTCOME_UNCHANGED);
  return self->outcome;
}

gboolean
winnow_rtk_result_get_compressed (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), FALSE);
  return self->outcome == WINNOW_RTK_OUTCOME_COMPRESSED;
}

const char *
winnow_rtk_result_get_filter_id (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), NULL);
  return self->filter_id;
}

gsize
winnow_rtk_result_get_bytes_in (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), 0);
  return self->bytes_in;
}

gsize
winnow_rtk_result_get_bytes_out (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), 0);
  return self->length;
}

guint
winnow_rtk_result_get_lines_in (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), 0);
  return self->lines_in;
}

guint
winnow_rtk_result_get_lines_out (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), 0);
  return self->lines_out;
}

guint
winnow_rtk_result_get_n_stages (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->stages));
}

/**
 * winnow_rtk_result_get_stage:
 * @self: a #WinnowRtkResult
 * @index: a stage index
 *
 * Returns: (transfer none): the stage
 */
WinnowTraceStage *
winnow_rtk_result_get_stage (WinnowRtkResult *self,
                             guint            index)
{
  g_autoptr(WinnowTraceStage) stage = NULL;

  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), NULL);

  stage = g_list_model_get_item (G_LIST_MODEL (self->stages), index);
  return stage; /* the store keeps its own reference */
}

/**
 * winnow_rtk_result_get_stages:
 * @self: a #WinnowRtkResult
 *
 * Returns: (transfer none): a #GListModel of #WinnowTraceStage in the order they ran
 */
GListModel *
winnow_rtk_result_get_stages (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), NULL);
  return G_LIST_MODEL (self->stages);
}

/**
 * winnow_rtk_result_get_line_origins:
 * @self: a #WinnowRtkResult
 * @n_lines: (out): the number of output lines
 *
 * Returns: (array length=n_lines): for each output line, the 0-based input line it came from,
 *   or -1 for a line Winnow inserted (an omission marker or a message)
 */
const int *
winnow_rtk_result_get_line_origins (WinnowRtkResult *self,
                                    guint           *n_lines)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), NULL);
  g_return_val_if_fail (n_lines != NULL, NULL);

  *n_lines = self->origins->len;
  return (const int *) (gpointer) self->origins->data;
}

/**
 * winnow_rtk_result_get_budget_exceeded:
 * @self: a #WinnowRtkResult
 *
 * Returns: how many regex matches gave up on their work budget (a pattern with catastrophic
 *   backtracking); those lines were treated as not matching
 */
guint
winnow_rtk_result_get_budget_exceeded (WinnowRtkResult *self)
{
  g_return_val_if_fail (WINNOW_IS_RTK_RESULT (self), 0);
  return self->budget_exceeded;
}
