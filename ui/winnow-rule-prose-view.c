/* winnow-rule-prose-view.c — trying a rule pack on prose the person types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Samples prove what a rule was written for; prose the person pastes shows what else it
 * catches. The prose on the left, what the pack alone makes of it on the right, the
 * technical tokens Caveman holds out highlighted on both sides (a rule can never touch them,
 * which explains many a "why did it not fire"), and below, each rule that fired and how often.
 * The view only collects input and shows results; the page runs the pack in its check.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-a11y.h"
#include "winnow-rule-prose-view.h"

struct _WinnowRuleProseView
{
  GtkWidget    parent_instance;

  char        *firings;

  /* template children */
  GtkDropDown *intensity_dropdown;
  GtkDropDown *role_dropdown;
  GtkLabel    *stats_label;
  GtkTextView *input_view;
  GtkTextView *output_view;
  GtkLabel    *firings_label;
};

G_DEFINE_FINAL_TYPE (WinnowRuleProseView, winnow_rule_prose_view, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* the drop-down's order: the user, the assistant, the system */
static const WinnowMessageRole roles[] = {
  WINNOW_MESSAGE_ROLE_USER, WINNOW_MESSAGE_ROLE_ASSISTANT, WINNOW_MESSAGE_ROLE_SYSTEM,
};

static void
emit_changed (WinnowRuleProseView *self)
{
  g_signal_emit (self, signals [CHANGED], 0);
}

/* What a protected span of @kind is, for the tooltip over it. */
static const char *
describe_kind (WinnowProtectKind kind)
{
  switch (kind)
    {
    case WINNOW_PROTECT_FENCE: return _("a fenced code block");
    case WINNOW_PROTECT_INDENTED_CODE: return _("an indented code block");
    case WINNOW_PROTECT_INLINE_CODE: return _("inline code");
    case WINNOW_PROTECT_URL: return _("a URL");
    case WINNOW_PROTECT_EMAIL: return _("an e-mail address");
    case WINNOW_PROTECT_PATH: return _("a path");
    case WINNOW_PROTECT_VERSION: return _("a version");
    case WINNOW_PROTECT_DATE: return _("a date");
    case WINNOW_PROTECT_NUMBER: return _("a number");
    case WINNOW_PROTECT_IDENTIFIER: return _("an identifier");
    case WINNOW_PROTECT_HEADING: return _("a heading");
    case WINNOW_PROTECT_TABLE: return _("a table");
    case WINNOW_PROTECT_COMMAND: return _("a command");
    case WINNOW_PROTECT_BRANCH: return _("a branch name");
    case WINNOW_PROTECT_STRUCTURED: return _("structured data (JSON, YAML, TOML, XML or CSV)");
    case WINNOW_PROTECT_ERROR_LINE: return _("an error line");
    case WINNOW_PROTECT_STACK_FRAME: return _("a stack frame");
    case WINNOW_PROTECT_CODE: return _("code or a tool’s output");
    default: return NULL;
    }
}

/* Each span gets the highlight ("protected") and a tag naming its kind ("protected:url"),
 * which the tooltip reads. */
static void
tag_protected (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  g_autofree char *text = NULL;
  g_autoptr(GArray) spans = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, "protected", &start, &end);
  for (guint k = 0; k < WINNOW_PROTECT_N_KINDS; k++)
    {
      g_autofree char *name = g_strconcat ("protected:", winnow_protect_kind_to_string (k), NULL);

      if (gtk_text_tag_table_lookup (table, name) == NULL)
        gtk_text_buffer_create_tag (buffer, name, NULL);
      else
        gtk_text_buffer_remove_tag_by_name (buffer, name, &start, &end);
    }
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  spans = winnow_protect_scan (text, -1);

  for (guint i = 0; i < spans->len; i++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);
      g_autofree char *name = g_strconcat ("protected:", winnow_protect_kind_to_string (span->kind),
                                           NULL);
      GtkTextIter from, to;

      /* spans are byte offsets; the buffer counts characters */
      gtk_text_buffer_get_iter_at_offset (buffer, &from,
                                          g_utf8_pointer_to_offset (text, text + span->start));
      gtk_text_buffer_get_iter_at_offset (buffer, &to,
                                          g_utf8_pointer_to_offset (text, text + span->end));
      gtk_text_buffer_apply_tag_by_name (buffer, "protected", &from, &to);
      gtk_text_buffer_apply_tag_by_name (buffer, name, &from, &to);
    }
}

/* "Kept as written: a URL" for a character of a protected span, else NULL. */
static char *
describe_protected_at (const GtkTextIter *iter)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (gtk_text_iter_get_buffer (iter));

  for (guint k = 0; k < WINNOW_PROTECT_N_KINDS; k++)
    {
      g_autofree char *name = g_strconcat ("protected:", winnow_protect_kind_to_string (k), NULL);
      GtkTextTag *tag = gtk_text_tag_table_lookup (table, name);

      if (tag != NULL && gtk_text_iter_has_tag (iter, tag) && describe_kind (k) != NULL)
        /* Translators: the tooltip over a highlighted technical token in the prose preview;
         * %s is what it is ("a URL", "inline code", "code or a tool's output") */
        return g_strdup_printf (_("Kept as written: %s"), describe_kind (k));
    }
  return NULL;
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  GtkTextView *view = GTK_TEXT_VIEW (widget);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  g_autofree char *text = NULL;
  GtkTextIter iter;
  int bx, by;

  if (keyboard)
    gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  else
    {
      gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
      if (!gtk_text_view_get_iter_at_location (view, &iter, bx, by))
        return FALSE;
    }

  text = describe_protected_at (&iter);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_input_changed (WinnowRuleProseView *self)
{
  tag_protected (self->input_view);
  emit_changed (self);
}

static void
winnow_rule_prose_view_dispose (GObject *object)
{
  WinnowRuleProseView *self = WINNOW_RULE_PROSE_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_RULE_PROSE_VIEW);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->firings, g_free);

  G_OBJECT_CLASS (winnow_rule_prose_view_parent_class)->dispose (object);
}

static void
winnow_rule_prose_view_class_init (WinnowRuleProseViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_rule_prose_view_dispose;

  /**
   * WinnowRuleProseView::changed:
   *
   * The prose, the intensity or the role changed: the result on screen is stale.
   */
  signals [CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-rule-prose-view.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleProseView, intensity_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleProseView, role_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleProseView, stats_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleProseView, input_view);
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleProseView, output_view);
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleProseView, firings_label);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
winnow_rule_prose_view_init (WinnowRuleProseView *self)
{
  GtkTextBuffer *input;
  GtkTextBuffer *output;

  gtk_widget_init_template (GTK_WIDGET (self));
  winnow_a11y_name_drop_down (self->intensity_dropdown);
  winnow_a11y_name_drop_down (self->role_dropdown);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  /* the libadwaita palette's blue, translucent so it reads on light and dark alike */
  input = gtk_text_view_get_buffer (self->input_view);
  output = gtk_text_view_get_buffer (self->output_view);
  gtk_text_buffer_create_tag (input, "protected", "background", "rgba(53, 132, 228, 0.22)", NULL);
  gtk_text_buffer_create_tag (output, "protected", "background", "rgba(53, 132, 228, 0.22)", NULL);

  g_signal_connect_object (input, "changed", G_CALLBACK (on_input_changed), self,
                           G_CONNECT_SWAPPED);
  /* hovering a highlighted token says what it is: why a rule left it alone */
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->input_view), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->output_view), TRUE);
  g_signal_connect (self->input_view, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect (self->output_view, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_object (self->intensity_dropdown, "notify::selected",
                           G_CALLBACK (emit_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->role_dropdown, "notify::selected",
                           G_CALLBACK (emit_changed), self, G_CONNECT_SWAPPED);

  gtk_label_set_text (self->firings_label,
                      _("Type or paste prose on the left. Highlighted: technical tokens no rule "
                        "may touch; point at one to see what it is."));
}

char *
winnow_rule_prose_view_dup_text (WinnowRuleProseView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self), NULL);

  buffer = gtk_text_view_get_buffer (self->input_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
winnow_rule_prose_view_set_text (WinnowRuleProseView *self,
                                 const char          *text)
{
  g_return_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self));
  g_return_if_fail (text != NULL);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->input_view), text, -1);
}

WinnowCavemanIntensity
winnow_rule_prose_view_get_intensity (WinnowRuleProseView *self)
{
  guint selected;

  g_return_val_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self), WINNOW_CAVEMAN_INTENSITY_FULL);

  selected = gtk_drop_down_get_selected (self->intensity_dropdown);
  return selected <= WINNOW_CAVEMAN_INTENSITY_ULTRA ? selected : WINNOW_CAVEMAN_INTENSITY_FULL;
}

WinnowMessageRole
winnow_rule_prose_view_get_role (WinnowRuleProseView *self)
{
  guint selected;

  g_return_val_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self), WINNOW_MESSAGE_ROLE_USER);

  selected = gtk_drop_down_get_selected (self->role_dropdown);
  return selected < G_N_ELEMENTS (roles) ? roles[selected] : WINNOW_MESSAGE_ROLE_USER;
}

/* "phatic_sentences ×3 · hedges ×1", most frequent first; rules that never fired are counted,
 * not named, so a pack of fifty rules does not bury the few that matter. */
static char *
describe_firings (WinnowCavemanResult *result,
                  WinnowRulePack      *pack)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *out = g_string_new (NULL);
  guint n_rules = pack ? winnow_rule_pack_get_n_rules (pack) : 0;
  guint n_silent;

  for (guint i = 0; i < winnow_caveman_result_get_n_firings (result); i++)
    {
      const WinnowCavemanFiring *firing = winnow_caveman_result_get_firing (result, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, firing->rule));

      if (count == 0)
        g_ptr_array_add (names, (gpointer) firing->rule);
      g_hash_table_insert (counts, (gpointer) firing->rule,
                           GUINT_TO_POINTER (count + firing->count));
    }

  for (guint i = 1; i < names->len; i++)
    for (guint k = i; k > 0; k--)
      {
        guint a = GPOINTER_TO_UINT (g_hash_table_lookup (counts, names->pdata[k - 1]));
        guint b = GPOINTER_TO_UINT (g_hash_table_lookup (counts, names->pdata[k]));
        gpointer tmp;

        if (a >= b)
          break;
        tmp = names->pdata[k - 1];
        names->pdata[k - 1] = names->pdata[k];
        names->pdata[k] = tmp;
      }

  if (names->len == 0)
    g_string_append (out, _("No rule fired on this text."));
  else
    g_string_append (out, _("Fired: "));

  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (out, "%s%s ×%u", i ? " · " : "", (const char *) names->pdata[i],
                            GPOINTER_TO_UINT (g_hash_table_lookup (counts, names->pdata[i])));

  n_silent = n_rules > names->len ? n_rules - names->len : 0;
  if (names->len > 0 && n_silent > 0)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, " (%u other rule did not fire)",
                                              " (%u other rules did not fire)", n_silent),
                            n_silent);

  return g_string_free (out, FALSE);
}

/**
 * winnow_rule_prose_view_show_result:
 * @self: a #WinnowRuleProseView
 * @result: (nullable): the pack's result on the prose, %NULL when there is none
 * @pack: (nullable): the pack that ran
 */
void
winnow_rule_prose_view_show_result (WinnowRuleProseView *self,
                                    WinnowCavemanResult *result,
                                    WinnowRulePack      *pack)
{
  GtkTextBuffer *output;

  g_return_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self));
  g_return_if_fail (result == NULL || WINNOW_IS_CAVEMAN_RESULT (result));

  output = gtk_text_view_get_buffer (self->output_view);
  g_clear_pointer (&self->firings, g_free);

  if (result == NULL)
    {
      gtk_text_buffer_set_text (output, "", 0);
      gtk_label_set_text (self->stats_label, "");
      gtk_label_set_text (self->firings_label,
                          _("Type or paste prose on the left. Highlighted: technical tokens no "
                            "rule may touch; point at one to see what it is."));
      return;
    }

  gtk_text_buffer_set_text (output, winnow_caveman_result_get_text (result, NULL), -1);
  tag_protected (self->output_view);

  {
    guint n_protected = winnow_caveman_result_get_n_protected (result);
    guint n_replaced = winnow_caveman_result_get_n_replaced (result);
    g_autofree char *stats = NULL;
    g_autofree char *replaced = NULL;
    g_autofree char *protected = NULL;

    replaced = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u replacement",
                                             "%u replacements", n_replaced), n_replaced);
    protected = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u protected token",
                                              "%u protected tokens", n_protected), n_protected);
    stats = g_strconcat (replaced, " · ", protected, NULL);
    gtk_label_set_text (self->stats_label, stats);
  }

  self->firings = describe_firings (result, pack);
  gtk_label_set_text (self->firings_label, self->firings);
}

char *
winnow_rule_prose_view_dup_output (WinnowRuleProseView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self), NULL);

  buffer = gtk_text_view_get_buffer (self->output_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * winnow_rule_prose_view_get_firings:
 * @self: a #WinnowRuleProseView
 *
 * Returns: (nullable): the line saying which rules fired how often
 */
const char *
winnow_rule_prose_view_get_firings (WinnowRuleProseView *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self), NULL);
  return self->firings;
}

/**
 * winnow_rule_prose_view_dup_protected_at:
 * @self: a #WinnowRuleProseView
 * @output: the result's side rather than the prose typed
 * @offset: a character offset in that text
 *
 * Returns: (transfer full) (nullable): the tooltip over the character at @offset ("Kept as
 *   written: a URL"), or %NULL where nothing is protected
 */
char *
winnow_rule_prose_view_dup_protected_at (WinnowRuleProseView *self,
                                         gboolean             output,
                                         int                  offset)
{
  GtkTextIter iter;

  g_return_val_if_fail (WINNOW_IS_RULE_PROSE_VIEW (self), NULL);

  gtk_text_buffer_get_iter_at_offset (gtk_text_view_get_buffer (output ? self->output_view
                                                                       : self->input_view),
                                      &iter, offset);
  return describe_protected_at (&iter);
}
