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
