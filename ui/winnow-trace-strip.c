/* winnow-trace-strip.c — the stages of an RTK run, as a strip of cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One card per stage, in the order the stages ran: its name, lines in → out, and the rules
 * that fired (or why nothing did). Selecting a card selects the stage, so the page showing
 * the input can mark the lines that stage removed. Used by the Preview and by the filter
 * editor's "Try it", over the engine's own GListModel of WinnowTraceStage. The strip hides
 * itself when there is nothing to show.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-trace-strip.h"

struct _WinnowTraceStrip
{
  GtkWidget           parent_instance;

  GtkSingleSelection *selection;

  GtkListView        *list;
};

G_DEFINE_FINAL_TYPE (WinnowTraceStrip, winnow_trace_strip, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_STAGES,
  PROP_SELECTED_STAGE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
stage_setup (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *lines = gtk_label_new (NULL);
  GtkWidget *rules = gtk_label_new (NULL);

  gtk_widget_add_css_class (box, "trace-stage");
  gtk_widget_add_css_class (name, "heading");
  gtk_widget_add_css_class (lines, "numeric");
  gtk_widget_add_css_class (rules, "dim-label");
  gtk_widget_add_css_class (rules, "caption");
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (lines), 0);
  gtk_label_set_xalign (GTK_LABEL (rules), 0);
  gtk_label_set_ellipsize (GTK_LABEL (rules), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (rules), 28);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), lines);
  gtk_box_append (GTK_BOX (box), rules);
  gtk_list_item_set_child (item, box);
}

static void
stage_bind (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  WinnowTraceStage *stage = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *lines = gtk_widget_get_next_sibling (name);
  GtkWidget *rules = gtk_widget_get_next_sibling (lines);
  g_autoptr(GString) fired = g_string_new (NULL);
  g_autofree char *counts = NULL;
  g_autofree char *accessible = NULL;
  guint n_hits = winnow_trace_stage_get_n_rule_hits (stage);

  for (guint i = 0; i < n_hits; i++)
    {
      const WinnowRuleHit *hit = winnow_trace_stage_get_rule_hit (stage, i);

      g_string_append_printf (fired, "%s%s ×%u", i ? ", " : "",
                              hit->rule ? hit->rule : hit->pattern, hit->count);
    }
  if (fired->len == 0 && winnow_trace_stage_get_note (stage) != NULL)
    g_string_append (fired, winnow_trace_stage_get_note (stage));
  if (fired->len == 0)
    g_string_append (fired, _("no rule fired"));

  /* Translators: lines going into and out of one stage of a filter */
  counts = g_strdup_printf (_("%u → %u lines"), winnow_trace_stage_get_lines_in (stage),
                            winnow_trace_stage_get_lines_out (stage));
  gtk_label_set_text (GTK_LABEL (name), winnow_trace_stage_get_name (stage));
  gtk_label_set_text (GTK_LABEL (lines), counts);
  gtk_label_set_text (GTK_LABEL (rules), fired->str);
  gtk_widget_set_tooltip_text (box, fired->str);

  accessible = g_strdup_printf ("%s: %s; %s", winnow_trace_stage_get_name (stage), counts,
                                fired->str);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible, -1);
}

static void
on_selected (WinnowTraceStrip *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SELECTED_STAGE]);
}

static void
winnow_trace_strip_dispose (GObject *object)
{
  WinnowTraceStrip *self = WINNOW_TRACE_STRIP (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_TRACE_STRIP);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);

  G_OBJECT_CLASS (winnow_trace_strip_parent_class)->dispose (object);
}

static void
winnow_trace_strip_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WinnowTraceStrip *self = WINNOW_TRACE_STRIP (object);

  switch (prop_id)
    {
    case PROP_STAGES:
      g_value_set_object (value, winnow_trace_strip_get_stages (self));
      break;

    case PROP_SELECTED_STAGE:
      g_value_set_object (value, winnow_trace_strip_get_selected_stage (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_trace_strip_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  WinnowTraceStrip *self = WINNOW_TRACE_STRIP (object);

  switch (prop_id)
    {
    case PROP_STAGES:
      winnow_trace_strip_set_stages (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_trace_strip_class_init (WinnowTraceStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_trace_strip_dispose;
  object_class->get_property = winnow_trace_strip_get_property;
  object_class->set_property = winnow_trace_strip_set_property;

  properties [PROP_STAGES] =
    g_param_spec_object ("stages", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_SELECTED_STAGE] =
    g_param_spec_object ("selected-stage", NULL, NULL,
                         WINNOW_TYPE_TRACE_STAGE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-trace-strip.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowTraceStrip, list);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
winnow_trace_strip_init (WinnowTraceStrip *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (stage_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (stage_bind), NULL);
  gtk_list_view_set_factory (self->list, factory);
  g_object_unref (factory);

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_list_view_set_model (self->list, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (on_selected), self,
                           G_CONNECT_SWAPPED);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
winnow_trace_strip_new (void)
{
  return g_object_new (WINNOW_TYPE_TRACE_STRIP, NULL);
}

/**
 * winnow_trace_strip_get_stages:
 * @self: a #WinnowTraceStrip
 *
 * Returns: (transfer none) (nullable): the stages shown
 */
GListModel *
winnow_trace_strip_get_stages (WinnowTraceStrip *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STRIP (self), NULL);
  return gtk_single_selection_get_model (self->selection);
}

/**
 * winnow_trace_strip_set_stages:
 * @self: a #WinnowTraceStrip
 * @stages: (nullable): a #GListModel of #WinnowTraceStage, as winnow_rtk_result_get_stages()
 *
 * Shows @stages, none selected; hides the strip when there are none.
 */
void
winnow_trace_strip_set_stages (WinnowTraceStrip *self,
                               GListModel       *stages)
{
  g_return_if_fail (WINNOW_IS_TRACE_STRIP (self));
  g_return_if_fail (stages == NULL || G_IS_LIST_MODEL (stages));

  if (gtk_single_selection_get_model (self->selection) == stages)
    return;

  gtk_single_selection_set_model (self->selection, stages);
  gtk_widget_set_visible (GTK_WIDGET (self),
                          stages != NULL && g_list_model_get_n_items (stages) > 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STAGES]);
}

/**
 * winnow_trace_strip_get_selected_stage:
 * @self: a #WinnowTraceStrip
 *
 * Returns: (transfer none) (nullable): the stage selected
 */
WinnowTraceStage *
winnow_trace_strip_get_selected_stage (WinnowTraceStrip *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACE_STRIP (self), NULL);
  return gtk_single_selection_get_selected_item (self->selection);
}

/**
 * winnow_trace_strip_select:
 * @self: a #WinnowTraceStrip
 * @position: a stage's position, or %GTK_INVALID_LIST_POSITION for none
 */
void
winnow_trace_strip_select (WinnowTraceStrip *self,
                           guint             position)
{
  g_return_if_fail (WINNOW_IS_TRACE_STRIP (self));
  gtk_single_selection_set_selected (self->selection, position);
}
