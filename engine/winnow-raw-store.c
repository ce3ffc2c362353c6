/* winnow-raw-store.c — retaining the raw output behind a compression (FORMATS.md §3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A compression hands on less than the command printed; when something went wrong, the part
 * left out may be the part someone needs. `rawOutputRetention` keeps it: `never`, `failures`
 * (a non-zero exit status, errors seen by the detector, or the reference's failure words), or
 * `always`, and in every case only for output the compression actually changed — output
 * handed on whole is already where it is needed.
 *
 * Redaction comes before the cut to `rawOutputMaxBytes`, not after as in the reference: a cut
 * through the middle of a token leaves a prefix that no rule recognises any more (a `ghp_…`
 * shorter than a GitHub token is just a word), and that prefix would reach the disk. The cut
 * then falls on a UTF-8 character boundary and says so in a last line; the file, marker
 * included, is at most `rawOutputMaxBytes`. The command line is redacted too, since it ends up
 * in the file name and in the database (`curl -H 'Authorization: Bearer …'`).
 *
 * The file is written to a temporary name in the same folder (mode 0600, named after the
 * writer's pid so that a purge can tell an abandoned one), flushed to the disk, and renamed
 * to `EPOCHMS-SLUG-ID.log`: a reader sees the whole file or none, whatever happens to the
 * writer, and a full disk or an unwritable folder is an error with nothing left behind. The
 * row is inserted after the rename; if that fails the file is removed again.
 *
 * Test hook: with `WINNOW_RAW_OUTPUT_FAULT=kill-before-rename` the writer kills itself with
 * SIGKILL between writing and renaming, and with `fail-before-rename` it fails there, so the
 * fault tests can stop a writer at the one moment that matters instead of hoping to hit it.
 */

#define G_LOG_DOMAIN "winnow-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "winnow-compression.h"
#include "winnow-detection.h"
#include "winnow-raw-store.h"
#include "winnow-redact.h"
#include "winnow-store-private.h"

#define MIN_MAX_BYTES 1024
#define SLUG_MAX      48

/**
 * winnow_raw_retention_from_string:
 * @text: "never", "failures" or "always"
 * @retention: (out): the value
 *
 * Returns: whether @text names a retention
 */
gboolean
winnow_raw_retention_from_string (const char         *text,
                                  WinnowRawRetention *retention)
{
  g_return_val_if_fail (retention != NULL, FALSE);

  if (g_strcmp0 (text, "never") == 0)
    *retention = WINNOW_RAW_RETENTION_NEVER;
  else if (g_strcmp0 (text, "failures") == 0)
    *retention = WINNOW_RAW_RETENTION_FAILURES;
  else if (g_strcmp0 (text, "always") == 0)
    *retention = WINNOW_RAW_RETENTION_ALWAYS;
  else
    return FALSE;

  return TRUE;
}

/**
 * winnow_raw_output_request_init:
 * @request: a request to fill in
 * @source: "run", "api" or "cli"
 * @text: the output as produced
 * @length: its length
 *
 * Clears @request: no command, no exit status, not compressed.
 */
void
winnow_raw_output_request_init (WinnowRawOutputRequest *request,
                                const char             *source,
                                const char             *text,
                                gsize                   length)
{
  g_return_if_fail (request != NULL);

  memset (request, 0, sizeof *request);
  request->source = source;
  request->text = text;
  request->length = length;
}

/**
 * winnow_raw_output_request_set_result:
 * @request: a request whose @text went through the pipeline
 * @result: what the pipeline made of it
 *
 * Sets @compressed (the text handed on differs, trailing white space aside) and @has_errors (the detector's verdict).
 */
void
winnow_raw_output_request_set_result (WinnowRawOutputRequest *request,
                                      WinnowPipelineResult   *result)
{
  WinnowCompression *compression;
  const char *out;
  gsize out_length = 0;
  gsize in_length;

  g_return_if_fail (request != NULL);
  g_return_if_fail (WINNOW_IS_PIPELINE_RESULT (result));

  out = winnow_pipeline_result_get_text (result, &out_length);
  in_length = request->length;
  /* a trailing line end the pipeline dropped is not compression */
  while (out_length > 0 && g_ascii_isspace (out[out_length - 1]))
    out_length--;
  while (in_length > 0 && g_ascii_isspace (request->text[in_length - 1]))
    in_length--;
  request->compressed = out_length != in_length ||
                        (out_length > 0 && memcmp (out, request->text, out_length) != 0);

  compression = winnow_pipeline_result_get_rtk_compression (result);
  if (compression != NULL && winnow_compression_get_detection (compression) != NULL)
    request->has_errors =
      winnow_detection_get_has_errors (winnow_compression_get_detection (compression));
}

/**
 * winnow_raw_output_looks_failed:
 * @request: the output and its circumstances
 *
 * A failure is a non-zero exit status, errors seen by the detector, or one of the reference's
 * failure words (`error`, `failed`, `failure`, `exception`, `traceback`, `panic`, `fatal`,
 * `critical`, `TS1234`, `FAIL`) as a whole word, case ignored.
 *
 * Returns: whether the output looks like a failure
 */
gboolean
winnow_raw_output_looks_failed (const WinnowRawOutputRequest *request)
{
  g_autoptr(GRegex) words = NULL;

  g_return_val_if_fail (request != NULL, FALSE);

  if ((request->has_exit_code && request->exit_code != 0) || request->has_errors)
    return TRUE;
  if (request->text == NULL || request->length == 0)
    return FALSE;

  /* RAW: command output need not be UTF-8; the words are ASCII */
  words = g_regex_new ("\\b(?:error|failed|failure|exception|traceback|panic|fatal|critical|"
                       "TS\\d{4}|FAIL)\\b", G_REGEX_CASELESS | G_REGEX_RAW | G_REGEX_OPTIMIZE,
                       0, NULL);
  g_assert (words != NULL);

  return g_regex_match_full (words, request->text, request->length, 0, 0, NULL, NULL);
}

/**
 * winnow_raw_output_should_retain:
 * @retention: the setting
 * @request: the output and its circumstances
 *
 * Returns: whether @retention keeps this output: only compressed output is ever kept
 */
gboolean
winnow_raw_output_should_retain (WinnowRawRetention            retention,
                                 const WinnowRawOutputRequest *request)
{
  g_return_val_if_fail (request != NULL, FALSE);

  if (!request->compressed || request->length == 0)
    return FALSE;

  switch (retention)
    {
    case WINNOW_RAW_RETENTION_ALWAYS:
      return TRUE;
    case WINNOW_RAW_RETENTION_FAILURES:
      return winnow_raw_output_looks_failed (request);
    case WINNOW_RAW_RETENTION_NEVER:
    default:
      return FALSE;
    }
}

/* ---- writing ----------------------------------------------------------------------------- */

/* The raw output's id: the first WINNOW_RAW_OUTPUT_ID_LENGTH hex digits of a SHA-256 over
 * the contents' digest, the time, the process and a random salt, so that two processes
 * writing the same output in the same millisecond still get two ids. */
static char *
make_id (const char *sha256,
         gint64      created_us)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gint64 pid = getpid ();
  guint32 salt[4];

  for (guint i = 0; i < G_N_ELEMENTS (salt); i++)
    salt[i] = g_random_int ();
  g_checksum_update (sum, (const guchar *) sha256, -1);
  g_checksum_update (sum, (const guchar *) &created_us, sizeof created_us);
  g_checksum_update (sum, (const guchar *) &pid, sizeof pid);
  g_checksum_update (sum, (const guchar *) salt, sizeof salt);
  return g_strndup (g_checksum_get_string (sum), WINNOW_RAW_OUTPUT_ID_LENGTH);
}

/* runs of anything but [A-Za-z0-9_-] become one `_`; at most SLUG_MAX characters */
static char *
make_slug (const char *command)
{
  GString *slug = g_string_new (NULL);

  for (const char *p = command ? command : ""; *p != '\0' && slug->len < SLUG_MAX; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_' || *p == '-')
        g_string_append_c (slug, *p);
      else if (slug->len == 0 || slug->str[slug->len - 1] != '_')
        g_string_append_c (slug, '_');
    }

  if (slug->len == 0)
    g_string_append (slug, "tool-output");
  return g_string_free (slug, FALSE);
}

static char *
redactions_json (WinnowRedaction *redaction)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  const char * const *rules;
  const guint *counts;
  guint n_rules, n_counts;

  rules = winnow_redact_rules_list (&n_rules);
  counts = winnow_redaction_get_counts (redaction, &n_counts);

  json_builder_begin_object (builder);
  for (guint i = 0; i < MIN (n_rules, n_counts); i++)
    if (counts[i] > 0)
      {
        json_builder_set_member_name (builder, rules[i]);
        json_builder_add_int_value (builder, counts[i]);
      }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/* The redacted text cut to @max_bytes, marker included, on a character boundary. */
static GByteArray *
cut_text (const char *text,
          gsize       length,
          gsize       max_bytes,
          gboolean   *cut)
{
  GByteArray *out = g_byte_array_new ();
  g_autofree char *marker = NULL;
  gsize keep;

  *cut = length > max_bytes;
  if (!*cut)
    {
      g_byte_array_append (out, (const guint8 *) text, length);
      return out;
    }

  /* the number in the marker is at most as long as the length itself */
  marker = g_strdup_printf ("\n[winnow: raw output cut at rawOutputMaxBytes; %" G_GSIZE_FORMAT
                            " bytes not kept]\n", length);
  keep = max_bytes - strlen (marker);
  for (guint k = 0; k < 3 && keep > 0 && ((guint8) text[keep] & 0xc0) == 0x80; k++)
    keep--;
  g_clear_pointer (&marker, g_free);
  marker = g_strdup_printf ("\n[winnow: raw output cut at rawOutputMaxBytes; %" G_GSIZE_FORMAT
                            " bytes not kept]\n", length - keep);

  g_byte_array_append (out, (const guint8 *) text, keep);
  g_byte_array_append (out, (const guint8 *) marker, strlen (marker));
  return out;
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         length)
{
  while (length > 0)
    {
      ssize_t n = write (fd, data, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = ENOSPC;
          return FALSE;
        }
      data += n;
      length -= n;
    }

  return TRUE;
}

/* temp file, fsync, rename; nothing is left behind on failure */
static gboolean
write_atomically (const char  *dir,
                  const char  *path,
                  GByteArray  *contents,
                  GError     **error)
{
  g_autofree char *temp = g_strdup_printf ("%s/" _WINNOW_RAW_OUTPUT_TEMP_PREFIX "%d-XXXXXX",
                                           dir, (int) getpid ());
  const char *fault = g_getenv ("WINNOW_RAW_OUTPUT_FAULT");
  const char *what;
  int saved;
  int fd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      saved = errno;
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO,
                   "%s: cannot create the raw-output folder: %s", dir, g_strerror (saved));
      return FALSE;
    }

  fd = g_mkstemp_full (temp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO,
                   "%s: cannot create a file for the raw output: %s", dir, g_strerror (saved));
      return FALSE;
    }

  what = "cannot write the raw output";
  if (!write_all (fd, contents->data, contents->len))
    goto failed;
  what = "cannot flush the raw output to the disk";
  if (fsync (fd) != 0)
    goto failed;
  what = "cannot close the raw output";
  if (close (fd) != 0)
    {
      fd = -1;
      goto failed;
    }
  fd = -1;

  if (g_strcmp0 (fault, "kill-before-rename") == 0)
    raise (SIGKILL);
  if (g_strcmp0 (fault, "fail-before-rename") == 0)
    {
      errno = EIO;
      what = "cannot rename the raw output (WINNOW_RAW_OUTPUT_FAULT)";
      goto failed;
    }

  what = "cannot rename the raw output into place";
  if (g_rename (temp, path) != 0)
    goto failed;

  return TRUE;

failed:
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_unlink (temp);
  g_set_error (error, WINNOW_STORE_ERROR, WINNOW_STORE_ERROR_IO, "%s: %s: %s", path, what,
               g_strerror (saved));
  return FALSE;
}

/**
 * winnow_store_save_raw_output:
 * @store: the database (its folder holds `rtk/raw-output/`)
 * @request: the output
 * @max_bytes: the most the file may hold (`rawOutputMaxBytes`; at least 1024 is used)
 * @error: return location for a #GError
 *
 * Redacts @request's text, cuts it to @max_bytes, writes it atomically to
 * `DATA_DIR/rtk/raw-output/EPOCHMS-SLUG-ID.log` and records the pointer — whatever the
 * settings say (see winnow_store_retain_raw_output()).
 *
 * Returns: (transfer full): the new raw output's row, or %NULL with @error set; nothing is
 *   left on disk then
 */
WinnowRawOutputInfo *
winnow_store_save_raw_output (WinnowStore                  *store,
                              const WinnowRawOutputRequest *request,
                              gsize                         max_bytes,
                              GError                      **error)
{
  g_autoptr(WinnowRedaction) redaction = NULL;
  g_autoptr(WinnowRedaction) command = NULL;
  g_autoptr(WinnowRawOutputInfo) info = NULL;
  g_autoptr(GByteArray) contents = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *slug = NULL;
  g_autofree char *name = NULL;
  const char *text;
  gsize length;
  gboolean cut;

  g_return_val_if_fail (WINNOW_IS_STORE (store), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->text != NULL || request->length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  redaction = winnow_redact (request->text ? request->text : "", request->length);
  text = winnow_redaction_get_text (redaction, &length);
  contents = cut_text (text, length, MAX (max_bytes, MIN_MAX_BYTES), &cut);

  info = g_new0 (WinnowRawOutputInfo, 1);
  info->created_us = g_get_real_time ();
  info->bytes = contents->len;
  info->original_bytes = MAX (request->original_bytes, request->length);
  info->truncated = cut || info->original_bytes > request->length;
  info->sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, contents->data, contents->len);
  info->redactions = redactions_json (redaction);
  info->event_id = request->event_id;
  info->source = g_strdup (request->source);
  info->has_exit_code = request->has_exit_code;
  info->exit_code = request->exit_code;
  info->failure = winnow_raw_output_looks_failed (request);
  if (request->command != NULL)
    {
      command = winnow_redact (request->command, -1);
      info->command = g_strdup (winnow_redaction_get_text (command, NULL));
    }

  info->id = make_id (info->sha256, info->created_us);

  slug = make_slug (info->command);
  name = g_strdup_printf ("%" G_GINT64_FORMAT "-%s-%s.log", info->created_us / 1000, slug,
                          info->id);
  dir = winnow_store_get_raw_output_dir (store);
  info->path = g_build_filename (dir, name, NULL);

  if (!write_atomically (dir, info->path, contents, error))
    return NULL;

  if (!_winnow_store_insert_raw_output (store, info, error))
    {
      g_unlink (info->path);
      return NULL;
    }

  return g_steal_pointer (&info);
}

/**
 * winnow_store_retain_raw_output:
 * @store: the database
 * @config: the settings: `rawOutputRetention` and `rawOutputMaxBytes`
 * @request: the output and its circumstances
 * @error: return location for a #GError
 *
 * Retains @request's output if the settings say so (see winnow_raw_output_should_retain()).
 *
 * Returns: (transfer full) (nullable): the new raw output's row; %NULL without @error when
 *   the settings keep nothing, %NULL with @error set when writing failed
 */
WinnowRawOutputInfo *
winnow_store_retain_raw_output (WinnowStore                  *store,
                                WinnowConfig                 *config,
                                const WinnowRawOutputRequest *request,
                                GError                      **error)
{
  WinnowRawRetention retention;

  g_return_val_if_fail (WINNOW_IS_STORE (store), NULL);
  g_return_val_if_fail (WINNOW_IS_CONFIG (config), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!winnow_raw_retention_from_string (winnow_config_get_raw_output_retention (config),
                                         &retention) ||
      !winnow_raw_output_should_retain (retention, request))
    return NULL;

  return winnow_store_save_raw_output (store, request,
                                       winnow_config_get_raw_output_max_bytes (config), error);
}
