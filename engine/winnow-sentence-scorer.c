/* winnow-sentence-scorer.c — a deterministic extractive summariser for prose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The default summariser of the format adapters: no model and no randomness, so the same
 * bytes and ratio give the same summary on every machine. It splits prose into sentences
 * (winnow-sentence-split.c says how), scores each one, and keeps the best in their original
 * order until a byte budget is spent.
 *
 * Scores are integers, so no libm rounding difference between machines can reorder two
 * sentences:
 *  - topicality: content words (not stop words, ≥ 3 bytes) that recur across the whole text,
 *    weighted by log₂ of their count relative to the most frequent word and divided by the
 *    square root of the sentence's vocabulary, so long sentences do not win by length alone;
 *  - what an agent acts on: numbers, identifiers (snake_case, camelCase, paths, file.ext,
 *    `code`, --flags, calls(), key=value), negations, error words and obligation words;
 *  - position: the opening sentence of the text and of each block;
 *  - penalties for fragments, for very long sentences and for filler words.
 * Ties go to the earlier sentence. Selection is greedy by score: a sentence that does not fit
 * the remaining budget is skipped and shorter ones may still fit, but a sentence scoring zero
 * or less never fills leftover room when others score above zero. When not even the best one
 * fits, it is cut at a space (never inside a token) and marked with `…`.
 */

#define G_LOG_DOMAIN "winnow-sentence"

#include "config.h"

#include <string.h>

#include "winnow-sentence-private.h"
#include "winnow-utf8.h"

#define ELLIPSIS "…"

/* weights, in points */
#define W_TOPIC_SCALE    40
#define W_TOPIC_MAX      160
#define W_FIRST          50
#define W_BLOCK_FIRST    20
#define W_LAST           10
#define W_NUMBER         40
#define W_IDENTIFIER     40
#define W_NEGATION       50
#define W_ERROR          80
#define W_OBLIGATION     40
#define W_FILLER         (-30)
#define W_FILLER_MAX     (-90)
#define W_FRAGMENT       (-40)
#define FRAGMENT_WORDS   4
#define LONG_WORDS       40
#define W_LONG_PER_WORD  (-3)
#define W_LONG_MAX       (-120)

/* ---- word lists (sorted byte-wise: looked up by binary search) ----------------------------- */

static const char *const stop_words[] = {
  "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
  "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
  "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "either",
  "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him",
  "his", "how", "however", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "let",
  "like", "may", "me", "might", "more", "most", "much", "my", "of", "off", "on", "once", "only",
  "or", "other", "our", "ours", "out", "over", "own", "same", "she", "should", "so", "some",
  "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they",
  "this", "those", "through", "to", "too", "under", "until", "up", "us", "use", "used", "uses",
  "using", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom",
  "why", "will", "with", "would", "you", "your", "yours",
};

static const char *const negation_words[] = {
  "cannot", "neither", "never", "no", "nobody", "none", "nor", "not", "nothing", "nowhere",
  "unable", "without",
};

static const char *const obligation_words[] = {
  "always", "avoid", "breaking", "caution", "ensure", "important", "must", "note", "require",
  "required", "requires", "security",
};

static const char *const filler_words[] = {
  "actually", "amazing", "anyway", "awesome", "basically", "certainly", "clearly", "definitely",
  "essentially", "generally", "glad", "great", "happy", "honestly", "hope", "hopefully",
  "literally", "obviously", "overall", "perhaps", "quite", "really", "simply", "thank", "thanks",
  "totally", "truly", "wonderful",
};

/* matched as prefixes: "fail" covers failed, failing, failure */
static const char *const error_stems[] = {
  "abort", "assert", "broke", "bug", "conflict", "corrupt", "crash", "critical", "denied",
  "deprecat", "error", "exception", "fail", "fatal", "fault", "invalid", "leak", "missing",
  "overflow", "panic", "refus", "reject", "segfault", "timeout", "traceback", "undefined",
  "unexpected", "unsupported", "vulnerab", "warn", "wrong",
};

/* ---- characters ---------------------------------------------------------------------------- */

static inline gboolean
is_space (guchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline gboolean
is_lower (guchar c)
{
  return c >= 'a' && c <= 'z';
}

/* U+2000–U+206F, general punctuation (dashes, curly quotes, …): E2 80 xx and E2 81 xx. */
static inline gboolean
is_general_punctuation (const char *s,
                        gsize       i,
                        gsize       end)
{
  return i + 3 <= end && (guchar) s[i] == 0xE2 &&
         ((guchar) s[i + 1] == 0x80 || (guchar) s[i + 1] == 0x81);
}

static inline gboolean
is_apostrophe (const char *s,
               gsize       i,
               gsize       end,
               gsize      *n)
{
  if (s[i] == '\'')
    {
      *n = 1;
      return TRUE;
    }
  if (i + 3 <= end && (guchar) s[i] == 0xE2 && (guchar) s[i + 1] == 0x80 &&
      (guchar) s[i + 2] == 0x99)
    {
      *n = 3;
      return TRUE;
    }
  return FALSE;
}

/* Bytes of the character at @i, and whether it belongs to a word. Non-ASCII letters count as
 * word bytes one by one (invalid UTF-8 then costs nothing special); general punctuation does
 * not, so “quoted” words count as the words themselves. */
static inline gsize
char_at (const char *s,
         gsize       i,
         gsize       end,
         gboolean   *word)
{
  guchar c = s[i];

  if (c < 0x80)
    {
      *word = g_ascii_isalnum (c) || c == '_';
      return 1;
    }
  if (is_general_punctuation (s, i, end))
    {
      *word = FALSE;
      return 3;
    }
  *word = TRUE;
  return 1;
}

/* Finds the next word in s[*pos, end): a run of word characters, with apostrophes inside. */
static gboolean
next_word (const char *s,
           gsize       end,
           gsize      *pos,
           gsize      *word_start,
           gsize      *word_length)
{
  gsize i = *pos;
  gboolean word = FALSE;

  while (i < end)
    {
      gsize n = char_at (s, i, end, &word);

      if (word)
        break;
      i += n;
    }
  if (i >= end)
    {
      *pos = end;
      return FALSE;
    }

  *word_start = i;
  while (i < end)
    {
      gsize n = char_at (s, i, end, &word);
      gsize apostrophe;

      if (word)
        i += n;
      else if (is_apostrophe (s, i, end, &apostrophe) && i + apostrophe < end &&
               (char_at (s, i + apostrophe, end, &word), word))
        i += apostrophe;
      else
        break;
    }
  *word_length = i - *word_start;
  *pos = i;
  return TRUE;
}

/* ---- words --------------------------------------------------------------------------------- */

enum
{
  WORD_CONTENT    = 1 << 0,
  WORD_NEGATION   = 1 << 1,
  WORD_ERROR      = 1 << 2,
  WORD_OBLIGATION = 1 << 3,
  WORD_FILLER     = 1 << 4,
  WORD_DIGIT      = 1 << 5,
};

/* One distinct lower-cased word of the text; the key points into the lower-cased copy. */
typedef struct
{
  const char *text;
  gsize       length;
  guint       count;
  guint       last_sentence;   /* 1 + index of the last sentence that counted it */
  guint       flags;
} Word;

static guint
word_hash (gconstpointer key)
{
  const Word *w = key;
  guint32 h = 2166136261u;   /* FNV-1a */

  for (gsize i = 0; i < w->length; i++)
    h = (h ^ (guchar) w->text[i]) * 16777619u;
  return h;
}

static gboolean
word_equal (gconstpointer a,
            gconstpointer b)
{
  const Word *x = a;
  const Word *y = b;

  return x->length == y->length && memcmp (x->text, y->text, x->length) == 0;
}

static guint
classify_word (const char *w,
               gsize       n)
{
  guint flags = 0;

  for (gsize i = 0; i < n; i++)
    if (g_ascii_isdigit (w[i]))
      {
        flags |= WORD_DIGIT;
        break;
      }

  if (n >= 3 && !IN_LIST (stop_words, w, n))
    flags |= WORD_CONTENT;
  if (IN_LIST (negation_words, w, n) ||
      (n > 3 && memcmp (w + n - 3, "n't", 3) == 0) ||
      (n > 5 && memcmp (w + n - 5, "n\xE2\x80\x99t", 5) == 0))
    flags |= WORD_NEGATION;
  if (IN_LIST (obligation_words, w, n))
    flags |= WORD_OBLIGATION;
  if (IN_LIST (filler_words, w, n))
    flags |= WORD_FILLER;
  for (gsize i = 0; i < G_N_ELEMENTS (error_stems); i++)
    {
      gsize stem = strlen (error_stems[i]);

      if (n >= stem && memcmp (w, error_stems[i], stem) == 0)
        {
          flags |= WORD_ERROR;
          break;
        }
    }

  return flags;
}

/* Does this whitespace-delimited token look like code rather than a word? */
static gboolean
looks_like_identifier (const char *t,
                       gsize       n)
{
  gboolean dotted = FALSE;
  gboolean single_letters = TRUE;

  while (n > 0 && strchr ("([{\"'<", t[0]) != NULL)
    t++, n--;
  while (n > 0 && strchr (".,;:!?)]}\"'>", t[n - 1]) != NULL)
    n--;
  if (n < 2)
    return FALSE;

  if (t[0] == '-' && (t[1] == '-' || g_ascii_isalpha (t[1])))
    return TRUE;

  for (gsize i = 0; i < n; i++)
    {
      guchar c = t[i];
      gboolean inside = i > 0 && i + 1 < n;

      switch (c)
        {
        case '`': case '$': case '=': case '@': case '/': case '\\':
          return TRUE;
        case '_':
          if (inside && g_ascii_isalnum (t[i - 1]) && g_ascii_isalnum (t[i + 1]))
            return TRUE;
          break;
        case ':':
          if (i + 1 < n && t[i + 1] == ':')
            return TRUE;
          break;
        case '(':
          if (i + 1 < n && t[i + 1] == ')')
            return TRUE;
          break;
        case '.':
          if (inside && g_ascii_isalnum (t[i - 1]) && g_ascii_isalnum (t[i + 1]))
            dotted = TRUE;
          break;
        default:
          if (is_lower (c) && i + 1 < n && g_ascii_isupper (t[i + 1]))
            return TRUE;
          break;
        }
      /* e.g, U.S: letters alternating with dots are an abbreviation, not a file name */
      if (single_letters && (i % 2 == 0 ? !g_ascii_isalpha (c) : c != '.'))
        single_letters = FALSE;
    }

  return dotted && !single_letters;
}

/* ---- scoring and selection ----------------------------------------------------------------- */

typedef struct
{
  gsize  start;
  gsize  length;
  gsize  normal_length;   /* after each whitespace run holding a line break becomes a space */
  guint  block;
  guint  index;
  gint64 score;
} Sentence;

static guint
isqrt (guint v)
{
  guint r = 0;

  while ((r + 1) * (r + 1) <= v)
    r++;
  return r;
}

static gsize
normal_length (const char *s,
               gsize       n)
{
  gsize out = 0;
  gsize i = 0;

  while (i < n)
    {
      if (is_space (s[i]))
        {
          gsize j = i;
          gboolean newline = FALSE;

          for (; j < n && is_space (s[j]); j++)
            if (s[j] == '\n' || s[j] == '\r')
              newline = TRUE;
          out += newline ? 1 : j - i;
          i = j;
        }
      else
        {
          out++;
          i++;
        }
    }
  return out;
}

static void
append_normal (GString    *out,
               const char *s,
               gsize       n)
{
  gsize i = 0;

  while (i < n)
    {
      gsize j = i;

      while (j < n && !is_space (s[j]))
        j++;
      g_string_append_len (out, s + i, j - i);
      if (j >= n)
        break;

      i = j;
      {
        gboolean newline = FALSE;

        for (; j < n && is_space (s[j]); j++)
          if (s[j] == '\n' || s[j] == '\r')
            newline = TRUE;
        if (newline)
          g_string_append_c (out, ' ');
        else
          g_string_append_len (out, s + i, j - i);
      }
      i = j;
    }
}

static gint64
score_sentence (const char *text,
                const char *lower,
                Sentence   *sentence,
                guint       n_sentences,
                GHashTable *words,
                guint       max_bits)
{
  gsize end = sentence->start + sentence->length;
  gsize pos = sentence->start;
  gsize ws, wl;
  guint n_words = 0;
  guint n_distinct = 0;
  guint topic = 0;
  guint n_filler = 0;
  guint flags = 0;
  gint64 score = 0;
  gsize i;

  while (next_word (lower, end, &pos, &ws, &wl))
    {
      Word key = { lower + ws, wl, 0, 0, 0 };
      Word *w = g_hash_table_lookup (words, &key);

      g_assert (w != NULL);
      n_words++;
      flags |= w->flags;
      if (w->flags & WORD_FILLER)
        n_filler++;
      if ((w->flags & WORD_CONTENT) && w->last_sentence != sentence->index + 1)
        {
          w->last_sentence = sentence->index + 1;
          n_distinct++;
          if (w->count >= 2)
            topic += (g_bit_storage (w->count) - 1) * 8 / MAX (1, max_bits - 1);
        }
    }

  if (n_distinct > 0)
    score += MIN (W_TOPIC_MAX, (gint64) W_TOPIC_SCALE * topic / (8 * isqrt (n_distinct + 1)));

  if (flags & WORD_DIGIT)
    score += W_NUMBER;
  if (flags & WORD_NEGATION)
    score += W_NEGATION;
  if (flags & WORD_ERROR)
    score += W_ERROR;
  if (flags & WORD_OBLIGATION)
    score += W_OBLIGATION;
  score += MAX (W_FILLER_MAX, (gint64) W_FILLER * n_filler);

  /* identifiers, on the raw tokens: case matters for camelCase */
  i = sentence->start;
  while (i < end)
    {
      gsize j;

      while (i < end && is_space (text[i]))
        i++;
      j = i;
      while (j < end && !is_space (text[j]))
        j++;
      if (j > i && looks_like_identifier (text + i, j - i))
        {
          score += W_IDENTIFIER;
          break;
        }
      i = j;
    }

  if (sentence->index == 0)
    score += W_FIRST;
  else if (sentence[-1].block != sentence->block)
    score += W_BLOCK_FIRST;
  if (sentence->index + 1 == n_sentences && n_sentences > 1)
    score += W_LAST;

  if (n_words < FRAGMENT_WORDS)
    score += W_FRAGMENT;
  else if (n_words > LONG_WORDS)
    score += MAX (W_LONG_MAX, (gint64) W_LONG_PER_WORD * (n_words - LONG_WORDS));

  return score;
}

static int
compare_by_score (gconstpointer a,
                  gconstpointer b)
{
  const Sentence *x = *(const Sentence *const *) a;
  const Sentence *y = *(const Sentence *const *) b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/**
 * winnow_sentence_summarize:
 * @text: prose (need not be valid UTF-8, nor end with a NUL byte)
 * @length: its length in bytes
 * @keep_ratio: the share of the text's bytes the summary may use, from 0 to 1
 * @user_data: unused; there so the function is a #WinnowSummarizer
 *
 * Keeps the highest-scoring sentences of @text, in their original order, within a budget of
 * @keep_ratio × the bytes of its sentences (with line breaks inside a sentence counted as one
 * space). Sentences of one block are joined by a space, blocks by a line break. When not even
 * the best sentence fits, it is cut at a space inside the budget and ends with `…`.
 * Deterministic: the same arguments always give the same summary.
 *
 * Returns: (transfer full): the summary, possibly empty, never longer than the budget
 */
char *
winnow_sentence_summarize (const char *text,
                           gsize       length,
                           double      keep_ratio,
                           gpointer    user_data)
{
  g_autoptr(GArray) spans = NULL;
  g_autoptr(GHashTable) words = NULL;
  g_autoptr(GPtrArray) order = NULL;
  g_autofree Sentence *sentences = NULL;
  g_autofree char *lower = NULL;
  g_autofree gboolean *kept = NULL;
  GString *out;
  guint max_count = 1;
  gsize total = 0;
  gsize budget;
  gsize used = 0;
  gint64 min_score;
  guint n;
  gint last_block = -1;
  gboolean any = FALSE;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (!(keep_ratio > 0.0))
    keep_ratio = 0.0;
  else if (keep_ratio > 1.0)
    keep_ratio = 1.0;

  spans = _winnow_sentence_split_spans (text, length);
  n = spans->len;
  if (n == 0)
    return g_strdup ("");

  lower = g_malloc (length);
  for (gsize i = 0; i < length; i++)
    lower[i] = (char) _winnow_ascii_lower ((guchar) text[i]);

  sentences = g_new0 (Sentence, n);
  words = g_hash_table_new_full (word_hash, word_equal, g_free, NULL);
  for (guint s = 0; s < n; s++)
    {
      const WinnowSentenceSpan *span = &g_array_index (spans, WinnowSentenceSpan, s);
      Sentence *sentence = &sentences[s];
      gsize pos = span->start;
      gsize end = span->start + span->length;
      gsize ws, wl;

      sentence->start = span->start;
      sentence->length = span->length;
      sentence->block = span->block;
      sentence->index = s;
      sentence->normal_length = normal_length (text + span->start, span->length);
      total += sentence->normal_length + (s > 0 ? 1 : 0);

      while (next_word (lower, end, &pos, &ws, &wl))
        {
          Word key = { lower + ws, wl, 0, 0, 0 };
          Word *w = g_hash_table_lookup (words, &key);

          if (w == NULL)
            {
              w = g_new (Word, 1);
              *w = key;
              w->flags = classify_word (w->text, w->length);
              g_hash_table_add (words, w);
            }
          w->count++;
          if ((w->flags & WORD_CONTENT) && w->count > max_count)
            max_count = w->count;
        }
    }

  order = g_ptr_array_sized_new (n);
  for (guint s = 0; s < n; s++)
    {
      sentences[s].score = score_sentence (text, lower, &sentences[s], n, words,
                                           g_bit_storage (max_count));
      g_ptr_array_add (order, &sentences[s]);
    }
  g_ptr_array_sort (order, compare_by_score);

  budget = keep_ratio >= 1.0 ? total : (gsize) (keep_ratio * (double) total);
  kept = g_new0 (gboolean, n);
  /* leftover budget is not filled with filler: when anything scores above zero, only
   * sentences that do are kept (unless the whole text is wanted) */
  min_score = keep_ratio < 1.0 && ((const Sentence *) g_ptr_array_index (order, 0))->score > 0
          ? 1 : G_MININT64;
  for (guint k = 0; k < n; k++)
    {
      const Sentence *sentence = g_ptr_array_index (order, k);
      gsize cost = sentence->normal_length + (any ? 1 : 0);

      if (sentence->score < min_score)
        break;
      if (used + cost <= budget)
        {
          kept[sentence->index] = TRUE;
          used += cost;
          any = TRUE;
        }
    }

  out = g_string_sized_new (used + 8);

  if (!any)
    {
      /* not even the best sentence fits: cut it at a space inside the budget */
      const Sentence *best = g_ptr_array_index (order, 0);
      g_autoptr(GString) normal = g_string_sized_new (best->normal_length);
      gsize cut = 0;

      append_normal (normal, text + best->start, best->length);
      if (budget > strlen (ELLIPSIS))
        for (gsize i = 1; i < normal->len && i + strlen (ELLIPSIS) <= budget; i++)
          if (is_space (normal->str[i]) && !is_space (normal->str[i - 1]))
            cut = i;
      if (cut > 0)
        {
          g_string_append_len (out, normal->str, cut);
          g_string_append (out, ELLIPSIS);
        }
      return g_string_free (out, FALSE);
    }

  for (guint s = 0; s < n; s++)
    {
      if (!kept[s])
        continue;
      if (last_block >= 0)
        g_string_append_c (out, (guint) last_block == sentences[s].block ? ' ' : '\n');
      append_normal (out, text + sentences[s].start, sentences[s].length);
      last_block = (gint) sentences[s].block;
    }

  return g_string_free (out, FALSE);
}
