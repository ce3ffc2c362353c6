/* winnow-protect-inline.c — technical tokens inside prose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lexes the prose between blocks. Backtick code spans come first (they may span lines, never a
 * blank line). Everything else is cut into chunks, maximal runs of printable ASCII and of
 * non-ASCII letters below U+2000; CJK text, typographic punctuation and invalid bytes end a
 * chunk, so `src/main.rsを開く` yields `src/main.rs`. A chunk is tried, in order, as
 *
 *  1. the start of a multi-word shape (winnow-protect-phrases.c): a command in a sentence,
 *     a date written with names, main/master after a branch word;
 *  2. a carrier of URLs, which may sit anywhere in it (`[docs](https://x.test/a_(b)).`);
 *  3. one token once wrapping punctuation is stripped (`(see`, `foo.`, `**bold**`), which
 *     winnow-protect-tokens.c classifies;
 *  4. failing that, pieces split at brackets, quotes, commas and `=`, each tried as a token,
 *     and `name(` followed by its balanced arguments, which may contain spaces.
 *
 * Look-ahead is bounded (commands and dates stay on their line, calls within a window of
 * bytes scanned once) and failed code-span searches are remembered, so the lexer is linear.
 */

#define G_LOG_DOMAIN "winnow-protect"

#include "config.h"

#include <string.h>

#include "winnow-protect-private.h"
#include "winnow-utf8.h"

/* ---- characters -------------------------------------------------------------------------- */

/* Length of the character at @p if it belongs in a chunk, else 0. */
static inline gsize
chunk_char (const char *text,
            gsize       p,
            gsize       end)
{
  guchar c = text[p];
  gunichar u;

  if (c < 0x80)
    return (c > 0x20 && c < 0x7f && c != '`') ? 1 : 0;

  u = g_utf8_get_char_validated (text + p, end - p);
  if (u == (gunichar) -1 || u == (gunichar) -2)
    return 0;
  if (u >= 0x2000 || !(g_unichar_isalnum (u) || g_unichar_ismark (u)))
    return 0;
  return g_utf8_skip[c];
}

/* Length of the character at @p, which ends chunks: a whole character when it is valid, so
 * that nothing ever starts in the middle of one, else the single invalid byte. */
static inline gsize
boundary_len (const char *text,
              gsize       p,
              gsize       end)
{
  guchar c = text[p];
  gunichar u;

  if (c < 0x80)
    return 1;
  u = g_utf8_get_char_validated (text + p, end - p);
  if (u == (gunichar) -1 || u == (gunichar) -2)
    return 1;
  return g_utf8_skip[c];
}

static gsize
chunk_end (ProtectLexer *lx,
           gsize         p)
{
  const char *t = lx->text;
  gsize n;

  while (p < lx->end)
    {
      guchar c = t[p];

      if (c > 0x20 && c < 0x7f && c != '`')
        p++;
      else if (c >= 0x80 && (n = chunk_char (t, p, lx->end)) > 0)
        p += n;
      else
        break;
    }

  return p;
}

/* The chunk after @p, past spaces and tabs only: the next word on the same line. */
gboolean
_winnow_protect_next_chunk (ProtectLexer *lx,
                            gsize         p,
                            gsize        *cs,
                            gsize        *ce)
{
  const char *t = lx->text;

  while (p < lx->end && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= lx->end || chunk_char (t, p, lx->end) == 0)
    return FALSE;

  *cs = p;
  *ce = chunk_end (lx, p);
  return TRUE;
}

/* Whether the closing bracket @close outnumbers its opener in [s, e). */
gboolean
_winnow_protect_unbalanced (const char *t,
                            gsize       s,
                            gsize       e,
                            char        close)
{
  char open = close == ')' ? '(' : close == ']' ? '[' : close == '}' ? '{' : '<';
  int depth = 0;

  for (gsize i = s; i < e; i++)
    {
      if (t[i] == open)
        depth++;
      else if (t[i] == close)
        depth--;
    }

  return depth < 0;
}

/* Strips what wraps a token in prose: opening brackets and quotes, emphasis, and trailing
 * sentence punctuation or an unbalanced closing bracket. */
static void
strip_wrappers (const char *t,
                gsize      *s,
                gsize      *e)
{
  gsize a = *s, b = *e, lead_stars = 0, tail_stars = 0;

  while (a < b)
    {
      if (_winnow_protect_has_class (t[a], CC_OPEN))
        a++;
      else if ((t[a] == '<' || t[a] == '>') &&
               !(a + 1 < b && (t[a + 1] == '=' || g_ascii_isdigit (t[a + 1]))))
        a++;
      else if (t[a] == '~' && a + 1 < b && t[a + 1] == '~')
        a += 2;
      else
        break;
    }

  while (a + lead_stars < b && t[a + lead_stars] == '*')
    lead_stars++;

  while (b > a + lead_stars)
    {
      guchar c = t[b - 1];

      if (c == '.' && b - a >= 2 && t[b - 2] == '.')
        break; /* `./...`, `..` */
      if (c == '*')
        tail_stars++;
      if (_winnow_protect_has_class (c, CC_TRAIL) ||
          (_winnow_protect_has_class (c, CC_CLOSE) && _winnow_protect_unbalanced (t, a, b, c)))
        b--;
      else
        break;
    }

  /* leading stars are emphasis only when stars close it: `*.ts` is a glob */
  a += MIN (lead_stars, tail_stars);
  if (lead_stars > 0 && tail_stars == 0 && b == a + lead_stars)
    b = a; /* nothing but stars */

  /* _emphasis_ (one word, no inner underscore) */
  if (b - a >= 3 && t[a] == '_' && t[b - 1] == '_' && t[a + 1] != '_' && t[b - 2] != '_' &&
      memchr (t + a + 1, '_', b - a - 2) == NULL)
    {
      a++;
      b--;
    }

  *s = a;
  *e = MAX (a, b);
}

/* ---- emitting ---------------------------------------------------------------------------- */

void
_winnow_protect_emit (ProtectLexer      *lx,
                      gsize              start,
                      gsize              end,
                      WinnowProtectKind  kind)
{
  _winnow_protect_push (lx->spans, start, end, kind);
}

/* Notes the word [s, e) (already stripped) as the latest on the line. */
static void
remember (ProtectLexer *lx,
          gsize         s,
          gsize         e)
{
  memmove (&lx->recent[1], &lx->recent[0], sizeof (ProtectWord) * (PROTECT_N_RECENT - 1));
  lx->recent[0].start = s;
  lx->recent[0].end = e;
  lx->n_recent = MIN (lx->n_recent + 1, PROTECT_N_RECENT);
}

const char *
_winnow_protect_recent_word (ProtectLexer *lx,
                             guint         i,
                             gsize        *len)
{
  *len = lx->recent[i].end - lx->recent[i].start;
  return lx->text + lx->recent[i].start;
}

/* ---- inline code ------------------------------------------------------------------------- */

/* A backtick run at @p: a code span to the next run of the same length, within the paragraph;
 * without one the run is literal text. */
static gsize
lex_code (ProtectLexer *lx,
          gsize         p)
{
  const char *t = lx->text;
  gsize n = 0, q, i;

  while (p + n < lx->end && t[p + n] == '`')
    n++;
  q = p + n;
  lx->n_recent = 0;

  if (n > PROTECT_MAX_TICKS || q < lx->tick_fail[n])
    return q;

  for (i = q; i < lx->end; )
    {
      if (t[i] == '`')
        {
          gsize m = 0;

          while (i + m < lx->end && t[i + m] == '`')
            m++;
          if (m == n)
            {
              _winnow_protect_emit (lx, p, i + m, WINNOW_PROTECT_INLINE_CODE);
              return i + m;
            }
          i += m;
        }
      else if (t[i] == '\n')
        {
          gsize k = i + 1;

          while (k < lx->end && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
            k++;
          if (k >= lx->end || t[k] == '\n')
            break; /* a blank line ends the paragraph */
          i = k;
        }
      else
        i++;
    }

  lx->tick_fail[n] = i;
  return q;
}

/* ---- calls ------------------------------------------------------------------------------- */

static void
fill_paren_window (ProtectLexer *lx,
                   gsize         start)
{
  const char *t = lx->text;
  gsize end = MIN (start + PROTECT_CALL_WINDOW, lx->end);
  const char *nl = memchr (t + start, '\n', end - start);
  guint8 stack[PROTECT_CALL_WINDOW];
  guint depth = 0;

  if (nl != NULL)
    end = nl - t;

  lx->paren_start = start;
  lx->paren_end = end;
  memset (lx->paren_close, 0, sizeof lx->paren_close);

  for (gsize i = start; i < end; i++)
    {
      if (t[i] == '(')
        stack[depth++] = (guint8) (i - start);
      else if (t[i] == ')' && depth > 0)
        {
          guint8 open = stack[--depth];

          lx->paren_close[open] = (guint8) (i - start - open);
        }
    }
}

/* Where the '(' at @open closes on its line, or 0. Windows of bytes are scanned once each
 * (a window restarts at most every half window), so calls cost linear time overall. */
static gsize
match_paren (ProtectLexer *lx,
             gsize         open)
{
  if (open < lx->paren_start || open >= lx->paren_end ||
      (open - lx->paren_start > PROTECT_CALL_WINDOW / 2 &&
       lx->paren_close[open - lx->paren_start] == 0))
    fill_paren_window (lx, open);

  if (lx->paren_close[open - lx->paren_start] == 0)
    return 0;
  return open + lx->paren_close[open - lx->paren_start];
}

static gboolean
is_callable (const char *t,
             gsize       s,
             gsize       e)
{
  if (e <= s || !(g_ascii_isalpha (t[s]) || t[s] == '_' || t[s] == '$'))
    return FALSE;
  for (gsize i = s; i < e; i++)
    if (!(_winnow_protect_is_word_char (t[i]) || t[i] == '$' || t[i] == '.' || t[i] == ':' ||
          t[i] == '!'))
      return FALSE;
  return t[e - 1] != '.' && t[e - 1] != ':';
}

/* ---- pieces ------------------------------------------------------------------------------ */

static inline gboolean
is_hard (guchar c)
{
  return _winnow_protect_has_class (c, CC_HARD);
}

/* The token in [s, e) did not classify as a whole: split it at brackets, quotes, commas and
 * the like, and try each piece. Returns how far the text was consumed (a call's arguments
 * may run past @b). */
static gsize
lex_pieces (ProtectLexer *lx,
            gsize         s,
            gsize         e,
            gsize         b)
{
  const char *t = lx->text;
  gsize i = s;

  while (i < e)
    {
      gsize ps, pe, qs, qe;
      int kind;

      if (is_hard (t[i]))
        {
          gsize op = _winnow_protect_version_operator (t, e, i);

          if (op == 0)
            {
              i++;
              continue;
            }
          ps = i; /* `>=3.8` starts a piece */
          i += op;
        }
      else
        ps = i;

      while (i < e && !is_hard (t[i]))
        i++;
      pe = i;

      if (pe < lx->end && t[pe] == '(' && is_callable (t, ps, pe))
        {
          gsize close = match_paren (lx, pe);

          /* file(s), match(es): a plural, not a call */
          if (close > 0 && (close - pe == 2 || close - pe == 3) && t[close - 1] == 's')
            close = 0;
          if (close > 0)
            {
              _winnow_protect_emit (lx, ps, close + 1, WINNOW_PROTECT_IDENTIFIER);
              i = close + 1;
              if (i >= e)
                return MAX (i, b);
              continue;
            }
        }

      /* the name of a closing tag, Logs</summary>, is no absolute path */
      if (t[ps] == '/' && ps > s && t[ps - 1] == '<')
        continue;

      qs = ps;
      qe = pe;
      strip_wrappers (t, &qs, &qe);
      if (qs < qe && (kind = _winnow_protect_classify (t + qs, qe - qs)) >= 0)
        _winnow_protect_emit (lx, qs, qe, kind);
    }

  return b;
}

/* ---- chunks ------------------------------------------------------------------------------ */

/* Finds the first URL in [p, b): scheme://…, www.…, mailto:… */
static gboolean
find_url (ProtectLexer *lx,
          gsize         p,
          gsize         b,
          gsize        *us,
          gsize        *ue)
{
  const char *t = lx->text;

  for (gsize i = p; i < b; i++)
    {
      gsize start = G_MAXSIZE, body = 0, e;

      if (t[i] == ':' && i + 3 < b && t[i + 1] == '/' && t[i + 2] == '/')
        {
          gsize k = i;

          while (k > p && (g_ascii_isalnum (t[k - 1]) || t[k - 1] == '+' || t[k - 1] == '.' ||
                           t[k - 1] == '-'))
            k--;
          while (k < i && !g_ascii_isalpha (t[k]))
            k++;
          if (i - k >= 2)
            {
              start = k;
              body = i + 3;
            }
        }
      else if (t[i] == ':' && i >= p + 6 && i + 1 < b && memcmp (t + i - 6, "mailto", 6) == 0 &&
               (i - 6 == p || !g_ascii_isalnum (t[i - 7])))
        {
          start = i - 6;
          body = i + 1;
        }
      else if (t[i] == '.' && i >= p + 3 && i + 1 < b && g_ascii_isalnum (t[i + 1]) &&
               _winnow_ascii_equal_lower (t + i - 3, "www", 3) &&
               (i - 3 == p || !g_ascii_isalnum (t[i - 4])))
        {
          start = i - 3;
          body = i + 1;
        }

      if (start == G_MAXSIZE)
        continue;

      e = body;
      while (e < b && !_winnow_protect_has_class (t[e], CC_URL_STOP))
        e++;
      for (;;)
        {
          guchar c;

          if (e <= body)
            break;
          c = t[e - 1];
          if (_winnow_protect_has_class (c, CC_URL_TRIM))
            e--;
          else if ((c == ')' || c == ']' || c == '}') &&
                   _winnow_protect_unbalanced (t, start, e, c))
            e--;
          else
            break;
        }
      if (e <= body)
        continue;

      *us = start;
      *ue = e;
      return TRUE;
    }

  return FALSE;
}

/* One token (or, failing that, its pieces) in [s, e), the stripped form of [a, b); returns
 * how far it consumed. */
static gsize
lex_token (ProtectLexer *lx,
           gsize         s,
           gsize         e,
           gsize         b)
{
  const char *t = lx->text;
  gsize consumed = b;
  int kind;

  if (s >= e)
    return b;

  kind = _winnow_protect_classify (t + s, e - s);
  if (kind < 0)
    return lex_pieces (lx, s, e, b);

  /* 2026-04-18 09:00:12 +0200: a date, then a time, then a zone */
  if (kind == WINNOW_PROTECT_DATE && e == b)
    for (int k = 0; k < 2; k++)
      {
        gsize cs, ce, we;

        if (consumed >= lx->end || t[consumed] != ' ' ||
            !_winnow_protect_next_chunk (lx, consumed, &cs, &ce))
          break;
        we = _winnow_protect_sentence_end (t, cs, ce);
        if (we == cs || !((k == 0 && _winnow_protect_is_time (t + cs, we - cs)) ||
                          _winnow_protect_is_zone (t + cs, we - cs)))
          break;
        e = we;
        consumed = ce;
        if (we < ce || _winnow_protect_is_zone (t + cs, we - cs))
          break;
      }

  _winnow_protect_emit (lx, s, e, (WinnowProtectKind) kind);
  return consumed;
}

static gsize
lex_plain (ProtectLexer *lx,
           gsize         a,
           gsize         b)
{
  gsize s = a, e = b;

  strip_wrappers (lx->text, &s, &e);
  return lex_token (lx, s, e, b);
}

static gsize
lex_urls (ProtectLexer *lx,
          gsize         a,
          gsize         b,
          gsize         s,
          gsize         e)
{
  const char *t = lx->text;
  gsize p = a, us, ue;

  if (!find_url (lx, a, b, &us, &ue))
    {
      /* an HTML tag, <br/> or </details> */
      if (t[a] == '<' && b - a >= 3 && (g_ascii_isalpha (t[a + 1]) || t[a + 1] == '/') &&
          t[_winnow_protect_sentence_end (t, a, b) - 1] == '>')
        return b;
      return lex_token (lx, s, e, b);
    }

  while (p < b && find_url (lx, p, b, &us, &ue))
    {
      if (us > p)
        {
          gsize consumed = lex_plain (lx, p, us);

          if (consumed > us)
            {
              p = consumed;
              continue;
            }
        }
      _winnow_protect_emit (lx, us, ue, WINNOW_PROTECT_URL);
      p = ue;
    }

  if (p < b)
    return lex_plain (lx, p, b);
  return p;
}

static gsize
lex_chunk (ProtectLexer *lx,
           gsize         a)
{
  gsize b = chunk_end (lx, a), s = a, e = b, next;

  if ((next = _winnow_protect_try_command (lx, a, b)) > 0)
    {
      lx->n_recent = 0;
      return next;
    }

  strip_wrappers (lx->text, &s, &e);
  if ((next = _winnow_protect_try_named_date (lx, s, e, b)) > 0)
    return next;
  if (_winnow_protect_try_branch_word (lx, s, e, b))
    next = b;
  else
    next = lex_urls (lx, a, b, s, e);

  remember (lx, s, e);
  return MAX (next, b);
}

void
_winnow_protect_scan_inline (const char *text,
                             gsize       start,
                             gsize       end,
                             GArray     *spans)
{
  ProtectLexer lx;
  gsize p = start;

  memset (&lx, 0, sizeof lx);
  lx.text = text;
  lx.end = end;
  lx.spans = spans;

  while (p < end)
    {
      guchar c = text[p];

      if (c == '\n')
        {
          lx.n_recent = 0;
          p++;
        }
      else if (c == '`')
        p = lex_code (&lx, p);
      else if (chunk_char (text, p, end) > 0)
        p = lex_chunk (&lx, p);
      else
        p += boundary_len (text, p, end);
    }
}
