/* test-install.c — `meson install` puts every file in its place, and what it installs works
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Installs the build tree into a temporary DESTDIR, compares what landed there with what the
 * source tree says should (binary, schema, desktop file, metainfo, icons, man page, built-in
 * filters and rule packs, translations — and nothing else: libwinnow is a static library
 * linked into the binary, so no library or header is installed), then runs the installed
 * `winnow` from that prefix with an environment that names neither the source nor the build
 * tree. Under strace (when it is there) it also checks that no file of either tree is opened.
 */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "test-util.h"

typedef struct
{
  char *destdir;    /* the temporary DESTDIR */
  char *root;       /* DESTDIR + prefix */
  char *bindir;     /* DESTDIR + bindir */
  char *datadir;    /* DESTDIR + datadir */
  char *mandir;
  char *localedir;
  char *home;       /* an empty HOME and data dir for the runs */
  char *install_log;
} Install;

static char *
under_destdir (const char *destdir,
               const char *absolute)
{
  return g_build_filename (destdir, absolute, NULL);
}

/* Runs @argv (NULL-terminated) with only the environment a user's shell would give an installed
 * program: no WINNOW_SOURCE_DIR, G_TEST_SRCDIR, WINNOW_BUILTIN_FILTERS_DIR or display. @extra
 * holds more NAME=VALUE pairs. */
static void
run (Install            *install,
     TestRun                *r,
     const char         *input,
     const char * const *extra,
     const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) env = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *schemas = g_build_filename (install->datadir, "glib-2.0", "schemas", NULL);

  g_ptr_array_add (env, g_strdup_printf ("PATH=%s:/usr/bin:/bin", install->bindir));
  g_ptr_array_add (env, g_strdup_printf ("HOME=%s", install->home));
  g_ptr_array_add (env, g_strdup_printf ("XDG_DATA_HOME=%s/.local/share", install->home));
  g_ptr_array_add (env, g_strdup_printf ("XDG_CONFIG_HOME=%s/.config", install->home));
  g_ptr_array_add (env, g_strdup_printf ("XDG_DATA_DIRS=%s", install->datadir));
  g_ptr_array_add (env, g_strdup_printf ("GSETTINGS_SCHEMA_DIR=%s", schemas));
  g_ptr_array_add (env, g_strdup ("GSETTINGS_BACKEND=memory"));
  g_ptr_array_add (env, g_strdup ("LC_ALL=C.UTF-8"));
  g_ptr_array_add (env, g_strdup ("NO_COLOR=1"));
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    {
      /* a NAME=VALUE of @extra replaces the one above */
      gsize name_length = strcspn (extra[i], "=") + 1;

      for (guint j = 0; j < env->len; j++)
        if (strncmp (env->pdata[j], extra[i], name_length) == 0)
          g_ptr_array_remove_index (env, j--);
      g_ptr_array_add (env, g_strdup (extra[i]));
    }
  g_ptr_array_add (env, NULL);

  g_subprocess_launcher_set_environ (launcher, (char **) env->pdata);
  g_subprocess_launcher_set_cwd (launcher, install->home);

  test_run_spawn (r, launcher, input ? input : "", argv);
}

static char *
installed_winnow (Install *install)
{
  return g_build_filename (install->bindir, "winnow", NULL);
}

/* Every regular file under @dir, as paths relative to @base. */
static void
collect_files (const char *base,
               const char *dir,
               GHashTable *files)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        collect_files (base, path, files);
      else
        g_hash_table_add (files, g_strdup (path + strlen (base) + 1));
    }
}

/* @absolute as a path relative to DESTDIR */
static void
expect (GHashTable *expected,
        const char *absolute)
{
  g_hash_table_add (expected, g_strdup (absolute + (absolute[0] == '/')));
}

/* What the source tree says must be installed, as paths relative to DESTDIR. */
static GHashTable *
expected_files (Install *install)
{
  const char *source = g_getenv ("WINNOW_SOURCE_DIR");
  const char *bindir = g_getenv ("WINNOW_INSTALL_BINDIR");
  const char *datadir = g_getenv ("WINNOW_INSTALL_DATADIR");
  const char *mandir = g_getenv ("WINNOW_INSTALL_MANDIR");
  const char *localedir = g_getenv ("WINNOW_INSTALL_LOCALEDIR");
  GHashTable *expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *filters = g_build_filename (source, "filters", NULL);
  g_autofree char *rules = g_build_filename (source, "rules", NULL);
  g_autofree char *linguas_path = g_build_filename (source, "po", "LINGUAS", NULL);
  g_autofree char *linguas = NULL;
  g_autoptr(GHashTable) rule_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GDir) dir = NULL;
  GHashTableIter iter;
  const char *name;

  {
    g_autofree char *path = g_build_filename (bindir, "winnow", NULL);
    expect (expected, path);
  }
  /* the HTTP API, a program of its own that `winnow serve` execs */
  {
    g_autofree char *path = g_build_filename (g_getenv ("WINNOW_INSTALL_LIBEXECDIR"),
                                              "winnow-serve", NULL);
    expect (expected, path);
  }
#ifdef WINNOW_TEST_HAVE_GTK
  /* the dashboard, a program of its own that `winnow` without a subcommand execs */
  {
    g_autofree char *path = g_build_filename (g_getenv ("WINNOW_INSTALL_LIBEXECDIR"),
                                              "winnow-dashboard", NULL);
    expect (expected, path);
  }
#endif

#define DATA(...) G_STMT_START {                                             \
    g_autofree char *path_ = g_build_filename (datadir, __VA_ARGS__, NULL);  \
    expect (expected, path_);                              \
  } G_STMT_END

  DATA ("applications", APP_ID ".desktop");
  DATA ("metainfo", APP_ID ".metainfo.xml");
  DATA ("glib-2.0", "schemas", APP_ID ".gschema.xml");
  DATA ("icons", "hicolor", "scalable", "apps", APP_ID ".svg");
  DATA ("icons", "hicolor", "symbolic", "apps", APP_ID "-symbolic.svg");
  DATA ("winnow", "rules", "_schema.json");
  DATA ("doc", "winnow", "tokenizer", "README.md");   /* the vocabulary's provenance, MIT */

  {
    g_autofree char *path = g_build_filename (mandir, "man1", "winnow.1", NULL);
    expect (expected, path);
  }

  /* every built-in filter */
  dir = g_dir_open (filters, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      DATA ("winnow", "filters", name);
  g_clear_pointer (&dir, g_dir_close);

  /* every rule pack, language by language */
  collect_files (rules, rules, rule_files);
  g_hash_table_iter_init (&iter, rule_files);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    if (strchr (name, '/') != NULL && g_str_has_suffix (name, ".json"))
      DATA ("winnow", "rules", name);

#undef DATA

  /* a catalog per language of po/LINGUAS */
  g_assert_true (g_file_get_contents (linguas_path, &linguas, NULL, NULL));
  {
    g_auto(GStrv) lines = g_strsplit (linguas, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_autofree char *line = g_strstrip (g_strdup (lines[i]));
        g_autofree char *path = NULL;

        if (line[0] == '\0' || line[0] == '#')
          continue;
        path = g_build_filename (localedir, line, "LC_MESSAGES", "winnow.mo", NULL);
        expect (expected, path);
      }
  }

  return expected;
}

/* Caches the post-install step may write when it runs on a DESTDIR. */
static gboolean
is_generated_cache (const char *relative)
{
  return g_str_has_suffix (relative, "/gschemas.compiled") ||
         g_str_has_suffix (relative, "/icon-theme.cache") ||
         g_str_has_suffix (relative, "/mimeinfo.cache");
}

static void
test_every_file_in_place (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autoptr(GHashTable) expected = expected_files (install);
  g_autoptr(GHashTable) installed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  const char *path;
  guint filters = 0, rules = 0;

  collect_files (install->destdir, install->destdir, installed);

  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    {
      if (!g_hash_table_contains (installed, path))
        g_error ("meson install did not install /%s\n%s", path, install->install_log);
      filters += strstr (path, "/winnow/filters/") != NULL;
      rules += strstr (path, "/winnow/rules/") != NULL;
    }

  /* the source tree really has these, so the comparison is not vacuous */
  g_assert_cmpuint (filters, >=, 50);
  g_assert_cmpuint (rules, >=, 40);

  /* and nothing else: no static library, header or pkg-config file */
  g_hash_table_iter_init (&iter, installed);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    if (!g_hash_table_contains (expected, path) && !is_generated_cache (path))
      g_error ("meson install installed /%s, which nothing asks for", path);

  /* the binary is executable and the man page is the one in docs/ */
  {
    g_autofree char *winnow = installed_winnow (install);
    g_autofree char *man = g_build_filename (install->mandir, "man1", "winnow.1", NULL);
    g_autofree char *source_man = g_build_filename (g_getenv ("WINNOW_SOURCE_DIR"), "docs",
                                                    "winnow.1", NULL);
    g_autofree char *a = NULL, *b = NULL;

    g_assert_true (g_file_test (winnow, G_FILE_TEST_IS_EXECUTABLE));
    g_assert_true (g_file_get_contents (man, &a, NULL, NULL));
    g_assert_true (g_file_get_contents (source_man, &b, NULL, NULL));
    g_assert_cmpstr (a, ==, b);
  }
}

static void
test_version (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autofree char *winnow = installed_winnow (install);
  const char *argv[] = { winnow, "--version", NULL };
  g_auto(TestRun) r = { 0 };

  run (install, &r, NULL, NULL, argv);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "winnow " PACKAGE_VERSION "\n");
}

static GHashTable *
filter_ids (const char *json_text,
            const char *want_source)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonArray *filters;

  json_parser_load_from_data (parser, json_text, -1, &error);
  g_assert_no_error (error);
  filters = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "filters");
  for (guint i = 0; i < json_array_get_length (filters); i++)
    {
      JsonObject *filter = json_array_get_object_element (filters, i);

      g_assert_cmpstr (json_object_get_string_member (filter, "source"), ==, want_source);
      g_hash_table_add (ids, g_strdup (json_object_get_string_member (filter, "id")));
    }

  return ids;
}

/* The installed filter files are the filters the installed binary runs: the catalog read from
 * $datadir/winnow/filters has exactly the ids of the one compiled in. */
static void
test_filters (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autofree char *winnow = installed_winnow (install);
  g_autofree char *filters_dir = g_build_filename (install->datadir, "winnow", "filters", NULL);
  g_autofree char *from_files = g_strdup_printf ("WINNOW_BUILTIN_FILTERS_DIR=%s", filters_dir);
  const char *files_env[] = { from_files, NULL };
  const char *argv[] = { winnow, "filters", "--json", "--no-project", NULL };
  const char *plain_argv[] = { winnow, "filters", "--no-project", NULL };
  g_auto(TestRun) compiled = { 0 };
  g_auto(TestRun) installed = { 0 };
  g_auto(TestRun) plain = { 0 };
  g_autoptr(GHashTable) compiled_ids = NULL;
  g_autoptr(GHashTable) installed_ids = NULL;
  GHashTableIter iter;
  const char *id;

  run (install, &compiled, NULL, NULL, argv);
  g_assert_cmpstr (compiled.err, ==, "");
  g_assert_cmpint (compiled.status, ==, 0);
  run (install, &installed, NULL, files_env, argv);
  g_assert_cmpstr (installed.err, ==, "");
  g_assert_cmpint (installed.status, ==, 0);

  compiled_ids = filter_ids (compiled.out, "built-in");
  installed_ids = filter_ids (installed.out, "built-in");
  g_assert_cmpuint (g_hash_table_size (compiled_ids), >=, 50);
  g_assert_cmpuint (g_hash_table_size (installed_ids), ==, g_hash_table_size (compiled_ids));
  g_hash_table_iter_init (&iter, compiled_ids);
  while (g_hash_table_iter_next (&iter, (gpointer *) &id, NULL))
    g_assert_true (g_hash_table_contains (installed_ids, id));

  /* the table a person reads lists them too */
  run (install, &plain, NULL, NULL, plain_argv);
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_true (strstr (plain.out, "test-cargo") != NULL);
}

/* The installed packs pass their own tests, read from the prefix. */
static void
test_verify_installed_packs (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autofree char *winnow = installed_winnow (install);
  g_autofree char *filters_dir = g_build_filename (install->datadir, "winnow", "filters", NULL);
  g_autofree char *rules_dir = g_build_filename (install->datadir, "winnow", "rules", NULL);
  const char *argv[] = { winnow, "verify", "--strict", "--no-project", filters_dir, rules_dir,
                         NULL };
  g_auto(TestRun) r = { 0 };

  run (install, &r, NULL, NULL, argv);
  if (r.status != 0)
    g_error ("winnow verify of the installed packs failed:\n%s%s", r.out, r.err);
}

static char *
read_sample (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WINNOW_SOURCE_DIR"), "tests", "corpus",
                                            "samples", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* Real output through the installed binary: the filter is found, the failure survives, and the
 * result is smaller. */
static void
test_compress (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autofree char *winnow = installed_winnow (install);
  g_autofree char *sample = read_sample ("cargo-test-fail.txt");
  const char *argv[] = { winnow, "compress", "--command", "cargo test", "--mode", "rtk",
                         "--json", NULL };
  g_auto(TestRun) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *result;
  const char *text;

  run (install, &r, sample, NULL, argv);
  g_assert_cmpint (r.status, ==, 0);
  json_parser_load_from_data (parser, r.out, -1, &error);
  g_assert_no_error (error);
  result = json_node_get_object (json_parser_get_root (parser));

  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (result, "filter"),
                                                  "id"), ==, "test-cargo");
  text = json_object_get_string_member (result, "text");
  g_assert_cmpuint (strlen (text), <, strlen (sample));
  g_assert_true (strstr (text, "test result: FAILED") != NULL);
}

/* `winnow serve` finds winnow-serve where the install put it, relative to the installed
 * `winnow`, and runs it: the token is made in the data folder and printed. */
static void
test_serve (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autofree char *winnow = installed_winnow (install);
  g_autofree char *token_path = g_build_filename (install->home, ".local", "share", "winnow",
                                                  "api-token", NULL);
  g_autofree char *token = NULL;
  const char *argv[] = { winnow, "serve", "--show-token", NULL };
  const char *help_argv[] = { winnow, "serve", "--help", NULL };
  g_auto(TestRun) r = { 0 };
  g_auto(TestRun) help = { 0 };

  run (install, &r, NULL, NULL, argv);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (token_path, &token, NULL, NULL));
  g_assert_cmpstr (g_strstrip (r.out), ==, g_strstrip (token));
  g_assert_cmpuint (strlen (token), ==, 64);

  /* the helper's usage names the command as the user typed it */
  run (install, &help, NULL, NULL, help_argv);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_true (g_str_has_prefix (help.out, "Usage:\n  winnow serve [OPTION…]"));
}

/* The dashboard finds its settings schema in the prefix: with GSETTINGS_SCHEMA_DIR pointing into
 * the installed tree (compiled there), `winnow` gets past the schema check and only then fails
 * for want of a display; without it, it stops at the schema check. */
static void
test_schema_from_prefix (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autofree char *winnow = installed_winnow (install);
  g_autofree char *schemas = g_build_filename (install->datadir, "glib-2.0", "schemas", NULL);
  g_autofree char *compile = g_find_program_in_path ("glib-compile-schemas");
  g_autoptr(GSettingsSchemaSource) source = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GError) error = NULL;
  const char *dashboard[] = { winnow, NULL };
  const char *no_schema[] = { "GSETTINGS_SCHEMA_DIR=/nonexistent", "XDG_DATA_DIRS=/nonexistent",
                              NULL };
  g_auto(TestRun) with = { 0 };
  g_auto(TestRun) without = { 0 };

  if (compile == NULL)
    {
      g_test_skip ("glib-compile-schemas is not installed");
      return;
    }

  {
    const char *argv[] = { compile, "--strict", schemas, NULL };
    g_auto(TestRun) r = { 0 };

    run (install, &r, NULL, NULL, argv);
    g_assert_cmpstr (r.err, ==, "");
    g_assert_cmpint (r.status, ==, 0);
  }

  source = g_settings_schema_source_new_from_directory (schemas, NULL, TRUE, &error);
  g_assert_no_error (error);
  schema = g_settings_schema_source_lookup (source, APP_ID, FALSE);
  g_assert_nonnull (schema);
  g_assert_true (g_settings_schema_has_key (schema, "style-variant"));

#ifdef WINNOW_TEST_HAVE_GTK
  run (install, &with, NULL, NULL, dashboard);
  g_assert_cmpint (with.status, !=, 0);          /* no display in this environment */
  g_assert_null (strstr (with.err, "is not installed"));
  g_assert_nonnull (strstr (with.err, "cannot open display"));

  run (install, &without, NULL, no_schema, dashboard);
  g_assert_cmpint (without.status, ==, 1);
  g_assert_nonnull (strstr (without.err, "settings schema " APP_ID " is not installed"));
#else
  (void) dashboard;
  (void) no_schema;
  (void) with;
  (void) without;
#endif
}

/* Nothing of the source or build tree is opened by the installed binary. */
static void
test_no_source_tree (gconstpointer data)
{
  Install *install = (Install *) data;
  g_autofree char *strace = g_find_program_in_path ("strace");
  g_autofree char *winnow = installed_winnow (install);
  g_autofree char *trace = g_build_filename (install->home, "strace.txt", NULL);
  g_autofree char *sample = read_sample ("jest-fail.txt");
  g_autofree char *trace_text = NULL;
  g_autofree char *source = NULL;
  g_autofree char *build = NULL;
  g_auto(TestRun) probe = { 0 };
  const char *probe_argv[] = { strace ? strace : "strace", "-o", "/dev/null", "true", NULL };

  if (strace == NULL)
    {
      g_test_skip ("strace is not installed");
      return;
    }
  run (install, &probe, NULL, NULL, probe_argv);
  if (probe.status != 0)
    {
      g_test_skip ("strace cannot trace here (no ptrace)");
      return;
    }

  source = g_canonicalize_filename (g_getenv ("WINNOW_SOURCE_DIR"), NULL);
  build = g_canonicalize_filename (g_getenv ("WINNOW_BUILD_DIR"), NULL);

  {
    const char *argv[] = { strace, "-f", "-qq", "-e", "trace=open,openat,stat,access,execve",
                           "-o", trace, winnow, "compress", "--command", "npx jest", NULL };
    /* LeakSanitizer refuses to run under ptrace: in a sanitizer build the traced run only
     * leaves the leak check out (the other runs keep it) */
    const char *extra[] = { "ASAN_OPTIONS=detect_leaks=0", NULL };
    g_auto(TestRun) r = { 0 };
    g_autoptr(GError) error = NULL;

    run (install, &r, sample, extra, argv);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, !=, "");
    g_file_get_contents (trace, &trace_text, NULL, &error);
    g_assert_no_error (error);
  }

  g_assert_true (strstr (trace_text, winnow) != NULL);   /* the trace is real */
  if (strstr (trace_text, source) != NULL || strstr (trace_text, build) != NULL)
    g_error ("the installed winnow touched the source or build tree:\n%s", trace_text);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *meson = g_find_program_in_path ("meson");
  Install install = { 0 };
  int status;

  g_test_init (&argc, &argv, NULL);

  g_assert_nonnull (g_getenv ("WINNOW_SOURCE_DIR"));
  g_assert_nonnull (g_getenv ("WINNOW_BUILD_DIR"));

  if (meson == NULL)
    {
      g_test_skip ("meson is not in PATH");
      return g_test_run ();
    }

  install.destdir = g_dir_make_tmp ("winnow-install-XXXXXX", NULL);
  g_assert_nonnull (install.destdir);
  install.root = under_destdir (install.destdir, g_getenv ("WINNOW_INSTALL_PREFIX"));
  install.bindir = under_destdir (install.destdir, g_getenv ("WINNOW_INSTALL_BINDIR"));
  install.datadir = under_destdir (install.destdir, g_getenv ("WINNOW_INSTALL_DATADIR"));
  install.mandir = under_destdir (install.destdir, g_getenv ("WINNOW_INSTALL_MANDIR"));
  install.localedir = under_destdir (install.destdir, g_getenv ("WINNOW_INSTALL_LOCALEDIR"));
  install.home = g_dir_make_tmp ("winnow-install-home-XXXXXX", NULL);

  /* the tests build everything first; installing must not start another build */
  {
    const char *install_argv[] = { meson, "install", "-C", g_getenv ("WINNOW_BUILD_DIR"),
                                   "--no-rebuild", "--destdir", install.destdir, NULL };
    g_autoptr(GSubprocess) proc = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *err = NULL;

    proc = g_subprocess_newv (install_argv,
                              G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE,
                              &error);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (proc, NULL, NULL, &install.install_log, &err, &error);
    g_assert_no_error (error);
    if (g_subprocess_get_exit_status (proc) != 0)
      g_error ("meson install failed:\n%s", install.install_log);
  }

  g_test_add_data_func ("/install/every-file-in-place", &install, test_every_file_in_place);
  g_test_add_data_func ("/install/version", &install, test_version);
  g_test_add_data_func ("/install/filters", &install, test_filters);
  g_test_add_data_func ("/install/verify-installed-packs", &install, test_verify_installed_packs);
  g_test_add_data_func ("/install/compress", &install, test_compress);
  g_test_add_data_func ("/install/serve", &install, test_serve);
  g_test_add_data_func ("/install/schema-from-prefix", &install, test_schema_from_prefix);
  g_test_add_data_func ("/install/no-source-tree", &install, test_no_source_tree);

  status = g_test_run ();

  test_util_remove_tree (install.destdir);
  test_util_remove_tree (install.home);
  g_free (install.destdir);
  g_free (install.root);
  g_free (install.bindir);
  g_free (install.datadir);
  g_free (install.mandir);
  g_free (install.localedir);
  g_free (install.home);
  g_free (install.install_log);

  return status;
}
