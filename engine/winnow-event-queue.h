/* winnow-event-queue.h — events recorded in batches, off the caller's thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "winnow-store.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_EVENT_QUEUE (winnow_event_queue_get_type ())

G_DECLARE_FINAL_TYPE (WinnowEventQueue, winnow_event_queue, WINNOW, EVENT_QUEUE, GObject)

WinnowEventQueue *winnow_event_queue_new        (WinnowStore            *store);
WinnowStore      *winnow_event_queue_get_store  (WinnowEventQueue       *self);
void              winnow_event_queue_push       (WinnowEventQueue       *self,
                                                 const WinnowStoreEvent *event);
void              winnow_event_queue_flush      (WinnowEventQueue       *self);
guint64           winnow_event_queue_get_failed (WinnowEventQueue       *self);

G_END_DECLS
