/* winnow-cli-table.c — aligned text tables for the CLI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * printf's `%-12s` pads by bytes, so a translated heading with an accent ("Priorität") or a
 * heading longer than the English one shifts every column after it. A table collects its cells
 * first and sizes each column to its widest cell, counted in terminal columns (a CJK character
 * takes two), then prints.
 */

#include "config.h"

#include <string.h>

#include "winnow-cli-table.h"

struct _WinnowCliTable
{
  char      *alignment;   /* one 'l' or 'r' per column */
  guint      n_columns;
  GPtrArray *rows;        /* of Row, the headings first */
};

/* a row of cells, or a line of its own printed as it is between rows */
typedef struct
{
  GStrv  cells;
  char  *line;
} Row;

static void
row_free (Row *row)
{
  g_strfreev (row->cells);
  g_free (row->line);
  g_free (row);
}

static Row *
row_new (GStrv  cells,
         char  *line)
{
  Row *row = g_new0 (Row, 1);

  row->cells = cells;
  row->line = line;
  return row;
}

static GStrv
collect (guint    n_columns,
         va_list  args)
{
  GStrv row = g_new0 (char *, n_columns + 1);
  const char *cell;

  for (guint i = 0; i < n_columns && (cell = va_arg (args, const char *)) != NULL; i++)
    row[i] = g_strdup (cell);
  for (guint i = 0; i < n_columns; i++)
    if (row[i] == NULL)
      row[i] = g_strdup ("");

  return row;
}

/**
 * winnow_cli_table_new:
 * @alignment: one character per column, `l` (left) or `r` (right)
 * @...: the column headings, %NULL-terminated
 *
 * Returns: (transfer full): a table with its heading row
 */
WinnowCliTable *
winnow_cli_table_new (const char *alignment,
                      ...)
{
  WinnowCliTable *self;
  va_list args;

  g_return_val_if_fail (alignment != NULL && alignment[0] != '\0', NULL);

  self = g_new0 (WinnowCliTable, 1);
  self->alignment = g_strdup (alignment);
  self->n_columns = strlen (alignment);
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);

  va_start (args, alignment);
  g_ptr_array_add (self->rows, row_new (collect (self->n_columns, args), NULL));
  va_end (args);

  return self;
}

/**
 * winnow_cli_table_add_row:
 * @self: a table
 * @...: the row's cells, %NULL-terminated; missing cells are empty
 */
void
winnow_cli_table_add_row (WinnowCliTable *self,
                          ...)
{
  va_list args;

  g_return_if_fail (self != NULL);

  va_start (args, self);
  g_ptr_array_add (self->rows, row_new (collect (self->n_columns, args), NULL));
  va_end (args);
}

/**
 * winnow_cli_table_add_line:
 * @self: a table
 * @line: a line printed as it is after the rows so far (e.g. details of the row above); it
 *   does not widen the columns
 */
void
winnow_cli_table_add_line (WinnowCliTable *self,
                           const char     *line)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (line != NULL);

  g_ptr_array_add (self->rows, row_new (NULL, g_strdup (line)));
}

static guint
display_width (const char *text)
{
  guint width = 0;

  if (!g_utf8_validate (text, -1, NULL))
    return strlen (text);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      width += g_unichar_iswide (c) ? 2 : 1;
    }

  return width;
}

/**
 * winnow_cli_table_format:
 * @self: a table
 *
 * Columns are separated by two spaces; lines carry no trailing blanks.
 *
 * Returns: (transfer full): the table, one line per row, each ending in a newline
 */
char *
winnow_cli_table_format (WinnowCliTable *self)
{
  g_autofree guint *widths = NULL;
  GString *out;

  g_return_val_if_fail (self != NULL, NULL);

  widths = g_new0 (guint, self->n_columns);
  for (guint r = 0; r < self->rows->len; r++)
    {
      Row *row = g_ptr_array_index (self->rows, r);

      for (guint c = 0; row->cells != NULL && c < self->n_columns; c++)
        widths[c] = MAX (widths[c], display_width (row->cells[c]));
    }

  out = g_string_new (NULL);
  for (guint r = 0; r < self->rows->len; r++)
    {
      Row *full_row = g_ptr_array_index (self->rows, r);
      GStrv row = full_row->cells;

      if (row == NULL)
        {
          g_string_append (out, full_row->line);
          g_string_append_c (out, '\n');
          continue;
        }

      for (guint c = 0; c < self->n_columns; c++)
        {
          guint pad = widths[c] - display_width (row[c]);

          if (c > 0)
            g_string_append (out, "  ");
          if (self->alignment[c] == 'r')
            {
              for (guint k = 0; k < pad; k++)
                g_string_append_c (out, ' ');
              g_string_append (out, row[c]);
            }
          else
            {
              g_string_append (out, row[c]);
              for (guint k = 0; k < pad; k++)
                g_string_append_c (out, ' ');
            }
        }
      while (out->len > 0 && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

void
winnow_cli_table_free (WinnowCliTable *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->rows);
  g_free (self->alignment);
  g_free (self);
}
