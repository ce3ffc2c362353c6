/* winnow-server-diff.c — the word diff of a compression preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The preview answers with `diff: [{type, text}]`, `type` one of same, removed, added, over
 * words and the whitespace between them (the reference's shape), so a client can paint
 * what went and what came without diffing itself.
 *
 * A longest-common-subsequence table is exact but quadratic. After the common head and tail
 * are taken off, it is used while the two middles' word counts multiply to at most
 * MAX_CELLS; beyond that (a 5 MB log against its 120 kept lines) the diff is by lines,
 * aligned with WinnowLineMap's forward scan, which is linear and right for compression,
 * since compression deletes, shortens and inserts but never reorders. The answer says which
 * it did only through its granularity: both are true diffs of the two texts.
 */

#define G_LOG_DOMAIN "winnow-server"

#include "config.h"

#include <string.h>

#include "winnow-line-map.h"
#include "winnow-server-private.h"

#define MAX_CELLS (4u * 1024 * 1024)

typedef struct
{
  const char *start;
  guint       length;
} Word;

static GArray *
split_words (const char *text,
             gsize       length)
{
  GArray *words = g_array_new (FALSE, FALSE, sizeof (Word));
  gsize i = 0;

  while (i < length)
    {
      gboolean space = g_ascii_isspace (text[i]);
      gsize j = i + 1;
      Word word;

      while (j < length && (gboolean) g_ascii_isspace (text[j]) == space)
        j++;
      word.start = text + i;
      word.length = j - i;
      g_array_append_val (words, word);
      i = j;
    }

  return words;
}

static gboolean
word_equal (const Word *a,
            const Word *b)
{
  return a->length == b->length && memcmp (a->start, b->start, a->length) == 0;
}

typedef struct
{
  JsonArray  *array;
  const char *type;
  GString    *text;
} Segments;

static void
flush (Segments *s)
{
  if (s->type != NULL && s->text->len > 0)
    {
      JsonObject *segment = json_object_new ();
      g_autofree char *valid = g_utf8_make_valid (s->text->str, s->text->len);

      json_object_set_string_member (segment, "type", s->type);
      json_object_set_string_member (segment, "text", valid);
      json_array_add_object_element (s->array, segment);
    }
  g_string_truncate (s->text, 0);
  s->type = NULL;
}

static void
push (Segments   *s,
      const char *type,
      const char *text,
      gsize       length)
{
  if (length == 0)
    return;
  if (s->type != type)
    flush (s);
  s->type = type;
  g_string_append_len (s->text, text, length);
}

static void
diff_words (Segments   *s,
            const Word *a,
            guint       n,
            const Word *b,
            guint       m)
{
  /* lcs[i][j]: the common subsequence of a[i..] and b[j..] */
  guint32 *lcs = g_new0 (guint32, (gsize) (n + 1) * (m + 1));
  guint i = 0, j = 0;

#define LCS(i, j) lcs[(gsize) (i) * (m + 1) + (j)]
  for (guint ii = n; ii-- > 0;)
    for (guint jj = m; jj-- > 0;)
      LCS (ii, jj) = word_equal (&a[ii], &b[jj]) ? LCS (ii + 1, jj + 1) + 1
                                                  : MAX (LCS (ii + 1, jj), LCS (ii, jj + 1));

  while (i < n && j < m)
    {
      if (word_equal (&a[i], &b[j]))
        {
          push (s, "same", a[i].start, a[i].length);
          i++, j++;
        }
      else if (LCS (i + 1, j) >= LCS (i, j + 1))
        {
          push (s, "removed", a[i].start, a[i].length);
          i++;
        }
      else
        {
          push (s, "added", b[j].start, b[j].length);
          j++;
        }
    }
#undef LCS
  for (; i < n; i++)
    push (s, "removed", a[i].start, a[i].length);
  for (; j < m; j++)
    push (s, "added", b[j].start, b[j].length);

  g_free (lcs);
}

/* the offsets of the starts of lines, and one past the end */
static GArray *
line_starts (const char *text,
             gsize       length)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize zero = 0;

  g_array_append_val (starts, zero);
  for (gsize i = 0; i < length; i++)
    if (text[i] == '\n' && i + 1 < length)
      {
        gsize next = i + 1;

        g_array_append_val (starts, next);
      }
  g_array_append_val (starts, length);
  return starts;
}

static void
diff_lines (Segments   *s,
            const char *a,
            gsize       a_length,
            const char *b,
            gsize       b_length)
{
  g_autoptr(WinnowLineMap) map = winnow_line_map_new (a, a_length, b, b_length, NULL, 0);
  g_autoptr(GArray) a_starts = line_starts (a, a_length);
  g_autoptr(GArray) b_starts = line_starts (b, b_length);
  guint n_in = a_starts->len - 1;
  guint n_out = b_starts->len - 1;
  guint next_in = 0;

#define LINE(starts, k) g_array_index (starts, gsize, k)
  for (guint j = 0; j < n_out; j++)
    {
      int origin = winnow_line_map_get_origin (map, j);
      const char *line = b + LINE (b_starts, j);
      gsize length = LINE (b_starts, j + 1) - LINE (b_starts, j);

      if (origin < 0 || (guint) origin < next_in || (guint) origin >= n_in)
        {
          push (s, "added", line, length);
          continue;
        }

      if ((guint) origin > next_in)
        push (s, "removed", a + LINE (a_starts, next_in),
              LINE (a_starts, origin) - LINE (a_starts, next_in));
      /* the map matches lines without their ends: the last line of one text may lack the
       * newline the other has */
      if (LINE (a_starts, origin + 1) - LINE (a_starts, origin) == length &&
          memcmp (a + LINE (a_starts, origin), line, length) == 0)
        push (s, "same", line, length);
      else
        {
          push (s, "removed", a + LINE (a_starts, origin),
                LINE (a_starts, origin + 1) - LINE (a_starts, origin));
          push (s, "added", line, length);
        }
      next_in = origin + 1;
    }
  if (next_in < n_in)
    push (s, "removed", a + LINE (a_starts, next_in), a_length - LINE (a_starts, next_in));
#undef LINE
}

JsonNode *
_winnow_server_diff (const char *original,
                     gsize       original_length,
                     const char *compressed,
                     gsize       compressed_length)
{
  g_autoptr(GArray) a = split_words (original, original_length);
  g_autoptr(GArray) b = split_words (compressed, compressed_length);
  Segments s = { json_array_new (), NULL, g_string_new (NULL) };
  guint head = 0, tail = 0;
  guint n, m;
  JsonNode *node;

  while (head < a->len && head < b->len &&
         word_equal (&g_array_index (a, Word, head), &g_array_index (b, Word, head)))
    head++;
  while (tail < a->len - head && tail < b->len - head &&
         word_equal (&g_array_index (a, Word, a->len - 1 - tail),
                     &g_array_index (b, Word, b->len - 1 - tail)))
    tail++;

  n = a->len - head - tail;
  m = b->len - head - tail;

  for (guint i = 0; i < head; i++)
    push (&s, "same", g_array_index (a, Word, i).start, g_array_index (a, Word, i).length);

  if (n == 0 || m == 0 || (guint64) n * m <= MAX_CELLS)
    diff_words (&s, &g_array_index (a, Word, head), n, &g_array_index (b, Word, head), m);
  else
    {
      const Word *a0 = &g_array_index (a, Word, head);
      const Word *b0 = &g_array_index (b, Word, head);
      const Word *a1 = &g_array_index (a, Word, head + n - 1);
      const Word *b1 = &g_array_index (b, Word, head + m - 1);

      diff_lines (&s, a0->start, a1->start + a1->length - a0->start,
                  b0->start, b1->start + b1->length - b0->start);
    }

  for (guint i = a->len - tail; i < a->len; i++)
    push (&s, "same", g_array_index (a, Word, i).start, g_array_index (a, Word, i).length);

  flush (&s);
  g_string_free (s.text, TRUE);

  node = json_node_alloc ();
  json_node_init_array (node, s.array);
  json_array_unref (s.array);
  return node;
}
