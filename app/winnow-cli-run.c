/* winnow-cli-run.c — `winnow run -- CMD ARGS…`: run a command, compress what it printed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The way agents and hooks use Winnow: the command runs without a shell (its argv exactly as
 * given; `--shell` hands one line to /bin/sh -c), standard output and standard error share one
 * pipe so they stay in the order they were written, and `winnow run` exits with the command's
 * own status, 128+N when signal N killed it, as a shell reports it.
 *
 * Output is read as it arrives and never held whole: the first HEAD_CAP bytes and the last
 * TAIL_CAP bytes are kept (cut at line ends) and the middle is only counted — bytes, lines and
 * o200k_base tokens — then replaced by a one-line marker. Together the two caps equal the
 * 8 MiB the engine itself handles in one piece (Caveman's limit), so a 100 MB log costs the
 * same memory as an 8 MB one. The event records the output as the command produced it: its
 * full size and its tokens, middle included, since that is what an agent would have read.
 *
 * Counting tokens is fast on real output (100–200 MB/s) but slow on pathological text with no
 * spaces or punctuation (a run of one letter: ~7 MB/s). The omitted middle is therefore
 * counted exactly for at most COUNT_BUDGET_US of CPU time; anything past that is estimated
 * from the tokens per byte of the part counted so far. Real output never reaches the budget.
 *
 * With `rawOutputRetention` set, the output as read (head and tail of huge output) is kept,
 * redacted, in `DATA_DIR/rtk/raw-output/` and the event points to it; nothing more is printed.
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "winnow-cli.h"

#define HEAD_CAP        (4 * 1024 * 1024)
#define TAIL_CAP        (4 * 1024 * 1024)
#define LINE_SEARCH     (64 * 1024)        /* how far back a cut looks for a line end */
#define COUNT_PIECE     (256 * 1024)
#define COUNT_BUDGET_US (1 * G_USEC_PER_SEC)

typedef struct
{
  GByteArray *head;
  GByteArray *tail;
  gboolean    head_full;
  guint64     total;
  guint64     omitted_bytes;
  guint64     omitted_lines;
  guint64     omitted_tokens;    /* of the bytes counted exactly */
  guint64     counted_bytes;
  guint64     estimated_bytes;   /* omitted bytes past the counting budget */
  gint64      count_us;
} Capture;

static void
capture_init (Capture *capture)
{
  memset (capture, 0, sizeof *capture);
  capture->head = g_byte_array_new ();
  capture->tail = g_byte_array_new ();
}

static void
capture_clear (Capture *capture)
{
  g_clear_pointer (&capture->head, g_byte_array_unref);
  g_clear_pointer (&capture->tail, g_byte_array_unref);
}

/* The length of the prefix of @data (at most @max) that ends at a line end if one lies in the
 * last LINE_SEARCH bytes, else at a UTF-8 character boundary. */
static gsize
cut_point (const guint8 *data,
           gsize         max)
{
  gsize stop = max > LINE_SEARCH ? max - LINE_SEARCH : 0;
  gsize start = max;
  guint continuation = 0;
  guint8 lead;
  guint need;

  for (gsize i = max; i > stop; i--)
    if (data[i - 1] == '\n')
      return i;

  /* never split a multi-byte character: when the last one before @max is incomplete, cut
   * before it. Only bytes before @max are read — @max may be the end of the buffer. */
  while (start > 0 && continuation < 3 && (data[start - 1] & 0xc0) == 0x80)
    {
      start--;
      continuation++;
    }
  if (start == 0)
    return max;

  lead = data[start - 1];
  need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > continuation + 1 ? start - 1 : max;
}

static void
count_omitted (Capture      *capture,
               const guint8 *data,
               gsize         length)
{
  capture->omitted_bytes += length;
  for (gsize i = 0; i < length; i++)
    capture->omitted_lines += data[i] == '\n';

  while (length > 0)
    {
      gsize piece = length;
      gint64 start;

      if (capture->count_us >= COUNT_BUDGET_US)
        {
          capture->estimated_bytes += length;
          return;
        }

      if (piece > COUNT_PIECE)
        piece = cut_point (data, COUNT_PIECE);
      if (piece == 0)
        piece = MIN (length, COUNT_PIECE);

      start = g_get_monotonic_time ();
      capture->omitted_tokens += winnow_tokens_count ((const char *) data, piece);
      capture->count_us += g_get_monotonic_time () - start;
      capture->counted_bytes += piece;
      data += piece;
      length -= piece;
    }
}

static void
capture_feed (Capture      *capture,
              const guint8 *data,
              gsize         length)
{
  capture->total += length;

  if (!capture->head_full)
    {
      gsize take = MIN (length, HEAD_CAP - capture->head->len);

      g_byte_array_append (capture->head, data, take);
      data += take;
      length -= take;

      if (capture->head->len == HEAD_CAP)
        {
          /* end the head at a line end; the rest of that line starts the tail */
          gsize cut = cut_point (capture->head->data, HEAD_CAP);

          capture->head_full = TRUE;
          g_byte_array_append (capture->tail, capture->head->data + cut, HEAD_CAP - cut);
          g_byte_array_set_size (capture->head, cut);
        }
    }

  if (length == 0)
    return;

  g_byte_array_append (capture->tail, data, length);

  /* trimming only when the tail is twice its cap keeps the moves linear overall */
  if (capture->tail->len > 2 * TAIL_CAP)
    {
      gsize cut = cut_point (capture->tail->data, capture->tail->len - TAIL_CAP);

      if (cut == 0)
        cut = capture->tail->len - TAIL_CAP;
      count_omitted (capture, capture->tail->data, cut);
      g_byte_array_remove_range (capture->tail, 0, cut);
    }
}

/* Head, marker, tail; returns the marker's tokens, which the event must not count. */
static GByteArray *
capture_finish (Capture *capture,
                gsize   *marker_tokens)
{
  GByteArray *text = g_byte_array_sized_new (capture->head->len + capture->tail->len + 128);
  g_autofree char *marker = NULL;

  *marker_tokens = 0;

  if (capture->tail->len > TAIL_CAP)
    {
      gsize cut = capture->tail->len - TAIL_CAP;

      /* the kept part starts on a character */
      for (guint k = 0; k < 3 && (capture->tail->data[cut] & 0xc0) == 0x80; k++)
        cut++;
      count_omitted (capture, capture->tail->data, cut);
      g_byte_array_remove_range (capture->tail, 0, cut);
    }

  if (capture->omitted_bytes > 0 && capture->tail->len > 0)
    {
      /* start the tail on a whole line */
      gsize limit = MIN (capture->tail->len, LINE_SEARCH);
      const guint8 *nl = memchr (capture->tail->data, '\n', limit);

      if (nl != NULL && nl + 1 < capture->tail->data + capture->tail->len)
        {
          gsize cut = nl + 1 - capture->tail->data;

          count_omitted (capture, capture->tail->data, cut);
          g_byte_array_remove_range (capture->tail, 0, cut);
        }
    }

  g_byte_array_append (text, capture->head->data, capture->head->len);
  if (capture->omitted_bytes > 0)
    {
      if (text->len > 0 && text->data[text->len - 1] != '\n')
        g_byte_array_append (text, (const guint8 *) "\n", 1);
      marker = g_strdup_printf ("[winnow run: %" G_GUINT64_FORMAT " bytes (%" G_GUINT64_FORMAT
                                " lines) of output omitted here]\n",
                                capture->omitted_bytes, capture->omitted_lines);
      g_byte_array_append (text, (const guint8 *) marker, strlen (marker));
      *marker_tokens = winnow_tokens_count (marker, -1);
    }
  g_byte_array_append (text, capture->tail->data, capture->tail->len);

  return text;
}

static guint64
capture_omitted_tokens (Capture *capture,
                        gsize    kept_tokens,
                        gsize    kept_bytes)
{
  guint64 tokens = capture->omitted_tokens;

  if (capture->estimated_bytes > 0)
    {
      /* the rate of what was counted of the middle, else of the text that was kept */
      double rate = capture->counted_bytes > 0
                    ? (double) capture->omitted_tokens / capture->counted_bytes
                    : kept_bytes > 0 ? (double) kept_tokens / kept_bytes : 0.25;

      tokens += (guint64) (rate * capture->estimated_bytes + 0.5);
    }

  return tokens;
}

/* ---- recording --------------------------------------------------------------------------- */

/**
 * winnow_cli_record:
 * @context: the context the compression ran in
 * @event: the event
 * @command: the subcommand, for the warning
 *
 * Records @event in the data directory's database. Recording never fails a compression: a
 * problem is one warning on standard error.
 */
void
winnow_cli_record (WinnowContext          *context,
                   const WinnowStoreEvent *event,
                   const char             *command)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open_for_context (context, &error);

  if (store != NULL)
    winnow_store_record (store, event, NULL, &error);

  if (error != NULL)
    g_printerr (_("winnow %s: warning: the event was not recorded: %s\n"), command,
                error->message);
}

/* One database for both: the raw output first (rawOutputRetention), then the event that
 * points to it. A raw output that cannot be kept (a full disk, a folder that is not
 * writable) costs a warning; the event is recorded all the same, without a pointer. */
static void
record_run (WinnowContext                *context,
            WinnowStoreEvent             *event,
            const WinnowRawOutputRequest *raw_request)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WinnowStore) store = winnow_store_open_for_context (context, &error);
  g_autoptr(WinnowRawOutputInfo) raw = NULL;

  if (store == NULL)
    {
      g_printerr (_("winnow run: warning: the event was not recorded: %s\n"), error->message);
      return;
    }

  raw = winnow_store_retain_raw_output (store, winnow_context_get_config (context), raw_request,
                                        &error);
  if (error != NULL)
    {
      g_printerr (_("winnow run: warning: the raw output was not kept: %s\n"), error->message);
      g_clear_error (&error);
    }

  event->raw_output_id = raw != NULL ? raw->id : NULL;
  if (!winnow_store_record (store, event, NULL, &error))
    g_printerr (_("winnow run: warning: the event was not recorded: %s\n"), error->message);
}

/* ---- running ----------------------------------------------------------------------------- */

static char *
command_line (char **argv)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      gboolean plain = argv[i][0] != '\0' &&
                       strspn (argv[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                        "0123456789-_./:=+,@%") == strlen (argv[i]);

      if (i > 0)
        g_string_append_c (line, ' ');
      if (plain)
        g_string_append (line, argv[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (argv[i]);
          g_string_append (line, quoted);
        }
    }

  return g_string_free (line, FALSE);
}

static int
spawn_failed (const char *program,
              GError     *error)
{
  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT))
    {
      g_printerr (_("winnow run: %s: command not found\n"), program);
      return 127;
    }

  g_printerr ("winnow run: %s: %s\n", program, error->message);
  /* a shell says 126 for a file it found but cannot execute */
  return g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_ACCES) ||
         g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOEXEC) ||
         g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_ISDIR) ? 126 : 127;
}

int
winnow_cli_run (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(WinnowPipeline) pipeline = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GByteArray) text = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *intensity = NULL;
  g_autofree char *line = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *buffer = NULL;
  g_autoptr(GPtrArray) child_argv = g_ptr_array_new_with_free_func (g_free);
  gboolean no_record = FALSE;
  gboolean shell = FALSE;
  WinnowCliCommon common = { 0 };
  WinnowPipelineRequest request;
  GInputStream *output;
  Capture capture;
  gsize marker_tokens;
  gssize n;
  int option_argc;
  char **command_argv = NULL;
  int status;
  GOptionEntry entries[] = {
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &mode,
      N_("off, rtk, caveman or stacked (default: the settings’ defaultMode)"), N_("MODE") },
    { "intensity", 'i', 0, G_OPTION_ARG_STRING, &intensity,
      N_("RTK: minimal, standard or aggressive; Caveman: lite, full or ultra"), N_("LEVEL") },
    { "shell", 0, 0, G_OPTION_ARG_NONE, &shell,
      N_("Run the command line with /bin/sh -c (for pipes, redirections and globs)"), NULL },
    { "no-record", 0, 0, G_OPTION_ARG_NONE, &no_record,
      N_("Do not record the savings in the database"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (_("-- COMMAND [ARGUMENT…]"),
                                       _("Run COMMAND, compress what it printed and print that."),
                                       _("The command runs without a shell, its arguments exactly "
                                         "as given; with --shell, its words are joined into one "
                                         "line for /bin/sh -c. Standard output and standard "
                                         "error are read together, in the order they were "
                                         "written. Output over 8 MiB keeps its first and last "
                                         "4 MiB and says how much was left out between them. "
                                         "The savings are recorded for “winnow gain” unless "
                                         "--no-record is given.\n\n"
                                         "Exit status: the command's own; 128+N if signal N "
                                         "ended it; 127 if it was not found, 126 if it could "
                                         "not be executed; 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  /* Everything after `--` is the command, untouched: GOption would otherwise read the
   * command's own options (`ls -la`). Without `--`, parsing stops at the first word that is
   * not an option. */
  for (option_argc = 1; option_argc < argc; option_argc++)
    if (strcmp (argv[option_argc], "--") == 0)
      {
        command_argv = argv + option_argc + 1;
        break;
      }

  if (command_argv != NULL)
    {
      if (!winnow_cli_parse (context, "run", &option_argc, &argv))
        {
          winnow_cli_common_clear (&common);
          return WINNOW_EXIT_USAGE;
        }
      if (option_argc > 1)
        {
          winnow_cli_common_clear (&common);
          return winnow_cli_usage_error ("run", _("unexpected “%s” before “--”"), argv[1]);
        }
    }
  else
    {
      g_option_context_set_strict_posix (context, TRUE);
      if (!winnow_cli_parse (context, "run", &argc, &argv))
        {
          winnow_cli_common_clear (&common);
          return WINNOW_EXIT_USAGE;
        }
      command_argv = argv + 1;
    }

  if (command_argv[0] == NULL)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("run", _("no command given"));
    }

  winnow_pipeline_request_init (&request);
  if (!winnow_cli_set_mode_and_intensity ("run", mode, intensity, &request))
    {
      winnow_cli_common_clear (&common);
      return WINNOW_EXIT_USAGE;
    }

  if (shell)
    {
      line = g_strjoinv (" ", command_argv);
      g_ptr_array_add (child_argv, g_strdup ("/bin/sh"));
      g_ptr_array_add (child_argv, g_strdup ("-c"));
      g_ptr_array_add (child_argv, g_strdup (line));
    }
  else
    {
      line = command_line (command_argv);
      for (guint i = 0; command_argv[i] != NULL; i++)
        g_ptr_array_add (child_argv, g_strdup (command_argv[i]));
    }
  g_ptr_array_add (child_argv, NULL);

  /* stdin stays the terminal's or the agent's: an interactive prompt still works */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_MERGE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) child_argv->pdata,
                                          &error);
  if (process == NULL)
    {
      winnow_cli_common_clear (&common);
      return spawn_failed (g_ptr_array_index (child_argv, 0), error);
    }

  capture_init (&capture);
  buffer = g_malloc (64 * 1024);
  output = g_subprocess_get_stdout_pipe (process);
  while ((n = g_input_stream_read (output, buffer, 64 * 1024, NULL, &error)) > 0)
    capture_feed (&capture, (const guint8 *) buffer, n);

  if (n < 0)
    {
      /* keep what was read; the command's status still decides the exit status */
      g_printerr ("winnow run: %s\n", error->message);
      g_clear_error (&error);
    }

  g_subprocess_wait (process, NULL, NULL);
  if (g_subprocess_get_if_signaled (process))
    status = 128 + g_subprocess_get_term_sig (process);
  else
    status = g_subprocess_get_exit_status (process);

  text = capture_finish (&capture, &marker_tokens);

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);
  pipeline = winnow_pipeline_new (ctx);
  request.command = line;
  request.cwd = cwd;

  result = winnow_pipeline_run_text (pipeline, (const char *) text->data, text->len, &request,
                                     &error);
  if (result == NULL)
    {
      /* never lose the output: print it as it was read */
      g_printerr ("winnow run: %s\n", error->message);
      fwrite (text->data, 1, text->len, stdout);
    }
  else
    {
      gsize out_len;
      const char *out = winnow_pipeline_result_get_text (result, &out_len);

      fwrite (out, 1, out_len, stdout);
      if (out_len > 0 && out[out_len - 1] != '\n')
        fputc ('\n', stdout);
    }
  fflush (stdout);

  if (result != NULL && !no_record)
    {
      WinnowStoreEvent event;
      WinnowRawOutputRequest raw_request;
      WinnowReceipt *receipt = winnow_pipeline_result_get_receipt (result);
      gsize kept_tokens = winnow_receipt_get_tokens_before (receipt);
      /* a command line can hold a secret too (`curl -H 'Authorization: …'`) */
      g_autoptr(WinnowRedaction) redacted_line = winnow_redact (line, -1);

      kept_tokens -= MIN (kept_tokens, marker_tokens);
      winnow_store_event_init (&event, "run");
      winnow_store_event_set_result (&event, result, capture.total);
      event.command = winnow_redaction_get_text (redacted_line, NULL);
      event.project = cwd;
      event.has_exit_code = TRUE;
      event.exit_code = status;
      /* the output as the command produced it: the omitted middle counts too */
      event.tokens_before = kept_tokens +
                            capture_omitted_tokens (&capture, kept_tokens,
                                                    capture.head->len + capture.tail->len);

      winnow_raw_output_request_init (&raw_request, "run", (const char *) text->data, text->len);
      winnow_raw_output_request_set_result (&raw_request, result);
      raw_request.original_bytes = capture.total;
      raw_request.command = line;
      raw_request.has_exit_code = TRUE;
      raw_request.exit_code = status;
      record_run (ctx, &event, &raw_request);
    }

  capture_clear (&capture);
  return status;
}
