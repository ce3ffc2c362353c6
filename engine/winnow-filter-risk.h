/* winnow-filter-risk.h — what in a valid filter could hurt the person who trusts it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "winnow-types.h"

G_BEGIN_DECLS

GPtrArray *winnow_filter_assess_risks (WinnowFilter *filter);

G_END_DECLS
