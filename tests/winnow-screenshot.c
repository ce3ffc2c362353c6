/* winnow-screenshot.c — PNGs of every dashboard page, for looking at changes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `./dev screenshot [DIR]` runs this under Xvfb: the window at 1280×800 with a real sample
 * in the Preview and a month of real outputs compressed and recorded for the Savings page,
 * each page rendered by the window's own renderer, in the light and the dark style. Settings
 * live in memory, so the user's own are never touched.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-preferences-window.h"
#include "winnow-raw-output-page.h"
#include "winnow-savings-page.h"
#include "winnow-window.h"

static const char * const pages[] = {
  "preview", "filters", "rule-packs", "trust", "raw-output", "savings", NULL
};

static gboolean
settled (gpointer data)
{
  WinnowPreviewPage *page = data;

  return !winnow_preview_page_get_busy (page) && winnow_preview_page_get_result (page) != NULL;
}

static gboolean
editor_settled (gpointer data)
{
  return !winnow_filter_editor_get_busy (data);
}

static gboolean
shoot_widget (GtkWidget  *window,
              const char *dir,
              const char *name)
{
  g_autofree char *file = g_strdup_printf ("%s.png", name);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autoptr(GdkTexture) texture = NULL;

  test_ui_wait_frames (window, 3);
  texture = test_ui_render (window);
  if (texture == NULL || !gdk_texture_save_to_png (texture, path))
    {
      g_printerr ("winnow-screenshot: could not write %s\n", path);
      return FALSE;
    }
  g_print ("%s\n", path);
  return TRUE;
}

static gboolean
shoot_one (WinnowWindow *window,
           const char   *dir,
           const char   *name)
{
  return shoot_widget (GTK_WIDGET (window), dir, name);
}

/* The filter editor on a copy of a built-in filter with a pattern that breaks its tests. */
static gboolean
shoot_editor (WinnowWindow *window,
              const char   *dir)
{
  WinnowFiltersPage *page = winnow_window_get_filters_page (window);
  WinnowFilterEditor *editor = winnow_filters_page_get_editor (page);
  AdwViewStack *views;
  g_autoptr(GString) text = NULL;
  const char *marker = "\"dropPatterns\" : [";
  const char *at;
  static const char * const views_to_shoot[] = { "form", "json", "tests", "try", NULL };

  winnow_window_set_page (window, "filters");
  if (!winnow_filters_page_show_filter (page, "test-pytest"))
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (editor), "editor.duplicate", NULL);

  /* drop every FAILED line: the filter's own tests catch it */
  text = g_string_new (winnow_filter_editor_get_text (editor));
  at = strstr (text->str, marker);
  if (at != NULL)
    g_string_insert (text, at - text->str + strlen (marker), "\n        \"FAILED\",");
  winnow_filter_editor_set_text (editor, text->str);
  test_ui_wait_for (editor_settled, editor, 30000);

  views = ADW_VIEW_STACK (test_ui_find (GTK_WIDGET (editor), ADW_TYPE_VIEW_STACK, NULL));
  for (guint i = 0; views_to_shoot[i] != NULL; i++)
    {
      g_autofree char *name = g_strdup_printf ("filters-editor-%s", views_to_shoot[i]);

      adw_view_stack_set_visible_child_name (views, views_to_shoot[i]);
      if (!shoot_one (window, dir, name))
        return FALSE;
    }

  return TRUE;
}

/* A project that ships a few real filters (copies of built-ins it tunes) and one of its own
 * with a careless drop pattern, so the page has risks to show. */
static char *
make_trust_project (void)
{
  static const char * const ids[] = { "test-pytest", "git-status", "build-make", NULL };
  static const char risky[] =
    "{\n"
    "  \"id\": \"acme-deploy\",\n"
    "  \"label\": \"acme deploy\",\n"
    "  \"category\": \"deploy\",\n"
    "  \"match\": { \"commands\": [\"^(?:\\\\./)?deploy\\\\.sh\\\\b\"] },\n"
    "  \"rules\": { \"dropPatterns\": [\"^\\\\s*$\", \"^\\\\[deploy\\\\]\", \"error\"] }\n"
    "}";
  g_autoptr(WinnowCatalog) catalog = winnow_catalog_new ();
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) parsed = NULL;
  g_autofree char *json = NULL;
  g_autofree char *rtk = NULL;
  g_autofree char *path = NULL;
  char *dir = g_dir_make_tmp ("acme-shop-XXXXXX", NULL);

  winnow_catalog_add_builtin (catalog);
  for (guint i = 0; ids[i] != NULL; i++)
    {
      WinnowFilter *filter = winnow_catalog_lookup (catalog, ids[i]);

      if (filter != NULL)
        g_ptr_array_add (filters, g_object_ref (filter));
    }
  parsed = winnow_filter_pack_parse (risky, -1, WINNOW_FILTER_SOURCE_PROJECT, NULL,
                                     WINNOW_FILTER_PARSE_DEFAULT, NULL);
  if (parsed != NULL && parsed->len > 0)
    g_ptr_array_add (filters, g_object_ref (g_ptr_array_index (parsed, 0)));

  json = winnow_filter_pack_to_json (filters, TRUE);
  rtk = g_build_filename (dir, ".rtk", NULL);
  path = g_build_filename (rtk, "filters.json", NULL);
  g_mkdir_with_parents (rtk, 0755);
  g_file_set_contents (path, json, -1, NULL);
  return dir;
}

static gboolean
trust_settled (gpointer data)
{
  return !winnow_trust_page_get_busy (data) && winnow_trust_page_get_status (data) != NULL;
}

typedef struct
{
  WinnowTrustPage  *page;
  WinnowTrustState  state;
} TrustWait;

static gboolean
trust_in_state (gpointer data)
{
  TrustWait *w = data;

  return trust_settled (w->page) &&
         winnow_trust_status_get_state (winnow_trust_page_get_status (w->page)) == w->state;
}

/* The Trust page: untrusted with a risky filter opened, then trusted, then changed on disk. */
static gboolean
shoot_trust (WinnowWindow *window,
             const char   *dir,
             const char   *project)
{
  WinnowTrustPage *page = winnow_window_get_trust_page (window);
  g_autofree char *path = g_build_filename (project, ".rtk", "filters.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *approved = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  TrustWait wait = { page, WINNOW_TRUST_UNTRUSTED };

  winnow_window_set_page (window, "trust");
  winnow_trust_page_open_project (page, project);
  test_ui_wait_for (trust_settled, page, 30000);
  rows = test_ui_find_all (GTK_WIDGET (page), ADW_TYPE_EXPANDER_ROW);
  if (rows->len > 0)
    adw_expander_row_set_expanded (g_ptr_array_index (rows, rows->len - 1), TRUE);
  if (!shoot_one (window, dir, "trust-untrusted"))
    return FALSE;

  approved = winnow_trust_approve (project, NULL);
  wait.state = WINNOW_TRUST_TRUSTED;
  test_ui_wait_for (trust_in_state, &wait, 10000);
  if (!shoot_one (window, dir, "trust-trusted"))
    return FALSE;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;
  {
    g_autofree char *edited = g_strconcat (contents, "\n", NULL);

    g_file_set_contents (path, edited, -1, NULL);
  }
  wait.state = WINNOW_TRUST_CHANGED;
  test_ui_wait_for (trust_in_state, &wait, 10000);
  if (!shoot_one (window, dir, "trust-changed"))
    return FALSE;

  /* back to untrusted for the page-by-page shots */
  winnow_trust_revoke (project, NULL);
  g_file_set_contents (path, contents, -1, NULL);
  wait.state = WINNOW_TRUST_UNTRUSTED;
  test_ui_wait_for (trust_in_state, &wait, 10000);
  return TRUE;
}

/* A month of plausible use for the Savings page: real outputs from the test corpus,
 * compressed by the engine as `winnow run` compresses them and recorded the way it records
 * them, at working hours spread over the last 30 days (quieter at weekends), in three
 * projects. Seeded, so every run draws the same charts. */
static gboolean
seed_savings (WinnowContext *context)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR") ? g_getenv ("G_TEST_SRCDIR") : "tests";
  g_autofree char *manifest = g_build_filename (srcdir, "corpus", "manifest.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(WinnowPipeline) pipeline = winnow_pipeline_new (context);
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) commands = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GArray) events = g_array_new (FALSE, TRUE, sizeof (WinnowStoreEvent));
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240305);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GError) error = NULL;
  g_autofree char *shop = g_build_filename (g_get_home_dir (), "src", "acme-shop", NULL);
  g_autofree char *api = g_build_filename (g_get_home_dir (), "src", "pricing-api", NULL);
  g_autofree char *firmware = g_build_filename (g_get_home_dir (), "src", "firmware", NULL);
  const char *projects[] = { shop, api, firmware };
  JsonArray *samples;

  if (!json_parser_load_from_file (parser, manifest, &error) ||
      !JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      g_printerr ("winnow-screenshot: cannot read %s: %s\n", manifest,
                  error ? error->message : "not a list of samples");
      return FALSE;
    }

  samples = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonObject *sample = json_array_get_object_element (samples, i);
      const char *file = json_object_get_string_member_with_default (sample, "file", NULL);
      const char *command = json_object_get_string_member_with_default (sample, "command", NULL);
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      WinnowPipelineRequest request;
      WinnowPipelineResult *result;
      gsize len;

      if (file == NULL || command == NULL)
        continue;
      path = g_build_filename (srcdir, "corpus", file, NULL);
      if (!g_file_get_contents (path, &text, &len, NULL))
        continue;

      winnow_pipeline_request_init (&request);
      request.command = command;
      result = winnow_pipeline_run_text (pipeline, text, len, &request, NULL);
      if (result == NULL)
        continue;
      g_ptr_array_add (results, result);
      g_ptr_array_add (commands, g_strdup (command));
      g_array_append_val (sizes, len);
    }

  if (results->len == 0)
    {
      g_printerr ("winnow-screenshot: no corpus sample could be compressed\n");
      return FALSE;
    }

  for (int ago = 29; ago >= 0; ago--)
    {
      g_autoptr(GDateTime) day = g_date_time_add_days (now, -ago);
      gboolean weekend = g_date_time_get_day_of_week (day) >= 6;
      guint n = weekend ? g_rand_int_range (rand, 0, 6) : g_rand_int_range (rand, 12, 30);
      gint64 midnight = g_date_time_to_unix (day) - g_date_time_get_hour (day) * 3600 -
                        g_date_time_get_minute (day) * 60 - g_date_time_get_second (day);

      for (guint k = 0; k < n; k++)
        {
          guint pick = g_rand_int_range (rand, 0, results->len);
          WinnowStoreEvent event;

          winnow_store_event_init (&event, "run");
          winnow_store_event_set_result (&event, g_ptr_array_index (results, pick),
                                         g_array_index (sizes, gsize, pick));
          event.command = g_ptr_array_index (commands, pick);
          event.project = projects[g_rand_int_range (rand, 0, 3)];
          event.time_us = (midnight + g_rand_int_range (rand, 8 * 3600, 19 * 3600)) * G_USEC_PER_SEC;
          if (event.time_us < g_get_real_time ())
            g_array_append_val (events, event);
        }
    }

  store = winnow_store_open_for_context (context, &error);
  if (store == NULL ||
      !winnow_store_record_many (store, (WinnowStoreEvent *) (gpointer) events->data, events->len,
                                 &error))
    {
      g_printerr ("winnow-screenshot: cannot record the savings: %s\n", error->message);
      return FALSE;
    }

  return TRUE;
}

/* Real commands run here and kept the way `winnow run` keeps them with rawOutputRetention
 * "always": the output compressed by the engine, then redacted and written by the store. The
 * last one fails, and is the one the page shows selected. */
static gboolean
seed_raw_outputs (WinnowContext *context)
{
  const char *srcdir = g_getenv ("WINNOW_SOURCE_DIR") ? g_getenv ("WINNOW_SOURCE_DIR") : ".";
  const char * const commands[] = {
    "ls -la /usr/share",
    "git log --stat -n 12",
    "git status",
    "sh -c 'echo Deploying build 412; echo \"GITHUB_TOKEN=$DEPLOY_TOKEN\"; echo uploaded 3 artifacts'",
    "python3 -c 'import json; json.loads(\"{bad json\")'",
  };
  g_autoptr(WinnowPipeline) pipeline = winnow_pipeline_new (context);
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GError) error = NULL;
  /* a made-up token of the real shape, for the redaction to find in the output */
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "DEPLOY_TOKEN",
                                         "ghp_0123456789abcdefghijklmnopqrstuvwxyz", TRUE);

  store = winnow_store_open_for_context (context, &error);
  if (store == NULL)
    {
      g_printerr ("winnow-screenshot: cannot open the store: %s\n", error->message);
      return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(GStrv) argv = NULL;
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *text = NULL;
      g_autoptr(WinnowPipelineResult) result = NULL;
      g_autoptr(WinnowRawOutputInfo) info = NULL;
      WinnowPipelineRequest request;
      WinnowRawOutputRequest raw;
      int status = 0;

      if (!g_shell_parse_argv (commands[i], NULL, &argv, NULL) ||
          !g_spawn_sync (srcdir, argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                         &status, NULL))
        continue;
      text = g_strconcat (out, err, NULL);

      winnow_pipeline_request_init (&request);
      request.command = commands[i];
      result = winnow_pipeline_run_text (pipeline, text, -1, &request, NULL);
      if (result == NULL)
        continue;

      winnow_raw_output_request_init (&raw, "run", text, strlen (text));
      winnow_raw_output_request_set_result (&raw, result);
      raw.command = commands[i];
      raw.has_exit_code = TRUE;
      raw.exit_code = WIFEXITED (status) ? WEXITSTATUS (status) : 128;
      raw.compressed = TRUE;
      info = winnow_store_save_raw_output (store, &raw, 1 << 20, &error);
      if (info == NULL)
        {
          g_printerr ("winnow-screenshot: cannot keep “%s”: %s\n", commands[i], error->message);
          return FALSE;
        }

      /* the event `winnow run` records with it: the list shows its filter and savings */
      {
        WinnowStoreEvent event;

        winnow_store_event_init (&event, "run");
        winnow_store_event_set_result (&event, result, strlen (text));
        event.command = commands[i];
        event.raw_output_id = info->id;
        event.has_exit_code = TRUE;
        event.exit_code = raw.exit_code;
        winnow_store_record (store, &event, NULL, NULL);
      }
      g_usleep (2000);   /* distinct times, so the list order is the run order */
    }

  return TRUE;
}

static gboolean
raw_output_settled (gpointer data)
{
  return !winnow_raw_output_page_get_busy (data) &&
         g_strcmp0 (winnow_raw_output_page_get_state (data), "loading") != 0;
}

/* The newest output selected, beside its compressed form. */
static void
show_raw_output (WinnowWindow *window)
{
  WinnowRawOutputPage *page = winnow_window_get_raw_output_page (window);

  test_ui_wait_for (raw_output_settled, page, 30000);
  gtk_single_selection_set_selected (winnow_raw_output_page_get_selection (page), 0);
  test_ui_wait_frames (GTK_WIDGET (window), 2);
  test_ui_wait_for (raw_output_settled, page, 30000);
}

static gboolean
savings_settled (gpointer data)
{
  return !winnow_savings_page_get_busy (data) &&
         g_strcmp0 (winnow_savings_page_get_state (data), "loading") != 0;
}

/* The Preferences window, each of its pages, over the window as the application opens it. */
static gboolean
shoot_preferences (WinnowWindow *window,
                   const char   *dir,
                   const char   *suffix)
{
  static const char * const prefs_pages[] = { "compression", "command-output", "data", NULL };
  WinnowContext *context = winnow_window_get_context (window);
  g_autoptr(WinnowApiService) service = winnow_api_service_new (context);
  WinnowPreferencesWindow *prefs = winnow_preferences_window_new (context, service);
  gboolean ok = TRUE;

  gtk_window_set_transient_for (GTK_WINDOW (prefs), GTK_WINDOW (window));
  /* tall enough for every group of a page */
  gtk_window_set_default_size (GTK_WINDOW (prefs), 640, 1000);
  gtk_window_present (GTK_WINDOW (prefs));
  test_ui_wait_mapped (GTK_WIDGET (prefs));

  for (guint i = 0; ok && prefs_pages[i] != NULL; i++)
    {
      g_autofree char *name = g_strdup_printf ("preferences-%s%s", prefs_pages[i], suffix);

      adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (prefs),
                                                    prefs_pages[i]);
      ok = shoot_widget (GTK_WIDGET (prefs), dir, name);
    }

  gtk_window_destroy (GTK_WINDOW (prefs));

  /* a settings file that is not JSON: the window says so and changes nothing */
  if (ok && suffix[0] == '\0')
    {
      g_autofree char *path = g_build_filename (winnow_context_get_data_dir (context),
                                                "settings.json", NULL);

      g_file_set_contents (path, "{ \"defaultMode\": \"rtk\", ", -1, NULL);
      prefs = winnow_preferences_window_new (context, service);
      gtk_window_set_transient_for (GTK_WINDOW (prefs), GTK_WINDOW (window));
      gtk_window_present (GTK_WINDOW (prefs));
      test_ui_wait_mapped (GTK_WIDGET (prefs));
      ok = shoot_widget (GTK_WIDGET (prefs), dir, "preferences-broken-settings");
      gtk_window_destroy (GTK_WINDOW (prefs));
      g_unlink (path);
    }

  return ok;
}

static gboolean
shoot (WinnowWindow *window,
       const char   *dir,
       const char   *suffix)
{
  for (guint i = 0; pages[i] != NULL; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s%s.png", pages[i], suffix);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GdkTexture) texture = NULL;

      winnow_window_set_page (window, pages[i]);
      if (g_str_equal (pages[i], "savings"))
        test_ui_wait_for (savings_settled,
                          winnow_window_get_savings_page (window),
                          30000);
      if (g_str_equal (pages[i], "raw-output"))
        show_raw_output (window);
      test_ui_wait_frames (GTK_WIDGET (window), 3);
      texture = test_ui_render (GTK_WIDGET (window));
      if (texture == NULL || !gdk_texture_save_to_png (texture, path))
        {
          g_printerr ("winnow-screenshot: could not write %s\n", path);
          return FALSE;
        }
      g_print ("%s\n", path);
    }

  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  const char *dir = argc > 1 ? argv[1] : "screenshots";
  const char *sample = argc > 2 ? argv[2] : "pytest";
  g_autofree char *data_dir = g_dir_make_tmp ("winnow-screenshot-XXXXXX", NULL);
  g_autoptr(WinnowContext) context = NULL;
  g_autofree char *project = NULL;
  WinnowWindow *window;
  WinnowPreviewPage *page;
  gboolean ok;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* the pages in the language of $LANGUAGE; WINNOW_LOCALEDIR=<build>/po for uninstalled
   * catalogues, as for winnow itself */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("WINNOW_LOCALEDIR") ? g_getenv ("WINNOW_LOCALEDIR")
                                                                 : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  gtk_init ();
  adw_init ();
  test_ui_load_style ();

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_printerr ("winnow-screenshot: cannot create %s\n", dir);
      return EXIT_FAILURE;
    }

  context = winnow_context_new (data_dir, NULL);
  if (!seed_savings (context) || !seed_raw_outputs (context))
    return EXIT_FAILURE;
  window = winnow_window_new_for_context (context);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  test_ui_wait_mapped (GTK_WIDGET (window));

  page = winnow_window_get_preview_page (window);
  if (!winnow_preview_page_load_sample (page, sample))
    {
      g_printerr ("winnow-screenshot: no sample “%s”\n", sample);
      return EXIT_FAILURE;
    }
  test_ui_wait_for (settled, page, 30000);

  project = make_trust_project ();
  ok = shoot_trust (window, dir, project);
  ok = ok && shoot (window, dir, "");
  ok = ok && shoot_editor (window, dir);
  ok = ok && shoot_preferences (window, dir, "");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  ok = ok && shoot (window, dir, "-dark");
  ok = ok && shoot_preferences (window, dir, "-dark");

  gtk_window_destroy (GTK_WINDOW (window));
  test_util_remove_tree (data_dir);
  test_util_remove_tree (project);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
