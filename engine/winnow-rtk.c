/* winnow-rtk.c — the RTK stage runner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs a filter's stages in the reference order (FORMATS.md §1) over the lines of some
 * output, under the Winnow rules that make the result safe to hand to an agent:
 *
 *  - Errors survive. A line matching `preserve.errorPatterns` is never removed by drop,
 *    include, collapse or head/tail, nor shortened by truncateLineAt, and a `matchOutput`
 *    shortcut is not taken while an error line is present (its `unless` is implied).
 *    A line matching `preserve.summaryPatterns` gets the same protection except from
 *    `dropPatterns`: an explicit drop is the author's decision about that very line shape
 *    (reference packs drop "sent N bytes" while listing it as a summary for truncation), but an
 *    error line is never the author's to drop. Collapse and deduplication may remove a
 *    protected line only when an identical copy of it stays (and deduplication says how many),
 *    so the text always survives.
 *  - Order is kept, and every cut leaves one in-place marker with its count:
 *    `… 812 lines omitted …`, `… 41 identical lines omitted …`. Markers already in the input
 *    are kept as they are, which (with the rest) makes a filter idempotent.
 *  - Linear time: every stage is a single pass; collapse uses a hash set.
 *  - Never empty, never worse: a blank result becomes `onEmpty` or a one-line summary, and a
 *    result that is not shorter than the input gives back the input unchanged.
 *  - Cuts are clean: lines are cut by code point, character caps at line boundaries.
 *
 * Input that is not valid UTF-8 is passed through unchanged; everything below may therefore
 * assume valid UTF-8 and tells PCRE2 not to re-check it.
 */

#define G_LOG_DOMAIN "winnow-rtk"

#include "config.h"

#include <string.h>

#include "winnow-rtk-run.h"
#include "winnow-utf8.h"

void
winnow_rtk_options_init (WinnowRtkOptions *options)
{
  g_return_if_fail (options != NULL);

  options->intensity = WINNOW_RTK_INTENSITY_STANDARD;
  options->engine_limits = TRUE;
  options->max_lines_per_result = DEFAULT_MAX_LINES_PER_RESULT;
  options->max_chars_per_result = DEFAULT_MAX_CHARS_PER_RESULT;
  options->dedup_threshold = DEFAULT_DEDUP_THRESHOLD;
}

const char *
winnow_rtk_intensity_to_string (WinnowRtkIntensity intensity)
{
  switch (intensity)
    {
    case WINNOW_RTK_INTENSITY_MINIMAL: return "minimal";
    case WINNOW_RTK_INTENSITY_STANDARD: return "standard";
    case WINNOW_RTK_INTENSITY_AGGRESSIVE: return "aggressive";
    default: return "standard";
    }
}

gboolean
winnow_rtk_intensity_from_string (const char         *str,
                                  WinnowRtkIntensity *intensity)
{
  if (g_strcmp0 (str, "minimal") == 0)
    *intensity = WINNOW_RTK_INTENSITY_MINIMAL;
  else if (g_strcmp0 (str, "standard") == 0)
    *intensity = WINNOW_RTK_INTENSITY_STANDARD;
  else if (g_strcmp0 (str, "aggressive") == 0)
    *intensity = WINNOW_RTK_INTENSITY_AGGRESSIVE;
  else
    return FALSE;

  return TRUE;
}

/* ---- splitting and joining --------------------------------------------------------------- */

/* Splits on \r?\n and notes which lines hold terminal escapes or carriage returns, so that
 * stripAnsi only looks at those. libc's memchr() finds the line ends; the escapes and carriage
 * returns are rare, so each is found with a memchr() of its own over the text, run again only
 * once a line has passed the last one found. */
static void
split_lines (Run        *run,
             const char *text,
             gsize       length)
{
  const char *end = text + length;
  const char *start = text;
  const char *next_esc = memchr (text, '\x1b', length);
  const char *next_cr = memchr (text, '\r', length);
  guint index = 0;

  line_array_init (&run->lines, length / 40 + 16);

  for (;;)
    {
      const char *p = memchr (start, '\n', end - start);
      Line line;

      if (p == NULL)
        p = end;

      line.text = start;
      line.len = p - start;
      line.origin = index++;
      line.flags = 0;
      line.key = NO_ORIGIN;

      if G_UNLIKELY (next_esc != NULL && next_esc < p)
        {
          line.flags = LINE_TERMINAL;
          next_esc = memchr (p, '\x1b', end - p);
        }
      if G_UNLIKELY (next_cr != NULL && next_cr < p)
        {
          line.flags = LINE_TERMINAL;
          next_cr = memchr (p, '\r', end - p);
        }

      /* split on \r?\n, as the reference does */
      if (p < end && line.len > 0 && line.text[line.len - 1] == '\r')
        line.len--;

      if G_UNLIKELY (line.len > 0 && line.text[0] == '\xE2' &&
                     winnow_rtk_is_marker (line.text, line.len))
        line.flags |= LINE_MARKER;

      line_array_push (&run->lines, &line);

      if (p >= end)
        break;
      start = p + 1;
    }

  run->n_input_lines = index;
  run->n_content_lines = index;
  if (index > 1 && length > 0 && text[length - 1] == '\n')
    run->n_content_lines--;
}

static char *
join_lines (Run    *run,
            gsize  *length,
            GArray *origins)
{
  GString *out;
  gsize total = 0;

  for (guint i = 0; i < run->lines.len; i++)
    total += line_at (run, i)->len + 1;

  out = g_string_sized_new (total + 1);
  g_array_set_size (origins, run->lines.len);
  for (guint i = 0; i < run->lines.len; i++)
    {
      const Line *line = line_at (run, i);

      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append_len (out, line->text, line->len);
      g_array_index (origins, int, i) = line->origin == NO_ORIGIN ? -1 : (int) line->origin;
    }

  *length = out->len;
  return g_string_free (out, FALSE);
}

/* ---- 1. stripAnsi ------------------------------------------------------------------------ */

/* Length of the escape sequence at @p (which is ESC), never past @end. */
static gsize
escape_length (const char *p,
               const char *end)
{
  const char *q = p + 1;

  if (q >= end)
    return 1;

  switch (*q)
    {
    case '[': /* CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E */
      q++;
      while (q < end && (guchar) *q >= 0x30 && (guchar) *q <= 0x3F)
        q++;
      while (q < end && (guchar) *q >= 0x20 && (guchar) *q <= 0x2F)
        q++;
      if (q < end && (guchar) *q >= 0x40 && (guchar) *q <= 0x7E)
        q++;
      return q - p;

    case ']': /* OSC, ended by BEL or ST (ESC \) */
    case 'P': /* DCS */
    case 'X': /* SOS */
    case '^': /* PM */
    case '_': /* APC */
      for (q++; q < end; q++)
        {
          if (*q == '\a')
            return q + 1 - p;
          if (*q == '\x1b' && q + 1 < end && q[1] == '\\')
            return q + 2 - p;
        }
      return end - p;

    case '(': case ')': case '*': case '+': /* character set designation */
      return MIN (3, (gsize) (end - p));

    default:
      if ((guchar) *q >= 0x20 && (guchar) *q <= 0x7E)
        return 2;
      return 1;
    }
}

/* Removes escapes and, where carriage returns redraw a line, keeps its last non-empty frame.
 * @clean is scratch space shared by all the lines; the text between escapes is copied a run at
 * a time. */
static gboolean
clean_terminal_line (Run     *run,
                     Line    *line,
                     GString *clean,
                     guint   *n_escapes)
{
  const char *end = line->text + line->len;
  const char *frame;
  gsize frame_len;

  if (!(line->flags & LINE_TERMINAL))
    return FALSE;
  line->flags &= ~LINE_TERMINAL;

  g_string_truncate (clean, 0);
  for (const char *p = line->text; p < end;)
    {
      const char *esc = memchr (p, '\x1b', end - p);

      g_string_append_len (clean, p, (esc ? esc : end) - p);
      if (esc == NULL)
        break;
      p = esc + escape_length (esc, end);
      (*n_escapes)++;
    }

  frame = clean->str;
  frame_len = clean->len;
  if (memchr (clean->str, '\r', clean->len) != NULL)
    {
      const char *seg = clean->str;
      const char *stop = clean->str + clean->len;

      frame = NULL;
      while (seg <= stop)
        {
          const char *cr = memchr (seg, '\r', stop - seg);
          const char *seg_end = cr ? cr : stop;

          if (seg_end > seg)
            {
              frame = seg;
              frame_len = seg_end - seg;
            }
          if (cr == NULL)
            break;
          seg = cr + 1;
        }
      if (frame == NULL)
        frame_len = 0, frame = clean->str;
    }

  line->text = g_string_chunk_insert_len (run->chunk, frame, frame_len);
  line->len = frame_len;

  return TRUE;
}

static void
stage_strip_ansi (Run *run)
{
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "stripAnsi");
  g_autoptr(GString) clean = g_string_sized_new (256);
  guint n_escapes = 0;
  guint n_lines = 0;

  for (guint i = 0; i < run->lines.len; i++)
    if (clean_terminal_line (run, line_at (run, i), clean, &n_escapes))
      n_lines++;

  _winnow_trace_stage_add_hits (stage, "rules.stripAnsi", NULL, n_lines);
  if (n_escapes > 0)
    {
      g_autofree char *note = g_strdup_printf ("%u escape sequences removed", n_escapes);
      _winnow_trace_stage_set_note (stage, note);
    }
  _winnow_rtk_stage_end (run, stage);
}

/* ---- 2. filterStderr --------------------------------------------------------------------- */

static void
stage_filter_stderr (Run *run)
{
  static const char * const prefixes[] = { "stderr |", "stderr:", "err:" };
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "filterStderr");
  guint count = 0;

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      gsize lead = 0;

      while (lead < line->len && (line->text[lead] == ' ' || line->text[lead] == '\t'))
        lead++;

      for (guint k = 0; k < G_N_ELEMENTS (prefixes); k++)
        {
          gsize plen = strlen (prefixes[k]);

          if (line->len - lead >= plen && memcmp (line->text + lead, prefixes[k], plen) == 0)
            {
              gsize cut = lead + plen;

              if (cut < line->len && line->text[cut] == ' ')
                cut++;
              line->text += cut;
              line->len -= cut;
              count++;
              break;
            }
        }
    }

  _winnow_trace_stage_add_hits (stage, "rules.filterStderr", NULL, count);
  _winnow_rtk_stage_end (run, stage);
}

/* ---- 3. replace -------------------------------------------------------------------------- */

static void
resplit_if_needed (Run *run)
{
  LineArray lines;
  gboolean any = FALSE;

  for (guint i = 0; i < run->lines.len && !any; i++)
    any = memchr (line_at (run, i)->text, '\n', line_at (run, i)->len) != NULL;
  if (!any)
    return;

  /* a replacement wrote a newline: those pieces become lines of their own */
  line_array_init (&lines, run->lines.len + 8);
  for (guint i = 0; i < run->lines.len; i++)
    {
      Line line = *line_at (run, i);
      const char *p = line.text;
      const char *end = line.text + line.len;

      for (;;)
        {
          const char *nl = memchr (p, '\n', end - p);
          Line piece = line;

          piece.text = p;
          piece.len = (nl ? nl : end) - p;
          line_array_push (&lines, &piece);
          if (nl == NULL)
            break;
          p = nl + 1;
        }
    }

  replace_lines (run, &lines);
}

static void
stage_replace (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "replace");

  for (guint r = 0; r < program->n_replace; r++)
    {
      const WinnowReplaceStep *step = &program->replace[r];
      guint count = 0;

      for (guint i = 0; i < run->lines.len; i++)
        {
          Line *line = line_at (run, i);
          g_autofree char *replaced = NULL;
          gsize trimmed;
          guint n = 0;

          if (!_winnow_rtk_test_line (run, step->pattern.regex, line))
            continue;

          if (_winnow_regex_trim_length (step->pattern.regex, step->replacement, line->text,
                                         line->len, &trimmed))
            {
              /* the text without its trailing spaces is where it is already */
              line->len = trimmed;
              count++;
              continue;
            }

          replaced = winnow_regex_replace (step->pattern.regex, line->text, line->len,
                                           step->replacement, &n);
          if (n == 0)
            continue;

          line->len = strlen (replaced);
          line->text = g_string_chunk_insert_len (run->chunk, replaced, line->len);
          count++;
        }

      _winnow_trace_stage_add_hits (stage, step->pattern.path,
                                    winnow_regex_get_source (step->pattern.regex), count);
    }

  resplit_if_needed (run);
  _winnow_rtk_stage_end (run, stage);
}

/* ---- preserve (not a stage of its own: it marks lines the later stages must keep) -------- */

static void
mark_preserved (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage;
  g_autofree guint *hits = NULL;
  g_autofree int *results = NULL;
  guint preserved = 0;

  if (program->n_preserve == 0)
    return;

  stage = _winnow_rtk_stage_begin (run, "preserve");
  hits = g_new0 (guint, program->n_preserve);
  results = _winnow_rtk_match_lines (run, program->preserve, program->n_preserve, LINE_MARKER);

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      int k = results[i];

      if (k < 0)
        continue;

      hits[k]++;
      preserved++;
      line->flags |= LINE_PRESERVED;
      if ((guint) k < program->n_error)
        line->flags |= LINE_ERROR;
      else
        {
          /* a summary line may still be an error line: check the error patterns it skipped */
          if (_winnow_rtk_first_match (run, program->preserve, program->n_error, line) >= 0)
            line->flags |= LINE_ERROR;
        }
    }

  _winnow_rtk_add_pattern_hits (stage, program->preserve, hits, program->n_preserve);
  if (preserved > 0)
    {
      g_autofree char *note = g_strdup_printf ("%u lines protected from removal", preserved);
      _winnow_trace_stage_set_note (stage, note);
    }
  _winnow_rtk_stage_end (run, stage);
}

/* ---- 4. matchOutput ---------------------------------------------------------------------- */

static gboolean
stage_match_output (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "matchOutput");
  g_autoptr(GString) whole = g_string_new (NULL);
  gboolean has_error_line = FALSE;
  gboolean taken = FALSE;

  for (guint i = 0; i < run->lines.len; i++)
    {
      const Line *line = line_at (run, i);

      if (i > 0)
        g_string_append_c (whole, '\n');
      g_string_append_len (whole, line->text, line->len);
      has_error_line |= (line->flags & LINE_ERROR) != 0;
    }

  for (guint r = 0; r < program->n_shortcuts && !taken; r++)
    {
      const WinnowShortcut *shortcut = &program->shortcuts[r];
      WinnowRegexResult hit;

      hit = winnow_regex_test (shortcut->pattern.regex, whole->str, whole->len);
      if (hit == WINNOW_REGEX_BUDGET_EXCEEDED)
        run->budget_exceeded++;
      if (hit != WINNOW_REGEX_MATCH)
        continue;

      if (shortcut->unless.regex != NULL)
        {
          WinnowRegexResult veto = winnow_regex_test (shortcut->unless.regex,
                                                      whole->str, whole->len);
          /* when in doubt (budget ran out), do not throw the output away */
          if (veto != WINNOW_REGEX_NO_MATCH)
            {
              _winnow_trace_stage_set_note (stage, "shortcut vetoed by its “unless” pattern");
              continue;
            }
        }

      if (has_error_line)
        {
          _winnow_trace_stage_set_note (stage,
                                        "shortcut not taken: the output has error lines");
          continue;
        }

      for (guint i = 0; i < run->lines.len; i++)
        record_removed (run, line_at (run, i)->origin);

      run->lines.len = 0;
      {
        Line message = _winnow_rtk_make_message (run, shortcut->message);
        line_array_push (&run->lines, &message);
      }
      _winnow_trace_stage_add_hits (stage, shortcut->pattern.path,
                                    winnow_regex_get_source (shortcut->pattern.regex), 1);
      taken = TRUE;
    }

  _winnow_rtk_stage_end (run, stage);
  return taken;
}

/* ---- 5. dropPatterns --------------------------------------------------------------------- */

static void
stage_drop (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "dropPatterns");
  g_autofree guint *hits = g_new0 (guint, program->n_drop);
  g_autofree int *results = _winnow_rtk_match_lines (run, program->drop, program->n_drop,
                                                      LINE_ERROR | LINE_MARKER);

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      int k = results[i];

      line->flags |= LINE_KEEP;
      if (k >= 0)
        {
          hits[k]++;
          line->flags &= ~LINE_KEEP;
        }
    }

  _winnow_rtk_compact (run);
  _winnow_rtk_add_pattern_hits (stage, program->drop, hits, program->n_drop);
  _winnow_rtk_stage_end (run, stage);
}

/* ---- 6. includePatterns ------------------------------------------------------------------ */

static void
stage_include (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "includePatterns");
  g_autofree guint *hits = g_new0 (guint, program->n_include);
  g_autofree int *results = _winnow_rtk_match_lines (run, program->include, program->n_include, 0);
  guint matched = 0;

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      int k = results[i];

      if (k >= 0)
        {
          hits[k]++;
          matched++;
          line->flags |= LINE_KEEP;
        }
      else if (is_protected (line))
        line->flags |= LINE_KEEP;
    }

  if (matched == 0)
    {
      /* nothing to prefer: the stage is a no-op rather than an eraser */
      for (guint i = 0; i < run->lines.len; i++)
        line_at (run, i)->flags |= LINE_KEEP;
      _winnow_trace_stage_set_note (stage, "no line matched, so every line is kept");
    }

  _winnow_rtk_compact (run);
  _winnow_rtk_add_pattern_hits (stage, program->include, hits, program->n_include);
  _winnow_rtk_stage_end (run, stage);
}

/* ---- 7. collapsePatterns ----------------------------------------------------------------- */

static void
stage_collapse (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "collapsePatterns");
  g_autofree guint *hits = g_new0 (guint, program->n_collapse);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree int *results = _winnow_rtk_match_lines (run, program->collapse, program->n_collapse,
                                                      LINE_MARKER);

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      const char *start = line->text;
      const char *stop = line->text + line->len;
      const char *key;
      int k = results[i];

      line->flags |= LINE_KEEP;

      /* a protected line is collapsed only onto an identical copy that stays */
      if (k < 0)
        continue;

      while (start < stop && g_ascii_isspace (*start))
        start++;
      while (stop > start && g_ascii_isspace (stop[-1]))
        stop--;

      key = g_string_chunk_insert_len (run->chunk, start, stop - start);
      if (g_hash_table_contains (seen, key))
        {
          hits[k]++;
          line->flags &= ~LINE_KEEP;
        }
      else
        g_hash_table_add (seen, (gpointer) key);
    }

  _winnow_rtk_compact (run);
  _winnow_rtk_add_pattern_hits (stage, program->collapse, hits, program->n_collapse);
  _winnow_rtk_stage_end (run, stage);
}

/* ---- 8. truncateLineAt ------------------------------------------------------------------- */

static void
stage_truncate (Run   *run,
                guint  limit)
{
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "truncateLineAt");
  guint count = 0;

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      guint keep = limit <= 3 ? limit : limit - 3;
      const char *p = line->text;
      const char *end = line->text + line->len;
      const char *cut = NULL;
      guint n = 0;

      /* a line of at most @limit bytes has at most @limit code points */
      if (line->len <= limit || is_protected (line))
        continue;

      while (p < end)
        {
          if (n == keep)
            cut = p;
          if (n == limit)
            break;
          p = g_utf8_next_char (p);
          n++;
        }

      if (p >= end)
        continue; /* not longer than the limit after all */

      {
        g_autoptr(GString) text = g_string_new_len (line->text, cut - line->text);

        if (limit > 3)
          g_string_append (text, "...");
        line->len = text->len;
        line->text = g_string_chunk_insert_len (run->chunk, text->str, text->len);
      }
      count++;
    }

  _winnow_trace_stage_add_hits (stage, "rules.truncateLineAt", NULL, count);
  _winnow_rtk_stage_end (run, stage);
}

/* ---- 11. onEmpty ------------------------------------------------------------------------- */

static void
stage_on_empty (Run *run)
{
  WinnowTraceStage *stage = _winnow_rtk_stage_begin (run, "onEmpty");
  const char *on_empty = winnow_filter_get_on_empty (run->filter);
  g_autofree char *summary = NULL;
  Line message;

  for (guint i = 0; i < run->lines.len; i++)
    if (!is_blank (line_at (run, i)))
      {
        _winnow_rtk_stage_end (run, stage);
        return;
      }

  for (guint i = 0; i < run->lines.len; i++)
    record_removed (run, line_at (run, i)->origin);

  if (on_empty != NULL && on_empty[0] != '\0')
    {
      message = _winnow_rtk_make_message (run, on_empty);
      _winnow_trace_stage_add_hits (stage, "rules.onEmpty", on_empty, 1);
    }
  else
    {
      guint n = run->n_content_lines;

      summary = g_strdup_printf ("%s: %u %s, no errors", winnow_filter_get_id (run->filter), n,
                                 n == 1 ? "line" : "lines");
      message = _winnow_rtk_make_message (run, summary);
      _winnow_trace_stage_set_note (stage, "everything was filtered out; a summary line "
                                           "stands in for it");
    }

  run->lines.len = 0;
  line_array_push (&run->lines, &message);
  _winnow_rtk_stage_end (run, stage);
}

/* ---- the runner -------------------------------------------------------------------------- */

static void
run_filter (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowFilter *filter = run->filter;

  if (winnow_filter_get_strip_ansi (filter))
    stage_strip_ansi (run);
  if (winnow_filter_get_filter_stderr (filter))
    stage_filter_stderr (run);
  if (program->n_replace > 0)
    stage_replace (run);

  /* from here to truncateLineAt the texts stay as they are: give each line a slot for its
   * byte pairs, so the literal prefilter computes them once for all the pattern stages */
  run->n_pairs = run->lines.len;
  run->pairs = g_new (WinnowBigrams, MAX (run->n_pairs, 1));
  run->pairs_state = g_new0 (guint8, MAX (run->n_pairs, 1));
  for (guint i = 0; i < run->lines.len; i++)
    line_at (run, i)->key = i;

  mark_preserved (run);

  if (program->n_shortcuts > 0 && stage_match_output (run))
    return;

  if (program->n_drop > 0)
    stage_drop (run);
  if (program->n_include > 0)
    stage_include (run);
  if (program->n_collapse > 0)
    stage_collapse (run);
  if (winnow_filter_get_truncate_line_at (filter) > 0)
    stage_truncate (run, winnow_filter_get_truncate_line_at (filter));
  if (winnow_filter_get_deduplicate (filter))
    _winnow_rtk_stage_deduplicate (run, "deduplicate", "rules.deduplicate", run->options->dedup_threshold);
  if (winnow_filter_get_max_lines (filter) > 0)
    _winnow_rtk_stage_head_tail (run);

  stage_on_empty (run);
}

static WinnowRtkResult *
unchanged_result (const char       *text,
                  gsize             length,
                  WinnowRtkOutcome  outcome,
                  const char       *filter_id,
                  guint             n_lines,
                  GListStore       *stages,
                  guint             budget_exceeded)
{
  GArray *origins = g_array_sized_new (FALSE, FALSE, sizeof (int), n_lines);

  g_array_set_size (origins, n_lines);
  for (guint i = 0; i < n_lines; i++)
    g_array_index (origins, int, i) = i;

  return _winnow_rtk_result_new (g_strndup (text, length), length, outcome, filter_id, length,
                                 n_lines, n_lines, stages, origins, budget_exceeded);
}

static WinnowRtkResult *
apply (WinnowFilter           *filter,
       const char             *text,
       gssize                  length,
       const WinnowRtkOptions *options,
       gboolean                known_utf8)
{
  WinnowRtkOptions defaults;
  const char *filter_id = filter ? winnow_filter_get_id (filter) : NULL;
  Run run = { 0 };
  g_autofree char *out = NULL;
  GArray *origins;
  gsize out_len = 0;
  gsize len;
  guint n_in;

  g_return_val_if_fail (filter == NULL || WINNOW_IS_FILTER (filter), NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (options == NULL)
    {
      winnow_rtk_options_init (&defaults);
      options = &defaults;
    }

  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;

  if (len == 0)
    return unchanged_result (text, 0, WINNOW_RTK_OUTCOME_EMPTY_INPUT, filter_id, 0, NULL, 0);

  /* lines keep 32-bit lengths; nothing that large is command output an agent reads */
  if (len > G_MAXUINT32 || (!known_utf8 && !_winnow_utf8_validate (text, len, NULL)))
    {
      guint n = 1;
      for (gsize i = 0; i < len; i++)
        n += text[i] == '\n';
      return unchanged_result (text, len, WINNOW_RTK_OUTCOME_NOT_UTF8, filter_id, n, NULL, 0);
    }

  run.options = options;
  run.filter = filter;
  run.program = filter ? _winnow_filter_get_program (filter) : NULL;
  run.chunk = g_string_chunk_new (4096);
  run.stages = g_list_store_new (WINNOW_TYPE_TRACE_STAGE);

  split_lines (&run, text, len);
  n_in = run.n_input_lines;

  if (filter != NULL)
    run_filter (&run);

  if (options->engine_limits)
    {
      if (options->intensity != WINNOW_RTK_INTENSITY_MINIMAL)
        _winnow_rtk_stage_deduplicate (&run, "engine:deduplicate", "deduplicateThreshold",
                           options->dedup_threshold);
      _winnow_rtk_stage_engine_cap (&run);
    }

  origins = g_array_sized_new (FALSE, FALSE, sizeof (int), run.lines.len);
  out = join_lines (&run, &out_len, origins);
  g_string_chunk_free (run.chunk);
  g_free (run.lines.v);
  g_free (run.removed.v);
  g_free (run.pairs);
  g_free (run.pairs_state);

  if (out_len >= len)
    {
      gboolean same = out_len == len && memcmp (out, text, len) == 0;
      WinnowTraceStage *guard = _winnow_trace_stage_new ("guard", n_in);

      _winnow_trace_stage_set_note (guard, same
                                    ? "nothing to remove"
                                    : "the result was not shorter, so the input is kept");
      g_list_store_append (run.stages, guard);
      g_object_unref (guard);
      g_array_unref (origins);

      return unchanged_result (text, len,
                               same ? WINNOW_RTK_OUTCOME_UNCHANGED
                                    : WINNOW_RTK_OUTCOME_NOT_SHORTER,
                               filter_id, n_in, run.stages, run.budget_exceeded);
    }

  return _winnow_rtk_result_new (g_steal_pointer (&out), out_len, WINNOW_RTK_OUTCOME_COMPRESSED,
                                 filter_id, len, n_in, origins->len, run.stages, origins,
                                 run.budget_exceeded);
}

/**
 * winnow_rtk_apply:
 * @filter: (nullable): the filter to run, or %NULL for the engine limits only
 * @text: command output
 * @length: length of @text in bytes, or -1 if nul-terminated
 * @options: (nullable): #WinnowRtkOptions, or %NULL for the defaults
 *
 * Runs @filter's stages over @text. Pure: no I/O, no shared state, safe on any thread.
 *
 * Returns: (transfer full): the result with its trace
 */
WinnowRtkResult *
winnow_rtk_apply (WinnowFilter           *filter,
                  const char             *text,
                  gssize                  length,
                  const WinnowRtkOptions *options)
{
  return apply (filter, text, length, options, FALSE);
}

/* The same for text the caller has just found to be valid UTF-8 (winnow_context_compress):
 * validation is a tenth of the pipeline's work on a big log, once is enough. */
WinnowRtkResult *
_winnow_rtk_apply_utf8 (WinnowFilter           *filter,
                        const char             *text,
                        gsize                   length,
                        const WinnowRtkOptions *options)
{
  return apply (filter, text, (gssize) length, options, TRUE);
}
