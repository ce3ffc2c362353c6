/* winnow-detector.c — classifying command output into output types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Scoring follows the reference: 0.55 when the command names the type's tool, plus 0.25 for
 * each content pattern seen, capped at 1. Winnow adds two rules:
 *
 *  - Command evidence outranks loose text: when the command names a tool, only types whose
 *    command pattern matched compete. Generic runners (`npm test`, `make check`) are weak
 *    evidence (0.3) that content can overturn (`npm test` running Vitest).
 *  - Prose and file reads pass through: with no command, or a command that reads a file
 *    (cat, head, less …), output with no error markers is left alone.
 *
 * Content is only looked at in the first 48 KiB and the last 16 KiB, where tools print their
 * headers and summaries, so detection costs the same for 1 KiB and 50 MiB.
 *
 * What the command alone decides (its normal form and which types' command patterns match it)
 * is remembered per command line: a server sees the same few commands again and again, and
 * screening ~200 types' patterns against one costs about as much as the content patterns.
 */

#define G_LOG_DOMAIN "winnow-detector"

#include "config.h"

#include <string.h>

#include "winnow-command.h"
#include "winnow-utf8.h"
#include "winnow-detector.h"
#include "winnow-detector-private.h"
#include "winnow-output-types.h"
#include "winnow-regex.h"

#define HEAD_SAMPLE (48 * 1024)
#define TAIL_SAMPLE (16 * 1024)

#define STRONG_COMMAND_SCORE 0.55
#define WEAK_COMMAND_SCORE   0.30
#define CONTENT_SCORE        0.25

/* command lines remembered at most; past that the memory starts over */
#define MAX_CACHED_COMMANDS 256

typedef struct
{
  WinnowRegex  *commands[WINNOW_MAX_TYPE_PATTERNS + 1];
  WinnowRegex  *weak[WINNOW_MAX_TYPE_PATTERNS + 1];
  gsize         commands_ready; /* g_once: commands[] and weak[] compiled */
  WinnowRegex **content;   /* compiled when the type is first considered; NULL-terminated */
} CompiledType;

/* What detect() derives from a command line alone. */
typedef struct
{
  char     *cmd;           /* normalised; NULL when nothing is left of it */
  guint     n_strong;      /* types whose tool the command names */
  guint8    score[];       /* n_types: 0 none, 1 weak, 2 strong */
} CommandScores;

struct _WinnowDetector
{
  GObject                 parent_instance;
  const WinnowOutputType *types;
  guint                   n_types;
  CompiledType           *compiled;      /* built once, on first use */
  WinnowRegex            *error_markers;
  GMutex                  commands_lock; /* guards commands */
  GHashTable             *commands;      /* command line as given → CommandScores */
};

G_DEFINE_FINAL_TYPE (WinnowDetector, winnow_detector, G_TYPE_OBJECT)

static void
winnow_detector_finalize (GObject *object)
{
  WinnowDetector *self = (WinnowDetector *)object;

  if (self->compiled != NULL)
    {
      for (guint i = 0; i < self->n_types; i++)
        for (guint k = 0; k < WINNOW_MAX_TYPE_PATTERNS; k++)
          {
            g_clear_pointer (&self->compiled[i].commands[k], winnow_regex_unref);
            g_clear_pointer (&self->compiled[i].weak[k], winnow_regex_unref);
          }
      for (guint i = 0; i < self->n_types; i++)
        if (self->compiled[i].content != NULL)
          {
            for (guint k = 0; self->compiled[i].content[k] != NULL; k++)
              winnow_regex_unref (self->compiled[i].content[k]);
            g_free (self->compiled[i].content);
          }
      g_free (self->compiled);
    }
  g_clear_pointer (&self->error_markers, winnow_regex_unref);
  g_clear_pointer (&self->commands, g_hash_table_unref);
  g_mutex_clear (&self->commands_lock);

  G_OBJECT_CLASS (winnow_detector_parent_class)->finalize (object);
}

static void
winnow_detector_class_init (WinnowDetectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_detector_finalize;
}

static void
command_scores_free (gpointer data)
{
  CommandScores *scores = data;

  g_free (scores->cmd);
  g_free (scores);
}

static void
winnow_detector_init (WinnowDetector *self)
{
  self->types = _winnow_output_types_get (&self->n_types);
  g_mutex_init (&self->commands_lock);
  self->commands = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, command_scores_free);
}

/**
 * winnow_detector_new:
 *
 * Returns: (transfer full): a new #WinnowDetector; its patterns compile on first use
 */
WinnowDetector *
winnow_detector_new (void)
{
  return g_object_new (WINNOW_TYPE_DETECTOR, NULL);
}

static void
compile_list (const char * const *sources,
              const char         *flags,
              WinnowRegex       **out)
{
  guint kept = 0;

  for (guint k = 0; k < WINNOW_MAX_TYPE_PATTERNS && sources[k] != NULL; k++)
    {
      g_autoptr(GError) error = NULL;
      WinnowRegex *regex = winnow_regex_new (sources[k], flags, WINNOW_REGEX_ADAPTIVE, &error);

      /* the table is ours and tested; a bad entry is a programming error */
      if (regex == NULL)
        g_critical ("detector pattern /%s/: %s", sources[k], error->message);
      else
        out[kept++] = regex;
    }
}

/* A type's command patterns, compiled the first time a command could match one of them
 * (see could_match_command()): a one-shot call compiles a handful of the ~200. */
static const CompiledType *
get_commands (WinnowDetector *self,
              guint           index)
{
  CompiledType *type = &self->compiled[index];

  if (g_once_init_enter (&type->commands_ready))
    {
      compile_list (self->types[index].commands, "i", type->commands);
      compile_list (self->types[index].weak_commands, "i", type->weak);
      g_once_init_leave (&type->commands_ready, 1);
    }

  return type;
}

/* Whether @cmd may start like @pattern: the literal characters @pattern starts with (letters,
 * digits, "-", "_", "/" and the escaped "\\." "\\/" "\\-"; the last of them dropped when a
 * quantifier makes it optional), case aside. Any other start may match anything. */
static gboolean
starts_with_literal (const char *pattern,
                     const char *cmd,
                     gsize       cmd_len)
{
  char literal[64];
  gsize n = 0;
  const char *p = pattern;

  while (n < sizeof literal)
    {
      if (g_ascii_isalnum (*p) || *p == '-' || *p == '_' || *p == '/')
        literal[n++] = *p++;
      else if (p[0] == '\\' && (p[1] == '.' || p[1] == '/' || p[1] == '-'))
        {
          literal[n++] = p[1];
          p += 2;
        }
      else
        break;
    }
  if (n > 0 && (*p == '?' || *p == '*' || *p == '{'))
    n--;

  return n == 0 || (cmd_len >= n && g_ascii_strncasecmp (cmd, literal, n) == 0);
}

/* Whether a command may start like what follows the ^ at @p. A leading "(?:…)" group: like one
 * of its alternatives, or, when a "?" makes the group optional, also like what follows it. */
static gboolean
could_start (const char *p,
             const char *cmd,
             gsize       cmd_len)
{
  const char *close = NULL;
  gboolean any = FALSE;
  int depth = 0;

  if (!g_str_has_prefix (p, "(?:"))
    return starts_with_literal (p, cmd, cmd_len);

  for (const char *q = p; *q != '\0' && close == NULL; q++)
    {
      if (*q == '\\' && q[1] != '\0')
        q++;
      else if (*q == '[')
        return TRUE; /* a class inside: not worth following */
      else if (*q == '(')
        depth++;
      else if (*q == ')' && --depth == 0)
        close = q;
    }
  if (close == NULL || close[1] == '*' || close[1] == '{' ||
      (close[1] == '?' && close[2] == '?'))
    return TRUE;

  for (const char *q = p + 3; q < close && !any; q++)
    {
      if (starts_with_literal (q, cmd, cmd_len))
        {
          any = TRUE;
          break;
        }
      /* skip to the next alternative at this group's level */
      for (depth = 0; q < close && (depth > 0 || *q != '|'); q++)
        {
          if (*q == '\\')
            q++;
          else if (*q == '(')
            depth++;
          else if (*q == ')')
            depth--;
        }
    }

  if (!any && close[1] == '?')
    return could_start (close + 2, cmd, cmd_len);
  return any;
}

/* Whether @pattern may match @cmd, decided without compiling it: a pattern "^word…" with
 * no alternation at its top level only matches commands that start with "word", case aside
 * (see could_start()). Anything else may match. The caller only asks about ASCII commands:
 * with Unicode case folding a non-ASCII letter can match an ASCII one (K, the Kelvin sign,
 * matches k). */
static gboolean
could_match_command (const char *pattern,
                     const char *cmd,
                     gsize       cmd_len)
{
  int depth = 0;

  if (pattern[0] != '^')
    return TRUE;

  for (const char *p = pattern; *p != '\0'; p++)
    {
      if (*p == '\\')
        {
          if (p[1] == '\0')
            return TRUE;
          p++;
        }
      else if (*p == '[')
        {
          /* a class: "]" right after "[" or "[^" is a member, escapes hide "]" */
          p++;
          if (*p == '^')
            p++;
          if (*p == ']')
            p++;
          while (*p != '\0' && *p != ']')
            p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
          if (*p == '\0')
            return TRUE;
        }
      else if (*p == '(')
        depth++;
      else if (*p == ')')
        depth--;
      else if (*p == '|' && depth == 0)
        return TRUE;
    }

  return could_start (pattern + 1, cmd, cmd_len);
}

static gboolean
type_could_match_command (const WinnowOutputType *type,
                          const char             *cmd,
                          gsize                   cmd_len)
{
  for (guint k = 0; k < WINNOW_MAX_TYPE_PATTERNS && type->commands[k] != NULL; k++)
    if (could_match_command (type->commands[k], cmd, cmd_len))
      return TRUE;
  for (guint k = 0; k < WINNOW_MAX_TYPE_PATTERNS && type->weak_commands[k] != NULL; k++)
    if (could_match_command (type->weak_commands[k], cmd, cmd_len))
      return TRUE;
  return FALSE;
}

static gboolean
is_ascii (const char *text,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if ((guchar) text[i] >= 0x80)
      return FALSE;
  return TRUE;
}

static const CompiledType *
get_compiled (WinnowDetector *self)
{
  if (g_once_init_enter (&self->compiled))
    {
      self->error_markers =
        winnow_regex_new ("\\b(?:error|errors|failed|failure|fatal|exception|traceback|panic|"
                          "segmentation fault|aborted|FAIL|FAILED)\\b",
                          "i", WINNOW_REGEX_OPTIMIZE, NULL);
      g_once_init_leave (&self->compiled, g_new0 (CompiledType, self->n_types));
    }

  return self->compiled;
}

/* A type's content patterns, compiled the first time the type is considered: with a command
 * naming its tool, a one-shot call compiles only that type's patterns. */
static WinnowRegex * const *
get_content (WinnowDetector *self,
             guint           index)
{
  CompiledType *type = &self->compiled[index];

  if (g_once_init_enter (&type->content))
    {
      WinnowRegex **content = g_new0 (WinnowRegex *, WINNOW_MAX_TYPE_PATTERNS + 1);

      compile_list (self->types[index].content, "m", content);
      g_once_init_leave (&type->content, content);
    }

  return (WinnowRegex * const *) type->content;
}

static gboolean
any_matches (WinnowRegex * const *regexes,
             const char          *text,
             gsize                length)
{
  for (guint k = 0; regexes[k] != NULL; k++)
    if (winnow_regex_test (regexes[k], text, length) == WINNOW_REGEX_MATCH)
      return TRUE;
  return FALSE;
}

/* How many of @regexes match, counted up to @enough. */
static guint
count_matches (WinnowRegex * const *regexes,
               const char          *text,
               gsize                length,
               guint                enough)
{
  guint hits = 0;

  for (guint k = 0; regexes[k] != NULL && hits < enough; k++)
    if (winnow_regex_test (regexes[k], text, length) == WINNOW_REGEX_MATCH)
      hits++;
  return hits;
}

/* Appends @text without terminal escapes and carriage returns: detection looks at what a
 * person would see, so colored output is recognised like plain output. */
static void
append_clean (GString    *out,
              const char *text,
              gsize       length)
{
  const char *end = text + length;

  for (const char *p = text; p < end;)
    {
      const char *plain = p;

      /* the plain stretch up to the next escape or carriage return, in one go */
      while (plain < end && *plain != '\x1b' && *plain != '\r')
        plain++;
      g_string_append_len (out, p, plain - p);
      p = plain;
      if (p >= end)
        break;

      if (*p == '\x1b' && p + 1 < end && p[1] == '[')
        {
          p += 2;
          while (p < end && (guchar) *p >= 0x20 && (guchar) *p <= 0x3F)
            p++;
          if (p < end)
            p++;
        }
      else if (*p == '\x1b' && p + 1 < end && p[1] == ']')
        {
          for (p += 2; p < end && *p != '\a' && *p != '\x1b'; p++)
            ;
          p += (p < end && *p == '\x1b') ? 2 : 1;
        }
      else if (*p == '\x1b')
        p += 2;
      else
        p++; /* '\r' */
    }
}

/* The head and tail of long output, cut at line starts and character boundaries, cleaned of
 * escapes. Returns %NULL when the text can be used as it is. */
static char *
make_sample (const char *text,
             gsize       length,
             gsize      *sample_length)
{
  const char *head_end = text + length;
  const char *tail_start = text + length;
  gboolean needs_cleaning;
  GString *sample;

  if (length > HEAD_SAMPLE + TAIL_SAMPLE)
    {
      head_end = text + HEAD_SAMPLE;
      while (head_end > text && head_end[-1] != '\n')
        head_end--;
      if (head_end == text)
        head_end = g_utf8_find_prev_char (text, text + HEAD_SAMPLE + 1);

      tail_start = text + length - TAIL_SAMPLE;
      while (tail_start < text + length && tail_start[-1] != '\n')
        tail_start++;
      if (tail_start >= text + length)
        tail_start = g_utf8_find_next_char (text + length - TAIL_SAMPLE - 1, text + length);
    }

  needs_cleaning = memchr (text, '\x1b', head_end - text) != NULL ||
                   memchr (text, '\r', head_end - text) != NULL ||
                   memchr (tail_start, '\x1b', text + length - tail_start) != NULL ||
                   memchr (tail_start, '\r', text + length - tail_start) != NULL;

  if (head_end == text + length && !needs_cleaning)
    {
      *sample_length = length;
      return NULL; /* use the text itself */
    }

  sample = g_string_sized_new (MIN (length, HEAD_SAMPLE + TAIL_SAMPLE) + 2);
  append_clean (sample, text, head_end - text);
  if (tail_start < text + length)
    {
      if (sample->len > 0 && sample->str[sample->len - 1] != '\n')
        g_string_append_c (sample, '\n');
      append_clean (sample, tail_start, text + length - tail_start);
    }

  *sample_length = sample->len;
  return g_string_free (sample, FALSE);
}

/* Scores the normalised command @cmd against every type's command patterns into @score
 * (n_types: 0 none, 1 weak, 2 strong). Returns how many types' tool it names. */
static guint
score_command (WinnowDetector *self,
               const char     *cmd,
               guint8         *score)
{
  gsize cmd_len = strlen (cmd);
  gboolean ascii = is_ascii (cmd, cmd_len);
  guint n_strong = 0;

  for (guint i = 0; i < self->n_types; i++)
    {
      const CompiledType *type;

      if (ascii && !type_could_match_command (&self->types[i], cmd, cmd_len))
        continue;

      type = get_commands (self, i);
      if (any_matches (type->commands, cmd, cmd_len))
        score[i] = 2, n_strong++;
      else if (any_matches (type->weak, cmd, cmd_len))
        score[i] = 1;
    }

  return n_strong;
}

/* The normal form of @command (transfer full; %NULL when nothing is left of it) and its
 * score_command() into @score and @n_strong, remembered per command line: both depend on
 * the line alone. Thread-safe; the scoring itself runs outside the lock. */
static char *
remembered_command (WinnowDetector *self,
                    const char     *command,
                    guint8         *score,
                    guint          *n_strong)
{
  CommandScores *scores;
  char *cmd;

  g_mutex_lock (&self->commands_lock);
  scores = g_hash_table_lookup (self->commands, command);
  if (scores != NULL)
    {
      memcpy (score, scores->score, self->n_types);
      *n_strong = scores->n_strong;
      cmd = g_strdup (scores->cmd);
      g_mutex_unlock (&self->commands_lock);
      return cmd;
    }
  g_mutex_unlock (&self->commands_lock);

  scores = g_malloc0 (sizeof (CommandScores) + self->n_types);
  scores->cmd = winnow_command_normalize (command);
  if (scores->cmd != NULL && scores->cmd[0] == '\0')
    g_clear_pointer (&scores->cmd, g_free);
  if (scores->cmd != NULL)
    scores->n_strong = score_command (self, scores->cmd, scores->score);

  memcpy (score, scores->score, self->n_types);
  *n_strong = scores->n_strong;
  cmd = g_strdup (scores->cmd);

  g_mutex_lock (&self->commands_lock);
  if (g_hash_table_size (self->commands) >= MAX_CACHED_COMMANDS)
    g_hash_table_remove_all (self->commands);
  g_hash_table_replace (self->commands, g_strdup (command), scores);
  g_mutex_unlock (&self->commands_lock);

  return cmd;
}

static gboolean
wraps_type (const WinnowOutputType *type,
            const char             *inner)
{
  for (guint k = 0; k < WINNOW_MAX_WRAPPED && type->wraps[k] != NULL; k++)
    if (strcmp (type->wraps[k], inner) == 0)
      return TRUE;
  return FALSE;
}

/* JSON is recognised by its shape: the output is one object or array, possibly after a few
 * lines of tool chatter (npm prints warnings before `--json` output). */
static gboolean
looks_like_json (const char *text,
                 gsize       length)
{
  gsize start = 0;
  gsize end = length;

  while (end > 0 && g_ascii_isspace (text[end - 1]))
    end--;
  if (end == 0 || (text[end - 1] != '}' && text[end - 1] != ']'))
    return FALSE;

  for (guint line = 0; line < 4 && start < end; line++)
    {
      const char *nl;

      while (start < end && g_ascii_isspace (text[start]))
        start++;
      if (start < end && (text[start] == '{' || text[start] == '['))
        return end - start >= 2 && (text[start] == '{') == (text[end - 1] == '}');

      nl = memchr (text + start, '\n', end - start);
      if (nl == NULL)
        return FALSE;
      start = nl - text + 1;
    }

  return FALSE;
}

static WinnowDetection *
detect (WinnowDetector *self,
        const char     *text,
        gssize          length,
        const char     *command,
        gboolean        known_utf8)
{
  g_autofree char *cmd = NULL;
  g_autofree char *owned_sample = NULL;
  g_autofree char *evidence = NULL;
  const char *sample;
  gsize len;
  gsize sample_len;
  guint n_strong = 0;
  gboolean has_errors;
  gboolean is_json;
  g_autofree guint8 *command_score = NULL;
  g_autofree guint *hits_of = NULL;
  int best = -1;
  double best_score = 0.0;
  guint best_hits = 0;

  g_return_val_if_fail (WINNOW_IS_DETECTOR (self), NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;

  get_compiled (self);

  if (!known_utf8 && !_winnow_utf8_validate (text, len, NULL))
    return _winnow_detection_new ("generic-output", "generic", 0.0, NULL, FALSE,
                                  "not valid UTF-8", FALSE, TRUE);

  /* 0 none, 1 weak, 2 strong */
  command_score = g_new0 (guint8, self->n_types);
  if (command != NULL)
    cmd = remembered_command (self, command, command_score, &n_strong);
  else
    {
      cmd = winnow_command_from_output (text, len);
      if (cmd != NULL && cmd[0] == '\0')
        g_clear_pointer (&cmd, g_free);
      if (cmd != NULL)
        n_strong = score_command (self, cmd, command_score);
    }

  owned_sample = make_sample (text, len, &sample_len);
  sample = owned_sample ? owned_sample : text;

  has_errors = winnow_regex_test (self->error_markers, sample, sample_len) == WINNOW_REGEX_MATCH;
  is_json = looks_like_json (text, len);

  hits_of = g_new0 (guint, self->n_types);
  for (guint i = 0; i < self->n_types; i++)
    {
      const WinnowOutputType *type = &self->types[i];
      double score;
      guint hits;

      if (n_strong > 0 && command_score[i] != 2)
        continue;
      if ((type->flags & WINNOW_OUTPUT_TYPE_FALLBACK) && command_score[i] == 0)
        continue; /* fallbacks only win when nothing specific does; see below */

      /* the one type whose tool the command names wins whatever its hits; past two, they
       * change nothing (its confidence is capped at 1 and the evidence only says "and content
       * patterns"), so the rest of its patterns need not scan the sample */
      hits = count_matches (get_content (self, i), sample, sample_len,
                            n_strong == 1 ? 2 : G_MAXUINT);
      if (strcmp (type->id, "json-output") == 0 && is_json)
        hits += 2;

      hits_of[i] = hits;
      score = (command_score[i] == 2 ? STRONG_COMMAND_SCORE
               : command_score[i] == 1 ? WEAK_COMMAND_SCORE : 0.0) + hits * CONTENT_SCORE;
      if (score > best_score)
        {
          best = i;
          best_score = score;
          best_hits = hits;
        }
    }

  /* A build system's or test runner's output contains the output of the tools it runs: make
   * prints gcc's diagnostics, `go test` a panic. Those inner lines can outnumber the runner's
   * own few lines, but the runner's filter is the one that knows the whole, so without strong
   * command evidence any hit of a wrapping type's own patterns takes the win (repeatedly:
   * gcc inside make inside cmake). */
  for (gboolean moved = best >= 0 && command_score[best] != 2; moved;)
    {
      int wrapper = -1;

      moved = FALSE;
      for (guint i = 0; i < self->n_types; i++)
        {
          if (hits_of[i] == 0 || (int) i == best || !wraps_type (&self->types[i], self->types[best].id))
            continue;
          if (wrapper < 0 || hits_of[i] > hits_of[wrapper])
            wrapper = i;
        }
      if (wrapper >= 0)
        {
          best = wrapper;
          best_hits = hits_of[wrapper];
          best_score = MAX (best_score, (command_score[wrapper] == 1 ? WEAK_COMMAND_SCORE : 0.0) +
                                        best_hits * CONTENT_SCORE);
          moved = TRUE;
        }
    }

  if (best < 0)
    {
      /* nothing specific: generic-error when there are error lines, else generic-output */
      const WinnowOutputType *generic_error = _winnow_output_types_lookup ("generic-error");
      guint idx = generic_error - self->types;
      guint hits = count_matches (get_content (self, idx), sample, sample_len, G_MAXUINT);
      gboolean passthrough = !has_errors && (cmd == NULL || hits == 0);

      if (hits > 0)
        return _winnow_detection_new ("generic-error", "generic",
                                      MIN (1.0, hits * CONTENT_SCORE), cmd, FALSE,
                                      "error lines, no known tool", TRUE, FALSE);

      /* with no command, prose and file contents without error markers stay as they are */
      return _winnow_detection_new ("generic-output", "generic", cmd ? 0.35 : 0.1, cmd, FALSE,
                                    cmd ? "no known tool in the command or the output"
                                        : "no command and no known tool in the output",
                                    has_errors, passthrough && cmd == NULL);
    }

  if (command_score[best] == 2)
    evidence = g_strdup_printf ("command “%s”%s", cmd,
                                best_hits ? " and content patterns" : "");
  else if (command_score[best] == 1)
    evidence = g_strdup_printf ("runner command “%s” and %u content pattern%s", cmd, best_hits,
                                best_hits == 1 ? "" : "s");
  else
    evidence = g_strdup_printf ("%u content pattern%s", best_hits, best_hits == 1 ? "" : "s");

  return _winnow_detection_new (self->types[best].id, self->types[best].category,
                                MIN (1.0, best_score), cmd, command_score[best] == 2, evidence,
                                has_errors,
                                (self->types[best].flags & WINNOW_OUTPUT_TYPE_PASSTHROUGH) &&
                                !has_errors);
}

/**
 * winnow_detector_detect:
 * @self: a #WinnowDetector
 * @text: the output
 * @length: its length in bytes, or -1 if nul-terminated
 * @command: (nullable): the command line that produced it
 *
 * Returns: (transfer full): the detection; never %NULL (unknown output is "generic-output")
 */
WinnowDetection *
winnow_detector_detect (WinnowDetector *self,
                        const char     *text,
                        gssize          length,
                        const char     *command)
{
  return detect (self, text, length, command, FALSE);
}

/* The same for text the caller has just found to be valid UTF-8: a 20 MB log is not
 * validated twice in one compression (winnow_context_compress). */
WinnowDetection *
_winnow_detector_detect_utf8 (WinnowDetector *self,
                              const char     *text,
                              gsize           length,
                              const char     *command)
{
  return detect (self, text, (gssize) length, command, TRUE);
}

/**
 * winnow_detector_dup_output_types:
 *
 * Returns: (transfer full): every output type id the detector can report
 */
GStrv
winnow_detector_dup_output_types (void)
{
  guint n;
  const WinnowOutputType *types = _winnow_output_types_get (&n);
  GStrv ids = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    ids[i] = g_strdup (types[i].id);

  return ids;
}

gboolean
winnow_detector_knows_output_type (const char *output_type)
{
  return _winnow_output_types_lookup (output_type) != NULL;
}

/**
 * winnow_detector_get_type_category:
 * @output_type: an output type id
 *
 * Returns: (nullable): its category, or %NULL for an unknown type
 */
const char *
winnow_detector_get_type_category (const char *output_type)
{
  const WinnowOutputType *type = _winnow_output_types_lookup (output_type);

  return type ? type->category : NULL;
}

/**
 * winnow_detector_get_type_description:
 * @output_type: an output type id
 *
 * Returns: (nullable): what the type is, in words
 */
const char *
winnow_detector_get_type_description (const char *output_type)
{
  const WinnowOutputType *type = _winnow_output_types_lookup (output_type);

  return type ? type->description : NULL;
}
