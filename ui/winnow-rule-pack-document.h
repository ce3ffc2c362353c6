/* winnow-rule-pack-document.h — the JSON text of a rule pack being edited
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RULE_PACK_DOCUMENT (winnow_rule_pack_document_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRulePackDocument, winnow_rule_pack_document, WINNOW,
                      RULE_PACK_DOCUMENT, GObject)

WinnowRulePackDocument *winnow_rule_pack_document_new            (const char              *text,
                                                                  const char              *source,
                                                                  const char              *file);
const char             *winnow_rule_pack_document_get_text       (WinnowRulePackDocument  *self);
void                    winnow_rule_pack_document_set_text       (WinnowRulePackDocument  *self,
                                                                  const char              *text);
const char             *winnow_rule_pack_document_get_source     (WinnowRulePackDocument  *self);
const char             *winnow_rule_pack_document_get_file       (WinnowRulePackDocument  *self);
gboolean                winnow_rule_pack_document_get_read_only  (WinnowRulePackDocument  *self);
gboolean                winnow_rule_pack_document_get_modified   (WinnowRulePackDocument  *self);
gboolean                winnow_rule_pack_document_get_is_json    (WinnowRulePackDocument  *self);
guint                   winnow_rule_pack_document_get_n_rules    (WinnowRulePackDocument  *self);
JsonObject             *winnow_rule_pack_document_get_rule       (WinnowRulePackDocument  *self,
                                                                  guint                    index);
gboolean                winnow_rule_pack_document_set_rule_member (WinnowRulePackDocument *self,
                                                                  guint                    index,
                                                                  const char              *member,
                                                                  JsonNode                *value);
gboolean                winnow_rule_pack_document_validate       (WinnowRulePackDocument  *self,
                                                                  GError                 **error);
gboolean                winnow_rule_pack_document_save_as        (WinnowRulePackDocument  *self,
                                                                  const char              *path,
                                                                  GError                 **error);
const char             *winnow_rule_pack_document_rule_string    (JsonObject              *rule,
                                                                  const char              *member);
char                   *winnow_rule_pack_document_dup_rule_error (GPtrArray               *diagnostics,
                                                                  guint                    index);

G_END_DECLS
