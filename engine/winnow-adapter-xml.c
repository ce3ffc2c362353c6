/* winnow-adapter-xml.c — XML documents: the tag skeleton stays, long text is summarised
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seed 003's XML adapter, for Maven POMs, Spring configs, JUnit reports, SVG, feeds… The
 * skeleton keeps every tag with its attributes, the declaration, DOCTYPE, processing
 * instructions, CDATA sections (usually code) and every short text node: ≤ 5 words or < 100
 * characters, which covers versions, ids, ports and names. A text node of ≥ 6 words and
 * ≥ 100 characters that reads as prose and mentions no error (a JUnit report's failure
 * message stays) becomes `[…]` in place, keeping the whitespace around it; a comment of that
 * size becomes `<!-- […] -->`. Their text goes to the summariser and the
 * summary is appended as one comment (with any `--` broken up, which comments cannot hold).
 *
 * Detection: the text starts (after whitespace) with `<?xml` or `<` and a letter, and has a
 * closing tag somewhere. The scanner is a single forward pass that copies whatever it does not
 * recognise, so malformed markup (a stray `<`, a tag cut off at the end) passes through.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"

#define LONG_WORDS 6
#define LONG_CHARS 100

static gboolean
has_prefix (const char *p,
            const char *end,
            const char *prefix)
{
  gsize n = strlen (prefix);

  return (gsize) (end - p) >= n && memcmp (p, prefix, n) == 0;
}

static gboolean
xml_detect (const char *text,
            gsize       length)
{
  const char *p = text;
  const char *end = text + length;

  if (has_prefix (p, end, "\xEF\xBB\xBF"))
    p += 3;
  while (p < end && g_ascii_isspace (*p))
    p++;
  if (has_prefix (p, end, "<?xml"))
    ;
  else if (end - p >= 2 && p[0] == '<' && (g_ascii_isalpha (p[1]) || p[1] == '_'))
    ;
  else
    return FALSE;

  return memmem (p, end - p, "</", 2) != NULL;
}

/* Where the construct that @p opens ends (just past it), or NULL when it runs off the end.
 * Sets *kind: 'c' comment, 't' tag, 'o' anything else kept verbatim, 0 for no markup. */
static const char *
markup_end (const char *p,
            const char *end,
            char       *kind)
{
  const char *q;

  *kind = 0;
  if (end - p < 2)
    return p;

  if (has_prefix (p, end, "<!--"))
    {
      *kind = 'c';
      q = memmem (p + 4, end - p - 4, "-->", 3);
      return q != NULL ? q + 3 : NULL;
    }
  if (has_prefix (p, end, "<![CDATA["))
    {
      *kind = 'o';
      q = memmem (p + 9, end - p - 9, "]]>", 3);
      return q != NULL ? q + 3 : NULL;
    }
  if (has_prefix (p, end, "<?"))
    {
      *kind = 'o';
      q = memmem (p + 2, end - p - 2, "?>", 2);
      return q != NULL ? q + 2 : NULL;
    }
  if (p[1] == '!' || p[1] == '/' || g_ascii_isalpha (p[1]) || p[1] == '_' || p[1] == ':' ||
      (guchar) p[1] >= 0x80)
    {
      char quote = 0;
      int brackets = 0;   /* a DOCTYPE's internal subset */

      *kind = p[1] == '!' ? 'o' : 't';
      for (q = p + 1; q < end; q++)
        {
          if (quote != 0)
            {
              if (*q == quote)
                quote = 0;
            }
          else if (*q == '"' || *q == '\'')
            quote = *q;
          else if (*q == '[')
            brackets++;
          else if (*q == ']' && brackets > 0)
            brackets--;
          else if (*q == '>' && brackets == 0)
            return q + 1;
        }
      return NULL;
    }
  return p;   /* a stray '<' */
}

static gboolean
is_long_prose (const char *text,
               gsize       length)
{
  return length >= LONG_CHARS &&
         _winnow_adapter_count_words (text, length) >= LONG_WORDS &&
         g_utf8_strlen (text, length) >= LONG_CHARS &&
         _winnow_adapter_looks_like_prose (text, length) &&
         !_winnow_adapter_mentions_error (text, length);
}

/* Hands @text to the summariser with its whitespace runs made single spaces: XML wraps text
 * anywhere, and a line break must not read as a sentence end. */
static void
compress_collapsed (WinnowAdapterParts *parts,
                    const char         *text,
                    gsize               length)
{
  g_autoptr(GString) flat = g_string_sized_new (length);

  for (gsize i = 0; i < length; i++)
    {
      if (g_ascii_isspace (text[i]))
        {
          if (flat->len > 0 && flat->str[flat->len - 1] != ' ')
            g_string_append_c (flat, ' ');
        }
      else
        g_string_append_c (flat, text[i]);
    }
  _winnow_adapter_compress (parts, flat->str, flat->len);
}

static void
xml_extract (const char                 *text,
             gsize                       length,
             const WinnowAdapterOptions *options,
             WinnowAdapterParts         *parts)
{
  g_autoptr(GString) skeleton = g_string_sized_new (length / 2);
  const char *p = text;
  const char *end = text + length;

  while (p < end)
    {
      const char *stop;
      const char *core;
      gsize core_length;
      char kind = 0;

      if (*p == '<')
        {
          stop = markup_end (p, end, &kind);
          if (stop == NULL)
            {
              /* cut off: keep the rest as it is */
              g_string_append_len (skeleton, p, end - p);
              break;
            }
          if (kind == 'c' && is_long_prose (p + 4, stop - 3 - (p + 4)))
            {
              compress_collapsed (parts, p + 4, stop - 3 - (p + 4));
              g_string_append (skeleton, "<!-- " WINNOW_ADAPTER_ELIDED " -->");
              p = stop;
              continue;
            }
          if (kind != 0)
            {
              g_string_append_len (skeleton, p, stop - p);
              p = stop;
              continue;
            }
        }

      /* a text node: up to the next '<' (a stray '<' belongs to it) */
      stop = memchr (p + 1, '<', end - p - 1);
      if (stop == NULL)
        stop = end;

      core = p;
      core_length = stop - p;
      _winnow_adapter_trim (&core, &core_length);
      if (is_long_prose (core, core_length))
        {
          compress_collapsed (parts, core, core_length);
          g_string_append_len (skeleton, p, core - p);
          g_string_append (skeleton, WINNOW_ADAPTER_ELIDED);
          g_string_append_len (skeleton, core + core_length, stop - (core + core_length));
        }
      else
        g_string_append_len (skeleton, p, stop - p);
      p = stop;
    }

  _winnow_adapter_preserve_string (parts, skeleton);
}

static void
xml_reconstruct (const WinnowAdapterParts *parts,
                 const char               *summary,
                 GString                  *out)
{
  _winnow_adapter_join_preserved (parts, "", out);
  if (*summary == '\0')
    return;

  if (out->len > 0 && out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
  g_string_append (out, "<!-- ");
  for (const char *s = summary; *s != '\0'; s++)
    {
      /* "--" may not occur inside a comment */
      if (*s == '-' && out->str[out->len - 1] == '-')
        g_string_append_c (out, ' ');
      g_string_append_c (out, *s);
    }
  if (out->str[out->len - 1] == '-')
    g_string_append_c (out, ' ');
  g_string_append (out, " -->");
}

const WinnowAdapter _winnow_adapter_xml = {
  .name = "xml",
  .lossless = FALSE,
  .detect = xml_detect,
  .extract = xml_extract,
  .summarize = NULL,
  .reconstruct = xml_reconstruct,
};
