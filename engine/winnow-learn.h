/* winnow-learn.h — drafting a new RTK filter from samples of a command's output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-filter.h"

G_BEGIN_DECLS

/**
 * WinnowLearnOptions:
 * @id: (nullable): the draft's id; %NULL derives `learned-<command words>`
 * @label: (nullable): the draft's label; %NULL derives one from the command
 * @min_repeats: a noise shape must be seen this many times before it is dropped (≥ 2)
 * @collapse_min: a shape of repeated identical lines is collapsed from this many lines on
 * @max_sample_bytes: a larger sample is refused (0: no limit)
 * @max_test_bytes: a sample longer than this is cut at a line boundary before it becomes a
 *   `tests[]` input, so a 20 MB log does not make a 20 MB filter (0: never cut)
 *
 * Initialise with winnow_learn_options_init() and change what you need.
 */
typedef struct
{
  const char *id;
  const char *label;
  guint       min_repeats;
  guint       collapse_min;
  gsize       max_sample_bytes;
  gsize       max_test_bytes;
} WinnowLearnOptions;

void winnow_learn_options_init (WinnowLearnOptions *options);

#define WINNOW_TYPE_LEARN_SAMPLE (winnow_learn_sample_get_type ())

/**
 * WinnowLearnSample:
 * @name: what to call the sample in tests and messages (a file name, "stdin", …)
 * @data: the raw output, bytes as the command wrote them
 * @lines_before: lines of the sample (after terminal escapes are removed)
 * @lines_after: lines the draft keeps of it
 * @tokens_before: o200k tokens of the raw sample
 * @tokens_after: o200k tokens of what the draft makes of it
 * @test_cut: %TRUE when its `tests[]` input is only the first part of the sample
 *
 * One sample to learn from; after winnow_learn_filter() the figures say what the draft does
 * to it. The figures are zero in a sample that has not been learned from.
 */
typedef struct
{
  char   *name;
  GBytes *data;
  guint   lines_before;
  guint   lines_after;
  gsize   tokens_before;
  gsize   tokens_after;
  gboolean test_cut;
} WinnowLearnSample;

GType              winnow_learn_sample_get_type (void) G_GNUC_CONST;
WinnowLearnSample *winnow_learn_sample_new      (const char              *name,
                                                 GBytes                  *data);
WinnowLearnSample *winnow_learn_sample_copy     (const WinnowLearnSample *sample);
void               winnow_learn_sample_free     (WinnowLearnSample       *sample);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowLearnSample, winnow_learn_sample_free)

#define WINNOW_TYPE_LEARN_PROPOSAL (winnow_learn_proposal_get_type ())

/**
 * WinnowLearnProposal:
 * @field: the JSON path it went to, e.g. `rules.dropPatterns`, `preserve.summaryPatterns`
 * @value: the pattern (or value) proposed
 * @reason: why, in words
 * @lines: how many sample lines it was learned from
 * @example: (nullable): one of those lines
 */
typedef struct
{
  char  *field;
  char  *value;
  char  *reason;
  guint  lines;
  char  *example;
} WinnowLearnProposal;

GType                winnow_learn_proposal_get_type (void) G_GNUC_CONST;
WinnowLearnProposal *winnow_learn_proposal_copy     (const WinnowLearnProposal *proposal);
void                 winnow_learn_proposal_free     (WinnowLearnProposal       *proposal);

#define WINNOW_TYPE_LEARN_DRAFT (winnow_learn_draft_get_type ())

G_DECLARE_FINAL_TYPE (WinnowLearnDraft, winnow_learn_draft, WINNOW, LEARN_DRAFT, GObject)

WinnowLearnDraft          *winnow_learn_filter                (const char               *command,
                                                               GPtrArray                *samples,
                                                               const WinnowLearnOptions *options,
                                                               GPtrArray                *diagnostics,
                                                               GError                  **error);
void                       winnow_learn_filter_async          (const char               *command,
                                                               GPtrArray                *samples,
                                                               const WinnowLearnOptions *options,
                                                               GCancellable             *cancellable,
                                                               GAsyncReadyCallback       callback,
                                                               gpointer                  user_data);
WinnowLearnDraft          *winnow_learn_filter_finish         (GAsyncResult             *result,
                                                               GPtrArray                *diagnostics,
                                                               GError                  **error);

const char                *winnow_learn_draft_get_json        (WinnowLearnDraft         *self);
WinnowFilter              *winnow_learn_draft_get_filter      (WinnowLearnDraft         *self);
const char                *winnow_learn_draft_get_command     (WinnowLearnDraft         *self);
guint                      winnow_learn_draft_get_n_samples   (WinnowLearnDraft         *self);
const WinnowLearnSample   *winnow_learn_draft_get_sample      (WinnowLearnDraft         *self,
                                                               guint                     index);
guint                      winnow_learn_draft_get_n_proposals (WinnowLearnDraft         *self);
const WinnowLearnProposal *winnow_learn_draft_get_proposal    (WinnowLearnDraft         *self,
                                                               guint                     index);
JsonNode                  *winnow_learn_draft_to_json_node    (WinnowLearnDraft         *self);

G_END_DECLS
