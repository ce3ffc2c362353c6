/* bench-adapters.c — throughput of the format adapters and the sentence scorer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints figures; it fails only when it cannot run. Each format gets a message of about 1 MB
 * grown from its fixture in tests/adapters/ (more dependencies in the POM, more documents in
 * the manifest, more rows in the export…), run until 8 MB went through; then the whole
 * command-output corpus, message by message, for the cost of detection on small inputs.
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <string.h>

#include "test-util.h"
#include "winnow.h"

#define MESSAGE_BYTES (1024 * 1024)
#define ROUND_BYTES   (8 * 1024 * 1024)

static char *
load_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "adapters", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &error))
    g_error ("cannot read %s: %s", path, error->message);
  return contents;
}

/* The text between @from and @to (exclusive) in @text. */
static char *
between (const char *text,
         const char *from,
         const char *to)
{
  const char *a = strstr (text, from);
  const char *b = a != NULL ? strstr (a, to) : NULL;

  g_assert (a != NULL && b != NULL);
  return g_strndup (a, b - a);
}

static GString *
grow_xml (void)
{
  g_autofree char *pom = load_fixture ("pom.xml");
  g_autofree char *dependency = between (pom, "    <dependency>",
                                        "    <dependency>\n      <groupId>org.junit");
  const char *close = strstr (pom, "  </dependencies>");
  GString *out = g_string_new_len (pom, close - pom);
  guint i = 0;

  while (out->len < MESSAGE_BYTES)
    {
      g_string_append_printf (out,
                              "    <!-- Dependency %u is pinned because version %u.%u of it broke "
                              "the serialisation of dates in the billing export. -->\n",
                              i, i % 5, i % 11);
      g_string_append (out, dependency);
      i++;
    }
  g_string_append (out, close);
  return out;
}

/* Copies of @text, each after a numbered header: @before, the number, @after. */
static GString *
repeat_numbered (const char *text,
                 const char *before,
                 const char *after)
{
  GString *out = g_string_new (NULL);
  guint i = 0;

  while (out->len < MESSAGE_BYTES)
    {
      g_string_append_printf (out, "%s%u%s", before, i++, after);
      g_string_append (out, text);
    }
  return out;
}

static GString *
grow_csv (void)
{
  g_autofree char *orders = load_fixture ("orders.csv");
  const char *rows = strchr (orders, '\n') + 1;
  GString *out = g_string_new_len (orders, rows - orders);
  guint i = 0;

  while (out->len < MESSAGE_BYTES)
    {
      const char *line = rows;

      while (*line != '\0' && out->len < MESSAGE_BYTES)
        {
          const char *nl = strchr (line, '\n');

          g_string_append_printf (out, "%u", 100000 + i++);
          line = strchr (line, ',');
          g_string_append_len (out, line, nl + 1 - line);
          line = nl + 1;
        }
    }
  return out;
}

static GString *
grow_json (void)
{
  GString *out = g_string_new ("{\n  \"data\": [\n");
  guint i = 0;

  while (out->len < MESSAGE_BYTES)
    {
      g_string_append_printf (out,
                              "%s    {\n      \"sku\": \"BOLT-%05u\",\n      \"stock\": %u,\n"
                              "      \"price\": {\"amount\": \"0.%02u\", \"currency\": \"EUR\"},\n"
                              "      \"tags\": [\"hardware\", \"steel\", \"m%u\"]\n    }",
                              i > 0 ? ",\n" : "", i, i * 7 % 1000, i % 100, i % 30);
      i++;
    }
  g_string_append (out, "\n  ],\n  \"meta\": {\"total\": 99999}\n}\n");
  return out;
}

static GString *
grow_code (void)
{
  GString *out = g_string_new (NULL);
  guint i = 0;

  while (out->len < MESSAGE_BYTES)
    {
      g_string_append_printf (out,
                              "Step %u fails because the parser reads one byte past the end of the "
                              "buffer when the input ends without a newline. The fix below checks "
                              "the length first. I also renamed a variable, which changes "
                              "nothing.\n"
                              "\n```c\nif (p + %u < end && *p == '\\n')\n  p++;\n```\n\n",
                              i, i % 9);
      i++;
    }
  return out;
}

typedef struct
{
  const char *name;
  GString    *text;
} Message;

static gsize
bench_message (const Message *m)
{
  gsize bytes = 0;
  guint calls = 0;
  gsize out_length = 0;
  g_autofree char *decision = NULL;
  gint64 start = g_get_monotonic_time ();
  double seconds;

  while (bytes < ROUND_BYTES)
    {
      g_autofree char *out = NULL;

      g_clear_pointer (&decision, g_free);
      out = winnow_adapters_apply (m->text->str, m->text->len, NULL, &out_length, &decision);
      bytes += m->text->len;
      calls++;
    }
  seconds = (g_get_monotonic_time () - start) / 1e6;

  g_print ("%-12s %-24s %8.1f MB/s  %7zu → %7zu bytes (%4.1f%%)\n",
           m->name, decision != NULL ? decision : "(none)", bytes / seconds / 1e6,
           m->text->len, out_length, 100.0 * out_length / m->text->len);
  return bytes;
}

static void
bench_corpus (void)
{
  g_autofree char *manifest = test_util_corpus_path ("manifest.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  JsonArray *entries;
  gsize bytes = 0;
  guint calls = 0;
  gint64 start;
  double seconds;

  if (!json_parser_load_from_file (parser, manifest, NULL))
    g_error ("cannot read %s", manifest);
  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      g_autofree char *path = test_util_corpus_path (json_object_get_string_member (entry, "file"));
      char *contents;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL))
        g_ptr_array_add (samples, g_bytes_new_take (contents, length));
    }

  start = g_get_monotonic_time ();
  while (bytes < ROUND_BYTES)
    for (guint i = 0; i < samples->len; i++)
      {
        gsize length;
        const char *text = g_bytes_get_data (g_ptr_array_index (samples, i), &length);
        g_autofree char *out = winnow_adapters_apply (text, length, NULL, NULL, NULL);

        bytes += length;
        calls++;
      }
  seconds = (g_get_monotonic_time () - start) / 1e6;

  g_print ("%-12s %u samples            %8.1f MB/s  %.1f µs per message\n",
           "corpus", samples->len, bytes / seconds / 1e6, seconds * 1e6 / calls);
}

static void
bench_scorer (void)
{
  g_autofree char *readme = load_fixture ("service-readme.md");
  g_autoptr(GString) prose = repeat_numbered (readme, "\n\nPart ", " of the handbook follows.\n\n");
  gsize bytes = 0;
  gint64 start = g_get_monotonic_time ();
  double seconds;

  while (bytes < ROUND_BYTES)
    {
      g_autofree char *summary = winnow_sentence_summarize (prose->str, prose->len, 0.35, NULL);

      bytes += prose->len;
    }
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_print ("%-12s %-24s %8.1f MB/s\n", "scorer", "1 MB of prose", bytes / seconds / 1e6);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *manifest = NULL;
  g_autofree char *readme = NULL;
  g_autofree char *pytest = NULL;
  Message messages[7];
  gsize total = 0;
  gint64 start;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  manifest = load_fixture ("deployment.yaml");
  readme = load_fixture ("service-readme.md");
  pytest = load_fixture ("pytest-fail.txt");

  messages[0] = (Message) { "code", grow_code () };
  messages[1] = (Message) { "json", grow_json () };
  messages[2] = (Message) { "structured", repeat_numbered (pytest, "=== run ", " ===\n") };
  messages[3] = (Message) { "csv", grow_csv () };
  messages[4] = (Message) { "xml", grow_xml () };
  messages[5] = (Message) { "yaml", repeat_numbered (manifest, "---\n# document ", "\n") };
  messages[6] = (Message) { "markdown", repeat_numbered (readme, "\n## Part ", "\n\n") };

  start = g_get_monotonic_time ();
  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    total += bench_message (&messages[i]);
  g_print ("%-12s %-24s %8.1f MB/s\n", "all formats", "",
           total / ((g_get_monotonic_time () - start) / 1e6) / 1e6);

  bench_corpus ();
  bench_scorer ();

  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    g_string_free (messages[i].text, TRUE);
  return 0;
}
