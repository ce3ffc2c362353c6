/* prose-corpus.h — the verbose agent-prose corpus in tests/prose/ and how it is scored
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "winnow.h"

G_BEGIN_DECLS

typedef struct
{
  char  *id;
  char  *lang;
  char  *role;
  char  *style;     /* "verbose", "mixed" or "terse" */
  char  *text;
  GStrv  needles;   /* technical tokens that must survive byte for byte */
  GStrv  meaning;   /* short phrases whose sense must survive */
} ProseMessage;

GPtrArray *prose_corpus_load         (const char   *directory);
gboolean   prose_meaning_kept        (const char   *phrase,
                                      const char   *output);
gboolean   prose_meaning_kept_by     (WinnowRuleSet              *rules,
                                      const WinnowCavemanOptions *options,
                                      const char                 *phrase,
                                      const char                 *output,
                                      const char                 *expanded);
char      *prose_hard_wrap           (const char   *text,
                                      guint         width);

G_END_DECLS
