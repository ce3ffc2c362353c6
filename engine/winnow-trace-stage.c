/* winnow-trace-stage.c — what one stage of a filter did to the text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stage records lines in and out, the rules that fired with their counts, and which input
 * lines (by 0-based index in the original text) it removed, so the dashboard can highlight
 * exactly what a stage took away.
 */

#define G_LOG_DOMAIN "winnow-trace"

#include "config.h"

#include "winnow-rtk-private.h"
#include "winnow-trace-stage.h"

struct _WinnowTraceStage
{
  GObject    parent_instance;
  char      *name;
  char      *note;
  guint      lines_in;
  guint      lines_out;
  GPtrArray *hits;     /* WinnowRuleHit */
  GArray    *removed;  /* guint */
};

G_DEFINE_FINAL_TYPE (WinnowTraceStage, winnow_trace_stage, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (WinnowRuleHit, winnow_rule_hit, winnow_rule_hit_copy, winnow_rule_hit_free)

enum {
  PROP_0,
  PROP_NAME,
  PROP_LINES_IN,
  PROP_LINES_OUT,
  PROP_NOTE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

WinnowRuleHit *
winnow_rule_hit_copy (const WinnowRuleHit *hit)
{
  WinnowRuleHit *copy = g_new0 (WinnowRuleHit, 1);

  copy->rule = g_strdup (hit->rule);
  copy->pattern = g_strdup (hit->pattern);
  copy->count = hit->count;

  return copy;
}

void
winnow_rule_hit_free (WinnowRuleHit *hit)
{
  if (hit == NULL)
    return;

  g_free (hit->rule);
  g_free (hit->pattern);
  g_free (hit);
}

static void
winnow_trace_stage_finalize (GObject *object)
{
  WinnowTraceStage *self = (WinnowTraceStage *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->note, g_free);
  g_clear_pointer (&self->hits, g_ptr_array_unref);
  g_clear_pointer (&self->removed, g_array_unref);

  G_OBJECT_CLASS (winnow_trace_stage_parent_class)->finalize (object);
}

static void
winnow_trace_stage_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WinnowTraceStage *self = WINNOW_TRACE_STAGE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_LINES_IN:
      g_value_set_uint (value, self->lines_in);
      break;
    case PROP_LINES_OUT:
      g_value_set_uint (value, self->lines_out);
      break;
    case PROP_NOTE:
      g_value_set_string (value, self->note);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_trace_stage_class_init (WinnowTraceStageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_trace_stage_finalize;
  object_class->get_property = winnow_trace_stage_get_property;

  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_LINES_IN] =
    g_param_spec_uint ("lines-in", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_LINES_OUT] =
    g_param_spec_uint ("lines-out", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_NOTE] =
    g_param_spec_string ("note", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_trace_stage_init (WinnowTraceStage *self)
{
  self->hits = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_rule_hit_free);
  self->removed = g_array_new (FALSE, FALSE, sizeof (guint));
}

WinnowTraceStage *
_winnow_trace_stage_new (const char *name,
                         guint       lines_in)
{
  WinnowTraceStage *self = g_object_new (WINNOW_TYPE_TRACE_STAGE, NULL);

  self->name = g_strdup (name);
  self->lines_in = lines_in;
  self->lines_out = lines_in;

  return self;
}

void
_winnow_trace_stage_finish (WinnowTraceStage *self,
                            guint             lines_out)
{
  self->lines_out = lines_out;
}

void
_winnow_trace_stage_set_note (WinnowTraceStage *self,
                              const char       *note)
{
  g_free (self->note);
  self->note = g_strdup (note);
}

void
_winnow_trace_stage_add_hits (WinnowTraceStage *self,
                              const char       *rule,
                              const char       *pattern,
                              guint             count)
{
  WinnowRuleHit *hit;

  if (count == 0)
    return;

  hit = g_new0 (WinnowRuleHit, 1);
  hit->rule = g_strdup (rule);
  hit->pattern = g_strdup (pattern);
  hit->count = count;
  g_ptr_array_add (self->hits, hit);
}

/* Copies the input-line indices a stage removed, in one go. */
void
_winnow_trace_stage_set_removed (WinnowTraceStage *self,
                                 const guint      *origins,
                                 guint             n_origins)
{
  g_array_set_size (self->removed, 0);
  if (n_origins > 0)
    g_array_append_vals (self->removed, origins, n_origins);
}

const char *
winnow_trace_stage_get_name (WinnowTraceStage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STAGE (self), NULL);
  return self->name;
}

guint
winnow_trace_stage_get_lines_in (WinnowTraceStage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STAGE (self), 0);
  return self->lines_in;
}

guint
winnow_trace_stage_get_lines_out (WinnowTraceStage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STAGE (self), 0);
  return self->lines_out;
}

const char *
winnow_trace_stage_get_note (WinnowTraceStage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STAGE (self), NULL);
  return self->note;
}

guint
winnow_trace_stage_get_n_rule_hits (WinnowTraceStage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STAGE (self), 0);
  return self->hits->len;
}

const WinnowRuleHit *
winnow_trace_stage_get_rule_hit (WinnowTraceStage *self,
                                 guint             index)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STAGE (self), NULL);
  g_return_val_if_fail (index < self->hits->len, NULL);
  return g_ptr_array_index (self->hits, index);
}

/**
 * winnow_trace_stage_get_removed_lines:
 * @self: a #WinnowTraceStage
 * @n_removed: (out): the number of entries
 *
 * Returns: (array length=n_removed): 0-based indices of the input lines this stage removed
 */
const guint *
winnow_trace_stage_get_removed_lines (WinnowTraceStage *self,
                                      guint            *n_removed)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STAGE (self), NULL);
  g_return_val_if_fail (n_removed != NULL, NULL);

  *n_removed = self->removed->len;
  return (const guint *) (gpointer) self->removed->data;
}
