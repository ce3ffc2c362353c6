/* winnow-rtk-run.c — what every stage of the runner uses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-rtk"

#include "config.h"

#include "winnow-rtk-run.h"

/* ---- small helpers ----------------------------------------------------------------------- */



/* Makes @next the run's lines, freeing the old ones. */







#define MARKER_PREFIX "\xE2\x80\xA6 "   /* "… " */
#define MARKER_SUFFIX " \xE2\x80\xA6"   /* " …" */

/**
 * winnow_rtk_is_marker:
 * @line: a line of text, not necessarily nul-terminated
 * @length: its length in bytes
 *
 * Returns: %TRUE if @line is an omission marker Winnow writes, such as `… 12 lines omitted …`
 */
gboolean
winnow_rtk_is_marker (const char *line,
                      gsize       length)
{
  const gsize prefix = strlen (MARKER_PREFIX);
  const gsize suffix = strlen (MARKER_SUFFIX);
  const char *p;

  if (length < prefix + suffix + 3 ||
      memcmp (line, MARKER_PREFIX, prefix) != 0 ||
      memcmp (line + length - suffix, MARKER_SUFFIX, suffix) != 0)
    return FALSE;

  p = line + prefix;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;

  return g_str_has_prefix (p, " lines omitted") || g_str_has_prefix (p, " line omitted") ||
         g_str_has_prefix (p, " identical lines omitted");
}

/* Written by hand rather than with g_strdup_printf(): a big log gets a marker for every gap,
 * and formatting cost more than the rest of the cut. */
Line
_winnow_rtk_make_marker (Run        *run,
                         const char *what,
                         guint       count)
{
  char text[64];
  char digits[16];
  const char *words;
  gsize n_digits = 0;
  gsize len = 0;
  Line line = { 0 };

  if (g_strcmp0 (what, "lines") == 0)
    words = count == 1 ? " line omitted" : " lines omitted";
  else
    words = " identical lines omitted";

  do
    {
      digits[n_digits++] = '0' + count % 10;
      count /= 10;
    }
  while (count > 0);

  memcpy (text, MARKER_PREFIX, strlen (MARKER_PREFIX));
  len = strlen (MARKER_PREFIX);
  while (n_digits > 0)
    text[len++] = digits[--n_digits];
  memcpy (text + len, words, strlen (words));
  len += strlen (words);
  memcpy (text + len, MARKER_SUFFIX, strlen (MARKER_SUFFIX));
  len += strlen (MARKER_SUFFIX);

  line.len = len;
  line.text = g_string_chunk_insert_len (run->chunk, text, len);
  line.origin = NO_ORIGIN;
  line.key = NO_ORIGIN;
  line.flags = LINE_MARKER;

  return line;
}

Line
_winnow_rtk_make_message (Run        *run,
              const char *text)
{
  Line line = { 0 };

  line.len = strlen (text);
  line.text = g_string_chunk_insert_len (run->chunk, text, line.len);
  line.origin = NO_ORIGIN;
  line.key = NO_ORIGIN;
  line.flags = LINE_MARKER;

  return line;
}

WinnowTraceStage *
_winnow_rtk_stage_begin (Run        *run,
             const char *name)
{
  run->removed.len = 0;
  return _winnow_trace_stage_new (name, run->lines.len);
}

void
_winnow_rtk_stage_end (Run              *run,
           WinnowTraceStage *stage)
{
  _winnow_trace_stage_finish (stage, run->lines.len);
  _winnow_trace_stage_set_removed (stage, run->removed.v, run->removed.len);
  run->removed.len = 0;
  g_list_store_append (run->stages, stage);
  g_object_unref (stage);
}

/* Drops every line without LINE_KEEP (clearing the bit on the rest), recording removals. */
void
_winnow_rtk_compact (Run *run)
{
  guint out = 0;

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);

      if (line->flags & LINE_KEEP)
        {
          line->flags &= ~LINE_KEEP;
          if (out != i)
            *line_at (run, out) = *line;
          out++;
        }
      else
        record_removed (run, line->origin);
    }

  run->lines.len = out;
}

void
_winnow_rtk_add_pattern_hits (WinnowTraceStage    *stage,
                  const WinnowPattern *patterns,
                  const guint         *hits,
                  guint                n)
{
  for (guint i = 0; i < n; i++)
    _winnow_trace_stage_add_hits (stage, patterns[i].path,
                                  winnow_regex_get_source (patterns[i].regex), hits[i]);
}

guint
_winnow_rtk_scale (guint              value,
       WinnowRtkIntensity intensity)
{
  switch (intensity)
    {
    case WINNOW_RTK_INTENSITY_MINIMAL:
      return value > G_MAXUINT / 2 ? G_MAXUINT : value * 2;
    case WINNOW_RTK_INTENSITY_AGGRESSIVE:
      return value == 0 ? 0 : MAX (1, value / 2);
    case WINNOW_RTK_INTENSITY_STANDARD:
    default:
      return value;
    }
}

/* ---- running over every line, on every processor ------------------------------------------ */

/* Below this many lines, threads cost more than they save. */
#define PARALLEL_MIN_LINES 32768
#define MAX_THREADS        8

typedef struct
{
  Run           *run;
  WinnowLineFunc func;
  gpointer       data;
  guint          begin;
  guint          end;
} Chunk;

static gpointer
run_chunk (gpointer data)
{
  Chunk *chunk = data;

  chunk->func (chunk->run, chunk->begin, chunk->end, chunk->data);
  return NULL;
}

/**
 * _winnow_rtk_for_each_line:
 * @func: called with consecutive ranges of line indices that together cover every line
 *
 * Lines are independent for the expensive per-line work (matching patterns, looking for
 * failure words), so a large input is split across the processors. @func must only write to
 * its own lines (their flags, their slots in arrays indexed by line) and may read the shared
 * compiled patterns and options; what depends on line order stays with the caller.
 */
void
_winnow_rtk_for_each_line (Run            *run,
                           WinnowLineFunc  func,
                           gpointer        data)
{
  guint n = run->lines.len;
  guint n_threads;
  Chunk chunks[MAX_THREADS];
  GThread *threads[MAX_THREADS] = { NULL };

  if (n < PARALLEL_MIN_LINES)
    {
      func (run, 0, n, data);
      return;
    }

  /* g_get_num_processors () reads /sys on every call: ask only when the input is big */
  n_threads = MIN ((guint) g_get_num_processors (), MAX_THREADS);
  if (n_threads < 2)
    {
      func (run, 0, n, data);
      return;
    }

  for (guint t = 0; t < n_threads; t++)
    {
      chunks[t] = (Chunk) { run, func, data,
                            (guint) ((guint64) n * t / n_threads),
                            (guint) ((guint64) n * (t + 1) / n_threads) };
      if (t > 0)
        threads[t] = g_thread_try_new ("winnow-lines", run_chunk, &chunks[t], NULL);
    }

  run_chunk (&chunks[0]);
  for (guint t = 1; t < n_threads; t++)
    {
      if (threads[t] != NULL)
        g_thread_join (threads[t]);
      else
        run_chunk (&chunks[t]); /* no thread to be had: do it here */
    }
}

/* ---- matching every line against a list ------------------------------------------------------ */

/* Which patterns of a list (at most 64) may match a line, by the line's first byte: most line
 * patterns are anchored (`^E: `, `^\d+ upgraded`), and on most lines none of them can
 * match. Looping over the few that can saves the call per pattern per line, and
 * lines that no pattern can match never have their byte pairs computed. */
#define MAX_DISPATCH_PATTERNS 64
#define DISPATCH_MIN_LINES    4096

typedef struct
{
  guint64 by_first[256];
  guint64 if_empty;
} Dispatch;

typedef struct
{
  const WinnowPattern *patterns;
  guint                n_patterns;
  guint                skip_flags;
  int                 *results;
  const Dispatch      *dispatch;   /* NULL for a longer list */
} MatchJob;

static Dispatch *
dispatch_new (const WinnowPattern *patterns,
              guint                n_patterns)
{
  Dispatch *dispatch = g_new0 (Dispatch, 1);

  for (guint i = 0; i < n_patterns; i++)
    {
      guint64 starts[4];
      gboolean empty;

      _winnow_regex_subject_starts (patterns[i].regex, starts, &empty);
      for (guint c = 0; c < 256; c++)
        if ((starts[c >> 6] >> (c & 63)) & 1)
          dispatch->by_first[c] |= G_GUINT64_CONSTANT (1) << i;
      if (empty)
        dispatch->if_empty |= G_GUINT64_CONSTANT (1) << i;
    }

  return dispatch;
}

/* _winnow_rtk_first_match() over the patterns @dispatch leaves for @line: the same answer,
 * since the others are ones winnow_regex_test() rejects without running them. */
static inline int
first_match_dispatched (Run                 *run,
                        const WinnowPattern *patterns,
                        const Dispatch      *dispatch,
                        const Line          *line)
{
  guint64 candidates = line->len > 0 ? dispatch->by_first[(guchar) line->text[0]]
                                     : dispatch->if_empty;
  LinePairs lp = LINE_PAIRS_INIT;

  while (candidates != 0)
    {
      guint i = __builtin_ctzll (candidates);

      candidates &= candidates - 1;
      if (_winnow_rtk_pattern_matches (run, &patterns[i], line, &lp))
        return i;
    }
  return -1;
}

static void
match_range (Run      *run,
             guint     begin,
             guint     end,
             gpointer  data)
{
  MatchJob *job = data;

  for (guint i = begin; i < end; i++)
    {
      const Line *line = line_at (run, i);

      if (line->flags & job->skip_flags)
        job->results[i] = -2;
      else if (job->dispatch != NULL)
        job->results[i] = first_match_dispatched (run, job->patterns, job->dispatch, line);
      else
        job->results[i] = _winnow_rtk_first_match (run, job->patterns, job->n_patterns, line);
    }
}

/**
 * _winnow_rtk_match_lines:
 * @skip_flags: lines with any of these flags are not tested (their result is -2)
 *
 * For every line, the index of the first pattern of @patterns that matches it, or -1; on every
 * processor for a large input (compiled patterns are safe to share, and each line's slot in
 * the byte-pair cache is filled by the thread that owns the line).
 *
 * Returns: (transfer full): one result per line
 */
int *
_winnow_rtk_match_lines (Run                 *run,
                         const WinnowPattern *patterns,
                         guint                n_patterns,
                         guint                skip_flags)
{
  g_autofree Dispatch *dispatch = NULL;
  MatchJob job = { patterns, n_patterns, skip_flags, g_new (int, MAX (run->lines.len, 1)), NULL };

  /* the first time, each pattern's starting bytes cost a compilation: worth it on long input */
  if (n_patterns <= MAX_DISPATCH_PATTERNS && run->lines.len >= DISPATCH_MIN_LINES)
    job.dispatch = dispatch = dispatch_new (patterns, n_patterns);

  _winnow_rtk_for_each_line (run, match_range, &job);
  return job.results;
}
