/* winnow-filter.h — one RTK filter: how to recognise and compress a family of command output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowFilterParseFlags:
 * @WINNOW_FILTER_PARSE_DEFAULT: validate everything, compile every regex now
 * @WINNOW_FILTER_PARSE_LAZY_REGEX: check types and shape only; compile regexes on first use.
 *   For built-in filters, which the build already validated.
 */
typedef enum
{
  WINNOW_FILTER_PARSE_DEFAULT    = 0,
  WINNOW_FILTER_PARSE_LAZY_REGEX = 1 << 0,
} WinnowFilterParseFlags;

#define WINNOW_TYPE_FILTER_TEST (winnow_filter_test_get_type ())

/**
 * WinnowFilterTest:
 * @name: what the sample shows
 * @command: (nullable): the command that produced @input
 * @input: raw output
 * @expected: what the filter must turn @input into
 *
 * One inline `tests[]` sample. Immutable once part of a filter.
 */
struct _WinnowFilterTest
{
  char *name;
  char *command;
  char *input;
  char *expected;
};

GType             winnow_filter_test_get_type (void) G_GNUC_CONST;
WinnowFilterTest *winnow_filter_test_new      (const char       *name,
                                               const char       *command,
                                               const char       *input,
                                               const char       *expected);
WinnowFilterTest *winnow_filter_test_copy     (const WinnowFilterTest *test);
void              winnow_filter_test_free     (WinnowFilterTest *test);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowFilterTest, winnow_filter_test_free)

#define WINNOW_TYPE_FILTER (winnow_filter_get_type ())

G_DECLARE_FINAL_TYPE (WinnowFilter, winnow_filter, WINNOW, FILTER, GObject)

WinnowFilter       *winnow_filter_new_from_json          (JsonNode               *node,
                                                          WinnowFilterSource      source,
                                                          const char             *file,
                                                          const char             *json_path,
                                                          WinnowFilterParseFlags  flags,
                                                          GPtrArray              *diagnostics);
const char         *winnow_filter_get_id                 (WinnowFilter           *self);
const char         *winnow_filter_get_label              (WinnowFilter           *self);
const char         *winnow_filter_get_description        (WinnowFilter           *self);
const char         *winnow_filter_get_category           (WinnowFilter           *self);
int                 winnow_filter_get_priority           (WinnowFilter           *self);
WinnowFilterSource  winnow_filter_get_source             (WinnowFilter           *self);
const char         *winnow_filter_get_file               (WinnowFilter           *self);
gboolean            winnow_filter_is_legacy              (WinnowFilter           *self);

const char * const *winnow_filter_get_output_types       (WinnowFilter           *self);
const char * const *winnow_filter_get_command_patterns   (WinnowFilter           *self);
const char * const *winnow_filter_get_text_patterns      (WinnowFilter           *self);

gboolean            winnow_filter_get_strip_ansi         (WinnowFilter           *self);
gboolean            winnow_filter_get_filter_stderr      (WinnowFilter           *self);
guint               winnow_filter_get_n_replace_rules    (WinnowFilter           *self);
void                winnow_filter_get_replace_rule       (WinnowFilter           *self,
                                                          guint                   index,
                                                          const char            **pattern,
                                                          const char            **replacement);
guint               winnow_filter_get_n_match_output_rules (WinnowFilter         *self);
void                winnow_filter_get_match_output_rule  (WinnowFilter           *self,
                                                          guint                   index,
                                                          const char            **pattern,
                                                          const char            **message,
                                                          const char            **unless);
const char * const *winnow_filter_get_drop_patterns      (WinnowFilter           *self);
const char * const *winnow_filter_get_include_patterns   (WinnowFilter           *self);
const char * const *winnow_filter_get_collapse_patterns  (WinnowFilter           *self);
guint               winnow_filter_get_truncate_line_at   (WinnowFilter           *self);
gboolean            winnow_filter_get_deduplicate        (WinnowFilter           *self);
guint               winnow_filter_get_max_lines          (WinnowFilter           *self);
guint               winnow_filter_get_head_lines         (WinnowFilter           *self);
guint               winnow_filter_get_tail_lines         (WinnowFilter           *self);
const char         *winnow_filter_get_on_empty           (WinnowFilter           *self);
const char * const *winnow_filter_get_error_patterns     (WinnowFilter           *self);
const char * const *winnow_filter_get_summary_patterns   (WinnowFilter           *self);

guint               winnow_filter_get_n_tests            (WinnowFilter           *self);
const WinnowFilterTest *winnow_filter_get_test           (WinnowFilter           *self,
                                                          guint                   index);

gboolean            winnow_filter_matches_command        (WinnowFilter           *self,
                                                          const char             *command);
guint               winnow_filter_count_text_pattern_hits (WinnowFilter          *self,
                                                          const char             *text,
                                                          gsize                   length);
gboolean            winnow_filter_prepare                (WinnowFilter           *self,
                                                          GError                **error);

JsonNode           *winnow_filter_to_json_node           (WinnowFilter           *self);
char               *winnow_filter_to_json                (WinnowFilter           *self);
const char         *winnow_filter_pattern_flags          (const char             *member);

G_END_DECLS
