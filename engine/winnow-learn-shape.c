/* winnow-learn-shape.c — what a line of a sample is, and what it looks like
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Step 1 and 2 of learning (see winnow-learn.c): the tables of known lines (errors, summaries,
 * kinds of noise) a line's role comes from, the shaper that abstracts a line into regex
 * fragments and a grouping key, and the groups of lines that share a shape. Nothing here
 * knows about samples or proposals; winnow-learn-propose.c drives it.
 */

#define G_LOG_DOMAIN "winnow-learn"

#include "config.h"

#include <string.h>

#include "winnow-learn-private.h"
#include "winnow-regex.h"

/* ---- what a line is ---------------------------------------------------------------------- */

/* Errors. The first is the detector's own list of error words and is always proposed; the
 * others are proposed when some sample has such a line. Case-insensitive, as the engine
 * matches preserve patterns. */
const Known _winnow_learn_error_shapes[] = {
  { "\\b(?:error|errors|failed|failure|fatal|exception|traceback|panic|panicked|"
    "segmentation fault|aborted)\\b", "the words the detector treats as errors" },
  { "\\bwarn(?:ing)?\\b", "warnings" },
  { "^\\S+:\\d+:\\d+:", "file:line:column diagnostics" },
  { "^\\s*-->\\s*\\S+:\\d+", "Rust-style source locations" },
  { "^E\\s{2,}", "pytest assertion details (E lines)" },
  { "^>\\s{2,}\\S", "pytest failing source lines (> lines)" },
  { "\\b\\w*(?:Error|Exception)\\b", "exception names" },
};
const guint _winnow_learn_n_error_shapes = G_N_ELEMENTS (_winnow_learn_error_shapes);

/* Summaries. The first (a finished build counter, `[8/8]`) must stay first: it is the only
 * one with a capture group, and lookaheads built from these rely on its numbering. */
const Known _winnow_learn_summary_shapes[] = {
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
const guint _winnow_learn_n_summary_shapes = G_N_ELEMENTS (_winnow_learn_summary_shapes);

/* Known kinds of noise, case-sensitive. Only a line's role is decided by these; the pattern
 * proposed is always the shape of the lines actually seen. KIND_BANNER is first because it is
 * the one with a capture group. */
const Known _winnow_learn_noise_kinds[N_KINDS] = {
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

void
_winnow_learn_known_set_init (KnownSet    *set,
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

void
_winnow_learn_known_set_clear (KnownSet *set)
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
int
_winnow_learn_known_set_match (KnownSet   *set,
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

void
_winnow_learn_known_set_count (KnownSet   *set,
                               int         index,
                               const char *line,
                               gsize       len)
{
  set->hits[index]++;
  if (set->example[index] == NULL)
    set->example[index] = g_strndup (line, len);
}

/* ---- shapes ------------------------------------------------------------------------------ */

static gboolean
is_word_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '%' || c == '+' || c == '-';
}

void
_winnow_learn_append_escaped_char (GString *out,
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
          _winnow_learn_append_escaped_char (out, c);
          g_string_append_c (out, '+');
          continue;
        }
      _winnow_learn_append_escaped_char (out, p[i]);
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
void
_winnow_learn_shape_line (Shaper     *s,
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
          _winnow_learn_append_escaped_char (s->text, c);
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
char *
_winnow_learn_shaper_dup_regex (Shaper *s)
{
  GString *out = g_string_new ("^");

  for (guint i = 0; i < s->offsets->len; i++)
    g_string_append (out, frag_at (s, i));
  g_string_append (out, "\\s*$");
  return g_string_free (out, FALSE);
}

/* ---- groups of lines with one shape ------------------------------------------------------ */

void
_winnow_learn_group_free (Group *g)
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

char *
_winnow_learn_group_dup_regex (Group *g)
{
  GString *out = g_string_new ("^");

  for (guint i = 0; i < g->n_frags; i++)
    g_string_append (out, g->varies[i] ? "[\\w.%+-]+" : g->frags[i]);
  g_string_append (out, "\\s*$");
  return g_string_free (out, FALSE);
}

guint
_winnow_learn_trimmed_hash (const char *line,
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
