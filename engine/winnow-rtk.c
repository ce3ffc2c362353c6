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

#include "winnow-filter-private.h"
#include "winnow-utf8.h"
#include "winnow-rtk.h"
#include "winnow-rtk-private.h"

#define NO_ORIGIN G_MAXUINT

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
  gsize       len;
  guint       origin;   /* index of the input line, or NO_ORIGIN */
  guint       flags;
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
  GStringChunk              *chunk;        /* text of every line we rewrote or inserted */
  GListStore                *stages;
  guint                      n_input_lines;
  guint                      n_content_lines;  /* not counting the piece after a final \n */
  guint                      budget_exceeded;
} Run;

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

/* ---- small helpers ----------------------------------------------------------------------- */

static void
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

/* Makes @next the run's lines, freeing the old ones. */
static void
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

static gboolean
test_line (Run         *run,
           WinnowRegex *regex,
           const Line  *line)
{
  WinnowRegexResult result = winnow_regex_test (regex, line->text, line->len);

  if G_UNLIKELY (result == WINNOW_REGEX_BUDGET_EXCEEDED)
    run->budget_exceeded++;

  return result == WINNOW_REGEX_MATCH;
}

/* Index of the first pattern matching @line, or -1. (A union of the list as one regex was
 * measured slower: it loses PCRE2's start-of-match optimisations.) */
static int
first_match (Run                 *run,
             const WinnowPattern *patterns,
             guint                n_patterns,
             const Line          *line)
{
  for (guint i = 0; i < n_patterns; i++)
    if (test_line (run, patterns[i].regex, line))
      return i;
  return -1;
}

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

static Line
make_marker (Run        *run,
             const char *what,
             guint       count)
{
  g_autofree char *text = NULL;
  Line line = { 0 };

  if (g_strcmp0 (what, "lines") == 0)
    text = g_strdup_printf (MARKER_PREFIX "%u %s omitted" MARKER_SUFFIX, count,
                            count == 1 ? "line" : "lines");
  else
    text = g_strdup_printf (MARKER_PREFIX "%u identical lines omitted" MARKER_SUFFIX, count);

  line.len = strlen (text);
  line.text = g_string_chunk_insert_len (run->chunk, text, line.len);
  line.origin = NO_ORIGIN;
  line.flags = LINE_MARKER;

  return line;
}

static Line
make_message (Run        *run,
              const char *text)
{
  Line line = { 0 };

  line.len = strlen (text);
  line.text = g_string_chunk_insert_len (run->chunk, text, line.len);
  line.origin = NO_ORIGIN;
  line.flags = LINE_MARKER;

  return line;
}

static WinnowTraceStage *
stage_begin (Run        *run,
             const char *name)
{
  run->removed.len = 0;
  return _winnow_trace_stage_new (name, run->lines.len);
}

static void
stage_end (Run              *run,
           WinnowTraceStage *stage)
{
  _winnow_trace_stage_finish (stage, run->lines.len);
  _winnow_trace_stage_set_removed (stage, run->removed.v, run->removed.len);
  run->removed.len = 0;
  g_list_store_append (run->stages, stage);
  g_object_unref (stage);
}

/* Drops every line without LINE_KEEP (clearing the bit on the rest), recording removals. */
static void
compact (Run *run)
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

static void
add_pattern_hits (WinnowTraceStage    *stage,
                  const WinnowPattern *patterns,
                  const guint         *hits,
                  guint                n)
{
  for (guint i = 0; i < n; i++)
    _winnow_trace_stage_add_hits (stage, patterns[i].path,
                                  winnow_regex_get_source (patterns[i].regex), hits[i]);
}

static guint
scale (guint              value,
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

/* ---- splitting and joining --------------------------------------------------------------- */

#define ONES  G_GUINT64_CONSTANT (0x0101010101010101)
#define HIGHS G_GUINT64_CONSTANT (0x8080808080808080)

/* Non-zero when some byte of @word equals @byte (the classic SWAR zero-byte test). */
static inline guint64
has_byte (guint64 word,
          guchar  byte)
{
  guint64 x = word ^ (ONES * byte);

  return (x - ONES) & ~x & HIGHS;
}

/* Splits on \r?\n, eight bytes at a time, and notes which lines hold terminal escapes or
 * carriage returns so that stripAnsi only looks at those. */
static void
split_lines (Run        *run,
             const char *text,
             gsize       length)
{
  const char *p = text;
  const char *end = text + length;
  const char *start = text;
  guint index = 0;
  guint flags = 0;

  line_array_init (&run->lines, length / 40 + 16);

  for (;;)
    {
      Line line;

      /* skip eight bytes at a time while none is \n, \r or ESC */
      while (end - p >= 8)
        {
          guint64 word;

          memcpy (&word, p, 8);
          if (has_byte (word, '\n') | has_byte (word, '\r') | has_byte (word, '\x1b'))
            break;
          p += 8;
        }
      while (p < end && *p != '\n')
        {
          if (*p == '\x1b' || *p == '\r')
            flags = LINE_TERMINAL;
          p++;
          if (((p - text) & 7) == 0 && end - p >= 8)
            break; /* back to the fast loop */
        }
      if (p < end && *p != '\n')
        continue;

      line.text = start;
      line.len = p - start;
      line.origin = index++;
      line.flags = flags;

      /* split on \r?\n, as the reference does */
      if (p < end && line.len > 0 && line.text[line.len - 1] == '\r')
        line.len--;

      if G_UNLIKELY (line.len > 0 && line.text[0] == '\xE2' &&
                     winnow_rtk_is_marker (line.text, line.len))
        line.flags |= LINE_MARKER;

      line_array_push (&run->lines, &line);

      if (p >= end)
        break;
      start = ++p;
      flags = 0;
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

/* Removes escapes and, where carriage returns redraw a line, keeps its last non-empty frame. */
static gboolean
clean_terminal_line (Run  *run,
                     Line *line,
                     guint *n_escapes)
{
  const char *end = line->text + line->len;
  GString *clean;
  const char *frame;
  gsize frame_len;

  if (!(line->flags & LINE_TERMINAL))
    return FALSE;
  line->flags &= ~LINE_TERMINAL;

  clean = g_string_sized_new (line->len);
  for (const char *p = line->text; p < end;)
    {
      if (*p == '\x1b')
        {
          p += escape_length (p, end);
          (*n_escapes)++;
        }
      else
        g_string_append_c (clean, *p++);
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
  g_string_free (clean, TRUE);

  return TRUE;
}

static void
stage_strip_ansi (Run *run)
{
  WinnowTraceStage *stage = stage_begin (run, "stripAnsi");
  guint n_escapes = 0;
  guint n_lines = 0;

  for (guint i = 0; i < run->lines.len; i++)
    if (clean_terminal_line (run, line_at (run, i), &n_escapes))
      n_lines++;

  _winnow_trace_stage_add_hits (stage, "rules.stripAnsi", NULL, n_lines);
  if (n_escapes > 0)
    {
      g_autofree char *note = g_strdup_printf ("%u escape sequences removed", n_escapes);
      _winnow_trace_stage_set_note (stage, note);
    }
  stage_end (run, stage);
}

/* ---- 2. filterStderr --------------------------------------------------------------------- */

static void
stage_filter_stderr (Run *run)
{
  static const char * const prefixes[] = { "stderr |", "stderr:", "err:" };
  WinnowTraceStage *stage = stage_begin (run, "filterStderr");
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
  stage_end (run, stage);
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
  WinnowTraceStage *stage = stage_begin (run, "replace");

  for (guint r = 0; r < program->n_replace; r++)
    {
      const WinnowReplaceStep *step = &program->replace[r];
      guint count = 0;

      for (guint i = 0; i < run->lines.len; i++)
        {
          Line *line = line_at (run, i);
          g_autofree char *replaced = NULL;
          guint n = 0;

          if (!test_line (run, step->pattern.regex, line))
            continue;

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
  stage_end (run, stage);
}

/* ---- preserve (not a stage of its own: it marks lines the later stages must keep) -------- */

static void
mark_preserved (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage;
  g_autofree guint *hits = NULL;
  guint preserved = 0;

  if (program->n_preserve == 0)
    return;

  stage = stage_begin (run, "preserve");
  hits = g_new0 (guint, program->n_preserve);

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      int k;

      if (line->flags & LINE_MARKER)
        continue;

      k = first_match (run, program->preserve, program->n_preserve, line);
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
          if (first_match (run, program->preserve, program->n_error, line) >= 0)
            line->flags |= LINE_ERROR;
        }
    }

  add_pattern_hits (stage, program->preserve, hits, program->n_preserve);
  if (preserved > 0)
    {
      g_autofree char *note = g_strdup_printf ("%u lines protected from removal", preserved);
      _winnow_trace_stage_set_note (stage, note);
    }
  stage_end (run, stage);
}

/* ---- 4. matchOutput ---------------------------------------------------------------------- */

static gboolean
stage_match_output (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = stage_begin (run, "matchOutput");
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
        Line message = make_message (run, shortcut->message);
        line_array_push (&run->lines, &message);
      }
      _winnow_trace_stage_add_hits (stage, shortcut->pattern.path,
                                    winnow_regex_get_source (shortcut->pattern.regex), 1);
      taken = TRUE;
    }

  stage_end (run, stage);
  return taken;
}

/* ---- 5. dropPatterns --------------------------------------------------------------------- */

static void
stage_drop (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = stage_begin (run, "dropPatterns");
  g_autofree guint *hits = g_new0 (guint, program->n_drop);

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      int k;

      line->flags |= LINE_KEEP;
      if (line->flags & (LINE_ERROR | LINE_MARKER))
        continue;

      k = first_match (run, program->drop, program->n_drop, line);
      if (k >= 0)
        {
          hits[k]++;
          line->flags &= ~LINE_KEEP;
        }
    }

  compact (run);
  add_pattern_hits (stage, program->drop, hits, program->n_drop);
  stage_end (run, stage);
}

/* ---- 6. includePatterns ------------------------------------------------------------------ */

static void
stage_include (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = stage_begin (run, "includePatterns");
  g_autofree guint *hits = g_new0 (guint, program->n_include);
  guint matched = 0;

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      int k = first_match (run, program->include, program->n_include, line);

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

  compact (run);
  add_pattern_hits (stage, program->include, hits, program->n_include);
  stage_end (run, stage);
}

/* ---- 7. collapsePatterns ----------------------------------------------------------------- */

static void
stage_collapse (Run *run)
{
  const WinnowFilterProgram *program = run->program;
  WinnowTraceStage *stage = stage_begin (run, "collapsePatterns");
  g_autofree guint *hits = g_new0 (guint, program->n_collapse);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < run->lines.len; i++)
    {
      Line *line = line_at (run, i);
      const char *start = line->text;
      const char *stop = line->text + line->len;
      const char *key;
      int k;

      line->flags |= LINE_KEEP;
      if (line->flags & LINE_MARKER)
        continue;

      /* a protected line is collapsed only onto an identical copy that stays */
      k = first_match (run, program->collapse, program->n_collapse, line);
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

  compact (run);
  add_pattern_hits (stage, program->collapse, hits, program->n_collapse);
  stage_end (run, stage);
}

/* ---- 8. truncateLineAt ------------------------------------------------------------------- */

static void
stage_truncate (Run   *run,
                guint  limit)
{
  WinnowTraceStage *stage = stage_begin (run, "truncateLineAt");
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
  stage_end (run, stage);
}

/* ---- 9. deduplicate ---------------------------------------------------------------------- */

static void
stage_deduplicate (Run        *run,
                   const char *name,
                   const char *rule,
                   guint       threshold)
{
  WinnowTraceStage *stage = stage_begin (run, name);
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
              Line marker = make_marker (run, "identical", run_len - 1);
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
  stage_end (run, stage);
}

/* Words that make a line worth keeping through head/tail cuts and the engine caps, whatever
 * the filter said. A
 * hand-written scan: this runs on every line of every capped result, so a table of possible
 * first bytes rejects most positions with one load. */
static gboolean
has_failure_word (const Line *line)
{
  static const struct { const char *word; guint8 len; } words[] = {
    { "error", 5 }, { "fail", 4 }, { "exception", 9 }, { "traceback", 9 }, { "panic", 5 },
    { "fatal", 5 }, { "abort", 5 }, { "assert", 6 }, { "segmentation fault", 18 },
    { "\xE2\x9C\x96", 3 } /* ✖ */, { "\xE2\x9C\x97", 3 } /* ✗ */,
  };
  static const guint8 first[256] = {
    ['a'] = 1, ['A'] = 1, ['e'] = 1, ['E'] = 1, ['f'] = 1, ['F'] = 1, ['p'] = 1, ['P'] = 1,
    ['s'] = 1, ['S'] = 1, ['t'] = 1, ['T'] = 1, [0xE2] = 1,
  };
  const guchar *text = (const guchar *) line->text;
  gsize len = line->len;

  for (gsize i = 0; i < len; i++)
    {
      char c;

      if G_LIKELY (!first[text[i]])
        continue;

      c = g_ascii_tolower (text[i]);
      for (guint w = 0; w < G_N_ELEMENTS (words); w++)
        if (words[w].word[0] == c && len - i >= words[w].len &&
            g_ascii_tolower (text[i + 1]) == words[w].word[1] &&
            g_ascii_strncasecmp ((const char *) text + i, words[w].word, words[w].len) == 0)
          return TRUE;
    }

  return FALSE;
}

/* ---- 10. headLines / tailLines / maxLines ------------------------------------------------ */

/* Emits the lines marked LINE_KEEP in order, with one marker for each gap. */
static void
cut_with_markers (Run *run)
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
          Line marker = make_marker (run, "lines", gap);
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

static void
stage_head_tail (Run *run)
{
  WinnowFilter *filter = run->filter;
  WinnowRtkIntensity intensity = run->options->intensity;
  guint max_lines = scale (winnow_filter_get_max_lines (filter), intensity);
  guint head = scale (winnow_filter_get_head_lines (filter), intensity);
  guint tail = scale (winnow_filter_get_tail_lines (filter), intensity);
  WinnowTraceStage *stage = stage_begin (run, "maxLines");
  guint n = run->lines.len;

  if (n > max_lines)
    {
      for (guint i = 0; i < n; i++)
        {
          Line *line = line_at (run, i);

          /* a line with a failure word survives the cut even when the filter did not think
           * of it (a FATAL in the middle of a server log): the engine caps bound the size */
          if (i < head || i + tail >= n || is_protected (line) || has_failure_word (line))
            line->flags |= LINE_KEEP;
        }
      cut_with_markers (run);
      _winnow_trace_stage_add_hits (stage, "rules.maxLines", NULL, n - run->lines.len);
    }

  {
    g_autofree char *note = g_strdup_printf ("limit %u lines: head %u, tail %u", max_lines,
                                             head, tail);
    _winnow_trace_stage_set_note (stage, note);
  }
  stage_end (run, stage);
}

/* ---- 11. onEmpty ------------------------------------------------------------------------- */

static void
stage_on_empty (Run *run)
{
  WinnowTraceStage *stage = stage_begin (run, "onEmpty");
  const char *on_empty = winnow_filter_get_on_empty (run->filter);
  g_autofree char *summary = NULL;
  Line message;

  for (guint i = 0; i < run->lines.len; i++)
    if (!is_blank (line_at (run, i)))
      {
        stage_end (run, stage);
        return;
      }

  for (guint i = 0; i < run->lines.len; i++)
    record_removed (run, line_at (run, i)->origin);

  if (on_empty != NULL && on_empty[0] != '\0')
    {
      message = make_message (run, on_empty);
      _winnow_trace_stage_add_hits (stage, "rules.onEmpty", on_empty, 1);
    }
  else
    {
      guint n = run->n_content_lines;

      summary = g_strdup_printf ("%s: %u %s, no errors", winnow_filter_get_id (run->filter), n,
                                 n == 1 ? "line" : "lines");
      message = make_message (run, summary);
      _winnow_trace_stage_set_note (stage, "everything was filtered out; a summary line "
                                           "stands in for it");
    }

  run->lines.len = 0;
  line_array_push (&run->lines, &message);
  stage_end (run, stage);
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

static void
stage_engine_cap (Run *run)
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
      max_lines = scale (max_lines, options->intensity);
      max_chars = scale (max_chars, options->intensity);
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

  stage = stage_begin (run, "engine:cap");
  if (max_lines == 0)
    max_lines = G_MAXUINT / 4;
  if (max_chars == 0)
    max_chars = G_MAXSIZE / 4;

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
        wanted = tier == 0 ? ((line->flags & LINE_ERROR) || has_failure_word (line))
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

  cut_with_markers (run);
  _winnow_trace_stage_add_hits (stage, "maxLinesPerResult/maxCharsPerResult", NULL,
                                n > run->lines.len ? n - run->lines.len : 0);
  {
    g_autofree char *note =
      g_strdup_printf ("capped at %u lines / %" G_GSIZE_FORMAT " characters",
                       options->max_lines_per_result,
                       (gsize) options->max_chars_per_result);
    _winnow_trace_stage_set_note (stage, note);
  }
  stage_end (run, stage);
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
    stage_deduplicate (run, "deduplicate", "rules.deduplicate", run->options->dedup_threshold);
  if (winnow_filter_get_max_lines (filter) > 0)
    stage_head_tail (run);

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

  if (!_winnow_utf8_validate (text, len, NULL))
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
        stage_deduplicate (&run, "engine:deduplicate", "deduplicateThreshold",
                           options->dedup_threshold);
      stage_engine_cap (&run);
    }

  origins = g_array_sized_new (FALSE, FALSE, sizeof (int), run.lines.len);
  out = join_lines (&run, &out_len, origins);
  g_string_chunk_free (run.chunk);
  g_free (run.lines.v);
  g_free (run.removed.v);

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
