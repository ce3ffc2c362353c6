/* TEMPORARY STUB — replaced by the real scanner */
#include "config.h"
#include <string.h>
#include "winnow-protect.h"
static void add (GArray *a, gsize s, gsize e, WinnowProtectKind k) { WinnowProtectSpan sp = { s, e, k }; g_array_append_val (a, sp); }
GArray *
winnow_protect_scan (const char *text, gssize length)
{
  gsize len = length < 0 ? strlen (text) : (gsize) length;
  GArray *a = g_array_new (FALSE, FALSE, sizeof (WinnowProtectSpan));
  gsize i = 0;
  while (i < len)
    {
      if ((i == 0 || text[i-1] == '\n') && len - i >= 3 && (memcmp (text + i, "```", 3) == 0 || memcmp (text + i, "~~~", 3) == 0))
        {
          char f = text[i]; gsize j = i + 3; const char *p;
          while (j < len && text[j] != '\n') j++;
          p = text + j;
          for (;;) { const char *nl = memchr (p, '\n', text + len - p); if (!nl) { j = len; break; }
              if ((gsize)(text + len - nl) > 3 && nl[1] == f && nl[2] == f && nl[3] == f) { const char *e = memchr (nl + 1, '\n', text + len - nl - 1); j = e ? (gsize)(e - text) : len; break; }
              p = nl + 1; }
          add (a, i, j, WINNOW_PROTECT_FENCE); i = j; continue;
        }
      if (text[i] == '`')
        { const char *e = memchr (text + i + 1, '`', len - i - 1); if (e) { add (a, i, e - text + 1, WINNOW_PROTECT_INLINE_CODE); i = e - text + 1; continue; } }
      if (!g_ascii_isspace (text[i]) && (i == 0 || g_ascii_isspace (text[i-1]) || text[i-1] == '('))
        {
          gsize j = i; gboolean tech = FALSE; gboolean upper_inner = FALSE;
          while (j < len && !g_ascii_isspace (text[j])) { char c = text[j];
              if (c == '/' || c == '\\' || c == '_' || g_ascii_isdigit (c) || (c == ':' && j + 1 < len && !g_ascii_isspace (text[j+1]))) tech = TRUE;
              if (j > i && g_ascii_isupper (c) && g_ascii_islower (text[j-1])) upper_inner = TRUE;
              j++; }
          while (j > i && strchr (".,;:!?)", text[j-1])) j--;
          if ((tech || upper_inner) && j > i) { add (a, i, j, WINNOW_PROTECT_PATH); i = j; continue; }
          i = j > i ? j : i + 1; continue;
        }
      i++;
    }
  return a;
}

gboolean
winnow_protect_check (const char *original, gssize original_length, const char *compressed,
                      gssize compressed_length, GError **error)
{
  gsize ol = original_length < 0 ? strlen (original) : (gsize) original_length;
  gsize cl = compressed_length < 0 ? strlen (compressed) : (gsize) compressed_length;
  g_autoptr(GArray) spans = winnow_protect_scan (original, ol);
  const char *at = compressed;
  for (guint i = 0; i < spans->len; i++)
    {
      WinnowProtectSpan *s = &g_array_index (spans, WinnowProtectSpan, i);
      const char *hit = memmem (at, compressed + cl - at, original + s->start, s->end - s->start);
      if (hit == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "lost token at %zu", s->start);
          return FALSE;
        }
      at = hit + (s->end - s->start);
    }
  return TRUE;
}
