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

Line
_winnow_rtk_make_marker (Run        *run,
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
