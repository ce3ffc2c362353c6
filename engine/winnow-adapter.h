/* winnow-adapter.h — format adapters: keep a document's structure, summarise its prose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "winnow-sentence-scorer.h"

G_BEGIN_DECLS

/**
 * WinnowSummarizer:
 * @text: the compressible prose of a message (not NUL-terminated)
 * @length: its length in bytes
 * @keep_ratio: the share of @text the summary may keep, from 0 to 1
 * @user_data: the options' @summarizer_data
 *
 * Returns: (transfer full) (nullable): the summary; %NULL counts as an empty one
 */
typedef char *(*WinnowSummarizer) (const char *text,
                                   gsize       length,
                                   double      keep_ratio,
                                   gpointer    user_data);

/**
 * WinnowAdapterOptions:
 * @keep_ratio: share of the compressible prose a summary may keep (default 0.35)
 * @lossy: allow lossy steps: summaries, elided rows and array items (default %TRUE); with
 *   %FALSE only lossless rewrites run (JSON minification) and every other adapter that detects
 *   its format reverts
 * @enabled: %NULL-terminated names of the adapters to consider, %NULL for all
 * @summarizer: turns prose into a summary; %NULL for winnow_sentence_summarize()
 * @summarizer_data: passed to @summarizer
 */
typedef struct
{
  double             keep_ratio;
  gboolean           lossy;
  const char *const *enabled;
  WinnowSummarizer   summarizer;
  gpointer           summarizer_data;
} WinnowAdapterOptions;

void               winnow_adapter_options_init (WinnowAdapterOptions       *options);
const char *const *winnow_adapters_list_names  (void);
const char        *winnow_adapters_detect      (const char                 *text,
                                                gssize                      length,
                                                const WinnowAdapterOptions *options);
char              *winnow_adapters_apply       (const char                 *text,
                                                gssize                      length,
                                                const WinnowAdapterOptions *options,
                                                gsize                      *out_length,
                                                char                      **decision);

G_END_DECLS
