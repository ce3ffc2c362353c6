/* test-adapters-formats.c — the JSON, CSV, XML, YAML and Markdown adapters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Through the public API only; fixtures are described in test-adapters-util.h.
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "test-adapters-util.h"

/* ---- JSON ---------------------------------------------------------------------------------- */

static void
test_json_detect (void)
{
  const char *invalid[] = {
    "[1, 2,]", "{'a': 1}", "{\"a\": NaN}", "{\"a\": 01}", "{\"a\": 1.}", "{\"a\": .5}",
    "{\"a\": +1}", "{\"a\": 1} x", "[1] [2]", "{\"a\" 1}", "{\"a\": tru}", "{\"a\": nullx}",
    "[\"tab\there\"]", "[\"\\x\"]", "[\"\\u12\"]", "{\"a\":1,}", "{,}", "[", "]", "{}}", "\"str\"",
    "42", "true", "", "   ", "{\"a\":[1,2}", "[{]}", "{\"a\":1 \"b\":2}", "[1 2]", "{1:2}",
  };
  const char *valid[] = {
    "{}", "[]", " [ ] ", "{\"a\":1}", "[1,-0,0.5e-3,2E+10,-1.25]", "[\"\\u00e9\\n\\\"\\/\"]",
    "{\"a\":{\"b\":[true,false,null]}}", "\n\t{ \"k\" : \"v\" }\r\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    if (detect_only (invalid[i], "json") != NULL)
      g_error ("detected as JSON: %s", invalid[i]);
  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    if (detect_only (valid[i], "json") == NULL)
      g_error ("not detected as JSON: %s", valid[i]);
}

static void
test_json_lossless (void)
{
  g_auto(Run) a = { NULL, };
  g_auto(Run) b = { NULL, };

  /* key order, number text and string escapes survive exactly */
  run_stub (&a,
            "{\n  \"zeta\" : 1.50,\n  \"alpha\" : [ 1E+3 , -0.0e-7, \"\\u00e9 \\\"q\\\" \\/\" ],\n"
            "  \"m\" : { } , \"n\" : [ ]\n}\n",
            -1, FALSE, NULL);
  g_assert_cmpstr (a.decision, ==, "adapter:json");
  g_assert_cmpstr (a.text, ==,
                   "{\"zeta\":1.50,\"alpha\":[1E+3,-0.0e-7,\"\\u00e9 \\\"q\\\" \\/\"],"
                   "\"m\":{},\"n\":[]}");

  /* already minified (only a final newline to drop): nothing to gain */
  run_stub (&b, "{\"a\":[1,2,3]}\n", -1, FALSE, NULL);
  g_assert_cmpstr (b.decision, ==, "adapter_reverted:json");
  g_assert_cmpstr (b.text, ==, "{\"a\":[1,2,3]}\n");
}

static void
test_json_elision (void)
{
  g_autoptr(GString) big = g_string_new ("[");
  g_auto(Run) a = { NULL, };
  g_auto(Run) b = { NULL, };
  g_auto(Run) c = { NULL, };
  g_auto(Run) d = { NULL, };
  g_autoptr(JsonParser) parser = json_parser_new ();

  for (guint i = 0; i < 20; i++)
    g_string_append_printf (big, "%s %u", i > 0 ? "," : "", i);
  g_string_append (big, " ]");

  run_stub (&a, big->str, -1, TRUE, NULL);
  g_assert_cmpstr (a.decision, ==, "adapter:json");
  g_assert_cmpstr (a.text, ==, "[0,1,2,\"… 15 items omitted …\",18,19]");
  g_assert_true (json_parser_load_from_data (parser, a.text, -1, NULL));

  /* seven items: too few to elide; eight small ones: the marker would be longer */
  run_stub (&b, "[1, 2, 3, 4, 5, 6, 7]", -1, TRUE, NULL);
  g_assert_cmpstr (b.text, ==, "[1,2,3,4,5,6,7]");
  g_clear_pointer (&b.text, g_free);
  b.text = winnow_adapters_apply ("[1, 2, 3, 4, 5, 6, 7, 8]", -1, NULL, NULL, NULL);
  g_assert_cmpstr (b.text, ==, "[1,2,3,4,5,6,7,8]");

  /* arrays inside omitted items do not confuse the arrays after them; arrays inside kept
   * items are elided in turn */
  run_stub (&c,
            "{\"a\": [{\"id\": 0, \"t\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, "
            "17, 18, 19, 20]},\n"
            "        {\"id\": 1}, {\"id\": 2}, {\"id\": 3, \"t\": [[1], [2]]}, {\"id\": 4, "
            "\"t\": [5, 6]},\n"
            "        {\"id\": 5}, {\"id\": 6}, {\"id\": 7}, {\"id\": 8}],\n"
            " \"b\": [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, "
            "115, 116, 117, 118, 119]}",
            -1, TRUE, NULL);
  g_assert_cmpstr (c.decision, ==, "adapter:json");
  g_assert_cmpstr (c.text, ==,
                   "{\"a\":[{\"id\":0,\"t\":[1,2,3,\"… 15 items omitted …\",19,20]},{\"id\":1},"
                   "{\"id\":2},\"… 4 items omitted …\",{\"id\":7},{\"id\":8}],"
                   "\"b\":[100,101,102,\"… 15 items omitted …\",118,119]}");
  g_assert_true (json_parser_load_from_data (parser, c.text, -1, NULL));

  /* lossless mode never elides */
  run_stub (&d, big->str, -1, FALSE, NULL);
  g_assert_cmpstr (d.text, ==, "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]");
}

static void
test_json_long_strings (void)
{
  g_autoptr(GString) blob = g_string_new ("{\"id\": 7, \"avatar\": \"");
  g_autoptr(GString) expected = g_string_new ("{\"id\":7,\"avatar\":\"");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) a = { NULL, };

  for (guint i = 0; i < 1500; i++)
    g_string_append_c (blob, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[i % 64]);
  g_string_append (blob, "\"}");
  g_string_append_len (expected, blob->str + strlen ("{\"id\": 7, \"avatar\": \""), 96);
  g_string_append (expected, "… [1404 chars omitted]\"}");

  /* a base64 blob keeps its head */
  run_stub (&a, blob->str, -1, TRUE, NULL);
  g_assert_cmpstr (a.decision, ==, "adapter:json");
  g_assert_cmpstr (a.text, ==, expected->str);
  g_assert_true (json_parser_load_from_data (parser, a.text, -1, NULL));

  /* the fixture's long description is prose: summarised, marked, still valid JSON */
  check_skeleton ("items.json", "items.lossy.json", TRUE, "adapter:json");
  check_skeleton ("items.json", "items.lossless.json", FALSE, "adapter:json");

  /* with the real scorer: the sentence with the number and the negation is the one kept */
  {
    g_autofree char *input = NULL;
    g_autofree char *out = NULL;
    g_autofree char *decision = NULL;
    gsize length;

    input = load_fixture ("items.json", &length);
    out = winnow_adapters_apply (input, length, NULL, NULL, &decision);
    g_assert_true (strstr (out, "\"description\":\"Orders above 5000 pieces are not accepted "
                                "online and must go through the sales team. […]\"") != NULL);
    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  }
}

static void
test_json_deep (void)
{
  const guint depth = 100000;
  g_autoptr(GString) arrays = g_string_sized_new (depth * 2 + 8);
  g_autoptr(GString) spaced = g_string_sized_new (depth * 4 + 8);
  g_autoptr(GString) objects = g_string_sized_new (depth * 8 + 8);
  g_auto(Run) a = { NULL, };
  g_auto(Run) b = { NULL, };
  g_auto(Run) c = { NULL, };
  g_auto(Run) d = { NULL, };

  for (guint i = 0; i < depth; i++)
    {
      g_string_append_c (arrays, '[');
      g_string_append (spaced, "[ ");
      g_string_append (objects, "{\"a\": ");
    }
  g_string_append (objects, "1");
  for (guint i = 0; i < depth; i++)
    {
      g_string_append_c (arrays, ']');
      g_string_append (spaced, " ]");
      g_string_append (objects, " }");
    }

  /* minified already: detected, reverted; no recursion, so no stack overflow */
  run_stub (&a, arrays->str, arrays->len, TRUE, NULL);
  g_assert_cmpstr (a.decision, ==, "adapter_reverted:json");

  run_stub (&b, spaced->str, spaced->len, TRUE, NULL);
  g_assert_cmpstr (b.decision, ==, "adapter:json");
  g_assert_cmpstr (b.text, ==, arrays->str);

  run_stub (&c, objects->str, objects->len, TRUE, NULL);
  g_assert_cmpstr (c.decision, ==, "adapter:json");
  g_assert_cmpuint (c.length, ==, depth * 6 + 1);

  /* unbalanced: not JSON, and nothing else takes it either */
  g_string_truncate (arrays, depth + depth / 2);
  run_stub (&d, arrays->str, arrays->len, TRUE, NULL);
  g_assert_null (d.decision);
}

/* ---- CSV ----------------------------------------------------------------------------------- */

static void
test_csv_detect (void)
{
  g_autofree char *orders = NULL;
  gsize length;

  orders = load_fixture ("orders.csv", &length);
  g_assert_cmpstr (detect_only (orders, "csv"), ==, "csv");
  g_assert_cmpstr (detect_only ("name\tsize\na\t1\nb\t2\n", "csv"), ==, "csv");
  g_assert_cmpstr (detect_only ("a;b;c\r\n1;2;3\r\n4;5;6\r\n", "csv"), ==, "csv");
  g_assert_cmpstr (detect_only ("id,comment\n1,\"line one\nline two, with a comma\"\n2,\"say "
                                "\"\"hi\"\"\"\n", "csv"), ==, "csv");

  g_assert_null (detect_only ("id,name\n1,a\n", "csv"));                    /* two records */
  g_assert_null (detect_only ("id,name\n1,a\n2,b,c\n", "csv"));             /* ragged */
  g_assert_null (detect_only ("id,name\n1,\"open\n2,b\n", "csv"));          /* open quote */
  g_assert_null (detect_only ("id,name\n1,\"x\"y\n2,b\n", "csv"));          /* after quote */
  g_assert_null (detect_only ("8.0K\t./src\n12K\t./tests\n20K\t.\n", "csv")); /* du */
  g_assert_null (detect_only ("Hello, this is a line of prose that has one comma in it, "
                              "or two\nand another, short one\nthird, line\n", "csv"));
  g_assert_null (detect_only ("just\nthree\nlines\n", "csv"));
}

static void
test_csv_summary (void)
{
  g_autoptr(GString) table = g_string_new ("id,comment,score\n"
                                           "1,\"first, with a comma\",0.5\n"
                                           "2,\"multi\nline\",1e2\n"
                                           "3,plain,-3\n"
                                           "4,plain,\n");
  g_auto(Run) run = { NULL, };

  check_skeleton ("orders.csv", "orders.csv", TRUE, "adapter:csv");

  for (guint i = 5; i <= 28; i++)
    g_string_append_printf (table, "%u,plain,%u\n", i, i);
  g_string_append (table, "29,\"he said \"\"no\"\"\",8\n30,plain,9\n");

  run_stub (&run, table->str, table->len, TRUE, NULL);
  g_assert_cmpstr (run.decision, ==, "adapter:csv");
  g_assert_cmpstr (run.text, ==,
                   "id,comment,score\n"
                   "1,\"first, with a comma\",0.5\n"
                   "2,\"multi\nline\",1e2\n"
                   "3,plain,-3\n"
                   "… 25 rows omitted …\n"
                   "29,\"he said \"\"no\"\"\",8\n"
                   "30,plain,9\n"
                   "# 30 rows, 3 columns\n"
                   "# id: 1 … 30, 30 distinct\n"
                   "# comment: 4 distinct\n"
                   "# score: -3 … 1e2, 27 distinct, 1 empty");
  g_assert_cmpuint (run.seen->len, ==, 0);   /* rows are summarised by counting, not by prose */
}

/* ---- XML ----------------------------------------------------------------------------------- */

static void
test_xml_detect (void)
{
  g_assert_cmpstr (detect_only ("<?xml version=\"1.0\"?>\n<a/>\n<!-- </a> -->", "xml"), ==, "xml");
  g_assert_cmpstr (detect_only ("\xEF\xBB\xBF  <svg><g></g></svg>", "xml"), ==, "xml");
  g_assert_cmpstr (detect_only ("<testsuite name=\"x\"><testcase/></testsuite>", "xml"), ==, "xml");

  g_assert_null (detect_only ("<br>", "xml"));                      /* no closing tag */
  g_assert_null (detect_only ("text <b>bold</b>", "xml"));          /* does not start with a tag */
  g_assert_null (detect_only ("< a>x</a>", "xml"));
  g_assert_null (detect_only ("<1>x</1>", "xml"));
}

static void
test_xml_pom (void)
{
  g_auto(Run) run = { NULL, };
  g_autofree char *input = NULL;
  gsize length;

  check_skeleton ("pom.xml", "pom.xml", TRUE, "adapter:xml");

  /* the description and the long comment went to the summariser, the short comment did not */
  input = load_fixture ("pom.xml", &length);
  run_stub (&run, input, length, TRUE, NULL);
  g_assert_cmpstr (run.seen->str, ==,
                   "The inventory service keeps track of stock levels for every warehouse and "
                   "exposes them through a small REST API. It also publishes change events so "
                   "that the ordering and billing services can react when an item runs low or "
                   "is restocked by a supplier.\n\n"
                   "The versions below are kept in step with the platform bill of materials that "
                   "the operations team publishes every quarter, so please do not bump them on "
                   "your own.");
}

static char *
dashes_summarizer (const char *text,
                   gsize       length,
                   double      keep_ratio,
                   gpointer    user_data)
{
  return g_strdup ("run make --keep-going -- now");
}

static void
test_xml_details (void)
{
  const char *junit =
    "<testsuite tests=\"2\" failures=\"1\">\n"
    "  <testcase name=\"namesAreSorted\">\n"
    "    <failure message=\"expected sorted\">The list of names was returned in insertion order "
    "instead of alphabetical order, so the assertion failed.</failure>\n"
    "  </testcase>\n"
    "  <testcase name=\"restock\"><system-out>Restocking the warehouse took longer than usual "
    "because the supplier queue was full of pending requests.</system-out></testcase>\n"
    "  <script><![CDATA[ if (a < b && c) { run(); } and some long text that goes on and on "
    "and on and on for more than one hundred characters ]]></script>\n"
    "</testsuite>\n";
  const char *broken = "<a>some text < with a stray bracket</a><b attr=\"x>y\">ok</b><c unclosed";
  WinnowAdapterOptions options;
  g_autofree char *out = NULL;
  g_auto(Run) run = { NULL, };
  g_auto(Run) b = { NULL, };

  /* error text stays, CDATA stays, other long prose becomes […] */
  run_stub (&run, junit, -1, TRUE, NULL);
  g_assert_cmpstr (run.decision, ==, "adapter:xml");
  g_assert_true (strstr (run.text, "so the assertion failed.</failure>") != NULL);
  g_assert_true (strstr (run.text, "<system-out>[…]</system-out>") != NULL);
  g_assert_true (strstr (run.text, "<![CDATA[ if (a < b && c)") != NULL);
  g_assert_true (g_str_has_suffix (run.text, "</testsuite>\n<!-- SUMMARY -->"));

  /* "--" cannot appear inside the summary comment */
  winnow_adapter_options_init (&options);
  options.summarizer = dashes_summarizer;
  out = winnow_adapters_apply (junit, -1, &options, NULL, NULL);
  g_assert_true (g_str_has_suffix (out, "<!-- run make - -keep-going - - now -->"));

  /* malformed markup passes through */
  run_stub (&b, broken, -1, TRUE, NULL);
  g_assert_cmpstr (b.decision, ==, "adapter_reverted:xml");
  g_assert_cmpstr (b.text, ==, broken);
}

/* ---- YAML ---------------------------------------------------------------------------------- */

static void
test_yaml_detect (void)
{
  g_autofree char *manifest = NULL;
  gsize length;

  manifest = load_fixture ("deployment.yaml", &length);
  g_assert_cmpstr (detect_only (manifest, "yaml"), ==, "yaml");
  g_assert_cmpstr (detect_only ("---\n# c\nkey: value\nlist:\n  - a\n  - b\n", "yaml"), ==, "yaml");
  g_assert_cmpstr (detect_only ("- name: a\n  id: 1\n- name: b\n  id: 2\n", "yaml"), ==, "yaml");

  g_assert_null (detect_only ("a: 1\nb: 2\nc: 3\n", "yaml"));   /* three lines */
  g_assert_null (detect_only ("To github.com:x/y.git\n ! [rejected] main -> main\n"
                              "error: failed to push some refs\nhint: pull first\n"
                              "hint: then push\n", "yaml"));
  g_assert_null (detect_only ("src/a.ts(5,5): error TS2322: Type 'string'\n"
                              "src/a.ts(6,1): error TS2322: Type 'number'\n"
                              "src/b.ts(1,1): error TS2322: Type 'x'\nFound 3 errors.\n",
                              "yaml"));
  g_assert_null (detect_only ("In short: this is prose.\nIt has lines.\nMany lines.\n"
                              "Most of them: not keys at all, just text.\nAnd more text.\n",
                              "yaml"));
}

static void
test_yaml_manifests (void)
{
  g_auto(Run) run = { NULL, };
  g_autofree char *input = NULL;
  gsize length;

  check_skeleton ("deployment.yaml", "deployment.yaml", TRUE, "adapter:yaml");
  check_skeleton ("workflow.yml", "workflow.yml", TRUE, "adapter:yaml");

  input = load_fixture ("deployment.yaml", &length);
  run_stub (&run, input, length, TRUE, NULL);
  g_assert_cmpstr (run.seen->str, ==,
                   "Roll out the restock notifications and raise the memory limit after the OOM "
                   "kills seen last week\n\n"
                   "This deployment runs the inventory service behind the internal gateway and "
                   "scales with the number of open orders during the sales season.\n\n"
                   "Suppliers are notified by mail when the stock of an item falls below the "
                   "reorder level set for its warehouse.");
}

static void
test_yaml_details (void)
{
  const char *doc =
    "service:\n"
    "  summary: This value is long enough to be prose and it continues\n"
    "    on a second, more indented line that belongs to the same value.\n"
    "  notes: |\n"
    "    A block scalar is kept whole, however long and however much it reads like prose.\n"
    "    key: looks like a key but is part of the block\n"
    "  script: run the migration tool against the staging database and then restart all of it\n"
    "  status: The last deployment failed because the database migration could not finish.\n"
    "  tags: [one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve]\n"
    "  owner: team-inventory  # a comment\n";
  g_auto(Run) run = { NULL, };

  run_stub (&run, doc, -1, TRUE, NULL);
  g_assert_cmpstr (run.decision, ==, "adapter:yaml");
  g_assert_cmpstr (run.text, ==,
                   "service:\n"
                   "  summary: […]\n"
                   "  notes: |\n"
                   "    A block scalar is kept whole, however long and however much it reads "
                   "like prose.\n"
                   "    key: looks like a key but is part of the block\n"
                   "  script: run the migration tool against the staging database and then "
                   "restart all of it\n"
                   "  status: The last deployment failed because the database migration could "
                   "not finish.\n"
                   "  tags: [one, two, three, four, five, six, seven, eight, nine, ten, eleven, "
                   "twelve]\n"
                   "  owner: team-inventory  # a comment\n"
                   "# SUMMARY");
  g_assert_cmpstr (run.seen->str, ==,
                   "This value is long enough to be prose and it continues\n"
                   "    on a second, more indented line that belongs to the same value.");

  /* a quote that never closes does not swallow the rest of the document */
  run_clear (&run);
  run_stub (&run,
            "first: \"an open quote that is never closed again in this whole document\n"
            "second: This value is a sentence long enough to count as prose for the adapter.\n"
            "third: 3\nfourth: 4\n",
            -1, TRUE, NULL);
  g_assert_cmpstr (run.decision, ==, "adapter:yaml");
  g_assert_cmpstr (run.text, ==,
                   "first: […]\n"
                   "second: […]\n"
                   "third: 3\nfourth: 4\n"
                   "# SUMMARY");
}

/* ---- Markdown ------------------------------------------------------------------------------ */

static void
test_markdown_detect (void)
{
  g_autofree char *readme = NULL;
  gsize length;
  const char *script =
    "# build the project\n"
    "cd build && make -j4\n"
    "# run the tests\n"
    "result = run_tests()\n"
    "if (result != 0) { exit 1; }\n"
    "echo done with everything, padding this script out to more than two hundred bytes;\n"
    "printf '%s\\n' \"and a little more, since the rule wants two hundred bytes\";\n";
  const char *tap =
    "TAP version 13\n# Subtest: add\nok 1 - add\n# tests 1\n# pass 1\n# fail 0\n"
    "# this output is padded to more than two hundred bytes so that only the TAP rule can "
    "reject it as Markdown, which it is not, even with its hash lines\n";

  readme = load_fixture ("service-readme.md", &length);
  g_assert_cmpstr (detect_only (readme, "markdown"), ==, "markdown");
  g_assert_null (detect_only ("# Title\n\nOnly one heading in this document, and it is long "
                              "enough otherwise: more than two hundred bytes of prose that "
                              "talk about nothing in particular, just to fill the space that "
                              "the rule asks for.\n", "markdown"));
  g_assert_null (detect_only ("# A\n## B\nshort\n", "markdown"));
  g_assert_null (detect_only ("#hashtag is not a heading\n#another\n", "markdown"));
  g_assert_null (detect_only (script, "markdown"));
  g_assert_null (detect_only (tap, "markdown"));
}

static void
test_markdown_readme (void)
{
  g_auto(Run) run = { NULL, };
  g_autofree char *input = NULL;
  gsize length;

  check_skeleton ("service-readme.md", "service-readme.md", TRUE, "adapter:markdown");

  input = load_fixture ("service-readme.md", &length);
  run_stub (&run, input, length, TRUE, NULL);
  g_assert_true (g_str_has_prefix (run.seen->str, "The inventory service keeps track"));
  g_assert_true (g_str_has_suffix (run.seen->str, "See the LICENSE file for the full text."));
  g_assert_null (strstr (run.seen->str, "|"));
  g_assert_null (strstr (run.seen->str, "##"));
  g_assert_null (strstr (run.seen->str, "---"));
}

static void
test_markdown_details (void)
{
  const char *doc =
    "---\n"
    "title: Runbook\n"
    "---\n"
    "Restarting the service\n"
    "======================\n"
    "\n"
    "When the queue backs up, restart the workers one at a time and watch the lag graph.\n"
    "\n"
    "## Steps\n"
    "\n"
    "* * *\n"
    "\n"
    "1. Drain the worker.\n"
    "2. Restart it.\n"
    "\n"
    "## Links\n"
    "\n"
    "See the dashboard for the details of every step described above in this runbook.\n";
  g_auto(Run) run = { NULL, };

  run_stub (&run, doc, -1, TRUE, NULL);
  g_assert_cmpstr (run.decision, ==, "adapter:markdown");
  g_assert_cmpstr (run.text, ==,
                   "---\ntitle: Runbook\n---\n\n"
                   "Restarting the service\n======================\n\nSUMMARY\n\n"
                   "## Steps\n\nSUMMARY\n\n"
                   "## Links\n\nSUMMARY");
  /* one summary per section, each of its own prose */
  g_assert_cmpstr (run.seen->str, ==,
                   "When the queue backs up, restart the workers one at a time and watch the lag "
                   "graph.\n--\n"
                   "1. Drain the worker.\n2. Restart it.\n--\n"
                   "See the dashboard for the details of every step described above in this "
                   "runbook.");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/adapters/json/detect", test_json_detect);
  g_test_add_func ("/winnow/adapters/json/lossless", test_json_lossless);
  g_test_add_func ("/winnow/adapters/json/elision", test_json_elision);
  g_test_add_func ("/winnow/adapters/json/long-strings", test_json_long_strings);
  g_test_add_func ("/winnow/adapters/json/deep", test_json_deep);
  g_test_add_func ("/winnow/adapters/csv/detect", test_csv_detect);
  g_test_add_func ("/winnow/adapters/csv/summary", test_csv_summary);
  g_test_add_func ("/winnow/adapters/xml/detect", test_xml_detect);
  g_test_add_func ("/winnow/adapters/xml/pom", test_xml_pom);
  g_test_add_func ("/winnow/adapters/xml/details", test_xml_details);
  g_test_add_func ("/winnow/adapters/yaml/detect", test_yaml_detect);
  g_test_add_func ("/winnow/adapters/yaml/manifests", test_yaml_manifests);
  g_test_add_func ("/winnow/adapters/yaml/details", test_yaml_details);
  g_test_add_func ("/winnow/adapters/markdown/detect", test_markdown_detect);
  g_test_add_func ("/winnow/adapters/markdown/readme", test_markdown_readme);
  g_test_add_func ("/winnow/adapters/markdown/details", test_markdown_details);

  return g_test_run ();
}
