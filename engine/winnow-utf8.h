/* winnow-utf8.h — UTF-8 helpers for the hot paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _winnow_utf8_validate (const char  *text,
                                gsize        length,
                                const char **invalid);

/* g_ascii_tolower() is an out-of-line call; these run on every byte of the hot paths. */
static inline guchar
_winnow_ascii_lower (guchar c)
{
  return (guchar) (c - 'A') < 26 ? c + ('a' - 'A') : c;
}

/* Compares @n bytes of @text case-insensitively with @lower, which is already lower case. */
static inline gboolean
_winnow_ascii_equal_lower (const char *text,
                           const char *lower,
                           gsize       n)
{
  for (gsize i = 0; i < n; i++)
    if (_winnow_ascii_lower ((guchar) text[i]) != (guchar) lower[i])
      return FALSE;
  return TRUE;
}

G_END_DECLS
