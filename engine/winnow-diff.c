/* winnow-diff.c — a readable line diff for test failures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A unified-style diff of two texts by lines (LCS on the part between their common prefix and
 * suffix), with the differences people cannot see spelt out: a missing final newline,
 * trailing spaces, tabs and carriage returns.
 */

#define G_LOG_DOMAIN "winnow-diff"

#include "config.h"

#include <string.h>

#include "winnow-diff.h"

#define CONTEXT 2
/* Above this many cells the LCS table is not worth its memory; show a plain replacement. */
#define MAX_LCS_CELLS (4u * 1024 * 1024)

static void
append_visible (GString    *out,
                char        sign,
                const char *line)
{
  gsize len = strlen (line);
  gsize trail = len;

  while (trail > 0 && (line[trail - 1] == ' ' || line[trail - 1] == '\t'))
    trail--;

  g_string_append_c (out, sign);
  g_string_append_c (out, ' ');
  for (gsize i = 0; i < len; i++)
    {
      if (line[i] == '\r')
        g_string_append (out, "\\r");
      else if (line[i] == '\t' && i >= trail)
        g_string_append (out, "\\t");
      else if (line[i] == ' ' && i >= trail)
        g_string_append (out, "\xC2\xB7"); /* · marks a trailing space */
      else
        g_string_append_c (out, line[i]);
    }
  g_string_append_c (out, '\n');
}

char *
winnow_diff_lines (const char *expected,
                   const char *actual)
{
  g_auto(GStrv) a = g_strsplit (expected ? expected : "", "\n", -1);
  g_auto(GStrv) b = g_strsplit (actual ? actual : "", "\n", -1);
  guint na = g_strv_length (a);
  guint nb = g_strv_length (b);
  guint pre = 0;
  guint suf = 0;
  GString *out = g_string_new ("--- expected\n+++ actual\n");

  while (pre < na && pre < nb && strcmp (a[pre], b[pre]) == 0)
    pre++;
  while (suf < na - pre && suf < nb - pre && strcmp (a[na - 1 - suf], b[nb - 1 - suf]) == 0)
    suf++;

  {
    guint ma = na - pre - suf;
    guint mb = nb - pre - suf;
    guint from = pre > CONTEXT ? pre - CONTEXT : 0;

    g_string_append_printf (out, "@@ -%u,%u +%u,%u @@\n", from + 1, ma + (pre - from),
                            from + 1, mb + (pre - from));

    for (guint i = from; i < pre; i++)
      append_visible (out, ' ', a[i]);

    if ((guint64) (ma + 1) * (mb + 1) <= MAX_LCS_CELLS)
      {
        /* lcs[i][j] = LCS length of a[pre+i..] and b[pre+j..] */
        g_autofree guint *lcs = g_new0 (guint, (gsize) (ma + 1) * (mb + 1));
        guint i = 0, j = 0;

#define L(x, y) lcs[(gsize) (x) * (mb + 1) + (y)]
        for (guint x = ma; x-- > 0;)
          for (guint y = mb; y-- > 0;)
            L (x, y) = strcmp (a[pre + x], b[pre + y]) == 0
                       ? L (x + 1, y + 1) + 1
                       : MAX (L (x + 1, y), L (x, y + 1));

        while (i < ma || j < mb)
          {
            if (i < ma && j < mb && strcmp (a[pre + i], b[pre + j]) == 0)
              {
                append_visible (out, ' ', a[pre + i]);
                i++, j++;
              }
            else if (j < mb && (i == ma || L (i, j + 1) >= L (i + 1, j)))
              append_visible (out, '+', b[pre + j++]);
            else
              append_visible (out, '-', a[pre + i++]);
          }
#undef L
      }
    else
      {
        for (guint i = 0; i < ma; i++)
          append_visible (out, '-', a[pre + i]);
        for (guint j = 0; j < mb; j++)
          append_visible (out, '+', b[pre + j]);
      }

    for (guint i = 0; i < MIN (suf, CONTEXT); i++)
      append_visible (out, ' ', a[na - suf + i]);
  }

  {
    gboolean a_nl = g_str_has_suffix (expected ? expected : "", "\n");
    gboolean b_nl = g_str_has_suffix (actual ? actual : "", "\n");

    if (a_nl != b_nl)
      g_string_append_printf (out, "(the %s ends with a newline, the %s does not)\n",
                              a_nl ? "expected text" : "actual text",
                              a_nl ? "actual text" : "expected text");
  }

  return g_string_free (out, FALSE);
}
