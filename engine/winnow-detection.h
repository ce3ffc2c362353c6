/* winnow-detection.h — what kind of output something is, and how sure we are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_DETECTION (winnow_detection_get_type ())

G_DECLARE_FINAL_TYPE (WinnowDetection, winnow_detection, WINNOW, DETECTION, GObject)

const char *winnow_detection_get_output_type     (WinnowDetection *self);
const char *winnow_detection_get_category        (WinnowDetection *self);
double      winnow_detection_get_confidence      (WinnowDetection *self);
const char *winnow_detection_get_command         (WinnowDetection *self);
gboolean    winnow_detection_get_command_matched (WinnowDetection *self);
const char *winnow_detection_get_evidence        (WinnowDetection *self);
gboolean    winnow_detection_get_has_errors      (WinnowDetection *self);
gboolean    winnow_detection_get_passthrough     (WinnowDetection *self);

WinnowDetection *_winnow_detection_new           (const char      *output_type,
                                                  const char      *category,
                                                  double           confidence,
                                                  const char      *command,
                                                  gboolean         command_matched,
                                                  const char      *evidence,
                                                  gboolean         has_errors,
                                                  gboolean         passthrough);

G_END_DECLS
