/* winnow-regex.c — JavaScript regular expressions on PCRE2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Filters and rule packs carry JavaScript regex source (without the `u` flag). We compile it
 * with PCRE2 directly rather than through GRegex, for two reasons measured on Debian 12:
 *
 *  - GRegex always compiles with PCRE2_UCP, which makes \d, \w and \b Unicode-aware; in
 *    JavaScript they are ASCII-only. Without UCP, PCRE2 gives exactly the JavaScript meaning
 *    and no pattern rewriting is needed for them.
 *  - GRegex allocates a GMatchInfo and PCRE2 match data on every call: ~77 ns per line test
 *    against ~11 ns for a JIT-compiled pcre2_code with reused match data. Filters test a dozen
 *    patterns per line, so this decides whether the RTK pipeline reaches its 200 MB/s budget.
 *
 * PCRE2 has options for most of the remaining JavaScript differences (ALT_BSUX for \u and \x,
 * ALLOW_EMPTY_CLASS for [] and [^], MATCH_UNSET_BACKREF, DOLLAR_ENDONLY). The translator below
 * handles the rest: JavaScript's Unicode \s, \v as a single character, identity escapes of
 * letters that PCRE2 gives a meaning (\a \e \h \K \Q …), and a literal [ inside a class.
 *
 * Every match runs under a work budget so a catastrophically backtracking pattern gives up
 * (WINNOW_REGEX_BUDGET_EXCEEDED) instead of hanging the caller.
 */

#define G_LOG_DOMAIN "winnow-regex"

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <string.h>

#include "winnow-error.h"
#include "winnow-literals.h"
#include "winnow-utf8.h"
#include "winnow-regex.h"

/* Work budget per match call: generous for real patterns (they use a few hundred steps per
 * line), small enough that an exponential pattern gives up within milliseconds. */
#define ADAPTIVE_JIT_AFTER 3
/* An ADAPTIVE pattern is JIT-compiled before its first match against a subject this long,
 * however few times it has run. Compiling costs ~80 000 instructions (~20 µs); interpreted,
 * a pattern scanning text it does not match costs ~19 instructions a byte against ~3 for
 * JIT code, so from ~5 KB on one match pays for the compiling. Detection tests its content
 * patterns once against a sample of up to 64 KB: a 10 KB `winnow compress` ran them all
 * interpreted, 1.5 million instructions where compiling and matching take 0.6. */
#define JIT_NOW_FOR_BYTES (4 * 1024)
#define MATCH_LIMIT 1000000
#define DEPTH_LIMIT 10000

#define MAX_AFFIX 24

/* What JavaScript's \s matches beyond ASCII whitespace. */
#define JS_UNICODE_SPACES "\\N{U+A0}\\N{U+1680}\\N{U+2000}-\\N{U+200A}\\N{U+2028}\\N{U+2029}" \
                          "\\N{U+202F}\\N{U+205F}\\N{U+3000}\\N{U+FEFF}"

/* Patterns that nearly every filter has and that nearly every line is tested against, whose
 * answer is simpler to compute than a call into PCRE2 costs (see shape_of()). */
typedef enum
{
  SHAPE_GENERAL,
  SHAPE_BLANK,          /* ^\s*$   every character is a space (or there are none) */
  SHAPE_EMPTY,          /* ^$      no character at all */
  SHAPE_SPACE_AT_END,   /* \s+$    the last character is a space; the match is the last run */
} Shape;

struct _WinnowRegex
{
  gatomicrefcount      ref_count;
  char                *source;
  char                *js_flags;
  char                *pcre_pattern;
  pcre2_code          *code;
  pcre2_code          *jit_code;     /* ADAPTIVE: a JIT-compiled copy, published atomically */
  int                  uses;         /* ADAPTIVE: matches run so far, atomically counted */
  pcre2_match_context *match_context;
  guint32              compile_options;
  guint64             *starts;        /* _winnow_regex_subject_starts(), worked out once */
  guint                capture_count;
  /* what any match needs, from PCRE2's own analysis: checked before calling into PCRE2, since
   * on short lines the call costs more than the answer */
  guint                min_length;
  int                  first_unit;    /* -1 when unknown */
  int                  last_unit;     /* a code unit every match contains, -1 when unknown */
  Shape                shape;         /* answered in C rather than by PCRE2 */
  /* bytes every match starts / ends the subject with (see find_affixes()); letters lower-cased
   * when the pattern is caseless */
  guint8               prefix_len;
  guint8               suffix_len;
  char                 prefix[MAX_AFFIX];
  char                 suffix[MAX_AFFIX];
  /* the literals a match needs, as keys into a text's grams: worked out the first time a
   * caller asks (_winnow_regex_might_occur_in()) */
  WinnowGramLiterals  *gram_literals;
  guint                global : 1;
  guint                sticky : 1;
  guint                jit : 1;
  guint                adaptive : 1;
  guint                anchored : 1;
  guint                has_named_groups : 1;
};

G_DEFINE_BOXED_TYPE (WinnowRegex, winnow_regex, winnow_regex_ref, winnow_regex_unref)

G_DEFINE_QUARK (winnow-error-quark, winnow_error)

/* One small match-data block per thread for yes/no tests, so the per-line hot path does not
 * allocate. It holds no state between calls. */
static void
free_match_data (gpointer data)
{
  pcre2_match_data_free (data);
}

static GPrivate scratch_match_data = G_PRIVATE_INIT (free_match_data);

static pcre2_match_data *
get_scratch_match_data (void)
{
  pcre2_match_data *md = g_private_get (&scratch_match_data);

  if G_UNLIKELY (md == NULL)
    {
      md = pcre2_match_data_create (1, NULL);
      g_private_set (&scratch_match_data, md);
    }

  return md;
}

typedef struct
{
  guint32  options;
  gboolean global;
  gboolean sticky;
  gboolean unicode;
} JsFlags;

static gboolean
parse_js_flags (const char  *js_flags,
                JsFlags     *out,
                GError     **error)
{
  memset (out, 0, sizeof *out);

  for (const char *p = js_flags ? js_flags : ""; *p; p++)
    {
      guint32 option = 0;

      if (strchr (p + 1, *p) != NULL)
        {
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX,
                       "flag “%c” is given twice", *p);
          return FALSE;
        }

      switch (*p)
        {
        case 'g': out->global = TRUE; break;
        case 'i': option = PCRE2_CASELESS; break;
        case 'm': option = PCRE2_MULTILINE; break;
        case 's': option = PCRE2_DOTALL; break;
        case 'y': out->sticky = TRUE; break;
        case 'u': case 'v': out->unicode = TRUE; break;
        case 'd': break; /* match indices: no effect on what matches */
        default:
          g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX,
                       "unknown flag “%c” (JavaScript knows d g i m s u v y)", *p);
          return FALSE;
        }

      out->options |= option;
    }

  return TRUE;
}

static gboolean
pattern_has_named_groups (const char *source)
{
  for (const char *p = source; (p = strstr (p, "(?<")) != NULL; p += 3)
    {
      /* (?<= and (?<! are lookbehinds, not names; an escaped paren is a literal */
      if (p[3] != '=' && p[3] != '!' && (p == source || p[-1] != '\\'))
        return TRUE;
    }
  return FALSE;
}

/* PCRE2 syntax that JavaScript rejects as a syntax error: backtracking verbs such as
 * (*SKIP)(*FAIL), atomic groups, branch resets, comments and possessive quantifiers. PCRE2
 * would take them, and a pack that used them would work here and fail everywhere else; the
 * name of the first one found, or %NULL. */
static const char *
pcre_only_syntax (const char *source)
{
  gboolean in_class = FALSE;

  for (const char *p = source; *p; p++)
    {
      if (*p == '\\')
        {
          if (p[1] == '\0')
            break;
          p++;
          /* \p{…}, \u{…}, \x{…}: braces that are no quantifier */
          if (strchr ("pPux", *p) != NULL && p[1] == '{')
            {
              const char *end = strchr (p, '}');

              if (end != NULL)
                p = end;
            }
          continue;
        }

      if (in_class)
        {
          if (*p == ']')
            in_class = FALSE;
          continue;
        }

      switch (*p)
        {
        case '[':
          in_class = TRUE;
          /* [] and [^] are complete classes in JavaScript */
          if (p[1] == '^')
            p++;
          if (p[1] == ']')
            {
              p++;
              in_class = FALSE;
            }
          break;
        case '(':
          if (p[1] == '*')
            return "a backtracking verb such as (*SKIP) or (*FAIL)";
          if (p[1] == '?' && p[2] == '>')
            return "an atomic group (?>…)";
          if (p[1] == '?' && p[2] == '|')
            return "a branch reset group (?|…)";
          if (p[1] == '?' && p[2] == '#')
            return "a comment group (?#…)";
          if (p[1] == '?')
            p++; /* the ? of a group is no quantifier */
          break;
        case '*':
        case '+':
        case '?':
          if (p[1] == '+')
            return "a possessive quantifier (*+, ++, ?+)";
          if (p[1] == '?')
            p++; /* lazy: *? +? ?? */
          break;
        case '{':
          {
            const char *q = p + 1;

            while (g_ascii_isdigit (*q))
              q++;
            if (q > p + 1 && *q == ',')
              for (q++; g_ascii_isdigit (*q); q++)
                ;
            if (q > p + 1 && *q == '}')
              {
                if (q[1] == '+')
                  return "a possessive quantifier ({n,m}+)";
                p = q[1] == '?' ? q + 1 : q;
              }
          }
          break;
        default:
          break;
        }
    }

  return NULL;
}

/* Whether the character at @p (outside a class) is not escaped. */
static gboolean
is_unescaped (const char *source,
              const char *p)
{
  guint backslashes = 0;

  while (p > source && p[-1] == '\\')
    backslashes++, p--;
  return backslashes % 2 == 0;
}

/* Whether the ^ at @p is an alternative on its own: `(?:^|…)`, `(^|…)`, `…|^)`, `…|^|…`. */
static gboolean
is_whole_branch (const char *source,
                 const char *p)
{
  const char *before;

  if (p[1] != '|' && p[1] != ')')
    return FALSE;
  if (p == source)
    return p[1] == '|';
  if (p[-1] == '|' || p[-1] == '(')
    return is_unescaped (source, p - 1);
  if (p - source >= 3 && strncmp (p - 3, "(?:", 3) == 0)
    {
      before = p - 3;
      return is_unescaped (source, before);
    }
  return FALSE;
}

/* Rewrite JavaScript regex source into PCRE2 syntax for the options set in compile().
 * Only constructs whose meaning differs are touched. */
static char *
translate_source (const char *source,
                  gboolean    unicode)
{
  g_autoptr(GString) out = g_string_sized_new (strlen (source) + 16);
  gboolean in_class = FALSE;
  gboolean class_start = FALSE;
  gboolean named = pattern_has_named_groups (source);

  for (const char *p = source; *p; p++)
    {
      gboolean was_class_start = class_start;

      class_start = FALSE;

      if (*p == '\\')
        {
          char c = p[1];

          if (c == '\0')
            {
              g_string_append_c (out, '\\'); /* a trailing backslash: PCRE2 reports it */
              break;
            }
          p++;

          switch (c)
            {
            /* Same meaning in both (ASCII-only \d \w \b since we never set UCP) */
            case 'd': case 'D': case 'w': case 'W': case 'f': case 'n': case 'r': case 't':
            case 'x': case 'u': case '0': case '1': case '2': case '3': case '4': case '5':
            case '6': case '7': case '8': case '9':
              if (c == 'u' && unicode && p[1] == '{')
                {
                  /* \u{1F600} in unicode mode */
                  const char *end = strchr (p, '}');
                  if (end != NULL)
                    {
                      /* ALT_BSUX leaves \x{…} out; \N{U+…} is the UTF-mode spelling */
                      g_string_append (out, "\\N{U+");
                      g_string_append_len (out, p + 2, end - p - 1);
                      p = end;
                      break;
                    }
                }
              g_string_append_c (out, '\\');
              g_string_append_c (out, c);
              break;

            case 'b':
              /* word boundary outside a class, backspace inside: same in both */
              g_string_append (out, "\\b");
              break;

            case 'B':
              g_string_append (out, in_class ? "B" : "\\B");
              break;

            case 's':
              g_string_append (out, in_class ? "\\s" JS_UNICODE_SPACES
                                             : "[\\s" JS_UNICODE_SPACES "]");
              break;

            case 'S':
              /* Inside a class a negated set cannot be spelt; ASCII \S is the closest. */
              g_string_append (out, in_class ? "\\S" : "[^\\s" JS_UNICODE_SPACES "]");
              break;

            case 'v':
              g_string_append (out, "\\x0b"); /* PCRE2's \v is a class of vertical space */
              break;

            case 'c':
              if (g_ascii_isalpha (p[1]))
                {
                  g_string_append (out, "\\c");
                  g_string_append_c (out, *++p);
                }
              else
                g_string_append (out, "\\\\c"); /* Annex B: a literal backslash and c */
              break;

            case 'k':
              if (named)
                g_string_append (out, "\\k");
              else
                g_string_append_c (out, 'k');
              break;

            case 'p': case 'P':
              if (unicode)
                {
                  g_string_append_c (out, '\\');
                  g_string_append_c (out, c);
                }
              else
                g_string_append_c (out, c);
              break;

            default:
              if (g_ascii_isalpha (c))
                {
                  /* JavaScript: an identity escape of a letter is the letter. PCRE2 gives
                   * many of them meanings (\a \e \h \K \N \Q \R \X \z …). */
                  g_string_append_c (out, c);
                }
              else if ((guchar) c >= 0x80)
                {
                  /* an escaped non-ASCII character is itself; copy its whole sequence */
                  const char *next = g_utf8_next_char (p);
                  g_string_append_len (out, p, next - p);
                  p = next - 1;
                }
              else
                {
                  g_string_append_c (out, '\\');
                  g_string_append_c (out, c);
                }
              break;
            }
          continue;
        }

      if (in_class)
        {
          if (*p == ']' && !was_class_start)
            in_class = FALSE;
          else if (*p == '[')
            {
              /* literal in JavaScript; PCRE2 would read [: as a POSIX class */
              g_string_append (out, "\\[");
              continue;
            }
          else if (*p == '^' && was_class_start)
            {
              g_string_append_c (out, '^');
              class_start = TRUE; /* a ] right after [^ is still the first member */
              if (p[1] == ']')
                {
                  /* [^] matches any character */
                  g_string_append_c (out, ']');
                  p++;
                  in_class = FALSE;
                  class_start = FALSE;
                }
              continue;
            }
          else if (*p == ']' && was_class_start)
            {
              /* [] matches nothing in JavaScript; PCRE2 needs ALLOW_EMPTY_CLASS and sees
               * exactly this, so close the class here. */
              in_class = FALSE;
            }
          g_string_append_c (out, *p);
          continue;
        }

      if (*p == '[')
        {
          in_class = TRUE;
          class_start = TRUE;
        }

      if (*p == '^' && is_whole_branch (source, p))
        {
          /* the same assertion; PCRE2 then still works out which characters a match can
           * start with, which it does not through a bare ^ beside other alternatives
           * (`(?:^|(?<=[.!?] ))I'm`), and tries every position of the text */
          g_string_append (out, "(?<=^)");
          continue;
        }

      g_string_append_c (out, *p);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static pcre2_code *
compile (const char  *pattern,
         guint32      options,
         GError     **error)
{
  pcre2_compile_context *context = pcre2_compile_context_create (NULL);
  pcre2_code *code;
  int errcode = 0;
  PCRE2_SIZE erroffset = 0;

  /* JavaScript ends a line at \r as well as \n: ^ and $ (with m) and . see a Windows line
   * break as one, as they do in a browser */
  pcre2_set_newline (context, PCRE2_NEWLINE_ANYCRLF);
  code = pcre2_compile ((PCRE2_SPTR) pattern, PCRE2_ZERO_TERMINATED,
                        options | PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_ALLOW_EMPTY_CLASS |
                        PCRE2_MATCH_UNSET_BACKREF,
                        &errcode, &erroffset, context);
  pcre2_compile_context_free (context);
  if (code == NULL)
    {
      PCRE2_UCHAR message[256];

      pcre2_get_error_message (errcode, message, sizeof message);
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX,
                   "%s at offset %" G_GSIZE_FORMAT, (const char *) message, (gsize) erroffset);
    }

  return code;
}

static int
hint_unit (uint32_t type,
           uint32_t unit)
{
  /* a non-ASCII unit may be the first byte of one case and not of the other; do without */
  if (type != 1 || unit >= 0x80)
    return -1;
  return (int) unit;
}

static void
read_match_hints (WinnowRegex *self,
                  guint32      compile_options)
{
  uint32_t min_length = 0, all = 0, first_type = 0, first = 0, last_type = 0, last = 0;

  pcre2_pattern_info (self->code, PCRE2_INFO_MINLENGTH, &min_length);
  pcre2_pattern_info (self->code, PCRE2_INFO_ALLOPTIONS, &all);
  pcre2_pattern_info (self->code, PCRE2_INFO_FIRSTCODETYPE, &first_type);
  pcre2_pattern_info (self->code, PCRE2_INFO_FIRSTCODEUNIT, &first);
  pcre2_pattern_info (self->code, PCRE2_INFO_LASTCODETYPE, &last_type);
  pcre2_pattern_info (self->code, PCRE2_INFO_LASTCODEUNIT, &last);

  self->min_length = min_length; /* in characters, which is at most the bytes */
  self->anchored = (all & PCRE2_ANCHORED) != 0;
  self->first_unit = hint_unit (first_type, first);
  self->last_unit = hint_unit (last_type, last);
}

/* PCRE2 folds a class such as [Ww] or (?:um|Um) into one caseless code unit without saying so
 * in its pattern info, so a letter in the hints stands for both of its cases, whatever the
 * flags. */
static inline gboolean
unit_equal (guchar c,
            int    unit)
{
  return c == unit || (g_ascii_isalpha (unit) &&
                       _winnow_ascii_lower (c) == _winnow_ascii_lower (unit));
}

static gboolean
contains_unit (const char *subject,
               gsize       length,
               int         unit)
{
  if (!g_ascii_isalpha (unit))
    return memchr (subject, unit, length) != NULL;

  return memchr (subject, g_ascii_tolower (unit), length) != NULL ||
         memchr (subject, g_ascii_toupper (unit), length) != NULL;
}

/* ---- shapes answered in C ------------------------------------------------------------------ */

/* What these patterns are, as sources and flags. Without `m`, ^ is the start of the subject and
 * $ (PCRE2_DOLLAR_ENDONLY) its very end, so a line's answer needs no regex engine. `y` anchors
 * a match at the start, which changes nothing for the two starting with ^ and everything for
 * \s+$. The other flags do not touch spaces. */
static Shape
shape_of (const char    *source,
          const JsFlags *flags)
{
  if (flags->options & PCRE2_MULTILINE)
    return SHAPE_GENERAL;
  if (strcmp (source, "^\\s*$") == 0)
    return SHAPE_BLANK;
  if (strcmp (source, "^$") == 0)
    return SHAPE_EMPTY;
  if (strcmp (source, "\\s+$") == 0 && !flags->sticky)
    return SHAPE_SPACE_AT_END;
  return SHAPE_GENERAL;
}

/* Whether the character at @p (of valid UTF-8) is one the translated \s matches: PCRE2's
 * ASCII spaces (tab, line feed, vertical tab, form feed, carriage return, space) and
 * JS_UNICODE_SPACES. Sets @next past it. */
static inline gboolean
is_js_space (const char  *p,
             const char **next)
{
  guchar c = (guchar) *p;
  gunichar u;

  if (c < 0x80)
    {
      *next = p + 1;
      return c == ' ' || (c >= '\t' && c <= '\r');
    }

  u = g_utf8_get_char (p);
  *next = g_utf8_next_char (p);
  return u == 0xA0 || u == 0x1680 || (u >= 0x2000 && u <= 0x200A) || u == 0x2028 ||
         u == 0x2029 || u == 0x202F || u == 0x205F || u == 0x3000 || u == 0xFEFF;
}

static gboolean
all_spaces (const char *subject,
            gsize       length)
{
  const char *end = subject + length;

  for (const char *p = subject; p < end;)
    if (!is_js_space (p, &p))
      return FALSE;
  return TRUE;
}

/* Where the run of spaces that ends @subject starts (@length when it ends in something else). */
static gsize
trailing_spaces_start (const char *subject,
                       gsize       length)
{
  gsize start = length;

  while (start > 0)
    {
      gsize prev = start - 1;
      const char *next;

      while (prev > 0 && ((guchar) subject[prev] & 0xC0) == 0x80)
        prev--; /* back to the first byte of the character */
      if (!is_js_space (subject + prev, &next))
        break;
      start = prev;
    }

  return start;
}

static gboolean
shape_matches (WinnowRegex *self,
               const char  *subject,
               gsize        length)
{
  switch (self->shape)
    {
    case SHAPE_BLANK:
      return all_spaces (subject, length);
    case SHAPE_EMPTY:
      return length == 0;
    case SHAPE_SPACE_AT_END:
      return trailing_spaces_start (subject, length) < length;
    case SHAPE_GENERAL:
    default:
      g_assert_not_reached ();
    }
}

/* ---- literal prefix and suffix ------------------------------------------------------------ */

typedef struct
{
  int    byte;    /* the literal byte, or -1 for anything else */
  guint8 quant;   /* 0 none, 1 `+`, 2 any other quantifier */
  char   anchor;  /* '^' or '$' for those, else 0 */
} Token;

/* Skips a class at @p (just past its `[`): in JavaScript the first unescaped `]` closes it,
 * even right after `[` or `[^`. NULL if it does not close. */
static const char *
skip_class (const char *p)
{
  if (*p == '^')
    p++;
  while (*p != '\0' && *p != ']')
    p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
  return *p == ']' ? p + 1 : NULL;
}

/* The top-level items of a JavaScript pattern, each a literal byte or "something else", with
 * its quantifier. FALSE for a top-level alternative or anything not clearly understood. A
 * caseless k or s is "something else": PCRE2 matches the Kelvin sign and the long s with them,
 * which are other bytes; so is any non-ASCII character. */
static gboolean
tokenize (const char *source,
          gboolean    caseless,
          GArray     *tokens)
{
  for (const char *p = source; *p != '\0';)
    {
      Token token = { -1, 0, 0 };
      guchar c = (guchar) *p;

      if (c == '\\')
        {
          guchar e = (guchar) p[1];

          if (e == '\0')
            return FALSE;
          if (!g_ascii_isalnum (e) && e < 0x80)
            token.byte = e;  /* an escaped punctuation character is itself */
          p += 2;
          if (e >= 0x80)
            p = g_utf8_next_char (p - 1);
          else if (strchr ("uxckpP0123456789", e) != NULL)
            {
              /* \u00e9 \u{1F600} \x41 \cA \k<name> \p{L} \12: the rest of the escape, or
               * more (which only makes the pattern look less literal than it is) */
              while (g_ascii_isalnum (*p) || (*p != '\0' && strchr ("{}<>_", *p) != NULL))
                p++;
            }
        }
      else if (c == '[')
        {
          if ((p = skip_class (p + 1)) == NULL)
            return FALSE;
        }
      else if (c == '(')
        {
          int depth = 1;

          for (p++; *p != '\0' && depth > 0;)
            {
              if (*p == '\\' && p[1] != '\0')
                p += 2;
              else if (*p == '[')
                {
                  if ((p = skip_class (p + 1)) == NULL)
                    return FALSE;
                }
              else
                {
                  depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
                  p++;
                }
            }
          if (depth > 0)
            return FALSE;
        }
      else if (c == '^' || c == '$')
        {
          token.anchor = c;
          p++;
        }
      else if (c == '.')
        p++;
      else if (strchr ("|)]{}*+?", c) != NULL)
        return FALSE;
      else if (c >= 0x80)
        p = g_utf8_next_char (p);
      else
        {
          if (!(caseless && strchr ("kKsS", c) != NULL))
            token.byte = caseless ? _winnow_ascii_lower (c) : c;
          p++;
        }

      if (*p == '*' || *p == '?')
        token.quant = 2, p++;
      else if (*p == '+')
        token.quant = 1, p++;
      else if (*p == '{')
        {
          const char *close = strchr (p, '}');

          if (close == NULL)
            return FALSE;
          token.quant = 2;
          p = close + 1;
        }
      if (token.quant != 0 && *p == '?')
        p++; /* lazy */
      if (token.quant != 0 && (token.anchor != 0 || (*p != '\0' && strchr ("*+?{", *p) != NULL)))
        return FALSE;

      g_array_append_val (tokens, token);
    }

  return TRUE;
}

/* A match of `^abc…` starts the subject with "abc", one of `…xyz$` ends it with "xyz" (without
 * the m flag, ^ and $ are the ends of the subject); a literal repeated with + counts once.
 * Checking them costs a comparison, where a call into PCRE2 costs more than many short lines
 * are long, and it answers before the stage runner works out a line's byte pairs. */
static void
find_affixes (WinnowRegex   *self,
              const JsFlags *flags)
{
  g_autoptr(GArray) tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  const Token *t;
  guint n;

  if ((flags->options & PCRE2_MULTILINE) || flags->unicode || !g_str_is_ascii (self->source) ||
      !tokenize (self->source, (flags->options & PCRE2_CASELESS) != 0, tokens))
    return;

  t = (const Token *) tokens->data;
  n = tokens->len;

  if (n > 0 && t[0].anchor == '^')
    for (guint i = 1; i < n && t[i].byte >= 0 && t[i].quant < 2 &&
                      self->prefix_len < MAX_AFFIX; i++)
      {
        self->prefix[self->prefix_len++] = (char) t[i].byte;
        if (t[i].quant == 1)
          break;
      }

  if (n > 0 && t[n - 1].anchor == '$')
    {
      guint start = n - 1;

      while (start > 0 && t[start - 1].byte >= 0 && t[start - 1].quant < 2 &&
             n - 1 - start < MAX_AFFIX)
        {
          start--;
          if (t[start].quant == 1)
            break;
        }
      for (guint i = start; i < n - 1; i++)
        self->suffix[self->suffix_len++] = (char) t[i].byte;
    }
}

static inline gboolean
affix_equal (const char *text,
             const char *affix,
             guint       n,
             gboolean    caseless)
{
  if (!caseless)
    return memcmp (text, affix, n) == 0;
  for (guint i = 0; i < n; i++)
    if (_winnow_ascii_lower ((guchar) text[i]) != (guchar) affix[i])
      return FALSE;
  return TRUE;
}

/* FALSE when PCRE2's own analysis of the pattern already rules a match out. */
static inline gboolean
might_match (WinnowRegex *self,
             const char  *subject,
             gsize        length)
{
  if (length < self->min_length)
    return FALSE;
  if (self->prefix_len > 0 &&
      (length < self->prefix_len ||
       !affix_equal (subject, self->prefix, self->prefix_len,
                     (self->compile_options & PCRE2_CASELESS) != 0)))
    return FALSE;
  if (self->suffix_len > 0 &&
      (length < self->suffix_len ||
       !affix_equal (subject + length - self->suffix_len, self->suffix, self->suffix_len,
                     (self->compile_options & PCRE2_CASELESS) != 0)))
    return FALSE;
  if (self->first_unit >= 0)
    {
      if (self->anchored)
        {
          if (length == 0 || !unit_equal (subject[0], self->first_unit))
            return FALSE;
        }
      else if (!contains_unit (subject, length, self->first_unit))
        return FALSE;
    }
  if (self->last_unit >= 0 && !contains_unit (subject, length, self->last_unit))
    return FALSE;
  return TRUE;
}

/* The part of a translated pattern after a leading ^, when the pattern is nothing but that ^
 * followed by it (no top-level alternative, no verb or comment whose reach is unclear), else
 * %NULL. Then a subject matches the whole pattern exactly when the rest matches at offset 0. */
static const char *
rest_after_caret (const char *pattern)
{
  int depth = 0;

  if (pattern[0] != '^' || strchr ("*+?{", pattern[1]) != NULL || strstr (pattern, "(*") ||
      strstr (pattern, "(?#") || strstr (pattern, "\\Q"))
    return NULL;

  for (const char *p = pattern + 1; *p; p++)
    {
      switch (*p)
        {
        case '\\':
          if (*++p == '\0')
            return NULL;
          break;
        case '[':
          /* a class ends at the first unescaped ] (ALLOW_EMPTY_CLASS: even right after [ or [^) */
          if (p[1] == '^')
            p++;
          for (p++; *p != ']'; p++)
            {
              if (*p == '\0' || (*p == '[' && strchr (":=.", p[1]) != NULL))
                return NULL;
              if (*p == '\\' && *++p == '\0')
                return NULL;
            }
          break;
        case '(':
          depth++;
          break;
        case ')':
          depth--;
          break;
        case '|':
          if (depth == 0)
            return NULL;
          break;
        default:
          break;
        }
    }

  return pattern + 1;
}

/* Bytes a subject may start with for @self to match it: from PCRE2's analysis of the pattern
 * without its leading ^, where PCRE2 works out a first code unit or a set of them (which it
 * does not for an anchored pattern). All bits set when nothing better is known. */
static void
compute_starts (WinnowRegex *self,
                guint64      starts[4])
{
  const char *rest;
  pcre2_code *code;
  uint32_t first_type = 0, first = 0;
  const uint8_t *bitmap = NULL;

  if (self->shape == SHAPE_BLANK || self->shape == SHAPE_EMPTY)
    {
      /* a non-empty blank subject starts with an ASCII space or the first byte of a Unicode
       * one (U+00A0 C2, U+1680 E1, U+2000… E2, U+3000 E3, U+FEFF EF) */
      static const guchar space_starts[] = { '\t', '\n', '\v', '\f', '\r', ' ',
                                             0xC2, 0xE1, 0xE2, 0xE3, 0xEF };

      memset (starts, 0, 4 * sizeof (guint64));
      for (guint k = 0; self->shape == SHAPE_BLANK && k < G_N_ELEMENTS (space_starts); k++)
        starts[space_starts[k] >> 6] |= G_GUINT64_CONSTANT (1) << (space_starts[k] & 63);
      return;
    }

  memset (starts, 0xff, 4 * sizeof (guint64));
  if (self->anchored && self->first_unit >= 0)
    {
      memset (starts, 0, 4 * sizeof (guint64));
      for (guint c = 0; c < 256; c++)
        if (unit_equal ((guchar) c, self->first_unit))
          starts[c >> 6] |= G_GUINT64_CONSTANT (1) << (c & 63);
      return;
    }

  if (!self->anchored || self->sticky || (self->compile_options & PCRE2_MULTILINE) ||
      (rest = rest_after_caret (self->pcre_pattern)) == NULL)
    return;

  code = compile (rest, self->compile_options, NULL);
  if (code == NULL)
    return;

  pcre2_pattern_info (code, PCRE2_INFO_FIRSTCODETYPE, &first_type);
  pcre2_pattern_info (code, PCRE2_INFO_FIRSTCODEUNIT, &first);
  pcre2_pattern_info (code, PCRE2_INFO_FIRSTBITMAP, &bitmap);
  if (first_type == 1 && hint_unit (first_type, first) >= 0)
    {
      memset (starts, 0, 4 * sizeof (guint64));
      for (guint c = 0; c < 256; c++)
        if (unit_equal ((guchar) c, (int) first))
          starts[c >> 6] |= G_GUINT64_CONSTANT (1) << (c & 63);
    }
  else if (first_type == 0 && bitmap != NULL)
    {
      for (guint c = 0; c < 256; c++)
        if (!((bitmap[c >> 3] >> (c & 7)) & 1))
          starts[c >> 6] &= ~(G_GUINT64_CONSTANT (1) << (c & 63));
    }
  pcre2_code_free (code);
}

/**
 * _winnow_regex_subject_starts:
 * @starts: (out): one bit per byte value a non-empty subject may start with for a match
 * @empty: (out): whether an empty subject may match
 *
 * Lets a caller testing many short subjects (lines) against a list of patterns work out once,
 * per first byte, which patterns are worth calling. A pattern it leaves out for a subject is
 * one that cannot match it. Worked out on first use (which compiles a pattern), then kept.
 */
void
_winnow_regex_subject_starts (WinnowRegex *self,
                              guint64      starts[4],
                              gboolean    *empty)
{
  g_return_if_fail (self != NULL);

  if (g_once_init_enter (&self->starts))
    {
      guint64 *computed = g_new (guint64, 4);

      compute_starts (self, computed);
      g_once_init_leave (&self->starts, computed);
    }

  memcpy (starts, self->starts, 4 * sizeof (guint64));
  *empty = might_match (self, "", 0);
}

/**
 * _winnow_regex_might_match:
 *
 * The cheap checks winnow_regex_test() makes before it calls into PCRE2 (length, literal
 * prefix and suffix, first and last code units): %FALSE means @self cannot match @subject.
 * The stage runner asks before it works out a line's byte pairs.
 */
gboolean
_winnow_regex_might_match (WinnowRegex *self,
                           const char  *subject,
                           gsize        length)
{
  return self->shape != SHAPE_GENERAL || might_match (self, subject, length);
}

/**
 * winnow_regex_translate:
 * @source: JavaScript regex source
 * @js_flags: (nullable): JavaScript flags such as "gi"
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the PCRE2 pattern Winnow compiles for @source, or %NULL with
 *   @error set when the flags are invalid or @source is not UTF-8 (the translator steps over
 *   whole UTF-8 sequences, so it must never see a truncated one)
 */
char *
winnow_regex_translate (const char  *source,
                        const char  *js_flags,
                        GError     **error)
{
  JsFlags flags;

  g_return_val_if_fail (source != NULL, NULL);

  if (!g_utf8_validate (source, -1, NULL))
    {
      g_set_error_literal (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX,
                           "pattern is not valid UTF-8");
      return NULL;
    }

  if (!parse_js_flags (js_flags, &flags, error))
    return NULL;

  return translate_source (source, flags.unicode);
}

/**
 * winnow_regex_new:
 * @source: JavaScript regex source, e.g. `^\\s+at\\s+`
 * @js_flags: (nullable): JavaScript flags, e.g. "gi"
 * @flags: #WinnowRegexFlags
 * @error: return location for a #GError
 *
 * Compiles @source with JavaScript semantics. The error message is PCRE2's, with the offset
 * in the translated pattern.
 *
 * Returns: (transfer full): a new #WinnowRegex or %NULL
 */
WinnowRegex *
winnow_regex_new (const char        *source,
                  const char        *js_flags,
                  WinnowRegexFlags   flags,
                  GError           **error)
{
  g_autoptr(WinnowRegex) self = NULL;
  const char *non_js;
  JsFlags parsed;
  guint32 options;
  uint32_t count = 0;
  uint32_t name_count = 0;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_utf8_validate (source, -1, NULL))
    {
      g_set_error_literal (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX,
                           "pattern is not valid UTF-8");
      return NULL;
    }

  if (!parse_js_flags (js_flags, &parsed, error))
    return NULL;

  non_js = pcre_only_syntax (source);
  if (non_js != NULL)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_REGEX,
                   "the pattern uses %s, which JavaScript regular expressions do not have",
                   non_js);
      return NULL;
    }

  self = g_new0 (WinnowRegex, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->source = g_strdup (source);
  self->js_flags = g_strdup (js_flags ? js_flags : "");
  self->global = parsed.global;
  self->sticky = parsed.sticky;
  self->pcre_pattern = translate_source (source, parsed.unicode);

  options = parsed.options;
  if (!(options & PCRE2_MULTILINE))
    options |= PCRE2_DOLLAR_ENDONLY;
  if (parsed.sticky)
    options |= PCRE2_ANCHORED;

  self->compile_options = options;
  self->code = compile (self->pcre_pattern, options, error);
  if (self->code == NULL)
    return NULL;

  /* a shape never reaches PCRE2's matcher: nothing to JIT-compile */
  self->shape = shape_of (source, &parsed);
  if (self->shape != SHAPE_GENERAL)
    ;
  else if (flags & WINNOW_REGEX_OPTIMIZE)
    self->jit = pcre2_jit_compile (self->code, PCRE2_JIT_COMPLETE) == 0; /* else interpreted */
  else if (flags & WINNOW_REGEX_ADAPTIVE)
    self->adaptive = TRUE;

  pcre2_pattern_info (self->code, PCRE2_INFO_CAPTURECOUNT, &count);
  pcre2_pattern_info (self->code, PCRE2_INFO_NAMECOUNT, &name_count);
  self->capture_count = count;
  self->has_named_groups = name_count > 0;
  read_match_hints (self, options);
  /* only for the patterns run on every line: a check of what a pattern could do on other
   * input (a lint probing for catastrophic backtracking) compiles without OPTIMIZE and sees
   * PCRE2 itself */
  if (flags & WINNOW_REGEX_OPTIMIZE)
    find_affixes (self, &parsed);

  self->match_context = pcre2_match_context_create (NULL);
  pcre2_set_match_limit (self->match_context, MATCH_LIMIT);
  pcre2_set_depth_limit (self->match_context, DEPTH_LIMIT);

  return g_steal_pointer (&self);
}

WinnowRegex *
winnow_regex_ref (WinnowRegex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
winnow_regex_unref (WinnowRegex *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_pointer (&self->gram_literals, _winnow_gram_literals_free);
  g_clear_pointer (&self->match_context, pcre2_match_context_free);
  g_clear_pointer (&self->jit_code, pcre2_code_free);
  g_clear_pointer (&self->code, pcre2_code_free);
  g_free (self->starts);
  g_free (self->pcre_pattern);
  g_free (self->js_flags);
  g_free (self->source);
  g_free (self);
}

const char *
winnow_regex_get_source (WinnowRegex *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->source;
}

const char *
winnow_regex_get_js_flags (WinnowRegex *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->js_flags;
}

const char *
winnow_regex_get_pcre_pattern (WinnowRegex *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->pcre_pattern;
}

guint
winnow_regex_get_capture_count (WinnowRegex *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->capture_count;
}

gboolean
winnow_regex_is_global (WinnowRegex *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->global;
}

/* ADAPTIVE: JIT-compiles a copy and publishes it. Other threads may be matching with
 * self->code meanwhile, which pcre2_jit_compile() would modify, hence the copy. */
static void
ensure_jit (WinnowRegex *self)
{
  pcre2_code *copy;

  if (!self->adaptive || g_atomic_pointer_get (&self->jit_code) != NULL)
    return;

  copy = pcre2_code_copy (self->code);
  if (copy != NULL && pcre2_jit_compile (copy, PCRE2_JIT_COMPLETE) == 0 &&
      g_atomic_pointer_compare_and_exchange (&self->jit_code, NULL, copy))
    copy = NULL;
  g_clear_pointer (&copy, pcre2_code_free);
}

static int
run_match (WinnowRegex      *self,
           const char       *subject,
           gsize             length,
           gsize             offset,
           guint32           options,
           pcre2_match_data *md)
{
  int rc;

  if (self->adaptive && length - offset >= JIT_NOW_FOR_BYTES)
    ensure_jit (self);

  /* Subjects are validated once by the caller (the pipeline passes non-UTF-8 through
   * untouched), so the per-call UTF-8 check would only repeat that work on every pattern.
   * JIT-compiled patterns go straight to pcre2_jit_match(), skipping pcre2_match()'s checks:
   * on short lines the call overhead is most of the cost. */
  if (self->jit && options == 0)
    rc = pcre2_jit_match (self->code, (PCRE2_SPTR) subject, length, offset, 0, md,
                          self->match_context);
  else if (self->adaptive && options == 0 && g_atomic_pointer_get (&self->jit_code) != NULL)
    rc = pcre2_jit_match (g_atomic_pointer_get (&self->jit_code), (PCRE2_SPTR) subject, length,
                          offset, 0, md, self->match_context);
  else
    {
      rc = pcre2_match (self->code, (PCRE2_SPTR) subject, length, offset,
                        options | PCRE2_NO_UTF_CHECK, md, self->match_context);
      if (self->adaptive && g_atomic_int_add (&self->uses, 1) + 1 == ADAPTIVE_JIT_AFTER)
        ensure_jit (self);
    }

  if G_UNLIKELY (rc == PCRE2_ERROR_JIT_STACKLIMIT)
    rc = pcre2_match (self->code, (PCRE2_SPTR) subject, length, offset,
                      options | PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, md, self->match_context);

  return rc;
}

/**
 * winnow_regex_test:
 * @self: a #WinnowRegex
 * @subject: valid UTF-8 text
 * @length: length of @subject in bytes
 *
 * Like JavaScript's `RegExp.prototype.test` from index 0.
 *
 * Returns: whether @self matches somewhere in @subject, or
 *   %WINNOW_REGEX_BUDGET_EXCEEDED when it gave up
 */
WinnowRegexResult
winnow_regex_test (WinnowRegex *self,
                   const char  *subject,
                   gsize        length)
{
  g_return_val_if_fail (self != NULL, WINNOW_REGEX_NO_MATCH);
  g_return_val_if_fail (subject != NULL || length == 0, WINNOW_REGEX_NO_MATCH);

  if (subject == NULL)
    subject = "";
  if (self->shape == SHAPE_GENERAL && !might_match (self, subject, length))
    return WINNOW_REGEX_NO_MATCH;

  return _winnow_regex_test_unchecked (self, subject, length);
}

/**
 * _winnow_regex_might_occur_in:
 * @self: a #WinnowRegex
 * @grams: the grams of a text
 *
 * For a caller that runs many patterns over one long text (Caveman's rules): whether the
 * text has one of the literals every match of @self contains (see winnow-literals.c). Cheap:
 * a few bit tests, where a regex scan of the text costs a pass over all of it.
 *
 * Returns: %FALSE if @self cannot match the text
 */
gboolean
_winnow_regex_might_occur_in (WinnowRegex           *self,
                              const WinnowGramIndex *grams)
{
  if (g_once_init_enter (&self->gram_literals))
    {
      g_autoptr(GPtrArray) literals = _winnow_literals_required (self->source, self->js_flags);

      g_once_init_leave (&self->gram_literals, _winnow_gram_literals_new (literals));
    }

  return _winnow_gram_index_might_contain (grams, self->gram_literals);
}

/**
 * _winnow_regex_test_unchecked:
 *
 * winnow_regex_test() for a caller that has made sure of its arguments and has just asked
 * _winnow_regex_might_match(): the stage runner, which asks that first for every pattern it
 * tries on a line, so the checks are not made twice.
 */
WinnowRegexResult
_winnow_regex_test_unchecked (WinnowRegex *self,
                              const char  *subject,
                              gsize        length)
{
  int rc;

  if (self->shape != SHAPE_GENERAL)
    return shape_matches (self, subject, length) ? WINNOW_REGEX_MATCH : WINNOW_REGEX_NO_MATCH;

  rc = run_match (self, subject, length, 0, 0, get_scratch_match_data ());

  if (rc >= 0)
    return WINNOW_REGEX_MATCH;
  if (rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL)
    return WINNOW_REGEX_NO_MATCH;

  return WINNOW_REGEX_BUDGET_EXCEEDED;
}

/**
 * winnow_regex_matches:
 * @self: a #WinnowRegex
 * @subject: nul-terminated UTF-8 text
 *
 * Returns: %TRUE if @self matches @subject; invalid UTF-8 never matches
 */
gboolean
winnow_regex_matches (WinnowRegex *self,
                      const char  *subject)
{
  gsize len;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (subject != NULL, FALSE);

  len = strlen (subject);
  if (!_winnow_utf8_validate (subject, len, NULL))
    return FALSE;

  return winnow_regex_test (self, subject, len) == WINNOW_REGEX_MATCH;
}

static int
group_number_for_name (WinnowRegex *self,
                       const char  *name,
                       gsize        name_len)
{
  g_autofree char *copy = g_strndup (name, name_len);

  return pcre2_substring_number_from_name (self->code, (PCRE2_SPTR) copy);
}

static void
append_group (GString          *out,
              const char       *subject,
              PCRE2_SIZE       *ovector,
              guint             pairs,
              int               group)
{
  if (group < 0 || (guint) group >= pairs)
    return;
  if (ovector[2 * group] == PCRE2_UNSET)
    return; /* an unmatched group is the empty string in JavaScript */

  g_string_append_len (out, subject + ovector[2 * group],
                       ovector[2 * group + 1] - ovector[2 * group]);
}

/* JavaScript's GetSubstitution: $$ $& $` $' $n $nn $<name>; anything else is literal. */
static void
expand_replacement (WinnowRegex *self,
                    GString     *out,
                    const char  *subject,
                    gsize        length,
                    PCRE2_SIZE  *ovector,
                    guint        pairs,
                    const char  *replacement)
{
  guint m = self->capture_count;

  for (const char *p = replacement; *p; p++)
    {
      if (*p != '$' || p[1] == '\0')
        {
          g_string_append_c (out, *p);
          continue;
        }

      switch (p[1])
        {
        case '$':
          g_string_append_c (out, '$');
          p++;
          break;

        case '&':
          append_group (out, subject, ovector, pairs, 0);
          p++;
          break;

        case '`':
          g_string_append_len (out, subject, ovector[0]);
          p++;
          break;

        case '\'':
          g_string_append_len (out, subject + ovector[1], length - ovector[1]);
          p++;
          break;

        case '<':
          {
            const char *end = self->has_named_groups ? strchr (p + 2, '>') : NULL;

            if (end == NULL)
              {
                g_string_append_c (out, '$');
                break;
              }

            append_group (out, subject, ovector, pairs,
                          group_number_for_name (self, p + 2, end - (p + 2)));
            p = end;
          }
          break;

        default:
          if (g_ascii_isdigit (p[1]))
            {
              int one = p[1] - '0';

              if (g_ascii_isdigit (p[2]))
                {
                  int two = one * 10 + (p[2] - '0');

                  if (two >= 1 && (guint) two <= m)
                    {
                      append_group (out, subject, ovector, pairs, two);
                      p += 2;
                      break;
                    }
                }

              if (one >= 1 && (guint) one <= m)
                {
                  append_group (out, subject, ovector, pairs, one);
                  p += 1;
                  break;
                }
            }
          g_string_append_c (out, '$');
          break;
        }
    }
}

/**
 * winnow_regex_match_expand:
 * @self: the #WinnowRegex that produced @match
 * @match: a match
 * @js_replacement: a replacement in JavaScript syntax (`$1 $& $<name> $$ $\` $'`)
 * @out: where the expansion is appended
 *
 * Appends what JavaScript's `replace` would put in place of @match.
 */
void
winnow_regex_match_expand (WinnowRegex            *self,
                           const WinnowRegexMatch *match,
                           const char             *js_replacement,
                           GString                *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (match != NULL);
  g_return_if_fail (js_replacement != NULL);

  expand_replacement (self, out, match->subject, match->length, (PCRE2_SIZE *) match->offsets,
                      match->n_pairs, js_replacement);
}

typedef struct
{
  const char *js_replacement;
} ExpandData;

static gboolean
expand_func (WinnowRegex            *regex,
             const WinnowRegexMatch *match,
             GString                *out,
             gpointer                user_data)
{
  const ExpandData *data = user_data;

  winnow_regex_match_expand (regex, match, data->js_replacement, out);
  return TRUE;
}

/* winnow_regex_replace_func() for a shape: each has at most one match, and it ends the
 * subject (^\s*$ and ^$ cannot match again after a match, \s+$ finds nothing in the empty
 * rest), so the global flag changes nothing. */
static char *
replace_shape (WinnowRegex            *self,
               const char             *subject,
               gsize                   length,
               WinnowRegexReplaceFunc  func,
               gpointer                user_data,
               guint                  *n_replaced,
               WinnowRegexResult      *status)
{
  GString *out = g_string_sized_new (length + 16);
  gsize offsets[2] = { 0, length };
  WinnowRegexMatch match = { subject, length, offsets, 1 };
  gboolean matched;
  guint count = 0;

  if (self->shape == SHAPE_SPACE_AT_END)
    {
      offsets[0] = trailing_spaces_start (subject, length);
      matched = offsets[0] < length;
    }
  else
    matched = shape_matches (self, subject, length);

  if (matched)
    {
      g_string_append_len (out, subject, offsets[0]);
      if (func (self, &match, out, user_data))
        count++;
      else
        g_string_append_len (out, subject + offsets[0], offsets[1] - offsets[0]);
    }
  else
    g_string_append_len (out, subject, length);

  if (n_replaced != NULL)
    *n_replaced = count;
  if (status != NULL)
    *status = matched ? WINNOW_REGEX_MATCH : WINNOW_REGEX_NO_MATCH;

  return g_string_free (out, FALSE);
}

/**
 * _winnow_regex_trim_length:
 * @length_out: (out): the length of @subject once the match is replaced
 *
 * For the commonest replacement there is, `\s+$` by nothing (trailing spaces off every line):
 * what winnow_regex_replace() would leave is a prefix of @subject, so the stage runner can
 * shorten the line instead of building and storing a copy.
 *
 * Returns: %FALSE when @self and @js_replacement are not that pair
 */
gboolean
_winnow_regex_trim_length (WinnowRegex *self,
                           const char  *js_replacement,
                           const char  *subject,
                           gsize        length,
                           gsize       *length_out)
{
  if (self->shape != SHAPE_SPACE_AT_END || js_replacement[0] != '\0')
    return FALSE;

  *length_out = trailing_spaces_start (subject, length);
  return TRUE;
}

/**
 * winnow_regex_replace_func:
 * @self: a #WinnowRegex
 * @subject: valid UTF-8 text
 * @length: length of @subject in bytes
 * @func: decides each match: appends its replacement to the output and returns %TRUE, or
 *   returns %FALSE (appending nothing) to keep the match as it is
 * @user_data: for @func
 * @n_replaced: (out) (optional): how many matches @func replaced
 * @status: (out) (optional): %WINNOW_REGEX_BUDGET_EXCEEDED when a match gave up on its work
 *   budget (the rest of @subject is then kept as it is), else whether anything matched
 *
 * Like JavaScript's `String.prototype.replace` with a function: every match with the `g` flag,
 * else the first; an empty match steps over one character.
 *
 * Returns: (transfer full): the new text
 */
char *
winnow_regex_replace_func (WinnowRegex            *self,
                           const char             *subject,
                           gsize                   length,
                           WinnowRegexReplaceFunc  func,
                           gpointer                user_data,
                           guint                  *n_replaced,
                           WinnowRegexResult      *status)
{
  g_autoptr(GString) out = NULL;
  WinnowRegexResult result = WINNOW_REGEX_NO_MATCH;
  WinnowRegexMatch match;
  pcre2_match_data *md;
  PCRE2_SIZE *ovector;
  gsize offset = 0;
  gsize copied = 0;
  guint count = 0;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (subject != NULL || length == 0, NULL);
  g_return_val_if_fail (func != NULL, NULL);

  if (subject == NULL)
    subject = "";

  if (self->shape != SHAPE_GENERAL)
    return replace_shape (self, subject, length, func, user_data, n_replaced, status);

  md = pcre2_match_data_create_from_pattern (self->code, NULL);
  ovector = pcre2_get_ovector_pointer (md);
  match.subject = subject;
  match.length = length;
  match.offsets = ovector;
  match.n_pairs = pcre2_get_ovector_count (md);
  out = g_string_sized_new (length + 16);

  while (offset <= length && might_match (self, subject + offset, length - offset))
    {
      int rc = run_match (self, subject, length, offset, 0, md);

      if (rc < 0)
        {
          if (rc != PCRE2_ERROR_NOMATCH && rc != PCRE2_ERROR_PARTIAL)
            result = WINNOW_REGEX_BUDGET_EXCEEDED;
          break; /* no (further) match, or the budget ran out: keep the rest as it is */
        }

      if (result == WINNOW_REGEX_NO_MATCH)
        result = WINNOW_REGEX_MATCH;

      g_string_append_len (out, subject + copied, ovector[0] - copied);
      if (func (self, &match, out, user_data))
        count++;
      else
        g_string_append_len (out, subject + ovector[0], ovector[1] - ovector[0]);
      copied = ovector[1];

      if (!self->global)
        break;

      if (ovector[1] == ovector[0])
        {
          /* an empty match: step over one character, as JavaScript does */
          if (ovector[1] >= length)
            break;
          offset = g_utf8_next_char (subject + ovector[1]) - subject;
        }
      else
        offset = ovector[1];
    }

  g_string_append_len (out, subject + copied, length - copied);
  pcre2_match_data_free (md);

  if (n_replaced != NULL)
    *n_replaced = count;
  if (status != NULL)
    *status = result;

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * winnow_regex_replace:
 * @self: a #WinnowRegex
 * @subject: valid UTF-8 text
 * @length: length of @subject in bytes
 * @js_replacement: a replacement in JavaScript syntax (`$1 $& $<name> $$ $\` $'`)
 * @n_replaced: (out) (optional): how many matches were replaced
 *
 * Like JavaScript's `String.prototype.replace`: every match with the `g` flag, else the first.
 *
 * Returns: (transfer full): the new text
 */
char *
winnow_regex_replace (WinnowRegex *self,
                      const char  *subject,
                      gsize        length,
                      const char  *js_replacement,
                      guint       *n_replaced)
{
  ExpandData data = { js_replacement };

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (subject != NULL, NULL);
  g_return_val_if_fail (js_replacement != NULL, NULL);

  return winnow_regex_replace_func (self, subject, length, expand_func, &data, n_replaced, NULL);
}
