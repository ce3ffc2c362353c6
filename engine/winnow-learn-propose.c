/* winnow-learn-propose.c — from samples to proposed line patterns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The learner (see the top of winnow-learn.c): samples are checked, cleaned as the draft
 * will see them and split into lines; each line gets its role, the other lines are grouped
 * by shape, and each group that is repeated noise or a few distinct lines becomes a drop or
 * collapse pattern, made safe for every summary line first.
 */

#define G_LOG_DOMAIN "winnow-learn"

#include "config.h"

#include <string.h>

#include "winnow-diagnostic.h"
#include "winnow-error.h"
#include "winnow-learn-private.h"
#include "winnow-regex.h"
#include "winnow-rtk.h"
#include "winnow-utf8.h"

#define DIAGNOSTIC_SOURCE "learn"
#define MAX_SHAPE_REGEX   400  /* a longer shape is too specific to be worth proposing */

/* ---- the learner ------------------------------------------------------------------------- */

void
_winnow_learn_summary_pattern_free (SummaryPattern *sp)
{
  g_free (sp->example);
  g_free (sp);
}

void
_winnow_learn_sample_data_clear (SampleData *data)
{
  g_clear_pointer (&data->clean, g_free);
  g_clear_pointer (&data->lines, g_array_unref);
}

void
_winnow_learn_learner_diagnostic (Learner               *learner,
                                  WinnowDiagnosticLevel  level,
                                  const char            *file,
                                  const char            *json_path,
                                  const char            *message)
{
  if (learner->diagnostics == NULL)
    return;
  g_ptr_array_add (learner->diagnostics,
                   winnow_diagnostic_new (level, DIAGNOSTIC_SOURCE, file, learner->filter_id,
                                          json_path, 0, 0, message));
}

/* The sample as the draft will see it: escapes and redrawn progress frames removed by the
 * engine's own stripAnsi stage, so that what is learned is what will be matched. */
char *
_winnow_learn_clean_sample (WinnowFilter *cleaner,
                            const char   *data,
                            gsize         len,
                            gsize        *out_len)
{
  g_autoptr(WinnowRtkResult) result = NULL;
  WinnowRtkOptions options;
  const char *text;

  winnow_rtk_options_init (&options);
  options.engine_limits = FALSE;
  result = winnow_rtk_apply (cleaner, data, len, &options);
  text = winnow_rtk_result_get_text (result, out_len);
  return g_strndup (text, *out_len);
}

WinnowFilter *
_winnow_learn_parse_filter (JsonNode   *node,
                            GPtrArray  *diagnostics,
                            GError    **error)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);
  WinnowFilter *filter;

  filter = winnow_filter_new_from_json (node, WINNOW_FILTER_SOURCE_FILE, NULL, NULL,
                                        WINNOW_FILTER_PARSE_DEFAULT, found);
  if (filter == NULL || winnow_diagnostics_count_level (found, WINNOW_DIAGNOSTIC_ERROR) > 0)
    {
      g_autoptr(GString) why = g_string_new (NULL);

      for (guint i = 0; i < found->len; i++)
        {
          g_autofree char *line = winnow_diagnostic_to_string (g_ptr_array_index (found, i));
          g_string_append_printf (why, "%s%s", i > 0 ? "; " : "", line);
        }
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_INVALID_FILTER,
                   "the draft filter does not load: %s", why->str);
      g_clear_object (&filter);
      return NULL;
    }

  if (diagnostics != NULL)
    for (guint i = 0; i < found->len; i++)
      g_ptr_array_add (diagnostics, g_object_ref (g_ptr_array_index (found, i)));
  return filter;
}

gboolean
_winnow_learn_check_sample (Learner            *learner,
                            WinnowLearnSample  *sample,
                            GError            **error)
{
  gsize len;
  const char *data = g_bytes_get_data (sample->data, &len);
  const char *bad = NULL;

  if (learner->options->max_sample_bytes > 0 && len > learner->options->max_sample_bytes)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   "%s: %" G_GSIZE_FORMAT " bytes, more than the %" G_GSIZE_FORMAT
                   " bytes a sample may have", sample->name, len,
                   learner->options->max_sample_bytes);
      return FALSE;
    }
  if (len > 0 && memchr (data, '\0', len) != NULL)
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_UTF8,
                   "%s: binary data (a NUL byte at offset %" G_GSIZE_FORMAT "), not command "
                   "output", sample->name, (gsize) ((const char *) memchr (data, '\0', len) - data));
      return FALSE;
    }
  if (!_winnow_utf8_validate (data, len, &bad))
    {
      g_set_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_UTF8,
                   "%s: not valid UTF-8 (at byte %" G_GSIZE_FORMAT "); filters only handle "
                   "text, and a filter's tests[] cannot hold these bytes", sample->name,
                   (gsize) (bad - data));
      return FALSE;
    }
  return TRUE;
}

void
_winnow_learn_split_sample (SampleData *data)
{
  const char *p = data->clean;
  const char *end = data->clean + data->clean_len;

  data->lines = g_array_new (FALSE, TRUE, sizeof (LineInfo));
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *stop = nl ? nl : end;
      LineInfo info = { 0 };

      if (stop > p && stop[-1] == '\r')
        stop--;
      info.text = p;
      info.len = stop - p;
      g_array_append_val (data->lines, info);
      if (nl == NULL)
        break;
      p = nl + 1;
    }
}

gboolean
_winnow_learn_is_blank_line (const char *text,
                             gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

static guint
add_summary (Learner    *learner,
             const char *pattern,
             const char *reason,
             gboolean    builtin)
{
  SummaryPattern *sp;

  for (guint i = 0; i < learner->summaries->len; i++)
    {
      sp = g_ptr_array_index (learner->summaries, i);
      if (strcmp (sp->pattern, pattern) == 0)
        return i;
    }

  sp = g_new0 (SummaryPattern, 1);
  sp->pattern = pattern;
  sp->reason = reason;
  sp->builtin = builtin;
  g_ptr_array_add (learner->summaries, sp);
  return learner->summaries->len - 1;
}

static void
note_summary_line (Learner  *learner,
                   LineInfo *info,
                   guint     summary)
{
  SummaryPattern *sp = g_ptr_array_index (learner->summaries, summary);
  char *text = g_strndup (info->text, info->len);

  info->role = ROLE_SUMMARY;
  info->summary = summary;
  sp->lines++;
  if (sp->example == NULL)
    sp->example = g_strdup (text);
  if (!g_hash_table_contains (learner->summary_lines, text))
    g_hash_table_insert (learner->summary_lines, text, GUINT_TO_POINTER (summary + 1));
  else
    g_free (text);
}

/* Gives each line its role; the built-in summary patterns are added to the proposal in
 * table order first, so that the one with a capture group comes first. */
void
_winnow_learn_classify (Learner *learner)
{
  Shaper shaper = {
    g_string_new (NULL), g_array_new (FALSE, FALSE, sizeof (guint)),
    g_array_new (FALSE, FALSE, sizeof (guint8)), g_string_new (NULL)
  };

  for (guint s = 0; s < learner->samples->len; s++)
    {
      SampleData *data = &g_array_index (learner->samples, SampleData, s);

      for (guint i = 0; i < data->lines->len; i++)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);
          int k;

          if (_winnow_learn_is_blank_line (info->text, info->len))
            {
              info->role = ROLE_BLANK;
              continue;
            }
          if ((k = _winnow_learn_known_set_match (&learner->errors, info->text, info->len)) >= 0)
            {
              info->role = ROLE_ERROR;
              info->index = k;
              _winnow_learn_known_set_count (&learner->errors, k, info->text, info->len);
              learner->n_error_lines++;
              continue;
            }
          if ((k = _winnow_learn_known_set_match (&learner->summary_set, info->text,
                                                  info->len)) >= 0)
            {
              info->role = ROLE_SUMMARY;
              info->index = k;
              _winnow_learn_known_set_count (&learner->summary_set, k, info->text, info->len);
              continue;
            }
          if ((k = _winnow_learn_known_set_match (&learner->kinds, info->text, info->len)) >= 0)
            {
              info->role = ROLE_NOISE;
              info->index = k;
              continue;
            }
        }
    }

  for (guint k = 0; k < learner->summary_set.n; k++)
    if (learner->summary_set.hits[k] > 0)
      add_summary (learner, _winnow_learn_summary_shapes[k].pattern,
                   _winnow_learn_summary_shapes[k].reason, TRUE);

  for (guint s = 0; s < learner->samples->len; s++)
    {
      SampleData *data = &g_array_index (learner->samples, SampleData, s);

      for (guint i = 0; i < data->lines->len; i++)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);

          if (info->role == ROLE_SUMMARY)
            note_summary_line (learner, info,
                               add_summary (learner,
                                            _winnow_learn_summary_shapes[info->index].pattern,
                                            NULL, TRUE));
        }

      /* the last line is where a tool prints its verdict */
      for (guint i = data->lines->len; i-- > 0;)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);
          char *regex;

          if (info->role == ROLE_BLANK)
            continue;
          if (info->role == ROLE_ERROR || info->role == ROLE_SUMMARY)
            break;

          _winnow_learn_shape_line (&shaper, info->text, info->len);
          regex = _winnow_learn_shaper_dup_regex (&shaper);
          if (strlen (regex) > MAX_SHAPE_REGEX)
            {
              g_free (regex);
              break;
            }
          g_ptr_array_add (learner->learned, regex);
          note_summary_line (learner, info,
                             add_summary (learner, regex, "the last line of a sample, where "
                                          "tools print their verdict", FALSE));
          break;
        }
    }

  g_string_free (shaper.text, TRUE);
  g_array_unref (shaper.offsets);
  g_array_unref (shaper.kinds);
  g_string_free (shaper.key, TRUE);
}

void
_winnow_learn_build_groups (Learner *learner)
{
  Shaper shaper = {
    g_string_new (NULL), g_array_new (FALSE, FALSE, sizeof (guint)),
    g_array_new (FALSE, FALSE, sizeof (guint8)), g_string_new (NULL)
  };
  guint n_samples = learner->samples->len;

  for (guint s = 0; s < n_samples; s++)
    {
      SampleData *data = &g_array_index (learner->samples, SampleData, s);

      for (guint i = 0; i < data->lines->len; i++)
        {
          LineInfo *info = &g_array_index (data->lines, LineInfo, i);
          Group *g;

          if (info->role == ROLE_BLANK)
            {
              if (learner->n_blank++ == 0)
                learner->blank_example = g_strndup (info->text, info->len);
              continue;
            }
          if (info->role != ROLE_OTHER && info->role != ROLE_NOISE)
            continue;

          _winnow_learn_shape_line (&shaper, info->text, info->len);
          if (shaper.offsets->len == 0)
            continue;

          g = g_hash_table_lookup (learner->groups, shaper.key->str);
          if (g == NULL)
            {
              g = g_new0 (Group, 1);
              g->n_frags = shaper.offsets->len;
              g->frags = g_new0 (char *, g->n_frags);
              g->kinds = g_new0 (guint8, g->n_frags);
              g->varies = g_new0 (gboolean, g->n_frags);
              for (guint f = 0; f < g->n_frags; f++)
                {
                  g->frags[f] = g_strdup (frag_at (&shaper, f));
                  g->kinds[f] = g_array_index (shaper.kinds, guint8, f);
                }
              g->per_sample = g_new0 (guint, n_samples);
              g->distinct = g_hash_table_new (NULL, NULL);
              g->example = g_strndup (info->text, info->len);
              g->order = g_hash_table_size (learner->groups);
              g_hash_table_insert (learner->groups, g_strdup (shaper.key->str), g);
            }
          else
            {
              for (guint f = 0; f < g->n_frags; f++)
                if (g->kinds[f] == FRAG_WORD && !g->varies[f] &&
                    strcmp (g->frags[f], frag_at (&shaper, f)) != 0)
                  g->varies[f] = TRUE;
            }

          g->count++;
          if (g->per_sample[s]++ == 0)
            g->n_samples_with++;
          if (info->role == ROLE_NOISE)
            {
              g->n_noise++;
              g->noise_kinds[info->index]++;
            }
          g_hash_table_add (g->distinct,
                            GUINT_TO_POINTER (_winnow_learn_trimmed_hash (info->text,
                                                                          info->len) | 1));
        }
    }

  g_string_free (shaper.text, TRUE);
  g_array_unref (shaper.offsets);
  g_array_unref (shaper.kinds);
  g_string_free (shaper.key, TRUE);
}

typedef struct
{
  const char *line;
  guint       summary;
} SummaryHit;

/* The summary patterns whose lines @regex matches, as a sorted array of indices. */
static GArray *
summary_hits (Learner     *learner,
              WinnowRegex *regex)
{
  GArray *hits = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, learner->summary_lines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (winnow_regex_test (regex, key, strlen (key)) != WINNOW_REGEX_NO_MATCH)
      {
        guint index = GPOINTER_TO_UINT (value) - 1;
        gboolean seen = FALSE;

        for (guint i = 0; i < hits->len; i++)
          seen |= g_array_index (hits, guint, i) == index;
        if (!seen)
          g_array_append_val (hits, index);
      }

  for (guint i = 1; i < hits->len; i++)
    for (guint j = i; j > 0 && g_array_index (hits, guint, j - 1) > g_array_index (hits, guint, j); j--)
      {
        guint t = g_array_index (hits, guint, j);
        g_array_index (hits, guint, j) = g_array_index (hits, guint, j - 1);
        g_array_index (hits, guint, j - 1) = t;
      }
  return hits;
}

/* @regex, made safe for every summary line: NULL if it cannot be. A pattern that would
 * remove a summary line gets a negative lookahead for the summary patterns it hit. */
static char *
make_safe (Learner    *learner,
           const char *regex,
           const char *field,
           const char *example)
{
  g_autoptr(WinnowRegex) compiled = NULL;
  g_autoptr(WinnowRegex) guarded = NULL;
  g_autoptr(GArray) hits = NULL;
  g_autoptr(GArray) left = NULL;
  g_autoptr(GString) out = NULL;

  compiled = winnow_regex_new (regex, "i", WINNOW_REGEX_OPTIMIZE, NULL);
  if (compiled == NULL)
    return NULL;
  hits = summary_hits (learner, compiled);
  if (hits->len == 0)
    return g_strdup (regex);

  out = g_string_new ("^");
  for (guint i = 0; i < hits->len; i++)
    {
      SummaryPattern *sp = g_ptr_array_index (learner->summaries, g_array_index (hits, guint, i));
      g_string_append_printf (out, "(?!.*?(?:%s))", sp->pattern);
    }
  g_assert (regex[0] == '^');
  g_string_append (out, regex + 1);

  guarded = winnow_regex_new (out->str, "i", WINNOW_REGEX_OPTIMIZE, NULL);
  if (guarded != NULL)
    left = summary_hits (learner, guarded);
  if (guarded == NULL || left->len > 0)
    {
      g_autofree char *message =
        g_strdup_printf ("not proposed: %s would also remove summary lines (e.g. “%s”)",
                         regex, example ? example : "");
      _winnow_learn_learner_diagnostic (learner, WINNOW_DIAGNOSTIC_INFO, NULL, field, message);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gint
compare_group_order (gconstpointer a,
                     gconstpointer b)
{
  const Group *ga = *(Group * const *) a;
  const Group *gb = *(Group * const *) b;

  return (ga->order > gb->order) - (ga->order < gb->order);
}

static Kind
main_kind (Group *g)
{
  Kind best = 0;

  for (guint k = 1; k < N_KINDS; k++)
    if (g->noise_kinds[k] > g->noise_kinds[best])
      best = k;
  return best;
}

void
_winnow_learn_propose_line_patterns (Learner   *learner,
                                     Proposed  *proposed,
                                     GPtrArray *proposals)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  guint min_repeats = MAX (2, learner->options->min_repeats);
  guint collapse_min = MAX (2, learner->options->collapse_min);

  if (learner->n_blank > 0)
    {
      g_ptr_array_add (proposed->drop, g_strdup ("^\\s*$"));
      _winnow_learn_add_proposal (proposals, "rules.dropPatterns", "^\\s*$", "blank lines",
                                  learner->n_blank, learner->blank_example);
    }

  g_hash_table_iter_init (&iter, learner->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (groups, value);
  g_ptr_array_sort (groups, compare_group_order);

  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = g_ptr_array_index (groups, i);
      g_autofree char *regex = NULL;
      g_autofree char *safe = NULL;
      guint max_per_sample = 0;
      gboolean noise;
      gboolean repeats;
      guint distinct;

      for (guint s = 0; s < learner->samples->len; s++)
        max_per_sample = MAX (max_per_sample, g->per_sample[s]);

      noise = g->n_noise * 10 >= g->count * 9;
      repeats = g->count >= min_repeats && (max_per_sample >= 2 || g->n_samples_with >= 3);
      distinct = g_hash_table_size (g->distinct);

      regex = _winnow_learn_group_dup_regex (g);
      if (strlen (regex) > MAX_SHAPE_REGEX)
        continue;

      if (noise && repeats)
        {
          g_autofree char *reason = NULL;

          safe = make_safe (learner, regex, "rules.dropPatterns", g->example);
          if (safe == NULL)
            continue;
          reason = g_strdup_printf ("%s, a shape that repeats (in %u sample%s)",
                                    _winnow_learn_noise_kinds[main_kind (g)].reason,
                                    g->n_samples_with, g->n_samples_with == 1 ? "" : "s");
          _winnow_learn_add_proposal (proposals, "rules.dropPatterns", safe, reason, g->count,
                                      g->example);
          g_ptr_array_add (proposed->drop, g_steal_pointer (&safe));
        }
      else if (g->count >= collapse_min && distinct * 2 <= g->count)
        {
          g_autofree char *reason = NULL;

          safe = make_safe (learner, regex, "rules.collapsePatterns", g->example);
          if (safe == NULL)
            continue;
          reason = g_strdup_printf ("only %u different lines of this shape: the first of "
                                    "each is kept", distinct);
          _winnow_learn_add_proposal (proposals, "rules.collapsePatterns", safe, reason, g->count,
                                      g->example);
          g_ptr_array_add (proposed->collapse, g_steal_pointer (&safe));
        }
    }
}
