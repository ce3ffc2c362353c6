/* test-corpus.c — real output from tests/corpus: nothing an agent needs is lost
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For every sample of the corpus (real output of real tools, see tests/corpus/README.md), with
 * its command and without: every needle survives compression (compared after removing terminal
 * escapes), no output grows, none comes back empty, and compressing the result again changes
 * nothing. With its command, every sample is detected as its manifest's output type, and with
 * and without it, it reaches the filter the manifest names ("filter"), or for the few outputs
 * that cannot tell their tool on their own (empty, or the same bytes another tool prints), the
 * one "routeWithoutCommand" names with a reason (null: passed through, no filter).
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "test-util.h"
#include "winnow.h"

static JsonArray *manifest;
static WinnowContext *ctx;
static WinnowRegex *ansi;

static char *
plain_text (const char *text,
            gsize       length)
{
  g_autofree char *stripped = winnow_regex_replace (ansi, text, length, "", NULL);
  g_auto(GStrv) parts = g_strsplit (stripped, "\r\n", -1);

  return g_strjoinv ("\n", parts);
}

static void
check_sample (gconstpointer data)
{
  JsonObject *entry = json_array_get_object_element (manifest, GPOINTER_TO_UINT (data));
  const char *name = json_object_get_string_member (entry, "name");
  const char *command = json_object_get_string_member (entry, "command");
  const char *type = json_object_get_string_member (entry, "outputType");
  JsonArray *needles = json_object_get_array_member (entry, "needles");
  g_autofree char *path = test_util_corpus_path (json_object_get_string_member (entry, "file"));
  g_autofree char *input = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;

  const char *intended = json_object_get_string_member (entry, "filter");
  const char *intended_without = intended;

  if (json_object_has_member (entry, "routeWithoutCommand"))
    {
      g_assert_true (json_object_has_member (entry, "routeReason"));
      intended_without = json_object_get_null_member (entry, "routeWithoutCommand")
                           ? NULL : json_object_get_string_member (entry, "routeWithoutCommand");
    }

  g_file_get_contents (path, &input, &length, &error);
  g_assert_no_error (error);

  for (guint with_command = 0; with_command < 2; with_command++)
    {
      const char *cmd = with_command ? command : NULL;
      g_autoptr(WinnowCompression) c = winnow_context_compress (ctx, input, length, cmd, NULL,
                                                                &error);
      g_autoptr(WinnowCompression) again = NULL;
      g_autofree char *plain = NULL;
      const char *out;
      gsize out_len;

      g_assert_no_error (error);
      out = winnow_compression_get_text (c, &out_len);

      {
        WinnowFilter *filter = winnow_compression_get_filter (c);
        const char *routed = filter ? winnow_filter_get_id (filter) : NULL;
        const char *wanted = with_command ? intended : intended_without;

        if (g_strcmp0 (routed, wanted) != 0)
          g_error ("%s (%s): routed to filter %s, not %s", name, cmd ? cmd : "no command",
                   routed ? routed : "none", wanted ? wanted : "none");
      }

      if (out_len > length)
        g_error ("%s (%s): the output grew from %zu to %zu bytes", name,
                 cmd ? cmd : "no command", length, out_len);
      if (length > 0 && out_len == 0)
        g_error ("%s (%s): the output came back empty", name, cmd ? cmd : "no command");

      plain = plain_text (out, out_len);
      for (guint i = 0; i < json_array_get_length (needles); i++)
        {
          const char *needle = json_array_get_string_element (needles, i);

          if (strstr (plain, needle) == NULL)
            g_error ("%s (%s, filter %s): lost the needle “%s”", name, cmd ? cmd : "no command",
                     winnow_compression_get_filter (c)
                       ? winnow_filter_get_id (winnow_compression_get_filter (c)) : "none",
                     needle);
        }

      /* the same filter on its own output changes nothing */
      if (winnow_compression_get_filter (c) != NULL)
        {
          WinnowCompressOptions options;

          winnow_compress_options_init (&options);
          options.filter_id = winnow_filter_get_id (winnow_compression_get_filter (c));
          again = winnow_context_compress (ctx, out, out_len, cmd, &options, &error);
          g_assert_no_error (error);
          if (g_strcmp0 (winnow_compression_get_text (again, NULL), out) != 0)
            g_error ("%s (%s): filter %s is not idempotent on this output", name,
                     cmd ? cmd : "no command", options.filter_id);
        }

      if (with_command)
        {
          const char *detected =
            winnow_detection_get_output_type (winnow_compression_get_detection (c));

          if (g_strcmp0 (detected, type) != 0)
            g_error ("%s: with its command “%s” it is detected as %s, not %s", name, command,
                     detected, type);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *data_dir = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  path = test_util_corpus_path ("manifest.json");
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  manifest = json_node_get_array (json_parser_get_root (parser));

  data_dir = g_dir_make_tmp ("winnow-corpus-XXXXXX", NULL);
  ctx = winnow_context_new (data_dir, NULL);
  ansi = winnow_regex_new ("\\x1b\\[[0-?]*[ -/]*[@-~]|\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)|"
                           "\\x1b[@-Z\\\\-_]", "g", WINNOW_REGEX_OPTIMIZE, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < json_array_get_length (manifest); i++)
    {
      JsonObject *entry = json_array_get_object_element (manifest, i);
      g_autofree char *test_path =
        g_strdup_printf ("/winnow/corpus/%s", json_object_get_string_member (entry, "name"));

      g_test_add_data_func (test_path, GUINT_TO_POINTER (i), check_sample);
    }

  ret = g_test_run ();

  winnow_regex_unref (ansi);
  g_object_unref (ctx);
  test_util_remove_tree (data_dir);
  return ret;
}
