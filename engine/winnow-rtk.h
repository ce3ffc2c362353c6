/* winnow-rtk.h — the RTK stage runner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-filter.h"
#include "winnow-rtk-result.h"
#include "winnow-trace-stage.h"

G_BEGIN_DECLS

/**
 * WinnowRtkOptions:
 * @intensity: scales the filter's line limits
 * @engine_limits: after the filter, collapse repeated lines and apply the caps below (the
 *   verify gate runs filters without them, as their tests are written against the filter)
 * @max_lines_per_result: cap on output lines, 0 for none (settings `maxLinesPerResult`)
 * @max_chars_per_result: cap on output characters, 0 for none (`maxCharsPerResult`)
 * @dedup_threshold: runs of this many identical lines collapse (`deduplicateThreshold`, ≥ 2)
 */
typedef struct
{
  WinnowRtkIntensity intensity;
  gboolean           engine_limits;
  guint              max_lines_per_result;
  guint              max_chars_per_result;
  guint              dedup_threshold;
} WinnowRtkOptions;

void             winnow_rtk_options_init (WinnowRtkOptions       *options);
WinnowRtkResult *winnow_rtk_apply        (WinnowFilter           *filter,
                                          const char             *text,
                                          gssize                  length,
                                          const WinnowRtkOptions *options);
gboolean         winnow_rtk_is_marker    (const char             *line,
                                          gsize                   length);

G_END_DECLS
