/* winnow-tool-result.c — the rules for compressing what a tool returned to an agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts of the tool-result contract (seed 002, FORMATS.md §6): outputs shorter than 1024
 * characters are not worth compressing (the banner would eat the savings, and an agent would
 * re-read what it cannot see); structured payloads a model parses — a top-level JSON document,
 * a YAML document (leading `---`), a TOML document (leading `[section]`) — are never handed to
 * line filters; and a compressed part starts with a one-line banner that names the filters and
 * says `before → after` characters, so the model knows it is reading a digest and can ask for
 * the full output.
 */

#define G_LOG_DOMAIN "winnow-tool-result"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"
#include "winnow-tool-result.h"

#define BANNER_PREFIX "[winnow: "

static const char *
skip_blank (const char *p,
            const char *end)
{
  while (p < end && g_ascii_isspace (*p))
    p++;
  return p;
}

/* `[section]` or `[[array.of.tables]]` followed, on the next non-blank line, by `key = value`
 * or another table. */
static gboolean
is_toml_document (const char *p,
                  const char *end)
{
  const char *eol = memchr (p, '\n', end - p);
  const char *line_end = eol ? eol : end;
  const char *next;
  const char *q;

  while (line_end > p && g_ascii_isspace (line_end[-1]))
    line_end--;
  if (line_end - p < 3 || p[0] != '[' || line_end[-1] != ']')
    return FALSE;
  for (q = p + 1; q < line_end - 1; q++)
    if (!g_ascii_isalnum (*q) && strchr ("_-.\"' []", *q) == NULL)
      return FALSE;

  if (eol == NULL)
    return TRUE;

  next = skip_blank (eol + 1, end);
  if (next >= end || *next == '[' || *next == '#')
    return TRUE;

  for (q = next; q < end && *q != '\n' && *q != '='; q++)
    if (!g_ascii_isalnum (*q) && strchr ("_-.\"' ", *q) == NULL)
      return FALSE;

  return q < end && *q == '=';
}

/**
 * winnow_tool_result_protected_format:
 * @text: a tool's output
 * @length: its length, or -1 if nul-terminated
 *
 * Whether @text is a structured payload that line filters must not rewrite.
 *
 * Returns: (nullable): "json", "yaml" or "toml", or %NULL when @text is not one
 */
const char *
winnow_tool_result_protected_format (const char *text,
                                     gssize      length)
{
  const char *end;
  const char *p;
  gsize len;

  g_return_val_if_fail (text != NULL || length <= 0, NULL);

  if (text == NULL)
    return NULL;
  len = length < 0 ? strlen (text) : (gsize) length;
  end = text + len;
  p = skip_blank (text, end);

  /* the JSON adapter's validator: a scan without recursion or a tree, so a huge or deeply
   * nested payload costs one pass */
  if (p < end && (*p == '{' || *p == '[') && _winnow_adapter_json.detect (text, len))
    return "json";
  if (end - p >= 3 && memcmp (p, "---", 3) == 0 && (end - p == 3 || p[3] == '\n' ||
                                                      p[3] == '\r' || p[3] == ' '))
    return "yaml";
  if (p < end && *p == '[' && is_toml_document (p, end))
    return "toml";

  return NULL;
}

/**
 * winnow_tool_result_format_banner:
 * @filters: (array zero-terminated=1): what compressed the output: filter ids, "caveman"…
 * @chars_before: characters of the output
 * @chars_after: characters of the compressed output, banner excluded
 *
 * Returns: (transfer full): the banner line, without a newline, e.g.
 *   `[winnow: git-status · 2341 → 512 chars · ask for the full output if you need it]`
 */
char *
winnow_tool_result_format_banner (const char * const *filters,
                                  gsize               chars_before,
                                  gsize               chars_after)
{
  g_autofree char *names = NULL;

  names = filters != NULL && filters[0] != NULL ? g_strjoinv (", ", (char **) filters)
                                                : g_strdup ("winnow");

  return g_strdup_printf (BANNER_PREFIX "%s · %" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT
                          " chars · ask for the full output if you need it]", names,
                          chars_before, chars_after);
}

/**
 * winnow_tool_result_is_banner:
 * @text: a tool's output as the model sees it
 *
 * Returns: whether @text starts with a Winnow banner (it was compressed before)
 */
gboolean
winnow_tool_result_is_banner (const char *text)
{
  return text != NULL && g_str_has_prefix (text, BANNER_PREFIX);
}
