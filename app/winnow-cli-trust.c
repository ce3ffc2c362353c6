/* winnow-cli-trust.c — `winnow trust status|approve|revoke`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-cli.h"

static void
print_status_json (WinnowTrustStatus *status,
                   GPtrArray         *filters,
                   GPtrArray         *diagnostics)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  winnow_cli_json_member (builder, "project", winnow_trust_status_get_project_dir (status));
  winnow_cli_json_member (builder, "state",
                          winnow_trust_state_to_string (winnow_trust_status_get_state (status)));
  json_builder_set_member_name (builder, "trusted");
  json_builder_add_boolean_value (builder, winnow_trust_status_is_trusted (status));
  winnow_cli_json_member (builder, "filtersPath", winnow_trust_status_get_filters_path (status));
  winnow_cli_json_member (builder, "trustPath", winnow_trust_status_get_trust_path (status));
  winnow_cli_json_member (builder, "sha256", winnow_trust_status_get_current_sha256 (status));
  winnow_cli_json_member (builder, "trustedSha256", winnow_trust_status_get_trusted_sha256 (status));
  winnow_cli_json_member (builder, "message", winnow_trust_status_get_message (status));
  json_builder_set_member_name (builder, "filters");
  json_builder_begin_array (builder);
  for (guint i = 0; filters != NULL && i < filters->len; i++)
    json_builder_add_string_value (builder, winnow_filter_get_id (g_ptr_array_index (filters, i)));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "diagnostics");
  winnow_cli_add_diagnostics_json (builder, diagnostics);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  winnow_cli_print_json (root);
}

static void
print_filter_summary (GPtrArray *filters)
{
  for (guint i = 0; i < filters->len; i++)
    {
      WinnowFilter *filter = g_ptr_array_index (filters, i);
      const char * const *commands = winnow_filter_get_command_patterns (filter);
      const char * const *types = winnow_filter_get_output_types (filter);
      const char * const *drops = winnow_filter_get_drop_patterns (filter);

      g_print ("  %s — %s\n", winnow_filter_get_id (filter), winnow_filter_get_label (filter));
      for (guint k = 0; types[k] != NULL; k++)
        g_print (_("      output type: %s\n"), types[k]);
      for (guint k = 0; commands[k] != NULL; k++)
        g_print (_("      captures commands: /%s/\n"), commands[k]);
      for (guint k = 0; drops[k] != NULL; k++)
        g_print (_("      drops lines: /%s/\n"), drops[k]);
    }
}

int
winnow_cli_trust (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowTrustStatus) status = NULL;
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *project = NULL;
  gboolean json = FALSE;
  gboolean force = FALSE;
  const char *action;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the status as JSON"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force,
      N_("Approve even when the filters file has errors"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (_("status|approve|revoke [PROJECT_DIR]"),
                                       _("Decide whether a project's .rtk/filters.json may run."),
                                       _("status   show the SHA-256 of .rtk/filters.json and whether "
                                         "it is trusted, changed since approval, or untrusted\n"
                                         "approve  record the file's exact SHA-256 in .rtk/trust.json "
                                         "(written atomically)\n"
                                         "revoke   remove .rtk/trust.json\n\n"
                                         "PROJECT_DIR defaults to the current directory.\n\n"
                                         "Exit status: 0 on success (for status: trusted, or no "
                                         "project filters), 1 otherwise, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!winnow_cli_parse (context, "trust", &argc, &argv))
    return WINNOW_EXIT_USAGE;

  if (argc < 2)
    return winnow_cli_usage_error ("trust", _("say status, approve or revoke"));
  if (argc > 3)
    return winnow_cli_usage_error ("trust", _("too many arguments"));

  action = argv[1];
  project = argc > 2 ? g_strdup (argv[2]) : g_get_current_dir ();

  if (!g_file_test (project, G_FILE_TEST_IS_DIR))
    return winnow_cli_usage_error ("trust", _("%s: not a directory"), project);

  if (g_strcmp0 (action, "status") == 0 || g_strcmp0 (action, "approve") == 0)
    {
      g_autofree char *path = g_build_filename (project, ".rtk", "filters.json", NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        filters = winnow_filter_pack_load_file (path, WINNOW_FILTER_SOURCE_PROJECT,
                                                WINNOW_FILTER_PARSE_DEFAULT, diagnostics);
    }

  if (g_strcmp0 (action, "status") == 0)
    {
      WinnowTrustState state;

      status = winnow_trust_check (project, FALSE);
      state = winnow_trust_status_get_state (status);

      if (json)
        print_status_json (status, filters, diagnostics);
      else
        {
          g_print (_("project: %s\n"), winnow_trust_status_get_project_dir (status));
          g_print (_("state:   %s\n"), winnow_trust_state_to_string (state));
          if (winnow_trust_status_get_current_sha256 (status) != NULL)
            g_print (_("sha256:  %s\n"), winnow_trust_status_get_current_sha256 (status));
          if (winnow_trust_status_get_trusted_sha256 (status) != NULL &&
              state != WINNOW_TRUST_TRUSTED)
            g_print (_("approved: %s\n"), winnow_trust_status_get_trusted_sha256 (status));
          g_print ("%s\n", winnow_trust_status_get_message (status));
          winnow_cli_print_diagnostics (diagnostics, FALSE);
        }

      return state == WINNOW_TRUST_TRUSTED || state == WINNOW_TRUST_NO_FILTERS
             ? WINNOW_EXIT_OK : WINNOW_EXIT_FAILURE;
    }
  else if (g_strcmp0 (action, "approve") == 0)
    {
      g_autofree char *hash = NULL;
      guint n_errors = winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR);

      if (filters == NULL)
        {
          g_printerr (_("winnow trust: %s/.rtk/filters.json does not exist; nothing to approve\n"),
                      project);
          return WINNOW_EXIT_FAILURE;
        }

      if (n_errors > 0 && !force)
        {
          winnow_cli_print_diagnostics (diagnostics, FALSE);
          g_printerr (_("winnow trust: not approved: the filters file has %u errors "
                        "(fix them, or approve anyway with --force)\n"), n_errors);
          return WINNOW_EXIT_FAILURE;
        }

      hash = winnow_trust_approve (project, &error);
      if (hash == NULL)
        {
          g_printerr ("winnow trust: %s\n", error->message);
          return WINNOW_EXIT_FAILURE;
        }

      status = winnow_trust_check (project, FALSE);
      if (json)
        print_status_json (status, filters, diagnostics);
      else
        {
          g_print (_("Approved %u filters of %s\n"), filters->len, project);
          print_filter_summary (filters);
          g_print (_("sha256: %s\n"), hash);
        }
      return WINNOW_EXIT_OK;
    }
  else if (g_strcmp0 (action, "revoke") == 0)
    {
      if (!winnow_trust_revoke (project, &error))
        {
          g_printerr ("winnow trust: %s\n", error->message);
          return WINNOW_EXIT_FAILURE;
        }

      status = winnow_trust_check (project, FALSE);
      if (json)
        print_status_json (status, NULL, diagnostics);
      else
        g_print (_("Trust revoked for %s\n"), project);
      return WINNOW_EXIT_OK;
    }

  return winnow_cli_usage_error ("trust", _("unknown action “%s” (status, approve, revoke)"),
                                 action);
}
