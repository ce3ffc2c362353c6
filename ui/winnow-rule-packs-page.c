/* winnow-rule-packs-page.c — browsing, editing and checking Caveman rule packs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Left, every language and its packs, with badges for the engine's diagnostics and for
 * failing samples, and a search over pack and rule names. Right, the chosen pack: its rules
 * as a form or its file as JSON (the text is the source of truth, see
 * winnow-rule-pack-document.c), the diagnostics with line, column and JSON path, and below,
 * its samples at each intensity or the pack tried on the person's own prose.
 *
 * Every edit makes the samples stale: the check (winnow-rule-pack-check.c) is cancelled and
 * started again once the edits pause for 250 ms, in a worker thread. A result is shown only
 * if it was computed from the text now in the document.
 *
 * Built-in packs are read-only. "Duplicate to Edit" writes the pack into the user's rules
 * folder, where it replaces the built-in one; saving refuses a pack that would not load.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "winnow-a11y.h"
#include "winnow-rule-pack-editor.h"
#include "winnow-rule-pack-list.h"
#include "winnow-rule-packs-page.h"
#include "winnow-toast.h"
#include "winnow-rule-prose-view.h"
#include "winnow-sample-item.h"
#include "winnow-sample-row.h"

#define CHECK_DELAY_MS 250

struct _WinnowRulePacksPage
{
  GtkWidget               parent_instance;

  WinnowContext          *context;
  WinnowRulePackList     *list;
  GtkSingleSelection     *selection;

  WinnowRulePackItem     *item;
  WinnowRulePackDocument *document;
  WinnowRulePackCheck    *check;
  GCancellable           *cancellable;
  guint                   check_source;
  guint                   name_rows_source;
  gboolean                busy;
  char                   *rule_filter;    /* case-folded search, while it narrows the form */

  /* template children */
  GtkSearchEntry         *search_entry;
  GtkListView            *pack_list;
  GtkStack               *content_stack;
  GtkLabel               *title_label;
  GtkLabel               *subtitle_label;
  GtkSpinner             *spinner;
  GtkWidget              *duplicate_button;
  GtkWidget              *save_button;
  GtkWidget              *read_only_bar;
  GtkWidget              *diagnostics_scroller;
  GtkListBox             *diagnostics_list;
  GtkStackSwitcher       *view_switcher;
  WinnowRulePackEditor   *editor;
  GtkLabel               *samples_summary;
  GtkListView            *samples_list;
  WinnowRuleProseView    *prose_view;
};

G_DEFINE_FINAL_TYPE (WinnowRulePacksPage, winnow_rule_packs_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CONTEXT,
  PROP_BUSY,
  PROP_CHECK,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void schedule_check (WinnowRulePacksPage *self);

static void
set_busy (WinnowRulePacksPage *self,
          gboolean             busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  gtk_spinner_set_spinning (self->spinner, busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BUSY]);
}

static void
remove_all (GtkListBox *list)
{
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL;)
    gtk_list_box_remove (list, child);
}

/* --- the header, read-only state and actions ------------------------------------------ */

static void
update_header (WinnowRulePacksPage *self)
{
  gboolean read_only = self->document == NULL ||
                       winnow_rule_pack_document_get_read_only (self->document);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "rule-packs.duplicate",
                                 self->document != NULL && read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "rule-packs.save",
                                 self->document != NULL && !read_only);
  gtk_widget_set_visible (self->duplicate_button, read_only);
  gtk_widget_set_visible (self->save_button, !read_only);
  gtk_widget_set_visible (self->read_only_bar, self->document != NULL && read_only);

  if (self->item == NULL || self->document == NULL)
    return;

  title = g_strdup_printf ("%s / %s%s", winnow_rule_pack_item_get_language (self->item),
                           winnow_rule_pack_item_get_name (self->item),
                           winnow_rule_pack_document_get_modified (self->document) ? " •" : "");
  /* Translators: where a rule pack comes from, and its file */
  subtitle = g_strdup_printf (read_only ? _("Built-in · %s") : _("Yours · %s"),
                              winnow_rule_pack_document_get_file (self->document));
  gtk_label_set_text (self->title_label, title);
  gtk_label_set_text (self->subtitle_label, subtitle);
}

/* The text changed, in one view or the other: the samples are stale. */
static void
on_document_text (WinnowRulePacksPage *self)
{
  update_header (self);
  schedule_check (self);
}

static void
on_diagnostic_activated (GtkListBox          *list,
                         GtkListBoxRow       *row,
                         WinnowRulePacksPage *self)
{
  WinnowDiagnostic *diagnostic = g_object_get_data (G_OBJECT (row), "diagnostic");

  if (diagnostic != NULL)
    winnow_rule_pack_editor_jump_to (self->editor, winnow_diagnostic_get_line (diagnostic),
                                     winnow_diagnostic_get_column (diagnostic));
}

/* --- the check ---------------------------------------------------------------------- */

static void
show_diagnostics (WinnowRulePacksPage *self,
                  GPtrArray           *diagnostics)
{
  guint shown = 0;

  remove_all (self->diagnostics_list);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *diagnostic = g_ptr_array_index (diagnostics, i);
      WinnowDiagnosticLevel level = winnow_diagnostic_get_level (diagnostic);
      const char *path = winnow_diagnostic_get_json_path (diagnostic);
      g_autoptr(GString) where = g_string_new (winnow_diagnostic_level_to_string (level));
      GtkWidget *row;
      GtkWidget *icon;

      if (level == WINNOW_DIAGNOSTIC_INFO)
        continue;

      if (winnow_diagnostic_get_line (diagnostic) > 0)
        /* Translators: where a problem is in the JSON text */
        g_string_append_printf (where, _(" · line %u, column %u"),
                                winnow_diagnostic_get_line (diagnostic),
                                winnow_diagnostic_get_column (diagnostic));
      if (path != NULL && path[0] != '\0')
        g_string_append_printf (where, " · %s", path);

      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     winnow_diagnostic_get_message (diagnostic));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), where->str);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row),
                                        winnow_diagnostic_get_line (diagnostic) > 0);
      icon = gtk_image_new_from_icon_name (level == WINNOW_DIAGNOSTIC_ERROR
                                           ? "dialog-error-symbolic"
                                           : "dialog-warning-symbolic");
      gtk_widget_add_css_class (icon, level == WINNOW_DIAGNOSTIC_ERROR ? "error" : "warning");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      g_object_set_data_full (G_OBJECT (row), "diagnostic", g_object_ref (diagnostic),
                              g_object_unref);
      gtk_list_box_append (self->diagnostics_list, row);
      shown++;
    }

  gtk_widget_set_visible (self->diagnostics_scroller, shown > 0);
  if (self->item != NULL)
    winnow_rule_pack_item_set_n_diagnostics (self->item, shown);
}

/* The samples are a list view: a pack's hundreds of them cost rows only for those on screen. */
static void
sample_setup (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, winnow_sample_row_new ());
}

static void
sample_bind (GtkSignalListItemFactory *factory,
             GtkListItem              *item)
{
  WinnowSampleItem *sample_item = gtk_list_item_get_item (item);
  const WinnowSampleCheck *sample = winnow_sample_item_get_sample (sample_item);
  GtkWidget *row = gtk_list_item_get_child (item);
  g_autofree char *label = NULL;

  winnow_sample_row_set_sample (WINNOW_SAMPLE_ROW (row), sample);
  if (winnow_sample_item_is_failing (sample_item))
    /* Translators: a sample's accessible name; %s is the sample's name */
    label = g_strdup_printf (_("Sample “%s” fails"), sample->name);
  else
    /* Translators: a sample's accessible name; %s is the sample's name */
    label = g_strdup_printf (_("Sample “%s” passes"), sample->name);
  winnow_a11y_name_list_row (row, label);
}

static gboolean
sample_shown (gpointer item,
              gpointer data)
{
  return winnow_rule_pack_name_matches (winnow_sample_item_get_sample (item)->rule, data);
}

/* takes @samples; while the search narrows the form, the samples of the rules it shows (the
 * form decides: it shows all of them when none matches) */
static void
show_samples (WinnowRulePacksPage *self,
              GListModel          *samples)
{
  g_autoptr(GtkNoSelection) model = NULL;
  GtkWidget *scroller;

  if (samples == NULL)
    samples = G_LIST_MODEL (g_list_store_new (WINNOW_TYPE_SAMPLE_ITEM));
  if (self->rule_filter != NULL && winnow_rule_pack_editor_get_narrowed (self->editor))
    {
      GtkCustomFilter *filter = gtk_custom_filter_new (sample_shown,
                                                       g_strdup (self->rule_filter), g_free);

      samples = G_LIST_MODEL (gtk_filter_list_model_new (samples, GTK_FILTER (filter)));
    }
  model = gtk_no_selection_new (samples);
  gtk_list_view_set_model (self->samples_list, GTK_SELECTION_MODEL (model));
  /* no empty card while there is nothing to list (hiding it would turn the stack to its
   * other page) */
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (self->samples_list), GTK_TYPE_SCROLLED_WINDOW);
  if (g_list_model_get_n_items (G_LIST_MODEL (model)) > 0)
    gtk_widget_add_css_class (scroller, "card");
  else
    gtk_widget_remove_css_class (scroller, "card");
}

static void
show_check (WinnowRulePacksPage *self)
{
  WinnowRulePack *pack = winnow_rule_pack_check_get_pack (self->check);
  guint n_samples = winnow_rule_pack_check_get_n_samples (self->check);
  guint n_failing = winnow_rule_pack_check_get_n_failing (self->check);
  g_autofree char *summary = NULL;

  show_diagnostics (self, winnow_rule_pack_check_get_diagnostics (self->check));
  winnow_rule_pack_editor_set_diagnostics (self->editor,
                                           winnow_rule_pack_check_get_diagnostics (self->check));

  show_samples (self, winnow_sample_item_list_new (self->check));

  if (pack == NULL)
    summary = g_strdup (_("The text is not a rule pack yet"));
  else if (n_failing > 0)
    /* Translators: "2 of 14 samples fail" */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u sample fails",
                                            "%u of %u samples fail", n_samples),
                               n_failing, n_samples);
  else
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u sample passes",
                                            "All %u samples pass", n_samples), n_samples);
  gtk_label_set_text (self->samples_summary, summary);
  if (n_failing > 0 || pack == NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->samples_summary), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->samples_summary), "error");

  if (self->item != NULL)
    winnow_rule_pack_item_set_n_failing (self->item, n_failing);

  winnow_rule_prose_view_show_result (self->prose_view,
                                      winnow_rule_pack_check_get_prose (self->check), pack);
}

static void
check_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(WinnowRulePacksPage) self = user_data;
  g_autoptr(WinnowRulePackCheck) check = NULL;
  g_autoptr(GError) error = NULL;

  check = winnow_rule_pack_check_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* no newer check cancelled this one, so it is the current one */
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);

  if (check == NULL || self->document == NULL ||
      g_strcmp0 (winnow_rule_pack_check_get_text (check),
                 winnow_rule_pack_document_get_text (self->document)) != 0)
    return;

  g_set_object (&self->check, check);
  show_check (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CHECK]);
}

static void
run_check (WinnowRulePacksPage *self)
{
  g_autofree char *prose = NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->document == NULL || self->context == NULL)
    {
      set_busy (self, FALSE);
      return;
    }

  prose = winnow_rule_prose_view_dup_text (self->prose_view);
  self->cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  winnow_rule_pack_check_async (winnow_context_get_rule_set (self->context),
                                winnow_rule_pack_document_get_text (self->document),
                                winnow_rule_pack_document_get_source (self->document),
                                winnow_rule_pack_document_get_file (self->document),
                                prose,
                                winnow_rule_prose_view_get_intensity (self->prose_view),
                                winnow_rule_prose_view_get_role (self->prose_view),
                                self->cancellable, check_cb, g_object_ref (self));
}

static void
check_timeout (gpointer user_data)
{
  WinnowRulePacksPage *self = user_data;

  self->check_source = 0;
  run_check (self);
}

static void
schedule_check (WinnowRulePacksPage *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, TRUE);

  g_clear_handle_id (&self->check_source, g_source_remove);
  self->check_source = g_timeout_add_once (CHECK_DELAY_MS, check_timeout, self);
}

/* --- choosing a pack ---------------------------------------------------------------- */

static void
set_document (WinnowRulePacksPage    *self,
              WinnowRulePackDocument *document)
{
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_clear_object (&self->check);

  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::text", G_CALLBACK (on_document_text), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::modified", G_CALLBACK (update_header), self,
                               G_CONNECT_SWAPPED);
    }
}

/* The form and the samples show the rules the search found, unless it found the pack by its
 * own name. */
static void
update_rule_filter (WinnowRulePacksPage *self)
{
  const char *query = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *folded = g_utf8_casefold (query, -1);

  if (query[0] == '\0' ||
      (self->item != NULL && winnow_rule_pack_item_matches_itself (self->item, folded)))
    query = NULL;
  winnow_rule_pack_editor_set_rule_filter (self->editor, query);

  g_free (self->rule_filter);
  self->rule_filter = query != NULL ? g_steal_pointer (&folded) : NULL;
  if (self->check != NULL)
    show_samples (self, winnow_sample_item_list_new (self->check));
}

static void
show_item (WinnowRulePacksPage *self,
           WinnowRulePackItem  *item)
{
  WinnowRulePackDocument *document = NULL;
  g_autoptr(GError) error = NULL;

  if (item != NULL && !winnow_rule_pack_item_is_language (item))
    {
      document = winnow_rule_pack_item_get_document (item, &error);
      if (document == NULL)
        winnow_show_toast (GTK_WIDGET (self), error->message);
    }

  if (document == NULL)
    item = NULL;
  g_set_object (&self->item, item);
  set_document (self, document);
  show_samples (self, NULL);
  remove_all (self->diagnostics_list);
  gtk_widget_set_visible (self->diagnostics_scroller, FALSE);
  gtk_label_set_text (self->samples_summary, "");
  winnow_rule_prose_view_show_result (self->prose_view, NULL, NULL);

  update_rule_filter (self);
  winnow_rule_pack_editor_set_document (self->editor, document);
  update_header (self);
  gtk_stack_set_visible_child_name (self->content_stack, document ? "pack" : "empty");

  if (document != NULL)
    schedule_check (self);
  else
    {
      g_clear_handle_id (&self->check_source, g_source_remove);
      run_check (self);
    }
}

static void
on_search_changed (WinnowRulePacksPage *self)
{
  winnow_rule_pack_list_set_query (self->list,
                                   gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  update_rule_filter (self);
}

/* GTK 4.8 has no accessible label for a list row (GtkListItem gets one in 4.12) and the row
 * template can only bind visible text, so the rows shown are named here after the language or
 * pack they show, the expander too. Rows are made and reused during layout — when the list
 * changes, scrolls or a language opens — so this runs at idle priority, after the layout. */
static gboolean
name_rows (gpointer data)
{
  WinnowRulePacksPage *self = data;

  self->name_rows_source = 0;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->pack_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *expander = gtk_widget_get_first_child (row);
      GtkTreeListRow *list_row;
      g_autoptr(GObject) item = NULL;
      g_autofree char *title = NULL;
      g_autofree char *subtitle = NULL;
      g_autofree char *label = NULL;

      if (!GTK_IS_TREE_EXPANDER (expander))
        continue;
      list_row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander));
      item = list_row != NULL ? gtk_tree_list_row_get_item (list_row) : NULL;
      if (!WINNOW_IS_RULE_PACK_ITEM (item))
        continue;

      g_object_get (item, "title", &title, "subtitle", &subtitle, NULL);
      /* a pack's row is named with its language: every language has a "filler", and GTK 4.8
       * does not tell a screen reader which language row a pack's row is under */
      if (!winnow_rule_pack_item_is_language (WINNOW_RULE_PACK_ITEM (item)) &&
          winnow_rule_pack_item_get_language (WINNOW_RULE_PACK_ITEM (item)) != NULL)
        {
          char *named = g_strdup_printf ("%s/%s",
                                         winnow_rule_pack_item_get_language (WINNOW_RULE_PACK_ITEM (item)),
                                         title ? title : "");
          g_free (title);
          title = named;
        }
      label = subtitle != NULL && subtitle[0] != '\0'
              ? g_strdup_printf ("%s, %s", title ? title : "", subtitle)
              : g_strdup (title ? title : "");
      gtk_accessible_update_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      label, -1);
      winnow_a11y_name_list_row (expander, label);
    }
  return G_SOURCE_REMOVE;
}

static void
schedule_name_rows (WinnowRulePacksPage *self)
{
  if (self->name_rows_source == 0)
    self->name_rows_source = g_idle_add (name_rows, self);
}

/* Return on a row (or a double click) opens that pack, as selecting it does */
static void
on_row_activated (GtkListView         *list,
                  guint                position,
                  WinnowRulePacksPage *self)
{
  gtk_single_selection_set_selected (self->selection, position);
}

static void
on_selection_changed (WinnowRulePacksPage *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr(WinnowRulePackItem) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  if (item == self->item && item != NULL)
    return;

  show_item (self, item);
}

/* --- duplicating and saving ---------------------------------------------------------- */

/* The engine reads the saved file again, so the Preview and the CLI use it from now on. */
static void
reload_saved (WinnowRulePacksPage *self,
              const char          *path)
{
  g_autoptr(WinnowRulePack) pack = winnow_rule_pack_load_file (path, "global", NULL);

  winnow_rule_set_add_file (winnow_context_get_rule_set (self->context), path, "global");
  if (pack != NULL && self->item != NULL)
    winnow_rule_pack_item_set_pack (self->item, pack);
}

static void
duplicate_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  WinnowRulePacksPage *self = WINNOW_RULE_PACKS_PAGE (widget);
  g_autofree char *rules_dir = NULL;
  g_autofree char *file_name = NULL;
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GError) error = NULL;

  if (self->document == NULL || self->item == NULL ||
      !winnow_rule_pack_document_get_read_only (self->document))
    return;

  rules_dir = winnow_context_get_global_rules_path (self->context);
  file_name = g_strconcat (winnow_rule_pack_item_get_name (self->item), ".json", NULL);
  path = g_build_filename (rules_dir, winnow_rule_pack_item_get_language (self->item),
                           file_name, NULL);

  /* a file there that the engine did not load is broken: never write over it */
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      /* Translators: %s is a file name */
      message = g_strdup_printf (_("“%s” already exists; fix or move it first"), path);
      winnow_show_toast (GTK_WIDGET (self), message);
      return;
    }

  if (!winnow_rule_pack_document_save_as (self->document, path, &error))
    {
      winnow_show_toast (GTK_WIDGET (self), error->message);
      return;
    }

  reload_saved (self, path);
  update_header (self);
  schedule_check (self);
  /* Translators: %s is a file name */
  message = g_strdup_printf (_("Duplicated to “%s”; edit away"), path);
  winnow_show_toast (GTK_WIDGET (self), message);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WinnowRulePacksPage *self = WINNOW_RULE_PACKS_PAGE (widget);
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GError) error = NULL;

  if (self->document == NULL || winnow_rule_pack_document_get_read_only (self->document))
    return;

  path = g_strdup (winnow_rule_pack_document_get_file (self->document));
  if (!winnow_rule_pack_document_save_as (self->document, path, &error))
    {
      winnow_show_toast (GTK_WIDGET (self), error->message);
      return;
    }

  reload_saved (self, path);
  /* Translators: %s is a file name */
  message = g_strdup_printf (_("Saved “%s”"), path);
  winnow_show_toast (GTK_WIDGET (self), message);
}

/* --- GObject ----------------------------------------------------------------------- */

static void
winnow_rule_packs_page_dispose (GObject *object)
{
  WinnowRulePacksPage *self = WINNOW_RULE_PACKS_PAGE (object);

  g_clear_handle_id (&self->name_rows_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->check_source, g_source_remove);
  set_document (self, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_RULE_PACKS_PAGE);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  g_clear_object (&self->item);
  g_clear_object (&self->selection);
  g_clear_object (&self->list);
  g_clear_object (&self->context);
  g_clear_pointer (&self->rule_filter, g_free);

  G_OBJECT_CLASS (winnow_rule_packs_page_parent_class)->dispose (object);
}

static void
winnow_rule_packs_page_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  WinnowRulePacksPage *self = WINNOW_RULE_PACKS_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_CHECK:
      g_value_set_object (value, self->check);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_rule_packs_page_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  WinnowRulePacksPage *self = WINNOW_RULE_PACKS_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      winnow_rule_packs_page_set_context (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_rule_packs_page_class_init (WinnowRulePacksPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_rule_packs_page_dispose;
  object_class->get_property = winnow_rule_packs_page_get_property;
  object_class->set_property = winnow_rule_packs_page_set_property;

  properties [PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL, WINNOW_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRulePacksPage:busy:
   *
   * Whether a check of the open pack is waiting or running.
   */
  properties [PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowRulePacksPage:check:
   *
   * The check on screen: diagnostics, samples and prose of the open pack's current text.
   */
  properties [PROP_CHECK] =
    g_param_spec_object ("check", NULL, NULL, WINNOW_TYPE_RULE_PACK_CHECK,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-rule-packs-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, pack_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, duplicate_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, save_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, read_only_bar);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, diagnostics_scroller);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, diagnostics_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, editor);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, samples_summary);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, samples_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowRulePacksPage, prose_view);

  gtk_widget_class_install_action (widget_class, "rule-packs.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "rule-packs.save", NULL, save_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK,
                                       "rule-packs.save", NULL);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  g_type_ensure (WINNOW_TYPE_RULE_PACK_EDITOR);
  g_type_ensure (WINNOW_TYPE_RULE_PACK_ITEM);
  g_type_ensure (WINNOW_TYPE_RULE_PROSE_VIEW);
}

static void
winnow_rule_packs_page_init (WinnowRulePacksPage *self)
{
  GtkListItemFactory *factory;
  GtkAdjustment *scroll;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->list = winnow_rule_pack_list_new ();
  self->selection = gtk_single_selection_new (g_object_ref (winnow_rule_pack_list_get_model (self->list)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  factory = gtk_builder_list_item_factory_new_from_resource (NULL,
                                                             "/io/github/winnow/Winnow/ui/winnow-rule-pack-row.ui");
  gtk_list_view_set_factory (self->pack_list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->pack_list, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->pack_list, "activate", G_CALLBACK (on_row_activated), self, 0);
  g_signal_connect_object (self->selection, "items-changed", G_CALLBACK (schedule_name_rows),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->pack_list, "map", G_CALLBACK (schedule_name_rows), self,
                           G_CONNECT_SWAPPED);
  scroll = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->pack_list));
  if (scroll != NULL)
    g_signal_connect_object (scroll, "value-changed", G_CALLBACK (schedule_name_rows), self,
                             G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "search-changed",
                           G_CALLBACK (on_search_changed), self, G_CONNECT_SWAPPED);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (sample_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (sample_bind), NULL);
  gtk_list_view_set_factory (self->samples_list, factory);
  g_object_unref (factory);

  gtk_stack_switcher_set_stack (self->view_switcher,
                                winnow_rule_pack_editor_get_stack (self->editor));
  g_signal_connect_object (self->diagnostics_list, "row-activated",
                           G_CALLBACK (on_diagnostic_activated), self, 0);
  g_signal_connect_object (self->prose_view, "changed", G_CALLBACK (schedule_check), self,
                           G_CONNECT_SWAPPED);

  update_header (self);
}

WinnowContext *
winnow_rule_packs_page_get_context (WinnowRulePacksPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACKS_PAGE (self), NULL);
  return self->context;
}

/**
 * winnow_rule_packs_page_set_context:
 * @self: a #WinnowRulePacksPage
 * @context: (nullable): the engine context whose rule packs to show
 */
void
winnow_rule_packs_page_set_context (WinnowRulePacksPage *self,
                                    WinnowContext       *context)
{
  g_return_if_fail (WINNOW_IS_RULE_PACKS_PAGE (self));
  g_return_if_fail (context == NULL || WINNOW_IS_CONTEXT (context));

  if (!g_set_object (&self->context, context))
    return;

  show_item (self, NULL);
  winnow_rule_pack_list_set_rule_set (self->list,
                                      context ? winnow_context_get_rule_set (context) : NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONTEXT]);
}

/**
 * winnow_rule_packs_page_select_pack:
 * @self: a #WinnowRulePacksPage
 * @language: a language key ("en")
 * @name: a pack name ("filler")
 *
 * Opens a pack as if it had been chosen in the list (among the rows the search shows).
 *
 * Returns: %FALSE if no such pack is listed
 */
gboolean
winnow_rule_packs_page_select_pack (WinnowRulePacksPage *self,
                                    const char          *language,
                                    const char          *name)
{
  guint position;

  g_return_val_if_fail (WINNOW_IS_RULE_PACKS_PAGE (self), FALSE);
  g_return_val_if_fail (language != NULL && name != NULL, FALSE);

  position = winnow_rule_pack_list_find (self->list, language, name);
  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;

  gtk_single_selection_set_selected (self->selection, position);
  return TRUE;
}

/**
 * winnow_rule_packs_page_get_item:
 * @self: a #WinnowRulePacksPage
 *
 * Returns: (transfer none) (nullable): the open pack's list item
 */
WinnowRulePackItem *
winnow_rule_packs_page_get_item (WinnowRulePacksPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACKS_PAGE (self), NULL);
  return self->item;
}

/**
 * winnow_rule_packs_page_get_document:
 * @self: a #WinnowRulePacksPage
 *
 * Returns: (transfer none) (nullable): the open pack's text
 */
WinnowRulePackDocument *
winnow_rule_packs_page_get_document (WinnowRulePacksPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACKS_PAGE (self), NULL);
  return self->document;
}

/**
 * winnow_rule_packs_page_get_check:
 * @self: a #WinnowRulePacksPage
 *
 * Returns: (transfer none) (nullable): the check on screen
 */
WinnowRulePackCheck *
winnow_rule_packs_page_get_check (WinnowRulePacksPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACKS_PAGE (self), NULL);
  return self->check;
}

gboolean
winnow_rule_packs_page_get_busy (WinnowRulePacksPage *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_PACKS_PAGE (self), FALSE);
  return self->busy;
}
