/* winnow-protect-phrases.c — technical tokens that span several words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A few protected shapes run over spaces, so the lexer tries them at the start of a chunk,
 * before the chunk is classified alone:
 *
 *  - a shell command inside a sentence: a known tool word and the arguments after it on the
 *    line ("run npm install --save-dev vitest to add it" protects `npm install --save-dev
 *    vitest`). Arguments end at a function word of the supported languages, at a capitalised
 *    word, after sentence punctuation, or after three plain words in a row. Tools that are
 *    English words (make, find, cat…) need "run" before them or a technical argument, so
 *    "make sure" and "find the bug" stay prose;
 *  - a date written with names: "18 Apr 2026", "April 18, 2026", RFC 2822 and ctime dates;
 *  - main, master, develop or trunk after a branch word ("merge into main").
 *
 * Each looks at most a handful of chunks ahead on the same line.
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"

static gboolean
is_operator_chunk (const char *s,
                   gsize       n)
{
  static const char * const operators[] = { "&&", "||", "|", ";", NULL };

  return _winnow_protect_word_in (s, n, operators);
}

/* an argument that cannot be an ordinary word */
static gboolean
is_technical_arg (const char *s,
                  gsize       n)
{
  if (s[0] == '-')
    return TRUE;
  for (gsize i = 0; i < n; i++)
    if (g_ascii_isdigit (s[i]) || _winnow_protect_has_class (s[i], CC_TECH))
      return TRUE;
  return FALSE;
}

static gboolean
is_plain_arg (const char *s,
              gsize       n)
{
  for (gsize i = 0; i < n; i++)
    if (!(g_ascii_islower (s[i]) || g_ascii_isdigit (s[i]) || s[i] == '-'))
      return FALSE;
  return n > 0;
}

/* where an argument ends once sentence punctuation after it is dropped */
gsize
_winnow_protect_sentence_end (const char *t,
                              gsize       s,
                              gsize       e)
{
  while (e > s)
    {
      guchar c = t[e - 1];

      if (c == '.' && e - s >= 2 && t[e - 2] == '.')
        break;
      if (_winnow_protect_has_class (c, CC_SENTENCE))
        e--;
      else if ((c == ')' || c == ']' || c == '}') && _winnow_protect_unbalanced (t, s, e, c))
        e--;
      else
        break;
    }
  return e;
}

/* "run npm install --save-dev vitest", "git push origin main", "sudo apt install jq",
 * "make -j4 && make test": a tool word and the arguments that follow it on the line. */
gsize
_winnow_protect_try_command (ProtectLexer *lx,
                             gsize         a,
                             gsize         b)
{
  const char *t = lx->text;
  const ProtectTool *tool, *current;
  ToolPolicy policy;
  gsize tool_end = _winnow_protect_sentence_end (t, a, b), q, last, len;
  gboolean trigger = FALSE, first = TRUE, script = FALSE;
  guint args = 0, technical = 0, plain_run = 0;

  tool = _winnow_protect_lookup_tool (t + a, tool_end - a);
  if (tool == NULL)
    {
      /* ./configure, ./dev */
      if (b - a < 3 || t[a] != '.' || t[a + 1] != '/' || tool_end != b)
        return 0;
      for (gsize i = a + 2; i < b; i++)
        if (!(_winnow_protect_is_word_char (t[i]) || t[i] == '-' || t[i] == '.'))
          return 0;
      script = TRUE;
    }

  if (lx->n_recent > 0)
    {
      const char *w = _winnow_protect_recent_word (lx, 0, &len);

      trigger = _winnow_protect_is_trigger (w, len);
    }

  if (tool_end < b)
    {
      if (!trigger || tool_end == a)
        return 0;
      _winnow_protect_emit (lx, a, tool_end, WINNOW_PROTECT_COMMAND);
      return b;
    }

  current = tool;
  policy = tool != NULL ? tool->policy : TOOL_ANY;
  q = last = b;

  for (;;)
    {
      gsize cs, ce, ae;
      gboolean stop_after;

      if (!_winnow_protect_next_chunk (lx, q, &cs, &ce))
        break;

      if (is_operator_chunk (t + cs, ce - cs))
        {
          gsize ts, te;
          const ProtectTool *chained;

          if (!_winnow_protect_next_chunk (lx, ce, &ts, &te) ||
              (chained = _winnow_protect_lookup_tool (t + ts, te - ts)) == NULL)
            break;
          current = chained;
          policy = chained->policy;
          first = TRUE;
          q = last = te;
          continue;
        }

      if (t[cs] == '"' || t[cs] == '\'')
        {
          const char *close = NULL;
          gsize limit = MIN (lx->end, cs + 256);

          for (gsize k = cs + 1; k < limit && t[k] != '\n'; k++)
            if (t[k] == t[cs])
              {
                close = t + k;
                break;
              }
          if (close == NULL)
            break;
          ae = close - t + 1;
          args++;
          technical++;
          plain_run = 0;
          first = FALSE;
          last = ae;
          q = ae;
          if (ae < lx->end && _winnow_protect_has_class (t[ae], CC_SENTENCE))
            break;
          continue;
        }

      ae = _winnow_protect_sentence_end (t, cs, ce);
      stop_after = ae < ce;
      if (ae == cs)
        break;

      if (policy == TOOL_PREFIX && first)
        {
          const ProtectTool *chained = _winnow_protect_lookup_tool (t + cs, ae - cs);

          if (t[cs] == '-' && !stop_after)
            {
              q = ce;
              continue;
            }
          if (chained == NULL)
            break;
          current = chained;
          policy = chained->policy;
          args++;
          last = ae;
          q = ce;
          if (stop_after)
            break;
          continue;
        }

      if (is_technical_arg (t + cs, ae - cs))
        {
          technical++;
          plain_run = 0;
        }
      else
        {
          /* a capitalised word is prose again */
          if (!is_plain_arg (t + cs, ae - cs))
            break;
          if (!(first && current != NULL &&
                _winnow_protect_is_subcommand (current, t + cs, ae - cs)))
            {
              if (_winnow_protect_is_stopword (t + cs, ae - cs))
                break;
              if (first && !trigger && (policy == TOOL_SUBCOMMAND || policy == TOOL_TECHNICAL))
                break;
              if (plain_run >= 3)
                break;
            }
          plain_run++;
        }

      first = FALSE;
      args++;
      last = ae;
      q = ce;
      if (stop_after)
        break;
    }

  if (args == 0 && !trigger)
    return 0;
  if (tool != NULL && tool->policy == TOOL_ENGLISH && !trigger && technical == 0)
    return 0;
  if (script && args == 0 && !trigger)
    return 0;

  _winnow_protect_emit (lx, a, last, WINNOW_PROTECT_COMMAND);
  return last;
}

typedef enum
{
  DT_OTHER,
  DT_DAY_NAME,
  DT_MONTH,
  DT_DAY,
  DT_YEAR,
  DT_TIME,
  DT_ZONE,
} DateToken;

typedef struct
{
  gsize     start;
  gsize     end;   /* without a trailing comma or period */
  DateToken kind;
} DatePart;

static DateToken
date_token (const char *s,
            gsize       n)
{
  gsize d = _winnow_protect_count_digits (s, n, 0);

  if (n == 0)
    return DT_OTHER;
  if (d == n && (n == 1 || n == 2) && _winnow_protect_number_at (s, 0, n) >= 1 &&
      _winnow_protect_number_at (s, 0, n) <= 31)
    return DT_DAY;
  if (d == n && n == 4)
    return DT_YEAR;
  if (g_ascii_isdigit (s[0]))
    return _winnow_protect_is_time (s, n) ? DT_TIME : DT_OTHER;
  if (_winnow_protect_is_zone (s, n))
    return DT_ZONE;
  if (_winnow_protect_month (s, n) > 0)
    return DT_MONTH;
  if (_winnow_protect_is_day_name (s, n))
    return DT_DAY_NAME;
  return DT_OTHER;
}

/* "18 Apr 2026", "April 18, 2026", "Sat, 18 Apr 2026 09:00:00 GMT",
 * "Sat Apr 18 09:00:12 2026 +0200" (git, ctime) */
gsize
_winnow_protect_try_named_date (ProtectLexer *lx,
                                gsize         s,
                                gsize         e,
                                gsize         b)
{
  const char *t = lx->text;
  DatePart parts[8];
  guint n = 0, i = 0;
  gsize q = s;
  gboolean year = FALSE;

  /* cheap refusal: a date starts with a day name, a month name or a day of the month */
  if (e - s > 10 || s >= e || !(g_ascii_isupper (t[s]) || g_ascii_isdigit (t[s])))
    return 0;
  {
    DateToken k = date_token (t + s, e - s);

    if (k != DT_DAY_NAME && k != DT_MONTH && k != DT_DAY)
      return 0;
  }

  for (n = 0; n < G_N_ELEMENTS (parts); )
    {
      gsize cs, ce;
      gboolean last = FALSE;

      if (n == 0)
        {
          cs = s;
          ce = b;
        }
      else if (!_winnow_protect_next_chunk (lx, q, &cs, &ce))
        break;
      q = ce;
      parts[n].start = cs;
      parts[n].end = _winnow_protect_sentence_end (t, cs, ce);
      /* "18 Apr, 2026" goes on after a comma, not after other punctuation */
      for (gsize k = parts[n].end; k < ce; k++)
        if (t[k] != ',' && t[k] != '.')
          last = TRUE;
      parts[n].kind = date_token (t + cs, parts[n].end - cs);
      if (parts[n].kind == DT_OTHER)
        break;
      n++;
      if (last)
        break;
    }

  if (i < n && parts[i].kind == DT_DAY_NAME)
    i++;
  if (i + 1 < n && parts[i].kind == DT_DAY && parts[i + 1].kind == DT_MONTH)
    i += 2;
  else if (i + 1 < n && parts[i].kind == DT_MONTH && parts[i + 1].kind == DT_DAY)
    i += 2;
  else
    return 0;

  if (i < n && parts[i].kind == DT_YEAR)
    {
      i++;
      year = TRUE;
    }
  if (i < n && parts[i].kind == DT_TIME)
    {
      i++;
      if (i < n && parts[i].kind == DT_ZONE)
        i++;
      if (!year && i < n && parts[i].kind == DT_YEAR)
        {
          i++;
          year = TRUE;
          if (i < n && parts[i].kind == DT_ZONE)
            i++;
        }
    }
  if (!year)
    return 0;

  _winnow_protect_emit (lx, parts[0].start, parts[i - 1].end, WINNOW_PROTECT_DATE);
  return parts[i - 1].end;
}

/* main, master, develop or trunk after a branch word ("merge into main", "push to main",
 * "the main branch") */
gboolean
_winnow_protect_try_branch_word (ProtectLexer *lx,
                                 gsize         s,
                                 gsize         e,
                                 gsize         b)
{
  static const char * const branches[] = { "main", "master", "develop", "trunk", NULL };
  static const char * const prepositions[] = { "from", "to", "on", "off", "against", "with", NULL };
  const char *t = lx->text;
  gsize len, cs, ce;
  gboolean branch = FALSE;

  if (e - s < 4 || e - s > 7)
    return FALSE;
  if (!_winnow_protect_word_in (t + s, e - s, branches))
    return FALSE;

  if (lx->n_recent > 0)
    {
      const char *w = _winnow_protect_recent_word (lx, 0, &len);

      if (_winnow_protect_is_branch_verb (w, len))
        branch = TRUE;
      else if (_winnow_protect_word_in (w, len, prepositions))
        for (guint i = 1; i < lx->n_recent && !branch; i++)
          {
            w = _winnow_protect_recent_word (lx, i, &len);
            branch = _winnow_protect_is_branch_verb (w, len);
          }
    }

  if (!branch && e == b && _winnow_protect_next_chunk (lx, b, &cs, &ce))
    {
      gsize we = _winnow_protect_sentence_end (t, cs, ce);

      branch = _winnow_protect_equal_word (t + cs, we - cs, "branch");
    }

  if (branch)
    _winnow_protect_emit (lx, s, e, WINNOW_PROTECT_BRANCH);
  return branch;
}
