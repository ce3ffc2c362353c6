/* winnow.h — the public API of libwinnow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-types.h"
#include "winnow-error.h"
#include "winnow-regex.h"
#include "winnow-diagnostic.h"
#include "winnow-filter.h"
#include "winnow-filter-pack.h"
#include "winnow-trace-stage.h"
#include "winnow-rtk-result.h"
#include "winnow-rtk.h"
#include "winnow-command.h"
#include "winnow-config.h"
#include "winnow-detection.h"
#include "winnow-detector.h"
#include "winnow-trust.h"
#include "winnow-catalog.h"
#include "winnow-compression.h"
#include "winnow-context.h"
#include "winnow-diff.h"
#include "winnow-protect.h"
#include "winnow-test-outcome.h"
#include "winnow-tokens.h"
#include "winnow-verify-report.h"
