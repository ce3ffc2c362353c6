/* winnow-protect-words.c — the word lists behind protected-token recognition
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Telling a shell command, a file name or a code name from ordinary prose needs some
 * vocabulary: the tools agents run and their subcommands, the function words that end a
 * command inside a sentence, file extensions, the parts of common hyphenated English words.
 * The lists are const tables; the first lookup turns them into hash sets (behind g_once, never
 * changed afterwards), so a lookup costs one hash probe on a copied, NUL-terminated key.
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"
#include "winnow-utf8.h"

/* ---- tools ------------------------------------------------------------------------------- */

static const char * const apt_subcommands[] = {
  "autoremove", "build-dep", "dist-upgrade", "full-upgrade", "depends", "install", "list",
  "policy", "purge", "remove", "search", "show", "source", "update", "upgrade", NULL
};
static const char * const brew_subcommands[] = {
  "doctor", "info", "install", "list", "reinstall", "search", "services", "tap", "uninstall",
  "update", "upgrade", NULL
};
static const char * const cargo_subcommands[] = {
  "add", "bench", "build", "check", "clean", "clippy", "doc", "fetch", "fix", "fmt", "init",
  "install", "metadata", "new", "publish", "remove", "run", "test", "tree", "update", NULL
};
static const char * const docker_subcommands[] = {
  "build", "buildx", "compose", "cp", "exec", "image", "images", "inspect", "kill", "login",
  "logs", "network", "ps", "pull", "push", "restart", "rm", "rmi", "run", "start", "stop",
  "system", "tag", "up", "down", "volume", NULL
};
static const char * const dotnet_subcommands[] = {
  "add", "build", "clean", "new", "pack", "publish", "restore", "run", "test", "tool", "watch",
  NULL
};
static const char * const gh_subcommands[] = {
  "api", "auth", "issue", "pr", "release", "repo", "run", "workflow", NULL
};
static const char * const git_subcommands[] = {
  "add", "am", "apply", "bisect", "blame", "branch", "checkout", "cherry-pick", "clean",
  "clone", "commit", "config", "describe", "diff", "fetch", "format-patch", "grep", "init",
  "log", "ls-files", "merge", "mv", "pull", "push", "rebase", "reflog", "remote", "reset",
  "restore", "revert", "rm", "show", "stash", "status", "submodule", "switch", "tag",
  "worktree", NULL
};
static const char * const go_subcommands[] = {
  "build", "clean", "env", "fmt", "generate", "get", "install", "list", "mod", "run", "test",
  "tool", "vet", "version", "work", NULL
};
static const char * const kubectl_subcommands[] = {
  "apply", "config", "create", "delete", "describe", "edit", "exec", "get", "logs",
  "port-forward", "rollout", "scale", "top", NULL
};
static const char * const meson_subcommands[] = {
  "compile", "configure", "dist", "install", "introspect", "setup", "test", "wrap", NULL
};
static const char * const mvn_subcommands[] = {
  "clean", "compile", "deploy", "install", "package", "test", "verify", NULL
};
static const char * const npm_subcommands[] = {
  "add", "audit", "build", "cache", "ci", "dedupe", "exec", "i", "init", "install", "link",
  "ls", "outdated", "pack", "prune", "publish", "rebuild", "remove", "run", "run-script",
  "start", "test", "uninstall", "update", "version", "view", NULL
};
static const char * const pip_subcommands[] = {
  "download", "freeze", "install", "list", "show", "uninstall", "wheel", NULL
};
static const char * const poetry_subcommands[] = {
  "add", "build", "install", "lock", "publish", "remove", "run", "shell", "update", NULL
};
static const char * const rustup_subcommands[] = {
  "component", "default", "install", "override", "show", "target", "toolchain", "update", NULL
};
static const char * const systemctl_subcommands[] = {
  "daemon-reload", "disable", "enable", "list-units", "reload", "restart", "start", "status",
  "stop", NULL
};
static const char * const terraform_subcommands[] = {
  "apply", "destroy", "fmt", "import", "init", "output", "plan", "validate", NULL
};
static const char * const uv_subcommands[] = {
  "add", "init", "lock", "pip", "remove", "run", "sync", "tool", "venv", NULL
};
static const char * const vitest_subcommands[] = {
  "bench", "related", "run", "watch", NULL
};
/* package scripts too: `yarn build`, `pnpm dev` */
static const char * const js_runner_subcommands[] = {
  "add", "build", "create", "dev", "dlx", "exec", "format", "install", "lint", "remove", "run",
  "start", "test", "typecheck", "upgrade", "why", "workspace", "x", NULL
};
static const char * const bundle_subcommands[] = {
  "add", "exec", "install", "update", NULL
};
static const char * const composer_subcommands[] = {
  "dump-autoload", "install", "remove", "require", "update", NULL
};
static const char * const conda_subcommands[] = {
  "activate", "create", "env", "install", "list", "remove", "update", NULL
};
static const char * const deno_subcommands[] = {
  "check", "compile", "fmt", "install", "lint", "run", "task", "test", NULL
};
static const char * const gradle_subcommands[] = {
  "assemble", "build", "check", "clean", "run", "test", NULL
};
static const char * const winnow_subcommands[] = {
  "compress", "gain", "raw", "run", "serve", "trust", "verify", NULL
};

static const ProtectTool tools[] = {
  { "apt", TOOL_SUBCOMMAND, apt_subcommands },
  { "apt-cache", TOOL_SUBCOMMAND, apt_subcommands },
  { "apt-get", TOOL_SUBCOMMAND, apt_subcommands },
  { "awk", TOOL_TECHNICAL, NULL },
  { "bash", TOOL_TECHNICAL, NULL },
  { "brew", TOOL_SUBCOMMAND, brew_subcommands },
  { "bun", TOOL_SUBCOMMAND, js_runner_subcommands },
  { "bundle", TOOL_SUBCOMMAND, bundle_subcommands },
  { "cargo", TOOL_SUBCOMMAND, cargo_subcommands },
  { "cat", TOOL_ENGLISH, NULL },
  { "cd", TOOL_ANY, NULL },
  { "chmod", TOOL_TECHNICAL, NULL },
  { "chown", TOOL_ANY, NULL },
  { "clang", TOOL_TECHNICAL, NULL },
  { "clang++", TOOL_TECHNICAL, NULL },
  { "cmake", TOOL_TECHNICAL, NULL },
  { "composer", TOOL_SUBCOMMAND, composer_subcommands },
  { "conda", TOOL_SUBCOMMAND, conda_subcommands },
  { "cp", TOOL_ANY, NULL },
  { "ctest", TOOL_TECHNICAL, NULL },
  { "curl", TOOL_TECHNICAL, NULL },
  { "deno", TOOL_SUBCOMMAND, deno_subcommands },
  { "df", TOOL_TECHNICAL, NULL },
  { "diff", TOOL_ENGLISH, NULL },
  { "docker", TOOL_SUBCOMMAND, docker_subcommands },
  { "docker-compose", TOOL_SUBCOMMAND, docker_subcommands },
  { "dotnet", TOOL_SUBCOMMAND, dotnet_subcommands },
  { "du", TOOL_ENGLISH, NULL },
  { "echo", TOOL_ENGLISH, NULL },
  { "eslint", TOOL_TECHNICAL, NULL },
  { "export", TOOL_ENGLISH, NULL },
  { "find", TOOL_ENGLISH, NULL },
  { "g++", TOOL_TECHNICAL, NULL },
  { "gcc", TOOL_TECHNICAL, NULL },
  { "gdb", TOOL_TECHNICAL, NULL },
  { "gh", TOOL_SUBCOMMAND, gh_subcommands },
  { "git", TOOL_SUBCOMMAND, git_subcommands },
  { "go", TOOL_SUBCOMMAND, go_subcommands },
  { "gradle", TOOL_SUBCOMMAND, gradle_subcommands },
  { "grep", TOOL_ANY, NULL },
  { "head", TOOL_ENGLISH, NULL },
  { "java", TOOL_TECHNICAL, NULL },
  { "javac", TOOL_TECHNICAL, NULL },
  { "jest", TOOL_TECHNICAL, NULL },
  { "jq", TOOL_ANY, NULL },
  { "kill", TOOL_ENGLISH, NULL },
  { "kubectl", TOOL_SUBCOMMAND, kubectl_subcommands },
  { "less", TOOL_ENGLISH, NULL },
  { "ln", TOOL_TECHNICAL, NULL },
  { "ls", TOOL_ANY, NULL },
  { "make", TOOL_ENGLISH, NULL },
  { "meson", TOOL_SUBCOMMAND, meson_subcommands },
  { "mkdir", TOOL_ANY, NULL },
  { "mv", TOOL_ANY, NULL },
  { "mvn", TOOL_SUBCOMMAND, mvn_subcommands },
  { "ninja", TOOL_TECHNICAL, NULL },
  { "node", TOOL_TECHNICAL, NULL },
  { "npm", TOOL_SUBCOMMAND, npm_subcommands },
  { "npx", TOOL_ANY, NULL },
  { "perl", TOOL_TECHNICAL, NULL },
  { "php", TOOL_TECHNICAL, NULL },
  { "pip", TOOL_SUBCOMMAND, pip_subcommands },
  { "pip3", TOOL_SUBCOMMAND, pip_subcommands },
  { "pipx", TOOL_ANY, NULL },
  { "pnpm", TOOL_SUBCOMMAND, js_runner_subcommands },
  { "poetry", TOOL_SUBCOMMAND, poetry_subcommands },
  { "psql", TOOL_TECHNICAL, NULL },
  { "pytest", TOOL_TECHNICAL, NULL },
  { "python", TOOL_TECHNICAL, NULL },
  { "python3", TOOL_TECHNICAL, NULL },
  { "rg", TOOL_ANY, NULL },
  { "rm", TOOL_ANY, NULL },
  { "rsync", TOOL_TECHNICAL, NULL },
  { "ruby", TOOL_TECHNICAL, NULL },
  { "rustc", TOOL_TECHNICAL, NULL },
  { "rustup", TOOL_SUBCOMMAND, rustup_subcommands },
  { "scp", TOOL_TECHNICAL, NULL },
  { "sed", TOOL_TECHNICAL, NULL },
  { "sh", TOOL_TECHNICAL, NULL },
  { "ssh", TOOL_ANY, NULL },
  { "sudo", TOOL_PREFIX, NULL },
  { "systemctl", TOOL_SUBCOMMAND, systemctl_subcommands },
  { "tail", TOOL_ENGLISH, NULL },
  { "tar", TOOL_TECHNICAL, NULL },
  { "terraform", TOOL_SUBCOMMAND, terraform_subcommands },
  { "touch", TOOL_ENGLISH, NULL },
  { "tsc", TOOL_TECHNICAL, NULL },
  { "uv", TOOL_SUBCOMMAND, uv_subcommands },
  { "valgrind", TOOL_TECHNICAL, NULL },
  { "vitest", TOOL_SUBCOMMAND, vitest_subcommands },
  { "webpack", TOOL_TECHNICAL, NULL },
  { "wget", TOOL_TECHNICAL, NULL },
  { "which", TOOL_ENGLISH, NULL },
  { "winnow", TOOL_SUBCOMMAND, winnow_subcommands },
  { "xargs", TOOL_PREFIX, NULL },
  { "yarn", TOOL_SUBCOMMAND, js_runner_subcommands },
};

/* ---- word sets --------------------------------------------------------------------------- */

/* Words that end a command inside a sentence: function words of the languages Winnow's rule
 * packs cover, and the verbs that usually follow a command ("npm test passes now"). */
static const char * const stopwords[] = {
  /* English */
  "a", "about", "after", "again", "all", "already", "also", "an", "and", "any", "are", "as",
  "at", "be", "because", "been", "before", "but", "by", "can", "could", "crashed", "crashes",
  "did", "do", "does", "done", "each", "every", "fail", "failed", "fails", "finished",
  "first", "for", "from", "gave", "gives", "had", "hangs", "has", "have", "here", "how",
  "i", "if", "in", "instead", "into", "is", "it", "its", "just", "later", "locally", "may",
  "might", "must", "next", "no", "not", "now", "of", "on", "once", "only", "or", "our",
  "output", "outputs", "pass", "passed", "passes", "please", "prints", "printed", "reported",
  "reports", "returned", "returns", "said", "says", "should", "shows", "showed", "since",
  "so", "still", "succeeded", "succeeds", "than", "that", "the", "their", "them", "then",
  "there", "these", "they", "this", "those", "to", "too", "twice", "until", "us", "was",
  "we", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with",
  "without", "works", "worked", "would", "yet", "you", "your",
  /* Portuguese, Spanish, French, German, Indonesian */
  "com", "como", "da", "das", "de", "del", "dem", "den", "der", "des", "die", "do", "dos",
  "e", "el", "em", "en", "et", "für", "la", "las", "le", "les", "los", "mit", "na", "no",
  "o", "ou", "para", "pour", "que", "se", "um", "uma", "und", "une", "y", "zu",
  "dan", "di", "dengan", "lalu", "untuk", "yang", "atau",
};

/* Words after which a tool name is a command even without arguments: "run pytest". */
static const char * const triggers[] = {
  "call", "ejecuta", "ejecutar", "ejecute", "execute", "executed", "executing", "exécute",
  "exécuter", "exécutez", "executar", "führe", "invoke", "invoked", "jalankan",
  "lance", "lancer", "lancez", "ran", "rode", "rodar", "run", "running", "runs", "try",
  "tried", "type", "typed",
};

static const char * const extensions[] = {
  "a", "am", "asm", "bak", "bat", "bin", "bz2", "c", "cabal", "cc", "cfg", "cjs", "clj",
  "cmake", "cmd", "conf", "cpp", "crt", "cs", "csproj", "css", "csv", "cts", "cxx", "d",
  "dart", "db", "deb", "desktop", "diff", "dll", "doc", "docx", "dylib", "ejs", "el", "elm",
  "env", "erl", "ex", "exe", "exs", "fs", "gif", "go", "gradle", "gz", "h", "hbs", "hh",
  "hpp", "hs", "htm", "html", "hxx", "ico", "in", "ini", "ipynb", "jar", "java", "jpeg",
  "jpg", "js", "json", "jsonc", "jsonl", "jsx", "key", "kt", "kts", "lock", "log", "lua",
  "m", "map", "md", "mdx", "mjs", "mk", "ml", "mm", "mod", "mts", "nix", "o", "patch",
  "pdf", "pem", "php", "pl", "plist", "png", "po", "pot", "properties", "proto", "ps1",
  "py", "pyc", "pyi", "r", "rb", "rpm", "rs", "rst", "s", "sass", "scala", "scss", "service",
  "sh", "sln", "so", "sql", "sqlite", "sum", "svelte", "svg", "swift", "tar", "tf", "tgz",
  "toml", "ts", "tsv", "tsx", "txt", "ui", "vala", "vue", "wasm", "webp", "whl", "xml",
  "xz", "yaml", "yml", "zig", "zip", "zsh",
};

static const char * const file_names[] = {
  "AUTHORS", "Brewfile", "CHANGELOG", "CODEOWNERS", "COPYING", "Containerfile",
  "Dockerfile", "Gemfile", "Jenkinsfile", "Justfile", "LICENSE", "Makefile", "Procfile",
  "README", "Rakefile", "Vagrantfile", "makefile",
};

/* Directories common enough that `src/engine` reads as a path although `and/or` does not. */
static const char * const source_dirs[] = {
  ".github", "_build", "api", "app", "apps", "assets", "bench", "benches", "bin", "build",
  "cmd", "components", "config", "configs", "crates", "data", "deps", "dist", "doc", "docs",
  "engine", "etc", "examples", "filters", "fixtures", "home", "include", "internal", "lib",
  "libs", "node_modules", "opt", "out", "packages", "pkg", "proc", "public", "rules",
  "scripts", "spec", "src", "static", "sys", "target", "test", "tests", "tmp", "tools",
  "ui", "usr", "utils", "var", "vendor",
};

/* Parts of hyphenated words that are ordinary English ("well-known", "up-to-date"): a
 * hyphenated word made only of these stays prose; "vue-router" or "json-glib" do not. */
static const char * const prose_parts[] = {
  "able", "after", "all", "any", "art", "aside", "author", "back", "based", "best", "big",
  "bit", "bottom", "built", "by", "call", "called", "case", "catch", "check", "clean",
  "close", "co", "coded", "compile", "consuming", "cost", "cross", "cut", "date", "day",
  "de", "deep", "depth", "disk", "do", "double", "down", "driven", "e", "easy", "end",
  "ever", "error", "eye", "face", "fail", "fall", "far", "fast", "fi", "fine", "first",
  "fix", "fixed", "follow", "four", "free", "friendly", "front", "full", "go", "good",
  "grained", "half", "hand", "hard", "have", "head", "heavy", "high", "hoc", "home", "hot",
  "how", "human", "in", "inter", "is", "it", "key", "kind", "known", "large", "last", "late",
  "left", "level", "life", "light", "like", "line", "liner", "live", "lived", "load", "long",
  "look", "low", "made", "mail", "make", "man", "many", "mid", "mind", "minded", "minute",
  "mode", "more", "most", "much", "multi", "must", "my", "name", "near", "need", "new",
  "next", "no", "non", "not", "now", "of", "off", "old", "on", "one", "only", "open", "opt",
  "or", "out", "over", "page", "part", "party", "per", "place", "plain", "point", "post",
  "pre", "proof", "prone", "quality", "rate", "re", "read", "readable", "ready", "real",
  "right", "round", "run", "running", "safe", "same", "scale", "second", "see", "self",
  "semi", "sensitive", "set", "short", "side", "sign", "single", "size", "so", "sound",
  "source", "speed", "stand", "start", "state", "step", "stop", "sub", "sure", "take",
  "tested", "the", "thing", "third", "three", "through", "time", "to", "top", "trade",
  "true", "turn", "two", "under", "up", "use", "user", "versa", "vice", "walk", "way",
  "well", "wide", "will", "wise", "work", "world", "worst", "write", "year", "zero",
  /* added with the words of chat prose: heads-up, mix-up, hands-on, brand-new, nice-to-have,
   * trial-and-error, over-communicate, re-render, well-written */
  "and", "brand", "communicate", "hands", "heads", "mix", "nice", "render", "trial",
  "written",
};

/* Hyphenated words of other languages that no part list describes: French "ci-dessous",
 * Portuguese "bem-vindo". Looked up whole, in lower case; words with accents ("peut-être")
 * never read as names in the first place. */
static const char * const hyphenated_words[] = {
  "au-dessous", "au-dessus", "bem-vinda", "bem-vindas", "bem-vindo", "bem-vindos",
  "ci-contre", "ci-dessous", "ci-dessus", "ci-joint", "ci-jointe", "ci-jointes", "ci-joints",
};

static const char * const branch_prefixes[] = {
  "bugfix", "chore", "dependabot", "experiment", "feat", "feature", "features", "fix",
  "heads", "hotfix", "origin", "refactor", "refs", "release", "releases", "remotes",
  "renovate", "topic", "upstream", "wip",
};

/* Verbs and prepositions after which main/master/develop/trunk name a branch. */
static const char * const branch_verbs[] = {
  "branch", "branched", "branches", "checkout", "checked", "cherry-pick", "cherry-picked",
  "commit", "committed", "deploy", "deployed", "fetch", "fetched", "fork", "forked", "into",
  "land", "landed", "merge", "merged", "merging", "onto", "pull", "pulled", "pulling",
  "push", "pushed", "pushing", "rebase", "rebased", "rebasing", "reset", "switch",
  "switched", "sync", "synced",
};

static const char * const tlds[] = {
  "ai", "app", "ar", "at", "au", "be", "biz", "br", "ca", "ch", "cl", "cloud", "cn", "co",
  "com", "cz", "de", "dev", "edu", "es", "eu", "fr", "gov", "hk", "id", "in", "info", "io",
  "it", "jp", "kr", "me", "mx", "net", "nl", "no", "org", "pl", "pt", "ru", "se", "sg", "sh",
  "tech", "tw", "uk", "us", "xyz",
};

static const char * const months[] = {
  "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
};

static const char * const month_names[] = {
  "january", "february", "march", "april", "may", "june", "july", "august", "september",
  "october", "november", "december",
};

static const char * const day_names[] = {
  "fri", "friday", "mon", "monday", "sat", "saturday", "sun", "sunday", "thu", "thursday",
  "tue", "tuesday", "wed", "wednesday",
};

/* ---- the sets ---------------------------------------------------------------------------- */

typedef struct
{
  /* by first letter, a bit per name length and a bit per second letter: most words are
   * rejected without hashing */
  guint16     tool_lengths[26];
  guint32     tool_seconds[26];
  GHashTable *tools;
  GHashTable *stopwords;
  GHashTable *triggers;
  GHashTable *extensions;
  GHashTable *file_names;
  GHashTable *source_dirs;
  GHashTable *prose_parts;
  GHashTable *hyphenated_words;
  GHashTable *branch_prefixes;
  GHashTable *branch_verbs;
  GHashTable *tlds;
  GHashTable *months;
  GHashTable *day_names;
} Words;

static inline guint
second_letter (char c)
{
  return g_ascii_islower (c) ? (guint) (c - 'a') : 26;
}

static GHashTable *
set_of (const char * const *list,
        gsize               n)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  for (gsize i = 0; i < n; i++)
    g_hash_table_insert (set, (gpointer) list[i], (gpointer) list[i]);

  return set;
}

static const Words *
words (void)
{
  static gsize initialized = 0;
  static Words w;

  if (g_once_init_enter (&initialized))
    {
      w.tools = g_hash_table_new (g_str_hash, g_str_equal);
      for (gsize i = 0; i < G_N_ELEMENTS (tools); i++)
        {
          g_hash_table_insert (w.tools, (gpointer) tools[i].name, (gpointer) &tools[i]);
          w.tool_lengths[tools[i].name[0] - 'a'] |= 1u << strlen (tools[i].name);
          w.tool_seconds[tools[i].name[0] - 'a'] |= 1u << second_letter (tools[i].name[1]);
        }

      w.stopwords = set_of (stopwords, G_N_ELEMENTS (stopwords));
      w.triggers = set_of (triggers, G_N_ELEMENTS (triggers));
      w.extensions = set_of (extensions, G_N_ELEMENTS (extensions));
      w.file_names = set_of (file_names, G_N_ELEMENTS (file_names));
      w.source_dirs = set_of (source_dirs, G_N_ELEMENTS (source_dirs));
      w.prose_parts = set_of (prose_parts, G_N_ELEMENTS (prose_parts));
      w.hyphenated_words = set_of (hyphenated_words, G_N_ELEMENTS (hyphenated_words));
      w.branch_prefixes = set_of (branch_prefixes, G_N_ELEMENTS (branch_prefixes));
      w.branch_verbs = set_of (branch_verbs, G_N_ELEMENTS (branch_verbs));
      w.tlds = set_of (tlds, G_N_ELEMENTS (tlds));
      w.day_names = set_of (day_names, G_N_ELEMENTS (day_names));

      w.months = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < 12; i++)
        {
          g_hash_table_insert (w.months, (gpointer) months[i], GUINT_TO_POINTER (i + 1));
          g_hash_table_insert (w.months, (gpointer) month_names[i], GUINT_TO_POINTER (i + 1));
        }
      g_hash_table_insert (w.months, (gpointer) "sept", GUINT_TO_POINTER (9));

      g_once_init_leave (&initialized, 1);
    }

  return &w;
}

#define MAX_WORD 32

/* Looks @word up in @set, lower-cased first when @fold. */
static gpointer
lookup (GHashTable *set,
        const char *word,
        gsize       len,
        gboolean    fold)
{
  char key[MAX_WORD];

  if (len == 0 || len >= MAX_WORD)
    return NULL;

  if (fold)
    for (gsize i = 0; i < len; i++)
      key[i] = (char) _winnow_ascii_lower ((guchar) word[i]);
  else
    memcpy (key, word, len);
  key[len] = '\0';

  return g_hash_table_lookup (set, key);
}

const ProtectTool *
_winnow_protect_lookup_tool (const char *word,
                             gsize       len)
{
  /* tool names are short and start with a lower-case letter: most words never hash */
  const Words *w;

  if (len < 2 || len > 15 || !g_ascii_islower (word[0]))
    return NULL;
  w = words ();
  if ((w->tool_lengths[word[0] - 'a'] & (1u << len)) == 0 ||
      (w->tool_seconds[word[0] - 'a'] & (1u << second_letter (word[1]))) == 0)
    return NULL;
  return lookup (w->tools, word, len, FALSE);
}

gboolean
_winnow_protect_is_subcommand (const ProtectTool *tool,
                               const char        *word,
                               gsize              len)
{
  if (tool->subcommands == NULL)
    return FALSE;

  for (guint i = 0; tool->subcommands[i] != NULL; i++)
    if (strlen (tool->subcommands[i]) == len && memcmp (tool->subcommands[i], word, len) == 0)
      return TRUE;

  return FALSE;
}

gboolean
_winnow_protect_is_stopword (const char *word,
                             gsize       len)
{
  return lookup (words ()->stopwords, word, len, TRUE) != NULL;
}

gboolean
_winnow_protect_is_trigger (const char *word,
                            gsize       len)
{
  return lookup (words ()->triggers, word, len, TRUE) != NULL;
}

gboolean
_winnow_protect_is_extension (const char *word,
                              gsize       len)
{
  return lookup (words ()->extensions, word, len, TRUE) != NULL;
}

gboolean
_winnow_protect_is_file_name (const char *word,
                              gsize       len)
{
  /* Makefile, Dockerfile…, or LICENSE, README… in capitals */
  if (len < 6 || len > 13 ||
      !(memcmp (word + len - 4, "file", 4) == 0 ||
        (g_ascii_isupper (word[1]) && g_ascii_isupper (word[len - 1]))))
    return FALSE;
  return lookup (words ()->file_names, word, len, FALSE) != NULL;
}

gboolean
_winnow_protect_is_source_dir (const char *word,
                               gsize       len)
{
  return lookup (words ()->source_dirs, word, len, FALSE) != NULL;
}

gboolean
_winnow_protect_is_prose_part (const char *word,
                               gsize       len)
{
  return lookup (words ()->prose_parts, word, len, FALSE) != NULL;
}

gboolean
_winnow_protect_is_hyphenated_word (const char *word,
                                    gsize       len)
{
  return lookup (words ()->hyphenated_words, word, len, TRUE) != NULL;
}

gboolean
_winnow_protect_is_branch_prefix (const char *word,
                                  gsize       len)
{
  return lookup (words ()->branch_prefixes, word, len, FALSE) != NULL;
}

gboolean
_winnow_protect_is_branch_verb (const char *word,
                                gsize       len)
{
  return lookup (words ()->branch_verbs, word, len, TRUE) != NULL;
}

gboolean
_winnow_protect_is_tld (const char *word,
                        gsize       len)
{
  return lookup (words ()->tlds, word, len, TRUE) != NULL;
}

/* 1–12 for an English month name or abbreviation (Apr, April, APR), else 0 */
guint
_winnow_protect_month (const char *word,
                       gsize       len)
{
  if (len < 3 || len > 9 || strchr ("ADFJMNOS", word[0]) == NULL)
    return 0;
  return GPOINTER_TO_UINT (lookup (words ()->months, word, len, TRUE));
}

gboolean
_winnow_protect_is_day_name (const char *word,
                             gsize       len)
{
  if (len < 3 || len > 9 || strchr ("FMSTW", word[0]) == NULL)
    return FALSE;
  return lookup (words ()->day_names, word, len, TRUE) != NULL;
}
