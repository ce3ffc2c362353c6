/* winnow-tool-cache.c — "same output as the last run" for repeated tool calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents run `git status` or the test suite again and again; when the output has not changed,
 * one line saying so is worth more to the model than a second copy. The cache is keyed by
 * working directory and command, bounded (256 entries by default, least recently used out
 * first) and every entry expires (git state after 10 minutes, package listings after 30,
 * anything else after 5). It remembers a SHA-256 of the output, not the output: a hit is
 * claimed only when the new output is byte for byte the one recorded, so a stale entry can
 * never hide a change — the reference decides "same" from the call alone.
 *
 * Invalidation (FORMATS.md §6): a git mutation (add, commit, checkout, switch, merge, rebase,
 * reset, stash, pull, cherry-pick, revert, restore, rm, mv, am, apply) forgets that directory's
 * git entries; an install (npm/pnpm/yarn/pip/uv/poetry/cargo/go/bundle/composer/apt adding,
 * removing or updating packages) forgets its package-manager entries.
 *
 * Time is passed in by the caller, so the behaviour is a pure function of the calls (and
 * tests can move the clock).
 */

#define G_LOG_DOMAIN "winnow-tool-cache"

#include "config.h"

#include <string.h>

#include "winnow-command.h"
#include "winnow-tool-cache.h"

#define MINUTE_US (G_USEC_PER_SEC * (gint64) 60)

typedef enum
{
  FAMILY_GIT,
  FAMILY_PACKAGES,
  FAMILY_OTHER,
} Family;

typedef struct
{
  char   *key;          /* cwd \x1f command */
  char   *cwd;
  Family  family;
  char   *digest;
  gsize   length;
  gint64  recorded_us;
  GList  *link;         /* in self->order */
} Entry;

struct _WinnowToolCache
{
  GObject     parent_instance;
  guint       capacity;
  GHashTable *entries;    /* key → Entry */
  GQueue      order;      /* Entry, most recently used first */
};

G_DEFINE_FINAL_TYPE (WinnowToolCache, winnow_tool_cache, G_TYPE_OBJECT)

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->key);
  g_free (entry->cwd);
  g_free (entry->digest);
  g_free (entry);
}

static void
winnow_tool_cache_finalize (GObject *object)
{
  WinnowToolCache *self = (WinnowToolCache *)object;

  g_queue_clear (&self->order);
  g_clear_pointer (&self->entries, g_hash_table_unref);

  G_OBJECT_CLASS (winnow_tool_cache_parent_class)->finalize (object);
}

static void
winnow_tool_cache_class_init (WinnowToolCacheClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_tool_cache_finalize;
}

static void
winnow_tool_cache_init (WinnowToolCache *self)
{
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, entry_free);
  g_queue_init (&self->order);
}

/**
 * winnow_tool_cache_new:
 * @capacity: how many entries to keep; 0 for %WINNOW_TOOL_CACHE_DEFAULT_CAPACITY
 *
 * Returns: (transfer full): an empty cache
 */
WinnowToolCache *
winnow_tool_cache_new (guint capacity)
{
  WinnowToolCache *self = g_object_new (WINNOW_TYPE_TOOL_CACHE, NULL);

  self->capacity = capacity > 0 ? capacity : WINNOW_TOOL_CACHE_DEFAULT_CAPACITY;
  return self;
}

/* The command's words, after environment assignments and wrappers ("sudo", "npx"…). */
static GStrv
command_words (const char *command)
{
  g_autofree char *normalized = winnow_command_normalize (command);

  if (normalized == NULL)
    return g_new0 (char *, 1);

  return g_strsplit_set (normalized, " \t", -1);
}

static gboolean
word_in (const char         *word,
         const char * const *list)
{
  return word != NULL && g_strv_contains (list, word);
}

static const char * const package_managers[] = {
  "npm", "pnpm", "yarn", "pip", "pip3", "uv", "poetry", "cargo", "go", "bundle", "gem",
  "composer", "apt", "apt-get", "dnf", "brew", NULL
};

static Family
family_of (GStrv words)
{
  if (g_strcmp0 (words[0], "git") == 0)
    return FAMILY_GIT;
  if (word_in (words[0], package_managers))
    return FAMILY_PACKAGES;
  return FAMILY_OTHER;
}

static gint64
lifetime_of (Family family)
{
  switch (family)
    {
    case FAMILY_GIT: return 10 * MINUTE_US;
    case FAMILY_PACKAGES: return 30 * MINUTE_US;
    case FAMILY_OTHER:
    default: return 5 * MINUTE_US;
    }
}

static gboolean
is_git_mutation (GStrv words)
{
  static const char * const mutations[] = {
    "add", "commit", "checkout", "switch", "merge", "rebase", "reset", "stash", "pull",
    "cherry-pick", "revert", "restore", "rm", "mv", "am", "apply", "fetch", "clean", "tag",
    "branch", NULL
  };
  guint i = 1;

  if (g_strcmp0 (words[0], "git") != 0)
    return FALSE;

  /* skip global options: git -C dir status, git --no-pager … */
  while (words[i] != NULL && words[i][0] == '-')
    i += (strcmp (words[i], "-C") == 0 || strcmp (words[i], "-c") == 0) && words[i + 1] ? 2 : 1;

  if (g_strcmp0 (words[i], "branch") == 0)
    {
      /* `git branch` lists; with -d/-D/-m/-c/a new name it changes */
      for (guint k = i + 1; words[k] != NULL; k++)
        if (words[k][0] != '-' || strchr ("dDmMcC", words[k][1]) != NULL)
          return TRUE;
      return FALSE;
    }

  return word_in (words[i], mutations);
}

static gboolean
is_install (GStrv words)
{
  static const char * const verbs[] = {
    "install", "i", "ci", "add", "remove", "rm", "uninstall", "un", "update", "upgrade", "up",
    "sync", "get", "require", "tidy", "purge", NULL
  };

  if (!word_in (words[0], package_managers))
    return FALSE;

  for (guint i = 1; words[i] != NULL; i++)
    if (word_in (words[i], verbs))
      return TRUE;

  return FALSE;
}

static char *
make_key (const char *cwd,
          const char *command)
{
  g_auto(GStrv) words = g_strsplit_set (command, " \t\n", -1);
  g_autoptr(GString) key = g_string_new (cwd ? cwd : "");

  g_string_append_c (key, '\x1f');
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      {
        if (key->str[key->len - 1] != '\x1f')
          g_string_append_c (key, ' ');
        g_string_append (key, words[i]);
      }

  return g_string_free (g_steal_pointer (&key), FALSE);
}

static void
remove_entry (WinnowToolCache *self,
              Entry           *entry)
{
  g_queue_delete_link (&self->order, entry->link);
  g_hash_table_remove (self->entries, entry->key);
}

/**
 * winnow_tool_cache_observe:
 * @self: a #WinnowToolCache
 * @cwd: (nullable): the directory @command runs in
 * @command: a command about to run (or that ran)
 *
 * Forgets what @command makes stale: a git mutation forgets the directory's git entries, an
 * install its package-manager entries.
 */
void
winnow_tool_cache_observe (WinnowToolCache *self,
                           const char      *cwd,
                           const char      *command)
{
  g_auto(GStrv) words = NULL;
  Family stale;
  GList *l;

  g_return_if_fail (WINNOW_IS_TOOL_CACHE (self));

  if (command == NULL)
    return;

  words = command_words (command);
  if (is_git_mutation (words))
    stale = FAMILY_GIT;
  else if (is_install (words))
    stale = FAMILY_PACKAGES;
  else
    return;

  for (l = self->order.head; l != NULL; )
    {
      Entry *entry = l->data;

      l = l->next;
      if (entry->family == stale && g_strcmp0 (entry->cwd, cwd ? cwd : "") == 0)
        remove_entry (self, entry);
    }
}

/**
 * winnow_tool_cache_lookup:
 * @self: a #WinnowToolCache
 * @cwd: (nullable): the directory the command ran in
 * @command: the command
 * @text: its output this time
 * @length: length of @text
 * @now_us: the time, in microseconds (g_get_real_time() or a test's clock)
 * @recorded_us: (out) (optional): when the same output was recorded
 *
 * Returns: whether @command last produced exactly @text, recently enough to say so
 */
gboolean
winnow_tool_cache_lookup (WinnowToolCache *self,
                          const char      *cwd,
                          const char      *command,
                          const char      *text,
                          gsize            length,
                          gint64           now_us,
                          gint64          *recorded_us)
{
  g_autofree char *key = NULL;
  g_autofree char *digest = NULL;
  Entry *entry;

  g_return_val_if_fail (WINNOW_IS_TOOL_CACHE (self), FALSE);

  if (command == NULL || text == NULL)
    return FALSE;

  key = make_key (cwd, command);
  entry = g_hash_table_lookup (self->entries, key);
  if (entry == NULL)
    return FALSE;

  if (now_us - entry->recorded_us > lifetime_of (entry->family) || now_us < entry->recorded_us)
    {
      remove_entry (self, entry);
      return FALSE;
    }

  if (entry->length != length)
    return FALSE;

  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) text, length);
  if (strcmp (digest, entry->digest) != 0)
    return FALSE;

  /* used: most recent */
  g_queue_unlink (&self->order, entry->link);
  g_queue_push_head_link (&self->order, entry->link);

  if (recorded_us != NULL)
    *recorded_us = entry->recorded_us;
  return TRUE;
}

/**
 * winnow_tool_cache_record:
 * @self: a #WinnowToolCache
 * @cwd: (nullable): the directory the command ran in
 * @command: the command
 * @text: its output
 * @length: length of @text
 * @now_us: the time, in microseconds
 *
 * Remembers @text as the last output of @command in @cwd; the least recently used entry goes
 * when the cache is full.
 */
void
winnow_tool_cache_record (WinnowToolCache *self,
                          const char      *cwd,
                          const char      *command,
                          const char      *text,
                          gsize            length,
                          gint64           now_us)
{
  g_auto(GStrv) words = NULL;
  Entry *entry;
  char *key;

  g_return_if_fail (WINNOW_IS_TOOL_CACHE (self));

  if (command == NULL || text == NULL)
    return;

  key = make_key (cwd, command);
  entry = g_hash_table_lookup (self->entries, key);
  if (entry != NULL)
    remove_entry (self, entry);

  words = command_words (command);
  entry = g_new0 (Entry, 1);
  entry->key = key;
  entry->cwd = g_strdup (cwd ? cwd : "");
  entry->family = family_of (words);
  entry->digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) text, length);
  entry->length = length;
  entry->recorded_us = now_us;

  g_queue_push_head (&self->order, entry);
  entry->link = self->order.head;
  g_hash_table_insert (self->entries, entry->key, entry);

  while (self->order.length > self->capacity)
    remove_entry (self, g_queue_peek_tail (&self->order));
}

guint
winnow_tool_cache_get_size (WinnowToolCache *self)
{
  g_return_val_if_fail (WINNOW_IS_TOOL_CACHE (self), 0);
  return self->order.length;
}

void
winnow_tool_cache_clear (WinnowToolCache *self)
{
  g_return_if_fail (WINNOW_IS_TOOL_CACHE (self));

  g_queue_clear (&self->order);
  g_hash_table_remove_all (self->entries);
}

/**
 * winnow_tool_cache_format_reply:
 * @command: the command
 * @age_us: how long ago the same output was seen; negative when it was earlier in the same
 *   conversation
 *
 * Returns: (transfer full): the line that replaces a repeated output
 */
char *
winnow_tool_cache_format_reply (const char *command,
                                gint64      age_us)
{
  if (age_us < 0)
    return g_strdup_printf ("[winnow: same output as the previous run of `%s` above]", command);

  if (age_us < MINUTE_US)
    return g_strdup_printf ("[winnow: same output as the last run of `%s`, %" G_GINT64_FORMAT
                            " s ago]", command, MAX (age_us / G_USEC_PER_SEC, 1));

  return g_strdup_printf ("[winnow: same output as the last run of `%s`, %" G_GINT64_FORMAT
                          " min ago]", command, age_us / MINUTE_US);
}
