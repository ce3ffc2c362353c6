/* test-utf8.c — the hot-path UTF-8 validator decides exactly as GLib does
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * _winnow_utf8_validate() checks multi-byte sequences itself (engine/winnow-utf8.c); every
 * compression starts with it, and a different answer would send valid output through
 * unfiltered or invalid output into PCRE2. So: every one- and two-byte input, every lead byte
 * with every second byte and the boundary values of the rest, random mixes, each in the middle
 * of ASCII text (the word-at-a-time path) — the verdict and where the invalid part starts.
 */

#include "config.h"

#include <string.h>

#include "winnow-utf8.h"

static void
check (const char *text,
       gsize       length)
{
  const char *glib_end = NULL;
  const char *ours_end = NULL;
  gboolean glib_ok = g_utf8_validate_len (text, length, &glib_end);
  gboolean ours_ok = _winnow_utf8_validate (text, length, &ours_end);

  if (glib_ok != ours_ok || (!glib_ok && glib_end != ours_end))
    {
      g_autofree char *hex = g_malloc (length * 3 + 1);

      for (gsize i = 0; i < length; i++)
        g_snprintf (hex + i * 3, 4, "%02x ", (guchar) text[i]);
      g_error ("%s: GLib says %d at %td, we say %d at %td", hex, glib_ok,
               glib_ok ? 0 : glib_end - text, ours_ok, ours_ok ? 0 : ours_end - text);
    }
}

/* @bytes alone, then after and before ASCII long enough for the word-at-a-time loop */
static void
check_placed (const guchar *bytes,
              gsize         n)
{
  char buf[64];

  check ((const char *) bytes, n);
  memset (buf, 'a', sizeof buf);
  memcpy (buf + 11, bytes, n);
  check (buf, 11 + n);
  check (buf, 11 + n + 9);
}

static void
test_sequences (void)
{
  static const guchar edges[] = { 0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0,
                                  0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff };

  for (guint a = 0; a < 256; a++)
    {
      guchar one[1] = { a };

      check_placed (one, 1);
      for (guint b = 0; b < 256; b++)
        {
          guchar two[2] = { a, b };

          check_placed (two, 2);
          for (guint c = 0; c < G_N_ELEMENTS (edges); c++)
            {
              guchar three[3] = { a, b, edges[c] };

              check_placed (three, 3);
              for (guint d = 0; d < G_N_ELEMENTS (edges); d++)
                {
                  guchar four[5] = { a, b, edges[c], edges[d], 'x' };

                  check_placed (four, 4);
                  check_placed (four, 5);
                }
            }
        }
    }
}

static void
test_random_mixes (void)
{
  static const char * const pieces[] = {
    "a", "plain ascii text ", "\xC3\xA9", "\xE2\x9C\x96", "\xF0\x9F\x98\x80", "\xED\x9F\xBF",
    "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\x80", "\xC3", "\xE2\x9C", "\xF0\x9F\x98", "\xED\xA0\x80",
    "\xC0\xAF", "\xF4\x90\x80\x80", "\n", "\t",
  };
  GRand *rand = g_rand_new_with_seed (7);

  for (guint n = 0; n < 20000; n++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint count = g_rand_int_range (rand, 1, 12);

      for (guint k = 0; k < count; k++)
        {
          /* mostly valid pieces, so that the invalid one comes after some */
          guint i = g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces));

          if (i >= 8 && i < 15 && g_rand_int_range (rand, 0, 4) != 0)
            i = g_rand_int_range (rand, 0, 8);
          g_string_append (text, pieces[i]);
        }
      check (text->str, text->len);
    }
  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/utf8/sequences", test_sequences);
  g_test_add_func ("/winnow/utf8/random-mixes", test_random_mixes);

  return g_test_run ();
}
