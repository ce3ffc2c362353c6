/* winnow-trace-strip.h — the stages of an RTK run, as a strip of cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TRACE_STRIP (winnow_trace_strip_get_type ())

G_DECLARE_FINAL_TYPE (WinnowTraceStrip, winnow_trace_strip, WINNOW, TRACE_STRIP, GtkWidget)

GtkWidget        *winnow_trace_strip_new                (void);
GListModel       *winnow_trace_strip_get_stages         (WinnowTraceStrip *self);
void              winnow_trace_strip_set_stages         (WinnowTraceStrip *self,
                                                         GListModel       *stages);
WinnowTraceStage *winnow_trace_strip_get_selected_stage (WinnowTraceStrip *self);
void              winnow_trace_strip_select             (WinnowTraceStrip *self,
                                                         guint             position);

G_END_DECLS
