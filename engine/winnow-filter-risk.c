/* winnow-filter-risk.c — what in a valid filter could hurt the person who trusts it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Validation says whether a filter *loads*; this says whether approving it is wise. A project
 * filter arrives with a repository, written by somebody else, and decides what an agent sees
 * of every command it runs there. Four shapes do real harm and are cheap to spot:
 *
 * - a drop, include or collapse pattern that matches nearly every line, so the filter throws
 *   (or folds) away nearly everything;
 * - a `match.commands` pattern so broad that the filter captures commands of unrelated tools;
 * - a drop pattern that removes error lines which the filter's own preserve patterns do not
 *   protect, so the failure the agent needed to see is gone;
 * - a regex that backtracks catastrophically.
 *
 * Each is judged by running the pattern, not by reading it: on a fixed table of ordinary
 * output lines taken from tests/corpus/samples (the filter's own test inputs too), on a
 * table of common commands from many tool families, on typical error lines, and on hostile
 * probes under the regex engine's work budget. A structural reading alone (say, "a group
 * with a quantifier inside a quantified group") would flag sound patterns such as git's
 * `(?:-c\s+\S+\s+)*`, whose branches cannot overlap; running it says what actually happens.
 * The structure is only used to aim extra probes at the nested group.
 *
 * The tables are static rather than read from the corpus at run time: the engine library
 * ships without the test corpus, and the answer must not change when the corpus grows.
 */

#define G_LOG_DOMAIN "winnow-filter-risk"

#include "config.h"

#include <string.h>

#include "winnow-diagnostic.h"
#include "winnow-filter.h"
#include "winnow-filter-risk.h"
#include "winnow-regex.h"

/* "almost every line" */
#define BROAD_RATIO 0.9
/* Own test inputs shorter than this say too little about a pattern to judge it. */
#define MIN_OWN_LINES 10
/* A command pattern may cover one tool family and its close relatives, not more. */
#define MAX_FAMILIES 2

/* Ordinary output lines, one or two of each kind, from tests/corpus/samples: test runners,
 * compilers and build tools, git, package managers, shell tools, containers, network. */
static const char * const typical_lines[] = {
  /* pytest */
  "============================= test session starts ==============================",
  "platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack -- /usr/bin/python3",
  "tests/test_core.py::InventoryTest::test_find_by_tag PASSED               [  9%]",
  "tests/test_core.py::InventoryTest::test_names_sorted FAILED              [ 14%]",
  "========================= 3 failed, 18 passed in 0.12s =========================",
  /* jest, vitest, mocha, node */
  "PASS test-jest/cart.test.js",
  "  ● Cart › total takes quantity into account",
  "    expect(received).toBe(expected) // Object.is equality",
  " ✓ src/cart.test.ts (4 tests) 3ms",
  "Tests:       1 failed, 5 passed, 6 total",
  "  3 passing (12ms)",
  /* cargo, go */
  "   Compiling winnow-rust-app v0.1.0 (/work/main/tests/corpus/projects/rust-app)",
  "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.49s",
  "test tests::parses_valid_line ... ok",
  "test result: FAILED. 4 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out",
  "--- FAIL: TestNames (0.00s)",
  "    inventory_test.go:41: Names() mismatch",
  "ok  \texample.com/inventory\t0.004s",
  /* C compilers, make, ninja, meson, cmake */
  "cc -Wall -Wextra -g -Iinclude -c src/main.c -o build/main.o",
  "src/main.c: In function ‘main’:",
  "src/main.c:18:35: warning: passing argument 3 of ‘inventory_add’ makes integer from pointer",
  "   18 |     inventory_add(&inv, \"gadget\", \"7\", 10.0);",
  "      |                                   ^~~",
  "make: *** [Makefile:12: build/main.o] Error 1",
  "ninja: Entering directory `/work/main/tests/corpus/projects/meson-app/builddir'",
  "[2/8] Compiling C object libstats.a.p/src_stats.c.o",
  "[ 94%] Building C object CMakeFiles/big.dir/gen/mod_399.c.o",
  "-- Configuring done",
  /* TypeScript, eslint, vite */
  "ts/src/service.ts(5,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  "  12:7  warning  'unused' is assigned a value but never used  no-unused-vars",
  "✓ 31 modules transformed.",
  "dist/assets/index-4f2a9c1e.js   142.61 kB │ gzip: 45.80 kB",
  /* git */
  "On branch main",
  "Your branch is up to date with 'origin/main'.",
  "Changes not staged for commit:",
  "\tmodified:   src/config.py",
  "commit 8ef4fde356ae1e2de9f86de2b82df0484c08d525",
  "Author: Ada Lovelace <ada@example.com>",
  "Date:   Wed Nov 15 19:13:20 2023 +0100",
  "    Update changelog (12)",
  "diff --git a/README.md b/README.md",
  "index c4b4471..16f28e0 100644",
  "@@ -5,3 +5,7 @@ Keeps track of stock levels.",
  "+    python -m inventory serve --port 8000",
  "-Keeps track of stock.",
  " 3 files changed, 12 insertions(+), 4 deletions(-)",
  "* main",
  "  feature/export",
  "To github.com:example/inventory.git",
  /* npm, pip, apt */
  "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
  "added 403 packages in 9s",
  "found 0 vulnerabilities",
  "Collecting requests==2.31.0",
  "Successfully installed requests-2.31.0 urllib3-2.0.7",
  "argcomplete                        2.0.0",
  "Reading package lists... Done",
  "Get:1 http://deb.debian.org/debian bookworm/main amd64 libc6 amd64 2.36-9 [2,754 kB]",
  /* shell tools */
  "total 24",
  "drwxr-xr-x  5 root root 4096 Nov 23 07:59 .",
  "-rw-r--r--  1 root root  477 Nov 23 07:42 Makefile",
  "./src/inventory/core.py",
  "src/inventory/core.py:42:    def names(self):",
  "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND",
  "root           3  2.9  0.0  25716 18608 ?        S    08:00   0:00 python3 -m http.server",
  "Filesystem      Size  Used Avail Use% Mounted on",
  "overlay          59G   41G   16G  73% /",
  "4.0K\t./include",
  "├── src",
  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
  /* containers */
  "CONTAINER ID   IMAGE          COMMAND                  CREATED        STATUS        PORTS",
  "3f2c1a9b8d7e   nginx:1.25     \"/docker-entrypoint.…\"   2 hours ago    Up 2 hours    80/tcp",
  "NAME                     READY   STATUS    RESTARTS   AGE",
  "web-6d4cf56db6-8xk2p     1/1     Running   0          3d",
  /* network */
  "* Connected to 127.0.0.1 (127.0.0.1) port 8765 (#0)",
  "> GET / HTTP/1.1",
  "< HTTP/1.1 200 OK",
  "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current",
  "sending incremental file list",
  "2023-11-15 19:13:20 (1.21 MB/s) - ‘index.html’ saved [1256/1256]",
  NULL
};

/* Lines an agent must see when a command fails. */
static const char * const error_lines[] = {
  "error: could not compile `winnow-rust-app` (lib) due to 2 previous errors",
  "Error: Cannot find module './config'",
  "FAILED tests/test_core.py::InventoryTest::test_names_sorted - AssertionError",
  "Traceback (most recent call last):",
  "panic: runtime error: index out of range [3] with length 3",
  "Segmentation fault (core dumped)",
  "fatal: not a git repository (or any of the parent directories): .git",
  "E   AssertionError: assert ['bolt', 'nut'] == ['bolt', 'gear', 'nut']",
  "npm ERR! code ELIFECYCLE",
  "error[E0308]: mismatched types",
  "src/main.c:5:16: error: ‘undeclared_offset’ undeclared (first use in this function)",
  "thread 'main' panicked at src/main.rs:14:5:",
  "ModuleNotFoundError: No module named 'requests'",
  "--- FAIL: TestNames (0.00s)",
  "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010",
  NULL
};

/* One or a few commands of each tool family. A family is tools used for the same job in
 * one ecosystem: a test filter for Node may well match `npm test`, `npx jest` and
 * `yarn test`, and that is one family. */
typedef struct
{
  const char *family;
  const char *command;
} CommonCommand;

static const CommonCommand common_commands[] = {
  { "git", "git status" },
  { "git", "git diff HEAD~1" },
  { "git", "git log --oneline -20" },
  { "git", "git push origin main" },
  { "node", "npm test" },
  { "node", "npm install" },
  { "node", "npx jest --ci" },
  { "node", "yarn build" },
  { "node", "node --test" },
  { "node", "npx tsc --noEmit" },
  { "python", "pytest -q" },
  { "python", "python -m unittest" },
  { "python", "pip install -r requirements.txt" },
  { "python", "mypy src" },
  { "rust", "cargo build" },
  { "rust", "cargo test" },
  { "rust", "cargo clippy" },
  { "go", "go test ./..." },
  { "go", "go build ./cmd/server" },
  { "c", "make" },
  { "c", "make -j8 all" },
  { "c", "cmake --build build" },
  { "c", "ninja -C _build" },
  { "c", "meson test -C _build" },
  { "c", "gcc -O2 -o app main.c" },
  { "java", "mvn test" },
  { "java", "gradle build" },
  { "shell", "ls -la" },
  { "shell", "find . -name '*.c'" },
  { "shell", "grep -rn TODO src" },
  { "shell", "cat README.md" },
  { "shell", "ps aux" },
  { "shell", "df -h" },
  { "shell", "du -sh ." },
  { "containers", "docker ps" },
  { "containers", "docker build -t app ." },
  { "containers", "kubectl get pods" },
  { "containers", "kubectl logs web-6d4cf56db6-8xk2p" },
  { "network", "curl -sS https://example.com/api" },
  { "network", "wget https://example.com/file.tar.gz" },
  { "network", "ssh deploy@example.com uptime" },
  { "system", "apt-get install -y jq" },
  { "system", "systemctl status nginx" },
};

/* Strings that almost match what nested repetition looks for, and then do not (the same
 * shapes winnow-rule.c tries on prose rules). */
static const char * const hostile_probes[] = {
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "word word word word word word word word word word word word word word word word word !",
  "word word word word word word word word word word word word word word word word word word",
  "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p !",
  "                                                                                    x",
  "1111111111111111111111111111111111111111!",
  "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f!",
  "/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/a/b/c/d/e/f\x01",
  "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t!",
  NULL
};

typedef struct
{
  WinnowFilter *filter;
  GPtrArray    *risks;
} Assessment;

static void
report (Assessment *a,
        const char *json_path,
        const char *message)
{
  g_ptr_array_add (a->risks,
                   winnow_diagnostic_new (WINNOW_DIAGNOSTIC_WARNING, "risk",
                                          winnow_filter_get_file (a->filter),
                                          winnow_filter_get_id (a->filter),
                                          json_path, 0, 0, message));
}

/* Invalid patterns are validation's business; here they are skipped. */
static WinnowRegex *
compile (const char *pattern,
         const char *member)
{
  return winnow_regex_new (pattern, winnow_filter_pattern_flags (member), WINNOW_REGEX_DEFAULT,
                           NULL);
}

static gboolean
matches (WinnowRegex *regex,
         const char  *line)
{
  return winnow_regex_test (regex, line, strlen (line)) == WINNOW_REGEX_MATCH;
}

/* ---- patterns that match nearly every line ---------------------------------------------- */

/* The non-blank lines of the filter's own test inputs: what its author says it will see. */
static GPtrArray *
own_test_lines (WinnowFilter *filter)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < winnow_filter_get_n_tests (filter); i++)
    {
      const WinnowFilterTest *test = winnow_filter_get_test (filter, i);
      g_auto(GStrv) split = NULL;

      if (test->input == NULL)
        continue;
      split = g_strsplit (test->input, "\n", -1);
      for (guint j = 0; split[j] != NULL; j++)
        {
          g_strchomp (split[j]);
          if (split[j][0] != '\0')
            g_ptr_array_add (lines, g_strdup (split[j]));
        }
    }

  return lines;
}

static const char *
what_broad_does (const char *member)
{
  if (g_str_equal (member, "dropPatterns"))
    return "so the filter would drop nearly all of it";
  if (g_str_equal (member, "includePatterns"))
    return "so it selects nothing and every other line is kept only by accident of the others";
  return "so nearly every line is folded into its first occurrence";
}

static void
check_broad_lines (Assessment          *a,
                   const char          *member,
                   const char * const  *patterns,
                   GPtrArray           *own_lines)
{
  guint n_typical = g_strv_length ((char **) typical_lines);

  for (guint i = 0; patterns[i] != NULL; i++)
    {
      g_autoptr(WinnowRegex) regex = compile (patterns[i], member);
      g_autofree char *path = NULL;
      g_autofree char *message = NULL;
      guint hits = 0;

      if (regex == NULL)
        continue;

      path = g_strdup_printf ("rules.%s[%u]", member, i);
      for (guint j = 0; typical_lines[j] != NULL; j++)
        hits += matches (regex, typical_lines[j]);

      if (hits >= BROAD_RATIO * n_typical)
        {
          message = g_strdup_printf ("matches %u of %u lines of ordinary command output (test "
                                     "runs, builds, git, listings), %s", hits, n_typical,
                                     what_broad_does (member));
          report (a, path, message);
          continue;
        }

      if (own_lines->len < MIN_OWN_LINES)
        continue;

      hits = 0;
      for (guint j = 0; j < own_lines->len; j++)
        hits += matches (regex, g_ptr_array_index (own_lines, j));
      if (hits >= BROAD_RATIO * own_lines->len)
        {
          message = g_strdup_printf ("matches %u of the %u non-blank lines of the filter’s own "
                                     "test inputs, %s", hits, own_lines->len,
                                     what_broad_does (member));
          report (a, path, message);
        }
    }
}

/* ---- commands ---------------------------------------------------------------------------- */

static void
check_broad_commands (Assessment *a)
{
  const char * const *patterns = winnow_filter_get_command_patterns (a->filter);

  for (guint i = 0; patterns[i] != NULL; i++)
    {
      g_autoptr(WinnowRegex) regex = compile (patterns[i], "commands");
      g_autoptr(GPtrArray) families = NULL;
      g_autoptr(GString) examples = NULL;
      g_autofree char *path = NULL;

      if (regex == NULL)
        continue;

      path = g_strdup_printf ("match.commands[%u]", i);
      if (winnow_regex_test (regex, "", 0) == WINNOW_REGEX_MATCH)
        {
          report (a, path, "matches the empty string, so the filter claims every command");
          continue;
        }

      families = g_ptr_array_new ();
      examples = g_string_new (NULL);
      for (guint j = 0; j < G_N_ELEMENTS (common_commands); j++)
        {
          const CommonCommand *c = &common_commands[j];

          if (!matches (regex, c->command))
            continue;
          if (!g_ptr_array_find_with_equal_func (families, c->family, g_str_equal, NULL))
            {
              g_ptr_array_add (families, (gpointer) c->family);
              if (families->len <= 4)
                g_string_append_printf (examples, "%s“%s”", examples->len ? ", " : "",
                                        c->command);
            }
        }

      if (families->len > MAX_FAMILIES)
        {
          g_autofree char *message =
            g_strdup_printf ("captures commands of %u unrelated tools (%s%s), so the filter "
                             "rewrites output it was never written for",
                             families->len, examples->str, families->len > 4 ? ", …" : "");

          report (a, path, message);
        }
    }
}

/* ---- drop rules that remove errors ------------------------------------------------------- */

static GPtrArray *
compile_list (const char * const *patterns,
              const char         *member)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_regex_unref);

  for (guint i = 0; patterns[i] != NULL; i++)
    {
      WinnowRegex *regex = compile (patterns[i], member);

      if (regex != NULL)
        g_ptr_array_add (out, regex);
    }

  return out;
}

static gboolean
any_matches (GPtrArray  *regexes,
             const char *line)
{
  for (guint i = 0; i < regexes->len; i++)
    if (matches (g_ptr_array_index (regexes, i), line))
      return TRUE;
  return FALSE;
}

static void
check_dropped_errors (Assessment *a)
{
  const char * const *drop = winnow_filter_get_drop_patterns (a->filter);
  g_autoptr(GPtrArray) protect = NULL;

  if (drop[0] == NULL)
    return;

  /* The engine keeps a line that matches a summary pattern as firmly as an error pattern
   * (FORMATS.md, "Errors survive"), so both count as protection. */
  protect = compile_list (winnow_filter_get_error_patterns (a->filter), "errorPatterns");
  {
    g_autoptr(GPtrArray) summaries = compile_list (winnow_filter_get_summary_patterns (a->filter),
                                                   "summaryPatterns");

    g_ptr_array_extend_and_steal (protect, g_steal_pointer (&summaries));
  }

  for (guint i = 0; drop[i] != NULL; i++)
    {
      g_autoptr(WinnowRegex) regex = compile (drop[i], "dropPatterns");
      g_autoptr(GString) lost = g_string_new (NULL);
      guint n_lost = 0;

      if (regex == NULL)
        continue;

      for (guint j = 0; error_lines[j] != NULL; j++)
        if (matches (regex, error_lines[j]) && !any_matches (protect, error_lines[j]))
          {
            if (n_lost++ < 2)
              g_string_append_printf (lost, "%s“%s”", lost->len ? ", " : "", error_lines[j]);
          }

      if (n_lost > 0)
        {
          g_autofree char *path = g_strdup_printf ("rules.dropPatterns[%u]", i);
          g_autofree char *message =
            g_strdup_printf ("drops error lines such as %s%s, and no preserve pattern of the "
                             "filter keeps them; the agent would not see the failure",
                             lost->str, n_lost > 2 ? " …" : "");

          report (a, path, message);
        }
    }
}

/* ---- catastrophic backtracking ----------------------------------------------------------- */

/* One string the regex source would match, roughly: each atom once, the first branch of each
 * alternation. Good enough to build text that walks into a nested group. */
static void
sample_of (const char *p,
           const char *end,
           GString    *out)
{
  while (p < end)
    {
      switch (*p)
        {
        case '\\':
          if (p + 1 >= end)
            return;
          switch (p[1])
            {
            case 'd': g_string_append_c (out, '1'); break;
            case 'w': case 'S': case 'D': g_string_append_c (out, 'a'); break;
            case 's': case 'W': g_string_append_c (out, ' '); break;
            case 't': g_string_append_c (out, '\t'); break;
            case 'b': case 'B': break;
            default: g_string_append_c (out, p[1]);
            }
          p += 2;
          break;

        case '[':
          {
            gboolean negated = p + 1 < end && p[1] == '^';
            const char *first = p + (negated ? 2 : 1);

            if (negated || first >= end)
              g_string_append_c (out, 'a');
            else if (*first == '\\' && first + 1 < end)
              g_string_append_c (out, first[1] == 'd' ? '1' : first[1] == 's' ? ' '
                                      : first[1] == 'w' ? 'a' : first[1]);
            else
              g_string_append_c (out, *first);
            /* to the closing bracket, a leading ']' and escapes included */
            for (p = first + 1; p < end && *p != ']'; p++)
              if (*p == '\\')
                p++;
            p++;
          }
          break;

        case '(':
          p++;
          if (*p == '?')
            {
              /* (?: (?= (?! (?<name> (?<= (?<! */
              if (p[1] == '=' || p[1] == '!' || (p[1] == '<' && (p[2] == '=' || p[2] == '!')))
                {
                  int depth = 1;

                  /* lookarounds consume nothing: skip them whole */
                  for (; p < end && depth > 0; p++)
                    if (*p == '\\')
                      p++;
                    else if (*p == '(')
                      depth++;
                    else if (*p == ')')
                      depth--;
                  break;
                }
              if (p[1] == '<')
                p = strchr (p, '>') ? strchr (p, '>') + 1 : end;
              else
                p += 2;
            }
          break;

        case '|':
          {
            int depth = 0;

            /* the first branch was taken: skip the others up to the enclosing ')' */
            for (p++; p < end; p++)
              {
                if (*p == '\\')
                  p++;
                else if (*p == '[')
                  {
                    for (p++; p < end && *p != ']'; p++)
                      if (*p == '\\')
                        p++;
                  }
                else if (*p == '(')
                  depth++;
                else if (*p == ')' && depth-- == 0)
                  break;
              }
          }
          break;

        case '{':
          while (p < end && *p != '}')
            p++;
          p++;
          break;

        case ')': case '*': case '+': case '?': case '^': case '$':
          p++;
          break;

        case '.':
          g_string_append_c (out, 'a');
          p++;
          break;

        default:
          g_string_append_c (out, *p);
          p++;
        }
    }
}

/* For each group that is repeated and holds a repetition itself — `(\w+\s?)*` — a probe that
 * reaches the group, repeats what it matches many times and then fails. */
static void
nested_group_probes (const char *source,
                     GPtrArray  *probes)
{
  g_autoptr(GArray) opens = g_array_new (FALSE, FALSE, sizeof (const char *));
  gboolean inner_quantifier = FALSE;
  g_autoptr(GArray) inner = g_array_new (FALSE, TRUE, sizeof (gboolean));

  for (const char *p = source; *p; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        {
          p++;
          continue;
        }
      if (*p == '[')
        {
          for (p++; *p && *p != ']'; p++)
            if (*p == '\\' && p[1] != '\0')
              p++;
          if (*p == '\0')
            break;
          continue;
        }
      if (*p == '(')
        {
          g_array_append_val (opens, p);
          g_array_append_val (inner, inner_quantifier);
          inner_quantifier = FALSE;
        }
      else if (*p == '*' || *p == '+' || (*p == '{' && strchr (p, '}') != NULL))
        inner_quantifier = TRUE;
      else if (*p == ')' && opens->len > 0)
        {
          const char *open = g_array_index (opens, const char *, opens->len - 1);
          gboolean outer = g_array_index (inner, gboolean, inner->len - 1);
          gboolean repeated = p[1] == '*' || p[1] == '+' || p[1] == '{';

          g_array_set_size (opens, opens->len - 1);
          g_array_set_size (inner, inner->len - 1);

          if (repeated && inner_quantifier)
            {
              g_autoptr(GString) prefix = g_string_new (NULL);
              g_autoptr(GString) unit = g_string_new (NULL);
              GString *probe;

              sample_of (source, open, prefix);
              sample_of (open, p + 1, unit);
              if (unit->len > 0)
                for (guint k = 0; k < 2; k++)
                  {
                    probe = g_string_new (prefix->str);
                    for (guint n = 0; n < 30; n++)
                      g_string_append (probe, unit->str);
                    g_string_append (probe, k == 0 ? "\x01" : "!");
                    g_ptr_array_add (probes, g_string_free (probe, FALSE));
                  }
            }
          /* the group, quantified or not, is a quantifier inside its parent */
          inner_quantifier = outer || inner_quantifier || repeated;
        }
    }
}

static void
check_backtracking_pattern (Assessment *a,
                            const char *path,
                            const char *member,
                            const char *pattern)
{
  g_autoptr(WinnowRegex) regex = compile (pattern, member);
  g_autoptr(GPtrArray) probes = NULL;

  if (regex == NULL)
    return;

  probes = g_ptr_array_new_with_free_func (g_free);
  for (guint j = 0; hostile_probes[j] != NULL; j++)
    g_ptr_array_add (probes, g_strdup (hostile_probes[j]));
  nested_group_probes (pattern, probes);

  for (guint j = 0; j < probes->len; j++)
    {
      const char *probe = g_ptr_array_index (probes, j);

      if (winnow_regex_test (regex, probe, strlen (probe)) == WINNOW_REGEX_BUDGET_EXCEEDED)
        {
          g_autofree char *shown = g_strndup (probe, 24);
          g_autofree char *message = NULL;

          g_strdelimit (shown, "\x01\t", ' ');
          message = g_strdup_printf ("backtracks catastrophically: matching gave up on "
                                     "“%s…”, so every line like it costs the whole work budget "
                                     "and counts as not matching; rewrite it without nested "
                                     "repetition", shown);
          report (a, path, message);
          return;
        }
    }
}

static void
check_backtracking_list (Assessment         *a,
                         const char         *section,
                         const char         *member,
                         const char * const *patterns)
{
  for (guint i = 0; patterns[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s[%u]", section, member, i);

      check_backtracking_pattern (a, path, member, patterns[i]);
    }
}

static void
check_backtracking (Assessment *a)
{
  WinnowFilter *f = a->filter;

  check_backtracking_list (a, "match", "commands", winnow_filter_get_command_patterns (f));
  check_backtracking_list (a, "match", "patterns", winnow_filter_get_text_patterns (f));

  for (guint i = 0; i < winnow_filter_get_n_replace_rules (f); i++)
    {
      g_autofree char *path = g_strdup_printf ("rules.replace[%u].pattern", i);
      const char *pattern = NULL;

      winnow_filter_get_replace_rule (f, i, &pattern, NULL);
      check_backtracking_pattern (a, path, "replace", pattern);
    }

  for (guint i = 0; i < winnow_filter_get_n_match_output_rules (f); i++)
    {
      g_autofree char *path = g_strdup_printf ("rules.matchOutput[%u].pattern", i);
      g_autofree char *unless_path = g_strdup_printf ("rules.matchOutput[%u].unless", i);
      const char *pattern = NULL;
      const char *unless = NULL;

      winnow_filter_get_match_output_rule (f, i, &pattern, NULL, &unless);
      check_backtracking_pattern (a, path, "matchOutput", pattern);
      if (unless != NULL)
        check_backtracking_pattern (a, unless_path, "unless", unless);
    }

  check_backtracking_list (a, "rules", "dropPatterns", winnow_filter_get_drop_patterns (f));
  check_backtracking_list (a, "rules", "includePatterns", winnow_filter_get_include_patterns (f));
  check_backtracking_list (a, "rules", "collapsePatterns", winnow_filter_get_collapse_patterns (f));
  check_backtracking_list (a, "preserve", "errorPatterns", winnow_filter_get_error_patterns (f));
  check_backtracking_list (a, "preserve", "summaryPatterns", winnow_filter_get_summary_patterns (f));
}

/**
 * winnow_filter_assess_risks:
 * @filter: a valid filter
 *
 * Looks for what could hurt the person who approves @filter: patterns that match nearly every
 * line, command patterns that capture unrelated tools, drop patterns that remove error lines
 * the filter does not protect, and regexes that backtrack catastrophically. Each finding is a
 * warning naming the filter, the JSON path of the pattern and what would happen.
 *
 * Returns: (transfer full) (element-type WinnowDiagnostic): the risks found, empty when none
 */
GPtrArray *
winnow_filter_assess_risks (WinnowFilter *filter)
{
  Assessment a = { filter, NULL };
  g_autoptr(GPtrArray) own_lines = NULL;

  g_return_val_if_fail (WINNOW_IS_FILTER (filter), NULL);

  a.risks = g_ptr_array_new_with_free_func (g_object_unref);
  own_lines = own_test_lines (filter);

  check_broad_lines (&a, "dropPatterns", winnow_filter_get_drop_patterns (filter), own_lines);
  check_broad_lines (&a, "includePatterns", winnow_filter_get_include_patterns (filter), own_lines);
  check_broad_lines (&a, "collapsePatterns", winnow_filter_get_collapse_patterns (filter), own_lines);
  check_broad_commands (&a);
  check_dropped_errors (&a);
  check_backtracking (&a);

  return a.risks;
}
