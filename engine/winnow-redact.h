/* winnow-redact.h — secrets taken out of command output before it is written to disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_REDACTION (winnow_redaction_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRedaction, winnow_redaction, WINNOW, REDACTION, GObject)

const char * const *winnow_redact_rules_list         (guint           *n_rules);
const char         *winnow_redact_rule_describe      (const char      *rule);

WinnowRedaction    *winnow_redact                    (const char      *text,
                                                      gssize           length);

const char         *winnow_redaction_get_text        (WinnowRedaction *self,
                                                      gsize           *length);
gboolean            winnow_redaction_get_changed     (WinnowRedaction *self);
guint               winnow_redaction_get_total       (WinnowRedaction *self);
guint               winnow_redaction_get_count       (WinnowRedaction *self,
                                                      const char      *rule);
const guint        *winnow_redaction_get_counts      (WinnowRedaction *self,
                                                      guint           *n_rules);
char              **winnow_redaction_dup_fired_rules (WinnowRedaction *self);

G_END_DECLS
