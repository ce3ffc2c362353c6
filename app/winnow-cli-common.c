/* winnow-cli-common.c — what every `winnow` subcommand shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "winnow-cli.h"

GOptionGroup *
winnow_cli_common_group (WinnowCliCommon *common)
{
  GOptionEntry entries[] = {
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &common->data_dir,
      N_("Use DIR for settings and global filters (default: $WINNOW_DATA_DIR, else "
         "$XDG_DATA_HOME/winnow)"), N_("DIR") },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &common->project_dir,
      N_("Use the trusted filters of the project in DIR (default: the current directory)"),
      N_("DIR") },
    { "no-project", 0, 0, G_OPTION_ARG_NONE, &common->no_project,
      N_("Ignore project filters"), NULL },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("common", _("Where filters and settings come from:"),
                                            _("Show the options about filter sources"),
                                            NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  return group;
}

void
winnow_cli_common_clear (WinnowCliCommon *common)
{
  g_clear_pointer (&common->data_dir, g_free);
  g_clear_pointer (&common->project_dir, g_free);
}

WinnowContext *
winnow_cli_common_context (WinnowCliCommon *common)
{
  g_autofree char *cwd = NULL;
  const char *project = NULL;

  if (!common->no_project)
    project = common->project_dir ? common->project_dir : (cwd = g_get_current_dir ());

  return winnow_context_new (common->data_dir, project);
}

GOptionContext *
winnow_cli_option_context (const char *parameters,
                           const char *summary,
                           const char *description)
{
  /* the program name is already `winnow SUBCOMMAND` (main.c), GOption puts it first */
  GOptionContext *context = g_option_context_new (parameters);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);
  if (description != NULL)
    g_option_context_set_description (context, description);

  return context;
}

gboolean
winnow_cli_parse (GOptionContext   *context,
                  const char       *command,
                  int              *argc,
                  char           ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      winnow_cli_usage_error (command, "%s", error->message);
      return FALSE;
    }

  return TRUE;
}

int
winnow_cli_usage_error (const char *command,
                        const char *format,
                        ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("winnow %s: %s\n", command, message);
  g_printerr (_("Try “winnow %s --help” for more information.\n"), command);

  return WINNOW_EXIT_USAGE;
}

/**
 * winnow_cli_set_mode_and_intensity:
 * @command: the subcommand, for the message
 * @mode: (nullable): `--mode` as given
 * @intensity: (nullable): `--intensity` as given: an RTK or a Caveman intensity
 * @request: the request to set them in
 *
 * What `compress` and `run` both accept. An unknown value is a usage error, said on stderr.
 *
 * Returns: %FALSE when @mode or @intensity is not one the engine knows
 */
gboolean
winnow_cli_set_mode_and_intensity (const char            *command,
                                   const char            *mode,
                                   const char            *intensity,
                                   WinnowPipelineRequest *request)
{
  WinnowPipelineMode m;
  WinnowRtkIntensity rtk;
  WinnowCavemanIntensity caveman;

  if (mode != NULL)
    {
      if (!winnow_pipeline_mode_from_string (mode, &m))
        {
          winnow_cli_usage_error (command, _("unknown mode “%s” (off, rtk, caveman, stacked)"),
                                  mode);
          return FALSE;
        }
      request->mode = m;
    }

  if (intensity != NULL)
    {
      if (winnow_rtk_intensity_from_string (intensity, &rtk))
        request->rtk_intensity = rtk;
      else if (winnow_caveman_intensity_from_string (intensity, &caveman))
        request->caveman_intensity = caveman;
      else
        {
          winnow_cli_usage_error (command, _("unknown intensity “%s” (RTK: minimal, standard, "
                                             "aggressive; Caveman: lite, full, ultra)"),
                                  intensity);
          return FALSE;
        }
    }

  return TRUE;
}

/**
 * winnow_cli_read_input:
 * @path: (nullable): a file, or "-" or %NULL for standard input
 *
 * Reads everything, bytes as they are (the engine passes non-UTF-8 through).
 */
gboolean
winnow_cli_read_input (const char  *path,
                       char       **contents,
                       gsize       *length,
                       GError     **error)
{
  if (path == NULL || strcmp (path, "-") == 0)
    {
      GString *data = g_string_sized_new (64 * 1024);
      char buffer[64 * 1024];
      size_t n;

      while ((n = fread (buffer, 1, sizeof buffer, stdin)) > 0)
        g_string_append_len (data, buffer, n);

      if (ferror (stdin))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot read standard input"));
          g_string_free (data, TRUE);
          return FALSE;
        }

      *length = data->len;
      *contents = g_string_free (data, FALSE);
      return TRUE;
    }

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
                   _("%s: is a directory, not a file"), path);
      return FALSE;
    }

  return g_file_get_contents (path, contents, length, error);
}

/* json-glib writes every double with 17 significant digits (0.6 as 0.59999999999999998);
 * figures for people and scripts read better with 10, which still round-trip what Winnow
 * computes (ratios, milliseconds). Numbers inside strings are left alone. */
static char *
shorten_doubles (const char *json)
{
  GString *out = g_string_sized_new (strlen (json));
  gboolean in_string = FALSE;

  for (const char *p = json; *p; )
    {
      if (in_string)
        {
          if (*p == '\\' && p[1] != '\0')
            {
              g_string_append_len (out, p, 2);
              p += 2;
              continue;
            }
          if (*p == '"')
            in_string = FALSE;
          g_string_append_c (out, *p++);
          continue;
        }

      if (*p == '"')
        {
          in_string = TRUE;
          g_string_append_c (out, *p++);
          continue;
        }

      if (*p == '-' || g_ascii_isdigit (*p))
        {
          const char *start = p;
          gboolean fraction = FALSE;

          while (*p == '-' || *p == '+' || *p == '.' || *p == 'e' || *p == 'E' ||
                 g_ascii_isdigit (*p))
            {
              fraction |= *p == '.' || *p == 'e' || *p == 'E';
              p++;
            }

          if (fraction && p - start > 12)
            {
              g_autofree char *number = g_strndup (start, p - start);
              char buffer[G_ASCII_DTOSTR_BUF_SIZE];

              g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.10g",
                                                     g_ascii_strtod (number, NULL)));
            }
          else
            g_string_append_len (out, start, p - start);
          continue;
        }

      g_string_append_c (out, *p++);
    }

  return g_string_free (out, FALSE);
}

void
winnow_cli_print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  g_autofree char *shortened = NULL;

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, NULL);
  shortened = shorten_doubles (text);

  g_print ("%s\n", shortened);
}

void
winnow_cli_print_diagnostics (GPtrArray *diagnostics,
                              gboolean   include_info)
{
  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *text = NULL;

      if (!include_info && winnow_diagnostic_get_level (d) == WINNOW_DIAGNOSTIC_INFO)
        continue;

      text = winnow_diagnostic_to_string (d);
      g_printerr ("%s\n", text);
    }
}

void
winnow_cli_json_member (JsonBuilder *builder,
                        const char  *name,
                        const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
winnow_cli_add_diagnostics_json (JsonBuilder *builder,
                                 GPtrArray   *diagnostics)
{
  json_builder_begin_array (builder);
  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);

      json_builder_begin_object (builder);
      winnow_cli_json_member (builder, "level",
                              winnow_diagnostic_level_to_string (winnow_diagnostic_get_level (d)));
      winnow_cli_json_member (builder, "source", winnow_diagnostic_get_source (d));
      winnow_cli_json_member (builder, "path", winnow_diagnostic_get_file (d));
      if (winnow_diagnostic_get_line (d) > 0)
        {
          json_builder_set_member_name (builder, "line");
          json_builder_add_int_value (builder, winnow_diagnostic_get_line (d));
          json_builder_set_member_name (builder, "column");
          json_builder_add_int_value (builder, winnow_diagnostic_get_column (d));
        }
      winnow_cli_json_member (builder, "filterId", winnow_diagnostic_get_filter_id (d));
      if (winnow_diagnostic_get_filter_id (d) == NULL && winnow_diagnostic_get_subject (d) != NULL)
        {
          const char *kind = winnow_diagnostic_get_subject_kind (d);

          winnow_cli_json_member (builder, kind != NULL ? kind : "subject",
                                  winnow_diagnostic_get_subject (d));
        }
      winnow_cli_json_member (builder, "jsonPath", winnow_diagnostic_get_json_path (d));
      winnow_cli_json_member (builder, "message", winnow_diagnostic_get_message (d));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

gboolean
winnow_cli_use_color (int fd)
{
  return isatty (fd) && g_getenv ("NO_COLOR") == NULL;
}
