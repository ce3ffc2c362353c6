/* winnow-utf8.c — UTF-8 helpers for the hot paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Command output is overwhelmingly ASCII. Validating it eight bytes at a time and falling back
 * to GLib's validator only around the first non-ASCII byte makes validation several times
 * faster than g_utf8_validate_len() alone, and every compression starts with it.
 */

#include "config.h"

#include <string.h>

#include "winnow-utf8.h"

#define HIGH_BITS G_GUINT64_CONSTANT (0x8080808080808080)
#define LOW_BITS  G_GUINT64_CONSTANT (0x0101010101010101)

/**
 * _winnow_utf8_validate:
 * @text: bytes
 * @length: how many
 * @invalid: (out) (optional): where the first invalid sequence starts
 *
 * Returns: %TRUE if @text is valid UTF-8 without NUL bytes, exactly as
 *   g_utf8_validate_len() decides
 */
gboolean
_winnow_utf8_validate (const char  *text,
                       gsize        length,
                       const char **invalid)
{
  const char *p = text;
  const char *end = text + length;

  for (;;)
    {
      const char *bad = NULL;
      const char *stop;

      /* skip ASCII a word at a time */
      while (end - p >= 8)
        {
          guint64 word;

          memcpy (&word, p, 8);
          /* a byte ≥ 0x80, or a zero byte (the classic has-zero-byte test) */
          if ((word & HIGH_BITS) || ((word - LOW_BITS) & ~word & HIGH_BITS))
            break;
          p += 8;
        }
      while (p < end && (guchar) *p < 0x80 && *p != '\0')
        p++;
      if (p >= end)
        return TRUE;
      if (*p == '\0')
        {
          if (invalid != NULL)
            *invalid = p;
          return FALSE;
        }

      /* Let GLib check the non-ASCII stretch. Every byte of a multi-byte sequence is ≥ 0x80,
       * so the ASCII byte that ends the stretch also ends any sequence: one cut short there is
       * invalid anyway. */
      stop = p;
      while (stop < end && (guchar) *stop >= 0x80)
        stop++;

      if (!g_utf8_validate_len (p, stop - p, &bad))
        {
          if (invalid != NULL)
            *invalid = bad;
          return FALSE;
        }

      p = stop;
    }
}
