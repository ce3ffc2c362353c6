/* winnow-protect-private.h — what the parts of the protected-token scanner share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-protect.h"

G_BEGIN_DECLS

/* How a tool word found in a sentence must be followed to read as a command. */
typedef enum
{
  TOOL_ANY,        /* any argument: `yarn build`, `cd src` */
  TOOL_SUBCOMMAND, /* a known subcommand or a technical argument first: `git push`, `go test` */
  TOOL_TECHNICAL,  /* a technical argument first: `python -m x`, `node app.js` */
  TOOL_ENGLISH,    /* also an English word (make, find, cat): needs "run" before it or a
                    * technical argument somewhere */
  TOOL_PREFIX,     /* runs another command: `sudo apt install x` */
} ToolPolicy;

typedef struct
{
  const char         *name;
  ToolPolicy          policy;
  const char * const *subcommands;
} ProtectTool;

/* One line of the text. */
typedef struct
{
  gsize start;  /* first byte */
  gsize end;    /* end of the content, before \r\n or \n */
  gsize next;   /* start of the following line; the text's length for the last line */
  gsize body;   /* first byte after the indentation; == end for a blank line */
  guint indent; /* columns of indentation, tabs to the next multiple of four */
} ProtectLine;

static inline gboolean
_winnow_protect_line_blank (const ProtectLine *line)
{
  return line->body >= line->end;
}

/* winnow-protect.c */
void               _winnow_protect_push               (GArray            *spans,
                                                       gsize              start,
                                                       gsize              end,
                                                       WinnowProtectKind  kind);

/* winnow-protect-blocks.c: walks the lines, emits block spans, lexes the prose between */
void               _winnow_protect_scan_blocks        (const char        *text,
                                                       gsize              length,
                                                       GArray            *spans);

/* winnow-protect-lines.c: what single lines are */
void               _winnow_protect_read_line          (const char        *text,
                                                       gsize              length,
                                                       gsize              pos,
                                                       ProtectLine       *line);
gboolean           _winnow_protect_is_error_line      (const char        *text,
                                                       const ProtectLine *line);
gboolean           _winnow_protect_is_error_context   (const char        *text,
                                                       const ProtectLine *line);
gboolean           _winnow_protect_is_frame_line      (const char        *text,
                                                       const ProtectLine *line);
gboolean           _winnow_protect_is_python_frame    (const char        *text,
                                                       const ProtectLine *line);
gboolean           _winnow_protect_is_goroutine       (const char        *text,
                                                       const ProtectLine *line);
gboolean           _winnow_protect_is_prompt_line     (const char        *text,
                                                       const ProtectLine *line);

/* winnow-protect-inline.c: tokens inside prose [start, end) */
void               _winnow_protect_scan_inline        (const char        *text,
                                                       gsize              start,
                                                       gsize              end,
                                                       GArray            *spans);

/* winnow-protect-words.c: fixed word lists; @word need not be NUL-terminated */
const ProtectTool *_winnow_protect_lookup_tool        (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_subcommand      (const ProtectTool *tool,
                                                       const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_stopword        (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_trigger         (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_extension       (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_file_name       (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_source_dir      (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_prose_part      (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_branch_prefix   (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_branch_verb     (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_tld             (const char        *word,
                                                       gsize              len);
guint              _winnow_protect_month              (const char        *word,
                                                       gsize              len);
gboolean           _winnow_protect_is_day_name        (const char        *word,
                                                       gsize              len);

static inline gboolean
_winnow_protect_is_word_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static inline gsize
_winnow_protect_count_digits (const char *s,
                              gsize       n,
                              gsize       i)
{
  gsize start = i;

  while (i < n && g_ascii_isdigit (s[i]))
    i++;
  return i - start;
}

G_END_DECLS
