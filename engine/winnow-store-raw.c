/* winnow-store-raw.c — reading, listing and removing retained raw outputs; trust history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows of `raw_outputs` point at files in `DATA_DIR/rtk/raw-output/` (written by
 * winnow-raw-store.c). A row is only a pointer, and the database is a file any process of the
 * user can write, so a path read from it is never trusted on its own: a file is read or
 * removed only when it lies directly in the raw-output folder (both sides resolved, so a
 * symbolic link does not lead out) and is named after the id asked for, and it is opened
 * without following a link. An id is checked for its exact shape — 24 lowercase hex digits —
 * before it reaches the database or the disk, so `../../api-token` never gets that far.
 *
 * Lists carry everything but the text: a dashboard pages through ten thousand rows with two
 * indexed range reads (the list and its count), and the text is read from disk only for the
 * one output someone opens. What a list filters by (command, exit status, failure) is kept on
 * the row itself, since events are purged after `retentionDays` while their raw outputs may
 * be kept longer.
 *
 * Files are removed after their rows, outside the transaction: a crash in between leaves a
 * file without a row, which the next purge finds (as it finds the file of a writer killed
 * between its rename and its insert) by its time stamp, and the temporary file of a writer
 * that died before its rename, by the process id in its name.
 */

#define G_LOG_DOMAIN "winnow-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "winnow-store-private.h"

/* a retained raw output is cut to rawOutputMaxBytes (at most 2 GiB) when written; anything
 * far larger in the folder is not one of ours */
#define MAX_RAW_OUTPUT_FILE (64u * 1024 * 1024)

/* the filter and the tokens come from the event while it is kept (events are purged sooner
 * than raw outputs); a primary-key lookup per row of a page */
#define ROW_COLUMNS \
  "id, created, bytes, original_bytes, truncated, sha256, path, redactions, event_id, " \
  "source, command, exit_code, failure"
#define COLUMNS ROW_COLUMNS ", " \
  "(SELECT filter_id FROM events WHERE events.id = raw_outputs.event_id), " \
  "(SELECT tokens_before FROM events WHERE events.id = raw_outputs.event_id), " \
  "(SELECT tokens_after FROM events WHERE events.id = raw_outputs.event_id)"

G_DEFINE_BOXED_TYPE (WinnowRawOutputInfo, winnow_raw_output_info,
                     winnow_raw_output_info_copy, winnow_raw_output_info_free)

WinnowRawOutputInfo *
winnow_raw_output_info_copy (const WinnowRawOutputInfo *info)
{
  WinnowRawOutputInfo *copy;

  g_return_val_if_fail (info != NULL, NULL);

  copy = g_memdup2 (info, sizeof *info);
  copy->id = g_strdup (info->id);
  copy->sha256 = g_strdup (info->sha256);
  copy->path = g_strdup (info->path);
  copy->redactions = g_strdup (info->redactions);
  copy->source = g_strdup (info->source);
  copy->command = g_strdup (info->command);
  copy->filter_id = g_strdup (info->filter_id);
  return copy;
}

void
winnow_raw_output_info_free (WinnowRawOutputInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->id);
  g_free (info->sha256);
  g_free (info->path);
  g_free (info->redactions);
  g_free (info->source);
  g_free (info->command);
  g_free (info->filter_id);
  g_free (info);
}

/**
 * winnow_raw_output_id_is_valid:
 * @id: (nullable): a would-be raw output id
 *
 * Returns: whether @id is exactly 24 lowercase hex digits (`^[a-f0-9]{24}$`)
 */
gboolean
winnow_raw_output_id_is_valid (const char *id)
{
  if (id == NULL)
    return FALSE;

  for (guint i = 0; i < WINNOW_RAW_OUTPUT_ID_LENGTH; i++)
    if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
      return FALSE;

  return id[WINNOW_RAW_OUTPUT_ID_LENGTH] == '\0';
}

static gboolean
check_id (const char  *id,
          GError     **error)
{
  if (winnow_raw_output_id_is_valid (id))
    return TRUE;

  g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_INVALID,
               "“%s” is not a raw output id (24 lowercase hex digits)", id);
  return FALSE;
}

/**
 * winnow_store_get_raw_output_dir:
 * @self: a #WinnowStore
 *
 * Returns: (transfer full): `rtk/raw-output` beside the database, i.e. `DATA_DIR/rtk/raw-output`
 */
char *
winnow_store_get_raw_output_dir (WinnowStore *self)
{
  g_autofree char *data_dir = NULL;

  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);

  data_dir = g_path_get_dirname (winnow_store_get_path (self));
  return g_build_filename (data_dir, "rtk", "raw-output", NULL);
}

/* Whether @path is a file directly in @dir (as resolved now) named `…-ID.log`. */
static gboolean
path_is_ours (const char *dir,
              const char *path,
              const char *id)
{
  g_autofree char *real_dir = realpath (dir, NULL);
  g_autofree char *file_dir = g_path_get_dirname (path);
  g_autofree char *real_file_dir = realpath (file_dir, NULL);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *suffix = g_strdup_printf ("-%s.log", id);

  return real_dir != NULL && real_file_dir != NULL && strcmp (real_dir, real_file_dir) == 0 &&
         base[0] != '.' && g_str_has_suffix (base, suffix);
}

/* ---- rows -------------------------------------------------------------------------------- */

static char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  return g_strdup ((const char *) sqlite3_column_text (stmt, column));
}

static WinnowRawOutputInfo *
read_info (sqlite3_stmt *stmt)
{
  WinnowRawOutputInfo *info = g_new0 (WinnowRawOutputInfo, 1);

  info->id = column_text (stmt, 0);
  info->created_us = sqlite3_column_int64 (stmt, 1);
  info->bytes = sqlite3_column_int64 (stmt, 2);
  info->original_bytes = sqlite3_column_type (stmt, 3) == SQLITE_NULL
                         ? info->bytes : (guint64) sqlite3_column_int64 (stmt, 3);
  info->truncated = sqlite3_column_int (stmt, 4) != 0;
  info->sha256 = column_text (stmt, 5);
  info->path = column_text (stmt, 6);
  info->redactions = sqlite3_column_type (stmt, 7) == SQLITE_NULL
                     ? g_strdup ("{}") : column_text (stmt, 7);
  info->event_id = sqlite3_column_int64 (stmt, 8);
  info->source = column_text (stmt, 9);
  info->command = column_text (stmt, 10);
  info->has_exit_code = sqlite3_column_type (stmt, 11) != SQLITE_NULL;
  info->exit_code = sqlite3_column_int (stmt, 11);
  info->failure = sqlite3_column_int (stmt, 12) != 0;
  info->filter_id = column_text (stmt, 13);
  info->has_tokens = sqlite3_column_type (stmt, 14) != SQLITE_NULL;
  info->tokens_before = sqlite3_column_int64 (stmt, 14);
  info->tokens_after = sqlite3_column_int64 (stmt, 15);
  return info;
}

static sqlite3_stmt *
prepare (WinnowStore  *self,
         sqlite3      *db,
         const char   *sql,
         GError      **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    {
      _winnow_store_set_error (self, error, rc, "cannot prepare a statement");
      sqlite3_finalize (stmt);
      return NULL;
    }

  return stmt;
}

static gboolean
exec (WinnowStore  *self,
      sqlite3      *db,
      const char   *sql,
      const char   *what,
      GError      **error)
{
  int rc = sqlite3_exec (db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      _winnow_store_set_error (self, error, rc, what);
      return FALSE;
    }

  return TRUE;
}

static void
rollback (sqlite3 *db)
{
  if (!sqlite3_get_autocommit (db))
    sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
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

/* The row and, if it has an event, the event's link to it, in one transaction. */
gboolean
_winnow_store_insert_raw_output (WinnowStore                *self,
                                 const WinnowRawOutputInfo  *info,
                                 GError                    **error)
{
  sqlite3 *db;
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;
  int rc;

  g_return_val_if_fail (WINNOW_IS_STORE (self), FALSE);
  g_return_val_if_fail (info != NULL && info->sha256 != NULL && info->path != NULL, FALSE);

  if (!check_id (info->id, error))
    return FALSE;

  db = _winnow_store_lock (self);
  if (!exec (self, db, "BEGIN IMMEDIATE", "cannot start a transaction", error))
    goto out;

  stmt = prepare (self, db,
                  "INSERT INTO raw_outputs (" ROW_COLUMNS ") "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)", error);
  if (stmt == NULL)
    goto out;

  bind_text (stmt, 1, info->id);
  sqlite3_bind_int64 (stmt, 2, info->created_us != 0 ? info->created_us : g_get_real_time ());
  sqlite3_bind_int64 (stmt, 3, MIN (info->bytes, G_MAXINT64));
  sqlite3_bind_int64 (stmt, 4, MIN (info->original_bytes, G_MAXINT64));
  sqlite3_bind_int (stmt, 5, info->truncated ? 1 : 0);
  bind_text (stmt, 6, info->sha256);
  bind_text (stmt, 7, info->path);
  bind_text (stmt, 8, info->redactions != NULL ? info->redactions : "{}");
  if (info->event_id > 0)
    sqlite3_bind_int64 (stmt, 9, info->event_id);
  else
    sqlite3_bind_null (stmt, 9);
  bind_text (stmt, 10, info->source);
  bind_text (stmt, 11, info->command);
  if (info->has_exit_code)
    sqlite3_bind_int (stmt, 12, info->exit_code);
  else
    sqlite3_bind_null (stmt, 12);
  sqlite3_bind_int (stmt, 13, info->failure ? 1 : 0);

  rc = sqlite3_step (stmt);
  g_clear_pointer (&stmt, sqlite3_finalize);
  if (rc != SQLITE_DONE)
    {
      _winnow_store_set_error (self, error, rc, "cannot record the raw output");
      goto out;
    }

  if (info->event_id > 0)
    {
      if ((stmt = prepare (self, db, "UPDATE events SET raw_output_id = ?1 WHERE id = ?2",
                           error)) == NULL)
        goto out;
      bind_text (stmt, 1, info->id);
      sqlite3_bind_int64 (stmt, 2, info->event_id);
      rc = sqlite3_step (stmt);
      g_clear_pointer (&stmt, sqlite3_finalize);
      if (rc != SQLITE_DONE)
        {
          _winnow_store_set_error (self, error, rc, "cannot link the event to its raw output");
          goto out;
        }
    }

  ok = exec (self, db, "COMMIT", "cannot commit the raw output", error);

out:
  if (!ok)
    rollback (db);
  _winnow_store_unlock (self);
  return ok;
}

/**
 * winnow_store_lookup_raw_output:
 * @self: a #WinnowStore
 * @id: a raw output id
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the row of raw output @id, or %NULL with @error set:
 *   %WINNOW_STORE_ERROR_INVALID for an id of the wrong shape (never looked up),
 *   %WINNOW_STORE_ERROR_NOT_FOUND for a well-formed id without a row
 */
WinnowRawOutputInfo *
winnow_store_lookup_raw_output (WinnowStore  *self,
                                const char   *id,
                                GError      **error)
{
  WinnowRawOutputInfo *info = NULL;
  sqlite3_stmt *stmt;
  sqlite3 *db;
  int rc;

  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_id (id, error))
    return NULL;

  db = _winnow_store_lock (self);
  stmt = prepare (self, db, "SELECT " COLUMNS " FROM raw_outputs WHERE id = ?1", error);
  if (stmt != NULL)
    {
      bind_text (stmt, 1, id);
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        info = read_info (stmt);
      else if (rc == SQLITE_DONE)
        g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND,
                     "no raw output %s", id);
      else
        _winnow_store_set_error (self, error, rc, "cannot read the raw output");
      sqlite3_finalize (stmt);
    }
  _winnow_store_unlock (self);

  return info;
}

/* The WHERE clause of a query, with only the conditions it uses, so that SQLite picks the
 * index that serves it (`failure, created` for failures, `created` otherwise). */
static char *
query_where (const WinnowRawOutputQuery *query)
{
  GString *where = g_string_new (" WHERE created >= ?1");

  if (query->failures_only)
    g_string_append (where, " AND failure = 1");
  if (query->command != NULL && query->command[0] != '\0')
    g_string_append (where, " AND instr (lower (command), lower (?2)) > 0");

  return g_string_free (where, FALSE);
}

static void
bind_query (sqlite3_stmt               *stmt,
            const WinnowRawOutputQuery *query)
{
  sqlite3_bind_int64 (stmt, 1, query->since_us > 0 ? query->since_us : G_MININT64);
  if (query->command != NULL && query->command[0] != '\0')
    bind_text (stmt, 2, query->command);
}

/**
 * winnow_store_list_raw_outputs:
 * @self: a #WinnowStore
 * @query: (nullable): which rows; %NULL for all
 * @error: return location for a #GError
 *
 * Lists retained raw outputs, newest first, without reading their files.
 *
 * Returns: (transfer container) (element-type WinnowRawOutputInfo): the rows, or %NULL with
 *   @error set
 */
GPtrArray *
winnow_store_list_raw_outputs (WinnowStore                 *self,
                               const WinnowRawOutputQuery  *query,
                               GError                     **error)
{
  WinnowRawOutputQuery all = { 0 };
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *where = NULL;
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt;
  sqlite3 *db;
  int rc = SQLITE_DONE;

  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (query == NULL)
    query = &all;

  where = query_where (query);
  sql = g_strdup_printf ("SELECT " COLUMNS " FROM raw_outputs%s "
                         "ORDER BY created DESC, id DESC LIMIT ?3 OFFSET ?4", where);
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_raw_output_info_free);

  db = _winnow_store_lock (self);
  stmt = prepare (self, db, sql, error);
  if (stmt != NULL)
    {
      bind_query (stmt, query);
      sqlite3_bind_int64 (stmt, 3, query->limit > 0 ? (gint64) query->limit : -1);
      sqlite3_bind_int64 (stmt, 4, query->offset);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        g_ptr_array_add (rows, read_info (stmt));
      if (rc != SQLITE_DONE)
        _winnow_store_set_error (self, error, rc, "cannot list the raw outputs");
      sqlite3_finalize (stmt);
    }
  _winnow_store_unlock (self);

  return stmt != NULL && rc == SQLITE_DONE ? g_steal_pointer (&rows) : NULL;
}

/**
 * winnow_store_count_raw_outputs:
 * @self: a #WinnowStore
 * @query: (nullable): which rows (its @offset and @limit are ignored); %NULL for all
 * @error: return location for a #GError
 *
 * Returns: how many rows winnow_store_list_raw_outputs() would page through, or -1 with
 *   @error set
 */
gint64
winnow_store_count_raw_outputs (WinnowStore                 *self,
                                const WinnowRawOutputQuery  *query,
                                GError                     **error)
{
  WinnowRawOutputQuery all = { 0 };
  g_autofree char *where = NULL;
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt;
  sqlite3 *db;
  gint64 count = -1;
  int rc;

  g_return_val_if_fail (WINNOW_IS_STORE (self), -1);

  if (query == NULL)
    query = &all;

  where = query_where (query);
  sql = g_strdup_printf ("SELECT count(*) FROM raw_outputs%s", where);

  db = _winnow_store_lock (self);
  if ((stmt = prepare (self, db, sql, error)) != NULL)
    {
      bind_query (stmt, query);
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        count = sqlite3_column_int64 (stmt, 0);
      else
        _winnow_store_set_error (self, error, rc, "cannot count the raw outputs");
      sqlite3_finalize (stmt);
    }
  _winnow_store_unlock (self);

  return count;
}

/* ---- files ------------------------------------------------------------------------------- */

static GBytes *
read_file (const char  *dir,
           const char  *id,
           const char  *path,
           GError     **error)
{
  struct stat st;
  char *contents;
  gsize got = 0;
  int fd;

  if (!path_is_ours (dir, path, id))
    {
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_NOT_FOUND,
                   "the file of raw output %s is not in %s", id, dir);
      return NULL;
    }

  fd = g_open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
  if (fd < 0 || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) ||
      (guint64) st.st_size > MAX_RAW_OUTPUT_FILE)
    {
      int saved = errno;

      g_set_error (error, WINNOW_STORE_ERROR,
                   fd < 0 && saved != ENOENT && saved != ELOOP ? WINNOW_STORE_ERROR_IO
                                                               : WINNOW_STORE_ERROR_NOT_FOUND,
                   "%s: the file of raw output %s cannot be read: %s", path, id,
                   fd < 0 ? g_strerror (saved) : "not a regular file of a sane size");
      if (fd >= 0)
        close (fd);
      return NULL;
    }

  contents = g_malloc (st.st_size + 1);
  while (got < (gsize) st.st_size)
    {
      ssize_t n = read (fd, contents + got, st.st_size - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO,
                       "%s: cannot read raw output %s: %s", path, id, g_strerror (saved));
          close (fd);
          g_free (contents);
          return NULL;
        }
      if (n == 0)
        break;
      got += n;
    }
  close (fd);
  contents[got] = '\0';

  return g_bytes_new_take (contents, got);
}

/**
 * winnow_store_read_raw_output:
 * @self: a #WinnowStore
 * @id: a raw output id
 * @info: (out) (optional) (transfer full): its row
 * @error: return location for a #GError
 *
 * Reads the redacted text of a retained raw output. Only a file in the raw-output folder,
 * named after @id and not a symbolic link, is read, whatever the row says.
 *
 * Returns: (transfer full): the text as written (NUL-terminated past its size), or %NULL with
 *   @error set (%WINNOW_STORE_ERROR_INVALID, %WINNOW_STORE_ERROR_NOT_FOUND …)
 */
GBytes *
winnow_store_read_raw_output (WinnowStore          *self,
                              const char           *id,
                              WinnowRawOutputInfo **info,
                              GError              **error)
{
  g_autoptr(WinnowRawOutputInfo) row = NULL;
  g_autofree char *dir = NULL;
  GBytes *bytes;

  g_return_val_if_fail (WINNOW_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((row = winnow_store_lookup_raw_output (self, id, error)) == NULL)
    return NULL;

  dir = winnow_store_get_raw_output_dir (self);
  if ((bytes = read_file (dir, id, row->path, error)) == NULL)
    return NULL;

  if (info != NULL)
    *info = g_steal_pointer (&row);
  return bytes;
}

static void
remove_file (const char *dir,
             const char *id,
             const char *path)
{
  if (path != NULL && path_is_ours (dir, path, id) && g_unlink (path) != 0 && errno != ENOENT)
    {
      int saved = errno;

      g_warning ("%s: cannot remove raw output %s: %s", path, id, g_strerror (saved));
    }
}

/**
 * winnow_store_delete_raw_output:
 * @self: a #WinnowStore
 * @id: a raw output id
 * @error: return location for a #GError
 *
 * Removes a raw output: its row (its event stays, without it) and then its file.
 *
 * Returns: %TRUE if it was there and is gone; %FALSE with @error set
 *   (%WINNOW_STORE_ERROR_NOT_FOUND if there was no such raw output)
 */
gboolean
winnow_store_delete_raw_output (WinnowStore  *self,
                                const char   *id,
                                GError      **error)
{
  g_autoptr(WinnowRawOutputInfo) row = NULL;
  g_autofree char *dir = NULL;
  sqlite3_stmt *stmt;
  sqlite3 *db;
  int rc = SQLITE_ERROR;

  g_return_val_if_fail (WINNOW_IS_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((row = winnow_store_lookup_raw_output (self, id, error)) == NULL)
    return FALSE;

  db = _winnow_store_lock (self);
  if ((stmt = prepare (self, db, "DELETE FROM raw_outputs WHERE id = ?1", error)) != NULL)
    {
      bind_text (stmt, 1, id);
      rc = sqlite3_step (stmt);
      if (rc != SQLITE_DONE)
        _winnow_store_set_error (self, error, rc, "cannot delete the raw output");
      sqlite3_finalize (stmt);
    }
  _winnow_store_unlock (self);

  if (rc != SQLITE_DONE)
    return FALSE;

  dir = winnow_store_get_raw_output_dir (self);
  remove_file (dir, id, row->path);
  return TRUE;
}

/* `.tmp-PID-XXXXXX`: the temporary file of a writer (winnow-raw-store.c) */
static gboolean
temp_is_abandoned (const char *name)
{
  const char *rest = name + strlen (_WINNOW_RAW_OUTPUT_TEMP_PREFIX);
  char *end = NULL;
  guint64 pid = g_ascii_strtoull (rest, &end, 10);

  if (end == rest || *end != '-' || pid == 0 || pid > G_MAXINT)
    return TRUE;

  /* a writer still running may still rename it */
  return kill ((pid_t) pid, 0) != 0 && errno == ESRCH;
}

/* `EPOCHMS-SLUG-ID.log` whose time is before @before_ms and whose id has no row */
static gboolean
file_is_orphan (sqlite3_stmt *exists,
                const char   *name,
                gint64        before_ms)
{
  gsize length = strlen (name);
  g_autofree char *id = NULL;
  gboolean orphan;

  if (!g_ascii_isdigit (name[0]) || length < WINNOW_RAW_OUTPUT_ID_LENGTH + 6 ||
      !g_str_has_suffix (name, ".log") ||
      name[length - 5 - WINNOW_RAW_OUTPUT_ID_LENGTH] != '-')
    return FALSE;

  id = g_strndup (name + length - 4 - WINNOW_RAW_OUTPUT_ID_LENGTH, WINNOW_RAW_OUTPUT_ID_LENGTH);
  if (!winnow_raw_output_id_is_valid (id) || g_ascii_strtoll (name, NULL, 10) >= before_ms)
    return FALSE;

  bind_text (exists, 1, id);
  orphan = sqlite3_step (exists) == SQLITE_DONE;
  sqlite3_reset (exists);
  return orphan;
}

/* Files of raw outputs older than @before_us that have no row, and temporary files whose
 * writer is gone. */
static gint64
sweep_folder (WinnowStore *self,
              const char  *dir,
              gint64       before_us)
{
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) doomed = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *exists;
  sqlite3 *db;
  const char *name;
  gint64 removed = 0;

  if (folder == NULL)
    return 0;

  db = _winnow_store_lock (self);
  exists = prepare (self, db, "SELECT 1 FROM raw_outputs WHERE id = ?1", NULL);
  while (exists != NULL && (name = g_dir_read_name (folder)) != NULL)
    {
      if (g_str_has_prefix (name, _WINNOW_RAW_OUTPUT_TEMP_PREFIX) ? temp_is_abandoned (name)
                                                                  : file_is_orphan (exists, name,
                                                                                    before_us / 1000))
        g_ptr_array_add (doomed, g_build_filename (dir, name, NULL));
    }
  sqlite3_finalize (exists);
  _winnow_store_unlock (self);

  for (guint i = 0; i < doomed->len; i++)
    {
      const char *path = g_ptr_array_index (doomed, i);
      g_autofree char *base = g_path_get_basename (path);

      if (g_unlink (path) == 0 && base[0] != '.')
        removed++;
    }

  return removed;
}

/**
 * winnow_store_purge_raw_outputs:
 * @self: a #WinnowStore
 * @before_us: raw outputs written before this time (unix µs) are removed
 * @error: return location for a #GError
 *
 * Removes old raw outputs, rows and files, and tidies the folder: files older than
 * @before_us without a row, and temporary files left by writers that died.
 *
 * Returns: how many raw outputs were removed, or -1 with @error set
 */
gint64
winnow_store_purge_raw_outputs (WinnowStore  *self,
                                gint64        before_us,
                                GError      **error)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;
  sqlite3 *db;
  int rc;

  g_return_val_if_fail (WINNOW_IS_STORE (self), -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  db = _winnow_store_lock (self);
  if (!exec (self, db, "BEGIN IMMEDIATE", "cannot start the purge", error) ||
      (stmt = prepare (self, db, "SELECT id, path FROM raw_outputs WHERE created < ?1",
                       error)) == NULL)
    goto out;

  sqlite3_bind_int64 (stmt, 1, before_us);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_ptr_array_add (ids, column_text (stmt, 0));
      g_ptr_array_add (paths, column_text (stmt, 1));
    }
  g_clear_pointer (&stmt, sqlite3_finalize);
  if (rc != SQLITE_DONE)
    {
      _winnow_store_set_error (self, error, rc, "cannot list old raw outputs");
      goto out;
    }

  if ((stmt = prepare (self, db, "DELETE FROM raw_outputs WHERE created < ?1", error)) == NULL)
    goto out;
  sqlite3_bind_int64 (stmt, 1, before_us);
  rc = sqlite3_step (stmt);
  g_clear_pointer (&stmt, sqlite3_finalize);
  if (rc != SQLITE_DONE)
    {
      _winnow_store_set_error (self, error, rc, "cannot delete old raw outputs");
      goto out;
    }

  ok = exec (self, db, "COMMIT", "cannot commit the purge", error);

out:
  if (!ok)
    rollback (db);
  _winnow_store_unlock (self);

  if (!ok)
    return -1;

  dir = winnow_store_get_raw_output_dir (self);
  for (guint i = 0; i < ids->len; i++)
    remove_file (dir, g_ptr_array_index (ids, i), g_ptr_array_index (paths, i));

  return ids->len + sweep_folder (self, dir, before_us);
}

/* ---- trust history ----------------------------------------------------------------------- */

/**
 * winnow_store_get_last_trust_approval:
 * @self: a #WinnowStore
 * @project: the project directory
 * @sha256: (out) (optional) (transfer full): the approved hash
 * @time_us: (out) (optional): when, unix µs
 * @filters: (out) (optional) (nullable) (transfer full): the approved filters file as it was,
 *   for a diff against the file now
 * @error: return location for a #GError
 *
 * Returns: %TRUE with the outs set if @project was ever approved; %FALSE without @error if it
 *   never was; %FALSE with @error set if the database cannot be read
 */
gboolean
winnow_store_get_last_trust_approval (WinnowStore  *self,
                                      const char   *project,
                                      char        **sha256,
                                      gint64       *time_us,
                                      char        **filters,
                                      GError      **error)
{
  sqlite3_stmt *stmt;
  gboolean found = FALSE;
  sqlite3 *db;
  int rc;

  g_return_val_if_fail (WINNOW_IS_STORE (self), FALSE);
  g_return_val_if_fail (project != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  db = _winnow_store_lock (self);
  stmt = prepare (self, db, "SELECT sha256, time, filters FROM trust_approvals "
                            "WHERE project = ?1 ORDER BY time DESC, id DESC LIMIT 1", error);
  if (stmt != NULL)
    {
      bind_text (stmt, 1, project);
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        {
          found = TRUE;
          if (sha256 != NULL)
            *sha256 = column_text (stmt, 0);
          if (time_us != NULL)
            *time_us = sqlite3_column_int64 (stmt, 1);
          if (filters != NULL)
            *filters = column_text (stmt, 2);
        }
      else if (rc != SQLITE_DONE)
        _winnow_store_set_error (self, error, rc, "cannot read the trust approvals");
      sqlite3_finalize (stmt);
    }
  _winnow_store_unlock (self);

  return found;
}
