/* winnow-detector.h — classifying command output into output types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-detection.h"
#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_DETECTOR (winnow_detector_get_type ())

G_DECLARE_FINAL_TYPE (WinnowDetector, winnow_detector, WINNOW, DETECTOR, GObject)

WinnowDetector  *winnow_detector_new                  (void);
WinnowDetection *winnow_detector_detect               (WinnowDetector *self,
                                                       const char     *text,
                                                       gssize          length,
                                                       const char     *command);
GStrv            winnow_detector_dup_output_types     (void);
gboolean         winnow_detector_knows_output_type    (const char     *output_type);
const char      *winnow_detector_get_type_category    (const char     *output_type);
const char      *winnow_detector_get_type_description (const char     *output_type);

G_END_DECLS
