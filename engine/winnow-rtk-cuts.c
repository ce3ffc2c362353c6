/* winnow-rtk-cuts.c — the stages that cut lines out: deduplication, head/tail, engine caps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every cut leaves one in-place marker with its count, keeps order, and spares protected
 * lines: error and summary lines, Winnow's own markers, and (for head/tail and the caps) any
 * line carrying a failure word, since a filter cannot anticipate every way output fails.
 */

#define G_LOG_DOMAIN "winnow-rtk"

#include "config.h"

#include "winnow-rtk-run.h"
#include "winnow-utf8.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- 9. deduplicate ---------------------------------------------------------------------- */

void
_winnow_rtk_stage_deduplicate (Run        *run,
                   const char *name,
                   const char *rule,
                   guint       threshold)
{
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, name);
  LineArray out;
  guint folded = 0;

  threshold = MAX (threshold, 2);
  line_array_init (&out, run->lines.len);

  for (guint i = 0; i < run->lines.len;)
    {
      const Line *line = line_at (run, i);
      guint run_len = 1;

      while (i + run_len < run->lines.len &&
             !(line->flags & LINE_MARKER) &&
             line_at (run, i + run_len)->len == line->len &&
             !(line_at (run, i + run_len)->flags & LINE_MARKER) &&
             memcmp (line_at (run, i + run_len)->text, line->text, line->len) == 0)
        run_len++;

      line_array_push (&out, line);

      if (run_len >= threshold)
        {
          /* a run of blank lines folds to one blank line; anything else keeps a count */
          if (!is_blank (line))
            {
              Line marker = _winnow_rtk_make_marker (run, "identical", run_len - 1);
              line_array_push (&out, &marker);
            }
          for (guint k = 1; k < run_len; k++)
            record_removed (run, line_at (run, i + k)->origin);
          folded += run_len - 1;
        }
      else
        for (guint k = 1; k < run_len; k++)
          line_array_push (&out, line_at (run, i + k));

      i += run_len;
    }

  replace_lines (run, &out);

  _winnow_trace_stage_add_hits (stage, rule, NULL, folded);
  _winnow_rtk_stage_end (run, stage);
}

/* Words that make a line worth keeping through head/tail cuts and the engine caps, whatever
 * the filter said. Runs on every line that could be cut: when the line's byte pairs are
 * known (see the literal prefilter), a line lacking the pairs of every word is answered at
 * once; otherwise a table of possible first bytes rejects most positions with one load. */
static const struct { const char *word; guint8 len; } failure_words[] = {
  { "error", 5 }, { "fail", 4 }, { "exception", 9 }, { "traceback", 9 }, { "panic", 5 },
  { "fatal", 5 }, { "abort", 5 }, { "assert", 6 }, { "segmentation fault", 18 },
  { "\xE2\x9C\x96", 3 } /* ✖ */, { "\xE2\x9C\x97", 3 } /* ✗ */,
};

/* Called before the lines are looked at, possibly from several threads. */
static void
prepare_failure_masks (Run *run)
{
  if (run->failure_masks_ready)
    return;

  for (guint w = 0; w < N_ASCII_FAILURE_WORDS; w++)
    _winnow_bigrams_of_literal (failure_words[w].word, &run->failure_masks[w]);
  run->failure_masks_ready = TRUE;
}

/* The byte pairs of each ASCII failure word, for lines whose pairs are known. */
static gboolean
may_have_failure_word (Run        *run,
                       const Line *line)
{
  const WinnowBigrams *pairs;

  if (line->key >= run->n_pairs || run->pairs_state[line->key] != 1)
    return TRUE; /* unknown, or non-ASCII (✖ ✗): scan it */

  pairs = &run->pairs[line->key];
  if (!run->failure_masks_ready)
    return TRUE; /* prepare_failure_masks() was not called: scan */

  for (guint w = 0; w < N_ASCII_FAILURE_WORDS; w++)
    if (_winnow_bigrams_contain (pairs, &run->failure_masks[w]))
      return TRUE;
  return FALSE;
}

/* The first four bytes of an ASCII failure word as a number, the way memcpy() reads them. */
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
#define HEAD(a, b, c, d) ((guint32) (a) | (guint32) (b) << 8 | (guint32) (c) << 16 | \
                          (guint32) (d) << 24)
#else
#define HEAD(a, b, c, d) ((guint32) (d) | (guint32) (c) << 8 | (guint32) (b) << 16 | \
                          (guint32) (a) << 24)
#endif

/* Whether a failure word starts at @i. The ASCII words' first four bytes are letters, so
 * OR-ing 0x20 into four bytes of text (which lower-cases a letter and turns no other byte into
 * a lower-case letter) gives a word's first four bytes exactly where the text has them in any
 * case; only then is the rest compared. */
static inline gboolean
failure_word_at (const guchar *text,
                 gsize         len,
                 gsize         i)
{
  gsize left = len - i;
  guint32 four;
  guint w;

  if (text[i] >= 0x80)
    return left >= 3 && text[i] == 0xE2 && text[i + 1] == 0x9C &&
           (text[i + 2] == 0x96 || text[i + 2] == 0x97); /* ✖ ✗ */
  if (left < 4)
    return FALSE; /* too short for every ASCII word */

  memcpy (&four, text + i, 4);
  switch (four | 0x20202020u)
    {
    case HEAD ('e', 'r', 'r', 'o'): w = 0; break;
    case HEAD ('f', 'a', 'i', 'l'): return TRUE;
    case HEAD ('e', 'x', 'c', 'e'): w = 2; break;
    case HEAD ('t', 'r', 'a', 'c'): w = 3; break;
    case HEAD ('p', 'a', 'n', 'i'): w = 4; break;
    case HEAD ('f', 'a', 't', 'a'): w = 5; break;
    case HEAD ('a', 'b', 'o', 'r'): w = 6; break;
    case HEAD ('a', 's', 's', 'e'): w = 7; break;
    case HEAD ('s', 'e', 'g', 'm'): w = 8; break;
    default: return FALSE;
    }

  return left >= failure_words[w].len &&
         _winnow_ascii_equal_lower ((const char *) text + i + 4, failure_words[w].word + 4,
                                    failure_words[w].len - 4);
}

#ifdef __SSE2__
/* Whether a failure word starts at one of @text[@i] … @text[@i + 15] (which must be followed
 * by at least one more readable byte). */
static inline gboolean
failure_words_in_16 (const guchar *text,
                     gsize         len,
                     gsize         i)
{
  const __m128i lower = _mm_set1_epi8 (0x20);
  __m128i b0 = _mm_loadu_si128 ((const __m128i *) (text + i));
  __m128i l0 = _mm_or_si128 (b0, lower);
  __m128i l1 = _mm_or_si128 (_mm_loadu_si128 ((const __m128i *) (text + i + 1)), lower);
#define IS(v, ch) _mm_cmpeq_epi8 ((v), _mm_set1_epi8 (ch))
  __m128i second_a = IS (l1, 'a');
  __m128i second_r = IS (l1, 'r');
  __m128i may;

  may = _mm_and_si128 (IS (l0, 'e'), _mm_or_si128 (second_r, IS (l1, 'x')));
  may = _mm_or_si128 (may, _mm_and_si128 (_mm_or_si128 (IS (l0, 'f'), IS (l0, 'p')), second_a));
  may = _mm_or_si128 (may, _mm_and_si128 (IS (l0, 't'), second_r));
  may = _mm_or_si128 (may, _mm_and_si128 (IS (l0, 'a'), _mm_or_si128 (IS (l1, 'b'),
                                                                     IS (l1, 's'))));
  may = _mm_or_si128 (may, _mm_and_si128 (IS (l0, 's'), IS (l1, 'e')));
  may = _mm_or_si128 (may, IS (b0, (char) 0xE2));
#undef IS

  for (guint mask = (guint) _mm_movemask_epi8 (may); mask != 0; mask &= mask - 1)
    if (failure_word_at (text, len, i + __builtin_ctz (mask)))
      return TRUE;
  return FALSE;
}
#endif

gboolean
_winnow_rtk_has_failure_word (Run        *run,
                              const Line *line)
{
#ifndef __SSE2__
  static const guint8 first[256] = {
    ['a'] = 1, ['A'] = 1, ['e'] = 1, ['E'] = 1, ['f'] = 1, ['F'] = 1, ['p'] = 1, ['P'] = 1,
    ['s'] = 1, ['S'] = 1, ['t'] = 1, ['T'] = 1, [0xE2] = 1,
  };
#endif
  const guchar *text = (const guchar *) line->text;
  gsize len = line->len;
  gsize i = 0;

  if (!may_have_failure_word (run, line))
    return FALSE;

#ifdef __SSE2__
  /* Sixteen positions at a time: a word can only start where the first two bytes, OR-ed with
   * 0x20, are those of a word — "er", "ex", "fa", "tr", "pa", "ab", "as", "se" — or at the
   * lead byte of ✖ and ✗. The second vector is the first one byte on, so sixteen positions
   * need seventeen bytes; the last few positions are looked at in a zero-padded copy (a zero
   * byte starts nothing). */
  {
    guchar tail[32];
    gsize n_tail;

    for (; i + 17 <= len; i += 16)
      if G_UNLIKELY (failure_words_in_16 (text, len, i))
        return TRUE;

    n_tail = len - i;
    memset (tail, 0, sizeof tail);
    memcpy (tail, text + i, n_tail);
    return failure_words_in_16 (tail, n_tail, 0);
  }
#else
  for (; i < len; i++)
    if G_UNLIKELY (first[text[i]] && failure_word_at (text, len, i))
      return TRUE;

  return FALSE;
#endif
}

/* ---- 10. headLines / tailLines / maxLines ------------------------------------------------ */

/* Emits the lines marked LINE_KEEP in order, with one marker for each gap. */
void
_winnow_rtk_cut_with_markers (Run *run)
{
  LineArray out;
  guint gap = 0;

  line_array_init (&out, run->lines.len);

  for (guint i = 0; i <= run->lines.len; i++)
    {
      Line *line = i < run->lines.len ? line_at (run, i) : NULL;

      if (line != NULL && !(line->flags & LINE_KEEP))
        {
          gap++;
          record_removed (run, line->origin);
          continue;
        }

      if (gap > 0)
        {
          Line marker = _winnow_rtk_make_marker (run, "lines", gap);
          line_array_push (&out, &marker);
          gap = 0;
        }

      if (line != NULL)
        {
          line->flags &= ~LINE_KEEP;
          line_array_push (&out, line);
        }
    }

  replace_lines (run, &out);
}

typedef struct
{
  guint head;
  guint tail;
  guint n;
} HeadTail;

static void
mark_head_tail (Run      *run,
                guint     begin,
                guint     end,
                gpointer  data)
{
  const HeadTail *job = data;

  for (guint i = begin; i < end; i++)
    {
      Line *line = line_at (run, i);

      /* a line with a failure word survives the cut even when the filter did not think of it
       * (a FATAL in the middle of a server log): the engine caps bound the size */
      if (i < job->head || i + job->tail >= job->n || is_protected (line) ||
          _winnow_rtk_has_failure_word (run, line))
        line->flags |= LINE_KEEP;
    }
}

void
_winnow_rtk_stage_head_tail (Run *run)
{
  WinnowFilter *filter = run->filter;
  WinnowRtkIntensity intensity = run->options->intensity;
  guint max_lines = _winnow_rtk_scale (winnow_filter_get_max_lines (filter), intensity);
  guint head = _winnow_rtk_scale (winnow_filter_get_head_lines (filter), intensity);
  guint tail = _winnow_rtk_scale (winnow_filter_get_tail_lines (filter), intensity);
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "maxLines");
  guint n = run->lines.len;

  if (n > max_lines)
    {
      HeadTail job = { head, tail, n };

      prepare_failure_masks (run);
      _winnow_rtk_for_each_line (run, mark_head_tail, &job);
      _winnow_rtk_cut_with_markers (run);
      _winnow_trace_stage_add_hits (stage, "rules.maxLines", NULL, n - run->lines.len);
    }

  {
    g_autofree char *note = g_strdup_printf ("limit %u lines: head %u, tail %u", max_lines,
                                             head, tail);
    _winnow_trace_stage_set_note (stage, note);
  }
  _winnow_rtk_stage_end (run, stage);
}

/* ---- engine caps ------------------------------------------------------------------------- */

/* Code points in valid UTF-8: every byte that does not continue a sequence starts one. */
static gsize
utf8_length (const char *text,
             gsize       len)
{
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    n += ((guchar) text[i] & 0xC0) != 0x80;
  return n;
}

static gsize
line_chars (const Line *line)
{
  return utf8_length (line->text, line->len) + 1; /* the newline counts */
}

#define MARKER_CHARS 24 /* "… 123456 lines omitted …" and its newline */

void
_winnow_rtk_stage_engine_cap (Run *run)
{
  const WinnowRtkOptions *options = run->options;
  guint max_lines = options->max_lines_per_result;
  gsize max_chars = options->max_chars_per_result;
  guint n = run->lines.len;
  g_autofree gsize *cost = NULL;
  WinnowTraceStage *stage;
  guint used_lines = 0;
  gsize used_chars = 0;
  guint budget_lines;
  gsize budget_chars;

  if (options->intensity == WINNOW_RTK_INTENSITY_AGGRESSIVE)
    {
      max_lines = _winnow_rtk_scale (max_lines, options->intensity);
      max_chars = _winnow_rtk_scale (max_chars, options->intensity);
    }

  /* Within both caps? Bytes bound characters from above, so count characters only when the
   * bytes alone exceed the cap. */
  if (max_lines == 0 || n <= max_lines)
    {
      gsize bytes = 0;
      gsize chars = 0;

      for (guint i = 0; i < n; i++)
        bytes += line_at (run, i)->len + 1;
      if (max_chars == 0 || bytes <= max_chars)
        return;
      for (guint i = 0; i < n && chars <= max_chars; i++)
        chars += line_chars (line_at (run, i));
      if (chars <= max_chars)
        return;
    }

  stage = _winnow_rtk_stage_begin (run, "engine:cap");
  if (max_lines == 0)
    max_lines = G_MAXUINT / 4;
  if (max_chars == 0)
    max_chars = G_MAXSIZE / 4;

  prepare_failure_masks (run);

  /* a line's cost in characters, counted when first needed (0 = not yet) */
  cost = g_new0 (gsize, MAX (n, 1));
#define COST(i) (cost[i] ? cost[i] : (cost[i] = line_chars (line_at (run, i))))

  /* Half the budget first goes to lines that matter, earliest first (the first error is
   * usually the cause): error lines and lines with a failure word, then summary lines and
   * markers. Each may open a gap, so it is charged for a marker too. */
  for (guint tier = 0; tier < 2; tier++)
    for (guint i = 0; i < n; i++)
      {
        Line *line = line_at (run, i);
        gboolean wanted;

        if (line->flags & LINE_KEEP)
          continue;
        wanted = tier == 0 ? ((line->flags & LINE_ERROR) || _winnow_rtk_has_failure_word (run, line))
                           : is_protected (line);
        if (!wanted)
          continue;
        if (used_lines + 2 > max_lines / 2 ||
            used_chars + COST (i) + MARKER_CHARS > max_chars / 2)
          break;

        line->flags |= LINE_KEEP;
        used_lines += 2;
        used_chars += COST (i) + MARKER_CHARS;
      }

  /* The rest: 55% to the head, 45% to the tail, as the reference does. */
  budget_lines = max_lines > used_lines ? max_lines - used_lines : 0;
  budget_chars = max_chars > used_chars ? max_chars - used_chars : 0;
  {
    guint head_lines = budget_lines * 55 / 100;
    gsize head_chars = budget_chars * 55 / 100;
    guint tail_lines = budget_lines - head_lines;
    gsize tail_chars = budget_chars - head_chars;
    guint i;

    for (i = 0; i < n && head_lines > 1; i++)
      {
        Line *line = line_at (run, i);

        if (line->flags & LINE_KEEP)
          continue;
        if (COST (i) + MARKER_CHARS > head_chars)
          break;
        line->flags |= LINE_KEEP;
        head_lines--;
        head_chars -= COST (i);
      }

    for (i = n; i > 0 && tail_lines > 1; i--)
      {
        Line *line = line_at (run, i - 1);

        if (line->flags & LINE_KEEP)
          continue;
        if (COST (i - 1) + MARKER_CHARS > tail_chars)
          break;
        line->flags |= LINE_KEEP;
        tail_lines--;
        tail_chars -= COST (i - 1);
      }
  }
#undef COST

  /* A single line longer than the whole budget: keep its start, cut on a character boundary. */
  {
    gboolean any = FALSE;

    for (guint i = 0; i < n && !any; i++)
      any = (line_at (run, i)->flags & LINE_KEEP) != 0;

    if (!any && n > 0)
      {
        Line *line = line_at (run, 0);
        gsize keep_chars = max_chars > MARKER_CHARS * 2 ? max_chars - MARKER_CHARS * 2 : 1;
        const char *cut = line->text;
        const char *end = line->text + line->len;

        for (gsize k = 0; k < keep_chars && cut < end; k++)
          cut = g_utf8_next_char (cut);

        if (cut < end)
          {
            g_autofree char *text = g_strdup_printf ("%.*s \xE2\x80\xA6",
                                                     (int) (cut - line->text), line->text);
            line->len = strlen (text);
            line->text = g_string_chunk_insert_len (run->chunk, text, line->len);
          }
        line->flags |= LINE_KEEP;
      }
  }

  _winnow_rtk_cut_with_markers (run);
  _winnow_trace_stage_add_hits (stage, "maxLinesPerResult/maxCharsPerResult", NULL,
                                n > run->lines.len ? n - run->lines.len : 0);
  {
    g_autofree char *note =
      g_strdup_printf ("capped at %u lines / %" G_GSIZE_FORMAT " characters",
                       options->max_lines_per_result,
                       (gsize) options->max_chars_per_result);
    _winnow_trace_stage_set_note (stage, note);
  }
  _winnow_rtk_stage_end (run, stage);
}
