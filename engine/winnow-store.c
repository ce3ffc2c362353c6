/* winnow-store.c — the SQLite database behind `winnow gain` and the Savings page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One file, `DATA_DIR/winnow.db`, one connection per WinnowStore, and many processes at once:
 * every `winnow run` in every terminal and agent records an event. So the connection is set up
 * for sharing right after it opens, outside any transaction: write-ahead logging (readers
 * never wait for the writer; the pragma's answer is kept, since some file systems refuse it
 * and SQLite then silently stays in rollback mode, which is still correct, only slower),
 * `synchronous=NORMAL` (in WAL mode a crash can lose the last commits but never corrupt the
 * file: the right trade for statistics), foreign keys, and a 5 s busy timeout so a writer
 * waits for another instead of failing.
 *
 * Most connections are one `winnow compress` recording one event. SQLite's last connection to
 * close checkpoints the log into the database and deletes it, with four fdatasync() calls and
 * a file created and removed each time: on an ext4 disk in a VM that was 8 % of the process's
 * processor time and most of its clock time. So a connection closes that way only once the
 * log holds WAL_CHECKPOINT_PAGES, every ten or so events; until then the log stays
 * (winnow.db-wal, winnow.db-shm) and the next process to open reads it back (SQLite's recovery,
 * proportional to its length, which that bound keeps short). SQLite's own checkpoint after a
 * commit would not do: it leaves the pages in the log for the next writer to overwrite, but
 * the next process opens with fresh shared memory, finds them all valid again and never
 * overwrites them. What a crash can lose is the same: commits not yet checkpointed.
 *
 * The schema is a list of migrations; `PRAGMA user_version` says how many have run. Missing
 * ones run inside `BEGIN IMMEDIATE`, which takes the write lock first, so two processes
 * opening a new database do not both migrate it; the version is read again once the lock is
 * held. A database from a newer Winnow is refused rather than guessed at.
 *
 * Statements are prepared once per connection and reused (reset after each use), kept in a
 * table indexed by an enum: a GObject per statement, as Epiphany has, would buy nothing here
 * since no statement leaves this file. SQLite errors become GErrors naming the database file.
 * A mutex guards the connection so the async queries (run in GTask threads) and the caller's
 * own calls can share one store.
 *
 * Day charts are local days: the boundaries are local midnights computed with GDateTime (so a
 * day with a daylight-saving change has 23 or 25 hours) and each day is one range query over
 * a covering index on the time, which reads only that day's index entries.
 */

#define G_LOG_DOMAIN "winnow-store"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "winnow-command.h"
#include "winnow-compression.h"
#include "winnow-detection.h"
#include "winnow-filter.h"
#include "winnow-receipt.h"
#include "winnow-store-private.h"
#include "winnow-tokens.h"

#define BUSY_TIMEOUT_MS 5000
/* a connection closing with this many pages in the log (an event writes ~7) checkpoints it */
#define WAL_CHECKPOINT_PAGES 64
/* one that stays open checkpoints from this many on after a commit: SQLite's own default */
#define WAL_AUTOCHECKPOINT_PAGES 1000
#define DAY_US          (G_USEC_PER_SEC * (gint64) 86400)

G_DEFINE_QUARK (winnow-store-error-quark, winnow_store_error)

#define HOUR_US "3600000000"
/* the start of the hour holding @t (unix µs), also for times before 1970 */
#define HOUR_OF(t) "(" t " - ((" t " % " HOUR_US ") + " HOUR_US ") % " HOUR_US ")"

#define EVENT_SUMS_BACKFILL(dim, key) \
  "INSERT INTO event_sums SELECT " dim ", " HOUR_OF ("time") ", " key ", count(*)," \
  "  sum (tokens_before), sum (tokens_after), sum (bytes_before), sum (bytes_after)," \
  "  sum (tokens_after > tokens_before), sum (max (tokens_after - tokens_before, 0))" \
  "  FROM events GROUP BY 2, 3;"

#define EVENT_SUMS_ADD(dim, key) \
  " INSERT INTO event_sums VALUES (" dim ", " HOUR_OF ("NEW.time") ", " key ", 1," \
  "  NEW.tokens_before, NEW.tokens_after, NEW.bytes_before, NEW.bytes_after," \
  "  NEW.tokens_after > NEW.tokens_before, max (NEW.tokens_after - NEW.tokens_before, 0))" \
  "  ON CONFLICT (dim, hour, key) DO UPDATE SET events = events + 1," \
  "  tokens_before = tokens_before + excluded.tokens_before," \
  "  tokens_after = tokens_after + excluded.tokens_after," \
  "  bytes_before = bytes_before + excluded.bytes_before," \
  "  bytes_after = bytes_after + excluded.bytes_after," \
  "  grown_events = grown_events + excluded.grown_events," \
  "  tokens_grown = tokens_grown + excluded.tokens_grown;"

#define EVENT_SUMS_SUBTRACT(dim, key) \
  " UPDATE event_sums SET events = events - 1," \
  "  tokens_before = tokens_before - OLD.tokens_before," \
  "  tokens_after = tokens_after - OLD.tokens_after," \
  "  bytes_before = bytes_before - OLD.bytes_before," \
  "  bytes_after = bytes_after - OLD.bytes_after," \
  "  grown_events = grown_events - (OLD.tokens_after > OLD.tokens_before)," \
  "  tokens_grown = tokens_grown - max (OLD.tokens_after - OLD.tokens_before, 0)" \
  "  WHERE dim = " dim " AND hour = " HOUR_OF ("OLD.time") " AND key = " key ";"

/* Each entry is one schema version. Never edit a released entry: append a new one. */
static const char * const migrations[] = {
  /* 1: the tables */
  "CREATE TABLE events ("
  "  id            INTEGER PRIMARY KEY,"
  "  time          INTEGER NOT NULL,"            /* unix µs */
  "  source        TEXT NOT NULL CHECK (source IN ('cli', 'api', 'run')),"
  "  command       TEXT,"
  "  command_key   TEXT,"                        /* what the charts group by: `git status` */
  "  project       TEXT,"
  "  output_type   TEXT,"
  "  filter_id     TEXT,"
  "  mode          TEXT,"
  "  intensity     TEXT,"
  "  bytes_before  INTEGER NOT NULL CHECK (bytes_before >= 0),"
  "  bytes_after   INTEGER NOT NULL CHECK (bytes_after >= 0),"
  "  tokens_before INTEGER NOT NULL CHECK (tokens_before >= 0),"
  "  tokens_after  INTEGER NOT NULL CHECK (tokens_after >= 0),"
  "  counter       TEXT NOT NULL,"
  "  duration_us   INTEGER NOT NULL,"
  "  exit_code     INTEGER,"
  "  raw_output_id TEXT REFERENCES raw_outputs (id) ON DELETE SET NULL"
  ");"
  "CREATE TABLE raw_outputs ("
  "  id         TEXT PRIMARY KEY CHECK (length (id) = 24),"
  "  created    INTEGER NOT NULL,"
  "  bytes      INTEGER NOT NULL,"
  "  sha256     TEXT NOT NULL,"
  "  path       TEXT NOT NULL,"
  "  redactions TEXT NOT NULL DEFAULT '{}' CHECK (json_valid (redactions)),"
  "  event_id   INTEGER REFERENCES events (id) ON DELETE SET NULL"
  ");"
  "CREATE INDEX raw_outputs_event ON raw_outputs (event_id);"
  "CREATE TABLE trust_approvals ("
  "  id       INTEGER PRIMARY KEY,"
  "  project  TEXT NOT NULL,"
  "  sha256   TEXT NOT NULL,"
  "  time     INTEGER NOT NULL,"
  "  filters  TEXT"
  ");"
  "CREATE INDEX trust_approvals_project ON trust_approvals (project, time);"
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;",

  /* 2: covering indices for the charts: a day, a filter, a command or a project is read from
   * its index alone, never from the table */
  "CREATE INDEX events_time ON events"
  "  (time, tokens_before, tokens_after, bytes_before, bytes_after);"
  "CREATE INDEX events_filter ON events"
  "  (filter_id, time, tokens_before, tokens_after, bytes_before, bytes_after);"
  "CREATE INDEX events_command ON events"
  "  (command_key, time, tokens_before, tokens_after, bytes_before, bytes_after);"
  "CREATE INDEX events_project ON events"
  "  (project, time, tokens_before, tokens_after, bytes_before, bytes_after);"
  "CREATE INDEX events_raw_output ON events (raw_output_id) WHERE raw_output_id IS NOT NULL;",

  /* 3: what the list of raw outputs shows and filters by, kept on the row itself since the
   * event may be purged long before its raw output (winnow-store-raw.c) */
  "ALTER TABLE raw_outputs ADD COLUMN source TEXT;"
  "ALTER TABLE raw_outputs ADD COLUMN command TEXT;"
  "ALTER TABLE raw_outputs ADD COLUMN exit_code INTEGER;"
  "ALTER TABLE raw_outputs ADD COLUMN failure INTEGER NOT NULL DEFAULT 0;"
  "ALTER TABLE raw_outputs ADD COLUMN original_bytes INTEGER;"
  "ALTER TABLE raw_outputs ADD COLUMN truncated INTEGER NOT NULL DEFAULT 0;"
  "CREATE INDEX raw_outputs_created ON raw_outputs (created, id);"
  "CREATE INDEX raw_outputs_failure ON raw_outputs (failure, created, id);",

  /* 4: the charts ask for a period (24 h, 7 d, 30 d) grouped by filter, command or project; an
   * index that starts with the group must be read whole whatever the period, one that starts
   * with the time reads only the period (and is no worse for "all") */
  "CREATE INDEX events_time_groups ON events"
  "  (time, filter_id, command_key, project, tokens_before, tokens_after, bytes_before,"
  "   bytes_after);",

  /* 5: sums by hour, kept by triggers, so that "all time" and long periods read a few
   * thousand rows instead of every event (a million events summed in ~1 s otherwise). One
   * table for the three ways the charts group: dim 1 = by filter, 2 = by command, 3 = by
   * project (a missing one is key ''); totals add up the projects, the dimension with the
   * fewest keys, rather than cost every recorded event a fourth upsert. A period
   * that starts inside an hour adds the events of that partial hour from the events table
   * (see sum_range()). The delete trigger keeps purges exact; rows left at zero events are
   * removed by the purge itself. */
  "CREATE TABLE event_sums ("
  "  dim           INTEGER NOT NULL,"
  "  hour          INTEGER NOT NULL,"          /* unix µs of the hour's start (UTC) */
  "  key           TEXT NOT NULL,"
  "  events        INTEGER NOT NULL,"
  "  tokens_before INTEGER NOT NULL,"
  "  tokens_after  INTEGER NOT NULL,"
  "  bytes_before  INTEGER NOT NULL,"
  "  bytes_after   INTEGER NOT NULL,"
  "  grown_events  INTEGER NOT NULL,"
  "  tokens_grown  INTEGER NOT NULL,"
  "  PRIMARY KEY (dim, hour, key)"
  ") WITHOUT ROWID;"
  EVENT_SUMS_BACKFILL ("1", "coalesce (filter_id, '')")
  EVENT_SUMS_BACKFILL ("2", "coalesce (command_key, '')")
  EVENT_SUMS_BACKFILL ("3", "coalesce (project, '')")
  "CREATE TRIGGER event_sums_insert AFTER INSERT ON events BEGIN"
  EVENT_SUMS_ADD ("1", "coalesce (NEW.filter_id, '')")
  EVENT_SUMS_ADD ("2", "coalesce (NEW.command_key, '')")
  EVENT_SUMS_ADD ("3", "coalesce (NEW.project, '')")
  " END;"
  "CREATE TRIGGER event_sums_delete AFTER DELETE ON events BEGIN"
  EVENT_SUMS_SUBTRACT ("1", "coalesce (OLD.filter_id, '')")
  EVENT_SUMS_SUBTRACT ("2", "coalesce (OLD.command_key, '')")
  EVENT_SUMS_SUBTRACT ("3", "coalesce (OLD.project, '')")
  " END;"
  /* the sums follow the events' columns: an update that changes one is not expected (only
   * raw_output_id is ever updated), so refuse it rather than let the sums drift */
  "CREATE TRIGGER event_sums_update BEFORE UPDATE OF time, filter_id, command_key, project,"
  "  tokens_before, tokens_after, bytes_before, bytes_after ON events BEGIN"
  "  SELECT RAISE (ABORT, 'recorded events are not edited');"
  " END;",
};

typedef enum
{
  STMT_BEGIN,
  STMT_COMMIT,
  STMT_ROLLBACK,
  STMT_INSERT_EVENT,
  STMT_LINK_RAW_TO_EVENT,
  STMT_INSERT_RAW,
  STMT_LINK_EVENT_TO_RAW,
  STMT_INSERT_TRUST,
  STMT_COUNT_EVENTS,
  STMT_RANGE,
  STMT_SUMS_RANGE,
  STMT_GROUP_FILTER,
  STMT_GROUP_COMMAND,
  STMT_GROUP_PROJECT,
  STMT_PURGE,
  STMT_PURGE_SUMS,
  STMT_META_GET,
  STMT_META_SET,
  N_STMTS
} Stmt;

#define SUMS \
  "count(*), sum(tokens_before), sum(tokens_after), sum(bytes_before), sum(bytes_after), " \
  "sum(tokens_after > tokens_before), sum(max(tokens_after - tokens_before, 0))"

#define GROUP_SUMS(column, dim) \
  "SELECT nullif (key, ''), sum (n), sum (tb), sum (ta), sum (bb), sum (ba), sum (g), sum (tg) " \
  "FROM (SELECT coalesce (" column ", '') AS key, " SUMS_AS " FROM events " \
  "      INDEXED BY events_time_groups WHERE time >= ?1 AND time < ?2 GROUP BY 1" \
  "      UNION ALL" \
  "      SELECT key, events, tokens_before, tokens_after, bytes_before, bytes_after," \
  "        grown_events, tokens_grown FROM event_sums WHERE dim = " dim " AND hour >= ?2) " \
  "GROUP BY key"

#define SUMS_AS \
  "count(*) AS n, sum(tokens_before) AS tb, sum(tokens_after) AS ta, sum(bytes_before) AS bb, " \
  "sum(bytes_after) AS ba, sum(tokens_after > tokens_before) AS g, " \
  "sum(max(tokens_after - tokens_before, 0)) AS tg"

static const char * const statements[N_STMTS] = {
  [STMT_BEGIN] = "BEGIN IMMEDIATE",
  [STMT_COMMIT] = "COMMIT",
  [STMT_ROLLBACK] = "ROLLBACK",
  [STMT_INSERT_EVENT] =
    "INSERT INTO events (time, source, command, command_key, project, output_type, filter_id, "
    "mode, intensity, bytes_before, bytes_after, tokens_before, tokens_after, counter, "
    "duration_us, exit_code, raw_output_id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
  [STMT_LINK_RAW_TO_EVENT] = "UPDATE raw_outputs SET event_id = ?1 WHERE id = ?2",
  [STMT_INSERT_RAW] =
    "INSERT INTO raw_outputs (id, created, bytes, sha256, path, redactions, event_id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  [STMT_LINK_EVENT_TO_RAW] = "UPDATE events SET raw_output_id = ?1 WHERE id = ?2",
  [STMT_INSERT_TRUST] =
    "INSERT INTO trust_approvals (project, sha256, time, filters) VALUES (?1, ?2, ?3, ?4)",
  [STMT_COUNT_EVENTS] = "SELECT count(*) FROM events",
  [STMT_RANGE] = "SELECT NULL, " SUMS " FROM events WHERE time >= ?1 AND time < ?2",
  [STMT_SUMS_RANGE] =
    "SELECT NULL, sum (events), sum (tokens_before), sum (tokens_after), sum (bytes_before), "
    "sum (bytes_after), sum (grown_events), sum (tokens_grown) FROM event_sums "
    "WHERE dim = 3 AND hour >= ?1 AND hour < ?2",
  /* a period from ?1: the events of its first, partial hour (up to ?2, the next whole hour)
   * from the index that starts with the time, then the hourly sums from ?2 on */
  [STMT_GROUP_FILTER] = GROUP_SUMS ("filter_id", "1"),
  [STMT_GROUP_COMMAND] = GROUP_SUMS ("command_key", "2"),
  [STMT_GROUP_PROJECT] = GROUP_SUMS ("project", "3"),
  [STMT_PURGE] = "DELETE FROM events WHERE time < ?1",
  [STMT_PURGE_SUMS] = "DELETE FROM event_sums WHERE events = 0",
  [STMT_META_GET] = "SELECT value FROM meta WHERE key = ?1",
  [STMT_META_SET] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
};

struct _WinnowStore
{
  GObject       parent_instance;
  GMutex        lock;
  char         *path;
  char         *journal_mode;
  sqlite3      *db;
  sqlite3_stmt *stmts[N_STMTS];
  guint         version;
  int           wal_pages;   /* in the log after this connection's last commit */
};

G_DEFINE_FINAL_TYPE (WinnowStore, winnow_store, G_TYPE_OBJECT)

/* After each commit: the log's length, for the close. A connection that stays open (the
 * dashboard's, the server's) checkpoints as SQLite would by default, the shared memory then
 * living on to let the next writer start the log over. */
static int
note_log_length (gpointer    data,
                 sqlite3    *db,
                 const char *name,
                 int         n_pages)
{
  WinnowStore *self = data;

  self->wal_pages = n_pages;
  if (n_pages >= WAL_AUTOCHECKPOINT_PAGES)
    sqlite3_wal_checkpoint_v2 (db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
  return SQLITE_OK;
}

static void
winnow_store_finalize (GObject *object)
{
  WinnowStore *self = (WinnowStore *)object;

  for (guint i = 0; i < N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);
  /* a long log: SQLite's own close, which (in the last connection) checkpoints and deletes it */
  if (self->db != NULL && self->wal_pages >= WAL_CHECKPOINT_PAGES)
    sqlite3_db_config (self->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
  /* every statement is finalized, so close cannot fail with SQLITE_BUSY */
  g_clear_pointer (&self->db, sqlite3_close);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->journal_mode, g_free);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (winnow_store_parent_class)->finalize (object);
}

static void
winnow_store_class_init (WinnowStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_store_finalize;
}

static void
winnow_store_init (WinnowStore *self)
{
  g_mutex_init (&self->lock);
}

/* ---- errors and statements --------------------------------------------------------------- */

/* SQLite says "disk I/O error" whether the disk is full or the folder read-only, and its
 * sqlite3_system_errno() stays 0 for a failed write to the write-ahead log. So a failed step
 * passes the errno it left (@saved_errno, 0 if unknown), and for the codes where the failing
 * system call is the last one SQLite made, that reason is added to the message. */
static void
set_error_errno (WinnowStore  *self,
                 GError      **error,
                 int           rc,
                 const char   *what,
                 int           saved_errno)
{
  const char *reason = self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);
  int code;

  switch (rc & 0xff)
    {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_CORRUPT,
                   "%s: the database is damaged or is not a Winnow database (%s: %s); move it "
                   "away with its -wal and -shm files and Winnow starts a new one", self->path,
                   what, reason);
      return;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      code = WINNOW_STORE_ERROR_BUSY;
      break;
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_FULL:
    case SQLITE_PERM:
      code = WINNOW_STORE_ERROR_IO;
      break;
    default:
      code = WINNOW_STORE_ERROR_FAILED;
      break;
    }

  switch (rc)
    {
    case SQLITE_IOERR_WRITE:
    case SQLITE_IOERR_FSYNC:
    case SQLITE_IOERR_TRUNCATE:
    case SQLITE_FULL:
      break;
    default:
      saved_errno = 0;
      break;
    }

  if (saved_errno != 0)
    g_set_error (error, WINNOW_STORE_ERROR, code, "%s: %s: %s (%s)", self->path, what, reason,
                 g_strerror (saved_errno));
  else
    g_set_error (error, WINNOW_STORE_ERROR, code, "%s: %s: %s", self->path, what, reason);
}

static void
set_error (WinnowStore  *self,
           GError      **error,
           int           rc,
           const char   *what)
{
  set_error_errno (self, error, rc, what, 0);
}

static sqlite3_stmt *
get_stmt (WinnowStore  *self,
          Stmt          which,
          GError      **error)
{
  int rc;

  if (self->stmts[which] != NULL)
    return self->stmts[which];

  rc = sqlite3_prepare_v3 (self->db, statements[which], -1, SQLITE_PREPARE_PERSISTENT,
                           &self->stmts[which], NULL);
  if (rc != SQLITE_OK)
    {
      set_error (self, error, rc, "cannot prepare a statement");
      return NULL;
    }

  return self->stmts[which];
}

static void
stmt_done (sqlite3_stmt *stmt)
{
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

static void
bind_text (sqlite3_stmt *stmt,
           int           index,
           const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, index);
}

/* Runs a statement that returns no rows and resets it. */
static gboolean
run_stmt (WinnowStore   *self,
          sqlite3_stmt  *stmt,
          const char    *what,
          GError       **error)
{
  int rc;
  int saved_errno;

  errno = 0;
  rc = sqlite3_step (stmt);
  saved_errno = errno;

  stmt_done (stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      set_error_errno (self, error, rc, what, saved_errno);
      return FALSE;
    }

  return TRUE;
}

static gboolean
run_simple (WinnowStore  *self,
            Stmt          which,
            const char   *what,
            GError      **error)
{
  sqlite3_stmt *stmt = get_stmt (self, which, error);

  return stmt != NULL && run_stmt (self, stmt, what, error);
}

static void
rollback (WinnowStore *self)
{
  if (!sqlite3_get_autocommit (self->db))
    run_simple (self, STMT_ROLLBACK, "cannot roll back", NULL);
}

static gboolean
exec (WinnowStore  *self,
      const char   *sql,
      const char   *what,
      GError      **error)
{
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      set_error (self, error, rc, what);
      return FALSE;
    }

  return TRUE;
}

/* A pragma or query with one row of one value. */
static gboolean
query_value (WinnowStore   *self,
             const char    *sql,
             const char    *what,
             sqlite3_int64 *number,
             char         **text,
             GError       **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);

  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);

  if (rc != SQLITE_ROW)
    {
      set_error (self, error, rc, what);
      sqlite3_finalize (stmt);
      return FALSE;
    }

  if (number != NULL)
    *number = sqlite3_column_int64 (stmt, 0);
  if (text != NULL)
    *text = g_strdup ((const char *) sqlite3_column_text (stmt, 0));

  sqlite3_finalize (stmt);
  return TRUE;
}

/* ---- for winnow-store-raw.c -------------------------------------------------------------- */

sqlite3 *
_winnow_store_lock (WinnowStore *self)
{
  g_mutex_lock (&self->lock);
  return self->db;
}

void
_winnow_store_unlock (WinnowStore *self)
{
  g_mutex_unlock (&self->lock);
}

void
_winnow_store_set_error (WinnowStore  *self,
                         GError      **error,
                         int           rc,
                         const char   *what)
{
  set_error (self, error, rc, what);
}

/* ---- opening ----------------------------------------------------------------------------- */

guint
_winnow_store_n_migrations (void)
{
  return G_N_ELEMENTS (migrations);
}

static gboolean
migrate (WinnowStore  *self,
         guint         target,
         GError      **error)
{
  g_autofree char *set_version = NULL;
  sqlite3_int64 version;

  if (!query_value (self, "PRAGMA user_version", "cannot read the schema version",
                    &version, NULL, error))
    return FALSE;

  if (version > (sqlite3_int64) G_N_ELEMENTS (migrations))
    {
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NEWER,
                   "%s: written by a newer Winnow (schema version %" G_GINT64_FORMAT ", this "
                   "Winnow knows %u)", self->path, (gint64) version,
                   (guint) G_N_ELEMENTS (migrations));
      return FALSE;
    }

  if (version >= target)
    {
      self->version = version;
      return TRUE;
    }

  if (!run_simple (self, STMT_BEGIN, "cannot start the schema migration", error))
    return FALSE;

  /* another process may have migrated while we waited for the lock */
  if (!query_value (self, "PRAGMA user_version", "cannot read the schema version",
                    &version, NULL, error))
    goto failed;

  for (guint v = version; v < target; v++)
    {
      g_autofree char *what = g_strdup_printf ("cannot migrate to schema version %u", v + 1);

      if (!exec (self, migrations[v], what, error))
        goto failed;
    }

  set_version = g_strdup_printf ("PRAGMA user_version = %u", MAX ((guint) version, target));
  if (!exec (self, set_version, "cannot record the schema version", error) ||
      !run_simple (self, STMT_COMMIT, "cannot commit the schema migration", error))
    goto failed;

  self->version = MAX ((guint) version, target);
  return TRUE;

failed:
  rollback (self);
  return FALSE;
}

static WinnowStore *
open_store (const char  *path,
            guint        target,
            GError     **error)
{
  g_autoptr(WinnowStore) self = g_object_new (WINNOW_TYPE_STORE, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  int rc;

  self->path = g_strdup (path);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO,
                   "%s: cannot create the folder: %s", dir, g_strerror (saved));
      return NULL;
    }

  rc = sqlite3_open_v2 (path, &self->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      set_error (self, error, rc, "cannot open the database");
      return NULL;
    }

  sqlite3_extended_result_codes (self->db, 1);
  /* first, so that even switching to WAL waits for a writer instead of failing */
  sqlite3_busy_timeout (self->db, BUSY_TIMEOUT_MS);
  /* no checkpoint on close until the log is long (see the top of this file) */
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
  sqlite3_wal_hook (self->db, note_log_length, self);

  /* The file is only read here: a file that is not a database fails on this pragma. While
   * another connection creates the file or switches it to WAL, SQLite answers "locked" at
   * once, without the busy handler: wait as the busy timeout would. */
  for (gint64 deadline = g_get_monotonic_time () + BUSY_TIMEOUT_MS * G_TIME_SPAN_MILLISECOND;;)
    {
      g_autoptr(GError) local_error = NULL;

      if (query_value (self, "PRAGMA journal_mode = WAL", "cannot read the file", NULL,
                       &self->journal_mode, &local_error))
        break;
      if ((sqlite3_extended_errcode (self->db) & 0xff) != SQLITE_BUSY ||
          g_get_monotonic_time () >= deadline)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_usleep (5 * G_TIME_SPAN_MILLISECOND);
    }
  if (g_ascii_strcasecmp (self->journal_mode, "wal") != 0)
    g_debug ("%s: write-ahead logging refused, journal mode stays “%s”", path,
             self->journal_mode);

  /* 8 MiB of page cache instead of 2: the chart indices of a year of events stay warm */
  if (!exec (self, "PRAGMA synchronous = NORMAL", "cannot set synchronous", error) ||
      !exec (self, "PRAGMA cache_size = -8192", "cannot set the cache size", error) ||
      !exec (self, "PRAGMA foreign_keys = ON", "cannot turn on foreign keys", error))
    return NULL;

  if (!migrate (self, target, error))
    return NULL;

  return g_steal_pointer (&self);
}

WinnowStore *
_winnow_store_open_at_version (const char  *path,
                               guint        version,
                               GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (version <= G_N_ELEMENTS (migrations), NULL);

  return open_store (path, version, error);
}

/**
 * winnow_store_default_path:
 * @data_dir: (nullable): the data directory, or %NULL for the default one
 *
 * Returns: (transfer full): `DATA_DIR/winnow.db`
 */
char *
winnow_store_default_path (const char *data_dir)
{
  g_autofree char *dir = data_dir ? g_strdup (data_dir) : winnow_context_default_data_dir ();

  return g_build_filename (dir, "winnow.db", NULL);
}

/**
 * winnow_store_open:
 * @path: the database file; it and its folder are created if missing
 * @error: return location for a #GError
 *
 * Opens the database and brings its schema up to date. No retention runs here (see
 * winnow_store_open_for_context()).
 *
 * Returns: (transfer full): the store, or %NULL with @error set (%WINNOW_STORE_ERROR_CORRUPT
 *   for a file that is not a database, %WINNOW_STORE_ERROR_NEWER for a newer schema)
 */
WinnowStore *
winnow_store_open (const char  *path,
                   GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return open_store (path, G_N_ELEMENTS (migrations), error);
}

/**
 * winnow_store_open_for_context:
 * @context: a #WinnowContext
 * @error: return location for a #GError
 *
 * Opens the database of @context's data directory and, at most once a day, deletes the events
 * older than the settings' `retentionDays`. A purge that fails (another process holding the
 * database) is not an error: it is tried again on the next open.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
WinnowStore *
winnow_store_open_for_context (WinnowContext  *context,
                               GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(WinnowStore) self = NULL;
  g_autoptr(GError) purge_error = NULL;
  guint days;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (context), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = winnow_store_default_path (winnow_context_get_data_dir (context));
  self = winnow_store_open (path, error);
  if (self == NULL)
    return NULL;

  days = winnow_config_get_retention_days (winnow_context_get_config (context));
  if (winnow_store_purge_if_due (self, days, g_get_real_time (), &purge_error) < 0)
    g_debug ("%s", purge_error->message);

  return g_steal_pointer (&self);
}

const char *
winnow_store_get_path (WinnowStore *self)
{
  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  return self->path;
}

/**
 * winnow_store_get_journal_mode:
 * @self: a #WinnowStore
 *
 * Returns: the journal mode SQLite answered with: "wal" unless the file system refused it
 */
const char *
winnow_store_get_journal_mode (WinnowStore *self)
{
  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  return self->journal_mode;
}

guint
winnow_store_get_schema_version (WinnowStore *self)
{
  g_return_val_if_fail (WINNOW_IS_STORE (self), 0);
  return self->version;
}

/* ---- events ------------------------------------------------------------------------------ */

/**
 * winnow_store_event_init:
 * @event: an event to fill in
 * @source: "cli", "api" or "run"
 *
 * Clears @event: no command, no exit code, the current time, the standard token counter.
 */
void
winnow_store_event_init (WinnowStoreEvent *event,
                         const char       *source)
{
  g_return_if_fail (event != NULL);

  memset (event, 0, sizeof *event);
  event->source = source;
  event->counter = winnow_tokens_counter_name ();
}

/**
 * winnow_store_event_set_result:
 * @event: an event
 * @result: what the pipeline did
 * @bytes_before: the size of the pipeline's input
 *
 * Copies the receipt, mode, detected type, filter, output size and duration of @result into
 * @event. The strings stay @result's: keep @result alive until the event is recorded.
 */
void
winnow_store_event_set_result (WinnowStoreEvent     *event,
                               WinnowPipelineResult *result,
                               gsize                 bytes_before)
{
  WinnowReceipt *receipt;
  WinnowCompression *compression;
  gsize bytes_after = 0;

  g_return_if_fail (event != NULL);
  g_return_if_fail (WINNOW_IS_PIPELINE_RESULT (result));

  receipt = winnow_pipeline_result_get_receipt (result);
  compression = winnow_pipeline_result_get_rtk_compression (result);
  winnow_pipeline_result_get_text (result, &bytes_after);

  event->mode = winnow_pipeline_result_get_mode (result);
  event->intensity = winnow_receipt_get_intensity (receipt);
  event->counter = winnow_receipt_get_counter (receipt);
  event->tokens_before = winnow_receipt_get_tokens_before (receipt);
  event->tokens_after = winnow_receipt_get_tokens_after (receipt);
  event->bytes_before = bytes_before;
  event->bytes_after = bytes_after;
  event->duration_us = winnow_pipeline_result_get_duration_us (result);

  if (compression != NULL)
    {
      WinnowFilter *filter = winnow_compression_get_filter (compression);

      event->output_type =
        winnow_detection_get_output_type (winnow_compression_get_detection (compression));
      event->filter_id = filter != NULL ? winnow_filter_get_id (filter) : NULL;
    }
}

/* What the charts group commands by: the program, plus its subcommand for the tools that
 * have them (`git status`, `npm test`, `cargo build`); arguments and paths would make every
 * line a group of its own. */
static char *
command_key (const char *command)
{
  static const char * const with_subcommands[] = {
    "apt", "apt-get", "brew", "bun", "bundle", "cargo", "composer", "deno", "dnf", "docker",
    "dotnet", "gh", "git", "go", "gradle", "helm", "kubectl", "make", "meson", "mix", "mvn",
    "npm", "npx", "pip", "pip3", "pnpm", "poetry", "rustup", "swift", "terraform", "uv",
    "yarn", NULL
  };
  g_autofree char *normalized = winnow_command_normalize (command);
  g_auto(GStrv) words = NULL;
  g_autofree char *program = NULL;
  const char *sub = NULL;

  if (normalized == NULL)
    return NULL;

  words = g_strsplit_set (normalized, " \t", 3);
  if (words[0] == NULL || words[0][0] == '\0')
    return NULL;

  program = g_path_get_basename (words[0]);
  if (words[1] != NULL && g_strv_contains (with_subcommands, program) &&
      g_ascii_isalpha (words[1][0]) && strpbrk (words[1], "/.=:") == NULL)
    sub = words[1];

  return sub != NULL ? g_strdup_printf ("%s %s", program, sub) : g_steal_pointer (&program);
}

static gboolean
insert_event (WinnowStore             *self,
              const WinnowStoreEvent  *event,
              gint64                  *id,
              GError                 **error)
{
  sqlite3_stmt *stmt = get_stmt (self, STMT_INSERT_EVENT, error);
  g_autofree char *key = command_key (event->command);
  gint64 event_id;

  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, event->time_us != 0 ? event->time_us : g_get_real_time ());
  bind_text (stmt, 2, event->source);
  bind_text (stmt, 3, event->command);
  bind_text (stmt, 4, key);
  bind_text (stmt, 5, event->project);
  bind_text (stmt, 6, event->output_type);
  bind_text (stmt, 7, event->filter_id);
  bind_text (stmt, 8, event->mode);
  bind_text (stmt, 9, event->intensity);
  sqlite3_bind_int64 (stmt, 10, MIN (event->bytes_before, G_MAXINT64));
  sqlite3_bind_int64 (stmt, 11, MIN (event->bytes_after, G_MAXINT64));
  sqlite3_bind_int64 (stmt, 12, MIN (event->tokens_before, G_MAXINT64));
  sqlite3_bind_int64 (stmt, 13, MIN (event->tokens_after, G_MAXINT64));
  bind_text (stmt, 14, event->counter != NULL ? event->counter : winnow_tokens_counter_name ());
  sqlite3_bind_int64 (stmt, 15, event->duration_us);
  if (event->has_exit_code)
    sqlite3_bind_int (stmt, 16, event->exit_code);
  else
    sqlite3_bind_null (stmt, 16);
  bind_text (stmt, 17, event->raw_output_id);

  if (!run_stmt (self, stmt, "cannot record the event", error))
    return FALSE;

  event_id = sqlite3_last_insert_rowid (self->db);

  if (event->raw_output_id != NULL)
    {
      if ((stmt = get_stmt (self, STMT_LINK_RAW_TO_EVENT, error)) == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, event_id);
      bind_text (stmt, 2, event->raw_output_id);
      if (!run_stmt (self, stmt, "cannot link the raw output to its event", error))
        return FALSE;
    }

  if (id != NULL)
    *id = event_id;
  return TRUE;
}

static gboolean
check_event (const WinnowStoreEvent  *event,
             GError                 **error)
{
  if (g_strcmp0 (event->source, "cli") != 0 && g_strcmp0 (event->source, "api") != 0 &&
      g_strcmp0 (event->source, "run") != 0)
    {
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID,
                   "“%s” is not an event source (cli, api, run)",
                   event->source ? event->source : "(null)");
      return FALSE;
    }

  return TRUE;
}

/**
 * winnow_store_record:
 * @self: a #WinnowStore
 * @event: the event
 * @id: (out) (optional): the new event's id
 * @error: return location for a #GError
 *
 * Appends one event. If it names a raw output, that output is linked back to it in the same
 * transaction.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_store_record (WinnowStore             *self,
                     const WinnowStoreEvent  *event,
                     gint64                  *id,
                     GError                 **error)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (WINNOW_IS_STORE (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_event (event, error))
    return FALSE;

  locker = g_mutex_locker_new (&self->lock);

  /* a lone INSERT is its own transaction; with a raw output there are two statements */
  if (event->raw_output_id == NULL)
    return insert_event (self, event, id, error);

  if (!run_simple (self, STMT_BEGIN, "cannot start a transaction", error))
    return FALSE;
  if (!insert_event (self, event, id, error) ||
      !run_simple (self, STMT_COMMIT, "cannot commit the event", error))
    {
      rollback (self);
      return FALSE;
    }

  return TRUE;
}

/**
 * winnow_store_record_many:
 * @self: a #WinnowStore
 * @events: (array length=n_events): the events
 * @n_events: how many
 * @error: return location for a #GError
 *
 * Appends events in one transaction: all of them or none (imports and benchmarks).
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_store_record_many (WinnowStore             *self,
                          const WinnowStoreEvent  *events,
                          guint                    n_events,
                          GError                 **error)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (WINNOW_IS_STORE (self), FALSE);
  g_return_val_if_fail (events != NULL || n_events == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; i < n_events; i++)
    if (!check_event (&events[i], error))
      return FALSE;

  locker = g_mutex_locker_new (&self->lock);

  if (!run_simple (self, STMT_BEGIN, "cannot start a transaction", error))
    return FALSE;

  for (guint i = 0; i < n_events; i++)
    if (!insert_event (self, &events[i], NULL, error))
      {
        rollback (self);
        return FALSE;
      }

  if (!run_simple (self, STMT_COMMIT, "cannot commit the events", error))
    {
      rollback (self);
      return FALSE;
    }

  return TRUE;
}

/**
 * winnow_store_add_raw_output:
 * @self: a #WinnowStore
 * @id: the raw output's id: 24 lowercase hex digits
 * @created_us: when it was written, unix µs
 * @bytes: its size on disk
 * @sha256: the SHA-256 of what was written
 * @path: where it was written
 * @redactions_json: (nullable): redaction counts as a JSON object (`{"aws-key": 1}`)
 * @event_id: the event it belongs to, or 0 if it is not recorded yet
 * @error: return location for a #GError
 *
 * Records a retained raw output (FORMATS.md §3: analytics keep its id, size and hash).
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_store_add_raw_output (WinnowStore  *self,
                             const char   *id,
                             gint64        created_us,
                             guint64       bytes,
                             const char   *sha256,
                             const char   *path,
                             const char   *redactions_json,
                             gint64        event_id,
                             GError      **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;

  g_return_val_if_fail (WINNOW_IS_STORE (self), FALSE);
  g_return_val_if_fail (id != NULL && sha256 != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (strlen (id) != 24 || strspn (id, "0123456789abcdef") != 24)
    {
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID,
                   "“%s” is not a raw output id (24 lowercase hex digits)", id);
      return FALSE;
    }

  locker = g_mutex_locker_new (&self->lock);

  if (!run_simple (self, STMT_BEGIN, "cannot start a transaction", error))
    return FALSE;

  if ((stmt = get_stmt (self, STMT_INSERT_RAW, error)) == NULL)
    goto failed;
  bind_text (stmt, 1, id);
  sqlite3_bind_int64 (stmt, 2, created_us != 0 ? created_us : g_get_real_time ());
  sqlite3_bind_int64 (stmt, 3, MIN (bytes, G_MAXINT64));
  bind_text (stmt, 4, sha256);
  bind_text (stmt, 5, path);
  bind_text (stmt, 6, redactions_json != NULL ? redactions_json : "{}");
  if (event_id > 0)
    sqlite3_bind_int64 (stmt, 7, event_id);
  else
    sqlite3_bind_null (stmt, 7);
  if (!run_stmt (self, stmt, "cannot record the raw output", error))
    goto failed;

  if (event_id > 0)
    {
      if ((stmt = get_stmt (self, STMT_LINK_EVENT_TO_RAW, error)) == NULL)
        goto failed;
      bind_text (stmt, 1, id);
      sqlite3_bind_int64 (stmt, 2, event_id);
      if (!run_stmt (self, stmt, "cannot link the event to its raw output", error))
        goto failed;
    }

  if (run_simple (self, STMT_COMMIT, "cannot commit the raw output", error))
    return TRUE;

failed:
  rollback (self);
  return FALSE;
}

/**
 * winnow_store_add_trust_approval:
 * @self: a #WinnowStore
 * @project: the project directory
 * @sha256: the approved hash of its `.rtk/filters.json`
 * @time_us: when, unix µs; 0 for now
 * @filters: (nullable): the approved filters file as it was, so a later change can be shown
 * @error: return location for a #GError
 *
 * Adds one line to the approval history.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_store_add_trust_approval (WinnowStore  *self,
                                 const char   *project,
                                 const char   *sha256,
                                 gint64        time_us,
                                 const char   *filters,
                                 GError      **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;

  g_return_val_if_fail (WINNOW_IS_STORE (self), FALSE);
  g_return_val_if_fail (project != NULL && sha256 != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  locker = g_mutex_locker_new (&self->lock);
  if ((stmt = get_stmt (self, STMT_INSERT_TRUST, error)) == NULL)
    return FALSE;

  bind_text (stmt, 1, project);
  bind_text (stmt, 2, sha256);
  sqlite3_bind_int64 (stmt, 3, time_us != 0 ? time_us : g_get_real_time ());
  bind_text (stmt, 4, filters);

  return run_stmt (self, stmt, "cannot record the trust approval", error);
}

/**
 * winnow_store_count_events:
 *
 * Returns: how many events the database holds, or -1 with @error set
 */
gint64
winnow_store_count_events (WinnowStore  *self,
                           GError      **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  gint64 count;
  int rc;

  g_return_val_if_fail (WINNOW_IS_STORE (self), -1);

  locker = g_mutex_locker_new (&self->lock);
  if ((stmt = get_stmt (self, STMT_COUNT_EVENTS, error)) == NULL)
    return -1;

  rc = sqlite3_step (stmt);
  count = sqlite3_column_int64 (stmt, 0);
  stmt_done (stmt);
  if (rc != SQLITE_ROW)
    {
      set_error (self, error, rc, "cannot count the events");
      return -1;
    }

  return count;
}

/* ---- retention --------------------------------------------------------------------------- */

static gint64
purge_locked (WinnowStore  *self,
              gint64        before_us,
              gint64        now_us,
              GError      **error)
{
  sqlite3_stmt *stmt;
  gint64 deleted;

  if (!run_simple (self, STMT_BEGIN, "cannot start the purge", error))
    return -1;

  if ((stmt = get_stmt (self, STMT_PURGE, error)) == NULL)
    goto failed;
  sqlite3_bind_int64 (stmt, 1, before_us);
  if (!run_stmt (self, stmt, "cannot delete old events", error))
    goto failed;
  deleted = sqlite3_changes64 (self->db);

  /* the delete trigger took the events out of the hourly sums; hours left empty go */
  if ((stmt = get_stmt (self, STMT_PURGE_SUMS, error)) == NULL ||
      !run_stmt (self, stmt, "cannot delete the sums of old events", error))
    goto failed;

  if ((stmt = get_stmt (self, STMT_META_SET, error)) == NULL)
    goto failed;
  bind_text (stmt, 1, "last-purge");
  sqlite3_bind_int64 (stmt, 2, now_us);
  if (!run_stmt (self, stmt, "cannot note the purge", error) ||
      !run_simple (self, STMT_COMMIT, "cannot commit the purge", error))
    goto failed;

  return deleted;

failed:
  rollback (self);
  return -1;
}

/**
 * winnow_store_purge:
 * @self: a #WinnowStore
 * @before_us: events before this time (unix µs) are deleted
 * @error: return location for a #GError
 *
 * Returns: how many events were deleted, or -1 with @error set
 */
gint64
winnow_store_purge (WinnowStore  *self,
                    gint64        before_us,
                    GError      **error)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (WINNOW_IS_STORE (self), -1);

  locker = g_mutex_locker_new (&self->lock);
  return purge_locked (self, before_us, g_get_real_time (), error);
}

/**
 * winnow_store_purge_if_due:
 * @self: a #WinnowStore
 * @retention_days: how many days of events to keep
 * @now_us: the current time, unix µs
 * @error: return location for a #GError
 *
 * Deletes events older than @retention_days, unless the last purge was less than a day ago:
 * every `winnow run` opens the database, and one DELETE a day is plenty.
 *
 * Returns: how many events were deleted (0 when not due), or -1 with @error set
 */
gint64
winnow_store_purge_if_due (WinnowStore  *self,
                           guint         retention_days,
                           gint64        now_us,
                           GError      **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  gboolean due = TRUE;
  int rc;

  g_return_val_if_fail (WINNOW_IS_STORE (self), -1);
  g_return_val_if_fail (retention_days > 0, -1);

  locker = g_mutex_locker_new (&self->lock);
  if ((stmt = get_stmt (self, STMT_META_GET, error)) == NULL)
    return -1;

  bind_text (stmt, 1, "last-purge");
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      gint64 last = sqlite3_column_int64 (stmt, 0);

      /* a clock set back does not stop purging for good */
      due = now_us - last >= DAY_US || now_us < last;
    }
  stmt_done (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      set_error (self, error, rc, "cannot read the last purge time");
      return -1;
    }

  if (!due)
    return 0;

  return purge_locked (self, now_us - retention_days * DAY_US, now_us, error);
}

/* ---- queries ----------------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (WinnowSavingsRow, winnow_savings_row,
                     winnow_savings_row_copy, winnow_savings_row_free)

WinnowSavingsRow *
winnow_savings_row_copy (const WinnowSavingsRow *row)
{
  WinnowSavingsRow *copy;

  g_return_val_if_fail (row != NULL, NULL);

  copy = g_memdup2 (row, sizeof *row);
  copy->key = g_strdup (row->key);
  return copy;
}

void
winnow_savings_row_free (WinnowSavingsRow *row)
{
  if (row == NULL)
    return;

  g_free (row->key);
  g_free (row);
}

/**
 * winnow_savings_row_get_saved:
 *
 * Returns: tokens saved; negative when the output grew
 */
gint64
winnow_savings_row_get_saved (const WinnowSavingsRow *row)
{
  g_return_val_if_fail (row != NULL, 0);
  return (gint64) row->tokens_before - (gint64) row->tokens_after;
}

/**
 * winnow_savings_row_get_saved_ratio:
 *
 * Returns: the saved share of the tokens before (negative for growth), 0 with no tokens
 */
double
winnow_savings_row_get_saved_ratio (const WinnowSavingsRow *row)
{
  g_return_val_if_fail (row != NULL, 0);

  if (row->tokens_before == 0)
    return row->tokens_after > 0 ? -1.0 : 0.0;
  return (double) winnow_savings_row_get_saved (row) / (double) row->tokens_before;
}

/**
 * winnow_store_parse_since:
 * @text: `all`, or a whole number and a unit: `90s`, `30m`, `24h`, `7d`, `2w`
 * @since: (out): the duration; 0 for all
 * @error: return location for a #GError
 *
 * Returns: %TRUE if @text is a duration
 */
gboolean
winnow_store_parse_since (const char  *text,
                          GTimeSpan   *since,
                          GError     **error)
{
  guint64 number = 0;
  char *end = NULL;
  GTimeSpan unit;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (since != NULL, FALSE);

  if (g_ascii_strcasecmp (text, "all") == 0)
    {
      *since = 0;
      return TRUE;
    }

  if (g_ascii_isdigit (text[0]))
    number = g_ascii_strtoull (text, &end, 10);

  switch (end != NULL && end[0] != '\0' && end[1] == '\0' ? end[0] : 0)
    {
    case 's': unit = G_TIME_SPAN_SECOND; break;
    case 'm': unit = G_TIME_SPAN_MINUTE; break;
    case 'h': unit = G_TIME_SPAN_HOUR; break;
    case 'd': unit = G_TIME_SPAN_DAY; break;
    case 'w': unit = 7 * G_TIME_SPAN_DAY; break;
    default: unit = 0; break;
    }

  /* a hundred years is as far back as anything goes */
  if (unit == 0 || number == 0 || number > (guint64) (36525 * G_TIME_SPAN_DAY / unit))
    {
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID,
                   "“%s” is not a duration: use a whole number and s, m, h, d or w (24h, 7d, "
                   "30d), or all", text);
      return FALSE;
    }

  *since = (GTimeSpan) number * unit;
  return TRUE;
}

static WinnowSavingsRow *
read_row (sqlite3_stmt *stmt)
{
  WinnowSavingsRow *row = g_new0 (WinnowSavingsRow, 1);

  row->key = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  row->events = sqlite3_column_int64 (stmt, 1);
  row->tokens_before = sqlite3_column_int64 (stmt, 2);
  row->tokens_after = sqlite3_column_int64 (stmt, 3);
  row->bytes_before = sqlite3_column_int64 (stmt, 4);
  row->bytes_after = sqlite3_column_int64 (stmt, 5);
  row->grown_events = sqlite3_column_int64 (stmt, 6);
  row->tokens_grown = sqlite3_column_int64 (stmt, 7);
  return row;
}

#define HOUR G_TIME_SPAN_HOUR

/* the start of the hour holding @t; the extremes stand for "no limit" and stay as they are */
static gint64
floor_hour (gint64 t)
{
  if (t == G_MININT64 || t == G_MAXINT64)
    return t;
  return t - (((t % HOUR) + HOUR) % HOUR);
}

static gint64
ceil_hour (gint64 t)
{
  gint64 floor = floor_hour (t);

  return floor == t ? t : floor + HOUR;
}

static gboolean
add_range (WinnowStore      *self,
           Stmt              which,
           gint64            from_us,
           gint64            to_us,
           WinnowSavingsRow *sum,
           GError          **error)
{
  sqlite3_stmt *stmt;
  int rc;

  if (from_us >= to_us)
    return TRUE;
  if ((stmt = get_stmt (self, which, error)) == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, from_us);
  sqlite3_bind_int64 (stmt, 2, to_us);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      sum->events += sqlite3_column_int64 (stmt, 1);
      sum->tokens_before += sqlite3_column_int64 (stmt, 2);
      sum->tokens_after += sqlite3_column_int64 (stmt, 3);
      sum->bytes_before += sqlite3_column_int64 (stmt, 4);
      sum->bytes_after += sqlite3_column_int64 (stmt, 5);
      sum->grown_events += sqlite3_column_int64 (stmt, 6);
      sum->tokens_grown += sqlite3_column_int64 (stmt, 7);
    }
  else
    set_error (self, error, rc, "cannot sum the events");
  stmt_done (stmt);

  return rc == SQLITE_ROW;
}

/* The events in [@from_us, @to_us): the whole hours inside from the hourly sums, the partial
 * hours at either end from the events themselves (none when the ends fall on hours, as local
 * midnights do in most time zones). */
static WinnowSavingsRow *
sum_range (WinnowStore  *self,
           gint64        from_us,
           gint64        to_us,
           GError      **error)
{
  g_autoptr(WinnowSavingsRow) sum = g_new0 (WinnowSavingsRow, 1);
  gint64 first_hour = ceil_hour (from_us);
  gint64 end_hour = floor_hour (to_us);
  gboolean ok;

  if (first_hour >= end_hour)
    ok = add_range (self, STMT_RANGE, from_us, to_us, sum, error);
  else
    ok = add_range (self, STMT_RANGE, from_us, first_hour, sum, error) &&
         add_range (self, STMT_SUMS_RANGE, first_hour, end_hour, sum, error) &&
         add_range (self, STMT_RANGE, end_hour, to_us, sum, error);

  return ok ? g_steal_pointer (&sum) : NULL;
}

static int
compare_saved (gconstpointer a,
               gconstpointer b)
{
  const WinnowSavingsRow *ra = *(WinnowSavingsRow * const *) a;
  const WinnowSavingsRow *rb = *(WinnowSavingsRow * const *) b;
  gint64 sa = winnow_savings_row_get_saved (ra);
  gint64 sb = winnow_savings_row_get_saved (rb);

  if (sa != sb)
    return sa > sb ? -1 : 1;
  if (ra->events != rb->events)
    return ra->events > rb->events ? -1 : 1;
  return g_strcmp0 (ra->key, rb->key);
}

static GPtrArray *
query_locked (WinnowStore       *self,
              WinnowStoreGroup   group,
              GTimeSpan          since,
              guint              limit,
              GError           **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  gint64 from_us = since > 0 ? g_get_real_time () - since : G_MININT64;
  sqlite3_stmt *stmt;
  Stmt which;
  int rc;

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_savings_row_free);
  if (group == WINNOW_STORE_GROUP_NONE)
    {
      WinnowSavingsRow *row = sum_range (self, from_us, G_MAXINT64, error);

      if (row == NULL)
        return NULL;
      g_ptr_array_add (rows, row);
      return g_steal_pointer (&rows);
    }

  which = group == WINNOW_STORE_GROUP_FILTER ? STMT_GROUP_FILTER
        : group == WINNOW_STORE_GROUP_COMMAND ? STMT_GROUP_COMMAND
        : STMT_GROUP_PROJECT;
  if ((stmt = get_stmt (self, which, error)) == NULL)
    return NULL;

  sqlite3_bind_int64 (stmt, 1, from_us);
  sqlite3_bind_int64 (stmt, 2, ceil_hour (from_us));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (rows, read_row (stmt));
  stmt_done (stmt);

  if (rc != SQLITE_DONE)
    {
      set_error (self, error, rc, "cannot sum the events");
      return NULL;
    }

  g_ptr_array_sort (rows, compare_saved);

  /* the best @limit groups, and after them every group whose output grew: growth is never
   * cut off the end of a list */
  if (limit > 0 && rows->len > limit)
    {
      guint kept = limit;

      for (guint i = limit; i < rows->len; i++)
        if (winnow_savings_row_get_saved (g_ptr_array_index (rows, i)) < 0)
          {
            WinnowSavingsRow *row = g_ptr_array_index (rows, i);

            rows->pdata[i] = rows->pdata[kept];
            rows->pdata[kept++] = row;
          }
      g_ptr_array_set_size (rows, kept);
    }

  return g_steal_pointer (&rows);
}

/**
 * winnow_store_query:
 * @self: a #WinnowStore
 * @group: what to sum by
 * @since: only events of this last stretch of time; 0 for all
 * @limit: for groups, at most this many by tokens saved (plus every group that grew); 0 for
 *   all
 * @error: return location for a #GError
 *
 * Sums the events. With %WINNOW_STORE_GROUP_NONE the result is one row of totals; otherwise
 * one row per group, most tokens saved first, groups whose output grew last.
 *
 * Returns: (transfer container) (element-type WinnowSavingsRow): the rows, or %NULL with
 *   @error set
 */
GPtrArray *
winnow_store_query (WinnowStore       *self,
                    WinnowStoreGroup   group,
                    GTimeSpan          since,
                    guint              limit,
                    GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (group <= WINNOW_STORE_GROUP_PROJECT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  locker = g_mutex_locker_new (&self->lock);
  return query_locked (self, group, since, limit, error);
}

static GPtrArray *
query_days_locked (WinnowStore  *self,
                   guint         n_days,
                   GError      **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GDateTime) today = g_date_time_new_local (g_date_time_get_year (now),
                                                      g_date_time_get_month (now),
                                                      g_date_time_get_day_of_month (now),
                                                      0, 0, 0);

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_savings_row_free);
  for (guint i = n_days; i > 0; i--)
    {
      g_autoptr(GDateTime) start = g_date_time_add_days (today, -(int) (i - 1));
      g_autoptr(GDateTime) end = g_date_time_add_days (start, 1);
      WinnowSavingsRow *row = sum_range (self, g_date_time_to_unix (start) * G_USEC_PER_SEC,
                                         g_date_time_to_unix (end) * G_USEC_PER_SEC, error);

      if (row == NULL)
        return NULL;
      row->key = g_date_time_format (start, "%Y-%m-%d");
      row->start_us = g_date_time_to_unix (start) * G_USEC_PER_SEC;
      g_ptr_array_add (rows, row);
    }

  return g_steal_pointer (&rows);
}

/**
 * winnow_store_query_days:
 * @self: a #WinnowStore
 * @n_days: how many days, today included
 * @error: return location for a #GError
 *
 * Sums the events by local day: exactly @n_days rows, oldest first, days without events
 * included with zeros, so a chart has no gaps.
 *
 * Returns: (transfer container) (element-type WinnowSavingsRow): the rows, or %NULL with
 *   @error set
 */
GPtrArray *
winnow_store_query_days (WinnowStore  *self,
                         guint         n_days,
                         GError      **error)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (n_days > 0 && n_days <= 36525, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  locker = g_mutex_locker_new (&self->lock);
  return query_days_locked (self, n_days, error);
}

/* ---- async ------------------------------------------------------------------------------- */

/* a copy of what the worker needs */
typedef struct
{
  gboolean         days;
  guint            n_days;
  WinnowStoreGroup group;
  GTimeSpan        since;
  guint            limit;
} QueryData;

static void
query_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  WinnowStore *self = source_object;
  QueryData *data = task_data;
  GError *error = NULL;
  GPtrArray *rows;

  if (g_task_return_error_if_cancelled (task))
    return;

  rows = data->days ? winnow_store_query_days (self, data->n_days, &error)
                    : winnow_store_query (self, data->group, data->since, data->limit, &error);
  if (rows == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, rows, (GDestroyNotify) g_ptr_array_unref);
}

static void
start_query (WinnowStore         *self,
             QueryData           *data,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, data, g_free);
  g_task_run_in_thread (task, query_thread);
}

/**
 * winnow_store_query_async:
 *
 * winnow_store_query() in a worker thread, for the Savings page; finish with
 * winnow_store_query_finish().
 */
void
winnow_store_query_async (WinnowStore         *self,
                          WinnowStoreGroup     group,
                          GTimeSpan            since,
                          guint                limit,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  QueryData *data;

  g_return_if_fail (WINNOW_IS_STORE (self));
  g_return_if_fail (group <= WINNOW_STORE_GROUP_PROJECT);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (QueryData, 1);
  data->group = group;
  data->since = since;
  data->limit = limit;
  start_query (self, data, winnow_store_query_async, cancellable, callback, user_data);
}

/**
 * winnow_store_query_days_async:
 *
 * winnow_store_query_days() in a worker thread; finish with winnow_store_query_finish().
 */
void
winnow_store_query_days_async (WinnowStore         *self,
                               guint                n_days,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  QueryData *data;

  g_return_if_fail (WINNOW_IS_STORE (self));
  g_return_if_fail (n_days > 0 && n_days <= 36525);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (QueryData, 1);
  data->days = TRUE;
  data->n_days = n_days;
  start_query (self, data, winnow_store_query_days_async, cancellable, callback, user_data);
}

/**
 * winnow_store_query_finish:
 *
 * Returns: (transfer container) (element-type WinnowSavingsRow): the rows, or %NULL with
 *   @error set
 */
GPtrArray *
winnow_store_query_finish (WinnowStore   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
