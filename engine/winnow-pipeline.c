/* winnow-pipeline.c — the modes and the stacked pipeline over text or messages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One entry point for every way Winnow compresses: plain text (the CLI, the preview) and
 * conversations (agents and proxies). Modes are `off`, `rtk`, `caveman` and `stacked`; stacked
 * runs the configured steps in order — rtk(standard) → caveman(full) by default. Without an
 * explicit mode the settings' `defaultMode` applies, and an input of `autoTriggerTokens`
 * tokens or more switches to `autoTriggerMode`.
 *
 * Each text part goes through each step that applies to it:
 *
 *  - **rtk** compresses command output: tool results, and plain text that is command output
 *    (or given with a command). In prose it touches only fenced blocks of command output, and
 *    only when `applyToCodeBlocks` is set (for assistant messages, also
 *    `applyToAssistantMessages`).
 *  - **caveman** compresses prose: system, user and assistant text, never tool output — rules
 *    written for sentences have no business in a log or a file. A message whose text, once its
 *    protected regions are taken out, still reads as command output (a log pasted without a
 *    fence) is left alone too.
 *  - **structure** (a Winnow step, opt-in in `stackedPipeline`) runs the format adapters on
 *    any part: "lossless" only re-encodes (minified JSON), "lossy" also summarises the prose
 *    inside XML, YAML, Markdown, CSV and structured output with the sentence scorer. It is the
 *    only step that touches a JSON, YAML or TOML tool result.
 *
 * Tool results follow the tool-result contract (seed 002): shorter than 1024 characters or a
 * JSON/YAML/TOML document → left alone; the same output as the previous run of the same command
 * in the same directory → one line saying so; otherwise compressed and headed by a banner
 * naming the filters and `before → after` characters.
 *
 * The result is never larger than the input: a part whose compressed form (banner included)
 * has as many tokens as the original or more is put back as it was. Every decision is traced
 * per part, and every step reports its tokens before and after.
 */

#define G_LOG_DOMAIN "winnow-pipeline"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"
#include "winnow-caveman.h"
#include "winnow-command.h"
#include "winnow-error.h"
#include "winnow-language.h"
#include "winnow-pipeline.h"
#include "winnow-protect.h"
#include "winnow-tokens.h"
#include "winnow-tool-cache.h"
#include "winnow-tool-result.h"
#include "winnow-utf8.h"

typedef enum
{
  ENGINE_RTK,
  ENGINE_CAVEMAN,
  ENGINE_STRUCTURE,
} Engine;

typedef struct
{
  Engine  engine;
  int     intensity;   /* WinnowRtkIntensity or WinnowCavemanIntensity; structure: 1 = lossy */
  char   *name;
  char   *intensity_name;
} Step;

struct _WinnowPipeline
{
  GObject          parent_instance;
  WinnowContext   *context;
  WinnowToolCache *cache;        /* across runs: plain tool output with a command */
  GMutex           cache_lock;
};

G_DEFINE_FINAL_TYPE (WinnowPipeline, winnow_pipeline, G_TYPE_OBJECT)

typedef struct
{
  WinnowPipeline              *self;
  const WinnowPipelineRequest *request;
  WinnowPipelineResult        *result;
  WinnowConversation          *conversation;
  GArray                      *steps;          /* Step */
  WinnowToolCache             *cache;          /* this run's: per conversation, or self's */
  gboolean                     shared_cache;
  gboolean                     tool_rules;
  gint64                       now_us;
  WinnowCompression           *rtk;            /* plain text: the RTK step's compression */
  gboolean                     known_utf8;     /* plain text run_text() has validated */
  GError                      *error;
} Run;

static void
step_clear (gpointer data)
{
  Step *step = data;

  g_clear_pointer (&step->name, g_free);
  g_clear_pointer (&step->intensity_name, g_free);
}

const char *
winnow_pipeline_mode_to_string (WinnowPipelineMode mode)
{
  switch (mode)
    {
    case WINNOW_PIPELINE_MODE_OFF: return "off";
    case WINNOW_PIPELINE_MODE_RTK: return "rtk";
    case WINNOW_PIPELINE_MODE_CAVEMAN: return "caveman";
    case WINNOW_PIPELINE_MODE_STACKED: return "stacked";
    default: return "off";
    }
}

gboolean
winnow_pipeline_mode_from_string (const char         *str,
                                  WinnowPipelineMode *mode)
{
  static const char * const names[] = { "off", "rtk", "caveman", "stacked", NULL };

  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (str, names[i]) == 0)
      {
        *mode = (WinnowPipelineMode) i;
        return TRUE;
      }

  return FALSE;
}

/**
 * winnow_pipeline_request_init:
 * @request: a request to reset
 *
 * Everything from the settings: default mode (with auto-trigger), the steps' intensities,
 * role guessed, language detected, tool-result rules for messages only.
 */
void
winnow_pipeline_request_init (WinnowPipelineRequest *request)
{
  g_return_if_fail (request != NULL);

  memset (request, 0, sizeof *request);
  request->mode = -1;
  request->rtk_intensity = -1;
  request->caveman_intensity = -1;
  request->role = -1;
  request->tool_result_rules = -1;
}

static void
winnow_pipeline_finalize (GObject *object)
{
  WinnowPipeline *self = (WinnowPipeline *)object;

  g_clear_object (&self->context);
  g_clear_object (&self->cache);
  g_mutex_clear (&self->cache_lock);

  G_OBJECT_CLASS (winnow_pipeline_parent_class)->finalize (object);
}

static void
winnow_pipeline_class_init (WinnowPipelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_pipeline_finalize;
}

static void
winnow_pipeline_init (WinnowPipeline *self)
{
  g_mutex_init (&self->cache_lock);
  self->cache = winnow_tool_cache_new (0);
}

/**
 * winnow_pipeline_new:
 * @context: settings, catalog, detector and rule packs
 *
 * A pipeline keeps a same-output cache across runs, for tool output compressed one at a time
 * with its command and directory (`winnow run`, the HTTP API). Runs may happen on several
 * threads at once.
 *
 * Returns: (transfer full): a new #WinnowPipeline
 */
WinnowPipeline *
winnow_pipeline_new (WinnowContext *context)
{
  WinnowPipeline *self;

  g_return_val_if_fail (WINNOW_IS_CONTEXT (context), NULL);

  self = g_object_new (WINNOW_TYPE_PIPELINE, NULL);
  self->context = g_object_ref (context);

  return self;
}

/**
 * winnow_pipeline_get_context:
 * @self: a #WinnowPipeline
 *
 * Returns: (transfer none): the context it compresses with
 */
WinnowContext *
winnow_pipeline_get_context (WinnowPipeline *self)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE (self), NULL);
  return self->context;
}

/* ---- steps ------------------------------------------------------------------------------- */

static void
add_step (GArray     *steps,
          Engine      engine,
          int         intensity,
          const char *name,
          const char *intensity_name)
{
  Step step = { engine, intensity, g_strdup (name), g_strdup (intensity_name) };

  g_array_append_val (steps, step);
}

static void
add_configured_step (const WinnowPipelineRequest *request,
                     GArray                      *steps,
                     const WinnowPipelineStep    *configured)
{
  if (g_strcmp0 (configured->engine, "rtk") == 0)
    {
      WinnowRtkIntensity intensity = WINNOW_RTK_INTENSITY_STANDARD;

      if (request->rtk_intensity >= 0)
        intensity = request->rtk_intensity;
      else
        winnow_rtk_intensity_from_string (configured->intensity, &intensity);
      add_step (steps, ENGINE_RTK, intensity, "rtk", winnow_rtk_intensity_to_string (intensity));
    }
  else if (g_strcmp0 (configured->engine, "caveman") == 0)
    {
      WinnowCavemanIntensity intensity = WINNOW_CAVEMAN_INTENSITY_FULL;

      if (request->caveman_intensity >= 0)
        intensity = request->caveman_intensity;
      else
        winnow_caveman_intensity_from_string (configured->intensity, &intensity);
      add_step (steps, ENGINE_CAVEMAN, intensity, "caveman",
                winnow_caveman_intensity_to_string (intensity));
    }
  else if (g_strcmp0 (configured->engine, "structure") == 0)
    {
      gboolean lossy = g_strcmp0 (configured->intensity, "lossy") == 0;

      add_step (steps, ENGINE_STRUCTURE, lossy, "structure", lossy ? "lossy" : "lossless");
    }
}

static GArray *
resolve_steps (WinnowPipeline              *self,
               const WinnowPipelineRequest *request,
               WinnowPipelineMode           mode)
{
  WinnowConfig *config = winnow_context_get_config (self->context);
  GArray *steps = g_array_new (FALSE, TRUE, sizeof (Step));
  WinnowPipelineStep rtk = { (char *) "rtk", NULL };
  WinnowPipelineStep caveman = { (char *) "caveman", NULL };

  g_array_set_clear_func (steps, step_clear);
  rtk.intensity = (char *) winnow_rtk_intensity_to_string (winnow_config_get_rtk_intensity (config));
  caveman.intensity = (char *) winnow_config_get_caveman_intensity (config);

  switch (mode)
    {
    case WINNOW_PIPELINE_MODE_RTK:
      add_configured_step (request, steps, &rtk);
      break;

    case WINNOW_PIPELINE_MODE_CAVEMAN:
      add_configured_step (request, steps, &caveman);
      break;

    case WINNOW_PIPELINE_MODE_STACKED:
      if (request->steps != NULL)
        for (guint i = 0; i < request->n_steps; i++)
          add_configured_step (request, steps, &request->steps[i]);
      else
        for (guint i = 0; i < winnow_config_get_n_pipeline_steps (config); i++)
          add_configured_step (request, steps, winnow_config_get_pipeline_step (config, i));
      break;

    case WINNOW_PIPELINE_MODE_OFF:
    default:
      break;
    }

  return steps;
}

/* ---- one part ---------------------------------------------------------------------------- */

static void
decide (Run        *run,
        guint       part,
        const char *action,
        const char *detail)
{
  _winnow_pipeline_result_add_decision (run->result, part,
                                        winnow_conversation_get_part_message (run->conversation,
                                                                              part),
                                        winnow_conversation_get_part_path (run->conversation,
                                                                           part),
                                        action, detail);
}

static gboolean
is_tool_part (Run   *run,
              guint  part)
{
  return winnow_conversation_get_part_is_tool_result (run->conversation, part) ||
         winnow_conversation_get_part_role (run->conversation, part) == WINNOW_MESSAGE_ROLE_TOOL;
}

static const char *
part_command (Run   *run,
              guint  part)
{
  if (winnow_conversation_is_plain_text (run->conversation))
    return run->request->command;
  return winnow_conversation_get_part_command (run->conversation, part);
}

static const char *
part_cwd (Run   *run,
          guint  part)
{
  if (winnow_conversation_is_plain_text (run->conversation))
    return run->request->cwd;
  return winnow_conversation_get_part_cwd (run->conversation, part);
}

/* RTK over tool output. Returns the new text, or NULL when nothing changed. */
static char *
rtk_tool_output (Run        *run,
                 guint       part,
                 const Step *step,
                 const char *text,
                 GPtrArray  *filters)
{
  g_autoptr(WinnowCompression) compression = NULL;
  WinnowCompressOptions options;
  WinnowFilter *filter;
  gsize length;
  const char *out;

  winnow_compress_options_init (&options);
  options.intensity = step->intensity;
  if (winnow_conversation_is_plain_text (run->conversation))
    {
      options.filter_id = run->request->filter_id;
      options.engine_limits = !run->request->filter_only;
    }

  compression = winnow_context_compress (run->self->context, text, -1, part_command (run, part),
                                         &options, run->error ? NULL : &run->error);
  if (compression == NULL)
    return NULL;

  if (winnow_conversation_is_plain_text (run->conversation) && run->rtk == NULL)
    run->rtk = g_object_ref (compression);

  filter = winnow_compression_get_filter (compression);
  if (!winnow_compression_get_compressed (compression))
    {
      if (winnow_compression_get_selection (compression) == WINNOW_SELECTION_PASSTHROUGH)
        decide (run, part, "rtk:passthrough",
                winnow_detection_get_output_type (winnow_compression_get_detection (compression)));
      return NULL;
    }

  out = winnow_compression_get_text (compression, &length);
  {
    g_autofree char *action = g_strconcat ("rtk:", filter ? winnow_filter_get_id (filter)
                                                          : "engine-limits", NULL);

    decide (run, part, action,
            winnow_detection_get_output_type (winnow_compression_get_detection (compression)));
  }
  g_ptr_array_add (filters, g_strdup (filter ? winnow_filter_get_id (filter) : "rtk"));

  return g_strndup (out, length);
}

/* RTK over the fenced blocks of a prose message that hold command output. */
static char *
rtk_code_blocks (Run        *run,
                 guint       part,
                 const Step *step,
                 const char *text,
                 GPtrArray  *filters)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = text;
  const char *end = text + strlen (text);
  const char *opening, *body, *close, *after;
  gboolean changed = FALSE;

  while (_winnow_adapter_find_fence (p, end, &opening, &body, &close, &after))
    {
      g_string_append_len (out, p, body - p);
      if (close == NULL)
        {
          p = body;
          break;
        }
      {
        g_autofree char *block = g_strndup (body, close - body);
        g_autoptr(WinnowDetection) detection =
          winnow_detector_detect (winnow_context_get_detector (run->self->context), block,
                                  close - body, NULL);
        g_autofree char *compressed = NULL;

        if (!winnow_detection_get_passthrough (detection) &&
            winnow_detection_get_confidence (detection) >= 0.5)
          {
            WinnowCompressOptions options;
            g_autoptr(WinnowCompression) compression = NULL;

            winnow_compress_options_init (&options);
            options.intensity = step->intensity;
            compression = winnow_context_compress (run->self->context, block, close - body,
                                                   NULL, &options, NULL);
            if (compression != NULL && winnow_compression_get_compressed (compression))
              {
                WinnowFilter *filter = winnow_compression_get_filter (compression);
                g_autofree char *action = g_strconcat ("rtk-code-block:",
                                                       filter ? winnow_filter_get_id (filter)
                                                              : "engine-limits", NULL);
                gsize length;
                const char *text_out = winnow_compression_get_text (compression, &length);

                compressed = g_strndup (text_out, length);
                if (length > 0 && compressed[length - 1] != '\n')
                  {
                    g_free (compressed);
                    compressed = g_strconcat (text_out, "\n", NULL);
                  }
                decide (run, part, action, winnow_detection_get_output_type (detection));
                g_ptr_array_add (filters, g_strdup (filter ? winnow_filter_get_id (filter)
                                                           : "rtk"));
              }
          }

        g_string_append (out, compressed ? compressed : block);
        changed |= compressed != NULL;
      }

      /* the closing fence, and on after it: read again, a bare ``` would open a new block
       * running over the prose that follows */
      g_string_append_len (out, close, after - close);
      p = after;
    }
  g_string_append_len (out, p, end - p);

  return changed ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

/* Whether what is left of @text once its protected regions are taken out still reads as command
 * output — a log pasted into a message without a fence. Caveman leaves such text alone. Runs
 * of code or a tool's output that protection found stay in: they are what is being judged. */
static gboolean
looks_like_command_output (Run        *run,
                           const char *text)
{
  g_autoptr(GArray) spans = winnow_protect_scan (text, -1);
  g_autoptr(GString) rest = g_string_new (NULL);
  g_autoptr(WinnowDetection) detection = NULL;
  gsize at = 0;
  gsize length = strlen (text);

  for (guint i = 0; i <= spans->len; i++)
    {
      const WinnowProtectSpan *span = i < spans->len ? &g_array_index (spans, WinnowProtectSpan, i)
                                                     : NULL;
      gsize end = span != NULL ? span->start : length;

      if (span != NULL && span->kind == WINNOW_PROTECT_CODE)
        continue;
      g_string_append_len (rest, text + at, end - at);
      if (span != NULL)
        at = span->end;
    }

  /* a few lines of prose around protected material are prose */
  if (rest->len < 512)
    return FALSE;

  detection = winnow_detector_detect (winnow_context_get_detector (run->self->context),
                                      rest->str, rest->len, NULL);
  return !winnow_detection_get_passthrough (detection) &&
         winnow_detection_get_confidence (detection) >= 0.5;
}

static char *
caveman_prose (Run        *run,
               guint       part,
               const Step *step,
               const char *text,
               GPtrArray  *filters)
{
  g_autoptr(WinnowCavemanResult) result = NULL;
  WinnowCavemanOptions options;
  WinnowMessageRole role = winnow_conversation_get_part_role (run->conversation, part);
  const char * const *notes;
  g_autofree char *action = NULL;
  g_autofree char *detail = NULL;

  if (looks_like_command_output (run, text))
    {
      decide (run, part, "caveman:skipped", "the text reads as command output, not prose");
      return NULL;
    }

  winnow_caveman_options_init (&options);
  options.intensity = step->intensity;
  options.role = role;
  options.language = run->request->language;
  /* a language chosen in the settings (`cavemanConfig.language`) instead of detection */
  if (options.language == NULL)
    {
      const char *language =
        winnow_config_get_caveman_language (winnow_context_get_config (run->self->context));

      if (g_strcmp0 (language, "auto") != 0)
        options.language = language;
    }

  result = winnow_caveman_compress (winnow_context_get_rule_set (run->self->context), text, -1,
                                    &options);

  notes = winnow_caveman_result_get_notes (result);
  for (guint i = 0; notes[i] != NULL; i++)
    {
      g_autofree char *note = g_strdup_printf ("%s: %s",
                                               winnow_conversation_get_part_path (run->conversation,
                                                                                  part),
                                               notes[i]);
      _winnow_pipeline_result_add_note (run->result, note);
    }

  if (!winnow_caveman_result_get_changed (result))
    return NULL;

  action = g_strdup_printf ("caveman:%s/%s", winnow_caveman_result_get_language (result),
                            step->intensity_name);
  detail = g_strdup_printf ("%u rules, %u replacements, %u protected tokens",
                            winnow_caveman_result_get_n_firings (result),
                            winnow_caveman_result_get_n_replaced (result),
                            winnow_caveman_result_get_n_protected (result));
  decide (run, part, action, detail);
  g_ptr_array_add (filters, g_strdup ("caveman"));

  return g_strdup (winnow_caveman_result_get_text (result, NULL));
}

/* The format adapters: "lossless" re-encodes only (minified JSON), "lossy" also summarises
 * the prose inside structured text with the sentence scorer. */
static char *
structure (Run        *run,
           guint       part,
           const Step *step,
           const char *text,
           GPtrArray  *filters)
{
  WinnowAdapterOptions options;
  g_autofree char *decision = NULL;
  g_autofree char *out = NULL;
  gsize length = 0;

  winnow_adapter_options_init (&options);
  options.lossy = step->intensity == 1;

  out = winnow_adapters_apply (text, -1, &options, &length, &decision);
  if (decision != NULL)
    decide (run, part, decision, step->intensity_name);

  if (out == NULL || decision == NULL || !g_str_has_prefix (decision, "adapter:"))
    return NULL;

  g_ptr_array_add (filters, g_strdup (decision));
  return g_steal_pointer (&out);
}

static char *
run_step (Run        *run,
          guint       part,
          const Step *step,
          const char *text,
          gboolean    tool,
          gboolean    structured,
          GPtrArray  *filters)
{
  WinnowConfig *config = winnow_context_get_config (run->self->context);
  WinnowMessageRole role = winnow_conversation_get_part_role (run->conversation, part);

  /* a JSON, YAML or TOML payload is only ever re-encoded by the adapters, never filtered */
  if (structured && step->engine != ENGINE_STRUCTURE)
    return NULL;

  switch (step->engine)
    {
    case ENGINE_RTK:
      if (tool)
        return rtk_tool_output (run, part, step, text, filters);
      if (winnow_config_get_apply_to_code_blocks (config) &&
          (role != WINNOW_MESSAGE_ROLE_ASSISTANT ||
           winnow_config_get_apply_to_assistant_messages (config)))
        return rtk_code_blocks (run, part, step, text, filters);
      return NULL;

    case ENGINE_CAVEMAN:
      if (tool)
        {
          decide (run, part, "caveman:skipped", "command output (a tool result), not prose");
          return NULL;
        }
      return caveman_prose (run, part, step, text, filters);

    case ENGINE_STRUCTURE:
      return structure (run, part, step, text, filters);

    default:
      return NULL;
    }
}

static gsize
count_chars (const char *text)
{
  return g_utf8_strlen (text, -1);
}

/* Runs the steps over one part; returns its tokens after. */
static gsize
run_part (Run   *run,
          guint  part,
          gsize  tokens_before)
{
  /* the conversation's own text: it is only replaced once the steps are done with it */
  const char *original = winnow_conversation_get_part_text (run->conversation, part);
  gsize original_length = strlen (original);
  g_autofree char *current = NULL;
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func (g_free);
  gboolean tool = is_tool_part (run, part);
  const char *command = part_command (run, part);
  const char *cwd = part_cwd (run, part);
  gboolean rules = tool && run->tool_rules;
  gboolean structured = FALSE;
  gsize tokens = tokens_before;

  if (!run->known_utf8 && !_winnow_utf8_validate (original, original_length, NULL))
    {
      decide (run, part, "kept:not-utf8", NULL);
      return tokens_before;
    }

  if (rules && command != NULL)
    {
      if (run->shared_cache)
        g_mutex_lock (&run->self->cache_lock);
      winnow_tool_cache_observe (run->cache, cwd, command);
      if (run->shared_cache)
        g_mutex_unlock (&run->self->cache_lock);
    }

  if (rules && count_chars (original) < WINNOW_TOOL_RESULT_MIN_CHARS)
    {
      decide (run, part, "kept:short", NULL);
      return tokens_before;
    }

  if (rules && winnow_tool_result_is_banner (original))
    {
      decide (run, part, "kept:already-compressed", NULL);
      return tokens_before;
    }

  if (rules)
    {
      const char *format = winnow_tool_result_protected_format (original, -1);

      if (format != NULL)
        {
          g_autofree char *action = g_strconcat ("protected:", format, NULL);

          decide (run, part, action, NULL);
          structured = TRUE;
        }
    }

  if (rules && !structured && command != NULL && run->steps->len > 0)
    {
      gint64 recorded = 0;
      gboolean hit;

      if (run->shared_cache)
        g_mutex_lock (&run->self->cache_lock);
      hit = winnow_tool_cache_lookup (run->cache, cwd, command, original, original_length,
                                      run->now_us, &recorded);
      if (!hit)
        winnow_tool_cache_record (run->cache, cwd, command, original, original_length,
                                  run->now_us);
      if (run->shared_cache)
        g_mutex_unlock (&run->self->cache_lock);

      if (hit)
        {
          g_autofree char *reply =
            winnow_tool_cache_format_reply (command, run->shared_cache ? run->now_us - recorded
                                                                       : -1);
          gsize reply_tokens = winnow_tokens_count (reply, -1);

          if (reply_tokens < tokens_before)
            {
              winnow_conversation_set_part_text (run->conversation, part, reply);
              decide (run, part, "cache:same-output", command);
              return reply_tokens;
            }
        }
    }

  current = g_memdup2 (original, original_length + 1);

  for (guint s = 0; s < run->steps->len; s++)
    {
      const Step *step = &g_array_index (run->steps, Step, s);
      WinnowStepReport *report = _winnow_pipeline_result_step (run->result, s);
      gint64 started = g_get_monotonic_time ();
      g_autofree char *next = run_step (run, part, step, current, tool, structured, filters);

      report->tokens_before += tokens;
      if (next != NULL && strcmp (next, current) != 0)
        {
          g_free (current);
          current = g_steal_pointer (&next);
          tokens = winnow_tokens_count (current, -1);
          report->parts_changed++;
        }
      report->tokens_after += tokens;
      report->duration_us += g_get_monotonic_time () - started;

      if (run->error != NULL)
        return tokens_before;
    }

  if (filters->len == 0)
    return tokens_before;

  if (rules)
    {
      g_autofree char *banner = NULL;
      g_autofree char *with_banner = NULL;

      g_ptr_array_add (filters, NULL);
      banner = winnow_tool_result_format_banner ((const char * const *) filters->pdata,
                                                 count_chars (original), count_chars (current));
      with_banner = g_strconcat (banner, "\n", current, NULL);
      g_free (current);
      current = g_steal_pointer (&with_banner);
      tokens = winnow_tokens_count (current, -1);
    }

  if (tokens >= tokens_before)
    {
      decide (run, part, "reverted:not-shorter", NULL);
      return tokens_before;
    }

  winnow_conversation_set_part_text (run->conversation, part, current);
  return tokens;
}

/* ---- the run ----------------------------------------------------------------------------- */

static WinnowPipelineMode
resolve_mode (WinnowPipeline              *self,
              const WinnowPipelineRequest *request,
              gsize                        tokens,
              gboolean                    *auto_triggered)
{
  WinnowConfig *config = winnow_context_get_config (self->context);
  WinnowPipelineMode mode = WINNOW_PIPELINE_MODE_OFF;
  WinnowPipelineMode auto_mode;
  guint threshold;

  *auto_triggered = FALSE;

  if (request->mode >= 0)
    return request->mode;

  winnow_pipeline_mode_from_string (winnow_config_get_default_mode (config), &mode);
  threshold = winnow_config_get_auto_trigger_tokens (config);
  if (threshold > 0 && tokens >= threshold &&
      winnow_pipeline_mode_from_string (winnow_config_get_auto_trigger_mode (config), &auto_mode) &&
      auto_mode != mode)
    {
      mode = auto_mode;
      *auto_triggered = TRUE;
    }

  return mode;
}

static char *
describe_intensity (GArray *steps)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < steps->len; i++)
    {
      const Step *step = &g_array_index (steps, Step, i);

      if (out->len > 0)
        g_string_append_c (out, '+');
      g_string_append (out, step->intensity_name);
    }

  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

static WinnowPipelineResult *run_conversation (WinnowPipeline               *self,
                                               WinnowConversation           *conversation,
                                               const WinnowPipelineRequest  *request,
                                               gboolean                      known_utf8,
                                               GError                      **error);

/**
 * winnow_pipeline_run:
 * @self: a #WinnowPipeline
 * @conversation: the messages (or wrapped plain text); compressed in place
 * @request: (nullable): #WinnowPipelineRequest; %NULL for the settings
 * @error: return location for a #GError; only a forced filter that does not exist fails
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 */
WinnowPipelineResult *
winnow_pipeline_run (WinnowPipeline               *self,
                     WinnowConversation           *conversation,
                     const WinnowPipelineRequest  *request,
                     GError                      **error)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (WINNOW_IS_CONVERSATION (conversation), NULL);

  return run_conversation (self, conversation, request, FALSE, error);
}

/* winnow_pipeline_run(); @known_utf8 when @conversation is plain text the caller has found to
 * be UTF-8 without NULs, so that a 10 KB request is not validated once more per part. */
static WinnowPipelineResult *
run_conversation (WinnowPipeline               *self,
                  WinnowConversation           *conversation,
                  const WinnowPipelineRequest  *request,
                  gboolean                      known_utf8,
                  GError                      **error)
{
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(GArray) tokens = NULL;
  g_autoptr(WinnowToolCache) local_cache = NULL;
  g_autofree char *intensity = NULL;
  WinnowPipelineRequest defaults;
  WinnowPipelineMode mode;
  gint64 started = g_get_monotonic_time ();
  gboolean auto_triggered;
  gsize total_before = 0;
  gsize total_after = 0;
  guint n_parts;
  Run run = { 0 };

  g_return_val_if_fail (WINNOW_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (WINNOW_IS_CONVERSATION (conversation), NULL);

  if (request == NULL)
    {
      winnow_pipeline_request_init (&defaults);
      request = &defaults;
    }

  n_parts = winnow_conversation_get_n_parts (conversation);
  tokens = g_array_sized_new (FALSE, FALSE, sizeof (gsize), n_parts);
  for (guint i = 0; i < n_parts; i++)
    {
      gsize n = winnow_tokens_count (winnow_conversation_get_part_text (conversation, i), -1);

      g_array_append_val (tokens, n);
      total_before += n;
    }

  mode = resolve_mode (self, request, total_before, &auto_triggered);
  result = _winnow_pipeline_result_new (winnow_pipeline_mode_to_string (mode), auto_triggered);
  if (auto_triggered)
    {
      g_autofree char *note =
        g_strdup_printf ("%" G_GSIZE_FORMAT " tokens reach autoTriggerTokens (%u): mode %s",
                         total_before,
                         winnow_config_get_auto_trigger_tokens (winnow_context_get_config (self->context)),
                         winnow_pipeline_mode_to_string (mode));
      _winnow_pipeline_result_add_note (result, note);
    }

  run.self = self;
  run.request = request;
  run.result = result;
  run.conversation = conversation;
  run.steps = resolve_steps (self, request, mode);
  run.now_us = g_get_real_time ();
  run.known_utf8 = known_utf8 && winnow_conversation_is_plain_text (conversation);
  run.tool_rules = request->tool_result_rules >= 0
                   ? request->tool_result_rules != 0
                   : !winnow_conversation_is_plain_text (conversation);

  /* a conversation carries its own history: repeats are found within it; single tool outputs
   * are compared with what this pipeline saw before */
  run.shared_cache = winnow_conversation_is_plain_text (conversation);
  if (run.shared_cache)
    run.cache = self->cache;
  else
    run.cache = local_cache = winnow_tool_cache_new (0);

  for (guint s = 0; s < run.steps->len; s++)
    {
      const Step *step = &g_array_index (run.steps, Step, s);

      _winnow_pipeline_result_add_step (result, step->name, step->intensity_name);
    }

  for (guint i = 0; i < n_parts; i++)
    {
      total_after += run_part (&run, i, g_array_index (tokens, gsize, i));
      if (run.error != NULL)
        break;
    }

  if (run.error != NULL)
    {
      g_propagate_error (error, run.error);
      g_clear_object (&run.rtk);
      g_array_unref (run.steps);
      return NULL;
    }

  intensity = describe_intensity (run.steps);
  {
    char *out = winnow_conversation_to_json (conversation, TRUE);

    _winnow_pipeline_result_finish (result, out, strlen (out), total_before, total_after,
                                    intensity, run.rtk, g_get_monotonic_time () - started);
  }
  g_clear_object (&run.rtk);
  g_array_unref (run.steps);

  return g_steal_pointer (&result);
}

/* The text outside fenced code blocks (``` or ~~~, closed), or %NULL when there is no such
 * block. An unclosed fence runs to the end, as Markdown renders it. */
static GString *
text_outside_fences (const char *text,
                     gsize       len)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = text;
  const char *end = text + len;
  const char *opening, *body, *close, *after;
  gboolean fenced = FALSE;

  while (_winnow_adapter_find_fence (p, end, &opening, &body, &close, &after))
    {
      g_string_append_len (out, p, opening - p);
      fenced = TRUE;
      p = after;
    }
  g_string_append_len (out, p, end - p);

  return fenced ? g_steal_pointer (&out) : NULL;
}

/* Whether @text carries the marks of a written message: a fenced block, two inline code
 * spans, a Markdown heading or bold text. Tools rarely print them (those that quote names in
 * backticks, like cargo, are recognised by the detector with confidence anyway). */
static gboolean
has_markdown_marks (const char *text,
                    gsize       len,
                    gboolean    fenced)
{
  guint backticks = 0, bold = 0;
  gboolean line_start = TRUE;

  if (fenced)
    return TRUE;

  for (gsize i = 0; i < len; i++)
    {
      if (line_start && text[i] == '#')
        {
          gsize j = i;

          while (j < len && j - i < 6 && text[j] == '#')
            j++;
          if (j < len && text[j] == ' ')
            return TRUE;
        }
      line_start = text[i] == '\n';
      if (text[i] == '`')
        backticks++;
      else if (text[i] == '*' && i + 1 < len && text[i + 1] == '*')
        {
          bold++;
          i++;
        }
    }

  return backticks >= 4 || bold >= 2;
}

/* Plain text with no role given: command output (a tool result) if the detector recognises it,
 * prose otherwise. Fenced blocks are left out of the question: a message that explains a fix
 * around a fenced `git rebase` session is prose, however much the session looks like git
 * output; text that is nothing but a fenced block is judged by the block. And a weak guess (no
 * command, confidence under one half: "generic output with an error", or git because the
 * message talks about branches) gives way to a text that reads as a written message: Markdown
 * marks and sentences of a human language. In mode caveman (asked for, or the settings'
 * defaultMode) the text is prose: that is what the mode is for, and Caveman still leaves alone
 * text that reads as command output; in mode rtk it is whatever the detector says (a tool's
 * sentences, like cargo's "could not determine which binary to run. Use the `--bin` option…",
 * still get the tool's filter).
 */
static WinnowMessageRole
guess_role (WinnowPipeline              *self,
            const WinnowPipelineRequest *request,
            const char                  *text,
            gsize                        len)
{
  g_autoptr(GString) outside = NULL;
  g_autoptr(WinnowDetection) detection = NULL;
  WinnowPipelineMode mode = request->mode;
  gboolean fenced;

  /* the mode asked for, or the settings' defaultMode (an auto-triggered mode is only known
   * once the tokens are counted) */
  if (request->mode < 0 &&
      !winnow_pipeline_mode_from_string (
        winnow_config_get_default_mode (winnow_context_get_config (self->context)), &mode))
    mode = WINNOW_PIPELINE_MODE_STACKED;

  if (mode == WINNOW_PIPELINE_MODE_CAVEMAN)
    return WINNOW_MESSAGE_ROLE_USER;

  /* mode rtk asks for a command-output filter: the detector alone decides, on the whole text */
  if (mode != WINNOW_PIPELINE_MODE_RTK)
    outside = text_outside_fences (text, len);
  fenced = outside != NULL;
  if (outside != NULL && g_strstrip (outside->str)[0] != '\0')
    {
      outside->len = strlen (outside->str);
      text = outside->str;
      len = outside->len;
    }

  detection = winnow_detector_detect (winnow_context_get_detector (self->context), text, len,
                                      NULL);
  if (winnow_detection_get_passthrough (detection))
    return WINNOW_MESSAGE_ROLE_USER;
  if (mode != WINNOW_PIPELINE_MODE_RTK && winnow_detection_get_confidence (detection) < 0.5 &&
      has_markdown_marks (text, len, fenced) && winnow_language_reads_as_prose (text, len))
    return WINNOW_MESSAGE_ROLE_USER;
  return WINNOW_MESSAGE_ROLE_TOOL;
}

/**
 * winnow_pipeline_run_text:
 * @self: a #WinnowPipeline
 * @text: plain text: command output or prose
 * @length: its length, or -1 if nul-terminated
 * @request: (nullable): #WinnowPipelineRequest; its role says whether @text is command output
 *   (tool) or prose, and by default it is guessed: a command or a filter given means command
 *   output, mode caveman prose, mode rtk what the detector says; otherwise the detector
 *   decides on the text outside fenced code blocks, except that a weak guess gives way to
 *   Markdown marks and sentences of a human language (winnow_language_reads_as_prose())
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the result, whose text is the compressed text
 */
WinnowPipelineResult *
winnow_pipeline_run_text (WinnowPipeline               *self,
                          const char                   *text,
                          gssize                        length,
                          const WinnowPipelineRequest  *request,
                          GError                      **error)
{
  g_autoptr(WinnowConversation) conversation = NULL;
  WinnowPipelineRequest defaults;
  WinnowMessageRole role;
  gsize len;

  g_return_val_if_fail (WINNOW_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (text != NULL || length <= 0, NULL);

  if (request == NULL)
    {
      winnow_pipeline_request_init (&defaults);
      request = &defaults;
    }
  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;

  /* bytes that are not UTF-8 text (or hold a NUL) go back exactly as they came */
  if (!_winnow_utf8_validate (text, len, NULL) || memchr (text, '\0', len) != NULL)
    {
      WinnowPipelineResult *result = _winnow_pipeline_result_new ("off", FALSE);
      gsize tokens = winnow_tokens_count (text, len);
      char *copy = g_malloc (len + 1);

      _winnow_pipeline_result_add_decision (result, 0, 0, "[0].content", "kept:not-utf8", NULL);
      _winnow_pipeline_result_add_note (result, "not valid UTF-8 text; passed through unchanged");
      memcpy (copy, text, len);
      copy[len] = '\0';
      _winnow_pipeline_result_finish (result, copy, len, tokens, tokens, NULL, NULL, 0);
      return result;
    }

  if (request->role >= 0)
    role = request->role;
  else if (request->command != NULL || request->filter_id != NULL)
    role = WINNOW_MESSAGE_ROLE_TOOL;
  else
    role = guess_role (self, request, text, len);

  conversation = winnow_conversation_new_for_text (text, len, role);
  return run_conversation (self, conversation, request, TRUE, error);
}

/* ---- on a worker thread ------------------------------------------------------------------ */

typedef struct
{
  WinnowConversation    *conversation;
  char                  *text;
  gsize                  length;
  WinnowPipelineRequest  request;
  GArray                *steps;      /* WinnowPipelineStep, owning their strings */
  char                 **strings;    /* the 4 strings request points into, each nullable */
} AsyncRun;

static void
async_run_free (gpointer data)
{
  AsyncRun *run = data;

  g_clear_object (&run->conversation);
  g_free (run->text);
  for (guint i = 0; run->steps != NULL && i < run->steps->len; i++)
    {
      g_free (g_array_index (run->steps, WinnowPipelineStep, i).engine);
      g_free (g_array_index (run->steps, WinnowPipelineStep, i).intensity);
    }
  g_clear_pointer (&run->steps, g_array_unref);
  for (guint i = 0; run->strings != NULL && i < 4; i++)
    g_free (run->strings[i]);
  g_free (run->strings);
  g_free (run);
}

/* A copy of @request whose strings and steps live as long as @run. */
static void
copy_request (AsyncRun                    *run,
              const WinnowPipelineRequest *request)
{
  WinnowPipelineRequest defaults;

  if (request == NULL)
    {
      winnow_pipeline_request_init (&defaults);
      request = &defaults;
    }

  run->request = *request;
  run->strings = g_new0 (char *, 5);
  run->strings[0] = g_strdup (request->language);
  run->strings[1] = g_strdup (request->command);
  run->strings[2] = g_strdup (request->cwd);
  run->strings[3] = g_strdup (request->filter_id);
  run->request.language = run->strings[0];
  run->request.command = run->strings[1];
  run->request.cwd = run->strings[2];
  run->request.filter_id = run->strings[3];

  if (request->steps != NULL)
    {
      run->steps = g_array_sized_new (FALSE, FALSE, sizeof (WinnowPipelineStep), request->n_steps);
      for (guint i = 0; i < request->n_steps; i++)
        {
          WinnowPipelineStep step = { g_strdup (request->steps[i].engine),
                                      g_strdup (request->steps[i].intensity) };
          g_array_append_val (run->steps, step);
        }
      run->request.steps = (const WinnowPipelineStep *) (gpointer) run->steps->data;
    }
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  WinnowPipeline *self = source_object;
  AsyncRun *run = task_data;
  WinnowPipelineResult *result;
  GError *error = NULL;

  if (run->conversation != NULL)
    result = winnow_pipeline_run (self, run->conversation, &run->request, &error);
  else
    result = winnow_pipeline_run_text (self, run->text, run->length, &run->request, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
start (WinnowPipeline      *self,
       AsyncRun            *run,
       GCancellable        *cancellable,
       GAsyncReadyCallback  callback,
       gpointer             user_data,
       gpointer             source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, run, async_run_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, run_thread);
}

/**
 * winnow_pipeline_run_text_async:
 * @self: a #WinnowPipeline
 * @text: plain text (copied)
 * @length: its length, or -1 if nul-terminated
 * @request: (nullable): #WinnowPipelineRequest (copied)
 * @cancellable: (nullable): a #GCancellable; a cancelled run reports %G_IO_ERROR_CANCELLED
 *   and its result is dropped
 * @callback: called on the caller's main context when done
 * @user_data: for @callback
 *
 * winnow_pipeline_run_text() on a worker thread, for the dashboard.
 */
void
winnow_pipeline_run_text_async (WinnowPipeline              *self,
                                const char                  *text,
                                gssize                       length,
                                const WinnowPipelineRequest *request,
                                GCancellable                *cancellable,
                                GAsyncReadyCallback          callback,
                                gpointer                     user_data)
{
  AsyncRun *run;

  g_return_if_fail (WINNOW_IS_PIPELINE (self));
  g_return_if_fail (text != NULL || length <= 0);

  run = g_new0 (AsyncRun, 1);
  run->length = length < 0 ? strlen (text ? text : "") : (gsize) length;
  run->text = g_malloc (run->length + 1);
  if (run->length > 0)
    memcpy (run->text, text, run->length);
  run->text[run->length] = '\0';
  copy_request (run, request);

  start (self, run, cancellable, callback, user_data, winnow_pipeline_run_text_async);
}

/**
 * winnow_pipeline_run_async:
 * @self: a #WinnowPipeline
 * @conversation: the messages; compressed in place on the worker thread, so leave them alone
 *   until @callback runs
 * @request: (nullable): #WinnowPipelineRequest (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's main context when done
 * @user_data: for @callback
 *
 * winnow_pipeline_run() on a worker thread.
 */
void
winnow_pipeline_run_async (WinnowPipeline              *self,
                           WinnowConversation          *conversation,
                           const WinnowPipelineRequest *request,
                           GCancellable                *cancellable,
                           GAsyncReadyCallback          callback,
                           gpointer                     user_data)
{
  AsyncRun *run;

  g_return_if_fail (WINNOW_IS_PIPELINE (self));
  g_return_if_fail (WINNOW_IS_CONVERSATION (conversation));

  run = g_new0 (AsyncRun, 1);
  run->conversation = g_object_ref (conversation);
  copy_request (run, request);

  start (self, run, cancellable, callback, user_data, winnow_pipeline_run_async);
}

/**
 * winnow_pipeline_run_finish:
 * @self: a #WinnowPipeline
 * @result: the #GAsyncResult of either async run
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 */
WinnowPipelineResult *
winnow_pipeline_run_finish (WinnowPipeline  *self,
                            GAsyncResult    *result,
                            GError         **error)
{
  g_return_val_if_fail (WINNOW_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
