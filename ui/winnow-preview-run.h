/* winnow-preview-run.h — one recompute of the preview, off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow.h"

G_BEGIN_DECLS

void                  winnow_preview_run_async  (WinnowPipeline       *pipeline,
                                                 const char           *text,
                                                 const char           *command,
                                                 WinnowPipelineMode    mode,
                                                 WinnowRtkIntensity   rtk_intensity,
                                                 WinnowCavemanIntensity caveman_intensity,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
WinnowPipelineResult *winnow_preview_run_finish (GAsyncResult         *result,
                                                 WinnowLineMap       **line_map,
                                                 GError              **error);

G_END_DECLS
