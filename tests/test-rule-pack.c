/* test-rule-pack.c — reading, validating, linting and writing Caveman rule packs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

static WinnowRulePack *
parse (const char *json,
       GPtrArray  *diagnostics)
{
  return winnow_rule_pack_parse (json, -1, "file", "rules/en/filler.json", diagnostics);
}

/* The first diagnostic whose JSON path is @path, formatted; fails when there is none. */
static char *
diagnostic_at (GPtrArray  *diagnostics,
               const char *path)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      WinnowDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (g_strcmp0 (winnow_diagnostic_get_json_path (d), path) == 0)
        return winnow_diagnostic_to_string (d);
    }

  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_printerr ("  have: %s\n", text);
    }
  g_error ("no diagnostic at %s", path);
  return NULL;
}

static void
test_valid_pack (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowRulePack) pack = NULL;
  WinnowRule *rule;
  const char *key, *value;

  pack = parse ("{\"language\":\"en\",\"category\":\"filler\",\"rules\":[\n"
                "  {\"name\":\"purpose\",\"pattern\":\"\\\\bin order to\\\\b\",\"replacement\":\"to\","
                "   \"replacementMap\":{\"In  Order to\":\"to\"},\"context\":\"user\","
                "   \"category\":\"context\",\"minIntensity\":\"full\",\"description\":\"d\"}\n"
                "],\"tests\":[{\"rule\":\"purpose\",\"input\":\"in order to x\",\"expected\":\"to x\"}]}",
                diagnostics);

  g_assert_nonnull (pack);
  g_assert_cmpstr (winnow_rule_pack_get_language (pack), ==, "en");
  g_assert_cmpstr (winnow_rule_pack_get_category (pack), ==, "filler");
  g_assert_cmpstr (winnow_rule_pack_get_name (pack), ==, "filler");
  g_assert_cmpuint (winnow_rule_pack_get_n_rules (pack), ==, 1);

  rule = winnow_rule_pack_get_rule (pack, 0);
  g_assert_cmpstr (winnow_rule_get_name (rule), ==, "purpose");
  g_assert_cmpstr (winnow_rule_get_flags (rule), ==, "gi");
  g_assert_cmpint (winnow_rule_get_context (rule), ==, WINNOW_RULE_CONTEXT_USER);
  g_assert_cmpint (winnow_rule_get_min_intensity (rule), ==, WINNOW_CAVEMAN_INTENSITY_FULL);
  g_assert_true (winnow_rule_applies (rule, WINNOW_CAVEMAN_INTENSITY_ULTRA, WINNOW_MESSAGE_ROLE_USER));
  g_assert_false (winnow_rule_applies (rule, WINNOW_CAVEMAN_INTENSITY_LITE, WINNOW_MESSAGE_ROLE_USER));
  g_assert_false (winnow_rule_applies (rule, WINNOW_CAVEMAN_INTENSITY_FULL,
                                       WINNOW_MESSAGE_ROLE_ASSISTANT));
  winnow_rule_get_map_entry (rule, 0, &key, &value);
  g_assert_cmpstr (key, ==, "In  Order to");
  g_assert_cmpstr (winnow_rule_lookup_map (rule, " in\torder  TO ", 13), ==, "to");

  /* the test takes the rule's intensity and a role its context allows */
  g_assert_cmpuint (winnow_rule_pack_get_n_tests (pack), ==, 1);
  g_assert_cmpint (winnow_rule_pack_get_test (pack, 0)->intensity, ==, WINNOW_CAVEMAN_INTENSITY_FULL);
  g_assert_cmpint (winnow_rule_pack_get_test (pack, 0)->role, ==, WINNOW_MESSAGE_ROLE_USER);

  /* the only finding: the key is normalized */
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_WARNING), ==, 0);
}

static void
test_round_trip (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRulePack) again = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  pack = parse ("{\"language\":\"en\",\"category\":\"filler\",\"custom\":1,\"rules\":["
                "{\"name\":\"a\",\"pattern\":\"x\",\"replacement\":\"\",\"flags\":\"g\",\"extra\":[1,2]}]}",
                diagnostics);
  g_assert_nonnull (pack);
  first = winnow_rule_pack_to_json (pack);
  again = parse (first, NULL);
  second = winnow_rule_pack_to_json (again);
  g_assert_cmpstr (first, ==, second);
  g_assert_nonnull (strstr (first, "\"extra\""));
  g_assert_nonnull (strstr (first, "\"custom\""));
  /* flags as written, not the default */
  g_assert_nonnull (strstr (first, "\"flags\" : \"g\""));
}

static void
test_diagnostics (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autofree char *regex = NULL;
  g_autofree char *flags = NULL;
  g_autofree char *context = NULL;
  g_autofree char *unknown = NULL;
  g_autofree char *duplicate = NULL;
  g_autofree char *map = NULL;
  g_autofree char *test_rule = NULL;
  g_autofree char *no_name = NULL;

  pack = parse ("{\"language\":\"en\",\"category\":\"filler\",\"rules\":[\n"
                "{\"name\":\"good\",\"pattern\":\"a\",\"replacement\":\"b\"},\n"
                "{\"name\":\"bad_regex\",\"pattern\":\"(unclosed\",\"replacement\":\"\"},\n"
                "{\"name\":\"bad_flags\",\"pattern\":\"x\",\"flags\":\"gq\",\"replacement\":\"\"},\n"
                "{\"name\":\"bad_context\",\"pattern\":\"x\",\"context\":\"robot\",\"replacement\":\"\"},\n"
                "{\"name\":\"unknown\",\"pattern\":\"x\",\"replacement\":\"\",\"colour\":\"red\"},\n"
                "{\"name\":\"good\",\"pattern\":\"y\",\"replacement\":\"\"},\n"
                "{\"name\":\"bad_map\",\"pattern\":\"z\",\"replacementMap\":{\"z\":3}},\n"
                "{\"pattern\":\"nameless\",\"replacement\":\"\"}\n"
                "],\"tests\":[{\"rule\":\"missing\",\"input\":\"a\",\"expected\":\"b\"}]}",
                diagnostics);

  /* the pack loads with the rules that are valid */
  g_assert_nonnull (pack);
  g_assert_cmpuint (winnow_rule_pack_get_n_rules (pack), ==, 2);
  g_assert_nonnull (winnow_rule_pack_lookup_rule (pack, "good"));
  g_assert_nonnull (winnow_rule_pack_lookup_rule (pack, "unknown"));
  g_assert_cmpuint (winnow_rule_pack_get_n_errors (pack), >, 0);

  regex = diagnostic_at (diagnostics, "rules[1].pattern");
  g_assert_nonnull (strstr (regex, "rules/en/filler.json:3:"));
  g_assert_nonnull (strstr (regex, "rule 'bad_regex'"));
  g_assert_nonnull (strstr (regex, "invalid regex"));
  flags = diagnostic_at (diagnostics, "rules[2].flags");
  g_assert_nonnull (strstr (flags, "flag"));
  context = diagnostic_at (diagnostics, "rules[3].context");
  g_assert_nonnull (strstr (context, "robot"));
  unknown = diagnostic_at (diagnostics, "rules[4].colour");
  g_assert_nonnull (strstr (unknown, "warning"));
  duplicate = diagnostic_at (diagnostics, "rules[5].name");
  g_assert_nonnull (strstr (duplicate, "same name"));
  map = diagnostic_at (diagnostics, "rules[6].replacementMap.z");
  g_assert_nonnull (strstr (map, "must be a string"));
  no_name = diagnostic_at (diagnostics, "rules[7].name");
  g_assert_nonnull (strstr (no_name, "required"));
  test_rule = diagnostic_at (diagnostics, "tests[0].rule");
  g_assert_nonnull (strstr (test_rule, "missing"));
}

static void
test_not_a_pack (void)
{
  static const struct { const char *json; const char *path; const char *reason; } cases[] = {
    { "", NULL, "empty" },
    { "{\"language\":", NULL, "not valid JSON" },
    { "[1,2]", "", "must be an object" },
    { "{\"category\":\"filler\",\"rules\":[]}", "language", "required" },
    { "{\"language\":\"english language\",\"category\":\"filler\",\"rules\":[]}", "language",
      "language key" },
    { "{\"language\":\"en\",\"category\":\"filler\"}", "rules", "required" },
    { "{\"language\":\"en\",\"category\":\"filler\",\"rules\":{}}", "rules", "array" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(WinnowRulePack) pack = parse (cases[i].json, diagnostics);
      gboolean found = FALSE;

      g_assert_null (pack);
      for (guint k = 0; k < diagnostics->len; k++)
        {
          WinnowDiagnostic *d = g_ptr_array_index (diagnostics, k);

          if ((cases[i].path == NULL || g_strcmp0 (winnow_diagnostic_get_json_path (d), cases[i].path) == 0) &&
              strstr (winnow_diagnostic_get_message (d), cases[i].reason) != NULL)
            found = TRUE;
        }
      if (!found)
        g_error ("case %u: no diagnostic “%s” at %s", i, cases[i].reason, cases[i].path);
    }
}

static void
test_deep_nesting (void)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) json = g_string_new ("{\"language\":\"en\",\"category\":\"x\",\"rules\":");
  g_autoptr(WinnowRulePack) pack = NULL;

  for (int i = 0; i < 200000; i++)
    g_string_append_c (json, '[');
  pack = parse (json->str, diagnostics);
  g_assert_null (pack);
  g_assert_cmpuint (diagnostics->len, ==, 1);
  g_assert_nonnull (strstr (winnow_diagnostic_get_message (g_ptr_array_index (diagnostics, 0)),
                            "nest deeper"));
}

static void
test_lints (void)
{
  static const struct { const char *rule; const char *reason; } cases[] = {
    { "{\"name\":\"inserts\",\"pattern\":\"x*\",\"replacement\":\"y\"}", "empty string" },
    { "{\"name\":\"eats\",\"pattern\":\"[\\\\s\\\\S]+\",\"replacement\":\"\"}", "whole paragraph" },
    { "{\"name\":\"lines\",\"pattern\":\"^.*$\",\"flags\":\"gm\",\"replacement\":\"\"}", "whole paragraph" },
    { "{\"name\":\"redos\",\"pattern\":\"(\\\\w+\\\\s?)+!$\",\"replacement\":\"\"}", "catastrophically" },
    { "{\"name\":\"noop\",\"pattern\":\"x\"}", "neither" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
      g_autofree char *json = g_strdup_printf ("{\"language\":\"en\",\"category\":\"filler\","
                                               "\"rules\":[%s]}", cases[i].rule);
      g_autoptr(WinnowRulePack) pack = parse (json, diagnostics);
      gboolean found = FALSE;

      g_assert_nonnull (pack);
      for (guint k = 0; k < diagnostics->len; k++)
        found |= strstr (winnow_diagnostic_get_message (g_ptr_array_index (diagnostics, k)),
                         cases[i].reason) != NULL;
      if (!found)
        g_error ("lint %u: no “%s”", i, cases[i].reason);
    }
}

static void
test_rule_set_sources (void)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-rules-XXXXXX", NULL);
  g_autofree char *en = g_build_filename (dir, "en", NULL);
  g_autofree char *pt = g_build_filename (dir, "pt-BR", NULL);
  g_autofree char *filler = g_build_filename (en, "filler.json", NULL);
  g_autofree char *own = g_build_filename (pt, "mine.json", NULL);
  g_autofree char *schema = g_build_filename (dir, "_schema.json", NULL);
  g_autoptr(WinnowRuleSet) set = winnow_rule_set_new ();
  g_autoptr(GPtrArray) packs = NULL;
  g_autoptr(GPtrArray) pt_packs = NULL;
  guint builtin_en;

  g_mkdir_with_parents (en, 0700);
  g_mkdir_with_parents (pt, 0700);
  test_util_write_file (filler, "{\"language\":\"en\",\"category\":\"filler\",\"rules\":"
                        "[{\"name\":\"mine\",\"pattern\":\"\\\\bplease\\\\b\",\"replacement\":\"\"}]}", -1);
  test_util_write_file (own, "{\"language\":\"pt-BR\",\"category\":\"filler\",\"rules\":[]}", -1);
  test_util_write_file (schema, "{\"not\":\"a pack\"}", -1);

  winnow_rule_set_add_builtin (set);
  packs = winnow_rule_set_get_packs (set, "en");
  builtin_en = packs->len;
  g_clear_pointer (&packs, g_ptr_array_unref);

  /* a global pack replaces the built-in pack of the same language and name */
  winnow_rule_set_add_directory (set, dir, "global");
  packs = winnow_rule_set_get_packs (set, "en");
  g_assert_cmpuint (packs->len, ==, builtin_en);
  for (guint i = 0; i < packs->len; i++)
    if (g_strcmp0 (winnow_rule_pack_get_name (g_ptr_array_index (packs, i)), "filler") == 0)
      {
        g_assert_cmpstr (winnow_rule_pack_get_source (g_ptr_array_index (packs, i)), ==, "global");
        g_assert_cmpuint (winnow_rule_pack_get_n_rules (g_ptr_array_index (packs, i)), ==, 1);
      }

  /* languages resolve by case and by primary subtag */
  g_assert_cmpstr (winnow_rule_set_resolve_language (set, "EN_us"), ==, "en");
  g_assert_cmpstr (winnow_rule_set_resolve_language (set, "pt"), ==, "pt-BR");
  g_assert_null (winnow_rule_set_resolve_language (set, "xx"));
  pt_packs = winnow_rule_set_get_packs (set, "pt-PT");
  g_assert_cmpuint (pt_packs->len, >=, 1);

  g_assert_cmpuint (winnow_rule_set_get_diagnostics (set)->len, ==, 0);
  test_util_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rule-pack/valid", test_valid_pack);
  g_test_add_func ("/rule-pack/round-trip", test_round_trip);
  g_test_add_func ("/rule-pack/diagnostics", test_diagnostics);
  g_test_add_func ("/rule-pack/not-a-pack", test_not_a_pack);
  g_test_add_func ("/rule-pack/deep-nesting", test_deep_nesting);
  g_test_add_func ("/rule-pack/lints", test_lints);
  g_test_add_func ("/rule-pack/rule-set-sources", test_rule_set_sources);

  return g_test_run ();
}
