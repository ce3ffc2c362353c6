/* winnow-caveman.h — compressing prose with rule packs, technical tokens held out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-rule-set.h"
#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowCavemanOptions:
 * @intensity: how hard to compress
 * @role: the role of the message (rules have contexts)
 * @language: (nullable): the language of the message; %NULL detects it
 * @pack: (nullable): run only this pack instead of the language's packs
 * @rule: (nullable): run only the rule of this name
 */
typedef struct
{
  WinnowCavemanIntensity  intensity;
  WinnowMessageRole       role;
  const char             *language;
  WinnowRulePack         *pack;
  const char             *rule;
} WinnowCavemanOptions;

void winnow_caveman_options_init (WinnowCavemanOptions *options);

/**
 * WinnowCavemanFiring:
 * @pack: the pack's name (its file name without .json)
 * @rule: the rule's name
 * @count: how many matches it replaced
 */
typedef struct
{
  const char *pack;
  const char *rule;
  guint       count;
} WinnowCavemanFiring;

#define WINNOW_TYPE_CAVEMAN_RESULT (winnow_caveman_result_get_type ())

G_DECLARE_FINAL_TYPE (WinnowCavemanResult, winnow_caveman_result, WINNOW, CAVEMAN_RESULT, GObject)

const char               *winnow_caveman_result_get_text         (WinnowCavemanResult *self,
                                                                  gsize               *length);
gboolean                  winnow_caveman_result_get_changed      (WinnowCavemanResult *self);
const char               *winnow_caveman_result_get_language     (WinnowCavemanResult *self);
WinnowCavemanIntensity    winnow_caveman_result_get_intensity    (WinnowCavemanResult *self);
WinnowMessageRole         winnow_caveman_result_get_role         (WinnowCavemanResult *self);
guint                     winnow_caveman_result_get_n_protected  (WinnowCavemanResult *self);
guint                     winnow_caveman_result_get_n_firings    (WinnowCavemanResult *self);
const WinnowCavemanFiring *winnow_caveman_result_get_firing      (WinnowCavemanResult *self,
                                                                  guint                index);
guint                     winnow_caveman_result_get_n_replaced   (WinnowCavemanResult *self);
const char * const       *winnow_caveman_result_get_notes        (WinnowCavemanResult *self);
gint64                    winnow_caveman_result_get_duration_us  (WinnowCavemanResult *self);

WinnowCavemanResult *winnow_caveman_compress (WinnowRuleSet              *rules,
                                              const char                 *text,
                                              gssize                      length,
                                              const WinnowCavemanOptions *options);
char                *winnow_caveman_expand   (WinnowRuleSet              *rules,
                                              const char                 *text,
                                              gssize                      length,
                                              const char                 *language,
                                              gsize                      *out_length);

G_END_DECLS
