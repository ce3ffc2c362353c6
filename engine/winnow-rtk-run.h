/* winnow-rtk-run.h — the state of one run of the stage runner, shared by its files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * winnow-rtk.c has the runner and the filter's own stages, winnow-rtk-run.c the helpers every
 * stage uses, winnow-rtk-cuts.c the stages that cut lines out (deduplication, head/tail, the
 * engine caps). Nothing here is public API.
 */

#pragma once

#include <string.h>

#include "winnow-filter-private.h"
#include "winnow-rtk.h"
#include "winnow-rtk-private.h"

G_BEGIN_DECLS

#define NO_ORIGIN G_MAXUINT

/* the failure words of winnow-rtk-cuts.c that are plain ASCII */
#define N_ASCII_FAILURE_WORDS 9

/* Engine defaults, the reference's settings defaults (seed 001). */
#define DEFAULT_MAX_LINES_PER_RESULT 120
#define DEFAULT_MAX_CHARS_PER_RESULT 12000
#define DEFAULT_DEDUP_THRESHOLD      3

typedef enum
{
  LINE_PRESERVED = 1 << 0,   /* matched errorPatterns or summaryPatterns */
  LINE_ERROR     = 1 << 1,   /* matched errorPatterns */
  LINE_MARKER    = 1 << 2,   /* an omission marker or message Winnow wrote */
  LINE_KEEP      = 1 << 3,   /* scratch bit for the stage at hand */
  LINE_TERMINAL  = 1 << 4,   /* holds an escape or a carriage return (seen while splitting) */
} LineFlags;

typedef struct
{
  const char *text;     /* not nul-terminated */
  guint       len;
  guint       origin;   /* index of the input line, or NO_ORIGIN */
  guint       flags;
  guint       key;      /* slot in Run.pairs while the pattern stages run, or NO_ORIGIN */
} Line;

/* Plain growable arrays: the stages push millions of elements and GArray's per-call
 * overhead showed up first in the profile. */
typedef struct
{
  Line  *v;
  guint  len;
  guint  cap;
} LineArray;

typedef struct
{
  guint *v;
  guint  len;
  guint  cap;
} IndexArray;

typedef struct
{
  const WinnowRtkOptions    *options;
  WinnowFilter              *filter;
  const WinnowFilterProgram *program;
  LineArray                  lines;
  IndexArray                 removed;      /* input lines the current stage removed */
  /* each line's byte pairs for the literal prefilter, computed once per line for all the
   * pattern stages (the texts do not change between them); state 0 unknown, 1 usable,
   * 2 non-ASCII */
  WinnowBigrams             *pairs;
  guint8                    *pairs_state;
  guint                      n_pairs;
  WinnowBigrams              failure_masks[N_ASCII_FAILURE_WORDS];
  gboolean                   failure_masks_ready;
  GStringChunk              *chunk;        /* text of every line we rewrote or inserted */
  GListStore                *stages;
  guint                      n_input_lines;
  guint                      n_content_lines;  /* not counting the piece after a final \n */
  int                        budget_exceeded;   /* atomic: matching may run on threads */
} Run;

static inline void
line_array_init (LineArray *a,
                 guint      capacity)
{
  a->cap = MAX (capacity, 16);
  a->v = g_new (Line, a->cap);
  a->len = 0;
}

static inline void
line_array_push (LineArray  *a,
                 const Line *line)
{
  if G_UNLIKELY (a->len == a->cap)
    {
      a->cap *= 2;
      a->v = g_renew (Line, a->v, a->cap);
    }
  a->v[a->len++] = *line;
}

static inline void
replace_lines (Run       *run,
               LineArray *next)
{
  g_free (run->lines.v);
  run->lines = *next;
}

static inline Line *
line_at (Run   *run,
         guint  i)
{
  return &run->lines.v[i];
}

static inline void
record_removed (Run   *run,
                guint  origin)
{
  if (origin == NO_ORIGIN)
    return;
  if G_UNLIKELY (run->removed.len == run->removed.cap)
    {
      run->removed.cap = MAX (run->removed.cap * 2, 64);
      run->removed.v = g_renew (guint, run->removed.v, run->removed.cap);
    }
  run->removed.v[run->removed.len++] = origin;
}

static inline gboolean
is_blank (const Line *line)
{
  for (gsize i = 0; i < line->len; i++)
    if (!g_ascii_isspace (line->text[i]))
      return FALSE;
  return TRUE;
}

static inline gboolean
is_protected (const Line *line)
{
  return (line->flags & (LINE_PRESERVED | LINE_MARKER)) != 0;
}

/* A test's result as a yes or no, counting a test cut short by the match budget */
static inline gboolean
_winnow_rtk_matched (Run               *run,
                     WinnowRegexResult  result)
{
  if G_UNLIKELY (result == WINNOW_REGEX_BUDGET_EXCEEDED)
    g_atomic_int_inc (&run->budget_exceeded);

  return result == WINNOW_REGEX_MATCH;
}

static inline gboolean
_winnow_rtk_test_line (Run         *run,
                       WinnowRegex *regex,
                       const Line  *line)
{
  return _winnow_rtk_matched (run, winnow_regex_test (regex, line->text, line->len));
}

/* _winnow_rtk_test_line() once _winnow_regex_might_match() has said yes. */
static inline gboolean
_winnow_rtk_test_checked_line (Run         *run,
                               WinnowRegex *regex,
                               const Line  *line)
{
  return _winnow_rtk_matched (run, _winnow_regex_test_unchecked (regex, line->text, line->len));
}

/* Index of the first pattern matching @line, or -1. (A union of the list as one regex was
 * measured slower: it loses PCRE2's start-of-match optimisations.) */
static inline const WinnowBigrams *
_winnow_rtk_line_pairs (Run        *run,
                        const Line *line,
                        WinnowBigrams *scratch)
{
  if (line->key < run->n_pairs)
    {
      if (run->pairs_state[line->key] == 0)
        run->pairs_state[line->key] =
          _winnow_bigrams_of_line (line->text, line->len, &run->pairs[line->key]) ? 1 : 2;
      return run->pairs_state[line->key] == 1 ? &run->pairs[line->key] : NULL;
    }

  return _winnow_bigrams_of_line (line->text, line->len, scratch) ? scratch : NULL;
}

/* A line's byte pairs, looked up the first time a pattern of it needs them. */
typedef struct
{
  WinnowBigrams        scratch;
  const WinnowBigrams *pairs;
  gboolean             looked;
} LinePairs;

#define LINE_PAIRS_INIT { .pairs = NULL, .looked = FALSE }

/* Whether @pattern matches @line: a prefix or suffix that does not fit, or none of the
 * literals a match needs in the line's byte pairs, answers before PCRE2 runs. */
static inline gboolean
_winnow_rtk_pattern_matches (Run                 *run,
                             const WinnowPattern *pattern,
                             const Line          *line,
                             LinePairs           *lp)
{
  if (!_winnow_regex_might_match (pattern->regex, line->text, line->len))
    return FALSE;

  if (pattern->n_literals > 0)
    {
      gboolean possible = FALSE;

      if (!lp->looked)
        {
          lp->pairs = _winnow_rtk_line_pairs (run, line, &lp->scratch);
          lp->looked = TRUE;
        }

      for (guint k = 0; lp->pairs != NULL && k < pattern->n_literals && !possible; k++)
        possible = _winnow_bigrams_contain (lp->pairs, &pattern->literals[k]);

      if (lp->pairs != NULL && !possible)
        return FALSE;
    }

  return _winnow_rtk_test_checked_line (run, pattern->regex, line);
}

static inline int
_winnow_rtk_first_match (Run                 *run,
                         const WinnowPattern *patterns,
                         guint                n_patterns,
                         const Line          *line)
{
  LinePairs lp = LINE_PAIRS_INIT;

  for (guint i = 0; i < n_patterns; i++)
    if (_winnow_rtk_pattern_matches (run, &patterns[i], line, &lp))
      return i;
  return -1;
}

Line              _winnow_rtk_make_marker       (Run                 *run,
                                                 const char          *what,
                                                 guint                count);
Line              _winnow_rtk_make_message      (Run                 *run,
                                                 const char          *text);
WinnowTraceStage *_winnow_rtk_stage_begin       (Run                 *run,
                                                 const char          *name);
void              _winnow_rtk_stage_end         (Run                 *run,
                                                 WinnowTraceStage    *stage);
void              _winnow_rtk_compact           (Run                 *run);
typedef void (*WinnowLineFunc) (Run      *run,
                                guint     begin,
                                guint     end,
                                gpointer  data);

void              _winnow_rtk_for_each_line     (Run                 *run,
                                                 WinnowLineFunc       func,
                                                 gpointer             data);
int              *_winnow_rtk_match_lines       (Run                 *run,
                                                 const WinnowPattern *patterns,
                                                 guint                n_patterns,
                                                 guint                skip_flags);
void              _winnow_rtk_add_pattern_hits  (WinnowTraceStage    *stage,
                                                 const WinnowPattern *patterns,
                                                 const guint         *hits,
                                                 guint                n);
guint             _winnow_rtk_scale             (guint                value,
                                                 WinnowRtkIntensity   intensity);
gboolean          _winnow_rtk_has_failure_word  (Run                 *run,
                                                 const Line          *line);
void              _winnow_rtk_cut_with_markers  (Run                 *run);
void              _winnow_rtk_stage_deduplicate (Run                 *run,
                                                 const char          *name,
                                                 const char          *rule,
                                                 guint                threshold);
void              _winnow_rtk_stage_head_tail   (Run                 *run);
void              _winnow_rtk_stage_engine_cap  (Run                 *run);

G_END_DECLS
