/* winnow-rule-row.c — one Caveman rule as a form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An expander row per rule: its name and minimum intensity when folded, every field of the
 * rule's JSON object when unfolded. The form is a list view (winnow-rule-pack-editor.c), so a
 * row shows one rule after another as the list scrolls: winnow_rule_row_bind() fills it from
 * the rule's JSON object and its WinnowRuleItem, which keeps what outlives the row (whether
 * it is unfolded, the engine's error). The fields (winnow-rule-fields.ui) are built the first
 * time the row unfolds and refilled for each rule after that.
 *
 * The row never holds a rule of its own: it is filled from the JSON object and reports each
 * edit as "member-changed" (member, new JSON value or %NULL to drop the member), which the
 * page writes into the pack's text. A member the rule does not have shows empty; the
 * engine's error about the rule (a pattern that does not compile, a bad flag) is shown under
 * the pattern, and as an icon on the folded row.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-rule-pack-document.h"
#include "winnow-rule-row.h"

struct _WinnowRuleRow
{
  AdwExpanderRow  parent_instance;

  WinnowRuleItem *item;           /* the rule shown, while bound */
  guint           index;
  gboolean        loading;
  gboolean        editable;
  char           *error;
  JsonObject     *rule;           /* what the fields are filled from */

  /* template children */
  GtkLabel       *intensity_badge;
  GtkImage       *error_icon;

  /* the fields, once built */
  AdwEntryRow    *name_row;
  AdwEntryRow    *pattern_row;
  GtkWidget      *error_row;
  GtkLabel       *error_label;
  AdwEntryRow    *flags_row;
  AdwEntryRow    *replacement_row;
  GtkButton      *add_entry_button;
  GtkGrid        *map_grid;
  AdwComboRow    *context_row;
  AdwComboRow    *intensity_row;
  AdwEntryRow    *description_row;
};

G_DEFINE_FINAL_TYPE (WinnowRuleRow, winnow_rule_row, ADW_TYPE_EXPANDER_ROW)

enum {
  MEMBER_CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static const char * const contexts[] = { "all", "user", "assistant", "system", NULL };
static const char * const intensities[] = { "lite", "full", "ultra", NULL };

static void
emit_string (WinnowRuleRow *self,
             const char    *member,
             const char    *value)
{
  g_autoptr(JsonNode) node = NULL;

  if (self->loading)
    return;

  if (value != NULL)
    node = json_node_init_string (json_node_alloc (), value);
  g_signal_emit (self, signals [MEMBER_CHANGED], 0, member, node);
}

static guint
choice (JsonObject         *rule,
        const char         *member,
        const char * const *names,
        guint               fallback)
{
  const char *value = json_object_get_string_member_with_default (rule, member, NULL);

  for (guint i = 0; value != NULL && names[i] != NULL; i++)
    if (g_str_equal (names[i], value))
      return i;

  return fallback;
}

/* A description can run to a paragraph, and a pack to hundreds of rules: wrapping every one
 * under its folded row made opening the largest pack take seconds. The folded row shows the
 * first sentence, cut at a word near SUMMARY_CHARS, on one line (see one_line_subtitle());
 * the whole text is the Description field. */
#define SUMMARY_CHARS 100

static char *
first_sentence (const char *description)
{
  const char *end = description;
  const char *last_space = NULL;
  glong n = 0;

  for (; *end != '\0' && *end != '\n'; end = g_utf8_next_char (end), n++)
    {
      if (*end == '.' && (end[1] == ' ' || end[1] == '\0'))
        return g_strndup (description, end + 1 - description);
      if ((*end == ':' || *end == ';') && end[1] == ' ')
        {
          g_autofree char *head = g_strndup (description, end - description);

          return g_strconcat (head, "…", NULL);
        }
      if (*end == ' ')
        last_space = end;
      if (n == SUMMARY_CHARS)
        {
          const char *cut = last_space != NULL ? last_space : end;
          g_autofree char *head = g_strndup (description, cut - description);

          return g_strconcat (head, "…", NULL);
        }
    }

  return g_strndup (description, end - description);
}

/* The folded row: from the fields once they exist, from the rule until then. */
static void
update_title (WinnowRuleRow *self)
{
  const char *name, *description;
  g_autofree char *summary = NULL;
  guint intensity;

  if (self->rule == NULL)
    {
      /* Translators: %u is an index in the pack's rules array */
      g_autofree char *text = g_strdup_printf (_("rules[%u] is not an object; edit it in "
                                                 "the JSON view"), self->index);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), text);
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), "");
      gtk_label_set_text (self->intensity_badge, "");
      return;
    }

  if (self->name_row != NULL)
    {
      name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
      description = gtk_editable_get_text (GTK_EDITABLE (self->description_row));
      intensity = adw_combo_row_get_selected (self->intensity_row);
    }
  else
    {
      name = winnow_rule_pack_document_rule_string (self->rule, "name");
      description = winnow_rule_pack_document_rule_string (self->rule, "description");
      intensity = choice (self->rule, "minIntensity", intensities, 0);
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), name[0] ? name : _("(unnamed)"));
  summary = first_sentence (description);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), summary);
  gtk_label_set_text (self->intensity_badge, intensity < 3 ? intensities[intensity] : "");
}

static void
on_name_changed (WinnowRuleRow *self)
{
  if (!self->loading && self->item != NULL)
    winnow_rule_item_set_name (self->item, gtk_editable_get_text (GTK_EDITABLE (self->name_row)));
  update_title (self);
  emit_string (self, "name", gtk_editable_get_text (GTK_EDITABLE (self->name_row)));
}

static void
on_pattern_changed (WinnowRuleRow *self)
{
  emit_string (self, "pattern", gtk_editable_get_text (GTK_EDITABLE (self->pattern_row)));
}

/* No flags means the default "gi": an emptied field drops the member. */
static void
on_flags_changed (WinnowRuleRow *self)
{
  const char *flags = gtk_editable_get_text (GTK_EDITABLE (self->flags_row));

  emit_string (self, "flags", flags[0] ? flags : NULL);
}

static void
on_replacement_changed (WinnowRuleRow *self)
{
  emit_string (self, "replacement", gtk_editable_get_text (GTK_EDITABLE (self->replacement_row)));
}

static void
on_description_changed (WinnowRuleRow *self)
{
  const char *description = gtk_editable_get_text (GTK_EDITABLE (self->description_row));

  update_title (self);
  emit_string (self, "description", description[0] ? description : NULL);
}

static void
on_context_changed (WinnowRuleRow *self)
{
  guint selected = adw_combo_row_get_selected (self->context_row);

  if (selected < G_N_ELEMENTS (contexts) - 1)
    emit_string (self, "context", contexts[selected]);
}

static void
on_intensity_changed (WinnowRuleRow *self)
{
  guint selected = adw_combo_row_get_selected (self->intensity_row);

  update_title (self);
  if (selected < G_N_ELEMENTS (intensities) - 1)
    emit_string (self, "minIntensity", intensities[selected]);
}

/* --- the replacement map ------------------------------------------------------------- */

static guint
map_n_rows (WinnowRuleRow *self)
{
  guint n = 0;

  while (gtk_grid_get_child_at (self->map_grid, 0, n) != NULL)
    n++;
  return n;
}

/* The map is written whole from the table: keys in table order, empty keys left out. */
static void
emit_map (WinnowRuleRow *self)
{
  g_autoptr(JsonObject) map = NULL;
  g_autoptr(JsonNode) node = NULL;
  guint n = map_n_rows (self);

  if (self->loading)
    return;

  map = json_object_new ();
  for (guint i = 0; i < n; i++)
    {
      const char *key = gtk_editable_get_text (GTK_EDITABLE (gtk_grid_get_child_at (self->map_grid, 0, i)));
      const char *value = gtk_editable_get_text (GTK_EDITABLE (gtk_grid_get_child_at (self->map_grid, 1, i)));

      if (key[0] != '\0')
        json_object_set_string_member (map, key, value);
    }

  if (n > 0)
    node = json_node_init_object (json_node_alloc (), map);
  g_signal_emit (self, signals [MEMBER_CHANGED], 0, "replacementMap", node);
}

static void
on_remove_entry (GtkButton     *button,
                 WinnowRuleRow *self)
{
  int column, row;

  gtk_grid_query_child (self->map_grid, GTK_WIDGET (button), &column, &row, NULL, NULL);
  gtk_grid_remove_row (self->map_grid, row);
  emit_map (self);
}

static GtkWidget *
add_map_entry (WinnowRuleRow *self,
               const char    *key,
               const char    *value)
{
  guint row = map_n_rows (self);
  GtkWidget *key_entry = gtk_entry_new ();
  GtkWidget *value_entry = gtk_entry_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");

  gtk_editable_set_text (GTK_EDITABLE (key_entry), key);
  gtk_editable_set_text (GTK_EDITABLE (value_entry), value);
  gtk_editable_set_editable (GTK_EDITABLE (key_entry), self->editable);
  gtk_editable_set_editable (GTK_EDITABLE (value_entry), self->editable);
  gtk_widget_set_hexpand (key_entry, TRUE);
  gtk_widget_set_hexpand (value_entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (key_entry), _("match, lower-cased"));
  gtk_entry_set_placeholder_text (GTK_ENTRY (value_entry), _("replacement"));
  gtk_widget_set_tooltip_text (key_entry, _("Map key"));
  gtk_widget_set_tooltip_text (value_entry, _("Map value"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (key_entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Map key"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (value_entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Map value"), -1);
  gtk_widget_set_tooltip_text (remove, _("Remove This Entry"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Remove This Entry"), -1);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_visible (remove, self->editable);

  g_signal_connect_object (key_entry, "changed", G_CALLBACK (emit_map), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (value_entry, "changed", G_CALLBACK (emit_map), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_entry), self, 0);

  gtk_grid_attach (self->map_grid, key_entry, 0, row, 1, 1);
  gtk_grid_attach (self->map_grid, value_entry, 1, row, 1, 1);
  gtk_grid_attach (self->map_grid, remove, 2, row, 1, 1);

  return key_entry;
}

static void
on_add_entry (WinnowRuleRow *self)
{
  gtk_widget_grab_focus (add_map_entry (self, "", ""));
  /* an entry without a key is not written until it has one */
}

/* --- the fields ---------------------------------------------------------------------- */

static void
set_entry (WinnowRuleRow *self,
           AdwEntryRow   *row,
           const char    *member)
{
  gtk_editable_set_text (GTK_EDITABLE (row),
                         winnow_rule_pack_document_rule_string (self->rule, member));
  gtk_editable_set_editable (GTK_EDITABLE (row), self->editable);
}

static void
show_error (WinnowRuleRow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->error_icon), self->error != NULL);
  if (self->name_row == NULL)
    return;

  gtk_label_set_text (self->error_label, self->error ? self->error : "");
  gtk_widget_set_visible (self->error_row, self->error != NULL);
  if (self->error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->pattern_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->pattern_row), "error");
}

static const char * const field_rows[] = {
  "name_row", "pattern_row", "error_row", "flags_row", "replacement_row", "map_row",
  "context_row", "intensity_row", "description_row", NULL
};

/* Fills the fields from the rule, without reporting it as an edit. */
static void
fill_fields (WinnowRuleRow *self)
{
  JsonNode *map;

  self->loading = TRUE;
  set_entry (self, self->name_row, "name");
  set_entry (self, self->pattern_row, "pattern");
  set_entry (self, self->flags_row, "flags");
  set_entry (self, self->replacement_row, "replacement");
  set_entry (self, self->description_row, "description");
  adw_combo_row_set_selected (self->context_row, choice (self->rule, "context", contexts, 0));
  adw_combo_row_set_selected (self->intensity_row,
                              choice (self->rule, "minIntensity", intensities, 0));
  gtk_widget_set_sensitive (GTK_WIDGET (self->context_row), self->editable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->intensity_row), self->editable);
  gtk_widget_set_visible (GTK_WIDGET (self->add_entry_button), self->editable);

  while (map_n_rows (self) > 0)
    gtk_grid_remove_row (self->map_grid, 0);
  map = json_object_get_member (self->rule, "replacementMap");
  if (map != NULL && JSON_NODE_HOLDS_OBJECT (map))
    {
      JsonObject *object = json_node_get_object (map);
      g_autoptr(GList) keys = json_object_get_members (object);

      for (const GList *l = keys; l != NULL; l = l->next)
        add_map_entry (self, l->data, winnow_rule_pack_document_rule_string (object, l->data));
    }
  self->loading = FALSE;
  show_error (self);
}

static void
build_fields (WinnowRuleRow *self)
{
  g_autoptr(GtkBuilder) builder = NULL;

  if (self->name_row != NULL || self->rule == NULL)
    return;

  builder = gtk_builder_new_from_resource ("/io/github/winnow/Winnow/ui/winnow-rule-fields.ui");
  for (guint i = 0; field_rows[i] != NULL; i++)
    adw_expander_row_add_row (ADW_EXPANDER_ROW (self),
                              GTK_WIDGET (gtk_builder_get_object (builder, field_rows[i])));

#define FIELD(name, type) self->name = type (gtk_builder_get_object (builder, #name))
  FIELD (name_row, ADW_ENTRY_ROW);
  FIELD (pattern_row, ADW_ENTRY_ROW);
  FIELD (error_row, GTK_WIDGET);
  FIELD (error_label, GTK_LABEL);
  FIELD (flags_row, ADW_ENTRY_ROW);
  FIELD (replacement_row, ADW_ENTRY_ROW);
  FIELD (add_entry_button, GTK_BUTTON);
  FIELD (map_grid, GTK_GRID);
  FIELD (context_row, ADW_COMBO_ROW);
  FIELD (intensity_row, ADW_COMBO_ROW);
  FIELD (description_row, ADW_ENTRY_ROW);
#undef FIELD

  g_signal_connect_object (self->name_row, "changed", G_CALLBACK (on_name_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->pattern_row, "changed", G_CALLBACK (on_pattern_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flags_row, "changed", G_CALLBACK (on_flags_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->replacement_row, "changed",
                           G_CALLBACK (on_replacement_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->description_row, "changed",
                           G_CALLBACK (on_description_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->context_row, "notify::selected",
                           G_CALLBACK (on_context_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->intensity_row, "notify::selected",
                           G_CALLBACK (on_intensity_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->add_entry_button, "clicked", G_CALLBACK (on_add_entry), self,
                           G_CONNECT_SWAPPED);
  fill_fields (self);
}

static void
on_expanded (WinnowRuleRow *self)
{
  gboolean expanded = adw_expander_row_get_expanded (ADW_EXPANDER_ROW (self));

  if (expanded)
    build_fields (self);
  if (self->item != NULL)
    winnow_rule_item_set_expanded (self->item, expanded);
}

static void
on_item_error (WinnowRuleRow *self)
{
  winnow_rule_row_set_error (self, winnow_rule_item_get_error (self->item));
}

/* --- GObject ----------------------------------------------------------------------- */

static void
winnow_rule_row_dispose (GObject *object)
{
  WinnowRuleRow *self = WINNOW_RULE_ROW (object);

  winnow_rule_row_unbind (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_RULE_ROW);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (winnow_rule_row_parent_class)->dispose (object);
}

static void
winnow_rule_row_class_init (WinnowRuleRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_rule_row_dispose;

  /**
   * WinnowRuleRow::member-changed:
   * @self: the row
   * @member: the rule's member that was edited ("pattern", "replacementMap"…)
   * @value: (nullable): its new value; %NULL when the member is to be dropped
   */
  signals [MEMBER_CHANGED] =
    g_signal_new ("member-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, JSON_TYPE_NODE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-rule-row.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleRow, intensity_badge);
  gtk_widget_class_bind_template_child (widget_class, WinnowRuleRow, error_icon);
}

/* libadwaita 1.2's expander row has no subtitle-lines (1.3 adds it); the action row that
 * makes its header has. It is the first descendant of its kind; when a newer libadwaita
 * builds the header differently, the subtitle just wraps. */
static void
one_line_subtitle (WinnowRuleRow *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self)); child != NULL;
       child = gtk_widget_get_first_child (child))
    if (ADW_IS_ACTION_ROW (child))
      {
        adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (child), 1);
        return;
      }
}

static void
winnow_rule_row_init (WinnowRuleRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  one_line_subtitle (self);

  g_signal_connect (self, "notify::expanded", G_CALLBACK (on_expanded), NULL);
}

/**
 * winnow_rule_row_new:
 *
 * Returns: (transfer floating): an empty row; winnow_rule_row_bind() shows a rule in it
 */
GtkWidget *
winnow_rule_row_new (void)
{
  return g_object_new (WINNOW_TYPE_RULE_ROW, NULL);
}

/**
 * winnow_rule_row_bind:
 * @self: a #WinnowRuleRow
 * @item: the rule to show: its index, whether it is unfolded, its error
 * @rule: (nullable): its JSON object; %NULL when `rules[]` holds something else there
 * @editable: whether the fields can be edited (a built-in pack's cannot)
 *
 * Shows the rule in place of whatever the row showed, and follows @item until
 * winnow_rule_row_unbind().
 */
void
winnow_rule_row_bind (WinnowRuleRow  *self,
                      WinnowRuleItem *item,
                      JsonObject     *rule,
                      gboolean        editable)
{
  g_return_if_fail (WINNOW_IS_RULE_ROW (self));
  g_return_if_fail (WINNOW_IS_RULE_ITEM (item));

  winnow_rule_row_unbind (self);
  self->index = winnow_rule_item_get_index (item);
  self->editable = editable;
  self->rule = rule != NULL ? json_object_ref (rule) : NULL;

  adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (self), rule != NULL);
  if (rule == NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "error");
  if (rule != NULL && self->name_row != NULL)
    fill_fields (self);
  update_title (self);
  winnow_rule_row_set_error (self, winnow_rule_item_get_error (item));
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (self),
                                 rule != NULL && winnow_rule_item_get_expanded (item));

  /* the row reports to the item from here on */
  self->item = g_object_ref (item);
  g_signal_connect_object (item, "notify::error", G_CALLBACK (on_item_error), self,
                           G_CONNECT_SWAPPED);
}

/**
 * winnow_rule_row_unbind:
 * @self: a #WinnowRuleRow
 *
 * Stops following the rule's item, before the row shows another rule.
 */
void
winnow_rule_row_unbind (WinnowRuleRow *self)
{
  g_return_if_fail (WINNOW_IS_RULE_ROW (self));

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);
  g_clear_pointer (&self->rule, json_object_unref);
}

/**
 * winnow_rule_row_get_name:
 * @self: a #WinnowRuleRow
 *
 * Returns: the rule's name as it stands, edits included ("" if it has none)
 */
const char *
winnow_rule_row_get_name (WinnowRuleRow *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_ROW (self), NULL);

  if (self->rule == NULL)
    return "";
  if (self->name_row != NULL)
    return gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  return winnow_rule_pack_document_rule_string (self->rule, "name");
}

guint
winnow_rule_row_get_index (WinnowRuleRow *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_ROW (self), 0);
  return self->index;
}

/**
 * winnow_rule_row_set_error:
 * @self: a #WinnowRuleRow
 * @message: (nullable): the engine's error about this rule, or %NULL when it loads
 */
void
winnow_rule_row_set_error (WinnowRuleRow *self,
                           const char    *message)
{
  g_return_if_fail (WINNOW_IS_RULE_ROW (self));

  if (g_strcmp0 (self->error, message) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (message);
  show_error (self);
}

/**
 * winnow_rule_row_get_error:
 * @self: a #WinnowRuleRow
 *
 * Returns: (nullable): the error shown under the pattern
 */
const char *
winnow_rule_row_get_error (WinnowRuleRow *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_ROW (self), NULL);
  return self->error;
}
