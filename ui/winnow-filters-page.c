/* winnow-filters-page.c — the filter catalog and the filter editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Left, the engine's catalog (a GListModel of the filters in effect) searched, grouped by
 * source and category — the list view has no sections in GTK 4.8, so a row shows its
 * group's header when it starts the group — with a badge for filters whose tests fail or
 * whose file has diagnostics. Right, the editor. All filters' tests run once in a worker
 * when the page gets its context, and again after a save; choosing another filter while
 * the current one has unsaved edits asks first.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "winnow-a11y.h"
#include "winnow-filters-page.h"
#include "winnow-toast.h"
#include "winnow-samples.h"

struct _WinnowFiltersPage
{
  GtkWidget           parent_instance;

  WinnowContext      *context;
  GtkCustomFilter    *search_filter;
  GtkFilterListModel *filtered;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;
  GHashTable         *failing;        /* id → number of failing tests */
  GHashTable         *diagnostics;    /* id → number of error/warning diagnostics */
  GCancellable       *cancellable;
  gboolean            verified;
  guint               shown_position;  /* the filter in the editor */
  gboolean            reverting;
  gboolean            learning;
  char               *preview_input;
  char               *preview_command;

  /* template children */
  GtkSearchEntry     *search_entry;
  GtkListView        *filter_list;
  GtkLabel           *count_label;
  GtkStack           *editor_stack;
  WinnowFilterEditor *editor;
};

G_DEFINE_FINAL_TYPE (WinnowFiltersPage, winnow_filters_page, GTK_TYPE_WIDGET)

static int
source_rank (WinnowFilterSource source)
{
  /* the order a person looks for them: their project's, their own, then the built-ins */
  switch (source)
    {
    case WINNOW_FILTER_SOURCE_PROJECT: return 0;
    case WINNOW_FILTER_SOURCE_FILE: return 1;
    case WINNOW_FILTER_SOURCE_GLOBAL: return 2;
    case WINNOW_FILTER_SOURCE_BUILTIN:
    default: return 3;
    }
}

static const char *
source_title (WinnowFilterSource source)
{
  switch (source)
    {
    case WINNOW_FILTER_SOURCE_PROJECT: return _("Project");
    case WINNOW_FILTER_SOURCE_FILE: return _("From a file");
    case WINNOW_FILTER_SOURCE_GLOBAL: return _("Yours");
    case WINNOW_FILTER_SOURCE_BUILTIN:
    default: return _("Built-in");
    }
}

static const char *
category_of (WinnowFilter *filter)
{
  const char *category = winnow_filter_get_category (filter);

  return category && *category ? category : _("other");
}

static int
compare_filters (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  WinnowFilter *fa = (WinnowFilter *) a;
  WinnowFilter *fb = (WinnowFilter *) b;
  int diff = source_rank (winnow_filter_get_source (fa)) - source_rank (winnow_filter_get_source (fb));

  if (diff != 0)
    return diff;
  diff = g_strcmp0 (category_of (fa), category_of (fb));
  if (diff != 0)
    return diff;
  return g_strcmp0 (winnow_filter_get_id (fa), winnow_filter_get_id (fb));
}

static gboolean
match_search (gpointer item,
              gpointer user_data)
{
  WinnowFiltersPage *self = user_data;
  WinnowFilter *filter = item;
  const char *query = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *needle = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *haystack = NULL;

  if (query[0] == '\0')
    return TRUE;

  needle = g_utf8_casefold (query, -1);
  joined = g_strjoin (" ", winnow_filter_get_id (filter),
                      winnow_filter_get_label (filter) ? winnow_filter_get_label (filter) : "",
                      category_of (filter), NULL);
  haystack = g_utf8_casefold (joined, -1);
  return strstr (haystack, needle) != NULL;
}

static void
on_search_changed (WinnowFiltersPage *self)
{
  gtk_filter_changed (GTK_FILTER (self->search_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
update_count (WinnowFiltersPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  guint failing = 0;
  g_autofree char *text = NULL;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->failing);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (GPOINTER_TO_UINT (value) > 0)
      failing++;

  if (!self->verified)
    /* Translators: shown under the filter list while every filter's tests run */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u filter · running tests…",
                                         "%u filters · running tests…", n), n);
  else
    /* Translators: shown under the filter list */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u filter · %u with failing tests",
                                         "%u filters · %u with failing tests", n), n, failing);
  gtk_label_set_text (self->count_label, text);
}

/* --- rows ------------------------------------------------------------------------------- */

static void
on_enabled_toggled (GtkSwitch         *sw,
                    GParamSpec        *pspec,
                    WinnowFiltersPage *self)
{
  const char *id = g_object_get_data (G_OBJECT (sw), "filter-id");
  g_autoptr(GError) error = NULL;

  if (id == NULL || self->context == NULL ||
      g_object_get_data (G_OBJECT (sw), "binding") != NULL)
    return;

  if (!winnow_context_set_filter_enabled (self->context, id, gtk_switch_get_active (sw), &error))
    {
      winnow_show_toast (GTK_WIDGET (self), error->message);
      g_object_set_data (G_OBJECT (sw), "binding", GINT_TO_POINTER (1));
      gtk_switch_set_active (sw, !gtk_switch_get_active (sw));
      g_object_set_data (G_OBJECT (sw), "binding", NULL);
    }
}

/* Return on a row (or a double click) opens it, like moving the selection to it does: rows
 * reached with Tab and the arrows open with the key a keyboard user expects. */
static void
on_row_activated (GtkListView       *list,
                  guint              position,
                  WinnowFiltersPage *self)
{
  gtk_single_selection_set_selected (self->selection, position);
}

static void
row_setup (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           WinnowFiltersPage        *self)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *header = gtk_label_new (NULL);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *badge = gtk_label_new (NULL);
  GtkWidget *enabled = gtk_switch_new ();

  gtk_widget_set_valign (enabled, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (enabled, _("Use this filter"));
  gtk_widget_add_css_class (header, "heading");
  gtk_widget_add_css_class (header, "dim-label");
  gtk_widget_set_margin_top (header, 6);
  gtk_label_set_xalign (GTK_LABEL (header), 0);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (badge, "filter-badge");
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_widget_set_hexpand (texts, TRUE);

  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), subtitle);
  gtk_box_append (GTK_BOX (line), texts);
  gtk_box_append (GTK_BOX (line), badge);
  gtk_box_append (GTK_BOX (line), enabled);
  gtk_box_append (GTK_BOX (outer), header);
  gtk_box_append (GTK_BOX (outer), line);
  gtk_list_item_set_child (item, outer);
  g_signal_connect_object (enabled, "notify::active", G_CALLBACK (on_enabled_toggled), self, 0);
}

static void
row_bind (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          WinnowFiltersPage        *self)
{
  WinnowFilter *filter = gtk_list_item_get_item (item);
  guint position = gtk_list_item_get_position (item);
  GtkWidget *outer = gtk_list_item_get_child (item);
  GtkWidget *header = gtk_widget_get_first_child (outer);
  GtkWidget *line = gtk_widget_get_next_sibling (header);
  GtkWidget *texts = gtk_widget_get_first_child (line);
  GtkWidget *title = gtk_widget_get_first_child (texts);
  GtkWidget *subtitle = gtk_widget_get_next_sibling (title);
  GtkWidget *badge = gtk_widget_get_next_sibling (texts);
  GtkWidget *enabled = gtk_widget_get_next_sibling (badge);
  const char *id = winnow_filter_get_id (filter);
  guint failing = GPOINTER_TO_UINT (g_hash_table_lookup (self->failing, id));
  guint problems = GPOINTER_TO_UINT (g_hash_table_lookup (self->diagnostics, id));
  g_autoptr(WinnowFilter) previous = NULL;
  g_autofree char *group = NULL;
  g_autofree char *sub = NULL;
  g_autoptr(GString) accessible = g_string_new (NULL);

  if (position > 0)
    previous = g_list_model_get_item (G_LIST_MODEL (self->sorted), position - 1);

  group = g_strdup_printf ("%s · %s", source_title (winnow_filter_get_source (filter)),
                           category_of (filter));
  gtk_label_set_text (GTK_LABEL (header), group);
  gtk_widget_set_visible (header, previous == NULL ||
                          winnow_filter_get_source (previous) != winnow_filter_get_source (filter) ||
                          g_strcmp0 (category_of (previous), category_of (filter)) != 0);

  gtk_label_set_text (GTK_LABEL (title), winnow_filter_get_label (filter)
                                         ? winnow_filter_get_label (filter) : id);
  /* Translators: a filter's id and priority in the filter list */
  sub = g_strdup_printf (_("%s · priority %d"), id, winnow_filter_get_priority (filter));
  gtk_label_set_text (GTK_LABEL (subtitle), sub);

  gtk_widget_remove_css_class (badge, "error");
  gtk_widget_remove_css_class (badge, "warning");
  if (failing > 0)
    {
      g_autofree char *text = g_strdup_printf ("✗ %u", failing);

      gtk_label_set_text (GTK_LABEL (badge), text);
      gtk_widget_add_css_class (badge, "error");
      gtk_widget_set_tooltip_text (badge, g_dngettext (GETTEXT_PACKAGE, "A test fails",
                                                       "Tests fail", failing));
    }
  else if (problems > 0)
    {
      g_autofree char *text = g_strdup_printf ("⚠ %u", problems);

      gtk_label_set_text (GTK_LABEL (badge), text);
      gtk_widget_add_css_class (badge, "warning");
      gtk_widget_set_tooltip_text (badge, _("The filter’s file has diagnostics"));
    }
  else
    {
      gtk_label_set_text (GTK_LABEL (badge), "");
      gtk_widget_set_tooltip_text (badge, NULL);
    }
  gtk_widget_set_visible (badge, failing > 0 || problems > 0);

  g_object_set_data (G_OBJECT (enabled), "binding", GINT_TO_POINTER (1));
  g_object_set_data_full (G_OBJECT (enabled), "filter-id", g_strdup (id), g_free);
  gtk_switch_set_active (GTK_SWITCH (enabled),
                         winnow_config_is_filter_enabled (winnow_context_get_config (self->context), id));
  g_object_set_data (G_OBJECT (enabled), "binding", NULL);
  {
    /* Translators: accessible name of the switch that turns a filter on, %s is its id */
    g_autofree char *switch_label = g_strdup_printf (_("Use %s"), id);

    gtk_accessible_update_property (GTK_ACCESSIBLE (enabled), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    switch_label, -1);
  }

  g_string_append_printf (accessible, "%s, %s", gtk_label_get_text (GTK_LABEL (title)), sub);
  if (failing > 0)
    g_string_append_printf (accessible, ", %s",
                            g_dngettext (GETTEXT_PACKAGE, "a test fails", "tests fail", failing));
  gtk_accessible_update_property (GTK_ACCESSIBLE (outer), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible->str, -1);
  winnow_a11y_name_list_row (outer, accessible->str);
}

/* Every visible row binds again: its badge and switch read the current state. */
static void
rebind_rows (WinnowFiltersPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));

  g_list_model_items_changed (G_LIST_MODEL (self->sorted), 0, n, n);
}

static void
sync_switches (WinnowFiltersPage *self,
               GtkWidget         *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *id = GTK_IS_SWITCH (child) ? g_object_get_data (G_OBJECT (child), "filter-id")
                                             : NULL;

      if (id != NULL)
        {
          gboolean enabled =
            winnow_config_is_filter_enabled (winnow_context_get_config (self->context), id);

          if (gtk_switch_get_active (GTK_SWITCH (child)) != enabled)
            {
              g_object_set_data (G_OBJECT (child), "binding", GINT_TO_POINTER (1));
              gtk_switch_set_active (GTK_SWITCH (child), enabled);
              g_object_set_data (G_OBJECT (child), "binding", NULL);
            }
        }
      else
        sync_switches (self, child);
    }
}

/* The settings changed (Preferences, another process through the API, or a switch here):
 * the switches of the rows on screen follow rtkConfig.disabledFilters / enabledFilters as
 * they are now. Only the switches: rebinding the rows would take the focus from the switch
 * just toggled. */
static void
on_config_changed (WinnowContext     *context,
                   GParamSpec        *pspec,
                   WinnowFiltersPage *self)
{
  sync_switches (self, GTK_WIDGET (self->filter_list));
}

/* --- verification of the whole catalog -------------------------------------------------- */

static void
verify_all_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(WinnowFiltersPage) self = user_data;
  g_autoptr(WinnowVerifyReport) report = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *outcomes;
  guint n;

  report = winnow_verify_filters_finish (result, &error);
  if (report == NULL)
    return;

  g_hash_table_remove_all (self->failing);
  outcomes = winnow_verify_report_get_outcomes (report);
  n = g_list_model_get_n_items (outcomes);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);
      WinnowFilter *filter = winnow_test_outcome_get_filter (outcome);
      const char *id;

      if (filter == NULL)
        continue;
      id = winnow_filter_get_id (filter);
      if (!winnow_test_outcome_get_passed (outcome))
        g_hash_table_insert (self->failing, g_strdup (id),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->failing, id)) + 1));
    }

  self->verified = TRUE;
  update_count (self);
  /* rows show their badges again */
  rebind_rows (self);
}

static void
verify_all (WinnowFiltersPage *self)
{
  g_autoptr(GPtrArray) filters = NULL;
  GPtrArray *diagnostics;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->context == NULL)
    return;

  g_hash_table_remove_all (self->diagnostics);
  diagnostics = winnow_catalog_get_diagnostics (winnow_context_get_catalog (self->context));
  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
      const char *id = winnow_diagnostic_get_filter_id (d);

      if (id != NULL && winnow_diagnostic_get_level (d) != WINNOW_DIAGNOSTIC_INFO)
        g_hash_table_insert (self->diagnostics, g_strdup (id),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->diagnostics, id)) + 1));
    }

  self->verified = FALSE;
  update_count (self);
  self->cancellable = g_cancellable_new ();
  filters = winnow_catalog_dup_filters (winnow_context_get_catalog (self->context));
  winnow_verify_filters_async (filters, self->cancellable, verify_all_cb, g_object_ref (self));
}

/* --- selection and unsaved edits ---------------------------------------------------------- */

static void
show_selected (WinnowFiltersPage *self)
{
  WinnowFilter *filter = gtk_single_selection_get_selected_item (self->selection);

  self->shown_position = gtk_single_selection_get_selected (self->selection);
  if (filter == NULL)
    return;

  winnow_filter_editor_load (self->editor, filter);
  gtk_stack_set_visible_child_name (self->editor_stack, "editor");
}

static void
discard_response_cb (AdwMessageDialog  *dialog,
                     const char        *response,
                     WinnowFiltersPage *self)
{
  if (g_str_equal (response, "save"))
    {
      g_autoptr(GError) error = NULL;

      if (!winnow_filter_editor_save (self->editor, &error))
        {
          winnow_show_toast (GTK_WIDGET (self), error->message);
          response = "cancel";
        }
    }

  if (g_str_equal (response, "cancel"))
    {
      self->reverting = TRUE;
      gtk_single_selection_set_selected (self->selection, self->shown_position);
      self->reverting = FALSE;
      return;
    }

  show_selected (self);
}

static void
on_selection_changed (WinnowFiltersPage *self)
{
  AdwMessageDialog *dialog;
  GtkRoot *root;

  if (self->reverting)
    return;

  if (!winnow_filter_editor_get_dirty (self->editor))
    {
      show_selected (self);
      return;
    }

  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("Save Changes?"),
                                                       _("The filter you are editing has unsaved "
                                                         "changes. Open another one anyway?")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "discard", _("_Discard"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "save");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (discard_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_saved (WinnowFilterEditor *editor,
          const char         *file,
          int                 source,
          WinnowFiltersPage  *self)
{
  const char *text = winnow_filter_editor_get_text (editor);
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *id = NULL;

  if (json_parser_load_from_data (parser, text, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    id = json_object_get_string_member_with_default (json_node_get_object (json_parser_get_root (parser)),
                                                     "id", NULL);

  winnow_catalog_reload_file (winnow_context_get_catalog (self->context), file, source);
  verify_all (self);

  /* keep the saved filter in the editor without asking: nothing is unsaved any more */
  if (id != NULL)
    {
      self->reverting = TRUE;
      winnow_filters_page_show_filter (self, id);
      self->shown_position = gtk_single_selection_get_selected (self->selection);
      self->reverting = FALSE;
    }
}

/* --- new filter from samples --------------------------------------------------------------- */

static void
learn_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(WinnowFiltersPage) self = user_data;
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowLearnDraft) draft = NULL;
  g_autoptr(GError) error = NULL;

  self->learning = FALSE;
  draft = winnow_learn_filter_finish (result, diagnostics, &error);
  if (draft == NULL)
    {
      /* Translators: %s says why no filter could be drafted from the samples */
      g_autofree char *message = g_strdup_printf (_("No draft: %s"), error->message);

      winnow_show_toast (GTK_WIDGET (self), message);
      return;
    }

  self->reverting = TRUE;
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->shown_position = GTK_INVALID_LIST_POSITION;
  self->reverting = FALSE;

  winnow_filter_editor_load_draft (self->editor, winnow_learn_draft_get_json (draft));
  gtk_stack_set_visible_child_name (self->editor_stack, "editor");
  winnow_show_toast (GTK_WIDGET (self), _("A draft from the samples, with them as its tests; review it and save"));
}

/**
 * winnow_filters_page_new_from_samples:
 * @self: a #WinnowFiltersPage
 * @command: (nullable): the command that produced the samples
 * @samples: (element-type WinnowLearnSample): samples of its output
 *
 * Drafts a filter from the samples with the engine's learner, in a worker, and opens the
 * draft in the editor as a new filter of the user's own pack.
 */
void
winnow_filters_page_new_from_samples (WinnowFiltersPage *self,
                                      const char        *command,
                                      GPtrArray         *samples)
{
  WinnowLearnOptions options;

  g_return_if_fail (WINNOW_IS_FILTERS_PAGE (self));
  g_return_if_fail (samples != NULL);

  winnow_learn_options_init (&options);
  self->learning = TRUE;
  winnow_learn_filter_async (command, samples, &options, NULL, learn_cb, g_object_ref (self));
}

typedef struct
{
  WinnowFiltersPage *self;
  GtkEntry          *command;
  GPtrArray         *checks;   /* GtkCheckButton, data "sample-id" ("" = the Preview input) */
} NewDialog;

static void
new_dialog_free (NewDialog *d)
{
  g_ptr_array_unref (d->checks);
  g_object_unref (d->self);
  g_free (d);
}

static void
new_response_cb (AdwMessageDialog *dialog,
                 const char       *response,
                 NewDialog        *d)
{
  g_autoptr(GPtrArray) samples = NULL;

  if (!g_str_equal (response, "create"))
    return;

  samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  for (guint i = 0; i < d->checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (d->checks, i);
      const char *id = g_object_get_data (G_OBJECT (check), "sample-id");
      g_autoptr(GBytes) bytes = NULL;

      if (!gtk_check_button_get_active (check))
        continue;

      if (id[0] == '\0')
        bytes = g_bytes_new (d->self->preview_input, strlen (d->self->preview_input));
      else
        bytes = winnow_samples_lookup (id, NULL);
      if (bytes != NULL)
        g_ptr_array_add (samples, winnow_learn_sample_new (id[0] ? id : _("Preview input"), bytes));
    }

  if (samples->len == 0)
    {
      winnow_show_toast (GTK_WIDGET (d->self), _("Pick at least one sample"));
      return;
    }

  winnow_filters_page_new_from_samples (d->self, gtk_editable_get_text (GTK_EDITABLE (d->command)),
                                        samples);
}

static void
on_check_toggled (GtkCheckButton *check,
                  NewDialog      *d)
{
  const char *command = g_object_get_data (G_OBJECT (check), "sample-command");

  /* the first sample picked suggests the command, until the person types one */
  if (gtk_check_button_get_active (check) && command != NULL &&
      gtk_editable_get_text (GTK_EDITABLE (d->command))[0] == '\0')
    gtk_editable_set_text (GTK_EDITABLE (d->command), command);
}

static GtkWidget *
sample_check (NewDialog  *d,
              const char *id,
              const char *title,
              const char *command)
{
  GtkWidget *check = gtk_check_button_new_with_label (title);

  g_object_set_data_full (G_OBJECT (check), "sample-id", g_strdup (id), g_free);
  g_object_set_data_full (G_OBJECT (check), "sample-command", g_strdup (command), g_free);
  g_signal_connect (check, "toggled", G_CALLBACK (on_check_toggled), d);
  g_ptr_array_add (d->checks, check);
  return check;
}

static void
new_from_samples_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  WinnowFiltersPage *self = WINNOW_FILTERS_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  AdwMessageDialog *dialog;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *entry = gtk_entry_new ();
  NewDialog *d = g_new0 (NewDialog, 1);

  d->self = g_object_ref (self);
  d->command = GTK_ENTRY (entry);
  d->checks = g_ptr_array_new ();

  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Command, e.g. pytest -v"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Command"), -1);
  gtk_box_append (GTK_BOX (box), entry);

  if (self->preview_input != NULL && self->preview_input[0] != '\0')
    gtk_box_append (GTK_BOX (box), sample_check (d, "", _("The Preview input"), self->preview_command));
  for (guint i = 0; i < winnow_samples_get_n_samples (); i++)
    if (winnow_samples_get_command (i) != NULL)
      gtk_box_append (GTK_BOX (box), sample_check (d, winnow_samples_get_id (i),
                                                   winnow_samples_get_title (i),
                                                   winnow_samples_get_command (i)));

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("New Filter from Samples"),
                                                       _("Pick outputs of one command. Winnow "
                                                         "drafts a filter that drops their noise "
                                                         "and keeps errors and summaries, with the "
                                                         "samples as its tests.")));
  adw_message_dialog_set_extra_child (dialog, box);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "create", _("_Draft Filter"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "create", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "create");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_data (dialog, "response", G_CALLBACK (new_response_cb), d,
                         (GClosureNotify) (void (*) (void)) new_dialog_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
winnow_filters_page_map (GtkWidget *widget)
{
  WinnowFiltersPage *self = WINNOW_FILTERS_PAGE (widget);

  GTK_WIDGET_CLASS (winnow_filters_page_parent_class)->map (widget);

  if (!self->verified && self->cancellable == NULL && self->context != NULL)
    verify_all (self);
}

/* --- GObject ------------------------------------------------------------------------------ */

static void
winnow_filters_page_dispose (GObject *object)
{
  WinnowFiltersPage *self = WINNOW_FILTERS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->context != NULL)
    g_signal_handlers_disconnect_by_func (self->context, on_config_changed, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_FILTERS_PAGE);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  g_clear_object (&self->selection);
  g_clear_object (&self->context);
  g_clear_pointer (&self->failing, g_hash_table_unref);
  g_clear_pointer (&self->diagnostics, g_hash_table_unref);
  g_clear_pointer (&self->preview_input, g_free);
  g_clear_pointer (&self->preview_command, g_free);

  G_OBJECT_CLASS (winnow_filters_page_parent_class)->dispose (object);
}

static void
winnow_filters_page_class_init (WinnowFiltersPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_filters_page_dispose;
  widget_class->map = winnow_filters_page_map;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-filters-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowFiltersPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowFiltersPage, filter_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowFiltersPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowFiltersPage, editor_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowFiltersPage, editor);

  gtk_widget_class_install_action (widget_class, "filters.new-from-samples", NULL,
                                   new_from_samples_action);

  g_type_ensure (WINNOW_TYPE_FILTER_EDITOR);
}

static void
winnow_filters_page_init (WinnowFiltersPage *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->failing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->diagnostics = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->shown_position = GTK_INVALID_LIST_POSITION;

  self->search_filter = gtk_custom_filter_new (match_search, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, GTK_FILTER (self->search_filter));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->filtered),
                                          GTK_SORTER (gtk_custom_sorter_new (compare_filters, NULL, NULL)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (row_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind), self);
  gtk_list_view_set_factory (self->filter_list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->filter_list, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->filter_list, "activate", G_CALLBACK (on_row_activated), self, 0);

  g_signal_connect_object (self->selection, "notify::selected",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "search-changed",
                           G_CALLBACK (on_search_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sorted, "items-changed",
                           G_CALLBACK (update_count), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "saved", G_CALLBACK (on_saved), self, 0);
}

void
winnow_filters_page_set_context (WinnowFiltersPage *self,
                                 WinnowContext     *context)
{
  g_return_if_fail (WINNOW_IS_FILTERS_PAGE (self));

  if (self->context == context)
    return;

  if (self->context != NULL)
    g_signal_handlers_disconnect_by_func (self->context, on_config_changed, self);
  g_set_object (&self->context, context);
  if (context != NULL)
    g_signal_connect_object (context, "notify::config", G_CALLBACK (on_config_changed), self, 0);

  gtk_filter_list_model_set_model (self->filtered,
                                   context ? G_LIST_MODEL (winnow_context_get_catalog (context)) : NULL);
  winnow_filter_editor_set_context (self->editor, context);

  /* every filter's tests take a worker a moment: not while the window starts, but when the
   * page is first shown */
  self->verified = FALSE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    verify_all (self);
}


/**
 * winnow_filters_page_show_filter:
 * @self: a #WinnowFiltersPage
 * @id: a filter id
 *
 * Selects the filter (clearing the search if it hides it) and opens it in the editor.
 *
 * Returns: %FALSE if the catalog has no such filter
 */
gboolean
winnow_filters_page_show_filter (WinnowFiltersPage *self,
                                 const char        *id)
{
  GListModel *model = G_LIST_MODEL (self->sorted);

  g_return_val_if_fail (WINNOW_IS_FILTERS_PAGE (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  for (guint pass = 0; pass < 2; pass++)
    {
      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(WinnowFilter) filter = g_list_model_get_item (model, i);

          if (g_str_equal (winnow_filter_get_id (filter), id))
            {
              if (gtk_single_selection_get_selected (self->selection) == i)
                show_selected (self);
              else
                gtk_single_selection_set_selected (self->selection, i);
              /* GTK 4.8 has no gtk_list_view_scroll_to () */
              gtk_widget_activate_action (GTK_WIDGET (self->filter_list), "list.scroll-to-item", "u", i);
              return TRUE;
            }
        }

      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      on_search_changed (self);
    }

  return FALSE;
}

WinnowFilterEditor *
winnow_filters_page_get_editor (WinnowFiltersPage *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTERS_PAGE (self), NULL);
  return self->editor;
}

/**
 * winnow_filters_page_get_model:
 * @self: a #WinnowFiltersPage
 *
 * Returns: (transfer none): the filters as listed: searched and sorted
 */
GListModel *
winnow_filters_page_get_model (WinnowFiltersPage *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTERS_PAGE (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

guint
winnow_filters_page_get_n_failing (WinnowFiltersPage *self,
                                   const char        *id)
{
  g_return_val_if_fail (WINNOW_IS_FILTERS_PAGE (self), 0);
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->failing, id));
}

gboolean
winnow_filters_page_get_verified (WinnowFiltersPage *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTERS_PAGE (self), FALSE);
  return self->verified;
}

void
winnow_filters_page_set_sample (WinnowFiltersPage *self,
                                const char        *text,
                                const char        *command)
{
  g_return_if_fail (WINNOW_IS_FILTERS_PAGE (self));

  g_free (self->preview_input);
  self->preview_input = g_strdup (text);
  g_free (self->preview_command);
  self->preview_command = g_strdup (command);
  winnow_filter_editor_set_sample (self->editor, text, command);
}

gboolean
winnow_filters_page_get_learning (WinnowFiltersPage *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTERS_PAGE (self), FALSE);
  return self->learning;
}
