/* winnow-cli-raw.c — `winnow raw list|show|rm|purge`: the retained raw outputs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `rawOutputRetention` kept (FORMATS.md §3), redacted, in DATA_DIR/rtk/raw-output/. An
 * id of the wrong shape is a usage error (exit 2) and never reaches the database or the disk;
 * a well-formed id that is not there is a failure (exit 1).
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "winnow-cli.h"
#include "winnow-cli-table.h"

#define DEFAULT_PURGE_AGE "30d"

static char *
format_time (gint64 time_us)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC);

  return time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S") : g_strdup ("?");
}

static char *
format_iso (gint64 time_us)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (time_us / G_USEC_PER_SEC);

  return time != NULL ? g_date_time_format_iso8601 (time) : NULL;
}

static void
add_info_json (JsonBuilder               *builder,
               const WinnowRawOutputInfo *info)
{
  g_autofree char *created = format_iso (info->created_us);
  g_autoptr(JsonParser) parser = json_parser_new ();

  winnow_cli_json_member (builder, "id", info->id);
  winnow_cli_json_member (builder, "createdAt", created);
  json_builder_set_member_name (builder, "bytes");
  json_builder_add_int_value (builder, info->bytes);
  json_builder_set_member_name (builder, "originalBytes");
  json_builder_add_int_value (builder, info->original_bytes);
  json_builder_set_member_name (builder, "truncated");
  json_builder_add_boolean_value (builder, info->truncated);
  winnow_cli_json_member (builder, "sha256", info->sha256);
  winnow_cli_json_member (builder, "path", info->path);
  winnow_cli_json_member (builder, "source", info->source);
  winnow_cli_json_member (builder, "command", info->command);
  json_builder_set_member_name (builder, "exitCode");
  if (info->has_exit_code)
    json_builder_add_int_value (builder, info->exit_code);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "failure");
  json_builder_add_boolean_value (builder, info->failure);
  json_builder_set_member_name (builder, "eventId");
  if (info->event_id > 0)
    json_builder_add_int_value (builder, info->event_id);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "redactions");
  if (json_parser_load_from_data (parser, info->redactions, -1, NULL) &&
      json_parser_get_root (parser) != NULL)
    json_builder_add_value (builder, json_node_copy (json_parser_get_root (parser)));
  else
    {
      json_builder_begin_object (builder);
      json_builder_end_object (builder);
    }
}

/* `github-token ×2, secret-assignment` */
static char *
redactions_summary (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  GString *out = g_string_new (NULL);
  JsonNode *root;
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  if (!json_parser_load_from_data (parser, json, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return g_string_free (out, FALSE);

  object = json_node_get_object (root);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      gint64 count = json_object_get_int_member_with_default (object, l->data, 0);

      if (out->len > 0)
        g_string_append (out, ", ");
      g_string_append (out, l->data);
      if (count > 1)
        g_string_append_printf (out, " ×%" G_GINT64_FORMAT, count);
    }

  return g_string_free (out, FALSE);
}

static int
raw_list (WinnowStore                *store,
          const WinnowRawOutputQuery *query,
          gboolean                    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = winnow_store_list_raw_outputs (store, query, &error);
  gint64 total = rows != NULL ? winnow_store_count_raw_outputs (store, query, &error) : -1;
  g_autoptr(WinnowCliTable) table = NULL;
  g_autofree char *text = NULL;

  if (rows == NULL || total < 0)
    {
      g_printerr ("winnow raw: %s\n", error->message);
      return WINNOW_EXIT_FAILURE;
    }

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *dir = winnow_store_get_raw_output_dir (store);

      json_builder_begin_object (builder);
      winnow_cli_json_member (builder, "folder", dir);
      json_builder_set_member_name (builder, "total");
      json_builder_add_int_value (builder, total);
      json_builder_set_member_name (builder, "rawOutputs");
      json_builder_begin_array (builder);
      for (guint i = 0; i < rows->len; i++)
        {
          json_builder_begin_object (builder);
          add_info_json (builder, g_ptr_array_index (rows, i));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      winnow_cli_print_json (root);
      return WINNOW_EXIT_OK;
    }

  if (rows->len == 0)
    {
      g_print (_("No raw outputs kept. Set rawOutputRetention to failures or always in the "
                 "settings to keep them.\n"));
      return WINNOW_EXIT_OK;
    }

  /* TRANSLATORS: column headings of `winnow raw list` */
  table = winnow_cli_table_new ("llrrl", _("ID"), _("WRITTEN"), _("BYTES"), _("EXIT"),
                                _("COMMAND"), NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      WinnowRawOutputInfo *info = g_ptr_array_index (rows, i);
      g_autofree char *when = format_time (info->created_us);
      g_autofree char *bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, info->bytes);
      g_autofree char *exit_code = info->has_exit_code ? g_strdup_printf ("%d", info->exit_code)
                                                       : g_strdup ("-");
      g_autofree char *redactions = redactions_summary (info->redactions);
      g_autofree char *command = g_strconcat (info->command ? info->command : _("(no command)"),
                                              info->truncated ? _(" [cut]") : "", NULL);

      winnow_cli_table_add_row (table, info->id, when, bytes, exit_code, command, NULL);
      if (redactions[0] != '\0')
        {
          g_autofree char *line = g_strdup_printf (_("%-24s  redacted: %s\n"), "", redactions);

          winnow_cli_table_add_line (table, g_strchomp (line));
        }
    }
  text = winnow_cli_table_format (table);
  g_print ("%s", text);

  if ((gint64) rows->len < total)
    {
      g_autofree char *more = g_strdup_printf ("%" G_GINT64_FORMAT, total - (gint64) rows->len);

      g_print (_("… and %s more (use --limit 0 for all)\n"), more);
    }

  return WINNOW_EXIT_OK;
}

/* the exit status for a lookup that failed */
static int
id_failed (GError *error)
{
  g_printerr ("winnow raw: %s\n", error->message);
  return g_error_matches (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID)
         ? WINNOW_EXIT_USAGE : WINNOW_EXIT_FAILURE;
}

static int
raw_show (WinnowStore *store,
          const char  *id,
          gboolean     json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRawOutputInfo) info = NULL;
  g_autoptr(GBytes) bytes = winnow_store_read_raw_output (store, id, &info, &error);
  const char *text;
  gsize length;

  if (bytes == NULL)
    return id_failed (error);

  text = g_bytes_get_data (bytes, &length);
  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *checksum = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                               (const guchar *) text, length);

      json_builder_begin_object (builder);
      add_info_json (builder, info);
      json_builder_set_member_name (builder, "intact");
      json_builder_add_boolean_value (builder, g_strcmp0 (checksum, info->sha256) == 0);
      json_builder_set_member_name (builder, "text");
      if (g_utf8_validate_len (text, length, NULL) && memchr (text, '\0', length) == NULL)
        json_builder_add_string_value (builder, length > 0 ? text : "");
      else
        {
          g_autofree char *valid = g_utf8_make_valid (text, length);

          json_builder_add_string_value (builder, valid);
        }
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      winnow_cli_print_json (root);
      return WINNOW_EXIT_OK;
    }

  fwrite (text, 1, length, stdout);
  fflush (stdout);
  return WINNOW_EXIT_OK;
}

int
winnow_cli_raw (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;
  g_autofree char *since_text = NULL;
  g_autofree char *older_than = NULL;
  WinnowCliCommon common = { 0 };
  WinnowRawOutputQuery query = { 0 };
  gboolean json = FALSE;
  gboolean failures = FALSE;
  GTimeSpan since = 0;
  GTimeSpan age = 0;
  int limit = 50;
  const char *action;
  int status = WINNOW_EXIT_OK;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("list, show: print JSON"), NULL },
    { "failures", 'f', 0, G_OPTION_ARG_NONE, &failures,
      N_("list: only output that looked like a failure"), NULL },
    { "command", 'c', 0, G_OPTION_ARG_STRING, &command,
      N_("list: only commands containing TEXT (case ignored)"), N_("TEXT") },
    { "since", 's', 0, G_OPTION_ARG_STRING, &since_text,
      N_("list: only output kept in the last SPAN: 24h, 7d, 2w… or all"), N_("SPAN") },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit,
      N_("list: at most N rows, newest first (default: 50; 0: all)"), N_("N") },
    { "older-than", 0, 0, G_OPTION_ARG_STRING, &older_than,
      N_("purge: remove output kept longer ago than SPAN (default: 30d)"), N_("SPAN") },
    { NULL }
  };

  context = winnow_cli_option_context (_("list|show ID|rm ID…|purge"),
                                       _("Read and remove the raw outputs Winnow kept."),
                                       _("list   the kept raw outputs, newest first\n"
                                         "show   print one, as written (redacted)\n"
                                         "rm     remove one or more\n"
                                         "purge  remove those older than --older-than\n\n"
                                         "Raw outputs are kept, redacted, in "
                                         "DATA_DIR/rtk/raw-output/ when the settings' "
                                         "rawOutputRetention is failures or always. IDs are 24 "
                                         "lowercase hex digits.\n\n"
                                         "Exit status: 0 on success, 1 if an ID is not there or "
                                         "the database cannot be read, 2 on a usage error (an "
                                         "ID of the wrong shape included)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "raw", &argc, &argv))
    {
      winnow_cli_common_clear (&common);
      return WINNOW_EXIT_USAGE;
    }

  if (argc < 2)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("raw", _("say list, show, rm or purge"));
    }

  action = argv[1];
  if (strcmp (action, "list") != 0 && strcmp (action, "show") != 0 &&
      strcmp (action, "rm") != 0 && strcmp (action, "purge") != 0)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("raw", _("unknown action “%s” (list, show, rm, purge)"),
                                     action);
    }

  if (((strcmp (action, "list") == 0 || strcmp (action, "purge") == 0) && argc > 2) ||
      (strcmp (action, "show") == 0 && argc != 3) || (strcmp (action, "rm") == 0 && argc < 3))
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("raw", strcmp (action, "show") == 0 || strcmp (action, "rm") == 0
                                            ? _("%s needs an ID") : _("%s takes no arguments"),
                                     action);
    }

  for (int i = 2; i < argc; i++)
    if (!winnow_raw_output_id_is_valid (argv[i]))
      {
        winnow_cli_common_clear (&common);
        return winnow_cli_usage_error ("raw", _("“%s” is not a raw output id (24 lowercase hex "
                                                "digits)"), argv[i]);
      }

  if (limit < 0)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("raw", _("--limit must be 0 or more"));
    }
  if ((since_text != NULL && !winnow_store_parse_since (since_text, &since, &error)) ||
      !winnow_store_parse_since (older_than ? older_than : DEFAULT_PURGE_AGE, &age, &error))
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("raw", "%s", error->message);
    }

  common.no_project = TRUE;
  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);
  store = winnow_store_open_for_context (ctx, &error);
  if (store == NULL)
    {
      g_printerr ("winnow raw: %s\n", error->message);
      return WINNOW_EXIT_FAILURE;
    }

  if (strcmp (action, "list") == 0)
    {
      query.command = command;
      query.failures_only = failures;
      query.since_us = since > 0 ? g_get_real_time () - since : 0;
      query.limit = limit;
      return raw_list (store, &query, json);
    }

  if (strcmp (action, "show") == 0)
    return raw_show (store, argv[2], json);

  if (strcmp (action, "rm") == 0)
    {
      for (int i = 2; i < argc; i++)
        {
          if (winnow_store_delete_raw_output (store, argv[i], &error))
            g_print (_("Removed %s\n"), argv[i]);
          else
            {
              int failed = id_failed (error);

              status = MAX (status, failed);
              g_clear_error (&error);
            }
        }
      return status;
    }

  /* purge */
  {
    gint64 removed = winnow_store_purge_raw_outputs (store, g_get_real_time () - age, &error);
    g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, removed);

    if (removed < 0)
      {
        g_printerr ("winnow raw: %s\n", error->message);
        return WINNOW_EXIT_FAILURE;
      }

    g_print (g_dngettext (GETTEXT_PACKAGE, "Removed %s raw output older than %s\n",
                          "Removed %s raw outputs older than %s\n", removed),
             number, older_than ? older_than : DEFAULT_PURGE_AGE);
  }

  return WINNOW_EXIT_OK;
}
