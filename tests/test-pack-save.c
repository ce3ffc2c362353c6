/* test-pack-save.c — saving one filter into a pack file, and the catalog reading it again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "test-util.h"
#include "winnow.h"

static const char *filter_a =
  "{ \"id\": \"team-a\", \"label\": \"A\", \"match\": { \"commands\": [\"^team-a\\\\b\"] },"
  "  \"rules\": { \"dropPatterns\": [\"^noise\"] } }";
static const char *filter_b =
  "{ \"id\": \"team-b\", \"label\": \"B\", \"match\": { \"commands\": [\"^team-b\\\\b\"] },"
  "  \"rules\": { \"dropPatterns\": [\"^chatter\"] }, \"x-kept\": 42 }";

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("winnow-pack-save-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "rtk", "filters.json", NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  test_util_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static GPtrArray *
load (const char *path)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *filters = winnow_filter_pack_load_file (path, WINNOW_FILTER_SOURCE_GLOBAL,
                                                     WINNOW_FILTER_PARSE_DEFAULT, diagnostics);

  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  return filters;
}

/* A new pack: the folder is made, the file holds an array with the filter. */
static void
test_creates_pack (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) filters = NULL;
  g_autofree char *backup = g_strconcat (f->path, ".bak", NULL);

  g_assert_true (winnow_filter_pack_save_filter (f->path, filter_a, NULL, &error));
  g_assert_no_error (error);
  filters = load (f->path);
  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_cmpstr (winnow_filter_get_id (g_ptr_array_index (filters, 0)), ==, "team-a");
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
}

/* Replacing one filter keeps the others, its own unknown members, and a backup. */
static void
test_replaces_and_keeps_others (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) filters = NULL;
  g_autofree char *backup = g_strconcat (f->path, ".bak", NULL);
  g_autofree char *before = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *after = NULL;
  const char *edited = "{ \"id\": \"team-a\", \"label\": \"A, edited\","
                       "  \"match\": { \"commands\": [\"^team-a\\\\b\"] },"
                       "  \"rules\": { \"dropPatterns\": [\"^noise\", \"^more noise\"] } }";

  g_assert_true (winnow_filter_pack_save_filter (f->path, filter_a, NULL, &error));
  g_assert_true (winnow_filter_pack_save_filter (f->path, filter_b, NULL, &error));
  g_assert_no_error (error);
  before = read_text (f->path);

  g_assert_true (winnow_filter_pack_save_filter (f->path, edited, NULL, &error));
  g_assert_no_error (error);

  kept = read_text (backup);
  g_assert_cmpstr (kept, ==, before);
  after = read_text (f->path);
  g_assert_nonnull (strstr (after, "x-kept"));

  filters = load (f->path);
  g_assert_cmpuint (filters->len, ==, 2);
  g_assert_cmpstr (winnow_filter_get_label (g_ptr_array_index (filters, 0)), ==, "A, edited");
  g_assert_cmpstr (winnow_filter_get_id (g_ptr_array_index (filters, 1)), ==, "team-b");
}

/* A renamed filter replaces the one it was, not added beside it. */
static void
test_rename (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) filters = NULL;
  const char *renamed = "{ \"id\": \"team-a2\", \"match\": { \"commands\": [\"^team-a\\\\b\"] } }";

  g_assert_true (winnow_filter_pack_save_filter (f->path, filter_a, NULL, &error));
  g_assert_true (winnow_filter_pack_save_filter (f->path, renamed, "team-a", &error));
  g_assert_no_error (error);
  filters = load (f->path);
  g_assert_cmpuint (filters->len, ==, 1);
  g_assert_cmpstr (winnow_filter_get_id (g_ptr_array_index (filters, 0)), ==, "team-a2");
}

/* An invalid filter or a damaged pack on disk: nothing is written, nothing is lost. */
static void
test_refuses_invalid (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *backup = g_strconcat (f->path, ".bak", NULL);
  const char *bad_regex = "{ \"id\": \"team-a\", \"rules\": { \"dropPatterns\": [\"(unclosed\"] } }";

  g_assert_true (winnow_filter_pack_save_filter (f->path, filter_a, NULL, &error));
  before = read_text (f->path);

  g_assert_false (winnow_filter_pack_save_filter (f->path, bad_regex, NULL, &error));
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_FILTER);
  g_assert_nonnull (strstr (error->message, "rules.dropPatterns[0]"));
  g_clear_error (&error);

  g_assert_false (winnow_filter_pack_save_filter (f->path, "{ not json", NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  after = read_text (f->path);
  g_assert_cmpstr (after, ==, before);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));

  /* a pack damaged by hand is not overwritten */
  test_util_write_file (f->path, "[ { \"id\": ", -1);
  g_assert_false (winnow_filter_pack_save_filter (f->path, filter_b, NULL, &error));
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON);
  g_free (after);
  after = read_text (f->path);
  g_assert_cmpstr (after, ==, "[ { \"id\": ");
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *calls)
{
  (*calls)++;
}

/* The catalog reads a saved file again in place: same object, new contents, a signal. */
static void
test_catalog_reload (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GError) error = NULL;
  guint calls = 0;
  const char *edited = "{ \"id\": \"team-a\", \"label\": \"Edited\" }";

  winnow_catalog_add_builtin (catalog);
  g_assert_true (winnow_filter_pack_save_filter (f->path, filter_a, NULL, &error));
  g_assert_cmpuint (winnow_catalog_add_file (catalog, f->path, WINNOW_FILTER_SOURCE_GLOBAL), ==, 1);
  g_assert_cmpstr (winnow_filter_get_label (winnow_catalog_lookup (catalog, "team-a")), ==, "A");

  g_signal_connect (catalog, "items-changed", G_CALLBACK (on_items_changed), &calls);
  g_assert_true (winnow_filter_pack_save_filter (f->path, edited, NULL, &error));
  g_assert_cmpuint (winnow_catalog_reload_file (catalog, f->path, WINNOW_FILTER_SOURCE_GLOBAL), ==, 1);
  g_assert_cmpuint (calls, >, 0);
  g_assert_cmpstr (winnow_filter_get_label (winnow_catalog_lookup (catalog, "team-a")), ==, "Edited");

  /* a built-in duplicated into the global pack shadows the built-in one */
  g_assert_true (winnow_filter_pack_save_filter (f->path,
                                                 "{ \"id\": \"git-status\", \"label\": \"Mine\" }",
                                                 NULL, &error));
  winnow_catalog_reload_file (catalog, f->path, WINNOW_FILTER_SOURCE_GLOBAL);
  g_assert_cmpint (winnow_filter_get_source (winnow_catalog_lookup (catalog, "git-status")), ==,
                   WINNOW_FILTER_SOURCE_GLOBAL);

  /* the file gone, its filters go too */
  g_assert_cmpint (g_unlink (f->path), ==, 0);
  g_assert_cmpuint (winnow_catalog_reload_file (catalog, f->path, WINNOW_FILTER_SOURCE_GLOBAL), ==, 0);
  g_assert_null (winnow_catalog_lookup (catalog, "team-a"));
  g_assert_cmpint (winnow_filter_get_source (winnow_catalog_lookup (catalog, "git-status")), ==,
                   WINNOW_FILTER_SOURCE_BUILTIN);
}

/* Turning a filter off writes the settings, keeps what else they say, and takes effect. */
static void
test_filter_enabled (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *settings = g_build_filename (f->dir, "settings.json", NULL);
  g_autoptr(WinnowContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  test_util_write_file (settings, "{ \"defaultMode\": \"rtk\", \"rtkConfig\": { \"maxLinesPerResult\": 90 } }", -1);
  context = winnow_context_new (f->dir, NULL);
  g_assert_true (winnow_config_is_filter_enabled (winnow_context_get_config (context), "git-status"));

  g_assert_true (winnow_context_set_filter_enabled (context, "git-status", FALSE, &error));
  g_assert_no_error (error);
  g_assert_false (winnow_config_is_filter_enabled (winnow_context_get_config (context), "git-status"));
  text = read_text (settings);
  g_assert_nonnull (strstr (text, "defaultMode"));
  g_assert_nonnull (strstr (text, "maxLinesPerResult"));
  g_assert_nonnull (strstr (text, "git-status"));

  /* twice is the same as once */
  g_assert_true (winnow_context_set_filter_enabled (context, "git-status", FALSE, &error));
  g_assert_true (winnow_context_set_filter_enabled (context, "git-status", TRUE, &error));
  g_assert_true (winnow_config_is_filter_enabled (winnow_context_get_config (context), "git-status"));
  g_free (text);
  text = read_text (settings);
  g_assert_null (strstr (text, "git-status"));

  /* settings that are not JSON are left for the person to fix */
  test_util_write_file (settings, "{ oops", -1);
  g_assert_false (winnow_context_set_filter_enabled (context, "git-status", FALSE, &error));
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_CONFIG);
  g_free (text);
  text = read_text (settings);
  g_assert_cmpstr (text, ==, "{ oops");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/winnow/pack-save/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("creates-pack", test_creates_pack);
  ADD ("replaces-and-keeps-others", test_replaces_and_keeps_others);
  ADD ("rename", test_rename);
  ADD ("refuses-invalid", test_refuses_invalid);
  ADD ("catalog-reload", test_catalog_reload);
  ADD ("filter-enabled", test_filter_enabled);

#undef ADD

  return g_test_run ();
}
