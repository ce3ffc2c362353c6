/* test-adapters.c — the format adapters: registry, decisions, code and structured output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Through the public API only. The JSON, CSV, XML, YAML and Markdown adapters are tested in
 * test-adapters-formats.c; fixtures are described in test-adapters-util.h.
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>

#include "test-adapters-util.h"
#include "test-util.h"

/* ---- registry, decisions, the revert rule ------------------------------------------------ */

static void
test_names (void)
{
  const char *const *names = winnow_adapters_list_names ();
  const char *const expected[] = {
    "code", "json", "structured", "csv", "xml", "yaml", "markdown", NULL,
  };

  g_assert_cmpstrv (names, expected);
}

static void
test_no_adapter (void)
{
  char *decision = (char *) "stale";   /* must be overwritten, not freed */
  const char *prose = "Just a sentence or two of prose. Nothing here has any structure.";
  gsize length = 42;
  char *out;

  out = winnow_adapters_apply (prose, -1, NULL, &length, &decision);
  g_assert_null (out);
  g_assert_null (decision);
  g_assert_cmpuint (length, ==, 0);
  g_assert_null (winnow_adapters_detect (prose, -1, NULL));

  /* empty input */
  g_assert_null (winnow_adapters_apply ("", 0, NULL, NULL, &decision));
  g_assert_null (decision);
  g_assert_null (winnow_adapters_apply (NULL, 0, NULL, NULL, NULL));
}

static void
test_revert (void)
{
  /* YAML with nothing long: detected, nothing to compress, returned unchanged */
  const char *yaml = "name: web\nimage: nginx:1.25\nreplicas: 3\nport: 8080\n";
  /* a summary that is longer than the prose it replaces */
  const char *xml = "<note><body>This short note has more than six words, and a little more "
                    "than a hundred characters in all, as it must.</body></note>";
  g_auto(Run) a = { NULL, };
  g_autofree char *b_decision = NULL;
  g_autofree char *b = NULL;
  WinnowAdapterOptions options;
  gsize length;

  run_stub (&a, yaml, -1, TRUE, NULL);
  g_assert_cmpstr (a.decision, ==, "adapter_reverted:yaml");
  g_assert_cmpstr (a.text, ==, yaml);
  g_assert_cmpuint (a.length, ==, strlen (yaml));

  winnow_adapter_options_init (&options);
  options.keep_ratio = 1.0;
  b = winnow_adapters_apply (xml, -1, &options, &length, &b_decision);
  g_assert_cmpstr (b_decision, ==, "adapter_reverted:xml");
  g_assert_cmpstr (b, ==, xml);
  g_assert_cmpuint (length, ==, strlen (xml));
}

static void
test_lossless_only (void)
{
  g_autofree char *pom = NULL;
  gsize pom_length;
  g_auto(Run) xml = { NULL, };
  g_auto(Run) json = { NULL, };

  /* without lossy steps, only JSON minification may run; others revert */
  pom = load_fixture ("pom.xml", &pom_length);
  run_stub (&xml, pom, pom_length, FALSE, NULL);
  g_assert_cmpstr (xml.decision, ==, "adapter_reverted:xml");
  g_assert_cmpstr (xml.text, ==, pom);
  g_assert_cmpuint (xml.seen->len, ==, 0);

  run_stub (&json, "[ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ]", -1, FALSE, NULL);
  g_assert_cmpstr (json.decision, ==, "adapter:json");
  g_assert_cmpstr (json.text, ==, "[1,2,3,4,5,6,7,8,9,10]");
}

static void
test_options (void)
{
  g_autofree char *pom = NULL;
  gsize pom_length;
  const char *yaml_only[] = { "yaml", "no-such-adapter", NULL };
  const char *none[] = { NULL };
  WinnowAdapterOptions options;
  g_autofree char *decision = NULL;
  g_autofree char *out = NULL;
  double ratios[] = { -1.0, 0.0, 7.0, NAN };

  pom = load_fixture ("pom.xml", &pom_length);

  winnow_adapter_options_init (&options);
  g_assert_cmpfloat (options.keep_ratio, ==, 0.35);
  g_assert_true (options.lossy);
  g_assert_null (options.enabled);
  g_assert_null (options.summarizer);

  options.enabled = yaml_only;
  g_assert_null (winnow_adapters_detect (pom, pom_length, &options));
  options.enabled = none;
  g_assert_null (winnow_adapters_apply (pom, pom_length, &options, NULL, NULL));

  /* out-of-range ratios are clamped, never a crash */
  for (guint i = 0; i < G_N_ELEMENTS (ratios); i++)
    {
      g_autofree char *d = NULL;
      g_autofree char *o = NULL;
      gsize n;

      winnow_adapter_options_init (&options);
      options.keep_ratio = ratios[i];
      o = winnow_adapters_apply (pom, pom_length, &options, &n, &d);
      g_assert_nonnull (o);
      g_assert_cmpuint (n, <=, pom_length);
      g_assert_true (g_str_has_prefix (d, "adapter"));
    }

  /* a summariser that returns NULL gives an empty summary: no comment is appended */
  winnow_adapter_options_init (&options);
  options.summarizer = null_summarizer;
  out = winnow_adapters_apply (pom, pom_length, &options, NULL, &decision);
  g_assert_cmpstr (decision, ==, "adapter:xml");
  g_assert_true (g_str_has_suffix (out, "</project>\n"));
}

static void
test_order (void)
{
  /* every line says FAIL or PASS, but it is a JSON document: JSON is asked first */
  const char *report =
    "[\n"
    "  {\"test\": \"test_add\", \"status\": \"PASS\", \"duration\": 0.01},\n"
    "  {\"test\": \"test_sub\", \"status\": \"FAIL\", \"duration\": 0.02},\n"
    "  {\"test\": \"test_mul\", \"status\": \"FAIL\", \"duration\": 0.01},\n"
    "  {\"test\": \"test_div\", \"status\": \"ERROR\", \"duration\": 0.03},\n"
    "  {\"test\": \"test_mod\", \"status\": \"PASS\", \"duration\": 0.01},\n"
    "  {\"test\": \"test_pow\", \"status\": \"PASS\", \"duration\": 0.01}\n"
    "]\n";
  const char *structured_only[] = { "structured", NULL };
  WinnowAdapterOptions options;
  g_autofree char *readme = NULL;
  g_autofree char *with_code = NULL;
  gsize length;

  g_assert_cmpstr (winnow_adapters_detect (report, -1, NULL), ==, "json");
  /* which the structured heuristic would otherwise take */
  winnow_adapter_options_init (&options);
  options.enabled = structured_only;
  g_assert_cmpstr (winnow_adapters_detect (report, -1, &options), ==, "structured");

  /* Markdown with a fence goes to the code adapter, which runs first */
  readme = load_fixture ("service-readme.md", &length);
  g_assert_cmpstr (winnow_adapters_detect (readme, length, NULL), ==, "markdown");
  with_code = g_strconcat (readme, "\n```sh\nmvn verify\n```\n", NULL);
  g_assert_cmpstr (winnow_adapters_detect (with_code, -1, NULL), ==, "code");
}

static void
test_not_utf8 (void)
{
  const char *bad_xml = "<a><b>caf\xe9</b></a>";
  const char nul_json[] = "{\"a\":\0 1}";
  g_autofree char *decision = NULL;

  g_assert_null (winnow_adapters_apply (bad_xml, -1, NULL, NULL, &decision));
  g_assert_null (decision);
  g_assert_null (winnow_adapters_detect (bad_xml, -1, NULL));
  g_assert_null (winnow_adapters_apply (nul_json, sizeof nul_json - 1, NULL, NULL, &decision));
  g_assert_null (decision);
}

/* ---- code ---------------------------------------------------------------------------------- */

static void
test_code (void)
{
  const char *message =
    "The crash comes from the loop in parse_args. It reads one element past the end of argv "
    "when the last option takes a value, which is why it only fails with --output.\n"
    "\n"
    "```c\n"
    "for (int i = 1; i <= argc; i++)\n"
    "  handle (argv[i]);\n"
    "```\n"
    "\n"
    "Change the condition to i < argc and it works. I also checked the other loops.\n"
    "  ~~~~\n"
    "  $ make check\n"
    "  ~~~~\n";
  const char *unclosed = "Here is the script so far, I could not finish it yet today.\n\n"
                         "```python\nimport sys\n\nprint(sys.argv)\n";
  g_auto(Run) a = { NULL, };
  g_auto(Run) b = { NULL, };

  g_assert_cmpstr (detect_only (message, "code"), ==, "code");
  g_assert_cmpstr (detect_only ("    ```\n  indented fences count\n    ```", "code"), ==, "code");
  g_assert_null (detect_only ("{\"body\": \"use ```code``` here\"}", "code"));
  g_assert_null (detect_only ("a ``` in the middle of a line\nand `` two", "code"));
  g_assert_null (detect_only ("no fences at all", "code"));

  run_stub (&a, message, -1, TRUE, NULL);
  g_assert_cmpstr (a.decision, ==, "adapter:code");
  g_assert_cmpstr (a.text, ==,
                   "SUMMARY\n\n"
                   "```c\nfor (int i = 1; i <= argc; i++)\n  handle (argv[i]);\n```\n\n"
                   "  ~~~~\n  $ make check\n  ~~~~");
  g_assert_cmpstr (a.seen->str, ==,
                   "The crash comes from the loop in parse_args. It reads one element past the "
                   "end of argv when the last option takes a value, which is why it only fails "
                   "with --output.\n\n"
                   "Change the condition to i < argc and it works. I also checked the other "
                   "loops.");

  /* an unclosed fence runs to the end and is kept */
  run_stub (&b, unclosed, -1, TRUE, NULL);
  g_assert_cmpstr (b.decision, ==, "adapter:code");
  g_assert_cmpstr (b.text, ==, "SUMMARY\n\n```python\nimport sys\n\nprint(sys.argv)");
}

/* ---- structured ---------------------------------------------------------------------------- */

static void
test_structured_detect (void)
{
  g_autofree char *pytest = NULL;
  g_autofree char *grep = NULL;
  gsize length;
  const char *yaml_list =
    "steps:\n  - name: checkout\n  - name: build\n  - name: test\n  - name: lint\n"
    "  - name: deploy\n  - name: notify\n";
  const char *long_lines =
    "FAIL this line is very long because it carries a great deal of text that goes on and on\n"
    "FAIL this line is very long because it carries a great deal of text that goes on and on\n"
    "FAIL this line is very long because it carries a great deal of text that goes on and on\n"
    "FAIL this line is very long because it carries a great deal of text that goes on and on\n"
    "FAIL this line is very long because it carries a great deal of text that goes on and on\n"
    "FAIL this line is very long because it carries a great deal of text that goes on and on\n";
  const char *bullets_only =
    "Shopping:\n  - milk\n  - eggs\n  - bread\n  - butter\n  - jam\n  - tea\n";
  /* docker build's " ---> 3f2a…" lines are arrows, not "--- FAIL" banners (corpus
   * docker-build-cached: read as status lines, the summary lost "Successfully built") */
  const char *docker_build =
    "Step 2/7 : WORKDIR /app\n ---> Using cache\n ---> af47bb1aec71\n"
    "Step 3/7 : COPY app.sh /app/\n ---> Using cache\n ---> f7415fd17cfd\n"
    "Successfully built 319f955bbf15\nSuccessfully tagged inventory:ok\n";

  pytest = load_fixture ("pytest-fail.txt", &length);
  g_assert_cmpstr (detect_only (pytest, "structured"), ==, "structured");
  grep = load_fixture ("grep-rn.txt", &length);
  g_assert_cmpstr (detect_only (grep, "structured"), ==, "structured");

  g_assert_null (detect_only ("PASS a\nFAIL b\nok\n", "structured"));   /* too few lines */
  g_assert_null (detect_only (yaml_list, "structured"));
  g_assert_null (detect_only (long_lines, "structured"));
  g_assert_null (detect_only (bullets_only, "structured"));   /* no status, no location */
  g_assert_null (detect_only (docker_build, "structured"));
}

static void
test_structured_pytest (void)
{
  g_auto(Run) run = { NULL, };
  g_autofree char *input = NULL;
  gsize length;

  check_skeleton ("pytest-fail.txt", "pytest-fail.txt", TRUE, "adapter:structured");

  /* what went to the summariser: the lines an agent does not need */
  input = load_fixture ("pytest-fail.txt", &length);
  run_stub (&run, input, length, TRUE, NULL);
  g_assert_true (strstr (run.seen->str, "platform linux -- Python 3.11.2") != NULL);
  g_assert_true (strstr (run.seen->str, "collected 13 items") != NULL);
  g_assert_null (strstr (run.seen->str, "E       assert"));
  g_assert_null (strstr (run.seen->str, "tests/test_pricing.py:"));
}

static void
test_structured_grep (void)
{
  g_auto(Run) run = { NULL, };
  g_autofree char *input = NULL;
  gsize length;

  /* every grep hit is a location line, kept whole: nothing to compress, so it reverts */
  input = load_fixture ("grep-rn.txt", &length);
  run_stub (&run, input, length, TRUE, NULL);
  g_assert_cmpstr (run.decision, ==, "adapter_reverted:structured");
  g_assert_cmpstr (run.text, ==, input);
}

/* Every corpus sample an adapter compresses keeps every needle (compared without ANSI escapes,
 * as QUALITY.md counts them), with the real sentence scorer. */
static char *
strip_ansi (const char *text)
{
  g_autoptr(GRegex) regex = g_regex_new ("\\x1b\\[[0-9;?]*[ -/]*[@-~]|\\x1b\\][^\\x07]*\\x07",
                                         0, 0, NULL);

  return g_regex_replace_literal (regex, text, -1, 0, "", 0, NULL);
}

static void
test_corpus_needles (void)
{
  g_autofree char *manifest = test_util_corpus_path ("manifest.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *entries;
  guint compressed = 0;
  guint needles = 0;
  gsize bytes_in = 0;
  gsize bytes_out = 0;

  if (!json_parser_load_from_file (parser, manifest, &error))
    g_error ("cannot read %s: %s", manifest, error->message);

  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      g_autofree char *path = test_util_corpus_path (json_object_get_string_member (entry, "file"));
      g_autofree char *contents = NULL;
      g_autofree char *decision = NULL;
      g_autofree char *out = NULL;
      g_autofree char *clean = NULL;
      JsonArray *list;
      gsize length, out_length;

      if (!g_file_get_contents (path, &contents, &length, NULL))
        continue;
      out = winnow_adapters_apply (contents, length, NULL, &out_length, &decision);
      if (out == NULL)
        continue;
      g_assert_cmpuint (out_length, <=, length);
      if (!g_str_has_prefix (decision, "adapter:"))
        {
          g_assert_cmpmem (out, out_length, contents, length);
          continue;
        }

      compressed++;
      bytes_in += length;
      bytes_out += out_length;
      clean = strip_ansi (out);
      list = json_object_get_array_member (entry, "needles");
      for (guint k = 0; k < json_array_get_length (list); k++)
        {
          const char *needle = json_array_get_string_element (list, k);

          if (strstr (clean, needle) == NULL)
            g_error ("%s (%s) lost the needle \"%s\"",
                     json_object_get_string_member (entry, "name"), decision, needle);
          needles++;
        }
    }

  g_test_message ("%u samples compressed by an adapter, %u needles kept, %zu → %zu bytes",
                  compressed, needles, bytes_in, bytes_out);
  g_assert_cmpuint (compressed, >=, 20);
  g_assert_cmpuint (needles, >=, 100);
}

/* ---- every adapter: determinism and hostile input ----------------------------------------- */

static const char *const fixtures[] = {
  "pom.xml", "deployment.yaml", "workflow.yml", "service-readme.md", "orders.csv",
  "items.json", "pytest-fail.txt", "grep-rn.txt",
};

static void
test_determinism (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *input = NULL;
      g_autofree char *copy = NULL;
      gsize length;
      char *first = NULL;

      input = load_fixture (fixtures[i], &length);
      copy = g_memdup2 (input, length + 1);
      for (guint round = 0; round < 3; round++)
        {
          g_autofree char *decision = NULL;
          char *out = winnow_adapters_apply (round == 1 ? copy : input, length, NULL, NULL,
                                             &decision);

          g_assert_nonnull (out);
          if (first == NULL)
            first = out;
          else
            {
              g_assert_cmpstr (out, ==, first);
              g_free (out);
            }
        }
      g_free (first);
    }
}

static void
test_hostile (void)
{
  const char *odd[] = {
    "<", "<!--", "<![CDATA[", "<?xml", "<a", "<a>", "</a>", "<!DOCTYPE [ <a> ]",
    "```", "~~~\n", "- \n- \n- \n- \n", "a:\nb:\nc:\nd:\n", ":\n:\n:\n:\n", "\"\n\"\n\"\n",
    "#\n#\n", "# \n# \n", "|\n|-|\n", ",\n,\n,\n", "\"a\",\"b\nc\",\"d\"\n", "[", "{\"a\":",
    "key: \"unterminated\n  more\n", "key: 'it''s\n", "\r\n\r\n\r\n", "a.c:1:\na.c:2:\n",
    "E\nE \n> \n====\n____ x\nnot ok\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (odd); i++)
    {
      for (gsize cut = 0; cut <= strlen (odd[i]); cut++)
        {
          g_autofree char *decision = NULL;
          gsize length;
          g_autofree char *out = winnow_adapters_apply (odd[i], cut, NULL, &length, &decision);

          if (out != NULL)
            g_assert_cmpuint (length, <=, cut);
        }
    }

  /* 100 000 levels of XML and of YAML nesting: every scanner is iterative */
  {
    g_autoptr(GString) xml = g_string_new (NULL);
    g_autoptr(GString) yaml = g_string_new (NULL);
    g_autofree char *xml_decision = NULL;
    g_autofree char *yaml_decision = NULL;
    g_autofree char *xml_out = NULL;
    g_autofree char *yaml_out = NULL;

    for (guint i = 0; i < 100000; i++)
      g_string_append (xml, "<a>");
    g_string_append (xml, "This text node is long enough, more than a hundred characters and "
                          "six words, to be summarised by the adapter.");
    for (guint i = 0; i < 100000; i++)
      g_string_append (xml, "</a>");
    for (guint i = 0; i < 2000; i++)
      {
        g_string_append_printf (yaml, "%*sk%u:\n", i % 200, "", i);
        g_string_append_printf (yaml, "%*s  v: 1\n", i % 200, "");
      }

    xml_out = winnow_adapters_apply (xml->str, xml->len, NULL, NULL, &xml_decision);
    g_assert_cmpstr (xml_decision, ==, "adapter:xml");
    yaml_out = winnow_adapters_apply (yaml->str, yaml->len, NULL, NULL, &yaml_decision);
    g_assert_cmpstr (yaml_decision, ==, "adapter_reverted:yaml");
  }

  /* every fixture cut at every 7th byte (invalid UTF-8 cuts are simply refused) */
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *input = NULL;
      gsize length;

      input = load_fixture (fixtures[i], &length);
      for (gsize cut = 0; cut < length; cut += 7)
        {
          g_autofree char *decision = NULL;
          gsize out_length;
          g_autofree char *out = winnow_adapters_apply (input, cut, NULL, &out_length, &decision);

          if (out != NULL)
            g_assert_cmpuint (out_length, <=, cut);
        }
    }
}

/* 50 MB of YAML (the adapter that does the most per line) and a 50 MB line through the
 * scorer; Markdown gets 12 MB, to keep the suite quick under the sanitizers. */
static void
test_huge (void)
{
  const gsize target = 50 * 1024 * 1024;
  g_autoptr(GString) yaml = g_string_sized_new (target + 4096);
  g_autoptr(GString) markdown = g_string_sized_new (target / 4 + 4096);
  g_autoptr(GString) line = g_string_sized_new (target + 4096);
  guint n = 0;

  while (yaml->len < target)
    g_string_append_printf (yaml,
                            "- name: item-%u\n"
                            "  replicas: %u\n"
                            "  description: Item %u is described by a sentence long enough to "
                            "count as prose, with a number %u in it.\n",
                            n, n % 7, n, n * 3), n++;
  n = 0;
  while (markdown->len < target / 4)
    g_string_append_printf (markdown,
                            "## Section %u\n\nThis paragraph %u explains a detail of the "
                            "system. It is followed by another sentence that says less.\n\n",
                            n, n), n++;
  while (line->len < target)
    g_string_append (line, "word word, e.g. 3.14 and main.c ");

  {
    g_autofree char *decision = NULL;
    gsize length;
    gint64 start = g_get_monotonic_time ();
    g_autofree char *out = winnow_adapters_apply (yaml->str, yaml->len, NULL, &length, &decision);

    g_test_message ("50 MB YAML: %.0f ms", (g_get_monotonic_time () - start) / 1000.0);
    g_assert_cmpstr (decision, ==, "adapter:yaml");
    g_assert_cmpuint (length, <, yaml->len);
  }
  {
    g_autofree char *decision = NULL;
    gsize length;
    gint64 start = g_get_monotonic_time ();
    g_autofree char *out = winnow_adapters_apply (markdown->str, markdown->len, NULL, &length,
                                                  &decision);

    g_test_message ("12 MB Markdown: %.0f ms", (g_get_monotonic_time () - start) / 1000.0);
    g_assert_cmpstr (decision, ==, "adapter:markdown");
    g_assert_cmpuint (length, <, markdown->len);
  }
  {
    gint64 start = g_get_monotonic_time ();
    g_autofree char *summary = winnow_sentence_summarize (line->str, line->len, 0.1, NULL);

    g_test_message ("50 MB single line through the scorer: %.0f ms",
                    (g_get_monotonic_time () - start) / 1000.0);
    g_assert_cmpuint (strlen (summary), <=, line->len / 10);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/adapters/names", test_names);
  g_test_add_func ("/winnow/adapters/no-adapter", test_no_adapter);
  g_test_add_func ("/winnow/adapters/revert", test_revert);
  g_test_add_func ("/winnow/adapters/lossless-only", test_lossless_only);
  g_test_add_func ("/winnow/adapters/options", test_options);
  g_test_add_func ("/winnow/adapters/order", test_order);
  g_test_add_func ("/winnow/adapters/not-utf8", test_not_utf8);
  g_test_add_func ("/winnow/adapters/code", test_code);
  g_test_add_func ("/winnow/adapters/structured/detect", test_structured_detect);
  g_test_add_func ("/winnow/adapters/structured/pytest", test_structured_pytest);
  g_test_add_func ("/winnow/adapters/structured/grep", test_structured_grep);
  g_test_add_func ("/winnow/adapters/structured/corpus-needles", test_corpus_needles);
  g_test_add_func ("/winnow/adapters/determinism", test_determinism);
  g_test_add_func ("/winnow/adapters/hostile", test_hostile);
  g_test_add_func ("/winnow/adapters/huge", test_huge);

  return g_test_run ();
}
