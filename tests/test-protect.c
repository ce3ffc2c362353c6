/* test-protect.c — protected-token segmentation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

/* The scan's invariants: sorted, non-overlapping, non-empty, in bounds, on character
 * boundaries (for valid UTF-8: never inside a multi-byte character), and prose plus spans put
 * back together is the input. */
static void
check_invariants (const char   *text,
                  gsize         length,
                  const GArray *spans)
{
  g_autoptr(GString) rebuilt = g_string_sized_new (length);
  gsize at = 0;
  gboolean valid = g_utf8_validate_len (text, length, NULL);

  for (guint i = 0; i < spans->len; i++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);

      g_assert_cmpuint (span->start, <, span->end);
      g_assert_cmpuint (span->end, <=, length);
      g_assert_cmpuint (span->start, >=, at);
      if (i > 0)
        g_assert_cmpuint (span->start, >, g_array_index (spans, WinnowProtectSpan, i - 1).end - 1);
      g_assert_cmpint (span->kind, >=, 0);
      g_assert_cmpint (span->kind, <, WINNOW_PROTECT_N_KINDS);
      if (valid)
        {
          g_assert_cmpint ((guchar) text[span->start] & 0xC0, !=, 0x80);
          if (span->end < length)
            g_assert_cmpint ((guchar) text[span->end] & 0xC0, !=, 0x80);
        }
      g_string_append_len (rebuilt, text + at, span->start - at);
      g_string_append_len (rebuilt, text + span->start, span->end - span->start);
      at = span->end;
    }
  g_string_append_len (rebuilt, text + at, length - at);

  g_assert_cmpuint (rebuilt->len, ==, length);
  g_assert_true (memcmp (rebuilt->str, text, length) == 0);
}

/* Every span as kind[text], separated by spaces. */
static char *
describe (const char *text)
{
  g_autoptr(GArray) spans = winnow_protect_scan (text, -1);
  GString *out = g_string_new (NULL);

  check_invariants (text, strlen (text), spans);
  for (guint i = 0; i < spans->len; i++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);

      g_string_append_printf (out, "%s%s[%.*s]", i > 0 ? " " : "",
                              winnow_protect_kind_to_string (span->kind),
                              (int) (span->end - span->start), text + span->start);
    }

  return g_string_free (out, FALSE);
}

#define assert_scan(text, expected)                     \
  G_STMT_START {                                        \
    g_autofree char *described_ = describe (text);      \
    g_assert_cmpstr (described_, ==, (expected));       \
  } G_STMT_END

/* The whole of @text is one run of code. */
#define assert_code_run(text)                                             \
  G_STMT_START {                                                          \
    g_autofree char *expected_ = g_strdup_printf ("code[%s]", (text));    \
    assert_scan ((text), expected_);                                      \
  } G_STMT_END

/* Some span is exactly @token (its first occurrence in @text) and of @kind. */
static void
assert_protected (const char        *text,
                  const char        *token,
                  WinnowProtectKind  kind)
{
  g_autoptr(GArray) spans = winnow_protect_scan (text, -1);
  const char *at = strstr (text, token);
  gsize start, end;

  g_assert_nonnull (at);
  start = at - text;
  end = start + strlen (token);
  for (guint i = 0; i < spans->len; i++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);

      if (span->start == start && span->end == end)
        {
          g_assert_cmpstr (winnow_protect_kind_to_string (span->kind), ==,
                           winnow_protect_kind_to_string (kind));
          return;
        }
    }

  {
    g_autofree char *all = describe (text);

    g_error ("“%s” is not a %s span; spans: %s", token, winnow_protect_kind_to_string (kind),
             all);
  }
}

/* No span touches the first occurrence of @word in @text. */
static void
assert_prose (const char *text,
              const char *word)
{
  g_autoptr(GArray) spans = winnow_protect_scan (text, -1);
  const char *at = strstr (text, word);
  gsize start, end;

  g_assert_nonnull (at);
  start = at - text;
  end = start + strlen (word);
  for (guint i = 0; i < spans->len; i++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);

      if (span->start < end && span->end > start)
        g_error ("“%s” should stay prose but is inside %s[%.*s]", word,
                 winnow_protect_kind_to_string (span->kind), (int) (span->end - span->start),
                 text + span->start);
    }
}

/* ---- blocks ------------------------------------------------------------------------------ */

static void
test_fence (void)
{
  /* both fence lines, the info string, never the final newline */
  assert_scan ("Try this:\n```python title=\"x.py\"\nprint('hi')\n```\nThat is all.",
               "fence[```python title=\"x.py\"\nprint('hi')\n```]");
  /* tildes, with backticks inside */
  assert_scan ("~~~\n```\nnot a closer\n```\n~~~\nafter",
               "fence[~~~\n```\nnot a closer\n```\n~~~]");
  /* a longer fence holds shorter ones */
  assert_scan ("````md\n```js\nx()\n```\n````\n",
               "fence[````md\n```js\nx()\n```\n````]");
  /* indented by up to three spaces, closed with another indentation */
  assert_scan ("Steps:\n   ```sh\n   ls\n ```\ndone",
               "fence[   ```sh\n   ls\n ```]");
  /* inside a list item, indented by four */
  assert_scan ("1. Install it:\n\n    ```bash\n    npm ci\n    ```\n\n2. Test it.",
               "number[1] fence[    ```bash\n    npm ci\n    ```] number[2]");
  /* opening a list item */
  assert_scan ("- ```bash\n  make\n  ```", "fence[- ```bash\n  make\n  ```]");
  /* never closed: the rest of the message is code (trailing blank lines stay prose) */
  assert_scan ("Here:\n```\nint main (void)\n{\n  return 0;\n\n\n",
               "fence[```\nint main (void)\n{\n  return 0;]");
  /* the very last thing, without a final newline */
  assert_scan ("Done.\n```\nx\n```", "fence[```\nx\n```]");
  /* CRLF lines: the span stops before \r\n */
  assert_scan ("a\r\n```\r\nx\r\n```\r\nb", "fence[```\r\nx\r\n```]");
  /* ```foo``` on one line is a code span, and a fence mentioned in prose is no fence */
  assert_scan ("```foo```", "inline-code[```foo```]");
  assert_scan ("Open it with ``` and close it the same way.", "");
}

static void
test_indented_code (void)
{
  assert_scan ("Run:\n\n    make check\n\n    make install\n\nThen rest.",
               "indented-code[    make check\n\n    make install]");
  assert_scan ("\tx = 1\n", "indented-code[\tx = 1]");
  /* indentation that continues a paragraph is not code */
  assert_scan ("This sentence goes on\n    and on over lines.", "");
  /* a list item's continuation paragraph is not code; four columns past its content is */
  assert_scan ("- First item\n\n    still the first item", "");
  assert_scan ("- First item\n\n      code_in_item()", "indented-code[      code_in_item()]");
}

static void
test_inline_code (void)
{
  assert_scan ("Set `x = 1` and ``a ` b`` here.", "inline-code[`x = 1`] inline-code[``a ` b``]");
  /* a code span may cross a line, never a blank line */
  assert_scan ("Use `foo\nbar` now", "inline-code[`foo\nbar`]");
  assert_scan ("An open ` tick\n\nand `closed` later", "inline-code[`closed`]");
  /* a run without a closing run of the same length is text */
  assert_scan ("Odd `` tick", "");
}

static void
test_heading (void)
{
  assert_scan ("## Root cause\nThe cache.", "heading[## Root cause]");
  assert_scan ("#\n###### Six", "heading[#\n###### Six]");
  assert_scan ("Summary\n=======\nOk.", "heading[Summary\n=======]");
  assert_scan ("Summary\n---\n", "heading[Summary\n---]");
  /* not headings */
  assert_scan ("#123 is fixed", "identifier[#123]");
  assert_scan ("####### seven", "");
  assert_scan ("#!/bin/sh", "path[#!/bin/sh]");
}

static void
test_table (void)
{
  assert_scan ("Results:\n| Name | Time |\n|:-----|-----:|\n| parse | 3 ms |\n| emit | 1 ms |\n"
               "Done.",
               "table[| Name | Time |\n|:-----|-----:|\n| parse | 3 ms |\n| emit | 1 ms |]");
  assert_scan ("a | b\n--|--\n1 | 2\n\nafter", "table[a | b\n--|--\n1 | 2]");
  assert_scan ("| x | y |\n| 1 | 2 |", "table[| x | y |\n| 1 | 2 |]");
  /* psql's table: a delimiter row with + where the rows have | */
  assert_scan ("The query gives:\n id | name  |   email\n----+-------+-----------\n"
               "  1 | alice | a@example.com\n(1 row)",
               "table[ id | name  |   email\n----+-------+-----------\n"
               "  1 | alice | a@example.com] number[1]");
  /* rows of comma- or tab-separated values are data, whatever words their cells hold */
  assert_scan ("The export:\nid,name,comment\n1,Alice,\"paid the invoice, late\"\n"
               "2,Bob,a refund for the order\nIs it right?",
               "structured[id,name,comment\n1,Alice,\"paid the invoice, late\"\n"
               "2,Bob,a refund for the order]");
  assert_scan ("name\tstatus\tnote\nweb-1\tup\tthe disk is almost full\n"
               "web-2\tdown\ta restart is needed",
               "structured[name\tstatus\tnote\nweb-1\tup\tthe disk is almost full\n"
               "web-2\tdown\ta restart is needed]");
  /* lines of prose with as many commas are not: a blank follows theirs */
  assert_scan ("First, the build, then the tests.\nSecond, the docs, then the site.\n"
               "Third, the tag, then the release.", "");
  /* a pipe in a sentence is no table */
  assert_scan ("Pipe it through grep | sort here.\nNothing else.", "");
}

static void
test_structured (void)
{
  /* JSON: balanced across lines, braces in strings do not count */
  assert_scan ("Response:\n{\n  \"error\": \"bad }\",\n  \"ids\": [1, 2]\n}\nSo it failed.",
               "structured[{\n  \"error\": \"bad }\",\n  \"ids\": [1, 2]\n}]");
  assert_scan ("[\n  {\"a\": 1},\n  {\"a\": 2}\n],", "structured[[\n  {\"a\": 1},\n  {\"a\": 2}\n"
               "],]");
  assert_scan ("{\"level\":\"info\",\"msg\":\"ok\"}",
               "structured[{\"level\":\"info\",\"msg\":\"ok\"}]");
  /* never closed, or prose after the bracket: not JSON */
  assert_scan ("{\n  \"a\": 1\n\nafter", "number[1]");
  assert_scan ("[WIP] Parser rewrite", "");

  /* XML and HTML: from the prolog or first start tag to the line where that element ends */
  assert_scan ("The manifest:\n<?xml version=\"1.0\"?>\n<!-- generated -->\n<component type=\"desktop\">\n"
               "  <name xml:lang=\"fr\">Paramètres de la imprimante</name>\n</component>\nIt is valid.",
               "structured[<?xml version=\"1.0\"?>\n<!-- generated -->\n<component type=\"desktop\">\n"
               "  <name xml:lang=\"fr\">Paramètres de la imprimante</name>\n</component>]");
  /* the same name nested, a closing tag in CDATA or a comment, a > in an attribute */
  assert_scan ("<node class=\"a > b\">\n<node>the inner one</node>\n<![CDATA[ </node> ]]>\n"
               "<!-- </node> -->\n</node>\nafter",
               "structured[<node class=\"a > b\">\n<node>the inner one</node>\n<![CDATA[ </node> ]]>\n"
               "<!-- </node> -->\n</node>]");
  /* a page is a file; the HTML of a Markdown comment is prose with markup */
  assert_scan ("<!DOCTYPE html>\n<html>\n<p>the text of the page</p>\n</html>",
               "structured[<!DOCTYPE html>\n<html>\n<p>the text of the page</p>\n</html>]");
  assert_scan ("<details>\n<summary>Logs</summary>\n\nthe whole story here\n</details>", "");
  /* markup inside prose, an element that never ends, an end with prose after it: not blocks */
  assert_scan ("<kbd>Ctrl</kbd> then click the\nbutton twice", "");
  assert_scan ("<br>\nthe next line\nand more", "");
  assert_scan ("<T> is a type parameter\nthat the caller picks", "");
  assert_scan ("<b>Note:\nthis is bold </b> and this is not", "");

  /* YAML runs */
  assert_scan ("Config:\nname: ci\non: [push]\ntimeout-minutes: 10\nThat is it.",
               "structured[name: ci\non: [push]\ntimeout-minutes: 10]");
  assert_scan ("steps:\n  - uses: actions/checkout@v4\n  - run: make\n",
               "structured[steps:\n  - uses: actions/checkout@v4\n  - run: make]");
  assert_scan ("---\ntitle: Notes\ntags: [a, b]\n---\n# Notes", "structured[---\ntitle: Notes\n"
               "tags: [a, b]\n---] heading[# Notes]");
  /* prose with a colon is not YAML */
  assert_scan ("Note: this is slow.\nWarning: the cache is cold.", "");
  assert_scan ("Changes:\n- Fixed the parser\n- Added tests", "");
  assert_scan ("Note: this", "");

  /* TOML */
  assert_scan ("[package]\nname = \"winnow\"\nversion = \"0.1.0\"\n\n[dependencies]\nglib = "
               "\"2.74\"\n\nThat's the manifest.",
               "structured[[package]\nname = \"winnow\"\nversion = \"0.1.0\"\n\n[dependencies]\n"
               "glib = \"2.74\"]");
  assert_scan ("deps = [\n  \"a\",\n  \"b\",\n]\nopt = true", "structured[deps = [\n  \"a\",\n  "
               "\"b\",\n]\nopt = true]");
  assert_scan ("CC = gcc\nCFLAGS = -O2 -g", "structured[CC = gcc\nCFLAGS = -O2 -g]");
  assert_scan ("[section]\nJust words.", "");
}

static void
test_error_line (void)
{
  /* gcc with the excerpt under it */
  assert_scan ("Build fails:\nsrc/main.c:22:36: error: incompatible type for argument 1\n"
               "   22 |     double value = inventory_value(inv);\n"
               "      |                                    ^~~\n"
               "Any idea?",
               "error-line[src/main.c:22:36: error: incompatible type for argument 1\n"
               "   22 |     double value = inventory_value(inv);\n"
               "      |                                    ^~~]");
  /* rustc */
  assert_scan ("error[E0308]: mismatched types\n  --> src/main.rs:4:18\n   |\n4  |     let x: i32 "
               "= \"a\";\n   |                  ^^^ expected `i32`\n\nafter",
               "error-line[error[E0308]: mismatched types\n  --> src/main.rs:4:18\n   |\n4  |     "
               "let x: i32 = \"a\";\n   |                  ^^^ expected `i32`]");
  assert_protected ("ts/src/service.ts(5,5): error TS2322: Type 'string' is not assignable to "
                    "type 'number'.",
                    "ts/src/service.ts(5,5): error TS2322: Type 'string' is not assignable to "
                    "type 'number'.",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("x\nValueError: invalid literal for int() with base 10: '80a'\ny",
                    "ValueError: invalid literal for int() with base 10: '80a'",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("Uncaught TypeError: Cannot read properties of undefined (reading 'x')",
                    "Uncaught TypeError: Cannot read properties of undefined (reading 'x')",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("panic: runtime error: index out of range [5] with length 3\n",
                    "panic: runtime error: index out of range [5] with length 3",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("FAILED tests/test_x.py::test_add - assert 3 == 4", "FAILED "
                    "tests/test_x.py::test_add - assert 3 == 4",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("test result: FAILED. 0 passed; 1 failed", "test result: FAILED. 0 passed; 1 "
                    "failed",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("--- FAIL: TestParse (0.00s)", "--- FAIL: TestParse (0.00s)",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("make: *** [Makefile:3: all] Error 1", "make: *** [Makefile:3: all] Error 1",
                    WINNOW_PROTECT_ERROR_LINE);
  assert_protected ("==5214==ERROR: AddressSanitizer: SEGV on unknown address",
                    "==5214==ERROR: AddressSanitizer: SEGV on unknown address",
                    WINNOW_PROTECT_ERROR_LINE);
  /* compiler warnings count too, a capitalised "Warning:" in a sentence does not */
  assert_scan ("src/a.c:3:5: warning: unused variable 'y' [-Wunused-variable]\n"
               "Warning: it is slow.",
               "error-line[src/a.c:3:5: warning: unused variable 'y' [-Wunused-variable]]");
  assert_scan ("warning: unused import: `std::io`\n --> src/main.rs:1:5",
               "error-line[warning: unused import: `std::io`\n --> src/main.rs:1:5]");
  assert_protected ("CONFLICT (content): Merge conflict in src/x.c",
                    "CONFLICT (content): Merge conflict in src/x.c", WINNOW_PROTECT_ERROR_LINE);
  /* prose about errors is prose */
  assert_scan ("Error handling is better now. We fixed an error in the parser; errors: none.\n"
               "The Exception class is documented. I saw this error: it was the cache.", "");
  /* rust's panic message sits on the next line */
  assert_scan ("thread 'main' (5064) panicked at src/main.rs:2:5:\nindex out of bounds: the len "
               "is 3\nnote: run it again",
               "error-line[thread 'main' (5064) panicked at src/main.rs:2:5:\nindex out of "
               "bounds: the len is 3\n"
               "note: run it again]");
}

static void
test_stack_frame (void)
{
  /* Python: each frame with its source line and carets */
  assert_scan ("Traceback (most recent call last):\n"
               "  File \"/app/x.py\", line 3, in <module>\n"
               "    main()\n"
               "    ^^^^^^\n"
               "  File \"/app/x.py\", line 2, in main\n"
               "    raise ValueError(\"bad\")\n"
               "ValueError: bad",
               "error-line[Traceback (most recent call last):] "
               "stack-frame[  File \"/app/x.py\", line 3, in <module>\n"
               "    main()\n"
               "    ^^^^^^\n"
               "  File \"/app/x.py\", line 2, in main\n"
               "    raise ValueError(\"bad\")] "
               "error-line[ValueError: bad]");
  /* Node */
  assert_scan ("TypeError: x is undefined\n"
               "    at parseUser (/app/src/user.js:8:31)\n"
               "    at /app/src/crash.js:5:29\n"
               "    at Array.map (<anonymous>)\n"
               "    at async main (node:internal/main:9:15)\n"
               "\nNode.js v20.20.2",
               "error-line[TypeError: x is undefined] "
               "stack-frame[    at parseUser (/app/src/user.js:8:31)\n"
               "    at /app/src/crash.js:5:29\n"
               "    at Array.map (<anonymous>)\n"
               "    at async main (node:internal/main:9:15)] "
               "path[Node.js] version[v20.20.2]");
  /* Java */
  assert_scan ("Exception in thread \"main\" java.lang.IllegalStateException: boom\n"
               "\tat com.example.Main.run(Main.java:10)\n"
               "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native "
               "Method)\n"
               "Caused by: java.lang.NullPointerException\n"
               "\t... 2 more",
               "error-line[Exception in thread \"main\" java.lang.IllegalStateException: boom] "
               "stack-frame[\tat com.example.Main.run(Main.java:10)\n"
               "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native "
               "Method)] "
               "error-line[Caused by: java.lang.NullPointerException] "
               "stack-frame[\t... 2 more]");
  /* Go */
  assert_scan ("goroutine 1 [running]:\n"
               "main.(*store).price(...)\n"
               "\t/app/cmd/main.go:15\n"
               "main.main()\n"
               "\t/app/cmd/main.go:21 +0x1f5\n"
               "exit status 2",
               "stack-frame[goroutine 1 [running]:\n"
               "main.(*store).price(...)\n"
               "\t/app/cmd/main.go:15\n"
               "main.main()\n"
               "\t/app/cmd/main.go:21 +0x1f5] number[2]");
  /* Rust */
  assert_scan ("stack backtrace:\n"
               "   0: __rustc::rust_begin_unwind\n"
               "             at /rustc/library/std/src/panicking.rs:689:5\n"
               "   1: overflow::main\n"
               "             at ./src/bin/overflow.rs:8:27",
               "stack-frame[stack backtrace:\n"
               "   0: __rustc::rust_begin_unwind\n"
               "             at /rustc/library/std/src/panicking.rs:689:5\n"
               "   1: overflow::main\n"
               "             at ./src/bin/overflow.rs:8:27]");
  /* gdb and AddressSanitizer */
  assert_scan ("(gdb) bt\n"
               "#0  __strlen_evex () at ../sysdeps/x86_64/multiarch/strlen-evex.S:79\n"
               "#1  0x0000555555555165 in path_length (cfg=0x7fffffffea30) at src/crash.c:11",
               "command[(gdb) bt] "
               "stack-frame[#0  __strlen_evex () at ../sysdeps/x86_64/multiarch/strlen-evex.S:79\n"
               "#1  0x0000555555555165 in path_length (cfg=0x7fffffffea30) at src/crash.c:11]");
  assert_scan ("    #0 0x55a2b081127f in path_length /app/src/crash.c:11:12\n",
               "indented-code[    #0 0x55a2b081127f in path_length /app/src/crash.c:11:12]");
  assert_scan ("READ of size 4\n    #0 0x55a2b081127f in path_length /app/src/crash.c:11:12\n",
               "number[4] "
               "stack-frame[    #0 0x55a2b081127f in path_length /app/src/crash.c:11:12]");
  /* "at" in a sentence is no frame */
  assert_scan ("at least one test fails (see below)", "");
}

static void
test_command (void)
{
  assert_scan ("$ npm test\n> cargo build --release\n> This is a quote.",
               "command[$ npm test\n> cargo build --release]");
  assert_scan ("dev@box:~/src/winnow$ ./dev test\nok", "command[dev@box:~/src/winnow$ ./dev test]");
  assert_scan ("$ ./configure \\\n    --prefix=/usr\ndone", "command[$ ./configure \\\n    "
               "--prefix=/usr]");
  assert_scan ("The price is $ 5.", "number[5]");

  /* commands inside sentences */
  assert_scan ("Then run npm install --save-dev vitest to add it.",
               "command[npm install --save-dev vitest]");
  assert_scan ("I ran git push origin main, then sudo apt install jq.",
               "command[git push origin main] command[sudo apt install jq]");
  assert_scan ("Try make -j4 && make test next.", "command[make -j4 && make test]");
  assert_scan ("Use cat README.md first.", "command[cat README.md]");
  assert_scan ("git commit -m \"fix the parser\" works", "command[git commit -m \"fix the "
               "parser\"]");
  assert_scan ("then run pytest.", "command[pytest]");
  /* English words that are also tools */
  assert_scan ("Make sure to find the bug and go to the settings.", "");
  assert_scan ("The cat sat on the mat; head of the team said node modules are big.", "");
  assert_scan ("git is great", "");
  assert_scan ("The bundle size grew and the composer wrote yarn balls.", "");
  assert_scan ("Then yarn build and pnpm dev, or bun install.",
               "command[yarn build] command[pnpm dev] command[bun install]");

  /* a heredoc is a file's text: protected from the line that opens it to its delimiter */
  assert_scan ("Add this:\n cat >> /etc/inetd.conf <<EOF\ngit stream tcp4 nowait nobody\n"
               "git stream tcp6 nowait nobody\nEOF\nThen restart.",
               "command[ cat >> /etc/inetd.conf <<EOF\ngit stream tcp4 nowait nobody\n"
               "git stream tcp6 nowait nobody\nEOF]");
  assert_scan ("kubectl apply -f - <<'YAML' | tee out\nkind: Pod\nname: the web one\n  YAML\n",
               "command[kubectl apply -f - <<'YAML' | tee out\nkind: Pod\nname: the web one\n  YAML]");
  assert_scan ("cat <<-\"END\" > notes.txt\n\tplease read the notes\n\tEND",
               "command[cat <<-\"END\" > notes.txt\n\tplease read the notes\n\tEND]");
  /* not one: no delimiter line, a here-string, a shift */
  assert_scan ("x << EOF is what you type\nand the rest is prose", "");
  assert_scan ("read a <<< \"hello world\"\nhello world", "");
  assert_scan ("the mask is 1 << bits\nso shift it", "number[1]");
}

/* Code pasted without a fence: a run of lines that read as a program. */
static void
test_unfenced_code (void)
{
  const char *python =
    "def main():\n"
    "    prog = 'python -m json.tool'\n"
    "    description = ('A simple command line interface for json module '\n"
    "                   'to validate and pretty-print JSON objects.')\n"
    "    parser = argparse.ArgumentParser(prog=prog, description=description)\n"
    "    parser.add_argument('--sort-keys', action='store_true', default=False,\n"
    "                        help='sort the output of dictionaries alphabetically by key')\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()";
  const char *c =
    "static int\n"
    "count_lines (const char *text)\n"
    "{\n"
    "  int n = 0;\n"
    "  /* every newline ends a line */\n"
    "  for (; *text; text++)\n"
    "    n += *text == '\\n';\n"
    "  return n;\n"
    "}";
  g_autofree char *python_span = g_strdup_printf ("code[%s]", python);
  g_autofree char *c_span = g_strdup_printf ("code[%s]", c + strlen ("static int\n"));
  g_autofree char *between = g_strdup_printf ("Here is the file:\n\n%s\n\nIt prints the result.",
                                              python);

  assert_scan (python, python_span);
  assert_scan (c, c_span);
  assert_scan (between, python_span);

  /* a shell script: its variables and block words, and a message in quotes over lines */
  assert_scan ("#!/bin/sh\nset -e\nfor f in a b c; do\n  make -C \"$f\"\ndone\n"
               "if [ -z \"$CI\" ]; then\n  echo \"This needs the CI.\n  Please run it there.\"\n"
               "  exit 1\nfi",
               "code[#!/bin/sh\nset -e\nfor f in a b c; do\n  make -C \"$f\"\ndone\n"
               "if [ -z \"$CI\" ]; then\n  echo \"This needs the CI.\n  Please run it there.\"\n"
               "  exit 1\nfi]");
  /* a quote character in single quotes opens no string */
  assert_scan ("def quote(x):\n    q = '\"'\n    \"\"\"Wrap x in the quote.\n\n"
               "    It is the usual one, as the docs say.\n    \"\"\"\n    return q + x + q",
               "code[def quote(x):\n    q = '\"'\n    \"\"\"Wrap x in the quote.\n\n"
               "    It is the usual one, as the docs say.\n    \"\"\"\n    return q + x + q]");

  /* text justified with runs of spaces and tabs, as a man page prints it, is words; a
   * comment after code is code */
  assert_scan ("DESCRIPTION\n       The  parser  reads  the  whole  file\tbefore it starts, and the\n"
               "       result  is  kept  in  memory   until the process  exits again.\n"
               "       Nothing   else   is   written   while   the  file  is  open.",
               "");
  assert_scan ("  double max_error,        // the largest error per pixel\n"
               "  unsigned char *out,       // where the result goes\n"
               "  unsigned int out_size);   // its size in bytes",
               "code[  double max_error,        // the largest error per pixel\n"
               "  unsigned char *out,       // where the result goes\n"
               "  unsigned int out_size);   // its size in bytes]");
  /* a stretch of code and prose that does not hold as a whole: its longest start that holds
   * is a run */
  assert_scan ("open(a);\nread(a);\nclose(a);\nthe first\nthe second\nthe third\nflush(a);\n"
               "the fourth\nthe fifth\nthe sixth\nfree(a);",
               "code[open(a);\nread(a);\nclose(a);] identifier[flush(a)] identifier[free(a)]");

  /* a unified diff: from its header or first hunk to the last line of its hunks */
  assert_scan ("The patch:\ndiff --git a/README.md b/README.md\nindex 3f2a..9c1b 100644\n"
               "--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,3 @@\n This is the intro.\n"
               "-It is basically done.\n+It is done.\n\n the end of the file\nThat is all.",
               "code[diff --git a/README.md b/README.md\nindex 3f2a..9c1b 100644\n"
               "--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,3 @@\n This is the intro.\n"
               "-It is basically done.\n+It is done.\n\n the end of the file]");
  assert_scan ("@@ -10,2 +10,2 @@ intro\n-the old line\n+the new line\nNow it works.",
               "code[@@ -10,2 +10,2 @@ intro\n-the old line\n+the new line]");
  /* a tool's output pasted into a message: columns, build steps, time stamps, log levels */
  assert_scan ("It fails:\n[1/2] Generating app/check with a custom command\n"
               "10/60 winnow:engine / test-verify             OK               0.01s\n"
               "11/60 winnow:engine / test-trust              FAIL             0.02s\n"
               "Any idea?",
               "code[[1/2] Generating app/check with a custom command\n"
               "10/60 winnow:engine / test-verify             OK               0.01s\n"
               "11/60 winnow:engine / test-trust              FAIL             0.02s]");
  assert_scan ("12:04:31 INFO starting the worker\n12:04:32 WARN the queue is full\n"
               "[ERROR] the worker died",
               "code[12:04:31 INFO starting the worker\n12:04:32 WARN the queue is full\n"
               "[ERROR] the worker died]");
  /* dashes and pluses in prose are not a diff */
  assert_scan ("--- the summary ---\n+ one more thing\n- and a list item", "");

  /* a shell script's case block: `case … in`, its arms' patterns, functions called by name */
  assert_code_run ("case \"$command\" in\n    add)\n\twarn_on_script_usage\n\trequires_root\n"
                   "\tsetup_merged_keyring\n\tmerge_back_changes\n\taptkey_echo \"OK\"\n"
                   "        ;;\n"
                   "    del|rm|remove)\n\trequires_root\n        ;;\nesac");
  /* a usage message: a string opened on the line after code and closed lines later, a
   * heredoc inside a function */
  assert_code_run ("func_usage ()\n{\n  echo \"\\\nUsage: gettextize [OPTION]...\n\n"
                   "Prepares a source package to use gettext.\n\nOptions:\n"
                   "      --help           print this help and exit\n"
                   "  -f, --force          force writing of new files even if old exist\n\n"
                   "Report bugs in the bug tracker.\"\n}");
  assert_code_run ("show_usage()\n{\n  cat <<END\nUsage: $PROGNAME [<option>...] <pathname>\n\n"
                   "Options:\n"
                   "  -z, --zero                   end output line with NUL, not newline.\n"
                   "      --root <directory>       set the root directory.\nEND\n}");
  /* a quote after code that nothing closes does not take the prose after it */
  assert_scan ("export CC=gcc\nmake -C \"$dir\"\nrm -f \"$tmp\"\nThe \"fast path is what\n"
               "we want here.",
               "code[export CC=gcc\nmake -C \"$dir\"\nrm -f \"$tmp\"]");

  /* Python: the lines of a call or a condition over lines, whatever words they hold; a
   * docstring opened as r\"\"\"; a string's pieces on lines of their own */
  assert_code_run ("func_profile = FunctionProfile(\n"
                   "    ncalls,\n"
                   "    tottime, # time spent in this function alone\n"
                   "    percall_tottime,\n"
                   "    cumtime, # time spent in the function plus all functions\n"
                   "    percall_cumtime,\n"
                   "    file_name,\n"
                   "    line_number\n"
                   ")\n"
                   "if (\n"
                   "        Flag is not None\n"
                   "        and the_member is not the_other\n"
                   "    ):\n"
                   "    raise TypeError('no')");
  assert_code_run ("class Differ:\n    r\"\"\"\n"
                   "    Differ is a class for comparing sequences of lines\n"
                   "    of text, and producing human-readable differences.\n    \"\"\"\n\n"
                   "    def __init__(self):\n        self.a = 1");
  assert_code_run ("def __init__(self, option, section, rawval):\n"
                   "    msg = (\"Recursion limit exceeded: option {!r} \"\n"
                   "           \"in section {!r} contains an interpolation key which \"\n"
                   "           \"cannot be substituted in {} steps. Raw value: {!r}\"\n"
                   "           \"\".format(option, section, MAX_INTERPOLATION_DEPTH,\n"
                   "                     rawval))\n"
                   "    self.args = (option, section, rawval)");

  /* a minified script is code, on its one line; so are a string's pieces on lines of their
   * own inside a run */
  {
    g_autoptr(GString) minified = g_string_new ("Here it is: ");
    g_autofree char *expected = NULL;

    while (minified->len < 600)
      g_string_append (minified, "if(a.the){b=c(\"<a id='x'>\")};d.toLowerCase();");
    expected = g_strdup_printf ("code[%s]", minified->str);
    assert_scan (minified->str, expected);
  }
  assert_code_run ("const message = \"the first part of \" +\n"
                   "    \"the message is here, as \" +\n"
                   "    \"the rest of it \" +\n"
                   "    \"is at the end\";");

  /* a `--help` table: options and their descriptions, wrapped ones too (ls lost the dot in
   * "starting with ."); the sentences around it are prose */
  {
    const char *table =
      "  -a, --all                  do not ignore entries starting with .\n"
      "  -A, --almost-all           do not list implied . and ..\n"
      "      --color[=WHEN]         color the output WHEN; more info below\n"
      "  -H, --dereference-command-line\n"
      "                             follow symbolic links listed on the command line\n"
      "  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN\n"
      "                             (overridden by -a or -A), and the entries that\n"
      "                             a pattern of the default list matches, as the\n"
      "                             manual says; see below\n"
      "  -l                         use a long listing format";
    g_autofree char *help = g_strdup_printf ("Usage: ls [OPTION]... [FILE]...\n"
                                             "List information about the FILEs (the current "
                                             "directory by default).\n\n%s\n\n"
                                             "Exit status is 0 if OK.", table);
    g_autofree char *expected = g_strdup_printf ("command[ls [OPTION]... [FILE]...] code[%s] "
                                                 "number[0]", table);

    assert_scan (help, expected);
  }
  assert_code_run ("   clone     Clone a repository into a new directory\n"
                   "   init      Create an empty Git repository or reinitialize an existing one\n"
                   "   add       Add file contents to the index");

  /* paragraphs of sentences that mention code, each on one line (as hard-wrapped ones are
   * joined): prose */
  assert_scan ("Shell lines read as code by their variables ($f, ${x}), block words and ends. "
               "The loop had lost its word to the rule.\n"
               "Inside a run, a string that goes on over lines counts as code. So ' + ' is an "
               "operator now, and $HOME a variable.\n"
               "The figures for the scripts went down from 755 to 14 lines. That is ($x) all "
               "we measured today.",
               "identifier[$f] identifier[${x}] identifier[$HOME] number[755] number[14] "
               "identifier[$x]");

  /* prose that mentions code now and then, a list, inline code: prose */
  assert_scan ("The parser now calls flush() before close(), so the buffer is\n"
               "written out first. If you set retries = 3 it tries three times;\n"
               "the default is one, which is what most people want here.",
               "identifier[flush()] identifier[close()] number[3]");
  assert_scan ("- call init() first\n- then run() the loop\n- finally stop() it;",
               "identifier[init()] identifier[run()] identifier[stop()]");
  assert_scan ("1. Set timeout = 30 in the file;\n2. Set retries = 3 as well;\n"
               "3. Run the tests again;",
               "number[1] number[30] number[2] number[3] number[3]");
  assert_scan ("**Option 1 (recommended): make the struct own its data.**\n"
               "Then `load_config` can return a `Result`, and it compiles:\n"
               "it owns the string.",
               "number[1] inline-code[`load_config`] inline-code[`Result`]");
}

static void
test_branch (void)
{
  assert_scan ("Merge feature/token-receipts into main.",
               "branch[feature/token-receipts] branch[main]");
  assert_scan ("fix/compression-ids was pushed to master", "branch[fix/compression-ids] "
               "branch[master]");
  assert_scan ("Compare origin/main with the main branch.", "branch[origin/main] branch[main]");
  assert_scan ("The main thread is the main problem.", "");
}

/* ---- inline tokens ----------------------------------------------------------------------- */

static void
test_url (void)
{
  assert_scan ("See https://en.wikipedia.org/wiki/Foo_(bar).",
               "url[https://en.wikipedia.org/wiki/Foo_(bar)]");
  assert_scan ("(see https://x.test/a) and [docs](https://x.test/d?a=1&b=2).",
               "url[https://x.test/a] url[https://x.test/d?a=1&b=2]");
  assert_scan ("PR: https://github.com/acme/widget/pull/42#issuecomment-1, merged.",
               "url[https://github.com/acme/widget/pull/42#issuecomment-1]");
  assert_scan ("<https://x.test/path>", "url[https://x.test/path]");
  assert_scan ("Go to www.example.com/a. Or mailto:bob@example.com!",
               "url[www.example.com/a] url[mailto:bob@example.com]");
  assert_scan ("Clone git@github.com:acme/widget.git or github.com/acme/widget/pull/7.",
               "url[git@github.com:acme/widget.git] url[github.com/acme/widget/pull/7]");
  assert_scan ("**https://x.test/b**", "url[https://x.test/b]");
  assert_scan ("file:///tmp/x.txt", "url[file:///tmp/x.txt]");
  /* not URLs */
  assert_scan ("Say http: or https:// alone, www or a 3:1 ratio.", "");
  /* a URL never swallows CJK text after it */
  assert_scan ("詳細はhttps://x.test/aを参照", "url[https://x.test/a]");
}

static void
test_email (void)
{
  assert_scan ("Mail bob.smith+ci@example.co.uk.", "email[bob.smith+ci@example.co.uk]");
  assert_scan ("Ask @alice about react@18.2.0 and a@b.", "identifier[@alice] "
               "identifier[react@18.2.0]");
}

static void
test_path (void)
{
  assert_scan ("Edit /etc/hosts, ./x, ../x and ~/src.",
               "path[/etc/hosts] path[./x] path[../x] path[~/src]");
  assert_scan ("See a/b/c.ts, src/engine and tests/.", "path[a/b/c.ts] path[src/engine] "
               "path[tests/]");
  assert_scan ("On Windows: C:\\repo\\file.c and \\\\server\\share.", "path[C:\\repo\\file.c] "
               "path[\\\\server\\share]");
  assert_scan ("at src/x.ts:12:5 and a.ts(3,5) and x.rs#L10", "path[src/x.ts:12:5] "
               "path[a.ts(3,5)] path[x.rs#L10]");
  assert_scan ("Open README.md, .env and Makefile.", "path[README.md] path[.env] path[Makefile]");
  assert_scan ("Glob **/*.test.ts please", "path[**/*.test.ts]");
  /* prose */
  assert_scan ("Use and/or, TCP/IP, I/O or w/o it. It ends here.", "");
  assert_scan ("e.g. this, i.e. that, etc. and Ph.D. work", "");
}

static void
test_version_date_number (void)
{
  assert_scan ("v1.2.3 22.1.0-rc.1 ^1.2 ~1.2.3 >=3.8 1.x 2.0.0+build.5",
               "version[v1.2.3] version[22.1.0-rc.1] version[^1.2] version[~1.2.3] version[>=3.8] "
               "version[1.x] version[2.0.0+build.5]");
  assert_scan ("Requires python>=3.8,<4.", "version[>=3.8] version[<4]");
  assert_scan ("2026-04-18, 2026-04-18T09:00, 2026-04-18T09:00:12.5Z, 09:00:12, 18.04.2026, "
               "04/18/2026",
               "date[2026-04-18] date[2026-04-18T09:00] date[2026-04-18T09:00:12.5Z] "
               "date[09:00:12] "
               "date[18.04.2026] date[04/18/2026]");
  assert_scan ("At 2026-04-18 09:00:12 +0200 it broke.", "date[2026-04-18 09:00:12 +0200]");
  assert_scan ("Sat, 18 Apr 2026 09:00:00 GMT; April 18, 2026; 18 April 2026; Date:   Sat Apr 18 "
               "09:00:12 2026 +0200",
               "date[Sat, 18 Apr 2026 09:00:00 GMT] date[April 18, 2026] date[18 April 2026] "
               "date[Sat Apr 18 09:00:12 2026 +0200]");
  assert_scan ("May I ask? In March we shipped.", "");
  assert_scan ("401, 3.14, 1,000, 0x1F, 10ms, 5MB, 85%, -3, 1e-5, 2x, $5, 1-3, 1/2, ~5 s.",
               "number[401] number[3.14] number[1,000] number[0x1F] number[10ms] number[5MB] "
               "number[85%] number[-3] number[1e-5] number[2x] number[$5] number[1-3] number[1/2] "
               "number[~5]");
}

static void
test_identifier (void)
{
  assert_scan ("snake_case camelCase PascalCase HttpClient GObject CONST_CASE __init__ _private",
               "identifier[snake_case] identifier[camelCase] identifier[PascalCase] "
               "identifier[HttpClient] identifier[GObject] identifier[CONST_CASE] "
               "identifier[__init__] identifier[_private]");
  assert_scan ("kebab-case vue-router x86-64 ABC-123 CVE-2024-1234 UTF-8 S3 TS2322 md5",
               "identifier[kebab-case] identifier[vue-router] identifier[x86-64] "
               "identifier[ABC-123] "
               "identifier[CVE-2024-1234] identifier[UTF-8] identifier[S3] identifier[TS2322] "
               "identifier[md5]");
  assert_scan ("os.path.join self.cache std::vec::Vec foo() obj.run() Vec<String>",
               "identifier[os.path.join] identifier[self.cache] identifier[std::vec::Vec] "
               "identifier[foo()] identifier[obj.run()] identifier[Vec<String>]");
  assert_scan ("Call parse(text, len) then free.", "identifier[parse(text, len)]");
  assert_scan ("$VAR ${HOME} %APPDATA% --save-dev --out=dist -x -Wall #123 @scope/pkg "
               "NODE_ENV=test",
               "identifier[$VAR] identifier[${HOME}] identifier[%APPDATA%] identifier[--save-dev] "
               "identifier[--out=dist] identifier[-x] identifier[-Wall] identifier[#123] "
               "identifier[@scope/pkg] identifier[NODE_ENV=test]");
  assert_scan ("commit 3f2a9c1 and deadbeef42", "identifier[3f2a9c1] identifier[deadbeef42]");
  /* prose */
  assert_scan ("I think Hello is OK. The API and URLs work; FYI IMHO TL;DR.", "");
  assert_scan ("A well-known, up-to-date, built-in, third-party, read-only, real-time tool.", "");
  assert_scan ("Anak-anak, Jean-Pierre, E-Mail, file(s).", "");
  /* other languages' hyphenated words: reduplication with an affix, verbs with pronouns */
  assert_scan ("langkah-langkahnya bersama-sama berlari-lari masing-masing", "");
  assert_scan ("log-nya file-nya coba-lah apa-kah, ci-dessous, bem-vinda", "");
  assert_scan ("Thanks for the heads-up, sorry for the mix-up; a hands-on, brand-new, "
               "nice-to-have trial-and-error write-up.", "");
  assert_scan ("lembre-se, certifique-se, permettez-moi, dites-le-moi, celui-ci, rassurez-vous",
               "");
  /* …but names that merely look like them stay names */
  assert_scan ("build-builder pt-se zh-en cache-on node-la-la-la nya-lib log-nya-x",
               "identifier[build-builder] identifier[pt-se] identifier[zh-en] "
               "identifier[cache-on] identifier[node-la-la-la] identifier[nya-lib] "
               "identifier[log-nya-x]");
  assert_scan ("*important* _really_ **bold**", "");
  assert_scan ("<details>\n<summary>Logs</summary>\n<br/> text\n</details>", "");
}

/* ---- prose ------------------------------------------------------------------------------- */

static void
test_prose_languages (void)
{
  static const char * const prose[] = {
    "I think we should probably just make sure the tests pass before we merge. Basically, the "
    "cache is fine and nothing else needs to change.",
    "Eu acho que o problema está no arquivo de configuração. Não é possível compilar agora, "
    "mas "
    "vou tentar de novo amanhã.",
    "Ich glaube, das Problem liegt in der Konfigurationsdatei. Die E-Mail-Adresse ist falsch. "
    "Bitte prüfen Sie die Übersicht.",
    "Je pense que le problème vient du fichier de configuration. C'est peut-être à cause du "
    "cache. "
    "Le contenu du fichier est vide.",
    "Creo que el problema está en el archivo de configuración. ¿Puedes revisarlo, por favor?",
    "Saya pikir masalahnya ada di berkas konfigurasi. Anak-anak sedang belajar. Kira-kira jam "
    "berapa?",
    "設定ファイルに問題があると思います。もう一度確認してください。",
    "我认为问题出在配置文件中。请再检查一下。",
    "Mr. Smith went to Washington, D.C. on Monday. He said: \"Go ahead and find the bug.\"",
    "Note: this is important. Tip: use the cache. Summary: everything works now.",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prose); i++)
    assert_scan (prose[i], "");

  /* tokens inside text without spaces */
  assert_scan ("src/main.rsを開いてください。テストが3件失敗しました。", "path[src/main.rs] number[3]");
}

/* Realistic agent messages: the invariants hold, what matters is protected, prose stays prose. */
static void
test_agent_messages (void)
{
  static const struct
  {
    const char *text;
    const char *protected_tokens[6];
    const char *prose_words[4];
  } messages[] = {
    {
      "I looked into the failing build. The problem is in `engine/winnow-rtk.c`: the cut at line "
      "212 ignores the marker. I changed it and ran ./dev test again; 317 passed.\n\n"
      "```c\nif (line->flags & LINE_MARKER)\n  continue;\n```\n\nShould I also update "
      "docs/STYLE.md?",
      { "`engine/winnow-rtk.c`", "./dev test", "317", "```c\nif (line->flags & LINE_MARKER)\n  "
        "continue;\n```",
        "docs/STYLE.md", NULL },
      { "I looked into the failing build", "Should I also update", NULL },
    },
    {
      "Sure! Here's what happened:\n\n1. `npm ci` failed with EACCES on /usr/lib/node_modules.\n"
      "2. I re-ran it with --prefix ~/.npm-global and it worked.\n3. Vitest 2.1.9 now reports "
      "5 failures in test-vitest/math.test.js.\n\nSee https://vitest.dev/guide/ (the guide) for "
      "details.",
      { "`npm ci`", "/usr/lib/node_modules", "--prefix", "~/.npm-global", "2.1.9",
        "test-vitest/math.test.js" },
      { "Here's what happened", "and it worked", NULL },
    },
    {
      "The traceback says:\n\nTraceback (most recent call last):\n  File \"app.py\", line 9, in "
      "<module>\n    run()\nKeyError: 'port'\n\nSo the config lacks a port. I'd add `port: 8080` "
      "to config.yaml and retry.",
      { "Traceback (most recent call last):", "KeyError: 'port'", "`port: 8080`", "config.yaml",
        NULL },
      { "So the config lacks a port", NULL },
    },
    {
      "Erledigt: Ich habe den Branch feature/protect-scan erstellt und mit git push -u origin "
      "feature/protect-scan hochgeladen. Die Tests laufen (v0.1.0, 2026-04-18).",
      { "feature/protect-scan", "git push -u origin feature/protect-scan", "v0.1.0", "2026-04-18",
        NULL },
      { "Ich habe den Branch", "Die Tests laufen", NULL },
    },
    {
      "| file | lines |\n|---|---|\n| a.c | 10 |\n\nO arquivo a.c tem 10 linhas. Rode make "
      "check para validar; o resultado fica em _build/meson-logs/testlog.txt.",
      { "| file | lines |\n|---|---|\n| a.c | 10 |", "make check", "_build/meson-logs/testlog.txt",
        NULL },
      { "O arquivo", "para validar", NULL },
    },
  };

  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    {
      const char *text = messages[i].text;
      g_autoptr(GArray) spans = winnow_protect_scan (text, -1);

      check_invariants (text, strlen (text), spans);
      for (guint k = 0; k < G_N_ELEMENTS (messages[i].protected_tokens); k++)
        {
          const char *token = messages[i].protected_tokens[k];
          gboolean covered = FALSE;
          gsize start, end;

          if (token == NULL)
            break;
          g_assert_nonnull (strstr (text, token));
          start = strstr (text, token) - text;
          end = start + strlen (token);
          for (guint s = 0; s < spans->len; s++)
            {
              const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, s);

              if (span->start <= start && span->end >= end)
                covered = TRUE;
            }
          if (!covered)
            {
              g_autofree char *all = describe (text);

              g_error ("message %u: “%s” is not protected; spans: %s", i, token, all);
            }
        }
      for (guint k = 0; k < G_N_ELEMENTS (messages[i].prose_words); k++)
        if (messages[i].prose_words[k] != NULL)
          assert_prose (text, messages[i].prose_words[k]);
    }
}

/* ---- robustness -------------------------------------------------------------------------- */

static void
test_empty (void)
{
  g_autoptr(GArray) a = winnow_protect_scan ("", -1);
  g_autoptr(GArray) b = winnow_protect_scan (NULL, 0);
  g_autoptr(GArray) c = winnow_protect_scan ("\n\n  \n", -1);

  g_assert_cmpuint (a->len, ==, 0);
  g_assert_cmpuint (b->len, ==, 0);
  g_assert_cmpuint (c->len, ==, 0);
  /* an explicit length stops the scan, NUL bytes included */
  {
    g_autoptr(GArray) d = winnow_protect_scan ("v1.2.3 tail", 6);
    g_autoptr(GArray) e = winnow_protect_scan ("a\0/etc/hosts", 12);

    g_assert_cmpuint (d->len, ==, 1);
    g_assert_cmpuint (g_array_index (d, WinnowProtectSpan, 0).end, ==, 6);
    g_assert_cmpuint (e->len, ==, 1);
    g_assert_cmpuint (g_array_index (e, WinnowProtectSpan, 0).start, ==, 2);
  }
}

static void
test_invalid_utf8 (void)
{
  /* invalid bytes are prose: they end tokens and never sit inside an inline span */
  assert_scan ("see\xffsrc/main.c\xfe and v1.2\xc3", "path[src/main.c] version[v1.2]");
  assert_scan ("\xe2\x82 https://x.test/a\x80" "b", "url[https://x.test/a]");
  /* a block keeps its lines' bytes as they are */
  assert_scan ("```\n\xff\xfe\n```", "fence[```\n\xff\xfe\n```]");

  /* random bytes, and random bytes sprinkled into real text */
  {
    g_autoptr(GRand) rand = g_rand_new_with_seed (20260418);
    g_autoptr(GByteArray) noise = g_byte_array_new ();

    for (guint i = 0; i < 1 << 20; i++)
      {
        guint8 b = (guint8) g_rand_int_range (rand, 0, 256);

        /* keep some structure: lines, spaces, backticks, fences */
        if (i % 61 == 0)
          b = '\n';
        else if (i % 7 == 0)
          b = ' ';
        else if (i % 389 == 0)
          b = '`';
        g_byte_array_append (noise, &b, 1);
      }

    {
      g_autoptr(GArray) spans = winnow_protect_scan ((const char *) noise->data, noise->len);

      check_invariants ((const char *) noise->data, noise->len, spans);
    }
  }
}

/* Shapes that would make a careless scanner quadratic; each must stay fast. */
static void
test_pathological (void)
{
  static const char * const units[] = {
    "(((((((((( ", "a(b(c(d( ", "`` ` ``` ", "[\n", "{\n \"a\": [\n", "a = [\n", "[a]\n",
    "key: value\n", "- item\n", "```\n", "~~~~\n", "x = \"\"\"\n", "    code\n", "| a | b\n",
    "Error: x\n", "    at f (x.js:1:2)\n", "https://x.test/((((( ", "run make make make ",
    "2026-04-18 ", "Sat, 18 Apr ", "::::::: ", "..... ", "-- -- -- ", "@@@@ ", "\\\\\\\\ ",
    /* heredocs, XML, diffs and code runs that never close or never stop */
    "cat <<EOF\n", "a << b\n", "<x attr=\"1\">\n", "<?xml ?>\n<a>\n", "<a><a><a>\n",
    "diff --git a b\n", "@@ -1 +1 @@\n+x\n", "x = 1;\n", "def f():\n\"open\n", "/* open\n",
    "f(x) # \"\"\" '\n", "for f in a; do\n",
    /* strings opened after code, brackets and heredocs inside runs, minified lines */
    "x = 1;\necho \"\n", "f(\n", "f(a,\n  the b\n", "x = 1;\ncat <<END\n", "add)\n;;\n",
    "a_b\n", "    'piece' +\n", "{a(b);c=\"<d>\"}", "  -a, --all   the x\n", "  --long\n",
    "  -x    d\n             more\n", "a,b\n", "a\tb\n", "a,b\nc,d,e\n", "\"a,b\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(GArray) spans = NULL;
      gint64 start;
      double seconds;

      while (text->len < 2 * 1024 * 1024)
        g_string_append (text, units[i]);

      start = g_get_monotonic_time ();
      spans = winnow_protect_scan (text->str, text->len);
      seconds = (g_get_monotonic_time () - start) / 1e6;
      check_invariants (text->str, text->len, spans);
      g_test_message ("2 MB of “%s”: %.3f s, %u spans", units[i], seconds, spans->len);
      /* linear is well under a second, even with sanitizers; quadratic is hours */
      g_assert_cmpfloat (seconds, <, 10.0);
    }
}

static GPtrArray *
load_corpus (void)
{
  g_autofree char *dir_path = test_util_corpus_path ("samples");
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      char *contents;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL))
        g_ptr_array_add (samples, g_bytes_new_take (contents, length));
    }

  return samples;
}

/* Real tool output (tests/corpus): the invariants hold on every sample, colour codes and
 * carriage returns included. */
static void
test_corpus (void)
{
  g_autoptr(GPtrArray) samples = load_corpus ();

  g_assert_cmpuint (samples->len, >, 100);
  for (guint i = 0; i < samples->len; i++)
    {
      gsize length;
      const char *data = g_bytes_get_data (g_ptr_array_index (samples, i), &length);
      g_autoptr(GArray) spans = winnow_protect_scan (data, length);

      check_invariants (data, length, spans);
    }
}

static void
test_large_input (void)
{
  g_autoptr(GPtrArray) samples = load_corpus ();
  g_autoptr(GString) text = g_string_sized_new (51 * 1024 * 1024);
  g_autoptr(GArray) spans = NULL;
  static const char *prose =
    "I checked the logs and I think the problem is the cache. Run npm test after the fix, "
    "see https://x.test/issues/12 and `src/cache.ts` for details.\n\n";
  gint64 start;
  double seconds;

  while (text->len < 50 * 1024 * 1024)
    for (guint i = 0; i < samples->len && text->len < 50 * 1024 * 1024; i++)
      {
        gsize length;
        const char *data = g_bytes_get_data (g_ptr_array_index (samples, i), &length);

        g_string_append (text, prose);
        g_string_append_len (text, data, length);
      }

  start = g_get_monotonic_time ();
  spans = winnow_protect_scan (text->str, text->len);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("%.1f MB in %.2f s (%.0f MB/s), %u spans", text->len / 1e6, seconds,
                  text->len / 1e6 / seconds, spans->len);
  check_invariants (text->str, text->len, spans);
  g_assert_cmpuint (spans->len, >, 100000);
}

/* ---- the check --------------------------------------------------------------------------- */

static void
test_check (void)
{
  const char *original = "I think we should probably run `make check` before merging. The "
                         "failure is at src/x.c:12 (see https://x.test/b/7).";
  g_autoptr(GError) error = NULL;

  /* the original itself, and prose compressed around intact tokens */
  g_assert_true (winnow_protect_check (original, -1, original, -1, &error));
  g_assert_no_error (error);
  g_assert_true (winnow_protect_check (original, -1,
                                       "Run `make check` before merge. Failure at src/x.c:12 "
                                       "(https://x.test/b/7).", -1, &error));
  g_assert_no_error (error);

  /* a changed token */
  g_assert_false (winnow_protect_check (original, -1,
                                        "Run `make check` first. Failure at src/x.c:12 "
                                        "(https://x.test/b/8).", -1, &error));
  g_assert_error (error, WINNOW_PROTECT_ERROR, WINNOW_PROTECT_ERROR_TOKEN_LOST);
  g_assert_nonnull (strstr (error->message, "url"));
  {
    gsize at = strstr (original, "https://x.test/b/7") - original;
    g_autofree char *where = g_strdup_printf ("at byte %" G_GSIZE_FORMAT, at);

    g_assert_nonnull (strstr (error->message, where));
  }
  g_assert_nonnull (strstr (error->message, "https://x.test/b/7"));
  g_clear_error (&error);

  /* a missing token */
  g_assert_false (winnow_protect_check (original, -1, "Run make check. Failure at src/x.c:12.", -1,
                                        &error));
  g_assert_error (error, WINNOW_PROTECT_ERROR, WINNOW_PROTECT_ERROR_TOKEN_LOST);
  g_assert_nonnull (strstr (error->message, "inline-code"));
  g_assert_nonnull (strstr (error->message, "`make check`"));
  g_clear_error (&error);

  /* tokens out of order */
  g_assert_false (winnow_protect_check ("a v1.2.3 b 2026-04-18", -1, "2026-04-18 v1.2.3", -1,
                                        &error));
  g_assert_error (error, WINNOW_PROTECT_ERROR, WINNOW_PROTECT_ERROR_TOKEN_LOST);
  g_assert_nonnull (strstr (error->message, "date"));
  g_clear_error (&error);

  /* a block that started a line must still start one: a fence moved into a sentence no
   * longer opens a block; an inline token may move along its line */
  {
    const char *fenced = "Run the\n```\nmake\n```\nand read the\n# Notes\nin `a.c`.";

    g_assert_true (winnow_protect_check (fenced, -1, "Run\n```\nmake\n```\nread\n# Notes\n`a.c`.",
                                         -1, &error));
    g_assert_no_error (error);
    g_assert_false (winnow_protect_check (fenced, -1, "Run ```\nmake\n```\nread\n# Notes\nin `a.c`.",
                                          -1, &error));
    g_assert_error (error, WINNOW_PROTECT_ERROR, WINNOW_PROTECT_ERROR_TOKEN_LOST);
    g_assert_nonnull (strstr (error->message, "fence"));
    g_assert_nonnull (strstr (error->message, "no longer starts a line"));
    g_clear_error (&error);
    g_assert_false (winnow_protect_check (fenced, -1, "Run\n```\nmake\n```\nread # Notes\n`a.c`.",
                                          -1, &error));
    g_assert_nonnull (strstr (error->message, "heading"));
    g_clear_error (&error);
    /* a later copy at the start of a line will do */
    g_assert_true (winnow_protect_check ("# Notes", -1, "see # Notes\n# Notes", -1, NULL));
  }

  /* a token repeated in the original needs both copies */
  g_assert_false (winnow_protect_check ("v1 then v1", -1, "v1 then", -1, &error));
  g_clear_error (&error);
  g_assert_true (winnow_protect_check ("v1 then v1", -1, "v1 v1", -1, NULL));

  /* nothing protected: anything goes; NUL-terminated and sized strings agree */
  g_assert_true (winnow_protect_check ("just words here", -1, "", 0, NULL));
  g_assert_true (winnow_protect_check ("x 401 y", 7, "401\0garbage", 3, NULL));

  /* a long token is shortened in the message, which stays valid UTF-8 */
  {
    const char *code = "日本語のコード日本語のコード日本語のコード日本語のコード";
    g_autofree char *long_fence = g_strdup_printf ("```\n%s\n```", code);

    g_assert_false (winnow_protect_check (long_fence, -1, "gone", -1, &error));
    g_assert_true (g_utf8_validate (error->message, -1, NULL));
    g_assert_nonnull (strstr (error->message, "fence"));
    g_assert_nonnull (strstr (error->message, "…"));
    g_clear_error (&error);
  }
}

static void
test_kind_names (void)
{
  for (guint i = 0; i < WINNOW_PROTECT_N_KINDS; i++)
    {
      const char *name = winnow_protect_kind_to_string ((WinnowProtectKind) i);
      WinnowProtectKind kind;

      g_assert_cmpstr (name, !=, "unknown");
      g_assert_true (winnow_protect_kind_from_string (name, &kind));
      g_assert_cmpint (kind, ==, (int) i);
    }
  g_assert_cmpstr (winnow_protect_kind_to_string (WINNOW_PROTECT_INLINE_CODE), ==, "inline-code");
  g_assert_cmpstr (winnow_protect_kind_to_string (WINNOW_PROTECT_N_KINDS), ==, "unknown");
  {
    WinnowProtectKind kind = WINNOW_PROTECT_URL;

    g_assert_false (winnow_protect_kind_from_string ("prose", &kind));
    g_assert_false (winnow_protect_kind_from_string (NULL, &kind));
    g_assert_cmpint (kind, ==, WINNOW_PROTECT_URL);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/protect/fence", test_fence);
  g_test_add_func ("/winnow/protect/indented-code", test_indented_code);
  g_test_add_func ("/winnow/protect/inline-code", test_inline_code);
  g_test_add_func ("/winnow/protect/heading", test_heading);
  g_test_add_func ("/winnow/protect/table", test_table);
  g_test_add_func ("/winnow/protect/structured", test_structured);
  g_test_add_func ("/winnow/protect/error-line", test_error_line);
  g_test_add_func ("/winnow/protect/stack-frame", test_stack_frame);
  g_test_add_func ("/winnow/protect/command", test_command);
  g_test_add_func ("/winnow/protect/unfenced-code", test_unfenced_code);
  g_test_add_func ("/winnow/protect/branch", test_branch);
  g_test_add_func ("/winnow/protect/url", test_url);
  g_test_add_func ("/winnow/protect/email", test_email);
  g_test_add_func ("/winnow/protect/path", test_path);
  g_test_add_func ("/winnow/protect/version-date-number", test_version_date_number);
  g_test_add_func ("/winnow/protect/identifier", test_identifier);
  g_test_add_func ("/winnow/protect/prose-languages", test_prose_languages);
  g_test_add_func ("/winnow/protect/agent-messages", test_agent_messages);
  g_test_add_func ("/winnow/protect/empty", test_empty);
  g_test_add_func ("/winnow/protect/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/winnow/protect/pathological", test_pathological);
  g_test_add_func ("/winnow/protect/corpus", test_corpus);
  g_test_add_func ("/winnow/protect/large-input", test_large_input);
  g_test_add_func ("/winnow/protect/check", test_check);
  g_test_add_func ("/winnow/protect/kind-names", test_kind_names);

  return g_test_run ();
}
