/* test-ui-preferences.c — the Preferences window, driven through its real widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "test-ui-util.h"
#include "test-util.h"
#include "winnow-api-group.h"
#include "winnow-api-service.h"
#include "winnow-application.h"
#include "winnow-preferences-window.h"
#include "winnow-window.h"

typedef struct
{
  char                    *data_dir;
  char                    *settings_path;
  WinnowContext           *context;
  WinnowApiService        *service;
  WinnowWindow            *window;
  WinnowPreferencesWindow *prefs;
} Fixture;

static void
open_prefs (Fixture *f)
{
  f->context = winnow_context_new (f->data_dir, NULL);
  f->service = winnow_api_service_new (f->context);
  f->window = g_object_ref_sink (winnow_window_new_for_context (f->context));
  winnow_window_set_page (f->window, "preview");
  gtk_window_present (GTK_WINDOW (f->window));
  f->prefs = g_object_ref_sink (winnow_preferences_window_new (f->context, f->service));
  gtk_window_set_transient_for (GTK_WINDOW (f->prefs), GTK_WINDOW (f->window));
  gtk_window_present (GTK_WINDOW (f->prefs));
  test_ui_wait_mapped (GTK_WIDGET (f->prefs));
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *initial = data;

  g_settings_set_string (settings, "preview-mode", "rtk");
  g_settings_reset (settings, "preview-command");

  f->data_dir = g_dir_make_tmp ("winnow-ui-prefs-XXXXXX", NULL);
  f->settings_path = g_build_filename (f->data_dir, "settings.json", NULL);
  if (initial != NULL)
    test_util_write_file (f->settings_path, initial, -1);
  open_prefs (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  gtk_window_destroy (GTK_WINDOW (f->prefs));
  g_assert_finalize_object (f->prefs);
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->window);
  winnow_api_service_stop (f->service);
  g_assert_finalize_object (f->service);
  g_clear_object (&f->context);
  g_settings_reset (settings, "preview-mode");
  test_util_remove_tree (f->data_dir);
  g_free (f->settings_path);
  g_free (f->data_dir);
}

/* a control of the window, or of its HTTP API group */
static gpointer
get (Fixture    *f,
     const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (f->prefs),
                                                   WINNOW_TYPE_PREFERENCES_WINDOW, name);

  if (object == NULL)
    {
      GtkWidget *group = test_ui_find (GTK_WIDGET (f->prefs), WINNOW_TYPE_API_GROUP, NULL);

      g_assert_nonnull (group);
      object = gtk_widget_get_template_child (group, WINNOW_TYPE_API_GROUP, name);
    }
  g_assert_nonnull (object);
  return object;
}

static char *
read_settings (Fixture *f)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (f->settings_path, &text, NULL, NULL));
  return text;
}

static WinnowConfig *
config (Fixture *f)
{
  return winnow_context_get_config (f->context);
}

static gboolean
preview_settled (gpointer data)
{
  WinnowPreviewPage *page = data;

  return !winnow_preview_page_get_busy (page) && winnow_preview_page_get_result (page);
}

static char *
corpus_sample (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "corpus", "samples", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* A value changed in the window is in settings.json, in the context, and in the Preview;
 * the other keys of the file stay as they were. */
static void
test_values (Fixture       *f,
             gconstpointer  data)
{
  WinnowPreviewPage *page = winnow_window_get_preview_page (f->window);
  g_autofree char *log = corpus_sample ("git-log.txt");
  g_autofree char *text = NULL;
  WinnowPipelineResult *result;
  gsize before;

  /* the controls show the file */
  g_assert_cmpint (gtk_spin_button_get_value_as_int (get (f, "max_lines_spin")), ==, 90);
  g_assert_cmpuint (adw_combo_row_get_selected (get (f, "default_mode_row")), ==, 1);
  g_assert_null (winnow_preferences_window_get_error (f->prefs));
  g_assert_false (gtk_widget_get_visible (get (f, "error_group")));

  winnow_preview_page_set_input (page, log, "git log");
  g_assert_true (test_ui_wait_for (preview_settled, page, 30000));
  result = winnow_preview_page_get_result (page);
  before = strlen (winnow_pipeline_result_get_text (result, NULL));
  g_assert_cmpuint (before, <, strlen (log));

  /* a spin button */
  gtk_spin_button_set_value (get (f, "max_lines_spin"), 12);
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (config (f)), ==, 12);
  text = read_settings (f);
  g_assert_nonnull (strstr (text, "\"maxLinesPerResult\" : 12"));
  g_assert_nonnull (strstr (text, "\"otherTool\""));
  g_assert_nonnull (strstr (text, "\"defaultMode\" : \"rtk\""));

  /* …and the Preview recomputes with it */
  g_assert_true (winnow_preview_page_get_busy (page));
  g_assert_true (test_ui_wait_for (preview_settled, page, 30000));
  result = winnow_preview_page_get_result (page);
  g_assert_cmpuint (strlen (winnow_pipeline_result_get_text (result, NULL)), <, before);

  /* a switch: no RTK, no compression of command output */
  gtk_switch_set_active (get (f, "rtk_enabled_switch"), FALSE);
  g_assert_false (winnow_config_get_rtk_enabled (config (f)));
  g_assert_true (test_ui_wait_for (preview_settled, page, 30000));
  result = winnow_preview_page_get_result (page);
  g_assert_cmpstr (winnow_pipeline_result_get_text (result, NULL), ==, log);

  /* combo rows */
  adw_combo_row_set_selected (get (f, "default_mode_row"), 3);
  g_assert_cmpstr (winnow_config_get_default_mode (config (f)), ==, "stacked");
  adw_combo_row_set_selected (get (f, "caveman_intensity_row"), 2);
  g_assert_cmpstr (winnow_config_get_caveman_intensity (config (f)), ==, "ultra");
  adw_combo_row_set_selected (get (f, "rtk_intensity_row"), 2);
  g_assert_cmpint (winnow_config_get_rtk_intensity (config (f)), ==, WINNOW_RTK_INTENSITY_AGGRESSIVE);

  /* the language packs: detection first, then the languages with packs */
  {
    AdwComboRow *languages = get (f, "caveman_language_row");
    GListModel *model = adw_combo_row_get_model (languages);
    guint english = GTK_INVALID_LIST_POSITION;

    g_assert_cmpuint (adw_combo_row_get_selected (languages), ==, 0);
    g_assert_cmpuint (g_list_model_get_n_items (model), >=, 8);
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (model), i), "English"))
        english = i;
    g_assert_cmpuint (english, !=, GTK_INVALID_LIST_POSITION);
    adw_combo_row_set_selected (languages, english);
    g_assert_cmpstr (winnow_config_get_caveman_language (config (f)), ==, "en");
  }

  /* the filter lists */
  gtk_editable_set_text (get (f, "disabled_filters_row"), "git-status,  git-log");
  g_signal_emit_by_name (get (f, "disabled_filters_row"), "apply");
  g_assert_false (winnow_config_is_filter_enabled (config (f), "git-log"));
  g_assert_false (winnow_config_is_filter_enabled (config (f), "git-status"));
  g_assert_true (winnow_config_is_filter_enabled (config (f), "git-diff"));
  g_assert_cmpstr (gtk_editable_get_text (get (f, "disabled_filters_row")), ==,
                   "git-status, git-log");

  /* raw output, through the engine call of the Raw Output page */
  adw_combo_row_set_selected (get (f, "retention_row"), 1);
  g_assert_cmpstr (winnow_config_get_raw_output_retention (config (f)), ==, "failures");
  gtk_spin_button_set_value (get (f, "raw_max_spin"), 64);
  g_assert_cmpuint (winnow_config_get_raw_output_max_bytes (config (f)), ==, 64 * 1024);

  /* the bounds are the documented ranges */
  gtk_spin_button_set_value (get (f, "dedup_spin"), 0);
  g_assert_cmpuint (winnow_config_get_dedup_threshold (config (f)), ==, 2);
  gtk_spin_button_set_value (get (f, "retention_days_spin"), 99999);
  g_assert_cmpuint (winnow_config_get_retention_days (config (f)), ==, 36500);

  /* a change made elsewhere shows here */
  g_assert_true (winnow_context_set_raw_output_retention (f->context, "always", 4096, NULL));
  g_assert_cmpuint (adw_combo_row_get_selected (get (f, "retention_row")), ==, 2);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (get (f, "raw_max_spin")), ==, 4);

  g_free (text);
  text = read_settings (f);
  g_assert_nonnull (strstr (text, "\"otherTool\""));

  /* the data folder is shown */
  g_assert_cmpstr (adw_action_row_get_subtitle (get (f, "data_dir_row")), ==, f->data_dir);

  /* nothing left busy for the tear-down */
  test_ui_wait_for (preview_settled, page, 30000);
}

static GPtrArray *
step_dropdowns (Fixture *f)
{
  return test_ui_find_all (GTK_WIDGET (get (f, "pipeline_group")), GTK_TYPE_DROP_DOWN);
}

static const char *
step_engine (Fixture *f,
             guint    i)
{
  return winnow_config_get_pipeline_step (config (f), i)->engine;
}

static const char *
step_intensity (Fixture *f,
                guint    i)
{
  return winnow_config_get_pipeline_step (config (f), i)->intensity;
}

/* Steps are added, removed, reordered and changed through the rows' own controls. */
static void
test_steps (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GPtrArray) dropdowns = step_dropdowns (f);
  g_autofree char *text = NULL;
  GtkWidget *up;
  GtkWidget *down;

  /* the default rtk → caveman: two rows, an engine and an intensity each */
  g_assert_cmpuint (winnow_config_get_n_pipeline_steps (config (f)), ==, 2);
  g_assert_cmpuint (dropdowns->len, ==, 4);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdowns->pdata[0]), ==, 0);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdowns->pdata[1]), ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdowns->pdata[2]), ==, 1);

  /* the first step cannot move up, the last not down */
  up = test_ui_find (GTK_WIDGET (get (f, "pipeline_group")), GTK_TYPE_BUTTON, "Move Up");
  down = test_ui_find (GTK_WIDGET (get (f, "pipeline_group")), GTK_TYPE_BUTTON, "Move Down");
  g_assert_false (gtk_widget_get_sensitive (up));
  g_assert_true (gtk_widget_get_sensitive (down));

  /* add: a third row, saved */
  g_assert_true (gtk_widget_activate_action (get (f, "pipeline_group"), "steps.add", NULL));
  g_assert_cmpuint (winnow_config_get_n_pipeline_steps (config (f)), ==, 3);
  g_assert_cmpstr (step_engine (f, 2), ==, "rtk");
  g_clear_pointer (&dropdowns, g_ptr_array_unref);
  dropdowns = step_dropdowns (f);
  g_assert_cmpuint (dropdowns->len, ==, 6);

  /* reorder with the row's own button (a new row now): the first step moves down */
  down = test_ui_find (GTK_WIDGET (get (f, "pipeline_group")), GTK_TYPE_BUTTON, "Move Down");
  g_signal_emit_by_name (down, "clicked");
  g_assert_cmpstr (step_engine (f, 0), ==, "caveman");
  g_assert_cmpstr (step_engine (f, 1), ==, "rtk");
  g_assert_cmpstr (step_engine (f, 2), ==, "rtk");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdowns->pdata[0]), ==, 1);
  g_assert_true (gtk_widget_activate_action (get (f, "pipeline_group"), "steps.move-up", "u", 2));
  g_assert_true (gtk_widget_activate_action (get (f, "pipeline_group"), "steps.move-up", "u", 1));
  g_assert_cmpstr (step_engine (f, 0), ==, "rtk");
  g_assert_cmpstr (step_engine (f, 1), ==, "caveman");

  /* an engine change starts the step at that engine's default intensity */
  gtk_drop_down_set_selected (dropdowns->pdata[4], 2);
  g_assert_cmpstr (step_engine (f, 2), ==, "structure");
  g_assert_cmpstr (step_intensity (f, 2), ==, "lossless");
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdowns->pdata[5])), ==, 2);
  gtk_drop_down_set_selected (dropdowns->pdata[5], 1);
  g_assert_cmpstr (step_intensity (f, 2), ==, "lossy");
  gtk_drop_down_set_selected (dropdowns->pdata[3], 2);
  g_assert_cmpstr (step_intensity (f, 1), ==, "ultra");

  /* remove the first: two rows again */
  g_assert_true (gtk_widget_activate_action (get (f, "pipeline_group"), "steps.remove", "u", 0));
  g_assert_cmpuint (winnow_config_get_n_pipeline_steps (config (f)), ==, 2);
  g_assert_cmpstr (step_engine (f, 0), ==, "caveman");
  g_assert_cmpstr (step_intensity (f, 0), ==, "ultra");
  g_clear_pointer (&dropdowns, g_ptr_array_unref);
  dropdowns = step_dropdowns (f);
  g_assert_cmpuint (dropdowns->len, ==, 4);

  text = read_settings (f);
  g_assert_nonnull (strstr (text, "\"stackedPipeline\""));
  g_assert_nonnull (strstr (text, "\"lossy\""));
  g_assert_null (strstr (text, "\"standard\""));
}

/* Settings that are not JSON: the window says so, and no control overwrites them. */
static void
test_broken_file (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *text = NULL;
  guint before = winnow_config_get_max_lines_per_result (config (f));

  g_assert_nonnull (winnow_preferences_window_get_error (f->prefs));
  g_assert_nonnull (strstr (winnow_preferences_window_get_error (f->prefs), "settings.json"));
  g_assert_true (gtk_widget_get_visible (get (f, "error_group")));

  gtk_spin_button_set_value (get (f, "max_lines_spin"), 33);
  /* the control shows what is in force, not what was refused */
  g_assert_cmpint (gtk_spin_button_get_value_as_int (get (f, "max_lines_spin")), ==, before);
  g_assert_true (gtk_widget_activate_action (get (f, "pipeline_group"), "steps.add", NULL));
  g_assert_cmpuint (winnow_config_get_n_pipeline_steps (config (f)), ==, 2);
  adw_combo_row_set_selected (get (f, "retention_row"), 2);
  g_assert_cmpuint (adw_combo_row_get_selected (get (f, "retention_row")), ==, 0);

  text = read_settings (f);
  g_assert_cmpstr (text, ==, "{ \"defaultMode\": ");

  /* once fixed, the error goes and changes are saved again */
  test_util_write_file (f->settings_path, "{}", -1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->prefs), "prefs.check-settings", NULL));
  g_assert_null (winnow_preferences_window_get_error (f->prefs));
  g_assert_false (gtk_widget_get_visible (get (f, "error_group")));
  gtk_spin_button_set_value (get (f, "max_lines_spin"), 33);
  g_assert_cmpuint (winnow_config_get_max_lines_per_result (config (f)), ==, 33);
}

/* ---- the HTTP API ------------------------------------------------------------------------- */

static guint
free_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, NULL);

  g_assert_cmpuint (port, >=, 1024);
  g_socket_listener_close (listener);
  return port;
}

typedef struct
{
  GBytes *body;
  guint   status;
  gboolean done;
} Reply;

static void
sent_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Reply *reply = user_data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);

  reply->body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);
  reply->status = soup_message_get_status (msg);
  reply->done = TRUE;
}

static gboolean
reply_done (gpointer data)
{
  return ((Reply *) data)->done;
}

/* GET on the dashboard's own server: it answers on the main context, so wait by iterating. */
static char *
api_request (guint       port,
             const char *method,
             const char *path,
             const char *body,
             const char *token,
             guint      *status)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:%u%s", port, path);
  g_autoptr(SoupMessage) msg = soup_message_new (method, uri);
  Reply reply = { NULL, 0, FALSE };
  char *text;
  gsize length;

  if (token != NULL)
    {
      g_autofree char *header = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization",
                                    header);
    }
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    }
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, &reply);
  g_assert_true (test_ui_wait_for (reply_done, &reply, 30000));
  g_assert_nonnull (reply.body);
  *status = reply.status;
  text = g_strndup (g_bytes_get_data (reply.body, &length), g_bytes_get_size (reply.body));
  g_bytes_unref (reply.body);
  return text;
}

static char *
api_get (guint       port,
         const char *path,
         const char *token,
         guint      *status)
{
  return api_request (port, "GET", path, NULL, token, status);
}

static gboolean
max_lines_is_44 (gpointer data)
{
  return winnow_config_get_max_lines_per_result (config (data)) == 44;
}

/* Enabling the API in the window makes the server answer on its port with the token; the
 * settings it serves are the ones changed in the window. */
static void
test_api (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *token = NULL;
  g_autofree char *body = NULL;
  g_autofree char *token_path = winnow_server_token_path (f->data_dir);
  guint port = free_port ();
  guint status = 0;
  GStatBuf st;

  gtk_spin_button_set_value (get (f, "api_port_spin"), port);
  g_assert_cmpuint (winnow_api_service_get_port (f->service), ==, port);
  g_assert_false (winnow_api_service_get_running (f->service));
  g_assert_cmpstr (adw_action_row_get_subtitle (get (f, "api_address_row")), ==, "Not running");

  gtk_switch_set_active (get (f, "api_enabled_switch"), TRUE);
  g_assert_true (winnow_api_service_get_running (f->service));
  g_assert_cmpuint (winnow_api_service_get_bound_port (f->service), ==, port);
  {
    g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:%u/", port);

    g_assert_cmpstr (adw_action_row_get_subtitle (get (f, "api_address_row")), ==, uri);
  }

  /* the token is hidden until shown, and lives in a file only its owner may read */
  g_assert_null (strstr (gtk_label_get_text (get (f, "token_label")), "0"));
  gtk_toggle_button_set_active (get (f, "show_token_button"), TRUE);
  token = g_strdup (gtk_label_get_text (get (f, "token_label")));
  g_assert_cmpuint (strlen (token), ==, 64);
  g_assert_cmpint (g_stat (token_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* a setting changed in the window is what the API serves */
  gtk_spin_button_set_value (get (f, "max_chars_spin"), 7777);
  body = api_get (port, "/api/context/rtk/config", token, &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_nonnull (strstr (body, "\"maxCharsPerResult\":7777"));
  g_clear_pointer (&body, g_free);

  /* a change through the API reaches the window (through the file), and the window's next
   * change reaches the API: one set of settings */
  body = api_request (port, "PUT", "/api/settings/compression",
                      "{\"rtkConfig\": {\"maxLinesPerResult\": 44}}", token, &status);
  g_assert_cmpuint (status, ==, 200);
  g_clear_pointer (&body, g_free);
  g_assert_true (test_ui_wait_for (max_lines_is_44, f, 10000));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (get (f, "max_lines_spin")), ==, 44);
  gtk_spin_button_set_value (get (f, "max_chars_spin"), 8888);
  body = api_get (port, "/api/context/rtk/config", token, &status);
  g_assert_nonnull (strstr (body, "\"maxCharsPerResult\":8888"));
  g_assert_nonnull (strstr (body, "\"maxLinesPerResult\":44"));
  g_clear_pointer (&body, g_free);

  /* no token, no answer */
  body = api_get (port, "/api/context/rtk/config", NULL, &status);
  g_assert_cmpuint (status, ==, 401);
  g_clear_pointer (&body, g_free);

  /* a new token: the old one is refused, the new one shown and accepted */
  g_assert_true (winnow_api_service_regenerate_token (f->service, NULL));
  body = api_get (port, "/api/context/rtk/config", token, &status);
  g_assert_cmpuint (status, ==, 401);
  g_clear_pointer (&body, g_free);
  g_clear_pointer (&token, g_free);
  token = winnow_api_service_dup_token (f->service, NULL);
  body = api_get (port, "/api/settings/compression", token, &status);
  g_assert_cmpuint (status, ==, 200);
  g_clear_pointer (&body, g_free);

  /* off: the port is closed */
  gtk_switch_set_active (get (f, "api_enabled_switch"), FALSE);
  g_assert_false (winnow_api_service_get_running (f->service));
  {
    g_autoptr(GSocketClient) client = g_socket_client_new ();
    g_autoptr(GSocketConnection) connection = NULL;
    g_autoptr(GError) error = NULL;

    connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, &error);
    g_assert_null (connection);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
  }
}

/* A port someone else holds: the service says why instead of failing silently. */
static void
test_api_port_taken (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  guint port;

  address = g_inet_socket_address_new (loopback, 0);
  g_assert_true (g_socket_listener_add_address (listener, address, G_SOCKET_TYPE_STREAM,
                                                G_SOCKET_PROTOCOL_TCP, NULL, &bound, NULL));
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));

  gtk_spin_button_set_value (get (f, "api_port_spin"), port);
  gtk_switch_set_active (get (f, "api_enabled_switch"), TRUE);
  g_assert_false (winnow_api_service_get_running (f->service));
  g_assert_nonnull (winnow_api_service_get_error (f->service));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (get (f, "api_address_row")),
                            "cannot listen"));

  g_socket_listener_close (listener);
  gtk_switch_set_active (get (f, "api_enabled_switch"), FALSE);
  g_assert_null (winnow_api_service_get_error (f->service));
}

/* The application: app.preferences (Ctrl+comma) opens the window over its own context and
 * API, and the API follows the `api-enabled` key. */
static void
test_application (void)
{
  g_autofree char *data_dir = g_dir_make_tmp ("winnow-ui-prefs-app-XXXXXX", NULL);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(WinnowApplication) app = NULL;
  g_auto(GStrv) accels = NULL;
  WinnowPreferencesWindow *prefs = NULL;
  g_autoptr(GError) error = NULL;
  GList *windows;
  guint port = free_port ();

  g_setenv ("WINNOW_DATA_DIR", data_dir, TRUE);
  g_settings_set_uint (settings, "api-port", port);
  app = winnow_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.preferences");
  g_assert_cmpstr (accels[0], ==, "<Control>comma");

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  for (windows = gtk_application_get_windows (GTK_APPLICATION (app)); windows; windows = windows->next)
    if (WINNOW_IS_PREFERENCES_WINDOW (windows->data))
      prefs = windows->data;
  g_assert_nonnull (prefs);
  g_assert_true (winnow_preferences_window_get_context (prefs) ==
                 winnow_application_get_context (app));
  g_assert_true (winnow_preferences_window_get_api_service (prefs) ==
                 winnow_application_get_api_service (app));
  g_assert_cmpstr (winnow_context_get_data_dir (winnow_application_get_context (app)), ==, data_dir);

  /* the key starts and stops the application's server */
  g_settings_set_boolean (settings, "api-enabled", TRUE);
  g_assert_true (winnow_api_service_get_running (winnow_application_get_api_service (app)));
  g_assert_cmpuint (winnow_api_service_get_bound_port (winnow_application_get_api_service (app)),
                    ==, port);
  g_settings_set_boolean (settings, "api-enabled", FALSE);
  g_assert_false (winnow_api_service_get_running (winnow_application_get_api_service (app)));

  gtk_window_destroy (GTK_WINDOW (prefs));
  g_settings_reset (settings, "api-port");
  g_unsetenv ("WINNOW_DATA_DIR");
  test_util_remove_tree (data_dir);
}

int
main (int    argc,
      char **argv)
{
  test_ui_init (&argc, &argv);

#define ADD(path, initial, func) \
  g_test_add ("/winnow/ui/preferences/" path, Fixture, initial, fixture_set_up, func, \
              fixture_tear_down)

  ADD ("values", "{\"otherTool\": {\"keep\": 1}, \"defaultMode\": \"rtk\", "
       "\"rtkConfig\": {\"maxLinesPerResult\": 90}}", test_values);
  ADD ("steps", NULL, test_steps);
  ADD ("broken-file", "{ \"defaultMode\": ", test_broken_file);
  ADD ("api", NULL, test_api);
  ADD ("api-port-taken", NULL, test_api_port_taken);
  g_test_add_func ("/winnow/ui/preferences/application", test_application);

  return g_test_run ();
}
