/* winnow-literals.c — the literal text a regex cannot match without
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Most lines of a big log match none of a filter's patterns, and on short lines a regex call
 * costs more than its answer. So for each line pattern (all case-insensitive) we work out, from
 * its JavaScript source, a set of literal strings of which every match must contain at least
 * one — `\b(?:error|fail)` needs "error" or "fail", `^\s+at \S+` needs "at ", `Tests:\s+\d+`
 * needs "tests:". A line that contains none of them cannot match, and we can tell cheaply: the
 * line's lower-cased byte pairs are hashed into a 256-bit set once, and a literal can only be
 * present if all of its pairs are in the set.
 *
 * The analysis is conservative: anything it does not understand (backreferences, optional
 * parts, classes, non-ASCII letters whose case folding the byte check cannot follow) gives no
 * literal for that part, and a pattern without a required literal is always run. A false
 * "maybe" only costs a regex call; the test suite checks on every corpus line that no real
 * match is ever skipped. Lines with non-ASCII bytes are never skipped (PCRE2 folds a few
 * non-ASCII characters such as the Kelvin sign onto ASCII letters).
 */

#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "winnow-literals.h"
#include "winnow-utf8.h"

#define MAX_SET     32   /* alternatives kept per literal set */
#define MAX_LITERAL 48   /* bytes per literal */
#define UNBOUNDED   G_MAXUINT

typedef GPtrArray StrSet;   /* char *, lower-cased; NULL means "nothing known" */

typedef struct
{
  StrSet   *req;        /* every match contains one of these (or NULL) */
  StrSet   *exact;      /* the part matches exactly one of these (or NULL) */
  gboolean  zero_width;
} Info;

typedef struct
{
  const char *p;
  gboolean    failed;   /* a construct that makes the whole analysis unsafe */
  gboolean    unicode;  /* the u flag: \p{…} and \u{…} are escapes */
  guint       depth;
} Scan;

static StrSet *
set_new (void)
{
  return g_ptr_array_new_with_free_func (g_free);
}

static StrSet *
set_of (const char *str)
{
  StrSet *set = set_new ();

  g_ptr_array_add (set, g_strdup (str));
  return set;
}

static void
set_free (StrSet *set)
{
  if (set != NULL)
    g_ptr_array_unref (set);
}

static StrSet *
set_copy (StrSet *set)
{
  StrSet *copy;

  if (set == NULL)
    return NULL;

  copy = set_new ();
  for (guint i = 0; i < set->len; i++)
    g_ptr_array_add (copy, g_strdup (g_ptr_array_index (set, i)));
  return copy;
}

static gsize
set_min_length (StrSet *set)
{
  gsize min = G_MAXSIZE;

  for (guint i = 0; set != NULL && i < set->len; i++)
    min = MIN (min, strlen (g_ptr_array_index (set, i)));
  return set && set->len ? min : 0;
}

/* @a × @b concatenated, or NULL when that would be too big. */
static StrSet *
set_cross (StrSet *a,
           StrSet *b)
{
  StrSet *out;

  if ((gsize) a->len * b->len > MAX_SET)
    return NULL;

  out = set_new ();
  for (guint i = 0; i < a->len; i++)
    for (guint k = 0; k < b->len; k++)
      {
        const char *x = g_ptr_array_index (a, i);
        const char *y = g_ptr_array_index (b, k);

        if (strlen (x) + strlen (y) > MAX_LITERAL)
          {
            set_free (out);
            return NULL;
          }
        g_ptr_array_add (out, g_strconcat (x, y, NULL));
      }
  return out;
}

/* Takes both; NULL if either is NULL or the union is too big. */
static StrSet *
set_union (StrSet *a,
           StrSet *b)
{
  if (a == NULL || b == NULL || a->len + b->len > MAX_SET)
    {
      set_free (a);
      set_free (b);
      return NULL;
    }

  for (guint i = 0; i < b->len; i++)
    g_ptr_array_add (a, g_strdup (g_ptr_array_index (b, i)));
  set_free (b);
  return a;
}

/* Keeps whichever required set filters better: longer shortest literal, then fewer entries.
 * Takes both. */
static StrSet *
set_better (StrSet *a,
            StrSet *b)
{
  gsize la, lb;

  if (a == NULL)
    return b;
  if (b == NULL)
    return a;

  la = set_min_length (a);
  lb = set_min_length (b);
  if (lb > la || (lb == la && b->len < a->len))
    {
      set_free (a);
      return b;
    }
  set_free (b);
  return a;
}

static void
info_clear (Info *info)
{
  g_clear_pointer (&info->req, set_free);
  g_clear_pointer (&info->exact, set_free);
}

/* ---- atoms --------------------------------------------------------------------------------- */

static Info parse_alternation (Scan *scan);

/* Letters of scripts without case (kana, CJK ideographs, Hangul): PCRE2 matches them as they
 * are, caseless or not. */
static gboolean
is_caseless_script (gunichar c)
{
  return (c >= 0x3040 && c <= 0x30FF) ||   /* hiragana, katakana */
         (c >= 0x3400 && c <= 0x4DBF) ||   /* CJK extension A */
         (c >= 0x4E00 && c <= 0x9FFF) ||   /* CJK unified ideographs */
         (c >= 0xAC00 && c <= 0xD7A3) ||   /* Hangul syllables */
         (c >= 0xF900 && c <= 0xFAFF);     /* CJK compatibility ideographs */
}

/* A single literal character (lower-cased), or "unknown" for one whose case the byte check
 * cannot handle. */
static Info
literal_char (gunichar c)
{
  Info info = { 0 };
  char buf[8];
  gint len;

  if (c < 0x80)
    c = g_ascii_tolower (c);
  else if (is_caseless_script (c))
    ;
  else if (g_unichar_isalpha (c) || g_unichar_toupper (c) != c || g_unichar_tolower (c) != c)
    return info; /* a letter outside ASCII: its case variants are other bytes */

  len = g_unichar_to_utf8 (c, buf);
  buf[len] = '\0';
  info.exact = set_of (buf);
  return info;
}

static int
hex_value (const char *p,
           guint       digits)
{
  int value = 0;

  for (guint i = 0; i < digits; i++)
    {
      if (!g_ascii_isxdigit (p[i]))
        return -1;
      value = value * 16 + g_ascii_xdigit_value (p[i]);
    }
  return value;
}

static Info
parse_escape (Scan *scan)
{
  Info info = { 0 };
  char c = *scan->p;

  if (c == '\0')
    {
      scan->failed = TRUE;
      return info;
    }
  scan->p++;

  switch (c)
    {
    case 'p': case 'P':
      /* \p{Lu} with the u flag; without it, an identity escape of the letter */
      if (scan->unicode)
        {
          const char *close = *scan->p == '{' ? strchr (scan->p, '}') : NULL;

          if (close == NULL)
            scan->failed = TRUE;
          else
            scan->p = close + 1;
        }
      return info; /* some character: unknown */

    case 'd': case 'D': case 'w': case 'W': case 's': case 'S':
      return info; /* some character: unknown */

    case 'b': case 'B':
      info.zero_width = TRUE;
      return info;

    case 'n': return literal_char ('\n');
    case 't': return literal_char ('\t');
    case 'r': return literal_char ('\r');
    case 'f': return literal_char ('\f');
    case 'v': return literal_char ('\v');

    case '0':
      if (g_ascii_isdigit (*scan->p))
        scan->failed = TRUE; /* an octal escape: rare, not worth following */
      return literal_char ('\0');

    case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
    case 'k':
      scan->failed = TRUE; /* a backreference matches whatever a group matched */
      return info;

    case 'c':
      if (g_ascii_isalpha (*scan->p))
        return literal_char (*scan->p++ % 32);
      scan->failed = TRUE;
      return info;

    case 'x':
      {
        int value = hex_value (scan->p, 2);
        if (value < 0)
          return literal_char ('x');
        scan->p += 2;
        return literal_char (value);
      }

    case 'u':
      {
        int value;

        if (scan->unicode && *scan->p == '{')
          {
            /* \u{1F600}: any number of hex digits */
            gunichar code = 0;
            const char *q = scan->p + 1;

            while (g_ascii_isxdigit (*q) && code <= 0x10FFFF)
              code = code * 16 + (gunichar) g_ascii_xdigit_value (*q++);
            if (*q != '}' || q == scan->p + 1 || code > 0x10FFFF)
              {
                scan->failed = TRUE;
                return info;
              }
            scan->p = q + 1;
            return literal_char (code);
          }

        value = hex_value (scan->p, 4);
        if (value < 0)
          {
            if (scan->unicode)
              scan->failed = TRUE; /* a syntax error with the u flag */
            return literal_char ('u');
          }
        scan->p += 4;
        return literal_char (value);
      }

    default:
      if ((guchar) c >= 0x80)
        {
          const char *start = scan->p - 1;
          gunichar u = g_utf8_get_char_validated (start, -1);

          if (u == (gunichar) -1 || u == (gunichar) -2)
            {
              scan->failed = TRUE;
              return info;
            }
          scan->p = g_utf8_next_char (start);
          return literal_char (u);
        }
      return literal_char (c); /* an identity escape: the character itself */
    }
}

/* Skips a character class; what it matches is one unknown character. */
static Info
parse_class (Scan *scan)
{
  Info info = { 0 };

  if (*scan->p == '^')
    scan->p++;
  if (*scan->p == ']')
    {
      scan->p++; /* [] or [^] */
      return info;
    }

  while (*scan->p != '\0' && *scan->p != ']')
    {
      if (*scan->p == '\\' && scan->p[1] != '\0')
        scan->p++;
      scan->p++;
    }

  if (*scan->p != ']')
    scan->failed = TRUE;
  else
    scan->p++;

  return info;
}

static Info
parse_group (Scan *scan)
{
  Info info = { 0 };
  gboolean lookaround = FALSE;

  if (scan->p[0] == '?')
    {
      if (scan->p[1] == ':')
        scan->p += 2;
      else if (scan->p[1] == '=' || scan->p[1] == '!')
        {
          scan->p += 2;
          lookaround = TRUE;
        }
      else if (scan->p[1] == '<' && (scan->p[2] == '=' || scan->p[2] == '!'))
        {
          scan->p += 3;
          lookaround = TRUE;
        }
      else if (scan->p[1] == '<')
        {
          const char *end = strchr (scan->p, '>');
          if (end == NULL)
            {
              scan->failed = TRUE;
              return info;
            }
          scan->p = end + 1;
        }
      else
        {
          scan->failed = TRUE; /* inline flags or something newer: do not guess */
          return info;
        }
    }

  if (++scan->depth > 64)
    {
      scan->failed = TRUE;
      return info;
    }
  info = parse_alternation (scan);
  scan->depth--;

  if (*scan->p != ')')
    scan->failed = TRUE;
  else
    scan->p++;

  if (lookaround)
    {
      info_clear (&info);
      info.zero_width = TRUE;
    }

  return info;
}

/* {n}, {n,} or {n,m}; FALSE (nothing consumed) when it is not a quantifier. */
static gboolean
parse_braces (Scan  *scan,
              guint *min,
              guint *max)
{
  const char *p = scan->p + 1;
  guint n = 0, m;

  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    {
      n = MIN (n * 10 + (guint) (*p - '0'), 100000u);
      p++;
    }

  if (*p == '}')
    m = n;
  else if (*p == ',' && p[1] == '}')
    {
      m = UNBOUNDED;
      p++;
    }
  else if (*p == ',' && g_ascii_isdigit (p[1]))
    {
      p++;
      m = 0;
      while (g_ascii_isdigit (*p))
        {
          m = MIN (m * 10 + (guint) (*p - '0'), 100000u);
          p++;
        }
      if (*p != '}')
        return FALSE;
    }
  else
    return FALSE;

  scan->p = p + 1;
  *min = n;
  *max = m;
  return TRUE;
}

/* ---- sequences and alternatives ------------------------------------------------------------ */

static StrSet *
finalize_run (StrSet *best,
              StrSet *run)
{
  if (run != NULL && set_min_length (run) >= 2)
    return set_better (best, set_copy (run));
  return best;
}

/* The common case of parse_sequence(), without its sets: an ASCII character that is not
 * repeated extends every literal of the run by itself. Appended in place, where the general
 * path would make a set for the character and another for the run × it, and free both:
 * analysing a filter's patterns cost more than compiling them. Returns FALSE, consuming
 * nothing, for anything else (the general path then does the same as this would). */
static gboolean
append_plain_char (Scan   *scan,
                   StrSet *run)
{
  guchar c = (guchar) scan->p[0];
  char next = scan->p[1];

  if (c >= 0x80 || next == '*' || next == '+' || next == '?' || next == '{' || run == NULL)
    return FALSE;

  for (guint i = 0; i < run->len; i++)
    if (strlen (g_ptr_array_index (run, i)) + 1 > MAX_LITERAL)
      return FALSE;

  for (guint i = 0; i < run->len; i++)
    {
      char *old = g_ptr_array_index (run, i);
      gsize len = strlen (old);
      char *grown = g_realloc (old, len + 2);

      grown[len] = g_ascii_tolower (c);
      grown[len + 1] = '\0';
      run->pdata[i] = grown;
    }
  scan->p++;
  return TRUE;
}

static Info
parse_sequence (Scan *scan)
{
  Info out = { 0 };
  StrSet *run = set_of ("");
  StrSet *best = NULL;
  gboolean all_exact = TRUE;

  while (*scan->p != '\0' && *scan->p != '|' && *scan->p != ')' && !scan->failed)
    {
      Info item = { 0 };
      guint min = 1, max = 1;
      char c = *scan->p;

      switch (c)
        {
        case '(':
          scan->p++;
          item = parse_group (scan);
          break;
        case '[':
          scan->p++;
          item = parse_class (scan);
          break;
        case '\\':
          scan->p++;
          item = parse_escape (scan);
          break;
        case '.':
          scan->p++;
          break; /* any character */
        case '^': case '$':
          scan->p++;
          item.zero_width = TRUE;
          break;
        default:
          if (append_plain_char (scan, run))
            continue;
          {
            gunichar u = g_utf8_get_char_validated (scan->p, -1);

            if (u == (gunichar) -1 || u == (gunichar) -2)
              {
                scan->failed = TRUE;
                break;
              }
            scan->p = g_utf8_next_char (scan->p);
            item = literal_char (u);
          }
          break;
        }

      /* the quantifier, if any (a { that is not one is an ordinary character next time) */
      if (*scan->p == '*')
        min = 0, max = UNBOUNDED, scan->p++;
      else if (*scan->p == '+')
        min = 1, max = UNBOUNDED, scan->p++;
      else if (*scan->p == '?')
        min = 0, max = 1, scan->p++;
      else if (*scan->p == '{')
        parse_braces (scan, &min, &max);
      if (*scan->p == '?' && (min != 1 || max != 1))
        scan->p++; /* lazy */

      if (item.zero_width && min <= 1)
        {
          info_clear (&item);
          continue; /* consumes nothing: the literal run goes on */
        }

      if (min >= 1 && item.req != NULL)
        best = set_better (best, g_steal_pointer (&item.req));

      if (min >= 1 && item.exact != NULL && run != NULL)
        {
          StrSet *joined = set_cross (run, item.exact);

          if (joined == NULL)
            {
              best = finalize_run (best, run);
              set_free (run);
              run = set_copy (item.exact);
              all_exact = FALSE;
            }
          else
            {
              set_free (run);
              run = joined;
            }

          if (min != 1 || max != 1)
            {
              /* repeated: what came before meets the first copy, what follows the last */
              best = finalize_run (best, run);
              set_free (run);
              run = set_copy (item.exact);
              all_exact = FALSE;
            }
        }
      else
        {
          best = finalize_run (best, run);
          set_free (run);
          run = set_of ("");
          all_exact = FALSE;
        }

      info_clear (&item);
    }

  best = finalize_run (best, run);
  out.req = best;
  out.exact = all_exact ? run : NULL;
  if (!all_exact)
    set_free (run);

  return out;
}

static Info
parse_alternation (Scan *scan)
{
  Info out = parse_sequence (scan);

  while (*scan->p == '|' && !scan->failed)
    {
      Info branch;

      scan->p++;
      branch = parse_sequence (scan);
      out.req = set_union (out.req, g_steal_pointer (&branch.req));
      out.exact = set_union (out.exact, g_steal_pointer (&branch.exact));
      info_clear (&branch);
    }

  return out;
}

/**
 * _winnow_literals_required:
 * @js_source: JavaScript regex source
 * @js_flags: (nullable): its flags; only u (and v) change what the source means
 *
 * The literals are lower-cased whatever the flags say, so a subject must be lower-cased the
 * same way before it is searched for them.
 *
 * Returns: (transfer full) (nullable) (element-type utf8): lower-cased literals (each at least
 *   two bytes) of which every match contains one, or %NULL when nothing safe is known
 */
GPtrArray *
_winnow_literals_required (const char *js_source,
                           const char *js_flags)
{
  Scan scan = { js_source, FALSE, FALSE, 0 };
  Info info;

  if (js_source == NULL || !g_utf8_validate (js_source, -1, NULL))
    return NULL;
  /* the v flag's classes nest and subtract ([\w--\d]): not followed */
  if (js_flags != NULL && strchr (js_flags, 'v') != NULL)
    return NULL;
  scan.unicode = js_flags != NULL && strchr (js_flags, 'u') != NULL;

  info = parse_alternation (&scan);
  if (scan.failed || *scan.p != '\0')
    {
      info_clear (&info);
      return NULL;
    }

  set_free (info.exact);
  return info.req;
}

/* ---- byte pairs ------------------------------------------------------------------------------ */

static inline guint
pair_hash (guchar a,
           guchar b)
{
  return ((a * 0x9E3779B1u) ^ (b * 0x85EBCA6Bu)) >> 24;
}

void
_winnow_bigrams_of_literal (const char    *literal,
                            WinnowBigrams *out)
{
  memset (out, 0, sizeof *out);

  for (const guchar *p = (const guchar *) literal; p[0] != '\0' && p[1] != '\0'; p++)
    {
      guint h = pair_hash (p[0], p[1]);
      out->bits[h >> 6] |= G_GUINT64_CONSTANT (1) << (h & 63);
      /* the last pair: the first ones ("er", "re", "in") are common in any English text */
      out->probe = h;
    }
}

/* pair_hash() of every lower-cased ASCII pair, indexed by the raw pair `a << 7 | b`: the
 * per-byte work of _winnow_bigrams_of_line() is then a load and a bit set. Built once; it is
 * 16 KiB and never changes. */
static guint8 ascii_pair_hash[128 * 128];

static const guint8 *
get_ascii_pair_hash (void)
{
  static gsize ready = 0;

  if (g_once_init_enter (&ready))
    {
      for (guint a = 0; a < 128; a++)
        for (guint b = 0; b < 128; b++)
          ascii_pair_hash[a << 7 | b] = pair_hash (_winnow_ascii_lower (a),
                                                   _winnow_ascii_lower (b));
      g_once_init_leave (&ready, 1);
    }

  return ascii_pair_hash;
}

#define HIGH_BITS G_GUINT64_CONSTANT (0x8080808080808080)

static inline gboolean
is_ascii (const guchar *p,
          gsize         length)
{
  guint64 any = 0;
  gsize i = 0;

  for (; i + 8 <= length; i += 8)
    {
      guint64 word;

      memcpy (&word, p + i, 8);
      any |= word;
    }
  for (; i < length; i++)
    any |= p[i];

  return (any & HIGH_BITS) == 0;
}

#define SET_PAIR(h) (bits[(h) >> 6] |= G_GUINT64_CONSTANT (1) << ((h) & 63))

/* From this length on, marking one byte per pair and packing the 256 bytes into bits at the
 * end is cheaper than setting a bit (load, shift, or, store) per pair. The mark is the byte's
 * top bit where SSE2 gathers top bits sixteen at a time, else its low bit. */
#define BYTE_SET_MIN_LENGTH 32
#ifdef __SSE2__
#define MARK 0x80
#else
#define MARK 1
#endif

/**
 * _winnow_bigrams_of_line:
 *
 * Returns: %FALSE (and nothing usable in @out) when the line has non-ASCII bytes
 */
gboolean
_winnow_bigrams_of_line (const char    *line,
                         gsize          length,
                         WinnowBigrams *out)
{
  const guchar *p = (const guchar *) line;
  const guint8 *table;
  guint64 *bits = out->bits;
  gsize i;

  memset (out, 0, sizeof *out);
  if (length < 2)
    return length == 0 || p[0] < 0x80;
  if (!is_ascii (p, length))
    return FALSE;

  table = get_ascii_pair_hash ();
  if (length < BYTE_SET_MIN_LENGTH)
    {
      for (i = 1; i < length; i++)
        {
          guint h = table[(guint) p[i - 1] << 7 | p[i]];

          SET_PAIR (h);
        }
      return TRUE;
    }

  {
    guint8 set[256] = { 0 };

    /* four pairs a round, the bytes read before any mark is stored (a store to @set could
     * change them as far as the compiler knows): the loop costs as much as the work otherwise */
    guint prev = p[0];

    for (i = 1; i + 4 <= length; i += 4)
      {
        guint a = p[i], b = p[i + 1], c = p[i + 2], d = p[i + 3];

        set[table[prev << 7 | a]] = MARK;
        set[table[a << 7 | b]] = MARK;
        set[table[b << 7 | c]] = MARK;
        set[table[c << 7 | d]] = MARK;
        prev = d;
      }
    for (; i < length; i++)
      {
        guint a = p[i];

        set[table[prev << 7 | a]] = MARK;
        prev = a;
      }

#ifdef __SSE2__
    for (guint k = 0; k < 16; k++)
      {
        __m128i sixteen = _mm_loadu_si128 ((const __m128i *) (set + k * 16));

        bits[k / 4] |= (guint64) (guint16) _mm_movemask_epi8 (sixteen) << (k % 4 * 16);
      }
#else
    /* eight 0/1 bytes to eight bits: the multiplication moves byte k's bit to bit 56 + k */
    for (guint w = 0; w < 4; w++)
      for (guint k = 0; k < 8; k++)
        {
          guint64 eight;

          memcpy (&eight, set + w * 64 + k * 8, 8);
          bits[w] |= ((eight * G_GUINT64_CONSTANT (0x0102040810204080)) >> 56) << (k * 8);
        }
#endif
  }

  return TRUE;
}

/* ---- grams of a whole text --------------------------------------------------------------- */

/* Caveman runs hundreds of rules over one message, each a regex scan of the whole text, and
 * most rules find nothing: a message holds a few of the phrases a pack knows. A rule whose
 * literals the text lacks can be skipped, but lines' byte pairs do not tell that for a text of
 * kilobytes (it has nearly every pair). So a text's lower-cased byte pairs and triples are
 * hashed into a bit set sized to the text (eight bits a byte, so it stays sparse), and a
 * literal can only be in the text if all its triples (a two-byte literal: its pair) are in the
 * set.
 *
 * The text is read the way PCRE2 compares caselessly: ASCII letters lower-cased, and the two
 * non-ASCII characters it folds onto ASCII letters (U+017F LATIN SMALL LETTER LONG S onto s,
 * U+212A KELVIN SIGN onto k) read as those letters. A literal never holds either of them
 * (literal_char() gives up on cased letters outside ASCII), and every other character is read
 * as its own bytes, so a literal present in the text is present in what is hashed.
 *
 * Rules change the text as they run. The set only ever grows: after a change, the grams around
 * the changed span are added (_winnow_gram_index_add_change()). Grams a change removed stay, which
 * costs at most a regex call that finds nothing. */

#define GRAM_MIN_BITS_LOG2 12
#define GRAM_MAX_BITS_LOG2 23
#define GRAM_MULTIPLIER    G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)

struct _WinnowGramIndex
{
  guint64 *bits;
  guint    shift;   /* 64 − log2 (number of bits): a key's top bits pick its bit */
};

struct _WinnowGramLiterals
{
  guint    n_literals;
  guint   *ends;    /* literal i's keys are keys[ends[i − 1] .. ends[i]) */
  guint64 *keys;
};

/* The key of the last two (@width 2) or three bytes of @window. */
static inline guint64
gram_key (guint32 window,
          guint   width)
{
  guint32 gram = width == 2 ? (window & 0xFFFF) : (window & 0xFFFFFF);

  return ((guint64) gram | (guint64) width << 24) * GRAM_MULTIPLIER;
}

static inline void
gram_set (WinnowGramIndex *self,
          guint64          key)
{
  guint64 bit = key >> self->shift;

  self->bits[bit >> 6] |= G_GUINT64_CONSTANT (1) << (bit & 63);
}

static inline gboolean
gram_is_set (const WinnowGramIndex *self,
             guint64                key)
{
  guint64 bit = key >> self->shift;

  return (self->bits[bit >> 6] >> (bit & 63)) & 1;
}

/* Adds the grams of @text[@start, @end) as PCRE2's caseless comparison sees it. */
static void
gram_add_span (WinnowGramIndex *self,
               const guchar    *text,
               gsize            start,
               gsize            end)
{
  guint32 window = 0;
  guint have = 0;

  for (gsize i = start; i < end;)
    {
      guchar c = text[i];

      if (c == 0xC5 && i + 1 < end && text[i + 1] == 0xBF)
        c = 's', i += 2;
      else if (c == 0xE2 && i + 2 < end && text[i + 1] == 0x84 && text[i + 2] == 0xAA)
        c = 'k', i += 3;
      else
        c = _winnow_ascii_lower (c), i++;

      window = window << 8 | c;
      have++;
      if (have >= 2)
        gram_set (self, gram_key (window, 2));
      if (have >= 3)
        gram_set (self, gram_key (window, 3));
    }
}

/**
 * _winnow_gram_index_new:
 * @text: the text (any bytes; UTF-8 is read character by character)
 * @length: its length in bytes
 *
 * Returns: (transfer full): the grams of @text
 */
WinnowGramIndex *
_winnow_gram_index_new (const char *text,
                        gsize       length)
{
  WinnowGramIndex *self = g_new0 (WinnowGramIndex, 1);
  guint log2 = GRAM_MIN_BITS_LOG2;

  while (log2 < GRAM_MAX_BITS_LOG2 && (G_GUINT64_CONSTANT (1) << log2) < (guint64) length * 8)
    log2++;
  self->shift = 64 - log2;
  self->bits = g_new0 (guint64, (G_GUINT64_CONSTANT (1) << log2) / 64);
  gram_add_span (self, (const guchar *) text, 0, length);

  return self;
}

void
_winnow_gram_index_free (WinnowGramIndex *self)
{
  if (self == NULL)
    return;
  g_free (self->bits);
  g_free (self);
}

static inline gboolean
is_continuation (guchar c)
{
  return (c & 0xC0) == 0x80;
}

/**
 * _winnow_gram_index_add_change:
 * @self: the grams of @before (or more)
 * @before: the text as it was
 * @before_length: its length
 * @after: the text now
 * @after_length: its length
 *
 * Adds the grams @after has around where it differs from @before, so that @self holds every
 * gram of @after (and perhaps some @before had).
 */
void
_winnow_gram_index_add_change (WinnowGramIndex *self,
                               const char      *before,
                               gsize            before_length,
                               const char      *after,
                               gsize            after_length)
{
  const guchar *a = (const guchar *) after;
  gsize shorter = MIN (before_length, after_length);
  gsize start = 0;
  gsize end;
  gsize same_end = 0;

  while (start < shorter && before[start] == after[start])
    start++;
  while (same_end < shorter - start &&
         before[before_length - 1 - same_end] == after[after_length - 1 - same_end])
    same_end++;
  end = after_length - same_end;

  /* a gram is at most three characters: take the two characters either side of the change
   * with it, whole */
  while (start > 0 && is_continuation (a[start]))
    start--;
  for (guint n = 0; n < 2 && start > 0; n++)
    {
      start--;
      while (start > 0 && is_continuation (a[start]))
        start--;
    }
  while (end < after_length && is_continuation (a[end]))
    end++;
  for (guint n = 0; n < 2 && end < after_length; n++)
    {
      end++;
      while (end < after_length && is_continuation (a[end]))
        end++;
    }

  gram_add_span (self, a, start, end);
}

/* The keys a literal needs: its triples, or its one pair. */
static void
literal_keys (const char *literal,
              GArray     *keys)
{
  const guchar *p = (const guchar *) literal;
  gsize length = strlen (literal);
  guint32 window = 0;

  for (gsize i = 0; i < length; i++)
    {
      window = window << 8 | p[i];
      if (length == 2 && i == 1)
        {
          guint64 key = gram_key (window, 2);
          g_array_append_val (keys, key);
        }
      else if (length > 2 && i >= 2)
        {
          guint64 key = gram_key (window, 3);
          g_array_append_val (keys, key);
        }
    }
}

/**
 * _winnow_gram_literals_new:
 * @literals: (nullable) (element-type utf8): from _winnow_literals_required()
 *
 * Returns: (transfer full): the keys of @literals; with none (%NULL or empty), a set that
 *   every text might contain
 */
WinnowGramLiterals *
_winnow_gram_literals_new (GPtrArray *literals)
{
  WinnowGramLiterals *self = g_new0 (WinnowGramLiterals, 1);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));

  if (literals == NULL || literals->len == 0)
    return self;

  self->n_literals = literals->len;
  self->ends = g_new (guint, literals->len);
  for (guint i = 0; i < literals->len; i++)
    {
      literal_keys (g_ptr_array_index (literals, i), keys);
      self->ends[i] = keys->len;
    }
  self->keys = (guint64 *) g_array_free (g_steal_pointer (&keys), FALSE);

  return self;
}

void
_winnow_gram_literals_free (WinnowGramLiterals *self)
{
  if (self == NULL)
    return;
  g_free (self->ends);
  g_free (self->keys);
  g_free (self);
}

/**
 * _winnow_gram_index_might_contain:
 * @self: the grams of a text
 * @literals: what a pattern needs
 *
 * Returns: %FALSE if the text holds none of @literals; %TRUE if it might hold one, or
 *   @literals is empty
 */
gboolean
_winnow_gram_index_might_contain (const WinnowGramIndex    *self,
                                  const WinnowGramLiterals *literals)
{
  guint from = 0;

  if (literals->n_literals == 0)
    return TRUE;

  for (guint i = 0; i < literals->n_literals; i++)
    {
      guint k = from;

      while (k < literals->ends[i] && gram_is_set (self, literals->keys[k]))
        k++;
      if (k == literals->ends[i])
        return TRUE;
      from = literals->ends[i];
    }

  return FALSE;
}
