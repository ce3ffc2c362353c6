/* winnow-trust.c — whether a project's own filters may run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project's `.rtk/filters.json` decides what an agent sees of its command output, so it
 * runs only once somebody approved its exact bytes: `.rtk/trust.json` holds
 * `{"filtersSha256": "<lowercase hex>"}` (the reference also writes `trustedFiltersSha256`,
 * which we read). No normalisation: a BOM, CRLF line ends or a final newline all change the
 * hash, so what was approved is exactly what runs.
 *
 * The trust file is written atomically (write a temporary file, then rename), so a crash
 * never leaves a half-written approval.
 */

#define G_LOG_DOMAIN "winnow-trust"

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "winnow-error.h"
#include "winnow-trust.h"

struct _WinnowTrustStatus
{
  GObject           parent_instance;
  WinnowTrustState  state;
  char             *project_dir;
  char             *filters_path;
  char             *trust_path;
  char             *current_sha256;
  char             *trusted_sha256;
  char             *message;
};

G_DEFINE_FINAL_TYPE (WinnowTrustStatus, winnow_trust_status, G_TYPE_OBJECT)

const char *
winnow_trust_state_to_string (WinnowTrustState state)
{
  switch (state)
    {
    case WINNOW_TRUST_NO_FILTERS: return "no-project-filters";
    case WINNOW_TRUST_TRUSTED: return "trusted";
    case WINNOW_TRUST_CHANGED: return "changed";
    case WINNOW_TRUST_UNTRUSTED: return "untrusted";
    case WINNOW_TRUST_INVALID: return "invalid";
    case WINNOW_TRUST_OVERRIDDEN: return "trusted-by-override";
    default: return "unknown";
    }
}

static void
winnow_trust_status_finalize (GObject *object)
{
  WinnowTrustStatus *self = (WinnowTrustStatus *)object;

  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->filters_path, g_free);
  g_clear_pointer (&self->trust_path, g_free);
  g_clear_pointer (&self->current_sha256, g_free);
  g_clear_pointer (&self->trusted_sha256, g_free);
  g_clear_pointer (&self->message, g_free);

  G_OBJECT_CLASS (winnow_trust_status_parent_class)->finalize (object);
}

static void
winnow_trust_status_class_init (WinnowTrustStatusClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_trust_status_finalize;
}

static void
winnow_trust_status_init (WinnowTrustStatus *self)
{
}

/**
 * winnow_trust_env_override:
 *
 * Returns: %TRUE if `WINNOW_TRUST_PROJECT_FILTERS=1` (or the reference's
 *   `OMNIROUTE_RTK_TRUST_PROJECT_FILTERS=1`) is set
 */
gboolean
winnow_trust_env_override (void)
{
  return g_strcmp0 (g_getenv ("WINNOW_TRUST_PROJECT_FILTERS"), "1") == 0 ||
         g_strcmp0 (g_getenv ("OMNIROUTE_RTK_TRUST_PROJECT_FILTERS"), "1") == 0;
}

/**
 * winnow_trust_hash_file:
 * @path: a file
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the lowercase hex SHA-256 of the file's exact bytes
 */
char *
winnow_trust_hash_file (const char  *path,
                        GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;

  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
}

static gboolean
is_sha256_hex (const char *str)
{
  if (str == NULL || strlen (str) != 64)
    return FALSE;
  for (const char *p = str; *p; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

/* Reads the approved hash; %NULL with @error when the file is unreadable or malformed. */
static char *
read_trusted_hash (const char  *trust_path,
                   GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  JsonObject *obj;
  const char *hash = NULL;

  if (!json_parser_load_from_file (parser, trust_path, &local_error))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON, "%s: %s", trust_path,
                   local_error->message);
      return NULL;
    }

  if (json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                   "%s: expected an object with \"filtersSha256\"", trust_path);
      return NULL;
    }

  obj = json_node_get_object (json_parser_get_root (parser));
  for (guint i = 0; i < 2 && hash == NULL; i++)
    {
      JsonNode *member = json_object_get_member (obj, i == 0 ? "filtersSha256"
                                                              : "trustedFiltersSha256");

      if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
          json_node_get_value_type (member) == G_TYPE_STRING)
        hash = json_node_get_string (member);
    }

  if (!is_sha256_hex (hash))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_JSON,
                   "%s: \"filtersSha256\" must be 64 hexadecimal digits", trust_path);
      return NULL;
    }

  return g_ascii_strdown (hash, -1);
}

/**
 * winnow_trust_check:
 * @project_dir: a project folder
 * @override: trust without a hash (setting `trustProjectFilters`); the environment override
 *   is honoured as well
 *
 * Returns: (transfer full): the project's trust status
 */
WinnowTrustStatus *
winnow_trust_check (const char *project_dir,
                    gboolean    override)
{
  WinnowTrustStatus *self;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (project_dir != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_TRUST_STATUS, NULL);
  self->project_dir = g_strdup (project_dir);
  self->filters_path = g_build_filename (project_dir, ".rtk", "filters.json", NULL);
  self->trust_path = g_build_filename (project_dir, ".rtk", "trust.json", NULL);

  if (!g_file_test (self->filters_path, G_FILE_TEST_EXISTS))
    {
      self->state = WINNOW_TRUST_NO_FILTERS;
      self->message = g_strdup_printf ("%s does not exist", self->filters_path);
      return self;
    }

  self->current_sha256 = winnow_trust_hash_file (self->filters_path, &error);
  if (self->current_sha256 == NULL)
    {
      self->state = WINNOW_TRUST_INVALID;
      self->message = g_strdup_printf ("cannot read %s: %s", self->filters_path, error->message);
      return self;
    }

  if (override || winnow_trust_env_override ())
    {
      self->state = WINNOW_TRUST_OVERRIDDEN;
      self->message = g_strdup (override
                                ? "trusted because the setting trustProjectFilters is on"
                                : "trusted because WINNOW_TRUST_PROJECT_FILTERS=1 is set");
      return self;
    }

  if (!g_file_test (self->trust_path, G_FILE_TEST_EXISTS))
    {
      self->state = WINNOW_TRUST_UNTRUSTED;
      self->message = g_strdup_printf ("%s was never approved; run `winnow trust approve` "
                                       "after reviewing it", self->filters_path);
      return self;
    }

  self->trusted_sha256 = read_trusted_hash (self->trust_path, &error);
  if (self->trusted_sha256 == NULL)
    {
      self->state = WINNOW_TRUST_INVALID;
      self->message = g_strdup_printf ("the trust file is unusable (%s); project filters "
                                       "are skipped", error->message);
      return self;
    }

  if (g_strcmp0 (self->trusted_sha256, self->current_sha256) == 0)
    {
      self->state = WINNOW_TRUST_TRUSTED;
      self->message = g_strdup ("the filters are exactly the approved version");
    }
  else
    {
      self->state = WINNOW_TRUST_CHANGED;
      self->message = g_strdup_printf ("%s changed since it was approved; it is skipped until "
                                       "approved again", self->filters_path);
    }

  return self;
}

WinnowTrustState
winnow_trust_status_get_state (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), WINNOW_TRUST_INVALID);
  return self->state;
}

/**
 * winnow_trust_status_is_trusted:
 * @self: a #WinnowTrustStatus
 *
 * Returns: %TRUE if the project's filters may be loaded
 */
gboolean
winnow_trust_status_is_trusted (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), FALSE);
  return self->state == WINNOW_TRUST_TRUSTED || self->state == WINNOW_TRUST_OVERRIDDEN;
}

const char *
winnow_trust_status_get_project_dir (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), NULL);
  return self->project_dir;
}

const char *
winnow_trust_status_get_filters_path (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), NULL);
  return self->filters_path;
}

const char *
winnow_trust_status_get_trust_path (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), NULL);
  return self->trust_path;
}

/**
 * winnow_trust_status_get_current_sha256:
 * @self: a #WinnowTrustStatus
 *
 * Returns: (nullable): the hash of the filters file as it is now
 */
const char *
winnow_trust_status_get_current_sha256 (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), NULL);
  return self->current_sha256;
}

/**
 * winnow_trust_status_get_trusted_sha256:
 * @self: a #WinnowTrustStatus
 *
 * Returns: (nullable): the approved hash from the trust file
 */
const char *
winnow_trust_status_get_trusted_sha256 (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), NULL);
  return self->trusted_sha256;
}

const char *
winnow_trust_status_get_message (WinnowTrustStatus *self)
{
  g_return_val_if_fail (WINNOW_IS_TRUST_STATUS (self), NULL);
  return self->message;
}

/**
 * winnow_trust_approve:
 * @project_dir: a project folder with `.rtk/filters.json`
 * @error: return location for a #GError
 *
 * Records the SHA-256 of the filters file in `.rtk/trust.json`, atomically.
 *
 * Returns: (transfer full): the approved hash, or %NULL with @error set
 */
char *
winnow_trust_approve (const char  *project_dir,
                      GError     **error)
{
  g_autofree char *filters_path = NULL;
  g_autofree char *trust_path = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (project_dir != NULL, NULL);

  filters_path = g_build_filename (project_dir, ".rtk", "filters.json", NULL);
  trust_path = g_build_filename (project_dir, ".rtk", "trust.json", NULL);

  if (!g_file_test (filters_path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_FOUND,
                   "%s does not exist; there is nothing to approve", filters_path);
      return NULL;
    }

  hash = winnow_trust_hash_file (filters_path, error);
  if (hash == NULL)
    return NULL;

  json = g_strdup_printf ("{\n  \"filtersSha256\": \"%s\"\n}\n", hash);
  if (!g_file_set_contents_full (trust_path, json, -1,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                 0644, &local_error))
    {
      /* GLib's message names its temporary file; say which file was not approved */
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_IO, "%s: not saved, the project stays as "
                   "it was: %s", trust_path, local_error->message);
      return NULL;
    }

  return g_steal_pointer (&hash);
}

/**
 * winnow_trust_revoke:
 * @project_dir: a project folder
 * @error: return location for a #GError
 *
 * Removes `.rtk/trust.json`. Revoking a project that was not trusted is not an error.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_trust_revoke (const char  *project_dir,
                     GError     **error)
{
  g_autofree char *trust_path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (project_dir != NULL, FALSE);

  trust_path = g_build_filename (project_dir, ".rtk", "trust.json", NULL);
  file = g_file_new_for_path (trust_path);

  if (!g_file_delete (file, NULL, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}
