/* winnow-event-queue.c — events recorded in batches, off the caller's thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `winnow serve` answers thousands of compressions a second, and recording each one as its
 * own SQLite transaction put a commit (a write to the write-ahead log, and now and then a
 * checkpoint with its fsync) on every request's path, all of them queueing on the store's
 * one connection. The queue takes that off the request: winnow_event_queue_push() copies the
 * event and returns at once, and one writer thread records whatever has piled up meanwhile in
 * a single transaction (group commit). Once an event comes, the writer lets others gather for
 * up to GATHER_US (unless someone flushes or the queue goes), so under load a commit carries
 * hundreds of events instead of the few that arrived during the previous commit.
 *
 * What it gives up: an event is in the database a moment after the request was answered, not
 * before. Whoever must read its own events (the analytics route, a test) calls
 * winnow_event_queue_flush() first. A process killed with events still queued loses them — at
 * most one batch of statistics, the same trade `synchronous=NORMAL` already makes. Disposing
 * of the queue writes everything pushed before it returns.
 *
 * A batch that fails as a whole (one invalid event, a database busy past its timeout) is
 * recorded event by event, so one bad event costs only itself; each failure is logged and
 * counted.
 */

#define G_LOG_DOMAIN "winnow-event-queue"

#include "config.h"

#include "winnow-event-queue.h"

/* one transaction holds at most this many events */
#define MAX_BATCH 512
/* how long the writer lets events gather once the first one came, unless someone waits */
#define GATHER_US (50 * G_TIME_SPAN_MILLISECOND)

struct _WinnowEventQueue
{
  GObject      parent_instance;

  WinnowStore *store;
  GThread     *writer;

  GMutex       lock;
  GCond        cond;      /* an event pushed, a batch written, or stopping */
  GPtrArray   *pending;   /* QueuedEvent */
  guint64      pushed;
  guint64      written;   /* recorded or failed */
  guint64      failed;
  guint        flushing;  /* callers waiting in winnow_event_queue_flush() */
  gboolean     idle;      /* the writer waits for a first event */
  gboolean     stopping;
};

G_DEFINE_FINAL_TYPE (WinnowEventQueue, winnow_event_queue, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STORE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* An event with copies of its strings: the caller's may be gone by the time it is written. */
typedef struct
{
  WinnowStoreEvent event;
} QueuedEvent;

static void
queued_event_free (gpointer data)
{
  QueuedEvent *queued = data;
  WinnowStoreEvent *e = &queued->event;

  g_free ((char *) e->source);
  g_free ((char *) e->command);
  g_free ((char *) e->project);
  g_free ((char *) e->output_type);
  g_free ((char *) e->filter_id);
  g_free ((char *) e->mode);
  g_free ((char *) e->intensity);
  g_free ((char *) e->counter);
  g_free ((char *) e->raw_output_id);
  g_free (queued);
}

static QueuedEvent *
queued_event_new (const WinnowStoreEvent *event)
{
  QueuedEvent *queued = g_new (QueuedEvent, 1);
  WinnowStoreEvent *e = &queued->event;

  *e = *event;
  if (e->time_us == 0)
    e->time_us = g_get_real_time ();   /* when it happened, not when it is written */
  e->source = g_strdup (event->source);
  e->command = g_strdup (event->command);
  e->project = g_strdup (event->project);
  e->output_type = g_strdup (event->output_type);
  e->filter_id = g_strdup (event->filter_id);
  e->mode = g_strdup (event->mode);
  e->intensity = g_strdup (event->intensity);
  e->counter = g_strdup (event->counter);
  e->raw_output_id = g_strdup (event->raw_output_id);
  return queued;
}

/* Returns how many of @batch could not be recorded. */
static guint
write_batch (WinnowStore *store,
             GPtrArray   *batch)
{
  g_autoptr(GArray) events = g_array_sized_new (FALSE, FALSE, sizeof (WinnowStoreEvent),
                                                MIN (batch->len, MAX_BATCH));
  guint failed = 0;

  for (guint start = 0; start < batch->len; start += MAX_BATCH)
    {
      guint n = MIN (batch->len - start, MAX_BATCH);
      g_autoptr(GError) error = NULL;

      g_array_set_size (events, 0);
      for (guint i = 0; i < n; i++)
        g_array_append_val (events, ((QueuedEvent *) batch->pdata[start + i])->event);

      if (winnow_store_record_many (store, (WinnowStoreEvent *) events->data, n, &error))
        continue;

      /* all or nothing failed: one at a time, so that only the bad ones are lost */
      g_debug ("a batch of %u events failed (%s); recording them one by one", n, error->message);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GError) one_error = NULL;

          if (!winnow_store_record (store, &g_array_index (events, WinnowStoreEvent, i), NULL,
                                    &one_error))
            {
              g_warning ("the event was not recorded: %s", one_error->message);
              failed++;
            }
        }
    }

  return failed;
}

static gpointer
writer_thread (gpointer data)
{
  WinnowEventQueue *self = data;

  g_mutex_lock (&self->lock);
  for (;;)
    {
      GPtrArray *batch;
      guint failed;

      gint64 deadline;

      self->idle = TRUE;
      while (self->pending->len == 0 && !self->stopping)
        g_cond_wait (&self->cond, &self->lock);
      self->idle = FALSE;
      if (self->pending->len == 0)
        break;

      /* let a burst gather into one transaction; nobody is kept waiting for it */
      deadline = g_get_monotonic_time () + GATHER_US;
      while (self->pending->len < MAX_BATCH && !self->stopping && self->flushing == 0)
        if (!g_cond_wait_until (&self->cond, &self->lock, deadline))
          break;

      batch = self->pending;
      self->pending = g_ptr_array_new_with_free_func (queued_event_free);
      g_mutex_unlock (&self->lock);

      failed = write_batch (self->store, batch);

      g_mutex_lock (&self->lock);
      self->written += batch->len;
      self->failed += failed;
      g_cond_broadcast (&self->cond);
      g_ptr_array_unref (batch);
    }
  g_mutex_unlock (&self->lock);

  return NULL;
}

static void
winnow_event_queue_constructed (GObject *object)
{
  WinnowEventQueue *self = (WinnowEventQueue *)object;

  G_OBJECT_CLASS (winnow_event_queue_parent_class)->constructed (object);

  g_assert (WINNOW_IS_STORE (self->store));
  self->writer = g_thread_new ("winnow-events", writer_thread, self);
}

/* everything pushed is written before the queue goes */
static void
winnow_event_queue_dispose (GObject *object)
{
  WinnowEventQueue *self = (WinnowEventQueue *)object;

  if (self->writer != NULL)
    {
      g_mutex_lock (&self->lock);
      self->stopping = TRUE;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      g_thread_join (g_steal_pointer (&self->writer));
    }

  G_OBJECT_CLASS (winnow_event_queue_parent_class)->dispose (object);
}

static void
winnow_event_queue_finalize (GObject *object)
{
  WinnowEventQueue *self = (WinnowEventQueue *)object;

  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_object (&self->store);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (winnow_event_queue_parent_class)->finalize (object);
}

static void
winnow_event_queue_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WinnowEventQueue *self = WINNOW_EVENT_QUEUE (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_event_queue_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  WinnowEventQueue *self = WINNOW_EVENT_QUEUE (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_event_queue_class_init (WinnowEventQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = winnow_event_queue_constructed;
  object_class->dispose = winnow_event_queue_dispose;
  object_class->finalize = winnow_event_queue_finalize;
  object_class->get_property = winnow_event_queue_get_property;
  object_class->set_property = winnow_event_queue_set_property;

  properties [PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL,
                         WINNOW_TYPE_STORE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_event_queue_init (WinnowEventQueue *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->pending = g_ptr_array_new_with_free_func (queued_event_free);
}

/**
 * winnow_event_queue_new:
 * @store: the database the events go to
 *
 * Returns: (transfer full): a queue with its writer thread running
 */
WinnowEventQueue *
winnow_event_queue_new (WinnowStore *store)
{
  g_return_val_if_fail (WINNOW_IS_STORE (store), NULL);

  return g_object_new (WINNOW_TYPE_EVENT_QUEUE, "store", store, NULL);
}

WinnowStore *
winnow_event_queue_get_store (WinnowEventQueue *self)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_QUEUE (self), NULL);
  return self->store;
}

/**
 * winnow_event_queue_push:
 * @self: a #WinnowEventQueue
 * @event: the event; its strings are copied
 *
 * Queues @event for the writer thread and returns at once. An event without a time gets the
 * current one here, not when it is written.
 *
 * The writer is woken only when it has something to do: by the first event after it went
 * idle, and by the one that fills a batch. Waking it on every push, as at first, cost every
 * request a futex call and the writer a pointless trip round its gathering wait.
 */
void
winnow_event_queue_push (WinnowEventQueue       *self,
                         const WinnowStoreEvent *event)
{
  QueuedEvent *queued;

  g_return_if_fail (WINNOW_IS_EVENT_QUEUE (self));
  g_return_if_fail (event != NULL);

  queued = queued_event_new (event);
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->pending, queued);
  self->pushed++;
  if (self->idle || self->pending->len == MAX_BATCH)
    g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/**
 * winnow_event_queue_flush:
 * @self: a #WinnowEventQueue
 *
 * Waits until every event pushed before the call is written (or failed).
 */
void
winnow_event_queue_flush (WinnowEventQueue *self)
{
  guint64 target;

  g_return_if_fail (WINNOW_IS_EVENT_QUEUE (self));

  g_mutex_lock (&self->lock);
  target = self->pushed;
  self->flushing++;
  g_cond_broadcast (&self->cond);
  while (self->written < target)
    g_cond_wait (&self->cond, &self->lock);
  self->flushing--;
  g_mutex_unlock (&self->lock);
}

/**
 * winnow_event_queue_get_failed:
 * @self: a #WinnowEventQueue
 *
 * Returns: how many events could not be recorded so far
 */
guint64
winnow_event_queue_get_failed (WinnowEventQueue *self)
{
  guint64 failed;

  g_return_val_if_fail (WINNOW_IS_EVENT_QUEUE (self), 0);

  g_mutex_lock (&self->lock);
  failed = self->failed;
  g_mutex_unlock (&self->lock);
  return failed;
}
