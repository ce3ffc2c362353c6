/* winnow-filter-private.h — the compiled form of a filter, for the stage runner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-filter.h"
#include "winnow-literals.h"
#include "winnow-regex.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A compiled pattern and where it came from, so the trace can say which rule fired. */
typedef struct
{
  WinnowRegex   *regex;
  char          *path;        /* e.g. "rules.dropPatterns[3]" */
  WinnowBigrams *literals;    /* a match contains one of these literals (winnow-literals.c) */
  guint          n_literals;  /* 0: no such literal is known, always run the regex */
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

/* The filter's fields, shared by winnow-filter.c (the object), winnow-filter-json.c (parsing
 * and writing) and winnow-filter-program.c (compiled patterns). Outside those three files a
 * filter is only reached through its public getters. */
#define WINNOW_FILTER_DEFAULT_PRIORITY   50
#define WINNOW_FILTER_DEFAULT_HEAD_LINES 20
#define WINNOW_FILTER_DEFAULT_TAIL_LINES 20

typedef struct
{
  char *pattern;
  char *replacement;
} WinnowReplaceRule;

typedef struct
{
  char *pattern;
  char *message;
  char *unless;
} WinnowMatchOutputRule;

struct _WinnowFilter
{
  GObject              parent_instance;

  char                *id;
  char                *label;
  char                *description;
  char                *category;
  int                  priority;
  WinnowFilterSource   source;
  char                *file;

  GStrv                output_types;
  GStrv                commands;
  GStrv                patterns;

  GArray              *replace;        /* WinnowReplaceRule */
  GArray              *match_output;   /* WinnowMatchOutputRule */
  GStrv                drop;
  GStrv                include;
  GStrv                collapse;
  guint                truncate_line_at;
  guint                max_lines;
  guint                head_lines;
  guint                tail_lines;
  char                *on_empty;
  GStrv                error_patterns;
  GStrv                summary_patterns;

  /* id, label, description, category, output_types, commands and patterns point into the
   * compiled-in index, not freed: a built-in's are constant for the life of the process */
  guint                static_header : 1;
  const char          *body_json;      /* a built-in's whole definition, read on demand */
  gsize                body_loaded;    /* g_once_init */

  GPtrArray           *tests;          /* WinnowFilterTest */
  char                *tests_resource; /* where the tests are, when read lazily */
  gsize                tests_loaded;   /* g_once_init */

  /* unknown members, written back as they were */
  JsonObject          *extra;
  JsonObject          *extra_match;
  JsonObject          *extra_rules;
  JsonObject          *extra_preserve;

  WinnowFilterProgram *program;
  WinnowPattern       *command_regexes;
  WinnowPattern       *text_regexes;

  guint                strip_ansi : 1;
  guint                filter_stderr : 1;
  guint                deduplicate : 1;
  guint                has_head_lines : 1;
  guint                has_tail_lines : 1;
  guint                legacy : 1;
};

static inline const char * const *
_winnow_strv_or_empty (GStrv strv)
{
  static const char * const empty[] = { NULL };

  return strv ? (const char * const *) strv : empty;
}

void                       _winnow_replace_rule_clear        (gpointer      data);
void                       _winnow_match_output_rule_clear   (gpointer      data);
void                       _winnow_filter_program_free       (WinnowFilterProgram *program);
void                       _winnow_filter_selector_free      (WinnowPattern *patterns);
void                       _winnow_filter_ensure_tests       (WinnowFilter *self);
void                       _winnow_filter_load_tests         (WinnowFilter *self);
const WinnowFilterProgram *_winnow_filter_get_program        (WinnowFilter *self);
void                       _winnow_filter_set_tests_resource (WinnowFilter *self,
                                                              const char   *resource_path);
void                       _winnow_filter_ensure_body        (WinnowFilter *self);

/* One built-in filter as compiled into libwinnow by filters/compact.py: what every
 * selection looks at, ready to use, and the rest as JSON text read when first needed. */
typedef struct
{
  const char         *file;          /* its file in filters/, e.g. "apt.json" */
  const char         *json_path;     /* "[2]" in an array pack, else NULL */
  const char         *id;
  const char         *label;
  const char         *description;   /* nullable */
  const char         *category;
  int                 priority;
  const char * const *output_types;  /* nullable, as absent members are */
  const char * const *commands;
  const char * const *patterns;
  const char         *body;          /* the whole filter without its tests, as JSON */
} WinnowBuiltinFilter;

WinnowFilter              *_winnow_filter_new_builtin        (const WinnowBuiltinFilter *entry,
                                                              const char   *file_label);

/* Line patterns (drop/include/collapse/preserve) are case-insensitive; replace is global and
 * case-sensitive; whole-text patterns are case-insensitive and multi-line. */
#define WINNOW_LINE_FLAGS    "i"
#define WINNOW_REPLACE_FLAGS "g"
#define WINNOW_TEXT_FLAGS    "im"

G_END_DECLS
