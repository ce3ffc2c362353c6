/* winnow-detector-private.h — engine-internal entry points of the detector
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-detector.h"

G_BEGIN_DECLS

WinnowDetection *_winnow_detector_detect_utf8 (WinnowDetector *self,
                                               const char     *text,
                                               gsize           length,
                                               const char     *command);

G_END_DECLS
