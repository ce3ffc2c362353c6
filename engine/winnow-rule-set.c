/* winnow-rule-set.c — every Caveman rule pack Winnow knows, by language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Packs come from the built-in `rules/` (compiled in as a resource), from the global
 * `DATA_DIR/rules/<language>/<pack>.json`, and from files or directories named on the command
 * line; a later source's pack replaces an earlier one of the same language and name, so a
 * person can override one built-in pack without copying the others. `_abbreviations.json`
 * beside the packs of a language holds the table expand() uses; other files whose name starts
 * with `_` (such as `_schema.json`) are not packs.
 *
 * Packs are read when their language is first asked for: one prose message needs one
 * language, and compiling every pack of every language would cost a CLI call more than the
 * compression itself.
 *
 * Sources are added before the set is shared; after that, any number of threads may ask for
 * packs at once (the pipeline runs on worker threads): reading a pack the first time happens
 * under a lock, and a pack once read is immutable.
 */

#define G_LOG_DOMAIN "winnow-rule-set"

#include "config.h"

#include <string.h>

#include "winnow-json-locator.h"
#include "winnow-json-reader.h"
#include "winnow-rule-set.h"

#define BUILTIN_RESOURCE_PATH "/io/github/winnow/Winnow/rules/"
#define ABBREVIATIONS_FILE "_abbreviations.json"

typedef struct
{
  char           *language;  /* from the directory the file sits in */
  char           *name;      /* file name without .json */
  char           *source;
  char           *resource;  /* built-in: the resource path */
  char           *path;      /* otherwise: the file */
  WinnowRulePack *pack;
  gboolean        loaded;
} Entry;

typedef struct
{
  char       *language;
  char       *source;
  char       *resource;
  char       *path;
  GHashTable *table;         /* short → long, once loaded */
  gboolean    loaded;
} AbbreviationsEntry;

struct _WinnowRuleSet
{
  GObject     parent_instance;
  GPtrArray  *entries;        /* Entry, later sources after earlier ones */
  GPtrArray  *retired;        /* Entry replaced by a later source; strings handed out of it
                               * (a resolved language) stay valid until the set goes */
  GPtrArray  *abbreviations;  /* AbbreviationsEntry */
  GPtrArray  *diagnostics;
  GMutex      lock;           /* held while packs and tables are read on first use */
};

G_DEFINE_FINAL_TYPE (WinnowRuleSet, winnow_rule_set, G_TYPE_OBJECT)

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->language);
  g_free (entry->name);
  g_free (entry->source);
  g_free (entry->resource);
  g_free (entry->path);
  g_clear_object (&entry->pack);
  g_free (entry);
}

static void
abbreviations_entry_free (gpointer data)
{
  AbbreviationsEntry *entry = data;

  g_free (entry->language);
  g_free (entry->source);
  g_free (entry->resource);
  g_free (entry->path);
  g_clear_pointer (&entry->table, g_hash_table_unref);
  g_free (entry);
}

static void
winnow_rule_set_finalize (GObject *object)
{
  WinnowRuleSet *self = (WinnowRuleSet *)object;

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->retired, g_ptr_array_unref);
  g_clear_pointer (&self->abbreviations, g_ptr_array_unref);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (winnow_rule_set_parent_class)->finalize (object);
}

static void
winnow_rule_set_class_init (WinnowRuleSetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_rule_set_finalize;
}

static void
winnow_rule_set_init (WinnowRuleSet *self)
{
  self->entries = g_ptr_array_new_with_free_func (entry_free);
  self->retired = g_ptr_array_new_with_free_func (entry_free);
  self->abbreviations = g_ptr_array_new_with_free_func (abbreviations_entry_free);
  self->diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&self->lock);
}

/**
 * winnow_rule_set_new:
 *
 * Returns: (transfer full): an empty set; add sources with winnow_rule_set_add_builtin() and
 *   friends
 */
WinnowRuleSet *
winnow_rule_set_new (void)
{
  return g_object_new (WINNOW_TYPE_RULE_SET, NULL);
}

static char *
strip_json (const char *file_name)
{
  return g_strndup (file_name, strlen (file_name) - strlen (".json"));
}

static gboolean
is_pack_file_name (const char *name)
{
  return g_str_has_suffix (name, ".json") && name[0] != '_' && name[0] != '.';
}

/* Registers a pack; one of the same language and name registered before is replaced. */
/* @pack: (transfer full) (nullable): the pack, already read */
static void
add_entry (WinnowRuleSet  *self,
           const char     *language,
           const char     *file_name,
           const char     *source,
           const char     *resource,
           const char     *path,
           WinnowRulePack *pack)
{
  /* a pack the person saves in the dashboard is added while workers may be reading packs */
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  Entry *entry;

  if (strcmp (file_name, ABBREVIATIONS_FILE) == 0)
    {
      AbbreviationsEntry *abbreviations = g_new0 (AbbreviationsEntry, 1);

      abbreviations->language = g_strdup (language);
      abbreviations->source = g_strdup (source);
      abbreviations->resource = g_strdup (resource);
      abbreviations->path = g_strdup (path);
      g_ptr_array_add (self->abbreviations, abbreviations);
      g_clear_object (&pack);
      return;
    }

  if (!is_pack_file_name (file_name))
    {
      g_clear_object (&pack);
      return;
    }

  entry = g_new0 (Entry, 1);
  entry->language = g_strdup (language);
  entry->name = strip_json (file_name);
  entry->source = g_strdup (source);
  entry->resource = g_strdup (resource);
  entry->path = g_strdup (path);
  entry->pack = pack;
  entry->loaded = pack != NULL;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *other = g_ptr_array_index (self->entries, i);

      if (strcmp (other->language, language) == 0 && strcmp (other->name, entry->name) == 0)
        {
          g_ptr_array_add (self->retired, g_ptr_array_steal_index (self->entries, i));
          break;
        }
    }

  g_ptr_array_add (self->entries, entry);
}

/**
 * winnow_rule_set_add_builtin:
 * @self: a #WinnowRuleSet
 *
 * Registers the packs that ship with Winnow.
 *
 * Returns: how many packs were registered
 */
guint
winnow_rule_set_add_builtin (WinnowRuleSet *self)
{
  g_auto(GStrv) languages = NULL;
  guint before;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), 0);

  before = self->entries->len;
  languages = g_resources_enumerate_children (BUILTIN_RESOURCE_PATH, 0, NULL);

  for (guint i = 0; languages != NULL && languages[i] != NULL; i++)
    {
      g_autofree char *language = g_strndup (languages[i], strcspn (languages[i], "/"));
      g_autofree char *dir = g_strconcat (BUILTIN_RESOURCE_PATH, language, "/", NULL);
      g_auto(GStrv) files = g_resources_enumerate_children (dir, 0, NULL);

      if (files != NULL)
        g_qsort_with_data (files, g_strv_length (files), sizeof (char *),
                           (GCompareDataFunc) g_strcmp0, NULL);

      for (guint k = 0; files != NULL && files[k] != NULL; k++)
        {
          g_autofree char *resource = g_strconcat (dir, files[k], NULL);
          g_autofree char *label = g_strconcat ("rules/", language, "/", files[k], NULL);

          add_entry (self, language, files[k], "built-in", resource, label, NULL);
        }
    }

  return self->entries->len - before;
}

static void
report (WinnowRuleSet *self,
        const char    *source,
        const char    *file,
        const char    *message)
{
  g_ptr_array_add (self->diagnostics,
                   winnow_diagnostic_new_about (WINNOW_DIAGNOSTIC_ERROR, source, file, NULL, NULL,
                                                NULL, 0, 0, message));
}

static GStrv
sorted_children (const char  *directory,
                 GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (directory, 0, error);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *name;
  GStrv names;

  if (dir == NULL)
    return NULL;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_strv_builder_add (builder, name);

  names = g_strv_builder_end (builder);
  g_qsort_with_data (names, g_strv_length (names), sizeof (char *),
                     (GCompareDataFunc) g_strcmp0, NULL);

  return names;
}

static guint
add_language_directory (WinnowRuleSet *self,
                        const char    *directory,
                        const char    *language,
                        const char    *source)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) files = sorted_children (directory, &error);
  guint added = 0;

  if (files == NULL)
    {
      report (self, source, directory, error->message);
      return 0;
    }

  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (directory, files[i], NULL);

      if (!g_str_has_suffix (files[i], ".json") || g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;

      add_entry (self, language, files[i], source, NULL, path, NULL);
      added += is_pack_file_name (files[i]);
    }

  return added;
}

/**
 * winnow_rule_set_add_directory:
 * @self: a #WinnowRuleSet
 * @directory: a `rules/` directory of `<language>/<pack>.json`, or one language's directory
 * @source: where it comes from: "global", "file"…
 *
 * Registers the packs under @directory; they replace registered packs of the same language
 * and name. A missing or unreadable directory becomes a diagnostic.
 *
 * Returns: how many packs were registered
 */
guint
winnow_rule_set_add_directory (WinnowRuleSet *self,
                               const char    *directory,
                               const char    *source)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) children = NULL;
  gboolean has_packs = FALSE;
  guint added = 0;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), 0);
  g_return_val_if_fail (directory != NULL, 0);

  children = sorted_children (directory, &error);
  if (children == NULL)
    {
      report (self, source, directory, error->message);
      return 0;
    }

  for (guint i = 0; children[i] != NULL; i++)
    if (is_pack_file_name (children[i]))
      has_packs = TRUE;

  if (has_packs)
    {
      g_autofree char *language = g_path_get_basename (directory);

      return add_language_directory (self, directory, language, source);
    }

  for (guint i = 0; children[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (directory, children[i], NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        added += add_language_directory (self, path, children[i], source);
    }

  return added;
}

/**
 * winnow_rule_set_add_file:
 * @self: a #WinnowRuleSet
 * @path: one rule pack file
 * @source: where it comes from
 *
 * Reads the pack now (its language is the one it declares) and registers it.
 *
 * Returns: whether it is a rule pack; if not, diagnostics say why
 */
gboolean
winnow_rule_set_add_file (WinnowRuleSet *self,
                          const char    *path,
                          const char    *source)
{
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autofree char *base = NULL;
  g_autofree char *language = NULL;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  pack = winnow_rule_pack_load_file (path, source, self->diagnostics);
  if (pack == NULL)
    return FALSE;

  base = g_path_get_basename (path);
  if (!is_pack_file_name (base))
    {
      g_free (base);
      base = g_strconcat (winnow_rule_pack_get_name (pack), ".json", NULL);
    }

  language = g_strdup (winnow_rule_pack_get_language (pack));
  add_entry (self, language, base, source, NULL, path, g_steal_pointer (&pack));

  return TRUE;
}

static GBytes *
entry_bytes (WinnowRuleSet *self,
             const char    *source,
             const char    *resource,
             const char    *path)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  if (resource != NULL)
    {
      bytes = g_resources_lookup_data (resource, 0, &error);
      if (bytes == NULL)
        report (self, source, path, error->message);
      return bytes;
    }

  {
    g_autofree char *contents = NULL;
    gsize length = 0;

    contents = _winnow_json_read_file (path, source, "a JSON rule pack", &length,
                                       self->diagnostics);
    if (contents == NULL)
      return NULL;

    return g_bytes_new_take (g_steal_pointer (&contents), length);
  }
}

static void
load_entry (WinnowRuleSet *self,
            Entry         *entry)
{
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize size;

  if (entry->loaded)
    return;
  entry->loaded = TRUE;

  bytes = entry_bytes (self, entry->source, entry->resource, entry->path);
  if (bytes == NULL)
    return;

  data = g_bytes_get_data (bytes, &size);
  entry->pack = winnow_rule_pack_parse (data, size, entry->source, entry->path,
                                        self->diagnostics);
}

static gboolean
same_primary_subtag (const char *a,
                     const char *b)
{
  gsize la = strcspn (a, "-_");
  gsize lb = strcspn (b, "-_");

  return la == lb && g_ascii_strncasecmp (a, b, la) == 0;
}

/**
 * winnow_rule_set_resolve_language:
 * @self: a #WinnowRuleSet
 * @language: a language key such as "pt-BR", "pt", "en_US" or "ZH"
 *
 * Returns: (nullable): the language of registered packs that serves @language: the same key,
 *   ignoring case, else one with the same primary subtag; %NULL when none does
 */
const char *
winnow_rule_set_resolve_language (WinnowRuleSet *self,
                                  const char    *language)
{
  g_autofree char *canonical = NULL;
  g_autoptr(GMutexLocker) locker = NULL;
  const char *fallback = NULL;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), NULL);

  if (language == NULL)
    return NULL;

  canonical = g_strdelimit (g_strdup (language), "_", '-');
  locker = g_mutex_locker_new (&self->lock);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (g_ascii_strcasecmp (entry->language, canonical) == 0)
        return entry->language;
      if (fallback == NULL && same_primary_subtag (entry->language, language))
        fallback = entry->language;
    }

  return fallback;
}

/**
 * winnow_rule_set_dup_languages:
 * @self: a #WinnowRuleSet
 *
 * Returns: (transfer full): the languages that have packs, sorted
 */
GStrv
winnow_rule_set_dup_languages (WinnowRuleSet *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GMutexLocker) locker = NULL;
  GStrv languages;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), NULL);

  locker = g_mutex_locker_new (&self->lock);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (g_hash_table_add (seen, entry->language))
        g_strv_builder_add (builder, entry->language);
    }

  languages = g_strv_builder_end (builder);
  g_qsort_with_data (languages, g_strv_length (languages), sizeof (char *),
                     (GCompareDataFunc) g_strcmp0, NULL);

  return languages;
}

static int
compare_packs (gconstpointer a,
               gconstpointer b)
{
  WinnowRulePack *pa = *(WinnowRulePack **) a;
  WinnowRulePack *pb = *(WinnowRulePack **) b;
  int by_language = g_strcmp0 (winnow_rule_pack_get_language (pa),
                               winnow_rule_pack_get_language (pb));

  if (by_language != 0)
    return by_language;

  return g_strcmp0 (winnow_rule_pack_get_name (pa), winnow_rule_pack_get_name (pb));
}

/**
 * winnow_rule_set_get_packs:
 * @self: a #WinnowRuleSet
 * @language: a language key, resolved with winnow_rule_set_resolve_language()
 *
 * Reads the packs of @language if that has not happened yet.
 *
 * Returns: (transfer container) (element-type WinnowRulePack): the packs, in the order they
 *   apply (by file name); empty when no pack serves @language
 */
GPtrArray *
winnow_rule_set_get_packs (WinnowRuleSet *self,
                           const char    *language)
{
  GPtrArray *packs = g_ptr_array_new_with_free_func (g_object_unref);
  const char *resolved;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), packs);

  resolved = winnow_rule_set_resolve_language (self, language);
  if (resolved == NULL)
    return packs;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (strcmp (entry->language, resolved) != 0)
        continue;

      load_entry (self, entry);
      if (entry->pack != NULL)
        g_ptr_array_add (packs, g_object_ref (entry->pack));
    }
  g_mutex_unlock (&self->lock);

  g_ptr_array_sort (packs, compare_packs);
  return packs;
}

/**
 * winnow_rule_set_list_packs:
 * @self: a #WinnowRuleSet
 *
 * Reads every registered pack.
 *
 * Returns: (transfer container) (element-type WinnowRulePack): all packs that load, by
 *   language and name
 */
GPtrArray *
winnow_rule_set_list_packs (WinnowRuleSet *self)
{
  GPtrArray *packs = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), packs);

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      load_entry (self, entry);
      if (entry->pack != NULL)
        g_ptr_array_add (packs, g_object_ref (entry->pack));
    }
  g_mutex_unlock (&self->lock);

  g_ptr_array_sort (packs, compare_packs);
  return packs;
}

/* `{ "language": "en", "abbreviations": { "DB": "database", … } }` */
static GHashTable *
parse_abbreviations (WinnowRuleSet      *self,
                     AbbreviationsEntry *entry,
                     GBytes             *bytes)
{
  static const char * const known[] = { "language", "abbreviations", NULL };
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GList) members = NULL;
  guint first = self->diagnostics->len;
  WinnowJsonReader r = {
    .source = entry->source,
    .file = entry->path,
    .base = "",
    .diagnostics = self->diagnostics,
  };
  const char *text;
  gsize length;
  JsonNode *node;
  JsonObject *map;

  text = g_bytes_get_data (bytes, &length);
  parser = _winnow_json_parse_document (&text, &length, entry->source, entry->path,
                                        "an abbreviation table", self->diagnostics);
  if (parser == NULL)
    return NULL;

  node = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _winnow_json_reader_report (&r, WINNOW_DIAGNOSTIC_ERROR, "",
                                  "must be an object with “abbreviations”, not %s",
                                  _winnow_json_node_type_name (node));
      return NULL;
    }

  _winnow_json_reader_unknown (&r, json_node_get_object (node), "", known, NULL);
  node = json_object_get_member (json_node_get_object (node), "abbreviations");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      _winnow_json_reader_report (&r, WINNOW_DIAGNOSTIC_ERROR, "abbreviations",
                                  "must be an object of short form → long form strings");
      _winnow_json_locate_diagnostics (self->diagnostics, first, text, length);
      return NULL;
    }

  map = json_node_get_object (node);
  members = json_object_get_members (map);
  for (const GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (map, l->data);
      g_autoptr(GString) path = g_string_new ("abbreviations");

      _winnow_json_path_append_member (path, l->data);
      if (!_winnow_json_node_is_string (value) || ((const char *) l->data)[0] == '\0')
        {
          _winnow_json_reader_report (&r, WINNOW_DIAGNOSTIC_ERROR, path->str,
                                      "must be a non-empty short form mapped to a string");
          continue;
        }

      g_hash_table_insert (table, g_strdup (l->data), g_strdup (json_node_get_string (value)));
    }

  _winnow_json_locate_diagnostics (self->diagnostics, first, text, length);
  return g_steal_pointer (&table);
}

/**
 * winnow_rule_set_get_abbreviations:
 * @self: a #WinnowRuleSet
 * @language: a language key
 *
 * Returns: (transfer none) (nullable) (element-type utf8 utf8): short form → long form for
 *   @language (the table of its most recent source), or %NULL
 */
GHashTable *
winnow_rule_set_get_abbreviations (WinnowRuleSet *self,
                                   const char    *language)
{
  const char *resolved;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), NULL);

  resolved = winnow_rule_set_resolve_language (self, language);
  if (resolved == NULL)
    return NULL;

  g_mutex_lock (&self->lock);
  for (guint i = self->abbreviations->len; i > 0; i--)
    {
      AbbreviationsEntry *entry = g_ptr_array_index (self->abbreviations, i - 1);

      if (strcmp (entry->language, resolved) != 0)
        continue;

      if (!entry->loaded)
        {
          g_autoptr(GBytes) bytes = entry_bytes (self, entry->source, entry->resource,
                                                 entry->path);

          entry->loaded = TRUE;
          if (bytes != NULL)
            entry->table = parse_abbreviations (self, entry, bytes);
        }

      if (entry->table != NULL)
        {
          g_mutex_unlock (&self->lock);
          return entry->table; /* immutable once read */
        }
    }
  g_mutex_unlock (&self->lock);

  return NULL;
}

/**
 * winnow_rule_set_get_diagnostics:
 * @self: a #WinnowRuleSet
 *
 * Returns: (transfer none) (element-type WinnowDiagnostic): findings of the packs read so far;
 *   packs read later on other threads add to it, so read it where no other thread asks for
 *   packs, or use winnow_rule_set_dup_diagnostics()
 */
GPtrArray *
winnow_rule_set_get_diagnostics (WinnowRuleSet *self)
{
  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), NULL);
  return self->diagnostics;
}

/**
 * winnow_rule_set_dup_diagnostics:
 * @self: a #WinnowRuleSet
 *
 * Returns: (transfer container) (element-type WinnowDiagnostic): a snapshot of the findings of
 *   the packs read so far, safe to take while other threads read packs
 */
GPtrArray *
winnow_rule_set_dup_diagnostics (WinnowRuleSet *self)
{
  GPtrArray *copy;

  g_return_val_if_fail (WINNOW_IS_RULE_SET (self), NULL);

  g_mutex_lock (&self->lock);
  copy = g_ptr_array_new_full (self->diagnostics->len, g_object_unref);
  for (guint i = 0; i < self->diagnostics->len; i++)
    g_ptr_array_add (copy, g_object_ref (g_ptr_array_index (self->diagnostics, i)));
  g_mutex_unlock (&self->lock);

  return copy;
}
