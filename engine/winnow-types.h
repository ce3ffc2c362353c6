/* winnow-types.h — forward declarations and the small enums shared across libwinnow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _WinnowCatalog       WinnowCatalog;
typedef struct _WinnowCompression   WinnowCompression;
typedef struct _WinnowConfig        WinnowConfig;
typedef struct _WinnowContext       WinnowContext;
typedef struct _WinnowDetection     WinnowDetection;
typedef struct _WinnowDetector      WinnowDetector;
typedef struct _WinnowDiagnostic    WinnowDiagnostic;
typedef struct _WinnowFilter        WinnowFilter;
typedef struct _WinnowFilterTest    WinnowFilterTest;
typedef struct _WinnowRegex         WinnowRegex;
typedef struct _WinnowRule          WinnowRule;
typedef struct _WinnowRulePack      WinnowRulePack;
typedef struct _WinnowRuleSet       WinnowRuleSet;
typedef struct _WinnowRuleTest      WinnowRuleTest;
typedef struct _WinnowRtkResult     WinnowRtkResult;
typedef struct _WinnowTraceStage    WinnowTraceStage;
typedef struct _WinnowVerifyReport  WinnowVerifyReport;
typedef struct _WinnowTestOutcome   WinnowTestOutcome;

/**
 * WinnowRtkIntensity:
 * @WINNOW_RTK_INTENSITY_MINIMAL: filter limits doubled, no engine-level deduplication
 * @WINNOW_RTK_INTENSITY_STANDARD: the filter as written
 * @WINNOW_RTK_INTENSITY_AGGRESSIVE: filter limits halved, engine caps tighter
 */
typedef enum
{
  WINNOW_RTK_INTENSITY_MINIMAL,
  WINNOW_RTK_INTENSITY_STANDARD,
  WINNOW_RTK_INTENSITY_AGGRESSIVE,
} WinnowRtkIntensity;

const char *winnow_rtk_intensity_to_string   (WinnowRtkIntensity  intensity);
gboolean    winnow_rtk_intensity_from_string (const char         *str,
                                              WinnowRtkIntensity *intensity);

/**
 * WinnowCavemanIntensity:
 * @WINNOW_CAVEMAN_INTENSITY_LITE: pleasantries, hedges and filler phrases only
 * @WINNOW_CAVEMAN_INTENSITY_FULL: also articles, redundant structure and terse phrasing
 * @WINNOW_CAVEMAN_INTENSITY_ULTRA: also abbreviations and the tersest forms
 *
 * How hard the prose engine compresses; each level includes the rules of the levels below.
 */
typedef enum
{
  WINNOW_CAVEMAN_INTENSITY_LITE,
  WINNOW_CAVEMAN_INTENSITY_FULL,
  WINNOW_CAVEMAN_INTENSITY_ULTRA,
} WinnowCavemanIntensity;

const char *winnow_caveman_intensity_to_string   (WinnowCavemanIntensity  intensity);
gboolean    winnow_caveman_intensity_from_string (const char             *str,
                                                  WinnowCavemanIntensity *intensity);

/**
 * WinnowMessageRole:
 * @WINNOW_MESSAGE_ROLE_SYSTEM: instructions to the model
 * @WINNOW_MESSAGE_ROLE_USER: what the person wrote
 * @WINNOW_MESSAGE_ROLE_ASSISTANT: what the model wrote
 * @WINNOW_MESSAGE_ROLE_TOOL: a tool result (command output, file contents…)
 */
typedef enum
{
  WINNOW_MESSAGE_ROLE_SYSTEM,
  WINNOW_MESSAGE_ROLE_USER,
  WINNOW_MESSAGE_ROLE_ASSISTANT,
  WINNOW_MESSAGE_ROLE_TOOL,
} WinnowMessageRole;

const char *winnow_message_role_to_string   (WinnowMessageRole  role);
gboolean    winnow_message_role_from_string (const char        *str,
                                             WinnowMessageRole *role);

/**
 * WinnowFilterSource:
 * Where a filter came from, lowest precedence first.
 */
typedef enum
{
  WINNOW_FILTER_SOURCE_BUILTIN,
  WINNOW_FILTER_SOURCE_GLOBAL,
  WINNOW_FILTER_SOURCE_PROJECT,
  WINNOW_FILTER_SOURCE_FILE,
} WinnowFilterSource;

const char *winnow_filter_source_to_string (WinnowFilterSource source);

G_END_DECLS
