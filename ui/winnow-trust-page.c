/* winnow-trust-page.c — approving the filters a project ships
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project's `.rtk/filters.json` came with the repository, written by somebody else, and
 * decides what an agent sees of every command it runs there; the engine only loads it once
 * its exact bytes are approved (winnow-trust.c). This page is where that approval is given
 * with open eyes: left, the projects the person looked at (remembered in GSettings); right,
 * the chosen project's state, its hashes and each filter with what it does in plain words,
 * its validation diagnostics, its own tests' results and the risks the engine sees
 * (winnow-filter-risk.c). Approve shows that summary again, in a dialog, before it writes
 * the trust file — and refuses if the file changed while the dialog was open, because then
 * the person would approve bytes they never saw.
 *
 * Loading a project (parse, risk probes, the filters' own tests) runs in a worker; a file
 * monitor on the filters and trust files reloads the page when either changes on disk, so
 * an edit made in another program turns a trusted project into "changed" while it is shown.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-trust-page.h"
#include "winnow-toast.h"

/* enough to find a project again, not so many the list becomes a history */
#define MAX_RECENT_PROJECTS 20
/* editors write a file in bursts (truncate, write, rename): reload once they are done */
#define RELOAD_DELAY_MS 150

struct _WinnowTrustPage
{
  GtkWidget           parent_instance;

  WinnowContext      *context;
  GSettings          *settings;
  char               *project_dir;
  GCancellable       *cancellable;
  GFileMonitor       *filters_monitor;
  GFileMonitor       *trust_monitor;
  guint               reload_source;
  gboolean            loading;
  gboolean            selecting;

  /* what the worker found for project_dir */
  WinnowTrustStatus  *status;
  GPtrArray          *filters;       /* WinnowFilter, NULL when the file is unreadable */
  GPtrArray          *diagnostics;   /* WinnowDiagnostic of the file */
  GHashTable         *risks;         /* filter id → GPtrArray of WinnowDiagnostic */
  WinnowVerifyReport *report;

  /* template children */
  GtkStack           *projects_stack;
  GtkListBox         *project_list;
  GtkStack           *content_stack;
  GtkImage           *state_icon;
  GtkLabel           *state_title;
  GtkLabel           *state_message;
  GtkLabel           *path_label;
  GtkLabel           *current_label;
  GtkLabel           *trusted_label;
  AdwPreferencesGroup *diff_group;
  GtkLabel           *diff_label;
  char               *diff;
  GtkLabel           *filters_status;
  GtkListBox         *filter_list;
};

G_DEFINE_FINAL_TYPE (WinnowTrustPage, winnow_trust_page, GTK_TYPE_WIDGET)

static void load_project (WinnowTrustPage *self);

static void
remove_all_rows (GtkListBox *list)
{
  GtkWidget *child;

  /* GTK 4.8 has no gtk_list_box_remove_all () */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

/* --- what a filter does, in words ------------------------------------------------------- */

static void
append_patterns (GString            *out,
                 const char         *lead,
                 const char * const *patterns)
{
  if (patterns == NULL || patterns[0] == NULL)
    return;

  g_string_append_printf (out, "• %s ", lead);
  for (guint i = 0; patterns[i] != NULL; i++)
    g_string_append_printf (out, "%s/%s/", i > 0 ? ", " : "", patterns[i]);
  g_string_append_c (out, '\n');
}

/**
 * winnow_trust_describe_filter:
 * @filter: a filter
 *
 * What @filter does, one sentence per stage it uses: which commands and outputs it takes on,
 * which lines it drops, keeps or folds, what it always keeps. Patterns are quoted as written:
 * a summary that paraphrased them could hide exactly what the person must judge.
 *
 * Returns: (transfer full): the summary, lines separated by newlines
 */
char *
winnow_trust_describe_filter (WinnowFilter *filter)
{
  GString *out = g_string_new (NULL);
  const char * const *types;
  g_autoptr(GStrvBuilder) preserved = g_strv_builder_new ();
  g_auto(GStrv) keep = NULL;

  g_return_val_if_fail (WINNOW_IS_FILTER (filter), NULL);

  types = winnow_filter_get_output_types (filter);
  if (types[0] != NULL)
    {
      g_autofree char *joined = g_strjoinv (", ", (char **) types);

      /* Translators: %s is a list of output kinds such as "git-status, git-diff" */
      g_string_append_printf (out, _("• Takes output the detector recognises as %s\n"), joined);
    }
  append_patterns (out, _("Captures commands matching"), winnow_filter_get_command_patterns (filter));
  append_patterns (out, _("Takes output containing"), winnow_filter_get_text_patterns (filter));

  for (guint i = 0; i < winnow_filter_get_n_replace_rules (filter); i++)
    {
      const char *pattern, *replacement;

      winnow_filter_get_replace_rule (filter, i, &pattern, &replacement);
      /* Translators: a replace rule: a regex and what replaces its matches */
      g_string_append_printf (out, _("• Rewrites /%s/ as “%s”\n"), pattern, replacement);
    }
  for (guint i = 0; i < winnow_filter_get_n_match_output_rules (filter); i++)
    {
      const char *pattern, *message, *unless;

      winnow_filter_get_match_output_rule (filter, i, &pattern, &message, &unless);
      if (unless != NULL)
        /* Translators: the whole output is replaced by a message when a regex matches */
        g_string_append_printf (out, _("• Replaces the whole output with “%s” when it matches "
                                       "/%s/ but not /%s/\n"), message, pattern, unless);
      else
        g_string_append_printf (out, _("• Replaces the whole output with “%s” when it matches "
                                       "/%s/\n"), message, pattern);
    }

  append_patterns (out, _("Drops lines matching"), winnow_filter_get_drop_patterns (filter));
  append_patterns (out, _("Keeps only lines matching"), winnow_filter_get_include_patterns (filter));
  append_patterns (out, _("Keeps one copy of repeated lines matching"),
                   winnow_filter_get_collapse_patterns (filter));
  if (winnow_filter_get_truncate_line_at (filter) > 0)
    g_string_append_printf (out, _("• Cuts lines longer than %u characters\n"),
                            winnow_filter_get_truncate_line_at (filter));
  if (winnow_filter_get_deduplicate (filter))
    g_string_append (out, _("• Folds runs of identical lines\n"));
  if (winnow_filter_get_max_lines (filter) > 0)
    g_string_append_printf (out, _("• Keeps at most %u lines: the first %u and the last %u\n"),
                            winnow_filter_get_max_lines (filter),
                            winnow_filter_get_head_lines (filter),
                            winnow_filter_get_tail_lines (filter));

  g_strv_builder_addv (preserved, (const char **) winnow_filter_get_error_patterns (filter));
  g_strv_builder_addv (preserved, (const char **) winnow_filter_get_summary_patterns (filter));
  keep = g_strv_builder_end (preserved);
  append_patterns (out, _("Always keeps lines matching"), (const char * const *) keep);

  if (out->len == 0)
    g_string_append (out, _("• Changes nothing\n"));
  if (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);

  return g_string_free (out, FALSE);
}

/* --- loading a project in a worker ------------------------------------------------------ */

typedef struct
{
  char               *project_dir;
  gboolean            override;
  WinnowTrustStatus  *status;
  GPtrArray          *filters;
  GPtrArray          *diagnostics;
  GHashTable         *risks;
  WinnowVerifyReport *report;
  char               *store_path;
  char               *diff;      /* last approved version → the file now, or NULL */
} Load;

static void
load_free (Load *load)
{
  g_free (load->project_dir);
  g_clear_object (&load->status);
  g_clear_pointer (&load->filters, g_ptr_array_unref);
  g_clear_pointer (&load->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&load->risks, g_hash_table_unref);
  g_clear_object (&load->report);
  g_free (load->store_path);
  g_free (load->diff);
  g_free (load);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;
  const char *path;

  load->status = winnow_trust_check (load->project_dir, load->override);
  load->diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  load->risks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);

  path = winnow_trust_status_get_filters_path (load->status);
  if (winnow_trust_status_get_state (load->status) == WINNOW_TRUST_NO_FILTERS)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* what changed since the last approval, from the store's history of approved files */
  if (load->store_path != NULL &&
      winnow_trust_status_get_state (load->status) != WINNOW_TRUST_TRUSTED)
    {
      g_autoptr(WinnowStore) store = winnow_store_open (load->store_path, NULL);
      g_autofree char *approved_sha = NULL;
      g_autofree char *approved = NULL;
      g_autofree char *current = NULL;
      gint64 when = 0;

      if (store != NULL &&
          winnow_store_get_last_trust_approval (store, load->project_dir, &approved_sha, &when,
                                                &approved, NULL) &&
          approved != NULL && g_file_get_contents (path, &current, NULL, NULL) &&
          g_strcmp0 (approved, current) != 0)
        load->diff = winnow_diff_lines (approved, current);
    }

  load->filters = winnow_filter_pack_load_file (path, WINNOW_FILTER_SOURCE_PROJECT,
                                                WINNOW_FILTER_PARSE_DEFAULT, load->diagnostics);
  if (load->filters != NULL)
    {
      for (guint i = 0; i < load->filters->len; i++)
        {
          WinnowFilter *filter = g_ptr_array_index (load->filters, i);

          g_hash_table_replace (load->risks, g_strdup (winnow_filter_get_id (filter)),
                                winnow_filter_assess_risks (filter));
        }
      if (!g_cancellable_is_cancelled (cancellable))
        load->report = winnow_verify_filters (load->filters, cancellable);
    }

  g_task_return_boolean (task, TRUE);
}

/* --- showing it ------------------------------------------------------------------------- */

static guint
count_errors (GPtrArray *diagnostics)
{
  return diagnostics ? winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR) : 0;
}

/* The file is not something the engine can load at all: broken JSON or no filter in it. */
static gboolean
file_unreadable (WinnowTrustPage *self)
{
  return self->status != NULL &&
         winnow_trust_status_get_state (self->status) != WINNOW_TRUST_NO_FILTERS &&
         (self->filters == NULL || (self->filters->len == 0 && count_errors (self->diagnostics) > 0));
}

static char *
first_error (GPtrArray *diagnostics)
{
  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    if (winnow_diagnostic_get_level (g_ptr_array_index (diagnostics, i)) == WINNOW_DIAGNOSTIC_ERROR)
      return winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
  return NULL;
}

static void
update_actions (WinnowTrustPage *self)
{
  WinnowTrustState state = self->status ? winnow_trust_status_get_state (self->status)
                                        : WINNOW_TRUST_NO_FILTERS;
  gboolean can_approve = self->status != NULL && !self->loading && !file_unreadable (self) &&
                         count_errors (self->diagnostics) == 0 &&
                         (state == WINNOW_TRUST_UNTRUSTED || state == WINNOW_TRUST_CHANGED ||
                          state == WINNOW_TRUST_INVALID);
  gboolean can_revoke = self->status != NULL && !self->loading &&
                        (state == WINNOW_TRUST_TRUSTED || state == WINNOW_TRUST_CHANGED ||
                         (state == WINNOW_TRUST_INVALID &&
                          g_file_test (winnow_trust_status_get_trust_path (self->status),
                                       G_FILE_TEST_EXISTS)));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "trust.approve", can_approve);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "trust.revoke", can_revoke);
}

static void
set_banner (WinnowTrustPage *self,
            const char      *icon,
            const char      *style,
            const char      *title,
            const char      *message)
{
  static const char * const styles[] = { "success", "warning", "error", "dim-label", NULL };

  gtk_image_set_from_icon_name (self->state_icon, icon);
  for (guint i = 0; styles[i] != NULL; i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->state_icon), styles[i]);
  gtk_widget_add_css_class (GTK_WIDGET (self->state_icon), style);
  gtk_label_set_text (self->state_title, title);
  gtk_label_set_text (self->state_message, message);
}

static void
update_banner (WinnowTrustPage *self)
{
  g_autofree char *error = NULL;

  if (self->status == NULL)
    {
      set_banner (self, "content-loading-symbolic", "dim-label", _("Reading…"), "");
      return;
    }

  if (file_unreadable (self))
    {
      error = first_error (self->diagnostics);
      set_banner (self, "dialog-error-symbolic", "error", _("Invalid Filters File"),
                  error ? error : _("The file holds no filter the engine can load."));
      return;
    }

  switch (winnow_trust_status_get_state (self->status))
    {
    case WINNOW_TRUST_NO_FILTERS:
      set_banner (self, "folder-symbolic", "dim-label", _("No Project Filters"),
                  _("This project has no .rtk/filters.json. Only the built-in filters and "
                    "your own apply here."));
      break;
    case WINNOW_TRUST_TRUSTED:
      set_banner (self, "security-high-symbolic", "success", _("Trusted"),
                  _("The filters are exactly the version you approved; they run for commands "
                    "in this project."));
      break;
    case WINNOW_TRUST_CHANGED:
      set_banner (self, "dialog-warning-symbolic", "warning", _("Changed Since Approval"),
                  _("The filters file is no longer the version you approved, so it does not "
                    "run. Review the changes and approve again, or revoke."));
      break;
    case WINNOW_TRUST_UNTRUSTED:
      set_banner (self, "security-low-symbolic", "warning", _("Not Approved"),
                  _("The project ships filters that do not run until you approve them. Read "
                    "what they do below first."));
      break;
    case WINNOW_TRUST_INVALID:
      set_banner (self, "dialog-error-symbolic", "error", _("Approval Unreadable"),
                  winnow_trust_status_get_message (self->status));
      break;
    case WINNOW_TRUST_OVERRIDDEN:
    default:
      set_banner (self, "security-medium-symbolic", "warning", _("Trusted by Override"),
                  winnow_trust_status_get_message (self->status));
      break;
    }
}

static void
update_hashes (WinnowTrustPage *self)
{
  const char *current = self->status ? winnow_trust_status_get_current_sha256 (self->status) : NULL;
  const char *trusted = self->status ? winnow_trust_status_get_trusted_sha256 (self->status) : NULL;

  gtk_label_set_text (self->path_label, self->status
                      ? winnow_trust_status_get_filters_path (self->status) : "");
  gtk_label_set_text (self->current_label, current ? current : _("no file"));
  gtk_label_set_text (self->trusted_label, trusted ? trusted : _("never approved"));
}

static GtkWidget *
detail_label (const char *text,
              const char *style)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  return label;
}

static void
count_outcomes (WinnowTrustPage *self,
                WinnowFilter    *filter,
                guint           *passed,
                GPtrArray       *failed_names)
{
  GListModel *outcomes;

  *passed = 0;
  if (self->report == NULL)
    return;

  outcomes = winnow_verify_report_get_outcomes (self->report);
  for (guint i = 0; i < g_list_model_get_n_items (outcomes); i++)
    {
      g_autoptr(WinnowTestOutcome) outcome = g_list_model_get_item (outcomes, i);

      if (winnow_test_outcome_get_filter (outcome) != filter)
        continue;
      if (winnow_test_outcome_get_passed (outcome))
        (*passed)++;
      else
        g_ptr_array_add (failed_names, g_strdup (winnow_test_outcome_get_name (outcome)));
    }
}

static GtkWidget *
filter_row (WinnowTrustPage *self,
            WinnowFilter    *filter)
{
  const char *id = winnow_filter_get_id (filter);
  GPtrArray *risks = g_hash_table_lookup (self->risks, id);
  g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) subtitle = g_string_new (id);
  g_autofree char *summary = winnow_trust_describe_filter (filter);
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *badge = NULL;
  guint passed = 0;
  guint n_problems = 0;

  count_outcomes (self, filter, &passed, failed);

  if (self->report == NULL)
    g_string_append (subtitle, _(" · running its tests…"));
  else if (failed->len > 0)
    /* Translators: in a filter's subtitle */
    g_string_append_printf (subtitle, _(" · %u of %u tests fail"), failed->len, passed + failed->len);
  else if (passed > 0)
    g_string_append_printf (subtitle, g_dngettext (GETTEXT_PACKAGE, " · %u test passes",
                                                   " · all %u tests pass", passed), passed);
  else
    g_string_append (subtitle, _(" · no tests"));
  if (risks != NULL && risks->len > 0)
    g_string_append_printf (subtitle, g_dngettext (GETTEXT_PACKAGE, " · %u risk", " · %u risks",
                                                   risks->len), risks->len);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), winnow_filter_get_label (filter)
                                 ? winnow_filter_get_label (filter) : id);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle->str);
  gtk_widget_set_name (row, id);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 12);

  if (winnow_filter_get_description (filter) != NULL)
    gtk_box_append (GTK_BOX (box), detail_label (winnow_filter_get_description (filter), "dim-label"));
  gtk_box_append (GTK_BOX (box), detail_label (summary, NULL));

  for (guint i = 0; risks != NULL && i < risks->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (risks, i);
      /* Translators: a risk found in a filter: %s is a JSON path, %s what could go wrong */
      g_autofree char *text = g_strdup_printf (_("⚠ Risk at %s: %s"),
                                               winnow_diagnostic_get_json_path (d),
                                               winnow_diagnostic_get_message (d));

      gtk_box_append (GTK_BOX (box), detail_label (text, "warning"));
      n_problems++;
    }

  for (guint i = 0; self->diagnostics != NULL && i < self->diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (self->diagnostics, i);
      g_autofree char *text = NULL;

      if (g_strcmp0 (winnow_diagnostic_get_filter_id (d), id) != 0 ||
          winnow_diagnostic_get_level (d) == WINNOW_DIAGNOSTIC_INFO)
        continue;
      text = g_strdup_printf ("%s %s: %s",
                              winnow_diagnostic_get_level (d) == WINNOW_DIAGNOSTIC_ERROR ? "✗" : "⚠",
                              winnow_diagnostic_get_json_path (d) ? winnow_diagnostic_get_json_path (d) : id,
                              winnow_diagnostic_get_message (d));
      gtk_box_append (GTK_BOX (box), detail_label (text, winnow_diagnostic_get_level (d) ==
                                                   WINNOW_DIAGNOSTIC_ERROR ? "error" : "warning"));
      n_problems++;
    }

  for (guint i = 0; i < failed->len; i++)
    {
      /* Translators: %s is the name of one of the filter's own tests */
      g_autofree char *text = g_strdup_printf (_("✗ Its test “%s” fails"),
                                               (char *) g_ptr_array_index (failed, i));

      gtk_box_append (GTK_BOX (box), detail_label (text, "error"));
    }

  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), box);

  if (failed->len > 0 || n_problems > 0)
    {
      badge = gtk_image_new_from_icon_name (failed->len > 0 ? "dialog-error-symbolic"
                                                             : "dialog-warning-symbolic");
      gtk_widget_add_css_class (badge, failed->len > 0 ? "error" : "warning");
      gtk_widget_set_tooltip_text (badge, failed->len > 0 ? _("Its own tests fail")
                                                          : _("Risks or diagnostics"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (badge), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      gtk_widget_get_tooltip_text (badge), -1);
      adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row), badge);
    }

  return row;
}

static void
update_filters (WinnowTrustPage *self)
{
  g_autofree char *text = NULL;
  g_autoptr(GHashTable) expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* a reload (the file changed on disk) keeps open what the person had open */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->filter_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (ADW_IS_EXPANDER_ROW (row) && adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row)))
      g_hash_table_add (expanded, g_strdup (gtk_widget_get_name (row)));
  remove_all_rows (self->filter_list);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_list),
                          self->filters != NULL && self->filters->len > 0);

  if (self->status == NULL)
    text = g_strdup ("");
  else if (winnow_trust_status_get_state (self->status) == WINNOW_TRUST_NO_FILTERS)
    text = g_strdup (_("There is nothing to approve."));
  else if (file_unreadable (self))
    text = g_strdup (_("The file cannot be read as filters; nothing in it can run or be approved "
                       "until it is fixed."));
  else
    {
      guint n = self->filters->len;
      guint n_risks = winnow_trust_page_get_n_risks (self);

      /* Translators: above the list of a project's filters */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u filter", "%u filters", n), n);
      if (n_risks > 0)
        {
          g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                "%s, %u risk to read before approving",
                                                                "%s, %u risks to read before approving",
                                                                n_risks), text, n_risks);

          g_free (text);
          text = g_steal_pointer (&more);
        }
      if (count_errors (self->diagnostics) > 0)
        {
          g_autofree char *more = g_strdup_printf (_("%s; the file has errors, fix them before "
                                                     "approving"), text);

          g_free (text);
          text = g_steal_pointer (&more);
        }
    }
  gtk_label_set_text (self->filters_status, text);

  for (guint i = 0; self->filters != NULL && i < self->filters->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (self->filters, i);
      GtkWidget *row = filter_row (self, filter);

      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row),
                                     g_hash_table_contains (expanded, winnow_filter_get_id (filter)));
      gtk_list_box_append (self->filter_list, row);
    }
}

static void
update_view (WinnowTrustPage *self)
{
  gtk_stack_set_visible_child_name (self->content_stack, self->project_dir ? "project" : "empty");
  update_banner (self);
  update_hashes (self);
  update_filters (self);
  update_actions (self);
}

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  WinnowTrustPage *self = WINNOW_TRUST_PAGE (source);
  Load *load = g_task_get_task_data (G_TASK (result));

  if (g_task_had_error (G_TASK (result)) || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;

  self->loading = FALSE;
  g_set_object (&self->status, load->status);
  g_clear_pointer (&self->filters, g_ptr_array_unref);
  self->filters = g_steal_pointer (&load->filters);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  self->diagnostics = g_steal_pointer (&load->diagnostics);
  g_clear_pointer (&self->risks, g_hash_table_unref);
  self->risks = g_steal_pointer (&load->risks);
  g_set_object (&self->report, load->report);
  g_free (self->diff);
  self->diff = g_steal_pointer (&load->diff);
  gtk_label_set_text (self->diff_label, self->diff ? self->diff : "");
  gtk_widget_set_visible (GTK_WIDGET (self->diff_group), self->diff != NULL);

  update_view (self);
}

static void
on_file_changed (WinnowTrustPage *self);

static GFileMonitor *
monitor_file (WinnowTrustPage *self,
              const char      *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GFileMonitor *monitor = g_file_monitor_file (file, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);

  if (monitor != NULL)
    g_signal_connect_object (monitor, "changed", G_CALLBACK (on_file_changed), self,
                             G_CONNECT_SWAPPED);
  return monitor;
}

static void
watch_project (WinnowTrustPage *self)
{
  g_autofree char *filters = NULL;
  g_autofree char *trust = NULL;

  if (self->filters_monitor != NULL)
    g_file_monitor_cancel (self->filters_monitor);
  if (self->trust_monitor != NULL)
    g_file_monitor_cancel (self->trust_monitor);
  g_clear_object (&self->filters_monitor);
  g_clear_object (&self->trust_monitor);

  if (self->project_dir == NULL)
    return;

  filters = g_build_filename (self->project_dir, ".rtk", "filters.json", NULL);
  trust = g_build_filename (self->project_dir, ".rtk", "trust.json", NULL);
  self->filters_monitor = monitor_file (self, filters);
  self->trust_monitor = monitor_file (self, trust);
}

static void
load_project (WinnowTrustPage *self)
{
  g_autoptr(GTask) task = NULL;
  Load *load;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->reload_source, g_source_remove);

  if (self->project_dir == NULL)
    {
      self->loading = FALSE;
      g_clear_object (&self->status);
      g_clear_pointer (&self->filters, g_ptr_array_unref);
      g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
      g_clear_object (&self->report);
      g_hash_table_remove_all (self->risks);
      update_view (self);
      return;
    }

  self->loading = TRUE;
  update_actions (self);

  load = g_new0 (Load, 1);
  load->project_dir = g_strdup (self->project_dir);
  load->override = self->context != NULL &&
                   winnow_config_get_trust_project_filters (winnow_context_get_config (self->context));
  if (self->context != NULL)
    load->store_path = winnow_store_default_path (winnow_context_get_data_dir (self->context));

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, load_cb, NULL);
  g_task_set_source_tag (task, load_project);
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (task, load_worker);
}

static void
reload_now (gpointer data)
{
  WinnowTrustPage *self = data;

  self->reload_source = 0;
  load_project (self);
}

static void
on_file_changed (WinnowTrustPage *self)
{
  g_clear_handle_id (&self->reload_source, g_source_remove);
  self->reload_source = g_timeout_add_once (RELOAD_DELAY_MS, reload_now, self);
}

/* --- the project list ------------------------------------------------------------------- */

static GtkWidget *
project_row (const char *dir)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autofree char *name = g_path_get_basename (dir);
  GtkWidget *title = gtk_label_new (name);
  GtkWidget *subtitle = gtk_label_new (dir);
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  /* Translators: %s is a project folder's name */
  g_autofree char *remove_label = g_strdup_printf (_("Remove %s from the List"), name);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), subtitle);

  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (remove, _("Remove from the List"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  remove_label, -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "trust.remove-project");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "s", dir);

  gtk_box_append (GTK_BOX (line), texts);
  gtk_box_append (GTK_BOX (line), remove);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), line);
  gtk_widget_set_tooltip_text (row, dir);
  g_object_set_data_full (G_OBJECT (row), "project-dir", g_strdup (dir), g_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, dir, -1);
  return row;
}

static void
select_current_row (WinnowTrustPage *self)
{
  self->selecting = TRUE;
  gtk_list_box_unselect_all (self->project_list);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->project_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "project-dir"), self->project_dir) == 0)
      gtk_list_box_select_row (self->project_list, GTK_LIST_BOX_ROW (row));
  self->selecting = FALSE;
}

static void
rebuild_projects (WinnowTrustPage *self)
{
  g_auto(GStrv) projects = g_settings_get_strv (self->settings, "recent-projects");

  remove_all_rows (self->project_list);
  for (guint i = 0; projects[i] != NULL; i++)
    gtk_list_box_append (self->project_list, project_row (projects[i]));
  gtk_stack_set_visible_child_name (self->projects_stack, projects[0] ? "list" : "empty");
  select_current_row (self);
}

static void
set_project (WinnowTrustPage *self,
             const char      *dir)
{
  if (g_strcmp0 (self->project_dir, dir) == 0)
    return;

  g_free (self->project_dir);
  self->project_dir = g_strdup (dir);
  g_clear_object (&self->status);
  g_clear_pointer (&self->filters, g_ptr_array_unref);
  g_clear_object (&self->report);
  watch_project (self);
  select_current_row (self);
  load_project (self);
  update_view (self);
}

static void
on_project_selected (WinnowTrustPage *self,
                     GtkListBoxRow   *row)
{
  if (self->selecting || row == NULL)
    return;

  set_project (self, g_object_get_data (G_OBJECT (row), "project-dir"));
}

static void
remove_project_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  WinnowTrustPage *self = WINNOW_TRUST_PAGE (widget);
  const char *dir = g_variant_get_string (parameter, NULL);
  g_auto(GStrv) projects = g_settings_get_strv (self->settings, "recent-projects");
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; projects[i] != NULL; i++)
    if (!g_str_equal (projects[i], dir))
      g_strv_builder_add (kept, projects[i]);
  result = g_strv_builder_end (kept);

  if (g_strcmp0 (self->project_dir, dir) == 0)
    set_project (self, result[0]);
  g_settings_set_strv (self->settings, "recent-projects", (const char * const *) result);
}

static void
add_response_cb (GtkNativeDialog *dialog,
                 int              response,
                 WinnowTrustPage *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        winnow_trust_page_open_project (self, path);
      else
        winnow_show_toast (GTK_WIDGET (self), _("Only local folders can hold project filters"));
    }

  g_object_unref (dialog);
}

static void
add_project_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Add a Project Folder"),
                                        GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        _("_Add"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (add_response_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* --- approve and revoke ----------------------------------------------------------------- */

static void
approve_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     WinnowTrustPage  *self)
{
  const char *shown = g_object_get_data (G_OBJECT (dialog), "sha256");
  g_autofree char *path = NULL;
  g_autofree char *now = NULL;
  g_autofree char *approved = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_str_equal (response, "approve") || self->project_dir == NULL)
    return;

  /* what is approved must be what was shown */
  path = g_build_filename (self->project_dir, ".rtk", "filters.json", NULL);
  now = winnow_trust_hash_file (path, NULL);
  if (g_strcmp0 (now, shown) != 0)
    {
      winnow_show_toast (GTK_WIDGET (self), _("The filters file changed while you were reading it; review it again"));
      load_project (self);
      return;
    }

  approved = winnow_trust_approve (self->project_dir, &error);
  if (approved == NULL)
    {
      /* Translators: %s says why the trust file could not be written */
      g_autofree char *message = g_strdup_printf (_("Could not approve: %s"), error->message);

      winnow_show_toast (GTK_WIDGET (self), message);
      return;
    }

  /* keep what was approved, so a later change can be shown as a diff */
  if (self->context != NULL)
    {
      g_autoptr(WinnowStore) store = winnow_store_open_for_context (self->context, &error);
      g_autofree char *text = NULL;

      if (store == NULL || !g_file_get_contents (path, &text, NULL, &error) ||
          !winnow_store_add_trust_approval (store, self->project_dir, approved,
                                            g_get_real_time (), text, &error))
        g_warning ("The approval of %s was not recorded: %s", self->project_dir,
                   error ? error->message : "?");
    }

  winnow_show_toast (GTK_WIDGET (self), _("Approved: the project’s filters run from now on"));
  load_project (self);
}

/**
 * winnow_trust_page_dup_summary:
 * @self: a #WinnowTrustPage
 *
 * Returns: (transfer full): what the shown project's filters do and the risks found, as the
 *   approve dialog shows it
 */
char *
winnow_trust_page_dup_summary (WinnowTrustPage *self)
{
  GString *out;

  g_return_val_if_fail (WINNOW_IS_TRUST_PAGE (self), NULL);

  out = g_string_new (NULL);
  for (guint i = 0; self->filters != NULL && i < self->filters->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (self->filters, i);
      GPtrArray *risks = self->risks ? g_hash_table_lookup (self->risks, winnow_filter_get_id (filter)) : NULL;
      g_autofree char *summary = winnow_trust_describe_filter (filter);

      if (out->len > 0)
        g_string_append (out, "\n\n");
      g_string_append_printf (out, "%s (%s)\n%s", winnow_filter_get_label (filter)
                              ? winnow_filter_get_label (filter) : winnow_filter_get_id (filter),
                              winnow_filter_get_id (filter), summary);
      for (guint k = 0; risks != NULL && k < risks->len; k++)
        {
          WinnowDiagnostic *d = g_ptr_array_index (risks, k);

          g_string_append_printf (out, _("\n⚠ Risk at %s: %s"), winnow_diagnostic_get_json_path (d),
                                  winnow_diagnostic_get_message (d));
        }
    }

  return g_string_free (out, FALSE);
}

static void
approve_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  WinnowTrustPage *self = WINNOW_TRUST_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *summary = winnow_trust_page_dup_summary (self);
  g_autofree char *body = NULL;
  g_autofree char *name = g_path_get_basename (self->project_dir);
  guint n_risks = winnow_trust_page_get_n_risks (self);
  AdwMessageDialog *dialog;
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *label;

  if (self->status == NULL || winnow_trust_status_get_current_sha256 (self->status) == NULL)
    return;

  /* Translators: %s is a project folder's name */
  body = g_strdup_printf (_("Once approved, these filters decide what an agent sees of every "
                            "command run in “%s”. Approve only what you have read."), name);

  if (self->diff != NULL)
    {
      GtkWidget *heading = gtk_label_new (_("Changes since the last approval"));
      GtkWidget *diff = detail_label (self->diff, NULL);

      gtk_widget_add_css_class (heading, "heading");
      gtk_label_set_xalign (GTK_LABEL (heading), 0);
      gtk_widget_add_css_class (diff, "monospace");
      gtk_widget_set_name (diff, "trust-approve-diff");
      gtk_box_append (GTK_BOX (box), heading);
      gtk_box_append (GTK_BOX (box), diff);
    }

  label = detail_label (summary, NULL);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_name (label, "trust-approve-summary");
  gtk_box_append (GTK_BOX (box), label);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_widget_set_size_request (scroller, 520, -1);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("Approve Project Filters?"), body));
  adw_message_dialog_set_extra_child (dialog, scroller);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "approve", _("_Approve"), NULL);
  /* a risky approval is possible, never the easy default */
  adw_message_dialog_set_response_appearance (dialog, "approve", n_risks > 0
                                              ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, n_risks > 0 ? "cancel" : "approve");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "sha256",
                          g_strdup (winnow_trust_status_get_current_sha256 (self->status)), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (approve_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
revoke_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  WinnowTrustPage *self = WINNOW_TRUST_PAGE (widget);
  g_autoptr(GError) error = NULL;

  if (self->project_dir == NULL)
    return;

  if (!winnow_trust_revoke (self->project_dir, &error))
    {
      /* Translators: %s says why the trust file could not be removed */
      g_autofree char *message = g_strdup_printf (_("Could not revoke: %s"), error->message);

      winnow_show_toast (GTK_WIDGET (self), message);
      return;
    }

  winnow_show_toast (GTK_WIDGET (self), _("Approval revoked: the project’s filters no longer run"));
  load_project (self);
}

/* --- GObject ------------------------------------------------------------------------------ */

static void
winnow_trust_page_dispose (GObject *object)
{
  WinnowTrustPage *self = WINNOW_TRUST_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->reload_source, g_source_remove);
  g_clear_pointer (&self->project_dir, g_free);
  watch_project (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_TRUST_PAGE);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  g_clear_object (&self->context);
  g_clear_object (&self->settings);
  g_clear_object (&self->status);
  g_clear_object (&self->report);
  g_clear_pointer (&self->filters, g_ptr_array_unref);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->risks, g_hash_table_unref);
  g_clear_pointer (&self->diff, g_free);

  G_OBJECT_CLASS (winnow_trust_page_parent_class)->dispose (object);
}

static void
winnow_trust_page_class_init (WinnowTrustPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_trust_page_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/winnow/Winnow/ui/winnow-trust-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, projects_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, project_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, state_icon);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, state_title);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, state_message);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, path_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, current_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, trusted_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, diff_group);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, diff_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, filters_status);
  gtk_widget_class_bind_template_child (widget_class, WinnowTrustPage, filter_list);

  gtk_widget_class_install_action (widget_class, "trust.add-project", NULL, add_project_action);
  gtk_widget_class_install_action (widget_class, "trust.remove-project", "s", remove_project_action);
  gtk_widget_class_install_action (widget_class, "trust.approve", NULL, approve_action);
  gtk_widget_class_install_action (widget_class, "trust.revoke", NULL, revoke_action);
}

static void
winnow_trust_page_init (WinnowTrustPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->risks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
  self->settings = g_settings_new (APP_ID);

  g_signal_connect_object (self->settings, "changed::recent-projects",
                           G_CALLBACK (rebuild_projects), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->project_list, "row-selected",
                           G_CALLBACK (on_project_selected), self, G_CONNECT_SWAPPED);

  rebuild_projects (self);
  update_view (self);
}

/* --- public API --------------------------------------------------------------------------- */

/**
 * winnow_trust_page_set_context:
 * @self: a #WinnowTrustPage
 * @context: the engine context; its settings say whether project filters are trusted by
 *   override
 */
void
winnow_trust_page_set_context (WinnowTrustPage *self,
                               WinnowContext   *context)
{
  g_return_if_fail (WINNOW_IS_TRUST_PAGE (self));

  if (!g_set_object (&self->context, context))
    return;

  if (self->project_dir == NULL)
    {
      g_auto(GStrv) projects = g_settings_get_strv (self->settings, "recent-projects");

      /* the context's own project first, then the last one looked at */
      if (context != NULL && winnow_context_get_project_dir (context) != NULL)
        winnow_trust_page_open_project (self, winnow_context_get_project_dir (context));
      else if (projects[0] != NULL)
        set_project (self, projects[0]);
      return;
    }

  load_project (self);
}

/**
 * winnow_trust_page_open_project:
 * @self: a #WinnowTrustPage
 * @project_dir: a project folder
 *
 * Puts the folder at the top of the remembered projects and shows it.
 */
void
winnow_trust_page_open_project (WinnowTrustPage *self,
                                const char      *project_dir)
{
  g_auto(GStrv) projects = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;
  g_autofree char *canonical = NULL;
  guint n = 1;

  g_return_if_fail (WINNOW_IS_TRUST_PAGE (self));
  g_return_if_fail (project_dir != NULL);

  canonical = g_canonicalize_filename (project_dir, NULL);
  projects = g_settings_get_strv (self->settings, "recent-projects");
  g_strv_builder_add (builder, canonical);
  for (guint i = 0; projects[i] != NULL && n < MAX_RECENT_PROJECTS; i++)
    if (!g_str_equal (projects[i], canonical))
      {
        g_strv_builder_add (builder, projects[i]);
        n++;
      }
  result = g_strv_builder_end (builder);

  /* the project first, so the list rebuilt by the settings change selects it */
  set_project (self, canonical);
  g_settings_set_strv (self->settings, "recent-projects", (const char * const *) result);
}

const char *
winnow_trust_page_get_project (WinnowTrustPage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_PAGE (self), NULL);
  return self->project_dir;
}

/**
 * winnow_trust_page_get_status:
 * @self: a #WinnowTrustPage
 *
 * Returns: (transfer none) (nullable): the shown project's trust status, %NULL until read
 */
WinnowTrustStatus *
winnow_trust_page_get_status (WinnowTrustPage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_PAGE (self), NULL);
  return self->status;
}

/**
 * winnow_trust_page_get_filters:
 * @self: a #WinnowTrustPage
 *
 * Returns: (transfer none) (nullable) (element-type WinnowFilter): the project's filters,
 *   %NULL when there is no file or it cannot be read
 */
GPtrArray *
winnow_trust_page_get_filters (WinnowTrustPage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_PAGE (self), NULL);
  return self->filters;
}

guint
winnow_trust_page_get_n_risks (WinnowTrustPage *self)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_return_val_if_fail (WINNOW_IS_TRUST_PAGE (self), 0);

  g_hash_table_iter_init (&iter, self->risks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n += ((GPtrArray *) value)->len;
  return n;
}

/**
 * winnow_trust_page_get_busy:
 * @self: a #WinnowTrustPage
 *
 * Returns: %TRUE while the project is read, its risks assessed and its tests run
 */
gboolean
winnow_trust_page_get_busy (WinnowTrustPage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_PAGE (self), FALSE);
  return self->loading || self->reload_source != 0;
}
