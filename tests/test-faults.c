/* test-faults.c — writers killed mid-save, full disks, read-only folders, concurrent writers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file Winnow writes — the trust file, a filter pack, a raw output, the SQLite database —
 * must survive its writer dying at any byte, a full disk and a folder it may not write: the
 * previous version stays as it was, and the caller gets an error naming the file and the
 * reason. Two writers at once must lose nothing.
 *
 * The faults are real and deterministic, without hooks in the code under test: each writer
 * runs in a forked child under RLIMIT_FSIZE. With SIGXFSZ at its default action the kernel
 * kills the child at the first write that would cross the limit — a writer killed after
 * exactly N bytes of a file; with SIGXFSZ ignored that write fails with EFBIG — the same error
 * path as a full disk. A read-only folder is chmod 0500; since root writes there anyway, the
 * child first drops the capabilities that let root ignore file modes (and the test skips,
 * saying so, only if even that does not make the folder unwritable).
 *
 * Children report back through a pipe, never through stderr: RLIMIT_FSIZE applies to a
 * redirected stderr too.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/capability.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-util.h"
#include "winnow.h"

#define EXIT_CANNOT_DROP 77

typedef enum
{
  FAULT_NONE,
  FAULT_KILLED,      /* SIGXFSZ kills the child at the limit */
  FAULT_DISK_FULL,   /* writes past the limit fail with EFBIG */
  FAULT_READ_ONLY,   /* the child may not write into the folder it is given */
  FAULT_UNREADABLE,  /* the child may not read the file it is given */
} Fault;

typedef gboolean (*ChildWork) (gpointer data,
                               int      report_fd);

typedef struct
{
  pid_t  pid;
  int    fd;
} Child;

typedef struct
{
  int      status;
  guint    successes;   /* "+" lines */
  GString *errors;      /* "E …" lines, without the E */
} ChildReport;

static void
child_report_clear (ChildReport *report)
{
  if (report->errors != NULL)
    g_string_free (report->errors, TRUE);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ChildReport, child_report_clear)

/* ---- the child side ---------------------------------------------------------------------- */

static void
report_line (int         fd,
             const char *line)
{
  gsize length = strlen (line);

  while (length > 0)
    {
      ssize_t n = write (fd, line, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit (2);
      line += n;
      length -= n;
    }
}

static void
report_success (int fd)
{
  report_line (fd, "+\n");
}

static void
report_error (int     fd,
              GError *error)
{
  g_autofree char *line = NULL;
  g_autofree char *flat = g_strdelimit (g_strdup (error->message), "\n", ' ');

  line = g_strdup_printf ("E %s\n", flat);
  report_line (fd, line);
}

/* Takes CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER out of the effective set, so
 * that even root obeys the modes of files it owns. */
static void
drop_file_capabilities (void)
{
  struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
  guint32 mask = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH) | (1u << CAP_FOWNER);

  if (syscall (SYS_capget, &header, caps) != 0)
    return;
  caps[0].effective &= ~mask;
  syscall (SYS_capset, &header, caps);
}

static gboolean
can_create_in (const char *dir)
{
  g_autofree char *probe = g_build_filename (dir, ".probe", NULL);
  int fd = open (probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

  if (fd < 0)
    return FALSE;
  close (fd);
  unlink (probe);
  return TRUE;
}

/* Forks a child that runs @work under @fault: @limit is the file-size limit of FAULT_KILLED
 * and FAULT_DISK_FULL, @probe the folder (FAULT_READ_ONLY) or file (FAULT_UNREADABLE) the
 * child must find out of reach once its capabilities are dropped, else it exits with
 * EXIT_CANNOT_DROP without running @work. */
static Child
child_start (Fault        fault,
             rlim_t       limit,
             const char  *probe,
             ChildWork    work,
             gpointer     data)
{
  Child child = { -1, -1 };
  int fds[2];

  g_assert_cmpint (pipe (fds), ==, 0);
  child.pid = fork ();
  g_assert_cmpint (child.pid, >=, 0);

  if (child.pid == 0)
    {
      close (fds[0]);

      if (fault == FAULT_KILLED || fault == FAULT_DISK_FULL)
        {
          struct rlimit rl = { limit, limit };

          signal (SIGXFSZ, fault == FAULT_KILLED ? SIG_DFL : SIG_IGN);
          if (setrlimit (RLIMIT_FSIZE, &rl) != 0)
            _exit (3);
        }
      else if (fault == FAULT_READ_ONLY)
        {
          drop_file_capabilities ();
          if (can_create_in (probe))
            _exit (EXIT_CANNOT_DROP);
        }
      else if (fault == FAULT_UNREADABLE)
        {
          drop_file_capabilities ();
          if (open (probe, O_RDONLY | O_CLOEXEC) >= 0)
            _exit (EXIT_CANNOT_DROP);
        }

      _exit (work (data, fds[1]) ? 0 : 1);
    }

  close (fds[1]);
  child.fd = fds[0];
  return child;
}

static void
child_finish (Child       *child,
              ChildReport *report)
{
  g_autoptr(GString) text = g_string_new (NULL);
  char buffer[4096];
  ssize_t n;
  g_auto(GStrv) lines = NULL;

  while ((n = read (child->fd, buffer, sizeof buffer)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      g_string_append_len (text, buffer, n);
    }
  close (child->fd);
  g_assert_cmpint (waitpid (child->pid, &report->status, 0), ==, child->pid);

  report->successes = 0;
  report->errors = g_string_new (NULL);
  lines = g_strsplit (text->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_equal (lines[i], "+"))
        report->successes++;
      else if (g_str_has_prefix (lines[i], "E "))
        g_string_append_printf (report->errors, "%s\n", lines[i] + 2);
    }
}

static void
run_child (Fault        fault,
           rlim_t       limit,
           const char  *probe,
           ChildWork    work,
           gpointer     data,
           ChildReport *report)
{
  Child child = child_start (fault, limit, probe, work, data);

  child_finish (&child, report);
}

static void
assert_killed_by_limit (ChildReport *report)
{
  if (!WIFSIGNALED (report->status) || WTERMSIG (report->status) != SIGXFSZ)
    g_error ("the writer was not killed at the file-size limit (status %d): %s",
             report->status, report->errors->str);
}

static void
assert_failed_with (ChildReport *report,
                    const char  *path,
                    const char  *reason)
{
  g_test_message ("%s", report->errors->str);
  g_assert_true (WIFEXITED (report->status));
  g_assert_cmpint (WEXITSTATUS (report->status), ==, 1);
  g_assert_nonnull (strstr (report->errors->str, path));
  g_assert_nonnull (strstr (report->errors->str, reason));
}

static gboolean
skip_if_cannot_drop (ChildReport *report)
{
  if (WIFEXITED (report->status) && WEXITSTATUS (report->status) == EXIT_CANNOT_DROP)
    {
      g_test_skip ("cannot take file permissions away from this user: it reads and writes "
                   "despite chmod and capabilities cannot be dropped");
      return TRUE;
    }
  return FALSE;
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* names in a folder, sorted, dot files included */
static GPtrArray *
folder_names (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

static void
assert_same_names (GPtrArray *a,
                   GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
}

/* ---- the trust file ---------------------------------------------------------------------- */

typedef struct
{
  char *project;
  char *rtk;
  char *filters;
  char *trust;
} TrustFixture;

static void
trust_set_up (TrustFixture  *f,
              gconstpointer  data)
{
  g_autofree char *approved = NULL;
  g_autoptr(GError) error = NULL;

  f->project = g_dir_make_tmp ("winnow-faults-trust-XXXXXX", NULL);
  f->rtk = g_build_filename (f->project, ".rtk", NULL);
  f->filters = g_build_filename (f->rtk, "filters.json", NULL);
  f->trust = g_build_filename (f->rtk, "trust.json", NULL);
  g_assert_cmpint (g_mkdir (f->rtk, 0755), ==, 0);

  /* approved once, then edited: a new approval would replace the trust file */
  test_util_write_file (f->filters, "[]", -1);
  approved = winnow_trust_approve (f->project, &error);
  g_assert_no_error (error);
  test_util_write_file (f->filters, "[ ]", -1);
}

static void
trust_tear_down (TrustFixture  *f,
                 gconstpointer  data)
{
  g_chmod (f->rtk, 0755);
  test_util_remove_tree (f->project);
  g_free (f->project);
  g_free (f->rtk);
  g_free (f->filters);
  g_free (f->trust);
}

static gboolean
approve_work (gpointer data,
              int      report_fd)
{
  TrustFixture *f = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = winnow_trust_approve (f->project, &error);

  if (hash == NULL)
    {
      report_error (report_fd, error);
      return FALSE;
    }
  report_success (report_fd);
  return TRUE;
}

static void
assert_trust_state (TrustFixture     *f,
                    WinnowTrustState  state)
{
  g_autoptr(WinnowTrustStatus) status = winnow_trust_check (f->project, FALSE);

  g_assert_cmpstr (winnow_trust_state_to_string (winnow_trust_status_get_state (status)), ==,
                   winnow_trust_state_to_string (state));
}

/* Killed at every few bytes of the new trust file: the old one stays, byte for byte, and still
 * says "changed"; a temporary file the dead writer left never passes for the trust file. */
static void
test_trust_killed (TrustFixture  *f,
                   gconstpointer  data)
{
  g_autofree char *before = read_text (f->trust);
  gsize length = strlen (before);
  rlim_t limits[] = { 0, 1, length / 2, length - 1 };

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_auto(ChildReport) report = { 0 };
      g_autofree char *after = NULL;

      run_child (FAULT_KILLED, limits[i], NULL, approve_work, f, &report);
      assert_killed_by_limit (&report);
      after = read_text (f->trust);
      g_assert_cmpstr (after, ==, before);
      assert_trust_state (f, WINNOW_TRUST_CHANGED);
    }

  /* and with room enough, the same child approves */
  {
    g_auto(ChildReport) report = { 0 };

    run_child (FAULT_KILLED, 4096, NULL, approve_work, f, &report);
    g_assert_true (WIFEXITED (report.status) && WEXITSTATUS (report.status) == 0);
    assert_trust_state (f, WINNOW_TRUST_TRUSTED);
  }
}

static void
test_trust_disk_full (TrustFixture  *f,
                      gconstpointer  data)
{
  g_autofree char *before = read_text (f->trust);
  g_autofree char *after = NULL;
  g_autoptr(GPtrArray) names = folder_names (f->rtk);
  g_autoptr(GPtrArray) names_after = NULL;
  g_auto(ChildReport) report = { 0 };

  run_child (FAULT_DISK_FULL, 10, NULL, approve_work, f, &report);
  assert_failed_with (&report, f->trust, g_strerror (EFBIG));
  after = read_text (f->trust);
  g_assert_cmpstr (after, ==, before);
  names_after = folder_names (f->rtk);
  assert_same_names (names, names_after);
}

static void
test_trust_read_only (TrustFixture  *f,
                      gconstpointer  data)
{
  g_autofree char *before = read_text (f->trust);
  g_autofree char *after = NULL;
  g_auto(ChildReport) report = { 0 };

  g_assert_cmpint (g_chmod (f->rtk, 0500), ==, 0);
  run_child (FAULT_READ_ONLY, 0, f->rtk, approve_work, f, &report);
  g_assert_cmpint (g_chmod (f->rtk, 0755), ==, 0);
  if (skip_if_cannot_drop (&report))
    return;
  assert_failed_with (&report, f->trust, g_strerror (EACCES));
  after = read_text (f->trust);
  g_assert_cmpstr (after, ==, before);
}

/* the folder is a file: nothing can be created under it, whoever runs the test */
static void
test_trust_not_a_folder (TrustFixture  *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *project = g_build_filename (f->project, "not-a-folder", NULL);
  g_autofree char *rtk = g_build_filename (project, ".rtk", NULL);

  test_util_write_file (project, "a file", -1);
  hash = winnow_trust_approve (project, &error);
  g_assert_null (hash);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, rtk));
}

/* Two processes approving over and over while a third reads: the file is always whole. */
static gboolean
approve_many_work (gpointer data,
                   int      report_fd)
{
  for (guint i = 0; i < 40; i++)
    if (!approve_work (data, report_fd))
      return FALSE;
  return TRUE;
}

static void
test_trust_concurrent (TrustFixture  *f,
                       gconstpointer  data)
{
  g_auto(ChildReport) a = { 0 };
  g_auto(ChildReport) b = { 0 };
  Child ca = child_start (FAULT_NONE, 0, NULL, approve_many_work, f);
  Child cb = child_start (FAULT_NONE, 0, NULL, approve_many_work, f);

  for (guint i = 0; i < 200; i++)
    {
      g_autoptr(WinnowTrustStatus) status = winnow_trust_check (f->project, FALSE);
      WinnowTrustState state = winnow_trust_status_get_state (status);

      g_assert_true (state == WINNOW_TRUST_CHANGED || state == WINNOW_TRUST_TRUSTED);
    }

  child_finish (&ca, &a);
  child_finish (&cb, &b);
  g_assert_cmpstr (a.errors->str, ==, "");
  g_assert_cmpstr (b.errors->str, ==, "");
  g_assert_cmpuint (a.successes + b.successes, ==, 80);
  assert_trust_state (f, WINNOW_TRUST_TRUSTED);
}

/* ---- filter packs ------------------------------------------------------------------------ */

typedef struct
{
  char *dir;
  char *rtk;
  char *path;
  char *backup;
  const char *filter_json;   /* what the child saves */
  guint       first;         /* pack_many_work: its first filter number */
} PackFixture;

#define FILTER_JSON(id) \
  "{ \"id\": \"" id "\", \"label\": \"L\", \"category\": \"build\", \"match\": { \"commands\": [\"^" id "\\\\b\"] }," \
  "  \"rules\": { \"dropPatterns\": [\"^noise\"] } }"

static void
pack_set_up (PackFixture   *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("winnow-faults-pack-XXXXXX", NULL);
  f->rtk = g_build_filename (f->dir, "rtk", NULL);
  f->path = g_build_filename (f->rtk, "filters.json", NULL);
  f->backup = g_strconcat (f->path, ".bak", NULL);
  g_assert_true (winnow_filter_pack_save_filter (f->path, FILTER_JSON ("team-a"), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (winnow_filter_pack_save_filter (f->path, FILTER_JSON ("team-b"), NULL, &error));
  g_assert_no_error (error);
  f->filter_json = FILTER_JSON ("team-c");
}

static void
pack_tear_down (PackFixture   *f,
                gconstpointer  data)
{
  g_chmod (f->rtk, 0755);
  test_util_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->rtk);
  g_free (f->path);
  g_free (f->backup);
}

static GPtrArray *
pack_ids (const char *path)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters = winnow_filter_pack_load_file (path, WINNOW_FILTER_SOURCE_GLOBAL,
                                                               WINNOW_FILTER_PARSE_DEFAULT,
                                                               diagnostics);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  test_util_print_diagnostics (diagnostics);
  g_assert_cmpuint (winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR), ==, 0);
  for (guint i = 0; i < filters->len; i++)
    g_ptr_array_add (ids, g_strdup (winnow_filter_get_id (g_ptr_array_index (filters, i))));
  g_ptr_array_sort (ids, compare_names);
  return ids;
}

static gboolean
pack_save_work (gpointer data,
                int      report_fd)
{
  PackFixture *f = data;
  g_autoptr(GError) error = NULL;

  if (!winnow_filter_pack_save_filter (f->path, f->filter_json, NULL, &error))
    {
      report_error (report_fd, error);
      return FALSE;
    }
  report_success (report_fd);
  return TRUE;
}

/* Killed while writing the backup, and while writing the pack: the pack is the old one. The
 * limits reach into both files, since the backup (the old text) is written first. */
static void
test_pack_killed (PackFixture   *f,
                  gconstpointer  data)
{
  g_autofree char *before = read_text (f->path);
  gsize old_length = strlen (before);
  rlim_t limits[] = { 0, old_length / 2, old_length - 1, old_length, old_length + 40 };
  g_autoptr(GPtrArray) ids = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_auto(ChildReport) report = { 0 };
      g_autofree char *after = NULL;

      run_child (FAULT_KILLED, limits[i], NULL, pack_save_work, f, &report);
      assert_killed_by_limit (&report);
      after = read_text (f->path);
      g_assert_cmpstr (after, ==, before);
    }

  ids = pack_ids (f->path);
  g_assert_cmpuint (ids->len, ==, 2);
}

static void
test_pack_disk_full (PackFixture   *f,
                     gconstpointer  data)
{
  g_autofree char *before = read_text (f->path);
  gsize old_length = strlen (before);
  rlim_t limits[] = { 10, old_length + 10 };   /* the backup fails; the pack fails */

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_auto(ChildReport) report = { 0 };
      g_autofree char *after = NULL;
      g_autoptr(GPtrArray) names = NULL;

      run_child (FAULT_DISK_FULL, limits[i], NULL, pack_save_work, f, &report);
      assert_failed_with (&report, f->path, g_strerror (EFBIG));
      after = read_text (f->path);
      g_assert_cmpstr (after, ==, before);

      /* no temporary file is left behind */
      names = folder_names (f->rtk);
      g_assert_cmpuint (names->len, ==, 2);
      g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "filters.json");
      g_assert_cmpstr (g_ptr_array_index (names, 1), ==, "filters.json.bak");
    }
}

static void
test_pack_read_only (PackFixture   *f,
                     gconstpointer  data)
{
  g_autofree char *before = read_text (f->path);
  g_autofree char *after = NULL;
  g_auto(ChildReport) report = { 0 };

  g_assert_cmpint (g_chmod (f->rtk, 0500), ==, 0);
  run_child (FAULT_READ_ONLY, 0, f->rtk, pack_save_work, f, &report);
  g_assert_cmpint (g_chmod (f->rtk, 0755), ==, 0);
  if (skip_if_cannot_drop (&report))
    return;
  assert_failed_with (&report, f->path, g_strerror (EACCES));
  after = read_text (f->path);
  g_assert_cmpstr (after, ==, before);
}

/* A pack that cannot be read is not a missing one: saving must not replace it with a pack of
 * the one new filter. */
static void
test_pack_unreadable (PackFixture   *f,
                      gconstpointer  data)
{
  g_autofree char *before = read_text (f->path);
  g_autofree char *after = NULL;
  g_auto(ChildReport) report = { 0 };

  g_assert_cmpint (g_chmod (f->path, 0200), ==, 0);
  run_child (FAULT_UNREADABLE, 0, f->path, pack_save_work, f, &report);
  g_assert_cmpint (g_chmod (f->path, 0644), ==, 0);
  if (skip_if_cannot_drop (&report))
    return;
  assert_failed_with (&report, f->path, g_strerror (EACCES));
  g_assert_nonnull (strstr (report.errors->str, "cannot read the pack"));
  after = read_text (f->path);
  g_assert_cmpstr (after, ==, before);
}

/* Each child adds its own filters to the same pack, one save at a time: none may be lost to
 * the other's read-modify-write. */
#define SAVES_PER_CHILD 12

static gboolean
pack_many_work (gpointer data,
                int      report_fd)
{
  PackFixture *f = data;

  for (guint i = 0; i < SAVES_PER_CHILD; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *json = g_strdup_printf (
        "{ \"id\": \"f%02u\", \"label\": \"L\", \"category\": \"build\", \"match\": { \"commands\": [\"^f%02u\"] },"
        "  \"rules\": { \"dropPatterns\": [\"^noise\"] } }", f->first + i, f->first + i);

      if (!winnow_filter_pack_save_filter (f->path, json, NULL, &error))
        {
          report_error (report_fd, error);
          return FALSE;
        }
      report_success (report_fd);
    }
  return TRUE;
}

static void
test_pack_concurrent (PackFixture   *f,
                      gconstpointer  data)
{
  g_auto(ChildReport) a = { 0 };
  g_auto(ChildReport) b = { 0 };
  g_autoptr(GPtrArray) ids = NULL;
  Child ca;
  Child cb;

  f->first = 0;
  ca = child_start (FAULT_NONE, 0, NULL, pack_many_work, f);
  f->first = SAVES_PER_CHILD;
  cb = child_start (FAULT_NONE, 0, NULL, pack_many_work, f);

  /* a reader meanwhile always finds a whole pack */
  for (guint i = 0; i < 50; i++)
    {
      g_clear_pointer (&ids, g_ptr_array_unref);
      ids = pack_ids (f->path);
    }

  child_finish (&ca, &a);
  child_finish (&cb, &b);
  g_assert_cmpstr (a.errors->str, ==, "");
  g_assert_cmpstr (b.errors->str, ==, "");

  g_clear_pointer (&ids, g_ptr_array_unref);
  ids = pack_ids (f->path);
  g_assert_cmpuint (ids->len, ==, 2 + 2 * SAVES_PER_CHILD);
  for (guint i = 0; i < 2 * SAVES_PER_CHILD; i++)
    {
      g_autofree char *id = g_strdup_printf ("f%02u", i);

      g_assert_cmpstr (g_ptr_array_index (ids, i), ==, id);
    }
}

/* A writer that holds the pack's folder too long: the save gives up with an error naming the
 * pack, and the pack is as it was. (flock() locks belong to an open file description, so a
 * second open in this process conflicts like another process would.) */
static void
test_pack_lock_timeout (PackFixture   *f,
                        gconstpointer  data)
{
  g_autofree char *before = read_text (f->path);
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  int fd = open (f->rtk, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX), ==, 0);
  g_assert_false (winnow_filter_pack_save_filter (f->path, f->filter_json, NULL, &error));
  close (fd);

  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_IO);
  g_assert_nonnull (strstr (error->message, f->path));
  g_assert_nonnull (strstr (error->message, "locked"));
  after = read_text (f->path);
  g_assert_cmpstr (after, ==, before);
}

/* ---- the database ------------------------------------------------------------------------ */

typedef struct
{
  char   *dir;
  char   *path;
  gint64  before;
  guint   events;     /* how many each child records at most */
} StoreFixture;

static void
record_one (WinnowStore *store,
            const char  *command)
{
  g_autoptr(GError) error = NULL;
  WinnowStoreEvent event;

  winnow_store_event_init (&event, "cli");
  event.time_us = g_get_real_time ();
  event.command = command;
  event.bytes_before = 1000;
  event.bytes_after = 100;
  event.tokens_before = 250;
  event.tokens_after = 25;
  g_assert_true (winnow_store_record (store, &event, NULL, &error));
  g_assert_no_error (error);
}

static void
store_set_up (StoreFixture  *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = NULL;

  f->dir = g_dir_make_tmp ("winnow-faults-store-XXXXXX", NULL);
  f->path = winnow_store_default_path (f->dir);
  store = winnow_store_open (f->path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 20; i++)
    record_one (store, "make before");
  f->before = 20;
  f->events = 4000;
}

static void
store_tear_down (StoreFixture  *f,
                 gconstpointer  data)
{
  g_chmod (f->dir, 0700);
  test_util_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static gboolean
store_record_work (gpointer data,
                   int      report_fd)
{
  StoreFixture *f = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);

  if (store == NULL)
    {
      report_error (report_fd, error);
      return FALSE;
    }

  for (guint i = 0; i < f->events; i++)
    {
      WinnowStoreEvent event;

      winnow_store_event_init (&event, "run");
      event.time_us = g_get_real_time ();
      event.command = "make child";
      event.bytes_before = 2000;
      event.bytes_after = 200;
      event.tokens_before = 500;
      event.tokens_after = 50;
      if (!winnow_store_record (store, &event, NULL, &error))
        {
          report_error (report_fd, error);
          return FALSE;
        }
      report_success (report_fd);
    }
  return TRUE;
}

/* The database as a new process finds it: whole, with exactly @expected events. */
static void
assert_store_intact (StoreFixture *f,
                     gint64        expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open (f->path, &error);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (winnow_store_count_events (store, &error), ==, expected);
  g_assert_no_error (error);
  g_clear_object (&store);

  g_assert_cmpint (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL), ==,
                   SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "ok");
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

/* Killed inside a commit, at different sizes of the write-ahead log: every event the child saw
 * committed is there, the one it was writing is not, and the file is whole. */
static void
test_store_killed (StoreFixture  *f,
                   gconstpointer  data)
{
  rlim_t limits[] = { 4096, 40 * 1024, 200 * 1024, 1024 * 1024 };
  gint64 expected = f->before;

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_auto(ChildReport) report = { 0 };

      run_child (FAULT_KILLED, limits[i], NULL, store_record_work, f, &report);
      assert_killed_by_limit (&report);
      g_test_message ("limit %lu: killed after %u events", (gulong) limits[i], report.successes);
      expected += report.successes;
      assert_store_intact (f, expected);
    }
}

static void
test_store_disk_full (StoreFixture  *f,
                      gconstpointer  data)
{
  g_auto(ChildReport) report = { 0 };

  run_child (FAULT_DISK_FULL, 200 * 1024, NULL, store_record_work, f, &report);
  assert_failed_with (&report, f->path, g_strerror (EFBIG));
  g_assert_cmpuint (report.successes, <, f->events);
  assert_store_intact (f, f->before + report.successes);
}

static void
test_store_read_only (StoreFixture  *f,
                      gconstpointer  data)
{
  g_auto(ChildReport) report = { 0 };

  f->events = 1;
  g_assert_cmpint (g_chmod (f->dir, 0500), ==, 0);
  run_child (FAULT_READ_ONLY, 0, f->dir, store_record_work, f, &report);
  g_assert_cmpint (g_chmod (f->dir, 0700), ==, 0);
  if (skip_if_cannot_drop (&report))
    return;
  assert_failed_with (&report, f->path, "readonly");
  g_assert_cmpuint (report.successes, ==, 0);
  assert_store_intact (f, f->before);
}

/* Two processes recording at once, each its own connection: nothing lost. */
static void
test_store_concurrent (StoreFixture  *f,
                       gconstpointer  data)
{
  g_auto(ChildReport) a = { 0 };
  g_auto(ChildReport) b = { 0 };
  Child ca;
  Child cb;

  f->events = 150;
  ca = child_start (FAULT_NONE, 0, NULL, store_record_work, f);
  cb = child_start (FAULT_NONE, 0, NULL, store_record_work, f);
  child_finish (&ca, &a);
  child_finish (&cb, &b);
  g_assert_cmpstr (a.errors->str, ==, "");
  g_assert_cmpstr (b.errors->str, ==, "");
  g_assert_cmpuint (a.successes + b.successes, ==, 2 * f->events);
  assert_store_intact (f, f->before + 2 * f->events);
}

/* ---- raw outputs ------------------------------------------------------------------------- */

typedef struct
{
  char                *dir;
  char                *raw_dir;
  WinnowStore         *store;
  WinnowRawOutputInfo *previous;
} RawFixture;

static void
raw_set_up (RawFixture    *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  WinnowRawOutputRequest request;
  const char *text = "the previous output\n";

  f->dir = g_dir_make_tmp ("winnow-faults-raw-XXXXXX", NULL);
  path = winnow_store_default_path (f->dir);
  f->store = winnow_store_open (path, &error);
  g_assert_no_error (error);
  f->raw_dir = winnow_store_get_raw_output_dir (f->store);

  winnow_raw_output_request_init (&request, "run", text, strlen (text));
  request.compressed = TRUE;
  f->previous = winnow_store_save_raw_output (f->store, &request, 0, &error);
  g_assert_no_error (error);
}

static void
raw_tear_down (RawFixture    *f,
               gconstpointer  data)
{
  g_chmod (f->raw_dir, 0700);
  g_clear_object (&f->store);
  g_clear_pointer (&f->previous, winnow_raw_output_info_free);
  test_util_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->raw_dir);
}

static gboolean
raw_save_work (gpointer data,
               int      report_fd)
{
  RawFixture *f = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowRawOutputInfo) info = NULL;
  g_autofree char *big = g_strnfill (256 * 1024, 'x');
  WinnowRawOutputRequest request;

  winnow_raw_output_request_init (&request, "run", big, strlen (big));
  request.compressed = TRUE;
  info = winnow_store_save_raw_output (f->store, &request, 1024 * 1024, &error);
  if (info == NULL)
    {
      report_error (report_fd, error);
      return FALSE;
    }
  report_success (report_fd);
  return TRUE;
}

static void
assert_raw_as_before (RawFixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = winnow_store_read_raw_output (f->store, f->previous->id, NULL, &error);
  g_autoptr(GPtrArray) names = folder_names (f->raw_dir);
  guint outputs = 0;

  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   "the previous output\n", 20);
  g_assert_cmpint (winnow_store_count_raw_outputs (f->store, NULL, &error), ==, 1);

  /* no partial output under a real name: only the dead writer's temporary files */
  for (guint i = 0; i < names->len; i++)
    if (!g_str_has_prefix (g_ptr_array_index (names, i), ".tmp-"))
      outputs++;
  g_assert_cmpuint (outputs, ==, 1);
}

static void
test_raw_killed (RawFixture    *f,
                 gconstpointer  data)
{
  rlim_t limits[] = { 0, 1, 4096, 100 * 1024, 256 * 1024 - 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_auto(ChildReport) report = { 0 };

      run_child (FAULT_KILLED, limits[i], NULL, raw_save_work, f, &report);
      assert_killed_by_limit (&report);
      assert_raw_as_before (f);
    }

  /* the dead writers' temporary files go with the next purge */
  g_assert_cmpint (winnow_store_purge_raw_outputs (f->store, 0, &error), ==, 0);
  g_assert_no_error (error);
  names = folder_names (f->raw_dir);
  g_assert_cmpuint (names->len, ==, 1);
}

static void
test_raw_read_only (RawFixture    *f,
                    gconstpointer  data)
{
  g_auto(ChildReport) report = { 0 };
  g_autoptr(GPtrArray) names = NULL;

  g_assert_cmpint (g_chmod (f->raw_dir, 0500), ==, 0);
  run_child (FAULT_READ_ONLY, 0, f->raw_dir, raw_save_work, f, &report);
  g_assert_cmpint (g_chmod (f->raw_dir, 0700), ==, 0);
  if (skip_if_cannot_drop (&report))
    return;
  assert_failed_with (&report, f->raw_dir, g_strerror (EACCES));
  assert_raw_as_before (f);
  names = folder_names (f->raw_dir);
  g_assert_cmpuint (names->len, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, type, prefix, func) \
  g_test_add ("/winnow/faults/" path, type, NULL, prefix##_set_up, func, prefix##_tear_down)
  ADD ("trust/killed", TrustFixture, trust, test_trust_killed);
  ADD ("trust/disk-full", TrustFixture, trust, test_trust_disk_full);
  ADD ("trust/read-only", TrustFixture, trust, test_trust_read_only);
  ADD ("trust/not-a-folder", TrustFixture, trust, test_trust_not_a_folder);
  ADD ("trust/concurrent", TrustFixture, trust, test_trust_concurrent);
  ADD ("pack/killed", PackFixture, pack, test_pack_killed);
  ADD ("pack/disk-full", PackFixture, pack, test_pack_disk_full);
  ADD ("pack/read-only", PackFixture, pack, test_pack_read_only);
  ADD ("pack/unreadable", PackFixture, pack, test_pack_unreadable);
  ADD ("pack/concurrent", PackFixture, pack, test_pack_concurrent);
  ADD ("pack/lock-timeout", PackFixture, pack, test_pack_lock_timeout);
  ADD ("store/killed", StoreFixture, store, test_store_killed);
  ADD ("store/disk-full", StoreFixture, store, test_store_disk_full);
  ADD ("store/read-only", StoreFixture, store, test_store_read_only);
  ADD ("store/concurrent", StoreFixture, store, test_store_concurrent);
  ADD ("raw/killed", RawFixture, raw, test_raw_killed);
  ADD ("raw/read-only", RawFixture, raw, test_raw_read_only);
#undef ADD

  return g_test_run ();
}
