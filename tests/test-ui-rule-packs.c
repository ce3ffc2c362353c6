/* test-ui-rule-packs.c — the Rule Packs page, driven through its real widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Set WINNOW_TEST_SHOTS=DIR to also write what the page looked like at the end of each test.
 */

#include "config.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-rule-packs-page.h"
#include "winnow-rule-prose-view.h"
#include "winnow-rule-row.h"
#include "winnow-sample-item.h"
#include "winnow-sample-row.h"
#include "winnow-window.h"

typedef struct
{
  char                *data_dir;
  WinnowContext       *context;
  WinnowWindow        *window;
  WinnowRulePacksPage *page;
  GtkTextView         *json;
  GtkStack            *views;
  GtkListView         *rules;
  GtkListView         *samples;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  GtkWidget *switcher;

  f->data_dir = g_dir_make_tmp ("winnow-ui-rule-packs-XXXXXX", NULL);
  f->context = winnow_context_new (f->data_dir, NULL);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1280, 800);
  winnow_window_set_page (f->window, "rule-packs");
  gtk_window_present (GTK_WINDOW (f->window));
  test_ui_wait_mapped (GTK_WIDGET (f->window));

  f->page = WINNOW_RULE_PACKS_PAGE (test_ui_find (GTK_WIDGET (f->window),
                                                  WINNOW_TYPE_RULE_PACKS_PAGE, NULL));
  g_assert_nonnull (f->page);
  g_assert_true (winnow_rule_packs_page_get_context (f->page) == f->context);

  f->json = GTK_TEXT_VIEW (test_ui_find (GTK_WIDGET (f->page), GTK_SOURCE_TYPE_VIEW, "Pack JSON"));
  switcher = test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_STACK_SWITCHER,
                           "Edit as a form or as JSON");
  f->rules = GTK_LIST_VIEW (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LIST_VIEW, "Rules"));
  f->samples = GTK_LIST_VIEW (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LIST_VIEW, "Samples"));
  g_assert_nonnull (f->json);
  g_assert_nonnull (switcher);
  g_assert_nonnull (f->rules);
  g_assert_nonnull (f->samples);
  f->views = gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (switcher));
}

static void
save_shot (Fixture    *f,
           const char *suffix)
{
  const char *dir = g_getenv ("WINNOW_TEST_SHOTS");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  test_ui_wait_frames (GTK_WIDGET (f->window), 2);
  texture = test_ui_render (GTK_WIDGET (f->window));
  name = g_strdelimit (g_strconcat (g_test_get_path () + 1, suffix, ".png", NULL), "/", '-');
  path = g_build_filename (dir, name, NULL);
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  save_shot (f, "");
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->window);
  g_clear_object (&f->context);
  test_util_remove_tree (f->data_dir);
  g_free (f->data_dir);
}

/* the check on screen was computed from the text now in the document */
static gboolean
checked (gpointer data)
{
  Fixture *f = data;
  WinnowRulePackCheck *check = winnow_rule_packs_page_get_check (f->page);
  WinnowRulePackDocument *document = winnow_rule_packs_page_get_document (f->page);

  return !winnow_rule_packs_page_get_busy (f->page) && check != NULL && document != NULL &&
         g_strcmp0 (winnow_rule_pack_check_get_text (check),
                    winnow_rule_pack_document_get_text (document)) == 0;
}

/* The biggest built-in pack (en/filler: ~390 rules, ~780 samples) takes a few seconds to
 * check and lay out; under the sanitizers, ten times that. */
static void
wait_checked (Fixture *f)
{
  g_assert_true (test_ui_wait_for (checked, f, 120000));
}

static void
open_pack (Fixture    *f,
           const char *language,
           const char *name)
{
  g_assert_true (winnow_rule_packs_page_select_pack (f->page, language, name));
  g_assert_nonnull (winnow_rule_packs_page_get_document (f->page));
  wait_checked (f);
}

/* the rule rows on screen: the form is a list view, with rows for the rules in sight */
static GPtrArray *
rule_rows (Fixture *f)
{
  test_ui_wait_frames (GTK_WIDGET (f->rules), 2);
  return test_ui_find_all (GTK_WIDGET (f->rules), WINNOW_TYPE_RULE_ROW);
}

/* the row showing rules[index], which must be in sight */
static WinnowRuleRow *
rule_row (Fixture *f,
          guint    index)
{
  g_autoptr(GPtrArray) rows = rule_rows (f);

  for (guint i = 0; i < rows->len; i++)
    if (winnow_rule_row_get_index (g_ptr_array_index (rows, i)) == index)
      return g_ptr_array_index (rows, i);

  g_assert_not_reached ();
  return NULL;
}

/* the rules the form shows (the search may leave some out) */
static guint
shown_rules (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (f->rules)));
}

/* the row of the first rule the form shows */
static GtkWidget *
first_shown_rule (Fixture *f)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (gtk_list_view_get_model (f->rules)), 0);

  return GTK_WIDGET (rule_row (f, winnow_rule_item_get_index (WINNOW_RULE_ITEM (item))));
}

/* a field of a rule, as a person reaches it: the row unfolded */
static GtkEditable *
field (WinnowRuleRow *row,
       const char    *tooltip)
{
  GtkWidget *widget;

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
  widget = test_ui_find (GTK_WIDGET (row), ADW_TYPE_ENTRY_ROW, tooltip);

  g_assert_nonnull (widget);
  return GTK_EDITABLE (widget);
}

/* the sample rows on screen, top first */
static GPtrArray *
shown_samples (Fixture *f)
{
  test_ui_wait_frames (GTK_WIDGET (f->samples), 2);
  return test_ui_find_all (GTK_WIDGET (f->samples), WINNOW_TYPE_SAMPLE_ROW);
}

static char *
rule_pack_path (Fixture    *f,
                const char *language,
                const char *name)
{
  g_autofree char *file = g_strconcat (name, ".json", NULL);

  return g_build_filename (f->data_dir, "rules", language, file, NULL);
}

static void
duplicate (Fixture    *f,
           const char *language,
           const char *name)
{
  g_autofree char *path = rule_pack_path (f, language, name);
  WinnowRulePackDocument *document;

  open_pack (f, language, name);
  document = winnow_rule_packs_page_get_document (f->page);
  g_assert_true (winnow_rule_pack_document_get_read_only (document));
  g_assert_false (gtk_text_view_get_editable (f->json));

  gtk_widget_activate_action (GTK_WIDGET (f->page), "rule-packs.duplicate", NULL);
  g_assert_false (winnow_rule_pack_document_get_read_only (document));
  g_assert_cmpstr (winnow_rule_pack_document_get_file (document), ==, path);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (gtk_text_view_get_editable (f->json));
  wait_checked (f);
}

/* Choosing a built-in pack shows each of its rules in the form, its file in the JSON view,
 * read-only, and every sample passing. */
/* Whether en/filler's row in the pack list is named "en/filler, N rules" (the page names rows
 * once they are laid out). */
static gboolean
pack_row_named (gpointer data)
{
  Fixture *f = data;
  g_autoptr(GPtrArray) expanders = test_ui_find_all (GTK_WIDGET (f->page), GTK_TYPE_TREE_EXPANDER);

  for (guint i = 0; i < expanders->len; i++)
    {
      GtkTreeExpander *expander = g_ptr_array_index (expanders, i);
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (expander);
      g_autoptr(GObject) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
      g_autofree char *title = NULL;
      g_autofree char *expected = NULL;

      if (!WINNOW_IS_RULE_PACK_ITEM (item) ||
          winnow_rule_pack_item_is_language (WINNOW_RULE_PACK_ITEM (item)) ||
          g_strcmp0 (winnow_rule_pack_item_get_language (WINNOW_RULE_PACK_ITEM (item)), "en") != 0)
        continue;
      g_object_get (item, "title", &title, NULL);
      if (g_strcmp0 (title, "filler") != 0)
        continue;

      expected = g_strdup_printf ("en/filler, %u rules",
                                  winnow_rule_pack_get_n_rules (winnow_rule_pack_item_get_pack (WINNOW_RULE_PACK_ITEM (item))));
      {
        /* (the label it has instead, when it is not the one expected) */
        g_autofree char *other = gtk_test_accessible_check_property (GTK_ACCESSIBLE (expander),
                                                                     GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                     expected);

        return other == NULL;
      }
    }
  return FALSE;
}

static void
test_select_pack (Fixture       *f,
                  gconstpointer  data)
{
  WinnowRulePackDocument *document;
  WinnowRulePackCheck *check;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) samples = NULL;
  g_autofree char *json = NULL;

  open_pack (f, "en", "filler");
  document = winnow_rule_packs_page_get_document (f->page);
  check = winnow_rule_packs_page_get_check (f->page);

  /* a rule for every entry; rows for those in sight */
  g_assert_cmpuint (shown_rules (f), ==, winnow_rule_pack_document_get_n_rules (document));
  g_assert_cmpuint (shown_rules (f), ==, winnow_rule_pack_get_n_rules (winnow_rule_pack_check_get_pack (check)));
  rows = rule_rows (f);
  g_assert_cmpuint (rows->len, >, 0);
  g_assert_cmpuint (rows->len, <, winnow_rule_pack_document_get_n_rules (document));
  g_assert_cmpstr (gtk_editable_get_text (field (rule_row (f, 0), "Rule name")), ==,
                   winnow_rule_get_name (winnow_rule_pack_get_rule (winnow_rule_pack_check_get_pack (check), 0)));
  g_assert_cmpstr (gtk_editable_get_text (field (rule_row (f, 0), "Pattern")), ==,
                   winnow_rule_get_pattern (winnow_rule_pack_get_rule (winnow_rule_pack_check_get_pack (check), 0)));
  g_assert_false (gtk_editable_get_editable (field (rule_row (f, 0), "Pattern")));

  json = test_ui_buffer_text (f->json);
  g_assert_cmpstr (json, ==, winnow_rule_pack_document_get_text (document));
  g_assert_true (winnow_rule_pack_document_get_read_only (document));

  /* every sample is in the list; rows are made for those on screen */
  g_assert_cmpuint (winnow_rule_pack_check_get_n_samples (check), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (f->samples))),
                    ==, winnow_rule_pack_check_get_n_samples (check));
  samples = shown_samples (f);
  g_assert_cmpuint (samples->len, >, 0);
  g_assert_cmpuint (samples->len, <, winnow_rule_pack_check_get_n_samples (check));
  g_assert_cmpuint (winnow_rule_pack_check_get_n_failing (check), ==, 0);
  g_assert_cmpuint (winnow_rule_pack_check_get_n_errors (check), ==, 0);
  g_assert_cmpuint (winnow_rule_pack_item_get_n_failing (winnow_rule_packs_page_get_item (f->page)), ==, 0);

  /* its row in the list is named with its language, as every language has a filler pack */
  g_assert_true (test_ui_wait_for (pack_row_named, f, 60000));
}

static WinnowSampleRow *
first_failing_row (Fixture *f)
{
  g_autoptr(GPtrArray) samples = shown_samples (f);

  for (guint i = 0; i < samples->len; i++)
    if (winnow_sample_row_get_failing (g_ptr_array_index (samples, i)))
      return g_ptr_array_index (samples, i);

  return NULL;
}

/* A pattern that no longer matches fails the rule's samples: the pack's badge counts them and
 * the sample shows what was expected and what came out; putting it back makes them pass. */
static void
test_failing_sample (Fixture       *f,
                     gconstpointer  data)
{
  WinnowRulePackItem *item;
  WinnowRulePackCheck *check;
  WinnowSampleRow *failing;
  g_autofree char *pattern = NULL;
  const WinnowSampleCheck *sample = NULL;
  GtkWidget *expected, *actual;
  GtkEditable *entry;

  duplicate (f, "en", "terse");
  item = winnow_rule_packs_page_get_item (f->page);
  g_assert_cmpuint (winnow_rule_pack_item_get_n_failing (item), ==, 0);

  entry = field (rule_row (f, 0), "Pattern");
  pattern = g_strdup (gtk_editable_get_text (entry));
  gtk_editable_set_text (entry, "\\bnever-matches-anything-zq\\b");
  g_assert_true (winnow_rule_packs_page_get_busy (f->page));
  wait_checked (f);

  check = winnow_rule_packs_page_get_check (f->page);
  g_assert_cmpuint (winnow_rule_pack_check_get_n_failing (check), >, 0);
  g_assert_cmpuint (winnow_rule_pack_item_get_n_failing (item), ==,
                    winnow_rule_pack_check_get_n_failing (check));
  g_assert_null (winnow_rule_row_get_error (rule_row (f, 0)));

  failing = first_failing_row (f);
  g_assert_nonnull (failing);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (rule_row (f, 0)), TRUE);
  save_shot (f, "-failing");
  for (guint i = 0; i < winnow_rule_pack_check_get_n_samples (check) && sample == NULL; i++)
    {
      const WinnowSampleCheck *s = winnow_rule_pack_check_get_sample (check, i);

      for (guint k = 0; k < WINNOW_N_INTENSITIES; k++)
        if (s->verdict[k] == WINNOW_SAMPLE_FAILED && sample == NULL)
          sample = s;
    }
  g_assert_nonnull (sample);
  expected = test_ui_find (GTK_WIDGET (failing), GTK_TYPE_LABEL, "Expected");
  actual = test_ui_find (GTK_WIDGET (failing), GTK_TYPE_LABEL, "Actual");
  g_assert_nonnull (expected);
  g_assert_nonnull (actual);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (expected)), ==, sample->expected);
  /* the pattern matches nothing any more: the text comes out as it went in */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (actual)), ==, sample->actual[sample->intensity]);
  g_assert_cmpstr (sample->actual[sample->intensity], ==, sample->input);

  gtk_editable_set_text (entry, pattern);
  wait_checked (f);
  check = winnow_rule_packs_page_get_check (f->page);
  g_assert_cmpuint (winnow_rule_pack_check_get_n_failing (check), ==, 0);
  g_assert_cmpuint (winnow_rule_pack_item_get_n_failing (item), ==, 0);
  g_assert_null (first_failing_row (f));
}

/* A pattern that does not compile: the error sits under the rule, and saving is refused
 * without touching the file. */
static void
test_invalid_regex (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *path = rule_pack_path (f, "en", "terse");
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);
  WinnowRulePackDocument *document;
  WinnowRuleRow *row;
  GtkWidget *error_label;

  duplicate (f, "en", "terse");
  document = winnow_rule_packs_page_get_document (f->page);
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));

  row = rule_row (f, 0);
  gtk_editable_set_text (field (row, "Pattern"), "(?:unclosed");
  wait_checked (f);

  g_assert_nonnull (winnow_rule_row_get_error (row));
  g_assert_nonnull (strstr (winnow_rule_row_get_error (row), "invalid regex"));
  error_label = test_ui_find (GTK_WIDGET (row), GTK_TYPE_LABEL, "Rule error");
  g_assert_nonnull (error_label);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (error_label)));
  g_assert_cmpuint (winnow_rule_pack_check_get_n_errors (winnow_rule_packs_page_get_check (f->page)), >, 0);

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (f->page), "rule-packs.save", NULL);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  g_assert_true (winnow_rule_pack_document_get_modified (document));
}

/* A saved duplicate is on disk as edited, loads without a diagnostic, equals what the editor
 * parsed, and keeps the version before it as the backup. */
static void
test_save_duplicate (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *path = rule_pack_path (f, "en", "dedup");
  g_autofree char *backup_path = g_strconcat (path, ".bak", NULL);
  g_autofree char *duplicated = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *backup = NULL;
  g_autofree char *reloaded_json = NULL;
  g_autofree char *edited_json = NULL;
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowRulePack) reloaded = NULL;
  g_autoptr(WinnowRulePack) edited = NULL;
  WinnowRulePackDocument *document;

  duplicate (f, "en", "dedup");
  document = winnow_rule_packs_page_get_document (f->page);
  g_assert_true (g_file_get_contents (path, &duplicated, NULL, NULL));

  gtk_editable_set_text (field (rule_row (f, 0), "Description"), "Edited in the form — ünïcode");
  g_assert_true (winnow_rule_pack_document_get_modified (document));
  wait_checked (f);
  gtk_widget_activate_action (GTK_WIDGET (f->page), "rule-packs.save", NULL);
  g_assert_false (winnow_rule_pack_document_get_modified (document));

  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_cmpstr (saved, ==, winnow_rule_pack_document_get_text (document));
  g_assert_nonnull (strstr (saved, "\"description\": \"Edited in the form — ünïcode\""));
  g_assert_true (g_file_get_contents (backup_path, &backup, NULL, NULL));
  g_assert_cmpstr (backup, ==, duplicated);

  reloaded = winnow_rule_pack_load_file (path, "global", diagnostics);
  test_util_print_diagnostics (diagnostics);
  g_assert_nonnull (reloaded);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 0);
  g_assert_cmpstr (winnow_rule_get_description (winnow_rule_pack_get_rule (reloaded, 0)), ==,
                   "Edited in the form — ünïcode");

  edited = winnow_rule_pack_parse (winnow_rule_pack_document_get_text (document), -1, "global",
                                   path, NULL);
  reloaded_json = winnow_rule_pack_to_json (reloaded);
  edited_json = winnow_rule_pack_to_json (edited);
  g_assert_cmpstr (reloaded_json, ==, edited_json);

  /* the engine now serves the saved pack: the list says it is the user's */
  g_assert_cmpstr (winnow_rule_pack_get_source (winnow_rule_pack_item_get_pack (winnow_rule_packs_page_get_item (f->page))),
                   ==, "global");
}

/* The form writes into the JSON text, the JSON text rebuilds the form, and a text that is
 * not JSON for a while loses nothing on the way back and forth. */
static void
test_switch_views (Fixture       *f,
                   gconstpointer  data)
{
  WinnowRulePackDocument *document;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (f->json);
  g_autofree char *json = NULL;
  g_autofree char *broken = NULL;
  g_autofree char *shown = NULL;
  GtkTextIter start, end;
  GtkStack *form_stack;
  GtkSourceLanguage *language;

  duplicate (f, "en", "terse");
  document = winnow_rule_packs_page_get_document (f->page);

  gtk_stack_set_visible_child_name (f->views, "form");
  gtk_editable_set_text (field (rule_row (f, 0), "Replacement"), "SHORT$1");
  gtk_stack_set_visible_child_name (f->views, "json");
  json = test_ui_buffer_text (f->json);
  g_assert_nonnull (strstr (json, "\"replacement\": \"SHORT$1\""));
  /* highlighted as JSON once shown (the language is loaded then, not with the page) */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (f->json)));
  language = gtk_source_buffer_get_language (GTK_SOURCE_BUFFER (buffer));
  g_assert_nonnull (language);
  g_assert_cmpstr (gtk_source_language_get_id (language), ==, "json");
  g_assert_cmpstr (json, ==, winnow_rule_pack_document_get_text (document));

  /* an edit in the JSON view shows in the form */
  gtk_text_buffer_get_start_iter (buffer, &start);
  g_assert_true (gtk_text_iter_forward_search (&start, "SHORT$1", 0, &start, &end, NULL));
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, "TYPED$1", -1);
  gtk_stack_set_visible_child_name (f->views, "form");
  g_assert_cmpstr (gtk_editable_get_text (field (rule_row (f, 0), "Replacement")), ==, "TYPED$1");

  /* break the JSON: the form steps aside, the text stays exactly as typed */
  gtk_stack_set_visible_child_name (f->views, "json");
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, "{ oops", -1);
  broken = test_ui_buffer_text (f->json);
  gtk_stack_set_visible_child_name (f->views, "form");
  form_stack = GTK_STACK (gtk_widget_get_ancestor (GTK_WIDGET (f->rules), GTK_TYPE_STACK));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (form_stack), ==, "invalid");
  wait_checked (f);
  g_assert_null (winnow_rule_pack_check_get_pack (winnow_rule_packs_page_get_check (f->page)));
  g_assert_cmpuint (winnow_rule_pack_check_get_n_errors (winnow_rule_packs_page_get_check (f->page)), >, 0);
  gtk_stack_set_visible_child_name (f->views, "json");
  shown = test_ui_buffer_text (f->json);
  g_assert_cmpstr (shown, ==, broken);
  g_assert_cmpstr (winnow_rule_pack_document_get_text (document), ==, broken);
}

/* The search keeps the packs whose name or a rule's name holds the words. */
static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  GtkListView *list = GTK_LIST_VIEW (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LIST_VIEW,
                                                   "Languages and rule packs"));
  GtkEditable *search = GTK_EDITABLE (test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_SEARCH_ENTRY,
                                                    "Search packs and rules"));
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (list));
  guint all = g_list_model_get_n_items (model);
  gboolean found_filler = FALSE;
  GtkWidget *filter_label;

  g_assert_cmpuint (all, >, 40);
  gtk_editable_set_text (search, "PHATIC_sentences");
  /* GtkSearchEntry waits a moment before it says the text changed */
  while (g_list_model_get_n_items (model) == all)
    g_main_context_iteration (NULL, TRUE);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(WinnowRulePackItem) item = gtk_tree_list_row_get_item (row);

      if (!winnow_rule_pack_item_is_language (item))
        {
          g_assert_true (winnow_rule_pack_item_matches (item, "phatic_sentences"));
          found_filler |= g_str_equal (winnow_rule_pack_item_get_language (item), "en") &&
                          g_str_equal (winnow_rule_pack_item_get_name (item), "filler");
        }
    }
  g_assert_true (found_filler);
  g_assert_true (winnow_rule_packs_page_select_pack (f->page, "en", "filler"));
  g_assert_false (winnow_rule_packs_page_select_pack (f->page, "en", "terse"));

  /* the form shows the rules the search found, and says so */
  g_assert_cmpuint (shown_rules (f), ==, 1);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (first_shown_rule (f))), ==,
                   "phatic_sentences");
  filter_label = test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_LABEL, "Rules the search shows");
  g_assert_nonnull (filter_label);
  g_assert_true (gtk_widget_is_visible (filter_label));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (filter_label)), "1 of "));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (filter_label)), "“PHATIC_sentences”"));
  /* and the samples of those rules */
  wait_checked (f);
  {
    GListModel *samples = G_LIST_MODEL (gtk_list_view_get_model (f->samples));

    g_assert_cmpuint (g_list_model_get_n_items (samples), >, 0);
    g_assert_cmpuint (g_list_model_get_n_items (samples), <,
                      winnow_rule_pack_check_get_n_samples (winnow_rule_packs_page_get_check (f->page)));
    for (guint i = 0; i < g_list_model_get_n_items (samples); i++)
      {
        g_autoptr(WinnowSampleItem) item = g_list_model_get_item (samples, i);

        g_assert_cmpstr (winnow_sample_item_get_sample (item)->rule, ==, "phatic_sentences");
      }
  }
  save_shot (f, "-filtered");
  gtk_widget_activate_action (GTK_WIDGET (f->rules), "rule-pack-editor.show-all-rules", NULL);
  g_assert_cmpuint (shown_rules (f), ==,
                    winnow_rule_pack_document_get_n_rules (winnow_rule_packs_page_get_document (f->page)));
  g_assert_false (gtk_widget_is_visible (filter_label));

  /* a pack found by its own name shows all its rules */
  gtk_editable_set_text (search, "filler");
  while (g_list_model_get_n_items (model) == all || shown_rules (f) < 2)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (shown_rules (f), ==,
                    winnow_rule_pack_document_get_n_rules (winnow_rule_packs_page_get_document (f->page)));
}

static gboolean
has_tag (GtkTextView *view,
         const char  *name)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), name);
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  return gtk_text_iter_has_tag (&iter, tag) || gtk_text_iter_forward_to_tag_toggle (&iter, tag);
}

/* Prose typed beside the pack: the pack's output, the protected tokens marked, and each rule
 * that fired with its count. */
static void
test_prose (Fixture       *f,
            gconstpointer  data)
{
  WinnowRuleProseView *prose;
  GtkTextView *input, *output;
  g_autofree char *shown = NULL;
  WinnowCavemanResult *result;
  const char *firings;
  GtkWidget *switcher;

  open_pack (f, "en", "filler");
  switcher = test_ui_find (GTK_WIDGET (f->page), GTK_TYPE_STACK_SWITCHER, "Samples or your own prose");
  g_assert_nonnull (switcher);
  gtk_stack_set_visible_child_name (gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (switcher)), "prose");
  prose = WINNOW_RULE_PROSE_VIEW (test_ui_find (GTK_WIDGET (f->page), WINNOW_TYPE_RULE_PROSE_VIEW, NULL));
  input = GTK_TEXT_VIEW (test_ui_find (GTK_WIDGET (prose), GTK_TYPE_TEXT_VIEW,
                                       "Prose to try the pack on"));
  output = GTK_TEXT_VIEW (test_ui_find (GTK_WIDGET (prose), GTK_TYPE_TEXT_VIEW,
                                        "What the pack makes of it"));

  winnow_rule_prose_view_set_text (prose, "Thanks so much for your help! I went ahead and "
                                          "renamed `src/main.c` as you suggested.");
  g_assert_true (has_tag (input, "protected"));
  /* pointing at a highlighted token says what it is */
  {
    g_autofree char *over_code = winnow_rule_prose_view_dup_protected_at (prose, FALSE, 60);
    g_autofree char *over_prose = winnow_rule_prose_view_dup_protected_at (prose, FALSE, 2);

    g_assert_cmpstr (over_code, ==, "Kept as written: inline code");
    g_assert_null (over_prose);
  }
  wait_checked (f);

  result = winnow_rule_pack_check_get_prose (winnow_rule_packs_page_get_check (f->page));
  g_assert_nonnull (result);
  g_assert_true (winnow_caveman_result_get_changed (result));
  g_assert_cmpuint (winnow_caveman_result_get_n_firings (result), >, 0);
  shown = test_ui_buffer_text (output);
  g_assert_cmpstr (shown, ==, winnow_caveman_result_get_text (result, NULL));
  g_assert_nonnull (strstr (shown, "`src/main.c`"));
  g_assert_null (strstr (shown, "Thanks"));
  g_assert_true (has_tag (output, "protected"));

  firings = winnow_rule_prose_view_get_firings (prose);
  g_assert_nonnull (firings);
  for (guint i = 0; i < winnow_caveman_result_get_n_firings (result); i++)
    {
      const WinnowCavemanFiring *firing = winnow_caveman_result_get_firing (result, i);
      g_autofree char *counted = g_strdup_printf ("%s ×", firing->rule);

      g_assert_cmpstr (firing->pack, ==, "filler");
      g_assert_nonnull (strstr (firings, counted));
    }
}

/* A sample of one rule holds at every intensity above its own, since the rule still runs
 * alone there; a sample showing that a full rule leaves lite text alone says nothing about
 * full, and is not judged there. */
static void
test_samples_above_their_intensity (void)
{
  static const char pack[] =
    "{\"language\":\"en\",\"category\":\"filler\",\"rules\":["
    "{\"name\":\"basically\",\"pattern\":\"\\\\bbasically,?\\\\s*\",\"replacement\":\"\"},"
    "{\"name\":\"really\",\"pattern\":\"\\\\breally\\\\s+\",\"replacement\":\"\","
    "\"minIntensity\":\"full\"}],"
    "\"tests\":["
    "{\"rule\":\"basically\",\"input\":\"Basically, it works.\",\"expected\":\"It works.\"},"
    "{\"rule\":\"really\",\"intensity\":\"full\",\"input\":\"It really works.\","
    "\"expected\":\"It works.\"},"
    "{\"rule\":\"really\",\"intensity\":\"lite\",\"input\":\"It really works.\","
    "\"expected\":\"It really works.\"}]}";
  g_autoptr(WinnowRuleSet) rules = winnow_rule_set_new ();
  g_autoptr(WinnowRulePackCheck) check = NULL;
  const WinnowSampleCheck *sample;

  check = winnow_rule_pack_check_run (rules, pack, "global", NULL, NULL,
                                      WINNOW_CAVEMAN_INTENSITY_LITE, WINNOW_MESSAGE_ROLE_USER,
                                      NULL);
  g_assert_cmpuint (winnow_rule_pack_check_get_n_samples (check), ==, 3);
  g_assert_cmpuint (winnow_rule_pack_check_get_n_failing (check), ==, 0);

  sample = winnow_rule_pack_check_get_sample (check, 0);
  g_assert_cmpint (sample->verdict[WINNOW_CAVEMAN_INTENSITY_ULTRA], ==, WINNOW_SAMPLE_PASSED);

  /* below the rule's own intensity: shown, not judged */
  sample = winnow_rule_pack_check_get_sample (check, 2);
  g_assert_cmpint (sample->verdict[WINNOW_CAVEMAN_INTENSITY_LITE], ==, WINNOW_SAMPLE_PASSED);
  g_assert_cmpint (sample->verdict[WINNOW_CAVEMAN_INTENSITY_FULL], ==, WINNOW_SAMPLE_NOT_APPLICABLE);
  g_assert_cmpstr (sample->actual[WINNOW_CAVEMAN_INTENSITY_FULL], ==, "It works.");
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add ("/winnow/ui/rule-packs/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("select-pack", test_select_pack);
  ADD ("failing-sample", test_failing_sample);
  ADD ("invalid-regex", test_invalid_regex);
  ADD ("save-duplicate", test_save_duplicate);
  ADD ("switch-views", test_switch_views);
  ADD ("search", test_search);
  ADD ("prose", test_prose);

#undef ADD

  g_test_add_func ("/winnow/ui/rule-packs/samples-above-their-intensity",
                   test_samples_above_their_intensity);

  return g_test_run ();
}
