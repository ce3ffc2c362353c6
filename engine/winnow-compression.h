/* winnow-compression.h — one output compressed end to end, with its receipt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-catalog.h"
#include "winnow-detection.h"
#include "winnow-rtk-result.h"
#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_COMPRESSION (winnow_compression_get_type ())

G_DECLARE_FINAL_TYPE (WinnowCompression, winnow_compression, WINNOW, COMPRESSION, GObject)

const char       *winnow_compression_get_text          (WinnowCompression *self,
                                                        gsize             *length);
WinnowDetection  *winnow_compression_get_detection     (WinnowCompression *self);
WinnowSelection   winnow_compression_get_selection     (WinnowCompression *self);
WinnowFilter     *winnow_compression_get_filter        (WinnowCompression *self);
WinnowRtkResult  *winnow_compression_get_rtk_result    (WinnowCompression *self);
gboolean          winnow_compression_get_compressed    (WinnowCompression *self);
gsize             winnow_compression_get_tokens_before (WinnowCompression *self);
gsize             winnow_compression_get_tokens_after  (WinnowCompression *self);
double            winnow_compression_get_saved_ratio   (WinnowCompression *self);
gint64            winnow_compression_get_duration_us   (WinnowCompression *self);

WinnowCompression *_winnow_compression_new             (WinnowDetection   *detection,
                                                        WinnowSelection    selection,
                                                        WinnowFilter      *filter,
                                                        WinnowRtkResult   *result,
                                                        char              *input,
                                                        gsize              input_length,
                                                        gint64             duration_us);

G_END_DECLS
