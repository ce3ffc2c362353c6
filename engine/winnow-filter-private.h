/* winnow-filter-private.h — the compiled form of a filter, for the stage runner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-filter.h"
#include "winnow-regex.h"

G_BEGIN_DECLS

/* A compiled pattern and where it came from, so the trace can say which rule fired. */
typedef struct
{
  WinnowRegex *regex;
  char        *path;     /* e.g. "rules.dropPatterns[3]" */
} WinnowPattern;

typedef struct
{
  WinnowPattern  pattern;
  char          *replacement;
} WinnowReplaceStep;

typedef struct
{
  WinnowPattern  pattern;
  WinnowPattern  unless;   /* .regex is NULL when there is no guard */
  char          *message;
} WinnowShortcut;

typedef struct
{
  WinnowReplaceStep *replace;
  guint              n_replace;
  WinnowShortcut    *shortcuts;
  guint              n_shortcuts;
  WinnowPattern     *drop;
  guint              n_drop;
  WinnowPattern     *include;
  guint              n_include;
  WinnowPattern     *collapse;
  guint              n_collapse;
  WinnowPattern     *preserve;   /* errorPatterns then summaryPatterns */
  guint              n_preserve;
  guint              n_error;    /* how many of preserve[] are errorPatterns */
} WinnowFilterProgram;

const WinnowFilterProgram *_winnow_filter_get_program        (WinnowFilter *self);
void                       _winnow_filter_set_tests_resource (WinnowFilter *self,
                                                              const char   *resource_path);

/* Line patterns (drop/include/collapse/preserve) are case-insensitive; replace is global and
 * case-sensitive; whole-text patterns are case-insensitive and multi-line. */
#define WINNOW_LINE_FLAGS    "i"
#define WINNOW_REPLACE_FLAGS "g"
#define WINNOW_TEXT_FLAGS    "im"

G_END_DECLS
