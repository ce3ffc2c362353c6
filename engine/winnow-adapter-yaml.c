/* winnow-adapter-yaml.c — YAML configuration: keys and short values stay, long prose goes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seed 003's YAML adapter, for Kubernetes manifests, Compose files, CI workflows, Helm values.
 * Every line is kept except a `key: value` whose value is a string of more than 60 characters
 * that reads as prose (see _winnow_adapter_looks_like_prose()); that line becomes
 * `key: […]` — the seed drops it, but the key tells an agent that the field exists — and its
 * text goes to the summariser, whose summary is appended as `# ` comment lines.
 *
 * Kept whatever their length: empty values (a nested block), block scalars (`|`, `>-` …) with
 * all their lines, flow collections, anchors, aliases and tags, booleans, null, numbers, list
 * items, comments, lines that mention an error (`ERROR: …`), and the values of keys that hold commands or
 * references (run, script, command, args, image, url, path, if, …: a long shell line is not
 * prose to summarise). A plain or quoted value that continues over more-indented lines is
 * read as one value.
 *
 * Detection follows the seed — at least 4 lines that are neither blank nor comments, more than
 * 35% of them `key: value` lines — where a key is a name (letters, digits and `_-./$@~`, no
 * spaces) or quoted, followed by a colon and a space or the line end. One guard: the first of
 * those lines must be a key, a list item, `---` or a `%` directive, since plenty of tool
 * output (git, pip, compilers) has `word: text` lines below a first line that is not YAML.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"
#include "winnow-utf8.h"

#define MIN_LINES      4
#define KEY_PERCENT    35
#define MAX_KEY        128
#define ATOMIC_LENGTH  60

/* sorted */
static const char *const verbatim_keys[] = {
  "args", "arguments", "cmd", "command", "commands", "entrypoint", "exec", "expr",
  "expression", "file", "files", "href", "if", "image", "path", "paths", "pattern", "query",
  "regex", "run", "script", "scripts", "shell", "sql", "uri", "url", "uses",
  "working-directory",
};

typedef struct
{
  gsize indent;        /* bytes before the line's first non-space */
  gsize key_column;    /* where the key starts (after a "- ") */
  gsize key_start;
  gsize key_length;
  gsize value_start;   /* offset of the value in the line, after the spaces */
  gsize value_length;  /* without a trailing comment and spaces */
} KeyLine;

static gboolean
is_comment (const char *line,
            gsize       length)
{
  gsize i = _winnow_indent (line, length);

  return i < length && line[i] == '#';
}

/* Finds where a quoted scalar starting at line[i] (a quote) closes on this line, or returns
 * 0. Double quotes take backslash escapes, single quotes a doubled quote. */
static gsize
quote_end (const char *line,
           gsize       length,
           gsize       i)
{
  char quote = line[i];

  for (gsize j = i + 1; j < length; j++)
    {
      if (quote == '"' && line[j] == '\\')
        j++;
      else if (line[j] == quote)
        {
          if (quote == '\'' && j + 1 < length && line[j + 1] == '\'')
            j++;
          else
            return j + 1;
        }
    }
  return 0;
}

/* Plain keys in real YAML are names: `app.kubernetes.io/name`, `runs-on`, `$schema`, `/pets`.
 * Refusing spaces, brackets and commas keeps diagnostics such as `src/a.ts(5,5): error` and
 * prose such as `In short: …` from passing for keys. */
static inline gboolean
is_key_byte (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '.' || c == '/' || c == '$' ||
         c == '@' || c == '~' || (guchar) c >= 0x80;
}

static gboolean
parse_key_line (const char *line,
                gsize       length,
                KeyLine    *kl)
{
  gsize i = _winnow_indent (line, length);
  gsize key_end;
  gsize v;

  kl->indent = i;
  if (i < length && line[i] == '-' && (i + 1 == length || line[i + 1] == ' '))
    {
      i++;
      while (i < length && line[i] == ' ')
        i++;
    }
  if (i >= length)
    return FALSE;
  kl->key_column = i;
  kl->key_start = i;

  if (line[i] == '"' || line[i] == '\'')
    {
      key_end = quote_end (line, length, i);
      if (key_end == 0 || key_end >= length || line[key_end] != ':')
        return FALSE;
    }
  else
    {
      if (!is_key_byte (line[i]) || line[i] == '.' || line[i] == '$')
        return FALSE;
      key_end = i;
      while (key_end < length && is_key_byte (line[key_end]) && key_end - i <= MAX_KEY)
        key_end++;
      if (key_end >= length || line[key_end] != ':' || key_end == i || key_end - i > MAX_KEY)
        return FALSE;
    }
  if (key_end + 1 < length && line[key_end + 1] != ' ' && line[key_end + 1] != '\t')
    return FALSE;   /* "http://", "a:b" */
  kl->key_length = key_end - i;

  v = key_end + 1;
  while (v < length && (line[v] == ' ' || line[v] == '\t'))
    v++;
  kl->value_start = v;
  kl->value_length = length - v;

  /* drop a trailing comment (outside a quoted value) and spaces */
  if (v < length && (line[v] == '"' || line[v] == '\''))
    {
      gsize q = quote_end (line, length, v);

      if (q > 0)
        kl->value_length = q - v;
    }
  else
    {
      for (gsize j = v; j < length; j++)
        if (line[j] == '#' && j > v && (line[j - 1] == ' ' || line[j - 1] == '\t'))
          {
            kl->value_length = j - v;
            break;
          }
    }
  while (kl->value_length > 0 && g_ascii_isspace (line[v + kl->value_length - 1]))
    kl->value_length--;

  return TRUE;
}

static gboolean
yaml_detect (const char *text,
             gsize       length)
{
  WinnowLineReader reader;
  const char *line;
  gsize n;
  guint n_lines = 0;
  guint n_keys = 0;

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line, &n))
    {
      KeyLine kl;
      gboolean key;

      if (_winnow_is_blank (line, n) || is_comment (line, n))
        continue;
      key = parse_key_line (line, n, &kl);
      /* a document opens with a key, a list item, a marker or a directive; tool output
       * that merely has `key: value` lines further down (git, pip, compilers) does not */
      if (n_lines == 0 && !key &&
          !(n >= 3 && memcmp (line, "---", 3) == 0) && line[0] != '%' &&
          !(line[0] == '-' && (n == 1 || line[1] == ' ')))
        return FALSE;
      n_lines++;
      if (key)
        n_keys++;
    }

  return n_lines >= MIN_LINES && n_keys * 100 > n_lines * KEY_PERCENT;
}

/* "|", ">", "|-", ">+2", "|  # comment" */
static gboolean
is_block_indicator (const char *value,
                    gsize       length)
{
  gsize i = 1;

  if (length == 0 || (value[0] != '|' && value[0] != '>'))
    return FALSE;
  while (i < length && (value[i] == '-' || value[i] == '+' || g_ascii_isdigit (value[i])))
    i++;
  return i == length;
}

static gboolean
is_atomic (const char *key,
           gsize       key_length,
           const char *value,
           gsize       length)
{
  char lower[32];
  gsize lo = 0;
  gsize hi = G_N_ELEMENTS (verbatim_keys);

  if (length <= ATOMIC_LENGTH)
    return TRUE;
  if (strchr ("[{&*!", value[0]) != NULL)
    return TRUE;
  if (_winnow_adapter_mentions_error (value, length))
    return TRUE;

  if (key_length < sizeof lower)
    {
      for (gsize i = 0; i < key_length; i++)
        lower[i] = (char) _winnow_ascii_lower ((guchar) key[i]);
      lower[key_length] = '\0';
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;
          int cmp = strcmp (lower, verbatim_keys[mid]);

          if (cmp == 0)
            return TRUE;
          if (cmp < 0)
            hi = mid;
          else
            lo = mid + 1;
        }
    }

  return !_winnow_adapter_looks_like_prose (value, length);
}

typedef struct
{
  const char *text;
  gsize       length;
} Line;

static void
yaml_extract (const char                 *text,
              gsize                       length,
              const WinnowAdapterOptions *options,
              WinnowAdapterParts         *parts)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr(GString) piece = g_string_new (NULL);
  WinnowLineReader reader;
  gssize block_column = -1;   /* inside a block scalar: lines indented deeper than this */
  Line line;
  guint i = 0;

  _winnow_line_reader_init (&reader, text, length);
  while (_winnow_line_reader_next (&reader, &line.text, &line.length))
    g_array_append_val (lines, line);

  while (i < lines->len)
    {
      const Line *l = &g_array_index (lines, Line, i);
      const char *value;
      gsize value_length;
      guint last = i;
      KeyLine kl;

      if (block_column >= 0)
        {
          if (_winnow_is_blank (l->text, l->length) ||
              _winnow_indent (l->text, l->length) > (gsize) block_column)
            {
              _winnow_adapter_preserve (parts, l->text, l->length);
              i++;
              continue;
            }
          block_column = -1;
        }

      if (_winnow_is_blank (l->text, l->length) || is_comment (l->text, l->length) ||
          !parse_key_line (l->text, l->length, &kl) || kl.value_length == 0)
        {
          _winnow_adapter_preserve (parts, l->text, l->length);
          i++;
          continue;
        }

      value = l->text + kl.value_start;
      if (is_block_indicator (value, kl.value_length))
        {
          _winnow_adapter_preserve (parts, l->text, l->length);
          block_column = kl.key_column;
          i++;
          continue;
        }

      /* a value continued on more-indented lines */
      if ((value[0] == '"' || value[0] == '\'') &&
          quote_end (l->text, l->length, kl.value_start) == 0)
        {
          /* an open quote: up to the line that closes it, if the lines between are indented
           * below the key; otherwise the quote is broken and only this line is the value */
          guint k = i;

          while (k + 1 < lines->len)
            {
              const Line *next = &g_array_index (lines, Line, ++k);

              if (!_winnow_is_blank (next->text, next->length) &&
                  _winnow_indent (next->text, next->length) <= kl.key_column)
                break;
              if (memchr (next->text, value[0], next->length) != NULL)
                {
                  last = k;
                  break;
                }
            }
        }
      else if (value[0] != '"' && value[0] != '\'')
        {
          while (last + 1 < lines->len)
            {
              const Line *next = &g_array_index (lines, Line, last + 1);
              gsize indent = _winnow_indent (next->text, next->length);
              KeyLine next_kl;

              if (_winnow_is_blank (next->text, next->length) || indent <= kl.key_column ||
                  is_comment (next->text, next->length) ||
                  next->text[indent] == '-' ||
                  parse_key_line (next->text, next->length, &next_kl))
                break;
              last++;
            }
        }
      {
        const Line *end_line = &g_array_index (lines, Line, last);

        value_length = last == i ? kl.value_length
                                 : (gsize) (end_line->text + end_line->length - value);
      }

      if (is_atomic (l->text + kl.key_start, kl.key_length, value, value_length) ||
          _winnow_adapter_mentions_error (l->text, kl.value_start))
        {
          for (guint k = i; k <= last; k++)
            {
              const Line *kept = &g_array_index (lines, Line, k);

              _winnow_adapter_preserve (parts, kept->text, kept->length);
            }
        }
      else
        {
          const char *prose = value;
          gsize prose_length = value_length;

          if (prose[0] == '"' || prose[0] == '\'')
            {
              prose++;
              prose_length -= prose_length >= 2 && prose[prose_length - 2] == value[0] ? 2 : 1;
            }
          _winnow_adapter_compress (parts, prose, prose_length);

          g_string_truncate (piece, 0);
          g_string_append_len (piece, l->text, kl.value_start);
          g_string_append (piece, WINNOW_ADAPTER_ELIDED);
          _winnow_adapter_preserve_string (parts, piece);
        }
      i = last + 1;
    }
}

static void
yaml_reconstruct (const WinnowAdapterParts *parts,
                  const char               *summary,
                  GString                  *out)
{
  _winnow_adapter_join_preserved (parts, "\n", out);
  _winnow_adapter_append_comment (out, "# ", summary);
}

const WinnowAdapter _winnow_adapter_yaml = {
  .name = "yaml",
  .lossless = FALSE,
  .detect = yaml_detect,
  .extract = yaml_extract,
  .summarize = NULL,
  .reconstruct = yaml_reconstruct,
};
