/* winnow-regex.h — JavaScript regular expressions on PCRE2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowRegexFlags:
 * @WINNOW_REGEX_DEFAULT: interpret the pattern only
 * @WINNOW_REGEX_OPTIMIZE: JIT-compile the pattern now, and answer without PCRE2 when the
 *   subject lacks the literal prefix or suffix every match has; worth it for patterns run on
 *   every line
 * @WINNOW_REGEX_ADAPTIVE: interpret the pattern at first and JIT-compile it once it has been
 *   used a few times: cheap for a one-shot CLI call, fast in a long-running process
 */
typedef enum
{
  WINNOW_REGEX_DEFAULT  = 0,
  WINNOW_REGEX_OPTIMIZE = 1 << 0,
  WINNOW_REGEX_ADAPTIVE = 1 << 1,
} WinnowRegexFlags;

/**
 * WinnowRegexResult:
 * @WINNOW_REGEX_NO_MATCH: the pattern does not match
 * @WINNOW_REGEX_MATCH: the pattern matches
 * @WINNOW_REGEX_BUDGET_EXCEEDED: matching gave up after its work budget (catastrophic
 *   backtracking); callers treat it as no match and report it
 */
typedef enum
{
  WINNOW_REGEX_NO_MATCH        = 0,
  WINNOW_REGEX_MATCH           = 1,
  WINNOW_REGEX_BUDGET_EXCEEDED = 2,
} WinnowRegexResult;

/**
 * WinnowRegexMatch:
 * @subject: the text searched
 * @length: its length in bytes
 * @offsets: start and end byte offsets of the whole match (0, 1) and of each group (2n, 2n+1);
 *   an unset group has `(gsize) -1`
 * @n_pairs: how many start/end pairs @offsets holds
 *
 * One match, as seen by a #WinnowRegexReplaceFunc.
 */
typedef struct
{
  const char  *subject;
  gsize        length;
  const gsize *offsets;
  guint        n_pairs;
} WinnowRegexMatch;

typedef gboolean (*WinnowRegexReplaceFunc) (WinnowRegex            *regex,
                                            const WinnowRegexMatch *match,
                                            GString                *out,
                                            gpointer                user_data);

#define WINNOW_TYPE_REGEX (winnow_regex_get_type ())

GType             winnow_regex_get_type           (void) G_GNUC_CONST;
WinnowRegex      *winnow_regex_new                (const char        *source,
                                                   const char        *js_flags,
                                                   WinnowRegexFlags   flags,
                                                   GError           **error);
WinnowRegex      *winnow_regex_ref                (WinnowRegex       *self);
void              winnow_regex_unref              (WinnowRegex       *self);
const char       *winnow_regex_get_source         (WinnowRegex       *self);
const char       *winnow_regex_get_js_flags       (WinnowRegex       *self);
const char       *winnow_regex_get_pcre_pattern   (WinnowRegex       *self);
guint             winnow_regex_get_capture_count  (WinnowRegex       *self);
gboolean          winnow_regex_is_global          (WinnowRegex       *self);
WinnowRegexResult winnow_regex_test               (WinnowRegex       *self,
                                                   const char        *subject,
                                                   gsize              length);
gboolean          winnow_regex_matches            (WinnowRegex       *self,
                                                   const char        *subject);
char             *winnow_regex_replace            (WinnowRegex       *self,
                                                   const char        *subject,
                                                   gsize              length,
                                                   const char        *js_replacement,
                                                   guint             *n_replaced);
char             *winnow_regex_replace_func       (WinnowRegex       *self,
                                                   const char        *subject,
                                                   gsize              length,
                                                   WinnowRegexReplaceFunc func,
                                                   gpointer           user_data,
                                                   guint             *n_replaced,
                                                   WinnowRegexResult *status);
void              winnow_regex_match_expand       (WinnowRegex       *self,
                                                   const WinnowRegexMatch *match,
                                                   const char        *js_replacement,
                                                   GString           *out);
char             *winnow_regex_translate          (const char        *source,
                                                   const char        *js_flags,
                                                   GError           **error);

/* for the stage runner's per-list dispatch (winnow-rtk-run.c) */
void              _winnow_regex_subject_starts    (WinnowRegex       *self,
                                                   guint64            starts[4],
                                                   gboolean          *empty);
gboolean          _winnow_regex_might_match       (WinnowRegex       *self,
                                                   const char        *subject,
                                                   gsize              length);
WinnowRegexResult _winnow_regex_test_unchecked    (WinnowRegex       *self,
                                                   const char        *subject,
                                                   gsize              length);
/* for Caveman, which runs every rule over a whole message (winnow-caveman.c) */
typedef struct _WinnowGramIndex WinnowGramIndex;
gboolean          _winnow_regex_might_occur_in    (WinnowRegex       *self,
                                                   const WinnowGramIndex *grams);
gboolean          _winnow_regex_trim_length       (WinnowRegex       *self,
                                                   const char        *js_replacement,
                                                   const char        *subject,
                                                   gsize              length,
                                                   gsize             *length_out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowRegex, winnow_regex_unref)

G_END_DECLS
