/* winnow-adapter-csv.c — CSV and TSV tables: header, first and last rows, column facts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A table's rows are data, not prose, so this adapter brings its own summary instead of the
 * sentence scorer: the header and the first 3 and last 2 rows stay verbatim, an RTK-style
 * marker stands in for the rest (`… 995 rows omitted …`), and `# ` lines give facts about
 * every column over all rows — the numeric range (as written in the data), the number of
 * distinct values and of empty cells, and the values themselves with their counts when there
 * are at most 5 short ones (a status column). The options' keep_ratio does not apply.
 *
 * Detection: at least 3 records (header and 2 rows); the delimiter (comma, tab or semicolon)
 * that splits the header into the most fields, at least 2; every record with exactly the
 * header's number of fields. Quoting follows RFC 4180 (doubled quotes, line breaks inside
 * quotes); an unterminated quote is not CSV. Header cells are at most 64 bytes, which keeps
 * comma-bearing prose out, and do not start with a digit, which keeps out headerless tables
 * such as du's.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"

#define MIN_RECORDS       3
#define HEAD_ROWS         3
#define TAIL_ROWS         2
#define MAX_HEADER_CELL   64
#define MAX_DISTINCT      10000
#define MAX_LISTED        5
#define MAX_LISTED_BYTES  32
#define MAX_NUMBER_BYTES  63

static const char delimiters[] = { ',', '\t', ';' };

typedef struct
{
  const char *text;
  gsize       length;
} Span;

typedef struct
{
  const char *p;
  const char *end;
  char        delimiter;
} Reader;

/* Reads the next non-blank record: its span without the line break, and its fields (into
 * @fields when given). Returns FALSE at the end; sets *malformed on an unterminated quote or
 * text after a closing quote. */
static gboolean
read_record (Reader   *r,
             Span     *record,
             GArray   *fields,
             guint    *n_fields,
             gboolean *malformed)
{
  const char *p;

  /* skip blank lines */
  for (;;)
    {
      const char *q = r->p;

      while (q < r->end && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
      if (q >= r->end)
        {
          r->p = r->end;
          return FALSE;
        }
      if (*q != '\n')
        break;
      r->p = q + 1;
    }

  p = r->p;
  record->text = p;
  *n_fields = 0;
  if (fields != NULL)
    g_array_set_size (fields, 0);

  for (;;)
    {
      Span field = { p, 0 };

      if (p < r->end && *p == '"')
        {
          p++;
          for (;;)
            {
              const char *quote = memchr (p, '"', r->end - p);

              if (quote == NULL)
                {
                  *malformed = TRUE;
                  r->p = r->end;
                  return FALSE;
                }
              p = quote + 1;
              if (p < r->end && *p == '"')
                p++;
              else
                break;
            }
          /* after the closing quote: only spaces, then a delimiter or the line end */
          while (p < r->end && *p == ' ')
            p++;
          if (p < r->end && *p != r->delimiter && *p != '\n' &&
              !(*p == '\r' && (p + 1 >= r->end || p[1] == '\n')))
            {
              *malformed = TRUE;
              r->p = r->end;
              return FALSE;
            }
        }
      else
        {
          while (p < r->end && *p != r->delimiter && *p != '\n')
            p++;
        }

      field.length = p - field.text;
      if (field.length > 0 && field.text[field.length - 1] == '\r' &&
          (p >= r->end || *p == '\n'))
        field.length--;
      if (fields != NULL)
        g_array_append_val (fields, field);
      (*n_fields)++;

      if (p < r->end && *p == r->delimiter)
        {
          p++;
          continue;
        }
      break;
    }

  /* p is at \r\n, \n or the end */
  if (p < r->end && *p == '\r')
    p++;
  record->length = p - record->text;
  if (record->length > 0 && record->text[record->length - 1] == '\r')
    record->length--;
  if (p < r->end && *p == '\n')
    p++;
  r->p = p;
  return TRUE;
}

static void
unquote (const char **text,
         gsize       *length)
{
  _winnow_adapter_trim (text, length);
  if (*length >= 2 && (*text)[0] == '"' && (*text)[*length - 1] == '"')
    {
      (*text)++;
      *length -= 2;
    }
}

static char
choose_delimiter (const char *text,
                  gsize       length,
                  guint      *n_columns)
{
  char best = 0;
  guint best_n = 1;

  for (guint d = 0; d < G_N_ELEMENTS (delimiters); d++)
    {
      g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (Span));
      Reader r = { text, text + length, delimiters[d] };
      gboolean malformed = FALSE;
      guint n = 0;
      guint n_empty = 0;
      gboolean ok = TRUE;
      Span header;

      if (!read_record (&r, &header, fields, &n, &malformed) || n <= best_n)
        continue;
      for (guint i = 0; i < fields->len && ok; i++)
        {
          Span cell = g_array_index (fields, Span, i);

          unquote (&cell.text, &cell.length);
          /* a header names columns; "8.0K<TAB>./src" from du is a data row */
          if (cell.length > MAX_HEADER_CELL || memchr (cell.text, '\n', cell.length) != NULL ||
              (cell.length > 0 && g_ascii_isdigit (cell.text[0])))
            ok = FALSE;
          if (cell.length == 0)
            n_empty++;
        }
      if (ok && n_empty <= 1)
        {
          best = delimiters[d];
          best_n = n;
        }
    }

  *n_columns = best_n;
  return best;
}

static gboolean
csv_detect (const char *text,
            gsize       length)
{
  guint n_columns;
  char delimiter = choose_delimiter (text, length, &n_columns);
  Reader r = { text, text + length, delimiter };
  gboolean malformed = FALSE;
  guint n_records = 0;
  guint n;
  Span record;

  if (delimiter == 0)
    return FALSE;

  while (read_record (&r, &record, NULL, &n, &malformed))
    {
      if (n != n_columns)
        return FALSE;
      n_records++;
    }

  return !malformed && n_records >= MIN_RECORDS;
}

/* ---- column facts ------------------------------------------------------------------------ */

typedef struct
{
  Span  value;
  guint count;
  guint first;   /* row of its first appearance */
} Value;

typedef struct
{
  Span        name;
  guint       n_empty;
  gboolean    numeric;     /* every non-empty cell is a number */
  double      min;
  double      max;
  Span        min_text;
  Span        max_text;
  GHashTable *distinct;    /* Value (as key) */
  gboolean    capped;      /* more than MAX_DISTINCT values */
} Column;

typedef struct
{
  GArray *columns;   /* Column */
  guint   n_rows;
  guint   n_head;    /* preserved rows before the marker */
  guint   n_omitted;
} Table;

static guint
value_hash (gconstpointer key)
{
  const Value *v = key;
  guint32 h = 2166136261u;

  for (gsize i = 0; i < v->value.length; i++)
    h = (h ^ (guchar) v->value.text[i]) * 16777619u;
  return h;
}

static gboolean
value_equal (gconstpointer a,
             gconstpointer b)
{
  const Value *x = a;
  const Value *y = b;

  return x->value.length == y->value.length &&
         memcmp (x->value.text, y->value.text, x->value.length) == 0;
}

static void
table_free (gpointer data)
{
  Table *table = data;

  for (guint i = 0; i < table->columns->len; i++)
    g_hash_table_unref (g_array_index (table->columns, Column, i).distinct);
  g_array_unref (table->columns);
  g_free (table);
}

/* A plain decimal number, as CSV exports write them: no thousands separators, no units. */
static gboolean
parse_number (const char *text,
              gsize       length,
              double     *value)
{
  char buffer[MAX_NUMBER_BYTES + 1];
  gsize i = 0;
  gboolean digits = FALSE;
  char *end = NULL;

  if (length == 0 || length > MAX_NUMBER_BYTES)
    return FALSE;

  if (text[i] == '+' || text[i] == '-')
    i++;
  while (i < length && g_ascii_isdigit (text[i]))
    i++, digits = TRUE;
  if (i < length && text[i] == '.')
    {
      i++;
      while (i < length && g_ascii_isdigit (text[i]))
        i++, digits = TRUE;
    }
  if (!digits)
    return FALSE;
  if (i < length && (text[i] == 'e' || text[i] == 'E'))
    {
      gsize e = ++i;

      if (i < length && (text[i] == '+' || text[i] == '-'))
        i++, e++;
      while (i < length && g_ascii_isdigit (text[i]))
        i++;
      if (i == e)
        return FALSE;
    }
  if (i != length)
    return FALSE;

  memcpy (buffer, text, length);
  buffer[length] = '\0';
  *value = g_ascii_strtod (buffer, &end);
  return end == buffer + length;
}

static void
column_add (Column     *column,
            const char *text,
            gsize       length,
            guint       row)
{
  Value key;
  Value *value;
  double number;

  unquote (&text, &length);
  if (length == 0)
    {
      column->n_empty++;
      return;
    }

  if (column->numeric)
    {
      if (!parse_number (text, length, &number))
        column->numeric = FALSE;
      else if (column->min_text.text == NULL || number < column->min)
        {
          column->min = number;
          column->min_text = (Span) { text, length };
        }
      if (column->numeric && (column->max_text.text == NULL || number > column->max))
        {
          column->max = number;
          column->max_text = (Span) { text, length };
        }
    }

  key.value = (Span) { text, length };
  value = g_hash_table_lookup (column->distinct, &key);
  if (value != NULL)
    value->count++;
  else if (g_hash_table_size (column->distinct) < MAX_DISTINCT)
    {
      value = g_new (Value, 1);
      value->value = key.value;
      value->count = 1;
      value->first = row;
      g_hash_table_add (column->distinct, value);
    }
  else
    column->capped = TRUE;
}

static void
csv_extract (const char                 *text,
             gsize                       length,
             const WinnowAdapterOptions *options,
             WinnowAdapterParts         *parts)
{
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (Span));
  Table *table = g_new0 (Table, 1);
  guint n_columns;
  char delimiter = choose_delimiter (text, length, &n_columns);
  Reader r = { text, text + length, delimiter };
  gboolean malformed = FALSE;
  Span record;
  guint n;

  table->columns = g_array_new (FALSE, TRUE, sizeof (Column));
  parts->data = table;
  parts->data_free = table_free;

  while (read_record (&r, &record, fields, &n, &malformed))
    {
      if (records->len == 0)
        {
          for (guint i = 0; i < fields->len; i++)
            {
              Column column = { { NULL, 0 }, 0, TRUE, 0, 0, { NULL, 0 }, { NULL, 0 }, NULL, FALSE };

              column.name = g_array_index (fields, Span, i);
              unquote (&column.name.text, &column.name.length);
              column.distinct = g_hash_table_new_full (value_hash, value_equal, g_free, NULL);
              g_array_append_val (table->columns, column);
            }
        }
      else
        {
          for (guint i = 0; i < fields->len && i < table->columns->len; i++)
            {
              Span cell = g_array_index (fields, Span, i);

              column_add (&g_array_index (table->columns, Column, i), cell.text, cell.length,
                          records->len - 1);
            }
        }
      g_array_append_val (records, record);
    }

  if (records->len == 0)
    return;

  table->n_rows = records->len - 1;
  if (table->n_rows > HEAD_ROWS + TAIL_ROWS + 1)
    {
      table->n_head = HEAD_ROWS;
      table->n_omitted = table->n_rows - HEAD_ROWS - TAIL_ROWS;
      parts->rewritten = TRUE;
    }
  else
    table->n_head = table->n_rows;

  for (guint i = 0; i < records->len; i++)
    {
      Span *rec = &g_array_index (records, Span, i);

      if (i == 0 || i <= table->n_head || i > table->n_head + table->n_omitted)
        _winnow_adapter_preserve (parts, rec->text, rec->length);
    }
}

static int
compare_values (gconstpointer a,
                gconstpointer b)
{
  const Value *x = *(const Value *const *) a;
  const Value *y = *(const Value *const *) b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first ? 1 : 0;
}

static void
describe_column (GString      *out,
                 const Column *column,
                 guint         n_rows)
{
  guint n_distinct = g_hash_table_size (column->distinct);
  gboolean listed = FALSE;

  g_string_append (out, "# ");
  g_string_append_len (out, column->name.text, column->name.length);
  g_string_append (out, ": ");

  if (column->n_empty == n_rows)
    {
      g_string_append (out, "all empty");
      return;
    }

  if (column->numeric)
    {
      g_string_append_len (out, column->min_text.text, column->min_text.length);
      g_string_append (out, " … ");
      g_string_append_len (out, column->max_text.text, column->max_text.length);
      g_string_append (out, ", ");
    }

  if (column->capped)
    g_string_append_printf (out, "%u+ distinct", (guint) MAX_DISTINCT);
  else
    g_string_append_printf (out, "%u distinct", n_distinct);

  /* a few short values that repeat: list them with their counts */
  if (!column->capped && n_distinct <= MAX_LISTED && n_distinct < n_rows - column->n_empty)
    {
      g_autoptr(GPtrArray) values = g_ptr_array_sized_new (n_distinct);
      GHashTableIter iter;
      gpointer key;

      listed = TRUE;
      g_hash_table_iter_init (&iter, column->distinct);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          const Value *v = key;

          if (v->value.length > MAX_LISTED_BYTES || memchr (v->value.text, '\n', v->value.length))
            listed = FALSE;
          g_ptr_array_add (values, key);
        }
      if (listed)
        {
          g_ptr_array_sort (values, compare_values);
          for (guint i = 0; i < values->len; i++)
            {
              const Value *v = g_ptr_array_index (values, i);

              gboolean quote = memchr (v->value.text, ',', v->value.length) != NULL;

              g_string_append (out, i == 0 ? ": " : ", ");
              if (quote)
                g_string_append_c (out, '"');
              g_string_append_len (out, v->value.text, v->value.length);
              if (quote)
                g_string_append_c (out, '"');
              g_string_append_printf (out, " ×%u", v->count);
            }
        }
    }

  if (column->n_empty > 0)
    g_string_append_printf (out, ", %u empty", column->n_empty);
}

static char *
csv_summarize (const WinnowAdapterParts   *parts,
               const WinnowAdapterOptions *options)
{
  const Table *table = parts->data;
  GString *out;

  if (table == NULL || table->n_omitted == 0)
    return g_strdup ("");

  out = g_string_new (NULL);
  g_string_append_printf (out, "# %u rows, %u columns", table->n_rows, table->columns->len);
  for (guint i = 0; i < table->columns->len; i++)
    {
      g_string_append_c (out, '\n');
      describe_column (out, &g_array_index (table->columns, Column, i), table->n_rows);
    }
  return g_string_free (out, FALSE);
}

static void
csv_reconstruct (const WinnowAdapterParts *parts,
                 const char               *summary,
                 GString                  *out)
{
  const Table *table = parts->data;

  for (guint i = 0; i < _winnow_adapter_n_preserved (parts); i++)
    {
      gsize length;
      const char *piece = _winnow_adapter_get_preserved (parts, i, &length);

      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append_len (out, piece, length);
      if (table->n_omitted > 0 && i == table->n_head)
        g_string_append_printf (out, "\n… %u rows omitted …", table->n_omitted);
    }
  if (*summary != '\0')
    {
      g_string_append_c (out, '\n');
      g_string_append (out, summary);
    }
}

const WinnowAdapter _winnow_adapter_csv = {
  .name = "csv",
  .lossless = FALSE,
  .detect = csv_detect,
  .extract = csv_extract,
  .summarize = csv_summarize,
  .reconstruct = csv_reconstruct,
};
