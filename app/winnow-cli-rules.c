/* winnow-cli-rules.c — `winnow rules` and `winnow expand`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "winnow-cli.h"
#include "winnow-cli-table.h"

static guint
count_rules_at (WinnowRulePack         *pack,
                WinnowCavemanIntensity  intensity)
{
  guint n = 0;

  for (guint i = 0; i < winnow_rule_pack_get_n_rules (pack); i++)
    if (winnow_rule_get_min_intensity (winnow_rule_pack_get_rule (pack, i)) == intensity)
      n++;

  return n;
}

int
winnow_cli_rules (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(GPtrArray) packs = NULL;
  g_autoptr(WinnowCliTable) table = NULL;
  g_autofree char *text = NULL;
  g_autofree char *lang = NULL;
  gboolean json = FALSE;
  gboolean list_rules = FALSE;
  WinnowCliCommon common = { 0 };
  WinnowRuleSet *set;
  GPtrArray *diagnostics;
  guint n_errors;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the packs as JSON"), NULL },
    { "lang", 'l', 0, G_OPTION_ARG_STRING, &lang, N_("Only the packs of LANG"), N_("LANG") },
    { "rules", 0, 0, G_OPTION_ARG_NONE, &list_rules, N_("List every rule of every pack"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (NULL,
                                       _("List the Caveman rule packs: built-in and global "
                                         "(DATA_DIR/rules), by language."),
                                       _("For each pack: its language, name, source, how many "
                                         "rules run from each intensity (lite, full, ultra) and "
                                         "how many test samples it has. Load problems are listed "
                                         "after the packs.\n\n"
                                         "Exit status: 0 if every pack loaded without errors, 1 "
                                         "otherwise, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "rules", &argc, &argv))
    return WINNOW_EXIT_USAGE;
  if (argc > 1)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("rules", _("unexpected argument “%s”"), argv[1]);
    }

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);
  set = winnow_context_get_rule_set (ctx);

  if (lang != NULL)
    {
      if (winnow_rule_set_resolve_language (set, lang) == NULL)
        return winnow_cli_usage_error ("rules", _("no rule packs for the language “%s”"), lang);
      packs = winnow_rule_set_get_packs (set, lang);
    }
  else
    packs = winnow_rule_set_list_packs (set);

  diagnostics = winnow_rule_set_get_diagnostics (set);
  n_errors = winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "packs");
      json_builder_begin_array (builder);
      for (guint i = 0; i < packs->len; i++)
        {
          WinnowRulePack *pack = g_ptr_array_index (packs, i);

          json_builder_begin_object (builder);
          winnow_cli_json_member (builder, "language", winnow_rule_pack_get_language (pack));
          winnow_cli_json_member (builder, "name", winnow_rule_pack_get_name (pack));
          winnow_cli_json_member (builder, "category", winnow_rule_pack_get_category (pack));
          winnow_cli_json_member (builder, "source", winnow_rule_pack_get_source (pack));
          winnow_cli_json_member (builder, "file", winnow_rule_pack_get_file (pack));
          json_builder_set_member_name (builder, "rules");
          json_builder_add_int_value (builder, winnow_rule_pack_get_n_rules (pack));
          json_builder_set_member_name (builder, "byIntensity");
          json_builder_begin_object (builder);
          for (int k = WINNOW_CAVEMAN_INTENSITY_LITE; k <= WINNOW_CAVEMAN_INTENSITY_ULTRA; k++)
            {
              json_builder_set_member_name (builder, winnow_caveman_intensity_to_string (k));
              json_builder_add_int_value (builder, count_rules_at (pack, k));
            }
          json_builder_end_object (builder);
          json_builder_set_member_name (builder, "tests");
          json_builder_add_int_value (builder, winnow_rule_pack_get_n_tests (pack));
          if (list_rules)
            {
              json_builder_set_member_name (builder, "ruleList");
              json_builder_begin_array (builder);
              for (guint r = 0; r < winnow_rule_pack_get_n_rules (pack); r++)
                json_builder_add_value (builder,
                                        winnow_rule_to_json_node (winnow_rule_pack_get_rule (pack, r)));
              json_builder_end_array (builder);
            }
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "diagnostics");
      winnow_cli_add_diagnostics_json (builder, diagnostics);
      json_builder_end_object (builder);

      root = json_builder_get_root (builder);
      winnow_cli_print_json (root);
      return n_errors > 0 ? WINNOW_EXIT_FAILURE : WINNOW_EXIT_OK;
    }

  table = winnow_cli_table_new ("lllrrrrr", _("lang"), _("pack"), _("source"), _("rules"),
                                _("lite"), _("full"), _("ultra"), _("tests"), NULL);
  for (guint i = 0; i < packs->len; i++)
    {
      WinnowRulePack *pack = g_ptr_array_index (packs, i);
      g_autofree char *n_rules = g_strdup_printf ("%u", winnow_rule_pack_get_n_rules (pack));
      g_autofree char *n_lite =
        g_strdup_printf ("%u", count_rules_at (pack, WINNOW_CAVEMAN_INTENSITY_LITE));
      g_autofree char *n_full =
        g_strdup_printf ("%u", count_rules_at (pack, WINNOW_CAVEMAN_INTENSITY_FULL));
      g_autofree char *n_ultra =
        g_strdup_printf ("%u", count_rules_at (pack, WINNOW_CAVEMAN_INTENSITY_ULTRA));
      g_autofree char *n_tests = g_strdup_printf ("%u", winnow_rule_pack_get_n_tests (pack));

      winnow_cli_table_add_row (table, winnow_rule_pack_get_language (pack),
                                winnow_rule_pack_get_name (pack), winnow_rule_pack_get_source (pack),
                                n_rules, n_lite, n_full, n_ultra, n_tests, NULL);

      for (guint r = 0; list_rules && r < winnow_rule_pack_get_n_rules (pack); r++)
        {
          WinnowRule *rule = winnow_rule_pack_get_rule (pack, r);
          g_autofree char *line =
            g_strdup_printf ("    %-28s %-5s %-9s %s", winnow_rule_get_name (rule),
                             winnow_caveman_intensity_to_string (winnow_rule_get_min_intensity (rule)),
                             winnow_rule_context_to_string (winnow_rule_get_context (rule)),
                             winnow_rule_get_description (rule) ? winnow_rule_get_description (rule) : "");

          winnow_cli_table_add_line (table, g_strchomp (line));
        }
    }
  text = winnow_cli_table_format (table);
  g_print ("%s", text);
  winnow_cli_print_diagnostics (diagnostics, FALSE);

  return n_errors > 0 ? WINNOW_EXIT_FAILURE : WINNOW_EXIT_OK;
}

int
winnow_cli_expand (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *lang = NULL;
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  WinnowCliCommon common = { 0 };
  gsize length = 0;
  gsize out_len = 0;
  GOptionEntry entries[] = {
    { "lang", 'l', 0, G_OPTION_ARG_STRING, &lang,
      N_("Language of the text, e.g. en or pt-BR (default: detected)"), N_("LANG") },
    { NULL }
  };

  context = winnow_cli_option_context (_("[FILE|-]"),
                                       _("Write the abbreviations of Caveman-compressed text out "
                                         "in full."),
                                       _("Abbreviations from the language's table (“DB” → "
                                         "“database”) are expanded outside code, paths, URLs and "
                                         "other protected tokens. Words dropped by compression do "
                                         "not come back.\n\n"
                                         "Exit status: 0 on success, 1 if the input cannot be "
                                         "read, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "expand", &argc, &argv))
    return WINNOW_EXIT_USAGE;
  if (argc > 2)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("expand", _("only one input file may be given"));
    }

  if (!winnow_cli_read_input (argc > 1 ? argv[1] : NULL, &input, &length, &error))
    {
      g_printerr ("winnow expand: %s\n", error->message);
      winnow_cli_common_clear (&common);
      return WINNOW_EXIT_FAILURE;
    }

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);

  if (lang != NULL && winnow_rule_set_resolve_language (winnow_context_get_rule_set (ctx),
                                                        lang) == NULL)
    return winnow_cli_usage_error ("expand", _("no rule packs for the language “%s”"), lang);

  output = winnow_caveman_expand (winnow_context_get_rule_set (ctx), input, length, lang,
                                  &out_len);
  fwrite (output, 1, out_len, stdout);
  if (out_len > 0 && output[out_len - 1] != '\n')
    fputc ('\n', stdout);

  return WINNOW_EXIT_OK;
}
