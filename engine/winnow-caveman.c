/* winnow-caveman.c — compressing prose with rule packs, technical tokens held out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Caveman engine rewrites what people and models write — pleasantries, hedges, filler,
 * articles, long words — with the regex rules of a language's packs, and never touches what a
 * reader needs exactly: code, paths, URLs, versions, identifiers, commands, error lines…
 *
 * How the technical tokens stay intact: winnow_protect_scan() finds them; each is replaced by
 * one placeholder character (U+FDD0, a Unicode noncharacter that never occurs in interchanged
 * text; if it does, it is protected like a token) and the rules run over that masked text. A
 * match that would contain a placeholder, or a replacement that would copy one (via `$&`, a
 * group, `` $` `` or `$'`), is skipped, so placeholders can be neither lost, duplicated nor
 * reordered, and restoring them in order gives back every token byte for byte. This is a
 * guarantee of the design, not a check that falls back: the reference gives up on a message
 * when its check fails (for instance on an indented fence); Winnow has nothing to give up on.
 *
 * Rules run pack by pack in file-name order, rule by rule in file order, each over the whole
 * message with JavaScript `replace` semantics; the whole run repeats until a pass changes
 * nothing (so compressing the result again gives it back as it is; a message over 512 KB gets
 * one pass). Where a deletion leaves a sentence starting in lower case, or a replacement starts
 * a sentence, the first letter takes the case the sentence had. A light clean-up then removes
 * what deletions leave behind: doubled spaces, a space before punctuation, an orphaned comma
 * (full-width ones too), empty parentheses, runs of blank lines. A rule that would remove most
 * of a message is not applied (and noted), and a message that would end up empty or longer is
 * returned as it was.
 *
 * A message holds a few of the phrases a language's hundreds of rules look for, and each rule
 * is a regex pass over the whole text. So before a rule runs, the literals every match of it
 * needs ("basically" or "actually" for `\b(?:basically|actually)\b`) are looked up in the
 * message's byte triples (winnow-literals.c); a rule whose literals are all absent cannot match
 * and is skipped. That skips about four rules in five, and the output is the same byte for
 * byte: test-literals checks on every corpus message and rule sample that no skipped rule
 * would have matched.
 */

#define G_LOG_DOMAIN "winnow-caveman"

#include "config.h"

#include <string.h>

#include "winnow-caveman.h"
#include "winnow-language.h"
#include "winnow-literals.h"
#include "winnow-protect.h"
#include "winnow-protect-private.h"
#include "winnow-utf8.h"

#define PLACEHOLDER     "\xEF\xB7\x90"   /* U+FDD0 */
#define PLACEHOLDER_LEN 3

/* Prose rules run over a message once per rule; past this size a "message" is a log or a
 * data dump, not prose, and it is left to the other engines. */
#define MAX_PROSE_BYTES (8 * 1024 * 1024)

/* What a later rule removes can let an earlier one match (an intensifier dropped from a
 * reassurance leaves the bare reassurance a courtesy rule knows); the packs run again until a
 * pass changes nothing, so compressing a compressed message gives it back unchanged. Rules
 * shorten text, so two or three passes settle a real message; packs whose rules undo each
 * other, or keep growing a match, get the first pass's result, as before there were passes. */
#define MAX_PASSES 4

/* Each pass reads the whole message with every rule whose literals it holds (a few ms for a
 * long chat message, one or two seconds per megabyte of dense prose); a message past this
 * size is a dump rather than a message anyone reads twice, and it gets one pass. (It was
 * 256 KB when a pass cost two and a half times as much: the worst case, MAX_PASSES passes,
 * takes about as long now.) */
#define MAX_SETTLED_BYTES (512 * 1024)

typedef struct
{
  char  *pack;
  char  *rule;
  guint  count;
} Firing;

struct _WinnowCavemanResult
{
  GObject                 parent_instance;
  char                   *text;
  gsize                   length;
  gboolean                changed;
  char                   *language;
  WinnowCavemanIntensity  intensity;
  WinnowMessageRole       role;
  guint                   n_protected;
  guint                   n_replaced;
  GArray                 *firings;     /* Firing */
  GPtrArray              *notes;       /* char *, NULL-terminated */
  gint64                  duration_us;
};

G_DEFINE_FINAL_TYPE (WinnowCavemanResult, winnow_caveman_result, G_TYPE_OBJECT)

/* Firing and WinnowCavemanFiring share their layout; the strings are owned by the result */
G_STATIC_ASSERT (sizeof (Firing) == sizeof (WinnowCavemanFiring));

static void
firing_clear (gpointer data)
{
  Firing *firing = data;

  g_clear_pointer (&firing->pack, g_free);
  g_clear_pointer (&firing->rule, g_free);
}

static void
winnow_caveman_result_finalize (GObject *object)
{
  WinnowCavemanResult *self = (WinnowCavemanResult *)object;

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->firings, g_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);

  G_OBJECT_CLASS (winnow_caveman_result_parent_class)->finalize (object);
}

static void
winnow_caveman_result_class_init (WinnowCavemanResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_caveman_result_finalize;
}

static void
winnow_caveman_result_init (WinnowCavemanResult *self)
{
  self->firings = g_array_new (FALSE, TRUE, sizeof (Firing));
  g_array_set_clear_func (self->firings, firing_clear);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->notes, NULL);
}

G_GNUC_PRINTF (2, 3)
static void
add_note (WinnowCavemanResult *self,
          const char          *format,
          ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_insert (self->notes, self->notes->len - 1, g_strdup_vprintf (format, args));
  va_end (args);
}

/**
 * winnow_caveman_options_init:
 * @options: options to reset
 *
 * Full intensity, a user message, language detected, every pack of that language.
 */
void
winnow_caveman_options_init (WinnowCavemanOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->intensity = WINNOW_CAVEMAN_INTENSITY_FULL;
  options->role = WINNOW_MESSAGE_ROLE_USER;
}

/* ---- masking ----------------------------------------------------------------------------- */

typedef struct
{
  gsize start;
  gsize end;
} Region;

/* The protected regions of @text (@spans: winnow_protect_scan() of it), plus any placeholder
 * character already in it. */
static GArray *
protected_regions (const char   *text,
                   gsize         length,
                   const GArray *spans)
{
  GArray *regions = g_array_sized_new (FALSE, FALSE, sizeof (Region), spans->len);
  gsize at = 0;

  for (guint i = 0; i <= spans->len; i++)
    {
      gsize gap_end = i < spans->len ? g_array_index (spans, WinnowProtectSpan, i).start : length;
      const char *p = text + at;

      /* a placeholder in the text itself would be restored as a token: hold it out too */
      while ((p = memmem (p, text + gap_end - p, PLACEHOLDER, PLACEHOLDER_LEN)) != NULL)
        {
          Region r = { p - text, p - text + PLACEHOLDER_LEN };

          g_array_append_val (regions, r);
          p += PLACEHOLDER_LEN;
        }

      if (i < spans->len)
        {
          const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, i);
          Region r = { span->start, span->end };

          g_array_append_val (regions, r);
          at = span->end;
        }
    }

  return regions;
}

static GString *
mask (const char   *text,
      gsize         length,
      const GArray *regions)
{
  GString *masked = g_string_sized_new (length);
  gsize at = 0;

  for (guint i = 0; i < regions->len; i++)
    {
      const Region *r = &g_array_index (regions, Region, i);

      g_string_append_len (masked, text + at, r->start - at);
      g_string_append_len (masked, PLACEHOLDER, PLACEHOLDER_LEN);
      at = r->end;
    }

  g_string_append_len (masked, text + at, length - at);
  return masked;
}

/* Puts the regions back; FALSE if the placeholders do not line up with them (a bug). */
static gboolean
unmask (const char   *masked,
        gsize         masked_length,
        const char   *text,
        const GArray *regions,
        GString      *out)
{
  const char *p = masked;
  const char *end = masked + masked_length;
  guint next = 0;

  while (p < end)
    {
      const char *hit = memmem (p, end - p, PLACEHOLDER, PLACEHOLDER_LEN);
      const Region *r;

      if (hit == NULL)
        {
          g_string_append_len (out, p, end - p);
          break;
        }

      if (next >= regions->len)
        return FALSE;

      g_string_append_len (out, p, hit - p);
      r = &g_array_index (regions, Region, next++);
      g_string_append_len (out, text + r->start, r->end - r->start);
      p = hit + PLACEHOLDER_LEN;
    }

  return next == regions->len;
}

/* ---- applying one rule ------------------------------------------------------------------- */

static gboolean
is_space_or_tab (char c)
{
  return c == ' ' || c == '\t';
}

/* A place in the output to tidy once the rule has run: the blanks there go, and with
 * @line_break the line break after them too. */
typedef struct
{
  gsize    at;
  gsize    skip;        /* bytes to drop first: emphasis marks that closed a deleted word */
  gboolean line_break;
} Tidy;

typedef struct
{
  WinnowRule *rule;
  GArray     *capitalize;   /* offsets in the output where a sentence now starts */
  GArray     *tidy;         /* Tidy, in the order of the output */
  guint       vetoed;
} ApplyData;

static gboolean
contains_placeholder (const char *text,
                      gsize       length)
{
  return memmem (text, length, PLACEHOLDER, PLACEHOLDER_LEN) != NULL;
}

/* Whether @offset in @text starts a sentence: the text or a line starts there (after a list
 * marker or quote sign, if any), or a sentence ends just before it. */
static gboolean
starts_sentence (const char *text,
                 gsize       offset)
{
  gsize i = offset;
  gsize line;

  while (i > 0 && is_space_or_tab (text[i - 1]))
    i--;
  /* and past the emphasis a sentence may open with: "**Basically** it works" */
  while (i > 0 && strchr ("*_~", text[i - 1]) != NULL && text[i - 1] != '\0')
    i--;
  while (i > 0 && is_space_or_tab (text[i - 1]))
    i--;

  /* Spanish opens a question or an exclamation with ¿ or ¡ */
  while (i >= 2 && (guchar) text[i - 2] == 0xC2 &&
         ((guchar) text[i - 1] == 0xBF || (guchar) text[i - 1] == 0xA1))
    i -= 2;

  if (i == 0 || text[i - 1] == '\n')
    return TRUE;
  if (text[i - 1] == '.' || text[i - 1] == '!' || text[i - 1] == '?')
    return i < offset; /* "e.g.x" is not a sentence start, "done. Next" is */

  /* a list item or block quote: "- ", "* ", "12. ", "> " */
  line = i;
  while (line > 0 && text[line - 1] != '\n')
    line--;
  while (line < i && is_space_or_tab (text[line]))
    line++;
  if (line < i && strchr ("-*+>", text[line]) != NULL && line + 1 == i)
    return TRUE;
  while (line < i && g_ascii_isdigit (text[line]))
    line++;
  return line + 1 == i && line > 0 && (text[line] == '.' || text[line] == ')') &&
         g_ascii_isdigit (text[line - 1]);
}

static gboolean
is_blank (const char *text,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;

  return TRUE;
}

/* Whether only blanks stand between the start of @offset's line and @offset. */
static gboolean
starts_line (const char *text,
             gsize       offset)
{
  while (offset > 0 && is_space_or_tab (text[offset - 1]))
    offset--;
  return offset == 0 || text[offset - 1] == '\n';
}

/* Whether only blanks stand between @offset and the end of its line. */
static gboolean
ends_line (const char *text,
           gsize       length,
           gsize       offset)
{
  while (offset < length && is_space_or_tab (text[offset]))
    offset++;
  if (offset + 1 < length && text[offset] == '\r' && text[offset + 1] == '\n')
    offset++;
  return offset == length || text[offset] == '\n';
}

/* A rule deletes words, not line structure: a pattern's \s+ can run across a line break, and
 * "check the\n\nNext" lost its paragraph break, "run the\n```" moved a fence into the
 * middle of a line, where it no longer opens a block. The line breaks a match starts or ends
 * with stay, with the indentation after them: all of them when the match begins inside a
 * line, and all but its own line's when the match deletes from the start of a line. Breaks
 * inside the match (a sentence wrapped over two lines) go with it. */
static void
keep_line_breaks (const char *subject,
                  gsize       length,
                  gsize       start,
                  gsize       end,
                  GString    *out,
                  gsize       mark,
                  GArray     *tidy)
{
  gsize body_start = start, body_end = end;
  const char *nl;

  while (body_start < end && g_ascii_isspace (subject[body_start]))
    body_start++;
  if (body_start == end)
    return; /* nothing but blanks: a rule about spacing */
  while (body_end > body_start && g_ascii_isspace (subject[body_end - 1]))
    body_end--;

  /* at the end of the text there is nothing left to keep apart */
  nl = end < length ? memchr (subject + body_end, '\n', end - body_end) : NULL;
  if (nl != NULL && starts_line (subject, start))
    nl = memchr (nl + 1, '\n', subject + end - (nl + 1));
  if (nl != NULL && (out->len == mark || out->str[out->len - 1] != '\n'))
    {
      /* a Windows line break is kept whole */
      if (nl > subject + body_end && nl[-1] == '\r')
        nl--;
      g_string_append_len (out, nl, subject + end - nl);
    }

  if (start > 0 && memchr (subject + start, '\n', body_start - start) != NULL &&
      !ends_line (subject, length, end))
    {
      g_string_insert_len (out, mark, subject + start, body_start - start);
      /* the blank after the deleted words would indent the line further */
      if (out->len == mark + (body_start - start))
        {
          Tidy blanks = { out->len, 0, FALSE };

          g_array_append_val (tidy, blanks);
        }
    }
}

/* A word deleted from inside emphasis ("*basically*", "**Basically**,") takes the marks
 * around it along, or they would be left as "**", which reads as bold opening. The opening
 * marks are already in @out; the closing ones (and a comma after them) go once the rule has
 * run. Returns where the replacement now starts in @out. */
static gsize
drop_emphasis (const char *subject,
               gsize       length,
               gsize       end,
               GString    *out,
               gsize       mark,
               GArray     *tidy)
{
  gsize marks = 0;
  Tidy closing;

  while (marks < 3 && marks < mark && strchr ("*_~", out->str[mark - 1 - marks]) != NULL &&
         out->str[mark - 1 - marks] == out->str[mark - 1])
    marks++;
  if (marks == 0 || end + marks > length ||
      memcmp (subject + end, out->str + mark - marks, marks) != 0 ||
      (end + marks < length && subject[end + marks] == out->str[mark - 1]) ||
      (mark > marks && out->str[mark - 1 - marks] == out->str[mark - 1]))
    return mark;

  g_string_truncate (out, mark - marks);
  closing = (Tidy) { out->len, marks, FALSE };
  g_array_append_val (tidy, closing);
  return out->len;
}

/* Whether the match takes all that was left of its line but not the line's break, which a
 * following line still needs. */
static gboolean
empties_line (const char *subject,
              gsize       length,
              gsize       start,
              gsize       end)
{
  gsize after = end;

  if (start == end || !starts_line (subject, start))
    return FALSE;
  for (gsize i = end; i > start && g_ascii_isspace (subject[i - 1]); i--)
    if (subject[i - 1] == '\n')
      return FALSE;
  while (after < length && is_space_or_tab (subject[after]))
    after++;
  if (after + 1 < length && subject[after] == '\r' && subject[after + 1] == '\n')
    after++;
  return after < length && subject[after] == '\n';
}

/* Whether the match is all that stands between quotes: "he said “basically” twice" talks
 * about the word, it does not use it, so the word stays. */
static gboolean
is_quoted (const char *subject,
           gsize       length,
           gsize       start,
           gsize       end)
{
  static const char * const pairs[][2] = {
    { "\"", "\"" }, { "'", "'" }, { "“", "”" }, { "‘", "’" }, { "«", "»" }, { "„", "“" },
    { "「", "」" }, { "『", "』" }, { "‹", "›" },
  };

  while (start < end && g_ascii_isspace (subject[start]))
    start++;
  while (end > start && g_ascii_isspace (subject[end - 1]))
    end--;
  if (start == end)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      gsize open = strlen (pairs[i][0]), close = strlen (pairs[i][1]);

      if (start >= open && end + close <= length &&
          memcmp (subject + start - open, pairs[i][0], open) == 0 &&
          memcmp (subject + end, pairs[i][1], close) == 0)
        return TRUE;
    }

  return FALSE;
}

/* Whether the match is all of a numbered list item's text: "2. Hope this helps!" would leave
 * an empty item "2.", and the number is a protected token, so the item cannot go either. A
 * bulleted item can: clean_line() drops the "-" it leaves. */
static gboolean
empties_numbered_item (const char *subject,
                       gsize       length,
                       gsize       start,
                       gsize       end)
{
  gsize at = start, line = start, body_end = end;

  /* the match may take the line's break with it */
  while (body_end > start && g_ascii_isspace (subject[body_end - 1]))
    body_end--;
  while (at > 0 && is_space_or_tab (subject[at - 1]))
    at--;
  if (at < 2 || (subject[at - 1] != '.' && subject[at - 1] != ')') ||
      !ends_line (subject, length, body_end))
    return FALSE;

  while (line > 0 && subject[line - 1] != '\n')
    line--;
  while (line < at && is_space_or_tab (subject[line]))
    line++;
  /* the number: a placeholder (numbers are protected) or plain digits */
  if (at - 1 - line == PLACEHOLDER_LEN)
    return memcmp (subject + line, PLACEHOLDER, PLACEHOLDER_LEN) == 0;
  for (gsize i = line; i < at - 1; i++)
    if (!g_ascii_isdigit (subject[i]))
      return FALSE;
  return at - 1 > line;
}

static gboolean
apply_func (WinnowRegex            *regex,
            const WinnowRegexMatch *match,
            GString                *out,
            gpointer                user_data)
{
  ApplyData *data = user_data;
  gsize start = match->offsets[0];
  gsize end = match->offsets[1];
  const char *matched = match->subject + start;
  const char *hit;
  gsize mark = out->len;
  gsize body;
  gunichar first;

  if (contains_placeholder (matched, end - start) ||
      empties_numbered_item (match->subject, match->length, start, end) ||
      is_quoted (match->subject, match->length, start, end))
    {
      data->vetoed++;
      return FALSE;
    }

  hit = winnow_rule_lookup_map (data->rule, matched, end - start);
  if (hit != NULL)
    g_string_append (out, hit);
  else if (winnow_rule_get_replacement (data->rule) != NULL)
    winnow_regex_match_expand (regex, match, winnow_rule_get_replacement (data->rule), out);
  else
    return FALSE;

  if (contains_placeholder (out->str + mark, out->len - mark))
    {
      g_string_truncate (out, mark);
      data->vetoed++;
      return FALSE;
    }

  keep_line_breaks (match->subject, match->length, start, end, out, mark, data->tidy);
  if (out->len == mark)
    mark = drop_emphasis (match->subject, match->length, end, out, mark, data->tidy);
  if (empties_line (match->subject, match->length, start, end) &&
      is_blank (out->str + mark, out->len - mark))
    {
      Tidy line = { out->len, 0, TRUE };

      g_array_append_val (data->tidy, line);
    }

  /* keep the case a sentence started with (the match may start with the blanks before it) */
  body = start;
  while (body < end && g_ascii_isspace (match->subject[body]))
    body++;
  first = body < end ? g_utf8_get_char (match->subject + body) : 0;
  if (g_unichar_isupper (first) && starts_sentence (match->subject, body))
    {
      if (is_blank (out->str + mark, out->len - mark))
        {
          gsize at = out->len;

          g_array_append_val (data->capitalize, at);
        }
      else
        {
          gsize at = mark;

          while (at < out->len && g_ascii_isspace (out->str[at]))
            at++;
          g_array_append_val (data->capitalize, at);
        }
    }

  return TRUE;
}

/* Carries out @tidy (ascending offsets in @text) and moves the offsets in @capitalize along. */
static void
tidy_up (char         *text,
         gsize        *length,
         const GArray *tidy,
         GArray       *capitalize)
{
  g_autoptr(GArray) cuts = g_array_sized_new (FALSE, FALSE, sizeof (gsize) * 2, tidy->len);
  gsize read = 0, write = 0;

  for (guint i = 0; i <= tidy->len; i++)
    {
      const Tidy *t = i < tidy->len ? &g_array_index (tidy, Tidy, i) : NULL;
      gsize stop = t != NULL ? MAX (t->at, read) : *length;
      gsize cut[2];

      memmove (text + write, text + read, stop - read);
      write += stop - read;
      read = stop;
      if (t == NULL)
        break;

      if (t->skip > 0)
        {
          read = MIN (read + t->skip, *length);
          /* and the deleted word's comma after them */
          if (read < *length && (text[read] == ',' || text[read] == ';'))
            read++;
        }
      while (read < *length && is_space_or_tab (text[read]))
        read++;
      if (t->line_break && read + 1 < *length && text[read] == '\r' && text[read + 1] == '\n')
        read++;
      if (t->line_break && read < *length && text[read] == '\n')
        read++;
      cut[0] = stop;
      cut[1] = read;
      g_array_append_val (cuts, cut);
    }

  text[write] = '\0';
  *length = write;

  /* an offset in a cut moves to where the cut was; after it, back by all cut before it */
  for (guint k = 0; k < capitalize->len; k++)
    {
      gsize *at = &g_array_index (capitalize, gsize, k);
      gsize removed = 0;

      for (guint c = 0; c < cuts->len; c++)
        {
          const gsize *cut = &g_array_index (cuts, gsize, c * 2);

          if (*at <= cut[0])
            break;
          removed += MIN (*at, cut[1]) - cut[0];
        }
      *at -= removed;
    }
}

/* Upper-cases the first letter at or after @offset, skipping spaces, orphaned commas and
 * emphasis marks. */
static void
capitalize_at (char  *text,
               gsize  length,
               gsize  offset)
{
  gsize i = offset;
  gunichar c;
  char buffer[6];
  int n;

  /* also past emphasis marks: "**Basically** it works" is "It works" */
  while (i < length && (g_ascii_isspace (text[i]) || strchr (",;*_~", text[i]) != NULL))
    i++;
  if (i >= length)
    return;

  c = g_utf8_get_char_validated (text + i, length - i);
  if (c == (gunichar) -1 || c == (gunichar) -2 || !g_unichar_islower (c))
    return;

  /* only when the capital has the same length in UTF-8, so offsets stay valid */
  n = g_unichar_to_utf8 (g_unichar_totitle (c), buffer);
  if (n == g_utf8_skip[(guchar) text[i]])
    memcpy (text + i, buffer, n);
}

static gsize
count_letters (const char *text,
               gsize       length)
{
  gsize n = 0;

  for (const char *p = text; p < text + length; p = g_utf8_next_char (p))
    if ((guchar) *p < 0x80 ? g_ascii_isalpha (*p) : g_unichar_isalpha (g_utf8_get_char (p)))
      n++;

  return n;
}

/* ---- clean-up ---------------------------------------------------------------------------- */

/* Full-width punctuation of Chinese and Japanese: commas (、 ，) and sentence ends (。 ！ ？).
 * Returns the length of the mark at @p, or 0. */
static gsize
cjk_comma (const char *p,
           const char *end)
{
  if (end - p >= 3 && memcmp (p, "\xE3\x80\x81", 3) == 0)   /* 、 */
    return 3;
  if (end - p >= 3 && memcmp (p, "\xEF\xBC\x8C", 3) == 0)   /* ， */
    return 3;
  return 0;
}

static gsize
cjk_stop (const char *p,
          const char *end)
{
  if (end - p >= 3 && memcmp (p, "\xE3\x80\x82", 3) == 0)   /* 。 */
    return 3;
  if (end - p >= 3 && (memcmp (p, "\xEF\xBC\x81", 3) == 0 ||  /* ！ */
                       memcmp (p, "\xEF\xBC\x9F", 3) == 0))   /* ？ */
    return 3;
  return 0;
}

static gboolean
ends_with_cjk_stop (GString *out,
                    gsize    content_start)
{
  return out->len >= content_start + 3 &&
         cjk_stop (out->str + out->len - 3, out->str + out->len) > 0;
}

/* An aside between dashes that deletions emptied: "It is — basically — done" leaves "— —",
 * which goes with one of the spaces around it. */
static void
drop_empty_dashes (GString *out,
                   gsize    content_start)
{
  static const char * const pairs[] = { "— —", "– –" };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      char *hit;

      while ((hit = strstr (out->str + content_start, pairs[i])) != NULL)
        {
          gsize at = hit - out->str;
          gsize n = strlen (pairs[i]);

          /* the space before the first dash, or else the one after the second */
          if (at > content_start && out->str[at - 1] == ' ')
            g_string_erase (out, at - 1, n + 1);
          else if (at + n < out->len && out->str[at + n] == ' ')
            g_string_erase (out, at, n + 1);
          else
            g_string_erase (out, at, n);
        }
    }
}

/* "-", "*", "+", "12." or "3)" and nothing else */
static gboolean
is_list_marker (const char *text,
                gsize       length)
{
  gsize digits = 0;

  if (length == 1)
    return strchr ("-*+", text[0]) != NULL;
  while (digits < length && digits < 9 && g_ascii_isdigit (text[digits]))
    digits++;
  return digits > 0 && digits + 1 == length && (text[digits] == '.' || text[digits] == ')');
}

/* What deletions leave behind, on one line without its newline. */
static void
clean_line (GString    *out,
            const char *line,
            gsize       length,
            gboolean    french)
{
  gsize i = 0;
  gsize content_start, content_end;
  gsize line_start = out->len;

  /* indentation stays as written */
  while (i < length && is_space_or_tab (line[i]))
    g_string_append_c (out, line[i++]);
  content_start = out->len;

  for (; i < length; i++)
    {
      char c = line[i];
      gsize mark;

      if (is_space_or_tab (c))
        {
          gsize j = i;

          while (j < length && is_space_or_tab (line[j]))
            j++;
          if (j >= length)
            {
              /* trailing blanks go, but two spaces are a Markdown line break */
              if (j - i >= 2 && line[i] == ' ' && line[i + 1] == ' ' && out->len > content_start)
                g_string_append (out, "  ");
              break;
            }
          /* nor before full-width punctuation */
          if (cjk_comma (line + j, line + length) || cjk_stop (line + j, line + length))
            {
              i = j - 1;
              continue;
            }
          /* no blank before closing punctuation (French keeps its space before ; : ! ?); a
           * mark that starts a word is not one (".env", ":a" in a sed script) */
          if (strchr (",.)", line[j]) != NULL || (!french && strchr (";:!?", line[j]) != NULL))
            {
              if (!(line[j] == '.' && j + 1 < length && !g_ascii_isspace (line[j + 1]) &&
                    line[j + 1] != '.') &&
                  !(j + 1 < length && g_ascii_isalnum (line[j + 1])))
                {
                  i = j - 1;
                  continue;
                }
            }
          if (out->len > content_start)
            g_string_append_c (out, ' ');
          i = j - 1;
          continue;
        }

      /* an orphaned comma: at the start of the content, or after the end of a sentence */
      if ((c == ',' || c == ';') &&
          (out->len == content_start ||
           (out->len >= 2 && out->str[out->len - 1] == ' ' &&
            strchr (".!?:", out->str[out->len - 2]) != NULL)))
        {
          while (i + 1 < length && is_space_or_tab (line[i + 1]))
            i++;
          continue;
        }

      /* ", ." and ", ," leave the second mark only */
      if (strchr (".,;!?", c) != NULL && out->len > content_start &&
          (out->str[out->len - 1] == ',' || out->str[out->len - 1] == ';'))
        {
          g_string_truncate (out, out->len - 1);
          g_string_append_c (out, c);
          continue;
        }

      /* the same for full-width commas: orphaned at the start or after 。！？, or doubled
       * before another mark */
      if ((mark = cjk_comma (line + i, line + length)) > 0 &&
          (out->len == content_start || ends_with_cjk_stop (out, content_start) ||
           (out->len >= content_start + 3 &&
            cjk_comma (out->str + out->len - 3, out->str + out->len) > 0)))
        {
          i += mark - 1;
          continue;
        }
      if ((mark = cjk_stop (line + i, line + length)) > 0 && out->len >= content_start + 3 &&
          cjk_comma (out->str + out->len - 3, out->str + out->len) > 0)
        {
          g_string_truncate (out, out->len - 3);
          g_string_append_len (out, line + i, mark);
          i += mark - 1;
          continue;
        }

      /* "()" left by deleting what was in the parentheses */
      if (c == ')' && out->len > content_start && out->str[out->len - 1] == '(')
        {
          g_string_truncate (out, out->len - 1);
          while (out->len > content_start && out->str[out->len - 1] == ' ')
            g_string_truncate (out, out->len - 1);
          continue;
        }

      g_string_append_c (out, c);
    }

  drop_empty_dashes (out, content_start);

  /* a line that deletions emptied of all but its indentation, or of all but its list
   * marker: "2. Hope this helps!" leaves no empty item "2." */
  content_end = out->len;
  while (content_end > content_start && out->str[content_end - 1] == ' ')
    content_end--;
  if (content_end == content_start || is_list_marker (out->str + content_start,
                                                      content_end - content_start))
    g_string_truncate (out, line_start);
}

/* The bytes of the line break @out ends with: 2 for "\r\n", 1 for "\n", 0 for none. */
static gsize
final_break_length (const GString *out)
{
  if (out->len == 0 || out->str[out->len - 1] != '\n')
    return 0;
  return out->len > 1 && out->str[out->len - 2] == '\r' ? 2 : 1;
}

/* Whether @out ends with two line breaks, Windows ones or not. */
static gboolean
ends_with_blank_line (const GString *out)
{
  gsize n = out->len - final_break_length (out);

  return n < out->len && n > 0 && out->str[n - 1] == '\n';
}

/* @final_break: the line break the message ended with ("\n", "\r\n"), or %NULL; the result
 * ends with it too */
static GString *
clean_up (const GString *masked,
          const char    *language,
          const char    *final_break)
{
  GString *out = g_string_sized_new (masked->len);
  gboolean french = language != NULL && g_str_has_prefix (language, "fr");
  const char *p = masked->str;
  const char *end = masked->str + masked->len;
  guint blank_run = 0;

  while (p <= end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *line_end = nl ? nl : end;
      gboolean crlf = nl != NULL && nl > p && nl[-1] == '\r';
      gsize before = out->len;

      /* a Windows line break is the line's end, not part of its text */
      clean_line (out, p, line_end - p - crlf, french);

      if (out->len == before && !is_blank (p, line_end - p))
        {
          /* deletions left only debris ("- ", ", "): the line goes with its break */
          if (nl == NULL)
            break;
          p = nl + 1;
          continue;
        }
      if (out->len == before)
        blank_run++;
      else
        blank_run = 0;

      if (nl == NULL)
        break;

      /* at most one blank line in a row, and none at the very start */
      if (blank_run <= 1 && out->len > 0)
        g_string_append (out, crlf ? "\r\n" : "\n");

      p = nl + 1;
    }

  /* no blank line at the very end either, and a final line break if the message had one */
  while (ends_with_blank_line (out) || (final_break == NULL && final_break_length (out) > 0))
    g_string_truncate (out, out->len - final_break_length (out));
  if (final_break != NULL && out->len > 0 && final_break_length (out) == 0)
    g_string_append (out, final_break);

  return out;
}

/* ---- hard-wrapped paragraphs ------------------------------------------------------------ */

/* Whether a protected span takes the line [@offset, @end) with it: one that runs on past its
 * break, or a block that makes it a block's line (a command only when it starts the line).
 * The spans are in order: those before the line are skipped for good. */
static gboolean
takes_a_block (gsize         offset,
               gsize         end,
               const GArray *spans,
               guint        *next_span)
{
  while (*next_span < spans->len &&
         g_array_index (spans, WinnowProtectSpan, *next_span).end <= offset)
    (*next_span)++;
  for (guint k = *next_span; k < spans->len; k++)
    {
      const WinnowProtectSpan *span = &g_array_index (spans, WinnowProtectSpan, k);

      if (span->start > end)
        break;
      if (span->end > end ||
          (winnow_protect_kind_is_block (span->kind) &&
           (span->kind != WINNOW_PROTECT_COMMAND || span->start == offset)))
        return TRUE;
    }
  return FALSE;
}

/* Whether a line (or what follows its indentation or list marker) starts as a paragraph's
 * running text does: not blank, not indented, not a block's (list item, quote, heading, table
 * row; a fence is a protected block, see takes_a_block()). Inline code may start it. */
static gboolean
is_running_text (const char *line,
                 gsize       length)
{
  /* emphasis may start it ("**Note:** …", "*really*"), a bullet or a rule may not */
  if (length >= 2 && line[0] == '*' && line[1] != ' ' &&
      (line[1] != '*' || (length >= 3 && line[2] != ' ' && line[2] != '*')))
    return TRUE;
  if (length == 0 || g_ascii_isspace (line[0]) || strchr ("#>|-*+", line[0]) != NULL)
    return FALSE;
  for (gsize i = 0; i < length && g_ascii_isdigit (line[i]); i++)
    if (i + 1 < length && (line[i + 1] == '.' || line[i + 1] == ')'))
      return FALSE;
  return TRUE;
}

/* Where the text of a list item's line starts ("- ", "* ", "+ ", "1. ", "12) " at the margin),
 * or 0 when the line is not one (or its marker is followed by more blanks). */
static gsize
item_content (const char *line,
              gsize       length)
{
  gsize marker = _winnow_protect_list_marker (line, 0, length);

  return marker > 0 && marker < length && !is_space_or_tab (line[marker]) ? marker : 0;
}

/* Whether a line ends where a writer might break one on purpose: after a sentence, a comma,
 * a colon or a closing emoji. */
static gboolean
ends_clause (const char *line,
             gsize       length)
{
  const char *last;

  while (length > 0 && line[length - 1] == ' ')
    length--;
  if (length == 0)
    return TRUE;
  last = g_utf8_find_prev_char (line, line + length);
  return strchr (".!?,;:)", line[length - 1]) != NULL ||
         (last != NULL && g_unichar_type (g_utf8_get_char (last)) == G_UNICODE_OTHER_SYMBOL);
}

/* Whether the second of two lines reads as the rest of the first's sentence, not as a line
 * of its own ("Anna", "Best regards⏎Ravi Kumar"): it starts in lower case or with a number, an
 * acronym or a unit ("11,6⏎MB, selesai…"), or it is a clause of three words or more that ends
 * a sentence (a German noun starts in upper case: "…haben wir die⏎Datenbank migriert."). */
static gboolean
goes_on_with_sentence (const char *line,
                       gsize       length)
{
  const char *end = line + length;
  const char *p;
  gboolean lower = FALSE;
  guint words = 1;

  while (end > line && end[-1] == ' ')
    end--;
  if (end == line)
    return FALSE;
  if (!g_unichar_isupper (g_utf8_get_char (line)))
    return TRUE;
  /* an acronym or unit: a word of two capitals or more and no lower-case letter ("MB,") */
  for (p = line; p < end && *p != ' '; p = g_utf8_next_char (p))
    lower |= g_unichar_islower (g_utf8_get_char (p));
  if (!lower && g_unichar_isupper (g_utf8_get_char (g_utf8_next_char (line))))
    return TRUE;
  for (p = line; p < end; p++)
    words += *p == ' ' && p + 1 < end && p[1] != ' ';
  return words >= 3 && strchr (".!?", end[-1]) != NULL;
}

/* What a line can be in a hard-wrapped paragraph. */
typedef enum
{
  LINE_OTHER,       /* not running text: ends a paragraph */
  LINE_TEXT,        /* running text at the margin */
  LINE_ITEM,        /* a list item's first line: starts a paragraph, never goes on with one */
  LINE_CONTINUED,   /* running text indented as far as the item it goes on with */
} LineShape;

typedef struct
{
  gsize     start;      /* byte offset of the line */
  gsize     length;     /* bytes, without the line break */
  glong     chars;
  glong     first_word; /* characters of its first word, after its indentation */
  LineShape shape;
  gsize     indent;     /* LINE_ITEM: where its text starts; LINE_CONTINUED: its indentation */
} Line;

/* Hard-wrapped text (an e-mail, a commit message) breaks a sentence where the next word would
 * not fit, and a pattern's literal space does not match the break: "I hope⏎this helps" kept
 * what "I hope this helps" loses. A paragraph of running text whose every line was broken that
 * way (the line plus the next line's first word is longer than the paragraph's longest line,
 * at least MIN_WRAP characters) is joined into one line before the rules run; and it costs a
 * token per break less. A list item is a paragraph too, with the lines that go on under its
 * text. Short lines a writer broke on purpose ("Best regards,⏎Ravi") are not wrapping and
 * stay. Returns %NULL when nothing is joined. */
#define MIN_WRAP 40

static char *
join_wrapped_lines (const char   *text,
                    gsize         length,
                    const GArray *spans)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autofree char *joined = NULL;
  guint next_span = 0;
  gboolean any = FALSE;

  for (gsize at = 0; at <= length;)
    {
      const char *nl = memchr (text + at, '\n', length - at);
      gsize end = nl != NULL ? (gsize) (nl - text) : length;
      Line line = { at, end - at, 0, 0, LINE_OTHER, 0 };
      gboolean code;
      gsize spaces = 0;
      const char *p;

      if (line.length > 0 && text[end - 1] == '\r')
        line.length--;
      line.chars = g_utf8_strlen (text + at, line.length);
      while (spaces < line.length && text[at + spaces] == ' ')
        spaces++;
      /* a code span is one word: wrapping does not break inside it */
      for (p = text + at + spaces, code = FALSE;
           p < text + at + line.length && (code || *p != ' ');
           p = g_utf8_next_char (p))
        {
          code ^= *p == '`';
          line.first_word++;
        }

      if (takes_a_block (at, at + line.length, spans, &next_span) ||
          /* a Markdown hard break: two spaces or a backslash at the end */
          (line.length >= 2 && text[at + line.length - 1] == ' ' &&
           text[at + line.length - 2] == ' ') ||
          (line.length >= 1 && text[at + line.length - 1] == '\\'))
        line.shape = LINE_OTHER;
      else if (is_running_text (text + at, line.length))
        line.shape = LINE_TEXT;
      else if ((line.indent = item_content (text + at, line.length)) > 0 &&
               is_running_text (text + at + line.indent, line.length - line.indent))
        line.shape = LINE_ITEM;
      else if (spaces > 0 && spaces <= 4 &&
               is_running_text (text + at + spaces, line.length - spaces))
        {
          line.shape = LINE_CONTINUED;
          line.indent = spaces;
        }
      g_array_append_val (lines, line);
      if (nl == NULL)
        break;
      at = end + 1;
    }

  for (guint i = 0; i < lines->len;)
    {
      guint first = i, last;
      glong width = 0;
      gboolean wrapped = TRUE;

      const Line *head = &g_array_index (lines, Line, i);

      if (head->shape != LINE_TEXT && head->shape != LINE_ITEM)
        {
          i++;
          continue;
        }
      /* a paragraph goes on with lines of text at the margin; a list item's, also with lines
       * indented as far as its text */
      width = head->chars;
      for (last = i + 1; last < lines->len; last++)
        {
          const Line *line = &g_array_index (lines, Line, last);

          if (!(line->shape == LINE_TEXT ||
                (head->shape == LINE_ITEM && line->shape == LINE_CONTINUED &&
                 line->indent == head->indent)))
            break;
          width = MAX (width, line->chars);
        }
      i = last;
      if (last - first < 2 || width < MIN_WRAP)
        continue;

      for (guint k = first; k + 1 < last && wrapped; k++)
        wrapped = g_array_index (lines, Line, k).chars + 1 +
                  g_array_index (lines, Line, k + 1).first_word > width;
      /* two lines prove less (the longer one always looks full): the first must stop inside
       * a sentence and the second go on with it, unlike "…viele Grüße⏎Anna" */
      if (wrapped && last - first == 2)
        {
          const Line *one = &g_array_index (lines, Line, first);
          const Line *two = &g_array_index (lines, Line, first + 1);
          gsize two_text = two->start + (two->shape == LINE_CONTINUED ? two->indent : 0);

          wrapped = !ends_clause (text + one->start, one->length) &&
                    goes_on_with_sentence (text + two_text,
                                           two->start + two->length - two_text);
        }
      if (!wrapped)
        continue;

      if (joined == NULL)
        joined = g_strndup (text, length);
      for (guint k = first; k + 1 < last; k++)
        {
          const Line *line = &g_array_index (lines, Line, k);
          gsize cut = line->start + line->length;

          /* the break (with its \r) becomes a space, as does a continued line's indentation
           * (the clean-up makes them one, once a rule has changed the message) */
          while (cut < g_array_index (lines, Line, k + 1).start)
            joined[cut++] = ' ';
        }
      any = TRUE;
    }

  return any ? g_steal_pointer (&joined) : NULL;
}

/* @text with its hard-wrapped paragraphs joined, or %NULL when it has none; @spans is set to
 * winnow_protect_scan() of what the rules will read (the joined text, or @text). */
static char *
join_and_scan (const char  *text,
               gsize        length,
               GArray     **spans)
{
  char *joined;

  *spans = winnow_protect_scan (text, length);
  joined = join_wrapped_lines (text, length, *spans);
  if (joined != NULL)
    {
      g_array_unref (*spans);
      *spans = winnow_protect_scan (joined, length);
    }

  return joined;
}

/* ---- the engine -------------------------------------------------------------------------- */

/* A rule that fires again in a later pass adds to its first firing: the result lists each
 * rule once. */
static void
record_firing (WinnowCavemanResult *self,
               WinnowRulePack      *pack,
               WinnowRule          *rule,
               guint                count)
{
  const char *pack_name = winnow_rule_pack_get_name (pack);
  const char *rule_name = winnow_rule_get_name (rule);
  Firing firing;

  self->n_replaced += count;

  for (guint i = 0; i < self->firings->len; i++)
    {
      Firing *seen = &g_array_index (self->firings, Firing, i);

      if (g_strcmp0 (seen->pack, pack_name) == 0 && g_strcmp0 (seen->rule, rule_name) == 0)
        {
          seen->count += count;
          return;
        }
    }

  firing.pack = g_strdup (pack_name);
  firing.rule = g_strdup (rule_name);
  firing.count = count;
  g_array_append_val (self->firings, firing);
}

/* Runs @rule over *@masked, replacing it when the rule changed it (and returning TRUE); @grams
 * follows the text. */
static gboolean
apply_rule (WinnowCavemanResult *self,
            WinnowRulePack      *pack,
            WinnowRule          *rule,
            GString            **masked,
            WinnowGramIndex     *grams)
{
  g_autoptr(GArray) capitalize = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GArray) tidy = g_array_new (FALSE, FALSE, sizeof (Tidy));
  ApplyData data = { rule, capitalize, tidy, 0 };
  WinnowRegexResult status;
  g_autofree char *result = NULL;
  gsize result_length;
  gsize letters_before;
  gsize letters_after;
  guint count = 0;

  /* most rules find nothing in a message: skip those that cannot, without a pass over it */
  if (!_winnow_regex_might_occur_in (winnow_rule_get_regex (rule), grams))
    return FALSE;

  result = winnow_regex_replace_func (winnow_rule_get_regex (rule), (*masked)->str,
                                      (*masked)->len, apply_func, &data, &count, &status);

  if (status == WINNOW_REGEX_BUDGET_EXCEEDED)
    add_note (self, "rule %s/%s gave up on this message (its pattern backtracks too much); "
              "the rest of the message was left to the other rules",
              winnow_rule_pack_get_name (pack), winnow_rule_get_name (rule));

  if (count == 0)
    return FALSE;

  /* replacing a match with itself (a map entry equal to its key, say) changes nothing and is
   * not counted, or every pass would "change" the message again */
  result_length = strlen (result);
  if (tidy->len > 0)
    tidy_up (result, &result_length, tidy, capitalize);
  if (result_length == (*masked)->len && memcmp (result, (*masked)->str, result_length) == 0)
    return FALSE;

  for (guint i = 0; i < capitalize->len; i++)
    capitalize_at (result, result_length, g_array_index (capitalize, gsize, i));

  /* a rule that takes nearly all of a message with it is broken, whatever it meant to do
   * (letters are only counted when the bytes say it might be so) */
  if (result_length * 5 < (*masked)->len * 2)
    {
      letters_before = count_letters ((*masked)->str, (*masked)->len);
      letters_after = count_letters (result, result_length);
      if (letters_before >= 40 && letters_after * 10 < letters_before)
        {
          add_note (self, "rule %s/%s would delete %" G_GSIZE_FORMAT "%% of the message; it "
                    "was not applied", winnow_rule_pack_get_name (pack),
                    winnow_rule_get_name (rule), 100 - letters_after * 100 / letters_before);
          return FALSE;
        }
    }

  _winnow_gram_index_add_change (grams, (*masked)->str, (*masked)->len, result, result_length);
  g_string_free (*masked, TRUE);
  *masked = g_string_new_len (result, result_length);
  record_firing (self, pack, rule, count);

  return TRUE;
}

/* The text and the firings after the first pass, to fall back on when the passes do not
 * settle (rules that swap words back and forth, or keep growing a match). */
typedef struct
{
  GString *masked;
  GArray  *counts;       /* guint, one per firing */
  guint    n_replaced;
} Snapshot;

static void
snapshot_free (Snapshot *snapshot)
{
  g_string_free (snapshot->masked, TRUE);
  g_array_unref (snapshot->counts);
  g_free (snapshot);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Snapshot, snapshot_free)

static Snapshot *
snapshot_take (WinnowCavemanResult *self,
               const GString       *masked)
{
  Snapshot *snapshot = g_new0 (Snapshot, 1);

  snapshot->masked = g_string_new_len (masked->str, masked->len);
  snapshot->counts = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->firings->len);
  for (guint i = 0; i < self->firings->len; i++)
    g_array_append_val (snapshot->counts, g_array_index (self->firings, Firing, i).count);
  snapshot->n_replaced = self->n_replaced;

  return snapshot;
}

static void
snapshot_restore (WinnowCavemanResult  *self,
                  const Snapshot       *snapshot,
                  GString             **masked)
{
  g_string_free (*masked, TRUE);
  *masked = g_string_new_len (snapshot->masked->str, snapshot->masked->len);

  g_array_set_size (self->firings, snapshot->counts->len);
  for (guint i = 0; i < snapshot->counts->len; i++)
    g_array_index (self->firings, Firing, i).count = g_array_index (snapshot->counts, guint, i);
  self->n_replaced = snapshot->n_replaced;
}

static void
set_text (WinnowCavemanResult *self,
          const char          *text,
          gsize                length)
{
  g_free (self->text);
  self->text = g_strndup (text, length);
  self->length = length;
}

static const char *
choose_language (WinnowRuleSet              *rules,
                 const WinnowCavemanOptions *options,
                 const GString              *masked)
{
  g_auto(GStrv) languages = NULL;
  const char *detected;

  if (options->pack != NULL)
    return winnow_rule_pack_get_language (options->pack);

  if (options->language != NULL)
    return winnow_rule_set_resolve_language (rules, options->language);

  languages = winnow_rule_set_dup_languages (rules);
  detected = winnow_language_detect (masked->str, masked->len, (const char * const *) languages);
  if (detected == NULL)
    detected = "en";

  return winnow_rule_set_resolve_language (rules, detected);
}

/* Runs the packs over @masked until a pass changes nothing (MAX_PASSES at most, one for a
 * message over MAX_SETTLED_BYTES); @again when they already ran over the message once.
 * Returns whether the text changed. */
static gboolean
settle (WinnowCavemanResult        *self,
        GPtrArray                  *packs,
        const WinnowCavemanOptions *options,
        const char                 *language,
        guint                       max_passes,
        const char                 *final_break,
        gboolean                    again,
        GString                   **masked_inout)
{
  g_autoptr(Snapshot) first_pass = NULL;
  GString *masked = *masked_inout;
  g_autoptr(WinnowGramIndex) grams = _winnow_gram_index_new (masked->str, masked->len);
  gboolean changed = FALSE;
  gboolean settled = FALSE;

  for (guint pass = 0; pass < max_passes && !settled; pass++)
    {
      g_autoptr(GString) before = g_string_new_len (masked->str, masked->len);
      gboolean pass_changed = FALSE;

      for (guint i = 0; i < packs->len; i++)
        {
          WinnowRulePack *pack = g_ptr_array_index (packs, i);

          for (guint k = 0; k < winnow_rule_pack_get_n_rules (pack); k++)
            {
              WinnowRule *rule = winnow_rule_pack_get_rule (pack, k);

              if (options->rule != NULL &&
                  g_strcmp0 (winnow_rule_get_name (rule), options->rule) != 0)
                continue;
              if (!winnow_rule_applies (rule, options->intensity, options->role))
                continue;
              /* without the g flag a rule replaces one match in a message, not one a pass */
              if ((pass > 0 || again) && !winnow_regex_is_global (winnow_rule_get_regex (rule)))
                continue;

              pass_changed |= apply_rule (self, pack, rule, &masked, grams);
            }
        }

      if (pass_changed)
        {
          GString *cleaned = clean_up (masked, language, final_break);

          _winnow_gram_index_add_change (grams, masked->str, masked->len, cleaned->str,
                                         cleaned->len);
          g_string_free (masked, TRUE);
          masked = cleaned;
          changed = TRUE;
        }

      /* rules that undid each other within the pass leave it where it started, too */
      settled = !pass_changed || g_string_equal (masked, before);

      if (pass == 0 && !settled && max_passes > 1)
        first_pass = snapshot_take (self, masked);
    }

  if (!settled && max_passes > 1)
    {
      add_note (self, "the rules kept changing this message for %d passes; the first pass's "
                "result is used", MAX_PASSES);
      snapshot_restore (self, first_pass, &masked);
    }

  *masked_inout = masked;
  return changed;
}

/* The restored text of @masked, or %NULL if the placeholders do not line up (a bug). */
static GString *
restore (WinnowCavemanResult *self,
         GString             *masked,
         const char          *source,
         const GArray        *regions)
{
  GString *restored = g_string_sized_new (masked->len + masked->len / 4);

  if (!unmask (masked->str, masked->len, source, regions, restored))
    {
      /* cannot happen: matches that touch a placeholder are never replaced */
      g_critical ("caveman: protected tokens out of step; returning the message unchanged");
      add_note (self, "internal error: protected tokens out of step; message left unchanged");
      g_string_free (restored, TRUE);
      return NULL;
    }

  return restored;
}

/**
 * winnow_caveman_compress:
 * @rules: the rule packs
 * @text: a message's text
 * @length: length of @text in bytes, or -1 if nul-terminated
 * @options: (nullable): #WinnowCavemanOptions; %NULL for the defaults
 *
 * Compresses prose with the packs of its language. Deterministic: the same text and options
 * always give the same result; idempotent up to 512 KB: compressing the result again with
 * the same options leaves it unchanged. Every protected token of @text is in the result byte
 * for byte, in the same order. Text that is not UTF-8, or larger than 8 MB, is returned unchanged.
 *
 * Returns: (transfer full): the result
 */
WinnowCavemanResult *
winnow_caveman_compress (WinnowRuleSet              *rules,
                         const char                 *text,
                         gssize                      length,
                         const WinnowCavemanOptions *options)
{
  g_autoptr(WinnowCavemanResult) self = NULL;
  g_autoptr(GPtrArray) packs = NULL;
  g_autoptr(GArray) regions = NULL;
  g_autoptr(GString) restored = NULL;
  WinnowCavemanOptions defaults;
  GString *masked = NULL;
  gint64 started = g_get_monotonic_time ();
  const char *language;
  gboolean changed = FALSE;
  guint max_passes;
  gsize len;
  const char *final_break = NULL;
  g_autofree char *joined = NULL;
  g_autoptr(GArray) spans = NULL;
  const char *source;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (rules), NULL);
  g_return_val_if_fail (text != NULL || length <= 0, NULL);

  if (options == NULL)
    {
      winnow_caveman_options_init (&defaults);
      options = &defaults;
    }

  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;

  self = g_object_new (WINNOW_TYPE_CAVEMAN_RESULT, NULL);
  self->intensity = options->intensity;
  self->role = options->role;
  set_text (self, text, len);

  if (!_winnow_utf8_validate (text, len, NULL))
    {
      add_note (self, "not valid UTF-8; passed through unchanged");
      self->duration_us = g_get_monotonic_time () - started;
      return g_steal_pointer (&self);
    }

  if (len > MAX_PROSE_BYTES)
    {
      add_note (self, "%" G_GSIZE_FORMAT " bytes is more than prose rules run on (%d MB); "
                "passed through unchanged", len, MAX_PROSE_BYTES / (1024 * 1024));
      self->duration_us = g_get_monotonic_time () - started;
      return g_steal_pointer (&self);
    }

  max_passes = len > MAX_SETTLED_BYTES ? 1 : MAX_PASSES;
  /* the rules read hard-wrapped paragraphs joined; the message stays as written if none fires */
  joined = join_and_scan (text, len, &spans);
  source = joined != NULL ? joined : text;
  regions = protected_regions (source, len, spans);
  self->n_protected = regions->len;
  masked = mask (source, len, regions);
  if (len > 0 && text[len - 1] == '\n')
    final_break = len > 1 && text[len - 2] == '\r' ? "\r\n" : "\n";

  language = choose_language (rules, options, masked);
  self->language = g_strdup (language);

  if (options->pack != NULL)
    {
      packs = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (packs, g_object_ref (options->pack));
    }
  else
    packs = winnow_rule_set_get_packs (rules, language);

  if (packs->len == 0)
    add_note (self, "no rule packs for the language “%s”", language ? language : "unknown");

  changed = settle (self, packs, options, language, max_passes, final_break, FALSE, &masked);
  restored = restore (self, masked, source, regions);
  g_string_free (masked, TRUE);

  /* Lines the rules shortened can make a paragraph that was not wrapped look wrapped, and the
   * next compression would join it: join it now and run the rules over it once more, so a
   * compressed message compresses to itself. */
  if (changed && restored != NULL)
    {
      g_autoptr(GArray) again_spans = NULL;
      g_autofree char *again = join_and_scan (restored->str, restored->len, &again_spans);

      if (again != NULL)
        {
          gsize again_len = restored->len;

          g_array_unref (regions);
          regions = protected_regions (again, again_len, again_spans);
          masked = mask (again, again_len, regions);
          settle (self, packs, options, language, max_passes, final_break, TRUE, &masked);
          g_string_free (restored, TRUE);
          restored = restore (self, masked, again, regions);
          g_string_free (masked, TRUE);
        }
    }
  if (restored == NULL)
    {
      restored = g_string_new_len (text, len);
      changed = FALSE;
    }

  if (changed && is_blank (restored->str, restored->len) && !is_blank (text, len))
    {
      add_note (self, "the rules would leave nothing of this message; it is kept as written");
      changed = FALSE;
    }
  else if (changed && restored->len > len)
    {
      add_note (self, "the rules would make this message longer; it is kept as written");
      changed = FALSE;
    }

  if (changed && (restored->len != len || memcmp (restored->str, text, len) != 0))
    {
      set_text (self, restored->str, restored->len);
      self->changed = TRUE;
    }

  self->duration_us = g_get_monotonic_time () - started;
  return g_steal_pointer (&self);
}

/* ---- expand ------------------------------------------------------------------------------ */

static int
compare_longest_first (gconstpointer a,
                       gconstpointer b)
{
  const char *sa = *(const char **) a;
  const char *sb = *(const char **) b;
  gsize la = strlen (sa);
  gsize lb = strlen (sb);

  if (la != lb)
    return la < lb ? 1 : -1;
  return strcmp (sa, sb);
}

static gboolean
expand_func (WinnowRegex            *regex,
             const WinnowRegexMatch *match,
             GString                *out,
             gpointer                user_data)
{
  GHashTable *table = user_data;
  g_autofree char *key = g_strndup (match->subject + match->offsets[0],
                                    match->offsets[1] - match->offsets[0]);
  const char *value = g_hash_table_lookup (table, key);

  if (value == NULL)
    return FALSE;

  g_string_append (out, value);
  return TRUE;
}

/**
 * winnow_caveman_expand:
 * @rules: the rule packs (their abbreviation tables)
 * @text: compressed prose
 * @length: length of @text, or -1 if nul-terminated
 * @language: (nullable): its language; %NULL detects it
 * @out_length: (out) (optional): length of the result
 *
 * Writes the abbreviations of the language's table out in full ("DB" → "database"), outside
 * protected tokens. Dropped words do not come back: the compressed form has committed to
 * brevity; what expand() restores is what an abbreviation stands for.
 *
 * Returns: (transfer full): the expanded text (@text unchanged when it is not UTF-8 or the
 *   language has no table)
 */
char *
winnow_caveman_expand (WinnowRuleSet *rules,
                       const char    *text,
                       gssize         length,
                       const char    *language,
                       gsize         *out_length)
{
  g_autoptr(GArray) spans = NULL;
  g_autoptr(GArray) regions = NULL;
  g_autoptr(GString) masked = NULL;
  g_autoptr(GString) restored = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GString) pattern = NULL;
  g_autoptr(WinnowRegex) regex = NULL;
  g_autofree char *expanded = NULL;
  GHashTable *table;
  GHashTableIter iter;
  gpointer key;
  gsize len;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (rules), NULL);
  g_return_val_if_fail (text != NULL || length <= 0, NULL);

  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;

  if (out_length != NULL)
    *out_length = len;

  if (!_winnow_utf8_validate (text, len, NULL))
    return g_strndup (text, len);

  spans = winnow_protect_scan (text, len);
  regions = protected_regions (text, len, spans);
  masked = mask (text, len, regions);

  if (language == NULL)
    {
      g_auto(GStrv) languages = winnow_rule_set_dup_languages (rules);
      const char *detected = winnow_language_detect (masked->str, masked->len,
                                                     (const char * const *) languages);

      /* resolved to the set's own string before @languages goes */
      language = winnow_rule_set_resolve_language (rules, detected ? detected : "en");
    }

  table = winnow_rule_set_get_abbreviations (rules, language);
  if (table == NULL || g_hash_table_size (table) == 0)
    return g_strndup (text, len);

  keys = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_longest_first);

  /* whole tokens only: not inside a word, a path or another abbreviation */
  pattern = g_string_new ("(?<![A-Za-z0-9_/&.-])(?:");
  for (guint i = 0; i < keys->len; i++)
    {
      g_autofree char *escaped = g_regex_escape_string (g_ptr_array_index (keys, i), -1);

      if (i > 0)
        g_string_append_c (pattern, '|');
      g_string_append (pattern, escaped);
    }
  g_string_append (pattern, ")(?![A-Za-z0-9_/&-])");

  regex = winnow_regex_new (pattern->str, "g", WINNOW_REGEX_DEFAULT, NULL);
  if (regex == NULL)
    return g_strndup (text, len);

  expanded = winnow_regex_replace_func (regex, masked->str, masked->len, expand_func, table,
                                        NULL, NULL);

  restored = g_string_sized_new (len + 64);
  if (!unmask (expanded, strlen (expanded), text, regions, restored))
    return g_strndup (text, len);

  if (out_length != NULL)
    *out_length = restored->len;

  return g_string_free (g_steal_pointer (&restored), FALSE);
}

/* ---- result accessors -------------------------------------------------------------------- */

/**
 * winnow_caveman_result_get_text:
 * @self: a #WinnowCavemanResult
 * @length: (out) (optional): its length in bytes
 *
 * Returns: the compressed text (the input itself when nothing changed)
 */
const char *
winnow_caveman_result_get_text (WinnowCavemanResult *self,
                                gsize               *length)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), NULL);

  if (length != NULL)
    *length = self->length;
  return self->text;
}

gboolean
winnow_caveman_result_get_changed (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), FALSE);
  return self->changed;
}

/**
 * winnow_caveman_result_get_language:
 * @self: a #WinnowCavemanResult
 *
 * Returns: (nullable): the language whose packs ran
 */
const char *
winnow_caveman_result_get_language (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), NULL);
  return self->language;
}

WinnowCavemanIntensity
winnow_caveman_result_get_intensity (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), WINNOW_CAVEMAN_INTENSITY_FULL);
  return self->intensity;
}

WinnowMessageRole
winnow_caveman_result_get_role (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), WINNOW_MESSAGE_ROLE_USER);
  return self->role;
}

/**
 * winnow_caveman_result_get_n_protected:
 * @self: a #WinnowCavemanResult
 *
 * Returns: how many protected regions were held out of the rules
 */
guint
winnow_caveman_result_get_n_protected (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), 0);
  return self->n_protected;
}

guint
winnow_caveman_result_get_n_firings (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), 0);
  return self->firings->len;
}

/**
 * winnow_caveman_result_get_firing:
 * @self: a #WinnowCavemanResult
 * @index: which rule, in the order they ran
 *
 * Returns: (transfer none): a rule that replaced something and how often
 */
const WinnowCavemanFiring *
winnow_caveman_result_get_firing (WinnowCavemanResult *self,
                                  guint                index)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), NULL);
  g_return_val_if_fail (index < self->firings->len, NULL);

  return (const WinnowCavemanFiring *) &g_array_index (self->firings, Firing, index);
}

guint
winnow_caveman_result_get_n_replaced (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), 0);
  return self->n_replaced;
}

/**
 * winnow_caveman_result_get_notes:
 * @self: a #WinnowCavemanResult
 *
 * Returns: (transfer none) (array zero-terminated=1): what a reader of the result should know:
 *   rules skipped, text kept as written and why
 */
const char * const *
winnow_caveman_result_get_notes (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), NULL);
  return (const char * const *) self->notes->pdata;
}

gint64
winnow_caveman_result_get_duration_us (WinnowCavemanResult *self)
{
  g_return_val_if_fail (WINNOW_IS_CAVEMAN_RESULT (self), 0);
  return self->duration_us;
}
