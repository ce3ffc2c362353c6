/* winnow-protect-private.h — what the parts of the protected-token scanner share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

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

/* The walk over the lines (winnow-protect-blocks.c), shared with the structured-data
 * recognisers (winnow-protect-structured.c). */
typedef struct
{
  const char *text;
  gsize       length;
  GArray     *spans;
  gsize       prose_start;     /* start of the prose not lexed yet */
  gboolean    prev_paragraph;  /* the line before is paragraph text (indented code can't follow) */
  gboolean    after_blank;
  guint       list_indent;     /* content column of the list item we are in; 0 outside lists */
  gsize       json_fail_until;
  gsize       yaml_fail_until;
  gsize       toml_fail_until;
  gsize       toml_value_fail_until;
  gsize       heredoc_fail_until;
  gsize       xml_fail_until;
  guint       xml_failures;
  gsize       code_fail_until;
  gsize       code_stretch_end;   /* where the last stretch of code lines that failed ends */
  guint       code_stretch_tries; /* runs tried in it */
  gsize       diff_fail_until;
  gsize       bracket_fail_until; /* a search for where a code line's brackets close failed */
  gsize       string_fail_until;  /* a search for where a string opened after code ends failed */
  gsize       csv_fail_until[3];  /* rows of tab-, comma-, semicolon-separated values too few */
} ProtectBlocks;

#define PROTECT_MAX_TICKS   16
#define PROTECT_N_RECENT     4
#define PROTECT_CALL_WINDOW 240

typedef struct
{
  gsize start;
  gsize end;
} ProtectWord;

/* The inline lexer (winnow-protect-inline.c), shared with the multi-word shapes
 * (winnow-protect-phrases.c). */
typedef struct
{
  const char *text;
  gsize       end;
  GArray     *spans;

  /* a backtick run of length n has no closing run before tick_fail[n] */
  gsize       tick_fail[PROTECT_MAX_TICKS + 1];

  /* the last few words on the current line, most recent first */
  ProtectWord recent[PROTECT_N_RECENT];
  guint       n_recent;

  /* where each '(' of a window of bytes closes (offset from it, 0 if it does not) */
  gsize       paren_start;
  gsize       paren_end;
  guint8      paren_close[PROTECT_CALL_WINDOW];
} ProtectLexer;

/* roles of ASCII punctuation in _winnow_protect_char_class */
enum
{
  CC_OPEN = 1 << 0,
  CC_TRAIL = 1 << 1,
  CC_SENTENCE = 1 << 2,
  CC_CLOSE = 1 << 3,
  CC_HARD = 1 << 4,
  CC_TECH = 1 << 5,
  CC_PATH = 1 << 6,
  CC_URL_STOP = 1 << 7,
  CC_URL_TRIM = 1 << 8,
};

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

gsize              _winnow_protect_list_marker        (const char        *t,
                                                       gsize              p,
                                                       gsize              e);
void               _winnow_protect_claim              (ProtectBlocks     *bs,
                                                       gsize              start,
                                                       gsize              end,
                                                       WinnowProtectKind  kind,
                                                       gboolean           paragraph);

/* winnow-protect-structured.c */
gboolean           _winnow_protect_try_json           (ProtectBlocks     *bs,
                                                       const ProtectLine *l,
                                                       gsize             *next);
gboolean           _winnow_protect_try_xml            (ProtectBlocks     *bs,
                                                       const ProtectLine *l,
                                                       gsize             *next);
gboolean           _winnow_protect_try_delimited      (ProtectBlocks     *bs,
                                                       const ProtectLine *l,
                                                       gsize             *next);
gboolean           _winnow_protect_try_toml           (ProtectBlocks     *bs,
                                                       const ProtectLine *l,
                                                       gsize             *next);
gboolean           _winnow_protect_try_yaml_document  (ProtectBlocks     *bs,
                                                       const ProtectLine *l,
                                                       gsize             *next);
gboolean           _winnow_protect_try_yaml_run       (ProtectBlocks     *bs,
                                                       const ProtectLine *l,
                                                       gsize             *next);

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
gboolean           _winnow_protect_is_code_line       (const char        *text,
                                                       const ProtectLine *line);
guint              _winnow_protect_table_row_column   (const char        *text,
                                                       const ProtectLine *line);
gboolean           _winnow_protect_is_minified_line   (const char        *text,
                                                       const ProtectLine *line);
gboolean           _winnow_protect_is_prompt_line     (const char        *text,
                                                       const ProtectLine *line);

/* winnow-protect-inline.c: tokens inside prose [start, end) */


gboolean           _winnow_protect_next_chunk         (ProtectLexer      *lx,
                                                       gsize              p,
                                                       gsize             *cs,
                                                       gsize             *ce);
gboolean           _winnow_protect_unbalanced         (const char        *t,
                                                       gsize              s,
                                                       gsize              e,
                                                       char               close);
void               _winnow_protect_emit               (ProtectLexer      *lx,
                                                       gsize              start,
                                                       gsize              end,
                                                       WinnowProtectKind  kind);
const char        *_winnow_protect_recent_word        (ProtectLexer      *lx,
                                                       guint              i,
                                                       gsize             *len);

/* winnow-protect-phrases.c: shapes over several words, tried at a chunk's start */
gsize              _winnow_protect_sentence_end       (const char        *t,
                                                       gsize              s,
                                                       gsize              e);
gsize              _winnow_protect_try_command        (ProtectLexer      *lx,
                                                       gsize              a,
                                                       gsize              b);
gsize              _winnow_protect_try_named_date     (ProtectLexer      *lx,
                                                       gsize              s,
                                                       gsize              e,
                                                       gsize              b);
gboolean           _winnow_protect_try_branch_word    (ProtectLexer      *lx,
                                                       gsize              s,
                                                       gsize              e,
                                                       gsize              b);

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
gboolean           _winnow_protect_is_hyphenated_word (const char        *word,
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

/* winnow-protect-tokens.c: one token of prose */
int                _winnow_protect_classify           (const char        *s,
                                                       gsize              n);
gboolean           _winnow_protect_is_time            (const char        *s,
                                                       gsize              n);
gboolean           _winnow_protect_is_zone            (const char        *s,
                                                       gsize              n);
gsize              _winnow_protect_version_operator   (const char        *s,
                                                       gsize              n,
                                                       gsize              i);
gboolean           _winnow_protect_path_chars         (const char        *s,
                                                       gsize              n);

/* winnow-protect-names.c */
gboolean           _winnow_protect_is_identifier      (const char        *s,
                                                       gsize              n);
gboolean           _winnow_protect_is_scp_remote      (const char        *s,
                                                       gsize              n);
gboolean           _winnow_protect_is_email           (const char        *s,
                                                       gsize              n);
gboolean           _winnow_protect_is_package_spec    (const char        *s,
                                                       gsize              n);

static inline gboolean
_winnow_protect_is_space (char c)
{
  return c == ' ' || c == '\t';
}

static inline gboolean
_winnow_protect_only_spaces (const char *t,
                             gsize       p,
                             gsize       e)
{
  while (p < e && _winnow_protect_is_space (t[p]))
    p++;
  return p == e;
}

extern const guint16 _winnow_protect_char_class[128];

static inline gboolean
_winnow_protect_has_class (guchar c,
                           guint  cls)
{
  return c < 128 && (_winnow_protect_char_class[c] & cls) != 0;
}

static inline gboolean
_winnow_protect_equal_word (const char *s,
                            gsize       n,
                            const char *word)
{
  return strlen (word) == n && memcmp (s, word, n) == 0;
}

/* whether [s, s + n) is one of the NULL-terminated @words */
static inline gboolean
_winnow_protect_word_in (const char         *s,
                         gsize               n,
                         const char * const *words)
{
  for (guint i = 0; words[i] != NULL; i++)
    if (_winnow_protect_equal_word (s, n, words[i]))
      return TRUE;
  return FALSE;
}

static inline guint
_winnow_protect_number_at (const char *s,
                           gsize       i,
                           gsize       digits)
{
  guint v = 0;

  for (gsize k = 0; k < digits; k++)
    v = v * 10 + (s[i + k] - '0');
  return v;
}

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
