/* winnow-protect.h — the technical tokens prose compression must leave alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WINNOW_PROTECT_ERROR (winnow_protect_error_quark ())

/**
 * WinnowProtectError:
 * @WINNOW_PROTECT_ERROR_TOKEN_LOST: a protected token of the original is missing from (or out
 *   of order in) the compressed text
 */
typedef enum
{
  WINNOW_PROTECT_ERROR_TOKEN_LOST,
} WinnowProtectError;

/**
 * WinnowProtectKind:
 * @WINNOW_PROTECT_FENCE: a ``` or ~~~ fenced block, opening and closing fence lines included
 *   (an unclosed fence runs to the end of the message)
 * @WINNOW_PROTECT_INDENTED_CODE: a Markdown code block indented by four spaces or a tab
 * @WINNOW_PROTECT_INLINE_CODE: a backtick code span, backticks included
 * @WINNOW_PROTECT_URL: `scheme://…`, `www.…`, `mailto:…`, `git@host:path`, `host.tld/path`
 * @WINNOW_PROTECT_EMAIL: an e-mail address
 * @WINNOW_PROTECT_PATH: a file path or file name, with its `:line:col` if it has one
 * @WINNOW_PROTECT_VERSION: `v1.2.3`, `22.1.0-rc.1`, `^1.2`, `>=3.8`
 * @WINNOW_PROTECT_DATE: ISO dates and times, `09:00:12`, `18 Apr 2026`, RFC 2822 dates
 * @WINNOW_PROTECT_NUMBER: `401`, `3.14`, `1,000`, `0x1F`, `10ms`, `85%`, `-3`
 * @WINNOW_PROTECT_IDENTIFIER: code names (`snake_case`, `camelCase`, `PascalCase`,
 *   `kebab-name`, `CONST_CASE`, `dotted.names`, `foo()`), `$VAR`, `--flag`, `#123`,
 *   `ABC-123`, `@scope/pkg`, hex hashes
 * @WINNOW_PROTECT_HEADING: a Markdown heading line (ATX, or setext text and underline)
 * @WINNOW_PROTECT_TABLE: a Markdown table
 * @WINNOW_PROTECT_COMMAND: a prompt line (`$ cmd`, `> npm test`, `user@host:~$ cmd`) or a shell
 *   command inside a sentence (`npm install --save-dev vitest`)
 * @WINNOW_PROTECT_BRANCH: a git branch: `feature/x`, `origin/main`, `main` after a branch word
 * @WINNOW_PROTECT_STRUCTURED: a JSON, YAML or TOML block, an XML document, rows of comma- or
 *   tab-separated values
 * @WINNOW_PROTECT_ERROR_LINE: a line reporting an error or a failure (or a compiler warning),
 *   with the source excerpt a compiler prints under it
 * @WINNOW_PROTECT_STACK_FRAME: stack trace lines of Python, Node, Java, Go, Rust, gdb and the
 *   sanitizers
 * @WINNOW_PROTECT_CODE: source code pasted without a fence, lines that read as a program (or
 *   a minified one), a tool's output: columns, log lines, a `--help` table, a unified diff
 *
 * What a protected span holds. Block kinds (fence, indented code, heading, table, command
 * lines, structured, error line, stack frame, code) cover whole lines without their final
 * newline.
 */
typedef enum
{
  WINNOW_PROTECT_FENCE,
  WINNOW_PROTECT_INDENTED_CODE,
  WINNOW_PROTECT_INLINE_CODE,
  WINNOW_PROTECT_URL,
  WINNOW_PROTECT_EMAIL,
  WINNOW_PROTECT_PATH,
  WINNOW_PROTECT_VERSION,
  WINNOW_PROTECT_DATE,
  WINNOW_PROTECT_NUMBER,
  WINNOW_PROTECT_IDENTIFIER,
  WINNOW_PROTECT_HEADING,
  WINNOW_PROTECT_TABLE,
  WINNOW_PROTECT_COMMAND,
  WINNOW_PROTECT_BRANCH,
  WINNOW_PROTECT_STRUCTURED,
  WINNOW_PROTECT_ERROR_LINE,
  WINNOW_PROTECT_STACK_FRAME,
  WINNOW_PROTECT_CODE,
} WinnowProtectKind;

#define WINNOW_PROTECT_N_KINDS (WINNOW_PROTECT_CODE + 1)

/**
 * WinnowProtectSpan:
 * @start: byte offset of the first protected byte
 * @end: byte offset just past the last protected byte
 * @kind: what the span holds (for a span merged from touching tokens: the first one's kind)
 */
typedef struct
{
  gsize             start;
  gsize             end;
  WinnowProtectKind kind;
} WinnowProtectSpan;

GQuark      winnow_protect_error_quark      (void);
GArray     *winnow_protect_scan             (const char         *text,
                                             gssize              length);
const char *winnow_protect_kind_to_string   (WinnowProtectKind   kind);
gboolean    winnow_protect_kind_from_string (const char         *str,
                                             WinnowProtectKind  *kind);
gboolean    winnow_protect_kind_is_block    (WinnowProtectKind   kind);
gboolean    winnow_protect_check            (const char         *original,
                                             gssize              original_length,
                                             const char         *compressed,
                                             gssize              compressed_length,
                                             GError            **error);

G_END_DECLS
