/* winnow-learn.c — drafting a new RTK filter from samples of a command's output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A user who meets a command no filter knows has its output at hand, not a regex. Learning
 * turns one or more samples into a draft filter that is safe before it is clever:
 *
 *  1. Every line is cleaned as the draft will see it (`stripAnsi`: escapes removed, the last
 *     frame of a `\r` progress line kept) and given a role: blank, error, summary, a known kind
 *     of noise (progress, build steps, passing tests, downloads, timings, banners) or plain
 *     content. Errors use the words the detector treats as errors plus the usual diagnostic
 *     shapes (`file:line:col:`, `-->`, pytest's `E ` lines, `…Error`). Summaries are the usual
 *     count and "finished" lines plus the last line of every sample, which is where tools
 *     print their verdict.
 *  2. Every other line is abstracted into a *shape*: numbers, hashes, paths and quoted names
 *     become classes, spaces become `\s+`, brackets tolerate padding (`[  5%]` and `[100%]`
 *     are one shape). Shapes that share their punctuation and first two words are merged, the
 *     words that differ becoming `[\w.%+-]+`, so `Linking target a` and `Linking target b` are
 *     one pattern.
 *  3. A shape is dropped only when its lines are a known kind of noise *and* it repeats (within
 *     a sample, or in three samples): a lone `Compiling foo` line is what the user wants to see,
 *     four hundred are not. Repetition alone never drops anything — repeated content (`commit
 *     <hash>` in a log) is still content. A shape of mostly identical lines is collapsed.
 *  4. No proposed pattern may match a summary line: if it does, it gets a negative lookahead
 *     for the summary patterns it hit (`^(?!.*?\[\s*(\d+)/\1\])…` keeps `[8/8] Linking`), and
 *     is dropped if that does not help. Error lines need no such care: the engine never drops
 *     a line matching `preserve.errorPatterns`.
 *  5. The draft is parsed like any filter and run on every sample; each sample becomes a
 *     `tests[]` entry whose `expected` is that run, so the draft passes `winnow verify` by
 *     construction (callers should still verify the text they save: it is the product).
 *
 * Everything here is linear in the size of the samples: each line is classified with a few
 * combined regexes (the individual ones only run on lines the combined one hit) and shaped in
 * one pass; the candidate patterns are few.
 */

#define G_LOG_DOMAIN "winnow-learn"

#include "config.h"

#include <string.h>

#include "winnow-command.h"
#include "winnow-detection.h"
#include "winnow-detector.h"
#include "winnow-diagnostic.h"
#include "winnow-error.h"
#include "winnow-learn.h"
#include "winnow-regex.h"
#include "winnow-rtk.h"
#include "winnow-tokens.h"
#include "winnow-utf8.h"

#define DIAGNOSTIC_SOURCE "learn"
#define MAX_SHAPE_REGEX   400  /* a longer shape is too specific to be worth proposing */
#define LEARNED_PRIORITY  95   /* above every built-in filter, so the draft is the one used */

/* ---- boxed types ------------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (WinnowLearnSample, winnow_learn_sample,
                     winnow_learn_sample_copy, winnow_learn_sample_free)
G_DEFINE_BOXED_TYPE (WinnowLearnProposal, winnow_learn_proposal,
                     winnow_learn_proposal_copy, winnow_learn_proposal_free)

/**
 * winnow_learn_sample_new:
 * @name: what to call the sample (a file name, "stdin", …)
 * @data: its raw bytes
 *
 * Returns: (transfer full): a new sample to learn from
 */
WinnowLearnSample *
winnow_learn_sample_new (const char *name,
                         GBytes     *data)
{
  WinnowLearnSample *sample;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  sample = g_new0 (WinnowLearnSample, 1);
  sample->name = g_strdup (name);
  sample->data = g_bytes_ref (data);
  return sample;
}

WinnowLearnSample *
winnow_learn_sample_copy (const WinnowLearnSample *sample)
{
  WinnowLearnSample *copy;

  g_return_val_if_fail (sample != NULL, NULL);

  copy = g_memdup2 (sample, sizeof *sample);
  copy->name = g_strdup (sample->name);
  copy->data = g_bytes_ref (sample->data);
  return copy;
}

void
winnow_learn_sample_free (WinnowLearnSample *sample)
{
  if (sample == NULL)
    return;
  g_free (sample->name);
  g_bytes_unref (sample->data);
  g_free (sample);
}

WinnowLearnProposal *
winnow_learn_proposal_copy (const WinnowLearnProposal *proposal)
{
  WinnowLearnProposal *copy;

  g_return_val_if_fail (proposal != NULL, NULL);

  copy = g_new0 (WinnowLearnProposal, 1);
  copy->field = g_strdup (proposal->field);
  copy->value = g_strdup (proposal->value);
  copy->reason = g_strdup (proposal->reason);
  copy->lines = proposal->lines;
  copy->example = g_strdup (proposal->example);
  return copy;
}

void
winnow_learn_proposal_free (WinnowLearnProposal *proposal)
{
  if (proposal == NULL)
    return;
  g_free (proposal->field);
  g_free (proposal->value);
  g_free (proposal->reason);
  g_free (proposal->example);
  g_free (proposal);
}

static void
add_proposal (GPtrArray  *proposals,
              const char *field,
              const char *value,
              const char *reason,
              guint       lines,
              const char *example)
{
  WinnowLearnProposal *proposal = g_new0 (WinnowLearnProposal, 1);

  proposal->field = g_strdup (field);
  proposal->value = g_strdup (value);
  proposal->reason = g_strdup (reason);
  proposal->lines = lines;
  proposal->example = g_strdup (example);
  g_ptr_array_add (proposals, proposal);
}

/**
 * winnow_learn_options_init:
 * @options: options to fill with the defaults
 */
void
winnow_learn_options_init (WinnowLearnOptions *options)
{
  g_return_if_fail (options != NULL);

  options->id = NULL;
  options->label = NULL;
  options->min_repeats = 3;
  options->collapse_min = 4;
  options->max_sample_bytes = 64 * 1024 * 1024;
  options->max_test_bytes = 256 * 1024;
}

/* ---- what a line is ---------------------------------------------------------------------- */

typedef struct
{
  const char *pattern;
  const char *reason;
} Known;

/* Errors. The first is the detector's own list of error words and is always proposed; the
 * others are proposed when some sample has such a line. Case-insensitive, as the engine
 * matches preserve patterns. */
static const Known error_shapes[] = {
  { "\\b(?:error|errors|failed|failure|fatal|exception|traceback|panic|panicked|"
    "segmentation fault|aborted)\\b", "the words the detector treats as errors" },
  { "\\bwarn(?:ing)?\\b", "warnings" },
  { "^\\S+:\\d+:\\d+:", "file:line:column diagnostics" },
  { "^\\s*-->\\s*\\S+:\\d+", "Rust-style source locations" },
  { "^E\\s{2,}", "pytest assertion details (E lines)" },
  { "^>\\s{2,}\\S", "pytest failing source lines (> lines)" },
  { "\\b\\w*(?:Error|Exception)\\b", "exception names" },
};

/* Summaries. The first (a finished build counter, `[8/8]`) must stay first: it is the only
 * one with a capture group, and lookaheads built from these rely on its numbering. */
static const Known summary_shapes[] = {
  { "^\\s*\\[\\s*(\\d+)\\s*/\\s*\\1\\s*\\]", "the last step of a build counter" },
  { "\\b\\d+ (?:passed|failed|skipped|errors?|warnings?|tests?|xfailed|xpassed|deselected|"
    "ignored|measured|filtered out)\\b", "result counts" },
  { "^\\s*(?:Finished|Done|Completed|Built|Successfully)\\b", "lines saying the work finished" },
  { "\\btest result:", "test result lines" },
  { "^(?:added|removed|changed|audited|up to date)\\b", "package manager summaries" },
  { "\\bsaved \\[\\d+(?:/\\d+)?\\]", "download summaries" },
  { "^\\s*(?:Tests?|Test Files|Test Suites|Snapshots)\\s*:?\\s+\\d", "test runner totals" },
  { "^Ran \\d+ tests? in\\b", "test runner totals" },
  { "^\\s*\\d+ files? changed\\b", "change totals" },
};

/* In the order they are tried: the first that matches names the kind in the proposal. */
typedef enum
{
  KIND_BANNER,
  KIND_STEP,
  KIND_PASS,
  KIND_FETCH,
  KIND_BUILD,
  KIND_TIME,
  KIND_PROGRESS,
  N_KINDS
} Kind;

/* Known kinds of noise, case-sensitive. Only a line's role is decided by these; the pattern
 * proposed is always the shape of the lines actually seen. KIND_BANNER is first because it is
 * the one with a capture group. */
static const Known noise_kinds[N_KINDS] = {
  [KIND_BANNER] = { "^\\s*([=\\-_*#~+])\\1{7,}\\s*$|^=+ .* =+\\s*$", "banner and rule lines" },
  [KIND_PROGRESS] = { "\\d+(?:\\.\\d+)?\\s*%|\\(\\s*\\d+\\s*/\\s*\\d+\\s*\\)|\\[[=#>. -]{6,}\\]|"
                      "[█▓▒░■▏▎▍▌▋▊▉]{3,}|\\.{10}", "progress output" },
  [KIND_STEP] = { "^\\s*\\[\\s*\\d+\\s*/\\s*\\d+\\s*\\]|^\\s*\\[\\s*\\d+%\\]", "build step counters" },
  [KIND_PASS] = { "\\bPASS(?:ED)?\\b|\\.\\.\\.\\s+ok\\s*$|^\\s*(?:✓|✔|√)\\s|^ok\\s+\\d+\\s|"
                  "^\\s*--- PASS:|^=== RUN\\b", "passing tests" },
  [KIND_FETCH] = { "^\\s*(?:Downloading|Downloaded|Fetching|Fetched|Resolving|Receiving|Unpacking|"
                   "Updating|Installing|Collecting|Using cached|Requirement already satisfied|"
                   "Preparing|Selecting previously|Setting up|Processing triggers|"
                   "Reading package lists|Reading state information|Building dependency tree|"
                   "Cloning into|Connecting to|HTTP request sent|Get:\\d+|Hit:\\d+|Ign:\\d+|"
                   "remote: (?:Enumerating|Counting|Compressing))\\b",
                   "download, fetch and install progress" },
  [KIND_BUILD] = { "^\\s*(?:Compiling|Building|Checking|Linking|Generating|Scanning dependencies|"
                   "Bundling|Transforming|Running|Executing)\\b|"
                   "^\\s*(?:CC|CXX|LD|AR|AS|GEN|CCLD|CXXLD)\\s+\\S|"
                   "^\\s*(?:cc|gcc|g\\+\\+|c\\+\\+|clang|clang\\+\\+|rustc|javac)\\s+-|"
                   "^make(?:\\[\\d+\\])?: (?:Entering|Leaving|Nothing to be done)|"
                   "^ninja: (?:Entering|no work)", "compile and link steps" },
  [KIND_TIME] = { "^\\s*(?:real|user|sys)\\s+\\d+m[\\d.]+s\\s*$|"
                  "^\\s*(?:Duration|Elapsed|Took|Time)\\b[:\\s]+\\d", "timings" },
};

typedef enum
{
  ROLE_OTHER,
  ROLE_BLANK,
  ROLE_ERROR,
  ROLE_SUMMARY,
  ROLE_NOISE,
} Role;

/* One set of known patterns: a combined regex that says whether any matches, and the single
 * ones that say which (only consulted after a combined hit, which keeps big samples cheap). */
typedef struct
{
  const Known  *known;
  guint         n;
  WinnowRegex  *any;
  WinnowRegex **each;
  guint        *hits;
  char        **example;
} KnownSet;

static void
known_set_init (KnownSet    *set,
                const Known *known,
                guint        n,
                const char  *flags)
{
  g_autoptr(GString) any = g_string_new (NULL);

  set->known = known;
  set->n = n;
  set->each = g_new0 (WinnowRegex *, n);
  set->hits = g_new0 (guint, n);
  set->example = g_new0 (char *, n);
  for (guint i = 0; i < n; i++)
    {
      /* the tables are ours and tested: a bad entry is a programming error */
      set->each[i] = winnow_regex_new (known[i].pattern, flags, WINNOW_REGEX_OPTIMIZE, NULL);
      g_assert (set->each[i] != NULL);
      g_string_append_printf (any, "%s(?:%s)", i > 0 ? "|" : "", known[i].pattern);
    }
  set->any = winnow_regex_new (any->str, flags, WINNOW_REGEX_OPTIMIZE, NULL);
  g_assert (set->any != NULL);
}

static void
known_set_clear (KnownSet *set)
{
  for (guint i = 0; i < set->n; i++)
    {
      winnow_regex_unref (set->each[i]);
      g_free (set->example[i]);
    }
  g_clear_pointer (&set->any, winnow_regex_unref);
  g_free (set->each);
  g_free (set->hits);
  g_free (set->example);
}

/* Index of the first pattern of @set matching @line, or -1. */
static int
known_set_match (KnownSet   *set,
                 const char *line,
                 gsize       len)
{
  if (winnow_regex_test (set->any, line, len) != WINNOW_REGEX_MATCH)
    return -1;
  for (guint i = 0; i < set->n; i++)
    if (winnow_regex_test (set->each[i], line, len) == WINNOW_REGEX_MATCH)
      return i;
  return -1;
}

static void
known_set_count (KnownSet   *set,
                 int         index,
                 const char *line,
                 gsize       len)
{
  set->hits[index]++;
  if (set->example[index] == NULL)
    set->example[index] = g_strndup (line, len);
}

/* ---- shapes ------------------------------------------------------------------------------ */

typedef enum
{
  FRAG_FIXED,  /* punctuation, spaces, brackets: the same in every line of a group */
  FRAG_CLASS,  /* a number, hash, path or quoted name, already general */
  FRAG_WORD,   /* a word: literal, unless the lines of its group disagree */
} FragKind;

/* A line's shape while it is being built: fragments of regex source, one after another in
 * @text, each ended by a nul. Reused from line to line, so shaping allocates nothing. */
typedef struct
{
  GString *text;
  GArray  *offsets; /* guint */
  GArray  *kinds;   /* guint8 FragKind */
  GString *key;
} Shaper;

static gboolean
is_word_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '%' || c == '+' || c == '-';
}

static void
append_escaped_char (GString *out,
                     char     c)
{
  if (strchr ("\\^$.|?*+()[]{}", c) != NULL)
    g_string_append_c (out, '\\');
  g_string_append_c (out, c);
}

static void
shaper_begin (Shaper *s)
{
  g_string_truncate (s->text, 0);
  g_array_set_size (s->offsets, 0);
  g_array_set_size (s->kinds, 0);
  g_string_truncate (s->key, 0);
}

static void
shaper_start_frag (Shaper   *s,
                   FragKind  kind)
{
  guint offset = s->text->len;
  guint8 k = kind;

  g_array_append_val (s->offsets, offset);
  g_array_append_val (s->kinds, k);
}

static void
shaper_end_frag (Shaper *s)
{
  g_string_append_c (s->text, '\0');
}

static void
shaper_add (Shaper     *s,
            FragKind    kind,
            const char *regex)
{
  shaper_start_frag (s, kind);
  g_string_append (s->text, regex);
  shaper_end_frag (s);
}

static const char *
frag_at (Shaper *s,
         guint   index)
{
  return s->text->str + g_array_index (s->offsets, guint, index);
}

/* A whitespace-delimited token that names a file or URL: it has a slash and a letter. */
static gboolean
is_path_token (const char *p,
               const char *end)
{
  gboolean slash = FALSE;
  gboolean letter = FALSE;

  for (; p < end && *p != ' ' && *p != '\t'; p++)
    {
      slash |= *p == '/';
      letter |= g_ascii_isalpha (*p);
    }
  return slash && letter;
}

/* A number with an optional unit: 3, 0.69s, 1.03G, 100%, 12ms. */
static gboolean
is_number_word (const char *p,
                gsize       len)
{
  gsize i = 0;
  gsize letters = 0;

  if (len == 0 || !g_ascii_isdigit (p[0]))
    return FALSE;
  while (i < len && (g_ascii_isdigit (p[i]) || p[i] == '.' || p[i] == ','))
    i++;
  while (i < len && (g_ascii_isalpha (p[i]) || p[i] == '%'))
    i++, letters++;
  if (i < len && p[i] == '.')
    i++;
  return i == len && letters <= 4;
}

static gboolean
is_hex_run (const char *p,
            gsize       len)
{
  gboolean digit = FALSE;
  gboolean letter = FALSE;

  if (len < 7)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      digit |= g_ascii_isdigit (p[i]);
      letter |= g_ascii_isalpha (p[i]);
    }
  return digit && letter;
}

/* A word's shape: hashes and digit runs become classes, runs of one symbol (`...`) one item. */
static void
append_word_shape (GString    *out,
                   const char *p,
                   gsize       len)
{
  gsize i = 0;

  while (i < len)
    {
      if (g_ascii_isxdigit (p[i]))
        {
          gsize j = i;

          while (j < len && g_ascii_isxdigit (p[j]))
            j++;
          if ((i == 0 || !g_ascii_isalnum (p[i - 1])) && (j == len || !g_ascii_isalnum (p[j])) &&
              is_hex_run (p + i, j - i))
            {
              g_string_append (out, "[0-9a-f]+");
              i = j;
              continue;
            }
        }
      if (g_ascii_isdigit (p[i]))
        {
          while (i < len && g_ascii_isdigit (p[i]))
            i++;
          g_string_append (out, "\\d+");
          continue;
        }
      if (!g_ascii_isalnum (p[i]) && i + 1 < len && p[i + 1] == p[i])
        {
          char c = p[i];

          while (i < len && p[i] == c)
            i++;
          append_escaped_char (out, c);
          g_string_append_c (out, '+');
          continue;
        }
      append_escaped_char (out, p[i]);
      i++;
    }
}

/* Where a quoted name that starts at @p ends (just past the closing quote), or NULL. */
static const char *
quoted_end (const char  *p,
            const char  *end,
            const char **regex)
{
  static const struct { const char *open, *close, *regex; } quotes[] = {
    { "'", "'", "'[^']*'" },
    { "\"", "\"", "\"[^\"]*\"" },
    { "`", "`", "`[^`]*`" },
    { "‘", "’", "‘.*?’" },
    { "“", "”", "“.*?”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (quotes); i++)
    {
      gsize olen = strlen (quotes[i].open);
      const char *close;

      if ((gsize) (end - p) < olen || memcmp (p, quotes[i].open, olen) != 0)
        continue;
      close = g_strstr_len (p + olen, end - p - olen, quotes[i].close);
      if (close == NULL)
        return NULL;
      *regex = quotes[i].regex;
      return close + strlen (quotes[i].close);
    }
  return NULL;
}

/* Builds the shape of @line into @s: fragments of regex source and a grouping key made of
 * the fixed parts, the classes and the first two words (later words only say "a word"). */
static void
shape_line (Shaper     *s,
            const char *line,
            gsize       len)
{
  const char *p = line;
  const char *end = line + len;
  guint n_words = 0;
  gboolean token_start = TRUE;

  shaper_begin (s);

  while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
    end--;

  while (p < end)
    {
      const char *quote_regex = NULL;
      const char *q;
      guchar c = *p;

      if (c == ' ' || c == '\t')
        {
          const char *r = p;

          while (r < end && (*r == ' ' || *r == '\t'))
            r++;
          /* padding inside brackets is part of the bracket: [  5%] and [100%] are alike */
          if (r < end && *r != ']' && *r != ')')
            shaper_add (s, FRAG_FIXED, "\\s+");
          p = r;
          token_start = TRUE;
          continue;
        }

      if (token_start && is_path_token (p, end))
        {
          while (p < end && *p != ' ' && *p != '\t')
            p++;
          shaper_add (s, FRAG_CLASS, "\\S+");
          token_start = FALSE;
          continue;
        }
      token_start = FALSE;

      if ((p == line || !is_word_char (p[-1])) && (q = quoted_end (p, end, &quote_regex)) != NULL)
        {
          shaper_add (s, FRAG_CLASS, quote_regex);
          p = q;
          continue;
        }

      if (c == '[' || c == '(')
        {
          shaper_add (s, FRAG_FIXED, c == '[' ? "\\[\\s*" : "\\(\\s*");
          p++;
          while (p < end && (*p == ' ' || *p == '\t'))
            p++;
          continue;
        }
      if (c == ']' || c == ')')
        {
          shaper_add (s, FRAG_FIXED, c == ']' ? "\\s*\\]" : "\\s*\\)");
          p++;
          continue;
        }

      if (is_word_char (c))
        {
          const char *w = p;

          while (p < end && is_word_char (*p))
            p++;
          if (is_number_word (w, p - w))
            {
              gboolean digits = TRUE;

              for (const char *d = w; d < p; d++)
                digits &= g_ascii_isdigit (*d);
              /* a count or an index; else a measure with a unit (0.69s, 1.03G, 100%) */
              if (digits)
                shaper_add (s, FRAG_CLASS, "\\d+");
              else
                shaper_add (s, FRAG_CLASS, p[-1] == '.' ? "\\d[\\d.,]*[a-z%]*\\." : "\\d[\\d.,]*[a-z%]*");
            }
          else
            {
              shaper_start_frag (s, FRAG_WORD);
              append_word_shape (s->text, w, p - w);
              shaper_end_frag (s);
              n_words++;
            }
          continue;
        }

      /* punctuation: one character (or a run of the same one), non-ASCII kept whole */
      {
        const char *next = c < 0x80 ? p + 1 : g_utf8_find_next_char (p, end);
        gsize clen;
        gboolean run = FALSE;

        if (next == NULL)
          next = end;
        clen = next - p;
        shaper_start_frag (s, FRAG_FIXED);
        if (clen == 1)
          append_escaped_char (s->text, c);
        else
          g_string_append_len (s->text, p, clen);
        while ((gsize) (end - next) >= clen && memcmp (next, p, clen) == 0)
          next += clen, run = TRUE;
        if (run)
          {
            if (clen > 1)
              {
                /* (?:…)+ for a multi-byte character */
                g_string_insert (s->text, g_array_index (s->offsets, guint, s->offsets->len - 1),
                                 "(?:");
                g_string_append (s->text, ")");
              }
            g_string_append_c (s->text, '+');
          }
        shaper_end_frag (s);
        p = next;
      }
    }

  /* the key: every fragment but the words after the second, which only count as words */
  n_words = 0;
  for (guint i = 0; i < s->offsets->len; i++)
    {
      guint8 kind = g_array_index (s->kinds, guint8, i);

      if (kind == FRAG_WORD && n_words++ >= 2)
        g_string_append (s->key, "\x01W");
      else
        g_string_append (s->key, frag_at (s, i));
      g_string_append_c (s->key, '\x02');
    }
}

/* The regex of a single line's shape, every word literal. */
static char *
shaper_dup_regex (Shaper *s)
{
  GString *out = g_string_new ("^");

  for (guint i = 0; i < s->offsets->len; i++)
    g_string_append (out, frag_at (s, i));
  g_string_append (out, "\\s*$");
  return g_string_free (out, FALSE);
}

/* ---- groups of lines with one shape ------------------------------------------------------ */

typedef struct
{
  char      **frags;        /* the first line's fragments */
  guint8     *kinds;
  gboolean   *varies;       /* per fragment: the lines disagree on this word */
  guint       n_frags;
  guint       count;
  guint       n_noise;
  guint       noise_kinds[N_KINDS];
  guint      *per_sample;
  guint       n_samples_with;
  GHashTable *distinct;     /* hashes of the trimmed lines */
  char       *example;
  guint       order;        /* when it was first seen: keeps the draft deterministic */
} Group;

static void
group_free (Group *g)
{
  for (guint i = 0; i < g->n_frags; i++)
    g_free (g->frags[i]);
  g_free (g->frags);
  g_free (g->kinds);
  g_free (g->varies);
  g_free (g->per_sample);
  g_hash_table_unref (g->distinct);
  g_free (g->example);
  g_free (g);
}

static char *
group_dup_regex (Group *g)
{
  GString *out = g_string_new ("^");

  for (guint i = 0; i < g->n_frags; i++)
    g_string_append (out, g->varies[i] ? "[\\w.%+-]+" : g->frags[i]);
  g_string_append (out, "\\s*$");
  return g_string_free (out, FALSE);
}

static guint
trimmed_hash (const char *line,
              gsize       len)
{
  guint h = 5381;
  gsize start = 0;

  while (start < len && g_ascii_isspace (line[start]))
    start++;
  while (len > start && g_ascii_isspace (line[len - 1]))
    len--;
  for (gsize i = start; i < len; i++)
    h = h * 33 + (guchar) line[i];
  return h;
}

/* ---- the learner ------------------------------------------------------------------------- */

typedef struct
{
  const char *text;
  guint32     len;
  guint8      role;
  gint8       index;  /* which known pattern gave the role */
  guint       summary; /* ROLE_SUMMARY: index into Learner.summaries */
} LineInfo;

typedef struct
{
  WinnowLearnSample *sample;
  char              *clean;
  gsize              clean_len;
  GArray            *lines; /* LineInfo */
} SampleData;

typedef struct
{
  const char *pattern;      /* borrowed from a table, or owned in Learner.learned */
  const char *reason;
  guint       lines;
  char       *example;
  gboolean    builtin;
} SummaryPattern;

static void
summary_pattern_free (SummaryPattern *sp)
{
  g_free (sp->example);
  g_free (sp);
}

typedef struct
{
  const WinnowLearnOptions *options;
  GPtrArray  *diagnostics;
  const char *filter_id;
  GArray     *samples;      /* SampleData */
  KnownSet    errors;
  KnownSet    summary_set;
  KnownSet    kinds;
  GHashTable *groups;       /* key → Group */
  GPtrArray  *summaries;    /* SummaryPattern*, in the order they are proposed */
  GPtrArray  *learned;      /* owned learned summary regexes */
  GHashTable *summary_lines; /* distinct summary line text → GUINT summary index + 1 */
  guint       n_blank;
  char       *blank_example;
  guint       n_error_lines;
} Learner;

static void
sample_data_clear (SampleData *data)
{
  g_clear_pointer (&data->clean, g_free);
  g_clear_pointer (&data->lines, g_array_unref);
}

static void
learner_diagnostic (Learner               *learner,
                    WinnowDiagnosticLevel  level,
                    const char            *file,
                    const char            *json_path,
                    const char            *message)
{
  if (learner->diagnostics == NULL)
    return;
  g_ptr_array_add (learner->diagnostics,
                   winnow_diagnostic_new (level, DIAGNOSTIC_SOURCE, file, learner->filter_id,
                                          json_path, 0, 0, message));
}

/* The sample as the draft will see it: escapes and redrawn progress frames removed by the
 * engine's own stripAnsi stage, so that what is learned is what will be matched. */
static char *
clean_sample (WinnowFilter *cleaner,
              const char   *data,
              gsize         len,
              gsize        *out_len)
{
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowRtkOptions options;
  const char *text;

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (cleaner, data, len, &options);
  text = winnow_rtk_result_get_text (result, out_len);
  return g_strndup (text, *out_len);
}

static WinnowFilter *
parse_filter (JsonNode   *node,
              GPtrArray  *diagnostics,
              GError    **error)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);
  WinnowFilter *filter;

  filter = winnow_filter_new_from_json (node, WINNOW_FILTER_SOURCE_FILE, NULL, NULL,
                                        WINNOW_FILTER_PARSE_DEFAULT, found);
  if (filter == NULL || winnow_diagnostics_count_level (found, WINNOW_DIAGNOSTIC_ERROR) > 0)
    {
      g_autoptr(GString) why = g_string_new (NULL);

      for (guint i = 0; i < found->len; i++)
        {
          g_autofree char *line = winnow_diagnostic_to_string (g_ptr_array_index (found, i));
          g_string_append_printf (why, "%s%s", i > 0 ? "; " : "", line);
        }
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_FILTER,
                   "the draft filter does not load: %s", why->str);
      g_clear_object (&filter);
      return NULL;
    }

  if (diagnostics != NULL)
    for (guint i = 0; i < found->len; i++)
      g_ptr_array_add (diagnostics, g_object_ref (g_ptr_array_index (found, i)));
  return filter;
}

static gboolean
check_sample (Learner            *learner,
              WinnowLearnSample  *sample,
              GError            **error)
{
  gsize len;
  const char *data = g_bytes_get_data (sample->data, &len);
  const char *bad = NULL;

  if (learner->options->max_sample_bytes > 0 && len > learner->options->max_sample_bytes)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   "%s: %" G_GSIZE_FORMAT " bytes, more than the %" G_GSIZE_FORMAT
                   " bytes a sample may have", sample->name, len,
                   learner->options->max_sample_bytes);
      return FALSE;
    }
  if (len > 0 && memchr (data, '\0', len) != NULL)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_UTF8,
                   "%s: binary data (a NUL byte at offset %" G_GSIZE_FORMAT "), not command "
                   "output", sample->name, (gsize) ((const char *) memchr (data, '\0', len) - data));
      return FALSE;
    }
  if (!_winnow_utf8_validate (data, len, &bad))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_UTF8,
                   "%s: not valid UTF-8 (at byte %" G_GSIZE_FORMAT "); filters only handle "
                   "text, and a filter's tests[] cannot hold these bytes", sample->name,
                   (gsize) (bad - data));
      return FALSE;
    }
  return TRUE;
}

static void
split_sample (SampleData *data)
{
  const char *p = data->clean;
  const char *end = data->clean + data->clean_len;

  data->lines = g_array_new (FALSE, TRUE, sizeof (LineInfo));
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *stop = nl ? nl : end;
      LineInfo info = { 0 };

      if (stop > p && stop[-1] == '\r')
        stop--;
      info.text = p;
      info.len = stop - p;
      g_array_append_val (data->lines, info);
      if (nl == NULL)
        break;
      p = nl + 1;
    }
}

static gboolean
is_blank_line (const char *text,
               gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

static guint
add_summary (Learner    *learner,
             const char *pattern,
             const char *reason,
             gboolean    builtin)
{
  SummaryPattern *sp;

  for (guint i = 0; i < learner->summaries->len; i++)
    {
      sp = g_ptr_array_index (learner->summaries, i);
      if (strcmp (sp->pattern, pattern) == 0)
        return i;
    }

  sp = g_new0 (SummaryPattern, 1);
  sp->pattern = pattern;
  sp->reason = reason;
  sp->builtin = builtin;
  g_ptr_array_add (learner->summaries, sp);
  return learner->summaries->len - 1;
}

static void
note_summary_line (Learner  *learner,
                   LineInfo *info,
                   guint     summary)
{
  SummaryPattern *sp = g_ptr_array_index (learner->summaries, summary);
  char *text = g_strndup (info->text, info->len);

  info->role = ROLE_SUMMARY;
  info->summary = summary;
  sp->lines++;
  if (sp->example == NULL)
    sp->example = g_strdup (text);
  if (!g_hash_table_contains (learner->summary_lines, text))
    g_hash_table_insert (learner->summary_lines, text, GUINT_TO_POINTER (summary + 1));
  else
    g_free (text);
}

/* Gives each line its role; the built-in summary patterns are added to the proposal in
 * table order first, so that the one with a capture group comes first. */
static void
classify (Learner *learner)
{
  Shaper shaper = {
    g_string_new (NULL), g_array_new (FALSE, FALSE, sizeof (guint)),
    g_array_new (FALSE, FALSE, sizeof (guint8)), g_string_new (NULL)
  };

  for (guint s = 0; s < learner->samples->len; s++)
    {
      SampleData *data = &g_array_index (learner->samples, SampleData, s);

      for (guint i = 0; i < data->lines->len; i++)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);
          int k;

          if (is_blank_line (info->text, info->len))
            {
              info->role = ROLE_BLANK;
              continue;
            }
          if ((k = known_set_match (&learner->errors, info->text, info->len)) >= 0)
            {
              info->role = ROLE_ERROR;
              info->index = k;
              known_set_count (&learner->errors, k, info->text, info->len);
              learner->n_error_lines++;
              continue;
            }
          if ((k = known_set_match (&learner->summary_set, info->text, info->len)) >= 0)
            {
              info->role = ROLE_SUMMARY;
              info->index = k;
              known_set_count (&learner->summary_set, k, info->text, info->len);
              continue;
            }
          if ((k = known_set_match (&learner->kinds, info->text, info->len)) >= 0)
            {
              info->role = ROLE_NOISE;
              info->index = k;
              continue;
            }
        }
    }

  for (guint k = 0; k < learner->summary_set.n; k++)
    if (learner->summary_set.hits[k] > 0)
      add_summary (learner, summary_shapes[k].pattern, summary_shapes[k].reason, TRUE);

  for (guint s = 0; s < learner->samples->len; s++)
    {
      SampleData *data = &g_array_index (learner->samples, SampleData, s);

      for (guint i = 0; i < data->lines->len; i++)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);

          if (info->role == ROLE_SUMMARY)
            note_summary_line (learner, info,
                               add_summary (learner, summary_shapes[info->index].pattern,
                                            NULL, TRUE));
        }

      /* the last line is where a tool prints its verdict */
      for (guint i = data->lines->len; i-- > 0;)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);
          char *regex;

          if (info->role == ROLE_BLANK)
            continue;
          if (info->role == ROLE_ERROR || info->role == ROLE_SUMMARY)
            break;

          shape_line (&shaper, info->text, info->len);
          regex = shaper_dup_regex (&shaper);
          if (strlen (regex) > MAX_SHAPE_REGEX)
            {
              g_free (regex);
              break;
            }
          g_ptr_array_add (learner->learned, regex);
          note_summary_line (learner, info,
                             add_summary (learner, regex, "the last line of a sample, where "
                                          "tools print their verdict", FALSE));
          break;
        }
    }

  g_string_free (shaper.text, TRUE);
  g_array_unref (shaper.offsets);
  g_array_unref (shaper.kinds);
  g_string_free (shaper.key, TRUE);
}

static void
build_groups (Learner *learner)
{
  Shaper shaper = {
    g_string_new (NULL), g_array_new (FALSE, FALSE, sizeof (guint)),
    g_array_new (FALSE, FALSE, sizeof (guint8)), g_string_new (NULL)
  };
  guint n_samples = learner->samples->len;

  for (guint s = 0; s < n_samples; s++)
    {
      SampleData *data = &g_array_index (learner->samples, SampleData, s);

      for (guint i = 0; i < data->lines->len; i++)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);
          Group *g;

          if (info->role == ROLE_BLANK)
            {
              if (learner->n_blank++ == 0)
                learner->blank_example = g_strndup (info->text, info->len);
              continue;
            }
          if (info->role != ROLE_OTHER && info->role != ROLE_NOISE)
            continue;

          shape_line (&shaper, info->text, info->len);
          if (shaper.offsets->len == 0)
            continue;

          g = g_hash_table_lookup (learner->groups, shaper.key->str);
          if (g == NULL)
            {
              g = g_new0 (Group, 1);
              g->n_frags = shaper.offsets->len;
              g->frags = g_new0 (char *, g->n_frags);
              g->kinds = g_new0 (guint8, g->n_frags);
              g->varies = g_new0 (gboolean, g->n_frags);
              for (guint f = 0; f < g->n_frags; f++)
                {
                  g->frags[f] = g_strdup (frag_at (&shaper, f));
                  g->kinds[f] = g_array_index (shaper.kinds, guint8, f);
                }
              g->per_sample = g_new0 (guint, n_samples);
              g->distinct = g_hash_table_new (NULL, NULL);
              g->example = g_strndup (info->text, info->len);
              g->order = g_hash_table_size (learner->groups);
              g_hash_table_insert (learner->groups, g_strdup (shaper.key->str), g);
            }
          else
            {
              for (guint f = 0; f < g->n_frags; f++)
                if (g->kinds[f] == FRAG_WORD && !g->varies[f] &&
                    strcmp (g->frags[f], frag_at (&shaper, f)) != 0)
                  g->varies[f] = TRUE;
            }

          g->count++;
          if (g->per_sample[s]++ == 0)
            g->n_samples_with++;
          if (info->role == ROLE_NOISE)
            {
              g->n_noise++;
              g->noise_kinds[info->index]++;
            }
          g_hash_table_add (g->distinct,
                            GUINT_TO_POINTER (trimmed_hash (info->text, info->len) | 1));
        }
    }

  g_string_free (shaper.text, TRUE);
  g_array_unref (shaper.offsets);
  g_array_unref (shaper.kinds);
  g_string_free (shaper.key, TRUE);
}

typedef struct
{
  const char *line;
  guint       summary;
} SummaryHit;

/* The summary patterns whose lines @regex matches, as a sorted array of indices. */
static GArray *
summary_hits (Learner     *learner,
              WinnowRegex *regex)
{
  GArray *hits = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, learner->summary_lines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (winnow_regex_test (regex, key, strlen (key)) != WINNOW_REGEX_NO_MATCH)
      {
        guint index = GPOINTER_TO_UINT (value) - 1;
        gboolean seen = FALSE;

        for (guint i = 0; i < hits->len; i++)
          seen |= g_array_index (hits, guint, i) == index;
        if (!seen)
          g_array_append_val (hits, index);
      }

  for (guint i = 1; i < hits->len; i++)
    for (guint j = i; j > 0 && g_array_index (hits, guint, j - 1) > g_array_index (hits, guint, j); j--)
      {
        guint t = g_array_index (hits, guint, j);
        g_array_index (hits, guint, j) = g_array_index (hits, guint, j - 1);
        g_array_index (hits, guint, j - 1) = t;
      }
  return hits;
}

/* @regex, made safe for every summary line: NULL if it cannot be. A pattern that would
 * remove a summary line gets a negative lookahead for the summary patterns it hit. */
static char *
make_safe (Learner    *learner,
           const char *regex,
           const char *field,
           const char *example)
{
  g_autoptr(WinnowRegex) compiled = NULL;
  g_autoptr(WinnowRegex) guarded = NULL;
  g_autoptr(GArray) hits = NULL;
  g_autoptr(GArray) left = NULL;
  g_autoptr(GString) out = NULL;

  compiled = winnow_regex_new (regex, "i", WINNOW_REGEX_OPTIMIZE, NULL);
  if (compiled == NULL)
    return NULL;
  hits = summary_hits (learner, compiled);
  if (hits->len == 0)
    return g_strdup (regex);

  out = g_string_new ("^");
  for (guint i = 0; i < hits->len; i++)
    {
      SummaryPattern *sp = g_ptr_array_index (learner->summaries, g_array_index (hits, guint, i));
      g_string_append_printf (out, "(?!.*?(?:%s))", sp->pattern);
    }
  g_assert (regex[0] == '^');
  g_string_append (out, regex + 1);

  guarded = winnow_regex_new (out->str, "i", WINNOW_REGEX_OPTIMIZE, NULL);
  if (guarded != NULL)
    left = summary_hits (learner, guarded);
  if (guarded == NULL || left->len > 0)
    {
      g_autofree char *message =
        g_strdup_printf ("not proposed: %s would also remove summary lines (e.g. “%s”)",
                         regex, example ? example : "");
      learner_diagnostic (learner, WINNOW_DIAGNOSTIC_INFO, NULL, field, message);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gint
compare_group_order (gconstpointer a,
                     gconstpointer b)
{
  const Group *ga = *(Group * const *) a;
  const Group *gb = *(Group * const *) b;

  return (ga->order > gb->order) - (ga->order < gb->order);
}

static Kind
main_kind (Group *g)
{
  Kind best = 0;

  for (guint k = 1; k < N_KINDS; k++)
    if (g->noise_kinds[k] > g->noise_kinds[best])
      best = k;
  return best;
}

typedef struct
{
  GPtrArray *drop;      /* char* */
  GPtrArray *collapse;  /* char* */
} Proposed;

static void
propose_line_patterns (Learner   *learner,
                       Proposed  *proposed,
                       GPtrArray *proposals)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  guint min_repeats = MAX (2, learner->options->min_repeats);
  guint collapse_min = MAX (2, learner->options->collapse_min);

  if (learner->n_blank > 0)
    {
      g_ptr_array_add (proposed->drop, g_strdup ("^\\s*$"));
      add_proposal (proposals, "rules.dropPatterns", "^\\s*$", "blank lines",
                    learner->n_blank, learner->blank_example);
    }

  g_hash_table_iter_init (&iter, learner->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (groups, value);
  g_ptr_array_sort (groups, compare_group_order);

  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = g_ptr_array_index (groups, i);
      g_autofree char *regex = NULL;
      g_autofree char *safe = NULL;
      guint max_per_sample = 0;
      gboolean noise;
      gboolean repeats;
      guint distinct;

      for (guint s = 0; s < learner->samples->len; s++)
        max_per_sample = MAX (max_per_sample, g->per_sample[s]);

      noise = g->n_noise * 10 >= g->count * 9;
      repeats = g->count >= min_repeats && (max_per_sample >= 2 || g->n_samples_with >= 3);
      distinct = g_hash_table_size (g->distinct);

      regex = group_dup_regex (g);
      if (strlen (regex) > MAX_SHAPE_REGEX)
        continue;

      if (noise && repeats)
        {
          g_autofree char *reason = NULL;

          safe = make_safe (learner, regex, "rules.dropPatterns", g->example);
          if (safe == NULL)
            continue;
          reason = g_strdup_printf ("%s, a shape that repeats (in %u sample%s)",
                                    noise_kinds[main_kind (g)].reason,
                                    g->n_samples_with, g->n_samples_with == 1 ? "" : "s");
          add_proposal (proposals, "rules.dropPatterns", safe, reason, g->count, g->example);
          g_ptr_array_add (proposed->drop, g_steal_pointer (&safe));
        }
      else if (g->count >= collapse_min && distinct * 2 <= g->count)
        {
          g_autofree char *reason = NULL;

          safe = make_safe (learner, regex, "rules.collapsePatterns", g->example);
          if (safe == NULL)
            continue;
          reason = g_strdup_printf ("only %u different lines of this shape: the first of "
                                    "each is kept", distinct);
          add_proposal (proposals, "rules.collapsePatterns", safe, reason, g->count, g->example);
          g_ptr_array_add (proposed->collapse, g_steal_pointer (&safe));
        }
    }
}

/* ---- naming and matching ----------------------------------------------------------------- */

/* The command's first words — the tool and, when it has one, its subcommand — as plain
 * words; options, paths and arguments after them say nothing about the output's shape. */
static GPtrArray *
command_words (const char *command)
{
  g_autofree char *normal = NULL;
  g_auto(GStrv) words = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  if (command == NULL)
    return out;
  normal = winnow_command_normalize (command);
  if (normal == NULL)
    return out;
  words = g_strsplit_set (g_strstrip (normal), " \t", -1);

  for (guint i = 0; words[i] != NULL && out->len < 2; i++)
    {
      const char *word = words[i];
      gboolean plain = word[0] != '\0';

      if (word[0] == '\0')
        continue;
      if (out->len == 0 && strchr (word, '=') != NULL)
        continue; /* an environment assignment */
      if (out->len == 0 && strchr (word, '/') != NULL)
        word = strrchr (word, '/') + 1;
      for (const char *p = word; *p != '\0'; p++)
        plain &= g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '+' || *p == '-';
      if (!plain || word[0] == '-' || word[0] == '\0' ||
          (out->len > 0 && !g_ascii_isalpha (word[0])))
        break;
      g_ptr_array_add (out, g_strdup (word));
    }
  return out;
}

static char *
command_regex (GPtrArray *words)
{
  GString *out = g_string_new ("^");

  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);

      if (i > 0)
        g_string_append (out, "\\s+");
      for (const char *p = word; *p != '\0'; p++)
        append_escaped_char (out, *p);
    }
  g_string_append (out, "\\b");
  return g_string_free (out, FALSE);
}

static char *
slug (GPtrArray *words)
{
  GString *out = g_string_new ("learned");

  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);

      g_string_append_c (out, '-');
      for (const char *p = word; *p != '\0'; p++)
        g_string_append_c (out, g_ascii_isalnum (*p) ? g_ascii_tolower (*p) : '-');
    }
  if (words->len == 0)
    g_string_append (out, "-filter");
  return g_string_free (out, FALSE);
}

static gboolean
is_known_category (const char *category)
{
  static const char * const known[] = {
    "git", "test", "build", "lint", "package", "shell", "docker", "infra", "cloud", "network",
    "runtime", "generic", NULL
  };

  return category != NULL && g_strv_contains (known, category);
}

/* ---- the draft --------------------------------------------------------------------------- */

struct _WinnowLearnDraft
{
  GObject       parent_instance;
  char         *command;
  char         *json;
  WinnowFilter *filter;
  GPtrArray    *samples;    /* WinnowLearnSample*, with figures */
  GPtrArray    *proposals;  /* WinnowLearnProposal* */
};

G_DEFINE_FINAL_TYPE (WinnowLearnDraft, winnow_learn_draft, G_TYPE_OBJECT)

static void
winnow_learn_draft_finalize (GObject *object)
{
  WinnowLearnDraft *self = (WinnowLearnDraft *)object;

  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->json, g_free);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->samples, g_ptr_array_unref);
  g_clear_pointer (&self->proposals, g_ptr_array_unref);

  G_OBJECT_CLASS (winnow_learn_draft_parent_class)->finalize (object);
}

static void
winnow_learn_draft_class_init (WinnowLearnDraftClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_learn_draft_finalize;
}

static void
winnow_learn_draft_init (WinnowLearnDraft *self)
{
  self->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  self->proposals = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_proposal_free);
}

static void
add_string_array (JsonBuilder *builder,
                  const char  *name,
                  GPtrArray   *strings)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
}

static void
add_member (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

typedef struct
{
  const char *id;
  const char *label;
  const char *description;
  const char *category;
  GPtrArray  *output_types;
  GPtrArray  *commands;
  GPtrArray  *drop;
  GPtrArray  *collapse;
  GPtrArray  *errors;
  GPtrArray  *summaries;
  const char *shortcut_pattern;  /* nullable */
  const char *shortcut_message;
  const char *shortcut_unless;
  const char *command;
  GPtrArray  *test_names;        /* nullable: no tests yet */
  GPtrArray  *test_inputs;
  GPtrArray  *test_expected;
} Draft;

static JsonNode *
draft_to_node (const Draft *d)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  add_member (builder, "id", d->id);
  add_member (builder, "label", d->label);
  add_member (builder, "description", d->description);
  add_member (builder, "category", d->category);
  json_builder_set_member_name (builder, "priority");
  json_builder_add_int_value (builder, LEARNED_PRIORITY);

  json_builder_set_member_name (builder, "match");
  json_builder_begin_object (builder);
  add_string_array (builder, "outputTypes", d->output_types);
  add_string_array (builder, "commands", d->commands);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "rules");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "stripAnsi");
  json_builder_add_boolean_value (builder, TRUE);
  if (d->shortcut_pattern != NULL)
    {
      json_builder_set_member_name (builder, "matchOutput");
      json_builder_begin_array (builder);
      json_builder_begin_object (builder);
      add_member (builder, "pattern", d->shortcut_pattern);
      add_member (builder, "message", d->shortcut_message);
      add_member (builder, "unless", d->shortcut_unless);
      json_builder_end_object (builder);
      json_builder_end_array (builder);
    }
  add_string_array (builder, "dropPatterns", d->drop);
  add_string_array (builder, "collapsePatterns", d->collapse);
  json_builder_set_member_name (builder, "deduplicate");
  json_builder_add_boolean_value (builder, TRUE);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "preserve");
  json_builder_begin_object (builder);
  add_string_array (builder, "errorPatterns", d->errors);
  add_string_array (builder, "summaryPatterns", d->summaries);
  json_builder_end_object (builder);

  if (d->test_names != NULL)
    {
      json_builder_set_member_name (builder, "tests");
      json_builder_begin_array (builder);
      for (guint i = 0; i < d->test_names->len; i++)
        {
          json_builder_begin_object (builder);
          add_member (builder, "name", g_ptr_array_index (d->test_names, i));
          if (d->command != NULL)
            add_member (builder, "command", d->command);
          add_member (builder, "input", g_ptr_array_index (d->test_inputs, i));
          add_member (builder, "expected", g_ptr_array_index (d->test_expected, i));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static guint
count_lines (const char *text,
             gsize       len)
{
  guint n = 0;

  if (len == 0)
    return 0;
  for (gsize i = 0; i < len; i++)
    n += text[i] == '\n';
  return text[len - 1] == '\n' ? n : n + 1;
}

/* Runs @filter as the verify gate does: alone, no engine limits. */
static WinnowRtkResult *
run_as_verify (WinnowFilter *filter,
               const char   *text,
               gsize         len)
{
  WinnowRtkOptions options;

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  return winnow_rtk_apply (filter, text, len, &options);
}

/* The test input for a sample: all of it, or its first lines up to the byte limit. */
static char *
test_input (const char *data,
            gsize       len,
            gsize       limit,
            gboolean   *cut)
{
  const char *nl;

  *cut = FALSE;
  if (limit == 0 || len <= limit)
    return g_strndup (data, len);

  nl = g_strrstr_len (data, limit, "\n");
  *cut = TRUE;
  if (nl == NULL)
    {
      /* one enormous line: cut it at a character boundary */
      const char *end = g_utf8_find_prev_char (data, data + limit);
      return g_strndup (data, end ? end - data : 0);
    }
  return g_strndup (data, nl + 1 - data);
}

static char *
literal_line_regex (const char *line)
{
  GString *out = g_string_new ("^");

  for (const char *p = line; *p != '\0'; p++)
    append_escaped_char (out, *p);
  g_string_append (out, "$");
  return g_string_free (out, FALSE);
}

/**
 * winnow_learn_filter:
 * @command: (nullable): the command that produced the samples, e.g. "pytest -v"; it names
 *   the draft and fills `match.commands`
 * @samples: (element-type WinnowLearnSample): one or more samples of its output; their
 *   figures are not touched (the draft holds copies with figures)
 * @options: (nullable): #WinnowLearnOptions, or %NULL for the defaults
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): where to add notes (a skipped
 *   empty sample, a pattern not proposed because it would remove a summary line)
 * @error: return location for an error: no sample with content, a sample that is binary,
 *   not UTF-8 or too large
 *
 * Drafts a filter from @samples (see the top of winnow-learn.c for how). The result holds the
 * filter as canonical JSON — what an editor shows and a user saves — and parsed; its
 * `tests[]` are the samples with what the draft makes of them. Pure: no I/O, safe on any
 * thread.
 *
 * Returns: (transfer full): the draft, or %NULL with @error set
 */
WinnowLearnDraft *
winnow_learn_filter (const char               *command,
                     GPtrArray                *samples,
                     const WinnowLearnOptions *options,
                     GPtrArray                *diagnostics,
                     GError                  **error)
{
  g_autoptr(WinnowLearnDraft) self = NULL;
  g_autoptr(WinnowFilter) cleaner = NULL;
  g_autoptr(WinnowFilter) filter = NULL;
  g_autoptr(WinnowDetector) detector = NULL;
  g_autoptr(GPtrArray) words = NULL;
  g_autoptr(GPtrArray) output_types = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) commands = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) errors = g_ptr_array_new ();
  g_autoptr(GPtrArray) summaries = g_ptr_array_new ();
  g_autoptr(GPtrArray) test_names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) test_inputs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) test_expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) outputs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *id = NULL;
  g_autofree char *label = NULL;
  g_autofree char *description = NULL;
  g_autofree char *shortcut_pattern = NULL;
  g_autofree char *shortcut_message = NULL;
  const char *category = NULL;
  WinnowLearnOptions defaults;
  Proposed proposed = { g_ptr_array_new_with_free_func (g_free),
                        g_ptr_array_new_with_free_func (g_free) };
  Learner learner = { 0 };
  gboolean all_clean_outputs = TRUE;
  gboolean ok = FALSE;
  Draft d = { 0 };

  g_return_val_if_fail (samples != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options == NULL)
    {
      winnow_learn_options_init (&defaults);
      options = &defaults;
    }

  words = command_words (command);
  id = g_strdup (options->id ? options->id : NULL);
  if (id == NULL)
    id = slug (words);
  if (options->label != NULL)
    label = g_strdup (options->label);
  else if (words->len > 0)
    {
      GString *str = g_string_new (NULL);

      for (guint i = 0; i < words->len; i++)
        g_string_append_printf (str, "%s%s", i > 0 ? " " : "",
                                (char *) g_ptr_array_index (words, i));
      label = g_strdup_printf ("%s (learned)", str->str);
      g_string_free (str, TRUE);
    }
  else
    label = g_strdup ("Learned filter");

  learner.options = options;
  learner.diagnostics = diagnostics;
  learner.filter_id = id;
  learner.samples = g_array_new (FALSE, TRUE, sizeof (SampleData));
  g_array_set_clear_func (learner.samples, (GDestroyNotify) sample_data_clear);
  learner.groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) group_free);
  learner.summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) summary_pattern_free);
  learner.learned = g_ptr_array_new_with_free_func (g_free);
  learner.summary_lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  known_set_init (&learner.errors, error_shapes, G_N_ELEMENTS (error_shapes), "i");
  known_set_init (&learner.summary_set, summary_shapes, G_N_ELEMENTS (summary_shapes), "i");
  known_set_init (&learner.kinds, noise_kinds, N_KINDS, "");

  self = g_object_new (WINNOW_TYPE_LEARN_DRAFT, NULL);
  self->command = g_strdup (command);

  /* 1. check and clean the samples */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();

    json_parser_load_from_data (parser, "{\"id\":\"learn-clean\",\"label\":\"clean\","
                                "\"category\":\"generic\",\"rules\":{\"stripAnsi\":true}}",
                                -1, NULL);
    cleaner = parse_filter (json_parser_get_root (parser), NULL, NULL);
    g_assert (cleaner != NULL);
  }

  for (guint i = 0; i < samples->len; i++)
    {
      WinnowLearnSample *sample = g_ptr_array_index (samples, i);
      SampleData data = { 0 };
      gsize len;
      const char *bytes;

      g_return_val_if_fail (sample != NULL && sample->data != NULL, NULL);

      if (!check_sample (&learner, sample, error))
        goto out;

      bytes = g_bytes_get_data (sample->data, &len);
      if (is_blank_line (bytes, len))
        {
          learner_diagnostic (&learner, WINNOW_DIAGNOSTIC_WARNING, sample->name, NULL,
                              "skipped: the sample is empty, there is nothing to learn from it");
          continue;
        }

      data.sample = winnow_learn_sample_copy (sample);
      g_ptr_array_add (self->samples, data.sample);
      data.clean = clean_sample (cleaner, bytes, len, &data.clean_len);
      split_sample (&data);
      g_array_append_val (learner.samples, data);
    }

  if (learner.samples->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   samples->len == 0 ? "no samples to learn from"
                                     : "every sample is empty: nothing to learn from");
      goto out;
    }

  /* 2. roles, shapes, patterns */
  classify (&learner);
  build_groups (&learner);
  propose_line_patterns (&learner, &proposed, self->proposals);

  for (guint k = 0; k < learner.errors.n; k++)
    if (k == 0 || learner.errors.hits[k] > 0)
      {
        g_ptr_array_add (errors, (gpointer) error_shapes[k].pattern);
        add_proposal (self->proposals, "preserve.errorPatterns", error_shapes[k].pattern,
                      k == 0 && learner.errors.hits[k] == 0
                        ? "the words the detector treats as errors (none in these samples; "
                          "kept for the runs that fail)"
                        : error_shapes[k].reason,
                      learner.errors.hits[k], learner.errors.example[k]);
      }
  for (guint k = 0; k < learner.summaries->len; k++)
    {
      SummaryPattern *sp = g_ptr_array_index (learner.summaries, k);

      g_ptr_array_add (summaries, (gpointer) sp->pattern);
      add_proposal (self->proposals, "preserve.summaryPatterns", sp->pattern, sp->reason,
                    sp->lines, sp->example);
    }

  /* 3. what selects the draft */
  if (words->len > 0)
    {
      g_autofree char *regex = command_regex (words);
      g_autofree char *reason = g_strdup_printf ("the first words of “%s”", command);

      g_ptr_array_add (commands, g_strdup (regex));
      add_proposal (self->proposals, "match.commands", regex, reason, 0, NULL);
    }

  detector = winnow_detector_new ();
  for (guint i = 0; i < learner.samples->len; i++)
    {
      SampleData *data = &g_array_index (learner.samples, SampleData, i);
      gsize len;
      const char *bytes = g_bytes_get_data (data->sample->data, &len);
      g_autoptr(WinnowDetection) detection = winnow_detector_detect (detector, bytes, len, command);
      const char *type = winnow_detection_get_output_type (detection);
      g_autofree char *reason = NULL;

      /* the generic types are fallbacks: claiming them would route everything here */
      if (winnow_detection_get_passthrough (detection) || g_str_has_prefix (type, "generic-"))
        continue;
      /* the table's string, which outlives the detection */
      if (category == NULL && is_known_category (winnow_detector_get_type_category (type)))
        category = winnow_detector_get_type_category (type);
      if (!g_ptr_array_find_with_equal_func (output_types, type, g_str_equal, NULL))
        {
          reason = g_strdup_printf ("the detector's classification of %s", data->sample->name);

          g_ptr_array_add (output_types, g_strdup (type));
          add_proposal (self->proposals, "match.outputTypes", type, reason, 0, NULL);
        }
    }
  if (category == NULL)
    category = "generic";

  description = g_strdup_printf ("Drafted by “winnow learn” from %u sample%s%s%s%s: drops %u "
                                 "noise line shapes, collapses %u, and keeps error and summary "
                                 "lines. Review the patterns before trusting it.",
                                 learner.samples->len, learner.samples->len == 1 ? "" : "s",
                                 command ? " of “" : "", command ? command : "",
                                 command ? "”" : "", proposed.drop->len, proposed.collapse->len);

  d = (Draft) {
    .id = id, .label = label, .description = description, .category = category,
    .output_types = output_types, .commands = commands, .drop = proposed.drop,
    .collapse = proposed.collapse, .errors = errors, .summaries = summaries,
    .command = command,
  };

  /* 4. run the draft on every sample */
  node = draft_to_node (&d);
  filter = parse_filter (node, NULL, error);
  if (filter == NULL)
    goto out;

  for (guint i = 0; i < learner.samples->len; i++)
    {
      SampleData *data = &g_array_index (learner.samples, SampleData, i);
      g_autoptr(WinnowRtkResult) result = NULL;
      const int *origins;
      guint n_out;
      gsize len;
      gsize out_len;
      const char *bytes = g_bytes_get_data (data->sample->data, &len);
      const char *text;

      result = run_as_verify (filter, bytes, len);
      text = winnow_rtk_result_get_text (result, &out_len);
      data->sample->lines_before = count_lines (data->clean, data->clean_len);
      data->sample->lines_after = count_lines (text, out_len);
      data->sample->tokens_before = winnow_tokens_count (bytes, len);
      data->sample->tokens_after = winnow_tokens_count (text, out_len);
      g_ptr_array_add (outputs, g_strndup (text, out_len));

      origins = winnow_rtk_result_get_line_origins (result, &n_out);
      for (guint k = 0; k < n_out; k++)
        all_clean_outputs &= origins[k] >= 0;
    }

  /* 5. a whole-output shortcut, when success looks the same every time: two or more samples,
   * no error line anywhere, and the draft makes every one of them the same few lines of
   * their own. The message is that very text, so the shortcut loses nothing the draft keeps;
   * it only makes the next run's unseen noise irrelevant. */
  if (learner.samples->len >= 2 && learner.n_error_lines == 0 && all_clean_outputs)
    {
      const char *first = g_ptr_array_index (outputs, 0);
      gboolean same = first[0] != '\0' && count_lines (first, strlen (first)) <= 3;

      for (guint i = 1; i < outputs->len && same; i++)
        same = strcmp (first, g_ptr_array_index (outputs, i)) == 0;

      if (same)
        {
          g_auto(GStrv) lines = g_strsplit (first, "\n", -1);
          GString *pattern = g_string_new (NULL);

          for (guint i = 0; lines[i] != NULL; i++)
            {
              g_autofree char *lit = NULL;

              if (lines[i][0] == '\0')
                continue;
              lit = literal_line_regex (lines[i]);
              g_string_append_printf (pattern, "%s%s", pattern->len > 0 ? "[\\s\\S]*" : "", lit);
            }
          shortcut_pattern = g_string_free (pattern, FALSE);
          shortcut_message = g_strdup (first);
          d.shortcut_pattern = shortcut_pattern;
          d.shortcut_message = shortcut_message;
          d.shortcut_unless = error_shapes[0].pattern;
          add_proposal (self->proposals, "rules.matchOutput", shortcut_pattern,
                        "every sample succeeds and comes out the same; the shortcut answers "
                        "with that text unless an error word appears",
                        learner.samples->len, first);
        }
    }

  /* 6. the tests: each sample with what the final draft makes of it */
  if (d.shortcut_pattern != NULL)
    {
      g_clear_pointer (&node, json_node_unref);
      g_clear_object (&filter);
      node = draft_to_node (&d);
      filter = parse_filter (node, NULL, error);
      if (filter == NULL)
        goto out;
    }

  for (guint i = 0; i < learner.samples->len; i++)
    {
      SampleData *data = &g_array_index (learner.samples, SampleData, i);
      g_autoptr(WinnowRtkResult) result = NULL;
      gsize len;
      const char *bytes = g_bytes_get_data (data->sample->data, &len);
      char *input = test_input (bytes, len, options->max_test_bytes, &data->sample->test_cut);

      result = run_as_verify (filter, input, -1);
      g_ptr_array_add (test_inputs, input);
      g_ptr_array_add (test_expected, g_strdup (winnow_rtk_result_get_text (result, NULL)));
      if (data->sample->test_cut)
        {
          g_autofree char *message =
            g_strdup_printf ("the test holds only the first %u of %u lines of this sample",
                             count_lines (input, strlen (input)), count_lines (bytes, len));

          g_ptr_array_add (test_names, g_strdup_printf ("%s (first part)", data->sample->name));
          learner_diagnostic (&learner, WINNOW_DIAGNOSTIC_INFO, data->sample->name, "tests",
                              message);
        }
      else
        g_ptr_array_add (test_names, g_strdup (data->sample->name));
    }

  d.test_names = test_names;
  d.test_inputs = test_inputs;
  d.test_expected = test_expected;
  g_clear_pointer (&node, json_node_unref);
  g_clear_object (&filter);
  node = draft_to_node (&d);
  self->filter = parse_filter (node, diagnostics, error);
  if (self->filter == NULL)
    goto out;
  self->json = winnow_filter_to_json (self->filter);
  ok = TRUE;

out:
  g_ptr_array_unref (learner.summaries);
  g_ptr_array_unref (learner.learned);
  g_hash_table_unref (learner.summary_lines);
  g_hash_table_unref (learner.groups);
  g_array_unref (learner.samples);
  g_free (learner.blank_example);
  known_set_clear (&learner.errors);
  known_set_clear (&learner.summary_set);
  known_set_clear (&learner.kinds);
  g_ptr_array_unref (proposed.drop);
  g_ptr_array_unref (proposed.collapse);

  return ok ? g_steal_pointer (&self) : NULL;
}

/* ---- async, for the dashboard ------------------------------------------------------------ */

typedef struct
{
  char               *command;
  GPtrArray          *samples;
  WinnowLearnOptions  options;
  char               *id;
  char               *label;
  GPtrArray          *diagnostics;
} LearnTask;

static void
learn_task_free (LearnTask *task)
{
  g_free (task->command);
  g_ptr_array_unref (task->samples);
  g_free (task->id);
  g_free (task->label);
  g_ptr_array_unref (task->diagnostics);
  g_free (task);
}

static void
learn_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  LearnTask *data = task_data;
  GError *error = NULL;
  WinnowLearnDraft *draft;

  draft = winnow_learn_filter (data->command, data->samples, &data->options, data->diagnostics,
                               &error);
  if (draft == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, draft, g_object_unref);
}

/**
 * winnow_learn_filter_async:
 * @command: (nullable): as for winnow_learn_filter()
 * @samples: (element-type WinnowLearnSample): as for winnow_learn_filter(); copied
 * @options: (nullable): as for winnow_learn_filter(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the calling thread's main context when the draft is ready
 * @user_data: data for @callback
 *
 * Runs winnow_learn_filter() in a worker thread on copies of its arguments.
 */
void
winnow_learn_filter_async (const char               *command,
                           GPtrArray                *samples,
                           const WinnowLearnOptions *options,
                           GCancellable             *cancellable,
                           GAsyncReadyCallback       callback,
                           gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;
  LearnTask *data;

  g_return_if_fail (samples != NULL);

  data = g_new0 (LearnTask, 1);
  data->command = g_strdup (command);
  data->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_learn_sample_free);
  for (guint i = 0; i < samples->len; i++)
    g_ptr_array_add (data->samples, winnow_learn_sample_copy (g_ptr_array_index (samples, i)));
  if (options != NULL)
    data->options = *options;
  else
    winnow_learn_options_init (&data->options);
  data->options.id = data->id = g_strdup (data->options.id);
  data->options.label = data->label = g_strdup (data->options.label);
  data->diagnostics = g_ptr_array_new_with_free_func (g_object_unref);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, winnow_learn_filter_async);
  g_task_set_task_data (task, data, (GDestroyNotify) learn_task_free);
  g_task_run_in_thread (task, learn_thread);
}

/**
 * winnow_learn_filter_finish:
 * @result: the #GAsyncResult given to the callback
 * @diagnostics: (nullable) (element-type WinnowDiagnostic): where to add the notes
 * @error: return location for an error
 *
 * Returns: (transfer full): the draft, or %NULL with @error set
 */
WinnowLearnDraft *
winnow_learn_filter_finish (GAsyncResult  *result,
                            GPtrArray     *diagnostics,
                            GError       **error)
{
  LearnTask *data;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == winnow_learn_filter_async,
                        NULL);

  data = g_task_get_task_data (G_TASK (result));
  if (diagnostics != NULL)
    for (guint i = 0; i < data->diagnostics->len; i++)
      g_ptr_array_add (diagnostics, g_object_ref (g_ptr_array_index (data->diagnostics, i)));

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- accessors --------------------------------------------------------------------------- */

/**
 * winnow_learn_draft_get_json:
 * @self: a #WinnowLearnDraft
 *
 * Returns: the draft filter as canonical JSON, what winnow_filter_pack_parse() reads back
 */
const char *
winnow_learn_draft_get_json (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  return self->json;
}

/**
 * winnow_learn_draft_get_filter:
 * @self: a #WinnowLearnDraft
 *
 * Returns: (transfer none): the draft, parsed
 */
WinnowFilter *
winnow_learn_draft_get_filter (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  return self->filter;
}

const char *
winnow_learn_draft_get_command (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  return self->command;
}

/**
 * winnow_learn_draft_get_n_samples:
 * @self: a #WinnowLearnDraft
 *
 * Returns: how many samples were learned from (empty ones are skipped)
 */
guint
winnow_learn_draft_get_n_samples (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), 0);
  return self->samples->len;
}

/**
 * winnow_learn_draft_get_sample:
 * @self: a #WinnowLearnDraft
 * @index: which
 *
 * Returns: (transfer none): a sample learned from, with what the draft does to it
 */
const WinnowLearnSample *
winnow_learn_draft_get_sample (WinnowLearnDraft *self,
                               guint             index)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  g_return_val_if_fail (index < self->samples->len, NULL);
  return g_ptr_array_index (self->samples, index);
}

guint
winnow_learn_draft_get_n_proposals (WinnowLearnDraft *self)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), 0);
  return self->proposals->len;
}

/**
 * winnow_learn_draft_get_proposal:
 * @self: a #WinnowLearnDraft
 * @index: which
 *
 * Returns: (transfer none): one thing the draft proposes, and why
 */
const WinnowLearnProposal *
winnow_learn_draft_get_proposal (WinnowLearnDraft *self,
                                 guint             index)
{
  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);
  g_return_val_if_fail (index < self->proposals->len, NULL);
  return g_ptr_array_index (self->proposals, index);
}

/**
 * winnow_learn_draft_to_json_node:
 * @self: a #WinnowLearnDraft
 *
 * The draft for machines: `{filter, counter, samples:[{name, linesBefore, linesAfter,
 * tokensBefore, tokensAfter, testCut}], proposals:[{field, value, reason, lines, example}]}`.
 *
 * Returns: (transfer full): a JSON object
 */
JsonNode *
winnow_learn_draft_to_json_node (WinnowLearnDraft *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (WINNOW_IS_LEARN_DRAFT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "filter");
  json_builder_add_value (builder, winnow_filter_to_json_node (self->filter));
  add_member (builder, "counter", winnow_tokens_counter_name ());
  json_builder_set_member_name (builder, "samples");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->samples->len; i++)
    {
      const WinnowLearnSample *sample = g_ptr_array_index (self->samples, i);

      json_builder_begin_object (builder);
      add_member (builder, "name", sample->name);
      json_builder_set_member_name (builder, "linesBefore");
      json_builder_add_int_value (builder, sample->lines_before);
      json_builder_set_member_name (builder, "linesAfter");
      json_builder_add_int_value (builder, sample->lines_after);
      json_builder_set_member_name (builder, "tokensBefore");
      json_builder_add_int_value (builder, sample->tokens_before);
      json_builder_set_member_name (builder, "tokensAfter");
      json_builder_add_int_value (builder, sample->tokens_after);
      json_builder_set_member_name (builder, "testCut");
      json_builder_add_boolean_value (builder, sample->test_cut);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "proposals");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->proposals->len; i++)
    {
      const WinnowLearnProposal *proposal = g_ptr_array_index (self->proposals, i);

      json_builder_begin_object (builder);
      add_member (builder, "field", proposal->field);
      add_member (builder, "value", proposal->value);
      add_member (builder, "reason", proposal->reason);
      json_builder_set_member_name (builder, "lines");
      json_builder_add_int_value (builder, proposal->lines);
      if (proposal->example != NULL)
        add_member (builder, "example", proposal->example);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
