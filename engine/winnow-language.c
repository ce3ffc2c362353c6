/* winnow-language.c — which language a piece of prose is written in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Caveman needs to know which rule packs to run on a message nobody labelled. Scripts decide
 * most cases (kana is Japanese, Han without kana Chinese); among Latin-script languages the
 * most frequent function words decide — a few dozen per language are enough to tell English,
 * German, French, Spanish, Portuguese and Indonesian apart on a sentence or two. Code and other
 * protected tokens should be masked out by the caller, or their English keywords vote.
 */

#define G_LOG_DOMAIN "winnow-language"

#include "config.h"

#include <string.h>

#include "winnow-language.h"

typedef struct
{
  const char         *language;
  const char * const *words;
} Stopwords;

static const char * const en_words[] = {
  "the", "and", "is", "are", "to", "of", "that", "this", "it", "you", "with", "for", "was",
  "be", "have", "not", "but", "what", "can", "will", "would", "should", "there", "which",
  "we", "they", "my", "your", "if", "so", "just", "from", "an", "at", "on", "in", NULL
};
static const char * const pt_words[] = {
  "que", "não", "para", "com", "uma", "um", "os", "as", "você", "é", "está", "isso", "isto",
  "mas", "por", "como", "mais", "também", "ao", "do", "da", "dos", "das", "no", "na", "em",
  "se", "eu", "ele", "pode", "então", "quando", "já", "seu", "sua", NULL
};
static const char * const es_words[] = {
  "que", "el", "la", "los", "las", "es", "para", "con", "una", "un", "por", "no", "está",
  "del", "al", "pero", "como", "más", "también", "en", "se", "lo", "le", "puedes", "usted",
  "esto", "este", "esta", "muy", "hay", "cuando", "ya", "su", "sus", "y", NULL
};
static const char * const de_words[] = {
  "der", "die", "das", "und", "ist", "nicht", "mit", "ich", "sie", "zu", "ein", "eine",
  "den", "dem", "des", "auf", "für", "auch", "es", "wir", "sich", "wenn", "kann", "noch",
  "aber", "wird", "dass", "oder", "bitte", "einen", "einem", "im", "ist", "sind", NULL
};
static const char * const fr_words[] = {
  "le", "la", "les", "et", "est", "pas", "que", "pour", "une", "un", "des", "vous", "avec",
  "dans", "du", "au", "aux", "ce", "cette", "qui", "sur", "je", "nous", "il", "elle", "ne",
  "mais", "ou", "plus", "être", "sont", "peut", "votre", "c'est", "j'ai", NULL
};
static const char * const id_words[] = {
  "yang", "dan", "di", "ini", "itu", "dengan", "untuk", "tidak", "ada", "saya", "akan",
  "dari", "ke", "kita", "kami", "anda", "bisa", "juga", "sudah", "belum", "karena", "jika",
  "atau", "pada", "dalam", "harus", "perlu", "agar", "seperti", "lebih", "sebagai", NULL
};

static const Stopwords stopwords[] = {
  { "en", en_words },
  { "pt-BR", pt_words },
  { "es", es_words },
  { "de", de_words },
  { "fr", fr_words },
  { "id", id_words },
};

static gboolean
is_candidate (const char         *language,
              const char * const *candidates)
{
  if (candidates == NULL)
    return TRUE;

  for (guint i = 0; candidates[i] != NULL; i++)
    if (g_ascii_strncasecmp (candidates[i], language, strcspn (language, "-")) == 0)
      return TRUE;

  return FALSE;
}

static const char *
pick_candidate (const char         *language,
                const char * const *candidates)
{
  if (candidates == NULL)
    return language;

  for (guint i = 0; candidates[i] != NULL; i++)
    if (g_ascii_strcasecmp (candidates[i], language) == 0)
      return candidates[i];

  for (guint i = 0; candidates[i] != NULL; i++)
    if (g_ascii_strncasecmp (candidates[i], language, strcspn (language, "-")) == 0)
      return candidates[i];

  return NULL;
}

/* What one pass over the first 64 KB of a text counts */
typedef struct
{
  guint scores[G_N_ELEMENTS (stopwords)]; /* each language's function words */
  guint function_words;                    /* words that are a function word of any language */
  guint words;
  guint kana;
  guint han;
  guint hangul;
  guint letters;
} Counts;

static void
count_text (const char *text,
            gsize       length,
            Counts     *counts)
{
  g_autoptr(GString) word = g_string_new (NULL);
  const char *end = text + MIN (length, 64 * 1024);

  memset (counts, 0, sizeof *counts);

  for (const char *p = text; p <= end; )
    {
      gunichar c = 0;
      const char *next = p + 1;

      if (p < end)
        {
          c = g_utf8_get_char_validated (p, end - p);
          if (c == (gunichar) -1 || c == (gunichar) -2)
            c = 0;
          else
            next = g_utf8_next_char (p);
        }

      if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff))
        counts->kana++;
      else if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf))
        counts->han++;
      else if (c >= 0xac00 && c <= 0xd7af)
        counts->hangul++;

      if (c != 0 && (g_unichar_isalpha (c) || c == '\''))
        {
          g_string_append_unichar (word, g_unichar_tolower (c));
          counts->letters++;
        }
      else if (word->len > 0)
        {
          gboolean function_word = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (stopwords); i++)
            if (g_strv_contains (stopwords[i].words, word->str))
              {
                counts->scores[i]++;
                function_word = TRUE;
              }
          counts->function_words += function_word;
          counts->words++;
          g_string_truncate (word, 0);
        }

      p = next;
    }
}

/**
 * winnow_language_detect:
 * @text: UTF-8 prose
 * @length: length of @text in bytes
 * @candidates: (nullable) (array zero-terminated=1): the languages to choose from, e.g. those
 *   that have rule packs; %NULL for all that Winnow can tell apart
 *
 * Looks at up to the first 64 KB.
 *
 * Returns: (nullable): the language (one of @candidates when given), or %NULL when the text
 *   gives no evidence for any of them
 */
const char *
winnow_language_detect (const char         *text,
                        gsize               length,
                        const char * const *candidates)
{
  Counts counts;
  guint best = 0;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  count_text (text, length, &counts);

  if (counts.kana > 0 && counts.kana * 20 >= counts.han && is_candidate ("ja", candidates))
    return pick_candidate ("ja", candidates);
  if (counts.han > 0 && counts.han * 8 >= counts.letters && is_candidate ("zh", candidates))
    return pick_candidate ("zh", candidates);
  if (counts.hangul > 0 && counts.hangul * 4 >= counts.letters && is_candidate ("ko", candidates))
    return pick_candidate ("ko", candidates);

  for (guint i = 1; i < G_N_ELEMENTS (stopwords); i++)
    if (is_candidate (stopwords[i].language, candidates) &&
        (counts.scores[i] > counts.scores[best] ||
         !is_candidate (stopwords[best].language, candidates)))
      best = i;

  if (counts.scores[best] == 0 || !is_candidate (stopwords[best].language, candidates))
    return NULL;

  return pick_candidate (stopwords[best].language, candidates);
}

/**
 * winnow_language_reads_as_prose:
 * @text: UTF-8 text, code and other protected tokens preferably masked out
 * @length: length of @text in bytes
 *
 * Whether @text is written in sentences of a human language rather than being a tool's
 * output: at least 50 CJK characters, or at least 20 words of which one in five or more is a
 * function word ("the", "is", "que", "der", "yang"…). Sentences of command output ("Use the
 * `--bin` option to specify a binary") pass too, so callers weigh it with other evidence.
 * Looks at up to the first 64 KB.
 *
 * Returns: %TRUE if @text reads as prose
 */
gboolean
winnow_language_reads_as_prose (const char *text,
                                gsize       length)
{
  Counts counts;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  count_text (text, length, &counts);
  if (counts.kana + counts.han + counts.hangul >= 50)
    return TRUE;
  return counts.words >= 20 && counts.function_words * 5 >= counts.words;
}
