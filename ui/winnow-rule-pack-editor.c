/* winnow-rule-pack-editor.c — a rule pack's text as a form of rules or as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two views of one WinnowRulePackDocument. A form edit rewrites one rule's object in the text
 * and the JSON view reloads; a JSON edit replaces the text and the form is rebuilt from it the
 * next time it is shown (rebuilding under the person's cursor would lose their focus). The
 * flags say which view the change came from, so neither view reloads what it just wrote.
 * While the text is not JSON the form steps aside with a note; the text itself is never
 * touched by switching.
 *
 * The form is a list view of WinnowRuleItems, one per entry of `rules[]`, shown by recycled
 * WinnowRuleRows (GTK 4.8 keeps up to 200 rows around what is in sight). The largest pack
 * opened in about 0.8 s as a list box of one row per rule, and 0.5 s like this (bench-ui).
 *
 * The page's search narrows the form to the rules whose name holds the query, with a bar that
 * says so and offers all of them again; a pack found by its own name shows all its rules.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "winnow-a11y.h"
#include "winnow-rule-item.h"
#include "winnow-rule-pack-editor.h"
#include "winnow-rule-pack-item.h"
#include "winnow-rule-row.h"

struct _WinnowRulePackEditor
{
  GtkWidget               parent_instance;

  WinnowRulePackDocument *document;
  GPtrArray              *diagnostics;
  gboolean                form_stale;
  gboolean                editing_form;
  gboolean                editing_json;
  gboolean                loading_json;
  char                   *rule_query;     /* the search as typed, or NULL */
  GListStore             *rules;          /* WinnowRuleItem, one per entry of rules[] */
  GtkFilterListModel     *filtered;

  /* template children */
  GtkStack               *view_stack;
  GtkStack               *form_stack;
  GtkWidget              *filter_bar;
  GtkLabel               *filter_label;
  GtkListView            *rules_list;
  GtkSourceView          *json_view;
};

G_DEFINE_FINAL_TYPE (WinnowRulePackEditor, winnow_rule_pack_editor, GTK_TYPE_WIDGET)

/* --- the form ----------------------------------------------------------------------- */

static void
on_member_changed (WinnowRuleRow        *row,
                   const char           *member,
                   JsonNode             *value,
                   WinnowRulePackEditor *self)
{
  if (self->document == NULL)
    return;

  self->editing_form = TRUE;
  winnow_rule_pack_document_set_rule_member (self->document, winnow_rule_row_get_index (row),
                                             member, value);
  self->editing_form = FALSE;
}

static void
update_rule_errors (WinnowRulePackEditor *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rules));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WinnowRuleItem) item = g_list_model_get_item (G_LIST_MODEL (self->rules), i);
      g_autofree char *error = NULL;

      if (self->diagnostics != NULL)
        error = winnow_rule_pack_document_dup_rule_error (self->diagnostics,
                                                          winnow_rule_item_get_index (item));
      winnow_rule_item_set_error (item, error);
    }
}

/* The form is a list view: rows are made for the rules on screen and shown one rule after
 * another as it scrolls, so the largest pack opens as fast as the smallest. */
static void
rule_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            WinnowRulePackEditor     *self)
{
  GtkWidget *row = winnow_rule_row_new ();

  gtk_list_item_set_activatable (list_item, FALSE);
  gtk_list_item_set_selectable (list_item, FALSE);
  gtk_list_item_set_child (list_item, row);
  g_signal_connect_object (row, "member-changed", G_CALLBACK (on_member_changed), self, 0);
}

static void
rule_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           WinnowRulePackEditor     *self)
{
  WinnowRuleItem *item = gtk_list_item_get_item (list_item);
  WinnowRuleRow *row = WINNOW_RULE_ROW (gtk_list_item_get_child (list_item));
  JsonObject *rule = NULL;
  gboolean editable = FALSE;

  if (self->document != NULL)
    {
      rule = winnow_rule_pack_document_get_rule (self->document, winnow_rule_item_get_index (item));
      editable = !winnow_rule_pack_document_get_read_only (self->document);
    }
  winnow_rule_row_bind (row, item, rule, editable);
  winnow_a11y_name_list_row (GTK_WIDGET (row),
                             adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
}

static void
rule_unbind (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             WinnowRulePackEditor     *self)
{
  winnow_rule_row_unbind (WINNOW_RULE_ROW (gtk_list_item_get_child (list_item)));
}

/* --- the search ----------------------------------------------------------------------- */

static gboolean
rule_matches (gpointer item,
              gpointer query)
{
  const char *name = winnow_rule_item_get_name (item);

  /* a rules[] entry that is not an object always shows: it needs fixing */
  return name == NULL || winnow_rule_pack_name_matches (name, query);
}

/* Narrows the rules to the query's, unless none matches (the pack was found by its name). */
static void
apply_rule_filter (WinnowRulePackEditor *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rules));
  guint shown = 0;
  g_autofree char *text = NULL;

  if (self->rule_query != NULL)
    {
      g_autoptr(GtkCustomFilter) filter =
        gtk_custom_filter_new (rule_matches, g_utf8_casefold (self->rule_query, -1), g_free);

      /* the filter list model filters at once: what it holds is what matched */
      gtk_filter_list_model_set_filter (self->filtered, GTK_FILTER (filter));
      shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
    }

  if (shown == 0 || shown == n)
    {
      gtk_filter_list_model_set_filter (self->filtered, NULL);
      gtk_widget_set_visible (self->filter_bar, FALSE);
      return;
    }

  /* Translators: "2 of 386 rules match “phatic”" */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u rule matches “%s”",
                                       "%u of %u rules match “%s”", n),
                          shown, n, self->rule_query);
  gtk_label_set_text (self->filter_label, text);
  gtk_widget_set_visible (self->filter_bar, TRUE);
}

static void
show_all_rules (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  winnow_rule_pack_editor_set_rule_filter (WINNOW_RULE_PACK_EDITOR (widget), NULL);
}

static void
rebuild_form (WinnowRulePackEditor *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  guint n;

  self->form_stale = FALSE;
  g_list_store_remove_all (self->rules);
  if (self->document == NULL)
    return;

  if (!winnow_rule_pack_document_get_is_json (self->document))
    {
      gtk_stack_set_visible_child_name (self->form_stack, "invalid");
      return;
    }

  gtk_stack_set_visible_child_name (self->form_stack, "rules");
  n = winnow_rule_pack_document_get_n_rules (self->document);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *rule = winnow_rule_pack_document_get_rule (self->document, i);
      const char *name = rule != NULL ? winnow_rule_pack_document_rule_string (rule, "name")
                                      : NULL;

      g_ptr_array_add (items, winnow_rule_item_new (i, name));
    }
  g_list_store_splice (self->rules, 0, 0, items->pdata, items->len);

  update_rule_errors (self);
  apply_rule_filter (self);
}

static void
on_view_changed (WinnowRulePackEditor *self)
{
  if (self->form_stale &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "form") == 0)
    rebuild_form (self);
}

/* --- the JSON view ------------------------------------------------------------------ */

static void
load_json (WinnowRulePackEditor *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  GtkTextIter start;

  self->loading_json = TRUE;
  gtk_text_buffer_set_text (buffer,
                            self->document ? winnow_rule_pack_document_get_text (self->document)
                                           : "", -1);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  self->loading_json = FALSE;
}

static void
on_json_changed (WinnowRulePackEditor *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  g_autofree char *text = NULL;
  GtkTextIter start, end;

  if (self->loading_json || self->document == NULL)
    return;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  self->editing_json = TRUE;
  winnow_rule_pack_document_set_text (self->document, text);
  self->editing_json = FALSE;
}

/* The text changed, in one view or the other: bring the other one along. */
static void
on_document_text (WinnowRulePackEditor *self)
{
  if (!self->editing_json)
    load_json (self);

  if (!self->editing_form)
    {
      self->form_stale = TRUE;
      on_view_changed (self);
    }
}

/* A duplicated pack becomes editable. */
static void
on_read_only_changed (WinnowRulePackEditor *self)
{
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->json_view),
                              !winnow_rule_pack_document_get_read_only (self->document));
  rebuild_form (self);
}

/* --- GObject ----------------------------------------------------------------------- */

/* The source view follows the light or dark style with GtkSourceView's own Adwaita schemes. */
static void
update_style_scheme (WinnowRulePackEditor *self)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme =
    gtk_source_style_scheme_manager_get_scheme (manager, dark ? "Adwaita-dark" : "Adwaita");
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));

  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (buffer), scheme);
}

/* Loading GtkSourceView's language definitions costs tens of milliseconds, and the editor
 * opens on its form: the JSON view is highlighted from the first time it is shown. */
static void
on_json_view_map (GtkWidget *view)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();

  if (gtk_source_buffer_get_language (buffer) == NULL)
    gtk_source_buffer_set_language (buffer,
                                    gtk_source_language_manager_get_language (languages, "json"));
}

static void
winnow_rule_pack_editor_dispose (GObject *object)
{
  WinnowRulePackEditor *self = WINNOW_RULE_PACK_EDITOR (object);

  winnow_rule_pack_editor_set_document (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_RULE_PACK_EDITOR);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->rule_query, g_free);
  g_clear_object (&self->filtered);
  g_clear_object (&self->rules);

  G_OBJECT_CLASS (winnow_rule_pack_editor_parent_class)->dispose (object);
}

static void
winnow_rule_pack_editor_class_init (WinnowRulePackEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_rule_pack_editor_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-rule-pack-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePackEditor, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePackEditor, form_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePackEditor, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePackEditor, filter_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePackEditor, rules_list);

  gtk_widget_class_install_action (widget_class, "rule-pack-editor.show-all-rules", NULL,
                                   show_all_rules);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePackEditor, json_view);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
}

static void
winnow_rule_pack_editor_init (WinnowRulePackEditor *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GtkNoSelection) selection = NULL;
  GtkSourceBuffer *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->rules = g_list_store_new (WINNOW_TYPE_RULE_ITEM);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->rules)), NULL);
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->filtered)));
  gtk_list_view_set_model (self->rules_list, GTK_SELECTION_MODEL (selection));
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (rule_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (rule_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (rule_unbind), self);
  gtk_list_view_set_factory (self->rules_list, factory);

  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view)));
  g_signal_connect (self->json_view, "map", G_CALLBACK (on_json_view_map), NULL);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (on_json_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_style_scheme), self, G_CONNECT_SWAPPED);
  update_style_scheme (self);

  g_signal_connect_object (self->view_stack, "notify::visible-child-name",
                           G_CALLBACK (on_view_changed), self, G_CONNECT_SWAPPED);
}

/**
 * winnow_rule_pack_editor_set_document:
 * @self: a #WinnowRulePackEditor
 * @document: (nullable): the pack to show
 */
void
winnow_rule_pack_editor_set_document (WinnowRulePackEditor   *self,
                                      WinnowRulePackDocument *document)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_EDITOR (self));
  g_return_if_fail (document == NULL || WINNOW_IS_RULE_PACK_DOCUMENT (document));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);

  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::text", G_CALLBACK (on_document_text), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::read-only",
                               G_CALLBACK (on_read_only_changed), self, G_CONNECT_SWAPPED);
    }

  if (gtk_widget_in_destruction (GTK_WIDGET (self)))
    return;

  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->json_view),
                              document != NULL && !winnow_rule_pack_document_get_read_only (document));
  load_json (self);
  rebuild_form (self);
}

/**
 * winnow_rule_pack_editor_set_diagnostics:
 * @self: a #WinnowRulePackEditor
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): the engine's findings about the
 *   current text; each rule shows its first error
 */
void
winnow_rule_pack_editor_set_diagnostics (WinnowRulePackEditor *self,
                                         GPtrArray            *diagnostics)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_EDITOR (self));

  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  if (diagnostics != NULL)
    self->diagnostics = g_ptr_array_ref (diagnostics);
  update_rule_errors (self);
}

/**
 * winnow_rule_pack_editor_jump_to:
 * @self: a #WinnowRulePackEditor
 * @line: a 1-based line of the text
 * @column: a 1-based column, or 0
 *
 * Shows the JSON view with the cursor there, where a diagnostic points.
 */
void
winnow_rule_pack_editor_jump_to (WinnowRulePackEditor *self,
                                 guint                 line,
                                 guint                 column)
{
  GtkTextBuffer *buffer;
  GtkTextIter iter;

  g_return_if_fail (WINNOW_IS_RULE_PACK_EDITOR (self));

  if (line == 0)
    return;

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  gtk_stack_set_visible_child_name (self->view_stack, "json");
  gtk_text_buffer_get_iter_at_line_offset (buffer, &iter, line - 1, column > 0 ? column - 1 : 0);
  gtk_text_buffer_place_cursor (buffer, &iter);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->json_view), &iter, 0.1, FALSE, 0, 0);
  gtk_widget_grab_focus (GTK_WIDGET (self->json_view));
}

/**
 * winnow_rule_pack_editor_get_stack:
 * @self: a #WinnowRulePackEditor
 *
 * Returns: (transfer none): the stack of the two views ("form", "json"), for a switcher
 */
GtkStack *
winnow_rule_pack_editor_get_stack (WinnowRulePackEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_EDITOR (self), NULL);
  return self->view_stack;
}

/**
 * winnow_rule_pack_editor_set_rule_filter:
 * @self: a #WinnowRulePackEditor
 * @query: (nullable): what the person searches for; %NULL or "" for every rule
 *
 * Shows only the rules whose name holds @query, with a bar saying how many of all match, as
 * long as some do (a pack found by its own name shows them all).
 */
void
winnow_rule_pack_editor_set_rule_filter (WinnowRulePackEditor *self,
                                         const char           *query)
{
  g_return_if_fail (WINNOW_IS_RULE_PACK_EDITOR (self));

  g_clear_pointer (&self->rule_query, g_free);
  if (query != NULL && query[0] != '\0')
    self->rule_query = g_strdup (query);
  apply_rule_filter (self);
}

/**
 * winnow_rule_pack_editor_get_narrowed:
 * @self: a #WinnowRulePackEditor
 *
 * Returns: whether the form shows only the rules the search matched (some, not all)
 */
gboolean
winnow_rule_pack_editor_get_narrowed (WinnowRulePackEditor *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACK_EDITOR (self), FALSE);
  return gtk_filter_list_model_get_filter (self->filtered) != NULL;
}
