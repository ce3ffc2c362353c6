/* winnow-output-types.h — the output types Winnow recognises
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WINNOW_MAX_TYPE_PATTERNS 12
#define WINNOW_MAX_WRAPPED        4

typedef enum
{
  /* file contents or prose: compressing it would lose meaning, so it passes through */
  WINNOW_OUTPUT_TYPE_PASSTHROUGH = 1 << 0,
  /* the generic fallbacks: chosen only when nothing more specific fits */
  WINNOW_OUTPUT_TYPE_FALLBACK    = 1 << 1,
} WinnowOutputTypeFlags;

/*
 * One output type. Command patterns are JavaScript regex source matched case-insensitively
 * against the normalised command (see winnow_command_normalize()); "strong" ones name the tool
 * itself, "weak" ones are generic runners (`npm test`, `make check`) that only hint at it.
 * Content patterns are matched multi-line against the start and end of the output.
 */
typedef struct
{
  const char            *id;
  const char            *category;
  const char            *description;
  const char            *commands[WINNOW_MAX_TYPE_PATTERNS];
  const char            *weak_commands[WINNOW_MAX_TYPE_PATTERNS];
  const char            *content[WINNOW_MAX_TYPE_PATTERNS];
  WinnowOutputTypeFlags  flags;
  /* types whose output this one's output contains (make prints gcc's diagnostics, go test
   * prints panics): with no command, a hit of this type's own patterns beats the wrapped
   * type's, whose lines are only part of the story */
  const char            *wraps[WINNOW_MAX_WRAPPED];
} WinnowOutputType;

const WinnowOutputType *_winnow_output_types_get    (guint      *n_types);
const WinnowOutputType *_winnow_output_types_lookup (const char *id);

G_END_DECLS
