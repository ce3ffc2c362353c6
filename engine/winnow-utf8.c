/* winnow-utf8.c — UTF-8 helpers for the hot paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Command output is overwhelmingly ASCII. Validating it eight bytes at a time and checking the
 * few multi-byte sequences inline makes validation several times faster than
 * g_utf8_validate_len() alone, and every compression starts with it.
 */

#include "config.h"

#include <string.h>

#include "winnow-utf8.h"

#define HIGH_BITS G_GUINT64_CONSTANT (0x8080808080808080)
#define LOW_BITS  G_GUINT64_CONSTANT (0x0101010101010101)

/* The length of the well-formed UTF-8 sequence at @p, or 0 if there is none: the byte ranges
 * of Unicode's table of well-formed sequences (no overlong forms, no surrogates, nothing past
 * U+10FFFF), which is what g_utf8_validate_len() accepts. Called on a byte ≥ 0x80; checking a
 * sequence inline costs less than a call into GLib for every run of non-ASCII text. */
static inline gsize
sequence_length (const guchar *p,
                 const guchar *end)
{
  gsize left = end - p;
  guchar c = p[0];
  guchar lo = 0x80, hi = 0xBF;

  if (c >= 0xC2 && c <= 0xDF)
    return left >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;

  if (c >= 0xE0 && c <= 0xEF)
    {
      if (c == 0xE0)
        lo = 0xA0;   /* overlong below */
      else if (c == 0xED)
        hi = 0x9F;   /* surrogates above */
      return left >= 3 && p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 ? 3 : 0;
    }

  if (c >= 0xF0 && c <= 0xF4)
    {
      if (c == 0xF0)
        lo = 0x90;   /* overlong below */
      else if (c == 0xF4)
        hi = 0x8F;   /* past U+10FFFF above */
      return left >= 4 && p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 &&
             (p[3] & 0xC0) == 0x80 ? 4 : 0;
    }

  return 0;
}

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

      /* the non-ASCII sequences, up to the next ASCII byte */
      while (p < end && (guchar) *p >= 0x80)
        {
          gsize n = sequence_length ((const guchar *) p, (const guchar *) end);

          if (n == 0)
            {
              if (invalid != NULL)
                *invalid = p;
              return FALSE;
            }
          p += n;
        }
    }
}
