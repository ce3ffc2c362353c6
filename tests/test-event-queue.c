/* test-event-queue.c — events recorded in batches on a writer thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

#define THREADS     4
#define PER_THREAD  500

typedef struct
{
  char        *dir;
  char        *path;
  WinnowStore *store;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("winnow-event-queue-XXXXXX", NULL);
  f->path = winnow_store_default_path (f->dir);
  f->store = winnow_store_open (f->path, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->store);
  test_util_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

/* the strings live on the caller's stack and are gone before the event is written */
static void
push_event (WinnowEventQueue *queue,
            const char       *source,
            guint             n)
{
  char command[32];
  char project[32];
  WinnowStoreEvent event;

  g_snprintf (command, sizeof command, "make target%u", n % 7);
  g_snprintf (project, sizeof project, "/src/p%u", n % 3);
  winnow_store_event_init (&event, source);
  event.command = command;
  event.project = project;
  event.bytes_before = 1000;
  event.bytes_after = 100;
  event.tokens_before = 300;
  event.tokens_after = 30;
  winnow_event_queue_push (queue, &event);
  memset (command, 'x', sizeof command - 1);
  memset (project, 'y', sizeof project - 1);
}

static gpointer
pusher (gpointer data)
{
  WinnowEventQueue *queue = data;

  for (guint i = 0; i < PER_THREAD; i++)
    push_event (queue, "api", i);
  return NULL;
}

/* Many threads push at once; after a flush every event is there, with its own strings. */
static void
test_many_threads (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(WinnowEventQueue) queue = winnow_event_queue_new (f->store);
  g_autoptr(GPtrArray) commands = NULL;
  g_autoptr(GError) error = NULL;
  GThread *threads[THREADS];
  guint64 sum = 0;

  for (guint i = 0; i < THREADS; i++)
    threads[i] = g_thread_new ("pusher", pusher, queue);
  for (guint i = 0; i < THREADS; i++)
    g_thread_join (threads[i]);
  winnow_event_queue_flush (queue);

  g_assert_cmpint (winnow_store_count_events (f->store, &error), ==, THREADS * PER_THREAD);
  g_assert_no_error (error);
  g_assert_cmpuint (winnow_event_queue_get_failed (queue), ==, 0);

  commands = winnow_store_query (f->store, WINNOW_STORE_GROUP_COMMAND, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (commands->len, ==, 7);
  for (guint i = 0; i < commands->len; i++)
    {
      WinnowSavingsRow *row = g_ptr_array_index (commands, i);

      g_assert_true (g_str_has_prefix (row->key, "make target"));
      sum += row->events;
    }
  g_assert_cmpuint (sum, ==, THREADS * PER_THREAD);
}

/* One bad event in a batch costs only itself. */
static void
test_bad_event (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(WinnowEventQueue) queue = winnow_event_queue_new (f->store);
  g_autoptr(GError) error = NULL;

  /* queued while the writer is busy with nothing: they land in one batch or a few */
  g_test_expect_message ("winnow-event-queue", G_LOG_LEVEL_WARNING,
                         "*the event was not recorded*not an event source*");
  for (guint i = 0; i < 50; i++)
    push_event (queue, i == 25 ? "bogus" : "cli", i);
  winnow_event_queue_flush (queue);
  g_test_assert_expected_messages ();

  g_assert_cmpuint (winnow_event_queue_get_failed (queue), ==, 1);
  g_assert_cmpint (winnow_store_count_events (f->store, &error), ==, 49);
}

/* Letting the queue go writes what is still queued. */
static void
test_dispose_writes (Fixture       *f,
                     gconstpointer  data)
{
  WinnowEventQueue *queue = winnow_event_queue_new (f->store);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 300; i++)
    push_event (queue, "run", i);
  g_assert_finalize_object (queue);

  g_assert_cmpint (winnow_store_count_events (f->store, &error), ==, 300);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/winnow/event-queue/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("many-threads", test_many_threads);
  ADD ("bad-event", test_bad_event);
  ADD ("dispose-writes", test_dispose_writes);
#undef ADD

  return g_test_run ();
}
