/* winnow-line-map.c — which lines of an input survive in its compressed output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The preview shows an original and its compressed form side by side: lines that did not
 * survive are marked on the left, lines Winnow wrote (omission markers, rewritten prose) on
 * the right, and the two panes scroll together. When the RTK engine ran alone it knows where
 * every output line came from, and the map is exact. After Caveman or a stacked pipeline it
 * is not: lines are matched by content, in order, with a greedy forward scan. A full LCS
 * diff would be slower by orders of magnitude on the 100 000-line logs the preview must take,
 * and compression only ever deletes, shortens or inserts — it never reorders — so walking
 * forward to the next identical line finds the same alignment in the cases that occur. Short
 * lines ("", "}") repeat everywhere; they only match close to the cursor, so that one blank
 * line in the output cannot swallow a thousand input lines before it.
 */

#define G_LOG_DOMAIN "winnow-line-map"

#include "config.h"

#include <string.h>

#include "winnow-line-map.h"

/* how far ahead a short line may match */
#define SHORT_LINE_WINDOW 64
#define SHORT_LINE_LENGTH 3

struct _WinnowLineMap
{
  GObject  parent_instance;

  guint    n_input;
  guint    n_output;
  gboolean exact;
  int     *origins;     /* n_output: input line or -1 */
  guint   *output_for;  /* n_input: output line showing it, or where it would have been */
  GArray  *removed;     /* WinnowLineRange over input lines */
  GArray  *inserted;    /* WinnowLineRange over output lines */
  guint    n_removed;
  guint    n_inserted;
};

G_DEFINE_FINAL_TYPE (WinnowLineMap, winnow_line_map, G_TYPE_OBJECT)

typedef struct
{
  const char *text;
  gsize       length;
} Slice;

static guint
slice_hash (gconstpointer data)
{
  const Slice *s = data;
  guint h = 5381;

  for (gsize i = 0; i < s->length; i++)
    h = h * 33 + (guchar) s->text[i];
  return h;
}

static gboolean
slice_equal (gconstpointer a,
             gconstpointer b)
{
  const Slice *x = a;
  const Slice *y = b;

  return x->length == y->length && memcmp (x->text, y->text, x->length) == 0;
}

/* Lines are what '\n' separates, as in a GtkTextBuffer and in the RTK engine's trace: "a\n"
 * is two lines, the second empty, and "" is one. A '\r' before the newline belongs to the
 * line's content, so CRLF text still matches itself. */
static GArray *
split_lines (const char *text,
             gsize       length)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Slice));
  gsize start = 0;

  for (;;)
    {
      const char *nl = memchr (text + start, '\n', length - start);
      gsize end = nl ? (gsize) (nl - text) : length;
      Slice s = { text + start, end - start };

      g_array_append_val (lines, s);
      if (nl == NULL)
        break;
      start = end + 1;
    }

  return lines;
}

static gboolean
is_short (const Slice *s)
{
  gsize n = 0;

  for (gsize i = 0; i < s->length; i++)
    if (!g_ascii_isspace (s->text[i]))
      n++;
  return n < SHORT_LINE_LENGTH;
}

/* the first index in @positions at or after @from, or -1 */
static gssize
first_at_or_after (GArray *positions,
                   guint   from)
{
  guint lo = 0, hi = positions->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (positions, guint, mid) < from)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo < positions->len ? (gssize) g_array_index (positions, guint, lo) : -1;
}

static void
align_by_content (WinnowLineMap *self,
                  GArray        *in_lines,
                  GArray        *out_lines)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (slice_hash, slice_equal, NULL,
                                                       (GDestroyNotify) g_array_unref);
  guint cursor = 0;

  for (guint i = 0; i < in_lines->len; i++)
    {
      Slice *s = &g_array_index (in_lines, Slice, i);
      GArray *positions = g_hash_table_lookup (index, s);

      if (positions == NULL)
        {
          positions = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (index, s, positions);
        }
      g_array_append_val (positions, i);
    }

  for (guint k = 0; k < out_lines->len; k++)
    {
      Slice *s = &g_array_index (out_lines, Slice, k);
      GArray *positions = g_hash_table_lookup (index, s);
      gssize j = positions ? first_at_or_after (positions, cursor) : -1;

      if (j >= 0 && is_short (s) && (guint) j - cursor > SHORT_LINE_WINDOW)
        j = -1;

      if (j >= 0)
        {
          self->origins[k] = (int) j;
          cursor = (guint) j + 1;
        }
      else
        self->origins[k] = -1;
    }
}

static void
add_range (GArray *ranges,
           guint   line)
{
  if (ranges->len > 0)
    {
      WinnowLineRange *last = &g_array_index (ranges, WinnowLineRange, ranges->len - 1);

      if (last->start + last->n_lines == line)
        {
          last->n_lines++;
          return;
        }
    }

  g_array_append_val (ranges, ((WinnowLineRange) { line, 1 }));
}

static void
winnow_line_map_finalize (GObject *object)
{
  WinnowLineMap *self = WINNOW_LINE_MAP (object);

  g_clear_pointer (&self->origins, g_free);
  g_clear_pointer (&self->output_for, g_free);
  g_clear_pointer (&self->removed, g_array_unref);
  g_clear_pointer (&self->inserted, g_array_unref);

  G_OBJECT_CLASS (winnow_line_map_parent_class)->finalize (object);
}

static void
winnow_line_map_class_init (WinnowLineMapClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = winnow_line_map_finalize;
}

static void
winnow_line_map_init (WinnowLineMap *self)
{
  self->removed = g_array_new (FALSE, FALSE, sizeof (WinnowLineRange));
  self->inserted = g_array_new (FALSE, FALSE, sizeof (WinnowLineRange));
}

/**
 * winnow_line_map_new:
 * @input: the original text
 * @input_length: its length in bytes, or -1 if nul-terminated
 * @output: the compressed text
 * @output_length: its length in bytes, or -1 if nul-terminated
 * @origins: (nullable) (array length=n_origins): for each output line, the input line it came
 *   from or -1, as winnow_rtk_result_get_line_origins() gives it; %NULL to match by content
 * @n_origins: length of @origins; ignored (and the lines matched by content) unless it equals
 *   the number of output lines
 *
 * Aligns the lines of @output with those of @input.
 *
 * Returns: (transfer full): the map
 */
WinnowLineMap *
winnow_line_map_new (const char *input,
                     gssize      input_length,
                     const char *output,
                     gssize      output_length,
                     const int  *origins,
                     guint       n_origins)
{
  WinnowLineMap *self;
  g_autoptr(GArray) in_lines = NULL;
  g_autoptr(GArray) out_lines = NULL;
  g_autofree gboolean *kept = NULL;
  guint next;

  g_return_val_if_fail (input != NULL || input_length == 0, NULL);
  g_return_val_if_fail (output != NULL || output_length == 0, NULL);

  if (input_length < 0)
    input_length = strlen (input);
  if (output_length < 0)
    output_length = strlen (output);

  self = g_object_new (WINNOW_TYPE_LINE_MAP, NULL);
  in_lines = split_lines (input, input_length);
  out_lines = split_lines (output, output_length);
  self->n_input = in_lines->len;
  self->n_output = out_lines->len;
  self->origins = g_new (int, MAX (self->n_output, 1));
  self->output_for = g_new (guint, MAX (self->n_input, 1));

  if (origins != NULL && n_origins == self->n_output)
    {
      self->exact = TRUE;
      for (guint k = 0; k < self->n_output; k++)
        self->origins[k] = origins[k] >= 0 && (guint) origins[k] < self->n_input ? origins[k] : -1;
    }
  else
    align_by_content (self, in_lines, out_lines);

  kept = g_new0 (gboolean, MAX (self->n_input, 1));
  for (guint k = 0; k < self->n_output; k++)
    {
      if (self->origins[k] < 0)
        {
          add_range (self->inserted, k);
          self->n_inserted++;
        }
      else if (!kept[self->origins[k]])
        {
          kept[self->origins[k]] = TRUE;
          self->output_for[self->origins[k]] = k;
        }
    }

  /* a removed line sits where the next surviving line is shown */
  next = self->n_output > 0 ? self->n_output - 1 : 0;
  for (guint i = self->n_input; i > 0; i--)
    {
      if (kept[i - 1])
        next = self->output_for[i - 1];
      else
        self->output_for[i - 1] = next;
    }

  for (guint i = 0; i < self->n_input; i++)
    if (!kept[i])
      {
        add_range (self->removed, i);
        self->n_removed++;
      }

  return self;
}

/**
 * winnow_line_map_get_exact:
 * @self: a #WinnowLineMap
 *
 * Returns: %TRUE when the map comes from the engine's own line origins, %FALSE when lines
 *   were matched by content
 */
gboolean
winnow_line_map_get_exact (WinnowLineMap *self)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), FALSE);
  return self->exact;
}

guint
winnow_line_map_get_n_input_lines (WinnowLineMap *self)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), 0);
  return self->n_input;
}

guint
winnow_line_map_get_n_output_lines (WinnowLineMap *self)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), 0);
  return self->n_output;
}

/**
 * winnow_line_map_get_origin:
 * @self: a #WinnowLineMap
 * @output_line: a 0-based output line
 *
 * Returns: the input line @output_line shows, or -1 for a line the compression wrote
 */
int
winnow_line_map_get_origin (WinnowLineMap *self,
                            guint          output_line)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), -1);

  return output_line < self->n_output ? self->origins[output_line] : -1;
}

/**
 * winnow_line_map_get_output_line_for:
 * @self: a #WinnowLineMap
 * @input_line: a 0-based input line
 *
 * Returns: the output line that shows @input_line, or for a removed line the one shown where
 *   it would have been; 0 when there is no output
 */
guint
winnow_line_map_get_output_line_for (WinnowLineMap *self,
                                     guint          input_line)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), 0);

  if (self->n_input == 0)
    return 0;
  return self->output_for[MIN (input_line, self->n_input - 1)];
}

/**
 * winnow_line_map_get_removed:
 * @self: a #WinnowLineMap
 * @n_ranges: (out): the number of ranges
 *
 * Returns: (array length=n_ranges): the runs of input lines that no output line shows
 */
const WinnowLineRange *
winnow_line_map_get_removed (WinnowLineMap *self,
                             guint         *n_ranges)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), NULL);
  g_return_val_if_fail (n_ranges != NULL, NULL);

  *n_ranges = self->removed->len;
  return (const WinnowLineRange *) (gpointer) self->removed->data;
}

/**
 * winnow_line_map_get_inserted:
 * @self: a #WinnowLineMap
 * @n_ranges: (out): the number of ranges
 *
 * Returns: (array length=n_ranges): the runs of output lines the compression wrote
 *   (omission markers, banners, rewritten prose)
 */
const WinnowLineRange *
winnow_line_map_get_inserted (WinnowLineMap *self,
                              guint         *n_ranges)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), NULL);
  g_return_val_if_fail (n_ranges != NULL, NULL);

  *n_ranges = self->inserted->len;
  return (const WinnowLineRange *) (gpointer) self->inserted->data;
}

guint
winnow_line_map_count_removed (WinnowLineMap *self)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), 0);
  return self->n_removed;
}

guint
winnow_line_map_count_inserted (WinnowLineMap *self)
{
  g_return_val_if_fail (WINNOW_IS_LINE_MAP (self), 0);
  return self->n_inserted;
}
