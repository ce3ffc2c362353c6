/* winnow-pipeline-steps.c — the steps of the stacked pipeline, for editing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per step of `stackedPipeline`: its engine and intensity as drop-downs, buttons to
 * move it up or down (reordering by keyboard and screen reader alike, which dragging is not)
 * and to remove it. Every change writes the whole array through
 * winnow_context_update_settings(), which validates it first; the rows are then read back
 * from the settings in force. A refused change emits ::failed with the reason and the rows
 * go back to what compression really uses.
 *
 * Rows are made and dropped only when the number of steps changes; otherwise they are
 * updated in place, so a drop-down is never destroyed by the change it just made.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-pipeline-steps.h"

typedef struct
{
  AdwActionRow *row;
  GtkDropDown  *engine;
  GtkDropDown  *intensity;
  GtkWidget    *up;
  GtkWidget    *down;
  guint         shown_engine;   /* whose intensities the intensity list holds */
} StepRow;

struct _WinnowPipelineSteps
{
  AdwPreferencesGroup  parent_instance;

  WinnowContext       *context;
  GArray              *steps;     /* StepRow, as shown */
  gboolean             syncing;
};

G_DEFINE_FINAL_TYPE (WinnowPipelineSteps, winnow_pipeline_steps, ADW_TYPE_PREFERENCES_GROUP)

enum {
  PROP_0,
  PROP_CONTEXT,
  N_PROPS
};

enum {
  FAILED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static const char * const rtk_values[] = { "minimal", "standard", "aggressive", NULL };
static const char * const caveman_values[] = { "lite", "full", "ultra", NULL };
static const char * const structure_values[] = { "lossless", "lossy", NULL };

/* the engines a step may use, and each one's intensities */
static const struct
{
  const char         *engine;
  const char         *label;
  const char * const *intensities;
  const char         *default_intensity;
} engines[] = {
  { "rtk", N_("Command output (RTK)"), rtk_values, "standard" },
  { "caveman", N_("Prose (Caveman)"), caveman_values, "full" },
  { "structure", N_("Structured text"), structure_values, "lossless" },
};

static const char *
intensity_label (const char *intensity)
{
  static const struct { const char *value; const char *label; } labels[] = {
    { "minimal", N_("Minimal") }, { "standard", N_("Standard") },
    { "aggressive", N_("Aggressive") }, { "lite", N_("Lite") }, { "full", N_("Full") },
    { "ultra", N_("Ultra") }, { "lossless", N_("Lossless") }, { "lossy", N_("Lossy") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (labels[i].value, intensity))
      return _(labels[i].label);
  return intensity;
}

static guint
index_of (const char * const *values,
          const char         *value)
{
  for (guint i = 0; values[i] != NULL; i++)
    if (g_strcmp0 (values[i], value) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static void sync_steps (WinnowPipelineSteps *self);

static void
apply_patch (WinnowPipelineSteps *self,
             JsonObject          *patch)
{
  g_autoptr(JsonObject) owned = patch;
  g_autoptr(GError) error = NULL;

  if (!winnow_context_update_settings (self->context, owned, &error))
    {
      g_signal_emit (self, signals [FAILED], 0, error->message);
      /* nothing changed: show what is in force, not what was refused */
      sync_steps (self);
    }
}

static guint
engine_index (const char *engine)
{
  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    if (g_strcmp0 (engines[i].engine, engine) == 0)
      return i;
  return 0;
}

static GListModel *
intensity_model (guint engine)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; engines[engine].intensities[i] != NULL; i++)
    gtk_string_list_append (list, intensity_label (engines[engine].intensities[i]));
  return G_LIST_MODEL (list);
}

/* The steps in force, as a JSON array to edit. */
static JsonArray *
dup_steps (WinnowPipelineSteps *self)
{
  WinnowConfig *config = winnow_context_get_config (self->context);
  JsonArray *steps = json_array_new ();

  for (guint i = 0; i < winnow_config_get_n_pipeline_steps (config); i++)
    {
      const WinnowPipelineStep *step = winnow_config_get_pipeline_step (config, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "engine", step->engine);
      json_object_set_string_member (object, "intensity", step->intensity);
      json_array_add_object_element (steps, object);
    }

  return steps;
}

static void
apply_steps (WinnowPipelineSteps *self,
             JsonArray           *steps)
{
  JsonObject *patch = json_object_new ();

  json_object_set_array_member (patch, "stackedPipeline", steps);
  apply_patch (self, patch);
}

static guint
step_index (WinnowPipelineSteps *self,
            GtkDropDown         *dropdown)
{
  for (guint i = 0; i < self->steps->len; i++)
    {
      StepRow *step = &g_array_index (self->steps, StepRow, i);

      if (step->engine == dropdown || step->intensity == dropdown)
        return i;
    }
  return G_MAXUINT;
}

static void
on_step_engine_changed (GtkDropDown         *dropdown,
                        GParamSpec          *pspec,
                        WinnowPipelineSteps *self)
{
  g_autoptr(JsonArray) steps = NULL;
  guint index = step_index (self, dropdown);
  guint engine = gtk_drop_down_get_selected (dropdown);
  JsonObject *step;

  if (self->syncing || index == G_MAXUINT || engine >= G_N_ELEMENTS (engines))
    return;

  steps = dup_steps (self);
  if (index >= json_array_get_length (steps))
    return;

  /* a new engine starts at its own default intensity */
  step = json_array_get_object_element (steps, index);
  json_object_set_string_member (step, "engine", engines[engine].engine);
  json_object_set_string_member (step, "intensity", engines[engine].default_intensity);
  apply_steps (self, g_steal_pointer (&steps));
}

static void
on_step_intensity_changed (GtkDropDown         *dropdown,
                           GParamSpec          *pspec,
                           WinnowPipelineSteps *self)
{
  g_autoptr(JsonArray) steps = NULL;
  guint index = step_index (self, dropdown);
  guint selected = gtk_drop_down_get_selected (dropdown);
  StepRow *row;

  if (self->syncing || index == G_MAXUINT)
    return;

  row = &g_array_index (self->steps, StepRow, index);
  if (selected >= g_strv_length ((char **) engines[row->shown_engine].intensities))
    return;

  steps = dup_steps (self);
  if (index >= json_array_get_length (steps))
    return;

  json_object_set_string_member (json_array_get_object_element (steps, index), "intensity",
                                 engines[row->shown_engine].intensities[selected]);
  apply_steps (self, g_steal_pointer (&steps));
}

static GtkWidget *
step_button (const char *icon,
             const char *tooltip,
             const char *action,
             guint       index)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", index);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

static void
add_step_row (WinnowPipelineSteps *self,
              guint                index)
{
  g_autoptr(GtkStringList) engine_names = gtk_string_list_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *engine_label = NULL;
  g_autofree char *intensity_label_text = NULL;
  StepRow step = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    gtk_string_list_append (engine_names, _(engines[i].label));

  step.row = ADW_ACTION_ROW (adw_action_row_new ());
  /* Translators: a step of the stacked pipeline; %u is its position (1, 2 …) */
  title = g_strdup_printf (_("Step %u"), index + 1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (step.row), title);

  step.engine = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (engine_names)),
                                                  NULL));
  gtk_widget_set_valign (GTK_WIDGET (step.engine), GTK_ALIGN_CENTER);
  /* Translators: %u is the position of a step in the stacked pipeline */
  engine_label = g_strdup_printf (_("Engine of step %u"), index + 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (step.engine),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, engine_label, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (step.engine), _("Engine"));

  step.shown_engine = 0;
  step.intensity = GTK_DROP_DOWN (gtk_drop_down_new (intensity_model (0), NULL));
  gtk_widget_set_valign (GTK_WIDGET (step.intensity), GTK_ALIGN_CENTER);
  /* Translators: %u is the position of a step in the stacked pipeline */
  intensity_label_text = g_strdup_printf (_("Intensity of step %u"), index + 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (step.intensity),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, intensity_label_text, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (step.intensity), _("Intensity"));

  step.up = step_button ("go-up-symbolic", _("Move Up"), "steps.move-up", index);
  step.down = step_button ("go-down-symbolic", _("Move Down"), "steps.move-down", index);

  adw_action_row_add_suffix (step.row, GTK_WIDGET (step.engine));
  adw_action_row_add_suffix (step.row, GTK_WIDGET (step.intensity));
  adw_action_row_add_suffix (step.row, step.up);
  adw_action_row_add_suffix (step.row, step.down);
  adw_action_row_add_suffix (step.row, step_button ("user-trash-symbolic", _("Remove Step"),
                                                    "steps.remove", index));

  g_signal_connect_object (step.engine, "notify::selected",
                           G_CALLBACK (on_step_engine_changed), self, 0);
  g_signal_connect_object (step.intensity, "notify::selected",
                           G_CALLBACK (on_step_intensity_changed), self, 0);

  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (step.row));
  g_array_append_val (self->steps, step);
}

/* Shows the steps in force. */
static void
sync_steps (WinnowPipelineSteps *self)
{
  WinnowConfig *config;
  guint n;

  if (self->context == NULL)
    return;

  config = winnow_context_get_config (self->context);
  n = winnow_config_get_n_pipeline_steps (config);
  self->syncing = TRUE;

  /* rows come and go only when the number of steps changes; otherwise they are updated in
   * place, so a drop-down is never destroyed under the pointer that just used it */
  if (self->steps->len != n)
    {
      for (guint i = 0; i < self->steps->len; i++)
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self),
                                      GTK_WIDGET (g_array_index (self->steps, StepRow, i).row));
      g_array_set_size (self->steps, 0);
      for (guint i = 0; i < n; i++)
        add_step_row (self, i);
    }

  for (guint i = 0; i < n; i++)
    {
      const WinnowPipelineStep *step = winnow_config_get_pipeline_step (config, i);
      StepRow *row = &g_array_index (self->steps, StepRow, i);
      guint engine = engine_index (step->engine);

      if (row->shown_engine != engine)
        {
          g_autoptr(GListModel) model = intensity_model (engine);

          gtk_drop_down_set_model (row->intensity, model);
          row->shown_engine = engine;
        }
      gtk_drop_down_set_selected (row->engine, engine);
      gtk_drop_down_set_selected (row->intensity,
                                  index_of (engines[engine].intensities, step->intensity));
      gtk_widget_set_sensitive (row->up, i > 0);
      gtk_widget_set_sensitive (row->down, i + 1 < n);
    }

  self->syncing = FALSE;

  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self),
                                         n == 0 ? _("No steps: the stacked mode leaves "
                                                    "everything as it is.")
                                                : _("The steps of the stacked mode, in the "
                                                    "order they run."));
}

static void
add_step_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  WinnowPipelineSteps *self = WINNOW_PIPELINE_STEPS (widget);
  JsonArray *steps;
  JsonObject *step = json_object_new ();
  guint n;
  gboolean after_rtk;

  if (self->context == NULL)
    return;

  steps = dup_steps (self);
  n = json_array_get_length (steps);
  /* prose after command output is the usual order (seed 001: rtk → caveman) */
  after_rtk = n > 0 &&
              g_strcmp0 (json_object_get_string_member (json_array_get_object_element (steps,
                                                                                        n - 1),
                                                        "engine"), "rtk") == 0;
  json_object_set_string_member (step, "engine", after_rtk ? "caveman" : "rtk");
  json_object_set_string_member (step, "intensity", after_rtk ? "full" : "standard");
  json_array_add_object_element (steps, step);
  apply_steps (self, steps);
}

static void
remove_step_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  WinnowPipelineSteps *self = WINNOW_PIPELINE_STEPS (widget);
  guint index = g_variant_get_uint32 (parameter);
  JsonArray *steps;

  if (self->context == NULL)
    return;

  steps = dup_steps (self);
  if (index < json_array_get_length (steps))
    json_array_remove_element (steps, index);
  apply_steps (self, steps);
}

static void
move_step (WinnowPipelineSteps *self,
           guint                from,
           guint                to)
{
  JsonArray *steps;
  JsonArray *moved;

  if (self->context == NULL)
    return;

  steps = dup_steps (self);
  if (from >= json_array_get_length (steps) || to >= json_array_get_length (steps))
    {
      json_array_unref (steps);
      return;
    }

  moved = json_array_new ();
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      guint source = i == to ? from : i == from ? to : i;

      json_array_add_element (moved, json_node_copy (json_array_get_element (steps, source)));
    }
  json_array_unref (steps);
  apply_steps (self, moved);
}

static void
move_step_up_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  guint index = g_variant_get_uint32 (parameter);

  if (index > 0)
    move_step (WINNOW_PIPELINE_STEPS (widget), index, index - 1);
}

static void
move_step_down_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  guint index = g_variant_get_uint32 (parameter);

  move_step (WINNOW_PIPELINE_STEPS (widget), index, index + 1);
}

static void
winnow_pipeline_steps_dispose (GObject *object)
{
  WinnowPipelineSteps *self = WINNOW_PIPELINE_STEPS (object);

  g_clear_object (&self->context);
  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_PIPELINE_STEPS);

  G_OBJECT_CLASS (winnow_pipeline_steps_parent_class)->dispose (object);
}

static void
winnow_pipeline_steps_finalize (GObject *object)
{
  WinnowPipelineSteps *self = WINNOW_PIPELINE_STEPS (object);

  g_clear_pointer (&self->steps, g_array_unref);

  G_OBJECT_CLASS (winnow_pipeline_steps_parent_class)->finalize (object);
}

static void
winnow_pipeline_steps_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  WinnowPipelineSteps *self = WINNOW_PIPELINE_STEPS (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_pipeline_steps_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  WinnowPipelineSteps *self = WINNOW_PIPELINE_STEPS (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      winnow_pipeline_steps_set_context (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_pipeline_steps_class_init (WinnowPipelineStepsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_pipeline_steps_dispose;
  object_class->finalize = winnow_pipeline_steps_finalize;
  object_class->get_property = winnow_pipeline_steps_get_property;
  object_class->set_property = winnow_pipeline_steps_set_property;

  properties [PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL,
                         WINNOW_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WinnowPipelineSteps::failed:
   * @self: a #WinnowPipelineSteps
   * @message: why, for people
   *
   * A change was refused (the settings file is not JSON, or cannot be written); the steps
   * shown are the ones still in force.
   */
  signals [FAILED] =
    g_signal_new ("failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-pipeline-steps.ui");

  gtk_widget_class_install_action (widget_class, "steps.add", NULL, add_step_action);
  gtk_widget_class_install_action (widget_class, "steps.remove", "u", remove_step_action);
  gtk_widget_class_install_action (widget_class, "steps.move-up", "u", move_step_up_action);
  gtk_widget_class_install_action (widget_class, "steps.move-down", "u", move_step_down_action);
}

static void
winnow_pipeline_steps_init (WinnowPipelineSteps *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->steps = g_array_new (FALSE, TRUE, sizeof (StepRow));
}

WinnowContext *
winnow_pipeline_steps_get_context (WinnowPipelineSteps *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE_STEPS (self), NULL);
  return self->context;
}

/**
 * winnow_pipeline_steps_set_context:
 * @self: a #WinnowPipelineSteps
 * @context: (nullable): the engine context whose steps are edited
 */
void
winnow_pipeline_steps_set_context (WinnowPipelineSteps *self,
                                   WinnowContext       *context)
{
  g_return_if_fail (WINNOW_IS_PIPELINE_STEPS (self));
  g_return_if_fail (context == NULL || WINNOW_IS_CONTEXT (context));

  if (self->context != NULL)
    g_signal_handlers_disconnect_by_func (self->context, sync_steps, self);
  if (!g_set_object (&self->context, context))
    return;

  if (context != NULL)
    g_signal_connect_object (context, "notify::config", G_CALLBACK (sync_steps), self,
                             G_CONNECT_SWAPPED);
  sync_steps (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONTEXT]);
}
