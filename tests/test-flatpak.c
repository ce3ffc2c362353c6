/* test-flatpak.c — the Flatpak manifest is well formed and agrees with the rest of the tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * flatpak-builder cannot run here (no runtimes, no network), so this checks what a build would
 * trip over first: the manifest parses, names the same application id as the desktop file, the
 * metainfo and the GApplication, runs a command the meson install really puts in bindir, uses a
 * GNOME runtime new enough for GTK 4.8 / libadwaita 1.2, asks for no blanket host access, and
 * every module has sources that exist.
 */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

/* GNOME 43 was the first runtime with GTK 4.8 and libadwaita 1.2; 44 the first to also drop
 * libsoup 2, so nothing older is acceptable. */
#define OLDEST_RUNTIME 44

typedef struct
{
  char       *manifest_path;
  JsonParser *parser;
  JsonObject *root;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  f->manifest_path = g_build_filename (g_getenv ("WINNOW_SOURCE_DIR"), "flatpak",
                                       APP_ID ".json", NULL);
  f->parser = json_parser_new ();
  json_parser_load_from_file (f->parser, f->manifest_path, &error);
  g_assert_no_error (error);

  root = json_parser_get_root (f->parser);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  f->root = json_node_get_object (root);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->parser);
  g_clear_pointer (&f->manifest_path, g_free);
}

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    g_error ("flatpak manifest: $.%s must be a string", member);

  return json_node_get_string (node);
}

static char *
source_path (const char *first,
             ...)
{
  const char *root = g_getenv ("WINNOW_SOURCE_DIR");
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  va_list args;
  const char *part;

  g_ptr_array_add (parts, (gpointer) root);
  va_start (args, first);
  for (part = first; part != NULL; part = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) part);
  va_end (args);
  g_ptr_array_add (parts, NULL);

  return g_build_filenamev ((char **) parts->pdata);
}

static void
test_required_keys (Fixture       *f,
                    gconstpointer  data)
{
  const char *required[] = { "id", "runtime", "runtime-version", "sdk", "command" };

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    g_assert_cmpstr (get_string (f->root, required[i]), !=, "");

  g_assert_true (json_object_has_member (f->root, "finish-args"));
  g_assert_nonnull (json_object_get_array_member (f->root, "finish-args"));
  g_assert_true (json_object_has_member (f->root, "modules"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (f->root, "modules")), >, 0);

  /* "app-id" is the old spelling; one manifest must not carry both */
  g_assert_false (json_object_has_member (f->root, "app-id"));
}

/* The desktop file's basename, the metainfo's <id> and launchable, the GApplication id and the
 * manifest's id must all be one string: the shell matches windows to launchers by it, and
 * Flathub refuses a mismatch. */
typedef struct
{
  GString *id;
  GString *launchable;
  GString *text;
  gboolean in_id;
  gboolean in_launchable;
  int      depth;
} MetainfoIds;

static void
metainfo_start (GMarkupParseContext  *context,
                const char           *element,
                const char          **names,
                const char          **values,
                gpointer              user_data,
                GError              **error)
{
  MetainfoIds *ids = user_data;

  ids->depth++;
  ids->in_id = ids->depth == 2 && g_str_equal (element, "id");
  ids->in_launchable = ids->depth == 2 && g_str_equal (element, "launchable");
  g_string_truncate (ids->text, 0);
}

static void
metainfo_end (GMarkupParseContext  *context,
              const char           *element,
              gpointer              user_data,
              GError              **error)
{
  MetainfoIds *ids = user_data;

  if (ids->in_id)
    g_string_assign (ids->id, g_strstrip (ids->text->str));
  if (ids->in_launchable)
    g_string_assign (ids->launchable, g_strstrip (ids->text->str));
  ids->in_id = ids->in_launchable = FALSE;
  ids->depth--;
}

static void
metainfo_text (GMarkupParseContext  *context,
               const char           *text,
               gsize                 length,
               gpointer              user_data,
               GError              **error)
{
  MetainfoIds *ids = user_data;

  if (ids->in_id || ids->in_launchable)
    g_string_append_len (ids->text, text, length);
}

static void
test_ids_agree (Fixture       *f,
                gconstpointer  data)
{
  const char *id = get_string (f->root, "id");
  g_autofree char *desktop_in = source_path ("data", APP_ID ".desktop.in", NULL);
  g_autofree char *metainfo_in = source_path ("data", APP_ID ".metainfo.xml.in", NULL);
  g_autofree char *schema = source_path ("data", APP_ID ".gschema.xml", NULL);
  g_autofree char *application = source_path ("ui", "winnow-application.c", NULL);
  g_autofree char *metainfo = NULL;
  g_autofree char *schema_text = NULL;
  g_autofree char *application_text = NULL;
  g_autofree char *schema_id = g_strdup_printf ("id=\"%s\"", id);
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  GMarkupParser parser = { metainfo_start, metainfo_end, metainfo_text, NULL, NULL };
  MetainfoIds ids = { g_string_new (NULL), g_string_new (NULL), g_string_new (NULL) };

  /* the build's APP_ID is what GApplication, GSettings and the installed files use */
  g_assert_cmpstr (id, ==, APP_ID);

  g_assert_true (g_file_test (desktop_in, G_FILE_TEST_IS_REGULAR));

  g_file_get_contents (metainfo_in, &metainfo, NULL, &error);
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&parser, 0, &ids, NULL);
  g_markup_parse_context_parse (context, metainfo, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ids.id->str, ==, id);
  g_assert_cmpstr (ids.launchable->str, ==, APP_ID ".desktop");

  g_file_get_contents (schema, &schema_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strstr (schema_text, schema_id) != NULL);

  /* the GApplication is registered with the build's APP_ID, not a literal that could drift */
  g_file_get_contents (application, &application_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strstr (application_text, "\"application-id\", APP_ID") != NULL);

  g_string_free (ids.id, TRUE);
  g_string_free (ids.launchable, TRUE);
  g_string_free (ids.text, TRUE);
}

/* meson's own record of what it installs (meson-info/intro-installed.json): does it put a file
 * at @path? */
static gboolean
meson_installs (const char *path)
{
  g_autofree char *installed_json = g_build_filename (g_getenv ("WINNOW_BUILD_DIR"), "meson-info",
                                                      "intro-installed.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) targets = NULL;
  gboolean found = FALSE;

  json_parser_load_from_file (parser, installed_json, &error);
  g_assert_no_error (error);
  targets = json_object_get_values (json_node_get_object (json_parser_get_root (parser)));
  for (GList *l = targets; l != NULL && !found; l = l->next)
    found = g_strcmp0 (json_node_get_string (l->data), path) == 0;

  return found;
}

/* `command` must be a program the meson install really puts in bindir, and the desktop file and
 * metainfo must be installed under the id's name. */
static void
test_install_names (Fixture       *f,
                    gconstpointer  data)
{
  const char *command = get_string (f->root, "command");
  const char *id = get_string (f->root, "id");
  const char *datadir = g_getenv ("WINNOW_INSTALL_DATADIR");
  g_autofree char *program = g_build_filename (g_getenv ("WINNOW_INSTALL_BINDIR"), command, NULL);
  g_autofree char *desktop_name = g_strconcat (id, ".desktop", NULL);
  g_autofree char *metainfo_name = g_strconcat (id, ".metainfo.xml", NULL);
  g_autofree char *desktop = g_build_filename (datadir, "applications", desktop_name, NULL);
  g_autofree char *metainfo = g_build_filename (datadir, "metainfo", metainfo_name, NULL);

  g_assert_null (strchr (command, '/'));
  if (!meson_installs (program))
    g_error ("flatpak manifest: command “%s” is not installed by meson (expected %s)",
             command, program);
  if (!meson_installs (desktop))
    g_error ("meson does not install the desktop file as %s", desktop);
  if (!meson_installs (metainfo))
    g_error ("meson does not install the metainfo as %s", metainfo);
}

static void
test_runtime_is_sane (Fixture       *f,
                      gconstpointer  data)
{
  const char *version = get_string (f->root, "runtime-version");
  char *end = NULL;
  gint64 number;

  g_assert_cmpstr (get_string (f->root, "runtime"), ==, "org.gnome.Platform");
  g_assert_cmpstr (get_string (f->root, "sdk"), ==, "org.gnome.Sdk");

  /* a stable branch: a plain number, not "master" or a nightly */
  number = g_ascii_strtoll (version, &end, 10);
  g_assert_true (end != version && *end == '\0');
  g_assert_cmpint (number, >=, OLDEST_RUNTIME);
  g_assert_cmpint (number, <, 100);
}

static void
test_finish_args_are_narrow (Fixture       *f,
                             gconstpointer  data)
{
  JsonArray *args = json_object_get_array_member (f->root, "finish-args");
  const char *forbidden[] = {
    "--filesystem=host", "--filesystem=host-os", "--filesystem=host-etc", "--filesystem=/",
    "--filesystem=home", "--device=all", "--socket=system-bus", "--socket=session-bus",
    "--talk-name=org.freedesktop.Flatpak",
  };
  gboolean wayland = FALSE, x11_fallback = FALSE, dri = FALSE;

  for (guint i = 0; i < json_array_get_length (args); i++)
    {
      const char *arg = json_array_get_string_element (args, i);

      g_assert_nonnull (arg);
      for (guint j = 0; j < G_N_ELEMENTS (forbidden); j++)
        {
          /* "--filesystem=home:ro" is also refused: the FileChooser portal covers files and
           * project folders. "--filesystem=host:ro" and such fall under the prefix check. */
          if (g_str_equal (arg, forbidden[j]) ||
              (g_str_has_prefix (arg, forbidden[j]) && arg[strlen (forbidden[j])] == ':'))
            g_error ("flatpak manifest: finish-args must not hold %s", arg);
        }

      wayland |= g_str_equal (arg, "--socket=wayland");
      x11_fallback |= g_str_equal (arg, "--socket=fallback-x11");
      dri |= g_str_equal (arg, "--device=dri");
      g_assert_cmpstr (arg, !=, "--socket=x11");   /* fallback-x11 only, never both */
    }

  g_assert_true (wayland);
  g_assert_true (x11_fallback);
  g_assert_true (dri);
}

static void
check_module (JsonNode   *module,
              const char *manifest_dir,
              guint       index)
{
  JsonObject *object;
  JsonArray *sources;

  /* a module may be a file name of its own manifest */
  if (JSON_NODE_HOLDS_VALUE (module))
    {
      g_autofree char *path = g_build_filename (manifest_dir, json_node_get_string (module), NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_error ("flatpak manifest: $.modules[%u] names %s, which does not exist", index, path);
      return;
    }

  g_assert_true (JSON_NODE_HOLDS_OBJECT (module));
  object = json_node_get_object (module);
  g_assert_cmpstr (get_string (object, "name"), !=, "");

  if (!json_object_has_member (object, "sources") ||
      json_array_get_length (json_object_get_array_member (object, "sources")) == 0)
    g_error ("flatpak manifest: $.modules[%u] (%s) has no sources", index,
             json_object_get_string_member (object, "name"));

  sources = json_object_get_array_member (object, "sources");
  for (guint i = 0; i < json_array_get_length (sources); i++)
    {
      JsonObject *source = json_array_get_object_element (sources, i);
      const char *type = get_string (source, "type");

      if (g_str_equal (type, "dir"))
        {
          g_autofree char *dir = g_build_filename (manifest_dir, get_string (source, "path"), NULL);
          g_autofree char *meson = g_build_filename (dir, "meson.build", NULL);
          g_autofree char *ours = source_path ("meson.build", NULL);
          g_autofree char *a = NULL, *b = NULL;

          /* the app module is this very source tree */
          g_assert_true (g_file_get_contents (meson, &a, NULL, NULL));
          g_assert_true (g_file_get_contents (ours, &b, NULL, NULL));
          g_assert_cmpstr (a, ==, b);
        }
      else if (g_str_equal (type, "archive") || g_str_equal (type, "file"))
        {
          /* remote sources are pinned */
          g_assert_true (json_object_has_member (source, "url"));
          g_assert_true (json_object_has_member (source, "sha256"));
        }
      else if (g_str_equal (type, "git"))
        g_assert_true (json_object_has_member (source, "commit") ||
                       json_object_has_member (source, "tag"));
    }

  if (json_object_has_member (object, "modules"))
    {
      JsonArray *nested = json_object_get_array_member (object, "modules");

      for (guint i = 0; i < json_array_get_length (nested); i++)
        check_module (json_array_get_element (nested, i), manifest_dir, i);
    }
}

static void
test_modules_have_sources (Fixture       *f,
                           gconstpointer  data)
{
  JsonArray *modules = json_object_get_array_member (f->root, "modules");
  g_autofree char *manifest_dir = g_path_get_dirname (f->manifest_path);
  JsonObject *last;

  for (guint i = 0; i < json_array_get_length (modules); i++)
    check_module (json_array_get_element (modules, i), manifest_dir, i);

  /* the app itself is the last module, built with meson from this tree */
  last = json_array_get_object_element (modules, json_array_get_length (modules) - 1);
  g_assert_cmpstr (get_string (last, "buildsystem"), ==, "meson");
  g_assert_cmpstr (get_string (json_array_get_object_element (
                     json_object_get_array_member (last, "sources"), 0), "type"), ==, "dir");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_assert_nonnull (g_getenv ("WINNOW_SOURCE_DIR"));
  g_assert_nonnull (g_getenv ("WINNOW_BUILD_DIR"));
  g_assert_nonnull (g_getenv ("WINNOW_INSTALL_BINDIR"));
  g_assert_nonnull (g_getenv ("WINNOW_INSTALL_DATADIR"));

  g_test_add ("/flatpak/required-keys", Fixture, NULL, fixture_set_up, test_required_keys,
              fixture_tear_down);
  g_test_add ("/flatpak/ids-agree", Fixture, NULL, fixture_set_up, test_ids_agree,
              fixture_tear_down);
  g_test_add ("/flatpak/install-names", Fixture, NULL, fixture_set_up, test_install_names,
              fixture_tear_down);
  g_test_add ("/flatpak/runtime-is-sane", Fixture, NULL, fixture_set_up, test_runtime_is_sane,
              fixture_tear_down);
  g_test_add ("/flatpak/finish-args-are-narrow", Fixture, NULL, fixture_set_up,
              test_finish_args_are_narrow, fixture_tear_down);
  g_test_add ("/flatpak/modules-have-sources", Fixture, NULL, fixture_set_up,
              test_modules_have_sources, fixture_tear_down);

  return g_test_run ();
}
