/* winnow-conversation.h — a list of chat messages, as OpenAI or Anthropic shape them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "winnow-types.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_CONVERSATION (winnow_conversation_get_type ())

G_DECLARE_FINAL_TYPE (WinnowConversation, winnow_conversation, WINNOW, CONVERSATION, GObject)

WinnowConversation *winnow_conversation_new_from_json    (const char          *text,
                                                          gssize               length,
                                                          const char          *file,
                                                          GError             **error);
WinnowConversation *winnow_conversation_new_for_text     (const char          *text,
                                                          gssize               length,
                                                          WinnowMessageRole    role);
guint               winnow_conversation_get_n_messages   (WinnowConversation  *self);
guint               winnow_conversation_get_n_parts      (WinnowConversation  *self);
const char         *winnow_conversation_get_part_text    (WinnowConversation  *self,
                                                          guint                index);
void                winnow_conversation_set_part_text    (WinnowConversation  *self,
                                                          guint                index,
                                                          const char          *text);
WinnowMessageRole   winnow_conversation_get_part_role    (WinnowConversation  *self,
                                                          guint                index);
guint               winnow_conversation_get_part_message (WinnowConversation  *self,
                                                          guint                index);
const char         *winnow_conversation_get_part_path    (WinnowConversation  *self,
                                                          guint                index);
gboolean            winnow_conversation_get_part_is_tool_result (WinnowConversation *self,
                                                          guint                index);
const char         *winnow_conversation_get_part_tool_name (WinnowConversation *self,
                                                          guint                index);
const char         *winnow_conversation_get_part_command (WinnowConversation  *self,
                                                          guint                index);
const char         *winnow_conversation_get_part_cwd     (WinnowConversation  *self,
                                                          guint                index);
gboolean            winnow_conversation_is_plain_text    (WinnowConversation  *self);
char               *winnow_conversation_to_json          (WinnowConversation  *self,
                                                          gboolean             pretty);

G_END_DECLS
